/* strobe-memory-report.c — one allocation, free or realloc: the stack, the live table,
 * then a record of a few bytes in the thread's ring (grammar: core/protocol/
 * strobe-memory-records.h).
 *
 * Allocations are reported after the block is obtained and frees before it is released,
 * so the table never holds two live blocks at one address: a thread that gets an address
 * another thread just freed finds the old entry gone. Records name allocations by id,
 * never by address, so they repeat from one loop iteration to the next and LZ4 packs a
 * busy program's records to a fraction of a byte each. */
#include "strobe-memory-private.h"
#include "strobe-memory-ring.h"
#include "strobe-memory-state.h"


typedef struct
{
  uint8_t *p;     /* in the ring (strobe__memory_ring_cursor) */
} Rec;

/* Records that name this thread's ids need the reader's counter to be the writer's. */
static inline void
put_sync (StrobeMemThread *mt, Rec *r, uint64_t counter)
{
  if (mt->enc_alloc != counter)
    {
      *r->p++ = STROBE_MEMREC_EXT;
      *r->p++ = STROBE_MEMREC_EXT_SYNC;
      r->p = strobe_memrec_put_varint (r->p, counter);
      mt->enc_alloc = counter;
    }
}

static inline void
put_time (StrobeMemThread *mt, Rec *r, uint64_t units)
{
  if (units > mt->enc_time)
    {
      *r->p++ = STROBE_MEMREC_TIME;
      r->p = strobe_memrec_put_varint (r->p, units - mt->enc_time);
      mt->enc_time = units;
    }
}

/* A free of allocation @ref: same-thread as a distance back from the counter (FREE),
 * else FREE_REMOTE. */
static inline void
put_ref (StrobeMemThread *mt, Rec *r, uint8_t remote_kind, uint64_t ref, uint8_t flags)
{
  uint16_t thread = STROBE_LIVE_REF_THREAD (ref);
  uint64_t id = STROBE_LIVE_REF_ID (ref);

  if (thread == mt->thread_id && id <= mt->alloc)
    {
      put_sync (mt, r, mt->alloc);
      r->p = strobe_memrec_put_free (r->p, mt->enc_alloc - id, (flags & STROBE_MEMREC_F_REALLOC) != 0);
    }
  else
    {
      *r->p++ = (uint8_t) (remote_kind | flags);
      r->p = strobe_memrec_put_varint (r->p, thread);
      r->p = strobe_memrec_put_varint (r->p, id);
    }
}

static inline uint8_t
alloc_flags (StrobeMemThread *mt, uint32_t heap, uint32_t tag, uint32_t stack, uint8_t align_log2)
{
  uint8_t f = 0;

  if (stack != mt->enc_stack)
    f |= STROBE_MEMREC_F_STACK;
  if (tag != mt->enc_tag)
    f |= STROBE_MEMREC_F_TAG;
  if (heap != mt->enc_heap)
    f |= STROBE_MEMREC_F_HEAP;
  if (align_log2)
    f |= STROBE_MEMREC_F_ALIGN;
  if (strobe__memory_addresses)
    f |= STROBE_MEMREC_F_ADDR;
  return f;
}

/* The allocating tail of ALLOC and REALLOC*, after its header byte. */
static inline void
put_alloc_tail (StrobeMemThread *mt, Rec *r, uint8_t f, uint32_t heap, const StrobeLiveEntry *e)
{
  if (f & STROBE_MEMREC_F_STACK)
    {
      /* Ids of one loop's stacks are near each other: a delta of a byte or two. */
      r->p = strobe_memrec_put_varint (r->p, strobe_memrec_zigzag ((int64_t) e->stack - (int64_t) mt->enc_stack));
      mt->enc_stack = e->stack;
    }
  if (f & STROBE_MEMREC_F_TAG)
    r->p = strobe_memrec_put_varint (r->p, mt->enc_tag = e->tag);
  if (f & STROBE_MEMREC_F_HEAP)
    r->p = strobe_memrec_put_varint (r->p, mt->enc_heap = heap);
  if (f & STROBE_MEMREC_F_ALIGN)
    *r->p++ = STROBE_LIVE_ALIGN (e);
  if (f & STROBE_MEMREC_F_ADDR)
    r->p = strobe_memrec_put_varint (r->p, e->address);
  r->p = strobe_memrec_put_varint (r->p, STROBE_LIVE_SIZE (e));
  mt->enc_alloc = STROBE_LIVE_REF_ID (e->ref);
}

