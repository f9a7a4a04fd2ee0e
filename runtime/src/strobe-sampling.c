/* strobe-sampling.c — the Sampling channel: sampled user call stacks and context switches
 * of every thread of the process, from perf events, drained by the updater.
 *
 * Nothing runs in the program's threads. Each thread gets one perf event of its own
 * (pid = its tid, any CPU): CPU cycles where the machine has a hardware counter, else
 * the software CPU clock, with its user call chain, and context_switch records. The
 * kernel writes them into a small ring per thread; every 50 ms (sooner when one fills) an
 * update round reads every ring, converts perf's time (CLOCK_MONOTONIC, asked for with
 * use_clockid) to the trace clock once, interns each call chain in the memory channel's
 * stack trie (one set of Memory.StackNodes and one symbolizer for both) and sends one
 * Sampling.Batch per thread.
 * With STROBE_SAMPLING_STACK a sample also brings its user registers and a copy of the top
 * of its stack, sent as it is (Sampling.UserStack) for the analysis to unwind.
 * Threads are found in /proc/self/task: at the start, whenever its link count (2 + the
 * number of threads) changes, and every 250 ms (a thread that exited while another
 * started leaves the count as it was).
 *
 * Everything here but the frequency and the status runs under the update lock. */
#include "strobe-buffers-private.h"
#include "strobe-instrument-private.h"
#include "strobe-memory-private.h"
#include "strobe-sample-records.h"
#include "strobe-standard-values.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Static_assert ((int) STROBE_SAMPLING_OFF == (int) STROBE_STANDARD_SAMPLING_OFF &&
                (int) STROBE_SAMPLING_HARDWARE == (int) STROBE_STANDARD_SAMPLING_HARDWARE &&
                (int) STROBE_SAMPLING_SOFTWARE == (int) STROBE_STANDARD_SAMPLING_SOFTWARE &&
                (int) STROBE_SAMPLING_NOT_PERMITTED == (int) STROBE_STANDARD_SAMPLING_NOT_PERMITTED &&
                (int) STROBE_SAMPLING_UNAVAILABLE == (int) STROBE_STANDARD_SAMPLING_UNAVAILABLE,
                "StrobeSamplingMode must match strobe-standard-values.h");

STROBE_CHANNEL_DEFINE (SamplingChannel);

STROBE_EVENT (Sampling, Status, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint64, Time)
              STROBE_FIELD (uint8, Mode)
              STROBE_FIELD (uint8, Flags)
              STROBE_FIELD (uint32, Frequency)
              STROBE_FIELD (int32, Paranoid)
              STROBE_FIELD (int32, Error)
              STROBE_FIELD (ansi, Message))

STROBE_EVENT (Sampling, Batch, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint32, Thread)
              STROBE_FIELD (uint64, Base)
              STROBE_FIELD (uint32, Lost)
              STROBE_ARRAY (uint8, Data))

/* One sample's copy of the top of its thread's user stack, with the registers a DWARF
 * unwinder starts from (STROBE_SAMPLING_STACK=BYTES): the analysis unwinds it with the
 * modules' CFI, so code built without frame pointers has whole stacks too. Written just
 * before the Batch that holds the same sample (same Thread, same Time). */
STROBE_EVENT (Sampling, UserStack, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint32, Thread)
              STROBE_FIELD (uint64, Time)
              STROBE_FIELD (uint64, Ip)
              STROBE_FIELD (uint64, Sp)
              STROBE_FIELD (uint64, Bp)
              STROBE_ARRAY (uint8, Data))

#define RESCAN_NS        (250u * 1000u * 1000u)
/* The rings are read every DRAIN_NS, or at the next round once one is a quarter full: read
 * every 10 ms round, a busy thread sampled at 1 kHz gave a Batch of ~10 samples a round
 * and the output a write a round, which cost more of the worker's time than the samples. */
#define DRAIN_NS         (50u * 1000u * 1000u)
/* The largest stack copy perf takes (sample_stack_user is a u32, but a record is at most
 * 64 KiB with its header and the call chain). */
#define MAX_STACK_COPY   (60u * 1024u)
#define MAX_STACK        STROBE_MEMORY_MAX_FRAMES
#define PARANOID_UNKNOWN INT32_MIN

