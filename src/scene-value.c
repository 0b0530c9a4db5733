/* scene-value.c - `values`: the keys of each kind, animated specs,
 * sequences, expressions and sample_path values as the file gives them,
 * and the index of their names. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonsyn.h"
#include "motion.h"
#include "scene-int.h"

/* ------------------------------------------------------------------ */
/* Values                                                               */

/* Kind keys of a value object, in rf_value_kind_t order from SPRING, then
 * the kinds of a later version. */
static const char *const kind_keys[] = {
    "spring", "bezier", "repeat", "tween", "physics", "decay", "keyframes", "snap",
    "sequence", "expr", "sample_path",
};
enum { K_SEQUENCE = 8, K_EXPR = 9, K_SAMPLE_PATH = 10, K_ANIMATED = 8 };

static const char *const spring_keys[] = {
    "from", "to", "stiffness", "damping", "damping_ratio", "velocity", "threshold", "start",
    "delay", "duration", "bounce", "role",
};
static const char *const bezier_keys[] = {
    "from", "to", "curve", "duration", "repeat", "iterations", "start", "delay",
};
static const char *const repeat_keys[] = {
    "from", "to", "duration", "mode", "iterations", "start", "delay",
};
static const char *const tween_keys[] = {
    "from", "to", "duration", "easing", "repeat", "iterations", "start", "delay",
};
static const char *const physics_keys[] = {
    "from", "velocity", "friction", "gravity", "min", "max", "threshold", "start", "delay",
};
static const char *const decay_keys[] = {
    "from", "velocity", "friction", "threshold", "start", "delay",
};
static const char *const keyframes_keys[] = {
    "duration", "interp", "keys", "start", "delay",
};
static const char *const snap_keys[] = { "from", "to", "start", "delay" };
static const char *const policy_keys[] = { "speed", "min", "max" };
static const char *const repeat_modes[] = { "none", "loop", "ping-pong" };
static const char *const interp_names[] = { "linear", "step", "smoothstep" };
static const char *const sample_keys[] = { "path", "progress" };
/* a value object's keys besides its kind */
static const char *const value_extra_keys[] = { "essential" };
static const char *const entry_keys[] = { "at" };

static const char *const reserved_names[] = {
    "t", "min", "max", "clamp", "abs", "floor", "ceil", "round", "sqrt", "pow", "exp",
    "log", "sin", "cos", "tan", "atan2", "mix", "step", "smoothstep",
};

typedef struct kindinfo {
    const char *const *keys;
    size_t nkeys;
    rf_curve_t curve;
    const char *required;      /* the keys it needs (parse_anim asks: needs()) */
} kindinfo_t;

/* The keys, curve and required keys of each animated kind; others have none. */
static const kindinfo_t kind_infos[RF_VALUE_KINDS] = {
    [RF_VALUE_SPRING] = { spring_keys, NELEM(spring_keys), RF_CURVE_SPRING, "to" },
    [RF_VALUE_BEZIER] = { bezier_keys, NELEM(bezier_keys), RF_CURVE_EASED, "to duration" },
    [RF_VALUE_REPEAT] = { repeat_keys, NELEM(repeat_keys), RF_CURVE_EASED, "to duration" },
    [RF_VALUE_TWEEN] = { tween_keys, NELEM(tween_keys), RF_CURVE_EASED, "to duration" },
    [RF_VALUE_PHYSICS] = { physics_keys, NELEM(physics_keys), RF_CURVE_PHYSICS, NULL },
    [RF_VALUE_DECAY] = { decay_keys, NELEM(decay_keys), RF_CURVE_DECAY, NULL },
    [RF_VALUE_KEYFRAMES] = { keyframes_keys, NELEM(keyframes_keys), RF_CURVE_KEYFRAMES,
                             "duration keys" },
    [RF_VALUE_SNAP] = { snap_keys, NELEM(snap_keys), RF_CURVE_SNAP, "to" },
};

const scene_names_t scene_kind_names = SCENE_NAMES(kind_keys, NULL);
const scene_names_t scene_value_extra_names = SCENE_NAMES(value_extra_keys, NULL);
const scene_names_t scene_policy_names = SCENE_NAMES(policy_keys, NULL);
const scene_names_t scene_repeat_mode_names = SCENE_NAMES(repeat_modes, NULL);
const scene_names_t scene_interp_names = SCENE_NAMES(interp_names, NULL);
const scene_names_t scene_sample_names = SCENE_NAMES(sample_keys, "path progress");
const scene_names_t scene_entry_names = SCENE_NAMES(entry_keys, "at");

static kindinfo_t kind_info(rf_value_kind_t kind);

scene_names_t scene_kind_body_names(size_t k)
{
    scene_names_t r = { NULL, 0, NULL };
    if (k < K_ANIMATED) {
        kindinfo_t ki = kind_info((rf_value_kind_t)(k + 1));
        r.names = ki.keys;
        r.n = ki.nkeys;
        r.required = ki.required;
    }
    return r;
}

int scene_names_needs(const char *req, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = req; p != NULL && *p != '\0';) {
        const char *e = strchr(p, ' ');
        size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
        if (len == n && memcmp(p, name, n) == 0)
            return 1;
        p = e != NULL ? e + 1 : NULL;
    }
    return 0;
}

