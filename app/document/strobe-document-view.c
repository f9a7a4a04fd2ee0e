/* strobe-document-view.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-channels-panel.h"
#include "strobe-document-view.h"
#include "strobe-format.h"
#include "strobe-live-bar.h"
#include "strobe-overview-view.h"

struct _StrobeDocumentView
{
  GtkWidget           parent_instance;

  StrobeDocument     *document;

  GtkStack           *stack;
  GtkLabel           *loading_label;
  GtkProgressBar     *progress_bar;
  GtkButton          *cancel_button;
  GtkInfoBar         *notice_bar;
  GtkLabel           *notice_label;
  GtkBox             *overview_box;
  StrobeOverviewView *overview;
  GtkWidget          *channels_panel;
  GtkWidget          *live_bar;
  GtkLabel           *failed_title;
  GtkLabel           *failed_label;
};

G_DEFINE_FINAL_TYPE (StrobeDocumentView, strobe_document_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
progress_changed_cb (StrobeDocumentView *self)
{
  g_autofree char *read = strobe_format_size (strobe_document_get_bytes_read (self->document));
  g_autofree char *total = strobe_format_size (strobe_document_get_bytes_total (self->document));
  /* Translators: loading progress, e.g. "1.2 MB of 40 MB" */
  g_autofree char *text = g_strdup_printf (_("%s of %s"), read, total);

  gtk_progress_bar_set_fraction (self->progress_bar, strobe_document_get_progress (self->document));
  gtk_progress_bar_set_text (self->progress_bar, text);
}

static void
cancel_clicked_cb (StrobeDocumentView *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), FALSE);
  strobe_document_cancel (self->document);
}

static void
show_error_dialog (StrobeDocumentView *self,
                   const GError       *error)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *name = g_file_get_parse_name (strobe_document_get_file (self->document));
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                   strobe_document_get_status (self->document) == STROBE_DOCUMENT_STATUS_FAILED
                                   ? _("Could not open “%s”")
                                   : _("Could not read all of “%s”"),
                                   strobe_document_get_title (self->document));
  if (strobe_document_get_status (self->document) == STROBE_DOCUMENT_STATUS_FAILED)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s\n\n%s",
                                              name, error->message);
  else
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s\n\n%s\n\n%s",
                                              name, error->message,
                                              _("The part of the trace before this point is shown."));
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StrobeDocumentView) self = user_data;
  g_autoptr(GError) error = NULL;
  StrobeDocumentStatus status;

  strobe_document_load_finish (STROBE_DOCUMENT (object), result, &error);
  status = strobe_document_get_status (self->document);

  if (status == STROBE_DOCUMENT_STATUS_FAILED)
    {
      g_autofree char *title = g_strdup_printf (_("Could not open “%s”"),
                                                strobe_document_get_title (self->document));

      gtk_label_set_text (self->failed_title, title);
      gtk_label_set_text (self->failed_label, error ? error->message : "");
      gtk_stack_set_visible_child_name (self->stack, "failed");
    }
  else
    {
      strobe_overview_view_set_document (self->overview, self->document);
      if (status == STROBE_DOCUMENT_STATUS_DAMAGED || status == STROBE_DOCUMENT_STATUS_CANCELLED)
        {
          g_autofree char *read = strobe_format_size (strobe_document_get_bytes_read (self->document));
          g_autofree char *text = NULL;

          if (status == STROBE_DOCUMENT_STATUS_CANCELLED)
            /* Translators: %s is a size such as "12 MB" */
            text = g_strdup_printf (_("Loading was cancelled: only the first %s of this trace are shown."), read);
          else
            /* Translators: the second %s is the decoder's message, which names the byte offset */
            text = g_strdup_printf (_("This trace is damaged: only the part before the error is shown (%s read). %s"),
                                    read, error->message);
          gtk_label_set_text (self->notice_label, text);
          gtk_info_bar_set_message_type (self->notice_bar,
                                         status == STROBE_DOCUMENT_STATUS_DAMAGED ? GTK_MESSAGE_ERROR
                                                                                  : GTK_MESSAGE_WARNING);
          gtk_info_bar_set_revealed (self->notice_bar, TRUE);
        }
      gtk_stack_set_visible_child_name (self->stack, "overview");
    }

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error_dialog (self, error);
}

static void
strobe_document_view_constructed (GObject *object)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (object);
  g_autofree char *text = NULL;

  G_OBJECT_CLASS (strobe_document_view_parent_class)->constructed (object);

  text = g_strdup_printf (_("Reading “%s”…"), strobe_document_get_title (self->document));
  gtk_label_set_text (self->loading_label, text);
  g_signal_connect_object (self->document, "notify::progress",
                           G_CALLBACK (progress_changed_cb), self, G_CONNECT_SWAPPED);
  progress_changed_cb (self);
  strobe_document_load_async (self->document, NULL, load_cb, g_object_ref (self));

  /* A live trace shows what it has at once and fills in as it grows, with its channels
   * beside it and the live figures under it. */
  if (strobe_document_is_live (self->document))
    {
      GtkWidget *page = gtk_widget_get_parent (GTK_WIDGET (self->overview_box));

      self->channels_panel = strobe_channels_panel_new (self->document);
      gtk_widget_set_size_request (self->channels_panel, 260, -1);
      gtk_box_append (self->overview_box, self->channels_panel);
      self->live_bar = strobe_live_bar_new (self->document);
      gtk_box_append (GTK_BOX (page), self->live_bar);
      strobe_overview_view_set_document (self->overview, self->document);
      gtk_stack_set_visible_child_name (self->stack, "overview");
    }
}

static void
strobe_document_view_dispose (GObject *object)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_DOCUMENT_VIEW);
  /* The template's unnamed children too. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (strobe_document_view_parent_class)->dispose (object);
}

static void
strobe_document_view_finalize (GObject *object)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (object);

  g_clear_object (&self->document);

  G_OBJECT_CLASS (strobe_document_view_parent_class)->finalize (object);
}

static void
strobe_document_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT: g_value_set_object (value, self->document); break;
    default:            G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_document_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT: self->document = g_value_dup_object (value); break;
    default:            G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_document_view_class_init (StrobeDocumentViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = strobe_document_view_constructed;
  object_class->dispose = strobe_document_view_dispose;
  object_class->finalize = strobe_document_view_finalize;
  object_class->get_property = strobe_document_view_get_property;
  object_class->set_property = strobe_document_view_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, STROBE_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (STROBE_TYPE_OVERVIEW_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/document/strobe-document-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, loading_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, notice_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, notice_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, overview_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, overview);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, failed_title);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, failed_label);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
}

static void
strobe_document_view_init (StrobeDocumentView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
strobe_document_view_new (StrobeDocument *document)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);

  return g_object_new (STROBE_TYPE_DOCUMENT_VIEW, "document", document, NULL);
}

GtkWidget *
strobe_document_view_get_channels_panel (StrobeDocumentView *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT_VIEW (self), NULL);
  return self->channels_panel;
}

StrobeDocument *
strobe_document_view_get_document (StrobeDocumentView *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT_VIEW (self), NULL);
  return self->document;
}

void
strobe_document_view_focus_search (StrobeDocumentView *self)
{
  g_return_if_fail (STROBE_IS_DOCUMENT_VIEW (self));

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "overview") == 0)
    strobe_overview_view_focus_search (self->overview);
}
