/* glyphmask.c - glyph coverage masks rasterized by FreeType's smooth
 * rasterizer, cached (glyphmask.h). */
#include "glyphmask.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_MIN (64u << 10)
#define SLOTS_MIN 64u   /* the table starts this small and doubles */
/* px: the lines a cubic becomes stay this close to it (FreeType's own
 * split stops at about 1/8 px: 30 levels of coverage off on a round
 * glyph's edge; at 1/64, 4 at most) */
#define FLAT_TOLERANCE (1.0 / 64)

typedef struct entry {
    uint32_t gid;              /* UINT32_MAX: free */
    uint32_t phase;            /* px + RF_GLYPH_PHASES py */
    double k;
    rf_glyph_mask_t m;
} entry_t;

struct rf_glyph_masks {
    entry_t *slots;            /* nslots, or NULL until used */
    uint32_t nslots;           /* a power of two, SLOTS_MIN ..
                                  RF_GLYPH_MASKS_SLOTS: a layer of a few
                                  glyphs touches a few pages, not 200 KB */
    uint32_t n;                /* slots in use */
    uint32_t epoch;            /* counts the times the cache started over */
    uint8_t *arena;
    size_t cap, used;
    FT_Library ft;             /* for FT_Outline_Get_Bitmap; NULL until used */
    FT_Vector *pt;             /* the outline being rasterized: npt points, */
    char *tag;                 /* their tags, */
    short *end;                /* and its contours' last points */
    uint32_t npt, nend;        /* room in pt and tag, in end */
};

rf_glyph_masks_t *rf_glyph_masks_create(void)
{
    return calloc(1, sizeof(rf_glyph_masks_t));
}

void rf_glyph_masks_destroy(rf_glyph_masks_t *c)
{
    if (c == NULL)
        return;
    free(c->slots);
    free(c->arena);
    free(c->pt);
    free(c->tag);
    free(c->end);
    if (c->ft != NULL)
        FT_Done_FreeType(c->ft);
    free(c);
}

void rf_glyph_masks_clear(rf_glyph_masks_t *c)
{
    if (c->slots != NULL)
        for (uint32_t i = 0; i < c->nslots; i++)
            c->slots[i].gid = UINT32_MAX;
    c->n = 0;
    c->used = 0;
    c->epoch++;
}

static uint32_t hash_key(uint32_t gid, uint32_t phase, double k, uint32_t nslots)
{
    uint64_t kb;
    memcpy(&kb, &k, sizeof kb);
    uint64_t h = ((uint64_t)gid * 0x9e3779b97f4a7c15ull) ^ (kb * 0xc2b2ae3d27d4eb4full) ^
                 ((uint64_t)phase << 40);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (uint32_t)h & (nslots - 1);
}

/* The table doubled (its entries rehashed); -1 when out of memory. */
static int table_grow(rf_glyph_masks_t *c)
{
    uint32_t n = c->nslots * 2;
    entry_t *s = malloc(n * sizeof *s);
    if (s == NULL)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        s[i].gid = UINT32_MAX;
    for (uint32_t j = 0; j < c->nslots; j++) {
        const entry_t *e = &c->slots[j];
        if (e->gid == UINT32_MAX)
            continue;
        uint32_t i = hash_key(e->gid, e->phase, e->k, n);
        while (s[i].gid != UINT32_MAX)
            i = (i + 1) & (n - 1);
        s[i] = *e;
    }
    free(c->slots);
    c->slots = s;
    c->nslots = n;
    return 0;
}

/* Room for need bytes in the arena (16-byte aligned), growing it or
 * starting the cache over; NULL when out of memory. */
static uint8_t *arena_take(rf_glyph_masks_t *c, size_t need)
{
    need = (need + 15) & ~(size_t)15;
    if (c->used + need > c->cap) {
        size_t cap = c->cap ? c->cap : ARENA_MIN;
        while (cap < c->used + need && cap < RF_GLYPH_MASKS_BYTES)
            cap *= 2;
        if (cap > c->cap) {
            /* masks point into the arena: a new arena starts the cache over */
            uint8_t *a = malloc(cap);
            if (a == NULL)
                return NULL;
            free(c->arena);
            c->arena = a;
            c->cap = cap;
        }
        rf_glyph_masks_clear(c); /* grown, or full at its bound: start over */
    }
    uint8_t *p = c->arena + c->used;
    c->used += need;
    return p;
}

