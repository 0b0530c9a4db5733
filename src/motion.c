/* motion.c - springs by feel and the reduced-motion rewrite of specs. */
#include "motion.h"

#include <math.h>

#define RF_PI 3.14159265358979323846

const char *const rf_motion_roles[RF_ROLES] = {
    "spatial-fast", "spatial-default", "spatial-slow",
    "effects-fast", "effects-default", "effects-slow",
};

/* StandardMotionTokens.kt: SpringFastSpatial 1400 / 0.9, SpringDefaultSpatial
 * 700 / 0.9, SpringSlowSpatial 300 / 0.9, SpringFastEffects 3800 / 1,
 * SpringDefaultEffects 1600 / 1, SpringSlowEffects 800 / 1. */
const rf_motion_scheme_t rf_motion_standard = {
    { 1400.0, 700.0, 300.0, 3800.0, 1600.0, 800.0 },
    { 0.9, 0.9, 0.9, 1.0, 1.0, 1.0 },
};

/* ExpressiveMotionTokens.kt: SpringFastSpatial 800 / 0.6, SpringDefault-
 * Spatial 380 / 0.8, SpringSlowSpatial 200 / 0.8, effects as standard. */
const rf_motion_scheme_t rf_motion_expressive = {
    { 800.0, 380.0, 200.0, 3800.0, 1600.0, 800.0 },
    { 0.6, 0.8, 0.8, 1.0, 1.0, 1.0 },
};

int rf_spring_by_feel(double duration, double bounce, double *stiffness, double *damping_ratio)
{
    if (!(duration > 0) || !isfinite(duration) || !(bounce > -1.0 && bounce < 1.0))
        return -1;
    double w = 2.0 * RF_PI / duration;
    double k = w * w;
    if (!isfinite(k) || !(k > 0))
        return -1;
    *stiffness = k;
    *damping_ratio = bounce >= 0 ? 1.0 - bounce : 1.0 / (1.0 + bounce);
    return 0;
}

void rf_motion_scale(rf_anim_spec_t *sp, double s, int own_velocity)
{
    sp->delay *= s;
    switch (sp->curve) {
    case RF_CURVE_SPRING:
        sp->stiffness /= s * s;
        sp->damping /= s;
        break;
    case RF_CURVE_EASED:
    case RF_CURVE_KEYFRAMES:
        sp->duration *= s;
        sp->speed /= s;
        sp->dmin *= s;
        sp->dmax *= s;
        break;
    case RF_CURVE_PHYSICS:
        sp->gravity /= s * s;
        sp->friction /= s;
        break;
    case RF_CURVE_DECAY:
        sp->friction /= s;
        break;
    default:
        return;
    }
    if (own_velocity)
        sp->velocity /= s;
}
