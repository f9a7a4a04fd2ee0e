/* test-sampling.c — the Sampling channel end to end: sampling-probe traced to a file with
 * the channel on (or toggled through the control server), read back through a
 * StrobeDocument with the StrobeSampleModel registered, stacks symbolized by core/symbols.
 *
 * - attribution: the slow scope's samples are ≥ 80 % in its hot leaf, by name, with
 *   frame pointers (and its caller is right), without them (the leaf still is), and
 *   without them but with stack copies (STROBE_SAMPLING_STACK) unwound with the CFI in
 *   the analysis (the caller is right again);
 * - states: sleeping, spinning and waiting on a mutex read as waiting, running and waiting;
 * - threads: threads started after sampling began are sampled;
 * - not permitted: a refusal is in the trace, on stderr and in strobe-cli's words;
 * - late toggle: the channel switched on and off from the control server;
 * - the CLI: --scope, --bottom-up and --flame agree with the model;
 * - batches: the rings are read every 50 ms, not every round.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "strobe-document.h"
#include "strobe-memory-symbols.h"
#include "strobe-sample-model.h"
#include "strobe-sample-roots.h"
#include "strobe-sample-unwind.h"
#include "strobe-scope-search.h"
#include "strobe-trace-clock.h"
#include "test-dirs.h"

static const char *probe, *probe_nofp, *cli;

/* Runs @argv with @env (NAME, VALUE pairs); its stderr into *@err when not NULL. */
static int
run (const char *const *argv, const char *const *env, char **out, char **err)
{
  g_autoptr (GSubprocessLauncher) l =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;

  g_subprocess_launcher_unsetenv (l, "STROBE_TRACE");
  g_subprocess_launcher_unsetenv (l, "STROBE_TRACEHOST");
  g_subprocess_launcher_setenv (l, "LANGUAGE", "C", TRUE);
  g_subprocess_launcher_setenv (l, "LC_ALL", "C", TRUE);
  for (guint i = 0; env && env[i]; i += 2)
    g_subprocess_launcher_setenv (l, env[i], env[i + 1], TRUE);
  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  return g_subprocess_get_exit_status (p);
}

typedef struct
{
  char              *dir;
  char              *trace;
  StrobeDocument    *document;
  StrobeSampleModel *samples;
  StrobeSymbolizer  *sym;
} Traced;

static void
traced_load (Traced *t)
{
  g_autoptr (GFile) file = g_file_new_for_path (t->trace);
  g_autoptr (GError) error = NULL;

  t->document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  t->samples = g_object_ref (strobe_document_get_model (t->document, STROBE_TYPE_SAMPLE_MODEL));
  g_assert_true (STROBE_IS_SAMPLE_MODEL (t->samples));
  strobe_document_load (t->document, NULL, &error);
  g_assert_no_error (error);
  t->sym = strobe_memory_symbolizer_new (strobe_document_get_memory (t->document));
}

/* sampling-probe @mode traced with Cpu and Sampling on; *@err its stderr. */
static Traced *
traced_run (const char *program, const char *mode, const char *extra_env, const char *extra_value, char **err)
{
  Traced *t = g_new0 (Traced, 1);
  const char *argv[] = { program, mode, NULL };
  const char *env[] = { "STROBE_TRACE", "cpu,sampling", "STROBE_TRACEFILE", NULL, extra_env, extra_value, NULL };

  t->dir = test_dir_make_tmp ("strobe-sampling-XXXXXX");
  t->trace = g_build_filename (t->dir, "probe.strobe", NULL);
  env[3] = t->trace;
  g_assert_cmpint (run (argv, env, NULL, err), ==, 0);
  traced_load (t);
  return t;
}

static void
traced_free (Traced *t)
{
  g_clear_object (&t->sym);
  g_clear_object (&t->samples);
  g_clear_object (&t->document);
  test_dir_remove_all (t->dir);
  g_free (t->dir);
  g_free (t->trace);
  g_free (t);
}

/* Every completed scope named exactly @name, as sample intervals of its thread. */
static GArray *
scope_intervals (Traced *t, const char *name)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (t->document);
  g_autoptr (GArray) matches = strobe_scope_search (timeline, name, G_MAXUINT, NULL, NULL, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeSampleInterval));

  g_assert_nonnull (matches);
  for (guint i = 0; i < matches->len; i++)
    {
      const StrobeScopeMatch *m = &g_array_index (matches, StrobeScopeMatch, i);
      StrobeSampleInterval iv;

      if (!g_str_equal (strobe_timeline_model_get_name (timeline, m->name_id), name))
        continue;
      iv.system_id = (guint32) strobe_threads_model_get_system_id (strobe_document_get_threads (t->document), m->thread_id);
      g_assert_cmpuint (iv.system_id, !=, 0);
      iv.begin = m->begin;
      iv.end = m->end;
      g_array_append_val (out, iv);
    }
  return out;
}

