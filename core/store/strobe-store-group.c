/* strobe-store-group.c — session groups, worked out from the store's trace list.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-store-group.h"

void
strobe_store_group_free (StrobeStoreGroup *group)
{
  if (group == NULL)
    return;
  g_free (group->name);
  g_ptr_array_unref (group->members);
  g_free (group);
}

static int
compare_members (gconstpointer a, gconstpointer b)
{
  StrobeTrace *ta = *(StrobeTrace **) a, *tb = *(StrobeTrace **) b;
  guint64 sa = strobe_trace_get_start_time_ns (ta), sb = strobe_trace_get_start_time_ns (tb);

  if (sa != sb)
    return sa < sb ? -1 : 1;
  if (strobe_trace_get_pid (ta) != strobe_trace_get_pid (tb))
    return strobe_trace_get_pid (ta) < strobe_trace_get_pid (tb) ? -1 : 1;
  return g_strcmp0 (strobe_trace_get_id (ta), strobe_trace_get_id (tb));
}

static int
compare_groups (gconstpointer a, gconstpointer b)
{
  const StrobeStoreGroup *ga = *(StrobeStoreGroup **) a, *gb = *(StrobeStoreGroup **) b;

  if (ga->start_time_ns != gb->start_time_ns)
    return ga->start_time_ns < gb->start_time_ns ? -1 : 1;
  return g_strcmp0 (ga->name, gb->name);
}

static void
group_finish (StrobeStoreGroup *group)
{
  g_ptr_array_sort (group->members, compare_members);
  group->live = FALSE;
  group->start_time_ns = G_MAXUINT64;
  for (guint i = 0; i < group->members->len; i++)
    {
      StrobeTrace *t = g_ptr_array_index (group->members, i);
      group->live |= strobe_trace_get_status (t) == STROBE_TRACE_STATUS_LIVE;
      group->start_time_ns = MIN (group->start_time_ns, strobe_trace_get_start_time_ns (t));
    }
  if (group->members->len == 0)
    group->start_time_ns = 0;
}

/* One pass over the list, keeping the groups @name selects (NULL: all). */
static GPtrArray *
collect (StrobeStore *store, const char *name)
{
  GListModel *traces = strobe_store_get_traces (store);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) strobe_store_group_free);
  guint n = g_list_model_get_n_items (traces);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);
      const char *session = strobe_trace_get_session (trace);
      StrobeStoreGroup *group;

      if (session == NULL || (name != NULL && !g_str_equal (session, name)))
        continue;
      group = g_hash_table_lookup (by_name, session);
      if (group == NULL)
        {
          group = g_new0 (StrobeStoreGroup, 1);
          group->name = g_strdup (session);
          group->members = g_ptr_array_new_with_free_func (g_object_unref);
          g_hash_table_insert (by_name, group->name, group);
          g_ptr_array_add (groups, group);
        }
      g_ptr_array_add (group->members, g_object_ref (trace));
    }
  for (guint i = 0; i < groups->len; i++)
    group_finish (g_ptr_array_index (groups, i));
  g_ptr_array_sort (groups, compare_groups);
  return groups;
}

GPtrArray *
strobe_store_dup_groups (StrobeStore *store)
{
  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  return collect (store, NULL);
}

StrobeStoreGroup *
strobe_store_dup_group (StrobeStore *store,
                        const char  *name)
{
  g_autoptr(GPtrArray) groups = NULL;

  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  groups = collect (store, name);
  if (groups->len == 0)
    return NULL;
  return g_ptr_array_steal_index (groups, 0);
}

char *
strobe_store_group_dup_signature (const StrobeStoreGroup *group)
{
  GString *s = g_string_new (group->live ? "live" : "done");

  for (guint i = 0; i < group->members->len; i++)
    {
      StrobeTrace *t = g_ptr_array_index (group->members, i);
      g_string_append_printf (s, " %s", strobe_trace_get_id (t));
    }
  return g_string_free (s, FALSE);
}