static kindinfo_t kind_info(rf_value_kind_t kind)
{
    kindinfo_t none = { NULL, 0, RF_CURVE_CONST, NULL };
    if ((unsigned)kind >= RF_VALUE_KINDS || kind_infos[kind].keys == NULL)
        return none;
    return kind_infos[kind];
}

int scene_valid_name(const char *s)
{
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return 0;
    for (const char *p = s + 1; *p != '\0'; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

/* scene_valid_name() of the first len bytes of s (a name has no length limit). */
int scene_valid_name_n(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        if (!(alpha || (i > 0 && c >= '0' && c <= '9')))
            return 0;
    }
    return len > 0;
}

/* `duration`: seconds > 0, or (policy_ok) {"speed", "min", "max"}. */
static void duration_field(loader_t *L, const cJSON *it, int policy_ok, rf_anim_spec_t *sp)
{
    if (it == NULL) {
        scene_err(L, "missing required key 'duration'");
        return;
    }
    if (cJSON_IsObject(it) && policy_ok) {
        const cJSON *f[NELEM(policy_keys)];
        size_t m = scene_push(L, "duration");
        scene_scan_keys(L, it, policy_keys, NELEM(policy_keys), f);
        double speed = 1, dmin = 0, dmax = INFINITY;
        scene_num_field(L, f[0], "speed", 1, R_GT0, &speed);
        int rmin = scene_num_field(L, f[1], "min", 0, R_GE0, &dmin);
        int rmax = scene_num_field(L, f[2], "max", 0, R_GT0, &dmax);
        if (rmin != F_BAD && rmax == F_OK && dmax < dmin) {
            nbuf_t a, b;
            scene_err_key(L, "max", "must be >= min (%s), got %s", scene_num(&a, dmin),
                          scene_num(&b, dmax));
        }
        scene_pop(L, m);
        sp->duration_policy = 1;
        sp->speed = speed;
        sp->dmin = dmin;
        sp->dmax = dmax;
        return;
    }
    if (!cJSON_IsNumber(it)) {
        scene_err_key(L, "duration",
                      policy_ok ? "must be a number of seconds or a {\"speed\", \"min\", "
                                  "\"max\"} policy, got %s"
                                : "must be a number of seconds, got %s",
                      scene_json_type(it));
        return;
    }
    scene_num_field(L, it, "duration", 1, R_GT0, &sp->duration);
}

/* A `from` that names a value (seed 000 retargeting, resolved at load). */
typedef struct fromref {
    const char *name;          /* NULL: from is a number or absent */
    const char *ptr;           /* arena: pointer of the `from` key */
    int velocity_given;        /* an explicit `velocity` overrides the source's */
} fromref_t;

/* Fills sp from the body of an animated kind. entry < 0: a plain value;
 * else the index of a sequence entry (entries after the first inherit an
 * absent from/velocity; none may carry `start`). A `from` naming a value is
 * recorded in *fr (plain values and a sequence's first entry only). */
/* velocity: a number, or left to be inherited (inherit: a sequence entry
 * takes the velocity of the motion it retargets). */
static void velocity_field(loader_t *L, const cJSON *it, int inherit, rf_anim_spec_t *sp,
                           fromref_t *fr, vecspec_t *vx)
{
    int rv = scene_vec_field(L, it, "velocity", 0, vx, VX_VELOCITY, &sp->velocity);
    sp->has_velocity = inherit ? rv != F_ABSENT : 1;
    fr->velocity_given = rv != F_ABSENT;
}

/* A spring by feel: `duration` (seconds > 0) and `bounce` (-1 < b < 1,
 * default 0) instead of stiffness and damping (physical: one was given). */
static void spring_feel(loader_t *L, const cJSON *jd, const cJSON *jb, int physical,
                        rf_anim_spec_t *sp)
{
    if (jd == NULL && jb == NULL)
        return;
    if (physical) {
        scene_err_key(L, jd != NULL ? "duration" : "bounce", "give either 'duration' and "
                      "'bounce' or 'stiffness' and 'damping' (or 'damping_ratio'), not both");
        return;
    }
    if (jd == NULL) {
        scene_err_key(L, "bounce", "a spring by feel needs 'duration' (seconds) too");
        return;
    }
    double d = 0, b = 0;
    int rd = scene_num_field(L, jd, "duration", 1, R_GT0, &d);
    int rb = scene_num_field(L, jb, "bounce", 0, R_ANY, &b);
    if (rb == F_OK && !(b > -1 && b < 1)) {
        nbuf_t nb;
        scene_err_key(L, "bounce", "must be > -1 and < 1, got %s", scene_num(&nb, b));
        return;
    }
    double k, z;
    if (rd != F_OK || rb == F_BAD)
        return;
    if (rf_spring_by_feel(d, b, &k, &z) != 0) {
        scene_err_key(L, "duration", "too short: the stiffness (2 pi / duration)^2 is not finite");
        return;
    }
    sp->stiffness = k;
    sp->damping = 2 * z * sqrt(k);
}

/* `role`: the spring of a motion-scheme role (seed 003's MotionRole). */
static void spring_role(loader_t *L, const cJSON *jr, int other, rf_anim_spec_t *sp)
{
    if (jr == NULL)
        return;
    if (other) {
        scene_err_key(L, "role", "a role gives the stiffness and damping: leave out "
                      "'stiffness', 'damping', 'damping_ratio', 'duration' and 'bounce'");
        return;
    }
    int r = 0;
    if (scene_enum_field(L, jr, "role", rf_motion_roles, RF_ROLES, &r) != F_OK)
        return;
    sp->stiffness = L->scheme.stiffness[r];
    sp->damping = 2 * L->scheme.damping_ratio[r] * sqrt(sp->stiffness);
}

static void parse_anim(loader_t *L, const cJSON *body, rf_value_kind_t kind,
                       rf_anim_spec_t *sp, int entry, fromref_t *fr, vecspec_t *vx)
{
    scene_vec_begin(vx, kind);
    fr->name = NULL;
    fr->ptr = NULL;
    fr->velocity_given = 0;
    kindinfo_t ki = kind_info(kind);
    rf_anim_spec_defaults(sp, ki.curve);
    if (!scene_want_object(L, body, "an object"))
        return;
    const cJSON *f[12];
    scene_scan_keys(L, body, ki.keys, ki.nkeys, f);
#define G(name) scene_get(ki.keys, ki.nkeys, f, name)
    int inherit = entry > 0;
    nbuf_t b1, b2, b3;

    const cJSON *start = G("start");
    if (entry >= 0 && start != NULL)
        scene_err_key(L, "start", "use the entry's 'at' instead of 'start'");
    else
        scene_num_field(L, start, "start", 0, R_ANY, &sp->start);
    /* delay: seconds >= 0 added to the start (an entry's `at`) */
    scene_num_field(L, G("delay"), "delay", 0, R_GE0, &sp->delay);

    int rfrom = F_ABSENT;
    if (kind != RF_VALUE_KEYFRAMES) {
        const cJSON *jf = G("from");
        if (cJSON_IsString(jf) && !scene_vec_color_string(L, jf)) {
            /* a value name: its state at the start, filled in at build */
            if (entry > 0) {
                scene_err_key(L, "from", "only a sequence's first entry may start from another "
                              "value: later entries inherit from the entry before");
                rfrom = F_BAD;
            } else {
                size_t m = scene_push(L, "from");
                fr->name = jf->valuestring;
                fr->ptr = rf_arena_strdup(L->arena, L->ptr);
                if (fr->ptr == NULL)
                    scene_err_oom(L);
                scene_pop(L, m);
                rfrom = F_OK;
            }
            sp->has_from = 1;
        } else if (jf != NULL && !cJSON_IsNumber(jf) && !cJSON_IsArray(jf) &&
                   !cJSON_IsString(jf)) {
            if (kind == RF_VALUE_PHYSICS || kind == RF_VALUE_DECAY)
                scene_err_key(L, "from", "must be a number or a value name, got %s",
                              scene_json_type(jf));
            else
                scene_err_key(L, "from", "must be a number, a value name, an array of 2 to 4 "
                              "numbers or a color, got %s", scene_json_type(jf));
            rfrom = F_BAD;
            sp->has_from = 1;
        } else {
            rfrom = scene_vec_field(L, jf, "from", 0, vx, VX_FROM, &sp->from);
            sp->has_from = inherit ? rfrom != F_ABSENT : 1;
        }
    }

    switch (kind) {
    case RF_VALUE_SPRING: {
        scene_vec_field(L, G("to"), "to", scene_names_needs(ki.required, "to"), vx, VX_TO,
                        &sp->to);
        int rk = scene_num_field(L, G("stiffness"), "stiffness", 0, R_GT0, &sp->stiffness);
        int rd = scene_num_field(L, G("damping"), "damping", 0, R_GE0, &sp->damping);
        double z = 0;
        int rz = scene_num_field(L, G("damping_ratio"), "damping_ratio", 0, R_GE0, &z);
        if (rd != F_ABSENT && rz != F_ABSENT) {
            scene_err_key(L, "damping_ratio", "give either 'damping' or 'damping_ratio', not both");
        } else if (rz == F_OK && rk != F_BAD) {
            double c = 2 * z * sqrt(sp->stiffness);
            if (!isfinite(c))
                scene_err_key(L, "damping_ratio", "too large: the damping it gives is not finite");
            else
                sp->damping = c;
        }
        spring_feel(L, G("duration"), G("bounce"), rk != F_ABSENT || rd != F_ABSENT ||
                    rz != F_ABSENT, sp);
        spring_role(L, G("role"), rk != F_ABSENT || rd != F_ABSENT || rz != F_ABSENT ||
                    G("duration") != NULL || G("bounce") != NULL, sp);
        velocity_field(L, G("velocity"), inherit, sp, fr, vx);
        scene_num_field(L, G("threshold"), "threshold", 0, R_GT0, &sp->threshold);
        break;
    }
    case RF_VALUE_SNAP:
        scene_vec_field(L, G("to"), "to", scene_names_needs(ki.required, "to"), vx, VX_TO,
                        &sp->to);
        break;
    case RF_VALUE_BEZIER:
    case RF_VALUE_REPEAT:
    case RF_VALUE_TWEEN: {
        scene_vec_field(L, G("to"), "to", scene_names_needs(ki.required, "to"), vx, VX_TO,
                        &sp->to);
        duration_field(L, G("duration"), 1, sp);
        int mode = RF_REPEAT_NONE;
        if (kind == RF_VALUE_BEZIER) {
            if (scene_easing_field(L, G("curve"), "curve", 1, &sp->easing) == F_ABSENT) {
                char why[160];
                if (rf_easing_parse(&sp->easing, "ease", 1, scene_arena_alloc_fn, L->arena, why,
                                    sizeof why) != 0)
                    scene_err(L, "internal error: default curve: %s", why);
            }
        } else if (kind == RF_VALUE_TWEEN) {
            if (scene_easing_field(L, G("easing"), "easing", 0, &sp->easing) == F_ABSENT)
                rf_easing_init_linear(&sp->easing);
        } else {
            rf_easing_init_linear(&sp->easing);
            mode = RF_REPEAT_LOOP;
        }
        const char *mkey = kind == RF_VALUE_REPEAT ? "mode" : "repeat";
        scene_enum_field(L, G(mkey), mkey, repeat_modes, NELEM(repeat_modes), &mode);
        sp->repeat = (rf_repeat_t)mode;
        double it = 0;
        if (scene_int_field(L, G("iterations"), "iterations", 0, 1, 4294967295.0, &it) == F_OK)
            sp->iterations = (uint32_t)it;
        else
            sp->iterations = 0;
        break;
    }
    case RF_VALUE_PHYSICS: {
        velocity_field(L, G("velocity"), inherit, sp, fr, vx);
        scene_num_field(L, G("friction"), "friction", 0, R_GE0, &sp->friction);
        scene_num_field(L, G("gravity"), "gravity", 0, R_ANY, &sp->gravity);
        int rmin = scene_num_field(L, G("min"), "min", 0, R_ANY, &sp->min);
        int rmax = scene_num_field(L, G("max"), "max", 0, R_ANY, &sp->max);
        scene_num_field(L, G("threshold"), "threshold", 0, R_GT0, &sp->threshold);
        if (rmin == F_OK && rmax == F_OK && !(sp->min < sp->max)) {
            scene_err_key(L, "max", "must be > min (%s), got %s", scene_num(&b1, sp->min),
                          scene_num(&b2, sp->max));
        } else if (rmin != F_BAD && rmax != F_BAD && rfrom != F_BAD && sp->has_from &&
                   fr->name == NULL && !(sp->from >= sp->min && sp->from <= sp->max)) {
            /* (a value-name from is checked at build, when its number is known) */
            if (rfrom == F_OK)
                scene_err_key(L, "from", "must lie within [min, max] = [%s, %s], got %s",
                              scene_num(&b1, sp->min), scene_num(&b2, sp->max),
                              scene_num(&b3, sp->from));
            else
                scene_err(L, "the default from 0 lies outside [min, max] = [%s, %s]: set 'from'",
                          scene_num(&b1, sp->min), scene_num(&b2, sp->max));
        }
        break;
    }
    case RF_VALUE_DECAY: {
        velocity_field(L, G("velocity"), inherit, sp, fr, vx);
        scene_num_field(L, G("friction"), "friction", 0, R_GT0, &sp->friction);
        scene_num_field(L, G("threshold"), "threshold", 0, R_GT0, &sp->threshold);
        break;
    }
    case RF_VALUE_KEYFRAMES: {
        duration_field(L, G("duration"), 0, sp);
        int interp = RF_INTERP_LINEAR;
        scene_enum_field(L, G("interp"), "interp", interp_names, NELEM(interp_names), &interp);
        sp->interp = (rf_interp_t)interp;
        const cJSON *keys = G("keys");
        if (keys == NULL) {
            scene_err(L, "missing required key 'keys'");
            break;
        }
        if (!cJSON_IsArray(keys)) {
            scene_err_key(L, "keys", "must be an array of [time, value] or [time, value, easing], "
                          "got %s", scene_json_type(keys));
            break;
        }
        int n = cJSON_GetArraySize(keys);
        if (n < 2) {
            scene_err_key(L, "keys", "needs at least 2 keys, got %d", n);
            break;
        }
        rf_key_t *kv = scene_aalloc(L, (size_t)n, sizeof *kv);
        if (kv == NULL)
            break;
        size_t m = scene_push(L, "keys");
        int i = 0, tok = 0;      /* tok: the previous key's time is valid */
        double prev = 0;
        for (const cJSON *k = keys->child; k != NULL; k = k->next, i++) {
            size_t mk = scene_pushi(L, (size_t)i);
            rf_easing_init_linear(&kv[i].easing);
            int ne = cJSON_IsArray(k) ? cJSON_GetArraySize(k) : -1;
            if (ne != 2 && ne != 3) {
                if (ne < 0)
                    scene_err(L, "a key must be [time, value] or [time, value, easing], got %s",
                              scene_json_type(k));
                else
                    scene_err(L, "a key must be [time, value] or [time, value, easing], got %d "
                              "element%s", ne, ne == 1 ? "" : "s");
                tok = 0;
                scene_pop(L, mk);
                continue;
            }
            const cJSON *kt = k->child, *kval = kt->next;
            double t = 0;
            int rt = scene_want_number(L, kt, "0", &t);
            scene_vec_key(L, kval, vx, (uint32_t)i, (uint32_t)n, &kv[i].value);
            if (ne == 3)
                scene_easing_field(L, kval->next, "2", 0, &kv[i].easing);
            if (rt == F_OK) {
                if (i == 0 && t != 0)
                    scene_err_key(L, "0", "the first key's time must be 0, got %s",
                                  scene_num(&b1, t));
                else if (i > 0 && tok && !(t > prev))
                    scene_err_key(L, "0", "key times must strictly increase: got %s after %s",
                                  scene_num(&b1, t), scene_num(&b2, prev));
                else if (i == n - 1 && t != 1)
                    scene_err_key(L, "0", "the last key's time must be 1, got %s",
                                  scene_num(&b1, t));
                else if (t < 0 || t > 1)
                    scene_err_key(L, "0", "key times are normalized: must be in [0, 1], got %s",
                                  scene_num(&b1, t));
                kv[i].time = t;
                prev = t;
                tok = 1;
            } else {
                tok = 0;
            }
            scene_pop(L, mk);
        }
        scene_pop(L, m);
        /* a sampled key easing's motion: the segment that ends at its key */
        for (int j = 0; j < n; j++)
            scene_sampled_context(L, &kv[j].easing, kv[j > 0 ? j - 1 : 0].value, kv[j].value,
                                  j > 0 ? (kv[j].time - kv[j - 1].time) * sp->duration : 0);
        sp->keys = kv;
        sp->nkeys = (uint32_t)n;
        /* what the value shows before start; nothing to inherit */
        sp->from = kv[0].value;
        sp->has_from = 1;
        sp->has_velocity = 1;
        break;
    }
    default:
        break;
    }
#undef G
}

/* Parses and measures SVG path data at the current pointer (a `paths`
 * entry, a sample's or a path layer's inline data) and counts its segments
 * against RF_MAX_ITEMS. NULL after an error. */
const rf_path_t *scene_parse_path_data(loader_t *L, const char *s)
{
    qbuf_t a;
    const char *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f')
        p++;
    if (*p == '\0') {
        scene_err(L, "path data is empty: it must start with 'M'");
        return NULL;
    }
    if (*p != 'M' && *p != 'm') {
        scene_err(L, "path data must start with 'M' (move to), got \"%s\"", scene_q(&a, p));
        return NULL;
    }
    size_t len = strlen(s);
    rf_path_t *path = NULL;
    rf_path_error_t pe;
    if (rf_path_parse(s, len, scene_arena_alloc_fn, L->arena, &path, &pe) != 0) {
        if (pe.col == 0)
            scene_err_oom(L);
        else
            scene_err_caret(L, L->ptr, s, len, rf_loc_column(s, len, pe.col - 1), pe.msg);
        return NULL;
    }
    scene_count_items(L, rf_path_segment_count(path));
    return path;
}

/* What starts the second figure of p: "a second 'M'" or "'L' after 'Z'"
 * into buf, its byte column in *col; NULL for a path of one figure. */
const char *scene_second_figure(const rf_path_t *p, char *buf, size_t cap, size_t *col)
{
    uint32_t n = rf_path_segment_count(p);
    for (uint32_t i = 0; i < n; i++) {
        if (rf_path_segment(p, i, NULL) != RF_PATH_MOVE)
            continue;
        char c = rf_path_segment_source(p, i, col);
        if (c == 'M' || c == 'm')
            snprintf(buf, cap, "a second '%c'", c);
        else
            snprintf(buf, cap, "'%c' after 'Z'", c);
        return buf;
    }
    return NULL;
}

/* {"expr": "..."}: checked here, compiled once every name is known. */
static void parse_expr(loader_t *L, const cJSON *body, size_t vi)
{
    if (!cJSON_IsString(body)) {
        scene_err(L, "must be an expression string such as \"2*x + t\", got %s",
                  scene_json_type(body));
        return;
    }
    size_t len = strlen(body->valuestring);
    if (len > RF_MAX_EXPR_BYTES) {
        scene_err(L, "expression is %zu bytes; the limit is %u", len, (unsigned)RF_MAX_EXPR_BYTES);
        return;
    }
    L->vals[vi].src = body->valuestring;
}


/* {"sample_path": {"path": NAME or DATA, "progress": NUMBER, NAME or VALUE}}.
 * A path that is a name (a letter or '_', then letters, digits, '_') refers
 * to `paths`; anything else is inline path data (no valid path data is
 * such a name: it needs numbers after its M, with separators). */
static void parse_sample_path(loader_t *L, const cJSON *body, size_t vi)
{
    if (!scene_want_object(L, body, "an object {\"path\": ..., \"progress\": ...}"))
        return;
    const cJSON *f[NELEM(sample_keys)];
    scene_scan_keys(L, body, sample_keys, NELEM(sample_keys), f);
    const cJSON *jp = f[0], *jg = f[1];
    if (jp == NULL) {
        scene_err(L, "missing required key 'path'");
    } else if (!cJSON_IsString(jp)) {
        scene_err_key(L, "path", "must be a path name or SVG path data, got %s",
                      scene_json_type(jp));
    } else if (scene_valid_name(jp->valuestring)) {
        L->vals[vi].path_ref = jp->valuestring;
    } else {
        size_t m = scene_push(L, "path");
        const rf_path_t *p = scene_parse_path_data(L, jp->valuestring);
        char what[32], msg[160];
        size_t col;
        if (p != NULL && scene_second_figure(p, what, sizeof what, &col) != NULL) {
            /* seed 000: SamplePath takes one figure (multiple: an explicit error) */
            const char *d = jp->valuestring;
            size_t len = strlen(d);
            int cc = rf_loc_column(d, len, col - 1);
            snprintf(msg, sizeof msg, "col %d: %s starts another figure: sample_path needs a "
                     "path of one figure", cc, what);
            scene_err_caret(L, L->ptr, d, len, cc, msg);
            p = NULL;
        }
        L->vals[vi].path = p;
        scene_pop(L, m);
    }
    if (jg == NULL) {
        scene_err(L, "missing required key 'progress'");
    } else if (cJSON_IsString(jg)) {
        L->vals[vi].progress_ref = jg->valuestring;
    } else if (cJSON_IsNumber(jg) || cJSON_IsObject(jg)) {
        /* an inline value: added after the named ones (they come first) */
        if (L->indexed) {
            size_t m = scene_push(L, "progress");
            size_t pi = scene_add_value(L, "", jg);
            scene_pop(L, m);
            if (pi != SIZE_MAX)
                L->vals[vi].progress_vi = (long)pi;
        } else {
            L->vals[vi].progress_obj = jg;
        }
    } else {
        scene_err_key(L, "progress", "must be a number, a value name or a value object, got %s",
                      scene_json_type(jg));
    }
}

static size_t new_value(loader_t *L, const char *name)
{
    if (L->nvals == L->capvals) {
        size_t cap = L->capvals ? L->capvals * 2 : 64;
        vsrc_t *nv = realloc(L->vals, cap * sizeof *nv);
        if (nv == NULL) {
            scene_err_oom(L);
            return SIZE_MAX;
        }
        L->vals = nv;
        L->capvals = cap;
    }
    vsrc_t *v = &L->vals[L->nvals];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->ptr = "";
    v->progress_vi = -1;
    v->from_vi = -1;
    return L->nvals++;
}

static void set_from(loader_t *L, size_t vi, const fromref_t *fr, const char *kind)
{
    vsrc_t *v = &L->vals[vi];
    v->from_ref = fr->name;
    v->from_ptr = fr->ptr;
    v->from_kind = kind;
    /* spring, physics and decay inherit the velocity too (seed 000) */
    v->from_velocity = !fr->velocity_given &&
                       (strcmp(kind, "spring") == 0 || strcmp(kind, "physics") == 0 ||
                        strcmp(kind, "decay") == 0);
}

static void parse_sequence(loader_t *L, const cJSON *arr, size_t vi)
{
    if (!cJSON_IsArray(arr)) {
        scene_err(L, "must be an array of {\"at\": seconds, KIND: {...}} entries, got %s",
                  scene_json_type(arr));
        return;
    }
    int n = cJSON_GetArraySize(arr);
    if (n == 0) {
        scene_err(L, "must have at least one entry");
        return;
    }
    rf_anim_spec_t *specs = scene_aalloc(L, (size_t)n, sizeof *specs);
    /* each entry's components and where its kind is (vector values) */
    vecspec_t *vxs = calloc((size_t)n, sizeof *vxs);
    const char **where = calloc((size_t)n, sizeof *where);
    if (specs == NULL || vxs == NULL || where == NULL) {
        free(vxs);
        free(where);
        if (specs != NULL)
            scene_err_oom(L);
        return;
    }
    /* entry keys: `at` and the kinds (all listed, for better messages) */
    const char *ekeys[1 + NELEM(kind_keys)];
    ekeys[0] = entry_keys[0];
    for (size_t k = 0; k < NELEM(kind_keys); k++)
        ekeys[1 + k] = kind_keys[k];
    double prev_at = -INFINITY, prev_start = -INFINITY;
    int i = 0;
    for (const cJSON *e = arr->child; e != NULL; e = e->next, i++) {
        size_t m = scene_pushi(L, (size_t)i);
        rf_anim_spec_defaults(&specs[i], RF_CURVE_CONST);
        where[i] = "";
        if (scene_count_items(L, 1)) {
            scene_pop(L, m);
            free(vxs);
            free(where);
            return;
        }
        if (!cJSON_IsObject(e)) {
            scene_err(L,
                      "a sequence entry must be an object {\"at\": seconds, KIND: {...}}, got %s",
                      scene_json_type(e));
            scene_pop(L, m);
            continue;
        }
        const cJSON *at = NULL, *body = NULL;
        int kind = -1;
        for (const cJSON *c = e->child; c != NULL; c = c->next) {
            int k = scene_find_name(ekeys, NELEM(ekeys), c->string);
            qbuf_t a;
            if (k < 0) {
                scene_err_unknown_key(L, c->string, "key", ekeys, NELEM(ekeys));
            } else if (k == 0) {
                if (at != NULL)
                    scene_err_key(L, "at", "duplicate key 'at'");
                else
                    at = c;
            } else if (body != NULL) {
                if (strcmp(body->string, c->string) == 0)
                    scene_err_key(L, c->string, "duplicate key '%s'", scene_q(&a, c->string));
                else
                    scene_err_key(L, c->string, "an entry has exactly one kind, got '%s' and '%s'",
                                  body->string, c->string);
            } else {
                body = c;
                kind = k - 1;
            }
        }
        double t = 0;
        int rat = scene_num_field(L, at, "at", 1, R_GE0, &t), at_ok = 1;
        if (rat == F_OK) {
            if (!(t > prev_at)) {
                at_ok = 0;
                nbuf_t b1, b2;
                scene_err_key(L, "at",
                              "must be greater than the previous entry's 'at' (%s), got %s",
                              scene_num(&b1, prev_at), scene_num(&b2, t));
            }
            prev_at = t;
        }
        if (body == NULL) {
            char list[200];
            scene_err(L, "missing the entry's kind: one of %s",
                      scene_join(list, sizeof list, kind_keys, K_ANIMATED));
        } else if (kind == K_SEQUENCE) {
            scene_err_key(L, "sequence", "a sequence entry cannot be a sequence");
        } else if (kind == K_EXPR || kind == K_SAMPLE_PATH) {
            scene_err_key(L, body->string, "%s values cannot be sequence entries", body->string);
        } else {
            size_t mb = scene_push(L, body->string);
            fromref_t fr;
            parse_anim(L, body, (rf_value_kind_t)(kind + 1), &specs[i], i, &fr, &vxs[i]);
            scene_pop(L, mb);
            where[i] = body->string;
            if (fr.name != NULL)
                set_from(L, vi, &fr, kind_keys[kind]);
            if (rat == F_OK) {
                specs[i].start = t;
                /* a delay moves the entry's start: starts still increase */
                double st = t + specs[i].delay;
                if (specs[i].delay > 0 && !(st > prev_start)) {
                    nbuf_t b1, b2;
                    size_t md = scene_push(L, body->string);
                    scene_err_key(L, "delay", "the entry starts at at + delay = %s, not after the "
                                  "previous entry's start (%s)", scene_num(&b1, st),
                                  scene_num(&b2, prev_start));
                    scene_pop(L, md);
                } else if (i > 0 && specs[i].delay == 0 && !(st > prev_start) && at_ok) {
                    nbuf_t b1, b2;
                    scene_err_key(L, "at", "the previous entry starts at its at + delay = %s, "
                                  "not before this one's %s", scene_num(&b1, prev_start),
                                  scene_num(&b2, st));
                }
                prev_start = st;
            }
        }
        scene_pop(L, m);
    }
    scene_vec_expand(L, vi, &specs, vxs, (uint32_t)n, where);
    free(vxs);
    free(where);
    L->vals[vi].specs = specs;
    L->vals[vi].nspecs = (uint32_t)n;
}

/* The object of a kinded value: exactly one kind key. */
static void parse_kinded(loader_t *L, const cJSON *obj, size_t vi)
{
    const cJSON *body = NULL;
    int kind = -1, unknown = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        int k = scene_find_name(kind_keys, NELEM(kind_keys), c->string);
        if (k >= 0 && body == NULL) {
            body = c;
            kind = k;
        }
    }
    /* second pass, in file order: everything that is not the one kind */
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        if (c == body)
            continue;
        int k = scene_find_name(kind_keys, NELEM(kind_keys), c->string);
        qbuf_t a;
        if (strcmp(c->string, value_extra_keys[0]) == 0) {
            /* reduced motion leaves it as it is (scene-v1.md) */
            if (!cJSON_IsBool(c))
                scene_err_key(L, "essential", "must be true or false, got %s",
                              scene_json_type(c));
            else
                L->vals[vi].essential = cJSON_IsTrue(c);
            continue;
        }
        unknown++;
        if (k >= 0) {
            if (strcmp(c->string, body->string) == 0)
                scene_err_key(L, c->string, "duplicate key '%s'", scene_q(&a, c->string));
            else
                scene_err_key(L, c->string, "a value has exactly one kind, got '%s' and '%s'",
                              body->string, c->string);
        } else if (body != NULL && kind < K_ANIMATED &&
                   scene_find_name(kind_info((rf_value_kind_t)(kind + 1)).keys,
                                   kind_info((rf_value_kind_t)(kind + 1)).nkeys, c->string) >= 0) {
            scene_err_key(L, c->string, "'%s' belongs inside '%s'", scene_q(&a, c->string),
                          body->string);
        } else {
            scene_err_unknown_key(L, c->string, "value kind", kind_keys, NELEM(kind_keys));
        }
    }
    if (body == NULL) {
        if (unknown == 0) {
            char list[300];
            scene_err(L, "missing the value kind: one of %s",
                      scene_join(list, sizeof list, kind_keys, NELEM(kind_keys)));
        }
        return;
    }
    size_t m = scene_push(L, body->string);
    if (kind == K_SEQUENCE) {
        L->vals[vi].kind = RF_VALUE_SEQUENCE;
        parse_sequence(L, body, vi);
    } else if (kind == K_EXPR) {
        L->vals[vi].kind = RF_VALUE_EXPR;
        parse_expr(L, body, vi);
    } else if (kind == K_SAMPLE_PATH) {
        L->vals[vi].kind = RF_VALUE_SAMPLE_PATH;
        if (L->vals[vi].name[0] == '\0')
            scene_err(L, "a path sample has three outputs (x, y, angle): define it in 'values' "
                      "and use NAME.x, NAME.y or NAME.angle");
        else
            parse_sample_path(L, body, vi);
    } else {
        rf_anim_spec_t *sp = scene_aalloc(L, 1, sizeof *sp);
        if (sp != NULL) {
            fromref_t fr;
            vecspec_t vx;
            L->vals[vi].kind = (rf_value_kind_t)(kind + 1);
            parse_anim(L, body, L->vals[vi].kind, sp, -1, &fr, &vx);
            scene_vec_expand(L, vi, &sp, &vx, 1, NULL);
            L->vals[vi].specs = sp;
            L->vals[vi].nspecs = 1;
            if (fr.name != NULL)
                set_from(L, vi, &fr, kind_keys[kind]);
        }
    }
    scene_pop(L, m);
}

