/* strobe-store-maps.c — the trace, group and session maps of the store protocol
 * (STORE-PROTOCOL.md §4).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-store-maps.h"

GVariant *
strobe_store_trace_map (StrobeTrace *trace)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "id", "s", strobe_trace_get_id (trace));
  g_variant_dict_insert (&dict, "name", "s", strobe_trace_get_name (trace));
  g_variant_dict_insert (&dict, "program", "s", strobe_trace_get_program (trace) ?: "");
  g_variant_dict_insert (&dict, "pid", "u", strobe_trace_get_pid (trace));
  g_variant_dict_insert (&dict, "start_time", "t", strobe_trace_get_start_time_ns (trace));
  g_variant_dict_insert (&dict, "end_time", "t", strobe_trace_get_end_time_ns (trace));
  g_variant_dict_insert (&dict, "size", "t", strobe_trace_get_size (trace));
  g_variant_dict_insert (&dict, "status", "s",
                         strobe_trace_status_to_string (strobe_trace_get_status (trace)));
  if (strobe_trace_get_reason (trace) != NULL)
    g_variant_dict_insert (&dict, "reason", "s", strobe_trace_get_reason (trace));
  if (strobe_trace_get_peer_address (trace) != NULL)
    g_variant_dict_insert (&dict, "peer_address", "s", strobe_trace_get_peer_address (trace));
  if (strobe_trace_get_session (trace) != NULL)
    g_variant_dict_insert (&dict, "session", "s", strobe_trace_get_session (trace));
  if (strobe_trace_get_parent_pid (trace) != 0)
    g_variant_dict_insert (&dict, "parent_pid", "u", strobe_trace_get_parent_pid (trace));
  if (strobe_trace_get_stopped (trace))
    g_variant_dict_insert (&dict, "stopped", "b", TRUE);
  return g_variant_dict_end (&dict);
}

GVariant *
strobe_store_group_map (const char *name, const StrobeStoreGroup *group)
{
  GVariantDict dict;
  GVariantBuilder members;

  g_variant_dict_init (&dict, NULL);
  g_variant_builder_init (&members, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_dict_insert (&dict, "name", "s", name);
  g_variant_dict_insert (&dict, "live", "b", group ? group->live : FALSE);
  g_variant_dict_insert (&dict, "start_time", "t", group ? group->start_time_ns : 0);
  if (group != NULL && group->user)
    g_variant_dict_insert (&dict, "user", "b", TRUE);
  for (guint i = 0; group && i < group->members->len; i++)
    g_variant_builder_add_value (&members, strobe_store_trace_map (g_ptr_array_index (group->members, i)));
  g_variant_dict_insert_value (&dict, "members", g_variant_builder_end (&members));
  return g_variant_dict_end (&dict);
}

GVariant *
strobe_store_session_map (StrobeLiveConnection *session)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "id", "t", strobe_live_connection_get_id (session));
  g_variant_dict_insert (&dict, "trace_id", "s", strobe_live_connection_get_trace_id (session));
  g_variant_dict_insert (&dict, "trace_name", "s", strobe_live_connection_get_trace_name (session));
  g_variant_dict_insert (&dict, "program", "s", strobe_live_connection_get_program (session) ?: "");
  g_variant_dict_insert (&dict, "pid", "u", strobe_live_connection_get_pid (session));
  g_variant_dict_insert (&dict, "peer_address", "s", strobe_live_connection_get_peer_address (session));
  g_variant_dict_insert (&dict, "control_port", "u", (guint32) strobe_live_connection_get_control_port (session));
  g_variant_dict_insert (&dict, "start_time", "t", strobe_live_connection_get_start_time_ns (session));
  g_variant_dict_insert (&dict, "bytes_received", "t", strobe_live_connection_get_bytes_received (session));
  return g_variant_dict_end (&dict);
}
