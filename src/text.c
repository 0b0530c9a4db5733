/* text.c - shaping with HarfBuzz, greedy line layout, glyph outlines
 * (text.h). */
#include "text.h"

#include <hb-ot.h>
#include <hb.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    G_SPACE = 1 << 0,      /* its cluster is a space: a line may break after it */
    G_CLUSTER_END = 1 << 1 /* the last glyph of its cluster in visual order */
};

typedef struct sglyph {
    uint32_t gid, rank;
    int32_t adv, xoff, yoff; /* font units */
    uint8_t flags;
} sglyph_t;

typedef struct para {
    uint32_t first, n;     /* its glyphs */
    int rtl;
} para_t;

/* One shaped string. */
typedef struct shaped {
    uint64_t hash;
    char *key;
    size_t keylen;
    sglyph_t *g;
    uint32_t n, nclusters;
    para_t *paras;
    uint32_t nparas;
} shaped_t;

#define CACHE_SLOTS (2 * RF_TEXT_CACHE_MAX)

struct rf_text_engine {
    const rf_font_t *font;
    hb_font_t *hb;
    hb_buffer_t *buf;
    hb_feature_t *features;
    uint32_t nfeatures;
    hb_variation_t vars[RF_FONT_MAX_AXES];
    uint32_t nvars;
    int vars_set;
    shaped_t *cache[CACHE_SLOTS];
    uint32_t ncached;
    /* this frame's layout */
    rf_glyph_pos_t *pos;
    uint32_t pos_cap;
    struct { uint32_t first, end; double width; } *lines;
    uint32_t lines_cap;
    /* outlines: gofs[gid] is the glyph's first command, UINT32_MAX when not
     * yet drawn; gn[gid] its command count, gp[gid] its first point */
    uint32_t *gofs, *gn, *gp;
    uint8_t *cmds;
    uint32_t ncmds, cmds_cap;
    double *pts;
    uint32_t npts, pts_cap;  /* doubles */
    uint32_t epoch;          /* counts outlines_clear (rf_text_outline_epoch) */
    hb_draw_funcs_t *dfuncs;
    int oom;
};

/* ---- outlines ---- */

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint32_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static void put(rf_text_engine_t *e, uint8_t cmd, const double *xy, int npt)
{
    if (grow((void **)&e->cmds, &e->cmds_cap, e->ncmds + 1, 1) != 0 ||
        grow((void **)&e->pts, &e->pts_cap, e->npts + 2u * (uint32_t)npt, sizeof(double)) != 0) {
        e->oom = 1;
        return;
    }
    e->cmds[e->ncmds++] = cmd;
    if (npt > 0) /* 'Z' has no points: xy is NULL */
        memcpy(e->pts + e->npts, xy, 2u * (size_t)npt * sizeof(double));
    e->npts += 2u * (uint32_t)npt;
}

static void d_move(hb_draw_funcs_t *f, void *d, hb_draw_state_t *st, float x, float y, void *u)
{
    (void)f, (void)st, (void)u;
    double p[2] = { x, y };
    put(d, 'M', p, 1);
}

static void d_line(hb_draw_funcs_t *f, void *d, hb_draw_state_t *st, float x, float y, void *u)
{
    (void)f, (void)st, (void)u;
    double p[2] = { x, y };
    put(d, 'L', p, 1);
}

/* A quadratic as the cubic with the same curve (exact). */
static void d_quad(hb_draw_funcs_t *f, void *d, hb_draw_state_t *st, float cx, float cy, float x,
                   float y, void *u)
{
    (void)f, (void)u;
    double x0 = st->current_x, y0 = st->current_y;
    double p[6] = { x0 + 2.0 / 3 * (cx - x0), y0 + 2.0 / 3 * (cy - y0),
                    x + 2.0 / 3 * (cx - x),   y + 2.0 / 3 * (cy - y), x, y };
    put(d, 'C', p, 3);
}

