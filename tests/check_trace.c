/* check_trace.c - value traces (trace.h): the format against hand-written
 * headers, the closed forms and `runeframe sample`'s own output; parsing of
 * hostile files with exact messages; compare; move lines.
 *
 * Expected strings are written by hand; numbers come from closed forms or
 * from the evaluated slots read back with strtod here, never from what the
 * trace module printed.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mkstemp, popen, mkfifo, ftruncate */
#endif
#include <check.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "diag.h"
#include "scene.h"
#include "trace.h"
#include "values.h"
#include "testutil.h"

/* Every kind the brief names: static, spring, sequence, expr, sample_path,
 * and expressions that are NaN, +inf and -inf at every time. */
static const char scene_json[] =
    "{\n"
    "  \"runeframe\": 1,\n"
    "  \"canvas\": { \"width\": 64, \"height\": 48 },\n"
    "  \"timeline\": { \"fps\": 30, \"duration\": 2 },\n"
    "  \"values\": {\n"
    "    \"a\": 5,\n"
    "    \"b\": { \"spring\": { \"from\": 0, \"to\": 100, \"stiffness\": 170, \"damping\": 10 } },\n"
    "    \"s\": { \"sequence\": [\n"
    "      { \"at\": 0, \"spring\": { \"from\": 0, \"to\": 1 } },\n"
    "      { \"at\": 0.5, \"tween\": { \"to\": 2, \"duration\": 0.5 } }\n"
    "    ] },\n"
    "    \"prog\": { \"tween\": { \"from\": 0, \"to\": 1, \"duration\": 2, \"easing\": \"linear\" } },\n"
    "    \"p\": { \"sample_path\": { \"path\": \"ell\", \"progress\": \"prog\" } },\n"
    "    \"e\": { \"expr\": \"b * 2 + p.x\" },\n"
    "    \"nn\": { \"expr\": \"sqrt(a - 6)\" },\n"
    "    \"ii\": { \"expr\": \"1 / (a - 5)\" },\n"
    "    \"ni\": { \"expr\": \"log(a - 5)\" }\n"
    "  },\n"
    "  \"paths\": { \"ell\": \"M 0 0 L 100 0 L 100 50\" },\n"
    "  \"layers\": [ { \"type\": \"circle\", \"x\": \"e\", \"y\": \"p.y\", \"r\": 3, \"fill\": \"#fff\" } ]\n"
    "}\n";

/* Written by hand from the scene above: file order, p has three outputs. */
static const char scene_header[] = "t,a,b,s,prog,p.x,p.y,p.angle,e,nn,ii,ni\n";
#define NFIELDS 12   /* t and 11 outputs */

static char scene_path[64];

/* Times: frames 0, 10, 15, 30, 60 at 30 fps, one off the grid, one after the end. */
#define NTIMES 7
static double times[NTIMES];

typedef struct fixture {
    rf_scene_t *scene;
    const rf_values_t *vs;
    double *slots;      /* NTIMES rows of vs->nslots */
    char *text;         /* the formatted trace */
    size_t len;
} fixture_t;

static void fixture_load(fixture_t *fx)
{
    rf_diag_t *diag = malloc(sizeof *diag);

    ck_assert_ptr_nonnull(diag);
    rf_diag_init(diag, scene_path);
    fx->scene = rf_scene_load(scene_path, diag);
    if (fx->scene == NULL)
        for (int i = 0; i < diag->count; i++)
            fprintf(stderr, "unexpected: %s\n", diag->msg[i]);
    free(diag);
    ck_assert_ptr_nonnull(fx->scene);
    fx->vs = &fx->scene->values;
    ck_assert_uint_eq(fx->vs->nnamed, 9);
    times[0] = rf_scene_frame_time(fx->scene, 0);
    times[1] = rf_scene_frame_time(fx->scene, 10);
    times[2] = rf_scene_frame_time(fx->scene, 15);
    times[3] = rf_scene_frame_time(fx->scene, 30);
    times[4] = rf_scene_frame_time(fx->scene, 60);
    times[5] = 0.1234;
    times[6] = 7.25;
    fx->slots = malloc(NTIMES * fx->vs->nslots * sizeof *fx->slots);
    ck_assert_ptr_nonnull(fx->slots);
    for (int i = 0; i < NTIMES; i++)
        rf_values_eval(fx->vs, times[i], fx->slots + (size_t)i * fx->vs->nslots);
    ck_assert_int_eq(rf_trace_format(fx->vs, NULL, times, fx->slots, NTIMES, &fx->text, &fx->len), 0);
    ck_assert_ptr_nonnull(fx->text);
    ck_assert_uint_eq(strlen(fx->text), fx->len);
}

static void fixture_free(fixture_t *fx)
{
    free(fx->text);
    free(fx->slots);
    rf_scene_destroy(fx->scene);
}

/* The slot of value name's output j. */
static uint32_t slot_of(const rf_values_t *vs, const char *name, uint32_t j)
{
    const rf_value_t *v = rf_values_find(vs, name);

    ck_assert_ptr_nonnull(v);
    ck_assert_uint_lt(j, v->nout);
    return v->slot + j;
}

