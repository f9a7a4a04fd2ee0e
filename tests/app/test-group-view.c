/* test-group-view.c — the group tab (app/group): a client and its server (the checked-in
 * traces of tests/group's group-pair) opened as one tab: both processes on one axis, one
 * range and one selection for both, the three requests as flows, and following a flow's
 * arrow to the server's scope that handled it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gtk/gtk.h>

#include <glib/gstdio.h>
#include <math.h>
#include <sys/wait.h>

#include "strobe-group-view.h"
#include "strobe-recorder.h"
#include "test-dirs.h"
#include "strobe-timeline-model.h"
#include "strobe-window.h"

typedef struct
{
  GtkWindow       *window;
  StrobeGroupView *view;
} Fixture;

static void
settle (Fixture *f, double timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (!strobe_group_view_is_loaded (f->view))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  /* A few frames for the layout (tracks, sizes) to follow what was read. */
  for (int i = 0; i < 50; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

static void
fixture_open_sized (Fixture *f, int height)
{
  const char *dir = g_getenv ("GROUP_DATA");
  g_autofree char *client = g_build_filename (dir, "pair-client.strobe", NULL);
  g_autofree char *server = g_build_filename (dir, "pair-server.strobe", NULL);
  GFile *files[2] = { g_file_new_for_path (client), g_file_new_for_path (server) };

  f->view = STROBE_GROUP_VIEW (strobe_group_view_new_for_files (NULL, files, 2));
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 1200, height);
  gtk_window_set_child (f->window, GTK_WIDGET (f->view));
  gtk_window_present (f->window);
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  settle (f, 30);
}

static void
fixture_open (Fixture *f)
{
  fixture_open_sized (f, 900);
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (f->window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gdouble
seconds (StrobeGroupView *view, guint member, guint64 ticks)
{
  StrobeTraceClock clock;

  strobe_document_get_clock (strobe_group_view_get_document (view, member), &clock);
  return strobe_trace_clock_to_seconds (&clock, ticks);
}

/* One clock: the server's trace read the TSC the client's did, so the tab gives both the
 * same frequency, origin and time 0; and both show the same seconds. */
static void
test_one_axis (void)
{
  Fixture f;
  StrobeTraceClock a, b;
  guint64 a0, a1, b0, b1;

  fixture_open (&f);
  g_assert_cmpuint (strobe_group_view_get_n_members (f.view), ==, 2);
  strobe_document_get_clock (strobe_group_view_get_document (f.view, 0), &a);
  strobe_document_get_clock (strobe_group_view_get_document (f.view, 1), &b);
  g_assert_cmpuint (a.frequency, ==, b.frequency);
  g_assert_cmpuint (a.base, ==, b.base);
  g_assert_cmpuint (a.origin, ==, b.origin);

  strobe_view_state_get_visible_range (strobe_group_view_get_state (f.view, 0), &a0, &a1);
  strobe_view_state_get_visible_range (strobe_group_view_get_state (f.view, 1), &b0, &b1);
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 0, a0), seconds (f.view, 1, b0), 1e-9);
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 0, a1), seconds (f.view, 1, b1), 1e-9);
  /* The whole group shown: from time 0 (the client's first event) on. */
  g_assert_cmpfloat (seconds (f.view, 0, a0), <=, 1e-9);
  fixture_close (&f);
}

/* Moving a process by hand (its spin button, 2 ms): its events lie 2 ms later on the axis
 * and its tracks move on screen (its visible range, in its ticks, 2 ms earlier), while the
 * other process's view stays; the reference cannot be moved. */
