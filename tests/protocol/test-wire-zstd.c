/* test-wire-zstd.c — the ZSTD packet codec (core/protocol/strobe-wire-zstd.c): packets
 * written by one encoder decode, in order, with one decoder to exactly their payloads;
 * short payloads stay raw and out of the stream; a packet that does not decode spends the
 * decoder; and the reason the codec exists — records that repeat across packets, further
 * back than LZ4's window — packs tighter than LZ4 packets. */
#include <glib.h>
#include <string.h>

#include "strobe-wire.h"
#include "strobe-wire-zstd.h"

/* Allocation-record-like payloads: a loop of 300 KiB repeated with a few varying bytes,
 * cut into packets of 40 KiB, so the repeats are in other packets, far behind. */
static GPtrArray *
make_payloads (guint n)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GRand *rand = g_rand_new_with_seed (26);
  gsize loop = 300 * 1024, packet = 40 * 1024;
  guint8 *pattern = g_malloc (loop);

  for (gsize i = 0; i < loop; i++)
    pattern[i] = (guint8) g_rand_int_range (rand, 0, 256);
  for (guint i = 0; i < n; i++)
    {
      gsize len = i % 5 == 4 ? 17 : packet;   /* some short ones: raw */
      guint8 *p = g_malloc (len);

      for (gsize j = 0; j < len; j++)
        p[j] = pattern[((gsize) i * packet + j) % loop] ^ (j % 997 == 0 ? (guint8) i : 0);
      g_ptr_array_add (all, g_bytes_new_take (p, len));
    }
  g_free (pattern);
  g_rand_free (rand);
  return all;
}

typedef struct
{
  StrobeWirePacketHeader h;
  const guint8          *payload;
} Packet;

static GArray *
split (const StrobeWireBuf *buf)
{
  GArray *packets = g_array_new (FALSE, FALSE, sizeof (Packet));

  for (gsize pos = 0; pos < buf->len;)
    {
      Packet p;

      g_assert_cmpuint (buf->len - pos, >=, sizeof p.h);
      memcpy (&p.h, buf->data + pos, sizeof p.h);
      g_assert_cmpint (strobe_wire_check_packet_header (buf->data + pos), ==, STROBE_WIRE_HEADER_OK);
      p.payload = buf->data + pos + sizeof p.h;
      g_array_append_val (packets, p);
      pos += p.h.size;
    }
  return packets;
}

static void
test_round_trip (void)
{
  g_autoptr (GPtrArray) payloads = make_payloads (60);
  StrobeWireZstd *enc = strobe_wire_zstd_new_encoder (3);
  StrobeWireZstd *dec = strobe_wire_zstd_new_decoder ();
  StrobeWireBuf zbuf = { 0 }, lbuf = { 0 }, scratch = { 0 };
  g_autoptr (GArray) packets = NULL;
  guint8 *out = g_malloc (STROBE_WIRE_MAX_PAYLOAD);
  guint raw = 0;

  for (guint i = 0; i < payloads->len; i++)
    {
      gsize len;
      const guint8 *p = g_bytes_get_data (payloads->pdata[i], &len);

      g_assert_true (strobe_wire_write_packet_zstd (&zbuf, enc, (guint16) (16 + i % 3), p, len));
      g_assert_true (strobe_wire_write_packet (&lbuf, &scratch, (guint16) (16 + i % 3), p, len));
    }
  packets = split (&zbuf);
  g_assert_cmpuint (packets->len, ==, payloads->len);
  for (guint i = 0; i < packets->len; i++)
    {
      Packet *pk = &g_array_index (packets, Packet, i);
      gsize len;
      const guint8 *p = g_bytes_get_data (payloads->pdata[i], &len);
      const char *why = NULL;

      g_assert_cmpuint (pk->h.thread_id, ==, 16 + i % 3);
      g_assert_cmpuint (pk->h.raw_size, ==, len);
      if (len < STROBE_WIRE_ZSTD_MIN)
        {
          g_assert_cmpuint (pk->h.flags, ==, 0);
          g_assert_cmpmem (pk->payload, len, p, len);
          raw++;
          continue;
        }
      g_assert_cmpuint (pk->h.flags, ==, STROBE_PACKET_FLAG_ZSTD);
      g_assert_true (strobe_wire_zstd_decode (dec, pk->payload, pk->h.size - sizeof pk->h, out, len, &why));
      g_assert_cmpmem (out, len, p, len);
    }
  g_assert_cmpuint (raw, ==, 12);
  /* The repeats are 300 KiB back, in other packets: LZ4's 64 KiB never sees them. */
  g_test_message ("zstd stream %zu bytes, LZ4 packets %zu bytes", zbuf.len, lbuf.len);
  g_assert_cmpuint (zbuf.len * 4, <, lbuf.len);

  strobe_wire_zstd_free (enc);
  strobe_wire_zstd_free (dec);
  strobe_wire_buf_clear (&zbuf);
  strobe_wire_buf_clear (&lbuf);
  strobe_wire_buf_clear (&scratch);
  g_free (out);
}

