/* fuzz-decoder.c — libFuzzer target for the stream decoder (core/analysis).
 *
 * The input is a byte stream. It is decoded twice, each time with an analyzer that is
 * subscribed to everything and reads every field of every event through every accessor
 * (strobe_event_format, the _at accessors, the named accessors) plus the info analyzer:
 *
 *   1. fed whole, then finish();
 *   2. fed in chunks whose sizes come from a PRNG seeded with a hash of the input.
 *
 * Besides "no crash, no leak, no UB, no unbounded allocation" (the sanitizers and
 * libFuzzer's -rss_limit_mb/-malloc_limit_mb), the two runs must agree byte for byte on
 * what was delivered and on the error: the decoder promises to accept any chunking.
 *
 * The same file is linked into a plain replay program (fuzz-replay-main.c) that runs the
 * regression inputs and the corpus in the default test suite.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "strobe-analysis.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define FUZZ_TYPE_ANALYZER (fuzz_analyzer_get_type ())
G_DECLARE_FINAL_TYPE (FuzzAnalyzer, fuzz_analyzer, FUZZ, ANALYZER, GObject)

struct _FuzzAnalyzer
{
  GObject  parent_instance;
  GString *log;
  gboolean ended;
  StrobeFieldAccessor acc[4];
};

static void fuzz_analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (FuzzAnalyzer, fuzz_analyzer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER,
                                                      fuzz_analyzer_iface_init))

static void
fa_begin (StrobeAnalyzer *a, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 1, "*", "*");
  /* A second route for the system events, so one event can match twice. */
  strobe_analysis_context_subscribe (ctx, 2, "$Trace", "*");
}

static void
fa_on_metadata (StrobeAnalyzer *a, const StrobeWireMetadata *m)
{
  FuzzAnalyzer *self = FUZZ_ANALYZER (a);

  g_string_append_printf (self->log, "M pid=%u port=%u freq=%" G_GUINT64_FORMAT "\n",
                          m->process_id, m->control_port, m->clock_frequency);
}

static void
fa_on_event_type (StrobeAnalyzer *a, const StrobeEventType *type)
{
  FuzzAnalyzer *self = FUZZ_ANALYZER (a);

  g_string_append_printf (self->log, "T %u %s %u\n", type->uid, type->full_name,
                          type->n_fields);
  for (guint i = 0; i < type->n_fields; i++)
    g_string_append_printf (self->log, " F %s %u %u %u\n", type->fields[i].name,
                            type->fields[i].offset, type->fields[i].size,
                            type->fields[i].type);
}

static void
read_every_field (FuzzAnalyzer *self, const StrobeEvent *ev)
{
  guint64 sum = 0;

  /* One past each end, too: out of range must read as 0 / NULL. */
  for (gint i = -1; i <= (gint) ev->type->n_fields; i++)
    {
      gsize size = 0, n = 0;
      guint8 elem = 0;
      const guint8 *p;
      char *s;

      sum += (guint64) strobe_event_get_int_at (ev, i);
      sum += strobe_event_get_uint_at (ev, i);
      sum += (guint64) (gint64) (strobe_event_get_double_at (ev, i) != 0.0);
      p = strobe_event_get_aux_at (ev, i, &size);
      for (gsize k = 0; p && k < size; k++)
        sum += p[k];
      p = strobe_event_get_array_at (ev, i, &elem, &n);
      if (p && n)
        sum += p[0] + elem;
      s = strobe_event_get_string_at (ev, i);
      if (s)
        {
          if (!g_utf8_validate (s, -1, NULL))
            abort ();   /* strings handed to analyzers are always valid UTF-8 */
          sum += strlen (s);
          g_free (s);
        }
    }

  for (guint k = 0; k < G_N_ELEMENTS (self->acc); k++)
    {
      StrobeFieldAccessor *acc = &self->acc[k];
      gsize size = 0, n = 0;
      guint8 elem = 0;
      char *s;

      if (!strobe_event_has_field (ev, acc))
        continue;
      sum += (guint64) strobe_event_get_int (ev, acc);
      sum += strobe_event_get_uint (ev, acc);
      sum += strobe_event_get_double (ev, acc) != 0.0;
      sum += strobe_event_get_bool (ev, acc);
      sum += strobe_event_get_pointer (ev, acc);
      sum += strobe_event_get_aux (ev, acc, &size) != NULL;
      sum += strobe_event_get_array (ev, acc, &elem, &n) != NULL;
      s = strobe_event_get_string (ev, acc);
      sum += s ? strlen (s) : 0;
      g_free (s);
    }
  g_string_append_printf (self->log, " sum=%" G_GUINT64_FORMAT "\n", sum);
}

static void
fa_on_event (StrobeAnalyzer *a, guint route_id, const StrobeEvent *ev)
{
  FuzzAnalyzer *self = FUZZ_ANALYZER (a);

  if (self->ended)
    abort ();   /* no event after end() */
  g_string_append_printf (self->log, "E%u ", route_id);
  strobe_event_format (ev, self->log);
  g_string_append_c (self->log, '\n');
  read_every_field (self, ev);
}

static void
fa_end (StrobeAnalyzer *a, const GError *error)
{
  FuzzAnalyzer *self = FUZZ_ANALYZER (a);

  if (self->ended)
    abort ();   /* end() exactly once */
  self->ended = TRUE;
}

static void
fuzz_analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = fa_begin;
  iface->on_metadata = fa_on_metadata;
  iface->on_event_type = fa_on_event_type;
  iface->on_event = fa_on_event;
  iface->end = fa_end;
}

