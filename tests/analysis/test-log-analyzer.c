/* test-log-analyzer.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "test-log-analyzer.h"

struct _TestLogAnalyzer
{
  GObject  parent_instance;
  char    *logger;
  char    *event;
  GString *log;
  guint    count;
  gboolean ended;
  gboolean metadata;
};

static void iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestLogAnalyzer, test_log_analyzer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, iface_init))

static void
log_begin (StrobeAnalyzer *a, StrobeAnalysisContext *ctx)
{
  TestLogAnalyzer *self = TEST_LOG_ANALYZER (a);

  strobe_analysis_context_subscribe (ctx, 7, self->logger, self->event);
}

static void
log_on_metadata (StrobeAnalyzer *a, const StrobeWireMetadata *m)
{
  TEST_LOG_ANALYZER (a)->metadata = TRUE;
}

static void
log_on_event (StrobeAnalyzer *a, guint route_id, const StrobeEvent *ev)
{
  TestLogAnalyzer *self = TEST_LOG_ANALYZER (a);

  g_assert_cmpuint (route_id, ==, 7);
  g_assert_false (self->ended);
  strobe_event_format (ev, self->log);
  g_string_append_c (self->log, '\n');
  self->count++;
}

static void
log_end (StrobeAnalyzer *a, const GError *error)
{
  TestLogAnalyzer *self = TEST_LOG_ANALYZER (a);

  g_assert_false (self->ended);
  self->ended = TRUE;
}

static void
iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = log_begin;
  iface->on_metadata = log_on_metadata;
  iface->on_event = log_on_event;
  iface->end = log_end;
}

static void
test_log_analyzer_finalize (GObject *object)
{
  TestLogAnalyzer *self = TEST_LOG_ANALYZER (object);

  g_free (self->logger);
  g_free (self->event);
  g_string_free (self->log, TRUE);
  G_OBJECT_CLASS (test_log_analyzer_parent_class)->finalize (object);
}

static void
test_log_analyzer_class_init (TestLogAnalyzerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_log_analyzer_finalize;
}

static void
test_log_analyzer_init (TestLogAnalyzer *self)
{
  self->log = g_string_new (NULL);
}

TestLogAnalyzer *
test_log_analyzer_new (const char *logger, const char *event)
{
  TestLogAnalyzer *self = g_object_new (TEST_TYPE_LOG_ANALYZER, NULL);

  self->logger = g_strdup (logger ? logger : "*");
  self->event = g_strdup (event ? event : "*");
  return self;
}

const char *
test_log_analyzer_get_log (TestLogAnalyzer *self)
{
  return self->log->str;
}

guint
test_log_analyzer_get_count (TestLogAnalyzer *self)
{
  return self->count;
}

gboolean
test_log_analyzer_get_ended (TestLogAnalyzer *self)
{
  return self->ended;
}

gboolean
test_log_analyzer_got_metadata (TestLogAnalyzer *self)
{
  return self->metadata;
}

char *
test_decode (const guint8 *data, gsize len, gsize chunk, GError **error)
{
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(TestLogAnalyzer) log = test_log_analyzer_new (NULL, NULL);
  gboolean ok = TRUE;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (log));
  if (chunk == 0)
    chunk = MAX (len, 1);
  for (gsize pos = 0; ok && pos < len; pos += chunk)
    ok = strobe_decoder_feed (dec, data + pos, MIN (chunk, len - pos), error);
  if (ok)
    ok = strobe_decoder_finish (dec, error);
  g_assert_true (test_log_analyzer_get_ended (log));
  return g_strdup (test_log_analyzer_get_log (log));
}

/* ---- TestFuncAnalyzer ----------------------------------------------------------- */

typedef struct
{
  guint  route_id;
  char  *logger;
  char  *event;
} Sub;

struct _TestFuncAnalyzer
{
  GObject        parent_instance;
  GArray        *subs;
  TestEventFunc  func;
  gpointer       data;
};

static void func_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestFuncAnalyzer, test_func_analyzer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, func_iface_init))

static void
func_begin (StrobeAnalyzer *a, StrobeAnalysisContext *ctx)
{
  TestFuncAnalyzer *self = TEST_FUNC_ANALYZER (a);

  for (guint i = 0; i < self->subs->len; i++)
    {
      Sub *s = &g_array_index (self->subs, Sub, i);
      strobe_analysis_context_subscribe (ctx, s->route_id, s->logger, s->event);
    }
}

static void
func_on_event (StrobeAnalyzer *a, guint route_id, const StrobeEvent *ev)
{
  TestFuncAnalyzer *self = TEST_FUNC_ANALYZER (a);

  self->func (route_id, ev, self->data);
}

static void
func_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = func_begin;
  iface->on_event = func_on_event;
}

static void
sub_clear (gpointer p)
{
  Sub *s = p;

  g_free (s->logger);
  g_free (s->event);
}

static void
test_func_analyzer_finalize (GObject *object)
{
  g_array_unref (TEST_FUNC_ANALYZER (object)->subs);
  G_OBJECT_CLASS (test_func_analyzer_parent_class)->finalize (object);
}

static void
test_func_analyzer_class_init (TestFuncAnalyzerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_func_analyzer_finalize;
}

static void
test_func_analyzer_init (TestFuncAnalyzer *self)
{
  self->subs = g_array_new (FALSE, FALSE, sizeof (Sub));
  g_array_set_clear_func (self->subs, sub_clear);
}

void
test_func_analyzer_add (TestFuncAnalyzer *self, guint route_id, const char *logger,
                        const char *event)
{
  Sub s = { route_id, g_strdup (logger), g_strdup (event) };

  g_array_append_val (self->subs, s);
}

TestFuncAnalyzer *
test_func_analyzer_new (guint route_id, const char *logger, const char *event,
                        TestEventFunc func, gpointer data)
{
  TestFuncAnalyzer *self = g_object_new (TEST_TYPE_FUNC_ANALYZER, NULL);

  self->func = func;
  self->data = data;
  test_func_analyzer_add (self, route_id, logger, event);
  return self;
}
