/* strobe-memory-view.c
 *
 * The view wires its parts to the document and to each other: the graph and the queries
 * share the markers, everything that selects something shows its call stack, and one job
 * makes the call trees, the caller/callee table and the size histogram of the current
 * range (the whole trace, or the selection) once the trace is read — again when the range
 * changes, and every few seconds while a live trace grows.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-memory-callers.h"
#include "strobe-memory-items.h"
#include "strobe-memory-job.h"
#include "strobe-memory-view.h"
#include "strobe-panes.h"
#include "strobe-table.h"

#define MAX_PATH        256
#define RANGE_DELAY_MS  200    /* the selection rests this long before the trees follow it */
#define LIVE_REFRESH_US (3 * G_USEC_PER_SEC)

static const char *const tab_names[] = { "allocations", "bottom-up", "top-down", "callers", "flame", "sizes" };

/* ---- the analysis of a range: trees, callers, sizes ------------------------------------------- */

#define ANALYSIS_TYPE (analysis_get_type ())
G_DECLARE_FINAL_TYPE (Analysis, analysis, STROBE, MEMORY_ANALYSIS, GObject)

struct _Analysis
{
  GObject                parent_instance;
  StrobeMemoryTree      *top_down;
  StrobeMemoryTree      *bottom_up;
  StrobeMemoryCallers   *callers;
  StrobeMemoryAggregate *sizes;
  GPtrArray             *no_symbols;   /* paths of modules of these trees without symbols */
};

G_DEFINE_FINAL_TYPE (Analysis, analysis, G_TYPE_OBJECT)

static void
analysis_finalize (GObject *object)
{
  Analysis *self = (Analysis *) object;

  g_clear_object (&self->top_down);
  g_clear_object (&self->bottom_up);
  g_clear_object (&self->callers);
  g_clear_object (&self->sizes);
  g_clear_pointer (&self->no_symbols, g_ptr_array_unref);
  G_OBJECT_CLASS (analysis_parent_class)->finalize (object);
}

static void
analysis_class_init (AnalysisClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = analysis_finalize;
}

static void
analysis_init (Analysis *self)
{
}

typedef struct
{
  StrobeMemoryModel *model;
  StrobeSymbolizer  *symbolizer;
  guint64            t0, t1;
} AnalysisTask;

static void
analysis_task_free (gpointer data)
{
  AnalysisTask *t = data;

  g_clear_object (&t->model);
  g_clear_object (&t->symbolizer);
  g_free (t);
}

/* One step's progress as a part of the whole. */
typedef struct
{
  StrobeMemoryProgressFunc progress;
  gpointer                 data;
  gdouble                  from, to;
} Part;

static void
part_progress (gdouble fraction, gpointer data)
{
  Part *p = data;

  p->progress (p->from + (p->to - p->from) * fraction, p->data);
}

static GObject *
analysis_thread (gpointer data, GCancellable *cancellable, StrobeMemoryProgressFunc progress, gpointer progress_data,
                 GError **error)
{
  AnalysisTask *t = data;
  g_autoptr (Analysis) a = g_object_new (ANALYSIS_TYPE, NULL);
  Part part = { progress, progress_data, 0.0, 0.4 };

  a->top_down = strobe_memory_model_build_tree (t->model, t->t0, t->t1, STROBE_MEMORY_TREE_TOP_DOWN,
                                                strobe_memory_symbolizer_frame_func, t->symbolizer,
                                                cancellable, part_progress, &part, error);
  if (a->top_down == NULL)
    return NULL;
  part.from = 0.4;
  part.to = 0.8;
  a->bottom_up = strobe_memory_model_build_tree (t->model, t->t0, t->t1, STROBE_MEMORY_TREE_BOTTOM_UP,
                                                 strobe_memory_symbolizer_frame_func, t->symbolizer,
                                                 cancellable, part_progress, &part, error);
  if (a->bottom_up == NULL)
    return NULL;
  a->callers = strobe_memory_callers_new (a->top_down, cancellable, error);
  if (a->callers == NULL)
    return NULL;
  part.from = 0.85;
  part.to = 1.0;
  a->sizes = strobe_memory_model_aggregate (t->model, t->t0, t->t1, STROBE_MEMORY_BY_SIZE, NULL, NULL, cancellable,
                                            part_progress, &part, error);
  if (a->sizes == NULL)
    return NULL;
  /* Here, on the worker: the symbolizer's lock may be held long by another lookup. */
  a->no_symbols = strobe_symbolizer_dup_missing_symbols (t->symbolizer);
  return G_OBJECT (g_steal_pointer (&a));
}

/* ---- the view ----------------------------------------------------------------------------- */

struct _StrobeMemoryView
{
  StrobeView                parent_instance;

  /* template */
  GtkInfoBar               *notice_bar;
  GtkLabel                 *notice_label;
  char                     *symbols_notice;    /* modules without symbols, from the last analysis */
  GtkStack                 *content_stack;
  GtkWidget                *main_paned;
  GtkWidget                *toolbar;
  GtkMenuButton            *lanes_button;
  GtkToggleButton          *range_button;
  GtkLabel                 *range_label;
  GtkProgressBar           *analysis_progress;
  StrobeMemoryGraph        *graph;
  GtkWidget                *figures_scroller;
  StrobeMemoryFigures      *figures;
  GtkNotebook              *tabs;
  StrobeMemoryQueries      *queries;
  GtkBox                   *bottom_up_box;
  GtkBox                   *top_down_box;
  StrobeMemoryFunctionsPanel *callers;
  GtkDropDown              *flame_cost;
  GtkButton                *flame_reset;
  GtkLabel                 *flame_label;
  StrobeFlameGraph         *flame;
  StrobeMemoryHistogram    *histogram;
  GtkColumnView            *sizes_table;
  StrobeMemoryStackPanel        *stack;
  GtkLabel                 *empty_title;
  GtkLabel                 *empty_label;

