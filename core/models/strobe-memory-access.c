/* strobe-memory-access.c — a memory model's allocations read one by one, by index
 * (strobe_memory_model_get_alloc, _get_allocs, _get_count), from its store; a stack's
 * addresses (_get_callstack).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-model-private.h"

#include <string.h>

/* Whether record @index is there to read: a summary model keeps only the live ones (and
 * a few ended ones it still needs), so an index it handed out may have left. */
static gboolean
has_record (const StrobeMemoryStore *s, guint64 index)
{
  if (index >= strobe_memory_store_n_records (s))
    return FALSE;
  return s->slots == NULL || strobe_memory_slots_find (s->slots, index) != NULL;
}

guint64
strobe_memory_model_get_count (StrobeMemoryModel *self)
{
  StrobeMemoryStore s;
  guint64 n;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  n = strobe_memory_store_n_records (&s);
  g_mutex_unlock (s.lock);
  return n;
}

gboolean
strobe_memory_model_get_alloc (StrobeMemoryModel *self, guint64 index, StrobeMemoryAlloc *out)
{
  StrobeMemoryStore s;
  gboolean ok;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  ok = has_record (&s, index);
  if (ok)
    {
      strobe_memory_store_get (&s, index, out);
      out->alloc_time = strobe_memory_store_alloc_time (&s, index);
    }
  g_mutex_unlock (s.lock);
  return ok;
}

guint
strobe_memory_model_get_allocs (StrobeMemoryModel *self, const guint64 *indexes, guint n, StrobeMemoryAlloc *out)
{
  StrobeMemoryStore s;
  guint got = 0;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  g_return_val_if_fail (n == 0 || (indexes != NULL && out != NULL), 0);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  for (guint i = 0; i < n; i++)
    if (has_record (&s, indexes[i]))
      {
        strobe_memory_store_get (&s, indexes[i], &out[i]);
        out[i].alloc_time = strobe_memory_store_alloc_time (&s, indexes[i]);
        got++;
      }
    else
      memset (&out[i], 0, sizeof out[i]);
  g_mutex_unlock (s.lock);
  return got;
}

/* A stack's addresses, innermost first: its frames as the stacks' trie keeps them. */
GArray *
strobe_memory_model_get_callstack (StrobeMemoryModel *self, guint32 id)
{
  StrobeMemoryFrame frames[STROBE_MEMORY_MAX_STACK_DEPTH];
  GArray *f;
  guint n;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  if ((n = strobe_memory_model_get_frames (self, id, frames, G_N_ELEMENTS (frames))) == 0)
    return NULL;
  f = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (f, frames[i].address);
  return f;
}