/* Room for np points and nc contours in the outline scratch; -1 when out
 * of memory. */
static int outline_room(rf_glyph_masks_t *c, uint32_t np, uint32_t nc)
{
    if (np > c->npt) {
        FT_Vector *pt = realloc(c->pt, np * sizeof *pt);
        if (pt == NULL)
            return -1;
        c->pt = pt;
        char *tag = realloc(c->tag, np);
        if (tag == NULL)
            return -1;
        c->tag = tag;
        c->npt = np;
    }
    if (nc > c->nend) {
        short *end = realloc(c->end, nc * sizeof *end);
        if (end == NULL)
            return -1;
        c->end = end;
        c->nend = nc;
    }
    return 0;
}

/* The whole pixels at or left of (below) v in 26.6. */
static FT_Pos floor_px(FT_Pos v)
{
    return v >= 0 ? v / 64 : -((63 - v) / 64);
}

/* The lines a cubic from p0 over the control points c[0..5] becomes at
 * k px per unit (k here in 1/64 px): enough that no point of the cubic is
 * further than RF_GLYPH_FLAT px from them (Wang's bound, sqrt(3/4 M /
 * tolerance) for the largest second difference M of the control points),
 * 1 to 64. */
static uint32_t flat_lines(const double *p0, const double *c, double k)
{
    double ax = p0[0] - 2 * c[0] + c[2], ay = p0[1] - 2 * c[1] + c[3];
    double bx = c[0] - 2 * c[2] + c[4], by = c[1] - 2 * c[3] + c[5];
    double m = fmax(fmax(fabs(ax), fabs(ay)), fmax(fabs(bx), fabs(by))) * fabs(k);
    double n = ceil(sqrt(0.75 * m / (FLAT_TOLERANCE * 64.0)));
    return n >= 64 ? 64u : n >= 1 ? (uint32_t)n : 1u;
}

/* Renders outline o into the w x h A8 bitmap at a (rows stride apart,
 * top down; FreeType's row 0 is the bottom one, its (0, 0) the bitmap's
 * bottom-left corner). FreeType's rasterizer works in bands of rows and
 * halves a band that overflows its fixed pool, but not below one row: a
 * row of more cells than the pool holds (a glyph thousands of px wide)
 * is refused. Then the bitmap is drawn as two halves side by side, the
 * outline moved left for the right one: a pixel's coverage does not
 * depend on where the bitmap is cut (FreeType carries the cover of what
 * lies left of its bitmap), so the bytes are those of one pass. 0, or -1
 * when out of memory. */
static int render(FT_Library ft, FT_Outline *o, uint8_t *a, int w, int h, int stride)
{
    FT_Bitmap bm;
    memset(&bm, 0, sizeof bm);
    bm.rows = (unsigned)h;
    bm.width = (unsigned)w;
    bm.pitch = stride;
    bm.buffer = a;
    bm.num_grays = 256;
    bm.pixel_mode = FT_PIXEL_MODE_GRAY;
    FT_Error e = FT_Outline_Get_Bitmap(ft, o, &bm);
    if (e != FT_Err_Raster_Overflow || w < 2)
        return e == 0 ? 0 : -1;
    int left = w / 2;
    if (render(ft, o, a, left, h, stride) != 0)
        return -1;
    FT_Outline_Translate(o, -(FT_Pos)left * 64, 0);
    int st = render(ft, o, a + left, w - left, h, stride);
    FT_Outline_Translate(o, (FT_Pos)left * 64, 0);
    return st;
}

/* Rasterizes the outline into e->m: FreeType's smooth rasterizer
 * (FT_Outline_Get_Bitmap into 8-bit gray: each pixel's exact covered
 * area, nonzero winding) of the outline's points rounded to 1/64 px
 * (26.6 fixed point, halves away from zero; FreeType splits the cubics
 * into lines), on arena bytes. 0, -1 when out of memory, 1 when too
 * large. */
