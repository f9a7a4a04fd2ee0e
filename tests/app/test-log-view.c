/* test-log-view.c — the log view in the real viewer under Xvfb: filters from the filter
 * bar and the rows they leave, the empty state and the notices, copy and export, the
 * cursor and selected message shared with the other views, odd content (escapes, a site
 * never described, arguments that do not fit), "open source location" through the
 * editor command, and a live session followed as it grows.
 *
 * The traces are made here: a generated one whose every message is also kept as text, so
 * each filter's expected rows are counted independently of the model; and a live one from
 * tests/app/log-emitter streaming to the embedded recorder.
 *
 * With STROBE_SCREENSHOT_DIR set, the window is saved as PNGs at the interesting moments.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <gtk/gtk.h>

#include "log-emitter-client.h"
#include "log-stream.h"
#include "strobe-application.h"
#include "strobe-document-view.h"
#include "strobe-log-checklist.h"
#include "strobe-log-details.h"
#include "strobe-log-level-icon.h"
#include "strobe-log-view.h"
#include "tab-walk.h"
#include "strobe-preferences-dialog.h"
#include "strobe-window.h"
#include "test-dirs.h"
#include "widget-find.h"
#include "widget-render.h"

static StrobeApplication *the_app;
static char *work_dir;
static char *odd_path;
static char *source_path;

/* ---- the generated trace ----------------------------------------------------------------- */

typedef struct
{
  guint64  time;
  guint16  thread;
  guint32  category;   /* 0: unknown site */
  guint8   verbosity;  /* 0: unknown site */
  char    *text;
} Expected;

static GArray *expected;   /* Expected, in time order */

static const char *const hosts[] = { "example.org", "10.0.0.1", "db.local" };

static void
expect (guint64 time, guint16 thread, guint32 category, guint8 verbosity, char *text)
{
  Expected e = { time, thread, category, verbosity, text };

  g_array_append_val (expected, e);
}

/* 120 messages on three threads, 1 ms apart, in packets that interleave; categories Net,
 * Render, Audio and one whose name holds a terminal escape; message 7 holds escapes and a
 * newline, 13 names a site never described, 21 has an argument that does not fit. */
static void
write_odd_trace (const char *path)
{
  g_autoptr(Tsb) b = log_stream_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data;
  g_autoptr(GBytes) bytes = NULL;

  log_stream_category (b, 1, "Net", 5);
  log_stream_category (b, 2, "Render", 5);
  log_stream_category (b, 3, "Audio", 5);
  log_stream_category (b, 4, "Ctl\x1b[7m", 5);
  log_stream_spec (b, 1, 1, source_path, 12, 3, "connect to %s failed after %d tries");
  log_stream_spec (b, 2, 2, "src/render.c", 40, 5, "frame %d took %.2f ms");
  log_stream_spec (b, 3, 3, "src/audio.c", 7, 2, "buffer underrun on %s");
  log_stream_spec (b, 4, 1, "src/net.c", 99, 6, "packet %d: %s");
  log_stream_spec (b, 5, 2, "src/render.c", 41, 4, "plain text");
  log_stream_spec (b, 6, 4, "src/ctl.c", 1, 1, "%s");
  log_stream_spec (b, 7, 1, "src/net.c", 120, 2, "code %d");
  tsb_thread_info (b, 16, 1000, 0, "main", "");
  tsb_thread_info (b, 17, 1001, 1, "render", "");
  tsb_thread_info (b, 18, 1002, 2, "audio", "");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);

  for (guint i = 0; i < 120; i++)
    {
      guint16 tid = (guint16) (16 + i % 3);
      guint64 t = 1000 + 1000000 * (guint64) (i + 1);
      g_autoptr(GBytes) args = NULL;

      if (i == 7)
        {
          args = log_args ("s", "\x1b[31mred alert\x1b[0m\nsecond line");
          log_stream_message (b, tid, t, 6, args);
          expect (t, tid, 4, 1, g_strdup ("\x1b[31mred alert\x1b[0m\nsecond line"));
        }
      else if (i == 13)
        {
          args = log_args ("i", 5);
          log_stream_message (b, tid, t, 99, args);
          expect (t, tid, 0, 0, g_strdup ("(unknown log site 99)"));
        }
      else if (i == 21)
        {
          args = log_args ("s", "oops");
          log_stream_message (b, tid, t, 7, args);
          expect (t, tid, 1, 2, g_strdup ("code (?)"));
        }
      else
        switch (i % 6)
          {
          case 0:
            args = log_args ("si", hosts[i % 3], (int) i);
            log_stream_message (b, tid, t, 1, args);
            expect (t, tid, 1, 3, g_strdup_printf ("connect to %s failed after %d tries", hosts[i % 3], (int) i));
            break;
          case 1:
          case 5:
            args = log_args ("id", (int) i, i * 0.5);
            log_stream_message (b, tid, t, 2, args);
            expect (t, tid, 2, 5, g_strdup_printf ("frame %d took %.2f ms", (int) i, i * 0.5));
            break;
          case 2:
            args = log_args ("s", i % 2 ? "hw:0" : "pulse");
            log_stream_message (b, tid, t, 3, args);
            expect (t, tid, 3, 2, g_strdup_printf ("buffer underrun on %s", i % 2 ? "hw:0" : "pulse"));
            break;
          case 3:
            args = log_args ("is", (int) i, "ok");
            log_stream_message (b, tid, t, 4, args);
            expect (t, tid, 1, 6, g_strdup_printf ("packet %d: ok", (int) i));
            break;
          default:
            log_stream_message (b, tid, t, 5, NULL);
            expect (t, tid, 2, 4, g_strdup ("plain text"));
            break;
          }
      /* Threads send in packets of ten of their messages: the arrival order is not the
       * time order. */
      if (i % 10 == 9)
        tsb_flush (b, (guint16) (16 + (i / 10) % 3), TSB_AUTO);
    }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  bytes = tsb_bytes (b);
  data = g_bytes_get_data (bytes, &len);
  g_file_set_contents (path, (const char *) data, (gssize) len, &error);
  g_assert_no_error (error);
}

