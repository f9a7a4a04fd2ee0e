/* strobe-samples-panel.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-callers-panel.h"
#include "strobe-flame-graph.h"
#include "strobe-format.h"
#include "strobe-sample-roots.h"
#include "strobe-memory-symbols.h"
#include "strobe-panes.h"
#include "strobe-sample-row.h"
#include "strobe-samples-job.h"
#include "strobe-samples-panel.h"
#include "strobe-table.h"
#include "strobe-tooltip.h"
#include "strobe-view-state.h"

/* A dominated scope counts when at least this share of its samples had the function. */
#define DOMINATES 0.5
#define MAX_SCOPES 2000

typedef struct
{
  StrobeSamplesPanel *panel;
  gboolean            bottom_up;
  GtkColumnView      *view;
  GtkSingleSelection *selection;
} TreeSide;

struct _StrobeSamplesPanel
{
  GtkWidget            parent_instance;

  GtkWidget           *box;
  GtkLabel            *heading;
  GtkWidget           *cut_box;
  GtkLabel            *cut_label;
  GtkLabel            *cut_note;
  GtkWidget           *switcher;       /* rows of toggle buttons, each named as its page */
  GtkStack            *pages;
  GtkScrolledWindow   *top_down_scroller;
  GtkScrolledWindow   *bottom_up_scroller;
  GtkScrolledWindow   *flame_scroller;
  GtkBox              *callers_box;
  GtkLabel            *scopes_heading;
  GtkScrolledWindow   *scopes_scroller;

  StrobeDocument      *document;
  StrobeSampleModel   *model;
  StrobeSymbolizer    *symbolizer;
  guint                n_modules;

  TreeSide             sides[2];       /* top-down, bottom-up */
  GtkWidget           *flame;
  StrobeCallersPanel  *callers;
  GListStore          *scopes;
  GArray              *dominated;      /* StrobeDominatedScope, the scopes' rows' order */

  StrobeSamplesResult *result;
  GCancellable        *cancel;
  GCancellable        *scopes_cancel;
  guint16              thread_id;
  guint64              begin, end;
  guint64              generation;
  char                *what;
  char                *heading_text;
  guint64              chosen;
  gboolean             have_interval;
};

G_DEFINE_FINAL_TYPE (StrobeSamplesPanel, strobe_samples_panel, GTK_TYPE_WIDGET)

