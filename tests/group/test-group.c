/* test-group.c — several processes as one session group, end to end: `strobe-cli run
 * --follow-children` sends a launcher and its children to a real recorder on loopback,
 * and a client of the store protocol watches the group grow.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>

#include "store-test-util.h"
#include "strobe-clock-align.h"
#include "strobe-document.h"
#include "strobe-flow-points.h"
#include "strobe-recorder.h"
#include "strobe-store-server.h"

typedef struct
{
  GPtrArray *groups;     /* group maps of group-changed events, in order */
  GArray    *received;   /* gint64: g_get_monotonic_time() when each arrived */
} Seen;

static void
on_event (StrobeStoreClient *client, const char *name, GVariant *payload, Seen *seen)
{
  GVariant *group;
  gint64 now = g_get_monotonic_time ();

  if (!g_str_equal (name, "group-changed"))
    return;
  group = g_variant_lookup_value (payload, "group", G_VARIANT_TYPE_VARDICT);
  g_assert_nonnull (group);
  g_ptr_array_add (seen->groups, group);
  g_array_append_val (seen->received, now);
}

static void
store_result (GObject *source, GAsyncResult *res, gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (res);
}

static gboolean
has_result (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

/* The trace map of @group's member with @pid, or NULL. */
static GVariant *
find_member (GVariant *group, guint pid)
{
  g_autoptr(GVariant) members = g_variant_lookup_value (group, "members", G_VARIANT_TYPE ("av"));

  for (gsize i = 0; members && i < g_variant_n_children (members); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (members, i);
      GVariant *m = g_variant_get_variant (boxed);
      guint64 p = 0;

      if (g_variant_lookup (m, "pid", "t", &p) && p == pid)
        return m;
      g_variant_unref (m);
    }
  return NULL;
}

static gsize
n_members (GVariant *group)
{
  g_autoptr(GVariant) members = g_variant_lookup_value (group, "members", G_VARIANT_TYPE ("av"));

  return members ? g_variant_n_children (members) : 0;
}

typedef struct
{
  Seen       *seen;
  const char *start_file;
  guint       child_pid;   /* from the start file, once written */
  gint64      child_start; /* CLOCK_MONOTONIC µs, as g_get_monotonic_time() */
  gint64      visible;     /* when a group-changed first listed it */
} Late;

static gboolean
late_child_listed (gpointer data)
{
  Late *late = data;
  g_autofree char *text = NULL;

  if (late->child_pid == 0 && g_file_get_contents (late->start_file, &text, NULL, NULL))
    {
      char *end = NULL;
      late->child_pid = (guint) g_ascii_strtoull (text, &end, 10);
      if (end && *end == ' ')
        late->child_start = g_ascii_strtoll (end + 1, NULL, 10);
      else
        late->child_pid = 0;   /* half written */
    }
  if (late->child_pid == 0)
    return FALSE;
  for (guint i = 0; i < late->seen->groups->len; i++)
    {
      g_autoptr(GVariant) m = find_member (g_ptr_array_index (late->seen->groups, i), late->child_pid);
      if (m)
        {
          late->visible = g_array_index (late->seen->received, gint64, i);
          return TRUE;
        }
    }
  return FALSE;
}

typedef struct
{
  GPid pid;
  int  status;
  gboolean exited;
} Child;

static void
child_exited (GPid pid, int status, gpointer data)
{
  Child *c = data;

  c->status = status;
  c->exited = TRUE;
  g_spawn_close_pid (pid);
}

static gboolean
child_done (gpointer data)
{
  return ((Child *) data)->exited;
}

/* Over: not live, and every member finished (each process ended its trace cleanly, a
 * child that execs too, before the exec), with the launcher, both children and the
 * program the second one became among them. */
static gboolean
group_over (gpointer data)
{
  Seen *seen = data;
  GVariant *last;
  gboolean live = TRUE;

  if (seen->groups->len == 0)
    return FALSE;
  last = g_ptr_array_index (seen->groups, seen->groups->len - 1);
  g_assert_true (g_variant_lookup (last, "live", "b", &live));
  return !live && n_members (last) == 4;
}

/* The launcher, a child that forks without exec and a child exec'd a second later: each
 * process traces on its own into one session, grouped by the store; the late one is
 * listed within a bounded time of its start; each names its parent. */
static void
test_follow_children (void)
{
  g_autofree char *dir = test_dir_new ();
  g_autofree char *start_file = g_build_filename (dir, "child-started", NULL);
  g_autofree char *store_dir = g_build_filename (dir, "store", NULL);
  g_autofree char *secret = NULL;
  g_autofree char *hostopt = NULL;
  g_autofree char *session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = NULL;
  g_autoptr(StrobeRecorder) recorder = NULL;
  g_autoptr(StrobeStoreServer) server = NULL;
  g_autoptr(StrobeStoreClient) client = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  Seen seen = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref), g_array_new (FALSE, FALSE, sizeof (gint64)) };
  Late late = { &seen, start_file, 0, 0, 0 };
  Child child = { 0 };
  GVariant *last;
  const char *name;
  GAsyncResult *result = NULL;

  g_assert_cmpint (g_mkdir (store_dir, 0700), ==, 0);
  store = strobe_store_new (store_dir, &error);
  g_assert_no_error (error);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  g_assert_true (strobe_recorder_start (recorder, &error));
  g_assert_no_error (error);
  server = strobe_store_server_new (store);
  strobe_store_server_set_port (server, 0);
  g_assert_true (strobe_store_server_start (server, &error));
  g_assert_no_error (error);
  secret = test_store_secret (store_dir);
  client = test_store_client_connect (strobe_store_server_get_port (server), secret, &error);
  g_assert_no_error (error);
  g_signal_connect (client, "event", G_CALLBACK (on_event), &seen);
  strobe_store_client_subscribe_async (client, NULL, store_result, &result);
  g_assert_true (test_wait_until (has_result, &result, 5000));
  g_assert_true (strobe_store_client_subscribe_finish (client, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  hostopt = g_strdup_printf ("--tracehost=127.0.0.1:%u", strobe_recorder_get_port (recorder));
  envp = g_environ_setenv (envp, "STROBE_PRELOAD", g_getenv ("STROBE_PRELOAD"), TRUE);
  envp = g_environ_setenv (envp, "STROBE_DISCOVERY", "0", TRUE);
  envp = g_environ_unsetenv (envp, "STROBE_SESSION");
  envp = g_environ_unsetenv (envp, "STROBE_TRACEFILE");
  {
    const char *argv[] = { g_getenv ("STROBE_CLI"), "run", "--follow-children", hostopt, "--",
                           g_getenv ("GROUP_VICTIM"), "parent", "1000", start_file, NULL };
    g_assert_true (g_spawn_async (NULL, (char **) argv, envp, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                  &child.pid, &error));
    g_assert_no_error (error);
  }
  g_child_watch_add (child.pid, child_exited, &child);

  g_assert_true (test_wait_until (late_child_listed, &late, 20000));
  g_test_message ("group.late_child_visible %.1f ms after it started",
                  (late.visible - late.child_start) / 1000.0);
  /* The target is 1 s; a loaded test machine gets some slack, not unbounded. */
  g_assert_cmpint (late.visible - late.child_start, <, 3 * G_USEC_PER_SEC);

  g_assert_true (test_wait_until (child_done, &child, 20000));
  g_assert_true (g_spawn_check_wait_status (child.status, &error));
  g_assert_no_error (error);
  /* The recorder finishes each trace as its connection ends: the group is over. */
  if (!test_wait_until (group_over, &seen, 10000))
    {
      g_autofree char *last_text = seen.groups->len ? g_variant_print (g_ptr_array_index (seen.groups, seen.groups->len - 1), FALSE) : NULL;
      g_error ("the group did not end with three members: %s", last_text ? last_text : "(no group-changed)");
    }

  last = g_ptr_array_index (seen.groups, seen.groups->len - 1);
  session = g_strdup_printf ("group-victim-%d", (int) child.pid);   /* run execs: its pid is the launcher's */
  g_assert_true (g_variant_lookup (last, "name", "&s", &name));
  g_assert_cmpstr (name, ==, session);
  {
    g_autoptr(GVariant) launcher = find_member (last, (guint) child.pid);
    g_autoptr(GVariant) late_one = find_member (last, late.child_pid);
    g_autoptr(GVariant) members = g_variant_lookup_value (last, "members", G_VARIANT_TYPE ("av"));
    guint forked = 0, execed = 0;
    guint64 ppid = 0;

    g_assert_nonnull (launcher);
    g_assert_nonnull (late_one);
    for (gsize i = 0; i < g_variant_n_children (members); i++)
      {
        g_autoptr(GVariant) boxed = g_variant_get_child_value (members, i);
        g_autoptr(GVariant) m = g_variant_get_variant (boxed);
        const char *status, *s;
        guint64 pid = 0;

        g_assert_true (g_variant_lookup (m, "status", "&s", &status));
        g_assert_cmpstr (status, ==, "finished");
        g_assert_true (g_variant_lookup (m, "session", "&s", &s));
        g_assert_cmpstr (s, ==, session);
        g_assert_true (g_variant_lookup (m, "pid", "t", &pid));
        if (pid == (guint64) child.pid)
          continue;
        /* Every other member is a child of the launcher: the forked one, and the one that
         * execs — its part before the exec and the program it became, one pid. */
        g_assert_true (g_variant_lookup (m, "parent_pid", "t", &ppid));
        g_assert_cmpuint (ppid, ==, (guint64) child.pid);
        if (pid == late.child_pid)
          execed++;
        else
          forked++;
      }
    g_assert_cmpuint (forked, ==, 1);
    g_assert_cmpuint (execed, ==, 2);
  }

  g_clear_object (&client);
  strobe_store_server_stop (server);
  strobe_recorder_stop (recorder);
  g_ptr_array_unref (seen.groups);
  g_array_unref (seen.received);
  test_dir_remove_all (dir);
}

/* ---- a client and its server on one axis -------------------------------------------- */

typedef struct
{
  StrobeDocument   *document;
  StrobeFlowPoints *flows;
} Opened;

static void
open_trace (const char *path, Opened *o)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  o->flows = strobe_flow_points_new ();
  o->document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_TIMELINE);
  strobe_document_add_analyzer (o->document, STROBE_ANALYZER (o->flows));
  g_assert_true (strobe_document_load (o->document, NULL, &error));
  g_assert_no_error (error);
}