typedef gboolean (*Predicate) (const Expected *e, gconstpointer data);

static guint
count_expected (Predicate pass, gconstpointer data)
{
  guint n = 0;

  for (guint i = 0; i < expected->len; i++)
    n += pass (&g_array_index (expected, Expected, i), data);
  return n;
}

static gboolean
contains_ci (const Expected *e, gconstpointer needle)
{
  g_autofree char *hay = g_ascii_strdown (e->text, -1);

  return strstr (hay, needle) != NULL;
}

static gboolean
at_most (const Expected *e, gconstpointer level)
{
  return e->verbosity <= GPOINTER_TO_UINT (level);
}


/* ---- helpers ------------------------------------------------------------------------------ */

typedef gboolean (*Condition) (gpointer data);

#define wait_for(cond, data) wait_for_named (cond, data, #cond)

static void
wait_for_named (Condition cond, gpointer data, const char *name)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting for the UI: %s", name);
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
}

static void
settle (void)
{
  for (int i = 0; i < 20; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
}

static GtkToggleButton *
find_toggle (GtkWidget *widget, const char *label)
{
  if (GTK_IS_TOGGLE_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return GTK_TOGGLE_BUTTON (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkToggleButton *found = find_toggle (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static StrobeLogChecklist *
checklist_of (GtkWidget *view, const char *button_label)
{
  for (GtkWidget *w = find_type (view, GTK_TYPE_MENU_BUTTON); w != NULL; w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_MENU_BUTTON (w) && g_str_has_prefix (gtk_menu_button_get_label (GTK_MENU_BUTTON (w)), button_label))
      return STROBE_LOG_CHECKLIST (gtk_popover_get_child (GTK_POPOVER (gtk_menu_button_get_popover (GTK_MENU_BUTTON (w)))));
  return NULL;
}

/* Saves the window as STROBE_SCREENSHOT_DIR/NAME.png when that is set. */
static void
screenshot (GtkWidget *window, const char *name)
{
  const char *dir = g_getenv ("STROBE_SCREENSHOT_DIR");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  settle ();
  if ((texture = widget_render (window)) == NULL)
    return;
  path = g_strdup_printf ("%s/%s.png", dir, name);
  gdk_texture_save_to_png (texture, path);
  g_test_message ("screenshot: %s", path);
}

typedef struct
{
  StrobeWindow       *window;
  StrobeDocumentView *page;
  StrobeLogView      *view;
  StrobeLogList      *list;
  StrobeViewState    *state;
} Fixture;

static gboolean
document_loaded (gpointer data)
{
  StrobeDocument *document = strobe_window_get_current_document (data);

  return document != NULL && strobe_document_is_loaded (document);
}

static gboolean
list_settled (gpointer data)
{
  return !strobe_log_list_is_filtering (data);
}

static void
open_trace (Fixture *f, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  f->window = strobe_window_new (GTK_APPLICATION (the_app), strobe_application_get_services (the_app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 800);
  gtk_window_present (GTK_WINDOW (f->window));
  strobe_window_open_file (f->window, file);
  wait_for (document_loaded, f->window);
  f->page = STROBE_DOCUMENT_VIEW (find_type (GTK_WIDGET (f->window), STROBE_TYPE_DOCUMENT_VIEW));
  g_assert_true (strobe_document_view_show_view (f->page, "log"));
  f->view = STROBE_LOG_VIEW (strobe_document_view_get_view (f->page, "log"));
  f->list = strobe_log_view_get_list (f->view);
  f->state = strobe_document_view_get_state (f->page);
  wait_for (list_settled, f->list);
  settle ();
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
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static guint
n_rows (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (f->list));
}

/* The filter bar changed: wait for the worker to finish (the range filter waits for the
 * selection to rest 120 ms first). */
static void
wait_filtered (Fixture *f)
{
  settle ();
  wait_for (list_settled, f->list);
  settle ();
}

static void
type_filter (Fixture *f, const char *text)
{
  GtkWidget *entry = find_type (GTK_WIDGET (f->view), GTK_TYPE_SEARCH_ENTRY);

  /* As typed, without the entry's delay before "search-changed". */
  gtk_search_entry_set_search_delay (GTK_SEARCH_ENTRY (entry), 0);
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  wait_filtered (f);
}

/* The status bar's count: "N of M messages" or "M messages". */
static gboolean
shows_count (Fixture *f, guint shown, guint total)
{
  g_autofree char *text = shown == total && strobe_log_list_get_filter (f->list) == NULL
                          ? g_strdup_printf ("%u messages", total)
                          : g_strdup_printf ("%u of %u messages", shown, total);

  return find_text (GTK_WIDGET (f->view), text) != NULL;
}

/* ---- tests --------------------------------------------------------------------------------- */

static void
test_filters (void)
{
  Fixture f = { 0 };
  GtkDropDown *levels;
  GtkToggleButton *regex;
  StrobeLogChecklist *categories, *threads;
  guint n;

  open_trace (&f, odd_path);
  g_assert_cmpuint (n_rows (&f), ==, 120);
  g_assert_true (shows_count (&f, 120, 120));
  /* The rows are on screen: the first messages, whole. */
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), g_array_index (expected, Expected, 0).text));
  screenshot (GTK_WIDGET (f.window), "log-all");

  /* Text: Tracy's syntax. */
  type_filter (&f, "example");
  n = count_expected (contains_ci, "example");
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n_rows (&f), ==, n);
  g_assert_true (shows_count (&f, n, 120));
  g_assert_nonnull (find_text_prefix (GTK_WIDGET (f.view), "connect to example.org failed"));
  g_assert_null (find_text_prefix (GTK_WIDGET (f.view), "frame"));
  screenshot (GTK_WIDGET (f.window), "log-text-filter");

  type_filter (&f, "EXAMPLE, underrun");
  g_assert_cmpuint (n_rows (&f), ==, count_expected (contains_ci, "example") + count_expected (contains_ci, "underrun"));
  type_filter (&f, "-frame");
  g_assert_cmpuint (n_rows (&f), ==, 120 - count_expected (contains_ci, "frame"));

  /* A regular expression, and one that does not compile. */
  regex = find_toggle (GTK_WIDGET (f.view), ".*");
  g_assert_nonnull (regex);
  type_filter (&f, "^frame [0-9]+ took");
  gtk_toggle_button_set_active (regex, TRUE);
  wait_filtered (&f);
  g_assert_cmpuint (n_rows (&f), ==, count_expected (contains_ci, "frame "));
  type_filter (&f, "frame (");
  g_assert_nonnull (find_text_prefix (GTK_WIDGET (f.view), "The regular expression does not compile"));
  g_assert_true (gtk_widget_has_css_class (find_type (GTK_WIDGET (f.view), GTK_TYPE_SEARCH_ENTRY), "error"));
  gtk_toggle_button_set_active (regex, FALSE);
  type_filter (&f, "");
  g_assert_cmpuint (n_rows (&f), ==, 120);
  g_assert_null (find_text_prefix (GTK_WIDGET (f.view), "The regular expression does not compile"));

  /* Verbosity: warnings and worse (the unknown site has none, and is kept). */
  levels = GTK_DROP_DOWN (find_type (GTK_WIDGET (f.view), GTK_TYPE_DROP_DOWN));
  gtk_drop_down_set_selected (levels, 3);
  wait_filtered (&f);
  g_assert_cmpuint (n_rows (&f), ==, count_expected (at_most, GUINT_TO_POINTER (3)));

  /* Combined with a category unticked. */
  categories = checklist_of (GTK_WIDGET (f.view), "Categories");
  g_assert_nonnull (categories);
  /* Net, Render, Audio, the escaped one and the unknown sites. */
  g_assert_cmpuint (strobe_log_checklist_get_n_entries (categories), ==, 5);
  strobe_log_checklist_set_shown (categories, 1, FALSE);
  wait_filtered (&f);
  {
    guint both = 0;

    for (guint i = 0; i < expected->len; i++)
      {
        const Expected *e = &g_array_index (expected, Expected, i);

        both += e->verbosity <= 3 && e->category != 1;
      }
    g_assert_cmpuint (n_rows (&f), ==, both);
    g_assert_true (shows_count (&f, both, 120));
  }

  /* Threads: only render's. */
  gtk_drop_down_set_selected (levels, 0);
  strobe_log_checklist_show_all (categories);
  threads = checklist_of (GTK_WIDGET (f.view), "Threads");
  g_assert_cmpuint (strobe_log_checklist_get_n_entries (threads), ==, 3);
  strobe_log_checklist_set_shown (threads, 16, FALSE);
  strobe_log_checklist_set_shown (threads, 18, FALSE);
  wait_filtered (&f);
  g_assert_cmpuint (n_rows (&f), ==, 40);
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "Threads (2 hidden)"));
  g_assert_true (shows_count (&f, 40, 120));

  /* Nothing matches: the empty state says why, and clears. */
  type_filter (&f, "zzzz");
  g_assert_cmpuint (n_rows (&f), ==, 0);
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "No Messages Match"));
  {
    GtkWidget *why = find_text (GTK_WIDGET (f.view), "None of the 120 messages passes these filters: "
                                "text “zzzz”; threads (2 of 3 hidden).");

    g_assert_nonnull (why);
  }
  screenshot (GTK_WIDGET (f.window), "log-empty");
  gtk_widget_activate_action (GTK_WIDGET (f.view), "log.clear-filters", NULL);
  wait_filtered (&f);
  g_assert_cmpuint (n_rows (&f), ==, 120);
  g_assert_null (strobe_log_list_get_filter (f.list));
  g_assert_cmpuint (strobe_log_checklist_get_n_hidden (threads), ==, 0);

  /* Ctrl+F reaches the filter entry. */
  gtk_widget_activate_action (GTK_WIDGET (f.page), "document.find", NULL);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (gtk_root_get_focus (GTK_ROOT (f.window))))
                 && gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f.window)),
                                            find_type (GTK_WIDGET (f.view), GTK_TYPE_SEARCH_ENTRY)));
  close_all (&f);
}

