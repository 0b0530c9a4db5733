/* fuzz-scene.c - the scene loader on a whole file, then every value at
 * many times, as `validate`, `info`, `sample` and `seek` use a scene.
 *
 * Invariants checked (each a promise of scene.h, values.h or scene-v1.md):
 *   - a failed load leaves 1..RF_DIAG_MAX one-line messages in the house
 *     format; a successful one a scene inside every limit;
 *   - the evaluation order is a permutation that puts each expression after
 *     what it reads and each sample after its progress, and every value
 *     writes its slots at any time (NaN, infinite and negative included);
 *   - for 0 <= t <= 2^53 (the span expressions are compiled for) every
 *     output lies in its published range, NaN only under (-inf, +inf);
 *   - at and after a finite settle time a value is exactly its final value.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "diag.h"
#include "expr.h"
#include "path.h"
#include "scene.h"
#include "values.h"

#include "fuzz.h"

#define NAME "fuzz.json"
#define T_MAX 9007199254740992.0   /* scene.c compiles expressions for [0, 2^53] */
#define MAX_TIMES 64
#define MAX_SETTLE_TIMES 12

/* A NaN no computation makes: a slot still holding it was never written. */
static const uint64_t poison_bits = 0x7ff4dead5eed1234u;

static void check_diag(const rf_diag_t *d)
{
    static const char prefix[] = "runeframe: " NAME;

    FUZZ_CHECK(d->count >= 1 && d->count <= RF_DIAG_MAX, "count %d", d->count);
    FUZZ_CHECK(d->dropped >= 0, "dropped %d", d->dropped);
    FUZZ_CHECK(d->dropped == 0 || d->count == RF_DIAG_MAX, "dropped %d of %d", d->dropped,
               d->count);
    for (int i = 0; i < d->count; i++) {
        const char *m = d->msg[i];
        const char *nul = memchr(m, '\0', RF_DIAG_LINE);
        FUZZ_CHECK(nul != NULL, "message %d not terminated", i);
        size_t n = (size_t)(nul - m);
        FUZZ_CHECK(strncmp(m, prefix, sizeof prefix - 1) == 0, "message %d: '%s'", i, m);
        FUZZ_CHECK(m[sizeof prefix - 1] == ':', "message %d: '%s'", i, m);
        FUZZ_CHECK(strchr(m, '\r') == NULL, "message %d has a CR: '%s'", i, m);
        /* a storyboard's synthesized values answer at the user's keys */
        FUZZ_CHECK(strncmp(m + sizeof prefix - 1, ": #", 3) != 0,
                   "message %d at a synthesized pointer: '%s'", i, m);
        /* one line, except that an error at a column of an expression or
         * of path data, or a JSON syntax error (FILE:LINE:COL), carries its
         * caret display on two more lines */
        const char *nl = strchr(m, '\n');
        if (nl != NULL) {
            const char *nl2 = strchr(nl + 1, '\n');
            int syntax = m[sizeof prefix] >= '1' && m[sizeof prefix] <= '9';
            FUZZ_CHECK((strstr(m, ": col ") != NULL || syntax) && nl2 != NULL &&
                           strchr(nl2 + 1, '\n') == NULL && m[n - 1] == '^' &&
                           strncmp(nl + 1, "    ", 4) == 0,
                       "message %d has a line break: '%s'", i, m);
        }
        FUZZ_CHECK(n > sizeof prefix + 1, "message %d is empty: '%s'", i, m);
    }
}

/* Storyboard steps (scene.h): in time order, complete at or after they
 * start, the slowest channel a named value. */
static void check_steps(const rf_scene_t *sc)
{
    for (uint32_t j = 0; j < sc->nsteps; j++) {
        const rf_story_step_t *st = &sc->steps[j];
        FUZZ_CHECK(st->state != NULL, "step %u has no state", j);
        FUZZ_CHECK(j == 0 || st->at > sc->steps[j - 1].at, "step %u at %g", j, st->at);
        FUZZ_CHECK(st->complete >= st->at, "step %u complete %g before %g", j, st->complete,
                   st->at);
        FUZZ_CHECK((st->slowest == NULL) == (st->nchannels == 0), "step %u slowest", j);
        FUZZ_CHECK(st->slowest == NULL || rf_values_find(&sc->values, st->slowest) != NULL,
                   "step %u slowest '%s'", j, st->slowest);
        FUZZ_CHECK(st->interrupted == (j + 1 < sc->nsteps && st->complete > sc->steps[j + 1].at),
                   "step %u interrupted", j);
    }
}

