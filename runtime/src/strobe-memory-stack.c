/* strobe-memory-stack.c — call stacks of allocations: unwinding, a per-thread cache in
 * front of it, and the process-wide trie that gives each stack its id.
 *
 * Unwinding (backtrace(), or the walker the interposer installs: libunwind's cached
 * unw_backtrace) costs about a microsecond for a deep stack, so a thread first looks in
 * its cache. An entry is keyed by frame #0 (the allocator's return address) and the stack
 * pointer at that point, and remembers where on the stack each caller's return address
 * was found and what it was. A hit re-reads those words and compares them, innermost
 * first: the same return addresses at the same places of the same stack is the same call
 * chain, so a hit costs about one load per frame and no unwinding. (For frames whose size
 * is fixed, which is nearly all code, the places follow from the return address and the
 * stack pointer; a frame with alloca could in principle leave an equal word at the old
 * place.) A set holds 8 entries of one key: a call site reached through several chains at
 * the same depth (a compiler's parser, an interpreter's eval loop) keeps them all — with
 * one entry per key cc1's hit rate was 36 %, with 8 it is 97 %, python's 99.9 %. Behind
 * it, a per-thread map from the frames' hash to the id spares the trie's lock when a
 * chain is seen at another depth.
 *
 * The trie (under a mutex) has one node per (caller node, return address), outermost
 * first; a stack's id is its innermost node. New nodes go out as Memory.StackNodes
 * (Important, so late connects know them), after the module map covers their addresses.
 *
 * STROBE_CALLSTACKS=fp walks frame pointers instead: a few nanoseconds, exact only when
 * every function on the stack keeps one (-fno-omit-frame-pointer). */
#include "strobe-memory-private.h"
#include "strobe-memory-events.h"

#include <execinfo.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CACHE_SETS  128u
#define CACHE_WAYS  8u        /* one call site at one depth, reached through several chains */
#define HASH_SLOTS  4096u
#define SCAN_LIMIT  (1u << 20)   /* bytes of stack searched for one return address */

int strobe__memory_stack_mode;
unsigned strobe__memory_stack_depth = STROBE_MEMORY_MAX_FRAMES;

typedef struct
{
  uintptr_t ip;
  uintptr_t cfa;
  uint32_t  id;
  uint16_t  n;          /* frames after #0 */
  uint32_t  off[STROBE_MEMORY_MAX_FRAMES];   /* words from cfa to each caller's return address */
  uintptr_t ret[STROBE_MEMORY_MAX_FRAMES];   /* what is there when the chain is the same */
} CacheEntry;

typedef struct
{
  uint64_t hash;        /* of the frames */
  uint32_t id;
} HashSlot;

struct StrobeStackCache
{
  uintptr_t  lo, hi;    /* this thread's stack */
  bool       bounds;
  unsigned   epoch;     /* of the trie the ids below belong to */
  CacheEntry sets[CACHE_SETS][CACHE_WAYS];
  uint8_t    next_way[CACHE_SETS];
  HashSlot   ids[HASH_SLOTS];
  /* An unwind's words, here rather than on the allocating thread's stack (up to 8 KiB). */
  void      *raw[STROBE_MEMORY_STACK_LIMIT + 16];
  uintptr_t  frames[STROBE_MEMORY_STACK_LIMIT + 1];
};

static int (*walker) (void **frames, int max) = backtrace;

void
strobe_memory_set_stack_walker (int (*fn) (void **frames, int max))
{
  __atomic_store_n (&walker, fn ? fn : backtrace, __ATOMIC_RELEASE);
}

/* ---- the trie ------------------------------------------------------------------------ */

typedef struct
{
  uint64_t key;         /* the chain's hash from the root to this node: where it lives */
  uint64_t ip;
  uint32_t parent;
  uint32_t id;          /* 0: empty */
} TrieSlot;

static pthread_mutex_t trie_lock = PTHREAD_MUTEX_INITIALIZER;
static TrieSlot       *trie;
static size_t          trie_cap, trie_count;
static uint32_t        next_node = 1;
static unsigned        epoch;

static unsigned        unloads_seen;

static void trie_free (TrieSlot *t, size_t cap);   /* strobe__memory_modules_unloads () the trie is of */

/* A module went away since the trie was built (its addresses may come back as another
 * module's): every stack id is forgotten and stacks get new nodes from now on. Asked
 * before each use of the trie, so the module map never calls back into stacks. */
