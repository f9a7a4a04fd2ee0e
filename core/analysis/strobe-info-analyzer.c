/* strobe-info-analyzer.c — collects the overview of a trace (see PROTOCOL.md §5).
 *
 * The decoder's thread updates its own copy without a lock; flush() (once per chunk fed)
 * publishes it under the mutex the getters take, so a reader never waits for more than a
 * copy of a few dozen rows and the hot path takes no lock per event.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-info-analyzer.h"

#include <string.h>

#include "strobe-cpu-batch.h"
#include "strobe-memory-records.h"

enum
{
  ROUTE_ALL,
  ROUTE_CHANNEL_ANNOUNCE,
  ROUTE_CHANNEL_TOGGLE,
  ROUTE_STATS,
  ROUTE_CPU_BATCH,
  ROUTE_MEMORY_BATCH,
  ROUTE_MEMORY_LIVE,
};

typedef struct
{
  StrobeInfoEventType pub;
  gint                time_field;   /* -1: no uint64 "Cycle" or "Timestamp" */
} TypeInfo;

typedef struct
{
  guint16 id;
  guint64 events;
} ThreadCount;

struct _StrobeInfoAnalyzer
{
  GObject             parent_instance;

  /* Decoder thread only. */
  GPtrArray          *types;           /* TypeInfo * */
  GHashTable         *types_by_ptr;
  const StrobeEventType *last_type;
  TypeInfo           *last_info;
  GArray             *threads;         /* ThreadCount, in order of appearance */
  GHashTable         *thread_index;    /* id -> index + 1 */
  guint16             last_tid;
  guint               last_tidx;
  GPtrArray          *channels;        /* StrobeInfoChannel * */
  GHashTable         *channels_by_id;
  GArray             *gaps;            /* Gap, in order of their beginnings */
  StrobeInfoStats     stats;
  guint64             events;
  gboolean            have_time;
  guint64             first_time;
  guint64             last_time;
  gboolean            dirty;

  /* Published: under lock. */
  GMutex              lock;
  StrobeWireMetadata  metadata;
  gboolean            have_metadata;
  char               *program_name;
  char               *command_line;
  char               *session_name;
  GPtrArray          *pub_types;       /* StrobeInfoEventType * */
  GPtrArray          *pub_channels;    /* StrobeInfoChannel * */
  GArray             *pub_gaps;        /* Gap */
  GArray             *pub_threads;     /* ThreadCount */
  StrobeInfoStats     pub_stats;
  guint64             pub_events;
  gboolean            pub_have_time;
  guint64             pub_first_time;
  guint64             pub_last_time;
  GPtrArray          *sinks;           /* StrobeCpuExtentSink *: batches walked elsewhere */
  guint64             generation;
};

typedef struct
{
  guint32       channel;
  StrobeInfoGap gap;
} Gap;

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeInfoAnalyzer, strobe_info_analyzer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

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

static ThreadCount *
get_thread (StrobeInfoAnalyzer *self, guint16 id)
{
  guint index;

  if (self->threads->len > 0 && self->last_tid == id)
    return &g_array_index (self->threads, ThreadCount, self->last_tidx);
  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->thread_index, GUINT_TO_POINTER (id)));
  if (index == 0)
    {
      ThreadCount t = { id, 0 };

      g_array_append_val (self->threads, t);
      index = self->threads->len;
      g_hash_table_insert (self->thread_index, GUINT_TO_POINTER (id), GUINT_TO_POINTER (index));
    }
  self->last_tid = id;
  self->last_tidx = index - 1;
  return &g_array_index (self->threads, ThreadCount, index - 1);
}

