/* bench-stall.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench-common.h"
#include "bench-stall.h"

double
bench_thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static double
process_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

/* The main thread's time on a run queue waiting for a CPU, in ns (the second field of
 * schedstat); 0 where the kernel does not say. */
static double
wait_ns (const BenchStall *s)
{
  char buf[96];
  ssize_t n;
  char *end;

  if (s->schedstat_fd < 0 || (n = pread (s->schedstat_fd, buf, sizeof buf - 1, 0)) <= 0)
    return 0;
  buf[n] = '\0';
  strtoull (buf, &end, 10);
  return (double) strtoull (end, NULL, 10);
}

/* All CPUs' steal time in ms: what the hypervisor ran instead of this machine (the eighth
 * figure of /proc/stat's first line, in clock ticks); 0 where not known. */
static double
steal_from (int fd)
{
  char buf[256];
  unsigned long long v[8] = { 0 };
  ssize_t n;

  if (fd < 0 || (n = pread (fd, buf, sizeof buf - 1, 0)) <= 0)
    return 0;
  buf[n] = '\0';
  if (sscanf (buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
              &v[7]) != 8)
    return 0;
  return (double) v[7] * 1000.0 / (double) sysconf (_SC_CLK_TCK);
}

static double
steal_ms (const BenchStall *s)
{
  return steal_from (s->stat_fd);
}

double
bench_steal_ms (void)
{
  static gsize once;
  static int fd = -1;

  if (g_once_init_enter (&once))
    {
      fd = open ("/proc/stat", O_RDONLY | O_CLOEXEC);
      g_once_init_leave (&once, 1);
    }
  return steal_from (fd);
}

/* With STROBE_BENCH_LONG_FRAMES set, a line on stderr saying when (CLOCK_MONOTONIC) a long
 * frame or gap ended, to find it in `perf record -k CLOCK_MONOTONIC` (tests/bench/README.md). */
static void G_GNUC_PRINTF (2, 3)
note_long (const char *what, const char *format, ...)
{
  struct timespec ts;
  va_list args;

  if (g_getenv ("STROBE_BENCH_LONG_FRAMES") == NULL)
    return;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  fprintf (stderr, "long %s: ended at %.6f s (CLOCK_MONOTONIC), ", what, ts.tv_sec + ts.tv_nsec / 1e9);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
}

static gboolean
tick_cb (gpointer data)
{
  BenchStall *s = data;
  double now = bench_now_ns (), cpu = bench_thread_cpu_ns (), process = process_cpu_ns (), wait = wait_ns (s);
  double steal = steal_ms (s);

  if (s->last > 0)
    {
      double gap = (now - s->last) / 1e6, busy = (cpu - s->last_cpu) / 1e6;

      if (gap > s->max_gap)
        {
          s->max_gap = gap;
          s->busy_in_max_gap = busy;
          s->others_in_max_gap = (process - s->last_process_cpu) / 1e6 - busy;
          s->wait_in_max_gap = (wait - s->last_wait) / 1e6;
          s->steal_in_max_gap = steal - s->last_steal;
        }
      if (gap > 4)
        note_long ("gap", "%.2f ms, main thread ran %.2f ms, waited %.2f ms", gap, busy, (wait - s->last_wait) / 1e6);
      s->max_busy = MAX (s->max_busy, busy);
      s->max_busy_outside = MAX (s->max_busy_outside, busy - s->frame_cpu_in_gap);
    }
  /* The next gap starts after this tick's reads of /proc (/proc/stat costs the kernel a
   * walk of every CPU): the probe's own work is no gap's. */
  s->last = bench_now_ns ();
  s->last_cpu = bench_thread_cpu_ns ();
  s->last_process_cpu = process_cpu_ns ();
  s->last_wait = wait;
  s->last_steal = steal;
  s->frame_cpu_in_gap = 0;
  return G_SOURCE_CONTINUE;
}

