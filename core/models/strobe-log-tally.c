/* strobe-log-tally.c — a log filter's count while the trace is decoded (see the header).
 *
 * The model's filter runs after the load: it reads each message's record under the
 * model's lock, decodes its packet again from the file and formats it — at 100 M messages
 * about 14 s of CPU after a 9 s load on one thread. Here each message is tested once, as
 * it arrives, with the arguments the decoder already has: the cheap tests and the site's
 * verdict on the decoder's thread, the formatting and the search on workers, and nothing
 * kept but the sites. The same tests in the same order as the model's filter
 * (strobe-log-model.c, filter_run), so the same messages pass.
 *
 * What differs is only when a site becomes known: the model keeps a message whose site
 * was not announced yet as an unknown-site message (verbosity 0, category 0 for the
 * cheap tests) but formats it with the site announced later, if one is. Such messages are
 * counted per site id; at the end a site still unknown gives the model's
 * "(unknown log site N)" text, tested once, and with a text test one announced late
 * makes the tally inexact (strobe_log_tally_is_exact), since its arguments are gone.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-tally.h"

#include <string.h>

#include "strobe-log-filter-private.h"
#include "strobe-log-format.h"
#include "strobe-give-way.h"
#include "strobe-log-model-private.h"
#include "strobe-stream-copy.h"

enum
{
  ROUTE_SPEC,
  ROUTE_MESSAGE,
  ROUTE_CATEGORY,
};

/* The messages to format go to worker threads in batches of their arguments: a message's
 * test is ~100 ns of formatting and searching, twice what decoding it costs, so one
 * thread behind the decoder was the whole run's length. At most BATCHES_MAX are out at a
 * time (the decoder waits for one to come back): the memory stays a few MiB. */
#define BATCH_BYTES (256u * 1024u)
#define BATCHES_MAX 8
#define WORKERS_MAX 4

/* A site as the model keeps it: the first spec of an id (never id 0). Made and read on
 * the decoder's thread; the workers read its plan and barriers, set before the first
 * batch naming it is handed over, and never changed after. */
typedef struct
{
  StrobeLogSpecInfo    pub;
  guint32              category_id;
  StrobeLogFormatPlan *plan;       /* made by the first message that needs formatting */
  guint64              barriers;
} Site;

/* A batch: items of [Site *][guint32 length][the arguments' bytes], each padded to 8. */
typedef struct
{
  guint8  *data;
  gsize    used;
  gboolean streamed;  /* written around the caches (strobe-stream-copy.h) */
} Batch;

typedef struct
{
  const Site *site;
  guint32     len;
  guint16     thread_id;
  gboolean    test;       /* the text is to be tested; else it passed already */
  guint64     time;
  guint64     arrival;    /* the message's place among all messages as they arrived */
} Item;

/* A message kept that named a site not announced (yet): its text is known at the end. */
typedef struct
{
  guint64 time;
  guint64 arrival;
  guint32 spec_id;
  guint16 thread_id;
} Unknown;

struct _StrobeLogTally
{
  GObject              parent_instance;

