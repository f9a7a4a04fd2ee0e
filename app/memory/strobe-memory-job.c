/* strobe-memory-job.c
 *
 * Progress crosses threads through one atomic per run, read by a 50 ms timeout on the
 * main thread: a query reporting every chunk floods nothing.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-job.h"

typedef struct
{
  gint                ref_count;
  StrobeMemoryJobFunc func;
  gpointer            data;
  GDestroyNotify      destroy;
  GCancellable       *cancellable;
  gint                permille;     /* atomic */
} Run;

struct _StrobeMemoryJob
{
  GObject              parent_instance;
  Run                 *current;
  StrobeMemoryJobDone  done;
  gpointer             user_data;
  guint                poll_source;
  gdouble              progress;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryJob, strobe_memory_job, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_RUNNING,
  PROP_PROGRESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static Run *
run_ref (Run *run)
{
  g_atomic_int_inc (&run->ref_count);
  return run;
}

static void
run_unref (gpointer data)
{
  Run *run = data;

  if (!g_atomic_int_dec_and_test (&run->ref_count))
    return;
  if (run->destroy && run->data)
    run->destroy (run->data);
  g_clear_object (&run->cancellable);
  g_free (run);
}

static void
progress_cb (gdouble fraction, gpointer data)
{
  Run *run = data;

  g_atomic_int_set (&run->permille, (gint) (CLAMP (fraction, 0.0, 1.0) * 1000.0));
}

static void
set_progress (StrobeMemoryJob *self, gdouble progress)
{
  if (self->progress == progress)
    return;
  self->progress = progress;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

static gboolean
poll_cb (gpointer data)
{
  StrobeMemoryJob *self = data;

  if (self->current == NULL)
    {
      self->poll_source = 0;
      return G_SOURCE_REMOVE;
    }
  set_progress (self, g_atomic_int_get (&self->current->permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
thread_func (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Run *run = task_data;
  GError *error = NULL;
  GObject *result = run->func (run->data, cancellable, progress_cb, run, &error);

  if (result == NULL && error == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_FAILED, "no answer");
  if (result != NULL)
    g_task_return_pointer (task, result, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
stop_polling (StrobeMemoryJob *self)
{
  g_clear_handle_id (&self->poll_source, g_source_remove);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  StrobeMemoryJob *self = STROBE_MEMORY_JOB (source);
  Run *run = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) answer = g_task_propagate_pointer (G_TASK (result), &error);

  /* A newer run, or a cancel, took its place: nobody waits for this answer. */
  if (self->current != run)
    {
      run_unref (run);
      return;
    }
  self->current = NULL;
  run_unref (run);
  stop_polling (self);
  set_progress (self, 1.0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  if (self->done)
    self->done (answer, error, self->user_data);
}

static void
strobe_memory_job_dispose (GObject *object)
{
  StrobeMemoryJob *self = STROBE_MEMORY_JOB (object);

  strobe_memory_job_cancel (self);
  G_OBJECT_CLASS (strobe_memory_job_parent_class)->dispose (object);
}

static void
strobe_memory_job_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StrobeMemoryJob *self = STROBE_MEMORY_JOB (object);

  switch (prop_id)
    {
    case PROP_RUNNING:  g_value_set_boolean (value, self->current != NULL); break;
    case PROP_PROGRESS: g_value_set_double (value, self->progress); break;
    default:            G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_memory_job_class_init (StrobeMemoryJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_memory_job_dispose;
  object_class->get_property = strobe_memory_job_get_property;
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_memory_job_init (StrobeMemoryJob *self)
{
}

StrobeMemoryJob *
strobe_memory_job_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_JOB, NULL);
}

void
strobe_memory_job_run (StrobeMemoryJob     *self,
                       StrobeMemoryJobFunc  func,
                       gpointer             data,
                       GDestroyNotify       destroy,
                       StrobeMemoryJobDone  done,
                       gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  gboolean was_running;
  Run *run;

  g_return_if_fail (STROBE_IS_MEMORY_JOB (self));
  g_return_if_fail (func != NULL);

  was_running = self->current != NULL;
  if (was_running)
    {
      g_cancellable_cancel (self->current->cancellable);
      self->current = NULL;
    }
  run = g_new0 (Run, 1);
  run->ref_count = 1;
  run->func = func;
  run->data = data;
  run->destroy = destroy;
  run->cancellable = g_cancellable_new ();
  self->current = run;
  self->done = done;
  self->user_data = user_data;
  set_progress (self, 0.0);
  /* The task holds one reference for the thread, done_cb the other. */
  task = g_task_new (self, run->cancellable, done_cb, run_ref (run));
  g_task_set_task_data (task, run, run_unref);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, thread_func);
  if (self->poll_source == 0)
    self->poll_source = g_timeout_add (50, poll_cb, self);
  if (!was_running)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

void
strobe_memory_job_cancel (StrobeMemoryJob *self)
{
  g_return_if_fail (STROBE_IS_MEMORY_JOB (self));

  if (self->current == NULL)
    return;
  g_cancellable_cancel (self->current->cancellable);
  self->current = NULL;
  stop_polling (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

gboolean
strobe_memory_job_is_running (StrobeMemoryJob *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_JOB (self), FALSE);
  return self->current != NULL;
}

gdouble
strobe_memory_job_get_progress (StrobeMemoryJob *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_JOB (self), 0.0);
  return self->progress;
}
