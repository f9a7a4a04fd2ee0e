/* strobe-store.c — a directory of traces.
 *
 * The directory is the database: a trace is NAME.strobe plus sidecars (README.md), and
 * this object is a cache of what the files say, kept current three ways — writers in this
 * process tell us directly, a GFileMonitor reports everything else (files copied in,
 * another process's recorder), and a short timer re-checks live traces so one whose
 * recorder died turns "cut off" without anybody touching its files.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "strobe-store.h"
#include "strobe-store-ends.h"
#include "strobe-trace-private.h"
#include "strobe-trace-writer-private.h"

/* Coalesces the burst of monitor events one copy or write produces. */
#define PENDING_DELAY_MS 30
/* How often live traces are re-checked (size, recorder still alive). */
#define LIVE_CHECK_MS    250
/* The external traces the store remembers, one absolute path a line (a dot name: the
 * directory's scan ignores it). */
#define EXTERNAL_LIST    ".external-traces"

struct _StrobeStore
{
  GObject        parent_instance;
  char          *directory;
  GMainContext  *context;
  GFileMonitor  *monitor;
  GListStore    *traces;
  GHashTable    *by_name;     /* name (no suffix) -> StrobeTrace, owned by traces */
  GHashTable    *by_id;       /* id -> StrobeTrace */
  GListStore    *sessions;
  GHashTable    *pending;     /* names to look at again */
  GSource       *pending_source;
  GSource       *live_source;
  GHashTable    *shrunk;      /* name -> reason: live traces whose file got smaller */
  GPtrArray     *external_paths; /* the remembered external files, oldest first */
  GHashTable    *external;    /* path -> StrobeTrace of the ones that could be read */
  StrobeStoreEnds *ends;      /* ends learnt by reading traces whose files do not say */
  guint64        change_serial;
};

static void strobe_store_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeStore, strobe_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      strobe_store_initable_iface_init))

G_DEFINE_QUARK (strobe-store-error-quark, strobe_store_error)

enum {
  PROP_0,
  PROP_DIRECTORY,
  PROP_CHANGE_SERIAL,
  N_PROPS
};

enum {
  TRACE_ADDED,
  TRACE_CHANGED,
  TRACE_REMOVED,
  SESSION_ADDED,
  SESSION_REMOVED,
  GROUP_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void refresh_name (StrobeStore *self, const char *name);
static StrobeTrace *refresh_external (StrobeStore *self, const char *path);

char *
strobe_store_dup_default_directory (void)
{
  return g_build_filename (g_get_user_data_dir (), "strobe", NULL);
}

static void
bump_serial (StrobeStore *self)
{
  self->change_serial++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHANGE_SERIAL]);
}

/* The trace's row changed too: sorted and filtered views of the list re-place it (a live
 * trace learns its start time after it was listed). */
static void
emit_trace_changed (StrobeStore *self,
                    StrobeTrace *trace)
{
  guint position;

  if (g_list_store_find (self->traces, trace, &position))
    g_list_model_items_changed (G_LIST_MODEL (self->traces), position, 1, 1);
  g_signal_emit (self, signals[TRACE_CHANGED], 0, trace);
}

/* "foo.strobe", "foo.strobe.info", "foo.strobe.live" -> "foo"; anything else -> NULL. */
static char *
name_from_file_name (const char *basename)
{
  static const char *const suffixes[] = {
    STROBE_TRACE_SUFFIX, STROBE_TRACE_INFO_SUFFIX, STROBE_TRACE_LIVE_SUFFIX,
  };

  if (basename == NULL || basename[0] == '.')
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (basename, suffixes[i]) && strlen (basename) > strlen (suffixes[i]))
      return g_strndup (basename, strlen (basename) - strlen (suffixes[i]));
  return NULL;
}

static char *
path_for_name (StrobeStore *self,
               const char  *name)
{
  g_autofree char *file_name = g_strconcat (name, STROBE_TRACE_SUFFIX, NULL);

  return g_build_filename (self->directory, file_name, NULL);
}

