/* strobe-symbolizer.c — libdw (dwfl) behind a cache.
 *
 * One Dwfl per module, reported with dwfl_report_elf at the bias it was loaded with (a
 * trace may map two modules at one address at different times, which one Dwfl cannot
 * hold). A lookup takes the symbol from the module's functions sorted once (libdw's own
 * dwfl_module_addrinfo reads the whole symbol table per call), the
 * line from the line table (dwfl_module_getsrc), and the inlined frames from the DWARF
 * scopes at the address (dwarf_getscopes): the innermost inlined function has the line
 * table's location, each caller the DW_AT_call_file/line of the inlined call below it —
 * the way eu-addr2line -i prints them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-symbolizer.h"

#include "strobe-demangle.h"
#include "strobe-memory-records.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#define MAX_INLINE 16

typedef struct
{
  GElf_Addr   start;
  GElf_Addr   end;      /* start + size; start when the symbol has no size */
  GElf_Addr   limit;    /* an unsized symbol's reach: the end of its section */
  const char *name;     /* in the ELF string table, alive with the Dwfl */
} Sym;

typedef struct
{
  guint32  key;
  char    *path;
  GBytes  *build_id;
  guint64  bias, start, end;
  gboolean opened;
  Dwfl    *dwfl;         /* NULL when the file could not be used */
  Dwfl_Module *mod;
  GArray  *syms;         /* Sym by start: dwfl_module_addrinfo walks every symbol per call */
  gboolean has_symbols;  /* a symbol table or DWARF, its own or a separate debug file's */
} Module;

typedef struct
{
  guint32 key;
  guint64 address;
} CacheKey;

typedef struct
{
  StrobeSymbolization pub;
  StrobeSymbolFrame   frames[];
} Entry;

struct _StrobeSymbolizer
{
  GObject     parent_instance;
  GMutex      lock;
  GPtrArray  *modules;     /* Module * */
  GHashTable *by_key;      /* key → Module * */
  GHashTable *cache;       /* CacheKey → Entry * */
  GStringChunk *strings;   /* names and files, never freed before the symbolizer */
  guint64     lookups, cached;
  char       *debuginfo_path;
  Dwfl_Callbacks callbacks;  /* pointing at debuginfo_path */
};

G_DEFINE_FINAL_TYPE (StrobeSymbolizer, strobe_symbolizer, G_TYPE_OBJECT)

static const StrobeSymbolFrame no_frame = { NULL, NULL, 0, 0 };

static guint
cache_hash (gconstpointer p)
{
  const CacheKey *k = p;
  return (guint) ((k->address * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) ^ k->key;
}

static gboolean
cache_equal (gconstpointer a, gconstpointer b)
{
  const CacheKey *x = a, *y = b;
  return x->key == y->key && x->address == y->address;
}

static void
module_free (gpointer data)
{
  Module *m = data;

  if (m->dwfl)
    dwfl_end (m->dwfl);
  g_clear_pointer (&m->syms, g_array_unref);
  g_free (m->path);
  g_clear_pointer (&m->build_id, g_bytes_unref);
  g_free (m);
}

StrobeSymbolizer *
strobe_symbolizer_new (void)
{
  return g_object_new (STROBE_TYPE_SYMBOLIZER, NULL);
}

static void
strobe_symbolizer_finalize (GObject *object)
{
  StrobeSymbolizer *self = STROBE_SYMBOLIZER (object);

  g_hash_table_unref (self->cache);
  g_hash_table_unref (self->by_key);
  g_ptr_array_unref (self->modules);
  g_string_chunk_free (self->strings);
  g_free (self->debuginfo_path);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (strobe_symbolizer_parent_class)->finalize (object);
}

static void
strobe_symbolizer_class_init (StrobeSymbolizerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_symbolizer_finalize;
}

static void
strobe_symbolizer_init (StrobeSymbolizer *self)
{
  g_mutex_init (&self->lock);
  self->modules = g_ptr_array_new_with_free_func (module_free);
  self->by_key = g_hash_table_new (NULL, NULL);
  self->cache = g_hash_table_new_full (cache_hash, cache_equal, g_free, g_free);
  self->strings = g_string_chunk_new (4096);
  self->debuginfo_path = g_strdup (":.debug:/usr/lib/debug");
  /* libdw's own search for a separate debug file: by build id under each directory of
   * the path (DIR/.build-id/xx/yyyy.debug), then the .gnu_debuglink's name beside the
   * module, in its .debug/ and under each directory (Debian's -dbgsym and -dbg
   * packages); debuginfod only when the user's environment names servers
   * (DEBUGINFOD_URLS, elfutils' client). */
  self->callbacks.find_elf = dwfl_build_id_find_elf;
  self->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  self->callbacks.section_address = dwfl_offline_section_address;
  self->callbacks.debuginfo_path = &self->debuginfo_path;
}

void
strobe_symbolizer_set_debuginfo_path (StrobeSymbolizer *self, const char *path)
{
  g_return_if_fail (STROBE_IS_SYMBOLIZER (self));
  g_return_if_fail (path != NULL);
  g_mutex_lock (&self->lock);
  g_free (self->debuginfo_path);
  self->debuginfo_path = g_strdup (path);
  g_mutex_unlock (&self->lock);
}

void
strobe_symbolizer_add_module (StrobeSymbolizer *self, guint32 key, const char *path, const guint8 *build_id,
                              gsize build_id_len, guint64 bias, guint64 start, guint64 end)
{
  Module *m;

  g_return_if_fail (STROBE_IS_SYMBOLIZER (self));
  g_return_if_fail (key != 0);
  m = g_new0 (Module, 1);
  m->key = key;
  m->path = g_strdup (path ? path : "");
  m->build_id = build_id && build_id_len ? g_bytes_new (build_id, build_id_len) : NULL;
  m->bias = bias;
  m->start = start;
  m->end = end;
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->modules, m);
  g_hash_table_replace (self->by_key, GUINT_TO_POINTER (key), m);
  g_mutex_unlock (&self->lock);
}

