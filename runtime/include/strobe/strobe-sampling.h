/* strobe-sampling.h — sampled CPU call stacks and thread states, from the kernel's perf
 * events: what the CPU was doing inside a slow scope, and whether a thread ran at all.
 *
 * While the "Sampling" channel is on, the runtime's worker samples every thread of the
 * process (those created later too) at a frequency per thread — CPU cycles where the
 * machine has a hardware counter, else the kernel's CPU clock — with the user call chain
 * of each sample (frame pointers: build with -fno-omit-frame-pointer for whole chains),
 * and records each thread's context switches (running, preempted, waiting). Nothing runs
 * in the sampled threads: the kernel writes into ring buffers the worker drains.
 *
 *   STROBE_TRACE=sampling ./game          # or --trace=sampling, or from the viewer
 *   STROBE_SAMPLING_HZ=4000 ./game        # per thread; 1..10000, default 1000
 *
 * Whether it could (the kernel's kernel.perf_event_paranoid, a container's seccomp
 * profile) is said in the trace (Sampling.Status), on stderr and by
 * strobe_sampling_get_status(). See runtime/INSTRUMENTATION.md, section Sampling.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "strobe-channel.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* The standard channel "Sampling": off by default. It takes effect at the worker's next
 * round (within about 10 ms; with no worker, at the next strobe_update()). */
STROBE_CHANNEL_EXTERN (SamplingChannel);

/* The sampling frequency per thread when neither STROBE_SAMPLING_HZ nor
 * strobe_sampling_set_frequency() says another. */
#define STROBE_SAMPLING_DEFAULT_HZ 1000u
/* The highest frequency per thread strobe_sampling_set_frequency() accepts. */
#define STROBE_SAMPLING_MAX_HZ     10000u

/* What sampling the program got (the values of Sampling.Status's Mode). */
typedef enum
{
  STROBE_SAMPLING_OFF           = 0,   /* the channel is off (or not started yet) */
  STROBE_SAMPLING_HARDWARE      = 1,   /* CPU cycles */
  STROBE_SAMPLING_SOFTWARE      = 2,   /* the kernel's CPU clock */
  STROBE_SAMPLING_NOT_PERMITTED = 3,   /* the kernel refused (kernel.perf_event_paranoid…) */
  STROBE_SAMPLING_UNAVAILABLE   = 4,   /* no perf events on this system */
} StrobeSamplingMode;

/* Sets the sampling frequency per thread, @hz from 1 to STROBE_SAMPLING_MAX_HZ (the
 * default is STROBE_SAMPLING_DEFAULT_HZ or STROBE_SAMPLING_HZ). While sampling runs it
 * restarts at the new frequency at the worker's next round.
 * False with EINVAL when @hz is out of range.
 * Cost: an atomic store. Blocks: never.
 * Threads: any thread; not in a signal handler. */
bool     strobe_sampling_set_frequency (uint32_t hz);
/* The frequency per thread that sampling runs (or will run) at.
 * Cost: an atomic load. Blocks: never. Threads: any thread, also a signal handler. */
uint32_t strobe_sampling_get_frequency (void);

/* What the last start of sampling got: the mode, and (when @error is not NULL) the errno
 * of a refusal (0 otherwise). STROBE_SAMPLING_OFF before sampling was first started.
 * Cost: two atomic loads. Blocks: never. Threads: any thread, also a signal handler. */
StrobeSamplingMode strobe_sampling_get_status (int *error);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
