/* strobe-logging.h — text logging with deferred formatting (after Unreal's UE_LOG over
 * Trace): the format string, file and line of a site go out once; each message carries
 * only its timestamp, the site's id and its arguments encoded by type. The analysis
 * formats them (printf rules, C locale).
 *
 *   STROBE_LOG_CATEGORY_DEFINE (LogNet, STROBE_LOG_VERBOSITY_LOG);
 *   STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_WARNING, "retry %d of %s", n, host);
 *
 * Messages go out when the "Log" channel is on and the message's verbosity is at most
 * the category's current verbosity (its default until changed). See
 * runtime/INSTRUMENTATION.md, section Log.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "strobe-channel.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* How verbose a message is, and the most verbose level a category lets through. The
 * numbers are Unreal's ELogVerbosity: smaller is more severe; STROBE_LOG_NO_LOGGING as a
 * category's verbosity silences it. */
typedef enum
{
  STROBE_LOG_NO_LOGGING   = 0,
  STROBE_LOG_FATAL        = 1,
  STROBE_LOG_ERROR        = 2,
  STROBE_LOG_WARNING      = 3,
  STROBE_LOG_DISPLAY      = 4,
  STROBE_LOG_LOG          = 5,
  STROBE_LOG_VERBOSE      = 6,
  STROBE_LOG_VERY_VERBOSE = 7,
} StrobeLogVerbosity;

/* Aliases that read better in a category definition. */
#define STROBE_LOG_VERBOSITY_FATAL        STROBE_LOG_FATAL
#define STROBE_LOG_VERBOSITY_ERROR        STROBE_LOG_ERROR
#define STROBE_LOG_VERBOSITY_WARNING      STROBE_LOG_WARNING
#define STROBE_LOG_VERBOSITY_DISPLAY      STROBE_LOG_DISPLAY
#define STROBE_LOG_VERBOSITY_LOG          STROBE_LOG_LOG
#define STROBE_LOG_VERBOSITY_VERBOSE      STROBE_LOG_VERBOSE
#define STROBE_LOG_VERBOSITY_VERY_VERBOSE STROBE_LOG_VERY_VERBOSE

/* A log category, defined by STROBE_LOG_CATEGORY_DEFINE. `verbosity` is the threshold
 * its sites compare with (one relaxed load); change it with strobe_log_set_verbosity(),
 * not by writing it. It must live as long as the program. */
typedef struct StrobeLogCategory
{
  uint8_t                   verbosity;          /* first: the site loads it; messages above it are skipped */
  uint8_t                   default_verbosity;
  bool                      announced;          /* Logging.LogCategory sent */
  uint32_t                  id;                 /* assigned at registration, from 1 */
  const char               *name;
  struct StrobeLogCategory *next;
} StrobeLogCategory;

/* Internal: one log site, the static STROBE_LOG_MESSAGE makes; registered the first time
 * the site emits. */
typedef struct
{
  uint32_t           id;                 /* 0 until registered */
  uint8_t            verbosity;
  StrobeLogCategory *category;
  const char        *file;
  int32_t            line;
  const char        *format;
  /*< private >*/
  const void        *compiled;           /* the argument plan, built at registration */
} StrobeLogSpec;

/* Registers @category (STROBE_LOG_CATEGORY_DEFINE's constructor calls it): gives it its
 * id and applies the verbosity rules so far (STROBE_LOG_VERBOSITY, read at the first
 * registration, and strobe_log_set_verbosity()). A second call does nothing. Sites of a
 * category not registered yet still work (they register it). The category is announced
 * (Logging.LogCategory) when one of its sites first emits.
 *
 * Cost: once per category: a mutex. Blocks: on the log registry's mutex.
 * Threads: any thread, also before main; not in a signal handler. */
void strobe_log_category_register (StrobeLogCategory *category);

/* Defines log category @C (a global) with default verbosity @V and a constructor that
 * registers it. Its name is the identifier as written ("LogNet"). Use
 * STROBE_LOG_CATEGORY_EXTERN (C) in headers. */
