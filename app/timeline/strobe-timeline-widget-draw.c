/* strobe-timeline-widget-draw.c
 *
 * The timeline's tracks: backgrounds, the tiles workers draw (the previous scale's
 * tiles stand in, stretched, while new ones come), the names of scopes and regions that
 * began left of the view, and the headers over them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-timeline-widget-private.h"

/* ---- tiles ------------------------------------------------------------------------------ */

void
strobe_timeline_widget_tile_ready (gpointer user_data)
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

  strobe_timeline_widget_fg_color (GTK_WIDGET (self), &fg);
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
  strobe_time_axis_get_clock (self->axis, &spec->clock);   /* a value: the tile is painted on a worker */
  spec->fg = (StrobeRgb) { fg.red, fg.green, fg.blue };
  spec->font = strobe_timeline_widget_small_font (self);
  if (t->kind == STROBE_TRACK_THREAD)
    {
      GArray *ticks = g_hash_table_lookup (self->log_ticks, GUINT_TO_POINTER (t->id));
      spec->log_ticks = ticks ? g_array_ref (ticks) : NULL;
    }
  spec->samples_y = -1;
  if (self->samples && t->kind == STROBE_TRACK_THREAD && (spec->samples_y = strobe_track_samples_y (t)) >= 0)
    {
      spec->samples = g_object_ref (self->samples);
      spec->system_id = (guint32) strobe_threads_model_get_system_id (self->threads, (guint16) t->id);
    }
  if (t->kind == STROBE_TRACK_COUNTER && self->counter_gaps)
    spec->gaps = g_array_ref (self->counter_gaps);
  if (self->samples && t->kind == STROBE_TRACK_CPU)
    {
      spec->samples = g_object_ref (self->samples);
      spec->value_max = self->cpu_peak;
    }
}

typedef struct
{
  GtkSnapshot    *snapshot;
  StrobeTimeScale *axis;
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
  gdouble x = strobe_time_scale_x (d->axis, t0);

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
draw_track_tiles (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeScale *axis,
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
              guint64 t0 = strobe_time_scale_time (axis, x), t1 = strobe_time_scale_time (axis, x + STROBE_TILE_SIZE);
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

void
strobe_timeline_widget_get_palette (StrobeTimelineWidget *self, Palette *p)
{
  gboolean dark = strobe_timeline_widget_is_dark (self);

  strobe_timeline_widget_fg_color (GTK_WIDGET (self), &p->fg);
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
      strobe_timeline_widget_fill_rect (snapshot, 0, y, width, STROBE_TRACK_GROUP_H, &p->line);
      text = g_strdup_printf ("%s %s", arrow, t->title);
      layout = strobe_timeline_widget_text_layout (self, text, TRUE);
      pango_layout_get_pixel_size (layout, &w, &h);
      strobe_timeline_widget_append_text (snapshot, layout, HEADER_PAD, y + (STROBE_TRACK_GROUP_H - h) / 2.0, &p->fg);
      return;
    }
  if (t->kind == STROBE_TRACK_COUNTER && self->hovering && self->hover.track >= 0
      && strobe_track_list_get (self->tracks, (guint) self->hover.track) == t)
    {
      /* The value at the pointer. */
      if (self->facts.have_hover_value && self->facts.hover_counter == (int) t->id)
        {
          g_autofree char *v = strobe_timeline_widget_format_value (self->facts.hover_value, t->counter_unit, t->counter_type);
          text = g_strdup_printf ("%s %s  %s", arrow, t->title, v);
        }
    }
  else if (t->kind == STROBE_TRACK_COUNTER && t->id < self->counter_ranges->len)
    {
      const CounterRange *r = &g_array_index (self->counter_ranges, CounterRange, t->id);
      g_autofree char *v = strobe_timeline_widget_format_value (r->max, t->counter_unit, t->counter_type);
      /* Translators: a counter track's header: its name and the top of its scale */
      text = g_strdup_printf (_("%s %s  (max %s)"), arrow, t->title, v);
    }
  else if (t->kind == STROBE_TRACK_FRAMES)
    {
      g_autofree char *target = strobe_timeline_widget_format_ticks (self, strobe_timeline_widget_frame_target_ticks (self));
      /* Translators: the frames track's header: its title and the target frame time */
      text = g_strdup_printf (_("%s %s  (target %s)"), arrow, t->title, target);
    }
  if (text == NULL)
    text = g_strdup_printf ("%s %s", arrow, t->title);
  layout = strobe_timeline_widget_text_layout (self, text, t->kind == STROBE_TRACK_THREAD);
  pango_layout_get_pixel_size (layout, &w, &h);
  /* A pill behind the name, so ticks and scopes under it do not muddle it. */
  {
    GskRoundedRect r;
    gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT (2, y + 1, w + 2 * HEADER_PAD, STROBE_TRACK_HEADER_H - 2), 4);
    gtk_snapshot_push_rounded_clip (snapshot, &r);
    strobe_timeline_widget_fill_rect (snapshot, 2, y + 1, w + 2 * HEADER_PAD, STROBE_TRACK_HEADER_H - 2, &p->header_bg);
    gtk_snapshot_pop (snapshot);
  }
  strobe_timeline_widget_append_text (snapshot, layout, 2 + HEADER_PAD, y + (STROBE_TRACK_HEADER_H - h) / 2.0, &p->fg);
}

