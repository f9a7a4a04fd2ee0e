/* strobe-log-list.c — see the header.
 *
 * State: @shown is the order snapshot the list's items are positions of. Unfiltered, the
 * items are all of @shown. Filtered, @indexes holds the positions of @shown that pass, for
 * the positions below @covered that were tested.
 *
 * A job tests positions [from, n) of a newer snapshot on a worker thread; positions below
 * @from must mean the same messages in both snapshots (from <= strobe_log_order_diff) and
 * have been tested already (from <= covered). When its first results come in, the list
 * drops the items at or after @from, switches @shown to the job's snapshot and appends;
 * later results append. A filter change is a job from 0; the model growing is a job from
 * where the old and new snapshots first differ.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-list.h"

#include "strobe-log-item-private.h"
#include "strobe-log-list-private.h"
#include "strobe-log-model-private.h"

/* Positions a worker tests between two looks at its cancellable and its clock. */
#define JOB_BLOCK        65536
/* The first results of a job replace the old items once this many are found, or this
 * long after it started, or when it is done; later ones come at most this often. */
#define JOB_FIRST_ROWS   256
#define JOB_FIRST_US     (80 * 1000)
#define JOB_EVERY_US     (40 * 1000)

typedef struct
{
  gatomicrefcount  ref;
  GWeakRef         list;
  GMainContext    *context;
  StrobeLogModel  *model;
  StrobeLogOrder  *order;
  StrobeLogFilter *filter;
  guint64          from;
  GCancellable    *cancellable;

  GMutex           lock;          /* guards what follows */
  GArray          *pending;       /* guint32 positions found, not yet delivered */
  guint64          covered;       /* positions below this were tested */
  gboolean         done;
  gboolean         scheduled;     /* a delivery is queued on @context */
} Job;

struct _StrobeLogList
{
  GObject          parent_instance;

  StrobeLogModel  *model;
  GMainContext    *context;
  StrobeLogOrder  *shown;
  GArray          *indexes;       /* guint32; NULL: no filter, every message */
  guint64          covered;
  StrobeLogFilter *filter;
  Job             *job;           /* the running one, or NULL */
  gboolean         job_delivered; /* @shown is already the job's snapshot */
  guint            notified_n_items;
};

enum
{
  PROP_0,
  PROP_MODEL,
  PROP_N_ITEMS,
  PROP_TOTAL,
  PROP_FILTERING,
  PROP_PROGRESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeLogList, strobe_log_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* ---- jobs ------------------------------------------------------------------------ */

static Job *
job_ref (Job *job)
{
  g_atomic_ref_count_inc (&job->ref);
  return job;
}

static void
job_unref (gpointer data)
{
  Job *job = data;

  if (!g_atomic_ref_count_dec (&job->ref))
    return;
  g_weak_ref_clear (&job->list);
  g_main_context_unref (job->context);
  g_object_unref (job->model);
  strobe_log_order_unref (job->order);
  strobe_log_filter_free (job->filter);
  g_object_unref (job->cancellable);
  g_mutex_clear (&job->lock);
  g_array_unref (job->pending);
  g_free (job);
}

static gboolean deliver_cb (gpointer data);

/* Worker thread: hands @found over to the list's context. */
static void
job_publish (Job *job, GArray *found, guint64 covered, gboolean done)
{
  gboolean schedule;

  g_mutex_lock (&job->lock);
  g_array_append_vals (job->pending, found->data, found->len);
  job->covered = covered;
  job->done = done;
  schedule = !job->scheduled;
  job->scheduled = TRUE;
  g_mutex_unlock (&job->lock);
  g_array_set_size (found, 0);

  if (schedule)
    {
      GSource *source = g_idle_source_new ();

      /* Below redrawing: results never hold a frame back. */
      g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
      g_source_set_callback (source, deliver_cb, job_ref (job), job_unref);
      g_source_set_static_name (source, "[strobe] log list results");
      g_source_attach (source, job->context);
      g_source_unref (source);
    }
}

static void
job_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GString) scratch = g_string_new (NULL);
  gint64 start = g_get_monotonic_time (), last = start;
  gboolean delivered = FALSE;
  guint64 pos = job->from, n = job->order->n;

  while (pos < n)
    {
      guint64 end = MIN (n, pos + JOB_BLOCK);
      gint64 now;

      if (!strobe_log_model_filter_order (job->model, job->order, job->filter, pos, end, found,
                                          scratch, cancellable))
        break;
      pos = end;
      now = g_get_monotonic_time ();
      if (pos == n ||
          (delivered ? now - last >= JOB_EVERY_US
                     : found->len >= JOB_FIRST_ROWS || now - start >= JOB_FIRST_US))
        {
          job_publish (job, found, pos, pos == n);
          delivered = TRUE;
          last = now;
        }
    }
  if (job->from >= n)
    job_publish (job, found, n, TRUE);
  g_task_return_boolean (task, TRUE);
}

