/* scene-build.c - the value graph and the building of the engine: one
 * iterative depth-first sort gives the evaluation order and finds cycles,
 * then every value is built in that order (expressions compiled against
 * their inputs' real ranges), and "auto" durations are resolved. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonsyn.h"
#include "scene-int.h"

/* ------------------------------------------------------------------ */
/* Building                                                             */

/* How a cycle message names a value: its name, or where an inline one is. */
static int cycle_name(const loader_t *L, uint32_t i, char *buf, size_t cap)
{
    const vsrc_t *v = &L->vals[i];
    if (v->name[0] != '\0')
        return snprintf(buf, cap, "%s", v->name);
    return snprintf(buf, cap, "(the value at %s)", v->ptr);
}

/* Reports the cycle members[0 .. n-1] (each reads the next, the last reads
 * the first), named from the member that comes first in the file, at that
 * member's reference: "cycle: a -> b -> a". */
static void report_cycle(loader_t *L, const uint32_t *members, size_t n)
{
    size_t first = 0;
    for (size_t i = 1; i < n; i++)
        if (members[i] < members[first])
            first = i;
    char line[700];
    size_t o = 0;
    char nm[600];
    for (size_t j = 0; j <= n; j++) {
        uint32_t m = members[(first + j) % n];
        int w = cycle_name(L, m, nm, sizeof nm);
        if (w < 0)
            w = 0;
        /* a long cycle is cut, keeping its closing name */
        if (j < n && o + (size_t)w + 4 > sizeof line - 160) {
            cycle_name(L, members[first], nm, sizeof nm);
            snprintf(line + o, sizeof line - o, " -> ... -> %.100s (a cycle of %zu values)", nm,
                     n);
            o = strlen(line);
            break;
        }
        o += (size_t)snprintf(line + o, sizeof line - o, "%s%s", j ? " -> " : "", nm);
        if (o >= sizeof line)
            o = sizeof line - 1;
    }
    const vsrc_t *v = &L->vals[members[first]];
    scene_err_at(L, v->edge_ptr != NULL ? v->edge_ptr : v->ptr, "cycle: %s", line);
}

/* The evaluation order: every value after the values it reads (expression
 * inputs, a sample's progress, a `from` source), by an iterative
 * depth-first search (no recursion: a chain of 100,000 values) from each
 * value in file order, in reference order; a value is placed when all it
 * reads is. Every back edge closes a cycle, reported as found. Then "used" flows from a used
 * derived value to what it reads every frame (not to a `from` source: that
 * is read once, at the start). */
int scene_sort_values(loader_t *L)
{
    size_t n = L->nvals;
    uint8_t *state = calloc(n ? n : 1, 1);     /* 0 new, 1 on the stack, 2 placed */
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    uint32_t *next = malloc((n ? n : 1) * sizeof *next);  /* next edge of stack[i] */
    uint32_t *at = malloc((n ? n : 1) * sizeof *at);      /* stack index of a node */
    L->order = malloc((n ? n : 1) * sizeof *L->order);
    int rc = 0;
    if (state == NULL || stack == NULL || next == NULL || at == NULL || L->order == NULL) {
        scene_err_oom(L);
        rc = -1;
        goto done;
    }
    size_t placed = 0;
    for (size_t r = 0; r < n && !(rc != 0 && rf_diag_full(L->d)); r++) {
        if (state[r] != 0)
            continue;
        size_t sp = 0;
        stack[sp] = (uint32_t)r;
        next[sp] = 0;
        at[r] = 0;
        state[r] = 1;
        sp++;
        while (sp > 0) {
            uint32_t u = stack[sp - 1];
            const vsrc_t *v = &L->vals[u];
            if (next[sp - 1] < v->ndeps) {
                uint32_t w = v->deps[next[sp - 1]++];
                if (w >= n || state[w] == 2)
                    continue;
                if (state[w] == 1) {
                    /* each back edge is one cycle: report it and go on, so
                     * that every cycle of the file is named (until the
                     * message list is full) */
                    rc = -1;
                    if (rf_diag_full(L->d))
                        break;
                    report_cycle(L, &stack[at[w]], sp - at[w]);
                    continue;
                }
                state[w] = 1;
                at[w] = (uint32_t)sp;
                stack[sp] = w;
                next[sp] = 0;
                sp++;
            } else {
                state[u] = 2;
                L->order[placed++] = u;
                sp--;
            }
        }
    }
    if (rc == 0) {
        for (size_t i = n; i-- > 0;) {
            const vsrc_t *v = &L->vals[L->order[i]];
            if (v->used && v->derived_deps)
                for (uint32_t j = 0; j < v->ndeps; j++)
                    L->vals[v->deps[j]].used = 1;
        }
    }
done:
    free(state);
    free(stack);
    free(next);
    free(at);
    if (rc != 0) {
        free(L->order);
        L->order = NULL;
    }
    return rc;
}

