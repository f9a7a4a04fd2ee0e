/* strobe-timeline-widget.c
 *
 * A frame is: track backgrounds, the tiles of every visible track (drawn by workers,
 * strobe-timeline-tiles.c; the previous scale's tiles stand in, stretched, while new ones
 * come), then what changes with the pointer and the view state drawn directly on top —
 * headers, bookmarks, drops, the selection, the hover and cursor lines, outlines of the
 * selected and hovered scope — and the ruler. Nothing here walks scopes for a frame: hit
 * tests and tooltips query the model around one point.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-timeline-background.h"
#include <math.h>

#include "strobe-format.h"
#include "strobe-log-model.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-layouts.h"
#include "strobe-timeline-tiles.h"
#include "strobe-timeline-widget.h"

/* The ruler: tick labels over ticks, then a strip of markers (bookmarks, drops, the
 * selection's length, where the data ends). */
#define RULER_H       46
#define TICKS_H       22
#define MARKS_Y       26
#define HEADER_PAD    6
#define MIN_SPAN      16        /* ticks: the deepest zoom */
#define ZOOM_STEP     1.25
#define MAX_TOOLTIP_CHILDREN 50000
#define LOADING_REFRESH_US   (1000 * 1000)

typedef enum
{
  DRAG_NONE,
  DRAG_PAN,
  DRAG_SELECT,
  DRAG_REORDER,
} DragMode;

typedef struct
{
  gdouble  min;
  gdouble  max;
  gboolean valid;
} CounterRange;

/* What is under the pointer. */
typedef enum
{
  HIT_NONE,
  HIT_RULER,
  HIT_HEADER,          /* a track's header (name, collapse toggle) */
  HIT_SCOPE,
  HIT_BLOCK,           /* several scopes merged */
  HIT_LOG,
  HIT_FRAME,
  HIT_REGION,
  HIT_COUNTER,
  HIT_TRACK,           /* a track, nothing on it there */
} HitKind;

typedef struct
{
  HitKind             kind;
  int                 track;
  guint64             time;
  StrobeTimelineBlock block;     /* scope / block */
  guint16             thread_id;
  StrobeLogTick       tick;
  StrobeTimelineFrame frame;
  StrobeTimelineRegion region;
} Hit;

struct _StrobeTimelineWidget
{
  GtkWidget             parent_instance;

  StrobeDocument       *document;
  StrobeViewState      *state;
  StrobeTimelineModel  *timeline;
  StrobeThreadsModel   *threads;
  StrobeLogModel       *log;

  StrobeTraceClock      clock;
  gboolean              have_extent;
  guint64               first;
  guint64               last;
  gboolean              user_moved;       /* the user changed the view: no more fitting */
  gint64                loading_refresh_us;

  StrobeTrackList      *tracks;
  int                   content_h;
  gboolean              hide_empty;
  GtkAdjustment        *vadj;
  char                 *program;
  gboolean              layout_restored;

  StrobeTileCache      *tiles;
  StrobeTimelineColors  scheme;
  gdouble               frame_target;     /* seconds */
  guint32               highlight;
  GArray               *counter_ranges;   /* CounterRange, by counter index */

  GHashTable           *log_ticks;        /* thread id -> GArray of StrobeLogTick */
  guint64               log_known;        /* messages gathered */
  gboolean              log_busy;
  gboolean              log_again;
  gboolean              log_complete_pass;/* a full pass once the trace is complete */
  GCancellable         *cancellable;

  GHashTable           *layouts;          /* text -> PangoLayout */

  gboolean              hovering;
  gdouble               hover_x;
  gdouble               hover_y;
  Hit                   hover;

  DragMode              drag;
  gdouble               drag_x;
  gdouble               drag_y;
  guint64               drag_start;
  guint64               drag_end;
  gdouble               drag_vadj;
  guint64               drag_anchor;
  int                   drag_track;
  int                   drop_index;
  guint64               pinch_start;
  guint64               pinch_end;

  guint                 incomplete;       /* tiles the last frame drew without an up-to-date picture */
  gboolean              textures;         /* the renderer's: see the snapshot */
  gboolean              kb_anchor_set;
  guint64               kb_anchor;
  GtkWidget            *menu;
};

G_DEFINE_FINAL_TYPE (StrobeTimelineWidget, strobe_timeline_widget, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_STATE,
  PROP_COLOR_SCHEME,
  PROP_FRAME_TARGET,
  PROP_HIDE_EMPTY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  TRACKS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void update_description (StrobeTimelineWidget *self);

/* ---- helpers ------------------------------------------------------------------------ */

static void
widget_color (GtkWidget *widget, GdkRGBA *fg)
{
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
}

static int
tracks_height (StrobeTimelineWidget *self)
{
  return MAX (gtk_widget_get_height (GTK_WIDGET (self)) - RULER_H, 0);
}

static void
get_axis (StrobeTimelineWidget *self, StrobeTimeAxis *axis)
{
  guint64 a, b;

  strobe_view_state_get_visible_range (self->state, &a, &b);
  strobe_time_axis_init (axis, a, b, MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1));
}

static gboolean
is_dark (StrobeTimelineWidget *self)
{
  GdkRGBA fg;

  widget_color (GTK_WIDGET (self), &fg);
  return 0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue > 0.5;
}

static PangoLayout *
text_layout (StrobeTimelineWidget *self, const char *text, gboolean bold)
{
  g_autofree char *key = g_strdup_printf ("%c%s", bold ? 'b' : 'n', text);
  PangoLayout *layout = g_hash_table_lookup (self->layouts, key);

  if (layout == NULL)
    {
      if (g_hash_table_size (self->layouts) > 4096)
        g_hash_table_remove_all (self->layouts);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      if (bold)
        {
          PangoAttrList *attrs = pango_attr_list_new ();
          pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
          pango_layout_set_attributes (layout, attrs);
          pango_attr_list_unref (attrs);
        }
      g_hash_table_insert (self->layouts, g_steal_pointer (&key), layout);
    }
  return layout;
}

/* The font tiles use for scope names: a little smaller than the UI's. */
static PangoFontDescription *
small_font (StrobeTimelineWidget *self)
{
  PangoContext *pc = gtk_widget_get_pango_context (GTK_WIDGET (self));
  PangoFontDescription *font = pango_font_description_copy (pango_context_get_font_description (pc));

  if (pango_font_description_get_size_is_absolute (font))
    pango_font_description_set_absolute_size (font, pango_font_description_get_size (font) * 0.85);
  else
    pango_font_description_set_size (font, (gint) (pango_font_description_get_size (font) * 0.85));
  return font;
}

/* A scope label: the small font, ellipsized to @width. */
static PangoLayout *
scope_layout (StrobeTimelineWidget *self, const char *text, int width)
{
  g_autofree char *key = g_strdup_printf ("s%s", text);
  PangoLayout *layout = g_hash_table_lookup (self->layouts, key);

  if (layout == NULL)
    {
      PangoFontDescription *font = small_font (self);

      if (g_hash_table_size (self->layouts) > 4096)
        g_hash_table_remove_all (self->layouts);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      pango_layout_set_font_description (layout, font);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_font_description_free (font);
      g_hash_table_insert (self->layouts, g_steal_pointer (&key), layout);
    }
  pango_layout_set_width (layout, width * PANGO_SCALE);
  return layout;
}

static void
append_text (GtkSnapshot *snapshot, PangoLayout *layout, gdouble x, gdouble y, const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
fill (GtkSnapshot *snapshot, gdouble x, gdouble y, gdouble w, gdouble h, const GdkRGBA *c)
{
  gtk_snapshot_append_color (snapshot, c, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static guint64
frame_target_ticks (StrobeTimelineWidget *self)
{
  return strobe_trace_clock_ticks (&self->clock, self->frame_target);
}

static const char *
unit_suffix (guint8 unit)
{
  switch (unit)
    {
    case STROBE_TIMELINE_UNIT_BYTES:   return "B";
    case STROBE_TIMELINE_UNIT_PERCENT: return "%";
    default:                           return "";
    }
}

static char *
format_value (gdouble v, guint8 unit, guint8 type)
{
  if (unit == STROBE_TIMELINE_UNIT_BYTES)
    return g_format_size ((guint64) MAX (v, 0));
  if (type == STROBE_TIMELINE_COUNTER_INT)
    {
      g_autofree char *n = strobe_format_count ((guint64) fabs (v));
      return g_strdup_printf ("%s%s%s", v < 0 ? "−" : "", n, unit_suffix (unit));
    }
  return g_strdup_printf ("%.3g%s", v, unit_suffix (unit));
}

/* ---- view range ---------------------------------------------------------------------- */

/* Where the view may go: the extent, with room to look a little past each end. */
static void
bounds (StrobeTimelineWidget *self, guint64 *lo, guint64 *hi)
{
  guint64 len;

  if (!self->have_extent)
    {
      *lo = 0;
      *hi = G_MAXUINT64;
      return;
    }
  len = MAX (self->last - self->first, 1);
  *lo = self->first > len / 20 ? self->first - len / 20 : 0;
  *hi = self->last > G_MAXUINT64 - len / 20 ? G_MAXUINT64 : self->last + len / 20;
}

static void
set_visible (StrobeTimelineWidget *self, guint64 start, guint64 end)
{
  strobe_view_state_set_visible_range (self->state, start, end);
}

static void
user_moved (StrobeTimelineWidget *self)
{
  self->user_moved = TRUE;
  if (strobe_view_state_get_follow_live (self->state))
    strobe_view_state_set_follow_live (self->state, FALSE);
}

static void
zoom (StrobeTimelineWidget *self, gdouble factor, gdouble anchor_x)
{
  StrobeTimeAxis axis;
  guint64 a, b, lo, hi;
  gboolean follow = strobe_view_state_get_follow_live (self->state);

  get_axis (self, &axis);
  strobe_view_state_get_visible_range (self->state, &a, &b);
  bounds (self, &lo, &hi);
  /* Following a live trace keeps the newest data at the right edge. */
  strobe_time_zoom (&a, &b, factor, follow ? 1.0 : anchor_x / axis.width, MIN_SPAN, lo, hi);
  self->user_moved = TRUE;
  set_visible (self, a, b);
}

static void
pan (StrobeTimelineWidget *self, gdouble dx_px)
{
  StrobeTimeAxis axis;
  guint64 a, b, lo, hi;

  get_axis (self, &axis);
  strobe_view_state_get_visible_range (self->state, &a, &b);
  bounds (self, &lo, &hi);
  strobe_time_pan (&a, &b, (gint64) CLAMP (dx_px * axis.scale, (gdouble) G_MININT64, (gdouble) G_MAXINT64), lo, hi);
  user_moved (self);
  set_visible (self, a, b);
}

void
strobe_timeline_widget_zoom_to (StrobeTimelineWidget *self, guint64 start, guint64 end)
{
  guint64 a, b;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  strobe_time_fit (&a, &b, start, end, 0.05);
  if (b - a < MIN_SPAN)
    strobe_time_fit (&a, &b, start > MIN_SPAN / 2 ? start - MIN_SPAN / 2 : 0, start + MIN_SPAN / 2, 0);
  user_moved (self);
  set_visible (self, a, b);
}

void
strobe_timeline_widget_zoom_fit (StrobeTimelineWidget *self)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  if (!self->have_extent)
    return;
  strobe_timeline_widget_zoom_to (self, self->first, self->last);
}

/* ---- tracks --------------------------------------------------------------------------- */

static void
relayout (StrobeTimelineWidget *self)
{
  int h = tracks_height (self);

  self->content_h = strobe_track_list_layout (self->tracks, self->hide_empty);
  gtk_adjustment_configure (self->vadj, CLAMP (gtk_adjustment_get_value (self->vadj), 0, MAX (self->content_h - h, 0)),
                            0, MAX (self->content_h, h), 40, MAX (h * 0.9, 1), h);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
save_layout (StrobeTimelineWidget *self)
{
  g_autofree char *s = strobe_track_list_save (self->tracks);

  strobe_timeline_layouts_store (self->program, s);
  g_signal_emit (self, signals[TRACKS_CHANGED], 0);
}

StrobeTrackList *
strobe_timeline_widget_get_tracks (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), NULL);
  return self->tracks;
}

void
strobe_timeline_widget_set_track_hidden (StrobeTimelineWidget *self, guint index, gboolean hidden)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));
  g_return_if_fail (index < strobe_track_list_get_n (self->tracks));

  strobe_track_list_set_hidden (self->tracks, index, hidden);
  relayout (self);
  save_layout (self);
}

void
strobe_timeline_widget_set_track_collapsed (StrobeTimelineWidget *self, guint index, gboolean collapsed)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));
  g_return_if_fail (index < strobe_track_list_get_n (self->tracks));

  strobe_track_list_set_collapsed (self->tracks, index, collapsed);
  relayout (self);
  save_layout (self);
}

