/* strobe-document-view.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-channels-panel.h"
#include "strobe-document-view.h"
#include "strobe-format.h"
#include "strobe-live-bar.h"
#include "strobe-live-stop.h"
#include "strobe-panes.h"
#include "strobe-tooltip.h"

struct _StrobeDocumentView
{
  GtkWidget        parent_instance;

  StrobeDocument  *document;
  StrobeViewState *state;
  GError          *pending_error;   /* shown once this page is on screen */

  GtkInfoBar      *notice_bar;
  GtkLabel        *notice_label;
  GtkStack        *pages;
  GtkLabel        *loading_label;
  GtkProgressBar  *progress_bar;
  GtkButton       *cancel_button;
  GtkWidget       *header;
  GtkStackSwitcher *switcher;
  GtkWidget       *load_box;
  GtkProgressBar  *load_progress;
  GtkButton       *load_cancel;
  GtkBox          *body;
  GtkStack        *views;
  GtkLabel        *failed_title;
  GtkLabel        *failed_label;
  GtkButton       *failed_close;
  GtkWidget       *channels_panel;
  GtkWidget       *live_bar;
  GtkWidget       *stop_button;     /* a live trace's Stop, in the header */
  gboolean         stopping;        /* the program was asked to stop; its answer is awaited */
};

G_DEFINE_FINAL_TYPE (StrobeDocumentView, strobe_document_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

enum
{
  CLOSE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
progress_changed_cb (StrobeDocumentView *self)
{
  g_autofree char *read = strobe_format_size (strobe_document_get_bytes_read (self->document));
  g_autofree char *total = strobe_format_size (strobe_document_get_bytes_total (self->document));
  /* Translators: loading progress, e.g. "1.2 MB of 40 MB" */
  g_autofree char *text = g_strdup_printf (_("%s of %s"), read, total);
  double fraction = strobe_document_get_progress (self->document);

  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  gtk_progress_bar_set_text (self->progress_bar, text);
  gtk_progress_bar_set_fraction (self->load_progress, fraction);
  strobe_tooltip_set_text (GTK_WIDGET (self->load_progress), text);
}

static void
cancel_clicked_cb (StrobeDocumentView *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->load_cancel), FALSE);
  strobe_document_cancel (self->document);
}

static void
close_clicked_cb (StrobeDocumentView *self)
{
  g_signal_emit (self, signals[CLOSE], 0);
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

/* Only over this trace's own page: a trace that fails while another tab is in front says
 * so when the user comes back to it. */
static void
show_pending_error (StrobeDocumentView *self)
{
  g_autoptr(GError) error = NULL;

  if (self->pending_error == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  error = g_steal_pointer (&self->pending_error);
  show_error_dialog (self, error);
}

/* The views appear once there is something to show: the handshake has been read. */
static void
update_page (StrobeDocumentView *self)
{
  StrobeDocumentStatus status = strobe_document_get_status (self->document);

  if (status == STROBE_DOCUMENT_STATUS_FAILED)
    gtk_stack_set_visible_child_name (self->pages, "failed");
  else if (strobe_document_get_metadata (self->document) != NULL || strobe_document_is_loaded (self->document))
    {
      gboolean first = g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "content") != 0;

      gtk_stack_set_visible_child_name (self->pages, "content");
      if (first && gtk_widget_get_mapped (GTK_WIDGET (self)))
        strobe_view_focus_default (STROBE_VIEW (gtk_stack_get_visible_child (self->views)));
    }
  gtk_widget_set_visible (self->load_box, status == STROBE_DOCUMENT_STATUS_LOADING);
  if (self->stop_button != NULL)
    gtk_widget_set_visible (self->stop_button, strobe_document_is_live (self->document));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "document.stop-recording",
                                 strobe_document_is_live (self->document) && !self->stopping);
}

/* ---- Stop ------------------------------------------------------------------------------ */

static void
stop_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StrobeDocumentView) self = user_data;
  g_autoptr(GError) error = NULL;

  self->stopping = FALSE;
  if (!strobe_live_stop_finish (result, &error) && gtk_widget_get_root (GTK_WIDGET (self)) != NULL)
    strobe_document_view_show_stop_error (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))), error);
  update_page (self);
}

/* document.stop-recording: the program ends its tracing (it keeps running); the trace
 * ends complete once its End arrives, and the store records that the user stopped it. */
static void
stop_recording_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (widget);

  if (self->stopping || !strobe_document_is_live (self->document))
    return;
  self->stopping = TRUE;
  update_page (self);
  strobe_live_stop_async (self->document, NULL, stop_done_cb, g_object_ref (self));
}

