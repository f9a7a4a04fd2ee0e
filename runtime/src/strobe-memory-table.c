/* strobe-memory-table.c — the live table: every live block → the allocation it is (its
 * thread and id), its size, alignment, time, stack and tag.
 *
 * It is what lets a free name the allocation it ends (so the stream carries no addresses)
 * and what a late connect's snapshot is made of. Heap 0 (the C library's malloc) is split
 * into 64 shards by address, each an open-addressing table (linear probing, backward-shift
 * deletion) behind a spin lock held for one probe sequence; every other heap has a table
 * of its own, so freeing a whole heap drops its table without looking at any other.
 *
 * Its memory comes from the real allocator with the guard raised (never traced). */
#include "strobe-memory-private.h"

#include <sched.h>
#include <stdlib.h>

#define SYSTEM_SHARDS 64u
#define MIN_CAP       256u

typedef struct
{
  int              lock;
  size_t           cap;       /* power of two, or 0 */
  size_t           count;
  StrobeLiveEntry *slots;     /* address 0: empty */
} __attribute__ ((aligned (64))) Table;

static Table            system_tables[SYSTEM_SHARDS];
static Table           *heap_tables[STROBE_MEMORY_MAX_HEAPS];   /* heap 1..: made on first use */
static pthread_mutex_t  heaps_lock = PTHREAD_MUTEX_INITIALIZER;

static inline uint64_t
mix (uintptr_t address)
{
  uint64_t h = (uint64_t) (address >> 4) * 0x9e3779b97f4a7c15ull;

  return h ^ (h >> 29);
}

static inline void
table_lock (Table *t)
{
  unsigned spins = 0;

  while (__atomic_exchange_n (&t->lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n (&t->lock, __ATOMIC_RELAXED))
      {
        if (++spins > 64)
          sched_yield ();
#if defined(__x86_64__) || defined(__i386__)
        else
          __builtin_ia32_pause ();
#endif
      }
}

static inline void
table_unlock (Table *t)
{
  __atomic_store_n (&t->lock, 0, __ATOMIC_RELEASE);
}

static Table *
table_for (uint32_t heap, uintptr_t address, bool create)
{
  Table *t;

  if (heap == STROBE_MEMORY_HEAP_SYSTEM)
    return &system_tables[mix (address) >> 58];
  if (heap >= STROBE_MEMORY_MAX_HEAPS)
    return NULL;
  t = __atomic_load_n (&heap_tables[heap], __ATOMIC_ACQUIRE);
  if (t || !create)
    return t;
  pthread_mutex_lock (&heaps_lock);
  t = heap_tables[heap];
  if (t == NULL && (t = aligned_alloc (64, sizeof *t)) != NULL)
    {
      memset (t, 0, sizeof *t);
      __atomic_store_n (&heap_tables[heap], t, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&heaps_lock);
  return t;
}

static inline size_t
home (const Table *t, uintptr_t address)
{
  return (size_t) mix (address) & (t->cap - 1);
}

static StrobeLiveEntry *
find_locked (Table *t, uintptr_t address)
{
  if (t->cap == 0)
    return NULL;
  for (size_t i = home (t, address);; i = (i + 1) & (t->cap - 1))
    {
      StrobeLiveEntry *e = &t->slots[i];
      if (e->address == address)
        return e;
      if (e->address == 0)
        return NULL;
    }
}

static bool
grow_locked (Table *t)
{
  size_t cap = t->cap ? t->cap * 2 : MIN_CAP;
  StrobeLiveEntry *slots = calloc (cap, sizeof *slots);

  if (slots == NULL)
    return false;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].address)
      {
        size_t j = (size_t) mix (t->slots[i].address) & (cap - 1);
        while (slots[j].address)
          j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
      }
  free (t->slots);
  t->slots = slots;
  t->cap = cap;
  return true;
}

/* Backward-shift deletion: no tombstones, so probes stay short under churn. */
static void
erase_locked (Table *t, StrobeLiveEntry *e)
{
  size_t mask = t->cap - 1, i = (size_t) (e - t->slots), j = i;

  for (;;)
    {
      size_t k;

      j = (j + 1) & mask;
      if (t->slots[j].address == 0)
        break;
      k = home (t, t->slots[j].address);
      if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j))
        continue;
      t->slots[i] = t->slots[j];
      i = j;
    }
  t->slots[i].address = 0;
  __atomic_store_n (&t->count, t->count - 1, __ATOMIC_RELAXED);
}

static bool
put_locked (Table *t, const StrobeLiveEntry *e, StrobeLiveEntry *old, int *result)
{
  StrobeLiveEntry *slot = find_locked (t, e->address);
  size_t i;

  if (slot)
    {
      *old = *slot;
      *slot = *e;
      *result = 2;
      return true;
    }
  if ((t->count + 1) * 4 > t->cap * 3 && !grow_locked (t))
    return false;
  for (i = home (t, e->address); t->slots[i].address; i = (i + 1) & (t->cap - 1))
    ;
  t->slots[i] = *e;
  __atomic_store_n (&t->count, t->count + 1, __ATOMIC_RELAXED);
  *result = 1;
  return true;
}