  StrobeLogFilter     *filter;
  StrobeLogFilterPrep  prep;
  GHashTable          *sites;      /* spec id → Site * */
  GHashTable          *unknown;    /* spec id → messages that passed the cheap tests before
                                    * their site was known (guint64 *) */
  GString             *text;
  GString             *fold;
  guint64              count;      /* the decoder's thread's; the workers' in @counted */
  guint64              counted;    /* atomic */
  gboolean             exact;
  gboolean             ended;
  StrobeLogMessageLayout layout;
  /* Where FormatArgs is in the message type, learnt with the layout: read in place too. */
  const StrobeEventType *args_type;
  gboolean             args_direct;
  guint8               args_index;
  GThreadPool         *pool;
  GAsyncQueue         *free;       /* Batch *, back from the workers */
  guint                n_batches;  /* made so far */
  Batch               *cur;
  /* The last sites messages named: a hash lookup a message was most of a count without
   * text (the model keeps the same cache). */
  struct { guint32 spec_id; Site *site; } hot[64];
  /* Keeping the messages that pass (strobe_log_tally_keep_messages). */
  gboolean             keep;
  gsize                keep_max;
  GMutex               kept_lock;
  GArray              *kept;       /* StrobeLogMessage, index = arrival until sorted */
  gsize                kept_bytes; /* under kept_lock */
  gboolean             kept_over;  /* under kept_lock: more than keep_max */
  GArray              *unknown_kept;   /* Unknown */
  guint64              arrivals;
  GHashTable          *categories; /* id → StrobeLogCategoryInfo *, for the kept messages */
  /* A survey (strobe_log_tally_new_survey): each chunk of arrivals' time range. */
  gboolean             survey;
  GArray              *chunks;     /* ChunkTimes */
  GHashTable          *early;      /* spec ids of messages that came before their site */
  guint                chunk;      /* messages in arrival order are surveyed, and streamed,
                                    * in chunks of this many */
  guint64              surveyed;   /* streaming: the messages the survey saw */
  /* Streaming the kept messages in the model's order (strobe_log_tally_stream). */
  GArray              *watermarks; /* guint64 by chunk: no message after it is earlier */
  StrobeLogTallyEmit   emit;
  gpointer             emit_data;
  GArray              *pending;    /* StrobeLogMessage, kept but not given yet */
};


typedef struct
{
  guint64 min, max, n;
} ChunkTimes;

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeLogTally, strobe_log_tally, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static void
site_free (gpointer data)
{
  Site *s = data;

  g_free ((char *) s->pub.file);
  g_free ((char *) s->pub.format);
  if (s->plan)
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

static inline gsize
pad8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

/* Both text tests on @text, as the model's filter makes them; @fold: the caller's. */
static gboolean
text_passes (StrobeLogTally *self, const GString *text, GString *fold)
{
  const StrobeLogFilterPrep *p = &self->prep;

  if (p->literal && !strobe_log_search_match (p->literal, text->str, text->len, fold))
    return FALSE;
  if (self->filter->search && !strobe_log_search_match (self->filter->search, text->str, text->len, fold))
    return FALSE;
  return TRUE;
}

/* Keeps a message that passed, its text formatted in full (the model's text). Any thread. */
static void
keep_message (StrobeLogTally *self, const Item *item, const guint8 *args, GString *text)
{
  StrobeLogMessage m = { 0 };
  gsize bytes;

  g_string_truncate (text, 0);
  strobe_log_format_plan_apply (item->site->plan, args, item->len, text);
  m.index = item->arrival;
  m.time = item->time;
  m.thread_id = item->thread_id;
  m.verbosity = item->site->pub.verbosity;
  m.spec = &item->site->pub;
  bytes = sizeof m + text->len + 1;
  g_mutex_lock (&self->kept_lock);
  if (!self->kept_over && self->kept_bytes + bytes > self->keep_max)
    self->kept_over = TRUE;
  if (!self->kept_over)
    {
      m.text = g_strndup (text->str, text->len);
      g_array_append_val (self->kept, m);
      self->kept_bytes += bytes;
    }
  g_mutex_unlock (&self->kept_lock);
}

/* A worker: formats and tests a batch's messages, then hands the batch back. */
static void
test_batch (gpointer data, gpointer user_data)
{
  Batch *b = data;
  StrobeLogTally *self = user_data;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) fold = g_string_new (NULL);
  guint64 hits = 0;
  guint n = 0;

  /* Below the decoder's thread, which feeds them and is the slower end on two cores: at
   * the same priority it waited for them (100 M messages, --grep --count: 9.6-10.0 s, 8.1-8.4
   * s with them lowered, the same CPU). */
  strobe_give_way_lower ();
  for (gsize at = 0; at < b->used;)
    {
      Item item;
      const guint8 *args;

      if ((++n & 511) == 0)
        strobe_give_way ();

      memcpy (&item, b->data + at, sizeof item);
      args = b->data + at + sizeof item;
      at += pad8 (sizeof item + item.len);
      if (item.test)
        {
          g_string_truncate (text, 0);
          strobe_log_format_plan_apply_masked (item.site->plan, args, item.len, item.site->barriers, text);
          if (!text_passes (self, text, fold))
            continue;
          hits++;
        }
      if (self->keep)
        keep_message (self, &item, args, text);
    }
  __atomic_fetch_add (&self->counted, hits, __ATOMIC_RELAXED);
  b->used = 0;
  g_async_queue_push (self->free, b);
}