  StrobeMemoryTreePanel    *bottom_up;
  StrobeMemoryTreePanel    *top_down;
  GListStore               *sizes_store;
  StrobeMemoryNames        *names;
  StrobeTimeAxis           *axis;              /* the graphs', the queries' and the clock */

  StrobeMemoryJob          *analysis_job;
  Analysis                 *analysis;
  guint64                   analysis_t0, analysis_t1;
  gboolean                  analysed;          /* once, after loading */
  gboolean                  queried;           /* the first query ran */
  gint64                    last_analysis_us;
  gint64                    analysis_cost_us;   /* how long the last one took */
  guint                     range_source;
  guint                     refresh_source;
  guint64                   selected_allocation;  /* the view's own: no other view follows it */
  char                     *pending_function;     /* asked for before the analysis had it */
};

G_DEFINE_FINAL_TYPE (StrobeMemoryView, strobe_memory_view, STROBE_TYPE_VIEW)

static void select_pending_function (StrobeMemoryView *self);

enum
{
  PROP_0,
  PROP_SELECTED_ALLOCATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void start_analysis (StrobeMemoryView *self);
static char *symbols_notice (GPtrArray *missing);
static void update_notice (StrobeMemoryView *self, const StrobeMemorySummary *s);

/* ---- stacks of what is selected -------------------------------------------------------------- */

static void
show_allocation (StrobeMemoryView *self, guint64 index)
{
  StrobeMemoryModel *model = self->names ? strobe_memory_names_get_model (self->names) : NULL;
  StrobeMemoryAlloc r;
  StrobeTraceClock clock;

  if (model == NULL || !strobe_memory_model_get_alloc (model, index, &r))
    return;
  strobe_time_axis_get_clock (self->axis, &clock);
  strobe_memory_stack_panel_show_allocation (self->stack, &r, index, &clock);
}

static void
queries_show_allocation_cb (StrobeMemoryView *self,
                            guint64           index)
{
  strobe_memory_view_set_selected_allocation (self, index);
}

static char *
costs_title (StrobeMemoryView *self, const char *name, const StrobeMemoryCosts *c)
{
  g_autofree char *peak = strobe_format_size ((guint64) MAX (c->peak_bytes, 0));
  g_autofree char *leaked = strobe_format_size ((guint64) MAX (c->leaked_bytes, 0));
  g_autofree char *allocs = strobe_format_count (c->allocations);
  g_autofree char *temporary = strobe_format_count (c->temporary);

  /* Translators: a function or group and its costs */
  return g_strdup_printf (_("%s: peak %s, leaked %s, %s allocations (%s temporary)"), name, peak, leaked, allocs,
                          temporary);
}

static void
show_group_cb (StrobeMemoryView     *self,
               StrobeMemoryCostItem *item)
{
  const StrobeMemoryCostData *d = strobe_memory_cost_item_get_data (item);
  g_autofree char *title = NULL;

  title = costs_title (self, strobe_memory_cost_item_get_name (item), &d->inclusive);
  if (d->by == STROBE_MEMORY_BY_STACK)
    strobe_memory_stack_panel_show_stack (self->stack, title, (guint32) d->key);
  else if (d->by == STROBE_MEMORY_BY_FUNCTION && d->frame.address != 0)
    strobe_memory_stack_panel_show_frames (self->stack, title, &d->frame, &d->inline_depth, 1);
  else
    strobe_memory_stack_panel_show_frames (self->stack, title, NULL, NULL, 0);
}

/* A node's path, innermost frame first. */
static void
show_node (StrobeMemoryView *self, StrobeMemoryTree *tree, StrobeMemoryTreeKind kind, guint node)
{
  StrobeMemoryFrame frames[MAX_PATH];
  guint32 depths[MAX_PATH];
  StrobeMemoryTreeNode n, first;
  guint count = 0;
  g_autofree char *name = NULL, *title = NULL;

  if (tree == NULL || !strobe_memory_tree_get_node (tree, node, &first))
    return;
  for (guint at = node; at != 0 && count < MAX_PATH && strobe_memory_tree_get_node (tree, at, &n); at = n.parent)
    {
      frames[count] = n.frame;
      depths[count++] = n.inline_depth;
    }
  /* Bottom-up, the path from the root starts at frame #0. */
  if (kind == STROBE_MEMORY_TREE_BOTTOM_UP)
    for (guint i = 0; i < count / 2; i++)
      {
        StrobeMemoryFrame f = frames[i];
        guint32 d = depths[i];

        frames[i] = frames[count - 1 - i];
        depths[i] = depths[count - 1 - i];
        frames[count - 1 - i] = f;
        depths[count - 1 - i] = d;
      }
  name = node == 0 ? g_strdup (_("All allocations")) : strobe_memory_names_function (self->names, &first.frame, first.inline_depth);
  title = costs_title (self, name, &first.inclusive);
  strobe_memory_stack_panel_show_frames (self->stack, title, frames, depths, count);
}

static void
bottom_up_node_cb (StrobeMemoryView *self,
                   guint             node)
{
  show_node (self, self->analysis ? self->analysis->bottom_up : NULL, STROBE_MEMORY_TREE_BOTTOM_UP, node);
}

static void
top_down_node_cb (StrobeMemoryView *self,
                  guint             node)
{
  show_node (self, self->analysis ? self->analysis->top_down : NULL, STROBE_MEMORY_TREE_TOP_DOWN, node);
}

/* ---- markers -------------------------------------------------------------------------------- */

static void
markers_changed_cb (StrobeMemoryView *self)
{
  for (guint m = 0; m < 3; m++)
    strobe_memory_graph_set_marker (self->graph, m, strobe_memory_queries_get_marker (self->queries, m));
}

static void
marker_requested_cb (StrobeMemoryView *self,
                     guint             which,
                     guint64           time)
{
  strobe_memory_queries_set_marker (self->queries, which, time);
}

static void
go_to_cb (StrobeMemoryView *self,
          guint64           time)
{
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));
  guint64 a, b;

  strobe_view_state_set_cursor (state, time);
  if (strobe_memory_graph_get_range (self->graph, &a, &b) && (time < a || time >= b))
    {
      guint64 half = (b - a) / 2;
      strobe_view_state_set_visible_range (state, time > half ? time - half : 0, (time > half ? time - half : 0) + (b - a));
    }
}