/* The message cells of the table's row widgets (mapped or not): cell → its position. */
static void
collect_message_cells (GtkWidget *widget, GHashTable *cells)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (widget), "strobe-list-item");

  if (GTK_IS_INSCRIPTION (widget) && list_item != NULL && gtk_widget_has_css_class (widget, "monospace"))
    g_hash_table_insert (cells, widget, list_item);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_message_cells (c, cells);
}

/* Every row widget shows the message of its position in the list; returns how many. */
static guint
assert_rows_show_list (Fixture *f, GHashTable *cells)
{
  GHashTableIter iter;
  gpointer cell, list_item;
  guint n = 0;

  g_hash_table_iter_init (&iter, cells);
  while (g_hash_table_iter_next (&iter, &cell, &list_item))
    {
      guint position = gtk_list_item_get_position (list_item);
      g_autoptr(StrobeLogItem) item = NULL;

      if (position == GTK_INVALID_LIST_POSITION || gtk_list_item_get_item (list_item) == NULL)
        continue;
      item = g_list_model_get_item (G_LIST_MODEL (f->list), position);
      g_assert_nonnull (item);
      g_assert_cmpstr (gtk_inscription_get_text (cell), ==, strobe_log_item_get_display_text (item));
      n++;
    }
  return n;
}

