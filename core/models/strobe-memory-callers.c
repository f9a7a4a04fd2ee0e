/* strobe-memory-callers.c — functions, callers and callees from a top-down tree (see the
 * header).
 *
 * One depth-first walk over the tree (child lists made from the parent links, so the
 * tree's sorted pages are not needed) with a count of each key on the current path: a
 * node whose key is not on the path above it is its function's outermost call there, and
 * adds its inclusive costs to the function and to the call from its parent's function.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-callers.h"

#include "strobe-memory-model-private.h"

typedef struct
{
  StrobeMemoryFunction pub;
  GArray              *callers;   /* guint edge index */
  GArray              *callees;
} Function;

typedef struct
{
  guint64           caller;
  guint64           callee;
  StrobeMemoryCosts costs;
} Edge;

struct _StrobeMemoryCallers
{
  GObject     parent_instance;
  GArray     *functions;   /* Function */
  GArray     *edges;       /* Edge */
  GHashTable *by_key;      /* key (guint64 *) → index + 1 */
  StrobeMemoryCost sort;
  gboolean    descending;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryCallers, strobe_memory_callers, G_TYPE_OBJECT)

static void
strobe_memory_callers_finalize (GObject *object)
{
  StrobeMemoryCallers *self = STROBE_MEMORY_CALLERS (object);

  for (guint i = 0; self->functions && i < self->functions->len; i++)
    {
      Function *f = &g_array_index (self->functions, Function, i);
      g_array_unref (f->callers);
      g_array_unref (f->callees);
    }
  g_clear_pointer (&self->functions, g_array_unref);
  g_clear_pointer (&self->edges, g_array_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  G_OBJECT_CLASS (strobe_memory_callers_parent_class)->finalize (object);
}

static void
strobe_memory_callers_class_init (StrobeMemoryCallersClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_callers_finalize;
}

static void
strobe_memory_callers_init (StrobeMemoryCallers *self)
{
  self->functions = g_array_new (FALSE, TRUE, sizeof (Function));
  self->edges = g_array_new (FALSE, TRUE, sizeof (Edge));
  self->by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

static void
costs_add (StrobeMemoryCosts *to, const StrobeMemoryCosts *c)
{
  to->allocations += c->allocations;
  to->temporary += c->temporary;
  to->bytes_allocated = strobe_memory_sat_add (to->bytes_allocated, c->bytes_allocated);
  to->peak_bytes = strobe_memory_sat_add_signed (to->peak_bytes, c->peak_bytes);
  to->peak_count += c->peak_count;
  to->leaked_bytes = strobe_memory_sat_add_signed (to->leaked_bytes, c->leaked_bytes);
  to->leaked_count += c->leaked_count;
}

static Function *
function_for (StrobeMemoryCallers *self, const StrobeMemoryTreeNode *node)
{
  gpointer found = g_hash_table_lookup (self->by_key, &node->key);
  Function f = { 0 };

  if (found)
    return &g_array_index (self->functions, Function, GPOINTER_TO_UINT (found) - 1);
  f.pub.key = node->key;
  f.pub.frame = node->frame;
  f.pub.inline_depth = node->inline_depth;
  f.callers = g_array_new (FALSE, FALSE, sizeof (guint));
  f.callees = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (self->functions, f);
  g_hash_table_insert (self->by_key, g_memdup2 (&node->key, sizeof node->key),
                       GUINT_TO_POINTER (self->functions->len));
  return &g_array_index (self->functions, Function, self->functions->len - 1);
}

typedef struct
{
  guint64 caller, callee;
} EdgeKey;

static guint
edge_hash (gconstpointer p)
{
  const EdgeKey *k = p;
  return (guint) ((k->caller * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ k->callee) >> 17);
}

static gboolean
edge_equal (gconstpointer a, gconstpointer b)
{
  const EdgeKey *x = a, *y = b;
  return x->caller == y->caller && x->callee == y->callee;
}

static guint64
cost_value (const StrobeMemoryCosts *c, StrobeMemoryCost by)
{
  switch (by)
    {
    case STROBE_MEMORY_COST_PEAK: return (guint64) MAX (c->peak_bytes, 0);
    case STROBE_MEMORY_COST_LEAKED: return (guint64) MAX (c->leaked_bytes, 0);
    case STROBE_MEMORY_COST_ALLOCATIONS: return c->allocations;
    case STROBE_MEMORY_COST_TEMPORARY: return c->temporary;
    case STROBE_MEMORY_COST_BYTES:
    case STROBE_MEMORY_COST_KEY:
    default: return c->bytes_allocated;
    }
}

static gint
compare_functions (gconstpointer a, gconstpointer b, gpointer user)
{
  const StrobeMemoryCallers *self = user;
  const Function *x = a, *y = b;
  guint64 cx, cy;

  if (self->sort == STROBE_MEMORY_COST_KEY)
    return (x->pub.key > y->pub.key) - (x->pub.key < y->pub.key);
  cx = cost_value (&x->pub.inclusive, self->sort);
  cy = cost_value (&y->pub.inclusive, self->sort);
  if (cx != cy)
    return (cx < cy) == self->descending ? 1 : -1;
  return (x->pub.key > y->pub.key) - (x->pub.key < y->pub.key);
}

typedef struct
{
  const StrobeMemoryCallers *self;
  gboolean                   by_caller;   /* the list's other end */
} EdgeSort;

static gint
compare_edges (gconstpointer a, gconstpointer b, gpointer user)
{
  const EdgeSort *s = user;
  const Edge *x = &g_array_index (s->self->edges, Edge, *(const guint *) a);
  const Edge *y = &g_array_index (s->self->edges, Edge, *(const guint *) b);
  guint64 kx = s->by_caller ? x->caller : x->callee, ky = s->by_caller ? y->caller : y->callee;
  guint64 cx = cost_value (&x->costs, s->self->sort), cy = cost_value (&y->costs, s->self->sort);

  if (s->self->sort != STROBE_MEMORY_COST_KEY && cx != cy)
    return (cx < cy) == s->self->descending ? 1 : -1;
  return (kx > ky) - (kx < ky);
}

void
strobe_memory_callers_sort (StrobeMemoryCallers *self, StrobeMemoryCost by, gboolean descending)
{
  g_return_if_fail (STROBE_IS_MEMORY_CALLERS (self));

  self->sort = by;
  self->descending = by == STROBE_MEMORY_COST_KEY ? FALSE : descending;
  g_array_sort_with_data (self->functions, compare_functions, self);
  g_hash_table_remove_all (self->by_key);
  for (guint i = 0; i < self->functions->len; i++)
    {
      Function *f = &g_array_index (self->functions, Function, i);
      EdgeSort callers = { self, TRUE }, callees = { self, FALSE };

      g_hash_table_insert (self->by_key, g_memdup2 (&f->pub.key, sizeof f->pub.key), GUINT_TO_POINTER (i + 1));
      g_array_sort_with_data (f->callers, compare_edges, &callers);
      g_array_sort_with_data (f->callees, compare_edges, &callees);
    }
}

StrobeMemoryCallers *
strobe_memory_callers_new (StrobeMemoryTree *tree, GCancellable *cancellable, GError **error)
{
  g_autoptr (StrobeMemoryCallers) self = NULL;
  g_autoptr (GHashTable) on_path = NULL;     /* key → how many nodes of the path have it */
  g_autoptr (GHashTable) edge_index = NULL;  /* EdgeKey → index + 1 */
  g_autofree guint32 *first_child = NULL, *next_sibling = NULL;
  g_autoptr (GArray) stack = NULL;           /* guint32 node; a node + its "leaving" bit */
  guint n;

  g_return_val_if_fail (STROBE_IS_MEMORY_TREE (tree), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (STROBE_TYPE_MEMORY_CALLERS, NULL);
  n = strobe_memory_tree_get_n_nodes (tree);
  first_child = g_new0 (guint32, MAX (n, 1));
  next_sibling = g_new0 (guint32, MAX (n, 1));
  for (guint i = n; i-- > 1;)
    {
      StrobeMemoryTreeNode node;
      strobe_memory_tree_get_node (tree, i, &node);
      next_sibling[i] = first_child[node.parent];
      first_child[node.parent] = i;
    }
  on_path = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  edge_index = g_hash_table_new_full (edge_hash, edge_equal, g_free, NULL);
  stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  /* Entering a node pushes it with bit 31 set, to leave it after its children. */
  for (guint32 c = first_child[0]; c; c = next_sibling[c])
    g_array_append_val (stack, c);
  for (guint visited = 0; stack->len > 0; visited++)
    {
      guint32 top = g_array_index (stack, guint32, stack->len - 1);
      StrobeMemoryTreeNode node;
      gpointer count;

      if (visited % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_array_set_size (stack, stack->len - 1);
      strobe_memory_tree_get_node (tree, top & 0x7fffffffu, &node);
      count = g_hash_table_lookup (on_path, &node.key);
      if (top & 0x80000000u)
        {
          if (GPOINTER_TO_UINT (count) <= 1)
            g_hash_table_remove (on_path, &node.key);
          else
            g_hash_table_insert (on_path, g_memdup2 (&node.key, sizeof node.key),
                                 GUINT_TO_POINTER (GPOINTER_TO_UINT (count) - 1));
          continue;
        }
      {
        Function *f = function_for (self, &node);

        costs_add (&f->pub.self, &node.self);
        if (count == NULL)
          {
            costs_add (&f->pub.inclusive, &node.inclusive);
            if (node.parent != 0)
              {
                StrobeMemoryTreeNode parent;
                EdgeKey k;
                gpointer at;
                Edge *e;

                strobe_memory_tree_get_node (tree, node.parent, &parent);
                k.caller = parent.key;
                k.callee = node.key;
                at = g_hash_table_lookup (edge_index, &k);
                if (at == NULL)
                  {
                    Edge fresh = { parent.key, node.key, { 0 } };
                    guint e_i = self->edges->len;
                    Function *pf;

                    g_array_append_val (self->edges, fresh);
                    g_hash_table_insert (edge_index, g_memdup2 (&k, sizeof k), GUINT_TO_POINTER (e_i + 1));
                    at = GUINT_TO_POINTER (e_i + 1);
                    /* The function array may have moved: look both up again. */
                    pf = function_for (self, &parent);
                    g_array_append_val (pf->callees, e_i);
                    pf->pub.n_callees++;
                    f = function_for (self, &node);
                    g_array_append_val (f->callers, e_i);
                    f->pub.n_callers++;
                  }
                e = &g_array_index (self->edges, Edge, GPOINTER_TO_UINT (at) - 1);
                costs_add (&e->costs, &node.inclusive);
              }
          }
      }
      g_hash_table_insert (on_path, g_memdup2 (&node.key, sizeof node.key),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
      {
        guint32 leave = top | 0x80000000u;
        g_array_append_val (stack, leave);
      }
      for (guint32 c = first_child[top]; c; c = next_sibling[c])
        g_array_append_val (stack, c);
    }
  strobe_memory_callers_sort (self, STROBE_MEMORY_COST_PEAK, TRUE);
  return g_steal_pointer (&self);
}

guint
strobe_memory_callers_get_n_functions (StrobeMemoryCallers *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), 0);
  return self->functions->len;
}

gboolean
strobe_memory_callers_get_function (StrobeMemoryCallers *self, guint i, StrobeMemoryFunction *out)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  if (i >= self->functions->len)
    return FALSE;
  *out = g_array_index (self->functions, Function, i).pub;
  return TRUE;
}

guint
strobe_memory_callers_find (StrobeMemoryCallers *self, guint64 key)
{
  gpointer found;

  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), G_MAXUINT);
  found = g_hash_table_lookup (self->by_key, &key);
  return found ? GPOINTER_TO_UINT (found) - 1 : G_MAXUINT;
}