static int rasterize(rf_glyph_masks_t *c, entry_t *e, int px, int py, const uint8_t *cmds,
                     uint32_t ncmd, const double *pts)
{
    const double lim = 1 << 30; /* 2^24 px in 26.6: far past any mask */
    double k = e->k * 64.0, fx = px * (64.0 / RF_GLYPH_PHASES), fy = py * (64.0 / RF_GLYPH_PHASES);
    /* the points: a cubic's as many lines as flat_lines() says */
    uint32_t np = 0, nc = 0;
    const double *p = pts, *cur = NULL;
    for (uint32_t i = 0; i < ncmd; i++) {
        /* a contour starts at each 'M' (and at the first point) */
        nc += cmds[i] != 'Z' && (cmds[i] == 'M' || np == 0);
        if (cmds[i] == 'C') {
            np += cur != NULL ? flat_lines(cur, p, k) : 1u;
            cur = p + 4;
            p += 6;
        } else if (cmds[i] != 'Z') {
            np++;
            cur = p;
            p += 2;
        }
    }
    memset(&e->m, 0, sizeof e->m);
    if (np == 0 || nc == 0 || !(fabs(k) < lim))
        return 0; /* no outline: an empty mask */
    if (np > SHRT_MAX || nc > SHRT_MAX)
        return 1;
    if (outline_room(c, np, nc) != 0)
        return -1;
    /* First with the origin at the glyph's pen (y up, 1/64 px) */
    FT_Vector *v = c->pt;
    char *t = c->tag;
    short *end = c->end;
    FT_Pos x0 = LONG_MAX, y0 = LONG_MAX, x1 = LONG_MIN, y1 = LONG_MIN;
    int32_t n = 0, ends = 0;
    p = pts;
    cur = NULL;
    for (uint32_t i = 0; i < ncmd; i++) {
        if (cmds[i] == 'Z')
            continue;
        if (cmds[i] == 'M' && n > 0)
            end[ends++] = (short)(n - 1);
        uint32_t lines = 1;
        double q[8] = { 0 };
        if (cmds[i] == 'C') {
            lines = cur != NULL ? flat_lines(cur, p, k) : 1u;
            q[0] = cur != NULL ? cur[0] : p[4];
            q[1] = cur != NULL ? cur[1] : p[5];
            memcpy(q + 2, p, 6 * sizeof *q);
            cur = p + 4;
            p += 6;
        } else {
            cur = p;
            p += 2;
        }
        for (uint32_t j = 1; j <= lines; j++, n++) {
            double X = cur[0], Y = cur[1];
            if (j < lines) { /* a point inside the cubic q, at t = j / lines */
                double tt = (double)j / lines, u = 1 - tt;
                double b0 = u * u * u, b1 = 3 * u * u * tt, b2 = 3 * u * tt * tt, b3 = tt * tt * tt;
                X = b0 * q[0] + b1 * q[2] + b2 * q[4] + b3 * q[6];
                Y = b0 * q[1] + b1 * q[3] + b2 * q[5] + b3 * q[7];
            }
            double x = fx + X * k, y = Y * k - fy;
            if (!(fabs(x) < lim && fabs(y) < lim))
                return 1; /* not finite, or an outline reaching millions of px */
            v[n].x = (FT_Pos)(x < 0 ? x - 0.5 : x + 0.5);
            v[n].y = (FT_Pos)(y < 0 ? y - 0.5 : y + 0.5);
            t[n] = FT_CURVE_TAG_ON;
            x0 = v[n].x < x0 ? v[n].x : x0;
            x1 = v[n].x > x1 ? v[n].x : x1;
            y0 = v[n].y < y0 ? v[n].y : y0;
            y1 = v[n].y > y1 ? v[n].y : y1;
        }
    }
    end[ends++] = (short)(n - 1);
    /* The mask: whole pixels around the points, a pixel more each side;
     * (ix0, iy0) its top-left in device px (y down) from the origin's */
    FT_Pos ix0 = floor_px(x0) - 1, ix1 = floor_px(x1 + 63) + 1;
    FT_Pos iyb = floor_px(y0) - 1, iyt = floor_px(y1 + 63) + 1; /* y up */
    if (ix1 - ix0 > 65536 || iyt - iyb > 65536)
        return 1;
    int w = (int)(ix1 - ix0), h = (int)(iyt - iyb), stride = (w + 3) & ~3;
    if ((size_t)stride * (size_t)h > RF_GLYPH_MASKS_BYTES / 4)
        return 1;
    if (c->ft == NULL && FT_Init_FreeType(&c->ft) != 0) {
        c->ft = NULL;
        return -1; /* FreeType fails only when out of memory */
    }
    /* whole pixels: the mask's bottom-left corner is FreeType's (0, 0) */
    for (int32_t i = 0; i < n; i++) {
        v[i].x -= ix0 * 64;
        v[i].y -= iyb * 64;
    }
    FT_Outline o = { (short)ends, (short)n, v, t, end, FT_OUTLINE_NONE };
    uint8_t *a = arena_take(c, (size_t)stride * (size_t)h);
    if (a == NULL)
        return -1;
    memset(a, 0, (size_t)stride * (size_t)h);
    if (render(c->ft, &o, a, w, h, stride) != 0)
        return -1; /* out of memory */
    e->m.a = a;
    e->m.x0 = (int32_t)ix0;
    e->m.y0 = (int32_t)-iyt;
    e->m.w = w;
    e->m.h = h;
    e->m.stride = stride;
    return 0;
}