/* ---- the trees and sizes --------------------------------------------------------------------- */

STROBE_MEMORY_COUNT_TEXT (size_count_text, allocations, FALSE)
STROBE_MEMORY_SIZE_TEXT (size_bytes_text, bytes_allocated, FALSE)
STROBE_MEMORY_COUNT_TEXT (size_temporary_text, temporary, FALSE)
STROBE_MEMORY_COUNT_TEXT (size_leaked_text, leaked_count, FALSE)
STROBE_MEMORY_COST_COMPARE (size_compare_key, STROBE_MEMORY_COST_KEY, FALSE)
STROBE_MEMORY_COST_COMPARE (size_compare_count, STROBE_MEMORY_COST_ALLOCATIONS, FALSE)
STROBE_MEMORY_COST_COMPARE (size_compare_bytes, STROBE_MEMORY_COST_BYTES, FALSE)
STROBE_MEMORY_COST_COMPARE (size_compare_temporary, STROBE_MEMORY_COST_TEMPORARY, FALSE)

static const StrobeTableColumn size_columns[] = {
  { N_("Size"), strobe_memory_cost_item_name_text, size_compare_key, 9, FALSE, TRUE, NULL },
  { N_("Allocations"), size_count_text, size_compare_count, 8, TRUE, FALSE, NULL },
  { N_("Bytes"), size_bytes_text, size_compare_bytes, 11, TRUE, FALSE, NULL },
  { N_("Temporary"), size_temporary_text, size_compare_temporary, 7, TRUE, FALSE, NULL },
  { N_("Still Live"), size_leaked_text, strobe_memory_cost_item_compare_leaked_count, 7, TRUE, FALSE, NULL },
};

static void
fill_sizes (StrobeMemoryView *self)
{
  StrobeMemoryAggregate *agg = self->analysis ? self->analysis->sizes : NULL;
  guint n = agg ? strobe_memory_aggregate_get_n_rows (agg) : 0;
  g_autofree StrobeMemoryRow *rows = g_new0 (StrobeMemoryRow, MAX (n, 1));
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (n)
    strobe_memory_aggregate_get_rows (agg, 0, n, rows);
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryCostData d = { 0 };

      if (rows[i].costs.allocations == 0)
        continue;
      d.by = STROBE_MEMORY_BY_SIZE;
      d.key = rows[i].key;
      d.node = G_MAXUINT32;
      d.inclusive = rows[i].costs;
      g_ptr_array_add (items, strobe_memory_cost_item_new (&d, self->names, NULL));
    }
  g_list_store_splice (self->sizes_store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sizes_store)),
                       items->pdata, items->len);
  strobe_memory_histogram_set_aggregate (self->histogram, agg);
}

static gboolean
range_of (StrobeMemoryView *self, guint64 *t0, guint64 *t1)
{
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));

  if (gtk_toggle_button_get_active (self->range_button) && strobe_view_state_get_selection (state, t0, t1))
    return TRUE;
  *t0 = 0;
  *t1 = G_MAXUINT64;
  return FALSE;
}

static void
update_range_label (StrobeMemoryView *self)
{
  g_autofree char *text = NULL;
  guint64 t0, t1;

  if (self->axis != NULL && range_of (self, &t0, &t1))
    {
      g_autofree char *a = strobe_time_axis_format_time (self->axis, t0);
      g_autofree char *b = strobe_time_axis_format_time (self->axis, t1);
      /* Translators: what the call trees cover: a time range */
      text = g_strdup_printf (_("Call trees, flame graph and sizes from %s to %s"), a, b);
    }
  else if (gtk_toggle_button_get_active (self->range_button))
    text = g_strdup (_("No range is selected: call trees of the whole trace"));
  else
    text = g_strdup (_("Call trees, flame graph and sizes of the whole trace"));
  gtk_label_set_text (self->range_label, text);
}

static void
analysis_done (GObject      *result,
               const GError *error,
               gpointer      user_data)
{
  StrobeMemoryView *self = user_data;

  gtk_widget_set_visible (GTK_WIDGET (self->analysis_progress), FALSE);
  self->analysis_cost_us = g_get_monotonic_time () - self->last_analysis_us;
  if (result == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->range_label, error->message);
      return;
    }
  g_set_object (&self->analysis, (Analysis *) result);
  {
    g_autofree char *line = symbols_notice (self->analysis->no_symbols);

    if (g_strcmp0 (line, self->symbols_notice) != 0)
      {
        StrobeMemorySummary s;

        g_free (self->symbols_notice);
        self->symbols_notice = g_steal_pointer (&line);
        strobe_memory_model_get_summary (strobe_memory_names_get_model (self->names), &s);
        update_notice (self, &s);
      }
  }
  strobe_memory_tree_panel_set_tree (self->bottom_up, self->analysis->bottom_up);
  strobe_memory_tree_panel_set_tree (self->top_down, self->analysis->top_down);
  strobe_memory_functions_panel_set_callers (self->callers, self->analysis->callers);
  select_pending_function (self);
  strobe_flame_graph_set_tree (self->flame, strobe_memory_tree_get_cost_tree (self->analysis->top_down),
                               strobe_flame_graph_get_column (self->flame), 0);
  g_object_set (self->flame, "empty-text", _("Nothing to show for this cost."), NULL);
  fill_sizes (self);
  update_range_label (self);
}

