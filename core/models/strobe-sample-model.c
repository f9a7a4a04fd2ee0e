/* strobe-sample-model.c — Sampling.Status and Sampling.Batch into per-thread arrays under
 * a reader-writer lock; the sampled cost tree of any set of intervals.
 *
 * Per thread, samples are two parallel arrays (time, stack: 12 bytes a sample) and
 * context switches two more (time, kind), both in time order (the runtime never lets a
 * thread's records go back), so every query is a binary search and a walk.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-sample-model.h"

#include "strobe-analysis.h"
#include "strobe-sample-records.h"

#include <string.h>

enum
{
  ROUTE_STATUS,
  ROUTE_BATCH,
  ROUTE_USER_STACK,
};

/* A Sampling.UserStack until it is unwound: it names its sample by thread and time, and
 * comes just before the Batch that holds that sample. */
typedef struct
{
  StrobeSampleCopy copy;   /* .stack points into bytes */
  GBytes          *bytes;
  gint64           index;  /* its sample in the thread's arrays; -1 until the Batch says */
} Copy;

typedef struct
{
  guint32 system_id;
  guint16 stream_id;
  GArray *times;        /* guint64 */
  GArray *stacks;       /* guint32 */
  GArray *switch_times; /* guint64 */
  GArray *switch_kinds; /* guint8: StrobeSamplerecKind */
  guint64 first, last;
  gboolean any;
  GQueue   waiting;     /* Copy * whose sample is not read yet, in time order */
} Thread;

struct _StrobeSampleModel
{
  GObject     parent_instance;

  GRWLock     lock;
  GPtrArray  *threads;      /* Thread *, in order of first record */
  GHashTable *by_system;    /* system id → Thread * */
  GArray     *statuses;     /* StrobeSampleStatus */
  guint64     samples, lost, bad_batches;
  guint64     generation;
  GPtrArray  *copies;       /* Copy *: matched to their sample, not unwound yet */
  guint64     n_copies, n_unwound, copy_bytes;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeSampleModel, strobe_sample_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

void
strobe_sample_status_clear (StrobeSampleStatus *status)
{
  g_clear_pointer (&status->message, g_free);
}

static void
status_clear (gpointer data)
{
  strobe_sample_status_clear (data);
}

static void
copy_free (gpointer data)
{
  Copy *c = data;

  g_bytes_unref (c->bytes);
  g_free (c);
}

static void
thread_free (gpointer data)
{
  Thread *t = data;

  g_queue_clear_full (&t->waiting, copy_free);
  g_array_unref (t->times);
  g_array_unref (t->stacks);
  g_array_unref (t->switch_times);
  g_array_unref (t->switch_kinds);
  g_free (t);
}

static Thread *
get_thread (StrobeSampleModel *self, guint32 system_id)
{
  Thread *t = g_hash_table_lookup (self->by_system, GUINT_TO_POINTER (system_id));

  if (t)
    return t;
  t = g_new0 (Thread, 1);
  t->system_id = system_id;
  t->stream_id = 0;
  t->times = g_array_new (FALSE, FALSE, sizeof (guint64));
  t->stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->switch_times = g_array_new (FALSE, FALSE, sizeof (guint64));
  t->switch_kinds = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_ptr_array_add (self->threads, t);
  g_hash_table_insert (self->by_system, GUINT_TO_POINTER (system_id), t);
  return t;
}

static void
strobe_sample_model_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_STATUS, "Sampling", "Status");
  strobe_analysis_context_subscribe (ctx, ROUTE_BATCH, "Sampling", "Batch");
  strobe_analysis_context_subscribe (ctx, ROUTE_USER_STACK, "Sampling", "UserStack");
}

