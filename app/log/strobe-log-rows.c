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
 * 1 ms timers of the main loop are never kept waiting much longer (a turn may start just
 * before one is due: 2 ms turns made 3 ms gaps). */
#define REFRESH_SLICE_US 1000

struct _StrobeLogRow
{
  GObject        parent_instance;

  StrobeLogRows *owner;
  guint          position;   /* G_MAXUINT: no longer in the list */
  StrobeLogItem *item;       /* NULL: not read yet */
  gboolean       queued;     /* waits in the owner's refresh queue */
  guint64        serial;
};

struct _StrobeLogRows
{
  GObject        parent_instance;

  StrobeLogList *list;
  guint          n;          /* announced */
  /* The window: the table shows the list's [start, start + n) and n ≤ window. A list of at
   * most window messages is shown whole (start 0) and follows the list as before. */
  guint          window;
  guint          start;
  /* Between the items-changed one change of the list is told in, positions are not the
   * list's yet: a row's message is read once they are. */
  gboolean       announcing;
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
static guint64 row_serials;

G_DEFINE_FINAL_TYPE (StrobeLogRow, strobe_log_row, G_TYPE_OBJECT)

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeLogRows, strobe_log_rows, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* ---- StrobeLogRow --------------------------------------------------------------------- */

StrobeLogItem *
strobe_log_row_get_item (StrobeLogRow *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROW (self), NULL);

  if (self->item == NULL && self->position != G_MAXUINT && self->owner->list != NULL &&
      !self->owner->announcing)
    self->item = g_list_model_get_item (G_LIST_MODEL (self->owner->list),
                                        self->owner->start + self->position);
  return self->item;
}

guint64
strobe_log_row_get_serial (StrobeLogRow *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROW (self), 0);
  return self->serial;
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

/* Announces (p, removed, added) as it is: the rows after it move, those of removed
 * positions leave the list (GTK destroys their widgets). */
static void
announce (StrobeLogRows *self, guint p, guint removed, guint added)
{
  if (removed == 0 && added == 0)
    return;
  if (g_hash_table_size (self->alive) > 0)
    {
      g_autoptr(GHashTable) moved = g_hash_table_new (NULL, NULL);
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, self->alive);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          StrobeLogRow *row = value;

          if (row->position >= p + removed)
            row->position = row->position - removed + added;
          else if (row->position >= p)
            {
              g_clear_object (&row->item);
              row->position = G_MAXUINT;
              continue;
            }
          g_hash_table_insert (moved, GUINT_TO_POINTER (row->position), row);
        }
      g_clear_pointer (&self->alive, g_hash_table_unref);
      self->alive = g_steal_pointer (&moved);
    }
  self->n = self->n - removed + added;
  g_list_model_items_changed (G_LIST_MODEL (self), p, removed, added);
}

/* The first and last positions of the rows handed out in [p, p + n); FALSE: none. */
static gboolean
held_range (StrobeLogRows *self, guint p, guint n, guint *first, guint *last)
{
  GHashTableIter iter;
  gpointer key;
  gboolean any = FALSE;

  g_hash_table_iter_init (&iter, self->alive);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint q = GPOINTER_TO_UINT (key);

      if (q - p >= n)
        continue;
      *first = any ? MIN (*first, q) : q;
      *last = any ? MAX (*last, q) : q;
      any = TRUE;
    }
  return any;
}

/* GTK keeps widgets for up to 200 rows after its anchor (and 2 more): an insertion this
 * far from every row held makes none. */
#define AWAY 300

/* The list replaced [p, p + removed) by @added messages. Where GTK holds rows there, the
 * same places ("slots", as many as fit) are kept and show new messages: GTK is told only
 * of the positions around them, which hold no widget, so it destroys, makes and searches
 * nothing. */
static void
replace (StrobeLogRows *self,
         guint          p,
         guint          removed,
         guint          added)
{
  guint m = MIN (removed, added), first = 0, last = 0, s, ins;
  GHashTableIter iter;
  gpointer key, value;

  if (m == 0 || !held_range (self, p, removed, &first, &last))
    {
      announce (self, p, removed, added);
      return;
    }
  /* The slots [s, s + m) cover the rows held (the first m of them when they do not fit);
   * the other positions removed go, those after the slots first: the slots stay put. */
  s = MIN (first, p + removed - m);
  announce (self, s + m, p + removed - (s + m), 0);
  announce (self, p, s - p, 0);
  first = first - s + p;
  last = MIN (last, s + m - 1) - s + p;
  g_hash_table_iter_init (&iter, self->alive);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (key) - p < m)
      {
        StrobeLogRow *row = value;

        g_clear_object (&row->item);
        queue_refresh (self, row);
        self->reused++;
      }
  /* The rest away from the rows held: after the slots, or before them when the rows held
   * are near their end (the slots then show the last messages added). */
  ins = p + m;
  if (p + m - last < AWAY && first - p >= AWAY)
    ins = p;
  announce (self, ins, 0, added - m);
}

