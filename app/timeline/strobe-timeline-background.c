/* strobe-timeline-background.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-give-way.h"
#include "strobe-timeline-background.h"

typedef struct
{
  GTask           *task;
  GTaskThreadFunc  func;
} Job;

static void
run (gpointer data, gpointer user_data)
{
  Job *job = data;

  strobe_give_way_lower ();
  job->func (job->task, g_task_get_source_object (job->task), g_task_get_task_data (job->task),
             g_task_get_cancellable (job->task));
  g_object_unref (job->task);
  g_free (job);
}

void
strobe_background_run (GTask *task, GTaskThreadFunc func)
{
  static GThreadPool *pool;
  Job *job;

  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (func != NULL);

  if (g_once_init_enter (&pool))
    /* Several, so a long computation (statistics) does not hold up a short one (details). */
    g_once_init_leave (&pool, g_thread_pool_new (run, NULL, 4, TRUE, NULL));
  job = g_new (Job, 1);
  job->task = g_object_ref (task);
  job->func = func;
  g_thread_pool_push (pool, job, NULL);
}
