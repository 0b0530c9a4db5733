/* render-prefix.c - the static-prefix cache of a renderer: the layers
 * drawn first that read no value give the same pixels at every t, so they
 * are drawn once into base and every later frame starts from a copy of it
 * (rf_renderer_t in render-int.h says when that is allowed and why it is
 * byte-identical). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render-int.h"

/* A group the prefix may end inside: its own placement constant and its
 * opacity 1 (drawn straight onto the canvas, no intermediate group). */
static int group_chainable(const rf_layer_t *L)
{
    if (!(rf_layer_class(L)->flags & RF_CLASS_CHILDREN) ||
        (rf_layer_class(L)->flags & RF_CLASS_REPEAT))
        return 0;
    if (L->blend != RF_BLEND_NORMAL || L->pixel_snap || L->blur.slot != RF_PROP_CONST ||
        L->blur.k > 0 || L->nshadows > 0 ||
        (L->type == RF_LAYER_GROUP && (L->u.group.clip != NULL || L->u.group.mask != NULL)))
        return 0; /* drawn through render_draw_layer only */
    return rf_layer_keys_static(L, RF_KEY_OWN) && L->opacity.k >= 1;
}

/* The canvas area the device box of node idx under parent covers. */
static double node_area(const rf_renderer_t *r, uint32_t idx, const cairo_matrix_t *parent)
{
    const rf_node_t *nd = &r->nodes[idx];
    cairo_matrix_t m;
    double d[4];
    if (!nd->ok)
        return 0;
    cairo_matrix_multiply(&m, &nd->local, parent);
    render_device_box(nd, &m, 0, d);
    double w = fmin(d[2], r->width) - fmax(d[0], 0), h = fmin(d[3], r->height) - fmax(d[1], 0);
    return w > 0 && h > 0 ? w * h : 0;
}

/* Finds the static prefix and keeps it when it is worth a canvas copy per
 * frame: when the device boxes of its layers (laid out here with every
 * value 0; only the chain's matrices can differ in a frame) cover at least
 * a quarter of the canvas. A background that is a color value changes
 * under every layer: no prefix. Allocates nothing (base_alloc does, at
 * the renderer's second draw); returns 0. */
int prefix_find(rf_renderer_t *r)
{
    const rf_scene_t *sc = r->scene;
    if (sc->background_value != NULL)
        return 0;
    const rf_layer_t *list = sc->layers;
    uint32_t n = sc->nlayers, idx = 0, depth = 0, nprefix = 0;
    cairo_matrix_t parent;
    double area = 0;
    parent = r->root;
    for (;;) {
        uint32_t i = 0;
        for (; i < n && rf_layer_is_static(&list[i]); i++, nprefix++) {
            render_layout(r, &list[i], idx);
            area += node_area(r, idx, &parent);
            idx += r->nodes[idx].size;
        }
        r->split_list[depth] = i;
        r->split_node[depth] = idx;
        if (i == n || depth == RF_SPLIT_MAX || !group_chainable(&list[i]))
            break;
        cairo_matrix_t m;
        render_layout(r, &list[i], idx);
        cairo_matrix_multiply(&m, &r->nodes[idx].local, &parent);
        parent = m;
        list = rf_layer_children(&list[i], &n);
        idx++;
        depth++;
    }
    r->split_depth = depth;
    r->base_want = nprefix > 0 && area >= 0.25 * (double)r->width * (double)r->height;
    return 0;
}

/* Maps base when first needed, populated at once (bigbuf.h); 0, or -1
 * when out of memory (then the prefix is not kept: only time is lost). */
static int base_alloc(rf_renderer_t *r)
{
    if (r->base != NULL)
        return 0;
    size_t n = (size_t)cairo_image_surface_get_stride(r->surface) * (size_t)r->height;
    if (rf_bigbuf_alloc(&r->base_mem, n) != 0)
        return -1;
    rf_bigbuf_populate(&r->base_mem);
    r->base = r->base_mem.data;
    return 0;
}

