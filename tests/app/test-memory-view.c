/* test-memory-view.c — the memory view in the real viewer under Xvfb: the golden trace's
 * known patterns read from the query table (leaks, live at A, growth, freed, short- and
 * long-lived ones, grouped and sorted) against brute-force counts of the model's records;
 * the summary; the graph's values, keyboard, drag and markers; call trees, caller/callee,
 * flame graph and sizes of a trace with call stacks, over the whole trace and a selected
 * range; the symbolized call stack, copied and opened with the editor command; partial,
 * cut-off, damaged and memory-less traces; accessibility (roles, names, F6); a PNG
 * snapshot of the graphs within a tolerance (the actual image is written on failure).
 *
 * The traces: tests/data/golden-memview.strobe, and the same program
 * (tests/memory/memview-emitter) run here with --stacks and with --late.
 *
 * With STROBE_SCREENSHOT_DIR set, the window is saved as PNGs at the interesting moments;
 * with STROBE_UPDATE_SNAPSHOT=1 the graph's expected image is written anew.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <gtk/gtk.h>

#include "memory-common.h"
#include "tab-walk.h"
#include "strobe-application.h"
#include "strobe-document-view.h"
#include "strobe-log-item.h"
#include "strobe-log-rows.h"
#include "strobe-memory-alloc-rows.h"
#include "strobe-memory-budget.h"
#include "strobe-memory-graph-private.h"
#include "strobe-memory-items.h"
#include "strobe-memory-view.h"
#include "strobe-panes.h"
#include "strobe-window.h"
#include "test-dirs.h"
#include "widget-find.h"

static StrobeApplication *the_app;
static char *work_dir;
static char *golden_path;
static char *stacks_path;
static char *late_path;
static char *python_path;   /* NULL: no python3 here, or a sanitizer build */
static char *demo_all_path;

/* ---- helpers ------------------------------------------------------------------------------- */

typedef gboolean (*Condition) (gpointer data);

#define wait_for(cond, data) wait_for_named (cond, data, #cond)

static void
wait_for_named (Condition cond, gpointer data, const char *name)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting for the UI: %s", name);
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
}

static void
screenshot (GtkWidget *window, const char *name)
{
  const char *dir = g_getenv ("STROBE_SCREENSHOT_DIR");
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  memory_iterate (100);
  texture = widget_render (window);
  path = g_strdup_printf ("%s/%s.png", dir, name);
  gdk_texture_save_to_png (texture, path);
  g_test_message ("screenshot: %s", path);
}

typedef struct
{
  StrobeWindow       *window;
  StrobeDocumentView *page;
  StrobeMemoryView   *view;
  StrobeViewState    *state;
  StrobeDocument     *document;
  StrobeMemoryModel  *model;
  MemoryFixture       mf;   /* for settling */
} Fixture;

static gboolean
document_loaded (gpointer data)
{
  StrobeDocument *document = strobe_window_get_current_document (data);

  return document != NULL && strobe_document_is_loaded (document);
}

static void
settle (Fixture *f)
{
  g_assert_true (memory_fixture_settle (&f->mf, 30));
}

static void
open_trace (Fixture *f, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  f->window = strobe_window_new (GTK_APPLICATION (the_app), strobe_application_get_services (the_app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1300, 1150);
  gtk_window_present (GTK_WINDOW (f->window));
  strobe_window_open_file (f->window, file);
  wait_for (document_loaded, f->window);
  f->page = STROBE_DOCUMENT_VIEW (find_type (GTK_WIDGET (f->window), STROBE_TYPE_DOCUMENT_VIEW));
  /* The view registers itself: the page has it. */
  g_assert_true (strobe_document_view_show_view (f->page, "memory"));
  f->view = STROBE_MEMORY_VIEW (strobe_document_view_get_view (f->page, "memory"));
  g_assert_nonnull (f->view);
  f->state = strobe_document_view_get_state (f->page);
  f->document = strobe_document_view_get_document (f->page);
  f->model = strobe_document_get_memory (f->document);
  f->mf.view = f->view;
  f->mf.window = GTK_WINDOW (f->window);
  settle (f);
}

static void
close_all (Fixture *f)
{
  GList *toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    g_object_ref (l->data);
  for (GList *l = toplevels; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free_full (toplevels, g_object_unref);
  memory_iterate (20);
}

static StrobeMemoryAlloc
get (StrobeMemoryModel *m, guint64 i)
{
  StrobeMemoryAlloc r;

  g_assert_true (strobe_memory_model_get_alloc (m, i, &r));
  return r;
}

static GListModel *
table_model (Fixture *f)
{
  return G_LIST_MODEL (gtk_column_view_get_model (strobe_memory_queries_get_table (strobe_memory_view_get_queries (f->view))));
}

static void
run_query (Fixture *f, StrobeMemorySelect kind, guint64 a, guint64 b, guint64 c)
{
  StrobeMemoryQueries *q = strobe_memory_view_get_queries (f->view);

  strobe_memory_queries_set_kind (q, kind);
  strobe_memory_queries_set_marker (q, 0, a);
  strobe_memory_queries_set_marker (q, 1, b);
  if (kind == STROBE_MEMORY_SELECT_SHORT_LIVED || kind == STROBE_MEMORY_SELECT_LONG_LIVED)
    strobe_memory_queries_set_lifetime (q, c);
  else
    strobe_memory_queries_set_marker (q, 2, c);
  strobe_memory_queries_run (q);
  settle (f);
}

/* The rows a query must list, counted from the records, and their bytes. */
static guint64
brute_select (StrobeMemoryModel *m, StrobeMemorySelect kind, guint64 a, guint64 b, guint64 c, guint64 *bytes)
{
  guint64 n = strobe_memory_model_get_count (m), count = 0;

  *bytes = 0;
  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r = get (m, i);
      gboolean freed = r.free_time != STROBE_MEMORY_LIVE, in = r.alloc_time >= a && r.alloc_time <= b, take;

      switch (kind)
        {
        case STROBE_MEMORY_SELECT_LIVE_AT: take = r.alloc_time <= a && r.free_time > a; break;
        case STROBE_MEMORY_SELECT_ALLOCATED: take = in; break;
        case STROBE_MEMORY_SELECT_ALLOCATED_LIVE: take = in && r.alloc_time <= c && r.free_time > c; break;
        case STROBE_MEMORY_SELECT_FREED: take = freed && r.free_time >= a && r.free_time <= b; break;
        case STROBE_MEMORY_SELECT_LEAKS: take = !freed; break;
        case STROBE_MEMORY_SELECT_SHORT_LIVED: take = in && freed && r.free_time - r.alloc_time <= c; break;
        case STROBE_MEMORY_SELECT_LONG_LIVED: take = in && (!freed || r.free_time - r.alloc_time > c); break;
        default: take = FALSE; break;
        }
      /* The emitter's pool slab and arena chunk (heap 0 at SLAB_BASE and CHUNK_BASE of
       * memview-emitter.c) back a heap from right after they are allocated until right
       * before they are freed: an allocation each, but their bytes are those allocated
       * in them. */
      if (take)
        {
          count++;
          if (!(r.heap == 0 && (r.address == 0x500000 || r.address == 0x600000)))
            *bytes += r.size;
        }
    }
  return count;
}

static char *
totals_text (guint64 count, guint64 bytes)
{
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  g_autofree char *size = g_format_size (bytes);
  GString *b = g_string_new (NULL);
  char digits[32];
  int len = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, bytes);

  /* strobe_format_count in the C locale: a narrow no-break space every three digits. */
  for (int i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (b, "\u202f");
      g_string_append_c (b, digits[i]);
    }
  if (count >= 1000)
    {
      g_free (n);
      n = g_strdup_printf ("%" G_GUINT64_FORMAT "\u202f%03" G_GUINT64_FORMAT, count / 1000, count % 1000);
    }
  return g_strdup_printf ("%s allocation%s, %s bytes (%s)", n, count == 1 ? "" : "s", b->str, size);
}

/* A query the memory left would not hold says so where its totals would be, and the
 * answer before it goes (it was another query's); an answer too big to sort is shown in
 * its own order, saying why. The machine is a meminfo of the test's: 16 kB, none of it
 * available — answers up to a 256th of it, 64 bytes, are still made. */
static void
on_rows_changed (GListModel *model, guint position, guint removed, guint added, gpointer user)
{
  guint *replaced = user;

  if (removed > 0 && added > 0)
    (*replaced)++;
}

/* A new answer replaces the rows shown as a removal, then an addition: told of one
 * replacement, GTK's list view looks for the rows it showed among every added one. */
static void
test_replace_rows (void)
{
  Fixture f = { 0 };
  StrobeMemorySummary s;
  guint replaced = 0;
  gulong id;

  open_trace (&f, golden_path);
  strobe_memory_model_get_summary (f.model, &s);
  run_query (&f, STROBE_MEMORY_SELECT_LEAKS, 0, 0, 0);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, 10);
  id = g_signal_connect (table_model (&f), "items-changed", G_CALLBACK (on_rows_changed), &replaced);
  run_query (&f, STROBE_MEMORY_SELECT_ALLOCATED, s.first_time, s.last_time, 0);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, s.allocs);
  run_query (&f, STROBE_MEMORY_SELECT_LEAKS, 0, 0, 0);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, 10);
  g_signal_handler_disconnect (table_model (&f), id);
  g_assert_cmpuint (replaced, ==, 0);
  close_all (&f);
}

