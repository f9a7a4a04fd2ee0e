/* strobe-store-error.h — the error domain shared by the store, its server and its client.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define STROBE_STORE_ERROR (strobe_store_error_quark ())

typedef enum
{
  STROBE_STORE_ERROR_NOT_FOUND,      /* no trace or session with that id */
  STROBE_STORE_ERROR_INVALID_NAME,   /* a trace name that cannot be a file name */
  STROBE_STORE_ERROR_EXISTS,         /* rename onto a name already taken */
  STROBE_STORE_ERROR_BUSY,           /* the trace is live: a recorder still writes it */
  STROBE_STORE_ERROR_IO,             /* the file system said no */
  STROBE_STORE_ERROR_PROTOCOL,       /* a store-protocol message was malformed */
  STROBE_STORE_ERROR_REMOTE,         /* the store server answered with an error status */
  STROBE_STORE_ERROR_SECRET,         /* no usable store secret here (file unsafe, damaged) */
  STROBE_STORE_ERROR_AUTH,           /* the other end failed the challenge–response */
} StrobeStoreError;

GQuark strobe_store_error_quark (void);

G_END_DECLS
