/* strobe-bench.c — the foundation's figures, each next to its baseline from the same run.
 *
 * Prints one line per figure: `name value unit`, then `ratio` lines that compare against
 * the targets of the foundation issue. These machines are noisy, so every cost is the
 * median of several bursts and every target is a ratio to something measured in the same
 * run (a clock read, plain LZ4 decompression).
 *
 * Usage: strobe-bench [--quick] [--dir DIR]
 */
#include "config.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <lz4.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <strobe/strobe.h>

#include "bench-common.h"

#include "strobe-analyzer.h"
#include "strobe-decoder.h"
#include "strobe-wire.h"

STROBE_CHANNEL_DEFINE (BenchChannel);
STROBE_CHANNEL_DEFINE (BenchOffChannel);

STROBE_EVENT (Bench, NoSync16, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint64, Value))
STROBE_EVENT (Bench, Sync16, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint64, Value))
STROBE_EVENT (Bench, ScopeBegin, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, Cycle))
STROBE_EVENT (Bench, ScopeEnd, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, Cycle))

static gboolean quick;
static const char *bench_dir;

/* ---- hot-path costs --------------------------------------------------------------- */


static void
burst_nosync (int n)
{
  for (int i = 0; i < n; i++)
    STROBE_LOG (Bench, NoSync16, BenchChannel)
      {
        STROBE_SET (Cycle, strobe_time ());
        STROBE_SET (Value, (uint64_t) i);
      }
}

static void
burst_sync (int n)
{
  for (int i = 0; i < n; i++)
    STROBE_LOG (Bench, Sync16, BenchChannel)
      {
        STROBE_SET (Cycle, strobe_time ());
        STROBE_SET (Value, (uint64_t) i);
      }
}

static void
burst_pair (int n)
{
  for (int i = 0; i < n; i++)
    {
      STROBE_LOG (Bench, ScopeBegin, BenchChannel)
        STROBE_SET (Cycle, strobe_time ());
      STROBE_LOG (Bench, ScopeEnd, BenchChannel)
        STROBE_SET (Cycle, strobe_time ());
    }
}

static void
burst_disabled (int n)
{
  for (int i = 0; i < n; i++)
    STROBE_LOG (Bench, NoSync16, BenchOffChannel)
      {
        STROBE_SET (Cycle, strobe_time ());
        STROBE_SET (Value, (uint64_t) i);
      }
}

/* ---- sustained throughput into a file ---------------------------------------------- */

typedef struct
{
  double   seconds;
  uint64_t events;
} Producer;

static void *
produce (void *data)
{
  Producer *p = data;
  double deadline = bench_now_ns () + p->seconds * 1e9;
  uint64_t n = 0;

  while (bench_now_ns () < deadline)
    {
      for (int i = 0; i < 4096; i++)
        STROBE_LOG (Bench, NoSync16, BenchChannel)
          {
            STROBE_SET (Cycle, strobe_time ());
            STROBE_SET (Value, n + (uint64_t) i);
          }
      n += 4096;
    }
  p->events = n;
  return NULL;
}

static double
sustained (int n_threads, const char *path, uint64_t *events_out, uint64_t *dropped_out)
{
  pthread_t threads[8];
  Producer producers[8];
  StrobeStats before, after;
  double t0, elapsed;
  uint64_t total = 0;

  if (!strobe_output_file (path))
    g_error ("cannot open %s: %s", path, g_strerror (errno));
  strobe_flush ();
  strobe_get_stats (&before);

  t0 = bench_now_ns ();
  for (int i = 0; i < n_threads; i++)
    {
      producers[i].seconds = quick ? 0.3 : 1.0;
      pthread_create (&threads[i], NULL, produce, &producers[i]);
    }
  for (int i = 0; i < n_threads; i++)
    {
      pthread_join (threads[i], NULL);
      total += producers[i].events;
    }
  elapsed = (bench_now_ns () - t0) / 1e9;
  strobe_flush ();
  strobe_get_stats (&after);
  strobe_output_stop ();

  *events_out = total;
  *dropped_out = after.events_dropped - before.events_dropped;
  return (double) total / elapsed;
}

