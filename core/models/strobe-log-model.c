/* strobe-log-model.c — log messages as 8-byte records in runs (segments) that share a
 * thread, a time base and where their arguments are; the arguments stay in the trace
 * file when there is one (strobe-log-args.c) and formatting happens on demand.
 *
 * Concurrency: one mutex guards the records, the segments, the tables and the published
 * time order. The analyzer takes it once per event; queries take it per batch of records
 * (copying the batch out) and read arguments and format outside it, so a long text
 * filter never stalls the decoder. Spec/category structs are never moved or freed while
 * the model lives, so pointers into them stay valid without the lock.
 *
 * Time order: the decoder's thread, which alone appends records, sorts what arrived since
 * its last flush and publishes a new immutable snapshot of the order (see
 * strobe-log-model-private.h) — outside the lock but for the pointer swap, so neither the
 * main thread nor a filter ever waits for a sort.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-model.h"
#include "strobe-log-model-private.h"
#include "strobe-column.h"

#include <string.h>

#include "strobe-log-filter-private.h"
#include "strobe-log-format.h"
#include "strobe-give-way.h"

#define BATCH         4096
/* The decoder's thread publishes the order at least this often: the tail it sorts takes
 * 32 bytes a message while it is sorted, and a 4 MiB slice of a file holds 200 000. */
#define PUBLISH_EVERY 65536u
/* A filter's positions are 32-bit in windows of this many, copied to 64-bit per window. */
#define FILTER_WINDOW (1u << 20)
#define CACHE_MAX     65536

enum
{
  ROUTE_CATEGORY,
  ROUTE_SPEC,
  ROUTE_MESSAGE,
};

/* One message: 8 bytes. Its thread, the high part of its time and where its arguments
 * are come from its Segment; what its site said when it arrived is its Site. */
typedef struct
{
  guint32 dt;          /* time - the segment's time_base */
  guint16 at;          /* its arguments: the segment's ref.at + this */
  guint16 site;        /* in sites; SITE_MORE: in more_sites by record index */
} Record;
G_STATIC_ASSERT (sizeof (Record) == 8);

/* Records that arrived one after another from one thread's packet (or arena chunk), with
 * times up to 2^32 ticks after the first's and arguments up to 64 KiB after its: a
 * runtime's packet of ~64 KiB makes one or two, so a segment costs well under a byte a
 * message. */
typedef struct
{
  guint32          first;       /* its first record */
  guint64          time_base;
  StrobeLogArgsRef ref;         /* its first record's arguments; thread_id: every one's */
} Segment;

/* A spec id as messages found it: its verbosity and category when it was known at their
 * arrival (0 when not: such messages stay unknown-site messages). Most programs have a
 * few hundred; past SITE_MORE of them a message keeps its own. */
typedef struct _Spec Spec;

typedef struct
{
  guint32     spec_id;
  guint32     category_id;
  guint8      verbosity;
  const Spec *spec;     /* when known at arrival: a filter's reads need no lookup */
} Site;

#define SITE_MORE G_MAXUINT16

struct _Spec
{
  StrobeLogSpecInfo pub;
  guint32           category_id;
  gboolean          has_args;
  guint64           count;      /* messages of this site */
  StrobeLogFormatPlan *plan;    /* pub.format parsed, made by the first formatting */
};
G_STATIC_ASSERT (G_STRUCT_OFFSET (Spec, pub) == 0);

struct _StrobeLogModel
{
  GObject         parent_instance;

  GMutex          lock;
  StrobeColumn   *records;          /* Record, in arrival order */
  GArray         *sites;            /* Site */
  GHashTable     *site_ids[2];      /* spec id → site + 1, [known at arrival] */
  GHashTable     *more_sites;       /* record index → Site *, past SITE_MORE sites */
  GArray         *segments;         /* Segment, by first record */
  StrobeLogOrder *order;            /* the published time order; replaced, never changed */
  StrobeLogArgs  *args;             /* the arguments: in the file, or an arena */
  char           *file;             /* the decoder's source file, once a message named it */
  const char     *file_seen;        /* the decoder's own string for it: one compare, not a
                                     * strcmp, a message */
  StrobeLogMessageLayout message_layout;  /* the decoder's thread's */
  gboolean        file_usable;      /* strobe_log_args_use_file took it */
  GHashTable     *specs;            /* id → Spec *: ids come from the trace, so a map, never
                                     * an array as long as the largest id */
  GHashTable     *categories;       /* id → StrobeLogCategoryInfo * */
  GHashTable     *cache;            /* record index → formatted text */
  GArray         *thread_counts;    /* guint64 by thread id */
  guint64         unknown_count;    /* messages whose site was unknown when they arrived */
  guint64         format_errors;
  guint64         generation;       /* bumped by every change */
  /* The last sites messages named, by spec id: a spec once known and its site never
   * change, and two hash lookups a message were a tenth of loading a log. Decoder's
   * thread only. */
  struct { guint32 spec_id; guint16 site; Spec *spec; } hot[64];
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

/* The segment of record @rec: the last whose first record is at or before it. Under the
 * lock, or on the decoder's thread. */
static const Segment *
segment_of (StrobeLogModel *self, guint32 rec)
{
  const Segment *v = (const Segment *) (void *) self->segments->data;
  guint lo = 0, hi = self->segments->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (v[mid].first <= rec)
        lo = mid + 1;
      else
        hi = mid;
    }
  return &v[lo - 1];
}

