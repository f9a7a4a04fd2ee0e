/* test-log-list.c — StrobeLogList (the log model as a GListModel) and its filters.
 *
 * - The golden trace tests/data/golden-logmem.strobe through the list: each filter alone
 *   and combined, with the expected messages written out.
 * - A generated trace of several threads whose packets interleave (so messages arrive out
 *   of time order) with odd content: random filters against a brute-force reading of the
 *   model.
 * - The same trace fed to the decoder in small chunks while lists (unfiltered and
 *   filtered) follow it: a mirror kept only from items-changed must equal the brute force
 *   after every chunk, and late messages must have been inserted before the end.
 * - Cancelling: a filter replaced while the worker runs leaves only the last one's rows.
 * - Tracy-style search terms, regular expressions, escaping and argument splitting.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "log-stream.h"
#include "strobe-decoder.h"
#include "strobe-log-export.h"
#include "strobe-log-format.h"
#include "strobe-log-item-private.h"
#include "strobe-log-list.h"
#include "strobe-log-search.h"

static const char *golden_path;

/* ---- helpers -------------------------------------------------------------------------- */

static void
wait_idle (StrobeLogList *list)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (strobe_log_list_is_filtering (list))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the log list's filter did not finish");
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (500);
    }
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static StrobeLogModel *
decode_bytes (GBytes *bytes, gsize chunk)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  StrobeLogModel *model = strobe_log_model_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  for (gsize pos = 0; pos < len && error == NULL; pos += chunk ? chunk : len)
    strobe_decoder_feed (decoder, data + pos, MIN (chunk ? chunk : len, len - pos), &error);
  g_assert_no_error (error);
  strobe_decoder_finish (decoder, &error);
  g_assert_no_error (error);
  return model;
}

/* The texts of the list's items, one per line. */
static char *
list_texts (GListModel *list)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(StrobeLogItem) item = g_list_model_get_item (list, i);

      g_string_append_printf (out, "%s\n", strobe_log_item_get_text (item));
    }
  return g_string_free (out, FALSE);
}

static char *
filtered_texts (StrobeLogList *list, const StrobeLogFilter *filter)
{
  strobe_log_list_set_filter (list, filter);
  wait_idle (list);
  return list_texts (G_LIST_MODEL (list));
}

/* ---- the golden trace ----------------------------------------------------------------- */

/* golden-logmem.log, in time order:
 *   16 main   LogGolden log      golden trace, version 1.0
 *   16 main   LogGolden log      pool: 2 items of 64 bytes
 *   16 main   LogNet    warning  arena reset: 0% of 0x10000 bytes were in use
 *   18 worker LogGolden display  worker started with 16 blocks
 *   18 worker LogNet    error    connection to example.org:443 lost after 1.50 s
 *   16 main   LogGolden fatal    done: ok (y) 1.2e+04 0xbeef */