static inline void
follow_unloads (void)
{
  unsigned now = strobe__memory_modules_unloads ();

  if (__builtin_expect (now == __atomic_load_n (&unloads_seen, __ATOMIC_RELAXED), 1))
    return;
  pthread_mutex_lock (&trie_lock);
  if (unloads_seen != now)
    {
      trie_free (trie, trie_cap);
      trie = NULL;
      trie_cap = trie_count = 0;
      __atomic_store_n (&epoch, epoch + 1, __ATOMIC_RELEASE);
      __atomic_store_n (&unloads_seen, now, __ATOMIC_RELAXED);
    }
  pthread_mutex_unlock (&trie_lock);
}

/* A node's slot is found from the hash of its whole chain (root to node), not from
 * (parent id, ip): the keys of every level of a stack are known before the first is
 * looked up, so their slots are prefetched ahead and the lookups' cache misses overlap.
 * Found by (parent, ip) a deep stack was one dependent miss per frame — three
 * microseconds for a sampled stack of 20 in a trie of megabytes. Matching stays exact:
 * a slot matches on ip and parent id, the key only places it. */
#define TRIE_ROOT_KEY 0x243f6a8885a308d3ull
#define TRIE_AHEAD    16u

static inline uint64_t
trie_key (uint64_t parent_key, uint64_t ip)
{
  uint64_t h = (parent_key ^ ip) * 0x9e3779b97f4a7c15ull;

  return h ^ (h >> 29);
}

static inline size_t
trie_home (uint64_t key)
{
  return (size_t) (key ^ (key >> 32));
}

#define HUGE_PAGE (2u << 20)

/* The trie's table: its own mapping, in 2 MiB pages where the kernel has them (THP
 * "madvise"). A sampled program's chains are spread over megabytes of it, one random
 * access per frame; with small pages each is a TLB miss too, and a nested page walk in a
 * virtual machine. Every page is written at once: fresh pages read first map the shared
 * zero page, and the insert that then writes there replaces it — a TLB flush that
 * interrupts every other CPU running the program (an IPI each, dear in a virtual machine:
 * a thousand of them per second at 10 kHz sampling). */
