/* example-event.c — the smallest traced program: one channel of its own, one event type.
 *
 *   example-event --trace=network --tracefile=event.strobe
 *   strobe-cli dump event.strobe | grep Net.Packet
 */
#include <strobe/strobe.h>

/* A channel of the program's own. Its runtime name is "Network" (a trailing "Channel"
 * is dropped); it is off until --trace=network, STROBE_TRACE=network or the viewer turn
 * it on. Do not reuse the standard channels' names (Cpu, Frame, Log, Memory…). */
STROBE_CHANNEL_DEFINE (NetworkChannel);

/* A synchronised event: ordered across threads. Declared and defined in one file; split
 * them with STROBE_EVENT_DECLARE (in a header) and STROBE_EVENT_DEFINE (in one .c). */
STROBE_EVENT (Net, Packet, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, Bytes)
              STROBE_FIELD (ansi, Peer))

int
main (int argc, char **argv)
{
  /* Consumes --trace=, --tracefile= and --tracehost= from the arguments. */
  strobe_parse_args (&argc, &argv);
  strobe_init (NULL);

  for (uint32_t i = 0; i < 100; i++)
    /* Costs one load and a branch while the channel is off. */
    STROBE_LOG (Net, Packet, NetworkChannel)
      {
        STROBE_SET (Cycle, strobe_time ());
        STROBE_SET (Bytes, 64 + i);
        STROBE_SET_STRING (Peer, i % 2 ? "10.0.0.2" : "10.0.0.3");
      }

  /* Ships what is buffered, writes the end marker, stops the worker. */
  strobe_shutdown ();
  return 0;
}