static void
remove_trace (StrobeStore *self,
              StrobeTrace *trace)
{
  g_autoptr(StrobeTrace) hold = g_object_ref (trace);
  guint position;

  if (strobe_trace_get_external (trace))
    g_hash_table_remove (self->external, strobe_trace_get_path (trace));
  else if (g_hash_table_lookup (self->by_name, strobe_trace_get_name (trace)) == trace)
    g_hash_table_remove (self->by_name, strobe_trace_get_name (trace));
  if (g_hash_table_lookup (self->by_id, strobe_trace_get_id (trace)) == trace)
    g_hash_table_remove (self->by_id, strobe_trace_get_id (trace));
  if (g_list_store_find (self->traces, trace, &position))
    g_list_store_remove (self->traces, position);
  bump_serial (self);
  g_signal_emit (self, signals[TRACE_REMOVED], 0, trace);
}

/* Still written by a recorder, whatever its status says. */
static gboolean
trace_busy (StrobeStore *self, StrobeTrace *trace)
{
  /* An external file is looked at again on a rescan, never by the live check (which works
   * on the directory's names). */
  if (strobe_trace_get_external (trace))
    return FALSE;
  return strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_LIVE
         || g_hash_table_contains (self->shrunk, strobe_trace_get_name (trace));
}

