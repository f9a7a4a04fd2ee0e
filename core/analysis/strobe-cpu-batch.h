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

/* Whether a walk left the extent on @ev; *@any then says whether any record decoded. */
static inline gboolean
strobe_cpu_batch_recall_extent (const StrobeEvent *ev,
                                gboolean          *any,
                                guint64           *first,
                                guint64           *last)
{
  if (ev->_extent_state == 0)
    return FALSE;
  *any = ev->_extent_state == 2;
  *first = ev->_extent_first;
  *last = ev->_extent_last;
  return TRUE;
}

G_END_DECLS
