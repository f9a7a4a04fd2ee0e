/* strobe-cost-tree.c — the one cost tree (see the header).
 *
 * Nodes are an array of {key, parent, first child, next sibling, depth} (24 bytes) and a
 * parallel array of values, the inclusive ones then the self ones, so a tree without self
 * columns pays nothing for them. A node's child of a key is found through an open-
 * addressing index of node numbers (4 bytes a slot) hashed on (parent, key): the key is
 * compared in the node itself, not stored twice.
 *
 * The callers and callees are one depth-first walk keeping, per function, how many nodes
 * of the current path have its key: a node whose key is not above it is its function's
 * outermost call on that path (the only one counted, unless every level counts).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-cost-tree.h"

#include <string.h>

typedef struct
{
  guint64 key;
  guint32 parent;
  guint32 first_child;    /* STROBE_COST_NODE_NONE: a leaf */
  guint32 next_sibling;
  guint32 depth;
} Node;

struct _StrobeCostTree
{
  gatomicrefcount       ref;
  StrobeCostTreeKind    kind;
  guint                 n_columns;
  guint                 stride;                /* values per node: inclusive + self */
  gint8                 self_at[STROBE_COST_TREE_MAX_COLUMNS];   /* -1: no self value */
  StrobeCostColumnFlags flags[STROBE_COST_TREE_MAX_COLUMNS];
  Node                 *nodes;
  guint64              *values;
  guint32               n_nodes;
  guint32               capacity;
  guint32              *slots;                 /* node + 1; 0: empty. NULL once trimmed */
  guint32               mask;
  guint32               used;
  guint32               limit;                 /* past it new keys go to other_key's node */
  guint64               other_key;
  guint                 keep_depth;            /* … unless their depth is at most this */
};

G_DEFINE_BOXED_TYPE (StrobeCostTree, strobe_cost_tree, strobe_cost_tree_ref, strobe_cost_tree_unref)

static inline guint32
hash_pair (guint64 a, guint64 b)
{
  guint64 h = a * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ b;

  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  h ^= h >> 33;
  return (guint32) h;
}

static inline guint64
add_value (guint64 a, guint64 b, StrobeCostColumnFlags flags)
{
  if (flags & STROBE_COST_COLUMN_SIGNED)
    {
      gint64 c, x = (gint64) a, y = (gint64) b;
      if (__builtin_add_overflow (x, y, &c))
        c = y > 0 ? G_MAXINT64 : G_MININT64;
      return (guint64) c;
    }
  else
    {
      guint64 c;
      return __builtin_add_overflow (a, b, &c) ? G_MAXUINT64 : c;
    }
}

static inline guint64
sub_clamped (guint64 a, guint64 b, StrobeCostColumnFlags flags)
{
  if (flags & STROBE_COST_COLUMN_SIGNED)
    {
      gint64 c;
      if (__builtin_sub_overflow ((gint64) a, (gint64) b, &c))
        c = (gint64) b < 0 ? G_MAXINT64 : G_MININT64;
      return (guint64) c;
    }
  return a > b ? a - b : 0;
}

/* What sorts: signed values below 0 sort as 0, as the memory views always did. */
static inline guint64
sort_value (guint64 v, StrobeCostColumnFlags flags)
{
  if ((flags & STROBE_COST_COLUMN_SIGNED) && (gint64) v < 0)
    return 0;
  return v;
}

static void
grow (StrobeCostTree *self)
{
  guint32 capacity = self->capacity ? self->capacity * 2 : 64;

  g_assert (self->capacity < G_MAXUINT32 / 2);
  self->nodes = g_renew (Node, self->nodes, capacity);
  self->values = g_renew (guint64, self->values, (gsize) capacity * self->stride);
  self->capacity = capacity;
}

static guint32
new_node (StrobeCostTree *self, guint32 parent, guint64 key)
{
  guint32 i = self->n_nodes;
  Node *n;

  if (i == self->capacity)
    grow (self);
  n = &self->nodes[i];
  n->key = key;
  n->parent = parent;
  n->first_child = STROBE_COST_NODE_NONE;
  n->next_sibling = STROBE_COST_NODE_NONE;
  n->depth = 0;
  memset (&self->values[(gsize) i * self->stride], 0, self->stride * sizeof (guint64));
  if (i > 0)
    {
      Node *p = &self->nodes[parent];
      n->depth = p->depth + 1;
      n->next_sibling = p->first_child;
      p->first_child = i;
    }
  self->n_nodes++;
  return i;
}