int
strobe__memory_table_insert (uint32_t heap, StrobeMemThread *mt, StrobeLiveEntry *e, StrobeLiveEntry *old)
{
  Table *t = table_for (heap, e->address, true);
  int result = 0;

  if (t == NULL || e->address == 0)
    return 0;
  table_lock (t);
  e->ref = STROBE_LIVE_REF (mt->thread_id, mt->alloc + 1);
  if (put_locked (t, e, old, &result))
    mt->alloc++;
  table_unlock (t);
  return result;
}

void
strobe__memory_table_restore (uint32_t heap, const StrobeLiveEntry *e)
{
  Table *t = table_for (heap, e->address, true);
  StrobeLiveEntry old;
  int result;

  if (t == NULL)
    return;
  table_lock (t);
  put_locked (t, e, &old, &result);
  table_unlock (t);
}

bool
strobe__memory_table_remove (uint32_t heap, uintptr_t address, StrobeLiveEntry *out)
{
  Table *t = table_for (heap, address, false);
  StrobeLiveEntry *e;

  if (t == NULL)
    return false;
  table_lock (t);
  e = find_locked (t, address);
  if (e)
    {
      *out = *e;
      erase_locked (t, e);
    }
  table_unlock (t);
  return e != NULL;
}

bool
strobe__memory_table_lookup (uint32_t heap, uintptr_t address, StrobeLiveEntry *out)
{
  Table *t = table_for (heap, address, false);
  StrobeLiveEntry *e;

  if (t == NULL)
    return false;
  table_lock (t);
  e = find_locked (t, address);
  if (e)
    *out = *e;
  table_unlock (t);
  return e != NULL;
}

static void
drop_locked (Table *t)
{
  free (t->slots);
  t->slots = NULL;
  t->cap = 0;
  __atomic_store_n (&t->count, 0, __ATOMIC_RELAXED);
}

void
strobe__memory_table_clear_heap (uint32_t heap)
{
  Table *t;

  if (heap == STROBE_MEMORY_HEAP_SYSTEM)
    {
      for (unsigned i = 0; i < SYSTEM_SHARDS; i++)
        {
          table_lock (&system_tables[i]);
          drop_locked (&system_tables[i]);
          table_unlock (&system_tables[i]);
        }
      return;
    }
  if ((t = table_for (heap, 0, false)) == NULL)
    return;
  table_lock (t);
  drop_locked (t);
  table_unlock (t);
}

/* Every table locked, in one order (system shards, then heaps by id), under heaps_lock
 * so no table appears meanwhile. */
static void
lock_all (void)
{
  pthread_mutex_lock (&heaps_lock);
  for (unsigned i = 0; i < SYSTEM_SHARDS; i++)
    table_lock (&system_tables[i]);
  for (unsigned h = 1; h < STROBE_MEMORY_MAX_HEAPS; h++)
    if (heap_tables[h])
      table_lock (heap_tables[h]);
}

static void
unlock_all (void)
{
  for (unsigned h = STROBE_MEMORY_MAX_HEAPS; h-- > 1;)
    if (heap_tables[h])
      table_unlock (heap_tables[h]);
  for (unsigned i = SYSTEM_SHARDS; i-- > 0;)
    table_unlock (&system_tables[i]);
  pthread_mutex_unlock (&heaps_lock);
}

void
strobe__memory_table_clear_all (void)
{
  lock_all ();
  for (unsigned i = 0; i < SYSTEM_SHARDS; i++)
    drop_locked (&system_tables[i]);
  for (unsigned h = 1; h < STROBE_MEMORY_MAX_HEAPS; h++)
    if (heap_tables[h])
      drop_locked (heap_tables[h]);
  unlock_all ();
}

void
strobe__memory_table_locked (void (*fn) (void *user), void *user)
{
  lock_all ();
  fn (user);
  unlock_all ();
}

void
strobe__memory_table_foreach_locked (void (*fn) (uint32_t heap, const StrobeLiveEntry *e, void *user),
                                     void *user)
{
  for (unsigned i = 0; i < SYSTEM_SHARDS; i++)
    for (size_t k = 0; k < system_tables[i].cap; k++)
      if (system_tables[i].slots[k].address)
        fn (STROBE_MEMORY_HEAP_SYSTEM, &system_tables[i].slots[k], user);
  for (unsigned h = 1; h < STROBE_MEMORY_MAX_HEAPS; h++)
    if (heap_tables[h])
      for (size_t k = 0; k < heap_tables[h]->cap; k++)
        if (heap_tables[h]->slots[k].address)
          fn (h, &heap_tables[h]->slots[k], user);
}

/* An estimate (no locks): what a snapshot should make room for. */
size_t
strobe__memory_table_count (void)
{
  size_t n = 0;

  for (unsigned i = 0; i < SYSTEM_SHARDS; i++)
    n += __atomic_load_n (&system_tables[i].count, __ATOMIC_RELAXED);
  for (unsigned h = 1; h < STROBE_MEMORY_MAX_HEAPS; h++)
    {
      Table *t = __atomic_load_n (&heap_tables[h], __ATOMIC_ACQUIRE);
      if (t)
        n += __atomic_load_n (&t->count, __ATOMIC_RELAXED);
    }
  return n;
}
