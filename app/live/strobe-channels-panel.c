/* strobe-channels-panel.c
 *
 * A switch never shows a state the program has not reported: a flip makes it pending
 * (insensitive, with a spinner), the command goes out on the control connection, and only
 * the program's ChannelToggle — read from the trace like every other event — settles it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-channels-panel.h"
#include "strobe-control-client.h"
#include "strobe-live-stop.h"

typedef struct
{
  StrobeChannelsPanel *panel;      /* not a reference: rows die with the panel */
  guint32              id;
  char                *name;
  GtkWidget           *row;
  GtkSwitch           *toggle;
  GtkSpinner          *spinner;
  gboolean             reported;   /* as the program last said */
  gboolean             pending;
  gboolean             requested;
  gboolean             read_only;  /* the runtime's own channel: always on */
  guint                timeout_id;
} Channel;

struct _StrobeChannelsPanel
{
  GtkWidget            parent_instance;

  StrobeDocument      *document;
  StrobeControlClient *client;
  char                *target;
  GHashTable          *channels;   /* id → Channel */
  gboolean             usable;
  gboolean             updating;   /* setting switches from the program's state */

  GtkWidget           *box;
  GtkLabel            *notice_label;
  GtkLabel            *error_label;
  GtkListBox          *list;
  GtkLabel            *empty_label;
};

G_DEFINE_FINAL_TYPE (StrobeChannelsPanel, strobe_channels_panel, GTK_TYPE_WIDGET)

static void
channel_free (gpointer data)
{
  Channel *channel = data;

  g_clear_handle_id (&channel->timeout_id, g_source_remove);
  g_free (channel->name);
  g_free (channel);
}

static void
show_error (StrobeChannelsPanel *self,
            const char          *text)
{
  gtk_label_set_text (self->error_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), text != NULL);
}

/* Shows the program's state; ends a pending change. */
static void
channel_show (Channel  *channel,
              gboolean  enabled)
{
  StrobeChannelsPanel *self = channel->panel;

  g_clear_handle_id (&channel->timeout_id, g_source_remove);
  channel->pending = FALSE;
  self->updating = TRUE;
  gtk_switch_set_active (channel->toggle, enabled);
  gtk_switch_set_state (channel->toggle, enabled);
  self->updating = FALSE;
  gtk_spinner_stop (channel->spinner);
  gtk_widget_set_visible (GTK_WIDGET (channel->spinner), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (channel->toggle), self->usable && !channel->read_only);
}

static void
set_unusable (StrobeChannelsPanel *self,
              const char          *notice)
{
  GHashTableIter iter;
  Channel *channel;

  self->usable = FALSE;
  gtk_label_set_text (self->notice_label, notice);
  gtk_widget_set_visible (GTK_WIDGET (self->notice_label), TRUE);
  g_hash_table_iter_init (&iter, self->channels);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &channel))
    channel_show (channel, channel->reported);
}

static gboolean
confirm_timeout_cb (gpointer data)
{
  Channel *channel = data;
  g_autofree char *text = NULL;

  channel->timeout_id = 0;
  /* Translators: %s is a channel name */
  text = g_strdup_printf (_("The program did not confirm the change of “%s”."), channel->name);
  channel_show (channel, channel->reported);
  show_error (channel->panel, text);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  StrobeChannelsPanel *panel;      /* a reference */
  guint32              id;
} SendData;

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SendData *data = user_data;
  StrobeChannelsPanel *self = data->panel;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (object), result, &error);
  Channel *channel = self->channels ? g_hash_table_lookup (self->channels, GUINT_TO_POINTER (data->id)) : NULL;

  if (reply == NULL && self->channels != NULL)
    {
      if (g_error_matches (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_REFUSED))
        {
          /* Translators: the first %s is a channel name, the second the program's reason */
          g_autofree char *text = g_strdup_printf (_("The program refused to change “%s”: %s"),
                                                   channel ? channel->name : "?", error->message);

          if (channel != NULL && channel->pending)
            channel_show (channel, channel->reported);
          show_error (self, text);
        }
      else
        {
          /* Translators: %s is the control server's address, then why it failed */
          g_autofree char *text = g_strdup_printf (_("The program cannot be controlled: its control server at %s does not answer (%s)."),
                                                   self->target, error->message);

          set_unusable (self, text);
        }
    }
  g_object_unref (data->panel);
  g_free (data);
}