static void
test_query_no_room (void)
{
  Fixture f = { 0 };
  g_autofree char *dir = g_dir_make_tmp ("test-memory-view-XXXXXX", NULL);
  g_autofree char *meminfo = g_build_filename (dir, "meminfo", NULL);
  const char *unsorted = "Not sorted: not enough memory to sort this many allocations";
  StrobeMemoryQueries *q;
  GtkColumnView *table;
  StrobeMemorySummary s;
  g_autoptr (GtkColumnViewColumn) size = NULL;

  open_trace (&f, golden_path);
  q = strobe_memory_view_get_queries (f.view);
  table = strobe_memory_queries_get_table (q);
  size = g_list_model_get_item (gtk_column_view_get_columns (table), 1);
  strobe_memory_model_get_summary (f.model, &s);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, 10);
  g_assert_true (g_file_set_contents (meminfo, "MemTotal: 16 kB\nMemAvailable: 0 kB\n", -1, NULL));
  strobe_memory_budget_set_test_meminfo (meminfo);

  /* Every allocation (1 180): refused at the first look, 1 024 in. */
  run_query (&f, STROBE_MEMORY_SELECT_ALLOCATED, s.first_time, s.last_time, 0);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, 0);
  g_assert_cmpstr (strobe_memory_queries_get_totals_text (q), ==,
                   "Not enough memory for this list: choose a shorter range or another query");
  screenshot (GTK_WIDGET (f.window), "memory-no-room");

  /* The leaks by size: listed, not sorted (10 × 20 bytes), in allocation order. */
  run_query (&f, STROBE_MEMORY_SELECT_LEAKS, 0, 0, 0);
  gtk_column_view_sort_by_column (table, size, GTK_SORT_DESCENDING);
  settle (&f);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, 10);
  g_assert_cmpuint (count_text (GTK_WIDGET (q), unsorted), ==, 1);
  for (guint i = 1; i < 10; i++)
    {
      g_autoptr (StrobeMemoryAllocItem) a = g_list_model_get_item (table_model (&f), i - 1);
      g_autoptr (StrobeMemoryAllocItem) b = g_list_model_get_item (table_model (&f), i);

      g_assert_cmpuint (strobe_memory_alloc_item_get_index (a), <, strobe_memory_alloc_item_get_index (b));
    }

  /* With memory again, the same click sorts and the notice goes. */
  strobe_memory_budget_set_test_meminfo (NULL);
  gtk_column_view_sort_by_column (table, NULL, GTK_SORT_ASCENDING);
  settle (&f);
  gtk_column_view_sort_by_column (table, size, GTK_SORT_DESCENDING);
  settle (&f);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, 10);
  g_assert_cmpuint (count_text (GTK_WIDGET (q), unsorted), ==, 0);
  gtk_column_view_sort_by_column (table, NULL, GTK_SORT_ASCENDING);
  settle (&f);
  close_all (&f);
  g_unlink (meminfo);
  g_rmdir (dir);
}

/* ---- the golden trace through the table ------------------------------------------------------- */

static void
test_golden_table (void)
{
  Fixture f = { 0 };
  StrobeMemoryQueries *q;
  GtkWidget *table;
  StrobeMemorySummary s;
  g_autofree char *leak_totals = NULL, *peak_totals = NULL;
  guint64 n, bytes, a, b, c, span;

  open_trace (&f, golden_path);
  q = strobe_memory_view_get_queries (f.view);
  table = GTK_WIDGET (strobe_memory_queries_get_table (q));
  strobe_memory_model_get_summary (f.model, &s);

  /* The first answer, without asking: the leaks. Ten blocks of 1 234 bytes, tag Leaky. */
  g_assert_cmpint (strobe_memory_queries_get_kind (q), ==, STROBE_MEMORY_SELECT_LEAKS);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, 10);
  g_assert_cmpuint (count_text (table, "1\u202f234"), ==, 10);
  g_assert_cmpuint (count_text (table, "Leaky"), ==, 10);
  g_assert_cmpuint (count_text (table, "System"), ==, 10);
  g_assert_cmpuint (count_text (table, "main"), ==, 10);
  leak_totals = totals_text (10, 12340);
  g_assert_cmpstr (strobe_memory_queries_get_totals_text (q), ==, leak_totals);
  g_assert_cmpstr (strobe_memory_queries_get_totals_text (q), ==, "10 allocations, 12\u202f340 bytes (12.3\u00a0kB)");
  screenshot (GTK_WIDGET (f.window), "memory-leaks");

  /* Every other query against a recount of the records. */
  span = s.last_time - s.first_time;
  a = s.first_time + span / 4;
  b = s.first_time + span / 2;
  c = s.first_time + 3 * span / 4;
  {
    static const StrobeMemorySelect kinds[] = {
      STROBE_MEMORY_SELECT_LIVE_AT, STROBE_MEMORY_SELECT_ALLOCATED, STROBE_MEMORY_SELECT_ALLOCATED_LIVE,
      STROBE_MEMORY_SELECT_FREED, STROBE_MEMORY_SELECT_SHORT_LIVED, STROBE_MEMORY_SELECT_LONG_LIVED,
    };

    for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
      {
        guint64 cc = kinds[k] == STROBE_MEMORY_SELECT_SHORT_LIVED || kinds[k] == STROBE_MEMORY_SELECT_LONG_LIVED
                     ? span / 100 : c;
        g_autofree char *want = NULL;

        run_query (&f, kinds[k], a, b, cc);
        n = brute_select (f.model, kinds[k], a, b, cc, &bytes);
        g_assert_cmpuint (n, >, 0);
        g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, n);
        want = totals_text (n, bytes);
        g_assert_cmpstr (strobe_memory_queries_get_totals_text (q), ==, want);
      }
  }
  /* Live at the peak: everything held then, as much as the peak. */
  run_query (&f, STROBE_MEMORY_SELECT_LIVE_AT, s.peak_time, s.peak_time, s.peak_time);
  n = brute_select (f.model, STROBE_MEMORY_SELECT_LIVE_AT, s.peak_time, 0, 0, &bytes);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, n);
  /* (the pool slab and the arena chunk count as backing, not as used memory) */
  g_assert_cmpuint (bytes, ==, (guint64) s.peak_bytes);
  peak_totals = totals_text (n, bytes);
  g_assert_cmpstr (strobe_memory_queries_get_totals_text (q), ==, peak_totals);

  /* Grouped by tag: each tag's count, from the records. */
  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_BY_TAG);
  run_query (&f, STROBE_MEMORY_SELECT_ALLOCATED, 0, G_MAXUINT64 - 1, 0);
  {
    GListModel *groups = G_LIST_MODEL (gtk_column_view_get_model (strobe_memory_queries_get_groups_table (q)));
    guint64 total = 0;

    g_assert_cmpuint (g_list_model_get_n_items (groups), ==, 7);
    for (guint i = 0; i < g_list_model_get_n_items (groups); i++)
      {
        g_autoptr (StrobeMemoryCostItem) item = g_list_model_get_item (groups, i);
        const StrobeMemoryCostData *d = strobe_memory_cost_item_get_data (item);
        guint64 want = 0;

        for (guint64 k = 0; k < strobe_memory_model_get_count (f.model); k++)
          want += get (f.model, k).tag == d->key;
        g_assert_cmpuint (d->inclusive.allocations, ==, want);
        total += d->inclusive.allocations;
        /* Sorted by bytes, largest first. */
        if (i > 0)
          {
            g_autoptr (StrobeMemoryCostItem) prev = g_list_model_get_item (groups, i - 1);
            g_assert_cmpuint (strobe_memory_cost_item_get_data (prev)->inclusive.bytes_allocated, >=,
                              d->inclusive.bytes_allocated);
          }
      }
    g_assert_cmpuint (total, ==, s.allocs);
    g_assert_cmpuint (count_text (GTK_WIDGET (strobe_memory_queries_get_groups_table (q)), "Leaky"), ==, 1);
    screenshot (GTK_WIDGET (f.window), "memory-grouped");
  }
  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_QUERIES_NO_GROUPS);

  /* A click on Size sorts the answer again, by size. */
  {
    GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (table));
    g_autoptr (GtkColumnViewColumn) size = g_list_model_get_item (columns, 1);
    g_autoptr (StrobeMemoryAllocItem) first = NULL, last = NULL;
    guint rows;

    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (table), size, GTK_SORT_DESCENDING);
    settle (&f);
    rows = g_list_model_get_n_items (table_model (&f));
    first = g_list_model_get_item (table_model (&f), 0);
    last = g_list_model_get_item (table_model (&f), rows - 1);
    g_assert_cmpuint (strobe_memory_alloc_item_get_record (first)->size, ==, 65536);
    g_assert_cmpuint (strobe_memory_alloc_item_get_record (last)->size, ==, 64);
    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (table), NULL, GTK_SORT_ASCENDING);
    settle (&f);
  }
  close_all (&f);
}

static void
test_summary (void)
{
  Fixture f = { 0 };
  StrobeMemoryFigures *figures;

  open_trace (&f, golden_path);
  figures = strobe_memory_view_get_figures (f.view);
  g_assert_cmpstr (strobe_memory_figures_get_text (figures, "allocations"), ==, "1\u202f180");
  g_assert_cmpstr (strobe_memory_figures_get_text (figures, "frees"), ==, "1\u202f170");
  g_assert_cmpstr (strobe_memory_figures_get_text (figures, "temporary"), ==, "601 (50.9 %)");
  g_assert_cmpstr (strobe_memory_figures_get_text (figures, "live"), ==, "12.3\u00a0kB (12\u202f340 bytes) in 10 allocations");
  g_assert_true (g_str_has_prefix (strobe_memory_figures_get_text (figures, "peak"), "116.1\u00a0kB at "));
  /* Nothing went wrong in this trace: the warnings are not shown. */
  g_assert_null (strobe_memory_figures_get_text (figures, "unmatched-frees"));
  g_assert_null (strobe_memory_figures_get_text (figures, "absurd"));
  g_assert_cmpstr (strobe_memory_view_get_notice (f.view), ==, "");
  /* Per heap. */
  g_assert_cmpuint (count_text (GTK_WIDGET (figures), "Pool"), ==, 1);
  g_assert_cmpuint (count_text (GTK_WIDGET (figures), "Arena"), ==, 1);
  /* Go to Peak: the cursor there. */
  {
    StrobeMemorySummary s;

    strobe_memory_model_get_summary (f.model, &s);
    g_signal_emit_by_name (figures, "go-to", s.peak_time);
    g_assert_cmpuint (strobe_view_state_get_cursor (f.state), ==, s.peak_time);
  }
  close_all (&f);
}

/* ---- the graph ---------------------------------------------------------------------------- */

static GtkEventController *
controller_of (GtkWidget *widget, GType type)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return c;
    }
  return NULL;
}

static gboolean
press_key (GtkWidget *widget, guint keyval, GdkModifierType mods)
{
  GtkEventController *key = controller_of (widget, GTK_TYPE_EVENT_CONTROLLER_KEY);
  gboolean handled = FALSE;

  g_signal_emit_by_name (key, "key-pressed", keyval, 0, mods, &handled);
  return handled;
}

