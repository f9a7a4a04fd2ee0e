/* strobe-store-secret.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strobe-auth.h"
#include "strobe-store-error.h"
#include "strobe-store-secret.h"

#define GENERATED_BYTES 32
/* The file holds the hex digits and at most a newline; anything longer is not ours. */
#define FILE_MAX        (2 * GENERATED_BYTES + 2)

static gboolean
chosen_secret_ok (const char *s, GError **error)
{
  gsize n = strlen (s);

  for (gsize i = 0; i < n; i++)
    if ((guchar) s[i] <= 0x20 || (guchar) s[i] == 0x7f)
      {
        g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                     _("%s must not contain blanks or control characters"),
                     STROBE_STORE_SECRET_ENV);
        return FALSE;
      }
  if (n < STROBE_STORE_SECRET_MIN || n > STROBE_STORE_SECRET_MAX)
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                   _("%s must be %d to %d characters long (it is %zu)"),
                   STROBE_STORE_SECRET_ENV, STROBE_STORE_SECRET_MIN, STROBE_STORE_SECRET_MAX, n);
      return FALSE;
    }
  return TRUE;
}

/* Reads the file, trusting it only when nobody but the user could have written or read
 * it: a secret others can read is no secret, one others own may be a plant. */
static char *
read_secret_file (const char *path, GError **error)
{
  char buf[FILE_MAX + 1];
  struct stat st;
  ssize_t n;
  int fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot read the store secret %s: %s"), path, g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                   _("The store secret %s is not a regular file"), path);
      return NULL;
    }
  if (st.st_uid != geteuid ())
    {
      close (fd);
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                   _("The store secret %s belongs to another user (uid %u); remove it"),
                   path, (guint) st.st_uid);
      return NULL;
    }
  if ((st.st_mode & 077) != 0)
    {
      close (fd);
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                   _("The store secret %s can be used by other users (mode %04o); run “chmod 600 %s” and restart the store"),
                   path, (guint) (st.st_mode & 07777), path);
      return NULL;
    }
  n = read (fd, buf, sizeof buf);
  close (fd);
  if (n < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot read the store secret %s: %s"), path, g_strerror (saved));
      return NULL;
    }
  if (n > 0 && buf[n - 1] == '\n')
    n--;
  buf[n] = '\0';
  {
    guint8 raw[GENERATED_BYTES];
    gboolean ok = strobe_hex_decode (buf, (size_t) n, raw, sizeof raw);

    strobe_auth_wipe (raw, sizeof raw);
    if (!ok)
      {
        strobe_auth_wipe (buf, sizeof buf);
        g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                     _("The store secret %s is damaged (it must hold 64 hex digits); remove it and restart the store"),
                     path);
        return NULL;
      }
  }
  return g_strdup (buf);
}

/* Writes a new secret where none is, without ever showing a half-written one: a
 * temporary file (mode 0600 from the start), synced, then link()ed into place, which
 * fails rather than replaces when another process got there first. */
static gboolean
create_secret_file (const char *directory, const char *path, GError **error)
{
  g_autofree char *tmp = g_build_filename (directory, ".store.secret.XXXXXX", NULL);
  guint8 raw[GENERATED_BYTES];
  char text[2 * GENERATED_BYTES + 2];
  int fd, saved = 0;
  gboolean ok;

  if (!strobe_auth_random (raw, sizeof raw))
    {
      saved = errno;
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                   _("No randomness for the store secret: %s"), g_strerror (saved));
      return FALSE;
    }
  strobe_hex_encode (raw, sizeof raw, text, sizeof text - 1);
  strobe_auth_wipe (raw, sizeof raw);
  strcat (text, "\n");
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      saved = errno;
      strobe_auth_wipe (text, sizeof text);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot create the store secret in %s: %s"), directory, g_strerror (saved));
      return FALSE;
    }
  ok = fchmod (fd, 0600) == 0
       && write (fd, text, strlen (text)) == (ssize_t) strlen (text)
       && fsync (fd) == 0;
  if (!ok)
    saved = errno;
  strobe_auth_wipe (text, sizeof text);
  if (close (fd) != 0 && ok)
    {
      ok = FALSE;
      saved = errno;
    }
  if (ok && link (tmp, path) != 0 && errno != EEXIST)
    {
      ok = FALSE;
      saved = errno;
    }
  g_unlink (tmp);
  if (!ok)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot create the store secret %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

char *
strobe_store_secret_load (const char  *directory,
                          gboolean     create,
                          GError     **error)
{
  const char *chosen = g_getenv (STROBE_STORE_SECRET_ENV);
  g_autofree char *path = NULL;
  g_autoptr(GError) local = NULL;
  char *secret;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (chosen != NULL && *chosen != '\0')
    return chosen_secret_ok (chosen, error) ? g_strdup (chosen) : NULL;
  g_return_val_if_fail (directory != NULL, NULL);

  path = g_build_filename (directory, STROBE_STORE_SECRET_FILE, NULL);
  secret = read_secret_file (path, &local);
  if (secret != NULL || !create || !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      return secret;
    }
  if (!create_secret_file (directory, path, error))
    return NULL;
  /* Read back what is there now: ours, or the one a concurrent server linked first. */
  return read_secret_file (path, error);
}