static void
send_current (StrobeLogTally *self)
{
  if (self->cur == NULL)
    return;
  if (self->cur->used == 0)
    {
      g_async_queue_push (self->free, self->cur);
      self->cur = NULL;
      return;
    }
  if (self->cur->streamed)
    strobe_stream_fence ();
  g_thread_pool_push (self->pool, self->cur, NULL);
  self->cur = NULL;
}

/* Room for @need bytes in the current batch: a free one, a new one while fewer than
 * BATCHES_MAX exist, or the next to come back. */
static Batch *
batch_for (StrobeLogTally *self, gsize need)
{
  if (self->cur != NULL && BATCH_BYTES - self->cur->used >= need)
    return self->cur;
  send_current (self);
  if (self->pool == NULL)
    {
      guint workers = CLAMP (g_get_num_processors (), 1, WORKERS_MAX);

      /* Exclusive: its threads are lowered for good (test_batch). */
      self->pool = g_thread_pool_new (test_batch, self, (gint) workers, TRUE, NULL);
    }
  self->cur = g_async_queue_try_pop (self->free);
  if (self->cur == NULL && self->n_batches < BATCHES_MAX)
    {
      self->cur = g_new0 (Batch, 1);
      self->cur->data = g_malloc (BATCH_BYTES);
      self->n_batches++;
    }
  if (self->cur == NULL)
    self->cur = g_async_queue_pop (self->free);
  /* The batch was last in a worker's cache: where that is another core's, it is written
   * around the caches. */
  self->cur->streamed = strobe_cores_far ();
  return self->cur;
}

/* Every batch handed over is tested and back, kept for more. */
static void
settle_batches (StrobeLogTally *self)
{
  g_autoptr(GPtrArray) back = g_ptr_array_new ();

  send_current (self);
  for (guint i = 0; i < self->n_batches; i++)
    g_ptr_array_add (back, g_async_queue_pop (self->free));
  for (guint i = 0; i < back->len; i++)
    g_async_queue_push (self->free, back->pdata[i]);
}

/* Every batch handed over is tested and back. */
static void
drain (StrobeLogTally *self)
{
  send_current (self);
  for (guint i = 0; i < self->n_batches; i++)
    {
      Batch *b = g_async_queue_pop (self->free);

      g_free (b->data);
      g_free (b);
    }
  self->n_batches = 0;
}

static void
strobe_log_tally_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_SPEC, "Logging", "LogMessageSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_MESSAGE, "Logging", "LogMessage");
  strobe_analysis_context_subscribe (ctx, ROUTE_CATEGORY, "Logging", "LogCategory");
}

/* Every test but the text, as the model's filter makes them (its positions' range is
 * its time test; a message here is tested on its own time). */
static inline gboolean
cheap_pass (const StrobeLogFilterPrep *p, guint64 time, guint16 thread_id, guint8 verbosity, guint32 category_id)
{
  const StrobeLogFilter *f = p->f;

  if (!strobe_log_filter_site_pass (p, verbosity, category_id) || !strobe_log_filter_thread_pass (p, thread_id))
    return FALSE;
  return f == NULL || (time >= f->time_min && (f->time_max == 0 || time <= f->time_max));
}

