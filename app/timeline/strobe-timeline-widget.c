/* strobe-timeline-widget.c
 *
 * A frame is: track backgrounds, the tiles of every visible track (drawn by workers,
 * strobe-timeline-tiles.c; the previous scale's tiles stand in, stretched, while new ones
 * come), then what changes with the pointer and the view state drawn directly on top —
 * headers, bookmarks, drops, the selection, the hover and cursor lines, outlines of the
 * selected and hovered scope — and the ruler. Nothing here walks scopes for a frame: hit
 * tests and tooltips query the model around one point.
 *
 * The controller lives here: properties, following the document, the view range and the
 * tracks; the other parts are in strobe-timeline-widget-*.c (strobe-timeline-widget-private.h
 * lists them).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "strobe-timeline-widget-private.h"

G_DEFINE_FINAL_TYPE (StrobeTimelineWidget, strobe_timeline_widget, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_STATE,
  PROP_COLOR_SCHEME,
  PROP_FRAME_TARGET,
  PROP_HIDE_EMPTY,
  PROP_SELECTED_SCOPE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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
  g_autoptr(GArray) gaps = strobe_info_analyzer_dup_channel_gaps (strobe_document_get_info (self->document), "Counters");
  gboolean gaps_changed = !strobe_info_gaps_equal (self->counter_gaps, gaps);

  if (gaps_changed)
    {
      g_clear_pointer (&self->counter_gaps, g_array_unref);
      if (gaps->len > 0)
        self->counter_gaps = g_array_ref (gaps);
    }
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
      if (!r->valid || r->min != lo || r->max != hi || gaps_changed)
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
  g_autoptr(GArray) log_threads = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GArray) sampled = g_array_new (FALSE, FALSE, sizeof (guint16));
  StrobeTrackSource src = { 0 };
  GHashTableIter it;
  gpointer key;
  guint lanes = 0;

  for (guint i = 0; i < scope_threads->len; i++)
    {
      guint d = strobe_timeline_model_get_depth_count (self->timeline, g_array_index (scope_threads, guint16, i));
      g_array_append_val (depths, d);
    }
  lanes = strobe_timeline_model_get_region_lanes (self->timeline);
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
  if (self->samples)
    {
      g_autoptr(GArray) st = strobe_sample_model_get_threads (self->samples);
      StrobeTraceClock clock;

      for (guint i = 0; i < st->len; i++)
        {
          guint16 id = strobe_threads_model_find_system (self->threads, g_array_index (st, StrobeSampleThread, i).system_id);
          if (id)
            g_array_append_val (sampled, id);
        }
      strobe_time_axis_get_clock (self->axis, &clock);
      if (sampled->len && self->have_extent)
        self->cpu_peak = strobe_timeline_cpu_peak (self->samples, &clock, self->first, self->last, 1024);
    }
  src.sampled_threads = (const guint16 *) (gpointer) sampled->data;
  src.n_sampled_threads = sampled->len;

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
    strobe_timeline_widget_emit_tracks_changed (self);
  strobe_timeline_widget_relayout (self);
}

/* Samples grow on their own (a live trace with the Sampling channel on and no scopes
 * coming, or a worker's rings drained late): the timeline model's generation does not
 * see them, so the strips and the CPU track are repainted by the sample model's. */
static void
refresh_samples (StrobeTimelineWidget *self, StrobeDocumentChanges changes)
{
  guint64 generation;

  if (self->samples == NULL || (generation = strobe_sample_model_get_generation (self->samples)) == self->samples_generation)
    return;
  self->samples_generation = generation;
  /* A thread seen first by its samples gets its strip. */
  if (!(changes & (STROBE_DOCUMENT_CHANGED_TIMELINE | STROBE_DOCUMENT_CHANGED_THREADS)))
    refresh_tracks (self);
  for (guint i = 0; i < strobe_track_list_get_n (self->tracks); i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);

      if (t->kind == STROBE_TRACK_CPU || (t->kind == STROBE_TRACK_THREAD && strobe_track_samples_y (t) >= 0))
        strobe_tile_cache_invalidate_track (self->tiles, t->kind, t->id, 0);
    }
}

