/* glyphmask.c - glyph coverage masks rasterized by FreeType or cairo,
 * cached (glyphmask.h). */
#include "glyphmask.h"

#include <cairo.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "helper.h"

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

/* A mask placed and waiting to be painted (plan, paint): its bytes in the
 * arena, the outline and where it goes in them. */
typedef struct job {
    uint8_t *a;
    int w, h, stride;
    int ix0, iy0;              /* the mask's top-left from the glyph's pixel */
    int px, py;                /* the phase */
    double k;
    uint32_t src, gid;
    const uint8_t *cmds;       /* the outline (borrowed from the caller) */
    uint32_t ncmd;
    const double *pts;
    int bx0, by0;              /* the outline box's corner at phase 0, px */
    uint32_t cert;             /* its certificate's slot in cert[] */
} job_t;

/* What a rasterizer holds after paint(): the outline of (src, gid, k)
 * built at phase 0 (build's answer in built), moved since by (sx, sy) /
 * 64 px, while its generation is gen (raster.h). */
typedef struct built {
    const rf_raster_t *ras;
    uint64_t gen;
    uint32_t src, gid;
    double k;
    int built;
    int sx, sy;
} built_t;

static int paint_groups(struct rf_glyph_masks *c, rf_raster_t *ras, built_t *b);

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
    /* a batch: masks reserved, not painted yet (rf_glyph_masks_reserve) */
    job_t *jobs;
    uint32_t njobs, jobs_cap;
    uint32_t *order;           /* the jobs by certificate slot (jobs_cap) */
    uint32_t group[CERTS + 1]; /* group g: order[group[g] .. group[g + 1]) */
    uint32_t ngroups;
    atomic_uint next_group;    /* the next group a thread takes */
    int threads;               /* rf_glyph_masks_set_threads: 1 or 2 */
    rf_helper_t *helper;       /* the second thread (helper.h): lent, or its own made
                                  when a batch needs it; NULL until then */
    int helper_lent;           /* 1: helper is the caller's (rf_glyph_masks_set_helper) */
    rf_raster_t *helper_ras;   /* the helper's rasterizer, made on its thread */
    built_t helper_built;      /* what it holds */
    int helper_failed;         /* a job of the helper's ran out of memory */
    built_t built;             /* what the caller's rasterizer holds (paint) */
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
    if (!c->helper_lent)
        rf_helper_destroy(c->helper);
    rf_raster_destroy(c->helper_ras);
    free(c->jobs);
    free(c->order);
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
 * starting the cache over (the first chunk that holds it) when restart
 * is 1; NULL when out of memory, or with *full set when the cache would
 * have to start over and restart is 0. */
static uint8_t *arena_take(rf_glyph_masks_t *c, size_t need, int restart, int *full)
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
    if (!restart) {
        *full = 1; /* the caller's batch holds masks of this arena */
        return NULL;
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

/* Places the mask of the outline: its box at the phase into e->m (the
 * arena's bytes for it taken and zeroed) and what paint() needs into j
 * (j->a NULL: an empty outline, nothing to paint). 0, 1 when too large,
 * -1 when out of memory, 2 when the arena is full and restart is 0 (the
 * cache would have to start over). */
static int plan(rf_glyph_masks_t *c, entry_t *e, int px, int py, const uint8_t *cmds,
                uint32_t ncmd, const double *pts, int restart, job_t *j)
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
    j->a = NULL;
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
    int full = 0;
    uint8_t *a = arena_take(c, (size_t)stride * (size_t)h, restart, &full);
    if (a == NULL)
        return full ? 2 : -1;
    memset(a, 0, (size_t)stride * (size_t)h);
    e->m = (rf_glyph_mask_t){ a, ix0, iy0, w, h, stride };
    *j = (job_t){ a,   w,      h,   stride, ix0,  iy0,  px,    py,  k,
                  e->src, e->gid, cmds, ncmd, pts, (int)floor(bx) - 1, (int)floor(by) - 1,
                  hash_key(e->src, e->gid, 0, k, CERTS) };
    return 0;
}

/* Paints job j's mask: by FreeType through ras when rf_raster_simple
 * shows its coverage exact (the answer kept in cert[j->cert]), else by
 * cairo's fill. b says what ras holds from the last paint with it (the
 * next phase of one glyph is a shift of it, not a new build). 0, or -1
 * when out of memory. */
