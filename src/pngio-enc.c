/* pngio-enc.c - the PNG encoder core: rows in, a complete PNG file out
 * (signature, IHDR, IDAT chunks, IEND), filters chosen per row
 * (pngio-filter.h) and the zlib stream made by libdeflate in one call.
 *
 * Output bytes depend only on the pixels, the level and the filter mode
 * (and libdeflate's version): never on the CPU. The filter loops exist
 * three times, auto-vectorized for AVX2 (chosen at run time) and for the
 * baseline, and scalar; RF_PNG_SCALAR=sse2 or 1 in the environment
 * selects the baseline or the scalar ones (tests hold all three to the
 * same bytes). libdeflate
 * dispatches on CPU features only for checksums and its match finder's
 * table setup, which do not change its output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* cpu_set_t (spawn.h) */
#endif
#include "pngio-int.h"

#include <errno.h>
#include <stdatomic.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "spawn.h"

/* ---- the filters, three times: baseline, scalar, AVX2 ---- */
#define PF(name) pf_vec_##name
#define PF_NOVEC
#include "pngio-filter.h"
#undef PF
#undef PF_NOVEC

/* The scalar copy: gcc's vectorizers off for these functions; clang's
 * loop vectorizer off for each loop (its SLP vectorizer has no such
 * switch, the output is the same either way). */
#define PF(name) pf_scalar_##name
#if defined(__clang__)
#define PF_NOVEC _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define PF_NOVEC
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize")
#endif
#include "pngio-filter.h"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
#undef PF
#undef PF_NOVEC

/* The AVX2 copy (GCC on x86-64): the same loops vectorized 32 bytes at a
 * time (the baseline copy has SSE2's 16), chosen at run time: a 1080p
 * gradient frame's encode 33M instructions fewer (about 143M before),
 * Paeth's rows and the sampled costs of every filter. GCC only: clang
 * (the fuzzing builds) takes the baseline copy. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RF_PF_AVX2 1
#define PF(name) pf_avx2_##name
#define PF_NOVEC
#pragma GCC push_options
#pragma GCC target("avx2")
#include "pngio-filter.h"
#pragma GCC pop_options
#undef PF
#undef PF_NOVEC
#else
#define RF_PF_AVX2 0
#endif

/* Which copy of the filters runs: 0 scalar (RF_PNG_SCALAR=1), 1 the
 * baseline vectorized one (RF_PNG_SCALAR=sse2, or a CPU without AVX2),
 * 2 AVX2. Every copy writes the same bytes. */
static int filter_copy(void)
{
    const char *s = getenv("RF_PNG_SCALAR");
    if (s != NULL && strcmp(s, "sse2") == 0)
        return 1;
    if (pngio_scalar_forced())
        return 0;
#if RF_PF_AVX2
    if (__builtin_cpu_supports("avx2"))
        return 2;
#endif
    return 1;
}

/* The template's filter_row and quick_choice by the copy filter_copy()
 * chose. */
static void filter_row(int copy, uint8_t *out, const uint8_t *cur, const uint8_t *prev, size_t n,
                       size_t bpp, rf_png_filter_t mode, uint8_t *scratch)
{
#if RF_PF_AVX2
    if (copy == 2) {
        pf_avx2_filter_row(out, cur, prev, n, bpp, mode, scratch);
        return;
    }
#endif
    if (copy == 0)
        pf_scalar_filter_row(out, cur, prev, n, bpp, mode, scratch);
    else
        pf_vec_filter_row(out, cur, prev, n, bpp, mode, scratch);
}

static rf_png_filter_t quick_choice(int copy, const uint8_t *cur, const uint8_t *prev, size_t n,
                                    size_t bpp)
{
#if RF_PF_AVX2
    if (copy == 2)
        return pf_avx2_quick_choice(cur, prev, n, bpp);
#endif
    return copy == 0 ? pf_scalar_quick_choice(cur, prev, n, bpp)
                     : pf_vec_quick_choice(cur, prev, n, bpp);
}

#define RF_IDAT_MAX (1u << 20)   /* bytes of zlib data per IDAT chunk */
#define RF_TRIAL_ROWS 64         /* rows compressed each way to choose the filters */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* One chunk: length, type, data, CRC of type + data, through emit. */
static int emit_chunk(pngio_emit_fn emit, void *ctx, const char type[4], const uint8_t *data,
                      uint32_t len)
{
    uint8_t head[8], tail[4];
    put32(head, len);
    memcpy(head + 4, type, 4);
    uint32_t crc = libdeflate_crc32(0, head + 4, 4);
    if (len > 0)
        crc = libdeflate_crc32(crc, data, len);
    put32(tail, crc);
    if (emit(ctx, head, 8) != 0 || (len > 0 && emit(ctx, data, len) != 0) || emit(ctx, tail, 4) != 0)
        return -1;
    return 0;
}

/* The signature and IHDR. */
static int emit_head(const pngio_image_t *img, pngio_emit_fn emit, void *ctx)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    uint8_t ihdr[13];
    put32(ihdr, img->width);
    put32(ihdr + 4, img->height);
    ihdr[8] = 8;                        /* bit depth */
    ihdr[9] = img->alpha ? 6 : 2;       /* RGBA or RGB */
    ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filters, no interlace */
    return emit(ctx, sig, sizeof sig) != 0 || emit_chunk(emit, ctx, "IHDR", ihdr, 13) != 0 ? -1 : 0;
}

int pngio_scalar_forced(void)
{
    const char *s = getenv("RF_PNG_SCALAR");
    return s != NULL && s[0] != '\0' && strcmp(s, "0") != 0 && strcmp(s, "sse2") != 0;
}