/* Second-pass resolver: the real slots and ranges of built values. */
typedef struct build_ctx {
    loader_t *L;
    const rf_value_t *vals;
} build_ctx_t;

static int resolve_built(void *ctx, const char *name, size_t len, int comp,
                         rf_expr_ref_t *out, char *e, size_t elen)
{
    const build_ctx_t *b = ctx;
    int which = scene_inst_name(name, len);
    long vi = which >= 0 ? b->L->inst_vi[which] : scene_lookup_value(b->L, name, len);
    if (vi < 0) {
        snprintf(e, elen, "internal error: '%.*s' vanished", (int)(len > 200 ? 200 : len), name);
        return -1;
    }
    const rf_value_t *v = &b->vals[vi];
    int ko = rf_value_component_output((rf_value_shape_t)v->shape, v->nout, comp);
    uint32_t k = ko >= 0 ? (uint32_t)ko : 0;   /* checked by the first pass */
    out->slot = v->slot + k;
    out->lo = v->out[k].lo;
    out->hi = v->out[k].hi;
    return 0;
}

static void out_one(rf_value_t *v)
{
    v->out[0].settle = v->settle;
    v->out[0].final = v->final;
    v->out[0].lo = v->lo;
    v->out[0].hi = v->hi;
}

/* How a derived value ends: never when it reads t or an input never ends,
 * duration-limit when an input stopped at a search cap, else finished (it
 * settles with its inputs, on their final values). */
static rf_end_t derived_end(const rf_value_t *vals, const uint32_t *owner, const uint32_t *slots,
                            uint32_t n, int uses_time)
{
    rf_end_t end = uses_time ? RF_END_NEVER : RF_END_FINISHED;
    for (uint32_t j = 0; j < n; j++) {
        rf_end_t e = vals[owner[slots[j]]].end;
        if (e == RF_END_NEVER || (e == RF_END_LIMIT && end == RF_END_FINISHED))
            end = e;
    }
    return end;
}

/* An expression, compiled with its inputs' ranges and t in [0, T_MAX]: so
 * its range holds past the timeline's [0, duration] too (sample and seek
 * take any time >= 0), not only for the frames rendered. It settles when every
 * input has (never when it reads t), on itself evaluated at that time with
 * every input at its final value. */
static int build_expr(loader_t *L, const vsrc_t *s, rf_value_t *vals, rf_value_t *v,
                      double *finals, const uint32_t *owner)
{
    build_ctx_t bc = { L, vals };
    rf_expr_t *e = s->pre; /* one that reads no value: compiled by the first pass */
    rf_expr_error_t ee;
    if (e == NULL && rf_expr_compile(s->src, strlen(s->src), 0, T_MAX, resolve_built, &bc,
                                     scene_arena_alloc_fn, L->arena, &e, &ee) != 0) {
        if (ee.oom)
            scene_err_oom(L);
        else {
            char ptr[sizeof L->ptr + 32];
            snprintf(ptr, sizeof ptr, "%s/expr", s->ptr);
            scene_err_at(L, ptr, "internal error: col %d: %s", ee.col, ee.msg);
        }
        return -1;
    }
    v->expr = e;
    rf_expr_range(e, &v->lo, &v->hi);
    const uint32_t *deps;
    uint32_t nd = rf_expr_deps(e, &deps);
    double settle = 0;
    int has_final = 1;
    for (uint32_t j = 0; j < nd; j++) {
        const rf_value_t *in = &vals[owner[deps[j]]];
        double st = in->out[deps[j] - in->slot].settle;  /* the output it reads */
        if (!(st <= settle))
            settle = st;               /* NaN never occurs; INFINITY sticks */
        if (isnan(finals[deps[j]]))
            has_final = 0;
    }
    if (rf_expr_uses_time(e))
        settle = INFINITY;
    v->end = derived_end(vals, owner, deps, nd, rf_expr_uses_time(e));
    v->settle = settle;
    v->final = isfinite(settle) && has_final ? rf_expr_eval(e, finals, settle) : NAN;
    out_one(v);
    return 0;
}