static int paint(rf_glyph_masks_t *c, rf_raster_t *ras, const job_t *j, built_t *b)
{
    int st = 1;
    if (ras != NULL) {
        /* the outline at phase 0, a whole pixel and more inside its
         * box (every coordinate positive: one rounding), moved by whole
         * 1/64 px to the phase and the mask: at every phase the same
         * rounded outline, so one certificate serves them all */
        cert_t *ce = &c->cert[j->cert];
        int known = ce->gid == j->gid && ce->src == j->src && ce->k == j->k;
        if (!known || ce->ok) {
            int built;
            if (b->ras == ras && b->gen == rf_raster_generation(ras) && b->gid == j->gid &&
                b->src == j->src && b->k == j->k) {
                built = b->built; /* ours, moved by (sx, sy) */
                if (!known) {     /* the certificate is of phase 0 */
                    rf_raster_shift(ras, -b->sx, -b->sy);
                    b->sx = b->sy = 0;
                }
            } else {
                built = build(ras, j->k, -j->bx0, -j->by0, j->cmds, j->ncmd, j->pts);
                *b = (built_t){ ras, rf_raster_generation(ras), j->src, j->gid, j->k, built, 0, 0 };
            }
            if (!known) {
                int ok = built ? rf_raster_simple(ras) : 0;
                if (ok < 0) {
                    b->ras = NULL;
                    return -1; /* no answer: nothing cached */
                }
                ce->gid = j->gid;
                ce->src = j->src;
                ce->k = j->k;
                ce->ok = ok;
            }
            if (ce->ok && built) {
                int sx = (j->bx0 - j->ix0) * 64 + j->px * (64 / RF_GLYPH_PHASES);
                int sy = (j->by0 - j->iy0) * 64 + j->py * (64 / RF_GLYPH_PHASES);
                rf_raster_shift(ras, sx - b->sx, sy - b->sy); /* exact: whole 1/64 px */
                b->sx = sx;
                b->sy = sy;
                st = rf_raster_fill(ras, 0, j->a, j->w, j->h, j->stride, 0, 0);
            }
        }
    }
    if (st == 1)
        st = fill_by_cairo(j->a, j->w, j->h, j->stride, j->k,
                           (double)j->px / RF_GLYPH_PHASES - j->ix0,
                           (double)j->py / RF_GLYPH_PHASES - j->iy0, j->cmds, j->ncmd, j->pts);
    if (st != 0) {
        b->ras = NULL; /* what ras holds is not to be used again */
        return -1;
    }
#ifdef __SANITIZE_THREAD__
    /* FreeType and cairo write the bytes out of ThreadSanitizer's sight:
     * a write it sees, so that the reads of another thread are checked */
    *(volatile uint8_t *)j->a = *(volatile uint8_t *)j->a;
#endif
    return 0;
}

/* The table's slots, made on first use; -1 when out of memory. */
static int slots_ready(rf_glyph_masks_t *c)
{
    if (c->slots != NULL)
        return 0;
    c->slots = malloc(SLOTS_MIN * sizeof *c->slots);
    if (c->slots == NULL)
        return -1;
    c->nslots = SLOTS_MIN;
    c->n = 0;
    start_over(c);
    return 0;
}

/* The slot of key (src, gid, phase, k): its entry's (*found 1) or the free
 * one it would take (*found 0). */
static uint32_t slot_of(const rf_glyph_masks_t *c, uint32_t src, uint32_t gid, uint32_t phase,
                        double k, int *found)
{
    uint32_t i = hash_key(src, gid, phase, k, c->nslots);
    for (;;) {
        const entry_t *e = &c->slots[i];
        if (e->gid == UINT32_MAX)
            break;
        if (e->gid == gid && e->phase == phase && e->src == src && e->k == k) {
            *found = 1;
            return i;
        }
        i = (i + 1) & (c->nslots - 1);
    }
    *found = 0;
    return i;
}

/* The key (src, gid, k) at phase (*px, *py), reduced to 0 ..
 * RF_GLYPH_PHASES - 1 each, as *phase, and its slot in *i: 1 when it is
 * cached, 0 when not (*i is then the free slot it takes, the table grown
 * or started over to have room), -1 when out of memory, 2 when the table
 * is full and restart is 0 (nothing changed). */
