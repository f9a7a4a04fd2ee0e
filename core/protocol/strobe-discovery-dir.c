/* strobe-discovery-dir.c — see the header. */
#include "strobe-discovery-dir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool
strobe_discovery_dir_path (char *buf, size_t size)
{
  const char *xdg = getenv ("XDG_RUNTIME_DIR");
  struct stat st;
  int n;

  if (xdg && xdg[0] == '/' && stat (xdg, &st) == 0 && S_ISDIR (st.st_mode) && st.st_uid == geteuid ())
    n = snprintf (buf, size, "%s/strobe", xdg);
  else
    n = snprintf (buf, size, "/tmp/strobe-%u", (unsigned) geteuid ());
  if (n < 0 || (size_t) n >= size)
    {
      errno = ENAMETOOLONG;
      return false;
    }
  return true;
}

__attribute__ ((format (printf, 4, 5))) static bool
refuse (int err, char *why, size_t why_size, const char *fmt, ...)
{
  va_list ap;

  if (why && why_size)
    {
      va_start (ap, fmt);
      vsnprintf (why, why_size, fmt, ap);
      va_end (ap);
    }
  errno = err;
  return false;
}

bool
strobe_discovery_dir_check (const char *path, bool create, char *why, size_t why_size)
{
  struct stat st;

  if (path == NULL)
    return refuse (EINVAL, why, why_size, "is not a path");
  if (create && mkdir (path, 0700) < 0 && errno != EEXIST)
    return refuse (errno, why, why_size, "cannot be created: %s", strerror (errno));
  if (lstat (path, &st) < 0)
    return refuse (errno, why, why_size, "%s", errno == ENOENT ? "does not exist" : strerror (errno));
  if (S_ISLNK (st.st_mode))
    return refuse (EPERM, why, why_size, "is a symbolic link, not a directory of yours");
  if (!S_ISDIR (st.st_mode))
    return refuse (ENOTDIR, why, why_size, "is not a directory");
  if (st.st_uid != geteuid ())
    return refuse (EPERM, why, why_size, "belongs to uid %u, not to you (uid %u)",
                   (unsigned) st.st_uid, (unsigned) geteuid ());
  if ((st.st_mode & 077) != 0)
    return refuse (EPERM, why, why_size, "has mode %04o: others may use it; it must be 0700",
                   (unsigned) (st.st_mode & 07777));
  return true;
}
