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
#define load_fails rf_test_load_fails
#define val rf_test_value

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

/* --------------------------------------------------------- reduced motion */

/* One value of each kind, each starting at 0.3 (most with a delay), plus an
 * essential spring, a never-settling loop and a sequence. */
#define KINDS_VALUES \
    "\"sp\": {\"spring\": {\"from\": -40, \"to\": 100, \"stiffness\": 210, \"damping\": 9, " \
    "  \"velocity\": 300, \"start\": 0.3, \"delay\": 0.2}}," \
    "\"so\": {\"spring\": {\"from\": 0, \"to\": 10, \"stiffness\": 50, \"damping_ratio\": 1.7, " \
    "  \"velocity\": -20, \"start\": 0.3}}," \
    "\"tw\": {\"tween\": {\"from\": 5, \"to\": 90, \"duration\": 1.1, \"easing\": \"ease-out-back\", " \
    "  \"start\": 0.3, \"delay\": 0.1}}," \
    "\"bz\": {\"bezier\": {\"from\": 0, \"to\": 1, \"curve\": [0.3, 0.1, 0.2, 1], \"duration\": 0.7, " \
    "  \"repeat\": \"ping-pong\", \"iterations\": 3, \"start\": 0.3}}," \
    "\"bp\": {\"bezier\": {\"from\": 0, \"to\": 500, \"duration\": {\"speed\": 400, \"min\": 0.2, " \
    "  \"max\": 3}, \"start\": 0.3}}," \
    "\"kf\": {\"keyframes\": {\"duration\": 1.3, \"interp\": \"smoothstep\", \"keys\": [[0, 0], " \
    "  [0.4, 70, \"ease-in\"], [1, 20]], \"start\": 0.3, \"delay\": 0.05}}," \
    "\"ph\": {\"physics\": {\"from\": 100, \"velocity\": -300, \"friction\": 1.5, \"gravity\": 900, " \
    "  \"max\": 400, \"start\": 0.3}}," \
    "\"pq\": {\"physics\": {\"from\": 0, \"velocity\": 50, \"gravity\": -30, \"start\": 0.3}}," \
    "\"dc\": {\"decay\": {\"from\": 10, \"velocity\": 800, \"friction\": 0.7, \"start\": 0.3, " \
    "  \"delay\": 0.1}}," \
    "\"lp\": {\"repeat\": {\"from\": 2, \"to\": 8, \"duration\": 0.5, \"start\": 0.3}}," \
    "\"es\": {\"spring\": {\"from\": 0, \"to\": 50, \"start\": 0.3}, \"essential\": true}," \
    "\"sq\": {\"sequence\": [{\"at\": 0.3, \"spring\": {\"from\": 0, \"to\": 300}}," \
    "  {\"at\": 0.6, \"tween\": {\"to\": 50, \"duration\": 5}}, {\"at\": 0.9, \"decay\": {\"velocity\": 10}}]}," \
    "\"ex\": {\"expr\": \"sp + 1\"}"

static const char *const scaled_kinds[] = { "sp", "so", "tw", "bz", "bp", "kf", "ph", "pq", "dc" };

