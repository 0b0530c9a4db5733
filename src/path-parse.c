/* path-parse.c - SVG path data into a measured rf_path_t: the table-driven
 * parser (command letter -> operation and argument count, as NanoSVG does),
 * run twice over the same text through path-int.h's builder, so a failure
 * never leaves anything allocated, and the arc conversion of SVG 1.1
 * implementation notes F.6 (path.h states the contract). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loc.h"
#include "path-int.h"

/* ---- parsing ---- */

enum {
    OP_NONE = 0, OP_MOVE, OP_LINE, OP_HORIZ, OP_VERT, OP_QUAD, OP_SMOOTH_QUAD,
    OP_CUBIC, OP_SMOOTH_CUBIC, OP_CLOSE, OP_ARC,
};

/* Command letter -> operation and numbers per repeat (NanoSVG's table idea). */
static const struct {
    uint8_t op;
    uint8_t nargs;
} cmd_table[128] = {
    ['M'] = {OP_MOVE, 2},         ['m'] = {OP_MOVE, 2},
    ['L'] = {OP_LINE, 2},         ['l'] = {OP_LINE, 2},
    ['H'] = {OP_HORIZ, 1},        ['h'] = {OP_HORIZ, 1},
    ['V'] = {OP_VERT, 1},         ['v'] = {OP_VERT, 1},
    ['Q'] = {OP_QUAD, 4},         ['q'] = {OP_QUAD, 4},
    ['T'] = {OP_SMOOTH_QUAD, 2},  ['t'] = {OP_SMOOTH_QUAD, 2},
    ['C'] = {OP_CUBIC, 6},        ['c'] = {OP_CUBIC, 6},
    ['S'] = {OP_SMOOTH_CUBIC, 4}, ['s'] = {OP_SMOOTH_CUBIC, 4},
    ['Z'] = {OP_CLOSE, 0},        ['z'] = {OP_CLOSE, 0},
    ['A'] = {OP_ARC, 7},          ['a'] = {OP_ARC, 7},
};

typedef struct parser {
    const char *d;
    size_t len;
    rf_path_error_t *err;
    builder_t *b;
    double cx, cy;            /* current point */
    double sx, sy;            /* start of the figure */
    double qx, qy;            /* last Q/T control point, for T */
    double kx, ky;            /* last C/S second control point, for S */
    int has_q, has_k;
    int moved;                /* the first M has been read */
    char letter;              /* the command letter of the segments being made */
    size_t src_col;           /* and the column they are recorded with */
} parser_t;

static int fail(parser_t *ps, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(parser_t *ps, size_t col, const char *fmt, ...)
{
    if (ps->err) {
        char *m = ps->err->msg;
        /* the message counts characters, as every column shown does */
        int k = snprintf(m, RF_PATH_ERR_LEN, "col %d: ", rf_loc_column(ps->d, ps->len, col - 1));
        if (k > 0 && k < RF_PATH_ERR_LEN) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(m + k, RF_PATH_ERR_LEN - (size_t)k, fmt, ap);
            va_end(ap);
        }
        ps->err->col = col;
    }
    return -1;
}

static int is_wsp(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Length of the SVG number at s (sign? (digits ('.' digits?)? | '.' digits)
 * exponent?), 0 when there is none. An 'e' without digits is not part of it. */
static size_t scan_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < n && is_digit((unsigned char)s[i])) {
        i++;
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit((unsigned char)s[i])) {
            i++;
            digits++;
        }
    }
    if (digits == 0)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            j++;
        if (j < n && is_digit((unsigned char)s[j])) {
            while (j < n && is_digit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    return i;
}

/* Names the character at d[i] for an error message: "character '#'",
 * "character U+0007", "character 'é'", or "byte 0xFF" when not UTF-8. */
static void describe_char(const char *d, size_t n, size_t i, char *out, size_t cap)
{
    unsigned char c = (unsigned char)d[i];
    if (c >= 0x20 && c < 0x7f) {
        snprintf(out, cap, "character '%c'", c);
        return;
    }
    if (c < 0x80) {
        snprintf(out, cap, "character U+%04X", c);
        return;
    }
    /* A well-formed UTF-8 sequence is quoted as is; anything else by byte. */
    size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (c >= 0xf5)
        len = 0;
    int ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; k++)
        ok = ((unsigned char)d[i + k] & 0xc0) == 0x80;
    if (ok && len == 3) {
        unsigned char c1 = (unsigned char)d[i + 1];
        ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
    } else if (ok && len == 4) {
        unsigned char c1 = (unsigned char)d[i + 1];
        ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
    }
    if (ok)
        snprintf(out, cap, "character '%.*s'", (int)len, d + i);
    else
        snprintf(out, cap, "byte 0x%02X", c);
}

