/* strobe-async-analyzer.c — see the header. The decoder's thread fills a block of copied
 * events; a full block goes to the worker and a walked one comes back (at most BLOCKS
 * exist, so the copies ahead of the worker stay bounded whatever the trace's size). A
 * barrier hands over the block being filled and waits until every block came back.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-async-analyzer.h"

#include <string.h>

#include "strobe-cpu-batch.h"
#include "strobe-give-way.h"

#define BLOCK   (512u * 1024u)
#define BLOCKS  8

typedef struct
{
  gsize    used, cap;
  gboolean last;
  guint8  *data;
} Block;

/* One event in a block; its payload and aux bytes follow, padded to 8. */
typedef struct
{
  const StrobeEventType *type;
  guint64 payload_len;
  guint64 aux_len;
  guint32 route;
  guint32 serial;
  guint16 thread;
  guint8  has_aux;
} Msg;

struct _StrobeAsyncAnalyzer
{
  GObject         parent_instance;

  StrobeAnalyzer *inner;
  StrobeAnalyzerInterface *iface;
  GThread        *thread;
  GAsyncQueue    *full;         /* Block * to deliver, in order */
  GAsyncQueue    *free;         /* Block * delivered */
  Block          *cur;          /* being filled by the decoder's thread */
  guint           blocks;       /* made so far */
  guint64         sent;         /* blocks handed to the worker */
  GMutex          lock;
  GCond           cond;
  guint64         delivered;    /* blocks the worker is done with (under lock) */
  GPtrArray      *joins;        /* the worker's, for aux values in several records */
  StrobeCpuExtentSink *extent;  /* the batches' times, as the walk left them */
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeAsyncAnalyzer, strobe_async_analyzer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static inline gsize
pad8 (gsize n)
{
  return (n + 7u) & ~(gsize) 7u;
}

/* The worker: each event as the decoder delivered it, but from the copy. */
static void
deliver_block (StrobeAsyncAnalyzer *self, const Block *b)
{
  guint64 lo = G_MAXUINT64, hi = 0;
  gsize at = 0, given_at = 0;

  while (at < b->used)
    {
      StrobeEvent ev = { 0 };
      Msg m;

      /* By bytes, not events: one event can be a batch of thousands of scopes. */
      if (at - given_at >= STROBE_GIVE_WAY_BYTES)
        {
          strobe_give_way ();
          given_at = at;
        }

      memcpy (&m, b->data + at, sizeof m);
      at += sizeof m;
      ev.type = m.type;
      ev.thread_id = m.thread;
      ev.serial = m.serial;
      ev.payload = b->data + at;
      ev.aux = m.has_aux ? b->data + at + m.payload_len : NULL;
      ev.aux_len = m.aux_len;
      ev._joins = self->joins;
      self->iface->on_event (self->inner, m.route, &ev);
      if (ev._extent_state == 2)
        {
          /* As the info analyzer notes times: 0 is not one. */
          if (ev._extent_first)
            lo = MIN (lo, ev._extent_first), hi = MAX (hi, ev._extent_first);
          if (ev._extent_last)
            lo = MIN (lo, ev._extent_last), hi = MAX (hi, ev._extent_last);
        }
      if (self->joins->len)
        g_ptr_array_set_size (self->joins, 0);
      at += pad8 (m.payload_len + m.aux_len);
    }
  if (hi != 0)
    strobe_cpu_extent_sink_add (self->extent, lo, hi);
}

static gpointer
worker_main (gpointer data)
{
  StrobeAsyncAnalyzer *self = data;

  for (;;)
    {
      Block *b = g_async_queue_pop (self->full);
      gboolean last = b->last;

      deliver_block (self, b);
      b->used = 0;
      b->last = FALSE;
      g_async_queue_push (self->free, b);
      g_mutex_lock (&self->lock);
      self->delivered++;
      g_cond_signal (&self->cond);
      g_mutex_unlock (&self->lock);
      if (last)
        return NULL;
    }
}

static void
block_free (gpointer data)
{
  Block *b = data;

  g_free (b->data);
  g_free (b);
}

static void
send_current (StrobeAsyncAnalyzer *self)
{
  if (self->cur == NULL)
    return;
  g_async_queue_push (self->full, self->cur);
  self->cur = NULL;
  self->sent++;
}

/* A block with room for @need bytes: a walked one back from the worker, else a new one
 * while fewer than BLOCKS exist, else the next the worker gives back. */
static guint8 *
reserve (StrobeAsyncAnalyzer *self, gsize need)
{
  Block *b = self->cur;

  if (b != NULL && b->used + need > b->cap)
    {
      send_current (self);
      b = NULL;
    }
  if (b == NULL)
    {
      b = g_async_queue_try_pop (self->free);
      if (b == NULL && self->blocks < BLOCKS)
        {
          b = g_new0 (Block, 1);
          self->blocks++;
        }
      else if (b == NULL)
        b = g_async_queue_pop (self->free);
      if (b->cap < need || b->cap == 0)
        {
          b->cap = MAX (need, BLOCK);
          b->data = g_realloc (b->data, b->cap);
        }
      self->cur = b;
    }
  b->used += need;
  return b->data + b->used - need;
}

static void
start (StrobeAsyncAnalyzer *self)
{
  if (self->thread != NULL)
    return;
  self->full = g_async_queue_new ();
  self->free = g_async_queue_new_full (block_free);
  self->thread = g_thread_new ("strobe-model", worker_main, self);
}

/* Everything handed over is delivered: the worker waits for the next block, and the
 * inner analyzer may be called from this thread (the mutex orders its memory too). */
static void
barrier (StrobeAsyncAnalyzer *self)
{
  if (self->thread == NULL)
    return;
  send_current (self);
  g_mutex_lock (&self->lock);
  while (self->delivered < self->sent)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);
}

