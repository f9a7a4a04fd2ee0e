/* strobe-decoder-input.c — feeding a decoder from a file (mapped, in slices whose pages
 * are dropped once read) or from a stream (which may follow a growing trace).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-decoder.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/mman.h>
#include <sys/stat.h>

gboolean
strobe_decoder_read_file (StrobeDecoder  *self,
                          const char     *path,
                          GCancellable   *cancellable,
                          GError        **error)
{
  return strobe_decoder_read_file_full (self, path, cancellable, NULL, NULL, error);
}

gboolean
strobe_decoder_read_file_full (StrobeDecoder              *self,
                               const char                 *path,
                               GCancellable               *cancellable,
                               StrobeDecoderProgressFunc   progress,
                               gpointer                    user_data,
                               GError                    **error)
{
  g_autoptr(GMappedFile) file = NULL;
  const guint8 *data;
  gsize len, total, done = 0;
  /* Slices keep cancellation and progress responsive on big files without copying. */
  const gsize slice = 4u * 1024u * 1024u;

  g_return_val_if_fail (STROBE_IS_DECODER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* What cannot be mapped says what it is: a folder is not a trace, and a pipe (a shell's
   * <(…), /dev/stdin) is read as the stream it is, where mmap() said only "No such device". */
  {
    GStatBuf st;
    gboolean known = g_stat (path, &st) == 0;

    if (known && S_ISDIR (st.st_mode))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s", _("This is a folder, not a trace file"));
        return FALSE;
      }
    if (known && !S_ISREG (st.st_mode))
      {
        g_autoptr(GFile) gfile = g_file_new_for_path (path);
        g_autoptr(GFileInputStream) stream = g_file_read (gfile, cancellable, error);

        if (stream == NULL)
          return FALSE;
        return strobe_decoder_read_stream_full (self, G_INPUT_STREAM (stream), 0, cancellable, progress, user_data,
                                                error);
      }
  }
  file = g_mapped_file_new (path, FALSE, error);
  if (file == NULL)
    return FALSE;
  data = (const guint8 *) g_mapped_file_get_contents (file);
  if (strobe_decoder_get_offset (self) == 0)
    strobe_decoder_set_source_file (self, path);
  len = total = g_mapped_file_get_length (file);
  if (len > 0)
    madvise ((void *) data, len, MADV_SEQUENTIAL);
  if (progress)
    progress (0, total, user_data);

  while (len > 0)
    {
      gsize n = MIN (len, slice);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!strobe_decoder_feed (self, data, n, error))
        return FALSE;
      /* The decoder keeps nothing that points into what it was fed (a stream's buffer is
       * reused too): the slice's pages leave this process, or a read of a file of several
       * GB would stay resident to its end (the page cache still has them). */
      madvise ((void *) data, n, MADV_DONTNEED);
      data += n;
      len -= n;
      done += n;
      if (progress)
        progress (done, total, user_data);
    }
  return strobe_decoder_finish (self, error);
}

gboolean
strobe_decoder_read_stream (StrobeDecoder  *self,
                            GInputStream   *stream,
                            GCancellable   *cancellable,
                            GError        **error)
{
  return strobe_decoder_read_stream_full (self, stream, 0, cancellable, NULL, NULL, error);
}

gboolean
strobe_decoder_read_stream_full (StrobeDecoder              *self,
                                 GInputStream               *stream,
                                 guint64                     total,
                                 GCancellable               *cancellable,
                                 StrobeDecoderProgressFunc   progress,
                                 gpointer                    user_data,
                                 GError                    **error)
{
  g_autofree guint8 *buffer = NULL;
  const gsize buffer_size = 1024u * 1024u;
  guint64 done = 0;

  g_return_val_if_fail (STROBE_IS_DECODER (self), FALSE);
  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  buffer = g_malloc (buffer_size);
  for (;;)
    {
      /* A following stream blocks here until the trace grows or ends. */
      gssize n = g_input_stream_read (stream, buffer, buffer_size, cancellable, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        break;
      if (!strobe_decoder_feed (self, buffer, (gsize) n, error))
        return FALSE;
      done += (guint64) n;
      if (progress)
        progress (done, total, user_data);
    }
  return strobe_decoder_finish (self, error);
}