/* Same double, NaN equal to NaN. */
static int same(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

/* The under-damped spring of the contract, in long double. */
static long double spring_ref(long double t, long double from, long double to, long double k,
                              long double c)
{
    long double w = sqrtl(k), z = c / (2 * sqrtl(k)), A = from - to;
    long double wd = w * sqrtl(1 - z * z), B = (z * w * A) / wd;

    return to + expl(-z * w * t) * (A * cosl(wd * t) + B * sinl(wd * t));
}

/* ---- format ---- */

START_TEST(test_format_header_and_fields)
{
    fixture_t fx = { 0 };
    const char *line;
    size_t nl = 0;

    fixture_load(&fx);
    ck_assert_uint_ge(fx.len, strlen(scene_header));
    ck_assert(memcmp(fx.text, scene_header, strlen(scene_header)) == 0);
    for (size_t i = 0; i < fx.len; i++)
        nl += fx.text[i] == '\n';
    ck_assert_uint_eq(nl, 1 + NTIMES);
    ck_assert_int_eq(fx.text[fx.len - 1], '\n');
    ck_assert_ptr_null(strchr(fx.text, '\r'));

    line = fx.text + strlen(scene_header);
    for (int r = 0; r < NTIMES; r++) {
        const double *row = fx.slots + (size_t)r * fx.vs->nslots;
        const char *eol = strchr(line, '\n');
        double f[NFIELDS];
        int k = 0;

        ck_assert_ptr_nonnull(eol);
        for (const char *p = line; p <= eol; k++) {
            char *end;

            ck_assert_int_lt(k, NFIELDS);
            f[k] = strtod(p, &end);
            ck_assert(end > p);
            ck_assert(*end == ',' || *end == '\n');
            if (*end == '\n')
                ck_assert_ptr_eq(end, eol);
            p = end + 1;
        }
        ck_assert_int_eq(k, NFIELDS);
        /* each field reads back as exactly the evaluated double */
        ck_assert(same(f[0], times[r]));
        ck_assert(same(f[1], row[slot_of(fx.vs, "a", 0)]));
        ck_assert(same(f[2], row[slot_of(fx.vs, "b", 0)]));
        ck_assert(same(f[3], row[slot_of(fx.vs, "s", 0)]));
        ck_assert(same(f[4], row[slot_of(fx.vs, "prog", 0)]));
        ck_assert(same(f[5], row[slot_of(fx.vs, "p", 0)]));
        ck_assert(same(f[6], row[slot_of(fx.vs, "p", 1)]));
        ck_assert(same(f[7], row[slot_of(fx.vs, "p", 2)]));
        ck_assert(same(f[8], row[slot_of(fx.vs, "e", 0)]));
        ck_assert(same(f[9], row[slot_of(fx.vs, "nn", 0)]));
        ck_assert(same(f[10], row[slot_of(fx.vs, "ii", 0)]));
        ck_assert(same(f[11], row[slot_of(fx.vs, "ni", 0)]));
        /* and the doubles are the scene's, by closed forms */
        ck_assert(f[1] == 5.0);
        ck_assert(f[8] == f[2] * 2 + f[5]);
        ck_assert(isnan(f[9]));
        ck_assert(isinf(f[10]) && f[10] > 0);
        ck_assert(isinf(f[11]) && f[11] < 0);
        if (times[r] <= 1.0)
            ck_assert(fabsl((long double)f[2] - spring_ref(times[r], 0, 100, 170, 10)) < 1e-9L);
        else   /* settled (threshold 0.01) */
            ck_assert(fabsl((long double)f[2] - spring_ref(times[r], 0, 100, 170, 10)) <= 0.01L);
        ck_assert(fabs(f[4] - fmin(times[r] / 2, 1)) < 1e-12);
        line = eol + 1;
    }
    /* row 0: everything at rest; row 4 (t = 2): the end of the L shape */
    ck_assert(strncmp(fx.text + strlen(scene_header), "0,5,0,0,0,0,0,0,0,nan,inf,-inf\n", 31) == 0);
    {
        const double *row = fx.slots + 4 * fx.vs->nslots;
        ck_assert(fabs(row[slot_of(fx.vs, "p", 0)] - 100) < 1e-9);
        ck_assert(fabs(row[slot_of(fx.vs, "p", 1)] - 50) < 1e-9);
        ck_assert(fabs(row[slot_of(fx.vs, "p", 2)] - 90) < 1e-9);
        ck_assert(row[slot_of(fx.vs, "s", 0)] == 2.0);
    }
    fixture_free(&fx);
}
END_TEST

START_TEST(test_format_no_rows)
{
    fixture_t fx = { 0 };
    char *text = NULL;
    size_t len = 99;

    fixture_load(&fx);
    ck_assert_int_eq(rf_trace_format(fx.vs, NULL, times, fx.slots, 0, &text, &len), 0);
    ck_assert_str_eq(text, scene_header);
    ck_assert_uint_eq(len, strlen(scene_header));
    free(text);
    fixture_free(&fx);
}
END_TEST

/* The trace is `runeframe sample SCENE --times ...`, byte for byte. */
START_TEST(test_format_equals_sample)
{
    fixture_t fx = { 0 };
    const char *bin = getenv("RUNEFRAME");
    char cmd[4096], list[NTIMES * 32];
    size_t k = 0, got = 0, cap = 1 << 16;
    char *out;
    FILE *fp;
    int status;

    fixture_load(&fx);
    if (bin == NULL || *bin == '\0')
        bin = "./runeframe";
    ck_assert_ptr_null(strchr(bin, '\''));
    list[0] = '\0';
    for (int i = 0; i < NTIMES; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%.17g", i ? "," : "", times[i]);
    snprintf(cmd, sizeof cmd, "'%s' sample '%s' --times %s", bin, scene_path, list);
    fp = popen(cmd, "r");
    ck_assert_ptr_nonnull(fp);
    out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    for (size_t r; (r = fread(out + got, 1, cap - got, fp)) > 0;)
        got += r;
    status = pclose(fp);
    ck_assert_msg(status == 0, "%s: exit status %d", cmd, status);
    ck_assert_uint_lt(got, cap);
    ck_assert_uint_eq(got, fx.len);
    ck_assert(memcmp(out, fx.text, got) == 0);
    free(out);
    fixture_free(&fx);
}
END_TEST

/* ---- parse + compare ---- */

static rf_trace_t *parse_ok(const char *text, size_t len)
{
    char err[256] = "";
    rf_trace_t *tr = rf_trace_parse(text, len, "trace.csv", err, sizeof err);

    ck_assert_msg(tr != NULL, "unexpected: %s", err);
    return tr;
}

START_TEST(test_roundtrip)
{
    fixture_t fx = { 0 };
    rf_trace_t *tr;
    rf_trace_move_t moves[4];
    rf_trace_diff_t d;

    fixture_load(&fx);
    tr = parse_ok(fx.text, fx.len);
    ck_assert_uint_eq(rf_trace_rows(tr), NTIMES);
    for (int i = 0; i < NTIMES; i++) {
        memset(&d, 0xab, sizeof d);
        rf_trace_compare(tr, fx.vs, NULL, times[i], fx.slots + (size_t)i * fx.vs->nslots, moves, 4, &d);
        ck_assert_int_eq(d.has_row, 1);
        ck_assert_uint_eq(d.moved, 0);   /* n is NaN on both sides */
        ck_assert_uint_eq(d.nmoves, 0);
        ck_assert_uint_eq(d.added, 0);
        ck_assert_uint_eq(d.gone, 0);
        ck_assert_ptr_null(d.first_added);
        ck_assert_ptr_null(d.first_gone);
    }
    /* Every row at the wrong time differs somewhere (b moves all the time
     * until it settles): rows are matched by t, not by position. */
    rf_trace_compare(tr, fx.vs, NULL, times[2], fx.slots + 1 * fx.vs->nslots, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_gt(d.moved, 0);
    rf_trace_destroy(tr);
    fixture_free(&fx);
}
END_TEST

START_TEST(test_compare_perturbed)
{
    fixture_t fx = { 0 };
    rf_trace_t *tr;
    rf_trace_move_t moves[8];
    rf_trace_diff_t d;
    double *now;
    const double *orig;
    uint32_t sb, spy, se;

    fixture_load(&fx);
    tr = parse_ok(fx.text, fx.len);
    now = malloc(fx.vs->nslots * sizeof *now);
    ck_assert_ptr_nonnull(now);
    orig = fx.slots + 2 * fx.vs->nslots;   /* t = 0.5 */
    memcpy(now, orig, fx.vs->nslots * sizeof *now);
    sb = slot_of(fx.vs, "b", 0);
    spy = slot_of(fx.vs, "p", 1);
    se = slot_of(fx.vs, "e", 0);
    /* one ulp, a big jump, and -0 -> 1e-300 */
    now[se] = nextafter(orig[se], INFINITY);
    now[sb] = orig[sb] + 3;
    ck_assert(orig[spy] == 0);
    now[spy] = 1e-300;

    rf_trace_compare(tr, fx.vs, NULL, 0.5, now, moves, 8, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_eq(d.moved, 3);
    ck_assert_uint_eq(d.nmoves, 3);
    ck_assert_uint_eq(d.added, 0);
    ck_assert_uint_eq(d.gone, 0);
    /* scene order: b, p.y, e */
    ck_assert_str_eq(moves[0].value, "b");
    ck_assert_ptr_null(moves[0].suffix);
    ck_assert(moves[0].was == orig[sb] && moves[0].now == orig[sb] + 3);
    ck_assert_str_eq(moves[1].value, "p");
    ck_assert_str_eq(moves[1].suffix, "y");
    ck_assert(moves[1].was == 0 && moves[1].now == 1e-300);
    ck_assert_str_eq(moves[2].value, "e");
    ck_assert_ptr_null(moves[2].suffix);
    ck_assert(moves[2].was == orig[se] && moves[2].now == nextafter(orig[se], INFINITY));

    /* a cap smaller than the count: the first ones, the full count */
    memset(moves, 0, sizeof moves);
    rf_trace_compare(tr, fx.vs, NULL, 0.5, now, moves, 1, &d);
    ck_assert_uint_eq(d.moved, 3);
    ck_assert_uint_eq(d.nmoves, 1);
    ck_assert_str_eq(moves[0].value, "b");
    ck_assert_ptr_null(moves[1].value);
    rf_trace_compare(tr, fx.vs, NULL, 0.5, now, NULL, 0, &d);
    ck_assert_uint_eq(d.moved, 3);
    ck_assert_uint_eq(d.nmoves, 0);

    /* NaN -> a number moves; NaN with another payload or sign does not */
    memcpy(now, orig, fx.vs->nslots * sizeof *now);
    now[slot_of(fx.vs, "nn", 0)] = -NAN;
    rf_trace_compare(tr, fx.vs, NULL, 0.5, now, moves, 8, &d);
    ck_assert_uint_eq(d.moved, 0);
    now[slot_of(fx.vs, "nn", 0)] = 7;
    now[slot_of(fx.vs, "ii", 0)] = -INFINITY;
    rf_trace_compare(tr, fx.vs, NULL, 0.5, now, moves, 8, &d);
    ck_assert_uint_eq(d.moved, 2);
    ck_assert_str_eq(moves[0].value, "nn");
    ck_assert(isnan(moves[0].was) && moves[0].now == 7);
    ck_assert_str_eq(moves[1].value, "ii");
    ck_assert(moves[1].was == INFINITY && moves[1].now == -INFINITY);

    free(now);
    rf_trace_destroy(tr);
    fixture_free(&fx);
}
END_TEST

START_TEST(test_compare_signed_zero)
{
    fixture_t fx = { 0 };
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[4];
    double *now;
    uint32_t sp = 0;
    static const char neg[] = "t,a,b,s,prog,p.x,p.y,p.angle,e,nn,ii,ni\n"
                              "0,5,-0,-0,-0,-0,-0,-0,-0,nan,inf,-inf\n";

    fixture_load(&fx);
    sp = slot_of(fx.vs, "prog", 0);
    now = malloc(fx.vs->nslots * sizeof *now);
    ck_assert_ptr_nonnull(now);
    memcpy(now, fx.slots, fx.vs->nslots * sizeof *now);   /* t = 0 */
    ck_assert(now[sp] == 0 && !signbit(now[sp]));
    now[sp] = -0.0;
    tr = parse_ok(fx.text, fx.len);
    rf_trace_compare(tr, fx.vs, NULL, 0, now, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_eq(d.moved, 0);
    rf_trace_destroy(tr);

    /* the trace holds -0 everywhere, the scene 0: the same */
    tr = parse_ok(neg, strlen(neg));
    rf_trace_compare(tr, fx.vs, NULL, 0, fx.slots, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_eq(d.moved, 0);
    ck_assert_uint_eq(d.added, 0);
    ck_assert_uint_eq(d.gone, 0);
    /* t = -0 is the same double as the row's 0 */
    rf_trace_compare(tr, fx.vs, NULL, -0.0, fx.slots, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 1);
    rf_trace_destroy(tr);
    free(now);
    fixture_free(&fx);
}
END_TEST

/* Replaces the first occurrence of from in s (which must be there). */
static char *replace(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);

    ck_assert_ptr_nonnull(at);
    ck_assert_ptr_nonnull(out);
    memcpy(out, s, (size_t)(at - s));
    strcpy(out + (at - s), to);
    strcat(out, at + strlen(from));
    return out;
}

START_TEST(test_compare_added_gone)
{
    fixture_t fx = { 0 };
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[4];
    char *text;

    fixture_load(&fx);

    /* b renamed bb: bb is gone, b is new */
    text = replace(fx.text, "t,a,b,", "t,a,bb,");
    tr = parse_ok(text, strlen(text));
    rf_trace_compare(tr, fx.vs, NULL, times[1], fx.slots + fx.vs->nslots, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_eq(d.moved, 0);
    ck_assert_uint_eq(d.added, 1);
    ck_assert_str_eq(d.first_added, "b");
    ck_assert_uint_eq(d.gone, 1);
    ck_assert_str_eq(d.first_gone, "bb");
    rf_trace_destroy(tr);
    free(text);

    /* p.angle renamed p.heading, and i renamed zz */
    text = replace(fx.text, "p.angle", "p.heading");
    {
        char *t2 = replace(text, ",ii,", ",zz,");
        free(text);
        text = t2;
    }
    tr = parse_ok(text, strlen(text));
    rf_trace_compare(tr, fx.vs, NULL, times[1], fx.slots + fx.vs->nslots, moves, 4, &d);
    ck_assert_uint_eq(d.moved, 0);
    ck_assert_uint_eq(d.added, 2);
    ck_assert_str_eq(d.first_added, "p");
    ck_assert_uint_eq(d.gone, 2);
    ck_assert_str_eq(d.first_gone, "p.heading");
    rf_trace_destroy(tr);
    free(text);

    /* columns whose value changed shape: p as one output, a with a suffix */
    {
        static const char shape[] = "t,a.x,p\n0,5,0\n";
        tr = parse_ok(shape, strlen(shape));
        rf_trace_compare(tr, fx.vs, NULL, 0, fx.slots, moves, 4, &d);
        ck_assert_int_eq(d.has_row, 1);
        ck_assert_uint_eq(d.moved, 0);
        ck_assert_uint_eq(d.gone, 2);
        ck_assert_str_eq(d.first_gone, "a.x");
        ck_assert_uint_eq(d.added, 11);   /* every output */
        ck_assert_str_eq(d.first_added, "a");
        rf_trace_destroy(tr);
    }

    /* a trace of one value: the other ten outputs are new; a moved */
    {
        static const char one[] = "t,a\n0,4\n";
        tr = parse_ok(one, strlen(one));
        rf_trace_compare(tr, fx.vs, NULL, 0, fx.slots, moves, 4, &d);
        ck_assert_uint_eq(d.moved, 1);
        ck_assert_str_eq(moves[0].value, "a");
        ck_assert(moves[0].was == 4 && moves[0].now == 5);
        ck_assert_uint_eq(d.added, 10);
        ck_assert_str_eq(d.first_added, "b");
        ck_assert_uint_eq(d.gone, 0);
        ck_assert_ptr_null(d.first_gone);
        rf_trace_destroy(tr);
    }
    fixture_free(&fx);
}
END_TEST

START_TEST(test_compare_no_row)
{
    fixture_t fx = { 0 };
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[4];
    char *text;

    fixture_load(&fx);
    text = replace(fx.text, "t,a,b,", "t,a,bb,");   /* would be gone/added */
    tr = parse_ok(text, strlen(text));
    /* 0.25 is not a row; nor is the double next to 0.5; nor NaN */
    {
        const double ts[] = { 0.25, nextafter(0.5, 1), NAN, INFINITY, 1e-300 };
        for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
            memset(&d, 0xab, sizeof d);
            rf_trace_compare(tr, fx.vs, NULL, ts[i], fx.slots, moves, 4, &d);
            ck_assert_int_eq(d.has_row, 0);
            ck_assert_uint_eq(d.moved, 0);
            ck_assert_uint_eq(d.nmoves, 0);
            ck_assert_uint_eq(d.added, 0);
            ck_assert_uint_eq(d.gone, 0);
            ck_assert_ptr_null(d.first_added);
            ck_assert_ptr_null(d.first_gone);
        }
    }
    rf_trace_destroy(tr);
    free(text);
    fixture_free(&fx);
}
END_TEST

/* Rows in any order, t repeated: the first row in the file at t is used. */
START_TEST(test_compare_row_order)
{
    fixture_t fx = { 0 };
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[4];
    static const char text[] = "t,a\n2,3\nnan,9\n1,1\n0.5,8\n1,2\n-inf,7\n1,5\n";

    fixture_load(&fx);
    tr = parse_ok(text, strlen(text));
    ck_assert_uint_eq(rf_trace_rows(tr), 7);
    rf_trace_compare(tr, fx.vs, NULL, 1, fx.slots, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_eq(d.moved, 1);
    ck_assert(moves[0].was == 1);
    rf_trace_compare(tr, fx.vs, NULL, 2, fx.slots, moves, 4, &d);
    ck_assert(d.has_row == 1 && d.moved == 1 && moves[0].was == 3);
    rf_trace_compare(tr, fx.vs, NULL, 0.5, fx.slots, moves, 4, &d);
    ck_assert(d.has_row == 1 && d.moved == 1 && moves[0].was == 8);
    rf_trace_compare(tr, fx.vs, NULL, -INFINITY, fx.slots, moves, 4, &d);
    ck_assert(d.has_row == 1 && d.moved == 1 && moves[0].was == 7);
    rf_trace_compare(tr, fx.vs, NULL, NAN, fx.slots, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 0);
    rf_trace_destroy(tr);
    fixture_free(&fx);
}
END_TEST

/* What a hand-edited or foreign file may look like and still be a trace. */
START_TEST(test_parse_accepts)
{
    fixture_t fx = { 0 };
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[4];
    char *crlf;
    size_t k = 0;

    fixture_load(&fx);
    /* CRLF everywhere */
    crlf = malloc(2 * fx.len + 1);
    ck_assert_ptr_nonnull(crlf);
    for (size_t i = 0; i < fx.len; i++) {
        if (fx.text[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = fx.text[i];
    }
    tr = parse_ok(crlf, k);
    ck_assert_uint_eq(rf_trace_rows(tr), NTIMES);
    rf_trace_compare(tr, fx.vs, NULL, times[3], fx.slots + 3 * fx.vs->nslots, moves, 4, &d);
    ck_assert(d.has_row == 1 && d.moved == 0 && d.added == 0 && d.gone == 0);
    rf_trace_destroy(tr);
    /* no final newline, CRLF and LF */
    tr = parse_ok(crlf, k - 2);
    ck_assert_uint_eq(rf_trace_rows(tr), NTIMES);
    rf_trace_compare(tr, fx.vs, NULL, times[6], fx.slots + 6 * fx.vs->nslots, moves, 4, &d);
    ck_assert(d.has_row == 1 && d.moved == 0 && d.added == 0 && d.gone == 0);
    rf_trace_destroy(tr);
    tr = parse_ok(fx.text, fx.len - 1);
    ck_assert_uint_eq(rf_trace_rows(tr), NTIMES);
    rf_trace_compare(tr, fx.vs, NULL, times[6], fx.slots + 6 * fx.vs->nslots, moves, 4, &d);
    ck_assert(d.has_row == 1 && d.moved == 0);
    rf_trace_destroy(tr);
    free(crlf);

    /* a header alone, with or without its newline, or after a BOM */
    {
        static const char *const heads[] = { "t\n", "t", "t,a\r\n", "\xEF\xBB\xBFt,a\n" };
        for (size_t i = 0; i < 4; i++) {
            tr = parse_ok(heads[i], strlen(heads[i]));
            ck_assert_uint_eq(rf_trace_rows(tr), 0);
            rf_trace_compare(tr, fx.vs, NULL, 0, fx.slots, moves, 4, &d);
            ck_assert_int_eq(d.has_row, 0);
            rf_trace_destroy(tr);
        }
    }

    /* numbers as %.17g and strtod write them, in the column of a (5 at t=0) */
    {
        static const struct {
            const char *field;
            double value;
        } nums[] = {
            { "5", 5 },
            { "+5", 5 },
            { "5.", 5 },
            { "5e0", 5 },
            { "0.5E1", 5 },
            { ".5", 0.5 },
            { "-0", -0.0 },
            { "inf", INFINITY },
            { "-inf", -INFINITY },
            { "1e-400", 0 },   /* underflow reads as 0 */
            { "4.9406564584124654e-324", 4.9406564584124654e-324 },
            { "2.2250738585072014e-308", 2.2250738585072014e-308 },
            { "1.7976931348623157e+308", DBL_MAX },
            { "0.10000000000000001", 0.1 },
        };
        for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
            char text[128];
            snprintf(text, sizeof text, "t,a\n0,%s\n", nums[i].field);
            tr = parse_ok(text, strlen(text));
            rf_trace_compare(tr, fx.vs, NULL, 0, fx.slots, moves, 4, &d);
            ck_assert_int_eq(d.has_row, 1);
            if (nums[i].value == 5) {
                ck_assert_msg(d.moved == 0, "%s", nums[i].field);
            } else {
                ck_assert_msg(d.moved == 1, "%s", nums[i].field);
                ck_assert(same(moves[0].was, nums[i].value));
            }
            rf_trace_destroy(tr);
        }
    }
    /* "nan" in the NaN column n: the same */
    {
        static const char nan_text[] = "t,n\n0,nan\n";
        tr = parse_ok(nan_text, strlen(nan_text));
        rf_trace_compare(tr, fx.vs, NULL, 0, fx.slots, moves, 4, &d);
        ck_assert(d.has_row == 1 && d.moved == 0);
        rf_trace_destroy(tr);
    }
    fixture_free(&fx);
}
END_TEST

/* Every way a file can fail, with its exact message. */
START_TEST(test_parse_errors)
{
    static const struct {
        const char *text;
        size_t len;   /* 0: strlen */
        const char *msg;
    } cases[] = {
        { "", 0, "g/trace.csv:1: empty file, expected the header 't,...'" },
        { "\xEF\xBB\xBF", 0, "g/trace.csv:1: empty file, expected the header 't,...'" },
        { "\n", 0, "g/trace.csv:1: the first line is empty, expected the header 't,...'" },
        { "\r\n0,1\n", 0, "g/trace.csv:1: the first line is empty, expected the header 't,...'" },
        { "0,1,2\n0.5,1,2\n", 0,
          "g/trace.csv:1: no header: the first line must be 't,NAME,...', got '0,1,2'" },
        { "-inf\n", 0, "g/trace.csv:1: no header: the first line must be 't,NAME,...', got '-inf'" },
        { "x,a\n0,1\n", 0, "g/trace.csv:1: the header's first column must be 't', got 'x'" },
        { "time,a\n", 0, "g/trace.csv:1: the header's first column must be 't', got 'time'" },
        { ",a\n", 0, "g/trace.csv:1: the header's first column must be 't', got ''" },
        { "\"t\",\"a\"\n", 0, "g/trace.csv:1: the header's first column must be 't', got '\"t\"'" },
        { "T,a\n", 0, "g/trace.csv:1: the header's first column must be 't', got 'T'" },
        { "t,a,,b\n", 0, "g/trace.csv:1: header field 3 is empty" },
        { "t,a,\n", 0, "g/trace.csv:1: header field 3 is empty" },
        { "t,a b\n", 0, "g/trace.csv:1: header field 2 ('a b') is not a value name" },
        { "t,a.x.y\n", 0, "g/trace.csv:1: header field 2 ('a.x.y') is not a value name" },
        { "t,a.\n", 0, "g/trace.csv:1: header field 2 ('a.') is not a value name" },
        { "t,.x\n", 0, "g/trace.csv:1: header field 2 ('.x') is not a value name" },
        { "t,1a\n", 0, "g/trace.csv:1: header field 2 ('1a') is not a value name" },
        { "t,a\rb\n", 0, "g/trace.csv:1: header field 2 ('a?b') is not a value name" },
        { "t,\x1b[31m\n", 0, "g/trace.csv:1: header field 2 ('?[31m') is not a value name" },
        { "t,caf\xc3\xa9\n", 0, "g/trace.csv:1: header field 2 ('caf?\?') is not a value name" },
        { "t,a,b,a\n0,1,2,3\n", 0, "g/trace.csv:1: column 'a' is named twice (fields 2 and 4)" },
        /* the first repetition in the file, not in name order */
        { "t,b,a,b,a\n", 0, "g/trace.csv:1: column 'b' is named twice (fields 2 and 4)" },
        { "t,z,a,z,a,a\n", 0, "g/trace.csv:1: column 'z' is named twice (fields 2 and 4)" },
        { "t,a,a,a\n", 0, "g/trace.csv:1: column 'a' is named twice (fields 2 and 3)" },
        { "t,t\n", 0, "g/trace.csv:1: column 't' is named twice (fields 1 and 2)" },
        { "t,p.x,p.x\n", 0, "g/trace.csv:1: column 'p.x' is named twice (fields 2 and 3)" },
        { "t,a\n0,1,2\n", 0, "g/trace.csv:2: 3 fields, expected 2" },
        { "t,a\n0\n", 0, "g/trace.csv:2: 1 field, expected 2" },
        { "t,a\n0,1\n0.5,2,\n", 0, "g/trace.csv:3: 3 fields, expected 2" },
        { "t,a\n0,1\n\n0.5,2\n", 0, "g/trace.csv:3: an empty line, expected 2 fields" },
        { "t,a\n0,1\n\n", 0, "g/trace.csv:3: an empty line, expected 2 fields" },
        { "t,a\r\n0,1\r\n\r\n", 0, "g/trace.csv:3: an empty line, expected 2 fields" },
        { "t,a\n0,1\n0.5,x\n", 0, "g/trace.csv:3: field 2 (column 'a'): 'x' is not a number" },
        { "t,a\r\n0,1\r\n0.5,x\r\n", 0,
          "g/trace.csv:3: field 2 (column 'a'): 'x' is not a number" },
        { "t,a\nzero,1\n", 0, "g/trace.csv:2: field 1 (column 't'): 'zero' is not a number" },
        { "t,a\n0,\n", 0, "g/trace.csv:2: field 2 (column 'a') is empty" },
        { "t,a\n,1\n", 0, "g/trace.csv:2: field 1 (column 't') is empty" },
        { "t,a\n0, 1\n", 0, "g/trace.csv:2: field 2 (column 'a'): ' 1' is not a number" },
        { "t,a\n0,1 \n", 0, "g/trace.csv:2: field 2 (column 'a'): '1 ' is not a number" },
        { "t,a\n0,0x10\n", 0, "g/trace.csv:2: field 2 (column 'a'): '0x10' is not a number" },
        { "t,a\n0,infinity\n", 0,
          "g/trace.csv:2: field 2 (column 'a'): 'infinity' is not a number" },
        { "t,a\n0,INF\n", 0, "g/trace.csv:2: field 2 (column 'a'): 'INF' is not a number" },
        { "t,a\n0,NaN\n", 0, "g/trace.csv:2: field 2 (column 'a'): 'NaN' is not a number" },
        { "t,a\n0,-nan\n", 0, "g/trace.csv:2: field 2 (column 'a'): '-nan' is not a number" },
        { "t,a\n0,+inf\n", 0, "g/trace.csv:2: field 2 (column 'a'): '+inf' is not a number" },
        { "t,a\n0,1e999\n", 0, "g/trace.csv:2: field 2 (column 'a'): '1e999' is not a number" },
        { "t,a\n0,-1e999\n", 0, "g/trace.csv:2: field 2 (column 'a'): '-1e999' is not a number" },
        { "t,a\n0,1e\n", 0, "g/trace.csv:2: field 2 (column 'a'): '1e' is not a number" },
        { "t,a\n0,1..2\n", 0, "g/trace.csv:2: field 2 (column 'a'): '1..2' is not a number" },
        { "t,a\n0,--1\n", 0, "g/trace.csv:2: field 2 (column 'a'): '--1' is not a number" },
        { "t,a\n0,-\n", 0, "g/trace.csv:2: field 2 (column 'a'): '-' is not a number" },
        { "t,a\n0,\"1\"\n", 0, "g/trace.csv:2: field 2 (column 'a'): '\"1\"' is not a number" },
        { "t,a\n0,1\r2\n", 0, "g/trace.csv:2: field 2 (column 'a'): '1?2' is not a number" },
        { "t,a\n0,1\r\r\n", 0, "g/trace.csv:2: field 2 (column 'a'): '1?' is not a number" },
        { "t,a\n0,\x1b]0;pwned\x07\n", 0,
          "g/trace.csv:2: field 2 (column 'a'): '?]0;pwned?' is not a number" },
        { "t,a\n0,1111111111111111111111111111111111111111111111111111111111111111111111\n", 0,
          "g/trace.csv:2: field 2 (column 'a'): '1111111111111111111111111111111111111111...' "
          "is not a number" },
        { "t,a\n0,1\0\n", 9, "g/trace.csv:2: a NUL byte: a binary file, not a trace" },
        { "\0", 1, "g/trace.csv:1: a NUL byte: a binary file, not a trace" },
        { "t,a\n0,1\n\n\n1,\0", 13, "g/trace.csv:5: a NUL byte: a binary file, not a trace" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512];
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
        rf_trace_t *tr;

        memset(err, 'X', sizeof err);
        err[sizeof err - 1] = '\0';
        tr = rf_trace_parse(cases[i].text, len, "g/trace.csv", err, sizeof err);
        ck_assert_msg(tr == NULL, "case %zu accepted", i);
        ck_assert_msg(strcmp(err, cases[i].msg) == 0, "case %zu: got \"%s\", expected \"%s\"", i,
                      err, cases[i].msg);
        ck_assert_ptr_null(strchr(err, '\n'));
        /* no message buffer at all, or a tiny one: still no crash */
        ck_assert_ptr_null(rf_trace_parse(cases[i].text, len, "g/trace.csv", NULL, 0));
        memset(err, 'X', 8);
        ck_assert_ptr_null(rf_trace_parse(cases[i].text, len, "g/trace.csv", err, 8));
        ck_assert_str_eq(err, "g/trace");
    }
}
END_TEST

START_TEST(test_parse_too_big)
{
    size_t len = (size_t)RF_TRACE_MAX_BYTES + 1;
    char *big = malloc(len);
    char err[256];
    char expect[128];

    ck_assert_ptr_nonnull(big);
    memset(big, '0', len);
    memcpy(big, "t,a\n", 4);
    ck_assert_ptr_null(rf_trace_parse(big, len, "big.csv", err, sizeof err));
    snprintf(expect, sizeof expect, "big.csv: larger than 64 MiB (%zu bytes), not a trace", len);
    ck_assert_str_eq(err, expect);
    free(big);
}
END_TEST

/* The two tests below feed the parser a huge hostile trace and check what
 * it makes of it. They assert no wall-clock time (a loaded machine, as
 * under make -j16 check, made such asserts fail): a quadratic scan, which
 * would take minutes, still fails them through Check's timeout
 * (CK_DEFAULT_TIMEOUT), and how long parsing takes is bench/'s to measure. */

/* 100k columns: parse and compare stay n log n. */
START_TEST(test_parse_wide)
{
    enum { NC = 100000 };
    fixture_t fx = { 0 };
    size_t cap = (size_t)NC * 20 + 64, k = 0;
    char *text = malloc(cap);
    char err[256];
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[2];

    fixture_load(&fx);
    ck_assert_ptr_nonnull(text);
    k += (size_t)snprintf(text + k, cap - k, "t");
    for (int i = 0; i < NC; i++)
        k += (size_t)snprintf(text + k, cap - k, ",c%d", i);
    k += (size_t)snprintf(text + k, cap - k, ",a\n0");
    for (int i = 0; i < NC; i++)
        k += (size_t)snprintf(text + k, cap - k, ",%d", i);
    k += (size_t)snprintf(text + k, cap - k, ",5\n");
    ck_assert_uint_lt(k, cap);

    tr = parse_ok(text, k);
    rf_trace_compare(tr, fx.vs, NULL, 0, fx.slots, moves, 2, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_eq(d.moved, 0);
    ck_assert_uint_eq(d.gone, NC);
    ck_assert_str_eq(d.first_gone, "c0");
    ck_assert_uint_eq(d.added, 10);
    rf_trace_destroy(tr);

    /* the same header with a repetition at its very end */
    memcpy(strstr(text, ",a\n"), ",c7\n", 4);
    ck_assert_ptr_null(rf_trace_parse(text, k, "w.csv", err, sizeof err));
    ck_assert_str_eq(err, "w.csv:1: column 'c7' is named twice (fields 9 and 100002)");
    free(text);
    fixture_free(&fx);
}
END_TEST

/* 200k rows: each lookup is a binary search. */
START_TEST(test_parse_long)
{
    enum { NR = 200000 };
    fixture_t fx = { 0 };
    size_t cap = (size_t)NR * 48 + 16, k = 0;
    char *text = malloc(cap);
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[2];

    fixture_load(&fx);
    ck_assert_ptr_nonnull(text);
    k += (size_t)snprintf(text + k, cap - k, "t,a\n");
    for (int i = NR - 1; i >= 0; i--)   /* backwards: order must not matter */
        k += (size_t)snprintf(text + k, cap - k, "%.17g,%d\n", (double)i / 30, i);
    tr = parse_ok(text, k);
    ck_assert_uint_eq(rf_trace_rows(tr), NR);
    for (int i = 0; i < NR; i++) {
        rf_trace_compare(tr, fx.vs, NULL, (double)i / 30, fx.slots, moves, 2, &d);
        rf_check_msg(d.has_row == 1, "row %d", i);
        if (i == 5) {
            ck_assert_uint_eq(d.moved, 0);
        } else {
            rf_check_msg(d.moved == 1, "row %d: %u moved", i, (unsigned)d.moved);
            rf_check_msg(moves[0].was == i, "row %d: was %.17g", i, (double)moves[0].was);
        }
    }
    rf_trace_destroy(tr);
    free(text);
    fixture_free(&fx);
}
END_TEST

/* ---- load ---- */

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *fp = fopen(path, "wb");

    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
    ck_assert_int_eq(fclose(fp), 0);
}

START_TEST(test_load)
{
    fixture_t fx = { 0 };
    char dir[] = "/tmp/check_trace_dir_XXXXXX";
    char path[128], expect[256], err[512];
    int missing = -1;
    rf_trace_t *tr;
    rf_trace_diff_t d;
    rf_trace_move_t moves[2];

    fixture_load(&fx);
    ck_assert_ptr_nonnull(mkdtemp(dir));

    /* a regular file: the formatted trace */
    snprintf(path, sizeof path, "%s/trace.csv", dir);
    write_file(path, fx.text, fx.len);
    tr = rf_trace_load(path, &missing, err, sizeof err);
    ck_assert_msg(tr != NULL, "%s", err);
    ck_assert_int_eq(missing, 0);
    ck_assert_uint_eq(rf_trace_rows(tr), NTIMES);
    rf_trace_compare(tr, fx.vs, NULL, times[4], fx.slots + 4 * fx.vs->nslots, moves, 2, &d);
    ck_assert(d.has_row == 1 && d.moved == 0 && d.added == 0 && d.gone == 0);
    rf_trace_destroy(tr);

    /* a parse error names the path and the line */
    write_file(path, "t,a\n0,1\n0.5\n", 12);
    missing = -1;
    ck_assert_ptr_null(rf_trace_load(path, &missing, err, sizeof err));
    ck_assert_int_eq(missing, 0);
    snprintf(expect, sizeof expect, "%s:3: 1 field, expected 2", path);
    ck_assert_str_eq(err, expect);

    /* an empty file */
    write_file(path, "", 0);
    ck_assert_ptr_null(rf_trace_load(path, &missing, err, sizeof err));
    snprintf(expect, sizeof expect, "%s:1: empty file, expected the header 't,...'", path);
    ck_assert_str_eq(err, expect);
    ck_assert_int_eq(unlink(path), 0);

    /* missing */
    missing = -1;
    ck_assert_ptr_null(rf_trace_load(path, &missing, err, sizeof err));
    ck_assert_int_eq(missing, 1);
    snprintf(expect, sizeof expect, "%s: cannot open: %s", path, strerror(ENOENT));
    ck_assert_str_eq(err, expect);
    ck_assert_ptr_null(rf_trace_load(path, NULL, err, sizeof err));

    /* a directory */
    missing = -1;
    ck_assert_ptr_null(rf_trace_load(dir, &missing, err, sizeof err));
    ck_assert_int_eq(missing, 0);
    snprintf(expect, sizeof expect, "%s: is a directory, not a trace file", dir);
    ck_assert_str_eq(err, expect);

    /* a FIFO: never blocks */
    snprintf(path, sizeof path, "%s/fifo.csv", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    missing = -1;
    ck_assert_ptr_null(rf_trace_load(path, &missing, err, sizeof err));
    ck_assert_int_eq(missing, 0);
    snprintf(expect, sizeof expect,
             "%s: not a regular file (a device, FIFO or socket), not a trace file", path);
    ck_assert_str_eq(err, expect);
    ck_assert_int_eq(unlink(path), 0);

    /* a device, directly and through a symbolic link */
    ck_assert_ptr_null(rf_trace_load("/dev/null", &missing, err, sizeof err));
    ck_assert_str_eq(err,
                     "/dev/null: not a regular file (a device, FIFO or socket), not a trace file");
    snprintf(path, sizeof path, "%s/link.csv", dir);
    ck_assert_int_eq(symlink("/dev/zero", path), 0);
    ck_assert_ptr_null(rf_trace_load(path, &missing, err, sizeof err));
    snprintf(expect, sizeof expect,
             "%s: not a regular file (a device, FIFO or socket), not a trace file", path);
    ck_assert_str_eq(err, expect);
    ck_assert_int_eq(unlink(path), 0);

    /* a dangling link is missing */
    ck_assert_int_eq(symlink("/nonexistent/trace.csv", path), 0);
    missing = -1;
    ck_assert_ptr_null(rf_trace_load(path, &missing, err, sizeof err));
    ck_assert_int_eq(missing, 1);
    ck_assert_int_eq(unlink(path), 0);

    /* too big (sparse: costs no disk) */
    snprintf(path, sizeof path, "%s/big.csv", dir);
    {
        FILE *fp = fopen(path, "wb");
        ck_assert_ptr_nonnull(fp);
        ck_assert_int_eq(ftruncate(fileno(fp), (off_t)RF_TRACE_MAX_BYTES + 1), 0);
        ck_assert_int_eq(fclose(fp), 0);
    }
    ck_assert_ptr_null(rf_trace_load(path, &missing, err, sizeof err));
    ck_assert_int_eq(missing, 0);
    snprintf(expect, sizeof expect, "%s: larger than 64 MiB (%llu bytes), not a trace", path,
             (unsigned long long)RF_TRACE_MAX_BYTES + 1);
    ck_assert_str_eq(err, expect);
    ck_assert_int_eq(unlink(path), 0);

    ck_assert_int_eq(rmdir(dir), 0);
    fixture_free(&fx);
}
END_TEST

/* ---- move lines ---- */

static void move_is(const char *value, const char *suffix, double was, double now, double t,
                    const char *expect)
{
    rf_trace_move_t m = { value, suffix, was, now };
    char buf[256];
    int n = rf_trace_move_format(buf, sizeof buf, &m, t);

    ck_assert_msg(strcmp(buf, expect) == 0, "got \"%s\", expected \"%s\"", buf, expect);
    ck_assert_int_eq(n, (int)strlen(expect));
}

/* Inline values, traced under the names the caller gives them (their
 * pointers): the header, the numbers (t * 90, a closed form), read back,
 * compared and flagged; names with '/' parse, malformed ones do not. */
START_TEST(test_inline_values)
{
    static const char sj[] =
        "{ \"runeframe\": 1, \"canvas\": { \"width\": 8, \"height\": 8 },\n"
        "  \"timeline\": { \"duration\": 1 },\n"
        "  \"values\": { \"a\": 3 },\n"
        "  \"layers\": [ { \"type\": \"rect\", \"x\": \"a\", \"y\": 0, \"width\": 2, "
        "\"height\": 2, \"rotate\": { \"expr\": \"t * 90\" } } ] }\n";
    static const char *const inames[] = { "layers/0/rotate" };
    rf_diag_t diag;
    rf_scene_t *sc = rf_scene_load_buffer("i.json", sj, sizeof sj - 1, &diag);
    ck_assert_ptr_nonnull(sc);
    const rf_values_t *vs = &sc->values;
    ck_assert_uint_eq(vs->n, 2);
    ck_assert_uint_eq(vs->nnamed, 1);
    double tt[2] = { 0.5, 1 };
    double *slots = malloc(2 * vs->nslots * sizeof *slots);
    ck_assert_ptr_nonnull(slots);
    rf_values_eval(vs, tt[0], slots);
    rf_values_eval(vs, tt[1], slots + vs->nslots);
    char *text;
    size_t len;
    ck_assert_int_eq(rf_trace_format(vs, inames, tt, slots, 2, &text, &len), 0);
    ck_assert_str_eq(text, "t,a,layers/0/rotate\n0.5,3,45\n1,3,90\n");
    free(text);
    /* without names: sample's CSV */
    ck_assert_int_eq(rf_trace_format(vs, NULL, tt, slots, 2, &text, &len), 0);
    ck_assert_str_eq(text, "t,a\n0.5,3\n1,3\n");
    free(text);

    char err[256];
    static const char tr_text[] = "t,a,layers/0/rotate,layers/9/x\n0.5,3,40,1\n";
    rf_trace_t *tr = rf_trace_parse(tr_text, sizeof tr_text - 1, "trace.csv", err, sizeof err);
    ck_assert_msg(tr != NULL, "%s", err);
    rf_trace_move_t moves[4];
    rf_trace_diff_t d;
    rf_trace_compare(tr, vs, inames, 0.5, slots, moves, 4, &d);
    ck_assert_int_eq(d.has_row, 1);
    ck_assert_uint_eq(d.moved, 1);
    ck_assert_str_eq(moves[0].value, "layers/0/rotate");
    ck_assert(moves[0].was == 40 && moves[0].now == 45);
    ck_assert_uint_eq(d.gone, 1);
    ck_assert_str_eq(d.first_gone, "layers/9/x");
    ck_assert_uint_eq(d.added, 0);
    unsigned char flags[2];
    ck_assert_int_eq(rf_trace_moved(tr, vs, inames, 0.5, slots, flags), 1);
    ck_assert_int_eq(flags[0], 0);
    ck_assert_int_eq(flags[1], 1);
    ck_assert_int_eq(rf_trace_moved(tr, vs, inames, 0.25, slots, flags), 0);
    /* an older trace, without the inline column: the value is new */
    rf_trace_destroy(tr);
    tr = rf_trace_parse("t,a\n0.5,3\n", 10, "trace.csv", err, sizeof err);
    ck_assert_ptr_nonnull(tr);
    rf_trace_compare(tr, vs, inames, 0.5, slots, moves, 4, &d);
    ck_assert_uint_eq(d.moved, 0);
    ck_assert_uint_eq(d.added, 1);
    ck_assert_str_eq(d.first_added, "layers/0/rotate");
    ck_assert_int_eq(rf_trace_moved(tr, vs, inames, 0.5, slots, flags), 1);
    ck_assert_int_eq(flags[1], 2);
    /* recalled: the named value from the trace, the inline one kept */
    double row[2] = { 7, 11 };
    ck_assert_uint_eq(vs->nslots, 2);
    ck_assert_int_eq(rf_trace_recall(tr, vs, inames, 0.5, row), 2);
    ck_assert(row[0] == 3 && row[1] == 11);
    ck_assert_int_eq(rf_trace_recall(tr, vs, NULL, 0.5, row), 1);
    ck_assert_int_eq(rf_trace_recall(tr, vs, inames, 0.75, row), 0);
    rf_trace_destroy(tr);

    static const char *const bad[] = { "t,layers//x\n", "t,3/x\n", "t,a/\n", "t,/a\n",
                                       "t,a/b.c.d\n", "t,a/b.\n", "t,a-b/c\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tr = rf_trace_parse(bad[i], strlen(bad[i]), "trace.csv", err, sizeof err);
        ck_assert_msg(tr == NULL, "accepted %s", bad[i]);
        ck_assert_ptr_nonnull(strstr(err, "is not a value name"));
    }
    tr = rf_trace_parse("t,a/b_2/c.x\n", 12, "trace.csv", err, sizeof err);
    ck_assert_msg(tr != NULL, "%s", err);
    rf_trace_destroy(tr);
    free(slots);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(test_move_format)
{
    move_is("card", "x", 212.4, 215, 0.53333333333333333, "card.x at t=0.533333: 212.4 -> 215 (+2.6)");
    move_is("card", NULL, 215, 212.4, 16.0 / 30, "card at t=0.533333: 215 -> 212.4 (-2.6)");
    /* 1.0000001 first differs from 1 at 8 digits */
    move_is("a", NULL, 1, 1.0000001, 0, "a at t=0: 1 -> 1.0000001 (+1e-07)");
    /* one ulp above 1: 17 digits */
    move_is("a", NULL, 1, 1.0000000000000002, 1, "a at t=1: 1 -> 1.0000000000000002 (+2.22e-16)");
    /* 0.1 + 0.2 vs 0.3: both need 17 digits to tell apart */
    move_is("sum", NULL, 0.3, 0.1 + 0.2, 2,
            "sum at t=2: 0.29999999999999999 -> 0.30000000000000004 (+5.55e-17)");
    /* at least 4 digits even when 1 would do */
    move_is("p", "angle", 90, 0, 2, "p.angle at t=2: 90 -> 0 (-90)");
    /* 1234.5 and 1234.25 both print 1234 at 4 digits (ties to even) */
    move_is("w", NULL, 1234.5, 1234.25, 0.25, "w at t=0.25: 1234.5 -> 1234.2 (-0.25)");
    /* 9.999875 rounds to 10 at 4 digits, to 9.9999 at 5 */
    move_is("v", "y", 10, 9.999875, 1.5, "v.y at t=1.5: 10 -> 9.9999 (-0.000125)");
    move_is("big", NULL, 1e20, 1.0000000001e20, 3,
            "big at t=3: 1e+20 -> 1.0000000001e+20 (+1e+10)");
    move_is("tiny", NULL, 1e-300, 0, 0.1, "tiny at t=0.1: 1e-300 -> 0 (-1e-300)");
    /* the difference of two finite values can overflow */
    move_is("o", NULL, -DBL_MAX, DBL_MAX, 0, "o at t=0: -1.798e+308 -> 1.798e+308 (+inf)");
    move_is("o", NULL, DBL_MAX, -DBL_MAX, 0, "o at t=0: 1.798e+308 -> -1.798e+308 (-inf)");
    /* non-finite ends: no difference */
    move_is("e", NULL, 5, INFINITY, 1, "e at t=1: 5 -> inf");
    move_is("e", NULL, -INFINITY, 5, 1, "e at t=1: -inf -> 5");
    move_is("e", NULL, INFINITY, -INFINITY, 1, "e at t=1: inf -> -inf");
    move_is("n", NULL, NAN, 3, 1, "n at t=1: nan -> 3");
    move_is("n", NULL, 3, -NAN, 1, "n at t=1: 3 -> nan");
    move_is("n", NULL, NAN, -NAN, 1, "n at t=1: nan -> nan");
    /* 0 and -0 differ in print at once */
    move_is("z", NULL, 0, -0.0, 0, "z at t=0: 0 -> -0 (-0)");
    /* t: %.6g, and non-finite spelled once */
    move_is("a", NULL, 1, 2, 123456.789, "a at t=123457: 1 -> 2 (+1)");
    move_is("a", NULL, 1, 2, 1.0 / 3, "a at t=0.333333: 1 -> 2 (+1)");
    move_is("a", NULL, 1, 2, NAN, "a at t=nan: 1 -> 2 (+1)");
    move_is("a", NULL, 1, 2, -INFINITY, "a at t=-inf: 1 -> 2 (+1)");

    /* a small buffer: truncated, terminated, the full length returned */
    {
        rf_trace_move_t m = { "card", "x", 212.4, 215 };
        char buf[8];
        memset(buf, 'X', sizeof buf);
        ck_assert_int_eq(rf_trace_move_format(buf, sizeof buf, &m, 0.5),
                         (int)strlen("card.x at t=0.5: 212.4 -> 215 (+2.6)"));
        ck_assert_str_eq(buf, "card.x ");
        ck_assert_int_eq(rf_trace_move_format(NULL, 0, &m, 0.5),
                         (int)strlen("card.x at t=0.5: 212.4 -> 215 (+2.6)"));
    }
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("format");

    tcase_add_test(tc, test_format_header_and_fields);
    tcase_add_test(tc, test_format_no_rows);
    tcase_add_test(tc, test_format_equals_sample);
    suite_add_tcase(s, tc);

    tc = tcase_create("compare");
    tcase_add_test(tc, test_roundtrip);
    tcase_add_test(tc, test_compare_perturbed);
    tcase_add_test(tc, test_compare_signed_zero);
    tcase_add_test(tc, test_compare_added_gone);
    tcase_add_test(tc, test_compare_no_row);
    tcase_add_test(tc, test_compare_row_order);
    suite_add_tcase(s, tc);

    tc = tcase_create("parse");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_parse_accepts);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_parse_too_big);
    tcase_add_test(tc, test_parse_wide);
    tcase_add_test(tc, test_parse_long);
    tcase_add_test(tc, test_load);
    suite_add_tcase(s, tc);

    tc = tcase_create("move");
    tcase_add_test(tc, test_move_format);
    tcase_add_test(tc, test_inline_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    int fd, failed;
    SRunner *sr;

    snprintf(scene_path, sizeof scene_path, "/tmp/check_trace_XXXXXX");
    fd = mkstemp(scene_path);
    if (fd < 0 || write(fd, scene_json, sizeof scene_json - 1) != (ssize_t)(sizeof scene_json - 1)
        || close(fd) != 0) {
        perror(scene_path);
        return 1;
    }
    sr = srunner_create(trace_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    unlink(scene_path);
    return failed == 0 ? 0 : 1;
}
