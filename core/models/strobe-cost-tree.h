/* strobe-cost-tree.h — the one cost tree: call paths merged by a 64-bit key (a name id, a
 * function's entry address, a frame's address…) with 1 to 8 cost columns, each an
 * inclusive value and (optionally) a self value, built from whole stacks (top-down or
 * bottom-up) or node by node from scope nesting; children paged in any column's order;
 * the callers and callees of every key, a recursive key counted once per stack.
 *
 * The CPU call tree (strobe-call-tree.h), the memory call trees and their callers view
 * (strobe-memory-query.h, strobe-memory-callers.h) are made of it, and so is anything
 * else that draws a flame graph or a butterfly.
 *
 * Compact, as it faces millions of nodes: 24 bytes of topology per node plus 8 per
 * inclusive and self value, and a child index of 4-byte slots (at most 70 % full) that
 * strobe_cost_tree_trim() drops once the tree is complete.
 *
 * Not thread-safe: build it on one thread, then read it from any one thread at a time.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define STROBE_COST_NODE_NONE       G_MAXUINT32
#define STROBE_COST_TREE_MAX_COLUMNS 8
/* As a sort column: by key, ascending. */
#define STROBE_COST_BY_KEY          G_MAXUINT

typedef enum
{
  STROBE_COST_COLUMN_DEFAULT = 0,        /* unsigned, saturating at G_MAXUINT64 */
  STROBE_COST_COLUMN_SIGNED  = 1 << 0,   /* gint64 in a guint64, saturating at both ends;
                                          * sorts as 0 when negative */
  STROBE_COST_COLUMN_NO_SELF = 1 << 1,   /* inclusive only (a count of instances…) */
} StrobeCostColumnFlags;

typedef enum
{
  STROBE_COST_TREE_TOP_DOWN,    /* root → outermost frames → … → innermost */
  STROBE_COST_TREE_BOTTOM_UP,   /* root → innermost frames (where the cost is) → callers */
} StrobeCostTreeKind;

typedef enum
{
  STROBE_COST_SORT_DESCENDING  = 1 << 0,
  STROBE_COST_SORT_TIE_BY_KEY  = 1 << 1,   /* equal values by key, else by creation order */
} StrobeCostSortFlags;

typedef struct _StrobeCostTree StrobeCostTree;

GType           strobe_cost_tree_get_type     (void) G_GNUC_CONST;
#define STROBE_TYPE_COST_TREE (strobe_cost_tree_get_type ())

/* A tree holding only its root (node 0, key @root_key, depth 0, its own parent). */
StrobeCostTree *strobe_cost_tree_new          (StrobeCostTreeKind           kind,
                                               guint                        n_columns,
                                               const StrobeCostColumnFlags *flags,
                                               guint64                      root_key);
StrobeCostTree *strobe_cost_tree_ref          (StrobeCostTree *self);
void            strobe_cost_tree_unref        (StrobeCostTree *self);

StrobeCostTreeKind strobe_cost_tree_get_kind      (StrobeCostTree *self);
guint              strobe_cost_tree_get_n_columns (StrobeCostTree *self);
StrobeCostColumnFlags strobe_cost_tree_get_column_flags (StrobeCostTree *self, guint column);

/* ---- building ------------------------------------------------------------------------ */

/* The child of @parent with @key, made (with zero costs) if there is none. */
guint32  strobe_cost_tree_child         (StrobeCostTree *self, guint32 parent, guint64 key);
/* A new child of @parent with @key, made without looking for one: for a caller that
 * knows there is none (a tree copied or merged, key by key). */
guint32  strobe_cost_tree_append_child  (StrobeCostTree *self, guint32 parent, guint64 key);
/* Adds @from_node's descendants in @from (not itself) under @node, with their values:
 * @node must have no child of their keys (trees merged where their paths differ); the
 * same columns. */
void     strobe_cost_tree_graft         (StrobeCostTree *self, guint32 node, StrobeCostTree *from,
                                         guint32 from_node);
/* Bounds the tree (a range of a billion scopes may hold as many call paths): once it has
 * @limit nodes, a key new under a parent deeper than @keep_depth goes to that parent's
 * child keyed @other_key (made past the limit, one a parent) — the paths not kept, their
 * costs whole. The limit may be raised as the tree is built. */
void     strobe_cost_tree_set_node_limit (StrobeCostTree *self, guint32 limit, guint64 other_key,
                                          guint keep_depth);
/* The child of @parent with @key, or STROBE_COST_NODE_NONE. */
guint32  strobe_cost_tree_lookup_child  (StrobeCostTree *self, guint32 parent, guint64 key);
/* Adds @value to @node's inclusive (@self_value FALSE) or self value of @column. */
void     strobe_cost_tree_add           (StrobeCostTree *self, guint32 node, guint column,
                                         gboolean self_value, guint64 value);
/* One stack of @n keys, outermost first, costing @values (one per column): adds them to
 * the inclusive values of the root and of every node on its path (top-down: outermost
 * first; bottom-up: innermost first) and to the self values of the innermost frame's node
 * (the root's when @n is 0). Returns the last node of the path. */
guint32  strobe_cost_tree_add_stack     (StrobeCostTree *self, const guint64 *keys, guint n,
                                         const guint64 *values);
