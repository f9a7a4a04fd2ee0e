/* strobe-timeline-model.h — the timeline of a trace: per thread nested CPU scopes, frames
 * per kind, bookmarks, regions and counter series. See core/models/README.md for the
 * memory layout, the complexity of each query and the locking.
 *
 * All times are raw timestamp-clock ticks (as in the trace); convert them with the
 * trace's StrobeTraceClock (strobe-trace-clock.h). Every function may be called from any thread
 * while the model is still being fed by a decoder (queries take a read lock; arrays handed
 * out are copies).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"
#include "strobe-standard-values.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_SCOPE_CLOSED_AT_END = 1 << 0,   /* still open when the trace ended: closed at its last timestamp */
  STROBE_SCOPE_OPEN          = 1 << 1,   /* still open now (live trace): ends at the latest timestamp seen */
} StrobeScopeFlags;

typedef struct
{
  guint64 begin;
  guint64 end;
  guint32 name_id;
  guint16 depth;
  guint8  flags;        /* StrobeScopeFlags */
} StrobeTimelineScope;

/* A level-of-detail block: one scope (count 1, exact) or several consecutive scopes of
 * one depth merged because they are narrower than the query's resolution. */
typedef struct
{
  guint64 begin;
  guint64 end;
  guint32 name_id;      /* of the first scope of the block */
  guint32 count;        /* scopes in the block */
  guint16 depth;
  guint8  flags;        /* OR of the scopes' flags */
} StrobeTimelineBlock;

typedef struct
{
  guint64 begin;
  guint64 end;
  guint32 index;        /* frame number within its kind, from 0 */
  guint8  flags;        /* STROBE_SCOPE_CLOSED_AT_END / _OPEN */
} StrobeTimelineFrame;

typedef struct
{
  guint64 time;
  guint32 name_id;
  guint16 thread_id;
} StrobeTimelineBookmark;

typedef struct
{
  guint64 begin;
  guint64 end;
  guint32 name_id;
  guint16 lane;         /* 0..: the lowest lane free at its begin (by begin time), so overlaps stack */
  guint8  flags;
} StrobeTimelineRegion;

/* Frame kinds (Misc.BeginFrame "FrameType"; the runtime's StrobeFrameType). */
typedef enum
{
  STROBE_TIMELINE_FRAME_GAME   = STROBE_STANDARD_FRAME_GAME,
  STROBE_TIMELINE_FRAME_RENDER = STROBE_STANDARD_FRAME_RENDER,
} StrobeTimelineFrameKind;

#define STROBE_TIMELINE_FRAME_KINDS STROBE_STANDARD_FRAME_KINDS

/* What a counter's values are (the runtime's StrobeCounterType). */
typedef enum
{
  STROBE_TIMELINE_COUNTER_INT   = STROBE_STANDARD_COUNTER_INT,
  STROBE_TIMELINE_COUNTER_FLOAT = STROBE_STANDARD_COUNTER_FLOAT,
} StrobeTimelineCounterType;

/* What a counter's values count (the runtime's StrobeCounterUnit). */
typedef enum
{
  STROBE_TIMELINE_UNIT_COUNT   = STROBE_STANDARD_UNIT_COUNT,
  STROBE_TIMELINE_UNIT_BYTES   = STROBE_STANDARD_UNIT_BYTES,
  STROBE_TIMELINE_UNIT_PERCENT = STROBE_STANDARD_UNIT_PERCENT,
} StrobeTimelineCounterUnit;

typedef struct
{
  guint32 index;        /* for strobe_timeline_model_get_counter_samples() */
  char   *name;
  guint8  type;         /* StrobeTimelineCounterType */
  guint8  unit;         /* StrobeTimelineCounterUnit */
  guint64 n_samples;
} StrobeTimelineCounter;

typedef struct
{
  guint64 time;
  gint64  int_value;    /* valid for int counters */
  gdouble value;        /* both kinds */
} StrobeCounterSample;

/* Counter samples summarised for drawing: one per non-empty bucket of a series query. */
typedef struct
{
  guint32 bucket;       /* 0 .. n_buckets - 1 */
  guint32 count;        /* samples in the bucket */
  guint64 first_time;   /* of its first and last sample */
  guint64 last_time;
  gdouble first;        /* values of its first and last sample */
  gdouble last;
  gdouble min;
  gdouble max;
} StrobeCounterBucket;

/* Events the runtime dropped between two of its $Trace.Stats reports: somewhere in
 * [begin, end] (the two reports' times), @count events are missing from the trace. The
 * runtime counts drops per process, not per thread. */
typedef struct
{
  guint64 begin;
  guint64 end;
  guint64 count;
} StrobeTimelineDrop;

/* What a change query is about (strobe_timeline_model_get_changed_since()). */
typedef enum
{
  STROBE_TIMELINE_SERIES_SCOPES,     /* id: a thread id */
  STROBE_TIMELINE_SERIES_FRAMES,     /* id: a frame kind */
  STROBE_TIMELINE_SERIES_COUNTER,    /* id: a counter index */
  STROBE_TIMELINE_SERIES_MARKERS,    /* bookmarks, regions and drops; id ignored */
} StrobeTimelineSeries;

