/* strobe-cli-samples.c — `strobe-cli samples FILE`: what sampling got, the threads' states
 * and the sampled call tree (top-down, bottom-up or folded stacks for flamegraph.pl and
 * speedscope) of the whole trace, a range, a thread or the intervals of a scope.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strobe-cli.h"
#include "strobe-memory-symbols.h"
#include "strobe-sample-model.h"
#include "strobe-sample-roots.h"
#include "strobe-sample-unwind.h"
#include "strobe-scope-search.h"
#include "strobe-text.h"

/* "A..B": seconds from the trace's start on both sides (either may be empty). */
static gboolean
parse_range (StrobeDocument *document, const char *range, guint64 *t0, guint64 *t1)
{
  g_auto (GStrv) parts = g_strsplit (range, "..", 2);

  if (parts[0] == NULL || parts[1] == NULL)
    {
      g_printerr (_("strobe-cli: --range takes A..B (seconds from the start of the trace), not “%s”\n"), range);
      return FALSE;
    }
  return strobe_cli_time_range (document, *parts[0] ? parts[0] : NULL, *parts[1] ? parts[1] : NULL, t0, t1);
}

/* --thread: an OS thread id, a stream id or a thread's name. */
static gboolean
resolve_thread (StrobeDocument *document, StrobeSampleModel *model, const char *spec, guint32 *system_id)
{
  g_autoptr (GArray) threads = strobe_sample_model_get_threads (model);
  g_autoptr (GArray) infos = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  char *end;
  guint64 n = g_ascii_strtoull (spec, &end, 10);

  if (*spec && *end == '\0')
    {
      for (guint i = 0; i < threads->len; i++)
        if (g_array_index (threads, StrobeSampleThread, i).system_id == n)
          return *system_id = (guint32) n, TRUE;
      if (n <= G_MAXUINT16 && (*system_id = (guint32) strobe_threads_model_get_system_id (strobe_document_get_threads (document), (guint16) n)) != 0)
        return TRUE;
    }
  for (guint i = 0; i < infos->len; i++)
    {
      const StrobeThreadInfo *t = &g_array_index (infos, StrobeThreadInfo, i);
      /* Any case, as log --thread takes names. */
      if (g_ascii_strcasecmp (t->name, spec) == 0 && (*system_id = (guint32) t->system_id) != 0)
        return TRUE;
    }
  g_printerr (_("strobe-cli: no sampled thread “%s” (an OS thread id, a stream id or a thread name)\n"), spec);
  {
    g_autofree const char **names = g_new (const char *, infos->len + 1);
    const char *closest;

    for (guint i = 0; i < infos->len; i++)
      names[i] = g_array_index (infos, StrobeThreadInfo, i).name;
    if ((closest = strobe_cli_closest (spec, names, infos->len)) != NULL)
      g_printerr (_("Did you mean “%s”?\n"), closest);
  }
  return FALSE;
}

/* The intervals of every completed scope named exactly @name (on @system_id's thread
 * when it is not 0) that overlap [t0, t1], each clipped to it. */
static GArray *
scope_intervals (StrobeDocument *document, const char *name, guint32 system_id,
                 guint64 t0, guint64 t1)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (document);
  g_autoptr (GArray) matches = strobe_scope_search (timeline, name, G_MAXUINT, NULL, NULL, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeSampleInterval));

  for (guint i = 0; matches && i < matches->len; i++)
    {
      const StrobeScopeMatch *m = &g_array_index (matches, StrobeScopeMatch, i);
      StrobeSampleInterval iv;

      if (!g_str_equal (strobe_timeline_model_get_name (timeline, m->name_id), name)
          || m->end < t0 || m->begin > t1)
        continue;
      iv.system_id = (guint32) strobe_threads_model_get_system_id (strobe_document_get_threads (document), m->thread_id);
      if (iv.system_id == 0 || (system_id && iv.system_id != system_id))
        continue;
      iv.begin = MAX (m->begin, t0);
      iv.end = MIN (m->end, t1);
      g_array_append_val (out, iv);
    }
  return out;
}

