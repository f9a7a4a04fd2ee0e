/* strobe-bench-control.c — the control, recorder and store figures.
 *
 * One process plays every part: it is an instrumented program (its own runtime, control
 * server and tail), it runs a StrobeRecorder into a temporary store, a StrobeStoreServer
 * and a StrobeStoreClient. Prints `name value unit` lines, then `ratio` lines against
 * the targets of the control issue:
 *
 *   latency.send_to_first_event   send-to command → first live event readable in the
 *                                 stored file (the whole 4 MiB tail is replayed first)
 *   sender.full_speed             wire MB/s of the runtime emitting 16-byte events from one
 *                                 thread as fast as it can, into a socket that discards
 *   recorder.1_sender / 32_senders  MB/s the recorder takes in and stores, from streams
 *                                 replayed as fast as the sockets go
 *   store.new_trace_seen          a recording starts → a subscribed store client gets
 *                                 "trace-added"
 *
 * Usage: strobe-bench-control [--quick] [--dir DIR]
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <strobe/strobe.h>

#include "bench-common.h"

#include "strobe-analysis.h"
#include "strobe-control-client.h"
#include "strobe-recorder.h"
#include "strobe-store-client.h"
#include "strobe-store-server.h"
#include "test-dirs.h"

STROBE_CHANNEL_DEFINE (BenchChannel);

STROBE_EVENT (Bench, Tick, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, Time)
              STROBE_FIELD (uint64, Value))

static gboolean quick;
static const char *bench_dir;

static double
seconds_between (guint64 a, guint64 b)
{
  return (double) (b - a) / (double) strobe_clock_frequency ();
}

static void
iterate_for (double seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (200);
}

/* ---- the recorder and store ------------------------------------------------------- */

/* Set on the server, so the benchmark does not depend on a store.secret file. */
#define BENCH_STORE_SECRET "strobe-bench-store-secret"

typedef struct
{
  char              *dir;
  StrobeStore       *store;
  StrobeRecorder    *recorder;
  StrobeStoreServer *server;
  guint              ended;
} Server;

static void
on_ended (StrobeRecorder *recorder, StrobeLiveConnection *session, Server *s)
{
  s->ended++;
}

static void
server_start (Server *s)
{
  g_autoptr (GError) error = NULL;

  s->dir = bench_dir ? g_build_filename (bench_dir, "strobe-bench-control-store", NULL)
                     : g_dir_make_tmp ("strobe-bench-control-XXXXXX", &error);
  g_assert_no_error (error);
  s->store = strobe_store_new (s->dir, &error);
  g_assert_no_error (error);
  s->recorder = strobe_recorder_new (s->store);
  strobe_recorder_set_port (s->recorder, 0);
  strobe_recorder_start (s->recorder, &error);
  g_assert_no_error (error);
  g_signal_connect (s->recorder, "session-ended", G_CALLBACK (on_ended), s);
  s->server = strobe_store_server_new (s->store);
  strobe_store_server_set_port (s->server, 0);
  strobe_store_server_set_recorder_port (s->server, strobe_recorder_get_port (s->recorder));
  strobe_store_server_set_secret (s->server, BENCH_STORE_SECRET);
  strobe_store_server_start (s->server, &error);
  g_assert_no_error (error);
}

