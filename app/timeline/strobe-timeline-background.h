/* strobe-timeline-background.h — the timeline's work on worker threads (statistics, the
 * call tree, find, details, log ticks) runs in a pool of its own below the main thread's
 * priority, so the frames and the display server keep their cores while it runs (threads
 * it starts inherit that). GLib's own pool is left alone: an unprivileged process cannot
 * raise a thread's priority back once lowered.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What g_task_run_in_thread() does, on that pool. */
void strobe_background_run   (GTask           *task,
                              GTaskThreadFunc  func);

G_END_DECLS