static void d_cubic(hb_draw_funcs_t *f, void *d, hb_draw_state_t *st, float c1x, float c1y,
                    float c2x, float c2y, float x, float y, void *u)
{
    (void)f, (void)st, (void)u;
    double p[6] = { c1x, c1y, c2x, c2y, x, y };
    put(d, 'C', p, 3);
}

static void d_close(hb_draw_funcs_t *f, void *d, hb_draw_state_t *st, void *u)
{
    (void)f, (void)st, (void)u;
    put(d, 'Z', NULL, 0);
}

int rf_text_outline(rf_text_engine_t *e, uint32_t gid, const uint8_t **cmds, uint32_t *ncmd,
                    const double **pts)
{
    *ncmd = 0;
    if (gid >= e->font->nglyphs)
        return 0;
    if (e->gofs[gid] == UINT32_MAX) {
        uint32_t c0 = e->ncmds, p0 = e->npts;
        e->oom = 0;
        hb_font_get_glyph_shape(e->hb, gid, e->dfuncs, e);
        if (e->oom) {
            e->ncmds = c0;
            e->npts = p0;
            return -1;
        }
        e->gofs[gid] = c0;
        e->gn[gid] = e->ncmds - c0;
        e->gp[gid] = p0;
    }
    /* no outline drawn yet (spaces only): the arrays are still NULL */
    *cmds = e->cmds != NULL ? e->cmds + e->gofs[gid] : NULL;
    *ncmd = e->gn[gid];
    *pts = e->pts != NULL ? e->pts + e->gp[gid] : NULL;
    return 0;
}

void rf_text_instance(const rf_text_engine_t *e, const void **settings, size_t *bytes)
{
    *settings = e->vars;
    *bytes = e->nvars * sizeof *e->vars;
}

uint32_t rf_text_outline_epoch(const rf_text_engine_t *e)
{
    return e->epoch;
}

static void outlines_clear(rf_text_engine_t *e)
{
    e->epoch++;
    for (uint32_t i = 0; i < e->font->nglyphs; i++)
        e->gofs[i] = UINT32_MAX;
    e->ncmds = e->npts = 0;
}

/* ---- the shaping cache ---- */

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static void shaped_destroy(shaped_t *s)
{
    if (s == NULL)
        return;
    free(s->key);
    free(s->g);
    free(s->paras);
    free(s);
}

static void cache_clear(rf_text_engine_t *e)
{
    for (uint32_t i = 0; i < CACHE_SLOTS; i++) {
        shaped_destroy(e->cache[i]);
        e->cache[i] = NULL;
    }
    e->ncached = 0;
}

/* Shapes one paragraph, bytes [off, off + n) of s, appending to out. */
static int shape_para(rf_text_engine_t *e, const char *s, size_t len, size_t off, size_t n,
                      shaped_t *out, uint32_t *cap)
{
    hb_buffer_t *b = e->buf;
    hb_buffer_clear_contents(b);
    hb_buffer_set_cluster_level(b, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES);
    hb_buffer_set_replacement_codepoint(b, 0xFFFD);
    hb_buffer_add_utf8(b, s, (int)len, (unsigned)off, (int)n);
    hb_buffer_guess_segment_properties(b);
    hb_shape(e->hb, b, e->features, e->nfeatures);
    if (!hb_buffer_allocation_successful(b))
        return -1;
    unsigned gn;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(b, &gn);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(b, &gn);
    if (out->n + gn > RF_TEXT_MAX_GLYPHS)
        return -1;
    if (grow((void **)&out->g, cap, out->n + gn, sizeof *out->g) != 0)
        return -1;
    para_t *pp = &out->paras[out->nparas++];
    pp->first = out->n;
    pp->n = gn;
    pp->rtl = hb_buffer_get_direction(b) == HB_DIRECTION_RTL;
    for (unsigned i = 0; i < gn; i++) {
        sglyph_t *g = &out->g[out->n + i];
        g->gid = info[i].codepoint;
        g->rank = info[i].cluster; /* a byte offset until ranked */
        g->adv = pos[i].x_advance;
        g->xoff = pos[i].x_offset;
        g->yoff = pos[i].y_offset;
        unsigned char c = (unsigned char)s[info[i].cluster];
        g->flags = (c == ' ' || c == '\t') ? G_SPACE : 0;
        if (i + 1 == gn || info[i + 1].cluster != info[i].cluster)
            g->flags |= G_CLUSTER_END;
    }
    out->n += gn;
    return 0;
}

