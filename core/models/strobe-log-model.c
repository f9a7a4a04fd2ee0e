/* strobe-log-model.c — log messages as 32-byte records plus their argument bytes in a
 * chunked arena that never moves; formatting happens on demand.
 *
 * Concurrency: one mutex guards the record array, the arena's chunk list and the tables.
 * The analyzer takes it once per event; queries take it per batch of records (copying
 * the batch out) and format outside it, so a long text filter never stalls the decoder.
 * Arena chunks and spec/category structs are never moved or freed while the model lives,
 * so pointers into them stay valid without the lock.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-model.h"

#include <string.h>

#include "strobe-log-format.h"

#define ARENA_CHUNK   (1u << 20)
#define BATCH         4096
#define CACHE_MAX     65536

enum
{
  ROUTE_CATEGORY,
  ROUTE_SPEC,
  ROUTE_MESSAGE,
};

typedef struct
{
  guint64 time;
  guint64 args;        /* chunk << 32 | offset in chunk */
  guint32 spec_id;
  guint32 args_len;
  guint32 category_id; /* 0 when the site is unknown */
  guint16 thread_id;
  guint8  verbosity;
  guint8  pad;
} Record;
G_STATIC_ASSERT (sizeof (Record) == 32);

typedef struct
{
  StrobeLogSpecInfo pub;
  guint32           category_id;
  gboolean          has_args;
} Spec;

struct _StrobeLogModel
{
  GObject     parent_instance;

  GMutex      lock;
  GArray     *records;          /* Record, in arrival order */
  GArray     *order;            /* guint32 record indexes in time order; may lag records */
  GPtrArray  *chunks;           /* guint8[ARENA_CHUNK] or larger, never moved */
  gsize       chunk_used;       /* in the last chunk */
  gsize       chunk_size;       /* of the last chunk */
  GHashTable *specs;            /* id → Spec *: ids come from the trace, so a map, never
                                 * an array as long as the largest id */
  GHashTable *categories;       /* id → StrobeLogCategoryInfo * */
  GHashTable *cache;            /* record index → formatted text */
  guint64     format_errors;
  guint64     generation;       /* bumped by every change */
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeLogModel, strobe_log_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static const char *const verbosity_names[] = {
  "none", "fatal", "error", "warning", "display", "log", "verbose", "very-verbose",
};

const char *
strobe_log_verbosity_name (guint8 v)
{
  return v < G_N_ELEMENTS (verbosity_names) ? verbosity_names[v] : "?";
}

guint8
strobe_log_verbosity_parse (const char *name)
{
  if (name == NULL)
    return 0;
  if (name[0] >= '1' && name[0] <= '7' && name[1] == '\0')
    return (guint8) (name[0] - '0');
  for (guint i = 1; i < G_N_ELEMENTS (verbosity_names); i++)
    if (g_ascii_strcasecmp (name, verbosity_names[i]) == 0)
      return (guint8) i;
  if (g_ascii_strcasecmp (name, "veryverbose") == 0 || g_ascii_strcasecmp (name, "very_verbose") == 0)
    return 7;
  return 0;
}

/* ---- building ------------------------------------------------------------------- */

static void
strobe_log_model_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_CATEGORY, "Logging", "LogCategory");
  strobe_analysis_context_subscribe (ctx, ROUTE_SPEC, "Logging", "LogMessageSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_MESSAGE, "Logging", "LogMessage");
}

/* Room for @len bytes in the arena; returns the packed offset. Under the lock. */
static guint64
arena_put (StrobeLogModel *self, const guint8 *data, gsize len)
{
  guint8 *chunk;

  if (self->chunks->len == 0 || self->chunk_size - self->chunk_used < len)
    {
      self->chunk_size = MAX (ARENA_CHUNK, len);
      g_ptr_array_add (self->chunks, g_malloc (self->chunk_size));
      self->chunk_used = 0;
    }
  chunk = g_ptr_array_index (self->chunks, self->chunks->len - 1);
  if (len)
    memcpy (chunk + self->chunk_used, data, len);
  self->chunk_used += len;
  return ((guint64) (self->chunks->len - 1) << 32) | (self->chunk_used - len);
}

