/* test-runtime.c — the runtime on its own: each scenario runs in runtime-helper (its own
 * process), and the trace it wrote is checked byte by byte with strobe-raw. */
#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "strobe-raw.h"
#include "test-dirs.h"

static const char *helper;

/* This run's own directory: the suite runs in several build trees at once (sanitizers,
 * other checkouts), and a fixed name in /tmp had two runs write one trace. */
static char *run_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (run_dir, name, NULL);
}

/* Runs the helper; returns its stdout. @env: extra NAME=VALUE pairs. */
static char *
run_helper (const char *const *args, const char *const *env)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  char *out = NULL, *err = NULL;
  int status;

  for (const char *const *e = (const char *const *) envp; *e; e++)
    ;
  envp = g_environ_unsetenv (envp, "STROBE_TRACE");
  envp = g_environ_unsetenv (envp, "STROBE_TRACEFILE");
  envp = g_environ_unsetenv (envp, "STROBE_TRACEHOST");
  for (; env && env[0]; env += 2)
    envp = g_environ_setenv (envp, env[0], env[1], TRUE);
  g_ptr_array_add (argv, (char *) helper);
  for (; *args; args++)
    g_ptr_array_add (argv, (char *) *args);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  if (err && *err)
    g_test_message ("helper stderr: %s", err);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  g_free (err);
  return out;
}

static RawTrace *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  RawTrace *t = raw_trace_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static guint
count_named (RawTrace *t, const char *logger, const char *event)
{
  g_autoptr (GPtrArray) a = raw_trace_events_named (t, logger, event);
  return a->len;
}

static void
assert_field (const StrobeWireSchema *s, guint index, const char *name, guint8 type,
              guint16 offset, guint16 size)
{
  g_assert_cmpuint (index, <, s->field_count);
  g_assert_cmpmem (s->fields[index].name, s->fields[index].name_size, name, strlen (name));
  g_assert_cmpuint (s->fields[index].type, ==, type);
  g_assert_cmpuint (s->fields[index].offset, ==, offset);
  g_assert_cmpuint (s->fields[index].size, ==, size);
}

/* State of a channel after replaying announces and toggles, by id. */
static gboolean
channel_enabled (RawTrace *t, const char *name)
{
  guint32 id = strobe_wire_channel_id (name, strlen (name));
  gboolean on = FALSE, seen = FALSE;

  for (guint i = 0; i < t->events->len; i++)
    {
      RawEvent *ev = &g_array_index (t->events, RawEvent, i);
      const StrobeWireSchema *s = g_hash_table_lookup (t->schemas, GUINT_TO_POINTER (ev->uid));
      if (s->logger_size != 6 || memcmp (s->logger, "$Trace", 6) != 0)
        continue;
      if ((s->event_size == 15 && memcmp (s->event, "ChannelAnnounce", 15) == 0)
          || (s->event_size == 13 && memcmp (s->event, "ChannelToggle", 13) == 0))
        if (raw_event_uint (t, ev, "Id") == id)
          {
            on = raw_event_uint (t, ev, "Enabled") != 0;
            seen = TRUE;
          }
    }
  g_assert_true (seen);
  return on;
}

static void
check_common_start (RawTrace *t)
{
  static const guint8 zero[16];

  g_assert_cmpuint (t->meta.pointer_size, ==, sizeof (void *));
  g_assert_cmpuint (t->meta.process_id, >, 0);
  g_assert_cmpuint (t->meta.clock_frequency, >, 0);
  g_assert_cmpmem (t->meta.program_name, t->meta.program_name_len, "runtime-helper", 14);
  g_assert_true (memcmp (t->meta.session_id, zero, 16) != 0);
  g_assert_true (memcmp (t->meta.trace_id, zero, 16) != 0);
  g_assert_cmpuint (t->meta.command_line_len, >, 0);
  g_assert_cmpuint (t->controls->len, >=, 2);
  g_assert_cmpuint (g_array_index (t->controls, guint8, 0), ==, STROBE_CONTROL_SYNC);
  g_assert_cmpuint (g_array_index (t->controls, guint8, t->controls->len - 1), ==, STROBE_CONTROL_END);
  /* System schemas are always there. */
  g_assert_nonnull (raw_trace_find_schema (t, "$Trace", "ThreadInfo"));
  g_assert_nonnull (raw_trace_find_schema (t, "$Trace", "ChannelAnnounce"));
}

