/* test-memory-budget.c — the timeline's memory budget sees the hard limits a process runs
 * under (prlimit --as, a cgroup's memory.max), not only the machine's MemAvailable: under
 * such a limit a big trace must open with what fits and a count of the rest, where before
 * a slab's mmap failed and the process aborted. The address-space limit is the one a test
 * can set for itself.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "strobe-memory-budget.h"
#include "strobe-scope-track.h"
#include "strobe-timeline-model.h"

#define MIB ((guint64) 1 << 20)

static guint64
vm_size (void)
{
  g_autofree char *text = NULL;
  const char *p;

  g_assert_true (g_file_get_contents ("/proc/self/status", &text, NULL, NULL));
  p = strstr (text, "VmSize:");
  g_assert_nonnull (p);
  return g_ascii_strtoull (p + 7, NULL, 10) * 1024;
}

static void
test_cap_without_limits (void)
{
  StrobeMemoryBudget b;
  struct rlimit rl;

  g_assert_cmpint (getrlimit (RLIMIT_AS, &rl), ==, 0);
  if (rl.rlim_cur != RLIM_INFINITY || strobe_memory_budget_room () != G_MAXUINT64)
    {
      g_test_skip ("this process already runs under a memory limit");
      return;
    }
  strobe_memory_budget_init (&b, 3 * MIB);
  g_assert_cmpuint (b.bytes, ==, 3 * MIB);
  g_assert_false (strobe_memory_budget_over (&b, 3 * MIB - 1));
  g_assert_true (strobe_memory_budget_over (&b, 3 * MIB));
  g_assert_true (b.final);
}

/* AddressSanitizer reserves terabytes of shadow address space up front: an address-space
 * limit says nothing about the budget there, and the sanitizer needs the room. */
static gboolean
skip_under_asan (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("address-space limits do not apply under AddressSanitizer");
  return TRUE;
#else
  return FALSE;
#endif
}

/* Under an address-space limit of what is mapped now + 512 MiB: the budget is half of the
 * room left after the reserve; what the process maps later (a trace file) shrinks the
 * room the next look at the budget sees, and a full address space ends it. */
