/* strobe-give-way.h — a background thread stepping aside for the viewer's main thread.
 *
 * On a machine with as many busy background threads as cores, the scheduler's tick (4 ms
 * at HZ=250) decides when a main thread, preempted or woken, runs again: measured on the
 * project's 2-vCPU test machines, a main thread with 3 ms of work per frame waited up to
 * 5.2 ms beside two nice-5 workers (p90 3.8 ms), and 1.0 ms at most when each worker
 * called sched_yield() once a millisecond (tests/bench/README.md, "Giving way"). Nice values
 * alone do not do it: they share CPU time, not when it is given.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

/* From now on, threads other than the caller's give way when they call
 * strobe_give_way(): the viewer calls it from its main thread before any work starts.
 * Without it (strobe-cli, tests) strobe_give_way() returns at once; STROBE_GIVE_WAY=0 in
 * the environment turns it off (the benchmarks' A/B). */
void strobe_give_way_enable (void);

/* In a long loop of a background thread, every step of well under a millisecond: at
 * most once per STROBE_GIVE_WAY_US of this thread's running it yields the CPU, which the
 * scheduler gives to a waiting main thread before this one's next step. Costs a clock
 * read when enabled, a load when not. Never on the main thread. */
#define STROBE_GIVE_WAY_US 1000
void strobe_give_way (void);

/* A walk of events calls it every this many bytes of them, not every so many events: a
 * batch of scopes is one event of thousands of scopes at 1.5 bytes each, walked at 30 M
 * scopes a second or more. */
#define STROBE_GIVE_WAY_BYTES (16u * 1024u)

/* Puts the calling thread below the main thread, the display server and the thread that
 * feeds it, for good: nice STROBE_BACKGROUND_NICE, or as nice as it was if more, once per
 * thread (Linux gives each thread its own nice value). An unprivileged process cannot raise it back, so only for a
 * thread that stays a background one: a thread of its own, or an exclusive pool's. Unlike
 * strobe_give_way(), also in strobe-cli: where a pipeline's head thread shares two cores
 * with its workers, it should not wait for them. */
#define STROBE_BACKGROUND_NICE 5
void strobe_give_way_lower (void);

/* How many times the calling thread gave way (tests). */
guint strobe_give_way_count (void);