START_TEST(test_reduced_scale)
{
    /* s = 0.3 (not a power of two: nothing is exact by accident) */
    const double s = 0.3, start = 0.3;
    rf_scene_t *o = load(HEAD "\"reduced_motion\": {\"policy\": \"scale\", \"scale\": 0.3}, "
                         "\"values\": {" KINDS_VALUES "}}", 0);
    rf_scene_t *r = load(HEAD "\"reduced_motion\": {\"policy\": \"scale\", \"scale\": 0.3}, "
                         "\"values\": {" KINDS_VALUES "}}", 1);
    long compared = 0;
    for (size_t k = 0; k < sizeof scaled_kinds / sizeof scaled_kinds[0]; k++) {
        const char *n = scaled_kinds[k];
        const rf_value_t *vo = val(o, n), *vr = val(r, n);
        for (int j = 0; j <= 4000; j++) {
            double t = j * 1e-3;                      /* 0 .. 4 s */
            double tr = start + (t - start) / s;      /* the original's time */
            if (t < start)
                tr = t;
            /* the settle times are found to 1 ms, each on its own clock:
             * leave out the millisecond around either (there the one is
             * exactly its target and the other within its threshold) */
            if (fabs(tr - vo->settle) <= 2e-3 / s || fabs(t - vr->settle) <= 2e-3)
                continue;
            double want = rf_track_eval(&vo->track, tr), got = rf_track_eval(&vr->track, t);
            if (!(fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want))))
                ck_abort_msg("%s at t = %.17g: %.17g, the original at %.17g is %.17g", n, t, got,
                             tr, want);
            compared++;
        }
        /* the same final value and range */
        ck_assert_msg(vr->final == vo->final || (isnan(vr->final) && isnan(vo->final)), "%s", n);
    }
    ck_assert_int_gt(compared, 30000);
    /* the settle time of a duration-based kind is exactly scaled */
    ck_assert(fabs((val(r, "tw")->settle - start) - s * (val(o, "tw")->settle - start)) < 1e-12);
    /* essential: untouched */
    for (int j = 0; j <= 400; j++)
        ck_assert(at(r, "es", j * 0.01) == at(o, "es", j * 0.01));
    /* the expression follows its input */
    double *slots = malloc(r->values.nslots * sizeof *slots);
    ck_assert_ptr_nonnull(slots);
    rf_values_eval(&r->values, 0.6, slots);
    ck_assert(slots[val(r, "ex")->slot] == at(r, "sp", 0.6) + 1);
    free(slots);
    rf_scene_destroy(o);
    rf_scene_destroy(r);
}
END_TEST

START_TEST(test_reduced_snap)
{
    rf_scene_t *o = load(HEAD "\"values\": {" KINDS_VALUES "}}", 0);
    rf_scene_t *r = load(HEAD "\"reduced_motion\": {\"policy\": \"snap\"}, "
                         "\"values\": {" KINDS_VALUES "}}", 1);
    const char *names[] = { "sp", "so", "tw", "bz", "bp", "kf", "ph", "dc" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const rf_value_t *vo = val(o, names[k]), *vr = val(r, names[k]);
        double st = vo->track.segs[0].start;  /* start + delay */
        ck_assert(isfinite(vo->final));
        for (int j = 0; j <= 400; j++) {
            double t = j * 0.01;
            double want = t < st ? vo->track.segs[0].from : vo->final;
            ck_assert_msg(rf_track_eval(&vr->track, t) == want, "%s at %g", names[k], t);
        }
        ck_assert(vr->settle == st && vr->final == vo->final);
    }
    /* a value that never settles holds its from (the loop's 2; the
     * physics that rises forever its 0) */
    ck_assert(isinf(val(o, "lp")->settle) && isinf(val(o, "pq")->settle));
    for (int j = 0; j <= 400; j++) {
        ck_assert(at(r, "lp", j * 0.01) == 2);
        ck_assert(at(r, "pq", j * 0.01) == 0);
        ck_assert(at(r, "es", j * 0.01) == at(o, "es", j * 0.01));
    }
    /* a sequence jumps to each entry's final value at its at: 300 at 0.3,
     * 50 at 0.6, then at 0.9 the decay's asymptote as written: it starts
     * where the tween is at 0.9, x, so it ends on x + 10 / 4.2 */
    ck_assert(at(r, "sq", 0.29) == 0 && at(r, "sq", 0.3) == 300 && at(r, "sq", 0.59) == 300);
    ck_assert(at(r, "sq", 0.6) == 50 && at(r, "sq", 0.89) == 50);
    ck_assert(fabs(at(r, "sq", 0.9) - (at(o, "sq", 0.9) + 10 / 4.2)) < 1e-12);
    ck_assert(at(r, "sq", 0.9) == val(o, "sq")->final);
    /* without --reduced-motion the policy changes nothing */
    rf_scene_t *n = load(HEAD "\"reduced_motion\": {\"policy\": \"snap\"}, "
                         "\"values\": {" KINDS_VALUES "}}", 0);
    for (int j = 0; j <= 400; j++)
        ck_assert(at(n, "sp", j * 0.01) == at(o, "sp", j * 0.01));
    rf_scene_destroy(n);
    rf_scene_destroy(o);
    rf_scene_destroy(r);
}
END_TEST