/* A filter's answer replaces the rows: GTK 4.8 would destroy every row widget and make them
 * anew (100 ms of the main thread at 200 rows). The rows are kept instead, and each shows
 * its new message. */
static void
test_rows_kept (void)
{
  Fixture f = { 0 };
  g_autoptr(GHashTable) before = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) after = g_hash_table_new (NULL, NULL);
  StrobeLogRows *rows;
  guint64 reused;
  guint n;

  open_trace (&f, odd_path);
  rows = strobe_log_view_get_rows (f.view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 120);
  collect_message_cells (GTK_WIDGET (strobe_log_view_get_column_view (f.view)), before);
  g_assert_cmpuint (assert_rows_show_list (&f, before), >=, 20);
  reused = strobe_log_rows_get_reused (rows);
  /* A message the filter hides, selected: its place is kept for another message, which
   * must not come selected. */
  {
    guint hidden = 0;

    while (contains_ci (&g_array_index (expected, Expected, hidden), "example"))
      hidden++;
    gtk_selection_model_select_item (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)), hidden, TRUE);
  }

  type_filter (&f, "example");
  n = count_expected (contains_ci, "example");
  {
    g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)));

    g_assert_true (gtk_bitset_is_empty (selected));
  }
  g_assert_cmpuint (n_rows (&f), ==, n);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, n);
  g_assert_cmpuint (strobe_log_rows_get_pending (rows), ==, 0);
  collect_message_cells (GTK_WIDGET (strobe_log_view_get_column_view (f.view)), after);
  g_assert_cmpuint (assert_rows_show_list (&f, after), ==, n);
  /* No row widget was made: each is one of before. */
  {
    GHashTableIter iter;
    gpointer cell;

    g_hash_table_iter_init (&iter, after);
    while (g_hash_table_iter_next (&iter, &cell, NULL))
      g_assert_true (g_hash_table_contains (before, cell));
  }
  g_assert_cmpuint (strobe_log_rows_get_reused (rows), >=, reused + n);

  /* Cleared: the kept rows show the first messages again, and rows are made for the rest. */
  type_filter (&f, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 120);
  g_hash_table_remove_all (after);
  collect_message_cells (GTK_WIDGET (strobe_log_view_get_column_view (f.view)), after);
  g_assert_cmpuint (assert_rows_show_list (&f, after), >=, 20);
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), g_array_index (expected, Expected, 0).text));
  close_all (&f);
}

/* A message selected before the filter changes, and passing it, stays selected — where the
 * filter puts it — and shown; the details and the other views keep it. Cleared, the same:
 * it was shown near the top of the filtered rows and is near the end of all of them. */
static void
test_selection_kept (void)
{
  Fixture f = { 0 };
  GtkSelectionModel *selection;
  guint index = 0, position = 0;

  open_trace (&f, odd_path);
  selection = gtk_column_view_get_model (strobe_log_view_get_column_view (f.view));
  /* The last message with "example": its position differs once filtered. */
  for (guint i = 0; i < expected->len; i++)
    if (contains_ci (&g_array_index (expected, Expected, i), "example"))
      index = i;
  for (guint i = 0; i < index; i++)
    position += contains_ci (&g_array_index (expected, Expected, i), "example") ? 1 : 0;
  g_assert_cmpuint (position, <, index);
  gtk_selection_model_select_item (selection, index, TRUE);
  settle ();
  g_assert_cmpuint (strobe_view_state_get_selected_message (f.state), ==, index);

  for (guint round = 0; round < 2; round++)
    {
      guint at = round == 0 ? position : index;
      g_autoptr(GtkBitset) set = NULL;
      StrobeLogItem *shown;

      type_filter (&f, round == 0 ? "example" : "");
      settle ();
      set = gtk_selection_model_get_selection (selection);
      g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
      g_assert_cmpuint (gtk_bitset_get_minimum (set), ==, at);
      g_assert_cmpuint (strobe_view_state_get_selected_message (f.state), ==, index);
      shown = strobe_log_details_get_item (STROBE_LOG_DETAILS (strobe_log_view_get_details (f.view)));
      g_assert_nonnull (shown);
      g_assert_cmpuint (strobe_log_item_find_index (shown), ==, index);
      /* On screen (find_text looks at mapped widgets only). */
      g_assert_nonnull (find_text (GTK_WIDGET (strobe_log_view_get_column_view (f.view)),
                                   g_array_index (expected, Expected, index).text));
    }
  close_all (&f);
}