static void
test_golden (void)
{
  g_autoptr(GFile) file = g_file_new_for_path (golden_path);
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeLogModel) model = strobe_log_model_new ();
  g_autoptr(StrobeLogList) list = NULL;
  g_autoptr(GError) error = NULL;
  const StrobeLogCategoryInfo *net, *golden;
  StrobeLogFilter f = { 0 };
  guint16 worker = 18;
  char *t;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, golden_path, NULL, &error);
  g_assert_no_error (error);
  net = strobe_log_model_find_category (model, "LogNet");
  golden = strobe_log_model_find_category (model, "LogGolden");
  g_assert_nonnull (net);
  g_assert_nonnull (golden);

  list = strobe_log_list_new (model);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (list)) == STROBE_TYPE_LOG_ITEM);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 6);
  g_assert_cmpuint (strobe_log_list_get_total (list), ==, 6);

  /* Each filter alone. */
  f.max_verbosity = 3;
  t = filtered_texts (list, &f);
  g_assert_cmpstr (t, ==, "arena reset: 0% of 0x10000 bytes were in use\n"
                          "connection to example.org:443 lost after 1.50 s\n"
                          "done: ok (y) 1.2e+04 0xbeef\n");
  g_free (t);

  memset (&f, 0, sizeof f);
  f.categories = &net->id;
  f.n_categories = 1;
  t = filtered_texts (list, &f);
  g_assert_cmpstr (t, ==, "arena reset: 0% of 0x10000 bytes were in use\n"
                          "connection to example.org:443 lost after 1.50 s\n");
  g_free (t);
  f.categories_excluded = TRUE;   /* everything but LogNet */
  t = filtered_texts (list, &f);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 4);
  g_assert_null (strstr (t, "arena"));
  g_free (t);

  memset (&f, 0, sizeof f);
  f.threads = &worker;
  f.n_threads = 1;
  t = filtered_texts (list, &f);
  g_assert_cmpstr (t, ==, "worker started with 16 blocks\n"
                          "connection to example.org:443 lost after 1.50 s\n");
  g_free (t);

  memset (&f, 0, sizeof f);
  f.search = strobe_log_search_new ("POOL, lost", 0, NULL);
  t = filtered_texts (list, &f);
  g_assert_cmpstr (t, ==, "pool: 2 items of 64 bytes\n"
                          "connection to example.org:443 lost after 1.50 s\n");
  g_free (t);
  strobe_log_search_unref (f.search);
  f.search = strobe_log_search_new ("-o", 0, NULL);   /* every message has an 'o' but… */
  t = filtered_texts (list, &f);
  g_assert_cmpstr (t, ==, "");
  g_free (t);
  strobe_log_search_unref (f.search);
  f.search = strobe_log_search_new ("^(done|pool):", STROBE_LOG_SEARCH_REGEX, NULL);
  t = filtered_texts (list, &f);
  g_assert_cmpstr (t, ==, "pool: 2 items of 64 bytes\ndone: ok (y) 1.2e+04 0xbeef\n");
  g_free (t);
  g_clear_pointer (&f.search, strobe_log_search_unref);

  /* The time range: from the third message to the fifth, inclusive. */
  {
    g_autoptr(StrobeLogItem) third = g_list_model_get_item (G_LIST_MODEL (list), 2);
    g_autoptr(StrobeLogItem) fifth = g_list_model_get_item (G_LIST_MODEL (list), 4);

    memset (&f, 0, sizeof f);
    strobe_log_list_set_filter (list, NULL);
    g_clear_object (&third);
    g_clear_object (&fifth);
    third = g_list_model_get_item (G_LIST_MODEL (list), 2);
    fifth = g_list_model_get_item (G_LIST_MODEL (list), 4);
    f.time_min = strobe_log_item_get_time (third);
    f.time_max = strobe_log_item_get_time (fifth);
    t = filtered_texts (list, &f);
    /* The third and fourth messages share their time with their neighbours or not: count
     * by times, not positions. */
    g_assert_nonnull (strstr (t, "arena reset"));
    g_assert_nonnull (strstr (t, "connection to"));
    g_assert_null (strstr (t, "golden trace"));
    g_assert_null (strstr (t, "done:"));
    g_free (t);

    /* Combined: the range, LogGolden only, display or worse. */
    f.categories = &golden->id;
    f.n_categories = 1;
    f.max_verbosity = 4;
    t = filtered_texts (list, &f);
    g_assert_cmpstr (t, ==, "worker started with 16 blocks\n");
    g_free (t);
    /* And a text that none of those has. */
    f.search = strobe_log_search_new ("lost", 0, NULL);
    t = filtered_texts (list, &f);
    g_assert_cmpstr (t, ==, "");
    g_assert_cmpuint (strobe_log_list_get_total (list), ==, 6);
    g_free (t);
    g_clear_pointer (&f.search, strobe_log_search_unref);
  }

  /* Back to no filter: every message, the items' details. */
  strobe_log_list_set_filter (list, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 6);
  {
    g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (list), 4);

    g_assert_cmpstr (strobe_log_item_get_category_name (item), ==, "LogNet");
    g_assert_cmpuint (strobe_log_item_get_verbosity (item), ==, 2);
    g_assert_cmpuint (strobe_log_item_get_thread_id (item), ==, 18);
    g_assert_true (strobe_log_item_is_well_formed (item));
    g_assert_true (g_str_has_suffix (strobe_log_item_get_spec (item)->file, "logmem-emitter.c"));
    g_assert_cmpint (strobe_log_item_get_spec (item)->line, ==, 33);
    g_assert_cmpuint (strobe_log_item_find_index (item), ==, 4);
    g_assert_null (g_list_model_get_item (G_LIST_MODEL (list), 6));
  }

  /* Counts for the checklists. */
  {
    g_autoptr(GArray) cats = strobe_log_model_count_by_category (model);
    g_autoptr(GArray) threads = strobe_log_model_count_by_thread (model);
    guint64 total = 0;

    g_assert_cmpuint (cats->len, ==, 2);
    for (guint i = 0; i < cats->len; i++)
      {
        StrobeLogCount *c = &g_array_index (cats, StrobeLogCount, i);

        g_assert_cmpuint (c->count, ==, c->id == net->id ? 2 : 4);
        total += c->count;
      }
    g_assert_cmpuint (total, ==, 6);
    g_assert_cmpuint (threads->len, ==, 2);
    g_assert_cmpuint (g_array_index (threads, StrobeLogCount, 0).id, ==, 16);
    g_assert_cmpuint (g_array_index (threads, StrobeLogCount, 0).count, ==, 4);
    g_assert_cmpuint (g_array_index (threads, StrobeLogCount, 1).count, ==, 2);
  }
  (void) file;
}

/* ---- a generated trace ------------------------------------------------------------------ */

#define N_THREADS 4
#define N_SPECS   12

typedef struct
{
  GBytes *bytes;
  guint   n_messages;
  guint   n_late_packets;   /* packets whose first message is older than one already sent */
} Generated;

/* @n messages from 4 threads (16..19) with a shared clock, each thread's messages kept in
 * its own packet until a random flush: packets interleave in time. Specs 1..12 in
 * categories 1..4 with all verbosities; messages of spec 99 (never announced), one with
 * arguments that do not fit, one with terminal escapes. */