static gboolean
build_id_matches (Dwfl_Module *mod, GBytes *want)
{
  const unsigned char *bits = NULL;
  GElf_Addr vaddr;
  int n;
  gsize len;
  const guint8 *w;

  if (want == NULL)
    return TRUE;
  n = dwfl_module_build_id (mod, &bits, &vaddr);
  w = g_bytes_get_data (want, &len);
  return n > 0 && (gsize) n == len && memcmp (bits, w, len) == 0;
}

/* The debug file named by build id: DIR/.build-id/xx/yyyy….debug for each debuginfo dir. */
static char *
find_by_build_id (StrobeSymbolizer *self, GBytes *build_id)
{
  g_auto (GStrv) dirs = NULL;
  gsize len;
  const guint8 *b;
  GString *hex;

  if (build_id == NULL)
    return NULL;
  b = g_bytes_get_data (build_id, &len);
  if (len < 2)
    return NULL;
  hex = g_string_new (NULL);
  for (gsize i = 1; i < len; i++)
    g_string_append_printf (hex, "%02x", b[i]);
  dirs = g_strsplit (self->debuginfo_path, ":", -1);
  for (guint i = 0; dirs[i]; i++)
    {
      g_autofree char *p = NULL;

      if (dirs[i][0] != '/')
        continue;
      p = g_strdup_printf ("%s/.build-id/%02x/%s.debug", dirs[i], b[0], hex->str);
      if (g_file_test (p, G_FILE_TEST_IS_REGULAR))
        {
          g_string_free (hex, TRUE);
          return g_steal_pointer (&p);
        }
    }
  g_string_free (hex, TRUE);
  return NULL;
}

