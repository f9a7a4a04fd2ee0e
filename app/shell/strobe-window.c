/* strobe-window.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-connect-dialog.h"
#include "strobe-discovery.h"
#include "strobe-late-connect.h"
#include "strobe-browser-view.h"
#include "strobe-compare-view.h"
#include "strobe-document-view.h"
#include "strobe-group-view.h"
#include "strobe-live-stop.h"
#include "strobe-recent-menu.h"
#include "strobe-a11y.h"
#include "strobe-panes.h"
#include "strobe-window.h"
#include "strobe-x11-shm.h"

struct _StrobeWindow
{
  GtkApplicationWindow  parent_instance;

  GtkButton            *open_button;
  GtkButton            *connect_button;
  GtkMenuButton        *recent_button;
  GtkMenuButton        *primary_button;
  GtkLabel             *title_label;
  GtkLabel             *recorder_label;
  GtkNotebook          *notebook;
  StrobeBrowserView    *browser;

  StrobeServices       *services;      /* the store, the recorder, the settings */
  GListStore           *documents;     /* the open traces, for a comparison's B */
  GtkMapListModel      *store_files;   /* the store's traces as files, newest first */
};

G_DEFINE_FINAL_TYPE (StrobeWindow, strobe_window, GTK_TYPE_APPLICATION_WINDOW)

static StrobeDocumentView *
get_view (StrobeWindow *self,
          int           page)
{
  GtkWidget *child = gtk_notebook_get_nth_page (self->notebook, page);

  return STROBE_IS_DOCUMENT_VIEW (child) ? STROBE_DOCUMENT_VIEW (child) : NULL;
}

static StrobeDocumentView *
get_current_view (StrobeWindow *self)
{
  return get_view (self, gtk_notebook_get_current_page (self->notebook));
}

static void
update_title (StrobeWindow *self)
{
  StrobeDocument *document = strobe_window_get_current_document (self);

  if (document != NULL)
    {
      /* Translators: the window title, the open trace's name then the application's */
      g_autofree char *title = g_strdup_printf (_("%s — Strobe"), strobe_document_get_title (document));

      gtk_window_set_title (GTK_WINDOW (self), title);
      gtk_label_set_text (self->title_label, strobe_document_get_title (document));
    }
  else if (STROBE_IS_GROUP_VIEW (gtk_notebook_get_nth_page (self->notebook, gtk_notebook_get_current_page (self->notebook))))
    {
      StrobeGroupView *group = STROBE_GROUP_VIEW (gtk_notebook_get_nth_page (self->notebook,
                                                  gtk_notebook_get_current_page (self->notebook)));
      g_autofree char *title = g_strdup_printf (_("%s — Strobe"), strobe_group_view_get_title (group));

      gtk_window_set_title (GTK_WINDOW (self), title);
      gtk_label_set_text (self->title_label, strobe_group_view_get_title (group));
    }
  else
    {
      gtk_window_set_title (GTK_WINDOW (self), _("Strobe"));
      gtk_label_set_text (self->title_label, _("Strobe"));
    }
}

static void update_stop_action (StrobeWindow *self);

static void
switch_page_cb (StrobeWindow *self)
{
  update_title (self);
  update_stop_action (self);
}

static void
recorder_changed_cb (StrobeWindow   *self,
                     StrobeServices *services)
{
  g_autofree char *status = strobe_services_dup_recorder_status (services);
  const GError *error = strobe_services_get_recorder_error (services);
  guint16 port = strobe_services_get_recorder_port (services);
  g_autofree char *tooltip = NULL;

  if (error != NULL)
    tooltip = g_strdup (error->message);
  else if (port != 0)
    /* Translators: how a program is pointed at this viewer's recorder */
    tooltip = g_strdup_printf (_("Programs started with STROBE_TRACEHOST=localhost:%u stream their traces here"),
                               port);
  gtk_label_set_text (self->recorder_label, status);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->recorder_label), tooltip);
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->recorder_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->recorder_label), "error");
  strobe_browser_view_set_recorder (self->browser, port, error);
}

