/* gradfill.c - see gradfill.h. Each step names the cairo 1.16 or pixman
 * 0.42 function whose arithmetic it repeats; the order of operations and
 * the types are theirs, since a different rounding anywhere moves a pixel. */
#include "gradfill-int.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define FIXED_1 GRADFILL_FIXED_1
#define PIXMAN_MAX_INT 32767.0         /* cairo-image-source.c */

/* ---- cairo's side ---- */

/* _cairo_fixed_16_16_from_double: d * 65536 rounded to nearest (even),
 * read from the low word of d + 1.5 * 2^36. */
int32_t gradfill_fixed(double d)
{
    double t = d + 103079215104.0;
    uint64_t u;
    memcpy(&u, &t, sizeof u);
    return (int32_t)(uint32_t)u;
}

/* _cairo_fixed_from_double (24.8): d * 256 rounded to nearest (even),
 * read from the low word of d + 1.5 * 2^44. */
static int32_t fixed_24_8(double d)
{
    double t = d + 26388279066624.0;
    uint64_t u;
    memcpy(&u, &t, sizeof u);
    return (int32_t)(uint32_t)u;
}

/* _cairo_matrix_is_pixel_exact, of a translation: both offsets whole in
 * 24.8 fixed point (_cairo_pattern_analyze_filter then picks NEAREST for
 * a GOOD pattern, and the offsets go to the nearest sample: a translation
 * within 1/512 of whole pixels is one of whole pixels). */
static int pixel_exact(const cairo_matrix_t *m)
{
    return (fixed_24_8(m->x0) & 0xff) == 0 && (fixed_24_8(m->y0) & 0xff) == 0;
}

/* _cairo_color_double_to_short, of a value _cairo_restrict_value kept in
 * [0, 1] (NaN counts as 0 here; cairo would store it as it is). */
static uint16_t color_short(double d)
{
    d = d >= 0 ? (d <= 1 ? d : 1) : 0;
    return (uint16_t)(d * 65535.0 + 0.5);
}

/* _cairo_matrix_has_unity_scale, SCALING_EPSILON = 1/256. */
static int unity_scale(const cairo_matrix_t *m)
{
    const double eps = 1.0 / 256;
    double det = m->xx * m->yy - m->yx * m->xy;
    if (fabs(det * det - 1.0) < eps) {
        if (fabs(m->xy) < eps && fabs(m->yx) < eps)
            return 1;
        if (fabs(m->xx) < eps && fabs(m->yy) < eps)
            return 1;
    }
    return 0;
}

/* pixman_transform_point_3d (pixman_transform_point_31_16_3d): 1 when the
 * result fits pixman_fixed_t. */
int gradfill_xform_point(const xform_t *t, int32_t v[3])
{
    int64_t in[3] = { v[0], v[1], v[2] }, out[3];
    for (int i = 0; i < 3; i++) {
        int64_t hi = 0, lo = 0;
        for (int j = 0; j < 3; j++) {
            hi += (int64_t)t->m[i][j] * (in[j] >> 16);
            lo += (int64_t)t->m[i][j] * (in[j] & 0xFFFF);
        }
        out[i] = hi + ((lo + 0x8000) >> 16);
    }
    int ok = 1;
    for (int i = 0; i < 3; i++) {
        if (out[i] < INT32_MIN || out[i] > INT32_MAX)
            ok = 0;
        v[i] = (int32_t)(uint32_t)(uint64_t)out[i];
    }
    return ok;
}

/* _cairo_matrix_to_pixman_matrix: the fixed-point matrix, its translation
 * corrected so pixman agrees with cairo at (xc, yc). 0 when cairo would
 * fail (INVALID_MATRIX: the gradient is not drawn at all). */
static int to_pixman_matrix(const cairo_matrix_t *m, xform_t *t, double xc, double yc)
{
    t->m[0][0] = gradfill_fixed(m->xx);
    t->m[0][1] = gradfill_fixed(m->xy);
    t->m[0][2] = gradfill_fixed(m->x0);
    t->m[1][0] = gradfill_fixed(m->yx);
    t->m[1][1] = gradfill_fixed(m->yy);
    t->m[1][2] = gradfill_fixed(m->y0);
    t->m[2][0] = 0;
    t->m[2][1] = 0;
    t->m[2][2] = 1 << 16;
    if (unity_scale(m))
        return 1;
    if (fabs(m->xx) > PIXMAN_MAX_INT || fabs(m->xy) > PIXMAN_MAX_INT ||
        fabs(m->x0) > PIXMAN_MAX_INT || fabs(m->yx) > PIXMAN_MAX_INT ||
        fabs(m->yy) > PIXMAN_MAX_INT || fabs(m->y0) > PIXMAN_MAX_INT)
        return 0;
    cairo_matrix_t inv = *m;
    if (cairo_matrix_invert(&inv) != CAIRO_STATUS_SUCCESS)
        return 1;
    for (unsigned left = 5; left > 0; left--) {
        int32_t v[3] = { gradfill_fixed(xc), gradfill_fixed(yc), 1 << 16 };
        if (!gradfill_xform_point(t, v))
            return 1;
        double x = (double)v[0] / (double)FIXED_1, y = (double)v[1] / (double)FIXED_1;
        cairo_matrix_transform_point(&inv, &x, &y);
        x -= xc;
        y -= yc;
        cairo_matrix_transform_distance(m, &x, &y);
        int32_t dx = gradfill_fixed(x), dy = gradfill_fixed(y);
        t->m[0][2] -= dx;
        t->m[1][2] -= dy;
        if (dx == 0 && dy == 0)
            return 1;
    }
    return 1;
}

