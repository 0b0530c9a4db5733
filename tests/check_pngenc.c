/* check_pngenc.c - the PNG encoder (src/pngio-enc.c, pngio-filter.h)
 * against independent decoders: libpng's simplified API and tests/pngtool.py
 * (a standard-library Python codec written from the PNG specification).
 *
 * The expected pixels are never our own output: they are computed here
 * from the frame with cairo's unpremultiply written out,
 * (c * 255 + a / 2) / a and 0,0,0,0 for alpha 0 (what
 * cairo_surface_write_to_png stores).
 *
 *   - every frame of the benchmark corpus (bench/scenes/corpus, the
 *     showcase scenes), 720p and 1080p, at the render default (720p also
 *     at the golden one), decoded by libpng and by pngtool.py: every
 *     pixel back exactly;
 *   - the same bytes with the filters' scalar path (RF_PNG_SCALAR=1) and
 *     their SSE2 one (RF_PNG_SCALAR=sse2) as with the AVX2 one, on the
 *     corpus and on odd sizes;
 *   - widths 1, 3, 17, 1-row images, 16384-wide images, RGB and RGBA,
 *     every level and every filter;
 *   - level 1 (our own deflate coder) is one dynamic block on uniform
 *     noise (one a half over 1 MiB: the halves, coded on 1 thread or
 *     2, give the same bytes, at every edge of the cut), cut into
 *     several IDATs when large, and starts a new block
 *     where the rows change character, and 120 random images (runs of every
 *     length, noise, every filter) round-trip through libpng (every 4th
 *     through pngtool.py too); its filtered rows' symbols, read by
 *     tests/deflate-tokens.py, are runs and literals exactly as a
 *     byte-at-a-time rule makes them, runs at every offset and length;
 *   - repeats an LZ77 coder may match: a row repeated 3 rows later, a
 *     tile, repeats longer than a match (258 bytes) and overlapping
 *     ones, across row boundaries, at distance 32768 (the window's edge)
 *     and 32769 (just beyond), through libpng and pngtool.py;
 *   - levels 2..9 filter a whole frame one way when a sample of its rows
 *     compresses strictly smaller so (SUB for rows that walk one step
 *     sequence; ramps, runs and noise keep their per-row filters), the
 *     filter types read back by pngtool.py;
 *   - a full disk (/dev/full) and a read-only folder leave no file.
 * Environment: top_srcdir (default "."), for the corpus and pngtool.py.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cairo.h>
#include <check.h>
#include <errno.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic.h"
#include "diag.h"
#include "pngio.h"
#include "render.h"
#include "scene.h"
#include "scenetest.h"
#include "testutil.h"

static char tmpdir[256];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rf-pngenc-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    rf_test_rm_rf(tmpdir);
}

static const char *top(void)
{
    const char *t = getenv("top_srcdir");
    return t != NULL && *t ? t : ".";
}

/* The straight RGBA a frame must decode to, by cairo's formula. */
static uint8_t *expected_rgba(const rf_png_frame_t *f)
{
    uint8_t *out = malloc((size_t)f->width * f->height * 4);
    ck_assert_ptr_nonnull(out);
    for (uint32_t y = 0; y < f->height; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)((const uint8_t *)f->pixels +
                                                                (size_t)y * f->stride);
        for (uint32_t x = 0; x < f->width; x++) {
            uint32_t p = row[x], a = p >> 24;
            uint8_t *o = out + ((size_t)y * f->width + x) * 4;
            uint32_t c[3] = { (p >> 16) & 255, (p >> 8) & 255, p & 255 };
            for (int k = 0; k < 3; k++)
                o[k] = a == 0 ? 0 : (uint8_t)((c[k] * 255 + a / 2) / a);
            o[3] = (uint8_t)a;
        }
    }
    return out;
}

/* libpng's simplified reader: the file as 8-bit straight RGBA. */
static uint8_t *libpng_decode(const uint8_t *data, size_t len, uint32_t *w, uint32_t *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    ck_assert_msg(png_image_begin_read_from_memory(&img, data, len), "libpng: %s", img.message);
    img.format = PNG_FORMAT_RGBA;
    uint8_t *out = malloc(PNG_IMAGE_SIZE(img));
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(png_image_finish_read(&img, NULL, out, 0, NULL), "libpng: %s", img.message);
    *w = img.width;
    *h = img.height;
    return out;
}

/* pngtool.py's decoder: the file at path as RGBA. */
static uint8_t *python_decode(const char *path, uint32_t w, uint32_t h)
{
    char raw[600], cmd[2048];
    snprintf(raw, sizeof raw, "%s.raw", path);
    snprintf(cmd, sizeof cmd, "python3 '%s/tests/pngtool.py' decode '%s' '%s' >/dev/null", top(),
             path, raw);
    int rc = system(cmd);
    ck_assert_msg(rc == 0, "pngtool.py decode %s failed (%d)", path, rc);
    FILE *f = fopen(raw, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = (size_t)w * h * 4;
    uint8_t *out = malloc(n + 1);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(fread(out, 1, n + 1, f), n);
    fclose(f);
    unlink(raw);
    return out;
}

static void assert_same_pixels(const uint8_t *got, const uint8_t *want, uint32_t w, uint32_t h,
                               const char *what)
{
    /* one memcmp first: every passing ck_assert is a write to Check's
     * pipe, 2 million of them a 1080p frame */
    if (memcmp(got, want, (size_t)w * h * 4) == 0)
        return;
    for (size_t i = 0; i < (size_t)w * h; i++)
        ck_assert_msg(memcmp(got + 4 * i, want + 4 * i, 4) == 0,
                      "%s: pixel (%zu, %zu) is %u,%u,%u,%u, want %u,%u,%u,%u", what, i % w, i / w,
                      got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3], want[4 * i],
                      want[4 * i + 1], want[4 * i + 2], want[4 * i + 3]);
}

/* Encodes f with opt into out, with the filters' scalar copy when scalar
 * is 1, their baseline (SSE2) copy when 2, else the best the CPU runs
 * (AVX2 where it has it). */
