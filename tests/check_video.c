/* check_video.c - the ffmpeg module (video.h): which outputs are videos,
 * the temporary's name, ffmpeg's command line, and start / finish against
 * stand-in ffmpeg scripts put first on PATH: one that writes what it reads,
 * one that fails with a message, one that exits 0 but says an error. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mkdtemp, setenv */
#endif
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "video.h"

START_TEST(test_ext)
{
    const char *out = "clip.MP4";

    ck_assert_ptr_eq(rf_video_ext(out), out + 4);
    ck_assert_str_eq(rf_video_ext("a/b.webm"), ".webm");
    ck_assert_str_eq(rf_video_ext("x.gif"), ".gif");
    ck_assert_ptr_null(rf_video_ext(".mp4"));        /* no NAME */
    ck_assert_ptr_null(rf_video_ext("dir/.mp4"));    /* a hidden file, no NAME */
    ck_assert_ptr_null(rf_video_ext("frames"));
    ck_assert_ptr_null(rf_video_ext("x.y4m"));
    ck_assert_int_eq(rf_video_has_ext("x.Y4M", ".y4m"), 1);
}
END_TEST

START_TEST(test_tmp_name)
{
    const char *cases[][2] = {
        { "out.mp4", "./out.tmp.mp4" },
        { "/abs/dir/x.webm", "/abs/dir/x.tmp.webm" },
        { "-x.gif", "./-x.tmp.gif" },           /* never an option */
        { "a:b.mp4", "./a:b.tmp.mp4" },         /* never a protocol */
        { "d/v.MP4", "./d/v.tmp.MP4" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *tmp = rf_video_tmp_name(cases[i][0], rf_video_ext(cases[i][0]));
        ck_assert_str_eq(tmp, cases[i][1]);
        free(tmp);
    }
}
END_TEST

/* rf_video_argv of spec writing tmp is exactly want (NULL-terminated). */
static void expect_argv(const rf_video_spec_t *spec, const char *tmp, const char *const *want)
{
    rf_video_argv_t a;
    size_t i;

    rf_video_argv(spec, tmp, &a);
    for (i = 0; want[i] != NULL; i++)
        ck_assert_str_eq(a.argv[i], want[i]);
    ck_assert_ptr_null(a.argv[i]);
}

START_TEST(test_argv)
{
    rf_video_spec_t mp4 = { .width = 640, .height = 360, .fps = 30, .pix_fmt = "bgr0", .mp4 = 1 };
    rf_video_spec_t webm = { .width = 64, .height = 48, .fps = 29.97, .webm = 1 };
    const char *want_mp4[] = { "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f",
                               "rawvideo", "-pix_fmt", "bgr0", "-s", "640x360", "-r", "30/1",
                               "-i", "-", "-pix_fmt", "yuv420p", "./o.tmp.mp4", NULL };
    const char *want_webm[] = { "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f",
                                "rawvideo", "-pix_fmt", "rgba", "-s", "64x48", "-r",
                                "2997/100", "-i", "-", "-c:v", "libvpx-vp9", "-row-mt", "1",
                                "-deadline", "realtime", "-cpu-used", "6", "-crf", "32",
                                "-b:v", "0", "-pix_fmt", "yuva420p", "./o.tmp.webm", NULL };

    expect_argv(&mp4, "./o.tmp.mp4", want_mp4);
    expect_argv(&webm, "./o.tmp.webm", want_webm);
}
END_TEST

/* A GIF's delays: whole 1/100 s of at least 2, adding up to the duration
 * (to 1/100 s), all equal but the last (one delay up to two); the rate the
 * largest 100 / cs <= fps. */
START_TEST(test_gif_timing)
{
    static const struct {
        double fps, duration;
        int cs;
        long frames, final;
        int dropped;
    } cases[] = {
        { 60, 3, 2, 150, 2, 1 },            /* 50 fps: 150 x 2 = 300 */
        { 30, 2, 4, 50, 4, 1 },             /* 25 fps */
        { 50, 1, 2, 50, 2, 0 },
        { 25, 4, 4, 100, 4, 0 },
        { 24, 1, 5, 20, 5, 1 },             /* 20 fps */
        { 29.97, 1, 4, 25, 4, 1 },
        { 1000, 0.5, 2, 25, 2, 1 },
        { 60, 10.0 / 60, 2, 8, 3, 1 },      /* 17/100 s: 7 x 2 + 3 */
        { 30, 10.0 / 30, 4, 8, 5, 1 },      /* 33/100 s: 7 x 4 + 5 */
        { 20, 0.1, 5, 2, 5, 0 },
        { 10, 1.234, 10, 12, 13, 0 },       /* 123/100 s: 11 x 10 + 13 */
        { 100.0 / 3, 1, 3, 33, 4, 0 },      /* 3/100 s a frame, exactly */
        { 60, 0.01, 2, 1, 2, 1 },           /* shorter than a frame: one, 2/100 s */
        { 60, 0.001, 2, 1, 2, 1 },
        { 0.5, 4, 200, 2, 200, 0 },         /* 2 s a frame */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rf_video_gif_timing_t g;
        rf_video_gif_timing(cases[i].fps, cases[i].duration, &g);
        ck_assert_msg(g.cs == cases[i].cs && g.frames == cases[i].frames &&
                          g.final == cases[i].final && g.dropped == cases[i].dropped,
                      "case %zu: cs %d frames %ld final %ld dropped %d", i, g.cs, g.frames,
                      g.final, g.dropped);
    }
}
END_TEST

START_TEST(test_gif_argv)
{
    rf_video_spec_t gif = { .width = 96, .height = 64, .fps = 60, .gif = 1, .duration = 3 };
    const char *want[] = { "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f",
                           "rawvideo", "-pix_fmt", "rgba", "-s", "96x64", "-r", "60/1", "-i", "-",
                           "-filter_complex",
                           "[0:v]fps=100/2,split[a][b];[a]palettegen=stats_mode=full[p];"
                           "[b][p]paletteuse=dither=sierra2_4a:diff_mode=rectangle",
                           "-frames:v", "150", "-final_delay", "2", "./o.tmp.gif", NULL };

    expect_argv(&gif, "./o.tmp.gif", want);
}
END_TEST

/* ------------------------------------------------- against a stand-in ffmpeg */

static char dir[64];
static char out[128];

/* Writes the stand-in ffmpeg: body runs with "$out" its last argument. */
static void fake_ffmpeg(const char *body)
{
    char path[128];
    FILE *f;

    snprintf(path, sizeof path, "%s/ffmpeg", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\nfor out; do :; done\n%s\n", body);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(path, 0755), 0);
}

static void fake_setup(void)
{
    char path[4096];

    snprintf(dir, sizeof dir, "/tmp/check_video_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s:%s", dir, getenv("PATH") != NULL ? getenv("PATH") : "");
    setenv("PATH", path, 1);
    snprintf(out, sizeof out, "%s/v.webm", dir);
    signal(SIGPIPE, SIG_IGN);
}

static void fake_teardown(void)
{
    char path[128];

    snprintf(path, sizeof path, "%s/ffmpeg", dir);
    unlink(path);
    unlink(out);
    snprintf(path, sizeof path, "%s/v.tmp.webm", dir);
    unlink(path);
    rmdir(dir);
}

/* Feeds n bytes and finishes: rf_video_finish's result. */
static int run(rf_video_t *v, size_t n, char *err, size_t errlen)
{
    rf_video_spec_t spec = { .width = 2, .height = 2, .fps = 10 };
    int stopped = 0;

    ck_assert_int_eq(rf_video_create(v, out, rf_video_ext(out), err, errlen), 0);
    ck_assert_int_eq(rf_video_start(v, &spec, err, errlen), 0);
    for (size_t i = 0; i < n; i++)
        if (fputc('A' + (int)(i % 26), v->pipe) == EOF)
            stopped = 1;
    if (fclose(v->pipe) != 0)
        stopped = 1;
    v->pipe = NULL;
    return rf_video_finish(v, stopped, err, errlen);
}

START_TEST(test_finish_success)
{
    rf_video_t v;
    char err[256] = "", buf[8] = "";
    FILE *f;

    fake_ffmpeg("cat > \"$out\"");
    ck_assert_int_eq(run(&v, 5, err, sizeof err), 0);
    ck_assert_ptr_null(v.tmp);                 /* published */
    f = fopen(out, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fread(buf, 1, sizeof buf - 1, f), 5);
    fclose(f);
    ck_assert_str_eq(buf, "ABCDE");
    rf_video_destroy(&v);
}
END_TEST

START_TEST(test_finish_failed)
{
    rf_video_t v;
    char err[256] = "", tmp[128];

    /* the last line that says why, not the empty "-- " line after it */
    fake_ffmpeg("cat > /dev/null; echo 'Unknown encoder x' >&2; "
                "echo 'Error initializing output stream 0:0 -- ' >&2; exit 1");
    ck_assert_int_eq(run(&v, 4, err, sizeof err), -1);
    ck_assert_str_eq(err, "ffmpeg failed (exit status 1): Unknown encoder x");
    snprintf(tmp, sizeof tmp, "%s/v.tmp.webm", dir);
    ck_assert_int_ne(access(tmp, F_OK), 0);    /* the temporary is gone */
    ck_assert_int_ne(access(out, F_OK), 0);    /* nothing published */
    rf_video_destroy(&v);
}
END_TEST

START_TEST(test_finish_said_error)
{
    rf_video_t v;
    char err[256] = "";

    /* exit 0 after an error: still a failure */
    fake_ffmpeg("cat > \"$out\"; echo 'Error writing trailer: No space left on device' >&2");
    ck_assert_int_eq(run(&v, 3, err, sizeof err), -1);
    ck_assert_str_eq(err, "ffmpeg reported an error (exit status 0): "
                          "Error writing trailer: No space left on device");
    ck_assert_int_ne(access(out, F_OK), 0);
    rf_video_destroy(&v);
}
END_TEST

START_TEST(test_create_fails)
{
    const char *bad = "/nonexistent-dir/v.mp4";
    rf_video_t v;
    char err[256] = "";

    ck_assert_int_eq(rf_video_create(&v, bad, rf_video_ext(bad), err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent-dir/v.mp4: cannot create a temporary file beside it: "
                          "No such file or directory");
    ck_assert_ptr_null(v.tmp);
    rf_video_destroy(&v);
}
END_TEST

static Suite *video_suite(void)
{
    Suite *s = suite_create("video");
    TCase *tc = tcase_create("names");

    tcase_add_test(tc, test_ext);
    tcase_add_test(tc, test_tmp_name);
    tcase_add_test(tc, test_argv);
    tcase_add_test(tc, test_gif_timing);
    tcase_add_test(tc, test_gif_argv);
    suite_add_tcase(s, tc);
    tc = tcase_create("ffmpeg");
    tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
    tcase_add_test(tc, test_finish_success);
    tcase_add_test(tc, test_finish_failed);
    tcase_add_test(tc, test_finish_said_error);
    tcase_add_test(tc, test_create_fails);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(video_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