static void
start_analysis (StrobeMemoryView *self)
{
  AnalysisTask *t;

  if (self->names == NULL)
    return;
  t = g_new0 (AnalysisTask, 1);
  t->model = g_object_ref (strobe_memory_names_get_model (self->names));
  t->symbolizer = strobe_memory_names_dup_symbolizer (self->names);
  range_of (self, &t->t0, &t->t1);
  self->analysis_t0 = t->t0;
  self->analysis_t1 = t->t1;
  self->last_analysis_us = g_get_monotonic_time ();
  strobe_memory_job_run (self->analysis_job, analysis_thread, t, analysis_task_free, analysis_done, self);
  gtk_widget_set_visible (GTK_WIDGET (self->analysis_progress), TRUE);
  gtk_progress_bar_set_fraction (self->analysis_progress, 0);
}

static void
analysis_progress_cb (StrobeMemoryView *self)
{
  gtk_progress_bar_set_fraction (self->analysis_progress, strobe_memory_job_get_progress (self->analysis_job));
}

static gboolean
range_idle_cb (gpointer data)
{
  StrobeMemoryView *self = data;
  guint64 t0, t1;

  self->range_source = 0;
  range_of (self, &t0, &t1);
  update_range_label (self);
  if (self->analysed && (t0 != self->analysis_t0 || t1 != self->analysis_t1))
    start_analysis (self);
  return G_SOURCE_REMOVE;
}

static void
range_changed_cb (StrobeMemoryView *self)
{
  if (self->range_source == 0)
    self->range_source = g_timeout_add (RANGE_DELAY_MS, range_idle_cb, self);
}

static gboolean
refresh_cb (gpointer data)
{
  StrobeMemoryView *self = data;

  self->refresh_source = 0;
  /* A live trace's analysis still running is let finish (starting again would cancel it,
   * and one longer than the interval would never be seen); its end asks again. */
  if (strobe_memory_job_is_running (self->analysis_job))
    self->refresh_source = g_timeout_add (LIVE_REFRESH_US / 1000, refresh_cb, self);
  else
    start_analysis (self);
  return G_SOURCE_REMOVE;
}

static void
flame_cost_cb (StrobeMemoryView *self)
{
  static const StrobeMemoryCost costs[] = {
    STROBE_MEMORY_COST_PEAK, STROBE_MEMORY_COST_LEAKED, STROBE_MEMORY_COST_ALLOCATIONS,
    STROBE_MEMORY_COST_TEMPORARY, STROBE_MEMORY_COST_BYTES,
  };

  strobe_flame_graph_set_column (self->flame, strobe_memory_cost_get_column (costs[MIN (gtk_drop_down_get_selected (self->flame_cost),
                                                                                           G_N_ELEMENTS (costs) - 1)]));
}

static void
flame_reset_cb (StrobeMemoryView *self)
{
  strobe_flame_graph_zoom (self->flame, 0);
}

static void
flame_node_cb (StrobeMemoryView *self,
               guint             node)
{
  show_node (self, self->analysis ? self->analysis->top_down : NULL, STROBE_MEMORY_TREE_TOP_DOWN, node);
}

/* The flame graph's nodes are the top-down tree's (the one it was given). */
static gboolean
flame_node (StrobeMemoryView *self, StrobeCostTree *tree, guint node, StrobeMemoryTreeNode *out)
{
  return self->analysis && strobe_memory_tree_get_cost_tree (self->analysis->top_down) == tree
         && strobe_memory_tree_get_node (self->analysis->top_down, node, out);
}

static char *
flame_name (StrobeCostTree *tree, guint node, gpointer data)
{
  StrobeMemoryView *self = data;
  StrobeMemoryTreeNode n;

  if (node == 0)
    return g_strdup (_("All allocations"));
  return flame_node (self, tree, node, &n) ? strobe_memory_names_function (self->names, &n.frame, n.inline_depth) : NULL;
}

static guint64
flame_value (StrobeCostTree *tree, guint node, guint column)
{
  guint64 v = strobe_cost_tree_get_inclusive (tree, node, column);

  return (strobe_cost_tree_get_column_flags (tree, column) & STROBE_COST_COLUMN_SIGNED) && (gint64) v < 0 ? 0 : v;
}

static char *
flame_describe (StrobeCostTree *tree, guint node, gpointer data)
{
  StrobeMemoryView *self = data;
  guint column = strobe_flame_graph_get_column (self->flame);
  guint64 v = flame_value (tree, node, column), all = MAX (flame_value (tree, 0, column), 1);
  g_autofree char *name = flame_name (tree, node, data);
  g_autofree char *value = column == strobe_memory_cost_get_column (STROBE_MEMORY_COST_ALLOCATIONS)
                           || column == strobe_memory_cost_get_column (STROBE_MEMORY_COST_TEMPORARY)
                           ? strobe_format_count (v) : strobe_format_size (v);

  /* Translators: a flame graph node: function, its cost, its share of the whole */
  return g_strdup_printf (_("%s: %s (%.1f %%)"), name ? name : "", value, 100.0 * (double) v / (double) all);
}

/* Red to yellow, a stable colour per function. */
static void
flame_colors (StrobeCostTree *tree, guint node, GdkRGBA *fill, GdkRGBA *text, gpointer data)
{
  guint64 h = strobe_cost_tree_get_key (tree, node) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  float r, g, b;

  gtk_hsv_to_rgb ((float) (h >> 40 & 0xff) / 255.0f * 0.14f, 0.55f + (float) (h >> 20 & 0xff) / 255.0f * 0.2f, 0.93f,
                  &r, &g, &b);
  *fill = (GdkRGBA) { r, g, b, 1 };
  *text = (GdkRGBA) { 0.1f, 0.1f, 0.1f, 1 };
}

static void
flame_hover_cb (StrobeMemoryView *self)
{
  const char *text = strobe_flame_graph_get_hover_text (self->flame);

  gtk_label_set_text (self->flame_label, text ? text : _("Click a function to select it, double-click to zoom into it."));
}

/* ---- notices and the empty page ---------------------------------------------------------------- */

static void
append_line (GString *s, const char *line)
{
  if (s->len)
    g_string_append_c (s, '\n');
  g_string_append (s, line);
}

