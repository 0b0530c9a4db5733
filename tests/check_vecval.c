/* check_vecval.c - vector and color values (scene-v1.md "Motion
 * authoring": vector and color values, seed 003's converters), through the
 * loader: every component of a vector spring, tween, keyframes or
 * sequence is bit for bit the scalar value with the same parameters (the
 * scalar scene is the independent reference); a color spring retargeted
 * in a sequence keeps each channel's velocity (finite differences on both
 * sides of the retarget against the first spring's closed-form velocity,
 * derived here from the contract's formula); a color value drawn as a fill
 * gives the pixels of the constant color it is at, clamped; and every bad
 * input is a one-line error at its JSON pointer. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "diag.h"
#include "scene.h"
#include "values.h"
#include "scenetest.h"

#define HEAD "{\"runeframe\": 1, \"canvas\": {\"width\": 8, \"height\": 8}, " \
             "\"timeline\": {\"duration\": 4, \"fps\": 10}, "

#define load_fails rf_test_load_fails
#define val rf_test_value

/* A deterministic time in [0, 5) s (xorshift). */
static double rnd_time(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0 * 5.0;
}

/* vec (2..4 components) against the scalar values names[k], at 10,000
 * times and at the segment boundaries, bit for bit; and its facts. */
static void same_bits(const rf_scene_t *sc, const char *vec, const char *const *names, int n)
{
    const rf_value_t *v = val(sc, vec);
    ck_assert_uint_eq(v->nout, (unsigned)n);
    double *slots = malloc(sc->values.nslots * sizeof *slots);
    ck_assert_ptr_nonnull(slots);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 10000 + 4; i++) {
        double t = i < 10000 ? rnd_time(&seed) : (double[]){ 0, 0.4, 0.9, 3.0 }[i - 10000];
        rf_values_eval(&sc->values, t, slots);
        for (int k = 0; k < n; k++) {
            double a = slots[v->slot + (uint32_t)k], b = slots[val(sc, names[k])->slot];
            if (memcmp(&a, &b, sizeof a) != 0)
                ck_abort_msg("%s component %d at t=%.17g: %.17g, scalar %s %.17g", vec, k, t, a,
                             names[k], b);
        }
    }
    for (int k = 0; k < n; k++) {
        const rf_value_t *s = val(sc, names[k]);
        ck_assert(v->out[k].settle == s->settle);
        ck_assert(v->out[k].final == s->final);
        ck_assert(v->out[k].lo == s->lo && v->out[k].hi == s->hi);
    }
    free(slots);
}

START_TEST(test_vector_spring_bits)
{
    rf_scene_t *sc = rf_test_scene("v.json", HEAD "\"values\": {"
        "\"pos\": {\"spring\": {\"from\": [0, 10, -5], \"to\": [30, 50, 7], "
        "\"velocity\": [1, -200, 3], \"stiffness\": 210, \"damping\": 14}},"
        "\"px\": {\"spring\": {\"from\": 0, \"to\": 30, \"velocity\": 1, \"stiffness\": 210, "
        "\"damping\": 14}},"
        "\"py\": {\"spring\": {\"from\": 10, \"to\": 50, \"velocity\": -200, \"stiffness\": 210, "
        "\"damping\": 14}},"
        "\"pz\": {\"spring\": {\"from\": -5, \"to\": 7, \"velocity\": 3, \"stiffness\": 210, "
        "\"damping\": 14}}}}");
    const char *const names[] = { "px", "py", "pz" };
    same_bits(sc, "pos", names, 3);
    /* it settles when its last component does */
    const rf_value_t *v = val(sc, "pos");
    ck_assert(v->settle == fmax(fmax(val(sc, "px")->settle, val(sc, "py")->settle),
                                val(sc, "pz")->settle));
    ck_assert_int_eq(v->shape, RF_SHAPE_VECTOR);
    ck_assert_str_eq(rf_value_output_name(v, 2), "z");
    rf_scene_destroy(sc);
}
END_TEST

/* A sequence inherits each component's value and velocity: the scalar
 * sequences with the same entries are the reference. */
