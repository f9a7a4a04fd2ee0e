/* strobe-auth.h — the one mutual challenge–response of Strobe's network protocols (the
 * control protocol and the store protocol), with what it is built from: SHA-256,
 * HMAC-SHA256, a constant-time comparison, nonces from getrandom() and hex text.
 *
 * Both ends know a shared secret; it never crosses the wire, and a recorded exchange is
 * worth nothing later because each side's proof covers a fresh nonce of the other side.
 * The server proves itself FIRST, so a client that reached the wrong listener (another
 * user's, on another loopback address) reveals nothing it could use:
 *
 *   1. server → client   Ns                       32 random bytes
 *   2. client → server   Nc                       32 random bytes
 *   3. server → client   Ps = HMAC-SHA256(secret, "strobe-<P>-server" 0x00 Ns Nc)
 *   4. client → server   Pc = HMAC-SHA256(secret, "strobe-<P>-client" 0x00 Ns Nc)
 *
 * <P> is the protocol ("control", "store"), so a proof made for one protocol or one role
 * is refused by the other (no reflection: the server's proof is never a valid client
 * proof). The client checks Ps before it sends Pc and closes on a mismatch; the server
 * checks Pc before it serves anything and closes on a mismatch. Both checks compare in
 * constant time. The secret is the HMAC key as the bytes it is written with (for example
 * the 32 hex digits of a discovery file, not the 16 bytes they spell).
 *
 * What it does not do: it authenticates the two ends, not the bytes after the exchange.
 * Nothing is encrypted, and a peer that can relay and alter a connection mid-stream
 * (a man in the middle on a network path) could inject after the exchange; that is why
 * clients connect only to the exact address they were given, and off loopback Strobe
 * recommends an SSH tunnel.
 *
 * Plain C11 and getrandom() — no GLib, no OpenSSL: the runtime links this library.
 * Functions that can fail return bool and set errno. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STROBE_SHA256_BYTES      32
#define STROBE_SHA256_BLOCK      64
#define STROBE_AUTH_NONCE_BYTES  32
#define STROBE_AUTH_PROOF_BYTES  STROBE_SHA256_BYTES
/* Hex text of a nonce or a proof, with its terminating NUL. */
#define STROBE_AUTH_HEX_SIZE     (2 * 32 + 1)

/* ---- SHA-256 (FIPS 180-4) ---------------------------------------------------------- */

typedef struct
{
  uint32_t state[8];
  uint64_t length;                      /* bytes hashed so far */
  uint8_t  block[STROBE_SHA256_BLOCK];
  size_t   fill;                        /* bytes waiting in @block */
} StrobeSha256;

void strobe_sha256_init   (StrobeSha256 *ctx);
void strobe_sha256_update (StrobeSha256 *ctx, const void *data, size_t n);
void strobe_sha256_final  (StrobeSha256 *ctx, uint8_t digest[STROBE_SHA256_BYTES]);
void strobe_sha256        (const void *data, size_t n, uint8_t digest[STROBE_SHA256_BYTES]);

/* ---- HMAC-SHA256 (RFC 2104) -------------------------------------------------------- */

typedef struct
{
  StrobeSha256 inner;
  StrobeSha256 outer;
} StrobeHmacSha256;

void strobe_hmac_sha256_init   (StrobeHmacSha256 *ctx, const void *key, size_t key_len);
void strobe_hmac_sha256_update (StrobeHmacSha256 *ctx, const void *data, size_t n);
void strobe_hmac_sha256_final  (StrobeHmacSha256 *ctx, uint8_t mac[STROBE_SHA256_BYTES]);
void strobe_hmac_sha256        (const void *key, size_t key_len, const void *data, size_t n,
                                uint8_t mac[STROBE_SHA256_BYTES]);

/* ---- small pieces ------------------------------------------------------------------ */

/* True when the @n bytes at @a and @b are equal; how long it takes depends on @n only. */
bool strobe_auth_equal (const void *a, const void *b, size_t n);

/* Fills @buf with @n bytes from the kernel's random source (getrandom, blocking until it
 * is seeded). False with errno set when there is none. */
bool strobe_auth_random (void *buf, size_t n);

/* Writes the @n bytes at @data as lowercase hex and a NUL into @out (@out_size ≥ 2n + 1).
 * False with errno EINVAL when it does not fit. */
bool strobe_hex_encode (const void *data, size_t n, char *out, size_t out_size);

/* Reads exactly @n bytes from the hex digits at @hex (@hex_len of them, upper or lower
 * case) into @out. False with errno EINVAL unless @hex_len is 2n and every one is a hex
 * digit; @out is then unspecified. */
bool strobe_hex_decode (const char *hex, size_t hex_len, void *out, size_t n);

/* ---- the challenge–response -------------------------------------------------------- */

typedef enum
{
  STROBE_AUTH_SERVER,   /* step 3's proof */
  STROBE_AUTH_CLIENT,   /* step 4's proof */
} StrobeAuthRole;

/* A fresh nonce (steps 1 and 2). False with errno set when there is no randomness. */
bool strobe_auth_nonce (uint8_t nonce[STROBE_AUTH_NONCE_BYTES]);

/* The proof of @role (steps 3 and 4) for @protocol ("control", "store": lowercase
 * letters, at most 32) over the secret's @secret_len bytes and the two nonces.
 * False with errno EINVAL on a missing argument, an empty secret or a bad @protocol. */
bool strobe_auth_proof (const char *protocol, StrobeAuthRole role,
                        const void *secret, size_t secret_len,
                        const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                        const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                        uint8_t proof[STROBE_AUTH_PROOF_BYTES]);

/* True when @given is @role's proof; compared in constant time. False with errno EACCES
 * when it is not, EINVAL as strobe_auth_proof(). */
bool strobe_auth_check (const char *protocol, StrobeAuthRole role,
                        const void *secret, size_t secret_len,
                        const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                        const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                        const uint8_t given[STROBE_AUTH_PROOF_BYTES]);

/* The same two for text protocols: the proof as 64 lowercase hex digits and a NUL; the
 * check takes @given_len hex digits (anything but exactly 64 hex digits is refused with
 * EACCES, like a wrong proof). */
bool strobe_auth_proof_hex (const char *protocol, StrobeAuthRole role,
                            const void *secret, size_t secret_len,
                            const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                            const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                            char proof_hex[STROBE_AUTH_HEX_SIZE]);
bool strobe_auth_check_hex (const char *protocol, StrobeAuthRole role,
                            const void *secret, size_t secret_len,
                            const uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES],
                            const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES],
                            const char *given, size_t given_len);

/* Overwrites @n bytes at @p in a way the compiler does not remove (for secrets and
 * proofs on the stack). */
void strobe_auth_wipe (void *p, size_t n);

#ifdef __cplusplus
}
#endif