enum
{
  SHOW_SCOPE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- columns ------------------------------------------------------------------------------ */

#define ROW(x) STROBE_SAMPLE_ROW (x)

static char *c_name (gpointer r) { return g_strdup (strobe_sample_row_get_name (ROW (r))); }
static char *c_incl (gpointer r) { return strobe_format_count (strobe_sample_row_get_inclusive (ROW (r))); }
static char *c_self (gpointer r) { return strobe_format_count (strobe_sample_row_get_self (ROW (r))); }
static char *c_share (gpointer r) { return g_strdup_printf ("%.1f %%", 100.0 * strobe_sample_row_get_share (ROW (r))); }
static int k_name (gpointer a, gpointer b) { return strobe_table_compare_str (strobe_sample_row_get_name (ROW (a)), strobe_sample_row_get_name (ROW (b))); }
static int k_incl (gpointer a, gpointer b) { return strobe_table_compare_u64 (strobe_sample_row_get_inclusive (ROW (a)), strobe_sample_row_get_inclusive (ROW (b))); }
static int k_self (gpointer a, gpointer b) { return strobe_table_compare_u64 (strobe_sample_row_get_self (ROW (a)), strobe_sample_row_get_self (ROW (b))); }
static int
k_share (gpointer a, gpointer b)
{
  gdouble x = strobe_sample_row_get_share (ROW (a)), y = strobe_sample_row_get_share (ROW (b));
  return (x > y) - (x < y);
}

static const StrobeTableColumn call_columns[] = {
  { N_("Function"), c_name, k_name, 20, FALSE, TRUE },
  { N_("Samples"), c_incl, k_incl, 8, TRUE, FALSE },
  { N_("Share"), c_share, k_share, 6, TRUE, FALSE },
};

/* A dominated scope: name, samples with the function (inclusive) of the scope's (self). */
static const StrobeTableColumn scope_columns[] = {
  { N_("Scope"), c_name, k_name, 20, FALSE, TRUE },
  { N_("With Function"), c_incl, k_incl, 8, TRUE, FALSE },
  { N_("Scope Samples"), c_self, k_self, 8, TRUE, FALSE },
  { N_("Share"), c_share, k_share, 6, TRUE, FALSE },
};

/* ---- the trees -------------------------------------------------------------------------------- */

static StrobeCostTree *
side_tree (TreeSide *side)
{
  StrobeSamplesResult *r = side->panel->result;

  if (r == NULL)
    return NULL;
  return side->bottom_up ? r->bottom_up : strobe_sample_tree_get_tree (r->sampled);
}

static GListModel *
children_of (TreeSide *side, guint32 node)
{
  GListStore *store = g_list_store_new (STROBE_TYPE_SAMPLE_ROW);
  StrobeCostTree *tree = side_tree (side);
  g_autofree guint32 *kids = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  guint n, k;

  if (tree == NULL || (n = strobe_cost_tree_get_n_children (tree, node)) == 0)
    return G_LIST_MODEL (store);
  kids = g_new (guint32, n);
  k = strobe_cost_tree_get_children (tree, node, 0, STROBE_COST_SORT_DESCENDING | STROBE_COST_SORT_TIE_BY_KEY, 0, n,
                                     kids);
  rows = g_ptr_array_new_full (k, g_object_unref);
  for (guint i = 0; i < k; i++)
    {
      guint64 key = strobe_cost_tree_get_key (tree, kids[i]);
      g_ptr_array_add (rows, strobe_sample_row_new (strobe_samples_result_name (side->panel->result, key), key, kids[i],
                                                    strobe_cost_tree_get_n_children (tree, kids[i]),
                                                    strobe_cost_tree_get_inclusive (tree, kids[i], 0),
                                                    strobe_cost_tree_get_self (tree, kids[i], 0),
                                                    side->panel->result->total));
    }
  g_list_store_splice (store, 0, 0, rows->pdata, rows->len);
  return G_LIST_MODEL (store);
}

static GListModel *
create_model_cb (gpointer item, gpointer user_data)
{
  if (strobe_sample_row_get_n_children (ROW (item)) == 0)
    return NULL;
  return children_of (user_data, strobe_sample_row_get_node (ROW (item)));
}

static void
rebuild_side (TreeSide *side)
{
  GtkTreeListModel *model = gtk_tree_list_model_new (children_of (side, 0), FALSE, FALSE, create_model_cb, side, NULL);

  gtk_single_selection_set_model (side->selection, G_LIST_MODEL (model));
  g_object_unref (model);
  /* The heaviest path open down to its first fork, as perf report and Sysprof open. */
  for (guint position = 0, depth = 0; depth < 64; position++, depth++)
    {
      g_autoptr (GtkTreeListRow) row = gtk_tree_list_model_get_row (model, position);
      GListModel *children;

      if (row == NULL || !gtk_tree_list_row_is_expandable (row))
        break;
      gtk_tree_list_row_set_expanded (row, TRUE);
      children = gtk_tree_list_row_get_children (row);
      if (children == NULL || g_list_model_get_n_items (children) != 1)
        break;
    }
}

static StrobeSampleRow *
row_of (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
tree_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  guint col = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  GtkWidget *cell = strobe_table_cell_new (col == 0 ? 36 : 8, 3, col != 0);

  if (col == 0)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_widget_add_css_class (cell, "monospace");
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), cell);
      gtk_list_item_set_child (list_item, expander);
      return;
    }
  gtk_list_item_set_child (list_item, cell);
}

static void
tree_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  guint col = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  g_autoptr (StrobeSampleRow) row = row_of (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  if (row == NULL)
    return;
  if (col == 0)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), gtk_list_item_get_item (list_item));
      gtk_inscription_set_text (GTK_INSCRIPTION (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child))),
                                strobe_sample_row_get_name (row));
      return;
    }
  text = col == 1 ? c_incl (row) : col == 2 ? c_share (row) : c_self (row);
  gtk_inscription_set_text (GTK_INSCRIPTION (child), text);
}

static void
tree_selected_cb (GtkSingleSelection *selection, GParamSpec *pspec, TreeSide *side)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (selection);
  g_autoptr (StrobeSampleRow) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  if (item != NULL)
    strobe_samples_panel_choose (side->panel, strobe_sample_row_get_key (item));
}