/* _cairo_matrix_to_pixman_matrix_offset (filter GOOD): the pixman
 * transform (*has 0: none, the identity) and the integer offset (*ix, *iy)
 * added to device coordinates to sample it. 0 when cairo would fail. */
static int pixman_offset(const cairo_matrix_t *p, double xc, double yc, xform_t *t, int *has,
                         int *ix, int *iy)
{
    *ix = *iy = 0;
    *has = 0;
    if (p->xx == 1.0 && p->yx == 0.0 && p->xy == 0.0 && p->yy == 1.0) {
        /* _cairo_matrix_is_pixman_translation */
        if (p->x0 == 0. && p->y0 == 0.)
            return 1;
        double tx = p->x0 + *ix, ty = p->y0 + *iy;
        if (pixel_exact(p)) { /* the filter is NEAREST: the nearest sample */
            tx = ceil(tx - .5);
            ty = ceil(ty - .5);
        }
        if (!(tx != floor(tx) || ty != floor(ty)) &&
            !(fabs(tx) > PIXMAN_MAX_INT || fabs(ty) > PIXMAN_MAX_INT)) {
            *ix = (int)tx;
            *iy = (int)ty;
            return 1;
        }
    }
    cairo_matrix_t m = *p;
    cairo_matrix_translate(&m, *ix, *iy);
    if (m.x0 != 0.0 || m.y0 != 0.0) {
        double tx = m.x0, ty = m.y0, norm = fmax(fabs(tx), fabs(ty));
        for (int i = -1; i < 2; i += 2) {
            for (int j = -1; j < 2; j += 2) {
                double x, y, den, new_norm;
                den = (m.xx + i) * (m.yy + j) - m.xy * m.yx;
                if (fabs(den) < DBL_EPSILON)
                    continue;
                x = m.y0 * m.xy - m.x0 * (m.yy + j);
                y = m.x0 * m.yx - m.y0 * (m.xx + i);
                den = 1 / den;
                x *= den;
                y *= den;
                new_norm = fmax(fabs(x), fabs(y));
                if (norm > new_norm) {
                    norm = new_norm;
                    tx = x;
                    ty = y;
                }
            }
        }
        tx = floor(tx);
        ty = floor(ty);
        if (!(fabs(tx) < 2147483647.0 && fabs(ty) < 2147483647.0))
            return 0;
        *ix = (int)-tx;
        *iy = (int)-ty;
        cairo_matrix_translate(&m, tx, ty);
    } else {
        *ix = 0;
        *iy = 0;
    }
    *has = 1;
    return to_pixman_matrix(&m, t, xc, yc);
}

int gradfill_source(const cairo_matrix_t *inv, const int box[4], xform_t *t, int *has, int *sx,
                    int *sy)
{
    int bw = box[2] - box[0], bh = box[3] - box[1], ix, iy;
    if (!pixman_offset(inv, box[0] + bw / 2., box[1] + bh / 2., t, has, &ix, &iy))
        return 0;
    if (*has && memcmp(t, &(xform_t){ { { FIXED_1, 0, 0 }, { 0, FIXED_1, 0 },
                                         { 0, 0, FIXED_1 } } }, sizeof *t) == 0)
        *has = 0; /* pixman_image_set_transform drops the identity */
    *sx = box[0] + ix;
    *sy = box[1] + iy;
    /* pixman's pixel_to_fixed would wrap */
    return abs(*sx) < GRADFILL_COORD_MAX && abs(*sx + bw) < GRADFILL_COORD_MAX &&
           abs(*sy) < GRADFILL_COORD_MAX && abs(*sy + bh) < GRADFILL_COORD_MAX;
}

/* ---- pixman's side ---- */

typedef struct {
    int32_t x;
    uint16_t r, g, b, a;
} pstop_t;

