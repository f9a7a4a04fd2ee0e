/* strobe-call-tree.h — the CPU scopes of a time range merged by name path (the call tree
 * of a flame graph), and what a timer's callers and callees are within it (Unreal
 * Insights' butterfly).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-cost-tree.h"
#include "strobe-timeline-model.h"

G_BEGIN_DECLS

#define STROBE_CALL_NONE G_MAXUINT32
/* The key of the paths a tree did not keep, under the parent they would have had: a
 * range may hold more distinct name paths than STROBE_CALL_TREE_MAX_NODES. */
#define STROBE_CALL_OTHER (G_MAXUINT32 - 1)
#define STROBE_CALL_TREE_MAX_NODES (1u << 20)

/* The tree's columns: how many scopes (inclusive only) and their time in ticks. */
#define STROBE_CALL_COUNT 0
#define STROBE_CALL_TIME  1

/* One node of the tree, read out (strobe_call_tree_get_node): one name path, every scope
 * whose chain of enclosing scopes' names is this node's path, on any thread. Times in
 * ticks, clipped to the range (as the timer statistics count). */
typedef struct
{
  guint32 name_id;        /* STROBE_CALL_NONE for the root */
  guint32 parent;         /* node index; STROBE_CALL_NONE for the root */
  guint32 first_child;    /* STROBE_CALL_NONE: a leaf; children by inclusive time, largest first */
  guint32 next_sibling;
  guint32 depth;          /* 0: the root; 1: outermost scopes */
  guint64 count;
  guint64 inclusive;
  guint64 exclusive;      /* inclusive minus the children's inclusive */
} StrobeCallNode;

/* A caller or callee of a timer: the name, how many of the timer's instances it called
 * (or was called by), and their inclusive time (the timer's for callers, the callee's for
 * callees). */
typedef struct
{
  guint32 name_id;        /* STROBE_CALL_NONE: no caller (outermost scopes) */
  guint64 count;
  guint64 inclusive;
} StrobeCallLink;

/* A top-down StrobeCostTree keyed by name id, node 0 the root (key STROBE_CALL_NONE; its
 * inclusive time is the total of the outermost scopes), children largest first, for
 * completed scopes that overlap [t0, t1] on @thread_id or every thread
 * (STROBE_TIMER_STATS_ALL_THREADS). NULL when cancelled. One pass over the scopes in
 * range; the model's read lock is taken per thread. At most about
 * STROBE_CALL_TREE_MAX_NODES nodes besides the two outermost levels, shared among the
 * threads as their scopes are: past its share, a scope whose path is new on its thread
 * is counted whole (its inclusive time) in its parent's STROBE_CALL_OTHER node, and what
 * it encloses is not walked. A range with more scopes than that is walked by two
 * workers, a tree per thread, merged by path; a path one thread kept and another lumped
 * is lumped too, so every path kept has its exact costs, and the tree does not depend on
 * the workers. */
/* For tests: trees computed from now on keep at most @limit nodes (at most
 * STROBE_CALL_TREE_MAX_NODES, the default). */
void            strobe_call_tree_set_test_node_limit (guint32 limit);
/* For tests: while held, trees being computed stop after each step of their progress
 * (until released or cancelled): a long computation, seen from its caller. */
void            strobe_call_tree_set_test_hold (gboolean hold);
/* For tests: the summary blocks strobe_call_tree_links() jumped over since last asked. */
guint           strobe_call_tree_get_test_jumps (void);
StrobeCostTree *strobe_call_tree_compute (StrobeTimelineModel *model,
                                   guint64              t0,
                                   guint64              t1,
                                   gint                 thread_id,
                                   GCancellable        *cancellable,
                                   GError             **error);
/* The same; when @progress is not NULL it is increased atomically by one for every
 * STROBE_TIMER_STATS_PROGRESS_SCOPES scopes walked (strobe_timer_stats_estimate_steps()
 * gives the total), for a progress bar read from another thread. */
StrobeCostTree *strobe_call_tree_compute_full (StrobeTimelineModel *model,
                                               guint64              t0,
                                               guint64              t1,
                                               gint                 thread_id,
                                               gint                *progress,
                                               GCancellable        *cancellable,
                                               GError             **error);
void    strobe_call_tree_get_node (StrobeCostTree      *tree,
                                   guint32              node,
                                   StrobeCallNode      *out);
/* Callers and callees of @name_id in @tree (StrobeCallLink, largest inclusive first). A
 * recursive timer counts at each level, as in Unreal Insights. */
GArray *strobe_call_tree_callers  (StrobeCostTree      *tree,
                                   guint32              name_id);
GArray *strobe_call_tree_callees  (StrobeCostTree      *tree,
                                   guint32              name_id);

/* The callers and callees of @name_id among the scopes of [@t0, @t1] on @thread_id or
 * every thread (STROBE_TIMER_STATS_ALL_THREADS), in new arrays of StrobeCallLink largest
 * first: what strobe_call_tree_callers() and _callees() give from the range's tree (the
 * same scopes, the same parents), found by one walk of the scopes with no tree — a whole
 * billion-scope trace's tree takes tens of seconds, most of them looking up nodes — and
 * exact where a tree lumps the paths it could not keep. @progress as
 * strobe_call_tree_compute_full()'s. FALSE (and @error set) when cancelled. */
gboolean strobe_call_tree_links (StrobeTimelineModel *model,
                                 guint32              name_id,
                                 guint64              t0,
                                 guint64              t1,
                                 gint                 thread_id,
                                 GArray             **callers,
                                 GArray             **callees,
                                 gint                *progress,
                                 GCancellable        *cancellable,
                                 GError             **error);

/* Every timer's callers and callees in [@t0, @t1] at once: one walk of the scopes as
 * strobe_call_tree_links()'s (the same scopes, the same parents), every (caller, callee)
 * name pair's count and time kept, so that the links of any name follow without another
 * walk. It cannot jump over blocks without a name, as one name's walk does. NULL (and
 * @error set) when cancelled, or (G_IO_ERROR_NO_SPACE) when the range holds more than
 * 2^21 distinct pairs: each name's own walk is what is left then. */
typedef struct _StrobeCallPairs StrobeCallPairs;

/* For tests: at most @limit pairs from now on (0: the default). */
void             strobe_call_tree_set_test_pair_limit (guint32 limit);

StrobeCallPairs *strobe_call_tree_pairs        (StrobeTimelineModel   *model,
                                                guint64                t0,
                                                guint64                t1,
                                                gint                   thread_id,
                                                gint                  *progress,
                                                GCancellable          *cancellable,
                                                GError               **error);
/* What strobe_call_tree_links() gives for @name_id, from @pairs. */
void             strobe_call_pairs_get_links   (const StrobeCallPairs *pairs,
                                                guint32                name_id,
                                                GArray               **callers,
                                                GArray               **callees);
gsize            strobe_call_pairs_get_n_pairs (const StrobeCallPairs *pairs);
void             strobe_call_pairs_free        (StrobeCallPairs       *pairs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCallPairs, strobe_call_pairs_free)

G_END_DECLS