/* Adds the value it (a number or a kinded object) under name at the
 * current pointer; returns its index or SIZE_MAX when it was not stored. */
size_t scene_add_value(loader_t *L, const char *name, const cJSON *it)
{
    if (scene_count_items(L, 1))
        return SIZE_MAX;
    size_t vi = new_value(L, name);
    if (vi == SIZE_MAX)
        return vi;
    L->vals[vi].ptr = rf_arena_strdup(L->arena, L->ptr);
    if (L->vals[vi].ptr == NULL) {
        scene_err_oom(L);
        L->vals[vi].ptr = "";
    }
    if (cJSON_IsNumber(it)) {
        rf_anim_spec_t *sp = scene_aalloc(L, 1, sizeof *sp);
        if (sp == NULL)
            return vi;
        rf_anim_spec_defaults(sp, RF_CURVE_CONST);
        sp->from = isfinite(it->valuedouble) ? it->valuedouble : 0;
        sp->to = sp->from;
        sp->has_from = 1;
        L->vals[vi].kind = RF_VALUE_STATIC;
        L->vals[vi].specs = sp;
        L->vals[vi].nspecs = 1;
    } else if (cJSON_IsObject(it)) {
        parse_kinded(L, it, vi);
    } else {
        scene_err(L, "a value must be a number or an object such as {\"spring\": {...}}, got %s",
                  scene_json_type(it));
    }
    return vi;
}