static void
test_odd_content (void)
{
  Fixture f = { 0 };
  GtkWidget *details;
  g_autoptr(StrobeLogItem) escaped = NULL;

  open_trace (&f, odd_path);
  /* Escapes shown escaped, on one line, in the table; the unknown site says so. */
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "\\u001b[31mred alert\\u001b[0m\\nsecond line"));
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "Ctl\\u001b[7m"));
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "render"));
  strobe_log_view_scroll_to (f.view, 13);
  settle ();
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "(unknown log site 99)"));
  strobe_log_view_scroll_to (f.view, 21);
  settle ();
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "code (?)"));
  /* Set apart in italics (and the warning colour). */
  {
    PangoAttrList *attrs = gtk_inscription_get_attributes (GTK_INSCRIPTION (find_text (GTK_WIDGET (f.view), "(unknown log site 99)")));
    g_autoptr(PangoAttrIterator) it = NULL;
    PangoAttribute *style;

    g_assert_nonnull (attrs);
    it = pango_attr_list_get_iterator (attrs);
    style = pango_attr_iterator_get (it, PANGO_ATTR_STYLE);
    g_assert_nonnull (style);
    g_assert_cmpint (((PangoAttrInt *) style)->value, ==, PANGO_STYLE_ITALIC);
    g_assert_nonnull (pango_attr_iterator_get (it, PANGO_ATTR_FOREGROUND));
  }
  g_assert_nonnull (find_text_prefix (GTK_WIDGET (f.view), "1 message names a log site the trace never described"));

  /* The details of the unknown site: its raw arguments. */
  gtk_selection_model_select_item (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)), 13, TRUE);
  settle ();
  /* Selected, it keeps its italics in the row's own colour (the level colours are hard to
   * read on the selection's). */
  {
    PangoAttrList *attrs = gtk_inscription_get_attributes (GTK_INSCRIPTION (find_text (GTK_WIDGET (f.view), "(unknown log site 99)")));
    g_autoptr(PangoAttrIterator) it = NULL;

    g_assert_nonnull (attrs);
    it = pango_attr_list_get_iterator (attrs);
    g_assert_nonnull (pango_attr_iterator_get (it, PANGO_ATTR_STYLE));
    g_assert_null (pango_attr_iterator_get (it, PANGO_ATTR_FOREGROUND));
  }
  details = strobe_log_view_get_details (f.view);
  g_assert_nonnull (find_text_prefix (details, "This message names log site 99"));
  g_assert_nonnull (find_text (details, "1. int32  5 (0x00000005)\nRaw bytes: 01 14 05 00 00 00"));
  screenshot (GTK_WIDGET (f.window), "log-unknown-site");

  /* The escapes, whole, on two lines. */
  gtk_selection_model_select_item (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)), 7, TRUE);
  settle ();
  g_assert_nonnull (find_text (details, "\\u001b[31mred alert\\u001b[0m\nsecond line"));
  g_assert_nonnull (find_text (details, "Fatal"));
  screenshot (GTK_WIDGET (f.window), "log-escapes");

  /* The argument that does not fit. */
  gtk_selection_model_select_item (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)), 21, TRUE);
  settle ();
  g_assert_nonnull (find_text_prefix (details, "The arguments do not fit the format"));
  g_assert_nonnull (find_text_prefix (details, "1. string  \"oops\"\nRaw bytes: 01 30 6f 6f 70 73 00"));
  close_all (&f);
  (void) escaped;
}

static gboolean
status_says_exported (gpointer data)
{
  return find_text_prefix (data, "Exported ") != NULL;
}

static void
test_copy_export (void)
{
  Fixture f = { 0 };
  GtkSelectionModel *selection;
  g_autofree char *rows = NULL, *message = NULL, *csv = NULL;
  g_autofree char *out_path = g_build_filename (work_dir, "export.csv", NULL);
  g_autoptr(GFile) out = g_file_new_for_path (out_path);
  g_autoptr(GString) want = g_string_new (NULL);

  open_trace (&f, odd_path);
  selection = gtk_column_view_get_model (strobe_log_view_get_column_view (f.view));
  gtk_selection_model_select_range (selection, 7, 3, TRUE);
  settle ();
  gtk_widget_activate_action (GTK_WIDGET (f.view), "log.copy", NULL);
  rows = clipboard_text (GTK_WIDGET (f.view));
  /* Three rows, tab-separated, escaped as TSV; times from the trace's first event (the
   * first message, 1 ms). */
  g_assert_cmpstr (rows, ==,
    "0.007000000\t17\trender\tCtl\x1b[7m\tfatal\tsrc/ctl.c\t1\t\x1b[31mred alert\x1b[0m\\nsecond line\n"
    "0.008000000\t18\taudio\tAudio\terror\tsrc/audio.c\t7\tbuffer underrun on pulse\n"
    "0.009000000\t16\tmain\tNet\tverbose\tsrc/net.c\t99\tpacket 9: ok\n");
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "Copied 3 rows"));

  gtk_selection_model_select_item (selection, 7, TRUE);
  settle ();
  gtk_widget_activate_action (GTK_WIDGET (f.view), "log.copy-message", NULL);
  message = clipboard_text (GTK_WIDGET (f.view));
  g_assert_cmpstr (message, ==, "\x1b[31mred alert\x1b[0m\nsecond line");

  /* Export what a filter shows. */
  type_filter (&f, "underrun");
  strobe_log_view_export (f.view, out, STROBE_LOG_EXPORT_CSV);
  wait_for (status_says_exported, f.view);
  g_assert_true (g_file_get_contents (out_path, &csv, NULL, NULL));
  g_string_append (want, "time_s,thread,thread_name,category,verbosity,file,line,message\n");
  for (guint i = 0; i < expected->len; i++)
    {
      const Expected *e = &g_array_index (expected, Expected, i);

      if (strstr (e->text, "underrun"))
        g_string_append_printf (want, "0.%03u000000,%u,%s,Audio,error,src/audio.c,7,%s\n",
                                (guint) ((e->time - 1001000) / 1000000), e->thread,
                                e->thread == 16 ? "main" : e->thread == 17 ? "render" : "audio", e->text);
    }
  g_assert_cmpstr (csv, ==, want->str);
  {
    g_autofree char *done = g_strdup_printf ("Exported %u rows to %s", count_expected (contains_ci, "underrun"), out_path);

    g_assert_nonnull (find_text (GTK_WIDGET (f.view), done));
  }
  close_all (&f);
}

