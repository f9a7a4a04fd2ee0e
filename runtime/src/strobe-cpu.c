/* strobe-cpu.c — CPU scopes: spec registration, name interning and the per-thread batch
 * (the out-of-line half of strobe-cpu.h). Wire format: runtime/INSTRUMENTATION.md.
 *
 * Each thread owns one batch buffer on the heap; only the owning thread ever writes it.
 * The batch ships as a Cpu.EventBatch event (into the thread's own block, like any event)
 * when a record would not fit, at the first record at or after its deadline (20 ms after
 * the batch began, or 0 once strobe_flush() asked), on strobe_cpu_flush_thread(), when the
 * thread exits and at strobe_shutdown() for the calling thread. */
#include "strobe-buffers-private.h"
#include "strobe-instrument-private.h"

#include <stdlib.h>

#define BATCH_BYTES      1024u
#define MAX_RECORD       16u          /* varint of a 64-bit delta + varint of a 32-bit id */
#define MAX_AGE_DIVISOR  50u          /* 1/50 s = 20 ms */
#define CACHE_SLOTS      64u
/* Scope timestamps are kept in units of 2^shift ticks, the coarsest no longer than this. */
#ifndef STROBE_CPU_UNIT_NS
#define STROBE_CPU_UNIT_NS 4.0
#endif

StrobeChannel StrobeCpuChannel = { 0, "CpuChannel", 0, 0, false, false, 0 };

__attribute__ ((constructor)) static void
cpu_channel_ctor (void)
{
  strobe_channel_register (&StrobeCpuChannel);
}

STROBE_EVENT_DECLARE (Cpu, EventSpec, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, Id)
                      STROBE_FIELD (uint32, Line)
                      STROBE_FIELD (ansi, Name)
                      STROBE_FIELD (ansi, File))
STROBE_EVENT_DEFINE (Cpu, EventSpec)

STROBE_EVENT_DECLARE (Cpu, EventBatch, STROBE_EVENT_NOSYNC,
                      STROBE_FIELD (uint64, Base)
                      STROBE_FIELD (uint8, Shift)
                      STROBE_ARRAY (uint8, Data))
STROBE_EVENT_DEFINE (Cpu, EventBatch)

__thread StrobeCpuTls strobe__cpu_tls __attribute__ ((tls_model ("initial-exec")));
uint8_t strobe__cpu_shift;

typedef struct
{
  const char *name;      /* interned copy, owned by the global table */
  uint64_t    hash;
  uint32_t    id;
} CacheSlot;

typedef struct
{
  uint8_t       buf[BATCH_BYTES];
  uint64_t      base;    /* units: what the batch's first delta is relative to */
  StrobeThread *thread;
  bool          shipping;
  CacheSlot     cache[CACHE_SLOTS];
} CpuThread;

static __thread CpuThread *cpu_thread;

static pthread_once_t  cpu_once = PTHREAD_ONCE_INIT;
static uint64_t        max_age;
static uint32_t        next_spec_id = 1;

/* ---- time units ---------------------------------------------------------------------- */

static void
cpu_init (void)
{
  uint64_t freq;
  const char *s = getenv ("STROBE_CPU_SHIFT");
  unsigned shift = 0;

  strobe__global_init ();
  freq = strobe_clock_frequency ();
  if (s && *s >= '0' && *s <= '9')
    shift = (unsigned) atoi (s);
  else
    /* The coarsest power of two of ticks that is still finer than STROBE_CPU_UNIT_NS:
     * below the cost of one clock read, so no information a scope can carry is lost. */
    while (shift < 16 && (double) (2u << shift) * 1e9 / (double) freq <= STROBE_CPU_UNIT_NS)
      shift++;
  strobe__cpu_shift = (uint8_t) (shift > 16 ? 16 : shift);
  max_age = freq / MAX_AGE_DIVISOR;
}

/* ---- specs ------------------------------------------------------------------------- */

static uint32_t
send_spec_locked (const char *name, const char *file, uint32_t line)
{
  uint32_t id = next_spec_id++;

  STROBE_LOG (Cpu, EventSpec, StrobeTraceChannel)
    {
      STROBE_SET (Id, id);
      STROBE_SET (Line, line);
      STROBE_SET_STRING (Name, name ? name : "");
      if (file)
        STROBE_SET_STRING (File, file);
    }
  return id;
}

