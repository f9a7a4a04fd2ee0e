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
#include <sys/types.h>

#define SYSTEM_SHARDS 64u
#define MIN_CAP       256u

/* The probe array holds what a free needs (address and ref: 16 bytes, four slots a cache
 * line); the rest of each entry lives in a parallel array touched by allocations,
 * reallocs and snapshots only. */
typedef struct
{
  uintptr_t address;    /* 0: empty */
  uint64_t  ref;
} Hot;

typedef struct
{
  uint64_t size_align;
  uint64_t time;
  uint32_t stack;
  uint32_t tag;
} Cold;

typedef struct
{
  int     lock;
  size_t  cap;          /* power of two, or 0 */
  size_t  count;
  Hot    *hot;
  Cold   *cold;
} __attribute__ ((aligned (64))) Table;

static Table            system_tables[SYSTEM_SHARDS];
static Table           *heap_tables[STROBE_MEMORY_MAX_HEAPS];   /* heap 1..: made on first use */
static pthread_mutex_t  heaps_lock = PTHREAD_MUTEX_INITIALIZER;

/* Blocks next to each other land in slots next to each other (the allocator hands out
 * neighbours together), and a shard is a 4 KiB page's worth of addresses, so threads
 * that allocate in different pages rarely share a lock. Addresses come from the
 * program's allocator, not from an adversary. */
static inline size_t
shard_of (uintptr_t address)
{
  return (size_t) ((address >> 12) ^ (address >> 18)) & (SYSTEM_SHARDS - 1);
}

/* Mixed, not sliced: with the bits taken as they were ((a >> 4) ^ (a >> 20)), the blocks of
 * threads whose arenas differ only above bit 40 all started at the same slots and grew one
 * probe run of millions (100 M allocations took 646 s to write instead of about 100). */
static inline size_t
home (const Table *t, uintptr_t address)
{
  uint64_t h = (uint64_t) address >> 4;

  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t) h & (t->cap - 1);
}

static inline void
table_lock (Table *t)
{
  unsigned spins = 0;
  int free_ = 0;

  /* A compare-exchange: half the cost of an exchange on the machines measured. */
  while (!__atomic_compare_exchange_n (&t->lock, &free_, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    for (free_ = 0; __atomic_load_n (&t->lock, __ATOMIC_RELAXED);)
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
    return &system_tables[shard_of (address)];
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

/* The slot of @address, or -1. */
static inline ssize_t
find_locked (Table *t, uintptr_t address)
{
  if (t->cap == 0)
    return -1;
  for (size_t i = home (t, address);; i = (i + 1) & (t->cap - 1))
    {
      uintptr_t a = t->hot[i].address;
      if (a == address)
        return (ssize_t) i;
      if (a == 0)
        return -1;
    }
}

static bool
grow_locked (Table *t)
{
  size_t cap = t->cap ? t->cap * 2 : MIN_CAP;
  Hot *hot = calloc (cap, sizeof *hot);
  Cold *cold = malloc (cap * sizeof *cold);
  Table n = { 0 };

  if (hot == NULL || cold == NULL)
    {
      free (hot);
      free (cold);
      return false;
    }
  n.cap = cap;
  for (size_t i = 0; i < t->cap; i++)
    if (t->hot[i].address)
      {
        size_t j = home (&n, t->hot[i].address);
        while (hot[j].address)
          j = (j + 1) & (cap - 1);
        hot[j] = t->hot[i];
        cold[j] = t->cold[i];
      }
  free (t->hot);
  free (t->cold);
  t->hot = hot;
  t->cold = cold;
  t->cap = cap;
  return true;
}

static void
get (const Table *t, size_t i, StrobeLiveEntry *e)
{
  e->address = t->hot[i].address;
  e->ref = t->hot[i].ref;
  e->size_align = t->cold[i].size_align;
  e->time = t->cold[i].time;
  e->stack = t->cold[i].stack;
  e->tag = t->cold[i].tag;
}

static void
set (Table *t, size_t i, const StrobeLiveEntry *e)
{
  t->hot[i].address = e->address;
  t->hot[i].ref = e->ref;
  t->cold[i].size_align = e->size_align;
  t->cold[i].time = e->time;
  t->cold[i].stack = e->stack;
  t->cold[i].tag = e->tag;
}

/* Backward-shift deletion: no tombstones, so probes stay short under churn. */
static void
erase_locked (Table *t, size_t i)
{
  size_t mask = t->cap - 1, j = i;

  for (;;)
    {
      size_t k;

      j = (j + 1) & mask;
      if (t->hot[j].address == 0)
        break;
      k = home (t, t->hot[j].address);
      if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j))
        continue;
      t->hot[i] = t->hot[j];
      t->cold[i] = t->cold[j];
      i = j;
    }
  t->hot[i].address = 0;
  __atomic_store_n (&t->count, t->count - 1, __ATOMIC_RELAXED);
}

/* One probe: the address's slot, or the empty slot it goes into. */
static bool
put_locked (Table *t, const StrobeLiveEntry *e, StrobeLiveEntry *old, int *result)
{
  size_t i;

  if ((t->count + 1) * 4 > t->cap * 3 && !grow_locked (t))
    return false;
  for (i = home (t, e->address);; i = (i + 1) & (t->cap - 1))
    {
      uintptr_t a = t->hot[i].address;
      if (a == e->address)
        {
          get (t, i, old);
          set (t, i, e);
          *result = 2;
          return true;
        }
      if (a == 0)
        break;
    }
  set (t, i, e);
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
  ssize_t i;

  if (t == NULL)
    return false;
  table_lock (t);
  i = find_locked (t, address);
  if (i >= 0)
    {
      get (t, (size_t) i, out);
      erase_locked (t, (size_t) i);
    }
  table_unlock (t);
  return i >= 0;
}

bool
strobe__memory_table_remove_ref (uint32_t heap, uintptr_t address, uint64_t *ref)
{
  Table *t = table_for (heap, address, false);
  ssize_t i;

  if (t == NULL)
    return false;
  table_lock (t);
  i = find_locked (t, address);
  if (i >= 0)
    {
      *ref = t->hot[i].ref;
      erase_locked (t, (size_t) i);
    }
  table_unlock (t);
  return i >= 0;
}

bool
strobe__memory_table_lookup (uint32_t heap, uintptr_t address, StrobeLiveEntry *out)
{
  Table *t = table_for (heap, address, false);
  ssize_t i;

  if (t == NULL)
    return false;
  table_lock (t);
  i = find_locked (t, address);
  if (i >= 0)
    get (t, (size_t) i, out);
  table_unlock (t);
  return i >= 0;
}

static void
drop_locked (Table *t)
{
  free (t->hot);
  free (t->cold);
  t->hot = NULL;
  t->cold = NULL;
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
  StrobeLiveEntry e;

  for (unsigned i = 0; i < SYSTEM_SHARDS; i++)
    for (size_t k = 0; k < system_tables[i].cap; k++)
      if (system_tables[i].hot[k].address)
        {
          get (&system_tables[i], k, &e);
          fn (STROBE_MEMORY_HEAP_SYSTEM, &e, user);
        }
  for (unsigned h = 1; h < STROBE_MEMORY_MAX_HEAPS; h++)
    if (heap_tables[h])
      for (size_t k = 0; k < heap_tables[h]->cap; k++)
        if (heap_tables[h]->hot[k].address)
          {
            get (heap_tables[h], k, &e);
            fn (h, &e, user);
          }
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
