/* strobe-timeline-painter.c
 *
 * Every rectangle is snapped to whole device pixels (cairo's fast path, and crisp edges).
 * Text goes through a PangoContext of the worker thread's own font map, with fixed font
 * options so a tile looks the same on every machine and in every test run.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "strobe-chart-layers.h"
#include "strobe-info-analyzer.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-painter.h"
#include "strobe-timeline-samples.h"

#define LABEL_MIN_W 24

/* ---- colours -------------------------------------------------------------------------- */

static StrobeRgb
hsv (gdouble h, gdouble s, gdouble v)
{
  gdouble r, g, b;
  gdouble f, p, q, t;
  int i;

  h = fmod (h, 1.0) * 6.0;
  i = (int) floor (h);
  f = h - i;
  p = v * (1 - s);
  q = v * (1 - s * f);
  t = v * (1 - s * (1 - f));
  switch (i)
    {
    case 0: r = v; g = t; b = p; break;
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = t; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = t; g = p; b = v; break;
    default: r = v; g = p; b = q; break;
    }
  return (StrobeRgb) { r, g, b };
}

static guint32
fnv1a (const char *s)
{
  guint32 h = 2166136261u;

  for (; s && *s; s++)
    h = (h ^ (guint8) *s) * 16777619u;
  return h;
}

StrobeRgb
strobe_timeline_name_color (const char *name)
{
  guint32 h = fnv1a (name);

  /* Hue from the hash, saturation and value in a band that keeps black text readable. */
  return hsv ((h & 0xffff) / 65536.0, 0.42 + ((h >> 16) & 0xff) / 255.0 * 0.2,
              0.80 + ((h >> 24) & 0x7f) / 127.0 * 0.14);
}

StrobeRgb
strobe_timeline_thread_color (guint16 thread_id, guint depth)
{
  gdouble hue = fmod (thread_id * 0.618033988749895, 1.0);
  return hsv (hue, 0.50, 0.92 - 0.05 * (depth % 6));
}

StrobeRgb
strobe_timeline_duration_color (const StrobeTraceClock *clock, guint64 ticks)
{
  gdouble s = strobe_trace_clock_duration (clock, ticks);

  /* Unreal Insights' timing view: the longer, the warmer. */
  if (s < 1e-6)
    return (StrobeRgb) { 0.62, 0.66, 0.74 };
  if (s < 1e-5)
    return (StrobeRgb) { 0.45, 0.70, 0.85 };
  if (s < 1e-4)
    return (StrobeRgb) { 0.45, 0.80, 0.55 };
  if (s < 1e-3)
    return (StrobeRgb) { 0.88, 0.85, 0.40 };
  if (s < 1e-2)
    return (StrobeRgb) { 0.95, 0.62, 0.30 };
  return (StrobeRgb) { 0.92, 0.35, 0.30 };
}

StrobeRgb
strobe_timeline_verbosity_color (guint8 verbosity)
{
  switch (verbosity)
    {
    case 1:  return (StrobeRgb) { 0.75, 0.05, 0.35 };   /* fatal */
    case 2:  return (StrobeRgb) { 0.88, 0.11, 0.14 };   /* error */
    case 3:  return (StrobeRgb) { 0.96, 0.62, 0.05 };   /* warning */
    case 4:  return (StrobeRgb) { 0.20, 0.52, 0.89 };   /* display */
    case 5:  return (StrobeRgb) { 0.40, 0.55, 0.70 };   /* log */
    default: return (StrobeRgb) { 0.60, 0.62, 0.66 };   /* verbose */
    }
}

StrobeRgb
strobe_timeline_frame_color (guint64 duration, guint64 target)
{
  if (target == 0 || duration <= target)
    return (StrobeRgb) { 0.36, 0.72, 0.36 };
  if (duration <= target + target / 2)
    return (StrobeRgb) { 0.93, 0.76, 0.22 };
  return (StrobeRgb) { 0.88, 0.27, 0.24 };
}

StrobeRgb
strobe_timeline_text_on (StrobeRgb bg)
{
  gdouble l = 0.2126 * bg.r + 0.7152 * bg.g + 0.0722 * bg.b;
  return l > 0.45 ? (StrobeRgb) { 0.08, 0.08, 0.08 } : (StrobeRgb) { 1, 1, 1 };
}