static int coord_ok(double v)
{
    return fabs(v) <= COORD_MAX; /* false for NaN and infinities too */
}

static void set_start(parser_t *ps, double x, double y)
{
    builder_t *b = ps->b;
    if (b->fill) {
        b->pts[0] = x;
        b->pts[1] = y;
    }
    b->npoints = 1;
    b->x0 = b->x1 = x;
    b->y0 = b->y1 = y;
}

/* Appends one segment: P holds its deg+1 points, the first being the
 * current point. */
static int emit(parser_t *ps, int kind, const double *P, size_t col)
{
    builder_t *b = ps->b;
    int deg = path_kind_degree(kind);
    if (b->nsegs >= RF_PATH_MAX_SEGMENTS)
        return fail(ps, col, "more than %u path segments (the runeframe 1 limit)",
                    RF_PATH_MAX_SEGMENTS);
    for (int i = 2; i < 2 * (deg + 1); i++)
        if (!coord_ok(P[i]))
            return fail(ps, col, "coordinate out of range (magnitude above 1e150)");
    uint32_t seg = b->nsegs;
    if (b->fill) {
        if (seg >= b->cap_segs || b->npoints + (uint32_t)deg > b->cap_points) {
            b->broken = 1;
            return -1;
        }
        rf_path_seg_t *s = &b->segs[seg];
        s->kind = (uint8_t)kind;
        s->cmd = ps->letter;
        s->pad[0] = s->pad[1] = 0;
        s->first_point = b->npoints - 1;
        s->first_knot = (uint32_t)b->nknots;
        b->cols[seg] = ps->src_col < UINT32_MAX ? (uint32_t)ps->src_col : UINT32_MAX;
        memcpy(b->pts + 2 * (size_t)b->npoints, P + 2, sizeof(double) * 2 * (size_t)deg);
        path_bounds_segment(b, deg, P);
    }
    b->npoints += (uint32_t)deg;
    double before = path_cum_length(b);
    if (kind == RF_PATH_MOVE)
        path_measure_zero(b, seg);
    else
        path_measure(b, seg, deg, P);
    if (kind == RF_PATH_MOVE)
        b->nfigures++;
    if (path_cum_length(b) > before)
        b->last_pos = seg;
    b->nsegs++;
    return 0;
}

/* The first control point of a curve into c: given in a (explicit: Q, C;
 * returns 2, the arguments used), else the reflection of the previous
 * curve's last control point (px, py) when it was of the same kind (has),
 * else the current point (T, S; returns 0). */
static int first_control(const parser_t *ps, int explicit, const double *a, double ox, double oy,
                         int has, double px, double py, double *c)
{
    if (explicit) {
        c[0] = ox + a[0];
        c[1] = oy + a[1];
        return 2;
    }
    if (has) {
        c[0] = 2.0 * ps->cx - px; /* reflection of the previous control */
        c[1] = 2.0 * ps->cy - py;
    } else {
        c[0] = ps->cx;
        c[1] = ps->cy;
    }
    return 0;
}

/* Starts a figure at (x, y): the path's start for the first M, else a MOVE
 * segment from the current point (a second M, or a command after Z). */
static int move_to(parser_t *ps, double x, double y, size_t col)
{
    if (!ps->moved) {
        set_start(ps, x, y);
    } else {
        double P[4] = {ps->cx, ps->cy, x, y};
        if (emit(ps, RF_PATH_MOVE, P, col))
            return -1;
    }
    ps->moved = 1;
    ps->cx = ps->sx = x;
    ps->cy = ps->sy = y;
    ps->has_q = ps->has_k = 0;
    return 0;
}

#define ARC_PI 3.14159265358979323846
#define ARC_MAX_PIECES 8   /* |sweep| < 360 degrees, 45 degrees a cubic */

/* The unit-circle offset from angle a to angle a + d: (cos(a+d) - cos a,
 * sin(a+d) - sin a), without the cancellation of the difference (radii up
 * to 1e308 multiply it). */
