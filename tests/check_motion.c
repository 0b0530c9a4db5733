/* check_motion.c - motion authoring (scene-v1.md "Motion authoring"):
 * snap, delay, springs by feel, reduced motion, end reasons and sampled
 * easings, each against hand values or an independent evaluation (the
 * original descriptor at a remapped time, the expression evaluated
 * directly), through the engine and through the loader. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "diag.h"
#include "motion.h"
#include "scene.h"
#include "values.h"
#include "scenetest.h"

/* The scene of json (reduced: as --reduced-motion loads it). */
static rf_scene_t *load(const char *json, int reduced)
{
    rf_scene_opts_t opts = {0};
    opts.reduced_motion = reduced;
    return rf_test_scene_with("motion.json", json, &opts);
}

/* The first error of a scene that must not load. */
static void load_fails(const char *json, const char *want)
{
    rf_diag_t *dg = malloc(sizeof *dg);
    ck_assert_ptr_nonnull(dg);
    rf_scene_t *sc = rf_scene_load_buffer("bad.json", json, strlen(json), dg);
    ck_assert_ptr_null(sc);
    ck_assert_int_ge(dg->count, 1);
    if (strstr(dg->msg[0], want) == NULL)
        ck_abort_msg("error '%s' does not contain '%s'", dg->msg[0], want);
    free(dg);
}

static const rf_value_t *val(const rf_scene_t *sc, const char *name)
{
    const rf_value_t *v = rf_values_find(&sc->values, name);
    ck_assert_ptr_nonnull(v);
    return v;
}

static double at(const rf_scene_t *sc, const char *name, double t)
{
    return rf_track_eval(&val(sc, name)->track, t);
}

#define HEAD "{\"runeframe\": 1, \"canvas\": {\"width\": 8, \"height\": 8}, " \
             "\"timeline\": {\"duration\": 4, \"fps\": 10}, "

/* ------------------------------------------------------------ snap, delay */

START_TEST(test_snap_engine)
{
    rf_anim_spec_t s;
    rf_anim_t a;
    rf_anim_spec_defaults(&s, RF_CURVE_SNAP);
    s.from = 3;
    s.to = -7;
    s.start = 0.5;
    rf_anim_init(&a, &s);
    ck_assert(rf_anim_eval(&a, 0) == 3);
    ck_assert(rf_anim_eval(&a, nextafter(0.5, 0)) == 3);
    ck_assert(rf_anim_eval(&a, 0.5) == -7);
    ck_assert(rf_anim_eval(&a, 1e9) == -7);
    ck_assert(a.settle == 0.5 && a.final == -7);
    ck_assert(a.lo == -7 && a.hi == 3);
    double x, v;
    rf_anim_eval_state(&a, 0.7, &x, &v);
    ck_assert(x == -7 && v == 0);
    /* with a delay it jumps at start + delay */
    s.delay = 0.25;
    rf_anim_init(&a, &s);
    ck_assert(rf_anim_eval(&a, 0.7) == 3);
    ck_assert(rf_anim_eval(&a, 0.75) == -7);
    ck_assert(a.settle == 0.75);
}
END_TEST

START_TEST(test_delay_engine)
{
    /* a linear tween 0 -> 10 over 1 s, start 0.5, delay 0.5: holds 0 until
     * 1, then 10 (t - 1) */
    rf_anim_spec_t s;
    rf_anim_t a;
    rf_anim_spec_defaults(&s, RF_CURVE_EASED);
    s.from = 0;
    s.to = 10;
    s.duration = 1;
    s.start = 0.5;
    s.delay = 0.5;
    rf_anim_init(&a, &s);
    ck_assert(rf_anim_eval(&a, 0.9) == 0);
    ck_assert(rf_anim_eval(&a, 1.25) == 2.5);
    ck_assert(rf_anim_eval(&a, 1.5) == 5);
    ck_assert(a.settle == 2.0);
    /* a spring with a delay is the same spring started later, bit for bit */
    rf_anim_spec_t p, q;
    rf_anim_t b, c;
    rf_anim_spec_defaults(&p, RF_CURVE_SPRING);
    p.from = 0;
    p.to = 100;
    p.velocity = 50;
    q = p;
    p.start = 0.2;
    p.delay = 0.3;
    q.start = 0.5;
    rf_anim_init(&b, &p);
    rf_anim_init(&c, &q);
    for (double t = 0; t < 3; t += 0.01)
        ck_assert(rf_anim_eval(&b, t) == rf_anim_eval(&c, t));
    ck_assert(b.settle == c.settle);
}
END_TEST