static char *
key_function (Traced *t, StrobeSampleTree *tree, guint64 key)
{
  StrobeMemoryFrame frame;
  guint depth;
  const StrobeSymbolization *s;

  if (!strobe_sample_tree_get_frame (tree, key, &frame, &depth))
    return g_strdup ("(none)");
  s = strobe_symbolizer_lookup (t->sym, frame.module, frame.address);
  return g_strdup (s->frames[depth].function ? s->frames[depth].function : "(unknown)");
}

/* The child of @node whose function is @name, STROBE_COST_NODE_NONE when none. */
static guint32
child_named (Traced *t, StrobeSampleTree *tree, guint32 node, const char *name)
{
  StrobeCostTree *cost = strobe_sample_tree_get_tree (tree);

  for (guint32 c = strobe_cost_tree_get_first_child (cost, node); c != STROBE_COST_NODE_NONE;
       c = strobe_cost_tree_get_next_sibling (cost, c))
    {
      g_autofree char *f = key_function (t, tree, strobe_cost_tree_get_key (cost, c));
      if (g_str_equal (f, name))
        return c;
    }
  return STROBE_COST_NODE_NONE;
}

typedef enum
{
  WITH_FRAME_POINTERS,
  NO_FRAME_POINTERS,        /* the kernel's chain: its leaf is exact, its callers are not */
  NO_FRAME_POINTERS_DWARF,  /* with stack copies, unwound with the CFI in the analysis */
} Unwinding;

static void
check_attribution (const char *program, Unwinding how)
{
  gboolean frame_pointers = how != NO_FRAME_POINTERS;
  Traced *t = traced_run (program, "attribution", how == NO_FRAME_POINTERS_DWARF ? "STROBE_SAMPLING_STACK" : NULL,
                          "8192", NULL);
  StrobeSampleSummary summary;
  g_autoptr (GArray) slow = scope_intervals (t, "Slow");
  g_autoptr (StrobeSampleTree) up = NULL;
  g_autoptr (GError) error = NULL;
  StrobeSampleStatus status = { 0 };
  StrobeCostTree *cost;
  guint32 hot;
  guint64 total, in_hot;

  g_assert_true (strobe_sample_model_get_status (t->samples, &status));
  g_assert_true (status.mode == STROBE_SAMPLE_MODE_SOFTWARE || status.mode == STROBE_SAMPLE_MODE_HARDWARE);
  g_assert_cmpuint (status.frequency, ==, 1000);
  g_assert_true (status.flags & STROBE_SAMPLE_FLAG_SWITCHES);
  strobe_sample_status_clear (&status);
  g_assert_cmpuint (slow->len, ==, 1);

  /* Stack copies only when asked for; then (nearly) every sample's is unwound. */
  g_assert_cmpuint (strobe_sample_unwind (t->samples, strobe_document_get_memory (t->document)), <=,
                    G_MAXUINT);
  strobe_sample_model_get_summary (t->samples, &summary);
  g_test_message ("%" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " stack copies, %" G_GUINT64_FORMAT
                  " unwound", summary.samples, summary.copies, summary.unwound);
  if (how == NO_FRAME_POINTERS_DWARF)
    {
      g_assert_cmpuint (summary.copies, >=, summary.samples * 9 / 10);
      g_assert_cmpuint (summary.unwound, >=, summary.copies * 9 / 10);
    }
  else
    g_assert_cmpuint (summary.copies, ==, 0);

  up = strobe_sample_model_build_tree (t->samples, strobe_document_get_memory (t->document),
                                       (StrobeSampleInterval *) slow->data, slow->len, STROBE_COST_TREE_BOTTOM_UP,
                                       strobe_memory_symbolizer_frame_func, t->sym, NULL, &error);
  g_assert_no_error (error);
  cost = strobe_sample_tree_get_tree (up);
  total = strobe_sample_tree_get_total (up);
  /* 0.6 s of CPU at 1 kHz: 600 samples when the probe has a CPU to itself. */
  g_assert_cmpuint (total, >=, 200);
  hot = child_named (t, up, 0, "leaf_hot");
  g_assert_cmpuint (hot, !=, STROBE_COST_NODE_NONE);
  in_hot = strobe_cost_tree_get_inclusive (cost, hot, 0);
  g_test_message ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples of Slow in leaf_hot",
                  how == WITH_FRAME_POINTERS ? "frame pointers"
                  : how == NO_FRAME_POINTERS ? "no frame pointers" : "no frame pointers, DWARF", in_hot, total);
  g_assert_cmpfloat ((double) in_hot / (double) total, >=, 0.8);
  g_assert_cmpfloat ((double) in_hot / (double) total, <=, 0.97);   /* leaf_cold is there too */
  /* Whether the views say the stacks are cut (and to record stack copies): only for the
   * kernel's chains through code without frame pointers. */
  g_test_message ("cut stacks: %.2f", strobe_sample_tree_cut_share (up, t->sym));
  if (frame_pointers)
    g_assert_cmpfloat (strobe_sample_tree_cut_share (up, t->sym), <, STROBE_SAMPLE_CUT_SHARE_NOTE);
  else
    {
      g_autofree char *note = NULL;
      g_assert_cmpfloat (strobe_sample_tree_cut_share (up, t->sym), >=, 0.8);
      note = strobe_sample_cut_note (t->samples, strobe_sample_tree_cut_share (up, t->sym));
      g_assert_nonnull (strstr (note, "--sample-stack"));
    }
  if (frame_pointers)
    {
      /* Bottom-up: leaf_hot's caller is slow_work, in (nearly) every sample — without
       * frame pointers only when the stack copies were unwound with the CFI. */
      guint32 caller = child_named (t, up, hot, "slow_work");
      g_assert_cmpuint (caller, !=, STROBE_COST_NODE_NONE);
      g_assert_cmpfloat ((double) strobe_cost_tree_get_inclusive (cost, caller, 0) / (double) in_hot, >=, 0.95);
    }
  traced_free (t);
}