static void unit_delta(double a, double d, double *ox, double *oy)
{
    double h = sin(0.5 * d), m = a + 0.5 * d;
    *ox = -2.0 * sin(m) * h;
    *oy = 2.0 * cos(m) * h;
}

/* An elliptical arc from the current point to (x2, y2), SVG 1.1 F.6: F.6.2
 * out-of-range parameters, F.6.5 endpoint to center conversion (done in the
 * ellipse's unit-circle space: u = R(-phi) (p - mid) / (rx, ry)), F.6.6
 * radii correction; then cubics of at most 45 degrees, every point
 * computed as start + M (U(theta) - U(theta1)) with M = R(phi) diag(rx, ry)
 * so that no huge center is ever added and subtracted. */
static int arc_to(parser_t *ps, double rx, double ry, double phi_deg, int large, int sweep,
                  double x2, double y2, size_t col)
{
    double x1 = ps->cx, y1 = ps->cy;
    if (!coord_ok(x2) || !coord_ok(y2))
        return fail(ps, col, "coordinate out of range (magnitude above 1e150)");
    if (x1 == x2 && y1 == y2)
        return 0; /* F.6.2: coincident endpoints: the arc is omitted */
    rx = fabs(rx);
    ry = fabs(ry);
    if (rx == 0.0 || ry == 0.0) {
        double P[4] = {x1, y1, x2, y2}; /* F.6.2: a zero radius is a line */
        return emit(ps, RF_PATH_LINE, P, col);
    }
    double phi = fmod(phi_deg, 360.0) * (ARC_PI / 180.0), cp = cos(phi), sp = sin(phi);
    double hx = 0.5 * (x1 - x2), hy = 0.5 * (y1 - y2);
    /* F.6.5.1, then into unit-circle space */
    double ux = (cp * hx + sp * hy) / rx, uy = (-sp * hx + cp * hy) / ry;
    if (!isfinite(ux) || !isfinite(uy))
        return fail(ps, col, "arc radii too small for its endpoints (below 1e-300 of the distance)");
    double lam = hypot(ux, uy); /* sqrt of F.6.6's Lambda */
    double coef = 0.0, root = 0.0;
    if (lam >= 1.0) {
        /* F.6.6: scale the radii up until the ellipse just fits: the
         * endpoints become opposite ends of it, the center the midpoint */
        rx *= lam;
        ry *= lam;
        ux /= lam;
        uy /= lam;
        lam = 1.0;
        if (!isfinite(rx) || !isfinite(ry))
            return fail(ps, col, "arc radii out of range");
    } else if (lam > 0.0) {
        /* F.6.5.2 divided through by rx^2 ry^2: sqrt((1 - L) / L) */
        root = sqrt((1.0 - lam) * (1.0 + lam));
        if (large == sweep)
            root = -root;
        coef = root / lam;
    } else {
        /* radii so large that the endpoints are one point of the unit
         * circle: the short way is the chord; the long way goes round */
        if (large)
            return fail(ps, col, "arc leaves the coordinate range (magnitude above 1e150)");
        double P[4] = {x1, y1, x2, y2};
        return emit(ps, RF_PATH_LINE, P, col);
    }
    /* the center in unit space, c' / (rx, ry), and the unit vectors from it
     * to the start and the end (F.6.5.5, F.6.5.6) */
    double ccx = coef * uy, ccy = -coef * ux;
    double th1 = atan2(uy - ccy, ux - ccx);
    /* the angle from v1 = u - c to v2 = -u - c with c = coef (uy, -ux):
     * their cross product is 2 coef |u|^2 and their dot product
     * coef^2 |u|^2 - |u|^2, here in closed form (the vectors themselves
     * cancel to nothing when the radii dwarf the chord) */
    double dth = atan2(2.0 * root * lam, root * root - lam * lam);
    if (!sweep && dth > 0.0)
        dth -= 2.0 * ARC_PI;
    else if (sweep && dth < 0.0)
        dth += 2.0 * ARC_PI;
    int n = (int)ceil(fabs(dth) / (0.25 * ARC_PI) - 1e-12);
    if (n < 1)
        n = 1;
    if (n > ARC_MAX_PIECES)
        n = ARC_MAX_PIECES;
    double d = dth / n, k = 4.0 / 3.0 * tan(0.25 * d);
    double m00 = cp * rx, m01 = -sp * ry, m10 = sp * rx, m11 = cp * ry;
    double C[ARC_MAX_PIECES][8];
    for (int j = 0; j < n; j++) {
        double a0 = th1 + j * d, a1 = th1 + (j + 1) * d;
        double q[8], ox, oy;
        /* unit-space points relative to U(th1): start, handle, handle, end */
        unit_delta(th1, j * d, &ox, &oy);
        q[0] = ox;
        q[1] = oy;
        q[2] = ox - k * sin(a0);
        q[3] = oy + k * cos(a0);
        unit_delta(th1, (j + 1) * d, &ox, &oy);
        q[6] = ox;
        q[7] = oy;
        q[4] = ox + k * sin(a1);
        q[5] = oy - k * cos(a1);
        for (int i = 0; i < 4; i++) {
            C[j][2 * i] = x1 + m00 * q[2 * i] + m01 * q[2 * i + 1];
            C[j][2 * i + 1] = y1 + m10 * q[2 * i] + m11 * q[2 * i + 1];
        }
        if (j > 0) { /* share the previous end exactly */
            C[j][0] = C[j - 1][6];
            C[j][1] = C[j - 1][7];
        }
    }
    C[0][0] = x1;
    C[0][1] = y1;
    C[n - 1][6] = x2; /* the given end point, exactly */
    C[n - 1][7] = y2;
    for (int j = 0; j < n; j++)
        for (int i = 2; i < 8; i++)
            if (!coord_ok(C[j][i]))
                return fail(ps, col, "arc leaves the coordinate range (magnitude above 1e150)");
    for (int j = 0; j < n; j++)
        if (emit(ps, RF_PATH_CUBIC, C[j], col))
            return -1;
    return 0;
}

