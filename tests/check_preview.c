/* check_preview.c - the preview's pure parts: the query rules
 * (preview-query.h) with every message written out by hand, and the file
 * watch (preview-watch.h) on real files: written in place, replaced by a
 * rename, deleted, untouched, with inotify and by polling alone; and the
 * loader's list of the asset files it read, which the preview follows.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mkdtemp */
#endif
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "preview-query.h"
#include "preview-watch.h"
#include "scene.h"

/* parse RAW then finish with nframes; returns 0 or -1, message in err */
static int parse(const char *raw, size_t len, long nframes, rf_pvq_t *q, char *err)
{
    rf_pvq_init(q);
    err[0] = '\0';
    if (rf_pvq_parse(raw, len, q, err, 256) != 0)
        return -1;
    return rf_pvq_finish(q, nframes, err, 256);
}

#define OK(raw) parse((raw), strlen(raw), 61, &q, err)

static void expect_error(const char *raw, size_t len, const char *msg)
{
    rf_pvq_t q;
    char err[256];

    ck_assert_int_eq(parse(raw, len, 61, &q, err), -1);
    ck_assert_str_eq(err, msg);
}
#define BAD(raw, msg) expect_error((raw), strlen(raw), (msg))

START_TEST(test_query_good)
{
    rf_pvq_t q;
    char err[256];

    ck_assert_int_eq(OK("t=1.25"), 0);
    ck_assert(q.has_t && !q.has_frame && q.t == 1.25);
    ck_assert_int_eq(OK("frame=60&g=7"), 0);
    ck_assert(q.has_frame && q.frame == 60 && q.has_g && !q.has_t);
    ck_assert_int_eq(OK("g=0&t=0"), 0);
    ck_assert(q.t == 0 && !signbit(q.t));
    ck_assert_int_eq(OK("t=1e6"), 0);           /* the bound itself */
    ck_assert(q.t == 1e6);
    ck_assert_int_eq(OK("t=%31.5"), 0);         /* %31 is '1' */
    ck_assert(q.t == 1.5);
    ck_assert_int_eq(OK("&&t=2&"), 0);          /* empty parts are nothing */
    ck_assert(q.t == 2);
    ck_assert_int_eq(OK("frame=000000000000000007"), 0);
    ck_assert(q.frame == 7);
    ck_assert_int_eq(OK("t=-0"), 0);            /* -0 >= 0 */
    /* a value of exactly RF_PVQ_MAX_FIELD bytes */
    ck_assert_int_eq(OK("t=0000000000000000000000000000000000000000000000000000000000000001"), 0);
    ck_assert(q.t == 1);
}
END_TEST

START_TEST(test_query_bad)
{
    BAD("t=1e300", "t must be a number of seconds in [0, 1000000], got '1e300'");
    BAD("t=nan", "t must be a number of seconds in [0, 1000000], got 'nan'");
    BAD("t=inf", "t must be a number of seconds in [0, 1000000], got 'inf'");
    BAD("t=-1", "t must be a number of seconds in [0, 1000000], got '-1'");
    BAD("t=1000000.0001", "t must be a number of seconds in [0, 1000000], got '1000000.0001'");
    BAD("t=+1", "t must be a number of seconds in [0, 1000000], got ' 1'");
    BAD("t=1x", "t must be a number of seconds in [0, 1000000], got '1x'");
    BAD("t=", "'t' needs a value");
    BAD("t", "'t' needs a value");
    BAD("t=1&t=1", "'t' is given twice");
    BAD("frame=1&frame=1", "'frame' is given twice");
    BAD("frame=61", "frame 61: N must be < 61 (the scene has 61 frames)");
    BAD("frame=-1", "frame must be a frame index (an integer >= 0), got '-1'");
    BAD("frame=1e3", "frame must be a frame index (an integer >= 0), got '1e3'");
    BAD("frame=1234567890123456789", "frame must be a frame index (an integer >= 0), "
                                     "got '1234567890123456789'");
    BAD("g=x&t=1", "g must be an integer >= 0, got 'x'");
    BAD("t=1&frame=2", "t and frame cannot be combined");
    BAD("", "missing ?t=T (seconds) or ?frame=N");
    BAD("g=3", "missing ?t=T (seconds) or ?frame=N");
    BAD("file=/etc/passwd", "unknown query key 'file' (t, frame or g)");
    BAD("T=1", "unknown query key 'T' (t, frame or g)");
    BAD("t%3d1", "unknown query key 't=1' (t, frame or g)");
    BAD("%e2%80%a6=1", "unknown query key '?\?\?' (t, frame or g)");  /* no trigraph */
    BAD("t=%", "a '%' in the query is not followed by two hex digits");
    BAD("t=%4", "a '%' in the query is not followed by two hex digits");
    BAD("t=%zz", "a '%' in the query is not followed by two hex digits");
    BAD("t=1%00", "the query holds a NUL byte");
    expect_error("t=1\0&g=1", 8, "the query holds a NUL byte");
    BAD("t=00000000000000000000000000000000000000000000000000000000000000001",
        "a query key or value is longer than 64 bytes");
    /* a long key is shown truncated */
    char raw[300];
    memset(raw, 'k', 257);
    raw[257] = '\0';
    BAD(raw, "the query is longer than 256 bytes");
    memset(raw, 'k', 60);
    strcpy(raw + 60, "=1");
    BAD(raw, "unknown query key 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' (t, frame or g)");
}
END_TEST

