/* check_diff.c - Check suite for diff.c (pixelmatch 7.2.0's measure).
 *
 * Every expectation is independent of the code under test:
 *   - pixelmatch's own test suite (tests/vectors/pixelmatch/, counts and
 *     diff images produced by mapbox/pixelmatch v7.2.0) and fixtures made
 *     by the real pixelmatch 7.2.0 (tests/vectors/pixelmatch-extra/):
 *     counts, the count without a diff image, the diff image byte for byte;
 *   - streaming: rows handed over in chunks of 1, 2, 3, 7 and random sizes
 *     into buffers whose rows not yet handed over hold garbage give the
 *     one-shot result, byte for byte;
 *   - the decode pipeline (diffstream.h): the case's two PNG files compared
 *     while they decode on two threads, with rings of the default size,
 *     whole images and rings of 8 and 16 rows, give pixelmatch's count and
 *     diff image; a file against the other image as a cairo frame (opaque
 *     cases) gives the same result;
 *   - hand-derived cases: one changed pixel, the threshold boundary of a
 *     gray step (its YIQ delta computed here in long double), an edge whose
 *     gray pixels pixelmatch's detector classifies as anti-aliasing,
 *     rf_diff_within and rf_diff_parse_color.
 * Usage: check_diff [VECTOR_DIR]   (else $VECTOR_DIR, else tests/vectors)
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "diffstream.h"
#include "pngio.h"

static const char *vector_dir = "tests/vectors";

/* ------------------------------------------------------------ helpers */

/* A small deterministic generator (xorshift64*) for chunk sizes. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    ck_assert_msg(p != NULL, "out of memory");
    return p;
}

/* pixelmatch's defaults (includeAA false, unlike runeframe's). */
static rf_diff_options_t pixelmatch_defaults(void)
{
    rf_diff_options_t o = RF_DIFF_OPTIONS_DEFAULT;
    o.include_aa = 0;
    return o;
}

/* -------------------------------------------- the options JSON, by hand */

/* The vectors' options are one flat object of numbers, booleans and
 * arrays of three numbers; anything else is an error in the vector. */
typedef struct json_cursor {
    const char *p;
    const char *where; /* for messages */
} json_cursor_t;

static void json_ws(json_cursor_t *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
        c->p++;
}

static void json_expect(json_cursor_t *c, char ch)
{
    json_ws(c);
    ck_assert_msg(*c->p == ch, "%s: expected '%c' at \"%s\"", c->where, ch, c->p);
    c->p++;
}

static double json_number(json_cursor_t *c)
{
    json_ws(c);
    char *end;
    errno = 0;
    double v = strtod(c->p, &end);
    ck_assert_msg(end != c->p && errno == 0, "%s: bad number at \"%s\"", c->where, c->p);
    c->p = end;
    return v;
}

static int json_bool(json_cursor_t *c)
{
    json_ws(c);
    if (strncmp(c->p, "true", 4) == 0) {
        c->p += 4;
        return 1;
    }
    if (strncmp(c->p, "false", 5) == 0) {
        c->p += 5;
        return 0;
    }
    ck_abort_msg("%s: expected a boolean at \"%s\"", c->where, c->p);
    return 0;
}

/* [r,g,b] -> rgb; null -> 0 (not given). */
static int json_color(json_cursor_t *c, uint8_t rgb[3])
{
    json_ws(c);
    if (strncmp(c->p, "null", 4) == 0) {
        c->p += 4;
        return 0;
    }
    json_expect(c, '[');
    for (int k = 0; k < 3; k++) {
        if (k > 0)
            json_expect(c, ',');
        double v = json_number(c);
        ck_assert_msg(v >= 0 && v <= 255 && v == floor(v), "%s: bad color component", c->where);
        rgb[k] = (uint8_t)v;
    }
    json_expect(c, ']');
    return 1;
}

/* pixelmatch options JSON -> our options, defaults as pixelmatch's. */
static rf_diff_options_t parse_options(const char *json, const char *where)
{
    rf_diff_options_t o = pixelmatch_defaults();
    int have_alt = 0;
    uint8_t alt[3] = { 0, 0, 0 };
    json_cursor_t c = { json, where };

    json_expect(&c, '{');
    json_ws(&c);
    if (*c.p == '}') {
        c.p++;
    } else {
        for (;;) {
            json_expect(&c, '"');
            const char *key = c.p;
            const char *q = strchr(key, '"');
            ck_assert_msg(q != NULL, "%s: unterminated key", where);
            size_t n = (size_t)(q - key);
            c.p = q + 1;
            json_expect(&c, ':');
#define KEY(s) (n == strlen(s) && strncmp(key, s, n) == 0)
            if (KEY("threshold"))
                o.threshold = json_number(&c);
            else if (KEY("alpha"))
                o.alpha = json_number(&c);
            else if (KEY("includeAA"))
                o.include_aa = json_bool(&c);
            else if (KEY("diffMask"))
                o.diff_mask = json_bool(&c);
            else if (KEY("checkerboard"))
                o.checkerboard = json_bool(&c);
            else if (KEY("aaColor"))
                ck_assert_msg(json_color(&c, o.aa_color), "%s: aaColor null", where);
            else if (KEY("diffColor"))
                ck_assert_msg(json_color(&c, o.diff_color), "%s: diffColor null", where);
            else if (KEY("diffColorAlt"))
                have_alt = json_color(&c, alt);
            else
                ck_abort_msg("%s: unknown option %.*s", where, (int)n, key);
#undef KEY
            json_ws(&c);
            if (*c.p == ',') {
                c.p++;
                continue;
            }
            json_expect(&c, '}');
            break;
        }
    }
    json_ws(&c);
    ck_assert_msg(*c.p == '\0', "%s: trailing text after options", where);
    /* pixelmatch: diffColorAlt || diffColor */
    memcpy(o.diff_color_alt, have_alt ? alt : o.diff_color, 3);
    return o;
}

