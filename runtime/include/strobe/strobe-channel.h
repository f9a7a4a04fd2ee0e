/* strobe-channel.h — channels: named on/off switches tested at every log site.
 *
 * Every channel is off until enabled by name: STROBE_TRACE=a,b and --trace=a,b at start
 * (they add up), strobe_channel_set_enabled() in the program, a viewer or strobe-cli
 * through the control server while it runs. A name is remembered, so a channel that
 * registers later (a constructor that runs after, a dlopen'ed module) comes up as asked.
 * The runtime's own channels are Cpu, Frame, Log, Counters, Bookmark, Region, Memory,
 * Sampling and Trace: do not give yours those names (both would answer to it).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* A channel object, as STROBE_CHANNEL_DEFINE makes it. A program reads it only through
 * STROBE_CHANNEL_ENABLED() and the functions below; once registered, the fields after
 * `enabled` are the runtime's. It must live as long as the program. */
typedef struct StrobeChannel
{
  int                   enabled;     /* first: the log site loads exactly this */
  const char           *identifier;  /* as written in STROBE_CHANNEL_DEFINE */
  /* Owned by the runtime once registered. */
  const char           *name;        /* identifier without a trailing "Channel" */
  uint32_t              id;
  bool                  read_only;
  bool                  registered;
  struct StrobeChannel *next;
} StrobeChannel;

/* Registers @channel (STROBE_CHANNEL_DEFINE's constructor calls it): names it (its
 * identifier without a trailing "Channel"), applies the enable rules given so far
 * (STROBE_TRACE, --trace=, strobe_channel_set_enabled) and announces it to every output
 * ($Trace.ChannelAnnounce). A second call does nothing. Until it runs the channel is off:
 * a site that runs before, in an earlier constructor, is skipped.
 *
 * Cost: once per channel: a mutex, a copy of the name, one Important event.
 * Blocks: on the channel registry's mutex (held by the other channel functions).
 * Threads: any thread, also before main; not in a signal handler. */
void strobe_channel_register (StrobeChannel *channel);

/* Defines a channel object named @C (a global; STROBE_CHANNEL_EXTERN in headers) and a
 * constructor that registers it before main, or when a module is dlopen'ed. Its runtime
 * name is the identifier with a trailing "Channel" removed (NetworkChannel is "Network"),
 * like Unreal. Disabled until enabled by name.
 *
 * A log site that runs before that constructor finds the channel off and is skipped (not
 * even counted as dropped): a constructor earlier in the same file, or any of the
 * program's constructors for the runtime's own channels when libstrobe.a is linked
 * statically (the program's constructors run before the library's). */
#define STROBE_CHANNEL_DEFINE(C)                                                           \
  StrobeChannel C = { 0, #C, 0, 0, false, false, 0 };                                      \
  __attribute__ ((constructor)) static void strobe__channel_ctor_##C (void)                \
  {                                                                                        \
    strobe_channel_register (&C);                                                          \
  }                                                                                        \
  typedef int strobe__channel_##C##_defined /* takes the caller's semicolon */

/* Declares channel @C, defined by STROBE_CHANNEL_DEFINE in one .c, for a header. */
#define STROBE_CHANNEL_EXTERN(C) extern StrobeChannel C

/* True (non-zero) while channel @C is on: what every log site tests first.
 *
 * Cost: one relaxed load and a branch predicted not taken: the whole cost of a disabled
 * site (0.3–0.5 ns, strobe-bench cost.disabled_site).
 * Blocks: never.
 * Threads: any thread, also a signal handler. A site tests it when it starts: an event
 * whose channel goes off while its block runs is still emitted. */
#define STROBE_CHANNEL_ENABLED(C) (__builtin_expect (__atomic_load_n (&(C).enabled, __ATOMIC_RELAXED), 0))

/* The channel "Trace": always enabled, cannot be switched off. The runtime's own system
 * events (threads, channels, statistics) and every spec event (names, schemas) go on it,
 * so they reach every output. */
STROBE_CHANNEL_EXTERN (StrobeTraceChannel);

/* Enables or disables the channel named @name: case-insensitive, a trailing plural "s"
 * accepted ("cpus" is "Cpu"); "all" is every channel and replaces every earlier rule.
 * The rule is remembered (up to 256 names of at most 128 bytes) and applied to channels
 * that register later. Each channel that changes sends $Trace.ChannelToggle; the Memory
 * channel coming on starts memory tracing (a snapshot of the live table into the output).
 * False with ENOSPC when @name matches no channel and cannot be remembered; false with
 * EPERM when it would disable a read-only channel (Trace).
 *
 * Cost: a mutex, a walk over the channels and the rules, one Important event per channel
 * that changes. Not for a hot path.
 * Blocks: on the channel registry's mutex.
 * Threads: any thread; not in a signal handler, not from strobe_channels_foreach()'s
 * callback. */
bool strobe_channel_set_enabled (const char *name, bool enabled);
/* strobe_channel_set_enabled() for each name of the comma-separated @list (blanks
 * around names ignored), as STROBE_TRACE is read. A read-only channel is left as it is.
 * False with ENOSPC when a name could not be remembered (the others still apply).
 *
 * Cost, Blocks, Threads: as strobe_channel_set_enabled(), once for the whole list. */
bool strobe_channels_set_enabled (const char *list, bool enabled);

/* True when a registered channel named @name (matched as above, "all" excepted) is on.
 * At a log site, test the object with STROBE_CHANNEL_ENABLED() instead.
 *
 * Cost: a mutex and a name comparison per registered channel (about 5 clock reads with
 * the runtime's channels and one of the program's).
 * Blocks: on the channel registry's mutex.
 * Threads: any thread; not in a signal handler. */
bool strobe_channel_is_enabled (const char *name);
/* Calls @fn with @user for every registered channel (read-only ones included), newest
 * first, under the registry's lock: @fn must not call the channel functions nor register
 * a channel (dlopen a module that defines one): that would deadlock.
 *
 * Cost: a mutex and one call per channel.
 * Blocks: on the channel registry's mutex, and holds it while @fn runs.
 * Threads: any thread; not in a signal handler. */
void strobe_channels_foreach (void (*fn) (const StrobeChannel *channel, void *user), void *user);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