static void
make_side (StrobeSamplesPanel *self, gboolean bottom_up, GtkScrolledWindow *scroller)
{
  static const char *titles[] = { N_("Function"), N_("Samples"), N_("Share"), N_("Self") };
  TreeSide *side = &self->sides[bottom_up];

  side->panel = self;
  side->bottom_up = bottom_up;
  side->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (side->selection, FALSE);
  gtk_single_selection_set_can_unselect (side->selection, TRUE);
  g_signal_connect (side->selection, "notify::selected", G_CALLBACK (tree_selected_cb), side);
  side->view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (side->selection)));
  gtk_column_view_set_show_column_separators (side->view, TRUE);
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr (GtkColumnViewColumn) column = NULL;

      g_object_set_data (G_OBJECT (factory), "strobe-column", GUINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (tree_setup_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (tree_bind_cb), self);
      column = gtk_column_view_column_new (_(titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == 0);
      gtk_column_view_append_column (side->view, column);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (side->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  bottom_up ? _("Bottom-up sampled call tree") : _("Top-down sampled call tree"), -1);
  gtk_scrolled_window_set_child (scroller, GTK_WIDGET (side->view));
}

/* ---- the flame graph --------------------------------------------------------------------------- */

static char *
flame_name (StrobeCostTree *tree, guint node, gpointer data)
{
  StrobeSamplesPanel *self = data;

  if (self->result == NULL)
    return NULL;
  return g_strdup (strobe_samples_result_name (self->result, strobe_cost_tree_get_key (tree, node)));
}

static char *
flame_describe (StrobeCostTree *tree, guint node, gpointer data)
{
  StrobeSamplesPanel *self = data;
  guint64 v = strobe_cost_tree_get_inclusive (tree, node, 0), s = strobe_cost_tree_get_self (tree, node, 0);
  guint64 all = MAX (strobe_cost_tree_get_inclusive (tree, 0, 0), 1);

  g_autofree char *vs = strobe_format_count (v), *ss = strobe_format_count (s);

  if (self->result == NULL)
    return NULL;
  /* Translators: a flame graph node: function (file:line), samples, share of the interval's, self samples */
  return g_strdup_printf (_("%s: %s samples (%.1f %%), %s self"),
                          strobe_samples_result_place (self->result, strobe_cost_tree_get_key (tree, node)), vs,
                          100.0 * (double) v / (double) all, ss);
}

/* Warm colours, a stable one per function name (so a function keeps its colour when the
 * interval changes and its key does not). */
static void
flame_colors (StrobeCostTree *tree, guint node, GdkRGBA *fill, GdkRGBA *text, gpointer data)
{
  g_autofree char *name = flame_name (tree, node, data);
  guint h = g_str_hash (name ? name : "");
  float r, g, b;

  gtk_hsv_to_rgb ((float) (h & 0xff) / 255.0f * 0.12f, 0.5f + (float) (h >> 8 & 0xff) / 255.0f * 0.25f, 0.95f,
                  &r, &g, &b);
  *fill = (GdkRGBA) { r, g, b, 1 };
  *text = (GdkRGBA) { 0.1f, 0.1f, 0.1f, 1 };
}

static void
flame_node_cb (StrobeSamplesPanel *self, guint node)
{
  StrobeCostTree *tree = strobe_flame_graph_get_tree (STROBE_FLAME_GRAPH (self->flame));

  if (tree != NULL && node != G_MAXUINT && node != 0)
    strobe_samples_panel_choose (self, strobe_cost_tree_get_key (tree, node));
}

/* ---- callers, callees and dominated scopes --------------------------------------------------- */

static GPtrArray *
call_rows (StrobeSamplesPanel *self, guint function, gboolean callers)
{
  StrobeSamplesResult *r = self->result;
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = 0;
  const guint32 *calls = callers ? strobe_cost_calls_get_callers (r->calls, function, &n)
                                 : strobe_cost_calls_get_callees (r->calls, function, &n);

  for (guint i = 0; i < n; i++)
    {
      guint other = callers ? strobe_cost_calls_get_caller (r->calls, calls[i]) : strobe_cost_calls_get_callee (r->calls, calls[i]);
      guint64 v = strobe_cost_calls_get_value (r->calls, calls[i], 0);

      g_ptr_array_add (rows, strobe_sample_row_new (g_ptr_array_index (r->names, other),
                                                    strobe_cost_calls_get_key (r->calls, other), G_MAXUINT32, 0, v, 0,
                                                    r->total));
    }
  return rows;
}

static void
update_callers (StrobeSamplesPanel *self)
{
  guint f = self->result && self->chosen != G_MAXUINT64 ? strobe_cost_calls_find (self->result->calls, self->chosen)
                                                         : G_MAXUINT;
  g_autoptr (GPtrArray) callers = NULL, callees = NULL;
  g_autofree char *heading = NULL, *incl = NULL, *excl = NULL;

  if (f == G_MAXUINT || self->chosen == 0)
    {
      strobe_callers_panel_set_calls (self->callers, _("Choose a function to see its callers and callees."), NULL, NULL);
      return;
    }
  callers = call_rows (self, f, TRUE);
  callees = call_rows (self, f, FALSE);
  incl = strobe_format_count (strobe_cost_calls_get_inclusive (self->result->calls, f, 0));
  excl = strobe_format_count (strobe_cost_calls_get_self (self->result->calls, f, 0));
  /* Translators: %s is a function; then its samples inclusive and self */
  heading = g_strdup_printf (_("Callers and callees of “%s”: %s samples, %s self"),
                             (const char *) g_ptr_array_index (self->result->places, f), incl, excl);
  strobe_callers_panel_set_calls (self->callers, heading, callers, callees);
}

typedef struct
{
  StrobeSampleModel   *model;
  StrobeMemoryModel   *stacks;
  StrobeSymbolizer    *symbolizer;
  StrobeTimelineModel *timeline;
  StrobeThreadsModel  *threads;
  guint16              thread_id;
  guint64              begin, end, key;
} ScopesJob;

static void
scopes_job_free (gpointer data)
{
  ScopesJob *j = data;

  g_clear_object (&j->model);
  g_clear_object (&j->stacks);
  g_clear_object (&j->symbolizer);
  g_clear_object (&j->timeline);
  g_clear_object (&j->threads);
  g_free (j);
}

static void
scopes_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ScopesJob *j = data;
  GError *error = NULL;
  GArray *out = strobe_samples_dominated (j->model, j->stacks, j->symbolizer, j->timeline, j->threads, j->thread_id, j->begin,
                                          j->end, j->key, DOMINATES, MAX_SCOPES, cancellable, &error);

  if (out == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, out, (GDestroyNotify) g_array_unref);
}

