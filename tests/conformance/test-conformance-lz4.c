/* test-conformance-lz4.c — the LZ4 rule of PROTOCOL.md §2, brute force.
 *
 * Strobe decodes LZ4 payloads with its own block decoder (strobe_wire_lz4_decode), which
 * enforces the document's rule instead of whatever a liblz4 version accepts. Here it is
 * checked against a second decoder written as plainly as the rule reads, on blocks of
 * every shape: what liblz4's compressors write (fast and HC), random valid blocks built
 * from random sequences (every offset class, long literals and matches, matches right at
 * the end limits), and those blocks damaged (bytes changed, cut, extended, raw_size
 * off by a few). The two must give the same verdict and the same bytes; a block the rule
 * accepts must also decode with liblz4 to exactly the same bytes, so the rule never
 * rejects what an LZ4 compressor writes and never reads a block differently from LZ4.
 * Every decode goes into a buffer of exactly raw_size bytes followed by a guard, so a
 * write past raw_size fails here (and under AddressSanitizer, any read past the block).
 *
 * SPDX-License-Identifier: MIT
 */
#include <glib.h>
#include <lz4.h>
#include <lz4hc.h>

#include "strobe-wire.h"

#define GUARD 64

/* ---- the rule, as plainly as it reads --------------------------------------------- */

static gboolean
ref_length (const guint8 *src, gsize len, gsize *ip, gsize *n)
{
  for (;;)
    {
      guint b;

      if (*ip >= len)
        return FALSE;
      b = src[(*ip)++];
      *n += b;
      if (b != 255)
        return TRUE;
    }
}

static gboolean
ref_decode (const guint8 *src, gsize len, guint8 *out, gsize raw_size)
{
  gsize ip = 0, op = 0;

  if (len == 0)
    return FALSE;
  for (;;)
    {
      guint token;
      gsize lit, offset, mlen;

      if (ip >= len)
        return FALSE;
      token = src[ip++];
      lit = token >> 4;
      if (lit == 15 && !ref_length (src, len, &ip, &lit))
        return FALSE;
      if (lit > len - ip || lit > raw_size - op)
        return FALSE;
      for (gsize i = 0; i < lit; i++)
        out[op++] = src[ip++];
      if (ip == len)
        return (token & 15) == 0 && op == raw_size;
      if (len - ip < 2)
        return FALSE;
      offset = src[ip] | (gsize) src[ip + 1] << 8;
      ip += 2;
      if (offset == 0 || offset > op || raw_size - op < 12)
        return FALSE;
      mlen = token & 15;
      if (mlen == 15 && !ref_length (src, len, &ip, &mlen))
        return FALSE;
      mlen += 4;
      if (op + mlen > raw_size - 5)
        return FALSE;
      for (gsize i = 0; i < mlen; i++, op++)
        out[op] = out[op - offset];
    }
}

/* ---- building blocks -------------------------------------------------------------- */

static void
put_length (GByteArray *b, gsize n)
{
  for (; n >= 255; n -= 255)
    g_byte_array_append (b, (const guint8 *) "\xff", 1);
  g_byte_array_append (b, (const guint8[]) { (guint8) n }, 1);
}

static void
put_sequence (GByteArray *b, const guint8 *lit, gsize n_lit, gsize offset, gsize mlen)
{
  guint8 token = (guint8) (MIN (n_lit, 15) << 4);

  if (offset)
    token |= (guint8) MIN (mlen - 4, 15);
  g_byte_array_append (b, &token, 1);
  if (n_lit >= 15)
    put_length (b, n_lit - 15);
  g_byte_array_append (b, lit, (guint) n_lit);
  if (offset)
    {
      guint8 o[2] = { (guint8) offset, (guint8) (offset >> 8) };
      g_byte_array_append (b, o, 2);
      if (mlen - 4 >= 15)
        put_length (b, mlen - 4 - 15);
    }
}

static gsize
pick_length (GRand *r, gsize max)
{
  gsize n;

  switch (g_rand_int_range (r, 0, 8))
    {
    case 0: n = 0; break;
    case 1: n = (gsize) g_rand_int_range (r, 15, 20); break;
    case 2: n = (gsize) g_rand_int_range (r, 200, 600); break;
    case 3: n = (gsize) g_rand_int_range (r, 1000, 5000); break;
    default: n = (gsize) g_rand_int_range (r, 0, 15); break;
    }
  return MIN (n, max);
}

/* A random block that keeps the rule, of about @target decoded bytes; the decoded bytes
 * go to @out. With @break_end its last literals are one or two too few for one of the
 * two end rules (when it has a match). */
