/* gradfill-mask.c - gradients through a coverage mask (gradfill.h), as
 * cairo 1.16's cairo_mask_surface() and pixman 0.42's general path paint
 * them: what the two kinds share (the bounded box, pixman's combine, the
 * probe), and rf_gradfill_radial; the linear one's rows are gradfill.c's.
 * Each step names the function whose arithmetic it repeats; the order of
 * operations and the types are theirs.
 *
 * The gradient is cairo_pattern_create_radial(cx, cy, 0, cx, cy, r): pixman
 * holds c1 = (cx, cy, 0), c2 = (cx, cy, R) in 16.16, so delta = (0, 0, R),
 * A = -R^2, B = 0 at every pixel, and radial_write_color's discriminant is
 * A * -C, its roots -+sqrt(A * -C) / A; the valid one (a radius of at
 * least mindr = -0.0) is t1, or t0 = -0.0 at the center. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gradfill-int.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* |pdx|, |pdy| at most 2^30: C and its differences stay in int64. */
#define RADIAL_V_MAX 1073741824LL

/* UN8x4_MUL_UN8: each channel of x times a / 255, rounded as pixman does
 * (t = x * a + 128; (t + (t >> 8)) >> 8). */
static inline uint32_t mul_un8x4(uint32_t x, uint32_t a)
{
    uint32_t rb = (x & 0xff00ffu) * a + 0x800080u;
    rb = ((rb + ((rb >> 8) & 0xff00ffu)) >> 8) & 0xff00ffu;
    uint32_t ag = ((x >> 8) & 0xff00ffu) * a + 0x800080u;
    ag = (ag + ((ag >> 8) & 0xff00ffu)) & 0xff00ff00u;
    return rb | ag;
}

/* UN8x4_MUL_UN8_ADD_UN8x4: x * a / 255 + y, each channel saturated. */
static inline uint32_t mul_add_un8x4(uint32_t x, uint32_t a, uint32_t y)
{
    uint32_t m = mul_un8x4(x, a);
    uint32_t rb = (m & 0xff00ffu) + (y & 0xff00ffu);
    rb |= 0x10000100u - ((rb >> 8) & 0xff00ffu);
    uint32_t ag = ((m >> 8) & 0xff00ffu) + ((y >> 8) & 0xff00ffu);
    ag |= 0x10000100u - ((ag >> 8) & 0xff00ffu);
    return (rb & 0xff00ffu) | ((ag & 0xff00ffu) << 8);
}

/* combine_over_u with a mask (the SSE2 one gives the same bytes): the
 * source s times the mask m, then over d. */
static inline uint32_t over_masked(uint32_t d, uint32_t s, uint32_t m)
{
    if (m != 255)
        s = mul_un8x4(s, m);
    if (s == 0)
        return d;
    uint32_t sa = s >> 24;
    return sa == 255 ? s : mul_add_un8x4(d, 255 - sa, s);
}

/* One row of the radial gradient: pixman's state for it. */
typedef struct {
    int64_t c, dc, ddc; /* C at the row's first pixel, its differences */
    int64_t c_end;      /* C at its last pixel */
} row_t;

/* radial_get_scanline's affine setup for source pixel (sx, sy): 0 when
 * pixman would not reach the affine branch or its values would overflow. */
static int row_setup(const xform_t *t, int has, int32_t c1x, int32_t c1y, int sx, int sy,
                     int w, row_t *row)
{
    int32_t v[3] = { (int32_t)((uint32_t)sx << 16) + GRADFILL_FIXED_1 / 2,
                     (int32_t)((uint32_t)sy << 16) + GRADFILL_FIXED_1 / 2, GRADFILL_FIXED_1 };
    int64_t u0 = GRADFILL_FIXED_1, u1 = 0, u2 = 0;
    if (has) {
        if (!gradfill_xform_point(t, v))
            return 0;
        u0 = t->m[0][0];
        u1 = t->m[1][0];
        u2 = t->m[2][0];
    }
    if (!(u2 == 0 && v[2] == GRADFILL_FIXED_1))
        return 0; /* the projective branch */
    /* v.vector[0] -= radial->c1.x: pixman_fixed_t, which must not wrap */
    int64_t v0 = (int64_t)v[0] - c1x, v1 = (int64_t)v[1] - c1y;
    int64_t e0 = v0 + u0 * (w - 1), e1 = v1 + u1 * (w - 1);
    if (!(llabs(v0) <= RADIAL_V_MAX && llabs(v1) <= RADIAL_V_MAX && llabs(e0) <= RADIAL_V_MAX &&
          llabs(e1) <= RADIAL_V_MAX && llabs(u0) <= RADIAL_V_MAX && llabs(u1) <= RADIAL_V_MAX))
        return 0;
    /* c = dot (v0, v1, -r1, v0, v1, r1), r1 = 0; dc, ddc as pixman's */
    row->c = v0 * v0 + v1 * v1;
    row->c_end = e0 * e0 + e1 * e1;
    row->dc = (2 * v0 + u0) * u0 + (2 * v1 + u1) * u1;
    row->ddc = 2 * (u0 * u0 + u1 * u1);
    return 1;
}

