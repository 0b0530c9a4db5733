/* diff.c - pixelmatch 7.2.0's measure, operation for operation.
 *
 * Every expression below is pixelmatch's index.js written in C with the
 * same double operations in the same order (C's and JavaScript's
 * precedence and left-to-right associativity agree for + - * /), so the
 * results are bit-identical. Integers that JavaScript holds as doubles
 * (byte products such as r1 * a1) are exact in int here too. Contraction
 * into fused multiply-adds would change roundings, hence FP_CONTRACT OFF
 * (GCC ignores the pragma, with a warning we silence, but does not
 * contract in the -std=c11 mode the build uses).
 *
 * Rows are compared one at a time, so a caller can feed rows as they are
 * decoded: a pixel's anti-aliasing test reads rows y-1..y+1 and the sibling
 * test of those neighbours rows y-2..y+2.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#pragma STDC FP_CONTRACT OFF
#pragma GCC diagnostic pop

#include "diff.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* A pixel as the 32-bit word pixelmatch's Uint32Array view reads; only
 * ever compared for equality, so byte order does not matter. memcpy keeps
 * it free of alignment and aliasing assumptions (it compiles to a load). */
static inline uint32_t load32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Pixel (x, y) of image a or b: row y is row y & mask of the buffer (the
 * row itself for whole images, mask all ones). */
static inline const uint8_t *pixel(const rf_diff_t *d, const uint8_t *img, uint32_t x,
                                   uint32_t y)
{
    return img + ((size_t)(y & d->mask) * d->width + x) * 4;
}

/* trunc(v) wrapped into [0, m), as JavaScript's integer conversions do;
 * NaN and infinities give 0. */
static double js_wrap(double v, double m)
{
    if (!isfinite(v))
        return 0;
    double r = fmod(trunc(v), m);
    return r < 0 ? r + m : r;
}

/* JavaScript's ToInt32 (the `| 0`): truncate, wrap modulo 2^32. */
static int32_t js_to_int32(double v)
{
    if (v > -2147483649.0 && v < 2147483648.0)
        return (int32_t)v;
    uint32_t u = (uint32_t)js_wrap(v, 4294967296.0);
    return u >= 0x80000000u ? (int32_t)(u - 0x80000000u) - 0x7fffffff - 1 : (int32_t)u;
}

/* A store into a Uint8Array (ToUint8): NaN and infinities give 0, others
 * are truncated towards zero and wrapped modulo 256. */
static uint8_t js_to_uint8(double v)
{
    if (v >= 0 && v < 256.0)
        return (uint8_t)v;
    return (uint8_t)js_wrap(v, 256.0);
}

/* The background a translucent pixel is blended over; k is the byte offset
 * of the pixel (in the anti-aliasing test, of the centre pixel), so rb is
 * always 48 with checkerboard: k is a multiple of 4. */
static void background(uint64_t k, int checkerboard, int *rb, int *gb, int *bb)
{
    if (!checkerboard) {
        *rb = *gb = *bb = 255;
        return;
    }
    double kd = (double)k;
    *rb = 48 + 159 * (int)(k % 2);
    *gb = 48 + 159 * (js_to_int32(kd / 1.618033988749895) % 2);
    *bb = 48 + 159 * (js_to_int32(kd / 2.618033988749895) % 2);
}

/* The red, green and blue differences of two pixels, each blended over the
 * background first when either is translucent (pixelmatch's blend). */
static inline void channel_deltas(const uint8_t *p1, const uint8_t *p2, uint64_t k,
                                  int checkerboard, double d[3])
{
    int a1 = p1[3], a2 = p2[3], da = a1 - a2;
    if (a1 < 255 || a2 < 255) {
        int bg[3];
        background(k, checkerboard, &bg[0], &bg[1], &bg[2]);
        for (int c = 0; c < 3; c++)
            d[c] = (p1[c] * a1 - p2[c] * a2 - bg[c] * da) / 255.0;
    } else {
        for (int c = 0; c < 3; c++)
            d[c] = p1[c] - p2[c];
    }
}

/* pixelmatch colorDelta(): squared YIQ distance, negative when the second
 * pixel is darker. The caller has seen that the pixels differ. */
