/* pngio-write.c - the PNG writer: cairo's premultiplied pixels to RGBA or
 * RGB rows, validation, and the sinks (a stream, memory, or a file written
 * atomically) of the encoder core in pngio-enc.c.
 */
#include "pngio-int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"

/* Hot loops run in blocks of RF_BLOCK pixels: gcc -O2 (the very-cheap
 * vectorizer cost model) vectorizes only loops with no scalar epilogue,
 * i.e. a constant trip count; the tail runs scalar. */
#define RF_BLOCK 16

static inline uint32_t px_alpha(uint32_t p) { return p >> 24; }

/* M(a) = ceil(2^24 / a), the per-alpha reciprocal of unpremul() below, as
 * a constant table (no initialization, nothing to race on). M(0) = 0 makes
 * alpha 0 give 0, 0, 0, 0 like cairo. */
#define RECIP(a) ((a) == 0 ? 0u : (uint32_t)(((1u << 24) + (a) - 1u) / ((a) + ((a) == 0))))
#define RECIP4(a) RECIP(a), RECIP((a) + 1u), RECIP((a) + 2u), RECIP((a) + 3u)
#define RECIP16(a) RECIP4(a), RECIP4((a) + 4u), RECIP4((a) + 8u), RECIP4((a) + 12u)
#define RECIP64(a) RECIP16(a), RECIP16((a) + 16u), RECIP16((a) + 32u), RECIP16((a) + 48u)
static const uint32_t unpremul_recip[256] = {
    RECIP64(0u), RECIP64(64u), RECIP64(128u), RECIP64(192u)
};

/* cairo's unpremultiply of one channel: (c * 255 + a / 2) / a, kept to 8
 * bits as cairo's uint8_t store does (only matters when c > a, which cairo
 * never produces). Exact: with M = ceil(2^24 / a) = (2^24 + e) / a, e < a,
 * n * M / 2^24 = n / a + n * e / (a 2^24), and n * e < 65152 * 254 < 2^24,
 * so the error stays below 1/a and cannot reach the next integer. */
static inline uint32_t unpremul(uint32_t c, uint32_t a, uint64_t m)
{
    return (uint32_t)(((uint64_t)(c * 255u + a / 2u) * m) >> 24) & 0xffu;
}

/* unpremul() of every (alpha, channel), alpha 1..254, built once: three
 * table loads per translucent pixel instead of three 64-bit multiplies
 * (about twice as fast on translucent frames). */
static uint8_t unpremul_table[256][256];
static pthread_once_t unpremul_once = PTHREAD_ONCE_INIT;

static void unpremul_table_make(void)
{
    for (uint32_t a = 1; a < 255; a++)
        for (uint32_t c = 0; c < 256; c++)
            unpremul_table[a][c] = (uint8_t)unpremul(c, a, unpremul_recip[a]);
}

/* A pixel as if opaque: A R G B (a uint32) -> bytes R G B A, i.e. on a
 * little-endian machine one 32-bit word with R and B swapped. */
static inline uint32_t px_swap_rb(uint32_t p)
{
    return (p & 0xff00ff00u) | ((p >> 16) & 0xffu) | ((p & 0xffu) << 16);
}

/* One translucent (or any) pixel to R G B A bytes: unpremul_table's row a
 * (row 0: all zeros, so alpha 0 gives 0, 0, 0, 0 like cairo; row 255 is
 * never read). */
static inline void px_to_rgba(uint8_t *o, uint32_t p)
{
    uint32_t a = px_alpha(p);
    if (a == 0xffu) {
        o[0] = (uint8_t)(p >> 16);
        o[1] = (uint8_t)(p >> 8);
        o[2] = (uint8_t)p;
        o[3] = 0xff;
        return;
    }
    const uint8_t *t = unpremul_table[a];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v = (uint32_t)t[(p >> 16) & 0xffu] | (uint32_t)t[(p >> 8) & 0xffu] << 8 |
                 (uint32_t)t[p & 0xffu] << 16 | a << 24;
    memcpy(o, &v, 4);   /* one store */
#else
    o[0] = t[(p >> 16) & 0xffu];
    o[1] = t[(p >> 8) & 0xffu];
    o[2] = t[p & 0xffu];
    o[3] = (uint8_t)a;
#endif
}

