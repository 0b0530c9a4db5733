/* scene-stroke.c - the stroke style's keys that a number or a word does not
 * cover (scene-v1.md "Strokes"): `dash`, an array of lengths, each a
 * number, a value name or an inline value; and the bounds of
 * `miter_limit`. line_cap and line_join are CHOICE rows (scene-text.c reads
 * them), dash_offset a plain NUMBER row. What is drawn of odd or degenerate
 * arrays is render-stroke.c's: `[]` and a pattern whose lengths are all 0
 * draw the stroke solid (SVG's rule for stroke-dasharray). */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

#include "scene-int.h"

/* `dash`: [on, off, ...], at most RF_DASH_MAX entries, none negative. */
void scene_walk_dash(loader_t *L, const cJSON *c, const rf_prop_t **out, uint32_t *nout)
{
    const char *k = c->string;
    if (!cJSON_IsArray(c)) {
        scene_err_key(L, k, "must be an array of lengths [on, off, ...] (numbers or value "
                      "names), got %s", scene_json_type(c));
        return;
    }
    int n = cJSON_GetArraySize(c);
    if (n > RF_DASH_MAX) {
        scene_err_key(L, k, "has %d lengths: a dash pattern has at most %d", n, RF_DASH_MAX);
        return;
    }
    if (n == 0)
        return;                /* [] : solid, as when absent */
    rf_prop_t *d = scene_aalloc(L, (size_t)n, sizeof *d);
    if (d == NULL)
        return;
    size_t m = scene_push(L, k);
    size_t i = 0;
    for (const cJSON *e = c->child; e != NULL; e = e->next, i++) {
        char idx[24];
        snprintf(idx, sizeof idx, "%zu", i);
        d[i].slot = RF_PROP_CONST;
        d[i].k = 0;
        scene_walk_numeric(L, e, idx, P_NONNEG, &d[i]);
    }
    scene_pop(L, m);
    *out = d;
    *nout = (uint32_t)n;
}

/* A MIN1 row's constant (miter_limit) must lie in [1, def2]; a value
 * passing outside is clamped when drawn. */
void scene_check_min1(loader_t *L, const cJSON *c, const rf_layer_key_t *key,
                      const rf_prop_t *p)
{
    nbuf_t b, b2;
    if (!cJSON_IsNumber(c) || p->slot != RF_PROP_CONST)
        return;
    if (!(p->k >= 1 && p->k <= key->def2))
        scene_err_key(L, c->string, "must be in [1, %s], got %s", scene_num(&b2, key->def2),
                      scene_num(&b, p->k));
}
