/* scene-vec.c - vector and color values at load (scene-v1.md "Motion
 * authoring": vector and color values, seed 003's converters).
 *
 * A value whose from, to, velocity or key values are arrays of 2 to 4
 * numbers, or colors, has that many components (a color: r, g, b, a,
 * straight, each 0..1). While a spec is parsed its components are kept in
 * a vecspec_t; once the value (or every entry of its sequence) is parsed,
 * scene_vec_expand() turns the specs into ncomp runs of ordinary scalar
 * specs, one per component, sharing every other parameter. They are built
 * side by side by rf_track_build_vec() (anim.h): each component is the
 * same closed form as a scalar value with those numbers, and a sequence
 * entry inherits each component's value and velocity. Evaluation is then
 * nout scalar descriptors (values.c): O(1), allocation-free.
 *
 * Also here: which output a reference NAME, NAME.x or NAME.r names (the
 * one rule for layers, expressions, progresses and text), and a color
 * value named where a color goes (fill, stroke).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "scene-int.h"

/* ------------------------------------------------------------------ */
/* Outputs                                                              */

static rf_value_shape_t src_shape(const vsrc_t *v)
{
    return v->kind == RF_VALUE_SAMPLE_PATH ? RF_SHAPE_SAMPLE : (rf_value_shape_t)v->shape;
}

static uint32_t src_nout(const vsrc_t *v)
{
    return v->kind == RF_VALUE_SAMPLE_PATH ? 3 : v->ncomp > 1 ? v->ncomp : 1;
}