static void encode(const rf_png_frame_t *f, const rf_png_options_t *opt, int scalar,
                   rf_png_buffer_t *out)
{
    if (scalar)
        setenv("RF_PNG_SCALAR", scalar == 2 ? "sse2" : "1", 1);
    else
        unsetenv("RF_PNG_SCALAR");
    rf_png_error_t err;
    rf_png_status_t st = rf_png_write_mem(f, opt, out, &err);
    unsetenv("RF_PNG_SCALAR");
    ck_assert_msg(st == RF_PNG_SUCCESS, "encode: %s", err.message);
}

/* Encodes f every way in opts (scalar and vector, 1 thread and 2: same
 * bytes), decodes
 * each with libpng (and the first with pngtool.py when python), and
 * compares with cairo's formula. */
static void check_frame(const rf_png_frame_t *f, const rf_png_options_t *opts, int nopts,
                        int python, int scalar, const char *what)
{
    uint8_t *want = expected_rgba(f);
    rf_png_buffer_t a = { 0 }, b = { 0 };
    for (int i = 0; i < nopts; i++) {
        char label[160];
        snprintf(label, sizeof label, "%s, level %d filter %d", what, opts[i].level,
                 (int)opts[i].filter);
        encode(f, &opts[i], 0, &a);
        rf_png_options_t two = opts[i];          /* 2 threads: the same bytes */
        two.threads = 2;
        encode(f, &two, 0, &b);
        ck_assert_msg(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
                      "%s: 2 threads wrote different bytes from 1", label);
        if (scalar) {
            encode(f, &opts[i], 1, &b);
            ck_assert_msg(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
                          "%s: scalar and vector filters wrote different bytes", label);
            encode(f, &opts[i], 2, &b);
            ck_assert_msg(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
                          "%s: SSE2 and AVX2 filters wrote different bytes", label);
        }
        uint32_t w, h;
        uint8_t *got = libpng_decode(a.data, a.len, &w, &h);
        ck_assert_uint_eq(w, f->width);
        ck_assert_uint_eq(h, f->height);
        assert_same_pixels(got, want, w, h, label);
        free(got);
        if (python && i == 0) {
            char path[512];
            snprintf(path, sizeof path, "%s/frame.png", tmpdir);
            FILE *fp = fopen(path, "wb");
            ck_assert_ptr_nonnull(fp);
            ck_assert_uint_eq(fwrite(a.data, 1, a.len, fp), a.len);
            ck_assert_int_eq(fclose(fp), 0);
            got = python_decode(path, w, h);
            assert_same_pixels(got, want, w, h, label);
            free(got);
            unlink(path);
        }
    }
    rf_png_buffer_destroy(&a);
    rf_png_buffer_destroy(&b);
    free(want);
}

/* ---------------------------------------------------------- the corpus */

static const char *const kinds[] = { "flat-ui", "showcase", "gradient", "photo",
                                     "translucent", "strokes", "text" };

/* A renderer of the scene file at path (loaded into *sc). */
static rf_renderer_t *renderer_of(const char *path, rf_scene_t **sc)
{
    rf_diag_t diag;
    rf_diag_init(&diag, path);
    *sc = rf_scene_load(path, &diag);
    ck_assert_msg(*sc != NULL, "cannot load %s (set top_srcdir)", path);
    char msg[256];
    rf_renderer_t *r = rf_renderer_create(*sc, msg, sizeof msg);
    ck_assert_msg(r != NULL, "%s", msg);
    return r;
}

static void corpus_case(int k, int size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bench/scenes/%s%s-%d.json", top(),
             k == 1 ? "" : "corpus/", kinds[k], size);
    rf_scene_t *sc;
    rf_renderer_t *r = renderer_of(path, &sc);
    ck_assert_int_eq(rf_renderer_draw(r, 1.0), 0);
    cairo_surface_t *s = rf_renderer_surface(r);
    cairo_surface_flush(s);
    rf_png_frame_t f = {
        (const uint32_t *)(const void *)cairo_image_surface_get_data(s),
        (uint32_t)cairo_image_surface_get_width(s), (uint32_t)cairo_image_surface_get_height(s),
        (size_t)cairo_image_surface_get_stride(s), 0
    };
    ck_assert_uint_eq(f.height, (uint32_t)size);
    /* the translucent kind must really be RGBA, the others RGB; the
     * renderer knows which without looking */
    ck_assert_int_eq(rf_png_frame_is_opaque(&f), k != 4);
    ck_assert_int_eq(rf_renderer_opaque(r), k != 4);
    /* 720p: both defaults, scalar and vector; 1080p: the render default
     * (the golden level costs up to a second per frame here) */
    const rf_png_options_t opts[] = { RF_PNG_OPTIONS_RENDER, RF_PNG_OPTIONS_GOLDEN };
    check_frame(&f, opts, size == 720 ? 2 : 1, 1, size == 720, path);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}

/* rf_renderer_opaque, the writer's hint (pngio.h rf_png_frame_t.opaque:
 * RGB stored without looking), is never 1 for a frame with a pixel of
 * alpha under 255: every scene in scenes/ (blend modes, groups with
 * opacity and masks, blurs and shadows, images, text, clips) at six
 * frames from its first to its last, in order (the static prefix kept and
 * restored), looked at pixel by pixel; and 1 for at
 * least some of them (the hint is used); 0 over a transparent, a
 * translucent and a fading background. */
