/* main.c — `strobe [FILE…]`: the viewer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "strobe-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(StrobeApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = strobe_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