static void
read_user_stack (StrobeSampleModel *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor thread = STROBE_FIELD_ACCESSOR_INIT ("Thread");
  static StrobeFieldAccessor time = STROBE_FIELD_ACCESSOR_INIT ("Time");
  static StrobeFieldAccessor ip = STROBE_FIELD_ACCESSOR_INIT ("Ip");
  static StrobeFieldAccessor sp = STROBE_FIELD_ACCESSOR_INIT ("Sp");
  static StrobeFieldAccessor bp = STROBE_FIELD_ACCESSOR_INIT ("Bp");
  static StrobeFieldAccessor data = STROBE_FIELD_ACCESSOR_INIT ("Data");
  guint8 elem;
  gsize n = 0;
  const guint8 *p = strobe_event_get_array (ev, &data, &elem, &n);
  Thread *t;
  Copy *c;

  if (p == NULL || n == 0 || (elem != STROBE_TYPE_UINT8 && elem != STROBE_TYPE_INT8))
    return;
  t = get_thread (self, (guint32) strobe_event_get_uint (ev, &thread));
  c = g_new0 (Copy, 1);
  c->bytes = g_bytes_new (p, n);
  c->copy.system_id = t->system_id;
  c->copy.time = strobe_event_get_uint (ev, &time);
  c->copy.ip = strobe_event_get_uint (ev, &ip);
  c->copy.sp = strobe_event_get_uint (ev, &sp);
  c->copy.bp = strobe_event_get_uint (ev, &bp);
  c->copy.stack = g_bytes_get_data (c->bytes, &c->copy.size);
  c->index = -1;
  self->n_copies++;
  self->copy_bytes += n;
  /* Out of order (a hostile trace): it can name no sample still to come. */
  if (!g_queue_is_empty (&t->waiting) && ((Copy *) g_queue_peek_tail (&t->waiting))->copy.time > c->copy.time)
    {
      copy_free (c);
      return;
    }
  g_queue_push_tail (&t->waiting, c);
}

/* A sample of @t was just appended at @time: the waiting copy of that time is its. */
static void
match_copy (StrobeSampleModel *self, Thread *t, guint64 time)
{
  Copy *c;

  while ((c = g_queue_peek_head (&t->waiting)) != NULL && c->copy.time < time)
    copy_free (g_queue_pop_head (&t->waiting));   /* its sample was lost */
  if (c == NULL || c->copy.time != time)
    return;
  g_queue_pop_head (&t->waiting);
  c->index = (gint64) t->times->len - 1;
  g_ptr_array_add (self->copies, c);
}

static void
read_batch (StrobeSampleModel *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor thread = STROBE_FIELD_ACCESSOR_INIT ("Thread");
  static StrobeFieldAccessor base = STROBE_FIELD_ACCESSOR_INIT ("Base");
  static StrobeFieldAccessor lost = STROBE_FIELD_ACCESSOR_INIT ("Lost");
  static StrobeFieldAccessor data = STROBE_FIELD_ACCESSOR_INIT ("Data");
  guint8 elem;
  gsize n = 0;
  const guint8 *p = strobe_event_get_array (ev, &data, &elem, &n), *end;
  guint64 time = strobe_event_get_uint (ev, &base);
  guint32 system_id = (guint32) strobe_event_get_uint (ev, &thread);
  Thread *t;

  self->lost += strobe_event_get_uint (ev, &lost);
  if (p == NULL || n == 0)
    return;
  t = get_thread (self, system_id);
  for (end = p + n; p < end;)
    {
      StrobeSamplerecKind kind;
      guint32 stack;

      if (!strobe_samplerec_next (&p, end, &time, &kind, &stack))
        {
          self->bad_batches++;
          break;
        }
      /* A hostile trace may go back in time: clamp, so every array stays sorted. */
      if (t->any && time < t->last)
        time = t->last;
      if (!t->any)
        t->first = time;
      t->any = TRUE;
      t->last = time;
      if (kind == STROBE_SAMPLEREC_SAMPLE)
        {
          g_array_append_val (t->times, time);
          g_array_append_val (t->stacks, stack);
          self->samples++;
          if (!g_queue_is_empty (&t->waiting))
            match_copy (self, t, time);
        }
      else
        {
          guint8 k = (guint8) kind;
          g_array_append_val (t->switch_times, time);
          g_array_append_val (t->switch_kinds, k);
        }
    }
}