static void
test_graph (void)
{
  Fixture f = { 0 };
  StrobeMemoryGraph *graph;
  StrobeMemorySummary s;
  guint64 a, b, cursor;
  g_autofree char *at_peak = NULL;

  open_trace (&f, golden_path);
  graph = strobe_memory_view_get_graph (f.view);
  strobe_memory_model_get_summary (f.model, &s);
  g_assert_true (strobe_memory_graph_get_range (graph, &a, &b));
  /* No other view set a range: the whole trace. */
  g_assert_cmpuint (a, <=, s.first_time);
  g_assert_cmpuint (b, >, s.last_time);
  /* The hover's values where the peak is: its bytes at most a pixel away. */
  at_peak = strobe_memory_graph_describe_at (graph, s.peak_time);
  g_assert_nonnull (at_peak);
  g_assert_nonnull (strstr (at_peak, "116.1\u00a0kB"));
  g_assert_nonnull (strstr (at_peak, "Tag Cache: 61.4\u00a0kB"));
  /* Each sample's values are the model's at its end. */
  {
    StrobeMemorySeries *series = strobe_memory_graph_get_series (graph);
    const StrobeMemorySeriesPoint *p = strobe_memory_series_get_points (series);
    guint n = strobe_memory_series_get_n_points (series);

    g_assert_cmpuint (n, >, 100);
    for (guint i = 0; i < n; i += 17)
      {
        gint64 bytes;
        guint64 end = i + 1 < n ? p[i + 1].time : strobe_memory_series_get_end (series);

        strobe_memory_model_get_totals_at (f.model, end - 1, &bytes, NULL);
        g_assert_cmpint (p[i].last_bytes, ==, bytes);
      }
  }

  /* Keyboard: the cursor moves, Shift selects, "a" sets marker A there. */
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  strobe_view_state_set_cursor (f.state, a + (b - a) / 2);
  g_assert_true (press_key (GTK_WIDGET (graph), GDK_KEY_Right, 0));
  cursor = strobe_view_state_get_cursor (f.state);
  g_assert_cmpuint (cursor, >, a + (b - a) / 2);
  g_assert_true (press_key (GTK_WIDGET (graph), GDK_KEY_Right, GDK_SHIFT_MASK));
  {
    guint64 s0, s1;
    g_assert_true (strobe_view_state_get_selection (f.state, &s0, &s1));
    g_assert_cmpuint (s0, ==, cursor);
    g_assert_cmpuint (s1, ==, strobe_view_state_get_cursor (f.state));
  }
  g_assert_true (press_key (GTK_WIDGET (graph), GDK_KEY_a, 0));
  g_assert_cmpuint (strobe_memory_queries_get_marker (strobe_memory_view_get_queries (f.view), 0), ==,
                    strobe_view_state_get_cursor (f.state));
  g_assert_true (press_key (GTK_WIDGET (graph), GDK_KEY_Escape, 0));
  g_assert_false (strobe_view_state_get_selection (f.state, NULL, NULL));

  /* A drag selects the range under it; a click puts the cursor there. */
  {
    GtkEventController *drag = controller_of (GTK_WIDGET (graph), GTK_TYPE_GESTURE_DRAG);
    guint64 s0, s1;

    g_signal_emit_by_name (drag, "drag-begin", 300.0, 40.0);
    g_signal_emit_by_name (drag, "drag-update", 200.0, 0.0);
    g_signal_emit_by_name (drag, "drag-end", 200.0, 0.0);
    g_assert_true (strobe_view_state_get_selection (f.state, &s0, &s1));
    g_assert_cmpuint (s0, <, s1);
    g_assert_cmpuint (s0, >, a);
    g_assert_cmpuint (s1, <, b);
    screenshot (GTK_WIDGET (f.window), "memory-selection");
    g_signal_emit_by_name (drag, "drag-begin", 400.0, 40.0);
    g_signal_emit_by_name (drag, "drag-end", 0.0, 0.0);
    g_assert_cmpuint (strobe_view_state_get_cursor (f.state), >, s0);
    g_assert_cmpuint (strobe_view_state_get_cursor (f.state), <, s1);
  }

  /* Another view's visible range: the graphs follow it. */
  strobe_view_state_set_visible_range (f.state, s.first_time + (s.last_time - s.first_time) / 4,
                                       s.first_time + (s.last_time - s.first_time) / 2);
  settle (&f);
  {
    StrobeMemorySeries *series = strobe_memory_graph_get_series (graph);
    g_assert_cmpuint (strobe_memory_series_get_start (series), ==, s.first_time + (s.last_time - s.first_time) / 4);
  }
  close_all (&f);
}

static gboolean
graph_ready_within (StrobeMemoryGraph *graph, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while ((!gtk_widget_get_mapped (GTK_WIDGET (graph)) || !strobe_memory_graph_is_ready (graph)) &&
         g_get_monotonic_time () < end)
    memory_iterate (20);
  return strobe_memory_graph_is_ready (graph);
}

/* The golden trace's graph, alone in no window yet, over the memory events (@lo, @hi). */
static GtkWidget *
golden_graph (MemoryFixture *mf, StrobeMemoryNames **names, StrobeTimeAxis **axis, StrobeMemorySummary *s,
              guint64 *lo, guint64 *hi)
{
  g_autoptr (GFile) file = g_file_new_for_path (golden_path);
  GtkWidget *graph;
  guint64 first, last;

  mf->document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  strobe_document_load (mf->document, NULL, NULL);
  mf->state = strobe_view_state_new ();
  *names = strobe_memory_names_new (strobe_document_get_memory (mf->document));
  strobe_memory_names_update (*names, mf->document);
  graph = strobe_memory_graph_new ();
  *axis = strobe_time_axis_new (mf->document, mf->state);
  strobe_memory_graph_set_sources (STROBE_MEMORY_GRAPH (graph), *names, *axis);
  strobe_document_get_extent (mf->document, &first, &last);
  strobe_memory_model_get_summary (strobe_document_get_memory (mf->document), s);
  *lo = MIN (first, s->first_time);
  *hi = MAX (last, s->last_time);
  strobe_time_axis_set_bounds (*axis, *lo, *hi);
  return graph;
}

/* While a trace is read, the graphs are made again at most a fifth of the time (a series
 * of 100 M allocations takes seconds); once it is read whole, at once. The wait after a
 * series made while reading (four times what it cost) left the 100 M-allocation trace's
 * graphs a minute short of its end after it was read. */
static void
test_graph_once_read (void)
{
  MemoryFixture mf = { 0 };
  g_autoptr (StrobeMemoryNames) names = NULL;
  g_autoptr (StrobeTimeAxis) axis = NULL;
  StrobeMemoryGraph *graph;
  guint64 lo, hi, a, b, b0;
  StrobeMemorySummary s;

  graph = STROBE_MEMORY_GRAPH (golden_graph (&mf, &names, &axis, &s, &lo, &hi));
  mf.window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (mf.window, 900, 440);
  gtk_window_set_child (mf.window, GTK_WIDGET (graph));
  gtk_window_present (mf.window);
  g_assert_true (graph_ready_within (graph, 20));
  g_assert_null (strobe_memory_graph_dup_drawing_note (graph));
  g_assert_true (strobe_memory_graph_get_range (graph, &a, &b0));

  /* As a series made while the trace was read leaves things: of an older generation of
   * the model, and a minute in the making. Then the trace grows (its end later). */
  strobe_memory_graph_model_changed (graph, TRUE);
  graph->want_generation = strobe_memory_model_get_generation (strobe_document_get_memory (mf.document)) + 1;
  graph->last_cost_us = 60 * G_USEC_PER_SEC;
  graph->last_done_us = g_get_monotonic_time ();
  strobe_time_axis_set_bounds (axis, lo, hi + (hi - lo) / 4);
  strobe_memory_graph_model_changed (graph, TRUE);
  g_assert_false (graph_ready_within (graph, 0.5));
  /* Waiting is not drawing: the graphs say nothing. */
  g_assert_null (strobe_memory_graph_dup_drawing_note (graph));

  /* Read whole: made at once, to the new end. */
  strobe_memory_graph_model_changed (graph, FALSE);
  g_assert_true (graph_ready_within (graph, 5));
  g_assert_true (strobe_memory_graph_get_range (graph, &a, &b));
  g_assert_cmpuint (b, ==, b0 + (hi - lo) / 4);
  g_assert_cmpuint (strobe_memory_series_get_end (strobe_memory_graph_get_series (graph)), ==, b);
  g_assert_null (strobe_memory_graph_dup_drawing_note (graph));
  g_clear_object (&mf.state);
  g_clear_object (&mf.document);
  close_all (&(Fixture) { 0 });
}

/* The graphs of the golden trace as pixels, within a tolerance. */
static void
test_graph_snapshot (void)
{
  MemoryFixture mf = { 0 };
  g_autoptr (StrobeMemoryNames) names = NULL;
  g_autoptr (GdkTexture) actual = NULL;
  g_autoptr (StrobeTimeAxis) axis = NULL;
  GtkWidget *graph;
  guint64 lo, hi;
  StrobeMemorySummary s;

  graph = golden_graph (&mf, &names, &axis, &s, &lo, &hi);
  strobe_memory_graph_set_marker (STROBE_MEMORY_GRAPH (graph), 0, s.first_time + (s.last_time - s.first_time) / 4);
  strobe_memory_graph_set_marker (STROBE_MEMORY_GRAPH (graph), 1, s.first_time + (s.last_time - s.first_time) / 2);
  strobe_view_state_set_selection (mf.state, s.first_time + (s.last_time - s.first_time) / 4,
                                   s.first_time + (s.last_time - s.first_time) / 2);
  strobe_view_state_set_cursor (mf.state, s.peak_time);
  mf.window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (mf.window, 900, 440);
  gtk_window_set_child (mf.window, graph);
  gtk_window_present (mf.window);
  graph_ready_within (STROBE_MEMORY_GRAPH (graph), 20);
  memory_iterate (100);
  g_assert_true (strobe_memory_graph_is_ready (STROBE_MEMORY_GRAPH (graph)));
  actual = widget_render (graph);
  g_assert_nonnull (actual);
  memory_check_snapshot (actual, "memory-graph");
  g_clear_object (&mf.state);
  g_clear_object (&mf.document);
  /* Every window, the application's first one too (run alone, this test is the last). */
  close_all (&(Fixture) { 0 });
}

/* Issue 24 item 4: a span the Memory channel was off, drawn as not recorded — hatched and
 * labelled over the plot (a PNG snapshot of the golden trace's graph with a gap over its
 * middle fifth) — and the hover says so instead of giving the flat line's values. */
static void run_emitter (const char *out, const char *flag);