typedef struct
{
  pid_t    tid;
  int      fd;
  uint8_t *map;          /* the control page, then data_bytes of ring */
  size_t   data_bytes;   /* a power of two */
  bool     alive;        /* found in the last scan of /proc/self/task */
  uint64_t last;         /* ticks of its last record: records never go back in time */
  uint64_t first_time;   /* when its event opened, and ... */
  int      first_kind;   /* ... what the thread was doing then (-1: said already) */
  uint32_t lost;         /* records the kernel could not write since the last batch */
} Sampled;

/* Any thread. */
static uint32_t requested_hz;        /* 0: not read yet */
static uint32_t stack_copy;          /* bytes of user stack per sample (STROBE_SAMPLING_STACK); 0: none */
static int      status_mode;
static int      status_error;

/* Under the update lock. */
static Sampled  *sampled;
static size_t    n_sampled, cap_sampled;
static bool      started;            /* the channel's on-state this file acted on */
static bool      running;            /* events are open (the start succeeded) */
static bool      quiesced;           /* shutting down: the events stopped, read what is left */
static bool      finished;           /* shut down: never opened again */
static uint32_t  running_hz;
static struct perf_event_attr attr;
static uint64_t  last_scan_ns;
static uint64_t  last_drain_ns;
static nlink_t   last_nlink;
static uint8_t  *enc;                /* one batch being encoded */
static size_t    enc_cap;
static int       reported_error;     /* the refusal already said on stderr */
/* perf time (CLOCK_MONOTONIC ns) to ticks: a pair read this round, and the rate. */
static bool      clock_is_monotonic;
static uint64_t  anchor_ns, anchor_ticks;
static double    ticks_per_ns;

static uint64_t
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static uint32_t
env_hz (void)
{
  const char *s = getenv ("STROBE_SAMPLING_HZ");
  char *end;
  unsigned long v;

  if (s == NULL)
    return STROBE_SAMPLING_DEFAULT_HZ;
  errno = 0;
  v = strtoul (s, &end, 10);
  if (errno || end == s || *end || v < 1 || v > STROBE_SAMPLING_MAX_HZ)
    {
      fprintf (stderr, "strobe: STROBE_SAMPLING_HZ=%s is not a frequency from 1 to %u: %u Hz is used\n",
               s, STROBE_SAMPLING_MAX_HZ, STROBE_SAMPLING_DEFAULT_HZ);
      return STROBE_SAMPLING_DEFAULT_HZ;
    }
  return (uint32_t) v;
}

bool
strobe_sampling_set_frequency (uint32_t hz)
{
  if (hz < 1 || hz > STROBE_SAMPLING_MAX_HZ)
    {
      errno = EINVAL;
      return false;
    }
  __atomic_store_n (&requested_hz, hz, __ATOMIC_RELAXED);
  return true;
}

