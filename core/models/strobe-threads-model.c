/* strobe-threads-model.c — $Trace.ThreadInfo / ThreadEnd and Misc.ProcessInfo into a
 * small table under a reader-writer lock.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-threads-model.h"

#include <glib/gi18n.h>
#include <string.h>

enum
{
  ROUTE_THREAD_INFO,
  ROUTE_THREAD_END,
  ROUTE_PROCESS_INFO,
};

struct _StrobeThreadsModel
{
  GObject     parent_instance;

  GRWLock     lock;
  GArray     *threads;      /* StrobeThreadInfo, in order of first appearance */
  GHashTable *index;        /* thread id → position in threads + 1: a trace may name every
                             * one of the 65536 ids, in any order */
  GHashTable *by_system;    /* OS thread id → thread id (the latest ThreadInfo naming it) */
  char       *program_name;
  char       *process_name;
  guint32     process_id;
  guint64     generation;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeThreadsModel, strobe_threads_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

void
strobe_thread_info_clear (StrobeThreadInfo *info)
{
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->group, g_free);
}

static void
info_clear (gpointer data)
{
  strobe_thread_info_clear (data);
}

static StrobeThreadInfo *
find_thread (StrobeThreadsModel *self, guint16 id)
{
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (self->index, GUINT_TO_POINTER ((guint) id + 1)));

  return i ? &g_array_index (self->threads, StrobeThreadInfo, i - 1) : NULL;
}

static StrobeThreadInfo *
get_thread (StrobeThreadsModel *self, guint16 id)
{
  StrobeThreadInfo t = { 0 }, *found = find_thread (self, id);

  if (found)
    return found;
  t.id = id;
  t.name = g_strdup ("");
  t.group = g_strdup ("");
  g_array_append_val (self->threads, t);
  g_hash_table_insert (self->index, GUINT_TO_POINTER ((guint) id + 1), GUINT_TO_POINTER (self->threads->len));
  return &g_array_index (self->threads, StrobeThreadInfo, self->threads->len - 1);
}

static void
strobe_threads_model_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_THREAD_INFO, "$Trace", "ThreadInfo");
  strobe_analysis_context_subscribe (ctx, ROUTE_THREAD_END, "$Trace", "ThreadEnd");
  strobe_analysis_context_subscribe (ctx, ROUTE_PROCESS_INFO, "Misc", "ProcessInfo");
}

static void
strobe_threads_model_on_metadata (StrobeAnalyzer *analyzer, const StrobeWireMetadata *metadata)
{
  StrobeThreadsModel *self = STROBE_THREADS_MODEL (analyzer);

  g_rw_lock_writer_lock (&self->lock);
  g_free (self->program_name);
  self->program_name = g_strndup (metadata->program_name ? metadata->program_name : "",
                                  metadata->program_name_len);
  if (self->process_id == 0)
    self->process_id = metadata->process_id;
  self->generation++;
  g_rw_lock_writer_unlock (&self->lock);
}

