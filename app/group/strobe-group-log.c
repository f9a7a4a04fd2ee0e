/* strobe-group-log.c — the members' log lists merged on the group's time axis.
 *
 * The merged order is an array of (member << 32 | position in the member's list). Each
 * member's list is in its own time order, so the order's entries of one member are in
 * increasing position: when member m's list changes from position p on, every entry up to
 * m's item p - 1 still stands (found walking back from the end, which is where a live
 * trace's new messages go), and the merge starts again just after it, from each member's
 * count of entries in what stands.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-group-log.h"
#include "strobe-log-item.h"

#define ENTRY(member, pos)  (((guint64) (member) << 32) | (guint64) (pos))
#define ENTRY_MEMBER(e)     ((guint) ((e) >> 32))
#define ENTRY_POS(e)        ((guint) ((e) & 0xffffffffu))

typedef struct
{
  StrobeLogList   *list;
  StrobeDocument  *document;
  StrobeTraceClock clock;      /* as last merged */
  gboolean         shown;
  guint            n_entries;  /* its entries in the merged order */
  gulong           handler;
} Member;

struct _StrobeGroupLog
{
  GObject    parent_instance;
  GPtrArray *members;          /* Member */
  GArray    *order;            /* guint64 entries */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeGroupLog, strobe_group_log, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static Member *
member_at (StrobeGroupLog *self, guint i)
{
  return g_ptr_array_index (self->members, i);
}

static void
member_free (gpointer data)
{
  Member *m = data;

  g_clear_signal_handler (&m->handler, m->list);
  g_object_unref (m->list);
  g_object_unref (m->document);
  g_free (m);
}

static gboolean
seconds_of (StrobeGroupLog *self, guint64 entry, gdouble *seconds)
{
  Member *m = member_at (self, ENTRY_MEMBER (entry));
  guint64 time;

  if (!strobe_log_list_get_time (m->list, ENTRY_POS (entry), &time))
    return FALSE;
  *seconds = strobe_trace_clock_to_seconds (&m->clock, time);
  return TRUE;
}

/* The order from @from on merged again; items-changed from the first entry that differs
 * (or that is member @changed's from @changed_pos on: the same numbers, other messages). */
static void
merge_from (StrobeGroupLog *self, guint from, guint changed, guint changed_pos)
{
  guint n = self->members->len;
  g_autofree guint *next = g_new0 (guint, MAX (n, 1));
  g_autofree guint *end = g_new0 (guint, MAX (n, 1));
  g_autofree gdouble *head = g_new0 (gdouble, MAX (n, 1));
  g_autoptr(GArray) old_tail = NULL;
  guint old_n = self->order->len, diff, k;

  /* Each member's entries before @from: its count less those after. */
  for (k = 0; k < n; k++)
    next[k] = member_at (self, k)->n_entries;
  for (guint i = from; i < old_n; i++)
    next[ENTRY_MEMBER (g_array_index (self->order, guint64, i))]--;
  old_tail = g_array_sized_new (FALSE, FALSE, sizeof (guint64), old_n - from);
  g_array_append_vals (old_tail, &g_array_index (self->order, guint64, from), old_n - from);
  g_array_set_size (self->order, from);

  for (k = 0; k < n; k++)
    {
      Member *m = member_at (self, k);

      end[k] = m->shown ? g_list_model_get_n_items (G_LIST_MODEL (m->list)) : 0;
      if (next[k] < end[k] && !seconds_of (self, ENTRY (k, next[k]), &head[k]))
        end[k] = next[k];
    }
  for (;;)
    {
      guint best = G_MAXUINT;

      /* A handful of processes: a scan beats a heap. Ties go to the earlier member. */
      for (k = 0; k < n; k++)
        if (next[k] < end[k] && (best == G_MAXUINT || head[k] < head[best]))
          best = k;
      if (best == G_MAXUINT)
        break;
      {
        guint64 e = ENTRY (best, next[best]);

        g_array_append_val (self->order, e);
      }
      if (++next[best] < end[best] && !seconds_of (self, ENTRY (best, next[best]), &head[best]))
        end[best] = next[best];
    }
  for (k = 0; k < n; k++)
    member_at (self, k)->n_entries = next[k];

  for (diff = 0; diff < old_tail->len && from + diff < self->order->len; diff++)
    {
      guint64 a = g_array_index (old_tail, guint64, diff);

      if (a != g_array_index (self->order, guint64, from + diff)
          || (ENTRY_MEMBER (a) == changed && ENTRY_POS (a) >= changed_pos))
        break;
    }
  if (old_n - from - diff > 0 || self->order->len - from - diff > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), from + diff, old_n - from - diff,
                                self->order->len - from - diff);
}