/* Which modules of the call stacks have no symbols, and how to get them (issue 24 item 12:
 * "python3.11+0x62d1da" said nothing of why). NULL when every one has them. */
static char *
symbols_notice (GPtrArray *missing)
{
  g_autoptr (GString) names = g_string_new (NULL);

  if (missing == NULL || missing->len == 0)
    return NULL;
  for (guint i = 0; i < missing->len && i < 4; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (missing, i));
      if (i)
        g_string_append (names, ", ");
      g_string_append (names, base);
    }
  if (missing->len > 4)
    g_string_append (names, ", …");
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "No symbols for %s: its functions show as module+offset. Install its separate debug "
                                       "symbols (Debian: the -dbgsym package, from the debian-debug archive; they go to "
                                       "/usr/lib/debug/.build-id), or set DEBUGINFOD_URLS to let elfutils download them, "
                                       "then open the trace again.",
                                       "No symbols for %s: their functions show as module+offset. Install their separate "
                                       "debug symbols (Debian: the -dbgsym packages, from the debian-debug archive; they go "
                                       "to /usr/lib/debug/.build-id), or set DEBUGINFOD_URLS to let elfutils download "
                                       "them, then open the trace again.",
                                       missing->len),
                          names->str);
}

static void
update_notice (StrobeMemoryView *self, const StrobeMemorySummary *s)
{
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  g_autoptr (GString) text = g_string_new (NULL);
  GtkMessageType type = GTK_MESSAGE_INFO;

  switch (strobe_document_get_status (document))
    {
    case STROBE_DOCUMENT_STATUS_DAMAGED:
      append_line (text, _("This trace is damaged: memory is shown up to the damage; what was live then counts as never freed."));
      type = GTK_MESSAGE_WARNING;
      break;
    case STROBE_DOCUMENT_STATUS_CUT_OFF:
      append_line (text, _("This trace is cut off (the program or the recorder stopped before its end): memory is shown up to where it ends; what was live then counts as never freed."));
      type = GTK_MESSAGE_WARNING;
      break;
    case STROBE_DOCUMENT_STATUS_CANCELLED:
      append_line (text, _("Loading was cancelled: memory is shown up to where reading stopped."));
      type = GTK_MESSAGE_WARNING;
      break;
    default:
      break;
    }
  if (s->not_analysed > 0)
    {
      StrobeTraceClock clock;
      g_autofree char *mib = NULL, *line = NULL;

      strobe_time_axis_get_clock (self->axis, &clock);
      mib = strobe_format_count (s->memory_budget >> 20);
      /* Translators: a time in seconds from the trace's start, then a size in MiB */
      line = g_strdup_printf (_("Memory is analysed up to %.3f s only: the model reached its memory budget of %s MiB "
                                "(what the machine had room for), and the rest of the trace's memory events were "
                                "not read; what was live then counts as never freed."),
                              strobe_trace_clock_to_seconds (&clock, s->not_analysed_from), mib);
      append_line (text, line);
      type = GTK_MESSAGE_WARNING;
    }
  if (s->partial)
    {
      g_autofree char *n = strobe_format_count (s->unmatched_frees);
      g_autofree char *line =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "Memory from before the connect is unknown: this trace began in the middle of the program without its live-allocation table, so live bytes start from zero and %s free of an earlier allocation was ignored.",
                                      "Memory from before the connect is unknown: this trace began in the middle of the program without its live-allocation table, so live bytes start from zero and %s frees of earlier allocations were ignored.",
                                      (gulong) MIN (s->unmatched_frees, G_MAXULONG)), n);
      append_line (text, line);
      type = GTK_MESSAGE_WARNING;
    }
  else if (s->has_snapshot && s->snapshot_allocs > 0)
    {
      g_autofree char *n = strobe_format_count (s->snapshot_allocs);
      g_autofree char *line =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "This trace began in the middle of the program: %s allocation live then comes from its live-allocation table, at the time the trace began.",
                                      "This trace began in the middle of the program: %s allocations live then come from its live-allocation table, at the time the trace began.",
                                      (gulong) MIN (s->snapshot_allocs, G_MAXULONG)), n);
      append_line (text, line);
    }
  if (s->dropped > 0 || s->lost_records > 0)
    {
      g_autofree char *d = strobe_format_count (s->dropped), *l = strobe_format_count (s->lost_records);
      /* Translators: allocation reports the program dropped, and records missing from the trace */
      g_autofree char *line = g_strdup_printf (_("Some allocations are missing: %s reports the program could not record, %s records lost from the trace."), d, l);
      append_line (text, line);
      type = GTK_MESSAGE_WARNING;
    }
  if (s->absurd_sizes > 0)
    {
      g_autofree char *n = strobe_format_count (s->absurd_sizes);
      g_autofree char *line =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%s allocation has an absurd size (2^48 bytes or more): it counts as 2^48 bytes.",
                                      "%s allocations have absurd sizes (2^48 bytes or more): they count as 2^48 bytes.",
                                      (gulong) MIN (s->absurd_sizes, G_MAXULONG)), n);
      append_line (text, line);
      type = GTK_MESSAGE_WARNING;
    }
  if (s->unmatched_frees > 0 && !s->partial)
    {
      g_autofree char *n = strobe_format_count (s->unmatched_frees);
      g_autofree char *line =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%s free names an address the trace never showed allocated: it is ignored.",
                                      "%s frees name addresses the trace never showed allocated: they are ignored.",
                                      (gulong) MIN (s->unmatched_frees, G_MAXULONG)), n);
      append_line (text, line);
    }
  if (s->replaced_allocs > 0)
    {
      g_autofree char *n = strobe_format_count (s->replaced_allocs);
      g_autofree char *line =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%s allocation was made at an address still live (its free is not in the trace): the older allocation ends there.",
                                      "%s allocations were made at addresses still live (their frees are not in the trace): the older allocations end there.",
                                      (gulong) MIN (s->replaced_allocs, G_MAXULONG)), n);
      append_line (text, line);
    }
  if (self->symbols_notice)
    append_line (text, self->symbols_notice);
  if (g_strcmp0 (gtk_label_get_text (self->notice_label), text->str) != 0)
    gtk_label_set_text (self->notice_label, text->str);
  gtk_info_bar_set_message_type (self->notice_bar, type);
  strobe_a11y_show_info_bar (self->notice_bar, text->len > 0);
}

