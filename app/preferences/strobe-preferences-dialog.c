/* strobe-preferences-dialog.c
 *
 * The layout is strobe-preferences-dialog.ui; every control is bound to its GSettings key
 * here; the application watches the keys.
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
  GtkButton            *store_reset;
  GtkButton            *store_choose;
  GtkLabel             *recorder_label;
  GtkSpinButton        *port_spin;
  GtkSwitch            *listen_switch;
  GtkEntry             *channels_entry;
  GtkSpinButton        *tail_spin;
  GtkEntry             *editor_entry;
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
  gtk_widget_set_sensitive (GTK_WIDGET (self->store_reset), *setting != '\0');
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

static void
strobe_preferences_dialog_dispose (GObject *object)
{
  StrobePreferencesDialog *self = STROBE_PREFERENCES_DIALOG (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);
  g_clear_object (&self->services);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_PREFERENCES_DIALOG);

  G_OBJECT_CLASS (strobe_preferences_dialog_parent_class)->dispose (object);
}

static void
strobe_preferences_dialog_class_init (StrobePreferencesDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_preferences_dialog_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/preferences/strobe-preferences-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, store_label);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, store_reset);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, store_choose);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, recorder_label);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, port_spin);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, listen_switch);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, channels_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, tail_spin);
  gtk_widget_class_bind_template_child (widget_class, StrobePreferencesDialog, editor_entry);
  gtk_widget_class_bind_template_callback (widget_class, choose_store_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_store_cb);
}

static void
strobe_preferences_dialog_init (StrobePreferencesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* GTK 4.8 reads a button with a mnemonic label by both names ("Use Default Use Default"). */
  strobe_a11y_fix_mnemonic_button (self->store_reset);
  strobe_a11y_fix_mnemonic_button (self->store_choose);
  strobe_a11y_make_copyable (self->store_label);
}

GtkWidget *
strobe_preferences_dialog_new (StrobeServices *services,
                               GtkWindow      *parent)
{
  StrobePreferencesDialog *self;

  g_return_val_if_fail (STROBE_IS_SERVICES (services), NULL);

  self = g_object_new (STROBE_TYPE_PREFERENCES_DIALOG, "transient-for", parent, NULL);
  self->services = g_object_ref (services);
  self->settings = g_object_ref (strobe_services_get_settings (services));

  g_settings_bind (self->settings, "recorder-port", self->port_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "listen-on-all-interfaces", self->listen_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "default-channels", self->channels_entry, "text",
                                G_SETTINGS_BIND_DEFAULT, channels_get, channels_set, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "tail-size", self->tail_spin, "value",
                                G_SETTINGS_BIND_DEFAULT, tail_get, tail_set, NULL, NULL);
  g_settings_bind (self->settings, "editor-command", self->editor_entry, "text", G_SETTINGS_BIND_DEFAULT);

  g_signal_connect_object (self->settings, "changed::store-directory", G_CALLBACK (update_store), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (services, "store-changed", G_CALLBACK (update_store), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (services, "recorder-changed", G_CALLBACK (update_recorder), self, G_CONNECT_SWAPPED);
  update_store (self);
  update_recorder (self);
  return GTK_WIDGET (self);
}
