/* tab-walk.c — see tab-walk.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "tab-walk.h"

void
tab_walk_assert (GtkWindow *window,
                 GtkWidget *start,
                 guint      presses,
                 guint      min_stops)
{
  g_autoptr (GHashTable) stops = g_hash_table_new (NULL, NULL);
  gboolean back = FALSE;
  GtkWidget *last;

  /* A list gives the focus to one of its rows. */
  gtk_widget_grab_focus (start);
  last = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (last == start || gtk_widget_is_ancestor (last, start));
  for (guint i = 0; i < presses; i++)
    {
      GtkWidget *focus;

      gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
      focus = gtk_root_get_focus (GTK_ROOT (window));
      g_assert_nonnull (focus);
      if (focus == last)
        g_error ("Tab stayed on a %s", G_OBJECT_TYPE_NAME (focus));
      g_assert_false (GTK_IS_LABEL (focus));
      g_hash_table_add (stops, focus);
      back = back || focus == start || gtk_widget_is_ancestor (focus, start);
      last = focus;
    }
  g_assert_cmpuint (g_hash_table_size (stops), >=, min_stops);
  g_assert_true (back);
}