static double color_delta(const uint8_t *p1, const uint8_t *p2, uint64_t k, int checkerboard)
{
    double d[3];
    channel_deltas(p1, p2, k, checkerboard, d);
    double dr = d[0], dg = d[1], db = d[2];

    double y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223;
    double i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189;
    double q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694;

    double delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q;

    return y > 0 ? -delta : delta;
}

/* pixelmatch brightnessDelta(): the Y difference between the centre pixel
 * c (at byte offset k) and a neighbour n. */
static double brightness_delta(const uint8_t *c, const uint8_t *n, uint64_t k, int checkerboard)
{
    if (c[0] == n[0] && c[1] == n[1] && c[2] == n[2] && c[3] == n[3])
        return 0;
    double d[3];
    channel_deltas(c, n, k, checkerboard, d);
    return d[0] * 0.29889531 + d[1] * 0.58662247 + d[2] * 0.11448223;
}

/* pixelmatch hasManySiblings(): 3+ of the 8 neighbours (the image border
 * counting as one) have the same 32-bit word as (x1, y1). */
static int has_many_siblings(const rf_diff_t *d, const uint8_t *img, uint32_t x1, uint32_t y1)
{
    const uint32_t width = d->width, height = d->height;
    uint32_t x0 = x1 > 0 ? x1 - 1 : 0;
    uint32_t y0 = y1 > 0 ? y1 - 1 : 0;
    uint32_t x2 = x1 + 1 < width ? x1 + 1 : width - 1;
    uint32_t y2 = y1 + 1 < height ? y1 + 1 : height - 1;
    uint32_t val = load32(pixel(d, img, x1, y1));
    int zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0;

    for (uint32_t x = x0; x <= x2; x++) {
        for (uint32_t y = y0; y <= y2; y++) {
            if (x == x1 && y == y1)
                continue;
            zeroes += val == load32(pixel(d, img, x, y));
            if (zeroes > 2)
                return 1;
        }
    }
    return 0;
}

/* pixelmatch antialiased(img, x1, y1, ..., a32, b32): img is the image
 * whose neighbourhood is examined, a and b are that image and the other
 * one, in the sibling test. */
static int antialiased(const rf_diff_t *d, const uint8_t *img, uint32_t x1, uint32_t y1,
                       const uint8_t *a, const uint8_t *b)
{
    const uint32_t width = d->width, height = d->height;
    const int checkerboard = d->o.checkerboard;
    uint32_t x0 = x1 > 0 ? x1 - 1 : 0;
    uint32_t y0 = y1 > 0 ? y1 - 1 : 0;
    uint32_t x2 = x1 + 1 < width ? x1 + 1 : width - 1;
    uint32_t y2 = y1 + 1 < height ? y1 + 1 : height - 1;
    uint64_t pos4 = ((uint64_t)y1 * width + x1) * 4;
    const uint8_t *c = pixel(d, img, x1, y1);
    int zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0;
    double min = 0, max = 0;
    uint32_t min_x = 0, min_y = 0, max_x = 0, max_y = 0;

    /* x outer, y inner, as pixelmatch: the order decides which of equally
     * dark (bright) neighbours is remembered. */
    for (uint32_t x = x0; x <= x2; x++) {
        for (uint32_t y = y0; y <= y2; y++) {
            if (x == x1 && y == y1)
                continue;
            double delta = brightness_delta(c, pixel(d, img, x, y), pos4, checkerboard);
            if (delta == 0) {
                zeroes++;
                if (zeroes > 2)
                    return 0;
            } else if (delta < min) {
                min = delta;
                min_x = x;
                min_y = y;
            } else if (delta > max) {
                max = delta;
                max_x = x;
                max_y = y;
            }
        }
    }

    if (min == 0 || max == 0)
        return 0;

    return (has_many_siblings(d, a, min_x, min_y) && has_many_siblings(d, b, min_x, min_y)) ||
           (has_many_siblings(d, a, max_x, max_y) && has_many_siblings(d, b, max_x, max_y));
}

static inline void draw_pixel(uint8_t *o, const uint8_t rgb[3])
{
    o[0] = rgb[0];
    o[1] = rgb[1];
    o[2] = rgb[2];
    o[3] = 255;
}

