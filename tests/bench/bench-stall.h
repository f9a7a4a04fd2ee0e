/* bench-stall.h — the main thread's budget as the view benchmarks measure it (issue 20: no
 * stall over 4 ms, no frame over 16 ms).
 *
 * A 1 ms timer on the main loop: the gap between two of its runs is time the loop could
 * not run. On the shared 2-core machine most of a long gap can be the main thread waiting
 * for a CPU (another process, the X server), so each gap's main-thread CPU time is taken
 * too, and split into GTK's frames in it (the frame clock's before-paint to after-paint:
 * tick callbacks and GTK's styling, layout, painting; a frame has 16 ms) and the rest
 * (handlers, idles, feeding a model: a stall proper, 4 ms).
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"

G_BEGIN_DECLS

/* A signal's whole handling timed, from an emission hook (before every handler) to a
 * handler connected last: its longest, in ms. */
typedef struct
{
  GObject *instance;         /* watched; NULL: not */
  gulong   id;
  double (*now) (void);      /* ns */
  double   start;
  double   max;
} BenchSignalTimer;

typedef struct
{
  double last, last_cpu;
  double last_process_cpu;   /* every thread of the process */
  double last_wait;          /* the main thread's time runnable but not running (schedstat) */
  int    schedstat_fd;       /* /proc/thread-self/schedstat, or -1 */
  int    stat_fd;            /* /proc/stat, or -1 */
  double last_steal;         /* the CPUs' time taken by the hypervisor (/proc/stat's steal), ms */
  double steal_in_max_gap;
  double others_in_max_gap;  /* in the longest gap: the CPU time of the process's other threads */
  double wait_in_max_gap;    /* and the main thread's time waiting for a CPU */
  double max_gap;            /* wall, ms */
  double busy_in_max_gap;    /* of it the main thread ran */
  double max_busy;           /* the most CPU in one gap, frames included */
  double max_busy_outside;   /* the same besides GTK's frames in the gap */
  double frame_cpu_in_gap;
  double paint_start, paint_cpu_start;
  double max_frame_cpu;      /* GTK's longest frame by the main thread's CPU */
  double paint_steal_start;
  double max_frame_cpu_unstolen; /* the same of frames during which the hypervisor took no CPU time */
  guint  frames_stolen;
  double frame_cpu_sum;      /* every frame's, and how many */
  guint  frames;
  double max_paint;          /* and by the wall clock */
  guint  tick;
  GdkFrameClock *clock;
  gulong paint_ids[2];
  /* The views' handling of a document change (wall), and the window's least size measured
   * again (GdkToplevel compute-size; outside the frames on X11, by the main thread's CPU). */
  BenchSignalTimer changed;
  BenchSignalTimer compute_size;
} BenchStall;

/* Starts the 1 ms timer (and clears the figures). */
void   bench_stall_start         (BenchStall     *s);
/* GTK's frames of @widget's window count as frames; its window's compute-size is timed. */
void   bench_stall_watch_frames  (BenchStall     *s,
                                  GtkWidget      *widget);
/* Times the handling of @document's "changed" (every handler, the views'). */
void   bench_stall_watch_changes (BenchStall     *s,
                                  StrobeDocument *document);
/* A gap starts now: what the bench did itself since the last tick is not the viewer's. */
void   bench_stall_mark          (BenchStall     *s);
/* Stops the timer and lets go of what it watched. */
void   bench_stall_stop          (BenchStall     *s);
/* PREFIX.main_stall, .main_stall_busy, .main_busy_max, .main_busy_outside_frames_max,
 * .frame_cpu_max, .screen_frame_max, .changed_handler_max, and the ratio lines:
 * PREFIX_main_stall_ms ≤ 4 (wall), PREFIX_main_busy_outside_frames_ms ≤ 4,
 * PREFIX_frame_cpu_ms ≤ 16, PREFIX_screen_frame_ms ≤ 16 (the frame lines with @frames). */
void   bench_stall_report        (const char     *prefix,
                                  const BenchStall *s,
                                  gboolean        frames);
/* The calling thread's CPU time, ns. */
double bench_thread_cpu_ns       (void);
/* Every CPU's steal time so far, ms: what the hypervisor ran instead of this machine
 * (/proc/stat, 10 ms steps; 0 where not known). */
double bench_steal_ms            (void);

G_END_DECLS