/* The value owning each slot, for the dependency check. */
static void check_values(const rf_values_t *vs, uint32_t *owner, uint32_t *pos)
{
    FUZZ_CHECK(vs->nnamed <= vs->n, "%u named of %u", vs->nnamed, vs->n);
    FUZZ_CHECK(vs->n <= RF_MAX_ITEMS, "%u values", vs->n);
    FUZZ_CHECK(vs->n == 0 || (vs->values != NULL && vs->order != NULL), "arrays");
    for (uint32_t i = 0; i < vs->nslots; i++)
        owner[i] = UINT32_MAX;
    for (uint32_t i = 0; i < vs->n; i++)
        pos[i] = UINT32_MAX;
    for (uint32_t i = 0; i < vs->n; i++) {
        uint32_t k = vs->order[i];
        FUZZ_CHECK(k < vs->n, "order[%u] = %u", i, k);
        FUZZ_CHECK(pos[k] == UINT32_MAX, "value %u twice in the order", k);
        pos[k] = i;
    }
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        FUZZ_CHECK((unsigned)v->kind < RF_VALUE_KINDS, "value %u kind %d", i, (int)v->kind);
        /* a vector or color value: one track per component, each a scalar's */
        FUZZ_CHECK(v->kind == RF_VALUE_SAMPLE_PATH ? v->nout == 3u && v->shape == RF_SHAPE_SAMPLE
                   : v->comps != NULL ? v->nout >= 2u && v->nout <= RF_VALUE_MAXOUT &&
                                            (v->shape == RF_SHAPE_VECTOR ||
                                             (v->shape == RF_SHAPE_COLOR && v->nout == 4u))
                   : v->nout == 1u && v->shape == RF_SHAPE_SCALAR,
                   "value %u nout %u shape %d", i, v->nout, (int)v->shape);
        FUZZ_CHECK(v->comps == NULL || v->settle >= v->out[v->nout - 1].settle,
                   "value %u settles before its last component", i);
        FUZZ_CHECK(v->slot < vs->nslots && vs->nslots - v->slot >= v->nout,
                   "value %u slot %u of %u", i, v->slot, vs->nslots);
        FUZZ_CHECK(v->name != NULL, "value %u has no name", i);
        FUZZ_CHECK((i < vs->nnamed) == (v->name[0] != '\0'), "value %u name '%s'", i, v->name);
        for (uint32_t k = 0; k < v->nout; k++) {
            FUZZ_CHECK(owner[v->slot + k] == UINT32_MAX, "slot %u shared", v->slot + k);
            owner[v->slot + k] = i;
            FUZZ_CHECK(!isnan(v->out[k].lo) && !isnan(v->out[k].hi) &&
                           v->out[k].lo <= v->out[k].hi,
                       "value '%s' out %u range [%g, %g]", v->name, k, v->out[k].lo,
                       v->out[k].hi);
        }
        FUZZ_CHECK(fuzz_same(v->lo, v->out[0].lo) && fuzz_same(v->hi, v->out[0].hi) &&
                       fuzz_same(v->final, v->out[0].final),
                   "value '%s' facts differ from out[0]", v->name);
        /* a negative start may settle before 0 */
        FUZZ_CHECK(!isnan(v->settle), "value '%s' settle %g", v->name, v->settle);
        if (v->kind == RF_VALUE_EXPR)
            FUZZ_CHECK(v->expr != NULL, "value '%s' without its expression", v->name);
        if (v->kind == RF_VALUE_SAMPLE_PATH)
            FUZZ_CHECK(v->path != NULL && v->progress_slot < vs->nslots,
                       "value '%s' sample", v->name);
    }
    for (uint32_t i = 0; i < vs->nslots; i++)
        FUZZ_CHECK(owner[i] != UINT32_MAX, "slot %u has no value", i);
    /* dependencies first */
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        if (v->kind == RF_VALUE_EXPR) {
            const uint32_t *deps;
            uint32_t nd = rf_expr_deps(v->expr, &deps);
            for (uint32_t j = 0; j < nd; j++) {
                FUZZ_CHECK(deps[j] < vs->nslots, "value '%s' reads slot %u", v->name, deps[j]);
                FUZZ_CHECK(pos[owner[deps[j]]] < pos[i], "value '%s' runs before its input",
                           v->name);
            }
        } else if (v->kind == RF_VALUE_SAMPLE_PATH) {
            FUZZ_CHECK(pos[owner[v->progress_slot]] < pos[i],
                       "sample '%s' runs before its progress", v->name);
        }
    }
    /* the name index */
    if (vs->nnamed > 0)
        FUZZ_CHECK(vs->by_name != NULL, "no name index");
    for (uint32_t i = 0; i < vs->nnamed; i++) {
        uint32_t k = vs->by_name[i];
        FUZZ_CHECK(k < vs->nnamed, "by_name[%u] = %u", i, k);
        if (i > 0)
            FUZZ_CHECK(strcmp(vs->values[vs->by_name[i - 1]].name, vs->values[k].name) < 0,
                       "name index not sorted at %u", i);
        FUZZ_CHECK(rf_values_find(vs, vs->values[k].name) == &vs->values[k], "find '%s'",
                   vs->values[k].name);
    }
    FUZZ_CHECK(rf_values_find(vs, "") == NULL, "found the empty name");
}