/* Asks the program; the switch waits for its answer in the stream. */
static void
request_change (Channel  *channel,
                gboolean  state)
{
  StrobeChannelsPanel *self = channel->panel;
  g_autofree char *command = NULL;
  SendData *data;

  channel->pending = TRUE;
  channel->requested = state;
  gtk_widget_set_sensitive (GTK_WIDGET (channel->toggle), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (channel->spinner), TRUE);
  gtk_spinner_start (channel->spinner);
  show_error (self, NULL);

  command = g_strdup_printf ("channels %s %s", channel->name, state ? "on" : "off");
  data = g_new0 (SendData, 1);
  data->panel = g_object_ref (self);
  data->id = channel->id;
  strobe_control_client_send_async (self->client, command, NULL, send_cb, data);
  channel->timeout_id = g_timeout_add (STROBE_CHANNELS_CONFIRM_TIMEOUT_MS, confirm_timeout_cb, channel);
}

static gboolean
can_request (Channel *channel)
{
  StrobeChannelsPanel *self = channel->panel;

  return !self->updating && self->usable && self->client != NULL && !channel->pending && !channel->read_only;
}

static gboolean
state_set_cb (GtkSwitch *toggle,
              gboolean   state,
              Channel   *channel)
{
  if (channel->panel->updating)
    return FALSE;
  if (can_request (channel) && state != channel->reported)
    request_change (channel, state);
  /* The switch's state stays what the program said until it says otherwise. */
  return TRUE;
}

/* Assistive technologies may set "active" without "state-set" (GTK 4.8's AT-SPI action). */
static void
active_changed_cb (GtkSwitch  *toggle,
                   GParamSpec *pspec,
                   Channel    *channel)
{
  gboolean active = gtk_switch_get_active (toggle);

  if (can_request (channel) && active != channel->reported)
    request_change (channel, active);
}

static Channel *
add_channel (StrobeChannelsPanel     *self,
             const StrobeInfoChannel *info)
{
  Channel *channel = g_new0 (Channel, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (info->name);
  g_autofree char *description = NULL;

  channel->panel = self;
  channel->id = info->id;
  channel->name = g_strdup (info->name);
  channel->reported = info->enabled;
  /* runtime/CONTROL.md: `Trace` carries the runtime's own events and cannot be turned off. */
  channel->read_only = g_ascii_strcasecmp (info->name, "Trace") == 0;
  channel->spinner = GTK_SPINNER (gtk_spinner_new ());
  channel->toggle = GTK_SWITCH (gtk_switch_new ());

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_tooltip_text (label, info->name);
  if (channel->read_only)
    gtk_widget_set_tooltip_text (GTK_WIDGET (channel->toggle), _("The runtime’s own events: always on"));
  gtk_widget_set_visible (GTK_WIDGET (channel->spinner), FALSE);
  gtk_widget_set_valign (GTK_WIDGET (channel->toggle), GTK_ALIGN_CENTER);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (channel->toggle),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  /* Translators: %s is a channel name */
  description = g_strdup_printf (_("Channel %s, as the program reports it"), info->name);
  if (!channel->read_only)
    gtk_accessible_update_property (GTK_ACCESSIBLE (channel->toggle),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (channel->spinner),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Waiting for the program"), -1);
  g_signal_connect (channel->toggle, "state-set", G_CALLBACK (state_set_cb), channel);
  g_signal_connect (channel->toggle, "notify::active", G_CALLBACK (active_changed_cb), channel);

  if (channel->read_only)
    {
      /* A greyed-out switch says nothing by itself (and shows no tooltip): say why. */
      GtkWidget *names = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *why = gtk_label_new (_("The runtime’s own events: always on"));

      gtk_label_set_xalign (GTK_LABEL (why), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (why), TRUE);
      gtk_widget_add_css_class (why, "dim-label");
      gtk_widget_add_css_class (why, "caption");
      gtk_widget_set_hexpand (names, TRUE);
      gtk_box_append (GTK_BOX (names), label);
      gtk_box_append (GTK_BOX (names), why);
      gtk_box_append (GTK_BOX (box), names);
      gtk_accessible_update_property (GTK_ACCESSIBLE (channel->toggle),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _("The runtime’s own events: always on"), -1);
    }
  else
    gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (channel->spinner));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (channel->toggle));
  channel->row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (channel->row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (channel->row), FALSE);
  gtk_widget_set_focusable (channel->row, FALSE);
  g_object_set_data (G_OBJECT (channel->row), "strobe-channel-name", channel->name);
  gtk_list_box_append (self->list, channel->row);

  g_hash_table_insert (self->channels, GUINT_TO_POINTER (channel->id), channel);
  channel_show (channel, channel->reported);
  return channel;
}