static GByteArray *
random_block (GRand *r, gsize target, gboolean break_end, GByteArray *out, gboolean *broken)
{
  GByteArray *b = g_byte_array_new ();
  guint alphabet = g_rand_boolean (r) ? 4 : 256;

  gsize last_start = 0;

  g_byte_array_set_size (out, 0);
  for (;;)
    {
      gsize op = out->len, n_lit = pick_length (r, 2 * target), offset, mlen, max_off;
      guint8 lit[5000];

      for (gsize i = 0; i < n_lit; i++)
        lit[i] = (guint8) g_rand_int_range (r, 0, alphabet);
      max_off = MIN (op + n_lit, 65535);
      /* A match must start 12 or more bytes before the end: else this is the last
       * sequence. */
      if (max_off == 0 || op + n_lit + 12 > target || g_rand_int_range (r, 0, 50) == 0)
        break;
      switch (g_rand_int_range (r, 0, 4))
        {
        case 0: offset = (gsize) g_rand_int_range (r, 1, 8); break;
        case 1: offset = (gsize) g_rand_int_range (r, 8, 17); break;
        case 2: offset = max_off; break;
        default: offset = (gsize) g_rand_int_range (r, 1, (gint) max_off + 1); break;
        }
      offset = MIN (offset, max_off);
      mlen = 4 + pick_length (r, target);
      /* ... and end 5 or more bytes before it; sometimes exactly there. */
      if (g_rand_int_range (r, 0, 10) == 0 || op + n_lit + mlen > target - 5)
        mlen = target - 5 - (op + n_lit);
      put_sequence (b, lit, n_lit, offset, mlen);
      g_byte_array_append (out, lit, (guint) n_lit);
      last_start = out->len;
      for (gsize i = 0; i < mlen; i++)
        {
          guint8 c = out->data[out->len - offset];
          g_byte_array_append (out, &c, 1);
        }
    }
  {
    /* The last literals: 5 or more, and enough that the last match started 12 or more
     * bytes before the end; often exactly the fewest allowed. */
    gsize fewest = out->len == 0 ? 0 : MAX ((gsize) 5, last_start + 12 - MIN (last_start + 12, out->len));
    gsize n_lit = g_rand_boolean (r) ? fewest : fewest + (gsize) g_rand_int_range (r, 0, 30);

    *broken = break_end && fewest > 0;
    if (*broken)
      n_lit = fewest - (gsize) g_rand_int_range (r, 1, 3);
    guint8 lit[64];

    for (gsize i = 0; i < n_lit; i++)
      lit[i] = (guint8) g_rand_int_range (r, 0, alphabet);
    put_sequence (b, lit, n_lit, 0, 0);
    g_byte_array_append (out, lit, (guint) n_lit);
  }
  return b;
}

/* ---- checking one block ------------------------------------------------------------ */

static guint n_accepted, n_rejected;

/* Decodes @src (@len bytes) as a packet of @raw_size; @want (or NULL) is what it must
 * decode to. Returns whether the rule accepted it. */
static gboolean
check_block (const guint8 *block, gsize len, gsize raw_size, const guint8 *want)
{
  g_autofree guint8 *src = g_memdup2 (block, len ? len : 1);
  g_autofree guint8 *ours = g_malloc (raw_size + GUARD);
  g_autofree guint8 *ref = g_malloc0 (raw_size ? raw_size : 1);
  const char *why = NULL;
  gboolean ok, ref_ok;

  memset (ours + raw_size, 0xa5, GUARD);
  ok = strobe_wire_lz4_decode (src, len, ours, raw_size, &why);
  for (guint i = 0; i < GUARD; i++)
    g_assert_cmpuint (ours[raw_size + i], ==, 0xa5);
  ref_ok = ref_decode (src, len, ref, raw_size);
  if (ok != ref_ok)
    {
      g_autoptr(GString) hex = g_string_new (NULL);

      for (gsize i = 0; i < MIN (len, 64); i++)
        g_string_append_printf (hex, "%02x", src[i]);
      g_error ("raw_size %" G_GSIZE_FORMAT ", block of %" G_GSIZE_FORMAT " bytes %s: "
               "strobe says %s (%s), the plain decoder %s", raw_size, len, hex->str,
               ok ? "valid" : "corrupt", ok ? "" : why, ref_ok ? "valid" : "corrupt");
    }
  if (!ok)
    {
      g_assert_nonnull (why);
      n_rejected++;
      return FALSE;
    }
  n_accepted++;
  g_assert_true (memcmp (ours, ref, raw_size) == 0);
  if (want)
    g_assert_true (memcmp (ours, want, raw_size) == 0);
  {
    g_autofree guint8 *lib = g_malloc (raw_size + GUARD);
    int n = LZ4_decompress_safe ((const char *) src, (char *) lib, (int) len, (int) raw_size);

    g_assert_cmpint (n, ==, (int) raw_size);
    g_assert_true (memcmp (lib, ours, raw_size) == 0);
  }
  return TRUE;
}

