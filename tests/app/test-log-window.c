/* test-log-window.c — the log table over a list longer than its window (issue 20).
 *
 * GTK 4.8's list view adds its rows' heights in an int: at 100 M messages it could not
 * scroll and a jump left the table blank. The table is then given a window of the list
 * (StrobeLogRows, as many rows as GTK keeps widgets for) and the view moves it
 * (StrobeLogWindow). The window is the viewer's own (200 rows over 20 000 messages), so the
 * same code runs on a small trace: scrolling to the
 * end, a far jump, Ctrl+End and Home, the view's own scrollbar (by the mouse and by the
 * keyboard), GTK's scrolling across the window's edge, the selection across moves and
 * copied from wherever the window is, a live trace followed past the window (log-emitter),
 * and a list shorter than the window unchanged.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <gtk/gtk.h>

#include "log-emitter-client.h"
#include "log-stream.h"
#include "strobe-application.h"
#include "strobe-document-view.h"
#include "strobe-log-details.h"
#include "strobe-log-view.h"
#include "strobe-window.h"
#include "test-dirs.h"
#include "widget-find.h"

#define N_MESSAGES 20000
#define WINDOW     STROBE_LOG_ROWS_WINDOW

static StrobeApplication *the_app;
static char *work_dir;
static char *trace_path;

/* Message i says "message i", one thread, 1 µs apart. */
static void
write_trace (const char *path)
{
  g_autoptr(Tsb) b = log_stream_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize len;

  log_stream_category (b, 1, "Net", 5);
  log_stream_spec (b, 1, 1, "src/net.c", 12, 3, "message %d");
  tsb_thread_info (b, 16, 1000, 0, "main", "");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  for (guint i = 0; i < N_MESSAGES; i++)
    {
      g_autoptr(GBytes) args = log_args ("i", (int) i);

      log_stream_message (b, 16, 1000 + 1000 * (guint64) (i + 1), 1, args);
      if (i % 100 == 99)
        tsb_flush (b, 16, TSB_AUTO);
    }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  bytes = tsb_bytes (b);
  data = g_bytes_get_data (bytes, &len);
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, &error));
}

typedef gboolean (*Condition) (gpointer data);

static void
wait_for (Condition cond, gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting for the UI");
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

typedef struct
{
  StrobeWindow    *window;
  StrobeLogView   *view;
  StrobeLogList   *list;
  StrobeLogRows   *rows;
  StrobeViewState *state;
  GtkAdjustment   *own;        /* the view's scrollbar, in rows */
  GtkAdjustment   *gtk;        /* GTK's, in pixels */
  GtkWidget       *list_view;  /* the column view's rows */
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
  return !strobe_log_list_is_filtering (data) &&
         g_list_model_get_n_items (G_LIST_MODEL (data)) == N_MESSAGES;
}

static void
open_trace (Fixture *f, guint window)
{
  g_autoptr(GFile) file = g_file_new_for_path (trace_path);
  StrobeDocumentView *page;
  GtkColumnView *column_view;

  f->window = strobe_window_new (GTK_APPLICATION (the_app), strobe_application_get_services (the_app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 800);
  gtk_window_present (GTK_WINDOW (f->window));
  strobe_window_open_file (f->window, file);
  wait_for (document_loaded, f->window);
  page = STROBE_DOCUMENT_VIEW (find_type (GTK_WIDGET (f->window), STROBE_TYPE_DOCUMENT_VIEW));
  g_assert_true (strobe_document_view_show_view (page, "log"));
  f->view = STROBE_LOG_VIEW (strobe_document_view_get_view (page, "log"));
  f->list = strobe_log_view_get_list (f->view);
  f->state = strobe_document_view_get_state (page);
  f->rows = strobe_log_view_get_rows (f->view);
  wait_for (list_settled, f->list);
  if (window > 0)
    strobe_log_rows_set_window (f->rows, window);
  settle ();
  f->own = strobe_log_window_get_adjustment (strobe_log_view_get_window (f->view));
  column_view = strobe_log_view_get_column_view (f->view);
  f->gtk = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (column_view));
  f->list_view = find_type (GTK_WIDGET (column_view), GTK_TYPE_LIST_VIEW);
}

static void
close_all (void)
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

/* Message @i's row is on screen: its cell mapped and inside the rows' visible area. */
static gboolean
row_on_screen (Fixture *f, guint i)
{
  g_autofree char *text = g_strdup_printf ("message %u", i);
  GtkWidget *cell = find_text (f->list_view, text);
  graphene_rect_t bounds;

  if (cell == NULL || !gtk_widget_compute_bounds (cell, f->list_view, &bounds))
    return FALSE;
  return bounds.origin.y >= -1 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (f->list_view) + 1;
}

static GtkScrollbar *
own_scrollbar (Fixture *f)
{
  GtkWidget *page = gtk_widget_get_ancestor (f->list_view, GTK_TYPE_SCROLLED_WINDOW);

  for (GtkWidget *w = gtk_widget_get_next_sibling (page); w != NULL; w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_SCROLLBAR (w))
      return GTK_SCROLLBAR (w);
  return NULL;
}

/* The only selected row shows message @i, and the details pane too. */
static void
assert_selected (Fixture *f, guint i)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (strobe_log_view_get_column_view (f->view));
  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (selection);
  StrobeLogItem *shown = strobe_log_details_get_item (STROBE_LOG_DETAILS (strobe_log_view_get_details (f->view)));

  g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
  g_assert_cmpuint (strobe_log_rows_to_list (f->rows, gtk_bitset_get_minimum (set)), ==, i);
  g_assert_nonnull (shown);
  g_assert_cmpuint (strobe_log_item_find_index (shown), ==, i);
}

