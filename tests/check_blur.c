/* check_blur.c - the blur module against independent references: the
 * W3C feGaussianBlur of one white pixel computed in Python (tests/blur-ref.py
 * printed tests/blur-ref.h; exact integers), the box size formula by hand,
 * and the blur of a wide edge against the Gaussian's CDF within the box
 * approximation's error. */
#include <check.h>
#include <math.h>
#include <stdint.h>
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

static Suite *blur_suite(void)
{
    Suite *s = suite_create("blur");
    TCase *tc = tcase_create("w3c");
    tcase_add_test(tc, test_box_size);
    tcase_add_test(tc, test_white_pixel);
    tcase_add_test(tc, test_edge_cdf);
    tcase_add_test(tc, test_a8_white_pixel);
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
