/* check_story.c - `states`, `transitions` and `storyboard` (scene-v1.md
 * "Motion authoring"): a storyboard loads into exactly the sequences it
 * stands for (compared bit for bit with a hand-written scene of those
 * sequences at 10,000 random times, value and velocity, and with
 * --reduced-motion), its steps complete when their slowest channel
 * settles (seed 003's TransitionCore: against closed forms: at + duration
 * + delay), and bad input fails with a message at the user's key. */
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
             "\"timeline\": {\"duration\": 6, \"fps\": 10}, "

/* Three states, five steps: an underdamped and a critically damped spring,
 * a tween with a Penner easing, a bezier with a delay, a spring by role,
 * a state that leaves a value out (no entry there), a value of `values`
 * next to them, and one that is given again at the same target. */
static const char story_json[] = HEAD
    "\"values\": {\"other\": {\"tween\": {\"from\": 0, \"to\": 5, \"duration\": 1}}},"
    "\"states\": {"
    "  \"rest\":  {\"y\": 640, \"o\": 0, \"w\": 100, \"r\": 4, \"s\": 1},"
    "  \"open\":  {\"y\": 220, \"o\": 1, \"w\": 300, \"r\": 16},"
    "  \"peek\":  {\"y\": 500, \"o\": 0.5, \"s\": 1}},"
    "\"transitions\": {"
    "  \"*\": {\"spring\": {\"stiffness\": 300, \"damping\": 12}},"
    "  \"o\": {\"tween\": {\"duration\": 0.2, \"easing\": \"ease-out-back\"}},"
    "  \"w\": {\"bezier\": {\"duration\": 0.4, \"curve\": [0.2, 0, 0, 1], \"delay\": 0.05}},"
    "  \"r\": {\"spring\": {\"stiffness\": 200, \"damping_ratio\": 1}},"
    "  \"s\": {\"spring\": {\"role\": \"spatial-fast\"}}},"
    "\"storyboard\": [{\"at\": 0.1, \"state\": \"rest\"}, {\"at\": 0.3, \"state\": \"open\"},"
    "  {\"at\": 0.5, \"state\": \"peek\"}, {\"at\": 1.6, \"state\": \"rest\"},"
    "  {\"at\": 2.25, \"state\": \"open\"}]}";

/* The same motion written by hand as sequences (scene-v1.md "sequence"):
 * each value holds its first state from the first step, then retargets at
 * every step whose state gives it. spatial-fast is Compose's standard
 * scheme: stiffness 1400, damping ratio 0.9. */
#define SPRING_STAR "\"stiffness\": 300, \"damping\": 12"
#define TW_O "\"duration\": 0.2, \"easing\": \"ease-out-back\""
#define BZ_W "\"duration\": 0.4, \"curve\": [0.2, 0, 0, 1], \"delay\": 0.05"
#define SP_R "\"stiffness\": 200, \"damping_ratio\": 1"
#define SP_S "\"stiffness\": 1400, \"damping_ratio\": 0.9"
static const char hand_json[] = HEAD
    "\"values\": {\"other\": {\"tween\": {\"from\": 0, \"to\": 5, \"duration\": 1}},"
    "\"y\": {\"sequence\": [{\"at\": 0.1, \"snap\": {\"from\": 640, \"to\": 640}},"
    "  {\"at\": 0.3, \"spring\": {" SPRING_STAR ", \"to\": 220}},"
    "  {\"at\": 0.5, \"spring\": {" SPRING_STAR ", \"to\": 500}},"
    "  {\"at\": 1.6, \"spring\": {" SPRING_STAR ", \"to\": 640}},"
    "  {\"at\": 2.25, \"spring\": {" SPRING_STAR ", \"to\": 220}}]},"
    "\"o\": {\"sequence\": [{\"at\": 0.1, \"snap\": {\"from\": 0, \"to\": 0}},"
    "  {\"at\": 0.3, \"tween\": {" TW_O ", \"to\": 1}},"
    "  {\"at\": 0.5, \"tween\": {" TW_O ", \"to\": 0.5}},"
    "  {\"at\": 1.6, \"tween\": {" TW_O ", \"to\": 0}},"
    "  {\"at\": 2.25, \"tween\": {" TW_O ", \"to\": 1}}]},"
    "\"w\": {\"sequence\": [{\"at\": 0.1, \"snap\": {\"from\": 100, \"to\": 100}},"
    "  {\"at\": 0.3, \"bezier\": {" BZ_W ", \"to\": 300}},"
    "  {\"at\": 1.6, \"bezier\": {" BZ_W ", \"to\": 100}},"
    "  {\"at\": 2.25, \"bezier\": {" BZ_W ", \"to\": 300}}]},"
    "\"r\": {\"sequence\": [{\"at\": 0.1, \"snap\": {\"from\": 4, \"to\": 4}},"
    "  {\"at\": 0.3, \"spring\": {" SP_R ", \"to\": 16}},"
    "  {\"at\": 1.6, \"spring\": {" SP_R ", \"to\": 4}},"
    "  {\"at\": 2.25, \"spring\": {" SP_R ", \"to\": 16}}]},"
    "\"s\": {\"sequence\": [{\"at\": 0.1, \"snap\": {\"from\": 1, \"to\": 1}},"
    "  {\"at\": 0.5, \"spring\": {" SP_S ", \"to\": 1}},"
    "  {\"at\": 1.6, \"spring\": {" SP_S ", \"to\": 1}}]}}}";