/* The view's scrollbar says where GTK is: its value is the top row's list position. */
static void
assert_own_follows (Fixture *f)
{
  double row_h = gtk_adjustment_get_upper (f->gtk) / g_list_model_get_n_items (G_LIST_MODEL (f->rows));
  double top = strobe_log_rows_get_window_start (f->rows) + gtk_adjustment_get_value (f->gtk) / row_h;

  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (f->own) - top), <, 0.5);
  g_assert_cmpfloat (gtk_adjustment_get_upper (f->own), ==, N_MESSAGES);
}

/* Home or End pressed in the table (Ctrl or not): the view's key handler (in the capture
 * phase) moves the window, and lets the key go on; then what GTK 4.8's own binding does
 * (gtk_list_base_move_cursor_to_start/end: select the first or last row, scroll to it),
 * which cannot be driven without a real key event. */
static void
send_key (Fixture *f, guint keyval, GdkModifierType state)
{
  GtkWidget *column_view = GTK_WIDGET (strobe_log_view_get_column_view (f->view));
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (column_view);
  gboolean handled = FALSE, seen = FALSE;
  guint last = g_list_model_get_n_items (G_LIST_MODEL (f->rows)) - 1;
  guint to = keyval == GDK_KEY_End ? last : 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !handled; i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (c))
        {
          g_signal_emit_by_name (c, "key-pressed", keyval, 0, state, &handled);
          seen = TRUE;
        }
    }
  g_assert_true (seen);
  g_assert_false (handled);
  /* The table's first or last row is the list's now. */
  g_assert_cmpuint (strobe_log_rows_to_list (f->rows, to), ==, keyval == GDK_KEY_End ? N_MESSAGES - 1 : 0);
  gtk_widget_activate_action (f->list_view, "list.select-item", "(ubb)", to, FALSE, FALSE);
  gtk_widget_activate_action (f->list_view, "list.scroll-to-item", "u", to);
  settle ();
}

/* A selection the window moved away from: Copy still copies it (issue 20: it copied
 * nothing); a row selected by the user then is the selection. */
static char *
copy_rows (Fixture *f)
{
  gtk_widget_activate_action (GTK_WIDGET (f->view), "log.copy", NULL);
  return clipboard_text (GTK_WIDGET (f->view));
}