/* The constants of radial_write_color for this gradient. */
typedef struct {
    double a, inva, dr;
} rad_t;

/* radial_write_color's position for C = c >= 0 (b = 0 at every pixel):
 * discr = fdot (b, a, 0, b, -c, 0), t0 = (b + sqrt) * inva, t1 = (b -
 * sqrt) * inva, the first with t * dr >= mindr (-0.0), as the walker's
 * pixman_fixed_48_16_t. With a < 0 and c >= 0 the discriminant is never
 * negative and t1 always qualifies; t0 only at c = 0 (-0.0). X(c) is
 * monotone in c: every step (the conversion, a product by a positive
 * constant, the root) is. */
static inline int64_t radial_x(const rad_t *g, int64_t c)
{
    const double b = 0.0, cd = (double)c, mindr = -1. * GRADFILL_FIXED_1 * 0;
    double discr = b * b + g->a * -cd + 0.0 * 0.0;
    double sq = sqrt(discr), t0 = (b + sq) * g->inva, t1 = (b - sq) * g->inva;
    return t0 * g->dr >= mindr ? (int64_t)t0 : (int64_t)t1;
}

/* The least C in [lo, cmax] with X(C) >= x; INT64_MAX when none. From an
 * estimate (X(c) is close to 65536 sqrt(c) / R), a bracket that doubles,
 * then bisection: about ten evaluations. */