static void
show_empty (StrobeMemoryView *self, const char *title, const char *text)
{
  gtk_label_set_text (self->empty_title, title);
  gtk_label_set_text (self->empty_label, text);
  gtk_stack_set_visible_child_name (self->content_stack, "empty");
}

/* ---- the document grew ----------------------------------------------------------------------- */

static void
strobe_memory_view_document_changed (StrobeView            *view,
                                     StrobeDocumentChanges  changes)
{
  StrobeMemoryView *self = STROBE_MEMORY_VIEW (view);
  StrobeDocument *document = strobe_view_get_document (view);
  StrobeMemoryModel *model = strobe_document_get_memory (document);
  gboolean loaded = strobe_document_is_loaded (document), live = strobe_document_is_live (document);
  StrobeMemorySummary s;
  guint64 first, last;

  /* Here, not in constructed: the base class reports the document from its own. */
  if (self->axis == NULL)
    self->axis = strobe_time_axis_new (document, strobe_view_get_state (view));
  if (model == NULL)
    {
      show_empty (self, _("No Memory"), _("Memory events were not read for this trace."));
      return;
    }
  if (self->names == NULL)
    {
      self->names = strobe_memory_names_new (model);
      strobe_memory_graph_set_sources (self->graph, self->names, self->axis);
      strobe_memory_queries_set_sources (self->queries, self->names, self->axis);
      strobe_memory_tree_panel_set_names (self->bottom_up, self->names);
      strobe_memory_tree_panel_set_names (self->top_down, self->names);
      strobe_memory_functions_panel_set_names (self->callers, self->names);
      strobe_memory_stack_panel_set_names (self->stack, self->names);
    }
  if (changes & (STROBE_DOCUMENT_CHANGED_MEMORY | STROBE_DOCUMENT_CHANGED_THREADS))
    strobe_memory_names_update (self->names, document);
  strobe_memory_model_get_summary (model, &s);
  if (strobe_document_get_extent (document, &first, &last))
    {
      /* The graphs span the memory events; without any, the whole trace. */
      if (s.allocs > 0)
        {
          first = MIN (first, s.first_time);
          last = MAX (last, s.last_time);
        }
      strobe_time_axis_set_bounds (self->axis, first, last);
      strobe_memory_queries_set_trace (self->queries, first, last);
    }
  update_notice (self, &s);
  if (s.allocs == 0 && s.frees == 0 && s.unmatched_frees == 0)
    {
      if (!loaded || live)
        show_empty (self, _("No Allocations Yet"), _("Allocations appear here as the trace is read."));
      else
        show_empty (self, _("No Memory Events"),
                    _("This trace has no events of the Memory channel. Trace any program's allocations without "
                      "changing it with strobe-cli run --callstacks PROGRAM, or turn the channel on in an "
                      "instrumented program (STROBE_TRACE=memory or --trace=memory)."));
      return;
    }
  gtk_stack_set_visible_child_name (self->content_stack, "memory");
  {
    g_autoptr (GArray) gaps = strobe_info_analyzer_dup_channel_gaps (strobe_document_get_info (document), "Memory");

    strobe_memory_graph_set_gaps (self->graph, gaps);
    strobe_memory_graph_set_not_analysed_from (self->graph, s.not_analysed ? s.not_analysed_from : G_MAXUINT64);
  }
  if (changes & STROBE_DOCUMENT_CHANGED_MEMORY)
    {
      StrobeTraceClock clock;

      strobe_time_axis_get_clock (self->axis, &clock);
      strobe_memory_figures_update (self->figures, self->names, &clock, loaded && !live);
    }
  /* And once read whole, even with no memory events in that last change: the graphs are
   * made of all of it at once then. */
  if ((changes & STROBE_DOCUMENT_CHANGED_MEMORY) || (loaded && !self->queried))
    strobe_memory_graph_model_changed (self->graph, !loaded || live);
  if (loaded && !self->queried)
    {
      self->queried = TRUE;
      strobe_memory_queries_run (self->queries);
    }
  if (loaded && !self->analysed)
    {
      self->analysed = TRUE;
      start_analysis (self);
    }
  else if (live && (changes & STROBE_DOCUMENT_CHANGED_MEMORY) && self->refresh_source == 0)
    {
      /* Each walks the whole trace: at most a fifth of the time, as the graphs. */
      gint64 wait = MAX (LIVE_REFRESH_US, 5 * self->analysis_cost_us) - (g_get_monotonic_time () - self->last_analysis_us);

      self->analysed = TRUE;
      self->refresh_source = g_timeout_add ((guint) MAX (wait / 1000, 0), refresh_cb, self);
    }
}

/* ---- API -------------------------------------------------------------------------------- */

StrobeMemoryGraph *
strobe_memory_view_get_graph (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->graph;
}

StrobeMemoryFigures *
strobe_memory_view_get_figures (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->figures;
}

StrobeMemoryQueries *
strobe_memory_view_get_queries (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->queries;
}

StrobeMemoryTreePanel *
strobe_memory_view_get_tree_panel (StrobeMemoryView     *self,
                                   StrobeMemoryTreeKind  kind)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return kind == STROBE_MEMORY_TREE_BOTTOM_UP ? self->bottom_up : self->top_down;
}

StrobeMemoryFunctionsPanel *
strobe_memory_view_get_callers (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->callers;
}

StrobeFlameGraph *
strobe_memory_view_get_flame (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->flame;
}

StrobeMemoryHistogram *
strobe_memory_view_get_histogram (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->histogram;
}

