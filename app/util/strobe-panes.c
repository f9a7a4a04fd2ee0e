/* strobe-panes.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-panes.h"

#define PANE_KEY "strobe-pane"

void
strobe_pane_mark (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_object_set_data (G_OBJECT (widget), PANE_KEY, GINT_TO_POINTER (1));
}

static void
collect (GtkWidget *widget, GPtrArray *panes)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (g_object_get_data (G_OBJECT (widget), PANE_KEY))
    g_ptr_array_add (panes, widget);
  /* A pane may hold panes of its own (a view inside the view stack). */
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, panes);
}

/* The first widget in tree order under @widget that takes the keyboard focus. */
static gboolean
focus_first (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget) || !gtk_widget_is_sensitive (widget))
    return FALSE;
  /* A paned's own focus is its handle, a scrolled window's its scrolling: go on to what
   * they hold. */
  if (gtk_widget_get_focusable (widget) && !GTK_IS_PANED (widget) && !GTK_IS_SCROLLED_WINDOW (widget) &&
      gtk_widget_grab_focus (widget))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (focus_first (child))
      return TRUE;
  return FALSE;
}

static gboolean
focus_pane (GtkWidget *pane)
{
  /* A notebook as a pane is its tab strip, which the notebook's own focus is. */
  if (GTK_IS_NOTEBOOK (pane))
    return gtk_widget_grab_focus (pane);
  /* Not gtk_widget_child_focus(): with the focus outside @pane, GTK 4.8 may report a
   * move without making one. */
  return focus_first (pane);
}

gboolean
strobe_pane_cycle (GtkWidget *root,
                   gboolean   backward)
{
  g_autoptr(GPtrArray) panes = g_ptr_array_new ();
  GtkRoot *toplevel;
  GtkWidget *focus;
  int current = -1;

  g_return_val_if_fail (GTK_IS_WIDGET (root), FALSE);

  collect (root, panes);
  if (panes->len == 0)
    return FALSE;
  toplevel = gtk_widget_get_root (root);
  focus = toplevel ? gtk_root_get_focus (toplevel) : NULL;
  /* The innermost pane that holds the focus: the last one in tree order. */
  for (guint i = 0; focus != NULL && i < panes->len; i++)
    if (focus == panes->pdata[i] || gtk_widget_is_ancestor (focus, panes->pdata[i]))
      current = (int) i;

  for (guint step = 1; step <= panes->len; step++)
    {
      int n = (int) panes->len;
      int next = backward ? ((current < 0 ? 0 : current) - (int) step + n * 2) % n
                          : (current + (int) step) % n;

      if (focus_pane (panes->pdata[next]))
        return TRUE;
    }
  return FALSE;
}
