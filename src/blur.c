/* blur.c - feGaussianBlur on premultiplied ARGB32 pixels: running-sum box
 * passes, or a true Gaussian kernel below s = 2 (blur.h says which and
 * how rounded). */
#include "blur.h"

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define GAUSS_MAX_R 6 /* ceil(3 s) for s < 2 */
#define RECIP16_KMAX 8 /* vbox16's shifts: copies for k = 0 .. 8 */

/* GCC on x86-64 builds the box passes three times: for AVX-512 (512-bit
 * vectors: the baseline of x86-64-v4 with the vector width GCC otherwise
 * caps at 256), for AVX2 and for the baseline, and calls the one the CPU
 * runs (__builtin_cpu_supports: no ifunc, so also under ThreadSanitizer,
 * whose runtime is not up when an ifunc resolver runs). Integer
 * arithmetic: the same bytes whichever runs (tests/check_blur.c; the
 * AVX-512 copy measured 1.35x the AVX2 one and 1.9x the baseline on a
 * 400 x 300 region, s = 12). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define RF_BLUR_MULTI 1
#define RF_BLUR_V4 __attribute__((target("arch=x86-64-v4,prefer-vector-width=512")))
#define RF_BLUR_V3 __attribute__((target("avx2")))
#endif

#if defined(__GNUC__)
#define RF_INLINE inline __attribute__((always_inline))
#else
#define RF_INLINE inline
#endif

int rf_blur_box_size(double s)
{
    double d = floor(s * 3.0 * sqrt(2.0 * 3.14159265358979323846) / 4.0 + 0.5);
    return d < 1 ? 1 : d > 1e9 ? 1000000000 : (int)d;
}

int rf_blur_reach(double s)
{
    if (!(s > 0))
        return 0;
    double r = ceil(3.0 * s);
    return r > 1e9 ? 1000000000 : (int)r;
}

/* The Gaussian kernel of s < 2 as 16.16 weights summing to 65536; its
 * radius. */
static int gauss_kernel(double s, uint32_t *wt)
{
    int r = (int)ceil(3.0 * s);
    if (r > GAUSS_MAX_R)
        r = GAUSS_MAX_R;
    double w[GAUSS_MAX_R + 1], sum = 0;
    for (int k = 0; k <= r; k++) {
        w[k] = exp(-(double)(k * k) / (2.0 * s * s));
        sum += k == 0 ? w[k] : 2 * w[k];
    }
    uint32_t tot = 0;
    for (int k = 1; k <= r; k++) {
        wt[k] = (uint32_t)floor(65536.0 * w[k] / sum + 0.5);
        tot += 2 * wt[k];
    }
    wt[0] = 65536u - tot;
    return r;
}

/* A box pass down the columns of w4 channels and h rows from a to b (row
 * strides as, bs): one loop per row adds the row entering the window,
 * writes the mean and takes out the row leaving it (zero, w4 zero bytes,
 * stands for the rows past the ends); acc holds w4 sums. */
static RF_INLINE void vbox_body(const uint8_t *restrict a, size_t as, uint8_t *restrict b, size_t bs, int w4,
                 int h, int lo, int hi, uint32_t *restrict acc, const uint8_t *restrict zero)
{
    uint32_t d = (uint32_t)(lo + hi + 1), half = d / 2;
    uint64_t m = (UINT64_C(1) << 40) / d + 1;
    uint32_t m32 = (uint32_t)((UINT32_C(1) << 24) / d + 1);
    int wb = w4 & ~15; /* blocks of 16 channels: loops of a known count vectorize at -O2 */
    memset(acc, 0, (size_t)w4 * sizeof *acc);
    for (int j = 0; j < hi && j < h; j++)
        for (int c = 0; c < w4; c++)
            acc[c] += a[(size_t)j * as + (size_t)c];
    for (int y = 0; y < h; y++) {
        const uint8_t *in = y + hi < h ? a + (size_t)(y + hi) * as : zero;
        const uint8_t *out = y - lo >= 0 ? a + (size_t)(y - lo) * as : zero;
        uint8_t *o = b + (size_t)y * bs;
        if (d < 256) {
            for (int c0 = 0; c0 < wb; c0 += 16)
                for (int k = 0; k < 16; k++) {
                    uint32_t v = acc[c0 + k] + in[c0 + k];
                    o[c0 + k] = (uint8_t)((v + half) * m32 >> 24);
                    acc[c0 + k] = v - out[c0 + k];
                }
            for (int c = wb; c < w4; c++) {
                uint32_t v = acc[c] + in[c];
                o[c] = (uint8_t)((v + half) * m32 >> 24);
                acc[c] = v - out[c];
            }
        } else {
            for (int c = 0; c < w4; c++) {
                uint32_t v = acc[c] + in[c];
                o[c] = (uint8_t)(((uint64_t)v + half) * m >> 40);
                acc[c] = v - out[c];
            }
        }
    }
}

