/* strobe-cpu-batch.h — the encoding of Cpu.EventBatch records (runtime/INSTRUMENTATION.md,
 * "Batch encoding"), shared by the timeline model, which builds scopes from it, and the
 * info analyzer, which needs only the first and last timestamp for the trace's extent.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "strobe-event.h"

G_BEGIN_DECLS

/* One LEB128 varint; NULL when it runs past @end or beyond 64 bits. */
static inline const guint8 *
strobe_cpu_batch_read_varint (const guint8 *p,
                              const guint8 *end,
                              guint64      *out)
{
  guint64 v = 0;
  guint shift = 0;

  while (p < end)
    {
      guint8 b = *p++;

      v |= (guint64) (b & 0x7f) << shift;
      if (!(b & 0x80))
        {
          *out = v;
          return p;
        }
      shift += 7;
      if (shift > 63)
        break;
    }
  return NULL;
}

/* Walks a batch's records in order: @begin (@data, time, spec id) for a scope's begin,
 * @end (@data, time) for an end (times in ticks). Records after a malformed varint are
 * ignored. Returns whether any record decoded, with the first and last record's time.
 * Always inlined, so constant callbacks are inlined too: the timeline model's and the
 * streaming timers' hot loop, and the info analyzer's walk for the trace's extent. */
static inline __attribute__ ((always_inline)) gboolean
strobe_cpu_batch_walk (guint64        units,
                       guint          shift,
                       const guint8  *p,
                       gsize          n,
                       void         (*begin) (gpointer data, guint64 time, guint64 spec_id),
                       void         (*end)   (gpointer data, guint64 time),
                       gpointer       data,
                       guint64       *first,
                       guint64       *last)
{
  const guint8 *stop = p + n;
  guint64 ts = 0, v, id;
  gboolean any = FALSE;

  shift = MIN (shift, 63);
  while (p < stop)
    {
      /* One-byte varints, nearly all of them, without the general decoder's loop. */
      if (G_LIKELY (*p < 0x80))
        v = *p++;
      else if ((p = strobe_cpu_batch_read_varint (p, stop, &v)) == NULL)
        break;
      units += v >> 1;
      ts = units << shift;
      if (G_UNLIKELY (!any))
        *first = ts;
      any = TRUE;
      if (v & 1)
        end (data, ts);
      else
        {
          if (G_LIKELY (p < stop && *p < 0x80))
            id = *p++;
          else if ((p = strobe_cpu_batch_read_varint (p, stop, &id)) == NULL)
            break;
          begin (data, ts, id);
        }
    }
  if (any)
    *last = ts;
  return any;
}

/* The timestamps of the first and last record of a batch (ticks); FALSE when it has none
 * that decode — exactly what strobe_cpu_batch_walk() reports. The info analyzer runs this
 * over every batch beside the model's own walk, so it reads eight bytes at a time and
 * finds each varint's end from the continuation bits: no branch on a record's kind,
 * which a nesting makes as unpredictable as a coin (that walk was a fifth of `stats`). */
static inline gboolean
strobe_cpu_batch_time_range (guint64       base,
                             guint         shift,
                             const guint8 *p,
                             gsize         n,
                             guint64      *first,
                             guint64      *last)
{
  const guint8 *stop = p + n;
  guint64 units = base, ts = 0, v, id;
  gboolean any = FALSE;

  shift = MIN (shift, 63);
  while (p < stop)
    {
      if (G_LIKELY (stop - p >= 8))
        {
          guint64 x, term, rest;
          guint tl, il;

          memcpy (&x, p, 8);
          x = GUINT64_FROM_LE (x);
          term = ~x & G_GUINT64_CONSTANT (0x8080808080808080);
          /* The time's length in bytes (8 when no byte of the eight ends it). */
          tl = ((guint) __builtin_ctzll (term | G_GUINT64_CONSTANT (0x8000000000000000)) >> 3) + 1;
          if (G_LIKELY (tl <= 2))
            {
              v = (x & 0x7f) | ((x >> 1) & 0x3f80 & -(guint64) (tl - 1));
              rest = term >> (8 * tl);
              /* A begin's id ends inside the eight bytes, or the general path reads it. */
              if (G_LIKELY ((v & 1) || rest != 0))
                {
                  il = ((guint) __builtin_ctzll (rest | G_GUINT64_CONSTANT (0x8000000000000000)) >> 3) + 1;
                  units += v >> 1;
                  ts = units << shift;
                  if (G_UNLIKELY (!any))
                    *first = ts;
                  any = TRUE;
                  p += tl + ((v & 1) ? 0 : il);
                  continue;
                }
            }
        }
      /* Near the end, or a long varint: one record as strobe_cpu_batch_walk reads it. */
      if (G_LIKELY (*p < 0x80))
        v = *p++;
      else if ((p = strobe_cpu_batch_read_varint (p, stop, &v)) == NULL)
        break;
      units += v >> 1;
      ts = units << shift;
      if (G_UNLIKELY (!any))
        *first = ts;
      any = TRUE;
      if (!(v & 1) && (p = strobe_cpu_batch_read_varint (p, stop, &id)) == NULL)
        break;
    }
  if (any)
    *last = ts;
  return any;
}