static void
check_basic_events (RawTrace *t)
{
  const StrobeWireSchema *s;
  g_autoptr (GPtrArray) aux = NULL;
  g_autoptr (GPtrArray) sync = NULL;
  g_autoptr (GPtrArray) both = NULL;
  GBytes *b;

  s = raw_trace_find_schema (t, "Test", "Sync");
  g_assert_nonnull (s);
  g_assert_cmpuint (s->uid, >=, 16);
  g_assert_cmpuint (s->flags, ==, 0);
  g_assert_cmpuint (s->payload_size, ==, 12);
  assert_field (s, 0, "Cycle", STROBE_TYPE_UINT64, 0, 8);
  assert_field (s, 1, "Value", STROBE_TYPE_UINT32, 8, 4);

  s = raw_trace_find_schema (t, "Test", "NoSync");
  g_assert_cmpuint (s->flags, ==, STROBE_EVENT_FLAG_NOSYNC);
  g_assert_cmpuint (s->payload_size, ==, 4 + 1 + 8 + 1 + sizeof (void *));
  assert_field (s, 1, "Flag", STROBE_TYPE_BOOL, 4, 1);
  assert_field (s, 2, "Ratio", STROBE_TYPE_FLOAT64, 5, 8);
  assert_field (s, 3, "Small", STROBE_TYPE_INT8, 13, 1);
  assert_field (s, 4, "Where", STROBE_TYPE_POINTER, 14, sizeof (void *));

  s = raw_trace_find_schema (t, "Test", "Aux");
  g_assert_cmpuint (s->flags, ==, STROBE_EVENT_FLAG_NOSYNC | STROBE_EVENT_FLAG_HAS_AUX);
  g_assert_cmpuint (s->payload_size, ==, 2);
  assert_field (s, 1, "Samples", STROBE_TYPE_ARRAY | STROBE_TYPE_FLOAT32, 0, 4);
  assert_field (s, 2, "Name", STROBE_TYPE_ANSI, 0, 0);
  assert_field (s, 3, "Title", STROBE_TYPE_WIDE, 0, 0);

  s = raw_trace_find_schema (t, "Test", "Config");
  g_assert_cmpuint (s->flags, ==, STROBE_EVENT_FLAG_IMPORTANT | STROBE_EVENT_FLAG_NOSYNC
                                  | STROBE_EVENT_FLAG_HAS_AUX);
  g_assert_nonnull (raw_trace_find_schema (t, "TestCpp", "Plain"));

  sync = raw_trace_events_named (t, "Test", "Sync");
  g_assert_cmpuint (sync->len, >=, 1);
  g_assert_cmpuint (raw_event_uint (t, sync->pdata[0], "Value"), ==, 1);
  g_assert_cmpuint (raw_event_uint (t, sync->pdata[0], "Cycle"), >, 0);
  g_assert_cmpuint (count_named (t, "Test", "NoSync"), ==, 1);

  aux = raw_trace_events_named (t, "Test", "Aux");
  g_assert_cmpuint (aux->len, ==, 4);
  {
    const float want[3] = { 1, 2, 3 };
    /* été 😀 in UTF-16LE, the emoji as a surrogate pair */
    const guint8 title[] = { 0xe9, 0, 't', 0, 0xe9, 0, ' ', 0, 0x3d, 0xd8, 0x00, 0xde };
    b = raw_event_aux (t, aux->pdata[0], "Samples");
    g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), want, sizeof want);
    b = raw_event_aux (t, aux->pdata[0], "Name");
    g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), "hello", 5);
    b = raw_event_aux (t, aux->pdata[0], "Title");
    g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), title, sizeof title);
  }
  {
    const guint8 title[] = { 'a', 0, 'b', 0, 0x3d, 0xd8, 0x00, 0xde };
    b = raw_event_aux (t, aux->pdata[1], "Name");
    g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), "iA", 2);
    b = raw_event_aux (t, aux->pdata[1], "Title");
    g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), title, sizeof title);
    g_assert_null (raw_event_aux (t, aux->pdata[1], "Samples"));
  }
  g_assert_cmpuint (raw_event_uint (t, aux->pdata[2], "Id"), ==, 5);
  g_assert_null (raw_event_aux (t, aux->pdata[2], "Name"));
  b = raw_event_aux (t, aux->pdata[3], "Name");
  g_assert_cmpuint (g_bytes_get_size (b), ==, 100000);

  {
    g_autoptr (GPtrArray) cfg = raw_trace_events_named (t, "Test", "Config");
    g_assert_cmpuint (cfg->len, ==, 1);
    g_assert_cmpuint (((RawEvent *) cfg->pdata[0])->thread_id, ==, STROBE_TID_IMPORTANTS);
    g_assert_cmpuint (raw_event_uint (t, cfg->pdata[0], "Mode"), ==, 7);
    b = raw_event_aux (t, cfg->pdata[0], "Label");
    g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), "important", 9);
  }
  /* Multi-channel sites: only where every channel is on (Cpu, Gpu; not Mem). */
  both = raw_trace_events_named (t, "Test", "Both");
  g_assert_cmpuint (both->len, ==, 2);
  g_assert_cmpuint (raw_event_uint (t, both->pdata[0], "Value"), ==, 100);
  g_assert_cmpuint (raw_event_uint (t, both->pdata[1], "Value"), ==, 102);
}

