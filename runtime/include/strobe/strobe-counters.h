/* strobe-counters.h — integer and float counters on the standard channel "Counters".
 *
 *   STROBE_COUNTER_DEFINE (live_objects, "Objects/live", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);
 *   strobe_counter_add_int (&live_objects, 1);
 *   STROBE_COUNTER_SET_FLOAT ("GPU/load", 42.5, STROBE_UNIT_PERCENT);
 *
 * The runtime keeps each counter's value (atomically, so adds from several threads are
 * exact) and sends the new value with a timestamp on every set or add.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "strobe-channel.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* The standard channel "Counters". */
STROBE_CHANNEL_EXTERN (StrobeCountersChannel);

/* A counter's value type (Counters.Spec.Type). */
typedef enum
{
  STROBE_COUNTER_INT   = 0,
  STROBE_COUNTER_FLOAT = 1,
} StrobeCounterType;

/* What a counter's value counts (Counters.Spec.Unit), for the viewer's axis. */
typedef enum
{
  STROBE_UNIT_COUNT   = 0,
  STROBE_UNIT_BYTES   = 1,
  STROBE_UNIT_PERCENT = 2,
} StrobeCounterUnit;

/* A counter: its name, type and unit, and its current value, which the runtime keeps.
 * Make one with STROBE_COUNTER_DEFINE (or STROBE_COUNTER_INIT); each object is one counter
 * in the trace. It and its name must live as long as the program once used. */
typedef struct
{
  uint32_t    id;        /* 0 until its spec is sent */
  uint8_t     type;      /* StrobeCounterType */
  uint8_t     unit;      /* StrobeCounterUnit */
  const char *name;
  int64_t     value;     /* int value, or the bits of a double; atomic */
} StrobeCounter;

/* The initialiser of a StrobeCounter named @name (a string that lives as long as the
 * program, "Group/name" by convention) of @type (StrobeCounterType) and @unit
 * (StrobeCounterUnit), value 0. */
#define STROBE_COUNTER_INIT(name, type, unit) { 0, (uint8_t) (type), (uint8_t) (unit), (name), 0 }
/* Defines the StrobeCounter @var (STROBE_COUNTER_INIT's arguments after it). */
#define STROBE_COUNTER_DEFINE(var, name, type, unit) StrobeCounter var = STROBE_COUNTER_INIT (name, type, unit)

/* Sets @counter to @value; when the Counters channel is on, sends the value with a
 * timestamp (Counters.SetInt, or SetFloat for a float counter: setting an int counter
 * with a float, or the reverse, converts the value). The value is kept while the channel
 * is off too. The first value sent sends the counter's spec (Counters.Spec).
 *
 * Cost: a lock of one of 64 striped mutexes (about one clock read, the channel off) and,
 * on, one synchronised event: about two clock reads (uncontended). The value and the
 * event's serial are taken under that lock, so a series is in the order the values were
 * produced.
 * Blocks: on the stripe's mutex while another thread updates a counter of that stripe
 * (and while it waits for a buffer block, as STROBE_LOG, when the pool is full).
 * Threads: any thread; not in a signal handler. */
void    strobe_counter_set_int (StrobeCounter *counter, int64_t value);
/* Adds @delta to @counter (exact across threads) and, when the channel is on, sends the
 * new value, as strobe_counter_set_int(). Also while the channel is off, so the total is
 * right when it comes on.
 *
 * Cost, Blocks, Threads: as strobe_counter_set_int(). */
void    strobe_counter_add_int (StrobeCounter *counter, int64_t delta);
/* strobe_counter_set_int() with a double.
 *
 * Cost, Blocks, Threads: as strobe_counter_set_int(). */
void    strobe_counter_set_float (StrobeCounter *counter, double value);
/* strobe_counter_add_int() with a double.
 *
 * Cost, Blocks, Threads: as strobe_counter_set_int(). */
void    strobe_counter_add_float (StrobeCounter *counter, double delta);
/* @counter's current value as an integer (a float counter's truncated).
 *
 * Cost: one relaxed load. Blocks: never. Threads: any thread, also a signal handler. */
int64_t strobe_counter_get_int (const StrobeCounter *counter);
/* @counter's current value as a double.
 *
 * Cost: one relaxed load. Blocks: never. Threads: any thread, also a signal handler. */
double  strobe_counter_get_float (const StrobeCounter *counter);

#define STROBE__COUNTER_OP(name, unit, type, op, v)                                        \
  do                                                                                       \
    {                                                                                      \
      static StrobeCounter strobe__counter = STROBE_COUNTER_INIT (name, type, unit);       \
      if (STROBE_CHANNEL_ENABLED (StrobeCountersChannel))                                  \
        op (&strobe__counter, v);                                                          \
    }                                                                                      \
  while (0)

/* One-line forms with a static counter per site: @name must be a literal, @v the value
 * or delta, @unit a StrobeCounterUnit. Two sites with the same name are two counters (of
 * one name): to update one counter from several places, define it and call the
 * functions.
 *
 * They do nothing at all while the Counters channel is off, not even keep the value: an
 * ADD made then is lost, so a total kept with STROBE_COUNTER_ADD_* is short by
 * everything added before the channel came on. Keep a running total in a StrobeCounter
 * with strobe_counter_add_int() instead.
 *
 * Cost: off: one load and a branch; on: as strobe_counter_set_int().
 * Blocks, Threads: as strobe_counter_set_int(). */
#define STROBE_COUNTER_SET_INT(name, v, unit)   STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_INT, strobe_counter_set_int, v)
#define STROBE_COUNTER_ADD_INT(name, v, unit)   STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_INT, strobe_counter_add_int, v)
#define STROBE_COUNTER_SET_FLOAT(name, v, unit) STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_FLOAT, strobe_counter_set_float, v)
#define STROBE_COUNTER_ADD_FLOAT(name, v, unit) STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_FLOAT, strobe_counter_add_float, v)

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