/* A --scope that names no scope of the trace at all is most likely a typo: the name it
 * most likely meant, when one is close. */
static void
suggest_scope (StrobeDocument *document, const char *scope)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (document);
  guint n = strobe_timeline_model_get_n_names (timeline);
  g_autofree const char **names = g_new (const char *, n + 1);
  const char *closest;

  for (guint i = 0; i < n; i++)
    {
      names[i] = strobe_timeline_model_get_name (timeline, i);
      if (g_strcmp0 (names[i], scope) == 0)
        return;
    }
  if ((closest = strobe_cli_closest (scope, names, n)) != NULL)
    g_printerr (_("Did you mean “%s”?\n"), closest);
}

/* "function (file:line)", or the function alone (@bare: folded stacks). */
static char *
key_name (StrobeSampleTree *tree, StrobeSymbolizer *sym, guint64 key, gboolean bare)
{
  StrobeMemoryFrame frame;
  guint depth;
  const StrobeSymbolization *s;
  g_autofree char *name = NULL;

  if (!strobe_sample_tree_get_frame (tree, key, &frame, &depth))
    return g_strdup (_("(no stack)"));
  s = strobe_symbolizer_lookup (sym, frame.module, frame.address);
  if (bare && depth < s->n_frames && s->frames[depth].function)
    name = g_strdup (s->frames[depth].function);
  else
    name = strobe_symbolization_format (s, depth);
  return strobe_text_escape (name, STROBE_TEXT_PLAIN);
}

/* When many stacks look cut: why, and what to record instead. */
static void
print_cut_note (StrobeSampleModel *model, StrobeSampleTree *tree, StrobeSymbolizer *sym, gboolean flame)
{
  gdouble cut = strobe_sample_tree_cut_share (tree, sym);
  g_autofree char *note = NULL;

  if (cut < STROBE_SAMPLE_CUT_SHARE_NOTE)
    return;
  note = strobe_sample_cut_note (model, cut);
  /* Not on stdout with --flame: that is a file of folded stacks. */
  if (flame)
    g_printerr ("%s %s\n", _("Note:"), note);
  else
    printf ("\n%s %s\n", _("Note:"), note);
}

typedef struct
{
  StrobeSampleTree *tree;
  StrobeCostTree   *cost;
  StrobeSymbolizer *sym;
  gdouble           total;
  gdouble           min_percent;
} TreePrint;

static void
print_subtree (TreePrint *p, guint32 node)
{
  guint32 kids[64];
  guint first = 0, got, hidden = 0;

  do
    {
      got = strobe_cost_tree_get_children (p->cost, node, 0, STROBE_COST_SORT_DESCENDING | STROBE_COST_SORT_TIE_BY_KEY,
                                           first, G_N_ELEMENTS (kids), kids);
      for (guint i = 0; i < got; i++)
        {
          guint64 v = strobe_cost_tree_get_inclusive (p->cost, kids[i], 0);
          guint64 self = strobe_cost_tree_get_self (p->cost, kids[i], 0);
          g_autofree char *name = NULL;

          /* Children come largest first: the rest are below the threshold too. */
          if (p->total <= 0 || 100.0 * (gdouble) v / p->total < p->min_percent)
            {
              hidden += strobe_cost_tree_get_n_children (p->cost, node) - (first + i);
              got = 0;
              break;
            }
          name = key_name (p->tree, p->sym, strobe_cost_tree_get_key (p->cost, kids[i]), FALSE);
          printf ("%*s%6.2f %%  %" G_GUINT64_FORMAT "  %" G_GUINT64_FORMAT "  %s\n",
                  2 * (int) strobe_cost_tree_get_depth (p->cost, kids[i]), "",
                  100.0 * (gdouble) v / p->total, v, self, name);
          print_subtree (p, kids[i]);
        }
      first += got;
    }
  while (got == G_N_ELEMENTS (kids));
  if (node == 0 && strobe_cost_tree_get_self (p->cost, 0, 0))
    printf ("  %6.2f %%  %" G_GUINT64_FORMAT "  %s\n",
            100.0 * (gdouble) strobe_cost_tree_get_self (p->cost, 0, 0) / p->total,
            strobe_cost_tree_get_self (p->cost, 0, 0), _("(no stack)"));
  if (hidden)
    printf ("%*s… %u %s\n", 2 * (int) strobe_cost_tree_get_depth (p->cost, node) + 2, "", hidden,
            _("below the threshold"));
}