static void
update_locked (StrobeTimelineWidget *self, StrobeDocumentChanges changes)
{
  guint64 a, b, first, last;

  /* A file being read: what is drawn is redrawn as it grows, so only now and then — the
   * reading thread needs the cores more (a live trace is drawn as it comes). */
  if (!strobe_document_is_loaded (self->document) && !strobe_document_is_live (self->document))
    {
      gint64 now = g_get_monotonic_time ();
      if (self->loading_refresh_us && now - self->loading_refresh_us < LOADING_REFRESH_US)
        return;
      self->loading_refresh_us = now;
    }
  self->have_extent = strobe_document_get_extent (self->document, &self->first, &self->last);
  if (changes & (STROBE_DOCUMENT_CHANGED_TIMELINE | STROBE_DOCUMENT_CHANGED_THREADS))
    refresh_tracks (self);
  if (changes & STROBE_DOCUMENT_CHANGED_TIMELINE)
    strobe_tile_cache_invalidate (self->tiles);
  refresh_samples (self, changes);
  /* Log ticks of a file once it is read (formatting its messages as they come would only
   * slow the reading); of a live trace as they come. */
  if ((changes & STROBE_DOCUMENT_CHANGED_LOG)
      && (strobe_document_is_loaded (self->document) || strobe_document_is_live (self->document)))
    gather_ticks (self);

  strobe_view_state_get_visible_range (self->state, &a, &b);
  if (self->has_span)
    ;   /* a group tab's: it fits and follows for all its processes at once */
  else if (strobe_timeline_widget_get_span (self, &first, &last) && strobe_view_state_get_follow_live (self->state))
    {
      /* The newest data at the right edge, at the current zoom (the last 10 s at first). */
      guint64 len = b - a;
      if (!self->user_moved)
        len = MIN (last - first, strobe_time_axis_duration_ticks (self->axis, 10.0));
      len = MAX (len, MIN_SPAN);
      strobe_timeline_widget_set_visible_range (self, last > len ? last - len : 0, MAX (last, len));
    }
  else if (strobe_timeline_widget_get_span (self, &first, &last) && !self->user_moved)
    {
      /* The whole trace, and a little past its end, so where the data stops shows. */
      guint64 len = MAX (last - first, 1);
      strobe_timeline_widget_set_visible_range (self, first, last + MAX (len / 100, 1));
    }
  strobe_timeline_widget_update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
retry_changes (gpointer data)
{
  StrobeTimelineWidget *self = data;

  self->changes_retry = 0;
  strobe_timeline_widget_update (self, 0);
  return G_SOURCE_REMOVE;
}

void
strobe_timeline_widget_update (StrobeTimelineWidget *self, StrobeDocumentChanges changes)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  if (self->timeline == NULL)
    return;
  /* The reading thread holds the model while it adds a batch, and may be waiting for a
   * core meanwhile (it runs niced): rather than wait with it, the change is handled a
   * little later. Held, nothing below waits for it. */
  changes |= self->changes_waiting;
  if (!strobe_timeline_widget_read_model (self))
    {
      self->changes_waiting = changes;
      if (self->changes_retry == 0)
        self->changes_retry = g_timeout_add (10, retry_changes, self);
      return;
    }
  self->changes_waiting = 0;
  g_clear_handle_id (&self->changes_retry, g_source_remove);
  update_locked (self, changes);
  strobe_timeline_model_read_unlock (self->timeline);
}

/* What of the widget its viewport shows: a group tab stacks a timeline per process in one,
 * each as tall as its tracks, and a zoom's stand-in tiles — pictures made while the frame
 * is put together — of eight processes' off-screen rows took 26–39 ms of a frame. Only
 * the rows shown are drawn and their tiles asked for; the viewport's scrolling draws
 * again (outer_vadj). */