static int64_t least_c(const rad_t *g, int64_t x, int64_t lo, int64_t cmax)
{
    if (radial_x(g, cmax) < x)
        return INT64_MAX;
    if (radial_x(g, lo) >= x)
        return lo;
    double e = (double)x * g->dr / GRADFILL_FIXED_1;
    int64_t guess = e * e < (double)cmax ? (int64_t)(e * e) : cmax;
    guess = guess > lo ? guess : lo;
    /* lo: X < x; hi: X >= x */
    int64_t hi = cmax;
    if (radial_x(g, guess) >= x) {
        hi = guess;
        for (int64_t d = 1; hi - d > lo; d *= 2) {
            if (radial_x(g, hi - d) < x) {
                lo = hi - d;
                break;
            }
            hi -= d;
        }
    } else {
        lo = guess;
        for (int64_t d = 1; lo + d < cmax; d *= 2) {
            if (radial_x(g, lo + d) >= x) {
                hi = lo + d;
                break;
            }
            lo += d;
        }
    }
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (radial_x(g, mid) >= x)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

int gradfill_simd(void)
{
    const char *env = getenv("RF_GRADFILL_SCALAR");
    if (env == NULL || env[0] == '\0' || strcmp(env, "0") == 0)
        return 2;
    return strcmp(env, "sse2") == 0 ? 1 : 0;
}

int gradfill_stops_clear(const rf_gradfill_stop_t *stops, int n)
{
    int clear = 1;
    for (int k = 0; k < n; k++) {
        double a = stops[k].a;
        a = a >= 0 ? (a <= 1 ? a : 1) : 0;
        clear &= (uint16_t)(a * 65535.0 + 0.5) <= 0xff;
    }
    return clear;
}

int gradfill_bounded(int width, int height, const int clip[4], const rf_gradfill_mask_t *mask,
                     int b[4])
{
    b[0] = mask->x > 0 ? mask->x : 0;
    b[1] = mask->y > 0 ? mask->y : 0;
    b[2] = mask->x + mask->w < width ? mask->x + mask->w : width;
    b[3] = mask->y + mask->h < height ? mask->y + mask->h : height;
    b[0] = b[0] > clip[0] ? b[0] : clip[0];
    b[1] = b[1] > clip[1] ? b[1] : clip[1];
    b[2] = b[2] < clip[2] ? b[2] : clip[2];
    b[3] = b[3] < clip[3] ? b[3] : clip[3];
    return b[0] < b[2] && b[1] < b[3];
}

#if defined(__SSE2__)
/* Four pixels: sv IN the coverage mm (a byte each) OVER dv, as pixman's
 * SSE2 in_over (each product (x * a + 128) * 257 >> 16, the sum
 * saturated). */
static inline __m128i over4(__m128i sv, __m128i dv, uint32_t mm)
{
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(0x80);
    const __m128i k101 = _mm_set1_epi16(0x101), ff = _mm_set1_epi16(0xff);
#define MUL16(x, a) _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16((x), (a)), half), k101)
#define ALPHAS(x) _mm_shufflehi_epi16(_mm_shufflelo_epi16((x), 0xff), 0xff)
    __m128i mv = _mm_cvtsi32_si128((int)mm);
    mv = _mm_unpacklo_epi8(mv, mv);
    mv = _mm_unpacklo_epi16(mv, mv); /* each pixel's coverage in its four bytes */
    __m128i slo = MUL16(_mm_unpacklo_epi8(sv, zero), _mm_unpacklo_epi8(mv, zero));
    __m128i shi = MUL16(_mm_unpackhi_epi8(sv, zero), _mm_unpackhi_epi8(mv, zero));
    __m128i dlo = MUL16(_mm_unpacklo_epi8(dv, zero), _mm_xor_si128(ALPHAS(slo), ff));
    __m128i dhi = MUL16(_mm_unpackhi_epi8(dv, zero), _mm_xor_si128(ALPHAS(shi), ff));
    return _mm_adds_epu8(_mm_packus_epi16(slo, shi), _mm_packus_epi16(dlo, dhi));
#undef MUL16
#undef ALPHAS
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RF_HAVE_OVER8 1
#include <immintrin.h>
/* over4 on eight pixels with AVX2: each 128-bit half is over4's (the
 * unpacks and packs stay within their half), so the same bytes. */
__attribute__((target("avx2"))) static inline __m256i over8(__m256i sv, __m256i dv, uint64_t mm)
{
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi16(0x80);
    const __m256i k101 = _mm256_set1_epi16(0x101), ff = _mm256_set1_epi16(0xff);
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4,
                                            4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7);
#define MUL16(x, a) _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16((x), (a)), half), k101)
#define ALPHAS(x) _mm256_shufflehi_epi16(_mm256_shufflelo_epi16((x), 0xff), 0xff)
    /* each pixel's coverage in its four bytes: the 8 bytes in both halves,
     * the first four spread over the low half, the last four the high */
    __m256i mv = _mm256_shuffle_epi8(_mm256_set1_epi64x((long long)mm), spread);
    __m256i slo = MUL16(_mm256_unpacklo_epi8(sv, zero), _mm256_unpacklo_epi8(mv, zero));
    __m256i shi = MUL16(_mm256_unpackhi_epi8(sv, zero), _mm256_unpackhi_epi8(mv, zero));
    __m256i dlo = MUL16(_mm256_unpacklo_epi8(dv, zero), _mm256_xor_si256(ALPHAS(slo), ff));
    __m256i dhi = MUL16(_mm256_unpackhi_epi8(dv, zero), _mm256_xor_si256(ALPHAS(shi), ff));
    return _mm256_adds_epu8(_mm256_packus_epi16(slo, shi), _mm256_packus_epi16(dlo, dhi));
#undef MUL16
#undef ALPHAS
}

/* over_row's pixels eight at a time with AVX2; returns the pixels done. */
__attribute__((target("avx2"))) static int over_row8(uint32_t *out, const uint32_t *src,
                                                     uint32_t color, const uint8_t *m, int w)
{
    const __m256i cv = _mm256_set1_epi32((int)color), ones = _mm256_set1_epi8(-1);
    int i = 0;
    for (; i + 8 <= w; i += 8) {
        uint64_t mm;
        memcpy(&mm, m + i, sizeof mm);
        if (mm == 0)
            continue;
        __m256i sv = src != NULL ? _mm256_loadu_si256((const __m256i *)(const void *)(src + i)) : cv;
        __m256i *o = (__m256i *)(void *)(out + i);
        if (mm == UINT64_MAX &&
            ((uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(sv, ones)) & 0x88888888u) == 0x88888888u)
            _mm256_storeu_si256(o, sv);
        else
            _mm256_storeu_si256(o, over8(sv, _mm256_loadu_si256(o), mm));
    }
    return i;
}
#else
#define RF_HAVE_OVER8 0
#endif

/* out = src IN m OVER out over w pixels (color for every pixel when src
 * is NULL): eight at a time with AVX2 when simd is 2 and the CPU has it,
 * four with SSE2 when simd is 1 or more, one at a time: the same bytes.
 * Opaque pixels under full coverage are stored as they are (pixman does
 * the same). Inlined: each caller's src folds. */
static inline __attribute__((always_inline)) void
over_row(uint32_t *out, const uint32_t *src, uint32_t color, const uint8_t *m, int w, int simd)
{
    int i = 0;
#if RF_HAVE_OVER8
    if (simd >= 2 && __builtin_cpu_supports("avx2"))
        i = over_row8(out, src, color, m, w);
#endif
#if defined(__SSE2__)
    if (simd) {
        const __m128i cv = _mm_set1_epi32((int)color), ones = _mm_set1_epi8(-1);
        for (; i + 4 <= w; i += 4) {
            uint32_t mm;
            memcpy(&mm, m + i, sizeof mm);
            if (mm == 0)
                continue;
            __m128i sv = src != NULL ? _mm_loadu_si128((const __m128i *)(const void *)(src + i)) : cv;
            __m128i *o = (__m128i *)(void *)(out + i);
            if (mm == 0xffffffffu && (_mm_movemask_epi8(_mm_cmpeq_epi8(sv, ones)) & 0x8888) == 0x8888)
                _mm_storeu_si128(o, sv);
            else
                _mm_storeu_si128(o, over4(sv, _mm_loadu_si128(o), mm));
        }
    }
#else
    (void)simd;
#endif
    for (; i < w; i++)
        if (m[i] != 0)
            out[i] = over_masked(out[i], src != NULL ? src[i] : color, m[i]);
}

void gradfill_over_row(uint32_t *out, const uint32_t *src, const uint8_t *m, int w, int simd)
{
    over_row(out, src, 0, m, w, simd);
}

/* C's next value along a row, modulo 2^64: the walk steps once past a
 * row's last pixel, which at the 2^30 limits of row_setup may leave
 * int64 (the value is not used; every pixel's is in range). */
static inline int64_t step(int64_t v, int64_t d)
{
    return (int64_t)((uint64_t)v + (uint64_t)d);
}

/* The pixels a row's source colors are kept for at once (2 KiB). */
#define RADIAL_CHUNK 512
_Static_assert(RADIAL_CHUNK <= GRADFILL_SCRATCH, "a thread's scratch holds a chunk");

/* Where a row's walk through the color changes starts: C's key (the bits
 * of the float nearest C, shifted right by sh; monotone in C, and C >= 0)
 * indexes tab, which holds for each key from base on how many changes
 * have a smaller key: those lie below every C of that key, so the walk
 * starts there and goes up only. Keys are about 2^-(23 - sh) of C wide:
 * fine enough, most hold at most one change, and the walk is one
 * comparison with no branch to mispredict (following k from pixel to
 * pixel took a branch at every change: about 3 ns a pixel of a glow). */
#define KEY_TAB_MAX 8192
typedef struct {
    uint16_t tab[KEY_TAB_MAX];
    int sh, n;     /* the shift; the entries */
    uint32_t base; /* the key of tab[0] */
} keys_t;

static inline uint32_t c_key(int64_t c, int sh)
{
    float f = (float)c;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u >> sh;
}

/* The table for the changes bnd[1 .. nb] (sorted) and C up to cmax: 0 when
 * no shift gives at most max entries. */
static int keys_make(keys_t *t, const int64_t *bnd, int nb, int64_t cmax, int max)
{
    int64_t hi = bnd[nb] < cmax ? bnd[nb] : cmax;
    if (nb < 1 || hi < bnd[1])
        return 0;
    for (int sh = 13; sh <= 23; sh++) {
        uint32_t lo = c_key(bnd[1], sh), top = c_key(hi, sh);
        if (top - lo >= (uint32_t)max)
            continue;
        t->sh = sh;
        t->base = lo;
        t->n = (int)(top - lo) + 1;
        int k = 0;
        for (int j = 0; j < t->n; j++) {
            while (k < nb && c_key(bnd[k + 1], sh) - lo < (uint32_t)j)
                k++;
            t->tab[j] = (uint16_t)k;
        }
        return 1;
    }
    return 0;
}

/* The colors of n pixels of a row from C = *c on (differences *dc, ddc)
 * by the key table, into src; *c, *dc are left at the pixel after. */
static void keys_row(uint32_t *src, int n, int64_t *c, int64_t *dc, int64_t ddc,
                     const int64_t *bnd, const uint32_t *col, const keys_t *keys)
{
    int64_t cc = *c, dd = *dc;
    const int sh = keys->sh, last = keys->n - 1;
    const uint32_t base = keys->base;
    for (int i = 0; i < n; i++, cc = step(cc, dd), dd = step(dd, ddc)) {
        int64_t j = (int64_t)c_key(cc, sh) - (int64_t)base;
        j = j < 0 ? 0 : j > last ? last : j;
        int k = keys->tab[j];
        k += cc >= bnd[k + 1];
        if (__builtin_expect(cc >= bnd[k + 1], 0))
            do
                k++;
            while (cc >= bnd[k + 1]);
        src[i] = col[k];
    }
    *c = cc;
    *dc = dd;
}

static inline uint64_t load_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* A row through the color changes moved to C: the color of a pixel is
 * col[k] for the k with bnd[k] <= C < bnd[k + 1] (bnd[0] = INT64_MIN and
 * bnd[nb + 1] = INT64_MAX stand guard), k from the key table when there
 * is one (every pixel, covered or not: no branch), else followed as C
 * falls, then rises, along the row. Uncovered pixels keep src's last
 * value (src is all defined: the caller cleared it). */
static void row_by_breaks(uint32_t *out, const uint8_t *m, int w, row_t row, const int64_t *bnd,
                          const uint32_t *col, int nb, const keys_t *keys, uint32_t *src,
                          int simd)
{
    /* only from the first covered pixel to the last (a disk's rows near
     * its top and bottom are mostly outside it): C and its difference
     * moved there in closed form, the steps' sums (the same wrapping
     * arithmetic: the same values) */
    int x0 = 0, x1 = w;
    while (x0 + 8 <= x1 && load_u64(m + x0) == 0)
        x0 += 8;
    while (x0 < x1 && m[x0] == 0)
        x0++;
    while (x1 - 8 >= x0 && load_u64(m + x1 - 8) == 0)
        x1 -= 8;
    while (x1 > x0 && m[x1 - 1] == 0)
        x1--;
    uint64_t s = (uint64_t)x0;
    int64_t c = (int64_t)((uint64_t)row.c + s * (uint64_t)row.dc +
                          s * (s - 1) / 2 * (uint64_t)row.ddc);
    int64_t dc = (int64_t)((uint64_t)row.dc + s * (uint64_t)row.ddc);
    if (keys != NULL) {
        for (int at = x0; at < x1; at += RADIAL_CHUNK) {
            int n = x1 - at < RADIAL_CHUNK ? x1 - at : RADIAL_CHUNK;
            keys_row(src, n, &c, &dc, row.ddc, bnd, col, keys);
            gradfill_over_row(out + at, src, m + at, n, simd);
        }
        return;
    }
    int lo = 0, hi = nb; /* the last k with bnd[k] <= c: bisected */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (bnd[mid] <= c)
            lo = mid;
        else
            hi = mid - 1;
    }
    int k = lo;
    for (int at = x0; at < x1; at += RADIAL_CHUNK) {
        int n = x1 - at < RADIAL_CHUNK ? x1 - at : RADIAL_CHUNK;
        const uint8_t *mm = m + at;
        for (int i = 0; i < n; i++, c = step(c, dc), dc = step(dc, row.ddc)) {
            if (mm[i] == 0)
                continue;
            if (c >= bnd[k + 1]) {
                do
                    k++;
                while (c >= bnd[k + 1]);
            } else if (c < bnd[k]) {
                do
                    k--;
                while (c < bnd[k]);
            }
            src[i] = col[k];
        }
        gradfill_over_row(out + at, src, mm, n, simd);
    }
}

