/* test-log-format.c — deferred formatting against snprintf, end to end: messages go
 * through the real runtime (argument encoding from the va_list, a trace file), the
 * decoder and StrobeLogModel, and every formatted text must equal what snprintf wrote for
 * the same format and arguments in this process.
 *
 * Two sets: literal sites (STROBE_LOG_MESSAGE, compile-time checked), and a generated
 * cross product of conversions × flags × widths × precisions (both also as '*') × length
 * modifiers × values, emitted through per-format specs built at run time.
 */
#include "config.h"

#include <float.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

#include <strobe/strobe.h>

#include "strobe-decoder.h"
#include "strobe-log-format.h"
#include "strobe-log-model.h"

STROBE_LOG_CATEGORY_DEFINE (LogTest, STROBE_LOG_VERBOSITY_LOG);
STROBE_LOG_CATEGORY_DEFINE (LogQuiet, STROBE_LOG_VERBOSITY_WARNING);

static GPtrArray *expected;   /* char *, in emission order */
static GPtrArray *specs;      /* the run-time specs, freed at the end */

static void
spec_free (gpointer data)
{
  StrobeLogSpec *spec = data;

  free ((void *) spec->compiled);   /* the runtime's argument plan (malloc) */
  g_free ((char *) spec->format);
  g_free (spec);
}

