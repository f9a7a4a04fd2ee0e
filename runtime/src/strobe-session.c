/* strobe-session.c — the session name every handshake carries (strobe-session.h), and
 * the clock domain: the machine's boot id, which tells a reader whether two traces read
 * one clock (core/protocol/PROTOCOL.md §1, "Traces on one clock"). */
#include "strobe-private.h"
#include "strobe-auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <strobe/strobe-session.h>

static char session_name[STROBE_SESSION_NAME_MAX + 1];
static bool session_set;   /* by STROBE_SESSION at start, or by the API */

/* At start: the interposer takes STROBE_* out of the environment once the runtime has
 * started (runtime/INSTRUMENTATION.md, "Children"), so the variable is read now, once. */
static pthread_once_t session_once = PTHREAD_ONCE_INIT;

static void
session_from_env (void)
{
  const char *env = getenv ("STROBE_SESSION");
  size_t len;

  if (env == NULL || *env == '\0')
    return;
  len = strnlen (env, STROBE_SESSION_NAME_MAX + 1);
  if (len > STROBE_SESSION_NAME_MAX)
    {
      fprintf (stderr, "strobe: STROBE_SESSION is longer than %d bytes; no session\n",
               STROBE_SESSION_NAME_MAX);
      return;
    }
  pthread_mutex_lock (&strobe__session_lock);
  if (!session_set)
    {
      memcpy (session_name, env, len);
      session_name[len] = '\0';
      session_set = true;
    }
  pthread_mutex_unlock (&strobe__session_lock);
}

void
strobe__session_init (void)
{
  pthread_once (&session_once, session_from_env);
}

bool
strobe_set_session_name (const char *name)
{
  size_t len;

  if (!name || !*name)
    {
      errno = EINVAL;
      return false;
    }
  len = strlen (name);
  if (len > STROBE_SESSION_NAME_MAX)
    {
      errno = ENAMETOOLONG;
      return false;
    }
  pthread_mutex_lock (&strobe__session_lock);
  memcpy (session_name, name, len + 1);
  session_set = true;
  pthread_mutex_unlock (&strobe__session_lock);
  /* Children inherit the environment, and with it the session. */
  return setenv ("STROBE_SESSION", name, 1) == 0;
}

size_t
strobe_get_session_name (char *buf, size_t size)
{
  const char *from;
  size_t len;

  if (!buf || size == 0)
    {
      errno = EINVAL;
      return 0;
    }
  strobe__session_init ();
  pthread_mutex_lock (&strobe__session_lock);
  from = session_set ? session_name : "";
  len = strnlen (from, STROBE_SESSION_NAME_MAX);
  if (len > size - 1)
    len = size - 1;
  memcpy (buf, from, len);
  buf[len] = '\0';
  pthread_mutex_unlock (&strobe__session_lock);
  return len;
}

bool
strobe__clock_domain (uint8_t domain[16])
{
  char text[64], digits[32];
  ssize_t n;
  int fd, got = 0;

  memset (domain, 0, 16);
  fd = open ("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  n = read (fd, text, sizeof text - 1);
  close (fd);
  if (n <= 0)
    return false;
  for (ssize_t i = 0; i < n && got < (int) sizeof digits; i++)
    if (text[i] != '-' && text[i] != '\n')   /* the UUID form's dashes */
      digits[got++] = text[i];
  if (!strobe_hex_decode (digits, (size_t) got, domain, 16))
    {
      memset (domain, 0, 16);
      return false;
    }
  return true;
}
