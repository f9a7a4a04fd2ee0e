/* strobe-memory-budget.c — what a model may keep: at most half of the machine's
 * MemAvailable when it was made, never more than the machine has left (other models and
 * programs filling at the same time), and never past the hard limits this process runs under —
 * its address-space and data limits (ulimit -v / -d, prlimit) and its control group's
 * (cgroup v2 memory.max, v1 memory.limit_in_bytes: systemd-run -p MemoryMax=, containers).
 * A limit the model does not see is one it runs into: g_malloc or a slab's mmap fails and
 * the process aborts, or the cgroup's OOM killer takes it, instead of the trace opening
 * with what fits and a count of what did not. The hard limits' room is looked at again
 * each time the budget is reached, as what the process mapped since (the trace file
 * itself, against an address-space limit) and the other models' memory count too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-budget.h"

#include <string.h>
#include <sys/resource.h>

/* The number after @key in @path (a /proc status file), times @unit; 0 when absent. */
static guint64
read_field (const char *path, const char *key, guint64 unit)
{
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (p = strstr (text, key)) == NULL)
    return 0;
  return g_ascii_strtoull (p + strlen (key), NULL, 10) * unit;
}

/* A whole file as a number; G_MAXUINT64 for "max", a missing file or no number. */
static guint64
read_number (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;
  char *end = NULL;
  guint64 v;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return G_MAXUINT64;
  v = g_ascii_strtoull (text, &end, 10);
  return end == text ? G_MAXUINT64 : v;
}

static void
take_least (guint64 *least, guint64 limit, guint64 used)
{
  /* cgroup v1 says "no limit" as a page-rounded LLONG_MAX. */
  if (limit >= (G_MAXUINT64 >> 2))
    return;
  *least = MIN (*least, limit > used ? limit - used : 0);
}

/* An eighth of a hard limit (at least 64 MiB) stays for the rest of the process: the
 * other models, the toolkit, the decoder's buffers, the answers to queries. */
static void
take_room (guint64 *least, guint64 limit, guint64 used, gboolean keep_reserve)
{
  guint64 reserve = keep_reserve ? MAX (limit / 8, (guint64) 64 << 20) : 0;

  take_least (least, limit > reserve ? limit - reserve : 0, used);
}

/* What the control groups this process is in still allow: for each line of
 * /proc/self/cgroup, its directory under the v2 mount or the v1 memory controller's. */
static void
take_cgroups (guint64 *least, gboolean keep_reserve)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/cgroup", &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ":", 3);
      g_autofree char *v2 = NULL, *v2u = NULL, *v1 = NULL;

      if (g_strv_length (f) != 3)
        continue;
      if (strcmp (f[0], "0") == 0 && f[1][0] == '\0')
        {
          v2 = g_build_filename ("/sys/fs/cgroup", f[2], NULL);
          v2u = g_build_filename ("/sys/fs/cgroup/unified", f[2], NULL);
          take_room (least, read_number (v2, "memory.max"), read_number (v2, "memory.current"), keep_reserve);
          take_room (least, read_number (v2u, "memory.max"), read_number (v2u, "memory.current"), keep_reserve);
        }
      else if (strstr (f[1], "memory") != NULL)
        {
          v1 = g_build_filename ("/sys/fs/cgroup/memory", f[2], NULL);
          take_room (least, read_number (v1, "memory.limit_in_bytes"), read_number (v1, "memory.usage_in_bytes"),
                     keep_reserve);
        }
    }
}

/* What the hard limits still allow this process to take (their reserve kept or not);
 * G_MAXUINT64 when it runs under none. */