static Generated
generate (guint n, guint32 seed)
{
  static const char *const formats[N_SPECS] = {
    "tick %d of %s", "value %.3f", "plain text here", "ptr %p id %lld",
    "Connection %s lost", "retry %d", "frame %lld took %.2f ms", "%s",
    "ALPHA beta %d", "gamma, delta %s", "kv %s=%d", "Привет %s",
  };
  static const char *const words[] = { "alpha", "Beta", "pool", "net", "\x1b[31mred\x1b[0m", "Ünïcode", "comma,word" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  Tsb *b = log_stream_new ();
  guint64 clock = 1000, sent_max = 0;
  guint64 first_pending[16 + N_THREADS] = { 0 };
  Generated g = { 0 };

  for (guint c = 1; c <= 4; c++)
    {
      g_autofree char *name = g_strdup_printf ("Cat%u", c);
      log_stream_category (b, c, name, 5);
    }
  for (guint s = 1; s <= N_SPECS; s++)
    log_stream_spec (b, s, 1 + (s % 4), "src/gen.c", (gint32) (10 * s), (guint8) (1 + (s % 7)), formats[s - 1]);
  for (guint16 t = 16; t < 16 + N_THREADS; t++)
    {
      g_autofree char *name = g_strdup_printf ("thread-%u", t);
      tsb_thread_info (b, t, 100 + t, t, name, "");
    }
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);

  for (guint i = 0; i < n; i++)
    {
      guint16 tid = (guint16) (16 + g_rand_int_range (rand, 0, N_THREADS));
      guint spec = (guint) g_rand_int_range (rand, 1, N_SPECS + 1);
      const char *word = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];
      g_autoptr(GBytes) args = NULL;

      clock += (guint64) g_rand_int_range (rand, 0, 50);   /* 0: equal times happen */
      if (i % 97 == 13)
        spec = 99;
      switch (spec)
        {
        case 1: args = log_args ("is", i, word); break;
        case 2: args = log_args ("d", (double) i / 7.0); break;
        case 3: args = NULL; break;
        case 4: args = log_args ("pl", (guint64) 0xdead0000 + i, (gint64) i); break;
        case 5: args = log_args ("s", word); break;
        case 6: args = i % 11 == 0 ? log_args ("s", "not an int") : log_args ("i", i); break;
        case 7: args = log_args ("ld", (gint64) i, 16.67); break;
        case 8: args = log_args ("s", word); break;
        case 9: args = log_args ("i", i); break;
        case 10: args = log_args ("s", word); break;
        case 11: args = log_args ("si", word, i); break;
        case 12: args = log_args ("s", word); break;
        default: args = log_args ("i", i); break;
        }
      if (first_pending[tid] == 0)
        first_pending[tid] = clock;
      log_stream_message (b, tid, clock, spec, args);
      if (g_rand_int_range (rand, 0, 8) == 0)
        {
          if (first_pending[tid] < sent_max)
            g.n_late_packets++;
          sent_max = MAX (sent_max, clock);
          first_pending[tid] = 0;
          tsb_flush (b, tid, g_rand_boolean (rand) ? TSB_LZ4 : TSB_RAW);
        }
    }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  g.bytes = tsb_bytes (b);
  g.n_messages = n;
  tsb_free (b);
  return g;
}

/* The filter's meaning written out again, for the brute force: Tracy's terms. */
static gboolean
naive_search (const char *text, const char *terms)
{
  g_auto(GStrv) parts = g_strsplit (terms, ",", -1);
  g_autofree char *hay = g_utf8_casefold (text, -1);
  gboolean any_include = FALSE, matched = FALSE;

  for (guint i = 0; parts[i]; i++)
    {
      g_autofree char *term = g_strstrip (g_strdup (parts[i]));
      gboolean minus = term[0] == '-';
      g_autofree char *folded = g_utf8_casefold (minus ? term + 1 : term, -1);

      if (*folded == '\0')
        continue;
      if (minus && strstr (hay, folded))
        return FALSE;
      if (!minus)
        {
          any_include = TRUE;
          matched |= strstr (hay, folded) != NULL;
        }
    }
  return !any_include || matched;
}

typedef struct
{
  guint8      max_verbosity;
  guint32     categories[4];
  guint       n_categories;
  gboolean    categories_excluded;
  guint16     threads[4];
  guint       n_threads;
  gboolean    threads_excluded;
  const char *terms;
  guint64     time_min, time_max;
} NaiveFilter;

static gboolean
in32 (const guint32 *v, guint n, guint32 x)
{
  for (guint i = 0; i < n; i++)
    if (v[i] == x)
      return TRUE;
  return FALSE;
}

static gboolean
in16 (const guint16 *v, guint n, guint16 x)
{
  for (guint i = 0; i < n; i++)
    if (v[i] == x)
      return TRUE;
  return FALSE;
}

static gboolean
naive_pass (const NaiveFilter *nf, const StrobeLogEntry *e)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (nf->max_verbosity && e->verbosity > nf->max_verbosity)
    return FALSE;
  if (nf->n_categories && in32 (nf->categories, nf->n_categories, e->category_id) == nf->categories_excluded)
    return FALSE;
  if (nf->n_threads && in16 (nf->threads, nf->n_threads, e->thread_id) == nf->threads_excluded)
    return FALSE;
  if (e->time < nf->time_min || (nf->time_max && e->time > nf->time_max))
    return FALSE;
  if (nf->terms == NULL)
    return TRUE;
  strobe_log_model_format_entry (e, text);
  return naive_search (text->str, nf->terms);
}