gboolean
strobe_timeline_widget_move_track (StrobeTimelineWidget *self, guint from, guint to)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), FALSE);

  if (!strobe_track_list_move (self->tracks, from, to))
    return FALSE;
  relayout (self);
  save_layout (self);
  return TRUE;
}

void
strobe_timeline_widget_reset_tracks (StrobeTimelineWidget *self)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  strobe_track_list_reset (self->tracks);
  strobe_timeline_layouts_store (self->program, NULL);
  relayout (self);
  g_signal_emit (self, signals[TRACKS_CHANGED], 0);
}

GtkAdjustment *
strobe_timeline_widget_get_vadjustment (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), NULL);
  return self->vadj;
}

/* ---- log ticks ------------------------------------------------------------------------ */

typedef struct
{
  StrobeLogModel *log;
  guint64         from;
  guint64         to;
} TicksJob;

static void
ticks_job_free (gpointer data)
{
  TicksJob *j = data;

  g_object_unref (j->log);
  g_free (j);
}

static void
ticks_array_free (gpointer data)
{
  g_array_unref (data);
}

static void
ticks_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TicksJob *j = data;
  GHashTable *out = g_hash_table_new_full (NULL, NULL, NULL, ticks_array_free);

  for (guint64 i = j->from; i < j->to; i++)
    {
      StrobeLogMessage m;
      StrobeLogTick t;
      GArray *a;

      if ((i & 1023) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      if (!strobe_log_model_get_message (j->log, i, &m))
        break;
      g_free (m.text);
      t.time = m.time;
      t.index = m.index;
      t.verbosity = m.verbosity;
      a = g_hash_table_lookup (out, GUINT_TO_POINTER (m.thread_id));
      if (a == NULL)
        {
          a = g_array_new (FALSE, FALSE, sizeof (StrobeLogTick));
          g_hash_table_insert (out, GUINT_TO_POINTER (m.thread_id), a);
        }
      g_array_append_val (a, t);
    }
  g_task_return_pointer (task, out, (GDestroyNotify) g_hash_table_unref);
}

static gint
tick_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeLogTick *x = a, *y = b;
  return x->time < y->time ? -1 : x->time > y->time ? 1 : (x->index > y->index) - (x->index < y->index);
}

static void gather_ticks (StrobeTimelineWidget *self);
static void refresh_tracks (StrobeTimelineWidget *self);

static void
ticks_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  StrobeTimelineWidget *self = user_data;
  g_autoptr(GHashTable) found = g_task_propagate_pointer (G_TASK (result), NULL);
  TicksJob *j = g_task_get_task_data (G_TASK (result));
  GHashTableIter it;
  gpointer key, value;
  gboolean full = j->from == 0;

  if (found == NULL || g_cancellable_is_cancelled (self->cancellable))
    {
      g_object_unref (self);
      return;
    }
  self->log_busy = FALSE;
  self->log_known = j->to;
  if (full)
    {
      /* A full pass replaces everything (positions may have shifted while live). */
      GHashTableIter old;
      g_hash_table_iter_init (&old, self->log_ticks);
      while (g_hash_table_iter_next (&old, &key, NULL))
        if (!g_hash_table_contains (found, key))
          g_hash_table_iter_remove (&old);
    }
  g_hash_table_iter_init (&it, found);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      GArray *add = value, *old = g_hash_table_lookup (self->log_ticks, key), *merged;
      guint64 from = add->len ? g_array_index (add, StrobeLogTick, 0).time : 0;

      /* New arrays: tiles being drawn hold the old ones. */
      merged = g_array_sized_new (FALSE, FALSE, sizeof (StrobeLogTick), (old && !full ? old->len : 0) + add->len);
      if (old && !full)
        g_array_append_vals (merged, old->data, old->len);
      g_array_append_vals (merged, add->data, add->len);
      g_array_sort (merged, tick_cmp);
      for (guint i = 0; i < add->len; i++)
        from = MIN (from, g_array_index (add, StrobeLogTick, i).time);
      g_hash_table_replace (self->log_ticks, key, merged);
      strobe_tile_cache_invalidate_track (self->tiles, STROBE_TRACK_THREAD, GPOINTER_TO_UINT (key), full ? 0 : from);
    }
  refresh_tracks (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->log_again)
    gather_ticks (self);
  g_object_unref (self);
}

static void
gather_ticks (StrobeTimelineWidget *self)
{
  g_autoptr(GTask) task = NULL;
  TicksJob *j;
  guint64 count;
  gboolean full;

  if (self->log == NULL)
    return;
  if (self->log_busy)
    {
      self->log_again = TRUE;
      return;
    }
  self->log_again = FALSE;
  count = strobe_log_model_get_count (self->log);
  /* Once the trace is complete, one pass over everything sets every index right. */
  full = strobe_document_is_loaded (self->document) && !self->log_complete_pass;
  if (full)
    self->log_complete_pass = TRUE;
  if (!full && count <= self->log_known)
    return;
  j = g_new0 (TicksJob, 1);
  j->log = g_object_ref (self->log);
  j->from = full ? 0 : self->log_known;
  j->to = count;
  self->log_busy = TRUE;
  task = g_task_new (NULL, self->cancellable, ticks_done, g_object_ref (self));
  g_task_set_task_data (task, j, ticks_job_free);
  strobe_background_run (task, ticks_thread);
}

/* ---- following the document ----------------------------------------------------------- */

static void
update_counter_ranges (StrobeTimelineWidget *self, const GArray *counters)
{
  for (guint i = 0; i < counters->len; i++)
    {
      const StrobeTimelineCounter *c = &g_array_index (counters, StrobeTimelineCounter, i);
      g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (StrobeCounterBucket));
      CounterRange *r;
      gdouble lo, hi;

      if (self->counter_ranges->len <= c->index)
        g_array_set_size (self->counter_ranges, c->index + 1);
      r = &g_array_index (self->counter_ranges, CounterRange, c->index);
      if (strobe_timeline_model_get_counter_series (self->timeline, c->index, 0, G_MAXUINT64, 1, NULL, NULL, one) == 0)
        continue;
      lo = MIN (g_array_index (one, StrobeCounterBucket, 0).min, 0);
      hi = g_array_index (one, StrobeCounterBucket, 0).max;
      if (c->unit == STROBE_TIMELINE_UNIT_PERCENT)
        hi = MAX (hi, 100);
      if (!(hi > lo))
        hi = lo + 1;
      if (!r->valid || r->min != lo || r->max != hi)
        {
          r->min = lo;
          r->max = hi;
          r->valid = TRUE;
          strobe_tile_cache_invalidate_track (self->tiles, STROBE_TRACK_COUNTER, c->index, 0);
        }
    }
}

static void
refresh_tracks (StrobeTimelineWidget *self)
{
  g_autoptr(GArray) threads = strobe_threads_model_get_threads (self->threads);
  g_autoptr(GArray) scope_threads = strobe_timeline_model_get_threads (self->timeline);
  g_autoptr(GArray) depths = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) counters = strobe_timeline_model_get_counters (self->timeline);
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GArray) log_threads = g_array_new (FALSE, FALSE, sizeof (guint16));
  StrobeTrackSource src = { 0 };
  GHashTableIter it;
  gpointer key;
  guint lanes = 0;

  for (guint i = 0; i < scope_threads->len; i++)
    {
      guint d = strobe_timeline_model_get_depth_count (self->timeline, g_array_index (scope_threads, guint16, i));
      g_array_append_val (depths, d);
    }
  strobe_timeline_model_get_regions (self->timeline, 0, G_MAXUINT64, regions);
  for (guint i = 0; i < regions->len; i++)
    lanes = MAX (lanes, (guint) g_array_index (regions, StrobeTimelineRegion, i).lane + 1);
  g_hash_table_iter_init (&it, self->log_ticks);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      guint16 id = (guint16) GPOINTER_TO_UINT (key);
      g_array_append_val (log_threads, id);
    }

  src.threads = (const StrobeThreadInfo *) (gpointer) threads->data;
  src.n_threads = threads->len;
  src.scope_threads = (const guint16 *) (gpointer) scope_threads->data;
  src.depths = (const guint *) (gpointer) depths->data;
  src.n_scope_threads = scope_threads->len;
  src.counters = (const StrobeTimelineCounter *) (gpointer) counters->data;
  src.n_counters = counters->len;
  for (guint k = 0; k < STROBE_TIMELINE_FRAME_KINDS && k < 32; k++)
    if (strobe_timeline_model_get_frame_count (self->timeline, (guint8) k) > 0)
      src.frame_kinds |= 1u << k;
  src.region_lanes = lanes;
  src.log_threads = (const guint16 *) (gpointer) log_threads->data;
  src.n_log_threads = log_threads->len;

  if (!self->layout_restored)
    {
      g_autofree char *program = strobe_threads_model_dup_process_name (self->threads);
      if (program && *program)
        {
          g_autofree char *saved = strobe_timeline_layouts_load (program);
          g_free (self->program);
          self->program = g_steal_pointer (&program);
          self->layout_restored = TRUE;
          if (saved)
            strobe_track_list_restore (self->tracks, saved);
        }
    }
  update_counter_ranges (self, counters);
  if (strobe_track_list_update (self->tracks, &src))
    g_signal_emit (self, signals[TRACKS_CHANGED], 0);
  relayout (self);
}

void
strobe_timeline_widget_update (StrobeTimelineWidget *self, StrobeDocumentChanges changes)
{
  guint64 a, b;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  if (self->timeline == NULL)
    return;
  /* A file being read: what is drawn is redrawn as it grows, so only now and then — the
   * reading thread needs the cores more (a live trace is drawn as it comes). */
  if (!strobe_document_is_loaded (self->document) && !strobe_document_is_live (self->document))
    {
      gint64 now = g_get_monotonic_time ();
      if (self->loading_refresh_us && now - self->loading_refresh_us < LOADING_REFRESH_US)
        return;
      self->loading_refresh_us = now;
    }
  strobe_document_get_clock (self->document, &self->clock);
  self->have_extent = strobe_document_get_extent (self->document, &self->first, &self->last);
  if (changes & (STROBE_DOCUMENT_CHANGED_TIMELINE | STROBE_DOCUMENT_CHANGED_THREADS))
    refresh_tracks (self);
  if (changes & STROBE_DOCUMENT_CHANGED_TIMELINE)
    strobe_tile_cache_invalidate (self->tiles);
  /* Log ticks of a file once it is read (formatting its messages as they come would only
   * slow the reading); of a live trace as they come. */
  if ((changes & STROBE_DOCUMENT_CHANGED_LOG)
      && (strobe_document_is_loaded (self->document) || strobe_document_is_live (self->document)))
    gather_ticks (self);

  strobe_view_state_get_visible_range (self->state, &a, &b);
  if (self->have_extent && strobe_view_state_get_follow_live (self->state))
    {
      /* The newest data at the right edge, at the current zoom (the last 10 s at first). */
      guint64 len = b - a;
      if (!self->user_moved)
        len = MIN (self->last - self->first, strobe_trace_clock_ticks (&self->clock, 10.0));
      len = MAX (len, MIN_SPAN);
      set_visible (self, self->last > len ? self->last - len : 0, MAX (self->last, len));
    }
  else if (self->have_extent && !self->user_moved)
    {
      /* The whole trace, and a little past its end, so where the data stops shows. */
      guint64 len = MAX (self->last - self->first, 1);
      set_visible (self, self->first, self->last + MAX (len / 100, 1));
    }
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- tiles ------------------------------------------------------------------------------ */

static void
tile_ready (gpointer user_data)
{
  gtk_widget_queue_draw (GTK_WIDGET (user_data));
}

typedef struct
{
  StrobeTimelineWidget *self;
  const StrobeTrack    *track;
} FillData;

static void
fill_spec (const StrobeTileKey *key, StrobeTileSpec *spec, gpointer data)
{
  FillData *fd = data;
  StrobeTimelineWidget *self = fd->self;
  const StrobeTrack *t = fd->track;
  GdkRGBA fg;

  widget_color (GTK_WIDGET (self), &fg);
  spec->kind = t->kind;
  spec->id = t->id;
  spec->depths = t->depths;
  spec->collapsed = t->collapsed;
  spec->counter_type = t->counter_type;
  if (t->kind == STROBE_TRACK_COUNTER && t->id < self->counter_ranges->len)
    {
      const CounterRange *r = &g_array_index (self->counter_ranges, CounterRange, t->id);
      spec->value_min = r->min;
      spec->value_max = r->max;
    }
  spec->clock = self->clock;
  spec->fg = (StrobeRgb) { fg.red, fg.green, fg.blue };
  spec->font = small_font (self);
  if (t->kind == STROBE_TRACK_THREAD)
    {
      GArray *ticks = g_hash_table_lookup (self->log_ticks, GUINT_TO_POINTER (t->id));
      spec->log_ticks = ticks ? g_array_ref (ticks) : NULL;
    }
}

typedef struct
{
  GtkSnapshot    *snapshot;
  StrobeTimeAxis *axis;
  gdouble         y;
  gdouble         h;
  gdouble         clip_x;
  gdouble         clip_w;
  int             sf;
  gboolean        textures;
} StandInData;

static void
append_at (GtkSnapshot *snapshot, GskRenderNode *node, gdouble x, gdouble y)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
}

