/* strobe-connect-dialog.c
 *
 * Connect hands the chosen program and channels to a StrobeLateConnect (the commands, then
 * the wait for the new live trace) and shows what it says.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-connect-dialog.h"
#include "strobe-control-address.h"
#include "strobe-control-client.h"
#include "strobe-discovery.h"
#include "strobe-late-connect.h"
#include "strobe-a11y.h"
#include "strobe-table.h"

struct _StrobeConnectDialog
{
  GtkWindow            parent_instance;

  StrobeServices      *services;
  StrobeDiscovery     *discovery;
  GtkSingleSelection  *selection;
  guint                selected_pid;

  GtkColumnView       *programs_view;
  GtkStack            *programs_stack;
  GtkLabel            *empty_label;
  GtkEntry            *address_entry;
  GtkLabel            *channels_hint;
  GtkFlowBox          *channels_box;
  GtkEntry            *preset_entry;
  GtkButton           *cancel_button;
  GtkWidget           *connect_button;
  GtkSpinner          *spinner;
  GtkLabel            *status_label;

  StrobeControlClient *query_client;
  guint                query_serial;

  StrobeLateConnect   *connecting;      /* while Connect runs */
  gboolean             chose;           /* a program was selected once: no more autoselect */
};

G_DEFINE_FINAL_TYPE (StrobeConnectDialog, strobe_connect_dialog, GTK_TYPE_WINDOW)

enum
{
  CONNECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- the programs --------------------------------------------------------------------- */

#define INFO(item) STROBE_PROCESS_INFO (item)

static char *
pr_program (gpointer item)
{
  return g_strdup (strobe_process_info_get_program (INFO (item)));
}

static char *
pr_pid (gpointer item)
{
  return g_strdup_printf ("%u", strobe_process_info_get_pid (INFO (item)));
}

static char *
pr_port (gpointer item)
{
  return g_strdup_printf ("%u", strobe_process_info_get_control_port (INFO (item)));
}

static char *
pr_tracing (gpointer item)
{
  const char *output = strobe_process_info_get_output (INFO (item));

  if (!strobe_process_info_get_tracing (INFO (item)))
    return g_strdup (C_("tracing", "No"));
  if (g_str_has_prefix (output, "host:"))
    /* Translators: the program sends its trace to this host:port */
    return g_strdup_printf (_("To %s"), output + strlen ("host:"));
  if (g_str_has_prefix (output, "file:"))
    /* Translators: the program writes its trace to this file */
    return g_strdup_printf (_("To file %s"), output + strlen ("file:"));
  return g_strdup (C_("tracing", "Yes"));
}

static int
pr_cmp_program (gpointer a, gpointer b)
{
  return strobe_table_compare_str (strobe_process_info_get_program (INFO (a)),
                                   strobe_process_info_get_program (INFO (b)));
}

static int
pr_cmp_pid (gpointer a, gpointer b)
{
  return strobe_table_compare_u64 (strobe_process_info_get_pid (INFO (a)), strobe_process_info_get_pid (INFO (b)));
}

static const StrobeTableColumn program_columns[] = {
  { N_("Program"), pr_program, pr_cmp_program, 18, FALSE, TRUE },
  { N_("PID"), pr_pid, pr_cmp_pid, 7, TRUE, FALSE },
  { N_("Control Port"), pr_port, NULL, 6, TRUE, FALSE },
  { N_("Tracing"), pr_tracing, NULL, 16, FALSE, FALSE },
};

static StrobeProcessInfo *
get_selected (StrobeConnectDialog *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

static void
set_status (StrobeConnectDialog *self,
            const char          *text,
            gboolean             error)
{
  gtk_label_set_text (self->status_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
}

/* Where the commands go: the typed address if any, else the selected program. */
static gboolean
get_target (StrobeConnectDialog  *self,
            char                **host,
            guint16              *port,
            GError              **error)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->address_entry));
  g_autofree char *stripped = g_strstrip (g_strdup (typed));
  StrobeProcessInfo *info;