/* The box mean of 16-bit sums: for d <= 256 a window's sum plus d / 2
 * fits 16 bits, and (v * m) >> (16 + k) with m = ceil(2^(16+k) / d) < 2^16
 * is v / d exactly when nmax * (m d - 2^(16+k)) < 2^(16+k) (write v = q d
 * + r, r <= d - 1: v m / 2^(16+k) = q + r / d + v e / (d 2^(16+k)), below
 * q + 1). Finds such m and k; 0 when there are none (then vbox's 32-bit
 * sums). */
static int recip16(uint32_t d, uint16_t *m, int *k)
{
    uint64_t nmax = 255u * (uint64_t)d + d / 2;
    if (nmax > 65535)
        return 0;
    for (int kk = RECIP16_KMAX; kk >= 0; kk--) {
        uint64_t p = UINT64_C(1) << (16 + kk), mm = (p + d - 1) / d;
        if (mm <= 65535 && nmax * (mm * d - p) < p) {
            *m = (uint16_t)mm;
            *k = kk;
            return 1;
        }
    }
    return 0;
}

unsigned rf_blur_box_mean(unsigned d, unsigned v)
{
    uint16_t m;
    int k;
    if (d >= 1 && d < 65536 && recip16(d, &m, &k)) /* vbox16's arithmetic */
        return (uint16_t)(((uint32_t)(uint16_t)(v + d / 2) * m) >> 16) >> k;
    return d >= 1 ? (v + d / 2) / d : 0; /* vbox's: an exact division */
}

/* vbox with 16-bit sums (twice the channels per vector, and the mean by a
 * high-half multiply, then a shift by the constant k: GCC vectorizes the
 * pair only when k is a constant, hence one copy per k). The sums start
 * at d / 2, the rounding. R rows at a time over the channels [c0, c0 +
 * n), so a sum is loaded and stored once per R rows (n a constant where
 * the loop should vectorize): row r adds in[r], writes its mean to o[r]
 * and takes out[r] away. */
#define ROWS 4
static RF_INLINE void rows16(const int R, const int n, int c0, const uint8_t *restrict i0,
                             const uint8_t *restrict i1, const uint8_t *restrict i2,
                             const uint8_t *restrict i3, const uint8_t *restrict u0,
                             const uint8_t *restrict u1, const uint8_t *restrict u2,
                             const uint8_t *restrict u3, uint8_t *restrict o0,
                             uint8_t *restrict o1, uint8_t *restrict o2, uint8_t *restrict o3,
                             uint16_t *restrict acc, uint16_t m, const int k)
{
    for (int q = c0; q < c0 + n; q++) {
        uint16_t v = acc[q];
#define STEP(r, in, out, o)                                                                    \
    if (R > r) {                                                                               \
        v = (uint16_t)(v + in[q]);                                                             \
        o[q] = (uint8_t)((uint16_t)(((uint32_t)v * m) >> 16) >> k);                            \
        v = (uint16_t)(v - out[q]);                                                            \
    }
        STEP(0, i0, u0, o0) STEP(1, i1, u1, o1) STEP(2, i2, u2, o2) STEP(3, i3, u3, o3)
#undef STEP
        acc[q] = v;
    }
}

/* R rows from row y on, every channel: blocks of blk, then of 16, then
 * the rest. */