static void
to_filter (const NaiveFilter *nf, StrobeLogFilter *f)
{
  memset (f, 0, sizeof *f);
  f->max_verbosity = nf->max_verbosity;
  if (nf->n_categories)
    {
      f->categories = nf->categories;
      f->n_categories = nf->n_categories;
      f->categories_excluded = nf->categories_excluded;
    }
  if (nf->n_threads)
    {
      f->threads = nf->threads;
      f->n_threads = nf->n_threads;
      f->threads_excluded = nf->threads_excluded;
    }
  f->time_min = nf->time_min;
  f->time_max = nf->time_max;
  if (nf->terms)
    f->search = strobe_log_search_new (nf->terms, 0, NULL);
}

/* The records (arrival indexes) the model's current order holds that pass @nf. */
static GArray *
brute_force (StrobeLogModel *model, const NaiveFilter *nf)
{
  g_autoptr(StrobeLogOrder) order = strobe_log_model_ref_order (model);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint64 p = 0; p < order->n; p++)
    {
      StrobeLogEntry e;

      g_assert_cmpuint (strobe_log_model_read (model, order, p, 1, &e), ==, 1);
      if (naive_pass (nf, &e))
        g_array_append_val (out, e.record);
    }
  return out;
}

static void
random_filter (GRand *rand, NaiveFilter *nf, guint64 t_max)
{
  static const char *const terms[] = {
    "pool", "beta,-alpha", "RED", "-tick", "lost,retry", "привет", "ünï", " , ", "-", "ms,-frame 1",
    "comma", "unknown log site", "(?)",
  };

  memset (nf, 0, sizeof *nf);
  if (g_rand_boolean (rand))
    nf->max_verbosity = (guint8) g_rand_int_range (rand, 1, 8);
  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      nf->n_categories = (guint) g_rand_int_range (rand, 1, 4);
      for (guint i = 0; i < nf->n_categories; i++)
        nf->categories[i] = (guint32) g_rand_int_range (rand, 0, 5);
      nf->categories_excluded = g_rand_boolean (rand);
    }
  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      nf->n_threads = (guint) g_rand_int_range (rand, 1, 3);
      for (guint i = 0; i < nf->n_threads; i++)
        nf->threads[i] = (guint16) g_rand_int_range (rand, 16, 16 + N_THREADS);
      nf->threads_excluded = g_rand_boolean (rand);
    }
  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      nf->time_min = (guint64) g_rand_double_range (rand, 0, (double) t_max);
      if (g_rand_boolean (rand))
        nf->time_max = nf->time_min + (guint64) g_rand_double_range (rand, 1, (double) t_max / 3);
    }
  if (g_rand_boolean (rand))
    nf->terms = terms[g_rand_int_range (rand, 0, G_N_ELEMENTS (terms))];
}

static void
assert_list_is (StrobeLogList *list, GArray *expected)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  g_assert_cmpuint (n, ==, expected->len);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (list), i);

      if (strobe_log_item_get_entry (item)->record != g_array_index (expected, guint32, i))
        g_error ("item %u is record %u, expected %u", i, strobe_log_item_get_entry (item)->record,
                 g_array_index (expected, guint32, i));
    }
}

static void
test_random_filters (void)
{
  Generated g = generate (20000, 7);
  g_autoptr(StrobeLogModel) model = decode_bytes (g.bytes, 0);
  g_autoptr(StrobeLogList) list = strobe_log_list_new (model);
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  g_autoptr(StrobeLogOrder) order = strobe_log_model_ref_order (model);
  StrobeLogEntry last;
  guint64 unknown = 0;

  g_assert_cmpuint (strobe_log_model_get_count (model), ==, g.n_messages);
  g_assert_cmpuint (g.n_late_packets, >, 100);
  g_assert_cmpuint (strobe_log_model_read (model, order, order->n - 1, 1, &last), ==, 1);

  /* Sorted by (time, arrival). */
  for (guint64 p = 1; p < order->n; p++)
    {
      StrobeLogEntry a, b;

      strobe_log_model_read (model, order, p - 1, 1, &a);
      strobe_log_model_read (model, order, p, 1, &b);
      g_assert_true (a.time < b.time || (a.time == b.time && a.record < b.record));
      unknown += b.spec == NULL;
    }
  g_assert_cmpuint (unknown, >, 100);

  for (guint round = 0; round < 60; round++)
    {
      NaiveFilter nf;
      StrobeLogFilter f;
      g_autoptr(GArray) expected = NULL;

      random_filter (rand, &nf, last.time);
      to_filter (&nf, &f);
      expected = brute_force (model, &nf);
      strobe_log_list_set_filter (list, &f);
      wait_idle (list);
      assert_list_is (list, expected);
      /* The model's own array filter agrees. */
      {
        g_autoptr(GArray) positions = strobe_log_model_filter (model, &f, 0, G_MAXUINT64);
        g_assert_cmpuint (positions->len, ==, expected->len);
      }
      g_clear_pointer (&f.search, strobe_log_search_unref);
    }
  g_bytes_unref (g.bytes);
}

/* ---- following a live trace ------------------------------------------------------------ */

typedef struct
{
  StrobeLogList *list;
  GArray        *mirror;        /* records, as items-changed said */
  guint          inserts_before_end;
  guint          signals;
} Mirror;