static void
strobe_threads_model_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeThreadsModel *self = (StrobeThreadsModel *) analyzer;
  static StrobeFieldAccessor thread_id = STROBE_FIELD_ACCESSOR_INIT ("ThreadId");
  static StrobeFieldAccessor system_id = STROBE_FIELD_ACCESSOR_INIT ("SystemId");
  static StrobeFieldAccessor sort_hint = STROBE_FIELD_ACCESSOR_INIT ("SortHint");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor group = STROBE_FIELD_ACCESSOR_INIT ("Group");
  static StrobeFieldAccessor timestamp = STROBE_FIELD_ACCESSOR_INIT ("Timestamp");
  static StrobeFieldAccessor process_id = STROBE_FIELD_ACCESSOR_INIT ("ProcessId");

  g_rw_lock_writer_lock (&self->lock);
  switch (route)
    {
    case ROUTE_THREAD_INFO:
      {
        StrobeThreadInfo *t = get_thread (self, (guint16) strobe_event_get_uint (ev, &thread_id));
        char *s;

        t->system_id = strobe_event_get_uint (ev, &system_id);
        if (t->system_id)
          g_hash_table_insert (self->by_system, g_memdup2 (&t->system_id, sizeof t->system_id),
                               GUINT_TO_POINTER ((guint) t->id));
        t->sort_hint = (gint32) strobe_event_get_int (ev, &sort_hint);
        s = strobe_event_get_string (ev, &name);
        g_free (t->name);
        t->name = s ? s : g_strdup ("");
        s = strobe_event_get_string (ev, &group);
        g_free (t->group);
        t->group = s ? s : g_strdup ("");
      }
      break;
    case ROUTE_THREAD_END:
      {
        StrobeThreadInfo *t = get_thread (self, (guint16) strobe_event_get_uint (ev, &thread_id));
        t->ended = TRUE;
        t->state = STROBE_THREAD_ENDED;
        t->end_time = strobe_event_get_uint (ev, &timestamp);
      }
      break;
    case ROUTE_PROCESS_INFO:
      g_free (self->process_name);
      self->process_name = strobe_event_get_string (ev, &name);
      if (strobe_event_get_uint (ev, &process_id))
        self->process_id = (guint32) strobe_event_get_uint (ev, &process_id);
      break;
    default:
      break;
    }
  self->generation++;
  g_rw_lock_writer_unlock (&self->lock);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_threads_model_begin;
  iface->on_metadata = strobe_threads_model_on_metadata;
  iface->on_event = strobe_threads_model_on_event;
}

static void
strobe_threads_model_finalize (GObject *object)
{
  StrobeThreadsModel *self = STROBE_THREADS_MODEL (object);

  g_array_unref (self->threads);
  g_hash_table_unref (self->index);
  g_hash_table_unref (self->by_system);
  g_free (self->program_name);
  g_free (self->process_name);
  g_rw_lock_clear (&self->lock);
  G_OBJECT_CLASS (strobe_threads_model_parent_class)->finalize (object);
}

static void
strobe_threads_model_class_init (StrobeThreadsModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_threads_model_finalize;
}

static void
strobe_threads_model_init (StrobeThreadsModel *self)
{
  g_rw_lock_init (&self->lock);
  self->threads = g_array_new (FALSE, TRUE, sizeof (StrobeThreadInfo));
  g_array_set_clear_func (self->threads, info_clear);
  self->index = g_hash_table_new (NULL, NULL);
  self->by_system = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

StrobeThreadsModel *
strobe_threads_model_new (void)
{
  return g_object_new (STROBE_TYPE_THREADS_MODEL, NULL);
}

static GHashTable *group_hints;   /* only during the sort, under the caller's lock */

static gint
thread_cmp (gconstpointer x, gconstpointer y)
{
  const StrobeThreadInfo *a = x, *b = y;
  /* A thread without a group is a group of its own, keyed by its sort hint. */
  gint32 ga = *a->group ? GPOINTER_TO_INT (g_hash_table_lookup (group_hints, a->group)) : a->sort_hint;
  gint32 gb = *b->group ? GPOINTER_TO_INT (g_hash_table_lookup (group_hints, b->group)) : b->sort_hint;
  gint c;

  if (ga != gb)
    return ga < gb ? -1 : 1;
  if ((c = strcmp (a->group, b->group)) != 0)
    return c;
  if (a->sort_hint != b->sort_hint)
    return a->sort_hint < b->sort_hint ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

GArray *
strobe_threads_model_get_threads (StrobeThreadsModel *self)
{
  static GMutex sort_lock;
  GArray *out = g_array_new (FALSE, TRUE, sizeof (StrobeThreadInfo));

  g_array_set_clear_func (out, info_clear);
  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->threads->len; i++)
    {
      StrobeThreadInfo t = g_array_index (self->threads, StrobeThreadInfo, i);
      t.name = g_strdup (t.name);
      t.group = g_strdup (t.group);
      g_array_append_val (out, t);
    }
  g_rw_lock_reader_unlock (&self->lock);

  g_mutex_lock (&sort_lock);
  group_hints = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < out->len; i++)
    {
      StrobeThreadInfo *t = &g_array_index (out, StrobeThreadInfo, i);
      gpointer old;
      if (!*t->group)
        continue;
      if (!g_hash_table_lookup_extended (group_hints, t->group, NULL, &old) || t->sort_hint < GPOINTER_TO_INT (old))
        g_hash_table_insert (group_hints, t->group, GINT_TO_POINTER (t->sort_hint));
    }
  g_array_sort (out, thread_cmp);
  g_hash_table_unref (group_hints);
  group_hints = NULL;
  g_mutex_unlock (&sort_lock);
  for (guint i = 0; i < out->len; i++)
    g_array_index (out, StrobeThreadInfo, i).order = i;
  return out;
}

