/* strobe-memory-query.h — heaptrack's answers over a StrobeMemoryModel, for any time
 * range, without re-reading the trace: costs grouped by call stack, function, tag, heap,
 * size or thread, and bottom-up / top-down call trees. Plus allocation lists (the live
 * set at A, what was allocated in [A, B] and still live at C, …) to page through.
 *
 * Every query takes a GCancellable and a progress callback: a view runs it in a GTask
 * (strobe-memory-query's functions are thread-safe with respect to the model, which may
 * keep growing meanwhile) and shows progress. The model's lock is taken per chunk of
 * 16 384 records, so a live decoder is never held back for long. A query sees the
 * records the model had when it started. The result objects are immutable snapshots,
 * except for sorting, which one thread at a time may do.
 *
 * Costs (heaptrack's four, plus bytes) of a group over [t0, t1]:
 * - allocations: allocated in the range; temporary: those of them flagged temporary
 *   (freed or reallocated by their thread before it allocated again, heaptrack's
 *   definition); bytes_allocated: their bytes;
 * - leaked: allocated in the range and still live at t1 (for the whole trace: never
 *   freed);
 * - peak: what the group held at the moment total live bytes were highest in the range
 *   (heaptrack's "peak contribution"), counting everything live then, wherever it was
 *   allocated.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-cost-tree.h"
#include "strobe-memory-model.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_MEMORY_BY_STACK,      /* key: the call stack id (0: none) */
  STROBE_MEMORY_BY_FUNCTION,   /* key: frame #0's key (see StrobeMemoryFrameFunc), 0: none */
  STROBE_MEMORY_BY_TAG,        /* key: tag id */
  STROBE_MEMORY_BY_HEAP,       /* key: heap id */
  STROBE_MEMORY_BY_SIZE,       /* key: size bucket: 0 = size 0, k = [2^(k-1), 2^k) */
  STROBE_MEMORY_BY_THREAD,     /* key: thread stream id */
} StrobeMemoryGroupBy;

typedef enum
{
  STROBE_MEMORY_COST_PEAK,
  STROBE_MEMORY_COST_LEAKED,
  STROBE_MEMORY_COST_ALLOCATIONS,
  STROBE_MEMORY_COST_TEMPORARY,
  STROBE_MEMORY_COST_BYTES,
  STROBE_MEMORY_COST_KEY,
} StrobeMemoryCost;

typedef struct
{
  guint64 allocations;
  guint64 temporary;
  guint64 bytes_allocated;   /* saturating */
  gint64  peak_bytes;
  guint64 peak_count;
  gint64  leaked_bytes;
  guint64 leaked_count;
} StrobeMemoryCosts;

typedef struct
{
  guint64           key;
  StrobeMemoryCosts costs;
  StrobeMemoryFrame frame;   /* BY_STACK/BY_FUNCTION: frame #0 of one of its stacks */
} StrobeMemoryRow;

/* Maps one frame to up to @max keys, innermost first — more than one when the address is
 * in inlined code (each inlined function is its own tree level) — and returns how many
 * (at least 1). A key names what frames are merged by: a function's entry address in its
 * module, a symbol id… It is called once per distinct frame of a query, from the
 * query's thread. NULL: a frame's key is its address. */
typedef guint (*StrobeMemoryFrameFunc) (const StrobeMemoryFrame *frame, guint64 *keys, guint max,
                                        gpointer user_data);
/* @fraction in [0, 1], called from the query's thread every chunk. */
typedef void (*StrobeMemoryProgressFunc) (gdouble fraction, gpointer user_data);

/* ---- aggregation ------------------------------------------------------------------ */

#define STROBE_TYPE_MEMORY_AGGREGATE (strobe_memory_aggregate_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryAggregate, strobe_memory_aggregate, STROBE, MEMORY_AGGREGATE, GObject)

/* Costs of every group over [@t0, @t1] (0 and G_MAXUINT64: the whole trace). NULL with
 * G_IO_ERROR_CANCELLED when cancelled. Rows come sorted by peak, descending. */
StrobeMemoryAggregate *strobe_memory_model_aggregate (StrobeMemoryModel       *model,
                                                      guint64                  t0,
                                                      guint64                  t1,
                                                      StrobeMemoryGroupBy      by,
                                                      StrobeMemoryFrameFunc    frame_func,
                                                      gpointer                 frame_data,
                                                      GCancellable            *cancellable,
                                                      StrobeMemoryProgressFunc progress,
                                                      gpointer                 progress_data,
                                                      GError                 **error);