/* gradient_walker_reset for segment n (repeat PAD: no period). */
static void seg_make(seg_t *s, const pstop_t *left, const pstop_t *right, int64_t left_x,
                     int64_t right_x)
{
    float la = (left->a * (1.0f / 257.0f)), lr = (left->r * (1.0f / 257.0f));
    float lg = (left->g * (1.0f / 257.0f)), lb = (left->b * (1.0f / 257.0f));
    float ra = (right->a * (1.0f / 257.0f)), rr = (right->r * (1.0f / 257.0f));
    float rg = (right->g * (1.0f / 257.0f)), rb = (right->b * (1.0f / 257.0f));
    float lx = left_x * (1.0f / 65536.0f), rx = right_x * (1.0f / 65536.0f);
    float w = rx - lx;
    if ((-FLT_MIN < w && w < FLT_MIN) || left_x == INT32_MIN || right_x == INT32_MAX) {
        s->a_s = s->r_s = s->g_s = s->b_s = 0.0f;
        s->a_b = (la + ra) / 510.0f;
        s->r_b = (lr + rr) / 510.0f;
        s->g_b = (lg + rg) / 510.0f;
        s->b_b = (lb + rb) / 510.0f;
    } else {
        float w_rec = 1.0f / (rx - lx);
        s->a_b = (la * rx - ra * lx) * w_rec * (1.0f / 255.0f);
        s->r_b = (lr * rx - rr * lx) * w_rec * (1.0f / 255.0f);
        s->g_b = (lg * rx - rg * lx) * w_rec * (1.0f / 255.0f);
        s->b_b = (lb * rx - rb * lx) * w_rec * (1.0f / 255.0f);
        s->a_s = (ra - la) * w_rec * (1.0f / 255.0f);
        s->r_s = (rr - lr) * w_rec * (1.0f / 255.0f);
        s->g_s = (rg - lg) * w_rec * (1.0f / 255.0f);
        s->b_s = (rb - lb) * w_rec * (1.0f / 255.0f);
    }
}

int gradfill_walker_init(walker_t *wk, const rf_gradfill_stop_t *stops, int n, int alpha)
{
    /* _cairo_pattern_add_color_stop: offsets clamped, each stop inserted
     * before the first with a larger offset; stops as pixman_gradient_stop_t */
    pstop_t ps[RF_GRADFILL_MAX_STOPS] = { { 0, 0, 0, 0, 0 } };
    double off[RF_GRADFILL_MAX_STOPS];
    for (int k = 0; k < n; k++) {
        double o = stops[k].offset;
        o = o >= 0 ? (o <= 1 ? o : 1) : 0;
        int at = k;
        for (int i = 0; i < k; i++)
            if (o < off[i]) {
                at = i;
                break;
            }
        memmove(&off[at + 1], &off[at], sizeof off[0] * (size_t)(k - at));
        memmove(&ps[at + 1], &ps[at], sizeof ps[0] * (size_t)(k - at));
        off[at] = o;
        ps[at] = (pstop_t){ 0, color_short(stops[k].r), color_short(stops[k].g),
                            color_short(stops[k].b), alpha ? color_short(stops[k].a) : 65535 };
    }
    int same = 1;
    for (int k = 1; k < n; k++)
        same &= ps[k].r == ps[0].r && ps[k].g == ps[0].g && ps[k].b == ps[0].b &&
                ps[k].a == ps[0].a;
    wk->count = n;
    for (int k = 0; k < n; k++)
        wk->sx[k] = ps[k].x = gradfill_fixed(off[k]);
    /* gradient_property_changed, PAD: sentinels at INT32_MIN and INT32_MAX */
    pstop_t begin = ps[0], end = ps[n - 1];
    begin.x = INT32_MIN;
    end.x = INT32_MAX;
    for (int k = 0; k <= n; k++) {
        const pstop_t *l = k == 0 ? &begin : &ps[k - 1], *r = k == n ? &end : &ps[k];
        seg_make(&wk->seg[k], l, r, l->x, r->x);
    }
    return same;
}

/* out[a .. b-1] = c, two pixels a store. */
static void fill32(uint32_t *out, int a, int b, uint32_t c)
{
    uint64_t cc = (uint64_t)c << 32 | c;
    int i = a;
    for (; i + 4 <= b; i += 4) {
        memcpy(out + i, &cc, sizeof cc);
        memcpy(out + i + 2, &cc, sizeof cc);
    }
    for (; i < b; i++)
        out[i] = c;
}

/* Is every pixel of segment s from position lo to hi the color of its
 * ends (which agree)? With alpha constant in the segment each channel of
 * the walker is monotone in the position, so yes. Otherwise a channel is
 * alpha times a color, which may rise, then fall: it is bounded instead.
 * Over the span the walker's alpha lies between its values at the ends,
 * and so does each straight channel (each a float product and sum of the
 * position, monotone); their float product lies between the smallest and
 * the largest float product of the ends (rounding is monotone): yes when
 * both bounds give the same byte. */