gboolean
strobe_threads_model_lookup (StrobeThreadsModel *self, guint16 id, StrobeThreadInfo *out)
{
  gboolean found = FALSE;

  g_rw_lock_reader_lock (&self->lock);
  {
    StrobeThreadInfo *t = find_thread (self, id);

    if (t)
      {
        *out = *t;
        out->name = g_strdup (t->name);
        out->group = g_strdup (t->group);
        found = TRUE;
      }
  }
  g_rw_lock_reader_unlock (&self->lock);
  return found;
}

guint64
strobe_threads_model_get_system_id (StrobeThreadsModel *self, guint16 id)
{
  guint64 v = 0;

  g_return_val_if_fail (STROBE_IS_THREADS_MODEL (self), 0);
  g_rw_lock_reader_lock (&self->lock);
  {
    StrobeThreadInfo *t = find_thread (self, id);
    if (t)
      v = t->system_id;
  }
  g_rw_lock_reader_unlock (&self->lock);
  return v;
}

guint16
strobe_threads_model_find_system (StrobeThreadsModel *self, guint64 system_id)
{
  guint16 id;

  g_return_val_if_fail (STROBE_IS_THREADS_MODEL (self), 0);
  if (system_id == 0)
    return 0;
  g_rw_lock_reader_lock (&self->lock);
  id = (guint16) GPOINTER_TO_UINT (g_hash_table_lookup (self->by_system, &system_id));
  g_rw_lock_reader_unlock (&self->lock);
  return id;
}

char *
strobe_threads_model_dup_process_name (StrobeThreadsModel *self)
{
  char *s;

  g_rw_lock_reader_lock (&self->lock);
  s = g_strdup (self->process_name && *self->process_name ? self->process_name
                : self->program_name ? self->program_name : "");
  g_rw_lock_reader_unlock (&self->lock);
  return s;
}

guint32
strobe_threads_model_get_process_id (StrobeThreadsModel *self)
{
  guint32 v;

  g_rw_lock_reader_lock (&self->lock);
  v = self->process_id;
  g_rw_lock_reader_unlock (&self->lock);
  return v;
}

guint64
strobe_threads_model_get_generation (StrobeThreadsModel *self)
{
  guint64 v;

  g_return_val_if_fail (STROBE_IS_THREADS_MODEL (self), 0);
  g_rw_lock_reader_lock (&self->lock);
  v = self->generation;
  g_rw_lock_reader_unlock (&self->lock);
  return v;
}

void
strobe_threads_model_set_trace_end (StrobeThreadsModel *self,
                                    guint64             last_time)
{
  g_return_if_fail (STROBE_IS_THREADS_MODEL (self));

  g_rw_lock_writer_lock (&self->lock);
  for (guint i = 0; i < self->threads->len; i++)
    {
      StrobeThreadInfo *t = &g_array_index (self->threads, StrobeThreadInfo, i);

      if (t->state == STROBE_THREAD_RUNNING)
        {
          t->state = STROBE_THREAD_RUNNING_AT_END;
          t->ended = TRUE;
          t->end_time = last_time;
        }
    }
  self->generation++;
  g_rw_lock_writer_unlock (&self->lock);
}

const char *
strobe_thread_state_to_string (StrobeThreadState state)
{
  switch (state)
    {
    case STROBE_THREAD_RUNNING:        return C_("thread", "running");
    case STROBE_THREAD_ENDED:          return C_("thread", "ended");
    case STROBE_THREAD_RUNNING_AT_END: return C_("thread", "running when the trace ended");
    default:                           return "?";
    }
}
