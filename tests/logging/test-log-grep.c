/* test-log-grep.c — the fast text filter against the slow truth.
 *
 * A text filter does not format every message the way the C library would: it skips the
 * sites whose format alone decides (strobe_log_search_predict), leaves out the numbers no
 * term can overlap (strobe_log_search_barriers), writes "%.3f" and its kin without
 * snprintf, and runs on several threads. Each shortcut must keep the answer exact, so
 * here every message of a generated trace is also formatted with snprintf by this test
 * and matched with strobe_log_search_match, for random needles made to hit digits, dots,
 * minus signs, letters and the joints between a number and the text around it — with and
 * without case, as Tracy's syntax, a literal, and the plain filter text; and the trace
 * read from a file (arguments read again from it, per thread; some split over two aux
 * records) and from memory.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <float.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "log-stream.h"
#include "strobe-decoder.h"
#include "strobe-log-format.h"
#include "strobe-log-model.h"
#include "strobe-log-search.h"
#include "strobe-log-tally.h"
#include "strobe-text-find.h"

/* ---- %f without snprintf ------------------------------------------------------------ */

static double
random_double (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 10))
    {
    case 0:   /* any bit pattern that is finite */
      for (;;)
        {
          guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
          double d;

          memcpy (&d, &bits, sizeof d);
          if (isfinite (d))
            return d;
        }
    case 1:   /* ties at some decimal: k / 2^j */
      return (double) g_rand_int_range (rand, -100000, 100000) / (double) (1u << g_rand_int_range (rand, 0, 12));
    case 2:
      return g_rand_double_range (rand, -1e-6, 1e-6);
    case 3:
      return g_rand_double_range (rand, -1e18, 1e18);
    case 4:
      return (double) (g_rand_int (rand) % 10000) / 7.0;
    case 5:
      return ldexp (g_rand_double (rand), g_rand_int_range (rand, -1074, 70));
    case 6:
      return g_rand_boolean (rand) ? -0.0 : 0.0;
    case 7:
      return (double) g_rand_int_range (rand, -1000, 1000) + 0.5;
    default:
      return g_rand_double_range (rand, -1e6, 1e6);
    }
}

static void
test_fixed (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  static const double special[] = {
    0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1e-320, -1e-320, DBL_MIN, DBL_MAX, -DBL_MAX,
    9223372036854775807.0, 9.2e18, 922337203685477.5, 0.0005, 0.0015, 0.0025, 1.0005,
    2.675, 1e15 + 0.3, 4503599627370495.5, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0,
  };
  guint compared = 0, alone = 0;

  for (guint i = 0; i < 300000; i++)
    {
      double d = i < G_N_ELEMENTS (special) * 22 ? special[i / 22] : random_double (rand);
      int precision = i < G_N_ELEMENTS (special) * 22 ? (int) (i % 22) - 1 : g_rand_int_range (rand, -1, 21);
      char format[16], want[512];
      g_autoptr(GBytes) args = log_args ("d", d);
      g_autoptr(GString) got = g_string_new (NULL);
      gsize len;
      const guint8 *data = g_bytes_get_data (args, &len);
      char conversion = g_rand_int_range (rand, 0, 4) == 0 ? 'F' : 'f';

      if (precision < 0)
        g_snprintf (format, sizeof format, "<%%%c>", conversion);
      else
        g_snprintf (format, sizeof format, "<%%.%d%c>", precision, conversion);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      snprintf (want, sizeof want, format, d);
#pragma GCC diagnostic pop
      g_assert_true (strobe_log_format (format, data, len, got));
      if (strcmp (got->str, want) != 0)
        g_error ("%s of %a: got %s, printf wrote %s", format, d, got->str, want);
      compared++;
      /* Alone (strobe-cli log's times): what it writes, when it writes, is printf's. */
      g_string_truncate (got, 0);
      if (strobe_log_format_fixed (got, d, precision < 0 ? 6 : precision))
        {
          snprintf (want, sizeof want, "%.*f", precision < 0 ? 6 : precision, d);
          if (strcmp (got->str, want) != 0)
            g_error ("%%.%df of %a alone: got %s, printf wrote %s", precision < 0 ? 6 : precision, d, got->str, want);
          alone++;
        }
    }
  g_test_message ("%u numbers compared, %u of them alone", compared, alone);
  g_assert_cmpuint (alone, >, compared / 2);
}

/* ---- barriers ---------------------------------------------------------------------- */

