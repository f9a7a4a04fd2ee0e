/* strobe-channel.h — channels: named on/off switches tested at every log site. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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

void strobe_channel_register (StrobeChannel *channel);

/* Defines a channel object named @C. Its runtime name is the identifier with a trailing
 * "Channel" removed (CpuChannel is "Cpu"), like Unreal. Disabled until enabled by name. */
#define STROBE_CHANNEL_DEFINE(C)                                                           \
  StrobeChannel C = { 0, #C, 0, 0, false, false, 0 };                                      \
  __attribute__ ((constructor)) static void strobe__channel_ctor_##C (void)                \
  {                                                                                        \
    strobe_channel_register (&C);                                                          \
  }                                                                                        \
  typedef int strobe__channel_##C##_defined /* takes the caller's semicolon */

#define STROBE_CHANNEL_EXTERN(C) extern StrobeChannel C

/* One relaxed load: the whole cost of a disabled log site with its branch. */
#define STROBE_CHANNEL_ENABLED(C) (__builtin_expect (__atomic_load_n (&(C).enabled, __ATOMIC_RELAXED), 0))

/* Always enabled, cannot be switched off: the runtime's own system events. */
STROBE_CHANNEL_EXTERN (StrobeTraceChannel);

/* Enables or disables one channel by name (case-insensitive, a trailing plural "s"
 * accepted; "all" is every channel). Names not registered yet are remembered and applied
 * when such a channel registers. False with EPERM for a read-only channel. */
bool strobe_channel_set_enabled (const char *name, bool enabled);
/* Same for a comma-separated list. */
bool strobe_channels_set_enabled (const char *list, bool enabled);
bool strobe_channel_is_enabled (const char *name);
/* Calls @fn for every registered channel (read-only ones included), under the registry's
 * lock: @fn must not call the channel functions. */
void strobe_channels_foreach (void (*fn) (const StrobeChannel *channel, void *user), void *user);

#ifdef __cplusplus
}
#endif
