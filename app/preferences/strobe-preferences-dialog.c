/* strobe-preferences-dialog.c
 *
 * Every control is bound to its GSettings key; the application watches the keys.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-preferences-dialog.h"

#define MIB (1024u * 1024u)

struct _StrobePreferencesDialog
{
  GtkWindow             parent_instance;

  StrobeServices       *services;
  GSettings            *settings;
  GtkLabel             *store_label;
  GtkWidget            *store_reset;
  GtkLabel             *recorder_label;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (StrobePreferencesDialog, strobe_preferences_dialog, GTK_TYPE_WINDOW)

static void
update_store (StrobePreferencesDialog *self)
{
  g_autofree char *setting = g_settings_get_string (self->settings, "store-directory");
  StrobeStore *store = strobe_services_get_store (self->services);
  const GError *error = strobe_services_get_store_error (self->services);

  if (store != NULL)
    gtk_label_set_text (self->store_label, strobe_store_get_directory (store));
  else
    gtk_label_set_text (self->store_label, error ? error->message : "");
  gtk_widget_set_sensitive (self->store_reset, *setting != '\0');
}

static void
update_recorder (StrobePreferencesDialog *self)
{
  g_autofree char *status = strobe_services_dup_recorder_status (self->services);
  const GError *error = strobe_services_get_recorder_error (self->services);

  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s: %s", status, error->message);

      gtk_label_set_text (self->recorder_label, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->recorder_label), "error");
    }
  else if (strobe_services_port_from_command_line (self->services))
    {
      /* The setting below is not what runs now: say which port is, and why. */
      g_autofree char *text =
        /* Translators: the recorder's status, then its port */
        g_strdup_printf (_("%s (port %u, from --recorder-port: changing the port here replaces it)"),
                         status, strobe_services_get_recorder_port (self->services));

      gtk_label_set_text (self->recorder_label, text);
      gtk_widget_remove_css_class (GTK_WIDGET (self->recorder_label), "error");
    }
  else
    {
      gtk_label_set_text (self->recorder_label, status);
      gtk_widget_remove_css_class (GTK_WIDGET (self->recorder_label), "error");
    }
}

static void
chooser_response_cb (StrobePreferencesDialog *self,
                     int                      response)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (self->chooser));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        g_settings_set_string (self->settings, "store-directory", path);
    }
  g_clear_object (&self->chooser);
}