static void
test_graph_gap_snapshot (void)
{
  MemoryFixture mf = { 0 };
  g_autoptr (StrobeMemoryNames) names = NULL;
  g_autoptr (GdkTexture) actual = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (golden_path);
  g_autoptr (StrobeTimeAxis) axis = NULL;
  g_autoptr (GArray) gaps = g_array_new (FALSE, FALSE, sizeof (StrobeInfoGap));
  g_autofree char *in_gap = NULL, *outside = NULL;
  StrobeInfoGap gap;
  GtkWidget *graph;
  guint64 first, last;
  StrobeMemorySummary s;

  mf.document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  strobe_document_load (mf.document, NULL, NULL);
  mf.state = strobe_view_state_new ();
  names = strobe_memory_names_new (strobe_document_get_memory (mf.document));
  strobe_memory_names_update (names, mf.document);
  graph = strobe_memory_graph_new ();
  axis = strobe_time_axis_new (mf.document, mf.state);
  strobe_memory_graph_set_sources (STROBE_MEMORY_GRAPH (graph), names, axis);
  strobe_document_get_extent (mf.document, &first, &last);
  strobe_memory_model_get_summary (strobe_document_get_memory (mf.document), &s);
  strobe_time_axis_set_bounds (axis, MIN (first, s.first_time), MAX (last, s.last_time));
  gap.begin = s.first_time + (s.last_time - s.first_time) * 2 / 5;
  gap.end = s.first_time + (s.last_time - s.first_time) * 3 / 5;
  g_array_append_val (gaps, gap);
  strobe_memory_graph_set_gaps (STROBE_MEMORY_GRAPH (graph), gaps);
  mf.window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (mf.window, 900, 440);
  gtk_window_set_child (mf.window, graph);
  gtk_window_present (mf.window);
  graph_ready_within (STROBE_MEMORY_GRAPH (graph), 20);
  memory_iterate (100);
  in_gap = strobe_memory_graph_describe_at (STROBE_MEMORY_GRAPH (graph), (gap.begin + gap.end) / 2);
  g_assert_nonnull (in_gap);
  g_assert_true (g_str_has_prefix (in_gap, "Not recorded: the Memory channel was off from "));
  outside = strobe_memory_graph_describe_at (STROBE_MEMORY_GRAPH (graph), gap.end + 1);
  g_assert_nonnull (outside);
  g_assert_nonnull (strstr (outside, "Live: "));
  actual = widget_render (graph);
  g_assert_nonnull (actual);
  memory_check_snapshot (actual, "memory-graph-gap");
  g_clear_object (&mf.state);
  g_clear_object (&mf.document);
  close_all (&(Fixture) { 0 });
}

/* A model that stopped at its memory budget: the view's graph hatches what follows as not
 * analysed and its hover says so, where the samples would show a flat line; before it,
 * the values. */
static void
test_not_analysed (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (golden_path);
  g_autoptr (StrobeDocument) doc = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr (StrobeViewState) state = strobe_view_state_new ();
  g_autofree char *past = NULL, *before = NULL;
  StrobeMemoryGraph *graph;
  StrobeMemorySummary s;
  GtkWindow *window;
  GtkWidget *view;

  strobe_memory_model_set_memory_budget (strobe_document_get_memory (doc), 64 * 1024);
  g_assert_true (strobe_document_load (doc, NULL, NULL));
  strobe_memory_model_get_summary (strobe_document_get_memory (doc), &s);
  g_test_message ("%" G_GUINT64_FORMAT " allocations read, %" G_GUINT64_FORMAT " events not", s.allocs, s.not_analysed);
  g_assert_cmpuint (s.not_analysed, >, 0);
  g_assert_cmpuint (s.allocs, >, 0);
  view = GTK_WIDGET (strobe_view_new (STROBE_TYPE_MEMORY_VIEW, doc, state));
  graph = strobe_memory_view_get_graph (STROBE_MEMORY_VIEW (view));
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 1200, 900);
  gtk_window_set_child (window, view);
  gtk_window_present (window);
  graph_ready_within (graph, 20);
  past = strobe_memory_graph_describe_at (graph, s.not_analysed_from + 1);
  g_assert_nonnull (past);
  g_assert_true (g_str_has_prefix (past, "Not analysed from "));
  before = strobe_memory_graph_describe_at (graph, s.first_time + (s.not_analysed_from - s.first_time) / 2);
  g_assert_nonnull (before);
  g_assert_nonnull (strstr (before, "Live: "));
  screenshot (GTK_WIDGET (window), "memory-not-analysed");
  close_all (&(Fixture) { 0 });
}

/* The view takes the gaps from the trace: the emitter with the Memory channel off from
 * frame 20 to 40; the hover in the middle of that span says it was not recorded. */
static void
test_gap_from_trace (void)
{
  g_autofree char *path = g_build_filename (work_dir, "gap.strobe", NULL);
  g_autoptr (GArray) gaps = NULL;
  g_autofree char *text = NULL;
  Fixture f = { 0 };
  const StrobeInfoGap *g;

  run_emitter (path, "--gap");
  open_trace (&f, path);
  gaps = strobe_info_analyzer_dup_channel_gaps (strobe_document_get_info (f.document), "Memory");
  g_assert_cmpuint (gaps->len, ==, 1);
  g = &g_array_index (gaps, StrobeInfoGap, 0);
  text = strobe_memory_graph_describe_at (strobe_memory_view_get_graph (f.view), (g->begin + g->end) / 2);
  g_assert_nonnull (text);
  g_assert_true (g_str_has_prefix (text, "Not recorded: "));
  screenshot (GTK_WIDGET (f.window), "memory-gap");
  close_all (&f);
}

/* ---- call trees and the call stack --------------------------------------------------------- */

static guint
find_child (StrobeMemoryTree *tree, StrobeMemoryNames *names, guint node, const char *function)
{
  StrobeMemoryTreeNode n;
  g_autofree guint32 *kids = NULL;
  guint k;

  strobe_memory_tree_get_node (tree, node, &n);
  kids = g_new (guint32, MAX (n.n_children, 1));
  k = strobe_memory_tree_get_children (tree, node, STROBE_MEMORY_COST_PEAK, 0, n.n_children, kids);
  for (guint i = 0; i < k; i++)
    {
      StrobeMemoryTreeNode c;
      g_autofree char *name = NULL;

      strobe_memory_tree_get_node (tree, kids[i], &c);
      name = strobe_memory_names_function (names, &c.frame, c.inline_depth);
      if (g_str_equal (name, function))
        return kids[i];
    }
  return G_MAXUINT;
}

static gboolean
has_row (char **rows, const char *text)
{
  for (guint i = 0; rows && rows[i]; i++)
    if (g_str_equal (rows[i], text))
      return TRUE;
  return FALSE;
}

static void
test_trees (void)
{
  Fixture f = { 0 };
  StrobeMemoryTreePanel *bottom_up, *top_down;
  StrobeMemoryTree *bu, *td;
  StrobeMemorySummary s;
  StrobeMemoryTreeNode root;
  g_autoptr (StrobeMemoryNames) names = NULL;
  guint leak, node;

  open_trace (&f, stacks_path);
  strobe_memory_model_get_summary (f.model, &s);
  names = strobe_memory_names_new (f.model);
  strobe_memory_names_update (names, f.document);
  bottom_up = strobe_memory_view_get_tree_panel (f.view, STROBE_MEMORY_TREE_BOTTOM_UP);
  top_down = strobe_memory_view_get_tree_panel (f.view, STROBE_MEMORY_TREE_TOP_DOWN);
  bu = strobe_memory_tree_panel_get_tree (bottom_up);
  td = strobe_memory_tree_panel_get_tree (top_down);
  g_assert_nonnull (bu);
  g_assert_nonnull (td);

  /* The trees' totals are the summary's. */
  for (guint k = 0; k < 2; k++)
    {
      strobe_memory_tree_get_node (k ? td : bu, 0, &root);
      g_assert_cmpuint (root.inclusive.allocations, ==, s.allocs);
      g_assert_cmpuint (root.inclusive.bytes_allocated, ==, s.bytes_allocated);
      g_assert_cmpint (root.inclusive.peak_bytes, ==, s.peak_bytes);
      g_assert_cmpint (root.inclusive.leaked_bytes, ==, s.live_bytes);
      g_assert_cmpuint (root.inclusive.temporary, ==, s.temporary);
    }

  /* Bottom-up: where memory was allocated, symbolized; the leak's site holds the leaks. */
  leak = find_child (bu, names, 0, "site_leak");
  g_assert_cmpuint (leak, !=, G_MAXUINT);
  {
    StrobeMemoryTreeNode n;
    strobe_memory_tree_get_node (bu, leak, &n);
    g_assert_cmpint (n.inclusive.leaked_bytes, ==, 12340);
    g_assert_cmpuint (n.inclusive.allocations, ==, 10);
  }
  strobe_memory_view_show_tab (f.view, "bottom-up");
  strobe_memory_tree_panel_expand_top (bottom_up, 2);
  memory_iterate (50);
  g_assert_cmpuint (count_text (GTK_WIDGET (bottom_up), "site_leak"), ==, 1);
  screenshot (GTK_WIDGET (f.window), "memory-bottom-up");
  /* A node's path in the call stack panel, innermost first, with file and line. */
  node = find_child (bu, names, find_child (bu, names, leak, "frame_update"), "game_loop");
  g_assert_cmpuint (node, !=, G_MAXUINT);
  g_signal_emit_by_name (bottom_up, "show-node", node);
  {
    g_auto (GStrv) rows = strobe_memory_stack_panel_dup_rows (strobe_memory_view_get_stack (f.view));
    g_autofree char *text = strobe_memory_stack_panel_dup_text (strobe_memory_view_get_stack (f.view));

    g_assert_cmpuint (g_strv_length (rows), ==, 3);
    g_assert_cmpstr (rows[0], ==, "#0 site_leak");
    g_assert_cmpstr (rows[1], ==, "#1 frame_update");
    g_assert_cmpstr (rows[2], ==, "#2 game_loop");
    g_assert_nonnull (strstr (text, "(memview-emitter.c:"));
  }

  /* Top-down: main → game_loop → frame_update → the sites. */
  node = find_child (td, names, find_child (td, names, find_child (td, names, 0, "main"), "game_loop"), "frame_update");
  g_assert_cmpuint (node, !=, G_MAXUINT);
  g_assert_cmpuint (find_child (td, names, node, "site_scratch"), !=, G_MAXUINT);
  {
    StrobeMemoryTreeNode n;
    strobe_memory_tree_get_node (td, find_child (td, names, node, "site_scratch"), &n);
    g_assert_cmpuint (n.inclusive.temporary, ==, 600);
  }
  strobe_memory_view_show_tab (f.view, "top-down");
  strobe_memory_tree_panel_expand_top (top_down, 4);
  screenshot (GTK_WIDGET (f.window), "memory-top-down");

  /* Caller/callee: frame_update is called by game_loop and calls the five sites. */
  {
    StrobeMemoryFunctionsPanel *callers = strobe_memory_view_get_callers (f.view);
    GListModel *callees, *callers_model;
    StrobeMemoryTreeNode fu;

    strobe_memory_tree_get_node (td, node, &fu);
    strobe_memory_view_show_tab (f.view, "callers");
    memory_iterate (10);
    /* Until a function is chosen the empty tables say how to fill them. */
    g_assert_cmpuint (count_text (GTK_WIDGET (callers), "Choose a function above to see its callers and callees."), ==, 1);
    g_assert_true (strobe_memory_functions_panel_select (callers, fu.key));
    memory_iterate (50);
    g_assert_cmpuint (count_text (GTK_WIDGET (callers), "Callers and callees of frame_update"), ==, 1);
    callers_model = G_LIST_MODEL (gtk_column_view_get_model (strobe_memory_functions_panel_get_callers_view (callers)));
    callees = G_LIST_MODEL (gtk_column_view_get_model (strobe_memory_functions_panel_get_callees_view (callers)));
    g_assert_cmpuint (g_list_model_get_n_items (callers_model), ==, 1);
    g_assert_cmpuint (g_list_model_get_n_items (callees), ==, 5);
    g_assert_cmpuint (count_text (GTK_WIDGET (strobe_memory_functions_panel_get_callers_view (callers)), "game_loop"), ==, 1);
    g_assert_cmpuint (count_text (GTK_WIDGET (strobe_memory_functions_panel_get_callees_view (callers)), "site_leak"), ==, 1);
    screenshot (GTK_WIDGET (f.window), "memory-callers");
  }

  /* The flame graph: the root across the top; a click selects, a double click zooms. */
  {
    StrobeFlameGraph *flame = strobe_memory_view_get_flame (f.view);
    guint top;

    strobe_memory_view_show_tab (f.view, "flame");
    memory_iterate (50);
    g_assert_cmpuint (strobe_flame_graph_get_n_drawn (flame), >, 8);
    g_assert_cmpuint (strobe_flame_graph_node_at (flame, 5, 5), ==, 0);
    top = strobe_flame_graph_node_at (flame, 5, 18 * 1 + 5);
    g_assert_cmpuint (top, ==, find_child (td, names, 0, "main"));
    strobe_flame_graph_select (flame, top);
    g_assert_true (g_str_has_prefix (strobe_flame_graph_get_hover_text (flame), "main: 116.1\u00a0kB (100.0 %)"));
    strobe_flame_graph_set_column (flame, strobe_memory_cost_get_column (STROBE_MEMORY_COST_LEAKED));
    strobe_flame_graph_zoom (flame, node);
    memory_iterate (50);
    g_assert_cmpuint (strobe_flame_graph_node_at (flame, 5, 5), ==, node);
    /* Leaked bytes: only site_leak under frame_update has any. */
    g_assert_cmpuint (strobe_flame_graph_node_at (flame, 5, 18 + 5), ==, find_child (td, names, node, "site_leak"));
    screenshot (GTK_WIDGET (f.window), "memory-flame");
    strobe_flame_graph_zoom (flame, 0);
  }

  /* Sizes: a row per bucket used, as the summary's histogram. */
  {
    GtkWidget *sizes = find_type (GTK_WIDGET (f.view), STROBE_TYPE_MEMORY_HISTOGRAM);
    guint buckets = 0;

    for (guint k = 0; k < 65; k++)
      buckets += s.histogram_count[k] > 0;
    strobe_memory_view_show_tab (f.view, "sizes");
    memory_iterate (50);
    g_assert_nonnull (sizes);
    g_assert_cmpuint (count_text (GTK_WIDGET (f.view), "< 2 KiB"), >=, 1);
    {
      GtkColumnView *table = strobe_memory_view_get_sizes_table (f.view);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table))), ==, buckets);
    }
    screenshot (GTK_WIDGET (f.window), "memory-sizes");
  }
  close_all (&f);
}

