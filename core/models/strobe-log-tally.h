/* strobe-log-tally.h — how many log messages pass a filter, counted while the trace is
 * decoded: no model kept, the arguments tested where the decoder left them (no packet
 * decoded a second time). What `strobe-cli log --count` runs; the same number as
 * strobe_log_model_filter() over a model of the same trace.
 *
 * An analyzer: add it to a decoder directly. The messages that need formatting are
 * copied in batches to worker threads (one per core, at most 4; a few MiB in flight), so
 * the decoder's thread does little more than decode; the count is complete once the
 * decoder ended.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"
#include "strobe-log-model.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_TALLY (strobe_log_tally_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogTally, strobe_log_tally, STROBE, LOG_TALLY, GObject)

/* Counts the messages passing @filter (copied; NULL: every message). Its times and
 * category ids are the trace's own, as in a StrobeLogFilter for the model. */
StrobeLogTally *strobe_log_tally_new       (const StrobeLogFilter *filter);
/* The messages that passed, once the decoder ended. */
guint64         strobe_log_tally_get_count (StrobeLogTally *self);
/* FALSE when the count cannot be the model's: a message arrived before its site was
 * announced and the site came later — the model formats such a message with the late
 * site's format, whose arguments this tally did not keep. Ask a model then. */
gboolean        strobe_log_tally_is_exact  (StrobeLogTally *self);

/* Keeps the messages that pass as well (formatted in full on the workers: the model's
 * text), up to @max_bytes of them — what `strobe-cli log --grep` prints, without a model
 * of every message. Call before decoding. */
void            strobe_log_tally_keep_messages (StrobeLogTally *self,
                                                gsize           max_bytes);
/* Once the decoder ended: the messages kept, in the model's order (time, then arrival),
 * each as strobe_log_model_get_messages() gives it (@index is the arrival order; texts and
 * sites owned by the tally); NULL when they could not all be kept — more than the bytes
 * allowed, or a message came before its site (only a model can format it). */
const StrobeLogMessage *strobe_log_tally_get_messages (StrobeLogTally *self,
                                                       guint          *n);

/* Streaming them in the model's order as the trace is read, without waiting for its end,
 * takes two passes. The first, a survey (decode the trace with it), learns the time range
 * of each @chunk messages in arrival order, and which sites were announced after messages
 * of theirs; strobe_log_tally_survey_order() then works out after which messages no
 * earlier one comes any more, FALSE when only a model can give the messages (a site after
 * its messages) or more than @max_pending messages could wait at once (a thread that sends
 * its early messages late). */
StrobeLogTally *strobe_log_tally_new_survey    (guint           chunk);
gboolean        strobe_log_tally_survey_order  (StrobeLogTally *survey,
                                                guint64         max_pending);

/* A message in the model's order, given on the decoder's thread (@message's text and site
 * are the tally's: copy what is kept). */
typedef void (*StrobeLogTallyEmit) (const StrobeLogMessage *message,
                                    gpointer                data);

/* The second pass, after a survey of the same trace said yes: the messages that pass are
 * given to @emit in the model's order as soon as no earlier one can come. Call before
 * decoding; strobe_log_tally_streamed_all() says at the end that every one was given. */
void            strobe_log_tally_stream        (StrobeLogTally     *self,
                                                StrobeLogTally     *survey,
                                                StrobeLogTallyEmit  emit,
                                                gpointer            data);
gboolean        strobe_log_tally_streamed_all  (StrobeLogTally     *self);

G_END_DECLS
