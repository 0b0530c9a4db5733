/* path-int.h - what path.c (measurement, queries, sampling, trimming) and
 * path-parse.c (the SVG path data parser) share; private to them.
 *
 * Owns: the layout of struct rf_path and the builder that both passes of
 * the parser fill: the first validates, measures and counts, the second
 * writes into the one exactly sized block. Pure; no global state.
 */
#ifndef RF_PATH_INT_H
#define RF_PATH_INT_H

#include <stdint.h>

#include "path.h"

struct rf_path {
    uint32_t nsegs;
    uint32_t npoints;
    uint32_t nknots;          /* 0 without segments, else pieces + 1 sentinel */
    double total;
    double x0, y0, x1, y1;    /* exact bounds */
    const rf_path_seg_t *segs;
    const double *pts;        /* 2 * npoints */
    const rf_path_knot_t *knots;
    const uint32_t *cols;     /* per segment: its command's byte column */
    uint32_t nfigures;
};

/* Coordinates above this magnitude are refused: it keeps every squared
 * derivative, length and sum finite (3 * 2e150 squared is ~4e301). */
#define COORD_MAX 1e150

/* ---- building: measurement, knots, bounds ---- */
typedef struct builder {
    int fill;                 /* 0: validate and count; 1: write */
    int broken;               /* fill pass outran the counts (cannot happen) */
    uint32_t nsegs;
    uint32_t npoints;
    uint64_t nknots;
    uint32_t cap_knots, cap_points, cap_segs;
    double cum;               /* arc length measured so far */
    double cum_c;             /* its compensation (Neumaier summation) */
    uint32_t last_pos;        /* last positive-length segment, UINT32_MAX if none */
    rf_path_seg_t *segs;
    double *pts;
    rf_path_knot_t *knots;
    uint32_t *cols;
    uint32_t nfigures;
    double x0, y0, x1, y1;
} builder_t;

/* path.c: the degree of a segment kind (1 line, move and close, 2 quad,
 * 3 cubic);
 * the measured length so far; measuring one segment into its knots; its
 * end point and interior extrema into the bounds. */
int path_kind_degree(int kind);
double path_cum_length(const builder_t *b);
void path_measure(builder_t *b, uint32_t seg, int deg, const double *P);
/* A MOVE: one knot, no length. */
void path_measure_zero(builder_t *b, uint32_t seg);
void path_bounds_segment(builder_t *b, int deg, const double *P);

#endif