static const guint8 *
arena_get (StrobeLogModel *self, guint64 packed)
{
  guint8 *chunk = g_ptr_array_index (self->chunks, (guint) (packed >> 32));
  return chunk + (guint32) packed;
}

static void
strobe_log_model_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor cycle = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  static StrobeFieldAccessor spec_id = STROBE_FIELD_ACCESSOR_INIT ("SpecId");
  static StrobeFieldAccessor format_args = STROBE_FIELD_ACCESSOR_INIT ("FormatArgs");
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor default_verbosity = STROBE_FIELD_ACCESSOR_INIT ("DefaultVerbosity");
  static StrobeFieldAccessor category_id = STROBE_FIELD_ACCESSOR_INIT ("CategoryId");
  static StrobeFieldAccessor line = STROBE_FIELD_ACCESSOR_INIT ("Line");
  static StrobeFieldAccessor verbosity = STROBE_FIELD_ACCESSOR_INIT ("Verbosity");
  static StrobeFieldAccessor file = STROBE_FIELD_ACCESSOR_INIT ("File");
  static StrobeFieldAccessor format_string = STROBE_FIELD_ACCESSOR_INIT ("FormatString");
  StrobeLogModel *self = STROBE_LOG_MODEL (analyzer);

  switch (route)
    {
    case ROUTE_MESSAGE:
      {
        Record r = { 0 };
        gsize n = 0;
        guint8 elem;
        const guint8 *args = strobe_event_get_array (ev, &format_args, &elem, &n);
        Spec *spec;

        r.time = strobe_event_get_uint (ev, &cycle);
        r.spec_id = (guint32) strobe_event_get_uint (ev, &spec_id);
        r.thread_id = ev->thread_id;
        r.args_len = (guint32) n;
        g_mutex_lock (&self->lock);
        spec = g_hash_table_lookup (self->specs, GUINT_TO_POINTER (r.spec_id));
        if (spec)
          {
            r.verbosity = spec->pub.verbosity;
            r.category_id = spec->category_id;
          }
        else
          self->format_errors++;
        r.args = arena_put (self, args, n);
        g_array_append_val (self->records, r);
        self->generation++;
        g_mutex_unlock (&self->lock);
      }
      break;

    case ROUTE_CATEGORY:
      {
        StrobeLogCategoryInfo *c = g_new0 (StrobeLogCategoryInfo, 1);

        c->id = (guint32) strobe_event_get_uint (ev, &id);
        /* A schema without the field gives NULL: every string the model hands out is set. */
        c->name = strobe_event_get_string (ev, &name);
        if (c->name == NULL)
          c->name = g_strdup ("");
        c->default_verbosity = (guint8) strobe_event_get_uint (ev, &default_verbosity);
        g_mutex_lock (&self->lock);
        /* Categories are never freed: a replaced one (a second trace session) leaks on
         * purpose, since specs and callers may still point at it. */
        if (!g_hash_table_contains (self->categories, GUINT_TO_POINTER (c->id)))
          g_hash_table_insert (self->categories, GUINT_TO_POINTER (c->id), c);
        else
          {
            g_free ((char *) c->name);
            g_free (c);
          }
        self->generation++;
        g_mutex_unlock (&self->lock);
      }
      break;

    case ROUTE_SPEC:
      {
        Spec *s = g_new0 (Spec, 1);

        s->pub.id = (guint32) strobe_event_get_uint (ev, &id);
        s->category_id = (guint32) strobe_event_get_uint (ev, &category_id);
        s->pub.line = (gint32) strobe_event_get_int (ev, &line);
        s->pub.verbosity = (guint8) strobe_event_get_uint (ev, &verbosity);
        s->pub.file = strobe_event_get_string (ev, &file);
        s->pub.format = strobe_event_get_string (ev, &format_string);
        if (s->pub.file == NULL)
          s->pub.file = g_strdup ("");
        if (s->pub.format == NULL)
          s->pub.format = g_strdup ("");
        g_mutex_lock (&self->lock);
        s->pub.category = g_hash_table_lookup (self->categories, GUINT_TO_POINTER (s->category_id));
        /* The first spec of an id stays: records and callers may point at it already. */
        if (s->pub.id != 0 && !g_hash_table_contains (self->specs, GUINT_TO_POINTER (s->pub.id)))
          g_hash_table_insert (self->specs, GUINT_TO_POINTER (s->pub.id), s);
        else
          {
            g_free ((char *) s->pub.file);
            g_free ((char *) s->pub.format);
            g_free (s);
          }
        self->generation++;
        g_mutex_unlock (&self->lock);
      }
      break;

    default:
      break;
    }
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_log_model_begin;
  iface->on_event = strobe_log_model_on_event;
}

