/* strobe-bench-log.c — the log view's figures on generated traces of 1 M and 10 M messages
 * (20 categories, 6 verbosities, 8 threads, mixed argument types), written by the real
 * runtime from 8 threads at once, so packets interleave as in a real program:
 *
 *   load.*           StrobeDocument reading the 10 M trace with every model (the viewer's
 *                    way), next to the decoder alone on the same bytes
 *   model.*          the log model's bytes per message (records, order, argument bytes)
 *   filter_1m.*      StrobeLogList from set_filter to its last result, over 1 M messages:
 *                    by verbosity, by category, by a text substring (target ≤ 200 ms each),
 *                    next to a plain pass over the records and to formatting alone
 *   search_10m.*     the same text search over 10 M (target ≤ 2 s), with the number of
 *                    progress updates the list gave meanwhile
 *   scroll.*         the real StrobeLogView on the 10 M trace in a window, GSK's cairo
 *                    renderer, scrolled a page per frame through the table: frame time
 *                    median (target ≤ 8 ms) and maximum (≤ 16 ms); needs a display (run
 *                    under xvfb-run), skipped without one
 *   rss.*            the process's resident memory with the 10 M trace open (and shown)
 *
 * With --view-trace FILE, only the view's figures (scroll.*, far_jump.*, type_filter.*,
 * clear_filter.*) on that trace, read and never written: strobe-bench-scale's 100 M
 * messages, say.
 *
 * Usage: strobe-bench-log [--quick] [--dir DIR] [--messages N] [--view-trace FILE]
 */
#include "config.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strobe/strobe.h>

#include "bench-common.h"
#include "bench-log-view.h"

#include "strobe-decoder.h"
#include "strobe-document.h"
#include "strobe-log-format.h"
#include "strobe-log-list.h"
#include "strobe-log-model-private.h"

#define N_CATEGORIES 20
#define N_VERBOSITY  6
#define N_THREADS    8
#define N_TEMPLATES  6

static gboolean quick;
static const char *bench_dir;
static gint64 big_messages;
static char *view_trace;

static StrobeLogCategory categories[N_CATEGORIES];
static char *category_names[N_CATEGORIES];
static StrobeLogSpec specs[N_CATEGORIES * N_VERBOSITY];
static guint spec_template[N_CATEGORIES * N_VERBOSITY];

static const char *const templates[N_TEMPLATES] = {
  "request %d of %d done",
  "user %s logged in from %s",
  "frame %lld took %.3f ms",
  "buffer %p resized to %zu bytes",
  "plain message without arguments",
  "cache hit ratio %.2f%% for %s (%u entries)",
};
static const char *const words[] = {
  "alice", "bob", "carol", "10.0.0.7", "example.org", "textures", "meshes", "audio",
  "shader-cache", "network",
};

