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

STROBE_CHANNEL_EXTERN (StrobeCountersChannel);   /* "Counters" */

typedef enum
{
  STROBE_COUNTER_INT   = 0,
  STROBE_COUNTER_FLOAT = 1,
} StrobeCounterType;

typedef enum
{
  STROBE_UNIT_COUNT   = 0,
  STROBE_UNIT_BYTES   = 1,
  STROBE_UNIT_PERCENT = 2,
} StrobeCounterUnit;

typedef struct
{
  uint32_t    id;        /* 0 until its spec is sent */
  uint8_t     type;      /* StrobeCounterType */
  uint8_t     unit;      /* StrobeCounterUnit */
  const char *name;
  int64_t     value;     /* int value, or the bits of a double; atomic */
} StrobeCounter;

#define STROBE_COUNTER_INIT(name, type, unit) { 0, (uint8_t) (type), (uint8_t) (unit), (name), 0 }
#define STROBE_COUNTER_DEFINE(var, name, type, unit) StrobeCounter var = STROBE_COUNTER_INIT (name, type, unit)

/* Setting an int counter with a float (or the reverse) converts the value. */
void    strobe_counter_set_int (StrobeCounter *counter, int64_t value);
void    strobe_counter_add_int (StrobeCounter *counter, int64_t delta);
void    strobe_counter_set_float (StrobeCounter *counter, double value);
void    strobe_counter_add_float (StrobeCounter *counter, double delta);
int64_t strobe_counter_get_int (const StrobeCounter *counter);
double  strobe_counter_get_float (const StrobeCounter *counter);

#define STROBE__COUNTER_OP(name, unit, type, op, v)                                        \
  do                                                                                       \
    {                                                                                      \
      static StrobeCounter strobe__counter = STROBE_COUNTER_INIT (name, type, unit);       \
      if (STROBE_CHANNEL_ENABLED (StrobeCountersChannel))                                  \
        op (&strobe__counter, v);                                                          \
    }                                                                                      \
  while (0)

/* One-line forms with a static counter per site: @name must be a literal. */
#define STROBE_COUNTER_SET_INT(name, v, unit)   STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_INT, strobe_counter_set_int, v)
#define STROBE_COUNTER_ADD_INT(name, v, unit)   STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_INT, strobe_counter_add_int, v)
#define STROBE_COUNTER_SET_FLOAT(name, v, unit) STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_FLOAT, strobe_counter_set_float, v)
#define STROBE_COUNTER_ADD_FLOAT(name, v, unit) STROBE__COUNTER_OP (name, unit, STROBE_COUNTER_FLOAT, strobe_counter_add_float, v)

#ifdef __cplusplus
}
#endif