static void
scopes_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (StrobeSamplesPanel) self = user_data;
  g_autoptr (GArray) scopes = g_task_propagate_pointer (G_TASK (result), NULL);
  StrobeTimelineModel *timeline;
  g_autoptr (GPtrArray) rows = NULL;
  StrobeTraceClock clock;

  if (scopes == NULL || self->document == NULL)
    return;
  g_clear_object (&self->scopes_cancel);
  timeline = strobe_document_get_timeline (self->document);
  strobe_document_get_clock (self->document, &clock);
  rows = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < scopes->len; i++)
    {
      const StrobeDominatedScope *s = &g_array_index (scopes, StrobeDominatedScope, i);
      g_autofree char *at = strobe_format_duration_s (strobe_trace_clock_ticks_to_seconds (&clock, (gdouble) (s->begin - clock.base)));
      /* Translators: a scope's name and when it began */
      g_autofree char *name = g_strdup_printf (_("%s at %s"), strobe_timeline_model_get_name (timeline, s->name_id), at);

      g_ptr_array_add (rows, strobe_sample_row_new (name, i, i, 0, s->with, s->samples, s->samples));
    }
  g_clear_pointer (&self->dominated, g_array_unref);
  self->dominated = g_steal_pointer (&scopes);
  g_list_store_splice (self->scopes, 0, g_list_model_get_n_items (G_LIST_MODEL (self->scopes)), rows->pdata, rows->len);
}

/* The heading is as long as a function's name: its tooltip shows it whole. */
static void
set_scopes_heading (StrobeSamplesPanel *self, const char *text)
{
  gtk_label_set_text (self->scopes_heading, text);
  strobe_tooltip_set_text (GTK_WIDGET (self->scopes_heading), text);
}