/* ----------------------------------------------------- the vector files */

#define MAX_CASES 256
#define FIELD 512

typedef struct diff_case {
    char file[FIELD];          /* the .tsv, for messages */
    int line;
    char base[FIELD];          /* folder the paths are relative to */
    char version[64];
    char img_a[FIELD], img_b[FIELD], expected_png[FIELD];
    uint32_t width, height;
    char options[FIELD];
    uint64_t expected;
} diff_case_t;

typedef struct unit_case {
    int line;
    char version[64];
    uint32_t width, height;
    char rgba_a[FIELD], rgba_b[FIELD];
    char options[FIELD];
    uint64_t expected;
} unit_case_t;

static diff_case_t published[MAX_CASES], extra[MAX_CASES];
static int n_published, n_extra;
static unit_case_t units[MAX_CASES];
static int n_units;

/* Splits line at tabs into at most max fields (the line is modified). */
static int split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *t = strchr(p, '\t');
        if (t == NULL)
            break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

static void copy_field(char *dst, size_t cap, const char *src, const char *file, int line)
{
    if (strlen(src) >= cap) {
        fprintf(stderr, "check_diff: %s:%d: field too long\n", file, line);
        exit(2);
    }
    strcpy(dst, src);
}

/* Reads lines of a .tsv: skips comments, blank lines and the header;
 * calls row() with the fields of every other line. */
static void read_tsv(const char *path, void (*row)(const char *file, int line, char **f, int n,
                                                  void *ctx),
                     void *ctx)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return; /* no rows: the row-count tests fail */
    char buf[4096];
    int line = 0;
    while (fgets(buf, sizeof buf, fp) != NULL) {
        line++;
        size_t len = strlen(buf);
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (len == 0 || buf[0] == '#' || strncmp(buf, "version\t", 8) == 0)
            continue;
        char *f[16];
        int n = split_tabs(buf, f, 16);
        row(path, line, f, n, ctx);
    }
    fclose(fp);
}

typedef struct case_list {
    diff_case_t *cases;
    int *n;
    const char *base;
} case_list_t;

static void case_row(const char *file, int line, char **f, int n, void *ctx)
{
    case_list_t *l = ctx;
    if (n != 9 || *l->n >= MAX_CASES) {
        fprintf(stderr, "check_diff: %s:%d: expected 9 fields, got %d\n", file, line, n);
        exit(2);
    }
    diff_case_t *c = &l->cases[(*l->n)++];
    memset(c, 0, sizeof *c);
    copy_field(c->file, sizeof c->file, file, file, line);
    c->line = line;
    copy_field(c->base, sizeof c->base, l->base, file, line);
    copy_field(c->version, sizeof c->version, f[0], file, line);
    copy_field(c->img_a, sizeof c->img_a, f[2], file, line);
    copy_field(c->img_b, sizeof c->img_b, f[3], file, line);
    copy_field(c->expected_png, sizeof c->expected_png, f[4], file, line);
    c->width = (uint32_t)strtoul(f[5], NULL, 10);
    c->height = (uint32_t)strtoul(f[6], NULL, 10);
    copy_field(c->options, sizeof c->options, f[7], file, line);
    c->expected = strtoull(f[8], NULL, 10);
}

static void unit_row(const char *file, int line, char **f, int n, void *ctx)
{
    (void)ctx;
    if (n != 9 || n_units >= MAX_CASES) {
        fprintf(stderr, "check_diff: %s:%d: expected 9 fields, got %d\n", file, line, n);
        exit(2);
    }
    unit_case_t *u = &units[n_units++];
    memset(u, 0, sizeof *u);
    u->line = line;
    copy_field(u->version, sizeof u->version, f[0], file, line);
    u->width = (uint32_t)strtoul(f[2], NULL, 10);
    u->height = (uint32_t)strtoul(f[3], NULL, 10);
    copy_field(u->rgba_a, sizeof u->rgba_a, f[4], file, line);
    copy_field(u->rgba_b, sizeof u->rgba_b, f[5], file, line);
    copy_field(u->options, sizeof u->options, f[6], file, line);
    u->expected = strtoull(f[7], NULL, 10);
}

static void load_vectors(void)
{
    char path[FIELD * 2], base[FIELD];
    case_list_t l;

    snprintf(base, sizeof base, "%s/pixelmatch", vector_dir);
    snprintf(path, sizeof path, "%s/cases.tsv", base);
    l = (case_list_t){ published, &n_published, base };
    read_tsv(path, case_row, &l);

    snprintf(base, sizeof base, "%s/pixelmatch-extra", vector_dir);
    snprintf(path, sizeof path, "%s/cases.tsv", base);
    l = (case_list_t){ extra, &n_extra, base };
    read_tsv(path, case_row, &l);

    snprintf(path, sizeof path, "%s/pixelmatch/unit_cases.tsv", vector_dir);
    read_tsv(path, unit_row, NULL);
}

static int is_v72(const char *version)
{
    return strcmp(version, "v7.2.0-yiq") == 0;
}