static void
stop (StrobeAsyncAnalyzer *self)
{
  if (self->thread == NULL)
    return;
  reserve (self, 0);
  self->cur->last = TRUE;
  send_current (self);
  g_thread_join (self->thread);
  self->thread = NULL;
  g_clear_pointer (&self->full, g_async_queue_unref);
  g_clear_pointer (&self->free, g_async_queue_unref);
  self->blocks = 0;
  self->sent = self->delivered = 0;
}

/* ---- the analyzer: events copied, the rest after a barrier ---------------------------- */

static void
async_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeAsyncAnalyzer *self = (StrobeAsyncAnalyzer *) analyzer;
  gsize payload = ev->type->payload_size, aux = ev->aux ? ev->aux_len : 0;
  Msg m = { ev->type, payload, aux, route, ev->serial, ev->thread_id, ev->aux != NULL };
  guint8 *at;

  start (self);
  at = reserve (self, sizeof m + pad8 (payload + aux));
  memcpy (at, &m, sizeof m);
  memcpy (at + sizeof m, ev->payload, payload);
  if (aux)
    memcpy (at + sizeof m + payload, ev->aux, aux);
  /* A batch's extent comes from the worker's walk, through the sink. */
  if (ev->_extent_state == 0)
    strobe_cpu_batch_defer_extent (ev, self->extent);
}

static void
async_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  StrobeAsyncAnalyzer *self = STROBE_ASYNC_ANALYZER (analyzer);

  /* The inner analyzer subscribes; the context routes its events here. */
  barrier (self);
  if (self->iface->begin)
    self->iface->begin (self->inner, ctx);
}

static void
async_on_metadata (StrobeAnalyzer *analyzer, const StrobeWireMetadata *metadata)
{
  StrobeAsyncAnalyzer *self = STROBE_ASYNC_ANALYZER (analyzer);

  barrier (self);
  strobe_analyzer_on_metadata (self->inner, metadata);
}

static void
async_on_event_type (StrobeAnalyzer *analyzer, const StrobeEventType *type)
{
  StrobeAsyncAnalyzer *self = STROBE_ASYNC_ANALYZER (analyzer);

  barrier (self);
  strobe_analyzer_on_event_type (self->inner, type);
}

static void
async_flush (StrobeAnalyzer *analyzer)
{
  StrobeAsyncAnalyzer *self = STROBE_ASYNC_ANALYZER (analyzer);

  barrier (self);
  strobe_analyzer_flush (self->inner);
}

static void
async_end (StrobeAnalyzer *analyzer, const GError *error)
{
  StrobeAsyncAnalyzer *self = STROBE_ASYNC_ANALYZER (analyzer);

  stop (self);
  strobe_analyzer_end (self->inner, error);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = async_begin;
  iface->on_metadata = async_on_metadata;
  iface->on_event_type = async_on_event_type;
  iface->on_event = async_on_event;
  iface->end = async_end;
  iface->flush = async_flush;
}

static void
strobe_async_analyzer_finalize (GObject *object)
{
  StrobeAsyncAnalyzer *self = STROBE_ASYNC_ANALYZER (object);

  stop (self);
  g_clear_object (&self->inner);
  g_ptr_array_unref (self->joins);
  strobe_cpu_extent_sink_unref (self->extent);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (strobe_async_analyzer_parent_class)->finalize (object);
}

static void
strobe_async_analyzer_class_init (StrobeAsyncAnalyzerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_async_analyzer_finalize;
}

static void
strobe_async_analyzer_init (StrobeAsyncAnalyzer *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->joins = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  self->extent = strobe_cpu_extent_sink_new ();
}

StrobeAsyncAnalyzer *
strobe_async_analyzer_new (StrobeAnalyzer *inner)
{
  StrobeAsyncAnalyzer *self;

  g_return_val_if_fail (STROBE_IS_ANALYZER (inner), NULL);
  self = g_object_new (STROBE_TYPE_ASYNC_ANALYZER, NULL);
  self->inner = g_object_ref (inner);
  self->iface = STROBE_ANALYZER_GET_IFACE (inner);
  return self;
}