/* The trees of a selected range: what a recount of its allocations gives. */
static void
test_range_trees (void)
{
  Fixture f = { 0 };
  StrobeMemorySummary s;
  StrobeMemoryTreeNode root;
  guint64 t0, t1, allocs = 0, bytes = 0, leaked = 0;

  open_trace (&f, stacks_path);
  strobe_memory_model_get_summary (f.model, &s);
  t0 = s.first_time + (s.last_time - s.first_time) / 3;
  t1 = s.first_time + (s.last_time - s.first_time) / 2;
  strobe_view_state_set_selection (f.state, t0, t1);
  strobe_memory_view_set_range_only (f.view, TRUE);
  memory_iterate (300);
  settle (&f);
  for (guint64 i = 0; i < strobe_memory_model_get_count (f.model); i++)
    {
      StrobeMemoryAlloc r = get (f.model, i);

      if (r.alloc_time < t0 || r.alloc_time > t1)
        continue;
      allocs++;
      bytes += r.size;
      leaked += r.free_time == STROBE_MEMORY_LIVE || r.free_time > t1;
    }
  for (guint k = 0; k < 2; k++)
    {
      StrobeMemoryTree *tree = strobe_memory_tree_panel_get_tree (strobe_memory_view_get_tree_panel (f.view, k));

      strobe_memory_tree_get_node (tree, 0, &root);
      g_assert_cmpuint (root.inclusive.allocations, ==, allocs);
      g_assert_cmpuint (root.inclusive.bytes_allocated, ==, bytes);
      g_assert_cmpuint (root.inclusive.leaked_count, ==, leaked);
      g_assert_cmpuint (allocs, <, s.allocs);
    }
  /* Back to the whole trace. */
  strobe_memory_view_set_range_only (f.view, FALSE);
  memory_iterate (300);
  settle (&f);
  strobe_memory_tree_get_node (strobe_memory_tree_panel_get_tree (strobe_memory_view_get_tree_panel (f.view, 0)), 0, &root);
  g_assert_cmpuint (root.inclusive.allocations, ==, s.allocs);
  close_all (&f);
}

static void
test_stack_panel (void)
{
  Fixture f = { 0 };
  g_autoptr (GSettings) settings = g_settings_new (STROBE_APP_ID);
  g_autofree char *command = g_strdup_printf ("sh -c 'echo %%f:%%l > \"%s/opened.txt\"'", work_dir);
  g_autofree char *opened = g_build_filename (work_dir, "opened.txt", NULL);
  StrobeMemoryStackPanel *stack;
  GtkSelectionModel *selection;
  gint64 deadline;

  open_trace (&f, stacks_path);
  stack = strobe_memory_view_get_stack (f.view);
  /* The first leak selected in the table: its stack, its details, the shared state. */
  selection = gtk_column_view_get_model (strobe_memory_queries_get_table (strobe_memory_view_get_queries (f.view)));
  gtk_selection_model_select_item (selection, 0, TRUE);
  memory_iterate (50);
  {
    g_auto (GStrv) rows = strobe_memory_stack_panel_dup_rows (stack);
    g_autofree char *text = strobe_memory_stack_panel_dup_text (stack);
    g_autoptr (StrobeMemoryAllocItem) item = g_list_model_get_item (G_LIST_MODEL (selection), 0);

    g_assert_cmpuint (g_strv_length (rows), ==, 4);
    g_assert_cmpstr (rows[0], ==, "#0 site_leak");
    g_assert_cmpstr (rows[3], ==, "#3 main");
    g_assert_true (has_row (rows, "#1 frame_update"));
    g_assert_nonnull (strstr (text, "1\u202f234 bytes"));
    g_assert_nonnull (strstr (text, "never freed"));
    g_assert_nonnull (strstr (text, "site_leak (memview-emitter.c:"));
    g_assert_cmpuint (strobe_memory_view_get_selected_allocation (f.view), ==, strobe_memory_alloc_item_get_index (item));
    /* The view's own selection: the shared state does not carry it. */
    g_assert_null (g_object_class_find_property (G_OBJECT_GET_CLASS (f.state), "selected-allocation"));
    screenshot (GTK_WIDGET (f.window), "memory-stack");
  }
  /* Copy puts that text on the clipboard. */
  gtk_widget_activate_action (GTK_WIDGET (stack), "stack.copy", NULL);
  memory_iterate (20);
  {
    GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (stack));
    g_autoptr (GdkContentProvider) provider = NULL;
    GValue value = G_VALUE_INIT;
    g_autofree char *text = strobe_memory_stack_panel_dup_text (stack);

    g_object_get (clipboard, "content", &provider, NULL);
    g_assert_nonnull (provider);
    g_value_init (&value, G_TYPE_STRING);
    g_assert_true (gdk_content_provider_get_value (provider, &value, NULL));
    g_assert_cmpstr (g_value_get_string (&value), ==, text);
    g_value_unset (&value);
  }
  /* Open Source Location: the editor command gets the frame's file and line. */
  g_settings_set_string (settings, "editor-command", command);
  gtk_widget_activate_action (GTK_WIDGET (stack), "stack.open-source", NULL);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!g_file_test (opened, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    memory_iterate (20);
  {
    g_autofree char *contents = NULL;

    memory_iterate (100);
    g_assert_true (g_file_get_contents (opened, &contents, NULL, NULL));
    g_assert_true (g_str_has_suffix (g_strstrip (contents), "") && strstr (contents, "memview-emitter.c:") != NULL);
  }
  g_settings_reset (settings, "editor-command");

  /* Selecting an allocation through the view's property shows its stack. */
  g_object_set (f.view, "selected-allocation", (guint64) 0, NULL);
  memory_iterate (20);
  {
    g_autofree char *text = strobe_memory_stack_panel_dup_text (stack);
    g_assert_true (g_str_has_prefix (text, "Allocation 0: "));
  }
  close_all (&f);
}

/* ---- partial, cut-off, damaged and memory-less traces ----------------------------------------- */

static void
test_partial (void)
{
  Fixture f = { 0 };
  const char *notice;

  open_trace (&f, late_path);
  notice = strobe_memory_view_get_notice (f.view);
  g_assert_nonnull (strstr (notice, "Memory from before the connect is unknown"));
  g_assert_nonnull (strstr (notice, "8 frees of earlier allocations were ignored"));
  g_assert_cmpstr (strobe_memory_figures_get_text (strobe_memory_view_get_figures (f.view), "unmatched-frees"), ==, "8");
  screenshot (GTK_WIDGET (f.window), "memory-partial");
  close_all (&f);
}

