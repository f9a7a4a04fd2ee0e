/* strobe-update.c — the consumer: one update round, the worker thread that repeats it,
 * and the running totals.
 *
 * Order within a round matters: thread positions are snapshotted FIRST, then new
 * important records are shipped, then thread data up to the snapshot. An important event
 * appended before some thread data was committed is therefore always shipped first. */
#include "strobe-buffers-private.h"
#include "strobe-output-private.h"
#include "strobe-instrument-private.h"
#include "strobe-memory-private.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#define STATS_PERIOD_NS   (250u * 1000u * 1000u)
#define IDLE_SLEEP_MS     10
#define BUSY_BYTES        (256u * 1024u)
#define IMPORTANT_PACKET  (256u * 1024u)


/* Consumer state, under the update lock. */
static size_t         imp_shipped;
static StrobeWireBuf  imp_copy;
static StrobeThread **snap;
static size_t         snap_cap;
static uint64_t       last_stats_ns;
/* Totals: written under the update lock, read relaxed by strobe_get_stats. */
static uint64_t       bytes_drained;
static uint64_t       gone_events;     /* of freed threads */
static uint64_t       gone_dropped;

static void worker_forget (void);

/* ---- the output, above this file: reached through its hooks (strobe-output.c) ---------- */

static void
out_packet (uint16_t thread_id, const uint8_t *data, size_t len)
{
  strobe__hooks_get ()->out_packet (thread_id, data, len);
}

static void
out_write_pending (void)
{
  strobe__hooks_get ()->out_write_pending ();
}

static bool
out_backed_up (void)
{
  return strobe__hooks_get ()->out_backed_up ();
}

static int
out_error (void)
{
  return strobe__hooks_get ()->out_error ();
}

static uint64_t
out_bytes_sent (void)
{
  return strobe__hooks_get ()->out_bytes_sent ();
}

static uint64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void
add_drained (size_t n)
{
  __atomic_store_n (&bytes_drained, bytes_drained + n, __ATOMIC_RELAXED);
}

/* Cuts important-cache bytes into packets, each ending on a record boundary (every
 * important record carries its size). */
void
strobe__importants_to_packets (const uint8_t *data, size_t len,
                               void (*sink) (uint16_t thread_id, const uint8_t *data, size_t len, void *user),
                               void *user)
{
  size_t pos = 0, start = 0;

  while (pos < len)
    {
      size_t rec = sizeof (StrobeWireImportantHeader) + strobe_wire_get_u32 (data + pos + 2);
      if (pos > start && pos + rec - start > IMPORTANT_PACKET)
        {
          sink (STROBE_TID_IMPORTANTS, data + start, pos - start, user);
          start = pos;
        }
      pos += rec;
    }
  if (pos > start)
    sink (STROBE_TID_IMPORTANTS, data + start, pos - start, user);
}

static void
out_sink (uint16_t thread_id, const uint8_t *data, size_t len, void *user)
{
  (void) user;
  out_packet (thread_id, data, len);
}

static size_t
ship_importants (void)
{
  imp_copy.len = 0;
  imp_shipped = strobe__important_copy (imp_shipped, &imp_copy);
  strobe__importants_to_packets (imp_copy.data, imp_copy.len, out_sink, NULL);
  add_drained (imp_copy.len);
  return imp_copy.len;
}

void
strobe__replay_importants_locked (void)
{
  imp_shipped = 0;
  ship_importants ();
}

static void
take_snapshot (size_t *count)
{
  size_t n = 0;

  pthread_mutex_lock (&strobe__threads_lock);
  for (StrobeThread *t = strobe__threads; t; t = t->next)
    {
      if (n == snap_cap)
        {
          size_t cap = snap_cap ? 2 * snap_cap : 64;
          StrobeThread **p = realloc (snap, cap * sizeof *p);
          if (p == NULL)
            break;   /* the rest waits for the next round */
          snap = p;
          snap_cap = cap;
        }
      /* exited before tail: once exited is seen, the tail and its commit are final. */
      t->snap_exited = __atomic_load_n (&t->exited, __ATOMIC_ACQUIRE) != 0;
      t->snap_block = __atomic_load_n (&t->tail, __ATOMIC_ACQUIRE);
      t->snap_committed = t->snap_block ? __atomic_load_n (&t->snap_block->hdr.committed, __ATOMIC_ACQUIRE)
                                        : NULL;
      t->snap_valid = true;
      snap[n++] = t;
    }
  pthread_mutex_unlock (&strobe__threads_lock);
  *count = n;
}

