/* strobe-info-analyzer.c — collects the overview of a trace (see PROTOCOL.md §5).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-info-analyzer.h"

enum
{
  ROUTE_ALL,
  ROUTE_THREAD_INFO,
  ROUTE_THREAD_END,
  ROUTE_CHANNEL_ANNOUNCE,
  ROUTE_CHANNEL_TOGGLE,
  ROUTE_STATS,
};

typedef struct
{
  StrobeInfoEventType pub;
  gint                timestamp_field;   /* -1: no usable "Timestamp" */
} TypeInfo;

struct _StrobeInfoAnalyzer
{
  GObject             parent_instance;

  StrobeWireMetadata  metadata;
  gboolean            have_metadata;
  char               *program_name;
  char               *command_line;

  GPtrArray          *threads;
  GHashTable         *threads_by_id;
  GPtrArray          *types;
  GHashTable         *types_by_ptr;
  const StrobeEventType *last_type;
  TypeInfo           *last_info;
  GPtrArray          *channels;
  GHashTable         *channels_by_id;

  StrobeInfoStats     stats;
  guint64             events;
  gboolean            have_time;
  guint64             first_time;
  guint64             last_time;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeInfoAnalyzer, strobe_info_analyzer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static StrobeInfoThread *
get_thread (StrobeInfoAnalyzer *self, guint16 id)
{
  StrobeInfoThread *t = g_hash_table_lookup (self->threads_by_id, GUINT_TO_POINTER (id));

  if (t == NULL)
    {
      t = g_new0 (StrobeInfoThread, 1);
      t->id = id;
      g_ptr_array_add (self->threads, t);
      g_hash_table_insert (self->threads_by_id, GUINT_TO_POINTER (id), t);
    }
  return t;
}

static StrobeInfoChannel *
get_channel (StrobeInfoAnalyzer *self, guint32 id)
{
  StrobeInfoChannel *c = g_hash_table_lookup (self->channels_by_id, GUINT_TO_POINTER (id));

  if (c == NULL)
    {
      c = g_new0 (StrobeInfoChannel, 1);
      c->id = id;
      g_ptr_array_add (self->channels, c);
      g_hash_table_insert (self->channels_by_id, GUINT_TO_POINTER (id), c);
    }
  return c;
}

gpointer
strobe_info_thread_copy (gpointer src)
{
  StrobeInfoThread *copy = g_memdup2 (src, sizeof (StrobeInfoThread));

  copy->name = g_strdup (copy->name);
  copy->group = g_strdup (copy->group);
  return copy;
}

void
strobe_info_thread_free (gpointer data)
{
  StrobeInfoThread *t = data;

  g_free (t->name);
  g_free (t->group);
  g_free (t);
}

gpointer
strobe_info_event_type_copy (gpointer src)
{
  StrobeInfoEventType *copy = g_memdup2 (src, sizeof (StrobeInfoEventType));

  copy->full_name = g_strdup (copy->full_name);
  return copy;
}

void
strobe_info_event_type_free (gpointer data)
{
  StrobeInfoEventType *t = data;

  g_free (t->full_name);
  g_free (t);
}

static void
type_info_free (gpointer data)
{
  TypeInfo *info = data;

  g_free (info->pub.full_name);
  g_free (info);
}

gpointer
strobe_info_channel_copy (gpointer src)
{
  StrobeInfoChannel *copy = g_memdup2 (src, sizeof (StrobeInfoChannel));

  copy->name = g_strdup (copy->name);
  return copy;
}

void
strobe_info_channel_free (gpointer data)
{
  StrobeInfoChannel *c = data;

  g_free (c->name);
  g_free (c);
}

static void
strobe_info_analyzer_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_ALL, "*", "*");
  strobe_analysis_context_subscribe (ctx, ROUTE_THREAD_INFO, "$Trace", "ThreadInfo");
  strobe_analysis_context_subscribe (ctx, ROUTE_THREAD_END, "$Trace", "ThreadEnd");
  strobe_analysis_context_subscribe (ctx, ROUTE_CHANNEL_ANNOUNCE, "$Trace", "ChannelAnnounce");
  strobe_analysis_context_subscribe (ctx, ROUTE_CHANNEL_TOGGLE, "$Trace", "ChannelToggle");
  strobe_analysis_context_subscribe (ctx, ROUTE_STATS, "$Trace", "Stats");
}

static void
strobe_info_analyzer_on_metadata (StrobeAnalyzer *analyzer, const StrobeWireMetadata *metadata)
{
  StrobeInfoAnalyzer *self = STROBE_INFO_ANALYZER (analyzer);

  self->metadata = *metadata;
  g_free (self->program_name);
  g_free (self->command_line);
  self->program_name = g_strndup (metadata->program_name ? metadata->program_name : "",
                                  metadata->program_name_len);
  self->command_line = g_malloc0 (metadata->command_line_len + 1);
  if (metadata->command_line_len)
    memcpy (self->command_line, metadata->command_line, metadata->command_line_len);
  self->metadata.program_name = self->program_name;
  self->metadata.program_name_len = strlen (self->program_name);
  self->metadata.command_line = self->command_line;
  self->have_metadata = TRUE;
}

