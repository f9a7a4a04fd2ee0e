/* strobe-store-ends.h — the ends of traces whose files do not say when they ended (copied
 * in, opened from elsewhere, written by a program itself), learnt when a document read one
 * to its end, kept in the store's directory so the Traces list shows their durations.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _StrobeStoreEnds StrobeStoreEnds;

/* The ends kept in @directory (none yet is fine). */
StrobeStoreEnds *strobe_store_ends_new      (const char       *directory);
void             strobe_store_ends_free     (StrobeStoreEnds  *self);
/* The end learnt for the file at @path while it has @size bytes and the modification time
 * it had then; 0 when none is known or the file changed since. */
guint64          strobe_store_ends_lookup   (StrobeStoreEnds  *self,
                                             const char       *path,
                                             guint64           size);
/* Keeps @end_time_ns (ns since the Unix epoch) for the file at @path as it is now. */
gboolean         strobe_store_ends_remember (StrobeStoreEnds  *self,
                                             const char       *path,
                                             guint64           end_time_ns,
                                             GError          **error);
/* Forgets @path (deleted from the store). */
void             strobe_store_ends_forget   (StrobeStoreEnds  *self,
                                             const char       *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeStoreEnds, strobe_store_ends_free)

G_END_DECLS