static void
update_shown (StrobeTimelineWidget *self, int height)
{
  self->shown_top = RULER_H;
  self->shown_bottom = height;
  for (GtkWidget *a = gtk_widget_get_parent (GTK_WIDGET (self)); a != NULL; a = gtk_widget_get_parent (a))
    {
      graphene_rect_t b;

      if (GTK_IS_VIEWPORT (a) && gtk_widget_compute_bounds (a, GTK_WIDGET (self), &b))
        {
          self->shown_top = MAX (self->shown_top, b.origin.y);
          self->shown_bottom = MIN (self->shown_bottom, b.origin.y + b.size.height);
        }
    }
}

static void
outer_scrolled_cb (StrobeTimelineWidget *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
strobe_timeline_widget_map (GtkWidget *widget)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  GtkWidget *viewport = gtk_widget_get_ancestor (widget, GTK_TYPE_VIEWPORT);

  GTK_WIDGET_CLASS (strobe_timeline_widget_parent_class)->map (widget);
  if (viewport != NULL && gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (viewport)) != NULL)
    {
      /* Scrolled or resized (its page size), the viewport moves this widget without
       * drawing it again: the rows shown change. */
      self->outer_vadj = g_object_ref (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (viewport)));
      g_signal_connect_object (self->outer_vadj, "value-changed", G_CALLBACK (outer_scrolled_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->outer_vadj, "changed", G_CALLBACK (outer_scrolled_cb), self, G_CONNECT_SWAPPED);
    }
}

static void
forget_outer (StrobeTimelineWidget *self)
{
  if (self->outer_vadj != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->outer_vadj, self);
      g_clear_object (&self->outer_vadj);
    }
}

static void
strobe_timeline_widget_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  StrobeTileEpoch epoch = { 0 };
  StrobeTimeScale axis;
  Palette p;

  if (width <= 0 || height <= 0 || self->timeline == NULL)
    return;
  strobe_timeline_widget_get_palette (self, &p);
  strobe_timeline_widget_get_axis (self, &axis);
  epoch.scale = axis.scale;
  epoch.origin = self->first;
  epoch.scale_factor = gtk_widget_get_scale_factor (widget);
  epoch.scheme = self->scheme;
  epoch.highlight = self->highlight;
  epoch.frame_target = strobe_timeline_widget_frame_target_ticks (self);
  epoch.dark = strobe_timeline_widget_is_dark (self);
  /* GL keeps textures on the GPU: texture nodes. The cairo renderer draws cairo nodes
   * without a copy. */
  {
    GtkNative *native = gtk_widget_get_native (widget);
    GskRenderer *renderer = native ? gtk_native_get_renderer (native) : NULL;
    epoch.textures = self->textures = renderer != NULL && !GSK_IS_CAIRO_RENDERER (renderer);
  }
  strobe_tile_cache_set_epoch (self->tiles, &epoch);

  update_shown (self, height);
  strobe_timeline_widget_gather_facts (self, &axis);
  strobe_timeline_widget_fill_rect (snapshot, 0, 0, width, height, &p.bg);
  self->incomplete = 0;
  strobe_timeline_widget_draw_tracks (self, snapshot, &axis, &p);
  strobe_timeline_widget_draw_overlays (self, snapshot, &axis, &p);
  strobe_timeline_widget_draw_ruler (self, snapshot, &axis, &p);
  if (gtk_widget_has_visible_focus (widget))
    {
      graphene_rect_t r = GRAPHENE_RECT_INIT (1, 1, width - 2, height - 2);
      strobe_timeline_widget_draw_outline (snapshot, &r, 1, &p.accent);
    }
  strobe_tile_cache_frame_done (self->tiles);
}

static void
state_changed_cb (StrobeTimelineWidget *self)
{
  strobe_timeline_widget_update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- object ---------------------------------------------------------------------------- */

/* Off screen (another page, a closed window), no tile drawn now would be seen: workers stop
 * at once instead of drawing what was queued, and the next frame asks again. */
static void
strobe_timeline_widget_unmap (GtkWidget *widget)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);

  if (self->tiles)
    strobe_tile_cache_cancel (self->tiles);
  forget_outer (self);
  GTK_WIDGET_CLASS (strobe_timeline_widget_parent_class)->unmap (widget);
}