/* The last segments a walk in time order found: consecutive positions are mostly in
 * one of a few threads' current segments, and a binary search over a hundred thousand
 * segments per message was a fifth of a text filter's reading. */
typedef struct
{
  guint slot[4];   /* segment indexes + 1; 0: empty */
  guint next;
} SegmentHint;

/* segment_of, looking in @hint first (and remembering what it found). Under the lock. */
static const Segment *
segment_hinted (StrobeLogModel *self, guint32 rec, SegmentHint *hint)
{
  const Segment *v = (const Segment *) (void *) self->segments->data;
  guint n = self->segments->len;
  const Segment *found;

  for (guint i = 0; i < G_N_ELEMENTS (hint->slot); i++)
    {
      guint k = hint->slot[i];

      if (k != 0 && k <= n && v[k - 1].first <= rec && (k == n || v[k].first > rec))
        return &v[k - 1];
    }
  found = segment_of (self, rec);
  hint->slot[hint->next] = (guint) (found - v) + 1;
  hint->next = (hint->next + 1) % G_N_ELEMENTS (hint->slot);
  return found;
}

static inline guint64
time_of (StrobeLogModel *self, guint32 rec)
{
  return segment_of (self, rec)->time_base + g_array_index (self->records, Record, rec).dt;
}

/* A (time, record) pair of the tail being sorted. */
typedef struct
{
  guint64 time;
  guint32 record;
} Pair;

static inline gboolean
pair_le (const Pair *a, const Pair *b)
{
  return a->time < b->time || (a->time == b->time && a->record <= b->record);
}

/* Sorts by (time, record). The tail is made of runs already in order (one per packet of
 * each thread), so this merges runs: one pass when the program logs from one thread. */
static void
sort_pairs (Pair *v, gsize k)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree Pair *buf = NULL;
  Pair *src = v, *dst;
  gsize zero = 0;

  g_array_append_val (runs, zero);
  for (gsize i = 1; i < k; i++)
    if (!pair_le (&v[i - 1], &v[i]))
      g_array_append_val (runs, i);
  if (runs->len <= 1)
    return;
  buf = g_new (Pair, k);
  dst = buf;
  g_array_append_val (runs, k);   /* the end sentinel */
  while (runs->len > 2)
    {
      guint out = 0;

      for (guint r = 0; r + 1 < runs->len; r += 2)
        {
          gsize lo = g_array_index (runs, gsize, r);
          gsize mid = g_array_index (runs, gsize, r + 1);
          gsize hi = r + 2 < runs->len ? g_array_index (runs, gsize, r + 2) : mid;
          gsize i = lo, j = mid, w = lo;

          while (i < mid && j < hi)
            dst[w++] = pair_le (&src[i], &src[j]) ? src[i++] : src[j++];
          while (i < mid)
            dst[w++] = src[i++];
          while (j < hi)
            dst[w++] = src[j++];
          g_array_index (runs, gsize, out++) = lo;
        }
      g_array_index (runs, gsize, out++) = k;
      g_array_set_size (runs, out);
      {
        Pair *t = src;
        src = dst;
        dst = t;
      }
    }
  if (src != v)
    memcpy (v, src, k * sizeof *v);
}

/* Decoder thread only (it alone appends records, so it reads them without the lock):
 * sorts the records that arrived since the last snapshot and publishes the next one. */
static void
publish_order (StrobeLogModel *self)
{
  const Record *r = (const Record *) (void *) self->records->data;
  StrobeLogOrder *old = self->order, *next;
  guint64 m = old->n, n = self->records->len, k = n - m, p, lo, hi, w, i, j;
  g_autofree Pair *tail = NULL;
  const Segment *seg, *seg_end;
  guint c0;

  if (k == 0)
    return;
  tail = g_new (Pair, k);
  seg = segment_of (self, (guint32) m);
  seg_end = (const Segment *) (void *) self->segments->data + self->segments->len;
  for (guint64 t = 0; t < k; t++)
    {
      while (seg + 1 < seg_end && seg[1].first <= m + t)
        seg++;
      tail[t].time = seg->time_base + r[m + t].dt;
      tail[t].record = (guint32) (m + t);
    }
  sort_pairs (tail, k);

  /* Where the tail starts to interleave: the first position whose time is later than the
   * tail's first (an equal time stays first: it arrived first). */
  lo = 0;
  hi = m;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (time_of (self, strobe_log_order_get (old, mid)) <= tail[0].time)
        lo = mid + 1;
      else
        hi = mid;
    }
  p = lo;

  next = strobe_log_order_new (n);
  c0 = (guint) (p / STROBE_LOG_ORDER_CHUNK);
  strobe_log_order_share (next, old, c0);
  w = (guint64) c0 * STROBE_LOG_ORDER_CHUNK;
  for (i = w; i < p; i++)
    strobe_log_order_put (next, w++, strobe_log_order_get (old, i));
  j = 0;
  while (i < m && j < k)
    {
      guint32 a = strobe_log_order_get (old, i);

      if (time_of (self, a) <= tail[j].time)
        {
          strobe_log_order_put (next, w++, a);
          i++;
        }
      else
        strobe_log_order_put (next, w++, tail[j++].record);
    }
  for (; i < m; i++)
    strobe_log_order_put (next, w++, strobe_log_order_get (old, i));
  for (; j < k; j++)
    strobe_log_order_put (next, w++, tail[j].record);
  g_assert (w == n);

  g_mutex_lock (&self->lock);
  self->order = next;
  /* Readers learn of the messages when they are in order, not when they arrived. */
  self->generation++;
  g_mutex_unlock (&self->lock);
  strobe_log_order_unref (old);
}

