/* strobe-log-args.h — where the log model keeps its messages' encoded arguments: left in
 * the trace file (read again on demand, a few decoded packets cached) or, when the trace
 * has no file to go back to (a socket, a ZSTD stream), copied into an arena in memory
 * whose full chunks are packed as LZ4 blocks.
 *
 * A message's arguments are named by a StrobeLogArgsRef: for a file, the packet's offset
 * and the byte of its decoded payload where the event's aux records start; for the arena,
 * a chunk (never moved nor freed before the store) and an offset in it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  STROBE_LOG_ARGS_ARENA,   /* where: a chunk's address; at: a varint length, then the bytes */
  STROBE_LOG_ARGS_FILE,    /* where: a packet's file offset; at: aux records in its payload */
} StrobeLogArgsKind;

typedef struct
{
  guint64 where;
  guint32 at;
  guint16 thread_id;   /* STROBE_LOG_ARGS_FILE: the packet's (checked when read again) */
  guint8  kind;        /* StrobeLogArgsKind */
  guint8  field;       /* STROBE_LOG_ARGS_FILE: the arguments' aux field index */
} StrobeLogArgsRef;

typedef struct _StrobeLogArgs StrobeLogArgs;

StrobeLogArgs *strobe_log_args_new       (void);
void           strobe_log_args_free      (StrobeLogArgs *args);

/* The file messages may be left in: TRUE when @path is it (opened now, once). Writer
 * only. */
gboolean       strobe_log_args_use_file  (StrobeLogArgs *args,
                                          const char    *path);
/* Copies @len bytes into the arena; @ref then names them. Writer only; readers see them
 * once they read @ref through a lock the writer released after this. */
void           strobe_log_args_put       (StrobeLogArgs    *args,
                                          const guint8     *data,
                                          gsize             len,
                                          StrobeLogArgsRef *ref);
/* Appends the arguments @ref names to @out (any thread). FALSE, with a reason in @why,
 * when the file cannot give them back (it was changed or removed since it was read). */
gboolean       strobe_log_args_read      (StrobeLogArgs          *args,
                                          const StrobeLogArgsRef *ref,
                                          GByteArray             *out,
                                          const char            **why);
/* A reader with a cache of its own, for one thread reading many messages (a filter's
 * worker): it never waits for another reader's decoding. Arena references still go
 * through the shared lock. Free it before @args. */
typedef struct _StrobeLogArgsReader StrobeLogArgsReader;

StrobeLogArgsReader *strobe_log_args_reader_new  (StrobeLogArgs          *args);
void                 strobe_log_args_reader_free (StrobeLogArgsReader    *reader);
/* @ref's arguments as *@data, *@len: in the reader's cache when they are one piece
 * there (valid until its next call), else copied into @buffer (emptied first). */
gboolean             strobe_log_args_reader_view (StrobeLogArgsReader    *reader,
                                                  const StrobeLogArgsRef *ref,
                                                  GByteArray             *buffer,
                                                  const guint8          **data,
                                                  gsize                  *len,
                                                  const char            **why);

/* Bytes held: the arena's chunks and the decoded packets cached (the readers' too). */
guint64        strobe_log_args_get_bytes (StrobeLogArgs *args);

G_END_DECLS