static void load_png(const diff_case_t *c, const char *rel, rf_png_rgba_t *img)
{
    char path[FIELD * 2 + 2];
    rf_png_error_t err;
    snprintf(path, sizeof path, "%s/%s", c->base, rel);
    rf_png_status_t st = rf_png_read_path(path, img, &err);
    ck_assert_msg(st == RF_PNG_SUCCESS, "%s:%d: %s", c->file, c->line, err.message);
    ck_assert_msg(img->width == c->width && img->height == c->height,
                  "%s:%d: %s is %ux%u, the row says %ux%u", c->file, c->line, rel, img->width,
                  img->height, c->width, c->height);
}

static int all_opaque(const uint8_t *p, size_t pixels)
{
    for (size_t i = 0; i < pixels; i++)
        if (p[i * 4 + 3] != 255)
            return 0;
    return 1;
}

/* Index of the first differing byte, or -1. */
static long first_difference(const uint8_t *x, const uint8_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return (long)i;
    return -1;
}

static void assert_same_result(const rf_diff_result_t *x, const rf_diff_result_t *y,
                               const char *what)
{
    ck_assert_msg(x->different == y->different && x->antialiased == y->antialiased &&
                      x->pixels == y->pixels && x->x0 == y->x0 && x->y0 == y->y0 &&
                      x->x1 == y->x1 && x->y1 == y->y1,
                  "%s: results differ: %llu/%llu/%llu (%u,%u)-(%u,%u) vs %llu/%llu/%llu "
                  "(%u,%u)-(%u,%u)",
                  what, (unsigned long long)x->different, (unsigned long long)x->antialiased,
                  (unsigned long long)x->pixels, x->x0, x->y0, x->x1, x->y1,
                  (unsigned long long)y->different, (unsigned long long)y->antialiased,
                  (unsigned long long)y->pixels, y->x0, y->y0, y->x1, y->y1);
}

/* The rows the differ must have compared once rows are available. */
static uint32_t rows_done(uint32_t rows, uint32_t height)
{
    if (rows >= height)
        return height;
    return rows >= 3 ? rows - 2 : 0;
}

/* Streams a and b into fresh buffers whose rows hold garbage until they
 * are handed over, chunk(k) rows at a time, and checks the result and the
 * diff image against the one-shot ones. With ring != 0 the buffers hold
 * only `ring` rows (rf_diff_begin_ring): a row is written only below
 * rf_diff_writable(), and every slot the differ has released is filled
 * with garbage again, so a comparison that read a released row, or a
 * limit that let a row be overwritten too early, changes the result. */
static void check_streaming(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h,
                            uint32_t ring, const rf_diff_options_t *o, const uint8_t *out_once,
                            const rf_diff_result_t *r_once, uint32_t (*chunk)(uint32_t k),
                            const char *what)
{
    const size_t row = (size_t)w * 4, size = row * h;
    const uint32_t held = ring != 0 ? ring : h;
    const size_t held_size = row * held;
    uint8_t *sa = xcalloc(held_size, 1), *sb = xcalloc(held_size, 1), *out = xcalloc(size, 1);
    for (size_t i = 0; i < held_size; i++) {
        sa[i] = (uint8_t)rng_next();
        sb[i] = (uint8_t)rng_next();
    }
    rf_diff_t d;
    rf_diff_begin_ring(&d, sa, sb, out, w, h, ring, o);
    uint32_t rows = 0;
    for (uint32_t k = 0; rows < h; k++) {
        uint32_t n = chunk(k);
        if (n > h - rows)
            n = h - rows;
        uint32_t lim = rf_diff_writable(&d);
        ck_assert_msg(lim > rows, "%s: ring %u: no row writable at row %u", what, ring, rows);
        if (n > lim - rows)
            n = lim - rows;
        for (uint32_t y = rows; y < rows + n; y++) {
            memcpy(sa + (y % held) * row, a + y * row, row);
            memcpy(sb + (y % held) * row, b + y * row, row);
        }
        rows += n;
        rf_diff_feed(&d, rows);
        ck_assert_msg(d.next == rows_done(rows, h), "%s: %u rows fed, %u compared", what, rows,
                      d.next);
        if (ring != 0) {
            /* rows next - 2 .. rows - 1 are still needed; the slots of the
             * ring's older rows are free: garbage */
            uint32_t keep = d.next >= 2 ? d.next - 2 : 0;
            for (uint32_t y = rows > ring ? rows - ring : 0; y < keep; y++)
                for (size_t i = 0; i < row; i++) {
                    sa[(y % held) * row + i] = (uint8_t)rng_next();
                    sb[(y % held) * row + i] = (uint8_t)rng_next();
                }
        }
    }
    rf_diff_result_t r;
    uint64_t n = rf_diff_end(&d, &r);
    ck_assert_uint_eq(n, r.different);
    assert_same_result(&r, r_once, what);
    long at = first_difference(out, out_once, size);
    ck_assert_msg(at < 0, "%s: streamed diff image (ring %u) differs at byte %ld", what, ring,
                  at);
    free(sa);
    free(sb);
    free(out);
}

static uint32_t chunk_1(uint32_t k) { (void)k; return 1; }
static uint32_t chunk_2(uint32_t k) { (void)k; return 2; }
static uint32_t chunk_3(uint32_t k) { (void)k; return 3; }
static uint32_t chunk_7(uint32_t k) { (void)k; return 7; }
static uint32_t chunk_random(uint32_t k) { (void)k; return rng_next() % 9; } /* 0 too */

static uint32_t (*const chunkings[])(uint32_t) = { chunk_1, chunk_2, chunk_3, chunk_7,
                                                    chunk_random };