START_TEST(test_reduced_timeline)
{
    /* an "auto" duration counts the settle times as written: the reduced
     * scene has the same frames */
    const char *json = "{\"runeframe\": 1, \"canvas\": {\"width\": 8, \"height\": 8}, "
                       "\"timeline\": {\"duration\": \"auto\", \"fps\": 10}, \"values\": "
                       "{\"a\": {\"tween\": {\"to\": 1, \"duration\": 2}}}}";
    rf_scene_t *o = load(json, 0), *r = load(json, 1);
    ck_assert(o->duration == 2 && r->duration == 2 && r->nframes == o->nframes);
    ck_assert(val(r, "a")->settle == 0);
    rf_scene_destroy(o);
    rf_scene_destroy(r);
}
END_TEST

START_TEST(test_reduced_errors)
{
    load_fails(HEAD "\"reduced_motion\": {\"policy\": \"scale\", \"scale\": 0}}",
               "/reduced_motion/scale: must be > 0, got 0");
    load_fails(HEAD "\"reduced_motion\": {\"policy\": \"scale\", \"scale\": 2}}",
               "/reduced_motion/scale: must be > 0 and <= 1 (0.25: four times as fast), got 2");
    load_fails(HEAD "\"reduced_motion\": {\"policy\": \"scale\"}}",
               "/reduced_motion: missing required key 'scale'");
    load_fails(HEAD "\"reduced_motion\": {\"policy\": \"slow\"}}",
               "/reduced_motion/policy:");
    load_fails(HEAD "\"reduced_motion\": {\"policy\": \"snap\", \"scale\": 0.5}}",
               "/reduced_motion/scale: goes with");
    load_fails(HEAD "\"values\": {\"a\": {\"spring\": {\"to\": 1}, \"essential\": 1}}}",
               "/values/a/essential: must be true or false, got a number");
}
END_TEST

/* ------------------------------------------------------------ end reasons */