static void
strobe_info_analyzer_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_ALL, "*", "*");
  strobe_analysis_context_subscribe (ctx, ROUTE_CHANNEL_ANNOUNCE, "$Trace", "ChannelAnnounce");
  strobe_analysis_context_subscribe (ctx, ROUTE_CHANNEL_TOGGLE, "$Trace", "ChannelToggle");
  strobe_analysis_context_subscribe (ctx, ROUTE_STATS, "$Trace", "Stats");
  /* Last: the models' walks of a batch leave its extent for it. */
  strobe_analysis_context_subscribe_last (ctx, ROUTE_CPU_BATCH, "Cpu", "EventBatch");
  /* Their times are fields of other names (in units of 2^Shift ticks): allocations made
   * before the first timestamped event must not fall before the trace's start. */
  strobe_analysis_context_subscribe (ctx, ROUTE_MEMORY_BATCH, "Memory", "Batch");
  strobe_analysis_context_subscribe (ctx, ROUTE_MEMORY_LIVE, "Memory", "Live");
}

static void
strobe_info_analyzer_on_metadata (StrobeAnalyzer *analyzer, const StrobeWireMetadata *metadata)
{
  StrobeInfoAnalyzer *self = STROBE_INFO_ANALYZER (analyzer);

  g_mutex_lock (&self->lock);
  /* Set once: readers keep the pointer without the lock. */
  if (!self->have_metadata)
    {
      self->metadata = *metadata;
      self->program_name = g_strndup (metadata->program_name ? metadata->program_name : "",
                                      metadata->program_name_len);
      self->command_line = g_malloc0 (metadata->command_line_len + 1);
      if (metadata->command_line_len)
        memcpy (self->command_line, metadata->command_line, metadata->command_line_len);
      self->metadata.program_name = self->program_name;
      self->metadata.program_name_len = strlen (self->program_name);
      self->metadata.command_line = self->command_line;
      /* The session's name points into the decoder's buffer too, which goes once the
       * trace is read. */
      if (metadata->session_name != NULL && metadata->session_name_len)
        {
          self->session_name = g_malloc0 (metadata->session_name_len + 1);
          memcpy (self->session_name, metadata->session_name, metadata->session_name_len);
        }
      self->metadata.session_name = self->session_name;
      self->metadata.session_name_len = self->session_name ? metadata->session_name_len : 0;
      self->have_metadata = TRUE;
      self->generation++;
    }
  g_mutex_unlock (&self->lock);
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
  ts = strobe_event_type_find_field (type, "Cycle");
  if (ts < 0)
    ts = strobe_event_type_find_field (type, "Timestamp");
  if (ts >= 0 && type->fields[ts].type != STROBE_TYPE_UINT64)
    ts = -1;
  info->time_field = ts;
  g_ptr_array_add (self->types, info);
  g_hash_table_insert (self->types_by_ptr, (gpointer) type, info);
  self->dirty = TRUE;
}

static inline void
note_time (StrobeInfoAnalyzer *self, guint64 t)
{
  /* 0 is what an unset field reads as: not a time. */
  if (t == 0)
    return;
  if (G_UNLIKELY (!self->have_time))
    {
      self->first_time = self->last_time = t;
      self->have_time = TRUE;
      return;
    }
  if (t < self->first_time)
    self->first_time = t;
  if (t > self->last_time)
    self->last_time = t;
}

/* A sink's batches count in the extent as they are walked (read with it, under the lock). */
static void
note_sink (StrobeInfoAnalyzer *self, StrobeCpuExtentSink *sink)
{
  if (self->sinks->len > 0 && g_ptr_array_index (self->sinks, self->sinks->len - 1) == sink)
    return;
  g_mutex_lock (&self->lock);
  if (!g_ptr_array_find (self->sinks, sink, NULL))
    g_ptr_array_add (self->sinks, strobe_cpu_extent_sink_ref (sink));
  g_mutex_unlock (&self->lock);
}

/* Off: a gap begins; on again: the channel's open gap ends. */
static void
note_gap (StrobeInfoAnalyzer *self, guint32 channel, gboolean on, guint64 time)
{
  if (!on)
    {
      Gap g = { channel, { time, G_MAXUINT64 } };

      g_array_append_val (self->gaps, g);
      return;
    }
  for (guint i = self->gaps->len; i-- > 0;)
    {
      Gap *g = &g_array_index (self->gaps, Gap, i);

      if (g->channel == channel)
        {
          if (g->gap.end == G_MAXUINT64)
            g->gap.end = MAX (time, g->gap.begin);
          return;
        }
    }
}