static Site *
site_lookup (StrobeLogTally *self, guint32 sid)
{
  guint slot = sid % G_N_ELEMENTS (self->hot);
  Site *site;

  if (self->hot[slot].site != NULL && self->hot[slot].spec_id == sid)
    return self->hot[slot].site;
  site = g_hash_table_lookup (self->sites, GUINT_TO_POINTER (sid));
  if (site != NULL)
    {
      self->hot[slot].spec_id = sid;
      self->hot[slot].site = site;
    }
  return site;
}

static void
learn_args (StrobeLogTally *self, const StrobeEventType *type)
{
  gint a = strobe_event_type_find_field (type, "FormatArgs");

  self->args_type = type;
  self->args_direct = a >= 0 && a < G_MAXUINT8 && type->fields[a].type == (STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8) &&
                      type->fields[a].size == 1;
  self->args_index = self->args_direct ? (guint8) a : 0;
}

/* The message's arguments as strobe_event_get_array gives them: read in place when they
 * are the event's one aux record (a message's usual shape), through it otherwise (split
 * over several records, or another layout). */
static const guint8 *
message_args (StrobeLogTally *self, const StrobeEvent *ev, gsize *n)
{
  static StrobeFieldAccessor format_args = STROBE_FIELD_ACCESSOR_INIT ("FormatArgs");
  const gsize head = sizeof (StrobeWireAuxHeader);
  guint8 elem;

  if (G_UNLIKELY (ev->type != self->args_type))
    learn_args (self, ev->type);
  if (self->args_direct && ev->aux != NULL && ev->aux_len >= head &&
      strobe_wire_get_u16 (ev->aux) == STROBE_UID_AUX_DATA && ev->aux[2] == self->args_index)
    {
      gsize len = strobe_wire_get_u32 (ev->aux + 4), next = head + len;

      if (len <= ev->aux_len - head &&
          (next + head > ev->aux_len || strobe_wire_get_u16 (ev->aux + next) != STROBE_UID_AUX_DATA))
        {
          *n = len;
          return ev->aux + head;
        }
    }
  return strobe_event_get_array (ev, &format_args, &elem, n);
}

static gint by_time_then_arrival (gconstpointer a, gconstpointer b);

/* Gives the pending messages no message still to come sorts before (time up to
 * @watermark: one arriving later with the same time sorts after), in the model's order. */
static void
emit_up_to (StrobeLogTally *self, guint64 watermark)
{
  guint k = 0;

  g_mutex_lock (&self->kept_lock);
  g_array_append_vals (self->pending, self->kept->data, self->kept->len);
  g_array_set_size (self->kept, 0);
  self->kept_bytes = 0;
  g_mutex_unlock (&self->kept_lock);
  g_array_sort (self->pending, by_time_then_arrival);
  for (; k < self->pending->len; k++)
    {
      StrobeLogMessage *m = &g_array_index (self->pending, StrobeLogMessage, k);

      if (m->time > watermark)
        break;
      self->emit (m, self->emit_data);
      g_free (m->text);
    }
  g_array_remove_range (self->pending, 0, k);
}

/* A chunk of arrivals ended: what was kept of it (and before) that nothing later can
 * precede is given. */
static void
chunk_ended (StrobeLogTally *self, guint64 chunk)
{
  if (self->emit == NULL || chunk >= self->watermarks->len)
    return;
  settle_batches (self);
  emit_up_to (self, g_array_index (self->watermarks, guint64, chunk));
}

/* Streaming, a message of a site not announced: the survey found none announced late, so
 * its site is never announced and the model's text for it is known now. */
