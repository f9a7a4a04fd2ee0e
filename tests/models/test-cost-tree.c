/* test-cost-tree.c — StrobeCostTree against a brute-force recount of random stacks: every
 * node's inclusive and self values (top-down and bottom-up, built from stacks, from scope
 * nesting and by inversion), sorted pages of children, and the callers and callees of
 * every key, with recursion (few keys, deep stacks) counted once per stack or at each
 * level. Seeds come from g_test_rand, so a failure prints the seed that reproduces it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "strobe-cost-tree.h"

#define N_COLS    3
#define MAX_DEPTH 12

typedef struct
{
  guint   n;
  guint64 keys[MAX_DEPTH];   /* outermost first */
  guint64 values[N_COLS];
} Stack;

static const StrobeCostColumnFlags columns[N_COLS] = {
  STROBE_COST_COLUMN_DEFAULT, STROBE_COST_COLUMN_NO_SELF, STROBE_COST_COLUMN_SIGNED,
};

static GArray *
random_stacks (guint n, guint n_keys)
{
  GArray *stacks = g_array_new (FALSE, TRUE, sizeof (Stack));

  for (guint i = 0; i < n; i++)
    {
      Stack s = { 0 };
      s.n = g_test_rand_int_range (0, MAX_DEPTH + 1);
      for (guint k = 0; k < s.n; k++)
        /* Large keys too: keys are 64-bit addresses as well as small ids. */
        s.keys[k] = g_test_rand_bit () ? (guint64) g_test_rand_int_range (1, n_keys + 1)
                                       : G_GUINT64_CONSTANT (0x7f0000000000) + g_test_rand_int_range (0, n_keys);
      s.values[0] = g_test_rand_int_range (0, 1000);
      s.values[1] = 1;
      s.values[2] = (guint64) (gint64) g_test_rand_int_range (-500, 1000);
      g_array_append_val (stacks, s);
    }
  return stacks;
}

/* A node's keys from the root down. */
static GArray *
path_keys (StrobeCostTree *t, guint32 node)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint32 n = node; n != 0; n = strobe_cost_tree_get_parent (t, n))
    {
      guint64 k = strobe_cost_tree_get_key (t, n);
      g_array_prepend_val (keys, k);
    }
  return keys;
}

/* A node's path as text (the brute force's key). */
static char *
path_of (StrobeCostTree *t, guint32 node)
{
  GString *s = g_string_new (NULL);
  g_autoptr (GArray) keys = path_keys (t, node);

  for (guint i = 0; i < keys->len; i++)
    g_string_append_printf (s, "/%" G_GUINT64_FORMAT, g_array_index (keys, guint64, i));
  return g_string_free (s, FALSE);
}

typedef struct
{
  gint64 inclusive[N_COLS];
  gint64 self[N_COLS];
} Sums;

static Sums *
sums_for (GHashTable *h, const char *path)
{
  Sums *s = g_hash_table_lookup (h, path);

  if (s == NULL)
    {
      s = g_new0 (Sums, 1);
      g_hash_table_insert (h, g_strdup (path), s);
    }
  return s;
}

/* Path text → sums, counting each stack at every prefix of its path in the tree's order. */
static GHashTable *
brute_tree (GArray *stacks, StrobeCostTreeKind kind)
{
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < stacks->len; i++)
    {
      const Stack *st = &g_array_index (stacks, Stack, i);
      GString *p = g_string_new (NULL);

      for (guint d = 0; d <= st->n; d++)
        {
          Sums *s;
          /* The innermost frame is the last of a top-down path, the first of a bottom-up one. */
          gboolean innermost = st->n == 0 ? d == 0
                               : kind == STROBE_COST_TREE_TOP_DOWN ? d == st->n : d == 1;

          if (d > 0)
            g_string_append_printf (p, "/%" G_GUINT64_FORMAT,
                                    st->keys[kind == STROBE_COST_TREE_TOP_DOWN ? d - 1 : st->n - d]);
          s = sums_for (h, p->str);
          for (guint c = 0; c < N_COLS; c++)
            {
              s->inclusive[c] += (gint64) st->values[c];
              if (innermost && !(columns[c] & STROBE_COST_COLUMN_NO_SELF))
                s->self[c] += (gint64) st->values[c];
            }
        }
      g_string_free (p, TRUE);
    }
  return h;
}