/* Whole buffers, the smallest ring and one more. */
static const uint32_t rings[] = { 0, RF_DIFF_RING_MIN, 16 };

static void check_streamings(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h,
                             const rf_diff_options_t *o, const uint8_t *out_once,
                             const rf_diff_result_t *r_once, const char *what)
{
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++)
        for (size_t k = 0; k < sizeof chunkings / sizeof chunkings[0]; k++)
            check_streaming(a, b, w, h, rings[i], o, out_once, r_once, chunkings[k], what);
}

/* The pipeline's rings: the default size (about 1 MiB), whole images, the
 * smallest ring and one more. */
static const int stream_rings[] = { 0, -1, RF_DIFF_RING_MIN, 16 };

/* The case's files through rf_diffstream_files() (each ring size) and,
 * when b is opaque, file a against b as a cairo frame through
 * rf_diffstream_file_frame(): pixelmatch's count and diff image (e), and
 * the one-shot result r. */
static void check_pipeline(const diff_case_t *c, const rf_diff_options_t *o,
                           const rf_png_rgba_t *b, const rf_png_rgba_t *e,
                           const rf_diff_result_t *r, const char *what)
{
    char pa[FIELD * 2 + 2], pb[FIELD * 2 + 2];
    const size_t pixels = (size_t)c->width * c->height;
    snprintf(pa, sizeof pa, "%s/%s", c->base, c->img_a);
    snprintf(pb, sizeof pb, "%s/%s", c->base, c->img_b);
    for (size_t i = 0; i < sizeof stream_rings / sizeof stream_rings[0]; i++) {
        rf_diffstream_options_t so = { o, 1, stream_rings[i] };
        rf_diffstream_t ds;
        ck_assert_int_eq(rf_diffstream_files(&ds, pa, pb, &so), RF_DIFFSTREAM_COMPARED);
        ck_assert_msg(ds.diff.different == c->expected, "%s: ring %d: %llu pixels, pixelmatch "
                      "counted %llu", what, stream_rings[i],
                      (unsigned long long)ds.diff.different, (unsigned long long)c->expected);
        assert_same_result(&ds.diff, r, what);
        ck_assert_uint_eq(ds.side[0].width, c->width);
        ck_assert_uint_eq(ds.side[1].height, c->height);
        long at = first_difference(ds.image, e->pixels, pixels * 4);
        ck_assert_msg(at < 0, "%s: ring %d: diff image differs at byte %ld", what,
                      stream_rings[i], at);
        rf_diffstream_destroy(&ds);
    }
    if (!all_opaque(b->pixels, pixels))
        return;
    uint32_t *argb = xcalloc(pixels, 4);
    uint8_t *golden = xcalloc(pixels, 4), *actual = xcalloc(pixels, 4);
    for (size_t i = 0; i < pixels; i++) {
        const uint8_t *q = b->pixels + i * 4;
        argb[i] = 0xff000000u | (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
    }
    rf_png_frame_t frame = { argb, c->width, c->height, (size_t)c->width * 4, 0 };
    rf_diffstream_t ds;
    ck_assert_int_eq(rf_diffstream_file_frame(&ds, pa, &frame, golden, actual, o),
                     RF_DIFFSTREAM_COMPARED);
    assert_same_result(&ds.diff, r, what);
    ck_assert_msg(memcmp(actual, b->pixels, pixels * 4) == 0, "%s: frame as RGBA", what);
    rf_diffstream_destroy(&ds);
    free(argb);
    free(golden);
    free(actual);
}

/* Runs one row of cases.tsv: counts, the count without output, the diff
 * image, streaming, the decode pipeline, and the mask's pixels against the
 * result. */
static void run_case(const diff_case_t *c)
{
    char what[FIELD * 6];
    snprintf(what, sizeof what, "%s:%d (%s vs %s %s)", c->file, c->line, c->img_a, c->img_b,
             c->options);
    rf_diff_options_t o = parse_options(c->options, what);
    rf_png_rgba_t a, b, e;
    load_png(c, c->img_a, &a);
    load_png(c, c->img_b, &b);
    const size_t pixels = (size_t)c->width * c->height, size = pixels * 4;

    uint8_t *out = xcalloc(size, 1); /* pngjs's new PNG() is zeroed */
    rf_diff_result_t r, r_null;
    uint64_t n = rf_diff_rgba(a.pixels, b.pixels, out, c->width, c->height, &o, &r);
    ck_assert_msg(n == c->expected, "%s: %llu pixels, pixelmatch counted %llu", what,
                  (unsigned long long)n, (unsigned long long)c->expected);
    ck_assert_uint_eq(r.different, n);
    ck_assert_uint_eq(r.pixels, pixels);
    uint64_t n_null = rf_diff_rgba(a.pixels, b.pixels, NULL, c->width, c->height, &o, &r_null);
    ck_assert_uint_eq(n_null, n);
    assert_same_result(&r_null, &r, what);

    load_png(c, c->expected_png, &e);
    long at = first_difference(out, e.pixels, size);
    ck_assert_msg(at < 0, "%s: diff image byte %ld (pixel %ld, channel %ld) is %u, expected %u",
                  what, at, at / 4, at % 4, at >= 0 ? out[at] : 0, at >= 0 ? e.pixels[at] : 0);

    check_streamings(a.pixels, b.pixels, c->width, c->height, &o, out, &r, what);
    check_pipeline(c, &o, &b, &e, &r, what);

    /* with diff_mask only counted pixels are drawn (alpha 255 over a zero
     * buffer): their number and bounding box must be the result's */
    rf_diff_options_t m = o;
    m.diff_mask = 1;
    memset(out, 0, size);
    rf_diff_result_t rm;
    rf_diff_rgba(a.pixels, b.pixels, out, c->width, c->height, &m, &rm);
    assert_same_result(&rm, &r, what);
    uint64_t drawn = 0;
    uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
    for (size_t i = 0; i < pixels; i++) {
        if (out[i * 4 + 3] != 255)
            continue;
        uint32_t x = (uint32_t)(i % c->width), y = (uint32_t)(i / c->width);
        drawn++;
        x0 = x < x0 ? x : x0;
        y0 = y < y0 ? y : y0;
        x1 = x > x1 ? x : x1;
        y1 = y > y1 ? y : y1;
    }
    ck_assert_uint_eq(drawn, n);
    if (n > 0) {
        ck_assert_msg(r.x0 == x0 && r.y0 == y0 && r.x1 == x1 && r.y1 == y1,
                      "%s: bbox (%u,%u)-(%u,%u), mask (%u,%u)-(%u,%u)", what, r.x0, r.y0, r.x1,
                      r.y1, x0, y0, x1, y1);
    } else {
        ck_assert(r.x0 == 0 && r.y0 == 0 && r.x1 == 0 && r.y1 == 0);
    }

    free(out);
    rf_png_rgba_destroy(&a);
    rf_png_rgba_destroy(&b);
    rf_png_rgba_destroy(&e);
}

/* --------------------------------------------- pixelmatch's test suite */

START_TEST(published_case)
{
    const diff_case_t *c = &published[_i];
    if (is_v72(c->version)) {
        run_case(c);
        return;
    }
    /* Older releases: counts only. v7.2 changed the blending of translucent
     * pixels (checkerboard, premultiplied differences), so their counts
     * carry over to v7.2 only for opaque images; translucent rows are
     * parsed but not asserted. */
    char what[FIELD * 6];
    snprintf(what, sizeof what, "%s:%d (%s, %s vs %s %s)", c->file, c->line, c->version,
             c->img_a, c->img_b, c->options);
    rf_diff_options_t o = parse_options(c->options, what);
    rf_png_rgba_t a, b;
    load_png(c, c->img_a, &a);
    load_png(c, c->img_b, &b);
    size_t pixels = (size_t)c->width * c->height;
    if (all_opaque(a.pixels, pixels) && all_opaque(b.pixels, pixels)) {
        uint64_t n = rf_diff_rgba(a.pixels, b.pixels, NULL, c->width, c->height, &o, NULL);
        ck_assert_msg(n == c->expected, "%s: %llu pixels, pixelmatch counted %llu", what,
                      (unsigned long long)n, (unsigned long long)c->expected);
    }
    rf_png_rgba_destroy(&a);
    rf_png_rgba_destroy(&b);
}
END_TEST

START_TEST(published_rows_present)
{
    int v72 = 0, legacy = 0;
    for (int i = 0; i < n_published; i++) {
        if (is_v72(published[i].version))
            v72++;
        else
            legacy++;
    }
    /* pixelmatch v7.2.0's test.js has 12 diffTest calls */
    ck_assert_msg(v72 >= 12, "only %d v7.2.0 rows in %s/pixelmatch/cases.tsv", v72, vector_dir);
    ck_assert_int_gt(legacy, 0);
    int u72 = 0;
    for (int i = 0; i < n_units; i++)
        u72 += is_v72(units[i].version);
    ck_assert_msg(u72 >= 2, "only %d v7.2.0 rows in unit_cases.tsv", u72);
}
END_TEST

static void parse_rgba_list(const char *s, uint8_t *dst, size_t n, int line)
{
    const char *p = s;
    for (size_t i = 0; i < n; i++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        ck_assert_msg(end != p && v <= 255, "unit_cases.tsv:%d: bad pixel list", line);
        dst[i] = (uint8_t)v;
        p = end;
        if (i + 1 < n) {
            ck_assert_msg(*p == ',', "unit_cases.tsv:%d: short pixel list", line);
            p++;
        }
    }
    ck_assert_msg(*p == '\0', "unit_cases.tsv:%d: long pixel list", line);
}

START_TEST(unit_case)
{
    const unit_case_t *u = &units[_i];
    char what[FIELD];
    snprintf(what, sizeof what, "unit_cases.tsv:%d", u->line);
    rf_diff_options_t o = parse_options(u->options, what);
    size_t size = (size_t)u->width * u->height * 4;
    uint8_t *a = xcalloc(size, 1), *b = xcalloc(size, 1), *out = xcalloc(size, 1);
    parse_rgba_list(u->rgba_a, a, size, u->line);
    parse_rgba_list(u->rgba_b, b, size, u->line);
    if (is_v72(u->version)) {
        uint64_t n = rf_diff_rgba(a, b, out, u->width, u->height, &o, NULL);
        ck_assert_msg(n == u->expected, "%s: %llu, expected %llu", what, (unsigned long long)n,
                      (unsigned long long)u->expected);
        ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, u->width, u->height, &o, NULL), n);
    }
    free(a);
    free(b);
    free(out);
}
END_TEST