static StrobeRgb
mix (StrobeRgb a, StrobeRgb b, gdouble t)
{
  return (StrobeRgb) { a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t };
}

StrobeRgb
strobe_timeline_region_color (const char *name, gboolean dark)
{
  return mix (strobe_timeline_name_color (name), dark ? (StrobeRgb) { 0.1, 0.1, 0.1 } : (StrobeRgb) { 1, 1, 1 }, 0.35);
}

void
strobe_tile_spec_clear (StrobeTileSpec *spec)
{
  g_clear_pointer (&spec->font, pango_font_description_free);
  g_clear_pointer (&spec->log_ticks, g_array_unref);
  g_clear_object (&spec->samples);
  g_clear_pointer (&spec->gaps, g_array_unref);
}

/* ---- the painting context ---------------------------------------------------------------- */

typedef struct
{
  const StrobeTileSpec *spec;
  StrobeTimelineModel  *model;
  cairo_t              *cr;
  PangoContext         *pango;
  PangoLayout          *layout;
  GHashTable           *widths;     /* name id -> label width + 1 (unellipsized) */
  int                   font_h;
  cairo_pattern_t      *hatch;
} Painter;

static GPrivate thread_pango = G_PRIVATE_INIT (g_object_unref);

static PangoContext *
worker_pango (void)
{
  PangoContext *ctx = g_private_get (&thread_pango);

  if (ctx == NULL)
    {
      /* One per thread: Pango's font maps are per thread. */
      cairo_font_options_t *options = cairo_font_options_create ();
      PangoFontMap *map = pango_cairo_font_map_new ();

      ctx = pango_font_map_create_context (map);
      g_object_unref (map);
      cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
      cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_SLIGHT);
      cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
      pango_cairo_context_set_font_options (ctx, options);
      pango_cairo_context_set_resolution (ctx, 96);
      cairo_font_options_destroy (options);
      g_private_set (&thread_pango, ctx);
    }
  return ctx;
}

static void
set_rgb (cairo_t *cr, StrobeRgb c, gdouble alpha)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, alpha);
}

/* A rectangle on whole device pixels, at least one wide. */
static void
snapped_rect (Painter *p, gdouble x, gdouble y, gdouble w, gdouble h)
{
  gdouble sf = p->spec->scale_factor;
  gdouble x0 = floor (x * sf + 0.5) / sf, x1 = floor ((x + w) * sf + 0.5) / sf;

  if (x1 - x0 < 1 / sf)
    x1 = x0 + 1 / sf;
  cairo_rectangle (p->cr, x0, y, x1 - x0, h);
}

/* Diagonal stripes with a period of 8 pixels, which divides the tile size: the pattern
 * runs on across tile edges without a seam. */
static cairo_pattern_t *
make_hatch (gboolean dark)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t *cr = cairo_create (s);
  cairo_pattern_t *pat;

  cairo_set_source_rgba (cr, dark ? 1 : 0, dark ? 1 : 0, dark ? 1 : 0, 0.28);
  cairo_set_line_width (cr, 2);
  cairo_move_to (cr, -1, 9);
  cairo_line_to (cr, 9, -1);
  cairo_move_to (cr, -1, 1);
  cairo_line_to (cr, 1, -1);
  cairo_move_to (cr, 7, 9);
  cairo_line_to (cr, 9, 7);
  cairo_stroke (cr);
  cairo_destroy (cr);
  pat = cairo_pattern_create_for_surface (s);
  cairo_pattern_set_extend (pat, CAIRO_EXTEND_REPEAT);
  cairo_surface_destroy (s);
  return pat;
}

/* Draws @text at (@x, @y) in at most @max_w pixels, ellipsized; @name_id caches the
 * unellipsized width (G_MAXUINT32: no cache). */