StrobeCostTree *
strobe_cost_tree_new (StrobeCostTreeKind kind, guint n_columns, const StrobeCostColumnFlags *flags,
                      guint64 root_key)
{
  StrobeCostTree *self;
  guint n_self = 0;

  g_return_val_if_fail (n_columns >= 1 && n_columns <= STROBE_COST_TREE_MAX_COLUMNS, NULL);
  g_return_val_if_fail (kind == STROBE_COST_TREE_TOP_DOWN || kind == STROBE_COST_TREE_BOTTOM_UP, NULL);

  self = g_new0 (StrobeCostTree, 1);
  g_atomic_ref_count_init (&self->ref);
  self->kind = kind;
  self->limit = G_MAXUINT32;
  self->n_columns = n_columns;
  for (guint c = 0; c < n_columns; c++)
    {
      self->flags[c] = flags ? flags[c] : STROBE_COST_COLUMN_DEFAULT;
      self->self_at[c] = (self->flags[c] & STROBE_COST_COLUMN_NO_SELF) ? -1 : (gint8) (n_columns + n_self++);
    }
  self->stride = n_columns + n_self;
  new_node (self, 0, root_key);
  return self;
}

StrobeCostTree *
strobe_cost_tree_ref (StrobeCostTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
strobe_cost_tree_unref (StrobeCostTree *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  g_free (self->nodes);
  g_free (self->values);
  g_free (self->slots);
  g_free (self);
}

StrobeCostTreeKind
strobe_cost_tree_get_kind (StrobeCostTree *self)
{
  g_return_val_if_fail (self != NULL, STROBE_COST_TREE_TOP_DOWN);
  return self->kind;
}

guint
strobe_cost_tree_get_n_columns (StrobeCostTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_columns;
}

StrobeCostColumnFlags
strobe_cost_tree_get_column_flags (StrobeCostTree *self, guint column)
{
  g_return_val_if_fail (self != NULL && column < self->n_columns, 0);
  return self->flags[column];
}

/* ---- the child index ------------------------------------------------------------------ */

static void
index_insert (guint32 *slots, guint32 mask, const Node *nodes, guint32 node)
{
  guint32 i = hash_pair (nodes[node].parent, nodes[node].key) & mask;

  while (slots[i])
    i = (i + 1) & mask;
  slots[i] = node + 1;
}

static void
index_rebuild (StrobeCostTree *self, guint32 size)
{
  g_free (self->slots);
  self->slots = g_new0 (guint32, size);
  self->mask = size - 1;
  self->used = 0;
  for (guint32 n = 1; n < self->n_nodes; n++)
    {
      index_insert (self->slots, self->mask, self->nodes, n);
      self->used++;
    }
}

static void
index_ensure (StrobeCostTree *self)
{
  if (self->slots == NULL)
    {
      guint32 size = 64;
      while ((guint64) self->n_nodes * 10 >= (guint64) size * 7)
        size *= 2;
      index_rebuild (self, size);
    }
}

guint32
strobe_cost_tree_lookup_child (StrobeCostTree *self, guint32 parent, guint64 key)
{
  g_return_val_if_fail (self != NULL, STROBE_COST_NODE_NONE);
  g_return_val_if_fail (parent < self->n_nodes, STROBE_COST_NODE_NONE);

  index_ensure (self);
  for (guint32 i = hash_pair (parent, key) & self->mask; self->slots[i]; i = (i + 1) & self->mask)
    {
      const Node *n = &self->nodes[self->slots[i] - 1];
      if (n->key == key && n->parent == parent)
        return self->slots[i] - 1;
    }
  return STROBE_COST_NODE_NONE;
}

static inline guint32
child_of (StrobeCostTree *self, guint32 parent, guint64 key)
{
  guint32 i, node;

  for (i = hash_pair (parent, key) & self->mask; self->slots[i]; i = (i + 1) & self->mask)
    {
      const Node *n = &self->nodes[self->slots[i] - 1];
      if (n->key == key && n->parent == parent)
        return self->slots[i] - 1;
    }
  if (G_UNLIKELY (self->n_nodes >= self->limit) && key != self->other_key
      && self->nodes[parent].depth >= self->keep_depth)
    return child_of (self, parent, self->other_key);
  node = new_node (self, parent, key);
  self->slots[i] = node + 1;
  if (++self->used * 10 >= (self->mask + 1) * 7)
    index_rebuild (self, (self->mask + 1) * 2);
  return node;
}

guint32
strobe_cost_tree_append_child (StrobeCostTree *self, guint32 parent, guint64 key)
{
  g_return_val_if_fail (self != NULL, STROBE_COST_NODE_NONE);
  g_return_val_if_fail (parent < self->n_nodes, STROBE_COST_NODE_NONE);

  /* Rebuilt, with every node, when a child is next looked up. */
  g_clear_pointer (&self->slots, g_free);
  return new_node (self, parent, key);
}

void
strobe_cost_tree_set_node_limit (StrobeCostTree *self, guint32 limit, guint64 other_key, guint keep_depth)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (limit > 0);

  self->limit = limit;
  self->other_key = other_key;
  self->keep_depth = keep_depth;
}