/* What one half of a level-1 stream needs. The plan (bands, starts,
 * blocks) is shared and read only. Output: z, a buffer of zcap bytes;
 * each full IDAT's worth (and the half's end) goes to cut, which
 * returns where to write next: z again once emitted as a chunk
 * (cut_emit), or further on when the half is kept whole until the half
 * before it is out (cut_keep). */
typedef struct enc_part {
    const pngio_image_t *img;
    rf_png_filter_t mode;
    int copy;                   /* the filters: filter_copy() */
    int matches;                /* NONE rows: the match finder on */
    size_t n, bpp;
    uint32_t band, nb;
    const uint32_t *bands;
    const uint8_t *starts;
    int blocks;                 /* blocks in the whole stream */
    int begun;                  /* blocks before this half */
    uint32_t y0, y1;            /* its rows */
    int last;                   /* the stream's last half */
    int has_before;             /* adler_before: the rows before it, known */
    uint32_t adler_before;
    uint8_t *z;
    size_t zcap;
    uint8_t *(*cut)(struct enc_part *pt, uint8_t *from, uint8_t *to);
    pngio_emit_fn emit;         /* cut_emit's */
    void *ctx;
    size_t *ends;               /* cut_keep's: its chunks' ends in z, */
    size_t nends, ends_cap;     /* at the start of *keep (z after them) */
    uint8_t **keep;
    size_t *keep_cap;
    int ending;                 /* the half's last cut: nothing follows */
    atomic_int claimed;         /* the second half: 1 once a thread took it */
    atomic_int done;            /* its thread has finished with it */
    rf_spawn_cpus_t cpus;       /* where its thread starts (spawn.h) */
    uint8_t *rows, *raw;        /* its thread's filter buffers */
    /* results */
    uint32_t adler;             /* of this half's filtered rows */
    size_t rows_len;            /* their bytes */
    rf_png_status_t st;
} enc_part_t;

/* ---- per-thread scratch ----
 * The filtered image and the compressed one are canvas-sized: allocated
 * fresh for every frame they cost a page fault per 4 KiB touched (about
 * 3,000 per 1080p frame, a large share of the encode on virtual machines).
 * Each thread keeps its buffers and one compressor per level between
 * calls, up to RF_ENC_CACHE_MAX bytes of buffers; a larger image's are
 * freed when it is done. Freed at thread exit (a pthread key destructor),
 * and the exiting thread's by an atexit handler (memory checkers see no
 * leak). */
#define RF_ENC_CACHE_MAX ((size_t)96 << 20)
#define RF_ENC_LEVELS 13

typedef struct enc_scratch {
    uint8_t *raw;                   /* filtered image */
    size_t raw_cap;
    uint8_t *z;                     /* zlib stream */
    size_t z_cap;
    uint8_t *rows;                  /* prev, cur, 4 candidate rows */
    size_t rows_cap;
    uint8_t *bands;                 /* level 1: the sample's counts per band */
    size_t bands_cap;
    uint8_t *z2;                    /* level 1: the second half, coded on a thread */
    size_t z2_cap;
    uint8_t *rows2, *raw2;          /* that thread's rows and raw */
    size_t rows2_cap, raw2_cap;
    uint8_t *stack;                 /* and its stack */
    size_t stack_cap;
    enc_part_t *part2;              /* and its half (not on the caller's stack:
                                       the thread may outlive the call) */
    pthread_t pending;              /* a thread not joined yet: the caller took its
                                       half back before it ran (joined when the
                                       scratch is next used, or freed) */
    int pending_on;
    struct libdeflate_compressor *comp[RF_ENC_LEVELS];
} enc_scratch_t;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static int scratch_key_ok;

/* Joins the thread a call left behind, if any. */
static void scratch_settle(enc_scratch_t *s)
{
    if (s->pending_on) {
        pthread_join(s->pending, NULL);
        s->pending_on = 0;
    }
}

static void scratch_free(void *p)
{
    enc_scratch_t *s = p;
    if (s == NULL)
        return;
    scratch_settle(s);
    free(s->part2);
    free(s->raw);
    free(s->z);
    free(s->rows);
    free(s->bands);
    free(s->z2);
    free(s->rows2);
    free(s->raw2);
    free(s->stack);
    for (int i = 0; i < RF_ENC_LEVELS; i++)
        libdeflate_free_compressor(s->comp[i]);
    free(s);
}

/* What exit leaves: a scratch whose thread has not run yet (waiting
 * for it could take a millisecond on a virtual machine whose other CPU
 * sleeps; its memory is still reachable from here, not a leak). */
static enc_scratch_t *scratch_left;

static void scratch_release_at_exit(void)
{
    enc_scratch_t *s = scratch_key_ok ? pthread_getspecific(scratch_key) : NULL;
    if (s != NULL && s->pending_on && !atomic_load(&s->part2->done)) {
        scratch_left = s;
        pthread_setspecific(scratch_key, NULL);
        return;
    }
    pngio_scratch_release();
}

static void scratch_key_make(void)
{
    scratch_key_ok = pthread_key_create(&scratch_key, scratch_free) == 0;
    /* key destructors do not run for the thread that calls exit() */
    if (scratch_key_ok)
        atexit(scratch_release_at_exit);
}

void pngio_scratch_release(void)
{
    pthread_once(&scratch_once, scratch_key_make);
    if (!scratch_key_ok)
        return;
    scratch_free(pthread_getspecific(scratch_key));
    pthread_setspecific(scratch_key, NULL);
}

/* This thread's scratch (a fresh, uncached one when there is no key or
 * no memory for the record: *cached tells). NULL when out of memory. */