  if (*stripped != '\0')
    /* The same rules and message as strobe-cli's (a port of 99999 is an error). */
    return strobe_control_parse_address (stripped, STROBE_CONTROL_DEFAULT_PORT, host, port, error);
  info = get_selected (self);
  if (info == NULL)
    {
      g_set_error_literal (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_INVALID,
                           _("Choose a program or type its address."));
      return FALSE;
    }
  *host = g_strdup (strobe_process_info_get_control_address (info));
  *port = strobe_process_info_get_control_port (info);
  return TRUE;
}

static void
update_sensitivity (StrobeConnectDialog *self)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->address_entry));
  gboolean target = get_selected (self) != NULL || (typed != NULL && *typed != '\0');

  gtk_widget_set_sensitive (self->connect_button, target && self->connecting == NULL);
}

/* ---- the program's channels --------------------------------------------------------- */

static void
channel_toggled_cb (GtkToggleButton *button)
{
  gtk_accessible_update_state (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_STATE_CHECKED,
                               gtk_toggle_button_get_active (button), -1);
}

/* A channel's box: a toggle button that says it is a check box. GTK 4.8 gives only
 * GtkButtons an accessible action, so a GtkCheckButton could not be ticked by a screen
 * reader (issue 24 item 18). */
static GtkWidget *
channel_check_new (const char *name, gboolean on)
{
  GtkWidget *button = g_object_new (GTK_TYPE_TOGGLE_BUTTON, "accessible-role", GTK_ACCESSIBLE_ROLE_CHECKBOX,
                                    "label", name, "active", on, NULL);

  gtk_widget_add_css_class (button, "strobe-channel-check");
  g_signal_connect (button, "toggled", G_CALLBACK (channel_toggled_cb), NULL);
  channel_toggled_cb (GTK_TOGGLE_BUTTON (button));
  return button;
}

static void
remove_all_channels (StrobeConnectDialog *self)
{
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self->channels_box))) != NULL;)
    gtk_flow_box_remove (self->channels_box, child);
}

static void
clear_channels (StrobeConnectDialog *self,
                const char          *hint)
{
  remove_all_channels (self);
  gtk_widget_set_visible (GTK_WIDGET (self->channels_box), FALSE);
  gtk_label_set_text (self->channels_hint, hint);
  gtk_widget_set_visible (GTK_WIDGET (self->channels_hint), TRUE);
}

typedef struct
{
  StrobeConnectDialog *self;   /* a reference */
  guint                serial;
} QueryData;

static void
query_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  QueryData *data = user_data;
  g_autoptr(StrobeConnectDialog) self = data->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (object), result, &error);
  g_autoptr(GHashTable) pairs = NULL;
  g_autoptr(GList) names = NULL;
  guint serial = data->serial;

  g_free (data);
  if (serial != self->query_serial || self->channels_box == NULL)
    return;   /* another program was chosen since */
  if (reply == NULL)
    {
      /* Translators: %s says why */
      g_autofree char *text = g_strdup_printf (_("The program’s channels could not be listed: %s"), error->message);

      clear_channels (self, text);
      return;
    }

  pairs = strobe_control_parse_pairs (reply);
  names = g_list_sort (g_hash_table_get_keys (pairs), (GCompareFunc) g_ascii_strcasecmp);
  if (names == NULL)
    {
      clear_channels (self, _("The program has not declared any channels yet."));
      return;
    }
  remove_all_channels (self);
  {
    /* A declared channel named in the text field becomes a ticked box instead. */
    g_auto(GStrv) typed = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (self->preset_entry)), ", ", -1);
    g_autoptr(GPtrArray) rest = g_ptr_array_new ();
    g_autofree char *rest_text = NULL;

    for (GList *l = names; l != NULL; l = l->next)
      {
        gboolean on = g_strcmp0 (g_hash_table_lookup (pairs, l->data), "on") == 0;

        for (guint i = 0; typed[i] != NULL; i++)
          on |= g_ascii_strcasecmp (typed[i], l->data) == 0;
        gtk_flow_box_append (self->channels_box, channel_check_new (l->data, on));
      }
    for (guint i = 0; typed[i] != NULL; i++)
      {
        gboolean declared = typed[i][0] == '\0';

        for (GList *l = names; !declared && l != NULL; l = l->next)
          declared = g_ascii_strcasecmp (typed[i], l->data) == 0;
        if (!declared)
          g_ptr_array_add (rest, typed[i]);
      }
    g_ptr_array_add (rest, NULL);
    rest_text = g_strjoinv (",", (char **) rest->pdata);
    gtk_editable_set_text (GTK_EDITABLE (self->preset_entry), rest_text);
  }
  gtk_widget_set_visible (GTK_WIDGET (self->channels_hint), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->channels_box), TRUE);
}