static TrieSlot *
trie_alloc (size_t cap)
{
  size_t bytes = cap * sizeof (TrieSlot);
  uint8_t *p;

  if (bytes < HUGE_PAGE)
    {
      p = calloc (cap, sizeof (TrieSlot));
      if (p == NULL)
        return NULL;
    }
  else
    {
      /* Aligned to a huge page, so the kernel can back it with them. */
      uint8_t *m = mmap (NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      size_t lead;

      if (m == MAP_FAILED)
        return NULL;
      lead = (HUGE_PAGE - ((uintptr_t) m & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
      if (lead)
        munmap (m, lead);
      munmap (m + lead + bytes, HUGE_PAGE - lead);
      p = m + lead;
#ifdef MADV_HUGEPAGE
      madvise (p, bytes, MADV_HUGEPAGE);
#endif
    }
  for (size_t at = 0; at < bytes; at += 4096)
    ((volatile uint8_t *) p)[at] = 0;
  return (TrieSlot *) p;
}

static void
trie_free (TrieSlot *t, size_t cap)
{
  if (t == NULL)
    return;
  if (cap * sizeof (TrieSlot) < HUGE_PAGE)
    free (t);
  else
    munmap (t, cap * sizeof (TrieSlot));
}

static bool
trie_grow (void)
{
  size_t cap = trie_cap ? trie_cap * 2 : 4096;
  TrieSlot *t = trie_alloc (cap);

  if (t == NULL)
    return false;
  for (size_t i = 0; i < trie_cap; i++)
    if (trie[i].id)
      {
        size_t j = trie_home (trie[i].key) & (cap - 1);
        while (t[j].id)
          j = (j + 1) & (cap - 1);
        t[j] = trie[i];
      }
  trie_free (trie, trie_cap);
  trie = t;
  trie_cap = cap;
  return true;
}

/* New nodes wait here (ids pending_first… in order, under trie_lock) and go out as one
 * Memory.StackNodes per update round, before the round's batches, or when this fills:
 * one event per new stack was a third of a python trace's bytes. */
#define PENDING_BYTES (16u * 1024u)
static uint8_t  pending[PENDING_BYTES];
static size_t   pending_len;
static uint32_t pending_first;

static void
flush_locked (void)
{
  if (pending_len == 0)
    return;
  STROBE_LOG (Memory, StackNodes, StrobeTraceChannel)
    {
      STROBE_SET (First, pending_first);
      STROBE_SET_ARRAY (Data, pending, pending_len);
    }
  pending_len = 0;
  pending_first = 0;
}

void
strobe__memory_stack_flush (void)
{
  pthread_mutex_lock (&trie_lock);
  flush_locked ();
  pthread_mutex_unlock (&trie_lock);
}

/* Frames innermost first. Returns the id of frames[0]'s node, 0 on failure. */
static uint32_t
trie_insert (const uintptr_t *frames, int n)
{
  uint8_t *p;
  uint32_t parent = 0;
  uint64_t parent_ip = 0;
  uint64_t keys[TRIE_AHEAD], ahead_key = TRIE_ROOT_KEY;
  int ahead = n - 1;   /* the next frame to key and prefetch, outermost first */

  pthread_mutex_lock (&trie_lock);
  /* Room for every frame's node (at most 5 + 10 bytes each). */
  if (pending_len + (size_t) n * 15 > PENDING_BYTES)
    flush_locked ();
  p = pending + pending_len;
  for (unsigned a = 0; a < TRIE_AHEAD && ahead >= 0; a++, ahead--)
    {
      ahead_key = trie_key (ahead_key, frames[ahead]);
      keys[(unsigned) ahead % TRIE_AHEAD] = ahead_key;
      if (trie_cap)
        __builtin_prefetch (&trie[trie_home (ahead_key) & (trie_cap - 1)]);
    }
  for (int i = n - 1; i >= 0; i--)
    {
      uint64_t ip = frames[i];
      uint64_t key = keys[(unsigned) i % TRIE_AHEAD];
      size_t j;

      /* Its slot in the ring is free now: the level TRIE_AHEAD further in takes it. */
      if (ahead >= 0)
        {
          ahead_key = trie_key (ahead_key, frames[ahead]);
          keys[(unsigned) ahead % TRIE_AHEAD] = ahead_key;
          if (trie_cap)
            __builtin_prefetch (&trie[trie_home (ahead_key) & (trie_cap - 1)]);
          ahead--;
        }
      if ((trie_count + 1) * 2 > trie_cap && !trie_grow ())
        {
          parent = 0;
          break;
        }
      for (j = trie_home (key) & (trie_cap - 1); trie[j].id; j = (j + 1) & (trie_cap - 1))
        if (trie[j].key == key && trie[j].ip == ip && trie[j].parent == parent)
          break;
      if (trie[j].id == 0)
        {
          if (next_node == UINT32_MAX)
            {
              parent = 0;
              break;
            }
          trie[j].key = key;
          trie[j].ip = ip;
          trie[j].parent = parent;
          trie[j].id = next_node++;
          trie_count++;
          if (pending_first == 0)
            pending_first = trie[j].id;
          p = strobe_memrec_put_varint (p, trie[j].id - parent);
          p = strobe_memrec_put_varint (p, strobe_memrec_zigzag ((int64_t) (ip - parent_ip)));
        }
      parent = trie[j].id;
      parent_ip = ip;
    }
  pending_len = (size_t) (p - pending);
  pthread_mutex_unlock (&trie_lock);
  return parent;
}

/* ---- per thread ------------------------------------------------------------------- */

static inline uint64_t
fold (uint64_t h, uint64_t w)
{
  h ^= w;
  h *= 0x100000001b3ull;
  return h ^ (h >> 31);
}

static StrobeStackCache *
cache_for (StrobeMemThread *mt)
{
  StrobeStackCache *c = mt->stacks;
  pthread_attr_t attr;

  if (c)
    {
      unsigned now = __atomic_load_n (&epoch, __ATOMIC_ACQUIRE);
      if (__builtin_expect (c->epoch != now, 0))
        {
          memset (c->sets, 0, sizeof c->sets);
          memset (c->next_way, 0, sizeof c->next_way);
          memset (c->ids, 0, sizeof c->ids);
          c->epoch = now;
        }
      return c;
    }
  if ((c = calloc (1, sizeof *c)) == NULL)
    return NULL;
  c->epoch = __atomic_load_n (&epoch, __ATOMIC_ACQUIRE);
  if (!mt->shared && pthread_getattr_np (pthread_self (), &attr) == 0)
    {
      void *addr;
      size_t size;

      if (pthread_attr_getstack (&attr, &addr, &size) == 0)
        {
          c->lo = (uintptr_t) addr;
          c->hi = (uintptr_t) addr + size;
          c->bounds = true;
        }
      pthread_attr_destroy (&attr);
    }
  mt->stacks = c;
  return c;
}

void
strobe__memory_stack_thread_free (StrobeMemThread *mt)
{
  free (mt->stacks);
  mt->stacks = NULL;
}

static inline size_t
set_of (uintptr_t ip, uintptr_t cfa)
{
  uint64_t h = ((uint64_t) ip ^ ((uint64_t) cfa << 17)) * 0x9e3779b97f4a7c15ull;

  return (size_t) (h >> 48) & (CACHE_SETS - 1);
}

/* @ids: HASH_SLOTS slots, or NULL. */
static uint32_t
ids_for_frames (HashSlot *ids, const uintptr_t *frames, int n)
{
  uint64_t h = 0xcbf29ce484222325ull;
  HashSlot *slot;
  uint32_t id;

  for (int i = 0; i < n; i++)
    h = fold (h, frames[i]);
  h = fold (h, (uint64_t) n);
  slot = ids ? &ids[h & (HASH_SLOTS - 1)] : NULL;
  if (slot && slot->hash == h && slot->id)
    return slot->id;
  if (strobe__memory_modules_changed_since_scan ())
    strobe__memory_modules_rescan (true);
  else if (!strobe__memory_modules_cover (frames, n > 1 && frames[n - 1] == STROBE_MEMNODE_TRUNCATED ? n - 1 : n))
    strobe__memory_modules_rescan (false);
  follow_unloads ();
  id = trie_insert (frames, n);
  if (slot && id)
    {
      slot->hash = h;
      slot->id = id;
    }
  return id;
}

static inline uint32_t
id_for_frames (StrobeStackCache *c, const uintptr_t *frames, int n)
{
  return ids_for_frames (c ? c->ids : NULL, frames, n);
}

/* Call chains from elsewhere (sampled stacks, strobe-sampling.c): the same trie, so one
 * set of Memory.StackNodes serves both and the analysis symbolizes them alike. Only the
 * updater calls it (under the update lock), so its map from the frames' hash to the id
 * needs no lock of its own. */
uint32_t
strobe__memory_stack_intern (const uintptr_t *frames, int n)
{
  static HashSlot *ids;
  static unsigned   ids_epoch;
  unsigned now;

  if (n <= 0)
    return 0;
  follow_unloads ();
  now = __atomic_load_n (&epoch, __ATOMIC_ACQUIRE);
  if (ids == NULL && (ids = calloc (HASH_SLOTS, sizeof *ids)) == NULL)
    return ids_for_frames (NULL, frames, n);
  if (ids_epoch != now)
    {
      memset (ids, 0, HASH_SLOTS * sizeof *ids);
      ids_epoch = now;
    }
  return ids_for_frames (ids, frames, n);
}

/* Reading words of other frames is the point here: not a bug AddressSanitizer should
 * report (their redzones are poisoned). */
#define STACK_READER __attribute__ ((no_sanitize_address))

/* Finds where each caller's return address sits on the stack, above frame #0's. */
static STACK_READER bool
learn_offsets (StrobeStackCache *c, CacheEntry *e, uintptr_t cfa, const uintptr_t *frames, int n)
{
  uintptr_t at = cfa;

  if (!c->bounds || cfa < c->lo || cfa >= c->hi || (cfa & 7))
    return false;
  for (int i = 1; i < n; i++)
    {
      uintptr_t limit = at + SCAN_LIMIT < c->hi ? at + SCAN_LIMIT : c->hi;

      while (at + sizeof (uintptr_t) <= limit && *(const uintptr_t *) at != frames[i])
        at += sizeof (uintptr_t);
      if (at + sizeof (uintptr_t) > limit)
        return false;
      e->off[i - 1] = (uint32_t) ((at - cfa) / sizeof (uintptr_t));
      e->ret[i - 1] = frames[i];
      at += sizeof (uintptr_t);
    }
  e->n = (uint16_t) (n - 1);
  return true;
}

/* Innermost first: chains that differ usually differ near frame #0. */
static inline STACK_READER bool
verify (const CacheEntry *e, uintptr_t cfa)
{
  const uintptr_t *base = (const uintptr_t *) cfa;

  for (unsigned i = 0; i < e->n; i++)
    if (base[e->off[i]] != e->ret[i])
      return false;
  return true;
}

/* @frames has room for @depth + 1: a chain that goes on past @depth ends in the marker. */
static STACK_READER int
fp_walk (StrobeStackCache *c, const StrobeMemoryCaller *caller, uintptr_t *frames, int depth)
{
  uintptr_t fp = caller->fp;
  int n = 1;

  frames[0] = caller->ip;
  if (!c || !c->bounds)
    return n;
  while (fp >= c->lo && fp + 2 * sizeof (uintptr_t) <= c->hi && !(fp & 7))
    {
      const uintptr_t *f = (const uintptr_t *) fp;
      if (f[1] == 0)
        break;
      if (n == depth)
        {
          frames[n++] = STROBE_MEMNODE_TRUNCATED;
          break;
        }
      frames[n++] = f[1];
      if (f[0] <= fp)
        break;
      fp = f[0];
    }
  return n;
}

STACK_READER uint32_t
strobe__memory_stack_capture (StrobeMemThread *mt, const StrobeMemoryCaller *caller)
{
  StrobeStackCache *c;
  void *small_raw[STROBE_MEMORY_MAX_FRAMES + 16];
  uintptr_t small_frames[STROBE_MEMORY_MAX_FRAMES + 1];
  void **raw;
  uintptr_t *frames;
  int depth = (int) __atomic_load_n (&strobe__memory_stack_depth, __ATOMIC_RELAXED);
  int room;
  CacheEntry *e = NULL;
  size_t set = 0;
  int n, k, got, i;
  uint32_t id;

  if (caller->ip == 0)
    return 0;
  follow_unloads ();
  c = cache_for (mt);
  raw = c ? c->raw : small_raw;
  frames = c ? c->frames : small_frames;
  room = c ? STROBE_MEMORY_STACK_LIMIT + 16 : STROBE_MEMORY_MAX_FRAMES + 16;
  if (c == NULL && depth > STROBE_MEMORY_MAX_FRAMES)
    depth = STROBE_MEMORY_MAX_FRAMES;
  if (__atomic_load_n (&strobe__memory_stack_mode, __ATOMIC_RELAXED) == STROBE_STACKS_FP)
    {
      n = fp_walk (c, caller, frames, depth);
      return id_for_frames (c, frames, n);
    }
  if (c)
    {
      set = set_of (caller->ip, caller->cfa);
      for (unsigned w = 0; w < CACHE_WAYS; w++)
        {
          e = &c->sets[set][w];
          if (e->id && e->ip == caller->ip && e->cfa == caller->cfa && verify (e, caller->cfa))
            return e->id;
        }
      e = &c->sets[set][c->next_way[set]];
      c->next_way[set] = (uint8_t) ((c->next_way[set] + 1) % CACHE_WAYS);
    }

  /* Frames inside the runtime come first (up to 16), then @depth of the caller's, and
   * one more tells whether the stack goes on. */
  got = __atomic_load_n (&walker, __ATOMIC_ACQUIRE) (raw, depth + 17 < room ? depth + 17 : room);
  /* Frames inside the runtime and the interposer come first: frame #0 is the caller's. */
  for (k = 0; k < got && (uintptr_t) raw[k] != caller->ip; k++)
    ;
  if (k == got)
    k = got < 3 ? got : 3;   /* not found (a walker that adjusts addresses): a guess */
  n = 0;
  frames[n++] = caller->ip;
  for (i = k + 1; i < got && n < depth; i++)
    frames[n++] = (uintptr_t) raw[i];
  /* Cut: the outer frames hang under one "[truncated]" root, not each under its own. */
  if (i < got)
    frames[n++] = STROBE_MEMNODE_TRUNCATED;
  id = id_for_frames (c, frames, n);
  if (e && id)
    {
      /* The cache re-reads the real frames' words; the marker is not on the stack. */
      int real = i < got ? n - 1 : n;

      e->id = 0;
      if (real - 1 <= STROBE_MEMORY_MAX_FRAMES && learn_offsets (c, e, caller->cfa, frames, real))
        {
          e->ip = caller->ip;
          e->cfa = caller->cfa;
          e->id = id;
        }
    }
  return id;
}
