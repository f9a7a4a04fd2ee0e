/* strobe-timers-panel.c
 *
 * Each computation is a GTask on a worker with its own GCancellable; a new range cancels
 * the one running, and a result that comes back for an old range is dropped. A result
 * reaches the table in slices, one per frame (see "feeding"): rows of names already shown
 * updated in place, gone ones removed, new ones added best first; the chosen timer stays
 * chosen by name. The call tree (for callers, callees and the flame graph) is only
 * computed when one of those is asked for.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>

#include "strobe-timeline-background.h"
#include "strobe-timers-calls.h"

#include "strobe-call-tree.h"
#include "strobe-callers-panel.h"
#include "strobe-flame-graph.h"
#include "strobe-format.h"
#include "strobe-panes.h"
#include "strobe-scope-search.h"
#include "strobe-table.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-painter.h"
#include "strobe-timer-row.h"
#include "strobe-timers-panel.h"

/* While a trace grows, statistics are redone at most this often. */
#define REFRESH_US (1000 * 1000)

struct _StrobeTimersPanel
{
  GtkWidget            parent_instance;

  StrobeDocument      *document;
  StrobeViewState     *state;
  StrobeTimelineModel *timeline;
  StrobeTimeAxis      *axis;          /* the clock, asked of the document each time */

  GtkWidget           *range_label;
  GtkWidget           *reading_note;   /* over the empty table while a file is read */
  GtkWidget           *spinner;
  GtkWidget           *filter_entry;
  GtkWidget           *table;
  GtkWidget           *links_stack;
  StrobeCallersPanel  *links;
  GtkWidget           *flame;
  GtkStringFilter     *filter;
  GtkSingleSelection  *selection;
  GListStore          *rows;

  guint64              t0;
  guint64              t1;
  gboolean             have_range;
  GCancellable        *stats_cancel;
  StrobeTimersCalls   *calls;                  /* the callers and callees, the flame graph's tree */
  GCancellable        *find_cancel;
  guint64              stats_generation;
  gint64               last_run_us;
  guint                refresh_source;
  guint32              chosen;
  gboolean             setting_rows;
  /* A result on its way into the table (see "feeding"). */
  GArray              *updates;        /* RowUpdate: rows shown whose figures changed */
  GPtrArray           *removals;       /* rows whose names are not in the range any more */
  GPtrArray           *incoming;       /* new rows, best first by the table's sort */
  guint                next_update, next_incoming;
  gboolean             resort;         /* figures changed: sort again once they are in */
  guint                feed_tick;      /* a tick callback while the panel is mapped */
  guint                feed_idle;      /* else an idle */
  guint64              widest_count;   /* the count column fits it */
  GtkWidget           *paned;          /* the table above, callers or the flame graph below */
  int                  table_position; /* the paned's position before the flame graph took room */
};

/* A result goes into the table a slice per frame: a new row costs GTK 4.8's column view
 * half a millisecond of widgets on the main thread, and an updated one its ten cells'
 * text, laid out and drawn in the next frame — all 400 timers of a trace at once held
 * the main thread 15–50 ms. A slice stops before FEED_BUDGET_US, or after FEED_MAX_ROWS
 * rows when rows are cheap (beyond the 200 that have widgets), so that it and the frame
 * laying its rows out stay within the main thread's 4 ms. */
#define FEED_BUDGET_US 1500
#define FEED_MAX_ROWS  48

typedef struct
{
  StrobeTimerRow  *row;
  StrobeTimerStat  stat;       /* its name not owned: the row keeps its own */
  gdouble          share;
} RowUpdate;

G_DEFINE_FINAL_TYPE (StrobeTimersPanel, strobe_timers_panel, GTK_TYPE_WIDGET)

enum
{
  TIMER_CHOSEN,
  SHOW_SCOPE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

#define STAT(item) strobe_timer_row_get_stat (STROBE_TIMER_ROW (item))

/* ---- columns ---------------------------------------------------------------------------- */

static char *
ticks_text (gpointer item, guint64 ticks)
{
  return strobe_timer_row_format_ticks (STROBE_TIMER_ROW (item), ticks);
}

static char *c_name (gpointer i) { return g_strdup (STAT (i)->name); }
static char *c_count (gpointer i) { return strobe_format_count (STAT (i)->count); }
static char *c_incl (gpointer i) { return ticks_text (i, STAT (i)->inclusive); }
static char *c_min (gpointer i) { return ticks_text (i, STAT (i)->min); }
static char *c_max (gpointer i) { return ticks_text (i, STAT (i)->max); }
static char *c_mean (gpointer i) { return ticks_text (i, (guint64) STAT (i)->mean); }
static char *c_median (gpointer i) { return ticks_text (i, (guint64) STAT (i)->median); }
static char *c_excl (gpointer i) { return ticks_text (i, STAT (i)->exclusive); }
static char *c_excl_mean (gpointer i) { return ticks_text (i, STAT (i)->count ? STAT (i)->exclusive / STAT (i)->count : 0); }
static char *c_share (gpointer i) { return g_strdup_printf ("%.1f %%", 100.0 * strobe_timer_row_get_share (STROBE_TIMER_ROW (i))); }
static int k_name (gpointer a, gpointer b) { return strobe_table_compare_str (STAT (a)->name, STAT (b)->name); }
static int k_count (gpointer a, gpointer b) { return strobe_table_compare_u64 (STAT (a)->count, STAT (b)->count); }
static int k_incl (gpointer a, gpointer b) { return strobe_table_compare_u64 (STAT (a)->inclusive, STAT (b)->inclusive); }
static int k_min (gpointer a, gpointer b) { return strobe_table_compare_u64 (STAT (a)->min, STAT (b)->min); }
static int k_max (gpointer a, gpointer b) { return strobe_table_compare_u64 (STAT (a)->max, STAT (b)->max); }
static int k_mean (gpointer a, gpointer b) { return (STAT (a)->mean > STAT (b)->mean) - (STAT (a)->mean < STAT (b)->mean); }
static int k_median (gpointer a, gpointer b) { return (STAT (a)->median > STAT (b)->median) - (STAT (a)->median < STAT (b)->median); }
static int k_excl (gpointer a, gpointer b) { return strobe_table_compare_u64 (STAT (a)->exclusive, STAT (b)->exclusive); }
static int k_excl_mean (gpointer a, gpointer b)
{
  return strobe_table_compare_u64 (STAT (a)->count ? STAT (a)->exclusive / STAT (a)->count : 0,
                                   STAT (b)->count ? STAT (b)->exclusive / STAT (b)->count : 0);
}
static int k_share (gpointer a, gpointer b)
{
  gdouble x = strobe_timer_row_get_share (STROBE_TIMER_ROW (a)), y = strobe_timer_row_get_share (STROBE_TIMER_ROW (b));
  return (x > y) - (x < y);
}

static const StrobeTableColumn timer_columns[] = {
  { N_("Name"), c_name, k_name, 16, FALSE, TRUE },
  { N_("Count"), c_count, k_count, 10, TRUE, FALSE },   /* "10 000 000" */
  { N_("Inclusive"), c_incl, k_incl, 9, TRUE, FALSE },
  { N_("Min"), c_min, k_min, 8, TRUE, FALSE },
  { N_("Max"), c_max, k_max, 8, TRUE, FALSE },
  { N_("Mean"), c_mean, k_mean, 8, TRUE, FALSE },
  { N_("Median"), c_median, k_median, 8, TRUE, FALSE },
  { N_("Exclusive"), c_excl, k_excl, 9, TRUE, FALSE },
  { N_("Excl. Mean"), c_excl_mean, k_excl_mean, 8, TRUE, FALSE },
  { N_("Share"), c_share, k_share, 6, TRUE, FALSE },
};

static const StrobeTableColumn link_columns[] = {
  { N_("Name"), c_name, k_name, 18, FALSE, TRUE },
  { N_("Count"), c_count, k_count, 8, TRUE, FALSE },
  { N_("Inclusive"), c_incl, k_incl, 9, TRUE, FALSE },
};

/* ---- column widths ---------------------------------------------------------------------- */

static GtkColumnViewColumn *
table_column (StrobeTimersPanel *self, guint i)
{
  g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->table)), i);
  return c;   /* the column view keeps it */
}