/* Every scope named @name, by begin time. */
static GArray *
scopes_named (StrobeDocument *document, const char *name)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (document);
  g_autoptr(GArray) tids = strobe_timeline_model_get_threads (timeline);
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  GArray *found = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));

  for (guint i = 0; i < tids->len; i++)
    {
      guint16 tid = g_array_index (tids, guint16, i);

      for (guint d = 0; d < strobe_timeline_model_get_depth_count (timeline, tid); d++)
        {
          g_array_set_size (scopes, 0);
          strobe_timeline_model_get_scopes (timeline, tid, d, 0, G_MAXUINT64, scopes);
          for (guint k = 0; k < scopes->len; k++)
            {
              StrobeTimelineScope *sc = &g_array_index (scopes, StrobeTimelineScope, k);
              if (g_str_equal (strobe_timeline_model_get_name (timeline, sc->name_id), name))
                g_array_append_val (found, *sc);
            }
        }
    }
  return found;
}

/* The name of the innermost scope of @document open at @ticks on any thread, or NULL. */
static const char *
scope_at (StrobeDocument *document, guint64 ticks)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (document);
  g_autoptr(GArray) tids = strobe_timeline_model_get_threads (timeline);
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  StrobeTraceClock clock;
  guint64 slack;
  const char *name = NULL;

  /* The runtime keeps a scope's times in units of 2^n ticks, the coarsest no longer than
   * 4 ns (strobe-cpu.c), rounded down: an end may read up to a unit before the flow point
   * made just before it. The flow point's own clock read is in program order. */
  strobe_document_get_clock (document, &clock);
  slack = (guint64) ceil (strobe_trace_clock_ticks_for_ns (&clock, 4.0));
  for (guint i = 0; i < tids->len; i++)
    {
      guint16 tid = g_array_index (tids, guint16, i);

      for (guint d = 0; d < strobe_timeline_model_get_depth_count (timeline, tid); d++)
        {
          g_array_set_size (scopes, 0);
          strobe_timeline_model_get_scopes (timeline, tid, d, ticks - slack, ticks + slack, scopes);
          for (guint k = 0; k < scopes->len; k++)
            {
              StrobeTimelineScope *sc = &g_array_index (scopes, StrobeTimelineScope, k);
              if (sc->begin <= ticks && ticks <= sc->end + slack)
                name = strobe_timeline_model_get_name (timeline, sc->name_id);
            }
        }
    }
  return name;
}