/* the pairs the server hands over: a NULL value is a key without '=' */
START_TEST(test_query_pairs)
{
    rf_pvq_t q;
    char err[256];

    rf_pvq_init(&q);
    ck_assert_int_eq(rf_pvq_arg(&q, "frame", "3", err, sizeof err), 0);
    ck_assert_int_eq(rf_pvq_arg(&q, "g", NULL, err, sizeof err), -1);
    ck_assert_str_eq(err, "'g' needs a value");
    ck_assert_int_eq(rf_pvq_finish(&q, 4, err, sizeof err), 0);
    ck_assert_int_eq(rf_pvq_finish(&q, 3, err, sizeof err), -1);
    ck_assert_str_eq(err, "frame 3: N must be < 3 (the scene has 3 frames)");
}
END_TEST

/* ---- the watch */

static char dir[64];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static void watch_cycle(int poll_only)
{
    char a[128], b[128], tmp[128];
    const char *paths[2] = { a, b };
    rf_watch_t *w = rf_watch_create(poll_only);

    snprintf(dir, sizeof dir, "/tmp/check_preview_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/scene.json", dir);
    snprintf(b, sizeof b, "%s/font.ttf", dir);      /* absent at first */
    snprintf(tmp, sizeof tmp, "%s/.scene.json.tmp", dir);
    write_file(a, "{}");
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(rf_watch_inotify(w), !poll_only);
    ck_assert_int_eq(rf_watch_set(w, paths, 2), 0);
    /* nothing changed: no report */
    ck_assert_int_eq(rf_watch_wait(w, 400), 0);
    /* another file of the folder is no change */
    write_file(tmp, "x");
    unlink(tmp);
    ck_assert_int_eq(rf_watch_wait(w, 400), 0);
    /* written in place (a longer size: a change even on a coarse clock) */
    write_file(a, "{ }");
    ck_assert_int_eq(rf_watch_wait(w, 5000), 1);
    ck_assert_int_eq(rf_watch_wait(w, 300), 0);     /* reported once */
    /* replaced by a rename, as editors save */
    write_file(tmp, "{  }");
    ck_assert_int_eq(rename(tmp, a), 0);
    ck_assert_int_eq(rf_watch_wait(w, 5000), 1);
    /* an asset appears, then is deleted */
    write_file(b, "font");
    ck_assert_int_eq(rf_watch_wait(w, 5000), 1);
    ck_assert_int_eq(unlink(b), 0);
    ck_assert_int_eq(rf_watch_wait(w, 5000), 1);
    ck_assert_int_eq(rf_watch_wait(w, 300), 0);
    rf_watch_destroy(w);
    unlink(a);
    rmdir(dir);
}

START_TEST(test_watch_inotify) { watch_cycle(0); }
END_TEST

START_TEST(test_watch_poll) { watch_cycle(1); }
END_TEST

/* The loader lists the asset files it read (what the preview follows): a
 * font of the scene's folder, once per read, built-ins not. */
START_TEST(test_asset_files)
{
    const char *fonts = getenv("RUNEFRAME_FONT_DIR");
    char src[512], path[128], font[128];
    rf_diag_t *diag = malloc(sizeof *diag);
    rf_scene_t *sc;
    FILE *in, *out;
    int ch;

    ck_assert_ptr_nonnull(fonts);
    ck_assert_ptr_nonnull(diag);
    snprintf(dir, sizeof dir, "/tmp/check_preview_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(src, sizeof src, "%s/JetBrainsMono-Regular.ttf", fonts);
    snprintf(font, sizeof font, "%s/brand.ttf", dir);
    in = fopen(src, "rb");
    out = fopen(font, "wb");
    ck_assert(in != NULL && out != NULL);
    while ((ch = getc(in)) != EOF)
        putc(ch, out);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
    snprintf(path, sizeof path, "%s/s.json", dir);
    write_file(path, "{\"runeframe\": 1, \"canvas\": {\"width\": 64, \"height\": 32},"
                     " \"timeline\": {\"duration\": 1}, \"fonts\": {\"brand\": \"brand.ttf\"},"
                     " \"layers\": [{\"type\": \"text\", \"text\": \"a\", \"font\": \"brand\"},"
                     " {\"type\": \"text\", \"text\": \"b\", \"font\": \"mono\"}]}");
    sc = rf_scene_load(path, diag);
    ck_assert_msg(sc != NULL, "%s", diag->count > 0 ? diag->msg[0] : "");
    ck_assert_uint_eq(sc->nasset_files, 1);
    ck_assert_str_eq(sc->asset_files[0], "brand.ttf");
    rf_scene_destroy(sc);
    free(diag);
    unlink(path);
    unlink(font);
    rmdir(dir);
}
END_TEST

static Suite *preview_suite(void)
{
    Suite *s = suite_create("preview");
    TCase *tc = tcase_create("query");

    tcase_add_test(tc, test_query_good);
    tcase_add_test(tc, test_query_bad);
    tcase_add_test(tc, test_query_pairs);
    suite_add_tcase(s, tc);
    tc = tcase_create("watch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_watch_inotify);
    tcase_add_test(tc, test_watch_poll);
    tcase_add_test(tc, test_asset_files);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(preview_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
