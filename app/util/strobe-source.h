/* strobe-source.h — "open source location": a log site's or an allocation's file and line,
 * opened the way the user chose in Preferences (the editor-command setting) or with the
 * desktop's default application for the file.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The editor-command setting; "" when unset (or the schema is not installed). */
char    *strobe_source_dup_command (void);
/* @command split like a shell would, with %f (the file), %l (the line) and %% replaced in
 * each word; the file is appended when no word names %f. NULL and @error when @command
 * does not parse or is empty. */
char   **strobe_source_build_argv  (const char  *command,
                                    const char  *file,
                                    int          line,
                                    GError     **error);
/* Opens @file at @line: the editor command of the settings, or the default application
 * for the file. FALSE and @error (translated) when the file does not exist or nothing
 * could be started; a failure of the default application after it started is not seen. */
gboolean strobe_source_open        (GtkWidget   *widget,
                                    const char  *file,
                                    int          line,
                                    GError     **error);

G_END_DECLS
