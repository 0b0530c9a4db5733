/* pngio-inflate.c - the reader's fast way: an 8-bit RGB or RGBA image, not
 * interlaced, inflated by libdeflate in one call and unfiltered in place
 * (SSE2 on x86-64; RF_PNG_SCALAR selects the portable loops, which give
 * the same bytes).
 *
 * This way takes only what libpng would decode to the same pixels: it
 * declines (returns -1, keeps nothing) for every other file and for
 * every file in which it sees anything wrong, so that libpng
 * (pngio-read.c) decides, with its own messages. What it takes: the
 * signature; IHDR first (13 bytes: depth 8, color type 2 or 6, methods 0,
 * no interlace, a size the precheck allowed, at most RF_FAST_MAX bytes
 * filtered); then only IDAT chunks, one run of them, and ancillary chunks
 * (first letter lowercase, not tRNS), which libpng skips as we do; IEND.
 * Every chunk's CRC right, every length at most RF_PNG_MAX_CHUNK (under
 * libpng's limits), the zlib header plain (no preset dictionary; a window
 * of 32 KiB or at least the image), the deflate data ending exactly 4
 * bytes before the IDAT data does and with the image's last byte, every
 * row's filter type 0 to 4. The Adler-32 in those 4 bytes is not checked,
 * as libpng is told not to (pngio-read.c: the CRCs cover every byte).
 * The scan (pngio_fast_scan) looks at the chunks and the zlib header
 * without allocating; the inflate follows (a caller's header callback
 * may stop between the two).
 *
 * The one known difference: libdeflate reads some deflate streams that
 * break RFC 1951 and that zlib refuses (the reserved symbols 286, 287,
 * 30 and 31 as lengths of 258 and far distances, up to 288 and 32 codes
 * declared, a run of code lengths past the end, an unused codeword of an
 * incomplete code). Which of them a stream has shows only by decoding
 * it, so such a file decodes here where libpng says "IDAT: invalid ...";
 * no encoder writes them (tests/check_pngfast: lenient_streams_are_read).
 * Why this way: libpng's zlib inflates our level-1 files at a third of
 * libdeflate's speed (BENCHMARKS.md, "The reader's fast way").
 */
#include "pngio-int.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define RF_UNFILTER_SSE2 1
#else
#define RF_UNFILTER_SSE2 0
#endif

/* bytes after the last row that the 3-byte pixel loops may read and
 * write back unchanged */
#define RF_ROW_SLACK 16
/* the largest image this way inflates whole (filtered bytes: 8 K RGBA is
 * 133 MB, 4 K RGBA 33 MB) */
#define RF_FAST_MAX ((size_t)64 << 20)
/* from this size the rows are a bigbuf (huge pages, populated at once) */
#define RF_FAST_BIG (256u << 10)

