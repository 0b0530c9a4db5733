/* pngio-int.h - what pngio.c, pngio-read.c and pngio-write.c share, and no
 * one else sees.
 *
 * Owns: the error-report helpers and libpng's memory and warning hooks
 * (defined in pngio.c). Included only by src/pngio*.c.
 * Thread-safety: the helpers write only the caller's structs.
 */
#ifndef RF_PNGIO_INT_H
#define RF_PNGIO_INT_H

#include <png.h>

#include "bigbuf.h"
#include "pngio.h"

#if defined(__GNUC__)
#define RF_NOINLINE __attribute__((noinline))
#else
#define RF_NOINLINE
#endif

/* A big-endian 32-bit field of a PNG chunk (a length, a CRC, IHDR's size). */
static inline uint32_t pngio_get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---- the encoder core (pngio-enc.c) ---- */

/* Writes row y of the image, width * (alpha ? 4 : 3) bytes, into dst. */
typedef void (*pngio_row_fn)(const void *src, uint32_t y, uint8_t *dst);
/* Takes len bytes of the file, in order; 0, or -1 with errno set. */
typedef int (*pngio_emit_fn)(void *ctx, const uint8_t *data, size_t len);

/* An image as rows of 8-bit RGB (alpha 0) or straight RGBA (alpha 1). */
typedef struct pngio_image {
    uint32_t width;                 /* 1 .. 2^31 - 1 */
    uint32_t height;
    int alpha;
    pngio_row_fn row;
    const void *src;                /* row's first argument */
} pngio_image_t;

/* The level coded by pngio-huff.c; the others are libdeflate's. */
#define PNGIO_LEVEL_FAST 1

/* Encodes img as a whole PNG (signature, IHDR, IDAT..., IEND) through
 * emit: each row filtered as mode says (RF_PNG_FILTER_ALL: chosen per
 * row), the zlib stream made by libdeflate at level (0..12). NO_MEMORY,
 * INTERNAL_ERROR (libdeflate refused), or IO_ERROR when emit failed (its
 * errno left as emit set it). threads >= 2: level 1 may code the second
 * half of a large image on a thread of its own (the same bytes as
 * threads 0 or 1). The filtered image and the compressed one live in
 * per-thread scratch kept between calls; thread-safe. */
rf_png_status_t pngio_encode(const pngio_image_t *img, int level, rf_png_filter_t mode,
                             int threads, pngio_emit_fn emit, void *ctx);
/* Frees the calling thread's encoder scratch (buffers and compressors
 * kept between calls; other threads' are freed when they exit). */
void pngio_scratch_release(void);
/* 1 when RF_PNG_SCALAR is set to something other than "", "0" or "sse2":
 * the encoder then runs its filters' scalar (not vectorized) copy, the
 * reader and the RGBA conversion their portable paths. ("sse2" selects
 * the filters' baseline vectorized copy only: pngio-enc.c.) */
int pngio_scalar_forced(void);

/* rf_png_row_to_rgba with its vector path on (simd 1: AVX2, with FMA when
 * the CPU has it, chosen at run time) or off (0: the portable blocks, as
 * on a machine without AVX2); dst and src the same words or apart, never
 * partly overlapping. Both give the same bytes (tests/check_png holds each
 * to cairo's formula); rf_png_rows_to_rgba_inplace takes 0 under
 * RF_PNG_SCALAR. */
void pngio_rows_to_rgba(uint8_t *dst, const uint32_t *src, size_t n, int simd);

/* ---- the fast deflate coder of level 1 (pngio-huff.c) ----
 * One zlib stream of dynamic Huffman blocks: literals, runs (matches at
 * distance 1) and, given a table (unfiltered rows), matches found where
 * pixels start. Use: pngio_huff_init with a table of PNGIO_HUFF_HASH
 * entries (or NULL: runs only, a distance code of two 1-bit symbols,
 * distances 1 and 4, a complete code of which runs use the first) and
 * the bytes per pixel; pngio_huff_count on the sampled rows of each band
 * of rows (the counts of each band kept by the caller; with a table, counting the row
 * before each sampled one first, its counts dropped, lets the sample see
 * matches from it), pngio_huff_cost of their sum (the estimated bits of
 * coding them), pngio_huff_plan (which bands start a block: starts[b] 1;
 * bands: nb arrays of PNGIO_HUFF_COUNTS counts, scale: rows per sampled
 * row; returns the number of blocks); then per block: its bands' summed
 * counts in count, pngio_huff_begin (first: the zlib header too; final:
 * the last block), pngio_huff_row on each of its rows in order,
 * pngio_huff_block_end before the next block; pngio_huff_end (the last
 * block's end) with the Adler-32 of all rows. pngio_huff_sync ends a
 * block and the stream's bits so far (an empty stored block, zlib's
 * Z_SYNC_FLUSH: the bytes after it may be coded apart, from a state
 * just initialized, begun with first 0).
 * Rows: first (the stream's first row, the first after a sync, a
 * sample's first) starts a new stream: nothing reaches back before it.
 * A row p of len bytes (its filter type byte included) must have p[-1]
 * readable and, unless first, equal to the previous row's last byte;
 * with a table, the rows follow each other in memory (each starts where
 * the one before ended) and the PNGIO_HUFF_WINDOW bytes before a row (or
 * all since first) are as they were given. p[len .. len + 7] readable.
 * The bytes coded depend only on the rows (and where first and the
 * blocks fall).
 * The out pointers need room for 2 * len + 16 bytes (row), 1,200
 * (begin), 16 (end, sync); each returns the new end, whole bytes before
 * it final, the pending bits kept in h. */