static gboolean
live_check_cb (gpointer user_data)
{
  StrobeStore *self = user_data;
  g_autoptr(GPtrArray) live = g_ptr_array_new_with_free_func (g_free);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->traces));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (G_LIST_MODEL (self->traces), i);
      if (trace_busy (self, trace))
        g_ptr_array_add (live, g_strdup (strobe_trace_get_name (trace)));
    }
  for (guint i = 0; i < live->len; i++)
    refresh_name (self, g_ptr_array_index (live, i));

  if (live->len == 0)
    {
      self->live_source = NULL;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
ensure_live_check (StrobeStore *self)
{
  if (self->live_source != NULL)
    return;
  self->live_source = g_timeout_source_new (LIVE_CHECK_MS);
  g_source_set_callback (self->live_source, live_check_cb, self, NULL);
  g_source_set_static_name (self->live_source, "[strobe] store live check");
  g_source_attach (self->live_source, self->context);
  g_source_unref (self->live_source);
}

/* Looks at one trace again and brings the model in line with its files. */
/* A finished trace whose file does not say when it ended, read to its end before: its end
 * as the reader learnt it (strobe_store_note_trace_end), while the file is unchanged. */
static void
known_end (StrobeStore      *self,
           const char       *path,
           StrobeTraceProbe *probe)
{
  if (probe->end_time_ns == 0 && self->ends != NULL
      && (probe->status == STROBE_TRACE_STATUS_FINISHED || probe->status == STROBE_TRACE_STATUS_CUT_OFF))
    probe->end_time_ns = strobe_store_ends_lookup (self->ends, path, probe->size);
}

static void
refresh_name (StrobeStore *self,
              const char  *name)
{
  g_autofree char *path = path_for_name (self, name);
  g_auto(StrobeTraceProbe) probe = { 0 };
  StrobeTrace *trace = g_hash_table_lookup (self->by_name, name);
  StrobeTrace *other;

  if (!strobe_trace_file_probe (path, TRUE, &probe, NULL))
    {
      g_hash_table_remove (self->shrunk, name);
      if (trace != NULL)
        remove_trace (self, trace);
      return;
    }

  /* A recorder only appends. A live file that got smaller was truncated or replaced by
   * someone else: what readers already have may be gone, and "live" with whatever size
   * is there now would be a lie. It stays cut off, saying why, while the marker lasts. */
  if (probe.status != STROBE_TRACE_STATUS_LIVE)
    g_hash_table_remove (self->shrunk, name);
  else if (trace != NULL)
    {
      const char *why = g_hash_table_lookup (self->shrunk, name);

      if (why == NULL && strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_LIVE
          && probe.size < strobe_trace_get_size (trace))
        {
          char *reason = g_strdup_printf (_("The file shrank from %" PRIu64 " to %" PRIu64
                                            " bytes while it was being "
                                            "recorded: something other than the recorder "
                                            "truncated or replaced it"),
                                          strobe_trace_get_size (trace), probe.size);

          g_message ("Store: %s: %s", name, reason);
          g_hash_table_insert (self->shrunk, g_strdup (name), reason);
          why = reason;
        }
      if (why != NULL)
        {
          probe.status = STROBE_TRACE_STATUS_CUT_OFF;
          g_free (probe.reason);
          probe.reason = g_strdup (why);
        }
    }

  known_end (self, path, &probe);

  /* Two files with the same id: a trace copied in together with its .info. The newcomer
   * gets a fresh id so ids stay unique within the store. */
  other = g_hash_table_lookup (self->by_id, probe.id);
  if (other != NULL && other != trace)
    {
      g_free (probe.id);
      probe.id = strobe_trace_file_new_id ();
      if (probe.status != STROBE_TRACE_STATUS_LIVE)
        strobe_trace_file_write_info (path, &probe, TRUE, NULL);
    }

  if (trace == NULL)
    {
      trace = _strobe_trace_new (name, path, &probe);
      g_hash_table_insert (self->by_name, g_strdup (name), trace);
      g_hash_table_insert (self->by_id, g_strdup (probe.id), trace);
      g_list_store_append (self->traces, trace);
      g_object_unref (trace);   /* the list holds it */
      bump_serial (self);
      g_signal_emit (self, signals[TRACE_ADDED], 0, trace);
    }
  else
    {
      g_autofree char *old_id = g_strdup (strobe_trace_get_id (trace));

      if (_strobe_trace_update (trace, name, path, &probe))
        {
          if (g_strcmp0 (old_id, probe.id) != 0)
            {
              g_hash_table_remove (self->by_id, old_id);
              g_hash_table_insert (self->by_id, g_strdup (probe.id), trace);
            }
          bump_serial (self);
          emit_trace_changed (self, trace);
        }
    }

  if (probe.status == STROBE_TRACE_STATUS_LIVE || g_hash_table_contains (self->shrunk, name))
    ensure_live_check (self);
}

static gboolean
pending_cb (gpointer user_data)
{
  StrobeStore *self = user_data;
  g_autoptr(GHashTable) pending = g_steal_pointer (&self->pending);
  GHashTableIter iter;
  const char *name;

  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pending_source = NULL;

  g_hash_table_iter_init (&iter, pending);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    refresh_name (self, name);

  return G_SOURCE_REMOVE;
}

static void
queue_file (StrobeStore *self,
            GFile       *file)
{
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;

  if (file == NULL)
    return;
  basename = g_file_get_basename (file);
  name = name_from_file_name (basename);
  if (name == NULL)
    return;

  g_hash_table_add (self->pending, g_steal_pointer (&name));
  if (self->pending_source == NULL)
    {
      self->pending_source = g_timeout_source_new (PENDING_DELAY_MS);
      g_source_set_callback (self->pending_source, pending_cb, self, NULL);
      g_source_set_static_name (self->pending_source, "[strobe] store refresh");
      g_source_attach (self->pending_source, self->context);
      g_source_unref (self->pending_source);
    }
}

static void
monitor_changed_cb (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other_file,
                    GFileMonitorEvent  event,
                    StrobeStore       *self)
{
  switch (event)
    {
    case G_FILE_MONITOR_EVENT_RENAMED:
    case G_FILE_MONITOR_EVENT_MOVED:
      queue_file (self, file);
      queue_file (self, other_file);
      break;
    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_CHANGED:
    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
    case G_FILE_MONITOR_EVENT_DELETED:
    case G_FILE_MONITOR_EVENT_MOVED_IN:
    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      queue_file (self, file);
      break;
    case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
    case G_FILE_MONITOR_EVENT_PRE_UNMOUNT:
    case G_FILE_MONITOR_EVENT_UNMOUNTED:
    default:
      break;
    }
}

/* ---- external traces ------------------------------------------------------------------ */

static char *
external_list_path (StrobeStore *self)
{
  return g_build_filename (self->directory, EXTERNAL_LIST, NULL);
}

static gboolean
save_external_list (StrobeStore  *self,
                    GError      **error)
{
  g_autofree char *path = external_list_path (self);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->external_paths->len; i++)
    g_string_append_printf (text, "%s\n", (const char *) g_ptr_array_index (self->external_paths, i));
  return g_file_set_contents (path, text->str, (gssize) text->len, error);
}

