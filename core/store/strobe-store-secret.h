/* strobe-store-secret.h — the store protocol's shared secret (STORE-PROTOCOL.md §1a).
 *
 * The store server and its clients prove to each other that they know it with the
 * challenge–response of core/protocol/AUTH.md. It lives in `store.secret` in the store
 * directory: 64 hex digits (256 random bits), mode 0600, owned by the user — the same
 * protection ssh-agent's socket and the D-Bus session bus's cookie file rely on. The user's
 * own programs can read it; another local user cannot, so cannot use the store.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define STROBE_STORE_SECRET_FILE  "store.secret"
/* The environment variable that overrides the file, on both ends (a remote store). */
#define STROBE_STORE_SECRET_ENV   "STROBE_STORE_SECRET"
/* A secret chosen by the user must be at least this long: anyone who connects gets a
 * server proof to test guesses against offline, so it has to resist a dictionary. */
#define STROBE_STORE_SECRET_MIN   16
#define STROBE_STORE_SECRET_MAX   256

/* The secret for the store in @directory: STROBE_STORE_SECRET when set, else the contents
 * of @directory/store.secret. With @create, a missing file is made (atomically: written
 * to a temporary file and linked into place, so two servers starting at once agree).
 * Fails with a reason a user can act on when the file is readable or writable by anyone
 * but its owner, is not owned by the user, is not a regular file, or holds anything but
 * the secret; or when STROBE_STORE_SECRET is too short or has blanks/control characters. */
char *strobe_store_secret_load (const char  *directory,
                                gboolean     create,
                                GError     **error);

G_END_DECLS