/* "ROLE k BEFORE AFTER" lines → at[role]: for each instant, the middle of the two
 * CLOCK_MONOTONIC reads around its clock read, ns. */
static void
read_instants (const char *out, GArray *at[2], guint instants)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);

  for (guint r = 0; r < 2; r++)
    {
      at[r] = g_array_new (FALSE, TRUE, sizeof (gdouble));
      g_array_set_size (at[r], instants);
    }
  for (guint i = 0; lines[i]; i++)
    {
      char role[16];
      guint k;
      long long before, after;

      if (sscanf (lines[i], "%15s %u %lld %lld", role, &k, &before, &after) == 4 && k < instants)
        {
          g_assert_cmpint (after - before, <=, 100);
          g_array_index (at[g_str_equal (role, "server")], gdouble, k) = (before + after) / 2.0;
        }
    }
}

/* Two processes mark instants on the clock they share, from a moment agreed through a
 * pipe (the barrier): on the one axis their scopes lie as far apart as the instants did,
 * within 1 µs. The client's requests reach the server and come back:
 * each flow goes client → server → client, forward in time on that axis, its points in
 * the scopes they were made in. */
static void
test_align_flows (void)
{
  g_autofree char *dir = test_dir_new ();
  g_autofree char *client_path = g_build_filename (dir, "client.strobe", NULL);
  g_autofree char *server_path = g_build_filename (dir, "server.strobe", NULL);
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) hops = g_array_new (FALSE, FALSE, sizeof (StrobeFlowHop));
  g_autoptr(GPtrArray) flows = NULL;
  GArray *at[2];
  GArray *instants[2];
  Opened opened[2];
  StrobeClockAlignMember align[2] = { 0 };
  const guint n_instants = 600;
  guint usable = 0;
  gdouble worst = 0, worst_wall = 0;
  int status;
  const char *argv[] = { g_getenv ("GROUP_PAIR"), client_path, server_path, "10", "600", NULL };

  envp = g_environ_setenv (envp, "STROBE_SESSION", "pair-test", TRUE);
  envp = g_environ_setenv (envp, "STROBE_DISCOVERY", "0", TRUE);
  envp = g_environ_setenv (envp, "STROBE_CONTROL_PORT", "0", TRUE);
  envp = g_environ_unsetenv (envp, "STROBE_TRACEFILE");
  envp = g_environ_unsetenv (envp, "STROBE_TRACE");
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);

  open_trace (client_path, &opened[0]);
  open_trace (server_path, &opened[1]);
  for (guint i = 0; i < 2; i++)
    {
      const StrobeWireMetadata *meta = strobe_document_get_metadata (opened[i].document);

      g_assert_cmpmem (meta->session_name, meta->session_name_len, "pair-test", 9);
      align[i].metadata = meta;
      strobe_document_get_clock (opened[i].document, &align[i].clock);
      align[i].has_extent = strobe_document_get_extent (opened[i].document, &align[i].first, &align[i].last);
      instants[i] = scopes_named (opened[i].document, "Instant");
      g_assert_cmpuint (instants[i]->len, ==, n_instants);
    }
  g_assert_cmpuint (strobe_document_get_metadata (opened[1].document)->parent_process_id, ==,
                    strobe_document_get_metadata (opened[0].document)->process_id);

  read_instants (out, at, n_instants);
  /* Each on its own wall-clock start first: what aligning without the shared clock gives. */
  {
    StrobeClockAlignMember wall[2] = { align[0], align[1] };
    StrobeWireMetadata m0 = *align[0].metadata, m1 = *align[1].metadata;

    memset (m0.clock_domain, 0, 16);   /* as if the clocks were not known to be one */
    memset (m1.clock_domain, 0, 16);
    wall[0].metadata = &m0;
    wall[1].metadata = &m1;
    strobe_clock_align (wall, 2);
    for (guint k = 0; k < n_instants; k++)
      {
        StrobeTimelineScope *a = &g_array_index (instants[0], StrobeTimelineScope, k);
        StrobeTimelineScope *b = &g_array_index (instants[1], StrobeTimelineScope, k);
        gdouble apart = strobe_trace_clock_to_seconds (&wall[1].clock, b->begin)
                        - strobe_trace_clock_to_seconds (&wall[0].clock, a->begin);
        gdouble want = (g_array_index (at[1], gdouble, k) - g_array_index (at[0], gdouble, k)) * 1e-9;
        worst_wall = MAX (worst_wall, fabs (apart - want));
      }
  }
  strobe_clock_align (align, 2);
  /* The reference is the earlier starter: the client forks the server before it starts
   * tracing, so on a loaded machine the exec'd server may start first. */
  g_assert_true ((align[0].alignment == STROBE_CLOCK_ALIGN_REFERENCE && align[1].alignment == STROBE_CLOCK_ALIGN_SHARED)
                 || (align[1].alignment == STROBE_CLOCK_ALIGN_REFERENCE && align[0].alignment == STROBE_CLOCK_ALIGN_SHARED));
  /* Client instant i and server instant j lie as far apart on the axis as on the shared
   * clock. Pairs at most 3 ms apart: the TSC's frequency is an estimate, good to about
   * 10⁻⁴, which over longer spans alone would exceed the 1 µs. */
  for (guint i = 0; i < n_instants; i++)
    for (guint j = 0; j < n_instants; j++)   /* a late process marks its instants later */
      {
        StrobeTimelineScope *a = &g_array_index (instants[0], StrobeTimelineScope, i);
        StrobeTimelineScope *b = &g_array_index (instants[1], StrobeTimelineScope, j);
        gdouble apart = strobe_trace_clock_to_seconds (&align[1].clock, b->begin)
                        - strobe_trace_clock_to_seconds (&align[0].clock, a->begin);
        gdouble want = (g_array_index (at[1], gdouble, j) - g_array_index (at[0], gdouble, i)) * 1e-9;

        if (fabs (want) > 3e-3)
          continue;
        usable++;
        worst = MAX (worst, fabs (apart - want));
      }
  g_test_message ("group.align_same_clock_worst %.0f ns over %u pairs of instants; "
                  "wall-clock starts only: %.0f ns; the server's first instant %.3f ms after the client's",
                  worst * 1e9, usable, worst_wall * 1e9,
                  (g_array_index (at[1], gdouble, 0) - g_array_index (at[0], gdouble, 0)) * 1e-6);
  g_assert_cmpuint (usable, >=, 10);
  g_assert_cmpfloat (worst, <=, 1e-6);

  /* Flows: client → server → client, in time order on the axis, in the right scopes. */
  for (guint i = 0; i < 2; i++)
    {
      const GArray *points = strobe_flow_points_get_points (opened[i].flows);

      for (guint k = 0; k < points->len; k++)
        {
          StrobeFlowHop h = { g_array_index (points, StrobeFlowPoint, k), 0, i };
          h.seconds = strobe_trace_clock_to_seconds (&align[i].clock, h.point.time);
          g_array_append_val (hops, h);
        }
    }
  flows = strobe_flow_points_link (hops);
  g_assert_cmpuint (flows->len, ==, 10);
  for (guint f = 0; f < flows->len; f++)
    {
      StrobeFlow *flow = g_ptr_array_index (flows, f);
      static const char *const where[] = { "SendRequest", "HandleRequest", "ReceiveReply" };

      g_assert_cmpuint (flow->id, ==, G_GUINT64_CONSTANT (0x5e55000000000000) + f);
      g_assert_false (flow->unfinished);
      g_assert_false (flow->unstarted);
      g_assert_cmpuint (flow->hops->len, ==, 3);
      for (guint k = 0; k < 3; k++)
        {
          StrobeFlowHop *h = &g_array_index (flow->hops, StrobeFlowHop, k);

          g_assert_cmpuint (h->trace, ==, k == 1 ? 1 : 0);
          g_assert_cmpstr (scope_at (opened[h->trace].document, h->point.time), ==, where[k]);
          if (k > 0)
            g_assert_cmpfloat (h->seconds, >, g_array_index (flow->hops, StrobeFlowHop, k - 1).seconds);
        }
    }

  for (guint i = 0; i < 2; i++)
    {
      g_object_unref (opened[i].document);
      g_object_unref (opened[i].flows);
      g_array_unref (instants[i]);
      g_array_unref (at[i]);
    }
  test_dir_remove_all (dir);
}