static void
keep_never_announced (StrobeLogTally *self, const Item *item, guint32 sid)
{
  StrobeLogMessage m = { item->arrival, item->time, item->thread_id, 0, NULL, NULL };

  g_string_printf (self->text, "(unknown log site %u)", sid);
  if (self->prep.text && !text_passes (self, self->text, self->fold))
    return;
  m.text = g_strndup (self->text->str, self->text->len);
  g_mutex_lock (&self->kept_lock);
  g_array_append_val (self->kept, m);
  g_mutex_unlock (&self->kept_lock);
}

/* Hands a message to the workers (or tests it here when its arguments outgrow a batch). */
static void
send_message (StrobeLogTally *self, const StrobeEvent *ev, Site *site, Item *item)
{
  const guint8 *args;
  gsize n = 0, need;
  Batch *b;

  if (site->plan == NULL)
    {
      site->plan = strobe_log_format_plan_new (site->pub.format);
      site->barriers = strobe_log_filter_barriers (&self->prep, site->pub.id);
    }
  /* The bytes the model would read back: the field's elements, from the file or its
   * arena alike. */
  args = message_args (self, ev, &n);
  if (n > G_MAXUINT32 - 64)
    n = 0;
  item->site = site;
  item->len = (guint32) n;
  need = pad8 (sizeof *item + n);
  /* An argument list larger than a batch is tested here. */
  if (need > BATCH_BYTES)
    {
      if (item->test)
        {
          g_string_truncate (self->text, 0);
          strobe_log_format_plan_apply_masked (site->plan, args, n, site->barriers, self->text);
          if (!text_passes (self, self->text, self->fold))
            return;
          self->count++;
        }
      if (self->keep)
        keep_message (self, item, args, self->text);
      return;
    }
  b = batch_for (self, need);
  strobe_hand_copy (b->data + b->used, item, sizeof *item, b->streamed);
  if (n)
    strobe_hand_copy (b->data + b->used + sizeof *item, args, n, b->streamed);
  b->used += need;
}

static void
on_message (StrobeLogTally *self, const StrobeEvent *ev)
{
  StrobeLogFilterPrep *p = &self->prep;
  guint32 sid;
  guint64 time;
  Site *site;
  StrobeLogEntry e = { 0 };
  Item item = { 0 };

  strobe_log_message_read (&self->layout, ev, &sid, &time);
  if (self->survey)
    {
      guint64 c = self->arrivals++ / self->chunk;
      ChunkTimes *t;

      /* A site announced after a message of it: only the model formats that message. */
      if (site_lookup (self, sid) == NULL)
        g_hash_table_add (self->early, GUINT_TO_POINTER (sid));

      if (c >= self->chunks->len)
        {
          ChunkTimes fresh = { G_MAXUINT64, 0, 0 };

          g_array_append_val (self->chunks, fresh);
        }
      t = &g_array_index (self->chunks, ChunkTimes, c);
      t->min = MIN (t->min, time);
      t->max = MAX (t->max, time);
      t->n++;
      return;
    }
  /* A file still growing: the messages the survey saw, no more (the order is known of
   * those only). */
  if (self->emit != NULL && self->arrivals >= self->surveyed)
    return;
  if (self->emit != NULL && self->arrivals > 0 && self->arrivals % self->chunk == 0)
    chunk_ended (self, self->arrivals / self->chunk - 1);
  site = site_lookup (self, sid);
  e.spec_id = sid;
  item.time = time;
  item.thread_id = ev->thread_id;
  item.arrival = self->arrivals++;

  if (site == NULL)
    {
      guint64 *later;

      if (!cheap_pass (p, time, ev->thread_id, 0, 0))
        return;
      later = g_hash_table_lookup (self->unknown, GUINT_TO_POINTER (sid));
      if (later == NULL)
        g_hash_table_insert (self->unknown, GUINT_TO_POINTER (sid), later = g_new0 (guint64, 1));
      (*later)++;
      if (self->emit != NULL)
        keep_never_announced (self, &item, sid);
      else if (self->keep)
        {
          Unknown u = { time, item.arrival, sid, ev->thread_id };

          g_array_append_val (self->unknown_kept, u);
        }
      return;
    }
  if (!cheap_pass (p, time, ev->thread_id, site->pub.verbosity, site->category_id))
    return;
  if (p->text)
    {
      e.spec = &site->pub;
      switch (strobe_log_filter_site_verdict (p, &e))
        {
        case STROBE_LOG_SEARCH_NEVER:
          return;
        case STROBE_LOG_SEARCH_ALWAYS:
          break;
        case STROBE_LOG_SEARCH_MAYBE:
        default:
          item.test = TRUE;
          break;
        }
    }
  if (!item.test)
    {
      self->count++;
      if (!self->keep)
        return;
    }
  send_message (self, ev, site, &item);
}

