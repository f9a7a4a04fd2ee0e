/* strobe-cpu-batch.h — the encoding of Cpu.EventBatch records (runtime/INSTRUMENTATION.md,
 * "Batch encoding"), shared by the timeline model, which builds scopes from it, and the
 * info analyzer, which needs only the first and last timestamp for the trace's extent.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

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

static inline void
strobe_cpu_batch_ignore_begin (gpointer data, guint64 time, guint64 spec_id)
{
}

static inline void
strobe_cpu_batch_ignore_end (gpointer data, guint64 time)
{
}

/* The timestamps of the first and last record of a batch (ticks); FALSE when it has none
 * that decode. */
static inline gboolean
strobe_cpu_batch_time_range (guint64       base,
                             guint         shift,
                             const guint8 *p,
                             gsize         n,
                             guint64      *first,
                             guint64      *last)
{
  return strobe_cpu_batch_walk (base, shift, p, n, strobe_cpu_batch_ignore_begin,
                                strobe_cpu_batch_ignore_end, NULL, first, last);
}

G_END_DECLS