static inline uint8_t
log2_align (uint32_t alignment)
{
  return alignment ? (uint8_t) (31 - __builtin_clz (alignment)) : 0;
}

/* The thread's ring with the late ring's lock taken when it is the shared one. */
static inline StrobeMemThread *
enter (void)
{
  StrobeMemThread *mt;

  strobe__memory_check_state ();
  mt = strobe__memory_thread ();
  if (mt && mt->shared)
    pthread_mutex_lock (&strobe__memory_late_lock);
  return mt;
}

static inline void
leave (StrobeMemThread *mt)
{
  if (mt && mt->shared)
    pthread_mutex_unlock (&strobe__memory_late_lock);
}

static inline void
drop (StrobeMemThread *mt)
{
  __atomic_store_n (&mt->dropped, mt->dropped + 1, __ATOMIC_RELAXED);
}

static inline uint64_t
now_units (void)
{
  return strobe_time () >> strobe__memory_shift;
}

/* While only the live table is kept, an entry's time need not be finer than the updater's
 * round (it says when a block from before the connect was allocated): no clock read. */
static inline uint64_t
entry_units (bool record)
{
  return record ? now_units () : __atomic_load_n (&strobe__memory_coarse_units, __ATOMIC_RELAXED);
}

static void
fill_entry (StrobeLiveEntry *e, const void *ptr, uint64_t size, uint32_t alignment, uint64_t units,
            uint32_t stack, uint32_t tag)
{
  e->address = (uintptr_t) ptr;
  e->size_align = (size > 0x00ffffffffffffffull ? 0x00ffffffffffffffull : size)
                  | ((uint64_t) log2_align (alignment) << 56);
  e->time = units;
  e->stack = stack;
  e->tag = tag;
}

void
strobe__memory_on_alloc (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap,
                         const StrobeMemoryCaller *caller)
{
  StrobeMemThread *mt;
  StrobeLiveEntry e, old;
  bool record;
  int r;

  if (strobe__memory_guard)
    return;
  strobe__memory_guard++;
  strobe__memory_ensure_system_heap ();
  if ((mt = enter ()) == NULL)
    goto out;
  record = STROBE_CHANNEL_ENABLED (MemoryChannel);
  if (record && !strobe__memory_ring_reserve (mt))
    {
      drop (mt);
      goto out;
    }
  fill_entry (&e, ptr, size, alignment, entry_units (record),
              __atomic_load_n (&strobe__memory_stack_mode, __ATOMIC_RELAXED) ? strobe__memory_stack_capture (mt, caller) : 0,
              strobe_memory_tag_current ());
  r = strobe__memory_table_insert (heap, mt, &e, &old);
  if (record && r)
    {
      Rec rec;
      uint8_t f = alloc_flags (mt, heap, e.tag, e.stack, STROBE_LIVE_ALIGN (&e));

      rec.p = strobe__memory_ring_cursor (mt);
      put_time (mt, &rec, e.time);
      if (r == 2)
        {
          *rec.p++ = STROBE_MEMREC_EXT;
          *rec.p++ = STROBE_MEMREC_EXT_REPLACED;
          rec.p = strobe_memrec_put_varint (rec.p, STROBE_LIVE_REF_THREAD (old.ref));
          rec.p = strobe_memrec_put_varint (rec.p, STROBE_LIVE_REF_ID (old.ref));
        }
      put_sync (mt, &rec, STROBE_LIVE_REF_ID (e.ref) - 1);
      *rec.p++ = (uint8_t) (STROBE_MEMREC_ALLOC | f);
      put_alloc_tail (mt, &rec, f, heap, &e);
      strobe__memory_ring_commit (mt, rec.p);
    }
  else if (record)
    drop (mt);

out:
  leave (mt);
  strobe__memory_guard--;
}

