/* strobe-log-window.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-log-window.h"

#include <math.h>

#include "strobe-after-paint.h"
#include "strobe-log-cells.h"

/* A row's height before GTK measured any (the table's rows are 35 px). */
#define ROW_HEIGHT_GUESS 35.0
/* At most this many selected messages are kept across a move of the window (as many as
 * Copy takes; a move reads them one by one). */
#define KEEP_MAX 100000
/* Selection changes of at most this many rows are told row by row. */
#define ONE_BY_ONE 64

struct _StrobeLogWindow
{
  GObject            parent_instance;

  StrobeLogRows     *rows;
  GtkSelectionModel *selection;
  GtkScrolledWindow *scroller;
  GtkScrollbar      *scrollbar;
  GtkAdjustment     *vadjustment;  /* GTK's, in pixels over the window */
  GtkAdjustment     *adjustment;   /* ours, in rows over the list */
  gboolean           updating;     /* setting ours from GTK's */
  gboolean           moving;
  StrobeAfterPaint   recentre;        /* the edge checked after GTK's next frame */
  /* List positions selected, while the window has moved since the user selected them:
   * those outside the window are selected still (Copy takes them), those inside it are
   * the table's selection. Empty: the table's selection is the whole of it. */
  GtkBitset         *kept;
};

G_DEFINE_FINAL_TYPE (StrobeLogWindow, strobe_log_window, G_TYPE_OBJECT)

static guint
total (StrobeLogWindow *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (strobe_log_rows_get_list (self->rows)));
}

static double
row_height (StrobeLogWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  double upper = gtk_adjustment_get_upper (self->vadjustment);

  return n > 0 && upper > 0 ? upper / n : ROW_HEIGHT_GUESS;
}

static double
page_rows (StrobeLogWindow *self)
{
  return MAX (1.0, gtk_adjustment_get_page_size (self->vadjustment) / row_height (self));
}

/* Rows from an edge of the window at which it is moved: two pages, so Page Down and the
 * wheel never reach its end; on a table taller than a fifth of the window (over ~38 rows
 * in 200), what leaves a page and some rows between the two margins. GTK's scrolling may
 * then reach the window's end within a frame (Page Down scrolls less than a page once). */
static guint
margin (StrobeLogWindow *self)
{
  double page = page_rows (self), window = strobe_log_rows_get_window (self->rows);

  return (guint) MAX (1.0, MIN (2 * page + 2, (window - page) / 2 - 4));
}

static void gtk_moved_cb (StrobeLogWindow *self);

/* The table's selection as list positions (the window starting at @start), added to @set. */
static void
add_table_selection (StrobeLogWindow *self, GtkBitset *set, guint start)
{
  g_autoptr(GtkBitset) table = gtk_selection_model_get_selection (self->selection);
  GtkBitsetIter iter;
  guint p;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, table, &p); more;
       more = gtk_bitset_iter_next (&iter, &p))
    gtk_bitset_add (set, start + p);
}

/* GTK's cursor to table row @position (a row GTK keeps, the window never being longer):
 * its row widget takes the focus, which moves GTK's cursor there and selects nothing. */
