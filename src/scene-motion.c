/* scene-motion.c - reduced motion at load (scene-v1.md "Motion authoring",
 * seed 003's ReducedMotionPolicy): the top-level `reduced_motion` policy,
 * and, when a command is given --reduced-motion, each animated value that
 * is not `essential` rewritten into ordinary specs before it is built:
 * `scale` s through rf_motion_scale(), `snap` into snap segments that
 * jump to each entry's final value at its start (an entry that never
 * settles holds its from). Nothing is left for evaluation to do: seek stays
 * O(1). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "motion.h"
#include "scene-int.h"

static const char *const rm_keys[] = { "policy", "scale" };
static const char *const rm_policies[] = { "snap", "scale" };
static const char *const scheme_builtins[] = { "standard", "expressive" };
static const char *const scheme_spring_keys[] = { "stiffness", "damping_ratio" };
const scene_names_t scene_rm_names = SCENE_NAMES(rm_keys, NULL);
const scene_names_t scene_rm_policy_names = SCENE_NAMES(rm_policies, NULL);
const scene_names_t scene_scheme_names = SCENE_NAMES(scheme_builtins, NULL);
const scene_names_t scene_scheme_spring_names =
    SCENE_NAMES(scheme_spring_keys, "stiffness damping_ratio");

void scene_parse_reduced_motion(loader_t *L, const cJSON *obj)
{
    if (!scene_want_object(L, obj, "an object {\"policy\": \"snap\"} or {\"policy\": \"scale\", "
                           "\"scale\": s}"))
        return;
    const cJSON *f[NELEM(rm_keys)];
    scene_scan_keys(L, obj, rm_keys, NELEM(rm_keys), f);
    int policy = RF_REDUCED_SNAP;
    scene_enum_field(L, f[0], "policy", rm_policies, NELEM(rm_policies), &policy);
    double s = 1;
    int rs = scene_num_field(L, f[1], "scale", 0, R_GT0, &s);
    nbuf_t b;
    if (rs == F_OK && !(s <= 1)) {
        scene_err_key(L, "scale", "must be > 0 and <= 1 (0.25: four times as fast), got %s",
                      scene_num(&b, s));
        rs = F_BAD;
    }
    if (policy == RF_REDUCED_SCALE && rs == F_ABSENT)
        scene_err(L, "missing required key 'scale' (policy \"scale\": a number > 0 and <= 1)");
    else if (policy == RF_REDUCED_SNAP && rs == F_OK)
        scene_err_key(L, "scale", "goes with \"policy\": \"scale\"; policy \"snap\" takes none");
    L->rm_policy = policy;
    L->rm_scale = s;
}

/* `motion_scheme`: "standard", "expressive", or an object mapping roles
 * to {"stiffness": k, "damping_ratio": z}; a role it leaves out keeps the
 * standard scheme's spring. */
void scene_parse_motion_scheme(loader_t *L, const cJSON *it)
{
    if (cJSON_IsString(it)) {
        int k = scene_find_name(scheme_builtins, NELEM(scheme_builtins), it->valuestring);
        if (k < 0) {
            qbuf_t q;
            const char *g = scene_suggest(L, it->valuestring, scheme_builtins, NELEM(scheme_builtins));
            scene_err(L, "unknown motion scheme '%s'%s%s%s: \"standard\", \"expressive\" or an "
                      "object of roles", scene_q(&q, it->valuestring), g ? " (did you mean '" : "",
                      g ? g : "", g ? "'?)" : "");
            return;
        }
        L->scheme = k == 0 ? rf_motion_standard : rf_motion_expressive;
        return;
    }
    if (!scene_want_object(L, it, "\"standard\", \"expressive\" or an object mapping roles to "
                           "{\"stiffness\": k, \"damping_ratio\": z}"))
        return;
    const cJSON *f[RF_ROLES];
    scene_scan_keys(L, it, rf_motion_roles, RF_ROLES, f);
    for (int r = 0; r < RF_ROLES; r++) {
        if (f[r] == NULL)
            continue;
        size_t m = scene_push(L, rf_motion_roles[r]);
        if (scene_want_object(L, f[r], "an object {\"stiffness\": k, \"damping_ratio\": z}")) {
            const cJSON *g[2];
            scene_scan_keys(L, f[r], scheme_spring_keys, 2, g);
            scene_num_field(L, g[0], "stiffness", 1, R_GT0, &L->scheme.stiffness[r]);
            scene_num_field(L, g[1], "damping_ratio", 1, R_GE0, &L->scheme.damping_ratio[r]);
            if (!isfinite(2 * L->scheme.damping_ratio[r] * sqrt(L->scheme.stiffness[r])))
                scene_err_key(L, "damping_ratio", "too large: the damping it gives is not finite");
        }
        scene_pop(L, m);
    }
}

