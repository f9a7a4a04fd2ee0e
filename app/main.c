/* main.c — `strobe [FILE…]`: the viewer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-application.h"
#include "strobe-build-tree.h"
#include "strobe-give-way.h"
#include "strobe-heap-reserve.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(StrobeApplication) app = NULL;

  strobe_heap_reserve_start ();
  strobe_give_way_enable ();
  strobe_build_tree_init_i18n ();

  app = strobe_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