static void
mirror_changed_cb (GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added,
                   Mirror     *m)
{
  g_assert_cmpuint (position + removed, <=, m->mirror->len);
  if (position < m->mirror->len && added > 0)
    m->inserts_before_end++;
  g_array_remove_range (m->mirror, position, removed);
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(StrobeLogItem) item = g_list_model_get_item (model, position + i);
      guint32 rec;

      g_assert_nonnull (item);
      rec = strobe_log_item_get_entry (item)->record;
      g_array_insert_val (m->mirror, position + i, rec);
    }
  g_assert_cmpuint (m->mirror->len, ==, g_list_model_get_n_items (model));
  m->signals++;
}

static void
mirror_init (Mirror *m, StrobeLogModel *model, const NaiveFilter *nf)
{
  m->list = strobe_log_list_new (model);
  m->mirror = g_array_new (FALSE, FALSE, sizeof (guint32));
  m->inserts_before_end = m->signals = 0;
  if (nf != NULL)
    {
      StrobeLogFilter f;

      to_filter (nf, &f);
      strobe_log_list_set_filter (m->list, &f);
      g_clear_pointer (&f.search, strobe_log_search_unref);
    }
  g_signal_connect (m->list, "items-changed", G_CALLBACK (mirror_changed_cb), m);
}

static void
mirror_check (Mirror *m, StrobeLogModel *model, const NaiveFilter *nf)
{
  NaiveFilter none = { 0 };
  g_autoptr(GArray) expected = NULL;

  strobe_log_list_update (m->list);
  wait_idle (m->list);
  expected = brute_force (model, nf ? nf : &none);
  g_assert_cmpuint (m->mirror->len, ==, expected->len);
  if (expected->len)
    g_assert_cmpmem (m->mirror->data, m->mirror->len * 4, expected->data, expected->len * 4);
}

static void
test_live (void)
{
  Generated g = generate (6000, 3);
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeLogModel) model = strobe_log_model_new ();
  g_autoptr(GError) error = NULL;
  NaiveFilter text = { .terms = "beta,pool,-ms" };
  NaiveFilter cheap = { .max_verbosity = 4, .n_threads = 1, .threads = { 17 }, .threads_excluded = TRUE };
  Mirror all, by_text, by_level;
  gsize len, pos = 0;
  const guint8 *data = g_bytes_get_data (g.bytes, &len);
  guint chunk = 0;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  mirror_init (&all, model, NULL);
  mirror_init (&by_text, model, &text);
  mirror_init (&by_level, model, &cheap);
  while (pos < len)
    {
      gsize n = MIN (len - pos, 300 + (chunk * 37) % 900);

      strobe_decoder_feed (decoder, data + pos, n, &error);
      g_assert_no_error (error);
      pos += n;
      mirror_check (&all, model, NULL);
      mirror_check (&by_text, model, &text);
      /* Not every round: the filtered list also catches up over several updates. */
      if (chunk % 3 == 0)
        mirror_check (&by_level, model, &cheap);
      chunk++;
    }
  strobe_decoder_finish (decoder, &error);
  g_assert_no_error (error);
  mirror_check (&all, model, NULL);
  mirror_check (&by_text, model, &text);
  mirror_check (&by_level, model, &cheap);
  g_assert_cmpuint (all.mirror->len, ==, g.n_messages);
  /* Late messages of another thread landed before the end, and the lists said so. */
  g_test_message ("%u chunks; inserts before the end: %u (all), %u (text), %u (level)", chunk,
                  all.inserts_before_end, by_text.inserts_before_end, by_level.inserts_before_end);
  g_assert_cmpuint (all.inserts_before_end, >, 10);
  g_assert_cmpuint (by_text.inserts_before_end, >, 0);
  g_assert_cmpuint (by_level.inserts_before_end, >, 0);

  g_object_unref (all.list);
  g_object_unref (by_text.list);
  g_object_unref (by_level.list);
  g_array_unref (all.mirror);
  g_array_unref (by_text.mirror);
  g_array_unref (by_level.mirror);
  g_bytes_unref (g.bytes);
}

/* A filter replaced while its worker runs: only the last filter's rows come out, and the
 * items shown before stay until the new ones are in. */