static void
test_barriers (void)
{
  static const struct { const char *terms; StrobeLogSearchFlags flags; const char *format; guint64 mask; } cases[] = {
    /* %u, %s, %.3f: conversions 0, 1, 2 */
    { "example.org", 0, "request %u from %s took %.3f ms", 0x5 },
    { "7", 0, "request %u from %s took %.3f ms", 0x0 },
    { "ms", 0, "request %u from %s took %.3f ms", 0x5 },
    { "a", 0, "request %u from %s took %.3f ms", 0x1 },          /* "nan" */
    { "took 1", 0, "request %u from %s took %.3f ms", 0x0 },     /* may end in a number */
    { "5 from", 0, "request %u from %s took %.3f ms", 0x0 },     /* may start in one */
    { "s took", 0, "request %u from %s took %.3f ms", 0x5 },
    { "x", 0, "%x %d", 0x2 },
    { "X", STROBE_LOG_SEARCH_CASE_SENSITIVE, "%x %X", 0x0 },     /* "%#x" writes 0x */
    { "q", 0, "%x %X %o %e %g %a %p %c %s", 0x7f },
    { "e", 0, "%d %e %f", 0x5 },
    { "inf", 0, "%f", 0x0 },
    { "zzz,-7", 0, "%d", 0x0 },                                  /* the exclusion may */
    { "zzz,-q", 0, "%d %.0d %.*d %d", 0x9 },                     /* %.0d of 0 writes nothing */
    { "a\x01" "b", STROBE_LOG_SEARCH_LITERAL, "%d", 0x0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(StrobeLogSearch) s = strobe_log_search_new (cases[i].terms, cases[i].flags, NULL);
      guint64 got = strobe_log_search_barriers (s, cases[i].format);

      if (got != cases[i].mask)
        g_error ("\"%s\" in \"%s\": barriers 0x%" G_GINT64_MODIFIER "x, expected 0x%" G_GINT64_MODIFIER "x",
                 cases[i].terms, cases[i].format, got, cases[i].mask);
    }
  {
    g_autoptr(StrobeLogSearch) re = strobe_log_search_new ("a.c", STROBE_LOG_SEARCH_REGEX, NULL);
    g_assert_cmpuint (strobe_log_search_barriers (re, "%d %d"), ==, 0);
  }
}

/* ---- the filter against formatting every message ------------------------------------ */

#define N_MESSAGES 60000
#define N_FORMATS  12

static const char *const formats[N_FORMATS] = {
  "request %u from %s took %.3f ms",
  "value %f",
  "%d items, %d left",
  "t=%.0f s",
  "%s",
  "pos %d,%d",
  "%x %X",
  "ratio %.2e (%g)",
  "[%6.2f|%-5d]",
  "%lld bytes at %p",
  "Frame %u: %.1f%% of %s",
  "no arguments here",
};

static const char *const words[] = {
  "alice", "Bob", "example.org", "Textures", "-", "1.5", "a-b", "x.y.z", "MIXED case", "",
};

typedef struct
{
  GBytes    *bytes;
  GPtrArray *texts;   /* char *, snprintf's, in time order */
} Trace;

static gint64
random_int (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 4))
    {
    case 0: return g_rand_int_range (rand, -10, 10);
    case 1: return g_rand_int_range (rand, -100000, 100000);
    case 2: return (gint32) g_rand_int (rand);
    default: return g_rand_int_range (rand, 0, 1000);
    }
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* One message of format @k: its encoded arguments and what printf writes for it. */
static GBytes *
make_message (GRand *rand, guint k, char **text)
{
  const char *fmt = formats[k];
  const char *w = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];
  gint32 a = (gint32) random_int (rand), b = (gint32) random_int (rand);
  gint64 l = random_int (rand) * 1000003;
  guint64 p = g_rand_boolean (rand) ? 0 : 0x7f0000000000ull + g_rand_int (rand);
  double d = random_double (rand), e = random_double (rand);

  if (g_rand_int_range (rand, 0, 200) == 0)
    d = g_rand_boolean (rand) ? INFINITY : -NAN;
  switch (k)
    {
    case 0: *text = g_strdup_printf (fmt, (unsigned) a, w, d); return log_args ("isd", a, w, d);
    case 1: *text = g_strdup_printf (fmt, d); return log_args ("d", d);
    case 2: *text = g_strdup_printf (fmt, a, b); return log_args ("ii", a, b);
    case 3: *text = g_strdup_printf (fmt, d); return log_args ("d", d);
    case 4: *text = g_strdup_printf (fmt, w); return log_args ("s", w);
    case 5: *text = g_strdup_printf (fmt, a, b); return log_args ("ii", a, b);
    case 6: *text = g_strdup_printf (fmt, (unsigned) a, (unsigned) b); return log_args ("ii", a, b);
    case 7: *text = g_strdup_printf (fmt, d, e); return log_args ("dd", d, e);
    case 8: *text = g_strdup_printf (fmt, d, a); return log_args ("di", d, a);
    case 9: *text = g_strdup_printf (fmt, (long long) l, (void *) (guintptr) p); return log_args ("lp", l, p);
    case 10: *text = g_strdup_printf (fmt, (unsigned) a, d, w); return log_args ("ids", a, d, w);
    default: *text = g_strdup (fmt); return NULL;
    }
}