void
strobe_timeline_widget_draw_tracks (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeScale *axis, const Palette *p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  gdouble scroll = gtk_adjustment_get_value (self->vadj);
  guint n = strobe_track_list_get_n (self->tracks);
  int shown = 0;
  StrobeTraceClock clock;

  strobe_time_axis_get_clock (self->axis, &clock);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_H, width, MAX (height - RULER_H, 0)));
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;

      if (t->height == 0)
        continue;
      shown++;
      if (y + t->height < self->shown_top || y > self->shown_bottom)
        continue;
      if (shown % 2 == 0)
        strobe_timeline_widget_fill_rect (snapshot, 0, y, width, t->height, &p->band);
      strobe_timeline_widget_fill_rect (snapshot, 0, y + t->height - 1, width, 1, &p->line);
      if (t->kind != STROBE_TRACK_GROUP)
        draw_track_tiles (self, snapshot, axis, t, y, self->shown_top, self->shown_bottom);
    }
  /* Scopes that began before the view: their names at its left edge, where the tiles do
   * not put them. */
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;
      gboolean dark = strobe_timeline_widget_is_dark (self);

      if (t->kind != STROBE_TRACK_THREAD || t->height == 0 || t->collapsed || y + t->height < self->shown_top || y > self->shown_bottom)
        continue;
      for (guint k = 0; k < self->facts.edge_scopes->len; k++)
        {
          const EdgeName *e = &g_array_index (self->facts.edge_scopes, EdgeName, k);
          const StrobeTimelineScope *sc = &e->scope;
          guint d = e->depth;
          gdouble ry = y + strobe_track_row_y (d);
          gdouble end_x, w;
          const char *name = e->name;
          StrobeRgb c, tc;
          PangoLayout *layout;
          int lh;

          if (e->track_id != t->id || d >= t->depths || ry + STROBE_TRACK_ROW_H < self->shown_top || ry > self->shown_bottom)
            continue;
          end_x = strobe_time_scale_x (axis, sc->end);
          w = MIN (end_x, width) - (end_x >= 4 ? 1 : 0);
          if (sc->begin >= axis->start || w < 24)
            continue;
          c = strobe_timeline_scope_color (self->scheme, (guint16) t->id, d, name, sc->end - sc->begin, &clock,
                                           FALSE, self->highlight != G_MAXUINT32 && self->highlight != sc->name_id, dark);
          tc = strobe_timeline_text_on (c);
          strobe_timeline_widget_fill_rect (snapshot, 0, ry, w, STROBE_TRACK_ROW_H - 1, &(GdkRGBA) { c.r, c.g, c.b, 1 });
          layout = strobe_timeline_widget_scope_layout (self, name ? name : "", (int) MAX (w - 5, 1));
          pango_layout_get_pixel_size (layout, NULL, &lh);
          strobe_timeline_widget_append_text (snapshot, layout, 3, ry + (STROBE_TRACK_ROW_H - 1 - lh) / 2.0, &(GdkRGBA) { tc.r, tc.g, tc.b, 1 });
        }
    }
  /* The same for regions. */
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;

      if (t->kind != STROBE_TRACK_REGIONS || t->height == 0 || t->collapsed || y + t->height < self->shown_top || y > self->shown_bottom)
        continue;
      for (guint k = 0; k < self->facts.edge_regions->len; k++)
        {
          const EdgeName *e = &g_array_index (self->facts.edge_regions, EdgeName, k);
          const StrobeTimelineScope *r = &e->scope;
          const char *name = e->name;
          gdouble end_x = strobe_time_scale_x (axis, r->end), w = MIN (end_x, width) - 1;
          gdouble ry = y + STROBE_TRACK_HEADER_H + e->track_id * STROBE_TRACK_LANE_H;
          StrobeRgb c = strobe_timeline_region_color (name, strobe_timeline_widget_is_dark (self)), tc = strobe_timeline_text_on (c);
          PangoLayout *layout;
          int lh;

          if (r->begin >= axis->start || w < 24)
            continue;
          strobe_timeline_widget_fill_rect (snapshot, 0, ry, w, STROBE_TRACK_LANE_H - 2, &(GdkRGBA) { c.r, c.g, c.b, 1 });
          layout = strobe_timeline_widget_scope_layout (self, name ? name : "", (int) MAX (w - 5, 1));
          pango_layout_get_pixel_size (layout, NULL, &lh);
          strobe_timeline_widget_append_text (snapshot, layout, 3, ry + (STROBE_TRACK_LANE_H - 2 - lh) / 2.0, &(GdkRGBA) { tc.r, tc.g, tc.b, 1 });
        }
    }
  /* Headers over the tiles. */
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;

      if (t->height == 0 || y + t->height < self->shown_top || y > self->shown_bottom)
        continue;
      draw_header (self, snapshot, p, t, y, width);
    }
  gtk_snapshot_pop (snapshot);
}