StrobeLogOrder *
strobe_log_model_ref_order (StrobeLogModel *self)
{
  StrobeLogOrder *o;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), NULL);
  g_mutex_lock (&self->lock);
  o = strobe_log_order_ref (self->order);
  g_mutex_unlock (&self->lock);
  return o;
}

/* ---- building ------------------------------------------------------------------- */

static void
strobe_log_model_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_CATEGORY, "Logging", "LogCategory");
  strobe_analysis_context_subscribe (ctx, ROUTE_SPEC, "Logging", "LogMessageSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_MESSAGE, "Logging", "LogMessage");
}

/* Appends record @rec, extending the last segment when it can. Under the lock. */
static void
append_record (StrobeLogModel *self, guint64 time, const StrobeLogArgsRef *ref, guint16 site)
{
  Segment *last = self->segments->len
                  ? &g_array_index (self->segments, Segment, self->segments->len - 1) : NULL;
  Record r;

  if (last == NULL || last->ref.kind != ref->kind || last->ref.where != ref->where ||
      last->ref.thread_id != ref->thread_id || last->ref.field != ref->field ||
      ref->at < last->ref.at || ref->at - last->ref.at > G_MAXUINT16 ||
      time < last->time_base || time - last->time_base > G_MAXUINT32)
    {
      Segment next = { self->records->len, time, *ref };

      g_array_append_val (self->segments, next);
      last = &g_array_index (self->segments, Segment, self->segments->len - 1);
    }
  r.dt = (guint32) (time - last->time_base);
  r.at = (guint16) (ref->at - last->ref.at);
  r.site = site;
  STROBE_COLUMN_PUSH (self->records, Record, r);
}

/* Where the message @ev's arguments are: left in the trace file when the event says it
 * can be read again from there, copied into the arena otherwise. Under the lock. */
static void
place_args (StrobeLogModel *self, const StrobeEvent *ev, StrobeFieldAccessor *format_args,
            StrobeLogArgsRef *ref)
{
  gint field = strobe_field_accessor_resolve (format_args, ev);
  const char *file = NULL;
  guint64 packet = 0, at = 0;
  gsize n = 0;
  guint8 elem;
  const guint8 *args;

  /* The file holds the aux records; bytes as the arena keeps them are only the same for
   * an array of bytes. */
  if (ev->aux != NULL && field >= 0 && field < G_MAXUINT8 &&
      ev->type->fields[field].size == 1 &&
      strobe_event_get_origin (ev, ev->aux, &file, &packet, &at) && at <= G_MAXUINT32)
    {
      if (self->file == NULL)
        {
          self->file = g_strdup (file);
          self->file_usable = strobe_log_args_use_file (self->args, file);
        }
      if (self->file_usable && (file == self->file_seen || strcmp (file, self->file) == 0))
        {
          self->file_seen = file;
          ref->kind = STROBE_LOG_ARGS_FILE;
          ref->where = packet;
          ref->at = (guint32) at;
          ref->field = (guint8) field;
          ref->thread_id = ev->thread_id;
          return;
        }
    }
  args = strobe_event_get_array (ev, format_args, &elem, &n);
  strobe_log_args_put (self->args, args, n, ref);
  ref->thread_id = ev->thread_id;
}

static const Site *
site_of (StrobeLogModel *self, guint32 rec, const Record *r)
{
  if (G_LIKELY (r->site != SITE_MORE))
    return &g_array_index (self->sites, Site, r->site);
  return g_hash_table_lookup (self->more_sites, GUINT_TO_POINTER (rec));
}

/* The site of a message arriving now as record @rec. Under the lock. */
static guint16
site_for (StrobeLogModel *self, guint32 rec, guint32 spec_id, const Spec *spec)
{
  GHashTable *ids = self->site_ids[spec != NULL];
  guint site = GPOINTER_TO_UINT (g_hash_table_lookup (ids, GUINT_TO_POINTER (spec_id)));
  Site s = { spec_id, spec ? spec->category_id : 0, spec ? spec->pub.verbosity : 0, spec };

  if (site)
    return (guint16) (site - 1);
  if (self->sites->len < SITE_MORE)
    {
      g_array_append_val (self->sites, s);
      g_hash_table_insert (ids, GUINT_TO_POINTER (spec_id), GUINT_TO_POINTER (self->sites->len));
      return (guint16) (self->sites->len - 1);
    }
  g_hash_table_insert (self->more_sites, GUINT_TO_POINTER (rec), g_memdup2 (&s, sizeof s));
  return SITE_MORE;
}

/* A LogMessageSpec's fields: the model and the tally (strobe-log-tally.c) read them alike.
 * File and format are newly allocated, "" when the event has none. */