#pragma GCC diagnostic pop

static Trace
generate (guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  Tsb *b = log_stream_new ();
  Trace t = { NULL, g_ptr_array_new_with_free_func (g_free) };
  guint64 clock = 1000;

  log_stream_category (b, 1, "Grep", 5);
  for (guint k = 0; k < N_FORMATS; k++)
    log_stream_spec (b, k + 1, 1, "grep.c", (gint32) k, 5, formats[k]);
  for (guint16 tid = 16; tid < 20; tid++)
    tsb_thread_info (b, tid, 100 + tid, tid, "worker", "");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  /* Times only grow, so the time order is the order written here. */
  for (guint i = 0; i < N_MESSAGES; i++)
    {
      guint k = (guint) g_rand_int_range (rand, 0, N_FORMATS);
      guint16 tid = (guint16) (16 + g_rand_int_range (rand, 0, 4));
      char *text = NULL;
      g_autoptr(GBytes) args = make_message (rand, k, &text);

      clock += 1 + (guint64) g_rand_int_range (rand, 0, 20);
      /* Now and then the arguments in two aux records: the filter joins them. */
      if (args != NULL && g_bytes_get_size (args) > 1 && i % 5 == 0)
        log_stream_message_split (b, tid, clock, k + 1, args,
                                  (gsize) g_rand_int_range (rand, 1, (gint32) g_bytes_get_size (args)));
      else
        log_stream_message (b, tid, clock, k + 1, args);
      g_ptr_array_add (t.texts, text);
      if (g_rand_int_range (rand, 0, 64) == 0)
        tsb_flush_all (b, g_rand_boolean (rand) ? TSB_LZ4 : TSB_RAW);
    }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  t.bytes = tsb_bytes (b);
  tsb_free (b);
  return t;
}

/* A needle made to hit: a piece of some message, often around a number's edge. */
static char *
random_needle (GRand *rand, GPtrArray *texts)
{
  static const char alphabet[] = "0123456789.-+e xafinmsORG,";

  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      guint n = (guint) g_rand_int_range (rand, 1, 5);
      char *s = g_malloc (n + 1);

      for (guint i = 0; i < n; i++)
        s[i] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      s[n] = '\0';
      return s;
    }
  for (;;)
    {
      const char *text = g_ptr_array_index (texts, g_rand_int_range (rand, 0, (gint32) texts->len));
      gsize len = strlen (text), at, n;
      char *s;

      if (len == 0)
        continue;
      at = (gsize) g_rand_int_range (rand, 0, (gint32) len);
      n = MIN (len - at, (gsize) g_rand_int_range (rand, 1, 8));
      s = g_strndup (text + at, n);
      /* Case flipped now and then: case-insensitive searches must still find it. */
      if (g_rand_int_range (rand, 0, 4) == 0)
        for (char *c = s; *c; c++)
          *c = g_ascii_isupper (*c) ? g_ascii_tolower (*c) : g_ascii_toupper (*c);
      return s;
    }
}

static StrobeLogModel *
load (GBytes *bytes, const char *path)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  StrobeLogModel *model = strobe_log_model_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  if (path != NULL)
    {
      g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, NULL));
      strobe_decoder_read_file (decoder, path, NULL, &error);
    }
  else
    {
      strobe_decoder_feed (decoder, data, len, &error);
      g_assert_no_error (error);
      strobe_decoder_finish (decoder, &error);
    }
  g_assert_no_error (error);
  return model;
}