static int find(rf_glyph_masks_t *c, uint32_t src, uint32_t gid, double k, int *px, int *py,
                int restart, uint32_t *phase, uint32_t *i)
{
    int found;
    *px &= RF_GLYPH_PHASES - 1;
    *py &= RF_GLYPH_PHASES - 1;
    *phase = (uint32_t)*px + RF_GLYPH_PHASES * (uint32_t)*py;
    if (slots_ready(c) != 0)
        return -1;
    *i = slot_of(c, src, gid, *phase, k, &found);
    if (found || c->n < c->nslots / 4 * 3)
        return found;
    if (c->nslots < RF_GLYPH_MASKS_SLOTS) {
        if (table_grow(c) != 0)
            return -1;
    } else if (restart) {
        start_over(c); /* the table is full */
    } else {
        return 2;
    }
    *i = slot_of(c, src, gid, *phase, k, &found);
    return 0;
}

int rf_glyph_masks_get(rf_glyph_masks_t *c, rf_raster_t *ras, uint32_t src, uint32_t gid,
                       double k, int px, int py, const uint8_t *cmds, uint32_t ncmd,
                       const double *pts, const rf_glyph_mask_t **out)
{
    uint32_t phase, i;
    int found = find(c, src, gid, k, &px, &py, 1, &phase, &i);
    if (found == 1)
        *out = &c->slots[i].m;
    if (found != 0)
        return found == 1 ? 0 : -1;
    entry_t tmp = { gid, phase, src, k, { NULL, 0, 0, 0, 0, 0 } };
    job_t j;
    uint32_t epoch = c->epoch;
    int st = plan(c, &tmp, px, py, cmds, ncmd, pts, 1, &j);
    if (st == 0 && j.a != NULL)
        st = paint(c, ras, &j, &c->built);
    if (st != 0)
        return st;
    if (c->epoch != epoch) /* the arena started over while taking room: the table is empty */
        i = slot_of(c, src, gid, phase, k, &found);
    c->slots[i] = tmp;
    c->n++;
    *out = &c->slots[i].m;
    return 0;
}

/* ---- batches on two threads ----
 * The caller reserves the masks a layer needs (plan: their places, one
 * thread), then paints them: its own share and, on a second thread, the
 * helper's. Each certificate slot is painted by one thread only (the
 * jobs of a slot all go to one side), so the two never write the same
 * bytes; the table and the arena are not touched while they paint. */

/* Batches smaller than this are painted by the caller alone. */
#define BATCH_MIN 8

/* The helper's share: groups taken until none is left, with its own
 * rasterizer (FreeType per thread), made on its first batch; none (no
 * memory): the caller paints every group. */
static void helper_job(void *arg)
{
    rf_glyph_masks_t *c = arg;
    if (c->helper_ras == NULL)
        c->helper_ras = rf_raster_create();
    if (c->helper_ras != NULL && paint_groups(c, c->helper_ras, &c->helper_built) != 0)
        c->helper_failed = 1;
}

/* The batch's jobs in groups, one per certificate slot (a counting
 * sort: order[] lists them slot by slot), so that each slot is painted
 * by one thread. */
static void group_jobs(rf_glyph_masks_t *c)
{
    uint32_t count[CERTS + 1];
    memset(count, 0, sizeof count);
    for (uint32_t i = 0; i < c->njobs; i++)
        count[c->jobs[i].cert + 1]++;
    c->ngroups = 0;
    uint32_t at = 0;
    for (uint32_t g = 0; g < CERTS; g++) {
        uint32_t n = count[g + 1];
        count[g + 1] = at; /* where slot g's jobs start */
        if (n > 0)
            c->group[c->ngroups++] = at;
        at += n;
    }
    c->group[c->ngroups] = at;
    for (uint32_t i = 0; i < c->njobs; i++)
        c->order[count[c->jobs[i].cert + 1]++] = i;
    atomic_store_explicit(&c->next_group, 0, memory_order_relaxed);
}

/* Paints groups until none is left to take; 0, or -1 when out of
 * memory (the rest of this thread's groups are left). */
