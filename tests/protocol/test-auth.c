/* test-auth.c — core/protocol/strobe-auth: SHA-256 against FIPS 180 vectors, HMAC-SHA256
 * against RFC 4231, both against GLib's for random lengths fed in random pieces, hex, and
 * the challenge–response: a round trip, the fixed vector the protocol documents cite, and
 * every tampering (a flipped bit in either nonce, the proof, the secret; the other role;
 * the other protocol; malformed hex) refused. */
#include <errno.h>
#include <glib.h>
#include <string.h>

#include "strobe-auth.h"

static char *
hex_of (const uint8_t *p, size_t n)
{
  char *s = g_malloc (2 * n + 1);

  g_assert_true (strobe_hex_encode (p, n, s, 2 * n + 1));
  return s;
}

static void
check_sha (const void *data, size_t n, const char *want)
{
  uint8_t d[STROBE_SHA256_BYTES];
  g_autofree char *got = NULL;

  strobe_sha256 (data, n, d);
  got = hex_of (d, sizeof d);
  g_assert_cmpstr (got, ==, want);
}

static void
test_sha256_fips (void)
{
  g_autofree char *million = g_malloc (1000000);
  StrobeSha256 ctx;
  uint8_t d[STROBE_SHA256_BYTES];
  g_autofree char *got = NULL;

  check_sha ("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check_sha ("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  check_sha ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  check_sha ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
             112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  memset (million, 'a', 1000000);
  check_sha (million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

  /* The same million in pieces of 7, across block edges. */
  strobe_sha256_init (&ctx);
  for (size_t i = 0; i < 1000000; i += 7)
    strobe_sha256_update (&ctx, million + i, MIN (7, 1000000 - i));
  strobe_sha256_final (&ctx, d);
  got = hex_of (d, sizeof d);
  g_assert_cmpstr (got, ==, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void
fill (uint8_t *p, size_t n, uint8_t v)
{
  memset (p, v, n);
}

static void
check_hmac (const uint8_t *key, size_t key_len, const void *data, size_t n, const char *want)
{
  uint8_t mac[STROBE_SHA256_BYTES];
  g_autofree char *got = NULL;

  strobe_hmac_sha256 (key, key_len, data, n, mac);
  got = hex_of (mac, sizeof mac);
  /* Test case 5 gives the first 128 bits only. */
  g_assert_cmpint (strncmp (got, want, strlen (want)), ==, 0);
}

static void
test_hmac_rfc4231 (void)
{
  uint8_t key[131], data[50];

  fill (key, 20, 0x0b);
  check_hmac (key, 20, "Hi There", 8,
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  check_hmac ((const uint8_t *) "Jefe", 4, "what do ya want for nothing?", 28,
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  fill (key, 20, 0xaa);
  fill (data, 50, 0xdd);
  check_hmac (key, 20, data, 50,
              "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  for (int i = 0; i < 25; i++)
    key[i] = (uint8_t) (i + 1);
  fill (data, 50, 0xcd);
  check_hmac (key, 25, data, 50,
              "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  fill (key, 20, 0x0c);
  check_hmac (key, 20, "Test With Truncation", 20, "a3b6167473100ee06e0c796c2955552b");
  fill (key, 131, 0xaa);
  check_hmac (key, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  check_hmac (key, 131,
              "This is a test using a larger than block-size key and a larger than block-size "
              "data. The key needs to be hashed before being used by the HMAC algorithm.", 152,
              "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

/* Brute-force cross-check: every length 0–300 of data and 0–200 of key, in random pieces,
 * against GLib's GChecksum and GHmac. */
static void
test_against_glib (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (25);
  uint8_t data[301], key[201];

  for (size_t i = 0; i < sizeof data; i++)
    data[i] = (uint8_t) g_rand_int (rand);
  for (size_t i = 0; i < sizeof key; i++)
    key[i] = (uint8_t) g_rand_int (rand);
  for (size_t n = 0; n <= 300; n++)
    {
      size_t key_len = g_rand_int_range (rand, 0, 201);
      StrobeSha256 sha;
      StrobeHmacSha256 hmac;
      uint8_t d[STROBE_SHA256_BYTES], m[STROBE_SHA256_BYTES];
      g_autofree char *dh = NULL, *mh = NULL, *gm = NULL;
      g_autofree char *gd = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, n);

      if (key_len == 0)
        key_len = 1; /* GHmac wants a key */
      gm = g_compute_hmac_for_data (G_CHECKSUM_SHA256, key, key_len, data, n);
      strobe_sha256_init (&sha);
      strobe_hmac_sha256_init (&hmac, key, key_len);
      for (size_t at = 0; at < n;)
        {
          size_t piece = (size_t) g_rand_int_range (rand, 0, 80);

          piece = MIN (piece, n - at);

          strobe_sha256_update (&sha, data + at, piece);
          strobe_hmac_sha256_update (&hmac, data + at, piece);
          at += piece;
        }
      strobe_sha256_final (&sha, d);
      strobe_hmac_sha256_final (&hmac, m);
      dh = hex_of (d, sizeof d);
      mh = hex_of (m, sizeof m);
      g_assert_cmpstr (dh, ==, gd);
      g_assert_cmpstr (mh, ==, gm);
    }
}

static void
test_hex (void)
{
  const uint8_t bytes[] = { 0x00, 0x7f, 0x80, 0xff, 0xab };
  uint8_t back[5];
  char text[11], small[10];

  g_assert_true (strobe_hex_encode (bytes, 5, text, sizeof text));
  g_assert_cmpstr (text, ==, "007f80ffab");
  errno = 0;
  g_assert_false (strobe_hex_encode (bytes, 5, small, sizeof small));
  g_assert_cmpint (errno, ==, EINVAL);
  g_assert_true (strobe_hex_decode ("007F80fFaB", 10, back, 5));
  g_assert_cmpmem (back, 5, bytes, 5);
  errno = 0;
  g_assert_false (strobe_hex_decode ("007f80ffa", 9, back, 5));
  g_assert_cmpint (errno, ==, EINVAL);
  g_assert_false (strobe_hex_decode ("007f80ffag", 10, back, 5));
  g_assert_false (strobe_hex_decode ("007f80ff a", 10, back, 5));
  g_assert_false (strobe_hex_decode ("007f80ff\0a", 10, back, 5));
  g_assert_false (strobe_hex_decode ("007f80ffab00", 12, back, 5));
  g_assert_false (strobe_hex_decode (NULL, 0, back, 0));
}

static void
test_equal_and_random (void)
{
  uint8_t a[32], b[32];

  g_assert_true (strobe_auth_random (a, sizeof a));
  memcpy (b, a, sizeof a);
  g_assert_true (strobe_auth_equal (a, b, sizeof a));
  for (size_t i = 0; i < sizeof a; i++)
    for (int bit = 0; bit < 8; bit++)
      {
        b[i] ^= (uint8_t) (1u << bit);
        g_assert_false (strobe_auth_equal (a, b, sizeof a));
        b[i] ^= (uint8_t) (1u << bit);
      }
  g_assert_true (strobe_auth_nonce (b));
  /* Two nonces of 256 random bits are never equal. */
  g_assert_false (strobe_auth_equal (a, b, sizeof a));
}

/* The vector core/protocol/AUTH.md gives, so other implementations can check themselves. */
static void
test_documented_vector (void)
{
  const char *secret = "4f0c0123456789abcdef0123456789ab";
  uint8_t ns[32], nc[32];
  char hex[STROBE_AUTH_HEX_SIZE];
  const struct { const char *protocol; StrobeAuthRole role; const char *want; } v[] = {
    { "control", STROBE_AUTH_SERVER, "76fd4f8597291ba0066040a66cbbc051c228b8250e7d6901910146abafcd4847" },
    { "control", STROBE_AUTH_CLIENT, "2574ebd7dee8cb7bd05d564c3a45ad84562ae68cbe3eeae10fb5c6d5b8f39607" },
    { "store", STROBE_AUTH_SERVER, "ae43cf9b8360e9b35f6224f7077347250c564650b55ecc592cee44669f7e8bb2" },
    { "store", STROBE_AUTH_CLIENT, "619e02bec7be148b2e60927910c772af591c5d2849a21e6cee176c0403769929" },
  };

  for (int i = 0; i < 32; i++)
    {
      ns[i] = (uint8_t) i;
      nc[i] = (uint8_t) (32 + i);
    }
  for (size_t i = 0; i < G_N_ELEMENTS (v); i++)
    {
      g_assert_true (strobe_auth_proof_hex (v[i].protocol, v[i].role, secret, strlen (secret),
                                            ns, nc, hex));
      g_assert_cmpstr (hex, ==, v[i].want);
    }
}

/* Both sides as the protocols run them, then everything an attacker could change. */
static void
test_round_trip_and_tamper (void)
{
  const char *secret = "correct horse battery staple";
  size_t len = strlen (secret);
  uint8_t ns[32], nc[32], ps[32], pc[32];
  char ps_hex[STROBE_AUTH_HEX_SIZE], pc_hex[STROBE_AUTH_HEX_SIZE];

  g_assert_true (strobe_auth_nonce (ns));                                 /* server */
  g_assert_true (strobe_auth_nonce (nc));                                 /* client */
  g_assert_true (strobe_auth_proof ("store", STROBE_AUTH_SERVER, secret, len, ns, nc, ps));
  g_assert_true (strobe_auth_check ("store", STROBE_AUTH_SERVER, secret, len, ns, nc, ps));
  g_assert_true (strobe_auth_proof ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc));
  g_assert_true (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc));
  g_assert_false (strobe_auth_equal (ps, pc, 32));
  g_assert_true (strobe_auth_proof_hex ("store", STROBE_AUTH_SERVER, secret, len, ns, nc, ps_hex));
  g_assert_true (strobe_auth_proof_hex ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc_hex));
  g_assert_true (strobe_auth_check_hex ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc,
                                        pc_hex, 64));

#define REFUSED(expr) G_STMT_START { errno = 0; g_assert_false (expr); \
                                     g_assert_cmpint (errno, ==, EACCES); } G_STMT_END
  /* Reflection: the server's own proof is not a client proof, nor the other way. */
  REFUSED (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, ps));
  REFUSED (strobe_auth_check ("store", STROBE_AUTH_SERVER, secret, len, ns, nc, pc));
  /* Another protocol's proof. */
  REFUSED (strobe_auth_check ("control", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc));
  /* Swapped nonces. */
  REFUSED (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len, nc, ns, pc));
  /* Any flipped bit of either nonce, the proof or the secret. */
  for (int i = 0; i < 32; i++)
    for (int bit = 0; bit < 8; bit++)
      {
        uint8_t m = (uint8_t) (1u << bit);

        ns[i] ^= m;
        REFUSED (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc));
        ns[i] ^= m;
        nc[i] ^= m;
        REFUSED (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc));
        nc[i] ^= m;
        pc[i] ^= m;
        REFUSED (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc));
        pc[i] ^= m;
      }
  for (size_t i = 0; i < len; i++)
    {
      g_autofree char *other = g_strdup (secret);

      other[i] ^= 1;
      REFUSED (strobe_auth_check ("store", STROBE_AUTH_CLIENT, other, len, ns, nc, pc));
    }
  /* A secret's prefix is another secret. */
  REFUSED (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len - 1, ns, nc, pc));
  /* Malformed or truncated hex is refused as a wrong proof is. */
  REFUSED (strobe_auth_check_hex ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc_hex, 63));
  REFUSED (strobe_auth_check_hex ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc_hex, 0));
  pc_hex[10] = 'x';
  REFUSED (strobe_auth_check_hex ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, pc_hex, 64));
  REFUSED (strobe_auth_check_hex ("store", STROBE_AUTH_CLIENT, secret, len, ns, nc, ps_hex, 64));