static void
focus_row (GtkWidget *sibling, GtkWidget *table, guint position)
{
  for (GtkWidget *w = gtk_widget_get_first_child (gtk_widget_get_parent (sibling)); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    if (w != sibling && strobe_log_cells_row_position (w, table, TRUE) == position)
      {
        gtk_widget_grab_focus (w);
        return;
      }
}

/* Moves the window to start at @start, the selection's messages selected again where they
 * are now (the selection bits stay on places that show other messages), those out of it
 * kept. With @keep, GTK is scrolled by as many rows the other way: the same messages stay
 * on screen. */
static void
move (StrobeLogWindow *self, guint start, gboolean keep)
{
  /* A copy: GtkMultiSelection hands out its own set, which changes as rows are
   * unselected below. */
  g_autoptr(GtkBitset) live = gtk_selection_model_get_selection (self->selection);
  g_autoptr(GtkBitset) table = gtk_bitset_copy (live);
  guint old_start = strobe_log_rows_get_window_start (self->rows);
  guint old_n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  double value = gtk_adjustment_get_value (self->vadjustment), height = row_height (self);
  GtkWidget *view = gtk_scrolled_window_get_child (self->scroller);
  guint focus_at = 0;
  GtkWidget *focused = strobe_log_cells_focused_row (view, &focus_at);

  if (!gtk_bitset_is_empty (table))
    {
      /* What the table showed selected replaces what was kept of those places. */
      gtk_bitset_remove_range (self->kept, old_start, old_n);
      if (gtk_bitset_get_size (table) + gtk_bitset_get_size (self->kept) <= KEEP_MAX)
        add_table_selection (self, self->kept, old_start);
      else
        gtk_bitset_remove_all (self->kept);
    }
  self->moving = TRUE;
  if (strobe_log_rows_move_window (self->rows, start))
    {
      guint now = strobe_log_rows_get_window_start (self->rows);
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
      g_autoptr(GtkBitset) shown = gtk_bitset_new_empty ();
      g_autoptr(GtkBitset) all = gtk_bitset_new_range (0, n);
      GtkBitsetIter iter;
      guint p;

      /* GTK was told of no change: its rows and heights are as they were, so its
       * adjustment can be set at once (a far jump for it: it binds the rows it keeps). */
      if (keep)
        gtk_adjustment_set_value (self->vadjustment, value - ((double) now - old_start) * height);
      for (gboolean more = gtk_bitset_iter_init_at (&iter, self->kept, now, &p); more && p - now < n;
           more = gtk_bitset_iter_next (&iter, &p))
        gtk_bitset_add (shown, p - now);
      /* A few rows are told one by one: one change from the old row to the new one spans
       * the rows between, and GTK 4.8 restyles every row it keeps in it (1.9 ms). */
      if (gtk_bitset_get_size (table) <= ONE_BY_ONE && gtk_bitset_get_size (shown) <= ONE_BY_ONE)
        {
          for (gboolean more = gtk_bitset_iter_init_first (&iter, table, &p); more;
               more = gtk_bitset_iter_next (&iter, &p))
            if (!gtk_bitset_contains (shown, p))
              gtk_selection_model_unselect_item (self->selection, p);
          for (gboolean more = gtk_bitset_iter_init_first (&iter, shown, &p); more;
               more = gtk_bitset_iter_next (&iter, &p))
            if (!gtk_bitset_contains (table, p))
              gtk_selection_model_select_item (self->selection, p, FALSE);
        }
      else
        gtk_selection_model_set_selection (self->selection, shown, all);
      /* GTK's cursor stays on its place, which shows another message now: the arrows went
       * on from there, a window's move away from the message the user was on. */
      if (focused != NULL && old_start + focus_at >= now && old_start + focus_at - now < n)
        focus_row (focused, view, old_start + focus_at - now);
    }
  self->moving = FALSE;
  gtk_moved_cb (self);
}

/* The window's start that puts list position @position in its middle. */
static guint
centred_on (StrobeLogWindow *self, guint position)
{
  guint half = strobe_log_rows_get_window (self->rows) / 2;

  return position > half ? position - half : 0;
}

/* GTK's top row in the table. */
static double
gtk_top (StrobeLogWindow *self)
{
  return gtk_adjustment_get_value (self->vadjustment) / row_height (self);
}

/* A jump further than this from GTK's rows: GTK 4.8 would unbind and bind every row it
 * keeps (~200, 1 230 cells: 2–3 ms, and its frame re-places them), so the window is moved
 * under GTK instead, the message landing on table row @row that GTK shows already: its
 * places show new messages (the slots' refresh, ~1 ms) and GTK scrolls nowhere. FALSE when
 * the list's ends do not allow it (the window is not moved then). */
#define FAR_ROWS 200

static gboolean
land_on (StrobeLogWindow *self, guint position, guint row)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows)), m = margin (self), start;
  double top = gtk_top (self);

  if (row >= n || position < row || position - row > total (self) - n)
    return FALSE;
  /* Not where the window would be moved again at once (GTK's rows near its edge). */
  start = position - row;
  if ((top < m && start > 0) || (top + page_rows (self) + m > n && start + n < total (self)))
    return FALSE;
  move (self, start, FALSE);
  return strobe_log_rows_from_list (self->rows, position) == row;
}

