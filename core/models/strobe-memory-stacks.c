/* strobe-memory-stacks.c — see strobe-memory-stacks.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-stacks.h"

#include <string.h>

#include "strobe-memory-records.h"

static const StrobeMemoryNode *
node_get (const StrobeMemoryStacks *st, guint32 id)
{
  if (id == 0)
    return NULL;
  if (id <= st->nodes->len)
    return &g_array_index (st->nodes, StrobeMemoryNode, id - 1);
  return g_hash_table_lookup (st->sparse_nodes, GUINT_TO_POINTER (id));
}

static gint
loaded_cmp (gconstpointer a, gconstpointer b, gpointer user)
{
  GPtrArray *modules = user;
  const StrobeMemoryModuleEntry *x = g_ptr_array_index (modules, *(const guint *) a);
  const StrobeMemoryModuleEntry *y = g_ptr_array_index (modules, *(const guint *) b);

  return x->pub.start < y->pub.start ? -1 : x->pub.start > y->pub.start;
}

static void
loaded_rebuild (StrobeMemoryStacks *st)
{
  g_array_set_size (st->loaded, 0);
  for (guint i = 0; i < st->modules->len; i++)
    if (((StrobeMemoryModuleEntry *) g_ptr_array_index (st->modules, i))->loaded)
      g_array_append_val (st->loaded, i);
  g_array_sort_with_data (st->loaded, loaded_cmp, st->modules);
}

/* The module (index + 1) loaded now that covers @address, 0 when none. */
static guint32
module_at (const StrobeMemoryStacks *st, guint64 address)
{
  guint lo = 0, hi = st->loaded->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const StrobeMemoryModuleEntry *m = g_ptr_array_index (st->modules, g_array_index (st->loaded, guint, mid));
      if (m->pub.start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  {
    guint i = g_array_index (st->loaded, guint, lo - 1);
    const StrobeMemoryModuleEntry *m = g_ptr_array_index (st->modules, i);
    return address < m->pub.end ? i + 1 : 0;
  }
}

guint64
strobe_memory_stacks_add_nodes (StrobeMemoryStacks *st, guint64 first, const guint8 *data, gsize len)
{
  const guint8 *p = data, *end = data + len;
  guint64 id = first;

  while (p < end && id != 0 && id <= G_MAXUINT32)
    {
      guint32 parent;
      gint64 delta;
      gsize n = strobe_memnode_decode (p, end, (guint32) id, &parent, &delta);
      const StrobeMemoryNode *pn;
      StrobeMemoryNode node;

      if (n == 0)
        break;
      p += n;
      pn = node_get (st, parent);
      node.parent = parent;
      node.address = (pn ? pn->address : 0) + (guint64) delta;
      node.module = module_at (st, node.address);
      if (id == st->nodes->len + 1u)
        g_array_append_val (st->nodes, node);
      else if (id > st->nodes->len)
        g_hash_table_replace (st->sparse_nodes, GUINT_TO_POINTER ((guint32) id), g_memdup2 (&node, sizeof node));
      else
        g_array_index (st->nodes, StrobeMemoryNode, id - 1) = node;   /* redefined: a reset trie */
      id++;
    }
  return id - first;
}

void
strobe_memory_stacks_add_legacy (StrobeMemoryStacks *st, guint32 id, const guint8 *data, gsize n, gsize esize)
{
  GArray *f = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint) MIN (n, 4096));

  for (gsize i = 0; i < n && data && (esize == 4 || esize == 8); i++)
    {
      guint64 v = 0;
      if (esize == 4)
        {
          guint32 w;
          memcpy (&w, data + i * 4, 4);
          v = GUINT32_FROM_LE (w);
        }
      else
        memcpy (&v, data + i * 8, 8), v = GUINT64_FROM_LE (v);
      g_array_append_val (f, v);
    }
  g_hash_table_replace (st->callstacks, GUINT_TO_POINTER (id), f);
}

void
strobe_memory_stacks_add_module (StrobeMemoryStacks *st, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor bias = STROBE_FIELD_ACCESSOR_INIT ("Bias");
  static StrobeFieldAccessor start = STROBE_FIELD_ACCESSOR_INIT ("Start");
  static StrobeFieldAccessor end = STROBE_FIELD_ACCESSOR_INIT ("End");
  static StrobeFieldAccessor build_id = STROBE_FIELD_ACCESSOR_INIT ("BuildId");
  static StrobeFieldAccessor path = STROBE_FIELD_ACCESSOR_INIT ("Path");
  StrobeMemoryModuleEntry *m = g_new0 (StrobeMemoryModuleEntry, 1);
  guint8 elem;
  gsize n = 0;
  const guint8 *build = strobe_event_get_array (ev, &build_id, &elem, &n);

  m->pub.id = (guint32) MIN (strobe_event_get_uint (ev, &id), G_MAXUINT32);
  m->pub.bias = strobe_event_get_uint (ev, &bias);
  m->pub.start = strobe_event_get_uint (ev, &start);
  m->pub.end = strobe_event_get_uint (ev, &end);
  m->pub.path = strobe_event_get_string (ev, &path);
  if (build && n)
    {
      m->pub.build_id = g_memdup2 (build, n);
      m->pub.build_id_len = n;
    }
  m->loaded = m->pub.end > m->pub.start;
  g_ptr_array_add (st->modules, m);
  loaded_rebuild (st);
}