static void
query_channels (StrobeConnectDialog *self)
{
  g_autofree char *host = NULL;
  guint16 port = 0;
  QueryData *data;

  self->query_serial++;
  if (self->query_client != NULL)
    strobe_control_client_close (self->query_client);
  g_clear_object (&self->query_client);
  if (!get_target (self, &host, &port, NULL))
    {
      clear_channels (self, _("Choose a program to see the channels it declared."));
      return;
    }
  clear_channels (self, _("Asking the program for its channels…"));
  self->query_client = strobe_control_client_new (host, port);
  strobe_control_client_set_timeout (self->query_client, 3);
  data = g_new0 (QueryData, 1);
  data->self = g_object_ref (self);
  data->serial = self->query_serial;
  strobe_control_client_send_async (self->query_client, "channels", NULL, query_cb, data);
}

static void
selection_changed_cb (StrobeConnectDialog *self)
{
  StrobeProcessInfo *info = get_selected (self);
  guint pid = info ? strobe_process_info_get_pid (info) : 0;

  update_sensitivity (self);
  if (info != NULL)
    self->chose = TRUE;
  if (pid == self->selected_pid)
    return;
  self->selected_pid = pid;
  if (info != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->address_entry), "");
  query_channels (self);
}

/* An empty list may not mean that nothing runs: a discovery directory that is not the
 * user's alone is not read (core/protocol/strobe-discovery-dir.h), and the user must be
 * told why and what to do, not shown an empty list. */
static void
show_discovery_problem (StrobeConnectDialog *self)
{
  const char *problem = strobe_discovery_get_problem (self->discovery);

  gtk_label_set_text (self->empty_label,
                      problem ? problem : _("No instrumented program is running on this computer."));
  if (problem)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->empty_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->empty_label), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->empty_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->empty_label), "dim-label");
    }
}

static void
programs_changed_cb (StrobeConnectDialog *self)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);

  gtk_stack_set_visible_child_name (self->programs_stack, n ? "list" : "empty");
  show_discovery_problem (self);
  /* A hidden list must not keep the focus: it would swallow Tab and Escape. */
  if (n == 0 && gtk_widget_has_focus (GTK_WIDGET (self->programs_view)))
    gtk_widget_grab_focus (GTK_WIDGET (self->address_entry));
  /* The first program to show up is chosen, so its channels are there at once; the
   * user's choice after that is kept. */
  if (!self->chose && n > 0 && *gtk_editable_get_text (GTK_EDITABLE (self->address_entry)) == '\0')
    {
      gtk_single_selection_set_selected (self->selection, 0);
      return;
    }
  /* Discovery lists the programs anew on every change: keep the one that was chosen. */
  for (guint i = 0; self->selected_pid != 0 && i < n; i++)
    {
      g_autoptr(StrobeProcessInfo) info = g_list_model_get_item (model, i);

      if (strobe_process_info_get_pid (info) == self->selected_pid)
        {
          if (gtk_single_selection_get_selected (self->selection) != i)
            gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
  update_sensitivity (self);
}

static void
address_changed_cb (StrobeConnectDialog *self)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->address_entry));

  if (typed != NULL && *typed != '\0' && get_selected (self) != NULL)
    {
      self->selected_pid = 0;
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      clear_channels (self, _("Press Enter to ask the program at this address for its channels."));
    }
  update_sensitivity (self);
}