/* Every output at time t: written, in range when t is in [0, T_MAX], and
 * final once settled. */
static void check_at(const rf_values_t *vs, double *slots, double t)
{
    for (uint32_t i = 0; i < vs->nslots; i++)
        memcpy(&slots[i], &poison_bits, sizeof poison_bits);
    rf_values_eval(vs, t, slots);
    for (uint32_t i = 0; i < vs->nslots; i++)
        FUZZ_CHECK(memcmp(&slots[i], &poison_bits, sizeof poison_bits) != 0,
                   "slot %u not written at t=%.17g", i, t);
    if (!(t >= 0 && t <= T_MAX))
        return;
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        for (uint32_t k = 0; k < v->nout; k++) {
            double x = slots[v->slot + k], lo = v->out[k].lo, hi = v->out[k].hi;
            if (isnan(x))
                FUZZ_CHECK(lo == -INFINITY && hi == INFINITY,
                           "%s value '%s' out %u is NaN at t=%.17g under range [%.17g, %.17g]",
                           rf_value_kind_name(v->kind), v->name, k, t, lo, hi);
            else
                FUZZ_CHECK(x >= lo && x <= hi,
                           "%s value '%s' out %u = %.17g at t=%.17g outside [%.17g, %.17g]",
                           rf_value_kind_name(v->kind), v->name, k, x, t, lo, hi);
            if (isfinite(v->settle) && t >= v->settle && !isnan(v->out[k].final))
                FUZZ_CHECK(x == v->out[k].final,
                           "%s value '%s' out %u = %.17g at t=%.17g, settled at %.17g on %.17g",
                           rf_value_kind_name(v->kind), v->name, k, x, t, v->settle,
                           v->out[k].final);
        }
    }
}

/* An animated value's track: the segment lookup picks the segment in
 * charge (the last one starting at or before t), eval and eval_state agree,
 * and the velocity is 0 before a segment starts and once it settles. */
static void check_track_at(const rf_value_t *v, uint32_t i, double t)
{
    const rf_track_t *tr = &v->track;
    const rf_anim_t *a = &tr->segs[i];
    double x = rf_track_eval(tr, t), y = rf_anim_eval(a, t), sx, sv;
    FUZZ_CHECK(fuzz_identical(x, y), "value '%s' at t=%.17g: track %.17g, segment %u %.17g",
               v->name, t, x, i, y);
    rf_track_eval_state(tr, t, &sx, &sv);
    FUZZ_CHECK(fuzz_identical(sx, x), "value '%s' at t=%.17g: eval %.17g, eval_state %.17g",
               v->name, t, x, sx);
    if (t >= a->settle || t < a->start)
        FUZZ_CHECK(sv == 0, "value '%s' segment %u at t=%.17g: velocity %.17g (start %.17g, "
                   "settle %.17g)", v->name, i, t, sv, a->start, a->settle);
    if (!isnan(x))
        FUZZ_CHECK(x >= a->lo && x <= a->hi,
                   "value '%s' segment %u at t=%.17g: %.17g outside [%.17g, %.17g]", v->name, i,
                   t, x, a->lo, a->hi);
}