void
strobe_memory_stacks_unload_module (StrobeMemoryStacks *st, guint32 id)
{
  for (guint i = st->modules->len; i-- > 0;)
    {
      StrobeMemoryModuleEntry *m = g_ptr_array_index (st->modules, i);
      if (m->pub.id == id && m->loaded)
        {
          m->loaded = FALSE;
          m->pub.unloaded = TRUE;
          break;
        }
    }
  loaded_rebuild (st);
}

guint
strobe_memory_stacks_frames (const StrobeMemoryStacks *st, guint32 id, StrobeMemoryFrame *out, guint max)
{
  guint n = 0;
  GArray *legacy;

  if (id == 0)
    return 0;
  if (st->nodes->len || g_hash_table_size (st->sparse_nodes))
    {
      const StrobeMemoryNode *nd = node_get (st, id);
      /* Parents always have smaller ids, so this ends; the cap is for truncated walks. */
      while (nd && n < max && n < STROBE_MEMORY_MAX_STACK_DEPTH)
        {
          out[n].address = nd->address;
          out[n++].module = nd->module;
          nd = node_get (st, nd->parent);
        }
      if (n)
        return n;
    }
  legacy = g_hash_table_lookup (st->callstacks, GUINT_TO_POINTER (id));
  for (guint i = 0; legacy && i < legacy->len && n < max; i++)
    {
      out[n].address = g_array_index (legacy, guint64, i);
      out[n].module = module_at (st, out[n].address);
      n++;
    }
  return n;
}

static void
module_copy_free (gpointer data)
{
  StrobeMemoryModule *m = data;

  g_free ((char *) m->path);
  g_free ((guint8 *) m->build_id);
  g_free (m);
}

GPtrArray *
strobe_memory_stacks_copy_modules (const StrobeMemoryStacks *st)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (module_copy_free);

  for (guint i = 0; i < st->modules->len; i++)
    {
      const StrobeMemoryModuleEntry *e = g_ptr_array_index (st->modules, i);
      StrobeMemoryModule *m = g_memdup2 (&e->pub, sizeof *m);
      m->path = g_strdup (e->pub.path);
      m->build_id = e->pub.build_id ? g_memdup2 (e->pub.build_id, e->pub.build_id_len) : NULL;
      g_ptr_array_add (out, m);
    }
  return out;
}

gsize
strobe_memory_stacks_bytes (const StrobeMemoryStacks *st)
{
  return (gsize) st->nodes->len * sizeof (StrobeMemoryNode);
}

static void
module_entry_free (gpointer data)
{
  StrobeMemoryModuleEntry *m = data;

  g_free ((char *) m->pub.path);
  g_free ((guint8 *) m->pub.build_id);
  g_free (m);
}

typedef struct
{
  guint64 address;
  guint32 parent;
} AddedKey;

static guint
added_hash (gconstpointer p)
{
  const AddedKey *k = p;

  return (guint) ((k->address ^ ((guint64) k->parent << 40) ^ k->parent) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) >> 32);
}

static gboolean
added_equal (gconstpointer a, gconstpointer b)
{
  const AddedKey *x = a, *y = b;

  return x->address == y->address && x->parent == y->parent;
}

guint32
strobe_memory_stacks_add_stack (StrobeMemoryStacks *st, const guint64 *addresses, guint n)
{
  guint32 parent = 0;

  if (st->added == NULL)
    {
      st->added = g_hash_table_new_full (added_hash, added_equal, g_free, NULL);
      st->next_added = STROBE_MEMORY_ADDED_STACK_FIRST;
    }
  /* Outermost first, like the runtime's trie: shared callers are shared nodes. */
  for (guint i = n; i-- > 0;)
    {
      AddedKey k = { addresses[i], parent };
      gpointer id = g_hash_table_lookup (st->added, &k);

      if (id == NULL)
        {
          StrobeMemoryNode node = { addresses[i], parent, module_at (st, addresses[i]) };

          if (st->next_added == G_MAXUINT32)
            return 0;
          id = GUINT_TO_POINTER (st->next_added++);
          g_hash_table_insert (st->added, g_memdup2 (&k, sizeof k), id);
          g_hash_table_replace (st->sparse_nodes, id, g_memdup2 (&node, sizeof node));
        }
      parent = GPOINTER_TO_UINT (id);
    }
  return parent;
}

void
strobe_memory_stacks_init (StrobeMemoryStacks *st)
{
  st->nodes = g_array_new (FALSE, FALSE, sizeof (StrobeMemoryNode));
  st->sparse_nodes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  st->callstacks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  st->modules = g_ptr_array_new_with_free_func (module_entry_free);
  st->loaded = g_array_new (FALSE, FALSE, sizeof (guint));
}

void
strobe_memory_stacks_clear (StrobeMemoryStacks *st)
{
  g_clear_pointer (&st->nodes, g_array_unref);
  g_clear_pointer (&st->sparse_nodes, g_hash_table_unref);
  g_clear_pointer (&st->callstacks, g_hash_table_unref);
  g_clear_pointer (&st->modules, g_ptr_array_unref);
  g_clear_pointer (&st->loaded, g_array_unref);
  g_clear_pointer (&st->added, g_hash_table_unref);
}