static void
assert_tree (StrobeCostTree *t, GHashTable *expected, gboolean check_self)
{
  g_assert_cmpuint (strobe_cost_tree_get_n_nodes (t), ==, g_hash_table_size (expected));
  for (guint32 n = 0; n < strobe_cost_tree_get_n_nodes (t); n++)
    {
      g_autofree char *p = path_of (t, n);
      Sums *s = g_hash_table_lookup (expected, p);

      g_assert_nonnull (s);
      g_assert_cmpuint (strobe_cost_tree_get_depth (t, n), ==, n ? strobe_cost_tree_get_depth (t, strobe_cost_tree_get_parent (t, n)) + 1 : 0);
      for (guint c = 0; c < N_COLS; c++)
        {
          g_assert_cmpint ((gint64) strobe_cost_tree_get_inclusive (t, n, c), ==, s->inclusive[c]);
          if (check_self)
            g_assert_cmpint ((gint64) strobe_cost_tree_get_self (t, n, c), ==, s->self[c]);
        }
    }
}

static StrobeCostTree *
tree_from (GArray *stacks, StrobeCostTreeKind kind)
{
  StrobeCostTree *t = strobe_cost_tree_new (kind, N_COLS, columns, 0);

  for (guint i = 0; i < stacks->len; i++)
    {
      const Stack *st = &g_array_index (stacks, Stack, i);
      strobe_cost_tree_add_stack (t, st->keys, st->n, st->values);
    }
  return t;
}

static void
test_stacks (void)
{
  for (guint round = 0; round < 20; round++)
    {
      g_autoptr (GArray) stacks = random_stacks (g_test_rand_int_range (1, 3000), g_test_rand_int_range (1, 12));
      g_autoptr (StrobeCostTree) td = tree_from (stacks, STROBE_COST_TREE_TOP_DOWN);
      g_autoptr (StrobeCostTree) bu = tree_from (stacks, STROBE_COST_TREE_BOTTOM_UP);
      g_autoptr (GHashTable) etd = brute_tree (stacks, STROBE_COST_TREE_TOP_DOWN);
      g_autoptr (GHashTable) ebu = brute_tree (stacks, STROBE_COST_TREE_BOTTOM_UP);
      g_autoptr (StrobeCostTree) inverted = NULL;
      g_autoptr (StrobeCostTree) back = NULL;

      assert_tree (td, etd, TRUE);
      assert_tree (bu, ebu, TRUE);
      /* Inversion carries the self columns only (a count has no meaning at a path's end):
       * compare those. */
      inverted = strobe_cost_tree_invert (td);
      g_assert_cmpint (strobe_cost_tree_get_kind (inverted), ==, STROBE_COST_TREE_BOTTOM_UP);
      back = strobe_cost_tree_invert (bu);
      for (guint pass = 0; pass < 2; pass++)
        {
          StrobeCostTree *t = pass ? back : inverted;
          GHashTable *e = pass ? etd : ebu;
          for (guint32 n = 0; n < strobe_cost_tree_get_n_nodes (t); n++)
            {
              g_autofree char *p = path_of (t, n);
              Sums *s = g_hash_table_lookup (e, p);
              g_assert_nonnull (s);
              g_assert_cmpint ((gint64) strobe_cost_tree_get_inclusive (t, n, 0), ==, s->inclusive[0]);
              g_assert_cmpint ((gint64) strobe_cost_tree_get_self (t, n, 0), ==, s->self[0]);
              g_assert_cmpint ((gint64) strobe_cost_tree_get_inclusive (t, n, 2), ==, s->inclusive[2]);
              g_assert_cmpint ((gint64) strobe_cost_tree_get_self (t, n, 2), ==, s->self[2]);
            }
        }
      /* Trimmed, the tree still finds (and grows) its children. */
      strobe_cost_tree_trim (td);
      for (guint i = 0; i < MIN (stacks->len, 50u); i++)
        {
          const Stack *st = &g_array_index (stacks, Stack, i);
          guint32 n = 0;
          for (guint k = 0; k < st->n; k++)
            n = strobe_cost_tree_lookup_child (td, n, st->keys[k]);
          g_assert_cmpuint (n, !=, STROBE_COST_NODE_NONE);
          g_assert_cmpuint (n, ==, strobe_cost_tree_add_stack (td, st->keys, st->n, (guint64[N_COLS]) { 0 }));
        }
      g_assert_cmpuint (strobe_cost_tree_lookup_child (td, 0, G_MAXUINT64 - 1), ==, STROBE_COST_NODE_NONE);
      assert_tree (td, etd, TRUE);
    }
}