static void
browser_open_trace_cb (StrobeWindow *self,
                       GFile        *file)
{
  strobe_window_open_file (self, file);
}

/* ---- tabs ------------------------------------------------------------------------------ */

static void
remove_page (StrobeWindow       *self,
             StrobeDocumentView *view)
{
  int page = gtk_notebook_page_num (self->notebook, GTK_WIDGET (view));
  guint pos;

  if (page < 0)
    return;
  if (g_list_store_find (self->documents, strobe_document_view_get_document (view), &pos))
    g_list_store_remove (self->documents, pos);
  strobe_document_cancel (strobe_document_view_get_document (view));
  gtk_notebook_remove_page (self->notebook, page);
}

enum { CLOSE_KEEP_RECORDING = 1, CLOSE_STOP_RECORDING = 2 };

static void
close_stop_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(StrobeWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!strobe_live_stop_finish (result, &error))
    strobe_document_view_show_stop_error (GTK_WINDOW (self), error);
}

static void
close_live_response_cb (GtkDialog          *dialog,
                        int                 response,
                        StrobeDocumentView *view)
{
  StrobeWindow *self = STROBE_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == CLOSE_STOP_RECORDING)
    strobe_live_stop_async (strobe_document_view_get_document (view), NULL, close_stop_done_cb,
                            g_object_ref (self));
  if (response == CLOSE_KEEP_RECORDING || response == CLOSE_STOP_RECORDING)
    remove_page (self, view);
  g_object_unref (view);
}

/* Closing the tab of a trace that is still being recorded: the program goes on sending
 * whether or not a tab shows it, so ask which the user means (Insights asks the same when
 * a live session's window closes). */
static void
close_page (StrobeWindow *self,
            int           page)
{
  StrobeDocumentView *view = get_view (self, page);
  GtkWidget *child = page >= 0 ? gtk_notebook_get_nth_page (self->notebook, page) : NULL;
  StrobeDocument *document;
  GtkWidget *dialog;

  if (STROBE_IS_GROUP_VIEW (child))
    {
      strobe_group_view_cancel (STROBE_GROUP_VIEW (child));
      gtk_notebook_remove_page (self->notebook, page);
      return;
    }
  if (view == NULL)
    return;
  document = strobe_document_view_get_document (view);
  if (!strobe_document_is_live (document))
    {
      remove_page (self, view);
      return;
    }
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: %s is the trace's name */
                                   _("Keep recording “%s”?"), strobe_document_get_title (document));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("The program is still sending this trace. Keep Recording "
                                              "closes the tab and goes on recording (the trace stays in "
                                              "the Traces list, live); Stop Recording also ends the "
                                              "program’s tracing, and the trace ends complete."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Stop Recording"), CLOSE_STOP_RECORDING,
                          _("_Keep Recording"), CLOSE_KEEP_RECORDING, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), CLOSE_KEEP_RECORDING);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), CLOSE_STOP_RECORDING),
                            "destructive-action");
  g_signal_connect (dialog, "response", G_CALLBACK (close_live_response_cb), g_object_ref (view));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* win.stop-recording (Shift+F5, the menu): the current tab's Stop. */
void
strobe_window_stop_recording (StrobeWindow *self)
{
  StrobeDocumentView *view;

  g_return_if_fail (STROBE_IS_WINDOW (self));
  view = get_current_view (self);
  if (view != NULL)
    gtk_widget_activate_action (GTK_WIDGET (view), "document.stop-recording", NULL);
}

static void
update_stop_action (StrobeWindow *self)
{
  StrobeDocument *document = strobe_window_get_current_document (self);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "stop-recording");

  if (G_IS_SIMPLE_ACTION (action))
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), document != NULL && strobe_document_is_live (document));
}

static void
view_close_cb (StrobeDocumentView *view,
               StrobeWindow       *self)
{
  close_page (self, gtk_notebook_page_num (self->notebook, GTK_WIDGET (view)));
}

static void
tab_close_clicked_cb (GtkButton *button,
                      GtkWidget *view)
{
  StrobeWindow *self = STROBE_WINDOW (gtk_widget_get_root (GTK_WIDGET (button)));

  close_page (self, gtk_notebook_page_num (self->notebook, view));
}