/* -------------------------------------------- fixtures by pixelmatch 7.2 */

START_TEST(extra_case)
{
    ck_assert(is_v72(extra[_i].version));
    run_case(&extra[_i]);
}
END_TEST

START_TEST(extra_rows_present)
{
    ck_assert_msg(n_extra >= 30, "only %d rows in %s/pixelmatch-extra/cases.tsv", n_extra,
                  vector_dir);
}
END_TEST

/* ------------------------------------------------------ hand-derived */

static void fill(uint8_t *p, size_t pixels, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    for (size_t i = 0; i < pixels; i++) {
        p[i * 4] = r;
        p[i * 4 + 1] = g;
        p[i * 4 + 2] = b;
        p[i * 4 + 3] = a;
    }
}

static void set_px(uint8_t *p, uint32_t w, uint32_t x, uint32_t y, uint8_t r, uint8_t g,
                   uint8_t b, uint8_t a)
{
    uint8_t *q = p + ((size_t)y * w + x) * 4;
    q[0] = r;
    q[1] = g;
    q[2] = b;
    q[3] = a;
}

static int px_is(const uint8_t *p, uint32_t w, uint32_t x, uint32_t y, uint8_t r, uint8_t g,
                 uint8_t b, uint8_t a)
{
    const uint8_t *q = p + ((size_t)y * w + x) * 4;
    return q[0] == r && q[1] == g && q[2] == b && q[3] == a;
}