static gboolean
try_open (StrobeSymbolizer *self, Module *m, const char *file)
{
  Dwfl *dwfl;
  Dwfl_Module *mod;

  if (file == NULL || !g_file_test (file, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  dwfl = dwfl_begin (&self->callbacks);
  if (dwfl == NULL)
    return FALSE;
  dwfl_report_begin (dwfl);
  mod = dwfl_report_elf (dwfl, m->path, file, -1, m->bias, true);
  dwfl_report_end (dwfl, NULL, NULL);
  if (mod == NULL || !build_id_matches (mod, m->build_id))
    {
      dwfl_end (dwfl);
      return FALSE;
    }
  m->dwfl = dwfl;
  m->mod = mod;
  return TRUE;
}

static void
open_module (StrobeSymbolizer *self, Module *m)
{
  g_autofree char *debug = NULL;

  m->opened = TRUE;
  if (try_open (self, m, m->path))
    return;
  /* The file changed or is gone: its debug file by build id has the symbols too. */
  debug = find_by_build_id (self, m->build_id);
  try_open (self, m, debug);
}

static gint
by_start (gconstpointer a, gconstpointer b)
{
  const Sym *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* Sized before unsized at one address: the one that says where it ends. */
  return (y->end > y->start) - (x->end > x->start);
}

/* The module's functions, sorted once: elfutils 0.188 searches the symbol table linearly
 * on every dwfl_module_addrinfo (100 000 symbols in cc1). */
/* Whether @elf has a full symbol table (a stripped file keeps only .dynsym: the exported
 * functions, none of the static ones). */
static gboolean
elf_has_symtab (Elf *elf)
{
  Elf_Scn *scn = NULL;

  while (elf && (scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      if (gelf_getshdr (scn, &shdr) && shdr.sh_type == SHT_SYMTAB)
        return TRUE;
    }
  return FALSE;
}

static void
index_symbols (Module *m)
{
  int n = dwfl_module_getsymtab (m->mod);
  const char *debugfile = NULL;
  Dwarf_Addr bias;

  /* getsymtab looked for a separate debug file when the module's own had no .symtab. */
  dwfl_module_info (m->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
  m->has_symbols = debugfile != NULL || elf_has_symtab (dwfl_module_getelf (m->mod, &bias))
                   || dwfl_module_getdwarf (m->mod, &bias) != NULL;

  m->syms = g_array_new (FALSE, FALSE, sizeof (Sym));
  for (int i = 1; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr addr;
      GElf_Word shndx;
      Elf *elf = NULL;
      Dwarf_Addr sym_bias = 0;
      const char *name = dwfl_module_getsym_info (m->mod, i, &sym, &addr, &shndx, &elf, &sym_bias);
      Elf_Scn *scn;
      GElf_Shdr shdr;
      Sym e;

      if (name == NULL || *name == '\0' || sym.st_shndx == SHN_UNDEF
          || (GELF_ST_TYPE (sym.st_info) != STT_FUNC && GELF_ST_TYPE (sym.st_info) != STT_GNU_IFUNC))
        continue;
      e.start = addr;
      e.end = addr + sym.st_size;
      /* An unsized symbol (_fini, hand-written assembly) reaches the next function, but not
       * past its own section: a frame-pointer chain through code built without frame
       * pointers gives "return addresses" in .rodata and .data, which otherwise all landed
       * in _fini, the last symbol of the code. */
      e.limit = G_MAXUINT64;
      if (sym.st_size == 0 && elf && (scn = elf_getscn (elf, shndx)) && gelf_getshdr (scn, &shdr))
        e.limit = shdr.sh_addr + sym_bias + shdr.sh_size;
      e.name = name;
      g_array_append_val (m->syms, e);
    }
  g_array_sort (m->syms, by_start);
}

static void
ensure_indexed (StrobeSymbolizer *self, Module *m)
{
  if (!m->opened)
    open_module (self, m);
  if (m->mod && m->syms == NULL)
    index_symbols (m);
}

/* The function at @pc: the last starting at or before it, if @pc is inside it (an
 * unsized one reaches the next function within its section). */
static const char *
symbol_at (Module *m, GElf_Addr pc)
{
  const Sym *v = (const Sym *) (void *) m->syms->data;
  guint lo = 0, hi = m->syms->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid].start <= pc)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* Among those starting at the same address, the first sized one covering @pc. */
  for (guint i = lo; i-- > 0 && (i + 1 == lo || v[i].start == v[lo - 1].start);)
    if (v[i].end > pc
        || (v[i].end == v[i].start && pc < v[i].limit && (i + 1 >= m->syms->len || v[i + 1].start > pc)))
      return v[i].name;
  return NULL;
}

static Module *
module_for (StrobeSymbolizer *self, guint32 key, guint64 address)
{
  if (key)
    return g_hash_table_lookup (self->by_key, GUINT_TO_POINTER (key));
  for (guint i = self->modules->len; i-- > 0;)
    {
      Module *m = g_ptr_array_index (self->modules, i);
      if (address >= m->start && address < m->end)
        return m;
    }
  return NULL;
}

static const char *
intern (StrobeSymbolizer *self, const char *s)
{
  return s ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

/* A function's name, a C++ one demangled: what every view and the CLI show. */
static const char *
intern_function (StrobeSymbolizer *self, const char *s)
{
  g_autofree char *demangled = strobe_demangle (s);

  return intern (self, demangled ? demangled : s);
}

static const char *
die_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *name;

  /* Inlined and out-of-line instances name their function through abstract origins. A C++
   * function's linkage name has its class, namespace and parameters (demangled by
   * intern_function), its DW_AT_name only "make". */
  if (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr) && (name = dwarf_formstring (&attr))
      && g_str_has_prefix (name, "_Z"))
    return name;
  if (dwarf_attr_integrate (die, DW_AT_name, &attr) && (name = dwarf_formstring (&attr)))
    return name;
  if (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr) && (name = dwarf_formstring (&attr)))
    return name;
  return NULL;
}