static void
test_cut_off (void)
{
  g_autofree char *cut = g_build_filename (work_dir, "cut.strobe", NULL);
  g_autofree char *damaged = g_build_filename (work_dir, "damaged.strobe", NULL);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (golden_path, &contents, &len, NULL));
  /* The file's first 70 %: the end of the trace is gone. */
  g_assert_true (g_file_set_contents (cut, contents, (gssize) (len * 7 / 10), NULL));
  {
    Fixture f = { 0 };
    StrobeMemorySummary s;

    open_trace (&f, cut);
    /* Cut inside a packet: the decoder calls it damaged; at a packet's end, cut off. */
    g_assert_true (strobe_document_get_status (f.document) == STROBE_DOCUMENT_STATUS_DAMAGED ||
                   strobe_document_get_status (f.document) == STROBE_DOCUMENT_STATUS_CUT_OFF);
    g_assert_nonnull (strstr (strobe_memory_view_get_notice (f.view),
                              strobe_document_get_status (f.document) == STROBE_DOCUMENT_STATUS_DAMAGED ? "damaged"
                                                                                                       : "cut off"));
    strobe_memory_model_get_summary (f.model, &s);
    g_assert_cmpuint (s.allocs, >, 0);
    g_assert_cmpuint (s.allocs, <, 1180);
    /* What the trace had, the table lists: what was live at its end never got freed. */
    g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, (guint) s.live_count);
    screenshot (GTK_WIDGET (f.window), "memory-cut-off");
    close_all (&f);
  }
  /* Bytes overwritten in the middle: damaged, what came before is shown. */
  memset (contents + len / 2, 0xff, 64);
  g_assert_true (g_file_set_contents (damaged, contents, (gssize) len, NULL));
  {
    Fixture f = { 0 };

    open_trace (&f, damaged);
    if (strobe_document_get_status (f.document) == STROBE_DOCUMENT_STATUS_DAMAGED)
      g_assert_nonnull (strstr (strobe_memory_view_get_notice (f.view), "damaged"));
    close_all (&f);
  }
}

static void
test_no_memory (void)
{
  Fixture f = { 0 };

  open_trace (&f, g_getenv ("STROBE_GOLDEN_TRACE"));
  g_assert_cmpuint (count_text (GTK_WIDGET (f.view), "No Memory Events"), ==, 1);
  close_all (&f);
}

/* ---- accessibility -------------------------------------------------------------------------- */

static void
test_accessibility (void)
{
  Fixture f = { 0 };
  g_autoptr (GHashTable) reached = g_hash_table_new (NULL, NULL);
  GtkWidget *graph;

  open_trace (&f, golden_path);
  graph = GTK_WIDGET (strobe_memory_view_get_graph (f.view));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (graph), GTK_ACCESSIBLE_ROLE_IMG);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (graph), GTK_ACCESSIBLE_PROPERTY_LABEL, "Memory over time");
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (strobe_memory_queries_get_table (strobe_memory_view_get_queries (f.view))),
                                   GTK_ACCESSIBLE_ROLE_TREE_GRID);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (strobe_memory_queries_get_table (strobe_memory_view_get_queries (f.view))),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Allocations");
  /* F6 goes round the panes: the graph, the summary, the tabs, the query's controls and
   * table, the call stack among them. */
  gtk_widget_grab_focus (graph);
  for (guint i = 0; i < 16; i++)
    {
      GtkWidget *focus;

      g_assert_true (strobe_window_cycle_panes (f.window, FALSE));
      focus = gtk_root_get_focus (GTK_ROOT (f.window));
      for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
        if (w == graph || w == GTK_WIDGET (strobe_memory_view_get_stack (f.view)) ||
            w == GTK_WIDGET (strobe_memory_queries_get_table (strobe_memory_view_get_queries (f.view))) ||
            w == GTK_WIDGET (strobe_memory_view_get_figures (f.view)))
          g_hash_table_add (reached, w);
    }
  g_assert_cmpuint (g_hash_table_size (reached), ==, 4);

  /* Tab goes round the page: the graph is one stop (Shift+Tab comes back to it), the
   * summary's copyable figures are none (GTK 4.8 kept Tab on the button before them). */
  gtk_widget_grab_focus (graph);
  gtk_widget_child_focus (GTK_WIDGET (f.window), GTK_DIR_TAB_FORWARD);
  g_assert_false (gtk_widget_has_focus (graph));
  gtk_widget_child_focus (GTK_WIDGET (f.window), GTK_DIR_TAB_BACKWARD);
  g_assert_true (gtk_widget_has_focus (graph));
  tab_walk_assert (GTK_WINDOW (f.window), graph, 80, 15);
  close_all (&f);
}

/* ---- Show in Timeline (issue 24 item 5) ------------------------------------------------------ */

static gboolean
view_mapped (gpointer view)
{
  return gtk_widget_get_mapped (view);
}

/* The timeline in front, showing @t (not at its edge), the cursor at @t. */
static void
check_shown_in_timeline (Fixture *f, guint64 t)
{
  StrobeView *timeline = strobe_document_view_get_view (f->page, "timeline");
  guint64 a, b;

  wait_for (view_mapped, timeline);
  strobe_view_state_get_visible_range (f->state, &a, &b);
  g_assert_cmpuint (a, <, t);
  g_assert_cmpuint (t, <, b);
  g_assert_cmpuint (t - a, >, (b - a) / 10);
  g_assert_cmpuint (b - t, >, (b - a) / 10);
  g_assert_cmpuint (strobe_view_state_get_cursor (f->state), ==, t);
}

/* An allocation's row and a log message's row, double-clicked (or Return): the timeline
 * comes to the front centred on it, though it was zoomed in far from there. */
static void
test_show_in_timeline (void)
{
  Fixture f = { 0 };
  StrobeMemoryQueries *q;
  GtkColumnView *table;
  StrobeMemorySummary s;
  guint n;

  open_trace (&f, demo_all_path);
  q = strobe_memory_view_get_queries (f.view);
  table = strobe_memory_queries_get_table (q);
  strobe_memory_model_get_summary (f.model, &s);
  run_query (&f, STROBE_MEMORY_SELECT_ALLOCATED, s.first_time, s.last_time, s.last_time);
  n = g_list_model_get_n_items (table_model (&f));
  g_assert_cmpuint (n, >, 10);
  /* Zoomed in on the first 2 % of the trace; the allocation is the last one. */
  strobe_view_state_set_visible_range (f.state, s.first_time, s.first_time + (s.last_time - s.first_time) / 50);
  {
    g_autoptr (StrobeMemoryAllocItem) item = g_list_model_get_item (table_model (&f), n - 1);
    const StrobeMemoryAlloc *r = strobe_memory_alloc_item_get_record (item);

    g_signal_emit_by_name (table, "activate", n - 1);
    check_shown_in_timeline (&f, r->alloc_time);
    g_assert_cmpuint (strobe_memory_view_get_selected_allocation (f.view), ==, strobe_memory_alloc_item_get_index (item));
  }

  /* The log: its last message. */
  g_assert_true (strobe_document_view_show_view (f.page, "log"));
  strobe_view_state_set_visible_range (f.state, s.first_time, s.first_time + (s.last_time - s.first_time) / 50);
  memory_iterate (50);
  {
    StrobeView *log = strobe_document_view_get_view (f.page, "log");
    GtkColumnView *messages = GTK_COLUMN_VIEW (find_type (GTK_WIDGET (log), GTK_TYPE_COLUMN_VIEW));
    GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (messages));
    guint m = g_list_model_get_n_items (rows);
    g_autoptr (StrobeLogRow) row = NULL;
    StrobeLogItem *item;

    g_assert_cmpuint (m, >, 0);
    /* The table's items stand for the log list's messages. */
    row = g_list_model_get_item (rows, m - 1);
    item = strobe_log_row_get_item (row);
    g_assert_cmpuint (strobe_log_item_get_time (item), >, s.first_time + (s.last_time - s.first_time) / 50);
    g_signal_emit_by_name (messages, "activate", m - 1);
    check_shown_in_timeline (&f, strobe_log_item_get_time (item));
  }
  close_all (&f);
}

/* ---- the rate lane's scale (issue 24 item 9) ----------------------------------------------- */

/* One burst (1.1 M allocations/s for a pixel, as in the demo) must not set the scale of a
 * graph of a few thousand a second; without a spike the scale is the largest value. */
static void
test_rate_scale (void)
{
  double values[600], peak = 0, scale;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = 4000 + (i * 7919 % 2000);
  values[300] = 1.1e6;
  scale = _strobe_memory_graph_robust_max (values, G_N_ELEMENTS (values), &peak);
  g_assert_cmpfloat (peak, ==, 1.1e6);
  g_assert_cmpfloat (scale, >=, 5999);          /* every ordinary sample fits */
  g_assert_cmpfloat (scale, <, 20000);          /* …and fills more than a quarter of the lane */
  values[300] = 5000;
  scale = _strobe_memory_graph_robust_max (values, G_N_ELEMENTS (values), &peak);
  g_assert_cmpfloat (scale, ==, peak);
  g_assert_cmpfloat (peak, ==, 5999);
  /* A ramp is a shape, not a spike. */
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = i;
  scale = _strobe_memory_graph_robust_max (values, G_N_ELEMENTS (values), &peak);
  g_assert_cmpfloat (scale, ==, 599);
  /* Few samples: the largest. */
  scale = _strobe_memory_graph_robust_max ((const double[]) { 1, 1, 1000 }, 3, &peak);
  g_assert_cmpfloat (scale, ==, 1000);
}

/* ---- the view and strobe-cli memory --query agree (issue 24 item 2) ------------------------- */

typedef struct
{
  guint64 count, bytes, never, never_bytes;
} GroupNumbers;

static int
compare_numbers (gconstpointer a, gconstpointer b)
{
  const GroupNumbers *x = a, *y = b;

  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? 1 : -1;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  if (x->never_bytes != y->never_bytes)
    return x->never_bytes < y->never_bytes ? 1 : -1;
  return (x->never < y->never) - (x->never > y->never);
}

/* strobe-cli memory --query=… --by=stack,function,…: the totals, and each grouping's
 * numbers, sorted, in @groups[0..n_by) (in the order of --by). */