static void
test_attribution (void)
{
  check_attribution (probe, WITH_FRAME_POINTERS);
}

static void
test_attribution_no_fp (void)
{
  check_attribution (probe_nofp, NO_FRAME_POINTERS);
}

static void
test_attribution_no_fp_dwarf (void)
{
  check_attribution (probe_nofp, NO_FRAME_POINTERS_DWARF);
}

/* Shares of @iv's time in each state. */
static void
state_shares (Traced *t, const StrobeSampleInterval *iv, double share[3])
{
  g_autoptr (GArray) states = strobe_sample_model_get_states (t->samples, iv->system_id, iv->begin, iv->end);
  guint64 sum[3] = { 0 };

  for (guint i = 0; i < states->len; i++)
    {
      const StrobeSampleStateInterval *s = &g_array_index (states, StrobeSampleStateInterval, i);
      sum[s->state] += s->end - s->begin;
    }
  for (guint i = 0; i < 3; i++)
    share[i] = (double) sum[i] / (double) (iv->end - iv->begin);
}

static void
test_states (void)
{
  Traced *t = traced_run (probe, "states", NULL, NULL, NULL);
  const char *names[] = { "Sleep", "Spin", "Wait" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr (GArray) ivs = scope_intervals (t, names[n]);

      g_assert_cmpuint (ivs->len, ==, 3);
      for (guint i = 0; i < ivs->len; i++)
        {
          const StrobeSampleInterval *iv = &g_array_index (ivs, StrobeSampleInterval, i);
          double share[3];
          guint64 samples = strobe_sample_model_count (t->samples, iv->system_id, iv->begin, iv->end);

          state_shares (t, iv, share);
          g_test_message ("%s #%u: running %.2f preempted %.2f waiting %.2f, %" G_GUINT64_FORMAT " samples",
                          names[n], i, share[0], share[1], share[2], samples);
          if (n == 1)
            {
              /* On a CPU, or ready for one on a busy machine; never blocked. */
              g_assert_cmpfloat (share[STROBE_SAMPLE_STATE_RUNNING] + share[STROBE_SAMPLE_STATE_PREEMPTED], >=, 0.9);
              g_assert_cmpfloat (share[STROBE_SAMPLE_STATE_WAITING], <=, 0.05);
              g_assert_cmpuint (samples, >=, 20);
            }
          else
            {
              g_assert_cmpfloat (share[STROBE_SAMPLE_STATE_WAITING], >=, 0.8);
              g_assert_cmpuint (samples, <=, 5);
            }
        }
    }
  traced_free (t);
}

