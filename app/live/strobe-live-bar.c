/* strobe-live-bar.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-format.h"
#include "strobe-live-bar.h"

struct _StrobeLiveBar
{
  GtkWidget       parent_instance;

  StrobeDocument *document;
  GtkWidget      *box;
  GtkLabel       *state_label;
  GtkLabel       *events_label;
  GtkLabel       *bytes_label;
  GtkLabel       *total_label;
  GtkLabel       *dropped_label;
};

G_DEFINE_FINAL_TYPE (StrobeLiveBar, strobe_live_bar, GTK_TYPE_WIDGET)

static void
update (StrobeLiveBar *self)
{
  StrobeDocument *document = self->document;
  gboolean live = strobe_document_is_live (document);
  guint64 dropped = strobe_document_get_dropped_events (document);
  g_autofree char *total = strobe_format_size (strobe_document_get_bytes_read (document));
  g_autofree char *total_text = NULL;
  const char *state;

  gtk_widget_remove_css_class (GTK_WIDGET (self->state_label), "live");
  gtk_widget_remove_css_class (GTK_WIDGET (self->state_label), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->state_label), "warning");
  switch (strobe_document_get_status (document))
    {
    case STROBE_DOCUMENT_STATUS_LIVE:
      /* Translators: the status bar of a trace that is still being recorded */
      state = _("● Live");
      gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "live");
      break;
    case STROBE_DOCUMENT_STATUS_FINISHED:
      state = _("Finished");
      gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "success");
      break;
    case STROBE_DOCUMENT_STATUS_CUT_OFF:
      state = _("Cut off");
      gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "warning");
      break;
    default:
      state = _("Stopped");
      gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "warning");
      break;
    }
  gtk_label_set_text (self->state_label, state);

  if (live)
    {
      g_autofree char *events = strobe_format_count ((guint64) (strobe_document_get_events_per_second (document) + 0.5));
      g_autofree char *bytes = strobe_format_size ((guint64) (strobe_document_get_bytes_per_second (document) + 0.5));
      /* Translators: events received per second, e.g. "12 345 events/s" */
      g_autofree char *events_text = g_strdup_printf (_("%s events/s"), events);
      /* Translators: bytes received per second, e.g. "1.2 MB/s" */
      g_autofree char *bytes_text = g_strdup_printf (_("%s/s"), bytes);

      gtk_label_set_text (self->events_label, events_text);
      gtk_label_set_text (self->bytes_label, bytes_text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->events_label), live);
  gtk_widget_set_visible (GTK_WIDGET (self->bytes_label), live);

  /* Translators: the size of the trace received so far, e.g. "4.1 MB received" */
  total_text = g_strdup_printf (_("%s received"), total);
  gtk_label_set_text (self->total_label, total_text);

  if (dropped > 0)
    {
      g_autofree char *count = strobe_format_count (dropped);
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "⚠ %s event dropped by the program",
                                      "⚠ %s events dropped by the program",
                                      (gulong) MIN (dropped, G_MAXULONG)),
                         count);

      gtk_label_set_text (self->dropped_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->dropped_label), dropped > 0);
}

static GtkLabel *
add_label (StrobeLiveBar *self,
           const char    *tooltip)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_tooltip_text (label, tooltip);
  gtk_box_append (GTK_BOX (self->box), label);
  return GTK_LABEL (label);
}

static void
strobe_live_bar_dispose (GObject *object)
{
  StrobeLiveBar *self = STROBE_LIVE_BAR (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (strobe_live_bar_parent_class)->dispose (object);
}

static void
strobe_live_bar_class_init (StrobeLiveBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_live_bar_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void
strobe_live_bar_init (StrobeLiveBar *self)
{
  GtkWidget *spacer;

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 18);
  gtk_widget_add_css_class (self->box, "strobe-statusbar");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->state_label = add_label (self, _("Whether the program is still sending this trace"));
  gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "strobe-pill");
  self->events_label = add_label (self, _("Events received per second"));
  self->bytes_label = add_label (self, _("Bytes received per second"));
  self->total_label = add_label (self, _("Size of the trace received so far"));
  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (self->box), spacer);
  self->dropped_label = add_label (self, _("The program’s runtime could not keep up and dropped these events: the trace is incomplete"));
  gtk_widget_add_css_class (GTK_WIDGET (self->dropped_label), "strobe-dropped");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Live session status"), -1);
}

GtkWidget *
strobe_live_bar_new (StrobeDocument *document)
{
  StrobeLiveBar *self;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);

  self = g_object_new (STROBE_TYPE_LIVE_BAR, NULL);
  self->document = g_object_ref (document);
  g_signal_connect_object (document, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::status", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);
  return GTK_WIDGET (self);
}
