/* pngio-enc.c - the PNG encoder core: rows in, a complete PNG file out
 * (signature, IHDR, IDAT chunks, IEND), filters chosen per row
 * (pngio-filter.h) and the zlib stream made by libdeflate in one call.
 *
 * Output bytes depend only on the pixels, the level and the filter mode
 * (and libdeflate's version): never on the CPU. The filter loops exist
 * twice, auto-vectorized and scalar; RF_PNG_SCALAR=1 in the environment
 * selects the scalar ones (tests hold both to the same bytes). libdeflate
 * dispatches on CPU features only for checksums and its match finder's
 * table setup, which do not change its output.
 */
#include "pngio-int.h"

#include <errno.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- the filters, twice ---- */
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

#define RF_IDAT_MAX (1u << 20)   /* bytes of zlib data per IDAT chunk */
#define RF_TRIAL_ROWS 64         /* rows compressed twice to choose NONE or per row */

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
    return s != NULL && s[0] != '\0' && strcmp(s, "0") != 0;
}

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
    struct libdeflate_compressor *comp[RF_ENC_LEVELS];
} enc_scratch_t;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static int scratch_key_ok;

static void scratch_free(void *p)
{
    enc_scratch_t *s = p;
    if (s == NULL)
        return;
    free(s->raw);
    free(s->z);
    free(s->rows);
    free(s->bands);
    for (int i = 0; i < RF_ENC_LEVELS; i++)
        libdeflate_free_compressor(s->comp[i]);
    free(s);
}

static void scratch_release_at_exit(void)
{
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
                        rf_png_filter_t mode, uint8_t *dst, uint8_t *rows, int scalar)
{
    uint8_t *prev = rows + 8, *cur = rows + 8 + n + 8, *scratch = rows + 2 * (n + 8);
    for (uint32_t y = y0; y < y1; y++, dst += n + 1) {
        img->row(img->src, y, cur);
        if (scalar)
            pf_scalar_filter_row(dst, cur, prev, n, bpp, mode, scratch);
        else
            pf_vec_filter_row(dst, cur, prev, n, bpp, mode, scratch);
        uint8_t *t = prev;
        prev = cur;
        cur = t;
    }
}

/* The per-row filter choice (the sum of absolute filtered bytes) suits
 * smooth content and flat regions, but on antialiased shapes and
 * translucent layers LZ77 often finds longer matches in the unfiltered
 * bytes. The encoder asks the compressor: 4 bands of RF_TRIAL_ROWS / 4
 * rows spread over the image, filtered both ways and compressed at the
 * frame's level; NONE for the whole image when it makes them smaller
 * (about 6% of the image compressed twice more). Deterministic: sizes
 * from the same compressor on the same bytes. work holds 2 *
 * RF_TRIAL_ROWS rows. */
static int trial_prefers_none(const pngio_image_t *img, size_t n, size_t bpp,
                              struct libdeflate_compressor *z, uint8_t *work, uint8_t *zbuf,
                              size_t zcap, uint8_t *rows, int scalar)
{
    size_t size[2];
    const uint32_t band = RF_TRIAL_ROWS / 4;
    for (int m = 0; m < 2; m++) {
        uint8_t *dst = work + (size_t)m * RF_TRIAL_ROWS * (n + 1);
        for (uint32_t b = 0; b < 4; b++) {
            uint32_t y0 = (uint32_t)((uint64_t)img->height * (2 * b + 1) / 8);
            if (y0 + band > img->height)
                y0 = img->height - band;
            memset(rows, 0, 2 * (n + 8));
            if (y0 > 0)
                img->row(img->src, y0 - 1, rows + 8);
            filter_rows(img, y0, y0 + band, n, bpp, m == 0 ? RF_PNG_FILTER_NONE : RF_PNG_FILTER_ALL,
                        dst + (size_t)b * band * (n + 1), rows, scalar);
        }
        size[m] = libdeflate_zlib_compress(z, dst, (size_t)RF_TRIAL_ROWS * (n + 1), zbuf, zcap);
    }
    return size[0] != 0 && size[1] != 0 && size[0] < size[1];
}