START_TEST(renderer_opaque_only_when_every_pixel_is)
{
    static const char *const names[] = {
        "assets", "bezier", "colors", "csscolors", "decay", "expr", "group", "icons",
        "images", "keyframes", "layers", "list", "motion", "path", "physics", "sequence",
        "showcase", "spring", "storyboard", "strokes", "text", "tween", "ui", "vectors"
    };
    int hinted = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/scenes/%s.json", top(), names[i]);
        rf_scene_t *sc;
        rf_renderer_t *r = renderer_of(path, &sc);
        /* six frames in order: the static prefix is kept at the second
         * draw and restored after */
        long frames[6];
        for (int j = 0; j < 6; j++)
            frames[j] = (sc->nframes - 1) * j / 5;
        for (int j = 0; j < 6; j++) {
            ck_assert_int_eq(rf_renderer_draw(r, rf_scene_frame_time(sc, frames[j])), 0);
            int stride;
            const unsigned char *px = rf_renderer_pixels(r, &stride);
            rf_png_frame_t f = { (const uint32_t *)(const void *)px, (uint32_t)sc->width,
                                 (uint32_t)sc->height, (size_t)stride, 0 };
            int hint = rf_renderer_opaque(r);
            ck_assert_msg(!hint || rf_png_frame_is_opaque(&f),
                          "%s frame %ld: said opaque, has a pixel of alpha under 255", path,
                          frames[j]);
            hinted += hint;
        }
        rf_renderer_destroy(r);
        rf_scene_destroy(sc);
    }
    ck_assert_msg(hinted > 0, "no frame of scenes/ was known opaque");

    /* backgrounds that are not opaque: the default (transparent), a
     * translucent color, a color value whose alpha falls from 1 (known
     * opaque at t = 0 only), under an opaque rect and a blended circle */
    static const char *const bgs[] = { "", ", \"background\": \"#10203080\"",
                                       ", \"background\": {\"tween\": {\"from\": \"#102030\", "
                                       "\"to\": \"#10203000\", \"duration\": 1}}" };
    for (int i = 0; i < 3; i++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"runeframe\": 1, \"canvas\": {\"width\": 64, \"height\": 48%s}, "
                 "\"timeline\": {\"fps\": 10, \"duration\": 1}, \"layers\": ["
                 "{\"type\": \"rect\", \"x\": 20, \"y\": 20, \"width\": 16, "
                 "\"height\": 16, \"fill\": \"#ff0000\"}, {\"type\": \"circle\", "
                 "\"x\": 30, \"y\": 24, \"r\": 12, \"fill\": \"#00ff0080\", "
                 "\"blend\": \"multiply\"}]}",
                 bgs[i]);
        rf_scene_t *sc = rf_test_scene("bg.json", json);
        rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
        ck_assert_ptr_nonnull(r);
        for (int j = 0; j < 2; j++) {
            ck_assert_int_eq(rf_renderer_draw(r, j * 0.5), 0);
            int stride;
            const unsigned char *px = rf_renderer_pixels(r, &stride);
            rf_png_frame_t f = { (const uint32_t *)(const void *)px, 64, 48, (size_t)stride, 0 };
            ck_assert_int_eq(rf_png_frame_is_opaque(&f), i == 2 && j == 0);
            ck_assert_int_eq(rf_renderer_opaque(r), i == 2 && j == 0);
        }
        rf_renderer_destroy(r);
        rf_scene_destroy(sc);
    }
}
END_TEST

START_TEST(corpus_frames_round_trip_720)
{
    corpus_case(_i, 720);
}
END_TEST

START_TEST(corpus_frames_round_trip_1080)
{
    corpus_case(_i, 1080);
}
END_TEST

/* ------------------------------------------------------ odd geometries */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* A w x h frame (stride padded by 8 bytes): runs of one color, smooth
 * ramps and noise, every alpha when translucent, colors <= alpha as
 * cairo draws them. */
static uint32_t *make_frame(uint32_t w, uint32_t h, int translucent, rf_png_frame_t *f)
{
    size_t stride = (size_t)w * 4 + 8;
    uint32_t *px = malloc(stride * h);
    ck_assert_ptr_nonnull(px);
    for (uint32_t y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(void *)((uint8_t *)px + y * stride);
        for (uint32_t x = 0; x < w; x++) {
            uint32_t kind = (x / 7 + y / 3) % 3, r, g, b;
            if (kind == 0) {
                r = 200, g = 40, b = 90;
            } else if (kind == 1) {
                r = x & 255, g = y & 255, b = (x + y) & 255;
            } else {
                uint32_t v = next32();
                r = v & 255, g = (v >> 8) & 255, b = (v >> 16) & 255;
            }
            uint32_t a = translucent ? (x * 37 + y * 11 + (next32() & 3)) & 255 : 255;
            row[x] = a << 24 | (r * a / 255) << 16 | (g * a / 255) << 8 | (b * a / 255);
        }
        memset(row + w, 0xee, 8);   /* padding the writer must not read into the file */
    }
    *f = (rf_png_frame_t){ px, w, h, stride, 0 };
    return px;
}

START_TEST(odd_widths_one_row_and_16384_wide)
{
    static const uint32_t sizes[][2] = {
        { 1, 1 }, { 1, 9 }, { 3, 1 }, { 3, 5 }, { 17, 1 }, { 17, 13 }, { 16384, 1 }, { 16384, 3 },
    };
    rf_png_options_t opts[2 * 6 + 1];
    int n = 0;
    for (int flt = RF_PNG_FILTER_NONE; flt <= RF_PNG_FILTER_ALL; flt++) {
        opts[n++] = (rf_png_options_t){ 1, (rf_png_filter_t)flt, 0 };
        opts[n++] = (rf_png_options_t){ 9, (rf_png_filter_t)flt, 0 };
    }
    opts[n++] = (rf_png_options_t){ 0, RF_PNG_FILTER_ALL, 0 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int translucent = 0; translucent <= 1; translucent++) {
            rf_png_frame_t f;
            uint32_t *px = make_frame(sizes[i][0], sizes[i][1], translucent, &f);
            char what[96];
            snprintf(what, sizeof what, "%ux%u %s", f.width, f.height,
                     translucent ? "RGBA" : "RGB");
            ck_assert_int_eq(rf_png_frame_is_opaque(&f), !translucent);
            check_frame(&f, opts, n, 1, 1, what);
            free(px);
        }
}
END_TEST

START_TEST(every_level_same_pixels_scalar_same_bytes)
{
    rf_png_frame_t f;
    uint32_t *px = make_frame(301, 37, 1, &f);
    rf_png_options_t opts[10];
    for (int l = 0; l <= 9; l++)
        opts[l] = (rf_png_options_t){ l, RF_PNG_FILTER_ALL, 0 };
    check_frame(&f, opts, 10, 0, 1, "301x37 RGBA");
    free(px);
}
END_TEST

/* The encoder itself (not only the file layer) picks the filter per row:
 * a frame whose rows repeat compresses far below its filter-NONE size at
 * the same level, and its rows carry more than one filter type. */
