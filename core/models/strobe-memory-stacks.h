/* strobe-memory-stacks.h — the memory model's call stacks and module map: the trie of
 * Memory.StackNodes (dense ids from 1, sparse beyond), the earlier format's whole stacks
 * (Memory.Callstack), and the modules each frame was in (Memory.Module, ModuleUnload).
 * Not installed; the model calls it under its lock.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-event.h"
#include "strobe-memory-frame.h"

G_BEGIN_DECLS

#define STROBE_MEMORY_MAX_STACK_DEPTH 1024

/* A call-stack trie node: parent 0 is the root. */
typedef struct
{
  guint64 address;
  guint32 parent;
  guint32 module;       /* model module index + 1; 0: none covered it */
} StrobeMemoryNode;

typedef struct
{
  StrobeMemoryModule pub;
  gboolean           loaded;
} StrobeMemoryModuleEntry;

typedef struct
{
  GArray     *nodes;        /* StrobeMemoryNode; node id i at index i - 1 */
  GHashTable *sparse_nodes; /* id → StrobeMemoryNode * */
  GHashTable *callstacks;   /* legacy: id → GArray of guint64 */
  GPtrArray  *modules;      /* StrobeMemoryModuleEntry * */
  GArray     *loaded;       /* guint indexes into modules of loaded ones, by start */
  GHashTable *added;        /* (parent, address) → id of a node the analysis added */
  guint32     next_added;   /* from STROBE_MEMORY_ADDED_STACK_FIRST up */
} StrobeMemoryStacks;

/* Ids of stacks the analysis adds (sampled stacks it unwound), far above any the runtime's
 * trie gives (it counts from 1, one per distinct frame of a run). */
#define STROBE_MEMORY_ADDED_STACK_FIRST 0x80000000u

void    strobe_memory_stacks_init   (StrobeMemoryStacks *st);
void    strobe_memory_stacks_clear  (StrobeMemoryStacks *st);
/* Memory.StackNodes from id @first: returns how many nodes it defined. */
guint64 strobe_memory_stacks_add_nodes (StrobeMemoryStacks *st, guint64 first, const guint8 *data, gsize len);
/* Memory.Callstack: @n return addresses of @esize (4 or 8) bytes, little-endian. */
void    strobe_memory_stacks_add_legacy (StrobeMemoryStacks *st, guint32 id, const guint8 *data, gsize n,
                                         gsize esize);
/* Memory.Module: a module now loaded (unless its range is empty); ModuleUnload of @id. */
void    strobe_memory_stacks_add_module (StrobeMemoryStacks *st, const StrobeEvent *ev);
void    strobe_memory_stacks_unload_module (StrobeMemoryStacks *st, guint32 id);
/* A stack from elsewhere (@n addresses, innermost first) as nodes of ids from
 * STROBE_MEMORY_ADDED_STACK_FIRST, shared with stacks added before; its id, 0 when none
 * (n 0, or the ids ran out). */
guint32 strobe_memory_stacks_add_stack (StrobeMemoryStacks *st, const guint64 *addresses, guint n);
/* Frames of stack @id, innermost first (at most @max). */
guint   strobe_memory_stacks_frames (const StrobeMemoryStacks *st, guint32 id, StrobeMemoryFrame *out, guint max);
/* Copies of the modules (StrobeMemoryModule *). */
GPtrArray *strobe_memory_stacks_copy_modules (const StrobeMemoryStacks *st);
gsize   strobe_memory_stacks_bytes  (const StrobeMemoryStacks *st);

G_END_DECLS