guint32
strobe_cost_tree_child (StrobeCostTree *self, guint32 parent, guint64 key)
{
  g_return_val_if_fail (self != NULL, STROBE_COST_NODE_NONE);
  g_return_val_if_fail (parent < self->n_nodes, STROBE_COST_NODE_NONE);

  index_ensure (self);
  return child_of (self, parent, key);
}

/* ---- values --------------------------------------------------------------------------- */

static inline guint64 *
values_of (StrobeCostTree *self, guint32 node)
{
  return &self->values[(gsize) node * self->stride];
}

void
strobe_cost_tree_add (StrobeCostTree *self, guint32 node, guint column, gboolean self_value, guint64 value)
{
  guint64 *v;

  g_return_if_fail (self != NULL);
  g_return_if_fail (node < self->n_nodes && column < self->n_columns);
  g_return_if_fail (!self_value || self->self_at[column] >= 0);

  v = &values_of (self, node)[self_value ? (guint) self->self_at[column] : column];
  *v = add_value (*v, value, self->flags[column]);
}

static inline void
add_all (StrobeCostTree *self, guint32 node, const guint64 *values, gboolean self_values)
{
  guint64 *v = values_of (self, node);

  for (guint c = 0; c < self->n_columns; c++)
    {
      v[c] = add_value (v[c], values[c], self->flags[c]);
      if (self_values && self->self_at[c] >= 0)
        v[self->self_at[c]] = add_value (v[self->self_at[c]], values[c], self->flags[c]);
    }
}

guint32
strobe_cost_tree_add_stack (StrobeCostTree *self, const guint64 *keys, guint n, const guint64 *values)
{
  guint32 node = 0, innermost = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (n == 0 || keys != NULL, 0);
  g_return_val_if_fail (values != NULL, 0);

  index_ensure (self);
  add_all (self, 0, values, n == 0);
  for (guint k = 0; k < n; k++)
    {
      guint at = self->kind == STROBE_COST_TREE_TOP_DOWN ? k : n - 1 - k;
      node = child_of (self, node, keys[at]);
      if (at == n - 1)
        innermost = node;
      add_all (self, node, values, FALSE);
    }
  if (n > 0)
    {
      guint64 *v = values_of (self, innermost);
      for (guint c = 0; c < self->n_columns; c++)
        if (self->self_at[c] >= 0)
          v[self->self_at[c]] = add_value (v[self->self_at[c]], values[c], self->flags[c]);
    }
  return node;
}

void
strobe_cost_tree_graft (StrobeCostTree *self, guint32 node, StrobeCostTree *from, guint32 from_node)
{
  g_autoptr(GArray) todo = NULL;   /* (node of @from, its new parent here) */

  g_return_if_fail (self != NULL && from != NULL && self != from);
  g_return_if_fail (node < self->n_nodes && from_node < from->n_nodes);
  g_return_if_fail (self->stride == from->stride);

  g_clear_pointer (&self->slots, g_free);
  todo = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  g_array_append_vals (todo, ((guint32[2]) { from_node, node }), 1);
  while (todo->len)
    {
      guint32 *top = &g_array_index (todo, guint32, 2 * (todo->len - 1));
      guint32 at = top[0], parent = top[1];

      g_array_set_size (todo, todo->len - 1);
      for (guint32 c = from->nodes[at].first_child; c != STROBE_COST_NODE_NONE; c = from->nodes[c].next_sibling)
        {
          guint32 to = new_node (self, parent, from->nodes[c].key);

          memcpy (values_of (self, to), values_of (from, c), self->stride * sizeof (guint64));
          if (from->nodes[c].first_child != STROBE_COST_NODE_NONE)
            g_array_append_vals (todo, ((guint32[2]) { c, to }), 1);
        }
    }
}