/* (position, n_items) of each selection-changed, in order. */
static void
record_selection_change (GtkSelectionModel *model, guint position, guint n_items, GArray *changes)
{
  g_array_append_val (changes, position);
  g_array_append_val (changes, n_items);
}

/* The view state every view of the trace shares: the timeline's side is played here by
 * setting it directly, as the timeline does when a log tick is clicked. */
static void
test_cursor_sync (void)
{
  Fixture f = { 0 };
  GtkSelectionModel *selection;
  g_autoptr(StrobeLogItem) item = NULL;
  guint64 index, t;

  open_trace (&f, odd_path);
  selection = gtk_column_view_get_model (strobe_log_view_get_column_view (f.view));

  /* Selecting a message moves the cursor to it. */
  gtk_selection_model_select_item (selection, 30, TRUE);
  settle ();
  item = g_list_model_get_item (G_LIST_MODEL (f.list), 30);
  g_assert_cmpuint (strobe_view_state_get_cursor (f.state), ==, strobe_log_item_get_time (item));
  g_assert_cmpuint (strobe_view_state_get_selected_message (f.state), ==, 30);
  g_assert_true (strobe_log_details_get_item (STROBE_LOG_DETAILS (strobe_log_view_get_details (f.view))) != NULL);
  g_clear_object (&item);

  /* A message selected elsewhere is selected and scrolled to here. GTK is told of the two
   * rows that changed, not of every row between them (it would restyle each it keeps). */
  {
    g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (guint));
    gulong id = g_signal_connect (selection, "selection-changed", G_CALLBACK (record_selection_change), changes);

    strobe_view_state_set_selected_message (f.state, 110);
    settle ();
    g_signal_handler_disconnect (selection, id);
    g_assert_cmpuint (changes->len, ==, 4);
    g_assert_cmpuint (g_array_index (changes, guint, 0), ==, 30);
    g_assert_cmpuint (g_array_index (changes, guint, 1), ==, 1);
    g_assert_cmpuint (g_array_index (changes, guint, 2), ==, 110);
    g_assert_cmpuint (g_array_index (changes, guint, 3), ==, 1);
  }
  g_assert_true (gtk_selection_model_is_selected (selection, 110));
  g_assert_false (gtk_selection_model_is_selected (selection, 30));
  g_assert_cmpuint (strobe_view_state_get_selected_message (f.state), ==, 110);
  g_assert_true (strobe_log_details_get_item (STROBE_LOG_DETAILS (strobe_log_view_get_details (f.view))) != NULL);
  g_assert_cmpuint (strobe_log_item_find_index (strobe_log_details_get_item (STROBE_LOG_DETAILS (strobe_log_view_get_details (f.view)))), ==, 110);
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), g_array_index (expected, Expected, 110).text));
  g_assert_nonnull (find_text (strobe_log_view_get_details (f.view), g_array_index (expected, Expected, 110).text));
  /* With the details shown, Tab goes round the page and never sticks before them. */
  tab_walk_assert (GTK_WINDOW (f.window), GTK_WIDGET (strobe_log_view_get_column_view (f.view)), 60, 6);

  /* …through a filter: the position differs, the message is the same. */
  type_filter (&f, "frame");
  index = 0;
  for (guint i = 0; i < expected->len; i++)
    if (strstr (g_array_index (expected, Expected, i).text, "frame") && i > 60)
      {
        index = i;
        break;
      }
  strobe_view_state_set_selected_message (f.state, index);
  settle ();
  {
    g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (selection);
    g_autoptr(StrobeLogItem) selected = g_list_model_get_item (G_LIST_MODEL (f.list), gtk_bitset_get_minimum (set));

    g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
    g_assert_cmpuint (strobe_log_item_find_index (selected), ==, index);
    g_assert_cmpstr (strobe_log_item_get_text (selected), ==, g_array_index (expected, Expected, index).text);
  }

  /* One the filter hides: the notice says so and offers to show all. */
  strobe_view_state_set_selected_message (f.state, 2);
  settle ();
  g_assert_nonnull (find_text_prefix (GTK_WIDGET (f.view), "The message selected in another view is hidden by the filters."));
  screenshot (GTK_WIDGET (f.window), "log-hidden-selection");
  gtk_widget_activate_action (GTK_WIDGET (f.view), "log.clear-filters", NULL);
  wait_filtered (&f);
  g_assert_cmpuint (n_rows (&f), ==, 120);
  g_assert_true (gtk_selection_model_is_selected (selection, 2));
  g_assert_null (find_text_prefix (GTK_WIDGET (f.view), "The message selected in another view is hidden by the filters."));

  /* The cursor moved in another view: its moment comes into view. */
  t = g_array_index (expected, Expected, 95).time;
  strobe_view_state_set_cursor (f.state, t);
  settle ();
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), g_array_index (expected, Expected, 95).text));

  /* Only the selected time range, following the selection. */
  {
    GtkToggleButton *range = find_toggle (GTK_WIDGET (f.view), "Selected Range");

    strobe_view_state_set_selection (f.state, g_array_index (expected, Expected, 10).time,
                                     g_array_index (expected, Expected, 19).time);
    gtk_toggle_button_set_active (range, TRUE);
    wait_filtered (&f);
    g_assert_cmpuint (n_rows (&f), ==, 10);
    strobe_view_state_set_selection (f.state, g_array_index (expected, Expected, 50).time,
                                     g_array_index (expected, Expected, 54).time);
    wait_filtered (&f);
    g_assert_cmpuint (n_rows (&f), ==, 5);
    strobe_view_state_clear_selection (f.state);
    wait_filtered (&f);
    g_assert_cmpuint (n_rows (&f), ==, 120);
  }
  close_all (&f);
}