static int
text_width (GtkWidget *widget, const char * const *texts)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  int widest = 0;

  for (; *texts; texts++)
    {
      int w;
      pango_layout_set_text (layout, *texts, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w);
    }
  return widest;
}

/* Column @i as wide as @content_w of figures, or its title with the sort arrow. */
static void
fit_column (StrobeTimersPanel *self, guint i, int content_w)
{
  GtkColumnViewColumn *c = table_column (self, i);
  const char *title[] = { gtk_column_view_column_get_title (c), NULL };
  /* Cell padding, and the header's room for the sort arrow. */
  int w = MAX (content_w + 16, text_width (self->table, title) + 30);

  if (gtk_column_view_column_get_fixed_width (c) != w)
    gtk_column_view_column_set_fixed_width (c, w);
}

/* The count column grows to the largest count shown ("10 000 000" was cut to "10 000 0…"). */
static void
fit_count_column (StrobeTimersPanel *self, guint64 count)
{
  g_autofree char *text = NULL;
  const char *texts[2] = { NULL, NULL };

  if (count <= self->widest_count)
    return;
  self->widest_count = count;
  /* Every digit an 8, the widest in most fonts. */
  text = strobe_format_count (count);
  for (char *c = text; *c; c++)
    if (g_ascii_isdigit (*c))
      *c = '8';
  texts[0] = text;
  fit_column (self, 1, text_width (self->table, texts));
}

static void update_reading_note (StrobeTimersPanel *self);

static void
rows_changed_cb (StrobeTimersPanel *self, guint position, guint removed, guint added)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  /* Only when the table turns empty or stops being so: rows come one by one as it fills. */
  if ((n == 0) != (n + removed - added == 0))
    update_reading_note (self);
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(StrobeTimerRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), i);
      fit_count_column (self, strobe_timer_row_get_stat (row)->count);
    }
}

/* ---- range ------------------------------------------------------------------------------- */

static void
current_range (StrobeTimersPanel *self, guint64 *t0, guint64 *t1)
{
  if (!strobe_view_state_get_selection (self->state, t0, t1))
    {
      *t0 = 0;
      *t1 = G_MAXUINT64;
    }
}

static char *
duration_text (StrobeTimersPanel *self, guint64 ticks)
{
  StrobeTraceClock clock;

  strobe_time_axis_get_clock (self->axis, &clock);
  return strobe_format_ticks (&clock, ticks);
}

/* A big file is read for a minute or more, and the whole trace's timers come only then:
 * an empty table said nothing of why, of how far, nor that a range is computed at once. */
static void
update_reading_note (StrobeTimersPanel *self)
{
  gboolean show = self->document != NULL && self->state != NULL && !strobe_document_is_loaded (self->document)
                  && !strobe_document_is_live (self->document)
                  && !strobe_view_state_get_selection (self->state, NULL, NULL)
                  && g_list_model_get_n_items (G_LIST_MODEL (self->rows)) == 0;

  if (show)
    {
      /* In steps of 5 %: a label's new text has GTK measure the whole window again. */
      g_autofree char *text =
        /* Translators: over the empty timers table while a trace file is read */
        g_strdup_printf (_("The whole trace’s timers come once it is read (%.0f %% so far). Select a range on "
                           "the timeline to see its timers now."),
                         5 * floor (20.0 * strobe_document_get_progress (self->document)));

      if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (self->reading_note)), text) != 0)
        gtk_label_set_text (GTK_LABEL (self->reading_note), text);
    }
  gtk_widget_set_visible (self->reading_note, show);
}

static void
update_range_label (StrobeTimersPanel *self)
{
  guint64 t0, t1;
  g_autofree char *text = NULL;

  if (strobe_view_state_get_selection (self->state, &t0, &t1))
    {
      g_autofree char *d = duration_text (self, t1 - t0);
      /* Translators: what the timers table covers: the selected time range's length */
      text = g_strdup_printf (_("Selection (%s)"), d);
    }
  else if (!strobe_document_is_loaded (self->document) && !strobe_document_is_live (self->document))
    /* Translators: the timers panel while a file is read: the whole trace's timers come
     * once all of it is (a range selected meanwhile is computed at once) */
    text = g_strdup (_("Whole trace, once read"));
  else
    text = g_strdup (_("Whole trace"));
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (self->range_label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (self->range_label), text);
  update_reading_note (self);
}

/* ---- statistics ------------------------------------------------------------------------- */

