/* strobe-log-model-private.h — what StrobeLogList and StrobeLogItem share with the log
 * model: its time order as immutable snapshots, and copies of records read through one.
 *
 * The time order (message positions → records) is published by the decoder's thread, once
 * per chunk it was fed, as a new snapshot; a snapshot is never modified afterwards. It is
 * a list of chunks of STROBE_LOG_ORDER_CHUNK record indexes; a new snapshot shares every
 * chunk before the first position that changed with the one before it, so publishing
 * costs what changed (the tail, where late messages of another thread land), not the
 * trace. A reader holds a snapshot for as long as it shows positions of it, and compares
 * two with strobe_log_order_diff() to learn where the positions it showed stopped meaning
 * the same messages.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-log-args.h"
#include "strobe-wire.h"
#include "strobe-log-model.h"

G_BEGIN_DECLS

#define STROBE_LOG_ORDER_CHUNK 4096u
/* Chunks per block: a snapshot shares whole blocks with the one before it, so publishing
 * costs the blocks' count, not the chunks' (a reference taken on every chunk of the order
 * each time was a tenth of loading 100 M messages, growing with the trace). */
#define STROBE_LOG_ORDER_BLOCK 256u

typedef struct
{
  gatomicrefcount ref;
  guint32         idx[STROBE_LOG_ORDER_CHUNK];   /* record indexes (arrival order) */
} StrobeLogOrderChunk;

typedef struct
{
  gatomicrefcount      ref;
  StrobeLogOrderChunk *chunks[STROBE_LOG_ORDER_BLOCK];   /* a reference on each; NULL past the end */
} StrobeLogOrderBlock;

typedef struct
{
  gatomicrefcount       ref;
  guint64               n;          /* messages */
  guint                 n_chunks;   /* ceil (n / CHUNK) */
  guint                 n_blocks;   /* ceil (n_chunks / BLOCK) */
  StrobeLogOrderBlock **blocks;
} StrobeLogOrder;

static inline guint32
strobe_log_order_get (const StrobeLogOrder *order,
                      guint64               position)
{
  guint64 c = position / STROBE_LOG_ORDER_CHUNK;

  return order->blocks[c / STROBE_LOG_ORDER_BLOCK]->chunks[c % STROBE_LOG_ORDER_BLOCK]
    ->idx[position % STROBE_LOG_ORDER_CHUNK];
}

/* Building a snapshot (strobe-log-order.c; the model's decoder thread): @n positions,
 * none set; the blocks of @old before chunk @c0 shared (its chunks before @c0 too); and
 * position @w set, its block and chunk made if they are not there yet. */
StrobeLogOrder *strobe_log_order_new   (guint64               n);
void            strobe_log_order_share (StrobeLogOrder       *next,
                                        const StrobeLogOrder *old,
                                        guint                 c0);
void            strobe_log_order_put_slow (StrobeLogOrder    *o,
                                           guint64            w,
                                           guint32            value);

static inline void
strobe_log_order_put (StrobeLogOrder *o,
                      guint64         w,
                      guint32         value)
{
  guint64 c = w / STROBE_LOG_ORDER_CHUNK;
  StrobeLogOrderBlock *block = o->blocks[c / STROBE_LOG_ORDER_BLOCK];

  if (G_LIKELY (block != NULL && block->chunks[c % STROBE_LOG_ORDER_BLOCK] != NULL))
    block->chunks[c % STROBE_LOG_ORDER_BLOCK]->idx[w % STROBE_LOG_ORDER_CHUNK] = value;
  else
    strobe_log_order_put_slow (o, w, value);
}

StrobeLogOrder *strobe_log_order_ref   (StrobeLogOrder       *order);
void            strobe_log_order_unref (StrobeLogOrder       *order);
/* The first position at which @a and @b hold different records; min (a->n, b->n) when
 * one is a prefix of the other. O(blocks + chunks of a block) pointer compares, then one
 * chunk's entries. */
guint64         strobe_log_order_diff  (const StrobeLogOrder *a,
                                        const StrobeLogOrder *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeLogOrder, strobe_log_order_unref)

/* The current snapshot (a new reference). It holds every message up to the decoder's last
 * flush. */
StrobeLogOrder *strobe_log_model_ref_order (StrobeLogModel *self);

