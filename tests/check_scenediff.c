/* check_scenediff.c - what changed between two scene texts (scene-diff.h),
 * and where each value of a loaded scene comes from (scene.h's value
 * sources, which check's causes match the edits with).
 *
 * Expected edits are written by hand from the two texts of each case: the
 * pointer (RFC 6901), the old and new JSON text; hostile texts (not JSON,
 * too deep, too large, a NUL, huge objects) must give one line, never a
 * crash, and objects of 100,000 keys must compare in O(n log n).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "scene-diff.h"
#include "scene.h"

/* diff OLD NEW into d; asserts it succeeded. */
static void diff_ok(const char *a, const char *b, rf_scene_diff_t *d)
{
    char err[512] = "";
    int rc = rf_scene_diff(a, strlen(a), "old.json", b, strlen(b), "new.json", d, err, sizeof err);
    ck_assert_msg(rc == 0, "diff failed: %s", err);
}

/* The edit i of d formatted. */
static const char *edit_line(const rf_scene_diff_t *d, size_t i)
{
    static char buf[1024];
    ck_assert_uint_lt(i, d->n);
    rf_scene_edit_format(buf, sizeof buf, &d->edits[i]);
    return buf;
}

START_TEST(test_same)
{
    rf_scene_diff_t d;
    /* key order, spacing, number spelling and a byte order mark do not matter */
    diff_ok("{\"a\": 1, \"b\": [1, 2.0, {\"c\": \"x\"}], \"d\": true, \"e\": null}",
            "\xEF\xBB\xBF{ \"b\":[1,2,{\"c\":\"x\"}],\n\"a\":1.0e0,\"e\":null,\"d\":true }", &d);
    ck_assert_uint_eq(d.total, 0);
    ck_assert_uint_eq(d.n, 0);
    rf_scene_diff_free(&d);
}
END_TEST

START_TEST(test_changed)
{
    rf_scene_diff_t d;
    diff_ok("{\"values\": {\"card_x\": {\"spring\": {\"to\": 40, \"stiffness\": 300}}},"
            " \"layers\": [{\"fill\": \"#ffb000\", \"x\": 1}]}",
            "{\"values\": {\"card_x\": {\"spring\": {\"to\": 40, \"stiffness\": 280}}},"
            " \"layers\": [{\"fill\": \"#00b0ff\", \"x\": 1}]}", &d);
    ck_assert_uint_eq(d.total, 2);
    ck_assert_str_eq(edit_line(&d, 0), "/values/card_x/spring/stiffness 300 -> 280");
    ck_assert_str_eq(edit_line(&d, 1), "/layers/0/fill \"#ffb000\" -> \"#00b0ff\"");
    ck_assert_int_eq(d.edits[0].kind, RF_EDIT_CHANGED);
    rf_scene_diff_free(&d);
}
END_TEST

START_TEST(test_added_removed)
{
    rf_scene_diff_t d;
    /* removals in the old text's order, then additions in the new one's;
     * arrays index by index, the extra entries added or removed; a type
     * change is one edit */
    diff_ok("{\"a\": 1, \"b\": [1, 2, 3], \"c\": {\"k\": 1}, \"t\": 1}",
            "{\"z\": [true], \"b\": [1, 5], \"a\": 1, \"t\": \"1\", \"y\": null}", &d);
    ck_assert_uint_eq(d.total, 6);
    ck_assert_str_eq(edit_line(&d, 0), "/b/1 2 -> 5");
    ck_assert_str_eq(edit_line(&d, 1), "/b/2 removed (was 3)");
    ck_assert_str_eq(edit_line(&d, 2), "/c removed (was {\"k\":1})");
    ck_assert_str_eq(edit_line(&d, 3), "/t 1 -> \"1\"");
    ck_assert_str_eq(edit_line(&d, 4), "/z added: [true]");
    ck_assert_str_eq(edit_line(&d, 5), "/y added: null");
    ck_assert_int_eq(d.edits[4].kind, RF_EDIT_ADDED);
    ck_assert_ptr_null(d.edits[4].was);
    ck_assert_ptr_null(d.edits[1].now);
    rf_scene_diff_free(&d);

    diff_ok("[1]", "{}", &d);
    ck_assert_str_eq(edit_line(&d, 0), "(the whole file) [1] -> {}");
    rf_scene_diff_free(&d);
}
END_TEST

