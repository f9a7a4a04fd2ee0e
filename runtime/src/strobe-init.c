/* strobe-init.c — start-up from the environment, arguments or strobe_init(), and
 * shutdown. */
#include "strobe-buffers-private.h"
#include "strobe-output-private.h"
#include "strobe-control-private.h"
#include "strobe-instrument-private.h"
#include "strobe-memory-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <fcntl.h>

static bool            initialized;
static bool            shut_down;
static bool            options_applied;   /* a strobe_init() with options has run */
static bool            forked_off;        /* a forked child that does not trace */
static bool            follow_fork;
static StrobeInitOptions saved_options;   /* what a forked child that follows restarts with */
static char           *saved_write_dir;
static char           *pending_file;
static char           *pending_host;
bool                   strobe__no_auto_init;

/* A variable that is set but says nothing we can use is reported, never silently
 * replaced by the default. */
static long
env_long (const char *name, long fallback, const char *unit)
{
  const char *s = getenv (name);
  char *end;
  long v;

  if (s == NULL)
    return fallback;
  errno = 0;
  v = strtol (s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 0 || errno == ERANGE || v > (1L << 30))
    {
      fprintf (stderr, "strobe: %s=%s is not a number of %s; using %ld\n", name, s, unit, fallback);
      return fallback;
    }
  return v;
}

static bool
env_true (const char *name)
{
  const char *s = getenv (name);

  return s && (strcmp (s, "1") == 0 || strcasecmp (s, "true") == 0 || strcasecmp (s, "yes") == 0);
}

static void
start_output (const char *file, const char *host)
{
  if (file && *file && !strobe_output_file (file))
    fprintf (stderr, "strobe: cannot write trace file %s: %s\n", file, strerror (errno));
  else if ((!file || !*file) && host && *host && !strobe_output_host (host))
    {
      int err = errno;
      const char *problem = strobe__host_port_problem (host);

      if (problem)
        fprintf (stderr, "strobe: trace host %s is not HOST[:PORT] (%s): no recorder\n", host, problem);
      else
        fprintf (stderr, "strobe: cannot connect to %s: %s\n", host, strobe__connect_error (err));
    }
}

static void
save_options_locked (const StrobeInitOptions *o)
{
  saved_options = *o;
  free (saved_write_dir);
  saved_write_dir = o->control_write_dir ? strdup (o->control_write_dir) : NULL;
  saved_options.control_write_dir = saved_write_dir;
  follow_fork = (o->flags & STROBE_INIT_FOLLOW_FORK) || env_true ("STROBE_FOLLOW_FORK");
}

static void
configure_memory (const StrobeInitOptions *o, bool from_env)
{
  size_t buffer = o->buffer_bytes ? o->buffer_bytes
                  : from_env ? (size_t) env_long ("STROBE_BUFFER_MB", STROBE_DEFAULT_BUFFER_MB, "MiB") << 20
                  : 0;
  int wait = o->block_wait_ms > 0 ? o->block_wait_ms
             : o->block_wait_ms < 0 ? 0
             : from_env ? (int) env_long ("STROBE_BLOCK_WAIT_MS", STROBE_DEFAULT_WAIT_MS, "milliseconds")
             : -1;

  strobe__pool_configure (buffer, wait);
  if (o->tail_bytes || from_env)
    strobe__tail_configure (o->tail_bytes > 0 ? (size_t) o->tail_bytes
                            : o->tail_bytes < 0 ? 0
                            : (size_t) env_long ("STROBE_TAIL_MB", STROBE_DEFAULT_TAIL_BYTES >> 20, "MiB") << 20);
}

/* The runtime was started before the program's own strobe_init() (from the environment,
 * by the LD_PRELOAD interposer, or by an output call): the program's options still win. */
static void
apply_options_locked (const StrobeInitOptions *o)
{
  configure_memory (o, false);
  if (o->no_worker)
    strobe__worker_stop ();
  if (o->control_port || o->control_flags || o->control_write_dir)
    {
      strobe__control_stop ();
      strobe__control_start (o);
    }
  save_options_locked (o);
}