/* A path sample: x and y range over the path's exact bounds (its values
 * are clamped there, see rf_value_eval), the angle over [-180, 180]. It
 * settles with its progress, on the point at the progress's final value. */
static void build_sample(const vsrc_t *s, rf_value_t *vals, rf_value_t *v)
{
    const rf_value_t *pv = &vals[s->progress_vi];
    v->end = pv->end == RF_END_BOUND ? RF_END_FINISHED : pv->end;
    uint32_t k = (uint32_t)s->progress_comp;   /* the output index */
    double x0, y0, x1, y1;
    v->path = s->path;
    v->progress_slot = pv->slot + k;
    v->nout = 3;
    v->shape = RF_SHAPE_SAMPLE;
    rf_path_bounds(s->path, &x0, &y0, &x1, &y1);
    v->out[0].lo = x0;
    v->out[0].hi = x1;
    v->out[1].lo = y0;
    v->out[1].hi = y1;
    v->out[2].lo = -180;
    v->out[2].hi = 180;
    v->settle = pv->out[k].settle;
    for (int j = 0; j < 3; j++)
        v->out[j].settle = v->settle;
    double pf = pv->out[k].final;
    if (isnan(pf)) {
        for (int j = 0; j < 3; j++)
            v->out[j].final = NAN;
    } else {
        rf_path_sample(s->path, pf, &v->out[0].final, &v->out[1].final, &v->out[2].final);
        for (int j = 0; j < 2; j++)    /* as rf_value_eval clamps */
            v->out[j].final = fmin(fmax(v->out[j].final, v->out[j].lo), v->out[j].hi);
    }
    /* the one-output facts describe x, as out[0] does */
    v->final = v->out[0].final;
    v->lo = v->out[0].lo;
    v->hi = v->out[0].hi;
}

/* A `from` naming a value: that value's state at the start of this one
 * (value, and velocity for spring, physics and decay unless given). */
static int apply_from(loader_t *L, const vsrc_t *s, const rf_value_t *vals)
{
    const rf_value_t *src = &vals[s->from_vi];
    rf_anim_spec_t *sp = &s->specs[0];
    double x = 0, vel = 0;
    nbuf_t b1, b2, b3, b4;
    if (src->comps != NULL) {
        scene_err_at(L, s->from_ptr, "'%s' has %u components, this %s 1: it starts from a value "
                     "of one number", L->vals[s->from_vi].name, src->nout, s->from_kind);
        return -1;
    }
    rf_track_eval_state(&src->track, sp->start + sp->delay, &x, &vel);
    if (!isfinite(x) || !isfinite(vel)) {
        scene_err_at(L, s->from_ptr, "'%s' is not finite at t = %s, where this %s starts",
                     L->vals[s->from_vi].name, scene_num(&b1, sp->start + sp->delay), s->from_kind);
        return -1;
    }
    if (sp->curve == RF_CURVE_PHYSICS && !(x >= sp->min && x <= sp->max)) {
        scene_err_at(L, s->from_ptr, "'%s' is %s at t = %s, where this physics starts: outside "
                     "[min, max] = [%s, %s]", L->vals[s->from_vi].name, scene_num(&b1, x),
                     scene_num(&b2, sp->start + sp->delay), scene_num(&b3, sp->min),
                     scene_num(&b4, sp->max));
        return -1;
    }
    sp->from = x;
    sp->has_from = 1;
    if (s->from_velocity) {
        sp->velocity = vel;
        sp->has_velocity = 1;
    }
    return 0;
}