static int span_flat(const seg_t *s, int64_t lo, int64_t hi)
{
    if (s->a_s == 0.0f)
        return 1;
    float ylo = lo * (1.0f / 65536.0f), yhi = hi * (1.0f / 65536.0f);
    float alo = 255.f * (s->a_s * ylo + s->a_b), ahi = 255.f * (s->a_s * yhi + s->a_b);
    const float ch[3][2] = { { s->r_s, s->r_b }, { s->g_s, s->g_b }, { s->b_s, s->b_b } };
    for (int c = 0; c < 3; c++) {
        float clo = ch[c][0] * ylo + ch[c][1], chi = ch[c][0] * yhi + ch[c][1];
        float p[4] = { alo * clo, alo * chi, ahi * clo, ahi * chi }, mn = p[0], mx = p[0];
        for (int i = 1; i < 4; i++) {
            mn = p[i] < mn ? p[i] : mn;
            mx = p[i] > mx ? p[i] : mx;
        }
        if ((int32_t)(mn + .5f) != (int32_t)(mx + .5f))
            return 0;
    }
    return 1;
}

int gradfill_color_breaks(const walker_t *wk, int64_t lo, int64_t hi, int64_t *bx, uint32_t *bc,
                          int cap, uint32_t *c0)
{
    struct span {
        int64_t lo, hi;
        int slo, shi;
        uint32_t clo, chi;
    } st[140];
    int sp = 0, k = 0;
    int sl = gradfill_seg_of(wk, lo), sh = gradfill_seg_of(wk, hi);
    *c0 = gradfill_walk(&wk->seg[sl], lo);
    st[sp++] = (struct span){ lo, hi, sl, sh, *c0, gradfill_walk(&wk->seg[sh], hi) };
    while (sp > 0) {
        struct span e = st[--sp];
        if (e.clo == e.chi && e.slo == e.shi && span_flat(&wk->seg[e.slo], e.lo, e.hi))
            continue;
        if (e.hi - e.lo <= 1) {
            if (k == cap)
                return -1;
            bx[k] = e.hi;
            bc[k++] = e.chi;
            continue;
        }
        int64_t mid = e.lo + (e.hi - e.lo) / 2;
        int sm = gradfill_seg_of(wk, mid);
        uint32_t cm = gradfill_walk(&wk->seg[sm], mid);
        st[sp++] = (struct span){ mid, e.hi, sm, e.shi, cm, e.chi }; /* the left half first */
        st[sp++] = (struct span){ e.lo, mid, e.slo, sm, e.clo, cm };
    }
    return k;
}


