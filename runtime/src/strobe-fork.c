/* strobe-fork.c — what a fork() does to the runtime (runtime/README.md, "fork").
 *
 * The child is a copy of the parent with one thread: it holds the parent's output
 * descriptor, its unshipped buffers and its tail, but neither the worker nor the control
 * thread. Had it kept them, its exit would write its copy of the buffers, End and the
 * schemas into the parent's file at the shared offset, or end the parent's recording over
 * TCP. So the child never writes to its parent's outputs: its copies are closed (closing
 * a copy touches nothing of the parent's), and everything buffered before the fork is
 * dropped, since the parent ships it. By default the runtime is then off in the child;
 * with STROBE_FOLLOW_FORK=1 (or STROBE_INIT_FOLLOW_FORK) the child starts a trace of its
 * own: a new output of the same kind (the file name gets the child's pid), its own
 * worker, control server and discovery file.
 *
 * pthread_atfork's prepare handler takes every lock of the runtime, in the one order in
 * which they nest elsewhere, so the child gets them in a consistent state (a lock held
 * by a thread that does not exist in the child would never be released there). */
#include "strobe-buffers-private.h"
#include "strobe-output-private.h"
#include "strobe-control-private.h"
#include "strobe-instrument-private.h"
#include "strobe-memory-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Outer locks first: each of these may be held while taking the ones after it. */
static pthread_mutex_t *const fork_locks[] = {
  &strobe__init_lock,
  &strobe__channels_lock,
  &strobe__log_lock,
  &strobe__cpu_spec_lock,
  &strobe__counters_lock,
  &strobe__bookmark_lock,
  &strobe__discovery_lock,
  &strobe__update_lock,
  &strobe__threads_lock,
  &strobe__events_lock,
  &strobe__important_lock,
  &strobe__pool_lock,
  &strobe__worker_lock,
  &strobe__session_lock,
};

#define N_FORK_LOCKS (sizeof fork_locks / sizeof fork_locks[0])

/* The counters' value locks (strobe-counters.c) come right after the first: each is held
 * while its counter's spec and value are emitted. */
static void
unlock_all (void)
{
  for (size_t i = N_FORK_LOCKS; i-- > 1;)
    pthread_mutex_unlock (fork_locks[i]);
  strobe__counters_fork_lock (false);
  pthread_mutex_unlock (fork_locks[0]);
}

static void
prepare (void)
{
  pthread_mutex_lock (fork_locks[0]);
  strobe__counters_fork_lock (true);
  for (size_t i = 1; i < N_FORK_LOCKS; i++)
    pthread_mutex_lock (fork_locks[i]);
}

static void
parent (void)
{
  unlock_all ();
}

/* "dir/app.strobe" → "dir/app.PID.strobe"; a name without an extension gets ".PID". */
static void
child_path (const char *path, char *out, size_t size)
{
  const char *slash = strrchr (path, '/');
  const char *dot = strrchr (path, '.');

  if (dot == NULL || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
    snprintf (out, size, "%s.%ld", path, (long) getpid ());
  else
    snprintf (out, size, "%.*s.%ld%s", (int) (dot - path), path, (long) getpid (), dot);
}

static void
child (void)
{
  char kind[8], what[300];
  bool running, follow, worker, control;

  strobe__memory_after_fork_child ();   /* memory tracing ends in a child, first */
  running = strobe__init_running_locked (&follow);
  worker = strobe__worker_running ();
  control = strobe__control_running ();
  strobe__out_forget_child_locked (kind, sizeof kind, what, sizeof what);
  strobe__update_after_fork_child ();
  strobe__control_after_fork_child ();
  strobe__threads_after_fork_child ();
  strobe__cpu_after_fork_child ();
  strobe__sampling_after_fork_child ();
  strobe__tail_clear_locked ();
  if (!running || !follow)
    {
      strobe__channels_after_fork_child_off ();
      strobe__init_after_fork_child_off ();
    }
  unlock_all ();

  if (!running)
    return;
  if (!follow)
    {
      /* Off: a child that switches channels on again fills one block, then drops and
       * counts, and never waits for a worker that is not there. */
      strobe__pool_configure (1, 0);
      return;
    }
  if (worker)
    strobe__worker_start ();
  if (control)
    strobe__control_start (strobe__init_options ());
  if (strcmp (kind, "file") == 0)
    {
      char path[340];

      child_path (what, path, sizeof path);
      if (!strobe_output_file (path))
        fprintf (stderr, "strobe: forked child %ld cannot write trace file %s: %s\n",
                 (long) getpid (), path, strerror (errno));
    }
  else if (strcmp (kind, "host") == 0 && !strobe_output_host (what))
    fprintf (stderr, "strobe: forked child %ld cannot connect to %s: %s\n", (long) getpid (),
             what, strerror (errno));
}

void
strobe__fork_init (void)
{
  pthread_atfork (prepare, parent, child);
}