static void
wait_ended (Server *s, guint n)
{
  gint64 until = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (s->ended < n && g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (100);
  if (s->ended < n)
    g_error ("the recorder did not finish %u sessions (%u)", n, s->ended);
}

/* ---- a continuous emitter -------------------------------------------------------- */

static volatile int emitter_quit;

static void *
emitter_main (void *data)
{
  long period_us = GPOINTER_TO_INT (data);

  strobe_thread_set_name ("bench-emitter", NULL, 0);
  for (guint64 i = 0; !__atomic_load_n (&emitter_quit, __ATOMIC_RELAXED); i++)
    {
      STROBE_LOG (Bench, Tick, BenchChannel)
        {
          STROBE_SET (Time, strobe_time ());
          STROBE_SET (Value, i);
        }
      if (period_us)
        g_usleep ((gulong) period_us);
    }
  return NULL;
}

/* ---- 1. send-to → first live event stored ----------------------------------------- */

typedef struct
{
  guint64  after;     /* a Tick with Time >= this is live data */
  gboolean found;
} LiveWatch;

static void
on_tick (guint route, const StrobeEvent *ev, gpointer data)
{
  LiveWatch *w = data;
  static StrobeFieldAccessor time_field = STROBE_FIELD_ACCESSOR_INIT ("Time");

  if (strobe_event_get_uint (ev, &time_field) >= w->after)
    w->found = TRUE;
}

/* A minimal analyzer calling on_tick for Bench.Tick. */
#define BENCH_TYPE_WATCH (bench_watch_get_type ())
G_DECLARE_FINAL_TYPE (BenchWatch, bench_watch, BENCH, WATCH, GObject)
struct _BenchWatch { GObject parent_instance; LiveWatch *w; };
static void bench_watch_iface_init (StrobeAnalyzerInterface *iface);
G_DEFINE_FINAL_TYPE_WITH_CODE (BenchWatch, bench_watch, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, bench_watch_iface_init))
static void bench_watch_class_init (BenchWatchClass *klass) { }
static void bench_watch_init (BenchWatch *self) { }
static void
watch_begin (StrobeAnalyzer *a, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 0, "Bench", "Tick");
}
static void
watch_event (StrobeAnalyzer *a, guint route, const StrobeEvent *ev)
{
  on_tick (route, ev, BENCH_WATCH (a)->w);
}
static void
bench_watch_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = watch_begin;
  iface->on_event = watch_event;
}

static char *
newest_trace (const char *dir, GHashTable *seen)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".strobe") && !g_hash_table_contains (seen, name))
      {
        g_hash_table_add (seen, g_strdup (name));
        return g_build_filename (dir, name, NULL);
      }
  return NULL;
}

static void
send_to_replied (GObject *object, GAsyncResult *result, gpointer data)
{
  g_autofree char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (object), result, NULL);
  *(gboolean *) data = TRUE;
}

static void
bench_latency (Server *s)
{
  g_autoptr (StrobeControlClient) client = strobe_control_client_new ("127.0.0.1", strobe_get_control_port ());
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *cmd = g_strdup_printf ("send-to 127.0.0.1:%u", strobe_recorder_get_port (s->recorder));
  g_autoptr (GError) error = NULL;
  int rounds = quick ? 5 : 15;
  double lat[32], tail[32];
  gboolean replied = FALSE;
  pthread_t emitter;
  guint done = 0;

  emitter_quit = 0;
  pthread_create (&emitter, NULL, emitter_main, GINT_TO_POINTER (20));
  g_free (strobe_control_client_send (client, "status", NULL, &error));   /* connected */
  g_assert_no_error (error);
  for (int r = 0; r < rounds; r++)
    {
      g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
      g_autoptr (BenchWatch) watch = g_object_new (BENCH_TYPE_WATCH, NULL);
      g_autofree char *path = NULL;
      g_autofree char *reply = NULL;
      LiveWatch w = { 0, FALSE };
      guint64 t0, t1;
      goffset fed = 0;
      int fd = -1;

      watch->w = &w;
      strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (watch));
      /* No output: a burst fills the tail (4 MiB), the worst case a send-to replays. */
      for (guint64 i = 0; i < 400000; i++)
        STROBE_LOG (Bench, Tick, BenchChannel)
          {
            STROBE_SET (Time, strobe_time ());
            STROBE_SET (Value, i);
          }
      iterate_for (0.1);
      {
        g_autofree char *status = strobe_control_client_send (client, "status", NULL, NULL);
        g_autoptr (GHashTable) kv = strobe_control_parse_pairs (status ? status : "");
        tail[r] = g_ascii_strtod (g_hash_table_lookup (kv, "tail_bytes") ? g_hash_table_lookup (kv, "tail_bytes") : "0", NULL);
      }
      t0 = strobe_time ();
      w.after = t0;
      replied = FALSE;
      strobe_control_client_send_async (client, cmd, NULL, send_to_replied, &replied);
      while (!w.found)
        {
          guint8 buf[256 * 1024];
          ssize_t n;

          if (!g_main_context_iteration (NULL, FALSE))
            g_usleep (100);
          if (path == NULL && (path = newest_trace (s->dir, seen)) != NULL)
            fd = g_open (path, O_RDONLY, 0);
          while (fd >= 0 && (n = read (fd, buf, sizeof buf)) > 0)
            {
              fed += n;
              strobe_decoder_feed (decoder, buf, (gsize) n, NULL);
            }
          if (seconds_between (t0, strobe_time ()) > 10)
            g_error ("no live event stored within 10 s");
        }
      t1 = strobe_time ();
      lat[r] = seconds_between (t0, t1) * 1000;
      /* The client runs one command at a time: the send-to's reply first. */
      while (!replied)
        g_main_context_iteration (NULL, TRUE);
      if (fd >= 0)
        close (fd);
      reply = strobe_control_client_send (client, "stop", NULL, &error);
      g_assert_no_error (error);
      wait_ended (s, ++done);
    }
  __atomic_store_n (&emitter_quit, 1, __ATOMIC_RELAXED);
  pthread_join (emitter, NULL);
  bench_sort (lat, rounds);
  bench_sort (tail, rounds);
  bench_report ("latency.tail_replayed", tail[rounds / 2] / (1024 * 1024), "MiB (median)");
  bench_report ("latency.send_to_first_event", lat[rounds / 2], "ms (median)");
  bench_report ("latency.send_to_first_event_max", lat[rounds - 1], "ms");
  bench_report_ratio ("send_to_first_event_ms", lat[rounds / 2], "<=", 100);
  bench_report_ratio ("send_to_first_event_max_ms", lat[rounds - 1], "<=", 100);
}

