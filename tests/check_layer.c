/* check_layer.c - the layer-type table (layer.h): every row complete and
 * consistent, the defaults of scene-v1.md "Layers", and the slot visitor
 * reaching every property, counted by hand from the struct. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "layer.h"

static const rf_layer_key_t *find_key(const rf_layer_class_t *c, const char *name)
{
    for (uint32_t i = 0; i < rf_layer_ncommon_keys; i++)
        if (strcmp(rf_layer_common_keys[i].name, name) == 0)
            return &rf_layer_common_keys[i];
    for (uint32_t i = 0; i < c->nkeys; i++)
        if (strcmp(c->keys[i].name, name) == 0)
            return &c->keys[i];
    return NULL;
}

START_TEST(test_rows_complete)
{
    for (int t = 0; t < RF_LAYER_NTYPES; t++) {
        const rf_layer_class_t *c = rf_layer_classes[t];
        ck_assert_ptr_nonnull(c);
        ck_assert_ptr_nonnull(c->name);
        ck_assert_int_eq(rf_layer_type_find(c->name), t);
        ck_assert_ptr_nonnull(c->needs);
        ck_assert_uint_le(rf_layer_ncommon_keys + c->nkeys, RF_LAYER_MAX_KEYS);
        int children = 0;
        for (uint32_t i = 0; i < c->nkeys; i++)
            children += c->keys[i].kind == RF_KEY_CHILDREN;
        if (c->flags & RF_CLASS_CHILDREN) {
            ck_assert_int_eq(children, 1);
            ck_assert_ptr_null(c->draw); /* the renderer draws the children */
        } else {
            ck_assert_int_eq(children, 0);
            /* a box from the slots, or from the state's layout */
            ck_assert_int_eq(c->box != NULL, c->layout == NULL);
            ck_assert_int_eq(c->state_create != NULL, c->state_destroy != NULL);
            if (c->layout != NULL)
                ck_assert_ptr_nonnull(c->state_create);
            /* a type that paints its own pixels (an image) is no path */
            int path = !(c->flags & RF_CLASS_PIXELS);
            ck_assert_int_eq(c->shape != NULL, path);
            ck_assert_int_eq(c->path != NULL, path);
            ck_assert_int_eq(c->huge_path != NULL, path);
            ck_assert_ptr_nonnull(c->draw);
        }
        /* a type with nothing required would let a misspelt key pass */
        int required = 0;
        for (uint32_t i = 0; i < c->nkeys; i++)
            required += (c->keys[i].flags & RF_KEY_REQUIRED) != 0;
        ck_assert_int_ge(required, 1);
    }
    ck_assert_int_eq(rf_layer_type_find("txt"), -1);
    ck_assert_int_eq(rf_layer_type_find(""), -1);
}
END_TEST

/* Key names unique within what one layer may have; offsets inside the
 * struct; pairs name their second member; messages' shapes present. */
START_TEST(test_keys_consistent)
{
    for (int t = 0; t < RF_LAYER_NTYPES; t++) {
        const rf_layer_class_t *c = rf_layer_classes[t];
        const rf_layer_key_t *rows[RF_LAYER_MAX_KEYS];
        uint32_t n = 0;
        for (uint32_t i = 0; i < rf_layer_ncommon_keys; i++)
            rows[n++] = &rf_layer_common_keys[i];
        for (uint32_t i = 0; i < c->nkeys; i++)
            rows[n++] = &c->keys[i];
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t j = i + 1; j < n; j++)
                ck_assert_str_ne(rows[i]->name, rows[j]->name);
            ck_assert_uint_lt(rows[i]->at, sizeof(rf_layer_t));
            if (rows[i]->kind == RF_KEY_DASH) {
                ck_assert_uint_lt(rows[i]->at2, sizeof(rf_layer_t));
                ck_assert_uint_ne(rows[i]->at2, rows[i]->at);
            }
            if (rows[i]->kind == RF_KEY_PAIR || rows[i]->kind == RF_KEY_SCALE) {
                ck_assert_uint_lt(rows[i]->at2, sizeof(rf_layer_t));
                ck_assert_uint_ne(rows[i]->at2, rows[i]->at);
                ck_assert_ptr_nonnull(rows[i]->shape);
            }
        }
    }
    /* the common block: the order the unknown-key message lists */
    static const char *const common[] = { "type", "id", "x", "y", "rotate", "scale", "anchor",
                                          "opacity", "fill", "stroke", "stroke_width",
                                          "line_cap", "line_join", "miter_limit", "dash",
                                          "dash_offset", "follow", "orient", "blur", "shadow",
                                          "blend", "pixel_snap" };
    ck_assert_uint_eq(rf_layer_ncommon_keys, sizeof common / sizeof common[0]);
    for (uint32_t i = 0; i < rf_layer_ncommon_keys; i++)
        ck_assert_str_eq(rf_layer_common_keys[i].name, common[i]);
}
END_TEST

