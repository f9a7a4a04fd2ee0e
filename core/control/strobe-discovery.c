/* strobe-discovery.c — lists the discovery files of running instrumented programs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-discovery.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strobe-control-address.h"
#include "strobe-control-client.h"
#include "strobe-discovery-dir.h"

#define RECHECK_SECONDS 2
#define MAX_FILE_SIZE   4096

/* ---- StrobeProcessInfo ------------------------------------------------------------- */

struct _StrobeProcessInfo
{
  GObject  parent_instance;
  char    *program;
  char    *address;
  char    *output;
  char    *secret;
  guint    pid;
  guint16  port;
  gboolean tracing;
  gint64   start_time;
  guint64  start_ticks;
};

G_DEFINE_FINAL_TYPE (StrobeProcessInfo, strobe_process_info, G_TYPE_OBJECT)

static void
strobe_process_info_finalize (GObject *object)
{
  StrobeProcessInfo *self = STROBE_PROCESS_INFO (object);

  g_free (self->program);
  g_free (self->address);
  g_free (self->output);
  g_free (self->secret);
  G_OBJECT_CLASS (strobe_process_info_parent_class)->finalize (object);
}

static void
strobe_process_info_class_init (StrobeProcessInfoClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_process_info_finalize;
}

static void
strobe_process_info_init (StrobeProcessInfo *self)
{
}

const char *strobe_process_info_get_program (StrobeProcessInfo *self) { return self->program; }
guint strobe_process_info_get_pid (StrobeProcessInfo *self) { return self->pid; }
guint16 strobe_process_info_get_control_port (StrobeProcessInfo *self) { return self->port; }
const char *strobe_process_info_get_control_address (StrobeProcessInfo *self) { return self->address; }
gboolean strobe_process_info_get_tracing (StrobeProcessInfo *self) { return self->tracing; }
const char *strobe_process_info_get_output (StrobeProcessInfo *self) { return self->output; }
gint64 strobe_process_info_get_start_time (StrobeProcessInfo *self) { return self->start_time; }
const char *strobe_process_info_get_control_secret (StrobeProcessInfo *self) { return self->secret; }