static void
strobe_sample_model_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeSampleModel *self = (StrobeSampleModel *) analyzer;
  static StrobeFieldAccessor time = STROBE_FIELD_ACCESSOR_INIT ("Time");
  static StrobeFieldAccessor mode = STROBE_FIELD_ACCESSOR_INIT ("Mode");
  static StrobeFieldAccessor flags = STROBE_FIELD_ACCESSOR_INIT ("Flags");
  static StrobeFieldAccessor frequency = STROBE_FIELD_ACCESSOR_INIT ("Frequency");
  static StrobeFieldAccessor paranoid = STROBE_FIELD_ACCESSOR_INIT ("Paranoid");
  static StrobeFieldAccessor error = STROBE_FIELD_ACCESSOR_INIT ("Error");
  static StrobeFieldAccessor message = STROBE_FIELD_ACCESSOR_INIT ("Message");

  g_rw_lock_writer_lock (&self->lock);
  switch (route)
    {
    case ROUTE_STATUS:
      {
        StrobeSampleStatus s = { 0 };
        s.time = strobe_event_get_uint (ev, &time);
        s.mode = (StrobeSampleMode) MIN (strobe_event_get_uint (ev, &mode), 255);
        s.flags = (guint) strobe_event_get_uint (ev, &flags);
        s.frequency = (guint) MIN (strobe_event_get_uint (ev, &frequency), G_MAXUINT32);
        s.paranoid = strobe_event_has_field (ev, &paranoid) ? (gint) strobe_event_get_int (ev, &paranoid)
                                                            : STROBE_SAMPLE_PARANOID_UNKNOWN;
        s.error = (gint) strobe_event_get_int (ev, &error);
        s.message = strobe_event_get_string (ev, &message);
        if (s.message == NULL)
          s.message = g_strdup ("");
        g_array_append_val (self->statuses, s);
      }
      break;
    case ROUTE_BATCH:
      read_batch (self, ev);
      break;
    case ROUTE_USER_STACK:
      read_user_stack (self, ev);
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
  iface->begin = strobe_sample_model_begin;
  iface->on_event = strobe_sample_model_on_event;
}

static void
strobe_sample_model_finalize (GObject *object)
{
  StrobeSampleModel *self = STROBE_SAMPLE_MODEL (object);

  g_ptr_array_unref (self->threads);
  g_hash_table_unref (self->by_system);
  g_array_unref (self->statuses);
  g_ptr_array_unref (self->copies);
  g_rw_lock_clear (&self->lock);
  G_OBJECT_CLASS (strobe_sample_model_parent_class)->finalize (object);
}

static void
strobe_sample_model_class_init (StrobeSampleModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_sample_model_finalize;
}

static void
strobe_sample_model_init (StrobeSampleModel *self)
{
  g_rw_lock_init (&self->lock);
  self->threads = g_ptr_array_new_with_free_func (thread_free);
  self->by_system = g_hash_table_new (NULL, NULL);
  self->statuses = g_array_new (FALSE, TRUE, sizeof (StrobeSampleStatus));
  g_array_set_clear_func (self->statuses, status_clear);
  self->copies = g_ptr_array_new_with_free_func (copy_free);
}

StrobeSampleModel *
strobe_sample_model_new (void)
{
  return g_object_new (STROBE_TYPE_SAMPLE_MODEL, NULL);
}

guint64
strobe_sample_model_get_generation (StrobeSampleModel *self)
{
  guint64 v;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), 0);
  g_rw_lock_reader_lock (&self->lock);
  v = self->generation;
  g_rw_lock_reader_unlock (&self->lock);
  return v;
}

void
strobe_sample_model_get_summary (StrobeSampleModel *self, StrobeSampleSummary *out)
{
  g_return_if_fail (STROBE_IS_SAMPLE_MODEL (self));
  g_return_if_fail (out != NULL);
  g_rw_lock_reader_lock (&self->lock);
  out->samples = self->samples;
  out->lost = self->lost;
  out->bad_batches = self->bad_batches;
  out->threads = self->threads->len;
  out->copies = self->n_copies;
  out->copy_bytes = self->copy_bytes;
  out->unwound = self->n_unwound;
  out->to_unwind = self->copies->len;
  g_rw_lock_reader_unlock (&self->lock);
}

guint
strobe_sample_model_unwind (StrobeSampleModel *self, StrobeSampleUnwindFunc func, gpointer data)
{
  guint changed = 0;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  g_rw_lock_writer_lock (&self->lock);
  for (guint i = 0; i < self->copies->len; i++)
    {
      Copy *c = g_ptr_array_index (self->copies, i);
      Thread *t = g_hash_table_lookup (self->by_system, GUINT_TO_POINTER (c->copy.system_id));
      guint32 id;

      if (t == NULL || c->index < 0 || (guint64) c->index >= t->stacks->len)
        continue;
      c->copy.chain = g_array_index (t->stacks, guint32, c->index);
      id = func (&c->copy, data);
      if (id)
        {
          g_array_index (t->stacks, guint32, c->index) = id;
          changed++;
        }
    }
  self->n_unwound += changed;
  g_ptr_array_set_size (self->copies, 0);
  if (changed)
    self->generation++;
  g_rw_lock_writer_unlock (&self->lock);
  return changed;
}