#define CK_CONST(p, v)                                                                   \
    do {                                                                                 \
        ck_assert_uint_eq((p).slot, RF_PROP_CONST);                                      \
        ck_assert_double_eq((p).k, (v));                                                 \
    } while (0)

/* scene-v1.md "Layers": the defaults a layer starts from. */
START_TEST(test_defaults)
{
    rf_layer_t L;
    for (int t = 0; t < RF_LAYER_NTYPES; t++) {
        memset(&L, 0x5A, sizeof L);
        rf_layer_defaults(&L, t);
        ck_assert_int_eq(L.type, t);
        ck_assert_ptr_null(L.id);
        ck_assert_int_eq(L.orient, 0);
        CK_CONST(L.x, 0);
        CK_CONST(L.y, 0);
        CK_CONST(L.rotate, 0);
        CK_CONST(L.scale_x, 1);
        CK_CONST(L.scale_y, 1);
        CK_CONST(L.anchor_x, 0.5);
        CK_CONST(L.anchor_y, 0.5);
        CK_CONST(L.opacity, 1);
        CK_CONST(L.stroke_width, 1);
        /* scene-v1.md "Strokes": butt caps, miter joins, miter_limit 10,
         * no dash, dash_offset 0 */
        ck_assert_int_eq(L.line_cap, RF_CAP_BUTT);
        ck_assert_int_eq(L.line_join, RF_JOIN_MITER);
        CK_CONST(L.miter_limit, 10);
        ck_assert_ptr_null(L.dash);
        ck_assert_uint_eq(L.ndash, 0);
        CK_CONST(L.dash_offset, 0);
        if (rf_layer_classes[t]->flags & RF_CLASS_INK) { /* text: fill #000000 */
            ck_assert_int_eq(L.fill.kind, RF_PAINT_SOLID);
            ck_assert(L.fill.color.r == 0 && L.fill.color.g == 0 && L.fill.color.b == 0 &&
                      L.fill.color.a == 1);
        } else {
            ck_assert_int_eq(L.fill.kind, RF_PAINT_NONE);
        }
        ck_assert_int_eq(L.stroke.kind, RF_PAINT_NONE);
        CK_CONST(L.fill.by, 0);
        CK_CONST(L.stroke.radius, 0);
        ck_assert_uint_eq(L.follow_slot, RF_PROP_CONST);
    }
    rf_layer_defaults(&L, RF_LAYER_RECT);
    CK_CONST(L.u.rect.width, 0);
    CK_CONST(L.u.rect.height, 0);
    CK_CONST(L.u.rect.radius, 0);
    rf_layer_defaults(&L, RF_LAYER_PATH);
    CK_CONST(L.u.path.trim0, 0);
    CK_CONST(L.u.path.trim1, 1);
    ck_assert_ptr_null(L.u.path.src.path);
    rf_layer_defaults(&L, RF_LAYER_GROUP);
    ck_assert_ptr_null(L.u.group.children);
    ck_assert_uint_eq(L.u.group.nchildren, 0);
    /* pivot not given: NaN (the anchor point of the children's box at t = 0) */
    ck_assert_uint_eq(L.u.group.pivot_x.slot, RF_PROP_CONST);
    ck_assert(isnan(L.u.group.pivot_x.k) && isnan(L.u.group.pivot_y.k));
    /* scene-v1.md "Text": size 16, letter_spacing 0, line_height 1.25,
     * no width, align left, reveal 1, no per_glyph */
    rf_layer_defaults(&L, RF_LAYER_TEXT);
    CK_CONST(L.u.text.size, 16);
    CK_CONST(L.u.text.letter_spacing, 0);
    CK_CONST(L.u.text.line_height, 1.25);
    ck_assert(L.u.text.width.slot == RF_PROP_CONST && isinf(L.u.text.width.k));
    CK_CONST(L.u.text.reveal, 1);
    ck_assert_int_eq(L.u.text.align, RF_ALIGN_LEFT);
    ck_assert_ptr_null(L.u.text.per_glyph);
    ck_assert_ptr_null(L.u.text.font);
    ck_assert_uint_eq(L.u.text.content.npieces, 0);
    /* an unknown type (-1) is laid out as a rect until its error stops the load */
    rf_layer_defaults(&L, -1);
    ck_assert_int_eq(L.type, RF_LAYER_RECT);
}
END_TEST