static void
merge_all (StrobeGroupLog *self)
{
  merge_from (self, 0, G_MAXUINT, 0);
}

/* Member @member's list changed from @position on: merged again after its item
 * @position - 1, the last that stands. */
static void
list_changed_cb (GListModel *list, guint position, guint removed, guint added, StrobeGroupLog *self)
{
  guint member = G_MAXUINT, from = 0;

  for (guint k = 0; k < self->members->len; k++)
    if (G_LIST_MODEL (member_at (self, k)->list) == list)
      member = k;
  g_return_if_fail (member != G_MAXUINT);
  if (!member_at (self, member)->shown)
    return;
  for (guint i = self->order->len; position > 0 && i > 0; i--)
    {
      guint64 e = g_array_index (self->order, guint64, i - 1);

      if (ENTRY_MEMBER (e) == member && ENTRY_POS (e) < position)
        {
          from = i;
          break;
        }
    }
  merge_from (self, from, member, position);
}

guint
strobe_group_log_add (StrobeGroupLog *self, StrobeDocument *document, StrobeLogList *list)
{
  Member *m;

  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), G_MAXUINT);
  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), G_MAXUINT);
  g_return_val_if_fail (STROBE_IS_LOG_LIST (list), G_MAXUINT);

  m = g_new0 (Member, 1);
  m->list = g_object_ref (list);
  m->document = g_object_ref (document);
  m->shown = TRUE;
  strobe_document_get_clock (document, &m->clock);
  m->handler = g_signal_connect (list, "items-changed", G_CALLBACK (list_changed_cb), self);
  g_ptr_array_add (self->members, m);
  /* A newcomer's messages anywhere in time: merged from its first. */
  list_changed_cb (G_LIST_MODEL (list), 0, 0, 0, self);
  return self->members->len - 1;
}

guint
strobe_group_log_get_n_members (StrobeGroupLog *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), 0);
  return self->members->len;
}

StrobeLogList *
strobe_group_log_get_list (StrobeGroupLog *self, guint member)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), NULL);
  g_return_val_if_fail (member < self->members->len, NULL);
  return member_at (self, member)->list;
}

void
strobe_group_log_set_shown (StrobeGroupLog *self, guint member, gboolean shown)
{
  g_return_if_fail (STROBE_IS_GROUP_LOG (self));
  g_return_if_fail (member < self->members->len);
  if (member_at (self, member)->shown == !!shown)
    return;
  member_at (self, member)->shown = !!shown;
  merge_all (self);
}

gboolean
strobe_group_log_get_shown (StrobeGroupLog *self, guint member)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), FALSE);
  g_return_val_if_fail (member < self->members->len, FALSE);
  return member_at (self, member)->shown;
}

void
strobe_group_log_clocks_changed (StrobeGroupLog *self)
{
  gboolean moved = FALSE;

  g_return_if_fail (STROBE_IS_GROUP_LOG (self));
  for (guint k = 0; k < self->members->len; k++)
    {
      Member *m = member_at (self, k);
      StrobeTraceClock clock;

      strobe_document_get_clock (m->document, &clock);
      if (memcmp (&clock, &m->clock, sizeof clock) != 0)
        {
          m->clock = clock;
          moved = TRUE;
        }
    }
  if (moved)
    merge_all (self);
}