START_TEST(per_row_filters_are_chosen)
{
    rf_png_frame_t f;
    uint32_t *px = make_frame(256, 64, 0, &f);
    /* a horizontal ramp: SUB makes it constant */
    for (uint32_t y = 32; y < 64; y++)
        for (uint32_t x = 0; x < 256; x++)
            ((uint32_t *)(void *)((uint8_t *)px + y * f.stride))[x] = 0xff000000u | x << 16 | x << 8 | x;
    rf_png_options_t none = { 0, RF_PNG_FILTER_NONE, 0 }, all = { 0, RF_PNG_FILTER_ALL, 0 };
    rf_png_buffer_t a = { 0 }, b = { 0 };
    encode(&f, &none, 0, &a);
    encode(&f, &all, 0, &b);
    /* level 0 stores the filtered image as it is: 64 rows of 1 + 768
     * bytes = 49,216 bytes, one stored block (5 header bytes) after the
     * 2-byte zlib header, in the one IDAT after the signature and IHDR */
    const uint8_t *z = b.data + 8 + 25 + 8 + 2 + 5;
    int seen[5] = { 0 };
    for (uint32_t y = 0; y < 64; y++) {
        uint8_t t = z[(size_t)y * 769];
        ck_assert_uint_le(t, 4);
        seen[t] = 1;
    }
    ck_assert_msg(seen[1] && seen[2], "SUB and UP were not both chosen");
    ck_assert_mem_eq(b.data + 37, "IDAT", 4);
    for (uint32_t y = 33; y < 64; y++)
        ck_assert_msg(z[(size_t)y * 769] == 2, "row %u repeats the one above: UP, got %u", y,
                      z[(size_t)y * 769]);
    ck_assert_uint_eq(z[32 * 769], 1);
    rf_png_buffer_destroy(&a);
    rf_png_buffer_destroy(&b);
    free(px);
}
END_TEST

/* The first line (into out, room for cap, no newline) that the python
 * script tests/SCRIPT with the argument arg, then the file, prints about
 * the PNG in a; its exit status. */
static int tool_line(const rf_png_buffer_t *a, const char *script, const char *arg, char *out,
                     size_t cap)
{
    char path[512], cmd[1200];
    snprintf(path, sizeof path, "%s/tool.png", tmpdir);
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(a->data, 1, a->len, fp), a->len);
    ck_assert_int_eq(fclose(fp), 0);
    snprintf(cmd, sizeof cmd, "python3 '%s/tests/%s' %s '%s'", top(), script, arg, path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    if (fgets(out, (int)cap, p) == NULL)
        out[0] = '\0';
    int rc = pclose(p);
    out[strcspn(out, "\n")] = '\0';
    unlink(path);
    return rc;
}

/* The filter type of each row of the PNG in a, as pngtool.py reads it
 * (one digit a row) into out (room for h + 2). */
static void row_filters(const rf_png_buffer_t *a, char *out, size_t cap)
{
    ck_assert_int_eq(tool_line(a, "pngtool.py", "filters", out, cap), 0);
}

/* At the levels libdeflate codes, the whole frame may take one filter
 * when a sample of its rows compresses strictly smaller so than filtered
 * per row. Each row here is a horizontal walk of small steps (byte j =
 * byte j - 3 + step[s + j]) over one sequence of steps, entered at a
 * random s: SUB leaves every row a window of that one sequence (matches
 * row after row), which the per-row choice by sums of absolute values
 * does not see (level 0 stores its choice: mixed). Level 7: SUB on every
 * row, and smaller than the rows filtered per row would be. A frame of
 * ramps, runs and noise keeps its per-row filters at level 7. */
START_TEST(level7_one_filter_for_the_frame_where_a_sample_says)
{
    enum { W = 256, H = 160 };
    static uint8_t step[2 * W * 3];
    for (size_t i = 0; i < sizeof step; i++)
        step[i] = (uint8_t)(next32() % 5 - 2);
    rf_png_frame_t f;
    uint32_t *px = make_frame(W, H, 0, &f);
    for (uint32_t y = 0; y < H; y++) {
        uint8_t b[W * 3];
        size_t s = next32() % (W * 3);
        for (size_t j = 0; j < 3; j++)
            b[j] = (uint8_t)next32();
        for (size_t j = 3; j < W * 3; j++)
            b[j] = (uint8_t)(b[j - 3] + step[s + j]);
        uint32_t *row = (uint32_t *)(void *)((uint8_t *)px + y * f.stride);
        for (uint32_t x = 0; x < W; x++)
            row[x] = 0xff000000u | (uint32_t)b[3 * x] << 16 | (uint32_t)b[3 * x + 1] << 8 |
                     b[3 * x + 2];
    }
    char got[H + 8];
    rf_png_options_t stored = { 0, RF_PNG_FILTER_ALL, 0 }, small = { 7, RF_PNG_FILTER_ALL, 0 };
    rf_png_buffer_t a = { 0 };
    encode(&f, &stored, 0, &a);
    row_filters(&a, got, sizeof got);
    ck_assert_uint_eq(strlen(got), H);
    ck_assert_msg(strspn(got, "1") < H, "the per-row choice took SUB everywhere: %s", got);
    encode(&f, &small, 0, &a);
    row_filters(&a, got, sizeof got);
    ck_assert_msg(strspn(got, "1") == H, "level 7 did not take SUB throughout: %s", got);
    check_frame(&f, &small, 1, 0, 1, "walks of one step sequence, level 7");
    free(px);

    px = make_frame(W, H, 0, &f);
    encode(&f, &small, 0, &a);
    row_filters(&a, got, sizeof got);
    ck_assert_uint_eq(strlen(got), H);
    int types = 0;
    for (char c = '0'; c <= '4'; c++)
        types += strchr(got, c) != NULL;
    ck_assert_msg(types >= 2, "ramps, runs and noise: one filter at level 7: %s", got);
    rf_png_buffer_destroy(&a);
    free(px);
}
END_TEST

/* ------------------------------------------- level 1: our own coder */

/* The IDAT chunks of a PNG in memory: their number, and how many of
 * them but the last end with a sync flush (an empty stored block: 00 00
 * ff ff) after which the next chunk starts a dynamic block (BTYPE 2 in
 * its first bits): where level 1's halves meet. */
static int idat_chunks(const rf_png_buffer_t *a, int *syncs)
{
    int idats = 0;
    size_t prev_end = 0;
    *syncs = 0;
    for (size_t off = 8; off + 8 <= a->len;) {
        uint32_t len = (uint32_t)a->data[off] << 24 | (uint32_t)a->data[off + 1] << 16 |
                       (uint32_t)a->data[off + 2] << 8 | a->data[off + 3];
        if (memcmp(a->data + off + 4, "IDAT", 4) == 0) {
            if (prev_end > 0 && len > 0 && ((a->data[off + 8] >> 1) & 3u) == 2)
                *syncs += memcmp(a->data + prev_end - 4, "\0\0\xff\xff", 4) == 0;
            prev_end = off + 8 + len;
            idats++;
        }
        off += 12 + (size_t)len;
    }
    return idats;
}