static void
cancel_job (StrobeLogList *self)
{
  if (self->job == NULL)
    return;
  g_cancellable_cancel (self->job->cancellable);
  g_clear_pointer (&self->job, job_unref);
}

static void
start_job (StrobeLogList  *self,
           StrobeLogOrder *order,
           guint64         from)
{
  g_autoptr(GTask) task = NULL;
  Job *job = g_new0 (Job, 1);

  g_atomic_ref_count_init (&job->ref);
  g_weak_ref_init (&job->list, self);
  job->context = g_main_context_ref (self->context);
  job->model = g_object_ref (self->model);
  job->order = strobe_log_order_ref (order);
  job->filter = strobe_log_filter_copy (self->filter);
  job->from = from;
  job->cancellable = g_cancellable_new ();
  g_mutex_init (&job->lock);
  job->pending = g_array_new (FALSE, FALSE, sizeof (guint32));
  job->covered = from;

  cancel_job (self);
  self->job = job;
  self->job_delivered = FALSE;

  task = g_task_new (NULL, job->cancellable, NULL, NULL);
  g_task_set_source_tag (task, start_job);
  g_task_set_name (task, "[strobe] log filter");
  g_task_set_task_data (task, job_ref (job), job_unref);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, job_thread);
}

/* ---- the list's state (main context) ---------------------------------------------- */

static guint
n_items (StrobeLogList *self)
{
  if (self->indexes != NULL)
    return self->indexes->len;
  return (guint) MIN (self->shown->n, (guint64) G_MAXUINT);
}

static void
emit_changed (StrobeLogList *self,
              guint          position,
              guint          removed,
              guint          added)
{
  if (removed || added)
    g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (n_items (self) != self->notified_n_items)
    {
      self->notified_n_items = n_items (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

/* The first index in @indexes whose position is >= @position. */
static guint
lower_bound_u32 (GArray *indexes, guint64 position)
{
  guint lo = 0, hi = indexes->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (indexes, guint32, mid) < position)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
set_shown (StrobeLogList *self, StrobeLogOrder *order)
{
  guint64 old = self->shown->n;

  if (self->shown == order)
    return;
  strobe_log_order_ref (order);
  strobe_log_order_unref (self->shown);
  self->shown = order;
  if (old != order->n)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL]);
}

static gboolean
deliver_cb (gpointer data)
{
  Job *job = data;
  g_autoptr(StrobeLogList) self = g_weak_ref_get (&job->list);
  g_autoptr(GArray) found = NULL;
  guint64 covered;
  gboolean done;
  guint k, removed = 0, old_n;

  g_mutex_lock (&job->lock);
  found = job->pending;
  job->pending = g_array_new (FALSE, FALSE, sizeof (guint32));
  covered = job->covered;
  done = job->done;
  job->scheduled = FALSE;
  g_mutex_unlock (&job->lock);

  if (self == NULL || self->job != job)
    return G_SOURCE_REMOVE;

  old_n = n_items (self);
  if (!self->job_delivered)
    {
      if (self->indexes == NULL)
        {
          /* Room for every position the job can find, reserved (not touched: the pages
           * of what is never found are never made): growing by doubling copied the
           * answer so far on this thread — 32 MB at once, 6.4 ms, typing a filter that
           * keeps 16.7 M of 100 M messages. */
          self->indexes = g_array_sized_new (FALSE, FALSE, sizeof (guint32),
                                             (guint) MIN (job->order->n - MIN (job->from, job->order->n),
                                                          (guint64) G_MAXUINT32 / 2));
          k = 0;
        }
      else
        {
          k = lower_bound_u32 (self->indexes, job->from);
          g_array_set_size (self->indexes, k);
        }
      removed = old_n - k;
      set_shown (self, job->order);
      self->job_delivered = TRUE;
    }
  else
    k = self->indexes->len;
  g_array_append_vals (self->indexes, found->data, found->len);
  self->covered = covered;
  if (done)
    g_clear_pointer (&self->job, job_unref);

  emit_changed (self, k, removed, found->len);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  if (done)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERING]);
  return G_SOURCE_REMOVE;
}