static void
retire_thread (StrobeThread *t)
{
  StrobeThread **link;

  pthread_mutex_lock (&strobe__threads_lock);
  for (link = &strobe__threads; *link && *link != t; link = &(*link)->next)
    ;
  if (*link)
    *link = t->next;
  pthread_mutex_unlock (&strobe__threads_lock);
  if (t->id)
    strobe__emit_thread_end (t->id, t->exit_time);
  __atomic_store_n (&gone_events, gone_events + t->events_retired
                    + (t->snap_block ? t->snap_block->hdr.events : 0), __ATOMIC_RELAXED);
  __atomic_store_n (&gone_dropped, gone_dropped + t->dropped, __ATOMIC_RELAXED);
  strobe__thread_free (t);
}

static size_t
ship_thread (StrobeThread *t)
{
  StrobeBlock *b;
  size_t moved = 0;

  if (t->snap_block == NULL)
    {
      if (t->snap_exited)
        retire_thread (t);
      return 0;
    }
  b = t->head ? t->head : __atomic_load_n (&t->first, __ATOMIC_ACQUIRE);
  for (;;)
    {
      bool last = b == t->snap_block;
      uint8_t *c = last ? t->snap_committed : __atomic_load_n (&b->hdr.committed, __ATOMIC_ACQUIRE);
      StrobeBlock *next;

      if (c > b->shipped)
        {
          out_packet (t->id, b->shipped, (size_t) (c - b->shipped));
          moved += (size_t) (c - b->shipped);
          b->shipped = c;
        }
      if (last)
        break;
      /* Blocks before the snapshot's block are complete and no longer written. */
      next = __atomic_load_n (&b->next, __ATOMIC_ACQUIRE);
      t->events_retired += b->hdr.events;
      strobe__pool_put (b);
      b = next;
    }
  t->head = b;
  add_drained (moved);
  if (t->snap_exited)
    retire_thread (t);
  return moved;
}

size_t
strobe__update_locked (void)
{
  size_t n, moved;
  uint64_t now = now_ns ();

  strobe__memory_guard++;
  if (now - last_stats_ns >= STATS_PERIOD_NS)
    {
      last_stats_ns = now;
      strobe__stats_emit_locked ();
    }
  if (out_backed_up ())
    {
      out_write_pending ();
      strobe__memory_guard--;
      return 0;
    }
  strobe__memory_drain ();   /* into this thread's block, shipped below */
  strobe__sampling_drain (); /* likewise */
  take_snapshot (&n);
  moved = ship_importants ();
  for (size_t i = 0; i < n && !out_backed_up (); i++)
    moved += ship_thread (snap[i]);
  out_write_pending ();
  strobe__memory_guard--;
  return moved;
}

bool
strobe_update (void)
{
  pthread_mutex_lock (&strobe__update_lock);
  strobe__update_locked ();
  pthread_mutex_unlock (&strobe__update_lock);
  strobe__channels_report_unmatched (false);
  if (out_error ())
    {
      errno = out_error ();
      return false;
    }
  return true;
}

bool
strobe_flush (void)
{
  strobe__cpu_request_flush_all ();
  return strobe_update ();
}

void
strobe__stats_collect (StrobeStats *s)
{
  uint64_t events = __atomic_load_n (&gone_events, __ATOMIC_RELAXED);
  uint64_t dropped = __atomic_load_n (&gone_dropped, __ATOMIC_RELAXED) + strobe__dropped_elsewhere ();

  /* Blocks are recycled only by the updater; holding the threads lock keeps the states
   * alive, and the updater's lock (held by every caller but strobe_get_stats, which
   * takes it) keeps the chains still. */
  pthread_mutex_lock (&strobe__threads_lock);
  for (StrobeThread *t = strobe__threads; t; t = t->next)
    {
      StrobeBlock *b = t->head ? t->head : __atomic_load_n (&t->first, __ATOMIC_ACQUIRE);
      events += t->events_retired;
      for (; b; b = __atomic_load_n (&b->next, __ATOMIC_ACQUIRE))
        events += __atomic_load_n (&b->hdr.events, __ATOMIC_RELAXED);
      dropped += __atomic_load_n (&t->dropped, __ATOMIC_RELAXED);
    }
  pthread_mutex_unlock (&strobe__threads_lock);
  s->bytes_emitted = __atomic_load_n (&bytes_drained, __ATOMIC_RELAXED);
  s->bytes_sent = out_bytes_sent ();
  s->events_emitted = events;
  s->events_dropped = dropped;
  s->buffer_memory = strobe__pool_memory ();
  s->buffer_limit = strobe__pool_limit ();
}