static enc_scratch_t *scratch_get(int *cached)
{
    pthread_once(&scratch_once, scratch_key_make);
    enc_scratch_t *s = scratch_key_ok ? pthread_getspecific(scratch_key) : NULL;
    *cached = 1;
    if (s != NULL)
        return s;
    s = calloc(1, sizeof *s);
    if (s != NULL && scratch_key_ok && pthread_setspecific(scratch_key, s) == 0)
        return s;
    *cached = 0;
    return s;
}

/* p grown to at least n bytes (contents not kept); 0 or -1. */
static int grow(uint8_t **p, size_t *cap, size_t n, int zero)
{
    if (*cap >= n)
        return 0;
    free(*p);
    *p = zero ? calloc(n, 1) : malloc(n);
    *cap = *p != NULL ? n : 0;
    return *p != NULL ? 0 : -1;
}

/* Rows y0 .. y1-1 of img filtered as mode says into dst (y1 - y0 rows of
 * 1 + n bytes). rows: prev and cur with their zero pads, then 4 candidate
 * rows; prev must hold row y0 - 1 (zeros for y0 = 0), cur's pad zeros. */
static void filter_rows(const pngio_image_t *img, uint32_t y0, uint32_t y1, size_t n, size_t bpp,
                        rf_png_filter_t mode, uint8_t *dst, uint8_t *rows, int copy)
{
    uint8_t *prev = rows + 8, *cur = rows + 8 + n + 8, *scratch = rows + 2 * (n + 8);
    for (uint32_t y = y0; y < y1; y++, dst += n + 1) {
        img->row(img->src, y, cur);
        filter_row(copy, dst, cur, prev, n, bpp, mode, scratch);
        uint8_t *t = prev;
        prev = cur;
        cur = t;
    }
}

/* The per-row filter choice (the sum of absolute filtered bytes) suits
 * smooth content and flat regions, but on antialiased shapes and
 * translucent layers LZ77 often finds longer matches in the unfiltered
 * bytes, or in bytes filtered one way throughout (translucent RGBA: SUB
 * everywhere came out 6% smaller than the per-row choice). The encoder
 * asks the compressor: 4 bands of RF_TRIAL_ROWS / 4 rows spread over the
 * image, filtered each of trial_modes' ways and compressed at the
 * frame's level; the smallest wins (the first of equals: per row unless
 * another is strictly smaller): 5 x RF_TRIAL_ROWS rows compressed
 * besides the frame (30% of a 1080p frame's rows, 44% of a 720p one's;
 * level 7's encode measured 8% to 36% slower than with NONE and per row
 * only). Frames under 2 x RF_TRIAL_ROWS rows, and level 0 (every way
 * stores the same bytes), are filtered per row. Deterministic: sizes
 * from the same compressor on the same bytes. work holds RF_TRIAL_ROWS
 * rows. */
static const rf_png_filter_t trial_modes[] = {
    RF_PNG_FILTER_ALL, RF_PNG_FILTER_NONE, RF_PNG_FILTER_SUB, RF_PNG_FILTER_UP,
    RF_PNG_FILTER_PAETH,
};

static rf_png_filter_t trial_choice(const pngio_image_t *img, size_t n, size_t bpp,
                                    struct libdeflate_compressor *z, uint8_t *work, uint8_t *zbuf,
                                    size_t zcap, uint8_t *rows, int copy)
{
    const uint32_t band = RF_TRIAL_ROWS / 4;
    rf_png_filter_t best = RF_PNG_FILTER_ALL;
    size_t best_size = 0;
    for (size_t m = 0; m < sizeof trial_modes / sizeof trial_modes[0]; m++) {
        for (uint32_t b = 0; b < 4; b++) {
            uint32_t y0 = (uint32_t)((uint64_t)img->height * (2 * b + 1) / 8);
            if (y0 + band > img->height)
                y0 = img->height - band;
            memset(rows, 0, 2 * (n + 8));
            if (y0 > 0)
                img->row(img->src, y0 - 1, rows + 8);
            filter_rows(img, y0, y0 + band, n, bpp, trial_modes[m],
                        work + (size_t)b * band * (n + 1), rows, copy);
        }
        size_t size = libdeflate_zlib_compress(z, work, (size_t)RF_TRIAL_ROWS * (n + 1), zbuf, zcap);
        if (size == 0 && m == 0)
            return RF_PNG_FILTER_ALL;
        if (size != 0 && (m == 0 || size < best_size)) {
            best = trial_modes[m];
            best_size = size;
        }
    }
    return best;
}

/* ---- level 1: the fast coder (pngio-huff.c) ----
 * Rows are filtered one at a time and coded at once: no image-sized
 * buffer, the zlib stream leaves in IDAT chunks of about RF_IDAT_MAX
 * bytes (cut after the row that fills one). The Huffman tables come from
 * a sample: every RF_SAMPLE_STEP-th row (every row of small images), its
 * symbols counted per band of RF_BAND_ROWS rows; a band starts a new
 * block (tables of its own and the next bands' until the next block)
 * where pngio_huff_plan says so.
 *
 * Two ways to code an image, chosen from the sample (sample): its rows
 * filtered (per row, or as the caller says) with runs and no other
 * matches, or (filter ALL or NONE) unfiltered with matches. The second
 * is taken when its sample's estimated bits are 3% fewer or more: on
 * the corpus, strokes and text (0.90x and 0.92x cairo's size instead of
 * 1.03x and 1.22x; libpng decodes them 2.5x as fast: long matches
 * instead of literals). Unfiltered rows are coded in a window (raw):
 * one after the other, the last PNGIO_HUFF_WINDOW bytes moved to its
 * start when the next row would not fit.
 *
 * An image of RF_SPLIT_BYTES filtered bytes or more is coded as two
 * halves, cut at the band where the sample says half the work is done
 * (split_band): the first ends with a sync flush (an empty stored
 * block, byte-aligned) and an IDAT chunk, the second starts a block and
 * its first row is coded as a stream's first (no run from the row
 * before), its Adler-32 combined with the first's. So the halves can be
 * coded at once on two threads (threads >= 2, RF_THREAD_WORK or more)
 * or one after the other: the bytes depend only on the image, never on
 * the threads. */