void
strobe_log_spec_info_read (const StrobeEvent *ev, StrobeLogSpecInfo *info, guint32 *category_id)
{
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor category = STROBE_FIELD_ACCESSOR_INIT ("CategoryId");
  static StrobeFieldAccessor line = STROBE_FIELD_ACCESSOR_INIT ("Line");
  static StrobeFieldAccessor verbosity = STROBE_FIELD_ACCESSOR_INIT ("Verbosity");
  static StrobeFieldAccessor file = STROBE_FIELD_ACCESSOR_INIT ("File");
  static StrobeFieldAccessor format_string = STROBE_FIELD_ACCESSOR_INIT ("FormatString");

  info->id = (guint32) strobe_event_get_uint (ev, &id);
  *category_id = (guint32) strobe_event_get_uint (ev, &category);
  info->line = (gint32) strobe_event_get_int (ev, &line);
  info->verbosity = (guint8) strobe_event_get_uint (ev, &verbosity);
  info->file = strobe_event_get_string (ev, &file);
  info->format = strobe_event_get_string (ev, &format_string);
  if (info->file == NULL)
    info->file = g_strdup ("");
  if (info->format == NULL)
    info->format = g_strdup ("");
}

void
strobe_log_message_layout_learn (StrobeLogMessageLayout *layout, const StrobeEventType *type)
{
  gint c = strobe_event_type_find_field (type, "Cycle");
  gint s = strobe_event_type_find_field (type, "SpecId");
  const StrobeEventField *f = type->fields;

  layout->type = type;
  layout->direct = c >= 0 && s >= 0 &&
                   f[c].type == STROBE_TYPE_UINT64 && f[c].size == 8 && f[c].offset + 8u <= type->payload_size &&
                   f[s].type == STROBE_TYPE_UINT32 && f[s].size == 4 && f[s].offset + 4u <= type->payload_size;
  layout->cycle_at = layout->direct ? f[c].offset : 0;
  layout->spec_at = layout->direct ? f[s].offset : 0;
}