/* A row pixel by pixel: the walker at each covered pixel's position. */
static void row_by_pixel(uint32_t *out, const uint8_t *m, int w, row_t row, const rad_t *g,
                         const walker_t *wk)
{
    int64_t c = row.c, dc = row.dc, lo = 0, hi = 0;
    int seg = -1;
    for (int i = 0; i < w; i++, c = step(c, dc), dc = step(dc, row.ddc)) {
        if (m[i] == 0)
            continue;
        int64_t x = radial_x(g, c);
        if (seg < 0 || x < lo || x >= hi) { /* the walker's reset */
            seg = gradfill_seg_of(wk, x);
            lo = seg == 0 ? INT64_MIN : wk->sx[seg - 1];
            hi = seg == wk->count ? INT64_MAX : wk->sx[seg];
        }
        out[i] = over_masked(out[i], gradfill_walk(&wk->seg[seg], x), m[i]);
    }
}

/* What the rows of a radial fill read (rf_gradfill_radial's, shared by
 * its threads). */
typedef struct {
    unsigned char *data;
    int stride, b0, b1, bw;
    const xform_t *t;
    int has;
    int32_t c1x, c1y;
    int sx, sy;
    const rf_gradfill_mask_t *mask;
    const int64_t *bnd;
    const uint32_t *col;
    int nb;
    const keys_t *keys;
    const rad_t *g;
    const walker_t *wk;
    int simd;
} rad_rows_t;