START_TEST(test_vector_sequence_bits)
{
    rf_scene_t *sc = rf_test_scene("v.json", HEAD "\"values\": {"
        "\"q\": {\"sequence\": ["
        "{\"at\": 0, \"spring\": {\"from\": [0, 100], \"to\": [300, -50], \"damping\": 9}},"
        "{\"at\": 0.4, \"spring\": {\"to\": [120, 20], \"stiffness\": 300}},"
        "{\"at\": 0.9, \"tween\": {\"to\": [5, 6], \"duration\": 0.5, \"easing\": \"ease-out-back\"}},"
        "{\"at\": 1.6, \"snap\": {\"to\": [1, 2]}},"
        "{\"at\": 2.0, \"keyframes\": {\"duration\": 1, \"keys\": [[0, [1, 2]], [0.3, [9, -9], "
        "\"ease-in\"], [1, [4, 4]]]}}]},"
        "\"q0\": {\"sequence\": ["
        "{\"at\": 0, \"spring\": {\"from\": 0, \"to\": 300, \"damping\": 9}},"
        "{\"at\": 0.4, \"spring\": {\"to\": 120, \"stiffness\": 300}},"
        "{\"at\": 0.9, \"tween\": {\"to\": 5, \"duration\": 0.5, \"easing\": \"ease-out-back\"}},"
        "{\"at\": 1.6, \"snap\": {\"to\": 1}},"
        "{\"at\": 2.0, \"keyframes\": {\"duration\": 1, \"keys\": [[0, 1], [0.3, 9, \"ease-in\"], "
        "[1, 4]]}}]},"
        "\"q1\": {\"sequence\": ["
        "{\"at\": 0, \"spring\": {\"from\": 100, \"to\": -50, \"damping\": 9}},"
        "{\"at\": 0.4, \"spring\": {\"to\": 20, \"stiffness\": 300}},"
        "{\"at\": 0.9, \"tween\": {\"to\": 6, \"duration\": 0.5, \"easing\": \"ease-out-back\"}},"
        "{\"at\": 1.6, \"snap\": {\"to\": 2}},"
        "{\"at\": 2.0, \"keyframes\": {\"duration\": 1, \"keys\": [[0, 2], [0.3, -9, \"ease-in\"], "
        "[1, 4]]}}]}}}");
    const char *const names[] = { "q0", "q1" };
    same_bits(sc, "q", names, 2);
    rf_scene_destroy(sc);
}
END_TEST

/* The contract's under-damped spring, differentiated by hand: x = to +
 * e^(-z w tau) (A cos(wd tau) + B sin(wd tau)), so v = e^(-z w tau) ((B wd -
 * z w A) cos(wd tau) - (A wd + z w B) sin(wd tau)). */
static double spring_velocity(double from, double to, double v0, double k, double c, double tau)
{
    double w = sqrt(k), z = c / (2 * w), wd = w * sqrt(1 - z * z), A = from - to;
    double B = (v0 + z * w * A) / wd;
    double e = exp(-z * w * tau);
    return e * ((B * wd - z * w * A) * cos(wd * tau) - (A * wd + z * w * B) * sin(wd * tau));
}

START_TEST(test_color_sequence_velocity)
{
    rf_scene_t *sc = rf_test_scene("c.json", HEAD "\"values\": {"
        "\"tint\": {\"sequence\": ["
        "{\"at\": 0, \"spring\": {\"from\": \"#ffffff\", \"to\": \"#3366cc\", \"stiffness\": 170, "
        "\"damping\": 10}},"
        "{\"at\": 0.25, \"spring\": {\"to\": \"#ff0000\", \"stiffness\": 300, \"damping\": 20}}]}}}");
    const rf_value_t *v = val(sc, "tint");
    ck_assert_int_eq(v->shape, RF_SHAPE_COLOR);
    ck_assert_uint_eq(v->nout, 4);
    const double from[4] = { 1, 1, 1, 1 };
    const double to[4] = { 0x33 / 255.0, 0x66 / 255.0, 0xcc / 255.0, 1 };
    const double T = 0.25, h = 1e-7;
    double *s = malloc(sc->values.nslots * sizeof *s);
    ck_assert_ptr_nonnull(s);
    double x0[4], xl[4], xr[4];
    rf_values_eval(&sc->values, T, s);
    memcpy(x0, s + v->slot, sizeof x0);
    rf_values_eval(&sc->values, T - h, s);
    memcpy(xl, s + v->slot, sizeof xl);
    rf_values_eval(&sc->values, T + h, s);
    memcpy(xr, s + v->slot, sizeof xr);
    for (int k = 0; k < 4; k++) {
        double vref = spring_velocity(from[k], to[k], 0, 170, 10, T);
        double left = (x0[k] - xl[k]) / h, right = (xr[k] - x0[k]) / h;
        double tol = 1e-4 * fabs(vref) + 1e-5;
        if (k < 3)
            ck_assert(fabs(vref) > 0.1);   /* a real velocity to inherit */
        if (fabs(left - vref) > tol || fabs(right - vref) > tol)
            ck_abort_msg("channel %d: velocity %.9g, left %.9g, right %.9g", k, vref, left, right);
    }
    free(s);
    rf_scene_destroy(sc);
}
END_TEST