guint    strobe_memory_aggregate_get_n_rows    (StrobeMemoryAggregate *self);
/* Copies rows [@first, @first + @n) (fewer at the end); returns how many. */
guint    strobe_memory_aggregate_get_rows      (StrobeMemoryAggregate *self, guint first, guint n,
                                                StrobeMemoryRow *out);
void     strobe_memory_aggregate_sort          (StrobeMemoryAggregate *self, StrobeMemoryCost by,
                                                gboolean descending);
/* The totals of all rows (peak: the range's peak bytes and count). */
void     strobe_memory_aggregate_get_totals    (StrobeMemoryAggregate *self, StrobeMemoryCosts *out);
/* When the range's peak was (the first moment live bytes were highest). */
guint64  strobe_memory_aggregate_get_peak_time (StrobeMemoryAggregate *self);

/* ---- call trees --------------------------------------------------------------------- */

typedef enum
{
  STROBE_MEMORY_TREE_TOP_DOWN,    /* root → outermost callers → … → frame #0 */
  STROBE_MEMORY_TREE_BOTTOM_UP,   /* root → frame #0 (where memory was allocated) → callers */
} StrobeMemoryTreeKind;

typedef struct
{
  guint64           key;          /* the frame's key; 0 for the root */
  StrobeMemoryFrame frame;        /* a frame with this key (to symbolize) */
  guint32           inline_depth; /* which of frame_func's keys for that frame: 0 = innermost */
  guint32           parent;       /* the root is node 0, its own parent */
  guint32           depth;        /* the root's is 0 */
  guint32           n_children;
  StrobeMemoryCosts inclusive;    /* every stack through this node */
  StrobeMemoryCosts self;         /* stacks that end here (top-down: frame #0 is this node) */
} StrobeMemoryTreeNode;

#define STROBE_TYPE_MEMORY_TREE (strobe_memory_tree_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryTree, strobe_memory_tree, STROBE, MEMORY_TREE, GObject)

/* The tree of the stacks' costs over [@t0, @t1]. Allocations without a stack hang off the
 * root as its self costs. */
StrobeMemoryTree *strobe_memory_model_build_tree (StrobeMemoryModel       *model,
                                                  guint64                  t0,
                                                  guint64                  t1,
                                                  StrobeMemoryTreeKind     kind,
                                                  StrobeMemoryFrameFunc    frame_func,
                                                  gpointer                 frame_data,
                                                  GCancellable            *cancellable,
                                                  StrobeMemoryProgressFunc progress,
                                                  gpointer                 progress_data,
                                                  GError                 **error);
guint    strobe_memory_tree_get_n_nodes   (StrobeMemoryTree *self);
gboolean strobe_memory_tree_get_node      (StrobeMemoryTree *self, guint node, StrobeMemoryTreeNode *out);
/* Children [@first, @first + @n) of @node in order of @sort (descending); returns how many. */
guint    strobe_memory_tree_get_children  (StrobeMemoryTree *self, guint node, StrobeMemoryCost sort,
                                           guint first, guint n, guint32 *out);
/* The StrobeCostTree the tree is made of (not a copy: for a flame graph or a butterfly
 * drawn of it), and the column of it a cost is (STROBE_COST_BY_KEY for the key). */
StrobeCostTree *strobe_memory_tree_get_cost_tree (StrobeMemoryTree *self);
guint    strobe_memory_cost_get_column    (StrobeMemoryCost  cost);

/* ---- allocation lists --------------------------------------------------------------- */

typedef enum
{
  STROBE_MEMORY_SELECT_LIVE_AT,         /* live at a */
  STROBE_MEMORY_SELECT_ALLOCATED,       /* allocated in [a, b] */
  STROBE_MEMORY_SELECT_ALLOCATED_LIVE,  /* allocated in [a, b] and still live at c */
  STROBE_MEMORY_SELECT_FREED,           /* freed in [a, b] */
  STROBE_MEMORY_SELECT_LEAKS,           /* never freed */
  STROBE_MEMORY_SELECT_SHORT_LIVED,     /* allocated in [a, b], freed at most c ticks later */
  STROBE_MEMORY_SELECT_LONG_LIVED,      /* allocated in [a, b], live more than c ticks (or never freed) */
} StrobeMemorySelect;

typedef struct
{
  StrobeMemorySelect kind;
  guint64            a, b, c;
} StrobeMemorySelection;

