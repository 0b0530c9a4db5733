/* bigbuf.c - frame-sized buffers that do not fault page by page (bigbuf.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#endif

#include "bigbuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_ALIGN ((size_t)2 << 20)

#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23   /* Linux 5.14; older headers lack it */
#endif

int rf_bigbuf_alloc(rf_bigbuf_t *b, size_t size)
{
    memset(b, 0, sizeof *b);
    if (size == 0 || size > SIZE_MAX - 2 * HUGE_ALIGN) {
        errno = ENOMEM;
        return -1;
    }
    size_t len = (size + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
    /* one huge page more, to place the start on a huge page boundary */
    size_t map_len = len + HUGE_ALIGN;
    void *m = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        errno = ENOMEM;
        return -1;
    }
    uintptr_t start = ((uintptr_t)m + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1);
    /* give back the unaligned head and the tail past len */
    size_t head = start - (uintptr_t)m, tail = map_len - head - len;
    if (head > 0)
        munmap(m, head);
    if (tail > 0)
        munmap((unsigned char *)start + len, tail);
    b->map = (void *)start;
    b->map_len = len;
    b->data = (unsigned char *)start;
    b->size = size;
#ifdef MADV_HUGEPAGE
    (void)madvise(b->map, len, MADV_HUGEPAGE);   /* a hint: THP may be off */
#endif
    return 0;
}

void rf_bigbuf_populate(rf_bigbuf_t *b)
{
    if (b->data == NULL || b->populated)
        return;
    b->populated = 1;
#ifdef MADV_POPULATE_WRITE
    (void)madvise(b->map, b->map_len, MADV_POPULATE_WRITE);   /* best effort */
#endif
}

void rf_bigbuf_free(rf_bigbuf_t *b)
{
    if (b->map != NULL)
        munmap(b->map, b->map_len);
    memset(b, 0, sizeof *b);
}

void rf_bigbuf_advise_heap(size_t n)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    void *p = malloc(n);
    if (p == NULL)
        return;
    uintptr_t lo = ((uintptr_t)p + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1);
    uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_ALIGN - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* a hint: THP may be off */
    free(p);
#else
    (void)n;
#endif
}