typedef struct
{
  guint64 scopes;           /* completed scopes stored */
  gsize   scope_bytes;      /* bytes held by scope storage (chunks, chunk tables, long-scope ends) */
  gsize   total_bytes;      /* all the model's memory, scope storage included (approximate) */
  guint64 unmatched_ends;   /* end records with no open scope (channel enabled mid-scope) */
  guint64 depth_overflows;  /* scopes nested deeper than STROBE_TIMELINE_MAX_DEPTH: not kept */
  guint64 budget_overflows; /* scopes that would have opened a nesting level past the
                             * model's budget (STROBE_TIMELINE_MAX_LEVELS): not kept */
  guint64 memory_overflows; /* scopes completed once the scope storage had reached the
                             * model's memory budget: counted, not kept */
  guint64 memory_budget;    /* that budget, bytes (strobe_timeline_model_set_memory_budget) */
  guint64 levels;           /* nesting levels in use, all threads together */
} StrobeTimelineStats;

/* Scopes nested deeper than this on one thread are counted (depth_overflows), not kept: a
 * trace of 64 KiB can hold millions of nested begins. */
#define STROBE_TIMELINE_MAX_DEPTH 1024

/* The whole model's budget of nesting levels (a thread's depth 0, 1, 2, … each one level),
 * all threads together: each level costs a track and an open-scope slot, so a per-thread
 * cap alone lets threads × depth grow without bound (8 192 threads × 1 024 levels, a
 * 426 KB trace, took 3.26 GB). A scope that would open a level past it is counted
 * (budget_overflows), not kept; levels already taken stay usable. 65 536 levels is
 * 1 024 threads 64 deep, or 64 threads at the depth cap. */
#define STROBE_TIMELINE_MAX_LEVELS 65536

#define STROBE_TYPE_TIMELINE_MODEL (strobe_timeline_model_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimelineModel, strobe_timeline_model, STROBE, TIMELINE_MODEL, GObject)

StrobeTimelineModel *strobe_timeline_model_new              (void);
/* The most bytes of scope storage the model keeps: once it is reached, scopes are counted
 * (StrobeTimelineStats.memory_overflows), not kept, so a trace too big for the machine
 * ends with a clear count instead of the kernel's OOM killer. By default half of the
 * memory available (MemAvailable) when the model was made; 0: no limit. */
void         strobe_timeline_model_set_memory_budget  (StrobeTimelineModel *self,
                                                       guint64              bytes);
/* Before any event: keep no scope, only what marks the time — frames, bookmarks, regions,
 * counters, drops — and the trace's extent, as the whole model would have them. For
 * statistics computed beside it without a model (StrobeTimerStream): a billion scopes'
 * frames in a few MB. */
void         strobe_timeline_model_set_markers_only   (StrobeTimelineModel *self,
                                                       gboolean             markers_only);

/* ---- time ------------------------------------------------------------------------ */
gboolean     strobe_timeline_model_get_time_range     (StrobeTimelineModel *self,
                                                       guint64             *first,
                                                       guint64             *last);
/* Grows with every event that changed the model (and at its end): a view keeps cached
 * drawings while it is unchanged. */
guint64      strobe_timeline_model_get_generation     (StrobeTimelineModel *self);
/* The earliest time at which @series (@id) changed after the model was at @generation,
 * or G_MAXUINT64 when it did not: a view redraws only from there. Conservative (it may
 * name an earlier time than strictly needed, never a later one). Scopes still open are
 * drawn up to the model's last time, which moves with every event: that part is the
 * caller's to redraw. */
guint64      strobe_timeline_model_get_changed_since  (StrobeTimelineModel *self,
                                                       StrobeTimelineSeries series,
                                                       guint32              id,
                                                       guint64              generation);
/* TRUE once the decoder called end(). */
gboolean     strobe_timeline_model_is_complete        (StrobeTimelineModel *self);

/* ---- names (scopes, bookmarks and regions share one table) ----------------------- */
guint        strobe_timeline_model_get_n_names        (StrobeTimelineModel *self);
/* Valid for the model's lifetime; NULL for an unknown id. */
const char  *strobe_timeline_model_get_name           (StrobeTimelineModel *self,
                                                       guint32              name_id);
/* The id of @name (from the table, not a walk of it): FALSE when no scope, bookmark or
 * region has it. */
gboolean     strobe_timeline_model_find_name          (StrobeTimelineModel *self,
                                                       const char          *name,
                                                       guint32             *name_id);
/* Where a scope or bookmark name was declared (its first Cpu.EventSpec or BookmarkSpec
 * with a file): FALSE for dynamic names. @file stays valid for the model's lifetime. */
gboolean     strobe_timeline_model_get_name_source    (StrobeTimelineModel *self,
                                                       guint32              name_id,
                                                       const char         **file,
                                                       guint32             *line);

/* For a thread that must not wait (the viewer's main thread): the read lock if it can be
 * had within @wait_us, and then no query on this thread waits until
 * strobe_timeline_model_read_unlock (no writer can hold the lock meanwhile; readers do
 * not exclude each other). FALSE: a batch is being added — by a reading thread that may
 * itself be waiting for a core —; ask again later. */