#define RF_SAMPLE_STEP 16
#define RF_BAND_ROWS 64          /* a block may start every band of rows */
#define RF_BANDS_MAX 1024        /* taller images: longer bands */
#define RF_SPLIT_BYTES ((size_t)1 << 20)
#define RF_THREAD_WORK 6800000u  /* halves worth a thread (split_band's units: about
                                    3 ms of coding here); smaller ones are done
                                    before a sleeping CPU wakes */
#define RF_LITERAL_WORK 7        /* a literal costs the coder about 7 bytes' filtering */
#define RF_PART_STACK ((size_t)256 << 10)   /* the second half's thread's stack */

/* Level 1's scratch: rows (prev, cur, 4 candidates, then the match
 * finder's table) and raw: the sample's rows, then one filtered row,
 * or for unfiltered rows the window (the rows one after the other, the
 * last PNGIO_HUFF_WINDOW bytes moved to its start when the next row
 * would not fit: once per 192 KiB of rows, or per row when longer). */
static size_t rows_bytes(size_t n)
{
    return 2 * (n + 8) + 4 * n + 64 + PNGIO_HUFF_HASH * sizeof(uint32_t);
}

static uint32_t *rows_tab(uint8_t *rows, size_t n)
{
    uintptr_t t = (uintptr_t)(rows + 2 * (n + 8) + 4 * n);
    return (uint32_t *)(void *)((t + 63) & ~(uintptr_t)63);
}

/* raw's bytes: rows coded with matches need the window (the kept bytes
 * and at least one row, 192 KiB of rows when they are shorter); others
 * one row; the sample three (sample_bytes). */
static size_t window_bytes(size_t len, int matches)
{
    size_t room = len + 16 > ((size_t)192 << 10) ? len + 16 : (size_t)192 << 10;
    return matches ? 8 + PNGIO_HUFF_WINDOW + 8 + room + 16 : 8 + len + 16;
}

static size_t sample_bytes(size_t len)
{
    return 8 + 3 * len + 48;
}

/* Row y filtered as mode says into f (1 + n bytes). rows as for
 * filter_rows: prev holds row y - 1 (zeros for y = 0); cur is converted
 * here. */
static void filter_one(const pngio_image_t *img, uint32_t y, size_t n, size_t bpp,
                       rf_png_filter_t mode, uint8_t *f, uint8_t *prev, uint8_t *cur,
                       uint8_t *cand, int copy)
{
    img->row(img->src, y, cur);
    if (mode == RF_PNG_FILTER_ALL)
        mode = quick_choice(copy, cur, prev, n, bpp);
    filter_row(copy, f, cur, prev, n, bpp, mode, cand);
}

/* The Adler-32 of A then B from a (of A), b (of B) and B's length: the
 * sums of B shifted by A's (RFC 1950 8.2; zlib's adler32_combine). */
static uint32_t adler_combine(uint32_t a, uint32_t b, size_t len_b)
{
    const uint32_t base = 65521;
    uint64_t rem = len_b % base;
    uint64_t s1 = (a & 0xffff) + (b & 0xffff) + base - 1;
    uint64_t s2 = (rem * (a & 0xffff)) % base + (a >> 16) + (b >> 16) + base - rem;
    return (uint32_t)(s1 % base) | (uint32_t)(s2 % base) << 16;
}


/* Codes rows y0 .. y1-1 of pt into pt->z through pt->cut; pt->st tells
 * how it went. rows and raw as encode_fast's scratch (zeroed here). */