/* ---- decoding ---------------------------------------------------------------------- */

#define BENCH_TYPE_COUNTER (bench_counter_get_type ())
G_DECLARE_FINAL_TYPE (BenchCounter, bench_counter, BENCH, COUNTER, GObject)

struct _BenchCounter
{
  GObject parent_instance;
  guint64 events;
  guint64 checksum;
};

static StrobeFieldAccessor value_field = STROBE_FIELD_ACCESSOR_INIT ("Value");

static void
bench_counter_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 0, "Bench", "NoSync16");
}

static void
bench_counter_on_event (StrobeAnalyzer *analyzer, guint route_id, const StrobeEvent *event)
{
  BenchCounter *self = (BenchCounter *) analyzer;
  self->events++;
  self->checksum += strobe_event_get_uint (event, &value_field);
}

static void
bench_counter_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = bench_counter_begin;
  iface->on_event = bench_counter_on_event;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchCounter, bench_counter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, bench_counter_iface_init))

static void bench_counter_class_init (BenchCounterClass *klass) { }
static void bench_counter_init (BenchCounter *self) { }

/* Walks the packets of a trace in memory and LZ4-decompresses each encoded one: the
 * floor under any decoder of this format. Returns decoded payload bytes. */
static guint64
plain_lz4 (const guint8 *data, gsize len, guint8 *scratch)
{
  gsize pos = sizeof (StrobeWireHandshake) + strobe_wire_get_u16 (data + 6);
  guint64 bytes = 0;

  while (pos + sizeof (StrobeWirePacketHeader) <= len)
    {
      guint32 size = strobe_wire_get_u32 (data + pos);
      guint16 flags = strobe_wire_get_u16 (data + pos + 6);
      guint32 raw = strobe_wire_get_u32 (data + pos + 8);

      if (size < sizeof (StrobeWirePacketHeader) || size > len - pos)
        break;
      if (flags & STROBE_PACKET_FLAG_LZ4)
        {
          int n = LZ4_decompress_safe ((const char *) data + pos + 12, (char *) scratch,
                                       (int) (size - 12), STROBE_WIRE_MAX_PAYLOAD);
          if (n != (int) raw)
            g_error ("LZ4 packet at %" G_GSIZE_FORMAT " does not decode", pos);
        }
      bytes += raw;
      pos += size;
    }
  return bytes;
}

static void
bench_decode (const char *path, guint64 expected_events)
{
  g_autofree guint8 *scratch = g_malloc (STROBE_WIRE_MAX_PAYLOAD);
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  double v_dec[5], v_lz4[5];
  guint64 raw_bytes = 0, events = 0;
  int runs = quick ? 3 : 5;

  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);

  for (int r = 0; r < runs; r++)
    {
      g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
      g_autoptr (BenchCounter) counter = g_object_new (BENCH_TYPE_COUNTER, NULL);
      double t0;

      strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (counter));
      t0 = bench_now_ns ();
      if (!strobe_decoder_feed (decoder, (const guint8 *) contents, len, &error)
          || !strobe_decoder_finish (decoder, &error))
        g_error ("decode: %s", error->message);
      v_dec[r] = bench_now_ns () - t0;
      events = counter->events;

      t0 = bench_now_ns ();
      raw_bytes = plain_lz4 ((const guint8 *) contents, len, scratch);
      v_lz4[r] = bench_now_ns () - t0;
    }

  {
    double dec_ns = bench_median (v_dec, runs), lz4_ns = bench_median (v_lz4, runs);
    double dec_rate = (double) events / (dec_ns / 1e9);
    double dec_mbs = (double) raw_bytes / (dec_ns / 1e9) / 1e6;
    double lz4_mbs = (double) raw_bytes / (lz4_ns / 1e9) / 1e6;

    bench_report ("decode.file_bytes", (double) len, "B");
    bench_report ("decode.events", (double) events, "events");
    bench_report ("decode.rate", dec_rate / 1e6, "M events/s");
    bench_report ("decode.throughput", dec_mbs, "MB/s (decoded payload)");
    bench_report ("decode.plain_lz4", lz4_mbs, "MB/s (decoded payload)");
    bench_report_ratio ("decode_vs_plain_lz4", dec_mbs / lz4_mbs, ">=", 0.5);
    bench_report_ratio ("decode_M_events_per_s", dec_rate / 1e6, ">=", 50);
    if (events != expected_events)
      printf ("warning: decoded %" G_GUINT64_FORMAT " events, emitted %" G_GUINT64_FORMAT "\n",
              events, expected_events);
  }
}