/* A filter's answer of 16 M positions is 64 MB: giving that many pages back to the kernel
 * took the main thread 4 ms when a filter over 100 M messages was cleared. One this big is
 * freed on a thread of its own. */
#define FREE_ON_THREAD_BYTES (4u << 20)

static gpointer
free_indexes_thread (gpointer data)
{
  g_array_unref (data);
  return NULL;
}

static void
drop_indexes (StrobeLogList *self)
{
  GArray *indexes = g_steal_pointer (&self->indexes);
  GThread *thread;

  if (indexes == NULL)
    return;
  if ((gsize) indexes->len * sizeof (guint32) < FREE_ON_THREAD_BYTES ||
      (thread = g_thread_try_new ("strobe-log-free", free_indexes_thread, indexes, NULL)) == NULL)
    {
      g_array_unref (indexes);
      return;
    }
  g_thread_unref (thread);
}

void
strobe_log_list_set_filter (StrobeLogList         *self,
                            const StrobeLogFilter *filter)
{
  g_autoptr(StrobeLogOrder) latest = NULL;
  gboolean was_filtering;

  g_return_if_fail (STROBE_IS_LOG_LIST (self));

  was_filtering = self->job != NULL;
  g_clear_pointer (&self->filter, strobe_log_filter_free);
  if (!strobe_log_filter_is_empty (filter))
    self->filter = strobe_log_filter_copy (filter);
  latest = strobe_log_model_ref_order (self->model);

  if (self->filter == NULL)
    {
      guint old_n = n_items (self);
      guint64 d = self->indexes ? 0 : strobe_log_order_diff (self->shown, latest);

      cancel_job (self);
      drop_indexes (self);
      self->covered = 0;
      set_shown (self, latest);
      if (d < old_n || n_items (self) != old_n)
        emit_changed (self, (guint) d, old_n - (guint) d, n_items (self) - (guint) d);
    }
  else
    start_job (self, latest, 0);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  if (was_filtering != (self->job != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERING]);
}

const StrobeLogFilter *
strobe_log_list_get_filter (StrobeLogList *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), NULL);
  return self->filter;
}