START_TEST(test_snap_delay_scene)
{
    rf_scene_t *sc = load(HEAD "\"values\": {"
        "\"s\": {\"snap\": {\"from\": 3, \"to\": 7, \"start\": 0.5, \"delay\": 0.25}},"
        "\"d\": {\"tween\": {\"from\": 0, \"to\": 10, \"duration\": 1, \"delay\": 0.5}},"
        "\"q\": {\"sequence\": [{\"at\": 0, \"tween\": {\"from\": 0, \"to\": 10, \"duration\": 1}},"
        "  {\"at\": 0.5, \"tween\": {\"to\": 0, \"duration\": 0.5, \"delay\": 0.25}},"
        "  {\"at\": 1.5, \"snap\": {\"to\": 4}}]}}}", 0);
    ck_assert(at(sc, "s", 0.74) == 3 && at(sc, "s", 0.75) == 7);
    ck_assert(val(sc, "s")->settle == 0.75);
    ck_assert(at(sc, "d", 0.5) == 0 && at(sc, "d", 1.0) == 5 && at(sc, "d", 1.5) == 10);
    /* the second entry retargets at 0.75, from the first's 7.5, linearly
     * to 0 by 1.25; the snap entry jumps to 4 at 1.5 */
    ck_assert(at(sc, "q", 0.7) == 7);
    ck_assert(at(sc, "q", 0.75) == 7.5);
    ck_assert(at(sc, "q", 1.0) == 3.75);
    ck_assert(at(sc, "q", 1.4) == 0);
    ck_assert(at(sc, "q", 1.5) == 4);
    ck_assert(val(sc, "q")->settle == 1.5 && val(sc, "q")->final == 4);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(test_snap_delay_errors)
{
    load_fails(HEAD "\"values\": {\"s\": {\"snap\": {\"from\": 3}}}}",
               "/values/s/snap: missing required key 'to'");
    load_fails(HEAD "\"values\": {\"s\": {\"snap\": {\"to\": 3, \"duration\": 1}}}}",
               "/values/s/snap/duration: unknown");
    load_fails(HEAD "\"values\": {\"d\": {\"tween\": {\"to\": 1, \"duration\": 1, \"delay\": -1}}}}",
               "/values/d/tween/delay: must be");
    load_fails(HEAD "\"values\": {\"q\": {\"sequence\": [{\"at\": 0, \"tween\": {\"from\": 0, "
               "\"to\": 1, \"duration\": 1, \"delay\": 1}}, {\"at\": 0.5, \"snap\": {\"to\": 2}}]}}}",
               "/values/q/sequence/1/at: the previous entry starts at its at + delay = 1");
}
END_TEST

/* ------------------------------------------------------- springs by feel */

START_TEST(test_spring_feel_scene)
{
    /* Compose's spring(500 ms, bounce 0.25): stiffness (2 pi / 0.5)^2 =
     * 157.91367..., damping ratio 0.75; spring(400 ms, bounce -0.5):
     * 246.74011..., ratio 2 (over-damped). The same springs written with
     * those numbers are the same descriptors. */
    const double pi = 3.14159265358979323846;
    char json[1024];
    double k1 = (2 * pi / 0.5) * (2 * pi / 0.5), k2 = (2 * pi / 0.4) * (2 * pi / 0.4);
    snprintf(json, sizeof json, HEAD "\"values\": {"
             "\"a\": {\"spring\": {\"to\": 100, \"duration\": 0.5, \"bounce\": 0.25}},"
             "\"b\": {\"spring\": {\"to\": 100, \"stiffness\": %.17g, \"damping_ratio\": 0.75}},"
             "\"c\": {\"spring\": {\"to\": 100, \"duration\": 0.4, \"bounce\": -0.5}},"
             "\"d\": {\"spring\": {\"to\": 100, \"stiffness\": %.17g, \"damping_ratio\": 2}},"
             "\"e\": {\"spring\": {\"to\": 100, \"duration\": 0.5}}}}", k1, k2);
    rf_scene_t *sc = load(json, 0);
    ck_assert(fabs(k1 - 157.913670) < 1e-6 && fabs(k2 - 246.740110) < 1e-6);
    for (double t = 0; t < 3; t += 0.0125) {
        ck_assert(at(sc, "a", t) == at(sc, "b", t));
        ck_assert(at(sc, "c", t) == at(sc, "d", t));
    }
    ck_assert_int_eq(val(sc, "a")->track.segs[0].regime, 0);
    ck_assert_int_eq(val(sc, "c")->track.segs[0].regime, 2);
    /* bounce 0 (the default) is critical damping */
    ck_assert_int_eq(val(sc, "e")->track.segs[0].regime, 1);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(test_spring_feel_errors)
{
    double k, z;
    ck_assert_int_eq(rf_spring_by_feel(0, 0, &k, &z), -1);
    ck_assert_int_eq(rf_spring_by_feel(0.5, 1, &k, &z), -1);
    ck_assert_int_eq(rf_spring_by_feel(0.5, -1, &k, &z), -1);
    ck_assert_int_eq(rf_spring_by_feel(1e-200, 0, &k, &z), -1);
    ck_assert_int_eq(rf_spring_by_feel(0.5, 0.999, &k, &z), 0);
    load_fails(HEAD "\"values\": {\"s\": {\"spring\": {\"to\": 1, \"duration\": -1}}}}",
               "/values/s/spring/duration: must be > 0, got -1");
    load_fails(HEAD "\"values\": {\"s\": {\"spring\": {\"to\": 1, \"duration\": 1, \"bounce\": 1}}}}",
               "/values/s/spring/bounce: must be > -1 and < 1, got 1");
    load_fails(HEAD "\"values\": {\"s\": {\"spring\": {\"to\": 1, \"duration\": 1, \"bounce\": -1}}}}",
               "/values/s/spring/bounce: must be > -1 and < 1, got -1");
    load_fails(HEAD "\"values\": {\"s\": {\"spring\": {\"to\": 1, \"duration\": 1e-200}}}}",
               "/values/s/spring/duration: too short");
    load_fails(HEAD "\"values\": {\"s\": {\"spring\": {\"to\": 1, \"damping\": 3, \"bounce\": 0.5}}}}",
               "/values/s/spring/bounce: give either 'duration' and 'bounce' or 'stiffness'");
}
END_TEST

static Suite *motion_suite(void)
{
    Suite *s = suite_create("motion");
    TCase *tc = tcase_create("snap-delay");
    tcase_add_test(tc, test_snap_engine);
    tcase_add_test(tc, test_delay_engine);
    tcase_add_test(tc, test_snap_delay_scene);
    tcase_add_test(tc, test_snap_delay_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("spring-feel");
    tcase_add_test(tc, test_spring_feel_scene);
    tcase_add_test(tc, test_spring_feel_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(motion_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
