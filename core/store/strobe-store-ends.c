/* strobe-store-ends.c — see the header.
 *
 * A GLib key file, `.trace-ends`, one group per file, named by a hash of its path (a
 * path may hold what a group name may not), with its `Path`, `Size`, `Modified` (ns) and
 * `Ended` (ns since the epoch). An entry holds only while the file has that size and
 * modification time: a file rewritten or replaced under the same name is another trace.
 * Entries of files that are gone are dropped when the file is read (once, as the store
 * starts: not a look at every file each time one end is learnt), and at most MAX_ENDS are
 * kept (the oldest learnt go first), so the file stays small.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>

#include <glib/gstdio.h>
#include <sys/stat.h>

#include "strobe-store-ends.h"

#define ENDS_FILE ".trace-ends"
#define MAX_ENDS  4096

struct _StrobeStoreEnds
{
  char     *path;
  GKeyFile *file;
};

StrobeStoreEnds *
strobe_store_ends_new (const char *directory)
{
  StrobeStoreEnds *self;

  g_return_val_if_fail (directory != NULL, NULL);

  self = g_new0 (StrobeStoreEnds, 1);
  self->path = g_build_filename (directory, ENDS_FILE, NULL);
  self->file = g_key_file_new ();
  /* Missing or unreadable: nothing learnt yet; the next write starts it again. */
  if (g_key_file_load_from_file (self->file, self->path, G_KEY_FILE_NONE, NULL))
    {
      g_auto(GStrv) groups = g_key_file_get_groups (self->file, NULL);

      for (guint i = 0; groups[i] != NULL; i++)
        {
          g_autofree char *path = g_key_file_get_string (self->file, groups[i], "Path", NULL);

          if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
            g_key_file_remove_group (self->file, groups[i], NULL);
        }
    }
  return self;
}

void
strobe_store_ends_free (StrobeStoreEnds *self)
{
  if (self == NULL)
    return;
  g_key_file_free (self->file);
  g_free (self->path);
  g_free (self);
}

static char *
group_of (const char *path)
{
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, path, -1);
}

static gboolean
file_stamp (const char *path,
            guint64    *size,
            guint64    *modified)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return FALSE;
  *size = (guint64) st.st_size;
  *modified = (guint64) st.st_mtim.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) st.st_mtim.tv_nsec;
  return TRUE;
}

guint64
strobe_store_ends_lookup (StrobeStoreEnds *self,
                          const char      *path,
                          guint64          size)
{
  g_autofree char *group = NULL;
  g_autofree char *kept = NULL;
  guint64 now_size, now_modified;

  g_return_val_if_fail (self != NULL && path != NULL, 0);

  group = group_of (path);
  kept = g_key_file_get_string (self->file, group, "Path", NULL);
  if (g_strcmp0 (kept, path) != 0 || !file_stamp (path, &now_size, &now_modified))
    return 0;
  if (now_size != size || g_key_file_get_uint64 (self->file, group, "Size", NULL) != size
      || g_key_file_get_uint64 (self->file, group, "Modified", NULL) != now_modified)
    return 0;
  return g_key_file_get_uint64 (self->file, group, "Ended", NULL);
}

static gboolean
save (StrobeStoreEnds  *self,
      GError          **error)
{
  gsize n = 0;
  g_auto(GStrv) groups = g_key_file_get_groups (self->file, &n);
  g_autofree char *data = NULL;
  gsize len;

  /* Groups are in the order they were first learnt. */
  for (gsize i = 0; i + MAX_ENDS < n; i++)
    g_key_file_remove_group (self->file, groups[i], NULL);
  data = g_key_file_to_data (self->file, &len, NULL);
  return g_file_set_contents (self->path, data, (gssize) len, error);
}

gboolean
strobe_store_ends_remember (StrobeStoreEnds  *self,
                            const char       *path,
                            guint64           end_time_ns,
                            GError          **error)
{
  g_autofree char *group = NULL;
  guint64 size, modified;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A key file is UTF-8 throughout: one odd name must not cost every other entry. */
  if (!g_utf8_validate (path, -1, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", "the path is not UTF-8");
      return FALSE;
    }
  if (!file_stamp (path, &size, &modified))
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  group = group_of (path);
  g_key_file_set_string (self->file, group, "Path", path);
  g_key_file_set_uint64 (self->file, group, "Size", size);
  g_key_file_set_uint64 (self->file, group, "Modified", modified);
  g_key_file_set_uint64 (self->file, group, "Ended", end_time_ns);
  return save (self, error);
}

void
strobe_store_ends_forget (StrobeStoreEnds *self,
                          const char      *path)
{
  g_autofree char *group = NULL;

  g_return_if_fail (self != NULL && path != NULL);

  group = group_of (path);
  if (g_key_file_remove_group (self->file, group, NULL))
    save (self, NULL);
}
