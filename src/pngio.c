/* pngio.c - what the PNG reader and writer share: status texts, error
 * reports, and libpng's memory and warning hooks.
 *
 * libpng reports errors by longjmp. Each entry point (pngio-read.c,
 * pngio-write.c) keeps its state in a struct that lives in the caller's
 * frame and runs libpng in a separate noinline function that holds the
 * setjmp, so nothing the cleanup reads is a non-volatile local of the
 * function that called setjmp (C11 7.13.2.1), and the cleanup
 * (png_destroy_*, free, close) happens in exactly one place. Callbacks into
 * libpng (read, write, error) record why they failed in that struct before
 * calling png_error(), so the status is never guessed from libpng's text,
 * except for CRC errors, whose text is libpng's fixed "CRC error".
 */
#include "pngio-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_text[RF_PNG_LAST_STATUS] = {
    [RF_PNG_SUCCESS] = "success",
    [RF_PNG_NO_MEMORY] = "out of memory",
    [RF_PNG_INVALID_ARGUMENT] = "invalid argument",
    [RF_PNG_IO_ERROR] = "input/output error",
    [RF_PNG_NOT_FOUND] = "file not found",
    [RF_PNG_NOT_REGULAR_FILE] = "not a regular file",
    [RF_PNG_FILE_TOO_LARGE] = "file too large",
    [RF_PNG_EMPTY] = "empty file",
    [RF_PNG_NOT_PNG] = "not a PNG file",
    [RF_PNG_TRUNCATED] = "truncated PNG file",
    [RF_PNG_BAD_CRC] = "PNG chunk CRC mismatch",
    [RF_PNG_BAD_DIMENSIONS] = "invalid PNG dimensions",
    [RF_PNG_TOO_BIG] = "PNG image larger than the canvas limits",
    [RF_PNG_CORRUPT] = "corrupt PNG file",
    [RF_PNG_STOPPED] = "stopped by the caller",
    [RF_PNG_INTERNAL_ERROR] = "internal libpng error",
};

const char *rf_png_status_to_string(rf_png_status_t status)
{
    if ((unsigned)status >= RF_PNG_LAST_STATUS)
        return "unknown status";
    return status_text[status];
}

/* Stores a failure in err (when given) and returns status. detail may be
 * NULL; sys_errno is shown with strerror when nonzero. */
rf_png_status_t pngio_fail(rf_png_error_t *err, rf_png_status_t status,
                           const char *name, const char *detail, int sys_errno)
{
    if (err == NULL)
        return status;
    err->status = status;
    err->sys_errno = sys_errno;
    const char *what = rf_png_status_to_string(status);
    if (detail != NULL && detail[0] == '\0')
        detail = NULL;   /* the reader's empty detail buffer: none */
    if (status == RF_PNG_IO_ERROR || status == RF_PNG_NOT_FOUND) {
        /* strerror says it better than the status */
        snprintf(err->message, sizeof err->message, "%s: %s%s%s", name,
                 detail != NULL ? detail : "", detail != NULL ? ": " : "",
                 strerror(sys_errno));
    } else if (detail != NULL) {
        snprintf(err->message, sizeof err->message, "%s: %s (%s)", name, what, detail);
    } else {
        snprintf(err->message, sizeof err->message, "%s: %s", name, what);
    }
    return status;
}

void pngio_ok(rf_png_error_t *err)
{
    if (err != NULL) {
        err->status = RF_PNG_SUCCESS;
        err->sys_errno = 0;
        err->message[0] = '\0';
    }
}

png_voidp pngio_mem_alloc(png_structp png, png_alloc_size_t size)
{
    void *p = malloc(size);
    if (p == NULL) {
        rf_png_memflag_t *m = png_get_mem_ptr(png);
        if (m != NULL)
            m->oom = 1;
    }
    return p;
}

void pngio_mem_free(png_structp png, png_voidp p)
{
    (void)png;
    free(p);
}

void pngio_warning_quiet(png_structp png, png_const_charp msg)
{
    /* warnings (benign problems libpng recovered from) are not ours to print */
    (void)png;
    (void)msg;
}