void
strobe__memory_on_free (const void *ptr, uint32_t heap)
{
  StrobeMemThread *mt;
  uint64_t ref;
  bool record, found;

  if (strobe__memory_guard)
    return;
  strobe__memory_guard++;
  if ((mt = enter ()) == NULL)
    goto out;
  record = STROBE_CHANNEL_ENABLED (MemoryChannel);
  if (record && !strobe__memory_ring_reserve (mt))
    {
      /* The entry stays: when the address comes back, the record says it was replaced. */
      drop (mt);
      goto out;
    }
  found = strobe__memory_table_remove_ref (heap, (uintptr_t) ptr, &ref);
  if (record)
    {
      Rec rec;

      rec.p = strobe__memory_ring_cursor (mt);
      put_time (mt, &rec, now_units ());
      if (found)
        put_ref (mt, &rec, STROBE_MEMREC_FREE_REMOTE, ref, 0);
      else
        *rec.p++ = STROBE_MEMREC_UNTRACKED;
      strobe__memory_ring_commit (mt, rec.p);
    }

out:
  leave (mt);
  strobe__memory_guard--;
}

void
strobe__memory_on_realloc_begin (const void *old_ptr, uint32_t heap, StrobeMemoryRealloc *r)
{
  r->tracked = false;
  r->heap = heap;
  if (strobe__memory_guard)
    return;
  strobe__memory_guard++;
  strobe__memory_check_state ();
  r->tracked = strobe__memory_table_remove (heap, (uintptr_t) old_ptr, &r->entry);
  strobe__memory_guard--;
}

void
strobe__memory_on_realloc_end (StrobeMemoryRealloc *r, const void *old_ptr, const void *new_ptr,
                               uint64_t size, uint32_t alignment, const StrobeMemoryCaller *caller)
{
  StrobeMemThread *mt;
  StrobeLiveEntry e, old;
  bool record;
  int ins = 0;

  if (strobe__memory_guard)
    return;
  if (new_ptr == NULL && size != 0)
    {
      /* Failed: the old block is still there. */
      if (r->tracked)
        {
          strobe__memory_guard++;
          strobe__memory_table_restore (r->heap, &r->entry);
          strobe__memory_guard--;
        }
      return;
    }
  strobe__memory_guard++;
  if ((mt = enter ()) == NULL)
    goto out;
  record = STROBE_CHANNEL_ENABLED (MemoryChannel);
  if (record && !strobe__memory_ring_reserve (mt))
    {
      drop (mt);
      goto out;
    }
  if (new_ptr)
    {
      /* A block keeps the tag it was first allocated with. */
      fill_entry (&e, new_ptr, size, alignment, entry_units (record),
                  __atomic_load_n (&strobe__memory_stack_mode, __ATOMIC_RELAXED) ? strobe__memory_stack_capture (mt, caller) : 0,
                  r->tracked ? r->entry.tag : strobe_memory_tag_current ());
      ins = strobe__memory_table_insert (r->heap, mt, &e, &old);
    }
  if (record)
    {
      Rec rec;

      rec.p = strobe__memory_ring_cursor (mt);
      put_time (mt, &rec, new_ptr ? e.time : now_units ());
      if (new_ptr == NULL)
        {
          /* realloc (p, 0): a free. */
          if (r->tracked)
            put_ref (mt, &rec, STROBE_MEMREC_FREE_REMOTE, r->entry.ref,
                     STROBE_MEMREC_F_REALLOC);
          else
            *rec.p++ = STROBE_MEMREC_UNTRACKED;
        }
      else if (ins)
        {
          uint8_t f = alloc_flags (mt, r->heap, e.tag, e.stack, STROBE_LIVE_ALIGN (&e));

          if (ins == 2)
            {
              *rec.p++ = STROBE_MEMREC_EXT;
              *rec.p++ = STROBE_MEMREC_EXT_REPLACED;
              rec.p = strobe_memrec_put_varint (rec.p, STROBE_LIVE_REF_THREAD (old.ref));
              rec.p = strobe_memrec_put_varint (rec.p, STROBE_LIVE_REF_ID (old.ref));
            }
          if (!r->tracked)
            {
              *rec.p++ = STROBE_MEMREC_UNTRACKED | STROBE_MEMREC_F_REALLOC;
              put_sync (mt, &rec, STROBE_LIVE_REF_ID (e.ref) - 1);
              *rec.p++ = (uint8_t) (STROBE_MEMREC_ALLOC | f);
            }
          else if (STROBE_LIVE_REF_THREAD (r->entry.ref) == mt->thread_id)
            {
              /* The old id is this thread's: as a distance from the counter before the
               * new id, which the reader takes after reading the distance. */
              put_sync (mt, &rec, STROBE_LIVE_REF_ID (e.ref) - 1);
              *rec.p++ = (uint8_t) (STROBE_MEMREC_REALLOC | f);
              rec.p = strobe_memrec_put_varint (rec.p, mt->enc_alloc - STROBE_LIVE_REF_ID (r->entry.ref));
            }
          else
            {
              put_sync (mt, &rec, STROBE_LIVE_REF_ID (e.ref) - 1);
              *rec.p++ = (uint8_t) (STROBE_MEMREC_REALLOC_REMOTE | f);
              rec.p = strobe_memrec_put_varint (rec.p, STROBE_LIVE_REF_THREAD (r->entry.ref));
              rec.p = strobe_memrec_put_varint (rec.p, STROBE_LIVE_REF_ID (r->entry.ref));
            }
          put_alloc_tail (mt, &rec, f, r->heap, &e);
        }
      strobe__memory_ring_commit (mt, rec.p);
    }

out:
  leave (mt);
  strobe__memory_guard--;
}

