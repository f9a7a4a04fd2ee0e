/* runtime-helper.c — runs one runtime scenario in its own process (env vars,
 * constructors and the single output are process state); test-runtime checks the bytes.
 *
 *   runtime-helper SCENARIO FILE [FILE2] [--trace=… --tracefile=…]
 * Exit status 0 when the scenario itself saw what it expected.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strobe/strobe.h>

#include "runtime-events.h"

STROBE_CHANNEL_DEFINE (CpuChannel);
STROBE_CHANNEL_DEFINE (GpuChannel);
STROBE_CHANNEL_DEFINE (MemChannel);

STROBE_EVENT_DEFINE (Test, Sync)
STROBE_EVENT_DEFINE (Test, NoSync)
STROBE_EVENT_DEFINE (Test, Aux)
STROBE_EVENT_DEFINE (Test, Config)
STROBE_EVENT (Test, Both, STROBE_EVENT_NOSYNC, STROBE_FIELD (uint32, Value))

bool runtime_cpp_emit (uint32_t value);

#define CHECK(c)                                                                  \
  do {                                                                            \
    if (!(c))                                                                     \
      {                                                                           \
        fprintf (stderr, "runtime-helper: %s:%d: %s\n", __FILE__, __LINE__, #c); \
        exit (3);                                                                 \
      }                                                                           \
  } while (0)

static void
emit_sync (uint32_t value)
{
  STROBE_LOG (Test, Sync, CpuChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (Value, value);
    }
}

static void
emit_nosync (uint32_t value)
{
  STROBE_LOG (Test, NoSync, CpuChannel)
    {
      STROBE_SET (Value, value);
      STROBE_SET (Flag, true);
      STROBE_SET (Ratio, 0.5);
    }
}

static void
emit_basic (void)
{
  float samples[3] = { 1.0f, 2.0f, 3.0f };
  static char big[100000];

  emit_sync (1);
  emit_nosync (2);
  STROBE_LOG (Test, Aux, CpuChannel)
    {
      STROBE_SET (Id, 3);
      STROBE_SET_ARRAY (Samples, samples, 3);
      STROBE_SET_STRING (Name, "hello");
      STROBE_SET_STRING (Title, "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80");   /* été 😀 */
    }
  STROBE_LOG (Test, Aux, CpuChannel)
    {
      STROBE_SET (Id, 4);
      STROBE_SET_WSTRING (Name, L"\u00e9A");             /* wide into ANSI: 7 bits each */
      STROBE_SET_WSTRING_N (Title, L"ab\U0001F600zz", 3);
    }
  STROBE_LOG (Test, Aux, CpuChannel)
    STROBE_SET (Id, 5);                                 /* no aux set: only AuxEnd */
  /* Larger than a block: moves to a dedicated block, never split. */
  memset (big, 'x', sizeof big);
  STROBE_LOG (Test, Aux, CpuChannel)
    {
      STROBE_SET (Id, 6);
      STROBE_SET_STRING_N (Name, big, sizeof big);
    }
  STROBE_LOG (Test, Config, GpuChannel)
    {
      STROBE_SET (Mode, 7);
      STROBE_SET_STRING (Label, "important");
    }
  /* Both channels needed. */
  STROBE_LOG (Test, Both, CpuChannel, GpuChannel)
    STROBE_SET (Value, 100);
  STROBE_LOG (Test, Both, CpuChannel, MemChannel)
    STROBE_SET (Value, 101);
  STROBE_LOG (Test, Both, CpuChannel, GpuChannel, StrobeTraceChannel)
    STROBE_SET (Value, 102);
  CHECK (runtime_cpp_emit (8));
}

