/* strobe-memory-job.h — one memory query at a time, off the main thread: a GTask thread
 * runs it with a cancellable and a progress callback; the main thread sees "progress"
 * and "running" (at most every 50 ms) and gets the result, unless a newer run or cancel
 * came in between (then it is dropped).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-memory-query.h"

G_BEGIN_DECLS

/* Runs in the job's thread: returns a new object (the answer) or NULL with @error; hands
 * @progress and @progress_data to the queries it runs. */
typedef GObject *(*StrobeMemoryJobFunc) (gpointer                 data,
                                         GCancellable            *cancellable,
                                         StrobeMemoryProgressFunc progress,
                                         gpointer                 progress_data,
                                         GError                 **error);
/* On the main thread: @result is NULL when @error is set (never for a dropped run). */
typedef void (*StrobeMemoryJobDone) (GObject      *result,
                                     const GError *error,
                                     gpointer      user_data);

#define STROBE_TYPE_MEMORY_JOB (strobe_memory_job_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryJob, strobe_memory_job, STROBE, MEMORY_JOB, GObject)

StrobeMemoryJob *strobe_memory_job_new      (void);
/* Cancels the run before and starts @func (@data freed with @destroy in the thread's
 * end). @done is called with @user_data, which must outlive the job or the run (a
 * widget that cancels in its dispose). */
void     strobe_memory_job_run              (StrobeMemoryJob     *self,
                                             StrobeMemoryJobFunc  func,
                                             gpointer             data,
                                             GDestroyNotify       destroy,
                                             StrobeMemoryJobDone  done,
                                             gpointer             user_data);
void     strobe_memory_job_cancel           (StrobeMemoryJob     *self);
gboolean strobe_memory_job_is_running       (StrobeMemoryJob     *self);
/* 0..1 of the current run (notify::progress, at most every 50 ms). */
gdouble  strobe_memory_job_get_progress     (StrobeMemoryJob     *self);

G_END_DECLS