/* ---- 2. a sender at full speed, and the recorder with 1 and 32 of them ----------------- */

typedef struct
{
  int        listen_fd;
  GByteArray *captured;
  gsize      cap;
  guint64    total;
} Sink;

static void *
sink_main (void *data)
{
  Sink *k = data;
  int fd = accept (k->listen_fd, NULL, NULL);
  static guint8 buf[1 << 20];
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    {
      if (k->captured->len < k->cap)
        g_byte_array_append (k->captured, buf, (guint) MIN ((gsize) n, k->cap - k->captured->len));
      k->total += (guint64) n;
    }
  close (fd);
  return NULL;
}

/* Cuts @stream after the last whole packet within @limit bytes and ends it with End. */
static void
cut_stream (GByteArray *stream, gsize limit)
{
  StrobeWireBuf end = { 0 };
  gsize pos = 8 + strobe_wire_get_u16 (stream->data + 6), last = pos;

  while (pos + 4 <= stream->len)
    {
      guint32 size = strobe_wire_get_u32 (stream->data + pos);
      if (pos + size > stream->len || pos + size > limit)
        break;
      if (strobe_wire_get_u16 (stream->data + pos + 4) == STROBE_TID_CONTROL
          && stream->data[pos + sizeof (StrobeWirePacketHeader)] == STROBE_CONTROL_END)
        break;   /* the one End goes at the end */
      pos += size;
      last = pos;
    }
  g_byte_array_set_size (stream, (guint) last);
  strobe_wire_write_control (&end, STROBE_CONTROL_END, NULL, 0);
  g_byte_array_append (stream, end.data, (guint) end.len);
  strobe_wire_buf_clear (&end);
}

