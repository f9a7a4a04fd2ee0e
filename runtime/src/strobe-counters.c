/* strobe-counters.c — counters: a spec sent once per counter, then the value after every
 * set or add. Wire format: runtime/INSTRUMENTATION.md.
 *
 * A value and the serial of the event that carries it are taken under one lock (striped
 * by counter), so values reach the trace in the order they were produced: computed
 * first and emitted after, two threads' adds could leave the trace with 70173 followed by
 * 10173, and a final value that is not the counter's. */
#include "strobe-instrument-private.h"
#include "strobe-standard-values.h"

_Static_assert ((int) STROBE_COUNTER_INT == (int) STROBE_STANDARD_COUNTER_INT &&
                (int) STROBE_COUNTER_FLOAT == (int) STROBE_STANDARD_COUNTER_FLOAT &&
                (int) STROBE_UNIT_COUNT == (int) STROBE_STANDARD_UNIT_COUNT &&
                (int) STROBE_UNIT_BYTES == (int) STROBE_STANDARD_UNIT_BYTES &&
                (int) STROBE_UNIT_PERCENT == (int) STROBE_STANDARD_UNIT_PERCENT,
                "counter values must match core/protocol/strobe-standard-values.h");

StrobeChannel StrobeCountersChannel = { 0, "CountersChannel", 0, 0, false, false, 0 };

__attribute__ ((constructor)) static void
counters_channel_ctor (void)
{
  strobe_channel_register (&StrobeCountersChannel);
}

STROBE_EVENT (Counters, Spec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint8, Type)
              STROBE_FIELD (uint8, Unit)
              STROBE_FIELD (ansi, Name))
STROBE_EVENT (Counters, SetInt, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (int64, Value))
STROBE_EVENT (Counters, SetFloat, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (double, Value))

static uint32_t        next_counter_id = 1;

#define STRIPES 64
static pthread_mutex_t stripes[STRIPES];
static pthread_once_t  stripes_once = PTHREAD_ONCE_INIT;

static void
stripes_init (void)
{
  for (int i = 0; i < STRIPES; i++)
    pthread_mutex_init (&stripes[i], NULL);
}

static pthread_mutex_t *
stripe_of (const StrobeCounter *c)
{
  pthread_once (&stripes_once, stripes_init);
  return &stripes[((uintptr_t) c / sizeof *c) % STRIPES];
}

void
strobe__counters_fork_lock (bool lock)
{
  pthread_once (&stripes_once, stripes_init);
  for (int i = 0; i < STRIPES; i++)
    {
      if (lock)
        pthread_mutex_lock (&stripes[i]);
      else
        pthread_mutex_unlock (&stripes[STRIPES - 1 - i]);
    }
}

static uint32_t
counter_id (StrobeCounter *c)
{
  uint32_t id = __atomic_load_n (&c->id, __ATOMIC_ACQUIRE);

  if (id)
    return id;
  pthread_mutex_lock (&strobe__counters_lock);
  id = c->id;
  if (id == 0)
    {
      id = next_counter_id++;
      STROBE_LOG (Counters, Spec, StrobeTraceChannel)
        {
          STROBE_SET (Id, id);
          STROBE_SET (Type, c->type);
          STROBE_SET (Unit, c->unit);
          STROBE_SET_STRING (Name, c->name ? c->name : "");
        }
      __atomic_store_n (&c->id, id, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&strobe__counters_lock);
  return id;
}

static double
bits_to_double (int64_t bits)
{
  double d;

  memcpy (&d, &bits, sizeof d);
  return d;
}

static int64_t
double_to_bits (double d)
{
  int64_t bits;

  memcpy (&bits, &d, sizeof bits);
  return bits;
}

static void
send (StrobeCounter *c, int64_t bits)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeCountersChannel))
    return;
  id = counter_id (c);
  if (c->type == STROBE_COUNTER_FLOAT)
    STROBE_LOG (Counters, SetFloat, StrobeCountersChannel)
      {
        STROBE_SET (Cycle, strobe_time ());
        STROBE_SET (Id, id);
        STROBE_SET (Value, bits_to_double (bits));
      }
  else
    STROBE_LOG (Counters, SetInt, StrobeCountersChannel)
      {
        STROBE_SET (Cycle, strobe_time ());
        STROBE_SET (Id, id);
        STROBE_SET (Value, bits);
      }
}

void
strobe_counter_set_int (StrobeCounter *c, int64_t value)
{
  int64_t bits = c->type == STROBE_COUNTER_FLOAT ? double_to_bits ((double) value) : value;
  pthread_mutex_t *lock = stripe_of (c);

  pthread_mutex_lock (lock);
  __atomic_store_n (&c->value, bits, __ATOMIC_RELAXED);
  send (c, bits);
  pthread_mutex_unlock (lock);
}

void
strobe_counter_set_float (StrobeCounter *c, double value)
{
  int64_t bits = c->type == STROBE_COUNTER_FLOAT ? double_to_bits (value) : (int64_t) value;
  pthread_mutex_t *lock = stripe_of (c);

  pthread_mutex_lock (lock);
  __atomic_store_n (&c->value, bits, __ATOMIC_RELAXED);
  send (c, bits);
  pthread_mutex_unlock (lock);
}

void
strobe_counter_add_int (StrobeCounter *c, int64_t delta)
{
  pthread_mutex_t *lock;

  if (c->type == STROBE_COUNTER_FLOAT)
    {
      strobe_counter_add_float (c, (double) delta);
      return;
    }
  lock = stripe_of (c);
  pthread_mutex_lock (lock);
  send (c, __atomic_add_fetch (&c->value, delta, __ATOMIC_RELAXED));
  pthread_mutex_unlock (lock);
}

void
strobe_counter_add_float (StrobeCounter *c, double delta)
{
  pthread_mutex_t *lock = stripe_of (c);
  int64_t bits;

  pthread_mutex_lock (lock);
  if (c->type != STROBE_COUNTER_FLOAT)
    bits = __atomic_add_fetch (&c->value, (int64_t) delta, __ATOMIC_RELAXED);
  else
    {
      /* Atomic still: a counter may also be read (strobe_counter_get_*) without the lock. */
      bits = double_to_bits (bits_to_double (__atomic_load_n (&c->value, __ATOMIC_RELAXED)) + delta);
      __atomic_store_n (&c->value, bits, __ATOMIC_RELAXED);
    }
  send (c, bits);
  pthread_mutex_unlock (lock);
}

int64_t
strobe_counter_get_int (const StrobeCounter *c)
{
  int64_t bits = __atomic_load_n (&c->value, __ATOMIC_RELAXED);

  return c->type == STROBE_COUNTER_FLOAT ? (int64_t) bits_to_double (bits) : bits;
}

double
strobe_counter_get_float (const StrobeCounter *c)
{
  int64_t bits = __atomic_load_n (&c->value, __ATOMIC_RELAXED);

  return c->type == STROBE_COUNTER_FLOAT ? bits_to_double (bits) : (double) bits;
}

/* fork() takes every value lock right after strobe__init_lock (strobe-private.h). */
static void
counters_hooks (StrobeHooks *hooks)
{
  hooks->counters_fork_lock = strobe__counters_fork_lock;
}
STROBE_HOOKS_SETTER (counters_hooks);
