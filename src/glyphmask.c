/* glyphmask.c - glyph coverage masks rasterized by FreeType or cairo,
 * cached (glyphmask.h). */
#include "glyphmask.h"

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_MIN (64u << 10)
#define SLOTS_MIN 64u   /* the table starts this small and doubles */
#define CHUNKS 16u      /* 64 KiB doubling 16 times passes any bound */

typedef struct entry {
    uint32_t gid;              /* UINT32_MAX: free */
    uint32_t phase;            /* px + RF_GLYPH_PHASES py */
    uint32_t src;
    double k;
    rf_glyph_mask_t m;
} entry_t;

/* What rf_raster_simple said of a glyph's outline at one scale, the same
 * at every phase (the outline is rounded at phase 0 and moved by whole
 * 1/64 px: glyphmask.h). */
#define CERTS 256u             /* direct-mapped: a collision asks again */
typedef struct cert {
    uint32_t gid;              /* UINT32_MAX: empty */
    uint32_t src;
    int ok;
    double k;
} cert_t;

/* A source of outlines (rf_glyph_masks_source). */
typedef struct source {
    const void *font;
    size_t bytes;
    uint32_t id;
    unsigned char settings[RF_GLYPH_SOURCE_BYTES];
} source_t;

struct rf_glyph_masks {
    cert_t cert[CERTS];
    source_t source[RF_GLYPH_MASK_SOURCES];
    uint32_t nsource;          /* sources in use */
    uint32_t next_id;          /* the next new source's id: never reused */
    entry_t *slots;            /* nslots, or NULL until used */
    uint32_t nslots;           /* a power of two, SLOTS_MIN ..
                                  RF_GLYPH_MASKS_SLOTS: a layer of a few
                                  glyphs touches a few pages, not 200 KB */
    uint32_t n;                /* slots in use */
    uint32_t epoch;            /* counts the times the cache started over */
    /* the arena: chunks of doubling size, the last one being filled (a
     * new chunk leaves the masks in the others where they are) */
    uint8_t *chunk[CHUNKS];
    size_t chunk_cap[CHUNKS];
    uint32_t nchunk;
    uint32_t cur;              /* the chunk being filled */
    size_t used;               /* bytes taken of it */
    size_t total;              /* all chunks' bytes */
};

rf_glyph_masks_t *rf_glyph_masks_create(void)
{
    rf_glyph_masks_t *c = calloc(1, sizeof(rf_glyph_masks_t));
    if (c != NULL)
        for (uint32_t i = 0; i < CERTS; i++)
            c->cert[i].gid = UINT32_MAX;
    return c;
}

void rf_glyph_masks_destroy(rf_glyph_masks_t *c)
{
    if (c == NULL)
        return;
    free(c->slots);
    for (uint32_t i = 0; i < c->nchunk; i++)
        free(c->chunk[i]);
    free(c);
}

/* Forgets every mask (the arena or the table is full): the table
 * emptied, the arena refilled from its first chunk (all are kept). */
static void start_over(rf_glyph_masks_t *c)
{
    if (c->slots != NULL)
        for (uint32_t i = 0; i < c->nslots; i++)
            c->slots[i].gid = UINT32_MAX;
    c->n = 0;
    c->epoch++;
    c->cur = 0;
    c->used = 0;
}

void rf_glyph_masks_clear(rf_glyph_masks_t *c)
{
    start_over(c);
    for (uint32_t i = 0; i < CERTS; i++)
        c->cert[i].gid = UINT32_MAX;
    c->nsource = 0;
}

uint32_t rf_glyph_masks_source(rf_glyph_masks_t *c, const void *font, const void *settings,
                               size_t bytes)
{
    if (bytes > RF_GLYPH_SOURCE_BYTES)
        return c->next_id++; /* not remembered: its own masks */
    for (uint32_t i = 0; i < c->nsource; i++) {
        const source_t *s = &c->source[i];
        if (s->font == font && s->bytes == bytes && memcmp(s->settings, settings, bytes) == 0)
            return s->id;
    }
    /* a new entry, or the oldest one replaced (an id is never reused: a
     * layer still holding the old one stays right) */
    source_t *s = &c->source[c->nsource < RF_GLYPH_MASK_SOURCES ? c->nsource++
                                                                : c->next_id % RF_GLYPH_MASK_SOURCES];
    s->font = font;
    s->bytes = bytes;
    memcpy(s->settings, settings, bytes);
    s->id = c->next_id++;
    return s->id;
}

static uint32_t hash_key(uint32_t src, uint32_t gid, uint32_t phase, double k, uint32_t nslots)
{
    uint64_t kb;
    memcpy(&kb, &k, sizeof kb);
    uint64_t h = ((uint64_t)gid * 0x9e3779b97f4a7c15ull) ^ (kb * 0xc2b2ae3d27d4eb4full) ^
                 ((uint64_t)phase << 40) ^ ((uint64_t)src * 0x165667b19e3779f9ull);
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
        uint32_t i = hash_key(e->src, e->gid, e->phase, e->k, n);
        while (s[i].gid != UINT32_MAX)
            i = (i + 1) & (n - 1);
        s[i] = *e;
    }
    free(c->slots);
    c->slots = s;
    c->nslots = n;
    return 0;
}