/* Runs one complete argument group of op (col: its first number). */
static int exec(parser_t *ps, int op, int rel, const double *a, size_t col)
{
    double ox = rel ? ps->cx : 0.0, oy = rel ? ps->cy : 0.0;
    double P[8] = {ps->cx, ps->cy, 0, 0, 0, 0, 0, 0};
    int kind = RF_PATH_LINE, quad = 0, cubic = 0;
    switch (op) {
    case OP_MOVE:
        P[0] = ox + a[0];
        P[1] = oy + a[1];
        if (!coord_ok(P[0]) || !coord_ok(P[1]))
            return fail(ps, col, "coordinate out of range (magnitude above 1e150)");
        return move_to(ps, P[0], P[1], col);
    case OP_LINE:
        P[2] = ox + a[0];
        P[3] = oy + a[1];
        break;
    case OP_HORIZ:
        P[2] = ox + a[0];
        P[3] = ps->cy;
        break;
    case OP_VERT:
        P[2] = ps->cx;
        P[3] = oy + a[0];
        break;
    case OP_QUAD:
    case OP_SMOOTH_QUAD:
        kind = RF_PATH_QUAD;
        quad = 1;
        a += first_control(ps, op == OP_QUAD, a, ox, oy, ps->has_q, ps->qx, ps->qy, P + 2);
        P[4] = ox + a[0];
        P[5] = oy + a[1];
        break;
    case OP_CUBIC:
    case OP_SMOOTH_CUBIC:
        kind = RF_PATH_CUBIC;
        cubic = 1;
        a += first_control(ps, op == OP_CUBIC, a, ox, oy, ps->has_k, ps->kx, ps->ky, P + 2);
        P[4] = ox + a[0];
        P[5] = oy + a[1];
        P[6] = ox + a[2];
        P[7] = oy + a[3];
        break;
    case OP_CLOSE:
        kind = RF_PATH_CLOSE;
        P[2] = ps->sx;
        P[3] = ps->sy;
        break;
    case OP_ARC:
        if (arc_to(ps, a[0], a[1], a[2], a[3] != 0.0, a[4] != 0.0, ox + a[5], oy + a[6], col))
            return -1;
        ps->has_q = ps->has_k = 0;
        ps->cx = ox + a[5];
        ps->cy = oy + a[6];
        return 0;
    default:
        return fail(ps, col, "internal error: unknown operation");
    }
    if (emit(ps, kind, P, col))
        return -1;
    int deg = path_kind_degree(kind);
    if (quad) {
        ps->qx = P[2];
        ps->qy = P[3];
    } else if (cubic) {
        ps->kx = P[4];
        ps->ky = P[5];
    }
    ps->has_q = quad;
    ps->has_k = cubic;
    ps->cx = P[2 * deg];
    ps->cy = P[2 * deg + 1];
    return 0;
}

