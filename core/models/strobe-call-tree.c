/* strobe-call-tree.c — the call tree by name path: each thread's depths are walked
 * together in time order (a cursor per depth, which only moves forward, as in the timer
 * statistics), a stack of the enclosing scopes giving each scope its parent node. A small
 * open-addressing table finds a node's child of a given name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-call-tree.h"
#include "strobe-timeline-model-private.h"
#include "strobe-timer-stats.h"

typedef struct
{
  guint64 *keys;        /* (parent << 32 | name) + 1; 0: empty */
  guint32 *values;
  gsize    mask;
  gsize    used;
} ChildMap;

static inline gsize
child_hash (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return (gsize) key;
}

static void
child_map_init (ChildMap *m, gsize size)
{
  m->keys = g_new0 (guint64, size);
  m->values = g_new (guint32, size);
  m->mask = size - 1;
  m->used = 0;
}

static void
child_map_clear (ChildMap *m)
{
  g_free (m->keys);
  g_free (m->values);
}

static void
child_map_insert (ChildMap *m, guint64 key, guint32 value)
{
  gsize i;

  if ((m->used + 1) * 2 > m->mask + 1)
    {
      ChildMap bigger;
      child_map_init (&bigger, (m->mask + 1) * 2);
      for (gsize k = 0; k <= m->mask; k++)
        if (m->keys[k])
          child_map_insert (&bigger, m->keys[k], m->values[k]);
      child_map_clear (m);
      *m = bigger;
    }
  for (i = child_hash (key) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
    ;
  m->keys[i] = key;
  m->values[i] = value;
  m->used++;
}

static inline guint32
child_map_lookup (const ChildMap *m, guint64 key)
{
  for (gsize i = child_hash (key) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
    if (m->keys[i] == key)
      return m->values[i];
  return STROBE_CALL_NONE;
}

static guint32
child_of (GArray *nodes, ChildMap *map, guint32 parent, guint32 name_id)
{
  guint64 key = (((guint64) parent << 32) | name_id) + 1;
  guint32 i = child_map_lookup (map, key);
  StrobeCallNode *p, n = { 0 };

  if (i != STROBE_CALL_NONE)
    return i;
  i = nodes->len;
  p = &g_array_index (nodes, StrobeCallNode, parent);
  n.name_id = name_id;
  n.parent = parent;
  n.first_child = STROBE_CALL_NONE;
  n.next_sibling = p->first_child;
  n.depth = p->depth + 1;
  p->first_child = i;
  g_array_append_val (nodes, n);
  child_map_insert (map, key, i);
  return i;
}

static inline guint64
clip (guint64 b, guint64 e, guint64 t0, guint64 t1)
{
  guint64 lo = MAX (b, t0), hi = MIN (e, t1);
  return hi > lo ? hi - lo : 0;
}

typedef struct
{
  guint32 node;
  guint64 begin;
  guint64 end;
} Frame;

/* FALSE when cancelled. */
static gboolean
thread_tree (StrobeScopeThread *th, guint64 t0, guint64 t1, GArray *nodes, ChildMap *map,
             GCancellable *cancellable)
{
  guint n = th->tracks->len;
  g_autofree StrobeScopePos *pos = g_new0 (StrobeScopePos, MAX (n, 1));
  g_autofree Frame *stack = g_new (Frame, n + 1);
  guint top = 0, tick = 0;

  for (guint d = 0; d < n; d++)
    pos[d] = strobe_scope_track_lower_bound_end (th->tracks->pdata[d], t0);
  stack[0].node = 0;
  stack[0].begin = 0;
  stack[0].end = G_MAXUINT64;
  /* stack[k] is the open scope at depth k - 1; its children are at depth k. */
  for (;;)
    {
      Frame *f = &stack[top];
      guint d = top;
      StrobeScopeTrack *t = d < n ? th->tracks->pdata[d] : NULL;
      gboolean child = FALSE;

      if (t)
        {
          /* Scopes that began before this parent belong to an earlier one (outside the
           * range, or before t0): skip them. */
          while (strobe_scope_pos_valid (t, pos[d]) && strobe_scope_begin_at (t, pos[d]) < f->begin)
            strobe_scope_pos_next (t, &pos[d]);
          if (strobe_scope_pos_valid (t, pos[d]))
            {
              guint64 b = strobe_scope_begin_at (t, pos[d]);
              guint64 e = strobe_scope_end_at (t, pos[d]);
              child = b <= t1 && b <= f->end && e <= f->end;
              if (child)
                {
                  guint32 id = child_of (nodes, map, f->node, strobe_scope_name_at (t, pos[d]));
                  StrobeCallNode *node = &g_array_index (nodes, StrobeCallNode, id);

                  node->count++;
                  node->inclusive += clip (b, e, t0, t1);
                  strobe_scope_pos_next (t, &pos[d]);
                  top++;
                  stack[top].node = id;
                  stack[top].begin = b;
                  stack[top].end = e;
                  if (G_UNLIKELY (++tick == 16384))
                    {
                      tick = 0;
                      if (g_cancellable_is_cancelled (cancellable))
                        return FALSE;
                    }
                }
            }
        }
      if (!child)
        {
          if (top == 0)
            break;
          top--;
        }
    }
  return TRUE;
}

static gint
by_inclusive_r (gconstpointer a, gconstpointer b, gpointer nodes)
{
  const StrobeCallNode *x = &g_array_index ((GArray *) nodes, StrobeCallNode, *(const guint32 *) a);
  const StrobeCallNode *y = &g_array_index ((GArray *) nodes, StrobeCallNode, *(const guint32 *) b);

  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* Exclusive times, and children relinked largest first. */
static void
finish (GArray *nodes)
{
  g_autoptr(GArray) kids = g_array_new (FALSE, FALSE, sizeof (guint32));
  StrobeCallNode *root = &g_array_index (nodes, StrobeCallNode, 0);

  root->inclusive = 0;
  root->count = 0;
  for (guint32 c = root->first_child; c != STROBE_CALL_NONE; c = g_array_index (nodes, StrobeCallNode, c).next_sibling)
    {
      root->inclusive += g_array_index (nodes, StrobeCallNode, c).inclusive;
      root->count += g_array_index (nodes, StrobeCallNode, c).count;
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      StrobeCallNode *p = &g_array_index (nodes, StrobeCallNode, i);
      guint64 children = 0;

      g_array_set_size (kids, 0);
      for (guint32 c = p->first_child; c != STROBE_CALL_NONE; c = g_array_index (nodes, StrobeCallNode, c).next_sibling)
        {
          children += g_array_index (nodes, StrobeCallNode, c).inclusive;
          g_array_append_val (kids, c);
        }
      p->exclusive = p->inclusive > children ? p->inclusive - children : 0;
      if (kids->len < 2)
        continue;
      g_array_sort_with_data (kids, by_inclusive_r, nodes);
      p->first_child = g_array_index (kids, guint32, 0);
      for (guint k = 0; k < kids->len; k++)
        g_array_index (nodes, StrobeCallNode, g_array_index (kids, guint32, k)).next_sibling =
          k + 1 < kids->len ? g_array_index (kids, guint32, k + 1) : STROBE_CALL_NONE;
    }
}

GArray *
strobe_call_tree_compute (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) ids = NULL;
  GArray *nodes;
  StrobeCallNode root = { STROBE_CALL_NONE, STROBE_CALL_NONE, STROBE_CALL_NONE, STROBE_CALL_NONE, 0, 0, 0, 0 };
  ChildMap map;
  gboolean ok = TRUE;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  nodes = g_array_new (FALSE, FALSE, sizeof (StrobeCallNode));
  g_array_append_val (nodes, root);
  child_map_init (&map, 1024);
  ids = strobe_timeline_model_get_threads (model);
  for (guint i = 0; i < ids->len && ok; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      StrobeScopeThread *th;

      if (thread_id >= 0 && id != thread_id)
        continue;
      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, id);
      if (th)
        ok = thread_tree (th, t0, t1, nodes, &map, cancellable);
      strobe_timeline_model_read_unlock (model);
    }
  child_map_clear (&map);
  if (!ok || g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (nodes);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  finish (nodes);
  return nodes;
}

static gint
link_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeCallLink *x = a, *y = b;

  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

static void
add_link (GHashTable *index, GArray *out, guint32 name_id, guint64 count, guint64 inclusive)
{
  gpointer v;
  StrobeCallLink *l;

  if (g_hash_table_lookup_extended (index, GUINT_TO_POINTER (name_id), NULL, &v))
    l = &g_array_index (out, StrobeCallLink, GPOINTER_TO_UINT (v));
  else
    {
      StrobeCallLink z = { name_id, 0, 0 };
      g_hash_table_insert (index, GUINT_TO_POINTER (name_id), GUINT_TO_POINTER (out->len));
      g_array_append_val (out, z);
      l = &g_array_index (out, StrobeCallLink, out->len - 1);
    }
  l->count += count;
  l->inclusive += inclusive;
}

static GArray *
links (GArray *tree, guint32 name_id, gboolean callers)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeCallLink));
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);

  g_return_val_if_fail (tree != NULL, out);

  for (guint i = 1; i < tree->len; i++)
    {
      const StrobeCallNode *n = &g_array_index (tree, StrobeCallNode, i);

      if (n->name_id != name_id)
        continue;
      if (callers)
        add_link (index, out, g_array_index (tree, StrobeCallNode, n->parent).name_id, n->count, n->inclusive);
      else
        for (guint32 c = n->first_child; c != STROBE_CALL_NONE; c = g_array_index (tree, StrobeCallNode, c).next_sibling)
          {
            const StrobeCallNode *k = &g_array_index (tree, StrobeCallNode, c);
            add_link (index, out, k->name_id, k->count, k->inclusive);
          }
    }
  g_array_sort (out, link_cmp);
  return out;
}

GArray *
strobe_call_tree_callers (GArray *tree, guint32 name_id)
{
  return links (tree, name_id, TRUE);
}

GArray *
strobe_call_tree_callees (GArray *tree, guint32 name_id)
{
  return links (tree, name_id, FALSE);
}