/* This frame's device matrices of the chain groups into m; 0 when one is
 * not drawable (then base can be neither used nor kept). */
static int chain_matrices(const rf_renderer_t *r, cairo_matrix_t *m)
{
    cairo_matrix_t parent;
    parent = r->root;
    for (uint32_t k = 0; k < r->split_depth; k++) {
        const rf_node_t *g = &r->nodes[r->split_node[k]];
        if (!g->ok)
            return 0;
        cairo_matrix_multiply(&m[k], &g->local, &parent);
        if (!rf_matrix_usable(&m[k]))
            return 0;
        parent = m[k];
    }
    return 1;
}

/* Draws what follows the prefix at level `level` of the split, in list
 * (n layers) under parent: the rest of the level's chain group, then the
 * level's later layers. */
static void draw_rest(rf_renderer_t *r, const rf_layer_t *list, uint32_t n, uint32_t level,
                      const cairo_matrix_t *parent)
{
    uint32_t i = r->split_list[level], idx = r->split_node[level];
    if (level < r->split_depth) {
        const rf_layer_t *g = &list[i];
        cairo_matrix_t m;
        cairo_matrix_multiply(&m, &r->nodes[idx].local, parent);
        uint32_t nch;
        const rf_layer_t *ch = rf_layer_children(g, &nch);
        draw_rest(r, ch, nch, level + 1, &m);
        idx += r->nodes[idx].size;
        i++;
    }
    for (; i < n; i++) {
        render_draw_layer(r, &list[i], idx, parent);
        idx += r->nodes[idx].size;
    }
}

/* Keeps the surface as the static prefix's pixels (see rf_renderer_t's
 * base) when this frame was armed to and drew them without an error. */
static void base_keep(rf_renderer_t *r)
{
    if (!r->base_armed)
        return;
    r->base_armed = 0;
    if (r->err[0] != '\0' || cairo_status(r->cr) != CAIRO_STATUS_SUCCESS)
        return;
    cairo_surface_flush(r->surface);
    memcpy(r->base, cairo_image_surface_get_data(r->surface),
           (size_t)cairo_image_surface_get_stride(r->surface) * (size_t)r->height);
    r->base_ready = 1;
}


int prefix_restore(rf_renderer_t *r)
{
    cairo_matrix_t chain[RF_SPLIT_MAX];
    int chain_ok = r->base_want && chain_matrices(r, chain);
    int later = r->frames++ > 0;   /* not the renderer's first draw */
    if (chain_ok && r->base_ready &&
        (r->split_depth == 0 || memcmp(chain, r->split_m, sizeof chain[0] * r->split_depth) == 0)) {
        cairo_surface_flush(r->surface);
        memcpy(cairo_image_surface_get_data(r->surface), r->base,
               (size_t)cairo_image_surface_get_stride(r->surface) * (size_t)r->height);
        cairo_surface_mark_dirty(r->surface);
        r->base_used = 1;
        return 1;
    }
    r->base_used = 0;
    r->base_armed = chain_ok && !r->base_ready && later && base_alloc(r) == 0;
    if (r->base_armed && r->split_depth > 0)
        memcpy(r->split_m, chain, sizeof chain[0] * r->split_depth);
    return 0;
}

void prefix_draw_rest(rf_renderer_t *r)
{
    cairo_matrix_t id = r->root;
    draw_rest(r, r->scene->layers, r->scene->nlayers, 0, &id);
}

void prefix_reached(rf_renderer_t *r, uint32_t idx)
{
    if (idx == r->split_node[r->split_depth])
        base_keep(r);   /* the prefix is drawn: keep it before this layer */
}

void prefix_end(rf_renderer_t *r)
{
    if (r->split_depth == 0 && r->split_list[0] == r->scene->nlayers)
        base_keep(r);   /* every layer is static: the prefix ends here */
    r->base_armed = 0;
}