static void
test_threads (void)
{
  Traced *t = traced_run (probe, "threads", NULL, NULL, NULL);
  g_autoptr (GArray) workers = scope_intervals (t, "Worker");

  g_assert_cmpuint (workers->len, ==, 4);
  for (guint i = 0; i < workers->len; i++)
    {
      const StrobeSampleInterval *iv = &g_array_index (workers, StrobeSampleInterval, i);
      guint64 n = strobe_sample_model_count (t->samples, iv->system_id, iv->begin, iv->end);

      g_test_message ("worker %u (tid %u): %" G_GUINT64_FORMAT " samples", i, iv->system_id, n);
      /* 0.2 s of CPU at 1 kHz; a thread started later is followed within a round. */
      g_assert_cmpuint (n, >=, 100);
    }

  /* A thread that traced nothing has no stream of its own, yet a ThreadInfo with its
   * kernel name and OS id (so the timeline gives it a track), and a ThreadEnd. */
  {
    g_autoptr (GArray) threads = strobe_threads_model_get_threads (strobe_document_get_threads (t->document));
    const StrobeThreadInfo *untraced = NULL;

    for (guint i = 0; i < threads->len; i++)
      if (g_str_equal (g_array_index (threads, StrobeThreadInfo, i).name, "untraced"))
        {
          g_assert_null (untraced);
          untraced = &g_array_index (threads, StrobeThreadInfo, i);
        }
    g_assert_nonnull (untraced);
    g_assert_cmpuint (untraced->system_id, !=, 0);
    g_assert_cmpuint (strobe_threads_model_find_system (strobe_document_get_threads (t->document),
                                                        untraced->system_id), ==, untraced->id);
    g_assert_cmpuint (strobe_sample_model_count (t->samples, (guint32) untraced->system_id, 0, G_MAXUINT64), >=, 100);
    g_assert_cmpint (untraced->state, ==, STROBE_THREAD_ENDED);
    /* The probe's own threads keep one ThreadInfo each: no second name for them. */
    for (guint i = 0; i < threads->len; i++)
      if (g_array_index (threads, StrobeThreadInfo, i).id != untraced->id)
        g_assert_cmpuint (g_array_index (threads, StrobeThreadInfo, i).system_id, !=, untraced->system_id);
  }
  traced_free (t);
}

static void
test_not_permitted (void)
{
  g_autofree char *err = NULL, *out = NULL, *cli_err = NULL;
  Traced *t = traced_run (probe, "attribution", "STROBE_SAMPLING_TEST_ERRNO", "13", &err);
  StrobeSampleStatus status = { 0 };
  StrobeSampleSummary summary;
  const char *argv[] = { cli, "samples", t->trace, NULL };

  /* In the trace, with the setting's value, ... */
  g_assert_true (strobe_sample_model_get_status (t->samples, &status));
  g_assert_cmpint (status.mode, ==, STROBE_SAMPLE_MODE_NOT_PERMITTED);
  g_assert_cmpint (status.error, ==, 13);
  g_assert_cmpint (status.paranoid, !=, STROBE_SAMPLE_PARANOID_UNKNOWN);
  g_assert_nonnull (strstr (status.message, "not permitted"));
  strobe_sample_status_clear (&status);
  strobe_sample_model_get_summary (t->samples, &summary);
  g_assert_cmpuint (summary.samples, ==, 0);
  /* ... on the program's stderr, once ... */
  g_assert_nonnull (strstr (err, "strobe: sampling is not permitted"));
  g_assert_null (strstr (strstr (err, "not permitted") + 1, "not permitted"));
  /* ... and in strobe-cli's words, with what to do; a failure, not an empty tree. */
  g_assert_cmpint (run (argv, NULL, &out, &cli_err), ==, 1);
  g_assert_nonnull (strstr (out, "sampling was not permitted"));
  g_assert_nonnull (strstr (out, "CAP_PERFMON"));
  g_assert_null (strstr (out, "call tree"));
  traced_free (t);
}

static void
control (const char *runtime_dir, const char *pid, const char *on)
{
  const char *argv[] = { cli, "control", pid, "channels", "sampling", on, NULL };
  const char *env[] = { "XDG_RUNTIME_DIR", runtime_dir, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run (argv, env, &out, &err), ==, 0);
}

static void
test_late_toggle (void)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GDataInputStream) out = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL, *pid = NULL;
  g_autoptr (GArray) statuses = NULL;
  g_autoptr (GArray) threads = NULL;
  Traced *t = g_new0 (Traced, 1);
  guint64 on_time, off_time;

  t->dir = test_dir_make_tmp ("strobe-sampling-XXXXXX");
  t->trace = g_build_filename (t->dir, "late.strobe", NULL);
  g_subprocess_launcher_setenv (l, "XDG_RUNTIME_DIR", t->dir, TRUE);
  g_subprocess_launcher_setenv (l, "STROBE_TRACE", "cpu", TRUE);
  g_subprocess_launcher_setenv (l, "STROBE_TRACEFILE", t->trace, TRUE);
  g_subprocess_launcher_unsetenv (l, "STROBE_TRACEHOST");
  p = g_subprocess_launcher_spawn (l, &error, probe, "late", "2.0", NULL);
  g_assert_no_error (error);
  pid = g_strdup (g_subprocess_get_identifier (p));
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "ready");
  g_usleep (300 * 1000);
  control (t->dir, pid, "on");
  g_usleep (500 * 1000);
  control (t->dir, pid, "off");
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);
  traced_load (t);

  /* Off at the start (no status then), on from the control server, off again. */
  statuses = strobe_sample_model_get_statuses (t->samples);
  g_assert_cmpuint (statuses->len, ==, 2);
  g_assert_cmpint (g_array_index (statuses, StrobeSampleStatus, 0).mode, ==, STROBE_SAMPLE_MODE_SOFTWARE);
  g_assert_cmpint (g_array_index (statuses, StrobeSampleStatus, 1).mode, ==, STROBE_SAMPLE_MODE_OFF);
  on_time = g_array_index (statuses, StrobeSampleStatus, 0).time;
  off_time = g_array_index (statuses, StrobeSampleStatus, 1).time;
  threads = strobe_sample_model_get_threads (t->samples);
  g_assert_cmpuint (threads->len, >=, 1);
  /* Half a second, half of it spinning at 1 kHz. */
  g_assert_cmpuint (strobe_sample_model_count (t->samples, 0, 0, G_MAXUINT64), >=, 50);
  g_assert_cmpuint (strobe_sample_model_count (t->samples, 0, on_time, off_time), ==,
                    strobe_sample_model_count (t->samples, 0, 0, G_MAXUINT64));
  traced_free (t);
}