static int paint_groups(rf_glyph_masks_t *c, rf_raster_t *ras, built_t *b)
{
    for (;;) {
        uint32_t g = atomic_fetch_add_explicit(&c->next_group, 1, memory_order_relaxed);
        if (g >= c->ngroups)
            return 0;
        for (uint32_t i = c->group[g]; i < c->group[g + 1]; i++)
            if (paint(c, ras, &c->jobs[c->order[i]], b) != 0)
                return -1;
    }
}

void rf_glyph_masks_set_threads(rf_glyph_masks_t *c, int n)
{
    c->threads = n >= 2 ? 2 : 1;
}

void rf_glyph_masks_set_helper(rf_glyph_masks_t *c, rf_helper_t *h)
{
    if (!c->helper_lent)
        rf_helper_destroy(c->helper);
    c->helper = h;
    c->helper_lent = h != NULL;
}

int rf_glyph_masks_threads(const rf_glyph_masks_t *c)
{
    return c->threads >= 2 ? 2 : 1;
}

int rf_glyph_masks_reserve(rf_glyph_masks_t *c, uint32_t src, uint32_t gid, double k, int px,
                           int py, const uint8_t *cmds, uint32_t ncmd, const double *pts)
{
    uint32_t phase, i;
    int found = find(c, src, gid, k, &px, &py, 0, &phase, &i);
    if (found != 0)
        return found == 1 ? 0 : found; /* 2: the table is full, the batch first */
    if (c->njobs == c->jobs_cap) {
        uint32_t cap = c->jobs_cap ? 2 * c->jobs_cap : 64;
        job_t *j = realloc(c->jobs, cap * sizeof *j);
        if (j == NULL)
            return -1;
        c->jobs = j;
        uint32_t *o = realloc(c->order, cap * sizeof *o);
        if (o == NULL)
            return -1;
        c->order = o;
        c->jobs_cap = cap;
    }
    entry_t tmp = { gid, phase, src, k, { NULL, 0, 0, 0, 0, 0 } };
    job_t *j = &c->jobs[c->njobs];
    int st = plan(c, &tmp, px, py, cmds, ncmd, pts, 0, j);
    if (st != 0)
        return st;
    c->slots[i] = tmp;
    c->n++;
    if (j->a != NULL)
        c->njobs++;
    return 0;
}

int rf_glyph_masks_paint(rf_glyph_masks_t *c, rf_raster_t *ras)
{
    if (c->njobs == 0)
        return 0;
    int two = 0;
    group_jobs(c); /* a glyph's phases one after another: shifts, not builds */
    if (c->threads > 1 && c->njobs >= BATCH_MIN && ras != NULL) {
        if (c->helper == NULL)
            c->helper = rf_helper_create();
        two = rf_helper_post(c->helper, helper_job, c) == 0;
        if (!two)
            c->threads = 1; /* no second thread here: one from now on */
    }
    int bad = paint_groups(c, ras, &c->built) != 0;
    if (two) {
        rf_helper_wait(c->helper);
        bad |= c->helper_failed;
        c->helper_failed = 0;
    }
    c->njobs = 0;
    if (bad) {
        start_over(c); /* masks left unpainted must not be found */
        return -1;
    }
    return 0;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* d[q] = min(255, d[q] + s[q]) for q in [0, n). */
static void add_sat(uint8_t *d, const uint8_t *s, int n)
{
    int q = 0;
#if defined(__SSE2__)
    for (; q + 16 <= n; q += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(d + q));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + q));
        _mm_storeu_si128((__m128i *)(void *)(d + q), _mm_adds_epu8(a, b));
    }
    for (; q + 8 <= n; q += 8) { /* small glyphs' rows: 8 bytes at once */
        __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)(d + q));
        __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(s + q));
        _mm_storel_epi64((__m128i *)(void *)(d + q), _mm_adds_epu8(a, b));
    }
#endif
    for (; q < n; q++) {
        unsigned v = d[q] + s[q];
        d[q] = (uint8_t)(v > 255 ? 255 : v);
    }
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
            add_sat(d + sx0, s + sx0, sx1 - sx0);
        } else {
            for (int q = sx0; q < sx1; q++) {
                unsigned t = s[q] * a8 + 128; /* s * a8 / 255, rounded */
                unsigned v = d[q] + ((t + (t >> 8)) >> 8);
                d[q] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
}