static GByteArray *
bench_sender (double *mb_per_s)
{
  struct sockaddr_in sa = { 0 };
  socklen_t len = sizeof sa;
  Sink k = { -1, g_byte_array_new (), quick ? 16u << 20 : 48u << 20, 0 };
  g_autofree char *addr = NULL;
  pthread_t sink, emitter;
  StrobeStats before, after;
  guint64 t0, t1;

  k.listen_fd = socket (AF_INET, SOCK_STREAM, 0);
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  bind (k.listen_fd, (struct sockaddr *) &sa, sizeof sa);
  listen (k.listen_fd, 1);
  getsockname (k.listen_fd, (struct sockaddr *) &sa, &len);
  pthread_create (&sink, NULL, sink_main, &k);
  addr = g_strdup_printf ("127.0.0.1:%u", ntohs (sa.sin_port));
  strobe_output_host (addr);
  strobe_get_stats (&before);
  t0 = strobe_time ();
  emitter_quit = 0;
  pthread_create (&emitter, NULL, emitter_main, GINT_TO_POINTER (0));
  g_usleep (quick ? 500000 : 1000000);
  __atomic_store_n (&emitter_quit, 1, __ATOMIC_RELAXED);
  pthread_join (emitter, NULL);
  strobe_output_stop ();
  t1 = strobe_time ();
  strobe_get_stats (&after);
  pthread_join (sink, NULL);
  close (k.listen_fd);
  *mb_per_s = (double) k.total / seconds_between (t0, t1) / 1e6;
  bench_report ("sender.full_speed", *mb_per_s, "MB/s on the wire");
  bench_report ("sender.full_speed_events", (double) (after.events_emitted - before.events_emitted)
          / seconds_between (t0, t1) / 1e6, "M events/s");
  bench_report ("sender.dropped", (double) (after.events_dropped - before.events_dropped), "events");
  cut_stream (k.captured, k.cap);
  return k.captured;
}

typedef struct
{
  guint16     port;
  GByteArray *stream;
  guint       done;      /* senders finished (atomic) */
} Replay;