void
strobe__memory_on_mark (const void *ptr, uint32_t parent, uint32_t heap, bool mark)
{
  StrobeMemThread *mt;
  StrobeLiveEntry e;

  strobe__memory_guard++;
  if ((mt = enter ()) == NULL)
    goto out;
  if (STROBE_CHANNEL_ENABLED (MemoryChannel)
      && strobe__memory_table_lookup (parent, (uintptr_t) ptr, &e)
      && strobe__memory_ring_reserve (mt))
    {
      Rec rec;
      uint16_t thread = STROBE_LIVE_REF_THREAD (e.ref);

      rec.p = strobe__memory_ring_cursor (mt);
      put_time (mt, &rec, now_units ());
      *rec.p++ = STROBE_MEMREC_EXT;
      *rec.p++ = mark ? STROBE_MEMREC_EXT_MARK : STROBE_MEMREC_EXT_UNMARK;
      rec.p = strobe_memrec_put_varint (rec.p, thread == mt->thread_id ? 0 : thread);
      rec.p = strobe_memrec_put_varint (rec.p, STROBE_LIVE_REF_ID (e.ref));
      if (mark)
        rec.p = strobe_memrec_put_varint (rec.p, heap);
      strobe__memory_ring_commit (mt, rec.p);
    }

out:
  leave (mt);
  strobe__memory_guard--;
}

void
strobe__memory_on_free_all (uint32_t heap)
{
  StrobeMemThread *mt;

  strobe__memory_guard++;
  if ((mt = enter ()) == NULL)
    goto out;
  strobe__memory_table_clear_heap (heap);
  if (STROBE_CHANNEL_ENABLED (MemoryChannel) && strobe__memory_ring_reserve (mt))
    {
      Rec rec;

      rec.p = strobe__memory_ring_cursor (mt);
      put_time (mt, &rec, now_units ());
      *rec.p++ = STROBE_MEMREC_EXT;
      *rec.p++ = STROBE_MEMREC_EXT_FREE_ALL;
      rec.p = strobe_memrec_put_varint (rec.p, heap);
      strobe__memory_ring_commit (mt, rec.p);
    }

out:
  leave (mt);
  strobe__memory_guard--;
}
