/* strobe-memory-modules.c — the module map: every loaded ELF object's path, build id,
 * load bias and address range, as Important Memory.Module events (so a late connect has
 * them) and Memory.ModuleUnload when one goes away. Without it call stacks are raw
 * addresses that mean nothing once the process is gone (ASLR).
 *
 * Scanned with dl_iterate_phdr when the first stack is recorded, after the interposer's
 * dlclose, and before any new stack is given an id once the loader's add/remove counters
 * moved (a dlopen or dlclose since the last scan) — so a module is always announced
 * before the first stack through it. dlopen itself is not interposed: the C library
 * resolves a dlopen'ed name with the RUNPATH of the code that called it, and would see
 * the interposer instead. A stack through code no module covers (JIT) rescans at most
 * every 50 ms. The scan runs without this file's lock: dl_iterate_phdr takes the
 * loader's lock, and a thread inside dlopen may be waiting for ours from its own malloc. */
#include "strobe-memory-private.h"
#include "strobe-memory-events.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_BUILD_ID 64
#define RESCAN_GAP_NS 50000000ull

typedef struct
{
  uintptr_t start, end, bias;
  uint32_t  id;
  uint8_t   build_id_len;
  uint8_t   build_id[MAX_BUILD_ID];
  char     *path;
  bool      seen;
} Module;

static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;
static Module         *modules;       /* sorted by start */
static size_t          n_modules;
static uint32_t        next_id = 1;
static uint64_t        last_scan_ns;
static bool            scanned;
static unsigned long long seen_adds, seen_subs;   /* dl_iterate_phdr's counters at the scan */
static unsigned        unload_scans;  /* scans that found a module gone */

typedef struct
{
  Module *list;
  size_t  n, cap;
} Scan;

static void
read_build_id (const struct dl_phdr_info *info, Module *m)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      const uint8_t *p, *end;

      if (ph->p_type != PT_NOTE)
        continue;
      p = (const uint8_t *) (info->dlpi_addr + ph->p_vaddr);
      end = p + ph->p_memsz;
      while (p + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *nh = (const ElfW (Nhdr) *) (const void *) p;
          const uint8_t *name = p + sizeof *nh;
          const uint8_t *desc = name + ((nh->n_namesz + 3) & ~3u);
          const uint8_t *next = desc + ((nh->n_descsz + 3) & ~3u);

          if (next > end || next <= p)
            break;
          if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp (name, "GNU", 4) == 0)
            {
              m->build_id_len = (uint8_t) (nh->n_descsz < MAX_BUILD_ID ? nh->n_descsz : MAX_BUILD_ID);
              memcpy (m->build_id, desc, m->build_id_len);
              return;
            }
          p = next;
        }
    }
}

static char *
main_path (void)
{
  char buf[4096];
  ssize_t n = readlink ("/proc/self/exe", buf, sizeof buf - 1);

  if (n <= 0)
    return strdup (program_invocation_name);
  buf[n] = '\0';
  return strdup (buf);
}

static int
collect (struct dl_phdr_info *info, size_t size, void *data)
{
  Scan *s = data;
  Module m = { 0 };
  bool any = false;

  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t lo, hi;

      if (ph->p_type != PT_LOAD)
        continue;
      lo = info->dlpi_addr + ph->p_vaddr;
      hi = lo + ph->p_memsz;
      if (!any || lo < m.start)
        m.start = lo;
      if (!any || hi > m.end)
        m.end = hi;
      any = true;
    }
  if (!any)
    return 0;
  if (s->n == s->cap)
    {
      size_t cap = s->cap ? s->cap * 2 : 64;
      Module *l = realloc (s->list, cap * sizeof *l);
      if (l == NULL)
        return 1;
      s->list = l;
      s->cap = cap;
    }
  m.bias = info->dlpi_addr;
  read_build_id (info, &m);
  m.path = info->dlpi_name && *info->dlpi_name ? strdup (info->dlpi_name) : main_path ();
  s->list[s->n++] = m;
  return 0;
}