static void
strobe_info_analyzer_on_event_type (StrobeAnalyzer *analyzer, const StrobeEventType *type)
{
  StrobeInfoAnalyzer *self = STROBE_INFO_ANALYZER (analyzer);
  TypeInfo *info = g_new0 (TypeInfo, 1);
  gint ts;

  info->pub.full_name = g_strdup (type->full_name);
  info->pub.uid = type->uid;
  info->pub.flags = type->flags;
  info->pub.n_fields = type->n_fields;
  ts = strobe_event_type_find_field (type, "Timestamp");
  if (ts >= 0 && strobe_wire_type_is_aux (type->fields[ts].type))
    ts = -1;
  info->timestamp_field = ts;
  g_ptr_array_add (self->types, info);
  g_hash_table_insert (self->types_by_ptr, (gpointer) type, info);
}

static void
note_time (StrobeInfoAnalyzer *self, guint64 t)
{
  /* 0 is what an unset field reads as: not a time. */
  if (t == 0)
    return;
  if (!self->have_time)
    {
      self->first_time = self->last_time = t;
      self->have_time = TRUE;
      return;
    }
  self->first_time = MIN (self->first_time, t);
  self->last_time = MAX (self->last_time, t);
}

static void
strobe_info_analyzer_on_event (StrobeAnalyzer *analyzer, guint route_id, const StrobeEvent *ev)
{
  StrobeInfoAnalyzer *self = STROBE_INFO_ANALYZER (analyzer);
  static StrobeFieldAccessor thread_id = STROBE_FIELD_ACCESSOR_INIT ("ThreadId");
  static StrobeFieldAccessor system_id = STROBE_FIELD_ACCESSOR_INIT ("SystemId");
  static StrobeFieldAccessor sort_hint = STROBE_FIELD_ACCESSOR_INIT ("SortHint");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor group = STROBE_FIELD_ACCESSOR_INIT ("Group");
  static StrobeFieldAccessor timestamp = STROBE_FIELD_ACCESSOR_INIT ("Timestamp");
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor enabled = STROBE_FIELD_ACCESSOR_INIT ("Enabled");
  static StrobeFieldAccessor bytes_emitted = STROBE_FIELD_ACCESSOR_INIT ("BytesEmitted");
  static StrobeFieldAccessor bytes_sent = STROBE_FIELD_ACCESSOR_INIT ("BytesSent");
  static StrobeFieldAccessor events_emitted = STROBE_FIELD_ACCESSOR_INIT ("EventsEmitted");
  static StrobeFieldAccessor events_dropped = STROBE_FIELD_ACCESSOR_INIT ("EventsDropped");
  static StrobeFieldAccessor buffer_memory = STROBE_FIELD_ACCESSOR_INIT ("BufferMemory");

  switch (route_id)
    {
    case ROUTE_ALL:
      {
        TypeInfo *info = self->last_info;

        if (ev->type != self->last_type)
          {
            info = g_hash_table_lookup (self->types_by_ptr, ev->type);
            self->last_type = ev->type;
            self->last_info = info;
          }
        self->events++;
        if (info == NULL)
          return;
        info->pub.count++;
        if (info->timestamp_field >= 0)
          note_time (self, strobe_event_get_uint_at (ev, info->timestamp_field));
        if (ev->thread_id >= STROBE_TID_FIRST_USER)
          get_thread (self, ev->thread_id)->events++;
      }
      break;

    case ROUTE_THREAD_INFO:
      {
        StrobeInfoThread *t = get_thread (self, (guint16) strobe_event_get_uint (ev, &thread_id));

        t->system_id = strobe_event_get_uint (ev, &system_id);
        t->sort_hint = (gint32) strobe_event_get_int (ev, &sort_hint);
        g_free (t->name);
        t->name = strobe_event_get_string (ev, &name);
        g_free (t->group);
        t->group = strobe_event_get_string (ev, &group);
      }
      break;

    case ROUTE_THREAD_END:
      {
        StrobeInfoThread *t = get_thread (self, (guint16) strobe_event_get_uint (ev, &thread_id));

        t->ended = TRUE;
        t->end_timestamp = strobe_event_get_uint (ev, &timestamp);
      }
      break;

    case ROUTE_CHANNEL_ANNOUNCE:
      {
        StrobeInfoChannel *c = get_channel (self, (guint32) strobe_event_get_uint (ev, &id));

        g_free (c->name);
        c->name = strobe_event_get_string (ev, &name);
        c->enabled = strobe_event_get_bool (ev, &enabled);
      }
      break;

    case ROUTE_CHANNEL_TOGGLE:
      {
        StrobeInfoChannel *c = get_channel (self, (guint32) strobe_event_get_uint (ev, &id));
        gboolean on = strobe_event_get_bool (ev, &enabled);

        if (on != c->enabled)
          c->toggles++;
        c->enabled = on;
      }
      break;

    case ROUTE_STATS:
      self->stats.valid = TRUE;
      self->stats.timestamp = strobe_event_get_uint (ev, &timestamp);
      self->stats.bytes_emitted = strobe_event_get_uint (ev, &bytes_emitted);
      self->stats.bytes_sent = strobe_event_get_uint (ev, &bytes_sent);
      self->stats.events_emitted = strobe_event_get_uint (ev, &events_emitted);
      /* Running totals that never go back: keep the largest in case of reordering. */
      self->stats.events_dropped = MAX (self->stats.events_dropped,
                                        strobe_event_get_uint (ev, &events_dropped));
      self->stats.buffer_memory = strobe_event_get_uint (ev, &buffer_memory);
      break;

    default:
      break;
    }
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_info_analyzer_begin;
  iface->on_metadata = strobe_info_analyzer_on_metadata;
  iface->on_event_type = strobe_info_analyzer_on_event_type;
  iface->on_event = strobe_info_analyzer_on_event;
}