/* The message field (the last of a copied TSV row) of each line of @rows. */
static char *
messages_of (const char *rows)
{
  g_auto(GStrv) lines = g_strsplit (rows, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
    g_string_append_printf (out, "%s;", strrchr (lines[i], '\t') + 1);
  return g_string_free (out, FALSE);
}

static void
test_copy_away (void)
{
  Fixture f = { 0 };
  GtkSelectionModel *selection;
  g_autoptr(GtkBitset) shown = NULL;
  g_autofree char *rows = NULL, *got = NULL, *after = NULL, *got_after = NULL;
  guint at;

  open_trace (&f, WINDOW);
  selection = gtk_column_view_get_model (strobe_log_view_get_column_view (f.view));
  strobe_view_state_set_selected_message (f.state, 600);
  settle ();
  assert_selected (&f, 600);
  gtk_selection_model_select_item (selection, strobe_log_rows_from_list (f.rows, 602), FALSE);
  settle ();

  /* Far away by the view's scrollbar: the table cannot show them selected. */
  gtk_adjustment_set_value (f.own, 15000);
  settle ();
  g_assert_cmpuint (strobe_log_rows_from_list (f.rows, 600), ==, G_MAXUINT);
  shown = gtk_selection_model_get_selection (selection);
  g_assert_true (gtk_bitset_is_empty (shown));
  rows = copy_rows (&f);
  got = messages_of (rows);
  g_assert_cmpstr (got, ==, "message 600;message 602;");
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "Copied 2 rows"));

  /* The user picks a row here: that is the selection now, the far ones forgotten. */
  at = strobe_log_rows_from_list (f.rows, 15003);
  g_assert_cmpuint (at, !=, G_MAXUINT);
  gtk_selection_model_select_item (selection, at, TRUE);
  settle ();
  after = copy_rows (&f);
  got_after = messages_of (after);
  g_assert_cmpstr (got_after, ==, "message 15003;");
  close_all ();
}

/* The view's scrollbar from the keyboard: F6 and Shift+Tab reach it (a click does not take
 * the focus from the table), its keys scroll the whole list and leave the selection alone. */
static void
test_scrollbar_keys (void)
{
  Fixture f = { 0 };
  GtkWidget *bar, *column_view;
  g_autoptr(GListModel) controllers = NULL;
  GtkEventController *keys = NULL;
  gboolean reached = FALSE, handled = FALSE;
  double page;

  open_trace (&f, WINDOW);
  bar = GTK_WIDGET (own_scrollbar (&f));
  column_view = GTK_WIDGET (strobe_log_view_get_column_view (f.view));
  g_assert_true (gtk_widget_get_focusable (bar));
  g_assert_false (gtk_widget_get_focus_on_click (bar));
  strobe_view_state_set_selected_message (f.state, 100);
  settle ();
  /* F6 from the table (GTK 4.8's Tab goes row by row in a list), Shift+Tab from the
   * details below. */
  gtk_widget_grab_focus (column_view);
  g_assert_true (strobe_window_cycle_panes (f.window, FALSE));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (f.window)) == bar);
  g_assert_true (strobe_window_cycle_panes (f.window, FALSE));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f.window)), strobe_log_view_get_details (f.view)));
  gtk_widget_child_focus (GTK_WIDGET (f.window), GTK_DIR_TAB_BACKWARD);
  reached = gtk_root_get_focus (GTK_ROOT (f.window)) == bar;
  g_assert_true (reached);

  controllers = gtk_widget_observe_controllers (bar);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (c))
        keys = c;
    }
  g_assert_nonnull (keys);

  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_End, 0, 0, &handled);
  g_assert_true (handled);
  settle ();
  page = gtk_adjustment_get_page_size (f.own);
  g_assert_cmpfloat (gtk_adjustment_get_value (f.own) + page, >=, N_MESSAGES - 0.5);
  g_assert_true (row_on_screen (&f, N_MESSAGES - 1));
  assert_own_follows (&f);

  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Page_Up, 0, 0, &handled);
  settle ();
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (f.own) + 2 * page - N_MESSAGES), <, 1);
  g_assert_false (row_on_screen (&f, N_MESSAGES - 1));
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Down, 0, 0, &handled);
  settle ();
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (f.own) + 2 * page - 1 - N_MESSAGES), <, 1);
  assert_own_follows (&f);

  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Home, 0, 0, &handled);
  settle ();
  g_assert_cmpfloat (gtk_adjustment_get_value (f.own), ==, 0);
  g_assert_true (row_on_screen (&f, 0));
  /* Scrolling is not selecting: the message picked before is the one selected. */
  assert_selected (&f, 100);
  /* Keys it does not take go on (Tab, letters). */
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_a, 0, 0, &handled);
  g_assert_false (handled);
  close_all ();
}