#define STROBE_LOG_CATEGORY_DEFINE(C, V)                                                   \
  StrobeLogCategory C = { (uint8_t) (V), (uint8_t) (V), false, 0, #C, 0 };                 \
  __attribute__ ((constructor)) static void strobe__log_category_ctor_##C (void)           \
  {                                                                                        \
    strobe_log_category_register (&C);                                                     \
  }                                                                                        \
  typedef int strobe__log_category_##C##_defined

/* Declares category @C, defined by STROBE_LOG_CATEGORY_DEFINE in one .c, for a header. */
#define STROBE_LOG_CATEGORY_EXTERN(C) extern StrobeLogCategory C

/* The standard channel "Log": off until enabled (STROBE_TRACE=log, --trace=log). With
 * libstrobe.a linked statically it registers after the program's own constructors: a
 * message logged from one of those is skipped. */
STROBE_CHANNEL_EXTERN (LogChannel);

/* The emitter behind STROBE_LOG_MESSAGE. @format is the site's own format again: passed
 * so the compiler checks the arguments against it; the runtime uses spec->format. */
void strobe__log_message (StrobeLogSpec *spec, const char *format, ...)
  __attribute__ ((format (printf, 2, 3)));

#define STROBE__LOG_FIRST(f, ...) f

/* Logs one message in category @C at verbosity @V (a constant StrobeLogVerbosity). The
 * rest is a printf format (checked by the compiler) and its arguments. Conversions:
 * d i u x X o c s p f F e E g G a A n %%, flags -+ #0', width and precision with '*',
 * lengths hh h l ll z j t L. Positional arguments (%1$d) are not supported. A Fatal
 * message is flushed to the output before the macro returns; it does not abort. The
 * arguments are evaluated only when the message is sent.
 *
 * Cost: off (the Log channel, or @V above the category's verbosity): two relaxed loads
 * and branches. On: a clock read, the arguments encoded by type (strings copied) straight
 * into the thread's buffer: about 2.6 clock reads with three arguments "%d %s %.3f"
 * (strobe-bench-mem cost.log_3args, tests/bench/README.md), 1.2 with one int. A site's
 * first message takes a mutex, compiles its format once and sends two Important events.
 * Blocks: as STROBE_LOG when the buffer pool is full; a Fatal message then runs
 * strobe_flush() (the update lock and the output's write).
 * Threads: any thread. In a signal handler: only sites that already ran once outside it,
 * not Fatal ones, on a thread that traced before. */
#define STROBE_LOG_MESSAGE(C, V, ...)                                                      \
  do                                                                                       \
    {                                                                                      \
      static StrobeLogSpec strobe__log_spec = {                                            \
        0, (uint8_t) (V), &(C), __FILE__, __LINE__, STROBE__LOG_FIRST (__VA_ARGS__, ~), 0  \
      };                                                                                   \
      if (STROBE_CHANNEL_ENABLED (LogChannel)                                              \
          && (unsigned) (V) <= __atomic_load_n (&(C).verbosity, __ATOMIC_RELAXED))         \
        strobe__log_message (&strobe__log_spec, __VA_ARGS__);                              \
    }                                                                                      \
  while (0)

/* Sets the verbosity of the category named @name ("all": every category, also those
 * registered later); STROBE_LOG_NO_LOGGING silences it. Returns false when no category
 * has that name yet (the setting is still remembered for when one registers). The
 * environment variable `STROBE_LOG_VERBOSITY="Cat=verbose,all=warning"` does the same at
 * start-up; names of levels: fatal error warning display log verbose veryverbose. Names
 * are matched without regard to case; a later rule for a name, or "all", replaces the
 * earlier ones. False without remembering anything for a @name NULL or a @verbosity above
 * STROBE_LOG_VERY_VERBOSE.
 *
 * Cost: a mutex and a walk over the categories. Blocks: on the log registry's mutex.
 * Threads: any thread; not in a signal handler. */
bool strobe_log_set_verbosity (const char *name, StrobeLogVerbosity verbosity);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