/* Rows y0 .. y1-1 of a radial fill (gradfill_rows_fn); scratch: the
 * source colors of RADIAL_CHUNK pixels, cleared first (row_by_breaks
 * leaves uncovered pixels' as they were). */
static void rad_rows(const void *ctx, int y0, int y1, uint32_t *scratch)
{
    const rad_rows_t *r = ctx;
    const rf_gradfill_mask_t *mask = r->mask;
    memset(scratch, 0, RADIAL_CHUNK * sizeof *scratch);
    for (int y = y0; y < y1; y++) {
        row_t row;
        row_setup(r->t, r->has, r->c1x, r->c1y, r->sx, r->sy + y, r->bw, &row);
        const uint8_t *m = mask->a + (size_t)(r->b1 + y - mask->y) * (size_t)mask->stride +
                           (r->b0 - mask->x);
        uint32_t *out = (uint32_t *)(void *)(r->data + (size_t)(r->b1 + y) * (size_t)r->stride) +
                        r->b0;
        if (r->nb >= 0)
            row_by_breaks(out, m, r->bw, row, r->bnd, r->col, r->nb, r->keys, scratch, r->simd);
        else
            row_by_pixel(out, m, r->bw, row, r->g, r->wk);
    }
}

int rf_gradfill_radial(unsigned char *data, int stride, int width, int height, const int clip[4],
                       const cairo_matrix_t *inv, double cx, double cy, double radius,
                       const rf_gradfill_stop_t *stops, int n, const rf_gradfill_mask_t *mask)
{
    if (n <= 0 || n > RF_GRADFILL_MAX_STOPS || !(isfinite(cx) && isfinite(cy)) ||
        !(radius >= 1.0 / 256))
        return 0;
    /* _cairo_gradient_pattern_fit_to_range: beyond PIXMAN_MAX_INT >> 1
     * cairo rescales (not repeated here) */
    if (!(fmax(fmax(fabs(cx), fabs(cy)), radius) <= 16383.0))
        return 0;
    int b[4];
    if (gradfill_stops_clear(stops, n) || !gradfill_bounded(width, height, clip, mask, b))
        return 1; /* cairo draws nothing */
    walker_t wk;
    gradfill_walker_init(&wk, stops, n, 1);
    int b0 = b[0], b1 = b[1], bw = b[2] - b[0], bh = b[3] - b[1];
    int32_t R = gradfill_fixed(radius), c1x = gradfill_fixed(cx), c1y = gradfill_fixed(cy);
    xform_t t;
    int has, sx, sy;
    if (!gradfill_source(inv, b, &t, &has, &sx, &sy))
        return 0;
    /* every row's setup first: nothing is written unless all are pixman's;
     * the largest C the box reaches (C is convex along a row: at an end) */
    int64_t cmax = 0;
    for (int y = 0; y < bh; y++) {
        row_t row;
        if (!row_setup(&t, has, c1x, c1y, sx, sy + y, bw, &row))
            return 0;
        cmax = row.c > cmax ? row.c : cmax;
        cmax = row.c_end > cmax ? row.c_end : cmax;
    }
    /* pixman_image_create_radial_gradient: a = dot (0, 0, -R, 0, 0, R) as
     * a double, inva; dr */
    const rad_t g = { (double)(-(int64_t)R * R), 1. * GRADFILL_FIXED_1 / (double)(-(int64_t)R * R),
                      R };
    int simd = gradfill_simd();
    /* the color changes along [0, X(cmax)], each moved to the least C
     * that reaches it: bnd[1 .. nb], with guards either side; col[k] the
     * color from bnd[k] */
    int64_t bnd[GRADFILL_MAX_BREAKS + 2];
    uint32_t col[GRADFILL_MAX_BREAKS + 1];
    /* a change costs about 32 pixels of the walk (its bisection, then
     * least_c): a box of few pixels is walked pixel by pixel */
    int nb = gradfill_color_breaks(&wk, 0, radial_x(&g, cmax), bnd + 1, col + 1,
                                   gradfill_breaks_cap((int64_t)bw * bh, 32), col);
    for (int k = 1; k <= nb; k++)
        bnd[k] = least_c(&g, bnd[k], k > 1 ? bnd[k - 1] : 0, cmax);
    bnd[0] = INT64_MIN;
    if (nb >= 0)
        bnd[nb + 1] = INT64_MAX;
    /* a table of at most a quarter entry a pixel (its making is the walk
     * of a pixel or so an entry) */
    keys_t keys;
    int64_t area = (int64_t)bw * bh / 4;
    int have_keys = nb >= 1 && keys_make(&keys, bnd, nb, cmax,
                                         area < KEY_TAB_MAX ? (int)area : KEY_TAB_MAX);
    const rad_rows_t r = { data, stride, b0, b1, bw, &t, has, c1x, c1y, sx, sy, mask, bnd, col, nb,
                           have_keys ? &keys : NULL, &g, &wk, simd };
    gradfill_rows(mask->helper, bw, bh, rad_rows, &r);
    return 1;
}