static void
update_scopes (StrobeSamplesPanel *self)
{
  StrobeTimelineModel *timeline = self->document ? strobe_document_get_timeline (self->document) : NULL;
  g_autoptr (GTask) task = NULL;
  ScopesJob *j;

  if (self->scopes_cancel)
    g_cancellable_cancel (self->scopes_cancel);
  g_clear_object (&self->scopes_cancel);
  g_list_store_remove_all (self->scopes);
  if (self->result == NULL || self->chosen == G_MAXUINT64 || self->chosen == 0 || timeline == NULL)
    {
      const char *hint = _("Choose a function to list the scopes it dominates: those in which at least half of "
                           "the samples had it on the stack.");
      set_scopes_heading (self, hint);
      return;
    }
  {
    /* Translators: %s is a function */
    g_autofree char *text = g_strdup_printf (_("Scopes in which at least half of the samples were in “%s”"),
                                             strobe_samples_result_name (self->result, self->chosen));
    set_scopes_heading (self, text);
  }
  self->scopes_cancel = g_cancellable_new ();
  j = g_new0 (ScopesJob, 1);
  j->model = g_object_ref (self->model);
  j->stacks = g_object_ref (strobe_document_get_memory (self->document));
  j->symbolizer = g_object_ref (self->symbolizer);
  j->timeline = g_object_ref (timeline);
  j->threads = g_object_ref (strobe_document_get_threads (self->document));
  j->thread_id = self->thread_id;
  j->begin = self->begin;
  j->end = self->end;
  j->key = self->chosen;
  task = g_task_new (NULL, self->scopes_cancel, scopes_done, g_object_ref (self));
  g_task_set_task_data (task, j, scopes_job_free);
  g_task_run_in_thread (task, scopes_thread);
}

static void
scope_activated_cb (GtkColumnView *view, guint position, StrobeSamplesPanel *self)
{
  g_autoptr (StrobeSampleRow) row = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (view)), position);
  const StrobeDominatedScope *s;
  StrobeScopeRef ref;

  if (row == NULL || self->dominated == NULL || strobe_sample_row_get_key (row) >= self->dominated->len)
    return;
  s = &g_array_index (self->dominated, StrobeDominatedScope, strobe_sample_row_get_key (row));
  ref = (StrobeScopeRef) { s->thread_id, s->depth, s->name_id, s->begin, s->end };
  g_signal_emit (self, signals[SHOW_SCOPE], 0, &ref);
}

void
strobe_samples_panel_choose (StrobeSamplesPanel *self, guint64 key)
{
  g_return_if_fail (STROBE_IS_SAMPLES_PANEL (self));

  if (key == self->chosen)
    return;
  self->chosen = key;
  strobe_flame_graph_set_highlight (STROBE_FLAME_GRAPH (self->flame),
                                    key == G_MAXUINT64 ? STROBE_FLAME_GRAPH_NO_HIGHLIGHT : key);
  update_callers (self);
  update_scopes (self);
}

/* ---- computing --------------------------------------------------------------------------------- */

typedef struct
{
  StrobeSampleModel    *model;
  StrobeMemoryModel    *stacks;
  StrobeSymbolizer     *symbolizer;
  StrobeSampleInterval  interval;
} TreeJob;

static void
tree_job_free (gpointer data)
{
  TreeJob *j = data;

  g_clear_object (&j->model);
  g_clear_object (&j->stacks);
  g_clear_object (&j->symbolizer);
  g_free (j);
}

static void
tree_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TreeJob *j = data;
  GError *error = NULL;
  StrobeSamplesResult *r = strobe_samples_compute (j->model, j->stacks, j->symbolizer, &j->interval, 1,
                                                   cancellable, &error);

  if (r == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, r, (GDestroyNotify) strobe_samples_result_free);
}

/* @note: why the stacks are cut and what to do (NULL: they are whole), told with a short
 * line and a Why? button; the accessible description and the heading's text hold it all. */
static void
set_heading_cut (StrobeSamplesPanel *self, const char *text, const char *note, gdouble cut_share)
{
  g_free (self->heading_text);
  self->heading_text = note ? g_strconcat (text, "\n", note, NULL) : g_strdup (text);
  gtk_label_set_text (self->heading, text);
  gtk_widget_set_visible (self->cut_box, note != NULL);
  if (note != NULL)
    {
      g_autofree char *headline = strobe_sample_cut_headline (cut_share);

      gtk_label_set_text (self->cut_label, headline);
      gtk_label_set_text (self->cut_note, note);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->heading_text, -1);
}

static void
set_heading (StrobeSamplesPanel *self, const char *text)
{
  set_heading_cut (self, text, NULL, 0);
}