static void
load_external_list (StrobeStore *self)
{
  g_autofree char *path = external_list_path (self);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_path_is_absolute (lines[i]))
      g_ptr_array_add (self->external_paths, g_strdup (lines[i]));
}

/* Stable across restarts and unlike the directory's random ids: made from the path. */
static char *
external_id (const char *path)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, path, -1);

  return g_strndup (sum, 16);
}

/* Looks at an external file again: listed while it can be read as a trace. The store
 * writes nothing beside it (no sidecar): it is the user's file. */
static StrobeTrace *
refresh_external (StrobeStore *self,
                  const char  *path)
{
  g_auto(StrobeTraceProbe) probe = { 0 };
  StrobeTrace *trace = g_hash_table_lookup (self->external, path);
  g_autofree char *basename = g_path_get_basename (path);
  g_autofree char *name = NULL;

  if (!strobe_trace_file_probe (path, FALSE, &probe, NULL) || probe.status == STROBE_TRACE_STATUS_INVALID)
    {
      /* Gone (an unmounted disk, a deleted file): off the list on screen, still
       * remembered, back when it is. */
      if (trace != NULL)
        remove_trace (self, trace);
      return NULL;
    }
  g_free (probe.id);
  probe.id = external_id (path);
  probe.external = TRUE;
  known_end (self, path, &probe);
  name = g_str_has_suffix (basename, STROBE_TRACE_SUFFIX) && strlen (basename) > strlen (STROBE_TRACE_SUFFIX)
         ? g_strndup (basename, strlen (basename) - strlen (STROBE_TRACE_SUFFIX))
         : g_strdup (basename);

  if (trace == NULL)
    {
      trace = _strobe_trace_new (name, path, &probe);
      g_hash_table_insert (self->external, g_strdup (path), trace);
      g_hash_table_insert (self->by_id, g_strdup (probe.id), trace);
      g_list_store_append (self->traces, trace);
      g_object_unref (trace);   /* the list holds it */
      bump_serial (self);
      g_signal_emit (self, signals[TRACE_ADDED], 0, trace);
    }
  else if (_strobe_trace_update (trace, name, path, &probe))
    {
      bump_serial (self);
      emit_trace_changed (self, trace);
    }
  return trace;
}

StrobeTrace *
strobe_store_add_external (StrobeStore  *self,
                           const char   *path,
                           GError      **error)
{
  g_autofree char *canonical = NULL;
  g_autofree char *directory = NULL;
  g_autofree char *store_directory = NULL;
  g_auto(StrobeTraceProbe) probe = { 0 };
  StrobeTrace *trace;

  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  canonical = g_canonicalize_filename (path, NULL);
  directory = g_path_get_dirname (canonical);
  store_directory = g_canonicalize_filename (self->directory, NULL);
  if (g_str_equal (directory, store_directory))
    {
      g_autofree char *basename = g_path_get_basename (canonical);
      g_autofree char *name = name_from_file_name (basename);

      if (name != NULL && g_str_has_suffix (basename, STROBE_TRACE_SUFFIX))
        {
          refresh_name (self, name);
          if ((trace = g_hash_table_lookup (self->by_name, name)) != NULL)
            return trace;
        }
    }
  if ((trace = g_hash_table_lookup (self->external, canonical)) != NULL)
    return trace;

  if (!strobe_trace_file_probe (canonical, FALSE, &probe, error))
    return NULL;
  if (probe.status == STROBE_TRACE_STATUS_INVALID)
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_INVALID_NAME,
                   _("%s is not a Strobe trace: %s"), canonical, probe.reason ? probe.reason : "");
      return NULL;
    }
  g_ptr_array_add (self->external_paths, g_strdup (canonical));
  if (!save_external_list (self, error))
    {
      g_ptr_array_remove_index (self->external_paths, self->external_paths->len - 1);
      return NULL;
    }
  trace = refresh_external (self, canonical);
  if (trace == NULL)
    g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_IO, _("Cannot read %s"), canonical);
  return trace;
}

