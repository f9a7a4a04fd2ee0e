/* strobe-memory-names.h — what the memory view calls things: tags, heaps, threads, size
 * buckets and call-stack frames (symbolized through one StrobeSymbolizer shared with the
 * queries' threads), every name from the trace escaped for display.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-document.h"
#include "strobe-memory-query.h"
#include "strobe-memory-symbols.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_NAMES (strobe_memory_names_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryNames, strobe_memory_names, STROBE, MEMORY_NAMES, GObject)

StrobeMemoryNames *strobe_memory_names_new             (StrobeMemoryModel *model);
/* Thread names from @document's thread table, tag and heap names, and a new symbolizer
 * when the trace announced more modules. */
void               strobe_memory_names_update          (StrobeMemoryNames *self,
                                                        StrobeDocument    *document);
StrobeMemoryModel *strobe_memory_names_get_model       (StrobeMemoryNames *self);
/* The current symbolizer (a new reference), for a query's frame function in a thread. */
StrobeSymbolizer  *strobe_memory_names_dup_symbolizer  (StrobeMemoryNames *self);

/* Each returns a new string, escaped. */
char *strobe_memory_names_tag        (StrobeMemoryNames *self, guint32 id);
char *strobe_memory_names_heap       (StrobeMemoryNames *self, guint32 id);
char *strobe_memory_names_thread     (StrobeMemoryNames *self, guint16 id);
/* "< 64 B", "= 0 B": bucket 0 = size 0, k = [2^(k-1), 2^k). */
char *strobe_memory_names_size_bucket (guint64 bucket);
/* The bucket's upper bound alone, "64 B", for a chart's axis. */
char *strobe_memory_names_size_short  (guint64 bucket);
/* A frame's function (inlined function @inline_depth of it), or "module+0x…", or its
 * address; @frame NULL or address 0: "(no stack)". */
char *strobe_memory_names_function   (StrobeMemoryNames *self, const StrobeMemoryFrame *frame,
                                      guint inline_depth);
/* "file.c:12" (the file's base name) or NULL when unknown; @full_path gets the full path
 * (unescaped, for opening it) when not NULL. */
char *strobe_memory_names_location   (StrobeMemoryNames *self, const StrobeMemoryFrame *frame,
                                      guint inline_depth, char **full_path, guint *line);
/* A group key of an aggregation, named. @frame is the row's (for stacks and functions). */
char *strobe_memory_names_group      (StrobeMemoryNames *self, StrobeMemoryGroupBy by, guint64 key,
                                      const StrobeMemoryFrame *frame);
/* The top frame of call stack @stack ("(no stack)" for 0). */
char *strobe_memory_names_stack_top  (StrobeMemoryNames *self, guint32 stack);

G_END_DECLS
