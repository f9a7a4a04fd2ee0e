/* test-dirs.c — see test-dirs.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include <glib/gstdio.h>

#include "test-dirs.h"

char *
test_dir_make_tmp (const char *tmpl)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);
  return dir;
}

char *
test_dir_make_home (const char *tmpl)
{
  char *home = test_dir_make_tmp (tmpl);
  g_autofree char *runtime_dir = g_build_filename (home, "run", NULL);

  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  g_setenv ("XDG_CACHE_HOME", home, TRUE);
  g_assert_cmpint (g_mkdir (runtime_dir, 0700), ==, 0);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  return home;
}

void
test_dir_remove_all (const char *path)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (path == NULL)
    return;
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        test_dir_remove_all (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}