/* The Chrome JSON of a client and its server (checked-in traces of group-pair): both
 * processes, each its own pid, on one axis, and the three requests as flows from the
 * client's SendRequest through the server's HandleRequest to the client's ReceiveReply —
 * byte for byte what data/pair-export.json says (its flow points checked by hand to lie
 * in those scopes). */
static void
test_export_golden (void)
{
  g_autofree char *client = g_build_filename (g_getenv ("GROUP_DATA"), "pair-client.strobe", NULL);
  g_autofree char *server = g_build_filename (g_getenv ("GROUP_DATA"), "pair-server.strobe", NULL);
  g_autofree char *golden_path = g_build_filename (g_getenv ("GROUP_DATA"), "pair-export.json", NULL);
  g_autofree char *golden = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { g_getenv ("STROBE_CLI"), "export", "--format=chrome-json", client, server, NULL };
  const char *one[] = { g_getenv ("STROBE_CLI"), "export", "--format=csv", client, server, NULL };
  int status;

  g_assert_true (g_file_get_contents (golden_path, &golden, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_cmpstr (out, ==, golden);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Recorded from a directory of no one's (no build path in the command line), in the
   * session "pair": each process's header says so — the name copied out of the decoder,
   * which is gone once the trace is read. */
  {
    const char *info[] = { g_getenv ("STROBE_CLI"), "info", client, server, NULL };
    const char *at;
    guint sessions = 0;

    /* No absolute path: a string value beginning with '/' would be one of the machine
     * the data was recorded on. */
    g_assert_null (strstr (golden, "\"/"));
    g_assert_true (g_spawn_sync (NULL, (char **) info, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    for (at = out; (at = strstr (at, "\nSession:")) != NULL; at++)
      {
        g_assert_true (g_str_has_prefix (g_strchug ((char *) at + 9), "pair\n"));
        sessions++;
      }
    g_assert_cmpuint (sessions, ==, 2);
    g_assert_null (strstr (out, "Command line:    /"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* CSV has no processes: several traces are refused, with a reason. */
  g_assert_true (g_spawn_sync (NULL, (char **) one, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, "chrome-json"));
}

/* `strobe-cli log` of a group (the demo and its game server): one list of both processes'
 * messages, in time on the one axis, each line naming its process; as many lines as the
 * two traces' own logs hold together; --process keeps one process's. */
static void
test_log_merged (void)
{
  g_autofree char *dir = g_dir_make_tmp ("group-log-XXXXXX", NULL);
  g_autofree char *game = g_build_filename (dir, "demo.strobe", NULL);
  g_autofree char *server = g_build_filename (dir, "demo.server.strobe", NULL);
  g_autofree char *tracefile = g_strdup_printf ("--tracefile=%s", game);
  const char *demo[] = { g_getenv ("STROBE_DEMO"), "--duration=1", "--trace=log,cpu,memory", tracefile, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status, game_n, server_n;
  g_auto(GStrv) lines = NULL;
  gdouble last = -1;
  guint game_lines = 0, server_lines = 0, n = 0;

  g_assert_true (g_spawn_sync (dir, (char **) demo, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_test (server, G_FILE_TEST_EXISTS));

  /* Each trace's own count, then the merged list. */
  {
    const char *count_game[] = { g_getenv ("STROBE_CLI"), "log", "--count", game, NULL };
    const char *count_server[] = { g_getenv ("STROBE_CLI"), "log", "--count", server, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) count_game, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
    game_n = atoi (out);
    g_clear_pointer (&out, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) count_server, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
    server_n = atoi (out);
    g_clear_pointer (&out, g_free);
    g_assert_cmpint (game_n, >, 0);
    g_assert_cmpint (server_n, >, 0);
  }
  {
    const char *argv[] = { g_getenv ("STROBE_CLI"), "log", game, server, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++, n++)
    {
      gdouble t = g_ascii_strtod (lines[i], NULL);

      /* In time, whichever process a message came from. */
      g_assert_cmpfloat (t, >=, last);
      last = t;
      if (strstr (lines[i], "(pid ") == NULL)
        g_error ("no process on the line “%s”", lines[i]);
      if (strstr (lines[i], "LogServer") != NULL)
        server_lines++;
      else
        game_lines++;
    }
  g_assert_cmpuint (n, ==, (guint) (game_n + server_n));
  g_assert_cmpuint (server_lines, ==, (guint) server_n);
  g_assert_cmpuint (game_lines, ==, (guint) game_n);
  g_clear_pointer (&out, g_free);

  /* --process by program name: the server's name is the demo's (one binary), so by pid. */
  {
    const char *meta[] = { g_getenv ("STROBE_CLI"), "info", server, NULL };
    g_autofree char *pid_arg = NULL;
    const char *at;
    g_auto(GStrv) only = NULL;

    g_assert_true (g_spawn_sync (NULL, (char **) meta, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
    at = strstr (out, "Process id:");
    g_assert_nonnull (at);
    pid_arg = g_strdup_printf ("--process=%d", atoi (at + strlen ("Process id:")));
    g_clear_pointer (&out, g_free);
    {
      const char *argv[] = { g_getenv ("STROBE_CLI"), "log", pid_arg, "--count", game, server, NULL };

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
      g_assert_cmpint (atoi (out), ==, server_n);
    }
    g_clear_pointer (&out, g_free);
  }

  /* `memory` of both: each process's summary, then a line each and the total — its
   * allocations the sum of the two, the peak of both together at least either's peak and
   * at most the sum of the peaks. */
  {
    const char *argv[] = { g_getenv ("STROBE_CLI"), "memory", game, server, NULL };
    guint64 allocs[2] = { 0 }, sum_allocs = 0;
    gint64 peaks[2] = { 0 }, peak = 0;
    const char *at;
    guint k = 0;

    g_clear_pointer (&err, g_free);   /* the log run's */
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    at = strstr (out, "== All 2 processes");
    g_assert_nonnull (at);
    g_strfreev (lines);
    lines = g_strsplit (at, "\n", -1);
    for (guint i = 2; lines[i] && *lines[i]; i++)
      {
        g_auto(GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
        g_autoptr(GPtrArray) cols = g_ptr_array_new ();

        for (guint c = 0; f[c]; c++)
          if (*f[c])
            g_ptr_array_add (cols, f[c]);
        if (g_str_has_prefix (lines[i], "Peak"))
          break;
        g_assert_cmpuint (cols->len, >=, 6);
        /* process… allocs frees live peak total: counted from the end, names have spaces */
        if (g_str_equal (g_ptr_array_index (cols, 0), "total"))
          {
            sum_allocs = g_ascii_strtoull (g_ptr_array_index (cols, cols->len - 5), NULL, 10);
            peak = g_ascii_strtoll (g_ptr_array_index (cols, cols->len - 2), NULL, 10);
          }
        else if (k < 2)
          {
            allocs[k] = g_ascii_strtoull (g_ptr_array_index (cols, cols->len - 5), NULL, 10);
            peaks[k++] = g_ascii_strtoll (g_ptr_array_index (cols, cols->len - 2), NULL, 10);
          }
      }
    g_assert_cmpuint (k, ==, 2);
    g_assert_cmpuint (allocs[0] + allocs[1], >, 0);
    g_assert_cmpuint (sum_allocs, ==, allocs[0] + allocs[1]);
    g_assert_cmpint (peak, >=, MAX (peaks[0], peaks[1]));
    g_assert_cmpint (peak, <=, peaks[0] + peaks[1]);
    g_test_message ("memory: %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT " allocations; peaks %" G_GINT64_FORMAT
                    " and %" G_GINT64_FORMAT ", together %" G_GINT64_FORMAT, allocs[0], allocs[1], peaks[0], peaks[1], peak);
  }
  test_dir_remove_all (dir);
}

/* A trace of another machine, on the axis of one of this machine's by a measured offset.
 * The reference reads CLOCK_MONOTONIC on machine D; the other a 3 GHz TSC on machine E,
 * measured against D's clock (offset X ± 2 µs), its wall clock 3 s wrong. One instant T
 * of D's clock has one number of seconds in both — the measure, not the wall clock,
 * places it —; both measured by D instead, the offset is the difference of the two; moved
 * by hand, the trace moves by exactly that; with no measure, the wall clock is all there
 * is. */
static void
test_align_measured_offset (void)
{
  StrobeWireMetadata ref_meta = { 0 }, far_meta = { 0 };
  const gint64 x = G_GINT64_CONSTANT (-987654321012);   /* E's clock (ns) minus D's */
  const guint64 t_ns = G_GUINT64_CONSTANT (5100000000000);   /* an instant, D's clock: 5100 s */
  StrobeClockMeasure by_d = { "11111111111111111111111111111111", x, 2000, 8 };
  StrobeClockMeasure ref_by_d = { "11111111111111111111111111111111", 250000, 1500, 8 };
  StrobeClockAlignMember m[2] = { { 0 } };
  guint64 far_ticks = (guint64) ((gint64) t_ns + x) * 3;   /* E's ticks at T */
  g_autofree char *said = NULL;
  gdouble a, b;

  ref_meta.clock_source = 0;
  memset (ref_meta.clock_domain, 0x11, 16);
  ref_meta.clock_frequency = 1000000000;
  ref_meta.clock_origin = G_GUINT64_CONSTANT (5000000000000);
  ref_meta.start_time_ns = G_GUINT64_CONSTANT (1764900000000000000);
  far_meta.clock_source = 1;
  memset (far_meta.clock_domain, 0x22, 16);
  far_meta.clock_frequency = 3000000000;
  far_meta.clock_origin = (guint64) ((gint64) G_GUINT64_CONSTANT (5050000000000) + x) * 3;   /* 50 s later */
  far_meta.start_time_ns = ref_meta.start_time_ns + G_GUINT64_CONSTANT (53000000000);   /* 3 s wrong */
  for (guint i = 0; i < 2; i++)
    {
      m[i].metadata = i ? &far_meta : &ref_meta;
      strobe_trace_clock_init (&m[i].clock, m[i].metadata);
      m[i].has_extent = TRUE;
    }
  m[0].first = ref_meta.clock_origin;
  m[0].last = t_ns + 1000000000;
  m[1].first = far_meta.clock_origin;
  m[1].last = far_ticks + 3000000000u;
  m[1].measures = &by_d;
  m[1].n_measures = 1;

  strobe_clock_align (m, 2);
  g_assert_cmpint (m[0].alignment, ==, STROBE_CLOCK_ALIGN_REFERENCE);
  g_assert_cmpint (m[1].alignment, ==, STROBE_CLOCK_ALIGN_OFFSET);
  g_assert_cmpint (m[1].offset_ns, ==, x);
  g_assert_cmpuint (m[1].uncertainty_ns, ==, 2000);
  a = strobe_trace_clock_to_seconds (&m[0].clock, t_ns);
  b = strobe_trace_clock_to_seconds (&m[1].clock, far_ticks);
  g_assert_cmpfloat (fabs (a - b), <, 2e-9);
  g_assert_cmpfloat (fabs (a - 100.0), <, 1e-9);   /* 100 s after the reference's start */
  said = strobe_clock_align_describe (&m[1]);
  g_assert_nonnull (strstr (said, "8"));

  /* Moved by hand half a millisecond later. */
  m[1].adjust_ns = 500000;
  for (guint i = 0; i < 2; i++)
    strobe_trace_clock_init (&m[i].clock, m[i].metadata);
  strobe_clock_align (m, 2);
  b = strobe_trace_clock_to_seconds (&m[1].clock, far_ticks);
  g_assert_cmpfloat (fabs (b - a - 0.5e-3), <, 2e-9);
  m[1].adjust_ns = 0;

  /* Both measured by one peer: the difference, ± the sum. */
  ref_meta.clock_source = 1;
  m[0].measures = &ref_by_d;
  m[0].n_measures = 1;
  for (guint i = 0; i < 2; i++)
    strobe_trace_clock_init (&m[i].clock, m[i].metadata);
  strobe_clock_align (m, 2);
  g_assert_cmpint (m[1].alignment, ==, STROBE_CLOCK_ALIGN_OFFSET);
  g_assert_cmpint (m[1].offset_ns, ==, x - 250000);
  g_assert_cmpuint (m[1].uncertainty_ns, ==, 3500);

  /* No measure: the wall clocks, 3 s off. */
  m[0].n_measures = m[1].n_measures = 0;
  for (guint i = 0; i < 2; i++)
    strobe_trace_clock_init (&m[i].clock, m[i].metadata);
  strobe_clock_align (m, 2);
  g_assert_cmpint (m[1].alignment, ==, STROBE_CLOCK_ALIGN_WALL);
  b = strobe_trace_clock_to_seconds (&m[1].clock, far_ticks);
  g_assert_cmpfloat (fabs (b - a), >, 2.9);
}

static G_GNUC_UNUSED void
skip_under_sanitizer (void)
{
  g_test_skip ("not under a sanitizer");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  /* Children run under the preload module, and an instrumented one cannot be preloaded
   * (the sanitizer's runtime must come first), as in test-memory-trace. */
  g_test_add_func ("/group/follow-children/skipped-under-sanitizers", skip_under_sanitizer);
#else
  g_test_add_func ("/group/follow-children", test_follow_children);
#endif
  g_test_add_func ("/group/align-flows", test_align_flows);
  g_test_add_func ("/group/align-measured-offset", test_align_measured_offset);
  g_test_add_func ("/group/export-golden", test_export_golden);
  g_test_add_func ("/group/log-memory-merged", test_log_merged);
  return g_test_run ();
}
