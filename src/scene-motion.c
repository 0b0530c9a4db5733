/* scene-motion.c - reduced motion at load (scene-v1.md "Motion authoring",
 * seed 003's ReducedMotionPolicy): the top-level `reduced_motion` policy,
 * and, when a command is given --reduced-motion, each animated value that
 * is not `essential` rewritten into ordinary specs before it is built:
 * `scale` s through rf_motion_scale(), `snap` into snap segments that
 * jump to each entry's final value at its start (an entry that never
 * settles holds its from). Nothing is left for evaluation to do: seek stays
 * O(1). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "motion.h"
#include "scene-int.h"

static const char *const rm_keys[] = { "policy", "scale" };
static const char *const rm_policies[] = { "snap", "scale" };

void scene_parse_reduced_motion(loader_t *L, const cJSON *obj)
{
    if (!scene_want_object(L, obj, "an object {\"policy\": \"snap\"} or {\"policy\": \"scale\", "
                           "\"scale\": s}"))
        return;
    const cJSON *f[NELEM(rm_keys)];
    scene_scan_keys(L, obj, rm_keys, NELEM(rm_keys), f);
    int policy = RF_REDUCED_SNAP;
    scene_enum_field(L, f[0], "policy", rm_policies, NELEM(rm_policies), &policy);
    double s = 1;
    int rs = scene_num_field(L, f[1], "scale", 0, R_GT0, &s);
    nbuf_t b;
    if (rs == F_OK && !(s <= 1)) {
        scene_err_key(L, "scale", "must be > 0 and <= 1 (0.25: four times as fast), got %s",
                      scene_num(&b, s));
        rs = F_BAD;
    }
    if (policy == RF_REDUCED_SCALE && rs == F_ABSENT)
        scene_err(L, "missing required key 'scale' (policy \"scale\": a number > 0 and <= 1)");
    else if (policy == RF_REDUCED_SNAP && rs == F_OK)
        scene_err_key(L, "scale", "goes with \"policy\": \"scale\"; policy \"snap\" takes none");
    L->rm_policy = policy;
    L->rm_scale = s;
}

/* `scale`: every spec of the value, before a `from` source is applied
 * (a velocity taken from another value is real, not the spec's). A scale
 * so small that a parameter overflows (or a duration underflows to 0) is
 * an error at the value. */
int scene_reduce_scale(loader_t *L, vsrc_t *s)
{
    for (uint32_t i = 0; i < s->nspecs; i++) {
        rf_anim_spec_t *sp = &s->specs[i];
        int own = i == 0 ? !(s->from_vi >= 0 && s->from_velocity) : sp->has_velocity;
        rf_motion_scale(sp, L->rm_scale, own);
        const char *bad = !isfinite(sp->velocity) ? "velocity"
                        : !isfinite(sp->stiffness) || !isfinite(sp->damping) ? "spring"
                        : !isfinite(sp->gravity) || !isfinite(sp->friction) ? "friction or gravity"
                        : !(sp->duration > 0) && !sp->duration_policy ? "duration" : NULL;
        if (bad != NULL) {
            nbuf_t b;
            scene_err_at(L, s->ptr, "--reduced-motion: the scale %s leaves its %s out of range "
                         "(not finite, or a duration of 0)", scene_num(&b, L->rm_scale), bad);
            return -1;
        }
    }
    return 0;
}

/* `snap`: orig is the value's track as written (built), specs the specs it
 * was built from; the snap specs replace them (arena). Entry i jumps at its
 * start to orig's segment i final value, or holds its from when that
 * segment never settles. */
int scene_reduce_snap(loader_t *L, vsrc_t *s, const rf_track_t *orig)
{
    rf_anim_spec_t *sn = scene_aalloc(L, s->nspecs, sizeof *sn);
    if (sn == NULL)
        return -1;
    for (uint32_t i = 0; i < s->nspecs; i++) {
        const rf_anim_spec_t *sp = &s->specs[i];
        const rf_anim_t *seg = &orig->segs[i];
        int settles = isfinite(seg->settle) && !isnan(seg->final);
        rf_anim_spec_defaults(&sn[i], settles ? RF_CURVE_SNAP : RF_CURVE_CONST);
        sn[i].start = sp->start;
        sn[i].delay = sp->delay;
        sn[i].has_from = i == 0 || sp->has_from;
        sn[i].from = seg->from;
        sn[i].to = settles ? seg->final : seg->from;
    }
    s->specs = sn;
    return 0;
}