static void
setup_sites (void)
{
  for (guint c = 0; c < N_CATEGORIES; c++)
    {
      category_names[c] = g_strdup_printf ("Category%02u", c);
      categories[c].verbosity = STROBE_LOG_VERBOSE;
      categories[c].default_verbosity = STROBE_LOG_LOG;
      categories[c].name = category_names[c];
      strobe_log_category_register (&categories[c]);
      for (guint v = 0; v < N_VERBOSITY; v++)
        {
          StrobeLogSpec *s = &specs[c * N_VERBOSITY + v];

          s->verbosity = (uint8_t) (STROBE_LOG_FATAL + v);
          s->category = &categories[c];
          s->file = "src/bench/generated.c";
          s->line = (int32_t) (100 + c * N_VERBOSITY + v);
          spec_template[c * N_VERBOSITY + v] = (c + v) % N_TEMPLATES;
          s->format = templates[(c + v) % N_TEMPLATES];
        }
    }
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"

static void
emit (guint site, guint64 i)
{
  StrobeLogSpec *s = &specs[site];
  const char *w = words[i % G_N_ELEMENTS (words)];

  switch (spec_template[site])
    {
    case 0: strobe__log_message (s, s->format, (int) i, (int) (i * 7)); break;
    case 1: strobe__log_message (s, s->format, w, words[(i / 3) % G_N_ELEMENTS (words)]); break;
    case 2: strobe__log_message (s, s->format, (long long) i, (double) (i % 1000) / 61.0); break;
    case 3: strobe__log_message (s, s->format, (void *) (uintptr_t) (0x7f0000000000ull + i * 64), (size_t) (i % 65536)); break;
    case 4: strobe__log_message (s, s->format); break;
    default: strobe__log_message (s, s->format, (double) (i % 100), w, (unsigned) (i % 5000)); break;
    }
}

#pragma GCC diagnostic pop

typedef struct
{
  guint   index;
  guint64 count;
} Emitter;

static void *
emitter_thread (void *data)
{
  Emitter *e = data;
  char name[32];
  guint64 x = 0x9e3779b97f4a7c15ull * (e->index + 1);

  g_snprintf (name, sizeof name, "worker-%u", e->index);
  strobe_thread_set_name (name, "bench", (int32_t) e->index);
  for (guint64 i = 0; i < e->count; i++)
    {
      /* xorshift: a spread over every site, different per thread */
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      emit ((guint) (x % G_N_ELEMENTS (specs)), i);
      if ((i & 0xffff) == 0xffff)
        strobe_flush ();
    }
  return NULL;
}

/* Writes @n messages from 8 threads into @path; returns the dropped count. */
static guint64
write_trace (const char *path, guint64 n)
{
  pthread_t threads[N_THREADS];
  Emitter e[N_THREADS];
  StrobeStats st0, st1;

  strobe_get_stats (&st0);
  if (!strobe_output_file (path))
    g_error ("cannot open %s: %s", path, g_strerror (errno));
  for (guint t = 0; t < N_THREADS; t++)
    {
      e[t].index = t;
      e[t].count = n / N_THREADS + (t < n % N_THREADS);
      pthread_create (&threads[t], NULL, emitter_thread, &e[t]);
    }
  for (guint t = 0; t < N_THREADS; t++)
    pthread_join (threads[t], NULL);
  strobe_flush ();
  strobe_get_stats (&st1);
  strobe_output_stop ();
  return st1.events_dropped - st0.events_dropped;
}

static StrobeDocument *
open_document (const char *path, StrobeDocumentModels models, double *seconds)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrobeDocument *doc = strobe_document_new (file, models);
  g_autoptr(GError) error = NULL;
  double t0 = bench_now_ns ();

  if (!strobe_document_load (doc, NULL, &error))
    g_error ("%s: %s", path, error->message);
  if (seconds)
    *seconds = (bench_now_ns () - t0) / 1e9;
  return doc;
}

static double
decode_only (const char *path)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(GError) error = NULL;
  double t0 = bench_now_ns ();

  if (!strobe_decoder_read_file (decoder, path, NULL, &error))
    g_error ("%s: %s", path, error->message);
  return (bench_now_ns () - t0) / 1e9;
}

typedef struct
{
  guint progress_updates;
} Progress;

static void
progress_cb (GObject *list, GParamSpec *pspec, Progress *p)
{
  p->progress_updates++;
}

/* set_filter → the list's last result, ms; @n_items out. */
static double
time_list_filter (StrobeLogList *list, const StrobeLogFilter *f, guint *n_items, guint *updates)
{
  Progress p = { 0 };
  gulong id = g_signal_connect (list, "notify::progress", G_CALLBACK (progress_cb), &p);
  double t0;

  strobe_log_list_set_filter (list, NULL);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  t0 = bench_now_ns ();
  strobe_log_list_set_filter (list, f);
  while (strobe_log_list_is_filtering (list))
    g_main_context_iteration (NULL, TRUE);
  t0 = (bench_now_ns () - t0) / 1e6;
  g_signal_handler_disconnect (list, id);
  if (n_items)
    *n_items = g_list_model_get_n_items (G_LIST_MODEL (list));
  if (updates)
    *updates = p.progress_updates;
  return t0;
}

static double
median_filter (StrobeLogList *list, const StrobeLogFilter *f, guint runs, guint *n_items)
{
  double v[9];

  runs = MIN (runs, G_N_ELEMENTS (v));
  for (guint r = 0; r < runs; r++)
    v[r] = time_list_filter (list, f, n_items, NULL);
  return bench_median (v, (int) runs);
}