static void
cross_check (StrobeLogModel *model, GPtrArray *texts, const StrobeLogFilter *f, const StrobeLogSearch *truth,
             const char *what)
{
  g_autoptr(GArray) got = strobe_log_model_filter (model, f, 0, G_MAXUINT64);
  g_autoptr(GString) scratch = g_string_new (NULL);
  guint k = 0;

  for (guint i = 0; i < texts->len; i++)
    {
      const char *text = g_ptr_array_index (texts, i);
      gboolean want = strobe_log_search_match (truth, text, strlen (text), scratch);
      gboolean have = k < got->len && g_array_index (got, guint64, k) == i;

      if (want != have)
        g_error ("%s: message %u \"%s\" %s, the filter %s it", what, i, text,
                 want ? "matches" : "does not match", have ? "kept" : "dropped");
      k += have;
    }
  g_assert_cmpuint (k, ==, got->len);
}

/* strobe-cli log --count's way: the same filter counted while the trace is decoded (the
 * arguments as the decoder has them, formatted on worker threads) gives the model's count. */
static void
check_tally (StrobeLogModel *model, GBytes *bytes, const char *path, const StrobeLogFilter *f, const char *what)
{
  g_autoptr(GArray) want = strobe_log_model_filter (model, f, 0, G_MAXUINT64);
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeLogTally) tally = strobe_log_tally_new (f);
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (tally));
  if (path != NULL)
    strobe_decoder_read_file (decoder, path, NULL, &error);
  else
    {
      strobe_decoder_feed (decoder, data, len, &error);
      g_assert_no_error (error);
      strobe_decoder_finish (decoder, &error);
    }
  g_assert_no_error (error);
  g_assert_true (strobe_log_tally_is_exact (tally));
  if (strobe_log_tally_get_count (tally) != want->len)
    g_error ("%s: the tally counted %" G_GUINT64_FORMAT ", the model's filter kept %u", what,
             strobe_log_tally_get_count (tally), want->len);
}

static void
run_cross_check (gboolean from_file)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (from_file ? 7 : 8);
  Trace t = generate (from_file ? 33 : 34);
  g_autofree char *dir = g_dir_make_tmp ("strobe-log-grep-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "grep.strobe", NULL);
  g_autoptr(StrobeLogModel) model = load (t.bytes, from_file ? path : NULL);
  guint hits = 0;

  g_assert_cmpuint (strobe_log_model_get_count (model), ==, N_MESSAGES);
  /* The model's own text of a few messages is snprintf's too. */
  for (guint i = 0; i < N_MESSAGES; i += 997)
    {
      StrobeLogMessage msg;

      g_assert_true (strobe_log_model_get_message (model, i, &msg));
      g_assert_cmpstr (msg.text, ==, g_ptr_array_index (t.texts, i));
      g_free (msg.text);
    }
  /* In batches (what strobe-cli log prints through): the same messages, texts included,
   * and an index out of range ends the batch. */
  {
    guint64 idx[300];
    StrobeLogMessage batch[300];
    guint got;

    for (guint i = 0; i < G_N_ELEMENTS (idx); i++)
      idx[i] = i < 299 ? (guint64) i * 199 : N_MESSAGES;
    got = strobe_log_model_get_messages (model, idx, G_N_ELEMENTS (idx), batch);
    g_assert_cmpuint (got, ==, 299);
    for (guint i = 0; i < got; i++)
      {
        StrobeLogMessage one;

        g_assert_true (strobe_log_model_get_message (model, idx[i], &one));
        g_assert_cmpuint (batch[i].index, ==, idx[i]);
        g_assert_cmpuint (batch[i].time, ==, one.time);
        g_assert_cmpuint (batch[i].thread_id, ==, one.thread_id);
        g_assert_cmpuint (batch[i].verbosity, ==, one.verbosity);
        g_assert_true (batch[i].spec == one.spec);
        g_assert_cmpstr (batch[i].text, ==, one.text);
        g_assert_cmpstr (batch[i].text, ==, g_ptr_array_index (t.texts, idx[i]));
        g_free (one.text);
        g_free (batch[i].text);
      }
  }
  for (guint round = 0; round < 40; round++)
    {
      g_autofree char *needle = random_needle (rand, t.texts);
      g_autofree char *second = random_needle (rand, t.texts);
      static const StrobeLogSearchFlags kinds[] = {
        STROBE_LOG_SEARCH_DEFAULT, STROBE_LOG_SEARCH_CASE_SENSITIVE, STROBE_LOG_SEARCH_LITERAL,
        STROBE_LOG_SEARCH_LITERAL | STROBE_LOG_SEARCH_CASE_SENSITIVE,
      };
      StrobeLogSearchFlags flags = kinds[round % G_N_ELEMENTS (kinds)];
      /* Tracy's syntax with two terms now and then, one of them an exclusion. */
      g_autofree char *text = round % 8 == 0 ? g_strdup_printf ("%s,-%s", needle, second)
                            : round % 8 == 4 ? g_strdup_printf ("%s,%s", needle, second)
                            : g_strdup (needle);
      g_autoptr(StrobeLogSearch) search = strobe_log_search_new (text, flags, NULL);
      g_autofree char *what = g_strdup_printf ("search \"%s\" (flags %d, %s)", text, flags,
                                               from_file ? "file" : "memory");
      StrobeLogFilter f = { .search = search };

      g_assert_nonnull (search);
      cross_check (model, t.texts, &f, search, what);
      check_tally (model, t.bytes, from_file ? path : NULL, &f, what);
      /* The filter's plain text: a literal substring, with or without case. */
      {
        g_autoptr(StrobeLogSearch) literal = strobe_log_search_new (needle, STROBE_LOG_SEARCH_LITERAL |
                                                                     (round % 2 ? 0 : STROBE_LOG_SEARCH_CASE_SENSITIVE), NULL);
        StrobeLogFilter plain = { .text = needle, .ignore_case = round % 2 == 1 };
        g_autoptr(GArray) all = strobe_log_model_filter (model, &plain, 0, G_MAXUINT64);

        cross_check (model, t.texts, &plain, literal, "plain text");
        check_tally (model, t.bytes, from_file ? path : NULL, &plain, "plain text");
        hits += all->len;
      }
    }
  /* The needles were made to hit: a test that only ever saw empty answers proves little. */
  g_assert_cmpuint (hits, >, 1000);
  g_unlink (path);
  g_rmdir (dir);
  g_bytes_unref (t.bytes);
  g_ptr_array_unref (t.texts);
}