static int
sort_rows (GtkListBoxRow *a,
           GtkListBoxRow *b,
           gpointer       user_data)
{
  return g_utf8_collate (g_object_get_data (G_OBJECT (a), "strobe-channel-name"),
                         g_object_get_data (G_OBJECT (b), "strobe-channel-name"));
}

static void find_target (StrobeChannelsPanel *self);

static void
set_usable (StrobeChannelsPanel *self)
{
  GHashTableIter iter;
  Channel *channel;

  self->usable = TRUE;
  gtk_widget_set_visible (GTK_WIDGET (self->notice_label), FALSE);
  g_hash_table_iter_init (&iter, self->channels);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &channel))
    if (!channel->pending)
      channel_show (channel, channel->reported);
}

static void
update (StrobeChannelsPanel *self)
{
  /* Until the control server is known, look again each time the trace grows. */
  if (self->client == NULL && strobe_document_is_live (self->document))
    {
      const StrobeWireMetadata *meta = strobe_document_get_metadata (self->document);

      find_target (self);
      if (self->client != NULL)
        set_usable (self);
      else if (meta != NULL && meta->control_port == 0)
        set_unusable (self, _("This program runs without a control server: its channels cannot be changed from here."));
    }

  g_autoptr(GPtrArray) channels = strobe_info_analyzer_dup_channels (strobe_document_get_info (self->document));

    {
      for (guint i = 0; i < channels->len; i++)
        {
          const StrobeInfoChannel *c = g_ptr_array_index (channels, i);
          Channel *channel = g_hash_table_lookup (self->channels, GUINT_TO_POINTER (c->id));
          gboolean changed;

          if (c->name == NULL)
            continue;   /* a toggle before its announce: wait for the name */
          if (channel == NULL)
            {
              add_channel (self, c);
              continue;
            }
          /* Touch a switch only when the program's state changed: setting it again would
           * cut short a flip the user just made (its animation runs before "state-set"). */
          changed = c->enabled != channel->reported;
          channel->reported = c->enabled;
          if (channel->pending ? c->enabled == channel->requested : changed)
            channel_show (channel, c->enabled);
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), g_hash_table_size (self->channels) == 0);

  if (self->usable && !strobe_document_is_live (self->document) &&
      strobe_document_get_status (self->document) != STROBE_DOCUMENT_STATUS_NEW)
    set_unusable (self, _("The program has stopped sending this trace: its channels can no longer be changed."));
}

/* The program's control server: the host it connected to us from, the port it announced. */
static void
find_target (StrobeChannelsPanel *self)
{
  g_autofree char *host = NULL;
  guint16 port = 0;

  if (strobe_document_get_store (self->document) == NULL ||
      !strobe_live_find_control (self->document, &host, &port, NULL))
    return;

  self->client = strobe_control_client_new (host, port);
  strobe_control_client_set_timeout (self->client, 3);
  self->target = strchr (host, ':') ? g_strdup_printf ("[%s]:%u", host, port)
                                    : g_strdup_printf ("%s:%u", host, port);
}

