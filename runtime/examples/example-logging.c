/* example-logging.c — text logging with deferred formatting: the format string goes out
 * once, each message only its arguments; the viewer and strobe-cli format them.
 *
 *   example-logging --trace=log --tracefile=logging.strobe
 *   strobe-cli log logging.strobe
 */
#include <strobe/strobe.h>

/* A category and the most verbose level it lets through until changed. */
STROBE_LOG_CATEGORY_DEFINE (LogStartup, STROBE_LOG_VERBOSITY_LOG);
STROBE_LOG_CATEGORY_DEFINE (LogNet, STROBE_LOG_VERBOSITY_VERBOSE);

int
main (int argc, char **argv)
{
  strobe_parse_args (&argc, &argv);
  strobe_init (NULL);

  /* printf conversions, checked by the compiler. */
  STROBE_LOG_MESSAGE (LogStartup, STROBE_LOG_DISPLAY, "starting %s version %d.%d", "example", 1, 2);
  for (int attempt = 1; attempt <= 3; attempt++)
    STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_WARNING, "connect to %s:%u failed (attempt %d of %d)",
                        "example.org", 443u, attempt, 3);
  STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_VERBOSE, "round trip %.2f ms", 23.5);
  /* More verbose than the category allows: not even sent. */
  STROBE_LOG_MESSAGE (LogStartup, STROBE_LOG_VERY_VERBOSE, "this one is filtered out at the source");
  STROBE_LOG_MESSAGE (LogStartup, STROBE_LOG_ERROR, "config file %s missing, using defaults", "/etc/example.conf");

  strobe_shutdown ();
  return 0;
}