static void
label (Painter *p, const char *text, guint32 name_id, gdouble x, gdouble y, gdouble max_w, StrobeRgb color)
{
  int w = -1;
  gpointer cached = name_id != G_MAXUINT32 ? g_hash_table_lookup (p->widths, GUINT_TO_POINTER (name_id)) : NULL;

  if (max_w < 8 || text == NULL || *text == '\0')
    return;
  if (cached)
    w = GPOINTER_TO_INT (cached) - 1;
  pango_layout_set_width (p->layout, -1);
  pango_layout_set_text (p->layout, text, -1);
  if (w < 0)
    {
      pango_layout_get_pixel_size (p->layout, &w, NULL);
      if (name_id != G_MAXUINT32)
        g_hash_table_insert (p->widths, GUINT_TO_POINTER (name_id), GINT_TO_POINTER (w + 1));
    }
  if (w > max_w)
    {
      /* Too little room even for "a…": nothing. */
      if (max_w < 16)
        return;
      pango_layout_set_width (p->layout, (int) (max_w * PANGO_SCALE));
      w = (int) max_w;
    }
  if (x + w < 0)
    return;
  set_rgb (p->cr, color, 1);
  cairo_move_to (p->cr, x, y);
  pango_cairo_show_layout (p->cr, p->layout);
}

/* ---- scopes --------------------------------------------------------------------------- */

/* Where the label of something drawn from @x (tile pixels, negative when it began in an
 * earlier tile) over @w pixels goes: at its start, whatever tile that is in. Every tile the
 * label reaches draws it at that same place with the same room, each clipped to itself,
 * so the text runs on seamlessly across tile edges. (Something that began before the
 * view is labelled again at the view's left edge, by the widget.) */
static gboolean
label_place (gdouble x, gdouble w, int width, gdouble *lx, gdouble *avail)
{
  *lx = x + 3;
  *avail = MIN (w, 8192) - 5;
  return *lx < width && *lx + *avail > 0;
}

/* How wide to draw something clipped to the tile as @w pixels: a pixel of space between
 * neighbours once they are wide enough to tell apart, at its real end only. Decided by
 * its whole width, not its part in this tile, and one that runs on into the next tile is
 * drawn past this one's edge (the clip margin), so every tile draws alike and the tile
 * edges leave no mark — an outline's side would otherwise fall on each edge. */
static gdouble
drawn_width (StrobeTimeScale *axis, guint64 begin, guint64 end, gdouble w, int width)
{
  gdouble x0 = strobe_time_scale_x (axis, begin), x1 = strobe_time_scale_x (axis, end);

  if (x1 - x0 < 4 || x1 > width + 1)
    return w;
  return w - 1;
}

StrobeRgb
strobe_timeline_scope_color (StrobeTimelineColors scheme, guint16 thread_id, guint depth, const char *name,
                             guint64 duration, const StrobeTraceClock *clock, gboolean merged, gboolean dimmed,
                             gboolean dark)
{
  StrobeRgb bg = dark ? (StrobeRgb) { 0.14, 0.14, 0.15 } : (StrobeRgb) { 0.98, 0.98, 0.98 };
  StrobeRgb c;

  switch (scheme)
    {
    case STROBE_TIMELINE_COLORS_BY_THREAD:
      c = strobe_timeline_thread_color (thread_id, depth);
      break;
    case STROBE_TIMELINE_COLORS_BY_DURATION:
      c = strobe_timeline_duration_color (clock, duration);
      break;
    default:
      c = strobe_timeline_name_color (name);
      break;
    }
  if (merged)
    c = mix (c, (StrobeRgb) { 0.55, 0.55, 0.58 }, 0.55);
  if (dimmed)
    c = mix (c, bg, merged ? 0.55 : 0.78);
  return c;
}