/* The window's own scrollbar to the end, a far jump, Ctrl+End, Ctrl+Home. */
static void
test_jumps (void)
{
  Fixture f = { 0 };
  guint far = 12345;
  double before;

  open_trace (&f, WINDOW);
  g_assert_true (strobe_log_rows_is_windowed (f.rows));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.rows)), ==, WINDOW);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (own_scrollbar (&f))));
  g_assert_true (row_on_screen (&f, 0));
  assert_own_follows (&f);

  /* Dragged to the end: the last message on screen. */
  gtk_adjustment_set_value (f.own, gtk_adjustment_get_upper (f.own) - gtk_adjustment_get_page_size (f.own));
  settle ();
  g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows) + WINDOW, ==, N_MESSAGES);
  g_assert_true (row_on_screen (&f, N_MESSAGES - 1));
  g_assert_false (row_on_screen (&f, 0));
  assert_own_follows (&f);

  /* A message chosen in another view (a log tick in the timeline), far from here: the
   * window moves under GTK's rows, which do not move (GTK 4.8 rebinds every row it keeps
   * when it scrolls this far). */
  gtk_adjustment_set_value (f.own, 4000);
  settle ();
  g_assert_true (row_on_screen (&f, 4000));
  before = gtk_adjustment_get_value (f.gtk);
  strobe_view_state_set_selected_message (f.state, far);
  settle ();
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (f.gtk) - before), <, 1);
  g_assert_true (row_on_screen (&f, far));
  assert_selected (&f, far);
  assert_own_follows (&f);
  g_assert_cmpfloat (gtk_adjustment_get_value (f.own), <=, far);
  g_assert_cmpfloat (gtk_adjustment_get_value (f.own) + gtk_adjustment_get_page_size (f.own), >=, far + 1);

  send_key (&f, GDK_KEY_End, GDK_CONTROL_MASK);
  g_assert_true (row_on_screen (&f, N_MESSAGES - 1));
  assert_selected (&f, N_MESSAGES - 1);
  assert_own_follows (&f);
  send_key (&f, GDK_KEY_Home, GDK_CONTROL_MASK);
  g_assert_true (row_on_screen (&f, 0));
  assert_selected (&f, 0);
  g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows), ==, 0);
  assert_own_follows (&f);
  close_all ();
}

/* GTK's own scrolling (the wheel, Page Down: its adjustment) across the window's edge: the
 * window moves under it, the same message stays at the top, and the selection stays. */