bool
strobe_init (const StrobeInitOptions *options)
{
  StrobeInitOptions defaults = { 0 };
  const StrobeInitOptions *o = options ? options : &defaults;
  const char *file, *host;

  pthread_mutex_lock (&strobe__init_lock);
  if (forked_off)
    {
      pthread_mutex_unlock (&strobe__init_lock);
      errno = ECHILD;
      return false;
    }
  if (initialized)
    {
      bool report = options && !options_applied && !shut_down;

      if (report)
        {
          options_applied = true;
          apply_options_locked (options);
        }
      pthread_mutex_unlock (&strobe__init_lock);
      /* main() is running: the program's channels have all registered by now. */
      if (report)
        strobe__channels_report_unmatched (true);
      return true;
    }
  strobe__memory_guard++;
  strobe__global_init ();
  strobe__memory_init_once ();
  {
    const char *codec = getenv ("STROBE_COMPRESSION");

    if (codec && !strobe__out_set_compression (codec))
      fprintf (stderr, "strobe: STROBE_COMPRESSION=%s is not lz4, zstd or zstd:LEVEL (1-19); "
               "keeping the default\n", codec);
  }
  configure_memory (o, true);
  strobe__sampling_init_from_env ();
  initialized = true;
  options_applied = options != NULL;
  save_options_locked (o);
  if (!o->no_worker && !env_true ("STROBE_NO_WORKER"))
    strobe__worker_start ();
  strobe__control_start (o);
  file = pending_file ? pending_file : getenv ("STROBE_TRACEFILE");
  host = pending_host ? pending_host : getenv ("STROBE_TRACEHOST");
  if (!pending_file && file && *file == '\0')
    fprintf (stderr, "strobe: STROBE_TRACEFILE is set but empty: no trace file\n");
  if (!pending_host && host && *host == '\0')
    fprintf (stderr, "strobe: STROBE_TRACEHOST is set but empty: no recorder\n");
  pthread_mutex_unlock (&strobe__init_lock);
  strobe__channels_schedule_report ();
  if (options)
    strobe__channels_report_unmatched (true);

  start_output (file, host);
  strobe__memory_guard--;
  return true;
}

/* ---- outputs: each starts the runtime first ------------------------------------------ */

bool
strobe_output_file (const char *path)
{
  int fd;

  if (!strobe_init (NULL))
    return false;
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      strobe__out_set_error (errno);
      return false;
    }
  return strobe__out_start_described (fd, false, "file", path);
}

bool
strobe_output_host (const char *host_port)
{
  int fd;

  if (!strobe_init (NULL))
    return false;
  fd = strobe__connect_host (host_port);
  if (fd < 0)
    {
      strobe__out_set_error (errno);
      return false;
    }
  return strobe__out_start_described (fd, true, "host", host_port);
}

/* ---- fork() ----------------------------------------------------------------------------
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
 * The locks are taken around the fork by strobe-runtime-hooks.c (every one, in their
 * order); here is what the child does with them held, and once they are released. */

static bool
init_running_locked (bool *follow)
{
  *follow = follow_fork;
  return initialized && !shut_down;
}

static void
init_after_fork_child_off (void)
{
  if (initialized)
    forked_off = true;
  shut_down = true;
}

/* What the child had, for its restart once the locks are released. */
static bool child_running, child_follow, child_worker, child_control;
static char child_kind[8], child_what[300];

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

/* With every runtime lock held. */
static void
child_locked (void)
{
  strobe__memory_after_fork_child ();   /* memory tracing ends in a child, first */
  child_running = init_running_locked (&child_follow);
  child_worker = strobe__worker_running ();
  child_control = strobe__control_running ();
  strobe__out_forget_child_locked (child_kind, sizeof child_kind, child_what, sizeof child_what);
  strobe__update_after_fork_child ();
  strobe__control_after_fork_child ();
  strobe__threads_after_fork_child ();
  strobe__cpu_after_fork_child ();
  strobe__sampling_after_fork_child ();
  strobe__tail_clear_locked ();
  if (!child_running || !child_follow)
    {
      strobe__channels_after_fork_child_off ();
      init_after_fork_child_off ();
    }
}