StrobeMemoryStackPanel *
strobe_memory_view_get_stack (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->stack;
}

GtkColumnView *
strobe_memory_view_get_sizes_table (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return self->sizes_table;
}

/* The function another view asked for (strobe_view_state_set_selected_function), selected
 * in the callers tab once the analysis has its functions (tried once then). */
static void
select_pending_function (StrobeMemoryView *self)
{
  if (self->pending_function == NULL || self->analysis == NULL)
    return;
  strobe_memory_functions_panel_select_name (self->callers, self->pending_function);
  g_clear_pointer (&self->pending_function, g_free);
}

static void
selected_function_cb (StrobeMemoryView *self)
{
  const char *function = strobe_view_state_get_selected_function (strobe_view_get_state (STROBE_VIEW (self)));

  if (function == NULL)
    return;
  g_free (self->pending_function);
  self->pending_function = g_strdup (function);
  strobe_memory_view_show_tab (self, "callers");
  select_pending_function (self);
}

void
strobe_memory_view_show_tab (StrobeMemoryView *self,
                             const char       *name)
{
  g_return_if_fail (STROBE_IS_MEMORY_VIEW (self));
  for (guint i = 0; i < G_N_ELEMENTS (tab_names); i++)
    if (g_strcmp0 (tab_names[i], name) == 0)
      gtk_notebook_set_current_page (self->tabs, (int) i);
}

gboolean
strobe_memory_view_is_analysing (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), FALSE);
  return strobe_memory_job_is_running (self->analysis_job) || self->range_source != 0 ||
         (g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "memory") == 0 && !self->analysed);
}

const char *
strobe_memory_view_get_notice (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), NULL);
  return gtk_info_bar_get_revealed (self->notice_bar) ? gtk_label_get_text (self->notice_label) : "";
}

void
strobe_memory_view_set_range_only (StrobeMemoryView *self,
                                   gboolean          selected)
{
  g_return_if_fail (STROBE_IS_MEMORY_VIEW (self));
  gtk_toggle_button_set_active (self->range_button, selected);
}

/* ---- the widget ------------------------------------------------------------------------------ */

static void
strobe_memory_view_focus_default (StrobeView *view)
{
  StrobeMemoryView *self = STROBE_MEMORY_VIEW (view);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "memory") == 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->graph));
  else
    gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
}

static void
lane_toggled_cb (GtkCheckButton   *button,
                 StrobeMemoryView *self)
{
  StrobeMemoryLane lane = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "strobe-lane"));

  strobe_memory_graph_set_lane_visible (self->graph, lane, gtk_check_button_get_active (button));
}

static void
build_lanes_menu (StrobeMemoryView *self)
{
  static const char *const titles[STROBE_MEMORY_N_LANES] = {
    N_("_Live bytes"), N_("Live _allocations"), N_("Allocation and free _rate"), N_("By _tag"), N_("By _heap"),
  };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4), *popover = gtk_popover_new ();

  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    {
      GtkWidget *check = gtk_check_button_new_with_mnemonic (_(titles[l]));
      g_autofree char *name = strobe_a11y_strip_mnemonic (_(titles[l]));

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
      g_object_set_data (G_OBJECT (check), "strobe-lane", GUINT_TO_POINTER (l));
      g_signal_connect (check, "toggled", G_CALLBACK (lane_toggled_cb), self);
      strobe_a11y_set_name (check, name);
      gtk_box_append (GTK_BOX (box), check);
    }
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (self->lanes_button, popover);
}

static void
strobe_memory_view_constructed (GObject *object)
{
  StrobeMemoryView *self = STROBE_MEMORY_VIEW (object);
  StrobeViewState *state;

  G_OBJECT_CLASS (strobe_memory_view_parent_class)->constructed (object);

  state = strobe_view_get_state (STROBE_VIEW (self));
  g_signal_connect_object (state, "notify::selection-start", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::selection-end", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::has-selection", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::selected-function", G_CALLBACK (selected_function_cb), self,
                           G_CONNECT_SWAPPED);
  update_range_label (self);
}

static void
strobe_memory_view_dispose (GObject *object)
{
  StrobeMemoryView *self = STROBE_MEMORY_VIEW (object);

  if (self->analysis_job)
    strobe_memory_job_cancel (self->analysis_job);
  g_clear_handle_id (&self->range_source, g_source_remove);
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_MEMORY_VIEW);
  g_clear_object (&self->analysis_job);
  g_clear_object (&self->analysis);
  g_clear_object (&self->names);
  g_clear_object (&self->axis);
  g_clear_object (&self->sizes_store);
  g_clear_pointer (&self->symbols_notice, g_free);
  g_clear_pointer (&self->pending_function, g_free);

  G_OBJECT_CLASS (strobe_memory_view_parent_class)->dispose (object);
}