/* As the model keeps them: the first of an id. */
static void
on_category (StrobeLogTally *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor default_verbosity = STROBE_FIELD_ACCESSOR_INIT ("DefaultVerbosity");
  guint32 cid = (guint32) strobe_event_get_uint (ev, &id);
  StrobeLogCategoryInfo *c;

  if (g_hash_table_contains (self->categories, GUINT_TO_POINTER (cid)))
    return;
  c = g_new0 (StrobeLogCategoryInfo, 1);
  c->id = cid;
  c->name = strobe_event_get_string (ev, &name);
  if (c->name == NULL)
    c->name = g_strdup ("");
  c->default_verbosity = (guint8) strobe_event_get_uint (ev, &default_verbosity);
  g_hash_table_insert (self->categories, GUINT_TO_POINTER (cid), c);
}

static void
on_spec (StrobeLogTally *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  guint32 sid = (guint32) strobe_event_get_uint (ev, &id);
  Site *s;

  /* The first spec of an id stays, as in the model. */
  if (sid == 0 || g_hash_table_contains (self->sites, GUINT_TO_POINTER (sid)))
    return;
  s = g_new0 (Site, 1);
  strobe_log_spec_info_read (ev, &s->pub, &s->category_id);
  /* The category known when the site is announced, as the model finds it. */
  s->pub.category = g_hash_table_lookup (self->categories, GUINT_TO_POINTER (s->category_id));
  g_hash_table_insert (self->sites, GUINT_TO_POINTER (sid), s);
}

static void
strobe_log_tally_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  StrobeLogTally *self = (StrobeLogTally *) analyzer;

  if (route == ROUTE_MESSAGE)
    on_message (self, ev);
  else if (route == ROUTE_SPEC)
    on_spec (self, ev);
  else if (route == ROUTE_CATEGORY)
    on_category (self, ev);
}

static gint
by_time_then_arrival (gconstpointer a, gconstpointer b)
{
  const StrobeLogMessage *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* The messages of sites never announced, with the model's text for them, then every
 * message kept in the model's order. One whose site came later has a text only its
 * arguments give (not kept): the messages cannot be given then. */
static void
keep_unknown (StrobeLogTally *self)
{
  for (guint i = 0; i < self->unknown_kept->len && !self->kept_over; i++)
    {
      const Unknown *u = &g_array_index (self->unknown_kept, Unknown, i);
      StrobeLogMessage m = { u->arrival, u->time, u->thread_id, 0, NULL, NULL };

      if (g_hash_table_contains (self->sites, GUINT_TO_POINTER (u->spec_id)))
        {
          self->kept_over = TRUE;
          break;
        }
      g_string_printf (self->text, "(unknown log site %u)", u->spec_id);
      if (self->prep.text && !text_passes (self, self->text, self->fold))
        continue;
      m.text = g_strndup (self->text->str, self->text->len);
      g_array_append_val (self->kept, m);
    }
  g_array_sort (self->kept, by_time_then_arrival);
}

/* The messages that came before their site: the model's text for a site never announced,
 * tested once for all of them. */
static void
strobe_log_tally_end (StrobeAnalyzer *analyzer, const GError *error)
{
  StrobeLogTally *self = (StrobeLogTally *) analyzer;
  GHashTableIter iter;
  gpointer key, value;

  if (self->ended)
    return;
  self->ended = TRUE;
  drain (self);
  self->count += __atomic_load_n (&self->counted, __ATOMIC_RELAXED);
  g_hash_table_iter_init (&iter, self->unknown);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint32 sid = GPOINTER_TO_UINT (key);

      if (self->prep.text)
        {
          /* Without a text test the site's arrival values were all the model used. */
          if (g_hash_table_contains (self->sites, key))
            {
              self->exact = FALSE;
              continue;
            }
          g_string_printf (self->text, "(unknown log site %u)", sid);
          if (!text_passes (self, self->text, self->fold))
            continue;
        }
      self->count += *(guint64 *) value;
    }
  if (self->keep)
    keep_unknown (self);
  if (self->emit != NULL && !self->kept_over)
    emit_up_to (self, G_MAXUINT64);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_log_tally_begin;
  iface->on_event = strobe_log_tally_on_event;
  iface->end = strobe_log_tally_end;
}