/* unpremul() of one channel in single precision, for the vectorizer:
 * floor((n + 1/2) / a) with n = c * 255 + a / 2 <= 65152 is floor(n / a)
 * (the exact quotient lies at least 1/(2a) from an integer, a relative
 * margin above 7e-6), and (n + 1/2) * fl(1/a), two roundings, is off by
 * less than 1.2e-7 relative, so it gives the table's byte exactly
 * (tests/check_png checks every alpha and channel). rcp is fl(1/a); a = 0
 * takes 1/1 and is masked to 0. */
static inline uint32_t unpremul_f(uint32_t c, uint32_t a, float rcp, uint32_t keep)
{
    int32_t n = (int32_t)(c * 255u + a / 2u);   /* signed: SSE2 converts those */
    return ((uint32_t)(int32_t)(((float)n + 0.5f) * rcp) & 0xffu) & keep;
}

/* RF_BLOCK pixels of any alphas, straight: vectorized (no table loads).
 * Built twice on x86-64, for AVX2 and the baseline, and chosen at run time
 * by __builtin_cpu_supports (not target_clones: its ifunc resolver runs
 * before ThreadSanitizer's runtime is up, and the TSan build crashed at
 * start). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void block_to_rgba_body(uint8_t *restrict dst, const uint32_t *restrict src)
{
    uint32_t v[RF_BLOCK];
    for (int k = 0; k < RF_BLOCK; k++) {
        uint32_t p = src[k], a = px_alpha(p);
        float rcp = 1.0f / (float)(int32_t)(a + (a == 0));
        uint32_t keep = a == 0 ? 0u : 0xffffffffu;
        v[k] = unpremul_f(p >> 16 & 0xffu, a, rcp, keep) |
               unpremul_f(p >> 8 & 0xffu, a, rcp, keep) << 8 |
               unpremul_f(p & 0xffu, a, rcp, keep) << 16 | a << 24;
    }
    memcpy(dst, v, sizeof v);
}

static void block_to_rgba(uint8_t *restrict dst, const uint32_t *restrict src)
{
    block_to_rgba_body(dst, src);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RF_HAVE_AVX2_RGBA 1
__attribute__((target("avx2")))
static void block_to_rgba_avx2(uint8_t *restrict dst, const uint32_t *restrict src)
{
    block_to_rgba_body(dst, src);
}
#else
#define RF_HAVE_AVX2_RGBA 0
#endif

/* Blocks of RF_BLOCK pixels from src to dst, n / RF_BLOCK of them; src
 * and dst are the same words (in place) or do not overlap: each block is
 * read whole before any of it is written. A block of opaque pixels is a
 * swap of R and B, a block of transparent ones zeros (both common: a
 * backdrop, the empty rest of a transparent canvas), any other goes
 * through block_to_rgba from a copy. Returns the pixels done. */
static size_t rgba_blocks(uint8_t *dst, const uint32_t *src, size_t n)
{
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; i + RF_BLOCK <= n; i += RF_BLOCK) {
        uint32_t in[RF_BLOCK], all = 0xffffffffu, any = 0, v[RF_BLOCK];
        memcpy(in, src + i, sizeof in);
        for (int k = 0; k < RF_BLOCK; k++) {
            v[k] = px_swap_rb(in[k]);
            all &= in[k];
            any |= in[k];
        }
        if (px_alpha(all) == 0xffu)
            memcpy(dst + 4 * i, v, sizeof v);
        else if (px_alpha(any) == 0)
            memset(dst + 4 * i, 0, sizeof v);
        else
            block_to_rgba(dst + 4 * i, in);
    }
#else
    (void)dst;
    (void)src;
    (void)n;
#endif
    return i;
}

#if RF_HAVE_AVX2_RGBA
#include <immintrin.h>
/* Eight pixels of any alphas, straight, with AVX2 and FMA: unpremul() as
 * trunc(c * k + d) in one fused multiply-add, k = fl(255 fl(1/a)) and
 * d = fl((a / 2 + 1/2) fl(1/a)), a = 0 taking 1/1 and masked to 0. The
 * error of k, d and the one rounding of the FMA stays below 3e-7
 * relative, under the 7.6e-6 margin unpremul_f's comment derives, so the
 * byte is the table's (checked for every alpha and channel by
 * tests/check_png, and by hand over all 65,536 pairs). IEEE arithmetic:
 * the same bytes on every machine that takes this path. */