void
strobe_document_view_show_stop_error (GtkWindow    *parent,
                                      const GError *error)
{
  GtkWidget *dialog;

  g_return_if_fail (error != NULL);
  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                   "%s", _("Could not stop the recording"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
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
    }
  else if (status == STROBE_DOCUMENT_STATUS_DAMAGED || status == STROBE_DOCUMENT_STATUS_CANCELLED)
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
      strobe_a11y_show_info_bar (self->notice_bar, TRUE);
    }
  update_page (self);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&self->pending_error);
      self->pending_error = g_steal_pointer (&error);
      show_pending_error (self);
    }
}

static void
visible_view_cb (StrobeDocumentView *self)
{
  GtkWidget *view = gtk_stack_get_visible_child (self->views);

  if (view != NULL && gtk_widget_get_mapped (GTK_WIDGET (self)))
    strobe_view_focus_default (STROBE_VIEW (view));
}

static void
add_views (StrobeDocumentView *self)
{
  const GArray *types = strobe_view_get_registered ();

  for (guint i = 0; i < types->len; i++)
    {
      GType type = g_array_index (types, GType, i);
      g_autoptr(GTypeClass) klass = g_type_class_ref (type);
      StrobeView *view = strobe_view_new (type, self->document, self->state);
      GtkStackPage *page;

      page = gtk_stack_add_titled (self->views, GTK_WIDGET (view),
                                   strobe_view_class_get_page_name (STROBE_VIEW_CLASS (klass)),
                                   strobe_view_class_get_title (STROBE_VIEW_CLASS (klass)));
      /* No icon on the page: GtkStackSwitcher would show it instead of the title. */
      gtk_stack_page_set_use_underline (page, TRUE);
      strobe_pane_mark (GTK_WIDGET (view));
    }
}

static void
strobe_document_view_constructed (GObject *object)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (object);
  g_autofree char *text = NULL;

  G_OBJECT_CLASS (strobe_document_view_parent_class)->constructed (object);

  add_views (self);
  strobe_a11y_fix_stack_switcher (self->switcher);
  strobe_pane_mark (GTK_WIDGET (self->switcher));

  text = g_strdup_printf (strobe_document_get_store (self->document) != NULL
                          ? _("Waiting for “%s”…") : _("Reading “%s”…"),
                          strobe_document_get_title (self->document));
  gtk_label_set_text (self->loading_label, text);
  g_signal_connect_object (self->document, "notify::progress",
                           G_CALLBACK (progress_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "changed",
                           G_CALLBACK (update_page), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::status",
                           G_CALLBACK (update_page), self, G_CONNECT_SWAPPED);
  progress_changed_cb (self);
  strobe_document_load_async (self->document, NULL, load_cb, g_object_ref (self));

  /* A live trace has its channels beside the views and the live figures under them. */
  if (strobe_document_is_live (self->document))
    {
      self->channels_panel = strobe_channels_panel_new (self->document);
      gtk_widget_set_size_request (self->channels_panel, 260, -1);
      gtk_box_append (self->body, gtk_separator_new (GTK_ORIENTATION_VERTICAL));
      gtk_box_append (self->body, self->channels_panel);
      strobe_pane_mark (self->channels_panel);
      self->live_bar = strobe_live_bar_new (self->document);
      gtk_widget_set_parent (self->live_bar, GTK_WIDGET (self));
      /* Stop beside the view switcher, where the loading progress is: the recording's own
       * control, always in reach (Tracy and Insights put theirs in the session's toolbar). */
      self->stop_button = gtk_button_new ();
      gtk_button_set_child (GTK_BUTTON (self->stop_button),
                            g_object_new (GTK_TYPE_BOX, "spacing", 6, NULL));
      gtk_box_append (GTK_BOX (gtk_button_get_child (GTK_BUTTON (self->stop_button))),
                      gtk_image_new_from_icon_name ("media-playback-stop-symbolic"));
      gtk_box_append (GTK_BOX (gtk_button_get_child (GTK_BUTTON (self->stop_button))),
                      gtk_label_new_with_mnemonic (_("_Stop Recording")));
      gtk_widget_set_hexpand (self->stop_button, TRUE);
      gtk_widget_set_halign (self->stop_button, GTK_ALIGN_END);
      gtk_widget_add_css_class (self->stop_button, "destructive-action");
      gtk_widget_set_tooltip_text (self->stop_button,
                                   _("End the program’s tracing: it keeps running, the trace ends "
                                     "complete (Shift+F5)"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->stop_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Stop Recording"), -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->stop_button), "document.stop-recording");
      gtk_box_append (GTK_BOX (self->header), self->stop_button);
      strobe_view_state_set_follow_live (self->state, TRUE);
    }
  update_page (self);
}

static void
strobe_document_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (strobe_document_view_parent_class)->map (widget);
  show_pending_error (STROBE_DOCUMENT_VIEW (widget));
}

static void
strobe_document_view_dispose (GObject *object)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_DOCUMENT_VIEW);
  g_clear_pointer (&self->live_bar, gtk_widget_unparent);
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
  g_clear_object (&self->state);
  g_clear_error (&self->pending_error);

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