guint
strobe_log_window_show (StrobeLogWindow *self, guint position)
{
  guint start, n, m, lo, hi, at;
  double top;

  g_return_val_if_fail (STROBE_IS_LOG_WINDOW (self), G_MAXUINT);

  if (position >= total (self))
    return G_MAXUINT;
  if (!strobe_log_rows_is_windowed (self->rows))
    return strobe_log_rows_from_list (self->rows, position);
  top = gtk_top (self);
  at = strobe_log_rows_from_list (self->rows, position);
  if ((at == G_MAXUINT || fabs (at - top) > FAR_ROWS) &&
      land_on (self, position, (guint) (top + page_rows (self) / 2)))
    return strobe_log_rows_from_list (self->rows, position);
  start = strobe_log_rows_get_window_start (self->rows);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  m = margin (self);
  lo = start > 0 ? start + m : 0;
  hi = start + n < total (self) ? start + n - MIN (m, n) : start + n;
  if (position < lo || position >= hi)
    move (self, centred_on (self, position), FALSE);
  return strobe_log_rows_from_list (self->rows, position);
}

/* Table row @at is on screen whole, by GTK's adjustment (the rows are of one height). */
static gboolean
row_shown (StrobeLogWindow *self, guint at)
{
  double height = row_height (self), value = gtk_adjustment_get_value (self->vadjustment);
  double page = gtk_adjustment_get_page_size (self->vadjustment);

  return page > 0 && at * height >= value && (at + 1) * height <= value + page;
}

void
strobe_log_window_scroll_to (StrobeLogWindow *self,
                             GtkWidget       *list_view,
                             guint            position)
{
  guint at;

  g_return_if_fail (STROBE_IS_LOG_WINDOW (self));

  at = strobe_log_window_show (self, position);
  /* GTK 4.8 unbinds and binds every row it keeps (~200, 1 230 cells) on a scroll-to-item
   * even when the row is on screen already: 2–3 ms of a far jump's, which the window's
   * move leaves at the same table row as the jump before it. */
  if (list_view != NULL && at != G_MAXUINT && !row_shown (self, at))
    gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", at);
}

guint
strobe_log_window_to_list (StrobeLogWindow *self, guint table_position)
{
  g_return_val_if_fail (STROBE_IS_LOG_WINDOW (self), G_MAXUINT);
  return strobe_log_rows_to_list (self->rows, table_position);
}

void
strobe_log_window_move (StrobeLogWindow *self, guint start)
{
  g_return_if_fail (STROBE_IS_LOG_WINDOW (self));
  move (self, start, TRUE);
}

gboolean
strobe_log_window_is_moving (StrobeLogWindow *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_WINDOW (self), FALSE);
  return self->moving;
}

void
strobe_log_window_forget (StrobeLogWindow *self)
{
  g_return_if_fail (STROBE_IS_LOG_WINDOW (self));
  if (!self->moving)
    gtk_bitset_remove_all (self->kept);
}

GtkBitset *
strobe_log_window_dup_selection (StrobeLogWindow *self)
{
  GtkBitset *set;
  guint start;

  g_return_val_if_fail (STROBE_IS_LOG_WINDOW (self), NULL);

  start = strobe_log_rows_get_window_start (self->rows);
  set = gtk_bitset_copy (self->kept);
  gtk_bitset_remove_range (set, start, g_list_model_get_n_items (G_LIST_MODEL (self->rows)));
  add_table_selection (self, set, start);
  return set;
}

guint
strobe_log_window_key_target (StrobeLogWindow *self,
                              guint            keyval,
                              GdkModifierType  state)
{
  guint n;

  g_return_val_if_fail (STROBE_IS_LOG_WINDOW (self), G_MAXUINT);

  n = total (self);
  if (!strobe_log_rows_is_windowed (self->rows) || n == 0 ||
      (state & (GDK_SHIFT_MASK | GDK_ALT_MASK)) != 0)
    return G_MAXUINT;
  if (keyval == GDK_KEY_Home || keyval == GDK_KEY_KP_Home)
    return 0;
  if (keyval == GDK_KEY_End || keyval == GDK_KEY_KP_End)
    return n - 1;
  return G_MAXUINT;
}