/* A color value as a fill draws the constant color it is at, and a
 * channel past 1 (a spring's overshoot) is drawn clamped. */
START_TEST(test_color_fill_pixels)
{
    rf_scene_t *sc = rf_test_scene("f.json", HEAD "\"values\": {"
        "\"tint\": {\"tween\": {\"from\": \"#000000\", \"to\": \"#ff00ff\", \"duration\": 1}}},"
        "\"layers\": [{\"type\": \"rect\", \"x\": 4, \"y\": 4, \"width\": 8, \"height\": 8, "
        "\"fill\": \"tint\"}]}");
    rf_scene_t *ref = rf_test_scene("r.json", HEAD "\"layers\": [{\"type\": \"rect\", \"x\": 4, "
        "\"y\": 4, \"width\": 8, \"height\": 8, \"fill\": \"#330033\"}]}");
    uint32_t *a = rf_test_frame(sc, 0.2, 8, 8), *b = rf_test_frame(ref, 0, 8, 8);
    ck_assert_uint_eq(a[3 * 8 + 3], 0xff330033u);
    ck_assert_int_eq(memcmp(a, b, 8 * 8 * 4), 0);
    free(a);
    rf_scene_destroy(sc);
    /* the same color value written inline in the fill */
    sc = rf_test_scene("i.json", HEAD "\"layers\": [{\"type\": \"rect\", \"x\": 4, \"y\": 4, "
        "\"width\": 8, \"height\": 8, \"fill\": {\"tween\": {\"from\": \"#000000\", "
        "\"to\": \"#ff00ff\", \"duration\": 1}}}]}");
    a = rf_test_frame(sc, 0.2, 8, 8);
    ck_assert_int_eq(memcmp(a, b, 8 * 8 * 4), 0);
    free(a);
    free(b);
    rf_scene_destroy(sc);
    rf_scene_destroy(ref);
    /* overshoot: r, g and b above 1 at t = 0.2 (checked), drawn as 255 */
    sc = rf_test_scene("o.json", HEAD "\"values\": {"
        "\"tint\": {\"spring\": {\"from\": \"#000000\", \"to\": \"#ffffff\", \"stiffness\": 400, "
        "\"damping\": 4}}},"
        "\"layers\": [{\"type\": \"rect\", \"x\": 4, \"y\": 4, \"width\": 8, \"height\": 8, "
        "\"fill\": \"tint\"}]}");
    double *s = malloc(sc->values.nslots * sizeof *s);
    ck_assert_ptr_nonnull(s);
    rf_values_eval(&sc->values, 0.16, s);
    ck_assert(s[val(sc, "tint")->slot] > 1.5);
    a = rf_test_frame(sc, 0.16, 8, 8);
    ck_assert_uint_eq(a[3 * 8 + 3], 0xffffffffu);
    free(a);
    free(s);
    rf_scene_destroy(sc);
}
END_TEST

/* NAME.x .. NAME.w and NAME.r .. NAME.a wherever a value name goes. */
START_TEST(test_components_read)
{
    rf_scene_t *sc = rf_test_scene("e.json", HEAD "\"values\": {"
        "\"v\": {\"tween\": {\"from\": [1, 2, 3, 4], \"to\": [5, 6, 7, 8], \"duration\": 1}},"
        "\"c\": {\"snap\": {\"from\": \"#ff000080\", \"to\": \"#00ff00\", \"start\": 1}},"
        "\"e\": {\"expr\": \"v.x + 10*v.y + 100*v.z + 1000*v.w + c.a\"}},"
        "\"layers\": [{\"type\": \"rect\", \"x\": \"v.z\", \"y\": \"c.g\", \"width\": 1, "
        "\"height\": 1}]}");
    double *s = malloc(sc->values.nslots * sizeof *s);
    ck_assert_ptr_nonnull(s);
    rf_values_eval(&sc->values, 0, s);
    ck_assert(s[val(sc, "e")->slot] == 1 + 20 + 300 + 4000 + 128 / 255.0);
    rf_values_eval(&sc->values, 2, s);
    ck_assert(s[val(sc, "e")->slot] == 5 + 60 + 700 + 8000 + 1);
    ck_assert(val(sc, "e")->settle == 1);
    free(s);
    rf_scene_destroy(sc);
}
END_TEST

/* A duration policy measures the whole move: |(300, 400) - (0, 0)| = 500
 * at 1000 px/s is 0.5 s for both components (each alone would take 0.3 s
 * and 0.4 s). */