/* Forgets an external trace: off the list and out of .external-traces; the file stays. */
static gboolean
forget_external (StrobeStore  *self,
                 StrobeTrace  *trace,
                 GError      **error)
{
  g_autoptr(StrobeTrace) hold = g_object_ref (trace);

  for (guint i = 0; i < self->external_paths->len; i++)
    if (g_str_equal (g_ptr_array_index (self->external_paths, i), strobe_trace_get_path (trace)))
      g_ptr_array_remove_index (self->external_paths, i--);
  if (!save_external_list (self, error))
    return FALSE;
  remove_trace (self, trace);
  return TRUE;
}

void
strobe_store_rescan (StrobeStore *self)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();
  GHashTableIter iter;
  StrobeTrace *trace;
  const char *basename;

  g_return_if_fail (STROBE_IS_STORE (self));

  dir = g_dir_open (self->directory, 0, NULL);
  while (dir != NULL && (basename = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_suffix (basename, STROBE_TRACE_SUFFIX))
        {
          g_autofree char *name = name_from_file_name (basename);
          if (name != NULL)
            g_hash_table_add (seen, g_steal_pointer (&name));
        }
    }

  g_hash_table_iter_init (&iter, self->by_name);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &trace))
    if (!g_hash_table_contains (seen, strobe_trace_get_name (trace)))
      g_ptr_array_add (gone, trace);
  for (guint i = 0; i < gone->len; i++)
    remove_trace (self, g_ptr_array_index (gone, i));

  g_hash_table_iter_init (&iter, seen);
  while (g_hash_table_iter_next (&iter, (gpointer *) &basename, NULL))
    refresh_name (self, basename);
  for (guint i = 0; i < self->external_paths->len; i++)
    refresh_external (self, g_ptr_array_index (self->external_paths, i));
}