static int is_letter(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* ---- unfiltering, one row in place; prior: the row above, unfiltered
 * (NULL for the first row: zeros) ---- */

static void unfilter_scalar(uint8_t *restrict cur, const uint8_t *restrict prior, size_t n,
                            unsigned bpp, int type)
{
    size_t i;
    switch (type) {
    case 1:
        for (i = bpp; i < n; i++)
            cur[i] = (uint8_t)(cur[i] + cur[i - bpp]);
        break;
    case 2:
        if (prior != NULL)
            for (i = 0; i < n; i++)
                cur[i] = (uint8_t)(cur[i] + prior[i]);
        break;
    case 3:
        for (i = 0; i < n; i++) {
            unsigned a = i >= bpp ? cur[i - bpp] : 0, b = prior != NULL ? prior[i] : 0;
            cur[i] = (uint8_t)(cur[i] + ((a + b) >> 1));
        }
        break;
    case 4:
        for (i = 0; i < n; i++) {
            int a = i >= bpp ? cur[i - bpp] : 0, b = prior != NULL ? prior[i] : 0;
            int c = i >= bpp && prior != NULL ? prior[i - bpp] : 0;
            int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
            int p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            cur[i] = (uint8_t)(cur[i] + p);
        }
        break;
    default:
        break;
    }
}

#if RF_UNFILTER_SSE2
/* Four bytes to or from the low lanes. For 3-byte pixels the fourth is the
 * next pixel's (or, after a row, the next row's filter type byte, or the
 * slack after the last row): the loops add 0 to it, so its store writes
 * back what was there. */
static inline __m128i px_load(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return _mm_cvtsi32_si128((int)v);
}

static inline void px_store(uint8_t *p, __m128i v)
{
    uint32_t x = (uint32_t)_mm_cvtsi128_si32(v);
    memcpy(p, &x, 4);
}

/* The pixel loops: Sub, Average and Paeth carry the pixel to the left in
 * a register, and load the next pixel's bytes before storing this one's
 * (with 3-byte pixels a load after the store would overlap it, which the
 * CPU cannot forward: a stall per pixel); Up is 16 bytes at a time.
 * Paeth in 16-bit lanes: pa = |b - c|, pb = |a - c|,
 * pc = |(b - c) + (a - c)|, the first of a, b, c whose distance is the
 * least. keep: the lanes of the pixel. Reads 4
 * bytes at cur + n and prior + n - bpp. */
static inline __attribute__((always_inline))
void unfilter_sse2(uint8_t *restrict cur, const uint8_t *restrict prior, size_t n,
                   unsigned bpp, int type)
{
    const __m128i zero = _mm_setzero_si128();
    const __m128i keep = _mm_cvtsi32_si128(bpp == 4 ? -1 : 0xffffff);
    size_t i = 0;
    if (prior == NULL && (type == 3 || type == 4)) {
        /* the first row: b = c = 0, so Average is a / 2 and Paeth is a */
        unfilter_scalar(cur, prior, n, bpp, type);
        return;
    }
    switch (type) {
    case 1: {
        __m128i a = zero, x = px_load(cur);
        for (; i < n; i += bpp) {
            __m128i next = px_load(cur + i + bpp);
            a = _mm_add_epi8(_mm_and_si128(a, keep), x);
            px_store(cur + i, a);
            x = next;
        }
        break;
    }
    case 2:
        if (prior == NULL)
            break;
        for (; i + 16 <= n; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(cur + i));
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(prior + i));
            _mm_storeu_si128((__m128i *)(void *)(cur + i), _mm_add_epi8(x, b));
        }
        for (; i < n; i++)
            cur[i] = (uint8_t)(cur[i] + prior[i]);
        break;
    case 3: {
        const __m128i one = _mm_set1_epi8(1);
        __m128i a = zero, x = px_load(cur);
        for (; i < n; i += bpp) {
            __m128i next = px_load(cur + i + bpp);
            __m128i b = px_load(prior + i);
            /* floor((a + b) / 2): pavgb rounds up, less the odd bit */
            __m128i avg = _mm_sub_epi8(_mm_avg_epu8(a, b),
                                       _mm_and_si128(_mm_xor_si128(a, b), one));
            a = _mm_add_epi8(_mm_and_si128(avg, keep), x);
            px_store(cur + i, a);
            x = next;
        }
        break;
    }
    case 4: {
        __m128i a = zero, c = zero;   /* 16-bit lanes */
        __m128i x = px_load(cur);
        for (; i < n; i += bpp) {
            __m128i next = px_load(cur + i + bpp);
            __m128i b = _mm_unpacklo_epi8(px_load(prior + i), zero);
            __m128i sa = _mm_sub_epi16(b, c), sb = _mm_sub_epi16(a, c);
            __m128i sc = _mm_add_epi16(sa, sb);
            __m128i pa = _mm_max_epi16(sa, _mm_sub_epi16(zero, sa));
            __m128i pb = _mm_max_epi16(sb, _mm_sub_epi16(zero, sb));
            __m128i pc = _mm_max_epi16(sc, _mm_sub_epi16(zero, sc));
            __m128i least = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
            __m128i ia = _mm_cmpeq_epi16(pa, least), ib = _mm_cmpeq_epi16(pb, least);
            __m128i bc = _mm_or_si128(_mm_and_si128(ib, b), _mm_andnot_si128(ib, c));
            __m128i p = _mm_or_si128(_mm_and_si128(ia, a), _mm_andnot_si128(ia, bc));
            __m128i out = _mm_add_epi8(_mm_and_si128(_mm_packus_epi16(p, p), keep), x);
            px_store(cur + i, out);
            a = _mm_unpacklo_epi8(out, zero);
            c = b;
            x = next;
        }
        break;
    }
    default:
        break;
    }
}

