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

/* The timestamps of the first and last record of a batch (ticks); FALSE when it has none
 * that decode. Records after a malformed varint are ignored, as the timeline does. */
static inline gboolean
strobe_cpu_batch_time_range (guint64       base,
                             guint         shift,
                             const guint8 *p,
                             gsize         n,
                             guint64      *first,
                             guint64      *last)
{
  const guint8 *end = p + n;
  guint64 units = base;
  gboolean any = FALSE;

  shift = MIN (shift, 63);
  while (p != NULL && p < end)
    {
      guint64 v, id;

      if ((p = strobe_cpu_batch_read_varint (p, end, &v)) == NULL)
        break;
      units += v >> 1;
      if (!any)
        *first = units << shift;
      any = TRUE;
      *last = units << shift;
      if (!(v & 1))
        p = strobe_cpu_batch_read_varint (p, end, &id);
    }
  return any;
}

G_END_DECLS
