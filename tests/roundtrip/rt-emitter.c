/* rt-emitter.c — instrumented program driven by test-roundtrip.c.
 *
 * Each scenario runs in its own process so the runtime's process-wide state (constructors,
 * environment, the serial counter) starts fresh. Usage: rt-emitter SCENARIO OUTPUT...
 * where an OUTPUT is a file path or tcp:HOST:PORT.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <strobe/strobe.h>

STROBE_CHANNEL_DEFINE (TestChannel);
STROBE_CHANNEL_DEFINE (AlphaChannel);
STROBE_CHANNEL_DEFINE (BetaChannel);
STROBE_CHANNEL_DEFINE (GammaChannel);

STROBE_EVENT (Test, Scalars, 0,
              STROBE_FIELD (bool, Bool)
              STROBE_FIELD (int8, Int8)
              STROBE_FIELD (int16, Int16)
              STROBE_FIELD (int32, Int32)
              STROBE_FIELD (int64, Int64)
              STROBE_FIELD (uint8, UInt8)
              STROBE_FIELD (uint16, UInt16)
              STROBE_FIELD (uint32, UInt32)
              STROBE_FIELD (uint64, UInt64)
              STROBE_FIELD (float, Float)
              STROBE_FIELD (double, Double)
              STROBE_FIELD (ptr, Pointer))

STROBE_EVENT (Test, Arrays, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint32, Tag)
              STROBE_ARRAY (bool, Bools)
              STROBE_ARRAY (int8, Int8s)
              STROBE_ARRAY (int16, Int16s)
              STROBE_ARRAY (int32, Int32s)
              STROBE_ARRAY (int64, Int64s)
              STROBE_ARRAY (uint8, UInt8s)
              STROBE_ARRAY (uint16, UInt16s)
              STROBE_ARRAY (uint32, UInt32s)
              STROBE_ARRAY (uint64, UInt64s)
              STROBE_ARRAY (float, Floats)
              STROBE_ARRAY (double, Doubles)
              STROBE_ARRAY (ptr, Pointers))

STROBE_EVENT (Test, Strings, 0,
              STROBE_FIELD (uint32, Tag)
              STROBE_FIELD (ansi, Ansi)
              STROBE_FIELD (wide, Wide))

STROBE_EVENT (Test, Spec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (ansi, Name))

STROBE_EVENT (Test, NoSyncTick, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint32, Phase)
              STROBE_FIELD (uint64, Cycle))

STROBE_EVENT (Test, Site, 0,
              STROBE_FIELD (uint32, Phase)
              STROBE_FIELD (uint32, Site))

STROBE_EVENT (Test, Ordered, 0,
              STROBE_FIELD (uint32, Thread)
              STROBE_FIELD (uint64, Sequence))

static int
open_output (const char *spec)
{
  if (strncmp (spec, "tcp:", 4) == 0)
    return strobe_output_host (spec + 4);
  return strobe_output_file (spec);
}

static void
emit_types (void)
{
  static const bool bools[] = { true, false, true };
  static const int8_t i8[] = { -128, 0, 127 };
  static const int16_t i16[] = { -32768, 1, 32767 };
  static const int32_t i32[] = { INT32_MIN, -1, INT32_MAX };
  static const int64_t i64[] = { INT64_MIN, -1, INT64_MAX };
  static const uint8_t u8[] = { 0, 1, 255 };
  static const uint16_t u16[] = { 0, 2, 65535 };
  static const uint32_t u32[] = { 0, 3, UINT32_MAX };
  static const uint64_t u64[] = { 0, 4, UINT64_MAX };
  static const float f32[] = { -1.5f, 0.25f, 3.0e38f };
  static const double f64[] = { -2.5, 1e-300, 1e300 };
  void *ptrs[] = { NULL, (void *) (uintptr_t) 0x1234, (void *) (uintptr_t) 0xdeadbeefcafe };

  STROBE_LOG (Test, Scalars, TestChannel)
    {
      STROBE_SET (Bool, true);
      STROBE_SET (Int8, -128);
      STROBE_SET (Int16, -32768);
      STROBE_SET (Int32, INT32_MIN);
      STROBE_SET (Int64, INT64_MIN);
      STROBE_SET (UInt8, 255);
      STROBE_SET (UInt16, 65535);
      STROBE_SET (UInt32, UINT32_MAX);
      STROBE_SET (UInt64, UINT64_MAX);
      STROBE_SET (Float, 0.5f);
      STROBE_SET (Double, -1.25e-7);
      STROBE_SET (Pointer, (void *) (uintptr_t) 0x7f0012345678);
    }
  /* Nothing set: every field is in the payload, zero. */
  STROBE_LOG (Test, Scalars, TestChannel) { }

  STROBE_LOG (Test, Arrays, TestChannel)
    {
      STROBE_SET (Tag, 1);
      STROBE_SET_ARRAY (Bools, bools, 3);
      STROBE_SET_ARRAY (Int8s, i8, 3);
      STROBE_SET_ARRAY (Int16s, i16, 3);
      STROBE_SET_ARRAY (Int32s, i32, 3);
      STROBE_SET_ARRAY (Int64s, i64, 3);
      STROBE_SET_ARRAY (UInt8s, u8, 3);
      STROBE_SET_ARRAY (UInt16s, u16, 3);
      STROBE_SET_ARRAY (UInt32s, u32, 3);
      STROBE_SET_ARRAY (UInt64s, u64, 3);
      STROBE_SET_ARRAY (Floats, f32, 3);
      STROBE_SET_ARRAY (Doubles, f64, 3);
      STROBE_SET_ARRAY (Pointers, (void *const *) ptrs, 3);
    }
  /* Only one array set: the others cost nothing and read back as absent. */
  STROBE_LOG (Test, Arrays, TestChannel)
    {
      STROBE_SET (Tag, 2);
      STROBE_SET_ARRAY (UInt8s, u8, 2);
    }

  STROBE_LOG (Test, Strings, TestChannel)
    {
      STROBE_SET (Tag, 1);
      STROBE_SET_STRING (Ansi, "hello, strobe");
      STROBE_SET_STRING (Wide, "grüße");
    }
  STROBE_LOG (Test, Strings, TestChannel)
    {
      STROBE_SET (Tag, 2);
      STROBE_SET_STRING_N (Ansi, "explicit-length-ignored-tail", 15);
      STROBE_SET_WSTRING_N (Wide, L"wide\U0001F600 and more", 5);
    }
  STROBE_LOG (Test, Strings, TestChannel)
    {
      /* Wide input into an ANSI field keeps the low 7 bits of each character:
       * U+00E9 (0xE9) becomes 0x69 'i', U+0141 (0x141) becomes 0x41 'A'. */
      STROBE_SET (Tag, 3);
      STROBE_SET_WSTRING (Ansi, L"caf\u00e9 \u0141");
    }
  STROBE_LOG (Test, Strings, TestChannel)
    {
      STROBE_SET (Tag, 4);   /* strings unset */
    }

  STROBE_LOG (Test, Spec, TestChannel)
    {
      STROBE_SET (Id, 7);
      STROBE_SET_STRING (Name, "important-spec");
    }
}