START_TEST(test_pointer_escapes)
{
    rf_scene_diff_t d;
    /* RFC 6901: '~' is ~0, '/' is ~1; a control character in a key never
     * reaches a terminal raw, in the pointer or in the text */
    diff_ok("{\"a/b\": {\"c~d\": 1}, \"\\u001b[2J\": \"\\u001b\"}",
            "{\"a/b\": {\"c~d\": 2}, \"\\u001b[2J\": \"x\"}", &d);
    ck_assert_uint_eq(d.total, 2);
    ck_assert_str_eq(edit_line(&d, 0), "/a~1b/c~0d 1 -> 2");
    ck_assert_str_eq(edit_line(&d, 1), "/\\u001B[2J \"\\u001b\" -> \"x\"");
    rf_scene_diff_free(&d);
}
END_TEST

START_TEST(test_cut)
{
    rf_scene_diff_t d;
    char a[400], b[64];
    /* a long value is cut to RF_SCENE_EDIT_TEXT bytes with "...", never
     * inside a UTF-8 character (each "é" is two bytes) */
    strcpy(a, "{\"s\": \"");
    for (int i = 0; i < 100; i++)
        strcat(a, "\xC3\xA9");
    strcat(a, "\"}");
    strcpy(b, "{\"s\": 1}");
    diff_ok(a, b, &d);
    const char *was = d.edits[0].was;
    size_t n = strlen(was);
    ck_assert_uint_le(n, RF_SCENE_EDIT_TEXT - 1);
    ck_assert_str_eq(was + n - 3, "...");
    /* the quote, then whole two-byte characters */
    ck_assert_uint_eq((n - 3 - 1) % 2, 0);
    rf_scene_diff_free(&d);
}
END_TEST

START_TEST(test_hostile)
{
    rf_scene_diff_t d;
    char err[512];
    static const struct {
        const char *text;
        const char *err;
    } cases[] = {
        { "not json", "old.json:1:1: not a scene: invalid literal 'not' (strings need double quotes)" },
        { "", "old.json:1:1: not a scene: empty file: expected a JSON object" },
        { "{\"a\": 1,}", "old.json:1:8: not a scene: trailing comma before '}'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        int rc = rf_scene_diff(cases[i].text, strlen(cases[i].text), "old.json", "{}", 2,
                               "new.json", &d, err, sizeof err);
        ck_assert_int_eq(rc, -1);
        ck_assert_uint_eq(d.n, 0);
        ck_assert_str_eq(err, cases[i].err);
        rf_scene_diff_free(&d);
    }
    /* nested past the loader's limit: refused before cJSON recurses */
    size_t deep = 100000;
    char *t = malloc(deep);
    ck_assert_ptr_nonnull(t);
    memset(t, '[', deep);
    ck_assert_int_eq(rf_scene_diff(t, deep, "old.json", "{}", 2, "new.json", &d, err,
                                   sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "nesting too deep"));
    /* a NUL byte */
    ck_assert_int_eq(rf_scene_diff("{\"a\":\"\0\"}", 9, "old.json", "{}", 2, "new.json", &d,
                                   err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "old.json:1:7:"));
    /* larger than a scene may be: refused by its length, unread */
    ck_assert_int_eq(rf_scene_diff(t, (size_t)RF_MAX_FILE_BYTES + 1, "old.json", "{}", 2,
                                   "new.json", &d, err, sizeof err), -1);
    ck_assert_str_eq(err, "old.json: larger than 64 MiB (67108865 bytes), not a scene");
    free(t);
}
END_TEST