int scene_value_output(const loader_t *L, long vi, int comp, const char *name, const char *field,
                       char *msg, size_t cap, int *out)
{
    const vsrc_t *v = &L->vals[vi];
    rf_value_shape_t shape = src_shape(v);
    uint32_t nout = src_nout(v);
    int k = rf_value_component_output(shape, nout, comp);
    if (k >= 0) {
        *out = k;
        return 0;
    }
    const char *cn = field != NULL ? field
                   : comp > RF_EXPR_PLAIN && comp <= RF_EXPR_COMPONENTS
                   ? rf_expr_components[comp - RF_EXPR_X] : "";
    switch (shape) {
    case RF_SHAPE_SAMPLE:
        if (comp == RF_EXPR_PLAIN)
            snprintf(msg, cap, "'%.150s' is a path sample: use %.150s.x, %.150s.y or %.150s.angle",
                     name, name, name, name);
        else
            snprintf(msg, cap, "unknown output '.%.40s' of '%.150s': a path sample has .x, .y and "
                     ".angle", cn, name);
        break;
    case RF_SHAPE_VECTOR: {
        static const char *const lists[] = { "", "", ".x and .y", ".x, .y and .z",
                                             ".x, .y, .z and .w" };
        if (comp == RF_EXPR_PLAIN)
            snprintf(msg, cap, "'%.150s' is a vector of %u components: use %.150s.x, %.150s.y, "
                     "...", name, nout, name, name);
        else
            snprintf(msg, cap, "unknown output '.%.40s' of '%.150s': a vector of %u components has "
                     "%s", cn, name, nout, lists[nout < 5 ? nout : 4]);
        break;
    }
    case RF_SHAPE_COLOR:
        if (comp == RF_EXPR_PLAIN)
            snprintf(msg, cap, "'%.150s' is a color: name it where a color goes (\"fill\": "
                     "\"%.150s\") or read one channel, %.150s.r, .g, .b or .a", name, name, name);
        else
            snprintf(msg, cap, "unknown output '.%.40s' of '%.150s': a color has .r, .g, .b and .a",
                     cn, name);
        break;
    default:
        snprintf(msg, cap, "'%.150s' is %s %s value of one number: it has no '.%.40s' (path "
                 "samples have .x, .y and .angle, vectors .x to .w, colors .r to .a)", name,
                 scene_a_kind(v->kind), rf_value_kind_name(v->kind), cn);
        break;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */

void scene_vec_begin(vecspec_t *vx, rf_value_kind_t kind)
{
    memset(vx, 0, sizeof *vx);
    vx->kind = kind;
    vx->key_index = -1;
}

/* s is a color and not the name of a value (a value named "red" wins). */
int scene_vec_color_string(const loader_t *L, const cJSON *it)
{
    uint32_t c;
    char why[8];
    if (!cJSON_IsString(it) || rf_color_parse(it->valuestring, &c, why, sizeof why) != 0)
        return 0;
    return !(scene_valid_name(it->valuestring) && L->values_obj != NULL &&
             cJSON_GetObjectItemCaseSensitive(L->values_obj, it->valuestring) != NULL);
}

/* The kinds that cannot take a vector: say so, once. */
static int vec_kind_ok(loader_t *L, vecspec_t *vx, const char *key, int color)
{
    if (vx->kind != RF_VALUE_PHYSICS && vx->kind != RF_VALUE_DECAY)
        return 1;
    if (!vx->kind_said)
        scene_err_key(L, key, "%s animates one number: a %s needs spring, tween, bezier, "
                      "keyframes or snap (its bounds, friction and asymptote are scalar)",
                      rf_value_kind_name(vx->kind), color ? "color" : "vector");
    vx->kind_said = 1;
    return 0;
}

/* Records that key gave n components (color: a color's channels); a count
 * that differs from the first one is an error at key. */
static int vec_count(loader_t *L, vecspec_t *vx, const char *key, int n, int color)
{
    if (vx->n == 0) {
        vx->n = n;
        if (vx->key_index >= 0)
            snprintf(vx->nkey, sizeof vx->nkey, "key %d", vx->key_index);
        else
            snprintf(vx->nkey, sizeof vx->nkey, "'%s'", key);
    } else if (vx->n != n) {
        scene_err_key(L, key, "has %d components but %s has %d: from, to, velocity and key "
                      "values must have the same length", n, vx->nkey, vx->n);
        return -1;
    }
    if (color)
        vx->color = 1;
    return 0;
}

/* it: a number, an array of 2..4 numbers, or (color_ok) a color string.
 * A number goes to *num; components to comp[0 .. n-1]. Returns the
 * component count (1 for a number), 0 when absent, -1 after an error. */
static int vec_read(loader_t *L, vecspec_t *vx, const cJSON *it, const char *key, int color_ok,
                    double *num, double comp[RF_VALUE_MAXOUT])
{
    if (it == NULL)
        return 0;
    if (cJSON_IsNumber(it)) {
        if (scene_want_number(L, it, key, num) != F_OK)
            return -1;
        if (vx->num_key == NULL)
            vx->num_key = key;
        return 1;
    }
    if (color_ok && cJSON_IsString(it)) {
        uint32_t c;
        char why[160];
        qbuf_t q;
        if (!vec_kind_ok(L, vx, key, 1))
            return -1;
        if (rf_color_parse(it->valuestring, &c, why, sizeof why) != 0) {
            scene_err_key(L, key, "must be a number, an array of 2 to 4 numbers or a color, got "
                          "\"%s\" (not a color: %s)", scene_q(&q, it->valuestring), why);
            return -1;
        }
        comp[0] = (double)(c >> 24 & 0xFFu) / 255;
        comp[1] = (double)(c >> 16 & 0xFFu) / 255;
        comp[2] = (double)(c >> 8 & 0xFFu) / 255;
        comp[3] = (double)(c & 0xFFu) / 255;
        *num = comp[0];
        return vec_count(L, vx, key, 4, 1) == 0 ? 4 : -1;
    }
    int n = cJSON_IsArray(it) ? cJSON_GetArraySize(it) : -1;
    if (n < 0) {
        scene_err_key(L, key, color_ok ? "must be a number, an array of 2 to 4 numbers or a "
                      "color, got %s" : "must be a number or an array of 2 to 4 numbers, got %s",
                      scene_json_type(it));
        return -1;
    }
    if (!vec_kind_ok(L, vx, key, 0))
        return -1;
    if (n < 2 || n > RF_VALUE_MAXOUT) {
        scene_err_key(L, key, "a vector has 2 to 4 components, got %d", n);
        return -1;
    }
    size_t m = scene_push(L, key);
    int i = 0, bad = 0;
    for (const cJSON *c = it->child; c != NULL; c = c->next, i++) {
        char idx[16];
        snprintf(idx, sizeof idx, "%d", i & 7);
        if (scene_want_number(L, c, idx, &comp[i]) != F_OK)
            bad = 1;
    }
    scene_pop(L, m);
    if (bad)
        return -1;
    *num = comp[0];
    return vec_count(L, vx, key, n, 0) == 0 ? n : -1;
}

int scene_vec_field(loader_t *L, const cJSON *it, const char *key, int required, vecspec_t *vx,
                    int field, double *out)
{
    if (it == NULL) {
        if (required)
            scene_err(L, "missing required key '%s'", key);
        return required ? F_BAD : F_ABSENT;
    }
    /* a velocity is a rate, not a color: a color's is [r, g, b, a] per second */
    int n = vec_read(L, vx, it, key, field != VX_VELOCITY, out, vx->comp[field]);
    if (n < 0)
        return F_BAD;
    if (n > 1)
        vx->has[field] = 1;
    return F_OK;
}

int scene_vec_key(loader_t *L, const cJSON *it, vecspec_t *vx, uint32_t i, uint32_t nkeys,
                  double *out)
{
    double comp[RF_VALUE_MAXOUT] = { 0, 0, 0, 0 };
    if (it != NULL && !cJSON_IsNumber(it) && vx->keyvals == NULL) {
        vx->keyvals = scene_aalloc(L, (size_t)nkeys * RF_VALUE_MAXOUT, sizeof(double));
        if (vx->keyvals == NULL)
            return F_BAD;
        vx->nkeys = nkeys;
    }
    const char *num_key = vx->num_key;   /* a key's number is reported as keys' */
    vx->key_index = (int)i;
    int n = vec_read(L, vx, it, "1", 1, out, comp);
    vx->key_index = -1;
    vx->num_key = num_key;
    if (n < 0)
        return F_BAD;
    if (n > 1 && vx->keyvals != NULL && i < vx->nkeys)
        memcpy(&vx->keyvals[(size_t)i * RF_VALUE_MAXOUT], comp, sizeof comp);
    else if (n == 1 && vx->keyvals != NULL && i < vx->nkeys)
        vx->keyvals[(size_t)i * RF_VALUE_MAXOUT] = NAN;  /* a number among vectors */
    if (n == 1)
        vx->key_number = 1;
    return F_OK;
}

/* The pointer of entry i of a sequence (kinds: each entry's kind key),
 * or of the plain value (kinds NULL) being where it already is. */
static size_t vec_push_entry(loader_t *L, const char *const *kinds, uint32_t i)
{
    size_t m = strlen(L->ptr);
    if (kinds != NULL) {
        scene_pushi(L, i);
        if (kinds[i] != NULL && kinds[i][0] != '\0')
            scene_push(L, kinds[i]);
    }
    return m;
}

/* After one spec: a number given where another field is a vector is an
 * error (no broadcasting: a typo would pass unseen). */
static int vec_check_spec(loader_t *L, const vecspec_t *vx)
{
    if (vx->n == 0 || (vx->num_key == NULL && !vx->key_number))
        return 0;
    if (vx->num_key == NULL)
        scene_err_key(L, "keys", "mixes numbers and vectors: every key value has %d components, "
                      "as %s has", vx->n, vx->nkey);
    else
        scene_err_key(L, vx->num_key, "is a number but %s has %d components: give %d "
                      "numbers%s", vx->nkey, vx->n, vx->n, vx->color ? " (or a color)" : "");
    return -1;
}

int scene_vec_expand(loader_t *L, size_t vi, rf_anim_spec_t **pspecs, vecspec_t *vxs, uint32_t n,
                     const char *const *kinds)
{
    vsrc_t *v = &L->vals[vi];
    int ncomp = 0, color = 0, bad = 0;
    uint32_t first = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t m = vec_push_entry(L, kinds, i);
        if (vec_check_spec(L, &vxs[i]) != 0)
            bad = 1;
        scene_pop(L, m);
        if (vxs[i].n > 0 && ncomp == 0) {
            ncomp = vxs[i].n;
            first = i;
        }
        color |= vxs[i].color;
    }
    if (ncomp == 0 || bad)
        return bad ? -1 : 0;
    /* every entry of a sequence has the components of the first vector one */
    for (uint32_t i = 0; i < n; i++) {
        if (vxs[i].n == ncomp)
            continue;
        size_t m = vec_push_entry(L, kinds, i);
        rf_curve_t cv = (*pspecs)[i].curve;
        if (vxs[i].n == 0 && (cv == RF_CURVE_PHYSICS || cv == RF_CURVE_DECAY))
            scene_err(L, "%s animates one number, but entry %u animates %d components: a "
                      "sequence of vectors or colors takes spring, tween, bezier, keyframes or "
                      "snap entries", cv == RF_CURVE_PHYSICS ? "physics" : "decay",
                      (unsigned)first, ncomp);
        else if (vxs[i].n == 0)
            scene_err(L, "animates one number, but entry %u animates %d components: every "
                      "entry of a sequence has the same components", (unsigned)first, ncomp);
        else
            scene_err(L, "animates %d components, but entry %u animates %d: every entry of a "
                      "sequence has the same components", vxs[i].n, (unsigned)first, ncomp);
        scene_pop(L, m);
        bad = 1;
    }
    if (bad)
        return -1;
    rf_anim_spec_t *out = scene_aalloc(L, (size_t)ncomp * n, sizeof *out);
    if (out == NULL)
        return -1;
    for (int k = 0; k < ncomp; k++) {
        for (uint32_t i = 0; i < n; i++) {
            rf_anim_spec_t s = (*pspecs)[i];
            const vecspec_t *vx = &vxs[i];
            if (vx->has[VX_FROM])
                s.from = vx->comp[VX_FROM][k];
            if (vx->has[VX_TO])
                s.to = vx->comp[VX_TO][k];
            if (vx->has[VX_VELOCITY])
                s.velocity = vx->comp[VX_VELOCITY][k];
            if (s.curve == RF_CURVE_KEYFRAMES && vx->keyvals != NULL) {
                rf_key_t *keys = scene_aalloc(L, s.nkeys, sizeof *keys);
                if (keys == NULL)
                    return -1;
                for (uint32_t j = 0; j < s.nkeys; j++) {
                    keys[j] = s.keys[j];
                    keys[j].value = vx->keyvals[(size_t)j * RF_VALUE_MAXOUT + (size_t)k];
                }
                s.keys = keys;
                s.from = keys[0].value;
            }
            out[(size_t)k * n + i] = s;
        }
    }
    *pspecs = out;
    v->ncomp = (uint8_t)ncomp;
    v->shape = color ? RF_SHAPE_COLOR : RF_SHAPE_VECTOR;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Colors where a color goes                                            */

int scene_color_value(loader_t *L, const char *s, const char *key, uint32_t *slot)
{
    if (!scene_valid_name(s))
        return 0;
    long vi = scene_lookup_value(L, s, strlen(s));
    if (vi < 0)
        return 0;
    const vsrc_t *v = &L->vals[vi];
    if (v->shape == RF_SHAPE_VECTOR && v->kind != RF_VALUE_SAMPLE_PATH) {
        scene_err_key(L, key, "'%.150s' is a vector of %u components, not a color: a color value "
                      "animates colors (\"from\": \"#ffffff\", \"to\": \"#3366cc\")", s,
                      (unsigned)v->ncomp);
        return -1;
    }
    if (v->shape != RF_SHAPE_COLOR || v->kind == RF_VALUE_SAMPLE_PATH) {
        scene_err_key(L, key, "'%.150s' is %s %s value, not a color: a color value animates "
                      "colors (\"from\": \"#ffffff\", \"to\": \"#3366cc\")", s,
                      scene_a_kind(v->kind), rf_value_kind_name(v->kind));
        return -1;
    }
    L->vals[vi].used = 1;
    *slot = SCENE_PENDING(vi, 0);
    return 1;
}

int scene_color_inline(loader_t *L, const cJSON *obj, uint32_t *slot)
{
    static const char *const kinds[] = { "spring", "bezier", "repeat", "tween", "keyframes",
                                         "snap", "sequence", "physics", "decay", "expr",
                                         "sample_path" };
    int has = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next)
        if (scene_find_name(kinds, NELEM(kinds), c->string) >= 0)
            has = 1;
    if (!has)
        return 0;
    size_t vi = scene_add_value(L, "", obj);
    scene_resolve_pending(L);
    if (vi == SIZE_MAX)
        return -1;
    const vsrc_t *v = &L->vals[vi];
    if (v->shape != RF_SHAPE_COLOR) {
        if (v->specs != NULL || v->src != NULL)   /* else its own error said why */
            scene_err(L, "an inline value where a color goes must animate colors (\"from\": "
                      "\"#ffffff\", \"to\": \"#3366cc\")");
        return -1;
    }
    L->vals[vi].used = 1;
    *slot = SCENE_PENDING(vi, 0);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Building                                                             */

/* A `from` naming a value, for a vector: that value's components at the
 * start (and their velocities for spring), component by component; the
 * source must have the same components. */
static int vec_apply_from(loader_t *L, vsrc_t *s, const rf_value_t *vals, uint32_t n)
{
    const rf_value_t *src = &vals[s->from_vi];
    const vsrc_t *ss = &L->vals[s->from_vi];
    if (src->comps == NULL || src->nout != s->ncomp || ss->shape != s->shape) {
        scene_err_at(L, s->from_ptr, "'%s' has %u component%s, this %s %u: a vector or color "
                     "starts from a value of the same components", ss->name, src->nout,
                     src->nout == 1 ? "" : "s", s->from_kind, (unsigned)s->ncomp);
        return -1;
    }
    for (uint32_t k = 0; k < s->ncomp; k++) {
        rf_anim_spec_t *sp = &s->specs[(size_t)k * n];
        double x = 0, vel = 0;
        nbuf_t b1;
        rf_track_eval_state(&src->comps[k], sp->start + sp->delay, &x, &vel);
        if (!isfinite(x) || !isfinite(vel)) {
            scene_err_at(L, s->from_ptr, "'%s' is not finite at t = %s, where this %s starts",
                         ss->name, scene_num(&b1, sp->start + sp->delay), s->from_kind);
            return -1;
        }
        sp->from = x;
        sp->has_from = 1;
        if (s->from_velocity) {
            sp->velocity = vel;
            sp->has_velocity = 1;
        }
    }
    return 0;
}

/* A sampled easing that reads origin, target or distance cannot serve
 * components that move differently: only p and duration. */
static int vec_check_sampled(loader_t *L, const vsrc_t *s, uint32_t total)
{
    for (uint32_t i = 0; i < total; i++) {
        const rf_anim_spec_t *sp = &s->specs[i];
        if (sp->curve == RF_CURVE_EASED && scene_sampled_is_motion(L, &sp->easing)) {
            scene_err_at(L, s->ptr, "a vector or color value's sampled easing reads p (and "
                         "nothing else): its components move by different distances");
            return -1;
        }
        for (uint32_t j = 0; sp->curve == RF_CURVE_KEYFRAMES && j < sp->nkeys; j++)
            if (scene_sampled_is_motion(L, &sp->keys[j].easing)) {
                scene_err_at(L, s->ptr, "a vector or color value's sampled easing reads p (and "
                             "nothing else): its components move by different distances");
                return -1;
            }
    }
    return 0;
}

int scene_build_vec(loader_t *L, vsrc_t *s, const rf_value_t *vals, rf_value_t *v)
{
    uint32_t n = s->nspecs, nc = s->ncomp;
    size_t bytes = rf_track_storage_size(n);
    rf_track_t *tr = scene_aalloc(L, nc, sizeof *tr);
    void *storage[RF_TRACK_MAXCOMP];
    if (bytes == 0 || tr == NULL || nc > RF_TRACK_MAXCOMP)
        return -1;
    for (uint32_t k = 0; k < nc; k++)
        if ((storage[k] = scene_aalloc(L, 1, bytes)) == NULL)
            return -1;
    if (vec_check_sampled(L, s, nc * n) != 0)
        return -1;
    int reduce = L->reduced && !s->essential;
    sampled_prep_t pc = { L, 1.0 };
    if (reduce) {
        /* as reduce_value (scene-build.c) does for one component: the
         * settle as written, then the policy on each component's run */
        rf_anim_spec_t *orig = malloc((size_t)nc * n * sizeof *orig);
        if (orig == NULL) {
            scene_err_oom(L);
            return -1;
        }
        memcpy(orig, s->specs, (size_t)nc * n * sizeof *orig);
        int rc = s->from_vi >= 0 ? vec_apply_from(L, s, vals, n) : 0;
        if (rc == 0)
            rf_track_build_vec(tr, storage, s->specs, nc, n, scene_sampled_prep, &pc);
        s->settle0 = 0;
        for (uint32_t k = 0; rc == 0 && k < nc; k++)
            if (!(tr[k].settle <= s->settle0))
                s->settle0 = tr[k].settle;
        if (rc == 0 && L->rm_policy == RF_REDUCED_SNAP) {
            for (uint32_t k = 0; rc == 0 && k < nc; k++) {
                vsrc_t one = *s;
                one.specs = s->specs + (size_t)k * n;
                rc = scene_reduce_snap(L, &one, &tr[k]);
                if (rc == 0)
                    memcpy(s->specs + (size_t)k * n, one.specs, n * sizeof *one.specs);
            }
        } else if (rc == 0) {
            memcpy(s->specs, orig, (size_t)nc * n * sizeof *orig);
            for (uint32_t k = 0; rc == 0 && k < nc; k++) {
                vsrc_t one = *s;
                one.specs = s->specs + (size_t)k * n;
                rc = scene_reduce_scale(L, &one);
            }
            if (rc == 0 && s->from_vi >= 0)
                rc = vec_apply_from(L, s, vals, n);
            pc.tscale = L->rm_scale;
        }
        free(orig);
        if (rc != 0)
            return -1;
    } else if (s->from_vi >= 0 && vec_apply_from(L, s, vals, n) != 0) {
        return -1;
    }
    rf_track_build_vec(tr, storage, s->specs, nc, n, scene_sampled_prep, &pc);
    if (scene_nerrors(L) > 0)
        return -1;
    v->comps = tr;
    v->track = tr[0];
    v->nout = nc;
    v->shape = s->shape;
    /* it settles when its last component does, and ends as the worst */
    v->settle = 0;
    v->end = RF_END_FINISHED;
    for (uint32_t k = 0; k < nc; k++) {
        v->out[k].settle = tr[k].settle;
        v->out[k].final = tr[k].final;
        v->out[k].lo = tr[k].lo;
        v->out[k].hi = tr[k].hi;
        if (!(tr[k].settle <= v->settle))
            v->settle = tr[k].settle;
        if (tr[k].end == RF_END_NEVER || (tr[k].end == RF_END_LIMIT && v->end != RF_END_NEVER))
            v->end = tr[k].end;
        else if (tr[k].end == RF_END_BOUND && v->end == RF_END_FINISHED)
            v->end = RF_END_BOUND;
    }
    if (!reduce)
        s->settle0 = v->settle;
    /* the one-output facts describe the first component, as track does */
    v->final = v->out[0].final;
    v->lo = v->out[0].lo;
    v->hi = v->out[0].hi;
    return 0;
}
