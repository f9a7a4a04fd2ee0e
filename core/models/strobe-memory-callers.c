/* strobe-memory-callers.c — functions, callers and callees from a top-down tree (see the
 * header): the tree's StrobeCostCalls (a recursive key counted once per stack), kept in
 * the view's order of functions and of each function's calls.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-callers.h"

#include "strobe-memory-query-private.h"

typedef struct
{
  StrobeMemoryFrame frame;
  guint32           inline_depth;
} Frame;

struct _StrobeMemoryCallers
{
  GObject          parent_instance;
  StrobeCostCalls *calls;
  Frame           *frames;      /* per function of calls: the frame that stands for it */
  guint32         *order;       /* position → function of calls */
  guint32         *position;    /* function of calls → position */
  guint32        **callers;     /* per function of calls: its callers' call indexes, sorted */
  guint32        **callees;
  StrobeMemoryCost sort;
  gboolean         descending;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryCallers, strobe_memory_callers, G_TYPE_OBJECT)

static void
strobe_memory_callers_finalize (GObject *object)
{
  StrobeMemoryCallers *self = STROBE_MEMORY_CALLERS (object);
  guint n = self->calls ? strobe_cost_calls_get_n_functions (self->calls) : 0;

  for (guint i = 0; self->callers && i < n; i++)
    {
      g_free (self->callers[i]);
      g_free (self->callees[i]);
    }
  g_free (self->callers);
  g_free (self->callees);
  g_free (self->frames);
  g_free (self->order);
  g_free (self->position);
  g_clear_pointer (&self->calls, strobe_cost_calls_unref);
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
}

static guint64
sort_value (guint64 v, StrobeMemoryCost by)
{
  if (by == STROBE_MEMORY_COST_PEAK || by == STROBE_MEMORY_COST_LEAKED)
    return (guint64) MAX ((gint64) v, 0);
  return v;
}

/* Sorting by KEY, and ties, go by key ascending. */
static gint
compare_by (StrobeMemoryCallers *self, guint64 vx, guint64 vy, guint64 kx, guint64 ky)
{
  if (self->sort != STROBE_MEMORY_COST_KEY)
    {
      vx = sort_value (vx, self->sort);
      vy = sort_value (vy, self->sort);
      if (vx != vy)
        return (vx < vy) == self->descending ? 1 : -1;
    }
  return (kx > ky) - (kx < ky);
}

static guint
sort_column (StrobeMemoryCost by)
{
  guint c = strobe_memory_cost_get_column (by);
  return c == STROBE_COST_BY_KEY ? STROBE_MEMORY_COL_BYTES : c;
}

static gint
compare_functions (gconstpointer a, gconstpointer b, gpointer user)
{
  StrobeMemoryCallers *self = user;
  guint x = *(const guint32 *) a, y = *(const guint32 *) b, c = sort_column (self->sort);

  return compare_by (self, strobe_cost_calls_get_inclusive (self->calls, x, c),
                     strobe_cost_calls_get_inclusive (self->calls, y, c),
                     strobe_cost_calls_get_key (self->calls, x), strobe_cost_calls_get_key (self->calls, y));
}

typedef struct
{
  StrobeMemoryCallers *self;
  gboolean             by_caller;   /* the list's other end */
} CallSort;

static guint64
other_key (StrobeMemoryCallers *self, guint call, gboolean caller)
{
  return strobe_cost_calls_get_key (self->calls, caller ? strobe_cost_calls_get_caller (self->calls, call)
                                                        : strobe_cost_calls_get_callee (self->calls, call));
}

static gint
compare_calls (gconstpointer a, gconstpointer b, gpointer user)
{
  const CallSort *s = user;
  guint x = *(const guint32 *) a, y = *(const guint32 *) b, c = sort_column (s->self->sort);

  return compare_by (s->self, strobe_cost_calls_get_value (s->self->calls, x, c),
                     strobe_cost_calls_get_value (s->self->calls, y, c),
                     other_key (s->self, x, s->by_caller), other_key (s->self, y, s->by_caller));
}

void
strobe_memory_callers_sort (StrobeMemoryCallers *self, StrobeMemoryCost by, gboolean descending)
{
  guint n;

  g_return_if_fail (STROBE_IS_MEMORY_CALLERS (self));

  n = strobe_cost_calls_get_n_functions (self->calls);
  self->sort = by;
  self->descending = by == STROBE_MEMORY_COST_KEY ? FALSE : descending;
  g_qsort_with_data (self->order, n, sizeof (guint32), compare_functions, self);
  for (guint i = 0; i < n; i++)
    {
      CallSort callers = { self, TRUE }, callees = { self, FALSE };
      guint k;

      self->position[self->order[i]] = i;
      strobe_cost_calls_get_callers (self->calls, i, &k);
      g_qsort_with_data (self->callers[i], k, sizeof (guint32), compare_calls, &callers);
      strobe_cost_calls_get_callees (self->calls, i, &k);
      g_qsort_with_data (self->callees[i], k, sizeof (guint32), compare_calls, &callees);
    }
}

