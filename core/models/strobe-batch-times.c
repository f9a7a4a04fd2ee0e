/* strobe-batch-times.c — see the header. Walking every batch for its times was a quarter
 * of `strobe-cli compare`'s CPU, beside the timer stream's own walk.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "strobe-batch-times.h"
#include "strobe-cpu-batch.h"

typedef struct
{
  guint64 base;
  guint   shift;
  gsize   n, cap;
  guint8 *data;
} Latest;

struct _StrobeBatchTimes
{
  GHashTable *latest;   /* thread id + 1 → Latest * */
  gsize       kept;     /* bytes of the copies */
  gsize       max_kept;
  gboolean    any;
  guint64     first, last;
};

static void
latest_free (gpointer data)
{
  Latest *b = data;

  g_free (b->data);
  g_free (b);
}

StrobeBatchTimes *
strobe_batch_times_new (gsize kept_bytes)
{
  StrobeBatchTimes *self = g_new0 (StrobeBatchTimes, 1);

  self->max_kept = kept_bytes;
  self->latest = g_hash_table_new_full (NULL, NULL, NULL, latest_free);
  return self;
}

void
strobe_batch_times_free (StrobeBatchTimes *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->latest);
  g_free (self);
}

static void
walk (StrobeBatchTimes *self, guint64 base, guint shift, const guint8 *p, gsize n)
{
  guint64 first = 0, last = 0;

  if (n == 0 || !strobe_cpu_batch_time_range (base, shift, p, n, &first, &last))
    return;
  self->first = self->any ? MIN (self->first, first) : first;
  self->last = self->any ? MAX (self->last, last) : last;
  self->any = TRUE;
}

void
strobe_batch_times_add (StrobeBatchTimes *self, guint16 thread_id, guint64 base, guint shift,
                        const guint8 *data, gsize n)
{
  Latest *b;

  g_return_if_fail (self != NULL);
  g_return_if_fail (data != NULL || n == 0);

  if (n == 0)
    return;
  b = g_hash_table_lookup (self->latest, GUINT_TO_POINTER ((guint) thread_id + 1));
  if (b == NULL)
    {
      g_hash_table_insert (self->latest, GUINT_TO_POINTER ((guint) thread_id + 1), g_new0 (Latest, 1));
      walk (self, base, shift, data, n);
      return;
    }
  if (n > b->cap && self->kept + n - b->cap <= self->max_kept)
    {
      self->kept += MAX (n, 2 * b->cap) - b->cap;
      b->cap = MAX (n, 2 * b->cap);
      g_free (b->data);
      b->data = g_malloc (b->cap);
    }
  if (n > b->cap)
    {
      /* No room to keep it: its times now, the one kept before is superseded. */
      walk (self, base, shift, data, n);
      b->n = 0;
      return;
    }
  memcpy (b->data, data, n);
  b->n = n;
  b->base = base;
  b->shift = shift;
}

gboolean
strobe_batch_times_end (StrobeBatchTimes *self, guint64 *first, guint64 *last)
{
  GHashTableIter it;
  gpointer value;

  g_return_val_if_fail (self != NULL && first != NULL && last != NULL, FALSE);

  g_hash_table_iter_init (&it, self->latest);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      Latest *b = value;

      walk (self, b->base, b->shift, b->data, b->n);
      g_free (b->data);
      b->data = NULL;
      b->n = b->cap = 0;
    }
  self->kept = 0;
  *first = self->first;
  *last = self->last;
  return self->any;
}