static shaped_t *shape(rf_text_engine_t *e, const char *s, size_t len)
{
    shaped_t *out = calloc(1, sizeof *out);
    uint32_t cap = 0, nparas = 1;
    unsigned char *start = NULL;
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len; i++)
        nparas += s[i] == '\n';
    out->paras = calloc(nparas, sizeof *out->paras);
    out->key = malloc(len + 1);
    start = calloc(len + 1, 1);
    if (out->paras == NULL || out->key == NULL || start == NULL)
        goto fail;
    memcpy(out->key, s, len);
    out->key[len] = '\0';
    out->keylen = len;
    size_t p0 = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\n')
            continue;
        if (shape_para(e, s, len, p0, i - p0, out, &cap) != 0)
            goto fail;
        p0 = i + 1;
    }
    /* rank clusters by their byte offsets: logical order */
    for (uint32_t i = 0; i < out->n; i++)
        start[out->g[i].rank] = 1;
    uint32_t *rank = NULL;
    rank = malloc((len + 1) * sizeof *rank);
    if (rank == NULL)
        goto fail;
    uint32_t k = 0;
    for (size_t i = 0; i <= len; i++) {
        rank[i] = k;
        k += start[i];
    }
    for (uint32_t i = 0; i < out->n; i++)
        out->g[i].rank = rank[out->g[i].rank];
    out->nclusters = k;
    free(rank);
    free(start);
    return out;
fail:
    free(start);
    shaped_destroy(out);
    return NULL;
}

static const shaped_t *lookup(rf_text_engine_t *e, const char *s, size_t len)
{
    uint64_t h = hash_bytes(s, len);
    uint32_t i = (uint32_t)(h % CACHE_SLOTS);
    for (; e->cache[i] != NULL; i = (i + 1) % CACHE_SLOTS) {
        const shaped_t *c = e->cache[i];
        if (c->hash == h && c->keylen == len && memcmp(c->key, s, len) == 0)
            return c;
    }
    if (e->ncached >= RF_TEXT_CACHE_MAX) {
        cache_clear(e);
        i = (uint32_t)(h % CACHE_SLOTS);
    }
    shaped_t *n = shape(e, s, len);
    if (n == NULL)
        return NULL;
    n->hash = h;
    e->cache[i] = n;
    e->ncached++;
    return n;
}

uint32_t rf_text_cached(const rf_text_engine_t *e)
{
    return e->ncached;
}

/* ---- layout ---- */

