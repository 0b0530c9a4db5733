/* layer-instances.c - the instances layer (scene-v1.md "Motion authoring"):
 * one layer drawn `count` times, instance i with every value its subtree
 * reads evaluated at t - i * stagger, and the expressions' i and n set to
 * i and count. Values are pure functions of t, so nothing is kept from one
 * instance to the next: instance i at t is instance 0 at t - i * stagger
 * when the layer does not read i.
 *
 * Like a group it draws children (its one `layer`), in its own
 * coordinates under its transform, through one intermediate surface when
 * its opacity is below 1; its box is the union of every instance's. The
 * renderer's walks repeat the subtree for each instance (RF_CLASS_REPEAT)
 * through the instance hook here, which evaluates, into a slot array of
 * this renderer's state, only the values the subtree reads (their closure,
 * values.h "time-shifted evaluation", the same one text's per_glyph uses).
 * The closure and the array are made once per renderer (state_create);
 * drawing a frame never allocates. */
#include <stdlib.h>

#include "layer.h"
#include "scene.h"
#include "shape.h"
#include "values.h"

static const rf_layer_key_t instances_keys[] = {
    { "count", RF_KEY_COUNT, RF_KEY_REQUIRED, RF_KEY_AT(u.inst.count), 0, 1, 0, NULL },
    { "stagger", RF_KEY_SECONDS, 0, RF_KEY_AT(u.inst.stagger), 0, 0, RF_STAGGER_MAX, NULL },
    { "layer", RF_KEY_CHILDREN, RF_KEY_REQUIRED | RF_KEY_ONE, RF_KEY_AT(u.inst.children),
      RF_KEY_AT(u.inst.nchildren), 0, 0, NULL },
};

typedef struct inst_state {
    uint32_t *list;            /* the values the subtree reads, i and n left out */
    uint32_t nlist;
    double *slots;             /* values.nslots: an instance's slots */
    uint32_t slot_i, slot_n;   /* where i and n go, RF_PROP_CONST: nowhere */
} inst_state_t;

/* The slots a subtree reads, gathered at renderer creation. */
typedef struct gather {
    uint32_t *s;
    uint32_t n, cap;
    int oom;
} gather_t;

static int gather_slot(const rf_layer_key_t *key, uint32_t *slot, void *ctx)
{
    gather_t *g = ctx;
    (void)key;
    if (*slot == RF_PROP_CONST)
        return 0;
    if (g->n == g->cap) {
        uint32_t cap = g->cap ? 2 * g->cap : 64;
        uint32_t *s = realloc(g->s, (size_t)cap * sizeof *s);
        if (s == NULL) {
            g->oom = 1;
            return 1;
        }
        g->s = s;
        g->cap = cap;
    }
    g->s[g->n++] = *slot;
    return 0;
}

static int gather_tree(const rf_layer_t *L, gather_t *g)
{
    /* the visitor only reads through the slots it hands out */
    int r = rf_layer_each_slot((rf_layer_t *)(uintptr_t)L, gather_slot, g);
    uint32_t n;
    const rf_layer_t *ch = rf_layer_children(L, &n);
    for (uint32_t i = 0; i < n && r == 0; i++)
        r = gather_tree(&ch[i], g);
    return r;
}

static void inst_state_destroy(void *p)
{
    inst_state_t *st = p;
    if (st == NULL)
        return;
    free(st->list);
    free(st->slots);
    free(st);
}

static void *inst_state_create(struct rf_renderer *r, const rf_layer_t *L)
{
    const rf_scene_t *sc = rf_render_scene(r);
    const rf_values_t *vs = &sc->values;
    inst_state_t *st = calloc(1, sizeof *st);
    gather_t g = { NULL, 0, 0, 0 };
    if (st == NULL)
        return NULL;
    st->slot_i = sc->inst_slot[0];
    st->slot_n = sc->inst_slot[1];
    for (uint32_t i = 0; i < L->u.inst.nchildren && !g.oom; i++)
        gather_tree(&L->u.inst.children[i], &g);
    if (!g.oom)
        st->list = rf_values_closure_create(vs, g.s, g.n, &st->nlist);
    free(g.s);
    st->slots = calloc(vs->nslots ? vs->nslots : 1, sizeof *st->slots);
    if (st->list == NULL || st->slots == NULL) {
        inst_state_destroy(st);
        return NULL;
    }
    /* i and n are set per instance, not evaluated (they are 0 and 1 in
     * the frame's own slots) */
    uint32_t m = 0;
    for (uint32_t j = 0; j < st->nlist; j++) {
        uint32_t slot = vs->values[st->list[j]].slot;
        if (slot != st->slot_i && slot != st->slot_n)
            st->list[m++] = st->list[j];
    }
    st->nlist = m;
    return st;
}

static double *inst_instance(const struct rf_renderer *r, const rf_layer_t *L, void *state,
                             uint32_t k, double t, double *tk)
{
    inst_state_t *st = state;
    if (st == NULL || k >= L->u.inst.count)
        return NULL;
    *tk = t - (double)k * L->u.inst.stagger;
    if (st->slot_i != RF_PROP_CONST)
        st->slots[st->slot_i] = (double)k;
    if (st->slot_n != RF_PROP_CONST)
        st->slots[st->slot_n] = (double)L->u.inst.count;
    rf_values_eval_list(&rf_render_scene(r)->values, st->list, st->nlist, *tk, st->slots);
    return st->slots;
}

const rf_layer_class_t rf_layer_class_instances = {
    "instances", instances_keys, RF_NELEM(instances_keys), RF_CLASS_CHILDREN | RF_CLASS_REPEAT,
    "instances need a count and a layer to draw that many times",
    .box = NULL, /* the union of its instances' boxes: the renderer's walks */
    .state_create = inst_state_create,
    .state_destroy = inst_state_destroy,
    .instance = inst_instance,
};
