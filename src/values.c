/* values.c - name lookup and evaluation of a scene's values. */
#include "values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "path.h"

static const char *const kind_names[RF_VALUE_KINDS] = {
    [RF_VALUE_STATIC] = "static",
    [RF_VALUE_SPRING] = "spring",
    [RF_VALUE_BEZIER] = "bezier",
    [RF_VALUE_REPEAT] = "repeat",
    [RF_VALUE_TWEEN] = "tween",
    [RF_VALUE_PHYSICS] = "physics",
    [RF_VALUE_DECAY] = "decay",
    [RF_VALUE_KEYFRAMES] = "keyframes",
    [RF_VALUE_SNAP] = "snap",
    [RF_VALUE_SEQUENCE] = "sequence",
    [RF_VALUE_EXPR] = "expr",
    [RF_VALUE_SAMPLE_PATH] = "sample_path",
};

const char *rf_value_kind_name(rf_value_kind_t kind)
{
    if ((unsigned)kind >= RF_VALUE_KINDS)
        return "unknown";
    return kind_names[kind];
}

/* strcmp order of name against the first len bytes of key (no NUL there). */
static int cmp_name_n(const char *name, const char *key, size_t len)
{
    int c = strncmp(name, key, len);
    if (c != 0)
        return c;
    return name[len] != '\0';   /* name is longer: it sorts after */
}

const rf_value_t *rf_values_findn(const rf_values_t *vs, const char *name, size_t len)
{
    if (vs == NULL || vs->by_name == NULL || memchr(name, '\0', len) != NULL)
        return NULL;
    size_t lo = 0, hi = vs->nnamed;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const rf_value_t *v = &vs->values[vs->by_name[mid]];
        int c = cmp_name_n(v->name, name, len);
        if (c == 0)
            return v;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const rf_value_t *rf_values_find(const rf_values_t *vs, const char *name)
{
    return rf_values_findn(vs, name, strlen(name));
}

void rf_value_eval(const rf_value_t *v, double t, double *slots)
{
    switch (v->kind) {
    case RF_VALUE_EXPR:
        slots[v->slot] = rf_expr_eval(v->expr, slots, t);
        return;
    case RF_VALUE_SAMPLE_PATH: {
        double x, y;
        rf_path_sample(v->path, slots[v->progress_slot], &x, &y, &slots[v->slot + 2]);
        /* Curve evaluation rounds: a point near an extremum may land an ulp
         * outside the exact bounds that the value publishes as its range
         * (expressions over NAME.x rely on it); clamping keeps it inside. */
        slots[v->slot] = fmin(fmax(x, v->out[0].lo), v->out[0].hi);
        slots[v->slot + 1] = fmin(fmax(y, v->out[1].lo), v->out[1].hi);
        return;
    }
    default:
        if (v->comps != NULL) {
            /* a vector or color: each component its own scalar track */
            for (uint32_t k = 0; k < v->nout; k++)
                slots[v->slot + k] = rf_track_eval(&v->comps[k], t);
            return;
        }
        slots[v->slot] = rf_track_eval(&v->track, t);
        return;
    }
}

static const char *const sample_names[] = { "x", "y", "angle", NULL };
static const char *const vector_names[] = { "x", "y", "z", "w" };
static const char *const color_names[] = { "r", "g", "b", "a" };

const char *const *rf_value_shape_names(rf_value_shape_t shape)
{
    switch (shape) {
    case RF_SHAPE_SAMPLE: return sample_names;
    case RF_SHAPE_VECTOR: return vector_names;
    case RF_SHAPE_COLOR: return color_names;
    default: return NULL;
    }
}

int rf_value_component_output(rf_value_shape_t shape, uint32_t nout, int comp)
{
    if (comp == RF_EXPR_PLAIN)
        return shape == RF_SHAPE_SCALAR ? 0 : -1;
    if (comp < RF_EXPR_X || comp >= RF_EXPR_X + RF_EXPR_COMPONENTS)
        return -1;
    const char *c = rf_expr_components[comp - RF_EXPR_X];
    return rf_value_output_find(shape, nout, c, strlen(c));
}

const char *rf_value_output_name(const rf_value_t *v, uint32_t k)
{
    const char *const *names = rf_value_shape_names((rf_value_shape_t)v->shape);
    return names != NULL && v->nout > 1 && k < v->nout ? names[k] : NULL;
}

int rf_value_output_find(rf_value_shape_t shape, uint32_t nout, const char *name, size_t len)
{
    const char *const *names = rf_value_shape_names(shape);
    for (uint32_t k = 0; names != NULL && k < nout && k < RF_VALUE_MAXOUT; k++)
        if (names[k] != NULL && strlen(names[k]) == len && memcmp(names[k], name, len) == 0)
            return (int)k;
    return -1;
}

void rf_values_eval(const rf_values_t *vs, double t, double *out)
{
    for (uint32_t i = 0; i < vs->n; i++)
        rf_value_eval(&vs->values[vs->order[i]], t, out);
}

/* The value whose outputs hold slot, or UINT32_MAX. */
static uint32_t slot_owner(const uint32_t *owner, uint32_t nslots, uint32_t slot)
{
    return slot < nslots ? owner[slot] : UINT32_MAX;
}

uint32_t *rf_values_closure_create(const rf_values_t *vs, const uint32_t *slots, uint32_t n,
                                   uint32_t *count)
{
    uint32_t ns = vs->nslots ? vs->nslots : 1;
    uint32_t *owner = malloc(ns * sizeof *owner);
    uint8_t *mark = calloc(vs->n ? vs->n : 1, 1);
    uint32_t *list = malloc((vs->n ? vs->n : 1) * sizeof *list);
    *count = 0;
    if (owner == NULL || mark == NULL || list == NULL) {
        free(owner);
        free(mark);
        free(list);
        return NULL;
    }
    for (uint32_t i = 0; i < ns; i++)
        owner[i] = UINT32_MAX;
    for (uint32_t i = 0; i < vs->n; i++)
        for (uint32_t k = 0; k < vs->values[i].nout && vs->values[i].slot + k < ns; k++)
            owner[vs->values[i].slot + k] = i;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t o = slot_owner(owner, ns, slots[i]);
        if (o != UINT32_MAX)
            mark[o] = 1;
    }
    /* dependencies come first in order: walking it backwards reaches every
     * value a marked one reads after the reader */
    for (uint32_t j = vs->n; j-- > 0;) {
        const rf_value_t *v = &vs->values[vs->order[j]];
        if (!mark[vs->order[j]])
            continue;
        if (v->kind == RF_VALUE_EXPR) {
            const uint32_t *deps;
            uint32_t nd = rf_expr_deps(v->expr, &deps);
            for (uint32_t d = 0; d < nd; d++) {
                uint32_t o = slot_owner(owner, ns, deps[d]);
                if (o != UINT32_MAX)
                    mark[o] = 1;
            }
        } else if (v->kind == RF_VALUE_SAMPLE_PATH) {
            uint32_t o = slot_owner(owner, ns, v->progress_slot);
            if (o != UINT32_MAX)
                mark[o] = 1;
        }
    }
    for (uint32_t j = 0; j < vs->n; j++)
        if (mark[vs->order[j]])
            list[(*count)++] = vs->order[j];
    free(owner);
    free(mark);
    return list;
}

void rf_values_eval_list(const rf_values_t *vs, const uint32_t *list, uint32_t n, double t,
                         double *out)
{
    for (uint32_t i = 0; i < n; i++)
        rf_value_eval(&vs->values[list[i]], t, out);
}