/* ---- level 1: the fast coder (pngio-huff.c) ----
 * Rows are filtered one at a time and coded at once: no image-sized
 * buffer, the zlib stream leaves in IDAT chunks of about RF_IDAT_MAX
 * bytes (cut after the row that fills one). The Huffman tables come from
 * a sample: every RF_SAMPLE_STEP-th row (every row of small images),
 * filtered the same way, its symbols counted per band of RF_BAND_ROWS
 * rows; a band starts a new block (tables of its own and the next bands'
 * until the next block) where pngio_huff_plan says so. */
#define RF_SAMPLE_STEP 16
#define RF_BAND_ROWS 64          /* a block may start every band of rows */
#define RF_BANDS_MAX 1024        /* taller images: longer bands */

/* Row y filtered as mode says into f (1 + n bytes). rows as for
 * filter_rows: prev holds row y - 1 (zeros for y = 0); cur is converted
 * here. */
static void filter_one(const pngio_image_t *img, uint32_t y, size_t n, size_t bpp,
                       rf_png_filter_t mode, uint8_t *f, uint8_t *prev, uint8_t *cur,
                       uint8_t *cand, int scalar)
{
    img->row(img->src, y, cur);
    if (mode == RF_PNG_FILTER_ALL)
        mode = scalar ? pf_scalar_quick_choice(cur, prev, n, bpp) : pf_vec_quick_choice(cur, prev, n, bpp);
    if (scalar)
        pf_scalar_filter_row(f, cur, prev, n, bpp, mode, cand);
    else
        pf_vec_filter_row(f, cur, prev, n, bpp, mode, cand);
}