static gboolean
parse_uint (const char *s, guint64 max, guint64 *out)
{
  char *end;
  guint64 v;

  if (*s < '0' || *s > '9')
    return FALSE;
  v = g_ascii_strtoull (s, &end, 10);
  if (*end != '\0' || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

StrobeProcessInfo *
strobe_process_info_parse (const char *text, gsize len)
{
  g_autoptr (StrobeProcessInfo) info = g_object_new (STROBE_TYPE_PROCESS_INFO, NULL);
  g_autofree char *copy = g_strndup (text, len);
  g_auto (GStrv) lines = g_strsplit (copy, "\n", -1);
  gboolean magic = FALSE, have_pid = FALSE, have_port = FALSE;

  for (guint i = 0; lines[i]; i++)
    {
      char *eq = strchr (lines[i], '=');
      const char *key = lines[i], *value;
      guint64 v;

      if (eq == NULL)
        continue;
      *eq = '\0';
      value = eq + 1;
      if (g_str_equal (key, "strobe-discovery"))
        magic = g_str_equal (value, "1");
      else if (g_str_equal (key, "program"))
        {
          g_free (info->program);
          info->program = g_strdup (value);
        }
      else if (g_str_equal (key, "pid") && parse_uint (value, G_MAXINT, &v))
        info->pid = (guint) v, have_pid = TRUE;
      else if (g_str_equal (key, "control_port") && parse_uint (value, 65535, &v) && v > 0)
        info->port = (guint16) v, have_port = TRUE;
      else if (g_str_equal (key, "control_address"))
        {
          g_free (info->address);
          /* A server on every interface is reachable on loopback from here. */
          info->address = g_strdup (g_str_equal (value, "0.0.0.0") ? "127.0.0.1" : value);
        }
      else if (g_str_equal (key, "tracing"))
        info->tracing = g_str_equal (value, "1");
      else if (g_str_equal (key, "output"))
        {
          g_free (info->output);
          info->output = g_strdup (value);
        }
      else if (g_str_equal (key, "start_time") && parse_uint (value, G_MAXINT64, &v))
        info->start_time = (gint64) v;
      else if (g_str_equal (key, "proc_start_ticks") && parse_uint (value, G_MAXUINT64, &v))
        info->start_ticks = v;
      else if (g_str_equal (key, "control_secret") && *value)
        {
          g_free (info->secret);
          info->secret = g_strdup (value);
        }
    }
  if (!magic || !have_pid || !have_port)
    return NULL;
  if (info->program == NULL)
    info->program = g_strdup ("");
  if (info->address == NULL)
    info->address = g_strdup ("127.0.0.1");
  if (info->output == NULL)
    info->output = g_strdup ("");
  return g_steal_pointer (&info);
}

/* Whether @pid is still the process that wrote the entry: /proc/PID exists and, when the
 * entry has them, its start ticks (field 22 of /proc/PID/stat) match. */
static gboolean
process_alive (guint pid, guint64 start_ticks)
{
  g_autofree char *path = g_strdup_printf ("/proc/%u/stat", pid);
  g_autofree char *stat = NULL;
  const char *p;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return FALSE;
  if (start_ticks == 0)
    return TRUE;
  p = strrchr (stat, ')');
  if (p == NULL)
    return TRUE;
  p++;
  for (int field = 3; field <= 22 && p; field++)
    {
      while (*p == ' ')
        p++;
      if (field == 22)
        return g_ascii_strtoull (p, NULL, 10) == start_ticks;
      p = strchr (p, ' ');
    }
  return TRUE;
}

/* ---- StrobeDiscovery --------------------------------------------------------------- */

struct _StrobeDiscovery
{
  GObject       parent_instance;
  char         *directory;
  GPtrArray    *items;       /* StrobeProcessInfo, by pid */
  char         *signature;   /* of the last listing, to tell whether it changed */
  GFileMonitor *monitor;
  guint         recheck_id;
  guint         pending_id;
  char         *problem;     /* why the directory was not read, or NULL */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeDiscovery, strobe_discovery, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return STROBE_TYPE_PROCESS_INFO;
}

static guint
get_n_items (GListModel *model)
{
  return STROBE_DISCOVERY (model)->items->len;
}

static gpointer
get_item (GListModel *model, guint position)
{
  StrobeDiscovery *self = STROBE_DISCOVERY (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
strobe_discovery_dispose (GObject *object)
{
  StrobeDiscovery *self = STROBE_DISCOVERY (object);

  g_clear_handle_id (&self->recheck_id, g_source_remove);
  g_clear_handle_id (&self->pending_id, g_source_remove);
  if (self->monitor)
    g_file_monitor_cancel (self->monitor);
  g_clear_object (&self->monitor);
  G_OBJECT_CLASS (strobe_discovery_parent_class)->dispose (object);
}

static void
strobe_discovery_finalize (GObject *object)
{
  StrobeDiscovery *self = STROBE_DISCOVERY (object);

  g_ptr_array_unref (self->items);
  g_free (self->directory);
  g_free (self->signature);
  g_free (self->problem);
  G_OBJECT_CLASS (strobe_discovery_parent_class)->finalize (object);
}

static void
strobe_discovery_class_init (StrobeDiscoveryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_discovery_dispose;
  object_class->finalize = strobe_discovery_finalize;
}

static void
strobe_discovery_init (StrobeDiscovery *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

char *
strobe_discovery_dup_default_directory (void)
{
  char path[4096];

  if (!strobe_discovery_dir_path (path, sizeof path))
    return g_strdup_printf ("/tmp/strobe-%u", (unsigned) geteuid ());
  return g_strdup (path);
}

StrobeDiscovery *
strobe_discovery_new (const char *directory)
{
  StrobeDiscovery *self = g_object_new (STROBE_TYPE_DISCOVERY, NULL);

  self->directory = directory ? g_strdup (directory) : strobe_discovery_dup_default_directory ();
  strobe_discovery_refresh (self);
  return self;
}

const char *
strobe_discovery_get_directory (StrobeDiscovery *self)
{
  g_return_val_if_fail (STROBE_IS_DISCOVERY (self), NULL);
  return self->directory;
}

const char *
strobe_discovery_get_problem (StrobeDiscovery *self)
{
  g_return_val_if_fail (STROBE_IS_DISCOVERY (self), NULL);
  return self->problem;
}


static gint
by_pid (gconstpointer a, gconstpointer b)
{
  StrobeProcessInfo *x = *(StrobeProcessInfo **) a, *y = *(StrobeProcessInfo **) b;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static gboolean
is_entry_name (const char *name, guint *pid)
{
  const char *dot = strchr (name, '.');
  guint64 v;
  g_autofree char *digits = NULL;

  if (dot == NULL || !g_str_equal (dot, ".discovery"))
    return FALSE;
  digits = g_strndup (name, (gsize) (dot - name));
  if (!parse_uint (digits, G_MAXINT, &v))
    return FALSE;
  *pid = (guint) v;
  return TRUE;
}

void
strobe_discovery_refresh (StrobeDiscovery *self)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GString) signature = g_string_new (NULL);
  g_autoptr (GDir) dir = NULL;
  const char *name;
  char why[160];
  guint old_len;

  g_return_if_fail (STROBE_IS_DISCOVERY (self));
  /* Only a directory that is ours alone is trusted: anyone could plant entries elsewhere.
   * Missing is no problem (no program has run); anything else is, and is said. */
  g_clear_pointer (&self->problem, g_free);
  if (strobe_discovery_dir_check (self->directory, FALSE, why, sizeof why))
    dir = g_dir_open (self->directory, 0, NULL);
  else if (errno != ENOENT)
    /* Translators: the second %s is why, in English (e.g. "belongs to uid 65534, not to you (uid 1000)") */
    self->problem = g_strdup_printf (_("The discovery directory %s %s: its programs are not "
                                       "listed (remove it, or set XDG_RUNTIME_DIR)"),
                                     self->directory, why);
  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (self->directory, name, NULL);
      g_autofree char *text = NULL;
      StrobeProcessInfo *info;
      gsize len;
      guint pid;

      if (!is_entry_name (name, &pid))
        continue;
      if (!g_file_get_contents (path, &text, &len, NULL) || len > MAX_FILE_SIZE)
        continue;
      info = strobe_process_info_parse (text, len);
      if (info == NULL || info->pid != pid || !process_alive (pid, info->start_ticks))
        {
          /* Left behind by a process that was killed (or garbage): clean it up. */
          if (info == NULL || !process_alive (pid, info->start_ticks))
            g_unlink (path);
          g_clear_object (&info);
          continue;
        }
      g_ptr_array_add (items, info);
    }
  g_ptr_array_sort (items, by_pid);
  for (guint i = 0; i < items->len; i++)
    {
      StrobeProcessInfo *info = g_ptr_array_index (items, i);
      g_string_append_printf (signature, "%u %u %s %d %s %s\n", info->pid, info->port, info->address,
                              info->tracing, info->output, info->program);
    }
  if (g_strcmp0 (signature->str, self->signature) == 0)
    return;
  g_free (self->signature);
  self->signature = g_string_free (g_steal_pointer (&signature), FALSE);
  old_len = self->items->len;
  g_ptr_array_unref (self->items);
  self->items = g_steal_pointer (&items);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_len, self->items->len);
}

static gboolean
refresh_soon_cb (gpointer data)
{
  StrobeDiscovery *self = data;

  self->pending_id = 0;
  strobe_discovery_refresh (self);
  return G_SOURCE_REMOVE;
}

static void
on_changed (GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event, gpointer data)
{
  StrobeDiscovery *self = data;

  /* A burst of events (write, rename) makes one refresh. */
  if (self->pending_id == 0)
    self->pending_id = g_timeout_add (20, refresh_soon_cb, self);
}

static gboolean
recheck_cb (gpointer data)
{
  strobe_discovery_refresh (data);
  return G_SOURCE_CONTINUE;
}

gboolean
strobe_discovery_watch (StrobeDiscovery *self, GError **error)
{
  g_autoptr (GFile) file = NULL;

  g_return_val_if_fail (STROBE_IS_DISCOVERY (self), FALSE);
  if (self->monitor)
    return TRUE;
  /* Create it as the runtime would, so there is something to watch before any program runs. */
  if (g_mkdir_with_parents (self->directory, 0700) < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "Cannot create %s: %s",
                   self->directory, g_strerror (errno));
      return FALSE;
    }
  file = g_file_new_for_path (self->directory);
  self->monitor = g_file_monitor_directory (file, G_FILE_MONITOR_WATCH_MOVES, NULL, error);
  if (self->monitor == NULL)
    return FALSE;
  g_signal_connect_object (self->monitor, "changed", G_CALLBACK (on_changed), self, 0);
  self->recheck_id = g_timeout_add_seconds (RECHECK_SECONDS, recheck_cb, self);
  strobe_discovery_refresh (self);
  return TRUE;
}

StrobeProcessInfo *
strobe_discovery_lookup_port (StrobeDiscovery *self, guint16 port)
{
  g_return_val_if_fail (STROBE_IS_DISCOVERY (self), NULL);
  for (guint i = 0; i < self->items->len; i++)
    {
      StrobeProcessInfo *info = g_ptr_array_index (self->items, i);
      if (info->port == port && info->secret)
        return g_object_ref (info);
    }
  return NULL;
}

gboolean
strobe_discovery_resolve (StrobeDiscovery *self, const char *target, char **host, guint16 *port,
                          GError **error)
{
  StrobeProcessInfo *found = NULL;
  g_autoptr (GString) pids = g_string_new (NULL);
  guint matches = 0;
  guint64 pid = 0;
  gboolean by_pid_target;

  g_return_val_if_fail (STROBE_IS_DISCOVERY (self), FALSE);
  g_return_val_if_fail (target != NULL, FALSE);
  if (strchr (target, ':'))
    return strobe_control_parse_address (target, 0, host, port, error);
  strobe_discovery_refresh (self);
  by_pid_target = parse_uint (target, G_MAXINT, &pid);
  for (guint i = 0; i < self->items->len; i++)
    {
      StrobeProcessInfo *info = g_ptr_array_index (self->items, i);
      if (by_pid_target ? info->pid == pid : g_str_equal (info->program, target))
        {
          found = info;
          matches++;
          g_string_append_printf (pids, "%s%u", pids->len ? ", " : "", info->pid);
        }
    }
  if (matches == 0)
    {
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_NOT_FOUND,
                   by_pid_target ? "No traced program with pid %s is running (see “strobe-cli ps”)"
                                 : "No traced program named “%s” is running (see “strobe-cli ps”)",
                   target);
      return FALSE;
    }
  if (matches > 1)
    {
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_AMBIGUOUS,
                   "%u programs named “%s” are running (pids %s): name one by pid", matches,
                   target, pids->str);
      return FALSE;
    }
  *host = g_strdup (found->address);
  *port = found->port;
  return TRUE;
}