/* The number of changes bx[0 .. nb-1] (increasing) at or below x. */
static int changes_upto(const int64_t *bx, int nb, int64_t x)
{
    int lo = 0, hi = nb;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (bx[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A row from the color changes (color_breaks over every position the box
 * reaches): pixel i walks x(i) = t + (int64_t)(inc * i), monotone in i.
 * Where the changes are sparse each lands on the first pixel past it,
 * found from its estimate (x - t) / inc and checked on x(i) itself; where
 * they are dense (more than one in 16 pixels) and d holds (int64_t)(inc *
 * i) for every pixel (the same in every row), every pixel's position is
 * walked against the list. */
static void row_runs(uint32_t *out, int w, int64_t t, double inc, const int64_t *d,
                     const int64_t *bx, const uint32_t *bc, int nb, uint32_t c0)
{
#define XAT(i) (t + (int64_t)(inc * (i)))
    int64_t xs = t, xe = XAT(w - 1);
    int k = changes_upto(bx, nb, xs), pos = 0;
    uint32_t cur = k == 0 ? c0 : bc[k - 1];
    if (d != NULL) {
        int k2 = changes_upto(bx, nb, xe); /* the other end of the row */
        if ((k2 > k ? k2 - k : k - k2) * 16 > w) {
            if (inc > 0) {
                for (int i = 0; i < w; i++) {
                    for (int64_t x = t + d[i]; k < nb && bx[k] <= x;)
                        cur = bc[k++];
                    out[i] = cur;
                }
            } else {
                for (int i = 0; i < w; i++) {
                    for (int64_t x = t + d[i]; k > 0 && bx[k - 1] > x;) {
                        k--;
                        cur = k == 0 ? c0 : bc[k - 1];
                    }
                    out[i] = cur;
                }
            }
            return;
        }
    }
    if (inc > 0) {
        for (; k < nb && bx[k] <= xe; k++) {
            double e = ceil((double)(bx[k] - t) / inc);
            int i = e < pos ? pos : e > w - 1 ? w - 1 : (int)e;
            while (i > pos && XAT(i - 1) >= bx[k])
                i--;
            while (XAT(i) < bx[k])
                i++;
            fill32(out, pos, i, cur);
            pos = i;
            cur = bc[k];
        }
    } else {
        for (; k > 0 && bx[k - 1] > xe; k--) {
            double e = ceil((double)(bx[k - 1] - t) / inc);
            int i = e < pos ? pos : e > w - 1 ? w - 1 : (int)e;
            while (i > pos && XAT(i - 1) < bx[k - 1])
                i--;
            while (XAT(i) >= bx[k - 1])
                i++;
            fill32(out, pos, i, cur);
            pos = i;
            cur = k - 1 == 0 ? c0 : bc[k - 2];
        }
    }
    fill32(out, pos, w, cur);
#undef XAT
}

/* The gradient as pixman holds it: p1, p2, its transform, its walker. */
typedef struct {
    int32_t p1x, p1y, p2x, p2y;
    xform_t t;
    int has;
    walker_t wk;
} lin_t;

/* linear_get_scanline's t and inc for source row sy from column sx: 0
 * when pixman would not reach the affine branch or the values leave the
 * range its conversions have. */
static int row_setup(const lin_t *g, int sx, int sy, int64_t *t, double *inc)
{
    int32_t v[3] = { (int32_t)((uint32_t)sx << 16) + FIXED_1 / 2,
                     (int32_t)((uint32_t)sy << 16) + FIXED_1 / 2, FIXED_1 };
    int64_t unit[3] = { FIXED_1, 0, 0 };
    if (g->has) {
        if (!gradfill_xform_point(&g->t, v))
            return 0;
        unit[0] = g->t.m[0][0];
        unit[1] = g->t.m[1][0];
        unit[2] = g->t.m[2][0];
    }
    int64_t dx = (int64_t)g->p2x - g->p1x, dy = (int64_t)g->p2y - g->p1y;
    int64_t l = dx * dx + dy * dy;
    if (!(l == 0 || unit[2] == 0))
        return 0;
    if (l == 0 || v[2] == 0) {
        *t = 0;
        *inc = 0;
        return 1;
    }
    double invden = FIXED_1 * (double)FIXED_1 / (l * (double)v[2]);
    double v2 = v[2] * (1. / FIXED_1);
    double tt = ((dx * v[0] + dy * v[1]) - (dx * g->p1x + dy * g->p1y) * v2) * invden;
    if (!(fabs(tt) < 4.0e18))
        return 0;
    *t = (int64_t)tt;
    *inc = (dx * unit[0] + dy * unit[1]) * invden;
    return 1;
}

/* linear_gradient_is_horizontal: the position does not change down the
 * rows (pixman computes the first row and repeats it). */
static int is_horizontal(const lin_t *g, int height)
{
    int64_t v[3] = { 0, FIXED_1, FIXED_1 };
    if (g->has) {
        v[0] = g->t.m[0][1];
        v[1] = g->t.m[1][1];
        v[2] = g->t.m[2][2];
    }
    int64_t dx = (int64_t)g->p2x - g->p1x, dy = (int64_t)g->p2y - g->p1y;
    int64_t l = dx * dx + dy * dy;
    if (l == 0)
        return 0;
    double inc = height * (double)FIXED_1 * FIXED_1 * (dx * v[0] + dy * v[1]) /
                 (v[2] * (double)l);
    return -1 < inc && inc < 1;
}

int gradfill_breaks_cap(int64_t n, int cost)
{
    int64_t cap = n / cost;
    return cap < 4 ? 4 : cap > GRADFILL_MAX_BREAKS ? GRADFILL_MAX_BREAKS : (int)cap;
}

/* Rows a thread takes at a time when two share a box: blocks of them
 * alternate between the threads, so each gets about half the work
 * wherever the box's coverage lies (halves split at the middle row were
 * measured uneven: glows low in the frame). */
#define ROWS_BLOCK 16

/* The helper's share of a box's rows: its own scratch (fn defines what
 * it reads of it). */
typedef struct {
    gradfill_rows_fn fn;
    const void *ctx;
    int bh;
    uint32_t scratch[GRADFILL_SCRATCH];
} rows_job_t;

/* Blocks first, first + 2, ... of rows 0 .. bh-1. */
static void rows_blocks(gradfill_rows_fn fn, const void *ctx, int bh, int first,
                        uint32_t *scratch)
{
    for (int y = first * ROWS_BLOCK; y < bh; y += 2 * ROWS_BLOCK)
        fn(ctx, y, bh - y < ROWS_BLOCK ? bh : y + ROWS_BLOCK, scratch);
}

static void rows_job(void *arg)
{
    rows_job_t *j = arg;
    rows_blocks(j->fn, j->ctx, j->bh, 1, j->scratch);
}

void gradfill_rows(rf_helper_t *helper, int bw, int bh, gradfill_rows_fn fn, const void *ctx)
{
    uint32_t scratch[GRADFILL_SCRATCH];
    rows_job_t j;
    if (helper != NULL && bh > ROWS_BLOCK && (int64_t)bw * bh >= RF_GRADFILL_SPLIT) {
        j.fn = fn;
        j.ctx = ctx;
        j.bh = bh;
        if (rf_helper_post(helper, rows_job, &j) == 0) {
            rows_blocks(fn, ctx, bh, 0, scratch);
            rf_helper_wait(helper);
            return;
        }
    }
    fn(ctx, 0, bh, scratch);
}

/* A linear gradient over a box as pixman walks it: what every row needs. */
typedef struct {
    lin_t g;
    int bw, bh, sx, sy, horizontal, nb, have_d;
    uint32_t c0;
    double dinc;
    int64_t bx[GRADFILL_MAX_BREAKS];
    uint32_t bc[GRADFILL_MAX_BREAKS];
    int64_t dtab[RF_GRADFILL_DTAB]; /* (int64_t)(inc * i), when have_d */
} lin_box_t;

/* The gradient from (x0, y0) to (x1, y1) seen through inv over box (whole
 * pixels, not empty), stops opaque (alpha 0) or with their alpha: 1 when
 * pixman's walk is repeated here, 0 for a case it is not (cairo paints a
 * solid color, rescales the gradient, or pixman leaves the affine branch
 * or its ranges). */
static int lin_box_init(lin_box_t *p, const int box[4], const cairo_matrix_t *inv, double x0,
                        double y0, double x1, double y1, const rf_gradfill_stop_t *stops, int n,
                        int alpha)
{
    lin_t *g = &p->g;
    /* _cairo_gradient_pattern_is_solid: cairo paints a solid color when
     * every stop has the same color (one stop, say) or the ends are within
     * DBL_EPSILON of each other */
    if (gradfill_walker_init(&g->wk, stops, n, alpha) ||
        (fabs(x0 - x1) < DBL_EPSILON && fabs(y0 - y1) < DBL_EPSILON))
        return 0;
    /* the pattern matrix: the identity times the inverse of the matrix the
     * source was set under; _cairo_gradient_pattern_fit_to_range */
    double dim = fmax(fmax(fabs(x0), fabs(y0)), fmax(fabs(x1), fabs(y1)));
    dim = fmax(dim, fmax(fabs(x0 - x1), fabs(y0 - y1)));
    if (!(dim <= 16383.0)) /* PIXMAN_MAX_INT >> 1: cairo rescales: not repeated here */
        return 0;
    g->p1x = gradfill_fixed(x0);
    g->p1y = gradfill_fixed(y0);
    g->p2x = gradfill_fixed(x1);
    g->p2y = gradfill_fixed(y1);
    int bw = box[2] - box[0], bh = box[3] - box[1];
    if (!gradfill_source(inv, box, &g->t, &g->has, &p->sx, &p->sy))
        return 0;
    p->bw = bw;
    p->bh = bh;
    p->horizontal = is_horizontal(g, bh);
    /* every row's setup first: nothing is written unless all are pixman's;
     * the positions the box reaches */
    int64_t xmin = INT64_MAX, xmax = INT64_MIN;
    double inc0 = 0;
    for (int y = 0; y < (p->horizontal ? 1 : bh); y++) {
        int64_t t;
        double inc;
        if (!row_setup(g, p->sx, p->sy + y, &t, &inc) || !(fabs(inc) * bw < 4.0e18))
            return 0;
        if (y == 0)
            inc0 = inc;
        int64_t xe = t + (int64_t)(inc * (bw - 1));
        xmin = t < xmin ? t : xmin;
        xmin = xe < xmin ? xe : xmin;
        xmax = t > xmax ? t : xmax;
        xmax = xe > xmax ? xe : xmax;
    }
    if (!(xmax - xmin < INT64_MAX / 4 && xmin > INT64_MIN / 4))
        return 0;
    /* one list of changes for every row, when it fits */
    p->nb = gradfill_color_breaks(&g->wk, xmin, xmax, p->bx, p->bc,
                                  gradfill_breaks_cap((int64_t)bw * bh, 16), &p->c0);
    /* (int64_t)(inc * i) for the dense walk, inc the first row's: the
     * same down the rows (affine: always; a row of another inc walks
     * without); made here, so that the rows only read p */
    p->have_d = bw <= RF_GRADFILL_DTAB && (int64_t)(inc0 * bw) != 0;
    p->dinc = p->have_d ? inc0 : 0;
    for (int i = 0; p->have_d && i < bw; i++)
        p->dtab[i] = (int64_t)(inc0 * i);
    return 1;
}

/* Row y of the box (y > 0 of a horizontal gradient: pixman repeats its
 * first row, which the caller copies) into out[0 .. bw-1]; p is only
 * read unless its changes are per row (nb < 0). */
static void lin_box_row(lin_box_t *p, int y, uint32_t *out)
{
    const lin_t *g = &p->g;
    int bw = p->bw;
    int64_t t;
    double inc;
    row_setup(g, p->sx, p->sy + y, &t, &inc);
    if ((int64_t)(inc * bw) == 0) {
        fill32(out, 0, bw, gradfill_walk(&g->wk.seg[gradfill_seg_of(&g->wk, t)], t));
        return;
    }
    int rn = p->nb;
    uint32_t rc0 = p->c0;
    if (p->nb < 0) { /* too many changes for the box: this row's own, in the box's lists */
        int64_t xe = t + (int64_t)(inc * (bw - 1));
        rn = gradfill_color_breaks(&g->wk, t < xe ? t : xe, t < xe ? xe : t, p->bx, p->bc,
                                   gradfill_breaks_cap(bw, 16), &rc0);
    }
    if (rn >= 0) {
        row_runs(out, bw, t, inc, p->have_d && inc == p->dinc ? p->dtab : NULL, p->bx, p->bc, rn,
                 rc0);
    } else { /* a change every pixel or two: pixman's walk itself */
        for (int i = 0; i < bw; i++) {
            int64_t x = t + (int64_t)(inc * i);
            out[i] = gradfill_walk(&g->wk.seg[gradfill_seg_of(&g->wk, x)], x);
        }
    }
}

/* What the rows of a box fill read. */
typedef struct {
    lin_box_t *p;
    unsigned char *data;
    int stride, x, y;
    const rf_gradfill_mask_t *mask;
    int simd;
} lin_rows_t;

/* Rows y0 .. y1-1 of a box fill (gradfill_rows_fn). */
static void lin_fill_rows(const void *ctx, int y0, int y1, uint32_t *scratch)
{
    const lin_rows_t *r = ctx;
    lin_box_t *p = r->p;
    (void)scratch;
    for (int y = y0; y < y1; y++) {
        uint32_t *out = (uint32_t *)(void *)(r->data + (size_t)(r->y + y) * (size_t)r->stride) + r->x;
        if (p->horizontal && y > 0) /* pixman repeats its first row */
            memcpy(out, (uint32_t *)(void *)(r->data + (size_t)r->y * (size_t)r->stride) + r->x,
                   sizeof *out * (size_t)p->bw);
        else
            lin_box_row(p, y, out);
    }
}

int rf_gradfill_linear(unsigned char *data, int stride, int width, int height, const int box[4],
                       const cairo_matrix_t *inv, double x0, double y0, double x1, double y1,
                       const rf_gradfill_stop_t *stops, int n, rf_helper_t *helper)
{
    if (n <= 0 || n > RF_GRADFILL_MAX_STOPS || !(box[0] >= 0 && box[1] >= 0 &&
        box[2] <= width && box[3] <= height && box[0] < box[2] && box[1] < box[3]))
        return 0;
    lin_box_t p;
    if (!lin_box_init(&p, box, inv, x0, y0, x1, y1, stops, n, 0))
        return 0;
    const lin_rows_t r = { &p, data, stride, box[0], box[1], NULL, 0 };
    /* two threads when the rows read p only: one list of changes, not
     * copies of the first row */
    gradfill_rows(p.nb >= 0 && !p.horizontal ? helper : NULL, p.bw, p.bh, lin_fill_rows, &r);
    return 1;
}

/* Rows y0 .. y1-1 of a fill through a mask (gradfill_rows_fn): each
 * row's colors in scratch (a horizontal gradient's: its first row's, once
 * a thread), composited. */
static void lin_mask_rows(const void *ctx, int y0, int y1, uint32_t *scratch)
{
    const lin_rows_t *r = ctx;
    lin_box_t *p = r->p;
    const rf_gradfill_mask_t *mask = r->mask;
    for (int y = y0; y < y1; y++) {
        const uint8_t *m = mask->a + (size_t)(r->y + y - mask->y) * (size_t)mask->stride +
                           (r->x - mask->x);
        uint32_t *out = (uint32_t *)(void *)(r->data + (size_t)(r->y + y) * (size_t)r->stride) + r->x;
        if (!(p->horizontal && y > y0)) /* pixman computes a horizontal one's first row only */
            lin_box_row(p, p->horizontal ? 0 : y, scratch);
        gradfill_over_row(out, scratch, m, p->bw, r->simd);
    }
}

int rf_gradfill_linear_mask(unsigned char *data, int stride, int width, int height,
                            const int clip[4], const cairo_matrix_t *inv, double x0, double y0,
                            double x1, double y1, const rf_gradfill_stop_t *stops, int n,
                            const rf_gradfill_mask_t *mask)
{
    if (n <= 0 || n > RF_GRADFILL_MAX_STOPS)
        return 0;
    int b[4];
    if (gradfill_stops_clear(stops, n) || !gradfill_bounded(width, height, clip, mask, b))
        return 1; /* cairo draws nothing */
    if (b[2] - b[0] > RF_GRADFILL_DTAB)
        return 0; /* wider than the row kept here */
    lin_box_t p;
    if (!lin_box_init(&p, b, inv, x0, y0, x1, y1, stops, n, 1))
        return 0;
    const lin_rows_t r = { &p, data, stride, b[0], b[1], mask, gradfill_simd() };
    gradfill_rows(p.nb >= 0 ? mask->helper : NULL, p.bw, p.bh, lin_mask_rows, &r);
    return 1;
}

void rf_gradfill_inverse(cairo_t *cr, cairo_matrix_t *inv)
{
    double x = 1, y = 0;
    cairo_device_to_user_distance(cr, &x, &y);
    inv->xx = x;
    inv->yx = y;
    x = 0, y = 1;
    cairo_device_to_user_distance(cr, &x, &y);
    inv->xy = x;
    inv->yy = y;
    x = 0, y = 0;
    cairo_device_to_user(cr, &x, &y);
    inv->x0 = x;
    inv->y0 = y;
}

/* ---- the probe ---- */

/* One gradient drawn by cairo and here into two w x h images; 1 when
 * every byte agrees. */
static int probe_one(const cairo_matrix_t *m, double uw, double uh, const double p[4],
                     const rf_gradfill_stop_t *st, int n)
{
    enum { W = 61, H = 29 };
    uint32_t a[W * H], b[W * H]; /* 14 KiB of stack, once a process */
    for (int i = 0; i < W * H; i++)
        a[i] = b[i] = 0xff204060u;
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)a,
                                                             CAIRO_FORMAT_ARGB32, W, H, W * 4);
    cairo_t *cr = cairo_create(s);
    cairo_set_matrix(cr, m);
    cairo_rectangle(cr, 0, 0, uw, uh);
    cairo_pattern_t *pat = cairo_pattern_create_linear(p[0], p[1], p[2], p[3]);
    for (int k = 0; k < n; k++)
        cairo_pattern_add_color_stop_rgba(pat, st[k].offset, st[k].r, st[k].g, st[k].b, 1);
    cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
    cairo_set_source(cr, pat);
    cairo_matrix_t inv;
    rf_gradfill_inverse(cr, &inv);
    double bx0 = m->x0, by0 = m->y0, bx1 = m->x0 + m->xx * uw, by1 = m->y0 + m->yy * uh;
    cairo_fill(cr);
    int ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_pattern_destroy(pat);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_surface_destroy(s);
    int box[4] = { (int)bx0, (int)by0, (int)bx1, (int)by1 };
    return ok && rf_gradfill_linear((unsigned char *)b, W * 4, W, H, box, &inv, p[0], p[1], p[2],
                                    p[3], st, n, NULL) && memcmp(a, b, sizeof a) == 0;
}

static int usable;
static pthread_once_t usable_once = PTHREAD_ONCE_INIT;

static void usable_probe(void)
{
    static const rf_gradfill_stop_t three[3] = {
        { 0, 0.043, 0.063, 0.125, 1 }, { 0.6, 0.086, 0.133, 0.29, 1 }, { 1, 0.9, 0.17, 0.33, 1 }
    };
    static const rf_gradfill_stop_t two[2] = { { 1, 1, 0.5, 0, 1 }, { 0.25, 0.1, 0.7, 0.95, 1 } };
    const cairo_matrix_t scaled = { 1.5, 0, 0, 1.5, 3, 2 }, half = { 0.5, 0, 0, 0.25, 7, 1 };
    const cairo_matrix_t moved = { 1, 0, 0, 1, 2, 4 }, ident = { 1, 0, 0, 1, 0, 0 };
    static const double diag[4] = { -3, -2, 33.3, 17.1 }, across[4] = { 50, 3, 4.5, 3 };
    static const double down[4] = { 0, 1.25, 0, 25.5 };
    usable = probe_one(&scaled, 36, 16, diag, three, 3) &&
             probe_one(&half, 100, 100, across, two, 2) &&
             probe_one(&moved, 57, 20, diag, two, 2) &&
             probe_one(&ident, 61, 29, down, three, 3);
}

int rf_gradfill_usable(void)
{
    pthread_once(&usable_once, usable_probe);
    return usable;
}
