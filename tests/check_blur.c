/* check_blur.c - the blur module against independent references: the
 * W3C feGaussianBlur of one white pixel computed in Python (tests/blur-ref.py
 * printed tests/blur-ref.h; exact integers), the box size formula by hand,
 * and the blur of a wide edge against the Gaussian's CDF within the box
 * approximation's error. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blur.h"
#include "blur-ref.h"

START_TEST(test_box_size)
{
    /* d = floor(s * 3 * sqrt(2 pi) / 4 + 0.5); 3 sqrt(2 pi) / 4 = 1.87997 */
    ck_assert_int_eq(rf_blur_box_size(2), 4);    /* 3.76 + 0.5 */
    ck_assert_int_eq(rf_blur_box_size(2.5), 5);  /* 4.70 + 0.5 */
    ck_assert_int_eq(rf_blur_box_size(3), 6);    /* 5.64 + 0.5 */
    ck_assert_int_eq(rf_blur_box_size(12), 23);  /* 22.56 + 0.5 */
    ck_assert_int_eq(rf_blur_reach(2.5), 8);
    ck_assert_int_eq(rf_blur_reach(0), 0);
    ck_assert_int_eq(rf_blur_reach(NAN), 0);
}
END_TEST

START_TEST(test_white_pixel)
{
    int n = BLUR_REF_N, stride = n * 4 + 12; /* a stride wider than the row */
    uint8_t *pix = malloc((size_t)stride * (size_t)n);
    void *line = malloc(RF_BLUR_WORK(n, n));
    ck_assert(pix && line);
    for (size_t k = 0; k < sizeof blur_ref / sizeof blur_ref[0]; k++) {
        memset(pix, 0, (size_t)stride * (size_t)n);
        memset(pix + (size_t)(n / 2) * (size_t)stride + 4 * (size_t)(n / 2), 255, 4);
        if (blur_ref[k].d)
            ck_assert_int_eq(rf_blur_box_size(blur_ref[k].s), blur_ref[k].d);
        rf_blur_argb32(pix, stride, n, n, blur_ref[k].s, line);
        int nonzero = 0;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                for (int c = 0; c < 4; c++) {
                    int got = pix[(size_t)y * (size_t)stride + 4 * (size_t)x + (size_t)c];
                    ck_assert_msg(got == blur_ref[k].px[y * n + x], "s=%g (%d, %d): %d, want %d",
                                  blur_ref[k].s, x, y, got, blur_ref[k].px[y * n + x]);
                    nonzero += got != 0;
                }
        ck_assert_int_gt(nonzero, 4 * 9); /* the test sees a spread pixel */
    }
    free(pix);
    free(line);
}
END_TEST

/* A wide edge: columns x < 100 opaque white, the rest transparent; the
 * blurred row is 255 (1 - Phi((x + 0.5 - 100) / s)) up to the three-box
 * approximation's error (under 3 % of full scale for these s) and the
 * rounding of each pass. */
START_TEST(test_edge_cdf)
{
    int w = 200, h = 81;
    uint8_t *pix = malloc((size_t)w * 4 * (size_t)h);
    void *line = malloc(RF_BLUR_WORK(w, h));
    ck_assert(pix && line);
    static const double ss[] = { 1.5, 2, 5, 12.5 };
    for (size_t k = 0; k < sizeof ss / sizeof ss[0]; k++) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                memset(pix + ((size_t)y * (size_t)w + (size_t)x) * 4, x < 100 ? 255 : 0, 4);
        /* rows of equal content: the vertical passes change nothing farther
         * than 3 s from the ends, so the middle row is the horizontal blur
         * (up to rounding) */
        rf_blur_argb32(pix, w * 4, w, h, ss[k], line);
        double worst = 0;
        for (int x = 40; x < 160; x++) {
            double want = 255 * 0.5 * erfc((x + 0.5 - 100) / (ss[k] * sqrt(2.0)));
            double got = pix[((size_t)(h / 2) * (size_t)w + (size_t)x) * 4 + 3];
            worst = fmax(worst, fabs(got - want));
        }
        ck_assert_msg(worst <= 0.03 * 255 + 2, "s=%g: off by %g", ss[k], worst);
    }
    free(pix);
    free(line);
}
END_TEST

/* The A8 blur against the W3C reference (blur-ref.h, from Python) on the
 * white pixel, with a stride wider than the row and an odd width. */
START_TEST(test_a8_white_pixel)
{
    int n = BLUR_REF_N, stride = n + 5;
    uint8_t *pix = malloc((size_t)stride * (size_t)n);
    void *line = malloc(RF_BLUR_WORK(n, n));
    ck_assert(pix && line);
    for (size_t k = 0; k < sizeof blur_ref / sizeof blur_ref[0]; k++) {
        memset(pix, 0, (size_t)stride * (size_t)n);
        pix[(size_t)(n / 2) * (size_t)stride + (size_t)(n / 2)] = 255;
        rf_blur_a8(pix, stride, n, n, blur_ref[k].s, line);
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int got = pix[(size_t)y * (size_t)stride + (size_t)x];
                ck_assert_msg(got == blur_ref[k].px[y * n + x], "a8 s=%g (%d, %d): %d, want %d",
                              blur_ref[k].s, x, y, got, blur_ref[k].px[y * n + x]);
            }
    }
    free(pix);
    free(line);
}
END_TEST