/* Each packet needs the ones before it: a decoder that missed one cannot go on, and one
 * that met a damaged packet refuses the rest. */
static void
test_needs_every_packet (void)
{
  g_autoptr (GPtrArray) payloads = make_payloads (9);
  StrobeWireZstd *enc = strobe_wire_zstd_new_encoder (1);
  StrobeWireZstd *dec;
  StrobeWireBuf buf = { 0 };
  g_autoptr (GArray) packets = NULL;
  guint8 *out = g_malloc (STROBE_WIRE_MAX_PAYLOAD);
  const char *why = NULL;
  Packet *pk;

  for (guint i = 0; i < 4; i++)
    {
      gsize len;
      const guint8 *p = g_bytes_get_data (payloads->pdata[i], &len);

      g_assert_true (strobe_wire_write_packet_zstd (&buf, enc, 17, p, len));
    }
  packets = split (&buf);

  /* Without the first (the frame header), the second is no zstd stream. */
  dec = strobe_wire_zstd_new_decoder ();
  pk = &g_array_index (packets, Packet, 1);
  g_assert_false (strobe_wire_zstd_decode (dec, pk->payload, pk->h.size - sizeof pk->h, out, pk->h.raw_size, &why));
  g_assert_nonnull (why);
  strobe_wire_zstd_free (dec);

  /* A damaged byte in the second: it fails or decodes to other bytes; the third is then
   * refused whatever it holds. */
  dec = strobe_wire_zstd_new_decoder ();
  pk = &g_array_index (packets, Packet, 0);
  g_assert_true (strobe_wire_zstd_decode (dec, pk->payload, pk->h.size - sizeof pk->h, out, pk->h.raw_size, NULL));
  pk = &g_array_index (packets, Packet, 1);
  g_assert_false (strobe_wire_zstd_decode (dec, pk->payload, pk->h.size - sizeof pk->h, out, pk->h.raw_size + 1, &why));
  g_assert_cmpstr (why, ==, "it decodes to fewer than raw_size bytes");
  pk = &g_array_index (packets, Packet, 2);
  g_assert_false (strobe_wire_zstd_decode (dec, pk->payload, pk->h.size - sizeof pk->h, out, pk->h.raw_size, &why));
  g_assert_cmpstr (why, ==, "an earlier ZSTD payload of the stream did not decode");
  strobe_wire_zstd_free (dec);

  /* Control packets never go through it. */
  g_assert_false (strobe_wire_write_packet_zstd (&buf, enc, STROBE_TID_CONTROL, out, 100));

  strobe_wire_zstd_free (enc);
  strobe_wire_buf_clear (&buf);
  g_free (out);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wire-zstd/round-trip", test_round_trip);
  g_test_add_func ("/wire-zstd/needs-every-packet", test_needs_every_packet);
  return g_test_run ();
}