static gboolean
status_to_spinning (GBinding     *binding,
                    const GValue *from,
                    GValue       *to,
                    gpointer      user_data)
{
  /* A live trace has its own light in the status bar; the spinner is for loading. */
  g_value_set_boolean (to, g_value_get_enum (from) <= STROBE_DOCUMENT_STATUS_LOADING);
  return TRUE;
}

static GtkWidget *
create_tab (StrobeWindow   *self,
            StrobeDocument *document,
            GtkWidget      *view)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *spinner = gtk_spinner_new ();
  GtkWidget *label = gtk_label_new (strobe_document_get_title (document));
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");
  g_autofree char *close_name = g_strdup_printf (_("Close “%s”"), strobe_document_get_title (document));
  g_autofree char *path = g_file_get_parse_name (strobe_document_get_file (document));

  g_object_bind_property_full (document, "status", spinner, "spinning", G_BINDING_SYNC_CREATE,
                               status_to_spinning, NULL, NULL, NULL);
  g_object_bind_property (spinner, "spinning", spinner, "visible", G_BINDING_SYNC_CREATE);
  /* A scrollable notebook gives tabs their minimum width: a short name is shown whole (a
   * width in characters would cut "empty", whose letters are wider than the average); a
   * long one is ellipsized to about 28 characters but keeps 16. */
  if (g_utf8_strlen (strobe_document_get_title (document), -1) > 28)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
      gtk_label_set_width_chars (GTK_LABEL (label), 16);
    }
  gtk_widget_set_tooltip_text (label, path);
  gtk_button_set_has_frame (GTK_BUTTON (close), FALSE);
  gtk_widget_add_css_class (close, "strobe-tab-close");
  gtk_widget_set_tooltip_text (close, _("Close (Ctrl+W)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (close), GTK_ACCESSIBLE_PROPERTY_LABEL, close_name, -1);
  g_signal_connect_object (close, "clicked", G_CALLBACK (tab_close_clicked_cb), view, 0);

  gtk_box_append (GTK_BOX (box), spinner);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), close);
  return box;
}

static StrobeServices *
get_services (StrobeWindow *self)
{
  return self->services;
}

/* A trace of the store is opened through it, so a live one is followed. */
static StrobeDocument *
new_document (StrobeWindow *self,
              GFile        *file)
{
  StrobeServices *services = get_services (self);
  StrobeStore *store = services ? strobe_services_get_store (services) : NULL;
  g_autofree char *path = g_file_get_path (file);
  GListModel *traces;

  if (store == NULL || path == NULL)
    return strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  traces = strobe_store_get_traces (store);
  for (guint i = 0; i < g_list_model_get_n_items (traces); i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);

      if (g_strcmp0 (strobe_trace_get_path (trace), path) == 0)
        return strobe_document_new_for_trace (store, trace, STROBE_DOCUMENT_MODEL_ALL);
    }
  /* Opened from elsewhere: the store remembers it, so it is in the Traces list from now on,
   * with its path, as Insights' session browser lists every trace it has opened. A file
   * that is no trace opens as it is, to say why. */
  {
    StrobeTrace *external = strobe_store_add_external (store, path, NULL);

    if (external != NULL)
      return strobe_document_new_for_trace (store, external, STROBE_DOCUMENT_MODEL_ALL);
  }
  return strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
}

