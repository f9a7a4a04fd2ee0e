/* strobe-build-tree.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "strobe-build-tree.h"

gboolean
strobe_build_tree_is_running_uninstalled (void)
{
  static gsize once;
  static gboolean uninstalled;

  if (g_once_init_enter (&once))
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *root = g_canonicalize_filename (STROBE_BUILD_ROOT, NULL);
      g_autofree char *prefix = g_strconcat (root, G_DIR_SEPARATOR_S, NULL);

      uninstalled = exe != NULL && g_str_has_prefix (exe, prefix);
      g_once_init_leave (&once, 1);
    }
  return uninstalled;
}

const char *
strobe_build_tree_locale_dir (void)
{
  return strobe_build_tree_is_running_uninstalled () ? STROBE_BUILD_ROOT "/po" : LOCALEDIR;
}

const char *
strobe_build_tree_schema_dir (void)
{
  return strobe_build_tree_is_running_uninstalled () ? STROBE_BUILD_ROOT "/data" : NULL;
}

void
strobe_build_tree_init_i18n (void)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, strobe_build_tree_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
