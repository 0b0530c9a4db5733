/* scene-story.c - `states`, `transitions` and `storyboard` (scene-v1.md
 * "Motion authoring"; seed 003's TransitionCore, seed 002's retarget from
 * current), compiled at load into ordinary values.
 *
 * Every name a state gives becomes a named value, exactly the `sequence`
 * it stands for: the storyboard's first step holds the first state's value
 * (a snap from it to it at that `at`), and every later step whose state
 * names the value adds an entry {"at": AT, KIND: {...its transition...,
 * "to": the state's value}} that retargets from the current value and
 * velocity. The sequences are built as cJSON and handed to the values
 * parser (scene-value.c), so that whatever a sequence entry accepts, a
 * state accepts too, and seek, info, sample, traces, bounds and lint see
 * ordinary sequence values. The synthesized values live at pointers that
 * start with '#' ("#s/NAME/sequence/3/spring/stiffness"), which no pointer
 * of the file does; scene_story_ptr() turns such a pointer back into the
 * user's key (the state's value, the transition's key, the storyboard
 * step) before any message is stored.
 *
 * After the values are built, each storyboard step gets the time its
 * slowest channel settles (TransitionCore commits a step then): rf_scene_t
 * `steps`, which `info` lists. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene-int.h"

/* One state value: a name some state gives. */
typedef struct sname {
    const char *name;          /* cJSON's key (the first state that gives it) */
    uint32_t first_state;      /* that state */
    uint32_t seq;              /* its first (state, key) pair, file order */
    const char *trans;         /* the transitions key it uses ("*" or its name), or NULL */
    const cJSON *tkind;        /* the transition's kind member ({"spring": {...}}'s child) */
    uint32_t *steps;           /* storyboard step of each sequence entry */
    uint32_t nentries;
} sname_t;

/* A (state, key) pair of `states`, in file order. */
typedef struct spair {
    const char *name;
    const cJSON *item;         /* the state's value */
    uint32_t state;
    uint32_t seq;
    uint32_t ni;               /* the sname_t it is */
} spair_t;

typedef struct sstate {
    const char *name;
    uint32_t first, n;         /* its pairs */
    int ok;
} sstate_t;

typedef struct sstep {
    double at;
    uint32_t state;
} sstep_t;

struct story {
    sname_t *names;            /* file order of first appearance */
    uint32_t nnames;
    uint32_t *by_name;         /* names sorted by strcmp */
    const char **name_list;    /* for suggestions */
    spair_t *pairs;
    uint32_t npairs;
    sstate_t *states;
    uint32_t nstates;
    uint32_t *states_by_name;
    const char **state_list;
    sstep_t *steps;
    uint32_t nsteps;
    uint32_t *entry_steps;     /* storage of every sname_t's steps */
    cJSON *synth;              /* {"NAME": {"sequence": [...]}, ...} */
};

/* Kinds a transition may be: the ones that move to a target. */
static const char *const trans_kinds[] = { "spring", "tween", "bezier", "snap" };
const scene_names_t scene_story_trans_names = SCENE_NAMES(trans_kinds, NULL);
/* What a transition body may not say, and why. */
static const struct { const char *key, *why; } trans_owned[] = {
    { "from", "a transition starts from the value's current value: leave out 'from'" },
    { "to", "the state gives the target: leave out 'to'" },
    { "start", "the storyboard's 'at' says when it starts: leave out 'start'" },
    { "velocity", "a transition starts with the value's current velocity: leave out 'velocity'" },
};