static void code_part(enc_part_t *pt, uint8_t *rows, uint8_t *raw)
{
    const pngio_image_t *img = pt->img;
    size_t n = pt->n, len = n + 1;
    uint8_t *prev = rows + 8, *cur = rows + 8 + n + 8, *cand = rows + 2 * (n + 8);
    uint8_t *f = raw + 8;               /* f[-1]: the stream's previous byte */
    uint8_t *wend = raw + window_bytes(len, pt->matches);
    uint8_t *z0 = pt->z, *out = z0;
    uint32_t band = pt->band, nb = pt->nb, adler = 1;
    int begun = pt->begun;
    pngio_huff_t h;
    pngio_huff_init(&h, pt->matches ? rows_tab(rows, n) : NULL, (unsigned)pt->bpp);
    memset(rows, 0, 2 * (n + 8));
    f[-1] = 0;
    if (pt->y0 > 0)
        img->row(img->src, pt->y0 - 1, prev);
    pt->st = RF_PNG_SUCCESS;
    for (uint32_t y = pt->y0; y < pt->y1; y++) {
        if (y == pt->y0 || (y % band == 0 && pt->starts[y / band])) {   /* a block: its bands' counts */
            if (y > pt->y0)
                out = pngio_huff_block_end(&h, out);
            memset(h.count, 0, sizeof h.count);
            for (uint32_t b = y / band; b < nb && (b == y / band || !pt->starts[b]); b++)
                for (int s = 0; s < PNGIO_HUFF_COUNTS; s++)
                    h.count[s] += pt->bands[(size_t)b * PNGIO_HUFF_COUNTS + s];
            begun++;
            out = pngio_huff_begin(&h, out, y == 0, begun == pt->blocks);
        }
        if (pt->matches && (size_t)(wend - f) < len + 16) {   /* the window's last bytes to its start */
            size_t keep = (size_t)(f - raw) < PNGIO_HUFF_WINDOW + 8 ? (size_t)(f - raw)
                                                                    : PNGIO_HUFF_WINDOW + 8;
            memmove(raw, f - keep, keep);
            f = raw + keep;
        }
        filter_one(img, y, n, pt->bpp, pt->mode, f, prev, cur, cand, pt->copy);
        adler = libdeflate_adler32(adler, f, len);
        out = pngio_huff_row(&h, f, len, y == pt->y0, out);
        if (pt->matches) {
            f += len;
        } else {                        /* runs reach back one byte only */
            f[-1] = f[n];
        }
        uint8_t *t = prev;
        prev = cur;
        cur = t;
        if ((size_t)(out - z0) >= RF_IDAT_MAX) {
            if ((out = pt->cut(pt, z0, out)) == NULL)
                return;
            z0 = out;
        }
    }
    pt->adler = adler;
    pt->rows_len = (size_t)(pt->y1 - pt->y0) * len;
    if (pt->last)
        out = pngio_huff_end(&h, out, pt->has_before ? adler_combine(pt->adler_before, adler,
                                                                     pt->rows_len) : adler);
    else
        out = pngio_huff_sync(&h, out);
    pt->ending = 1;
    (void)pt->cut(pt, z0, out);
}

/* cut: from .. to as an IDAT chunk now; z again (NULL: emit failed). */
static uint8_t *cut_emit(enc_part_t *pt, uint8_t *from, uint8_t *to)
{
    if (emit_chunk(pt->emit, pt->ctx, "IDAT", from, (uint32_t)(to - from)) != 0) {
        pt->st = RF_PNG_IO_ERROR;
        return NULL;
    }
    return pt->z;
}

/* cut: from .. to kept where it is, a chunk to emit later; the buffer
 * (pt->keep, its ends array first) grown for the next chunk's worth
 * unless it was the last (NULL: no memory). */
static uint8_t *cut_keep(enc_part_t *pt, uint8_t *from, uint8_t *to)
{
    (void)from;
    size_t used = (size_t)(to - pt->z), next = RF_IDAT_MAX + 2 * (pt->n + 1) + 2048;
    if (pt->nends == pt->ends_cap || (!pt->ending && pt->zcap - used < next)) {
        size_t ends_cap = 2 * pt->ends_cap, zcap = 2 * pt->zcap > used + next ? 2 * pt->zcap : used + next;
        size_t off = ends_cap * sizeof(size_t);
        uint8_t *b = zcap <= SIZE_MAX - off ? malloc(off + zcap) : NULL;
        if (b == NULL) {
            pt->st = RF_PNG_NO_MEMORY;
            return NULL;
        }
        memcpy(b, pt->ends, pt->nends * sizeof(size_t));
        memcpy(b + off, pt->z, used);
        free(*pt->keep);
        *pt->keep = b;
        *pt->keep_cap = off + zcap;
        pt->ends = (size_t *)(void *)b;
        pt->ends_cap = ends_cap;
        pt->z = b + off;
        pt->zcap = zcap;
    }
    pt->ends[pt->nends++] = used;
    return pt->z + used;
}

/* The second half on its own thread, with the buffers its caller gave
 * it (a thread that allocates gets an arena of its own: 64 MiB mapped),
 * unless the caller took it back first (it finished its half before
 * this thread ran). */
static void *part_thread(void *arg)
{
    enc_part_t *pt = arg;
    rf_spawn_widen(&pt->cpus);
    if (atomic_exchange(&pt->claimed, 1) == 0)
        code_part(pt, pt->rows, pt->raw);
    atomic_store(&pt->done, 1);
    return NULL;
}

/* The band (1 .. nb - 1) where the second half starts: the first at
 * which the estimated work of the bands before it reaches half the
 * whole, each band's work its bytes plus RF_LITERAL_WORK per literal of
 * its sample (scaled by step: runs are coded 8 bytes at a time,
 * literals one by one), the whole's in *work_total. Integer arithmetic
 * on the sample: the same cut on every machine. */
/* Band b's estimated work (split_band's units). */
static uint64_t band_work(const uint32_t *bands, uint32_t b, uint32_t nb, uint32_t band,
                          uint32_t height, size_t len, uint32_t step)
{
    uint32_t rows = b + 1 < nb ? band : height - b * band;
    uint64_t lits = 0;
    for (int s = 0; s < 256; s++)
        lits += bands[(size_t)b * PNGIO_HUFF_COUNTS + s];
    return (uint64_t)rows * len + lits * step * RF_LITERAL_WORK;
}

static uint32_t split_band(const uint32_t *bands, uint32_t nb, uint32_t band, uint32_t height,
                           size_t len, uint32_t step, uint64_t *work_total)
{
    uint64_t total = 0, sofar = 0;
    for (uint32_t b = 0; b < nb; b++)
        total += band_work(bands, b, nb, band, height, len, step);
    *work_total = total;
    for (uint32_t b = 0; b < nb; b++) {
        if (b > 0 && 2 * sofar >= total)
            return b;
        sofar += band_work(bands, b, nb, band, height, len, step);
    }
    return nb - 1;
}

/* Starts pt's half on a thread of its own, placed on a CPU other than
 * the caller's where there is one (spawn.h). */
