/* strobe-batch-times.h — the first and last time of a trace's CPU scope batches without
 * walking each: a thread's times only grow, so its first batch and its latest tell them.
 * What a timeline model of markers only (strobe_timeline_model_set_markers_only) keeps
 * for the trace's end. Private to core/models.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _StrobeBatchTimes StrobeBatchTimes;

/* At most this many bytes of batches kept; past it, batches are walked as they come (a
 * trace of very many threads must not make a model of markers big). */
#define STROBE_BATCH_TIMES_KEPT_BYTES (64u << 20)

StrobeBatchTimes *strobe_batch_times_new  (gsize             kept_bytes);
void              strobe_batch_times_free (StrobeBatchTimes *self);
/* A batch of thread @thread_id (its Base, Shift and Data fields): a thread's first is
 * walked now, the latest kept (copied) until the next comes or the end. */
void              strobe_batch_times_add  (StrobeBatchTimes *self,
                                           guint16           thread_id,
                                           guint64           base,
                                           guint             shift,
                                           const guint8     *data,
                                           gsize             n);
/* The earliest and latest record time of every batch added, exactly what walking each
 * would give; FALSE when no record decoded. The kept batches are walked and let go. */
gboolean          strobe_batch_times_end  (StrobeBatchTimes *self,
                                           guint64          *first,
                                           guint64          *last);

G_END_DECLS