static const char *const names[] = { "other", "y", "o", "w", "r", "s" };

/* A deterministic uniform double in [0, 1) (64-bit LCG, top 53 bits). */
static double rnd(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*st >> 11) * (1.0 / 9007199254740992.0);
}

static rf_scene_t *load(const char *json, int reduced)
{
    rf_scene_opts_t opts = {0};
    opts.reduced_motion = reduced;
    return rf_test_scene_with("story.json", json, &opts);
}

static void same_bits(double a, double b, const char *what, const char *name, double t)
{
    if (memcmp(&a, &b, sizeof a) != 0)
        ck_abort_msg("%s of %s at t = %.17g: storyboard %.17g, hand-written %.17g", what, name,
                     t, a, b);
}

/* json with `extra` (keys and a comma) inserted after HEAD; malloc'd. */
static char *with(const char *json, const char *extra)
{
    size_t h = strlen(HEAD), n = strlen(json), e = strlen(extra);
    char *out = malloc(n + e + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, json, h);
    memcpy(out + h, extra, e);
    memcpy(out + h + e, json + h, n - h + 1);
    return out;
}

static void compare_with(int reduced, const char *extra)
{
    char *ja = with(story_json, extra), *jb = with(hand_json, extra);
    rf_scene_t *a = load(ja, reduced), *b = load(jb, reduced);
    free(ja);
    free(jb);
    const rf_values_t *va = &a->values, *vb = &b->values;
    ck_assert_uint_eq(va->nnamed, vb->nnamed);
    ck_assert_uint_eq(va->nslots, vb->nslots);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const rf_value_t *x = rf_values_find(va, names[k]), *y = rf_values_find(vb, names[k]);
        ck_assert_ptr_nonnull(x);
        ck_assert_ptr_nonnull(y);
        ck_assert_int_eq(x->kind, y->kind);
        ck_assert_uint_eq(x->track.n, y->track.n);
        same_bits(x->settle, y->settle, "settle", names[k], 0);
        same_bits(x->final, y->final, "final", names[k], 0);
        same_bits(x->lo, y->lo, "lo", names[k], 0);
        same_bits(x->hi, y->hi, "hi", names[k], 0);
        ck_assert_int_eq(x->end, y->end);
    }
    ck_assert_int_eq(rf_values_find(va, "y")->kind, RF_VALUE_SEQUENCE);
    double *sa = malloc(va->nslots * sizeof *sa), *sb = malloc(vb->nslots * sizeof *sb);
    ck_assert_ptr_nonnull(sa);
    ck_assert_ptr_nonnull(sb);
    uint64_t st = 21;
    for (int i = 0; i < 10000; i++) {
        /* random times over the motion, plus the step times exactly */
        double t = i < 5 ? (double[]){ 0.1, 0.3, 0.5, 1.6, 2.25 }[i] : rnd(&st) * 4 - 0.5;
        rf_values_eval(va, t, sa);
        rf_values_eval(vb, t, sb);
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            const rf_value_t *x = rf_values_find(va, names[k]), *y = rf_values_find(vb, names[k]);
            same_bits(sa[x->slot], sb[y->slot], "value", names[k], t);
            double xa, da, xb, db;
            rf_track_eval_state(&x->track, t, &xa, &da);
            rf_track_eval_state(&y->track, t, &xb, &db);
            same_bits(xa, xb, "state value", names[k], t);
            same_bits(da, db, "velocity", names[k], t);
        }
    }
    free(sa);
    free(sb);
    rf_scene_destroy(a);
    rf_scene_destroy(b);
}