/* Without frame pointers, a frame bigger than the stack copy: the unwinder cannot reach
 * the caller. Those stacks hang under "[truncated]" (not under their last frame passed
 * off as the thread's first, nor the kernel's chain of stack data), and the views say to
 * record a bigger copy; a copy big enough gives the whole stack. */
static void
check_big_frame (const char *copy, gboolean whole)
{
  Traced *t = traced_run (probe_nofp, "bigframe", "STROBE_SAMPLING_STACK", copy, NULL);
  g_autoptr (GArray) big = scope_intervals (t, "Big");
  g_autoptr (StrobeSampleTree) down = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *note = NULL;
  StrobeSampleSummary summary;
  StrobeCostTree *cost;
  gdouble cut;
  guint32 root;

  g_assert_cmpuint (big->len, ==, 1);
  strobe_sample_unwind (t->samples, strobe_document_get_memory (t->document));
  down = strobe_sample_model_build_tree (t->samples, strobe_document_get_memory (t->document),
                                         (StrobeSampleInterval *) big->data, big->len, STROBE_COST_TREE_TOP_DOWN,
                                         strobe_memory_symbolizer_frame_func, t->sym, NULL, &error);
  g_assert_no_error (error);
  cost = strobe_sample_tree_get_tree (down);
  g_assert_cmpuint (strobe_sample_tree_get_total (down), >=, 100);
  cut = strobe_sample_tree_cut_share (down, t->sym);
  strobe_sample_model_get_summary (t->samples, &summary);
  g_test_message ("copy %s: %.2f of %" G_GUINT64_FORMAT " stacks cut; %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT
                  " copies, %" G_GUINT64_FORMAT " unwound, %" G_GUINT64_FORMAT " lost",
                  copy, cut, strobe_sample_tree_get_total (down), summary.samples, summary.copies, summary.unwound,
                  summary.lost);
  root = child_named (t, down, 0, "[truncated]");
  /* The kernel shortens a copy that would not fit the thread's ring (a small locked-memory
   * limit shared with other perf users of this machine): then the frame is not in it. */
  if (whole && summary.copies && summary.copy_bytes / summary.copies < 16384 + 256)
    {
      g_test_message ("the copies were shortened to %" G_GUINT64_FORMAT " bytes on average: not whole",
                      summary.copy_bytes / summary.copies);
      note = strobe_sample_cut_note (t->samples, cut);
      g_assert_nonnull (strstr (note, "bytes on average"));
    }
  else if (whole)
    {
      guint32 first = strobe_cost_tree_get_first_child (cost, 0), most = first;
      g_autofree char *outermost = NULL;
      guint siblings = 0;

      g_assert_cmpfloat (cut, <, STROBE_SAMPLE_CUT_SHARE_NOTE);
      /* Whole copies: no stack cut, but for a sample or two on a loaded machine (one of
       * 300 in a full suite, session 40: a copy the kernel shortened that once). */
      if (root != STROBE_COST_NODE_NONE)
        g_assert_cmpuint (10 * strobe_cost_tree_get_inclusive (cost, root, 0), <=, strobe_sample_tree_get_total (down));
      /* The outermost frame is where the thread started, for nearly every sample: on a
       * loaded machine a sample or two taken on the way in or out of main has another
       * (seen twice in full suites under load, never alone). */
      for (guint32 c = first; c != STROBE_COST_NODE_NONE; c = strobe_cost_tree_get_next_sibling (cost, c), siblings++)
        if (strobe_cost_tree_get_inclusive (cost, c, 0) > strobe_cost_tree_get_inclusive (cost, most, 0))
          most = c;
      g_assert_cmpuint (10 * strobe_cost_tree_get_inclusive (cost, most, 0), >=, 9 * strobe_cost_tree_get_inclusive (cost, 0, 0));
      outermost = key_function (t, down, strobe_cost_tree_get_key (cost, most));
      g_test_message ("outermost: %s (%u outermost frames)", outermost, siblings);
      g_assert_true (g_str_equal (outermost, "_start") || g_str_equal (outermost, "__libc_start_call_main"));
    }
  else
    {
      g_assert_cmpfloat (cut, >=, 0.8);
      g_assert_cmpuint (root, !=, STROBE_COST_NODE_NONE);
      g_assert_cmpfloat ((gdouble) strobe_cost_tree_get_inclusive (cost, root, 0)
                         / (gdouble) strobe_sample_tree_get_total (down), >=, 0.8);
      g_assert_cmpuint (child_named (t, down, root, "big_frame"), !=, STROBE_COST_NODE_NONE);
      note = strobe_sample_cut_note (t->samples, cut);
      g_assert_nonnull (strstr (note, "deeper than the copy"));
    }
  traced_free (t);
}