GtkAdjustment *
strobe_log_window_get_adjustment (StrobeLogWindow *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_WINDOW (self), NULL);
  return self->adjustment;
}

/* ---- following GTK --------------------------------------------------------------------- */

/* GTK's top row is within the margin of an edge of the window past which there are more
 * messages. */
static gboolean
near_edge (StrobeLogWindow *self, double top)
{
  guint start = strobe_log_rows_get_window_start (self->rows);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  guint m = margin (self);

  return (top < m && start > 0) || (top + page_rows (self) + m > n && start + n < total (self));
}

/* After GTK's frame: its adjustment is where its rows are then (a jump asked before the
 * frame is in it), so the edge is judged right. */
static void
recentre_cb (GdkFrameClock   *clock,
             StrobeLogWindow *self)
{
  double top = gtk_adjustment_get_value (self->vadjustment) / row_height (self);

  strobe_after_paint_cancel (&self->recentre);
  if (strobe_log_rows_is_windowed (self->rows) && near_edge (self, top))
    move (self, centred_on (self, strobe_log_rows_get_window_start (self->rows) + (guint) top), TRUE);
}

/* GTK's position as ours; near an edge of the window with more messages past it, the
 * window is moved under GTK after its frame (not inside GTK's scrolling).
 *
 * The view's scrollbar is shown for any list longer than a page, not only a windowed one,
 * and GTK's never: one scrollbar for both, so the rows keep their width when a filter's
 * answer ends the window or starts it (10 M messages to 443 k and back). When GTK's
 * scrollbar took over, the rows changed width and every cell was laid out again: 7-9 ms
 * of the frame. */
static void
gtk_moved_cb (StrobeLogWindow *self)
{
  gboolean windowed = strobe_log_rows_is_windowed (self->rows);
  guint start = strobe_log_rows_get_window_start (self->rows);
  double top, page;

  if (self->moving)
    return;
  top = gtk_adjustment_get_value (self->vadjustment) / row_height (self);
  page = page_rows (self);
  gtk_widget_set_visible (GTK_WIDGET (self->scrollbar),
                          windowed || gtk_adjustment_get_upper (self->vadjustment) >
                                      gtk_adjustment_get_page_size (self->vadjustment) + 0.5);
  self->updating = TRUE;
  gtk_adjustment_configure (self->adjustment, start + top, 0, total (self), 1, page, page);
  self->updating = FALSE;
  if (windowed && !strobe_after_paint_pending (&self->recentre) && near_edge (self, top))
    strobe_after_paint_once (&self->recentre, GTK_WIDGET (self->scroller), G_CALLBACK (recentre_cb), self);
}

/* Our scrollbar moved (dragged, clicked, keys): GTK to the same row, the window moved
 * there first if it is not in it. */
static void
own_moved_cb (StrobeLogWindow *self)
{
  double value = gtk_adjustment_get_value (self->adjustment), top;
  guint target = (guint) value, start, n, m;

  if (self->updating)
    return;
  start = strobe_log_rows_get_window_start (self->rows);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  m = margin (self);
  top = gtk_top (self);
  if (fabs (value - (start + top)) > FAR_ROWS && land_on (self, target, (guint) top))
    start = strobe_log_rows_get_window_start (self->rows);
  else if ((target < start + m && start > 0) || (target + m >= start + n && start + n < total (self)))
    {
      move (self, centred_on (self, target), FALSE);
      start = strobe_log_rows_get_window_start (self->rows);
    }
  gtk_adjustment_set_value (self->vadjustment, (value - start) * row_height (self));
}

/* Keys on our scrollbar move it as GTK's keys move a scale: the table's rows scroll and its
 * selection and keyboard cursor stay (the table's own keys move those). */