/* bpp a constant in each: the pixel loads and stores become single moves */
static void unfilter_sse2_3(uint8_t *cur, const uint8_t *prior, size_t n, int type)
{
    unfilter_sse2(cur, prior, n, 3, type);
}

static void unfilter_sse2_4(uint8_t *cur, const uint8_t *prior, size_t n, int type)
{
    unfilter_sse2(cur, prior, n, 4, type);
}
#endif

/* PNG's unfiltering of one row of n bytes in place (type 0 to 4; prior:
 * the row above, unfiltered, or NULL for the first row). The vector
 * loops read cur[n .. n + 3] and prior[n .. n + 3]; with 3-byte pixels
 * they write cur[n] back as it was. */
static void unfilter_row(uint8_t *cur, const uint8_t *prior, size_t n, unsigned bpp, int type,
                         int scalar)
{
#if RF_UNFILTER_SSE2
    if (!scalar && (bpp == 3 || bpp == 4) && n % bpp == 0) {
        if (bpp == 4)
            unfilter_sse2_4(cur, prior, n, type);
        else
            unfilter_sse2_3(cur, prior, n, type);
        return;
    }
#endif
    (void)scalar;
    unfilter_scalar(cur, prior, n, bpp, type);
}

/* ---- the file ---- */

/* The chunks, checked: 0 with IHDR's size and color type and where the
 * IDAT data is (its total, the first and the last IDAT chunk) in *f, or
 * -1. */
static int scan_chunks(const uint8_t *d, size_t len, pngio_fast_t *f)
{
    static const uint8_t sig[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };
    if (len < 8 + 25 || memcmp(d, sig, 8) != 0)
        return -1;
    size_t pos = 8;
    int after_idat = 0;
    for (int k = 0;; k++) {
        if (len - pos < 12)
            return -1;                          /* truncated: no IEND */
        uint32_t n = pngio_get32(d + pos);
        const uint8_t *t = d + pos + 4;
        if (n > RF_PNG_MAX_CHUNK || n > len - pos - 12)
            return -1;
        if (!is_letter(t[0]) || !is_letter(t[1]) || !is_letter(t[2]) || !is_letter(t[3]))
            return -1;
        if (libdeflate_crc32(0, t, (size_t)n + 4) != pngio_get32(t + 4 + n))
            return -1;
        const uint8_t *p = t + 4;
        if (k == 0) {
            if (memcmp(t, "IHDR", 4) != 0 || n != 13)
                return -1;
            f->width = pngio_get32(p);
            f->height = pngio_get32(p + 4);
            f->color_type = p[9];
            if (f->width == 0 || f->height == 0 || f->width > RF_PNG_MAX_DIMENSION ||
                f->height > RF_PNG_MAX_DIMENSION ||
                (uint64_t)f->width * f->height > RF_PNG_MAX_PIXELS || p[8] != 8 ||
                (f->color_type != 2 && f->color_type != 6) || p[10] != 0 || p[11] != 0 ||
                p[12] != 0)
                return -1;
        } else if (memcmp(t, "IDAT", 4) == 0) {
            if (after_idat)
                return -1;                      /* a second run of IDAT */
            if (f->nidat++ == 0)
                f->first = pos;
            f->last = pos;
            f->idat_len += n;
        } else if (memcmp(t, "IEND", 4) == 0) {
            return f->nidat > 0 && n == 0 ? 0 : -1;
        } else if (t[0] >= 'A' && t[0] <= 'Z') {
            return -1;                          /* PLTE, an unknown critical chunk */
        } else if (memcmp(t, "tRNS", 4) == 0) {
            return -1;                          /* a color key: libpng's way */
        } else {
            after_idat = f->nidat > 0;          /* skipped, as libpng skips it */
        }
        pos += 12 + (size_t)n;
    }
}