static void
test_basic (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-basic.strobe");
  const char *args[] = { "basic", path, NULL };
  RawTrace *t;
  g_autofree char *out = run_helper (args, NULL);

  t = load (path);
  check_common_start (t);
  check_basic_events (t);
  g_assert_false (channel_enabled (t, "Cpu"));   /* switched off at the end */
  g_assert_true (channel_enabled (t, "Gpu"));
  g_assert_false (channel_enabled (t, "Mem"));
  g_assert_true (channel_enabled (t, "Trace"));
  /* emit_sync (999) after disabling Cpu left no trace. */
  {
    g_autoptr (GPtrArray) sync = raw_trace_events_named (t, "Test", "Sync");
    for (guint i = 0; i < sync->len; i++)
      g_assert_cmpuint (raw_event_uint (t, sync->pdata[i], "Value"), !=, 999);
  }
  g_assert_cmpuint (t->lz4_packets + 1, >=, 1);
  raw_trace_free (t);
  g_unlink (path);
}

static void
test_env (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-env.strobe");
  const char *args[] = { "env", NULL };
  const char *env[] = { "STROBE_TRACE", "cpu,Gpus", "STROBE_TRACEFILE", path, NULL };
  g_autofree char *out = run_helper (args, env);
  RawTrace *t = load (path);

  check_common_start (t);
  check_basic_events (t);
  g_assert_true (channel_enabled (t, "Cpu"));
  g_assert_true (channel_enabled (t, "Gpu"));
  g_assert_false (channel_enabled (t, "Mem"));
  raw_trace_free (t);
  g_unlink (path);
}

static void
test_args (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-args.strobe");
  g_autofree char *file_arg = g_strdup_printf ("--tracefile=%s", path);
  const char *args[] = { "--trace=CPU,gpu", "args", file_arg, "keep-me", NULL };
  g_autofree char *out = run_helper (args, NULL);
  RawTrace *t = load (path);

  check_common_start (t);
  check_basic_events (t);
  g_assert_true (channel_enabled (t, "Cpu"));
  g_assert_false (channel_enabled (t, "Mem"));
  raw_trace_free (t);
  g_unlink (path);
}

static void
test_switch (void)
{
  g_autofree char *a = tmp_path ("strobe-rt-switch-a.strobe");
  g_autofree char *b = tmp_path ("strobe-rt-switch-b.strobe");
  const char *args[] = { "switch", a, b, NULL };
  g_autofree char *out = run_helper (args, NULL);
  RawTrace *ta = load (a), *tb = load (b);
  g_autoptr (GPtrArray) sa = raw_trace_events_named (ta, "Test", "Sync");
  g_autoptr (GPtrArray) sb = raw_trace_events_named (tb, "Test", "Sync");

  check_common_start (ta);
  check_common_start (tb);
  g_assert_cmpmem (ta->meta.session_id, 16, tb->meta.session_id, 16);
  g_assert_true (memcmp (ta->meta.trace_id, tb->meta.trace_id, 16) != 0);
  /* Each file is complete on its own: schemas and channels replayed into the second. */
  g_assert_nonnull (raw_trace_find_schema (tb, "Test", "Sync"));
  g_assert_nonnull (raw_trace_find_schema (tb, "Test", "NoSync"));
  g_assert_true (channel_enabled (tb, "Cpu"));
  g_assert_false (channel_enabled (tb, "Mem"));
  g_assert_false (channel_enabled (ta, "Mem"));   /* the toggle before the switch was shipped */
  g_assert_cmpuint (sa->len, ==, 1);
  g_assert_cmpuint (raw_event_uint (ta, sa->pdata[0], "Value"), ==, 1);
  g_assert_cmpuint (sb->len, ==, 1);
  g_assert_cmpuint (raw_event_uint (tb, sb->pdata[0], "Value"), ==, 2);
  g_assert_cmpuint (count_named (tb, "Test", "NoSync"), ==, 1);
  /* Sync in the second file: the serial counter had handed out one serial. */
  g_assert_cmpuint (g_array_index (tb->sync_serials, guint32, 0), ==, 1);
  raw_trace_free (ta);
  raw_trace_free (tb);
  g_unlink (a);
  g_unlink (b);
}