StrobeDocument *
strobe_window_open_file (StrobeWindow *self,
                         GFile        *file)
{
  g_autoptr(StrobeDocument) document = NULL;
  GtkWidget *view;
  int page;

  g_return_val_if_fail (STROBE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  for (int i = 0; i < gtk_notebook_get_n_pages (self->notebook); i++)
    {
      StrobeDocumentView *open = get_view (self, i);

      if (open != NULL && g_file_equal (strobe_document_get_file (strobe_document_view_get_document (open)), file))
        {
          gtk_notebook_set_current_page (self->notebook, i);
          return strobe_document_view_get_document (open);
        }
    }

  document = new_document (self, file);
  view = strobe_document_view_new (document);
  g_signal_connect_object (view, "close", G_CALLBACK (view_close_cb), self, 0);
  page = gtk_notebook_append_page (self->notebook, view, create_tab (self, document, view));
  gtk_notebook_set_tab_reorderable (self->notebook, view, TRUE);
  gtk_notebook_set_menu_label_text (self->notebook, view, strobe_document_get_title (document));
  gtk_notebook_set_current_page (self->notebook, page);
  g_list_store_append (self->documents, document);
  g_signal_connect_object (document, "notify::status", G_CALLBACK (update_stop_action), self, G_CONNECT_SWAPPED);
  update_stop_action (self);
  {
    StrobeView *compare = strobe_document_view_get_view (STROBE_DOCUMENT_VIEW (view), "compare");
    if (STROBE_IS_COMPARE_VIEW (compare))
      strobe_compare_view_set_sources (STROBE_COMPARE_VIEW (compare), G_LIST_MODEL (self->documents),
                                       G_LIST_MODEL (self->store_files));
  }
  strobe_recent_menu_add (strobe_document_get_file (document), strobe_document_get_title (document));
  return document;
}

/* The tab of @file (opened if need be) brought to the front on @page. */
static StrobeDocumentView *
show_file (StrobeWindow *self, GFile *file, const char *page)
{
  StrobeDocumentView *view;

  strobe_window_open_file (self, file);
  view = get_current_view (self);
  if (view != NULL)
    strobe_document_view_show_view (view, page);
  return view;
}

void
strobe_window_show_trace (StrobeWindow *self, GFile *file, const char *page, guint64 begin, guint64 end, guint64 pad)
{
  StrobeDocumentView *view;
  StrobeViewState *state;

  g_return_if_fail (STROBE_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file) && page != NULL);

  view = show_file (self, file, page);
  if (view == NULL || end <= begin)
    return;
  state = strobe_document_view_get_state (view);
  strobe_view_state_set_selection (state, begin, end);
  strobe_view_state_set_visible_range (state, begin > pad ? begin - pad : 0, end + pad);
}

void
strobe_window_show_function (StrobeWindow *self, GFile *file, const char *page, const char *function)
{
  StrobeDocumentView *view;

  g_return_if_fail (STROBE_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file) && page != NULL && function != NULL);

  view = show_file (self, file, page);
  if (view != NULL)
    strobe_view_state_set_selected_function (strobe_document_view_get_state (view), function);
}

void
strobe_window_compare (StrobeWindow *self, GFile *a, GFile *b)
{
  StrobeDocument *doc_b;
  StrobeDocumentView *view;
  StrobeView *compare;

  g_return_if_fail (STROBE_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (a) && G_IS_FILE (b));

  /* B in a tab of its own too, so a row can be shown in either trace. */
  doc_b = strobe_window_open_file (self, b);
  view = show_file (self, a, "compare");
  compare = view ? strobe_document_view_get_view (view, "compare") : NULL;
  if (STROBE_IS_COMPARE_VIEW (compare) && doc_b != strobe_document_view_get_document (view))
    strobe_compare_view_set_other (STROBE_COMPARE_VIEW (compare), doc_b);
}

/* ---- group tabs: several processes on one axis ---------------------------------------- */

static GtkWidget *
create_group_tab (StrobeWindow *self, GtkWidget *view, const char *title)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");
  g_autofree char *close_name = g_strdup_printf (_("Close “%s”"), title);

  gtk_button_set_has_frame (GTK_BUTTON (close), FALSE);
  gtk_widget_add_css_class (close, "strobe-tab-close");
  gtk_widget_set_tooltip_text (close, _("Close (Ctrl+W)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (close), GTK_ACCESSIBLE_PROPERTY_LABEL, close_name, -1);
  g_signal_connect_object (close, "clicked", G_CALLBACK (tab_close_clicked_cb), view, 0);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("view-dual-symbolic"));
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), close);
  return box;
}

static void
add_group_page (StrobeWindow *self, GtkWidget *view)
{
  const char *title = strobe_group_view_get_title (STROBE_GROUP_VIEW (view));
  int page = gtk_notebook_append_page (self->notebook, view, create_group_tab (self, view, title));

  gtk_notebook_set_tab_reorderable (self->notebook, view, TRUE);
  gtk_notebook_set_menu_label_text (self->notebook, view, title);
  gtk_notebook_set_current_page (self->notebook, page);
}