static void
strobe_log_model_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor format_args = STROBE_FIELD_ACCESSOR_INIT ("FormatArgs");
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor default_verbosity = STROBE_FIELD_ACCESSOR_INIT ("DefaultVerbosity");
  /* Not STROBE_LOG_MODEL (): a type check an event was 2 % of a load. */
  StrobeLogModel *self = (StrobeLogModel *) analyzer;

  switch (route)
    {
    case ROUTE_MESSAGE:
      {
        guint32 sid;
        guint64 time;
        StrobeLogArgsRef ref;
        guint32 rec;
        guint16 site;
        Spec *spec;

        strobe_log_message_read (&self->message_layout, ev, &sid, &time);
        g_mutex_lock (&self->lock);
        rec = self->records->len;
        if (self->hot[sid % G_N_ELEMENTS (self->hot)].spec != NULL &&
            self->hot[sid % G_N_ELEMENTS (self->hot)].spec_id == sid)
          {
            spec = self->hot[sid % G_N_ELEMENTS (self->hot)].spec;
            site = self->hot[sid % G_N_ELEMENTS (self->hot)].site;
            spec->count++;
          }
        else
          {
            spec = g_hash_table_lookup (self->specs, GUINT_TO_POINTER (sid));
            if (spec)
              spec->count++;
            else
              {
                self->format_errors++;
                self->unknown_count++;
              }
            site = site_for (self, rec, sid, spec);
            if (spec != NULL && site != SITE_MORE)
              {
                self->hot[sid % G_N_ELEMENTS (self->hot)].spec_id = sid;
                self->hot[sid % G_N_ELEMENTS (self->hot)].site = site;
                self->hot[sid % G_N_ELEMENTS (self->hot)].spec = spec;
              }
          }
        if (ev->thread_id >= self->thread_counts->len)
          g_array_set_size (self->thread_counts, ev->thread_id + 1u);
        g_array_index (self->thread_counts, guint64, ev->thread_id)++;
        place_args (self, ev, &format_args, &ref);
        append_record (self, time, &ref, site);
        self->generation++;
        g_mutex_unlock (&self->lock);
        /* The decoder's thread alone appends and publishes: no lock to read these. */
        if (self->records->len - self->order->n >= PUBLISH_EVERY)
          publish_order (self);
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

        strobe_log_spec_info_read (ev, &s->pub, &s->category_id);
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
strobe_log_model_flush (StrobeAnalyzer *analyzer)
{
  publish_order (STROBE_LOG_MODEL (analyzer));
}

static void
strobe_log_model_end (StrobeAnalyzer *analyzer, const GError *error)
{
  publish_order (STROBE_LOG_MODEL (analyzer));
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_log_model_begin;
  iface->on_event = strobe_log_model_on_event;
  iface->flush = strobe_log_model_flush;
  iface->end = strobe_log_model_end;
}

/* ---- reading ------------------------------------------------------------------- */

static const Spec *
spec_locked (StrobeLogModel *self, guint32 id)
{
  return g_hash_table_lookup (self->specs, GUINT_TO_POINTER (id));
}

static void
entry_locked (StrobeLogModel *self, const StrobeLogOrder *order, guint64 position, StrobeLogEntry *e,
              SegmentHint *hint)
{
  guint32 rec = strobe_log_order_get (order, position);
  const Record *r = &g_array_index (self->records, Record, rec);
  const Site *site = site_of (self, rec, r);
  const Spec *spec = site->spec ? site->spec : spec_locked (self, site->spec_id);
  const Segment *seg = segment_hinted (self, rec, hint);

  e->time = seg->time_base + r->dt;
  e->position = position;
  e->record = rec;
  e->spec_id = site->spec_id;
  e->category_id = site->category_id;
  e->spec = spec ? &spec->pub : NULL;
  e->thread_id = seg->ref.thread_id;
  e->verbosity = site->verbosity;
  e->_model = self;
  e->_args = seg->ref;
  e->_args.at += r->at;
}

guint
strobe_log_model_read (StrobeLogModel       *self,
                       const StrobeLogOrder *order,
                       guint64               from,
                       guint                 n,
                       StrobeLogEntry       *out)
{
  SegmentHint hint = { { 0 }, 0 };
  guint got = 0;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  g_return_val_if_fail (order != NULL, 0);
  if (from >= order->n)
    return 0;
  n = (guint) MIN ((guint64) n, order->n - from);
  g_mutex_lock (&self->lock);
  for (; got < n; got++)
    entry_locked (self, order, from + got, &out[got], &hint);
  g_mutex_unlock (&self->lock);
  return got;
}

guint64
strobe_log_model_lower_bound (StrobeLogModel       *self,
                              const StrobeLogOrder *order,
                              guint64               time,
                              guint32               record)
{
  guint64 lo = 0, hi;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  g_return_val_if_fail (order != NULL, 0);
  hi = order->n;
  g_mutex_lock (&self->lock);
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      guint32 rec = strobe_log_order_get (order, mid);
      guint64 t = time_of (self, rec);

      if (t < time || (t == time && rec < record))
        lo = mid + 1;
      else
        hi = mid;
    }
  g_mutex_unlock (&self->lock);
  return lo;
}

gboolean
strobe_log_model_get_args (const StrobeLogEntry *e,
                           GByteArray           *out,
                           const char          **why)
{
  const char *reason = NULL;
  gboolean ok;

  g_return_val_if_fail (e != NULL && out != NULL, FALSE);
  g_return_val_if_fail (STROBE_IS_LOG_MODEL (e->_model), FALSE);
  ok = strobe_log_args_read (e->_model->args, &e->_args, out, &reason);
  if (why)
    *why = reason;
  return ok;
}

/* The site's format parsed once: finding the conversions again for each of a hundred
 * million messages was a tenth of a text filter. Specs are never freed before the
 * model, so the plan lives as long; two threads may make one at once, one keeps it. */
static const StrobeLogFormatPlan *
spec_plan (const StrobeLogSpecInfo *info)
{
  Spec *spec = (Spec *) info;   /* pub is its first member */
  StrobeLogFormatPlan *plan = g_atomic_pointer_get (&spec->plan);

  if (G_LIKELY (plan != NULL))
    return plan;
  plan = strobe_log_format_plan_new (info->format);
  if (!g_atomic_pointer_compare_and_exchange (&spec->plan, NULL, plan))
    {
      strobe_log_format_plan_free (plan);
      plan = g_atomic_pointer_get (&spec->plan);
    }
  return plan;
}

/* Each formatting thread's buffer for the arguments it reads. */
static GPrivate args_buffer = G_PRIVATE_INIT ((GDestroyNotify) g_byte_array_unref);

gboolean
strobe_log_model_format_entry (const StrobeLogEntry *e,
                               GString              *out)
{
  GByteArray *args;
  const char *why = NULL;

  g_return_val_if_fail (e != NULL && out != NULL, FALSE);
  g_string_truncate (out, 0);
  if (e->spec == NULL)
    {
      g_string_append_printf (out, "(unknown log site %u)", e->spec_id);
      return FALSE;
    }
  args = g_private_get (&args_buffer);
  if (args == NULL)
    g_private_set (&args_buffer, args = g_byte_array_new ());
  g_byte_array_set_size (args, 0);
  if (!strobe_log_model_get_args (e, args, &why))
    {
      g_string_append_printf (out, "(arguments unreadable: %s)", why);
      return FALSE;
    }
  return strobe_log_format_plan_apply (spec_plan (e->spec), args->data, args->len, out);
}

static char *
format_cached (StrobeLogModel *self, const StrobeLogEntry *e)
{
  GString *out;
  char *text;
  guint64 key = e->record;

  g_mutex_lock (&self->lock);
  text = g_strdup (g_hash_table_lookup (self->cache, &key));
  g_mutex_unlock (&self->lock);
  if (text)
    return text;
  out = g_string_new (NULL);
  if (!strobe_log_model_format_entry (e, out) && e->spec != NULL)
    {
      g_mutex_lock (&self->lock);
      self->format_errors++;
      g_mutex_unlock (&self->lock);
    }
  text = g_string_free (out, FALSE);
  g_mutex_lock (&self->lock);
  if (g_hash_table_size (self->cache) >= CACHE_MAX)
    g_hash_table_remove_all (self->cache);
  g_hash_table_insert (self->cache, g_memdup2 (&key, sizeof key), g_strdup (text));
  g_mutex_unlock (&self->lock);
  return text;
}

guint64
strobe_log_model_get_count (StrobeLogModel *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  g_mutex_lock (&self->lock);
  n = self->order->n;
  g_mutex_unlock (&self->lock);
  return n;
}

gboolean
strobe_log_model_get_message (StrobeLogModel *self, guint64 index, StrobeLogMessage *msg)
{
  g_autoptr(StrobeLogOrder) order = NULL;
  StrobeLogEntry e;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), FALSE);
  g_return_val_if_fail (msg != NULL, FALSE);
  order = strobe_log_model_ref_order (self);
  if (strobe_log_model_read (self, order, index, 1, &e) != 1)
    return FALSE;

  msg->index = index;
  msg->time = e.time;
  msg->thread_id = e.thread_id;
  msg->verbosity = e.verbosity;
  msg->spec = e.spec;
  msg->text = format_cached (self, &e);
  return TRUE;
}