static StrobeLogSpec *
new_spec (const char *format)
{
  StrobeLogSpec *spec = g_new0 (StrobeLogSpec, 1);

  spec->verbosity = STROBE_LOG_LOG;
  spec->category = &LogTest;
  spec->file = __FILE__;
  spec->line = __LINE__;
  spec->format = g_strdup (format);
  g_ptr_array_add (specs, spec);
  return spec;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"

static void
expect (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
static void
expect (const char *fmt, ...)
{
  va_list ap;
  char *s;

  va_start (ap, fmt);
  g_assert_cmpint (vasprintf (&s, fmt, ap), >=, 0);
  va_end (ap);
  g_ptr_array_add (expected, g_strdup (s));
  free (s);
}

/* Both the site and the expectation, from one literal. */
#define CASE(...)                                                                          \
  do                                                                                       \
    {                                                                                      \
      expect (__VA_ARGS__);                                                                \
      STROBE_LOG_MESSAGE (LogTest, STROBE_LOG_LOG, __VA_ARGS__);                           \
    }                                                                                      \
  while (0)

static void
emit_literal_cases (void)
{
  char unterminated[3] = { 'a', 'b', 'c' };
  int n = 0;

  CASE ("plain text, no conversions");
  CASE ("percent %% sign");
  CASE ("%d %i %u %x %X %o", -42, 42, 42u, 0xbeefu, 0xbeefu, 8u);
  CASE ("%c%c%c", 'a', 'b', 'c');
  CASE ("[%5c] [%-5c]", 'x', 'y');
  CASE ("%s and %10s and %-10s|", "str", "right", "left");
  CASE ("%.3s|%.*s|%-*.*s|", unterminated, 2, unterminated, 6, 1, unterminated);
  CASE ("%.0s|%.10s", "gone", "short");
  CASE ("%p %p", (void *) 0, (void *) (uintptr_t) 0xdeadbeef);
  CASE ("%f %F %e %E %g %G", 3.14159, -2.5, 12345.678, 1e-300, 0.0001, 1e20);
  CASE ("%a %A", 1.0, -0.5);
  CASE ("%Lf %Le %Lg %.20Lf", 3.141592653589793238L, 1e-4000L, 1e4000L, 1.0L / 3.0L);
  CASE ("%f %f %f", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0);
  CASE ("%hhd %hhu %hd %hu", 300, 300, 70000, 70000);
  CASE ("%ld %lu %lld %llu", LONG_MIN, ULONG_MAX, LLONG_MIN, ULLONG_MAX);
  CASE ("%zu %zd %jd %ju %td", (size_t) -1, (ssize_t) -5, INTMAX_MIN, UINTMAX_MAX, (ptrdiff_t) -7);
  CASE ("%*d|%-*d|%*d", 8, 1, 8, 2, -8, 3);
  CASE ("%.*f|%.*f|%*.*e", 2, 3.14159, -1, 2.5, 12, 3, 6.02e23);
  CASE ("%+d % d %+.3d %08.3f %-8d| %#x %#o %#.0f %#g", 5, 5, 5, -3.5, 7, 255u, 8u, 2.0, 1.0);
  CASE ("%'d %'.2f", 1234567, 1234567.891);
  CASE ("%ls|%5ls|%.2ls", L"wide", L"ab", L"xyz");
  CASE ("count%n here", &n);
  CASE ("%s", "");
  CASE ("%llx %llX %llo", 0xfedcba9876543210ull, 0x0123456789abcdefull, 0777777777777777ull);
  CASE ("many %d %d %d %d %d %d %d %d %d %d %s %f", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "eleven", 12.0);
}

/* ---- the generated cross product ------------------------------------------------- */

typedef enum { V_INT, V_LONG, V_LLONG, V_SIZE, V_INTMAX, V_PTRDIFF, V_DOUBLE, V_LDOUBLE,
               V_STRING, V_POINTER } ValueKind;

typedef struct
{
  long long   i;
  long double d;
  const char *s;
} Value;

/* Calls @f (snprintf-like or the log emitter) with the value typed as @kind, after 0-2
 * leading ints. */
#define DISPATCH(CALL, kind, v, nstar, s1, s2)                                             \
  switch (kind)                                                                            \
    {                                                                                      \
    case V_INT: CALL ((int) (v).i, nstar, s1, s2); break;                                  \
    case V_LONG: CALL ((long) (v).i, nstar, s1, s2); break;                                \
    case V_LLONG: CALL ((long long) (v).i, nstar, s1, s2); break;                          \
    case V_SIZE: CALL ((size_t) (v).i, nstar, s1, s2); break;                              \
    case V_INTMAX: CALL ((intmax_t) (v).i, nstar, s1, s2); break;                          \
    case V_PTRDIFF: CALL ((ptrdiff_t) (v).i, nstar, s1, s2); break;                        \
    case V_DOUBLE: CALL ((double) (v).d, nstar, s1, s2); break;                            \
    case V_LDOUBLE: CALL ((long double) (v).d, nstar, s1, s2); break;                      \
    case V_STRING: CALL ((const char *) (v).s, nstar, s1, s2); break;                      \
    case V_POINTER: CALL ((void *) (uintptr_t) (v).i, nstar, s1, s2); break;               \
    }

static char *cur_fmt;
static StrobeLogSpec *cur_spec;

#define CALL_EXPECT(x, nstar, s1, s2)                                                      \
  do                                                                                       \
    {                                                                                      \
      if ((nstar) == 0) expect (cur_fmt, x);                                               \
      else if ((nstar) == 1) expect (cur_fmt, s1, x);                                      \
      else expect (cur_fmt, s1, s2, x);                                                    \
    }                                                                                      \
  while (0)

#define CALL_LOG(x, nstar, s1, s2)                                                         \
  do                                                                                       \
    {                                                                                      \
      if ((nstar) == 0) strobe__log_message (cur_spec, cur_fmt, x);                        \
      else if ((nstar) == 1) strobe__log_message (cur_spec, cur_fmt, s1, x);               \
      else strobe__log_message (cur_spec, cur_fmt, s1, s2, x);                             \
    }                                                                                      \
  while (0)

static guint generated;

static void
emit_one (const char *fmt, ValueKind kind, const Value *v, int nstar, int s1, int s2)
{
  StrobeLogSpec *spec = new_spec (fmt);

  cur_fmt = (char *) spec->format;
  cur_spec = spec;
  DISPATCH (CALL_EXPECT, kind, *v, nstar, s1, s2);
  DISPATCH (CALL_LOG, kind, *v, nstar, s1, s2);
  generated++;
}

typedef struct
{
  char        conv;
  const char *lengths[9];     /* NULL-terminated */
  gboolean    precision_ok;
  const char *flags_ok;       /* flags allowed with it */
} ConvInfo;

static ValueKind
kind_for (char conv, const char *len)
{
  if (strchr ("diuxXoc", conv))
    {
      if (g_str_equal (len, "l")) return V_LONG;
      if (g_str_equal (len, "ll")) return V_LLONG;
      if (g_str_equal (len, "z")) return V_SIZE;
      if (g_str_equal (len, "j")) return V_INTMAX;
      if (g_str_equal (len, "t")) return V_PTRDIFF;
      return V_INT;
    }
  if (strchr ("fFeEgGaA", conv))
    return g_str_equal (len, "L") ? V_LDOUBLE : V_DOUBLE;
  if (conv == 's')
    return V_STRING;
  return V_POINTER;
}

/* Formats the compiler would reject: the writer and the formatter must still agree with
 * printf on them. */
static void
emit_odd_formats (void)
{
  static const char *const odd[] = { "%5%|%-5%|", "unknown %y conversion", "%%%%%%", NULL };

  for (guint i = 0; odd[i]; i++)
    {
      StrobeLogSpec *spec = new_spec (odd[i]);

      expect (odd[i]);
      strobe__log_message (spec, odd[i]);
    }
}

static void
emit_generated_cases (void)
{
  static const char *const int_lengths[] = { "", "hh", "h", "l", "ll", "z", "j", "t", NULL };
  static const ConvInfo convs[] = {
    { 'd', { 0 }, TRUE, "-+ 0'" }, { 'i', { 0 }, TRUE, "-+ 0" }, { 'u', { 0 }, TRUE, "-0'" },
    { 'x', { 0 }, TRUE, "-#0" }, { 'X', { 0 }, TRUE, "-#0" }, { 'o', { 0 }, TRUE, "-#0" },
    { 'c', { "", NULL }, FALSE, "-" },
    { 'f', { "", "L", NULL }, TRUE, "-+ #0'" }, { 'F', { "", "L", NULL }, TRUE, "-+ #0" },
    { 'e', { "", "L", NULL }, TRUE, "-+ #0" }, { 'E', { "", "L", NULL }, TRUE, "-+ #0" },
    { 'g', { "", "L", NULL }, TRUE, "-+ #0" }, { 'G', { "", "L", NULL }, TRUE, "-+ #0" },
    { 'a', { "", "L", NULL }, TRUE, "-+ #0" }, { 'A', { "", NULL }, TRUE, "-+ #0" },
    { 's', { "", NULL }, TRUE, "-" },
    { 'p', { "", NULL }, FALSE, "-" },
  };
  static const char *const flag_sets[] = { "", "-", "+", " ", "#", "0", "'", "-+", "+0", " 0", "#0", "-#", NULL };
  static const char *const widths[] = { "", "1", "7", "*", NULL };
  static const char *const precisions[] = { "", ".0", ".3", ".*", NULL };
  static const int star_values[] = { 9, -4 };
  Value ints[] = { { 0, 0, NULL }, { 42, 0, NULL }, { -1, 0, NULL }, { LLONG_MIN, 0, NULL }, { 300, 0, NULL } };
  Value floats[] = { { 0, 0.0L, NULL }, { 0, -1.5L, NULL }, { 0, 123456.789L, NULL }, { 0, 1e-7L, NULL },
                     { 0, 1e300L, NULL } };
  Value chars[] = { { 'A', 0, NULL }, { ' ', 0, NULL } };
  Value strings[] = { { 0, 0, "" }, { 0, 0, "hello" }, { 0, 0, "a longer string" } };
  Value pointers[] = { { 0, 0, NULL }, { 0x1234, 0, NULL }, { 0x7fffdeadbeef, 0, NULL } };

  for (guint c = 0; c < G_N_ELEMENTS (convs); c++)
    {
      const ConvInfo *ci = &convs[c];
      const char *const *lengths = ci->lengths[0] ? ci->lengths : int_lengths;
      const Value *values;
      guint n_values;

      switch (ci->conv)
        {
        case 'c': values = chars; n_values = G_N_ELEMENTS (chars); break;
        case 's': values = strings; n_values = G_N_ELEMENTS (strings); break;
        case 'p': values = pointers; n_values = G_N_ELEMENTS (pointers); break;
        default:
          if (strchr ("fFeEgGaA", ci->conv))
            values = floats, n_values = G_N_ELEMENTS (floats);
          else
            values = ints, n_values = G_N_ELEMENTS (ints);
        }
      for (guint l = 0; lengths[l]; l++)
        for (guint f = 0; flag_sets[f]; f++)
          {
            gboolean flags_ok = TRUE;

            for (const char *p = flag_sets[f]; *p; p++)
              flags_ok &= strchr (ci->flags_ok, *p) != NULL;
            if (!flags_ok)
              continue;
            for (guint w = 0; widths[w]; w++)
              for (guint p = 0; precisions[p]; p++)
                {
                  g_autofree char *fmt = NULL;

                  if (!ci->precision_ok && *precisions[p])
                    continue;
                  fmt = g_strdup_printf ("<%%%s%s%s%s%c>", flag_sets[f], widths[w], precisions[p],
                                         lengths[l], ci->conv);
                  for (guint v = 0; v < n_values; v++)
                    for (guint sv = 0; sv < 2; sv++)
                      {
                        gboolean ws = g_str_equal (widths[w], "*"), ps = g_str_equal (precisions[p], ".*");
                        int nstar = ws + ps;
                        int s1 = star_values[sv], s2 = star_values[1 - sv];

                        if (nstar == 0 && sv == 1)
                          continue;
                        emit_one (fmt, kind_for (ci->conv, lengths[l]), &values[v], nstar, s1, s2);
                      }
                }
          }
    }
}

#pragma GCC diagnostic pop

/* ---- the round trip ---------------------------------------------------------------- */

static StrobeLogModel *
decode_file (const char *path)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  StrobeLogModel *model = strobe_log_model_new ();
  g_autoptr (GError) error = NULL;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  g_assert_no_error (error);
  return model;
}

static char *trace_path;

static void
test_round_trip (void)
{
  g_autoptr (StrobeLogModel) model = decode_file (trace_path);
  guint64 n = strobe_log_model_get_count (model);

  g_assert_cmpuint (n, ==, expected->len);
  for (guint64 i = 0; i < n; i++)
    {
      StrobeLogMessage msg;

      g_assert_true (strobe_log_model_get_message (model, i, &msg));
      if (g_strcmp0 (msg.text, expected->pdata[i]) != 0)
        g_error ("message %" G_GUINT64_FORMAT " (format \"%s\"): got \"%s\", snprintf wrote \"%s\"",
                 i, msg.spec ? msg.spec->format : "?", msg.text, (char *) expected->pdata[i]);
      g_free (msg.text);
    }
  g_assert_cmpuint (strobe_log_model_get_format_errors (model), ==, 0);
  g_test_message ("%u messages compared, %u generated", expected->len, generated);
}

static void
test_filters (void)
{
  g_autoptr (StrobeLogModel) model = decode_file (trace_path);
  const StrobeLogCategoryInfo *quiet = strobe_log_model_find_category (model, "LogQuiet");
  StrobeLogFilter f = { 0 };
  g_autoptr (GArray) warn = NULL, quiet_only = NULL, hello = NULL, hello_ci = NULL;
  StrobeLogMessage msg;

  g_assert_nonnull (quiet);
  g_assert_cmpuint (quiet->default_verbosity, ==, STROBE_LOG_WARNING);
  f.max_verbosity = STROBE_LOG_WARNING;
  warn = strobe_log_model_filter (model, &f, 0, G_MAXUINT64);
  /* The two LogQuiet messages that passed: the warning and the error. */
  g_assert_cmpuint (warn->len, ==, 2);
  g_assert_true (strobe_log_model_get_message (model, g_array_index (warn, guint64, 1), &msg));
  g_assert_cmpstr (msg.text, ==, "error 2");
  g_assert_cmpuint (msg.verbosity, ==, STROBE_LOG_ERROR);
  g_assert_cmpstr (msg.spec->category->name, ==, "LogQuiet");
  g_assert_cmpint (msg.spec->line, >, 0);
  g_assert_true (g_str_has_suffix (msg.spec->file, "test-log-format.c"));
  g_free (msg.text);

  memset (&f, 0, sizeof f);
  f.categories = &quiet->id;
  f.n_categories = 1;
  quiet_only = strobe_log_model_filter (model, &f, 0, G_MAXUINT64);
  g_assert_cmpuint (quiet_only->len, ==, 3);   /* + the verbose one, enabled at run time */

  memset (&f, 0, sizeof f);
  f.text = "<hello>";
  hello = strobe_log_model_filter (model, &f, 0, G_MAXUINT64);
  g_assert_cmpuint (hello->len, >, 0);
  f.text = "<HELLO>";
  f.ignore_case = TRUE;
  hello_ci = strobe_log_model_filter (model, &f, 0, G_MAXUINT64);
  g_assert_cmpuint (hello_ci->len, ==, hello->len);
  /* A range: only the tail. */
  {
    g_autoptr (GArray) tail = strobe_log_model_filter (model, NULL, strobe_log_model_get_count (model) - 5,
                                                       G_MAXUINT64);
    g_assert_cmpuint (tail->len, ==, 5);
  }
}

/* The model grows on one thread (the trace fed in small chunks) while this one filters
 * and reads it. */
typedef struct
{
  const guint8   *data;
  gsize           len;
  StrobeLogModel *model;
  gint            done;
} Feeder;

static gpointer
feed (gpointer user)
{
  Feeder *f = user;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (f->model));
  for (gsize pos = 0; pos < f->len && !error; pos += 4096)
    strobe_decoder_feed (decoder, f->data + pos, MIN (4096, f->len - pos), &error);
  if (!error)
    strobe_decoder_finish (decoder, &error);
  g_assert_no_error (error);
  g_atomic_int_set (&f->done, 1);
  return NULL;
}