/* One pixel of a uniform gray image made black (then white): counted once,
 * drawn in diff_color_alt (darker) or diff_color (lighter); everything else
 * is the faded gray 255 + (128 * 1.00000001 - 255) * 0.1 = 242.30 -> 242. */
START_TEST(single_changed_pixel)
{
    enum { W = 16, H = 12 };
    static uint8_t a[W * H * 4], b[W * H * 4], out[W * H * 4];
    rf_diff_options_t o = pixelmatch_defaults();
    memcpy(o.diff_color_alt, (uint8_t[3]){ 0, 255, 0 }, 3);
    for (int lighter = 0; lighter <= 1; lighter++) {
        for (int aa = 0; aa <= 1; aa++) {
            o.include_aa = aa;
            fill(a, W * H, 128, 128, 128, 255);
            fill(b, W * H, 128, 128, 128, 255);
            uint8_t v = lighter ? 255 : 0;
            set_px(b, W, 5, 7, v, v, v, 255);
            memset(out, 0, sizeof out);
            rf_diff_result_t r;
            ck_assert_uint_eq(rf_diff_rgba(a, b, out, W, H, &o, &r), 1);
            ck_assert_uint_eq(r.different, 1);
            ck_assert_uint_eq(r.antialiased, 0);
            ck_assert_uint_eq(r.pixels, W * H);
            ck_assert_uint_eq(r.x0, 5);
            ck_assert_uint_eq(r.x1, 5);
            ck_assert_uint_eq(r.y0, 7);
            ck_assert_uint_eq(r.y1, 7);
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++) {
                    if (x == 5 && y == 7)
                        ck_assert(lighter ? px_is(out, W, x, y, 255, 0, 0, 255)
                                          : px_is(out, W, x, y, 0, 255, 0, 255));
                    else
                        ck_assert_msg(px_is(out, W, x, y, 242, 242, 242, 255),
                                      "pixel %u,%u", x, y);
                }
        }
    }
}
END_TEST

/* A gray step 100 -> 110 on every channel: dr = dg = db = -10, so
 * y = -10 * (0.29889531 + 0.58662247 + 0.11448223), i and q are (nearly)
 * 0, delta = 0.5053 y^2 + 0.299 i^2 + 0.1957 q^2 ~ 50.530001. It counts
 * when 35215 t^2 < delta: t just below sqrt(delta / 35215) counts, just
 * above does not. */
START_TEST(threshold_boundary)
{
    enum { W = 5, H = 5 };
    static uint8_t a[W * H * 4], b[W * H * 4];
    fill(a, W * H, 100, 100, 100, 255);
    fill(b, W * H, 100, 100, 100, 255);
    set_px(b, W, 2, 2, 110, 110, 110, 255);

    long double dr = -10.0L;
    long double y = dr * 0.29889531L + dr * 0.58662247L + dr * 0.11448223L;
    long double i = dr * 0.59597799L - dr * 0.27417610L - dr * 0.32180189L;
    long double q = dr * 0.21147017L - dr * 0.52261711L + dr * 0.31114694L;
    long double delta = 0.5053L * y * y + 0.299L * i * i + 0.1957L * q * q;
    ck_assert(fabsl(delta - 50.5300010106L) < 1e-9L);
    long double t = sqrtl(delta / 35215.0L); /* ~0.0378801 */

    rf_diff_options_t o = pixelmatch_defaults();
    for (int aa = 0; aa <= 1; aa++) {
        o.include_aa = aa;
        o.threshold = (double)(t * (1 - 1e-9L));
        ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, NULL), 1);
        o.threshold = (double)(t * (1 + 1e-9L));
        ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, NULL), 0);
        o.threshold = 0.0378;
        ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, NULL), 1);
        o.threshold = 0.0379;
        ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, NULL), 0);
        o.threshold = 0; /* any difference */
        ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, NULL), 1);
        o.threshold = 1; /* nothing but black vs white */
        ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, NULL), 0);
    }
    /* alpha-0 pixels of different colors blend to the same thing: delta 0 */
    fill(a, W * H, 0, 0, 0, 0);
    fill(b, W * H, 255, 40, 7, 0);
    o.threshold = 0;
    ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, NULL), 0);
}
END_TEST

/* Black | white, edge between x = 3 and 4; b makes column 4 gray. Each
 * gray pixel has a darker (black, delta +128) and a brighter (white)
 * neighbour and only 2 equal ones (above and below, or the border and one),
 * and the white neighbour has 3+ equal siblings in both images: pixelmatch
 * calls all 8 of them anti-aliased. In image a the white centre has 4+
 * equal neighbours, so the test on a alone says no. */
