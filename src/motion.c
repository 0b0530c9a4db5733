/* motion.c - springs by feel and the reduced-motion rewrite of specs. */
#include "motion.h"

#include <math.h>

#define RF_PI 3.14159265358979323846

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