/* What ends at @node: its inclusive values minus its children's, per column. */
static void
path_end (StrobeCostTree *self, guint32 node, guint64 *out)
{
  memcpy (out, values_of (self, node), self->n_columns * sizeof (guint64));
  for (guint32 c = self->nodes[node].first_child; c != STROBE_COST_NODE_NONE; c = self->nodes[c].next_sibling)
    for (guint k = 0; k < self->n_columns; k++)
      out[k] = sub_clamped (out[k], values_of (self, c)[k], self->flags[k]);
}

void
strobe_cost_tree_compute_self (StrobeCostTree *self)
{
  guint64 end[STROBE_COST_TREE_MAX_COLUMNS];

  g_return_if_fail (self != NULL);

  for (guint32 n = 0; n < self->n_nodes; n++)
    {
      guint64 *v = values_of (self, n);
      path_end (self, n, end);
      for (guint c = 0; c < self->n_columns; c++)
        if (self->self_at[c] >= 0)
          v[self->self_at[c]] = end[c];
    }
}

StrobeCostTree *
strobe_cost_tree_invert (StrobeCostTree *self)
{
  StrobeCostTree *out;
  g_autoptr (GArray) path = NULL;
  guint64 end[STROBE_COST_TREE_MAX_COLUMNS];

  g_return_val_if_fail (self != NULL, NULL);

  out = strobe_cost_tree_new (self->kind == STROBE_COST_TREE_TOP_DOWN ? STROBE_COST_TREE_BOTTOM_UP
                                                                      : STROBE_COST_TREE_TOP_DOWN,
                              self->n_columns, self->flags, self->nodes[0].key);
  path = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint32 n = 0; n < self->n_nodes; n++)
    {
      gboolean any = FALSE;

      path_end (self, n, end);
      for (guint c = 0; c < self->n_columns; c++)
        {
          if (self->self_at[c] < 0)
            end[c] = 0;
          any |= end[c] != 0;
        }
      if (!any)
        continue;
      /* The parent walk gives the path innermost first in a top-down tree, outermost
       * first in a bottom-up one; add_stack wants outermost first. */
      g_array_set_size (path, 0);
      for (guint32 at = n; at != 0; at = self->nodes[at].parent)
        g_array_append_val (path, self->nodes[at].key);
      if (self->kind == STROBE_COST_TREE_TOP_DOWN)
        for (guint i = 0; i < path->len / 2; i++)
          {
            guint64 t = g_array_index (path, guint64, i);
            g_array_index (path, guint64, i) = g_array_index (path, guint64, path->len - 1 - i);
            g_array_index (path, guint64, path->len - 1 - i) = t;
          }
      strobe_cost_tree_add_stack (out, (const guint64 *) path->data, path->len, end);
    }
  return out;
}

void
strobe_cost_tree_trim (StrobeCostTree *self)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->slots, g_free);
  self->used = 0;
  self->mask = 0;
  self->nodes = g_renew (Node, self->nodes, self->n_nodes);
  self->values = g_renew (guint64, self->values, (gsize) self->n_nodes * self->stride);
  self->capacity = self->n_nodes;
}

gsize
strobe_cost_tree_get_size (StrobeCostTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return sizeof *self + (gsize) self->capacity * (sizeof (Node) + self->stride * sizeof (guint64))
         + (self->slots ? ((gsize) self->mask + 1) * sizeof (guint32) : 0);
}

/* ---- reading -------------------------------------------------------------------------- */

guint
strobe_cost_tree_get_n_nodes (StrobeCostTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_nodes;
}

#define CHECK_NODE(self, node, val) \
  g_return_val_if_fail ((self) != NULL, val); \
  g_return_val_if_fail ((node) < (self)->n_nodes, val)

guint64
strobe_cost_tree_get_key (StrobeCostTree *self, guint32 node)
{
  CHECK_NODE (self, node, 0);
  return self->nodes[node].key;
}

guint32
strobe_cost_tree_get_parent (StrobeCostTree *self, guint32 node)
{
  CHECK_NODE (self, node, 0);
  return self->nodes[node].parent;
}

