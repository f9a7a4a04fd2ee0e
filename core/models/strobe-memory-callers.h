/* strobe-memory-callers.h — heaptrack's caller/callee view of a memory call tree: every
 * function once with its inclusive costs (what every stack through it did) and self
 * costs (stacks that allocated in it), and for any function the functions that called it
 * and those it called, each with the costs that went through that call.
 *
 * Made from a top-down StrobeMemoryTree (strobe-memory-query.h) in one pass over its
 * nodes, so it covers whatever range the tree does. A recursive function counts once per
 * stack: only its outermost call on each path adds to its inclusive costs, its callers
 * and its callees. Immutable once made, except for sorting (one thread at a time).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-query.h"

G_BEGIN_DECLS

typedef struct
{
  guint64           key;          /* the function's key (the tree's) */
  StrobeMemoryFrame frame;        /* a frame of it, to symbolize */
  guint32           inline_depth; /* which of that frame's functions it is */
  StrobeMemoryCosts inclusive;
  StrobeMemoryCosts self;
  guint32           n_callers;
  guint32           n_callees;
} StrobeMemoryFunction;

/* A call between two functions: the other function, and what went through the call. */
typedef struct
{
  guint64           key;
  StrobeMemoryFrame frame;
  guint32           inline_depth;
  StrobeMemoryCosts costs;
} StrobeMemoryCall;

#define STROBE_TYPE_MEMORY_CALLERS (strobe_memory_callers_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryCallers, strobe_memory_callers, STROBE, MEMORY_CALLERS, GObject)

/* @tree must be top-down. NULL with G_IO_ERROR_CANCELLED when cancelled. Functions come
 * sorted by inclusive peak, descending. */
StrobeMemoryCallers *strobe_memory_callers_new (StrobeMemoryTree *tree,
                                                GCancellable     *cancellable,
                                                GError          **error);
guint    strobe_memory_callers_get_n_functions (StrobeMemoryCallers *self);
gboolean strobe_memory_callers_get_function    (StrobeMemoryCallers *self, guint i, StrobeMemoryFunction *out);
/* The index of the function with @key, G_MAXUINT when none. */
guint    strobe_memory_callers_find            (StrobeMemoryCallers *self, guint64 key);
/* By inclusive cost (KEY: by key, ascending); callers and callees are always by the
 * same cost as the functions. */
void     strobe_memory_callers_sort            (StrobeMemoryCallers *self, StrobeMemoryCost by,
                                                gboolean descending);
/* Callers (callees) [@first, @first + @n) of function @i; returns how many. */
guint    strobe_memory_callers_get_callers     (StrobeMemoryCallers *self, guint i, guint first, guint n,
                                                StrobeMemoryCall *out);
guint    strobe_memory_callers_get_callees     (StrobeMemoryCallers *self, guint i, guint first, guint n,
                                                StrobeMemoryCall *out);

G_END_DECLS
