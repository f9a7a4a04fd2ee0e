/* strobe-decoder-error-private.h — the decoder's errors carry the byte offset they name.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-decoder.h"

G_BEGIN_DECLS

/* Sets the offset a STROBE_DECODER_ERROR names (other errors are left alone). */
void strobe_decoder_error_set_offset (GError *error, guint64 offset);

G_END_DECLS