/* The models walk every batch record by record; the info analyzer needs only its first and
 * last time. The first full walk of a delivered batch leaves them on the event, and the
 * info analyzer (subscribed last) takes them instead of reading the batch again. The
 * event is the decoder's, alive for this delivery only; the decoder clears the note. */
static inline void
strobe_cpu_batch_note_extent (const StrobeEvent *ev,
                              gboolean           any,
                              guint64            first,
                              guint64            last)
{
  StrobeEvent *e = (StrobeEvent *) ev;

  e->_extent_state = any ? 2 : 1;
  e->_extent_first = first;
  e->_extent_last = last;
}

/* Where an analyzer that walks batches on threads of its own (the streaming timers'
 * lanes) leaves their extent, as it goes: the smallest and largest time that is not 0
 * (the info analyzer's rule) of the batches walked so far. The info analyzer keeps a
 * reference and reads it with its own extent, so the trace's extent is the same as if
 * it had walked them, once the walking analyzer has ended. */
typedef struct
{
  gatomicrefcount ref;
  GMutex          lock;
  gboolean        any;
  guint64         first, last;
} StrobeCpuExtentSink;

static inline StrobeCpuExtentSink *
strobe_cpu_extent_sink_new (void)
{
  StrobeCpuExtentSink *sink = g_new0 (StrobeCpuExtentSink, 1);

  g_atomic_ref_count_init (&sink->ref);
  g_mutex_init (&sink->lock);
  return sink;
}

static inline StrobeCpuExtentSink *
strobe_cpu_extent_sink_ref (StrobeCpuExtentSink *sink)
{
  g_atomic_ref_count_inc (&sink->ref);
  return sink;
}

static inline void
strobe_cpu_extent_sink_unref (gpointer data)
{
  StrobeCpuExtentSink *sink = data;

  if (sink != NULL && g_atomic_ref_count_dec (&sink->ref))
    {
      g_mutex_clear (&sink->lock);
      g_free (sink);
    }
}

/* Times @first..@last (0: none) into the sink. */
static inline void
strobe_cpu_extent_sink_add (StrobeCpuExtentSink *sink,
                            guint64              first,
                            guint64              last)
{
  if (first == 0 && last == 0)
    return;
  if (first == 0)
    first = last;
  if (last == 0)
    last = first;
  g_mutex_lock (&sink->lock);
  sink->first = sink->any ? MIN (sink->first, first) : first;
  sink->last = sink->any ? MAX (sink->last, last) : last;
  sink->any = TRUE;
  g_mutex_unlock (&sink->lock);
}

static inline gboolean
strobe_cpu_extent_sink_read (StrobeCpuExtentSink *sink,
                             guint64             *first,
                             guint64             *last)
{
  gboolean any;

  g_mutex_lock (&sink->lock);
  any = sink->any;
  *first = sink->first;
  *last = sink->last;
  g_mutex_unlock (&sink->lock);
  return any;
}

/* The batch @ev is walked elsewhere: its extent will be in @sink. */
static inline void
strobe_cpu_batch_defer_extent (const StrobeEvent   *ev,
                               StrobeCpuExtentSink *sink)
{
  StrobeEvent *e = (StrobeEvent *) ev;

  e->_extent_state = 3;
  e->_extent_sink = sink;
}

/* Whether a walk left the extent on @ev; *@any then says whether any record decoded. */
static inline gboolean
strobe_cpu_batch_recall_extent (const StrobeEvent *ev,
                                gboolean          *any,
                                guint64           *first,
                                guint64           *last)
{
  if (ev->_extent_state == 0 || ev->_extent_state == 3)
    return FALSE;
  *any = ev->_extent_state == 2;
  *first = ev->_extent_first;
  *last = ev->_extent_last;
  return TRUE;
}

G_END_DECLS