static int part_spawn(pthread_t *tid, enc_part_t *pt, uint8_t *stack, size_t stack_len)
{
    pthread_attr_t attr;
    int rc;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    /* a stack from the heap: no mapping, guard page or unmapping (each a
     * TLB flush on every CPU of the process, dear on virtual machines) */
    if (pthread_attr_setstack(&attr, stack, stack_len) != 0) {
        pthread_attr_destroy(&attr);
        return -1;
    }
    rf_spawn_elsewhere(&attr, &pt->cpus);
    rc = pthread_create(tid, &attr, part_thread, pt);
    pthread_attr_destroy(&attr);
    return rc;
}

/* Counts row p (pngio_huff_count, h's counts zeroed first) into the
 * band's counts and the whole sample's. */
static void count_row(pngio_huff_t *h, const uint8_t *p, size_t len, int first, uint32_t *band,
                      uint32_t *total)
{
    memset(h->count, 0, sizeof h->count);
    pngio_huff_count(h, p, len, first);
    for (int s = 0; s < PNGIO_HUFF_COUNTS; s++) {
        band[s] += h->count[s];
        total[s] += h->count[s];
    }
}

/* The estimated bits of coding total[0] (filtered) and total[1]
 * (unfiltered), or UINT64_MAX for a way not tried. The unfiltered way's
 * table sends 26 more distance code lengths (about 104 bits: tiny
 * images stay filtered). */
static void cost_estimates(uint32_t total[2][PNGIO_HUFF_COUNTS], uint64_t xbits,
                           uint64_t xbits_none, int filtered, int none, uint64_t *cost,
                           uint64_t *cost_none)
{
    *cost = filtered ? pngio_huff_cost(total[0], xbits) : UINT64_MAX;
    *cost_none = none ? pngio_huff_cost(total[1], xbits_none) + 104 : UINT64_MAX;
}

/* The sample: every step-th row's symbols, counted per band of rows
 * into bands filtered as mode says (when filtered: runs, no matches)
 * and into bands_none unfiltered (NONE with matches: each sampled row
 * after the row before it, which the match finder's table learns from,
 * uncounted), the whole's estimated bits in *cost and *cost_none
 * (the latter with its larger table's 104; UINT64_MAX: not tried). The
 * rows are taken an eighth at a time, each eighth spread over the image;
 * after the first, the unfiltered way is tried no further when estimated at 1.25 times the filtered one's bits
 * or more, nor the filtered one when the unfiltered is at 0.94 times or
 * less; after the second, at 1.2 and 0.95 times (on the corpus every
 * kind is decided by then, and its estimate stays on its side of 1 to
 * the end). */
static void sample(const pngio_image_t *img, rf_png_filter_t mode, int try_filtered,
                   int try_none, size_t bpp, uint32_t band, uint32_t step, enc_scratch_t *sc,
                   int copy, uint32_t *bands, uint32_t *bands_none, uint64_t *cost,
                   uint64_t *cost_none)
{
    size_t n = (size_t)img->width * bpp, len = n + 1;
    uint32_t nb = (img->height + band - 1) / band;
    uint8_t *prev = sc->rows + 8, *cur = sc->rows + 8 + n + 8, *cand = sc->rows + 2 * (n + 8);
    uint8_t *f = sc->raw + 8, *g = sc->raw + 8 + len + 16;   /* filtered, unfiltered */
    uint32_t total[2][PNGIO_HUFF_COUNTS];
    uint32_t nsamples = (img->height - step / 2 + step - 1) / step;
    pngio_huff_t h, hn;
    memset(bands, 0, (size_t)nb * PNGIO_HUFF_COUNTS * sizeof *bands);
    memset(bands_none, 0, (size_t)nb * PNGIO_HUFF_COUNTS * sizeof *bands_none);
    memset(total, 0, sizeof total);
    pngio_huff_init(&h, NULL, (unsigned)bpp);
    pngio_huff_init(&hn, rows_tab(sc->rows, n), (unsigned)bpp);
    for (uint32_t phase = 0; phase < 8; phase++) {
        for (uint32_t k = phase; k < nsamples; k += 8) {
            uint32_t y = step / 2 + k * step;
            memset(sc->rows, 0, 2 * (n + 8));
            if (y > 0)
                img->row(img->src, y - 1, prev);
            if (try_filtered) {
                filter_one(img, y, n, bpp, mode, f, prev, cur, cand, copy);
                f[-1] = 0;
                count_row(&h, f, len, y == 0, bands + (size_t)(y / band) * PNGIO_HUFF_COUNTS,
                          total[0]);
            } else {
                img->row(img->src, y, cur);
            }
            if (try_none) {
                uint8_t *gy = g;
                g[-1] = 0;
                if (y > 0) {
                    g[0] = 0;
                    memcpy(g + 1, prev, n);
                    uint64_t xbits = hn.xbits;
                    pngio_huff_count(&hn, g, len, 1);
                    hn.xbits = xbits;
                    gy = g + len;
                }
                gy[0] = 0;
                memcpy(gy + 1, cur, n);
                count_row(&hn, gy, len, y == 0,
                          bands_none + (size_t)(y / band) * PNGIO_HUFF_COUNTS, total[1]);
            }
        }
        if (phase <= 1 && try_filtered && try_none) {
            cost_estimates(total, h.xbits, hn.xbits, 1, 1, cost, cost_none);
            /* after an eighth: unfiltered 1.25x or more, or 0.94x or
             * less; after two: 1.2x, 0.95x */
            uint64_t drop_num = phase == 0 ? 5 : 6, drop_den = phase == 0 ? 4 : 5;
            uint64_t keep_num = phase == 0 ? 47 : 19, keep_den = phase == 0 ? 50 : 20;
            if (*cost_none * drop_den >= *cost * drop_num)   /* bits < 2^40: no overflow */
                try_none = 0;
            else if (*cost_none * keep_den <= *cost * keep_num)
                try_filtered = 0;
        }
    }
    cost_estimates(total, h.xbits, hn.xbits, try_filtered, try_none, cost, cost_none);
}

