/* strobe-global-init.c — the start any part of the runtime may need before (or without)
 * strobe_init(): the clock, the session from the environment, the channels' rules from
 * STROBE_TRACE, and fork()'s handlers. Below every part that calls it, so a CPU scope or
 * an allocation report can start it without reaching up to strobe-init.c. */
#include "strobe-instrument-private.h"

static pthread_once_t global_once = PTHREAD_ONCE_INIT;

static void
global_init_once (void)
{
  strobe__clock_init ();
  strobe__session_init ();
  strobe__channels_init ();
  strobe__fork_init ();
}

void
strobe__global_init (void)
{
  pthread_once (&global_once, global_init_once);
}