START_TEST(test_story_equals_sequences)
{
    compare_with(0, "");
}
END_TEST

/* --reduced-motion, both policies: the storyboard is reduced exactly as
 * its sequences are (its `at`s stay on the scene clock) */
START_TEST(test_story_equals_sequences_reduced)
{
    compare_with(1, "");
    compare_with(1, "\"reduced_motion\": {\"policy\": \"scale\", \"scale\": 0.4}, ");
}
END_TEST

/* The equivalence is not vacuous: the values move and retarget mid-flight
 * (y is still moving at 0.5 when peek takes over, and overshoots). */
START_TEST(test_story_moves)
{
    rf_scene_t *a = load(story_json, 0);
    const rf_value_t *y = rf_values_find(&a->values, "y");
    ck_assert(rf_track_eval(&y->track, 0) == 640);
    ck_assert(rf_track_eval(&y->track, 0.3) == 640);
    double x, v;
    rf_track_eval_state(&y->track, 0.35, &x, &v);
    ck_assert(x < 640 && x > 220 && v < 0);
    rf_track_eval_state(&y->track, 0.5, &x, &v);
    ck_assert(x != 220 && x != 500 && v != 0);
    ck_assert(y->lo < 220);     /* an underdamped spring overshoots */
    ck_assert(y->final == 220);
    rf_scene_destroy(a);
}
END_TEST

/* TransitionCore: a step is complete when its slowest channel settles. */
START_TEST(test_story_steps)
{
    static const char json[] = HEAD
        "\"states\": {\"a\": {\"x\": 0, \"y\": 0, \"z\": 0}, \"b\": {\"x\": 1, \"y\": 2, \"z\": 3},"
        "  \"c\": {\"x\": 5}, \"e\": {}},"
        "\"transitions\": {\"x\": {\"tween\": {\"duration\": 0.5}},"
        "  \"y\": {\"bezier\": {\"duration\": 0.25, \"delay\": 0.375}},"
        "  \"z\": {\"snap\": {}}},"
        "\"storyboard\": [{\"at\": 0.25, \"state\": \"a\"}, {\"at\": 1, \"state\": \"b\"},"
        "  {\"at\": 2, \"state\": \"c\"}, {\"at\": 2.125, \"state\": \"a\"},"
        "  {\"at\": 3, \"state\": \"e\"}]}";
    rf_scene_t *sc = load(json, 0);
    ck_assert_uint_eq(sc->nsteps, 5);
    const rf_story_step_t *s = sc->steps;
    /* the first step holds: complete when it is entered */
    ck_assert_str_eq(s[0].state, "a");
    ck_assert(s[0].at == 0.25 && s[0].complete == 0.25);
    ck_assert_uint_eq(s[0].nchannels, 3);
    /* x: 1 + 0.5; y: 1 + 0.375 + 0.25 = 1.625 (the slowest); z: 1 */
    ck_assert(s[1].complete == 1.625);
    ck_assert_str_eq(s[1].slowest, "y");
    ck_assert(!s[1].interrupted);
    /* c moves x alone: 2 + 0.5, but a takes over at 2.125 */
    ck_assert(s[2].complete == 2.5);
    ck_assert_str_eq(s[2].slowest, "x");
    ck_assert_uint_eq(s[2].nchannels, 1);
    ck_assert(s[2].interrupted);
    /* a: x 2.625, y 2.125 + 0.625 = 2.75, z 2.125 */
    ck_assert(s[3].complete == 2.75);
    ck_assert_str_eq(s[3].slowest, "y");
    ck_assert(!s[3].interrupted);
    /* a state that gives nothing is complete when entered */
    ck_assert(s[4].complete == 3 && s[4].slowest == NULL && s[4].nchannels == 0);
    rf_scene_destroy(sc);

    /* with --reduced-motion (snap) every step is complete when entered,
     * after its delay */
    sc = load(json, 1);
    ck_assert(sc->steps[1].complete == 1.375);
    ck_assert(sc->steps[2].complete == 2 && !sc->steps[2].interrupted);
    rf_scene_destroy(sc);

    /* a critically damped spring from rest: x(t) = to + (from - to)(1 +
     * w t) e^(-w t) with w = sqrt(k), from - to = 100, k = 400; it settles
     * (scene-v1.md) at the first whole millisecond after which |x - to| <=
     * 0.01 for good: bisection on the closed form, then ceil to 1 ms */
    static const char json2[] = HEAD
        "\"states\": {\"a\": {\"x\": 100}, \"b\": {\"x\": 0}},"
        "\"transitions\": {\"*\": {\"spring\": {\"stiffness\": 400, \"damping_ratio\": 1}}},"
        "\"storyboard\": [{\"at\": 0, \"state\": \"a\"}, {\"at\": 0.5, \"state\": \"b\"}]}";
    sc = load(json2, 0);
    double lo = 0, hi = 10, w = 20;
    for (int i = 0; i < 200; i++) {
        double m = (lo + hi) / 2;
        if (100 * (1 + w * m) * exp(-w * m) <= 0.01)
            hi = m;
        else
            lo = m;
    }
    double want = 0.5 + ceil(hi * 1000) / 1000;
    ck_assert_msg(fabs(sc->steps[1].complete - want) <= 1e-12, "complete %.17g, closed form %.17g",
                  sc->steps[1].complete, want);
    ck_assert_str_eq(sc->steps[1].slowest, "x");
    rf_scene_destroy(sc);
}
END_TEST