START_TEST(antialiased_edge)
{
    enum { W = 8, H = 8 };
    static uint8_t a[W * H * 4], b[W * H * 4], out[W * H * 4];
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint8_t v = x < 4 ? 0 : 255;
            set_px(a, W, x, y, v, v, v, 255);
            set_px(b, W, x, y, v, v, v, 255);
        }
    for (uint32_t y = 0; y < H; y++)
        set_px(b, W, 4, y, 128, 128, 128, 255);

    rf_diff_options_t o = pixelmatch_defaults();
    memcpy(o.diff_color_alt, (uint8_t[3]){ 0, 0, 255 }, 3);
    rf_diff_result_t r;
    memset(out, 0, sizeof out);
    o.include_aa = 0;
    ck_assert_uint_eq(rf_diff_rgba(a, b, out, W, H, &o, &r), 0);
    ck_assert_uint_eq(r.antialiased, H);
    ck_assert(r.x0 == 0 && r.y0 == 0 && r.x1 == 0 && r.y1 == 0);
    for (uint32_t y = 0; y < H; y++)
        ck_assert(px_is(out, W, 4, y, 255, 255, 0, 255));
    /* in a mask excluded pixels are not drawn */
    o.diff_mask = 1;
    memset(out, 0x77, sizeof out);
    ck_assert_uint_eq(rf_diff_rgba(a, b, out, W, H, &o, &r), 0);
    for (size_t k = 0; k < sizeof out; k++)
        ck_assert_uint_eq(out[k], 0x77);
    o.diff_mask = 0;

    o.include_aa = 1;
    memset(out, 0, sizeof out);
    ck_assert_uint_eq(rf_diff_rgba(a, b, out, W, H, &o, &r), H);
    ck_assert_uint_eq(r.antialiased, 0);
    ck_assert(r.x0 == 4 && r.y0 == 0 && r.x1 == 4 && r.y1 == H - 1);
    for (uint32_t y = 0; y < H; y++) /* b darker: the alternative color */
        ck_assert(px_is(out, W, 4, y, 0, 0, 255, 255));
    /* the mask draws counted pixels and leaves the rest as they were */
    o.diff_mask = 1;
    memset(out, 0x77, sizeof out);
    ck_assert_uint_eq(rf_diff_rgba(a, b, out, W, H, &o, &r), H);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            if (x == 4)
                ck_assert(px_is(out, W, x, y, 0, 0, 255, 255));
            else
                ck_assert(px_is(out, W, x, y, 0x77, 0x77, 0x77, 0x77));
        }

    /* a gray pixel inside the white area is no edge: counted either way */
    memcpy(b, a, sizeof b);
    set_px(b, W, 6, 3, 128, 128, 128, 255);
    o.diff_mask = 0;
    o.include_aa = 0;
    ck_assert_uint_eq(rf_diff_rgba(a, b, NULL, W, H, &o, &r), 1);
    ck_assert(r.x0 == 6 && r.y0 == 3 && r.x1 == 6 && r.y1 == 3);
}
END_TEST

/* Bounding box over pixels in different rows and columns; streaming the
 * same comparison in every chunking. */
START_TEST(bounding_box_and_streaming)
{
    enum { W = 13, H = 11 };
    static uint8_t a[W * H * 4], b[W * H * 4], out[W * H * 4];
    fill(a, W * H, 30, 60, 90, 255);
    fill(b, W * H, 30, 60, 90, 255);
    set_px(b, W, 9, 1, 255, 255, 255, 255);
    set_px(b, W, 2, 5, 255, 0, 0, 255);
    set_px(b, W, 11, 9, 0, 0, 0, 40);
    rf_diff_options_t o = RF_DIFF_OPTIONS_DEFAULT;
    rf_diff_result_t r;
    ck_assert_uint_eq(rf_diff_rgba(a, b, out, W, H, &o, &r), 3);
    ck_assert(r.x0 == 2 && r.y0 == 1 && r.x1 == 11 && r.y1 == 9);
    check_streamings(a, b, W, H, &o, out, &r, "bbox");
    /* feeding nothing, then less than before, compares nothing more */
    rf_diff_t d;
    rf_diff_begin(&d, a, b, NULL, W, H, &o);
    rf_diff_feed(&d, 0);
    ck_assert_uint_eq(d.next, 0);
    rf_diff_feed(&d, 2);
    ck_assert_uint_eq(d.next, 0);
    rf_diff_feed(&d, 3);
    ck_assert_uint_eq(d.next, 1);
    rf_diff_feed(&d, 1);
    ck_assert_uint_eq(d.next, 1);
    rf_diff_feed(&d, H - 1);
    ck_assert_uint_eq(d.next, H - 3);
    rf_diff_feed(&d, H + 100);
    ck_assert_uint_eq(d.next, H);
    ck_assert_uint_eq(rf_diff_end(&d, NULL), 3);
}
END_TEST

START_TEST(streaming_small_heights)
{
    /* heights 1..4: the last rows need min(y + 3, height) */
    static uint8_t a[6 * 4 * 4], b[6 * 4 * 4], out[6 * 4 * 4];
    for (uint32_t h = 1; h <= 4; h++) {
        fill(a, 6 * h, 200, 200, 200, 255);
        fill(b, 6 * h, 200, 200, 200, 255);
        set_px(b, 6, 3, h - 1, 0, 0, 0, 255);
        rf_diff_options_t o = RF_DIFF_OPTIONS_DEFAULT;
        rf_diff_result_t r;
        ck_assert_uint_eq(rf_diff_rgba(a, b, out, 6, h, &o, &r), 1);
        check_streamings(a, b, 6, h, &o, out, &r, "small");
    }
}
END_TEST