/* Baselines: one pass over the records with the cheapest test there is (a verbosity that
 * lets everything through), and formatting every message without testing it. */
static double
plain_pass_ms (StrobeLogModel *model)
{
  g_autoptr(StrobeLogOrder) order = strobe_log_model_ref_order (model);
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (guint32));
  StrobeLogFilter f = { .max_verbosity = 7 };
  double t0 = bench_now_ns ();

  strobe_log_model_filter_order (model, order, &f, 0, order->n, out, NULL, NULL);
  return (bench_now_ns () - t0) / 1e6;
}

static double
format_all_ms (StrobeLogModel *model)
{
  g_autoptr(StrobeLogOrder) order = strobe_log_model_ref_order (model);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree StrobeLogEntry *batch = g_new (StrobeLogEntry, 4096);
  volatile gsize sink = 0;
  double t0 = bench_now_ns ();

  for (guint64 p = 0; p < order->n; p += 4096)
    {
      guint n = strobe_log_model_read (model, order, p, 4096, batch);

      for (guint k = 0; k < n; k++)
        {
          strobe_log_model_format_entry (&batch[k], text);
          sink += text->len;
        }
    }
  (void) sink;
  return (bench_now_ns () - t0) / 1e6;
}

static void
bench_filters (const char *path_1m, guint64 n)
{
  g_autoptr(StrobeDocument) doc = open_document (path_1m, STROBE_DOCUMENT_MODEL_LOG, NULL);
  StrobeLogModel *model = strobe_document_get_log (doc);
  g_autoptr(StrobeLogList) list = strobe_log_list_new (model);
  const StrobeLogCategoryInfo *cat = strobe_log_model_find_category (model, "Category07");
  StrobeLogFilter by_level = { .max_verbosity = STROBE_LOG_WARNING };
  StrobeLogFilter by_category = { 0 };
  StrobeLogFilter by_text = { 0 };
  guint n_level, n_cat, n_text;
  double level_ms, cat_ms, text_ms;

  g_assert (cat != NULL);
  by_category.categories = &cat->id;
  by_category.n_categories = 1;
  by_text.search = strobe_log_search_new ("example.org", 0, NULL);

  bench_report ("filter_1m.messages", (double) strobe_log_model_get_count (model), "messages");
  bench_report ("filter_1m.baseline_plain_pass", plain_pass_ms (model), "ms (every record, cheapest test)");
  bench_report ("filter_1m.baseline_format_all", format_all_ms (model), "ms (formatting every message, no test)");
  level_ms = median_filter (list, &by_level, 5, &n_level);
  bench_report ("filter_1m.verbosity", level_ms, "ms");
  bench_report ("filter_1m.verbosity_rows", n_level, "rows");
  cat_ms = median_filter (list, &by_category, 5, &n_cat);
  bench_report ("filter_1m.category", cat_ms, "ms");
  bench_report ("filter_1m.category_rows", n_cat, "rows");
  text_ms = median_filter (list, &by_text, 5, &n_text);
  bench_report ("filter_1m.text", text_ms, "ms");
  bench_report ("filter_1m.text_rows", n_text, "rows");
  bench_report_ratio ("filter_1m_verbosity_ms", level_ms, "<=", 200);
  bench_report_ratio ("filter_1m_category_ms", cat_ms, "<=", 200);
  bench_report_ratio ("filter_1m_text_ms", text_ms, "<=", 200);
  strobe_log_search_unref (by_text.search);
  (void) n;
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— log view benchmarks");
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = NULL, *path_1m = NULL, *path_big = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Smaller traces (2 M messages)", NULL },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_dir, "Where the traces go (default: a temp dir)", "DIR" },
    { "messages", 0, 0, G_OPTION_ARG_INT64, &big_messages, "Messages in the big trace (default 10 M)", "N" },
    { "view-trace", 0, 0, G_OPTION_ARG_FILENAME, &view_trace, "Only the view's figures, on this trace (not written)", "FILE" },
    { NULL },
  };
  StrobeInitOptions options = { 0 };
  guint64 dropped;
  double load_s, decode_s;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (view_trace != NULL)
    {
      g_autoptr(StrobeDocument) doc = open_document (view_trace, STROBE_DOCUMENT_MODEL_ALL, &load_s);

      bench_report ("load.messages", (double) strobe_log_model_get_count (strobe_document_get_log (doc)), "messages");
      bench_report ("load.document_all_models", load_s, "s");
      bench_report ("rss.trace_open", bench_rss_mib (), "MiB (document with every model)");
      bench_log_view_scroll (doc);
      return 0;
    }
  if (big_messages <= 0)
    big_messages = quick ? 2000000 : 10000000;
  if (bench_dir == NULL)
    bench_dir = tmp = g_dir_make_tmp ("strobe-bench-log-XXXXXX", NULL);
  path_1m = g_build_filename (bench_dir, "log-1m.strobe", NULL);
  path_big = g_build_filename (bench_dir, "log-big.strobe", NULL);

  /* Waiting for the worker instead of dropping: the trace is complete. */
  options.block_wait_ms = 10000;
  options.control_port = STROBE_CONTROL_NONE;
  options.control_flags = STROBE_CONTROL_NO_DISCOVERY;
  strobe_init (&options);
  strobe_channel_set_enabled ("Log", true);
  setup_sites ();

  dropped = write_trace (path_1m, 1000000);
  dropped += write_trace (path_big, (guint64) big_messages);
  bench_report ("trace.dropped", (double) dropped, "events");
  {
    g_autoptr(GFile) f = g_file_new_for_path (path_big);
    g_autoptr(GFileInfo) info = g_file_query_info (f, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);

    bench_report ("trace.big_file_bytes_per_message", (double) g_file_info_get_size (info) / (double) big_messages, "B");
  }

  bench_filters (path_1m, 1000000);

  {
    double rss0 = bench_rss_mib ();
    g_autoptr(StrobeDocument) doc = NULL;
    StrobeLogModel *model;
    g_autoptr(StrobeLogList) list = NULL;
    StrobeLogFilter by_text = { 0 };
    guint n_text, updates;
    double text_ms;

    decode_s = decode_only (path_big);
    doc = open_document (path_big, STROBE_DOCUMENT_MODEL_ALL, &load_s);
    model = strobe_document_get_log (doc);
    bench_report ("load.messages", (double) strobe_log_model_get_count (model), "messages");
    bench_report ("load.decode_only", decode_s, "s (decoder alone, the floor)");
    bench_report ("load.document_all_models", load_s, "s");
    bench_report ("load.rate", (double) strobe_log_model_get_count (model) / load_s / 1e6, "M messages/s");
    {
      StrobeLogModelMemory mem;

      strobe_log_model_get_memory (model, &mem);
      bench_report ("model.bytes_per_message", (double) mem.total / (double) mem.messages, "B (everything)");
      bench_report ("model.record_bytes_per_message", (double) mem.records / (double) mem.messages, "B");
      bench_report ("model.order_bytes_per_message", (double) mem.order / (double) mem.messages, "B");
      bench_report ("model.argument_bytes_per_message", (double) mem.arguments / (double) mem.messages, "B");
    }
    bench_report ("rss.before_open", rss0, "MiB");
    bench_report ("rss.trace_open", bench_rss_mib (), "MiB (document with every model)");

    list = strobe_log_list_new (model);
    by_text.search = strobe_log_search_new ("example.org", 0, NULL);
    text_ms = time_list_filter (list, &by_text, &n_text, &updates);
    bench_report ("search_10m.messages", (double) strobe_log_list_get_total (list), "messages");
    bench_report ("search_10m.text", text_ms, "ms");
    bench_report ("search_10m.rows", n_text, "rows");
    bench_report ("search_10m.progress_updates", updates, "notifications");
    bench_report_ratio ("search_10m_text_ms", text_ms * 1e7 / (double) strobe_log_list_get_total (list), "<=", 2000);
    strobe_log_search_unref (by_text.search);
    g_clear_object (&list);

    bench_log_view_scroll (doc);
  }

  g_unlink (path_1m);
  g_unlink (path_big);
  if (tmp)
    g_rmdir (tmp);
  return 0;
}
