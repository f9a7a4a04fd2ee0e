/* strobe-auth.c — see the header. Written from FIPS 180-4 and RFC 2104; checked against
 * their vectors in tests/protocol/test-auth.c. */
#include "strobe-auth.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

/* ---- SHA-256 ----------------------------------------------------------------------- */

static const uint32_t K[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t
rotr (uint32_t x, unsigned n)
{
  return (x >> n) | (x << (32 - n));
}

static void
sha256_block (uint32_t state[8], const uint8_t *p)
{
  uint32_t w[64], a, b, c, d, e, f, g, h;

  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16
           | (uint32_t) p[4 * i + 2] << 8 | (uint32_t) p[4 * i + 3];
  for (int i = 16; i < 64; i++)
    {
      uint32_t s0 = rotr (w[i - 15], 7) ^ rotr (w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr (w[i - 2], 17) ^ rotr (w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
  a = state[0]; b = state[1]; c = state[2]; d = state[3];
  e = state[4]; f = state[5]; g = state[6]; h = state[7];
  for (int i = 0; i < 64; i++)
    {
      uint32_t t1 = h + (rotr (e, 6) ^ rotr (e, 11) ^ rotr (e, 25)) + ((e & f) ^ (~e & g))
                    + K[i] + w[i];
      uint32_t t2 = (rotr (a, 2) ^ rotr (a, 13) ^ rotr (a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
  state[0] += a; state[1] += b; state[2] += c; state[3] += d;
  state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

void
strobe_sha256_init (StrobeSha256 *ctx)
{
  static const uint32_t iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  };

  if (ctx == NULL)
    return;
  memcpy (ctx->state, iv, sizeof iv);
  ctx->length = 0;
  ctx->fill = 0;
}

void
strobe_sha256_update (StrobeSha256 *ctx, const void *data, size_t n)
{
  const uint8_t *p = data;

  if (ctx == NULL || (data == NULL && n > 0))
    return;
  ctx->length += n;
  if (ctx->fill > 0)
    {
      size_t take = STROBE_SHA256_BLOCK - ctx->fill;

      if (take > n)
        take = n;
      memcpy (ctx->block + ctx->fill, p, take);
      ctx->fill += take;
      p += take;
      n -= take;
      if (ctx->fill < STROBE_SHA256_BLOCK)
        return;
      sha256_block (ctx->state, ctx->block);
      ctx->fill = 0;
    }
  for (; n >= STROBE_SHA256_BLOCK; p += STROBE_SHA256_BLOCK, n -= STROBE_SHA256_BLOCK)
    sha256_block (ctx->state, p);
  if (n > 0)
    memcpy (ctx->block, p, n);
  ctx->fill = n;
}

void
strobe_sha256_final (StrobeSha256 *ctx, uint8_t digest[STROBE_SHA256_BYTES])
{
  uint64_t bits;

  if (ctx == NULL || digest == NULL)
    return;
  bits = ctx->length * 8;
  ctx->block[ctx->fill++] = 0x80;
  if (ctx->fill > STROBE_SHA256_BLOCK - 8)
    {
      memset (ctx->block + ctx->fill, 0, STROBE_SHA256_BLOCK - ctx->fill);
      sha256_block (ctx->state, ctx->block);
      ctx->fill = 0;
    }
  memset (ctx->block + ctx->fill, 0, STROBE_SHA256_BLOCK - 8 - ctx->fill);
  for (int i = 0; i < 8; i++)
    ctx->block[STROBE_SHA256_BLOCK - 1 - i] = (uint8_t) (bits >> (8 * i));
  sha256_block (ctx->state, ctx->block);
  for (int i = 0; i < 8; i++)
    {
      digest[4 * i] = (uint8_t) (ctx->state[i] >> 24);
      digest[4 * i + 1] = (uint8_t) (ctx->state[i] >> 16);
      digest[4 * i + 2] = (uint8_t) (ctx->state[i] >> 8);
      digest[4 * i + 3] = (uint8_t) ctx->state[i];
    }
  strobe_auth_wipe (ctx, sizeof *ctx);
}

void
strobe_sha256 (const void *data, size_t n, uint8_t digest[STROBE_SHA256_BYTES])
{
  StrobeSha256 ctx;

  strobe_sha256_init (&ctx);
  strobe_sha256_update (&ctx, data, n);
  strobe_sha256_final (&ctx, digest);
}

/* ---- HMAC-SHA256 ------------------------------------------------------------------- */

void
strobe_hmac_sha256_init (StrobeHmacSha256 *ctx, const void *key, size_t key_len)
{
  uint8_t k[STROBE_SHA256_BLOCK] = { 0 }, pad[STROBE_SHA256_BLOCK];

  if (ctx == NULL || (key == NULL && key_len > 0))
    return;
  /* A key longer than a block is hashed first (RFC 2104, section 2). */
  if (key_len > STROBE_SHA256_BLOCK)
    strobe_sha256 (key, key_len, k);
  else if (key_len > 0)
    memcpy (k, key, key_len);
  for (size_t i = 0; i < sizeof pad; i++)
    pad[i] = k[i] ^ 0x36;
  strobe_sha256_init (&ctx->inner);
  strobe_sha256_update (&ctx->inner, pad, sizeof pad);
  for (size_t i = 0; i < sizeof pad; i++)
    pad[i] = k[i] ^ 0x5c;
  strobe_sha256_init (&ctx->outer);
  strobe_sha256_update (&ctx->outer, pad, sizeof pad);
  strobe_auth_wipe (k, sizeof k);
  strobe_auth_wipe (pad, sizeof pad);
}

void
strobe_hmac_sha256_update (StrobeHmacSha256 *ctx, const void *data, size_t n)
{
  if (ctx != NULL)
    strobe_sha256_update (&ctx->inner, data, n);
}

void
strobe_hmac_sha256_final (StrobeHmacSha256 *ctx, uint8_t mac[STROBE_SHA256_BYTES])
{
  uint8_t inner[STROBE_SHA256_BYTES];

  if (ctx == NULL || mac == NULL)
    return;
  strobe_sha256_final (&ctx->inner, inner);
  strobe_sha256_update (&ctx->outer, inner, sizeof inner);
  strobe_sha256_final (&ctx->outer, mac);
  strobe_auth_wipe (inner, sizeof inner);
}

void
strobe_hmac_sha256 (const void *key, size_t key_len, const void *data, size_t n,
                    uint8_t mac[STROBE_SHA256_BYTES])
{
  StrobeHmacSha256 ctx;

  strobe_hmac_sha256_init (&ctx, key, key_len);
  strobe_hmac_sha256_update (&ctx, data, n);
  strobe_hmac_sha256_final (&ctx, mac);
}

/* ---- small pieces ------------------------------------------------------------------ */

bool
strobe_auth_equal (const void *a, const void *b, size_t n)
{
  const volatile uint8_t *x = a, *y = b;
  uint8_t diff = 0;

  if (a == NULL || b == NULL)
    return n == 0;
  for (size_t i = 0; i < n; i++)
    diff |= x[i] ^ y[i];
  return diff == 0;
}

void
strobe_auth_wipe (void *p, size_t n)
{
  volatile uint8_t *v = p;

  if (p == NULL)
    return;
  for (size_t i = 0; i < n; i++)
    v[i] = 0;
}

bool
strobe_auth_random (void *buf, size_t n)
{
  uint8_t *p = buf;

  if (buf == NULL && n > 0)
    {
      errno = EINVAL;
      return false;
    }
  while (n > 0)
    {
      ssize_t got = getrandom (p, n, 0);

      if (got < 0)
        {
          if (errno == EINTR)
            continue;
          return false;
        }
      p += got;
      n -= (size_t) got;
    }
  return true;
}

bool
strobe_hex_encode (const void *data, size_t n, char *out, size_t out_size)
{
  static const char digits[] = "0123456789abcdef";
  const uint8_t *p = data;

  if ((data == NULL && n > 0) || out == NULL || n > (SIZE_MAX - 1) / 2 || out_size < 2 * n + 1)
    {
      errno = EINVAL;
      return false;
    }
  for (size_t i = 0; i < n; i++)
    {
      out[2 * i] = digits[p[i] >> 4];
      out[2 * i + 1] = digits[p[i] & 15];
    }
  out[2 * n] = '\0';
  return true;
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

bool
strobe_hex_decode (const char *hex, size_t hex_len, void *out, size_t n)
{
  uint8_t *p = out;

  if (hex == NULL || out == NULL || n > SIZE_MAX / 2 || hex_len != 2 * n)
    {
      errno = EINVAL;
      return false;
    }
  for (size_t i = 0; i < n; i++)
    {
      int hi = hex_value (hex[2 * i]), lo = hex_value (hex[2 * i + 1]);

      if (hi < 0 || lo < 0)
        {
          errno = EINVAL;
          return false;
        }
      p[i] = (uint8_t) (hi << 4 | lo);
    }
  return true;
}

/* ---- the challenge–response -------------------------------------------------------- */

#define PROTOCOL_MAX 32

bool
strobe_auth_nonce (uint8_t nonce[STROBE_AUTH_NONCE_BYTES])
{
  return strobe_auth_random (nonce, STROBE_AUTH_NONCE_BYTES);
}

static bool
protocol_ok (const char *protocol)
{
  size_t n;

  if (protocol == NULL)
    return false;
  n = strlen (protocol);
  if (n == 0 || n > PROTOCOL_MAX)
    return false;
  for (size_t i = 0; i < n; i++)
    if (protocol[i] < 'a' || protocol[i] > 'z')
      return false;
  return true;
}

bool
strobe_auth_proof (const char *protocol, StrobeAuthRole role, const void *secret,
                   size_t secret_len, const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                   const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                   uint8_t proof[STROBE_AUTH_PROOF_BYTES])
{
  StrobeHmacSha256 ctx;
  const char *who;
  static const uint8_t zero = 0;

  if (!protocol_ok (protocol) || (role != STROBE_AUTH_SERVER && role != STROBE_AUTH_CLIENT)
      || secret == NULL || secret_len == 0 || server_nonce == NULL || client_nonce == NULL
      || proof == NULL)
    {
      errno = EINVAL;
      return false;
    }
  who = role == STROBE_AUTH_SERVER ? "-server" : "-client";
  strobe_hmac_sha256_init (&ctx, secret, secret_len);
  strobe_hmac_sha256_update (&ctx, "strobe-", 7);
  strobe_hmac_sha256_update (&ctx, protocol, strlen (protocol));
  strobe_hmac_sha256_update (&ctx, who, 7);
  strobe_hmac_sha256_update (&ctx, &zero, 1);
  strobe_hmac_sha256_update (&ctx, server_nonce, STROBE_AUTH_NONCE_BYTES);
  strobe_hmac_sha256_update (&ctx, client_nonce, STROBE_AUTH_NONCE_BYTES);
  strobe_hmac_sha256_final (&ctx, proof);
  strobe_auth_wipe (&ctx, sizeof ctx);
  return true;
}

bool
strobe_auth_check (const char *protocol, StrobeAuthRole role, const void *secret,
                   size_t secret_len, const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                   const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                   const uint8_t given[STROBE_AUTH_PROOF_BYTES])
{
  uint8_t want[STROBE_AUTH_PROOF_BYTES];
  bool same;

  if (given == NULL)
    {
      errno = EINVAL;
      return false;
    }
  if (!strobe_auth_proof (protocol, role, secret, secret_len, server_nonce, client_nonce, want))
    return false;
  same = strobe_auth_equal (want, given, sizeof want);
  strobe_auth_wipe (want, sizeof want);
  if (!same)
    errno = EACCES;
  return same;
}

bool
strobe_auth_proof_hex (const char *protocol, StrobeAuthRole role, const void *secret,
                       size_t secret_len, const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                       const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                       char proof_hex[STROBE_AUTH_HEX_SIZE])
{
  uint8_t proof[STROBE_AUTH_PROOF_BYTES];
  bool ok;

  if (proof_hex == NULL)
    {
      errno = EINVAL;
      return false;
    }
  ok = strobe_auth_proof (protocol, role, secret, secret_len, server_nonce, client_nonce, proof)
       && strobe_hex_encode (proof, sizeof proof, proof_hex, STROBE_AUTH_HEX_SIZE);
  strobe_auth_wipe (proof, sizeof proof);
  return ok;
}

bool
strobe_auth_check_hex (const char *protocol, StrobeAuthRole role, const void *secret,
                       size_t secret_len, const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                       const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                       const char *given, size_t given_len)
{
  uint8_t proof[STROBE_AUTH_PROOF_BYTES] = { 0 };
  bool well_formed, ok;
  int saved;

  if (given == NULL)
    {
      errno = EINVAL;
      return false;
    }
  /* A malformed proof still costs a full check, so its shape is not a faster "no". */
  well_formed = strobe_hex_decode (given, given_len, proof, sizeof proof);
  ok = strobe_auth_check (protocol, role, secret, secret_len, server_nonce, client_nonce, proof);
  saved = errno;
  strobe_auth_wipe (proof, sizeof proof);
  if (ok && well_formed)
    return true;
  errno = ok || saved == EACCES ? EACCES : saved;
  return false;
}