typedef struct
{
  StrobeTimelineModel *model;
  guint64              t0, t1;
  guint64              generation;
} StatsJob;

static void
stats_job_free (gpointer data)
{
  StatsJob *j = data;

  g_object_unref (j->model);
  g_free (j);
}

static void
stats_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  StatsJob *j = data;
  GError *error = NULL;
  GArray *stats = strobe_timer_stats_compute_full (j->model, j->t0, j->t1, STROBE_TIMER_STATS_ALL_THREADS,
                                                   cancellable, &error);

  /* No malloc_trim() after it (when the medians took 8 bytes a scope, before the
   * summaries, it gave them back): it trims the main thread's heap too, and the next frame's
   * 5 MB image faulted all its pages in again — 1 300 faults, 16–33 ms a frame under a
   * hypervisor, every time the timers were counted while a trace loads. */
  if (stats == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, stats, (GDestroyNotify) g_array_unref);
}

static guint
find_row (GListModel *model, guint32 name_id)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      if (STAT (item)->name_id == name_id)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void compute_calls (StrobeTimersPanel *self);

/* ---- feeding: a result into the table, a slice per frame ----------------------------- */

static void
row_update_clear (gpointer data)
{
  g_clear_object (&((RowUpdate *) data)->row);
}

static void
feed_clear (StrobeTimersPanel *self)
{
  if (self->feed_tick)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->feed_tick);
  self->feed_tick = 0;
  g_clear_handle_id (&self->feed_idle, g_source_remove);
  g_clear_pointer (&self->updates, g_array_unref);
  g_clear_pointer (&self->removals, g_ptr_array_unref);
  g_clear_pointer (&self->incoming, g_ptr_array_unref);
  self->next_update = self->next_incoming = 0;
  self->resort = FALSE;
}

static gboolean
feeding (StrobeTimersPanel *self)
{
  return self->updates != NULL || self->removals != NULL || self->incoming != NULL;
}

/* One slice: updates (in the order shown, so what is on screen is right first), then
 * removals, one re-sort, then new rows. Returns whether more remains. */
static gboolean
feed_slice (StrobeTimersPanel *self)
{
  gint64 start = g_get_monotonic_time (), deadline = start + FEED_BUDGET_US, now = start, last_cost = 0;
  guint done = 0;
  GtkSorter *sorter = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->table));

  self->setting_rows = TRUE;
  /* Another step only if one more as costly as the last still fits. */
  while (done < FEED_MAX_ROWS && (done == 0 || now + last_cost <= deadline))
    {
      if (self->updates && self->next_update < self->updates->len)
        {
          RowUpdate *u = &g_array_index (self->updates, RowUpdate, self->next_update++);
          /* A row whose figures are the same costs nothing: not counted. */
          if (!strobe_timer_row_update (u->row, &u->stat, u->share))
            continue;
          self->resort = TRUE;
        }
      else if (self->removals && self->removals->len > 0)
        {
          guint pos;
          StrobeTimerRow *row = g_ptr_array_index (self->removals, self->removals->len - 1);
          if (g_list_store_find (self->rows, row, &pos))
            g_list_store_remove (self->rows, pos);
          g_ptr_array_remove_index (self->removals, self->removals->len - 1);
        }
      else if (self->resort)
        {
          /* Once, with every figure in: the sort reuses the rows' widgets. */
          self->resort = FALSE;
          if (sorter)
            gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
        }
      else if (self->incoming && self->next_incoming < self->incoming->len)
        {
          /* Appended one by one: the sort places each, and the best are shown first. */
          gpointer row = g_ptr_array_index (self->incoming, self->next_incoming++);
          g_list_store_append (self->rows, row);
        }
      else
        break;
      done++;
      last_cost = g_get_monotonic_time () - now;
      now += last_cost;
    }
  if ((self->updates == NULL || self->next_update >= self->updates->len) && (self->removals == NULL || self->removals->len == 0)
      && !self->resort && (self->incoming == NULL || self->next_incoming >= self->incoming->len))
    {
      g_clear_pointer (&self->updates, g_array_unref);
      g_clear_pointer (&self->removals, g_ptr_array_unref);
      g_clear_pointer (&self->incoming, g_ptr_array_unref);
      gtk_single_selection_set_selected (self->selection, self->chosen != G_MAXUINT32
                                                          ? find_row (G_LIST_MODEL (self->selection), self->chosen)
                                                          : GTK_INVALID_LIST_POSITION);
    }
  self->setting_rows = FALSE;
  return feeding (self);
}

static void feed_schedule (StrobeTimersPanel *self);

static gboolean
feed_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  StrobeTimersPanel *self = STROBE_TIMERS_PANEL (widget);

  self->feed_tick = 0;
  if (feed_slice (self))
    feed_schedule (self);
  return G_SOURCE_REMOVE;
}

static gboolean
feed_idle_cb (gpointer data)
{
  StrobeTimersPanel *self = data;

  self->feed_idle = 0;
  if (feed_slice (self))
    feed_schedule (self);
  return G_SOURCE_REMOVE;
}

/* Mapped, a slice a frame (the frame clock's tick); unmapped there are no frames, and
 * nothing is drawn: a slice an idle. */
static void
feed_schedule (StrobeTimersPanel *self)
{
  if (self->feed_tick || self->feed_idle)
    return;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->feed_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), feed_tick_cb, NULL, NULL);
  else
    self->feed_idle = g_idle_add (feed_idle_cb, self);
}

/* A tick callback waits for frames that an unmapped widget does not get. */
static void
feed_unmap_cb (StrobeTimersPanel *self)
{
  if (self->feed_tick)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->feed_tick);
      self->feed_tick = 0;
      feed_schedule (self);
    }
}

static int
incoming_order (gconstpointer a, gconstpointer b, gpointer sorter)
{
  return gtk_sorter_compare (sorter, *(gpointer *) a, *(gpointer *) b);
}

/* Updates in the order the table shows its rows. */
static int
update_order (gconstpointer a, gconstpointer b, gpointer positions)
{
  guint x = GPOINTER_TO_UINT (g_hash_table_lookup (positions, ((const RowUpdate *) a)->row));
  guint y = GPOINTER_TO_UINT (g_hash_table_lookup (positions, ((const RowUpdate *) b)->row));

  return (x > y) - (x < y);
}

/* @stats (of the current range) into the table: what changed is queued, and the first
 * slice goes in now. */