/* ---- what each thread keeps ----
 * A golden check decodes a file per frame: mapping, zeroing and unmapping
 * 8 MB for each 1080p file (the unmapping interrupting the CPUs that run
 * the renderers, to flush their TLBs) cost as much as the inflate saved.
 * So each thread keeps its last large rows buffer (up to
 * RF_FAST_CACHE_MAX bytes: a 1080p RGBA image's is 8.3 MB) and its
 * decompressor for the next file: freed at thread exit (a key destructor)
 * and, for the thread that calls exit(), by an atexit handler. */
#define RF_FAST_CACHE_MAX ((size_t)16 << 20)

typedef struct fast_keep {
    rf_bigbuf_t rows;
    struct libdeflate_decompressor *dc;
} fast_keep_t;

static pthread_key_t keep_key;
static pthread_once_t keep_once = PTHREAD_ONCE_INIT;
static int keep_ok;

static void keep_free(void *p)
{
    fast_keep_t *k = p;
    if (k != NULL) {
        rf_bigbuf_free(&k->rows);
        libdeflate_free_decompressor(k->dc);
        free(k);
    }
}

static void keep_at_exit(void)
{
    keep_free(pthread_getspecific(keep_key));
    pthread_setspecific(keep_key, NULL);
}

static void keep_make(void)
{
    keep_ok = pthread_key_create(&keep_key, keep_free) == 0;
    if (keep_ok)
        atexit(keep_at_exit);   /* key destructors skip the exiting thread */
}

/* This thread's record, made on first use; NULL without memory or key. */
static fast_keep_t *keep_get(void)
{
    pthread_once(&keep_once, keep_make);
    if (!keep_ok)
        return NULL;
    fast_keep_t *k = pthread_getspecific(keep_key);
    if (k == NULL) {
        k = calloc(1, sizeof *k);
        if (k != NULL && pthread_setspecific(keep_key, k) != 0) {
            free(k);
            k = NULL;
        }
    }
    return k;
}

/* *out: the kept rows buffer when it holds need bytes, else a new one,
 * populated. 0, or -1 (no memory). */
static int rows_take(rf_bigbuf_t *out, size_t need)
{
    fast_keep_t *k = keep_get();
    if (k != NULL && k->rows.data != NULL) {
        if (k->rows.size >= need) {
            *out = k->rows;
            memset(&k->rows, 0, sizeof k->rows);
            return 0;
        }
        rf_bigbuf_free(&k->rows);
    }
    if (rf_bigbuf_alloc(out, need) != 0)
        return -1;
    rf_bigbuf_populate(out);
    return 0;
}

/* Keeps b for this thread's next file, or frees it. */
static void rows_give_back(rf_bigbuf_t *b)
{
    if (b->data == NULL)
        return;
    fast_keep_t *k = b->size <= RF_FAST_CACHE_MAX ? keep_get() : NULL;
    if (k != NULL && k->rows.data == NULL) {
        k->rows = *b;
        memset(b, 0, sizeof *b);
        return;
    }
    rf_bigbuf_free(b);
}

/* The zlib header's two bytes, across IDAT chunks of any size. */
static void zlib_header(const uint8_t *data, size_t first, uint8_t h[2])
{
    size_t pos = first, got = 0;
    while (got < 2) {
        uint32_t n = pngio_get32(data + pos);
        for (uint32_t k = 0; k < n && got < 2; k++)
            h[got++] = data[pos + 8 + k];
        pos += 12 + (size_t)n;
    }
}