static void
draw_stand_in (GskRenderNode *node, cairo_surface_t *surface, guint64 t0, gdouble scale, gpointer user_data)
{
  StandInData *d = user_data;
  gdouble x = strobe_time_axis_x (d->axis, t0);

  /* The previous scale's picture stretched to this one, until the new one comes. */
  if (!d->textures)
    {
      /* The cairo renderer would resample a scaled node with its good (slow) filter:
       * a picture shown for a moment is stretched to its pixels here, nearest first. */
      graphene_rect_t clip = GRAPHENE_RECT_INIT (d->clip_x, d->y, d->clip_w, d->h);
      cairo_t *cr = gtk_snapshot_append_cairo (d->snapshot, &clip);

      cairo_rectangle (cr, d->clip_x, d->y, d->clip_w, d->h);
      cairo_clip (cr);
      cairo_translate (cr, x, d->y);
      cairo_scale (cr, scale / d->axis->scale, 1);   /* the tile surface carries its device scale */
      cairo_set_source_surface (cr, surface, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_FAST);
      cairo_paint (cr);
      cairo_destroy (cr);
      return;
    }
  gtk_snapshot_push_clip (d->snapshot, &GRAPHENE_RECT_INIT (d->clip_x, d->y, d->clip_w, d->h));
  gtk_snapshot_save (d->snapshot);
  gtk_snapshot_translate (d->snapshot, &GRAPHENE_POINT_INIT (x, d->y));
  gtk_snapshot_scale (d->snapshot, scale / d->axis->scale, 1);
  gtk_snapshot_append_node (d->snapshot, node);
  gtk_snapshot_restore (d->snapshot);
  gtk_snapshot_pop (d->snapshot);
}

static void
draw_track_tiles (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeAxis *axis,
                  const StrobeTrack *t, gdouble ty_screen, gdouble visible_top, gdouble visible_bottom)
{
  gint64 first, last;
  int sf = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  FillData fd = { self, t };
  int ty0 = (int) MAX (0, floor ((visible_top - ty_screen) / STROBE_TILE_SIZE));
  int ty1 = (int) floor ((MIN (visible_bottom, ty_screen + t->height) - ty_screen - 1) / STROBE_TILE_SIZE);

  strobe_tile_range (axis, self->first, STROBE_TILE_SIZE, &first, &last);
  for (int ty = ty0; ty <= ty1; ty++)
    {
      int h = MIN (STROBE_TILE_SIZE, t->height - ty * STROBE_TILE_SIZE);
      gdouble y = ty_screen + ty * STROBE_TILE_SIZE;
      StrobeTileKey key = { 0 };

      if (h <= 0)
        break;
      key.kind = t->kind;
      key.collapsed = t->collapsed;
      key.ty = (guint16) MIN (ty, G_MAXUINT16);
      key.id = t->id;
      for (gint64 tx = first; tx <= last; tx++)
        {
          GskRenderNode *node;
          gboolean current;
          gdouble x = strobe_tile_x (axis, self->first, STROBE_TILE_SIZE, tx);

          key.tx = tx;
          node = strobe_tile_cache_get (self->tiles, &key, h, fill_spec, &fd, &current);
          if (!current)
            self->incomplete++;
          if (node)
            append_at (snapshot, node, x, y);
          else
            {
              StandInData d = { snapshot, axis, y, h, x, STROBE_TILE_SIZE, sf, self->textures };
              guint64 t0 = strobe_time_axis_time (axis, x), t1 = strobe_time_axis_time (axis, x + STROBE_TILE_SIZE);
              strobe_tile_cache_stand_ins (self->tiles, &key, t0, t1, draw_stand_in, &d);
            }
        }
      /* The tile either side, so a pan finds it drawn. */
      key.tx = first - 1;
      strobe_tile_cache_prefetch (self->tiles, &key, h, fill_spec, &fd);
      key.tx = last + 1;
      strobe_tile_cache_prefetch (self->tiles, &key, h, fill_spec, &fd);
    }
}

/* ---- drawing ------------------------------------------------------------------------------ */

typedef struct
{
  GdkRGBA fg;
  GdkRGBA dim;          /* secondary text */
  GdkRGBA bg;
  GdkRGBA band;         /* every other track */
  GdkRGBA line;
  GdkRGBA accent;
  GdkRGBA accent_fill;
  GdkRGBA header_bg;
  GdkRGBA red;
  GdkRGBA bookmark;
} Palette;

static void
palette (StrobeTimelineWidget *self, Palette *p)
{
  gboolean dark = is_dark (self);

  widget_color (GTK_WIDGET (self), &p->fg);
  p->dim = p->fg;
  p->dim.alpha = 0.65;
  p->bg = dark ? (GdkRGBA) { 0.14, 0.14, 0.15, 1 } : (GdkRGBA) { 0.98, 0.98, 0.98, 1 };
  p->band = dark ? (GdkRGBA) { 1, 1, 1, 0.03 } : (GdkRGBA) { 0, 0, 0, 0.025 };
  p->line = p->fg;
  p->line.alpha = 0.12;
  p->accent = (GdkRGBA) { 0.21, 0.52, 0.89, 1 };
  p->accent_fill = (GdkRGBA) { 0.21, 0.52, 0.89, 0.13 };
  p->header_bg = dark ? (GdkRGBA) { 0.14, 0.14, 0.15, 0.82 } : (GdkRGBA) { 0.98, 0.98, 0.98, 0.85 };
  p->red = (GdkRGBA) { 0.86, 0.16, 0.16, 1 };
  p->bookmark = dark ? (GdkRGBA) { 0.78, 0.56, 0.95, 1 } : (GdkRGBA) { 0.50, 0.25, 0.70, 1 };
}

static void
draw_header (StrobeTimelineWidget *self, GtkSnapshot *snapshot, const Palette *p, const StrobeTrack *t,
             gdouble y, int width)
{
  const char *arrow = t->collapsed ? "▸" : "▾";
  g_autofree char *text = NULL;
  PangoLayout *layout;
  int w, h;

  if (t->kind == STROBE_TRACK_GROUP)
    {
      fill (snapshot, 0, y, width, STROBE_TRACK_GROUP_H, &p->line);
      text = g_strdup_printf ("%s %s", arrow, t->title);
      layout = text_layout (self, text, TRUE);
      pango_layout_get_pixel_size (layout, &w, &h);
      append_text (snapshot, layout, HEADER_PAD, y + (STROBE_TRACK_GROUP_H - h) / 2.0, &p->fg);
      return;
    }
  if (t->kind == STROBE_TRACK_COUNTER && self->hovering && self->hover.track >= 0
      && strobe_track_list_get (self->tracks, (guint) self->hover.track) == t)
    {
      /* The value at the pointer. */
      g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (StrobeCounterBucket));
      StrobeCounterSample before;
      StrobeTimeAxis axis;
      guint64 at;

      get_axis (self, &axis);
      at = strobe_time_axis_time (&axis, self->hover_x);
      strobe_timeline_model_get_counter_series (self->timeline, t->id, at, at, 1, &before, NULL, one);
      if (one->len)
        before.value = g_array_index (one, StrobeCounterBucket, 0).last, before.time = at;
      if (before.time != G_MAXUINT64)
        {
          g_autofree char *v = format_value (before.value, t->counter_unit, t->counter_type);
          text = g_strdup_printf ("%s %s  %s", arrow, t->title, v);
        }
    }
  else if (t->kind == STROBE_TRACK_COUNTER && t->id < self->counter_ranges->len)
    {
      const CounterRange *r = &g_array_index (self->counter_ranges, CounterRange, t->id);
      g_autofree char *v = format_value (r->max, t->counter_unit, t->counter_type);
      /* Translators: a counter track's header: its name and the top of its scale */
      text = g_strdup_printf (_("%s %s  (max %s)"), arrow, t->title, v);
    }
  else if (t->kind == STROBE_TRACK_FRAMES)
    {
      g_autofree char *target = strobe_format_ticks (&self->clock, frame_target_ticks (self));
      /* Translators: the frames track's header: its title and the target frame time */
      text = g_strdup_printf (_("%s %s  (target %s)"), arrow, t->title, target);
    }
  if (text == NULL)
    text = g_strdup_printf ("%s %s", arrow, t->title);
  layout = text_layout (self, text, t->kind == STROBE_TRACK_THREAD);
  pango_layout_get_pixel_size (layout, &w, &h);
  /* A pill behind the name, so ticks and scopes under it do not muddle it. */
  {
    GskRoundedRect r;
    gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT (2, y + 1, w + 2 * HEADER_PAD, STROBE_TRACK_HEADER_H - 2), 4);
    gtk_snapshot_push_rounded_clip (snapshot, &r);
    fill (snapshot, 2, y + 1, w + 2 * HEADER_PAD, STROBE_TRACK_HEADER_H - 2, &p->header_bg);
    gtk_snapshot_pop (snapshot);
  }
  append_text (snapshot, layout, 2 + HEADER_PAD, y + (STROBE_TRACK_HEADER_H - h) / 2.0, &p->fg);
}

static void
draw_tracks (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeAxis *axis, const Palette *p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  gdouble scroll = gtk_adjustment_get_value (self->vadj);
  guint n = strobe_track_list_get_n (self->tracks);
  int shown = 0;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_H, width, MAX (height - RULER_H, 0)));
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;

      if (t->height == 0)
        continue;
      shown++;
      if (y + t->height < RULER_H || y > height)
        continue;
      if (shown % 2 == 0)
        fill (snapshot, 0, y, width, t->height, &p->band);
      fill (snapshot, 0, y + t->height - 1, width, 1, &p->line);
      if (t->kind != STROBE_TRACK_GROUP)
        draw_track_tiles (self, snapshot, axis, t, y, RULER_H, height);
    }
  /* Scopes that began before the view: their names at its left edge, where the tiles do
   * not put them. */
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;
      gboolean dark = is_dark (self);

      if (t->kind != STROBE_TRACK_THREAD || t->height == 0 || t->collapsed || y + t->height < RULER_H || y > height)
        continue;
      for (guint d = 0; d < t->depths; d++)
        {
          gdouble ry = y + strobe_track_row_y (d);
          g_autoptr(GArray) s = NULL;
          const StrobeTimelineScope *sc;
          gdouble end_x, w;
          const char *name;
          StrobeRgb c, tc;
          PangoLayout *layout;
          int lh;

          if (ry + STROBE_TRACK_ROW_H < RULER_H || ry > height)
            continue;
          s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
          if (strobe_timeline_model_get_scopes (self->timeline, (guint16) t->id, d, axis->start, axis->start, s) == 0)
            continue;
          sc = &g_array_index (s, StrobeTimelineScope, 0);
          end_x = strobe_time_axis_x (axis, sc->end);
          w = MIN (end_x, width) - (end_x >= 4 ? 1 : 0);
          if (sc->begin >= axis->start || w < 24)
            continue;
          name = strobe_timeline_model_get_name (self->timeline, sc->name_id);
          c = strobe_timeline_scope_color (self->scheme, (guint16) t->id, d, name, sc->end - sc->begin, &self->clock,
                                           FALSE, self->highlight != G_MAXUINT32 && self->highlight != sc->name_id, dark);
          tc = strobe_timeline_text_on (c);
          fill (snapshot, 0, ry, w, STROBE_TRACK_ROW_H - 1, &(GdkRGBA) { c.r, c.g, c.b, 1 });
          layout = scope_layout (self, name ? name : "", (int) MAX (w - 5, 1));
          pango_layout_get_pixel_size (layout, NULL, &lh);
          append_text (snapshot, layout, 3, ry + (STROBE_TRACK_ROW_H - 1 - lh) / 2.0, &(GdkRGBA) { tc.r, tc.g, tc.b, 1 });
        }
    }
  /* The same for regions. */
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;
      g_autoptr(GArray) regions = NULL;

      if (t->kind != STROBE_TRACK_REGIONS || t->height == 0 || t->collapsed || y + t->height < RULER_H || y > height)
        continue;
      regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
      strobe_timeline_model_get_regions (self->timeline, axis->start, axis->start, regions);
      for (guint k = 0; k < regions->len; k++)
        {
          const StrobeTimelineRegion *r = &g_array_index (regions, StrobeTimelineRegion, k);
          const char *name = strobe_timeline_model_get_name (self->timeline, r->name_id);
          gdouble end_x = strobe_time_axis_x (axis, r->end), w = MIN (end_x, width) - 1;
          gdouble ry = y + STROBE_TRACK_HEADER_H + r->lane * STROBE_TRACK_LANE_H;
          StrobeRgb c = strobe_timeline_region_color (name, is_dark (self)), tc = strobe_timeline_text_on (c);
          PangoLayout *layout;
          int lh;

          if (r->begin >= axis->start || w < 24)
            continue;
          fill (snapshot, 0, ry, w, STROBE_TRACK_LANE_H - 2, &(GdkRGBA) { c.r, c.g, c.b, 1 });
          layout = scope_layout (self, name ? name : "", (int) MAX (w - 5, 1));
          pango_layout_get_pixel_size (layout, NULL, &lh);
          append_text (snapshot, layout, 3, ry + (STROBE_TRACK_LANE_H - 2 - lh) / 2.0, &(GdkRGBA) { tc.r, tc.g, tc.b, 1 });
        }
    }
  /* Headers over the tiles. */
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;

      if (t->height == 0 || y + t->height < RULER_H || y > height)
        continue;
      draw_header (self, snapshot, p, t, y, width);
    }
  gtk_snapshot_pop (snapshot);
}

