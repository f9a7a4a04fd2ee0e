/* test-counters-model.h — a model the document does not know: each counter of the trace
 * with its sample count, last, smallest and largest value. It exists to prove that a view
 * brings its own model through the document's registry (strobe_document_get_model).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analysis.h"

G_BEGIN_DECLS

typedef struct
{
  guint32  id;
  char    *name;
  guint64  samples;
  double   last;
  double   min;
  double   max;
} TestCounter;

#define TEST_TYPE_COUNTERS_MODEL (test_counters_model_get_type ())
G_DECLARE_FINAL_TYPE (TestCountersModel, test_counters_model, TEST, COUNTERS_MODEL, GObject)

/* A copy of every counter seen so far, by id (TestCounter; the array frees the names).
 * Any thread. */
GArray *test_counters_model_dup_counters (TestCountersModel *self);

G_END_DECLS