static const char *
call_file (Dwarf_Die *cu, Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  Dwarf_Word idx;
  Dwarf_Files *files;
  size_t n;

  if (dwarf_attr (die, DW_AT_call_file, &attr) == NULL || dwarf_formudata (&attr, &idx) != 0
      || dwarf_getsrcfiles (cu, &files, &n) != 0 || idx >= n)
    return NULL;
  return dwarf_filesrc (files, idx, NULL, NULL);
}

static guint
attr_uint (Dwarf_Die *die, unsigned int name)
{
  Dwarf_Attribute attr;
  Dwarf_Word v;

  if (dwarf_attr (die, name, &attr) == NULL || dwarf_formudata (&attr, &v) != 0)
    return 0;
  return (guint) MIN (v, G_MAXUINT);
}

static Entry *
resolve (StrobeSymbolizer *self, Module *m, guint64 address)
{
  StrobeSymbolFrame f[MAX_INLINE];
  guint n = 0;
  GElf_Addr pc = address ? address - 1 : 0;
  const char *sym_name = NULL, *line_file = NULL;
  int line = 0, col = 0;
  Entry *e;

  /* The root the runtime puts above a stack cut at its depth limit: not an address. */
  if (m == NULL && address == STROBE_MEMNODE_TRUNCATED)
    sym_name = "[truncated]";
  if (m)
    ensure_indexed (self, m);
  if (m && m->mod)
    {
      Dwfl_Line *l;
      Dwarf_Addr bias = 0;
      Dwarf_Die *cu;

      sym_name = symbol_at (m, pc);
      if ((l = dwfl_module_getsrc (m->mod, pc)) != NULL)
        line_file = dwfl_lineinfo (l, NULL, &line, &col, NULL, NULL);
      if ((cu = dwfl_module_addrdie (m->mod, pc, &bias)) != NULL)
        {
          Dwarf_Die *scopes = NULL, innermost;
          int ns = dwarf_getscopes (cu, pc - bias, &scopes);
          const char *file = line_file;
          guint ln = line > 0 ? (guint) line : 0, cl = col > 0 ? (guint) col : 0;

          /* dwarf_getscopes finds the innermost scope; its concrete parents (where it was
           * inlined, up to the function) come from dwarf_getscopes_die, as in
           * eu-addr2line -i. */
          if (ns > 0)
            {
              innermost = scopes[0];
              free (scopes);
              scopes = NULL;
              ns = dwarf_getscopes_die (&innermost, &scopes);
            }
          for (int i = 0; i < ns && n < MAX_INLINE; i++)
            {
              int tag = dwarf_tag (&scopes[i]);

              if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram && tag != DW_TAG_entry_point)
                continue;
              f[n].function = intern_function (self, die_name (&scopes[i]));
              f[n].file = intern (self, file);
              f[n].line = ln;
              f[n].column = cl;
              n++;
              if (tag != DW_TAG_inlined_subroutine)
                break;
              /* The caller's location is where this was inlined. */
              file = call_file (cu, &scopes[i]);
              ln = attr_uint (&scopes[i], DW_AT_call_line);
              cl = attr_uint (&scopes[i], DW_AT_call_column);
            }
          free (scopes);
        }
      if (n && f[n - 1].function == NULL)
        f[n - 1].function = intern_function (self, sym_name);
    }
  if (n == 0)
    {
      f[0].function = intern_function (self, sym_name);
      f[0].file = intern (self, line_file);
      f[0].line = line > 0 ? (guint) line : 0;
      f[0].column = col > 0 ? (guint) col : 0;
      n = 1;
    }
  e = g_malloc0 (sizeof *e + n * sizeof (StrobeSymbolFrame));
  memcpy (e->frames, f, n * sizeof *f);
  e->pub.n_frames = n;
  e->pub.frames = e->frames;
  e->pub.module = m ? intern (self, m->path) : NULL;
  e->pub.offset = m ? address - m->bias : address;
  e->pub.resolved = e->frames[0].function != NULL;
  return e;
}

