/* bench-decode.c — see the header. */
#include "config.h"

#include "bench-common.h"
#include "bench-decode.h"

#include "strobe-cpu-batch.h"
#include "strobe-decoder.h"

static volatile guint64 sink;   /* keeps the decode result alive */

#define BENCH_TYPE_BATCH_COUNTER (bench_batch_counter_get_type ())
G_DECLARE_FINAL_TYPE (BenchBatchCounter, bench_batch_counter, BENCH, BATCH_COUNTER, GObject)

struct _BenchBatchCounter
{
  GObject parent_instance;
  guint64 bytes;
};

static void
counter_begin (StrobeAnalyzer *a, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 0, "Cpu", "EventBatch");
}

static void
counter_on_event (StrobeAnalyzer *a, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor data = STROBE_FIELD_ACCESSOR_INIT ("Data");
  guint8 type;
  gsize n = 0;
  const guint8 *p = strobe_event_get_array (ev, &data, &type, &n);
  BENCH_BATCH_COUNTER (a)->bytes += n + (p ? p[0] : 0);
}

static void
counter_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = counter_begin;
  iface->on_event = counter_on_event;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchBatchCounter, bench_batch_counter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, counter_iface_init))
static void bench_batch_counter_class_init (BenchBatchCounterClass *k) { }
static void bench_batch_counter_init (BenchBatchCounter *self) { }

double
bench_decode_only (const char *path, gboolean in_memory)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (BenchBatchCounter) counter = g_object_new (BENCH_TYPE_BATCH_COUNTER, NULL);
  g_autoptr (GError) error = NULL;
  double t0;

  if (in_memory && !g_file_get_contents (path, &data, &len, &error))
    g_error ("%s", error->message);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (counter));
  t0 = bench_now_ns ();
  if (in_memory)
    {
      if (!strobe_decoder_feed (decoder, (const guint8 *) data, len, &error)
          || !strobe_decoder_finish (decoder, &error))
        g_error ("%s: %s", path, error->message);
    }
  else if (!strobe_decoder_read_file (decoder, path, NULL, &error))
    g_error ("%s: %s", path, error->message);
  sink = counter->bytes;
  return (bench_now_ns () - t0) / 1e9;
}

/* The records walked, their times and ids summed so that no decode can be skipped. */
#define BENCH_TYPE_BATCH_WALKER (bench_batch_walker_get_type ())
G_DECLARE_FINAL_TYPE (BenchBatchWalker, bench_batch_walker, BENCH, BATCH_WALKER, GObject)

struct _BenchBatchWalker
{
  GObject parent_instance;
  guint64 records;
  guint64 sum;
};

static inline void
walk_begin (gpointer data, guint64 time, guint64 id)
{
  BenchBatchWalker *w = data;

  w->records++;
  w->sum += time ^ id;
}

static inline void
walk_end (gpointer data, guint64 time)
{
  BenchBatchWalker *w = data;

  w->records++;
  w->sum += time;
}

static void
walker_on_event (StrobeAnalyzer *a, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor base = STROBE_FIELD_ACCESSOR_INIT ("Base");
  static StrobeFieldAccessor shift = STROBE_FIELD_ACCESSOR_INIT ("Shift");
  static StrobeFieldAccessor data = STROBE_FIELD_ACCESSOR_INIT ("Data");
  guint8 type;
  gsize n = 0;
  const guint8 *p = strobe_event_get_array (ev, &data, &type, &n);
  guint64 first, last;

  if (p != NULL)
    strobe_cpu_batch_walk (strobe_event_get_uint (ev, &base), (guint) MIN (strobe_event_get_uint (ev, &shift), 63),
                           p, n, walk_begin, walk_end, a, &first, &last);
}

static void
walker_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = counter_begin;
  iface->on_event = walker_on_event;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchBatchWalker, bench_batch_walker, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, walker_iface_init))
static void bench_batch_walker_class_init (BenchBatchWalkerClass *k) { }
static void bench_batch_walker_init (BenchBatchWalker *self) { }

double
bench_decode_walk (const char *path, guint64 *records)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(BenchBatchWalker) walker = g_object_new (BENCH_TYPE_BATCH_WALKER, NULL);
  g_autoptr(GError) error = NULL;
  double t0;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (walker));
  t0 = bench_now_ns ();
  if (!strobe_decoder_read_file (decoder, path, NULL, &error))
    g_error ("%s: %s", path, error->message);
  sink = walker->sum;
  if (records)
    *records = walker->records;
  return (bench_now_ns () - t0) / 1e9;
}