/* Level 1 is our deflate coder, not libdeflate's: one final dynamic
 * block (BFINAL 1, BTYPE 10 in the first 3 bits after the zlib header
 * 78 01), the distance code of 4 symbols (HDIST 3), all 286 literal and
 * length codes (HLIT 29), on noise under 1 MiB; the same over 1 MiB in
 * two halves: the first block not final, a sync flush ending an IDAT
 * and the second half's one block (final) starting the next, and the
 * compressed stream cut into several IDAT chunks, which decoders join. */
START_TEST(level1_is_one_dynamic_block_a_half_in_several_idats)
{
    static const uint32_t sizes[][2] = { { 500, 400 }, { 1024, 600 } };
    for (int i = 0; i < 2; i++) {
        uint32_t w = sizes[i][0], h = sizes[i][1];
        rf_png_frame_t f;
        uint32_t *px = make_frame(w, h, i, &f);   /* RGB 600 KB, RGBA 2.4 MB */
        for (uint32_t y = 0; y < h; y++)          /* all noise */
            for (uint32_t x = 0; x < w; x++)
                ((uint32_t *)(void *)((uint8_t *)px + y * f.stride))[x] = next32() | 0xff000000u;
        if (i == 1)
            px[0] = 0;                            /* one clear pixel: RGBA */
        rf_png_options_t o = { 1, RF_PNG_FILTER_ALL, 0 };
        rf_png_buffer_t a = { 0 };
        encode(&f, &o, 0, &a);
        const uint8_t *z = a.data + 8 + 25 + 8;
        ck_assert_mem_eq(z - 4, "IDAT", 4);
        ck_assert_uint_eq(z[0], 0x78);
        ck_assert_uint_eq(z[1], 0x01);
        ck_assert_uint_eq(z[2] & 7u, (i == 0 ? 1u : 0u) | 2u << 1);   /* BFINAL, BTYPE 2 */
        ck_assert_uint_eq((z[2] >> 3) & 31u, 29);              /* HLIT: 286 codes */
        ck_assert_uint_eq(z[3] & 31u, 3);                      /* HDIST: 4 codes (distances 1 and 4) */
        int syncs, idats = idat_chunks(&a, &syncs);
        ck_assert_int_eq(syncs, i);
        ck_assert_int_ge(idats, i == 0 ? 1 : 3);
        check_frame(&f, &o, 1, 1, 1, i == 0 ? "500x400 noise, level 1" : "1024x600 noise, level 1");
        rf_png_buffer_destroy(&a);
        free(px);
    }
}
END_TEST

/* Level 1 codes a frame unfiltered, with matches (the pixel above, the
 * pixel before, or the last position whose 4 bytes hashed alike), when
 * its sample says that is 3% smaller or more than filtered rows with
 * runs: a text-like frame (six noise "glyphs" repeated along lines at
 * any x, on a plain or clear background) is coded so (its first block
 * sends all 30 distance codes: HDIST 29) and comes out smaller than
 * with any one filter; noise stays filtered (the test above). RGB and
 * RGBA; 1 thread and 2, scalar and vector: the same bytes; libpng (and
 * pngtool.py, RGB) decode every pixel. */
START_TEST(level1_unfiltered_with_matches_where_smaller)
{
    for (int alpha = 0; alpha < 2; alpha++) {
        const uint32_t w = 320, h = 180, gw = 9, gh = 13;
        uint32_t glyph[6][13][9];
        for (int g = 0; g < 6; g++)
            for (uint32_t y = 0; y < gh; y++)
                for (uint32_t x = 0; x < gw; x++)
                    glyph[g][y][x] = next32() | 0xff000000u;
        rf_png_frame_t f;
        uint32_t *px = make_frame(w, h, 0, &f);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                ((uint32_t *)(void *)((uint8_t *)px + y * f.stride))[x] =
                    alpha ? 0u : 0xff203040u;
        for (uint32_t line = 4; line + gh < h; line += 20)
            for (uint32_t x = 3 + next32() % 7; x + gw < w; x += gw + 1 + next32() % 5) {
                const int g = (int)(next32() % 6);
                for (uint32_t y = 0; y < gh; y++)
                    memcpy((uint8_t *)px + (line + y) * f.stride + x * 4, glyph[g][y],
                           gw * 4);
            }
        rf_png_options_t o = { 1, RF_PNG_FILTER_ALL, 0 };
        rf_png_buffer_t a = { 0 }, b = { 0 };
        encode(&f, &o, 0, &a);
        const uint8_t *z = a.data + 8 + 25 + 8;
        ck_assert_mem_eq(z - 4, "IDAT", 4);
        ck_assert_uint_eq(z[3] & 31u, 29);             /* HDIST: 30 distance codes */
        for (int filter = RF_PNG_FILTER_NONE; filter < RF_PNG_FILTER_ALL; filter++) {
            rf_png_options_t one = { 1, (rf_png_filter_t)filter, 0 };
            encode(&f, &one, 0, &b);
            if (filter == RF_PNG_FILTER_NONE)          /* NONE is the same way */
                ck_assert(b.len == a.len && memcmp(a.data, b.data, a.len) == 0);
            else
                ck_assert_msg(a.len < b.len, "%s: %zu bytes, filter %d %zu",
                              alpha ? "RGBA" : "RGB", a.len, filter, b.len);
        }
        check_frame(&f, &o, 1, !alpha, 1, alpha ? "text-like RGBA, level 1" : "text-like RGB, level 1");
        rf_png_buffer_destroy(&a);
        rf_png_buffer_destroy(&b);
        free(px);
    }
}
END_TEST

/* Tiny and flat frames stay filtered: the unfiltered way's estimate
 * counts its larger table (26 more distance code lengths), and the
 * sample's early choice compares its estimates without rounding (a
 * division first once dropped the filtered way of any estimate under
 * 47 bits). Solid 4x4, 64x1, 1x64 and 300x200 frames: HDIST 3. */