static void
paint_block (Painter *p, const StrobeTimelineBlock *b, StrobeTimeScale *axis, gdouble y, gdouble h,
             gboolean with_label)
{
  const StrobeTileSpec *spec = p->spec;
  const char *name = strobe_timeline_model_get_name (p->model, b->name_id);
  gboolean dimmed = spec->highlight != G_MAXUINT32 && (b->count > 1 || b->name_id != spec->highlight);
  StrobeRgb c = strobe_timeline_scope_color (spec->scheme, (guint16) spec->id, b->depth, name, b->end - b->begin,
                                             &spec->clock, b->count > 1, dimmed, spec->dark);
  gdouble x, w, draw_w;

  if (!strobe_time_scale_span (axis, b->begin, b->end, 0, spec->width, 1, &x, &w))
    return;
  draw_w = drawn_width (axis, b->begin, b->end, w, spec->width);
  snapped_rect (p, x, y, draw_w, h);
  set_rgb (p->cr, c, 1);
  cairo_fill (p->cr);
  if (b->count > 1)
    {
      /* Many scopes in one block: hatched, so it never reads as one long scope. */
      snapped_rect (p, x, y, draw_w, h);
      cairo_set_source (p->cr, p->hatch);
      cairo_fill (p->cr);
    }
  if (b->flags & (STROBE_SCOPE_CLOSED_AT_END | STROBE_SCOPE_OPEN))
    {
      /* Unfinished: a hatched red end where the data stops. */
      gdouble ex = strobe_time_scale_x (axis, b->end);
      if (ex >= -4 && ex <= spec->width + 4)
        {
          cairo_rectangle (p->cr, ex - MIN (4, draw_w), y, MIN (4, draw_w), h);
          cairo_set_source_rgba (p->cr, 0.85, 0.1, 0.1, (b->flags & STROBE_SCOPE_OPEN) ? 0.55 : 0.9);
          cairo_fill (p->cr);
        }
    }
  if (spec->highlight != G_MAXUINT32 && !dimmed)
    {
      snapped_rect (p, x, y, draw_w, h);
      cairo_set_source_rgba (p->cr, 0, 0, 0, 0.8);
      cairo_set_line_width (p->cr, 1);
      cairo_stroke (p->cr);
    }
  /* A label at the scope's start only: one that began in an earlier tile has its label
   * there, or (at the view's left edge) drawn by the widget over the tiles. */
  /* By the scope's whole width, not its part in this tile: every tile decides alike. */
  if (!with_label || strobe_time_scale_x (axis, b->end) - strobe_time_scale_x (axis, b->begin) < LABEL_MIN_W)
    return;
  {
    gdouble lx, avail;
    StrobeRgb tc = strobe_timeline_text_on (c);

    gdouble bx = strobe_time_scale_x (axis, b->begin);

    if (!label_place (bx, strobe_time_scale_x (axis, b->end) - bx - 1, spec->width, &lx, &avail))
      return;
    if (dimmed)
      tc = mix (tc, c, 0.45);
    if (b->count > 1)
      {
        /* "300 scopes", or "×300" where that does not fit. */
        g_autofree char *count = avail >= 80 ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u scope", "%u scopes", b->count),
                                                                b->count)
                                             : g_strdup_printf ("×%u", b->count);
        label (p, count, G_MAXUINT32, lx, y + (h - p->font_h) / 2, avail, tc);
      }
    else
      label (p, name, b->name_id, lx, y + (h - p->font_h) / 2, avail, tc);
  }
}

static void
paint_log_ticks (Painter *p, StrobeTimeScale *axis, gdouble y, gdouble h)
{
  const StrobeTileSpec *spec = p->spec;
  GArray *ticks = spec->log_ticks;
  guint lo = 0, hi;
  guint64 t1 = strobe_time_scale_end (axis);
  int last_px = G_MININT;
  guint8 worst = 255;

  if (ticks == NULL || ticks->len == 0)
    return;
  hi = ticks->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (ticks, StrobeLogTick, mid).time < axis->start)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* One tick per pixel column: the most severe message in it. */
  for (guint i = lo; i <= ticks->len; i++)
    {
      const StrobeLogTick *t = i < ticks->len ? &g_array_index (ticks, StrobeLogTick, i) : NULL;
      int px = t && t->time <= t1 ? (int) floor (strobe_time_scale_x (axis, t->time)) : G_MAXINT;

      if (px != last_px && last_px != G_MININT)
        {
          cairo_rectangle (p->cr, last_px, y, 2, h);
          set_rgb (p->cr, strobe_timeline_verbosity_color (worst), 1);
          cairo_fill (p->cr);
          worst = 255;
        }
      if (px == G_MAXINT)
        break;
      last_px = px;
      worst = MIN (worst, t->verbosity ? t->verbosity : 7);
    }
}