static guint
get_calls (StrobeMemoryCallers *self, guint i, gboolean callers, guint first, guint n, StrobeMemoryCall *out)
{
  GArray *list;
  guint got;

  if (i >= self->functions->len)
    return 0;
  list = callers ? g_array_index (self->functions, Function, i).callers
                 : g_array_index (self->functions, Function, i).callees;
  if (first >= list->len)
    return 0;
  got = MIN (n, list->len - first);
  for (guint k = 0; k < got; k++)
    {
      const Edge *e = &g_array_index (self->edges, Edge, g_array_index (list, guint, first + k));
      guint other = strobe_memory_callers_find (self, callers ? e->caller : e->callee);
      const Function *f = &g_array_index (self->functions, Function, other);

      out[k].key = f->pub.key;
      out[k].frame = f->pub.frame;
      out[k].inline_depth = f->pub.inline_depth;
      out[k].costs = e->costs;
    }
  return got;
}

guint
strobe_memory_callers_get_callers (StrobeMemoryCallers *self, guint i, guint first, guint n, StrobeMemoryCall *out)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), 0);
  g_return_val_if_fail (n == 0 || out != NULL, 0);
  return get_calls (self, i, TRUE, first, n, out);
}

guint
strobe_memory_callers_get_callees (StrobeMemoryCallers *self, guint i, guint first, guint n, StrobeMemoryCall *out)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), 0);
  g_return_val_if_fail (n == 0 || out != NULL, 0);
  return get_calls (self, i, FALSE, first, n, out);
}
