/* strobe-flow.h — flows: an event in one place that causes one in another (a request
 * sent by a client and served by a server, a job queued on one thread and run on
 * another), joined by a 64-bit flow id both sides know (a request id, a job number).
 *
 *   client:  STROBE_CPU_SCOPE ("SendRequest");  strobe_flow_begin (request_id);
 *   server:  STROBE_CPU_SCOPE ("HandleRequest"); strobe_flow_end (request_id);
 *
 * Each call is a Misc.Flow event (runtime/INSTRUMENTATION.md, "Flow") on the standard
 * channel "Cpu": a flow point belongs to the CPU scope its thread is in at that time, and
 * a viewer draws an arrow from the scope of the begin, through each step, to the scope of
 * the end — across threads and across the processes of one session.
 */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* Where in its flow a flow point is. */
typedef enum
{
  STROBE_FLOW_BEGIN = 0,
  STROBE_FLOW_STEP  = 1,
  STROBE_FLOW_END   = 2,
} StrobeFlowPhase;

/* The flow @id starts here, in the current CPU scope of this thread. Ids are the
 * program's own; any value, 0 included. The same id may be used again once its flow has
 * ended.
 *
 * Cost: off (Cpu channel): one load and a branch; on: a fenced clock read (in program
 * order, so the point lies inside the scope it is made in) and one event.
 * Blocks: as STROBE_LOG when the buffer pool is full.
 * Threads: any thread. In a signal handler only after a first flow point outside it. */
void strobe_flow_begin (uint64_t id);
/* The flow @id passes through here (a queue, a hop between processes); any number of
 * steps between its begin and its end.
 *
 * Cost, Blocks, Threads: as strobe_flow_begin(). */
void strobe_flow_step (uint64_t id);
/* The flow @id ends here.
 *
 * Cost, Blocks, Threads: as strobe_flow_begin(). */
void strobe_flow_end (uint64_t id);
/* A flow point of @phase at an explicit strobe_time() timestamp @ts (replay, tests). A
 * @phase outside StrobeFlowPhase is ignored.
 *
 * Cost: one event when the channel is on (no clock read).
 * Blocks, Threads: as strobe_flow_begin(). */
void strobe_flow_at (uint64_t id, StrobeFlowPhase phase, uint64_t ts);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