/* Alt+1…9: the views in order. */
static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (widget);
  int index = g_variant_get_int32 (parameter);
  int i = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->views)); child != NULL;
       child = gtk_widget_get_next_sibling (child), i++)
    if (i == index)
      {
        gtk_stack_set_visible_child (self->views, child);
        strobe_view_focus_default (STROBE_VIEW (child));
        return;
      }
}

/* document.show-page ("log"): a view that points at something another view shows (a log
 * tick in the timeline) brings that view to the front. */
static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  strobe_document_view_show_view (STROBE_DOCUMENT_VIEW (widget), g_variant_get_string (parameter, NULL));
}

/* document.show-in-timeline ((begin, end) in ticks): "Show in Timeline" from a log message,
 * an allocation or a timer. The timeline comes to the front centred on it at the zoom it
 * had (zoomed out when it does not fit), with the cursor at its start; the view that asks
 * has selected the item in the view state already. */
static void
show_in_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (widget);
  guint64 a, b, va, vb, len, mid, start;

  g_variant_get (parameter, "(tt)", &a, &b);
  if (b < a)
    {
      guint64 t = a;
      a = b;
      b = t;
    }
  strobe_view_state_get_visible_range (self->state, &va, &vb);
  len = MAX (vb - va, 1);
  if (b - a > len - len / 10)
    len = (b - a) + (b - a) / 5 + 1;
  mid = a + (b - a) / 2;
  start = mid > len / 2 ? mid - len / 2 : 0;
  strobe_view_state_set_follow_live (self->state, FALSE);
  strobe_view_state_set_visible_range (self->state, start, start + len);
  strobe_view_state_set_cursor (self->state, a);
  strobe_document_view_show_view (self, "timeline");
}

/* Ctrl+F anywhere on the page: the visible view's own "view.find". */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeDocumentView *self = STROBE_DOCUMENT_VIEW (widget);
  GtkWidget *view = gtk_stack_get_visible_child (self->views);

  if (view != NULL)
    gtk_widget_activate_action (view, "view.find", NULL);
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
  widget_class->map = strobe_document_view_map;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, STROBE_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StrobeDocumentView::close:
   *
   * The user asked to close this trace's tab (from the page of a trace that could not
   * be read).
   */
  signals[CLOSE] = g_signal_new ("close", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/document/strobe-document-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, notice_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, notice_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, pages);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, loading_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, header);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, switcher);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, load_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, load_progress);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, load_cancel);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, body);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, views);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, failed_title);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, failed_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeDocumentView, failed_close);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, visible_view_cb);

  gtk_widget_class_install_action (widget_class, "document.show-view", "i", show_view_action);
  for (int i = 0; i < 9; i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_ALT_MASK,
                                         "document.show-view", "i", i);
  gtk_widget_class_install_action (widget_class, "document.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "document.show-in-timeline", "(tt)", show_in_timeline_action);
  gtk_widget_class_install_action (widget_class, "document.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "document.stop-recording", NULL, stop_recording_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "document.find", NULL);
}

static void
strobe_document_view_init (StrobeDocumentView *self)
{
  self->state = strobe_view_state_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_a11y_fix_mnemonic_button (self->cancel_button);
  strobe_a11y_fix_mnemonic_button (self->failed_close);
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

StrobeViewState *
strobe_document_view_get_state (StrobeDocumentView *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT_VIEW (self), NULL);
  return self->state;
}

StrobeView *
strobe_document_view_get_view (StrobeDocumentView *self,
                               const char         *page_name)
{
  GtkWidget *child;

  g_return_val_if_fail (STROBE_IS_DOCUMENT_VIEW (self), NULL);
  g_return_val_if_fail (page_name != NULL, NULL);

  child = gtk_stack_get_child_by_name (self->views, page_name);
  return child ? STROBE_VIEW (child) : NULL;
}

gboolean
strobe_document_view_show_view (StrobeDocumentView *self,
                                const char         *page_name)
{
  StrobeView *view = strobe_document_view_get_view (self, page_name);

  if (view == NULL)
    return FALSE;
  gtk_stack_set_visible_child (self->views, GTK_WIDGET (view));
  strobe_view_focus_default (view);
  return TRUE;
}
