/* widget-find.c — see widget-find.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "widget-find.h"

/* What a label or an inscription shows when it is on screen; NULL for anything else. */
static const char *
shown_text (GtkWidget *widget)
{
  const char *shown = NULL;

  if (GTK_IS_LABEL (widget))
    shown = gtk_label_get_text (GTK_LABEL (widget));
  else if (GTK_IS_INSCRIPTION (widget))
    shown = gtk_inscription_get_text (GTK_INSCRIPTION (widget));
  return shown != NULL && gtk_widget_get_mapped (widget) ? shown : NULL;
}

GtkWidget *
find_where (GtkWidget     *widget,
            gboolean     (*match) (GtkWidget *widget, gconstpointer data),
            gconstpointer  data)
{
  if (match (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_where (child, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_named (GtkWidget *widget, gconstpointer name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  return find_where (widget, is_named, name);
}

static gboolean
is_of_type (GtkWidget *widget, gconstpointer type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, *(const GType *) type);
}

GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  return find_where (widget, is_of_type, &type);
}

GtkWidget *
find_text_full (GtkWidget  *widget,
                const char *text,
                gboolean    prefix)
{
  const char *shown = shown_text (widget);

  if (shown != NULL && (prefix ? g_str_has_prefix (shown, text) : g_str_equal (shown, text)))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_text_full (child, text, prefix);

      if (found != NULL)
        return found;
    }
  return NULL;
}

guint
count_text (GtkWidget  *widget,
            const char *text)
{
  const char *shown = shown_text (widget);
  guint n = shown != NULL && g_str_equal (shown, text) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_text (child, text);
  return n;
}

static void
clipboard_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  char **out = data;

  *out = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (*out == NULL)
    *out = g_strdup ("");
}

char *
clipboard_text (GtkWidget *widget)
{
  char *text = NULL;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, clipboard_cb, &text);
  while (text == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out reading the clipboard");
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
  return text;
}

void
async_result_keep (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  GAsyncResult **slot = data;

  *slot = g_object_ref (result);
}

GAsyncResult *
async_result_wait (GAsyncResult **slot)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (*slot == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting for an async call");
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
  return *slot;
}
