/* fork-victim.c — for test-memory-trace.c: links the runtime and reports allocations
 * through the memory API with the live table kept, from two threads that never stop, and
 * forks 50 children meanwhile; each child reports an allocation of its own and exits.
 * Run with STROBE_FOLLOW_FORK=1 a child starts an output of its own at once: it must not
 * wait for a table lock one of the threads that do not exist there held. Prints "done". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <strobe/strobe.h>

static volatile int stop;

static void *
churn (void *data)
{
  uint32_t heap = strobe_memory_heap_register ("churn", 0, 0);

  (void) data;
  while (!stop)
    {
      void *p = malloc (64);
      strobe_memory_alloc (p, 64, 0, heap);
      strobe_memory_free (p, heap);
      free (p);
    }
  return NULL;
}

int
main (void)
{
  pthread_t threads[2];

  strobe_memory_set_live_table (true);
  for (int i = 0; i < 2; i++)
    pthread_create (&threads[i], NULL, churn, NULL);
  for (int k = 0; k < 50; k++)
    {
      pid_t pid = fork ();
      int status;

      if (pid == 0)
        {
          uint32_t heap = strobe_memory_heap_register ("child", 0, 0);
          void *p = malloc (100);

          strobe_memory_alloc (p, 100, 0, heap);
          strobe_memory_free (p, heap);
          free (p);
          _exit (0);
        }
      if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status))
        return 1;
    }
  stop = 1;
  for (int i = 0; i < 2; i++)
    pthread_join (threads[i], NULL);
  puts ("done");
  return 0;
}