static void
activate_program_cb (StrobeConnectDialog *self,
                     guint                position)
{
  gtk_single_selection_set_selected (self->selection, position);
  strobe_connect_dialog_connect (self);
}

/* ---- connecting ------------------------------------------------------------------------ */

static void
stop_connecting (StrobeConnectDialog *self,
                 const char          *error)
{
  if (self->connecting != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->connecting, self);
      strobe_late_connect_cancel (self->connecting);
      g_clear_object (&self->connecting);
    }
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  if (error != NULL)
    set_status (self, error, TRUE);
  update_sensitivity (self);
}

static void
progress_cb (StrobeConnectDialog *self,
             const char          *text)
{
  set_status (self, text, FALSE);
}

static void
warning_cb (StrobeConnectDialog *self,
            const char          *text)
{
  set_status (self, text, TRUE);
}

static void
failed_cb (StrobeConnectDialog *self,
           const char          *text)
{
  stop_connecting (self, text);
}

static void
connected_cb (StrobeConnectDialog *self,
              GFile               *file)
{
  g_autoptr(GFile) kept = g_object_ref (file);

  stop_connecting (self, NULL);
  g_signal_emit (self, signals[CONNECTED], 0, kept);
  gtk_window_destroy (GTK_WINDOW (self));
}

/* The channels to turn on: the boxes ticked and the names typed, once each. */
static char *
dup_channel_list (StrobeConnectDialog *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) typed = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (self->preset_entry)), ", ", -1);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->channels_box)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *check = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));

      if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (check)))
        g_ptr_array_add (names, g_strdup (gtk_button_get_label (GTK_BUTTON (check))));
    }
  for (guint i = 0; typed[i] != NULL; i++)
    {
      gboolean seen = typed[i][0] == '\0';

      for (guint j = 0; !seen && j < names->len; j++)
        seen = g_ascii_strcasecmp (g_ptr_array_index (names, j), typed[i]) == 0;
      if (!seen)
        g_ptr_array_add (names, g_strdup (typed[i]));
    }
  g_ptr_array_add (names, NULL);
  return g_strjoinv (",", (char **) names->pdata);
}