static RF_INLINE void rowsblk(const int R, int y, const uint8_t *a, size_t as, uint8_t *b,
                              size_t bs, int w4, int h, int lo, int hi, uint16_t m, const int k,
                              const int blk, uint16_t *restrict acc, const uint8_t *zero)
{
    const uint8_t *in[ROWS], *out[ROWS];
    uint8_t *o[ROWS];
    for (int r = 0; r < ROWS; r++) {
        int yr = r < R ? y + r : y; /* rows past R: never read or written */
        in[r] = yr + hi < h ? a + (size_t)(yr + hi) * as : zero;
        out[r] = yr - lo >= 0 ? a + (size_t)(yr - lo) * as : zero;
        o[r] = b + (size_t)yr * bs;
    }
#define RF_ROWPTRS in[0], in[1], in[2], in[3], out[0], out[1], out[2], out[3], o[0], o[1], o[2], o[3]
    int wb = w4 / blk * blk, w16 = w4 & ~15, c0 = 0;
    for (; c0 < wb; c0 += blk)
        rows16(R, blk, c0, RF_ROWPTRS, acc, m, k);
    for (; c0 < w16; c0 += 16)
        rows16(R, 16, c0, RF_ROWPTRS, acc, m, k);
    rows16(R, w4 - c0, c0, RF_ROWPTRS, acc, m, k);
}

static RF_INLINE void vbox16_k(const uint8_t *restrict a, size_t as, uint8_t *restrict b,
                               size_t bs, int w4, int h, int lo, int hi, uint16_t m,
                               const int k, const int blk, uint16_t *restrict acc,
                               const uint8_t *restrict zero)
{
    uint16_t half = (uint16_t)((lo + hi + 1) / 2);
    int wb = w4 / blk * blk;
    for (int c = 0; c < w4; c++)
        acc[c] = half;
    for (int j = 0; j < hi && j < h; j++) {
        const uint8_t *in = a + (size_t)j * as;
        for (int c0 = 0; c0 < wb; c0 += blk)
            for (int q = 0; q < blk; q++)
                acc[c0 + q] = (uint16_t)(acc[c0 + q] + in[c0 + q]);
        for (int c = wb; c < w4; c++)
            acc[c] = (uint16_t)(acc[c] + in[c]);
    }
    int y = 0;
    for (; y + ROWS <= h; y += ROWS)
        rowsblk(ROWS, y, a, as, b, bs, w4, h, lo, hi, m, k, blk, acc, zero);
    for (; y < h; y++)
        rowsblk(1, y, a, as, b, bs, w4, h, lo, hi, m, k, blk, acc, zero);
}

static RF_INLINE void vbox16_body(const uint8_t *restrict a, size_t as, uint8_t *restrict b,
                                  size_t bs, int w4, int h, int lo, int hi, uint16_t m, int k,
                                  const int blk, uint16_t *restrict acc,
                                  const uint8_t *restrict zero)
{
    switch (k) {
#define K(n)                                                                                   \
    case n:                                                                                    \
        vbox16_k(a, as, b, bs, w4, h, lo, hi, m, n, blk, acc, zero);                                \
        break;
        K(0) K(1) K(2) K(3) K(4) K(5) K(6) K(7) K(8)
#undef K
    }
}

/* One box pass of lo + 1 + hi rows (vbox16 when its reciprocal is exact,
 * else vbox), built for one instruction set each (RF_BLUR_MULTI). */
#define BOX_COPIES(attr, sfx, blk)                                                             \
    attr static void box_##sfx(const uint8_t *restrict a, size_t as, uint8_t *restrict b,      \
                               size_t bs, int w4, int h, int lo, int hi,                       \
                               uint32_t *restrict acc, const uint8_t *restrict zero)           \
    {                                                                                          \
        uint16_t m;                                                                            \
        int k;                                                                                 \
        if (recip16((uint32_t)(lo + hi + 1), &m, &k))                                          \
            vbox16_body(a, as, b, bs, w4, h, lo, hi, m, k, blk, (uint16_t *)(void *)acc,       \
                        zero);                                                                 \
        else                                                                                   \
            vbox_body(a, as, b, bs, w4, h, lo, hi, acc, zero);                                 \
    }