__attribute__((target("avx2,fma")))
static inline __m256i unpremul8_fma(__m256i p)
{
    const __m256i ff = _mm256_set1_epi32(0xff);
    __m256i a = _mm256_srli_epi32(p, 24);
    __m256 rcp = _mm256_div_ps(_mm256_set1_ps(1.0f),
                               _mm256_cvtepi32_ps(_mm256_max_epi32(a, _mm256_set1_epi32(1))));
    __m256 k = _mm256_mul_ps(_mm256_set1_ps(255.0f), rcp);
    __m256 d = _mm256_mul_ps(
        _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(a, 1)), _mm256_set1_ps(0.5f)), rcp);
    __m256i r = _mm256_and_si256(_mm256_srli_epi32(p, 16), ff);
    __m256i g = _mm256_and_si256(_mm256_srli_epi32(p, 8), ff);
    __m256i b = _mm256_and_si256(p, ff);
    r = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_fmadd_ps(_mm256_cvtepi32_ps(r), k, d)), ff);
    g = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_fmadd_ps(_mm256_cvtepi32_ps(g), k, d)), ff);
    b = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_fmadd_ps(_mm256_cvtepi32_ps(b), k, d)), ff);
    __m256i v = _mm256_or_si256(_mm256_or_si256(r, _mm256_slli_epi32(g, 8)),
                                _mm256_or_si256(_mm256_slli_epi32(b, 16), _mm256_slli_epi32(a, 24)));
    return _mm256_andnot_si256(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()), v);
}

/* rgba_blocks with AVX2: two 256-bit loads a block, the alpha test and the
 * swap in registers (gcc had kept the block on the stack: about 0.6 ms a
 * 1080p frame, against 0.3 for the pass itself). */
__attribute__((target("avx2,fma")))
static size_t rgba_blocks_avx2(uint8_t *dst, const uint32_t *src, size_t n, int fma)
{
    const __m256i swap = _mm256_setr_epi8(2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15,
                                          2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15);
    const __m256i alpha = _mm256_set1_epi32((int)0xff000000u);
    size_t i = 0;
    for (; i + RF_BLOCK <= n; i += RF_BLOCK) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 8));
        __m256i *o = (__m256i *)(void *)(dst + 4 * i);
        __m256i all = _mm256_and_si256(_mm256_and_si256(a, b), alpha);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(all, alpha)) == -1) {
            _mm256_storeu_si256(o, _mm256_shuffle_epi8(a, swap));
            _mm256_storeu_si256(o + 1, _mm256_shuffle_epi8(b, swap));
        } else if (_mm256_testz_si256(_mm256_or_si256(a, b), alpha)) {
            _mm256_storeu_si256(o, _mm256_setzero_si256());
            _mm256_storeu_si256(o + 1, _mm256_setzero_si256());
        } else if (_mm256_movemask_epi8(_mm256_and_si256(
                       _mm256_cmpeq_epi32(a, _mm256_permutevar8x32_epi32(a, _mm256_setzero_si256())),
                       _mm256_cmpeq_epi32(a, b))) == -1) {
            uint32_t v;   /* one color (a translucent fill): once */
            px_to_rgba((uint8_t *)&v, (uint32_t)_mm256_cvtsi256_si32(a));
            _mm256_storeu_si256(o, _mm256_set1_epi32((int)v));
            _mm256_storeu_si256(o + 1, _mm256_set1_epi32((int)v));
        } else if (fma) {
            __m256i ca = unpremul8_fma(a), cb = unpremul8_fma(b);
            _mm256_storeu_si256(o, ca);
            _mm256_storeu_si256(o + 1, cb);
        } else {
            /* a copy stored as it is loaded back (256-bit: store
             * forwarding works) */
            uint32_t in[RF_BLOCK] __attribute__((aligned(32)));
            _mm256_store_si256((__m256i *)(void *)in, a);
            _mm256_store_si256((__m256i *)(void *)(in + 8), b);
            block_to_rgba_avx2((uint8_t *)o, in);
        }
    }
    return i;
}
#endif

void pngio_rows_to_rgba(uint8_t *dst, const uint32_t *src, size_t n, int simd)
{
    size_t i;
    pthread_once(&unpremul_once, unpremul_table_make);
#if RF_HAVE_AVX2_RGBA
    if (simd && __builtin_cpu_supports("avx2"))
        i = rgba_blocks_avx2(dst, src, n, __builtin_cpu_supports("fma"));
    else
#endif
        i = rgba_blocks(dst, src, n);
    (void)simd;
    for (; i < n; i++)
        px_to_rgba(dst + 4 * i, src[i]);   /* the pixel is read first */
}