static void
status_copy (StrobeSampleStatus *to, const StrobeSampleStatus *from)
{
  *to = *from;
  to->message = g_strdup (from->message);
}

gboolean
strobe_sample_model_get_status (StrobeSampleModel *self, StrobeSampleStatus *out)
{
  gboolean found;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_rw_lock_reader_lock (&self->lock);
  found = self->statuses->len > 0;
  if (found)
    status_copy (out, &g_array_index (self->statuses, StrobeSampleStatus, self->statuses->len - 1));
  g_rw_lock_reader_unlock (&self->lock);
  return found;
}

GArray *
strobe_sample_model_get_statuses (StrobeSampleModel *self)
{
  GArray *out;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), NULL);
  out = g_array_new (FALSE, TRUE, sizeof (StrobeSampleStatus));
  g_array_set_clear_func (out, status_clear);
  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->statuses->len; i++)
    {
      StrobeSampleStatus s;
      status_copy (&s, &g_array_index (self->statuses, StrobeSampleStatus, i));
      g_array_append_val (out, s);
    }
  g_rw_lock_reader_unlock (&self->lock);
  return out;
}

GArray *
strobe_sample_model_get_threads (StrobeSampleModel *self)
{
  GArray *out;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), NULL);
  out = g_array_new (FALSE, TRUE, sizeof (StrobeSampleThread));
  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->threads->len; i++)
    {
      const Thread *t = g_ptr_array_index (self->threads, i);
      StrobeSampleThread o = {
        .system_id = t->system_id,
        .samples = t->times->len,
        .switches = t->switch_times->len,
        .first = t->first,
        .last = t->last,
      };
      g_array_append_val (out, o);
    }
  g_rw_lock_reader_unlock (&self->lock);
  return out;
}

/* The first index of sorted @times whose time is >= @t. */
static guint
lower_bound (GArray *times, guint64 t)
{
  guint lo = 0, hi = times->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (times, guint64, mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* [first, last) of @times in [@t0, @t1]. */
static void
range_of (GArray *times, guint64 t0, guint64 t1, guint *first, guint *last)
{
  *first = lower_bound (times, t0);
  *last = t1 == G_MAXUINT64 ? times->len : lower_bound (times, t1 + 1);
  if (*last < *first)
    *last = *first;
}

GArray *
strobe_sample_model_get_samples (StrobeSampleModel *self, guint32 system_id, guint64 t0, guint64 t1)
{
  GArray *out;
  Thread *t;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), NULL);
  out = g_array_new (FALSE, FALSE, sizeof (StrobeSample));
  g_rw_lock_reader_lock (&self->lock);
  t = g_hash_table_lookup (self->by_system, GUINT_TO_POINTER (system_id));
  if (t)
    {
      guint a, b;
      range_of (t->times, t0, t1, &a, &b);
      g_array_set_size (out, b - a);
      for (guint i = a; i < b; i++)
        {
          StrobeSample *s = &g_array_index (out, StrobeSample, i - a);
          s->time = g_array_index (t->times, guint64, i);
          s->stack = g_array_index (t->stacks, guint32, i);
        }
    }
  g_rw_lock_reader_unlock (&self->lock);
  return out;
}

guint64
strobe_sample_model_count (StrobeSampleModel *self, guint32 system_id, guint64 t0, guint64 t1)
{
  guint64 n = 0;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), 0);
  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->threads->len; i++)
    {
      Thread *t = g_ptr_array_index (self->threads, i);
      guint a, b;
      if (system_id && t->system_id != system_id)
        continue;
      range_of (t->times, t0, t1, &a, &b);
      n += b - a;
    }
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

