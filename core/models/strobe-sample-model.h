/* strobe-sample-model.h — sampled CPU call stacks and thread states (the Sampling
 * channel: PROTOCOL.md §5, "Sampling events"), per thread, and the sampled cost tree of
 * any time range, thread or set of intervals (a selected scope's).
 *
 * Threads are named by their operating-system id (`system_id`): the runtime samples
 * every thread of the process, also those that never traced anything. A thread that did
 * has a stream id too (its $Trace.ThreadInfo's SystemId), which the timeline uses: the
 * StrobeThreadsModel maps one to the other (strobe_threads_model_get_system_id,
 * strobe_threads_model_find_system), the one table of the trace's threads.
 *
 * Call stacks are ids of the memory channel's stack trie, which the StrobeMemoryModel of
 * the same trace holds (with the module map): tree builds take it, and a
 * StrobeMemoryFrameFunc (core/symbols' strobe_memory_symbolizer_frame_func merges frames
 * by function, with inlined frames as levels of their own), exactly as the memory trees.
 *
 * Register it in a document before loading (strobe_document_get_model (document,
 * STROBE_TYPE_SAMPLE_MODEL)); strobe_document_get_memory() is the StrobeMemoryModel.
 * Thread-safe: the decoder writes under the model's lock; every query copies its answer.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-cost-tree.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"

G_BEGIN_DECLS

/* What sampling the program got (Sampling.Status's Mode; strobe-standard-values.h). */
typedef enum
{
  STROBE_SAMPLE_MODE_OFF           = 0,
  STROBE_SAMPLE_MODE_HARDWARE      = 1,   /* CPU cycles */
  STROBE_SAMPLE_MODE_SOFTWARE      = 2,   /* the kernel's CPU clock */
  STROBE_SAMPLE_MODE_NOT_PERMITTED = 3,
  STROBE_SAMPLE_MODE_UNAVAILABLE   = 4,
} StrobeSampleMode;

#define STROBE_SAMPLE_FLAG_KERNEL   1u   /* samples in kernel mode too */
#define STROBE_SAMPLE_FLAG_SWITCHES 2u   /* context switches recorded */
#define STROBE_SAMPLE_PARANOID_UNKNOWN G_MININT32

/* One Sampling.Status. */
typedef struct
{
  guint64          time;
  StrobeSampleMode mode;
  guint            flags;
  guint            frequency;   /* per thread, Hz */
  gint             paranoid;    /* kernel.perf_event_paranoid, or _PARANOID_UNKNOWN */
  gint             error;       /* errno of a refusal */
  char            *message;     /* the runtime's (English) sentence */
} StrobeSampleStatus;

void strobe_sample_status_clear (StrobeSampleStatus *status);
/* @status in the user's words (translated): the mode and frequency, or which setting
 * refused and what to do about it (strobe-sample-status.c). */
char *strobe_sample_status_describe (const StrobeSampleStatus *status);

/* A sampled thread. */
typedef struct
{
  guint32 system_id;    /* the OS thread id */
  guint64 samples;
  guint64 switches;
  guint64 first, last;  /* times of its first and last record */
} StrobeSampleThread;

typedef struct
{
  guint64 time;
  guint32 stack;        /* stack trie id (StrobeMemoryModel); 0: none */
} StrobeSample;

typedef enum
{
  STROBE_SAMPLE_STATE_RUNNING   = 0,   /* on a CPU */
  STROBE_SAMPLE_STATE_PREEMPTED = 1,   /* could run, did not have a CPU */
  STROBE_SAMPLE_STATE_WAITING   = 2,   /* slept, waited for a lock or I/O */
} StrobeSampleState;

/* [begin, end) of one state of one thread. The last interval of a thread ends at its last
 * record (or the trace's end given to get_states). */
typedef struct
{
  guint64           begin;
  guint64           end;
  StrobeSampleState state;
} StrobeSampleStateInterval;

/* A piece of time of one thread (system_id 0: every thread): what trees are built over. */
typedef struct
{
  guint32 system_id;
  guint64 begin;
  guint64 end;          /* inclusive */
} StrobeSampleInterval;

typedef struct
{
  guint64 samples;
  guint64 lost;         /* records the kernel could not keep (Sampling.Batch Lost) */
  guint64 bad_batches;  /* batches whose Data could not be read to its end */
  guint   threads;
  guint64 copies;       /* samples with a copy of their user stack (Sampling.UserStack) */
  guint64 copy_bytes;   /* their bytes: the kernel shortens a copy that would not fit its ring */
  guint64 unwound;      /* of those, whose stack is now the one unwound from it */
  guint64 to_unwind;    /* copies matched to their sample, not unwound yet */
} StrobeSampleSummary;

/* A sample's copy of the top of its thread's user stack (Sampling.UserStack): the
 * registers an unwinder starts from and @size bytes of stack from @sp up. */
typedef struct
{
  guint32       system_id;
  guint64       time;
  guint64       ip, sp, bp;
  const guint8 *stack;
  gsize         size;
  guint32       chain;   /* the sample's stack id until then: the kernel's frame-pointer chain */
} StrobeSampleCopy;

