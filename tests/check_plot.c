/* check_plot.c - the plot module (plot.h) and the value lists it draws
 * (series.h): tick steps, labels and the y range against values derived by
 * hand from the rules in plot.h; --values lists and --from/--to against
 * the exact messages of `runeframe sample` and `plot`; and one plot written
 * end to end and read back. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#endif
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "diag.h"
#include "plot.h"
#include "pngio.h"
#include "scene.h"
#include "series.h"
#include "values.h"

/* ------------------------------------------------------------------ ticks */

/* [0, 10], about 5 ticks: raw step 2 = 2 x 10^0, ticks 0, 2, .., 10. */
/* The twelve line colors are far apart in OKLab (0.11: about five times the
 * just-noticeable difference) and from the white background (0.25); line
 * 13 is line 1 dashed, line 25 line 1 dotted. */
static void plot_lab(uint32_t rgb, double lab[3])
{
    double lin[3];

    for (int c = 0; c < 3; c++)
        lin[c] = rf_srgb_to_linear(((rgb >> (16 - 8 * c)) & 255) / 255.0);
    rf_linear_to_oklab(lin, lab);
}

START_TEST(test_palette_distinct)
{
    double lab[RF_PLOT_NCOLORS][3], white[3];
    int pattern;

    ck_assert_int_eq(RF_PLOT_NCOLORS, 12);
    plot_lab(0xFFFFFF, white);
    for (long i = 0; i < RF_PLOT_NCOLORS; i++) {
        plot_lab(rf_plot_series_color(i, &pattern), lab[i]);
        ck_assert_int_eq(pattern, 0);
        ck_assert_double_ge(hypot(hypot(lab[i][0] - white[0], lab[i][1] - white[1]),
                                  lab[i][2] - white[2]), 0.25);
        for (long j = 0; j < i; j++) {
            double d = hypot(hypot(lab[i][0] - lab[j][0], lab[i][1] - lab[j][1]),
                             lab[i][2] - lab[j][2]);
            ck_assert_msg(d >= 0.11, "colors %ld and %ld are %.3f apart", j, i, d);
        }
    }
    ck_assert_uint_eq(rf_plot_series_color(12, &pattern), rf_plot_series_color(0, NULL));
    ck_assert_int_eq(pattern, 1);
    ck_assert_uint_eq(rf_plot_series_color(25, &pattern), rf_plot_series_color(1, NULL));
    ck_assert_int_eq(pattern, 2);
    rf_plot_series_color(36, &pattern);
    ck_assert_int_eq(pattern, 0);
}
END_TEST

START_TEST(test_ticks_two)
{
    rf_plot_ticks_t tk = rf_plot_ticks_make(0, 10, 5);
    char buf[64];

    ck_assert_double_eq(tk.step, 2);
    ck_assert_double_eq(tk.first, 0);
    ck_assert_double_eq(tk.last, 5);
    ck_assert_int_eq(tk.decimals, 0);
    rf_plot_tick_label(buf, sizeof buf, &tk, rf_plot_tick_value(&tk, 2));
    ck_assert_str_eq(buf, "4");
}
END_TEST

/* [0, 100], about 4: raw 25 = 2.5 x 10^1, 2.5 < sqrt(10) gives 2: step 20. */
START_TEST(test_ticks_twenty)
{
    rf_plot_ticks_t tk = rf_plot_ticks_make(0, 100, 4);

    ck_assert_double_eq(tk.step, 20);
    ck_assert_double_eq(tk.first, 0);
    ck_assert_double_eq(tk.last, 5);
}
END_TEST

/* raw 4 (in [sqrt(10), sqrt(50))) gives 5; raw 7.5 (>= sqrt(50)) gives 10. */
START_TEST(test_ticks_five_and_ten)
{
    rf_plot_ticks_t five = rf_plot_ticks_make(0, 16, 4);
    rf_plot_ticks_t ten = rf_plot_ticks_make(0, 30, 4);

    ck_assert_double_eq(five.step, 5);
    ck_assert_double_eq(five.last, 3);     /* floor(16 / 5) */
    ck_assert_double_eq(ten.step, 10);
    ck_assert_double_eq(ten.last, 3);
}
END_TEST