static void
feed_start (StrobeTimersPanel *self, GArray *stats)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) kept = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) positions = g_hash_table_new (NULL, NULL);
  GListModel *model = G_LIST_MODEL (self->rows), *shown = G_LIST_MODEL (self->selection);
  GtkSorter *sorter = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->table));
  guint64 total = 0;

  feed_clear (self);
  for (guint i = 0; i < stats->len; i++)
    total += g_array_index (stats, StrobeTimerStat, i).exclusive;
  for (guint i = 0, n = g_list_model_get_n_items (model); i < n; i++)
    {
      g_autoptr(StrobeTimerRow) row = g_list_model_get_item (model, i);
      g_hash_table_insert (by_name, GUINT_TO_POINTER (strobe_timer_row_get_stat (row)->name_id), row);
    }
  for (guint i = 0, n = g_list_model_get_n_items (shown); i < n; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (shown, i);
      g_hash_table_insert (positions, row, GUINT_TO_POINTER (i + 1));
    }
  self->updates = g_array_new (FALSE, FALSE, sizeof (RowUpdate));
  g_array_set_clear_func (self->updates, row_update_clear);
  self->incoming = g_ptr_array_new_with_free_func (g_object_unref);
  self->removals = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < stats->len; i++)
    {
      const StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
      gdouble share = total ? (gdouble) s->exclusive / total : 0;
      StrobeTimerRow *row = g_hash_table_lookup (by_name, GUINT_TO_POINTER (s->name_id));

      fit_count_column (self, s->count);
      if (row)
        {
          RowUpdate u = { g_object_ref (row), *s, share };
          u.stat.name = NULL;
          g_array_append_val (self->updates, u);
          g_hash_table_add (kept, GUINT_TO_POINTER (s->name_id));
        }
      else
        g_ptr_array_add (self->incoming, strobe_timer_row_new (s, share, self->axis));
    }
  for (guint i = 0, n = g_list_model_get_n_items (model); i < n; i++)
    {
      g_autoptr(StrobeTimerRow) row = g_list_model_get_item (model, i);
      if (!g_hash_table_contains (kept, GUINT_TO_POINTER (strobe_timer_row_get_stat (row)->name_id)))
        g_ptr_array_add (self->removals, g_object_ref (row));
    }
  /* Rows the filter hides (position 0) come last. */
  for (guint i = 0; i < self->updates->len; i++)
    {
      RowUpdate *u = &g_array_index (self->updates, RowUpdate, i);
      if (!g_hash_table_contains (positions, u->row))
        g_hash_table_insert (positions, u->row, GUINT_TO_POINTER (G_MAXUINT));
    }
  g_array_sort_with_data (self->updates, update_order, positions);
  if (sorter)
    g_ptr_array_sort_with_data (self->incoming, incoming_order, sorter);
  if (feed_slice (self))
    feed_schedule (self);
}

static void
stats_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(StrobeTimersPanel) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) stats = g_task_propagate_pointer (G_TASK (result), &error);
  StatsJob *j = g_task_get_task_data (G_TASK (result));

  if (stats == NULL)
    return;
  g_clear_object (&self->stats_cancel);
  gtk_spinner_stop (GTK_SPINNER (self->spinner));
  self->stats_generation = j->generation;
  /* Rows of names already shown are updated in place: GTK 4.8's column view keeps up to
   * 200 rows of widgets, and making them anew for a new set of rows costs the main thread
   * a tenth of a second; updated ones only redraw their text, and a re-sort reuses them. */
  feed_start (self, stats);
  compute_calls (self);
}

static void
compute_stats (StrobeTimersPanel *self)
{
  g_autoptr(GTask) task = NULL;
  StatsJob *j;

  if (self->timeline == NULL)
    return;
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  if (self->stats_cancel)
    g_cancellable_cancel (self->stats_cancel);
  g_clear_object (&self->stats_cancel);
  self->stats_cancel = g_cancellable_new ();
  current_range (self, &self->t0, &self->t1);
  self->have_range = TRUE;
  j = g_new0 (StatsJob, 1);
  j->model = g_object_ref (self->timeline);
  j->t0 = self->t0;
  j->t1 = self->t1;
  j->generation = strobe_timeline_model_get_generation (self->timeline);
  self->last_run_us = g_get_monotonic_time ();
  gtk_spinner_start (GTK_SPINNER (self->spinner));
  update_range_label (self);
  task = g_task_new (NULL, self->stats_cancel, stats_done, g_object_ref (self));
  g_task_set_task_data (task, j, stats_job_free);
  strobe_background_run (task, stats_thread);
}

static gboolean
refresh_cb (gpointer data)
{
  StrobeTimersPanel *self = data;

  self->refresh_source = 0;
  compute_stats (self);
  return G_SOURCE_REMOVE;
}

void
strobe_timers_panel_update (StrobeTimersPanel *self, StrobeDocumentChanges changes)
{
  gint64 now, wait;

  g_return_if_fail (STROBE_IS_TIMERS_PANEL (self));

  if (!(changes & STROBE_DOCUMENT_CHANGED_TIMELINE) || self->timeline == NULL)
    return;
  /* A file: once it is read (what is computed while it loads is soon out of date). A live
   * trace: at most once a second while it grows; at once when it is done. Asked first: the
   * model's generation waits for the reading thread's batch. */
  if (!strobe_document_is_loaded (self->document) && !strobe_document_is_live (self->document))
    {
      update_range_label (self);
      return;
    }
  if (self->have_range && strobe_timeline_model_get_generation (self->timeline) == self->stats_generation
      && self->stats_cancel == NULL)
    return;
  now = g_get_monotonic_time ();
  wait = self->last_run_us + REFRESH_US - now;
  if (strobe_document_is_loaded (self->document))
    wait = 0;
  if (wait <= 0)
    compute_stats (self);
  else if (self->refresh_source == 0)
    self->refresh_source = g_timeout_add ((guint) (wait / 1000) + 1, refresh_cb, self);
}

static void
selection_changed_cb (StrobeTimersPanel *self)
{
  guint64 t0, t1;

  current_range (self, &t0, &t1);
  if (self->have_range && t0 == self->t0 && t1 == self->t1)
    return;
  compute_stats (self);
}

/* ---- callers and callees ---------------------------------------------------------------- */