static gboolean
paint_thread (Painter *p, StrobeTimeScale *axis, const gint *cancelled)
{
  const StrobeTileSpec *spec = p->spec;
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
  guint64 t1 = strobe_time_scale_end (axis);
  guint64 res = (guint64) MAX (floor (spec->scale), 1);
  int top = spec->y0, bottom = spec->y0 + spec->height;

  cairo_translate (p->cr, 0, -spec->y0);
  if (top < STROBE_TRACK_HEADER_H)
    paint_log_ticks (p, axis, 4, 10);
  if (spec->samples && spec->samples_y >= 0 && spec->samples_y < bottom && spec->samples_y + STROBE_TRACK_SAMPLES_H > top)
    strobe_timeline_paint_sample_strip (p->cr, axis, spec->samples, spec->system_id, spec->samples_y, spec->dark);
  if (spec->collapsed)
    {
      strobe_timeline_model_get_thread_blocks (p->model, (guint16) spec->id, 0, 1, axis->start, t1, res, blocks);
      for (guint i = 0; i < blocks->len; i++)
        paint_block (p, &g_array_index (blocks, StrobeTimelineBlock, i), axis, STROBE_TRACK_HEADER_H, 5, FALSE);
      return TRUE;
    }
  {
    int d0 = MAX (0, (top - STROBE_TRACK_HEADER_H) / STROBE_TRACK_ROW_H);
    int d1 = MIN ((int) spec->depths, (bottom - STROBE_TRACK_HEADER_H + STROBE_TRACK_ROW_H - 1) / STROBE_TRACK_ROW_H);

    if (d1 <= d0)
      return TRUE;
    strobe_timeline_model_get_thread_blocks (p->model, (guint16) spec->id, (guint) d0, (guint) d1,
                                             axis->start, t1, res, blocks);
    if (g_atomic_int_get (cancelled))
      return FALSE;
    for (guint i = 0; i < blocks->len; i++)
      {
        const StrobeTimelineBlock *b = &g_array_index (blocks, StrobeTimelineBlock, i);
        paint_block (p, b, axis, strobe_track_row_y (b->depth), STROBE_TRACK_ROW_H - 1, TRUE);
        if ((i & 1023) == 1023 && g_atomic_int_get (cancelled))
          return FALSE;
      }
  }
  return TRUE;
}

/* ---- counters ------------------------------------------------------------------------- */

/* The graph sits under the header row. */
#define GRAPH_TOP    (STROBE_TRACK_HEADER_H + 2)
#define GRAPH_BOTTOM (STROBE_TRACK_COUNTER_H - 4)

/* The spans the Counters channel was off, hatched and labelled as the memory graph does:
 * the line held flat there is not what the program's counters did. */
static void
paint_counter_gaps (Painter *p, StrobeTimeScale *axis)
{
  const StrobeTileSpec *spec = p->spec;
  guint64 t1 = strobe_time_scale_end (axis);
  gdouble top = GRAPH_TOP - 2 - spec->y0, bottom = GRAPH_BOTTOM - spec->y0;

  for (guint k = 0; spec->gaps && k < spec->gaps->len; k++)
    {
      const StrobeInfoGap *g = &g_array_index (spec->gaps, StrobeInfoGap, k);
      gdouble x0, x1, lx, room;

      if (g->end <= axis->start || g->begin >= t1)
        continue;
      x0 = strobe_time_scale_x (axis, g->begin);
      x1 = strobe_time_scale_x (axis, g->end);
      snapped_rect (p, MAX (x0, -1), top, MIN (x1, spec->width + 1) - MAX (x0, -1), bottom - top);
      cairo_set_source (p->cr, p->hatch);
      cairo_fill (p->cr);
      /* By the whole span, not its part in this tile, so every tile places the label alike. */
      if (x1 - x0 >= 90 && label_place (x0, x1 - x0, spec->width, &lx, &room))
        /* Translators: in a counter track, over a span the Counters channel was off */
        label (p, _("Not recorded"), G_MAXUINT32, lx, top + 2, room, spec->fg);
    }
}

/* The line, its envelope where samples are denser than pixels, and the area under it, with
 * the chart layers; the samples just outside the tile join it to its neighbours. */