/* Two trees of random stacks whose outermost keys differ (odd and even) grafted into one
 * are the tree of all the stacks; a node appended by hand is found by a lookup after. */
static void
test_graft (void)
{
  for (guint round = 0; round < 10; round++)
    {
      g_autoptr (GArray) stacks = random_stacks (g_test_rand_int_range (1, 2000), g_test_rand_int_range (2, 12));
      g_autoptr (GArray) odd = g_array_new (FALSE, TRUE, sizeof (Stack));
      g_autoptr (GArray) even = g_array_new (FALSE, TRUE, sizeof (Stack));
      g_autoptr (GHashTable) expected = brute_tree (stacks, STROBE_COST_TREE_TOP_DOWN);
      g_autoptr (StrobeCostTree) a = NULL;
      g_autoptr (StrobeCostTree) b = NULL;
      guint32 added;

      for (guint i = 0; i < stacks->len; i++)
        {
          const Stack *st = &g_array_index (stacks, Stack, i);
          g_array_append_vals (st->n > 0 && st->keys[0] % 2 ? odd : even, st, 1);
        }
      a = tree_from (odd, STROBE_COST_TREE_TOP_DOWN);
      b = tree_from (even, STROBE_COST_TREE_TOP_DOWN);
      strobe_cost_tree_graft (a, 0, b, 0);
      /* The graft leaves the node itself: the roots' values added by hand. */
      for (guint c = 0; c < N_COLS; c++)
        {
          strobe_cost_tree_add (a, 0, c, FALSE, strobe_cost_tree_get_inclusive (b, 0, c));
          if (!(columns[c] & STROBE_COST_COLUMN_NO_SELF))
            strobe_cost_tree_add (a, 0, c, TRUE, strobe_cost_tree_get_self (b, 0, c));
        }
      assert_tree (a, expected, TRUE);
      for (guint i = 0; i < even->len; i++)
        {
          const Stack *st = &g_array_index (even, Stack, i);
          guint32 n = 0;
          for (guint k = 0; k < st->n; k++)
            n = strobe_cost_tree_lookup_child (a, n, st->keys[k]);
          g_assert_cmpuint (n, !=, STROBE_COST_NODE_NONE);
        }
      added = strobe_cost_tree_append_child (a, 0, G_MAXUINT64 - 1);
      g_assert_cmpuint (strobe_cost_tree_lookup_child (a, 0, G_MAXUINT64 - 1), ==, added);
      g_assert_cmpuint (strobe_cost_tree_get_parent (a, added), ==, 0);
      g_assert_cmpuint (strobe_cost_tree_child (a, added, 7), ==, strobe_cost_tree_lookup_child (a, added, 7));
    }
}