int
main (int argc, char **argv)
{
  g_autofree char *tmp = NULL;
  g_autofree char *path1 = NULL, *path2 = NULL, *path0 = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Fewer and shorter runs", NULL },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_dir, "Where to write the trace files", "DIR" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— Strobe foundation benchmarks");
  g_autoptr (GError) error = NULL;
  double clock_ns, nosync_ns, sync_ns, pair_ns, disabled_ns, rate1, rate2;
  double nosync_ratio, sync_ratio, pair_ratio;
  uint64_t ev1, ev2, dr1, dr2;
  StrobeStats stats;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (bench_dir == NULL)
    bench_dir = tmp = g_dir_make_tmp ("strobe-bench-XXXXXX", NULL);
  path0 = g_build_filename (bench_dir, "hot.strobe", NULL);
  path1 = g_build_filename (bench_dir, "sustained-1.strobe", NULL);
  path2 = g_build_filename (bench_dir, "sustained-2.strobe", NULL);

  strobe_channel_set_enabled ("Bench", true);
  if (!strobe_output_file (path0))
    g_error ("cannot open %s: %s", path0, g_strerror (errno));

  printf ("# strobe-bench %s: name value unit (median of %d bursts of %d)\n",
          PACKAGE_VERSION, BENCH_BURSTS, BENCH_BURST);
  bench_report ("clock.frequency", (double) strobe_clock_frequency () / 1e6, "MHz");
  clock_ns = bench_measure (bench_burst_clock, BENCH_BURST, NULL, NULL);
  bench_report ("cost.clock_read", clock_ns, "ns");
  nosync_ns = bench_measure (burst_nosync, BENCH_BURST, &nosync_ratio, NULL);
  bench_report ("cost.event_nosync_16B", nosync_ns, "ns");
  sync_ns = bench_measure (burst_sync, BENCH_BURST, &sync_ratio, NULL);
  bench_report ("cost.event_sync_16B", sync_ns, "ns");
  pair_ns = bench_measure (burst_pair, BENCH_BURST, &pair_ratio, NULL);
  bench_report ("cost.begin_end_pair", pair_ns, "ns");
  disabled_ns = bench_measure (burst_disabled, BENCH_BURST * 10, NULL, NULL);
  bench_report ("cost.disabled_site", disabled_ns, "ns");
  strobe_flush ();
  strobe_get_stats (&stats);
  bench_report ("hot.events_dropped", (double) stats.events_dropped, "events");
  strobe_output_stop ();

  bench_report_ratio ("nosync_event_vs_clock", nosync_ratio, "<=", 1.5);
  bench_report ("ratio.sync_event_vs_clock", sync_ratio, "x");
  bench_report_ratio ("begin_end_pair_vs_clock", pair_ratio, "<=", 2.3);
  bench_report_ratio ("disabled_site_ns", disabled_ns, "<=", 1.0);

  rate1 = sustained (1, path1, &ev1, &dr1);
  bench_report ("sustained.1_thread", rate1 / 1e6, "M events/s");
  bench_report ("sustained.1_thread_dropped", (double) dr1, "events");
  rate2 = sustained (2, path2, &ev2, &dr2);
  bench_report ("sustained.2_threads", rate2 / 1e6, "M events/s");
  bench_report ("sustained.2_threads_dropped", (double) dr2, "events");
  bench_report_ratio ("sustained_1_thread_M_per_s", rate1 / 1e6, ">=", 10);
  bench_report_ratio ("sustained_1_thread_drops", (double) dr1, "<=", 0);

  bench_decode (path1, ev1 - dr1);

  if (tmp != NULL)
    {
      g_unlink (path0);
      g_unlink (path1);
      g_unlink (path2);
      g_rmdir (tmp);
    }
  return 0;
}