static gboolean
links_waited (StrobeTimersPanel *self)
{
  return strobe_timers_calls_is_waited (self->calls, STROBE_TIMERS_CALLS_LINKS, self->chosen, self->t0, self->t1);
}

static gboolean
tree_waited (StrobeTimersPanel *self)
{
  return strobe_timers_calls_is_waited (self->calls, STROBE_TIMERS_CALLS_TREE, 0, self->t0, self->t1);
}

static char *
waiting_heading (StrobeTimersPanel *self)
{
  const char *name = strobe_timeline_model_get_name (self->timeline, self->chosen);

  /* Translators: %s is a scope name; shown while its callers and callees in a long range are found */
  return g_strdup_printf (_("Finding the callers and callees of “%s”…"), name ? name : "");
}

/* The callers' progress bar: how far, while they are being found and it has run a while. */
static void
update_links_progress (StrobeTimersPanel *self)
{
  gint percent = links_waited (self) ? strobe_timers_calls_get_percent (self->calls, STROBE_TIMERS_CALLS_LINKS) : -1;

  strobe_callers_panel_set_progress (self->links, percent >= 0 ? percent / 100.0 : -1);
}

static char *
building_text (StrobeTimersPanel *self)
{
  gint percent = strobe_timers_calls_get_percent (self->calls, STROBE_TIMERS_CALLS_TREE);

  if (percent >= 0)
    /* Translators: %d is how far the call tree of a long range is built; shown while it is */
    return g_strdup_printf (_("Building the call tree of this range… %d %%"), percent);
  return g_strdup (_("Building the call tree of this range…"));
}

static void
update_links (StrobeTimersPanel *self)
{
  g_autoptr(GPtrArray) callers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) callees = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *heading = NULL;
  guint32 of = G_MAXUINT32;
  GArray *a = strobe_timers_calls_get_callers (self->calls, &of);

  if (a != NULL && of == self->chosen && self->chosen != G_MAXUINT32 && !links_waited (self))
    {
      GArray *b = strobe_timers_calls_get_callees (self->calls);

      for (guint k = 0; k < 2; k++)
        {
          GArray *links = k ? b : a;
          for (guint i = 0; i < links->len; i++)
            {
              const StrobeCallLink *l = &g_array_index (links, StrobeCallLink, i);
              StrobeTimerStat s = { 0 };
              s.name_id = l->name_id;
              s.name = l->name_id == STROBE_CALL_NONE ? (char *) _("(none: outermost)")
                                                      : (char *) strobe_timeline_model_get_name (self->timeline, l->name_id);
              s.count = l->count;
              s.inclusive = l->inclusive;
              g_ptr_array_add (k ? callees : callers, strobe_timer_row_new (&s, 0, self->axis));
            }
        }
    }
  if (self->chosen == G_MAXUINT32)
    heading = g_strdup (_("Choose a timer to see its callers and callees."));
  else if (links_waited (self))
    heading = waiting_heading (self);
  else
    {
      const char *name = strobe_timeline_model_get_name (self->timeline, self->chosen);
      /* Translators: %s is a scope name */
      heading = g_strdup_printf (_("Callers and callees of “%s”"), name ? name : "");
    }
  strobe_callers_panel_set_calls (self->links, heading, callers, callees);
  update_links_progress (self);
}

/* ---- the flame graph's nodes: the call tree's, keyed by name id -------------------------- */

static char *
flame_name (StrobeCostTree *tree, guint node, gpointer data)
{
  StrobeTimersPanel *self = data;
  guint64 key = strobe_cost_tree_get_key (tree, node);

  if (key == STROBE_CALL_NONE)
    return g_strdup (_("All"));
  if (key == STROBE_CALL_OTHER)
    /* Translators: a flame graph node holding the calls of paths past the most it keeps */
    return g_strdup (_("(other call paths)"));
  return g_strdup (self->timeline ? strobe_timeline_model_get_name (self->timeline, (guint32) key) : NULL);
}

static char *
flame_describe (StrobeCostTree *tree, guint node, gpointer data)
{
  StrobeTimersPanel *self = data;
  StrobeCallNode n, root;
  g_autofree char *name = flame_name (tree, node, data);
  g_autofree char *incl = NULL, *excl = NULL;

  strobe_call_tree_get_node (tree, node, &n);
  strobe_call_tree_get_node (tree, 0, &root);
  incl = duration_text (self, n.inclusive);
  excl = duration_text (self, n.exclusive);
  /* Translators: a flame graph node: name, inclusive time and its share, exclusive time, count */
  return g_strdup_printf (_("%s: %s (%.1f %%), exclusive %s, %" PRIu64 " calls"), name ? name : "", incl,
                          root.inclusive ? 100.0 * (double) n.inclusive / (double) root.inclusive : 0, excl, n.count);
}

static void
flame_colors (StrobeCostTree *tree, guint node, GdkRGBA *fill, GdkRGBA *text, gpointer data)
{
  g_autofree char *name = flame_name (tree, node, data);
  StrobeRgb c = strobe_timeline_name_color (name ? name : ""), t = strobe_timeline_text_on (c);

  *fill = (GdkRGBA) { (float) c.r, (float) c.g, (float) c.b, 1 };
  *text = (GdkRGBA) { (float) t.r, (float) t.g, (float) t.b, 1 };
}

/* The flame graph: the tree when it is the range's; while one is built for another
 * range (a whole billion-scope trace's takes tens of seconds), that, and how far. */
static void
update_flame (StrobeTimersPanel *self)
{
  StrobeCostTree *tree = strobe_timers_calls_get_tree (self->calls);
  g_autofree char *text = NULL;

  if (tree_waited (self))
    {
      text = building_text (self);
      tree = NULL;
    }
  g_object_set (self->flame, "empty-text", text ? text : _("No scopes in this range."), NULL);
  if (strobe_flame_graph_get_tree (STROBE_FLAME_GRAPH (self->flame)) != tree)
    strobe_flame_graph_set_tree (STROBE_FLAME_GRAPH (self->flame), tree, STROBE_CALL_TIME, STROBE_COST_SORT_TIE_BY_KEY);
}

static void
calls_changed_cb (StrobeTimersPanel *self, gint kind)
{
  if (kind == STROBE_TIMERS_CALLS_TREE)
    update_flame (self);
  else if (links_waited (self))
    update_links_progress (self);
  else
    update_links (self);
}

/* What is shown besides the table, of the range and the chosen timer: their callers and
 * callees when a timer is chosen, the tree when the flame graph is. */