static void
test_cancel (void)
{
  Generated g = generate (200000, 11);
  g_autoptr(StrobeLogModel) model = decode_bytes (g.bytes, 1 << 20);
  g_autoptr(StrobeLogList) list = strobe_log_list_new (model);
  NaiveFilter last = { .terms = "pool" };
  g_autoptr(GArray) expected = NULL;
  StrobeLogFilter f;
  const char *const searches[] = { "a", "al", "alp", "alph", "alpha", "p", "po", "poo" };

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 200000);
  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    {
      memset (&f, 0, sizeof f);
      f.search = strobe_log_search_new (searches[i], 0, NULL);
      strobe_log_list_set_filter (list, &f);
      g_clear_pointer (&f.search, strobe_log_search_unref);
      g_assert_true (strobe_log_list_is_filtering (list));
      /* Until the first results, the old rows stay. */
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), >, 0);
      g_main_context_iteration (NULL, FALSE);
    }
  to_filter (&last, &f);
  strobe_log_list_set_filter (list, &f);
  g_clear_pointer (&f.search, strobe_log_search_unref);
  wait_idle (list);
  expected = brute_force (model, &last);
  assert_list_is (list, expected);
  g_assert_cmpfloat (strobe_log_list_get_progress (list), ==, 1.0);

  /* Find by time and by index, with the filter hiding some messages. */
  {
    g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (list), expected->len / 2);
    guint64 index = strobe_log_item_find_index (item);
    gboolean exact = FALSE;
    guint at;

    g_assert_cmpuint (strobe_log_list_find_index (list, index, &exact), ==, expected->len / 2);
    g_assert_true (exact);
    at = strobe_log_list_find_time (list, strobe_log_item_get_time (item));
    g_assert_cmpuint (at, <=, expected->len / 2);
    {
      guint64 t;

      g_assert_true (strobe_log_list_get_time (list, at, &t));
      g_assert_cmpuint (t, ==, strobe_log_item_get_time (item));
    }
    /* A message the filter hides: where it would be. */
    {
      StrobeLogMessage msg;
      guint64 hidden = index + 1;

      while (TRUE)
        {
          g_assert_true (strobe_log_model_get_message (model, hidden, &msg));
          if (strstr (msg.text, "pool") == NULL)
            break;
          g_free (msg.text);
          hidden++;
        }
      g_free (msg.text);
      at = strobe_log_list_find_index (list, hidden, &exact);
      g_assert_false (exact);
      /* After the item, and after the matches between the two. */
      g_assert_cmpuint (at, ==, expected->len / 2 + (hidden - index));
    }
    g_assert_cmpuint (strobe_log_list_find_index (list, G_MAXUINT64, &exact), ==, G_MAXUINT);
  }
  g_bytes_unref (g.bytes);
}

/* ---- search, escaping, arguments ------------------------------------------------------ */

static gboolean
matches (const char *terms, StrobeLogSearchFlags flags, const char *text)
{
  g_autoptr(StrobeLogSearch) s = strobe_log_search_new (terms, flags, NULL);

  g_assert_nonnull (s);
  return strobe_log_search_match (s, text, strlen (text), NULL);
}

static void
test_search (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeLogSearch) bad = NULL;
  g_autoptr(StrobeLogSearch) empty = strobe_log_search_new (" , ,- ", 0, NULL);

  g_assert_true (matches ("net", 0, "LogNet: lost"));
  g_assert_true (matches ("NET", 0, "lognet"));
  g_assert_false (matches ("NET", STROBE_LOG_SEARCH_CASE_SENSITIVE, "lognet"));
  g_assert_true (matches ("foo, lost", 0, "connection lost"));
  g_assert_false (matches ("foo,bar", 0, "connection lost"));
  g_assert_false (matches ("-lost", 0, "connection lost"));
  g_assert_true (matches ("-lost", 0, "connection kept"));
  /* An exclusion wins whatever the order (Tracy's ImGui filter stops at the first hit). */
  g_assert_false (matches ("connection,-lost", 0, "connection lost"));
  g_assert_false (matches ("-lost,connection", 0, "connection lost"));
  g_assert_true (matches ("  spaced  ", 0, "a spaced word"));
  /* The space form a user types (issue 24 item 19): "frame -draw" gave 0 rows, as one text. */
  g_assert_true (matches ("frame -draw", 0, "frame 12 took 3 ms"));
  g_assert_false (matches ("frame -draw", 0, "frame 12: draw calls"));
  g_assert_false (matches ("frame -draw -ui, net", 0, "net ui"));
  g_assert_true (matches ("frame -draw -ui, net", 0, "net up"));
  g_assert_true (matches ("frame\t-draw", 0, "frame 1"));
  /* Words without a minus stay one text; a lone minus is text; literal is literal. */
  g_assert_true (matches ("load level", 0, "load level 3"));
  g_assert_false (matches ("load level", 0, "level load"));
  g_assert_true (matches ("a - b", 0, "a - b"));
  g_assert_false (matches ("a - b", 0, "a b"));
  g_assert_true (matches ("frame -draw", STROBE_LOG_SEARCH_LITERAL, "frame -draw x"));
  g_assert_false (matches ("frame -draw", STROBE_LOG_SEARCH_LITERAL, "frame 1"));
  g_assert_true (matches ("a,b", STROBE_LOG_SEARCH_LITERAL, "x a,b y"));
  g_assert_false (matches ("a,b", STROBE_LOG_SEARCH_LITERAL, "a b"));
  g_assert_true (matches ("-x", STROBE_LOG_SEARCH_LITERAL, "a -x"));
  g_assert_true (matches ("ПРИВЕТ", 0, "привет мир"));
  g_assert_true (matches ("^conn.*lost$", STROBE_LOG_SEARCH_REGEX, "Connection lost"));
  g_assert_false (matches ("^lost", STROBE_LOG_SEARCH_REGEX, "connection lost"));
  g_assert_true (matches ("lo+st", STROBE_LOG_SEARCH_REGEX, "bad \xff utf-8 loost"));
  g_assert_true (strobe_log_search_is_empty (empty));
  g_assert_true (strobe_log_search_match (empty, "anything", 8, NULL));

  /* Predictions from the format alone. */
  {
    static const struct { const char *terms; const char *format; StrobeLogSearchVerdict v; } p[] = {
      { "took", "frame %lld took %.3f ms", STROBE_LOG_SEARCH_ALWAYS },
      { "TOOK", "frame %lld took %.3f ms", STROBE_LOG_SEARCH_ALWAYS },
      { "example.org", "frame %lld took %.3f ms", STROBE_LOG_SEARCH_NEVER },   /* no 'g', 'p' */
      { "example.org", "user %s from %s", STROBE_LOG_SEARCH_MAYBE },
      { "12.5", "frame %lld took %.3f ms", STROBE_LOG_SEARCH_MAYBE },
      { "-took", "frame %lld took %.3f ms", STROBE_LOG_SEARCH_NEVER },
      { "-zzz", "frame %lld took %.3f ms", STROBE_LOG_SEARCH_ALWAYS },
      { "zzz,took", "frame %lld", STROBE_LOG_SEARCH_NEVER },
      { "zzz,frame", "frame %lld", STROBE_LOG_SEARCH_ALWAYS },
      { "frame -draw", "frame %lld", STROBE_LOG_SEARCH_ALWAYS },
      { "frame -took", "frame %lld took %.3f ms", STROBE_LOG_SEARCH_NEVER },
      { "50%", "load 50%% now", STROBE_LOG_SEARCH_ALWAYS },
      { "(nil)", "ptr %p", STROBE_LOG_SEARCH_MAYBE },
      { "(?)", "value %d", STROBE_LOG_SEARCH_MAYBE },   /* a missing argument */
      { "%y", "odd %y conversion", STROBE_LOG_SEARCH_MAYBE },
      { "inf", "x=%f", STROBE_LOG_SEARCH_MAYBE },
      { "INF", "x=%F", STROBE_LOG_SEARCH_MAYBE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (p); i++)
      {
        g_autoptr(StrobeLogSearch) s = strobe_log_search_new (p[i].terms, 0, NULL);

        if (strobe_log_search_predict (s, p[i].format) != p[i].v)
          g_error ("\"%s\" in \"%s\": predicted %d, expected %d", p[i].terms, p[i].format,
                   strobe_log_search_predict (s, p[i].format), p[i].v);
      }
  }

  bad = strobe_log_search_new ("(unclosed", STROBE_LOG_SEARCH_REGEX, &error);
  g_assert_null (bad);
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_REGEX_ERROR);
}