/* ---- queries ------------------------------------------------------------------- */

/* A record with what formatting it needs, copied out under the lock. */
typedef struct
{
  Record        r;
  guint64       index;      /* position in time order */
  guint32       record;     /* in arrival order: the cache key */
  const Spec   *spec;
  const guint8 *args;
} Snap;

/* Messages arrive in each thread's order, but threads' packets interleave: the time-order
 * view is brought up to date when a query needs it, by sorting what arrived since the
 * last time and merging it in (O(n + k log k)). Positions are indexes into this view, so
 * a late message of another thread can shift later positions while a trace streams in. */
static const Record *sort_records;

static gint
compare_by_time (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  guint64 tx = sort_records[x].time, ty = sort_records[y].time;

  if (tx != ty)
    return tx < ty ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void
ensure_order_locked (StrobeLogModel *self)
{
  static GMutex sort_lock;
  guint m = self->order->len, n = self->records->len;
  const Record *r = (const Record *) (void *) self->records->data;
  g_autoptr(GArray) tail = NULL;
  GArray *merged;
  guint i = 0, j = 0;

  if (m == n)
    return;
  tail = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n - m);
  for (guint32 k = m; k < n; k++)
    g_array_append_val (tail, k);
  g_mutex_lock (&sort_lock);
  sort_records = r;
  g_array_sort (tail, compare_by_time);
  g_mutex_unlock (&sort_lock);
  if (m == 0 || r[g_array_index (self->order, guint32, m - 1)].time <= r[g_array_index (tail, guint32, 0)].time)
    {
      g_array_append_vals (self->order, tail->data, tail->len);
      return;
    }
  merged = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  while (i < m || j < tail->len)
    {
      guint32 a = i < m ? g_array_index (self->order, guint32, i) : G_MAXUINT32;
      guint32 b = j < tail->len ? g_array_index (tail, guint32, j) : G_MAXUINT32;
      gboolean take_a = b == G_MAXUINT32 || (a != G_MAXUINT32 && r[a].time <= r[b].time);

      guint32 v = take_a ? a : b;

      g_array_append_val (merged, v);
      if (take_a)
        i++;
      else
        j++;
    }
  g_array_unref (self->order);
  self->order = merged;
}

static const Spec *
spec_locked (StrobeLogModel *self, guint32 id)
{
  return g_hash_table_lookup (self->specs, GUINT_TO_POINTER (id));
}