/* The rectangle of a scope of a thread track on screen; FALSE when not shown. */
static gboolean
scope_rect (StrobeTimelineWidget *self, StrobeTimeAxis *axis, guint16 thread_id, guint depth, guint64 begin,
            guint64 end, graphene_rect_t *out)
{
  int i = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, thread_id);
  const StrobeTrack *t;
  gdouble x, w;

  if (i < 0)
    return FALSE;
  t = strobe_track_list_get (self->tracks, (guint) i);
  if (t->height == 0 || t->collapsed || depth >= t->depths)
    return FALSE;
  if (!strobe_time_axis_span (axis, begin, end, -4, axis->width + 4, 1, &x, &w))
    return FALSE;
  *out = GRAPHENE_RECT_INIT (x, RULER_H + t->y - gtk_adjustment_get_value (self->vadj) + strobe_track_row_y (depth),
                             w, STROBE_TRACK_ROW_H - 1);
  return TRUE;
}

static void
outline (GtkSnapshot *snapshot, const graphene_rect_t *r, gdouble width, const GdkRGBA *color)
{
  GskRoundedRect rr;
  float widths[4] = { width, width, width, width };
  GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (r->origin.x - width, r->origin.y - width,
                                                             r->size.width + 2 * width, r->size.height + 2 * width), 0);
  gtk_snapshot_append_border (snapshot, &rr, widths, colors);
}

static gboolean
end_marker (StrobeTimelineWidget *self, const char **reason)
{
  switch (strobe_document_get_status (self->document))
    {
    case STROBE_DOCUMENT_STATUS_CUT_OFF:
      *reason = _("Cut off");
      return TRUE;
    case STROBE_DOCUMENT_STATUS_DAMAGED:
      *reason = _("Damaged");
      return TRUE;
    case STROBE_DOCUMENT_STATUS_CANCELLED:
      *reason = _("Loading cancelled");
      return TRUE;
    default:
      return FALSE;
    }
}

/* "Damaged at offset 12345" from the decoder's message, which names the offset. */
static char *
end_reason_text (StrobeTimelineWidget *self, const char *reason)
{
  const GError *error = strobe_document_get_error (self->document);
  g_autoptr(GRegex) re = NULL;
  g_autoptr(GMatchInfo) m = NULL;

  gboolean truncated;

  if (strobe_document_get_status (self->document) != STROBE_DOCUMENT_STATUS_DAMAGED || error == NULL)
    return g_strdup (reason);
  truncated = g_error_matches (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_TRUNCATED);
  re = g_regex_new ("offset ([0-9]+)", 0, 0, NULL);
  if (re && g_regex_match (re, error->message, 0, &m))
    {
      g_autofree char *offset = g_match_info_fetch (m, 1);
      /* Translators: %s is a byte offset in the trace file */
      return g_strdup_printf (truncated ? _("Cut off at offset %s") : _("Damaged at offset %s"), offset);
    }
  return g_strdup (truncated ? _("Cut off") : reason);
}

static void
draw_overlays (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeAxis *axis, const Palette *p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  guint64 t1 = strobe_time_axis_end (axis), s0, s1, cursor, hover;
  g_autoptr(GArray) bookmarks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  g_autoptr(GArray) drops = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
  const StrobeScopeRef *sel = strobe_view_state_get_selected_scope (self->state);
  const char *reason;
  graphene_rect_t r;
  GdkRGBA c;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_H, width, MAX (height - RULER_H, 0)));

  /* Drops: the time where events are missing is never left looking idle. */
  strobe_timeline_model_get_drops (self->timeline, axis->start, t1, drops);
  for (guint i = 0; i < drops->len; i++)
    {
      const StrobeTimelineDrop *d = &g_array_index (drops, StrobeTimelineDrop, i);
      gdouble x, w;
      if (strobe_time_axis_span (axis, d->begin, d->end, 0, width, 2, &x, &w))
        {
          c = p->red;
          c.alpha = 0.10;
          fill (snapshot, x, RULER_H, w, height - RULER_H, &c);
        }
    }

  /* Bookmarks: a line each (their labels are on the ruler). */
  strobe_timeline_model_get_bookmarks (self->timeline, axis->start, t1, bookmarks);
  for (guint i = 0; i < bookmarks->len; i++)
    {
      gdouble x = floor (strobe_time_axis_x (axis, g_array_index (bookmarks, StrobeTimelineBookmark, i).time));
      c = p->bookmark;
      c.alpha = 0.7;
      fill (snapshot, x, RULER_H, 1, height - RULER_H, &c);
    }

  /* The selected range: a tint over it, lines at its edges. */
  if (strobe_view_state_get_selection (self->state, &s0, &s1))
    {
      gdouble x0 = strobe_time_axis_x (axis, s0), x1 = strobe_time_axis_x (axis, s1);
      x0 = CLAMP (x0, -2, width + 2);
      x1 = CLAMP (x1, -2, width + 2);
      fill (snapshot, x0, RULER_H, MAX (x1 - x0, 1), height - RULER_H, &p->accent_fill);
      fill (snapshot, x0, RULER_H, 1, height - RULER_H, &p->accent);
      fill (snapshot, x1, RULER_H, 1, height - RULER_H, &p->accent);
    }

  /* Where the data ends in a cut-off or damaged trace. */
  if (self->have_extent && end_marker (self, &reason))
    {
      gdouble x = strobe_time_axis_x (axis, self->last);
      if (x >= -2 && x <= width + 2)
        {
          fill (snapshot, x, RULER_H, 2, height - RULER_H, &p->red);
          c = p->red;
          c.alpha = 0.06;
          fill (snapshot, x + 2, RULER_H, MAX (width - x - 2, 0), height - RULER_H, &c);
        }
    }

  if (sel && scope_rect (self, axis, sel->thread_id, sel->depth, sel->begin, sel->end, &r))
    outline (snapshot, &r, 2, &p->accent);
  if (self->hovering && (self->hover.kind == HIT_SCOPE || self->hover.kind == HIT_BLOCK)
      && scope_rect (self, axis, self->hover.thread_id, self->hover.block.depth, self->hover.block.begin,
                     self->hover.block.end, &r))
    outline (snapshot, &r, 1, &p->fg);

  cursor = strobe_view_state_get_cursor (self->state);
  if (cursor != STROBE_VIEW_STATE_NONE)
    {
      gdouble x = strobe_time_axis_x (axis, cursor);
      c = (GdkRGBA) { 0.95, 0.55, 0.10, 1 };
      fill (snapshot, floor (x), RULER_H, 1.5, height - RULER_H, &c);
    }
  hover = strobe_view_state_get_hover (self->state);
  if (hover != STROBE_VIEW_STATE_NONE)
    {
      gdouble x = strobe_time_axis_x (axis, hover);
      c = p->fg;
      c.alpha = 0.45;
      fill (snapshot, floor (x), RULER_H, 1, height - RULER_H, &c);
    }
  if (self->drag == DRAG_REORDER && self->drop_index >= 0)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) self->drop_index);
      gdouble y = RULER_H + t->y - gtk_adjustment_get_value (self->vadj);
      fill (snapshot, 0, y - 1, width, 3, &p->accent);
    }
  gtk_snapshot_pop (snapshot);
}

/* A label on a rounded background centred on @x, but not left of @min_left (what is
 * already labelled there); returns its right end. */
static gdouble
pill_after (StrobeTimelineWidget *self, GtkSnapshot *snapshot, const char *text, gdouble x, gdouble min_left,
            gdouble y, const GdkRGBA *bg, const GdkRGBA *fg, int width)
{
  PangoLayout *layout = text_layout (self, text, FALSE);
  int w, h;
  GskRoundedRect r;

  pango_layout_get_pixel_size (layout, &w, &h);
  x = CLAMP (MAX (x - (w + 8) / 2.0, min_left), 0, MAX (width - w - 8, 0));
  gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT (x, y, w + 8, h + 2), 3);
  gtk_snapshot_push_rounded_clip (snapshot, &r);
  fill (snapshot, x, y, w + 8, h + 2, bg);
  gtk_snapshot_pop (snapshot);
  append_text (snapshot, layout, x + 4, y + 1, fg);
  return x + w + 8;
}

static void
pill (StrobeTimelineWidget *self, GtkSnapshot *snapshot, const char *text, gdouble x, gdouble y,
      const GdkRGBA *bg, const GdkRGBA *fg, int width)
{
  pill_after (self, snapshot, text, x, -G_MAXDOUBLE, y, bg, fg, width);
}