void rf_gradfill_solid_mask(unsigned char *data, int stride, int width, int height,
                            const int clip[4], const double c[4], const rf_gradfill_mask_t *mask)
{
    /* cairo_pattern_create_rgba: each value clamped; _cairo_color_compute_shorts:
     * premultiplied shorts; pixman's color_to_uint32: their high bytes */
    double v[4];
    for (int k = 0; k < 4; k++)
        v[k] = c[k] < 0 ? 0 : c[k] > 1 ? 1 : c[k];
    uint32_t as = (uint16_t)(v[3] * 65535.0 + 0.5), rs = (uint16_t)(v[0] * v[3] * 65535.0 + 0.5);
    uint32_t gs = (uint16_t)(v[1] * v[3] * 65535.0 + 0.5);
    uint32_t bs = (uint16_t)(v[2] * v[3] * 65535.0 + 0.5);
    uint32_t color = (as >> 8) << 24 | (rs >> 8) << 16 | (gs & 0xff00) | bs >> 8;
    int b[4];
    if (color == 0 || !gradfill_bounded(width, height, clip, mask, b))
        return; /* pixman: a source of 0 paints nothing */
    int simd = gradfill_simd();
    for (int y = b[1]; y < b[3]; y++) {
        const uint8_t *m = mask->a + (size_t)(y - mask->y) * (size_t)mask->stride + (b[0] - mask->x);
        uint32_t *out = (uint32_t *)(void *)(data + (size_t)y * (size_t)stride) + b[0];
        over_row(out, NULL, color, m, b[2] - b[0], simd); /* pixman's over_n_8_8888 */
    }
}