START_TEST(test_policy_euclidean)
{
    rf_scene_t *sc = rf_test_scene("p.json", HEAD "\"values\": {"
        "\"v\": {\"tween\": {\"from\": [0, 0], \"to\": [300, 400], \"duration\": "
        "{\"speed\": 1000, \"min\": 0.1, \"max\": 2}}}}}");
    const rf_value_t *v = val(sc, "v");
    ck_assert(v->out[0].settle == 0.5 && v->out[1].settle == 0.5);
    double s[2];
    rf_values_eval(&sc->values, 0.25, s);
    ck_assert(s[0] == 150 && s[1] == 200);     /* linear: half way at half time */
    rf_scene_destroy(sc);
}
END_TEST

/* `from` naming a vector value: each component starts from the source's
 * component, with its velocity (a spring); the reference is the same
 * spring given that state by hand, from the scalar source's closed form. */
START_TEST(test_from_vector)
{
    rf_scene_t *sc = rf_test_scene("f.json", HEAD "\"values\": {"
        "\"a\": {\"spring\": {\"from\": [0, 50], \"to\": [100, -50], \"damping\": 12}},"
        "\"b\": {\"spring\": {\"from\": \"a\", \"to\": [7, 8], \"start\": 0.3}},"
        "\"a0\": {\"spring\": {\"from\": 0, \"to\": 100, \"damping\": 12}},"
        "\"a1\": {\"spring\": {\"from\": 50, \"to\": -50, \"damping\": 12}}}}");
    const rf_value_t *b = val(sc, "b");
    for (int k = 0; k < 2; k++) {
        double x, v;
        rf_track_eval_state(&val(sc, k ? "a1" : "a0")->track, 0.3, &x, &v);
        const rf_anim_t *seg = &b->comps[k].segs[0];
        ck_assert(seg->from == x);
        ck_assert(fabs(v) > 1);
        double h = 1e-7, x1 = rf_track_eval(&b->comps[k], 0.3 + h);
        ck_assert(fabs((x1 - x) / h - v) < 1e-4 * fabs(v));
    }
    rf_scene_destroy(sc);
}
END_TEST

/* Reduced motion: scale s plays each component s times as long (the
 * original at start + (t - start) / s), snap is each component's final. */
START_TEST(test_reduced)
{
    static const char json[] = HEAD "\"reduced_motion\": {\"policy\": \"scale\", "
        "\"scale\": 0.5}, \"values\": {\"c\": {\"spring\": {\"from\": \"#ffffff\", "
        "\"to\": \"#3366cc\", \"start\": 0.2, \"damping\": 8}}}}";
    rf_scene_opts_t opts = {0};
    rf_scene_t *orig = rf_test_scene("r.json", json);
    opts.reduced_motion = 1;
    rf_scene_t *red = rf_test_scene_with("r.json", json, &opts);
    const rf_value_t *vo = val(orig, "c"), *vr = val(red, "c");
    for (int i = 0; i <= 100; i++) {
        double t = 0.2 + i * 0.01;
        for (int k = 0; k < 4; k++) {
            double a = rf_track_eval(&vr->comps[k], t);
            double b = rf_track_eval(&vo->comps[k], 0.2 + (t - 0.2) / 0.5);
            ck_assert_msg(fabs(a - b) <= 1e-12 * fmax(1, fabs(b)), "k %d t %g: %.17g %.17g", k,
                          t, a, b);
        }
    }
    rf_scene_destroy(orig);
    rf_scene_destroy(red);
}
END_TEST