static void
compute_calls (StrobeTimersPanel *self)
{
  if (self->timeline == NULL)
    return;
  if (self->chosen != G_MAXUINT32)
    strobe_timers_calls_want_links (self->calls, self->timeline, self->chosen, self->t0, self->t1, self->stats_generation);
  if (gtk_widget_get_mapped (self->flame))
    strobe_timers_calls_want_tree (self->calls, self->timeline, self->t0, self->t1, self->stats_generation);
  update_links (self);
  update_flame (self);
}

/* ---- choosing and activating rows --------------------------------------------------------- */

static void
chosen_changed_cb (StrobeTimersPanel *self)
{
  gpointer item = gtk_single_selection_get_selected_item (self->selection);
  guint32 id = item ? STAT (item)->name_id : G_MAXUINT32;

  /* Replacing the rows unselects for a moment: not a choice of the user's. */
  if (self->setting_rows || id == self->chosen)
    return;
  self->chosen = id;
  strobe_flame_graph_set_highlight (STROBE_FLAME_GRAPH (self->flame), id == G_MAXUINT32 ? STROBE_FLAME_GRAPH_NO_HIGHLIGHT : id);
  g_signal_emit (self, signals[TIMER_CHOSEN], 0, id);
  compute_calls (self);
}

static void
longest_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  StatsJob *j = data;
  StrobeScopeMatch m;
  GError *error = NULL;
  guint32 name = (guint32) GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "name-id"));

  if (strobe_scope_search_longest (j->model, name, j->t0, j->t1, &m, cancellable, &error))
    g_task_return_pointer (task, g_memdup2 (&m, sizeof m), g_free);
  else if (error)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, NULL, NULL);
}

static void
longest_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(StrobeTimersPanel) self = user_data;
  g_autofree StrobeScopeMatch *m = g_task_propagate_pointer (G_TASK (result), NULL);

  if (m)
    {
      StrobeScopeRef ref = { m->thread_id, m->depth, m->name_id, m->begin, m->end };
      g_signal_emit (self, signals[SHOW_SCOPE], 0, &ref);
    }
}

static void
activate_cb (GtkColumnView *view, guint position, StrobeTimersPanel *self)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  g_autoptr(GTask) task = NULL;
  StatsJob *j;

  if (item == NULL || self->timeline == NULL)
    return;
  if (self->find_cancel)
    g_cancellable_cancel (self->find_cancel);
  g_clear_object (&self->find_cancel);
  self->find_cancel = g_cancellable_new ();
  j = g_new0 (StatsJob, 1);
  j->model = g_object_ref (self->timeline);
  j->t0 = self->t0;
  j->t1 = self->t1;
  task = g_task_new (NULL, self->find_cancel, longest_done, g_object_ref (self));
  g_object_set_data (G_OBJECT (task), "name-id", GUINT_TO_POINTER (STAT (item)->name_id));
  g_task_set_task_data (task, j, stats_job_free);
  strobe_background_run (task, longest_thread);
}

/* ---- CSV ------------------------------------------------------------------------------------ */

static void
csv_field (GString *out, const char *s)
{
  if (strpbrk (s, ",\"\n\r") == NULL)
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      if (*s == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

static void
csv_ms (GString *out, const StrobeTraceClock *clock, gdouble ticks)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (out, ',');
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6f",
                                       strobe_trace_clock_ticks_to_seconds (clock, ticks) * 1e3));
}

char *
strobe_timers_panel_to_csv (StrobeTimersPanel *self)
{
  GListModel *model;
  GString *out;
  guint n;
  StrobeTraceClock clock;

  g_return_val_if_fail (STROBE_IS_TIMERS_PANEL (self), NULL);

  strobe_time_axis_get_clock (self->axis, &clock);
  /* In the order the table shows. */
  model = G_LIST_MODEL (self->selection);
  n = g_list_model_get_n_items (model);
  out = g_string_new ("name,count,inclusive_ms,min_ms,max_ms,mean_ms,median_ms,exclusive_ms,exclusive_mean_ms,share\n");
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      const StrobeTimerStat *s = STAT (item);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      csv_field (out, s->name);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT, s->count);
      csv_ms (out, &clock, (gdouble) s->inclusive);
      csv_ms (out, &clock, (gdouble) s->min);
      csv_ms (out, &clock, (gdouble) s->max);
      csv_ms (out, &clock, s->mean);
      csv_ms (out, &clock, s->median);
      csv_ms (out, &clock, (gdouble) s->exclusive);
      csv_ms (out, &clock, s->count ? (gdouble) s->exclusive / s->count : 0);
      g_string_append_c (out, ',');
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.4f", strobe_timer_row_get_share (STROBE_TIMER_ROW (item))));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static void
export_response (GtkNativeDialog *dialog, int response, StrobeTimersPanel *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *csv = strobe_timers_panel_to_csv (self);
      g_autoptr(GError) error = NULL;

      if (!g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error))
        {
          GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
          GtkWidget *msg = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, GTK_DIALOG_MODAL,
                                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s",
                                                   _("Could not export the timers"));
          gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (msg), "%s", error->message);
          g_signal_connect (msg, "response", G_CALLBACK (gtk_window_destroy), NULL);
          gtk_window_present (GTK_WINDOW (msg));
        }
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
export_clicked_cb (StrobeTimersPanel *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;
  g_autofree char *name = g_strdup_printf ("%s-timers.csv", strobe_document_get_title (self->document));

  dialog = gtk_file_chooser_native_new (_("Export Timers"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ---- object --------------------------------------------------------------------------------- */

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *sw = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (sw), child);
  gtk_widget_set_vexpand (sw, TRUE);
  return sw;
}

static void
flame_mapped_cb (StrobeTimersPanel *self)
{
  compute_calls (self);
}

/* The flame graph needs room (issue 24 item 7: at the default size it was a strip of
 * 425 × 200 pixels): shown, it takes two thirds of the panel's height and a width a
 * flame graph can be read in; back to the callers, the table gets its height again. */
static void
links_page_cb (StrobeTimersPanel *self)
{
  gboolean flame = g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->links_stack)), "flame") == 0;
  int height = gtk_widget_get_height (self->paned), position = gtk_paned_get_position (GTK_PANED (self->paned));

  if (flame && height > 0 && position > height / 3)
    {
      self->table_position = position;
      gtk_paned_set_position (GTK_PANED (self->paned), MAX (height / 3, 120));
    }
  else if (!flame && self->table_position > 0)
    {
      gtk_paned_set_position (GTK_PANED (self->paned), self->table_position);
      self->table_position = 0;
    }
}

