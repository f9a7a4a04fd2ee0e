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

G_END_DECLS