/* [0, 1], about 4: raw 0.25 = 2.5 x 10^-1: step 0.2, one decimal. */
START_TEST(test_ticks_decimals)
{
    rf_plot_ticks_t tk = rf_plot_ticks_make(0, 1, 4);
    char buf[64];

    ck_assert_double_eq_tol(tk.step, 0.2, 1e-15);
    ck_assert_double_eq(tk.first, 0);
    ck_assert_double_eq(tk.last, 5);
    ck_assert_int_eq(tk.decimals, 1);
    rf_plot_tick_label(buf, sizeof buf, &tk, rf_plot_tick_value(&tk, 3));
    ck_assert_str_eq(buf, "0.6");
    rf_plot_tick_label(buf, sizeof buf, &tk, rf_plot_tick_value(&tk, 5));
    ck_assert_str_eq(buf, "1.0");
}
END_TEST

/* An interval across 0 starts below it: [-3, 7] about 5: step 2, -1 .. 3. */
START_TEST(test_ticks_negative)
{
    rf_plot_ticks_t tk = rf_plot_ticks_make(-3, 7, 5);
    char buf[64];

    ck_assert_double_eq(tk.step, 2);
    ck_assert_double_eq(tk.first, -1);
    ck_assert_double_eq(tk.last, 3);
    rf_plot_tick_label(buf, sizeof buf, &tk, rf_plot_tick_value(&tk, -1));
    ck_assert_str_eq(buf, "-2");
    /* tick 0 is 0, never -0 */
    ck_assert_int_eq(signbit(rf_plot_tick_value(&tk, -0.0)), 0);
}
END_TEST

/* [0, 1e20], about 4: step 2e19, labels 21 digits long in fixed notation
 * against 7 in d.de+NN: the exponent form with one mantissa decimal. */
START_TEST(test_ticks_exponent)
{
    rf_plot_ticks_t tk = rf_plot_ticks_make(0, 1e20, 4);
    char buf[64];

    ck_assert_double_eq(tk.step, 2e19);
    ck_assert_double_eq(tk.last, 5);
    ck_assert_int_eq(tk.decimals, -1);
    ck_assert_int_eq(tk.exp_digits, 1);
    rf_plot_tick_label(buf, sizeof buf, &tk, rf_plot_tick_value(&tk, 5));
    ck_assert_str_eq(buf, "1.0e+20");
    rf_plot_tick_label(buf, sizeof buf, &tk, rf_plot_tick_value(&tk, 0));
    ck_assert_str_eq(buf, "0");
}
END_TEST

/* A degenerate interval still gets a step, and ticks are capped. */
START_TEST(test_ticks_degenerate)
{
    rf_plot_ticks_t one = rf_plot_ticks_make(5, 5, 4);
    rf_plot_ticks_t many = rf_plot_ticks_make(0, 1e6, 1e6);

    ck_assert(one.step > 0);
    ck_assert(one.first <= one.last);
    ck_assert_double_eq(many.step, 1);
    ck_assert_double_eq(many.last - many.first, RF_PLOT_MAX_TICKS);
}
END_TEST

START_TEST(test_y_range)
{
    const double span[] = { 1, NAN, 3, INFINITY };
    const double flat[] = { 2, 2 };
    const double zero[] = { 0 };
    const double none[] = { NAN, -INFINITY };
    double lo, hi;

    /* 5% of the span 2 on each side; non-finite samples are not data */
    rf_plot_y_range(span, 4, &lo, &hi);
    ck_assert_double_eq_tol(lo, 0.9, 1e-15);
    ck_assert_double_eq_tol(hi, 3.1, 1e-15);
    /* a constant: +-5% of it */
    rf_plot_y_range(flat, 2, &lo, &hi);
    ck_assert_double_eq_tol(lo, 1.9, 1e-15);
    ck_assert_double_eq_tol(hi, 2.1, 1e-15);
    /* 0: +-1 */
    rf_plot_y_range(zero, 1, &lo, &hi);
    ck_assert_double_eq(lo, -1);
    ck_assert_double_eq(hi, 1);
    rf_plot_y_range(none, 2, &lo, &hi);
    ck_assert_double_eq(lo, -1);
    ck_assert_double_eq(hi, 1);
}
END_TEST

/* ----------------------------------------------------------------- series */

static const char scene_json[] =
    "{\n"
    "  \"runeframe\": 1,\n"
    "  \"canvas\": { \"width\": 64, \"height\": 48 },\n"
    "  \"timeline\": { \"fps\": 10, \"duration\": 1 },\n"
    "  \"values\": {\n"
    "    \"alpha\": 5,\n"
    "    \"prog\": { \"tween\": { \"from\": 0, \"to\": 1, \"duration\": 1, \"easing\": \"linear\" } },\n"
    "    \"p\": { \"sample_path\": { \"path\": \"ell\", \"progress\": \"prog\" } }\n"
    "  },\n"
    "  \"paths\": { \"ell\": \"M 0 0 L 100 0 L 100 50\" },\n"
    "  \"layers\": [ { \"type\": \"circle\", \"x\": \"p.x\", \"y\": \"p.y\", \"r\": \"alpha\" } ]\n"
    "}\n";