/* Unwinds @copy: the id of its call stack in the memory model (strobe_memory_model_add_stack),
 * 0 when it could not (the sample keeps the kernel's frame-pointer chain). */
typedef guint32 (*StrobeSampleUnwindFunc) (const StrobeSampleCopy *copy, gpointer data);

#define STROBE_TYPE_SAMPLE_MODEL (strobe_sample_model_get_type ())
G_DECLARE_FINAL_TYPE (StrobeSampleModel, strobe_sample_model, STROBE, SAMPLE_MODEL, GObject)

StrobeSampleModel *strobe_sample_model_new            (void);
guint64            strobe_sample_model_get_generation (StrobeSampleModel *self);
void               strobe_sample_model_get_summary    (StrobeSampleModel *self, StrobeSampleSummary *out);

/* The latest Sampling.Status (copied; clear it with strobe_sample_status_clear); FALSE when
 * the trace has none (the channel was never on). */
gboolean           strobe_sample_model_get_status     (StrobeSampleModel *self, StrobeSampleStatus *out);
/* Every Sampling.Status in order (StrobeSampleStatus, cleared with the array). */
GArray            *strobe_sample_model_get_statuses   (StrobeSampleModel *self);

/* Gives every sample with a stack copy not unwound yet the stack @func unwinds from it
 * (copies are dropped once unwound or refused); returns how many samples changed.
 * core/symbols' strobe_sample_unwind() calls it with its DWARF unwinder. */
guint              strobe_sample_model_unwind         (StrobeSampleModel *self, StrobeSampleUnwindFunc func,
                                                       gpointer data);

/* The sampled threads (StrobeSampleThread) in order of first record. */
GArray            *strobe_sample_model_get_threads    (StrobeSampleModel *self);

/* Samples (StrobeSample, in time order) of thread @system_id in [@t0, @t1]. */
GArray            *strobe_sample_model_get_samples    (StrobeSampleModel *self, guint32 system_id,
                                                       guint64 t0, guint64 t1);
/* How many samples of @system_id (0: all threads) fall in [@t0, @t1]: O(threads log n). */
guint64            strobe_sample_model_count          (StrobeSampleModel *self, guint32 system_id,
                                                       guint64 t0, guint64 t1);
/* Samples per bucket: @n buckets evenly over [@t0, @t1) into @out (a CPU usage graph: a
 * bucket's count over its duration times the frequency is the CPU share). */
void               strobe_sample_model_get_counts     (StrobeSampleModel *self, guint32 system_id,
                                                       guint64 t0, guint64 t1, guint n, guint64 *out);
/* The state intervals (StrobeSampleStateInterval, in time order) of @system_id that
 * overlap [@t0, @t1], clipped to it. Empty without context switches in the trace. */
GArray            *strobe_sample_model_get_states     (StrobeSampleModel *self, guint32 system_id,
                                                       guint64 t0, guint64 t1);

/* ---- the sampled cost tree ----------------------------------------------------------- */

typedef struct _StrobeSampleTree StrobeSampleTree;

GType             strobe_sample_tree_get_type (void) G_GNUC_CONST;
#define STROBE_TYPE_SAMPLE_TREE (strobe_sample_tree_get_type ())

/* The samples in @intervals (a sample in several counts once per interval), as a cost
 * tree of one column (samples, inclusive and self) whose keys are @frame_func's (NULL:
 * each frame's address), outermost first (TOP_DOWN) or innermost first (BOTTOM_UP). The
 * root's key is 0. Samples without a stack count at the root. @stacks: the trace's
 * memory model (the stack trie). NULL with G_IO_ERROR_CANCELLED when cancelled. */
StrobeSampleTree *strobe_sample_model_build_tree (StrobeSampleModel          *self,
                                                  StrobeMemoryModel          *stacks,
                                                  const StrobeSampleInterval *intervals,
                                                  guint                       n_intervals,
                                                  StrobeCostTreeKind          kind,
                                                  StrobeMemoryFrameFunc       frame_func,
                                                  gpointer                    frame_data,
                                                  GCancellable               *cancellable,
                                                  GError                    **error);
StrobeSampleTree *strobe_sample_tree_ref        (StrobeSampleTree *self);
void              strobe_sample_tree_unref      (StrobeSampleTree *self);
/* The tree (owned by @self): column 0 is samples. */
StrobeCostTree   *strobe_sample_tree_get_tree   (StrobeSampleTree *self);
guint64           strobe_sample_tree_get_total  (StrobeSampleTree *self);
/* A frame to name key @key with (symbolize it, then take frames[*inline_depth]); FALSE
 * for the root's key or an unknown one. */
gboolean          strobe_sample_tree_get_frame  (StrobeSampleTree *self, guint64 key,
                                                 StrobeMemoryFrame *frame, guint *inline_depth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeSampleTree, strobe_sample_tree_unref)

G_END_DECLS
