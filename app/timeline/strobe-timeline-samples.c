/* strobe-timeline-samples.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-chart-layers.h"
#include "strobe-format.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-samples.h"
#include "strobe-timeline-tracks.h"

#define STATE_TOP 1
#define STATE_H   6
#define TICK_TOP  (STATE_TOP + STATE_H + 1)
#define TICK_H    (STROBE_TRACK_SAMPLES_H - TICK_TOP - 1)

/* The sampling rate per thread (Hz), 1 kHz when the trace does not say. */
static guint
rate_of (StrobeSampleModel *model)
{
  StrobeSampleStatus status = { 0 };
  guint hz = 0;

  if (strobe_sample_model_get_status (model, &status))
    hz = status.frequency;
  strobe_sample_status_clear (&status);
  return hz ? hz : 1000;
}

static void
state_rgb (StrobeSampleState state, gboolean dark, double *r, double *g, double *b)
{
  switch (state)
    {
    case STROBE_SAMPLE_STATE_RUNNING:   *r = 0.20; *g = dark ? 0.75 : 0.62; *b = 0.30; break;
    case STROBE_SAMPLE_STATE_PREEMPTED: *r = 0.95; *g = 0.62; *b = 0.10; break;
    case STROBE_SAMPLE_STATE_WAITING:
    default:                            *r = *g = *b = dark ? 0.45 : 0.62; break;
    }
}

void
strobe_timeline_paint_sample_strip (cairo_t *cr, const StrobeTimeScale *axis, StrobeSampleModel *model,
                                    guint32 system_id, double y, gboolean dark)
{
  guint64 t1 = strobe_time_scale_end (axis);
  g_autoptr (GArray) states = NULL;
  g_autofree guint64 *counts = NULL;
  guint64 peak = 0;
  int width = MAX (axis->width, 1);

  g_return_if_fail (cr != NULL && STROBE_IS_SAMPLE_MODEL (model));

  /* States: running and preempted as bands, waiting as a thin line (no CPU). */
  states = strobe_sample_model_get_states (model, system_id, axis->start, t1);
  for (guint i = 0; i < states->len; i++)
    {
      const StrobeSampleStateInterval *s = &g_array_index (states, StrobeSampleStateInterval, i);
      double x0 = floor (strobe_time_scale_x (axis, s->begin)), x1 = ceil (strobe_time_scale_x (axis, s->end));
      double r, g, b;

      state_rgb (s->state, dark, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      if (s->state == STROBE_SAMPLE_STATE_WAITING)
        cairo_rectangle (cr, x0, y + STATE_TOP + STATE_H / 2 - 1, MAX (x1 - x0, 1), 2);
      else
        cairo_rectangle (cr, x0, y + STATE_TOP, MAX (x1 - x0, 1), STATE_H);
      cairo_fill (cr);
    }
  /* Sample ticks: one per pixel column with samples, darker where they are denser. */
  counts = g_new0 (guint64, width);
  strobe_sample_model_get_counts (model, system_id, axis->start, t1, (guint) width, counts);
  for (int x = 0; x < width; x++)
    peak = MAX (peak, counts[x]);
  for (int x = 0; x < width && peak; x++)
    if (counts[x])
      {
        cairo_set_source_rgba (cr, dark ? 0.85 : 0.15, dark ? 0.85 : 0.15, dark ? 0.9 : 0.2,
                               0.35 + 0.65 * (double) counts[x] / (double) peak);
        cairo_rectangle (cr, x, y + TICK_TOP, 1, TICK_H);
        cairo_fill (cr);
      }
}

typedef struct
{
  guint64       t0;
  double        dt;      /* ticks a bucket */
  const double *share;
} Buckets;

static guint64 bucket_time (gconstpointer data, guint i) { const Buckets *b = data; return b->t0 + (guint64) (b->dt * i); }
static double bucket_value (gconstpointer data, guint i) { return ((const Buckets *) data)->share[i]; }

/* The CPU share (1.0: one core) of @n buckets over [@t0, @t1). */
static double *
shares (StrobeSampleModel *model, const StrobeTraceClock *clock, guint64 t0, guint64 t1, guint n)
{
  g_autofree guint64 *counts = g_new0 (guint64, n);
  double *share = g_new0 (double, n);
  double bucket_s = strobe_trace_clock_ticks_to_seconds (clock, (double) (t1 - t0) / n);
  double hz = rate_of (model);

  strobe_sample_model_get_counts (model, 0, t0, t1, n, counts);
  for (guint i = 0; i < n; i++)
    share[i] = bucket_s > 0 ? (double) counts[i] / (bucket_s * hz) : 0;
  return share;
}

/* A bucket long enough for a thread always on a CPU to have this many samples in it: fewer
 * makes a comb of 0 and 100 %, not a usage. */
#define SAMPLES_A_BUCKET 8

void
strobe_timeline_paint_cpu_usage (cairo_surface_t *surface, const StrobeTimeScale *axis,
                                 const StrobeTraceClock *clock, StrobeSampleModel *model, double y, double h,
                                 double max_share, gboolean dark)
{
  guint64 t1 = strobe_time_scale_end (axis), dt, start;
  g_autofree double *share = NULL;
  GdkRGBA color = dark ? (GdkRGBA) { 0.40, 0.80, 0.45, 1 } : (GdkRGBA) { 0.15, 0.55, 0.25, 1 };
  StrobeChartLane lane = { y, h, MAX (max_share, 1.0), 0 };
  StrobeChartCanvas canvas;
  StrobeChartSeries series;
  Buckets b;
  guint n;

  g_return_if_fail (surface != NULL && clock != NULL && STROBE_IS_SAMPLE_MODEL (model));
  /* Buckets on multiples of their length from time 0, so neighbouring tiles agree. */
  dt = MAX ((guint64) ceil (axis->scale), strobe_trace_clock_ticks (clock, (double) SAMPLES_A_BUCKET / rate_of (model)));
  dt = MAX (dt, 1);
  start = axis->start / dt * dt;
  n = (guint) MIN ((t1 - start) / dt + 2, 1u << 16);
  share = shares (model, clock, start, start + (guint64) n * dt, n);
  b = (Buckets) { start, (double) dt, share };
  series = (StrobeChartSeries) { n, start + (guint64) n * dt, bucket_time, bucket_value, &b };
  strobe_chart_canvas_init (&canvas, surface, axis->width);
  strobe_chart_canvas_color (&canvas, &color, 0.3);
  strobe_chart_area (&canvas, axis, &lane, &series);
  strobe_chart_canvas_color (&canvas, &color, 1);
  strobe_chart_line (&canvas, axis, &lane, &series, 1.25);
  cairo_surface_mark_dirty (surface);
}

double
strobe_timeline_cpu_peak (StrobeSampleModel *model, const StrobeTraceClock *clock, guint64 t0, guint64 t1, guint n)
{
  g_autofree double *share = NULL;
  double peak = 1.0;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (model) && clock != NULL, 1.0);
  if (t1 <= t0 || n == 0)
    return peak;
  /* Buckets as long as the graph's shortest, at least. */
  n = (guint) MIN ((double) n, MAX (1.0, strobe_trace_clock_duration (clock, t1 - t0) * rate_of (model) / SAMPLES_A_BUCKET));
  share = shares (model, clock, t0, t1, n);
  for (guint i = 0; i < n; i++)
    peak = MAX (peak, share[i]);
  return peak;
}