/* The session name, the clock domain and the parent's pid reach the handshake; flow
 * points are Misc.Flow events with their phase, in the order they were made. */
static void
test_session (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-session.strobe");
  const char *args[] = { "session", path, NULL };
  const char *env[] = { "STROBE_SESSION", "from-env", NULL };
  g_autofree char *out = run_helper (args, env);
  g_autofree char *boot = NULL;
  g_autoptr (GString) hex = g_string_new (NULL);
  g_autoptr (GPtrArray) flows = NULL;
  RawTrace *t = load (path);

  check_common_start (t);
  g_assert_cmpmem (t->meta.session_name, t->meta.session_name_len, "checkout-test", 13);
  g_assert_cmpuint (t->meta.parent_process_id, ==, getpid ());
  g_assert_true (g_file_get_contents ("/proc/sys/kernel/random/boot_id", &boot, NULL, NULL));
  for (guint i = 0; i < 16; i++)
    g_string_append_printf (hex, "%02x", t->meta.clock_domain[i]);
  {
    g_autoptr (GString) want = g_string_new (NULL);
    for (const char *c = boot; *c; c++)
      if (g_ascii_isxdigit (*c))
        g_string_append_c (want, g_ascii_tolower (*c));
    g_assert_cmpstr (hex->str, ==, want->str);
  }

  flows = raw_trace_events_named (t, "Misc", "Flow");
  g_assert_cmpuint (flows->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (raw_event_uint (t, flows->pdata[i], "Id"), ==, G_GUINT64_CONSTANT (0xfeedface00000001));
      g_assert_cmpuint (raw_event_uint (t, flows->pdata[i], "Phase"), ==, i);
      g_assert_cmpuint (((RawEvent *) flows->pdata[i])->serial, !=, G_MAXUINT32);
      if (i > 0)
        g_assert_cmpuint (raw_event_uint (t, flows->pdata[i], "Cycle"), >=,
                          raw_event_uint (t, flows->pdata[i - 1], "Cycle"));
    }
  raw_trace_free (t);
  g_unlink (path);
}

static void
test_noworker (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-noworker.strobe");
  const char *args[] = { "noworker", path, NULL };
  g_autofree char *out = run_helper (args, NULL);
  RawTrace *t = load (path);
  g_autoptr (GPtrArray) ev = raw_trace_events_named (t, "Test", "NoSync");

  check_common_start (t);
  g_assert_cmpuint (ev->len, ==, 100000);
  for (guint i = 0; i < ev->len; i++)
    g_assert_cmpuint (raw_event_uint (t, ev->pdata[i], "Value"), ==, i);
  g_assert_cmpuint (t->lz4_packets, >, 0);
  raw_trace_free (t);
  g_unlink (path);
}

static void
test_threads (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-threads.strobe");
  const char *args[] = { "threads", path, NULL };
  g_autofree char *out = run_helper (args, NULL);
  RawTrace *t = load (path);
  g_autoptr (GPtrArray) ev = raw_trace_events_named (t, "Test", "Sync");
  g_autoptr (GPtrArray) infos = raw_trace_events_named (t, "$Trace", "ThreadInfo");
  g_autoptr (GPtrArray) ends = raw_trace_events_named (t, "$Trace", "ThreadEnd");
  g_autoptr (GHashTable) last = g_hash_table_new (NULL, NULL);
  g_autofree guint8 *seen = g_new0 (guint8, 4 * 30000);
  guint named = 0;

  check_common_start (t);
  g_assert_cmpuint (ev->len, ==, 4 * 30000);
  /* Every serial exactly once; per thread, values and serials in program order. */
  for (guint i = 0; i < ev->len; i++)
    {
      RawEvent *e = ev->pdata[i];
      guint64 v = raw_event_uint (t, e, "Value");
      gpointer key = GUINT_TO_POINTER (e->thread_id);
      g_assert_cmpuint (e->serial, <, 4 * 30000);
      g_assert_cmpuint (seen[e->serial], ==, 0);
      seen[e->serial] = 1;
      if (g_hash_table_contains (last, key))
        g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (last, key)), <, e->serial);
      g_hash_table_insert (last, key, GUINT_TO_POINTER (e->serial));
      g_assert_cmpuint (v % 100000, <, 30000);
    }
  g_assert_cmpuint (g_hash_table_size (last), ==, 4);
  /* Four worker threads ended; each announced (two renamed, so announced twice). */
  g_assert_cmpuint (ends->len, >=, 4);
  for (guint i = 0; i < infos->len; i++)
    {
      GBytes *n = raw_event_aux (t, infos->pdata[i], "Name");
      guint64 id = raw_event_uint (t, infos->pdata[i], "ThreadId");
      g_assert_cmpuint (id, >=, 16);
      g_assert_cmpuint (raw_event_uint (t, infos->pdata[i], "SystemId"), >, 0);
      if (n && g_bytes_get_size (n) > 6 && memcmp (g_bytes_get_data (n, NULL), "named-", 6) == 0)
        named++;
    }
  g_assert_cmpuint (named, ==, 2);
  raw_trace_free (t);
  g_unlink (path);
}