/* Folded stacks, "outer;…;inner count", the format flamegraph.pl and speedscope read. */
static void
print_folded (TreePrint *p, guint32 node, GString *path)
{
  gsize len = path->len;
  guint64 self = strobe_cost_tree_get_self (p->cost, node, 0);

  if (node != 0)
    {
      g_autofree char *name = key_name (p->tree, p->sym, strobe_cost_tree_get_key (p->cost, node), TRUE);
      /* ';' separates frames and a blank ends the stack: neither may be in a name. */
      g_strdelimit (name, "; ", '_');
      if (path->len)
        g_string_append_c (path, ';');
      g_string_append (path, name);
    }
  if (self)
    printf ("%s %" G_GUINT64_FORMAT "\n", node == 0 ? _("(no stack)") : path->str, self);
  for (guint32 c = strobe_cost_tree_get_first_child (p->cost, node); c != STROBE_COST_NODE_NONE;
       c = strobe_cost_tree_get_next_sibling (p->cost, c))
    print_folded (p, c, path);
  g_string_truncate (path, len);
}

static void
print_states (StrobeDocument *document, StrobeSampleModel *model, guint32 only, guint64 t0, guint64 t1)
{
  g_autoptr (GArray) threads = strobe_sample_model_get_threads (model);
  StrobeTraceClock clock;

  strobe_document_get_clock (document, &clock);
  printf ("\n%s\n", _("Threads: samples, and time running, preempted and waiting (ms)"));
  printf ("%10s %8s %9s %12s %12s %12s %8s %14s  %s\n", _("OS id"), _("stream"), _("samples"), _("running"),
          _("preempted"), _("waiting"), _("waits"), _("longest wait"), _("name"));
  for (guint i = 0; i < threads->len; i++)
    {
      const StrobeSampleThread *t = &g_array_index (threads, StrobeSampleThread, i);
      g_autoptr (GArray) states = NULL;
      StrobeThreadInfo info = { 0 };
      guint64 sum[3] = { 0 }, waits = 0, longest = 0;
      g_autofree char *name = NULL;
      guint16 stream_id;

      if (only && t->system_id != only)
        continue;
      states = strobe_sample_model_get_states (model, t->system_id, t0, t1);
      for (guint j = 0; j < states->len; j++)
        {
          const StrobeSampleStateInterval *s = &g_array_index (states, StrobeSampleStateInterval, j);
          sum[s->state] += s->end - s->begin;
          if (s->state == STROBE_SAMPLE_STATE_WAITING)
            {
              waits++;
              longest = MAX (longest, s->end - s->begin);
            }
        }
      stream_id = strobe_threads_model_find_system (strobe_document_get_threads (document), t->system_id);
      if (stream_id && strobe_threads_model_lookup (strobe_document_get_threads (document), stream_id, &info))
        {
          name = strobe_text_escape (info.name, STROBE_TEXT_PLAIN);
          strobe_thread_info_clear (&info);
        }
      printf ("%10u %8u %9" G_GUINT64_FORMAT " %12.3f %12.3f %12.3f %8" G_GUINT64_FORMAT " %14.3f  %s\n",
              t->system_id, stream_id, strobe_sample_model_count (model, t->system_id, t0, t1),
              strobe_trace_clock_ticks_to_seconds (&clock, (gdouble) sum[0]) * 1e3,
              strobe_trace_clock_ticks_to_seconds (&clock, (gdouble) sum[1]) * 1e3,
              strobe_trace_clock_ticks_to_seconds (&clock, (gdouble) sum[2]) * 1e3, waits,
              strobe_trace_clock_ticks_to_seconds (&clock, (gdouble) longest) * 1e3, name ? name : "");
    }
}