static rf_png_status_t encode_fast(const pngio_image_t *img, rf_png_filter_t mode,
                                   pngio_emit_fn emit, void *ctx, enc_scratch_t *sc, int scalar)
{
    size_t bpp = img->alpha ? 4 : 3;
    size_t n = (size_t)img->width * bpp, len = n + 1;
    if (grow(&sc->rows, &sc->rows_cap, 2 * (n + 8) + 4 * n, 1) != 0 ||
        grow(&sc->raw, &sc->raw_cap, len + 16, 1) != 0 ||
        grow(&sc->z, &sc->z_cap, RF_IDAT_MAX + 2 * len + 2048, 0) != 0)
        return RF_PNG_NO_MEMORY;
    uint8_t *prev = sc->rows + 8, *cur = sc->rows + 8 + n + 8, *cand = sc->rows + 2 * (n + 8);
    uint8_t *f = sc->raw + 8;           /* f[-1]: the stream's previous byte */
    uint32_t band = img->height / RF_BANDS_MAX > RF_BAND_ROWS ? img->height / RF_BANDS_MAX : RF_BAND_ROWS;
    uint32_t nb = (img->height + band - 1) / band;
    size_t counts = (size_t)nb * PNGIO_HUFF_SYMS;
    if (grow(&sc->bands, &sc->bands_cap, counts * sizeof(uint32_t) + nb, 0) != 0)
        return RF_PNG_NO_MEMORY;
    uint32_t *bands = (uint32_t *)(void *)sc->bands;
    uint8_t *starts = sc->bands + counts * sizeof(uint32_t);
    memset(bands, 0, counts * sizeof(uint32_t));
    pngio_huff_t h;

    uint32_t step = img->height <= 4 * RF_SAMPLE_STEP ? 1 : RF_SAMPLE_STEP;
    for (uint32_t y = step / 2; y < img->height; y += step) {
        memset(sc->rows, 0, 2 * (n + 8));
        if (y > 0)
            img->row(img->src, y - 1, prev);
        filter_one(img, y, n, bpp, mode, f, prev, cur, cand, scalar);
        f[-1] = 0;
        pngio_huff_init(&h);
        pngio_huff_count(&h, f, len, y == 0);
        uint32_t *c = bands + (size_t)(y / band) * PNGIO_HUFF_SYMS;
        for (int s = 0; s < PNGIO_HUFF_SYMS; s++)
            c[s] += h.count[s];
    }
    int blocks = pngio_huff_plan(bands, nb, step, starts), begun = 0;

    if (emit_head(img, emit, ctx) != 0)
        return RF_PNG_IO_ERROR;
    uint8_t *z0 = sc->z, *out = z0;
    uint32_t adler = 1;
    pngio_huff_init(&h);
    memset(sc->rows, 0, 2 * (n + 8));
    for (uint32_t y = 0; y < img->height; y++) {
        if (y % band == 0 && starts[y / band]) {   /* a block: its bands' counts */
            if (y > 0)
                out = pngio_huff_block_end(&h, out);
            memset(h.count, 0, sizeof h.count);
            for (uint32_t b = y / band; b < nb && (b == y / band || !starts[b]); b++)
                for (int s = 0; s < PNGIO_HUFF_SYMS; s++)
                    h.count[s] += bands[(size_t)b * PNGIO_HUFF_SYMS + s];
            begun++;
            out = pngio_huff_begin(&h, out, y == 0, begun == blocks);
        }
        filter_one(img, y, n, bpp, mode, f, prev, cur, cand, scalar);
        adler = libdeflate_adler32(adler, f, len);
        out = pngio_huff_row(&h, f, len, y == 0, out);
        f[-1] = f[n];
        uint8_t *t = prev;
        prev = cur;
        cur = t;
        if ((size_t)(out - z0) >= RF_IDAT_MAX) {
            if (emit_chunk(emit, ctx, "IDAT", z0, (uint32_t)(out - z0)) != 0)
                return RF_PNG_IO_ERROR;
            out = z0;
        }
    }
    out = pngio_huff_end(&h, out, adler);
    if (emit_chunk(emit, ctx, "IDAT", z0, (uint32_t)(out - z0)) != 0 ||
        emit_chunk(emit, ctx, "IEND", NULL, 0) != 0)
        return RF_PNG_IO_ERROR;
    return RF_PNG_SUCCESS;
}

rf_png_status_t pngio_encode(const pngio_image_t *img, int level, rf_png_filter_t mode,
                             pngio_emit_fn emit, void *ctx)
{
    size_t bpp = img->alpha ? 4 : 3;
    size_t n = (size_t)img->width * bpp;            /* bytes per row */
    if (img->height > (SIZE_MAX - 64) / (n + 1) / 2 || level < 0 || level >= RF_ENC_LEVELS)
        return RF_PNG_NO_MEMORY;
    size_t raw_len = (n + 1) * img->height;         /* filtered image */
    int scalar = pngio_scalar_forced();
    int cached;
    enc_scratch_t *sc = scratch_get(&cached);
    if (sc == NULL)
        return RF_PNG_NO_MEMORY;
    rf_png_status_t st = RF_PNG_SUCCESS;
    if (level == PNGIO_LEVEL_FAST) {
        st = encode_fast(img, mode, emit, ctx, sc, scalar);
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
    if (mode == RF_PNG_FILTER_ALL && img->height >= 2 * RF_TRIAL_ROWS &&
        trial_prefers_none(img, n, bpp, z, raw, zbuf, zcap, rows, scalar))
        mode = RF_PNG_FILTER_NONE;
    memset(rows, 0, 2 * (n + 8));
    filter_rows(img, 0, img->height, n, bpp, mode, raw, rows, scalar);
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
    if (!cached || sc->raw_cap + sc->z_cap > RF_ENC_CACHE_MAX) {
        if (cached) {
            pthread_setspecific(scratch_key, NULL);
        }
        scratch_free(sc);
    }
    return st;
}
