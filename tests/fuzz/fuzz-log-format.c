/* fuzz-log-format.c — libFuzzer target for the log argument decoder (core/models,
 * strobe_log_format): a format string and encoded arguments, both straight from a trace.
 *
 * Input: the format string up to the first NUL, then the FormatArgs bytes
 * ([count][types][values], core/protocol/strobe-printf.h). Without a NUL the whole input
 * is the format and there are no arguments.
 *
 * Checks, besides the sanitizers: the call returns (no %n write, no read past the
 * arguments, no unbounded output), and the argument count agrees with the reader.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strobe-log-format.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const uint8_t *nul = memchr (data, 0, size);
  gsize fmt_len = nul ? (gsize) (nul - data) : size;
  char *format = g_strndup ((const char *) data, fmt_len);
  /* An exact-size copy of the arguments, so reading past them is caught. */
  gsize args_len = nul ? size - fmt_len - 1 : 0;
  guint8 *args = g_memdup2 (nul ? nul + 1 : data, args_len);
  GString *out = g_string_new (NULL);
  gint count = strobe_log_args_count (args, args_len);

  if (count < -1 || count > 255)
    abort ();
  strobe_log_format (format, args, args_len, out);
  /* Every conversion writes a bounded amount (widths and precisions come from at most
   * a few digits or an INT32 argument, which the formatter must cap). */
  if (out->len > 64u * 1024u * 1024u)
    abort ();
  g_string_free (out, TRUE);
  g_free (args);
  g_free (format);
  return 0;
}
