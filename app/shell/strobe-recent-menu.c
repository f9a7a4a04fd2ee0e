/* strobe-recent-menu.c — the traces opened lately.
 *
 * Why the desktop's recent files (GtkRecentManager) rather than the store's list: "recent"
 * is the order a person opened things in, across stores and folders — what Insights' and
 * Tracy's recent lists and every desktop application's Open Recent show —, while the
 * Traces list is every trace the store knows, by when it was recorded. The file manager,
 * the file chooser's Recent and the shell share these entries too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-recent-menu.h"

#define MIME_TYPE "application/x-strobe-trace"

static int
newest_first (gconstpointer a, gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo **) a, *y = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (y), gtk_recent_info_get_modified (x));
}

static void
rebuild (GMenu *menu)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  g_autoptr(GPtrArray) ours = g_ptr_array_new ();
  const char *app = g_get_application_name ();

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (g_strcmp0 (gtk_recent_info_get_mime_type (info), MIME_TYPE) == 0
          && (app == NULL || gtk_recent_info_has_application (info, app))
          && gtk_recent_info_is_local (info) && gtk_recent_info_exists (info))
        g_ptr_array_add (ours, info);
    }
  g_ptr_array_sort (ours, newest_first);

  g_menu_remove_all (menu);
  for (guint i = 0; i < ours->len && i < STROBE_RECENT_MENU_MAX; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      g_autoptr(GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-uri",
                                               g_variant_new_string (gtk_recent_info_get_uri (info)));
      g_menu_append_item (menu, item);
    }
  if (ours->len == 0)   /* an action nobody has: shown, not sensitive */
    g_menu_append (menu, _("No Recent Traces"), "win.no-recent-traces");
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

GMenuModel *
strobe_recent_menu_new (void)
{
  GMenu *menu = g_menu_new ();

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (rebuild), menu,
                           G_CONNECT_SWAPPED);
  rebuild (menu);
  return G_MENU_MODEL (menu);
}

void
strobe_recent_menu_add (GFile      *file,
                        const char *title)
{
  g_autofree char *uri = NULL;
  GtkRecentData data = {
    .display_name = (char *) title,
    .mime_type = (char *) MIME_TYPE,
    .app_name = (char *) g_get_application_name (),
    .app_exec = (char *) "strobe %u",
  };

  g_return_if_fail (G_IS_FILE (file));
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}