guint
strobe_log_model_get_messages (StrobeLogModel   *self,
                               const guint64    *indexes,
                               guint             n,
                               StrobeLogMessage *out)
{
  g_autoptr(StrobeLogOrder) order = NULL;
  g_autofree StrobeLogEntry *entries = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  SegmentHint hint = { { 0 }, 0 };
  guint got = 0, errors = 0;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  g_return_val_if_fail (n == 0 || (indexes != NULL && out != NULL), 0);
  order = strobe_log_model_ref_order (self);
  entries = g_new (StrobeLogEntry, MAX (n, 1));
  g_mutex_lock (&self->lock);
  for (; got < n && indexes[got] < order->n; got++)
    entry_locked (self, order, indexes[got], &entries[got], &hint);
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < got; i++)
    {
      const StrobeLogEntry *e = &entries[i];

      out[i].index = indexes[i];
      out[i].time = e->time;
      out[i].thread_id = e->thread_id;
      out[i].verbosity = e->verbosity;
      out[i].spec = e->spec;
      /* format_cached's own text, without its cache. */
      if (!strobe_log_model_format_entry (e, text) && e->spec != NULL)
        errors++;
      out[i].text = g_strndup (text->str, text->len);
    }
  if (errors)
    {
      g_mutex_lock (&self->lock);
      self->format_errors += errors;
      g_mutex_unlock (&self->lock);
    }
  return got;
}

guint64
strobe_log_model_find_time (StrobeLogModel *self,
                            guint64         time)
{
  g_autoptr(StrobeLogOrder) order = NULL;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), 0);
  order = strobe_log_model_ref_order (self);
  return strobe_log_model_lower_bound (self, order, time, 0);
}

/* The formatted text of @e, its arguments read through @reader into @args. */
static gboolean
format_entry_with (const StrobeLogEntry *e, StrobeLogArgsReader *reader, GByteArray *args, guint64 barriers,
                   GString *out)
{
  const char *why = NULL;
  const guint8 *data = NULL;
  gsize len = 0;

  out->len = 0;
  out->str[0] = '\0';
  if (e->spec == NULL || !strobe_log_args_reader_view (reader, &e->_args, args, &data, &len, &why))
    return strobe_log_model_format_entry (e, out);   /* its own words for what failed */
  return strobe_log_format_plan_apply_masked (spec_plan (e->spec), data, len, barriers, out);
}

/* A text filter formats what it tests: its range is cut into chunks of positions that
 * the caller and up to FILTER_THREADS - 1 helper threads take in turn, each chunk's hits
 * kept apart and joined in order at the end — a hundred million messages on two cores
 * in half the time, and a thread the scheduler holds back takes fewer chunks instead of
 * holding back the rest. Below FILTER_PARALLEL_MIN positions one thread does it all. */
#define FILTER_CHUNK        16384
#define FILTER_PARALLEL_MIN (2 * FILTER_CHUNK)
#define FILTER_THREADS      4

typedef struct
{
  StrobeLogModel        *self;
  const StrobeLogOrder  *order;
  const StrobeLogFilter *f;
  guint64                from, to;
  guint                  n_chunks;
  gint                   next;        /* the next chunk to take (atomic) */
  GArray               **hits;        /* by chunk; [0] is the caller's @out */
  gboolean              *complete;    /* by chunk */
  GCancellable          *cancellable;
} FilterJob;

/* One worker: chunks until none is left, or the filter is cancelled. @scratch: the
 * caller's buffer, or NULL. */
