/* strobe-log-export.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-export.h"

#include <string.h>

#include "strobe-log-item-private.h"
#include "strobe-log-list-private.h"

#define EXPORT_BATCH 4096
#define EXPORT_FLUSH (1u << 20)

static void
append_field (GString *out, StrobeLogExportFormat format, const char *s)
{
  if (s == NULL)
    s = "";
  if (format == STROBE_LOG_EXPORT_TSV)
    {
      for (; *s; s++)
        switch (*s)
          {
          case '\t': g_string_append (out, "\\t"); break;
          case '\n': g_string_append (out, "\\n"); break;
          case '\r': g_string_append (out, "\\r"); break;
          case '\\': g_string_append (out, "\\\\"); break;
          default:   g_string_append_c (out, *s); break;
          }
      return;
    }
  if (s[strcspn (s, ",\"\n\r")] == '\0')
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      if (*s == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

void
strobe_log_export_append_header (GString               *out,
                                 StrobeLogExportFormat  format)
{
  const char *sep = format == STROBE_LOG_EXPORT_TSV ? "\t" : ",";
  static const char *const names[] = {
    "time_s", "thread", "thread_name", "category", "verbosity", "file", "line", "message",
  };

  g_return_if_fail (out != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (i)
        g_string_append (out, sep);
      g_string_append (out, names[i]);
    }
  g_string_append_c (out, '\n');
}

static void
append_entry (GString                *out,
              StrobeLogExportFormat   format,
              const StrobeLogEntry   *e,
              const char             *text,
              const StrobeTraceClock *clock,
              const char             *thread_name)
{
  char sep = format == STROBE_LOG_EXPORT_TSV ? '\t' : ',';
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.9f", strobe_trace_clock_to_seconds (clock, e->time)));
  g_string_append_printf (out, "%c%u%c", sep, e->thread_id, sep);
  append_field (out, format, thread_name);
  g_string_append_c (out, sep);
  append_field (out, format, e->spec && e->spec->category ? e->spec->category->name : NULL);
  g_string_append_c (out, sep);
  g_string_append (out, strobe_log_verbosity_name (e->verbosity));
  g_string_append_c (out, sep);
  append_field (out, format, e->spec ? e->spec->file : NULL);
  g_string_append_c (out, sep);
  if (e->spec)
    g_string_append_printf (out, "%d", e->spec->line);
  g_string_append_c (out, sep);
  append_field (out, format, text);
  g_string_append_c (out, '\n');
}

void
strobe_log_export_append_item (GString                *out,
                               StrobeLogExportFormat   format,
                               StrobeLogItem          *item,
                               const StrobeTraceClock *clock,
                               const char             *thread_name)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (STROBE_IS_LOG_ITEM (item));
  g_return_if_fail (clock != NULL);

  append_entry (out, format, strobe_log_item_get_entry (item), strobe_log_item_get_text (item),
                clock, thread_name);
}

typedef struct
{
  StrobeLogModel        *model;
  StrobeLogOrder        *order;
  GArray                *positions;   /* NULL: all of @order */
  StrobeLogExportFormat  format;
  StrobeTraceClock       clock;
  GHashTable            *thread_names;
  GFile                 *file;
} Export;

static void
export_free (gpointer data)
{
  Export *x = data;

  g_object_unref (x->model);
  strobe_log_order_unref (x->order);
  g_clear_pointer (&x->positions, g_array_unref);
  g_hash_table_unref (x->thread_names);
  g_object_unref (x->file);
  g_free (x);
}

static gboolean
write_out (GOutputStream *stream, GString *buf, GCancellable *cancellable, GError **error)
{
  gboolean ok = g_output_stream_write_all (stream, buf->str, buf->len, NULL, cancellable, error);

  g_string_truncate (buf, 0);
  return ok;
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Export *x = task_data;
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GString) buf = g_string_sized_new (EXPORT_FLUSH + 4096);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree StrobeLogEntry *batch = g_new (StrobeLogEntry, EXPORT_BATCH);
  GError *error = NULL;
  guint64 n = x->positions ? x->positions->len : x->order->n, rows = 0;

  stream = g_file_replace (x->file, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, &error);
  if (stream == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  strobe_log_export_append_header (buf, x->format);
  for (guint64 i = 0; i < n; )
    {
      guint got = 0;

      if (x->positions == NULL)
        got = strobe_log_model_read (x->model, x->order, i, EXPORT_BATCH, batch);
      else
        for (; got < EXPORT_BATCH && i + got < n; got++)
          strobe_log_model_read (x->model, x->order, g_array_index (x->positions, guint32, i + got), 1, &batch[got]);
      for (guint k = 0; k < got; k++)
        {
          strobe_log_model_format_entry (&batch[k], text);
          append_entry (buf, x->format, &batch[k], text->str, &x->clock,
                        g_hash_table_lookup (x->thread_names, GUINT_TO_POINTER (batch[k].thread_id)));
        }
      i += got;
      rows += got;
      if (got == 0)
        break;
      if (buf->len >= EXPORT_FLUSH && !write_out (G_OUTPUT_STREAM (stream), buf, cancellable, &error))
        break;
    }
  if (error == NULL)
    write_out (G_OUTPUT_STREAM (stream), buf, cancellable, &error);
  if (error == NULL)
    g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    {
      guint64 *result = g_new (guint64, 1);

      *result = rows;
      g_task_return_pointer (task, result, g_free);
    }
}

void
strobe_log_export_async (StrobeLogList          *list,
                         StrobeLogExportFormat   format,
                         const StrobeTraceClock *clock,
                         GHashTable             *thread_names,
                         GFile                  *file,
                         GCancellable           *cancellable,
                         GAsyncReadyCallback     callback,
                         gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  Export *x;

  g_return_if_fail (STROBE_IS_LOG_LIST (list));
  g_return_if_fail (clock != NULL);
  g_return_if_fail (G_IS_FILE (file));

  x = g_new0 (Export, 1);
  x->model = g_object_ref (strobe_log_list_get_model (list));
  strobe_log_list_dup_state (list, &x->order, &x->positions);
  x->format = format;
  x->clock = *clock;
  x->thread_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  if (thread_names != NULL)
    {
      GHashTableIter it;
      gpointer key, value;

      g_hash_table_iter_init (&it, thread_names);
      while (g_hash_table_iter_next (&it, &key, &value))
        g_hash_table_insert (x->thread_names, key, g_strdup (value));
    }
  x->file = g_object_ref (file);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, strobe_log_export_async);
  g_task_set_name (task, "[strobe] log export");
  g_task_set_task_data (task, x, export_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
strobe_log_export_finish (GAsyncResult  *result,
                          guint64       *rows,
                          GError       **error)
{
  g_autofree guint64 *n = NULL;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  n = g_task_propagate_pointer (G_TASK (result), error);
  if (n == NULL)
    return FALSE;
  if (rows)
    *rows = *n;
  return TRUE;
}
