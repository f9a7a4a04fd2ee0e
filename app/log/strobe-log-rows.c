/* strobe-log-rows.c — see the header.
 *
 * @alive maps a position to the row handed out for it, for as long as someone (GTK's row
 * widget) holds that row: no reference, a row leaves the table when it is finalized.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-log-rows.h"

/* A refresh turn stops after this long: the rest waits for the next turn, so input and the
 * 1 ms timers of the main loop are never kept waiting longer. */
#define REFRESH_SLICE_US 2000

struct _StrobeLogRow
{
  GObject        parent_instance;

  StrobeLogRows *owner;
  guint          position;   /* G_MAXUINT: no longer in the list */
  StrobeLogItem *item;       /* NULL: not read yet */
  gboolean       queued;     /* waits in the owner's refresh queue */
};

struct _StrobeLogRows
{
  GObject        parent_instance;

  StrobeLogList *list;
  guint          n;          /* announced */
  /* While one change is announced in two: positions >= gap_at are the list's + gap. */
  guint          gap_at;
  guint          gap;
  GHashTable    *alive;      /* position → StrobeLogRow, not referenced */
  GPtrArray     *refresh;    /* StrobeLogRow to be told "changed", not referenced (a row
                              * holds its owner) */
  guint          refresh_source;
  guint64        reused;
};

enum
{
  ROW_CHANGED,
  N_ROW_SIGNALS
};

static guint row_signals[N_ROW_SIGNALS];

G_DEFINE_FINAL_TYPE (StrobeLogRow, strobe_log_row, G_TYPE_OBJECT)

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeLogRows, strobe_log_rows, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* ---- StrobeLogRow --------------------------------------------------------------------- */

static guint
list_position (StrobeLogRows *self, guint position)
{
  return position >= self->gap_at ? position + self->gap : position;
}

StrobeLogItem *
strobe_log_row_get_item (StrobeLogRow *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROW (self), NULL);

  if (self->item == NULL && self->position != G_MAXUINT && self->owner->list != NULL)
    self->item = g_list_model_get_item (G_LIST_MODEL (self->owner->list),
                                        list_position (self->owner, self->position));
  return self->item;
}

static void
strobe_log_row_finalize (GObject *object)
{
  StrobeLogRow *self = STROBE_LOG_ROW (object);
  StrobeLogRows *owner = self->owner;

  if (self->position != G_MAXUINT &&
      g_hash_table_lookup (owner->alive, GUINT_TO_POINTER (self->position)) == self)
    g_hash_table_remove (owner->alive, GUINT_TO_POINTER (self->position));
  if (self->queued)
    g_ptr_array_remove (owner->refresh, self);
  g_clear_object (&self->item);
  g_object_unref (owner);
  G_OBJECT_CLASS (strobe_log_row_parent_class)->finalize (object);
}

static void
strobe_log_row_class_init (StrobeLogRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_log_row_finalize;
  row_signals[ROW_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strobe_log_row_init (StrobeLogRow *self)
{
  self->position = G_MAXUINT;
}

/* ---- telling rows ------------------------------------------------------------------------ */

static gboolean
refresh_cb (gpointer data)
{
  StrobeLogRows *self = data;
  gint64 until = g_get_monotonic_time () + REFRESH_SLICE_US;

  while (self->refresh->len > 0)
    {
      g_autoptr(StrobeLogRow) row = g_object_ref (g_ptr_array_steal_index (self->refresh, 0));

      row->queued = FALSE;
      if (row->position != G_MAXUINT)
        g_signal_emit (row, row_signals[ROW_CHANGED], 0);
      if (g_get_monotonic_time () >= until)
        break;
    }
  if (self->refresh->len > 0)
    return G_SOURCE_CONTINUE;
  self->refresh_source = 0;
  return G_SOURCE_REMOVE;
}

static void
queue_refresh (StrobeLogRows *self, StrobeLogRow *row)
{
  if (!row->queued)
    {
      row->queued = TRUE;
      g_ptr_array_add (self->refresh, row);
    }
  /* Ahead of GTK's frame (layout is at G_PRIORITY_HIGH_IDLE + 10, painting + 20), so a
   * frame does not show a row's old message; events still come between two turns. */
  if (self->refresh_source == 0)
    {
      self->refresh_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 5, refresh_cb, self, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->refresh_source),
                                "[strobe] log rows refresh");
    }
}