#define NUM_MAX 255

static int to_double(parser_t *ps, size_t i, size_t len, double *v)
{
    char buf[NUM_MAX + 1];
    if (len > NUM_MAX)
        return fail(ps, i + 1, "number too long (more than %d characters)", NUM_MAX);
    memcpy(buf, ps->d + i, len);
    buf[len] = '\0';
    char *end;
    *v = strtod(buf, &end); /* the scan above admits only strtod's decimal syntax */
    if (end != buf + len)
        return fail(ps, i + 1, "expected a number");
    if (!isfinite(*v))
        return fail(ps, i + 1, "number out of range");
    return 0;
}

/* After an argument: runs the group when it is complete, and takes one
 * comma (which then wants another number). */
static int got_arg(parser_t *ps, size_t *pi, int *op, int rel, int nargs, int *have,
                   const double *args, size_t group_col, size_t *letter_col, int *need)
{
    const char *d = ps->d;
    size_t n = ps->len, i = *pi;
    (*have)++;
    *need = 0;
    if (*have == nargs) {
        /* the first group after a letter is the letter's; repeats their own */
        ps->src_col = *letter_col ? *letter_col : group_col;
        *letter_col = 0;
        if (exec(ps, *op, rel, args, group_col))
            return -1;
        *have = 0;
        if (*op == OP_MOVE) {
            *op = OP_LINE; /* extra pairs after M are implicit linetos */
            ps->letter = rel ? 'l' : 'L';
        }
    }
    size_t j = i;
    while (j < n && is_wsp((unsigned char)d[j]))
        j++;
    if (j < n && d[j] == ',') {
        *pi = j + 1;
        *need = 1;
    }
    return 0;
}

static int parse(parser_t *ps)
{
    const char *d = ps->d;
    size_t n = ps->len, i = 0;
    int op = OP_NONE, rel = 0, nargs = 0, have = 0;
    int need = 0;     /* a command letter or a comma wants a number next */
    int started = 0, closed = 0;
    double args[7];
    size_t group_col = 0, letter_col = 0;

    for (;;) {
        while (i < n && is_wsp((unsigned char)d[i]))
            i++;
        if (i == n) {
            if (need || have)
                return fail(ps, n + 1, op == OP_ARC && (have == 3 || have == 4)
                                           ? "expected an arc flag (0 or 1)" : "expected a number");
            break;
        }
        unsigned char c = (unsigned char)d[i];
        if (op == OP_ARC && (have == 3 || have == 4)) {
            /* an arc flag: one character, 0 or 1, no separator needed */
            if (c != '0' && c != '1') {
                char what[32];
                describe_char(d, n, i, what, sizeof what);
                return fail(ps, i + 1, "expected an arc flag (0 or 1), got %s", what);
            }
            args[have] = c == '1';
            i++;
            if (got_arg(ps, &i, &op, rel, nargs, &have, args, group_col, &letter_col, &need))
                return -1;
            continue;
        }
        if (is_digit(c) || c == '.' || c == '+' || c == '-') {
            if (!started)
                return fail(ps, i + 1, "path data must start with 'M'");
            if (op == OP_CLOSE)
                return fail(ps, i + 1, "'Z' takes no numbers");
            size_t len = scan_number(d + i, n - i);
            if (len == 0)
                return fail(ps, i + 1, "expected a number");
            if (have == 0)
                group_col = i + 1;
            if (to_double(ps, i, len, &args[have]))
                return -1;
            i += len;
            if (got_arg(ps, &i, &op, rel, nargs, &have, args, group_col, &letter_col, &need))
                return -1;
            continue;
        }
        if (need || have)
            return fail(ps, i + 1, "expected a number");
        if (c == ',')
            return fail(ps, i + 1, "unexpected ','");
        int cop = c < 128 ? cmd_table[c].op : OP_NONE;
        if (cop == OP_NONE) {
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
                return fail(ps, i + 1, "unknown path command '%c'", c);
            char what[32];
            describe_char(d, n, i, what, sizeof what);
            return fail(ps, i + 1, "unexpected %s", what);
        }
        if (!started && cop != OP_MOVE)
            return fail(ps, i + 1, "path data must start with 'M'");
        ps->letter = (char)c;
        ps->src_col = i + 1;
        if (closed && cop != OP_MOVE) {
            /* SVG: after Z, the next subpath starts at the same point */
            if (move_to(ps, ps->sx, ps->sy, i + 1))
                return -1;
        }
        closed = 0;
        started = 1;
        op = cop;
        rel = c >= 'a';
        nargs = cmd_table[c].nargs;
        letter_col = i + 1;
        i++;
        if (op == OP_CLOSE) {
            if (exec(ps, op, rel, args, letter_col))
                return -1;
            letter_col = 0;
            closed = 1;
        } else {
            need = 1;
        }
    }
    if (!started)
        set_start(ps, 0.0, 0.0); /* "" is the point (0,0) */
    return 0;
}