static void
show_result (StrobeSamplesPanel *self, StrobeSamplesResult *r)
{
  StrobeSampleStatus status = { 0 };
  g_autofree char *mode = NULL, *count = NULL, *text = NULL;

  strobe_samples_result_free (self->result);
  self->result = r;
  self->chosen = G_MAXUINT64;
  rebuild_side (&self->sides[0]);
  rebuild_side (&self->sides[1]);
  strobe_flame_graph_set_tree (STROBE_FLAME_GRAPH (self->flame), r ? strobe_sample_tree_get_tree (r->sampled) : NULL,
                               0, STROBE_COST_SORT_TIE_BY_KEY);
  update_callers (self);
  update_scopes (self);
  if (r == NULL)
    return;
  if (strobe_sample_model_get_status (self->model, &status))
    mode = strobe_sample_status_describe (&status);
  strobe_sample_status_clear (&status);
  count = strobe_format_count (r->total);
  /* Translators: what was selected, how many samples fell in it, and how it was sampled */
  text = g_strdup_printf (_("%s: %s samples (%s)"), self->what, count, mode ? mode : "");
  if (r->cut_share >= STROBE_SAMPLE_CUT_SHARE_NOTE)
    {
      g_autofree char *note = strobe_sample_cut_note (self->model, r->cut_share);

      set_heading_cut (self, text, note, MIN (r->cut_share, 1.0));
      return;
    }
  set_heading (self, text);
}

static void
tree_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (StrobeSamplesPanel) self = user_data;
  StrobeSamplesResult *r = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Cancelled: a newer interval's job is on its way (or the panel went away). */
  if (r == NULL || self->document == NULL)
    return;
  g_clear_object (&self->cancel);
  show_result (self, r);
}

/* Why there is nothing to show, or NULL when there are samples to compute. */
static char *
why_empty (StrobeSamplesPanel *self, guint32 *system_id)
{
  StrobeSampleStatus status = { 0 };
  StrobeSampleSummary summary;
  g_autofree char *said = NULL;

  if (self->model == NULL || !strobe_sample_model_get_status (self->model, &status))
    return g_strdup (_("No samples in this trace: the program’s Sampling channel was never on. Turn it on with "
                       "--trace=sampling, STROBE_TRACE=sampling, strobe-cli run --sample, or the channels panel "
                       "while the program runs."));
  said = strobe_sample_status_describe (&status);
  strobe_sample_model_get_summary (self->model, &summary);
  if ((status.mode == STROBE_SAMPLE_MODE_NOT_PERMITTED || status.mode == STROBE_SAMPLE_MODE_UNAVAILABLE)
      && summary.samples == 0)
    {
      strobe_sample_status_clear (&status);
      /* Translators: %s is why (strobe_sample_status_describe: which setting, what to do) */
      return g_strdup_printf (_("No samples: %s"), said);
    }
  strobe_sample_status_clear (&status);
  *system_id = self->thread_id ? (guint32) strobe_threads_model_get_system_id (strobe_document_get_threads (self->document),
                                                                               self->thread_id)
                                : 0;
  if (self->thread_id && *system_id == 0)
    /* Translators: %s is what was selected */
    return g_strdup_printf (_("%s: this thread was not sampled (its samples carry no thread the trace names)"),
                            self->what);
  return NULL;
}

static void
compute (StrobeSamplesPanel *self)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *empty = NULL;
  g_autoptr (GPtrArray) modules = NULL;
  StrobeMemoryModel *stacks = self->document ? strobe_document_get_memory (self->document) : NULL;
  guint32 system_id = 0;
  TreeJob *j;

  if (self->cancel)
    g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  if ((empty = why_empty (self, &system_id)) != NULL || stacks == NULL)
    {
      show_result (self, NULL);
      set_heading (self, empty ? empty : _("No samples: this trace was opened without its stacks."));
      return;
    }
  /* Modules come with the first stacks: a symbolizer made before knows none of them. */
  modules = strobe_memory_model_get_modules (stacks);
  if (self->symbolizer == NULL || modules->len != self->n_modules)
    {
      g_clear_object (&self->symbolizer);
      self->symbolizer = strobe_memory_symbolizer_new (stacks);
      self->n_modules = modules->len;
    }
  self->generation = strobe_sample_model_get_generation (self->model);
  self->cancel = g_cancellable_new ();
  j = g_new0 (TreeJob, 1);
  j->model = g_object_ref (self->model);
  j->stacks = g_object_ref (stacks);
  j->symbolizer = g_object_ref (self->symbolizer);
  j->interval = (StrobeSampleInterval) { system_id, self->begin, self->end };
  task = g_task_new (NULL, self->cancel, tree_done, g_object_ref (self));
  g_task_set_task_data (task, j, tree_job_free);
  g_task_run_in_thread (task, tree_thread);
}