static void
cli_query (const char *trace, const char *const *args, guint64 *count, guint64 *bytes, GArray **groups, guint n_by)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) cli = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  int in = -1, at = -1;
  gboolean seen = FALSE;

  g_ptr_array_add (argv, (gpointer) g_getenv ("STROBE_CLI"));
  g_ptr_array_add (argv, (gpointer) "memory");
  g_ptr_array_add (argv, (gpointer) "--max-leaks=0");
  g_ptr_array_add (argv, (gpointer) "--top=-1");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) trace);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_setenv (l, "LC_ALL", "C", TRUE);
  cli = g_subprocess_launcher_spawnv (l, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (cli, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 0);
  for (guint g = 0; g < n_by; g++)
    groups[g] = g_array_new (FALSE, TRUE, sizeof (GroupNumbers));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      GroupNumbers g;

      if (sscanf (lines[i], "Query: %" G_GUINT64_FORMAT " allocations, %" G_GUINT64_FORMAT " bytes", count, bytes) == 2)
        seen = TRUE;
      else if (g_str_has_prefix (lines[i], "Groups by "))
        in = ++at;
      else if (in >= 0 && sscanf (lines[i], " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                                  " %" G_GUINT64_FORMAT, &g.count, &g.bytes, &g.never, &g.never_bytes) == 4)
        g_array_append_val (groups[in], g);
      else if (*lines[i] == '\0')
        in = -1;
    }
  g_assert_true (seen);
  g_assert_cmpint (at + 1, ==, (int) n_by);
  for (guint g = 0; g < n_by; g++)
    g_array_sort (groups[g], compare_numbers);
}

static gboolean
queries_idle (gpointer data)
{
  return !strobe_memory_queries_is_running (data);
}

/* Every group's row beside the allocations it is made of: select each of the first groups,
 * and the table lists as many allocations, of as many bytes. */
static void
check_group_rows (Fixture *f, StrobeMemoryQueries *q)
{
  GtkColumnView *groups_view = strobe_memory_queries_get_groups_table (q);
  GtkSingleSelection *sel = GTK_SINGLE_SELECTION (gtk_column_view_get_model (groups_view));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (sel));

  for (guint i = 0; i < MIN (n, 4u); i++)
    {
      g_autoptr (StrobeMemoryCostItem) item = g_list_model_get_item (G_LIST_MODEL (sel), i);
      const StrobeMemoryCostData *d = strobe_memory_cost_item_get_data (item);
      GListModel *rows;
      guint64 bytes = 0;

      gtk_single_selection_set_selected (sel, i);
      memory_iterate (2);
      wait_for (queries_idle, q);
      rows = table_model (f);
      g_assert_cmpuint (g_list_model_get_n_items (rows), ==, d->inclusive.allocations);
      for (guint r = 0; r < g_list_model_get_n_items (rows); r++)
        {
          g_autoptr (StrobeMemoryAllocItem) it = g_list_model_get_item (rows, r);
          const StrobeMemoryAlloc *a = strobe_memory_alloc_item_get_record (it);

          if (!(a->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK))
            bytes += a->size;
        }
      g_assert_cmpuint (bytes, ==, d->inclusive.bytes_allocated);
    }
  /* No group selected: the whole answer again. */
  gtk_single_selection_set_selected (sel, GTK_INVALID_LIST_POSITION);
  memory_iterate (2);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (f)), ==,
                    strobe_memory_alloc_list_get_n_items (strobe_memory_queries_get_result (q)));
}

static void
check_agrees_with_cli (const char *trace)
{
  static const struct { StrobeMemorySelect kind; const char *name; } kinds[] = {
    { STROBE_MEMORY_SELECT_LIVE_AT, "live-at" },
    { STROBE_MEMORY_SELECT_ALLOCATED, "allocated" },
    { STROBE_MEMORY_SELECT_ALLOCATED_LIVE, "allocated-live" },
    { STROBE_MEMORY_SELECT_FREED, "freed" },
    { STROBE_MEMORY_SELECT_LEAKS, "leaks" },
    { STROBE_MEMORY_SELECT_SHORT_LIVED, "short-lived" },
    { STROBE_MEMORY_SELECT_LONG_LIVED, "long-lived" },
  };
  static const struct { int by; const char *name; } bys[] = {
    { STROBE_MEMORY_QUERIES_NO_GROUPS, NULL },
    { STROBE_MEMORY_BY_STACK, "stack" },
    { STROBE_MEMORY_BY_FUNCTION, "function" },
    { STROBE_MEMORY_BY_TAG, "tag" },
    { STROBE_MEMORY_BY_HEAP, "heap" },
    { STROBE_MEMORY_BY_SIZE, "size" },
    { STROBE_MEMORY_BY_THREAD, "thread" },
  };
  Fixture f = { 0 };
  StrobeMemoryQueries *q;
  StrobeTraceClock clock;
  guint64 first, last;
  char sa[32], sb[32], sc[32];
  guint64 a, b, c;

  open_trace (&f, trace);
  q = strobe_memory_view_get_queries (f.view);
  strobe_document_get_clock (f.document, &clock);
  g_assert_true (strobe_document_get_extent (f.document, &first, &last));
  /* A, B and C as text, as a user gives them to strobe-cli, and the ticks they are. */
  g_ascii_formatd (sa, sizeof sa, "%.6f", strobe_trace_clock_to_seconds (&clock, first + (last - first) / 4));
  g_ascii_formatd (sb, sizeof sb, "%.6f", strobe_trace_clock_to_seconds (&clock, first + (last - first) / 2));
  g_ascii_formatd (sc, sizeof sc, "%.6f", strobe_trace_clock_to_seconds (&clock, first + 3 * (last - first) / 4));
  a = strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (sa, NULL));
  b = strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (sb, NULL));
  c = strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (sc, NULL));

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *query = g_strconcat ("--query=", kinds[k].name, NULL);
      g_autofree char *from = g_strconcat ("--from=", sa, NULL);
      g_autofree char *to = g_strconcat ("--to=", sb, NULL);
      g_autofree char *at = g_strconcat ("--at=", kinds[k].kind == STROBE_MEMORY_SELECT_LIVE_AT ? sa : sc, NULL);
      const char *args[] = { query, from, to, at, "--lifetime=0.001", "--by=stack,function,tag,heap,size,thread", NULL };
      GArray *want[G_N_ELEMENTS (bys)] = { NULL };
      guint64 count = 0, bytes = 0;
      g_autofree char *totals = NULL;
      StrobeMemoryAllocList *rows = NULL;

      cli_query (trace, args, &count, &bytes, want + 1, G_N_ELEMENTS (bys) - 1);
      totals = totals_text (count, bytes);
      for (guint g = 0; g < G_N_ELEMENTS (bys); g++)
        {
          g_autoptr (GArray) got = g_array_new (FALSE, TRUE, sizeof (GroupNumbers));
          GListModel *groups;

          g_test_message ("%s: %s %s", trace, kinds[k].name, bys[g].name ? bys[g].name : "");
          strobe_memory_queries_set_group_by (q, bys[g].by);
          if (g == 0)
            {
              run_query (&f, kinds[k].kind, a, b, kinds[k].kind == STROBE_MEMORY_SELECT_SHORT_LIVED
                                                  || kinds[k].kind == STROBE_MEMORY_SELECT_LONG_LIVED
                                                  ? strobe_trace_clock_ticks (&clock, 0.001) : c);
              rows = strobe_memory_queries_get_result (q);
            }
          else
            {
              /* Grouped as a user does, after the run: the same rows, grouped anew. */
              settle (&f);
              g_assert_true (strobe_memory_queries_get_result (q) == rows);
            }
          g_assert_cmpstr (strobe_memory_queries_get_totals_text (q), ==, totals);
          g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, count);
          if (bys[g].name == NULL)
            continue;
          groups = G_LIST_MODEL (gtk_column_view_get_model (strobe_memory_queries_get_groups_table (q)));
          for (guint i = 0; i < g_list_model_get_n_items (groups); i++)
            {
              g_autoptr (StrobeMemoryCostItem) item = g_list_model_get_item (groups, i);
              const StrobeMemoryCostData *d = strobe_memory_cost_item_get_data (item);
              GroupNumbers n = { d->inclusive.allocations, d->inclusive.bytes_allocated, d->inclusive.leaked_count,
                                 (guint64) MAX (d->inclusive.leaked_bytes, 0) };

              g_array_append_val (got, n);
            }
          g_array_sort (got, compare_numbers);
          g_assert_cmpuint (got->len, ==, want[g]->len);
          for (guint i = 0; i < got->len; i++)
            {
              GroupNumbers *x = &g_array_index (got, GroupNumbers, i), *y = &g_array_index (want[g], GroupNumbers, i);

              g_assert_cmpuint (x->count, ==, y->count);
              g_assert_cmpuint (x->bytes, ==, y->bytes);
              g_assert_cmpuint (x->never, ==, y->never);
              g_assert_cmpuint (x->never_bytes, ==, y->never_bytes);
            }
          if (kinds[k].kind == STROBE_MEMORY_SELECT_ALLOCATED && got->len > 0 && bys[g].by == STROBE_MEMORY_BY_FUNCTION)
            check_group_rows (&f, q);
        }
      for (guint g = 1; g < G_N_ELEMENTS (bys); g++)
        g_array_unref (want[g]);
    }

  /* A grouping chosen after the run applies at once: the groups appear without Run. */
  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_QUERIES_NO_GROUPS);
  run_query (&f, STROBE_MEMORY_SELECT_LEAKS, a, b, c);
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (strobe_memory_queries_get_groups_table (q)))));
  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_BY_FUNCTION);
  settle (&f);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (strobe_memory_queries_get_groups_table (q)))));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (strobe_memory_queries_get_groups_table (q)))), >, 0);
  {
    /* …and the groups table is as wide as its columns want: no name cut to "python…". */
    GtkWidget *groups = GTK_WIDGET (strobe_memory_queries_get_groups_table (q));
    int nat = 0;

    gtk_widget_measure (groups, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat, NULL, NULL);
    g_assert_cmpint (gtk_widget_get_width (gtk_widget_get_parent (groups)), >=,
                     MIN (nat, gtk_widget_get_width (GTK_WIDGET (q)) / 2 - 16));
  }
  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_QUERIES_NO_GROUPS);
  settle (&f);
  close_all (&f);
}

static void
test_agrees_with_cli (void)
{
  g_autofree char *demo = g_build_filename (work_dir, "demo.strobe", NULL);
  g_autofree char *demo_opt = g_strconcat ("--tracefile=", demo, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = NULL;

  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("STROBE_DEMO"), "--duration=1.2",
                        "--trace=memory", demo_opt, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);
  check_agrees_with_cli (demo);
  if (python_path == NULL)
    {
      g_test_message ("no python3 trace (no python3, or a sanitizer build): only the demo's trace compared");
      return;
    }
  check_agrees_with_cli (python_path);
}

/* Another grouping of the answer shown selects nothing again: the same rows, the row the
 * user chose still chosen; a table that listed one group of the grouping before lists the
 * whole answer. */