/* pixelmatch drawGrayPixel(): the first image's luma faded towards white. */
static inline void draw_gray_pixel(const uint8_t *p, double alpha, uint8_t *o)
{
    double val = 255 + (p[0] * 0.29889531 + p[1] * 0.58662247 + p[2] * 0.11448223 - 255) *
                           alpha * p[3] / 255;
    uint8_t v = js_to_uint8(val);
    o[0] = v;
    o[1] = v;
    o[2] = v;
    o[3] = 255;
}

static void count_pixel(rf_diff_result_t *r, uint32_t x, uint32_t y)
{
    if (r->different == 0) {
        r->x0 = r->x1 = x;
        r->y0 = r->y1 = y;
    } else {
        if (x < r->x0)
            r->x0 = x;
        if (x > r->x1)
            r->x1 = x;
        if (y > r->y1)
            r->y1 = y;
        /* rows are compared in order: y0 never decreases */
    }
    r->different++;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* skip_equal's first part with AVX2: equal pixels eight at a time. */
__attribute__((target("avx2"))) static uint32_t skip8(const uint8_t *ra, const uint8_t *rb,
                                                      uint32_t x, uint32_t w)
{
    for (; x + 8 <= w; x += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(ra + (size_t)x * 4));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(rb + (size_t)x * 4));
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b)) != -1)
            break;
    }
    return x;
}
#define RF_HAVE_SKIP8 1
#else
#define RF_HAVE_SKIP8 0
#endif

/* The first pixel at or after x (x + 4 k for some k) of a group of four
 * that differs somewhere, or past w - 4: equal groups are passed eight
 * pixels at a time with AVX2 (two equal groups), then four. */
static inline uint32_t skip_equal(const uint8_t *ra, const uint8_t *rb, uint32_t x, uint32_t w,
                                  int avx2)
{
    if (!(x + 4 <= w && memcmp(ra + (size_t)x * 4, rb + (size_t)x * 4, 16) == 0))
        return x; /* a difference here: no call */
    x += 4;
#if RF_HAVE_SKIP8
    if (avx2)
        x = skip8(ra, rb, x, w);
#else
    (void)avx2;
#endif
    while (x + 4 <= w && memcmp(ra + (size_t)x * 4, rb + (size_t)x * 4, 16) == 0)
        x += 4;
    return x;
}

/* Compares row y (rows y-2 .. y+2 hold their pixels). */
static void diff_row(rf_diff_t *d, uint32_t y)
{
    const size_t w = d->width;
    const size_t off = (size_t)y * w * 4;
    const uint8_t *ra = pixel(d, d->a, 0, y), *rb = pixel(d, d->b, 0, y);
    uint8_t *ro = d->out != NULL ? d->out + off : NULL;
    const int draw_faded = ro != NULL && !d->o.diff_mask;
    const double alpha = d->o.alpha;

    if (memcmp(ra, rb, w * 4) == 0) {
        /* every delta is 0: the faded copy, as pixelmatch's identical-image
         * fast path and its per-pixel path both draw */
        if (draw_faded)
            for (size_t i = 0; i < w * 4; i += 4)
                draw_gray_pixel(ra + i, alpha, ro + i);
        return;
    }

    const int checkerboard = d->o.checkerboard;
#if RF_HAVE_SKIP8
    const int avx2 = __builtin_cpu_supports("avx2");
#else
    const int avx2 = 0;
#endif
    for (uint32_t x = 0; x < d->width; x++) {
        if (!draw_faded) /* nothing to draw for equal pixels: past them */
            x = skip_equal(ra, rb, x, d->width, avx2);
        if (x >= d->width)
            break;
        const size_t i = (size_t)x * 4;
        if (load32(ra + i) == load32(rb + i)) {
            /* delta 0 is never above maxDelta (35215 t^2 >= 0 or NaN) */
            if (draw_faded)
                draw_gray_pixel(ra + i, alpha, ro + i);
            continue;
        }
        double delta = color_delta(ra + i, rb + i, (uint64_t)off + i, checkerboard);
        if (fabs(delta) > d->max_delta) {
            int excluded_aa =
                !d->o.include_aa &&
                (antialiased(d, d->a, x, y, d->a, d->b) || antialiased(d, d->b, x, y, d->b, d->a));
            if (excluded_aa) {
                /* not drawn in a mask, as pixelmatch */
                if (draw_faded)
                    draw_pixel(ro + i, d->o.aa_color);
                d->r.antialiased++;
            } else {
                if (ro != NULL)
                    draw_pixel(ro + i, delta < 0 ? d->o.diff_color_alt : d->o.diff_color);
                count_pixel(&d->r, x, y);
            }
        } else if (draw_faded) {
            draw_gray_pixel(ra + i, alpha, ro + i);
        }
    }
}