static void
test_open_source (void)
{
  Fixture f = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (STROBE_APP_ID);
  g_autofree char *copy = g_build_filename (work_dir, "opened-at-12.c", NULL);
  g_autofree char *command = g_strdup_printf ("cp %%f '%s/opened-at-%%l.c'", work_dir);
  gint64 deadline;

  g_settings_set_string (settings, "editor-command", command);
  open_trace (&f, odd_path);
  gtk_selection_model_select_item (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)), 0, TRUE);
  settle ();
  gtk_widget_activate_action (GTK_WIDGET (f.view), "log.open-source", NULL);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!g_file_test (copy, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (g_file_test (copy, G_FILE_TEST_EXISTS));

  /* A site whose file is not here: the status bar says so. */
  gtk_selection_model_select_item (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)), 1, TRUE);
  settle ();
  gtk_widget_activate_action (GTK_WIDGET (f.view), "log.open-source", NULL);
  settle ();
  g_assert_nonnull (find_text_prefix (GTK_WIDGET (f.view), "The source file “src/render.c” is not on this computer"));
  g_settings_reset (settings, "editor-command");

  /* Preferences has the setting, bound to its key. */
  g_action_group_activate_action (G_ACTION_GROUP (the_app), "preferences", NULL);
  settle ();
  {
    GList *toplevels = gtk_window_list_toplevels ();
    GtkWidget *dialog = NULL, *entry = NULL;

    for (GList *l = toplevels; l != NULL; l = l->next)
      if (STROBE_IS_PREFERENCES_DIALOG (l->data))
        dialog = l->data;
    g_list_free (toplevels);
    g_assert_nonnull (dialog);
    g_assert_nonnull (find_text (dialog, "Editor command"));
    g_settings_set_string (settings, "editor-command", "code --goto %f:%l");
    settle ();
    /* The last entry of the dialog is the editor command. */
    {
      GtkWidget *grid = find_type (dialog, GTK_TYPE_GRID);

      for (GtkWidget *child = gtk_widget_get_first_child (grid); child != NULL; child = gtk_widget_get_next_sibling (child))
        if (GTK_IS_ENTRY (child))
          entry = child;
    }
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "code --goto %f:%l");
    g_settings_reset (settings, "editor-command");
  }
  close_all (&f);
}

/* A truncated copy: the messages before the damage, and a notice. */
static void
test_damaged (void)
{
  Fixture f = { 0 };
  g_autofree char *contents = NULL;
  g_autofree char *path = g_build_filename (work_dir, "odd-damaged.strobe", NULL);
  gsize len;

  g_assert_true (g_file_get_contents (odd_path, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) (len * 2 / 3), NULL));
  open_trace (&f, path);
  g_assert_cmpint (strobe_document_get_status (strobe_window_get_current_document (f.window)), ==,
                   STROBE_DOCUMENT_STATUS_DAMAGED);
  g_assert_cmpuint (n_rows (&f), >, 0);
  g_assert_cmpuint (n_rows (&f), <, 120);
  g_assert_nonnull (find_text_prefix (GTK_WIDGET (f.view), "This trace is damaged: the messages before the damage are shown."));
  screenshot (GTK_WIDGET (f.window), "log-damaged");
  close_all (&f);
}

/* ---- live ------------------------------------------------------------------------------------ */

typedef struct
{
  Fixture *f;
  guint    n;
} RowsWait;

static gboolean
has_rows (gpointer data)
{
  RowsWait *w = data;

  return n_rows (w->f) == w->n && !strobe_log_list_is_filtering (w->f->list);
}

static void
test_live (void)
{
  g_autoptr(GFile) file = NULL;
  LogEmitter e;
  Fixture f = { 0 };
  RowsWait rows = { &f, 0 };
  StrobeDocument *document;

  log_emitter_start (&e, the_app, 40);

  f.window = strobe_window_new (GTK_APPLICATION (the_app), strobe_application_get_services (the_app));
  gtk_window_set_default_size (GTK_WINDOW (f.window), 1200, 800);
  gtk_window_present (GTK_WINDOW (f.window));
  file = g_file_new_for_path (e.path);
  document = strobe_window_open_file (f.window, file);
  g_assert_true (strobe_document_is_live (document));
  f.page = STROBE_DOCUMENT_VIEW (find_type (GTK_WIDGET (f.window), STROBE_TYPE_DOCUMENT_VIEW));
  strobe_document_view_show_view (f.page, "log");
  f.view = STROBE_LOG_VIEW (strobe_document_view_get_view (f.page, "log"));
  f.list = strobe_log_view_get_list (f.view);
  f.state = strobe_document_view_get_state (f.page);
  rows.n = 40;
  wait_for (has_rows, &rows);
  settle ();

  /* Following: the newest message stays in view as bursts come in. */
  g_assert_true (strobe_view_state_get_follow_live (f.state));
  for (guint burst = 1; burst <= 3; burst++)
    {
      g_autofree char *reply = g_strdup_printf ("done %u", 40 + 400 * burst);

      log_emitter_say (&e, "burst 400\n", reply);
      rows.n = 40 + 400 * burst;
      wait_for (has_rows, &rows);
      settle ();
    }
  {
    g_autoptr(StrobeLogItem) last = g_list_model_get_item (G_LIST_MODEL (f.list), n_rows (&f) - 1);

    g_autoptr(StrobeLogItem) first = g_list_model_get_item (G_LIST_MODEL (f.list), 0);

    g_assert_nonnull (find_text (GTK_WIDGET (f.view), strobe_log_item_get_text (last)));
    g_assert_null (find_text (GTK_WIDGET (f.view), strobe_log_item_get_text (first)));
  }
  screenshot (GTK_WIDGET (f.window), "log-live-follow");

  /* A filter while live: new messages that pass come in. */
  type_filter (&f, "worker");
  g_assert_cmpuint (n_rows (&f), ==, 20 + 3 * 200);
  log_emitter_say (&e, "burst 100\n", "done 1340");
  rows.n = 20 + 3 * 200 + 50;
  wait_for (has_rows, &rows);

  /* Turning follow off: new messages come in, the view does not go after them. */
  strobe_view_state_set_follow_live (f.state, FALSE);
  type_filter (&f, "");
  strobe_log_view_scroll_to (f.view, 0);
  settle ();
  {
    /* The first message (either thread's: they log at once). */
    g_autoptr(StrobeLogItem) first = g_list_model_get_item (G_LIST_MODEL (f.list), 0);

    g_assert_nonnull (find_text (GTK_WIDGET (f.view), strobe_log_item_get_text (first)));
  }
  log_emitter_say (&e, "burst 100\n", "done 1440");
  rows.n = 1440;
  wait_for (has_rows, &rows);
  settle ();
  {
    g_autoptr(StrobeLogItem) last = g_list_model_get_item (G_LIST_MODEL (f.list), n_rows (&f) - 1);

    g_assert_null (find_text (GTK_WIDGET (f.view), strobe_log_item_get_text (last)));
  }

  log_emitter_stop (&e);
  close_all (&f);
}

