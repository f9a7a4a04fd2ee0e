/* strobe-build-tree.h — where a program's data is when it runs from the build directory
 * (`_build/app/strobe`, `_build/core/cli/strobe-cli`) rather than from where it was
 * installed: its translations and the viewer's settings schema are then the build tree's,
 * so the README's commands show them without installing anything.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when the running executable lies inside the build directory it was built in. */
gboolean    strobe_build_tree_is_running_uninstalled (void);
/* The build tree's po/ when running uninstalled, else the installed locale directory. */
const char *strobe_build_tree_locale_dir             (void);
/* The build tree's compiled schemas when running uninstalled, else NULL. */
const char *strobe_build_tree_schema_dir             (void);
/* setlocale, bindtextdomain and textdomain for the "strobe" domain, from the right place. */
void        strobe_build_tree_init_i18n              (void);

G_END_DECLS