void rf_diff_begin(rf_diff_t *d, const uint8_t *a, const uint8_t *b, uint8_t *out,
                   uint32_t width, uint32_t height, const rf_diff_options_t *o)
{
    rf_diff_begin_ring(d, a, b, out, width, height, 0, o);
}

void rf_diff_begin_ring(rf_diff_t *d, const uint8_t *a, const uint8_t *b, uint8_t *out,
                        uint32_t width, uint32_t height, uint32_t ring,
                        const rf_diff_options_t *o)
{
    static const rf_diff_options_t defaults = RF_DIFF_OPTIONS_DEFAULT;

    memset(d, 0, sizeof *d);
    d->a = a;
    d->b = b;
    d->out = out;
    d->width = width;
    d->height = height;
    d->ring = ring;
    d->mask = ring != 0 ? ring - 1 : UINT32_MAX;
    d->next = 0;
    d->o = o != NULL ? *o : defaults;
    /* pixelmatch: 35215 * threshold * threshold, in that order */
    d->max_delta = RF_DIFF_MAX_DELTA * d->o.threshold * d->o.threshold;
    d->r.pixels = (uint64_t)width * height;
}

uint32_t rf_diff_writable(const rf_diff_t *d)
{
    if (d->ring == 0)
        return UINT32_MAX;
    /* the next comparison, of row next, reads rows next - 2 .. next + 2 */
    uint64_t lim = (uint64_t)d->next + d->ring - 2;
    return lim < UINT32_MAX ? (uint32_t)lim : UINT32_MAX;
}

void rf_diff_feed(rf_diff_t *d, uint32_t rows)
{
    const uint64_t have = rows < d->height ? rows : d->height;
    while (d->next < d->height) {
        uint64_t need = (uint64_t)d->next + 3;
        if (need > d->height)
            need = d->height;
        if (have < need)
            break;
        diff_row(d, d->next);
        d->next++;
    }
}

uint64_t rf_diff_end(rf_diff_t *d, rf_diff_result_t *r)
{
    rf_diff_feed(d, d->height);
    if (r != NULL)
        *r = d->r;
    return d->r.different;
}

uint64_t rf_diff_rgba(const uint8_t *a, const uint8_t *b, uint8_t *out, uint32_t width,
                      uint32_t height, const rf_diff_options_t *o, rf_diff_result_t *r)
{
    rf_diff_t d;
    rf_diff_begin(&d, a, b, out, width, height, o);
    return rf_diff_end(&d, r);
}

int rf_diff_within(const rf_diff_result_t *r, uint64_t max_pixels, double max_ratio)
{
    if (r->different > max_pixels)
        return 0;
    double ratio = r->pixels != 0 ? (double)r->different / (double)r->pixels : 0.0;
    return ratio <= max_ratio;
}

/* One component: decimal digits (leading zeros allowed), value 0..255. */
static const char *parse_component(const char *s, uint8_t *v)
{
    unsigned n = 0;
    const char *start = s;
    for (; *s >= '0' && *s <= '9'; s++)
        if (n <= 255)   /* stays above 255 once there, never overflows */
            n = n * 10 + (unsigned)(*s - '0');
    if (s == start || n > 255)
        return NULL;
    *v = (uint8_t)n;
    return s;
}

int rf_diff_parse_color(const char *s, uint8_t rgb[3])
{
    uint8_t c[3];
    if (s == NULL)
        return -1;
    for (int k = 0; k < 3; k++) {
        if (k > 0) {
            if (*s != ',')
                return -1;
            s++;
            while (*s == ' ')
                s++;
        }
        s = parse_component(s, &c[k]);
        if (s == NULL)
            return -1;
    }
    if (*s != '\0')
        return -1;
    rgb[0] = c[0];
    rgb[1] = c[1];
    rgb[2] = c[2];
    return 0;
}
