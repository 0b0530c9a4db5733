/* roots.h - the real roots of a quadratic, in the numerically stable form,
 * for the curve code that needs a derivative's zeros (easing.c's cubic
 * Bezier ranges, path.c's bounds). Owns nothing; pure and thread-safe. */
#ifndef RF_ROOTS_H
#define RF_ROOTS_H

#include <math.h>

/* The real roots of a t^2 + b t + c into r (0, 1 or 2 of them, in no
 * particular order): -c / b when a is 0, none when a and b are. */
static inline int rf_quad_roots(double a, double b, double c, double r[2])
{
    int n = 0;
    if (a == 0.0) {
        if (b != 0.0)
            r[n++] = -c / b;
    } else {
        double disc = b * b - 4.0 * a * c;
        if (disc >= 0.0) {
            double q = -0.5 * (b + copysign(sqrt(disc), b));
            r[n++] = q / a;
            if (q != 0.0)
                r[n++] = c / q;
        }
    }
    return n;
}

#endif