uint32_t
strobe_sampling_get_frequency (void)
{
  uint32_t hz = __atomic_load_n (&requested_hz, __ATOMIC_RELAXED);

  if (hz == 0)
    {
      uint32_t expected = 0;
      hz = env_hz ();
      if (!__atomic_compare_exchange_n (&requested_hz, &expected, hz, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        hz = expected;
    }
  return hz;
}

StrobeSamplingMode
strobe_sampling_get_status (int *error)
{
  if (error)
    *error = __atomic_load_n (&status_error, __ATOMIC_RELAXED);
  return (StrobeSamplingMode) __atomic_load_n (&status_mode, __ATOMIC_RELAXED);
}

static int32_t
read_paranoid (void)
{
  FILE *f = fopen ("/proc/sys/kernel/perf_event_paranoid", "re");
  int v;

  if (f == NULL)
    return PARANOID_UNKNOWN;
  if (fscanf (f, "%d", &v) != 1)
    v = PARANOID_UNKNOWN;
  fclose (f);
  return v;
}

/* STROBE_SAMPLING_TEST_ERRNO=N (tests only): every perf_event_open fails with errno N, as
 * a machine that refuses would — tests run as a user the kernel lets sample. Read with
 * STROBE_SAMPLING_HZ when the runtime starts: the interposer takes STROBE_* variables out of
 * the environment after that, before the worker's first round. */
static int forced_errno;

/* STROBE_SAMPLING_STACK=BYTES: copy that much of the user stack with every sample (a
 * multiple of 8, at most MAX_STACK_COPY; "1" or "yes": 8 KiB). x86-64 only: the
 * registers the unwinder starts from are named per architecture. */
static uint32_t
env_stack_copy (void)
{
  const char *s = getenv ("STROBE_SAMPLING_STACK");
  unsigned long v;
  char *end;

  if (s == NULL || *s == '\0' || strcmp (s, "0") == 0)
    return 0;
#if defined(__x86_64__)
  if (strcmp (s, "1") == 0 || strcmp (s, "yes") == 0)
    return 8192;
  errno = 0;
  v = strtoul (s, &end, 10);
  if (errno || end == s || *end || v < 64 || v > MAX_STACK_COPY)
    {
      fprintf (stderr, "strobe: STROBE_SAMPLING_STACK=%s is not a size from 64 to %u bytes: 8192 is used\n",
               s, MAX_STACK_COPY);
      return 8192;
    }
  return (uint32_t) (v & ~7ul);
#else
  (void) v;
  (void) end;
  fprintf (stderr, "strobe: STROBE_SAMPLING_STACK: user stack copies are only taken on x86-64\n");
  return 0;
#endif
}

void
strobe__sampling_init_from_env (void)
{
  const char *s = getenv ("STROBE_SAMPLING_TEST_ERRNO");

  __atomic_store_n (&forced_errno, s ? atoi (s) : 0, __ATOMIC_RELAXED);
  __atomic_store_n (&stack_copy, env_stack_copy (), __ATOMIC_RELAXED);
  strobe_sampling_get_frequency ();
}

static int
test_errno (void)
{
  return __atomic_load_n (&forced_errno, __ATOMIC_RELAXED);
}

static int
open_event (struct perf_event_attr *a, pid_t tid)
{
  int forced = test_errno ();

  if (forced > 0)
    {
      errno = forced;
      return -1;
    }
  return (int) syscall (SYS_perf_event_open, a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* ---- the status --------------------------------------------------------------------- */

static void
describe (int mode, int error, int32_t paranoid, char *out, size_t size)
{
  switch (mode)
    {
    case STROBE_SAMPLING_HARDWARE:
      snprintf (out, size, "sampling CPU cycles");
      break;
    case STROBE_SAMPLING_SOFTWARE:
      snprintf (out, size, "sampling the CPU clock (no hardware cycle counter here)");
      break;
    case STROBE_SAMPLING_NOT_PERMITTED:
      if (paranoid != PARANOID_UNKNOWN && paranoid > 2)
        snprintf (out, size, "sampling is not permitted: kernel.perf_event_paranoid is %d; "
                  "as root, run `sysctl kernel.perf_event_paranoid=2` (or 1 to see kernel time), "
                  "or give the program CAP_PERFMON", (int) paranoid);
      else
        snprintf (out, size, "sampling is not permitted (%s): perf_event_open is blocked, "
                  "for example by a container's seccomp profile; allow perf_event_open "
                  "(docker: --cap-add PERFMON) or give the program CAP_PERFMON", strerror (error));
      break;
    case STROBE_SAMPLING_UNAVAILABLE:
      snprintf (out, size, "sampling is unavailable: this kernel has no perf events for it (%s)",
                strerror (error));
      break;
    default:
      snprintf (out, size, "sampling stopped");
      break;
    }
}

static void
emit_status (int mode, int error, uint8_t flags, int32_t paranoid)
{
  char message[512];

  describe (mode, error, paranoid, message, sizeof message);
  __atomic_store_n (&status_mode, mode, __ATOMIC_RELAXED);
  __atomic_store_n (&status_error, error, __ATOMIC_RELAXED);
  STROBE_LOG (Sampling, Status, StrobeTraceChannel)
    {
      STROBE_SET (Time, strobe_time ());
      STROBE_SET (Mode, (uint8_t) mode);
      STROBE_SET (Flags, flags);
      STROBE_SET (Frequency, running_hz);
      STROBE_SET (Paranoid, paranoid);
      STROBE_SET (Error, (int32_t) error);
      STROBE_SET_STRING (Message, message);
    }
  /* Never a silent empty track: a refusal is said where the user looks first, once. */
  if ((mode == STROBE_SAMPLING_NOT_PERMITTED || mode == STROBE_SAMPLING_UNAVAILABLE)
      && reported_error != error)
    {
      reported_error = error;
      fprintf (stderr, "strobe: %s\n", message);
    }
}

/* ---- threads ------------------------------------------------------------------------ */

static uint64_t to_ticks (uint64_t ns);
static int      initial_state (pid_t tid);

static void
close_one (Sampled *s)
{
  if (s->map)
    munmap (s->map, (size_t) sysconf (_SC_PAGESIZE) + s->data_bytes);
  if (s->fd >= 0)
    close (s->fd);
  s->map = NULL;
  s->fd = -1;
}

static bool
open_one (pid_t tid)
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  /* Room for about 150 ms of samples of depth 16 (60 ms of depth 64): the worker reads a
   * ring at the first 10 ms round it is a quarter full, 50 ms at the latest. The pages
   * are locked memory, limited per user (kernel.perf_event_mlock_kb), so a refusal
   * halves the ring down to one page before giving up on the thread. */
  size_t pages = running_hz > 2000 ? 32 : 8;
  /* With stack copies: about 20 ms of them, up to 2 MiB. */
  if (attr.sample_type & PERF_SAMPLE_STACK_USER)
    {
      size_t want = (size_t) running_hz / 50 * ((size_t) attr.sample_stack_user + 256) / page;
      for (pages = 16; pages < want && pages < 512; pages *= 2)
        ;
    }
  Sampled s = { .tid = tid, .fd = -1, .alive = true };
  int fd;

  if (n_sampled == cap_sampled)
    {
      size_t cap = cap_sampled ? cap_sampled * 2 : 16;
      Sampled *p = realloc (sampled, cap * sizeof *p);
      if (p == NULL)
        return false;
      sampled = p;
      cap_sampled = cap;
    }
  fd = open_event (&attr, tid);
  if (fd < 0)
    return false;
  s.first_time = to_ticks (mono_ns ());
  s.first_kind = initial_state (tid);
  for (; pages >= 1; pages /= 2)
    {
      void *m = mmap (NULL, page * (pages + 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (m != MAP_FAILED)
        {
          s.map = m;
          s.data_bytes = page * pages;
          break;
        }
    }
  if (s.map == NULL)
    {
      close (fd);
      return false;
    }
  s.fd = fd;
  sampled[n_sampled++] = s;
  return true;
}

/* Until its first context switch, a thread's state is what /proc says when its event
 * opens: running (or ready to), or asleep. Without it a thread found asleep would read as
 * unknown until it wakes. */
static int
initial_state (pid_t tid)
{
  char path[64], buf[512];
  const char *p;
  FILE *f;
  size_t n;

  snprintf (path, sizeof path, "/proc/self/task/%d/stat", (int) tid);
  if ((f = fopen (path, "re")) == NULL)
    return -1;
  n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  /* "tid (comm) S …": the name may hold anything, the state follows its last ')'. */
  p = strrchr (buf, ')');
  if (p == NULL || p[1] != ' ')
    return -1;
  return p[2] == 'R' ? STROBE_SAMPLEREC_SWITCH_IN : STROBE_SAMPLEREC_WAITING;
}

static Sampled *
find (pid_t tid)
{
  for (size_t i = 0; i < n_sampled; i++)
    if (sampled[i].tid == tid)
      return &sampled[i];
  return NULL;
}

/* Strobe's own threads (the worker, the control server) are not the program's: sampled,
 * each wake-up of the worker was two switch records and a Batch every round — a constant
 * few KiB a second, a tenth of the bytes of 1 kHz sampling of one busy thread. Known by
 * the names they give themselves; remembered, so /proc is read once per thread. */
#define MAX_OWN 8
static pid_t own[MAX_OWN];
static size_t n_own;

static bool
is_own_thread (pid_t tid)
{
  char path[64], name[32];
  FILE *f;
  bool mine;

  for (size_t i = 0; i < n_own; i++)
    if (own[i] == tid)
      return true;
  snprintf (path, sizeof path, "/proc/self/task/%d/comm", (int) tid);
  if ((f = fopen (path, "re")) == NULL)
    return false;
  mine = fgets (name, sizeof name, f) != NULL
         && (strcmp (name, "strobe-worker\n") == 0 || strcmp (name, "strobe-control\n") == 0);
  fclose (f);
  if (mine)
    own[n_own++ % MAX_OWN] = tid;
  return mine;
}

/* A thread of the program that never traced an event has no stream, so no ThreadInfo:
 * its samples had no track and no name (a preloaded sort's worker, 45 % of its samples).
 * It gets a ThreadInfo here, on a stream id of its own that carries no data, with the
 * kernel's name for it, and a ThreadEnd once it is gone. Kept across a channel toggle,
 * so a thread keeps one id. Named at the scan after the one that found it: a thread that
 * traces starts doing so at once, and naming it before would give it a second ThreadInfo
 * (a thread that lives less than a scan stays unnamed). */
typedef struct
{
  pid_t    tid;
  uint16_t id;
  bool     alive;
} Named;

static Named  *named;
static size_t  n_named, cap_named;

static Named *
find_named (pid_t tid)
{
  for (size_t i = 0; i < n_named; i++)
    if (named[i].tid == tid)
      return &named[i];
  return NULL;
}

static void
name_thread (pid_t tid)
{
  char path[64], name[64] = "";
  uint16_t id;
  FILE *f;

  if (find_named (tid) || strobe__thread_has_stream ((uint32_t) tid))
    return;
  if (n_named == cap_named)
    {
      size_t cap = cap_named ? cap_named * 2 : 8;
      Named *p = realloc (named, cap * sizeof *p);
      if (p == NULL)
        return;
      named = p;
      cap_named = cap;
    }
  if ((id = strobe__thread_reserve_id ()) == 0)
    return;
  snprintf (path, sizeof path, "/proc/self/task/%d/comm", (int) tid);
  if ((f = fopen (path, "re")) != NULL)
    {
      if (fgets (name, sizeof name, f))
        name[strcspn (name, "\n")] = '\0';
      fclose (f);
    }
  strobe__emit_thread_info_of (id, (uint64_t) tid, name);
  named[n_named++] = (Named) { tid, id, true };
}

/* Follows /proc/self/task: new threads get an event, gone ones are marked for closing
 * after their last drain. */
static void
scan_threads (uint64_t now, bool force)
{
  size_t kept;
  struct stat st;
  DIR *dir;
  struct dirent *d;

  /* A thread of Strobe's own is starting: it is not named yet. Next round. */
  if (strobe__own_threads_starting () || stat ("/proc/self/task", &st) != 0)
    return;
  if (!force && st.st_nlink == last_nlink && now - last_scan_ns < RESCAN_NS)
    return;
  last_nlink = st.st_nlink;
  last_scan_ns = now;
  dir = opendir ("/proc/self/task");
  if (dir == NULL)
    return;
  for (size_t i = 0; i < n_sampled; i++)
    sampled[i].alive = false;
  for (size_t i = 0; i < n_named; i++)
    named[i].alive = false;
  while ((d = readdir (dir)) != NULL)
    {
      pid_t tid = (pid_t) atoi (d->d_name);
      Named *n = find_named (tid);
      Sampled *s;

      if (tid <= 0)
        continue;
      if (n)
        n->alive = true;
      s = find (tid);
      if (s)
        {
          s->alive = true;
          name_thread (tid);
        }
      else if (!is_own_thread (tid))
        open_one (tid);
    }
  closedir (dir);
  /* Gone: its last samples are drained after this, all of them from before now. */
  kept = 0;
  for (size_t i = 0; i < n_named; i++)
    {
      if (named[i].alive)
        named[kept++] = named[i];
      else
        strobe__emit_thread_end (named[i].id, to_ticks (now));
    }
  n_named = kept;
}

/* ---- the clock ---------------------------------------------------------------------- */

static void
anchor_clock (void)
{
  uint64_t m0, m1;

  clock_is_monotonic = __atomic_load_n (&strobe__clock_mode, __ATOMIC_ACQUIRE) == STROBE__CLOCK_MONOTONIC;
  if (clock_is_monotonic)
    return;
  /* Re-paired every round, so the rate's error (about 1e-4) adds a microsecond at most
   * over the 10 ms a ring holds, not a millisecond over a ten-second trace. */
  m0 = mono_ns ();
  anchor_ticks = strobe_time ();
  m1 = mono_ns ();
  anchor_ns = m0 + (m1 - m0) / 2;
  ticks_per_ns = (double) strobe_clock_frequency () / 1e9;
}

static uint64_t
to_ticks (uint64_t ns)
{
  int64_t d;

  if (clock_is_monotonic)
    return ns;
  d = (int64_t) (ns - anchor_ns);
  return anchor_ticks + (uint64_t) (int64_t) ((double) d * ticks_per_ns);
}

/* ---- draining ----------------------------------------------------------------------- */

static bool
enc_reserve (size_t len, size_t more)
{
  if (len + more <= enc_cap)
    return true;
  size_t cap = enc_cap ? enc_cap * 2 : 16384;
  while (cap < len + more)
    cap *= 2;
  uint8_t *p = realloc (enc, cap);
  if (p == NULL)
    return false;
  enc = p;
  enc_cap = cap;
  return true;
}

/* The user frames of a PERF_SAMPLE_CALLCHAIN, innermost first. The first is where the
 * thread was: it goes in as that address + 1, so that every frame reads like a return
 * address (the symbolizer looks inside the call, at address - 1). */
static int
user_frames (const uint64_t *ips, uint64_t nr, uintptr_t *frames)
{
  int n = 0;

  for (uint64_t i = 0; i < nr && n < MAX_STACK; i++)
    {
      uint64_t ip = ips[i];
      if (ip >= (uint64_t) PERF_CONTEXT_MAX || ip == 0)
        continue;   /* a context marker (user, kernel…) */
      frames[n] = (uintptr_t) (n == 0 ? ip + 1 : ip);
      n++;
    }
  return n;
}

/* A sample's REGS_USER and STACK_USER parts (@words of them at @w): the registers, in
 * the order of their bits (bp, sp, ip), then the copy's size, bytes and how many of them
 * the kernel filled. Nothing is written when the thread was in the kernel with no user
 * registers (abi 0) or the copy is empty. */
static void
emit_user_stack (pid_t tid, uint64_t ticks, const uint64_t *w, size_t words)
{
  uint64_t bp, sp, ip, copied, filled;

  if (words < 2 || w[0] == PERF_SAMPLE_REGS_ABI_NONE || words < 5)
    return;
  bp = w[1];
  sp = w[2];
  ip = w[3];
  copied = w[4];
  if (copied == 0 || copied % 8 || (copied / 8) + 1 > words - 5)
    return;
  filled = w[5 + copied / 8];
  if (filled > copied)
    filled = copied;
  if (filled == 0)
    return;
  STROBE_LOG (Sampling, UserStack, StrobeTraceChannel)
    {
      STROBE_SET (Thread, (uint32_t) tid);
      STROBE_SET (Time, ticks);
      STROBE_SET (Ip, ip);
      STROBE_SET (Sp, sp);
      STROBE_SET (Bp, bp);
      STROBE_SET_ARRAY (Data, (const uint8_t *) (w + 5), (size_t) filled);
    }
}

/* One record's bytes into @len of the batch; false when they cannot be had. */
static bool
add_record (size_t *len, uint64_t *prev, uint64_t ticks, StrobeSamplerecKind kind, uint32_t stack)
{
  if (!enc_reserve (*len, STROBE_SAMPLEREC_MAX))
    return false;
  if (ticks < *prev)
    ticks = *prev;
  *len = (size_t) (strobe_samplerec_put (enc + *len, ticks - *prev, kind, stack) - enc);
  *prev = ticks;
  return true;
}

static void
drain_one (Sampled *s)
{
  struct perf_event_mmap_page *mp = (struct perf_event_mmap_page *) s->map;
  uint8_t *data = s->map + (size_t) sysconf (_SC_PAGESIZE);
  uint64_t head = __atomic_load_n (&mp->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = mp->data_tail;
  uint64_t mask = s->data_bytes - 1;
  uint64_t base = s->last, prev = s->last;
  size_t len = 0;

  if (s->first_kind >= 0)
    {
      base = prev = s->first_time < s->last ? s->last : s->first_time;
      add_record (&len, &prev, base, (StrobeSamplerecKind) s->first_kind, 0);
      s->first_kind = -1;
    }
  static uint64_t copy[8192];   /* one record that wraps around the ring's end */

  while (tail + sizeof (struct perf_event_header) <= head)
    {
      const struct perf_event_header *h = (const void *) (data + (tail & mask));
      uint16_t size = h->size;
      const uint64_t *body;

      if (size < sizeof *h || tail + size > head)
        break;
      if ((tail & mask) + size > s->data_bytes)
        {
          size_t first = s->data_bytes - (tail & mask);
          memcpy (copy, data + (tail & mask), first);
          memcpy ((uint8_t *) copy + first, data, size - first);
          h = (const void *) copy;
        }
      body = (const uint64_t *) (h + 1);
      switch (h->type)
        {
        case PERF_RECORD_SAMPLE:
          /* TID (pid, tid), TIME, CALLCHAIN (nr, ips)[, REGS_USER, STACK_USER] */
          if (size >= sizeof *h + 24 && (size - sizeof *h - 24) / 8 >= body[2])
            {
              uintptr_t frames[MAX_STACK];
              int n = user_frames (body + 3, body[2], frames);
              uint64_t t = to_ticks (body[1]);
              if (len == 0)
                base = prev = t < s->last ? s->last : t;
              add_record (&len, &prev, t, STROBE_SAMPLEREC_SAMPLE, strobe__memory_stack_intern (frames, n));
              /* At the record's time as written (prev), so a reader pairs them exactly. */
              if (attr.sample_type & PERF_SAMPLE_STACK_USER)
                emit_user_stack (s->tid, prev, body + 3 + body[2], (size - sizeof *h) / 8 - 3 - (size_t) body[2]);
            }
          break;
        case PERF_RECORD_SWITCH:
          /* sample_id: TID, TIME */
          if (size >= sizeof *h + 16)
            {
              uint64_t t = to_ticks (body[1]);
              StrobeSamplerecKind kind = STROBE_SAMPLEREC_SWITCH_IN;
              if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
                kind = (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? STROBE_SAMPLEREC_PREEMPTED
                                                                       : STROBE_SAMPLEREC_WAITING;
              if (len == 0)
                base = prev = t < s->last ? s->last : t;
              add_record (&len, &prev, t, kind, 0);
            }
          break;
        case PERF_RECORD_LOST:
          if (size >= sizeof *h + 16)
            s->lost += body[1] > UINT32_MAX - s->lost ? UINT32_MAX - s->lost : (uint32_t) body[1];
          break;
        default:
          break;   /* throttling and the like */
        }
      tail += size;
    }
  __atomic_store_n (&mp->data_tail, tail, __ATOMIC_RELEASE);
  if (len == 0 && s->lost == 0)
    return;
  s->last = prev;
  /* Every stack these records name goes out before them. */
  strobe__memory_stack_flush ();
  STROBE_LOG (Sampling, Batch, StrobeTraceChannel)
    {
      STROBE_SET (Thread, (uint32_t) s->tid);
      STROBE_SET (Base, base);
      STROBE_SET (Lost, s->lost);
      STROBE_SET_ARRAY (Data, enc, len);
    }
  s->lost = 0;
}

/* ---- start and stop ------------------------------------------------------------------ */

static void
close_all (void)
{
  for (size_t i = 0; i < n_sampled; i++)
    close_one (&sampled[i]);
  n_sampled = 0;
  running = false;
}

static void
base_attr (struct perf_event_attr *a, bool hardware, bool kernel)
{
  memset (a, 0, sizeof *a);
  a->size = sizeof *a;
  if (hardware)
    {
      a->type = PERF_TYPE_HARDWARE;
      a->config = PERF_COUNT_HW_CPU_CYCLES;
      a->freq = 1;
      a->sample_freq = running_hz;
    }
  else
    {
      /* The CPU clock counts nanoseconds: a period is exact, a frequency would wander. */
      a->type = PERF_TYPE_SOFTWARE;
      a->config = PERF_COUNT_SW_CPU_CLOCK;
      a->sample_period = 1000000000u / running_hz;
    }
  a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
  a->exclude_kernel = !kernel;
  a->exclude_hv = 1;
  a->exclude_callchain_kernel = 1;   /* kernel frames: no symbols for them here */
  a->sample_max_stack = MAX_STACK + 2;
#if defined(__x86_64__)
  {
    uint32_t copy = __atomic_load_n (&stack_copy, __ATOMIC_RELAXED);
    if (copy)
      {
        /* What a CFI unwinder starts from; the copy is from sp up. */
        a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
        a->sample_regs_user = (1u << 6) | (1u << 7) | (1u << 8);   /* PERF_REG_X86_BP, _SP, _IP */
        a->sample_stack_user = copy;
      }
  }
#endif
  a->use_clockid = 1;
  a->clockid = CLOCK_MONOTONIC;
  a->context_switch = 1;
  a->sample_id_all = 1;
  /* No wake-ups: the updater polls. */
  a->watermark = 1;
  a->wakeup_watermark = 1u << 30;
}

static void
start (void)
{
  int32_t paranoid = read_paranoid ();
  pid_t self = (pid_t) syscall (SYS_gettid);
  int mode = STROBE_SAMPLING_UNAVAILABLE, error = 0, fd = -1;
  static const struct { bool hardware, kernel; } tries[] = {
    { true, true }, { true, false }, { false, true }, { false, false },
  };

  running_hz = strobe_sampling_get_frequency ();
  for (size_t i = 0; i < sizeof tries / sizeof tries[0] && fd < 0; i++)
    {
      /* Kernel-mode samples only where the kernel allows them (paranoid < 2, or
       * privileges): they are CPU time spent in system calls on the thread's behalf. */
      if (tries[i].kernel && paranoid >= 2 && geteuid () != 0)
        continue;
      base_attr (&attr, tries[i].hardware, tries[i].kernel);
      fd = open_event (&attr, self);
      if (fd >= 0)
        mode = tries[i].hardware ? STROBE_SAMPLING_HARDWARE : STROBE_SAMPLING_SOFTWARE;
      /* The first refusal says most: a later one may only be "no such counter". */
      else if (error == 0 || errno == EACCES || errno == EPERM)
        error = errno;
    }
  if (fd < 0)
    {
      if (error == EACCES || error == EPERM)
        mode = STROBE_SAMPLING_NOT_PERMITTED;
      emit_status (mode, error, 0, paranoid);
      return;
    }
  close (fd);
  running = true;
  emit_status (mode, 0, (uint8_t) ((attr.exclude_kernel ? 0 : STROBE_STANDARD_SAMPLING_KERNEL)
                                   | STROBE_STANDARD_SAMPLING_SWITCHES), paranoid);
  anchor_clock ();
  for (size_t i = 0; i < n_sampled; i++)
    sampled[i].last = 0;
  scan_threads (mono_ns (), true);
}

/* Whether a ring is a quarter full (or more): read now, not at DRAIN_NS. */
static bool
ring_filling (void)
{
  for (size_t i = 0; i < n_sampled; i++)
    {
      const struct perf_event_mmap_page *mp = (const void *) sampled[i].map;
      uint64_t used = __atomic_load_n (&mp->data_head, __ATOMIC_ACQUIRE) - mp->data_tail;

      if (used >= sampled[i].data_bytes / 4)
        return true;
    }
  return false;
}

static void
drain_all (void)
{
  size_t kept = 0;

  for (size_t i = 0; i < n_sampled; i++)
    {
      drain_one (&sampled[i]);
      if (sampled[i].alive)
        sampled[kept++] = sampled[i];
      else
        close_one (&sampled[i]);
    }
  n_sampled = kept;
}

void
strobe__sampling_drain (void)
{
  bool on = STROBE_CHANNEL_ENABLED (SamplingChannel) != 0;
  uint64_t now;

  if (finished)
    return;
  if (quiesced)
    {
      if (running)
        {
          anchor_clock ();
          drain_all ();
        }
      return;
    }

  if (on && started && running && running_hz != strobe_sampling_get_frequency ())
    {
      /* A new frequency: the events are opened again with it. */
      anchor_clock ();
      drain_all ();
      close_all ();
      started = false;
    }
  if (on && !started)
    {
      started = true;
      start ();
    }
  if (!running)
    {
      if (!on)
        started = false;
      return;
    }
  now = mono_ns ();
  anchor_clock ();
  scan_threads (now, false);
  if (on && now - last_drain_ns < DRAIN_NS && !ring_filling ())
    return;
  last_drain_ns = now;
  drain_all ();
  if (!on)
    {
      close_all ();
      started = false;
      emit_status (STROBE_SAMPLING_OFF, 0, 0, read_paranoid ());
    }
}

/* At shutdown, before the output's last drain: the events stop counting, and that drain's
 * rounds read what the rings hold without waiting for DRAIN_NS. Left counting, the thread
 * shutting down was sampled while it drained, so every round of that drain found a sample
 * or a switch record of its own and went round again — under load, for up to the
 * output's 2 s grace. */
void
strobe__sampling_quiesce (void)
{
  for (size_t i = 0; i < n_sampled; i++)
    ioctl (sampled[i].fd, PERF_EVENT_IOC_DISABLE, 0);
  quiesced = true;
}

void
strobe__sampling_shutdown (void)
{
  close_all ();
  started = false;
  finished = true;
}

/* In a fork()ed child: the events are the parent's threads'; forget them unread. */
void
strobe__sampling_after_fork_child (void)
{
  n_own = 0;
  n_named = 0;
  close_all ();
  started = false;
  last_nlink = 0;
}
