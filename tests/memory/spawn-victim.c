/* spawn-victim.c — for test-memory-trace.c: allocates 12345 bytes, then (unless it is the
 * child) runs itself as a child and exits with the child's status. The child exits 0
 * when its environment carries nothing of Strobe, 1 when it does; either way it
 * allocates 23456 bytes first.
 *
 * "inplace": allocates 11111 bytes and execs itself in place (execl, as env or a wrapper
 * script does) as "final", which allocates 34567 bytes and goes on as above. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void *volatile sink;

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "child") == 0)
    {
      const char *pre = getenv ("LD_PRELOAD");
      int traced = pre && strstr (pre, "strobe-preload") != NULL;

      sink = malloc (23456);
      for (char **e = environ; *e; e++)
        if (strncmp (*e, "STROBE_", 7) == 0)
          traced = 1;
      return traced;
    }
  if (argc > 1 && strcmp (argv[1], "inplace") == 0)
    {
      sink = malloc (11111);
      execl ("/proc/self/exe", argv[0], "final", (char *) NULL);
      return 125;
    }
  if (argc > 1 && strcmp (argv[1], "final") == 0)
    sink = malloc (34567);
  sink = malloc (12345);
  {
    pid_t pid = fork ();
    int status = 0;

    if (pid == 0)
      {
        execl ("/proc/self/exe", argv[0], "child", (char *) NULL);
        _exit (127);
      }
    if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
      return 126;
    return WEXITSTATUS (status);
  }
}