/* Sites on channels A, B, A+B, A+C in three phases; the test checks which appear. */
static void
emit_sites (uint32_t phase)
{
  STROBE_LOG (Test, Site, AlphaChannel) { STROBE_SET (Phase, phase); STROBE_SET (Site, 1); }
  STROBE_LOG (Test, Site, BetaChannel) { STROBE_SET (Phase, phase); STROBE_SET (Site, 2); }
  STROBE_LOG (Test, Site, AlphaChannel, BetaChannel) { STROBE_SET (Phase, phase); STROBE_SET (Site, 3); }
  STROBE_LOG (Test, Site, AlphaChannel, GammaChannel) { STROBE_SET (Phase, phase); STROBE_SET (Site, 4); }
}

static void
scenario_channels (void)
{
  /* Phase 1: STROBE_TRACE=aLpHa from the test's environment. */
  emit_sites (1);
  strobe_channels_set_enabled ("BETA", true);
  emit_sites (2);
  strobe_channel_set_enabled ("alphas", false);
  emit_sites (3);
}

#define ORDER_THREADS 4
#define ORDER_EVENTS  20000

static pthread_mutex_t order_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t order_next;

static void *
order_thread (void *data)
{
  uint32_t index = (uint32_t) (uintptr_t) data;
  char name[32];

  snprintf (name, sizeof name, "worker-%u", index);
  strobe_thread_set_name (name, "rt-workers", (int32_t) index);
  for (int i = 0; i < ORDER_EVENTS; i++)
    {
      /* The lock makes the order of Sequence the order the serials were taken in, which
       * is what the decoder must restore across threads. */
      pthread_mutex_lock (&order_lock);
      STROBE_LOG (Test, Ordered, TestChannel)
        {
          STROBE_SET (Thread, index);
          STROBE_SET (Sequence, order_next);
        }
      order_next++;
      pthread_mutex_unlock (&order_lock);
      if (i % 64 == 0)
        STROBE_LOG (Test, NoSyncTick, TestChannel) { STROBE_SET (Phase, index); STROBE_SET (Cycle, strobe_time ()); }
    }
  return NULL;
}