/* bsearch over an index of names (strcmp order). */
static long find_sorted(const uint32_t *idx, uint32_t n, const char *(*name_of)(const void *, uint32_t),
                        const void *base, const char *s)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name_of(base, idx[mid]), s);
        if (c == 0)
            return (long)idx[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static const char *sname_name(const void *base, uint32_t i)
{
    return ((const sname_t *)base)[i].name;
}

static const char *sstate_name(const void *base, uint32_t i)
{
    return ((const sstate_t *)base)[i].name;
}

/* Sorting with a context (C11 qsort has none): a merge sort of indices by
 * name. */
static void sort_idx(uint32_t *idx, uint32_t *tmp, uint32_t n,
                     const char *(*name_of)(const void *, uint32_t), const void *base)
{
    if (n < 2)
        return;
    uint32_t h = n / 2, i = 0, j = h, o = 0;
    sort_idx(idx, tmp, h, name_of, base);
    sort_idx(idx + h, tmp, n - h, name_of, base);
    while (i < h && j < n)
        tmp[o++] = strcmp(name_of(base, idx[j]), name_of(base, idx[i])) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[o++] = idx[i++];
    while (j < n)
        tmp[o++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

static uint32_t *sorted_index(loader_t *L, uint32_t n,
                              const char *(*name_of)(const void *, uint32_t), const void *base)
{
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (idx == NULL || tmp == NULL) {
        free(idx);
        free(tmp);
        scene_err_oom(L);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    sort_idx(idx, tmp, n, name_of, base);
    free(tmp);
    return idx;
}

static int cmp_pair(const void *a, const void *b)
{
    const spair_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c != 0 ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int cmp_seq(const void *a, const void *b)
{
    const sname_t *x = a, *y = b;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void scene_story_free(loader_t *L)
{
    story_t *s = L->story;
    if (s == NULL)
        return;
    free(s->names);
    free(s->by_name);
    free(s->name_list);
    free(s->pairs);
    free(s->states);
    free(s->states_by_name);
    free(s->state_list);
    free(s->steps);
    free(s->entry_steps);
    cJSON_Delete(s->synth);
    free(s);
    L->story = NULL;
}

/* `states`: each an object of values; the pairs in file order, then the
 * names they give, deduplicated (file order of first appearance). */
static int parse_states(loader_t *L, story_t *s, const cJSON *obj)
{
    size_t n;
    unsigned char *dup = scene_want_named(L, obj, "an object mapping state names to objects "
                                          "of values", &n);
    if (dup == NULL)
        return -1;
    s->states = calloc(n ? n : 1, sizeof *s->states);
    size_t np = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next)
        if (cJSON_IsObject(c))
            for (const cJSON *k = c->child; k != NULL; k = k->next)
                np++;
    if (np > RF_MAX_ITEMS) {
        free(dup);
        scene_err(L, "the states give %zu values in all; a scene has at most %u items", np,
                  (unsigned)RF_MAX_ITEMS);
        return -1;
    }
    s->pairs = malloc((np ? np : 1) * sizeof *s->pairs);
    if (s->states == NULL || s->pairs == NULL) {
        free(dup);
        scene_err_oom(L);
        return -1;
    }
    size_t i = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next, i++) {
        size_t m = scene_push(L, c->string);
        qbuf_t a;
        sstate_t *st = &s->states[s->nstates];
        st->name = c->string;
        st->first = s->npairs;
        if (dup[i]) {
            scene_err(L, "duplicate key '%s'", scene_q(&a, c->string));
        } else if (scene_want_object(L, c, "an object mapping value names to what they are "
                                     "in this state")) {
            size_t nk;
            unsigned char *kdup = scene_dup_flags(L, c, &nk);
            if (kdup == NULL) {
                scene_pop(L, m);
                break;
            }
            size_t j = 0;
            st->ok = 1;
            for (const cJSON *k = c->child; k != NULL; k = k->next, j++) {
                if (kdup[j]) {
                    scene_err_key(L, k->string, "duplicate key '%s'", scene_q(&a, k->string));
                    continue;
                }
                spair_t *p = &s->pairs[s->npairs];
                p->name = k->string;
                p->item = k;
                p->state = s->nstates;
                p->seq = s->npairs++;
            }
            free(kdup);
        }
        st->n = s->npairs - st->first;
        s->nstates++;
        scene_pop(L, m);
    }
    free(dup);

    /* the names: sort the pairs by (name, seq), keep each name's first */
    spair_t *sorted = malloc((s->npairs ? s->npairs : 1) * sizeof *sorted);
    s->names = calloc(s->npairs ? s->npairs : 1, sizeof *s->names);
    if (sorted == NULL || s->names == NULL) {
        free(sorted);
        scene_err_oom(L);
        return -1;
    }
    memcpy(sorted, s->pairs, s->npairs * sizeof *sorted);
    qsort(sorted, s->npairs, sizeof *sorted, cmp_pair);
    for (uint32_t k = 0; k < s->npairs; k++) {
        if (k == 0 || strcmp(sorted[k].name, sorted[k - 1].name) != 0) {
            sname_t *nm = &s->names[s->nnames++];
            nm->name = sorted[k].name;
            nm->first_state = sorted[k].state;
            nm->seq = sorted[k].seq;
        }
    }
    free(sorted);
    qsort(s->names, s->nnames, sizeof *s->names, cmp_seq);
    s->by_name = sorted_index(L, s->nnames, sname_name, s->names);
    s->name_list = malloc((s->nnames ? s->nnames : 1) * sizeof *s->name_list);
    if (s->by_name == NULL || s->name_list == NULL) {
        scene_err_oom(L);
        return -1;
    }
    for (uint32_t k = 0; k < s->nnames; k++)
        s->name_list[k] = s->names[k].name;
    for (uint32_t k = 0; k < s->npairs; k++)
        s->pairs[k].ni = (uint32_t)find_sorted(s->by_name, s->nnames, sname_name, s->names,
                                               s->pairs[k].name);
    s->states_by_name = sorted_index(L, s->nstates, sstate_name, s->states);
    s->state_list = malloc((s->nstates ? s->nstates : 1) * sizeof *s->state_list);
    if (s->states_by_name == NULL || s->state_list == NULL) {
        scene_err_oom(L);
        return -1;
    }
    for (uint32_t k = 0; k < s->nstates; k++)
        s->state_list[k] = s->states[k].name;
    return 0;
}

/* A state value may not also be one of `values`: one name, one value. */
static void check_clashes(loader_t *L, story_t *s)
{
    size_t n = L->nvals;
    const char **vn = malloc((n ? n : 1) * sizeof *vn);
    if (vn == NULL) {
        scene_err_oom(L);
        return;
    }
    for (size_t i = 0; i < n; i++)
        vn[i] = L->vals[i].name;
    qsort(vn, n, sizeof *vn, cmp_str);
    for (uint32_t k = 0; k < s->nnames; k++) {
        const char *name = s->names[k].name;
        if (bsearch(&name, vn, n, sizeof *vn, cmp_str) == NULL)
            continue;
        size_t m0 = scene_push(L, "states");
        size_t m = scene_push(L, s->states[s->names[k].first_state].name);
        scene_err_key(L, name, "'%s' is already defined in 'values': a state value is defined "
                      "by the states alone (rename one of them)", name);
        scene_pop(L, m);
        scene_pop(L, m0);
    }
    free(vn);
}

/* One transition: {KIND: {...}} with KIND one of trans_kinds and none of
 * the keys the states and the storyboard own. */
static const cJSON *parse_transition(loader_t *L, const cJSON *it)
{
    char list[200];
    if (!scene_want_object(L, it, "an object such as {\"spring\": {\"stiffness\": 300}}"))
        return NULL;
    const cJSON *kind = NULL;
    for (const cJSON *c = it->child; c != NULL; c = c->next) {
        qbuf_t a;
        if (scene_find_name(trans_kinds, NELEM(trans_kinds), c->string) < 0) {
            static const char *const other[] = { "physics", "decay", "keyframes", "repeat",
                                                 "sequence", "expr", "sample_path" };
            if (scene_find_name(other, NELEM(other), c->string) >= 0)
                scene_err_key(L, c->string, "a transition moves to the state's value; '%s' has "
                              "no target of its own (use %s)", c->string,
                              scene_join(list, sizeof list, trans_kinds, NELEM(trans_kinds)));
            else
                scene_err_unknown_key(L, c->string, "transition kind", trans_kinds,
                                      NELEM(trans_kinds));
        } else if (kind != NULL) {
            if (strcmp(kind->string, c->string) == 0)
                scene_err_key(L, c->string, "duplicate key '%s'", scene_q(&a, c->string));
            else
                scene_err_key(L, c->string, "a transition has exactly one kind, got '%s' and "
                              "'%s'", kind->string, c->string);
        } else {
            kind = c;
        }
    }
    if (kind == NULL) {
        if (it->child == NULL)
            scene_err(L, "missing the transition's kind: one of %s",
                      scene_join(list, sizeof list, trans_kinds, NELEM(trans_kinds)));
        return NULL;
    }
    size_t m = scene_push(L, kind->string);
    int ok = scene_want_object(L, kind, "an object (an empty one takes the kind's defaults)");
    if (ok)
        for (const cJSON *c = kind->child; c != NULL; c = c->next)
            for (size_t k = 0; k < NELEM(trans_owned); k++)
                if (strcmp(c->string, trans_owned[k].key) == 0) {
                    scene_err_key(L, c->string, "%s", trans_owned[k].why);
                    ok = 0;
                }
    scene_pop(L, m);
    return ok ? kind : NULL;
}

static void parse_transitions(loader_t *L, story_t *s, const cJSON *obj)
{
    size_t n;
    unsigned char *dup = scene_want_named(L, obj, "an object mapping \"*\" or state value "
                                          "names to transitions", &n);
    if (dup == NULL)
        return;
    const cJSON *star = NULL;
    size_t i = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next, i++) {
        qbuf_t a;
        if (dup[i]) {
            scene_err_key(L, c->string, "duplicate key '%s'", scene_q(&a, c->string));
            continue;
        }
        long ni = -1;
        if (strcmp(c->string, "*") != 0) {
            ni = find_sorted(s->by_name, s->nnames, sname_name, s->names, c->string);
            if (ni < 0) {
                const char *dym = scene_suggest(L, c->string, s->name_list, s->nnames);
                scene_err_key(L, c->string, "no state gives a value '%s'%s%s%s: a transition "
                              "is for a state value or \"*\" (every other)", scene_q(&a, c->string),
                              dym ? " (did you mean '" : "", dym ? dym : "", dym ? "'?)" : "");
                continue;
            }
        }
        size_t m = scene_push(L, c->string);
        const cJSON *kind = parse_transition(L, c);
        scene_pop(L, m);
        if (kind == NULL)
            continue;
        if (ni < 0) {
            star = kind;
        } else {
            s->names[ni].trans = c->string;
            s->names[ni].tkind = kind;
        }
    }
    free(dup);
    for (uint32_t k = 0; k < s->nnames && star != NULL; k++)
        if (s->names[k].tkind == NULL) {
            s->names[k].trans = "*";
            s->names[k].tkind = star;
        }
}

static const char *const step_keys[] = { "at", "state" };
const scene_names_t scene_story_step_names = SCENE_NAMES(step_keys, "at state");

static void parse_storyboard(loader_t *L, story_t *s, const cJSON *arr)
{
    if (!cJSON_IsArray(arr)) {
        scene_err(L, "must be an array of {\"at\": seconds, \"state\": NAME} steps, got %s",
                  scene_json_type(arr));
        return;
    }
    int n = cJSON_GetArraySize(arr);
    if (n == 0) {
        scene_err(L, "must have at least one step: the first one says where every state value "
                  "starts");
        return;
    }
    s->steps = calloc((size_t)n, sizeof *s->steps);
    if (s->steps == NULL) {
        scene_err_oom(L);
        return;
    }
    double prev = -INFINITY;
    int i = 0;
    for (const cJSON *e = arr->child; e != NULL; e = e->next, i++) {
        size_t m = scene_pushi(L, (size_t)i);
        sstep_t *st = &s->steps[s->nsteps++];
        st->state = UINT32_MAX;
        if (!scene_want_object(L, e, "an object {\"at\": seconds, \"state\": NAME}")) {
            scene_pop(L, m);
            continue;
        }
        const cJSON *f[NELEM(step_keys)];
        scene_scan_keys(L, e, step_keys, NELEM(step_keys), f);
        if (scene_num_field(L, f[0], "at", 1, R_GE0, &st->at) == F_OK) {
            if (!(st->at > prev)) {
                nbuf_t b1, b2;
                scene_err_key(L, "at", "the storyboard is in time order: must be greater than "
                              "the previous step's 'at' (%s), got %s", scene_num(&b1, prev),
                              scene_num(&b2, st->at));
            }
            prev = st->at;
        }
        qbuf_t a;
        if (f[1] == NULL) {
            scene_err(L, "missing required key 'state'");
        } else if (!cJSON_IsString(f[1])) {
            scene_err_key(L, "state", "must be the name of a state, got %s",
                          scene_json_type(f[1]));
        } else {
            long si = find_sorted(s->states_by_name, s->nstates, sstate_name, s->states,
                                  f[1]->valuestring);
            if (si < 0) {
                const char *dym = scene_suggest(L, f[1]->valuestring, s->state_list, s->nstates);
                if (dym != NULL) {
                    scene_err_key(L, "state", "unknown state '%s' (did you mean '%s'?)",
                                  scene_q(&a, f[1]->valuestring), dym);
                } else {
                    char list[600];
                    scene_err_key(L, "state", "unknown state '%s' (states: %s)",
                                  scene_q(&a, f[1]->valuestring),
                                  scene_join(list, sizeof list, s->state_list, s->nstates));
                }
            } else {
                st->state = (uint32_t)si;
            }
        }
        scene_pop(L, m);
    }
}

/* The first step's state gives every state value its start; every value
 * that changes later has a transition; the entries fit the items limit. */
static int check_story(loader_t *L, story_t *s)
{
    int before = scene_nerrors(L);
    const sstate_t *s0 = &s->states[s->steps[0].state];
    if (s0->n < s->nnames) {
        unsigned char *has = calloc(s->nnames ? s->nnames : 1, 1);
        if (has == NULL) {
            scene_err_oom(L);
            return -1;
        }
        for (uint32_t k = 0; k < s0->n; k++)
            has[s->pairs[s0->first + k].ni] = 1;
        uint32_t miss = 0;
        while (has[miss])
            miss++;
        free(has);
        const sname_t *nm = &s->names[miss];
        qbuf_t a, b;
        size_t m = scene_push(L, "storyboard");
        size_t m1 = scene_pushi(L, 0);
        scene_err_key(L, "state", "the first step's state '%s' says where every state value "
                      "starts, and gives no '%s' (state '%s' does)", scene_q(&a, s0->name),
                      nm->name, scene_q(&b, s->states[nm->first_state].name));
        scene_pop(L, m1);
        scene_pop(L, m);
        return -1;
    }
    uint64_t total = 0;
    for (uint32_t j = 0; j < s->nsteps; j++)
        total += s->states[s->steps[j].state].n;
    if (total > RF_MAX_ITEMS) {
        size_t m = scene_push(L, "storyboard");
        scene_err(L, "the storyboard makes %llu sequence entries (one per value its steps' "
                  "states give); a scene has at most %u items", (unsigned long long)total,
                  (unsigned)RF_MAX_ITEMS);
        scene_pop(L, m);
        return -1;
    }
    s->entry_steps = malloc((total ? total : 1) * sizeof *s->entry_steps);
    if (s->entry_steps == NULL) {
        scene_err_oom(L);
        return -1;
    }
    for (uint32_t j = 0; j < s->nsteps; j++) {
        const sstate_t *st = &s->states[s->steps[j].state];
        for (uint32_t k = 0; k < st->n; k++)
            s->names[s->pairs[st->first + k].ni].nentries++;
    }
    uint32_t off = 0;
    for (uint32_t k = 0; k < s->nnames; k++) {
        sname_t *nm = &s->names[k];
        nm->steps = s->entry_steps + off;
        off += nm->nentries;
        if (nm->nentries > 1 && nm->tkind == NULL) {
            uint32_t j = 1;        /* its first change */
            for (; j < s->nsteps; j++) {
                const sstate_t *st = &s->states[s->steps[j].state];
                uint32_t q = 0;
                while (q < st->n && s->pairs[st->first + q].ni != k)
                    q++;
                if (q < st->n)
                    break;
            }
            size_t m = scene_push(L, "storyboard");
            size_t m1 = scene_pushi(L, j);
            scene_err_key(L, "state", "'%s' moves here and has no transition: give "
                          "\"transitions\": {\"%s\": ...} or {\"*\": ...}", nm->name, nm->name);
            scene_pop(L, m1);
            scene_pop(L, m);
        }
        nm->nentries = 0;      /* filled again by the synthesis */
    }
    return scene_nerrors(L) > before ? -1 : 0;
}

/* {"at": at, KIND: {BODY..., "to": item}}; KIND/BODY are a transition's
 * kind member, or (kind NULL) a snap from item to item. References: the
 * file's items are not copied. */
static cJSON *make_entry(double at, const cJSON *kind, const cJSON *item)
{
    cJSON *e = cJSON_CreateObject(), *body = cJSON_CreateObject();
    if (e == NULL || body == NULL || cJSON_AddNumberToObject(e, "at", at) == NULL) {
        cJSON_Delete(e);
        cJSON_Delete(body);
        return NULL;
    }
    int ok = 1;
    if (kind == NULL) {
        ok = cJSON_AddItemReferenceToObject(body, "from", (cJSON *)item);
    } else {
        for (const cJSON *c = kind->child; c != NULL && ok; c = c->next)
            ok = cJSON_AddItemReferenceToObject(body, c->string, (cJSON *)c);
    }
    if (ok)
        ok = cJSON_AddItemReferenceToObject(body, "to", (cJSON *)item);
    if (!ok || !cJSON_AddItemToObject(e, kind != NULL ? kind->string : "snap", body)) {
        cJSON_Delete(e);
        cJSON_Delete(body);
        return NULL;
    }
    return e;
}

/* The values: {"NAME": {"sequence": [...]}} for every state value. */
static int synthesize(loader_t *L, story_t *s)
{
    cJSON *root = cJSON_CreateObject();
    cJSON **seqs = calloc(s->nnames ? s->nnames : 1, sizeof *seqs);
    s->synth = root;
    if (root == NULL || seqs == NULL) {
        free(seqs);
        scene_err_oom(L);
        return -1;
    }
    int ok = 1;
    for (uint32_t k = 0; k < s->nnames && ok; k++) {
        cJSON *v = cJSON_CreateObject();
        ok = v != NULL && cJSON_AddItemToObject(root, s->names[k].name, v);
        if (!ok) {
            cJSON_Delete(v);
            break;
        }
        seqs[k] = cJSON_AddArrayToObject(v, "sequence");
        ok = seqs[k] != NULL;
    }
    for (uint32_t j = 0; j < s->nsteps && ok; j++) {
        const sstate_t *st = &s->states[s->steps[j].state];
        for (uint32_t q = 0; q < st->n && ok; q++) {
            const spair_t *p = &s->pairs[st->first + q];
            sname_t *nm = &s->names[p->ni];
            cJSON *e = make_entry(s->steps[j].at, j == 0 ? NULL : nm->tkind, p->item);
            ok = e != NULL && cJSON_AddItemToArray(seqs[p->ni], e);
            if (!ok)
                cJSON_Delete(e);
            else
                nm->steps[nm->nentries++] = j;
        }
    }
    free(seqs);
    if (!ok) {
        scene_err_oom(L);
        return -1;
    }
    char saved[sizeof L->ptr];
    memcpy(saved, L->ptr, sizeof saved);
    snprintf(L->ptr, sizeof L->ptr, "#s");
    scene_parse_values(L, root);
    memcpy(L->ptr, saved, sizeof saved);
    return 0;
}

void scene_parse_story(loader_t *L, const cJSON *states, const cJSON *transitions,
                       const cJSON *storyboard)
{
    if (states == NULL && transitions == NULL && storyboard == NULL)
        return;
    if (states == NULL) {
        scene_err_key(L, storyboard != NULL ? "storyboard" : "transitions",
                      "needs 'states': the named sets of values the storyboard moves between");
        return;
    }
    if (storyboard == NULL) {
        scene_err_key(L, "states", "needs a 'storyboard' that says when each state is entered "
                      "([{\"at\": 0, \"state\": NAME}, ...])");
        return;
    }
    story_t *s = calloc(1, sizeof *s);
    if (s == NULL) {
        scene_err_oom(L);
        return;
    }
    L->story = s;
    int before = scene_nerrors(L);
    size_t m = scene_push(L, "states");
    int rc = parse_states(L, s, states);
    scene_pop(L, m);
    if (rc != 0)
        return;
    check_clashes(L, s);
    if (transitions != NULL) {
        m = scene_push(L, "transitions");
        parse_transitions(L, s, transitions);
        scene_pop(L, m);
    }
    m = scene_push(L, "storyboard");
    parse_storyboard(L, s, storyboard);
    scene_pop(L, m);
    /* the sequences need a whole story (other parts of the file may have
     * errors: the state values are still checked) */
    if (scene_nerrors(L) > before || check_story(L, s) != 0)
        return;
    synthesize(L, s);
}

/* ------------------------------------------------------------------ */
/* Messages: "#s/NAME/sequence/E/KIND/KEY..." -> the user's key         */

/* Reads one pointer segment of p (unescaped) into buf; returns what
 * follows it (at its '/' or the end). */
static const char *segment(const char *p, char *buf, size_t cap)
{
    size_t o = 0;
    while (*p != '\0' && *p != '/') {
        char c = *p++;
        if (c == '~' && (*p == '0' || *p == '1'))
            c = *p++ == '0' ? '~' : '/';
        if (o + 1 < cap)
            buf[o++] = c;
    }
    buf[o] = '\0';
    return p;
}

const char *scene_story_ptr(const loader_t *L, const char *ptr, char *buf, size_t cap)
{
    const story_t *s = L->story;
    if (ptr[0] != '#' || s == NULL || strncmp(ptr, "#s", 2) != 0)
        return ptr;
    char seg[256];
    const char *p = ptr + 2;
    buf[0] = '\0';
    if (*p == '\0') {
        rf_pointer_push(buf, cap, "states");
        return buf;
    }
    p = segment(p + 1, seg, sizeof seg);
    long ni = find_sorted(s->by_name, s->nnames, sname_name, s->names, seg);
    if (ni < 0) {
        rf_pointer_push(buf, cap, "states");
        return buf;
    }
    const sname_t *nm = &s->names[ni];
    /* the value itself: where it is first given */
    rf_pointer_push(buf, cap, "states");
    rf_pointer_push(buf, cap, s->states[nm->first_state].name);
    rf_pointer_push(buf, cap, nm->name);
    if (strncmp(p, "/sequence/", 10) != 0)
        return buf;
    char *end;
    unsigned long e = strtoul(p + 10, &end, 10);
    if (end == p + 10 || e >= nm->nentries)
        return buf;
    p = end;
    uint32_t j = nm->steps[e];
    const sstep_t *st = &s->steps[j];
    buf[0] = '\0';
    if (*p == '\0' || strcmp(p, "/at") == 0) {
        rf_pointer_push(buf, cap, "storyboard");
        rf_pointer_push_index(buf, cap, j);
        if (*p != '\0')
            rf_pointer_push(buf, cap, "at");
        return buf;
    }
    p = segment(p + 1, seg, sizeof seg);          /* the kind */
    char key[256];
    const char *rest = *p == '/' ? segment(p + 1, key, sizeof key) : (key[0] = '\0', p);
    if (e == 0 || strcmp(key, "to") == 0 || strcmp(key, "from") == 0) {
        /* the state's value (a component of it: the rest of the pointer) */
        rf_pointer_push(buf, cap, "states");
        rf_pointer_push(buf, cap, s->states[st->state].name);
        rf_pointer_push(buf, cap, nm->name);
        size_t o = strlen(buf);
        snprintf(buf + o, cap - o, "%s", strcmp(key, "to") == 0 || strcmp(key, "from") == 0
                                          ? rest : "");
        return buf;
    }
    rf_pointer_push(buf, cap, "transitions");
    rf_pointer_push(buf, cap, nm->trans != NULL ? nm->trans : "*");
    rf_pointer_push(buf, cap, seg);
    if (key[0] != '\0') {
        rf_pointer_push(buf, cap, key);
        size_t o = strlen(buf);
        snprintf(buf + o, cap - o, "%s", rest);
    }
    return buf;
}

/* ------------------------------------------------------------------ */
/* After building: each step's completion (seed 003's TransitionCore)   */

int scene_story_finish(loader_t *L)
{
    story_t *s = L->story;
    if (s == NULL || s->nsteps == 0)
        return 0;
    rf_story_step_t *out = scene_aalloc(L, s->nsteps, sizeof *out);
    uint32_t *cnt = calloc(s->nnames ? s->nnames : 1, sizeof *cnt);
    if (out == NULL || cnt == NULL) {
        free(cnt);
        scene_err_oom(L);
        return -1;
    }
    const rf_values_t *vs = &L->sc->values;
    for (uint32_t j = 0; j < s->nsteps; j++) {
        const sstep_t *st = &s->steps[j];
        const sstate_t *ss = &s->states[st->state];
        rf_story_step_t *o = &out[j];
        o->at = st->at;
        o->state = rf_arena_strdup(L->arena, ss->name);
        if (o->state == NULL) {
            free(cnt);
            scene_err_oom(L);
            return -1;
        }
        o->complete = st->at;
        o->slowest = NULL;
        o->nchannels = ss->n;
        for (uint32_t q = 0; q < ss->n; q++) {
            uint32_t ni = s->pairs[ss->first + q].ni;
            const rf_value_t *v = rf_values_find(vs, s->names[ni].name);
            uint32_t e = cnt[ni]++;
            if (v == NULL || e >= v->track.n)
                continue;
            /* a vector or color value settles with its slowest component */
            double done = v->track.segs[e].settle;
            for (uint32_t c = 1; v->comps != NULL && c < v->nout; c++)
                if (e < v->comps[c].n && v->comps[c].segs[e].settle > done)
                    done = v->comps[c].segs[e].settle;
            if (o->slowest == NULL || done > o->complete) {
                o->complete = done;
                o->slowest = v->name;
            }
        }
        if (o->slowest != NULL && o->complete < st->at)
            o->complete = st->at;
        o->interrupted = j + 1 < s->nsteps && o->complete > s->steps[j + 1].at;
    }
    free(cnt);
    L->sc->steps = out;
    L->sc->nsteps = s->nsteps;

    /* where each state value is given first, for messages after load */
    const char **ptrs = scene_aalloc(L, s->nnames, sizeof *ptrs);
    const rf_value_t *v0 = s->nnames > 0 ? rf_values_find(vs, s->names[0].name) : NULL;
    if (ptrs == NULL)
        return -1;
    for (uint32_t k = 0; k < s->nnames && v0 != NULL; k++) {
        char buf[sizeof L->ptr] = "";
        if (rf_values_find(vs, s->names[k].name) != v0 + k)
            return 0;          /* not contiguous: never so, but then no pointers */
        rf_pointer_push(buf, sizeof buf, "states");
        rf_pointer_push(buf, sizeof buf, s->states[s->names[k].first_state].name);
        rf_pointer_push(buf, sizeof buf, s->names[k].name);
        ptrs[k] = rf_arena_strdup(L->arena, buf);
        if (ptrs[k] == NULL) {
            scene_err_oom(L);
            return -1;
        }
    }
    if (v0 != NULL) {
        L->sc->story_first = (uint32_t)(v0 - vs->values);
        L->sc->nstory = s->nnames;
        L->sc->story_ptrs = ptrs;
    }
    return 0;
}
