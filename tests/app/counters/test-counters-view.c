/* test-counters-view.c
 *
 * Layout in test-counters-view.ui; here only what is shown: a row per counter, refreshed
 * whenever the document says it grew.
 *
 * SPDX-License-Identifier: MIT
 */
#include "test-counters-view.h"
#include "test-counters-model.h"
#include "strobe-table.h"

/* One table row: a counter as the model last reported it. */
#define TEST_TYPE_COUNTER_ROW (test_counter_row_get_type ())
G_DECLARE_FINAL_TYPE (TestCounterRow, test_counter_row, TEST, COUNTER_ROW, GObject)

struct _TestCounterRow
{
  GObject     parent_instance;
  TestCounter counter;
};

G_DEFINE_FINAL_TYPE (TestCounterRow, test_counter_row, G_TYPE_OBJECT)

/* "samples": the table's cells follow an item's notify, so a row that is told of more
 * samples repaints in place and keeps the selection. */
enum { ROW_PROP_SAMPLES = 1, ROW_N_PROPS };
static GParamSpec *row_props[ROW_N_PROPS];

static void
test_counter_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (prop_id == ROW_PROP_SAMPLES)
    g_value_set_uint64 (value, TEST_COUNTER_ROW (object)->counter.samples);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
test_counter_row_finalize (GObject *object)
{
  g_free (TEST_COUNTER_ROW (object)->counter.name);
  G_OBJECT_CLASS (test_counter_row_parent_class)->finalize (object);
}

static void
test_counter_row_class_init (TestCounterRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = test_counter_row_get_property;
  object_class->finalize = test_counter_row_finalize;
  row_props[ROW_PROP_SAMPLES] = g_param_spec_uint64 ("samples", NULL, NULL, 0, G_MAXUINT64, 0,
                                                     G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_props);
}

static void
test_counter_row_init (TestCounterRow *self)
{
}

/* Takes @counter's name. */
static void
test_counter_row_set (TestCounterRow *self, TestCounter *counter)
{
  gboolean changed = self->counter.samples != counter->samples || g_strcmp0 (self->counter.name, counter->name) != 0;

  g_free (self->counter.name);
  self->counter = *counter;
  counter->name = NULL;
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), row_props[ROW_PROP_SAMPLES]);
}

#define ROW(item) (&TEST_COUNTER_ROW (item)->counter)

static char *row_name (gpointer item) { return g_strdup (ROW (item)->name); }
static char *row_samples (gpointer item) { return g_strdup_printf ("%" G_GUINT64_FORMAT, ROW (item)->samples); }
static char *row_last (gpointer item) { return g_strdup_printf ("%g", ROW (item)->last); }
static char *row_min (gpointer item) { return g_strdup_printf ("%g", ROW (item)->min); }
static char *row_max (gpointer item) { return g_strdup_printf ("%g", ROW (item)->max); }

static int
row_cmp_name (gpointer a, gpointer b)
{
  return strobe_table_compare_str (ROW (a)->name, ROW (b)->name);
}

static const StrobeTableColumn columns[] = {
  { "Counter", row_name, row_cmp_name, 24, FALSE, TRUE, NULL },
  { "Samples", row_samples, NULL, 8, TRUE, FALSE, NULL },
  { "Last", row_last, NULL, 10, TRUE, FALSE, NULL },
  { "Min", row_min, NULL, 10, TRUE, FALSE, NULL },
  { "Max", row_max, NULL, 10, TRUE, FALSE, NULL },
};

struct _TestCountersView
{
  StrobeView          parent_instance;

  TestCountersModel  *model;       /* the document's; NULL if named too late */
  GListStore         *rows;        /* TestCounterRow */
  GtkSingleSelection *selection;   /* the view's own: nobody else follows it */
  GtkColumnView      *table;
  GtkStack           *stack;
};

G_DEFINE_FINAL_TYPE (TestCountersView, test_counters_view, STROBE_TYPE_VIEW)

static void
refresh (TestCountersView *self)
{
  g_autoptr(GArray) counters = NULL;

  if (self->model == NULL)
    return;
  counters = test_counters_model_dup_counters (self->model);
  /* Counters only come, never go: the rows there are updated in place. */
  for (guint i = 0; i < counters->len; i++)
    {
      g_autoptr(TestCounterRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), i);

      if (row == NULL)
        {
          row = g_object_new (TEST_TYPE_COUNTER_ROW, NULL);
          g_list_store_append (self->rows, row);
        }
      test_counter_row_set (row, &g_array_index (counters, TestCounter, i));
    }
  gtk_stack_set_visible_child_name (self->stack, counters->len > 0 ? "table" : "empty");
}

static void
test_counters_view_document_changed (StrobeView            *view,
                                     StrobeDocumentChanges  changes)
{
  refresh (TEST_COUNTERS_VIEW (view));
}

static void
test_counters_view_constructed (GObject *object)
{
  TestCountersView *self = TEST_COUNTERS_VIEW (object);

  G_OBJECT_CLASS (test_counters_view_parent_class)->constructed (object);
  /* The one line that brings the model: the document makes and feeds it. */
  self->model = strobe_document_get_model (strobe_view_get_document (STROBE_VIEW (self)),
                                           TEST_TYPE_COUNTERS_MODEL);
  refresh (self);
}

static void
test_counters_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TEST_TYPE_COUNTERS_VIEW);
  G_OBJECT_CLASS (test_counters_view_parent_class)->dispose (object);
}

static void
test_counters_view_class_init (TestCountersViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StrobeViewClass *view_class = STROBE_VIEW_CLASS (klass);

  object_class->constructed = test_counters_view_constructed;
  object_class->dispose = test_counters_view_dispose;
  view_class->document_changed = test_counters_view_document_changed;
  strobe_view_class_set_page (view_class, "counters", "_Counters", "utilities-system-monitor-symbolic", 90);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Tests/counters/test-counters-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TestCountersView, table);
  gtk_widget_class_bind_template_child (widget_class, TestCountersView, stack);
}

static void
test_counters_view_init (TestCountersView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_table_add_columns (self->table, columns, G_N_ELEMENTS (columns));
  self->rows = g_list_store_new (TEST_TYPE_COUNTER_ROW);
  self->selection = strobe_table_set_model (self->table, G_LIST_MODEL (self->rows), NULL);
}

char **
test_counters_view_dup_rows (TestCountersView *self)
{
  GListModel *model;
  g_autoptr(GStrvBuilder) rows = g_strv_builder_new ();

  g_return_val_if_fail (TEST_IS_COUNTERS_VIEW (self), NULL);

  model = G_LIST_MODEL (self->selection);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      g_autofree char *samples = row_samples (item), *last = row_last (item);
      g_autofree char *min = row_min (item), *max = row_max (item);
      g_autofree char *line = g_strjoin ("|", ROW (item)->name, samples, last, min, max, NULL);

      g_strv_builder_add (rows, line);
    }
  return g_strv_builder_end (rows);
}

const char *
test_counters_view_get_selected (TestCountersView *self)
{
  gpointer item;

  g_return_val_if_fail (TEST_IS_COUNTERS_VIEW (self), NULL);
  item = gtk_single_selection_get_selected_item (self->selection);
  return item ? ROW (item)->name : NULL;
}