static void
paint_counter_line (Painter *p, StrobeTimeScale *axis)
{
  const StrobeTileSpec *spec = p->spec;
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (StrobeCounterBucket));
  StrobeCounterSample before, after;
  gboolean step = spec->counter_type == STROBE_TIMELINE_COUNTER_INT;
  GdkRGBA color = spec->dark ? (GdkRGBA) { 0.45, 0.70, 0.95, 1 } : (GdkRGBA) { 0.15, 0.42, 0.75, 1 };
  StrobeChartLane lane = { GRAPH_TOP - 2 - spec->y0, GRAPH_BOTTOM - (GRAPH_TOP - 2), spec->value_max, spec->value_min };
  guint64 t1 = strobe_time_scale_end (axis);
  cairo_surface_t *surface = cairo_get_target (p->cr);
  StrobeChartCanvas canvas;

  strobe_timeline_model_get_counter_series (p->model, spec->id, axis->start, t1, (guint) spec->width,
                                            &before, &after, buckets);
  if (before.time != G_MAXUINT64)
    g_array_prepend_val (buckets, ((StrobeCounterBucket) { 0, 1, before.time, before.time, before.value,
                                                           before.value, before.value, before.value }));
  if (buckets->len == 0)
    return;
  if (after.time != G_MAXUINT64)
    g_array_append_val (buckets, ((StrobeCounterBucket) { 0, 1, after.time, after.time, after.value,
                                                          after.value, after.value, after.value }));
  else if (step)
    {
      /* The last value holds to the tile's end (no later sample). */
      double v = g_array_index (buckets, StrobeCounterBucket, buckets->len - 1).last;
      g_array_append_val (buckets, ((StrobeCounterBucket) { 0, 1, t1, t1, v, v, v, v }));
    }
  strobe_chart_canvas_init (&canvas, surface, spec->width);
  strobe_chart_envelope (&canvas, axis, &lane, (const StrobeCounterBucket *) (void *) buckets->data, buckets->len,
                         step, &color, 1.25, 0.22);
  cairo_surface_mark_dirty (surface);
}

static void
paint_counter (Painter *p, StrobeTimeScale *axis)
{
  if (p->spec->collapsed)
    return;
  paint_counter_line (p, axis);
  paint_counter_gaps (p, axis);
}

/* ---- frames ------------------------------------------------------------------------------- */

static void
paint_frames (Painter *p, StrobeTimeScale *axis)
{
  const StrobeTileSpec *spec = p->spec;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
  guint64 t1 = strobe_time_scale_end (axis);
  int h = spec->collapsed ? STROBE_TRACK_HEADER_H : STROBE_TRACK_FRAMES_H;
  /* Bars under the header row (the whole height when collapsed); the target is half way. */
  gdouble avail = spec->collapsed ? h - 4 : h - STROBE_TRACK_HEADER_H - 4;
  int col = G_MININT;
  guint64 worst = 0;
  gdouble col_h = 0;

  cairo_translate (p->cr, 0, -spec->y0);
  if (!spec->collapsed && spec->frame_target)
    {
      /* The target: half way up. */
      static const double dash[] = { 3, 3 };
      cairo_save (p->cr);
      cairo_set_dash (p->cr, dash, 2, 0);
      cairo_set_line_width (p->cr, 1);
      set_rgb (p->cr, spec->fg, 0.35);
      cairo_move_to (p->cr, 0, floor (h - 2 - avail / 2) + 0.5);
      cairo_line_to (p->cr, spec->width, floor (h - 2 - avail / 2) + 0.5);
      cairo_stroke (p->cr);
      cairo_restore (p->cr);
    }
  strobe_timeline_model_get_frames (p->model, (guint8) spec->id, axis->start, t1, frames);
  for (guint i = 0; i <= frames->len; i++)
    {
      const StrobeTimelineFrame *f = i < frames->len ? &g_array_index (frames, StrobeTimelineFrame, i) : NULL;
      guint64 dur = f ? f->end - f->begin : 0;
      gdouble x = 0, w = 0, bar;

      if (f && !strobe_time_scale_span (axis, f->begin, f->end, 0, spec->width, 1, &x, &w))
        continue;
      /* By the frame's whole width, not its part in this tile: every tile decides alike. */
      if (f && strobe_time_scale_x (axis, f->end) - strobe_time_scale_x (axis, f->begin) >= 2)
        {
          w = drawn_width (axis, f->begin, f->end, w, spec->width);
          bar = spec->frame_target ? MIN ((gdouble) dur / spec->frame_target, 2.0) / 2.0 * avail : avail;
          snapped_rect (p, x, h - 2 - MAX (bar, 2), w, MAX (bar, 2));
          set_rgb (p->cr, strobe_timeline_frame_color (dur, spec->frame_target), 1);
          cairo_fill (p->cr);
          if (f->flags & (STROBE_SCOPE_CLOSED_AT_END | STROBE_SCOPE_OPEN))
            {
              snapped_rect (p, x, h - 2 - MAX (bar, 2), w, MAX (bar, 2));
              cairo_set_source (p->cr, p->hatch);
              cairo_fill (p->cr);
            }
          {
            gdouble fx = strobe_time_scale_x (axis, f->begin), lx, room;
            if (strobe_time_scale_x (axis, f->end) - fx >= 70 && !spec->collapsed
                && label_place (fx, strobe_time_scale_x (axis, f->end) - fx, spec->width, &lx, &room))
              {
                g_autofree char *d = strobe_format_ticks (&spec->clock, dur);
                g_autofree char *text = g_strdup_printf ("%u · %s", f->index, d);
                label (p, text, G_MAXUINT32, lx, STROBE_TRACK_HEADER_H + 1, room, spec->fg);
              }
          }
          continue;
        }
      /* Narrower than two pixels: the worst frame of each pixel column. */
      {
        int px = f ? (int) floor (x) : G_MAXINT;
        if (px != col && col != G_MININT)
          {
            bar = spec->frame_target ? MIN ((gdouble) worst / spec->frame_target, 2.0) / 2.0 * avail : avail;
            col_h = MAX (bar, 2);
            cairo_rectangle (p->cr, col, h - 2 - col_h, 1, col_h);
            set_rgb (p->cr, strobe_timeline_frame_color (worst, spec->frame_target), 1);
            cairo_fill (p->cr);
            worst = 0;
          }
        if (!f)
          break;
        col = px;
        worst = MAX (worst, dur);
      }
    }
}