/* Room for need bytes in the arena (16-byte aligned): in the chunk being
 * filled, the next one that holds it, a new one twice the last's size
 * while the arena stays within RF_GLYPH_MASKS_BYTES, or else after
 * starting the cache over (the first chunk that holds it); NULL when out
 * of memory. */
static uint8_t *arena_take(rf_glyph_masks_t *c, size_t need)
{
    need = (need + 15) & ~(size_t)15;
    if (c->nchunk > 0 && c->used + need <= c->chunk_cap[c->cur])
        goto take;
    while (c->cur + 1 < c->nchunk) { /* the chunks after it (a cache started over) */
        c->cur++;
        c->used = 0;
        if (need <= c->chunk_cap[c->cur])
            goto take;
    }
    size_t cap = c->nchunk ? 2 * c->chunk_cap[c->nchunk - 1] : ARENA_MIN;
    while (cap < need)
        cap *= 2;
    if (c->nchunk < CHUNKS && c->total + cap <= RF_GLYPH_MASKS_BYTES) {
        uint8_t *a = malloc(cap);
        if (a == NULL)
            return NULL;
        c->chunk[c->nchunk] = a;
        c->chunk_cap[c->nchunk] = cap;
        c->total += cap;
        c->cur = c->nchunk++;
        c->used = 0;
        goto take;
    }
    start_over(c); /* full at its bound */
    while (need > c->chunk_cap[c->cur])
        c->cur++; /* the last chunk is the largest, at least half the bound */
take:;
    uint8_t *p = c->chunk[c->cur] + c->used;
    c->used += need;
    return p;
}

/* The outline at k px per font unit, its origin at (ox, oy) of the mask,
 * into ras as lines (curves within RF_GLYPH_TOL). 1, or 0 when a curve
 * would take more lines than the raster cuts it into. */
static int build(rf_raster_t *ras, double k, double ox, double oy, const uint8_t *cmds,
                 uint32_t ncmd, const double *pts)
{
    const double *p = pts;
    double cx = 0, cy = 0; /* the current point */
    int ok = 1;
    rf_raster_reset(ras);
    for (uint32_t i = 0; i < ncmd; i++) {
        switch (cmds[i]) {
        case 'M':
        case 'L':
            cx = ox + p[0] * k;
            cy = oy - p[1] * k;
            (cmds[i] == 'M' ? rf_raster_move : rf_raster_line)(ras, cx, cy);
            p += 2;
            break;
        case 'C': {
            const double q[8] = { cx, cy, ox + p[0] * k, oy - p[1] * k, ox + p[2] * k,
                                  oy - p[3] * k, ox + p[4] * k, oy - p[5] * k };
            ok &= rf_raster_cubic(ras, q, RF_GLYPH_TOL);
            cx = q[6];
            cy = q[7];
            p += 6;
            break;
        }
        default:
            break; /* 'Z': FreeType closes every contour */
        }
    }
    return ok;
}

/* The outline filled by cairo (default antialias, nonzero winding) into
 * the w x h A8 bytes at a, its origin at (ox, oy). 0, or -1 when out of
 * memory. */
static int fill_by_cairo(uint8_t *a, int w, int h, int stride, double k, double ox, double oy,
                      const uint8_t *cmds, uint32_t ncmd, const double *pts)
{
    cairo_surface_t *s = cairo_image_surface_create_for_data(a, CAIRO_FORMAT_A8, w, h, stride);
    cairo_t *cr = cairo_create(s);
    cairo_translate(cr, ox, oy);
    const double *p = pts;
    for (uint32_t i = 0; i < ncmd; i++) {
        switch (cmds[i]) {
        case 'M':
            cairo_move_to(cr, p[0] * k, -p[1] * k);
            p += 2;
            break;
        case 'L':
            cairo_line_to(cr, p[0] * k, -p[1] * k);
            p += 2;
            break;
        case 'C':
            cairo_curve_to(cr, p[0] * k, -p[1] * k, p[2] * k, -p[3] * k, p[4] * k, -p[5] * k);
            p += 6;
            break;
        default:
            cairo_close_path(cr);
            break;
        }
    }
    cairo_fill(cr);
    int bad = cairo_status(cr) != CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    cairo_surface_flush(s);
    cairo_surface_destroy(s);
    return bad ? -1 : 0;
}

/* Rasterizes the outline into e->m: by FreeType through ras when
 * rf_raster_simple shows its coverage exact, else by cairo's fill. 0, -1
 * when out of memory, 1 when too large. */