void
strobe_timeline_widget_clear_facts (StrobeTimelineWidget *self)
{
  FrameFacts *f = &self->facts;

  g_clear_pointer (&f->drops, g_array_unref);
  g_clear_pointer (&f->bookmarks, g_array_unref);
  g_clear_pointer (&f->bookmark_names, g_ptr_array_unref);
  g_clear_pointer (&f->edge_scopes, g_array_unref);
  g_clear_pointer (&f->edge_regions, g_array_unref);
}

/* The scope under the left edge of each row shown, and the regions there: their names go
 * at the edge, where the tiles do not put them. */
static void
gather_edges (StrobeTimelineWidget *self, const StrobeTimeScale *axis)
{
  gdouble scroll = gtk_adjustment_get_value (self->vadj);
  g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));

  for (guint i = 0; i < strobe_track_list_get_n (self->tracks); i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      gdouble y = RULER_H + t->y - scroll;

      if (t->height == 0 || t->collapsed || y + t->height < self->shown_top || y > self->shown_bottom)
        continue;
      if (t->kind == STROBE_TRACK_REGIONS && regions->len == 0)
        {
          strobe_timeline_model_get_regions (self->timeline, axis->start, axis->start, regions);
          for (guint k = 0; k < regions->len; k++)
            {
              const StrobeTimelineRegion *r = &g_array_index (regions, StrobeTimelineRegion, k);
              EdgeName e = { r->lane, 0, { r->begin, r->end, r->name_id, 0, 0 },
                             strobe_timeline_model_get_name (self->timeline, r->name_id) };
              g_array_append_val (self->facts.edge_regions, e);
            }
        }
      if (t->kind != STROBE_TRACK_THREAD)
        continue;
      for (guint d = 0; d < t->depths; d++)
        {
          gdouble ry = y + strobe_track_row_y (d);

          g_array_set_size (s, 0);
          if (ry + STROBE_TRACK_ROW_H < self->shown_top || ry > self->shown_bottom
              || strobe_timeline_model_get_scopes (self->timeline, (guint16) t->id, d, axis->start, axis->start, s) == 0)
            continue;
          {
            const StrobeTimelineScope *sc = &g_array_index (s, StrobeTimelineScope, 0);
            EdgeName e = { t->id, d, *sc, strobe_timeline_model_get_name (self->timeline, sc->name_id) };
            g_array_append_val (self->facts.edge_scopes, e);
          }
        }
    }
}

void
strobe_timeline_widget_gather_facts (StrobeTimelineWidget *self, const StrobeTimeScale *axis)
{
  FrameFacts *f = &self->facts;
  guint64 t1 = strobe_time_scale_end (axis);

  if (f->drops == NULL)
    {
      f->drops = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
      f->bookmarks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
      f->bookmark_names = g_ptr_array_new ();
      f->edge_scopes = g_array_new (FALSE, FALSE, sizeof (EdgeName));
      f->edge_regions = g_array_new (FALSE, FALSE, sizeof (EdgeName));
    }
  f->fresh = strobe_timeline_widget_read_model (self);
  if (!f->fresh)
    return;
  /* Held: none of the queries below waits for the reading thread. */
  g_array_set_size (f->drops, 0);
  g_array_set_size (f->bookmarks, 0);
  g_ptr_array_set_size (f->bookmark_names, 0);
  g_array_set_size (f->edge_scopes, 0);
  g_array_set_size (f->edge_regions, 0);
  strobe_timeline_model_get_drops (self->timeline, axis->start, t1, f->drops);
  strobe_timeline_model_get_bookmarks (self->timeline, axis->start, t1, f->bookmarks);
  for (guint i = 0; i < f->bookmarks->len; i++)
    g_ptr_array_add (f->bookmark_names, (gpointer) strobe_timeline_model_get_name (
                       self->timeline, g_array_index (f->bookmarks, StrobeTimelineBookmark, i).name_id));
  gather_edges (self, axis);
  f->hover_counter = -1;
  f->have_hover_value = FALSE;
  if (self->hovering && self->hover.track >= 0)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) self->hover.track);
      if (t && t->kind == STROBE_TRACK_COUNTER)
        {
          g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (StrobeCounterBucket));
          StrobeCounterSample before;
          guint64 at = strobe_time_scale_time (axis, self->hover_x);

          strobe_timeline_model_get_counter_series (self->timeline, t->id, at, at, 1, &before, NULL, one);
          if (one->len)
            before.value = g_array_index (one, StrobeCounterBucket, 0).last, before.time = at;
          f->hover_counter = (int) t->id;
          f->have_hover_value = before.time != G_MAXUINT64;
          f->hover_value = before.value;
        }
    }
  strobe_tile_cache_read_model (self->tiles);
  strobe_timeline_model_read_unlock (self->timeline);
}