static void
strobe_channels_panel_dispose (GObject *object)
{
  StrobeChannelsPanel *self = STROBE_CHANNELS_PANEL (object);

  g_clear_pointer (&self->channels, g_hash_table_unref);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->document);
  if (self->client != NULL)
    strobe_control_client_close (self->client);
  g_clear_object (&self->client);
  g_clear_pointer (&self->target, g_free);

  G_OBJECT_CLASS (strobe_channels_panel_parent_class)->dispose (object);
}

static void
strobe_channels_panel_class_init (StrobeChannelsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_channels_panel_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobechannelspanel");
}

static GtkLabel *
wrapped_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  return GTK_LABEL (label);
}

static void
strobe_channels_panel_init (StrobeChannelsPanel *self)
{
  GtkWidget *title, *subtitle, *scrolled;

  self->channels = g_hash_table_new_full (NULL, NULL, NULL, channel_free);
  self->usable = TRUE;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (self->box, "strobe-channels-panel");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  title = gtk_label_new (_("Channels"));
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  gtk_widget_add_css_class (title, "strobe-heading");
  gtk_widget_set_margin_top (title, 12);
  gtk_widget_set_margin_start (title, 12);
  gtk_widget_set_margin_end (title, 12);
  gtk_box_append (GTK_BOX (self->box), title);
  subtitle = GTK_WIDGET (wrapped_label (_("Each switch shows what the program reports. Changes take effect in the running program.")));
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_set_margin_start (subtitle, 12);
  gtk_widget_set_margin_end (subtitle, 12);
  gtk_box_append (GTK_BOX (self->box), subtitle);

  self->notice_label = wrapped_label (NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self->notice_label), "warning");
  gtk_widget_set_margin_start (GTK_WIDGET (self->notice_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->notice_label), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->notice_label), FALSE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->notice_label));

  self->error_label = wrapped_label (NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_margin_start (GTK_WIDGET (self->error_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->error_label), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->error_label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Channel error"), -1);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->error_label));

  self->empty_label = wrapped_label (_("The program has not declared any channels yet."));
  gtk_widget_add_css_class (GTK_WIDGET (self->empty_label), "dim-label");
  gtk_widget_set_margin_start (GTK_WIDGET (self->empty_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->empty_label), 12);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->empty_label));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_list_box_set_sort_func (self->list, sort_rows, NULL, NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Channels"), -1);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), scrolled);
}

GtkWidget *
strobe_channels_panel_new (StrobeDocument *document)
{
  StrobeChannelsPanel *self;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);

  self = g_object_new (STROBE_TYPE_CHANNELS_PANEL, NULL);
  self->document = g_object_ref (document);
  find_target (self);
  if (self->client == NULL && strobe_document_is_live (document))
    set_unusable (self, _("Waiting for the program to say where its control server is…"));
  g_signal_connect_object (document, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::status", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);
  return GTK_WIDGET (self);
}

static Channel *
lookup_name (StrobeChannelsPanel *self,
             const char          *name)
{
  GHashTableIter iter;
  Channel *channel;

  g_hash_table_iter_init (&iter, self->channels);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &channel))
    if (g_ascii_strcasecmp (channel->name, name) == 0)
      return channel;
  return NULL;
}

GtkSwitch *
strobe_channels_panel_get_switch (StrobeChannelsPanel *self,
                                  const char          *name)
{
  Channel *channel;

  g_return_val_if_fail (STROBE_IS_CHANNELS_PANEL (self), NULL);
  channel = lookup_name (self, name);
  return channel ? channel->toggle : NULL;
}

gboolean
strobe_channels_panel_is_pending (StrobeChannelsPanel *self,
                                  const char          *name)
{
  Channel *channel;

  g_return_val_if_fail (STROBE_IS_CHANNELS_PANEL (self), FALSE);
  channel = lookup_name (self, name);
  return channel != NULL && channel->pending;
}

const char *
strobe_channels_panel_get_target (StrobeChannelsPanel *self)
{
  g_return_val_if_fail (STROBE_IS_CHANNELS_PANEL (self), NULL);
  return self->target;
}