static guint64
hard_room (gboolean keep_reserve)
{
  guint64 least = G_MAXUINT64;
  struct rlimit rl;

  if (getrlimit (RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    take_room (&least, rl.rlim_cur, read_field ("/proc/self/status", "VmSize:", 1024), keep_reserve);
  if (getrlimit (RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    take_room (&least, rl.rlim_cur, read_field ("/proc/self/status", "VmData:", 1024), keep_reserve);
  take_cgroups (&least, keep_reserve);
  return least;
}

guint64
strobe_memory_budget_room (void)
{
  return hard_room (TRUE);
}

/* Whatever the machine says, a model keeps this much: a small trace opens whole on a busy
 * machine (a tight moment must not make every model keep nothing); only hard limits
 * refuse it. */
#define MACHINE_FLOOR ((guint64) 64 << 20)

static const char *meminfo_path = "/proc/meminfo";

void
strobe_memory_budget_set_test_meminfo (const char *path)
{
  meminfo_path = path ? path : "/proc/meminfo";
}

/* What the machine still has for this process: MemAvailable now, less a sixteenth of its
 * memory (at least 256 MiB) kept for everything else; G_MAXUINT64 when /proc does not
 * say. Read again at each step, so models filling at once — the traces of a group, several
 * opened together — see each other's memory go, where each one's half of MemAvailable when
 * it was made added up past the machine's. @total: MemTotal (0 when not said). */
static guint64
machine_room_of (guint64 *total)
{
  g_autofree char *text = NULL;
  const char *t, *available;
  guint64 reserve, have;

  *total = 0;
  if (!g_file_get_contents (meminfo_path, &text, NULL, NULL)
      || (t = strstr (text, "MemTotal:")) == NULL || (available = strstr (text, "MemAvailable:")) == NULL)
    return G_MAXUINT64;
  *total = g_ascii_strtoull (t + strlen ("MemTotal:"), NULL, 10) * 1024;
  reserve = MAX (*total / 16, (guint64) 256 << 20);
  have = g_ascii_strtoull (available + strlen ("MemAvailable:"), NULL, 10) * 1024;
  return have > reserve ? have - reserve : 0;
}

static guint64
machine_room (void)
{
  guint64 total;

  return machine_room_of (&total);
}

gboolean
strobe_memory_budget_fits (guint64 bytes)
{
  guint64 total, machine = machine_room_of (&total), hard = hard_room (FALSE);

  /* An answer may take half of what the hard limits leave, their reserve included: the
   * models stop at the reserve, kept for the rest of the process — these answers among it.
   * Past the machine's room, a small answer is still made — one 256th of its memory, at
   * most the models' floor: a busy moment must not refuse every query. */
  return (hard == G_MAXUINT64 || bytes <= hard / 2)
         && (machine == G_MAXUINT64 || bytes <= MAX (machine, MIN (total / 256, MACHINE_FLOOR)));
}

/* @cap 0: half of MemAvailable now (no cap when /proc does not say). */
void
strobe_memory_budget_init (StrobeMemoryBudget *budget,
                           guint64             cap)
{
  if (cap == 0)
    cap = read_field (meminfo_path, "MemAvailable:", 1024) / 2;
  budget->cap = cap ? cap : G_MAXUINT64;
  budget->bytes = 0;
  budget->final = FALSE;
  strobe_memory_budget_exceeded (budget, 0);
}

/* Called when @used reached budget->bytes: half of the hard limits' room more and an
 * eighth of the machine's (small steps: other models may be taking the rest at the same
 * time), up to the cap; TRUE when nothing more fits (then for good: /proc is not read for
 * every scope). */
gboolean
strobe_memory_budget_exceeded (StrobeMemoryBudget *budget,
                               guint64             used)
{
  guint64 hard, machine, step;

  if (budget->final || used >= budget->cap)
    return budget->final = TRUE;
  hard = strobe_memory_budget_room ();
  machine = machine_room ();
  if (hard == G_MAXUINT64 && machine == G_MAXUINT64)
    {
      budget->bytes = budget->cap;
      return FALSE;
    }
  if (hard < ((guint64) 16 << 20) || (machine < ((guint64) 16 << 20) && used >= MACHINE_FLOOR))
    return budget->final = TRUE;
  step = machine == G_MAXUINT64 ? G_MAXUINT64 : MAX (machine / 8, used < MACHINE_FLOOR ? MACHINE_FLOOR - used : 0);
  step = MIN (step, hard == G_MAXUINT64 ? G_MAXUINT64 : hard / 2);
  budget->bytes = MIN (budget->cap, used + step);
  return FALSE;
}
