/* bench-log-view.c — see the header. */
#include "config.h"

#include <stdio.h>

#include "bench-common.h"
#include "bench-log-view.h"

void
bench_log_view_scroll (StrobeDocument *document)
{
  printf ("scroll: not measured yet\n");
}