START_TEST(level1_tiny_and_flat_frames_stay_filtered)
{
    static const uint32_t sizes[][2] = { { 4, 4 }, { 64, 1 }, { 1, 64 }, { 300, 200 } };
    for (int i = 0; i < 4; i++) {
        rf_png_frame_t f;
        uint32_t *px = make_frame(sizes[i][0], sizes[i][1], 0, &f);
        for (uint32_t y = 0; y < f.height; y++)
            for (uint32_t x = 0; x < f.width; x++)
                ((uint32_t *)(void *)((uint8_t *)px + y * f.stride))[x] = 0xff336699u;
        rf_png_options_t o = { 1, RF_PNG_FILTER_ALL, 0 };
        rf_png_buffer_t a = { 0 };
        encode(&f, &o, 0, &a);
        const uint8_t *z = a.data + 8 + 25 + 8;
        ck_assert_mem_eq(z - 4, "IDAT", 4);
        ck_assert_msg((z[3] & 31u) == 3, "%ux%u solid: HDIST %u, coded unfiltered",
                      f.width, f.height, z[3] & 31u);
        check_frame(&f, &o, 1, 0, 1, "solid, level 1");
        rf_png_buffer_destroy(&a);
        free(px);
    }
}
END_TEST

/* The halves at their edges: images just under and just over 1 MiB of
 * filtered rows, two bands exactly (halves of 64 rows), an odd number
 * of bands, a tall image whose bands are longer than 64 rows, runs that
 * cross the middle row; each the same bytes on 1 thread and 2 (and the
 * scalar filters), decoded exactly by libpng (and pngtool.py), a sync
 * flush where an image is over the limit and none under it. */
START_TEST(level1_halves_same_bytes_on_any_threads)
{
    static const struct {
        uint32_t w, h;
        int translucent;
    } cases[] = {
        { 349, 1001, 0 },   /* 1048 * 1001 = 1,049,048 bytes: under 1 MiB */
        { 349, 1002, 0 },   /* 1,050,096: over */
        { 3000, 128, 0 },   /* two bands */
        { 2049, 320, 1 },   /* five bands, RGBA */
        { 5, 70001, 0 },    /* bands of 68 rows, 16 bytes a row: 1.1 MB */
        { 1920, 1080, 0 },  /* the 1080p canvas: 6.2 MB, on a second thread */
        { 1024, 1024, 1 },  /* (4096 + 1) * 1024 bytes: just over 4 MiB, threaded */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rf_png_frame_t f;
        uint32_t *px = make_frame(cases[i].w, cases[i].h, cases[i].translucent, &f);
        if (i == 5)   /* one color over the middle rows: a run across the cut */
            for (uint32_t y = 500; y < 580; y++)
                for (uint32_t x = 0; x < f.width; x++)
                    ((uint32_t *)(void *)((uint8_t *)px + y * f.stride))[x] = 0xff204060u;
        size_t raw = ((size_t)f.width * (cases[i].translucent ? 4 : 3) + 1) * f.height;
        rf_png_options_t o[] = { { 1, RF_PNG_FILTER_ALL, 0 }, { 1, RF_PNG_FILTER_NONE, 0 } };
        char what[96];
        snprintf(what, sizeof what, "%ux%u %s", f.width, f.height,
                 cases[i].translucent ? "RGBA" : "RGB");
        for (int k = 0; k < 2; k++) {
            rf_png_buffer_t a = { 0 };
            encode(&f, &o[k], 0, &a);
            int syncs;
            (void)idat_chunks(&a, &syncs);
            ck_assert_msg(syncs == (raw >= ((size_t)1 << 20)), "%s: %d sync flushes", what, syncs);
            rf_png_buffer_destroy(&a);
        }
        check_frame(&f, o, 2, i < 3, i < 3, what);
        free(px);
    }
}
END_TEST

/* Level 1 starts a new block (new tables) where the rows change
 * character: noise over the top half, values 0..3 below (filter NONE:
 * the literals go from 256 symbols to 4). The first block is not the
 * final one, and the frame round-trips through libpng and pngtool.py
 * (scalar and vector: same bytes); a frame of noise all through stays
 * one block. */
START_TEST(level1_new_block_where_rows_change)
{
    rf_png_frame_t f;
    uint32_t *px = make_frame(640, 600, 0, &f);
    for (uint32_t y = 0; y < 600; y++)
        for (uint32_t x = 0; x < 640; x++)
            ((uint32_t *)(void *)((uint8_t *)px + y * f.stride))[x] =
                0xff000000u | (next32() & (y < 300 ? 0xffffffu : 0x030303u));
    const rf_png_options_t o[] = { { 1, RF_PNG_FILTER_NONE, 0 }, { 1, RF_PNG_FILTER_ALL, 0 } };
    for (int i = 0; i < 2; i++) {
        rf_png_buffer_t a = { 0 };
        encode(&f, &o[i], 0, &a);
        const uint8_t *z = a.data + 8 + 25 + 8;
        ck_assert_uint_eq(z[2] & 7u, 0u | 2u << 1);   /* BFINAL 0, BTYPE 2 */
        rf_png_buffer_destroy(&a);
    }
    check_frame(&f, o, 2, 1, 1, "noise over 0..3, level 1");
    free(px);
}
END_TEST

/* Random images through level 1 and libpng (a fuzz-ish check, fixed
 * seed): random sizes (1..300 x 1..40), every filter, content from long
 * runs of one color (runs across rows and of every length around the
 * 258-byte match limit) through short repeats to noise, opaque and
 * translucent; every 4th also through pngtool.py. */
START_TEST(level1_random_images_round_trip)
{
    for (int it = 0; it < 120; it++) {
        uint32_t w = 1 + next32() % 300, h = 1 + next32() % 40;
        int translucent = (int)(next32() & 1), style = (int)(next32() % 4);
        rf_png_frame_t f;
        uint32_t *px = make_frame(w, h, translucent, &f);
        uint32_t color = next32(), left = 0;
        for (uint32_t y = 0; y < h; y++) {
            uint32_t *row = (uint32_t *)(void *)((uint8_t *)px + y * f.stride);
            for (uint32_t x = 0; x < w; x++) {
                if (style == 3)
                    continue;                       /* make_frame's mix */
                if (left == 0) {                    /* a new run */
                    color = next32();
                    left = style == 0 ? 1 + next32() % 700 : style == 1 ? 1 + next32() % 4 : 1;
                }
                left--;
                uint32_t a = translucent ? color >> 24 : 255;
                uint32_t r = (color >> 16) & 255, g = (color >> 8) & 255, b = color & 255;
                row[x] = a << 24 | (r * a / 255) << 16 | (g * a / 255) << 8 | (b * a / 255);
            }
        }
        rf_png_options_t o = { 1, (rf_png_filter_t)(it % 6), 0 };
        char what[96];
        snprintf(what, sizeof what, "random %d: %ux%u style %d %s", it, w, h, style,
                 translucent ? "RGBA" : "RGB");
        check_frame(&f, &o, 1, it % 4 == 0, it % 8 == 0, what);
        free(px);
    }
}
END_TEST