static void
strobe_timers_panel_constructed (GObject *object)
{
  StrobeTimersPanel *self = STROBE_TIMERS_PANEL (object);
  GtkWidget *box = GTK_WIDGET (self), *header, *title, *export, *paned, *top, *bottom, *switcher, *sw;

  G_OBJECT_CLASS (strobe_timers_panel_parent_class)->constructed (object);

  if (strobe_document_get_timeline (self->document))
    self->timeline = g_object_ref (strobe_document_get_timeline (self->document));
  self->axis = strobe_time_axis_new (self->document, self->state);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (header, 6);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_margin_top (header, 4);
  title = gtk_label_new (_("Timers"));
  gtk_widget_add_css_class (title, "strobe-heading");
  gtk_box_append (GTK_BOX (header), title);
  self->range_label = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->range_label, "dim-label");
  gtk_label_set_ellipsize (GTK_LABEL (self->range_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (self->range_label), 18);
  gtk_widget_set_hexpand (self->range_label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->range_label), 0);
  gtk_box_append (GTK_BOX (header), self->range_label);
  /* Always there (a stopped spinner draws nothing): showing and hiding it would lay the
   * whole panel out again, and its table is costly to lay out. */
  self->spinner = gtk_spinner_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->spinner), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Computing timers"), -1);
  gtk_box_append (GTK_BOX (header), self->spinner);
  export = gtk_button_new_from_icon_name ("document-save-as-symbolic");
  gtk_widget_set_tooltip_text (export, _("Export the table as CSV"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (export), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Export timers as CSV"), -1);
  g_signal_connect_swapped (export, "clicked", G_CALLBACK (export_clicked_cb), self);
  gtk_box_append (GTK_BOX (header), export);
  gtk_widget_set_parent (header, box);

  self->filter_entry = gtk_search_entry_new ();
  gtk_widget_set_margin_start (self->filter_entry, 6);
  gtk_widget_set_margin_end (self->filter_entry, 6);
  gtk_widget_set_margin_top (self->filter_entry, 4);
  gtk_widget_set_margin_bottom (self->filter_entry, 4);
  g_object_set (self->filter_entry, "placeholder-text", _("Filter timers"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->filter_entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Filter timers"), -1);
  gtk_widget_set_parent (self->filter_entry, box);

  self->rows = g_list_store_new (STROBE_TYPE_TIMER_ROW);
  self->filter = gtk_string_filter_new (gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                                     G_CALLBACK (c_name), NULL, NULL));
  gtk_string_filter_set_match_mode (self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->filter, TRUE);
  g_object_bind_property (self->filter_entry, "text", self->filter, "search", G_BINDING_DEFAULT);

  self->table = gtk_column_view_new (NULL);
  strobe_table_add_columns (GTK_COLUMN_VIEW (self->table), timer_columns, G_N_ELEMENTS (timer_columns));
  /* Our own reference: the table lets go of it while rows are replaced. */
  self->selection = g_object_ref (strobe_table_set_model (GTK_COLUMN_VIEW (self->table), g_object_ref (G_LIST_MODEL (self->rows)),
                                                          g_object_ref (GTK_FILTER (self->filter))));
  gtk_column_view_set_reorderable (GTK_COLUMN_VIEW (self->table), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->table), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timers"), -1);
  gtk_widget_set_tooltip_text (self->table, _("Double-click a timer to go to its longest instance"));
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (chosen_changed_cb), self);
  g_signal_connect (self->table, "activate", G_CALLBACK (activate_cb), self);
  /* Names are what one reads first: room for them, the figures scroll (a figure is
   * never cut short: its column is as wide as the widest figure of its kind, in this
   * language — "888.8 мкс" is wider than "888.8 ms" —; counts as wide as the largest). */
  gtk_column_view_column_set_fixed_width (table_column (self, 0), 170);
  fit_count_column (self, 8888888);
  {
    g_auto(GStrv) durations = strobe_format_ticks_widest ();
    int dur_w = text_width (self->table, (const char * const *) durations);
    guint n = g_list_model_get_n_items (gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->table)));

    for (guint i = 2; i < n; i++)
      {
        const char *share[] = { "100.0 %", NULL };
        fit_column (self, i, i + 1 == n ? text_width (self->table, share) : dur_w);
      }
  }
  g_signal_connect_swapped (self->rows, "items-changed", G_CALLBACK (rows_changed_cb), self);
  g_signal_connect (self, "unmap", G_CALLBACK (feed_unmap_cb), NULL);
  /* Sorted by inclusive time, largest first, to begin with. */
  {
    g_autoptr(GtkColumnViewColumn) incl = g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->table)), 2);
    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->table), incl, GTK_SORT_DESCENDING);
  }

  top = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (top), scrolled (self->table));
  self->reading_note = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->reading_note), TRUE);
  gtk_label_set_justify (GTK_LABEL (self->reading_note), GTK_JUSTIFY_CENTER);
  gtk_label_set_max_width_chars (GTK_LABEL (self->reading_note), 40);
  gtk_widget_set_halign (self->reading_note, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (self->reading_note, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (self->reading_note, 12);
  gtk_widget_set_margin_end (self->reading_note, 12);
  /* Clicks pass through it to the table (its headers sort it). */
  gtk_widget_set_can_target (self->reading_note, FALSE);
  gtk_widget_add_css_class (self->reading_note, "dim-label");
  gtk_widget_set_visible (self->reading_note, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (top), self->reading_note);
  strobe_pane_mark (top);

  self->calls = strobe_timers_calls_new ();
  g_signal_connect_object (self->calls, "changed", G_CALLBACK (calls_changed_cb), self, G_CONNECT_SWAPPED);
  self->links = STROBE_CALLERS_PANEL (strobe_callers_panel_new (STROBE_TYPE_TIMER_ROW, link_columns, G_N_ELEMENTS (link_columns),
                                                                -1, GTK_ORIENTATION_VERTICAL, _("Callers"), _("Callees")));
  self->flame = g_object_new (STROBE_TYPE_FLAME_GRAPH, "show-ancestors", TRUE, "click-zooms", TRUE, "has-tooltip", TRUE,
                              "empty-text", _("No scopes in this range."), NULL);
  {
    static const StrobeFlameGraphFuncs flame_funcs = { flame_name, flame_describe, flame_colors };
    strobe_flame_graph_set_funcs (STROBE_FLAME_GRAPH (self->flame), &flame_funcs, self, NULL);
  }
  g_signal_connect_swapped (self->flame, "map", G_CALLBACK (flame_mapped_cb), self);
  sw = scrolled (self->flame);
  gtk_widget_set_size_request (sw, 600, -1);
  self->links_stack = gtk_stack_new ();
  /* Only the page shown asks for its width: the callers keep the panel narrow. */
  gtk_stack_set_hhomogeneous (GTK_STACK (self->links_stack), FALSE);
  gtk_stack_add_titled (GTK_STACK (self->links_stack), GTK_WIDGET (self->links), "links", _("Callers and Callees"));
  gtk_stack_add_titled (GTK_STACK (self->links_stack), sw, "flame", _("Flame Graph"));
  switcher = gtk_stack_switcher_new ();
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (self->links_stack));
  gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_top (switcher, 4);
  gtk_widget_set_margin_bottom (switcher, 4);
  gtk_accessible_update_property (GTK_ACCESSIBLE (switcher), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timer details"), -1);
  bottom = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (bottom), switcher);
  gtk_box_append (GTK_BOX (bottom), self->links_stack);
  strobe_pane_mark (bottom);

  paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (paned), top);
  gtk_paned_set_end_child (GTK_PANED (paned), bottom);
  gtk_paned_set_resize_start_child (GTK_PANED (paned), TRUE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 360);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_widget_set_parent (paned, box);
  self->paned = paned;
  g_signal_connect_swapped (self->links_stack, "notify::visible-child-name", G_CALLBACK (links_page_cb), self);

  g_signal_connect_object (self->state, "notify::selection-start", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::selection-end", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->state, "notify::has-selection", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  update_links (self);
  update_range_label (self);
}