/* The first error of a scene that must not load. */
static void load_fails(const char *json, const char *want)
{
    rf_test_load_fails(json, want);
}

#define AB "\"states\": {\"a\": {\"x\": 1}, \"b\": {\"x\": 2}}, "
#define SB "\"storyboard\": [{\"at\": 0, \"state\": \"a\"}, {\"at\": 1, \"state\": \"b\"}]}"
#define SPRING "\"transitions\": {\"*\": {\"spring\": {}}}, "

START_TEST(test_story_errors)
{
    load_fails(HEAD "\"values\": {\"x\": 1}, " AB SPRING SB,
               "/states/a/x: 'x' is already defined in 'values'");
    load_fails(HEAD AB SPRING "\"storyboard\": [{\"at\": 1, \"state\": \"a\"}, "
               "{\"at\": 0.5, \"state\": \"b\"}]}", "/storyboard/1/at: the storyboard is in time order");
    load_fails(HEAD AB SPRING "\"storyboard\": [{\"at\": 0, \"state\": \"a\"}, "
               "{\"at\": 1, \"state\": \"bee\"}]}", "/storyboard/1/state: unknown state 'bee'");
    load_fails(HEAD AB SPRING "\"storyboard\": [{\"at\": -1, \"state\": \"a\"}]}",
               "/storyboard/0/at: must be >= 0");
    load_fails(HEAD "\"states\": {\"a\": {\"x\": 1}, \"b\": {\"x\": 2, \"y\": 1}}, " SPRING SB,
               "/storyboard/0/state: the first step's state 'a' says where every state value "
               "starts, and gives no 'y'");
    load_fails(HEAD AB "\"transitions\": {\"xx\": {\"spring\": {}}}, " SB,
               "/transitions/xx: no state gives a value 'xx' (did you mean 'x'?)");
    load_fails(HEAD AB SB, "/storyboard/1/state: 'x' moves here and has no transition");
    load_fails(HEAD AB "\"transitions\": {\"x\": {\"decay\": {}}}, " SB,
               "/transitions/x/decay: a transition moves to the state's value");
    load_fails(HEAD AB "\"transitions\": {\"x\": {\"spring\": {\"to\": 3}}}, " SB,
               "/transitions/x/spring/to: the state gives the target");
    load_fails(HEAD AB "\"transitions\": {\"x\": {\"spring\": {\"velocity\": 3}}}, " SB,
               "/transitions/x/spring/velocity: a transition starts with the value's current");
    load_fails(HEAD AB "\"transitions\": {\"x\": {\"spring\": {}, \"tween\": {}}}, " SB,
               "/transitions/x/tween: a transition has exactly one kind");
    /* errors the values parser finds come back at the user's keys */
    load_fails(HEAD AB "\"transitions\": {\"x\": {\"spring\": {\"stiffness\": 0}}}, " SB,
               "/transitions/x/spring/stiffness: must be > 0");
    load_fails(HEAD AB "\"transitions\": {\"*\": {\"tween\": {\"duration\": 1, "
               "\"easing\": \"eas-out\"}}}, " SB, "/transitions/*/tween/easing: unknown easing");
    load_fails(HEAD AB "\"transitions\": {\"*\": {\"tween\": {}}}, " SB,
               "/transitions/*/tween: missing required key 'duration'");
    load_fails(HEAD "\"states\": {\"a\": {\"x\": 1}, \"b\": {\"x\": true}}, " SPRING SB,
               "/states/b/x: must be a number");
    load_fails(HEAD "\"states\": {\"a\": {\"sin\": 1}, \"b\": {\"sin\": 2}}, " SPRING
               "\"storyboard\": [{\"at\": 0, \"state\": \"a\"}]}",
               "/states/a/sin: invalid value name 'sin'");
    load_fails(HEAD AB SPRING "\"storyboard\": []}", "/storyboard: must have at least one step");
    load_fails(HEAD AB SPRING "\"storyboard\": [{\"at\": 0}]}",
               "/storyboard/0: missing required key 'state'");
    load_fails(HEAD AB SPRING "\"storyboard\": [{\"at\": 0, \"state\": \"a\", \"stat\": 1}]}",
               "/storyboard/0/stat: unknown key 'stat'");
    load_fails(HEAD AB SPRING "\"storyboard\": {}}", "/storyboard: must be an array");
    load_fails(HEAD "\"states\": {\"a\": 1}, " SPRING SB, "/states/a: must be an object");
    load_fails(HEAD "\"states\": {\"a\": {\"x\": 1}}}", "/states: needs a 'storyboard'");
    load_fails(HEAD SB, "/storyboard: needs 'states'");
    load_fails(HEAD "\"transitions\": {}}", "/transitions: needs 'states'");
    /* a layer reads a state value like any other */
    load_fails(HEAD AB SPRING "\"storyboard\": [{\"at\": 0, \"state\": \"a\"}], "
               "\"layers\": [{\"type\": \"rect\", \"width\": \"xy\", \"height\": 2}]}",
               "unknown value 'xy' (did you mean 'x'?)");
}
END_TEST