void
strobe_sample_model_get_counts (StrobeSampleModel *self, guint32 system_id, guint64 t0, guint64 t1,
                                guint n, guint64 *out)
{
  g_return_if_fail (STROBE_IS_SAMPLE_MODEL (self));
  g_return_if_fail (n == 0 || out != NULL);
  memset (out, 0, n * sizeof *out);
  if (n == 0 || t1 <= t0)
    return;
  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->threads->len; i++)
    {
      Thread *t = g_ptr_array_index (self->threads, i);
      guint prev;
      if (system_id && t->system_id != system_id)
        continue;
      prev = lower_bound (t->times, t0);
      for (guint k = 0; k < n; k++)
        {
          guint64 edge = t0 + (guint64) ((double) (t1 - t0) * (k + 1) / n);
          guint next = k + 1 == n ? lower_bound (t->times, t1) : lower_bound (t->times, edge);
          out[k] += next - prev;
          prev = next;
        }
    }
  g_rw_lock_reader_unlock (&self->lock);
}

GArray *
strobe_sample_model_get_states (StrobeSampleModel *self, guint32 system_id, guint64 t0, guint64 t1)
{
  GArray *out;
  Thread *t;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), NULL);
  out = g_array_new (FALSE, FALSE, sizeof (StrobeSampleStateInterval));
  g_rw_lock_reader_lock (&self->lock);
  t = g_hash_table_lookup (self->by_system, GUINT_TO_POINTER (system_id));
  if (t && t->switch_times->len)
    {
      guint n = t->switch_times->len;
      /* The interval that contains t0 began at the last switch before it. */
      guint i = lower_bound (t->switch_times, t0);
      if (i > 0)
        i--;
      for (; i < n; i++)
        {
          guint64 begin = g_array_index (t->switch_times, guint64, i);
          guint64 end = i + 1 < n ? g_array_index (t->switch_times, guint64, i + 1) : MAX (t->last, begin);
          guint8 kind = g_array_index (t->switch_kinds, guint8, i);
          StrobeSampleStateInterval iv;

          if (begin > t1)
            break;
          if (end <= t0 || end == begin)
            continue;
          iv.begin = MAX (begin, t0);
          iv.end = MIN (end, t1);
          iv.state = kind == STROBE_SAMPLEREC_SWITCH_IN ? STROBE_SAMPLE_STATE_RUNNING
                     : kind == STROBE_SAMPLEREC_PREEMPTED ? STROBE_SAMPLE_STATE_PREEMPTED
                     : STROBE_SAMPLE_STATE_WAITING;
          /* Two switches of one kind in a row (a record lost between): one interval. */
          if (out->len && g_array_index (out, StrobeSampleStateInterval, out->len - 1).state == iv.state
              && g_array_index (out, StrobeSampleStateInterval, out->len - 1).end == iv.begin)
            g_array_index (out, StrobeSampleStateInterval, out->len - 1).end = iv.end;
          else
            g_array_append_val (out, iv);
        }
    }
  g_rw_lock_reader_unlock (&self->lock);
  return out;
}

/* ---- the sampled cost tree ------------------------------------------------------------- */

struct _StrobeSampleTree
{
  gatomicrefcount  ref;
  StrobeCostTree  *tree;
  GHashTable      *frames;   /* key → KeyFrame */
  guint64          total;
};

typedef struct
{
  StrobeMemoryFrame frame;
  guint             inline_depth;
} KeyFrame;

G_DEFINE_BOXED_TYPE (StrobeSampleTree, strobe_sample_tree, strobe_sample_tree_ref, strobe_sample_tree_unref)

StrobeSampleTree *
strobe_sample_tree_ref (StrobeSampleTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
strobe_sample_tree_unref (StrobeSampleTree *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  strobe_cost_tree_unref (self->tree);
  g_hash_table_unref (self->frames);
  g_free (self);
}

StrobeCostTree *
strobe_sample_tree_get_tree (StrobeSampleTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tree;
}

guint64
strobe_sample_tree_get_total (StrobeSampleTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->total;
}

gboolean
strobe_sample_tree_get_frame (StrobeSampleTree *self, guint64 key, StrobeMemoryFrame *frame, guint *inline_depth)
{
  KeyFrame *kf;

  g_return_val_if_fail (self != NULL, FALSE);
  kf = g_hash_table_lookup (self->frames, &key);
  if (kf == NULL)
    return FALSE;
  if (frame)
    *frame = kf->frame;
  if (inline_depth)
    *inline_depth = kf->inline_depth;
  return TRUE;
}

#define MAX_FRAMES 64
#define MAX_KEYS   (MAX_FRAMES * 8)

/* Counts per stack id over the intervals, under the read lock (one pass per interval). */
static GHashTable *
count_stacks (StrobeSampleModel *self, const StrobeSampleInterval *intervals, guint n_intervals,
              GCancellable *cancellable, guint64 *total)
{
  GHashTable *counts = g_hash_table_new (NULL, NULL);

  g_rw_lock_reader_lock (&self->lock);
  for (guint k = 0; k < n_intervals; k++)
    for (guint i = 0; i < self->threads->len; i++)
      {
        Thread *t = g_ptr_array_index (self->threads, i);
        guint a, b;

        if (intervals[k].system_id && t->system_id != intervals[k].system_id)
          continue;
        range_of (t->times, intervals[k].begin, intervals[k].end, &a, &b);
        for (guint j = a; j < b; j++)
          {
            gpointer key = GUINT_TO_POINTER (g_array_index (t->stacks, guint32, j));
            g_hash_table_insert (counts, key,
                                 GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, key)) + 1));
          }
        *total += b - a;
      }
  g_rw_lock_reader_unlock (&self->lock);
  return counts;
}