gboolean
strobe_group_log_locate (StrobeGroupLog *self, guint position, guint *member, guint *member_position)
{
  guint64 e;

  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), FALSE);
  if (position >= self->order->len)
    return FALSE;
  e = g_array_index (self->order, guint64, position);
  if (member)
    *member = ENTRY_MEMBER (e);
  if (member_position)
    *member_position = ENTRY_POS (e);
  return TRUE;
}

guint
strobe_group_log_find_model (StrobeGroupLog *self, StrobeLogModel *model)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), G_MAXUINT);
  for (guint k = 0; k < self->members->len; k++)
    if (strobe_log_list_get_model (member_at (self, k)->list) == model)
      return k;
  return G_MAXUINT;
}

gboolean
strobe_group_log_get_seconds (StrobeGroupLog *self, guint position, gdouble *seconds)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), FALSE);
  if (position >= self->order->len)
    return FALSE;
  return seconds_of (self, g_array_index (self->order, guint64, position), seconds);
}

guint
strobe_group_log_find_seconds (StrobeGroupLog *self, gdouble seconds)
{
  guint lo = 0, hi;

  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), 0);
  hi = self->order->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gdouble s = INFINITY;

      seconds_of (self, g_array_index (self->order, guint64, mid), &s);
      if (s < seconds)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
strobe_group_log_find_item (StrobeGroupLog *self, guint member, guint member_position)
{
  guint64 want = ENTRY (member, member_position);
  gdouble s;
  guint i;

  g_return_val_if_fail (STROBE_IS_GROUP_LOG (self), G_MAXUINT);
  if (member >= self->members->len || !member_at (self, member)->shown
      || !seconds_of (self, want, &s))
    return G_MAXUINT;
  /* Its moment, then among the messages of that moment. */
  for (i = strobe_group_log_find_seconds (self, s); i < self->order->len; i++)
    {
      guint64 e = g_array_index (self->order, guint64, i);
      gdouble t;

      if (e == want)
        return i;
      if (seconds_of (self, e, &t) && t > s)
        break;
    }
  return G_MAXUINT;
}

StrobeGroupLog *
strobe_group_log_new (void)
{
  return g_object_new (STROBE_TYPE_GROUP_LOG, NULL);
}

/* ---- GListModel ------------------------------------------------------------------- */

static GType
strobe_group_log_get_item_type (GListModel *model)
{
  return STROBE_TYPE_LOG_ITEM;
}

static guint
strobe_group_log_get_n_items (GListModel *model)
{
  return STROBE_GROUP_LOG (model)->order->len;
}

static gpointer
strobe_group_log_get_item (GListModel *model, guint position)
{
  StrobeGroupLog *self = STROBE_GROUP_LOG (model);
  guint64 e;

  if (position >= self->order->len)
    return NULL;
  e = g_array_index (self->order, guint64, position);
  return g_list_model_get_item (G_LIST_MODEL (member_at (self, ENTRY_MEMBER (e))->list), ENTRY_POS (e));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = strobe_group_log_get_item_type;
  iface->get_n_items = strobe_group_log_get_n_items;
  iface->get_item = strobe_group_log_get_item;
}

static void
strobe_group_log_finalize (GObject *object)
{
  StrobeGroupLog *self = STROBE_GROUP_LOG (object);

  g_ptr_array_unref (self->members);
  g_array_unref (self->order);
  G_OBJECT_CLASS (strobe_group_log_parent_class)->finalize (object);
}

static void
strobe_group_log_class_init (StrobeGroupLogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_group_log_finalize;
}

static void
strobe_group_log_init (StrobeGroupLog *self)
{
  self->members = g_ptr_array_new_with_free_func (member_free);
  self->order = g_array_new (FALSE, FALSE, sizeof (guint64));
}