/* `scale`: every spec of the value, before a `from` source is applied
 * (a velocity taken from another value is real, not the spec's). A scale
 * so small that a parameter overflows (or a duration underflows to 0) is
 * an error at the value. */
int scene_reduce_scale(loader_t *L, vsrc_t *s)
{
    for (uint32_t i = 0; i < s->nspecs; i++) {
        rf_anim_spec_t *sp = &s->specs[i];
        int own = i == 0 ? !(s->from_vi >= 0 && s->from_velocity) : sp->has_velocity;
        rf_motion_scale(sp, L->rm_scale, own);
        const char *bad = !isfinite(sp->velocity) ? "velocity"
                        : !isfinite(sp->stiffness) || !isfinite(sp->damping) ? "spring"
                        : !isfinite(sp->gravity) || !isfinite(sp->friction) ? "friction or gravity"
                        : !(sp->duration > 0) && !sp->duration_policy ? "duration" : NULL;
        if (bad != NULL) {
            nbuf_t b;
            scene_err_at(L, s->ptr, "--reduced-motion: the scale %s leaves its %s out of range "
                         "(not finite, or a duration of 0)", scene_num(&b, L->rm_scale), bad);
            return -1;
        }
    }
    return 0;
}

/* `snap`: orig is the value's track as written (built), specs the specs it
 * was built from; the snap specs replace them (arena). Entry i jumps at its
 * start to orig's segment i final value, or holds its from when that
 * segment never settles. */