long rf_text_layout(rf_text_engine_t *e, const char *s, size_t len, const rf_text_params_t *p,
                    uint32_t *nclusters, double box[4])
{
    box[0] = box[1] = box[2] = box[3] = 0;
    *nclusters = 0;
    const shaped_t *sh = lookup(e, s, len);
    if (sh == NULL)
        return -1;
    if (grow((void **)&e->pos, &e->pos_cap, sh->n + 1, sizeof *e->pos) != 0)
        return -1;
    const rf_font_t *f = e->font;
    double k = p->size / f->upem, ls = p->letter_spacing;
    double lh = p->line_height * p->size;
    double asc = f->ascender * k, desc = f->descender * k;
    int wrap = p->width > 0 && isfinite(p->width);
    uint32_t nlines = 0;
    /* pass 1: lines, and each glyph's x from its line's start */
    for (uint32_t pi = 0; pi < sh->nparas; pi++) {
        const para_t *pa = &sh->paras[pi];
        uint32_t i = pa->first, end = pa->first + pa->n;
        do {
            uint32_t l0 = i, brk = UINT32_MAX, j = i;
            double x = 0, w = 0; /* pen; the width without trailing spaces */
            for (; j < end; j++) {
                const sglyph_t *g = &sh->g[j];
                double a = g->adv * k;
                if (wrap && !pa->rtl && !(g->flags & G_SPACE) && brk != UINT32_MAX &&
                    x + a > p->width)
                    break;
                e->pos[j].x = x + g->xoff * k;
                e->pos[j].cx = x + a / 2;
                x += a;
                if (!(g->flags & G_SPACE))
                    w = x;
                if (g->flags & G_CLUSTER_END)
                    x += ls;
                if ((g->flags & G_SPACE) && j + 1 < end && !(sh->g[j + 1].flags & G_SPACE))
                    brk = j + 1;
            }
            if (j < end) {
                j = brk; /* the line ends at its last break */
                /* the width up to the break, trailing spaces excluded */
                w = 0;
                for (uint32_t q = l0; q < j; q++)
                    if (!(sh->g[q].flags & G_SPACE))
                        w = e->pos[q].cx + sh->g[q].adv * k / 2;
            }
            if (grow((void **)&e->lines, &e->lines_cap, nlines + 1, sizeof *e->lines) != 0)
                return -1;
            e->lines[nlines].first = l0;
            e->lines[nlines].end = j;
            e->lines[nlines].width = w;
            nlines++;
            i = j;
        } while (i < end);
    }
    double W = 0;
    for (uint32_t l = 0; l < nlines; l++)
        W = fmax(W, e->lines[l].width);
    if (wrap)
        W = p->width;
    /* pass 2: alignment and baselines */
    for (uint32_t l = 0; l < nlines; l++) {
        double top = l * lh, base = top + (lh - (asc - desc)) / 2 + asc;
        double dx = p->align == RF_ALIGN_CENTER  ? (W - e->lines[l].width) / 2
                    : p->align == RF_ALIGN_RIGHT ? W - e->lines[l].width
                                                 : 0;
        for (uint32_t q = e->lines[l].first; q < e->lines[l].end; q++) {
            const sglyph_t *g = &sh->g[q];
            rf_glyph_pos_t *o = &e->pos[q];
            o->gid = g->gid;
            o->rank = g->rank;
            o->x += dx;
            o->cx += dx;
            o->y = base - g->yoff * k;
            o->cy = top + lh / 2;
        }
    }
    *nclusters = sh->nclusters;
    box[2] = W;
    box[3] = nlines * lh;
    /* a size or spacing so large that a position overflows (1e308 px):
     * nothing that could be drawn; the box says so (NaN) */
    int finite = isfinite(box[2]) && isfinite(box[3]);
    for (uint32_t q = 0; q < sh->n && finite; q++)
        finite = isfinite(e->pos[q].x) && isfinite(e->pos[q].y) && isfinite(e->pos[q].cx) &&
                 isfinite(e->pos[q].cy);
    if (!finite) {
        box[2] = box[3] = NAN;
        return 0;
    }
    return (long)sh->n;
}

const rf_glyph_pos_t *rf_text_glyphs(const rf_text_engine_t *e)
{
    return e->pos;
}

unsigned rf_text_upem(const rf_text_engine_t *e)
{
    return e->font->upem;
}

/* ---- the engine ---- */