guint32
strobe_cost_tree_get_depth (StrobeCostTree *self, guint32 node)
{
  CHECK_NODE (self, node, 0);
  return self->nodes[node].depth;
}

guint32
strobe_cost_tree_get_n_children (StrobeCostTree *self, guint32 node)
{
  guint32 n = 0;

  CHECK_NODE (self, node, 0);
  for (guint32 c = self->nodes[node].first_child; c != STROBE_COST_NODE_NONE; c = self->nodes[c].next_sibling)
    n++;
  return n;
}

guint64
strobe_cost_tree_get_inclusive (StrobeCostTree *self, guint32 node, guint column)
{
  CHECK_NODE (self, node, 0);
  g_return_val_if_fail (column < self->n_columns, 0);
  return values_of (self, node)[column];
}

guint64
strobe_cost_tree_get_self (StrobeCostTree *self, guint32 node, guint column)
{
  CHECK_NODE (self, node, 0);
  g_return_val_if_fail (column < self->n_columns, 0);
  return self->self_at[column] < 0 ? 0 : values_of (self, node)[self->self_at[column]];
}

void
strobe_cost_tree_set_inclusive (StrobeCostTree *self, guint32 node, guint column, guint64 value)
{
  g_return_if_fail (self != NULL && node < self->n_nodes && column < self->n_columns);
  values_of (self, node)[column] = value;
}

guint32
strobe_cost_tree_get_first_child (StrobeCostTree *self, guint32 node)
{
  CHECK_NODE (self, node, STROBE_COST_NODE_NONE);
  return self->nodes[node].first_child;
}

guint32
strobe_cost_tree_get_next_sibling (StrobeCostTree *self, guint32 node)
{
  CHECK_NODE (self, node, STROBE_COST_NODE_NONE);
  return self->nodes[node].next_sibling;
}

typedef struct
{
  StrobeCostTree     *tree;
  guint               column;
  StrobeCostSortFlags flags;
} SortSpec;

static gint
compare_nodes (gconstpointer a, gconstpointer b, gpointer user)
{
  const SortSpec *s = user;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  const Node *nx = &s->tree->nodes[x], *ny = &s->tree->nodes[y];

  if (s->column != STROBE_COST_BY_KEY)
    {
      StrobeCostColumnFlags f = s->tree->flags[s->column];
      guint64 vx = sort_value (values_of (s->tree, x)[s->column], f);
      guint64 vy = sort_value (values_of (s->tree, y)[s->column], f);
      if (vx != vy)
        return ((vx < vy) == !!(s->flags & STROBE_COST_SORT_DESCENDING)) ? 1 : -1;
      if (!(s->flags & STROBE_COST_SORT_TIE_BY_KEY))
        return (x > y) - (x < y);
    }
  if (nx->key != ny->key)
    return nx->key < ny->key ? -1 : 1;
  return (x > y) - (x < y);
}

static void
collect_children (StrobeCostTree *self, guint32 node, GArray *kids, guint column, StrobeCostSortFlags flags)
{
  SortSpec s = { self, column, flags };

  g_array_set_size (kids, 0);
  for (guint32 c = self->nodes[node].first_child; c != STROBE_COST_NODE_NONE; c = self->nodes[c].next_sibling)
    g_array_append_val (kids, c);
  if (kids->len > 1)
    g_array_sort_with_data (kids, compare_nodes, &s);
}

void
strobe_cost_tree_sort_children (StrobeCostTree *self, guint column, StrobeCostSortFlags flags)
{
  g_autoptr (GArray) kids = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (column < self->n_columns || column == STROBE_COST_BY_KEY);

  kids = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 n = 0; n < self->n_nodes; n++)
    {
      if (self->nodes[n].first_child == STROBE_COST_NODE_NONE)
        continue;
      collect_children (self, n, kids, column, flags);
      self->nodes[n].first_child = g_array_index (kids, guint32, 0);
      for (guint k = 0; k < kids->len; k++)
        self->nodes[g_array_index (kids, guint32, k)].next_sibling =
          k + 1 < kids->len ? g_array_index (kids, guint32, k + 1) : STROBE_COST_NODE_NONE;
    }
}