static char *
format_snap (StrobeLogModel *self, const Snap *s, gboolean use_cache)
{
  GString *out;
  char *text;
  guint64 index = s->record;

  if (use_cache)
    {
      g_mutex_lock (&self->lock);
      text = g_hash_table_lookup (self->cache, &index);
      text = g_strdup (text);
      g_mutex_unlock (&self->lock);
      if (text)
        return text;
    }
  out = g_string_new (NULL);
  if (s->spec == NULL)
    g_string_append_printf (out, "(unknown log site %u)", s->r.spec_id);
  else if (!strobe_log_format (s->spec->pub.format, s->args, s->r.args_len, out))
    {
      g_mutex_lock (&self->lock);
      self->format_errors++;
      g_mutex_unlock (&self->lock);
    }
  text = g_string_free (out, FALSE);
  if (use_cache)
    {
      g_mutex_lock (&self->lock);
      if (g_hash_table_size (self->cache) >= CACHE_MAX)
        g_hash_table_remove_all (self->cache);
      g_hash_table_insert (self->cache, g_memdup2 (&index, sizeof index), g_strdup (text));
      g_mutex_unlock (&self->lock);
    }
  return text;
}

guint64
strobe_log_model_get_count (StrobeLogModel *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  g_mutex_lock (&self->lock);
  n = self->records->len;
  g_mutex_unlock (&self->lock);
  return n;
}

gboolean
strobe_log_model_get_message (StrobeLogModel *self, guint64 index, StrobeLogMessage *msg)
{
  Snap s;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), FALSE);
  g_return_val_if_fail (msg != NULL, FALSE);
  g_mutex_lock (&self->lock);
  if (index >= self->records->len)
    {
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
  ensure_order_locked (self);
  s.record = g_array_index (self->order, guint32, index);
  s.r = g_array_index (self->records, Record, s.record);
  s.spec = spec_locked (self, s.r.spec_id);
  s.args = arena_get (self, s.r.args);
  g_mutex_unlock (&self->lock);

  msg->index = index;
  msg->time = s.r.time;
  msg->thread_id = s.r.thread_id;
  msg->verbosity = s.r.verbosity;
  msg->spec = s.spec ? &s.spec->pub : NULL;
  msg->text = format_snap (self, &s, TRUE);
  return TRUE;
}

static gboolean
contains_u32 (const guint32 *v, guint n, guint32 x)
{
  for (guint i = 0; i < n; i++)
    if (v[i] == x)
      return TRUE;
  return FALSE;
}

static gboolean
contains_u16 (const guint16 *v, guint n, guint16 x)
{
  for (guint i = 0; i < n; i++)
    if (v[i] == x)
      return TRUE;
  return FALSE;
}

static gboolean
cheap_pass (const StrobeLogFilter *f, const Record *r)
{
  if (f == NULL)
    return TRUE;
  if (f->max_verbosity && r->verbosity > f->max_verbosity)
    return FALSE;
  if (f->categories && !contains_u32 (f->categories, f->n_categories, r->category_id))
    return FALSE;
  if (f->threads && !contains_u16 (f->threads, f->n_threads, r->thread_id))
    return FALSE;
  if (r->time < f->time_min || (f->time_max && r->time > f->time_max))
    return FALSE;
  return TRUE;
}

static gboolean
text_matches (const char *haystack, const char *needle, gboolean ignore_case)
{
  if (!ignore_case)
    return strstr (haystack, needle) != NULL;
  {
    g_autofree char *h = g_ascii_strdown (haystack, -1);
    g_autofree char *n = g_ascii_strdown (needle, -1);
    return strstr (h, n) != NULL;
  }
}