static void
test_address_space_limit (void)
{
  StrobeMemoryBudget b;
  g_autoptr(StrobeTimelineModel) model = NULL;
  StrobeTimelineStats st;
  struct rlimit rl;
  guint64 room0, room1, old, limit = vm_size () + 512 * MIB;
  void *map;

  if (skip_under_asan ())
    return;
  rl.rlim_cur = rl.rlim_max = limit;
  g_assert_cmpint (setrlimit (RLIMIT_AS, &rl), ==, 0);
  room0 = strobe_memory_budget_room ();
  g_assert_cmpuint (room0, <=, 512 * MIB - MAX (limit / 8, 64 * MIB));
  g_assert_cmpuint (room0, >=, 128 * MIB);

  strobe_memory_budget_init (&b, G_MAXUINT64);
  g_assert_cmpuint (b.bytes, <=, room0 / 2);
  g_assert_cmpuint (b.bytes, >, 0);

  /* The model made now has that budget, not half of the machine's free memory. */
  model = strobe_timeline_model_new ();
  strobe_timeline_model_get_stats (model, &st);
  g_assert_cmpuint (st.memory_budget, <=, room0 / 2);

  /* 160 MiB mapped since: reaching the budget grows it by half of what is left. */
  map = mmap (NULL, 160 * MIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  g_assert_true (map != MAP_FAILED);
  room1 = strobe_memory_budget_room ();
  g_assert_cmpuint (room1, <=, room0 - 150 * MIB);
  old = b.bytes;
  g_assert_false (strobe_memory_budget_over (&b, old));
  g_assert_cmpuint (b.bytes, >, old);
  g_assert_cmpuint (b.bytes, <=, old + room1 / 2 + MIB);

  /* Nothing left: the budget says so, for good. */
  g_assert_cmpint (munmap (map, 160 * MIB), ==, 0);
  map = mmap (NULL, room0 - 8 * MIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  g_assert_true (map != MAP_FAILED);
  g_assert_true (strobe_memory_budget_over (&b, b.bytes));
  g_assert_true (b.final);
  g_assert_true (strobe_memory_budget_exceeded (&b, 0));
  /* The models stop at the reserve; an answer may take half of what is left with it. */
  {
    guint64 left = limit - vm_size ();

    g_assert_true (strobe_memory_budget_fits (left / 2 - 8 * MIB));
    g_assert_false (strobe_memory_budget_fits (left / 2 + 8 * MIB));
  }
  munmap (map, room0 - 8 * MIB);
}

/* The address space gone before the budget looked again (the viewer's toolkit threads
 * take it): the arena cannot map a block. The chunk keeps the buffer it was filled in —
 * every scope appended stays readable — and the arena says it is full, which the model
 * takes as its budget reached (before, g_error ended the process). */
static void
test_arena_full (void)
{
  StrobeScopeArena arena;
  StrobeScopeTrack *t;
  StrobeScopePos p;
  struct rlimit rl;
  guint64 n = 0;

  if (skip_under_asan ())
    return;
  strobe_scope_arena_init (&arena, FALSE);
  t = strobe_scope_track_new (&arena);
  rl.rlim_cur = rl.rlim_max = vm_size () + 2 * MIB;
  g_assert_cmpint (setrlimit (RLIMIT_AS, &rl), ==, 0);
  for (n = 0; n < 100000 && !arena.full; n++)
    strobe_scope_track_append (&arena, t, 10 * n, 10 * n + 5, (guint32) (n % 7), 0, 0);
  g_assert_true (arena.full);
  g_assert_cmpuint (arena.blocks->len, ==, 0);
  g_assert_cmpuint (t->n, ==, n);
  p = strobe_scope_track_seek (t, 0);
  for (guint64 i = 0; i < n; i++)
    {
      g_assert_cmpuint (p.begin, ==, 10 * i);
      g_assert_cmpuint (p.end, ==, 10 * i + 5);
      if (i + 1 < n)
        strobe_scope_pos_next (t, &p);
    }
  strobe_scope_track_finish (&arena, t);
  strobe_scope_track_free (t);
  strobe_scope_arena_clear (&arena);
}

static void
write_meminfo (const char *path, guint64 total, guint64 available)
{
  g_autofree char *text = g_strdup_printf ("MemTotal:       %" G_GUINT64_FORMAT " kB\n"
                                           "MemFree:        %" G_GUINT64_FORMAT " kB\n"
                                           "MemAvailable:   %" G_GUINT64_FORMAT " kB\n",
                                           total / 1024, available / 1024, available / 1024);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* Two models filling at once (a group's traces, or two opened together) on a machine with
 * 4 GiB left of 16: each was given half of MemAvailable when made (2 GiB each, 4 together:
 * all of it), but each step reads what the machine has left, so together they stop at its
 * reserve (a sixteenth, 1 GiB) having kept most of the rest, each short of its cap. One
 * model alone on the same machine keeps up to its cap. */
static void
test_machine_room (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-memory-budget-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "meminfo", NULL);
  const guint64 total = 16384 * MIB, free_at_start = 4096 * MIB;
  StrobeMemoryBudget b[2];
  guint64 used[2] = { 0, 0 };
  guint steps = 0;

  if (strobe_memory_budget_room () != G_MAXUINT64)
    {
      g_test_skip ("this process already runs under a memory limit");
      return;
    }
  write_meminfo (path, total, free_at_start);
  strobe_memory_budget_set_test_meminfo (path);
  for (guint m = 0; m < 2; m++)
    {
      strobe_memory_budget_init (&b[m], 0);
      g_assert_cmpuint (b[m].cap, ==, free_at_start / 2);
    }
  /* Each in turn fills to its budget, then asks again with the machine's memory as both
   * models left it. */
  while (!(b[0].final && b[1].final) && steps < 10000)
    for (guint m = 0; m < 2; m++, steps++)
      if (!b[m].final)
        {
          used[m] = b[m].bytes;
          write_meminfo (path, total, free_at_start - used[0] - used[1]);
          strobe_memory_budget_over (&b[m], used[m]);
        }
  g_assert_true (b[0].final && b[1].final);
  g_assert_cmpuint (used[0] + used[1], <=, free_at_start - total / 16);
  g_assert_cmpuint (used[0] + used[1], >=, free_at_start - total / 16 - 64 * MIB);
  g_assert_cmpuint (used[0], <, b[0].cap);
  g_assert_cmpuint (used[1], <, b[1].cap);
  /* Few steps: /proc is read at each. */
  g_assert_cmpuint (steps, <, 200);

  /* Alone, the same machine lets one model reach its cap. */
  write_meminfo (path, total, free_at_start);
  strobe_memory_budget_init (&b[0], 0);
  used[0] = 0;
  while (!b[0].final)
    {
      used[0] = b[0].bytes;
      write_meminfo (path, total, free_at_start - used[0]);
      strobe_memory_budget_over (&b[0], used[0]);
    }
  g_assert_cmpuint (used[0], ==, b[0].cap);

  /* A machine with nothing left past its reserve: a model still keeps 64 MiB (a small
   * trace opens whole), then nothing more. */
  write_meminfo (path, total, total / 16 - 8 * MIB);
  strobe_memory_budget_init (&b[0], 4096 * MIB);
  g_assert_false (strobe_memory_budget_over (&b[0], 64 * MIB - 1));
  g_assert_true (strobe_memory_budget_over (&b[0], 64 * MIB));
  g_assert_true (b[0].final);

  /* A query's answer fits in what the machine has left past its reserve; with nothing
   * left, up to a 256th of the machine (64 MiB here), no more. */
  write_meminfo (path, total, total / 16 + 512 * MIB);
  g_assert_true (strobe_memory_budget_fits (512 * MIB));
  g_assert_false (strobe_memory_budget_fits (513 * MIB));
  write_meminfo (path, total, 0);
  g_assert_true (strobe_memory_budget_fits (64 * MIB));
  g_assert_false (strobe_memory_budget_fits (64 * MIB + 1));

  strobe_memory_budget_set_test_meminfo (NULL);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-budget/cap-without-limits", test_cap_without_limits);
  g_test_add_func ("/memory-budget/machine-room", test_machine_room);
  /* Last: they lower this process's limit for good. */
  g_test_add_func ("/memory-budget/address-space-limit", test_address_space_limit);
  g_test_add_func ("/memory-budget/arena-full", test_arena_full);
  return g_test_run ();
}