void rf_png_row_to_rgba(uint8_t *restrict dst, const uint32_t *restrict src, size_t n)
{
    pngio_rows_to_rgba(dst, src, n, 1);
}

void rf_png_rows_to_rgba_inplace(uint32_t *px, size_t n)
{
    pngio_rows_to_rgba((uint8_t *)(void *)px, px, n, !pngio_scalar_forced());
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RF_HAVE_SSSE3_RGB 1
#include <tmmintrin.h>
/* ARGB32 to R G B, four pixels (16 bytes in, 12 out) per shuffle: the
 * scalar loop was 8% of a cold 1080p seek. Compiled for SSSE3 alone and
 * chosen at run time (x86-64's baseline is SSE2). Each 16-byte store
 * writes 4 bytes past its 12, which the next store overwrites; the loop
 * stops while that is still inside the row (the caller finishes it).
 * Returns the pixels done. */
__attribute__((target("ssse3")))
static size_t argb_to_rgb_ssse3(uint8_t *restrict dst, const uint32_t *restrict src, size_t n)
{
    const __m128i shuf = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    size_t i = 0;
    for (; i + 6 <= n; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        _mm_storeu_si128((__m128i *)(void *)(dst + 3 * i), _mm_shuffle_epi8(v, shuf));
    }
    return i;
}
#else
#define RF_HAVE_SSSE3_RGB 0
#endif

void rf_png_row_to_rgb(uint8_t *restrict dst, const uint32_t *restrict src, size_t n)
{
    size_t i = 0;
#if RF_HAVE_SSSE3_RGB
    if (__builtin_cpu_supports("ssse3"))
        i = argb_to_rgb_ssse3(dst, src, n);
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* One 4-byte store per pixel, R G B and a byte the next pixel
     * overwrites: fewer operations than packing (the last pixel is exact). */
    for (; i + 1 < n; i++) {
        uint32_t v = px_swap_rb(src[i]);
        memcpy(dst + 3 * i, &v, 4);
    }
#endif
    for (; i < n; i++) {
        uint32_t p = src[i];
        dst[3 * i] = (uint8_t)(p >> 16);
        dst[3 * i + 1] = (uint8_t)(p >> 8);
        dst[3 * i + 2] = (uint8_t)p;
    }
}

#if defined(__GNUC__)
/* GCC/clang generic vectors: SIMD at -O2 on any target (SSE2, NEON), no
 * intrinsics. */
typedef uint32_t rf_v4u __attribute__((vector_size(16)));
#endif

int rf_png_frame_is_opaque(const rf_png_frame_t *frame)
{
    const unsigned char *row = (const unsigned char *)frame->pixels;
    for (uint32_t y = 0; y < frame->height; y++, row += frame->stride) {
        const uint32_t *px = (const uint32_t *)(const void *)row;
        uint32_t all = 0xffffffffu, x = 0;
#if defined(__GNUC__)
        /* an AND reduction, four 16-byte accumulators */
        rf_v4u a0 = { all, all, all, all }, a1 = a0, a2 = a0, a3 = a0;
        for (; x + 16 <= frame->width; x += 16) {
            rf_v4u v0, v1, v2, v3;
            memcpy(&v0, px + x, 16);
            memcpy(&v1, px + x + 4, 16);
            memcpy(&v2, px + x + 8, 16);
            memcpy(&v3, px + x + 12, 16);
            a0 &= v0;
            a1 &= v1;
            a2 &= v2;
            a3 &= v3;
        }
        a0 &= a1 & a2 & a3;
        all = a0[0] & a0[1] & a0[2] & a0[3];
#endif
        for (; x < frame->width; x++)
            all &= px[x];
        if (px_alpha(all) != 0xffu)
            return 0;
    }
    return 1;
}

int rf_png_filter_parse(const char *name, rf_png_filter_t *filter)
{
    static const char *const names[] = { "none", "sub", "up", "avg", "paeth", "all" };
    for (int i = 0; i < 6; i++) {
        if (name != NULL && strcmp(name, names[i]) == 0) {
            *filter = (rf_png_filter_t)i;
            return 0;
        }
    }
    return -1;
}

void rf_png_buffer_destroy(rf_png_buffer_t *b)
{
    if (b == NULL)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* The sinks of pngio_encode: a stream, or memory. */
typedef struct enc_sink {
    FILE *fp;
    rf_png_buffer_t *buf;
} enc_sink_t;

static int enc_emit(void *ctx, const uint8_t *data, size_t len)
{
    enc_sink_t *k = ctx;
    if (k->fp != NULL) {
        errno = 0;
        if (fwrite(data, 1, len, k->fp) != len) {
            if (errno == 0)
                errno = EIO;
            return -1;
        }
        return 0;
    }
    rf_png_buffer_t *b = k->buf;
    if (len > b->cap - b->len) {
        size_t cap = b->cap > 0 ? b->cap : 64 * 1024;
        while (cap - b->len < len) {
            if (cap > SIZE_MAX / 2) {
                errno = ENOMEM;
                return -1;
            }
            cap *= 2;
        }
        uint8_t *p = realloc(b->data, cap);
        if (p == NULL) {
            errno = ENOMEM;
            return -1;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

static int rgba_is_opaque(const rf_png_rgba_t *img)
{
    size_t n = (size_t)img->width * img->height;
    uint8_t all = 0xff;
    for (size_t i = 0; i < n; i++)
        all &= img->pixels[4 * i + 3];
    return all == 0xff;
}

/* The row sources of pngio_encode. */
static void row_frame_rgb(const void *src, uint32_t y, uint8_t *dst)
{
    const rf_png_frame_t *f = src;
    const unsigned char *p = (const unsigned char *)f->pixels + (size_t)y * f->stride;
    rf_png_row_to_rgb(dst, (const uint32_t *)(const void *)p, f->width);
}

static void row_frame_rgba(const void *src, uint32_t y, uint8_t *dst)
{
    const rf_png_frame_t *f = src;
    const unsigned char *p = (const unsigned char *)f->pixels + (size_t)y * f->stride;
    rf_png_row_to_rgba(dst, (const uint32_t *)(const void *)p, f->width);
}

static void row_rgba_rgb(const void *src, uint32_t y, uint8_t *dst)
{
    const rf_png_rgba_t *img = src;
    const uint8_t *p = img->pixels + (size_t)y * img->width * 4;
    for (uint32_t x = 0; x < img->width; x++)
        memcpy(dst + 3 * (size_t)x, p + 4 * (size_t)x, 3);
}

static void row_rgba_rgba(const void *src, uint32_t y, uint8_t *dst)
{
    const rf_png_rgba_t *img = src;
    memcpy(dst, img->pixels + (size_t)y * img->width * 4, (size_t)img->width * 4);
}

/* The common body of the writers: validates, encodes into fp or buf. */
static rf_png_status_t png_encode(const rf_png_frame_t *frame, const rf_png_rgba_t *rgba,
                                  const rf_png_options_t *options, FILE *fp,
                                  rf_png_buffer_t *buf, const char *name,
                                  rf_png_error_t *err)
{
    static const rf_png_options_t render = RF_PNG_OPTIONS_RENDER;
    if (options == NULL)
        options = &render;
    uint32_t width = frame != NULL ? frame->width : rgba != NULL ? rgba->width : 0;
    uint32_t height = frame != NULL ? frame->height : rgba != NULL ? rgba->height : 0;
    if ((frame == NULL || frame->pixels == NULL) && (rgba == NULL || rgba->pixels == NULL))
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "no frame", 0);
    if (width == 0 || height == 0 || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "frame width and height must be 1 .. 2^31-1", 0);
    if ((uint64_t)width * 4 > SIZE_MAX / 2 ||
        (frame != NULL && (frame->stride < (size_t)width * 4 || frame->stride % 4 != 0)))
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "frame stride must be >= width * 4 and a multiple of 4", 0);
    if (options->level < 0 || options->level > 9)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "zlib level must be 0 .. 9", 0);
    if ((unsigned)options->filter > RF_PNG_FILTER_ALL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "unknown PNG filter", 0);

    pngio_image_t img = { .width = width, .height = height };
    if (frame != NULL) {
        img.alpha = !(frame->opaque || rf_png_frame_is_opaque(frame));
        img.row = img.alpha ? row_frame_rgba : row_frame_rgb;
        img.src = frame;
    } else {
        img.alpha = !rgba_is_opaque(rgba);
        img.row = img.alpha ? row_rgba_rgba : row_rgba_rgb;
        img.src = rgba;
    }
    enc_sink_t sink = { fp, buf };
    errno = 0;
    rf_png_status_t st = pngio_encode(&img, options->level, options->filter, options->threads, enc_emit,
                                      &sink);
    int sys_errno = errno != 0 ? errno : EIO;
    if (st == RF_PNG_SUCCESS && fp != NULL) {
        errno = 0;
        if (fflush(fp) != 0 || ferror(fp)) {
            st = RF_PNG_IO_ERROR;
            sys_errno = errno != 0 ? errno : EIO;
        }
    }
    if (st == RF_PNG_IO_ERROR && sys_errno == ENOMEM && fp == NULL)
        st = RF_PNG_NO_MEMORY;
    if (st != RF_PNG_SUCCESS) {
        if (buf != NULL)
            buf->len = 0;
        return pngio_fail(err, st, name,
                          st == RF_PNG_IO_ERROR ? "write failed"
                          : st == RF_PNG_INTERNAL_ERROR ? "libdeflate failed" : NULL,
                          st == RF_PNG_IO_ERROR ? sys_errno : 0);
    }
    pngio_ok(err);
    return RF_PNG_SUCCESS;
}

rf_png_status_t rf_png_write_stream(const rf_png_frame_t *frame,
                                    const rf_png_options_t *options, FILE *fp,
                                    rf_png_error_t *err)
{
    if (fp == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(stream)", "no stream", 0);
    return png_encode(frame, NULL, options, fp, NULL, "(stream)", err);
}

rf_png_status_t rf_png_write_mem(const rf_png_frame_t *frame,
                                 const rf_png_options_t *options,
                                 rf_png_buffer_t *out, rf_png_error_t *err)
{
    if (out == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no buffer", 0);
    out->len = 0;
    return png_encode(frame, NULL, options, NULL, out, "(memory)", err);
}

static rf_png_status_t png_write_path(const rf_png_frame_t *frame, const rf_png_rgba_t *rgba,
                                      const rf_png_options_t *options,
                                      const char *path, int atomic_flags,
                                      rf_png_error_t *err)
{
    if (path == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(null path)", "no path", 0);
    rf_atomic_file_t af;
    char msg[sizeof err->message];
    if (rf_atomic_file_open(&af, path, atomic_flags, msg, sizeof msg) != 0) {
        int e = errno;
        pngio_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
        if (err != NULL)
            snprintf(err->message, sizeof err->message, "%s", msg);
        return RF_PNG_IO_ERROR;
    }
    rf_png_status_t st = png_encode(frame, rgba, options, af.fp, NULL, path, err);
    if (st != RF_PNG_SUCCESS) {
        rf_atomic_file_abort(&af);
        return st;
    }
    if (rf_atomic_file_commit(&af, msg, sizeof msg) != 0) {
        int e = errno;
        pngio_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
        if (err != NULL)
            snprintf(err->message, sizeof err->message, "%s", msg);
        return RF_PNG_IO_ERROR;
    }
    return RF_PNG_SUCCESS;
}

rf_png_status_t rf_png_write_path(const rf_png_frame_t *frame,
                                  const rf_png_options_t *options,
                                  const char *path, int atomic_flags,
                                  rf_png_error_t *err)
{
    if (frame == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, path != NULL ? path : "(null path)", "no frame", 0);
    return png_write_path(frame, NULL, options, path, atomic_flags, err);
}

rf_png_status_t rf_png_write_rgba_path(const rf_png_rgba_t *img,
                                       const rf_png_options_t *options,
                                       const char *path, int atomic_flags,
                                       rf_png_error_t *err)
{
    if (img == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, path != NULL ? path : "(null path)", "no image", 0);
    return png_write_path(NULL, img, options, path, atomic_flags, err);
}

rf_png_status_t rf_png_write_rgba_mem(const rf_png_rgba_t *img,
                                      const rf_png_options_t *options,
                                      rf_png_buffer_t *out, rf_png_error_t *err)
{
    if (out == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no buffer", 0);
    out->len = 0;
    if (img == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no image", 0);
    return png_encode(NULL, img, options, NULL, out, "(memory)", err);
}
