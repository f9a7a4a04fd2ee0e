/* test-log-analyzer.h — records every delivered event as a line of text.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analysis.h"

G_BEGIN_DECLS

#define TEST_TYPE_LOG_ANALYZER (test_log_analyzer_get_type ())
G_DECLARE_FINAL_TYPE (TestLogAnalyzer, test_log_analyzer, TEST, LOG_ANALYZER, GObject)

/* Subscribes @logger.@event (NULL, NULL: everything). */
TestLogAnalyzer *test_log_analyzer_new       (const char *logger, const char *event);
const char      *test_log_analyzer_get_log   (TestLogAnalyzer *self);
guint            test_log_analyzer_get_count (TestLogAnalyzer *self);
gboolean         test_log_analyzer_get_ended (TestLogAnalyzer *self);
gboolean         test_log_analyzer_got_metadata (TestLogAnalyzer *self);

/* Decodes @data in feeds of @chunk bytes (0: one feed), then finishes. Returns the log;
 * the error of feed/finish, if any, in @error. */
char            *test_decode                 (const guint8 *data, gsize len, gsize chunk,
                                              GError **error);

G_END_DECLS

G_BEGIN_DECLS

typedef void (*TestEventFunc) (guint route_id, const StrobeEvent *ev, gpointer data);

#define TEST_TYPE_FUNC_ANALYZER (test_func_analyzer_get_type ())
G_DECLARE_FINAL_TYPE (TestFuncAnalyzer, test_func_analyzer, TEST, FUNC_ANALYZER, GObject)

/* Calls @func for every event of @logger.@event, with @route_id. */
TestFuncAnalyzer *test_func_analyzer_new (guint route_id, const char *logger, const char *event,
                                          TestEventFunc func, gpointer data);
/* Adds another subscription (before decoding starts). */
void              test_func_analyzer_add (TestFuncAnalyzer *self, guint route_id,
                                          const char *logger, const char *event);

G_END_DECLS