static void
child_unlocked (void)
{
  if (!child_running)
    return;
  if (!child_follow)
    {
      /* Off: a child that switches channels on again fills one block, then drops and
       * counts, and never waits for a worker that is not there. */
      strobe__pool_configure (1, 0);
      return;
    }
  if (child_worker)
    strobe__worker_start ();
  if (child_control)
    strobe__control_start (&saved_options);
  if (strcmp (child_kind, "file") == 0)
    {
      char path[340];

      child_path (child_what, path, sizeof path);
      if (!strobe_output_file (path))
        fprintf (stderr, "strobe: forked child %ld cannot write trace file %s: %s\n",
                 (long) getpid (), path, strerror (errno));
    }
  else if (strcmp (child_kind, "host") == 0 && !strobe_output_host (child_what))
    fprintf (stderr, "strobe: forked child %ld cannot connect to %s: %s\n", (long) getpid (),
             child_what, strerror (errno));
}


/* strobe-runtime-hooks.c takes every lock around the fork and calls these in the child. */
static void
fork_hooks (StrobeHooks *hooks)
{
  hooks->fork_child_locked = child_locked;
  hooks->fork_child_unlocked = child_unlocked;
}
STROBE_HOOKS_SETTER (fork_hooks);

void
strobe_shutdown (void)
{
  pthread_mutex_lock (&strobe__init_lock);
  if (!initialized || shut_down)
    {
      pthread_mutex_unlock (&strobe__init_lock);
      return;
    }
  shut_down = true;
  pthread_mutex_unlock (&strobe__init_lock);

  strobe__memory_guard++;
  strobe__channels_report_unmatched (true);
  strobe_cpu_flush_thread ();
  strobe__control_stop ();
  strobe__worker_stop ();
  /* Sampling stops before the output's last drain, which ships what the rings hold. */
  pthread_mutex_lock (&strobe__update_lock);
  strobe__sampling_quiesce ();
  pthread_mutex_unlock (&strobe__update_lock);
  strobe_output_stop ();
  pthread_mutex_lock (&strobe__update_lock);
  strobe__sampling_shutdown ();
  pthread_mutex_unlock (&strobe__update_lock);
  /* Threads still logging must not stall waiting for a worker that is gone. */
  strobe__pool_configure (0, 0);
  strobe__memory_guard--;
}

static bool
take_value (const char *arg, const char *name, const char **value)
{
  size_t n = strlen (name);

  if (strncmp (arg, name, n) != 0 || arg[n] != '=')
    return false;
  *value = arg + n + 1;
  return true;
}

bool
strobe_parse_args (int *argc, char ***argv)
{
  char **av = *argv;
  int out = 1;
  bool running;

  for (int i = 1; i < *argc; i++)
    {
      const char *v;

      /* What follows "--" is the program's (or a program it runs), never ours. */
      if (strcmp (av[i], "--") == 0)
        {
          while (i < *argc)
            av[out++] = av[i++];
          break;
        }
      if (take_value (av[i], "--trace", &v))
        strobe__channels_add_start_list (v);
      else if (take_value (av[i], "--tracefile", &v))
        {
          free (pending_file);
          pending_file = strdup (v);
        }
      else if (take_value (av[i], "--tracehost", &v))
        {
          free (pending_host);
          pending_host = strdup (v);
        }
      else
        av[out++] = av[i];
    }
  if (out < *argc)
    av[out] = NULL;
  *argc = out;

  pthread_mutex_lock (&strobe__init_lock);
  running = initialized && !shut_down;
  pthread_mutex_unlock (&strobe__init_lock);
  if (running)
    start_output (pending_file, pending_host);
  return true;
}


/* Programs that only set environment variables get tracing without a line of setup. */
__attribute__ ((constructor)) static void
auto_init (void)
{
  if (strobe__no_auto_init)
    return;
  if (getenv ("STROBE_TRACEFILE") || getenv ("STROBE_TRACEHOST") || getenv ("STROBE_TRACE"))
    {
      strobe_init (NULL);
      atexit (strobe_shutdown);
    }
}