GArray *
strobe_log_model_filter (StrobeLogModel *self, const StrobeLogFilter *f, guint64 from, guint64 to)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  Snap *batch = g_new (Snap, BATCH);
  const char *text = f && f->text && *f->text ? f->text : NULL;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), out);
  g_mutex_lock (&self->lock);
  to = MIN (to, (guint64) self->records->len);
  ensure_order_locked (self);
  g_mutex_unlock (&self->lock);

  for (guint64 start = from; start < to; start += BATCH)
    {
      guint n = 0;
      guint64 end = MIN (to, start + BATCH);

      g_mutex_lock (&self->lock);
      for (guint64 i = start; i < end; i++)
        {
          guint32 rec = g_array_index (self->order, guint32, i);
          const Record *r = &g_array_index (self->records, Record, rec);

          if (!cheap_pass (f, r))
            continue;
          batch[n].r = *r;
          batch[n].index = i;
          batch[n].record = rec;
          batch[n].spec = spec_locked (self, r->spec_id);
          batch[n].args = arena_get (self, r->args);
          n++;
        }
      g_mutex_unlock (&self->lock);

      for (guint k = 0; k < n; k++)
        {
          guint64 index = batch[k].index;

          if (text)
            {
              g_autofree char *s = format_snap (self, &batch[k], TRUE);
              if (!text_matches (s, text, f->ignore_case))
                continue;
            }
          g_array_append_val (out, index);
        }
    }
  g_free (batch);
  return out;
}

static gint
compare_categories (gconstpointer a, gconstpointer b)
{
  const StrobeLogCategoryInfo *ca = *(const StrobeLogCategoryInfo *const *) a;
  const StrobeLogCategoryInfo *cb = *(const StrobeLogCategoryInfo *const *) b;

  return g_strcmp0 (ca->name, cb->name);
}

GPtrArray *
strobe_log_model_get_categories (StrobeLogModel *self)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter it;
  gpointer value;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), out);
  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&it, self->categories);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_ptr_array_add (out, value);
  g_mutex_unlock (&self->lock);
  g_ptr_array_sort (out, compare_categories);
  return out;
}

const StrobeLogCategoryInfo *
strobe_log_model_find_category (StrobeLogModel *self, const char *name)
{
  const StrobeLogCategoryInfo *found = NULL;
  GHashTableIter it;
  gpointer value;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), NULL);
  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&it, self->categories);
  while (found == NULL && g_hash_table_iter_next (&it, NULL, &value))
    if (g_ascii_strcasecmp (((StrobeLogCategoryInfo *) value)->name, name) == 0)
      found = value;
  g_mutex_unlock (&self->lock);
  return found;
}

guint64
strobe_log_model_get_generation (StrobeLogModel *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  g_mutex_lock (&self->lock);
  n = self->generation;
  g_mutex_unlock (&self->lock);
  return n;
}

guint64
strobe_log_model_get_format_errors (StrobeLogModel *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  g_mutex_lock (&self->lock);
  n = self->format_errors;
  g_mutex_unlock (&self->lock);
  return n;
}

/* ---- lifetime ------------------------------------------------------------------- */

StrobeLogModel *
strobe_log_model_new (void)
{
  return g_object_new (STROBE_TYPE_LOG_MODEL, NULL);
}

static void
spec_free (gpointer data)
{
  Spec *s = data;

  if (s == NULL)
    return;
  g_free ((char *) s->pub.file);
  g_free ((char *) s->pub.format);
  g_free (s);
}

static void
category_free (gpointer data)
{
  StrobeLogCategoryInfo *c = data;

  g_free ((char *) c->name);
  g_free (c);
}

static void
strobe_log_model_finalize (GObject *object)
{
  StrobeLogModel *self = STROBE_LOG_MODEL (object);

  g_array_unref (self->records);
  g_array_unref (self->order);
  g_ptr_array_unref (self->chunks);
  g_hash_table_unref (self->specs);
  g_hash_table_unref (self->categories);
  g_hash_table_unref (self->cache);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (strobe_log_model_parent_class)->finalize (object);
}

static void
strobe_log_model_class_init (StrobeLogModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_log_model_finalize;
}

static void
strobe_log_model_init (StrobeLogModel *self)
{
  g_mutex_init (&self->lock);
  self->records = g_array_new (FALSE, FALSE, sizeof (Record));
  self->order = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->chunks = g_ptr_array_new_with_free_func (g_free);
  self->specs = g_hash_table_new_full (NULL, NULL, NULL, spec_free);
  self->categories = g_hash_table_new_full (NULL, NULL, NULL, category_free);
  self->cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}