/* One message, copied out of the model. Pointers stay valid for the model's life. Its
 * arguments are read on demand (strobe_log_model_get_args): they may be in the file. */
typedef struct
{
  guint64                  time;
  guint64                  position;   /* in the snapshot it was read through */
  guint32                  record;     /* arrival index: stable while the trace grows */
  guint32                  spec_id;
  guint32                  category_id;
  const StrobeLogSpecInfo *spec;       /* NULL when the site is unknown */
  guint16                  thread_id;
  guint8                   verbosity;
  /*< private >*/
  StrobeLogModel          *_model;
  StrobeLogArgsRef         _args;
} StrobeLogEntry;

/* Reads positions [@from, @from + @n) of @order (clamped to it) into @out; returns how
 * many were read. One lock for the lot. */
guint           strobe_log_model_read      (StrobeLogModel       *self,
                                            const StrobeLogOrder *order,
                                            guint64               from,
                                            guint                 n,
                                            StrobeLogEntry       *out);
/* The first position of @order whose (time, record) is not below (@time, @record):
 * positions are sorted by time, then arrival. @record G_MAXUINT32: after every message
 * at @time; 0: before them. */
guint64         strobe_log_model_lower_bound (StrobeLogModel       *self,
                                              const StrobeLogOrder *order,
                                              guint64               time,
                                              guint32               record);
/* Appends (as guint32) the positions in [@from, @to) of @order that pass @filter to @out.
 * Checks @cancellable between batches; FALSE when it was cancelled (@out then holds what
 * was found so far). @scratch: a buffer for formatting, reused across calls. */
gboolean        strobe_log_model_filter_order (StrobeLogModel        *self,
                                               const StrobeLogOrder  *order,
                                               const StrobeLogFilter *filter,
                                               guint64                from,
                                               guint64                to,
                                               GArray                *out,
                                               GString               *scratch,
                                               GCancellable          *cancellable);
/* Appends @entry's encoded arguments to @out: from the arena, or read again from the
 * trace file (any thread; a few decoded packets are cached). FALSE, with a reason in
 * @why (may be NULL), when the file cannot give them back any more. */
gboolean        strobe_log_model_get_args     (const StrobeLogEntry *entry,
                                               GByteArray           *out,
                                               const char          **why);
/* The formatted text of @entry into @out (cleared first); FALSE when the site is unknown,
 * the arguments do not fit its format (the text then says so, or shows "(?)" for what
 * is missing) or cannot be read again. */
gboolean        strobe_log_model_format_entry (const StrobeLogEntry *entry,
                                               GString              *out);

/* Where a LogMessage's time and site id are, learnt from its type: reading them through the
 * generic accessors was a third of the decoder's thread (the model and StrobeLogTally). */
typedef struct
{
  const StrobeEventType *type;
  gboolean               direct;   /* Cycle a uint64, SpecId a uint32 in the payload */
  guint16                cycle_at, spec_at;
} StrobeLogMessageLayout;

void strobe_log_message_layout_learn (StrobeLogMessageLayout *layout, const StrobeEventType *type);

/* A LogMessage's site id and time: in place when its type allows, else by name. */
static inline void
strobe_log_message_read (StrobeLogMessageLayout *layout, const StrobeEvent *ev, guint32 *spec_id, guint64 *time)
{
  static StrobeFieldAccessor cycle = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  static StrobeFieldAccessor spec = STROBE_FIELD_ACCESSOR_INIT ("SpecId");

  if (G_UNLIKELY (ev->type != layout->type))
    strobe_log_message_layout_learn (layout, ev->type);
  if (layout->direct)
    {
      *spec_id = GUINT32_FROM_LE (strobe_wire_get_u32 (ev->payload + layout->spec_at));
      *time = GUINT64_FROM_LE (strobe_wire_get_u64 (ev->payload + layout->cycle_at));
    }
  else
    {
      *spec_id = (guint32) strobe_event_get_uint (ev, &spec);
      *time = strobe_event_get_uint (ev, &cycle);
    }
}

/* A LogMessageSpec's fields into @info (file and format newly allocated, "" when missing)
 * and its category id: the model and StrobeLogTally read specs alike. */
void strobe_log_spec_info_read (const StrobeEvent *ev, StrobeLogSpecInfo *info, guint32 *category_id);

G_END_DECLS