static void
test_scrolling (void)
{
  Fixture f = { 0 };
  guint picked = 100, start;

  open_trace (&f, WINDOW);
  strobe_view_state_set_selected_message (f.state, picked);
  settle ();
  assert_selected (&f, picked);
  start = strobe_log_rows_get_window_start (f.rows);
  g_assert_cmpuint (start, ==, 0);
  for (guint step = 0; step < 200 && strobe_log_rows_get_window_start (f.rows) == start; step++)
    {
      double top_before;

      gtk_adjustment_set_value (f.gtk, gtk_adjustment_get_value (f.gtk) + gtk_adjustment_get_page_increment (f.gtk));
      top_before = gtk_adjustment_get_value (f.own);
      settle ();
      /* Whether the window moved in that turn or not, the top row is the same message. */
      g_assert_cmpfloat (fabs (gtk_adjustment_get_value (f.own) - top_before), <, 0.5);
      assert_own_follows (&f);
    }
  g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows), >, start);
  g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows), <=, picked);
  assert_selected (&f, picked);

  /* Far away and back by the view's scrollbar: the message is selected again. */
  gtk_adjustment_set_value (f.own, 15000);
  settle ();
  g_assert_true (row_on_screen (&f, 15000));
  gtk_adjustment_set_value (f.own, picked);
  settle ();
  g_assert_true (row_on_screen (&f, picked));
  assert_selected (&f, picked);
  close_all ();
}

/* The message of the only selected row (asserted). */
static guint
selected_message (Fixture *f)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (strobe_log_view_get_column_view (f->view));
  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (selection);

  g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
  return strobe_log_rows_to_list (f->rows, gtk_bitset_get_minimum (set));
}

/* @keyval (no modifier) as GTK's own key binding on the table takes it: the shortcut the
 * list view's class installed for it, activated on the list view, which has the focus. */
static void
press (Fixture *f, guint keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (f->list_view);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (c), k);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == 0)
            {
              gint64 until = g_get_monotonic_time () + 50000;

              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                           f->list_view, gtk_shortcut_get_arguments (shortcut)));
              /* Three frames: the window is moved after one, the rows laid out in the next. */
              while (g_get_monotonic_time () < until)
                if (!g_main_context_iteration (NULL, FALSE))
                  g_usleep (1000);
              return;
            }
        }
    }
  g_error ("no binding of GTK's for key %s on the table", gdk_keyval_name (keyval));
}

/* GTK's own arrows and Page Down / Up across the window's edges: each press moves the
 * selection from the message it was on, as far as the key says, and it stays on screen.
 * GTK's cursor is a place in the table: when the window moved under it, the next press
 * went on from the message that place showed then (a jump of half a window). */
static void
test_arrows (void)
{
  Fixture f = { 0 };
  guint was, now, moves = 0, start = 0;
  double page;

  open_trace (&f, WINDOW);
  strobe_view_state_set_selected_message (f.state, 0);
  settle ();
  gtk_widget_grab_focus (GTK_WIDGET (strobe_log_view_get_column_view (f.view)));
  settle ();
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f.window)), f.list_view));
  was = selected_message (&f);
  g_assert_cmpuint (was, ==, 0);
  page = gtk_adjustment_get_page_size (f.own);
  for (guint i = 0; i < 50; i++)
    {
      guint key = i < 20 ? GDK_KEY_Page_Down : i < 26 ? GDK_KEY_Down : i < 44 ? GDK_KEY_Page_Up : GDK_KEY_Up;

      press (&f, key);
      now = selected_message (&f);
      if (key == GDK_KEY_Down || key == GDK_KEY_Up)
        g_assert_cmpint ((int) now - (int) was, ==, key == GDK_KEY_Down ? 1 : -1);
      else if (key == GDK_KEY_Page_Down)
        g_assert_true (now > was && now - was <= page + 1);
      else
        g_assert_true (now < was && was - now <= page + 1);
      g_assert_true (row_on_screen (&f, now));
      moves += strobe_log_rows_get_window_start (f.rows) != start;
      start = strobe_log_rows_get_window_start (f.rows);
      was = now;
    }
  /* The window moved under the keys, both ways. */
  g_assert_cmpuint (moves, >=, 2);
  close_all ();
}

static gboolean filtered_to (gpointer data);

/* A list within the window: shown whole, with the view's scrollbar as a longer one (GTK's
 * is never shown), which scrolls it; a list that fits on a page has none. */