static void
strobe_timeline_widget_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);

  strobe_timeline_widget_relayout (self);
  if (self->menu)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

static void
strobe_timeline_widget_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *min, int *nat,
                                int *min_baseline, int *nat_baseline)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);

  *min = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : RULER_H + 60;
  *nat = orientation == GTK_ORIENTATION_HORIZONTAL ? 800 : 500;
  /* One process of a group tab is as tall as the tab makes it (its tracks), no taller. */
  if (self->has_span && orientation == GTK_ORIENTATION_VERTICAL)
    *nat = *min;
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
  self->axis = strobe_time_axis_new (self->document, self->state);
  self->threads = g_object_ref (strobe_document_get_threads (self->document));
  /* Named before loading, so the document feeds it (issue 22: the strip, the CPU track). */
  self->samples = strobe_document_get_model (self->document, STROBE_TYPE_SAMPLE_MODEL);
  if (self->samples)
    g_object_ref (self->samples);
  self->cpu_peak = 1.0;
  if (strobe_document_get_timeline (self->document))
    self->timeline = g_object_ref (strobe_document_get_timeline (self->document));
  if (strobe_document_get_log (self->document))
    self->log = g_object_ref (strobe_document_get_log (self->document));
  if (self->timeline)
    self->tiles = strobe_tile_cache_new (self->timeline, strobe_timeline_widget_tile_ready, self);
  /* The visible range, the selection and the cursor through the axis, as every chart. */
  g_signal_connect_object (self->axis, "range-changed", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->axis, "marks-changed", G_CALLBACK (state_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::hover", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  strobe_timeline_widget_update (self, STROBE_DOCUMENT_MODEL_ALL | STROBE_DOCUMENT_CHANGED_EXTENT);
}

static void
strobe_timeline_widget_dispose (GObject *object)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->changes_retry, g_source_remove);
  forget_outer (self);
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
  g_clear_object (&self->axis);
  g_clear_object (&self->timeline);
  g_clear_object (&self->threads);
  g_clear_object (&self->samples);
  g_clear_object (&self->log);
  g_clear_object (&self->vadj);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->tracks, strobe_track_list_free);
  g_clear_pointer (&self->counter_ranges, g_array_unref);
  g_clear_pointer (&self->counter_gaps, g_array_unref);
  g_clear_pointer (&self->log_ticks, g_hash_table_unref);
  g_clear_pointer (&self->layouts, g_hash_table_unref);
  strobe_timeline_widget_clear_facts (self);
  g_free (self->program);
  g_clear_pointer (&self->selected_scope, strobe_scope_ref_free);
  g_free (self->description);
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
    case PROP_SELECTED_SCOPE: g_value_set_boxed (value, self->selected_scope); break;
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
    case PROP_SELECTED_SCOPE: strobe_timeline_widget_set_selected_scope (self, g_value_get_boxed (value)); break;
    default:                G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
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
  widget_class->map = strobe_timeline_widget_map;
  widget_class->unmap = strobe_timeline_widget_unmap;
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
  /* The selected scope: the timeline page's own (its details and the timers follow it). */
  properties[PROP_SELECTED_SCOPE] = g_param_spec_boxed ("selected-scope", NULL, NULL, STROBE_TYPE_SCOPE_REF, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  strobe_timeline_widget_class_init_tracks (object_class);

  strobe_timeline_widget_class_init_actions (widget_class);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
strobe_timeline_widget_init (StrobeTimelineWidget *self)
{

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

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect_swapped (self->vadj, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"), -1);

  strobe_timeline_widget_init_input (self);
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
  strobe_timeline_widget_relayout (self);
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

void
strobe_timeline_widget_get_tile_counts (StrobeTimelineWidget *self, StrobeTileCounts *counts)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self) && counts != NULL);
  if (self->tiles)
    strobe_tile_cache_get_counts (self->tiles, counts);
  else
    *counts = (StrobeTileCounts) { 0 };
}

const StrobeScopeRef *
strobe_timeline_widget_get_selected_scope (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), NULL);
  return self->selected_scope;
}