int
strobe_cli_samples (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (StrobeDocument) document = NULL;
  g_autoptr (StrobeSampleModel) model = strobe_sample_model_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) intervals = NULL;
  g_autoptr (StrobeSymbolizer) sym = NULL;
  g_autoptr (StrobeSampleTree) tree = NULL;
  g_autofree char *range = NULL, *thread = NULL, *scope = NULL;
  gboolean bottom_up = FALSE, top_down = FALSE, flame = FALSE;
  gdouble min_percent = 1.0;
  StrobeSampleStatus status = { 0 };
  StrobeSampleSummary summary;
  guint32 system_id = 0;
  guint64 t0 = 0, t1 = G_MAXUINT64;
  const char *file;
  int rc;
  GOptionEntry entries[] = {
    { "range", 0, 0, G_OPTION_ARG_STRING, &range, N_("Only the samples in A..B (seconds from the start of the trace; either side may be left out)"), N_("A..B") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread, N_("Only this thread: an OS thread id, a stream id or a name"), N_("THREAD") },
    { "scope", 0, 0, G_OPTION_ARG_STRING, &scope, N_("Only the samples inside the scopes of this name (on their own threads)"), N_("NAME") },
    { "top-down", 0, 0, G_OPTION_ARG_NONE, &top_down, N_("The call tree from the outermost callers (the default)"), NULL },
    { "bottom-up", 0, 0, G_OPTION_ARG_NONE, &bottom_up, N_("The call tree from the functions the samples were in"), NULL },
    { "flame", 0, 0, G_OPTION_ARG_NONE, &flame, N_("Folded stacks for flamegraph.pl or speedscope, nothing else"), NULL },
    { "min-percent", 0, 0, G_OPTION_ARG_DOUBLE, &min_percent, N_("Hide tree nodes below this share of the samples (default 1)"), N_("P") },
    { NULL },
  };

  context = g_option_context_new (_("FILE — sampled call stacks and thread states"));
  g_option_context_set_summary (context,
    _("Prints what sampling the program got, each sampled thread's samples and its time\n"
      "running, preempted and waiting, and the sampled call tree (samples inclusive, then\n"
      "self) — of the whole trace, a range, a thread, or the intervals of a scope."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_file_args (context, &argc, &argv, &file))
    return STROBE_CLI_USAGE_ERROR;
  if (top_down + bottom_up + flame > 1)
    {
      g_printerr ("%s\n", _("strobe-cli: choose one of --top-down, --bottom-up and --flame"));
      return STROBE_CLI_USAGE_ERROR;
    }
  /* The scopes are read only for --scope: a sampled capture of a billion scopes need not
   * hold them all to print its call tree. */
  rc = strobe_cli_load (file, STROBE_DOCUMENT_MODEL_MEMORY | (scope ? STROBE_DOCUMENT_MODEL_TIMELINE : 0),
                        STROBE_ANALYZER (model), &document, &error);
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  if (rc != STROBE_CLI_OK && strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    return rc;
  if (range && !parse_range (document, range, &t0, &t1))
    return STROBE_CLI_USAGE_ERROR;
  if (thread && !resolve_thread (document, model, thread, &system_id))
    return STROBE_CLI_USAGE_ERROR;

  if (!strobe_sample_model_get_status (model, &status))
    {
      g_printerr ("%s\n", _("strobe-cli: the trace has no samples: the Sampling channel was never on "
                            "(--trace=sampling, STROBE_TRACE=sampling, or strobe-cli run --sample)"));
      return rc != STROBE_CLI_OK ? rc : STROBE_CLI_FAILED;
    }
  strobe_sample_model_get_summary (model, &summary);
  if (!flame)
    {
      g_autoptr (GArray) statuses = strobe_sample_model_get_statuses (model);
      /* The start that said most: a refusal, else the last mode that sampled. */
      for (guint i = 0; i < statuses->len; i++)
        {
          const StrobeSampleStatus *s = &g_array_index (statuses, StrobeSampleStatus, i);
          g_autofree char *text = strobe_sample_status_describe (s);
          if (s->mode != STROBE_SAMPLE_MODE_OFF || i + 1 == statuses->len)
            printf ("%s: %s\n", _("Sampling"), text);
        }
      printf ("%s: %" G_GUINT64_FORMAT "  %s: %u  %s: %" G_GUINT64_FORMAT "\n", _("Samples"), summary.samples,
              _("threads"), summary.threads, _("lost"), summary.lost);
    }
  if (status.mode == STROBE_SAMPLE_MODE_NOT_PERMITTED || status.mode == STROBE_SAMPLE_MODE_UNAVAILABLE)
    {
      g_autofree char *text = strobe_sample_status_describe (&status);
      if (flame)
        g_printerr ("strobe-cli: %s\n", text);
      strobe_sample_status_clear (&status);
      return STROBE_CLI_FAILED;
    }
  strobe_sample_status_clear (&status);

  if (scope)
    {
      intervals = scope_intervals (document, scope, system_id, t0, t1);
      if (intervals->len == 0)
        {
          g_printerr (_("strobe-cli: no scope “%s” on a sampled thread in that part of the trace\n"), scope);
          suggest_scope (document, scope);
          return STROBE_CLI_USAGE_ERROR;
        }
    }
  else
    {
      StrobeSampleInterval iv = { system_id, t0, t1 };
      intervals = g_array_new (FALSE, FALSE, sizeof iv);
      g_array_append_val (intervals, iv);
    }
  if (!flame)
    {
      if (scope)
        printf ("%s: %u\n", _("Scope instances"), intervals->len);
      print_states (document, model, system_id, t0, t1);
    }

  /* Samples with a copy of their stack (code without frame pointers): unwound first. */
  strobe_sample_unwind (model, strobe_document_get_memory (document));
  sym = strobe_memory_symbolizer_new (strobe_document_get_memory (document));
  tree = strobe_sample_model_build_tree (model, strobe_document_get_memory (document),
                                         (StrobeSampleInterval *) intervals->data, intervals->len,
                                         bottom_up ? STROBE_COST_TREE_BOTTOM_UP : STROBE_COST_TREE_TOP_DOWN,
                                         strobe_memory_symbolizer_frame_func, sym, NULL, &error);
  if (tree == NULL)
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return STROBE_CLI_FAILED;
    }
  {
    TreePrint p = { tree, strobe_sample_tree_get_tree (tree), sym,
                    (gdouble) strobe_sample_tree_get_total (tree), min_percent };
    print_cut_note (model, tree, sym, flame);
    if (flame)
      {
        g_autoptr (GString) path = g_string_new (NULL);
        print_folded (&p, 0, path);
      }
    else
      {
        char percent[G_ASCII_DTOSTR_BUF_SIZE];
        printf ("\n%s (%s %s %%; %s)\n", bottom_up ? _("Bottom-up sampled call tree") : _("Top-down sampled call tree"),
                _("nodes of at least"), g_ascii_formatd (percent, sizeof percent, "%g", min_percent),
                _("samples inclusive, then self"));
        printf ("%6.2f %%  %" G_GUINT64_FORMAT "  %s\n", 100.0, strobe_sample_tree_get_total (tree), _("(total)"));
        if (p.total > 0)
          print_subtree (&p, 0);
      }
  }
  return rc;
}
