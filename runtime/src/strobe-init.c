/* strobe-init.c — start-up from the environment, arguments or strobe_init(), and
 * shutdown. */
#include "strobe-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t  global_once = PTHREAD_ONCE_INIT;
static bool            initialized;
static bool            shut_down;
static char           *pending_file;
static char           *pending_host;
bool                   strobe__no_auto_init;

static void
global_init_once (void)
{
  strobe__clock_init ();
  strobe__channels_init ();
}

void
strobe__global_init (void)
{
  pthread_once (&global_once, global_init_once);
}

static long
env_long (const char *name, long fallback)
{
  const char *s = getenv (name);
  char *end;
  long v;

  if (s == NULL || *s == '\0')
    return fallback;
  v = strtol (s, &end, 10);
  return *end == '\0' && v >= 0 ? v : fallback;
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
    fprintf (stderr, "strobe: cannot connect to %s: %s\n", host, strerror (errno));
}

bool
strobe_init (const StrobeInitOptions *options)
{
  StrobeInitOptions defaults = { 0 };
  const StrobeInitOptions *o = options ? options : &defaults;
  const char *file, *host;
  size_t buffer;
  int wait;

  pthread_mutex_lock (&init_lock);
  if (initialized)
    {
      pthread_mutex_unlock (&init_lock);
      return true;
    }
  strobe__global_init ();
  buffer = o->buffer_bytes ? o->buffer_bytes
                           : (size_t) env_long ("STROBE_BUFFER_MB", STROBE_DEFAULT_BUFFER_MB) << 20;
  wait = o->block_wait_ms > 0 ? o->block_wait_ms
         : o->block_wait_ms < 0 ? 0
         : (int) env_long ("STROBE_BLOCK_WAIT_MS", STROBE_DEFAULT_WAIT_MS);
  strobe__pool_configure (buffer, wait);
  strobe__tail_configure (o->tail_bytes > 0 ? (size_t) o->tail_bytes
                          : o->tail_bytes < 0 ? 0
                          : (size_t) env_long ("STROBE_TAIL_MB", STROBE_DEFAULT_TAIL_BYTES >> 20) << 20);
  initialized = true;
  if (!o->no_worker && !env_true ("STROBE_NO_WORKER"))
    strobe__worker_start ();
  strobe__control_start (o);
  file = pending_file ? pending_file : getenv ("STROBE_TRACEFILE");
  host = pending_host ? pending_host : getenv ("STROBE_TRACEHOST");
  pthread_mutex_unlock (&init_lock);

  start_output (file, host);
  return true;
}

void
strobe_shutdown (void)
{
  pthread_mutex_lock (&init_lock);
  if (!initialized || shut_down)
    {
      pthread_mutex_unlock (&init_lock);
      return;
    }
  shut_down = true;
  pthread_mutex_unlock (&init_lock);

  strobe_cpu_flush_thread ();
  strobe__control_stop ();
  strobe__worker_stop ();
  strobe_output_stop ();
  /* Threads still logging must not stall waiting for a worker that is gone. */
  strobe__pool_configure (0, 0);
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

      if (take_value (av[i], "--trace", &v))
        strobe_channels_set_enabled (v, true);
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

  pthread_mutex_lock (&init_lock);
  running = initialized && !shut_down;
  pthread_mutex_unlock (&init_lock);
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