static int
peek (struct dl_phdr_info *info, size_t size, void *data)
{
  unsigned long long *v = data;

  if (size >= offsetof (struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
    {
      v[0] = info->dlpi_adds;
      v[1] = info->dlpi_subs;
    }
  return 1;
}

static int
by_start (const void *a, const void *b)
{
  const Module *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static void
emit_module (const Module *m)
{
  STROBE_LOG (Memory, Module, StrobeTraceChannel)
    {
      STROBE_SET (Id, m->id);
      STROBE_SET (Bias, (uint64_t) m->bias);
      STROBE_SET (Start, (uint64_t) m->start);
      STROBE_SET (End, (uint64_t) m->end);
      if (m->build_id_len)
        STROBE_SET_ARRAY (BuildId, m->build_id, m->build_id_len);
      STROBE_SET_STRING (Path, m->path ? m->path : "");
    }
}

static bool
same (const Module *a, const Module *b)
{
  return a->start == b->start && a->end == b->end && a->bias == b->bias
         && a->build_id_len == b->build_id_len && memcmp (a->build_id, b->build_id, a->build_id_len) == 0
         && strcmp (a->path ? a->path : "", b->path ? b->path : "") == 0;
}

void
strobe__memory_modules_rescan (bool forced)
{
  Scan s = { 0 };
  uint64_t now;
  bool unloaded = false;

  strobe__memory_guard++;
  now = (uint64_t) (strobe_time () * 1e9 / (double) strobe_clock_frequency ());
  pthread_mutex_lock (&modules_lock);
  if (!forced && scanned && now - last_scan_ns < RESCAN_GAP_NS)
    {
      pthread_mutex_unlock (&modules_lock);
      strobe__memory_guard--;
      return;
    }
  last_scan_ns = now;
  pthread_mutex_unlock (&modules_lock);

  {
    unsigned long long v[2] = { 0, 0 };
    dl_iterate_phdr (peek, v);
    __atomic_store_n (&seen_adds, v[0], __ATOMIC_RELAXED);
    __atomic_store_n (&seen_subs, v[1], __ATOMIC_RELAXED);
  }
  dl_iterate_phdr (collect, &s);
  qsort (s.list, s.n, sizeof *s.list, by_start);

  pthread_mutex_lock (&modules_lock);
  for (size_t i = 0; i < n_modules; i++)
    modules[i].seen = false;
  for (size_t i = 0; i < s.n; i++)
    {
      Module *m = &s.list[i];
      size_t j;

      for (j = 0; j < n_modules && !same (&modules[j], m); j++)
        ;
      if (j < n_modules)
        {
          modules[j].seen = true;
          m->id = modules[j].id;
        }
      else
        {
          m->id = next_id++;
          emit_module (m);
        }
    }
  for (size_t j = 0; j < n_modules; j++)
    {
      if (!modules[j].seen)
        {
          STROBE_LOG (Memory, ModuleUnload, StrobeTraceChannel)
            STROBE_SET (Id, modules[j].id);
          unloaded = true;
        }
      free (modules[j].path);
    }
  free (modules);
  modules = s.list;
  n_modules = s.n;
  scanned = true;
  pthread_mutex_unlock (&modules_lock);
  /* Its addresses may come back as another module's: the stacks' trie sees the count
   * change and starts anew (strobe-memory-stack.c asks; the map never calls it). */
  if (unloaded)
    __atomic_add_fetch (&unload_scans, 1, __ATOMIC_RELEASE);
  strobe__memory_guard--;
}

unsigned
strobe__memory_modules_unloads (void)
{
  return __atomic_load_n (&unload_scans, __ATOMIC_ACQUIRE);
}

/* Whether objects were loaded or unloaded since the last scan (a cheap look at the
 * loader's counters, no walk). */
bool
strobe__memory_modules_changed_since_scan (void)
{
  unsigned long long v[2] = { 0, 0 };

  dl_iterate_phdr (peek, v);
  return v[0] != __atomic_load_n (&seen_adds, __ATOMIC_RELAXED)
         || v[1] != __atomic_load_n (&seen_subs, __ATOMIC_RELAXED);
}

bool
strobe__memory_modules_cover (const uintptr_t *ips, int n)
{
  bool all = true;

  pthread_mutex_lock (&modules_lock);
  if (!scanned)
    all = false;
  for (int i = 0; i < n && all; i++)
    {
      size_t lo = 0, hi = n_modules;

      while (lo < hi)
        {
          size_t mid = lo + (hi - lo) / 2;
          if (modules[mid].end <= ips[i])
            lo = mid + 1;
          else
            hi = mid;
        }
      all = lo < n_modules && modules[lo].start <= ips[i];
    }
  pthread_mutex_unlock (&modules_lock);
  return all;
}

void
strobe__memory_modules_changed (void)
{
  bool known;

  if (__atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    return;
  pthread_mutex_lock (&modules_lock);
  known = scanned;
  pthread_mutex_unlock (&modules_lock);
  /* Only once stacks made the map worth having. */
  if (known)
    strobe__memory_modules_rescan (true);
}