/* ------------------------------------------- long-distance repeats */

/* An opaque RGB frame whose filtered stream under filter NONE is exactly
 * the byte stream s (rows of 1 + 3w bytes, each a type byte 0 and the
 * row's R, G, B bytes): what an LZ77 coder sees. */
static uint32_t *stream_frame(const uint8_t *s, uint32_t w, uint32_t h, rf_png_frame_t *f)
{
    size_t stride = (size_t)w * 4;
    uint32_t *px = malloc(stride * h);
    ck_assert_ptr_nonnull(px);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *b = s + (size_t)y * (1 + 3 * (size_t)w) + 1 + 3 * (size_t)x;
            px[(size_t)y * w + x] = 0xff000000u | (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
        }
    *f = (rf_png_frame_t){ px, w, h, stride, 0 };
    return px;
}

/* A stream of noise for a w x h frame (type bytes 0). */
static uint8_t *noise_stream(uint32_t w, uint32_t h)
{
    size_t len = (1 + 3 * (size_t)w) * h;
    uint8_t *s = malloc(len);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < len; i++)
        s[i] = (uint8_t)next32();
    for (uint32_t y = 0; y < h; y++)
        s[(size_t)y * (1 + 3 * (size_t)w)] = 0;
    return s;
}

/* Copies n stream bytes from distance d back to position at, byte by
 * byte (an overlapping copy repeats, as LZ77's does), skipping the type
 * bytes (kept 0). */
static void stream_copy(uint8_t *s, uint32_t w, size_t at, size_t d, size_t n)
{
    size_t row = 1 + 3 * (size_t)w;
    for (size_t i = at; i < at + n; i++)
        if (i % row != 0)
            s[i] = s[i - d];
}

/* deflate-tokens.py's check of a's symbols (--runs): "ok SYMBOLS RUNS",
 * or it fails the test with the first symbol that is not the promised
 * one; the runs into *runs. */
static void runs_as_promised(const rf_png_buffer_t *a, const char *what, long *runs)
{
    char line[256];
    long toks = 0;
    int rc = tool_line(a, "deflate-tokens.py", "--runs", line, sizeof line);
    ck_assert_msg(rc == 0 && sscanf(line, "ok %ld %ld", &toks, runs) == 2, "%s: %s", what, line);
}

/* Filtered rows at level 1 are coded as runs and literals only, a byte
 * at a time as the coder's comment promises: every stretch of 3 or more
 * bytes equal to the byte before them within a row, and all of its
 * bytes, is one match at distance 1 (or several of 258 and 0 to 2
 * literals), everything else a literal; the coder finds them 64 at a
 * time, so the rows here put runs and the literals between them at
 * every offset and length: segments of one color 1 to 70 pixels long
 * (SUB: the first pixel's 3 bytes, then zeros), random bytes of a
 * two-value alphabet (runs of 3 at random), whole rows of one color
 * (runs longer than 258 ending 0, 1 or 2 bytes after a match), widths
 * 1, 3 and 17, RGB and RGBA, through SUB and PAETH. The tokens
 * are read by deflate-tokens.py's own inflater and checked against its
 * own byte-at-a-time rule (one stream under 1 MiB: the halves' first
 * rows start with a literal). */
START_TEST(level1_runs_found_at_every_offset)
{
    static const uint32_t widths[] = { 1, 3, 17, 88, 89, 1000 };
    static const rf_png_filter_t modes[] = { RF_PNG_FILTER_SUB, RF_PNG_FILTER_PAETH };
    long total_runs = 0;
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        for (int alpha = 0; alpha < 2; alpha++) {
            uint32_t w = widths[wi], h = 9;
            rf_png_frame_t f;
            uint32_t *px = make_frame(w, h, 0, &f);
            for (uint32_t y = 0; y < h; y++) {
                uint32_t *row = (uint32_t *)(void *)((uint8_t *)px + y * f.stride);
                uint32_t seg = 0, left = 0, color = 0;
                for (uint32_t x = 0; x < w; x++) {
                    uint32_t v;
                    if (y % 3 == 0) {          /* segments of 1 .. 70 pixels */
                        if (left == 0) {
                            seg++;
                            left = 1 + (seg * 13 + y) % 70;
                            color = (seg * 37 + 1) << 16 | (seg * 91 + 2) << 8 | (seg * 53 + 3);
                        }
                        left--;
                        v = color & 0xffffffu;
                    } else if (y % 3 == 1) {   /* two values: runs of 3 and more at random */
                        v = (next32() & 0x010101u) * 0x40u;
                    } else {                   /* one color: a row-long run */
                        v = 0x204060u + y;
                    }
                    uint32_t a = alpha ? 255 - (y % 3 == 1 ? (next32() & 1) : 0) : 255;
                    row[x] = a << 24 | v;
                }
            }
            for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                rf_png_options_t o = { 1, modes[m], 0 };
                rf_png_buffer_t a = { 0 };
                char what[96];
                long runs = 0;
                snprintf(what, sizeof what, "%ux%u %s, filter %zu", w, h, alpha ? "RGBA" : "RGB",
                         m);
                encode(&f, &o, 0, &a);
                runs_as_promised(&a, what, &runs);
                total_runs += runs;
                rf_png_buffer_destroy(&a);
            }
            free(px);
        }
    }
    ck_assert_msg(total_runs > 500, "only %ld runs in all: the images have too few", total_runs);
}
END_TEST

/* Round trips (libpng and pngtool.py, every pixel; scalar and vector
 * filters write the same bytes) of frames made of repeats an LZ77 coder
 * may match: at level 1 with filter NONE (the stream is the frame's
 * bytes, the repeats at the distances built), with the per-row choice,
 * and at the golden level. */