/* ---- tooltips --------------------------------------------------------------------------------- */

char *
strobe_timeline_describe_strip (StrobeSampleModel *model, const StrobeTraceClock *clock, guint32 system_id,
                                guint64 t, guint64 slop)
{
  /* The whole interval the moment is in: the wait's full length, not its visible part. */
  g_autoptr (GArray) states = NULL;
  GString *text = g_string_new (NULL);
  guint64 n;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (model) && clock != NULL, NULL);
  states = strobe_sample_model_get_states (model, system_id, 0, G_MAXUINT64);
  for (guint i = 0; i < states->len; i++)
    {
      const StrobeSampleStateInterval *s = &g_array_index (states, StrobeSampleStateInterval, i);
      g_autofree char *len = NULL;

      if (t < s->begin || t >= s->end)
        continue;
      len = strobe_format_ticks (clock, s->end - s->begin);
      switch (s->state)
        {
        case STROBE_SAMPLE_STATE_RUNNING:
          /* Translators: a thread's state on the timeline and how long it lasted */
          g_string_append_printf (text, _("Running for %s"), len);
          break;
        case STROBE_SAMPLE_STATE_PREEMPTED:
          /* Translators: a thread could run but had no CPU, for that long */
          g_string_append_printf (text, _("Preempted for %s (ready, no CPU)"), len);
          break;
        case STROBE_SAMPLE_STATE_WAITING:
        default:
          /* Translators: a thread slept or waited (a lock, I/O) for that long */
          g_string_append_printf (text, _("Waiting for %s (asleep, a lock or I/O)"), len);
          break;
        }
      break;
    }
  n = strobe_sample_model_count (model, system_id, t > slop ? t - slop : 0, t + slop);
  if (n)
    {
      if (text->len)
        g_string_append_c (text, '\n');
      g_autofree char *count = strobe_format_count (n);
      /* Translators: %s is a number of CPU samples near the pointer */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s sample here", "%s samples here", (gulong) n),
                              count);
    }
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

char *
strobe_timeline_describe_cpu (StrobeSampleModel *model, const StrobeTraceClock *clock, guint64 t, guint64 slop)
{
  g_autofree double *share = NULL;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (model) && clock != NULL, NULL);
  slop = MAX (slop, 1);
  share = shares (model, clock, t > slop ? t - slop : 0, t + slop, 1);
  /* Translators: the process's CPU usage at a moment; 100 % is one core busy */
  return g_strdup_printf (_("CPU %.0f %% (100 %% is one core)"), 100.0 * share[0]);
}