static rf_png_status_t encode_fast(const pngio_image_t *img, rf_png_filter_t mode, int threads,
                                   pngio_emit_fn emit, void *ctx, enc_scratch_t *sc, int copy)
{
    size_t bpp = img->alpha ? 4 : 3;
    size_t n = (size_t)img->width * bpp, len = n + 1;
    if (grow(&sc->rows, &sc->rows_cap, rows_bytes(n), 1) != 0 ||
        grow(&sc->raw, &sc->raw_cap, sample_bytes(len), 1) != 0 ||
        grow(&sc->z, &sc->z_cap, RF_IDAT_MAX + 2 * len + 2048, 0) != 0)
        return RF_PNG_NO_MEMORY;
    uint32_t band = img->height / RF_BANDS_MAX > RF_BAND_ROWS ? img->height / RF_BANDS_MAX : RF_BAND_ROWS;
    uint32_t nb = (img->height + band - 1) / band;
    size_t counts = (size_t)nb * PNGIO_HUFF_COUNTS;
    if (grow(&sc->bands, &sc->bands_cap, 2 * counts * sizeof(uint32_t) + nb, 0) != 0)
        return RF_PNG_NO_MEMORY;
    uint32_t *bands = (uint32_t *)(void *)sc->bands, *bands_none = bands + counts;
    uint8_t *starts = sc->bands + 2 * counts * sizeof(uint32_t);
    uint32_t step = img->height <= 4 * RF_SAMPLE_STEP ? 1 : RF_SAMPLE_STEP;
    uint64_t cost = 0, cost_none = 0;
    int try_none = mode == RF_PNG_FILTER_ALL || mode == RF_PNG_FILTER_NONE;
    sample(img, mode, mode != RF_PNG_FILTER_NONE, try_none, bpp, band, step, sc, copy, bands,
           bands_none, &cost, &cost_none);
    /* NONE with matches when the sample says it is 3% smaller or more
     * (it is the slower way: noise, about equal either way, stays
     * filtered) */
    int matches = try_none && (mode == RF_PNG_FILTER_NONE ||
                               (cost_none != UINT64_MAX && cost_none + cost_none / 32 < cost));
    if (matches) {
        mode = RF_PNG_FILTER_NONE;
        bands = bands_none;
        if (grow(&sc->raw, &sc->raw_cap, window_bytes(len, 1), 1) != 0)
            return RF_PNG_NO_MEMORY;
    }
    int blocks = pngio_huff_plan(bands, nb, step, starts);

    /* the halves: the second from band mid on */
    uint64_t work = 0;
    uint32_t mid = nb >= 2 && len * img->height >= RF_SPLIT_BYTES
                       ? split_band(bands, nb, band, img->height, len, step, &work) : 0;
    if (mid > 0 && !starts[mid]) {
        starts[mid] = 1;
        blocks++;
    }
    enc_part_t part[2];
    int nparts = mid > 0 ? 2 : 1;
    for (int i = 0; i < nparts; i++) {
        part[i] = (enc_part_t){
            .img = img, .mode = mode, .copy = copy, .matches = matches, .n = n, .bpp = bpp,
            .band = band,
            .nb = nb, .bands = bands, .starts = starts, .blocks = blocks,
            .y0 = i == 0 ? 0 : mid * band, .y1 = i + 1 < nparts ? mid * band : img->height,
            .last = i + 1 == nparts, .z = sc->z, .zcap = sc->z_cap, .cut = cut_emit,
            .emit = emit, .ctx = ctx,
        };
    }
    for (uint32_t b = 0; b < mid; b++)
        part[1].begun += starts[b];

    /* the second half on a thread of its own, kept whole in z2; its
     * record in the scratch (the thread may outlive this call) */
    enc_part_t *p1 = &part[1];
    pthread_t tid;
    int threaded = 0;
    if (nparts == 2 && threads >= 2 && work >= RF_THREAD_WORK) {
        /* a chunk's worth to start with (cut_keep grows it): fresh
         * memory costs its page faults, and most halves are smaller */
        size_t nends = 8, zcap = RF_IDAT_MAX + 2 * len + 2048;
        if ((sc->part2 != NULL || (sc->part2 = malloc(sizeof *sc->part2)) != NULL) &&
            grow(&sc->z2, &sc->z2_cap, nends * sizeof(size_t) + zcap, 0) == 0 &&
            grow(&sc->rows2, &sc->rows2_cap, rows_bytes(n), 1) == 0 &&
            grow(&sc->raw2, &sc->raw2_cap, window_bytes(len, matches), 1) == 0 &&
            grow(&sc->stack, &sc->stack_cap, RF_PART_STACK + 64, 0) == 0) {
            uintptr_t st0 = ((uintptr_t)sc->stack + 63) & ~(uintptr_t)63;
            p1 = sc->part2;
            *p1 = part[1];
            atomic_init(&p1->claimed, 0);
            atomic_init(&p1->done, 0);
            p1->rows = sc->rows2;
            p1->raw = sc->raw2;
            p1->ends = (size_t *)(void *)sc->z2;
            p1->ends_cap = nends;
            p1->z = sc->z2 + nends * sizeof(size_t);
            p1->zcap = sc->z2_cap - nends * sizeof(size_t);
            p1->keep = &sc->z2;
            p1->keep_cap = &sc->z2_cap;
            p1->cut = cut_keep;
            threaded = part_spawn(&tid, p1, (uint8_t *)st0, RF_PART_STACK) == 0;
        }
    }

    rf_png_status_t st = emit_head(img, emit, ctx) != 0 ? RF_PNG_IO_ERROR : RF_PNG_SUCCESS;
    if (st == RF_PNG_SUCCESS) {
        code_part(&part[0], sc->rows, sc->raw);
        st = part[0].st;
    }
    /* the second half here, as it goes, unless a thread has taken it */
    int here = nparts == 2 && (!threaded || atomic_exchange(&p1->claimed, 1) == 0);
    if (here && st == RF_PNG_SUCCESS) {
        p1->z = sc->z;
        p1->zcap = sc->z_cap;
        p1->cut = cut_emit;
        p1->has_before = 1;
        p1->adler_before = part[0].adler;
        code_part(p1, sc->rows, sc->raw);
        st = p1->st;
    }
    if (threaded && here) {
        /* its thread has not run yet: not waited for now (a CPU that
         * sleeps can take a millisecond to wake), joined later */
        sc->pending = tid;
        sc->pending_on = 1;
    } else if (threaded) {
        pthread_join(tid, NULL);
        if (st == RF_PNG_SUCCESS)
            st = p1->st;
        if (st == RF_PNG_SUCCESS) {   /* the thread's half, kept whole */
            uint8_t *tail = p1->z + p1->ends[p1->nends - 1] - 4;   /* the Adler-32 */
            put32(tail, adler_combine(part[0].adler, p1->adler, p1->rows_len));
            for (size_t i = 0, from = 0; i < p1->nends && st == RF_PNG_SUCCESS; from = p1->ends[i++])
                if (emit_chunk(emit, ctx, "IDAT", p1->z + from, (uint32_t)(p1->ends[i] - from)) != 0)
                    st = RF_PNG_IO_ERROR;
        }
    }
    if (st == RF_PNG_SUCCESS && emit_chunk(emit, ctx, "IEND", NULL, 0) != 0)
        st = RF_PNG_IO_ERROR;
    return st;
}