static void
strobe_info_analyzer_on_event (StrobeAnalyzer *analyzer, guint route_id, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeInfoAnalyzer *self = (StrobeInfoAnalyzer *) analyzer;
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor timestamp = STROBE_FIELD_ACCESSOR_INIT ("Timestamp");
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor enabled = STROBE_FIELD_ACCESSOR_INIT ("Enabled");
  static StrobeFieldAccessor bytes_emitted = STROBE_FIELD_ACCESSOR_INIT ("BytesEmitted");
  static StrobeFieldAccessor bytes_sent = STROBE_FIELD_ACCESSOR_INIT ("BytesSent");
  static StrobeFieldAccessor events_emitted = STROBE_FIELD_ACCESSOR_INIT ("EventsEmitted");
  static StrobeFieldAccessor events_dropped = STROBE_FIELD_ACCESSOR_INIT ("EventsDropped");
  static StrobeFieldAccessor buffer_memory = STROBE_FIELD_ACCESSOR_INIT ("BufferMemory");
  static StrobeFieldAccessor base_f = STROBE_FIELD_ACCESSOR_INIT ("Base");
  static StrobeFieldAccessor shift_f = STROBE_FIELD_ACCESSOR_INIT ("Shift");
  static StrobeFieldAccessor data_f = STROBE_FIELD_ACCESSOR_INIT ("Data");
  static StrobeFieldAccessor time_f = STROBE_FIELD_ACCESSOR_INIT ("Time");
  static StrobeFieldAccessor times_f = STROBE_FIELD_ACCESSOR_INIT ("Times");

  self->dirty = TRUE;
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
        if (info->time_field >= 0)
          note_time (self, strobe_event_get_uint_at (ev, info->time_field));
        if (ev->thread_id >= STROBE_TID_FIRST_USER)
          get_thread (self, ev->thread_id)->events++;
      }
      break;

    case ROUTE_CPU_BATCH:
      {
        gsize n = 0;
        guint8 elem = 0;
        const guint8 *p = strobe_event_get_array (ev, &data_f, &elem, &n);
        guint64 first = 0, last = 0;
        gboolean any = FALSE;

        if (ev->_extent_state == 3)
          {
            note_sink (self, ev->_extent_sink);
            break;
          }
        /* A model's walk of this batch may have left its extent on the event. */
        if (p != NULL && !strobe_cpu_batch_recall_extent (ev, &any, &first, &last))
          any = strobe_cpu_batch_time_range (strobe_event_get_uint (ev, &base_f),
                                             (guint) MIN (strobe_event_get_uint (ev, &shift_f), 63),
                                             p, n, &first, &last);
        if (any)
          {
            note_time (self, first);
            note_time (self, last);
          }
      }
      break;

    case ROUTE_MEMORY_BATCH:
      {
        gsize n = 0;
        guint8 elem = 0;
        const guint8 *p = strobe_event_get_array (ev, &times_f, &elem, &n);
        guint shift = (guint) strobe_event_get_uint (ev, &shift_f);
        guint64 first = 0, last = 0;

        if (shift < 64
            && strobe_memrec_batch_time_range (strobe_event_get_uint (ev, &time_f), p, p ? n : 0, &first, &last)
            && last <= (G_MAXUINT64 >> shift))
          {
            note_time (self, first << shift);
            note_time (self, last << shift);
          }
      }
      break;

    case ROUTE_MEMORY_LIVE:
      /* When the snapshot was taken (ticks). The blocks in it may be older: they were
       * allocated before the trace began, and show so. */
      note_time (self, strobe_event_get_uint (ev, &time_f));
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
          {
            c->toggles++;
            note_gap (self, c->id, on, strobe_event_get_uint (ev, &timestamp));
          }
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
strobe_info_analyzer_flush (StrobeAnalyzer *analyzer)
{
  StrobeInfoAnalyzer *self = STROBE_INFO_ANALYZER (analyzer);

  if (!self->dirty)
    return;
  self->dirty = FALSE;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->types->len; i++)
    {
      const TypeInfo *info = g_ptr_array_index (self->types, i);

      if (i < self->pub_types->len)
        ((StrobeInfoEventType *) g_ptr_array_index (self->pub_types, i))->count = info->pub.count;
      else
        g_ptr_array_add (self->pub_types, strobe_info_event_type_copy ((gpointer) &info->pub));
    }
  g_ptr_array_set_size (self->pub_channels, 0);
  for (guint i = 0; i < self->channels->len; i++)
    g_ptr_array_add (self->pub_channels, strobe_info_channel_copy (g_ptr_array_index (self->channels, i)));
  g_array_set_size (self->pub_gaps, 0);
  g_array_append_vals (self->pub_gaps, self->gaps->data, self->gaps->len);
  g_array_set_size (self->pub_threads, 0);
  g_array_append_vals (self->pub_threads, self->threads->data, self->threads->len);
  self->pub_stats = self->stats;
  self->pub_events = self->events;
  self->pub_have_time = self->have_time;
  self->pub_first_time = self->first_time;
  self->pub_last_time = self->last_time;
  self->generation++;
  g_mutex_unlock (&self->lock);
}