void
bench_stall_start (BenchStall *s)
{
  bench_stall_stop (s);
  *s = (BenchStall) { 0 };
  /* Opened once, read with pread: the tick must stay cheap. */
  s->schedstat_fd = open ("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  s->stat_fd = open ("/proc/stat", O_RDONLY | O_CLOEXEC);
  s->tick = g_timeout_add (1, tick_cb, s);
}

static void
paint_begin (GdkFrameClock *clock, BenchStall *s)
{
  s->paint_start = bench_now_ns ();
  s->paint_cpu_start = bench_thread_cpu_ns ();
  s->paint_steal_start = steal_ms (s);
}

static void
paint_end (GdkFrameClock *clock, BenchStall *s)
{
  if (s->paint_start > 0)
    {
      double cpu = (bench_thread_cpu_ns () - s->paint_cpu_start) / 1e6;
      double wall = (bench_now_ns () - s->paint_start) / 1e6;

      s->max_paint = MAX (s->max_paint, wall);
      s->max_frame_cpu = MAX (s->max_frame_cpu, cpu);
      /* On this virtual machine a thread's CPU clock runs on while the hypervisor has its
       * CPU (tests/bench/README.md, the viewer at 1 B scopes): such a frame is set apart. */
      if (steal_ms (s) > s->paint_steal_start)
        s->frames_stolen++;
      else
        s->max_frame_cpu_unstolen = MAX (s->max_frame_cpu_unstolen, cpu);
      s->frame_cpu_in_gap += cpu;
      s->frame_cpu_sum += cpu;
      s->frames++;
      if (cpu > 8)
        note_long ("frame", "%.2f ms of CPU, %.2f ms wall", cpu, wall);
    }
  s->paint_start = 0;
}

/* The timer of a signal whose emission hook is set: one watched at a time per signal. */
static BenchSignalTimer *changed_timer, *compute_size_timer;

static gboolean
timer_hook (GSignalInvocationHint *hint, guint n, const GValue *values, gpointer data)
{
  BenchSignalTimer *t = *(BenchSignalTimer **) data;

  if (t != NULL)
    t->start = t->now ();
  return TRUE;
}

static void
timer_after (BenchSignalTimer *t)
{
  if (t->start > 0)
    t->max = MAX (t->max, (t->now () - t->start) / 1e6);
  t->start = 0;
}

/* Times @signal of @instance by @now; @active: the signal's slot above. */
static void
timer_watch (BenchSignalTimer *t, BenchSignalTimer **active, gpointer instance, const char *signal,
             double (*now) (void))
{
  static gsize hooked;

  if (g_once_init_enter (&hooked))
    {
      g_signal_add_emission_hook (g_signal_lookup ("changed", STROBE_TYPE_DOCUMENT), 0, timer_hook, &changed_timer, NULL);
      g_signal_add_emission_hook (g_signal_lookup ("compute-size", GDK_TYPE_TOPLEVEL), 0, timer_hook,
                                  &compute_size_timer, NULL);
      g_once_init_leave (&hooked, 1);
    }
  *active = t;
  t->now = now;
  t->instance = g_object_ref (instance);
  t->id = g_signal_connect_data (instance, signal, G_CALLBACK (timer_after), t, NULL,
                                 G_CONNECT_AFTER | G_CONNECT_SWAPPED);
}

static void
timer_stop (BenchSignalTimer *t, BenchSignalTimer **active)
{
  if (t->instance != NULL)
    {
      g_signal_handler_disconnect (t->instance, t->id);
      g_clear_object (&t->instance);
    }
  if (*active == t)
    *active = NULL;
}

void
bench_stall_watch_frames (BenchStall *s, GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  GtkNative *native;
  GdkSurface *surface;

  if (clock == NULL)
    return;
  s->clock = g_object_ref (clock);
  /* A frame is timed from "before-paint", which every frame has, to "after-paint": its
   * update phase (tick callbacks — GTK validates the widgets' CSS styles in one), layout
   * and paint. Not from "layout": GTK's own layout handler was connected first and ran
   * before the frame started, a frame with nothing to lay out has no layout phase, and
   * the styling of a jump's new rows, in the update phase, counted as a stall. */
  s->paint_ids[0] = g_signal_connect_after (clock, "before-paint", G_CALLBACK (paint_begin), s);
  s->paint_ids[1] = g_signal_connect_after (clock, "after-paint", G_CALLBACK (paint_end), s);

  native = gtk_widget_get_native (widget);
  surface = native ? gtk_native_get_surface (native) : NULL;
  if (GDK_IS_TOPLEVEL (surface))
    timer_watch (&s->compute_size, &compute_size_timer, surface, "compute-size", bench_thread_cpu_ns);
}

void
bench_stall_watch_changes (BenchStall *s, StrobeDocument *document)
{
  timer_watch (&s->changed, &changed_timer, document, "changed", bench_now_ns);
}

void
bench_stall_mark (BenchStall *s)
{
  s->last = bench_now_ns ();
  s->last_cpu = bench_thread_cpu_ns ();
  s->last_process_cpu = process_cpu_ns ();
  s->last_wait = wait_ns (s);
  s->last_steal = steal_ms (s);
  s->frame_cpu_in_gap = 0;
}

void
bench_stall_stop (BenchStall *s)
{
  g_clear_handle_id (&s->tick, g_source_remove);
  if (s->schedstat_fd > 0)
    close (s->schedstat_fd);
  if (s->stat_fd > 0)
    close (s->stat_fd);
  s->schedstat_fd = s->stat_fd = -1;
  if (s->clock)
    {
      g_signal_handler_disconnect (s->clock, s->paint_ids[0]);
      g_signal_handler_disconnect (s->clock, s->paint_ids[1]);
      g_clear_object (&s->clock);
    }
  timer_stop (&s->compute_size, &compute_size_timer);
  timer_stop (&s->changed, &changed_timer);
}

void
bench_stall_report (const char *prefix, const BenchStall *s, gboolean frames)
{
  char key[96];

  g_snprintf (key, sizeof key, "%s.main_stall", prefix);
  bench_report (key, s->max_gap, "ms (longest main-loop gap: what a user sees)");
  g_snprintf (key, sizeof key, "%s.main_stall_busy", prefix);
  bench_report (key, s->busy_in_max_gap, "ms (of it the main thread ran; the rest it waited for a CPU or slept)");
  /* Who had the cores meanwhile: near (cores × gap − busy), this process's own threads; far
   * below it, other processes (or nothing, when the main thread slept rather than waited). */
  g_snprintf (key, sizeof key, "%s.main_stall_waiting", prefix);
  bench_report (key, s->wait_in_max_gap, "ms (of it the main thread was runnable, waiting for a CPU: schedstat)");
  g_snprintf (key, sizeof key, "%s.main_stall_own_threads_cpu", prefix);
  bench_report (key, s->others_in_max_gap, "ms (CPU time the process's other threads had in that gap)");
  /* In a virtual machine the host may take the CPUs themselves: the whole process stands
   * still, neither running nor waiting on a run queue. */
  g_snprintf (key, sizeof key, "%s.main_stall_steal", prefix);
  bench_report (key, s->steal_in_max_gap, "ms (the CPUs' time the hypervisor took in that gap, all CPUs, 10 ms steps)");
  g_snprintf (key, sizeof key, "%s.main_stall_cores_x_gap", prefix);
  bench_report (key, s->max_gap * (double) g_get_num_processors (), "ms (all the CPU time the machine had in that gap)");
  g_snprintf (key, sizeof key, "%s.main_busy_max", prefix);
  bench_report (key, s->max_busy, "ms (the main thread's most CPU time between two 1 ms ticks, frames included)");
  g_snprintf (key, sizeof key, "%s.main_busy_outside_frames_max", prefix);
  bench_report (key, s->max_busy_outside, "ms (the same without GTK's frames in the gap: handlers, idles, feeding)");
  if (frames)
    {
      g_snprintf (key, sizeof key, "%s.frame_cpu_max", prefix);
      bench_report (key, s->max_frame_cpu, "ms (GTK's longest frame by the main thread's CPU time)");
      g_snprintf (key, sizeof key, "%s.frame_cpu_max_unstolen", prefix);
      bench_report (key, s->max_frame_cpu_unstolen, "ms (the same of frames during which the hypervisor took no CPU time)");
      g_snprintf (key, sizeof key, "%s.frames_stolen", prefix);
      bench_report (key, s->frames_stolen, "frames during which the hypervisor took CPU time");
      g_snprintf (key, sizeof key, "%s.screen_frame_max", prefix);
      bench_report (key, s->max_paint, "ms (GTK's longest frame on the X display by the wall clock: layout, paint, upload)");
      g_snprintf (key, sizeof key, "%s.window_least_size_cpu_max", prefix);
      bench_report (key, s->compute_size.max,
                    "ms (GTK's window measuring its least size again, compute-size: outside the frames on X11)");
    }
  if (s->changed.now != NULL)
    {
      g_snprintf (key, sizeof key, "%s.changed_handler_max", prefix);
      bench_report (key, s->changed.max, "ms (the views' longest handling of a document change, wall)");
    }
  g_snprintf (key, sizeof key, "%s_main_stall_ms", prefix);
  bench_report_ratio (key, s->max_gap, "<=", 4);
  g_snprintf (key, sizeof key, "%s_main_busy_outside_frames_ms", prefix);
  bench_report_ratio (key, s->max_busy_outside, "<=", 4);
  if (frames)
    {
      g_snprintf (key, sizeof key, "%s_frame_cpu_ms", prefix);
      bench_report_ratio (key, s->max_frame_cpu, "<=", 16);
      g_snprintf (key, sizeof key, "%s_screen_frame_ms", prefix);
      bench_report_ratio (key, s->max_paint, "<=", 16);
    }
}