static void
test_drops (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-drops.strobe");
  const char *args[] = { "drops", path, NULL };
  g_autofree char *out = run_helper (args, NULL);
  RawTrace *t = load (path);
  g_autoptr (GPtrArray) ev = raw_trace_events_named (t, "Test", "NoSync");
  g_autoptr (GPtrArray) stats = raw_trace_events_named (t, "$Trace", "Stats");
  guint64 emitted = 0, dropped = 0;

  g_assert_nonnull (strstr (out, "dropped="));
  g_assert_cmpuint (sscanf (strstr (out, "emitted="), "emitted=%" G_GUINT64_FORMAT " dropped=%" G_GUINT64_FORMAT,
                            &emitted, &dropped), ==, 2);
  g_assert_cmpuint (dropped, >, 0);
  /* What was not dropped arrived, and the event after the update too. */
  g_assert_cmpuint (ev->len, >, 0);
  g_assert_cmpuint (ev->len, <, 100000);
  g_assert_cmpuint (raw_event_uint (t, ev->pdata[ev->len - 1], "Value"), ==, 424242);
  /* Stats in the trace: the drops are never silent. */
  g_assert_cmpuint (stats->len, >, 0);
  g_assert_cmpuint (raw_event_uint (t, stats->pdata[stats->len - 1], "EventsDropped"), >=, dropped);
  raw_trace_free (t);
  g_unlink (path);
}

/* A pool an earlier burst grew to its limit still takes an event bigger than a block: its
 * free blocks make room. It dropped every such event for the rest of the process, which
 * stalled strobe-bench-scale's allocation writers after its billion scopes (issue 20). */
static void
test_full_pool (void)
{
  g_autofree char *path = tmp_path ("strobe-rt-full-pool.strobe");
  const char *args[] = { "full-pool", path, NULL };
  g_autofree char *out = run_helper (args, NULL);
  RawTrace *t = load (path);
  g_autoptr (GPtrArray) aux = raw_trace_events_named (t, "Test", "Aux");
  guint64 before = 0, after = 0;

  g_assert_cmpuint (sscanf (out, "dropped=%" G_GUINT64_FORMAT " then %" G_GUINT64_FORMAT, &before, &after), ==, 2);
  g_assert_cmpuint (before, >, 0);
  g_assert_cmpuint (after, ==, before);
  g_assert_cmpuint (aux->len, ==, 3);
  for (guint i = 0; i < aux->len; i++)
    {
      GBytes *b = raw_event_aux (t, aux->pdata[i], "Name");
      g_assert_cmpuint (raw_event_uint (t, aux->pdata[i], "Id"), ==, 7 + i);
      g_assert_nonnull (b);
      g_assert_cmpuint (g_bytes_get_size (b), ==, 100000);
    }
  raw_trace_free (t);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  helper = g_getenv ("RUNTIME_HELPER");
  g_assert_nonnull (helper);
  g_test_add_func ("/runtime/basic", test_basic);
  g_test_add_func ("/runtime/env", test_env);
  g_test_add_func ("/runtime/args", test_args);
  g_test_add_func ("/runtime/switch", test_switch);
  g_test_add_func ("/runtime/session", test_session);
  g_test_add_func ("/runtime/noworker", test_noworker);
  g_test_add_func ("/runtime/threads", test_threads);
  g_test_add_func ("/runtime/drops", test_drops);
  g_test_add_func ("/runtime/full-pool", test_full_pool);
  run_dir = test_dir_make_tmp ("strobe-rt-XXXXXX");
  status = g_test_run ();
  test_dir_remove_all (run_dir);
  g_free (run_dir);
  return status;
}