static void
draw_ruler (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeAxis *axis, const Palette *p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  g_autoptr(GArray) ticks = NULL;
  g_autoptr(GArray) drops = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
  g_autoptr(GArray) bookmarks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  gdouble step, range_end, last_label_end = -1, end_left = G_MAXDOUBLE, end_right = -G_MAXDOUBLE;
  guint64 s0, s1, hover, t1 = strobe_time_axis_end (axis);
  GdkRGBA white = { 1, 1, 1, 1 }, strip = p->line;
  const char *reason;

  fill (snapshot, 0, 0, width, RULER_H, &p->bg);
  strip.alpha = 0.05;
  fill (snapshot, 0, MARKS_Y - 2, width, RULER_H - MARKS_Y + 1, &strip);
  fill (snapshot, 0, RULER_H - 1, width, 1, &p->line);
  ticks = strobe_ruler_ticks (&self->clock, axis, 100, &step);
  range_end = strobe_trace_clock_to_seconds (&self->clock, t1);
  for (guint i = 0; i < ticks->len; i++)
    {
      const StrobeRulerTick *t = &g_array_index (ticks, StrobeRulerTick, i);
      gdouble x = floor (t->x);

      fill (snapshot, x, t->major ? 4 : TICKS_H - 5, 1, t->major ? TICKS_H - 4 : 5, &p->dim);
      if (t->major)
        {
          g_autofree char *text = strobe_ruler_label (strobe_trace_clock_to_seconds (&self->clock, t->time), step, range_end);
          PangoLayout *layout = text_layout (self, text, FALSE);
          GdkRGBA grid = p->line;
          int w;

          /* A label that would run off the right edge is left out rather than cut. */
          pango_layout_get_pixel_size (layout, &w, NULL);
          if (x + 3 + w <= width)
            append_text (snapshot, layout, x + 3, 2, &p->dim);
          grid.alpha = 0.07;
          fill (snapshot, x, RULER_H, 1, height - RULER_H, &grid);
        }
    }

  /* Where the end-of-data label goes (drawn last, over everything): no bookmark label
   * under it. */
  if (self->have_extent && end_marker (self, &reason))
    {
      gdouble x = strobe_time_axis_x (axis, self->last);
      if (x >= -2 && x <= width + 2)
        {
          g_autofree char *text = end_reason_text (self, reason);
          int w;

          pango_layout_get_pixel_size (text_layout (self, text, FALSE), &w, NULL);
          end_left = CLAMP (x - (w + 8) / 2.0, 0, MAX (width - w - 8, 0)) - 4;
          end_right = end_left + w + 16;
        }
    }

  /* Bookmarks: a flag each, labelled while they do not crowd each other. */
  strobe_timeline_model_get_bookmarks (self->timeline, axis->start, t1, bookmarks);
  for (guint i = 0; i < bookmarks->len; i++)
    {
      const StrobeTimelineBookmark *b = &g_array_index (bookmarks, StrobeTimelineBookmark, i);
      gdouble x = floor (strobe_time_axis_x (axis, b->time));

      fill (snapshot, x, MARKS_Y - 2, 1, RULER_H - MARKS_Y + 2, &p->bookmark);
      if (x > last_label_end)
        {
          PangoLayout *layout = text_layout (self, strobe_timeline_model_get_name (self->timeline, b->name_id), FALSE);
          int w, h;

          pango_layout_get_pixel_size (layout, &w, &h);
          if (x + w + 8 > end_left && x < end_right)
            continue;
          fill (snapshot, x, MARKS_Y, w + 8, h + 2, &p->bookmark);
          append_text (snapshot, layout, x + 4, MARKS_Y + 1, &white);
          last_label_end = x + w + 12;
        }
    }

  strobe_timeline_model_get_drops (self->timeline, axis->start, t1, drops);
  for (guint i = 0; i < drops->len; i++)
    {
      const StrobeTimelineDrop *d = &g_array_index (drops, StrobeTimelineDrop, i);
      gdouble x, w;
      if (strobe_time_axis_span (axis, d->begin, d->end, 0, width, 2, &x, &w))
        {
          g_autofree char *n = strobe_format_count (d->count);
          g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event dropped", "%s events dropped", d->count), n);
          fill (snapshot, x, RULER_H - 4, w, 4, &p->red);
          /* After the bookmark labels before it, not over them. */
          last_label_end = pill_after (self, snapshot, text, x + w / 2, last_label_end - 4, MARKS_Y, &p->red, &white,
                                       width) + 4;
        }
    }

  if (strobe_view_state_get_selection (self->state, &s0, &s1))
    {
      gdouble x0 = CLAMP (strobe_time_axis_x (axis, s0), -2, width + 2);
      gdouble x1 = CLAMP (strobe_time_axis_x (axis, s1), -2, width + 2);
      g_autofree char *d = strobe_format_ticks (&self->clock, s1 - s0);

      fill (snapshot, x0, 0, MAX (x1 - x0, 1), RULER_H, &p->accent_fill);
      fill (snapshot, x0, RULER_H - 3, MAX (x1 - x0, 1), 3, &p->accent);
      pill (self, snapshot, d, (x0 + x1) / 2, MARKS_Y, &p->accent, &white, width);
    }

  if (self->have_extent && end_marker (self, &reason))
    {
      gdouble x = strobe_time_axis_x (axis, self->last);
      if (x >= -2 && x <= width + 2)
        {
          g_autofree char *text = end_reason_text (self, reason);
          fill (snapshot, x, 0, 2, RULER_H, &p->red);
          pill (self, snapshot, text, x, MARKS_Y, &p->red, &white, width);
        }
    }

  hover = strobe_view_state_get_hover (self->state);
  if (hover != STROBE_VIEW_STATE_NONE && self->hovering)
    {
      /* Relative to the trace's start, and when it was on the wall clock. */
      gdouble x = strobe_time_axis_x (axis, hover);
      g_autofree char *rel = strobe_ruler_label (strobe_trace_clock_to_seconds (&self->clock, hover), step / 100,
                                                 range_end);
      guint64 wall = strobe_trace_clock_to_wall_ns (&self->clock, hover);
      g_autofree char *text = NULL;

      if (wall)
        {
          g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc ((gint64) (wall / 1000000000));
          g_autoptr(GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;
          g_autofree char *hms = local ? g_date_time_format (local, "%H:%M:%S") : NULL;
          text = g_strdup_printf ("%s · %s.%06u", rel, hms ? hms : "", (guint) (wall % 1000000000 / 1000));
        }
      else
        text = g_strdup (rel);
      pill (self, snapshot, text, x, 2, &p->fg, &p->bg, width);
    }
}

static void
strobe_timeline_widget_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  StrobeTileEpoch epoch = { 0 };
  StrobeTimeAxis axis;
  Palette p;

  if (width <= 0 || height <= 0 || self->timeline == NULL)
    return;
  palette (self, &p);
  get_axis (self, &axis);
  epoch.scale = axis.scale;
  epoch.origin = self->first;
  epoch.scale_factor = gtk_widget_get_scale_factor (widget);
  epoch.scheme = self->scheme;
  epoch.highlight = self->highlight;
  epoch.frame_target = frame_target_ticks (self);
  epoch.dark = is_dark (self);
  /* GL keeps textures on the GPU: texture nodes. The cairo renderer draws cairo nodes
   * without a copy. */
  {
    GtkNative *native = gtk_widget_get_native (widget);
    GskRenderer *renderer = native ? gtk_native_get_renderer (native) : NULL;
    epoch.textures = self->textures = renderer != NULL && !GSK_IS_CAIRO_RENDERER (renderer);
  }
  strobe_tile_cache_set_epoch (self->tiles, &epoch);

  fill (snapshot, 0, 0, width, height, &p.bg);
  self->incomplete = 0;
  draw_tracks (self, snapshot, &axis, &p);
  draw_overlays (self, snapshot, &axis, &p);
  draw_ruler (self, snapshot, &axis, &p);
  if (gtk_widget_has_visible_focus (widget))
    {
      graphene_rect_t r = GRAPHENE_RECT_INIT (1, 1, width - 2, height - 2);
      outline (snapshot, &r, 1, &p.accent);
    }
  strobe_tile_cache_frame_done (self->tiles);
}

/* ---- hit testing ----------------------------------------------------------------------- */

static void
hit_test (StrobeTimelineWidget *self, gdouble x, gdouble y, Hit *hit)
{
  StrobeTimeAxis axis;
  const StrobeTrack *t;
  int ty, i;
  guint64 slack;

  memset (hit, 0, sizeof *hit);
  hit->track = -1;
  get_axis (self, &axis);
  hit->time = strobe_time_axis_time (&axis, x);
  if (y < RULER_H)
    {
      hit->kind = HIT_RULER;
      return;
    }
  i = strobe_track_list_at_y (self->tracks, (int) (y - RULER_H + gtk_adjustment_get_value (self->vadj)));
  if (i < 0)
    return;
  hit->track = i;
  t = strobe_track_list_get (self->tracks, (guint) i);
  ty = (int) (y - RULER_H + gtk_adjustment_get_value (self->vadj)) - t->y;
  hit->kind = HIT_TRACK;
  slack = (guint64) MAX (axis.scale * 3, 1);

  if (t->kind == STROBE_TRACK_GROUP)
    {
      hit->kind = HIT_HEADER;
      return;
    }
  if (ty < STROBE_TRACK_HEADER_H && x < 200)
    {
      /* The name pill (its width is the layout's, but a generous strip is easier). */
      PangoLayout *layout = text_layout (self, t->title, t->kind == STROBE_TRACK_THREAD);
      int w;
      pango_layout_get_pixel_size (layout, &w, NULL);
      if (x < w + 2 * HEADER_PAD + 24)
        {
          hit->kind = HIT_HEADER;
          return;
        }
    }
  switch (t->kind)
    {
    case STROBE_TRACK_THREAD:
      {
        int depth = strobe_track_row_at (t, ty);
        g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
        guint64 res = (guint64) MAX (floor (axis.scale), 1);
        guint64 lo = hit->time > slack ? hit->time - slack : 0;

        hit->thread_id = (guint16) t->id;
        if (depth < 0 && ty < STROBE_TRACK_HEADER_H)
          {
            GArray *ticks = g_hash_table_lookup (self->log_ticks, GUINT_TO_POINTER (t->id));
            guint64 best = G_MAXUINT64;
            if (ticks == NULL)
              return;
            /* The nearest message within a few pixels. */
            for (guint lo_i = 0, hi_i = ticks->len; ;)
              {
                if (lo_i >= hi_i)
                  {
                    for (guint k = lo_i > 2 ? lo_i - 2 : 0; k < MIN (lo_i + 2, ticks->len); k++)
                      {
                        const StrobeLogTick *tk = &g_array_index (ticks, StrobeLogTick, k);
                        guint64 d = tk->time > hit->time ? tk->time - hit->time : hit->time - tk->time;
                        if (d <= slack && d < best)
                          {
                            best = d;
                            hit->tick = *tk;
                            hit->kind = HIT_LOG;
                          }
                      }
                    break;
                  }
                guint mid = (lo_i + hi_i) / 2;
                if (g_array_index (ticks, StrobeLogTick, mid).time < hit->time)
                  lo_i = mid + 1;
                else
                  hi_i = mid;
              }
            return;
          }
        if (depth < 0)
          return;
        strobe_timeline_model_get_blocks (self->timeline, (guint16) t->id, (guint) depth, lo, hit->time + slack, res, blocks);
        for (guint k = 0; k < blocks->len; k++)
          {
            const StrobeTimelineBlock *b = &g_array_index (blocks, StrobeTimelineBlock, k);
            gdouble bx, bw;
            if (!strobe_time_axis_span (&axis, b->begin, b->end, -10, axis.width + 10, 1, &bx, &bw))
              continue;
            if (x >= bx - 1 && x <= bx + bw + 1)
              {
                hit->block = *b;
                hit->kind = b->count > 1 ? HIT_BLOCK : HIT_SCOPE;
                if (b->begin <= hit->time && hit->time <= b->end)
                  break;
              }
          }
      }
      break;
    case STROBE_TRACK_FRAMES:
      {
        g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
        strobe_timeline_model_get_frames (self->timeline, (guint8) t->id, hit->time, hit->time, frames);
        if (frames->len)
          {
            hit->frame = g_array_index (frames, StrobeTimelineFrame, frames->len - 1);
            hit->kind = HIT_FRAME;
          }
      }
      break;
    case STROBE_TRACK_REGIONS:
      {
        g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
        int lane = (ty - STROBE_TRACK_HEADER_H) / STROBE_TRACK_LANE_H;
        strobe_timeline_model_get_regions (self->timeline, hit->time, hit->time, regions);
        for (guint k = 0; k < regions->len; k++)
          if (t->collapsed || g_array_index (regions, StrobeTimelineRegion, k).lane == lane)
            {
              hit->region = g_array_index (regions, StrobeTimelineRegion, k);
              hit->kind = HIT_REGION;
              break;
            }
      }
      break;
    case STROBE_TRACK_COUNTER:
      hit->kind = HIT_COUNTER;
      break;
    default:
      break;
    }
}

/* ---- tooltips --------------------------------------------------------------------------- */

static char *
thread_name (StrobeTimelineWidget *self, guint16 id)
{
  int i = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, id);
  return i >= 0 ? g_strdup (strobe_track_list_get (self->tracks, (guint) i)->title) : g_strdup_printf ("%u", id);
}

static char *
scope_tooltip (StrobeTimelineWidget *self, const Hit *hit)
{
  const StrobeTimelineBlock *b = &hit->block;
  const char *name = strobe_timeline_model_get_name (self->timeline, b->name_id);
  g_autofree char *thread = thread_name (self, hit->thread_id);
  g_autofree char *start = strobe_ruler_label (strobe_trace_clock_to_seconds (&self->clock, b->begin), 1e-9,
                                               strobe_trace_clock_to_seconds (&self->clock, b->begin));
  g_autofree char *incl = strobe_format_ticks (&self->clock, b->end - b->begin);
  g_autofree char *excl = NULL;
  g_autofree char *esc = g_markup_escape_text (name ? name : "", -1);
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  const char *flag = "";

  if (b->count > 1)
    {
      g_autofree char *n = strobe_format_count (b->count);
      /* Translators: a level-of-detail block of the timeline: many scopes too small to draw */
      return g_strdup_printf (_("<b>%s scopes</b> in %s, first “%s”\n%s from %s, depth %u\nZoom in to see them."),
                              n, incl, esc, thread, start, b->depth);
    }
  /* Exclusive time: minus the direct children (bounded, for a tooltip). */
  strobe_timeline_model_get_scopes (self->timeline, hit->thread_id, b->depth + 1u, b->begin, b->end, children);
  if (children->len <= MAX_TOOLTIP_CHILDREN)
    {
      guint64 sum = 0;
      for (guint i = 0; i < children->len; i++)
        {
          const StrobeTimelineScope *c = &g_array_index (children, StrobeTimelineScope, i);
          guint64 cb = MAX (c->begin, b->begin), ce = MIN (c->end, b->end);
          sum += ce > cb ? ce - cb : 0;
        }
      excl = strobe_format_ticks (&self->clock, (b->end - b->begin) > sum ? (b->end - b->begin) - sum : 0);
    }
  else
    excl = g_strdup ("…");
  if (b->flags & STROBE_SCOPE_CLOSED_AT_END)
    flag = _("\n<i>Still open when the trace ended: drawn to where the data stops.</i>");
  else if (b->flags & STROBE_SCOPE_OPEN)
    flag = _("\n<i>Still running.</i>");
  return g_strdup_printf (_("<b>%s</b>\nThread: %s\nStart: %s\nInclusive: %s\nExclusive: %s\nDepth: %u%s"),
                          esc, thread, start, incl, excl, b->depth, flag);
}