static void
test_short_list (void)
{
  Fixture f = { 0 };
  GtkEditable *entry;

  open_trace (&f, N_MESSAGES);
  g_assert_false (strobe_log_rows_is_windowed (f.rows));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.rows)), ==, N_MESSAGES);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (own_scrollbar (&f))));
  strobe_view_state_set_selected_message (f.state, 12345);
  settle ();
  g_assert_true (row_on_screen (&f, 12345));
  assert_selected (&f, 12345);
  assert_own_follows (&f);
  gtk_adjustment_set_value (f.own, 300);
  settle ();
  g_assert_true (row_on_screen (&f, 300));
  g_assert_false (row_on_screen (&f, 12345));

  /* "message 1999…": 11 messages, "message 19999": one. */
  entry = GTK_EDITABLE (find_type (GTK_WIDGET (f.view), GTK_TYPE_SEARCH_ENTRY));
  gtk_editable_set_text (entry, "message 19999");
  wait_for (filtered_to, &f);
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.list)), ==, 1);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (own_scrollbar (&f))));
  close_all ();
}

/* A filter's answer shorter than the window, of a list longer than it, and cleared: the rows
 * keep their width (one scrollbar for both: when the view's gave way to GTK's, every cell
 * was laid out again at the new width, 7-9 ms of that frame at 10 M messages). */
static void
test_width_kept (void)
{
  Fixture f = { 0 };
  GtkWidget *table;
  GtkEditable *entry;
  int width;

  open_trace (&f, 12000);
  g_assert_true (strobe_log_rows_is_windowed (f.rows));
  table = GTK_WIDGET (strobe_log_view_get_column_view (f.view));
  width = gtk_widget_get_width (table);
  g_assert_cmpint (width, >, 0);

  entry = GTK_EDITABLE (find_type (GTK_WIDGET (f.view), GTK_TYPE_SEARCH_ENTRY));
  gtk_editable_set_text (entry, "message 1");
  wait_for (filtered_to, &f);
  settle ();
  g_assert_false (strobe_log_rows_is_windowed (f.rows));
  g_assert_cmpint (gtk_widget_get_width (table), ==, width);

  gtk_editable_set_text (entry, "");
  settle ();
  g_assert_true (strobe_log_rows_is_windowed (f.rows));
  g_assert_cmpint (gtk_widget_get_width (table), ==, width);
  close_all ();
}

/* ---- live ------------------------------------------------------------------------------ */

typedef struct
{
  StrobeLogList *list;
  guint          n;
} CountWait;

static gboolean
has_messages (gpointer data)
{
  CountWait *w = data;

  return g_list_model_get_n_items (G_LIST_MODEL (w->list)) == w->n && !strobe_log_list_is_filtering (w->list);
}

/* A burst of @n more messages, read into the list (@total then). */
static void
burst (LogEmitter *e, StrobeLogList *list, guint n, guint total)
{
  g_autofree char *line = g_strdup_printf ("burst %u\n", n);
  g_autofree char *reply = g_strdup_printf ("done %u", total);
  CountWait w = { list, total };

  log_emitter_say (e, line, reply);
  wait_for (has_messages, &w);
  settle ();
}

static gboolean
list_position_on_screen (Fixture *f, guint position)
{
  g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (f->list), position);
  GtkWidget *cell = find_text (f->list_view, strobe_log_item_get_text (item));
  graphene_rect_t bounds;

  if (cell == NULL || !gtk_widget_compute_bounds (cell, f->list_view, &bounds))
    return FALSE;
  return bounds.origin.y >= -1 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (f->list_view) + 1;
}

/* A live trace followed past the window (2^20 rows in the viewer, 1 000 here): the newest
 * message stays on screen as the window moves after it; not following, the window stays
 * where the user is while the list grows past it. */