static void
test_args (void)
{
  g_autoptr(GBytes) args = log_args ("ilsdp", -5, G_GINT64_CONSTANT (1) << 40, "a\x1bz", 0.5, (guint64) 0xbeef);
  g_autoptr(GArray) split = g_array_new (FALSE, FALSE, sizeof (StrobeLogArg));
  gsize len;
  const guint8 *data = g_bytes_get_data (args, &len);
  const char *expected[] = { "-5 (0xfffffffb)", "1099511627776 (0x0000010000000000)", "\"a\\u001bz\"", "0.5",
                             "0x000000000000beef" };
  const char *types[] = { "int32", "int64", "string", "double", "pointer64" };

  g_assert_true (strobe_log_args_split (data, len, split));
  g_assert_cmpuint (split->len, ==, 5);
  for (guint i = 0; i < split->len; i++)
    {
      g_autofree char *text = strobe_log_arg_to_string (&g_array_index (split, StrobeLogArg, i));

      g_assert_cmpstr (text, ==, expected[i]);
      g_assert_cmpstr (strobe_log_arg_type_name (g_array_index (split, StrobeLogArg, i).type), ==, types[i]);
    }
  /* Cut short: the values before the fault, and FALSE. */
  g_array_set_size (split, 0);
  g_assert_false (strobe_log_args_split (data, len - 3, split));
  g_assert_cmpuint (split->len, ==, 4);
  g_array_set_size (split, 0);
  g_assert_false (strobe_log_args_split ((const guint8 *) "\x09", 1, split));
  g_assert_cmpuint (split->len, ==, 0);
  g_assert_null (strobe_log_arg_type_name (0x77));
}

/* ---- export -------------------------------------------------------------------------- */

static GBytes *
odd_stream (void)
{
  g_autoptr(Tsb) b = log_stream_new ();
  g_autoptr(GBytes) a1 = log_args ("s", "a,b \"quoted\"\tand\nnewline\\");
  g_autoptr(GBytes) a2 = log_args ("i", 7);
  g_autoptr(GBytes) a3 = log_args ("s", "\x1b[2J");

  log_stream_category (b, 1, "Net", 5);
  log_stream_spec (b, 1, 1, "src/net.c", 12, 3, "got %s");
  log_stream_spec (b, 2, 1, "src/net, odd.c", 40, 2, "code %d");
  tsb_thread_info (b, 16, 1, 0, "main", "");
  log_stream_message (b, 16, 1000000000, 1, a1);
  log_stream_message (b, 16, 1500000000, 2, a2);
  log_stream_message (b, 16, 2000000000, 9, a2);   /* a site never announced */
  log_stream_message (b, 16, 2250000000, 1, a3);
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  return tsb_bytes (b);
}

typedef struct
{
  GMainLoop *loop;
  guint64    rows;
  GError    *error;
} ExportWait;

static void
export_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  ExportWait *w = data;

  strobe_log_export_finish (result, &w->rows, &w->error);
  g_main_loop_quit (w->loop);
}