static gboolean
strobe_store_initable_init (GInitable     *initable,
                            GCancellable  *cancellable,
                            GError       **error)
{
  StrobeStore *self = STROBE_STORE (initable);
  g_autoptr(GFile) dir = NULL;

  if (self->directory == NULL)
    self->directory = strobe_store_dup_default_directory ();

  if (g_mkdir_with_parents (self->directory, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot create the trace store %s: %s"), self->directory, g_strerror (saved));
      return FALSE;
    }

  dir = g_file_new_for_path (self->directory);
  self->monitor = g_file_monitor_directory (dir, G_FILE_MONITOR_WATCH_MOVES, cancellable, error);
  if (self->monitor == NULL)
    return FALSE;
  g_signal_connect_object (self->monitor, "changed", G_CALLBACK (monitor_changed_cb), self, 0);

  self->ends = strobe_store_ends_new (self->directory);
  load_external_list (self);
  strobe_store_rescan (self);
  return TRUE;
}

static void
strobe_store_initable_iface_init (GInitableIface *iface)
{
  iface->init = strobe_store_initable_init;
}

static void
strobe_store_dispose (GObject *object)
{
  StrobeStore *self = STROBE_STORE (object);

  if (self->pending_source != NULL)
    {
      g_source_destroy (self->pending_source);
      self->pending_source = NULL;
    }
  if (self->live_source != NULL)
    {
      g_source_destroy (self->live_source);
      self->live_source = NULL;
    }
  if (self->monitor != NULL)
    {
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }

  G_OBJECT_CLASS (strobe_store_parent_class)->dispose (object);
}

static void
strobe_store_finalize (GObject *object)
{
  StrobeStore *self = STROBE_STORE (object);

  g_hash_table_unref (self->by_name);
  g_hash_table_unref (self->by_id);
  g_hash_table_unref (self->pending);
  g_hash_table_unref (self->shrunk);
  g_hash_table_unref (self->external);
  g_ptr_array_unref (self->external_paths);
  g_clear_pointer (&self->ends, strobe_store_ends_free);
  g_object_unref (self->traces);
  g_object_unref (self->sessions);
  g_main_context_unref (self->context);
  g_free (self->directory);

  G_OBJECT_CLASS (strobe_store_parent_class)->finalize (object);
}

static void
strobe_store_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  StrobeStore *self = STROBE_STORE (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:     g_value_set_string (value, self->directory); break;
    case PROP_CHANGE_SERIAL: g_value_set_uint64 (value, self->change_serial); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_store_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  StrobeStore *self = STROBE_STORE (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY: self->directory = g_value_dup_string (value); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_store_class_init (StrobeStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_store_dispose;
  object_class->finalize = strobe_store_finalize;
  object_class->get_property = strobe_store_get_property;
  object_class->set_property = strobe_store_set_property;

  properties[PROP_DIRECTORY] =
    g_param_spec_string ("directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CHANGE_SERIAL] =
    g_param_spec_uint64 ("change-serial", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Each carries the StrobeTrace; for trace-removed it is no longer in the list. */
  signals[TRACE_ADDED] = g_signal_new ("trace-added", G_TYPE_FROM_CLASS (klass),
                                       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 1, STROBE_TYPE_TRACE);
  signals[TRACE_CHANGED] = g_signal_new ("trace-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, STROBE_TYPE_TRACE);
  signals[TRACE_REMOVED] = g_signal_new ("trace-removed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, STROBE_TYPE_TRACE);
  signals[SESSION_ADDED] = g_signal_new ("session-added", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, STROBE_TYPE_LIVE_CONNECTION);
  signals[SESSION_REMOVED] = g_signal_new ("session-removed", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 1, STROBE_TYPE_LIVE_CONNECTION);
  /* A user group was made or deleted (strobe-store-group.h); carries its name. A session
   * group changes with its members' trace-* signals. */
  signals[GROUP_CHANGED] = g_signal_new ("group-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
strobe_store_init (StrobeStore *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->traces = g_list_store_new (STROBE_TYPE_TRACE);
  self->sessions = g_list_store_new (STROBE_TYPE_LIVE_CONNECTION);
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->shrunk = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->external = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->external_paths = g_ptr_array_new_with_free_func (g_free);
}

StrobeStore *
strobe_store_new (const char  *directory,
                  GError     **error)
{
  return g_initable_new (STROBE_TYPE_STORE, NULL, error, "directory", directory, NULL);
}

const char *
strobe_store_get_directory (StrobeStore *self)
{
  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);
  return self->directory;
}

guint64
strobe_store_get_change_serial (StrobeStore *self)
{
  g_return_val_if_fail (STROBE_IS_STORE (self), 0);
  return self->change_serial;
}

GListModel *
strobe_store_get_traces (StrobeStore *self)
{
  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);
  return G_LIST_MODEL (self->traces);
}

StrobeTrace *
strobe_store_lookup_trace (StrobeStore *self,
                           const char  *id)
{
  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);
  return id ? g_hash_table_lookup (self->by_id, id) : NULL;
}

static StrobeTrace *
lookup_or_error (StrobeStore  *self,
                 const char   *id,
                 GError      **error)
{
  StrobeTrace *trace = strobe_store_lookup_trace (self, id);

  if (trace == NULL)
    g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND,
                 _("No trace with id “%s”"), id ? id : "");
  return trace;
}

/* A name that is safe as a file name in the store and cannot escape it, and that shows
 * as what it is wherever it is printed: no control character (C0, DEL, C1 such as
 * U+0085 NEXT LINE), no line or paragraph separator, and no bidirectional formatting
 * character (U+202E RIGHT-TO-LEFT OVERRIDE turns "evil.exe" into "exe.live"). */
static gboolean
valid_trace_name (const char *name)
{
  gsize len = name ? strlen (name) : 0;

  if (len == 0 || len > 200 || name[0] == '.' || !g_utf8_validate (name, (gssize) len, NULL))
    return FALSE;
  for (const char *p = name; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '/' || c == '\\' || c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029
          || c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e)
          || (c >= 0x2066 && c <= 0x2069))
        return FALSE;
    }
  return TRUE;
}

gboolean
strobe_store_rename_trace (StrobeStore  *self,
                           const char   *id,
                           const char   *new_name,
                           GError      **error)
{
  StrobeTrace *trace;
  g_autofree char *new_path = NULL;
  g_autofree char *old_name = NULL;
  g_auto(StrobeTraceProbe) probe = { 0 };

  g_return_val_if_fail (STROBE_IS_STORE (self), FALSE);

  if ((trace = lookup_or_error (self, id, error)) == NULL)
    return FALSE;
  if (!valid_trace_name (new_name))
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_INVALID_NAME,
                   _("“%s” cannot be a trace name"), new_name ? new_name : "");
      return FALSE;
    }
  if (g_strcmp0 (new_name, strobe_trace_get_name (trace)) == 0)
    return TRUE;
  if (strobe_trace_get_external (trace))
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_INVALID_NAME,
                   _("%s is not in the trace store: rename it in its own folder"),
                   strobe_trace_get_path (trace));
      return FALSE;
    }
  if (trace_busy (self, trace))
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_BUSY,
                   _("The trace “%s” is still being recorded"), strobe_trace_get_name (trace));
      return FALSE;
    }
  new_path = path_for_name (self, new_name);
  if (g_hash_table_contains (self->by_name, new_name) || g_file_test (new_path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_EXISTS,
                   _("A trace named “%s” already exists"), new_name);
      return FALSE;
    }
  if (!strobe_trace_file_rename (strobe_trace_get_path (trace), new_path, error))
    return FALSE;

  /* Update now rather than when the monitor reports it, so the caller sees the result. */
  old_name = g_strdup (strobe_trace_get_name (trace));
  g_hash_table_remove (self->by_name, old_name);
  g_hash_table_insert (self->by_name, g_strdup (new_name), trace);
  if (strobe_trace_file_probe (new_path, TRUE, &probe, NULL))
    {
      g_autofree char *old_id = g_strdup (strobe_trace_get_id (trace));

      /* An end learnt by reading it goes with the file. */
      if (probe.end_time_ns == 0 && strobe_trace_get_end_time_ns (trace) != 0
          && strobe_store_ends_remember (self->ends, new_path, strobe_trace_get_end_time_ns (trace), NULL))
        probe.end_time_ns = strobe_trace_get_end_time_ns (trace);
      _strobe_trace_update (trace, new_name, new_path, &probe);
      if (g_strcmp0 (old_id, probe.id) != 0)
        {
          g_hash_table_remove (self->by_id, old_id);
          g_hash_table_insert (self->by_id, g_strdup (probe.id), trace);
        }
    }
  bump_serial (self);
  emit_trace_changed (self, trace);
  return TRUE;
}