__attribute__ ((noinline, cold)) uint32_t
strobe__cpu_spec_register (StrobeCpuSpec *spec)
{
  uint32_t id;

  pthread_mutex_lock (&strobe__cpu_spec_lock);
  id = spec->id;
  if (id == 0)
    {
      id = send_spec_locked (spec->name, spec->file, spec->line);
      /* After the Important record is in the cache: a reader knows the name first. */
      __atomic_store_n (&spec->id, id, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&strobe__cpu_spec_lock);
  return id;
}

/* ---- interned dynamic names: open addressing, under strobe__cpu_spec_lock ---------------------- */

typedef struct
{
  char    *name;
  uint64_t hash;
  uint32_t id;
} InternSlot;

static InternSlot *intern_slots;
static size_t      intern_cap;
static size_t      intern_count;

static uint64_t
hash_name (const char *s)
{
  uint64_t h = 0xcbf29ce484222325u;

  for (; *s; s++)
    h = (h ^ (uint8_t) *s) * 0x100000001b3u;
  return h;
}

static bool
intern_grow_locked (void)
{
  size_t cap = intern_cap ? intern_cap * 2 : 256;
  InternSlot *slots = calloc (cap, sizeof *slots);

  if (slots == NULL)
    return false;
  for (size_t i = 0; i < intern_cap; i++)
    if (intern_slots[i].name)
      {
        size_t j = (size_t) intern_slots[i].hash & (cap - 1);
        while (slots[j].name)
          j = (j + 1) & (cap - 1);
        slots[j] = intern_slots[i];
      }
  free (intern_slots);
  intern_slots = slots;
  intern_cap = cap;
  return true;
}

static InternSlot *
intern_locked (const char *name, uint64_t hash)
{
  size_t j;

  if ((intern_count + 1) * 4 > intern_cap * 3 && !intern_grow_locked ())
    return NULL;
  for (j = (size_t) hash & (intern_cap - 1); intern_slots[j].name; j = (j + 1) & (intern_cap - 1))
    if (intern_slots[j].hash == hash && strcmp (intern_slots[j].name, name) == 0)
      return &intern_slots[j];
  intern_slots[j].name = strdup (name);
  if (intern_slots[j].name == NULL)
    return NULL;
  intern_slots[j].hash = hash;
  intern_slots[j].id = send_spec_locked (name, NULL, 0);
  intern_count++;
  return &intern_slots[j];
}

static CpuThread *cpu_thread_setup (void);

uint32_t
strobe_cpu_intern (const char *name)
{
  uint64_t hash = hash_name (name ? name : "");
  CpuThread *ct = cpu_thread ? cpu_thread : cpu_thread_setup ();
  CacheSlot *slot = ct ? &ct->cache[hash & (CACHE_SLOTS - 1)] : NULL;
  InternSlot *s;
  uint32_t id = 0;

  if (name == NULL)
    name = "";
  if (slot && slot->name && slot->hash == hash && strcmp (slot->name, name) == 0)
    return slot->id;
  pthread_mutex_lock (&strobe__cpu_spec_lock);
  s = intern_locked (name, hash);
  if (s)
    {
      id = s->id;
      if (slot)
        {
          slot->name = s->name;
          slot->hash = hash;
          slot->id = id;
        }
    }
  pthread_mutex_unlock (&strobe__cpu_spec_lock);
  return id;
}

/* ---- the batch --------------------------------------------------------------------- */

static CpuThread *
cpu_thread_setup (void)
{
  StrobeThread *t;
  CpuThread *ct;

  pthread_once (&cpu_once, cpu_init);
  /* The thread state first: its exit hook is what ships the last batch. */
  t = strobe__thread_current ();
  if (t == NULL || t->id == 0 || (ct = calloc (1, sizeof *ct)) == NULL)
    return NULL;
  ct->thread = t;
  cpu_thread = ct;
  strobe__cpu_tls.cursor = ct->buf;
  strobe__cpu_tls.limit = ct->buf + BATCH_BYTES - MAX_RECORD;
  strobe__cpu_tls.last = 0;
  __atomic_store_n (&strobe__cpu_tls.deadline, 0, __ATOMIC_RELAXED);
  pthread_mutex_lock (&strobe__threads_lock);
  t->cpu_tls = &strobe__cpu_tls;
  pthread_mutex_unlock (&strobe__threads_lock);
  return ct;
}

/* Ships the batch as one Cpu.EventBatch. The event is built with the thread's busy flag
 * down (the aux path takes it itself), so while shipping the batch is parked: its limit
 * at its start sends any record to the slow path, which drops records that interrupt a
 * ship (a signal handler) rather than append to a batch that is being copied out. */
static void
ship (CpuThread *ct)
{
  StrobeCpuTls *c = &strobe__cpu_tls;
  size_t n = (size_t) (c->cursor - ct->buf);
  uint8_t *limit = c->limit;
  unsigned busy = strobe__tls.busy;

  if (n == 0 || ct->shipping)
    return;
  ct->shipping = true;
  c->limit = ct->buf;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  strobe__tls.busy = 0;
  STROBE_LOG (Cpu, EventBatch, StrobeTraceChannel)
    {
      STROBE_SET (Base, ct->base);
      STROBE_SET (Shift, strobe__cpu_shift);
      STROBE_SET_ARRAY (Data, ct->buf, n);
    }
  strobe__tls.busy = busy;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  c->cursor = ct->buf;
  ct->base = c->last;
  c->limit = limit;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  ct->shipping = false;
}

__attribute__ ((noinline, cold)) bool
strobe__cpu_record_slow (uint64_t ts, uint32_t id, bool end)
{
  StrobeCpuTls *c = &strobe__cpu_tls;
  CpuThread *ct = cpu_thread;
  uint64_t u, d;
  uint8_t *p;

  if ((ct == NULL && (ct = cpu_thread_setup ()) == NULL) || ct->shipping)
    {
      strobe__count_drop ();
      return false;
    }
  ship (ct);
  __atomic_store_n (&c->deadline, ts + max_age < ts ? UINT64_MAX : ts + max_age, __ATOMIC_RELAXED);

  u = ts >> strobe__cpu_shift;
  u = u > c->last ? u : c->last;
  d = u - c->last;
  c->last = u;
  p = strobe__cpu_varint (c->cursor, (d << 1) | (end ? 1u : 0u));
  if (!end)
    p = strobe__cpu_varint (p, id);
  c->cursor = p;
  return true;
}

void
strobe_cpu_flush_thread (void)
{
  if (cpu_thread)
    ship (cpu_thread);
}

void
strobe__cpu_request_flush_all (void)
{
  pthread_mutex_lock (&strobe__threads_lock);
  for (StrobeThread *t = strobe__threads; t; t = t->next)
    if (t->cpu_tls)
      __atomic_store_n (&t->cpu_tls->deadline, 0, __ATOMIC_RELAXED);
  pthread_mutex_unlock (&strobe__threads_lock);
  strobe_cpu_flush_thread ();
}

/* In a forked child: the batch holds the parent's scope records. */
void
strobe__cpu_after_fork_child (void)
{
  CpuThread *ct = cpu_thread;

  if (ct == NULL)
    return;
  strobe__cpu_tls.cursor = ct->buf;
  ct->base = strobe__cpu_tls.last;
}

void
strobe__cpu_thread_exit (void)
{
  CpuThread *ct = cpu_thread;

  if (ct == NULL)
    return;
  ship (ct);
  pthread_mutex_lock (&strobe__threads_lock);
  ct->thread->cpu_tls = NULL;
  pthread_mutex_unlock (&strobe__threads_lock);
  cpu_thread = NULL;
  memset (&strobe__cpu_tls, 0, sizeof strobe__cpu_tls);
  free (ct);
}

/* The threads are below CPU scopes: a thread's exit ships its batch through this hook. */
static void
cpu_hooks (StrobeHooks *hooks)
{
  hooks->cpu_thread_exit = strobe__cpu_thread_exit;
}
STROBE_HOOKS_SETTER (cpu_hooks);