static void
test_live_follow (void)
{
  g_autoptr(GFile) file = NULL;
  LogEmitter e;
  CountWait first = { NULL, 40 };
  Fixture f = { 0 };
  StrobeDocumentView *page;
  guint total = 40;

  log_emitter_start (&e, the_app, 40);

  f.window = strobe_window_new (GTK_APPLICATION (the_app), strobe_application_get_services (the_app));
  gtk_window_set_default_size (GTK_WINDOW (f.window), 1200, 800);
  gtk_window_present (GTK_WINDOW (f.window));
  file = g_file_new_for_path (e.path);
  g_assert_true (strobe_document_is_live (strobe_window_open_file (f.window, file)));
  page = STROBE_DOCUMENT_VIEW (find_type (GTK_WIDGET (f.window), STROBE_TYPE_DOCUMENT_VIEW));
  g_assert_true (strobe_document_view_show_view (page, "log"));
  f.view = STROBE_LOG_VIEW (strobe_document_view_get_view (page, "log"));
  f.list = strobe_log_view_get_list (f.view);
  f.state = strobe_document_view_get_state (page);
  f.rows = strobe_log_view_get_rows (f.view);
  first.list = f.list;
  wait_for (has_messages, &first);
  strobe_log_rows_set_window (f.rows, WINDOW);
  settle ();
  f.own = strobe_log_window_get_adjustment (strobe_log_view_get_window (f.view));
  f.gtk = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (strobe_log_view_get_column_view (f.view)));
  f.list_view = find_type (GTK_WIDGET (strobe_log_view_get_column_view (f.view)), GTK_TYPE_LIST_VIEW);
  g_assert_true (strobe_view_state_get_follow_live (f.state));
  g_assert_false (strobe_log_rows_is_windowed (f.rows));

  /* Following, past the window and on: the newest message on screen, the window at the
   * list's end, the view's scrollbar at the end of the whole list. */
  for (guint i = 0; i < 4; i++)
    {
      burst (&e, f.list, 400, total += 400);
      g_assert_true (list_position_on_screen (&f, total - 1));
      if (total > WINDOW)
        {
          g_assert_true (strobe_log_rows_is_windowed (f.rows));
          g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows) + WINDOW, ==, total);
          g_assert_true (gtk_widget_get_visible (GTK_WIDGET (own_scrollbar (&f))));
          g_assert_cmpfloat (gtk_adjustment_get_upper (f.own), ==, total);
          g_assert_cmpfloat (gtk_adjustment_get_value (f.own) + gtk_adjustment_get_page_size (f.own), >=, total - 0.5);
        }
    }
  g_assert_cmpuint (total, >, 1.5 * WINDOW);

  /* Not following: back to the start with the view's scrollbar, a message selected; the
   * list grows past the window, which stays, the message selected and on screen. */
  strobe_view_state_set_follow_live (f.state, FALSE);
  gtk_adjustment_set_value (f.own, 0);
  settle ();
  g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows), ==, 0);
  strobe_view_state_set_selected_message (f.state, 5);
  settle ();
  burst (&e, f.list, 400, total += 400);
  g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows), ==, 0);
  g_assert_true (list_position_on_screen (&f, 0));
  g_assert_false (list_position_on_screen (&f, total - 1));
  g_assert_cmpfloat (gtk_adjustment_get_upper (f.own), ==, total);
  g_assert_cmpfloat (gtk_adjustment_get_value (f.own), ==, 0);
  {
    g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (gtk_column_view_get_model (strobe_log_view_get_column_view (f.view)));

    g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
    g_assert_cmpuint (strobe_log_rows_to_list (f.rows, gtk_bitset_get_minimum (set)), ==, 5);
  }

  /* Following again: to the end of the whole list at once. */
  strobe_view_state_set_follow_live (f.state, TRUE);
  burst (&e, f.list, 100, total += 100);
  g_assert_true (list_position_on_screen (&f, total - 1));
  g_assert_cmpuint (strobe_log_rows_get_window_start (f.rows) + WINDOW, ==, total);

  log_emitter_stop (&e);
  close_all ();
}

static gboolean
filtered_to (gpointer data)
{
  Fixture *f = data;

  return !strobe_log_list_is_filtering (f->list) && strobe_log_list_get_filter (f->list) != NULL;
}