static void
test_adjust_moves_track (void)
{
  Fixture f;
  StrobeTraceClock b;
  GtkSpinButton *ref_button, *button;
  guint64 a0, a1, b0, b1, a0_after, a1_after, b0_after, b1_after, first, last;
  gdouble before;

  fixture_open (&f);
  ref_button = strobe_group_view_get_adjust_button (f.view, 0);
  button = strobe_group_view_get_adjust_button (f.view, 1);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (ref_button)));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  g_assert_true (strobe_document_get_extent (strobe_group_view_get_document (f.view, 1), &first, &last));
  before = seconds (f.view, 1, first);
  strobe_view_state_get_visible_range (strobe_group_view_get_state (f.view, 0), &a0, &a1);
  strobe_view_state_get_visible_range (strobe_group_view_get_state (f.view, 1), &b0, &b1);

  gtk_spin_button_set_value (button, 2.0);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);

  g_assert_cmpfloat_with_epsilon (seconds (f.view, 1, first) - before, 2e-3, 1e-9);
  strobe_view_state_get_visible_range (strobe_group_view_get_state (f.view, 0), &a0_after, &a1_after);
  strobe_view_state_get_visible_range (strobe_group_view_get_state (f.view, 1), &b0_after, &b1_after);
  g_assert_cmpuint (a0_after, ==, a0);
  g_assert_cmpuint (a1_after, ==, a1);
  strobe_document_get_clock (strobe_group_view_get_document (f.view, 1), &b);
  g_assert_cmpfloat (fabs ((gdouble) b0 - (gdouble) b0_after - 2e-3 * (gdouble) b.frequency), <=, 2);
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 0, a0_after), seconds (f.view, 1, b0_after), 1e-9);

  /* Back to 0: where it was. */
  gtk_spin_button_set_value (button, 0.0);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 1, first), before, 1e-9);
  fixture_close (&f);
}

/* Selecting a range in one process selects it in the other; zooming in one zooms both. */
static void
test_one_selection (void)
{
  Fixture f;
  StrobeViewState *s0, *s1;
  guint64 a, b, x, y;

  fixture_open (&f);
  s0 = strobe_group_view_get_state (f.view, 0);
  s1 = strobe_group_view_get_state (f.view, 1);
  strobe_view_state_get_visible_range (s1, &a, &b);
  strobe_view_state_set_selection (s1, a + (b - a) / 4, a + (b - a) / 2);
  g_assert_true (strobe_view_state_get_selection (s0, &x, &y));
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 0, x), seconds (f.view, 1, a + (b - a) / 4), 1e-9);
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 0, y), seconds (f.view, 1, a + (b - a) / 2), 1e-9);
  strobe_view_state_clear_selection (s0);
  g_assert_false (strobe_view_state_get_selection (s1, NULL, NULL));

  strobe_timeline_widget_zoom_to (strobe_group_view_get_timeline (f.view, 0), x, y);
  strobe_view_state_get_visible_range (s0, &a, &b);
  strobe_view_state_get_visible_range (s1, &x, &y);
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 0, a), seconds (f.view, 1, x), 1e-9);
  g_assert_cmpfloat_with_epsilon (seconds (f.view, 0, b), seconds (f.view, 1, y), 1e-9);
  fixture_close (&f);
}

/* The three requests are flows client → server → client; following the first arrow
 * selects the server's HandleRequest that took the request, and shows it. */
static void
test_follow_flow (void)
{
  Fixture f;
  StrobeTimelineWidget *server;
  const StrobeScopeRef *scope;
  StrobeTimelineModel *model;
  guint64 a, b;

  fixture_open (&f);
  g_assert_cmpuint (strobe_group_view_get_n_flows (f.view), ==, 3);
  strobe_group_view_follow_flow (f.view, 0, 0);
  server = strobe_group_view_get_timeline (f.view, 1);
  scope = strobe_timeline_widget_get_selected_scope (server);
  g_assert_nonnull (scope);
  model = strobe_document_get_timeline (strobe_group_view_get_document (f.view, 1));
  g_assert_cmpstr (strobe_timeline_model_get_name (model, scope->name_id), ==, "HandleRequest");
  strobe_view_state_get_visible_range (strobe_group_view_get_state (f.view, 1), &a, &b);
  g_assert_cmpuint (a, <=, scope->begin);
  g_assert_cmpuint (b, >=, scope->end);

  /* And on to the reply: the client's ReceiveReply. */
  strobe_group_view_follow_flow (f.view, 0, 1);
  scope = strobe_timeline_widget_get_selected_scope (strobe_group_view_get_timeline (f.view, 0));
  g_assert_nonnull (scope);
  model = strobe_document_get_timeline (strobe_group_view_get_document (f.view, 0));
  g_assert_cmpstr (strobe_timeline_model_get_name (model, scope->name_id), ==, "ReceiveReply");
  fixture_close (&f);
}