static char *
tooltip_markup (StrobeTimelineWidget *self, const Hit *hit)
{
  switch (hit->kind)
    {
    case HIT_SCOPE:
    case HIT_BLOCK:
      return scope_tooltip (self, hit);
    case HIT_LOG:
      {
        StrobeLogMessage m;
        if (self->log && strobe_log_model_get_message (self->log, hit->tick.index, &m))
          {
            g_autofree char *text = g_markup_escape_text (m.text ? m.text : "", -1);
            g_autofree char *at = strobe_ruler_label (strobe_trace_clock_to_seconds (&self->clock, m.time), 1e-9,
                                                      strobe_trace_clock_to_seconds (&self->clock, m.time));
            const char *cat = m.spec && m.spec->category ? m.spec->category->name : "";
            char *out = g_strdup_printf ("<b>%s</b> %s · %s\n%s", strobe_log_verbosity_name (m.verbosity), cat, at, text);
            g_free (m.text);
            return out;
          }
        return NULL;
      }
    case HIT_FRAME:
      {
        g_autofree char *d = strobe_format_ticks (&self->clock, hit->frame.end - hit->frame.begin);
        return g_strdup_printf (_("Frame %u: %s"), hit->frame.index, d);
      }
    case HIT_REGION:
      {
        g_autofree char *d = strobe_format_ticks (&self->clock, hit->region.end - hit->region.begin);
        g_autofree char *esc = g_markup_escape_text (strobe_timeline_model_get_name (self->timeline, hit->region.name_id), -1);
        return g_strdup_printf ("<b>%s</b>: %s", esc, d);
      }
    case HIT_HEADER:
      {
        const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) hit->track);
        g_autofree char *esc = g_markup_escape_text (t->title, -1);
        return g_strdup_printf (_("<b>%s</b>\nClick to collapse or expand, drag to move, right-click for more."), esc);
      }
    case HIT_RULER:
      {
        g_autoptr(GArray) drops = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
        const char *reason;
        strobe_timeline_model_get_drops (self->timeline, hit->time, hit->time, drops);
        if (drops->len)
          {
            g_autofree char *n = strobe_format_count (g_array_index (drops, StrobeTimelineDrop, 0).count);
            return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "The program dropped %s event somewhere in this interval: the trace is incomplete here.",
                                                 "The program dropped %s events somewhere in this interval: the trace is incomplete here.",
                                                 g_array_index (drops, StrobeTimelineDrop, 0).count), n);
          }
        if (self->have_extent && end_marker (self, &reason) && hit->time >= self->last)
          {
            const GError *e = strobe_document_get_error (self->document);
            g_autofree char *esc = e ? g_markup_escape_text (e->message, -1) : NULL;
            return g_strdup_printf (_("<b>The data ends here</b> (%s).%s%s"), reason, esc ? "\n" : "", esc ? esc : "");
          }
        return NULL;
      }
    default:
      return NULL;
    }
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, gpointer data)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  g_autofree char *markup = NULL;
  Hit hit;

  if (keyboard || self->drag != DRAG_NONE)
    return FALSE;
  hit_test (self, x, y, &hit);
  markup = tooltip_markup (self, &hit);
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---- selection and navigation --------------------------------------------------------- */

static void
select_scope (StrobeTimelineWidget *self, guint16 thread_id, const StrobeTimelineBlock *b)
{
  StrobeScopeRef ref = { thread_id, b->depth, b->name_id, b->begin, b->end };
  strobe_view_state_set_selected_scope (self->state, &ref);
}

void
strobe_timeline_widget_show_scope (StrobeTimelineWidget *self, const StrobeScopeRef *scope)
{
  StrobeTimeAxis axis;
  guint64 a, b, len;
  int i;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));
  g_return_if_fail (scope != NULL);

  get_axis (self, &axis);
  strobe_view_state_get_visible_range (self->state, &a, &b);
  len = b - a;
  if (scope->end - scope->begin > len * 0.9 || (scope->end - scope->begin) / axis.scale < 4)
    strobe_timeline_widget_zoom_to (self, scope->begin, scope->end);
  else if (scope->begin < a || scope->end > b)
    {
      /* Centred, at the same zoom. */
      guint64 mid = scope->begin + (scope->end - scope->begin) / 2;
      user_moved (self);
      set_visible (self, mid > len / 2 ? mid - len / 2 : 0, (mid > len / 2 ? mid - len / 2 : 0) + len);
    }
  strobe_view_state_set_selected_scope (self->state, scope);
  /* And vertically into view. */
  i = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, scope->thread_id);
  if (i >= 0)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) i);
      gdouble y = t->y + strobe_track_row_y (scope->depth), v = gtk_adjustment_get_value (self->vadj);
      int h = tracks_height (self);
      if (t->height > 0 && (y < v || y + STROBE_TRACK_ROW_H > v + h))
        gtk_adjustment_set_value (self->vadj, MAX (y - h / 3.0, 0));
    }
}

/* The scope of @thread at @depth that contains @time (or begins first after it when @after). */
static gboolean
scope_at (StrobeTimelineWidget *self, guint16 thread, guint depth, guint64 t0, guint64 t1, gboolean last,
          StrobeScopeRef *out)
{
  g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  const StrobeTimelineScope *x;

  if (strobe_timeline_model_get_scopes (self->timeline, thread, depth, t0, t1, s) == 0)
    return FALSE;
  x = &g_array_index (s, StrobeTimelineScope, last ? s->len - 1 : 0);
  *out = (StrobeScopeRef) { thread, (guint16) depth, x->name_id, x->begin, x->end };
  return TRUE;
}

static gboolean
sibling (StrobeTimelineWidget *self, const StrobeScopeRef *cur, gboolean next, StrobeScopeRef *out)
{
  StrobeScopeRef parent;
  guint64 lo = 0, hi = G_MAXUINT64, w;

  if (cur->depth > 0 && scope_at (self, cur->thread_id, cur->depth - 1u, cur->begin, cur->begin, FALSE, &parent))
    {
      lo = parent.begin;
      hi = parent.end;
    }
  else if (self->have_extent)
    {
      lo = self->first;
      hi = self->last;
    }
  /* Widening windows: a neighbour is usually close, and never a huge copy. */
  for (w = MAX ((cur->end - cur->begin) * 2, 1024);; w = w > G_MAXUINT64 / 4 ? G_MAXUINT64 : w * 4)
    {
      g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
      guint64 a = next ? cur->end + 1 : (cur->begin > w ? cur->begin - w : 0);
      guint64 b = next ? (cur->end > G_MAXUINT64 - w ? G_MAXUINT64 : cur->end + w) : (cur->begin ? cur->begin - 1 : 0);

      a = MAX (a, lo);
      b = MIN (b, hi);
      if (a <= b && strobe_timeline_model_get_scopes (self->timeline, cur->thread_id, cur->depth, a, b, s) > 0)
        for (guint k = 0; k < s->len; k++)
          {
            guint i = next ? k : s->len - 1 - k;
            const StrobeTimelineScope *x = &g_array_index (s, StrobeTimelineScope, i);
            if (next ? x->begin > cur->begin : x->begin < cur->begin)
              {
                if (x->begin < lo || x->end > hi)
                  return FALSE;
                *out = (StrobeScopeRef) { cur->thread_id, cur->depth, x->name_id, x->begin, x->end };
                return TRUE;
              }
          }
      if ((next && b >= hi) || (!next && a <= lo) || w == G_MAXUINT64)
        return FALSE;
    }
}

static void
navigate (StrobeTimelineWidget *self, int direction)
{
  const StrobeScopeRef *cur = strobe_view_state_get_selected_scope (self->state);
  StrobeScopeRef to;
  gboolean found = FALSE;

  if (cur == NULL)
    {
      /* Without a scope: arrows pan and scroll. */
      int w = gtk_widget_get_width (GTK_WIDGET (self));
      if (direction == 0)
        pan (self, -w / 8.0);
      else if (direction == 1)
        pan (self, w / 8.0);
      else
        gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + (direction == 2 ? -40 : 40));
      return;
    }
  switch (direction)
    {
    case 0: found = sibling (self, cur, FALSE, &to); break;
    case 1: found = sibling (self, cur, TRUE, &to); break;
    case 2:
      found = cur->depth > 0 && scope_at (self, cur->thread_id, cur->depth - 1u, cur->begin, cur->begin, FALSE, &to);
      break;
    case 3:
      found = scope_at (self, cur->thread_id, cur->depth + 1u, cur->begin, cur->end, FALSE, &to)
              && to.begin >= cur->begin && to.end <= cur->end;
      break;
    default:
      break;
    }
  if (found)
    strobe_timeline_widget_show_scope (self, &to);
  else
    gtk_widget_error_bell (GTK_WIDGET (self));
}

/* The outermost scope at the centre of the view, on the first shown thread that has one. */
static void
select_at_centre (StrobeTimelineWidget *self)
{
  guint64 a, b, mid;
  guint n = strobe_track_list_get_n (self->tracks);

  strobe_view_state_get_visible_range (self->state, &a, &b);
  mid = a + (b - a) / 2;
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      StrobeScopeRef r;

      if (t->kind != STROBE_TRACK_THREAD || t->height == 0 || t->depths == 0)
        continue;
      if (scope_at (self, (guint16) t->id, 0, mid, mid, FALSE, &r) || scope_at (self, (guint16) t->id, 0, a, b, FALSE, &r))
        {
          strobe_timeline_widget_show_scope (self, &r);
          return;
        }
    }
  gtk_widget_error_bell (GTK_WIDGET (self));
}

/* ---- actions --------------------------------------------------------------------------- */

static void
action_zoom (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int dir = g_variant_get_int32 (param);
  gdouble x = self->hovering ? self->hover_x : gtk_widget_get_width (widget) / 2.0;

  if (dir == 0)
    strobe_timeline_widget_zoom_fit (self);
  else
    zoom (self, dir > 0 ? 1 / ZOOM_STEP / ZOOM_STEP : ZOOM_STEP * ZOOM_STEP, x);
}

static void
action_zoom_selection (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  const StrobeScopeRef *sel = strobe_view_state_get_selected_scope (self->state);
  guint64 a, b;

  if (strobe_view_state_get_selection (self->state, &a, &b))
    strobe_timeline_widget_zoom_to (self, a, b);
  else if (sel)
    strobe_timeline_widget_zoom_to (self, sel->begin, sel->end);
  else
    gtk_widget_error_bell (widget);
}

static void
action_clear (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);

  self->kb_anchor_set = FALSE;
  if (strobe_view_state_get_selection (self->state, NULL, NULL))
    strobe_view_state_clear_selection (self->state);
  else if (strobe_view_state_get_selected_scope (self->state))
    strobe_view_state_set_selected_scope (self->state, NULL);
}

static void
action_navigate (GtkWidget *widget, const char *name, GVariant *param)
{
  navigate (STROBE_TIMELINE_WIDGET (widget), g_variant_get_int32 (param));
}

static void
action_go (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  guint64 a, b, len;

  if (!self->have_extent)
    return;
  strobe_view_state_get_visible_range (self->state, &a, &b);
  len = b - a;
  user_moved (self);
  if (g_variant_get_int32 (param) < 0)
    set_visible (self, self->first, self->first + len);
  else
    set_visible (self, self->last > len ? self->last - len : 0, MAX (self->last, len));
}

/* Shift+←/→: a range grows and shrinks from an anchor (the selected scope's start, or
 * the view's centre), by a twentieth of the view per press. */
static void
action_select_step (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int dir = g_variant_get_int32 (param);
  guint64 a, b, s0, s1, step, edge;

  strobe_view_state_get_visible_range (self->state, &a, &b);
  step = MAX ((b - a) / 20, 1);
  if (!strobe_view_state_get_selection (self->state, &s0, &s1) || !self->kb_anchor_set)
    {
      const StrobeScopeRef *sel = strobe_view_state_get_selected_scope (self->state);
      self->kb_anchor = sel ? sel->begin : a + (b - a) / 2;
      self->kb_anchor_set = TRUE;
      s0 = s1 = self->kb_anchor;
    }
  edge = s0 == self->kb_anchor ? s1 : s0;
  if (dir > 0)
    edge = edge > G_MAXUINT64 - step ? G_MAXUINT64 : edge + step;
  else
    edge = edge > step ? edge - step : 0;
  if (edge == self->kb_anchor)
    strobe_view_state_clear_selection (self->state);
  else
    strobe_view_state_set_selection (self->state, MIN (edge, self->kb_anchor), MAX (edge, self->kb_anchor));
}

