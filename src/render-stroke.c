/* render-stroke.c - a layer's stroke style and fill rule on cairo (scene-v1.md
 * "Strokes"): cap, join, miter limit and dash, set before every stroke (a
 * frame sets all the cairo state it uses, render-int.h), and how far the
 * stroke can reach past its path, which the renderer's extents use (a
 * group surface's clip, the reach of a composed layer, the huge-shape
 * guard), so that a long miter or a square cap is never cut.
 *
 * Animated numbers are made drawable here, never an error: cairo refuses
 * (and enters an error state on) a negative dash length or a pattern whose
 * lengths are all 0. A length that is negative or NaN counts as 0, one
 * above RF_DASH_LONG (infinity) as RF_DASH_LONG; a pattern whose lengths
 * sum to 0 draws the stroke solid (SVG's rule for stroke-dasharray, and
 * what `[]` does); a dash_offset that is not finite counts as 0. A
 * miter_limit below 1 or NaN counts as 1 (every sharp join beveled), one
 * above RF_MITER_MAX as RF_MITER_MAX. An odd number of lengths repeats
 * (SVG and cairo: [5] is [5, 5], [4, 2, 1] is [4, 2, 1, 4, 2, 1]).
 * Nothing allocates here (cairo copies the lengths). */
#include <math.h>

#include "render-int.h"

/* A dash length past which every length is the same (px). */
#define RF_DASH_LONG 1e12

double render_miter_limit(const rf_layer_t *L, const double *slots)
{
    double v = rf_prop_get(&L->miter_limit, slots);
    return v >= 1 ? (v < RF_MITER_MAX ? v : RF_MITER_MAX) : 1; /* NaN: 1 */
}

/* L's dash lengths this frame as drawn, into d, their number into *n:
 * their sum. */
static double dash_lengths(const rf_layer_t *L, const double *slots, double d[RF_DASH_MAX],
                           uint32_t *n)
{
    double sum = 0;
    *n = L->ndash <= RF_DASH_MAX ? L->ndash : RF_DASH_MAX;
    for (uint32_t i = 0; i < *n; i++) {
        double v = rf_prop_get(&L->dash[i], slots);
        d[i] = v > 0 ? (v < RF_DASH_LONG ? v : RF_DASH_LONG) : 0; /* NaN: 0 */
        sum += d[i];
    }
    return sum;
}

int render_stroke_dashed(const rf_layer_t *L, const double *slots)
{
    double d[RF_DASH_MAX];
    uint32_t n;
    return dash_lengths(L, slots, d, &n) > 0;
}

#define RF_SQRT2 1.41421356237309504880 /* M_SQRT2 is not C11 */

double render_stroke_reach(const rf_layer_t *L, const double *slots)
{
    /* a miter's tip lies (w / 2) / sin(angle / 2) from the vertex, at
     * most limit * w / 2; a square cap's corners w / sqrt(2) from the end;
     * everything else w / 2 */
    double f = L->line_join == RF_JOIN_MITER ? render_miter_limit(L, slots) : 1;
    if (L->line_cap == RF_CAP_SQUARE && f < RF_SQRT2)
        f = RF_SQRT2;
    return 0.5 * f;
}

void render_stroke_style(cairo_t *cr, const rf_layer_t *L, const double *slots)
{
    static const cairo_line_cap_t caps[] = { CAIRO_LINE_CAP_BUTT, CAIRO_LINE_CAP_ROUND,
                                              CAIRO_LINE_CAP_SQUARE };
    static const cairo_line_join_t joins[] = { CAIRO_LINE_JOIN_MITER, CAIRO_LINE_JOIN_ROUND,
                                               CAIRO_LINE_JOIN_BEVEL };
    cairo_set_line_cap(cr, caps[L->line_cap <= RF_CAP_SQUARE ? L->line_cap : 0]);
    cairo_set_line_join(cr, joins[L->line_join <= RF_JOIN_BEVEL ? L->line_join : 0]);
    cairo_set_miter_limit(cr, render_miter_limit(L, slots));
    double d[RF_DASH_MAX];
    uint32_t n;
    double sum = dash_lengths(L, slots, d, &n);
    if (!(sum > 0)) {
        if (cairo_get_dash_count(cr) > 0)
            cairo_set_dash(cr, NULL, 0, 0);
        return;
    }
    double off = rf_prop_get(&L->dash_offset, slots), period = n & 1 ? 2 * sum : sum;
    off = isfinite(off) ? fmod(off, period) : 0;
    if (off < 0)
        off += period;
    cairo_set_dash(cr, d, (int)n, off);
}

void render_fill_rule(cairo_t *cr, const rf_layer_t *L)
{
    cairo_set_fill_rule(cr, L->fill_rule == RF_FILL_EVENODD ? CAIRO_FILL_RULE_EVEN_ODD
                                                            : CAIRO_FILL_RULE_WINDING);
}