static void check_track(const rf_value_t *v)
{
    const rf_track_t *tr = &v->track;
    FUZZ_CHECK(tr->n >= 1 && tr->segs != NULL, "value '%s' has no segments", v->name);
    FUZZ_CHECK(fuzz_same(tr->settle, tr->segs[tr->n - 1].settle) &&
                   fuzz_same(tr->final, tr->segs[tr->n - 1].final),
               "value '%s' track settle/final are not its last segment's", v->name);
    for (uint32_t i = 0; i < tr->n; i++) {
        const rf_anim_t *a = &tr->segs[i];
        FUZZ_CHECK(a->lo <= a->hi, "value '%s' segment %u range [%.17g, %.17g]", v->name, i,
                   a->lo, a->hi);
        if (tr->n == 1)
            FUZZ_CHECK(tr->lo <= a->lo && a->hi <= tr->hi, "value '%s': segment range "
                       "[%.17g, %.17g] outside the track's [%.17g, %.17g]", v->name, a->lo,
                       a->hi, tr->lo, tr->hi);
        if (tr->n > 1) {
            FUZZ_CHECK(tr->starts[i] == a->start, "value '%s' start %u", v->name, i);
            if (i > 0)
                FUZZ_CHECK(tr->starts[i - 1] < tr->starts[i], "value '%s' starts %u", v->name, i);
        }
    }
    /* the first segment also rules before every start */
    check_track_at(v, 0, -1e300);
    check_track_at(v, 0, tr->n > 1 ? nextafter(tr->starts[0], -INFINITY) : -1.0);
    uint32_t last = tr->n - 1;
    for (uint32_t i = 0; i < tr->n; i++) {
        if (i >= 48 && i + 16 < tr->n)
            continue;      /* long sequences: the first and the last ones */
        double s = tr->n > 1 ? tr->starts[i] : 0;
        if (tr->n > 1)
            check_track_at(v, i, s);
        if (i < last) {
            double e = tr->starts[i + 1];
            check_track_at(v, i, s / 2 + e / 2);
            check_track_at(v, i, nextafter(e, -INFINITY));
        } else {
            check_track_at(v, i, s + 0.5);
            check_track_at(v, i, s + 1e6);
            if (isfinite(tr->segs[i].settle) && tr->segs[i].settle >= s) {
                check_track_at(v, i, tr->segs[i].settle);
                check_track_at(v, i, nextafter(tr->segs[i].settle, INFINITY));
            }
        }
    }
}

static void check_paths(const rf_scene_t *sc)
{
    FUZZ_CHECK(sc->npaths == 0 || sc->paths != NULL, "paths");
    for (uint32_t i = 0; i < sc->npaths; i++) {
        const rf_path_t *p = sc->paths[i].path;
        double x0, y0, x1, y1, x, y, a;
        FUZZ_CHECK(sc->paths[i].name != NULL && p != NULL, "path %u", i);
        double len = rf_path_length(p);
        FUZZ_CHECK(isfinite(len) && len >= 0, "path '%s' length %g", sc->paths[i].name, len);
        rf_path_bounds(p, &x0, &y0, &x1, &y1);
        FUZZ_CHECK(x0 <= x1 && y0 <= y1, "path '%s' bounds", sc->paths[i].name);
        rf_path_sample(p, 0.5, &x, &y, &a);
        FUZZ_CHECK(isfinite(x) && isfinite(y) && a >= -180 && a <= 180, "path '%s' sample",
                   sc->paths[i].name);
    }
}

