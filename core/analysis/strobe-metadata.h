/* strobe-metadata.h — a trace's metadata as people read it (CLI and viewer alike).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-wire.h"

G_BEGIN_DECLS

/* The NUL-separated arguments as one line, shell-quoted where needed so it can be pasted
 * back into a shell. */
char       *strobe_metadata_dup_command_line  (const StrobeWireMetadata *meta);
/* "x86 TSC", "monotonic clock"…, translated. */
const char *strobe_metadata_clock_source_name (guint8 clock_source);

G_END_DECLS