gboolean
strobe_store_delete_trace (StrobeStore  *self,
                           const char   *id,
                           GError      **error)
{
  StrobeTrace *trace;

  g_return_val_if_fail (STROBE_IS_STORE (self), FALSE);

  if ((trace = lookup_or_error (self, id, error)) == NULL)
    return FALSE;
  if (trace_busy (self, trace))
    {
      g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_BUSY,
                   _("The trace “%s” is still being recorded"), strobe_trace_get_name (trace));
      return FALSE;
    }
  if (strobe_trace_get_external (trace))
    return forget_external (self, trace, error);
  if (!strobe_trace_file_delete (strobe_trace_get_path (trace), error))
    return FALSE;
  strobe_store_ends_forget (self->ends, strobe_trace_get_path (trace));
  remove_trace (self, trace);
  return TRUE;
}

void
strobe_store_note_trace_end (StrobeStore *self,
                             const char  *id,
                             guint64      end_time_ns)
{
  g_autoptr(GError) error = NULL;
  StrobeTrace *trace;
  StrobeTraceStatus status;

  g_return_if_fail (STROBE_IS_STORE (self));
  g_return_if_fail (id != NULL);

  trace = g_hash_table_lookup (self->by_id, id);
  if (trace == NULL || end_time_ns == 0 || strobe_trace_get_end_time_ns (trace) != 0)
    return;
  status = strobe_trace_get_status (trace);
  if (status != STROBE_TRACE_STATUS_FINISHED && status != STROBE_TRACE_STATUS_CUT_OFF)
    return;
  /* Not worth more than a debug line: the duration is only unknown again next time. */
  if (!strobe_store_ends_remember (self->ends, strobe_trace_get_path (trace), end_time_ns, &error))
    g_debug ("Cannot keep the end of %s: %s", strobe_trace_get_path (trace), error->message);
  if (_strobe_trace_set_end_time_ns (trace, end_time_ns))
    {
      bump_serial (self);
      emit_trace_changed (self, trace);
    }
}