gboolean     strobe_timeline_model_try_read_lock      (StrobeTimelineModel *self,
                                                       guint                wait_us);
void         strobe_timeline_model_read_unlock        (StrobeTimelineModel *self);

/* ---- scopes ---------------------------------------------------------------------- */
/* Thread ids that have CPU scopes, ascending (guint16). */
GArray      *strobe_timeline_model_get_threads        (StrobeTimelineModel *self);
/* Number of depths used on @thread_id (0 when none). */
guint        strobe_timeline_model_get_depth_count    (StrobeTimelineModel *self,
                                                       guint16              thread_id);
/* Appends to @out (StrobeTimelineScope) every scope of @thread_id at @depth that overlaps
 * [t0, t1], in time order: O(log n + k). Returns how many were appended. */
guint        strobe_timeline_model_get_scopes         (StrobeTimelineModel *self,
                                                       guint16              thread_id,
                                                       guint                depth,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       GArray              *out);
/* The same, but at most @max of them (the first): for what only needs to know there are
 * many — a scope's children under the pointer may be millions. */
guint        strobe_timeline_model_get_scopes_max     (StrobeTimelineModel *self,
                                                       guint16              thread_id,
                                                       guint                depth,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       guint                max,
                                                       GArray              *out);
/* Appends to @out (StrobeTimelineBlock) the level-of-detail view of [t0, t1] at @depth for
 * a resolution of @resolution ticks (one pixel): scopes at least @resolution wide come out
 * exact; runs of narrower ones are merged into blocks. O(P log n) for P = (t1 - t0) /
 * resolution, whatever the number of scopes in the window. */
guint        strobe_timeline_model_get_blocks         (StrobeTimelineModel *self,
                                                       guint16              thread_id,
                                                       guint                depth,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       guint64              resolution,
                                                       GArray              *out);
/* The level-of-detail view of depths [@depth_min, @depth_max) of @thread_id under one
 * lock (a consistent picture while the model grows), in order of depth then time: what
 * get_blocks() gives for each depth. */
guint        strobe_timeline_model_get_thread_blocks  (StrobeTimelineModel *self,
                                                       guint16              thread_id,
                                                       guint                depth_min,
                                                       guint                depth_max,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       guint64              resolution,
                                                       GArray              *out);
void         strobe_timeline_model_get_stats          (StrobeTimelineModel *self,
                                                       StrobeTimelineStats *stats);

/* ---- frames, bookmarks, regions, counters ---------------------------------------- */
/* Frames of a kind (StrobeTimelineFrameKind). */
guint        strobe_timeline_model_get_frame_count    (StrobeTimelineModel *self,
                                                       guint8               frame_type);
/* Frames of @frame_type overlapping [t0, t1] (StrobeTimelineFrame). */
guint        strobe_timeline_model_get_frames         (StrobeTimelineModel *self,
                                                       guint8               frame_type,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       GArray              *out);
/* Bookmarks in [t0, t1], in time order (StrobeTimelineBookmark). */
guint        strobe_timeline_model_get_bookmarks      (StrobeTimelineModel *self,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       GArray              *out);
/* Regions overlapping [t0, t1], by begin time (StrobeTimelineRegion); open ones included.
 * The regions are laid out in lanes once per change (strobe-region-index.c), so a query
 * costs what it returns plus R / 64, whatever the window. */
guint        strobe_timeline_model_get_regions        (StrobeTimelineModel *self,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       GArray              *out);
/* How many lanes the regions take (the Regions track's height). */
guint        strobe_timeline_model_get_region_lanes   (StrobeTimelineModel *self);
/* A new array of StrobeTimelineCounter (copies; freed with the array), by name. */
GArray      *strobe_timeline_model_get_counters       (StrobeTimelineModel *self);
/* Samples of counter @index in [t0, t1] (StrobeCounterSample), in time order. */
guint        strobe_timeline_model_get_counter_samples (StrobeTimelineModel *self,
                                                       guint32              index,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       GArray              *out);
/* Counter @index over [t0, t1] cut into @n_buckets equal buckets (one per pixel): one
 * StrobeCounterBucket per non-empty bucket with the min, max, first and last value, so a
 * graph draws every spike however dense the samples. @before and @after (may be NULL)
 * receive the last sample before t0 and the first after t1, for the lines to the edges;
 * their time is G_MAXUINT64 when there is none. O(n_buckets log n) on a summary of the
 * samples, whatever their number. */
guint        strobe_timeline_model_get_counter_series (StrobeTimelineModel *self,
                                                       guint32              index,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       guint                n_buckets,
                                                       StrobeCounterSample *before,
                                                       StrobeCounterSample *after,
                                                       GArray              *out);
/* Drops that overlap [t0, t1], in time order (StrobeTimelineDrop). */
guint        strobe_timeline_model_get_drops          (StrobeTimelineModel *self,
                                                       guint64              t0,
                                                       guint64              t1,
                                                       GArray              *out);


G_END_DECLS
