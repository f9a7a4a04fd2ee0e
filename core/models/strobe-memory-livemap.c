/* strobe-memory-livemap.c — see strobe-memory-livemap.h.
 *
 * The hash is two rounds of multiply-xorshift over the key xor a random 128-bit seed: not
 * a cryptographic PRF, but without the seed a trace cannot be built whose addresses share
 * a slot, and the seed is drawn per map from GLib's random source.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-livemap.h"

#include <string.h>

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

/* ---- ids: a window and a run per thread, the rest in a StrobeLiveMap ----------------- */

#define ID_MASK   G_GUINT64_CONSTANT (0xffffffffffff)
#define WIN_MASK  (STROBE_ID_WINDOW - 1)

static inline guint64
older_key (guint16 thread, guint64 id)
{
  return ((guint64) thread << 48) | id;
}

void
strobe_id_map_init (StrobeIdMap *m)
{
  memset (m, 0, sizeof *m);
  strobe_live_map_init (&m->older);
}

void
strobe_id_map_clear (StrobeIdMap *m)
{
  for (guint t = 0; t < m->n_slots; t++)
    if (m->windows[t])
      {
        g_free (m->windows[t]->slots);
        g_array_unref (m->windows[t]->run_ids);
        g_array_unref (m->windows[t]->run_values);
        g_free (m->windows[t]);
      }
  g_clear_pointer (&m->windows, g_free);
  m->n_slots = 0;
  strobe_live_map_clear (&m->older);
  m->n_windows = 0;
  m->in_windows = 0;
  m->last_window = NULL;
}

/* @thread's window; with @create, made when the budget allows (NULL: none). */
static inline StrobeIdWindow *
window (StrobeIdMap *m, guint16 thread, gboolean create)
{
  StrobeIdWindow *w;

  if (m->last_window && m->last_thread == thread)
    return m->last_window;
  w = thread < m->n_slots ? m->windows[thread] : NULL;
  if (w == NULL && create && m->n_windows < STROBE_ID_WINDOWS)
    {
      if (thread >= m->n_slots)
        {
          guint n = MAX ((guint) thread + 1, 2 * m->n_slots);

          m->windows = g_renew (StrobeIdWindow *, m->windows, n);
          memset (m->windows + m->n_slots, 0, (n - m->n_slots) * sizeof (StrobeIdWindow *));
          m->n_slots = n;
        }
      w = m->windows[thread] = g_new0 (StrobeIdWindow, 1);
      w->slots = g_new0 (guint32, STROBE_ID_WINDOW);
      w->run_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
      w->run_values = g_array_new (FALSE, FALSE, sizeof (guint32));
      m->n_windows++;
    }
  if (w)
    {
      m->last_thread = thread;
      m->last_window = w;
    }
  return w;
}

static inline gboolean
in_window (const StrobeIdWindow *w, guint64 id)
{
  return w && id <= w->head && id + STROBE_ID_WINDOW > w->head;
}

/* The run's index of @id, or -1. Long-lived blocks tend to die in the order they were
 * made (a queue, a cache's oldest first), so the search gallops on from the last one found
 * before it bisects: a few steps instead of log2 of the run's length, each a cache miss. */
static gssize
run_find (StrobeIdWindow *w, guint64 id)
{
  const guint64 *v = (const guint64 *) (void *) w->run_ids->data;
  gsize lo = 0, hi = w->run_ids->len;

  if (hi == 0 || id > v[hi - 1] || id < v[0])
    return -1;
  if (w->run_hint < hi && v[w->run_hint] <= id)
    {
      gsize step = 1;

      lo = w->run_hint;
      while (lo + step < hi && v[lo + step] <= id)
        {
          lo += step;
          step *= 2;
        }
      hi = MIN (hi, lo + step + 1);
    }
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (v[mid] < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < w->run_ids->len && v[lo] == id)
    {
      w->run_hint = lo;
      return (gssize) lo;
    }
  return -1;
}

/* A live entry of the run, or NULL. */
static inline guint32 *
run_slot (StrobeIdWindow *w, guint64 id)
{
  gssize k = w ? run_find (w, id) : -1;
  guint32 *v = k >= 0 ? &g_array_index (w->run_values, guint32, k) : NULL;

  return v && *v ? v : NULL;
}

/* Drops the run's removed entries once they are most of it: O(1) amortized. */
static void
run_removed (StrobeIdWindow *w)
{
  guint64 *ids = (guint64 *) (void *) w->run_ids->data;
  guint32 *values = (guint32 *) (void *) w->run_values->data;
  guint n = 0;

  w->run_live--;
  if (w->run_ids->len < 1024 || w->run_live * 4 > w->run_ids->len)
    return;
  for (guint k = 0; k < w->run_ids->len; k++)
    if (values[k])
      {
        ids[n] = ids[k];
        values[n++] = values[k];
      }
  g_array_set_size (w->run_ids, n);
  g_array_set_size (w->run_values, n);
  w->run_hint = 0;
}

/* Id @j leaves the window live (@s its slot): to the run, after every id already there. */
static inline void
leave (StrobeIdWindow *w, guint64 j, guint32 *s)
{
  g_array_append_val (w->run_ids, j);
  g_array_append_val (w->run_values, *s);
  w->run_live++;
  *s = 0;
  w->count--;
}

/* Moves the window on to end at @id: the ids it leaves that are live go to the run. */
static void
advance (StrobeIdWindow *w, guint64 id)
{
  if (w->count && id - w->head >= STROBE_ID_WINDOW)
    for (guint64 j = w->head >= WIN_MASK ? w->head - WIN_MASK : 0; j <= w->head; j++)
      {
        guint32 *s = &w->slots[j & WIN_MASK];
        if (*s)
          leave (w, j, s);
      }
  else if (w->count)
    for (guint64 j = w->head + 1; j <= id; j++)
      {
        /* Id j takes the slot of id j − WINDOW, which leaves. */
        guint32 *s = &w->slots[j & WIN_MASK];
        if (*s)
          leave (w, j - STROBE_ID_WINDOW, s);
      }
  w->head = id;
}