/* A live group: `strobe-cli run --follow-children` of a launcher whose exec'd child starts
 * 5 s in, recorded by a recorder of this process into a store; the tab of its session
 * shows the launcher at once and takes the child in soon after it starts (the issue's
 * target: 1 s; a loaded test machine gets some slack). */
static void
test_live_child (void)
{
  g_autofree char *dir = test_dir_make_tmp ("group-view-live-XXXXXX");
  g_autofree char *start_file = g_build_filename (dir, "child-started", NULL);
  g_autofree char *store_dir = g_build_filename (dir, "store", NULL);
  g_autofree char *hostopt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = NULL;
  g_autoptr(StrobeRecorder) recorder = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  GtkWindow *window;
  StrobeGroupView *view;
  GPid pid;
  guint child_pid = 0;
  gint64 child_start = 0, seen = 0, deadline;

  g_assert_cmpint (g_mkdir (store_dir, 0700), ==, 0);
  store = strobe_store_new (store_dir, &error);
  g_assert_no_error (error);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  g_assert_true (strobe_recorder_start (recorder, &error));
  g_assert_no_error (error);

  view = STROBE_GROUP_VIEW (strobe_group_view_new_for_session (store, "group-view-live"));
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 1200, 900);
  gtk_window_set_child (window, GTK_WIDGET (view));
  gtk_window_present (window);

  hostopt = g_strdup_printf ("--tracehost=127.0.0.1:%u", strobe_recorder_get_port (recorder));
  envp = g_environ_setenv (envp, "STROBE_SESSION", "group-view-live", TRUE);
  envp = g_environ_setenv (envp, "STROBE_DISCOVERY", "0", TRUE);
  envp = g_environ_unsetenv (envp, "STROBE_TRACEFILE");
  {
    const char *argv[] = { g_getenv ("STROBE_CLI"), "run", "--follow-children", hostopt, "--",
                           g_getenv ("GROUP_VICTIM"), "parent", "5000", start_file, NULL };
    g_assert_true (g_spawn_async (NULL, (char **) argv, envp, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error));
    g_assert_no_error (error);
  }

  deadline = g_get_monotonic_time () + 40 * G_USEC_PER_SEC;
  while (seen == 0)
    {
      g_autofree char *text = NULL;

      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
      if (child_pid == 0 && g_file_get_contents (start_file, &text, NULL, NULL))
        {
          char *end = NULL;

          child_pid = (guint) g_ascii_strtoull (text, &end, 10);
          if (end && *end == ' ')
            child_start = g_ascii_strtoll (end + 1, NULL, 10);
          else
            child_pid = 0;   /* half written */
        }
      for (guint i = 0; child_pid != 0 && i < strobe_group_view_get_n_members (view); i++)
        {
          const StrobeWireMetadata *meta = strobe_document_get_metadata (strobe_group_view_get_document (view, i));

          if (meta != NULL && meta->process_id == child_pid)
            seen = g_get_monotonic_time ();
        }
    }
  g_test_message ("group_view.late_child_in_tab %.1f ms after it started", (seen - child_start) / 1000.0);
  g_assert_cmpint (seen - child_start, <, 3 * G_USEC_PER_SEC);
  /* The launcher and its forked child were there before. */
  g_assert_cmpuint (strobe_group_view_get_n_members (view), >=, 2);

  {
    int status = 0;

    while (waitpid (pid, &status, WNOHANG) == 0)
      {
        g_main_context_iteration (NULL, FALSE);
        g_usleep (10000);
      }
  }
  gtk_window_destroy (window);
  strobe_recorder_stop (recorder);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  test_dir_remove_all (dir);
}