rf_text_engine_t *rf_text_engine_create(const rf_font_t *font, const rf_text_feature_t *features,
                                        uint32_t nfeatures)
{
    rf_text_engine_t *e = calloc(1, sizeof *e);
    if (e == NULL)
        return NULL;
    e->font = font;
    e->hb = hb_font_create(font->face);
    e->buf = hb_buffer_create();
    e->dfuncs = hb_draw_funcs_create();
    uint32_t ng = font->nglyphs ? font->nglyphs : 1;
    e->gofs = malloc(ng * sizeof *e->gofs);
    e->gn = malloc(ng * sizeof *e->gn);
    e->gp = malloc(ng * sizeof *e->gp);
    e->features = calloc(nfeatures ? nfeatures : 1, sizeof *e->features);
    if (e->hb == hb_font_get_empty() || !hb_buffer_allocation_successful(e->buf) ||
        e->gofs == NULL || e->gn == NULL || e->gp == NULL || e->features == NULL) {
        rf_text_engine_destroy(e);
        return NULL;
    }
    for (uint32_t i = 0; i < nfeatures; i++) {
        e->features[i].tag = features[i].tag;
        e->features[i].value = features[i].value;
        e->features[i].start = HB_FEATURE_GLOBAL_START;
        e->features[i].end = HB_FEATURE_GLOBAL_END;
    }
    e->nfeatures = nfeatures;
    hb_draw_funcs_set_move_to_func(e->dfuncs, d_move, NULL, NULL);
    hb_draw_funcs_set_line_to_func(e->dfuncs, d_line, NULL, NULL);
    hb_draw_funcs_set_quadratic_to_func(e->dfuncs, d_quad, NULL, NULL);
    hb_draw_funcs_set_cubic_to_func(e->dfuncs, d_cubic, NULL, NULL);
    hb_draw_funcs_set_close_path_func(e->dfuncs, d_close, NULL, NULL);
    hb_draw_funcs_make_immutable(e->dfuncs);
    outlines_clear(e);
    if (rf_text_engine_vary(e, NULL, NULL, 0) != 0) {
        rf_text_engine_destroy(e);
        return NULL;
    }
    return e;
}

void rf_text_engine_destroy(rf_text_engine_t *e)
{
    if (e == NULL)
        return;
    cache_clear(e);
    if (e->hb != NULL)
        hb_font_destroy(e->hb);
    if (e->buf != NULL)
        hb_buffer_destroy(e->buf);
    if (e->dfuncs != NULL)
        hb_draw_funcs_destroy(e->dfuncs);
    free(e->features);
    free(e->gofs);
    free(e->gn);
    free(e->gp);
    free(e->cmds);
    free(e->pts);
    free(e->pos);
    free(e->lines);
    free(e);
}

int rf_text_engine_vary(rf_text_engine_t *e, const uint32_t *tags, const double *values,
                        uint32_t n)
{
    hb_variation_t v[RF_FONT_MAX_AXES];
    uint32_t nv = 0;
    const rf_font_t *f = e->font;
    const rf_font_axis_t *wght = rf_font_axis(f, HB_TAG('w', 'g', 'h', 't'));
    if (!isnan(f->def_wght) && wght != NULL) {
        v[nv].tag = wght->tag;
        v[nv++].value = (float)f->def_wght;
    }
    for (uint32_t i = 0; i < n; i++) {
        const rf_font_axis_t *ax = rf_font_axis(f, tags[i]);
        if (ax == NULL)
            continue;
        /* out-of-range and NaN settings clamp to the axis */
        double x = values[i] >= ax->min ? (values[i] <= ax->max ? values[i] : ax->max) : ax->min;
        uint32_t j = 0;
        while (j < nv && v[j].tag != tags[i])
            j++;
        if (j == nv && nv < RF_FONT_MAX_AXES)
            nv++;
        if (j < RF_FONT_MAX_AXES) {
            v[j].tag = tags[i];
            v[j].value = (float)x;
        }
    }
    if (e->vars_set && nv == e->nvars && memcmp(v, e->vars, nv * sizeof *v) == 0)
        return 0;
    memcpy(e->vars, v, nv * sizeof *v);
    e->nvars = nv;
    e->vars_set = 1;
    hb_font_set_variations(e->hb, v, nv);
    cache_clear(e);
    outlines_clear(e);
    return 0;
}