BOX_COPIES(, base, 32)
#ifdef RF_BLUR_MULTI
BOX_COPIES(RF_BLUR_V3, avx2, 32)
BOX_COPIES(RF_BLUR_V4, avx512, 64)
#endif

/* Which copy of the box pass runs: 2 AVX-512, 1 AVX2, 0 the baseline;
 * the best the CPU has, capped by RF_BLUR_ISA ("avx2" or "base"), which
 * tests use to hold every copy to the same bytes. */
static int blur_isa(void)
{
#ifdef RF_BLUR_MULTI
    const char *cap = getenv("RF_BLUR_ISA");
    int isa = __builtin_cpu_supports("avx512bw") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
    if (cap && strcmp(cap, "base") == 0)
        isa = 0;
    else if (cap && strcmp(cap, "avx2") == 0 && isa > 1)
        isa = 1;
    return isa;
#else
    return 0;
#endif
}

/* One box pass, by the copy blur_isa chose. */
static void box(int isa, const uint8_t *a, size_t as, uint8_t *b, size_t bs, int w4, int h,
                int lo, int hi, uint32_t *acc, const uint8_t *zero)
{
#ifdef RF_BLUR_MULTI
    if (isa >= 2)
        box_avx512(a, as, b, bs, w4, h, lo, hi, acc, zero);
    else if (isa == 1)
        box_avx2(a, as, b, bs, w4, h, lo, hi, acc, zero);
    else
#endif
        box_base(a, as, b, bs, w4, h, lo, hi, acc, zero);
    (void)isa; /* one copy only without RF_BLUR_MULTI */
}

/* The Gaussian kernel down the columns, from a to b. */
static void vgauss(const uint8_t *restrict a, size_t as, uint8_t *restrict b, size_t bs, int w4,
                   int h, int r, const uint32_t *restrict wt, uint32_t *restrict acc)
{
    for (int y = 0; y < h; y++) {
        for (int c = 0; c < w4; c++)
            acc[c] = 32768;
        for (int k = -r; k <= r; k++) {
            if (y + k < 0 || y + k >= h)
                continue;
            const uint8_t *in = a + (size_t)(y + k) * as;
            uint32_t wk = wt[k < 0 ? -k : k];
            for (int c = 0; c < w4; c++)
                acc[c] += wk * in[c];
        }
        uint8_t *o = b + (size_t)y * bs;
        for (int c = 0; c < w4; c++)
            o[c] = (uint8_t)(acc[c] >> 16);
    }
}

#if defined(__GNUC__) && !defined(__clang__)
typedef uint32_t v4u32 __attribute__((vector_size(16)));
typedef int32_t v4i32 __attribute__((vector_size(16)));
typedef uint8_t v16u8 __attribute__((vector_size(16)));
typedef int8_t v16i8 __attribute__((vector_size(16)));
#define SHUF(a, b, i, j, k, l) __builtin_shuffle(a, b, (v4i32){ i, j, k, l })
#define ZIPLO(a, b)                                                                            \
    __builtin_shuffle(a, b, (v16i8){ 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23 })
#define ZIPHI(a, b)                                                                            \
    __builtin_shuffle(a, b, (v16i8){ 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31 })
#elif defined(__clang__)
typedef uint32_t v4u32 __attribute__((vector_size(16)));
typedef uint8_t v16u8 __attribute__((vector_size(16)));
#define SHUF(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#define ZIPLO(a, b)                                                                            \
    __builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23)
#define ZIPHI(a, b)                                                                            \
    __builtin_shufflevector(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31)
#endif

/* The 16 x 16 bytes (A8) at src into dst transposed: interleaving rows i
 * and i + 8 byte by byte, four times over, turns rows into columns. The
 * loops unrolled, so the rows stay in registers (rolled, GCC kept them on
 * the stack and the A8 transposes took 60% of a shadow's blur). */