START_TEST(test_many)
{
    rf_scene_diff_t d;
    /* 100,000 keys in each object, every value changed, in reverse order:
     * RF_SCENE_DIFF_MAX edits kept, all counted (sorted keys: no n^2) */
    size_t n = 100000, cap = n * 24 + 16;
    char *a = malloc(cap), *b = malloc(cap);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    size_t la = 0, lb = 0;
    la += (size_t)sprintf(a + la, "{");
    lb += (size_t)sprintf(b + lb, "{");
    for (size_t i = 0; i < n; i++) {
        la += (size_t)sprintf(a + la, "%s\"k%zu\":%zu", i ? "," : "", i, i);
        lb += (size_t)sprintf(b + lb, "%s\"k%zu\":%zu", i ? "," : "", n - 1 - i, n - i);
    }
    la += (size_t)sprintf(a + la, "}");
    lb += (size_t)sprintf(b + lb, "}");
    char err[256];
    ck_assert_int_eq(rf_scene_diff(a, la, "a", b, lb, "b", &d, err, sizeof err), 0);
    ck_assert_uint_eq(d.total, n);
    ck_assert_uint_eq(d.n, RF_SCENE_DIFF_MAX);
    ck_assert_str_eq(edit_line(&d, 0), "/k0 0 -> 1");
    rf_scene_diff_free(&d);
    free(a);
    free(b);
}
END_TEST

START_TEST(test_value_sources)
{
    /* the loader's value sources: named values at /values/NAME, inline ones
     * where they are written, with what each reads */
    static const char s[] =
        "{ \"runeframe\": 1, \"canvas\": { \"width\": 8, \"height\": 8 },\n"
        "  \"timeline\": { \"duration\": 1 },\n"
        "  \"values\": { \"a\": 1, \"b\": { \"expr\": \"a * 2\" } },\n"
        "  \"layers\": [ { \"type\": \"rect\", \"x\": \"b\", \"y\": 0, \"width\": 2, \"height\": 2 },\n"
        "    { \"type\": \"rect\", \"x\": 0, \"y\": 0, \"width\": 2, \"height\": 2,\n"
        "      \"rotate\": { \"expr\": \"b + t\" } } ] }\n";
    rf_diag_t diag;
    rf_scene_t *sc = rf_scene_load_buffer("s.json", s, sizeof s - 1, &diag);
    ck_assert_ptr_nonnull(sc);
    ck_assert_uint_eq(sc->values.n, 3);
    ck_assert_uint_eq(sc->values.nnamed, 2);
    ck_assert_ptr_nonnull(sc->value_srcs);
    ck_assert_str_eq(sc->value_srcs[0].ptr, "/values/a");
    ck_assert_str_eq(sc->value_srcs[1].ptr, "/values/b");
    ck_assert_str_eq(sc->value_srcs[2].ptr, "/layers/1/rotate");
    ck_assert_uint_eq(sc->value_srcs[0].ndeps, 0);
    ck_assert_uint_eq(sc->value_srcs[1].ndeps, 1);
    ck_assert_uint_eq(sc->value_srcs[1].deps[0], 0);
    ck_assert_uint_eq(sc->value_srcs[2].ndeps, 1);
    ck_assert_uint_eq(sc->value_srcs[2].deps[0], 1);
    /* the text as loaded */
    ck_assert_uint_eq(sc->source_len, sizeof s - 1);
    ck_assert_mem_eq(sc->source, s, sizeof s - 1);
    rf_scene_destroy(sc);
}
END_TEST

static Suite *scenediff_suite(void)
{
    Suite *s = suite_create("scene-diff");
    TCase *tc = tcase_create("diff");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_same);
    tcase_add_test(tc, test_changed);
    tcase_add_test(tc, test_added_removed);
    tcase_add_test(tc, test_pointer_escapes);
    tcase_add_test(tc, test_cut);
    tcase_add_test(tc, test_hostile);
    tcase_add_test(tc, test_many);
    tcase_add_test(tc, test_value_sources);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(scenediff_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