static int count_slot(const rf_layer_key_t *key, uint32_t *slot, void *ctx)
{
    (void)key;
    (void)slot;
    (*(int *)ctx)++;
    return 0;
}

static int stop_at_follow(const rf_layer_key_t *key, uint32_t *slot, void *ctx)
{
    (void)slot;
    (*(int *)ctx)++;
    return key->kind == RF_KEY_FOLLOW ? 7 : 0;
}

/* Counted from struct rf_layer by hand: x, y, rotate, scale_x, scale_y,
 * anchor_x, anchor_y, opacity, stroke_width (9), by, p0[2], p1[2], radius
 * per paint (2 x 6), miter_limit, dash_offset (2; dash is empty by
 * default), follow_slot (1), blur (1): 25, plus the type's own props. */
START_TEST(test_visitor_reaches_every_slot)
{
    static const int own[RF_LAYER_NTYPES] = {
        [RF_LAYER_RECT] = 3, [RF_LAYER_CIRCLE] = 1, [RF_LAYER_ELLIPSE] = 2,
        [RF_LAYER_LINE] = 4, [RF_LAYER_PATH] = 3, [RF_LAYER_GROUP] = 2,
        /* path: trim's two and the morph's by; text: size, letter_spacing, line_height, width, reveal; its
         * template, variations and per_glyph are empty by default */
        [RF_LAYER_TEXT] = 5,
        /* image: width, height */
        [RF_LAYER_IMAGE] = 2,
    };
    rf_layer_t L;
    for (int t = 0; t < RF_LAYER_NTYPES; t++) {
        int n = 0;
        rf_layer_defaults(&L, t);
        ck_assert_int_eq(rf_layer_each_slot(&L, count_slot, &n), 0);
        ck_assert_int_eq(n, 25 + own[t]);
    }
    /* a nonzero return stops the walk and is returned: follow is the
     * 24th slot of the common block (9 + 12 + 2 before it) */
    int n = 0;
    rf_layer_defaults(&L, RF_LAYER_RECT);
    ck_assert_int_eq(rf_layer_each_slot(&L, stop_at_follow, &n), 7);
    ck_assert_int_eq(n, 24);
    /* a dash's lengths are slots too, in the row's place */
    rf_prop_t dash[3] = { { RF_PROP_CONST, 1 }, { RF_PROP_CONST, 2 }, { RF_PROP_CONST, 3 } };
    L.dash = dash;
    L.ndash = 3;
    n = 0;
    ck_assert_int_eq(rf_layer_each_slot(&L, stop_at_follow, &n), 7);
    ck_assert_int_eq(n, 27);
}
END_TEST

/* A value read anywhere makes a layer (and its group) not static; only the
 * placement keys (RF_KEY_OWN) count for keys_static(OWN). */
START_TEST(test_static)
{
    rf_layer_t kids[2], g;
    rf_layer_defaults(&kids[0], RF_LAYER_RECT);
    rf_layer_defaults(&kids[1], RF_LAYER_LINE);
    rf_layer_defaults(&g, RF_LAYER_GROUP);
    g.u.group.children = kids;
    g.u.group.nchildren = 2;
    ck_assert(rf_layer_is_static(&g));
    kids[1].u.line.y2.slot = 4;
    ck_assert(!rf_layer_is_static(&kids[1]));
    ck_assert(!rf_layer_is_static(&g));
    ck_assert(rf_layer_keys_static(&g, RF_KEY_OWN));
    kids[1].u.line.y2.slot = RF_PROP_CONST;
    kids[0].stroke.p1[1].slot = 2;  /* deep inside a paint */
    ck_assert(!rf_layer_is_static(&g));
    kids[0].stroke.p1[1].slot = RF_PROP_CONST;
    g.follow_slot = 0;
    ck_assert(!rf_layer_keys_static(&g, RF_KEY_OWN));
    g.follow_slot = RF_PROP_CONST;
    g.stroke_width.slot = 1;        /* drawn, not placement */
    ck_assert(rf_layer_keys_static(&g, RF_KEY_OWN));
    ck_assert(!rf_layer_keys_static(&g, 0));
    uint32_t n;
    ck_assert_ptr_eq(rf_layer_children(&g, &n), kids);
    ck_assert_uint_eq(n, 2);
    ck_assert_ptr_null(rf_layer_children(&kids[0], &n));
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_nonnull(find_key(rf_layer_classes[RF_LAYER_PATH], "trim"));
    ck_assert_ptr_null(find_key(rf_layer_classes[RF_LAYER_CIRCLE], "trim"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_rows_complete);
    tcase_add_test(tc, test_keys_consistent);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_visitor_reaches_every_slot);
    tcase_add_test(tc, test_static);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