GtkWidget *
strobe_window_open_group_files (StrobeWindow *self, GFile **files, guint n_files)
{
  StrobeServices *services;
  GtkWidget *view;

  g_return_val_if_fail (STROBE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (files != NULL && n_files > 0, NULL);

  services = get_services (self);
  view = strobe_group_view_new_for_files (services ? strobe_services_get_store (services) : NULL, files, n_files);
  add_group_page (self, view);
  return view;
}

GtkWidget *
strobe_window_open_group (StrobeWindow *self, const char *session)
{
  StrobeServices *services;
  GtkWidget *view;

  g_return_val_if_fail (STROBE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (session != NULL, NULL);

  for (int i = 0; i < gtk_notebook_get_n_pages (self->notebook); i++)
    {
      GtkWidget *child = gtk_notebook_get_nth_page (self->notebook, i);

      if (STROBE_IS_GROUP_VIEW (child)
          && g_strcmp0 (strobe_group_view_get_session (STROBE_GROUP_VIEW (child)), session) == 0)
        {
          gtk_notebook_set_current_page (self->notebook, i);
          return child;
        }
    }
  services = get_services (self);
  if (services == NULL || strobe_services_get_store (services) == NULL)
    return NULL;
  view = strobe_group_view_new_for_session (strobe_services_get_store (services), session);
  add_group_page (self, view);
  return view;
}

GtkWidget *
strobe_window_get_current_group (StrobeWindow *self)
{
  GtkWidget *child;

  g_return_val_if_fail (STROBE_IS_WINDOW (self), NULL);
  child = gtk_notebook_get_nth_page (self->notebook, gtk_notebook_get_current_page (self->notebook));
  return STROBE_IS_GROUP_VIEW (child) ? child : NULL;
}

static void
browser_compare_traces_cb (StrobeWindow *self, GFile *a, GFile *b)
{
  strobe_window_compare (self, a, b);
}

static void
browser_open_group_cb (StrobeWindow *self, GFile **files, guint n_files)
{
  strobe_window_open_group_files (self, files, n_files);
}

static void
browser_open_store_group_cb (StrobeWindow *self, const char *name)
{
  strobe_window_open_group (self, name);
}

GtkWidget *
strobe_window_get_current_page (StrobeWindow *self)
{
  g_return_val_if_fail (STROBE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (get_current_view (self));
}

StrobeDocument *
strobe_window_get_current_document (StrobeWindow *self)
{
  StrobeDocumentView *view;

  g_return_val_if_fail (STROBE_IS_WINDOW (self), NULL);
  view = get_current_view (self);
  return view ? strobe_document_view_get_document (view) : NULL;
}

guint
strobe_window_get_n_documents (StrobeWindow *self)
{
  g_return_val_if_fail (STROBE_IS_WINDOW (self), 0);
  /* Every page but the start page. */
  return (guint) gtk_notebook_get_n_pages (self->notebook) - 1;
}

void
strobe_window_close_current (StrobeWindow *self)
{
  g_return_if_fail (STROBE_IS_WINDOW (self));

  /* Only a trace's tab: the start page stays (closing the window would stop the
   * recorder, perhaps in the middle of a recording). */
  if (get_current_view (self) != NULL || STROBE_IS_GROUP_VIEW (strobe_window_get_current_group (self)))
    close_page (self, gtk_notebook_get_current_page (self->notebook));
}

gboolean
strobe_window_cycle_panes (StrobeWindow *self,
                           gboolean      backward)
{
  g_return_val_if_fail (STROBE_IS_WINDOW (self), FALSE);
  return strobe_pane_cycle (GTK_WIDGET (self), backward);
}

static void
late_connect_failed_cb (StrobeWindow *self,
                        const char   *message,
                        StrobeLateConnect *connect)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                              _("Could not trace the program"));

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  g_object_unref (connect);
}

static void
late_connect_done_cb (StrobeWindow      *self,
                      GFile             *file,
                      StrobeLateConnect *connect)
{
  strobe_window_open_file (self, file);
  g_object_unref (connect);
}

gboolean
strobe_window_connect_to (StrobeWindow  *self,
                          const char    *target,
                          const char    *channels,
                          GError       **error)
{
  StrobeServices *services;
  g_autoptr(StrobeDiscovery) discovery = NULL;
  g_autofree char *host = NULL;
  g_auto(GStrv) defaults = NULL;
  g_autofree char *list = NULL;
  StrobeLateConnect *connect;
  guint16 port = 0;

  g_return_val_if_fail (STROBE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (target != NULL, FALSE);
  services = get_services (self);
  g_return_val_if_fail (services != NULL, FALSE);

  discovery = strobe_discovery_new (NULL);
  if (!strobe_discovery_resolve (discovery, target, &host, &port, error))
    return FALSE;
  if (channels == NULL)
    {
      defaults = g_settings_get_strv (strobe_services_get_settings (services), "default-channels");
      channels = list = g_strjoinv (",", defaults);
    }
  /* Kept alive by itself until it says how it went. */
  connect = strobe_late_connect_new (services, host, port, channels);
  g_signal_connect_object (connect, "connected", G_CALLBACK (late_connect_done_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (connect, "failed", G_CALLBACK (late_connect_failed_cb), self, G_CONNECT_SWAPPED);
  strobe_late_connect_start (connect);
  return TRUE;
}

void
strobe_window_connect (StrobeWindow *self)
{
  StrobeServices *services;
  GtkWidget *dialog;

  g_return_if_fail (STROBE_IS_WINDOW (self));
  services = get_services (self);
  g_return_if_fail (services != NULL);

  dialog = strobe_connect_dialog_new (GTK_WINDOW (self), services);
  g_signal_connect_object (dialog, "connected", G_CALLBACK (strobe_window_open_file), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- drag and drop --------------------------------------------------------------------- */

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         StrobeWindow  *self)
{
  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));
      gboolean any = files != NULL;

      for (GSList *l = files; l != NULL; l = l->next)
        strobe_window_open_file (self, l->data);
      g_slist_free (files);
      return any;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    {
      strobe_window_open_file (self, g_value_get_object (value));
      return TRUE;
    }
  return FALSE;
}

/* ---- GObject --------------------------------------------------------------------------- */

static int
newest_first (gconstpointer a, gconstpointer b, gpointer data)
{
  guint64 x = strobe_trace_get_start_time_ns ((StrobeTrace *) a), y = strobe_trace_get_start_time_ns ((StrobeTrace *) b);

  return x < y ? 1 : x > y ? -1 : 0;
}

static gpointer
trace_to_file (gpointer item, gpointer data)
{
  GFile *file = g_file_new_for_path (strobe_trace_get_path (item));

  g_object_unref (item);
  return file;
}

static void
store_changed_cb (StrobeWindow   *self,
                  StrobeServices *services)
{
  StrobeStore *store = strobe_services_get_store (services);

  strobe_browser_view_set_store (self->browser, store, strobe_services_get_store_error (services));
  if (store)
    {
      GtkSorter *newest = GTK_SORTER (gtk_custom_sorter_new (newest_first, NULL, NULL));
      GListModel *sorted = G_LIST_MODEL (gtk_sort_list_model_new (g_object_ref (strobe_store_get_traces (store)), newest));
      gtk_map_list_model_set_model (self->store_files, sorted);
      g_object_unref (sorted);
    }
  else
    gtk_map_list_model_set_model (self->store_files, NULL);
}

static void
follow_services (StrobeWindow   *self,
                 StrobeServices *services)
{
  self->services = g_object_ref (services);
  store_changed_cb (self, services);
  g_signal_connect_object (services, "store-changed", G_CALLBACK (store_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (services, "recorder-changed", G_CALLBACK (recorder_changed_cb), self,
                           G_CONNECT_SWAPPED);
  recorder_changed_cb (self, services);
}

static GSettings *
get_settings (StrobeWindow *self)
{
  StrobeServices *services = get_services (self);

  return services ? strobe_services_get_settings (services) : NULL;
}

/* The size the user last left a window at; the first time, most of the screen: a fixed
 * 1200×760 was cut to 1040×660 on a small screen, where the timers' Max column and long
 * counts did not fit, and wasted a large one. */
static void
restore_size (StrobeWindow *self)
{
  GSettings *settings = get_settings (self);
  GListModel *monitors = gdk_display_get_monitors (gtk_widget_get_display (GTK_WIDGET (self)));
  g_autoptr(GdkMonitor) monitor = g_list_model_get_n_items (monitors) ? g_list_model_get_item (monitors, 0) : NULL;
  GdkRectangle screen = { 0, 0, 1280, 800 };
  int w = settings ? g_settings_get_int (settings, "window-width") : 0;
  int h = settings ? g_settings_get_int (settings, "window-height") : 0;

  if (monitor != NULL)
    gdk_monitor_get_geometry (monitor, &screen);
  if (w <= 0 || h <= 0)
    {
      w = screen.width * 9 / 10;
      h = screen.height * 9 / 10;
    }
  gtk_window_set_default_size (GTK_WINDOW (self), CLAMP (w, MIN (640, screen.width), screen.width),
                               CLAMP (h, MIN (480, screen.height), screen.height));
  if (settings == NULL)
    return;
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  /* From now on the settings follow the window (GTK keeps the default size at the
   * unmaximized size as it is resized), however it goes: closed, Ctrl+Q, killed. */
  g_settings_bind (settings, "window-width", self, "default-width", G_SETTINGS_BIND_SET);
  g_settings_bind (settings, "window-height", self, "default-height", G_SETTINGS_BIND_SET);
  g_settings_bind (settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_SET);
}

/* Closing the last window quits, which stops the recorder: ask first while it records. */
static gboolean
strobe_window_close_request (GtkWindow *window)
{
  GtkApplication *app = gtk_window_get_application (window);
  StrobeServices *services = get_services (STROBE_WINDOW (window));
  GList *windows = app ? gtk_application_get_windows (app) : NULL;

  if (services != NULL && strobe_services_is_recording (services) &&
      windows != NULL && windows->next == NULL)
    {
      /* app.quit asks whether to stop the recorder. */
      g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
      return TRUE;
    }
  return GTK_WINDOW_CLASS (strobe_window_parent_class)->close_request (window);
}

static void
strobe_window_dispose (GObject *object)
{
  StrobeWindow *self = STROBE_WINDOW (object);

  /* Loads still running stop; their documents go when the threads return. */
  for (int i = 0; self->notebook != NULL && i < gtk_notebook_get_n_pages (self->notebook); i++)
    {
      StrobeDocumentView *view = get_view (self, i);

      if (view != NULL)
        strobe_document_cancel (strobe_document_view_get_document (view));
      else if (STROBE_IS_GROUP_VIEW (gtk_notebook_get_nth_page (self->notebook, i)))
        strobe_group_view_cancel (STROBE_GROUP_VIEW (gtk_notebook_get_nth_page (self->notebook, i)));
    }

  g_clear_object (&self->documents);
  g_clear_object (&self->store_files);
  g_clear_object (&self->services);
  G_OBJECT_CLASS (strobe_window_parent_class)->dispose (object);
}

/* ---- actions: win.close (Ctrl+W), win.connect (Ctrl+K), win.stop-recording (Shift+F5: the
 * current live trace's Stop), win.next-pane and
 * win.previous-pane (F6, Shift+F6), win.show-view (Alt+1…9), win.show-trace (the
 * comparison page's "Show in B"); win.show-help-overlay (Ctrl+?) comes from
 * GtkApplicationWindow and gtk/help-overlay.ui. ---- */
static void
close_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  strobe_window_close_current (STROBE_WINDOW (user_data));
}

/* win.open-uri (s): a trace of the Recent menu. */
static void
open_uri_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  strobe_window_open_file (STROBE_WINDOW (user_data), file);
}

static void
stop_recording_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  strobe_window_stop_recording (STROBE_WINDOW (user_data));
}

static void
connect_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  strobe_window_connect (STROBE_WINDOW (user_data));
}

/* Alt+1…9 from anywhere in the window, the tab strip included: the current trace's views. */
static void
show_view_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  StrobeWindow *self = user_data;
  GtkWidget *page = strobe_window_get_current_page (self);

  if (page != NULL)
    gtk_widget_activate_action (page, "document.show-view", "i", g_variant_get_int32 (parameter));
}