/* The main loop run for @ms, the window drawing its frames meanwhile. */
static void
run_frames (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

/* A window too short for both sections: the server's timeline, below the client's in the
 * tab's viewport, draws no tile while it is scrolled out of sight (a zoom's stand-ins of
 * off-screen rows made the group benchmark's frames 26–39 ms), and draws its tiles once
 * the viewport is scrolled to it. */
static void
test_offscreen_rows (void)
{
  Fixture f;
  StrobeTimelineWidget *client, *server;
  StrobeTileCounts c, s;
  GtkAdjustment *vadj;
  GtkWidget *viewport;
  graphene_rect_t b;

  fixture_open_sized (&f, 300);
  run_frames (1500);
  client = strobe_group_view_get_timeline (f.view, 0);
  server = strobe_group_view_get_timeline (f.view, 1);
  viewport = gtk_widget_get_ancestor (GTK_WIDGET (server), GTK_TYPE_VIEWPORT);
  g_assert_nonnull (viewport);
  /* The server's section lies wholly below what the viewport shows. */
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (server), viewport, &b));
  g_assert_cmpfloat (b.origin.y, >=, gtk_widget_get_height (viewport));
  strobe_timeline_widget_get_tile_counts (client, &c);
  strobe_timeline_widget_get_tile_counts (server, &s);
  g_assert_cmpuint (c.nodes_made, >, 0);
  g_assert_cmpuint (s.nodes_made, ==, 0);

  vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (viewport));
  gtk_adjustment_set_value (vadj, gtk_adjustment_get_upper (vadj) - gtk_adjustment_get_page_size (vadj));
  run_frames (1500);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (server), viewport, &b));
  g_assert_cmpfloat (b.origin.y, <, gtk_widget_get_height (viewport));
  strobe_timeline_widget_get_tile_counts (server, &s);
  g_assert_cmpuint (s.nodes_made, >, 0);
  fixture_close (&f);
}

/* The wheel over a section's "move by hand" button scrolls the tab, not the offset, until
 * the button has the focus. The button's capture-phase handler is what the wheel reaches
 * first; it is called as GTK would (no way to send a real wheel event to a test window). */
static GtkEventController *
wheel_controller (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_SCROLL (c) && g_strcmp0 (gtk_event_controller_get_name (c), "strobe-spin-wheel") == 0)
        return c;
    }
  return NULL;
}

static void
test_wheel_over_adjust (void)
{
  Fixture f;
  GtkSpinButton *button;
  GtkEventController *wheel;
  GtkAdjustment *vadj;
  gboolean handled = FALSE;
  gdouble top;

  fixture_open_sized (&f, 300);
  run_frames (300);
  button = strobe_group_view_get_adjust_button (f.view, 1);
  wheel = wheel_controller (GTK_WIDGET (button));
  g_assert_nonnull (wheel);
  g_assert_cmpint (gtk_event_controller_get_propagation_phase (wheel), ==, GTK_PHASE_CAPTURE);
  vadj = gtk_scrolled_window_get_vadjustment (
    GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_SCROLLED_WINDOW)));
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadj), >, gtk_adjustment_get_page_size (vadj));
  top = gtk_adjustment_get_value (vadj);

  /* Not focused: the page scrolls down, the offset stays, the button never sees it. */
  g_signal_emit_by_name (wheel, "scroll", 0.0, 1.0, &handled);
  g_assert_true (handled);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), >, top);
  g_assert_cmpfloat (gtk_spin_button_get_value (button), ==, 0.0);

  /* Focused: left to the button, which steps its value. */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (button)));
  handled = TRUE;
  g_signal_emit_by_name (wheel, "scroll", 0.0, 1.0, &handled);
  g_assert_false (handled);
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/group-view/one-axis", test_one_axis);
  g_test_add_func ("/group-view/one-selection", test_one_selection);
  g_test_add_func ("/group-view/adjust-moves-track", test_adjust_moves_track);
  g_test_add_func ("/group-view/follow-flow", test_follow_flow);
  g_test_add_func ("/group-view/offscreen-rows", test_offscreen_rows);
  g_test_add_func ("/group-view/wheel-over-adjust", test_wheel_over_adjust);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  /* The launcher runs under the preload module, which an instrumented build cannot preload. */
  g_test_add_func ("/group-view/live-child", test_live_child);
#endif
  return g_test_run ();
}