/* ---- main ------------------------------------------------------------------------------------ */

static void
run_tests_cb (GApplication *app, int *status)
{
  g_application_hold (app);
  *status = g_test_run ();
  g_application_release (app);
}

/* Pixels of @widget (in a shown window) that are mostly red, and that are drawn at all. */
static void
count_pixels (GtkWidget *widget, guint *red, guint *drawn)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guint8 *pixels = NULL;

  *red = *drawn = 0;
  if ((texture = widget_render (widget)) == NULL)
    return;
  pixels = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (texture, pixels, (gsize) w * 4);
  for (int i = 0; i < w * h; i++)
    {
      /* Cairo's premultiplied BGRA. */
      guint8 b = pixels[4 * i], g = pixels[4 * i + 1], r = pixels[4 * i + 2], a = pixels[4 * i + 3];

      *drawn += a > 64;
      *red += a > 64 && r > 2 * g + 40 && r > 2 * b + 40;
    }
}

/* The verbosity cell's icon: in the colour it is given, in the widget's own without one,
 * nothing without an icon — and the same icon and colour again is not a new picture. */
static void
test_level_icon (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *icon = strobe_log_level_icon_new (14);
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (window));
  g_autoptr(GtkIconPaintable) error = gtk_icon_theme_lookup_icon (theme, "dialog-error-symbolic", NULL, 14, 1,
                                                                  GTK_TEXT_DIR_NONE, 0);
  const GdkRGBA red = { 0.8, 0.1, 0.1, 1 };
  guint n_red, n_drawn;

  gtk_window_set_child (GTK_WINDOW (window), icon);
  gtk_window_present (GTK_WINDOW (window));
  settle ();
  g_assert_cmpint (gtk_widget_get_width (icon), >=, 14);
  count_pixels (icon, &n_red, &n_drawn);
  g_assert_cmpuint (n_drawn, ==, 0);

  strobe_log_level_icon_set (STROBE_LOG_LEVEL_ICON (icon), error, &red);
  settle ();
  count_pixels (icon, &n_red, &n_drawn);
  g_assert_cmpuint (n_drawn, >, 20);
  g_assert_cmpuint (n_red, >, n_drawn / 2);

  strobe_log_level_icon_set (STROBE_LOG_LEVEL_ICON (icon), error, NULL);
  settle ();
  count_pixels (icon, &n_red, &n_drawn);
  g_assert_cmpuint (n_drawn, >, 20);
  g_assert_cmpuint (n_red, ==, 0);

  strobe_log_level_icon_set (STROBE_LOG_LEVEL_ICON (icon), NULL, NULL);
  settle ();
  count_pixels (icon, &n_red, &n_drawn);
  g_assert_cmpuint (n_drawn, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  char *app_argv[] = { argv[0], NULL };
  g_autofree char *store_dir = NULL;
  int status = 1;

  work_dir = test_dir_make_home ("strobe-log-view-XXXXXX");
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);

  /* The site of the first spec names a file that exists, for "open source location". */
  source_path = g_build_filename (work_dir, "net.c", NULL);
  g_assert_true (g_file_set_contents (source_path, "/* net.c */\n", -1, NULL));
  expected = g_array_new (FALSE, FALSE, sizeof (Expected));
  odd_path = g_build_filename (work_dir, "odd.strobe", NULL);
  write_odd_trace (odd_path);
  store_dir = g_build_filename (work_dir, "store", NULL);

  g_test_add_func ("/log-view/level-icon", test_level_icon);
  g_test_add_func ("/log-view/filters", test_filters);
  g_test_add_func ("/log-view/rows-kept", test_rows_kept);
  g_test_add_func ("/log-view/selection-kept", test_selection_kept);
  g_test_add_func ("/log-view/odd-content", test_odd_content);
  g_test_add_func ("/log-view/copy-export", test_copy_export);
  g_test_add_func ("/log-view/cursor-sync", test_cursor_sync);
  g_test_add_func ("/log-view/open-source", test_open_source);
  g_test_add_func ("/log-view/damaged", test_damaged);
  g_test_add_func ("/log-view/live", test_live);

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
  for (guint i = 0; i < expected->len; i++)
    g_free (g_array_index (expected, Expected, i).text);
  g_array_unref (expected);
  test_dir_remove_all (work_dir);
  return status;
}