/* ---- regions ------------------------------------------------------------------------------- */

/* One region's rectangle, its hatch when it is open or was cut off, and its label. */
static void
paint_region (Painter *p, StrobeTimeScale *axis, const StrobeTimelineRegion *r, gdouble x, gdouble w, gdouble y)
{
  const StrobeTileSpec *spec = p->spec;
  const char *name = strobe_timeline_model_get_name (p->model, r->name_id);
  StrobeRgb c = strobe_timeline_region_color (name, spec->dark);

  w = drawn_width (axis, r->begin, r->end, w, spec->width);
  snapped_rect (p, x, y, w, spec->collapsed ? 2 : STROBE_TRACK_LANE_H - 2);
  set_rgb (p->cr, c, 1);
  cairo_fill (p->cr);
  if (r->flags & (STROBE_SCOPE_CLOSED_AT_END | STROBE_SCOPE_OPEN))
    {
      snapped_rect (p, x, y, w, spec->collapsed ? 2 : STROBE_TRACK_LANE_H - 2);
      cairo_set_source (p->cr, p->hatch);
      cairo_fill (p->cr);
    }
  {
    gdouble rx = strobe_time_scale_x (axis, r->begin), lx, avail;
    if (!spec->collapsed && strobe_time_scale_x (axis, r->end) - rx >= LABEL_MIN_W
        && label_place (rx, strobe_time_scale_x (axis, r->end) - rx, spec->width, &lx, &avail))
      label (p, name, r->name_id, lx, y + (STROBE_TRACK_LANE_H - 2 - p->font_h) / 2, avail, strobe_timeline_text_on (c));
  }
}

/* A region narrower than a device pixel, waiting: the next one of its row on the same
 * pixel would paint over it, so only the last of a run is painted — a zoomed-out tile of
 * millions of regions paints a few per pixel column, and the same picture. */
typedef struct
{
  StrobeTimelineRegion r;
  gdouble              x;
  gdouble              w;
  gdouble              y;
  gdouble              x0;        /* its device pixel */
} PendingRegion;