int scene_reduce_snap(loader_t *L, vsrc_t *s, const rf_track_t *orig)
{
    rf_anim_spec_t *sn = scene_aalloc(L, s->nspecs, sizeof *sn);
    if (sn == NULL)
        return -1;
    for (uint32_t i = 0; i < s->nspecs; i++) {
        const rf_anim_spec_t *sp = &s->specs[i];
        const rf_anim_t *seg = &orig->segs[i];
        int settles = isfinite(seg->settle) && !isnan(seg->final);
        rf_anim_spec_defaults(&sn[i], settles ? RF_CURVE_SNAP : RF_CURVE_CONST);
        sn[i].start = sp->start;
        sn[i].delay = sp->delay;
        sn[i].has_from = i == 0 || sp->has_from;
        sn[i].from = seg->from;
        sn[i].to = settles ? seg->final : seg->from;
    }
    s->specs = sn;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Sampled easings (seed 004): {"sampled": EXPR, "samples": N}          */

static const char *const sampled_keys[] = { "sampled", "samples" };
/* the motion context, in slot order (seed 004's MotionContext) */
const scene_names_t scene_sampled_names = SCENE_NAMES(sampled_keys, "sampled samples");
static const char *const ctx_names[] = { "p", "origin", "target", "distance", "duration" };

static int sampled_resolve(void *ctx, const char *name, size_t len, int comp, rf_expr_ref_t *out,
                           char *err, size_t errlen)
{
    /* (values are read nowhere here: the samples are computed at load) */
    const loader_t *L = ctx;
    for (size_t i = 0; i < NELEM(ctx_names); i++) {
        if (strlen(ctx_names[i]) == len && memcmp(ctx_names[i], name, len) == 0 &&
            comp == RF_EXPR_PLAIN) {
            out->slot = (uint32_t)i;
            out->lo = i == 0 ? 0 : -INFINITY;
            out->hi = i == 0 ? 1 : INFINITY;
            return 0;
        }
    }
    int shown = len > 100 ? 100 : (int)len;
    snprintf(err, errlen, "a sampled easing reads only p, origin, target, distance and "
             "duration, not %s'%.*s'", scene_lookup_value(L, name, len) >= 0 ? "the value " : "",
             shown, name);
    return -1;
}

/* Evaluates the samples of e (registered in L) with the motion context:
 * origin, target, |target - origin| and the duration. */
static void sampled_fill(loader_t *L, sampled_t *sm, double origin, double target, double dur)
{
    double slots[5] = { 0, origin, target, fabs(target - origin), dur };
    for (uint32_t i = 0; i < sm->n; i++) {
        slots[0] = (double)i / (double)(sm->n - 1);
        double y = rf_expr_eval(sm->expr, slots, 0);
        if (!isfinite(y)) {
            nbuf_t b1, b2;
            scene_err_at(L, sm->ptr, "is %s at p = %s (sample %lu): every sample must be finite",
                         scene_num(&b1, y), scene_num(&b2, slots[0]), (unsigned long)i);
            return;
        }
        sm->samples[i] = y;
    }
}

static sampled_t *sampled_find(loader_t *L, const double *samples)
{
    for (size_t i = 0; i < L->nsampled; i++)
        if (L->sampled[i].samples == samples)
            return &L->sampled[i];
    return NULL;
}

int scene_sampled_easing(loader_t *L, const cJSON *it, const char *key, rf_easing_t *out)
{
    size_t m = scene_push(L, key);
    const cJSON *f[NELEM(sampled_keys)];
    scene_scan_keys(L, it, sampled_keys, NELEM(sampled_keys), f);
    double n = 0;
    int rn = scene_int_field(L, f[1], "samples", 1, 2, 4096, &n);
    int ok = rn == F_OK;
    rf_expr_t *e = NULL;
    if (f[0] == NULL) {
        scene_err(L, "missing required key 'sampled' (an expression in p, e.g. \"p*p\")");
        ok = 0;
    } else if (!cJSON_IsString(f[0])) {
        scene_err_key(L, "sampled", "must be an expression in p such as \"p*p\", got %s",
                      scene_json_type(f[0]));
        ok = 0;
    } else {
        const char *src = f[0]->valuestring;
        size_t len = strlen(src);
        rf_expr_error_t ee;
        size_t ms = scene_push(L, "sampled");
        if (len > RF_MAX_EXPR_BYTES) {
            scene_err(L, "expression is %zu bytes; the limit is %u", len,
                      (unsigned)RF_MAX_EXPR_BYTES);
            ok = 0;
        } else if (rf_expr_compile(src, len, 0, 0, sampled_resolve, L, scene_arena_alloc_fn,
                                   L->arena, &e, &ee) != 0) {
            if (ee.oom)
                scene_err_oom(L);
            else {
                char msg[RF_EXPR_ERR_MSG + 32];
                snprintf(msg, sizeof msg, "col %d: %s", ee.col, ee.msg);
                scene_err_caret(L, L->ptr, src, len, ee.col, msg);
            }
            ok = 0;
        } else if (rf_expr_uses_time(e)) {
            scene_err(L, "a sampled easing is a function of p (0..1), not of the time t");
            ok = 0;
        }
        scene_pop(L, ms);
    }
    if (!ok) {
        scene_pop(L, m);
        return F_BAD;
    }
    double *samples = scene_aalloc(L, (size_t)n, sizeof *samples);
    if (L->nsampled == L->capsampled) {
        size_t cap = L->capsampled ? 2 * L->capsampled : 8;
        sampled_t *ns = realloc(L->sampled, cap * sizeof *ns);
        if (ns == NULL)
            scene_err_oom(L);
        else {
            L->sampled = ns;
            L->capsampled = cap;
        }
    }
    if (samples == NULL || L->nsampled == L->capsampled) {
        scene_pop(L, m);
        return F_BAD;
    }
    sampled_t *sm = &L->sampled[L->nsampled++];
    sm->samples = samples;
    sm->n = (uint32_t)n;
    sm->expr = e;
    size_t ms = scene_push(L, "sampled");
    sm->ptr = rf_arena_strdup(L->arena, L->ptr);
    scene_pop(L, ms);
    if (sm->ptr == NULL) {
        scene_err_oom(L);
        sm->ptr = "";
    }
    /* only p: the samples are known now; else when the motion is known */
    const uint32_t *deps;
    uint32_t nd = rf_expr_deps(e, &deps);
    sm->motion = nd > 1 || (nd == 1 && deps[0] != 0);
    if (!sm->motion)
        sampled_fill(L, sm, 0, 0, 0);
    rf_easing_init_sampled(out, samples, sm->n);
    scene_pop(L, m);
    return F_OK;
}

/* 1 when e is a sampled easing that reads more than p. */
int scene_sampled_is_motion(loader_t *L, const rf_easing_t *e)
{
    if (e->kind != RF_EASE_SAMPLED)
        return 0;
    sampled_t *sm = sampled_find(L, e->samples);
    return sm != NULL && sm->motion;
}

void scene_sampled_context(loader_t *L, const rf_easing_t *e, double origin, double target,
                           double duration)
{
    if (e->kind != RF_EASE_SAMPLED)
        return;
    sampled_t *sm = sampled_find(L, e->samples);
    if (sm != NULL && sm->motion)
        sampled_fill(L, sm, origin, target, duration);
}

/* rf_track_build_prep's hook: a tween's (bezier's) sampled easing gets its
 * motion once from, to and the duration are resolved; under a reduced-
 * motion scale the duration as written (the same curve, s times as long). */
void scene_sampled_prep(void *ctx, rf_anim_spec_t *sp)
{
    const sampled_prep_t *pc = ctx;
    if (sp->curve == RF_CURVE_EASED)
        scene_sampled_context(pc->L, &sp->easing, sp->from, sp->to,
                              rf_anim_spec_duration(sp) / pc->tscale);
}