StrobeMemoryCallers *
strobe_memory_callers_new (StrobeMemoryTree *tree, GCancellable *cancellable, GError **error)
{
  g_autoptr (StrobeMemoryCallers) self = NULL;
  guint n;

  g_return_val_if_fail (STROBE_IS_MEMORY_TREE (tree), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (STROBE_TYPE_MEMORY_CALLERS, NULL);
  self->calls = strobe_cost_calls_new (strobe_memory_tree_get_cost_tree (tree), 0, cancellable, error);
  if (self->calls == NULL)
    return NULL;
  n = strobe_cost_calls_get_n_functions (self->calls);
  self->frames = g_new (Frame, MAX (n, 1));
  self->order = g_new (guint32, MAX (n, 1));
  self->position = g_new (guint32, MAX (n, 1));
  self->callers = g_new (guint32 *, MAX (n, 1));
  self->callees = g_new (guint32 *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const guint32 *list;
      guint k;

      strobe_memory_tree_get_frame (tree, strobe_cost_calls_get_node (self->calls, i),
                                    &self->frames[i].frame, &self->frames[i].inline_depth);
      self->order[i] = i;
      list = strobe_cost_calls_get_callers (self->calls, i, &k);
      self->callers[i] = g_memdup2 (list, k * sizeof (guint32));
      list = strobe_cost_calls_get_callees (self->calls, i, &k);
      self->callees[i] = g_memdup2 (list, k * sizeof (guint32));
    }
  strobe_memory_callers_sort (self, STROBE_MEMORY_COST_PEAK, TRUE);
  return g_steal_pointer (&self);
}

guint
strobe_memory_callers_get_n_functions (StrobeMemoryCallers *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), 0);
  return strobe_cost_calls_get_n_functions (self->calls);
}

static void
costs_of (StrobeMemoryCallers *self, guint f, gboolean inclusive, StrobeMemoryCosts *out)
{
  guint64 v[STROBE_MEMORY_N_COLS];

  for (guint c = 0; c < STROBE_MEMORY_N_COLS; c++)
    v[c] = inclusive ? strobe_cost_calls_get_inclusive (self->calls, f, c) : strobe_cost_calls_get_self (self->calls, f, c);
  strobe_memory_costs_from_values (v, out);
}

gboolean
strobe_memory_callers_get_function (StrobeMemoryCallers *self, guint i, StrobeMemoryFunction *out)
{
  guint f;

  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  if (i >= strobe_cost_calls_get_n_functions (self->calls))
    return FALSE;
  f = self->order[i];
  out->key = strobe_cost_calls_get_key (self->calls, f);
  out->frame = self->frames[f].frame;
  out->inline_depth = self->frames[f].inline_depth;
  costs_of (self, f, TRUE, &out->inclusive);
  costs_of (self, f, FALSE, &out->self);
  strobe_cost_calls_get_callers (self->calls, f, &out->n_callers);
  strobe_cost_calls_get_callees (self->calls, f, &out->n_callees);
  return TRUE;
}

guint
strobe_memory_callers_find (StrobeMemoryCallers *self, guint64 key)
{
  guint f;

  g_return_val_if_fail (STROBE_IS_MEMORY_CALLERS (self), G_MAXUINT);
  f = strobe_cost_calls_find (self->calls, key);
  return f == G_MAXUINT ? G_MAXUINT : self->position[f];
}

static guint
get_calls (StrobeMemoryCallers *self, guint i, gboolean callers, guint first, guint n, StrobeMemoryCall *out)
{
  const guint32 *list;
  guint f, len, got;

  if (i >= strobe_cost_calls_get_n_functions (self->calls))
    return 0;
  f = self->order[i];
  if (callers)
    strobe_cost_calls_get_callers (self->calls, f, &len);
  else
    strobe_cost_calls_get_callees (self->calls, f, &len);
  list = callers ? self->callers[f] : self->callees[f];
  if (first >= len)
    return 0;
  got = MIN (n, len - first);
  for (guint k = 0; k < got; k++)
    {
      guint call = list[first + k];
      guint other = callers ? strobe_cost_calls_get_caller (self->calls, call) : strobe_cost_calls_get_callee (self->calls, call);
      guint64 v[STROBE_MEMORY_N_COLS];

      out[k].key = strobe_cost_calls_get_key (self->calls, other);
      out[k].frame = self->frames[other].frame;
      out[k].inline_depth = self->frames[other].inline_depth;
      for (guint c = 0; c < STROBE_MEMORY_N_COLS; c++)
        v[c] = strobe_cost_calls_get_value (self->calls, call, c);
      strobe_memory_costs_from_values (v, &out[k].costs);
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