/* The same tree made from scope nesting (inclusive values only, node by node), with self
 * values as inclusive minus the children's. */
static void
test_nesting (void)
{
  g_autoptr (GArray) stacks = random_stacks (2000, 6);
  g_autoptr (StrobeCostTree) td = tree_from (stacks, STROBE_COST_TREE_TOP_DOWN);
  g_autoptr (StrobeCostTree) nested = strobe_cost_tree_new (STROBE_COST_TREE_TOP_DOWN, N_COLS, columns, 0);
  g_autoptr (GHashTable) etd = brute_tree (stacks, STROBE_COST_TREE_TOP_DOWN);

  for (guint32 n = 0; n < strobe_cost_tree_get_n_nodes (td); n++)
    {
      guint32 m = 0;
      g_autoptr (GArray) path = path_keys (td, n);

      for (guint i = 0; i < path->len; i++)
        m = strobe_cost_tree_child (nested, m, g_array_index (path, guint64, i));
      for (guint c = 0; c < N_COLS; c++)
        strobe_cost_tree_add (nested, m, c, FALSE, strobe_cost_tree_get_inclusive (td, n, c));
    }
  strobe_cost_tree_compute_self (nested);
  g_assert_cmpuint (strobe_cost_tree_get_n_nodes (nested), ==, strobe_cost_tree_get_n_nodes (td));
  for (guint32 n = 0; n < strobe_cost_tree_get_n_nodes (td); n++)
    {
      g_autofree char *p = path_of (td, n);
      Sums *s = g_hash_table_lookup (etd, p);
      guint32 m = 0;
      g_autoptr (GArray) path = path_keys (td, n);

      for (guint i = 0; i < path->len; i++)
        m = strobe_cost_tree_lookup_child (nested, m, g_array_index (path, guint64, i));
      g_assert_cmpuint (m, !=, STROBE_COST_NODE_NONE);
      g_assert_cmpint ((gint64) strobe_cost_tree_get_self (nested, m, 0), ==, MAX (s->self[0], 0));
      g_assert_cmpint ((gint64) strobe_cost_tree_get_self (nested, m, 1), ==, 0);
      g_assert_cmpint ((gint64) strobe_cost_tree_get_self (nested, m, 2), ==, s->self[2]);
    }
}

static guint64
column_value (StrobeCostTree *t, guint32 n, guint c)
{
  guint64 v = strobe_cost_tree_get_inclusive (t, n, c);
  return (strobe_cost_tree_get_column_flags (t, c) & STROBE_COST_COLUMN_SIGNED) && (gint64) v < 0 ? 0 : v;
}

static void
test_children (void)
{
  g_autoptr (GArray) stacks = random_stacks (3000, 40);
  g_autoptr (StrobeCostTree) t = tree_from (stacks, STROBE_COST_TREE_TOP_DOWN);

  for (guint c = 0; c <= N_COLS; c++)
    for (guint32 n = 0; n < strobe_cost_tree_get_n_nodes (t); n++)
      {
        guint column = c == N_COLS ? STROBE_COST_BY_KEY : c;
        guint total = strobe_cost_tree_get_n_children (t, n), got = 0;
        g_autofree guint32 *all = g_new (guint32, total + 1);

        /* Pages of 7 make the whole list, in order, each child once. */
        for (guint first = 0;; first += 7)
          {
            guint k = strobe_cost_tree_get_children (t, n, column, STROBE_COST_SORT_DESCENDING, first, 7, all + got);
            got += k;
            if (k < 7)
              break;
          }
        g_assert_cmpuint (got, ==, total);
        for (guint i = 0; i < got; i++)
          {
            g_assert_cmpuint (strobe_cost_tree_get_parent (t, all[i]), ==, n);
            if (i == 0)
              continue;
            if (column == STROBE_COST_BY_KEY)
              g_assert_cmpuint (strobe_cost_tree_get_key (t, all[i - 1]), <, strobe_cost_tree_get_key (t, all[i]));
            else
              {
                guint64 a = column_value (t, all[i - 1], c), b = column_value (t, all[i], c);
                g_assert_cmpuint (a, >=, b);
                if (a == b)
                  g_assert_cmpuint (all[i - 1], <, all[i]);
              }
          }
      }
  /* Relinked in place, largest first, ties by key. */
  strobe_cost_tree_sort_children (t, 0, STROBE_COST_SORT_DESCENDING | STROBE_COST_SORT_TIE_BY_KEY);
  for (guint32 n = 0; n < strobe_cost_tree_get_n_nodes (t); n++)
    for (guint32 a = strobe_cost_tree_get_first_child (t, n), b; a != STROBE_COST_NODE_NONE; a = b)
      {
        b = strobe_cost_tree_get_next_sibling (t, a);
        if (b == STROBE_COST_NODE_NONE)
          break;
        g_assert_true (column_value (t, a, 0) > column_value (t, b, 0)
                       || (column_value (t, a, 0) == column_value (t, b, 0)
                           && strobe_cost_tree_get_key (t, a) < strobe_cost_tree_get_key (t, b)));
      }
}