rf_png_status_t pngio_encode(const pngio_image_t *img, int level, rf_png_filter_t mode,
                             int threads, pngio_emit_fn emit, void *ctx)
{
    size_t bpp = img->alpha ? 4 : 3;
    size_t n = (size_t)img->width * bpp;            /* bytes per row */
    if (img->height > (SIZE_MAX - 64) / (n + 1) / 2 || level < 0 || level >= RF_ENC_LEVELS)
        return RF_PNG_NO_MEMORY;
    size_t raw_len = (n + 1) * img->height;         /* filtered image */
    int copy = filter_copy();
    int cached;
    enc_scratch_t *sc = scratch_get(&cached);
    if (sc == NULL)
        return RF_PNG_NO_MEMORY;
    scratch_settle(sc);   /* the last call's second thread, if it left one */
    rf_png_status_t st = RF_PNG_SUCCESS;
    if (level == PNGIO_LEVEL_FAST) {
        st = encode_fast(img, mode, threads, emit, ctx, sc, copy);
        goto out;
    }
    if (sc->comp[level] == NULL)
        sc->comp[level] = libdeflate_alloc_compressor(level);
    struct libdeflate_compressor *z = sc->comp[level];
    size_t zcap = z != NULL ? libdeflate_zlib_compress_bound(z, raw_len) : 0;
    if (z == NULL || grow(&sc->rows, &sc->rows_cap, 2 * (n + 8) + 4 * n, 1) != 0 ||
        grow(&sc->raw, &sc->raw_cap, raw_len, 0) != 0 || grow(&sc->z, &sc->z_cap, zcap, 0) != 0) {
        st = RF_PNG_NO_MEMORY;
        goto out;
    }
    uint8_t *rows = sc->rows, *raw = sc->raw, *zbuf = sc->z;
    if (mode == RF_PNG_FILTER_ALL && level > 0 && img->height >= 2 * RF_TRIAL_ROWS)
        mode = trial_choice(img, n, bpp, z, raw, zbuf, zcap, rows, copy);
    memset(rows, 0, 2 * (n + 8));
    filter_rows(img, 0, img->height, n, bpp, mode, raw, rows, copy);
    size_t zlen = libdeflate_zlib_compress(z, raw, raw_len, zbuf, zcap);
    if (zlen == 0) {
        st = RF_PNG_INTERNAL_ERROR;
        goto out;
    }

    if (emit_head(img, emit, ctx) != 0) {
        st = RF_PNG_IO_ERROR;
        goto out;
    }
    for (size_t off = 0; off < zlen; off += RF_IDAT_MAX) {
        size_t len = zlen - off < RF_IDAT_MAX ? zlen - off : RF_IDAT_MAX;
        if (emit_chunk(emit, ctx, "IDAT", zbuf + off, (uint32_t)len) != 0) {
            st = RF_PNG_IO_ERROR;
            goto out;
        }
    }
    if (emit_chunk(emit, ctx, "IEND", NULL, 0) != 0)
        st = RF_PNG_IO_ERROR;
out:
    if (!cached || sc->raw_cap + sc->z_cap + sc->z2_cap > RF_ENC_CACHE_MAX) {
        if (cached) {
            pthread_setspecific(scratch_key, NULL);
        }
        scratch_free(sc);
    }
    return st;
}