static void
fuzz_analyzer_finalize (GObject *object)
{
  g_string_free (FUZZ_ANALYZER (object)->log, TRUE);
  G_OBJECT_CLASS (fuzz_analyzer_parent_class)->finalize (object);
}

static void
fuzz_analyzer_class_init (FuzzAnalyzerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fuzz_analyzer_finalize;
}

static void
fuzz_analyzer_init (FuzzAnalyzer *self)
{
  static const char *const names[] = { "ThreadId", "Name", "Timestamp", "Value" };

  self->log = g_string_new (NULL);
  for (guint k = 0; k < G_N_ELEMENTS (self->acc); k++)
    {
      self->acc[k] = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT (names[k]);
    }
}

/* xorshift64*: cheap, deterministic. */
static guint64
next_rand (guint64 *state)
{
  guint64 x = *state;

  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

typedef struct
{
  char    *log;
  gboolean ok;
  GQuark   domain;
  gint     code;
  char    *message;
} RunResult;

static void
run_result_clear (RunResult *r)
{
  g_free (r->log);
  g_free (r->message);
}

/* @chunk_state NULL: one feed of everything. */
static void
decode (const guint8 *data, gsize size, gsize max_pending, guint64 *chunk_state,
        RunResult *result)
{
  StrobeDecoder *dec = strobe_decoder_new ();
  FuzzAnalyzer *fa = g_object_new (FUZZ_TYPE_ANALYZER, NULL);
  StrobeInfoAnalyzer *info = strobe_info_analyzer_new ();
  GError *error = NULL;
  gboolean ok = TRUE;
  StrobeDecoderStats stats;
  guint64 first, last;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (fa));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (info));
  if (max_pending)
    strobe_decoder_set_max_pending (dec, max_pending);

  if (chunk_state == NULL)
    ok = strobe_decoder_feed (dec, data, size, &error);
  else
    for (gsize pos = 0; ok && pos < size;)
      {
        guint64 r = next_rand (chunk_state);
        /* Mostly tiny chunks (split headers), sometimes big ones, sometimes empty. */
        gsize n = (r & 3) == 0 ? (r >> 8) % 4096 : (r >> 8) % 17;

        n = MIN (n, size - pos);
        ok = strobe_decoder_feed (dec, data + pos, n, &error);
        pos += n;
      }
  if (ok)
    ok = strobe_decoder_finish (dec, &error);

  if (!ok && error->domain != STROBE_DECODER_ERROR)
    abort ();   /* the decoder reports its own errors only */
  if (!fa->ended)
    abort ();   /* end() always comes, error or not */

  /* Every getter, for coverage and for the sanitizers. */
  strobe_decoder_get_stats (dec, &stats);
  g_string_append_printf (fa->log, "S %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %d %"
                          G_GUINT64_FORMAT "\n", stats.events, stats.gaps,
                          strobe_decoder_get_ended_cleanly (dec),
                          strobe_decoder_get_offset (dec));
  if (strobe_decoder_get_metadata (dec) != NULL)
    g_string_append (fa->log, "M\n");
  for (guint uid = 0; uid < 64; uid++)
    if (strobe_decoder_get_event_type (dec, (guint16) uid) != NULL)
      g_string_append_printf (fa->log, "U%u\n", uid);
  (void) strobe_info_analyzer_get_metadata (info);
  g_ptr_array_unref (strobe_info_analyzer_dup_event_types (info));
  g_ptr_array_unref (strobe_info_analyzer_dup_channels (info));
  {
    StrobeInfoStats info_stats;
    strobe_info_analyzer_get_stats (info, &info_stats);
  }
  (void) strobe_info_analyzer_get_event_count (info);
  (void) strobe_info_analyzer_get_thread_events (info, 16);
  (void) strobe_info_analyzer_get_time_range (info, &first, &last);

  result->log = g_strdup (fa->log->str);
  result->ok = ok;
  result->domain = ok ? 0 : error->domain;
  result->code = ok ? 0 : error->code;
  result->message = ok ? NULL : g_strdup (error->message);
  g_clear_error (&error);
  g_object_unref (info);
  g_object_unref (fa);
  g_object_unref (dec);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  guint64 hash = 1469598103934665603ULL;   /* FNV-1a */
  guint64 state;
  gsize max_pending;
  RunResult whole = { 0 }, chunked = { 0 };

  for (size_t i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 1099511628211ULL;
  state = hash | 1;
  /* Usually the default; sometimes tiny, so gaps are skipped for memory. */
  max_pending = (hash >> 60) == 0 ? (gsize) ((hash >> 32) % 8192) : 0;

  decode (data, size, max_pending, NULL, &whole);
  decode (data, size, max_pending, &state, &chunked);

  if (whole.ok != chunked.ok || whole.code != chunked.code
      || g_strcmp0 (whole.message, chunked.message) != 0
      || strcmp (whole.log, chunked.log) != 0)
    {
      fprintf (stderr, "fuzz-decoder: whole and chunked decoding differ\n"
               "whole:   ok=%d %s\nchunked: ok=%d %s\n",
               whole.ok, whole.message ? whole.message : "",
               chunked.ok, chunked.message ? chunked.message : "");
      if (strcmp (whole.log, chunked.log) != 0)
        fprintf (stderr, "--- whole log ---\n%s--- chunked log ---\n%s", whole.log, chunked.log);
      abort ();
    }
  run_result_clear (&whole);
  run_result_clear (&chunked);
  return 0;
}
