/* example-scopes.c — CPU scopes, frames and counters: what the timeline draws.
 *
 *   example-scopes --trace=cpu,frame,counters --tracefile=scopes.strobe
 *   strobe-cli stats scopes.strobe
 */
#include <math.h>
#include <strobe/strobe.h>

static void
work (int n)
{
  volatile double x = 0;

  for (int i = 0; i < n; i++)
    x += sqrt ((double) i);
}

static void
update_physics (void)
{
  /* From here to the end of the block: about two clock reads, begin and end. */
  STROBE_CPU_SCOPE ("Physics");
  work (20000);
}

static void
update_entity (const char *kind)
{
  /* A name made at run time is interned once per distinct string. */
  STROBE_CPU_SCOPE_DYNAMIC (kind);
  work (5000);
}

int
main (int argc, char **argv)
{
  static const char *const kinds[] = { "Think: Soldier", "Think: Villager", "Think: Wolf" };

  strobe_parse_args (&argc, &argv);
  strobe_init (NULL);
  strobe_thread_set_name ("Main", NULL, 0);

  for (int frame = 0; frame < 60; frame++)
    {
      strobe_frame_begin (STROBE_FRAME_GAME);
      {
        STROBE_CPU_SCOPE ("Frame");

        update_physics ();
        for (int i = 0; i < 6; i++)
          update_entity (kinds[i % 3]);
      }
      strobe_frame_end (STROBE_FRAME_GAME);
      STROBE_COUNTER_SET_INT ("World/entities", 100 + frame, STROBE_UNIT_COUNT);
    }
  STROBE_BOOKMARK ("Done");
  strobe_shutdown ();
  return 0;
}