static char *
export_to_string (StrobeLogList *list, StrobeLogExportFormat format, const StrobeTraceClock *clock,
                  GHashTable *names, guint64 *rows)
{
  g_autofree char *dir = g_dir_make_tmp ("strobe-log-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  ExportWait w = { g_main_loop_new (NULL, FALSE), 0, NULL };
  char *contents = NULL;

  strobe_log_export_async (list, format, clock, names, file, NULL, export_done_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_unlink (path);
  g_rmdir (dir);
  *rows = w.rows;
  return contents;
}

static void
test_export (void)
{
  g_autoptr(GBytes) bytes = odd_stream ();
  g_autoptr(StrobeLogModel) model = decode_bytes (bytes, 0);
  g_autoptr(StrobeLogList) list = strobe_log_list_new (model);
  g_autoptr(GHashTable) names = g_hash_table_new (NULL, NULL);
  StrobeTraceClock clock = { .frequency = 1000000000, .base = 500000000, .frequency_valid = TRUE };
  g_autofree char *csv = NULL, *tsv = NULL, *one = NULL;
  StrobeLogFilter f = { .max_verbosity = 3 };
  guint64 rows;

  g_hash_table_insert (names, GUINT_TO_POINTER (16), (gpointer) "main");
  csv = export_to_string (list, STROBE_LOG_EXPORT_CSV, &clock, names, &rows);
  g_assert_cmpuint (rows, ==, 4);
  g_assert_cmpstr (csv, ==,
    "time_s,thread,thread_name,category,verbosity,file,line,message\n"
    "0.500000000,16,main,Net,warning,src/net.c,12,\"got a,b \"\"quoted\"\"\tand\nnewline\\\"\n"
    "1.000000000,16,main,Net,error,\"src/net, odd.c\",40,code 7\n"
    "1.500000000,16,main,,none,,,(unknown log site 9)\n"
    "1.750000000,16,main,Net,warning,src/net.c,12,got \x1b[2J\n");

  /* TSV of what a filter shows (warnings and worse: the unknown site passes, it has no
   * verbosity), names unknown. */
  strobe_log_list_set_filter (list, &f);
  wait_idle (list);
  tsv = export_to_string (list, STROBE_LOG_EXPORT_TSV, &clock, NULL, &rows);
  g_assert_cmpuint (rows, ==, 4);
  f.max_verbosity = 2;
  strobe_log_list_set_filter (list, &f);
  wait_idle (list);
  g_free (tsv);
  tsv = export_to_string (list, STROBE_LOG_EXPORT_TSV, &clock, NULL, &rows);
  g_assert_cmpuint (rows, ==, 2);
  g_assert_cmpstr (tsv, ==,
    "time_s\tthread\tthread_name\tcategory\tverbosity\tfile\tline\tmessage\n"
    "1.000000000\t16\t\tNet\terror\tsrc/net, odd.c\t40\tcode 7\n"
    "1.500000000\t16\t\t\tnone\t\t\t(unknown log site 9)\n");

  /* One row, as Copy writes it: TSV escapes. */
  strobe_log_list_set_filter (list, NULL);
  {
    g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (list), 0);
    g_autoptr(GString) out = g_string_new (NULL);

    strobe_log_export_append_item (out, STROBE_LOG_EXPORT_TSV, item, &clock, "main");
    g_assert_cmpstr (out->str, ==,
      "0.500000000\t16\tmain\tNet\twarning\tsrc/net.c\t12\tgot a,b \"quoted\"\\tand\\nnewline\\\\\n");
    g_clear_object (&item);
    item = g_list_model_get_item (G_LIST_MODEL (list), 2);
    g_assert_false (strobe_log_item_is_well_formed (item));
  }
}

/* A message of 100 KB: the table's line is its first KiB, the text stays whole. */
static void
test_long_message (void)
{
  g_autoptr(Tsb) b = log_stream_new ();
  g_autofree char *big = g_strnfill (100000, 'x');
  g_autoptr(GBytes) args = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(StrobeLogModel) model = NULL;
  g_autoptr(StrobeLogList) list = NULL;
  g_autoptr(StrobeLogItem) item = NULL;
  const char *line;

  big[1023] = '\n';
  args = log_args ("s", big);
  log_stream_category (b, 1, "Big", 5);
  log_stream_spec (b, 1, 1, "big.c", 1, 5, "%s");
  log_stream_message (b, 16, 1000, 1, args);
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  bytes = tsb_bytes (b);
  model = decode_bytes (bytes, 0);
  list = strobe_log_list_new (model);
  item = g_list_model_get_item (G_LIST_MODEL (list), 0);
  g_assert_cmpuint (strlen (strobe_log_item_get_text (item)), ==, 100000);
  line = strobe_log_item_get_display_text (item);
  /* 1023 x, the newline escaped (two bytes), then the ellipsis. */
  g_assert_cmpuint (strlen (line), ==, 1023 + 2 + strlen ("…"));
  g_assert_true (g_str_has_suffix (line, "x\\n…"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  golden_path = g_getenv ("STROBE_GOLDEN_LOGMEM");
  g_assert_nonnull (golden_path);

  g_test_add_func ("/log-list/golden", test_golden);
  g_test_add_func ("/log-list/random-filters", test_random_filters);
  g_test_add_func ("/log-list/live", test_live);
  g_test_add_func ("/log-list/cancel", test_cancel);
  g_test_add_func ("/log-list/export", test_export);
  g_test_add_func ("/log-list/long-message", test_long_message);
  g_test_add_func ("/log-text/search", test_search);
  g_test_add_func ("/log-text/args", test_args);
  return g_test_run ();
}