/* ---- the probe ---- */

/* One paint masked by cairo and here into two images: 1 when every byte
 * agrees. The paint is the gradient of stops st (radial when rad > 0,
 * centered on p[0], p[1]; else linear from p[0], p[1] to p[2], p[3]) set
 * under m, or the solid color c when st is NULL. The mask is a disk of
 * coverage with soft edges; a box this small is walked pixel by pixel. */
static int probe_one(const cairo_matrix_t *m, const double p[4], double rad,
                     const rf_gradfill_stop_t *st, const double c[4], int mx, int my)
{
    enum { W = 24, H = 20, MW = 20, MH = 16 };
    uint32_t a[W * H], b[W * H];
    uint8_t cov[MW * MH];
    for (int i = 0; i < W * H; i++)
        a[i] = b[i] = 0xff3a5070u - (uint32_t)(i % 7) * 0x00010203u;
    for (int y = 0; y < MH; y++)
        for (int x = 0; x < MW; x++) { /* twice the distance to the middle, squared */
            int dx = 2 * x - MW + 1, dy = 2 * y - MH + 1, d2 = dx * dx + dy * dy;
            cov[y * MW + x] = d2 < 144 ? 255 : d2 < 289 ? (uint8_t)((289 - d2) * 255 / 145) : 0;
        }
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)a,
                                                             CAIRO_FORMAT_ARGB32, W, H, W * 4);
    cairo_surface_t *ms = cairo_image_surface_create_for_data(cov, CAIRO_FORMAT_A8, MW, MH, MW);
    cairo_t *cr = cairo_create(s);
    cairo_set_matrix(cr, m);
    cairo_pattern_t *pat = NULL;
    if (st == NULL) {
        cairo_set_source_rgba(cr, c[0], c[1], c[2], c[3]);
    } else {
        pat = rad > 0 ? cairo_pattern_create_radial(p[0], p[1], 0, p[0], p[1], rad)
                      : cairo_pattern_create_linear(p[0], p[1], p[2], p[3]);
        for (int k = 0; k < 3; k++)
            cairo_pattern_add_color_stop_rgba(pat, st[k].offset, st[k].r, st[k].g, st[k].b,
                                              st[k].a);
        cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
        cairo_set_source(cr, pat);
    }
    cairo_matrix_t inv;
    rf_gradfill_inverse(cr, &inv);
    cairo_identity_matrix(cr);
    cairo_mask_surface(cr, ms, mx, my);
    int ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_pattern_destroy(pat);
    cairo_destroy(cr);
    cairo_surface_finish(ms);
    cairo_surface_destroy(ms);
    cairo_surface_finish(s);
    cairo_surface_destroy(s);
    const int clip[4] = { 0, 0, W, H };
    const rf_gradfill_mask_t mk = { cov, MW, mx, my, MW, MH, NULL };
    unsigned char *d = (unsigned char *)b;
    if (st == NULL)
        rf_gradfill_solid_mask(d, W * 4, W, H, clip, c, &mk);
    else if (!(rad > 0 ? rf_gradfill_radial(d, W * 4, W, H, clip, &inv, p[0], p[1], rad, st, 3, &mk)
                       : rf_gradfill_linear_mask(d, W * 4, W, H, clip, &inv, p[0], p[1], p[2],
                                                 p[3], st, 3, &mk)))
        ok = 0;
    return ok && memcmp(a, b, sizeof a) == 0;
}

