/* strobe-store-group.c — session groups, worked out from the store's trace list.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "strobe-store-group.h"

/* The user groups, a key file group each ([Group N]: Name, Members); a dot name, so the
 * directory's scan ignores it. */
#define USER_GROUPS ".user-groups"

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

/* ---- user groups ------------------------------------------------------------------------ */

static char *
user_groups_path (StrobeStore *store)
{
  return g_build_filename (strobe_store_get_directory (store), USER_GROUPS, NULL);
}

/* The file as it is; an empty key file when there is none. FALSE only when it exists and
 * cannot be read or parsed: a change must not overwrite groups it could not see. */
static gboolean
load_user_groups (StrobeStore *store, GKeyFile *file, GError **error)
{
  g_autofree char *path = user_groups_path (store);
  g_autoptr(GError) local = NULL;

  if (g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, &local))
    return TRUE;
  if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;
  g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_IO, _("Cannot read %s: %s"), path,
               local->message);
  return FALSE;
}

static gboolean
save_user_groups (StrobeStore *store, GKeyFile *file, GError **error)
{
  g_autofree char *path = user_groups_path (store);
  g_autoptr(GError) local = NULL;

  if (g_key_file_save_to_file (file, path, &local))
    return TRUE;
  g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_IO, _("Cannot write %s: %s"), path,
               local->message);
  return FALSE;
}

/* The key file group holding the user group @name; NULL when none does. */
static char *
find_user_group (GKeyFile *file, const char *name)
{
  g_auto(GStrv) keys = g_key_file_get_groups (file, NULL);

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *n = g_key_file_get_string (file, keys[i], "Name", NULL);
      if (g_strcmp0 (n, name) == 0)
        return g_strdup (keys[i]);
    }
  return NULL;
}

/* The user groups @name selects (NULL: all), with their members that still exist. */
static void
add_user_groups (StrobeStore *store, const char *name, GPtrArray *groups)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_auto(GStrv) keys = NULL;

  if (!load_user_groups (store, file, NULL))
    return;
  keys = g_key_file_get_groups (file, NULL);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *n = g_key_file_get_string (file, keys[i], "Name", NULL);
      g_auto(GStrv) ids = g_key_file_get_string_list (file, keys[i], "Members", NULL, NULL);
      StrobeStoreGroup *group;

      if (n == NULL || (name != NULL && !g_str_equal (n, name)))
        continue;
      group = g_new0 (StrobeStoreGroup, 1);
      group->name = g_steal_pointer (&n);
      group->user = TRUE;
      group->members = g_ptr_array_new_with_free_func (g_object_unref);
      for (guint k = 0; ids != NULL && ids[k] != NULL; k++)
        {
          StrobeTrace *t = strobe_store_lookup_trace (store, ids[k]);
          if (t != NULL)
            g_ptr_array_add (group->members, g_object_ref (t));
        }
      g_ptr_array_add (groups, group);
    }
}

/* Like a trace's name (STORE-PROTOCOL.md, v1/trace/rename), but a '/' or a leading '.' is
 * fine: it names no file. */
static gboolean
valid_group_name (const char *name)
{
  gsize len = name ? strlen (name) : 0;

  if (len == 0 || len > 200 || !g_utf8_validate (name, (gssize) len, NULL))
    return FALSE;
  for (const char *p = name; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029 || c == 0x061c
          || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_new_group (StrobeStore *store, const char *name, const char * const *ids, GError **error)
{
  g_autoptr(StrobeStoreGroup) existing = NULL;

  if (!valid_group_name (name))
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_INVALID_NAME,
                   _("“%s” cannot be a group name"), name ? name : "");
      return FALSE;
    }
  if ((existing = strobe_store_dup_group (store, name)) != NULL)
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_EXISTS,
                   _("A group named “%s” already exists"), name);
      return FALSE;
    }
  if (ids == NULL || ids[0] == NULL)
    {
      g_set_error_literal (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_INVALID_NAME,
                           _("A group needs at least one trace"));
      return FALSE;
    }
  for (guint i = 0; ids[i] != NULL; i++)
    if (strobe_store_lookup_trace (store, ids[i]) == NULL)
      {
        g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND,
                     _("No trace with id “%s”"), ids[i]);
        return FALSE;
      }
  return TRUE;
}

gboolean
strobe_store_create_group (StrobeStore        *store,
                           const char         *name,
                           const char * const *ids,
                           GError            **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(GPtrArray) unique = g_ptr_array_new ();
  g_autofree char *key = NULL;

  g_return_val_if_fail (STROBE_IS_STORE (store), FALSE);
  if (!check_new_group (store, name, ids, error) || !load_user_groups (store, file, error))
    return FALSE;
  for (guint i = 0; ids[i] != NULL; i++)
    if (!g_ptr_array_find_with_equal_func (unique, ids[i], g_str_equal, NULL))
      g_ptr_array_add (unique, (gpointer) ids[i]);
  for (guint n = 1; key == NULL || g_key_file_has_group (file, key); n++)
    {
      g_free (key);
      key = g_strdup_printf ("Group %u", n);
    }
  g_key_file_set_string (file, key, "Name", name);
  g_key_file_set_string_list (file, key, "Members", (const char * const *) unique->pdata, unique->len);
  if (!save_user_groups (store, file, error))
    return FALSE;
  g_signal_emit_by_name (store, "group-changed", name);
  return TRUE;
}

gboolean
strobe_store_delete_group (StrobeStore  *store,
                           const char   *name,
                           GError      **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *key = NULL;

  g_return_val_if_fail (STROBE_IS_STORE (store), FALSE);
  if (!load_user_groups (store, file, error))
    return FALSE;
  if (name == NULL || (key = find_user_group (file, name)) == NULL)
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND,
                   _("No group made by hand is named “%s”"), name ? name : "");
      return FALSE;
    }
  g_key_file_remove_group (file, key, NULL);
  if (!save_user_groups (store, file, error))
    return FALSE;
  g_signal_emit_by_name (store, "group-changed", name);
  return TRUE;
}

char **
strobe_store_dup_user_groups_of (StrobeStore *store,
                                 const char  *trace_id)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();

  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  if (trace_id != NULL && load_user_groups (store, file, NULL))
    {
      g_auto(GStrv) keys = g_key_file_get_groups (file, NULL);

      for (guint i = 0; keys[i] != NULL; i++)
        {
          g_auto(GStrv) ids = g_key_file_get_string_list (file, keys[i], "Members", NULL, NULL);
          g_autofree char *n = g_key_file_get_string (file, keys[i], "Name", NULL);

          if (n != NULL && ids != NULL && g_strv_contains ((const char * const *) ids, trace_id))
            g_strv_builder_add (names, n);
        }
    }
  return g_strv_builder_end (names);
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
  add_user_groups (store, name, groups);
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