static void
strobe_log_tally_finalize (GObject *object)
{
  StrobeLogTally *self = STROBE_LOG_TALLY (object);

  drain (self);
  if (self->pool)
    g_thread_pool_free (self->pool, FALSE, TRUE);
  g_async_queue_unref (self->free);
  strobe_log_filter_prep_clear (&self->prep);
  g_clear_pointer (&self->filter, strobe_log_filter_free);
  for (guint i = 0; i < self->kept->len; i++)
    g_free (g_array_index (self->kept, StrobeLogMessage, i).text);
  g_array_unref (self->kept);
  g_array_unref (self->unknown_kept);
  for (guint i = 0; self->pending && i < self->pending->len; i++)
    g_free (g_array_index (self->pending, StrobeLogMessage, i).text);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_pointer (&self->chunks, g_array_unref);
  g_clear_pointer (&self->early, g_hash_table_unref);
  g_clear_pointer (&self->watermarks, g_array_unref);
  g_mutex_clear (&self->kept_lock);
  g_hash_table_unref (self->sites);
  g_hash_table_unref (self->categories);
  g_hash_table_unref (self->unknown);
  g_string_free (self->text, TRUE);
  g_string_free (self->fold, TRUE);
  G_OBJECT_CLASS (strobe_log_tally_parent_class)->finalize (object);
}

static void
strobe_log_tally_class_init (StrobeLogTallyClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_log_tally_finalize;
}

static void
strobe_log_tally_init (StrobeLogTally *self)
{
  self->sites = g_hash_table_new_full (NULL, NULL, NULL, site_free);
  self->unknown = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->categories = g_hash_table_new_full (NULL, NULL, NULL, category_free);
  self->kept = g_array_new (FALSE, FALSE, sizeof (StrobeLogMessage));
  self->unknown_kept = g_array_new (FALSE, FALSE, sizeof (Unknown));
  g_mutex_init (&self->kept_lock);
  self->text = g_string_new (NULL);
  self->fold = g_string_new (NULL);
  self->free = g_async_queue_new ();
  self->exact = TRUE;
}

StrobeLogTally *
strobe_log_tally_new (const StrobeLogFilter *filter)
{
  StrobeLogTally *self = g_object_new (STROBE_TYPE_LOG_TALLY, NULL);
  StrobeLogFilter empty = { 0 };

  self->filter = strobe_log_filter_copy (filter ? filter : &empty);
  strobe_log_filter_prepare (&self->prep, self->filter);
  return self;
}

guint64
strobe_log_tally_get_count (StrobeLogTally *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_TALLY (self), 0);
  return self->count;
}

gboolean
strobe_log_tally_is_exact (StrobeLogTally *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_TALLY (self), FALSE);
  return self->exact;
}