static void
test_cross_check_file (void)
{
  run_cross_check (TRUE);
}

static void
test_cross_check_memory (void)
{
  run_cross_check (FALSE);
}

/* ---- the substring finder against the obvious loop ----------------------------------- */

static const char *
find_slowly (const char *needle, gsize n, const char *text, gsize len)
{
  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (text + i, needle, n) == 0)
      return text + i;
  return NULL;
}

/* Texts and needles from a few bytes (NUL among them), so that partial matches, matches
 * at either end and across the sixteen-byte steps are common; the text at the end of its
 * allocation, so a read past it is ASan's to see. */
static void
test_text_find (void)
{
  static const char alphabet[] = { 'a', 'e', 'x', '.', ' ', '\0', 'E' };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261206);
  guint found = 0;

  for (guint round = 0; round < 200000; round++)
    {
      gsize len = (gsize) g_rand_int_range (rand, 0, 80), n = (gsize) g_rand_int_range (rand, 0, 12);
      guint letters = (guint) g_rand_int_range (rand, 2, sizeof alphabet + 1);
      char needle[12];
      g_autofree char *text = g_malloc (len ? len : 1);
      StrobeTextFinder finder;
      const char *want, *got;

      for (gsize i = 0; i < n; i++)
        needle[i] = alphabet[g_rand_int_range (rand, 0, (gint32) letters)];
      for (gsize i = 0; i < len; i++)
        text[i] = alphabet[g_rand_int_range (rand, 0, (gint32) letters)];
      /* Often the needle is planted, at a random place. */
      if (n <= len && g_rand_boolean (rand))
        memcpy (text + g_rand_int_range (rand, 0, (gint32) (len - n + 1)), needle, n);
      strobe_text_finder_init (&finder, needle, n);
      want = find_slowly (needle, n, text, len);
      got = strobe_text_finder_find (&finder, text, len);
      if (got != want)
        g_error ("round %u: needle of %zu bytes in a text of %zu: found at %td, the loop at %td", round, n, len,
                 got ? got - text : (ptrdiff_t) -1, want ? want - text : (ptrdiff_t) -1);
      found += want != NULL;
      strobe_text_finder_clear (&finder);
    }
  g_assert_cmpuint (found, >, 50000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  setlocale (LC_ALL, "C");
  g_test_add_func ("/log-grep/fixed", test_fixed);
  g_test_add_func ("/log-grep/barriers", test_barriers);
  g_test_add_func ("/log-grep/cross-check-file", test_cross_check_file);
  g_test_add_func ("/log-grep/cross-check-memory", test_cross_check_memory);
  g_test_add_func ("/log-grep/text-find", test_text_find);
  return g_test_run ();
}