static void
test_live (void)
{
  g_autoptr (StrobeLogModel) model = strobe_log_model_new ();
  g_autofree guint8 *data = NULL;
  StrobeLogFilter filter = { 0 };
  Feeder f;
  GThread *thread;
  guint64 seen = 0, rounds = 0;
  gsize len;

  g_assert_true (g_file_get_contents (trace_path, (char **) &data, &len, NULL));
  f.data = data;
  f.len = len;
  f.model = model;
  f.done = 0;
  filter.text = "hello";
  thread = g_thread_new ("feeder", feed, &f);
  while (!g_atomic_int_get (&f.done))
    {
      /* Only what is new since the last round, as a live view would. */
      guint64 n = strobe_log_model_get_count (model);
      g_autoptr (GArray) hits = strobe_log_model_filter (model, &filter, seen, n);
      for (guint i = 0; i < hits->len; i++)
        {
          StrobeLogMessage msg;
          g_assert_true (strobe_log_model_get_message (model, g_array_index (hits, guint64, i), &msg));
          g_free (msg.text);
        }
      seen = n;
      rounds++;
    }
  g_thread_join (thread);
  g_assert_cmpuint (strobe_log_model_get_count (model), ==, expected->len);
  g_test_message ("%" G_GUINT64_FORMAT " filter rounds while the model grew", rounds);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  setlocale (LC_ALL, "C");

  dir = g_dir_make_tmp ("strobe-log-XXXXXX", NULL);
  trace_path = g_build_filename (dir, "log.strobe", NULL);
  expected = g_ptr_array_new_with_free_func (g_free);
  specs = g_ptr_array_new_with_free_func (spec_free);

  strobe_init (NULL);
  strobe_channel_set_enabled ("Log", true);
  g_assert_true (strobe_output_file (trace_path));

  /* Verbosity: LogQuiet lets warnings and worse through, until raised. */
  STROBE_LOG_MESSAGE (LogQuiet, STROBE_LOG_LOG, "suppressed %d", 1);
  STROBE_LOG_MESSAGE (LogQuiet, STROBE_LOG_WARNING, "warning %d", 1);
  expect ("warning %d", 1);
  STROBE_LOG_MESSAGE (LogQuiet, STROBE_LOG_ERROR, "error %d", 2);
  expect ("error %d", 2);
  strobe_log_set_verbosity ("LogQuiet", STROBE_LOG_VERBOSE);
  STROBE_LOG_MESSAGE (LogQuiet, STROBE_LOG_VERBOSE, "verbose now %s", "on");
  expect ("verbose now %s", "on");
  STROBE_LOG_MESSAGE (LogQuiet, STROBE_LOG_VERY_VERBOSE, "still suppressed");
  strobe_channel_set_enabled ("Log", false);
  STROBE_LOG_MESSAGE (LogTest, STROBE_LOG_ERROR, "channel off");
  strobe_channel_set_enabled ("Log", true);

  emit_literal_cases ();
  emit_odd_formats ();
  emit_generated_cases ();
  strobe_output_stop ();

  g_test_add_func ("/log-format/round-trip", test_round_trip);
  g_test_add_func ("/log-format/filters", test_filters);
  g_test_add_func ("/log-format/live", test_live);
  ret = g_test_run ();

  g_unlink (trace_path);
  g_rmdir (dir);
  g_ptr_array_unref (expected);
  g_ptr_array_unref (specs);
  g_free (trace_path);
  return ret;
}