void
strobe_log_rows_flush (StrobeLogRows *self)
{
  g_return_if_fail (STROBE_IS_LOG_ROWS (self));

  while (self->refresh->len > 0)
    {
      g_autoptr(StrobeLogRow) row = g_object_ref (g_ptr_array_steal_index (self->refresh, 0));

      row->queued = FALSE;
      if (row->position != G_MAXUINT)
        g_signal_emit (row, row_signals[ROW_CHANGED], 0);
    }
  g_clear_handle_id (&self->refresh_source, g_source_remove);
}

guint
strobe_log_rows_get_pending (StrobeLogRows *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), 0);
  return self->refresh->len;
}

guint64
strobe_log_rows_get_reused (StrobeLogRows *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), 0);
  return self->reused;
}

/* ---- following the list ------------------------------------------------------------------ */

static gint
by_position (gconstpointer a, gconstpointer b)
{
  const StrobeLogRow *x = *(StrobeLogRow * const *) a, *y = *(StrobeLogRow * const *) b;

  return x->position < y->position ? -1 : x->position > y->position;
}

/* Positions [p, p + removed) become [p, p + added) (@all: what the list added in all,
 * for placing the rows as GTK would guess). The rows of removed positions take new ones,
 * in their order, where GTK's anchor would land; those that find none leave the list. */
static void
move_rows (StrobeLogRows *self, guint p, guint removed, guint added, guint all)
{
  g_autoptr(GHashTable) moved = NULL;
  g_autoptr(GPtrArray) gone = NULL;
  GHashTableIter iter;
  gpointer value;
  guint k, t;

  if (g_hash_table_size (self->alive) == 0)
    return;
  moved = g_hash_table_new (NULL, NULL);
  gone = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->alive);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      StrobeLogRow *row = value;

      if (row->position >= p + removed)
        row->position = row->position - removed + added;
      else if (row->position >= p)
        {
          g_ptr_array_add (gone, row);
          continue;
        }
      g_hash_table_insert (moved, GUINT_TO_POINTER (row->position), row);
    }
  g_ptr_array_sort (gone, by_position);
  k = MIN (gone->len, added);
  /* GTK places a removed anchor at p + (its place − p) × added / removed. */
  t = p;
  if (k > 0)
    {
      guint first = ((StrobeLogRow *) g_ptr_array_index (gone, 0))->position;
      guint64 guess = p + (guint64) (first - p) * all / MAX (removed, 1u);

      t = (guint) MIN (guess, (guint64) p + added - k);
    }
  for (guint j = 0; j < gone->len; j++)
    {
      StrobeLogRow *row = g_ptr_array_index (gone, j);

      g_clear_object (&row->item);
      if (j < k)
        {
          row->position = t + j;
          g_hash_table_insert (moved, GUINT_TO_POINTER (row->position), row);
          queue_refresh (self, row);
          self->reused++;
        }
      else
        row->position = G_MAXUINT;
    }
  g_clear_pointer (&self->alive, g_hash_table_unref);
  self->alive = g_steal_pointer (&moved);
}

/* Rows handed out, alive, for positions [p, p + n). */
static guint
count_rows (StrobeLogRows *self, guint p, guint n)
{
  GHashTableIter iter;
  gpointer key;
  guint count = 0;

  g_hash_table_iter_init (&iter, self->alive);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    count += GPOINTER_TO_UINT (key) - p < n;
  return count;
}

