/* strobe-symbolizer.h — return addresses of a traced process to functions, source
 * file:line and inlined frames, after the process is gone: elfutils' libdw (dwfl) reads
 * each module from its path on disk, or its debug file by build id, and a module whose
 * file is missing or has another build id is answered "module+offset".
 *
 * Modules are registered as the trace's module map describes them (strobe-memory-model.h
 * StrobeMemoryModule): where they were mapped, so addresses need no translation. Answers
 * are cached for the symbolizer's life and are valid as long as it. Thread-safe (one
 * mutex: libdw is not).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct
{
  const char *function;   /* NULL when unknown */
  const char *file;       /* NULL when unknown (no line information) */
  guint       line;       /* 0 when unknown */
  guint       column;
} StrobeSymbolFrame;

typedef struct
{
  guint                    n_frames;   /* >= 1: innermost first; more than one when inlined */
  const StrobeSymbolFrame *frames;
  const char              *module;     /* the module's path, NULL when none covered the address */
  guint64                  offset;     /* the address in the module's file (address - bias) */
  gboolean                 resolved;   /* a function name was found */
} StrobeSymbolization;

#define STROBE_TYPE_SYMBOLIZER (strobe_symbolizer_get_type ())
G_DECLARE_FINAL_TYPE (StrobeSymbolizer, strobe_symbolizer, STROBE, SYMBOLIZER, GObject)

StrobeSymbolizer *strobe_symbolizer_new (void);

/* Registers module @key (any number but 0, unique in this symbolizer: the memory model's
 * module index + 1) mapped at [@start, @end) with load bias @bias. @build_id (may be
 * NULL) is checked against the file; when they differ the debug file with that build id
 * is looked for under the debuginfo path (/usr/lib/debug/.build-id/…). The file is
 * opened on the first lookup. */
void     strobe_symbolizer_add_module (StrobeSymbolizer *self, guint32 key, const char *path,
                                       const guint8 *build_id, gsize build_id_len,
                                       guint64 bias, guint64 start, guint64 end);

/* Symbolizes return address @address of module @key (0: find the module by address
 * among those registered). The lookup is at @address - 1, inside the call. Never NULL. */
const StrobeSymbolization *strobe_symbolizer_lookup (StrobeSymbolizer *self, guint32 key, guint64 address);

/* One key per frame of the lookup (innermost first; at most @max), naming the function
 * it is in: the same for every address of a function, different for different ones
 * (FNV-1a of module and function name; the address when unresolved). Returns how many.
 * Suits StrobeMemoryFrameFunc. */
guint    strobe_symbolizer_frame_keys (StrobeSymbolizer *self, guint32 key, guint64 address,
                                       guint64 *keys, guint max);

/* "function (file:line)", "function", or "module+0xoffset" for frame @i of @s. */
char    *strobe_symbolization_format (const StrobeSymbolization *s, guint i);

/* Where separate debug files are looked for, libdw's syntax: directories separated by
 * ":", relative ones (and "") under the module's own directory; by default
 * ":.debug:/usr/lib/debug". Before the first lookup. */
void     strobe_symbolizer_set_debuginfo_path (StrobeSymbolizer *self, const char *path);
/* Whether module @key has symbols — a symbol table or DWARF of its own, or a separate
 * debug file's; FALSE for a stripped file without one, or a file that is gone (its frames
 * are "module+0xoffset" except for its exported functions). Opens the module. */
gboolean strobe_symbolizer_module_has_symbols (StrobeSymbolizer *self, guint32 key);
/* The paths of the modules looked up so far that have no symbols (each once). */
GPtrArray *strobe_symbolizer_dup_missing_symbols (StrobeSymbolizer *self);
/* Lookups so far and how many were answered from the cache (for benchmarks). */
void     strobe_symbolizer_get_stats (StrobeSymbolizer *self, guint64 *lookups, guint64 *cached);

G_END_DECLS