guint
strobe_cost_tree_get_children (StrobeCostTree *self, guint32 node, guint column, StrobeCostSortFlags flags,
                               guint first, guint n, guint32 *out)
{
  g_autoptr (GArray) kids = NULL;
  guint got;

  CHECK_NODE (self, node, 0);
  g_return_val_if_fail (column < self->n_columns || column == STROBE_COST_BY_KEY, 0);
  g_return_val_if_fail (n == 0 || out != NULL, 0);

  kids = g_array_new (FALSE, FALSE, sizeof (guint32));
  collect_children (self, node, kids, column, flags);
  if (first >= kids->len)
    return 0;
  got = MIN (n, kids->len - first);
  memcpy (out, &g_array_index (kids, guint32, first), got * sizeof (guint32));
  return got;
}

/* ---- callers and callees ------------------------------------------------------------------ */

/* An open-addressing index of 64-bit keys kept in an outside array: slots hold index + 1. */
typedef struct
{
  guint32 *slots;
  guint32  mask;
  guint32  used;
} KeyIndex;

static void
key_index_init (KeyIndex *ix, guint32 size)
{
  ix->slots = g_new0 (guint32, size);
  ix->mask = size - 1;
  ix->used = 0;
}

static guint32
key_index_find (const KeyIndex *ix, const guint64 *keys, guint64 key, guint32 *slot)
{
  guint32 i;

  for (i = hash_pair (key, 0) & ix->mask; ix->slots[i]; i = (i + 1) & ix->mask)
    if (keys[ix->slots[i] - 1] == key)
      return ix->slots[i] - 1;
  *slot = i;
  return G_MAXUINT32;
}

static void
key_index_add (KeyIndex *ix, const guint64 *keys, guint32 slot, guint32 value)
{
  ix->slots[slot] = value + 1;
  if (++ix->used * 10 >= (ix->mask + 1) * 7)
    {
      KeyIndex bigger;
      key_index_init (&bigger, (ix->mask + 1) * 2);
      for (guint32 v = 0; v <= value; v++)
        {
          guint32 s;
          key_index_find (&bigger, keys, keys[v], &s);
          bigger.slots[s] = v + 1;
        }
      bigger.used = ix->used;
      g_free (ix->slots);
      *ix = bigger;
    }
}

struct _StrobeCostCalls
{
  gatomicrefcount       ref;
  guint                 n_columns;
  StrobeCostColumnFlags flags[STROBE_COST_TREE_MAX_COLUMNS];
  GArray               *keys;        /* guint64 per function */
  GArray               *nodes;       /* guint32 per function: its first node */
  GArray               *values;      /* guint64 × 2 n_columns per function: inclusive, self */
  GArray               *pairs;       /* guint64 per call: caller << 32 | callee */
  GArray               *call_values; /* guint64 × n_columns per call */
  guint32              *caller_at;   /* n_functions + 1 offsets into by_callee */
  guint32              *callee_at;
  guint32              *by_callee;   /* call indexes grouped by callee (a function's callers) */
  guint32              *by_caller;
  KeyIndex              index;
};

G_DEFINE_BOXED_TYPE (StrobeCostCalls, strobe_cost_calls, strobe_cost_calls_ref, strobe_cost_calls_unref)

static guint32
function_of (StrobeCostCalls *self, guint64 key, guint32 node)
{
  guint32 slot, f = key_index_find (&self->index, (const guint64 *) self->keys->data, key, &slot);

  if (f != G_MAXUINT32)
    return f;
  f = self->keys->len;
  g_array_append_val (self->keys, key);
  g_array_append_val (self->nodes, node);
  g_array_set_size (self->values, self->values->len + 2 * self->n_columns);
  key_index_add (&self->index, (const guint64 *) self->keys->data, slot, f);
  return f;
}

static guint64 *
fvalues (StrobeCostCalls *self, guint f)
{
  return &g_array_index (self->values, guint64, (gsize) f * 2 * self->n_columns);
}

/* CSR lists of calls by one end. */
static void
group_calls (StrobeCostCalls *self, gboolean by_callee, guint32 **at_out, guint32 **list_out)
{
  guint nf = self->keys->len, nc = self->pairs->len;
  guint32 *at = g_new0 (guint32, nf + 1);
  guint32 *list = g_new (guint32, MAX (nc, 1));
  g_autofree guint32 *fill = NULL;

  for (guint c = 0; c < nc; c++)
    {
      guint64 p = g_array_index (self->pairs, guint64, c);
      at[(by_callee ? (guint32) p : (guint32) (p >> 32)) + 1]++;
    }
  for (guint f = 0; f < nf; f++)
    at[f + 1] += at[f];
  fill = g_memdup2 (at, (nf + 1) * sizeof (guint32));
  for (guint c = 0; c < nc; c++)
    {
      guint64 p = g_array_index (self->pairs, guint64, c);
      list[fill[by_callee ? (guint32) p : (guint32) (p >> 32)]++] = c;
    }
  *at_out = at;
  *list_out = list;
}

