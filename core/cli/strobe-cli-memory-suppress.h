/* strobe-cli-memory-suppress.h — leak suppressions for `strobe-cli memory --suppressions`
 * (strobe-cli-memory-suppress.c): a file of patterns, one a line, as heaptrack's and
 * LeakSanitizer's ("leak:PATTERN"); a leak is left out when a frame of its call stack
 * matches one.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-model.h"
#include "strobe-symbolizer.h"

G_BEGIN_DECLS

typedef struct _StrobeLeakSuppressions StrobeLeakSuppressions;

/* Lines: a pattern, optionally after "leak:"; '#' starts a comment; blank lines and other
 * "kind:" lines (LeakSanitizer's files hold them) are skipped. '*' matches any run of
 * characters, '?' one; a pattern matches anywhere in a frame's function name (inlined
 * ones too), its source file or its module's path. */
StrobeLeakSuppressions *strobe_leak_suppressions_load (const char *path, GError **error);
void                    strobe_leak_suppressions_free (StrobeLeakSuppressions *self);
guint                   strobe_leak_suppressions_get_n_patterns (StrobeLeakSuppressions *self);
/* Removes from @leaks (record indexes) those a pattern suppresses: returns how many, and
 * their bytes in @bytes. */
guint                   strobe_leak_suppressions_apply (StrobeLeakSuppressions *self, StrobeMemoryModel *model,
                                                        StrobeSymbolizer *sym, GArray *leaks, guint64 *bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeLeakSuppressions, strobe_leak_suppressions_free)

G_END_DECLS