static void
damage_and_check (GRand *r, const guint8 *block, gsize len, gsize raw_size)
{
  g_autofree guint8 *copy = g_memdup2 (block, len ? len : 1);

  for (guint k = 0; k < 6; k++)
    {
      gsize at = len ? (gsize) g_rand_int_range (r, 0, (gint) len) : 0;

      memcpy (copy, block, len);
      switch (k)
        {
        case 0: case 1: case 2:
          if (len)
            copy[at] = (guint8) g_rand_int_range (r, 0, 256);
          check_block (copy, len, raw_size, NULL);
          break;
        case 3:
          check_block (copy, at, raw_size, NULL);
          break;
        case 4:
          {
            g_autofree guint8 *longer = g_malloc (len + 1);
            memcpy (longer, block, len);
            longer[len] = (guint8) g_rand_int_range (r, 0, 256);
            check_block (longer, len + 1, raw_size, NULL);
          }
          break;
        default:
          {
            gsize d = (gsize) g_rand_int_range (r, 1, 9);

            check_block (copy, len, raw_size + d, NULL);
            check_block (copy, len, raw_size - MIN (raw_size, d), NULL);
          }
          break;
        }
    }
}

/* ---- the tests --------------------------------------------------------------------- */

static void
fill_payload (GRand *r, guint8 *p, gsize n)
{
  guint kind = (guint) g_rand_int_range (r, 0, 4);
  guint64 ts = g_rand_int (r);

  for (gsize i = 0; i < n; i++)
    switch (kind)
      {
      case 0: p[i] = (guint8) g_rand_int_range (r, 0, 256); break;   /* incompressible */
      case 1: p[i] = (guint8) g_rand_int_range (r, 0, 3); break;
      case 2: p[i] = (guint8) (i % 7 == 0 ? g_rand_int_range (r, 0, 256) : 0); break;
      default:                                                       /* trace-like */
        if (i % 18 == 0)
          ts += (guint64) g_rand_int_range (r, 10, 40);
        p[i] = i % 18 < 2 ? (guint8) (i % 18 ? 0 : 21) : (guint8) (ts >> (8 * ((i % 18 - 2) % 8)));
        break;
      }
}

static void
test_compressors (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (15);
  const gsize sizes[] = { 0, 1, 4, 5, 12, 13, 17, 31, 32, 63, 64, 65, 100, 255, 256, 1000,
                          4096, 65536, 70001 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint rep = 0; rep < 6; rep++)
      {
        gsize n = sizes[s];
        int bound = LZ4_compressBound ((int) n);
        g_autofree guint8 *raw = g_malloc (n ? n : 1);
        g_autofree guint8 *block = g_malloc ((gsize) bound);
        int len;

        fill_payload (r, raw, n);
        if (rep % 3 == 2)
          len = LZ4_compress_HC ((const char *) raw, (char *) block, (int) n, bound,
                                 g_rand_int_range (r, 1, LZ4HC_CLEVEL_MAX + 1));
        else
          len = LZ4_compress_fast ((const char *) raw, (char *) block, (int) n, bound,
                                   rep % 3 ? g_rand_int_range (r, 2, 60) : 1);
        g_assert_cmpint (len, >, 0);
        g_assert_true (check_block (block, (gsize) len, n, raw));
        damage_and_check (r, block, (gsize) len, n);
      }
}

static void
test_random_blocks (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (2);
  g_autoptr(GByteArray) out = g_byte_array_new ();

  for (guint i = 0; i < 4000; i++)
    {
      gsize target = i % 10 == 0 ? (gsize) g_rand_int_range (r, 4000, 40000)
                                 : (gsize) g_rand_int_range (r, 0, 300);
      gboolean broken;
      g_autoptr(GByteArray) b = random_block (r, target, FALSE, out, &broken);
      g_autoptr(GByteArray) bad = NULL;

      g_assert_true (check_block (b->data, b->len, out->len, out->data));
      damage_and_check (r, b->data, b->len, out->len);
      bad = random_block (r, target, TRUE, out, &broken);
      g_assert_true (check_block (bad->data, bad->len, out->len, broken ? NULL : out->data) == !broken);
    }
}

static void
test_garbage (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (7);

  for (guint i = 0; i < 20000; i++)
    {
      guint8 block[40];
      gsize len = (gsize) g_rand_int_range (r, 0, sizeof block + 1);
      gsize raw_size = (gsize) g_rand_int_range (r, 0, 120);

      for (gsize k = 0; k < len; k++)
        block[k] = (guint8) g_rand_int_range (r, 0, 256);
      check_block (block, len, raw_size, NULL);
    }
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/conformance/lz4/compressors", test_compressors);
  g_test_add_func ("/conformance/lz4/random-blocks", test_random_blocks);
  g_test_add_func ("/conformance/lz4/garbage", test_garbage);
  status = g_test_run ();
  g_test_message ("%u blocks accepted, %u rejected", n_accepted, n_rejected);
  return status;
}
