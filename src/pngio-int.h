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

#include "pngio.h"

#if defined(__GNUC__)
#define RF_NOINLINE __attribute__((noinline))
#else
#define RF_NOINLINE
#endif

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

/* Encodes img as a whole PNG (signature, IHDR, IDAT..., IEND) through
 * emit: each row filtered as mode says (RF_PNG_FILTER_ALL: chosen per
 * row), the zlib stream made by libdeflate at level (0..12). NO_MEMORY,
 * INTERNAL_ERROR (libdeflate refused), or IO_ERROR when emit failed (its
 * errno left as emit set it). The filtered image and the compressed one
 * live in per-thread scratch kept between calls; thread-safe. */
rf_png_status_t pngio_encode(const pngio_image_t *img, int level, rf_png_filter_t mode,
                             pngio_emit_fn emit, void *ctx);
/* Frees the calling thread's encoder scratch (buffers and compressors
 * kept between calls; other threads' are freed when they exit). */
void pngio_scratch_release(void);
/* 1 when RF_PNG_SCALAR is set to something other than "" or "0": the
 * encoder then runs its filters' scalar (not vectorized) copy. */
int pngio_scalar_forced(void);

/* libpng memory through malloc, remembering failures: libpng's own message
 * for them is generic. The first member of the reader's and the writer's
 * state, which is libpng's mem_ptr. */
typedef struct rf_png_memflag {
    int oom;
} rf_png_memflag_t;

/* Stores a failure in err (when given) and returns status. detail may be
 * NULL; sys_errno is shown with strerror when nonzero. */
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