static void
filter_run (FilterJob *job, GString *scratch)
{
  StrobeLogModel *self = job->self;
  const StrobeLogOrder *order = job->order;
  const StrobeLogFilter *f = job->f;
  g_autofree StrobeLogEntry *batch = NULL;
  g_autoptr(GString) own = NULL;
  g_autoptr(GString) fold = NULL;
  g_autoptr(GByteArray) args = NULL;
  StrobeLogArgsReader *reader = NULL;
  StrobeLogFilterPrep p;
  SegmentHint hint = { { 0 }, 0 };
  guint c;

  strobe_log_filter_prepare (&p, f);
  if (scratch == NULL)
    scratch = own = g_string_new (NULL);
  if (p.text)
    {
      fold = g_string_new (NULL);
      args = g_byte_array_new ();
      reader = strobe_log_args_reader_new (self->args);
    }
  batch = g_new (StrobeLogEntry, BATCH);

  while ((c = (guint) g_atomic_int_add (&job->next, 1)) < job->n_chunks)
    {
      guint64 chunk_from = job->from + (guint64) c * FILTER_CHUNK;
      guint64 chunk_to = MIN (job->to, chunk_from + FILTER_CHUNK);
      GArray *out = job->hits[c];

      if (g_cancellable_is_cancelled (job->cancellable))
        break;
      for (guint64 start = chunk_from; start < chunk_to; start += BATCH)
        {
          guint n = 0;
          guint64 end = MIN (chunk_to, start + BATCH);

          /* Without a text test the hits go straight into @out: room for the whole batch
           * first, one store a hit (an append call a hit was a fifth of the filter). */
          guint base = out->len, hits = 0;
          guint32 *to_out;
          const guint32 *idx = NULL;

          strobe_give_way ();
          if (!p.text)
            g_array_set_size (out, base + (guint) (end - start));
          to_out = &g_array_index (out, guint32, base);
          g_mutex_lock (&self->lock);
          for (guint64 i = start; i < end; i++)
            {
              guint32 rec;
              const Record *r;
              const Site *site;

              /* The order's chunk looked up once per chunk, not per message. */
              if (idx == NULL || i % STROBE_LOG_ORDER_CHUNK == 0)
                idx = &order->blocks[i / STROBE_LOG_ORDER_CHUNK / STROBE_LOG_ORDER_BLOCK]
                         ->chunks[i / STROBE_LOG_ORDER_CHUNK % STROBE_LOG_ORDER_BLOCK]->idx[0];
              rec = idx[i % STROBE_LOG_ORDER_CHUNK];
              r = &g_array_index (self->records, Record, rec);
              site = site_of (self, rec, r);
              /* The time range is already the positions' range; a message's packet (a
               * binary search) is looked up only for a thread filter. */
              if (!strobe_log_filter_site_pass (&p, site->verbosity, site->category_id))
                continue;
              if (p.threads && !strobe_log_filter_thread_pass (&p, segment_hinted (self, rec, &hint)->ref.thread_id))
                continue;
              if (!p.text)
                {
                  to_out[hits++] = (guint32) i;
                  continue;
                }
              entry_locked (self, order, i, &batch[n++], &hint);
            }
          g_mutex_unlock (&self->lock);
          if (!p.text)
            g_array_set_size (out, base + hits);

          for (guint k = 0; k < n; k++)
            {
              guint32 pos = (guint32) batch[k].position;

              if ((k & 511) == 511)
                strobe_give_way ();
              switch (strobe_log_filter_site_verdict (&p, &batch[k]))
                {
                case STROBE_LOG_SEARCH_NEVER:
                  continue;
                case STROBE_LOG_SEARCH_ALWAYS:
                  g_array_append_val (out, pos);
                  continue;
                case STROBE_LOG_SEARCH_MAYBE:
                default:
                  break;
                }
              format_entry_with (&batch[k], reader, args,
                                 strobe_log_filter_barriers (&p, batch[k].spec_id),
                                 scratch);
              if (p.literal && !strobe_log_search_match (p.literal, scratch->str, scratch->len, fold))
                continue;
              if (f->search && !strobe_log_search_match (f->search, scratch->str, scratch->len, fold))
                continue;
              g_array_append_val (out, pos);
            }
        }
      job->complete[c] = TRUE;
    }
  strobe_log_args_reader_free (reader);
  strobe_log_filter_prep_clear (&p);
}

static gpointer
filter_worker (gpointer job)
{
  filter_run (job, NULL);
  return NULL;
}

static guint
filter_threads (void)
{
  static gsize once;
  static guint n;

  if (g_once_init_enter (&once))
    {
      n = CLAMP (g_get_num_processors (), 1, FILTER_THREADS);
      g_once_init_leave (&once, 1);
    }
  return n;
}

gboolean
strobe_log_model_filter_order (StrobeLogModel        *self,
                               const StrobeLogOrder  *order,
                               const StrobeLogFilter *f,
                               guint64                from,
                               guint64                to,
                               GArray                *out,
                               GString               *scratch,
                               GCancellable          *cancellable)
{
  GThread *threads[FILTER_THREADS] = { NULL };
  FilterJob job;
  guint n_threads = 1;
  gboolean text, ok = TRUE;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), FALSE);
  g_return_val_if_fail (order != NULL && out != NULL, FALSE);

  to = MIN (to, order->n);
  /* Positions are in time order: a time range is a range of positions. */
  if (f != NULL && f->time_min > 0)
    from = MAX (from, strobe_log_model_lower_bound (self, order, f->time_min, 0));
  if (f != NULL && f->time_max > 0)
    to = MIN (to, strobe_log_model_lower_bound (self, order, f->time_max, G_MAXUINT32));
  if (from >= to)
    return TRUE;

  text = f != NULL && ((f->text && *f->text) || (f->search && !strobe_log_search_is_empty (f->search)));
  job = (FilterJob) {
    .self = self, .order = order, .f = f, .from = from, .to = to,
    .n_chunks = (guint) ((to - from + FILTER_CHUNK - 1) / FILTER_CHUNK),
    .cancellable = cancellable,
  };
  job.hits = g_new (GArray *, job.n_chunks);
  job.complete = g_new0 (gboolean, job.n_chunks);
  job.hits[0] = out;
  for (guint c = 1; c < job.n_chunks; c++)
    job.hits[c] = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (text && to - from >= FILTER_PARALLEL_MIN)
    n_threads = MIN (filter_threads (), job.n_chunks);
  /* A thread that cannot be made (a process at its limit) leaves its share to the others. */
  for (guint i = 1; i < n_threads; i++)
    threads[i] = g_thread_try_new ("strobe-log-filter", filter_worker, &job, NULL);
  filter_run (&job, scratch);
  for (guint i = 1; i < n_threads; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);
  /* Cancelled: what was found is still a prefix of the answer. */
  for (guint c = 0; c < job.n_chunks; c++)
    {
      if (c > 0 && ok)
        g_array_append_vals (out, job.hits[c]->data, job.hits[c]->len);
      ok = ok && job.complete[c];
      if (c > 0)
        g_array_unref (job.hits[c]);
    }
  g_free (job.hits);
  g_free (job.complete);
  return ok;
}

