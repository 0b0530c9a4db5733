/* bigbuf.h - frame-sized buffers that do not fault page by page.
 *
 * Owns: rf_bigbuf_t (and rf_bigbuf_advise_heap, below), one anonymous
 * private mapping of at least size bytes, zero-filled by the kernel, its
 * start aligned to 2 MiB and advised as transparent-huge-page memory
 * (madvise MADV_HUGEPAGE, where the kernel has it). Why: a fresh 1080p
 * canvas (8.3 MB) first touched through ordinary malloc memory costs
 * ~2,000 page faults, ~20 ms on a virtual machine; the same bytes as a
 * few huge pages populated in one call (rf_bigbuf_populate:
 * MADV_POPULATE_WRITE, Linux 5.14) cost ~3 ms (BENCHMARKS.md, "one
 * frame"). Without huge pages or MADV_POPULATE_WRITE (an older kernel,
 * THP off) it is still correct: the pages fault in one by one as they are
 * touched. Only time changes, never a byte: the memory reads as zeros, as
 * calloc's does.
 *
 * Thread-safety: a buffer belongs to one thread at a time; the functions
 * keep no state of their own. */
#ifndef RF_BIGBUF_H
#define RF_BIGBUF_H

#include <stddef.h>

typedef struct rf_bigbuf {
    unsigned char *data;       /* size bytes, aligned to 2 MiB; NULL: none */
    size_t size;
    void *map;                 /* the mapping (data lies inside it) */
    size_t map_len;
    int populated;             /* rf_bigbuf_populate ran */
} rf_bigbuf_t;

/* Maps size (> 0) zero-filled bytes into *b. Touches nothing: no page is
 * faulted in yet. Returns 0, or -1 with errno (ENOMEM) and *b empty. */
int rf_bigbuf_alloc(rf_bigbuf_t *b, size_t size);

/* Faults every page of b in at once (huge pages where the kernel gives
 * them), once; later calls do nothing. Best effort: when the kernel
 * cannot (EINVAL before Linux 5.14, ENOMEM) the pages fault in as they
 * are first written. */
void rf_bigbuf_populate(rf_bigbuf_t *b);

/* Unmaps b and empties it; an empty b is a no-op. */
void rf_bigbuf_free(rf_bigbuf_t *b);

/* The heap the calling thread allocates from, its next n bytes advised as
 * huge pages: takes n bytes with malloc (below glibc's mmap threshold, so
 * from the heap: the caller raised it), advises the whole huge pages
 * among them, and frees them, which keeps them in the heap when the trim
 * threshold is above n. Later allocations there fault in 2 MiB at a time
 * instead of 4 KiB: a cold one-frame process faulted its parsed scene and
 * cairo's temporary surfaces 3,251 times for a 3,000-layer scene
 * (BENCHMARKS.md). Only virtual memory until touched; advice the kernel
 * may ignore; nothing on other C libraries. */
void rf_bigbuf_advise_heap(size_t n);

#endif