static void
scenario_threads (void)
{
  pthread_t threads[ORDER_THREADS];

  for (uint32_t i = 0; i < ORDER_THREADS; i++)
    pthread_create (&threads[i], NULL, order_thread, (void *) (uintptr_t) i);
  for (uint32_t i = 0; i < ORDER_THREADS; i++)
    pthread_join (threads[i], NULL);
}

int
main (int argc, char **argv)
{
  const char *scenario;

  if (argc < 3)
    {
      fprintf (stderr, "usage: rt-emitter SCENARIO OUTPUT...\n");
      return 2;
    }
  scenario = argv[1];
  /* Lets the test start the 24-bit serial just below its wrap-around point. */
  if (getenv ("RT_SERIAL_START"))
    strobe__serial = (uint32_t) strtoul (getenv ("RT_SERIAL_START"), NULL, 0);
  strobe_channel_set_enabled ("Test", true);

  if (strcmp (scenario, "channels") != 0 && !open_output (argv[2]))
    {
      perror ("rt-emitter: output");
      return 1;
    }

  if (strcmp (scenario, "types") == 0)
    emit_types ();
  else if (strcmp (scenario, "channels") == 0)
    {
      if (!open_output (argv[2]))
        return 1;
      scenario_channels ();
    }
  else if (strcmp (scenario, "threads") == 0)
    scenario_threads ();
  else if (strcmp (scenario, "switch") == 0)
    {
      STROBE_LOG (Test, Spec, TestChannel) { STROBE_SET (Id, 1); STROBE_SET_STRING (Name, "before-switch"); }
      STROBE_LOG (Test, NoSyncTick, TestChannel) { STROBE_SET (Phase, 1); STROBE_SET (Cycle, strobe_time ()); }
      STROBE_LOG (Test, Site, TestChannel) { STROBE_SET (Phase, 1); STROBE_SET (Site, 9); }
      if (argc < 4 || !open_output (argv[3]))
        return 1;
      STROBE_LOG (Test, NoSyncTick, TestChannel) { STROBE_SET (Phase, 2); STROBE_SET (Cycle, strobe_time ()); }
      STROBE_LOG (Test, Site, TestChannel) { STROBE_SET (Phase, 2); STROBE_SET (Site, 9); }
    }
  else
    {
      fprintf (stderr, "rt-emitter: unknown scenario %s\n", scenario);
      return 2;
    }

  strobe_shutdown ();
  return strobe_output_error () == 0 ? 0 : 1;
}