void
strobe_log_list_update (StrobeLogList *self)
{
  g_autoptr(StrobeLogOrder) latest = NULL;
  gboolean was_filtering;
  guint64 d, from;

  g_return_if_fail (STROBE_IS_LOG_LIST (self));

  latest = strobe_log_model_ref_order (self->model);
  if (latest == self->shown || (self->job != NULL && self->job->order == latest))
    return;
  d = strobe_log_order_diff (self->shown, latest);

  if (self->filter == NULL)
    {
      guint old_n = n_items (self);

      set_shown (self, latest);
      emit_changed (self, (guint) d, old_n - (guint) d, n_items (self) - (guint) d);
      return;
    }

  was_filtering = self->job != NULL;
  from = MIN (d, self->job != NULL && !self->job_delivered ? self->job->from : self->covered);
  if (self->job == NULL && from >= latest->n && latest->n == self->shown->n)
    {
      /* The same messages in the same places: nothing to test. */
      set_shown (self, latest);
      return;
    }
  start_job (self, latest, from);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  if (!was_filtering)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERING]);
}

StrobeLogModel *
strobe_log_list_get_model (StrobeLogList *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), NULL);
  return self->model;
}

guint64
strobe_log_list_get_total (StrobeLogList *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), 0);
  return self->shown->n;
}

gboolean
strobe_log_list_is_filtering (StrobeLogList *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), FALSE);
  return self->job != NULL;
}

double
strobe_log_list_get_progress (StrobeLogList *self)
{
  guint64 covered;

  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), 1.0);
  if (self->job == NULL || self->job->order->n == 0)
    return 1.0;
  g_mutex_lock (&self->job->lock);
  covered = self->job->covered;
  g_mutex_unlock (&self->job->lock);
  return (double) covered / (double) self->job->order->n;
}

guint
strobe_log_list_find_time (StrobeLogList *self,
                           guint64        time)
{
  guint64 p;

  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), 0);
  p = strobe_log_model_lower_bound (self->model, self->shown, time, 0);
  if (self->indexes == NULL)
    return (guint) MIN (p, (guint64) G_MAXUINT);
  return lower_bound_u32 (self->indexes, p);
}

guint
strobe_log_list_find_index (StrobeLogList *self,
                            guint64        index,
                            gboolean      *exact)
{
  g_autoptr(StrobeLogOrder) latest = NULL;
  StrobeLogEntry e;
  guint64 p;
  gboolean found;
  guint k;

  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), G_MAXUINT);
  if (exact)
    *exact = FALSE;
  latest = strobe_log_model_ref_order (self->model);
  if (strobe_log_model_read (self->model, latest, index, 1, &e) != 1)
    return G_MAXUINT;
  /* Both snapshots are sorted by (time, record): find the record in the one shown. */
  p = strobe_log_model_lower_bound (self->model, self->shown, e.time, e.record);
  found = p < self->shown->n && strobe_log_order_get (self->shown, p) == e.record;
  if (self->indexes == NULL)
    {
      if (exact)
        *exact = found;
      return (guint) MIN (p, (guint64) G_MAXUINT);
    }
  k = lower_bound_u32 (self->indexes, p);
  if (exact)
    *exact = found && k < self->indexes->len && g_array_index (self->indexes, guint32, k) == p;
  return k;
}

gboolean
strobe_log_list_get_time (StrobeLogList *self,
                          guint          position,
                          guint64       *time)
{
  StrobeLogEntry e;
  guint64 p;

  g_return_val_if_fail (STROBE_IS_LOG_LIST (self), FALSE);
  if (position >= n_items (self))
    return FALSE;
  p = self->indexes ? g_array_index (self->indexes, guint32, position) : position;
  if (strobe_log_model_read (self->model, self->shown, p, 1, &e) != 1)
    return FALSE;
  if (time)
    *time = e.time;
  return TRUE;
}

void
strobe_log_list_dup_state (StrobeLogList   *self,
                           StrobeLogOrder **order,
                           GArray         **positions)
{
  g_return_if_fail (STROBE_IS_LOG_LIST (self));
  g_return_if_fail (order != NULL && positions != NULL);

  *order = strobe_log_order_ref (self->shown);
  *positions = NULL;
  if (self->indexes != NULL)
    {
      *positions = g_array_sized_new (FALSE, FALSE, sizeof (guint32), self->indexes->len);
      g_array_append_vals (*positions, self->indexes->data, self->indexes->len);
    }
}