static void *
replay_main (void *data)
{
  Replay *r = data;
  struct sockaddr_in sa = { 0 };
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  gsize done = 0;

  sa.sin_family = AF_INET;
  sa.sin_port = htons (r->port);
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (connect (fd, (struct sockaddr *) &sa, sizeof sa) < 0)
    g_error ("connect to the recorder: %s", g_strerror (errno));
  while (done < r->stream->len)
    {
      ssize_t n = send (fd, r->stream->data + done, r->stream->len - done, MSG_NOSIGNAL);
      if (n <= 0)
        g_error ("send to the recorder: %s", g_strerror (errno));
      done += (gsize) n;
    }
  close (fd);
  __atomic_add_fetch (&r->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* The recorder hands sessions to the main context: keep it running while senders send. */
static void
join_senders (Replay *r, pthread_t *threads, guint n)
{
  while (__atomic_load_n (&r->done, __ATOMIC_ACQUIRE) < n)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (50);
  for (guint i = 0; i < n; i++)
    pthread_join (threads[i], NULL);
}

static double
bench_recorder (Server *s, GByteArray *stream, guint senders, gsize per_sender)
{
  g_autoptr (GByteArray) copy = g_byte_array_new ();
  pthread_t threads[64];
  Replay r;
  guint start = s->ended;
  gint64 t0, t1;

  g_byte_array_append (copy, stream->data, stream->len);
  cut_stream (copy, per_sender);
  r.port = strobe_recorder_get_port (s->recorder);
  r.stream = copy;
  r.done = 0;
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < senders; i++)
    pthread_create (&threads[i], NULL, replay_main, &r);
  join_senders (&r, threads, senders);
  wait_ended (s, start + senders);   /* every byte written to its file and synced */
  t1 = g_get_monotonic_time ();
  return (double) copy->len * senders / ((double) (t1 - t0) / G_USEC_PER_SEC) / 1e6;
}

/* ---- 3. a store client sees a new trace ------------------------------------------- */

typedef struct
{
  StrobeStoreClient *client;
  gint64             seen;
} StoreWatch;

static void
on_store_event (StrobeStoreClient *client, const char *name, GVariant *payload, StoreWatch *w)
{
  if (g_str_equal (name, "trace-added") && w->seen == 0)
    w->seen = g_get_monotonic_time ();
}

static void
on_connected (GObject *source, GAsyncResult *result, gpointer data)
{
  StoreWatch *w = data;
  g_autoptr (GError) error = NULL;

  w->client = strobe_store_client_connect_finish (result, &error);
  g_assert_no_error (error);
}

static void
on_subscribed (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;

  strobe_store_client_subscribe_finish (STROBE_STORE_CLIENT (source), result, &error);
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static void
bench_store (Server *s, GByteArray *stream)
{
  StoreWatch w = { NULL, 0 };
  g_autoptr (GByteArray) small = g_byte_array_new ();
  gboolean subscribed = FALSE;
  int rounds = quick ? 5 : 15;
  double ms[32];

  g_byte_array_append (small, stream->data, stream->len);
  cut_stream (small, 64 * 1024);
  strobe_store_client_connect_async ("127.0.0.1", strobe_store_server_get_port (s->server), BENCH_STORE_SECRET, NULL,
                                     on_connected, &w);
  while (w.client == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (w.client, "event", G_CALLBACK (on_store_event), &w);
  strobe_store_client_subscribe_async (w.client, NULL, on_subscribed, &subscribed);
  while (!subscribed)
    g_main_context_iteration (NULL, TRUE);
  for (int r = 0; r < rounds; r++)
    {
      Replay rp = { strobe_recorder_get_port (s->recorder), small, 0 };
      guint start = s->ended;
      pthread_t th;
      gint64 t0;

      w.seen = 0;
      t0 = g_get_monotonic_time ();
      pthread_create (&th, NULL, replay_main, &rp);
      while (w.seen == 0 && g_get_monotonic_time () - t0 < 10 * G_USEC_PER_SEC)
        if (!g_main_context_iteration (NULL, FALSE))
          g_usleep (50);
      join_senders (&rp, &th, 1);
      if (w.seen == 0)
        g_error ("no trace-added within 10 s");
      ms[r] = (double) (w.seen - t0) / 1000.0;
      wait_ended (s, start + 1);
    }
  bench_sort (ms, rounds);
  bench_report ("store.new_trace_seen", ms[rounds / 2], "ms (median)");
  bench_report ("store.new_trace_seen_max", ms[rounds - 1], "ms");
  bench_report_ratio ("new_trace_seen_ms", ms[rounds / 2], "<=", 100);
  bench_report_ratio ("new_trace_seen_max_ms", ms[rounds - 1], "<=", 100);
  strobe_store_client_close (w.client);
  g_object_unref (w.client);
}

int
main (int argc, char **argv)
{
  Server s = { 0 };
  GByteArray *stream;
  double sender, rec1, rec32;
  gsize per_sender;

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--quick"))
      quick = TRUE;
    else if (g_str_equal (argv[i], "--dir") && i + 1 < argc)
      bench_dir = argv[++i];
  g_setenv ("STROBE_DISCOVERY", "0", TRUE);
  /* No discovery file to find it in: the program and the client share this one. */
  g_setenv ("STROBE_CONTROL_SECRET", "strobe-bench-control", TRUE);
  g_unsetenv ("STROBE_TRACEFILE");
  g_unsetenv ("STROBE_TRACEHOST");
  strobe_channel_set_enabled ("Bench", TRUE);
  strobe_init (NULL);
  server_start (&s);

  bench_latency (&s);

  stream = bench_sender (&sender);
  rec1 = bench_recorder (&s, stream, 1, stream->len);
  bench_report ("recorder.1_sender", rec1, "MB/s");
  /* 32 senders share the same two cores as the recorder: each sends a smaller stream. */
  per_sender = MAX (stream->len / 8, 1u << 20);
  rec32 = bench_recorder (&s, stream, 32, per_sender);
  bench_report ("recorder.32_senders", rec32, "MB/s (aggregate)");
  bench_report_ratio ("recorder_1_vs_full_speed_sender", rec1 / sender, ">=", 1);
  bench_report_ratio ("recorder_32_vs_full_speed_sender", rec32 / sender, ">=", 1);

  bench_store (&s, stream);

  g_byte_array_unref (stream);
  strobe_store_server_stop (s.server);
  strobe_recorder_stop (s.recorder);
  g_object_unref (s.server);
  g_object_unref (s.recorder);
  g_object_unref (s.store);
  test_dir_remove_all (s.dir);
  g_free (s.dir);
  strobe_shutdown ();
  return 0;
}