static void
test_big_frame (void)
{
  check_big_frame ("8192", FALSE);
  check_big_frame ("32768", TRUE);
}

static void
test_cli (void)
{
  Traced *t = traced_run (probe, "attribution", NULL, NULL, NULL);
  g_autofree char *out = NULL, *err = NULL, *flame = NULL;
  const char *tree_argv[] = { cli, "samples", t->trace, "--scope", "Slow", "--bottom-up", NULL };
  const char *flame_argv[] = { cli, "samples", t->trace, "--thread", "Main", "--flame", NULL };
  g_auto (GStrv) lines = NULL;
  guint64 sum = 0, hot = 0;

  g_assert_cmpint (run (tree_argv, NULL, &out, &err), ==, 0);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "sampling the CPU"));
  g_assert_nonnull (strstr (out, "Scope instances: 1"));
  g_assert_nonnull (strstr (out, "Bottom-up sampled call tree"));
  g_assert_nonnull (strstr (out, "leaf_hot"));
  /* The program's threads, not Strobe's own (the worker, the control server). */
  g_assert_nonnull (strstr (out, "threads: 1 "));   /* this probe mode has one */
  g_assert_nonnull (strstr (out, "Main"));
  g_assert_null (strstr (out, "strobe-worker"));
  g_assert_null (strstr (out, "strobe-control"));

  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (flame_argv, NULL, &flame, &err), ==, 0);
  lines = g_strsplit (flame, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      guint64 n;

      g_assert_nonnull (space);
      n = g_ascii_strtoull (space + 1, NULL, 10);
      g_assert_cmpuint (n, >, 0);
      sum += n;
      {
        g_autofree char *stack = g_strndup (lines[i], (gsize) (space - lines[i]));
        if (g_str_has_suffix (stack, "slow_work;leaf_hot"))
          hot += n;
      }
    }
  /* Every sample of the thread once; the hot path by its callers' names. */
  {
    g_autoptr (GArray) infos = strobe_threads_model_get_threads (strobe_document_get_threads (t->document));
    guint16 main_id = 0;

    for (guint i = 0; i < infos->len; i++)
      if (g_str_equal (g_array_index (infos, StrobeThreadInfo, i).name, "Main"))
        main_id = g_array_index (infos, StrobeThreadInfo, i).id;
    g_assert_cmpuint (main_id, !=, 0);
    g_assert_cmpuint (sum, ==, strobe_sample_model_count (t->samples, (guint32) strobe_threads_model_get_system_id (strobe_document_get_threads (t->document), main_id),
                                                          0, G_MAXUINT64));
  }
  g_assert_cmpuint (hot, >=, sum / 2);

  /* A thread's name in any case; a typo of a thread or a scope names the likely one. */
  {
    const char *lower_argv[] = { cli, "samples", t->trace, "--thread", "main", "--flame", NULL };
    const char *typo_thread[] = { cli, "samples", t->trace, "--thread", "Mian", NULL };
    const char *typo_scope[] = { cli, "samples", t->trace, "--scope", "Slwo", NULL };
    g_autofree char *lower = NULL, *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;

    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run (lower_argv, NULL, &lower, &err), ==, 0);
    g_assert_cmpstr (lower, ==, flame);
    g_assert_cmpint (run (typo_thread, NULL, &o1, &e1), !=, 0);
    g_assert_nonnull (strstr (e1, "Did you mean"));
    g_assert_nonnull (strstr (strstr (e1, "Did you mean"), "Main"));
    g_assert_cmpint (run (typo_scope, NULL, &o2, &e2), !=, 0);
    g_assert_nonnull (strstr (e2, "Did you mean"));
    g_assert_nonnull (strstr (strstr (e2, "Did you mean"), "Slow"));
  }
  traced_free (t);
}

/* The rings are read every 50 ms, not every 10 ms round (a Batch and a write a round cost
 * the worker more than the samples): 214 Batches of the Main thread over 3 s at load 14
 * when every round read them. Every ring is read sooner when any one is a quarter full
 * (the probe's other threads sample too), so the bound is one Batch per 25 ms of Main's
 * span (+ its first and its last) — far below one a round: 41 over 1.56 s at load 5 and
 * 22 over 1.0 s alone broke one per 50 ms. */