static void
strobe_info_analyzer_end (StrobeAnalyzer *analyzer, const GError *error)
{
  strobe_info_analyzer_flush (analyzer);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_info_analyzer_begin;
  iface->on_metadata = strobe_info_analyzer_on_metadata;
  iface->on_event_type = strobe_info_analyzer_on_event_type;
  iface->on_event = strobe_info_analyzer_on_event;
  iface->flush = strobe_info_analyzer_flush;
  iface->end = strobe_info_analyzer_end;
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
  gint r = g_strcmp0 (ca->name, cb->name);

  return r ? r : (ca->id > cb->id) - (ca->id < cb->id);
}

StrobeInfoAnalyzer *
strobe_info_analyzer_new (void)
{
  return g_object_new (STROBE_TYPE_INFO_ANALYZER, NULL);
}

const StrobeWireMetadata *
strobe_info_analyzer_get_metadata (StrobeInfoAnalyzer *self)
{
  gboolean have;

  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  g_mutex_lock (&self->lock);
  have = self->have_metadata;
  g_mutex_unlock (&self->lock);
  return have ? &self->metadata : NULL;
}

static GPtrArray *
dup_sorted (StrobeInfoAnalyzer *self, GPtrArray *from, GBoxedCopyFunc copy,
            GDestroyNotify free_func, GCompareFunc compare)
{
  GPtrArray *out = g_ptr_array_sized_new (from->len);

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < from->len; i++)
    g_ptr_array_add (out, copy (g_ptr_array_index (from, i)));
  g_mutex_unlock (&self->lock);
  g_ptr_array_set_free_func (out, free_func);
  g_ptr_array_sort (out, compare);
  return out;
}

GPtrArray *
strobe_info_analyzer_dup_event_types (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  return dup_sorted (self, self->pub_types, strobe_info_event_type_copy,
                     strobe_info_event_type_free, compare_types);
}

GPtrArray *
strobe_info_analyzer_dup_channels (StrobeInfoAnalyzer *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  return dup_sorted (self, self->pub_channels, strobe_info_channel_copy,
                     strobe_info_channel_free, compare_channels);
}

gboolean
strobe_info_gaps_equal (const GArray *a,
                        const GArray *b)
{
  guint n = a ? a->len : 0;

  return n == (b ? b->len : 0) && (n == 0 || memcmp (a->data, b->data, n * sizeof (StrobeInfoGap)) == 0);
}

GArray *
strobe_info_analyzer_dup_channel_gaps (StrobeInfoAnalyzer *self, const char *name)
{
  GArray *out;

  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  out = g_array_new (FALSE, FALSE, sizeof (StrobeInfoGap));
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->pub_gaps->len; i++)
    {
      const Gap *g = &g_array_index (self->pub_gaps, Gap, i);

      for (guint c = 0; c < self->pub_channels->len; c++)
        {
          const StrobeInfoChannel *ch = g_ptr_array_index (self->pub_channels, c);

          if (ch->id == g->channel && g_strcmp0 (ch->name, name) == 0)
            g_array_append_val (out, g->gap);
        }
    }
  g_mutex_unlock (&self->lock);
  return out;
}