static void
choose_store_cb (StrobePreferencesDialog *self)
{
  self->chooser = gtk_file_chooser_native_new (_("Trace Store Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_swapped (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
reset_store_cb (StrobePreferencesDialog *self)
{
  g_settings_reset (self->settings, "store-directory");
}

/* tail-size is in bytes; the spin button in MiB. */
static gboolean
tail_get (GValue   *value,
          GVariant *variant,
          gpointer  user_data)
{
  g_value_set_double (value, (double) g_variant_get_uint32 (variant) / MIB);
  return TRUE;
}

static GVariant *
tail_set (const GValue       *value,
          const GVariantType *type,
          gpointer            user_data)
{
  return g_variant_new_uint32 ((guint32) (g_value_get_double (value) * MIB));
}

/* default-channels is a list; the entry "cpu,frame,log". */
static gboolean
channels_get (GValue   *value,
              GVariant *variant,
              gpointer  user_data)
{
  g_autofree const char **names = g_variant_get_strv (variant, NULL);

  g_value_take_string (value, g_strjoinv (",", (char **) names));
  return TRUE;
}

static GVariant *
channels_set (const GValue       *value,
              const GVariantType *type,
              gpointer            user_data)
{
  g_auto(GStrv) parts = g_strsplit_set (g_value_get_string (value), ", ", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      g_strv_builder_add (builder, parts[i]);
  names = g_strv_builder_end (builder);
  return g_variant_new_strv ((const char *const *) names, -1);
}

/* One "label — control" row with an explanation under it; the control is labelled by the
 * label for screen readers. */
static void
add_row (GtkGrid    *grid,
         int        *row,
         const char *mnemonic,
         GtkWidget  *control,
         const char *explanation)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (mnemonic);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), control);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_valign (control, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (control, GTK_ALIGN_END);
  gtk_grid_attach (grid, label, 0, *row, 1, 1);
  gtk_grid_attach (grid, control, 1, *row, 1, 1);
  (*row)++;
  if (explanation != NULL)
    {
      GtkWidget *note = gtk_label_new (explanation);

      gtk_label_set_xalign (GTK_LABEL (note), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (note), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (note), 60);
      gtk_widget_add_css_class (note, "dim-label");
      gtk_widget_set_margin_bottom (note, 6);
      gtk_grid_attach (grid, note, 0, *row, 2, 1);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (control), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                      note, NULL, -1);
      (*row)++;
    }
}

static void
add_heading (GtkGrid    *grid,
             int        *row,
             const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_add_css_class (label, "strobe-heading");
  if (*row > 0)
    gtk_widget_set_margin_top (label, 12);
  gtk_grid_attach (grid, label, 0, *row, 2, 1);
  (*row)++;
}

static void
strobe_preferences_dialog_dispose (GObject *object)
{
  StrobePreferencesDialog *self = STROBE_PREFERENCES_DIALOG (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);
  g_clear_object (&self->services);

  G_OBJECT_CLASS (strobe_preferences_dialog_parent_class)->dispose (object);
}

static void
strobe_preferences_dialog_class_init (StrobePreferencesDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_preferences_dialog_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
strobe_preferences_dialog_init (StrobePreferencesDialog *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, -1);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  gtk_window_set_titlebar (GTK_WINDOW (self), gtk_header_bar_new ());
}

GtkWidget *
strobe_preferences_dialog_new (StrobeServices *services,
                               GtkWindow      *parent)
{
  StrobePreferencesDialog *self;
  GtkWidget *grid, *store_box, *choose, *port, *listen, *tail, *channels, *editor;
  int row = 0;

  g_return_val_if_fail (STROBE_IS_SERVICES (services), NULL);

  self = g_object_new (STROBE_TYPE_PREFERENCES_DIALOG, "transient-for", parent, NULL);
  self->services = g_object_ref (services);
  self->settings = g_object_ref (strobe_services_get_settings (services));

  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_widget_set_margin_start (grid, 18);
  gtk_widget_set_margin_end (grid, 18);
  gtk_widget_set_margin_top (grid, 18);
  gtk_widget_set_margin_bottom (grid, 18);

  /* Store. */
  add_heading (GTK_GRID (grid), &row, _("Trace Store"));
  store_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  choose = strobe_a11y_button_new_with_mnemonic (_("_Choose Folder…"));
  self->store_reset = strobe_a11y_button_new_with_mnemonic (_("Use _Default"));
  gtk_widget_set_tooltip_text (self->store_reset, _("Keep traces in the default folder"));
  g_signal_connect_swapped (choose, "clicked", G_CALLBACK (choose_store_cb), self);
  g_signal_connect_swapped (self->store_reset, "clicked", G_CALLBACK (reset_store_cb), self);
  gtk_box_append (GTK_BOX (store_box), self->store_reset);
  gtk_box_append (GTK_BOX (store_box), choose);
  self->store_label = GTK_LABEL (gtk_label_new (NULL));
  strobe_a11y_make_copyable (self->store_label);
  gtk_label_set_xalign (self->store_label, 0.0f);
  gtk_label_set_wrap (self->store_label, TRUE);
  gtk_label_set_wrap_mode (self->store_label, PANGO_WRAP_CHAR);
  add_row (GTK_GRID (grid), &row, _("Folder"), store_box, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->store_label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Trace store folder"), -1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->store_label), 0, row++, 2, 1);

  /* Recorder. */
  add_heading (GTK_GRID (grid), &row, _("Recorder"));
  port = gtk_spin_button_new_with_range (0, 65535, 1);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (port), TRUE);
  g_settings_bind (self->settings, "recorder-port", port, "value", G_SETTINGS_BIND_DEFAULT);
  add_row (GTK_GRID (grid), &row, _("_Port"), port,
           _("Programs send their traces here (STROBE_TRACEHOST=localhost:PORT). 0 picks any free port."));
  listen = gtk_switch_new ();
  g_settings_bind (self->settings, "listen-on-all-interfaces", listen, "active", G_SETTINGS_BIND_DEFAULT);
  add_row (GTK_GRID (grid), &row, _("_Listen on all interfaces"), listen,
           _("Off: only programs on this computer can connect. On: any computer on the network can "
             "send traces here, including whatever those programs log."));
  self->recorder_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->recorder_label, 0.0f);
  gtk_label_set_wrap (self->recorder_label, TRUE);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->recorder_label), 0, row++, 2, 1);

  /* Connecting. */
  add_heading (GTK_GRID (grid), &row, _("Connecting to Running Programs"));
  channels = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (channels), _("e.g. cpu,frame,log"));
  gtk_widget_set_size_request (channels, 220, -1);
  g_settings_bind_with_mapping (self->settings, "default-channels", channels, "text",
                                G_SETTINGS_BIND_DEFAULT, channels_get, channels_set, NULL, NULL);
  add_row (GTK_GRID (grid), &row, _("Default _channels"), channels,
           _("Turned on in the program when connecting, besides the ones ticked in the Connect dialog."));
  tail = gtk_spin_button_new_with_range (0, 1024, 1);
  g_settings_bind_with_mapping (self->settings, "tail-size", tail, "value",
                                G_SETTINGS_BIND_DEFAULT, tail_get, tail_set, NULL, NULL);
  add_row (GTK_GRID (grid), &row, _("_Recent history to ask for (MiB)"), tail,
           _("How much history from before the connect to ask a program for, at most what the "
             "program keeps (STROBE_TAIL_MB, 4 MiB by default)."));

  /* Source files. */
  add_heading (GTK_GRID (grid), &row, _("Source Files"));
  editor = gtk_entry_new ();
  /* Translators: an example of a command; %f and %l stay as they are */
  /* xgettext:no-c-format */
  gtk_entry_set_placeholder_text (GTK_ENTRY (editor), _("e.g. code --goto %f:%l"));
  gtk_widget_set_size_request (editor, 220, -1);
  g_settings_bind (self->settings, "editor-command", editor, "text", G_SETTINGS_BIND_DEFAULT);
  add_row (GTK_GRID (grid), &row, _("_Editor command"), editor,
           /* xgettext:no-c-format */
           _("Opens a log message’s or an allocation’s source location: %f is the file, %l the "
             "line. Empty: the desktop’s default application for the file."));

  gtk_window_set_child (GTK_WINDOW (self), grid);
  g_signal_connect_object (self->settings, "changed::store-directory", G_CALLBACK (update_store), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (services, "store-changed", G_CALLBACK (update_store), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (services, "recorder-changed", G_CALLBACK (update_recorder), self, G_CONNECT_SWAPPED);
  update_store (self);
  update_recorder (self);
  return GTK_WIDGET (self);
}
