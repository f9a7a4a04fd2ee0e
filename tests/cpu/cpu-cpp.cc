// cpu-cpp.cc — the CPU, frame, bookmark, region and counter macros compile and run in C++
// (block scopes use __attribute__ ((cleanup)), which g++ supports), and each scope records
// exactly one begin and one end.
#include <strobe/strobe.h>

#include <cstdio>

static int
work (int x)
{
  STROBE_CPU_SCOPE ("cpp.outer");
  STROBE_CPU_SCOPE ("cpp.second");   // two on one line range: distinct statics
  {
    STROBE_CPU_SCOPE_DYNAMIC (x ? "cpp.dyn.a" : "cpp.dyn.b");
  }
  STROBE_BOOKMARK ("cpp.bookmark");
  STROBE_COUNTER_SET_INT ("cpp.counter", x, STROBE_UNIT_COUNT);
  strobe_frame_mark (STROBE_FRAME_GAME);
  strobe_region_begin ("cpp.region");
  strobe_region_end ("cpp.region");
  return x + 1;
}

int
main (int argc, char **argv)
{
  strobe_channels_set_enabled ("Cpu,Frame,Bookmark,Region,Counters", true);
  strobe_init (nullptr);
  if (argc > 1 && !strobe_output_file (argv[1]))
    return 1;
  if (work (1) != 2)
    return 1;
  // All scopes closed: the next begin starts at depth 0 again.
  static StrobeCpuSpec spec = STROBE_CPU_SPEC_INIT ("cpp.api");
  if (strobe_cpu_begin (&spec))
    strobe_cpu_end ();
  strobe_flush ();
  strobe_shutdown ();
  std::puts ("ok");
  return 0;
}