/* ---- every box size on full-range pixels ----
 *
 * A reference written from the W3C text alone, plainly: each box pass
 * takes the window sum from prefix sums and divides with C's integer
 * division, (sum + d / 2) / d; rows first, then columns, every channel on
 * its own. blur.c's passes (16-bit sums with a reciprocal where exact,
 * 32-bit sums otherwise, vectorized blocks and their remainders, the
 * transposes) must give the same bytes for every box size d from 4 to
 * 271 (s from 2 to 144). */

static void ref_box(int *v, int n, int stride, int lo, int hi, int *pre, int *tmp)
{
    int d = lo + hi + 1;
    pre[0] = 0;
    for (int i = 0; i < n; i++)
        pre[i + 1] = pre[i] + v[i * stride];
    for (int i = 0; i < n; i++) {
        int a = i - lo < 0 ? 0 : i - lo, b = i + hi + 1 > n ? n : i + hi + 1;
        tmp[i] = (pre[b] - pre[a] + d / 2) / d;
    }
    for (int i = 0; i < n; i++)
        v[i * stride] = tmp[i];
}

static void ref_line(int *v, int n, int stride, double s, int *pre, int *tmp)
{
    int d = (int)floor(s * 3 * sqrt(2 * M_PI) / 4 + 0.5);
    if (d % 2) {
        for (int k = 0; k < 3; k++)
            ref_box(v, n, stride, d / 2, d / 2, pre, tmp);
    } else {
        ref_box(v, n, stride, d / 2, d / 2 - 1, pre, tmp);
        ref_box(v, n, stride, d / 2 - 1, d / 2, pre, tmp);
        ref_box(v, n, stride, d / 2, d / 2, pre, tmp);
    }
}

/* The copies of the box pass blur.c builds (AVX-512, AVX2, baseline) give
 * the same bytes: the loop tests run once per RF_BLUR_ISA cap (a cap above
 * what the CPU has changes nothing). */
static const char *const isa_caps[] = { "", "avx2", "base" };

START_TEST(test_every_box_size)
{
    setenv("RF_BLUR_ISA", isa_caps[_i], 1);
    static const int sizes[][2] = { { 37, 23 }, { 75, 9 }, { 5, 70 } };
    uint32_t seed = 12345;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int w = sizes[z][0], h = sizes[z][1], stride = w * 4 + 20, n = w > h ? w : h, bad = 0;
        uint8_t *pix = malloc((size_t)stride * (size_t)h), *orig = malloc((size_t)stride * (size_t)h);
        int *ref = malloc(sizeof(int) * (size_t)w * (size_t)h * 4);
        int *pre = malloc(sizeof(int) * (size_t)(n + 1)), *tmp = malloc(sizeof(int) * (size_t)n);
        void *line = malloc(RF_BLUR_WORK(w, h));
        ck_assert(pix && orig && ref && pre && tmp && line);
        /* premultiplied pixels: a block of opaque white (the largest sums),
         * the rest random, each channel at most its alpha */
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint8_t *p = orig + (size_t)y * (size_t)stride + 4 * (size_t)x;
                seed = seed * 1103515245u + 12345u;
                int a = x < w / 2 && y < h / 2 ? 255 : (int)(seed >> 16 & 255);
                p[3] = (uint8_t)a;
                for (int c = 0; c < 3; c++) {
                    seed = seed * 1103515245u + 12345u;
                    p[c] = x < w / 2 && y < h / 2 ? 255 : (uint8_t)((seed >> 16 & 0xffff) % (unsigned)(a + 1));
                }
            }
        int last_d = 0;
        for (double s = 2; s <= 144; s += 0.125) {
            int d = rf_blur_box_size(s);
            if (d == last_d)
                continue; /* one s per box size */
            last_d = d;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w * 4; x++)
                    ref[(size_t)y * (size_t)w * 4 + (size_t)x] = orig[(size_t)y * (size_t)stride + (size_t)x];
            for (int y = 0; y < h; y++)
                for (int c = 0; c < 4; c++)
                    ref_line(ref + (size_t)y * (size_t)w * 4 + (size_t)c, w, 4, s, pre, tmp);
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 4; c++)
                    ref_line(ref + 4 * (size_t)x + (size_t)c, h, w * 4, s, pre, tmp);
            memcpy(pix, orig, (size_t)stride * (size_t)h);
            rf_blur_argb32(pix, stride, w, h, s, line);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w * 4; x++) {
                    int got = pix[(size_t)y * (size_t)stride + (size_t)x];
                    int want = ref[(size_t)y * (size_t)w * 4 + (size_t)x];
                    if (got != want && bad++ < 5)
                        fprintf(stderr, "%dx%d d=%d (%d, %d) channel %d: %d, want %d\n", w, h, d,
                                x / 4, y, x % 4, got, want);
                }
            /* the A8 blur of the alpha channel alone gives the same alpha */
            uint8_t *a8 = malloc((size_t)(w + 3) * (size_t)h);
            ck_assert_ptr_nonnull(a8);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    a8[(size_t)y * (size_t)(w + 3) + (size_t)x] =
                        orig[(size_t)y * (size_t)stride + 4 * (size_t)x + 3];
            rf_blur_a8(a8, w + 3, w, h, s, line);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    bad += a8[(size_t)y * (size_t)(w + 3) + (size_t)x] !=
                           ref[(size_t)y * (size_t)w * 4 + 4 * (size_t)x + 3];
            free(a8);
        }
        ck_assert_int_eq(bad, 0);
        ck_assert_int_ge(last_d, 271);
        free(pix);
        free(orig);
        free(ref);
        free(pre);
        free(tmp);
        free(line);
    }
}
END_TEST