static void transpose16(const uint8_t *restrict src, size_t ss, uint8_t *restrict dst, size_t ds)
{
#ifdef ZIPLO
    v16u8 r[16], t[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        memcpy(&r[i], src + (size_t)i * ss, 16);
#define ROUND(a, b)                                                                            \
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++)                                      \
    {                                                                                          \
        b[2 * i] = ZIPLO(a[i], a[i + 8]);                                                      \
        b[2 * i + 1] = ZIPHI(a[i], a[i + 8]);                                                  \
    }
    ROUND(r, t) ROUND(t, r) ROUND(r, t) ROUND(t, r)
#undef ROUND
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        memcpy(dst + (size_t)i * ds, &r[i], 16);
#else
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            dst[(size_t)x * ds + (size_t)y] = src[(size_t)y * ss + (size_t)x];
#endif
}

/* The 4 x 4 pixels (ARGB32) at src into dst transposed: four rows read,
 * four columns written, in vector registers. */
static void transpose4(const uint8_t *restrict src, size_t ss, uint8_t *restrict dst, size_t ds)
{
#ifdef SHUF
    v4u32 r0, r1, r2, r3;
    memcpy(&r0, src, 16);
    memcpy(&r1, src + ss, 16);
    memcpy(&r2, src + 2 * ss, 16);
    memcpy(&r3, src + 3 * ss, 16);
    v4u32 t0 = SHUF(r0, r1, 0, 4, 1, 5), t1 = SHUF(r0, r1, 2, 6, 3, 7);
    v4u32 t2 = SHUF(r2, r3, 0, 4, 1, 5), t3 = SHUF(r2, r3, 2, 6, 3, 7);
    v4u32 c0 = SHUF(t0, t2, 0, 1, 4, 5), c1 = SHUF(t0, t2, 2, 3, 6, 7);
    v4u32 c2 = SHUF(t1, t3, 0, 1, 4, 5), c3 = SHUF(t1, t3, 2, 3, 6, 7);
    memcpy(dst, &c0, 16);
    memcpy(dst + ds, &c1, 16);
    memcpy(dst + 2 * ds, &c2, 16);
    memcpy(dst + 3 * ds, &c3, 16);
#else
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            memcpy(dst + (size_t)x * ds + (size_t)y * 4, src + (size_t)y * ss + (size_t)x * 4, 4);
#endif
}

/* The w x h pixels of bpp bytes (4 or 1) at src (rows ss bytes apart)
 * into dst transposed: dst row x (ds bytes apart) holds column x. ARGB32
 * in blocks of 4 x 4 (transpose4), four rows of the source at a time, so
 * both sides stay in cache; A8 in blocks of 16 x 16 (transpose16), the
 * rows left over in tiles of 8 x 8. */
static void transpose(const uint8_t *restrict src, size_t ss, uint8_t *restrict dst, size_t ds,
                      int w, int h, int bpp)
{
    int y0 = 0;
    if (bpp == 4) {
        for (; y0 + 4 <= h; y0 += 4) {
            const uint8_t *sr = src + (size_t)y0 * ss;
            int x = 0;
            for (; x + 4 <= w; x += 4)
                transpose4(sr + (size_t)x * 4, ss, dst + (size_t)x * ds + (size_t)y0 * 4, ds);
            for (; x < w; x++)
                for (int y = y0; y < y0 + 4; y++)
                    memcpy(dst + (size_t)x * ds + (size_t)y * 4, src + (size_t)y * ss + (size_t)x * 4, 4);
        }
        for (; y0 < h; y0++)
            for (int x = 0; x < w; x++)
                memcpy(dst + (size_t)x * ds + (size_t)y0 * 4, src + (size_t)y0 * ss + (size_t)x * 4, 4);
        return;
    }
    for (; y0 + 16 <= h; y0 += 16) {
        const uint8_t *sr = src + (size_t)y0 * ss;
        int x = 0;
        for (; x + 16 <= w; x += 16)
            transpose16(sr + (size_t)x, ss, dst + (size_t)x * ds + (size_t)y0, ds);
        for (; x < w; x++)
            for (int y = y0; y < y0 + 16; y++)
                dst[(size_t)x * ds + (size_t)y] = src[(size_t)y * ss + (size_t)x];
    }
    for (; y0 < h; y0 += 8)
        for (int x0 = 0; x0 < w; x0 += 8) {
            int y1 = y0 + 8 < h ? y0 + 8 : h, x1 = x0 + 8 < w ? x0 + 8 : w;
            for (int y = y0; y < y1; y++)
                for (int x = x0; x < x1; x++)
                    dst[(size_t)x * ds + (size_t)y] = src[(size_t)y * ss + (size_t)x];
        }
}

