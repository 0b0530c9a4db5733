/* motion.h - motion authoring on top of the engine's specs (scene-v1.md
 * "Motion authoring"): springs given by feel, and reduced motion.
 *
 * Owns: the conversions that turn what a scene says about a motion into
 * ordinary rf_anim_spec_t parameters, once, at load: springs by feel
 * (SwiftUI's and Compose's duration and bounce), and the reduced-motion
 * policy (seed 003's ReducedMotionPolicy: snap, or scale s, which resolves
 * a spec into one that plays the same curve s times as long). Nothing here
 * runs per frame: the results are plain descriptors (anim.h), so seeking
 * stays O(1) and evaluation allocation-free. Pure functions, thread-safe.
 */
#ifndef RF_MOTION_H
#define RF_MOTION_H

#include "anim.h"

/* A spring by feel: duration d (seconds) and bounce b, as Compose's
 * spring(durationMillis, bounce) and SwiftUI's .spring(duration:bounce:):
 * stiffness = (2 pi / d)^2 and damping ratio 1 - b for 0 <= b < 1, 1 / (1 +
 * b) for -1 < b < 0. Returns 0, or -1 when d <= 0 (or not finite), b >= 1
 * or b <= -1 (or NaN), or the stiffness overflows. */
int rf_spring_by_feel(double duration, double bounce, double *stiffness, double *damping_ratio);

/* Motion schemes (seed 003's MotionScheme and MotionRole): the six roles,
 * in this order, and the spring each gives. */
enum {
    RF_ROLE_SPATIAL_FAST = 0, RF_ROLE_SPATIAL_DEFAULT, RF_ROLE_SPATIAL_SLOW,
    RF_ROLE_EFFECTS_FAST, RF_ROLE_EFFECTS_DEFAULT, RF_ROLE_EFFECTS_SLOW,
    RF_ROLES
};
/* "spatial-fast", "spatial-default", ..., "effects-slow". */
extern const char *const rf_motion_roles[RF_ROLES];

typedef struct rf_motion_scheme {
    double stiffness[RF_ROLES];
    double damping_ratio[RF_ROLES];
} rf_motion_scheme_t;

/* The built-in schemes as Compose Material 3 publishes them:
 * androidx/androidx compose/material3/material3/src/commonMain/kotlin/
 * androidx/compose/material3/tokens/StandardMotionTokens.kt and
 * ExpressiveMotionTokens.kt (VERSION v0_14_0, commit 160825094a81), whose
 * Spring*Damping is a damping ratio. */
extern const rf_motion_scheme_t rf_motion_standard;
extern const rf_motion_scheme_t rf_motion_expressive;

/* Reduced motion, policy `scale` s (0 < s <= 1): spec rewritten in place
 * to play the same curve s times as long. Every duration and delay is
 * multiplied by s (a duration policy: speed / s, min and max * s); a
 * spring takes stiffness / s^2, damping / s; physics gravity / s^2,
 * friction / s; decay friction / s; an explicit velocity (own_velocity
 * nonzero: not inherited at build) is divided by s. start stays on the
 * scene clock. With start S and delay 0 the result at t is the original
 * at S + (t - S) / s. */
void rf_motion_scale(rf_anim_spec_t *spec, double s, int own_velocity);

#endif