void
strobe_samples_panel_show (StrobeSamplesPanel *self, guint16 thread_id, guint64 begin, guint64 end, const char *what)
{
  g_return_if_fail (STROBE_IS_SAMPLES_PANEL (self));
  g_return_if_fail (begin <= end);

  if (self->have_interval && thread_id == self->thread_id && begin == self->begin && end == self->end
      && g_strcmp0 (what, self->what) == 0 && self->model
      && strobe_sample_model_get_generation (self->model) == self->generation && (self->result || self->cancel))
    return;
  self->have_interval = TRUE;
  self->thread_id = thread_id;
  self->begin = begin;
  self->end = end;
  g_free (self->what);
  self->what = g_strdup (what ? what : "");
  compute (self);
}

/* ---- the widget ---------------------------------------------------------------------------------- */

gboolean
strobe_samples_panel_is_busy (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), FALSE);
  return self->cancel != NULL || self->scopes_cancel != NULL;
}

const char *
strobe_samples_panel_get_heading (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return self->heading_text;
}

const char *
strobe_samples_panel_get_cut_line (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return gtk_widget_get_visible (self->cut_box) ? gtk_label_get_text (self->cut_label) : NULL;
}

const char *
strobe_samples_panel_get_cut_note (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return gtk_widget_get_visible (self->cut_box) ? gtk_label_get_text (self->cut_note) : NULL;
}

guint64
strobe_samples_panel_get_total (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), 0);
  return self->result ? self->result->total : 0;
}

GtkColumnView *
strobe_samples_panel_get_tree_view (StrobeSamplesPanel *self, gboolean bottom_up)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return self->sides[bottom_up != FALSE].view;
}

GtkWidget *
strobe_samples_panel_get_flame (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return self->flame;
}

GtkWidget *
strobe_samples_panel_get_callers (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return GTK_WIDGET (self->callers);
}

GListModel *
strobe_samples_panel_get_scopes (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return G_LIST_MODEL (self->scopes);
}

GtkStack *
strobe_samples_panel_get_pages (StrobeSamplesPanel *self)
{
  g_return_val_if_fail (STROBE_IS_SAMPLES_PANEL (self), NULL);
  return self->pages;
}

static void
strobe_samples_panel_dispose (GObject *object)
{
  StrobeSamplesPanel *self = STROBE_SAMPLES_PANEL (object);

  if (self->cancel)
    g_cancellable_cancel (self->cancel);
  if (self->scopes_cancel)
    g_cancellable_cancel (self->scopes_cancel);
  g_clear_object (&self->cancel);
  g_clear_object (&self->scopes_cancel);
  /* The column views own the selections (and outlive this dispose for a moment). */
  for (guint i = 0; i < G_N_ELEMENTS (self->sides); i++)
    if (self->sides[i].selection)
      g_signal_handlers_disconnect_by_data (self->sides[i].selection, &self->sides[i]);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_SAMPLES_PANEL);
  g_clear_object (&self->document);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (strobe_samples_panel_parent_class)->dispose (object);
}

static void
strobe_samples_panel_finalize (GObject *object)
{
  StrobeSamplesPanel *self = STROBE_SAMPLES_PANEL (object);

  g_clear_pointer (&self->result, strobe_samples_result_free);
  g_clear_pointer (&self->dominated, g_array_unref);
  g_clear_object (&self->symbolizer);
  g_clear_object (&self->scopes);
  g_free (self->what);
  g_free (self->heading_text);
  G_OBJECT_CLASS (strobe_samples_panel_parent_class)->finalize (object);
}

/* A page's button pressed: its page shows. */
static void
page_toggled (GtkToggleButton *button)
{
  GtkWidget *panel = gtk_widget_get_ancestor (GTK_WIDGET (button), STROBE_TYPE_SAMPLES_PANEL);

  if (panel && gtk_toggle_button_get_active (button))
    gtk_stack_set_visible_child_name (STROBE_SAMPLES_PANEL (panel)->pages, gtk_widget_get_name (GTK_WIDGET (button)));
}