/* A list longer than the window: the change as the window sees it. Where the window stays
 * and the change starts in or after it, only what changed in it is told (a live list
 * growing past a window away from its end tells nothing); otherwise the window's places
 * show their new messages (replace keeps the rows GTK holds). */
static void
window_changed (StrobeLogRows *self, guint p, guint removed, guint added)
{
  guint total = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  guint old_n = self->n, new_n = MIN (total, self->window);
  guint start = total > self->window ? MIN (self->start, total - self->window) : 0;
  guint c = old_n;

  if (start != self->start || p < self->start)
    {
      self->start = start;
      replace (self, 0, old_n, new_n);
      return;
    }
  if (p - start < old_n)
    {
      guint q = p - start, r = MIN (removed, old_n - q), a = MIN (added, self->window - q);

      replace (self, q, r, a);
      c = old_n - r + a;
    }
  /* The window's end: messages moved out of it, or in from after it. */
  if (c > new_n)
    announce (self, new_n, c - new_n, 0);
  else if (c < new_n)
    announce (self, c, 0, new_n - c);
}

static void
list_items_changed_cb (StrobeLogRows *self,
                       guint          p,
                       guint          removed,
                       guint          added)
{
  guint total = g_list_model_get_n_items (G_LIST_MODEL (self->list));

  self->announcing = TRUE;
  if (self->start == 0 && total <= self->window && self->n + added - removed == total)
    replace (self, p, removed, added);
  else
    window_changed (self, p, removed, added);
  self->announcing = FALSE;
}

/* ---- the window ------------------------------------------------------------------------ */

gboolean
strobe_log_rows_is_windowed (StrobeLogRows *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), FALSE);
  return self->n < g_list_model_get_n_items (G_LIST_MODEL (self->list));
}

guint
strobe_log_rows_get_window_start (StrobeLogRows *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), 0);
  return self->start;
}

guint
strobe_log_rows_get_window (StrobeLogRows *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), 0);
  return self->window;
}

guint
strobe_log_rows_to_list (StrobeLogRows *self, guint position)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), G_MAXUINT);
  return position < self->n ? self->start + position : G_MAXUINT;
}

guint
strobe_log_rows_from_list (StrobeLogRows *self, guint position)
{
  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), G_MAXUINT);
  return position >= self->start && position - self->start < self->n ? position - self->start : G_MAXUINT;
}

void
strobe_log_rows_set_window (StrobeLogRows *self, guint window)
{
  guint total;

  g_return_if_fail (STROBE_IS_LOG_ROWS (self));
  g_return_if_fail (window > 0);

  total = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  self->window = window;
  self->announcing = TRUE;
  self->start = total > window ? MIN (self->start, total - window) : 0;
  replace (self, 0, self->n, MIN (total, window));
  self->announcing = FALSE;
}

gboolean
strobe_log_rows_move_window (StrobeLogRows *self, guint start)
{
  guint total;

  g_return_val_if_fail (STROBE_IS_LOG_ROWS (self), FALSE);

  total = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  if (total <= self->window)
    return FALSE;
  start = MIN (start, total - self->window);
  if (start == self->start)
    return FALSE;
  /* GTK is told nothing: the places it holds show the new window's messages. Telling it of
   * the head removed and the tail added instead (it would keep its rows and its anchor)
   * cost 32 ms of the main thread at 512 k rows each way, 100 M messages. */
  self->announcing = TRUE;
  self->start = start;
  replace (self, 0, self->n, self->n);
  self->announcing = FALSE;
  return TRUE;
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
  /* Rows are made on the main thread only. */
  row->serial = ++row_serials;
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
  self->window = STROBE_LOG_ROWS_WINDOW;
}

StrobeLogRows *
strobe_log_rows_new (StrobeLogList *list)
{
  StrobeLogRows *self;

  g_return_val_if_fail (STROBE_IS_LOG_LIST (list), NULL);

  self = g_object_new (STROBE_TYPE_LOG_ROWS, NULL);
  self->list = g_object_ref (list);
  self->n = MIN (g_list_model_get_n_items (G_LIST_MODEL (list)), self->window);
  g_signal_connect_swapped (list, "items-changed", G_CALLBACK (list_items_changed_cb), self);
  return self;
}