/* Brute force of the callers view: per key, and per (caller, callee) pair. */
static void
brute_calls (GArray *stacks, gboolean each_level, GHashTable *functions, GHashTable *calls)
{
  for (guint i = 0; i < stacks->len; i++)
    {
      const Stack *st = &g_array_index (stacks, Stack, i);

      for (guint d = 0; d < st->n; d++)
        {
          gboolean outermost = TRUE;
          g_autofree char *fk = g_strdup_printf ("%" G_GUINT64_FORMAT, st->keys[d]);
          Sums *f = sums_for (functions, fk);

          for (guint e = 0; e < d; e++)
            outermost &= st->keys[e] != st->keys[d];
          for (guint c = 0; c < N_COLS; c++)
            {
              if (d == st->n - 1 && !(columns[c] & STROBE_COST_COLUMN_NO_SELF))
                f->self[c] += (gint64) st->values[c];
              if (outermost || each_level)
                f->inclusive[c] += (gint64) st->values[c];
            }
          if ((outermost || each_level) && d > 0)
            {
              g_autofree char *ck = g_strdup_printf ("%" G_GUINT64_FORMAT ">%" G_GUINT64_FORMAT, st->keys[d - 1], st->keys[d]);
              Sums *e = sums_for (calls, ck);
              for (guint c = 0; c < N_COLS; c++)
                e->inclusive[c] += (gint64) st->values[c];
            }
        }
    }
}