/* For trees built from scope nesting: every self value becomes the inclusive value minus
 * the children's inclusive values (0 when they exceed it). */
void     strobe_cost_tree_compute_self  (StrobeCostTree *self);
/* The same costs seen the other way up: each node's self values are its path's cost, so a
 * top-down tree becomes its bottom-up tree and back. Columns without self values are 0. */
StrobeCostTree *strobe_cost_tree_invert (StrobeCostTree *self);
/* Frees the child index and spare capacity; lookups after it rebuild the index. */
void     strobe_cost_tree_trim          (StrobeCostTree *self);
/* Bytes held (nodes, values, index). */
gsize    strobe_cost_tree_get_size      (StrobeCostTree *self);

/* ---- reading -------------------------------------------------------------------------- */

guint    strobe_cost_tree_get_n_nodes   (StrobeCostTree *self);
guint64  strobe_cost_tree_get_key       (StrobeCostTree *self, guint32 node);
guint32  strobe_cost_tree_get_parent    (StrobeCostTree *self, guint32 node);
guint32  strobe_cost_tree_get_depth     (StrobeCostTree *self, guint32 node);
guint32  strobe_cost_tree_get_n_children (StrobeCostTree *self, guint32 node);
guint64  strobe_cost_tree_get_inclusive (StrobeCostTree *self, guint32 node, guint column);
guint64  strobe_cost_tree_get_self      (StrobeCostTree *self, guint32 node, guint column);
void     strobe_cost_tree_set_inclusive (StrobeCostTree *self, guint32 node, guint column, guint64 value);
/* Children in their current link order (creation order, newest first, until sorted). */
guint32  strobe_cost_tree_get_first_child  (StrobeCostTree *self, guint32 node);
guint32  strobe_cost_tree_get_next_sibling (StrobeCostTree *self, guint32 node);
/* Relinks every node's children by @column's inclusive value (or STROBE_COST_BY_KEY). */
void     strobe_cost_tree_sort_children (StrobeCostTree *self, guint column, StrobeCostSortFlags flags);
/* Children [@first, @first + @n) of @node in @column's order; returns how many. */
guint    strobe_cost_tree_get_children  (StrobeCostTree *self, guint32 node, guint column,
                                         StrobeCostSortFlags flags, guint first, guint n,
                                         guint32 *out);

/* ---- callers and callees ---------------------------------------------------------------- */

typedef enum
{
  /* Default (heaptrack's): a key counts once per stack — only its outermost node on a
   * path adds to its inclusive values, its callers and its callees. */
  STROBE_COST_CALLS_EACH_LEVEL = 1 << 0,   /* every node adds (Unreal Insights' timers) */
  STROBE_COST_CALLS_ROOT_CALLS = 1 << 1,   /* depth-1 nodes are called by the root's key */
} StrobeCostCallsFlags;

typedef struct _StrobeCostCalls StrobeCostCalls;

GType            strobe_cost_calls_get_type (void) G_GNUC_CONST;
#define STROBE_TYPE_COST_CALLS (strobe_cost_calls_get_type ())

/* Every key of @tree once (a "function"), with the sum of its nodes' self values and the
 * inclusive values of its counted nodes, and every call between two keys with the
 * inclusive values of the counted callee nodes under a caller's node. One walk over the
 * tree. NULL with G_IO_ERROR_CANCELLED when cancelled. Functions are in order of first
 * appearance in the tree; calls in order of creation. */
StrobeCostCalls *strobe_cost_calls_new    (StrobeCostTree      *tree,
                                           StrobeCostCallsFlags flags,
                                           GCancellable        *cancellable,
                                           GError             **error);
StrobeCostCalls *strobe_cost_calls_ref    (StrobeCostCalls *self);
void             strobe_cost_calls_unref  (StrobeCostCalls *self);

guint    strobe_cost_calls_get_n_functions (StrobeCostCalls *self);
/* The function of @key, G_MAXUINT when none. */
guint    strobe_cost_calls_find            (StrobeCostCalls *self, guint64 key);
guint64  strobe_cost_calls_get_key         (StrobeCostCalls *self, guint function);
/* Its first node in the tree (e.g. to find a frame to symbolize). */
guint32  strobe_cost_calls_get_node        (StrobeCostCalls *self, guint function);
guint64  strobe_cost_calls_get_inclusive   (StrobeCostCalls *self, guint function, guint column);
guint64  strobe_cost_calls_get_self        (StrobeCostCalls *self, guint function, guint column);
/* The calls into (callers) or out of (callees) @function: call indexes, *@n of them. */
const guint32 *strobe_cost_calls_get_callers (StrobeCostCalls *self, guint function, guint *n);
const guint32 *strobe_cost_calls_get_callees (StrobeCostCalls *self, guint function, guint *n);
guint    strobe_cost_calls_get_n_calls     (StrobeCostCalls *self);
guint    strobe_cost_calls_get_caller      (StrobeCostCalls *self, guint call);
guint    strobe_cost_calls_get_callee      (StrobeCostCalls *self, guint call);
guint64  strobe_cost_calls_get_value       (StrobeCostCalls *self, guint call, guint column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCostTree, strobe_cost_tree_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCostCalls, strobe_cost_calls_unref)

G_END_DECLS