static void
action_select_scope_range (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  const StrobeScopeRef *sel = strobe_view_state_get_selected_scope (self->state);

  if (sel == NULL)
    {
      select_at_centre (self);
      return;
    }
  self->kb_anchor_set = FALSE;
  strobe_view_state_set_selection (self->state, sel->begin, sel->end);
}

static void
action_select_centre (GtkWidget *widget, const char *name, GVariant *param)
{
  select_at_centre (STROBE_TIMELINE_WIDGET (widget));
}

static void
action_page (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj)
                                          + g_variant_get_int32 (param) * gtk_adjustment_get_page_increment (self->vadj));
}

static void
action_track_collapse (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  guint i = (guint) g_variant_get_int32 (param);

  if (i < strobe_track_list_get_n (self->tracks))
    strobe_timeline_widget_set_track_collapsed (self, i, !strobe_track_list_get (self->tracks, i)->collapsed);
}

static void
action_track_hide (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  guint i = (guint) g_variant_get_int32 (param);

  if (i < strobe_track_list_get_n (self->tracks))
    strobe_timeline_widget_set_track_hidden (self, i, TRUE);
}

/* The shown track of the same level before (or after) @i. */
static int
neighbour (StrobeTimelineWidget *self, guint i, int dir)
{
  guint n = strobe_track_list_get_n (self->tracks);
  const StrobeTrack *t = strobe_track_list_get (self->tracks, i);

  for (int k = (int) i + dir; k >= 0 && k < (int) n; k += dir)
    {
      const StrobeTrack *o = strobe_track_list_get (self->tracks, (guint) k);
      gboolean tg = t->kind == STROBE_TRACK_THREAD && t->group && *t->group;
      gboolean og = o->kind == STROBE_TRACK_THREAD && o->group && *o->group;

      if (tg != og || (tg && g_strcmp0 (t->group, o->group) != 0))
        {
          if (tg)
            return -1;   /* left the group */
          continue;
        }
      if (o->height > 0 || o->kind == STROBE_TRACK_GROUP)
        return k;
    }
  return -1;
}

static void
action_track_move (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int i, dir, to;

  g_variant_get (param, "(ii)", &i, &dir);
  if (i < 0 || (guint) i >= strobe_track_list_get_n (self->tracks))
    return;
  to = neighbour (self, (guint) i, dir);
  if (to < 0)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  if (dir > 0)
    {
      /* After the neighbour: before the one after it (or at the end of the level). */
      int after = neighbour (self, (guint) to, 1);
      strobe_timeline_widget_move_track (self, (guint) i, after >= 0 ? (guint) after : G_MAXUINT);
    }
  else
    strobe_timeline_widget_move_track (self, (guint) i, (guint) to);
}

static void
action_tracks_reset (GtkWidget *widget, const char *name, GVariant *param)
{
  strobe_timeline_widget_reset_tracks (STROBE_TIMELINE_WIDGET (widget));
}

static void
show_track_menu (StrobeTimelineWidget *self, int track, gdouble x, gdouble y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) track);
  g_autofree char *collapse = g_strdup_printf ("timeline.track-collapse(%d)", track);
  g_autofree char *hide = g_strdup_printf ("timeline.track-hide(%d)", track);
  g_autofree char *up = g_strdup_printf ("timeline.track-move((%d,-1))", track);
  g_autofree char *down = g_strdup_printf ("timeline.track-move((%d,1))", track);

  g_menu_append (menu, t->collapsed ? _("_Expand") : _("_Collapse"), collapse);
  g_menu_append (menu, _("_Hide"), hide);
  g_menu_append (section, _("Move _Up"), up);
  g_menu_append (section, _("Move _Down"), down);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_menu_append (menu, _("_Reset Tracks"), "timeline.tracks-reset");
  if (self->menu == NULL)
    {
      self->menu = gtk_popover_menu_new_from_model (NULL);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
action_track_menu (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  const StrobeScopeRef *sel = strobe_view_state_get_selected_scope (self->state);
  int track = self->hovering ? self->hover.track : -1;
  gdouble y = self->hover_y;

  if (sel)
    {
      track = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, sel->thread_id);
      if (track >= 0)
        y = RULER_H + strobe_track_list_get (self->tracks, (guint) track)->y - gtk_adjustment_get_value (self->vadj) + 8;
    }
  if (track < 0)
    {
      /* The first shown track. */
      for (guint i = 0; i < strobe_track_list_get_n (self->tracks) && track < 0; i++)
        if (strobe_track_list_get (self->tracks, i)->height > 0)
          {
            track = (int) i;
            y = RULER_H + strobe_track_list_get (self->tracks, i)->y - gtk_adjustment_get_value (self->vadj) + 8;
          }
    }
  if (track >= 0)
    show_track_menu (self, track, 20, y);
}

/* ---- pointer ----------------------------------------------------------------------------- */

static void
motion_cb (GtkEventControllerMotion *ctrl, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  self->hovering = TRUE;
  self->hover_x = x;
  self->hover_y = y;
  if (self->drag == DRAG_NONE)
    hit_test (self, x, y, &self->hover);
  strobe_view_state_set_hover (self->state, self->hover.time);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *ctrl, StrobeTimelineWidget *self)
{
  self->hovering = FALSE;
  self->hover.kind = HIT_NONE;
  strobe_view_state_set_hover (self->state, STROBE_VIEW_STATE_NONE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_cb (GtkEventControllerScroll *ctrl, gdouble dx, gdouble dy, StrobeTimelineWidget *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (ctrl));
  gboolean wheel = gtk_event_controller_scroll_get_unit (ctrl) == GDK_SCROLL_UNIT_WHEEL;
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  if (mods & GDK_CONTROL_MASK)
    {
      if (dy != 0)
        zoom (self, pow (ZOOM_STEP, wheel ? dy : dy / 20.0), self->hovering ? self->hover_x : w / 2.0);
      return TRUE;
    }
  if (mods & GDK_SHIFT_MASK)
    {
      pan (self, (dy != 0 ? dy : dx) * (wheel ? w / 10.0 : 1));
      return TRUE;
    }
  if (dx != 0)
    pan (self, dx * (wheel ? w / 10.0 : 1));
  if (dy != 0)
    gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + dy * (wheel ? 54 : 1));
  return TRUE;
}

static void
pinch_begin_cb (GtkGesture *gesture, GdkEventSequence *seq, StrobeTimelineWidget *self)
{
  strobe_view_state_get_visible_range (self->state, &self->pinch_start, &self->pinch_end);
}

static void
pinch_cb (GtkGestureZoom *gesture, gdouble scale, StrobeTimelineWidget *self)
{
  gdouble cx, cy;
  guint64 a = self->pinch_start, b = self->pinch_end, lo, hi;
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  if (!(scale > 0) || !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;
  bounds (self, &lo, &hi);
  strobe_time_zoom (&a, &b, 1 / scale, cx / MAX (w, 1), MIN_SPAN, lo, hi);
  self->user_moved = TRUE;
  set_visible (self, a, b);
}

static void
drag_begin_cb (GtkGestureDrag *gesture, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  StrobeTimeAxis axis;
  Hit hit;

  get_axis (self, &axis);
  hit_test (self, x, y, &hit);
  self->drag_x = x;
  self->drag_y = y;
  strobe_view_state_get_visible_range (self->state, &self->drag_start, &self->drag_end);
  self->drag_vadj = gtk_adjustment_get_value (self->vadj);
  self->drag_anchor = strobe_time_axis_time (&axis, x);
  self->drop_index = -1;
  if (hit.kind == HIT_RULER || (mods & GDK_SHIFT_MASK))
    self->drag = DRAG_SELECT;
  else if (hit.kind == HIT_HEADER)
    {
      self->drag = DRAG_REORDER;
      self->drag_track = hit.track;
    }
  else
    self->drag = DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag *gesture, gdouble ox, gdouble oy, StrobeTimelineWidget *self)
{
  StrobeTimeAxis axis;

  if (fabs (ox) < 3 && fabs (oy) < 3 && self->drop_index < 0)
    return;
  get_axis (self, &axis);
  switch (self->drag)
    {
    case DRAG_PAN:
      {
        guint64 a = self->drag_start, b = self->drag_end, lo, hi;
        gdouble d = -ox * (gdouble) (b - a) / MAX (axis.width, 1);
        bounds (self, &lo, &hi);
        strobe_time_pan (&a, &b, (gint64) CLAMP (d, (gdouble) G_MININT64, (gdouble) G_MAXINT64), lo, hi);
        user_moved (self);
        set_visible (self, a, b);
        gtk_adjustment_set_value (self->vadj, self->drag_vadj - oy);
      }
      break;
    case DRAG_SELECT:
      {
        guint64 t = strobe_time_axis_time (&axis, self->drag_x + ox);
        self->kb_anchor_set = FALSE;
        strobe_view_state_set_selection (self->state, MIN (t, self->drag_anchor), MAX (t, self->drag_anchor));
      }
      break;
    case DRAG_REORDER:
      {
        int i = strobe_track_list_at_y (self->tracks,
                                        (int) (self->drag_y + oy - RULER_H + gtk_adjustment_get_value (self->vadj)));
        self->drop_index = i;
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;
    default:
      break;
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture, gdouble ox, gdouble oy, StrobeTimelineWidget *self)
{
  if (self->drag == DRAG_REORDER && self->drop_index >= 0 && self->drop_index != self->drag_track)
    {
      int to = self->drop_index;
      /* Dropped on the lower half of a track: after it. */
      if (to > self->drag_track)
        to = neighbour (self, (guint) to, 1);
      strobe_timeline_widget_move_track (self, (guint) self->drag_track, to >= 0 ? (guint) to : G_MAXUINT);
    }
  self->drag = DRAG_NONE;
  self->drop_index = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
activate_log (StrobeTimelineWidget *self, const StrobeLogTick *tick)
{
  StrobeLogMessage m;
  guint64 index = tick->index;

  /* A live trace may have shifted positions since the ticks were gathered: look near by. */
  if (self->log && strobe_log_model_get_message (self->log, index, &m))
    {
      gboolean same = m.time == tick->time;
      g_free (m.text);
      for (guint64 d = 1; !same && d < 256; d++)
        for (int s = -1; s <= 1 && !same; s += 2)
          {
            guint64 i = s < 0 ? (index >= d ? index - d : G_MAXUINT64) : index + d;
            if (i != G_MAXUINT64 && strobe_log_model_get_message (self->log, i, &m))
              {
                if (m.time == tick->time)
                  {
                    index = i;
                    same = TRUE;
                  }
                g_free (m.text);
              }
          }
    }
  strobe_view_state_set_cursor (self->state, tick->time);
  strobe_view_state_set_selected_message (self->state, index);
  gtk_widget_activate_action (GTK_WIDGET (self), "document.show-page", "s", "log");
}

static void
click_pressed_cb (GtkGestureClick *gesture, int n_press, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  Hit hit;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  hit_test (self, x, y, &hit);
  if (button == GDK_BUTTON_SECONDARY)
    {
      if (hit.track >= 0)
        show_track_menu (self, hit.track, x, y);
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (n_press == 2 && button == GDK_BUTTON_PRIMARY)
    {
      if (hit.kind == HIT_SCOPE || hit.kind == HIT_BLOCK)
        strobe_timeline_widget_zoom_to (self, hit.block.begin, hit.block.end);
      else if (hit.kind == HIT_REGION)
        strobe_timeline_widget_zoom_to (self, hit.region.begin, hit.region.end);
    }
}

static void
click_released_cb (GtkGestureClick *gesture, int n_press, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (button != GDK_BUTTON_PRIMARY || n_press != 1)
    return;
  strobe_timeline_widget_activate_at (self, x, y);
}

gdouble
strobe_timeline_widget_get_track_top (StrobeTimelineWidget *self, guint index)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), 0);
  g_return_val_if_fail (index < strobe_track_list_get_n (self->tracks), 0);

  return RULER_H + strobe_track_list_get (self->tracks, index)->y - gtk_adjustment_get_value (self->vadj);
}

void
strobe_timeline_widget_activate_at (StrobeTimelineWidget *self, gdouble x, gdouble y)
{
  Hit hit;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  hit_test (self, x, y, &hit);
  switch (hit.kind)
    {
    case HIT_HEADER:
      strobe_timeline_widget_set_track_collapsed (self, (guint) hit.track,
                                                  !strobe_track_list_get (self->tracks, (guint) hit.track)->collapsed);
      break;
    case HIT_SCOPE:
      select_scope (self, hit.thread_id, &hit.block);
      break;
    case HIT_BLOCK:
      strobe_timeline_widget_zoom_to (self, hit.block.begin, hit.block.end);
      break;
    case HIT_LOG:
      activate_log (self, &hit.tick);
      break;
    case HIT_FRAME:
      strobe_timeline_widget_zoom_to (self, hit.frame.begin, hit.frame.end);
      break;
    case HIT_REGION:
    case HIT_TRACK:
    case HIT_COUNTER:
      strobe_view_state_set_selected_scope (self->state, NULL);
      break;
    default:
      break;
    }
}

/* ---- accessibility --------------------------------------------------------------------- */

static void
update_description (StrobeTimelineWidget *self)
{
  guint64 a, b, s0, s1;
  g_autofree char *va = NULL, *vb = NULL, *vl = NULL, *sel = NULL, *text = NULL;
  gdouble end;

  strobe_view_state_get_visible_range (self->state, &a, &b);
  end = strobe_trace_clock_to_seconds (&self->clock, b);
  va = strobe_ruler_label (strobe_trace_clock_to_seconds (&self->clock, a), 1e-6, end);
  vb = strobe_ruler_label (end, 1e-6, end);
  vl = strobe_format_ticks (&self->clock, b - a);
  if (strobe_view_state_get_selection (self->state, &s0, &s1))
    {
      g_autofree char *x = strobe_ruler_label (strobe_trace_clock_to_seconds (&self->clock, s0), 1e-6, end);
      g_autofree char *y = strobe_ruler_label (strobe_trace_clock_to_seconds (&self->clock, s1), 1e-6, end);
      g_autofree char *l = strobe_format_ticks (&self->clock, s1 - s0);
      /* Translators: the timeline's selected time range, for screen readers */
      sel = g_strdup_printf (_("Selection from %s to %s (%s)."), x, y, l);
    }
  else
    sel = g_strdup (_("No selection."));
  /* Translators: the timeline's visible time range, for screen readers */
  text = g_strdup_printf (_("Showing %s to %s (%s). %s"), va, vb, vl, sel);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
state_changed_cb (StrobeTimelineWidget *self)
{
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- object ---------------------------------------------------------------------------- */

static void
strobe_timeline_widget_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);

  relayout (self);
  if (self->menu)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

static void
strobe_timeline_widget_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *min, int *nat,
                                int *min_baseline, int *nat_baseline)
{
  *min = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : RULER_H + 60;
  *nat = orientation == GTK_ORIENTATION_HORIZONTAL ? 800 : 500;
}

static void
style_changed (StrobeTimelineWidget *self)
{
  g_hash_table_remove_all (self->layouts);
  if (self->tiles)
    strobe_tile_cache_clear (self->tiles);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
strobe_timeline_widget_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (strobe_timeline_widget_parent_class)->css_changed (widget, change);
  style_changed (STROBE_TIMELINE_WIDGET (widget));
}

static void
strobe_timeline_widget_constructed (GObject *object)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (object);

  G_OBJECT_CLASS (strobe_timeline_widget_parent_class)->constructed (object);

  g_return_if_fail (self->document != NULL && self->state != NULL);
  self->threads = g_object_ref (strobe_document_get_threads (self->document));
  if (strobe_document_get_timeline (self->document))
    self->timeline = g_object_ref (strobe_document_get_timeline (self->document));
  if (strobe_document_get_log (self->document))
    self->log = g_object_ref (strobe_document_get_log (self->document));
  if (self->timeline)
    self->tiles = strobe_tile_cache_new (self->timeline, tile_ready, self);
  g_signal_connect_object (self->state, "notify::visible-start", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::visible-end", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::selection-start", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::selection-end", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::has-selection", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::selected-scope", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::cursor", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::hover", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  strobe_timeline_widget_update (self, STROBE_DOCUMENT_MODEL_ALL | STROBE_DOCUMENT_CHANGED_EXTENT);
}

static void
strobe_timeline_widget_dispose (GObject *object)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->tiles, strobe_tile_cache_free);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  G_OBJECT_CLASS (strobe_timeline_widget_parent_class)->dispose (object);
}

