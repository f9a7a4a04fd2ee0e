/* strobe-help-window.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-help-window.h"

struct _StrobeHelpWindow
{
  GtkWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (StrobeHelpWindow, strobe_help_window, GTK_TYPE_WINDOW)

static void
shortcuts_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (widget));

  if (parent != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.show-help-overlay", NULL);
}

static void
strobe_help_window_class_init (StrobeHelpWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/shell/strobe-help-window.ui");
  gtk_widget_class_install_action (widget_class, "help.shortcuts", NULL, shortcuts_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
strobe_help_window_init (StrobeHelpWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
strobe_help_window_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  return g_object_new (STROBE_TYPE_HELP_WINDOW, "transient-for", parent, NULL);
}
