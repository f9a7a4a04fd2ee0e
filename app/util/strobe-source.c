/* strobe-source.c
 *
 * The command is split into words before the file name goes in, so a file name with
 * spaces or shell characters is one argument and never interpreted.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-source.h"

#define SETTINGS_ID "org.strobe.Viewer"

char *
strobe_source_dup_command (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SETTINGS_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "editor-command"))
    return g_strdup ("");
  settings = g_settings_new (SETTINGS_ID);
  return g_settings_get_string (settings, "editor-command");
}

char **
strobe_source_build_argv (const char  *command,
                          const char  *file,
                          int          line,
                          GError     **error)
{
  g_auto(GStrv) words = NULL;
  g_autoptr(GStrvBuilder) out = g_strv_builder_new ();
  gboolean named_file = FALSE;
  int n = 0;

  g_return_val_if_fail (command != NULL && file != NULL, NULL);
  if (!g_shell_parse_argv (command, &n, &words, error))
    return NULL;
  for (int i = 0; i < n; i++)
    {
      g_autoptr(GString) word = g_string_new (NULL);

      for (const char *p = words[i]; *p; p++)
        {
          if (p[0] != '%' || p[1] == '\0')
            {
              g_string_append_c (word, *p);
              continue;
            }
          p++;
          if (*p == 'f')
            {
              g_string_append (word, file);
              named_file = TRUE;
            }
          else if (*p == 'l')
            g_string_append_printf (word, "%d", MAX (line, 1));
          else if (*p == '%')
            g_string_append_c (word, '%');
          else
            {
              g_string_append_c (word, '%');
              g_string_append_c (word, *p);
            }
        }
      g_strv_builder_add (out, word->str);
    }
  if (!named_file)
    g_strv_builder_add (out, file);
  return g_strv_builder_end (out);
}

static void
launch_default_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    g_warning ("Could not open the source file: %s", error->message);
}

gboolean
strobe_source_open (GtkWidget   *widget,
                    const char  *file,
                    int          line,
                    GError     **error)
{
  g_autofree char *command = strobe_source_dup_command ();
  g_autoptr(GFile) gfile = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (file != NULL, FALSE);

  gfile = g_file_new_for_commandline_arg (file);
  path = g_file_get_path (gfile);
  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   /* Translators: %s is a source file as the compiler named it */
                   _("The source file “%s” is not on this computer. A trace names a source file as "
                     "the compiler saw it, where the program was built: install the program's sources "
                     "there, or build it here."),
                   file);
      return FALSE;
    }

  g_strstrip (command);
  if (*command != '\0')
    {
      g_auto(GStrv) argv = strobe_source_build_argv (command, path, line, error);
      g_autoptr(GSubprocess) proc = NULL;

      if (argv == NULL)
        {
          g_prefix_error (error, _("The editor command in Preferences does not parse: "));
          return FALSE;
        }
      proc = g_subprocess_newv ((const char *const *) argv, G_SUBPROCESS_FLAGS_NONE, error);
      if (proc == NULL)
        {
          g_prefix_error (error, _("The editor command in Preferences did not start: "));
          return FALSE;
        }
      /* Reaped when it exits, whether or not anyone waits. */
      g_subprocess_wait_async (proc, NULL, NULL, NULL);
      return TRUE;
    }
  {
    g_autofree char *uri = g_file_get_uri (gfile);
    g_autoptr(GAppLaunchContext) context =
      G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (gtk_widget_get_display (widget)));

    g_app_info_launch_default_for_uri_async (uri, context, NULL, launch_default_cb, NULL);
  }
  return TRUE;
}