START_TEST(test_end_reasons)
{
    rf_scene_t *sc = load(HEAD "\"values\": {"
        "\"spring\": {\"spring\": {\"to\": 1}},"
        "\"undamped\": {\"spring\": {\"to\": 1, \"damping\": 0}},"
        "\"loop\": {\"repeat\": {\"to\": 1, \"duration\": 1}},"
        "\"twice\": {\"bezier\": {\"to\": 1, \"duration\": 1, \"repeat\": \"loop\", \"iterations\": 2}},"
        "\"drop\": {\"physics\": {\"gravity\": 900, \"max\": 600}},"
        "\"rise\": {\"physics\": {\"velocity\": -10, \"gravity\": -5}},"
        "\"fling\": {\"physics\": {\"velocity\": 100, \"friction\": 2}},"
        "\"rest\": {\"physics\": {\"from\": 3}},"
        "\"decay\": {\"decay\": {\"velocity\": 100}},"
        "\"slow\": {\"decay\": {\"velocity\": 1, \"friction\": 5e-324}},"
        "\"forever\": {\"tween\": {\"to\": 1, \"duration\": {\"speed\": 1e-320}}},"
        "\"kf\": {\"keyframes\": {\"duration\": 1, \"keys\": [[0, 0], [1, 1]]}},"
        "\"snap\": {\"snap\": {\"to\": 1}},"
        "\"k\": 5,"
        "\"seq\": {\"sequence\": [{\"at\": 0, \"spring\": {\"to\": 1}}, {\"at\": 1, \"physics\": {\"max\": 2, \"gravity\": 10}}]},"
        "\"e1\": {\"expr\": \"spring + drop\"},"
        "\"e2\": {\"expr\": \"spring + loop\"},"
        "\"e3\": {\"expr\": \"spring + t\"},"
        "\"e4\": {\"expr\": \"slow * 2\"}}}", 0);
    static const struct { const char *name; rf_end_t end; } want[] = {
        {"spring", RF_END_FINISHED}, {"undamped", RF_END_NEVER}, {"loop", RF_END_NEVER},
        {"twice", RF_END_FINISHED}, {"drop", RF_END_BOUND}, {"rise", RF_END_NEVER},
        {"fling", RF_END_FINISHED}, {"rest", RF_END_FINISHED}, {"decay", RF_END_FINISHED},
        {"slow", RF_END_LIMIT}, {"forever", RF_END_LIMIT}, {"kf", RF_END_FINISHED},
        {"snap", RF_END_FINISHED}, {"k", RF_END_FINISHED}, {"seq", RF_END_BOUND},
        {"e1", RF_END_FINISHED}, {"e2", RF_END_NEVER}, {"e3", RF_END_NEVER},
        {"e4", RF_END_LIMIT},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(val(sc, want[i].name)->end == want[i].end, "%s: %s, want %s", want[i].name,
                      rf_end_name(val(sc, want[i].name)->end), rf_end_name(want[i].end));
    /* duration-limit keeps the physical value: no settle time */
    ck_assert(isinf(val(sc, "slow")->settle));
    ck_assert_str_eq(rf_end_name(RF_END_LIMIT), "duration-limit");
    ck_assert_str_eq(rf_end_name(RF_END_BOUND), "bound");
    rf_scene_destroy(sc);
}
END_TEST

/* -------------------------------------------------------- sampled easings */

START_TEST(test_sampled_easing)
{
    rf_scene_t *sc = load(HEAD "\"values\": {"
        "\"a\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 1, "
        "  \"easing\": {\"sampled\": \"sin(p * 3) * (1 - p) + p\", \"samples\": 17}}},"
        "\"b\": {\"tween\": {\"from\": 50, \"to\": 250, \"duration\": 2, "
        "  \"easing\": {\"sampled\": \"pow(p, distance / 100) + duration * 0\", \"samples\": 11}}},"
        "\"q\": {\"sequence\": [{\"at\": 0, \"tween\": {\"from\": 0, \"to\": 10, \"duration\": 1}},"
        "  {\"at\": 0.5, \"tween\": {\"to\": 0, \"duration\": 1, "
        "   \"easing\": {\"sampled\": \"p * origin / 5 + target\", \"samples\": 2}}}]},"
        "\"k\": {\"keyframes\": {\"duration\": 2, \"keys\": [[0, 0], [0.25, 8, "
        "  {\"sampled\": \"p * duration * 2\", \"samples\": 3}], [1, 0]]}}}}", 0);
    /* at each sample point the expression itself; linear between */
    for (int i = 0; i < 17; i++) {
        double p = i / 16.0;
        double f = sin(p * 3) * (1 - p) + p;
        ck_assert_msg(at(sc, "a", p) == f, "sample %d: %.17g, want %.17g", i, at(sc, "a", p), f);
        if (i < 16) {
            double p1 = (i + 1) / 16.0, f1 = sin(p1 * 3) * (1 - p1) + p1;
            for (int k = 1; k < 4; k++) {
                double u = k / 4.0, want = f + (f1 - f) * u;
                ck_assert(fabs(at(sc, "a", p + u / 16.0) - want) <= 1e-15);
            }
        }
    }
    /* the motion: distance 200 makes the curve p^2, at p = i/10 */
    for (int i = 0; i <= 10; i++) {
        double p = i / 10.0;
        ck_assert(fabs(at(sc, "b", 2 * p) - (50 + 200 * pow(p, 2))) <= 1e-12);
    }
    /* the retarget starts from 5 (the first tween at 0.5): origin 5, target
     * 0, so the curve is p and the entry runs linearly from 5 to 0 */
    ck_assert(at(sc, "q", 1.0) == 2.5 && at(sc, "q", 0.75) == 3.75);
    /* the key's segment lasts 0.5 s: p * 0.5 * 2 = p, linear 0 -> 8 */
    ck_assert(at(sc, "k", 0.25) == 4);
    /* the range is the samples' */
    ck_assert(val(sc, "b")->lo == 50 && val(sc, "b")->hi == 250);
    rf_scene_destroy(sc);

    /* under a reduced-motion scale the motion keeps its duration as
     * written: the same curve, s times as long */
    const char *json = HEAD "\"reduced_motion\": {\"policy\": \"scale\", \"scale\": 0.3}, "
        "\"values\": {\"d\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 2, "
        "\"easing\": {\"sampled\": \"pow(p, duration)\", \"samples\": 9}}}}}";
    rf_scene_t *o = load(json, 0), *r = load(json, 1);
    for (int j = 0; j < 600; j++) {
        double t = j * 1e-3;
        ck_assert(fabs(at(r, "d", t) - at(o, "d", t / 0.3)) <= 1e-12);
    }
    rf_scene_destroy(o);
    rf_scene_destroy(r);
}
END_TEST

START_TEST(test_sampled_errors)
{
#define TW(E) HEAD "\"values\": {\"x\": 3, \"e\": {\"tween\": {\"to\": 1, \"duration\": 1, " \
              "\"easing\": " E "}}}}"
    load_fails(TW("{\"sampled\": \"p*p\", \"samples\": 1}"),
               "/values/e/tween/easing/samples: must be");
    load_fails(TW("{\"sampled\": \"p*p\", \"samples\": 100000}"),
               "/values/e/tween/easing/samples: must be");
    load_fails(TW("{\"sampled\": \"p*x\", \"samples\": 8}"),
               "/values/e/tween/easing/sampled: col 3: a sampled easing reads only p, origin, "
               "target, "
               "distance and duration, not 'x'");
    /* a syntax error names its column like any expression's (found by fuzz-scene) */
    load_fails(TW("{\"sampled\": \"p,\", \"samples\": 8}"),
               "/values/e/tween/easing/sampled: col 2: unexpected ','\n    p,\n     ^");
    load_fails(TW("{\"sampled\": \"p*t\", \"samples\": 8}"),
               "/values/e/tween/easing/sampled: a sampled easing is a function of p");
    load_fails(TW("{\"samples\": 8}"), "/values/e/tween/easing: missing required key 'sampled'");
    load_fails(TW("{\"sampled\": \"1/p\", \"samples\": 8}"),
               "/values/e/tween/easing/sampled: is inf at p = 0 (sample 0)");
    load_fails(TW("{\"sampled\": \"p/(distance - 1)\", \"samples\": 8}"),
               "/values/e/tween/easing/sampled: is");
    load_fails(HEAD "\"values\": {\"e\": {\"bezier\": {\"to\": 1, \"duration\": 1, "
               "\"curve\": {\"sampled\": \"p\", \"samples\": 2}}}}}", "/values/e/bezier/curve:");
#undef TW
}
END_TEST

/* ---------------------------------------------------------- motion schemes */

/* The springs of Compose Material 3's schemes, as published in androidx/
 * androidx compose/material3/material3/src/commonMain/kotlin/androidx/
 * compose/material3/tokens/StandardMotionTokens.kt and
 * ExpressiveMotionTokens.kt (VERSION v0_14_0, commit 160825094a81,
 * Apache-2.0), transcribed here by hand: role, then standard stiffness
 * and damping ratio, then expressive. */
static const struct {
    const char *role;
    double k_std, z_std, k_exp, z_exp;
} m3_roles[] = {
    {"spatial-fast", 1400, 0.9, 800, 0.6},     /* SpringFastSpatial* */
    {"spatial-default", 700, 0.9, 380, 0.8},   /* SpringDefaultSpatial* */
    {"spatial-slow", 300, 0.9, 200, 0.8},      /* SpringSlowSpatial* */
    {"effects-fast", 3800, 1.0, 3800, 1.0},    /* SpringFastEffects* */
    {"effects-default", 1600, 1.0, 1600, 1.0}, /* SpringDefaultEffects* */
    {"effects-slow", 800, 1.0, 800, 1.0},      /* SpringSlowEffects* */
};

START_TEST(test_motion_schemes)
{
    for (int scheme = 0; scheme < 3; scheme++) {
        for (size_t i = 0; i < sizeof m3_roles / sizeof m3_roles[0]; i++) {
            double k = scheme == 1 ? m3_roles[i].k_exp : m3_roles[i].k_std;
            double z = scheme == 1 ? m3_roles[i].z_exp : m3_roles[i].z_std;
            const char *sch = scheme == 0 ? "" : scheme == 1 ? "\"motion_scheme\": \"expressive\", "
                                                            : "\"motion_scheme\": {\"spatial-slow\": "
                                                              "{\"stiffness\": 55, \"damping_ratio\": 0.3}}, ";
            if (scheme == 2 && i == 2)
                k = 55, z = 0.3;
            char json[1024];
            snprintf(json, sizeof json, HEAD "%s\"values\": {"
                     "\"r\": {\"spring\": {\"from\": 0, \"to\": 100, \"role\": \"%s\"}},"
                     "\"w\": {\"spring\": {\"from\": 0, \"to\": 100, \"stiffness\": %.17g, "
                     "\"damping_ratio\": %.17g}}}}", sch, m3_roles[i].role, k, z);
            rf_scene_t *sc = load(json, 0);
            for (int j = 0; j <= 300; j++)
                ck_assert_msg(at(sc, "r", j * 0.01) == at(sc, "w", j * 0.01), "%s %s",
                              sch, m3_roles[i].role);
            rf_scene_destroy(sc);
        }
    }
    load_fails(HEAD "\"motion_scheme\": \"expresive\"}", "/motion_scheme: unknown motion scheme "
               "'expresive' (did you mean 'expressive'?)");
    load_fails(HEAD "\"motion_scheme\": {\"spatial-quick\": {}}}", "/motion_scheme/spatial-quick:");
    load_fails(HEAD "\"motion_scheme\": {\"effects-fast\": {\"stiffness\": 0, \"damping_ratio\": 1}}}",
               "/motion_scheme/effects-fast/stiffness: must be > 0");
    load_fails(HEAD "\"values\": {\"r\": {\"spring\": {\"to\": 1, \"role\": \"spatial\"}}}}",
               "/values/r/spring/role:");
    load_fails(HEAD "\"values\": {\"r\": {\"spring\": {\"to\": 1, \"role\": \"effects-slow\", "
               "\"stiffness\": 3}}}}", "/values/r/spring/role: a role gives the stiffness");
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
    tc = tcase_create("reduced");
    tcase_add_test(tc, test_reduced_scale);
    tcase_add_test(tc, test_reduced_snap);
    tcase_add_test(tc, test_reduced_timeline);
    tcase_add_test(tc, test_reduced_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("sampled");
    tcase_add_test(tc, test_sampled_easing);
    tcase_add_test(tc, test_sampled_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("schemes");
    tcase_add_test(tc, test_motion_schemes);
    suite_add_tcase(s, tc);
    tc = tcase_create("end");
    tcase_add_test(tc, test_end_reasons);
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