static void
strobe_timeline_widget_finalize (GObject *object)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (object);

  g_clear_object (&self->document);
  g_clear_object (&self->state);
  g_clear_object (&self->timeline);
  g_clear_object (&self->threads);
  g_clear_object (&self->log);
  g_clear_object (&self->vadj);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->tracks, strobe_track_list_free);
  g_clear_pointer (&self->counter_ranges, g_array_unref);
  g_clear_pointer (&self->log_ticks, g_hash_table_unref);
  g_clear_pointer (&self->layouts, g_hash_table_unref);
  g_free (self->program);
  G_OBJECT_CLASS (strobe_timeline_widget_parent_class)->finalize (object);
}

static void
strobe_timeline_widget_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:     g_value_set_object (value, self->document); break;
    case PROP_STATE:        g_value_set_object (value, self->state); break;
    case PROP_COLOR_SCHEME: g_value_set_int (value, self->scheme); break;
    case PROP_FRAME_TARGET: g_value_set_double (value, self->frame_target); break;
    case PROP_HIDE_EMPTY:   g_value_set_boolean (value, self->hide_empty); break;
    default:                G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_timeline_widget_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:     self->document = g_value_dup_object (value); break;
    case PROP_STATE:        self->state = g_value_dup_object (value); break;
    case PROP_COLOR_SCHEME: strobe_timeline_widget_set_color_scheme (self, g_value_get_int (value)); break;
    case PROP_FRAME_TARGET: strobe_timeline_widget_set_frame_target (self, g_value_get_double (value)); break;
    case PROP_HIDE_EMPTY:   strobe_timeline_widget_set_hide_empty (self, g_value_get_boolean (value)); break;
    default:                G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bind_int (GtkWidgetClass *klass, guint key, GdkModifierType mods, const char *action, int value)
{
  gtk_widget_class_add_binding_action (klass, key, mods, action, "i", value);
}

static void
strobe_timeline_widget_class_init (StrobeTimelineWidgetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = strobe_timeline_widget_constructed;
  object_class->dispose = strobe_timeline_widget_dispose;
  object_class->finalize = strobe_timeline_widget_finalize;
  object_class->get_property = strobe_timeline_widget_get_property;
  object_class->set_property = strobe_timeline_widget_set_property;
  widget_class->snapshot = strobe_timeline_widget_snapshot;
  widget_class->size_allocate = strobe_timeline_widget_size_allocate;
  widget_class->measure = strobe_timeline_widget_measure;
  widget_class->css_changed = strobe_timeline_widget_css_changed;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, STROBE_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_object ("state", NULL, NULL, STROBE_TYPE_VIEW_STATE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_SCHEME] =
    g_param_spec_int ("color-scheme", NULL, NULL, 0, STROBE_TIMELINE_COLORS_BY_DURATION, 0, rw);
  properties[PROP_FRAME_TARGET] =
    g_param_spec_double ("frame-target", NULL, NULL, 1e-6, 10, 1 / 60.0, rw);
  properties[PROP_HIDE_EMPTY] = g_param_spec_boolean ("hide-empty", NULL, NULL, TRUE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StrobeTimelineWidget::tracks-changed:
   *
   * Tracks appeared, or one was hidden, collapsed or moved (the tracks menu follows).
   */
  signals[TRACKS_CHANGED] = g_signal_new ("tracks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "timeline.zoom", "i", action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-selection", NULL, action_zoom_selection);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, action_clear);
  gtk_widget_class_install_action (widget_class, "timeline.navigate", "i", action_navigate);
  gtk_widget_class_install_action (widget_class, "timeline.go", "i", action_go);
  gtk_widget_class_install_action (widget_class, "timeline.select-step", "i", action_select_step);
  gtk_widget_class_install_action (widget_class, "timeline.select-scope-range", NULL, action_select_scope_range);
  gtk_widget_class_install_action (widget_class, "timeline.select-centre", NULL, action_select_centre);
  gtk_widget_class_install_action (widget_class, "timeline.page", "i", action_page);
  gtk_widget_class_install_action (widget_class, "timeline.track-collapse", "i", action_track_collapse);
  gtk_widget_class_install_action (widget_class, "timeline.track-hide", "i", action_track_hide);
  gtk_widget_class_install_action (widget_class, "timeline.track-move", "(ii)", action_track_move);
  gtk_widget_class_install_action (widget_class, "timeline.tracks-reset", NULL, action_tracks_reset);
  gtk_widget_class_install_action (widget_class, "timeline.track-menu", NULL, action_track_menu);

  bind_int (widget_class, GDK_KEY_plus, 0, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_equal, 0, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_minus, 0, "timeline.zoom", -1);
  bind_int (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom", -1);
  bind_int (widget_class, GDK_KEY_0, 0, "timeline.zoom", 0);
  bind_int (widget_class, GDK_KEY_KP_0, 0, "timeline.zoom", 0);
  bind_int (widget_class, GDK_KEY_Left, 0, "timeline.navigate", 0);
  bind_int (widget_class, GDK_KEY_Right, 0, "timeline.navigate", 1);
  bind_int (widget_class, GDK_KEY_Up, 0, "timeline.navigate", 2);
  bind_int (widget_class, GDK_KEY_Down, 0, "timeline.navigate", 3);
  bind_int (widget_class, GDK_KEY_Home, 0, "timeline.go", -1);
  bind_int (widget_class, GDK_KEY_End, 0, "timeline.go", 1);
  bind_int (widget_class, GDK_KEY_Left, GDK_SHIFT_MASK, "timeline.select-step", -1);
  bind_int (widget_class, GDK_KEY_Right, GDK_SHIFT_MASK, "timeline.select-step", 1);
  bind_int (widget_class, GDK_KEY_Page_Up, 0, "timeline.page", -1);
  bind_int (widget_class, GDK_KEY_Page_Down, 0, "timeline.page", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "timeline.zoom-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.select-scope-range", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "timeline.select-scope-range", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "timeline.select-centre", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.track-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.track-menu", NULL);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
strobe_timeline_widget_init (StrobeTimelineWidget *self)
{
  GtkEventController *ctrl;
  GtkGesture *gesture;

  self->tracks = strobe_track_list_new ();
  self->vadj = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 40, 400, 1));
  self->scheme = STROBE_TIMELINE_COLORS_BY_NAME;
  self->frame_target = 1 / 60.0;
  self->highlight = G_MAXUINT32;
  self->hide_empty = TRUE;
  self->counter_ranges = g_array_new (FALSE, TRUE, sizeof (CounterRange));
  self->log_ticks = g_hash_table_new_full (NULL, NULL, NULL, ticks_array_free);
  self->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->cancellable = g_cancellable_new ();
  self->drop_index = -1;
  strobe_trace_clock_init (&self->clock, NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_signal_connect_swapped (self->vadj, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"), -1);

  ctrl = gtk_event_controller_motion_new ();
  g_signal_connect (ctrl, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (ctrl, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), ctrl);

  ctrl = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (ctrl, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), ctrl);

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (pinch_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
strobe_timeline_widget_new (StrobeDocument *document, StrobeViewState *state)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (state), NULL);

  return g_object_new (STROBE_TYPE_TIMELINE_WIDGET, "document", document, "state", state, NULL);
}

void
strobe_timeline_widget_set_color_scheme (StrobeTimelineWidget *self, StrobeTimelineColors scheme)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  if (self->scheme == scheme)
    return;
  self->scheme = scheme;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_SCHEME]);
}

StrobeTimelineColors
strobe_timeline_widget_get_color_scheme (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), 0);
  return self->scheme;
}

void
strobe_timeline_widget_set_frame_target (StrobeTimelineWidget *self, gdouble seconds)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  seconds = CLAMP (seconds, 1e-6, 10);
  if (self->frame_target == seconds)
    return;
  self->frame_target = seconds;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRAME_TARGET]);
}

gdouble
strobe_timeline_widget_get_frame_target (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), 0);
  return self->frame_target;
}

void
strobe_timeline_widget_set_hide_empty (StrobeTimelineWidget *self, gboolean hide)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  hide = !!hide;
  if (self->hide_empty == hide)
    return;
  self->hide_empty = hide;
  relayout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDE_EMPTY]);
}

gboolean
strobe_timeline_widget_get_hide_empty (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), FALSE);
  return self->hide_empty;
}

void
strobe_timeline_widget_set_highlight (StrobeTimelineWidget *self, guint32 name_id)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  if (self->highlight == name_id)
    return;
  self->highlight = name_id;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
strobe_timeline_widget_get_pending (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), 0);
  return (self->tiles ? strobe_tile_cache_get_pending (self->tiles) : 0) + (self->log_busy ? 1 : 0);
}

guint
strobe_timeline_widget_get_incomplete (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), 0);
  return self->incomplete;
}

gsize
strobe_timeline_widget_get_cache_bytes (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), 0);
  return self->tiles ? strobe_tile_cache_get_bytes (self->tiles) : 0;
}