static void
strobe_timers_panel_dispose (GObject *object)
{
  StrobeTimersPanel *self = STROBE_TIMERS_PANEL (object);

  if (self->stats_cancel)
    g_cancellable_cancel (self->stats_cancel);
  if (self->calls)
    strobe_timers_calls_stop (self->calls);
  if (self->find_cancel)
    g_cancellable_cancel (self->find_cancel);
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  feed_clear (self);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (strobe_timers_panel_parent_class)->dispose (object);
}

static void
strobe_timers_panel_finalize (GObject *object)
{
  StrobeTimersPanel *self = STROBE_TIMERS_PANEL (object);

  g_clear_object (&self->stats_cancel);
  g_clear_object (&self->calls);
  g_clear_object (&self->find_cancel);
  g_clear_object (&self->document);
  g_clear_object (&self->state);
  g_clear_object (&self->timeline);
  g_clear_object (&self->axis);
  g_clear_object (&self->rows);
  g_clear_object (&self->filter);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (strobe_timers_panel_parent_class)->finalize (object);
}

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_STATE,
  N_PROPS
};

static void
strobe_timers_panel_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  StrobeTimersPanel *self = STROBE_TIMERS_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT: self->document = g_value_dup_object (value); break;
    case PROP_STATE:    self->state = g_value_dup_object (value); break;
    default:            G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_timers_panel_class_init (StrobeTimersPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = strobe_timers_panel_constructed;
  object_class->dispose = strobe_timers_panel_dispose;
  object_class->finalize = strobe_timers_panel_finalize;
  object_class->set_property = strobe_timers_panel_set_property;

  g_object_class_install_property (object_class, PROP_DOCUMENT,
    g_param_spec_object ("document", NULL, NULL, STROBE_TYPE_DOCUMENT,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_STATE,
    g_param_spec_object ("state", NULL, NULL, STROBE_TYPE_VIEW_STATE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * StrobeTimersPanel::timer-chosen:
   * @name_id: the chosen timer's name id, G_MAXUINT32 for none
   */
  signals[TIMER_CHOSEN] = g_signal_new ("timer-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * StrobeTimersPanel::show-scope:
   * @scope: a StrobeScopeRef: a timer's longest instance, to bring into view
   */
  signals[SHOW_SCOPE] = g_signal_new ("show-scope", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, STROBE_TYPE_SCOPE_REF);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "timerspanel");
}

static void
strobe_timers_panel_init (StrobeTimersPanel *self)
{
  self->chosen = G_MAXUINT32;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
}

GtkWidget *
strobe_timers_panel_new (StrobeDocument *document, StrobeViewState *state)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (state), NULL);

  return g_object_new (STROBE_TYPE_TIMERS_PANEL, "document", document, "state", state, NULL);
}

GListModel *
strobe_timers_panel_get_rows (StrobeTimersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_PANEL (self), NULL);
  return G_LIST_MODEL (self->rows);
}

gboolean
strobe_timers_panel_is_busy (StrobeTimersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_PANEL (self), FALSE);
  return self->stats_cancel != NULL || self->refresh_source != 0 || strobe_timers_calls_is_busy (self->calls) || feeding (self);
}

guint32
strobe_timers_panel_get_chosen (StrobeTimersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_PANEL (self), G_MAXUINT32);
  return self->chosen;
}

void
strobe_timers_panel_choose (StrobeTimersPanel *self, guint32 name_id)
{
  g_return_if_fail (STROBE_IS_TIMERS_PANEL (self));

  gtk_single_selection_set_selected (self->selection, name_id == G_MAXUINT32 ? GTK_INVALID_LIST_POSITION
                                                                             : find_row (G_LIST_MODEL (self->selection), name_id));
}

GListModel *
strobe_timers_panel_get_callers (StrobeTimersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_PANEL (self), NULL);
  return strobe_callers_panel_get_callers (self->links);
}

GListModel *
strobe_timers_panel_get_callees (StrobeTimersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_PANEL (self), NULL);
  return strobe_callers_panel_get_callees (self->links);
}

void
strobe_timers_panel_focus_filter (StrobeTimersPanel *self)
{
  g_return_if_fail (STROBE_IS_TIMERS_PANEL (self));
  gtk_widget_grab_focus (self->filter_entry);
}

GtkWidget *
strobe_timers_panel_get_table (StrobeTimersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_PANEL (self), NULL);
  return self->table;
}