static void
test_calls (void)
{
  for (guint round = 0; round < 20; round++)
    for (guint each = 0; each < 2; each++)
      {
        g_autoptr (GArray) stacks = random_stacks (g_test_rand_int_range (1, 2000), g_test_rand_int_range (1, 8));
        g_autoptr (StrobeCostTree) t = tree_from (stacks, STROBE_COST_TREE_TOP_DOWN);
        g_autoptr (StrobeCostCalls) calls = strobe_cost_calls_new (t, each ? STROBE_COST_CALLS_EACH_LEVEL : 0, NULL, NULL);
        g_autoptr (GHashTable) functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
        g_autoptr (GHashTable) pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
        guint n_calls = 0;

        brute_calls (stacks, each, functions, pairs);
        g_assert_cmpuint (strobe_cost_calls_get_n_functions (calls), ==, g_hash_table_size (functions));
        g_assert_cmpuint (strobe_cost_calls_get_n_calls (calls), ==, g_hash_table_size (pairs));
        for (guint f = 0; f < strobe_cost_calls_get_n_functions (calls); f++)
          {
            guint64 key = strobe_cost_calls_get_key (calls, f);
            g_autofree char *fk = g_strdup_printf ("%" G_GUINT64_FORMAT, key);
            Sums *s = g_hash_table_lookup (functions, fk);
            const guint32 *list;
            guint n;

            g_assert_nonnull (s);
            g_assert_cmpuint (strobe_cost_calls_find (calls, key), ==, f);
            g_assert_cmpuint (strobe_cost_tree_get_key (t, strobe_cost_calls_get_node (calls, f)), ==, key);
            for (guint c = 0; c < N_COLS; c++)
              {
                g_assert_cmpint ((gint64) strobe_cost_calls_get_inclusive (calls, f, c), ==, s->inclusive[c]);
                g_assert_cmpint ((gint64) strobe_cost_calls_get_self (calls, f, c), ==, s->self[c]);
              }
            list = strobe_cost_calls_get_callees (calls, f, &n);
            n_calls += n;
            for (guint i = 0; i < n; i++)
              {
                guint callee = strobe_cost_calls_get_callee (calls, list[i]);
                g_autofree char *ck = g_strdup_printf ("%" G_GUINT64_FORMAT ">%" G_GUINT64_FORMAT, key,
                                                       strobe_cost_calls_get_key (calls, callee));
                Sums *e = g_hash_table_lookup (pairs, ck);

                g_assert_nonnull (e);
                g_assert_cmpuint (strobe_cost_calls_get_caller (calls, list[i]), ==, f);
                for (guint c = 0; c < N_COLS; c++)
                  g_assert_cmpint ((gint64) strobe_cost_calls_get_value (calls, list[i], c), ==, e->inclusive[c]);
              }
            list = strobe_cost_calls_get_callers (calls, f, &n);
            for (guint i = 0; i < n; i++)
              g_assert_cmpuint (strobe_cost_calls_get_callee (calls, list[i]), ==, f);
          }
        g_assert_cmpuint (n_calls, ==, g_hash_table_size (pairs));
        g_assert_cmpuint (strobe_cost_calls_find (calls, G_MAXUINT64 - 1), ==, G_MAXUINT);
      }
}

/* The root's key calls the outermost frames when asked; cancelling gives an error. */
static void
test_root_calls_and_cancel (void)
{
  guint64 a[] = { 1, 2 }, b[] = { 2 }, v[N_COLS] = { 5, 1, 5 };
  g_autoptr (StrobeCostTree) t = strobe_cost_tree_new (STROBE_COST_TREE_TOP_DOWN, N_COLS, columns, 99);
  g_autoptr (StrobeCostCalls) calls = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  guint n, root, two;
  const guint32 *list;

  strobe_cost_tree_add_stack (t, a, 2, v);
  strobe_cost_tree_add_stack (t, b, 1, v);
  calls = strobe_cost_calls_new (t, STROBE_COST_CALLS_ROOT_CALLS, NULL, NULL);
  root = strobe_cost_calls_find (calls, 99);
  two = strobe_cost_calls_find (calls, 2);
  g_assert_cmpuint (root, !=, G_MAXUINT);
  list = strobe_cost_calls_get_callers (calls, two, &n);
  g_assert_cmpuint (n, ==, 2);   /* 1 → 2 and root → 2 */
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (strobe_cost_calls_get_value (calls, list[i], 0), ==, 5);
  g_assert_cmpuint (strobe_cost_tree_get_size (t), >, 0);

  g_cancellable_cancel (cancellable);
  g_assert_null (strobe_cost_calls_new (t, 0, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cost-tree/stacks", test_stacks);
  g_test_add_func ("/cost-tree/nesting", test_nesting);
  g_test_add_func ("/cost-tree/graft", test_graft);
  g_test_add_func ("/cost-tree/children", test_children);
  g_test_add_func ("/cost-tree/calls", test_calls);
  g_test_add_func ("/cost-tree/root-calls-and-cancel", test_root_calls_and_cancel);
  return g_test_run ();
}