static char scene_path[64];
static rf_scene_t *scene;
static char message[512];

static void record(const void *ctx, const char *fmt, va_list ap)
{
    (void)ctx;
    vsnprintf(message, sizeof message, fmt, ap);
}

static const rf_series_report_t report = { record, NULL };

static void scene_setup(void)
{
    rf_diag_t *diag = malloc(sizeof *diag);

    ck_assert_ptr_nonnull(diag);
    rf_diag_init(diag, scene_path);
    scene = rf_scene_load(scene_path, diag);
    free(diag);
    ck_assert_ptr_nonnull(scene);
    message[0] = '\0';
}

static void scene_teardown(void)
{
    rf_scene_destroy(scene);
    scene = NULL;
}

START_TEST(test_series_all)
{
    rf_series_item_t *it = NULL;
    size_t n = 0;
    const rf_value_t *p = rf_values_find(&scene->values, "p");

    ck_assert_int_eq(rf_series_resolve(&scene->values, NULL, RF_SERIES_ALL, 0, &it, &n, &report),
                     RF_SERIES_OK);
    /* alpha, prog, p.x, p.y, p.angle */
    ck_assert_uint_eq(n, 5);
    ck_assert_str_eq(it[0].value->name, "alpha");
    ck_assert_int_eq(it[0].output, -1);
    ck_assert_ptr_eq(it[2].value, p);
    ck_assert_int_eq(it[2].output, 0);
    ck_assert_uint_eq(it[2].slot, p->slot);
    ck_assert_int_eq(it[4].output, 2);
    ck_assert_uint_eq(it[4].slot, p->slot + 2);
    free(it);
    /* plot's rule: a path sample named alone is its x and y */
    ck_assert_int_eq(rf_series_resolve(&scene->values, NULL, RF_SERIES_POSITION, 0, &it, &n,
                                       &report), RF_SERIES_OK);
    ck_assert_uint_eq(n, 4);
    free(it);
    ck_assert_int_eq(rf_series_resolve(&scene->values, NULL, RF_SERIES_POSITION, 3, &it, &n,
                                       &report), RF_SERIES_TOO_MANY);
    ck_assert_str_eq(message, "");
}
END_TEST