static gboolean
group_column_visible (StrobeMemoryQueries *q, guint index)
{
  GListModel *columns = gtk_column_view_get_columns (strobe_memory_queries_get_groups_table (q));
  g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, index);

  return gtk_column_view_column_get_visible (column);
}

static void
test_regroup (void)
{
  Fixture f = { 0 };
  StrobeMemoryQueries *q;
  GtkSingleSelection *table, *groups;
  StrobeMemoryAllocList *rows;
  StrobeMemorySummary s;

  open_trace (&f, stacks_path);
  q = strobe_memory_view_get_queries (f.view);
  strobe_memory_model_get_summary (f.model, &s);
  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_QUERIES_NO_GROUPS);
  run_query (&f, STROBE_MEMORY_SELECT_ALLOCATED, s.first_time, s.last_time, s.last_time);
  rows = strobe_memory_queries_get_result (q);
  g_assert_cmpuint (strobe_memory_alloc_list_get_n_items (rows), >, 3);
  table = GTK_SINGLE_SELECTION (gtk_column_view_get_model (strobe_memory_queries_get_table (q)));
  groups = GTK_SINGLE_SELECTION (gtk_column_view_get_model (strobe_memory_queries_get_groups_table (q)));
  gtk_single_selection_set_selected (table, 2);
  settle (&f);

  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_BY_FUNCTION);
  settle (&f);
  g_assert_true (strobe_memory_queries_get_result (q) == rows);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (groups)), >, 1);
  g_assert_cmpuint (gtk_single_selection_get_selected (table), ==, 2);

  /* A group's rows listed, then another grouping: all of the answer, nothing chosen. */
  gtk_single_selection_set_selected (groups, 0);
  settle (&f);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), <, strobe_memory_alloc_list_get_n_items (rows));
  strobe_memory_queries_set_group_by (q, STROBE_MEMORY_BY_SIZE);
  settle (&f);
  g_assert_true (strobe_memory_queries_get_result (q) == rows);
  g_assert_cmpuint (g_list_model_get_n_items (table_model (&f)), ==, strobe_memory_alloc_list_get_n_items (rows));
  g_assert_cmpuint (gtk_single_selection_get_selected (table), ==, GTK_INVALID_LIST_POSITION);
  g_assert_true (group_column_visible (q, 3) && group_column_visible (q, 4));

  /* A leaks answer's "Never Freed" columns would repeat Allocations and Bytes: hidden,
   * and back for an answer where they differ. */
  run_query (&f, STROBE_MEMORY_SELECT_LEAKS, 0, 0, 0);
  g_assert_false (group_column_visible (q, 3) || group_column_visible (q, 4));
  g_assert_true (group_column_visible (q, 0) && group_column_visible (q, 2));
  run_query (&f, STROBE_MEMORY_SELECT_ALLOCATED, s.first_time, s.last_time, s.last_time);
  g_assert_true (group_column_visible (q, 3) && group_column_visible (q, 4));
  close_all (&f);
}

/* Open Source Location on a frame whose file is not here (python3's, named as where it was
 * built): the whole message, which is about source files, not a "log site" (issue 24
 * item 15). */
static void
test_missing_source (void)
{
  Fixture f = { 0 };
  StrobeMemoryStackPanel *stack;
  GtkSelectionModel *selection;
  const char *status;

  if (python_path == NULL)
    {
      g_test_skip ("no python3 trace (no python3, or a sanitizer build)");
      return;
    }
  open_trace (&f, python_path);
  stack = strobe_memory_view_get_stack (f.view);
  selection = gtk_column_view_get_model (strobe_memory_queries_get_table (strobe_memory_view_get_queries (f.view)));
  gtk_selection_model_select_item (selection, 0, TRUE);
  memory_iterate (50);
  gtk_widget_activate_action (GTK_WIDGET (stack), "stack.open-source", NULL);
  memory_iterate (20);
  status = strobe_memory_stack_panel_get_status (stack);
  g_test_message ("status: %s", status);
  g_assert_nonnull (strstr (status, "is not on this computer"));
  g_assert_null (strstr (status, "log site"));
  g_assert_true (g_str_has_suffix (status, "or build it here."));
  close_all (&f);
}

static gboolean
notice_names_symbols (gpointer data)
{
  return strstr (strobe_memory_view_get_notice (data), "No symbols for") != NULL;
}

/* A program whose library is stripped (as distributions ship them) and has no debug file
 * here: the view says which module has no symbols and how to get them, instead of frames
 * that just read "libstack-plugin.so+0x1139" (issue 24 item 12: python3.11+0x62d1da). */
static void
test_no_symbols (void)
{
  Fixture f = { 0 };
  const char *objcopy = g_getenv ("OBJCOPY");
  g_autofree char *lib = g_build_filename (work_dir, "libstripped-plugin.so", NULL);
  g_autofree char *trace = g_build_filename (work_dir, "stripped.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = NULL;
  const char *notice;
  gsize len;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  g_test_skip ("the interposer cannot be preloaded under a sanitizer");
  return;
#endif
  if (objcopy == NULL || *objcopy == '\0')
    {
      g_test_skip ("no objcopy");
      return;
    }
  g_assert_true (g_file_get_contents (g_getenv ("STACK_PLUGIN"), &contents, &len, NULL));
  g_assert_true (g_file_set_contents (lib, contents, (gssize) len, NULL));
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, objcopy, "--strip-all", lib, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&p);
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("STROBE_CLI"), "run", "--callstacks", opt,
                        "--", g_getenv ("STACK_VICTIM"), lib, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);

  open_trace (&f, trace);
  settle (&f);
  wait_for (notice_names_symbols, f.view);
  notice = strobe_memory_view_get_notice (f.view);
  g_test_message ("notice: %s", notice);
  g_assert_nonnull (strstr (notice, "libstripped-plugin.so"));
  g_assert_nonnull (strstr (notice, "-dbgsym"));
  g_assert_nonnull (strstr (notice, "DEBUGINFOD_URLS"));
  /* The program itself has its symbols: not named. */
  g_assert_null (strstr (notice, "stack-victim"));
  close_all (&f);
}

/* The demo with every channel: memory, log and timeline in one trace. */
static char *
record_demo_all (void)
{
  g_autofree char *path = g_build_filename (work_dir, "demo-all.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", path, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = NULL;

  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("STROBE_DEMO"), "--duration=1.2",
                        "--trace=all", opt, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* A short python3 run with call stacks, recorded here by strobe-cli run. */
static char *
record_python (void)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *py = g_build_filename (work_dir, "python.strobe", NULL);
  g_autofree char *py_opt = g_strconcat ("--tracefile=", py, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = NULL;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  /* An instrumented interposer cannot be preloaded into python3 (the sanitizer's runtime
   * must come first and owns malloc): the python checks run in the normal build. */
  (void) python;
  return NULL;
#endif
  if (python == NULL)
    return NULL;
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("STROBE_CLI"), "run", "--callstacks",
                        py_opt, "--", python, "-c",
                        "import json\nd = [json.dumps({'a': i, 'b': [str(j) for j in range(40)]}) for i in range(1500)]\n"
                        "keep = d[::7]\nprint(len(keep))", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&py);
}

/* ---- main ----------------------------------------------------------------------------------- */

static void
run_tests_cb (GApplication *app, int *status)
{
  g_application_hold (app);
  *status = g_test_run ();
  g_application_release (app);
}

static void
run_emitter (const char *out, const char *flag)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "STROBE_MEMORY_SHIFT", "0", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("MEMVIEW_EMITTER"), out, flag, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);
}

int
main (int argc, char *argv[])
{
  char *app_argv[] = { argv[0], NULL };
  g_autofree char *store_dir = NULL;
  int status = 1;

  work_dir = test_dir_make_home ("strobe-memory-view-XXXXXX");
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);

  golden_path = g_build_filename (g_getenv ("GOLDEN_DIR"), "golden-memview.strobe", NULL);
  stacks_path = g_build_filename (work_dir, "stacks.strobe", NULL);
  late_path = g_build_filename (work_dir, "late.strobe", NULL);
  run_emitter (stacks_path, "--stacks");
  run_emitter (late_path, "--late");
  python_path = record_python ();
  demo_all_path = record_demo_all ();
  store_dir = g_build_filename (work_dir, "store", NULL);

  g_test_add_func ("/memory-view/golden-table", test_golden_table);
  g_test_add_func ("/memory-view/query-no-room", test_query_no_room);
  g_test_add_func ("/memory-view/replace-rows", test_replace_rows);
  g_test_add_func ("/memory-view/summary", test_summary);
  g_test_add_func ("/memory-view/graph", test_graph);
  g_test_add_func ("/memory-view/graph-once-read", test_graph_once_read);
  g_test_add_func ("/memory-view/graph-snapshot", test_graph_snapshot);
  g_test_add_func ("/memory-view/graph-gap-snapshot", test_graph_gap_snapshot);
  g_test_add_func ("/memory-view/gap-from-trace", test_gap_from_trace);
  g_test_add_func ("/memory-view/not-analysed", test_not_analysed);
  g_test_add_func ("/memory-view/trees", test_trees);
  g_test_add_func ("/memory-view/range-trees", test_range_trees);
  g_test_add_func ("/memory-view/stack-panel", test_stack_panel);
  g_test_add_func ("/memory-view/partial", test_partial);
  g_test_add_func ("/memory-view/cut-off", test_cut_off);
  g_test_add_func ("/memory-view/no-memory", test_no_memory);
  g_test_add_func ("/memory-view/accessibility", test_accessibility);
  g_test_add_func ("/memory-view/agrees-with-cli", test_agrees_with_cli);
  g_test_add_func ("/memory-view/regroup", test_regroup);
  g_test_add_func ("/memory-view/rate-scale", test_rate_scale);
  g_test_add_func ("/memory-view/missing-source", test_missing_source);
  g_test_add_func ("/memory-view/no-symbols", test_no_symbols);
  g_test_add_func ("/memory-view/show-in-timeline", test_show_in_timeline);

  the_app = g_object_new (STROBE_TYPE_APPLICATION,
                          "application-id", STROBE_APP_ID,
                          "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                          "resource-base-path", "/org/strobe/Viewer",
                          "store-directory", store_dir,
                          "recorder-port", 0,
                          NULL);
  g_signal_connect_after (the_app, "activate", G_CALLBACK (run_tests_cb), &status);
  if (g_application_run (G_APPLICATION (the_app), 1, app_argv) != 0)
    return 1;
  g_clear_object (&the_app);
  test_dir_remove_all (work_dir);
  return status;
}