static void *
thread_main (void *arg)
{
  char name[32];
  unsigned n = (unsigned) (size_t) arg;

  if (n % 2 == 0)
    {
      snprintf (name, sizeof name, "named-%u", n);
      strobe_thread_set_name (name, "group", (int32_t) n);
    }
  for (uint32_t i = 0; i < 30000; i++)
    emit_sync (n * 100000 + i);
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *scenario;

  strobe_parse_args (&argc, &argv);
  if (argc < 2)
    return 2;
  scenario = argv[1];

  if (strcmp (scenario, "basic") == 0)
    {
      strobe_channels_set_enabled ("cpu, GPU", true);
      CHECK (strobe_channel_is_enabled ("Cpu") && strobe_channel_is_enabled ("gpus"));
      CHECK (!strobe_channel_is_enabled ("mem"));
      CHECK (strobe_output_file (argv[2]));
      emit_basic ();
      strobe_channel_set_enabled ("Cpu", false);
      emit_sync (999);   /* disabled: not in the trace */
      CHECK (!strobe_channel_set_enabled ("Trace", false));
    }
  else if (strcmp (scenario, "env") == 0)
    {
      /* STROBE_TRACE / STROBE_TRACEFILE set by the test: already tracing. */
      CHECK (strobe_output_active ());
      emit_basic ();
    }
  else if (strcmp (scenario, "args") == 0)
    {
      /* --trace=… --tracefile=… were consumed: only "args" and the extra one remain. */
      CHECK (argc == 3 && strcmp (argv[2], "keep-me") == 0 && argv[3] == NULL);
      CHECK (strobe_init (NULL));
      CHECK (strobe_output_active ());
      emit_basic ();
    }
  else if (strcmp (scenario, "switch") == 0)
    {
      strobe_channel_set_enabled ("all", true);
      CHECK (strobe_output_file (argv[2]));
      emit_sync (1);
      strobe_channel_set_enabled ("mem", false);
      CHECK (strobe_output_file (argv[3]));
      emit_sync (2);
      emit_nosync (3);
    }
  else if (strcmp (scenario, "session") == 0)
    {
      char name[STROBE_SESSION_NAME_MAX + 2], small[4];

      /* STROBE_SESSION=from-env, set by the test, until the API says otherwise. */
      CHECK (strobe_get_session_name (name, sizeof name) == 8 && strcmp (name, "from-env") == 0);
      CHECK (strobe_get_session_name (small, sizeof small) == 3 && strcmp (small, "fro") == 0);
      memset (name, 'x', sizeof name - 1);
      name[sizeof name - 1] = '\0';
      CHECK (!strobe_set_session_name (name) && errno == ENAMETOOLONG);
      CHECK (!strobe_set_session_name ("") && errno == EINVAL);
      CHECK (!strobe_set_session_name (NULL) && errno == EINVAL);
      CHECK (strobe_set_session_name ("checkout-test"));
      CHECK (strcmp (getenv ("STROBE_SESSION"), "checkout-test") == 0);
      strobe_flow_begin (1);                  /* Cpu off: nothing */
      strobe_channel_set_enabled ("cpu", true);
      CHECK (strobe_output_file (argv[2]));
      {
        STROBE_CPU_SCOPE ("Send");
        strobe_flow_begin (0xfeedface00000001u);
        strobe_flow_step (0xfeedface00000001u);
        strobe_flow_end (0xfeedface00000001u);
        strobe_flow_at (7, (StrobeFlowPhase) 3, 1);   /* no such phase: ignored */
      }
      CHECK (strobe_flush ());
    }
  else if (strcmp (scenario, "noworker") == 0)
    {
      StrobeInitOptions o = { 0 };
      o.no_worker = true;
      CHECK (strobe_init (&o));
      strobe_channel_set_enabled ("cpu", true);
      CHECK (strobe_output_file (argv[2]));
      for (uint32_t i = 0; i < 100000; i++)
        {
          emit_nosync (i);
          if (i % 10000 == 0)
            CHECK (strobe_update ());
        }
      CHECK (strobe_flush ());
    }
  else if (strcmp (scenario, "threads") == 0)
    {
      pthread_t t[4];
      strobe_channel_set_enabled ("cpu", true);
      CHECK (strobe_output_file (argv[2]));
      for (size_t i = 0; i < 4; i++)
        pthread_create (&t[i], NULL, thread_main, (void *) i);
      for (size_t i = 0; i < 4; i++)
        pthread_join (t[i], NULL);
      CHECK (strobe_flush ());
    }
  else if (strcmp (scenario, "drops") == 0)
    {
      StrobeInitOptions o = { 0 };
      StrobeStats s;
      o.no_worker = true;
      o.buffer_bytes = 128 * 1024;
      o.block_wait_ms = STROBE_BLOCK_WAIT_NONE;
      CHECK (strobe_init (&o));
      strobe_channel_set_enabled ("cpu", true);
      CHECK (strobe_output_file (argv[2]));
      for (uint32_t i = 0; i < 100000; i++)
        emit_nosync (i);
      strobe_get_stats (&s);
      CHECK (s.events_dropped > 0);
      CHECK (s.buffer_memory <= 128 * 1024);
      CHECK (s.events_emitted + s.events_dropped >= 100000);
      printf ("emitted=%llu dropped=%llu\n", (unsigned long long) s.events_emitted,
              (unsigned long long) s.events_dropped);
      /* Once the consumer frees blocks, events flow again. */
      CHECK (strobe_update ());
      emit_nosync (424242);
      strobe_get_stats (&s);
      CHECK (s.events_dropped > 0);
      CHECK (strobe_flush ());
    }
  else if (strcmp (scenario, "full-pool") == 0)
    {
      /* The pool grown to its limit by a burst, every block free again, then an event
       * bigger than a block (what a thread's Memory.Batch of 64 KiB is). */
      static char big[100000];
      StrobeInitOptions o = { 0 };
      StrobeStats s0, s1;
      o.no_worker = true;
      o.buffer_bytes = 256 * 1024;
      o.block_wait_ms = STROBE_BLOCK_WAIT_NONE;
      CHECK (strobe_init (&o));
      strobe_channel_set_enabled ("cpu", true);
      CHECK (strobe_output_file (argv[2]));
      for (uint32_t i = 0; i < 100000; i++)
        emit_nosync (i);
      CHECK (strobe_update ());
      strobe_get_stats (&s0);
      CHECK (s0.events_dropped > 0);
      memset (big, 'y', sizeof big);
      for (uint32_t i = 0; i < 3; i++)
        {
          STROBE_LOG (Test, Aux, CpuChannel)
            {
              STROBE_SET (Id, 7 + i);
              STROBE_SET_STRING_N (Name, big, sizeof big);
            }
          CHECK (strobe_update ());
        }
      strobe_get_stats (&s1);
      printf ("dropped=%llu then %llu\n", (unsigned long long) s0.events_dropped,
              (unsigned long long) s1.events_dropped);
      CHECK (s1.buffer_memory <= 256 * 1024);
      CHECK (strobe_flush ());
    }
  else
    return 2;
  strobe_shutdown ();
  return strobe_output_error () == 0 ? 0 : 1;
}
