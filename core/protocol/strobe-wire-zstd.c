/* strobe-wire-zstd.c — the ZSTD packet codec (see the header).
 *
 * Why a stream and not a block per packet: a memory trace is a few bytes per allocation,
 * and what repeats in it (a loop's allocations) repeats across packets and further back
 * than LZ4's 64 KiB; on a python churn of 2.7 M allocations one zstd stream is 1.8 MB where
 * LZ4 packets are 3.4 MB and zstd blocks per packet 2.2 MB (tests/bench/README.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "strobe-wire-zstd.h"

struct StrobeWireZstd
{
  ZSTD_CCtx *c;
  ZSTD_DCtx *d;
  bool       spent;
};

StrobeWireZstd *
strobe_wire_zstd_new_encoder (int level)
{
  StrobeWireZstd *z = calloc (1, sizeof *z);

  if (z == NULL || (z->c = ZSTD_createCCtx ()) == NULL)
    {
      free (z);
      errno = ENOMEM;
      return NULL;
    }
  if (level > 0)
    ZSTD_CCtx_setParameter (z->c, ZSTD_c_compressionLevel, level > 19 ? 19 : level);
  /* A level's own window may be larger than a reader must accept. */
  ZSTD_CCtx_setParameter (z->c, ZSTD_c_windowLog, 21);
  return z;
}

StrobeWireZstd *
strobe_wire_zstd_new_decoder (void)
{
  StrobeWireZstd *z = calloc (1, sizeof *z);

  if (z == NULL || (z->d = ZSTD_createDCtx ()) == NULL)
    {
      free (z);
      errno = ENOMEM;
      return NULL;
    }
  ZSTD_DCtx_setParameter (z->d, ZSTD_d_windowLogMax, STROBE_WIRE_ZSTD_WINDOW_LOG_MAX);
  return z;
}

void
strobe_wire_zstd_free (StrobeWireZstd *z)
{
  if (z == NULL)
    return;
  ZSTD_freeCCtx (z->c);
  ZSTD_freeDCtx (z->d);
  free (z);
}

bool
strobe_wire_write_packet_zstd (StrobeWireBuf *out, StrobeWireZstd *z, uint16_t thread_id,
                               const uint8_t *payload, size_t len)
{
  StrobeWirePacketHeader h;
  ZSTD_inBuffer in = { payload, len, 0 };
  ZSTD_outBuffer o;
  size_t start, r;

  if (z == NULL || z->c == NULL || thread_id == STROBE_TID_CONTROL)
    {
      errno = EINVAL;
      return false;
    }
  if (len < STROBE_WIRE_ZSTD_MIN || len > STROBE_WIRE_MAX_PAYLOAD)
    {
      StrobeWireBuf none = { 0 };
      bool ok;

      if (len > STROBE_WIRE_MAX_PAYLOAD)
        {
          errno = EMSGSIZE;
          return false;
        }
      /* Under STROBE_WIRE_COMPRESS_MIN: the LZ4 writer sends it raw too. */
      ok = strobe_wire_write_packet (out, &none, thread_id, payload, len);
      strobe_wire_buf_clear (&none);
      return ok;
    }
  start = out->len;
  if (!strobe_wire_buf_reserve (out, sizeof h + ZSTD_compressBound (len) + 64))
    return false;
  out->len += sizeof h;
  do
    {
      if (out->cap - out->len < 64 && !strobe_wire_buf_reserve (out, 4096))
        {
          out->len = start;
          return false;
        }
      o = (ZSTD_outBuffer) { out->data + out->len, out->cap - out->len, 0 };
      r = ZSTD_compressStream2 (z->c, &o, &in, ZSTD_e_flush);
      out->len += o.pos;
    }
  while (!ZSTD_isError (r) && r != 0);
  if (ZSTD_isError (r) || out->len - start - sizeof h > STROBE_WIRE_MAX_PAYLOAD)
    {
      /* The stream's state is lost with it: a later packet could not be decoded. */
      out->len = start;
      errno = EIO;
      return false;
    }
  h.size = (uint32_t) (out->len - start);
  h.thread_id = thread_id;
  h.flags = STROBE_PACKET_FLAG_ZSTD;
  h.raw_size = (uint32_t) len;
  memcpy (out->data + start, &h, sizeof h);
  return true;
}

bool
strobe_wire_zstd_decode (StrobeWireZstd *z, const uint8_t *src, size_t len, uint8_t *dst,
                         size_t raw_size, const char **why)
{
  ZSTD_inBuffer in = { src, len, 0 };
  ZSTD_outBuffer o = { dst, raw_size, 0 };
  const char *reason = NULL;
  size_t r = 0;

  if (z == NULL || z->d == NULL)
    {
      errno = EINVAL;
      return false;
    }
  if (z->spent)
    reason = STROBE_N_ ("an earlier ZSTD payload of the stream did not decode");
  else
    {
      while (in.pos < in.size && o.pos < o.size)
        {
          r = ZSTD_decompressStream (z->d, &o, &in);
          if (ZSTD_isError (r))
            break;
        }
      if (ZSTD_isError (r))
        reason = ZSTD_getErrorCode (r) == ZSTD_error_frameParameter_windowTooLarge
                 ? STROBE_N_ ("its window is larger than 8 MiB") : STROBE_N_ ("it is not zstd data that decodes");
      else if (o.pos < o.size)
        reason = STROBE_N_ ("it decodes to fewer than raw_size bytes");
      else
        {
          /* Full: anything more it holds is too much. */
          uint8_t extra;
          ZSTD_outBuffer x = { &extra, 1, 0 };

          r = ZSTD_decompressStream (z->d, &x, &in);
          if (ZSTD_isError (r))
            reason = STROBE_N_ ("it is not zstd data that decodes");
          else if (x.pos > 0 || in.pos < in.size)
            reason = STROBE_N_ ("it decodes to more than raw_size bytes");
        }
    }
  if (reason == NULL)
    return true;
  z->spent = true;
  if (why != NULL)
    *why = reason;
  errno = EBADMSG;
  return false;
}