gboolean
strobe_id_map_lookup (StrobeIdMap *m, guint16 thread, guint64 id, guint32 *value)
{
  StrobeIdWindow *w = window (m, thread, FALSE);
  guint32 *s;

  id &= ID_MASK;
  if (in_window (w, id))
    {
      guint32 v = w->slots[id & WIN_MASK];
      if (v == 0)
        return FALSE;
      *value = v - 1;
      return TRUE;
    }
  if ((s = run_slot (w, id)) != NULL)
    {
      *value = *s - 1;
      return TRUE;
    }
  return strobe_live_map_lookup (&m->older, older_key (thread, id), 0, value);
}

gboolean
strobe_id_map_insert (StrobeIdMap *m, guint16 thread, guint64 id, guint32 value, guint32 *old)
{
  StrobeIdWindow *w = window (m, thread, TRUE);
  guint32 *s;

  g_return_val_if_fail (value < G_MAXUINT32, FALSE);
  id &= ID_MASK;
  if (w && id > w->head)
    advance (w, id);
  if (!in_window (w, id))
    {
      if ((s = run_slot (w, id)) == NULL)
        return strobe_live_map_insert (&m->older, older_key (thread, id), 0, value, old);
      if (old)
        *old = *s - 1;
      *s = value + 1;
      return TRUE;
    }
  s = &w->slots[id & WIN_MASK];
  if (*s)
    {
      if (old)
        *old = *s - 1;
      *s = value + 1;
      return TRUE;
    }
  *s = value + 1;
  w->count++;
  m->in_windows++;
  return FALSE;
}

gboolean
strobe_id_map_remove (StrobeIdMap *m, guint16 thread, guint64 id, guint32 *value)
{
  StrobeIdWindow *w = window (m, thread, FALSE);
  guint32 *s;

  id &= ID_MASK;
  if (!in_window (w, id))
    {
      if ((s = run_slot (w, id)) == NULL)
        return strobe_live_map_remove (&m->older, older_key (thread, id), 0, value);
      if (value)
        *value = *s - 1;
      *s = 0;
      run_removed (w);
      m->in_windows--;
      return TRUE;
    }
  s = &w->slots[id & WIN_MASK];
  if (*s == 0)
    return FALSE;
  if (value)
    *value = *s - 1;
  *s = 0;
  w->count--;
  m->in_windows--;
  return TRUE;
}

gsize
strobe_id_map_count (const StrobeIdMap *m)
{
  return m->older.count + m->in_windows;
}

void
strobe_id_map_foreach (const StrobeIdMap *m,
                       void (*fn) (guint64 key, guint32 space, guint32 value, gpointer user),
                       gpointer user)
{
  for (guint t = 0; t < m->n_slots; t++)
    {
      const StrobeIdWindow *w = m->windows[t];

      for (guint64 j = 0; w && w->count && j < STROBE_ID_WINDOW && j <= w->head; j++)
        {
          guint64 id = w->head - j;
          if (w->slots[id & WIN_MASK])
            fn (older_key ((guint16) t, id), 0, w->slots[id & WIN_MASK] - 1, user);
        }
      for (guint k = 0; w && k < w->run_ids->len; k++)
        if (g_array_index (w->run_values, guint32, k))
          fn (older_key ((guint16) t, g_array_index (w->run_ids, guint64, k)), 0,
              g_array_index (w->run_values, guint32, k) - 1, user);
    }
  strobe_live_map_foreach (&m->older, fn, user);
}

typedef struct
{
  StrobeLiveMap *to;
  gboolean     (*keep) (guint32 value, gpointer user);
  gpointer       user;
} Retain;

static void
retain_one (guint64 key, guint32 space, guint32 value, gpointer user)
{
  Retain *r = user;

  if (r->keep (value, r->user))
    strobe_live_map_insert (r->to, key, space, value, NULL);
}

void
strobe_id_map_retain (StrobeIdMap *m, gboolean (*keep) (guint32 value, gpointer user), gpointer user)
{
  StrobeLiveMap fresh;
  Retain r = { &fresh, keep, user };

  for (guint t = 0; t < m->n_slots; t++)
    {
      StrobeIdWindow *w = m->windows[t];

      for (guint k = 0; w && w->count && k < STROBE_ID_WINDOW; k++)
        if (w->slots[k] && !keep (w->slots[k] - 1, user))
          {
            w->slots[k] = 0;
            w->count--;
            m->in_windows--;
          }
      for (guint k = 0; w && k < w->run_ids->len; k++)
        {
          guint32 *v = &g_array_index (w->run_values, guint32, k);
          if (*v && !keep (*v - 1, user))
            {
              *v = 0;
              run_removed (w);
              m->in_windows--;
            }
        }
    }
  strobe_live_map_init (&fresh);
  strobe_live_map_foreach (&m->older, retain_one, &r);
  strobe_live_map_clear (&m->older);
  m->older = fresh;
}

gsize
strobe_id_map_bytes (const StrobeIdMap *m)
{
  gsize n = strobe_live_map_bytes (&m->older) + m->n_slots * sizeof (gpointer)
            + m->n_windows * (sizeof (StrobeIdWindow) + STROBE_ID_WINDOW * sizeof (guint32));

  for (guint t = 0; t < m->n_slots; t++)
    if (m->windows[t])
      n += m->windows[t]->run_ids->len * (sizeof (guint64) + sizeof (guint32));
  return n;
}