/* The message cells of the table's row widgets each show their position's message. */
static guint
assert_cells_show_list (Fixture *f, GtkWidget *widget)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (widget), "strobe-list-item");
  guint n = 0;

  if (GTK_IS_INSCRIPTION (widget) && list_item != NULL && gtk_widget_has_css_class (widget, "monospace") &&
      gtk_list_item_get_item (list_item) != NULL && gtk_list_item_get_position (list_item) != GTK_INVALID_LIST_POSITION)
    {
      g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (f->list),
                                                             strobe_log_rows_to_list (f->rows, gtk_list_item_get_position (list_item)));

      g_assert_nonnull (item);
      g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), ==, strobe_log_item_get_display_text (item));
      n++;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += assert_cells_show_list (f, c);
  return n;
}

/* Cells are not disconnected from their row when GTK unbinds them (GTK 4.8 unbinds and
 * binds again every row it keeps on a scroll-to-item): a row a cell left may change later
 * and must not put its message in the cell. A far jump, a filter whose answer keeps the
 * rows GTK holds (each shows a new message) and scrolls to the selected message, the
 * filter cleared: each time every cell shows its own row's message. */
static void
test_filter_rebinds (void)
{
  Fixture f = { 0 };
  GtkEditable *entry;

  /* A window longer than the filter's answer and shorter than the list, as at 10 M
   * messages; a message far away selected first, as a log tick clicked in the timeline. */
  open_trace (&f, 12000);
  strobe_view_state_set_selected_message (f.state, 19500);
  settle ();
  strobe_log_view_fill_cells (f.view);
  g_assert_cmpuint (assert_cells_show_list (&f, f.list_view), >=, 20);

  /* "message 19…": 1 111 of 20 000, the selected message among them. */
  entry = GTK_EDITABLE (find_type (GTK_WIDGET (f.view), GTK_TYPE_SEARCH_ENTRY));
  gtk_editable_set_text (entry, "message 19");
  wait_for (filtered_to, &f);
  settle ();
  strobe_log_view_fill_cells (f.view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.list)), ==, 1111);
  g_assert_true (row_on_screen (&f, 19500));
  g_assert_cmpuint (assert_cells_show_list (&f, f.list_view), >=, 20);

  gtk_widget_activate_action (f.list_view, "list.scroll-to-item", "u", 0);
  settle ();
  gtk_editable_set_text (entry, "");
  settle ();
  strobe_log_view_fill_cells (f.view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.list)), ==, N_MESSAGES);
  g_assert_cmpuint (assert_cells_show_list (&f, f.list_view), >=, 20);
  close_all ();
}

static void
run_tests_cb (GApplication *app, int *status)
{
  g_application_hold (app);
  *status = g_test_run ();
  g_application_release (app);
}

int
main (int argc, char *argv[])
{
  char *app_argv[] = { argv[0], NULL };
  g_autofree char *store_dir = NULL;
  int status = 1;

  work_dir = test_dir_make_home ("strobe-log-window-XXXXXX");
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);

  trace_path = g_build_filename (work_dir, "many.strobe", NULL);
  write_trace (trace_path);
  store_dir = g_build_filename (work_dir, "store", NULL);

  g_test_add_func ("/log-window/jumps", test_jumps);
  g_test_add_func ("/log-window/scrolling", test_scrolling);
  g_test_add_func ("/log-window/arrows", test_arrows);
  g_test_add_func ("/log-window/short-list", test_short_list);
  g_test_add_func ("/log-window/width-kept", test_width_kept);
  g_test_add_func ("/log-window/copy-away", test_copy_away);
  g_test_add_func ("/log-window/scrollbar-keys", test_scrollbar_keys);
  g_test_add_func ("/log-window/live-follow", test_live_follow);
  g_test_add_func ("/log-window/filter-rebinds", test_filter_rebinds);

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
  g_free (trace_path);
  test_dir_remove_all (work_dir);
  return status;
}