gboolean
strobe_symbolizer_module_has_symbols (StrobeSymbolizer *self, guint32 key)
{
  Module *m;
  gboolean has;

  g_return_val_if_fail (STROBE_IS_SYMBOLIZER (self), FALSE);
  g_mutex_lock (&self->lock);
  m = g_hash_table_lookup (self->by_key, GUINT_TO_POINTER (key));
  if (m)
    ensure_indexed (self, m);
  has = m && m->has_symbols;
  g_mutex_unlock (&self->lock);
  return has;
}

GPtrArray *
strobe_symbolizer_dup_missing_symbols (StrobeSymbolizer *self)
{
  GPtrArray *out;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (STROBE_IS_SYMBOLIZER (self), NULL);
  out = g_ptr_array_new_with_free_func (g_free);
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->modules->len; i++)
    {
      Module *m = g_ptr_array_index (self->modules, i);

      /* Only modules looked into: the ones whose frames are on screen. */
      if (m->opened && !m->has_symbols && *m->path && g_hash_table_add (seen, m->path))
        g_ptr_array_add (out, g_strdup (m->path));
    }
  g_mutex_unlock (&self->lock);
  return out;
}

const StrobeSymbolization *
strobe_symbolizer_lookup (StrobeSymbolizer *self, guint32 key, guint64 address)
{
  static const StrobeSymbolization none = { 1, &no_frame, NULL, 0, FALSE };
  CacheKey k = { key, address };
  Entry *e;

  g_return_val_if_fail (STROBE_IS_SYMBOLIZER (self), &none);
  g_mutex_lock (&self->lock);
  self->lookups++;
  e = g_hash_table_lookup (self->cache, &k);
  if (e)
    self->cached++;
  else
    {
      e = resolve (self, module_for (self, key, address), address);
      g_hash_table_insert (self->cache, g_memdup2 (&k, sizeof k), e);
    }
  g_mutex_unlock (&self->lock);
  return &e->pub;
}

static guint64
fnv (guint64 h, const char *s)
{
  for (; s && *s; s++)
    h = (h ^ (guint8) *s) * G_GUINT64_CONSTANT (0x100000001b3);
  return h;
}

guint
strobe_symbolizer_frame_keys (StrobeSymbolizer *self, guint32 key, guint64 address, guint64 *keys, guint max)
{
  const StrobeSymbolization *s = strobe_symbolizer_lookup (self, key, address);
  guint n = MIN (s->n_frames, max);

  for (guint i = 0; i < n; i++)
    {
      guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);

      if (s->frames[i].function == NULL)
        keys[i] = address;
      else
        {
          h = fnv (h, s->module ? s->module : "");
          h = fnv (h, "|");
          h = fnv (h, s->frames[i].function);
          keys[i] = h ? h : 1;
        }
    }
  return n;
}

char *
strobe_symbolization_format (const StrobeSymbolization *s, guint i)
{
  const StrobeSymbolFrame *f;
  g_autofree char *base = NULL;

  g_return_val_if_fail (s != NULL, NULL);
  if (i >= s->n_frames || s->frames[i].function == NULL)
    {
      base = s->module ? g_path_get_basename (s->module) : g_strdup ("?");
      return g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base, s->offset);
    }
  f = &s->frames[i];
  if (f->file && f->line)
    return g_strdup_printf ("%s (%s:%u)", f->function, f->file, f->line);
  return g_strdup (f->function);
}

void
strobe_symbolizer_get_stats (StrobeSymbolizer *self, guint64 *lookups, guint64 *cached)
{
  g_return_if_fail (STROBE_IS_SYMBOLIZER (self));
  g_mutex_lock (&self->lock);
  if (lookups)
    *lookups = self->lookups;
  if (cached)
    *cached = self->cached;
  g_mutex_unlock (&self->lock);
}