static void
list_items_changed_cb (StrobeLogRows *self,
                       guint          p,
                       guint          removed,
                       guint          added)
{
  guint kept = removed > 0 ? count_rows (self, p, removed) : 0;
  /* GTK searches the added items only when a row it holds is removed, i.e. when there
   * are rows to keep: as many as they are, then (they take the first places). */
  guint now = kept > 0 ? MIN (added, kept) : added;

  /* First what GTK searches: the removal and the first items added... */
  self->gap_at = p + now;
  self->gap = added - now;
  move_rows (self, p, removed, now, added);
  self->n = self->n - removed + now;
  g_list_model_items_changed (G_LIST_MODEL (self), p, removed, now);
  /* ...then the rest, which removes nothing. */
  self->gap_at = G_MAXUINT;
  self->gap = 0;
  if (now < added)
    {
      move_rows (self, p + now, 0, added - now, added - now);
      self->n += added - now;
      g_list_model_items_changed (G_LIST_MODEL (self), p + now, 0, added - now);
    }
}

StrobeLogList *
strobe_log_rows_get_list (StrobeLogRows *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), NULL);
  return self->list;
}

/* ---- GListModel ------------------------------------------------------------------------- */

static GType
strobe_log_rows_get_item_type (GListModel *model)
{
  return STROBE_TYPE_LOG_ROW;
}

static guint
strobe_log_rows_get_n_items (GListModel *model)
{
  return STROBE_LOG_ROWS (model)->n;
}

static gpointer
strobe_log_rows_get_item (GListModel *model,
                          guint       position)
{
  StrobeLogRows *self = STROBE_LOG_ROWS (model);
  StrobeLogRow *row;

  if (position >= self->n)
    return NULL;
  row = g_hash_table_lookup (self->alive, GUINT_TO_POINTER (position));
  if (row != NULL)
    return g_object_ref (row);
  /* Its message is read when asked for: GTK makes items it only compares. */
  row = g_object_new (STROBE_TYPE_LOG_ROW, NULL);
  row->owner = g_object_ref (self);
  row->position = position;
  g_hash_table_insert (self->alive, GUINT_TO_POINTER (position), row);
  return row;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = strobe_log_rows_get_item_type;
  iface->get_n_items = strobe_log_rows_get_n_items;
  iface->get_item = strobe_log_rows_get_item;
}

/* ---- GObject --------------------------------------------------------------------------- */

static void
strobe_log_rows_dispose (GObject *object)
{
  StrobeLogRows *self = STROBE_LOG_ROWS (object);

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_clear_object (&self->list);
  G_OBJECT_CLASS (strobe_log_rows_parent_class)->dispose (object);
}

static void
strobe_log_rows_finalize (GObject *object)
{
  StrobeLogRows *self = STROBE_LOG_ROWS (object);

  /* Every row holds its owner: none is left. */
  g_clear_pointer (&self->alive, g_hash_table_unref);
  g_clear_pointer (&self->refresh, g_ptr_array_unref);
  G_OBJECT_CLASS (strobe_log_rows_parent_class)->finalize (object);
}

static void
strobe_log_rows_class_init (StrobeLogRowsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_log_rows_dispose;
  object_class->finalize = strobe_log_rows_finalize;
}

static void
strobe_log_rows_init (StrobeLogRows *self)
{
  self->alive = g_hash_table_new (NULL, NULL);
  self->refresh = g_ptr_array_new ();
  self->gap_at = G_MAXUINT;
}

StrobeLogRows *
strobe_log_rows_new (StrobeLogList *list)
{
  StrobeLogRows *self;

  g_return_val_if_fail (STROBE_IS_LOG_LIST (list), NULL);

  self = g_object_new (STROBE_TYPE_LOG_ROWS, NULL);
  self->list = g_object_ref (list);
  self->n = g_list_model_get_n_items (G_LIST_MODEL (list));
  g_signal_connect_swapped (list, "items-changed", G_CALLBACK (list_items_changed_cb), self);
  return self;
}
