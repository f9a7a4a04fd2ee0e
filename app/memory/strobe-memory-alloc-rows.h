/* strobe-memory-alloc-rows.h — a StrobeMemoryAllocList (a query's answer) as a
 * GListModel of StrobeMemoryAllocItem: items are made for the rows asked for, from pages
 * of 256 records copied at once, so a million-row answer holds no object per row.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-items.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_ALLOC_ROWS (strobe_memory_alloc_rows_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryAllocRows, strobe_memory_alloc_rows, STROBE, MEMORY_ALLOC_ROWS, GObject)

StrobeMemoryAllocRows *strobe_memory_alloc_rows_new      (void);
/* Replaces the rows (NULL: none). */
void                   strobe_memory_alloc_rows_set_list (StrobeMemoryAllocRows *self,
                                                          StrobeMemoryAllocList *list);
StrobeMemoryAllocList *strobe_memory_alloc_rows_get_list (StrobeMemoryAllocRows *self);

G_END_DECLS
