/* group-pair.c — a client and its server, two processes of one session, for tests/group:
 * requests joined by flows (begin in the client, a step in the server, end back in the
 * client), and instants both mark on the clock they share, to check how their traces
 * align.
 *
 *   group-pair CLIENT_TRACE SERVER_TRACE [REQUESTS INSTANTS]
 * The client forks and execs the server ("group-pair --serve TRACE FD_IN FD_OUT"), the
 * two talk through pipes. From the moment the client sent through the pipe (the barrier),
 * both record scopes "Instant" every half millisecond and print "ROLE k BEFORE AFTER": the
 * CLOCK_MONOTONIC ns between which each read its trace clock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strobe/strobe.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Sleeps until CLOCK_MONOTONIC @ns. Sleeping rather than spinning: on a loaded machine a
 * process that spun through the second before the first instant had used up its share,
 * and the client and the server were run in turns between the others' slices, each
 * making its instants in bursts never within 3 ms of the other's (no pair to compare, 3
 * runs in 40 at load 7-9); a sleeper is run as soon as it wakes. */
static void
sleep_until (long long ns)
{
  struct timespec ts = { (time_t) (ns / 1000000000LL), (long) (ns % 1000000000LL) };

  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

static void
put (int fd, const void *data, size_t n)
{
  if (write (fd, data, n) != (ssize_t) n)
    exit (10);
}

static void
get (int fd, void *data, size_t n)
{
  size_t got = 0;

  while (got < n)
    {
      ssize_t r = read (fd, (char *) data + got, n - got);
      if (r <= 0)
        exit (11);
      got += (size_t) r;
    }
}

static StrobeCpuSpec instant_spec = STROBE_CPU_SPEC_INIT ("Instant");

/* From @first on, an instant every half millisecond: a scope where strobe_time() was read
 * between two CLOCK_MONOTONIC reads at most 100 ns apart (retried until they are: a
 * loaded machine takes the CPU away now and then), so each scope's moment on the clock
 * both processes share is known within 50 ns. The lines go out after the last, so that no
 * write stands between two instants. */
static void
mark_instants (const char *role, long long first, int count)
{
  long long (*at)[2] = calloc ((size_t) count, sizeof *at);

  if (at == NULL)
    exit (13);
  for (int k = 0; k < count; k++)
    {
      long long due = first + (long long) k * 500000LL, before, after;
      uint64_t ts;

      sleep_until (due);
      do
        {
          before = mono_ns ();
          ts = strobe_time ();
          after = mono_ns ();
        }
      while (after - before > 100);
      at[k][0] = before;
      at[k][1] = after;
      strobe_cpu_begin_at (&instant_spec, ts);
      strobe_cpu_end_at (ts + 1);
    }
  strobe_cpu_flush_thread ();
  for (int k = 0; k < count; k++)
    {
      char line[96];
      int n = snprintf (line, sizeof line, "%s %d %lld %lld\n", role, k, at[k][0], at[k][1]);
      put (1, line, (size_t) n);
    }
  free (at);
}

static void
start_tracing (const char *path)
{
  if (!strobe_init (NULL) || !strobe_channels_set_enabled ("cpu", true) || !strobe_output_file (path))
    exit (12);
  strobe_thread_set_name ("main", NULL, 0);
}

static int
serve (const char *trace, int in, int out)
{
  char op;
  uint64_t id;
  long long first;
  int count;

  start_tracing (trace);
  put (out, "R", 1);
  for (;;)
    {
      get (in, &op, 1);
      if (op == 'Q')
        break;
      if (op == 'I')
        {
          get (in, &first, sizeof first);
          get (in, &count, sizeof count);
          mark_instants ("server", first, count);
          put (out, "I", 1);
          continue;
        }
      get (in, &id, sizeof id);
      {
        STROBE_CPU_SCOPE ("HandleRequest");
        strobe_flow_step (id);
        usleep (200);
        put (out, &id, sizeof id);
      }
    }
  strobe_shutdown ();
  return 0;
}

int
main (int argc, char **argv)
{
  int c2s[2], s2c[2], status;
  int requests = 10, instants = 300;
  char fd_in[16], fd_out[16], ack;
  pid_t server;
  long long first;

  if (argc == 5 && strcmp (argv[1], "--serve") == 0)
    return serve (argv[2], atoi (argv[3]), atoi (argv[4]));
  if (argc != 3 && argc != 5)
    return 2;
  if (argc == 5)
    {
      requests = atoi (argv[3]);
      instants = atoi (argv[4]);
    }
  if (pipe (c2s) != 0 || pipe (s2c) != 0)
    return 3;
  server = fork ();
  if (server == 0)
    {
      snprintf (fd_in, sizeof fd_in, "%d", c2s[0]);
      snprintf (fd_out, sizeof fd_out, "%d", s2c[1]);
      execl ("/proc/self/exe", argv[0], "--serve", argv[2], fd_in, fd_out, (char *) NULL);
      _exit (127);
    }
  start_tracing (argv[1]);
  get (s2c[0], &ack, 1);

  for (int i = 0; i < requests; i++)
    {
      uint64_t id = 0x5e55000000000000ull + (uint64_t) i, back;
      {
        STROBE_CPU_SCOPE ("SendRequest");
        strobe_flow_begin (id);
        put (c2s[1], "C", 1);
        put (c2s[1], &id, sizeof id);
      }
      get (s2c[0], &back, sizeof back);
      {
        STROBE_CPU_SCOPE ("ReceiveReply");
        strobe_flow_end (back);
      }
    }

  /* The barrier: the server learns the instants through the pipe, well before the first —
   * a second ahead: on a loaded machine the server was seen to wake more than 300 ms late,
   * after every client instant, and no pair was left to compare. */
  first = mono_ns () + 1000000000LL;
  put (c2s[1], "I", 1);
  put (c2s[1], &first, sizeof first);
  put (c2s[1], &instants, sizeof instants);
  mark_instants ("client", first, instants);
  get (s2c[0], &ack, 1);

  put (c2s[1], "Q", 1);
  if (waitpid (server, &status, 0) != server || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 4;
  strobe_shutdown ();
  return 0;
}