/* ---- GListModel ------------------------------------------------------------------- */

static GType
strobe_log_list_get_item_type (GListModel *model)
{
  return STROBE_TYPE_LOG_ITEM;
}

static guint
strobe_log_list_get_n_items (GListModel *model)
{
  return n_items (STROBE_LOG_LIST (model));
}

static gpointer
strobe_log_list_get_item (GListModel *model,
                          guint       position)
{
  StrobeLogList *self = STROBE_LOG_LIST (model);
  StrobeLogEntry e;
  guint64 p;

  if (position >= n_items (self))
    return NULL;
  p = self->indexes ? g_array_index (self->indexes, guint32, position) : position;
  if (strobe_log_model_read (self->model, self->shown, p, 1, &e) != 1)
    return NULL;
  return strobe_log_item_new (self->model, &e);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = strobe_log_list_get_item_type;
  iface->get_n_items = strobe_log_list_get_n_items;
  iface->get_item = strobe_log_list_get_item;
}

/* ---- GObject ---------------------------------------------------------------------- */

static void
strobe_log_list_constructed (GObject *object)
{
  StrobeLogList *self = STROBE_LOG_LIST (object);

  G_OBJECT_CLASS (strobe_log_list_parent_class)->constructed (object);
  g_return_if_fail (self->model != NULL);
  self->shown = strobe_log_model_ref_order (self->model);
  self->notified_n_items = n_items (self);
}

static void
strobe_log_list_dispose (GObject *object)
{
  StrobeLogList *self = STROBE_LOG_LIST (object);

  cancel_job (self);
  G_OBJECT_CLASS (strobe_log_list_parent_class)->dispose (object);
}

static void
strobe_log_list_finalize (GObject *object)
{
  StrobeLogList *self = STROBE_LOG_LIST (object);

  g_clear_pointer (&self->shown, strobe_log_order_unref);
  g_clear_pointer (&self->indexes, g_array_unref);
  g_clear_pointer (&self->filter, strobe_log_filter_free);
  g_clear_object (&self->model);
  g_main_context_unref (self->context);
  G_OBJECT_CLASS (strobe_log_list_parent_class)->finalize (object);
}

static void
strobe_log_list_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StrobeLogList *self = STROBE_LOG_LIST (object);

  switch (prop_id)
    {
    case PROP_MODEL:     g_value_set_object (value, self->model); break;
    case PROP_N_ITEMS:   g_value_set_uint (value, n_items (self)); break;
    case PROP_TOTAL:     g_value_set_uint64 (value, strobe_log_list_get_total (self)); break;
    case PROP_FILTERING: g_value_set_boolean (value, strobe_log_list_is_filtering (self)); break;
    case PROP_PROGRESS:  g_value_set_double (value, strobe_log_list_get_progress (self)); break;
    default:             G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_log_list_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  StrobeLogList *self = STROBE_LOG_LIST (object);

  switch (prop_id)
    {
    case PROP_MODEL: self->model = g_value_dup_object (value); break;
    default:         G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_log_list_class_init (StrobeLogListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = strobe_log_list_constructed;
  object_class->dispose = strobe_log_list_dispose;
  object_class->finalize = strobe_log_list_finalize;
  object_class->get_property = strobe_log_list_get_property;
  object_class->set_property = strobe_log_list_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, STROBE_TYPE_LOG_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_FILTERING] = g_param_spec_boolean ("filtering", NULL, NULL, FALSE, ro);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 1.0, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_log_list_init (StrobeLogList *self)
{
  self->context = g_main_context_ref_thread_default ();
}

StrobeLogList *
strobe_log_list_new (StrobeLogModel *model)
{
  g_return_val_if_fail (STROBE_IS_LOG_MODEL (model), NULL);
  return g_object_new (STROBE_TYPE_LOG_LIST, "model", model, NULL);
}