int pngio_fast_scan(const uint8_t *data, size_t len, pngio_fast_t *f)
{
    memset(f, 0, sizeof *f);
    /* 2 bytes of header, 4 of Adler-32 and at least one of deflate */
    if (scan_chunks(data, len, f) != 0 || f->idat_len < 7)
        return -1;
    f->bpp = f->color_type == 6 ? 4 : 3;
    f->rowbytes = (size_t)f->width * f->bpp;
    size_t total = (f->rowbytes + 1) * f->height;
    /* deflate makes at most 1,032 bytes of one (a 258-byte match in 2
     * bits): a shorter stream cannot fill the image, and nothing is
     * mapped for a tiny file that claims a huge image */
    if (total / 1032 > f->idat_len)
        return -1;
    /* the whole image inflated at once: beyond RF_FAST_MAX libpng's rows
     * one at a time keep the memory small (two 16384 x 4096 RGBA files
     * compared would hold 537 MB) */
    if (total > RF_FAST_MAX)
        return -1;
    /* the zlib header: deflate, no dictionary; a window smaller than 32
     * KiB only if it holds the whole image (zlib enforces the window
     * declared; libdeflate allows 32 KiB) */
    uint8_t h[2];
    zlib_header(data, f->first, h);
    unsigned cmf = h[0], flg = h[1];
    if ((cmf & 15) != 8 || cmf >> 4 > 7 || (flg & 32) != 0 || (cmf * 256 + flg) % 31 != 0 ||
        (cmf >> 4 < 7 && total > (size_t)1 << ((cmf >> 4) + 8)))
        return -1;
    return 0;
}

int pngio_fast_inflate(const uint8_t *data, pngio_fast_t *f)
{
    size_t total = (f->rowbytes + 1) * f->height;
    /* one allocation: the image's rows, then (for several IDAT chunks)
     * their zlib data gathered */
    size_t need = total + RF_ROW_SLACK + (f->nidat > 1 ? f->idat_len : 0);
    if (need < RF_FAST_BIG) {
        f->heap = malloc(need);
        if (f->heap == NULL)
            return -1;
        f->rows = f->heap;
    } else {
        if (rows_take(&f->buf, need) != 0)
            return -1;
        f->rows = f->buf.data;
    }
    const uint8_t *in = data + f->first + 8;
    if (f->nidat > 1) {
        uint8_t *g = f->rows + total + RF_ROW_SLACK;
        size_t pos = f->first;
        for (;;) {
            uint32_t n = pngio_get32(data + pos);
            memcpy(g, data + pos + 8, n);
            g += n;
            if (pos == f->last)
                break;
            pos += 12 + (size_t)n;
        }
        in = f->rows + total + RF_ROW_SLACK;
    }
    fast_keep_t *k = keep_get();
    struct libdeflate_decompressor *dc = k != NULL ? k->dc : NULL;
    if (dc == NULL) {
        dc = libdeflate_alloc_decompressor();
        if (dc == NULL) {
            pngio_fast_free(f);
            return -1;
        }
        if (k != NULL)
            k->dc = dc;
    }
    /* the deflate data between the header and the Adler-32, which is not
     * checked: libpng's reader is told to ignore it (pngio-read.c), and
     * the chunks' CRCs cover every byte; the 4 bytes must be there */
    size_t in_used = 0, out_made = 0, n = f->idat_len - 6;
    enum libdeflate_result r = libdeflate_deflate_decompress_ex(dc, in + 2, n, f->rows, total,
                                                                &in_used, &out_made);
    if (k == NULL)
        libdeflate_free_decompressor(dc);
    if (r != LIBDEFLATE_SUCCESS || in_used != n || out_made != total) {
        pngio_fast_free(f);
        return -1;
    }
    for (uint32_t y = 0; y < f->height; y++)
        if (f->rows[(size_t)y * (f->rowbytes + 1)] > 4) {
            pngio_fast_free(f);
            return -1;                          /* libpng: "bad adaptive filter value" */
        }
    return 0;
}

const uint8_t *pngio_fast_row(pngio_fast_t *f, uint32_t y, int scalar)
{
    size_t step = f->rowbytes + 1;
    uint8_t *row = f->rows + (size_t)y * step;
    unfilter_row(row + 1, y > 0 ? row + 1 - step : NULL, f->rowbytes, f->bpp, row[0],
                 scalar);
    return row + 1;
}

void pngio_fast_free(pngio_fast_t *f)
{
    rows_give_back(&f->buf);
    free(f->heap);
    f->heap = NULL;
    f->rows = NULL;
}