void
strobe_log_tally_keep_messages (StrobeLogTally *self,
                                gsize           max_bytes)
{
  g_return_if_fail (STROBE_IS_LOG_TALLY (self));
  self->keep = TRUE;
  self->keep_max = max_bytes;
}

const StrobeLogMessage *
strobe_log_tally_get_messages (StrobeLogTally *self,
                               guint          *n)
{
  g_return_val_if_fail (STROBE_IS_LOG_TALLY (self), NULL);
  g_return_val_if_fail (n != NULL, NULL);

  *n = 0;
  if (!self->keep || !self->ended || self->kept_over)
    return NULL;
  static const StrobeLogMessage none[1];

  *n = self->kept->len;
  /* None kept is an answer too. */
  return *n > 0 ? (const StrobeLogMessage *) (void *) self->kept->data : none;
}

StrobeLogTally *
strobe_log_tally_new_survey (guint chunk)
{
  StrobeLogTally *self = strobe_log_tally_new (NULL);

  g_return_val_if_fail (chunk > 0, self);
  self->survey = TRUE;
  self->chunk = chunk;
  self->chunks = g_array_new (FALSE, FALSE, sizeof (ChunkTimes));
  self->early = g_hash_table_new (NULL, NULL);
  return self;
}

gboolean
strobe_log_tally_survey_order (StrobeLogTally *survey,
                               guint64         max_pending)
{
  GArray *watermarks;
  GHashTableIter iter;
  gpointer sid;
  guint n;

  g_return_val_if_fail (STROBE_IS_LOG_TALLY (survey) && survey->survey, FALSE);

  g_clear_pointer (&survey->watermarks, g_array_unref);
  g_hash_table_iter_init (&iter, survey->early);
  while (g_hash_table_iter_next (&iter, &sid, NULL))
    if (g_hash_table_contains (survey->sites, sid))
      return FALSE;
  n = survey->chunks->len;
  watermarks = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
  g_array_set_size (watermarks, n);
  /* After chunk c: the earliest time of every later chunk. */
  for (guint c = n; c-- > 0;)
    {
      guint64 min = G_MAXUINT64;

      if (c + 1 < n)
        min = MIN (g_array_index (watermarks, guint64, c + 1),
                   g_array_index (survey->chunks, ChunkTimes, c + 1).min);
      g_array_index (watermarks, guint64, c) = min;
    }
  /* At the end of chunk c the messages still waiting are at most those of chunks up to c
   * with a time past the watermark: all of such a chunk, counted whole. */
  for (guint c = 0; c < n; c++)
    {
      guint64 waiting = 0, mark = g_array_index (watermarks, guint64, c);

      for (guint k = 0; k <= c; k++)
        if (g_array_index (survey->chunks, ChunkTimes, k).max > mark)
          waiting += g_array_index (survey->chunks, ChunkTimes, k).n;
      if (waiting > max_pending)
        {
          g_array_unref (watermarks);
          return FALSE;
        }
    }
  survey->watermarks = watermarks;
  return TRUE;
}

void
strobe_log_tally_stream (StrobeLogTally     *self,
                         StrobeLogTally     *survey,
                         StrobeLogTallyEmit  emit,
                         gpointer            data)
{
  g_return_if_fail (STROBE_IS_LOG_TALLY (self));
  g_return_if_fail (STROBE_IS_LOG_TALLY (survey) && survey->watermarks != NULL && emit != NULL);

  self->keep = TRUE;
  self->keep_max = G_MAXSIZE;
  self->chunk = survey->chunk;
  self->surveyed = survey->arrivals;
  self->watermarks = g_array_ref (survey->watermarks);
  self->emit = emit;
  self->emit_data = data;
  self->pending = g_array_new (FALSE, FALSE, sizeof (StrobeLogMessage));
}

gboolean
strobe_log_tally_streamed_all (StrobeLogTally *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_TALLY (self), FALSE);
  return self->ended && self->emit != NULL && !self->kept_over;
}