static gint
compare_threads (gconstpointer a, gconstpointer b)
{
  const StrobeInfoThread *ta = *(const StrobeInfoThread *const *) a;
  const StrobeInfoThread *tb = *(const StrobeInfoThread *const *) b;

  if (ta->sort_hint != tb->sort_hint)
    return ta->sort_hint < tb->sort_hint ? -1 : 1;
  return (gint) ta->id - (gint) tb->id;
}

static gint
compare_types (gconstpointer a, gconstpointer b)
{
  const StrobeInfoEventType *ta = *(const StrobeInfoEventType *const *) a;
  const StrobeInfoEventType *tb = *(const StrobeInfoEventType *const *) b;
  gint r = strcmp (ta->full_name, tb->full_name);

  return r ? r : (gint) ta->uid - (gint) tb->uid;
}

static gint
compare_channels (gconstpointer a, gconstpointer b)
{
  const StrobeInfoChannel *ca = *(const StrobeInfoChannel *const *) a;
  const StrobeInfoChannel *cb = *(const StrobeInfoChannel *const *) b;

  return g_strcmp0 (ca->name, cb->name);
}

StrobeInfoAnalyzer *
strobe_info_analyzer_new (void)
{
  return g_object_new (STROBE_TYPE_INFO_ANALYZER, NULL);
}

const StrobeWireMetadata *
strobe_info_analyzer_get_metadata (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  return self->have_metadata ? &self->metadata : NULL;
}

GPtrArray *
strobe_info_analyzer_get_threads (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  g_ptr_array_sort (self->threads, compare_threads);
  return self->threads;
}

GPtrArray *
strobe_info_analyzer_get_event_types (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  g_ptr_array_sort (self->types, compare_types);
  return self->types;
}

GPtrArray *
strobe_info_analyzer_get_channels (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  g_ptr_array_sort (self->channels, compare_channels);
  return self->channels;
}

const StrobeInfoStats *
strobe_info_analyzer_get_stats (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  return &self->stats;
}

guint64
strobe_info_analyzer_get_event_count (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), 0);
  return self->events;
}

gboolean
strobe_info_analyzer_get_time_range (StrobeInfoAnalyzer *self, guint64 *first, guint64 *last)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), FALSE);
  if (first)
    *first = self->first_time;
  if (last)
    *last = self->last_time;
  return self->have_time;
}

static void
strobe_info_analyzer_finalize (GObject *object)
{
  StrobeInfoAnalyzer *self = STROBE_INFO_ANALYZER (object);

  g_free (self->program_name);
  g_free (self->command_line);
  g_hash_table_unref (self->threads_by_id);
  g_ptr_array_unref (self->threads);
  g_hash_table_unref (self->types_by_ptr);
  g_ptr_array_unref (self->types);
  g_hash_table_unref (self->channels_by_id);
  g_ptr_array_unref (self->channels);

  G_OBJECT_CLASS (strobe_info_analyzer_parent_class)->finalize (object);
}

static void
strobe_info_analyzer_class_init (StrobeInfoAnalyzerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_info_analyzer_finalize;
}

static void
strobe_info_analyzer_init (StrobeInfoAnalyzer *self)
{
  self->threads = g_ptr_array_new_with_free_func (strobe_info_thread_free);
  self->threads_by_id = g_hash_table_new (NULL, NULL);
  self->types = g_ptr_array_new_with_free_func (type_info_free);
  self->types_by_ptr = g_hash_table_new (NULL, NULL);
  self->channels = g_ptr_array_new_with_free_func (strobe_info_channel_free);
  self->channels_by_id = g_hash_table_new (NULL, NULL);
}
