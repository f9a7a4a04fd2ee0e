/* strobe-memory-livemap.c — see strobe-memory-livemap.h.
 *
 * The hash is two rounds of multiply-xorshift over the key xor a random 128-bit seed: not
 * a cryptographic PRF, but without the seed a trace cannot be built whose addresses share
 * a slot, and the seed is drawn per map from GLib's random source.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-livemap.h"

#define MIN_CAP 1024

static inline gsize
hash (const StrobeLiveMap *m, guint64 key, guint32 space)
{
  guint64 h = (key ^ m->seed[0]) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  h ^= (h >> 32) ^ ((guint64) space << 7) ^ m->seed[1];
  h *= G_GUINT64_CONSTANT (0xd6e8feb86659fd93);
  h ^= h >> 29;
  return (gsize) h;
}

void
strobe_live_map_init (StrobeLiveMap *m)
{
  m->cap = MIN_CAP;
  m->count = 0;
  m->slots = g_new0 (StrobeLiveSlot, m->cap);
  for (guint i = 0; i < 2; i++)
    m->seed[i] = ((guint64) g_random_int () << 32) | g_random_int ();
}

void
strobe_live_map_clear (StrobeLiveMap *m)
{
  g_clear_pointer (&m->slots, g_free);
  m->cap = m->count = 0;
}

static StrobeLiveSlot *
find (const StrobeLiveMap *m, guint64 key, guint32 space)
{
  gsize mask = m->cap - 1;

  for (gsize i = hash (m, key, space) & mask;; i = (i + 1) & mask)
    {
      StrobeLiveSlot *s = &m->slots[i];
      if (s->value_plus1 == 0)
        return NULL;
      if (s->key == key && s->space == space)
        return s;
    }
}

gboolean
strobe_live_map_lookup (const StrobeLiveMap *m, guint64 key, guint32 space, guint32 *value)
{
  StrobeLiveSlot *s = find (m, key, space);

  if (s == NULL)
    return FALSE;
  *value = s->value_plus1 - 1;
  return TRUE;
}

static void
put (StrobeLiveMap *m, guint64 key, guint32 space, guint32 value_plus1)
{
  gsize mask = m->cap - 1, i;

  for (i = hash (m, key, space) & mask; m->slots[i].value_plus1; i = (i + 1) & mask)
    ;
  m->slots[i].key = key;
  m->slots[i].space = space;
  m->slots[i].value_plus1 = value_plus1;
  m->count++;
}

static void
grow (StrobeLiveMap *m)
{
  StrobeLiveSlot *old = m->slots;
  gsize old_cap = m->cap;

  m->cap = old_cap * 2;
  m->slots = g_new0 (StrobeLiveSlot, m->cap);
  m->count = 0;
  for (gsize i = 0; i < old_cap; i++)
    if (old[i].value_plus1)
      put (m, old[i].key, old[i].space, old[i].value_plus1);
  g_free (old);
}

/* One walk from the key's home: to its slot, or to the empty one it then takes (a new
 * key — the usual case — was walked twice, by a lookup and by put: a fifth of reading a
 * python trace). */
gboolean
strobe_live_map_insert (StrobeLiveMap *m, guint64 key, guint32 space, guint32 value, guint32 *old)
{
  gsize mask, i;

  g_return_val_if_fail (value < G_MAXUINT32, FALSE);
  if ((m->count + 1) * 4 > m->cap * 3)
    grow (m);
  mask = m->cap - 1;
  for (i = hash (m, key, space) & mask;; i = (i + 1) & mask)
    {
      StrobeLiveSlot *s = &m->slots[i];

      if (s->value_plus1 == 0)
        {
          s->key = key;
          s->space = space;
          s->value_plus1 = value + 1;
          m->count++;
          return FALSE;
        }
      if (s->key == key && s->space == space)
        {
          if (old)
            *old = s->value_plus1 - 1;
          s->value_plus1 = value + 1;
          return TRUE;
        }
    }
}

/* Backward-shift deletion: no tombstones, probes stay short. */
gboolean
strobe_live_map_remove (StrobeLiveMap *m, guint64 key, guint32 space, guint32 *value)
{
  StrobeLiveSlot *s = find (m, key, space);
  gsize mask = m->cap - 1, i, j;

  if (s == NULL)
    return FALSE;
  if (value)
    *value = s->value_plus1 - 1;
  i = j = (gsize) (s - m->slots);
  for (;;)
    {
      gsize k;

      j = (j + 1) & mask;
      if (m->slots[j].value_plus1 == 0)
        break;
      k = hash (m, m->slots[j].key, m->slots[j].space) & mask;
      if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j))
        continue;
      m->slots[i] = m->slots[j];
      i = j;
    }
  m->slots[i].value_plus1 = 0;
  m->count--;
  return TRUE;
}

void
strobe_live_map_foreach (const StrobeLiveMap *m,
                         void (*fn) (guint64 key, guint32 space, guint32 value, gpointer user),
                         gpointer user)
{
  for (gsize i = 0; i < m->cap; i++)
    if (m->slots[i].value_plus1)
      fn (m->slots[i].key, m->slots[i].space, m->slots[i].value_plus1 - 1, user);
}

gsize
strobe_live_map_bytes (const StrobeLiveMap *m)
{
  return m->cap * sizeof (StrobeLiveSlot);
}