static void check_stream(const uint8_t *s, uint32_t w, uint32_t h, const char *what)
{
    rf_png_frame_t f;
    uint32_t *px = stream_frame(s, w, h, &f);
    const rf_png_options_t opts[] = { { 1, RF_PNG_FILTER_NONE, 0 },
                                      { 1, RF_PNG_FILTER_ALL, 0 },
                                      RF_PNG_OPTIONS_GOLDEN };
    check_frame(&f, opts, 3, 1, 1, what);
    free(px);
}

START_TEST(repeats_rows_tiles_and_long_matches)
{
    /* a noise row repeated 3 rows later, twice */
    uint32_t w = 200, h = 12;
    size_t row = 1 + 3 * (size_t)w;
    uint8_t *s = noise_stream(w, h);
    memcpy(s + 5 * row, s + 2 * row, row);
    memcpy(s + 9 * row, s + 6 * row, row);
    check_stream(s, w, h, "a row repeated 3 rows later");
    free(s);

    /* a 37 x 23 noise tile over 300 x 90 */
    w = 300, h = 90;
    s = noise_stream(w, h);
    rf_png_frame_t f;
    uint32_t *px = stream_frame(s, w, h, &f);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            px[(size_t)y * w + x] = px[(size_t)(y % 23) * w + x % 37];
    const rf_png_options_t opts[] = { { 1, RF_PNG_FILTER_NONE, 0 },
                                      { 1, RF_PNG_FILTER_ALL, 0 },
                                      RF_PNG_OPTIONS_GOLDEN };
    check_frame(&f, opts, 3, 1, 1, "a 37x23 tile");
    free(px);
    free(s);

    /* repeats longer than a match (258): 700 bytes at distance 1000, and
     * an overlapping copy at distance 5 (a 5-byte pattern for 900 bytes);
     * both across row boundaries (rows of 151 bytes) */
    w = 50, h = 40;
    s = noise_stream(w, h);
    stream_copy(s, w, 2000, 1000, 700);
    stream_copy(s, w, 4000, 5, 900);
    check_stream(s, w, h, "long repeats across rows");
    free(s);
}
END_TEST

/* Deflate's window is 32768 bytes: a repeat at distance 32768 may be
 * matched, one at 32769 must not be (a coder that tried would write a
 * distance the format cannot hold, or the wrong bytes). Rows of 32770
 * bytes (10923 pixels): row 1 repeats 600 bytes of row 0 from 32768 and
 * from 32769 bytes back, in separate images and in one. */
START_TEST(repeats_at_the_window_edge)
{
    const uint32_t w = 10923, h = 3;
    const size_t row = 1 + 3 * (size_t)w;
    ck_assert_uint_eq(row, 32770);
    for (int c = 0; c < 3; c++) {
        uint8_t *s = noise_stream(w, h);
        if (c != 1)
            stream_copy(s, w, row + 100, 32768, 600);
        if (c != 0)
            stream_copy(s, w, row + 5000, 32769, 600);
        check_stream(s, w, h, c == 0 ? "distance 32768" : c == 1 ? "distance 32769" : "both");
        free(s);
    }
}
END_TEST

/* ------------------------------------------------------ failing output */

START_TEST(full_disk_and_read_only_folder_leave_nothing)
{
    rf_png_frame_t f;
    uint32_t *px = make_frame(1920, 200, 1, &f);   /* a few MB: many stdio buffers */
    rf_png_error_t err;
    FILE *fp = fopen("/dev/full", "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(rf_png_write_stream(&f, NULL, fp, &err), RF_PNG_IO_ERROR);
    ck_assert_int_eq(err.sys_errno, ENOSPC);
    fclose(fp);
    ck_assert_int_eq(rf_png_write_path(&f, NULL, "/dev/full", 0, &err), RF_PNG_IO_ERROR);
    ck_assert_int_eq(err.sys_errno, ENOSPC);
    if (geteuid() != 0) {   /* root writes into read-only folders */
        char dir[512], path[600];
        snprintf(dir, sizeof dir, "%s/ro", tmpdir);
        ck_assert_int_eq(mkdir(dir, 0555), 0);
        snprintf(path, sizeof path, "%s/frame-00000.png", dir);
        ck_assert_int_eq(rf_png_write_path(&f, NULL, path, 0, &err), RF_PNG_IO_ERROR);
        ck_assert_int_eq(err.sys_errno, EACCES);
        ck_assert_int_eq(rmdir(dir), 0);   /* empty: no partial file */
    }
    free(px);
}
END_TEST

static Suite *pngenc_suite(void)
{
    Suite *s = suite_create("pngenc");
    TCase *c = tcase_create("corpus");
    tcase_add_checked_fixture(c, setup, teardown);
    tcase_set_timeout(c, 600);
    tcase_add_loop_test(c, corpus_frames_round_trip_720, 0, 7);
    tcase_add_loop_test(c, corpus_frames_round_trip_1080, 0, 7);
    suite_add_tcase(s, c);
    TCase *g = tcase_create("geometry");
    tcase_add_checked_fixture(g, setup, teardown);
    tcase_set_timeout(g, 300);
    tcase_add_test(g, odd_widths_one_row_and_16384_wide);
    tcase_add_test(g, every_level_same_pixels_scalar_same_bytes);
    tcase_add_test(g, per_row_filters_are_chosen);
    tcase_add_test(g, level7_one_filter_for_the_frame_where_a_sample_says);
    tcase_add_test(g, level1_is_one_dynamic_block_a_half_in_several_idats);
    tcase_add_test(g, level1_unfiltered_with_matches_where_smaller);
    tcase_add_test(g, level1_tiny_and_flat_frames_stay_filtered);
    tcase_add_test(g, level1_halves_same_bytes_on_any_threads);
    tcase_add_test(g, level1_new_block_where_rows_change);
    tcase_add_test(g, level1_random_images_round_trip);
    tcase_add_test(g, level1_runs_found_at_every_offset);
    tcase_add_test(g, renderer_opaque_only_when_every_pixel_is);
    tcase_add_test(g, repeats_rows_tiles_and_long_matches);
    tcase_add_test(g, repeats_at_the_window_edge);
    tcase_add_test(g, full_disk_and_read_only_folder_leave_nothing);
    suite_add_tcase(s, g);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pngenc_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
