/* strobe-instrument-private.h — what a program instruments with: event types, channels,
 * the runtime's own system events, the clock, CPU scopes, logging, counters and bookmarks.
 * Not installed.
 *
 * Locks (strobe-private.h has their order):
 *   strobe__channels_lock  the channel list and the remembered enable/disable rules.
 *   strobe__log_lock       log categories, their verbosity rules and message sites.
 *   strobe__cpu_spec_lock  CPU scope names: interning and the spec ids.
 *   strobe__counters_lock  counter registration; each counter's value has a striped lock
 *                          of its own (strobe__counters_fork_lock takes them all).
 *   strobe__bookmark_lock  bookmark specs' registration.
 *   strobe__events_lock    the event type registry (uid → layout). */
#pragma once

#include "strobe-private.h"

extern pthread_mutex_t strobe__channels_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__log_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__cpu_spec_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__counters_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__bookmark_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__events_lock;   /* strobe-runtime-hooks.c */

/* ---- event types (strobe-event-registry.c) ----------------------------------------- */

/* uid → flags and payload size of a registered event type; false when unknown. */
bool strobe__event_layout (uint16_t uid, uint8_t *flags, uint16_t *payload_size);
void strobe__events_init (void);

/* ---- channels (strobe-channel.c) --------------------------------------------------- */

void strobe__channels_init (void);
/* Like strobe_channels_set_enabled(); names matching no channel go to @unmatched (and
 * are remembered), those not remembered either (the rules are bounded) to @refused. */
void strobe__channels_set_reporting (const char *list, bool enabled, char *unmatched,
                                     size_t unmatched_size, char *refused, size_t refused_size);
/* --trace=LIST: like STROBE_TRACE, reported once when a name matches no channel. */
void strobe__channels_add_start_list (const char *list);
void strobe__channels_schedule_report (void);
void strobe__channels_report_unmatched (bool now);
void strobe__channels_after_fork_child_off (void);

/* ---- the clock (strobe-clock.c) ---------------------------------------------------- */

void     strobe__clock_init (void);
uint64_t strobe__clock_origin (void);
uint64_t strobe__clock_start_ns (void);
uint8_t  strobe__clock_source (void);

/* ---- system events (strobe-system.c) ----------------------------------------------- */

void strobe__system_init (void);
void strobe__emit_thread_info (uint16_t id, const char *name, const char *group, int32_t sort_hint);
/* The ThreadInfo of a thread other than the caller (@system_id its OS id). */
void strobe__emit_thread_info_of (uint16_t id, uint64_t system_id, const char *name);
void strobe__emit_thread_end (uint16_t id, uint64_t timestamp);
void strobe__emit_channel_announce (uint32_t id, bool enabled, const char *name);
void strobe__emit_channel_toggle (uint32_t id, bool enabled);
void strobe__emit_stats (const StrobeStats *stats);
/* $Trace.ClockOffset: a peer's measure of our clock against its own (PROTOCOL.md §5). */
void strobe__emit_clock_offset (int64_t offset_ns, uint64_t uncertainty_ns, uint32_t rounds,
                                const char *peer_domain_hex);

/* ---- CPU scope batches (strobe-cpu.c) --------------------------------------------- */

/* Every thread ships its batch at its next scope record; the caller's ships now. */
void strobe__cpu_request_flush_all (void);
/* From the thread's exit hook, before its last commit. */
void strobe__cpu_thread_exit (void);
void strobe__cpu_after_fork_child (void);

/* ---- sampling (strobe-sampling.c) ------------------------------------------------- */

/* The updater's part of each round (under the update lock): starts or stops sampling as
 * the channel says, follows new threads, ships every thread's samples and switches. */
void strobe__sampling_drain (void);
/* strobe_shutdown(), before the output's last drain: the events stop; that drain reads
 * what the rings hold. */
void strobe__sampling_quiesce (void);
/* strobe_shutdown(), after it: every event closed for good. */
void strobe__sampling_shutdown (void);
/* strobe_init(): reads STROBE_SAMPLING_HZ and the tests' STROBE_SAMPLING_TEST_ERRNO. */
void strobe__sampling_init_from_env (void);
void strobe__sampling_after_fork_child (void);

/* ---- counters (strobe-counters.c) -------------------------------------------------- */

void strobe__counters_fork_lock (bool lock);   /* every counter's value lock */