GArray *
strobe_log_model_filter (StrobeLogModel *self, const StrobeLogFilter *f, guint64 from, guint64 to)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) positions = NULL;
  g_autoptr(StrobeLogOrder) order = NULL;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), out);
  order = strobe_log_model_ref_order (self);
  positions = g_array_new (FALSE, FALSE, sizeof (guint32));
  to = MIN (to, order->n);
  /* In windows: the 32-bit positions of every hit and their 64-bit copy at once would
   * be half as much again as the answer. */
  for (guint64 start = from; start < to; start += FILTER_WINDOW)
    {
      guint base = out->len;

      g_array_set_size (positions, 0);
      strobe_log_model_filter_order (self, order, f, start, MIN (to, start + FILTER_WINDOW),
                                     positions, NULL, NULL);
      g_array_set_size (out, base + positions->len);
      for (guint i = 0; i < positions->len; i++)
        g_array_index (out, guint64, base + i) = g_array_index (positions, guint32, i);
    }
  return out;
}

/* ---- tables ------------------------------------------------------------------- */

void
strobe_log_model_get_memory (StrobeLogModel       *self,
                             StrobeLogModelMemory *out)
{
  g_return_if_fail (STROBE_IS_LOG_MODEL (self));
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  g_mutex_lock (&self->lock);
  out->messages = self->records->len;
  out->records = (guint64) self->records->len * sizeof (Record) + self->sites->len * sizeof (Site)
                 + (guint64) self->segments->len * sizeof (Segment)
                 + g_hash_table_size (self->more_sites) * (sizeof (Site) + 4 * sizeof (gpointer));
  out->order = (guint64) self->order->n_chunks * sizeof (StrobeLogOrderChunk) +
               self->order->n_chunks * sizeof (gpointer);
  out->arguments = strobe_log_args_get_bytes (self->args);
  out->tables = g_hash_table_size (self->specs) * (3 * sizeof (gpointer) + sizeof (Spec)) +
                g_hash_table_size (self->categories) * (sizeof (StrobeLogCategoryInfo) + 32) +
                self->thread_counts->len * sizeof (guint64) +
                g_hash_table_size (self->cache) * 128;
  g_mutex_unlock (&self->lock);
  out->total = out->records + out->order + out->arguments + out->tables;
}

static gint
compare_counts (gconstpointer a, gconstpointer b)
{
  return strobe_log_cmp_u32 (&((const StrobeLogCount *) a)->id, &((const StrobeLogCount *) b)->id);
}

GArray *
strobe_log_model_count_by_category (StrobeLogModel *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeLogCount));
  g_autoptr(GHashTable) by_id = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer key, value;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), out);
  g_mutex_lock (&self->lock);
  /* Counted as messages arrive: up to a chunk ahead of what the order holds. */
  if (self->unknown_count)
    g_hash_table_insert (by_id, GUINT_TO_POINTER (0), g_memdup2 (&self->unknown_count, sizeof (guint64)));
  g_hash_table_iter_init (&it, self->specs);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      const Spec *s = value;
      guint64 *c;

      if (s == NULL || s->count == 0)
        continue;
      c = g_hash_table_lookup (by_id, GUINT_TO_POINTER (s->category_id));
      if (c == NULL)
        g_hash_table_insert (by_id, GUINT_TO_POINTER (s->category_id), g_memdup2 (&s->count, sizeof (guint64)));
      else
        *c += s->count;
    }
  g_mutex_unlock (&self->lock);
  g_hash_table_iter_init (&it, by_id);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      StrobeLogCount c = { GPOINTER_TO_UINT (key), *(guint64 *) value };

      g_array_append_val (out, c);
      g_free (value);
    }
  g_array_sort (out, compare_counts);
  return out;
}

GArray *
strobe_log_model_count_by_thread (StrobeLogModel *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeLogCount));

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (self), out);
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->thread_counts->len; i++)
    {
      StrobeLogCount c = { i, g_array_index (self->thread_counts, guint64, i) };

      if (c.count)
        g_array_append_val (out, c);
    }
  g_mutex_unlock (&self->lock);
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
  strobe_log_format_plan_free (s->plan);
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

  strobe_column_free (self->records);
  g_array_unref (self->sites);
  g_hash_table_unref (self->site_ids[0]);
  g_hash_table_unref (self->site_ids[1]);
  g_hash_table_unref (self->more_sites);
  g_array_unref (self->segments);
  strobe_log_order_unref (self->order);
  g_array_unref (self->thread_counts);
  strobe_log_args_free (self->args);
  g_free (self->file);
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
  self->records = strobe_column_new (sizeof (Record));
  self->sites = g_array_new (FALSE, FALSE, sizeof (Site));
  self->site_ids[0] = g_hash_table_new (NULL, NULL);
  self->site_ids[1] = g_hash_table_new (NULL, NULL);
  self->more_sites = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  self->order = strobe_log_order_new (0);
  self->thread_counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  self->args = strobe_log_args_new ();
  self->specs = g_hash_table_new_full (NULL, NULL, NULL, spec_free);
  self->categories = g_hash_table_new_full (NULL, NULL, NULL, category_free);
  self->cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}
