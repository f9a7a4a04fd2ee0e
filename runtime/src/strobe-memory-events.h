/* strobe-memory-events.h — the Memory channel's event types (runtime/INSTRUMENTATION.md,
 * Memory), declared for the memory files; defined in strobe-memory-events.c. Not installed. */
#pragma once

#include "strobe-private.h"

/* Allocation records of one thread, drained from its ring by the updater. */
STROBE_EVENT_DECLARE (Memory, Batch, STROBE_EVENT_NOSYNC,
                      STROBE_FIELD (uint16, Thread)
                      STROBE_FIELD (uint8, Flags)
                      STROBE_FIELD (uint8, Shift)
                      STROBE_FIELD (uint32, Round)
                      STROBE_FIELD (uint64, Seq)
                      STROBE_FIELD (uint64, Alloc)
                      STROBE_FIELD (uint64, Time)
                      STROBE_FIELD (uint32, Heap)
                      STROBE_FIELD (uint32, Tag)
                      STROBE_FIELD (uint32, Stack)
                      STROBE_FIELD (uint64, Dropped)
                      STROBE_ARRAY (uint8, Data)
                      STROBE_ARRAY (uint8, Times))

/* Memory.Batch Flags: the last batch of an update round. */
#define STROBE_MEMORY_BATCH_LAST 0x1u

/* The live allocations when tracing into an output began (strobe-memory-table.c). */
STROBE_EVENT_DECLARE (Memory, Live, STROBE_EVENT_NOSYNC,
                      STROBE_FIELD (uint64, Time)
                      STROBE_FIELD (uint8, Shift)
                      STROBE_FIELD (uint32, Flags)
                      STROBE_FIELD (uint64, Count)
                      STROBE_ARRAY (uint8, Data))

/* New nodes of the call-stack trie (strobe-memory-stack.c). */
STROBE_EVENT_DECLARE (Memory, StackNodes, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, First)
                      STROBE_ARRAY (uint8, Data))

/* A loaded module (strobe-memory-modules.c): Bias is what its addresses are relocated
 * by (dlpi_addr); [Start, End) what its segments span. */
STROBE_EVENT_DECLARE (Memory, Module, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, Id)
                      STROBE_FIELD (uint64, Bias)
                      STROBE_FIELD (uint64, Start)
                      STROBE_FIELD (uint64, End)
                      STROBE_ARRAY (uint8, BuildId)
                      STROBE_FIELD (ansi, Path))

STROBE_EVENT_DECLARE (Memory, ModuleUnload, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, Id))

/* A heap and a tag as the program registers them (strobe-memory-state.c). */
STROBE_EVENT_DECLARE (Memory, HeapSpec, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, Id)
                      STROBE_FIELD (uint32, ParentId)
                      STROBE_FIELD (uint32, Flags)
                      STROBE_FIELD (ansi, Name))

STROBE_EVENT_DECLARE (Memory, TagSpec, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, Id)
                      STROBE_FIELD (uint32, ParentId)
                      STROBE_FIELD (ansi, Name))