static int usable;
static pthread_once_t usable_once = PTHREAD_ONCE_INIT;

static void usable_probe(void)
{
    /* three stops, alpha falling to 0: colors far apart, and colors close
     * enough that the changes are few (the probe stays cheap) */
    static const rf_gradfill_stop_t far[3] = {
        { 0, 0.9, 0.3, 0.1, 0.8 }, { 0.4, 0.2, 0.6, 1, 0.5 }, { 1, 1, 1, 0, 0 }
    };
    static const rf_gradfill_stop_t near[3] = {
        { 0, 0.9, 0.3, 0.1, 0.3 }, { 0.4, 0.8, 0.35, 0.2, 0.2 }, { 1, 0.85, 0.3, 0.15, 0 }
    };
    const cairo_matrix_t moved = { 1, 0, 0, 1, 10.37, 9.5 }, ident = { 1, 0, 0, 1, 0, 0 };
    const cairo_matrix_t scaled = { 1.7, 0, 0, 0.6, 11, 9.25 };
    static const double at0[4] = { 0 }, mid[4] = { 10.3, 9.9 }, down[4] = { 1, -6, 1, 5.5 };
    static const double translucent[4] = { 0.9, 0.3, 0.1, 0.7 };
    usable = probe_one(&moved, at0, 8.5, near, NULL, 2, 2) &&
             probe_one(&ident, mid, 5, far, NULL, 1, 3) &&
             probe_one(&scaled, down, 0, near, NULL, 1, 3) &&
             probe_one(&ident, at0, 0, NULL, translucent, 3, 2);
}

int rf_gradfill_mask_usable(void)
{
    pthread_once(&usable_once, usable_probe);
    return usable;
}
