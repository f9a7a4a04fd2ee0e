/* strobe-discovery-file.c — advertises this process to tools on the same machine: one small
 * key=value file per process in a per-user directory (runtime/CONTROL.md, "Discovery").
 * Written atomically (temporary file + rename), rewritten when the tracing state changes,
 * removed at exit. Called from the control thread and from exit only. */
#include "strobe-output-private.h"
#include "strobe-control-private.h"
#include "strobe-discovery-dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char            disc_path[512];
static pid_t           disc_pid;
static bool            disc_atexit;

/* The user's directory (core/protocol/strobe-discovery-dir.h, the rule core/control reads
 * with), made when missing. One that is not the user's alone is refused, and the user is
 * told once per process: another user who made /tmp/strobe-UID first would otherwise hide
 * every program without a word. */
static bool
discovery_dir (char *buf, size_t size)
{
  static pid_t told;
  char why[160];

  if (!strobe_discovery_dir_path (buf, size))
    return false;
  if (strobe_discovery_dir_check (buf, true, why, sizeof why))
    return true;
  if (told != getpid ())
    {
      told = getpid ();
      fprintf (stderr, "strobe: the discovery directory %s %s; this program is not announced "
               "(strobe-cli ps and the viewer do not list it): remove that directory, or set "
               "XDG_RUNTIME_DIR\n", buf, why);
    }
  return false;
}

/* Field 22 of /proc/self/stat: the start time in clock ticks since boot. With the pid it
 * names this process uniquely, so a reader can tell a recycled pid from us. */
static unsigned long long
proc_start_ticks (void)
{
  char buf[1024];
  int fd = open ("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  ssize_t n;
  char *p;
  unsigned long long ticks = 0;

  if (fd < 0)
    return 0;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  p = strrchr (buf, ')');   /* the command name may hold spaces and parentheses */
  if (p == NULL)
    return 0;
  p++;
  for (int field = 3; field <= 22 && p; field++)
    {
      while (*p == ' ')
        p++;
      if (field == 22)
        ticks = strtoull (p, NULL, 10);
      p = strchr (p, ' ');
    }
  return ticks;
}

static void
clean_value (char *s)
{
  for (; *s; s++)
    if (*s == '\n' || *s == '\r')
      *s = ' ';
}

static void
remove_at_exit (void)
{
  strobe__discovery_remove ();
}

void
strobe__discovery_publish (uint16_t control_port, bool listen_all, bool tracing, const char *secret)
{
  static unsigned long long ticks;
  static time_t started;
  char dir[400], tmp[600], program[256], output[320], text[1400];
  int fd, len;
  bool ok;

  pthread_mutex_lock (&strobe__discovery_lock);
  if (disc_pid != getpid ())
    {
      if (!discovery_dir (dir, sizeof dir))
        goto out;
      disc_pid = getpid ();
      snprintf (disc_path, sizeof disc_path, "%s/%ld.discovery", dir, (long) disc_pid);
      ticks = proc_start_ticks ();
      started = time (NULL);
      if (!disc_atexit)
        disc_atexit = atexit (remove_at_exit) == 0;
    }
  snprintf (program, sizeof program, "%s", program_invocation_short_name);
  clean_value (program);
  strobe__out_describe (output, sizeof output);
  clean_value (output);
  len = snprintf (text, sizeof text,
                  "strobe-discovery=1\n"
                  "program=%s\n"
                  "pid=%ld\n"
                  "control_port=%u\n"
                  "control_address=%s\n"
                  "tracing=%d\n"
                  "output=%s\n"
                  "start_time=%lld\n"
                  "proc_start_ticks=%llu\n"
                  "control_secret=%s\n",
                  program, (long) disc_pid, control_port, listen_all ? "0.0.0.0" : "127.0.0.1",
                  tracing ? 1 : 0, output, (long long) started, ticks, secret);
  snprintf (tmp, sizeof tmp, "%s.tmp", disc_path);
  fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    goto out;
  ok = write (fd, text, (size_t) len) == len;
  close (fd);
  if (!ok || rename (tmp, disc_path) < 0)
    unlink (tmp);
out:
  pthread_mutex_unlock (&strobe__discovery_lock);
}

void
strobe__discovery_remove (void)
{
  pthread_mutex_lock (&strobe__discovery_lock);
  if (disc_pid != 0 && disc_pid == getpid ())   /* a forked child leaves its parent's alone */
    {
      unlink (disc_path);
      disc_pid = 0;
    }
  pthread_mutex_unlock (&strobe__discovery_lock);
}