START_TEST(test_series_list)
{
    rf_series_item_t *it = NULL;
    size_t n = 0;

    ck_assert_int_eq(rf_series_resolve(&scene->values, " p.angle ,alpha,\tp.y", RF_SERIES_ALL, 0,
                                       &it, &n, &report), RF_SERIES_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(it[0].output, 2);
    ck_assert_str_eq(rf_value_output_name(it[0].value, (uint32_t)it[0].output), "angle");
    ck_assert_str_eq(it[1].value->name, "alpha");
    ck_assert_int_eq(it[2].output, 1);
    free(it);
}
END_TEST

/* The exact messages `sample` and `plot` print after "runeframe: CMD: ". */
START_TEST(test_series_errors)
{
    rf_series_item_t *it = NULL;
    size_t n = 0;

    ck_assert_int_eq(rf_series_resolve(&scene->values, "alpa", RF_SERIES_ALL, 0, &it, &n,
                                       &report), RF_SERIES_BAD);
    ck_assert_str_eq(message, "unknown value 'alpa' (did you mean 'alpha'?)");
    ck_assert_int_eq(rf_series_resolve(&scene->values, "alpha,,p", RF_SERIES_ALL, 0, &it, &n,
                                       &report), RF_SERIES_BAD);
    ck_assert_str_eq(message, "--values must list value names, got 'alpha,,p'");
    ck_assert_int_eq(rf_series_resolve(&scene->values, "p.z", RF_SERIES_ALL, 0, &it, &n,
                                       &report), RF_SERIES_BAD);
    ck_assert_str_eq(message, "unknown value 'p.z' ('p' has no output 'z')");
    ck_assert_int_eq(rf_series_resolve(&scene->values, "alpha.x", RF_SERIES_ALL, 0, &it, &n,
                                       &report), RF_SERIES_BAD);
    ck_assert_str_eq(message, "unknown value 'alpha.x' ('alpha' has no output 'x')");
}
END_TEST

START_TEST(test_series_span)
{
    rf_series_span_t span = { 0 };
    double from, to;

    rf_series_span_ends(&span, 2.5, &from, &to);
    ck_assert_double_eq(from, 0);
    ck_assert_double_eq(to, 2.5);
    ck_assert_int_eq(rf_series_span_set(&span, 0, "0.5", &report), 0);
    ck_assert_int_eq(rf_series_span_set(&span, 1, "1e0", &report), 0);
    rf_series_span_ends(&span, 2.5, &from, &to);
    ck_assert_double_eq(from, 0.5);
    ck_assert_double_eq(to, 1);
    ck_assert_int_eq(rf_series_span_set(&span, 1, "-1", &report), -1);
    ck_assert_str_eq(message, "--to must be a number >= 0, got '-1'");
    ck_assert_int_eq(rf_series_span_set(&span, 0, " 1", &report), -1);
    ck_assert_str_eq(message, "--from must be a number >= 0, got ' 1'");
    ck_assert_int_eq(rf_series_span_set(&span, 0, "inf", &report), -1);
    ck_assert_double_eq(span.from, 0.5);   /* unchanged by a bad argument */
}
END_TEST

/* A plot written end to end: a PNG of the asked size, white at the corner
 * (the background), with some pixel of the first line's blue. */
START_TEST(test_plot_write)
{
    rf_series_item_t *it = NULL;
    size_t n = 0;
    rf_plot_spec_t spec;
    char path[64], err[256];
    rf_png_rgba_t img;
    rf_png_error_t perr;
    int fd, blue = 0;

    ck_assert_int_eq(rf_series_resolve(&scene->values, "prog", RF_SERIES_POSITION, 0, &it, &n,
                                       &report), RF_SERIES_OK);
    snprintf(path, sizeof path, "/tmp/check_plot_XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    spec.values = &scene->values;
    spec.series = it;
    spec.nseries = n;
    spec.from = 0;
    spec.to = 1;
    spec.width = 320;
    spec.height = 200;
    ck_assert_int_eq(rf_plot_write(&spec, path, err, sizeof err), 0);
    ck_assert_int_eq(rf_png_read_path(path, &img, &perr), RF_PNG_SUCCESS);
    ck_assert_uint_eq(img.width, 320);
    ck_assert_uint_eq(img.height, 200);
    ck_assert_uint_eq(img.pixels[0], 255);
    ck_assert_uint_eq(img.pixels[1], 255);
    ck_assert_uint_eq(img.pixels[2], 255);
    for (size_t i = 0; i < (size_t)img.width * img.height; i++) {
        const uint8_t *px = img.pixels + 4 * i;
        if (px[0] == 0x00 && px[1] == 0x72 && px[2] == 0xB2)   /* the palette's blue */
            blue++;
    }
    ck_assert_int_gt(blue, 0);
    rf_png_rgba_destroy(&img);
    /* an unwritable path: -1 and the writer's reason */
    ck_assert_int_eq(rf_plot_write(&spec, "/nonexistent-dir/x.png", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/x.png"));
    unlink(path);
    free(it);
}
END_TEST

static Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("ticks");

    tcase_add_test(tc, test_ticks_two);
    tcase_add_test(tc, test_palette_distinct);
    tcase_add_test(tc, test_ticks_twenty);
    tcase_add_test(tc, test_ticks_five_and_ten);
    tcase_add_test(tc, test_ticks_decimals);
    tcase_add_test(tc, test_ticks_negative);
    tcase_add_test(tc, test_ticks_exponent);
    tcase_add_test(tc, test_ticks_degenerate);
    tcase_add_test(tc, test_y_range);
    suite_add_tcase(s, tc);
    tc = tcase_create("series");
    tcase_add_checked_fixture(tc, scene_setup, scene_teardown);
    tcase_add_test(tc, test_series_all);
    tcase_add_test(tc, test_series_list);
    tcase_add_test(tc, test_series_errors);
    tcase_add_test(tc, test_series_span);
    tcase_add_test(tc, test_plot_write);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    int fd, failed;
    SRunner *sr;

    snprintf(scene_path, sizeof scene_path, "/tmp/check_plot_XXXXXX");
    fd = mkstemp(scene_path);
    if (fd < 0 || write(fd, scene_json, sizeof scene_json - 1) != (ssize_t)(sizeof scene_json - 1)
        || close(fd) != 0) {
        perror(scene_path);
        return 1;
    }
    sr = srunner_create(plot_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    unlink(scene_path);
    return failed == 0 ? 0 : 1;
}