static int rasterize(rf_glyph_masks_t *c, rf_raster_t *ras, entry_t *e, int px, int py,
                     const uint8_t *cmds, uint32_t ncmd, const double *pts)
{
    double k = e->k, fx = (double)px / RF_GLYPH_PHASES, fy = (double)py / RF_GLYPH_PHASES;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    double bx = INFINITY, by = INFINITY; /* the box's corner at phase 0 */
    const double *p = pts;
    for (uint32_t i = 0; i < ncmd; i++) {
        int np = cmds[i] == 'C' ? 3 : cmds[i] == 'Z' ? 0 : 1;
        for (int q = 0; q < np; q++, p += 2) {
            /* control points bound a cubic (as fmin and fmax, a NaN left
             * out, without their calls) */
            double x = fx + p[0] * k, y = fy - p[1] * k, ux = p[0] * k, uy = -p[1] * k;
            x0 = x < x0 ? x : x0;
            y0 = y < y0 ? y : y0;
            x1 = x > x1 ? x : x1;
            y1 = y > y1 ? y : y1;
            bx = ux < bx ? ux : bx;
            by = uy < by ? uy : by;
        }
    }
    memset(&e->m, 0, sizeof e->m);
    if (!(x1 >= x0 && y1 >= y0))
        return 0; /* no outline: an empty mask */
    /* too large, or too far from the origin for an int (a scale past any
     * use_masks allows: the caller draws the outline) */
    if (!(x1 - x0 < 65536 && y1 - y0 < 65536 && fabs(x0) < 1e9 && fabs(y0) < 1e9))
        return 1;
    int ix0 = (int)floor(x0) - 1, iy0 = (int)floor(y0) - 1;
    int w = (int)ceil(x1) + 1 - ix0, h = (int)ceil(y1) + 1 - iy0;
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_A8, w);
    if (stride <= 0 || (size_t)stride * (size_t)h > RF_GLYPH_MASKS_BYTES / 4)
        return 1;
    uint8_t *a = arena_take(c, (size_t)stride * (size_t)h);
    if (a == NULL)
        return -1;
    memset(a, 0, (size_t)stride * (size_t)h);
    int st = 1;
    if (ras != NULL) {
        /* the outline at phase 0, a whole pixel and more inside its
         * box (every coordinate positive: one rounding), moved by whole
         * 1/64 px to the phase and the mask: at every phase the same
         * rounded outline, so one certificate serves them all */
        int bx0 = (int)floor(bx) - 1, by0 = (int)floor(by) - 1;
        cert_t *ce = &c->cert[hash_key(e->src, e->gid, 0, k, CERTS)];
        int known = ce->gid == e->gid && ce->src == e->src && ce->k == k;
        if (!known || ce->ok) {
            int built = build(ras, k, -bx0, -by0, cmds, ncmd, pts);
            if (!known) {
                int ok = built ? rf_raster_simple(ras) : 0;
                if (ok < 0)
                    return -1; /* no answer: nothing cached */
                ce->gid = e->gid;
                ce->src = e->src;
                ce->k = k;
                ce->ok = ok;
            }
            if (ce->ok && built) {
                rf_raster_shift(ras, (bx0 - ix0) * 64 + px * (64 / RF_GLYPH_PHASES),
                                (by0 - iy0) * 64 + py * (64 / RF_GLYPH_PHASES));
                st = rf_raster_fill(ras, 0, a, w, h, stride, 0, 0);
            }
        }
    }
    if (st == 1)
        st = fill_by_cairo(a, w, h, stride, k, fx - ix0, fy - iy0, cmds, ncmd, pts);
    if (st != 0)
        return -1;
    e->m.a = a;
    e->m.x0 = ix0;
    e->m.y0 = iy0;
    e->m.w = w;
    e->m.h = h;
    e->m.stride = stride;
    return 0;
}

int rf_glyph_masks_get(rf_glyph_masks_t *c, rf_raster_t *ras, uint32_t src, uint32_t gid,
                       double k, int px, int py, const uint8_t *cmds, uint32_t ncmd,
                       const double *pts, const rf_glyph_mask_t **out)
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
        start_over(c);
    }
    uint32_t i = hash_key(src, gid, phase, k, c->nslots);
    for (;;) {
        entry_t *e = &c->slots[i];
        if (e->gid == UINT32_MAX)
            break;
        if (e->gid == gid && e->phase == phase && e->src == src && e->k == k) {
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
            start_over(c); /* the table is full */
        }
        i = hash_key(src, gid, phase, k, c->nslots);
        while (c->slots[i].gid != UINT32_MAX)
            i = (i + 1) & (c->nslots - 1);
    }
    entry_t tmp = { gid, phase, src, k, { NULL, 0, 0, 0, 0, 0 } };
    uint32_t epoch = c->epoch;
    int st = rasterize(c, ras, &tmp, px, py, cmds, ncmd, pts);
    if (st != 0)
        return st;
    if (c->epoch != epoch) {
        /* the arena started over while taking room: the table is empty */
        i = hash_key(src, gid, phase, k, c->nslots);
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