static void
strobe_memory_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StrobeMemoryView *self = STROBE_MEMORY_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ALLOCATION: g_value_set_uint64 (value, self->selected_allocation); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_memory_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  StrobeMemoryView *self = STROBE_MEMORY_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ALLOCATION: strobe_memory_view_set_selected_allocation (self, g_value_get_uint64 (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_memory_view_class_init (StrobeMemoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StrobeViewClass *view_class = STROBE_VIEW_CLASS (klass);

  object_class->constructed = strobe_memory_view_constructed;
  object_class->dispose = strobe_memory_view_dispose;
  object_class->get_property = strobe_memory_view_get_property;
  object_class->set_property = strobe_memory_view_set_property;
  view_class->document_changed = strobe_memory_view_document_changed;
  view_class->focus_default = strobe_memory_view_focus_default;
  strobe_view_class_set_page (view_class, "memory", N_("_Memory"), "drive-harddisk-symbolic", 40);

  /**
   * StrobeMemoryView:selected-allocation:
   *
   * The allocation (the memory model's index) whose call stack is shown, or
   * STROBE_VIEW_STATE_NONE. The view's own selection: the shared view state does not
   * carry it, since no other view follows it.
   */
  properties[PROP_SELECTED_ALLOCATION] =
    g_param_spec_uint64 ("selected-allocation", NULL, NULL, 0, G_MAXUINT64, STROBE_VIEW_STATE_NONE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (STROBE_TYPE_MEMORY_GRAPH);
  g_type_ensure (STROBE_TYPE_MEMORY_FIGURES);
  g_type_ensure (STROBE_TYPE_MEMORY_QUERIES);
  g_type_ensure (STROBE_TYPE_MEMORY_FUNCTIONS_PANEL);
  g_type_ensure (STROBE_TYPE_FLAME_GRAPH);
  g_type_ensure (STROBE_TYPE_MEMORY_HISTOGRAM);
  g_type_ensure (STROBE_TYPE_MEMORY_STACK_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/memory/strobe-memory-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, notice_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, notice_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, main_paned);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, lanes_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, range_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, range_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, analysis_progress);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, graph);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, figures_scroller);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, figures);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, tabs);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, queries);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, bottom_up_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, top_down_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, callers);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, flame_cost);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, flame_reset);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, flame_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, flame);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, histogram);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, sizes_table);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, empty_title);
  gtk_widget_class_bind_template_child (widget_class, StrobeMemoryView, empty_label);
}

static void
strobe_memory_view_init (StrobeMemoryView *self)
{
  self->selected_allocation = STROBE_VIEW_STATE_NONE;
  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_a11y_fix_mnemonic_button (self->flame_reset);

  self->analysis_job = strobe_memory_job_new ();
  g_signal_connect_object (self->analysis_job, "notify::progress", G_CALLBACK (analysis_progress_cb), self,
                           G_CONNECT_SWAPPED);

  self->bottom_up = STROBE_MEMORY_TREE_PANEL (strobe_memory_tree_panel_new (_("Bottom-up call tree")));
  self->top_down = STROBE_MEMORY_TREE_PANEL (strobe_memory_tree_panel_new (_("Top-down call tree")));
  gtk_widget_set_vexpand (GTK_WIDGET (self->bottom_up), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->top_down), TRUE);
  gtk_box_append (self->bottom_up_box, GTK_WIDGET (self->bottom_up));
  gtk_box_append (self->top_down_box, GTK_WIDGET (self->top_down));
  g_signal_connect_swapped (self->bottom_up, "show-node", G_CALLBACK (bottom_up_node_cb), self);
  g_signal_connect_swapped (self->top_down, "show-node", G_CALLBACK (top_down_node_cb), self);

  self->sizes_store = g_list_store_new (STROBE_TYPE_MEMORY_COST_ITEM);
  strobe_table_add_columns (self->sizes_table, size_columns, G_N_ELEMENTS (size_columns));
  strobe_table_set_model (self->sizes_table, G_LIST_MODEL (g_object_ref (self->sizes_store)), NULL);
  {
    g_autoptr (GtkColumnViewColumn) size = g_list_model_get_item (gtk_column_view_get_columns (self->sizes_table), 0);
    gtk_column_view_sort_by_column (self->sizes_table, size, GTK_SORT_ASCENDING);
  }

  g_signal_connect_swapped (self->queries, "show-allocation", G_CALLBACK (queries_show_allocation_cb), self);
  g_signal_connect_swapped (self->queries, "show-group", G_CALLBACK (show_group_cb), self);
  g_signal_connect_swapped (self->queries, "markers-changed", G_CALLBACK (markers_changed_cb), self);
  g_signal_connect_swapped (self->callers, "show-function", G_CALLBACK (show_group_cb), self);
  g_signal_connect_swapped (self->graph, "marker-requested", G_CALLBACK (marker_requested_cb), self);
  g_signal_connect_swapped (self->figures, "go-to", G_CALLBACK (go_to_cb), self);
  g_signal_connect_swapped (self->range_button, "toggled", G_CALLBACK (range_changed_cb), self);
  g_signal_connect_swapped (self->flame_cost, "notify::selected", G_CALLBACK (flame_cost_cb), self);
  g_signal_connect_swapped (self->flame_reset, "clicked", G_CALLBACK (flame_reset_cb), self);
  {
    static const StrobeFlameGraphFuncs flame_funcs = { flame_name, flame_describe, flame_colors };
    strobe_flame_graph_set_funcs (self->flame, &flame_funcs, self, NULL);
  }
  flame_cost_cb (self);
  g_signal_connect_swapped (self->flame, "show-node", G_CALLBACK (flame_node_cb), self);
  g_signal_connect_swapped (self->flame, "notify::hover-text", G_CALLBACK (flame_hover_cb), self);
  build_lanes_menu (self);
  flame_hover_cb (self);
  strobe_a11y_name_drop_down (self->flame_cost, _("Flame graph cost"));

  strobe_pane_mark (self->toolbar);
  strobe_pane_mark (GTK_WIDGET (self->graph));
  strobe_pane_mark (self->figures_scroller);
  strobe_pane_mark (GTK_WIDGET (self->tabs));
  strobe_pane_mark (GTK_WIDGET (self->bottom_up));
  strobe_pane_mark (GTK_WIDGET (self->top_down));
  strobe_pane_mark (GTK_WIDGET (self->flame));
  strobe_pane_mark (GTK_WIDGET (self->sizes_table));
  strobe_pane_mark (GTK_WIDGET (self->stack));
}

guint64
strobe_memory_view_get_selected_allocation (StrobeMemoryView *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_VIEW (self), STROBE_VIEW_STATE_NONE);
  return self->selected_allocation;
}

void
strobe_memory_view_set_selected_allocation (StrobeMemoryView *self,
                                            guint64           index)
{
  g_return_if_fail (STROBE_IS_MEMORY_VIEW (self));

  if (index != STROBE_VIEW_STATE_NONE)
    show_allocation (self, index);
  if (self->selected_allocation == index)
    return;
  self->selected_allocation = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ALLOCATION]);
}
