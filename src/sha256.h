/* sha256.h - SHA-256 (FIPS 180-4) of a byte buffer.
 *
 * Owns: nothing but the function. `info` prints the digest of every asset
 * (fonts, images) so that a changed font file is named as such. Pure,
 * allocation-free and thread-safe. tests/check_text.c holds it to the
 * FIPS 180-4 example vectors.
 */
#ifndef RF_SHA256_H
#define RF_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define RF_SHA256_BYTES 32
#define RF_SHA256_HEX (2 * RF_SHA256_BYTES + 1)

/* The digest of data[0 .. len-1] into out. */
void rf_sha256(const void *data, size_t len, uint8_t out[RF_SHA256_BYTES]);

/* The digest as 64 lowercase hex digits and a NUL. */
void rf_sha256_hex(const uint8_t digest[RF_SHA256_BYTES], char out[RF_SHA256_HEX]);

#endif