/* --reduced-motion: builds the value as written into storage (its settle
 * time is what an "auto" duration counts: the timeline keeps its length),
 * then rewrites its specs by the scene's policy; the caller builds those. */
static int reduce_value(loader_t *L, vsrc_t *s, const rf_value_t *vals, void *storage)
{
    rf_anim_spec_t *orig = malloc(s->nspecs * sizeof *orig);
    if (orig == NULL) {
        scene_err_oom(L);
        return -1;
    }
    memcpy(orig, s->specs, s->nspecs * sizeof *orig);
    rf_track_t tr;
    int rc = s->from_vi >= 0 ? apply_from(L, s, vals) : 0;
    if (rc == 0) {
        sampled_prep_t pc = { L, 1.0 };
        rf_track_build_prep(&tr, storage, s->specs, s->nspecs, scene_sampled_prep, &pc);
        s->settle0 = tr.settle;
        if (L->rm_policy == RF_REDUCED_SNAP) {
            rc = scene_reduce_snap(L, s, &tr);
        } else {
            memcpy(s->specs, orig, s->nspecs * sizeof *orig);
            rc = scene_reduce_scale(L, s);
            if (rc == 0 && s->from_vi >= 0)
                rc = apply_from(L, s, vals);
        }
    }
    free(orig);
    return rc;
}