void
strobe_connect_dialog_connect (StrobeConnectDialog *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *host = NULL;
  g_autofree char *channels = NULL;
  guint16 port = 0;

  g_return_if_fail (STROBE_IS_CONNECT_DIALOG (self));

  if (self->connecting != NULL)
    return;
  if (!get_target (self, &host, &port, &error))
    {
      set_status (self, error->message, TRUE);
      return;
    }

  channels = dup_channel_list (self);
  self->connecting = strobe_late_connect_new (self->services, host, port, channels);
  g_signal_connect_object (self->connecting, "progress", G_CALLBACK (progress_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connecting, "warning", G_CALLBACK (warning_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connecting, "failed", G_CALLBACK (failed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connecting, "connected", G_CALLBACK (connected_cb), self, G_CONNECT_SWAPPED);
  update_sensitivity (self);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_spinner_start (self->spinner);
  strobe_late_connect_start (self->connecting);
}

/* ---- construction ---------------------------------------------------------------------- */

static void
strobe_connect_dialog_dispose (GObject *object)
{
  StrobeConnectDialog *self = STROBE_CONNECT_DIALOG (object);

  if (self->spinner != NULL)
    stop_connecting (self, NULL);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->query_client != NULL)
    strobe_control_client_close (self->query_client);
  g_clear_object (&self->query_client);
  g_clear_object (&self->discovery);
  g_clear_object (&self->services);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_CONNECT_DIALOG);
  self->channels_box = NULL;

  G_OBJECT_CLASS (strobe_connect_dialog_parent_class)->dispose (object);
}

static void
strobe_connect_dialog_class_init (StrobeConnectDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_connect_dialog_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  /**
   * StrobeConnectDialog::connected:
   * @file: the new live trace, in the store
   *
   * The program is streaming to the recorder: open @file to follow it.
   */
  signals[CONNECTED] = g_signal_new ("connected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/connect/strobe-connect-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, programs_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, programs_stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, empty_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, address_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, channels_hint);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, channels_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, preset_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, connect_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, StrobeConnectDialog, status_label);
  gtk_widget_class_bind_template_callback (widget_class, strobe_connect_dialog_connect);
  gtk_widget_class_bind_template_callback (widget_class, activate_program_cb);
  gtk_widget_class_bind_template_callback (widget_class, address_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, query_channels);
}

static void
strobe_connect_dialog_init (StrobeConnectDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* GTK 4.8 reads a widget with a mnemonic label by both names ("Cancel Cancel"). */
  strobe_a11y_fix_mnemonic_button (self->cancel_button);
  strobe_a11y_fix_mnemonic_button (GTK_BUTTON (self->connect_button));
  strobe_a11y_set_name (GTK_WIDGET (self->address_entry), _("Program address"));
  strobe_a11y_set_name (GTK_WIDGET (self->preset_entry), _("More channels, separated by commas"));
  strobe_a11y_make_copyable (self->status_label);
  strobe_a11y_make_copyable (self->empty_label);
  strobe_table_add_columns (self->programs_view, program_columns, G_N_ELEMENTS (program_columns));
}

GtkWidget *
strobe_connect_dialog_new (GtkWindow      *parent,
                           StrobeServices *services)
{
  StrobeConnectDialog *self;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) defaults = NULL;
  g_autofree char *preset = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (STROBE_IS_SERVICES (services), NULL);

  self = g_object_new (STROBE_TYPE_CONNECT_DIALOG,
                       "transient-for", parent,
                       "application", parent ? gtk_window_get_application (parent) : NULL,
                       NULL);
  self->services = g_object_ref (services);

  defaults = g_settings_get_strv (strobe_services_get_settings (self->services), "default-channels");
  preset = g_strjoinv (",", defaults);
  gtk_editable_set_text (GTK_EDITABLE (self->preset_entry), preset);

  self->discovery = strobe_discovery_new (NULL);
  if (!strobe_discovery_watch (self->discovery, &error))
    g_message ("Not following the discovery directory: %s", error->message);
  self->selection = strobe_table_set_model (self->programs_view, g_object_ref (G_LIST_MODEL (self->discovery)), NULL);
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "items-changed", G_CALLBACK (programs_changed_cb), self, G_CONNECT_SWAPPED);
  programs_changed_cb (self);
  if (self->selected_pid == 0)
    clear_channels (self, _("Choose a program to see the channels it declared."));
  update_sensitivity (self);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->programs_view));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->address_entry));
  return GTK_WIDGET (self);
}

GListModel *
strobe_connect_dialog_get_programs (StrobeConnectDialog *self)
{
  g_return_val_if_fail (STROBE_IS_CONNECT_DIALOG (self), NULL);
  return G_LIST_MODEL (self->selection);
}

gboolean
strobe_connect_dialog_select_pid (StrobeConnectDialog *self,
                                  guint                pid)
{
  GListModel *model;

  g_return_val_if_fail (STROBE_IS_CONNECT_DIALOG (self), FALSE);
  model = G_LIST_MODEL (self->selection);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StrobeProcessInfo) info = g_list_model_get_item (model, i);

      if (strobe_process_info_get_pid (info) == pid)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

GtkToggleButton *
strobe_connect_dialog_get_channel_check (StrobeConnectDialog *self,
                                         const char          *name)
{
  g_return_val_if_fail (STROBE_IS_CONNECT_DIALOG (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->channels_box)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *check = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));

      if (g_ascii_strcasecmp (gtk_button_get_label (GTK_BUTTON (check)), name) == 0)
        return GTK_TOGGLE_BUTTON (check);
    }
  return NULL;
}