typedef enum
{
  STROBE_MEMORY_FIELD_INDEX,        /* allocation order */
  STROBE_MEMORY_FIELD_ADDRESS,
  STROBE_MEMORY_FIELD_SIZE,
  STROBE_MEMORY_FIELD_TAG,
  STROBE_MEMORY_FIELD_HEAP,
  STROBE_MEMORY_FIELD_THREAD,
  STROBE_MEMORY_FIELD_ALLOC_TIME,
  STROBE_MEMORY_FIELD_FREE_TIME,
  STROBE_MEMORY_FIELD_STACK,
} StrobeMemoryField;

#define STROBE_TYPE_MEMORY_ALLOC_LIST (strobe_memory_alloc_list_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryAllocList, strobe_memory_alloc_list, STROBE, MEMORY_ALLOC_LIST, GObject)

/* The allocation indexes (guint64, in allocation order) of the simple selections: */
/* live at @time: allocated at or before it, freed after it or never. */
GArray   *strobe_memory_model_live_at       (StrobeMemoryModel *self, guint64 time);
/* never freed (at the end of what was read). */
GArray   *strobe_memory_model_leaks         (StrobeMemoryModel *self);
/* allocated in [@a, @b] and still live at @c. */
GArray   *strobe_memory_model_allocated_live (StrobeMemoryModel *self, guint64 a, guint64 b,
                                              guint64 c);
/* freed in [@a, @b], in order of freeing. */
GArray   *strobe_memory_model_freed_in      (StrobeMemoryModel *self, guint64 a, guint64 b);
/* freed at most @max_lifetime ticks after allocation (scans every allocation). */
GArray   *strobe_memory_model_short_lived   (StrobeMemoryModel *self, guint64 max_lifetime);

/* The selected allocations (as they were when the query ran), in allocation order (freed
 * ones: in order of freeing): their indexes, four bytes each, the records read from the
 * model (which the list keeps) when asked for. G_IO_ERROR_NO_SPACE when the list would not
 * fit in the memory the machine and the process's limits have left. */
StrobeMemoryAllocList *strobe_memory_model_select (StrobeMemoryModel           *model,
                                                   const StrobeMemorySelection *selection,
                                                   GCancellable                *cancellable,
                                                   StrobeMemoryProgressFunc     progress,
                                                   gpointer                     progress_data,
                                                   GError                     **error);
guint64  strobe_memory_alloc_list_get_n_items (StrobeMemoryAllocList *self);
/* Items [@first, @first + @n): their records (when @out) and model indexes (when @indexes). */
guint    strobe_memory_alloc_list_get_items   (StrobeMemoryAllocList *self, guint64 first, guint n,
                                               StrobeMemoryAlloc *out, guint64 *indexes);
/* In place, stable (ties in allocation order). Needs 20 bytes an item meanwhile:
 * G_IO_ERROR_NO_SPACE (the order unchanged) when they are not there. */
gboolean strobe_memory_alloc_list_sort        (StrobeMemoryAllocList *self, StrobeMemoryField field,
                                               gboolean descending, GError **error);
/* Totals: count and bytes. A block that backed another heap at the selection's time
 * (flagged STROBE_MEMORY_ALLOC_HEAP_BLOCK in the list) counts as an allocation but not in
 * the bytes: they are the allocations made in that heap (see "Heaps that sub-allocate" in
 * runtime/INSTRUMENTATION.md) — so a "live at" list's totals are
 * strobe_memory_model_get_totals_at()'s. */
void     strobe_memory_alloc_list_get_totals  (StrobeMemoryAllocList *self, guint64 *count, guint64 *bytes);
/* The list grouped: each row's allocations and bytes_allocated are its count and bytes;
 * leaked: those of them never freed. */
StrobeMemoryAggregate *strobe_memory_alloc_list_group (StrobeMemoryAllocList   *self,
                                                       StrobeMemoryModel       *model,
                                                       StrobeMemoryGroupBy      by,
                                                       StrobeMemoryFrameFunc    frame_func,
                                                       gpointer                 frame_data,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
/* The items of the list in the group @key of strobe_memory_alloc_list_group (@self, @by,
 * @frame_func…), in the list's order: what a group's row is made of. */
StrobeMemoryAllocList *strobe_memory_alloc_list_select_group (StrobeMemoryAllocList   *self,
                                                              StrobeMemoryModel       *model,
                                                              StrobeMemoryGroupBy      by,
                                                              guint64                  key,
                                                              StrobeMemoryFrameFunc    frame_func,
                                                              gpointer                 frame_data,
                                                              GCancellable            *cancellable,
                                                              GError                 **error);

G_END_DECLS