#define PNGIO_HUFF_SYMS 286                  /* literal/length symbols */
#define PNGIO_HUFF_DISTS 30                  /* distance symbols */
#define PNGIO_HUFF_COUNTS (PNGIO_HUFF_SYMS + PNGIO_HUFF_DISTS)
#define PNGIO_HUFF_HASH_BITS 12
#define PNGIO_HUFF_HASH (1u << PNGIO_HUFF_HASH_BITS)   /* table entries */
#define PNGIO_HUFF_WINDOW 32768u             /* the farthest match */
typedef struct pngio_huff {
    uint32_t count[PNGIO_HUFF_COUNTS];  /* sampled symbols: literal/length, distance */
    uint32_t lit[256];                /* code | bits << 16 */
    uint32_t len[259];                /* by match length: code + extra, | bits << 24 */
    uint32_t dist[PNGIO_HUFF_DISTS];  /* code | bits << 16 */
    uint64_t run1[259];               /* by length: length + distance 1, | bits << 48 */
    uint32_t eob;
    uint64_t bb;                      /* pending bits, LSB first */
    unsigned bc;
    uint64_t xbits;                   /* counted: the matches' extra bits */
    uint32_t *tab;                    /* the match finder: stream positions by hash
                                         (NULL: no matches but runs) */
    uint32_t pos;                     /* stream position of the next row */
    uint32_t lo;                      /* the current stream's first position */
    unsigned bpp;                     /* matches are looked for where pixels start */
} pngio_huff_t;
void pngio_huff_init(pngio_huff_t *h, uint32_t *tab, unsigned bpp);
void pngio_huff_count(pngio_huff_t *h, const uint8_t *p, size_t len, int first);
uint8_t *pngio_huff_begin(pngio_huff_t *h, uint8_t *out, int first, int final);
uint8_t *pngio_huff_block_end(pngio_huff_t *h, uint8_t *out);
int pngio_huff_plan(const uint32_t *bands, uint32_t nb, uint32_t scale, uint8_t *starts);
uint64_t pngio_huff_cost(const uint32_t *counts, uint64_t xbits);
uint8_t *pngio_huff_row(pngio_huff_t *h, const uint8_t *p, size_t len, int first, uint8_t *out);
uint8_t *pngio_huff_sync(pngio_huff_t *h, uint8_t *out);
uint8_t *pngio_huff_end(pngio_huff_t *h, uint8_t *out, uint32_t adler);

/* ---- the reader's fast way (pngio-inflate.c) ----
 * pngio_fast_scan looks at a whole file of len bytes, allocating nothing:
 * 0 when it is an 8-bit RGB or RGBA image whose chunks and zlib header
 * this way takes (the rules: pngio-inflate.c), its size in *f; -1 for
 * anything else, which is libpng's to decode or reject. After a 0, libpng
 * would read the same header without an error. pngio_fast_inflate then
 * inflates the image's rows: 0, or -1 (no memory, or the stream is not
 * one this way takes: libpng's turn, the header as scanned). Then
 * pngio_fast_row(f, y) for y = 0 .. height - 1 in order: row y
 * unfiltered in place (rowbytes bytes, valid until pngio_fast_free).
 * scalar: the portable loops instead of SSE2 (the same bytes).
 * pngio_fast_free frees the rows (the thread keeps a large buffer and
 * its decompressor for its next file); the size fields stay. */
typedef struct pngio_fast {
    uint32_t width, height;
    int color_type;             /* 2 (RGB) or 6 (RGBA) */
    unsigned bpp;               /* 3 or 4 */
    size_t rowbytes;
    size_t first, last;         /* the first and last IDAT chunk's offsets */
    int nidat;
    size_t idat_len;            /* bytes of zlib data in them */
    uint8_t *rows;              /* height rows of a filter type byte and rowbytes */
    uint8_t *heap;              /* rows of a small image, or NULL */
    rf_bigbuf_t buf;            /* rows of a large one */
} pngio_fast_t;
int pngio_fast_scan(const uint8_t *data, size_t len, pngio_fast_t *f);
int pngio_fast_inflate(const uint8_t *data, pngio_fast_t *f);
const uint8_t *pngio_fast_row(pngio_fast_t *f, uint32_t y, int scalar);
void pngio_fast_free(pngio_fast_t *f);

/* libpng memory through malloc, remembering failures: libpng's own message
 * for them is generic. The first member of the reader's and the writer's
 * state, which is libpng's mem_ptr. */
typedef struct rf_png_memflag {
    int oom;
} rf_png_memflag_t;

/* Stores a failure in err (when given) and returns status. detail may be
 * NULL or empty (none); sys_errno is shown with strerror when nonzero. */
rf_png_status_t pngio_fail(rf_png_error_t *err, rf_png_status_t status,
                            const char *name, const char *detail, int sys_errno);
/* Stores success in err (when given). */
void pngio_ok(rf_png_error_t *err);

/* libpng's malloc and free (png_create_*_struct_2); the allocator sets the
 * rf_png_memflag_t at mem_ptr when it fails. */
png_voidp pngio_mem_alloc(png_structp png, png_alloc_size_t size);
void pngio_mem_free(png_structp png, png_voidp p);

/* libpng's warning hook: warnings (benign problems libpng recovered from)
 * are not ours to print. */
void pngio_warning_quiet(png_structp png, png_const_charp msg);

#endif
