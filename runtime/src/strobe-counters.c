/* strobe-counters.c — counters: a spec sent once per counter, then the value after every
 * set or add. Wire format: runtime/INSTRUMENTATION.md. */
#include "strobe-private.h"
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

static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t        next_counter_id = 1;

static uint32_t
counter_id (StrobeCounter *c)
{
  uint32_t id = __atomic_load_n (&c->id, __ATOMIC_ACQUIRE);

  if (id)
    return id;
  pthread_mutex_lock (&counters_lock);
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
  pthread_mutex_unlock (&counters_lock);
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

  __atomic_store_n (&c->value, bits, __ATOMIC_RELAXED);
  send (c, bits);
}

void
strobe_counter_set_float (StrobeCounter *c, double value)
{
  int64_t bits = c->type == STROBE_COUNTER_FLOAT ? double_to_bits (value) : (int64_t) value;

  __atomic_store_n (&c->value, bits, __ATOMIC_RELAXED);
  send (c, bits);
}

void
strobe_counter_add_int (StrobeCounter *c, int64_t delta)
{
  if (c->type == STROBE_COUNTER_FLOAT)
    {
      strobe_counter_add_float (c, (double) delta);
      return;
    }
  send (c, __atomic_add_fetch (&c->value, delta, __ATOMIC_RELAXED));
}

void
strobe_counter_add_float (StrobeCounter *c, double delta)
{
  int64_t old, bits;

  if (c->type != STROBE_COUNTER_FLOAT)
    {
      send (c, __atomic_add_fetch (&c->value, (int64_t) delta, __ATOMIC_RELAXED));
      return;
    }
  old = __atomic_load_n (&c->value, __ATOMIC_RELAXED);
  do
    bits = double_to_bits (bits_to_double (old) + delta);
  while (!__atomic_compare_exchange_n (&c->value, &old, bits, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  send (c, bits);
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