/* Three box passes (or the Gaussian) down the columns of the rows at a:
 * a -> b -> a -> out, the first two over w4 channels (rows padded to a
 * multiple of 64 bytes: whole vector blocks, the padding's columns as
 * independent as any), the last over the wo channels out holds; one
 * Gaussian pass a -> out. */
static void vpasses(int isa, uint8_t *a, size_t as, uint8_t *b, size_t bs, uint8_t *out,
                    size_t os, int w4, int wo, int h, int d, int gr, const uint32_t *wt,
                    uint32_t *acc, const uint8_t *zero)
{
    if (gr >= 0) {
        vgauss(a, as, out, os, wo, h, gr, wt, acc);
    } else if (d % 2) {
        box(isa, a, as, b, bs, w4, h, d / 2, d / 2, acc, zero);
        box(isa, b, bs, a, as, w4, h, d / 2, d / 2, acc, zero);
        box(isa, a, as, out, os, wo, h, d / 2, d / 2, acc, zero);
    } else {
        box(isa, a, as, b, bs, w4, h, d / 2, d / 2 - 1, acc, zero);
        box(isa, b, bs, a, as, w4, h, d / 2 - 1, d / 2, acc, zero);
        box(isa, a, as, out, os, wo, h, d / 2, d / 2, acc, zero);
    }
}

/* n rounded up to a multiple of 64. */
static size_t pad64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

/* The blur of w x h pixels of bpp bytes (4: ARGB32, 1: A8), every byte a
 * channel of its own. */
static void blur_bytes(uint8_t *pix, int stride, int w, int h, int bpp, double s, void *work)
{
    if (!(s > 0) || w <= 0 || h <= 0)
        return;
    size_t n = (size_t)(w > h ? w : h), line = n * 4 + 64; /* sums a line holds */
    size_t ps = (size_t)stride, rs = (size_t)w * (size_t)bpp, cs = (size_t)h * (size_t)bpp;
    size_t rp = pad64(rs), cp = pad64(cs);
    size_t ts = pad64(cp * (size_t)w > rp * (size_t)h ? cp * (size_t)w : rp * (size_t)h);
    /* every buffer on a 64-byte boundary, so no vector load or store
     * straddles two cache lines: line * 4 sums, a row of zeros (for rows
     * past the ends), the two transposed copies */
    uint8_t *base = (uint8_t *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
    uint32_t *acc = (uint32_t *)(void *)base;
    uint8_t *zero = base + pad64(line * 4), *t = zero + pad64(line * 4), *u = t + ts;
    memset(zero, 0, line);
    uint32_t wt[GAUSS_MAX_R + 1];
    int gr = -1, d = 0;
    if (s > 16384)
        s = 16384; /* d < 65536: vbox's exact division */
    if (s < 2)
        gr = gauss_kernel(s, wt);
    else
        d = rf_blur_box_size(s);
    int isa = blur_isa();
    /* the rows, as columns of the transposed region: t holds column x as
     * its row x (cp bytes apart) */
    transpose(pix, ps, t, cp, w, h, bpp);
    vpasses(isa, t, cp, u, cp, u, cp, (int)cp, (int)cp, w, d, gr, wt, acc, zero);
    transpose(u, cp, t, rp, h, w, bpp);
    /* the columns: t -> u -> t -> pix, or one Gaussian pass t -> pix */
    vpasses(isa, t, rp, u, rp, pix, ps, (int)rp, (int)rs, h, d, gr, wt, acc, zero);
}

void rf_blur_argb32(uint8_t *pix, int stride, int w, int h, double s, void *work)
{
    blur_bytes(pix, stride, w, h, 4, s, work);
}

void rf_blur_a8(uint8_t *pix, int stride, int w, int h, double s, void *work)
{
    blur_bytes(pix, stride, w, h, 1, s, work);
}