int scene_build_values(loader_t *L)
{
    rf_scene_t *sc = L->sc;
    rf_values_t *vs = &sc->values;
    size_t n = L->nvals;
    rf_value_t *vals = scene_aalloc(L, n, sizeof *vals);
    uint32_t *order = scene_aalloc(L, n, sizeof *order);
    if (vals == NULL || order == NULL || L->order == NULL)
        return -1;
    /* slots in file order: one per output */
    size_t nslots = 0;
    for (size_t i = 0; i < n; i++) {
        vals[i].slot = (uint32_t)nslots;
        vals[i].nout = L->vals[i].kind == RF_VALUE_SAMPLE_PATH ? 3
                       : L->vals[i].ncomp > 1 ? L->vals[i].ncomp : 1;
        nslots += vals[i].nout;
    }
    /* the final value of every slot (for expressions' finals), and which
     * value owns a slot */
    double *finals = malloc((nslots ? nslots : 1) * sizeof *finals);
    uint32_t *owner = malloc((nslots ? nslots : 1) * sizeof *owner);
    if (finals == NULL || owner == NULL) {
        free(finals);
        free(owner);
        scene_err_oom(L);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < vals[i].nout; j++)
            owner[vals[i].slot + j] = (uint32_t)i;
    int rc = 0;
    for (size_t oi = 0; oi < n && rc == 0; oi++) {
        size_t i = L->order[oi];
        const vsrc_t *s = &L->vals[i];
        rf_value_t *v = &vals[i];
        order[oi] = (uint32_t)i;
        v->name = s->name;
        v->kind = s->kind;
        v->used = s->used;
        if (s->kind == RF_VALUE_EXPR) {
            if (s->src == NULL) {
                rc = -1;
                break;
            }
            rc = build_expr(L, s, vals, v, finals, owner);
        } else if (s->kind == RF_VALUE_SAMPLE_PATH) {
            if (s->path == NULL || s->progress_vi < 0) {
                rc = -1;
                break;
            }
            build_sample(s, vals, v);
        } else if (s->ncomp > 1) {
            /* a vector or color: one track per component (scene-vec.c) */
            if (s->specs == NULL || s->nspecs == 0 ||
                scene_build_vec(L, &L->vals[i], vals, v) != 0) {
                rc = -1;
                break;
            }
        } else {
            if (s->specs == NULL || s->nspecs == 0) {
                rc = -1;
                break;
            }
            size_t bytes = rf_track_storage_size((uint32_t)s->nspecs);
            void *storage = bytes ? scene_aalloc(L, 1, bytes) : NULL;
            if (storage == NULL) {
                rc = -1;
                break;
            }
            int reduce = L->reduced && !s->essential && s->kind != RF_VALUE_STATIC;
            if (reduce) {
                rc = reduce_value(L, &L->vals[i], vals, storage);
                if (rc != 0)
                    break;
            } else if (s->from_vi >= 0 && apply_from(L, s, vals) != 0) {
                rc = -1;
                break;
            }
            sampled_prep_t pc = { L, reduce && L->rm_policy == RF_REDUCED_SCALE ? L->rm_scale
                                                                                : 1.0 };
            rf_track_build_prep(&v->track, storage, s->specs, (uint32_t)s->nspecs,
                                scene_sampled_prep, &pc);
            if (scene_nerrors(L) > 0) {
                rc = -1;
                break;
            }
            if (!reduce)
                L->vals[i].settle0 = v->track.settle;
            v->end = v->track.end;
            if (s->kind == RF_VALUE_STATIC) {
                /* a number: settled from the start, exactly itself */
                v->settle = 0;
                v->final = s->specs[0].from;
                v->lo = v->hi = s->specs[0].from;
                /* i and n: 0 and 1 as evaluated, 0..count-1 and 1..count
                 * in instances (the largest count), for expressions' ranges */
                if ((long)i == L->inst_vi[0] || (long)i == L->inst_vi[1]) {
                    double top = L->max_count > 0 ? (double)L->max_count : 1;
                    v->lo = (long)i == L->inst_vi[0] ? 0 : 1;
                    v->hi = (long)i == L->inst_vi[0] ? top - 1 : top;
                    L->sc->inst_slot[(long)i == L->inst_vi[0] ? 0 : 1] = v->slot;
                }
            } else {
                v->settle = v->track.settle;
                v->final = v->track.final;
                v->lo = v->track.lo;
                v->hi = v->track.hi;
            }
            out_one(v);
        }
        for (uint32_t j = 0; j < v->nout && rc == 0; j++)
            finals[v->slot + j] = v->out[j].final;
    }
    free(finals);
    free(owner);
    if (rc != 0) {
        /* every path that leaves a value undescribed reports an error */
        if (scene_nerrors(L) == 0)
            rf_diag_file(L->d, "internal error: a value has no description");
        return -1;
    }
    /* where each value comes from (scene.h), for explaining changes */
    rf_value_src_t *srcs = scene_aalloc(L, n, sizeof *srcs);
    if (srcs == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        srcs[i].ptr = L->vals[i].ptr;
        srcs[i].deps = L->vals[i].deps;
        srcs[i].ndeps = L->vals[i].ndeps;
    }
    sc->value_srcs = srcs;
    vs->n = (uint32_t)n;
    vs->nnamed = (uint32_t)L->nnamed;
    vs->values = vals;
    vs->order = order;
    vs->by_name = L->by_name;
    vs->nslots = (uint32_t)nslots;
    return 0;
}

/* "auto": the largest finite settle time of the values layers use, or of
 * all values when layers use none. */
void scene_resolve_auto(loader_t *L)
{
    const rf_values_t *vs = &L->sc->values;
    int any_used = 0;
    for (uint32_t i = 0; i < vs->n; i++)
        if (vs->values[i].used)
            any_used = 1;
    double best = 0;
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        /* reduced motion keeps the timeline: the settle times as written
         * (a derived value settles with its inputs, counted themselves) */
        int derived = v->kind == RF_VALUE_EXPR || v->kind == RF_VALUE_SAMPLE_PATH;
        double settle = !L->reduced ? v->settle : derived ? 0 : L->vals[i].settle0;
        if ((any_used && !v->used) || !isfinite(settle))
            continue;
        if (settle > best)
            best = settle;
    }
    L->sc->duration_auto = 1;
    if (!(best > 0)) {
        size_t m0 = scene_push(L, "timeline");
        size_t m = scene_push(L, "duration");
        scene_err(L, "\"auto\" needs a value that settles: set a duration in seconds");
        scene_pop(L, m);
        scene_pop(L, m0);
        return;
    }
    scene_set_frames(L, best);
}