static void
test_batches (void)
{
  Traced *t = traced_run (probe, "attribution", NULL, NULL, NULL);
  StrobeThreadsModel *threads = strobe_document_get_threads (t->document);
  g_autoptr (GArray) infos = strobe_threads_model_get_threads (threads);
  g_autoptr (GArray) slow = scope_intervals (t, "Slow");
  g_autoptr (GArray) per_thread = strobe_sample_model_get_threads (t->samples);
  g_autofree char *out = NULL, *err = NULL, *needle = NULL;
  const char *dump_argv[] = { cli, "dump", t->trace, NULL };
  const StrobeSampleInterval *iv;
  const StrobeSampleThread *main_thread = NULL;
  StrobeTraceClock clock;
  guint32 main_tid = 0;
  guint batches = 0;
  double span_s, last_gap_s;

  for (guint i = 0; i < infos->len; i++)
    if (g_str_equal (g_array_index (infos, StrobeThreadInfo, i).name, "Main"))
      main_tid = (guint32) strobe_threads_model_get_system_id (threads, g_array_index (infos, StrobeThreadInfo, i).id);
  g_assert_cmpuint (main_tid, !=, 0);
  for (guint i = 0; i < per_thread->len; i++)
    if (g_array_index (per_thread, StrobeSampleThread, i).system_id == main_tid)
      main_thread = &g_array_index (per_thread, StrobeSampleThread, i);
  g_assert_nonnull (main_thread);
  g_assert_cmpuint (slow->len, ==, 1);
  iv = &g_array_index (slow, StrobeSampleInterval, 0);

  g_assert_cmpint (run (dump_argv, NULL, &out, &err), ==, 0);
  needle = g_strdup_printf ("Sampling.Batch Thread=%u ", main_tid);
  for (const char *p = out; (p = strstr (p, needle)) != NULL; p++)
    batches++;
  strobe_document_get_clock (t->document, &clock);
  span_s = strobe_trace_clock_duration (&clock, main_thread->last - main_thread->first);
  last_gap_s = iv->end > main_thread->last ? strobe_trace_clock_duration (&clock, iv->end - main_thread->last) : 0;
  g_test_message ("Main: %u batches over %.3f s, %" G_GUINT64_FORMAT " samples; last sample %.4f s before Slow's end",
                  batches, span_s, main_thread->samples, last_gap_s);
  g_assert_cmpuint (batches, >=, 2);
  g_assert_cmpfloat ((double) batches, <=, span_s / 0.025 + 3);
  traced_free (t);
}

/* The conformance vector of Sampling.Batch read into the model: its records are the
 * samples and states PROTOCOL.md §5 says (what a reader written from it must find). */
static void
test_vector (void)
{
  Traced t = { 0 };
  g_autoptr (GArray) samples = NULL;
  g_autoptr (GArray) states = NULL;
  g_autoptr (GArray) threads = NULL;
  StrobeSampleSummary summary;
  static const StrobeSampleStateInterval expect[] = {
    { 6000, 6300, STROBE_SAMPLE_STATE_WAITING },
    { 6300, 6302, STROBE_SAMPLE_STATE_RUNNING },
    { 6302, 6400, STROBE_SAMPLE_STATE_PREEMPTED },
    { 6400, 6402, STROBE_SAMPLE_STATE_RUNNING },
  };

  t.trace = g_build_filename (g_getenv ("SAMPLING_VECTORS"), "std-sampling-batch.strobe", NULL);
  traced_load (&t);
  strobe_sample_model_get_summary (t.samples, &summary);
  g_assert_cmpuint (summary.samples, ==, 2);
  g_assert_cmpuint (summary.lost, ==, 7);
  g_assert_cmpuint (summary.bad_batches, ==, 0);
  threads = strobe_sample_model_get_threads (t.samples);
  g_assert_cmpuint (threads->len, ==, 1);
  g_assert_cmpuint (g_array_index (threads, StrobeSampleThread, 0).system_id, ==, 4242);
  g_assert_cmpuint (g_array_index (threads, StrobeSampleThread, 0).switches, ==, 4);
  samples = strobe_sample_model_get_samples (t.samples, 4242, 0, G_MAXUINT64);
  g_assert_cmpuint (samples->len, ==, 2);
  g_assert_cmpuint (g_array_index (samples, StrobeSample, 0).time, ==, 5000);
  g_assert_cmpuint (g_array_index (samples, StrobeSample, 0).stack, ==, 5);
  g_assert_cmpuint (g_array_index (samples, StrobeSample, 1).time, ==, 6402);
  g_assert_cmpuint (g_array_index (samples, StrobeSample, 1).stack, ==, 300);
  states = strobe_sample_model_get_states (t.samples, 4242, 0, G_MAXUINT64);
  g_assert_cmpuint (states->len, ==, G_N_ELEMENTS (expect));
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      const StrobeSampleStateInterval *s = &g_array_index (states, StrobeSampleStateInterval, i);
      g_assert_cmpuint (s->begin, ==, expect[i].begin);
      g_assert_cmpuint (s->end, ==, expect[i].end);
      g_assert_cmpint (s->state, ==, expect[i].state);
    }
  /* Clipped to a range. */
  g_clear_pointer (&states, g_array_unref);
  states = strobe_sample_model_get_states (t.samples, 4242, 6100, 6301);
  g_assert_cmpuint (states->len, ==, 2);
  g_assert_cmpuint (g_array_index (states, StrobeSampleStateInterval, 0).begin, ==, 6100);
  g_assert_cmpuint (g_array_index (states, StrobeSampleStateInterval, 1).end, ==, 6301);
  g_assert_cmpuint (strobe_sample_model_count (t.samples, 0, 5001, 6402), ==, 1);
  g_clear_object (&t.sym);
  g_clear_object (&t.samples);
  g_clear_object (&t.document);
  g_free (t.trace);
}