static void check_scene(const rf_scene_t *sc)
{
    FUZZ_CHECK(sc->width >= 1 && sc->width <= RF_MAX_SIDE && sc->height >= 1 &&
                   sc->height <= RF_MAX_SIDE &&
                   (long long)sc->width * sc->height <= RF_MAX_PIXELS,
               "canvas %dx%d", sc->width, sc->height);
    FUZZ_CHECK(sc->fps > 0 && sc->fps <= 1000, "fps %g", sc->fps);
    FUZZ_CHECK(isfinite(sc->duration) && sc->duration > 0, "duration %g", sc->duration);
    FUZZ_CHECK(sc->nframes >= 1 && sc->nframes <= RF_MAX_FRAMES + 1L, "nframes %ld",
               sc->nframes);
    FUZZ_CHECK(sc->nframes == (long)floor(sc->duration * sc->fps + 1e-9) + 1,
               "nframes %ld for %.17g s at %.17g fps", sc->nframes, sc->duration, sc->fps);
    FUZZ_CHECK(rf_scene_frame_time(sc, sc->nframes - 1) <= sc->duration * (1 + 1e-12),
               "last frame after the duration");
    FUZZ_CHECK(sc->nlayers == 0 || sc->layers != NULL, "layers");
    FUZZ_CHECK(sc->ncheck_frames == 0 || sc->has_checks, "check frames without checks");
    for (uint32_t i = 0; i < sc->ncheck_frames; i++) {
        FUZZ_CHECK(sc->check_frames[i] >= 0 && sc->check_frames[i] < sc->nframes,
                   "check frame %ld of %ld", sc->check_frames[i], sc->nframes);
        if (i > 0)
            FUZZ_CHECK(sc->check_frames[i - 1] < sc->check_frames[i], "check frames order");
    }
    check_paths(sc);

    const rf_values_t *vs = &sc->values;
    size_t ns = vs->nslots ? vs->nslots : 1, nv = vs->n ? vs->n : 1;
    double *slots = malloc(ns * sizeof *slots);
    uint32_t *owner = malloc(ns * sizeof *owner);
    uint32_t *pos = malloc(nv * sizeof *pos);
    FUZZ_CHECK(slots != NULL && owner != NULL && pos != NULL, "out of memory");
    check_values(vs, owner, pos);
    check_steps(sc);

    double times[MAX_TIMES];
    size_t nt = 0;
    const double fixed[] = {
        0.0, -0.0, 1e-300, sc->duration, sc->duration * 0.5, sc->duration * 1.5,
        rf_scene_frame_time(sc, 1), rf_scene_frame_time(sc, sc->nframes / 2),
        rf_scene_frame_time(sc, sc->nframes - 1), 0.25, 1.0, 3.0, 1e6, 1e12, T_MAX,
        /* outside the timeline: written, never checked against ranges */
        -1.0, -1e300, 1e300, INFINITY, -INFINITY, NAN, 1.152921504606846976e18,
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        times[nt++] = fixed[i];
    for (uint32_t i = 0; i < vs->n && nt + 3 <= MAX_TIMES; i++) {
        double s = vs->values[i].settle;
        if (!isfinite(s) || nt >= sizeof fixed / sizeof fixed[0] + 3 * MAX_SETTLE_TIMES)
            continue;
        times[nt++] = s;
        times[nt++] = nextafter(s, INFINITY);
        times[nt++] = s > 0 ? nextafter(s, 0) : s + 1;
    }
    for (size_t i = 0; i < nt; i++)
        check_at(vs, slots, times[i]);
    for (uint32_t i = 0; i < vs->n; i++)
        if (vs->values[i].kind != RF_VALUE_EXPR && vs->values[i].kind != RF_VALUE_SAMPLE_PATH)
            check_track(&vs->values[i]);

    free(pos);
    free(owner);
    free(slots);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rf_diag_t diag;    /* 20 KiB: not on the stack */
    rf_scene_t *sc = rf_scene_load_buffer(NAME, (const char *)data, size, &diag);
    if (sc == NULL) {
        check_diag(&diag);
        return 0;
    }
    FUZZ_CHECK(diag.count == 0, "a scene and %d errors: %s", diag.count, diag.msg[0]);
    check_scene(sc);
    rf_scene_destroy(sc);
    return 0;
}
