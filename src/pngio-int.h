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