int rf_glyph_masks_get(rf_glyph_masks_t *c, uint32_t gid, double k, int px, int py,
                       const uint8_t *cmds, uint32_t ncmd, const double *pts,
                       const rf_glyph_mask_t **out)
{
    px &= RF_GLYPH_PHASES - 1;
    py &= RF_GLYPH_PHASES - 1;
    uint32_t phase = (uint32_t)px + RF_GLYPH_PHASES * (uint32_t)py;
    if (c->slots == NULL) {
        c->slots = malloc(SLOTS_MIN * sizeof *c->slots);
        if (c->slots == NULL)
            return -1;
        c->nslots = SLOTS_MIN;
        c->n = 0;
        rf_glyph_masks_clear(c);
    }
    uint32_t i = hash_key(gid, phase, k, c->nslots);
    for (;;) {
        entry_t *e = &c->slots[i];
        if (e->gid == UINT32_MAX)
            break;
        if (e->gid == gid && e->phase == phase && e->k == k) {
            *out = &e->m;
            return 0;
        }
        i = (i + 1) & (c->nslots - 1);
    }
    if (c->n >= c->nslots / 4 * 3) {
        if (c->nslots < RF_GLYPH_MASKS_SLOTS) {
            if (table_grow(c) != 0)
                return -1;
        } else {
            rf_glyph_masks_clear(c); /* the table is full: start over */
        }
        i = hash_key(gid, phase, k, c->nslots);
        while (c->slots[i].gid != UINT32_MAX)
            i = (i + 1) & (c->nslots - 1);
    }
    entry_t tmp = { gid, phase, k, { NULL, 0, 0, 0, 0, 0 } };
    uint32_t epoch = c->epoch;
    int st = rasterize(c, &tmp, px, py, cmds, ncmd, pts);
    if (st != 0)
        return st;
    if (c->epoch != epoch) {
        /* the arena started over while taking room: the table is empty */
        i = hash_key(gid, phase, k, c->nslots);
        while (c->slots[i].gid != UINT32_MAX)
            i = (i + 1) & (c->nslots - 1);
    }
    c->slots[i] = tmp;
    c->n++;
    *out = &c->slots[i].m;
    return 0;
}

void rf_glyph_mask_add(uint8_t *dst, int w, int h, int stride, const rf_glyph_mask_t *m, int x,
                       int y, unsigned a8)
{
    int sx0 = x < 0 ? -x : 0, sy0 = y < 0 ? -y : 0;
    int sx1 = m->w, sy1 = m->h;
    if (x + sx1 > w)
        sx1 = w - x;
    if (y + sy1 > h)
        sy1 = h - y;
    if (sx0 >= sx1 || sy0 >= sy1)
        return;
    for (int r = sy0; r < sy1; r++) {
        const uint8_t *s = m->a + (size_t)r * (size_t)m->stride;
        uint8_t *d = dst + (size_t)(y + r) * (size_t)stride + x;
        if (a8 >= 255) {
            for (int q = sx0; q < sx1; q++) {
                unsigned v = d[q] + s[q];
                d[q] = (uint8_t)(v > 255 ? 255 : v);
            }
        } else {
            for (int q = sx0; q < sx1; q++) {
                unsigned t = s[q] * a8 + 128; /* s * a8 / 255, rounded */
                unsigned v = d[q] + ((t + (t >> 8)) >> 8);
                d[q] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
}