/* What the unwinder is given: the copy's registers and bytes; it says stack 77. */
static guint32
fake_unwind (const StrobeSampleCopy *copy, gpointer data)
{
  guint *calls = data;

  (*calls)++;
  g_assert_cmpuint (copy->system_id, ==, 4242);
  g_assert_cmpuint (copy->time, ==, 5000);
  g_assert_cmpuint (copy->ip, ==, 0x401136);
  g_assert_cmpuint (copy->sp, ==, G_GUINT64_CONSTANT (0x7ffc0000f000));
  g_assert_cmpuint (copy->bp, ==, G_GUINT64_CONSTANT (0x7ffc0000f040));
  g_assert_cmpuint (copy->size, ==, 16);
  g_assert_cmpuint (copy->stack[8], ==, 0xef);
  g_assert_cmpuint (copy->chain, ==, 5);   /* the Batch's stack id: the kernel's chain */
  return 77;
}

/* The std-sampling-user-stack vector: the copy is paired with the sample of its time, and
 * the sample takes the stack unwound from it (once). */
static void
test_vector_user_stack (void)
{
  Traced t = { 0 };
  g_autoptr (GArray) samples = NULL;
  StrobeSampleSummary summary;
  guint calls = 0;

  t.trace = g_build_filename (g_getenv ("SAMPLING_VECTORS"), "std-sampling-user-stack.strobe", NULL);
  traced_load (&t);
  strobe_sample_model_get_summary (t.samples, &summary);
  g_assert_cmpuint (summary.samples, ==, 1);
  g_assert_cmpuint (summary.copies, ==, 1);
  g_assert_cmpuint (summary.to_unwind, ==, 1);
  samples = strobe_sample_model_get_samples (t.samples, 4242, 0, G_MAXUINT64);
  g_assert_cmpuint (g_array_index (samples, StrobeSample, 0).stack, ==, 5);
  g_clear_pointer (&samples, g_array_unref);
  g_assert_cmpuint (strobe_sample_model_unwind (t.samples, fake_unwind, &calls), ==, 1);
  g_assert_cmpuint (strobe_sample_model_unwind (t.samples, fake_unwind, &calls), ==, 0);
  g_assert_cmpuint (calls, ==, 1);
  samples = strobe_sample_model_get_samples (t.samples, 4242, 0, G_MAXUINT64);
  g_assert_cmpuint (g_array_index (samples, StrobeSample, 0).stack, ==, 77);
  strobe_sample_model_get_summary (t.samples, &summary);
  g_assert_cmpuint (summary.unwound, ==, 1);
  g_assert_cmpuint (summary.to_unwind, ==, 0);
  g_clear_object (&t.sym);
  g_clear_object (&t.samples);
  g_clear_object (&t.document);
  g_free (t.trace);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  probe = g_getenv ("SAMPLING_PROBE");
  probe_nofp = g_getenv ("SAMPLING_PROBE_NOFP");
  cli = g_getenv ("STROBE_CLI");
  g_test_add_func ("/sampling/vector", test_vector);
  g_test_add_func ("/sampling/vector-user-stack", test_vector_user_stack);
  g_test_add_func ("/sampling/attribution", test_attribution);
  g_test_add_func ("/sampling/attribution-no-frame-pointers", test_attribution_no_fp);
  g_test_add_func ("/sampling/attribution-no-frame-pointers-dwarf", test_attribution_no_fp_dwarf);
  g_test_add_func ("/sampling/states", test_states);
  g_test_add_func ("/sampling/threads", test_threads);
  g_test_add_func ("/sampling/not-permitted", test_not_permitted);
  g_test_add_func ("/sampling/late-toggle", test_late_toggle);
  g_test_add_func ("/sampling/cli", test_cli);
  g_test_add_func ("/sampling/big-frame", test_big_frame);
  g_test_add_func ("/sampling/batches", test_batches);
  return g_test_run ();
}