/* Children are linked newest first; reversed on the stack, the newest is visited first,
 * as the memory callers view always walked them (which frame stands for a function). */
static void
push_children (GArray *stack, const StrobeCostTree *tree, guint32 node)
{
  guint at = stack->len;

  for (guint32 c = tree->nodes[node].first_child; c != STROBE_COST_NODE_NONE; c = tree->nodes[c].next_sibling)
    g_array_append_val (stack, c);
  for (guint i = at, j = stack->len; i + 1 < j; i++, j--)
    {
      guint32 t = g_array_index (stack, guint32, i);
      g_array_index (stack, guint32, i) = g_array_index (stack, guint32, j - 1);
      g_array_index (stack, guint32, j - 1) = t;
    }
}

StrobeCostCalls *
strobe_cost_calls_new (StrobeCostTree *tree, StrobeCostCallsFlags flags, GCancellable *cancellable,
                       GError **error)
{
  g_autoptr (StrobeCostCalls) self = NULL;
  g_autoptr (GArray) stack = NULL;      /* node, bit 31: leaving it */
  g_autoptr (GArray) on_path = NULL;    /* guint32 per function */
  g_autofree guint32 *fn = NULL;        /* node → function (for parents) */
  KeyIndex call_index;
  guint nc;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (tree->n_nodes < 0x80000000u, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  nc = tree->n_columns;
  self = g_new0 (StrobeCostCalls, 1);
  g_atomic_ref_count_init (&self->ref);
  self->n_columns = nc;
  memcpy (self->flags, tree->flags, sizeof self->flags);
  self->keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->values = g_array_new (FALSE, TRUE, sizeof (guint64));
  self->pairs = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->call_values = g_array_new (FALSE, TRUE, sizeof (guint64));
  key_index_init (&self->index, 64);
  key_index_init (&call_index, 64);
  fn = g_new (guint32, tree->n_nodes);
  on_path = g_array_new (FALSE, TRUE, sizeof (guint32));
  stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (flags & STROBE_COST_CALLS_ROOT_CALLS)
    {
      guint32 root = 0;
      g_array_append_val (stack, root);
    }
  else
    push_children (stack, tree, 0);

  for (guint visited = 0; stack->len > 0; visited++)
    {
      guint32 top = g_array_index (stack, guint32, stack->len - 1);
      guint32 node = top & 0x7fffffffu, f;
      const Node *n = &tree->nodes[node];
      const guint64 *v = values_of (tree, node);
      guint64 *fv;

      if (visited % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_free (call_index.slots);
          return NULL;
        }
      g_array_set_size (stack, stack->len - 1);
      if (top & 0x80000000u)
        {
          g_array_index (on_path, guint32, fn[node])--;
          continue;
        }
      f = fn[node] = function_of (self, n->key, node);
      if (on_path->len < self->keys->len)
        g_array_set_size (on_path, self->keys->len);
      fv = fvalues (self, f);
      for (guint c = 0; c < nc; c++)
        if (tree->self_at[c] >= 0)
          fv[nc + c] = add_value (fv[nc + c], v[tree->self_at[c]], tree->flags[c]);
      if ((flags & STROBE_COST_CALLS_EACH_LEVEL) || g_array_index (on_path, guint32, f) == 0)
        {
          for (guint c = 0; c < nc; c++)
            fv[c] = add_value (fv[c], v[c], tree->flags[c]);
          if (node != 0 && (n->parent != 0 || (flags & STROBE_COST_CALLS_ROOT_CALLS)))
            {
              guint64 pair = (guint64) fn[n->parent] << 32 | f;
              guint32 slot, call = key_index_find (&call_index, (const guint64 *) self->pairs->data, pair, &slot);
              guint64 *cv;

              if (call == G_MAXUINT32)
                {
                  call = self->pairs->len;
                  g_array_append_val (self->pairs, pair);
                  g_array_set_size (self->call_values, self->call_values->len + nc);
                  key_index_add (&call_index, (const guint64 *) self->pairs->data, slot, call);
                }
              cv = &g_array_index (self->call_values, guint64, (gsize) call * nc);
              for (guint c = 0; c < nc; c++)
                cv[c] = add_value (cv[c], v[c], tree->flags[c]);
            }
        }
      g_array_index (on_path, guint32, f)++;
      {
        guint32 leave = node | 0x80000000u;
        g_array_append_val (stack, leave);
      }
      push_children (stack, tree, node);
    }
  g_free (call_index.slots);
  group_calls (self, TRUE, &self->caller_at, &self->by_callee);
  group_calls (self, FALSE, &self->callee_at, &self->by_caller);
  return g_steal_pointer (&self);
}

StrobeCostCalls *
strobe_cost_calls_ref (StrobeCostCalls *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
strobe_cost_calls_unref (StrobeCostCalls *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  g_array_unref (self->keys);
  g_array_unref (self->nodes);
  g_array_unref (self->values);
  g_array_unref (self->pairs);
  g_array_unref (self->call_values);
  g_free (self->caller_at);
  g_free (self->callee_at);
  g_free (self->by_callee);
  g_free (self->by_caller);
  g_free (self->index.slots);
  g_free (self);
}

guint
strobe_cost_calls_get_n_functions (StrobeCostCalls *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->keys->len;
}

guint
strobe_cost_calls_find (StrobeCostCalls *self, guint64 key)
{
  guint32 slot, f;

  g_return_val_if_fail (self != NULL, G_MAXUINT);
  f = key_index_find (&self->index, (const guint64 *) self->keys->data, key, &slot);
  return f == G_MAXUINT32 ? G_MAXUINT : f;
}

#define CHECK_FUNCTION(self, f, val) \
  g_return_val_if_fail ((self) != NULL, val); \
  g_return_val_if_fail ((f) < (self)->keys->len, val)

guint64
strobe_cost_calls_get_key (StrobeCostCalls *self, guint function)
{
  CHECK_FUNCTION (self, function, 0);
  return g_array_index (self->keys, guint64, function);
}

guint32
strobe_cost_calls_get_node (StrobeCostCalls *self, guint function)
{
  CHECK_FUNCTION (self, function, 0);
  return g_array_index (self->nodes, guint32, function);
}

guint64
strobe_cost_calls_get_inclusive (StrobeCostCalls *self, guint function, guint column)
{
  CHECK_FUNCTION (self, function, 0);
  g_return_val_if_fail (column < self->n_columns, 0);
  return fvalues (self, function)[column];
}

guint64
strobe_cost_calls_get_self (StrobeCostCalls *self, guint function, guint column)
{
  CHECK_FUNCTION (self, function, 0);
  g_return_val_if_fail (column < self->n_columns, 0);
  return fvalues (self, function)[self->n_columns + column];
}

const guint32 *
strobe_cost_calls_get_callers (StrobeCostCalls *self, guint function, guint *n)
{
  CHECK_FUNCTION (self, function, NULL);
  g_return_val_if_fail (n != NULL, NULL);
  *n = self->caller_at[function + 1] - self->caller_at[function];
  return self->by_callee + self->caller_at[function];
}

const guint32 *
strobe_cost_calls_get_callees (StrobeCostCalls *self, guint function, guint *n)
{
  CHECK_FUNCTION (self, function, NULL);
  g_return_val_if_fail (n != NULL, NULL);
  *n = self->callee_at[function + 1] - self->callee_at[function];
  return self->by_caller + self->callee_at[function];
}

guint
strobe_cost_calls_get_n_calls (StrobeCostCalls *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pairs->len;
}

guint
strobe_cost_calls_get_caller (StrobeCostCalls *self, guint call)
{
  g_return_val_if_fail (self != NULL && call < self->pairs->len, G_MAXUINT);
  return (guint) (g_array_index (self->pairs, guint64, call) >> 32);
}

guint
strobe_cost_calls_get_callee (StrobeCostCalls *self, guint call)
{
  g_return_val_if_fail (self != NULL && call < self->pairs->len, G_MAXUINT);
  return (guint) (guint32) g_array_index (self->pairs, guint64, call);
}

guint64
strobe_cost_calls_get_value (StrobeCostCalls *self, guint call, guint column)
{
  g_return_val_if_fail (self != NULL && call < self->pairs->len, 0);
  g_return_val_if_fail (column < self->n_columns, 0);
  return g_array_index (self->call_values, guint64, (gsize) call * self->n_columns + column);
}