START_TEST(test_errors)
{
    load_fails(HEAD "\"values\": {\"v\": {\"spring\": {\"from\": [0, 0], \"to\": [1, 2, 3]}}}}",
               "/values/v/spring/to: has 3 components but 'from' has 2");
    load_fails(HEAD "\"values\": {\"v\": {\"spring\": {\"from\": 0, \"to\": [1, 2]}}}}",
               "/values/v/spring/from: is a number but 'to' has 2 components: give 2 numbers");
    load_fails(HEAD "\"values\": {\"v\": {\"physics\": {\"from\": \"#ffffff\", \"gravity\": 9}}}}",
               "/values/v/physics/from: physics animates one number: a color needs spring");
    load_fails(HEAD "\"values\": {\"v\": {\"decay\": {\"from\": 0, \"velocity\": [1, 2]}}}}",
               "/values/v/decay/velocity: decay animates one number: a vector needs spring");
    load_fails(HEAD "\"values\": {\"v\": {\"spring\": {\"to\": \"#fff\", \"velocity\": \"#fff\"}}}}",
               "/values/v/spring/velocity: must be a number or an array of 2 to 4 numbers, got a "
               "string");
    load_fails(HEAD "\"values\": {\"v\": {\"tween\": {\"to\": [1, 2, 3, 4, 5], \"duration\": 1}}}}",
               "/values/v/tween/to: a vector has 2 to 4 components, got 5");
    load_fails(HEAD "\"values\": {\"v\": {\"keyframes\": {\"duration\": 1, \"keys\": [[0, [1, 2]], "
               "[1, [1, 2, 3]]]}}}}",
               "/values/v/keyframes/keys/1/1: has 3 components but key 0 has 2");
    load_fails(HEAD "\"values\": {\"v\": {\"keyframes\": {\"duration\": 1, \"keys\": [[0, [1, 2]], "
               "[1, 5]]}}}}",
               "/values/v/keyframes/keys: mixes numbers and vectors");
    load_fails(HEAD "\"values\": {\"v\": {\"sequence\": [{\"at\": 0, \"spring\": {\"to\": [1, 2]}}, "
               "{\"at\": 1, \"spring\": {\"to\": 3}}]}}}",
               "/values/v/sequence/1/spring: animates one number, but entry 0 animates 2 "
               "components");
    load_fails(HEAD "\"values\": {\"v\": {\"sequence\": [{\"at\": 0, \"spring\": {\"to\": [1, 2]}}, "
               "{\"at\": 1, \"decay\": {\"velocity\": 3}}]}}}",
               "/values/v/sequence/1/decay: decay animates one number, but entry 0 animates 2");
    load_fails(HEAD "\"values\": {\"v\": {\"spring\": {\"to\": [1, 2]}}}, \"layers\": [{\"type\": "
               "\"rect\", \"x\": \"v.z\", \"width\": 1, \"height\": 1}]}",
               "/layers/0/x: unknown output '.z' of 'v': a vector of 2 components has .x and .y");
    load_fails(HEAD "\"values\": {\"v\": {\"spring\": {\"to\": [1, 2]}}}, \"layers\": [{\"type\": "
               "\"rect\", \"x\": \"v\", \"width\": 1, \"height\": 1}]}",
               "/layers/0/x: 'v' is a vector of 2 components: use v.x, v.y");
    load_fails(HEAD "\"values\": {\"c\": {\"spring\": {\"to\": \"red\"}}, \"e\": {\"expr\": "
               "\"c.x\"}}}",
               "/values/e/expr: col 1: unknown output '.x' of 'c': a color has .r, .g, .b and .a");
    load_fails(HEAD "\"values\": {\"c\": {\"spring\": {\"to\": \"red\"}}}, \"layers\": [{\"type\": "
               "\"rect\", \"x\": \"c\", \"width\": 1, \"height\": 1}]}",
               "/layers/0/x: 'c' is a color: name it where a color goes");
    load_fails(HEAD "\"values\": {\"s\": {\"spring\": {\"to\": 1}}}, \"layers\": [{\"type\": "
               "\"rect\", \"fill\": \"s\", \"width\": 1, \"height\": 1}]}",
               "/layers/0/fill: 's' is a spring value, not a color");
    load_fails(HEAD "\"layers\": [{\"type\": \"rect\", \"fill\": {\"spring\": {\"to\": 1}}, "
               "\"width\": 1, \"height\": 1}]}",
               "/layers/0/fill: an inline value where a color goes must animate colors");
    load_fails(HEAD "\"values\": {\"c\": {\"spring\": {\"to\": \"red\"}}}, \"layers\": [{\"type\": "
               "\"rect\", \"shadow\": {\"color\": \"c\"}, \"width\": 1, \"height\": 1}]}",
               "/layers/0/shadow/color: a shadow's color is a constant color");
    load_fails(HEAD "\"values\": {\"a\": {\"spring\": {\"to\": 1}}, \"v\": {\"spring\": "
               "{\"from\": \"a\", \"to\": [1, 2]}}}}",
               "/values/v/spring/from: 'a' has 1 component, this spring 2");
}
END_TEST

static Suite *vecval_suite(void)
{
    Suite *s = suite_create("vecval");
    TCase *tc = tcase_create("vecval");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_vector_spring_bits);
    tcase_add_test(tc, test_vector_sequence_bits);
    tcase_add_test(tc, test_color_sequence_velocity);
    tcase_add_test(tc, test_color_fill_pixels);
    tcase_add_test(tc, test_components_read);
    tcase_add_test(tc, test_policy_euclidean);
    tcase_add_test(tc, test_from_vector);
    tcase_add_test(tc, test_reduced);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(vecval_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