static int cmp_vidx(const void *a, const void *b, const vsrc_t *vals)
{
    return strcmp(vals[*(const uint32_t *)a].name, vals[*(const uint32_t *)b].name);
}

/* C11 qsort has no context argument, and a file-scope pointer would make
 * concurrent loads unsafe: a small merge sort instead. */
static void sort_by_name(uint32_t *idx, uint32_t *tmp, size_t n, const vsrc_t *vals)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_by_name(idx, tmp, h, vals);
    sort_by_name(idx + h, tmp, n - h, vals);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = cmp_vidx(&idx[j], &idx[i], vals) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[o++] = idx[i++];
    while (j < n)
        tmp[o++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

void scene_parse_values(loader_t *L, const cJSON *obj)
{
    size_t n;
    unsigned char *dup = scene_want_named(L, obj, "an object mapping names to values", &n);
    if (dup == NULL)
        return;
    L->values_obj = obj;
    size_t i = 0;
    for (const cJSON *c = obj->child; c != NULL && !L->items_over; c = c->next, i++) {
        size_t m = scene_push(L, c->string);
        qbuf_t a;
        const char *name = c->string;
        if (dup[i])
            scene_err(L, "duplicate key '%s'", scene_q(&a, name));
        else if (!scene_valid_name(name))
            scene_err(L, "invalid value name '%s': a name is a letter or '_' followed by letters, "
                      "digits and '_'", scene_q(&a, name));
        else if (strcmp(name, "t") == 0)
            scene_err(L, "invalid value name 't': 't' is the time in expressions");
        else if (scene_inst_name(name, strlen(name)) >= 0)
            scene_err(L, "invalid value name '%s': '%s' is the %s in expressions", name, name,
                      name[0] == 'i' ? "instance number (instances)"
                                     : "instance count (instances)");
        else if (scene_find_name(reserved_names, NELEM(reserved_names), name) >= 0)
            scene_err(L, "invalid value name '%s': it is a function name", name);
        if (!dup[i]) {
            const char *nm = rf_arena_strdup(L->arena, name);
            if (nm == NULL)
                scene_err_oom(L);
            else
                scene_add_value(L, nm, c);
        }
        scene_pop(L, m);
    }
    free(dup);
}

/* After `values`: the index of named values for lookups from layers. */
void scene_index_values(loader_t *L)
{
    L->nnamed = L->nvals;
    size_t n = L->nnamed;
    L->names = malloc((n ? n : 1) * sizeof *L->names);
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    L->by_name = scene_aalloc(L, n, sizeof *L->by_name);
    if (L->names == NULL || tmp == NULL || L->by_name == NULL) {
        free(tmp);
        scene_err_oom(L);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        L->names[i] = L->vals[i].name;
        L->by_name[i] = (uint32_t)i;
    }
    sort_by_name(L->by_name, tmp, n, L->vals);
    free(tmp);
}

long scene_lookup_value(const loader_t *L, const char *name, size_t len)
{
    if (L->by_name == NULL)
        return -1;
    size_t lo = 0, hi = L->nnamed;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = L->vals[L->by_name[mid]].name;
        int c = strncmp(s, name, len);
        if (c == 0 && s[len] != '\0')
            c = 1;
        if (c == 0)
            return (long)L->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

