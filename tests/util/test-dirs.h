/* test-dirs.h — temporary directories for tests and benchmarks (GLib only).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A fresh directory under the temporary one, named from @tmpl ("name-XXXXXX", as
 * g_dir_make_tmp()); the test fails when it cannot be made. Free with g_free(). */
char *test_dir_make_tmp   (const char *tmpl);

/* A fresh directory (as test_dir_make_tmp()) made this process's XDG data, config and
 * cache home, with its "run" (0700) as XDG_RUNTIME_DIR: what a test's viewer keeps (recent
 * files, settings, the trace store) and where test programs announce themselves stay out
 * of the user's. Free with g_free(). */
char *test_dir_make_home  (const char *tmpl);

/* Removes @path and everything under it (files and directories; symbolic links are
 * removed, never followed). Quietly does nothing when @path is NULL or gone. */
void  test_dir_remove_all (const char *path);

G_END_DECLS
