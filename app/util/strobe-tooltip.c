/* strobe-tooltip.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-tooltip.h"

#include <string.h>

#define TEXT_KEY "strobe-tooltip-text"

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (widget), TEXT_KEY);

  if (*text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
strobe_tooltip_set_text (GtkWidget  *widget,
                         const char *text)
{
  const char *old;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text == NULL)
    text = "";
  /* Kept as "" when there is none: a widget with the key has its handler. */
  old = g_object_get_data (G_OBJECT (widget), TEXT_KEY);
  if (old == NULL)
    {
      g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
      gtk_widget_set_has_tooltip (widget, TRUE);
    }
  else if (strcmp (old, text) == 0)
    return;
  g_object_set_data_full (G_OBJECT (widget), TEXT_KEY, g_strdup (text), g_free);
  if (*text != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}