static gboolean
scrollbar_key_cb (GtkEventControllerKey *controller,
                  guint                  keyval,
                  guint                  keycode,
                  GdkModifierType        state,
                  StrobeLogWindow       *self)
{
  GtkAdjustment *a = self->adjustment;
  double value = gtk_adjustment_get_value (a), page = gtk_adjustment_get_page_increment (a);

  if ((state & (GDK_SHIFT_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_KP_Up: value -= 1; break;
    case GDK_KEY_Down: case GDK_KEY_KP_Down: value += 1; break;
    case GDK_KEY_Page_Up: case GDK_KEY_KP_Page_Up: value -= page; break;
    case GDK_KEY_Page_Down: case GDK_KEY_KP_Page_Down: value += page; break;
    case GDK_KEY_Home: case GDK_KEY_KP_Home: value = 0; break;
    case GDK_KEY_End: case GDK_KEY_KP_End: value = gtk_adjustment_get_upper (a); break;
    default: return FALSE;
    }
  /* Clamped by the adjustment to [0, upper - page]. */
  gtk_adjustment_set_value (a, value);
  return TRUE;
}

static void
list_changed_cb (StrobeLogWindow *self,
                 guint            position,
                 guint            removed,
                 guint            added)
{
  /* Messages added (live) move those after them; messages replaced (a filter changed)
   * are others: their selection goes. */
  gtk_bitset_splice (self->kept, position, removed, added);
  /* A live list growing past the window tells GTK nothing: our scrollbar's length. */
  gtk_moved_cb (self);
}

/* ---- GObject --------------------------------------------------------------------------- */

static void
strobe_log_window_dispose (GObject *object)
{
  StrobeLogWindow *self = STROBE_LOG_WINDOW (object);

  strobe_after_paint_cancel (&self->recentre);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  if (self->rows != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->rows, self);
      g_signal_handlers_disconnect_by_data (strobe_log_rows_get_list (self->rows), self);
    }
  g_clear_object (&self->vadjustment);
  g_clear_object (&self->adjustment);
  g_clear_object (&self->rows);
  g_clear_object (&self->selection);
  g_clear_object (&self->scroller);
  g_clear_object (&self->scrollbar);
  G_OBJECT_CLASS (strobe_log_window_parent_class)->dispose (object);
}

static void
strobe_log_window_finalize (GObject *object)
{
  StrobeLogWindow *self = STROBE_LOG_WINDOW (object);

  gtk_bitset_unref (self->kept);
  G_OBJECT_CLASS (strobe_log_window_parent_class)->finalize (object);
}

static void
strobe_log_window_class_init (StrobeLogWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_log_window_dispose;
  object_class->finalize = strobe_log_window_finalize;
}

static void
strobe_log_window_init (StrobeLogWindow *self)
{
  self->kept = gtk_bitset_new_empty ();
}

StrobeLogWindow *
strobe_log_window_new (StrobeLogRows     *rows,
                       GtkSelectionModel *selection,
                       GtkScrolledWindow *scroller,
                       GtkScrollbar      *scrollbar)
{
  StrobeLogWindow *self = g_object_new (STROBE_TYPE_LOG_WINDOW, NULL);
  GtkEventController *key;

  self->rows = g_object_ref (rows);
  self->selection = g_object_ref (selection);
  self->scroller = g_object_ref (scroller);
  self->scrollbar = g_object_ref (scrollbar);
  self->vadjustment = g_object_ref (gtk_scrolled_window_get_vadjustment (scroller));
  self->adjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 1, 1, 1));
  gtk_scrollbar_set_adjustment (scrollbar, self->adjustment);
  /* Reached by Tab (a scrollbar of GTK's is not): a click does not take the focus from
   * the table, the keys the user was using. */
  gtk_widget_set_focusable (GTK_WIDGET (scrollbar), TRUE);
  gtk_scrolled_window_set_policy (scroller, GTK_POLICY_NEVER, GTK_POLICY_EXTERNAL);
  gtk_widget_set_focus_on_click (GTK_WIDGET (scrollbar), FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (scrollbar), "strobe-log-window");
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (scrollbar_key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (scrollbar), key);
  g_signal_connect_swapped (self->vadjustment, "value-changed", G_CALLBACK (gtk_moved_cb), self);
  g_signal_connect_swapped (self->vadjustment, "changed", G_CALLBACK (gtk_moved_cb), self);
  g_signal_connect_swapped (self->adjustment, "value-changed", G_CALLBACK (own_moved_cb), self);
  g_signal_connect_swapped (rows, "items-changed", G_CALLBACK (gtk_moved_cb), self);
  g_signal_connect_swapped (strobe_log_rows_get_list (rows), "items-changed", G_CALLBACK (list_changed_cb), self);
  gtk_moved_cb (self);
  return self;
}