GInputStream *
strobe_store_open_trace (StrobeStore  *self,
                         const char   *id,
                         guint64       offset,
                         gboolean      follow,
                         GError      **error)
{
  StrobeTrace *trace;

  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);

  if ((trace = lookup_or_error (self, id, error)) == NULL)
    return NULL;
  return strobe_trace_stream_new (strobe_trace_get_path (trace), offset, follow, error);
}

/* ---- writers: called from recorder threads ------------------------------------------- */

typedef struct
{
  GWeakRef      store;
  GMainContext *context;
} WriterNotify;

typedef struct
{
  GWeakRef  store;
  char     *name;
} WriterNotifyCall;

static void
writer_notify_free (gpointer data)
{
  WriterNotify *wn = data;

  g_weak_ref_clear (&wn->store);
  g_main_context_unref (wn->context);
  g_free (wn);
}

static void
writer_notify_call_free (gpointer data)
{
  WriterNotifyCall *call = data;

  g_weak_ref_clear (&call->store);
  g_free (call->name);
  g_free (call);
}

static gboolean
writer_notify_cb (gpointer data)
{
  WriterNotifyCall *call = data;
  g_autoptr(StrobeStore) self = g_weak_ref_get (&call->store);

  if (self != NULL)
    refresh_name (self, call->name);
  return G_SOURCE_REMOVE;
}

static void
writer_notify (const char *file_name,
               gpointer    user_data)
{
  WriterNotify *wn = user_data;
  WriterNotifyCall *call = g_new0 (WriterNotifyCall, 1);
  g_autoptr(StrobeStore) self = g_weak_ref_get (&wn->store);
  GSource *source = g_idle_source_new ();

  g_weak_ref_init (&call->store, self);
  call->name = name_from_file_name (file_name);
  /* Not g_main_context_invoke(): it would run the callback in this (writer) thread when
   * nobody iterates the store's context. */
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, writer_notify_cb, call, writer_notify_call_free);
  g_source_set_static_name (source, "[strobe] store writer notify");
  g_source_attach (source, wn->context);
  g_source_unref (source);
}

StrobeTraceWriter *
strobe_store_create_writer (StrobeStore  *self,
                            const char   *program,
                            const char   *peer_address,
                            GError      **error)
{
  WriterNotify *wn;

  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);

  wn = g_new0 (WriterNotify, 1);
  g_weak_ref_init (&wn->store, self);
  wn->context = g_main_context_ref (self->context);
  return _strobe_trace_writer_new (self->directory, program, peer_address,
                                   writer_notify, wn, writer_notify_free, error);
}

/* ---- sessions ------------------------------------------------------------------------ */

GListModel *
strobe_store_get_sessions (StrobeStore *self)
{
  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);
  return G_LIST_MODEL (self->sessions);
}

StrobeLiveConnection *
strobe_store_lookup_session (StrobeStore *self,
                             guint64      id)
{
  guint n;

  g_return_val_if_fail (STROBE_IS_STORE (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->sessions));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeLiveConnection) session = g_list_model_get_item (G_LIST_MODEL (self->sessions), i);
      if (strobe_live_connection_get_id (session) == id)
        return session;   /* the list keeps it alive */
    }
  return NULL;
}

void
strobe_store_add_session (StrobeStore   *self,
                          StrobeLiveConnection *session)
{
  g_return_if_fail (STROBE_IS_STORE (self));
  g_return_if_fail (STROBE_IS_LIVE_CONNECTION (session));

  g_list_store_append (self->sessions, session);
  bump_serial (self);
  g_signal_emit (self, signals[SESSION_ADDED], 0, session);
}

void
strobe_store_remove_session (StrobeStore   *self,
                             StrobeLiveConnection *session)
{
  guint position;

  g_return_if_fail (STROBE_IS_STORE (self));
  g_return_if_fail (STROBE_IS_LIVE_CONNECTION (session));

  if (!g_list_store_find (self->sessions, session, &position))
    return;
  g_object_ref (session);
  g_list_store_remove (self->sessions, position);
  bump_serial (self);
  g_signal_emit (self, signals[SESSION_REMOVED], 0, session);
  g_object_unref (session);
}