/* One message per user key, however many values use a transition. */
START_TEST(test_story_errors_once)
{
    static const char json[] = HEAD
        "\"states\": {\"a\": {\"x\": 1, \"y\": 1}, \"b\": {\"x\": 2, \"y\": 2}},"
        "\"transitions\": {\"*\": {\"spring\": {\"stiffness\": -1}}},"
        "\"storyboard\": [{\"at\": 0, \"state\": \"a\"}, {\"at\": 1, \"state\": \"b\"},"
        "  {\"at\": 2, \"state\": \"a\"}]}";
    rf_diag_t *dg = malloc(sizeof *dg);
    ck_assert_ptr_nonnull(dg);
    ck_assert_ptr_null(rf_scene_load_buffer("bad.json", json, strlen(json), dg));
    ck_assert_int_eq(dg->count, 1);
    ck_assert_str_eq(dg->msg[0], "runeframe: bad.json: /transitions/*/spring/stiffness: "
                                 "must be > 0, got -1");
    /* an error elsewhere in the file leaves the state values defined: a
     * layer that reads one is not reported */
    static const char json2[] = HEAD "\"canvas2\": 1, " AB SPRING
        "\"storyboard\": [{\"at\": 0, \"state\": \"a\"}], "
        "\"layers\": [{\"type\": \"rect\", \"width\": \"x\", \"height\": 2}]}";
    ck_assert_ptr_null(rf_scene_load_buffer("bad.json", json2, strlen(json2), dg));
    ck_assert_int_eq(dg->count, 1);
    ck_assert_ptr_nonnull(strstr(dg->msg[0], "/canvas2: unknown key"));
    free(dg);
}
END_TEST

static Suite *story_suite(void)
{
    Suite *s = suite_create("story");
    TCase *tc = tcase_create("equivalence");
    tcase_add_test(tc, test_story_equals_sequences);
    tcase_add_test(tc, test_story_equals_sequences_reduced);
    tcase_add_test(tc, test_story_moves);
    suite_add_tcase(s, tc);
    tc = tcase_create("steps");
    tcase_add_test(tc, test_story_steps);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_story_errors);
    tcase_add_test(tc, test_story_errors_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(story_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