void
strobe_info_analyzer_get_stats (StrobeInfoAnalyzer *self,
                                StrobeInfoStats    *out)
{
  g_return_if_fail (STROBE_IS_INFO_ANALYZER (self));
  g_return_if_fail (out != NULL);
  g_mutex_lock (&self->lock);
  *out = self->pub_stats;
  g_mutex_unlock (&self->lock);
}

guint64
strobe_info_analyzer_get_event_count (StrobeInfoAnalyzer *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), 0);
  g_mutex_lock (&self->lock);
  n = self->pub_events;
  g_mutex_unlock (&self->lock);
  return n;
}

guint64
strobe_info_analyzer_get_thread_events (StrobeInfoAnalyzer *self,
                                        guint16             thread_id)
{
  guint64 n = 0;

  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), 0);
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->pub_threads->len; i++)
    if (g_array_index (self->pub_threads, ThreadCount, i).id == thread_id)
      {
        n = g_array_index (self->pub_threads, ThreadCount, i).events;
        break;
      }
  g_mutex_unlock (&self->lock);
  return n;
}

gboolean
strobe_info_analyzer_get_time_range (StrobeInfoAnalyzer *self, guint64 *first, guint64 *last)
{
  gboolean have;
  guint64 f, l;

  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), FALSE);
  g_mutex_lock (&self->lock);
  have = self->pub_have_time;
  f = self->pub_first_time;
  l = self->pub_last_time;
  for (guint i = 0; i < self->sinks->len; i++)
    {
      guint64 sf, sl;

      if (strobe_cpu_extent_sink_read (self->sinks->pdata[i], &sf, &sl))
        {
          f = have ? MIN (f, sf) : sf;
          l = have ? MAX (l, sl) : sl;
          have = TRUE;
        }
    }
  g_mutex_unlock (&self->lock);
  if (first)
    *first = f;
  if (last)
    *last = l;
  return have;
}

guint64
strobe_info_analyzer_get_generation (StrobeInfoAnalyzer *self)
{
  guint64 g;

  g_return_val_if_fail (STROBE_IS_INFO_ANALYZER (self), 0);
  g_mutex_lock (&self->lock);
  g = self->generation;
  g_mutex_unlock (&self->lock);
  return g;
}

static void
strobe_info_analyzer_finalize (GObject *object)
{
  StrobeInfoAnalyzer *self = STROBE_INFO_ANALYZER (object);

  g_free (self->program_name);
  g_free (self->command_line);
  g_free (self->session_name);
  g_hash_table_unref (self->types_by_ptr);
  g_ptr_array_unref (self->types);
  g_hash_table_unref (self->thread_index);
  g_array_unref (self->threads);
  g_hash_table_unref (self->channels_by_id);
  g_ptr_array_unref (self->channels);
  g_ptr_array_unref (self->pub_types);
  g_ptr_array_unref (self->pub_channels);
  g_array_unref (self->gaps);
  g_array_unref (self->pub_gaps);
  g_array_unref (self->pub_threads);
  g_ptr_array_unref (self->sinks);
  g_mutex_clear (&self->lock);

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
  g_mutex_init (&self->lock);
  self->types = g_ptr_array_new_with_free_func (type_info_free);
  self->types_by_ptr = g_hash_table_new (NULL, NULL);
  self->threads = g_array_new (FALSE, FALSE, sizeof (ThreadCount));
  self->thread_index = g_hash_table_new (NULL, NULL);
  self->channels = g_ptr_array_new_with_free_func (strobe_info_channel_free);
  self->channels_by_id = g_hash_table_new (NULL, NULL);
  self->pub_types = g_ptr_array_new_with_free_func (strobe_info_event_type_free);
  self->pub_channels = g_ptr_array_new_with_free_func (strobe_info_channel_free);
  self->pub_threads = g_array_new (FALSE, FALSE, sizeof (ThreadCount));
  self->gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
  self->sinks = g_ptr_array_new_with_free_func (strobe_cpu_extent_sink_unref);
  self->pub_gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
}