#undef REFUSED

  /* Bad arguments say EINVAL, not "wrong proof". */
  errno = 0;
  g_assert_false (strobe_auth_proof ("Store", STROBE_AUTH_SERVER, secret, len, ns, nc, ps));
  g_assert_cmpint (errno, ==, EINVAL);
  errno = 0;
  g_assert_false (strobe_auth_proof ("store", STROBE_AUTH_SERVER, secret, 0, ns, nc, ps));
  g_assert_cmpint (errno, ==, EINVAL);
  errno = 0;
  g_assert_false (strobe_auth_proof (NULL, STROBE_AUTH_SERVER, secret, len, ns, nc, ps));
  g_assert_cmpint (errno, ==, EINVAL);
  errno = 0;
  g_assert_false (strobe_auth_check ("store", STROBE_AUTH_CLIENT, secret, len, ns, NULL, pc));
  g_assert_cmpint (errno, ==, EINVAL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/auth/sha256-fips180", test_sha256_fips);
  g_test_add_func ("/auth/hmac-rfc4231", test_hmac_rfc4231);
  g_test_add_func ("/auth/against-glib", test_against_glib);
  g_test_add_func ("/auth/hex", test_hex);
  g_test_add_func ("/auth/equal-random", test_equal_and_random);
  g_test_add_func ("/auth/documented-vector", test_documented_vector);
  g_test_add_func ("/auth/round-trip-tamper", test_round_trip_and_tamper);
  return g_test_run ();
}