/* Every window sum a box pass can see, for every box size d from 4 to
 * 271: 8 equal rows whose pixels are min(255, floor(x / d)) in all four
 * channels, so the first pass's window sum grows by one a pixel from 0 to
 * 255 d (the 16-bit reciprocal must divide each exactly; it does not for
 * some d past 185 without its check). Columns of 8 equal rows are 32
 * channels in the transposed row pass: one vectorized block. */
START_TEST(test_every_window_sum)
{
    setenv("RF_BLUR_ISA", isa_caps[_i], 1);
    enum { H = 8, DMAX = 272 };
    int last_d = 0, wmax = 257 * DMAX, bad = 0;
    uint8_t *pix = malloc((size_t)wmax * 4 * H);
    int *row = malloc(sizeof(int) * (size_t)wmax), *pre = malloc(sizeof(int) * (size_t)(wmax + 1));
    int *tmp = malloc(sizeof(int) * (size_t)wmax), col[256][H];
    void *line = malloc(RF_BLUR_WORK(wmax, H));
    ck_assert(pix && row && pre && tmp && line);
    for (double s = 2; s <= 144; s += 0.125) {
        int d = rf_blur_box_size(s);
        if (d == last_d)
            continue;
        last_d = d;
        ck_assert_int_le(d, DMAX);
        int w = 257 * d;
        for (int x = 0; x < w; x++) {
            row[x] = x / d < 255 ? x / d : 255;
            for (int y = 0; y < H; y++)
                memset(pix + ((size_t)y * (size_t)w + (size_t)x) * 4, row[x], 4);
        }
        ref_line(row, w, 1, s, pre, tmp);
        /* a column of 8 equal values v, blurred: one per v */
        for (int v = 0; v < 256; v++) {
            for (int y = 0; y < H; y++)
                col[v][y] = v;
            ref_line(col[v], H, 1, s, pre, tmp);
        }
        rf_blur_argb32(pix, w * 4, w, H, s, line);
        for (int x = 0; x < w; x++)
            for (int y = 0; y < H; y++)
                for (int c = 0; c < 4; c++) {
                    int got = pix[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)c];
                    if (got != col[row[x]][y] && bad++ < 5) /* Check writes at every assert */
                        fprintf(stderr, "d=%d (%d, %d): %d, want %d\n", d, x, y, got, col[row[x]][y]);
                }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_ge(last_d, 271);
    free(pix);
    free(row);
    free(pre);
    free(tmp);
    free(line);
}
END_TEST

/* The mean of every window sum for every box size the blur's cap allows
 * that fits 16 bits, exhaustively: the reciprocal is taken only where it
 * divides exactly (without its check, 27 sizes past 185 are off by one
 * for some sums, e.g. d = 186 at the sum 47150). */
START_TEST(test_box_mean)
{
    int bad = 0;
    for (unsigned d = 1; d <= 300; d++)
        for (unsigned v = 0; v <= 255 * d; v++)
            if (rf_blur_box_mean(d, v) != (v + d / 2) / d && bad++ < 5)
                fprintf(stderr, "d=%u v=%u: %u\n", d, v, rf_blur_box_mean(d, v));
    ck_assert_int_eq(bad, 0);
}
END_TEST

static Suite *blur_suite(void)
{
    Suite *s = suite_create("blur");
    TCase *tc = tcase_create("w3c");
    tcase_add_test(tc, test_box_size);
    tcase_add_test(tc, test_white_pixel);
    tcase_add_test(tc, test_edge_cdf);
    tcase_add_test(tc, test_a8_white_pixel);
    tcase_add_loop_test(tc, test_every_box_size, 0, 3);
    tcase_add_test(tc, test_box_mean);
    tcase_add_loop_test(tc, test_every_window_sum, 0, 3);
    tcase_set_timeout(tc, 60); /* 268 box sizes on three regions: a loaded machine */
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(blur_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