StrobeSampleTree *
strobe_sample_model_build_tree (StrobeSampleModel          *self,
                                StrobeMemoryModel          *stacks,
                                const StrobeSampleInterval *intervals,
                                guint                       n_intervals,
                                StrobeCostTreeKind          kind,
                                StrobeMemoryFrameFunc       frame_func,
                                gpointer                    frame_data,
                                GCancellable               *cancellable,
                                GError                    **error)
{
  g_autoptr (GHashTable) counts = NULL;
  g_autoptr (GHashTable) keys_of = NULL;   /* frame (address, module) → guint64[1 + n] */
  StrobeSampleTree *out;
  GHashTableIter it;
  gpointer k, v;
  guint done = 0;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (self), NULL);
  g_return_val_if_fail (stacks == NULL || STROBE_IS_MEMORY_MODEL (stacks), NULL);
  g_return_val_if_fail (intervals != NULL || n_intervals == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  out = g_new0 (StrobeSampleTree, 1);
  g_atomic_ref_count_init (&out->ref);
  out->tree = strobe_cost_tree_new (kind, 1, NULL, 0);
  out->frames = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  counts = count_stacks (self, intervals, n_intervals, cancellable, &out->total);
  keys_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  g_hash_table_iter_init (&it, counts);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      StrobeMemoryFrame frames[MAX_FRAMES];
      guint64 path[MAX_KEYS];
      guint n_frames = 0, n_keys = 0;
      guint64 value = GPOINTER_TO_SIZE (v);
      guint32 id = GPOINTER_TO_UINT (k);

      if ((++done & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          strobe_sample_tree_unref (out);
          return NULL;
        }
      if (id && stacks)
        n_frames = strobe_memory_model_get_frames (stacks, id, frames, MAX_FRAMES);
      /* Outermost first: the frames come innermost first, each frame's keys too. */
      for (guint f = n_frames; f-- > 0 && n_keys < MAX_KEYS;)
        {
          guint64 fkey = frames[f].address ^ ((guint64) frames[f].module << 56);
          guint64 *keys = g_hash_table_lookup (keys_of, &fkey);

          if (keys == NULL)
            {
              guint64 buf[8];
              guint nk = frame_func ? frame_func (&frames[f], buf, G_N_ELEMENTS (buf), frame_data) : 0;
              if (nk == 0)
                {
                  buf[0] = frames[f].address;
                  nk = 1;
                }
              keys = g_new (guint64, 1 + nk);
              keys[0] = nk;
              memcpy (keys + 1, buf, nk * sizeof *buf);
              g_hash_table_insert (keys_of, g_memdup2 (&fkey, sizeof fkey), keys);
              for (guint j = 0; j < nk; j++)
                if (!g_hash_table_contains (out->frames, &buf[j]))
                  {
                    KeyFrame *kf = g_new (KeyFrame, 1);
                    kf->frame = frames[f];
                    kf->inline_depth = j;
                    g_hash_table_insert (out->frames, g_memdup2 (&buf[j], sizeof buf[j]), kf);
                  }
            }
          /* keys are innermost first (the inlined function, then its callers). */
          for (guint j = (guint) keys[0]; j-- > 0 && n_keys < MAX_KEYS;)
            path[n_keys++] = keys[1 + j];
        }
      strobe_cost_tree_add_stack (out->tree, path, n_keys, &value);
    }
  strobe_cost_tree_trim (out->tree);
  return out;
}