static size_t align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

int rf_path_parse(const char *d, size_t len, rf_path_alloc_fn alloc, void *ctx,
                  rf_path_t **out, rf_path_error_t *err)
{
    builder_t b;
    parser_t ps;
    *out = NULL;
    if (err) {
        err->col = 0;
        err->msg[0] = '\0';
    }

    /* Pass 1: validate, measure, count. */
    memset(&b, 0, sizeof b);
    b.last_pos = UINT32_MAX;
    b.nfigures = 1;
    memset(&ps, 0, sizeof ps);
    ps.d = d;
    ps.len = d ? len : 0;
    ps.err = err;
    ps.b = &b;
    if (parse(&ps))
        return -1;
    if (b.nknots + 1 > UINT32_MAX) {
        if (err) {
            err->col = 1;
            snprintf(err->msg, sizeof err->msg, "col 1: path needs too many knots to measure");
        }
        return -1;
    }

    uint32_t nsegs = b.nsegs, npoints = b.npoints;
    uint32_t nknots = nsegs ? (uint32_t)b.nknots + 1 : 0;
    size_t off_knots = align16(sizeof(rf_path_t));
    size_t off_pts = off_knots + align16((size_t)nknots * sizeof(rf_path_knot_t));
    size_t off_segs = off_pts + align16((size_t)npoints * 2 * sizeof(double));
    size_t off_cols = off_segs + align16((size_t)nsegs * sizeof(rf_path_seg_t));
    size_t total = off_cols + (size_t)nsegs * sizeof(uint32_t);
    unsigned char *mem = alloc(ctx, total);
    if (!mem) {
        if (err) {
            err->col = 0;
            snprintf(err->msg, sizeof err->msg, "out of memory");
        }
        return -1;
    }

    /* Pass 2: the same parse, writing. It cannot fail on text pass 1 took. */
    memset(&b, 0, sizeof b);
    b.last_pos = UINT32_MAX;
    b.nfigures = 1;
    b.fill = 1;
    b.knots = (rf_path_knot_t *)(void *)(mem + off_knots);
    b.pts = (double *)(void *)(mem + off_pts);
    b.segs = (rf_path_seg_t *)(void *)(mem + off_segs);
    b.cols = (uint32_t *)(void *)(mem + off_cols);
    b.cap_knots = nknots ? nknots - 1 : 0;
    b.cap_points = npoints;
    b.cap_segs = nsegs;
    memset(&ps, 0, sizeof ps);
    ps.d = d;
    ps.len = d ? len : 0;
    ps.err = err;
    ps.b = &b;
    if (parse(&ps) || b.broken || b.nsegs != nsegs || b.npoints != npoints ||
        (nsegs && b.nknots + 1 != nknots)) {
        if (err) {
            err->col = 0;
            snprintf(err->msg, sizeof err->msg, "internal error: path measurement is not repeatable");
        }
        return -1;
    }
    if (nknots) {
        rf_path_knot_t *s = &b.knots[nknots - 1];
        s->length = path_cum_length(&b);
        s->segment = b.last_pos != UINT32_MAX ? b.last_pos : nsegs - 1;
        s->t = 1.0f;
    }

    rf_path_t *p = (rf_path_t *)(void *)mem;
    p->nsegs = nsegs;
    p->npoints = npoints;
    p->nknots = nknots;
    p->total = path_cum_length(&b);
    p->x0 = b.x0;
    p->y0 = b.y0;
    p->x1 = b.x1;
    p->y1 = b.y1;
    p->segs = b.segs;
    p->pts = b.pts;
    p->knots = b.knots;
    p->cols = b.cols;
    p->nfigures = b.nfigures;
    *out = p;
    return 0;
}

