/* values.c - name lookup and evaluation of a scene's values. */
#include "values.h"

#include <math.h>
#include <string.h>

#include "expr.h"
#include "path.h"

const char *const rf_value_components[RF_VALUE_COMPONENTS] = { "x", "y", "angle" };

static const char *const kind_names[RF_VALUE_KINDS] = {
    [RF_VALUE_STATIC] = "static",
    [RF_VALUE_SPRING] = "spring",
    [RF_VALUE_BEZIER] = "bezier",
    [RF_VALUE_REPEAT] = "repeat",
    [RF_VALUE_TWEEN] = "tween",
    [RF_VALUE_PHYSICS] = "physics",
    [RF_VALUE_DECAY] = "decay",
    [RF_VALUE_KEYFRAMES] = "keyframes",
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
        slots[v->slot] = rf_track_eval(&v->track, t);
        return;
    }
}

void rf_values_eval(const rf_values_t *vs, double t, double *out)
{
    for (uint32_t i = 0; i < vs->n; i++)
        rf_value_eval(&vs->values[vs->order[i]], t, out);
}