static gboolean
paint_regions (Painter *p, StrobeTimeScale *axis, const gint *cancelled)
{
  const StrobeTileSpec *spec = p->spec;
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GHashTable) pending = g_hash_table_new_full (NULL, NULL, NULL, g_free);  /* row + 1 → PendingRegion */
  guint64 t1 = strobe_time_scale_end (axis);
  gdouble sf = MAX (spec->scale_factor, 1);
  GHashTableIter it;
  gpointer value;

  cairo_translate (p->cr, 0, -spec->y0);
  strobe_timeline_model_get_regions (p->model, axis->start, t1, regions);
  for (guint i = 0; i < regions->len; i++)
    {
      const StrobeTimelineRegion *r = &g_array_index (regions, StrobeTimelineRegion, i);
      guint row = spec->collapsed ? MIN (r->lane, 2) : r->lane;
      gdouble x, w, y = STROBE_TRACK_HEADER_H + r->lane * STROBE_TRACK_LANE_H;
      PendingRegion *before;

      if ((i & 4095) == 4095 && g_atomic_int_get (cancelled))
        return FALSE;
      if (spec->collapsed)
        y = STROBE_TRACK_HEADER_H + MIN (r->lane, 2) * 2;
      if (!strobe_time_scale_span (axis, r->begin, r->end, 0, spec->width, 1, &x, &w))
        continue;
      before = g_hash_table_lookup (pending, GUINT_TO_POINTER (row + 1));
      if (floor ((x + w) * sf + 0.5) - floor (x * sf + 0.5) < 1)
        {
          gdouble x0 = floor (x * sf + 0.5);

          if (before != NULL && before->x0 != x0)
            paint_region (p, axis, &before->r, before->x, before->w, before->y);
          if (before == NULL)
            {
              before = g_new (PendingRegion, 1);
              g_hash_table_insert (pending, GUINT_TO_POINTER (row + 1), before);
            }
          *before = (PendingRegion) { *r, x, w, y, x0 };
          continue;
        }
      if (before != NULL)
        {
          paint_region (p, axis, &before->r, before->x, before->w, before->y);
          g_hash_table_remove (pending, GUINT_TO_POINTER (row + 1));
        }
      paint_region (p, axis, r, x, w, y);
    }
  g_hash_table_iter_init (&it, pending);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      PendingRegion *left = value;
      paint_region (p, axis, &left->r, left->x, left->w, left->y);
    }
  return TRUE;
}

/* ---- entry -------------------------------------------------------------------------------- */

cairo_surface_t *
strobe_timeline_paint_tile (const StrobeTileSpec *spec, StrobeTimelineModel *model, const gint *cancelled)
{
  static const gint never = 0;
  cairo_surface_t *surface;
  StrobeTimeScale axis;
  Painter p = { spec, model };
  gboolean ok = TRUE;
  int sf;

  g_return_val_if_fail (spec != NULL && STROBE_IS_TIMELINE_MODEL (model), NULL);

  if (cancelled == NULL)
    cancelled = &never;
  sf = MAX (spec->scale_factor, 1);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, MAX (spec->width, 1) * sf, MAX (spec->height, 1) * sf);
  cairo_surface_set_device_scale (surface, sf, sf);
  axis.start = spec->t0;
  axis.scale = spec->scale;
  axis.width = spec->width;

  p.cr = cairo_create (surface);
  p.pango = worker_pango ();
  pango_cairo_update_context (p.cr, p.pango);
  p.layout = pango_layout_new (p.pango);
  pango_layout_set_font_description (p.layout, spec->font);
  pango_layout_set_ellipsize (p.layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (p.layout, TRUE);
  pango_layout_set_text (p.layout, "Ag", -1);
  pango_layout_get_pixel_size (p.layout, NULL, &p.font_h);
  p.widths = g_hash_table_new (NULL, NULL);
  p.hatch = make_hatch (spec->dark);
  cairo_rectangle (p.cr, 0, 0, spec->width, spec->height);
  cairo_clip (p.cr);

  switch (spec->kind)
    {
    case STROBE_TRACK_THREAD:
      ok = paint_thread (&p, &axis, cancelled);
      break;
    case STROBE_TRACK_COUNTER:
      paint_counter (&p, &axis);
      break;
    case STROBE_TRACK_CPU:
      if (spec->samples && !spec->collapsed)
        strobe_timeline_paint_cpu_usage (surface, &axis, &spec->clock, spec->samples, GRAPH_TOP - 2 - spec->y0,
                                         GRAPH_BOTTOM - (GRAPH_TOP - 2), spec->value_max, spec->dark);
      break;
    case STROBE_TRACK_FRAMES:
      paint_frames (&p, &axis);
      break;
    case STROBE_TRACK_REGIONS:
      ok = paint_regions (&p, &axis, cancelled);
      break;
    default:
      break;
    }

  cairo_pattern_destroy (p.hatch);
  g_hash_table_unref (p.widths);
  g_object_unref (p.layout);
  cairo_destroy (p.cr);
  if (!ok || g_atomic_int_get (cancelled))
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  cairo_surface_flush (surface);
  return surface;
}