/* A page shown by code (a test, a screenshot): its button is the pressed one. */
static void
page_shown (StrobeSamplesPanel *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->pages);

  for (GtkWidget *row = gtk_widget_get_first_child (self->switcher); row; row = gtk_widget_get_next_sibling (row))
    for (GtkWidget *b = gtk_widget_get_first_child (row); b; b = gtk_widget_get_next_sibling (b))
      if (g_strcmp0 (gtk_widget_get_name (b), name) == 0)
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (b), TRUE);
}

static void
strobe_samples_panel_class_init (StrobeSamplesPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_samples_panel_dispose;
  object_class->finalize = strobe_samples_panel_finalize;
  /**
   * StrobeSamplesPanel::show-scope:
   * @ref: a StrobeScopeRef: a scope instance the chosen function dominates, to show
   */
  signals[SHOW_SCOPE] = g_signal_new ("show-scope", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                      NULL, G_TYPE_NONE, 1, STROBE_TYPE_SCOPE_REF);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-samples-panel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/samples/strobe-samples-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, box);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, heading);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, cut_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, cut_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, cut_note);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, switcher);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, pages);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, top_down_scroller);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, bottom_up_scroller);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, flame_scroller);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, callers_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, scopes_heading);
  gtk_widget_class_bind_template_child (widget_class, StrobeSamplesPanel, scopes_scroller);
  gtk_widget_class_bind_template_callback (widget_class, page_toggled);
  gtk_widget_class_bind_template_callback (widget_class, page_shown);
}

static void
strobe_samples_panel_init (StrobeSamplesPanel *self)
{
  GtkWidget *scopes_view;

  self->chosen = G_MAXUINT64;
  gtk_widget_init_template (GTK_WIDGET (self));
  make_side (self, FALSE, self->top_down_scroller);
  make_side (self, TRUE, self->bottom_up_scroller);

  self->flame = g_object_new (STROBE_TYPE_FLAME_GRAPH, "show-ancestors", TRUE, "has-tooltip", TRUE, NULL);
  {
    static const StrobeFlameGraphFuncs funcs = { flame_name, flame_describe, flame_colors };
    strobe_flame_graph_set_funcs (STROBE_FLAME_GRAPH (self->flame), &funcs, self, NULL);
  }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->flame), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Sampled flame graph"), -1);
  g_signal_connect_swapped (self->flame, "show-node", G_CALLBACK (flame_node_cb), self);
  gtk_scrolled_window_set_child (self->flame_scroller, self->flame);

  self->callers = STROBE_CALLERS_PANEL (strobe_callers_panel_new (STROBE_TYPE_SAMPLE_ROW, call_columns,
                                                                  G_N_ELEMENTS (call_columns), 1,
                                                                  GTK_ORIENTATION_VERTICAL, _("Callers"),
                                                                  _("Callees")));
  gtk_widget_set_vexpand (GTK_WIDGET (self->callers), TRUE);
  gtk_box_append (self->callers_box, GTK_WIDGET (self->callers));

  self->scopes = g_list_store_new (STROBE_TYPE_SAMPLE_ROW);
  scopes_view = gtk_column_view_new (NULL);
  strobe_table_add_columns (GTK_COLUMN_VIEW (scopes_view), scope_columns, G_N_ELEMENTS (scope_columns));
  strobe_table_set_model (GTK_COLUMN_VIEW (scopes_view), g_object_ref (G_LIST_MODEL (self->scopes)), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (scopes_view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Scopes the function dominates"), -1);
  g_signal_connect (scopes_view, "activate", G_CALLBACK (scope_activated_cb), self);
  gtk_scrolled_window_set_child (self->scopes_scroller, scopes_view);

  update_callers (self);
  update_scopes (self);
  set_heading (self, _("Select a scope or a range on the timeline to see what the CPU was doing in it."));
}

GtkWidget *
strobe_samples_panel_new (StrobeDocument *document)
{
  StrobeSamplesPanel *self;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);
  self = g_object_new (STROBE_TYPE_SAMPLES_PANEL, NULL);
  self->document = g_object_ref (document);
  self->model = strobe_document_get_model (document, STROBE_TYPE_SAMPLE_MODEL);
  if (self->model)
    g_object_ref (self->model);
  return GTK_WIDGET (self);
}
