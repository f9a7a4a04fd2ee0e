/* group-victim.c — a launcher for tests/group, run under `strobe-cli run --follow-children`:
 * it allocates, forks a child that does not exec, and later starts a child that execs this
 * program again, then waits for both. Plain C, no Strobe: the interposer traces it.
 *
 *   group-victim parent DELAY_MS START_FILE   the launcher; the exec'd child is started
 *                                             DELAY_MS after it, and writes
 *                                             "PID MONOTONIC_US" to START_FILE when it
 *                                             is forked, before its exec
 *   group-victim child START_FILE             that child
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long
monotonic_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (long long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void
work (size_t size)
{
  char *volatile p = malloc (size);

  if (p)
    p[0] = 1;
  free (p);
}

int
main (int argc, char **argv)
{
  pid_t forked, execed;
  int status, failed = 0;

  if (argc == 3 && strcmp (argv[1], "child") == 0)
    {
      work (1000);
      usleep (1500 * 1000);
      return 0;
    }
  if (argc != 4 || strcmp (argv[1], "parent") != 0)
    return 2;

  work (100);
  forked = fork ();
  if (forked == 0)
    {
      work (200);
      usleep (800 * 1000);
      exit (0);   /* exit, not _exit: the runtime's atexit ends the child's trace */
    }
  usleep ((useconds_t) atoi (argv[2]) * 1000);
  execed = fork ();
  if (execed == 0)
    {
      /* Its start: the moment it is made, before exec (its pid stays). */
      FILE *f = fopen (argv[3], "w");

      if (!f)
        _exit (3);
      fprintf (f, "%d %lld\n", (int) getpid (), monotonic_us ());
      fclose (f);
      execl ("/proc/self/exe", argv[0], "child", argv[3], (char *) NULL);
      _exit (127);
    }
  if (forked < 0 || execed < 0)
    return 4;
  if (waitpid (forked, &status, 0) != forked || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    failed = 1;
  if (waitpid (execed, &status, 0) != execed || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    failed = 1;
  return failed ? 5 : 0;
}