void
strobe__stats_emit_locked (void)
{
  StrobeStats s;

  strobe__stats_collect (&s);
  strobe__emit_stats (&s);
}

void
strobe_get_stats (StrobeStats *stats)
{
  pthread_mutex_lock (&strobe__update_lock);
  strobe__stats_collect (stats);
  pthread_mutex_unlock (&strobe__update_lock);
}

/* In a forked child (every runtime lock held): the totals start again from zero, and the
 * parent's worker does not exist here. */
void
strobe__update_after_fork_child (void)
{
  imp_shipped = 0;
  bytes_drained = 0;
  gone_events = 0;
  gone_dropped = 0;
  last_stats_ns = 0;
  worker_forget ();
}

/* ---- the worker ------------------------------------------------------------------- */

static pthread_t       worker;
static bool            worker_running;
static bool            worker_quit;
static bool            worker_kicked;
static pthread_cond_t  worker_cond = PTHREAD_COND_INITIALIZER;

static void
worker_forget (void)
{
  worker_running = false;
  worker_quit = false;
  worker_kicked = false;
}

bool
strobe__worker_running (void)
{
  return worker_running;
}

void
strobe__worker_kick (void)
{
  pthread_mutex_lock (&strobe__worker_lock);
  worker_kicked = true;
  pthread_cond_signal (&worker_cond);
  pthread_mutex_unlock (&strobe__worker_lock);
}

static void *
worker_main (void *data)
{
  pthread_setname_np (pthread_self (), "strobe-worker");
  strobe__own_thread_named ();
  strobe__thread_untraced ();
  strobe__thread_set_no_wait (true);
  for (;;)
    {
      size_t moved;

      pthread_mutex_lock (&strobe__update_lock);
      moved = strobe__update_locked ();
      pthread_mutex_unlock (&strobe__update_lock);
      strobe__channels_report_unmatched (false);

      pthread_mutex_lock (&strobe__worker_lock);
      if (worker_quit)
        {
          pthread_mutex_unlock (&strobe__worker_lock);
          break;
        }
      /* Busy: go round again at once. Idle: a short fixed nap, cut short by a kick. */
      if (moved < BUSY_BYTES && !worker_kicked)
        {
          struct timespec until;
          clock_gettime (CLOCK_REALTIME, &until);
          until.tv_nsec += IDLE_SLEEP_MS * 1000000L;
          if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
          pthread_cond_timedwait (&worker_cond, &strobe__worker_lock, &until);
        }
      worker_kicked = false;
      pthread_mutex_unlock (&strobe__worker_lock);
    }
  return NULL;
}

void
strobe__worker_start (void)
{
  sigset_t all, old;

  if (worker_running)
    return;
  worker_quit = false;
  /* The worker must not take the program's signals. */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  strobe__own_thread_begin ();
  worker_running = pthread_create (&worker, NULL, worker_main, NULL) == 0;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (!worker_running)
    strobe__own_thread_named ();
}

void
strobe__worker_stop (void)
{
  if (!worker_running)
    return;
  pthread_mutex_lock (&strobe__worker_lock);
  worker_quit = true;
  pthread_cond_signal (&worker_cond);
  pthread_mutex_unlock (&strobe__worker_lock);
  pthread_join (worker, NULL);
  worker_running = false;
}

/* Lower parts wake the worker (a full pool or memory ring) or flush (a Fatal log message)
 * through these. */
static void
update_hooks (StrobeHooks *hooks)
{
  hooks->consumer_kick = strobe__worker_kick;
  hooks->consumer_update = strobe_update;
  hooks->consumer_flush = strobe_flush;
}
STROBE_HOOKS_SETTER (update_hooks);