static void
next_pane_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  strobe_window_cycle_panes (STROBE_WINDOW (user_data), FALSE);
}

static void
previous_pane_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  strobe_window_cycle_panes (STROBE_WINDOW (user_data), TRUE);
}

static void
show_trace_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  const char *uri, *page;
  guint64 begin, end, pad;
  g_autoptr(GFile) file = NULL;

  g_variant_get (parameter, "(&s&sttt)", &uri, &page, &begin, &end, &pad);
  file = g_file_new_for_uri (uri);
  strobe_window_show_trace (STROBE_WINDOW (user_data), file, page, begin, end, pad);
}

static void
show_function_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  const char *uri, *page, *function;
  g_autoptr(GFile) file = NULL;

  g_variant_get (parameter, "(&s&s&s)", &uri, &page, &function);
  file = g_file_new_for_uri (uri);
  strobe_window_show_function (STROBE_WINDOW (user_data), file, page, function);
}

static void
add_actions (StrobeWindow *self)
{
  static const GActionEntry entries[] = {
    { "close", close_action },
    { "connect", connect_action },
    { "stop-recording", stop_recording_action },
    { "open-uri", open_uri_action, "s" },
    { "next-pane", next_pane_action },
    { "show-view", show_view_action, "i" },
    { "show-trace", show_trace_action, "(ssttt)" },
    { "show-function", show_function_action, "(sss)" },
    { "previous-pane", previous_pane_action },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}

static void
strobe_window_class_init (StrobeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = strobe_window_close_request;

  g_type_ensure (STROBE_TYPE_BROWSER_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/shell/strobe-window.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, connect_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, primary_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, recorder_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, StrobeWindow, browser);
  gtk_widget_class_bind_template_callback (widget_class, switch_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, browser_open_trace_cb);
  gtk_widget_class_bind_template_callback (widget_class, browser_compare_traces_cb);
  gtk_widget_class_bind_template_callback (widget_class, browser_open_group_cb);
  gtk_widget_class_bind_template_callback (widget_class, browser_open_store_group_cb);
}

static void
strobe_window_init (StrobeWindow *self)
{
  GtkDropTarget *target;
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  self->documents = g_list_store_new (STROBE_TYPE_DOCUMENT);
  self->store_files = gtk_map_list_model_new (NULL, trace_to_file, NULL, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_x11_shm_keep (GTK_WINDOW (self));
  add_actions (self);
  update_stop_action (self);
  {
    g_autoptr(GMenuModel) recent = strobe_recent_menu_new ();
    GMenuModel *primary = gtk_menu_button_get_menu_model (self->primary_button);

    gtk_menu_button_set_menu_model (self->recent_button, recent);
    /* The main menu's Open Recent (F10, then the keyboard) shows the same list. */
    g_autoptr(GMenuModel) file_section = primary ? g_menu_model_get_item_link (primary, 0, G_MENU_LINK_SECTION) : NULL;

    if (G_IS_MENU (file_section))
      g_menu_insert_submenu (G_MENU (file_section), 1, _("Open _Recent"), recent);
  }
  strobe_pane_mark (GTK_WIDGET (self->notebook));
  strobe_a11y_fix_mnemonic_button (self->open_button);
  strobe_a11y_fix_mnemonic_button (self->connect_button);

  target = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (target, types, G_N_ELEMENTS (types));
  g_signal_connect (target, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}

StrobeWindow *
strobe_window_new (GtkApplication *application,
                   StrobeServices *services)
{
  StrobeWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (STROBE_IS_SERVICES (services), NULL);

  self = g_object_new (STROBE_TYPE_WINDOW, "application", application, NULL);
  follow_services (self, services);
  restore_size (self);
  return self;
}