START_TEST(within_limits)
{
    rf_diff_result_t r = { 0 };
    r.pixels = 100;
    ck_assert_int_eq(rf_diff_within(&r, 0, 0.0), 1);
    r.different = 5;
    ck_assert_int_eq(rf_diff_within(&r, 0, 0.0), 0);
    ck_assert_int_eq(rf_diff_within(&r, 5, 0.05), 1);
    ck_assert_int_eq(rf_diff_within(&r, 4, 1.0), 0);
    ck_assert_int_eq(rf_diff_within(&r, 5, 0.0499), 0);
    ck_assert_int_eq(rf_diff_within(&r, UINT64_MAX, 1.0), 1);
    ck_assert_int_eq(rf_diff_within(&r, 100, 0.05000001), 1);
    r.different = 100;
    ck_assert_int_eq(rf_diff_within(&r, 100, 1.0), 1);
    ck_assert_int_eq(rf_diff_within(&r, 99, 1.0), 0);
    /* 1 of 3 is 0.333...: the division in double */
    r.pixels = 3;
    r.different = 1;
    ck_assert_int_eq(rf_diff_within(&r, 1, 1.0 / 3.0), 1);
    ck_assert_int_eq(rf_diff_within(&r, 1, 0.3333333), 0);
}
END_TEST

START_TEST(parse_color)
{
    static const struct {
        const char *s;
        uint8_t rgb[3];
    } good[] = {
        { "255,0,0", { 255, 0, 0 } },     { "0,128,255", { 0, 128, 255 } },
        { "1, 2, 3", { 1, 2, 3 } },       { "10,  20,   30", { 10, 20, 30 } },
        { "007,0,00", { 7, 0, 0 } },      { "0,0,0", { 0, 0, 0 } },
        { "255,255,255", { 255, 255, 255 } },
    };
    static const char *const bad[] = {
        "",         "255",       "255,0",     "256,0,0",  "0,0,256",   "-1,0,0",
        "+1,0,0",   "1,2,3,",    "1,2,3,4",   "1,2,3 ",   " 1,2,3",    "1 ,2,3",
        "a,b,c",    "1.5,2,3",   "0x10,0,0",  "1,,2",     ",1,2,3",    "1,2,",
        "1;2;3",    "1,2,3\n",   "99999999999999999999,0,0",          "1,\t2,3",
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        uint8_t rgb[3] = { 9, 9, 9 };
        ck_assert_msg(rf_diff_parse_color(good[k].s, rgb) == 0, "\"%s\" refused", good[k].s);
        ck_assert_msg(memcmp(rgb, good[k].rgb, 3) == 0, "\"%s\" -> %u,%u,%u", good[k].s, rgb[0],
                      rgb[1], rgb[2]);
    }
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        uint8_t rgb[3] = { 9, 9, 9 };
        ck_assert_msg(rf_diff_parse_color(bad[k], rgb) == -1, "\"%s\" accepted", bad[k]);
        ck_assert_msg(rgb[0] == 9 && rgb[1] == 9 && rgb[2] == 9, "\"%s\" wrote rgb", bad[k]);
    }
}
END_TEST

START_TEST(default_options)
{
    rf_diff_options_t o = RF_DIFF_OPTIONS_DEFAULT;
    ck_assert(o.threshold == 0.1 && o.include_aa == 1 && o.alpha == 0.1);
    ck_assert(o.aa_color[0] == 255 && o.aa_color[1] == 255 && o.aa_color[2] == 0);
    ck_assert(o.diff_color[0] == 255 && o.diff_color[1] == 0 && o.diff_color[2] == 0);
    ck_assert(memcmp(o.diff_color_alt, o.diff_color, 3) == 0);
    ck_assert(o.diff_mask == 0 && o.checkerboard == 1);
}
END_TEST

/* ------------------------------------------------------------ runner */

static Suite *diff_suite(void)
{
    Suite *s = suite_create("diff");

    TCase *p = tcase_create("pixelmatch");
    tcase_set_timeout(p, 120);
    tcase_add_test(p, published_rows_present);
    if (n_published > 0)
        tcase_add_loop_test(p, published_case, 0, n_published);
    if (n_units > 0)
        tcase_add_loop_test(p, unit_case, 0, n_units);
    suite_add_tcase(s, p);

    TCase *x = tcase_create("pixelmatch-extra");
    tcase_set_timeout(x, 120);
    tcase_add_test(x, extra_rows_present);
    if (n_extra > 0)
        tcase_add_loop_test(x, extra_case, 0, n_extra);
    suite_add_tcase(s, x);

    TCase *h = tcase_create("hand-derived");
    tcase_add_test(h, single_changed_pixel);
    tcase_add_test(h, threshold_boundary);
    tcase_add_test(h, antialiased_edge);
    tcase_add_test(h, bounding_box_and_streaming);
    tcase_add_test(h, streaming_small_heights);
    tcase_add_test(h, within_limits);
    tcase_add_test(h, parse_color);
    tcase_add_test(h, default_options);
    suite_add_tcase(s, h);
    return s;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        vector_dir = argv[1];
    else if (getenv("VECTOR_DIR") != NULL && *getenv("VECTOR_DIR"))
        vector_dir = getenv("VECTOR_DIR");
    load_vectors();

    SRunner *sr = srunner_create(diff_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
