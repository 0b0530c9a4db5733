/* check_scene.c - the scene loader and its support modules: arena, diag,
 * numfmt, jsonsyn, values and scene.
 *
 * Expected numbers are derived by hand or from the contract's closed forms
 * evaluated here in long double, never taken from what the code printed.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mkstemp, fdopen for the file test */
#endif
#include <check.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "color.h"
#include "diag.h"
#include "suggest.h"
#include "jsonsyn.h"
#include "layer.h"
#include "numfmt.h"
#include "path.h"
#include "render.h"
#include "scene.h"
#include "values.h"
#include "testutil.h"

/* rf_diag_t is 20 KiB: one per test, off the stack. */
static rf_diag_t *diag;

static void setup(void)
{
    diag = malloc(sizeof *diag);
    ck_assert_ptr_nonnull(diag);
    rf_diag_init(diag, "t.json");
}

static void teardown(void)
{
    free(diag);
    diag = NULL;
}

static rf_scene_t *load(const char *json)
{
    rf_scene_t *sc = rf_scene_load_buffer("t.json", json, strlen(json), diag);
    if (sc == NULL) {
        for (int i = 0; i < diag->count; i++)
            fprintf(stderr, "unexpected: %s\n", diag->msg[i]);
    }
    ck_assert_ptr_nonnull(sc);
    return sc;
}

/* Loads json, which must fail; returns whether some message is exactly
 * "runeframe: t.json: " + expect. */
static int fails_with(const char *json, const char *expect)
{
    rf_scene_t *sc = rf_scene_load_buffer("t.json", json, strlen(json), diag);
    ck_assert_ptr_null(sc);
    char want[RF_DIAG_LINE];
    snprintf(want, sizeof want, "runeframe: t.json: %s", expect);
    for (int i = 0; i < diag->count; i++)
        if (strcmp(diag->msg[i], want) == 0)
            return 1;
    for (int i = 0; i < diag->count; i++)
        fprintf(stderr, "got: %s\n", diag->msg[i]);
    fprintf(stderr, "wanted: %s\n", want);
    return 0;
}

#define HEAD "{\"runeframe\": 1, \"canvas\": {\"width\": 64, \"height\": 32}, "

/* The contract's under-damped spring (scene-v1.md), in long double. */
static long double spring_ref(long double from, long double to, long double k, long double c,
                              long double v0, long double tau, long double *vel)
{
    long double w = sqrtl(k), z = c / (2 * sqrtl(k)), a = from - to;
    long double wd = w * sqrtl(1 - z * z), b = (v0 + z * w * a) / wd;
    long double e = expl(-z * w * tau);
    long double cs = cosl(wd * tau), sn = sinl(wd * tau);
    if (vel != NULL)
        *vel = e * (-z * w * (a * cs + b * sn) + wd * (b * cs - a * sn));
    return to + e * (a * cs + b * sn);
}

/* ================================================================ arena */

START_TEST(arena_alloc_aligned_zeroed)
{
    rf_arena_t *a = rf_arena_create();
    ck_assert_ptr_nonnull(a);
    for (size_t i = 1; i < 3000; i += 7) {
        unsigned char *p = rf_arena_alloc(a, i);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % alignof(max_align_t), 0);
        for (size_t k = 0; k < i; k++)
            rf_check_msg(p[k] == 0, "byte %zu of %zu is %u", k, i, p[k]);
        memset(p, 0xAB, i);   /* must not disturb other blocks (ASan sees it) */
    }
    /* a block larger than any chunk */
    unsigned char *big = rf_arena_alloc(a, 9u << 20);
    ck_assert_ptr_nonnull(big);
    ck_assert_uint_eq(big[0], 0);
    ck_assert_uint_eq(big[(9u << 20) - 1], 0);
    /* the chunk in use still serves small blocks after the big one */
    ck_assert_ptr_nonnull(rf_arena_alloc(a, 16));
    rf_arena_destroy(a);
    rf_arena_destroy(NULL);
}
END_TEST

START_TEST(arena_calloc_overflow_and_strings)
{
    rf_arena_t *a = rf_arena_create();
    ck_assert_ptr_null(rf_arena_calloc(a, SIZE_MAX / 2, 4));
    ck_assert_ptr_null(rf_arena_alloc(a, SIZE_MAX));
    double *d = rf_arena_calloc(a, 100, sizeof *d);
    ck_assert_ptr_nonnull(d);
    ck_assert(d[99] == 0.0);
    char *s = rf_arena_strndup(a, "spring-loaded", 6);
    ck_assert_str_eq(s, "spring");
    ck_assert_str_eq(rf_arena_strdup(a, "x"), "x");
    ck_assert_str_eq(rf_arena_strdup(a, ""), "");
    rf_arena_destroy(a);
}
END_TEST

/* ================================================================= diag */

START_TEST(diag_edit_distance)
{
    ck_assert_int_eq(rf_edit_distance("kitten", "sitting", 10), 3);
    ck_assert_int_eq(rf_edit_distance("sitting", "kitten", 10), 3);
    ck_assert_int_eq(rf_edit_distance("flaw", "lawn", 10), 2);
    ck_assert_int_eq(rf_edit_distance("", "abc", 10), 3);
    ck_assert_int_eq(rf_edit_distance("abc", "", 10), 3);
    ck_assert_int_eq(rf_edit_distance("same", "same", 0), 0);
    ck_assert_int_eq(rf_edit_distance("stifness", "stiffness", 2), 1);
    /* capped: cap + 1 as soon as it exceeds the cap */
    ck_assert_int_eq(rf_edit_distance("abcdef", "ghijkl", 2), 3);
    ck_assert_int_eq(rf_edit_distance("a", "abcdefgh", 3), 4);
    ck_assert_int_eq(rf_edit_distance("kitten", "sitting", 2), 3);
    ck_assert_int_eq(rf_edit_distance("kitten", "sitting", 3), 3);
    /* long strings take the heap rows: 300 a's vs 298 a's + "bc" */
    char x[301], y[301];
    memset(x, 'a', 300);
    x[300] = '\0';
    memset(y, 'a', 298);
    y[298] = 'b';
    y[299] = 'c';
    y[300] = '\0';
    ck_assert_int_eq(rf_edit_distance(x, y, 5), 2);
    ck_assert_int_eq(rf_edit_distance(x, y, 1), 2);
}
END_TEST

START_TEST(diag_did_you_mean)
{
    static const char *const keys[] = { "from", "to", "stiffness", "damping", "damping_ratio" };
    ck_assert_str_eq(rf_did_you_mean("stifness", keys, 5), "stiffness");
    ck_assert_str_eq(rf_did_you_mean("dampng", keys, 5), "damping");
    ck_assert_str_eq(rf_did_you_mean("fro", keys, 5), "from");
    ck_assert_ptr_null(rf_did_you_mean("velocity", keys, 5));
    /* a one-letter word is never a typo of another one-letter word */
    static const char *const one[] = { "x" };
    ck_assert_ptr_null(rf_did_you_mean("y", one, 1));
    /* the closest wins: "dampin" is 1 from damping, 7 from damping_ratio */
    ck_assert_str_eq(rf_did_you_mean("dampin", keys, 5), "damping");
    /* another form of the same word, beyond the edit distance */
    static const char *const common[] = { "x", "y", "rotate", "scale", "opacity", "fill" };
    ck_assert_str_eq(rf_did_you_mean("rotation", common, 6), "rotate");
    ck_assert_str_eq(rf_did_you_mean("scaling", common, 6), "scale");
    ck_assert_ptr_null(rf_did_you_mean("rotational", common, 6)); /* 4 left over */
    ck_assert_ptr_null(rf_did_you_mean("rot", common, 6));        /* under 4 */
    static const char *const ease[] = { "ease", "ease-out-sine" };
    ck_assert_ptr_null(rf_did_you_mean("easeOutBounc", ease, 2));
    ck_assert_ptr_null(rf_did_you_mean("ease-out-foo", ease, 2));
}
END_TEST

START_TEST(diag_pointer_escaping)
{
    char p[64] = "";
    size_t m0 = rf_pointer_push(p, sizeof p, "values");
    ck_assert_uint_eq(m0, 0);
    size_t m1 = rf_pointer_push(p, sizeof p, "a/b~c");
    ck_assert_str_eq(p, "/values/a~1b~0c");
    ck_assert_uint_eq(m1, 7);
    size_t m2 = rf_pointer_push_index(p, sizeof p, 12);
    ck_assert_str_eq(p, "/values/a~1b~0c/12");
    p[m2] = '\0';
    p[m1] = '\0';
    ck_assert_str_eq(p, "/values");
    rf_pointer_push(p, sizeof p, "");
    ck_assert_str_eq(p, "/values/");
    p[m0] = '\0';
    ck_assert_str_eq(p, "");
    /* truncation never overflows and never splits an escape */
    char small[7] = "";
    rf_pointer_push(small, sizeof small, "abcd~");
    ck_assert_str_eq(small, "/abcd");
    rf_pointer_push(small, sizeof small, "zzzzzz");
    ck_assert_uint_lt(strlen(small), sizeof small);
}
END_TEST

START_TEST(diag_messages_and_cap)
{
    rf_diag_syntax(diag, 3, 14, "trailing comma before '%c'", '}');
    ck_assert_str_eq(diag->msg[0], "runeframe: t.json:3:14: trailing comma before '}'");
    rf_diag_at(diag, "/values/x", "must be > %d, got %d", 0, -3);
    ck_assert_str_eq(diag->msg[1], "runeframe: t.json: /values/x: must be > 0, got -3");
    rf_diag_at(diag, "", "a root message");
    ck_assert_str_eq(diag->msg[2], "runeframe: t.json: a root message");
    rf_diag_file(diag, "cannot read: %s", "No such file or directory");
    ck_assert_str_eq(diag->msg[3], "runeframe: t.json: cannot read: No such file or directory");
    for (int i = 0; i < 30; i++)
        rf_diag_at(diag, "/x", "error %d", i);
    ck_assert_int_eq(diag->count, RF_DIAG_MAX);
    ck_assert_int_eq(diag->dropped, 4 + 30 - RF_DIAG_MAX);
    ck_assert(rf_diag_full(diag));

    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    rf_diag_print(diag, f);
    rewind(f);
    char line[RF_DIAG_LINE];
    int n = 0;
    char last[RF_DIAG_LINE] = "";
    while (fgets(line, sizeof line, f) != NULL) {
        n++;
        strcpy(last, line);
    }
    fclose(f);
    ck_assert_int_eq(n, RF_DIAG_MAX + 1);
    ck_assert_str_eq(last, "runeframe: t.json: 14 more errors not shown\n");

    /* a line break in a message would break the one-line rule */
    rf_diag_init(diag, "t.json");
    rf_diag_at(diag, "/k", "a\nb");
    ck_assert_str_eq(diag->msg[0], "runeframe: t.json: /k: a b");
}
END_TEST

/* =============================================================== numfmt */

START_TEST(numfmt_known_strings)
{
    char b[RF_NUM_BUF];
    ck_assert_str_eq(rf_num_short(b, 0.1), "0.1");
    ck_assert_str_eq(rf_num_short(b, 300), "300");
    ck_assert_str_eq(rf_num_short(b, -3), "-3");
    ck_assert_str_eq(rf_num_short(b, 1.0 / 3.0), "0.3333333333333333");
    ck_assert_str_eq(rf_num_short(b, 0.1 + 0.2), "0.30000000000000004");
    ck_assert_str_eq(rf_num_short(b, 1e21), "1e+21");
    ck_assert_str_eq(rf_num_short(b, INFINITY), "inf");
    ck_assert_str_eq(rf_num_short(b, -INFINITY), "-inf");
    ck_assert_str_eq(rf_num_short(b, NAN), "nan");
    ck_assert_str_eq(rf_num_exact(b, 0.1), "0.10000000000000001");
    ck_assert_str_eq(rf_num_exact(b, 2), "2");
    ck_assert_str_eq(rf_num_exact(b, -INFINITY), "-inf");
    ck_assert_str_eq(rf_num_json(b, NAN), "null");
    ck_assert_str_eq(rf_num_json(b, INFINITY), "null");
    ck_assert_str_eq(rf_num_json(b, 12.5), "12.5");
}
END_TEST

START_TEST(numfmt_round_trip)
{
    const double xs[] = {
        0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-300, 5e-324, DBL_MAX, -DBL_MAX, DBL_MIN, -0.0,
        123456789012345678.0, 0.30000000000000004, 299.97311593404481, 1e23, 9007199254740993.0,
        3.141592653589793, -2.718281828459045, 4.35, 0.7 * 30,
    };
    char b[RF_NUM_BUF];
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        ck_assert_msg(strtod(rf_num_short(b, x), NULL) == x, "short %s", b);
        ck_assert_msg(strlen(b) < RF_NUM_BUF, "short fits");
        ck_assert_msg(strtod(rf_num_exact(b, x), NULL) == x, "exact %s", b);
        ck_assert_msg(strtod(rf_num_json(b, x), NULL) == x, "json %s", b);
    }
    /* the sign of zero survives */
    ck_assert(signbit(strtod(rf_num_short(b, -0.0), NULL)));
    /* pseudo-random doubles over all exponents */
    uint64_t s = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 20000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double x;
        memcpy(&x, &s, sizeof x);
        if (!isfinite(x))
            continue;
        ck_assert_msg(strtod(rf_num_short(b, x), NULL) == x, "short %s", b);
    }
}
END_TEST

/* ============================================================== jsonsyn */

static int syn_err(const char *text, int *line, int *col, char *reason, size_t cap)
{
    rf_json_error_t e;
    int r = rf_json_check(text, strlen(text), 64, &e);
    if (r != 0) {
        *line = e.line;
        *col = e.col;
        snprintf(reason, cap, "%s", e.reason);
    }
    return r;
}

#define SYN_AT(text, l, c, why)                                                      \
    do {                                                                             \
        int line_ = 0, col_ = 0;                                                     \
        char r_[200];                                                                \
        ck_assert_int_eq(syn_err(text, &line_, &col_, r_, sizeof r_), -1);           \
        ck_assert_msg(line_ == (l) && col_ == (c), "%s: at %d:%d, want %d:%d (%s)",  \
                      #text, line_, col_, l, c, r_);                                 \
        ck_assert_str_eq(r_, why);                                                   \
    } while (0)

#define SYN_OK(text) ck_assert_int_eq(rf_json_check(text, strlen(text), 64, NULL), 0)

START_TEST(jsonsyn_valid)
{
    SYN_OK("{}");
    SYN_OK("  [ ]\n");
    SYN_OK("\"x\"");
    SYN_OK("true");
    SYN_OK("null");
    SYN_OK("-0");
    SYN_OK("0.5e-3");
    SYN_OK("1E+9");
    SYN_OK("{\"a\": [1, 2, {\"b\": null}], \"c\": \"\\u00e9\\n\\\"\"}");
    SYN_OK("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");          /* e-acute, euro, emoji */
    SYN_OK("\"\\ud83d\\ude00\"");                                  /* a surrogate pair */
    SYN_OK("\xEF\xBB\xBF{\"a\": 1}");                              /* byte order mark */
    /* 63 characters is the longest number */
    char num[80] = "[0.";
    for (int i = 3; i < 64; i++)
        num[i] = (char)('0' + i % 10);
    num[64] = ']';
    num[65] = '\0';
    SYN_OK(num);
    num[64] = '7';           /* 64 characters */
    num[65] = ']';
    num[66] = '\0';
    SYN_AT(num, 1, 2, "number too long: at most 63 characters are supported");
}
END_TEST

START_TEST(jsonsyn_positions)
{
    SYN_AT("{\"a\": 1,}", 1, 8, "trailing comma before '}'");
    SYN_AT("[1, 2,\n]", 1, 6, "trailing comma before ']'");
    SYN_AT("{\n  \"a\": [1 2]\n}", 2, 11,
           "expected ',' or ']' after an array element, got '2' (missing ','?)");
    SYN_AT("{\"a\" 1}", 1, 6, "expected ':' after an object key, got '1'");
    SYN_AT("{\"a\": 1}\n  x", 2, 3, "unexpected 'x' after the end of the JSON value");
    SYN_AT("{\"a\": \"abc", 1, 7, "unterminated string");
    SYN_AT("\t{\"a\":\n\n   \"b\nc\"}", 3, 4,
           "unterminated string (a line break in a string must be written \\n)");
    SYN_AT("", 1, 1, "empty file: expected a JSON object");
    SYN_AT("\n  \n", 3, 1, "empty file: expected a JSON object");
    SYN_AT("{\"a\": [1,\n", 2, 1,
           "unexpected end of file: the array opened at line 1, column 7 is not closed");
    SYN_AT("{\"a\": }", 1, 7, "expected a value after ':', got '}'");
    SYN_AT("{1: 2}", 1, 2, "object keys must be strings in double quotes");
    SYN_AT("{\"a\": 1, ]", 1, 10, "expected a string key in double quotes, got ']'");
    SYN_AT("{a: 2}", 1, 2, "object keys must be strings in double quotes");
    SYN_AT("['a']", 1, 2, "strings must use double quotes, not single quotes");
    SYN_AT("{} // done", 1, 4, "comments are not allowed in JSON");
    SYN_AT("[tru]", 1, 2, "invalid literal 'tru' (did you mean 'true'?)");
    SYN_AT("[True]", 1, 2, "invalid literal 'True': JSON literals are lowercase (true, false, null)");
    SYN_AT("[Infinity]", 1, 2, "Infinity is not a JSON number: every number must be finite");
}
END_TEST

START_TEST(jsonsyn_numbers)
{
    SYN_AT("[-]", 1, 2, "invalid number: expected a digit after '-'");
    SYN_AT("[01]", 1, 2, "invalid number: leading zeros are not allowed");
    SYN_AT("[1.]", 1, 2, "invalid number: expected a digit after '.'");
    SYN_AT("[1e]", 1, 2, "invalid number: expected a digit in the exponent");
    SYN_AT("[1e+]", 1, 2, "invalid number: expected a digit in the exponent");
    SYN_AT("[.5]", 1, 2, "invalid number: a leading '.' needs a digit before it");
    SYN_AT("[+1]", 1, 2, "invalid number: a leading '+' is not allowed");
    SYN_AT("[12px]", 1, 2, "invalid number '12px'");
    SYN_AT("[1.2.3]", 1, 2, "invalid number '1.2.3'");
}
END_TEST

START_TEST(jsonsyn_strings_utf8)
{
    SYN_AT("\"\xC0\xAF\"", 1, 2, "invalid UTF-8 byte 0xC0 in a string");       /* overlong */
    SYN_AT("\"\xED\xA0\x80\"", 1, 2, "invalid UTF-8 byte 0xED in a string");   /* surrogate */
    SYN_AT("\"\xF4\x90\x80\x80\"", 1, 2, "invalid UTF-8 byte 0xF4 in a string"); /* > U+10FFFF */
    SYN_AT("\"ab\xE2\x82\"", 1, 4, "invalid UTF-8 byte 0xE2 in a string");     /* truncated */
    SYN_AT("[\xFF]", 1, 2, "invalid UTF-8 byte 0xFF");
    SYN_AT("[\"a\tb\"]", 1, 4,
           "raw control character U+0009 in a string: write it as an escape (\\u0009)");
    SYN_AT("\"\\x41\"", 1, 2, "invalid escape '\\x' in a string");
    SYN_AT("\"\\u12G4\"", 1, 2, "invalid \\u escape: expected 4 hex digits");
    SYN_AT("\"\\u0000\"", 1, 2, "\\u0000 (a NUL character) is not allowed in strings");
    SYN_AT("\"\\ude00\"", 1, 2, "invalid \\u escape: \\uDE00 is a lone low surrogate");
    SYN_AT("\"\\ud83dx\"", 1, 2,
           "invalid \\u escape: high surrogate \\uD83D is not followed by a low surrogate");
    /* a NUL byte is not whitespace */
    rf_json_error_t e;
    ck_assert_int_eq(rf_json_check("{}\0", 3, 64, &e), -1);
    ck_assert_int_eq(e.col, 3);
    ck_assert_str_eq(e.reason, "unexpected NUL byte after the end of the JSON value");
}
END_TEST

START_TEST(jsonsyn_depth_limit)
{
    char buf[300];
    /* 64 levels pass, the 65th opening bracket fails where it stands */
    for (int depth = 63; depth <= 66; depth++) {
        int o = 0;
        for (int i = 0; i < depth; i++)
            buf[o++] = '[';
        for (int i = 0; i < depth; i++)
            buf[o++] = ']';
        buf[o] = '\0';
        rf_json_error_t e;
        int r = rf_json_check(buf, (size_t)o, 64, &e);
        if (depth <= 64) {
            ck_assert_int_eq(r, 0);
        } else {
            ck_assert_int_eq(r, -1);
            ck_assert_int_eq(e.line, 1);
            ck_assert_int_eq(e.col, 65);
            ck_assert_str_eq(e.reason, "nesting too deep: more than 64 levels of objects and arrays");
        }
    }
    /* objects count like arrays; a large input never recurses */
    size_t n = 200000;
    char *deep = malloc(2 * n + 1);
    ck_assert_ptr_nonnull(deep);
    for (size_t i = 0; i < n; i++) {
        deep[i] = '[';
        deep[n + i] = ']';
    }
    deep[2 * n] = '\0';
    rf_json_error_t e;
    ck_assert_int_eq(rf_json_check(deep, 2 * n, 64, &e), -1);
    ck_assert_int_eq(e.col, 65);
    free(deep);
    ck_assert_int_eq(rf_json_check("{\"a\":{\"b\":{}}}", 14, 3, NULL), 0);
    ck_assert_int_eq(rf_json_check("{\"a\":{\"b\":{}}}", 14, 2, &e), -1);
    ck_assert_int_eq(e.col, 11);
}
END_TEST

START_TEST(jsonsyn_position_fn)
{
    int l, c;
    rf_json_position("ab\ncd\n\nx", 0, &l, &c);
    ck_assert(l == 1 && c == 1);
    rf_json_position("ab\ncd\n\nx", 4, &l, &c);
    ck_assert(l == 2 && c == 2);
    rf_json_position("ab\ncd\n\nx", 7, &l, &c);
    ck_assert(l == 4 && c == 1);
    rf_json_position("ab\ncd\n\nx", 6, &l, &c);
    ck_assert(l == 3 && c == 1);
}
END_TEST

/* ================================================================ scene */

START_TEST(scene_defaults)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 1}}");
    ck_assert_int_eq(sc->width, 64);
    ck_assert_int_eq(sc->height, 32);
    ck_assert_uint_eq(sc->background, 0);
    ck_assert(sc->fps == 60);
    ck_assert(sc->duration == 1);
    ck_assert_int_eq(sc->duration_auto, 0);
    ck_assert_int_eq(sc->nframes, 61);
    ck_assert_uint_eq(sc->values.n, 0);
    ck_assert_uint_eq(sc->nlayers, 0);
    ck_assert_int_eq(sc->has_checks, 0);
    ck_assert_ptr_null(sc->check_frames);
    ck_assert_str_eq(sc->file, "t.json");
    rf_scene_destroy(sc);
    rf_scene_destroy(NULL);
}
END_TEST

START_TEST(scene_background_colors)
{
    static const struct { const char *c; uint32_t v; } cases[] = {
        { "#0b1020", 0x0b1020ffu }, { "#abc", 0xaabbccffu }, { "#11223344", 0x11223344u },
        { "#FfFfFf", 0xffffffffu }, { "#1234", 0x11223344u }, { "#00000000", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{\"runeframe\": 1, \"canvas\": {\"width\": 2, \"height\": 2, "
                 "\"background\": \"%s\"}, \"timeline\": {\"duration\": 1}}", cases[i].c);
        rf_scene_t *sc = load(json);
        ck_assert_uint_eq(sc->background, cases[i].v);
        rf_scene_destroy(sc);
    }
}
END_TEST

static long frames_for(const char *timeline)
{
    char json[256];
    snprintf(json, sizeof json, HEAD "\"timeline\": %s}", timeline);
    rf_scene_t *sc = load(json);
    long n = sc->nframes;
    rf_scene_destroy(sc);
    return n;
}

START_TEST(scene_frame_count)
{
    /* N = floor(duration * fps + 1e-9) + 1 */
    ck_assert_int_eq(frames_for("{\"fps\": 60, \"duration\": 2}"), 121);
    ck_assert_int_eq(frames_for("{\"fps\": 30, \"duration\": 0.1}"), 4);
    ck_assert_int_eq(frames_for("{\"fps\": 24, \"duration\": 1}"), 25);
    ck_assert_int_eq(frames_for("{\"fps\": 29.97, \"duration\": 10}"), 300);
    ck_assert_int_eq(frames_for("{\"fps\": 1000, \"duration\": 0.001}"), 2);
    ck_assert_int_eq(frames_for("{\"fps\": 60, \"duration\": 0.01}"), 1);
    /* 1.16 * 25 is 28.999999999999996 in doubles: the guard makes it 29 */
    volatile double d = 1.16, f = 25;
    ck_assert(d * f < 29.0);
    ck_assert_int_eq(frames_for("{\"fps\": 25, \"duration\": 1.16}"), 30);
    /* the limit is duration * fps <= 10,000,000 */
    ck_assert_int_eq(frames_for("{\"fps\": 1000, \"duration\": 10000}"), 10000001);
    ck_assert(fails_with(HEAD "\"timeline\": {\"fps\": 1000, \"duration\": 20000}}",
                         "/timeline/duration: too many frames: duration * fps = 20000 * "
                         "1000 = 20000000, the limit is 10000000"));
}
END_TEST

START_TEST(scene_frame_time)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"fps\": 10, \"duration\": 1}}");
    /* one division per frame: frame 3 is exactly the double 0.3, which
     * three accumulated steps of 0.1 (0.30000000000000004) are not */
    ck_assert(rf_scene_frame_time(sc, 3) == 0.3);
    volatile double acc = 0;
    for (int i = 0; i < 3; i++)
        acc += 0.1;
    ck_assert(acc != 0.3);
    ck_assert(rf_scene_frame_time(sc, 7) == 0.7);
    ck_assert(rf_scene_frame_time(sc, 0) == 0);
    ck_assert(rf_scene_frame_time(sc, 10) == 1);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_auto_duration)
{
    /* the used tween settles at 0.25 + 0.5; the unused bezier at 3 */
    const char *used =
        HEAD "\"values\": {\"a\": {\"tween\": {\"to\": 1, \"duration\": 0.5, \"start\": 0.25}},"
        " \"b\": {\"bezier\": {\"to\": 1, \"duration\": 3}}},"
        " \"layers\": [{\"type\": \"circle\", \"r\": \"a\"}]}";
    rf_scene_t *sc = load(used);
    ck_assert_int_eq(sc->duration_auto, 1);
    ck_assert(sc->duration == 0.75);
    ck_assert_int_eq(sc->nframes, 46);
    ck_assert_int_eq(sc->values.values[0].used, 1);
    ck_assert_int_eq(sc->values.values[1].used, 0);
    rf_scene_destroy(sc);

    /* no layer uses a value: all values count */
    sc = load(HEAD "\"timeline\": {\"duration\": \"auto\", \"fps\": 30},"
              " \"values\": {\"a\": {\"tween\": {\"to\": 1, \"duration\": 0.5}},"
              " \"b\": {\"bezier\": {\"to\": 1, \"duration\": 3}}, \"c\": 7}}");
    ck_assert(sc->duration == 3);
    ck_assert_int_eq(sc->nframes, 91);
    rf_scene_destroy(sc);

    /* a used value that loops forever and an unused one that settles */
    ck_assert(fails_with(HEAD "\"values\": {\"a\": {\"repeat\": {\"to\": 1, \"duration\": 1}},"
                         " \"b\": {\"tween\": {\"to\": 1, \"duration\": 2}}},"
                         " \"layers\": [{\"type\": \"circle\", \"r\": \"a\"}]}",
                         "/timeline/duration: \"auto\" needs a value that settles: set a "
                         "duration in seconds"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"values\": {\"a\": 1}}",
                         "/timeline/duration: \"auto\" needs a value that settles: set a "
                         "duration in seconds"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {}}",
                         "/timeline/duration: \"auto\" needs a value that settles: set a "
                         "duration in seconds"));
}
END_TEST

START_TEST(scene_checks)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 2},"
                          " \"checks\": {\"times\": [1.0, 0, 0.5, 0.5, 0.0083, 2]}}");
    /* round(t * 60): 60, 0, 30, 30, round(0.498) = 0, 120 */
    ck_assert_int_eq(sc->has_checks, 1);
    ck_assert_uint_eq(sc->ncheck_frames, 4);
    ck_assert_int_eq(sc->check_frames[0], 0);
    ck_assert_int_eq(sc->check_frames[1], 30);
    ck_assert_int_eq(sc->check_frames[2], 60);
    ck_assert_int_eq(sc->check_frames[3], 120);
    rf_scene_destroy(sc);

    sc = load(HEAD "\"timeline\": {\"duration\": 1, \"fps\": 10},"
              " \"checks\": {\"frames\": [5, 2, 5, 10]}}");
    ck_assert_uint_eq(sc->ncheck_frames, 3);
    ck_assert_int_eq(sc->check_frames[0], 2);
    ck_assert_int_eq(sc->check_frames[1], 5);
    ck_assert_int_eq(sc->check_frames[2], 10);
    rf_scene_destroy(sc);

    /* with "auto", frames resolve once the duration is known: 0.5 s at 10 fps */
    sc = load(HEAD "\"timeline\": {\"fps\": 10}, \"values\": {\"a\": {\"tween\": {\"to\": 1,"
              " \"duration\": 0.5}}}, \"checks\": {\"times\": [0.5]}}");
    ck_assert_uint_eq(sc->ncheck_frames, 1);
    ck_assert_int_eq(sc->check_frames[0], 5);
    rf_scene_destroy(sc);

    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1, \"fps\": 10},"
                         " \"checks\": {\"frames\": [11]}}",
                         "/checks/frames/0: frame 11 does not exist: frames are 0..10"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"checks\": {\"frames\": [1.5]}}",
                         "/checks/frames/0: must be an integer, got 1.5"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"checks\": {}}",
                         "/checks: needs 'times' or 'frames'"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"checks\": {\"times\": []}}",
                         "/checks/times: must not be empty"));
}
END_TEST

START_TEST(scene_static_values)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 1},"
                          " \"values\": {\"a\": 3.5, \"b\": -2}}");
    const rf_values_t *vs = &sc->values;
    ck_assert_uint_eq(vs->n, 2);
    ck_assert_uint_eq(vs->nnamed, 2);
    ck_assert_uint_eq(vs->nslots, 2);
    const rf_value_t *a = rf_values_find(vs, "a");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->kind, RF_VALUE_STATIC);
    ck_assert_str_eq(rf_value_kind_name(a->kind), "static");
    ck_assert(a->settle == 0);
    ck_assert(a->final == 3.5);
    ck_assert(a->lo == 3.5 && a->hi == 3.5);
    double out[2];
    rf_values_eval(vs, 10, out);
    ck_assert(out[a->slot] == 3.5);
    ck_assert(out[rf_values_find(vs, "b")->slot] == -2);
    out[a->slot] = 0;
    rf_value_eval(a, 0, out);
    ck_assert(out[a->slot] == 3.5);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_find_by_name)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"zeta\": 1,"
                          " \"alpha\": 2, \"mid\": 3, \"Alpha\": 4, \"alpha2\": 5, \"_\": 6}}");
    const rf_values_t *vs = &sc->values;
    static const char *const names[] = { "zeta", "alpha", "mid", "Alpha", "alpha2", "_" };
    for (int i = 0; i < 6; i++) {
        const rf_value_t *v = rf_values_find(vs, names[i]);
        ck_assert_ptr_nonnull(v);
        ck_assert_str_eq(v->name, names[i]);
        ck_assert(v->final == i + 1);      /* file order is kept in values[] */
        ck_assert_ptr_eq(v, &vs->values[i]);
    }
    /* by_name really is strcmp order */
    for (uint32_t i = 1; i < vs->nnamed; i++)
        ck_assert_int_lt(strcmp(vs->values[vs->by_name[i - 1]].name,
                                vs->values[vs->by_name[i]].name), 0);
    ck_assert_ptr_null(rf_values_find(vs, "alph"));
    ck_assert_ptr_null(rf_values_find(vs, "ALPHA"));
    ck_assert_ptr_null(rf_values_find(vs, ""));
    ck_assert_ptr_eq(rf_values_findn(vs, "alpha2.x", 6), rf_values_find(vs, "alpha2"));
    ck_assert_ptr_eq(rf_values_findn(vs, "alpha2.x", 5), rf_values_find(vs, "alpha"));
    ck_assert_ptr_null(rf_values_findn(vs, "alpha2.x", 4));
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_inline_values)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 1},"
                          " \"values\": {\"x\": {\"spring\": {\"to\": 10}}, \"unused\": 4},"
                          " \"layers\": [{\"type\": \"circle\", \"x\": \"x\","
                          " \"r\": {\"tween\": {\"from\": 2, \"to\": 4, \"duration\": 0.5}}},"
                          " {\"type\": \"group\", \"children\": [{\"type\": \"rect\","
                          " \"width\": {\"bezier\": {\"to\": 8, \"duration\": 1}}, \"height\": 5}]}]}");
    const rf_values_t *vs = &sc->values;
    ck_assert_uint_eq(vs->nnamed, 2);
    ck_assert_uint_eq(vs->n, 4);
    ck_assert_uint_eq(sc->nlayers, 2);
    ck_assert_int_eq(rf_values_find(vs, "x")->used, 1);
    ck_assert_int_eq(rf_values_find(vs, "unused")->used, 0);
    const rf_value_t *r = &vs->values[2], *w = &vs->values[3];
    ck_assert_str_eq(r->name, "");
    ck_assert_int_eq(r->kind, RF_VALUE_TWEEN);
    ck_assert_int_eq(r->used, 1);
    ck_assert_str_eq(w->name, "");
    ck_assert_int_eq(w->kind, RF_VALUE_BEZIER);
    ck_assert_uint_eq(r->slot, 2);
    ck_assert_uint_eq(vs->nslots, 4);
    /* a linear tween: halfway at 0.25 s */
    double out[4];
    rf_values_eval(vs, 0.25, out);
    ck_assert(fabs(out[2] - 3.0) < 1e-12);
    ck_assert(out[1] == 4);
    ck_assert_ptr_null(rf_values_find(vs, ""));
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_spring_and_damping_ratio)
{
    /* damping_ratio 0.5 at stiffness 100 is damping 2 * 0.5 * 10 = 10 */
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 2}, \"values\": {"
                          "\"a\": {\"spring\": {\"from\": 5, \"to\": 1, \"stiffness\": 100,"
                          " \"damping_ratio\": 0.5, \"velocity\": 3}},"
                          "\"d\": {\"spring\": {\"to\": 300}}}}");
    const rf_values_t *vs = &sc->values;
    const rf_value_t *a = rf_values_find(vs, "a"), *d = rf_values_find(vs, "d");
    ck_assert_int_eq(a->kind, RF_VALUE_SPRING);
    double out[2];
    /* before its settle time a spring is the closed form; at and after it,
     * exactly its target (within threshold 0.01 of the closed form) */
    ck_assert(isfinite(a->settle) && isfinite(d->settle));
    for (double t = 0.05; t < 3; t += 0.037) {
        rf_values_eval(vs, t, out);
        long double ra = spring_ref(5, 1, 100, 10, 3, t, NULL);
        long double rd = spring_ref(0, 300, 170, 26, 0, t, NULL);   /* the defaults */
        if (t < a->settle)
            ck_assert_msg(fabsl(out[a->slot] - ra) < 1e-9, "a(%g) = %.17g, want %.17Lg", t,
                          out[a->slot], ra);
        else
            ck_assert(out[a->slot] == 1 && fabsl(ra - 1) <= 0.01);
        if (t < d->settle)
            ck_assert_msg(fabsl(out[d->slot] - rd) < 1e-9, "d(%g) = %.17g, want %.17Lg", t,
                          out[d->slot], rd);
        else
            ck_assert(out[d->slot] == 300 && fabsl(rd - 300) <= 0.01);
    }
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_sequence)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 2}, \"values\": {\"s\": {\"sequence\": ["
                          "{\"at\": 0, \"spring\": {\"from\": 0, \"to\": 300}},"
                          "{\"at\": 0.4, \"spring\": {\"to\": 120, \"stiffness\": 300}},"
                          "{\"at\": 0.9, \"spring\": {\"from\": 50, \"to\": 0}}]}}}");
    const rf_value_t *s = rf_values_find(&sc->values, "s");
    ck_assert_int_eq(s->kind, RF_VALUE_SEQUENCE);
    ck_assert_str_eq(rf_value_kind_name(s->kind), "sequence");
    ck_assert_uint_eq(s->track.n, 3);
    ck_assert(s->track.segs[0].start == 0);
    ck_assert(s->track.segs[1].start == 0.4);
    ck_assert(s->track.segs[2].start == 0.9);
    /* entry 1 inherits value and velocity of entry 0 at 0.4 */
    long double v04;
    long double x04 = spring_ref(0, 300, 170, 26, 0, 0.4L, &v04);
    ck_assert(fabsl(s->track.segs[1].from - x04) < 1e-9);
    double x, v;
    rf_anim_eval_state(&s->track.segs[1], 0.4, &x, &v);
    ck_assert(fabsl(x - x04) < 1e-9);
    ck_assert_msg(fabsl(v - v04) < 1e-6, "v %.17g want %.17Lg", v, v04);
    /* and follows its own spring from there */
    long double x06 = spring_ref(x04, 120, 300, 26, v04, 0.2L, NULL);
    ck_assert(fabsl(rf_track_eval(&s->track, 0.6) - x06) < 1e-6);
    /* an explicit from overrides what entry 2 would inherit; its velocity
     * is still inherited from entry 1 at 0.9 */
    ck_assert(s->track.segs[2].from == 50);
    long double v09;
    spring_ref(x04, 120, 300, 26, v04, 0.5L, &v09);
    long double x10 = spring_ref(50, 0, 170, 26, v09, 0.1L, NULL);
    ck_assert_msg(fabsl(rf_track_eval(&s->track, 1.0) - x10) < 1e-6, "%.17g want %.17Lg",
                  rf_track_eval(&s->track, 1.0), x10);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_sequence_errors)
{
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"s\": {\"sequence\": ["
                         "{\"at\": 0.5, \"spring\": {\"to\": 1}}, {\"at\": 0.2, \"decay\": {}}]}}}",
                         "/values/s/sequence/1/at: must be greater than the previous entry's "
                         "'at' (0.5), got 0.2"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"s\": {\"sequence\": ["
                         "{\"at\": 0, \"spring\": {\"to\": 1, \"start\": 0}}]}}}",
                         "/values/s/sequence/0/spring/start: use the entry's 'at' instead of "
                         "'start'"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"s\": {\"sequence\": ["
                         "{\"at\": 0, \"spring\": {\"to\": 1}, \"tween\": {}}]}}}",
                         "/values/s/sequence/0/tween: an entry has exactly one kind, got "
                         "'spring' and 'tween'"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"s\": {\"sequence\": ["
                         "{\"at\": 0, \"sprin\": {\"to\": 1}}]}}}",
                         "/values/s/sequence/0/sprin: unknown key 'sprin' (did you mean "
                         "'spring'?)"));
}
END_TEST

START_TEST(scene_kinds_and_keyframes)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 2}, \"values\": {"
                          "\"k\": {\"keyframes\": {\"duration\": 2, \"keys\": [[0, 0], [0.5, 80],"
                          " [0.75, 90, \"ease-out\"], [1, 100, [0.1, 0.2, 0.3, 1.4]]]}},"
                          "\"r\": {\"repeat\": {\"to\": 10, \"duration\": 1, \"iterations\": 2}},"
                          "\"p\": {\"physics\": {\"velocity\": 10, \"friction\": 2}},"
                          "\"d\": {\"decay\": {\"velocity\": 42}},"
                          "\"b\": {\"bezier\": {\"to\": 1, \"duration\": {\"speed\": 4, \"min\": 0.1}}}}}");
    const rf_values_t *vs = &sc->values;
    const rf_value_t *k = rf_values_find(vs, "k");
    ck_assert_int_eq(k->kind, RF_VALUE_KEYFRAMES);
    ck_assert_uint_eq(k->track.segs[0].nkeys, 4);
    ck_assert(k->track.segs[0].keys[1].time == 0.5);
    ck_assert(k->track.segs[0].keys[3].value == 100);
    ck_assert_int_eq(k->track.segs[0].keys[1].easing.kind, RF_EASE_LINEAR);
    ck_assert_int_eq(k->track.segs[0].keys[2].easing.kind, RF_EASE_CUBIC);
    ck_assert_int_eq(k->track.segs[0].keys[3].easing.kind, RF_EASE_CUBIC);
    /* keyframes easings are not clamped: y2 = 1.4 stays */
    ck_assert(k->track.segs[0].keys[3].easing.p[3] == 1.4);
    ck_assert(k->settle == 2);
    ck_assert(k->final == 100);
    /* linear between the first two keys: 40 at a quarter of the time */
    double out[5];
    rf_values_eval(vs, 0.5, out);
    ck_assert(fabs(out[k->slot] - 40) < 1e-9);

    const rf_value_t *r = rf_values_find(vs, "r");
    ck_assert_int_eq(r->kind, RF_VALUE_REPEAT);
    ck_assert_int_eq(r->track.segs[0].repeat, RF_REPEAT_LOOP);   /* repeat's default mode */
    ck_assert_uint_eq(r->track.segs[0].iterations, 2);
    ck_assert(fabs(out[r->slot] - 5) < 1e-12);                   /* linear, half a cycle */

    /* gravity-free fling: asymptote from + v / friction = 5 */
    const rf_value_t *p = rf_values_find(vs, "p");
    ck_assert_int_eq(p->kind, RF_VALUE_PHYSICS);
    ck_assert(fabs(p->final - 5) < 1e-12);
    /* decay: asymptote v / (4.2 * friction) with the default friction 1 */
    const rf_value_t *d = rf_values_find(vs, "d");
    ck_assert(fabs(d->final - 10) < 1e-12);
    /* duration policy: |1 - 0| / 4 = 0.25 s, above min 0.1 */
    const rf_value_t *b = rf_values_find(vs, "b");
    ck_assert(fabs(b->settle - 0.25) < 1e-12);
    /* the bezier's default curve is CSS "ease" = cubic-bezier(0.25, 0.1, 0.25, 1) */
    ck_assert_int_eq(b->track.segs[0].easing.kind, RF_EASE_CUBIC);
    ck_assert(b->track.segs[0].easing.p[0] == 0.25 && b->track.segs[0].easing.p[1] == 0.1);
    rf_scene_destroy(sc);

    /* tween's default easing is linear */
    sc = load(HEAD "\"timeline\": {\"duration\": 2}, \"values\": {\"tw\": {\"tween\": {\"to\": 8,"
              " \"duration\": 2}}}}");
    ck_assert_int_eq(sc->values.values[0].track.segs[0].easing.kind, RF_EASE_LINEAR);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_unknown_keys_did_you_mean)
{
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"spring\":"
                         " {\"to\": 1, \"stifness\": 3}}}}",
                         "/values/x/spring/stifness: unknown key 'stifness' (did you mean "
                         "'stiffness'?)"));
    /* lookups are case-sensitive */
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with("{\"runeframe\": 1, \"canvas\": {\"Width\": 64, \"height\": 32},"
                         " \"timeline\": {\"duration\": 1}}",
                         "/canvas/Width: unknown key 'Width' (did you mean 'width'?)"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"Values\": {}}",
                         "/Values: unknown key 'Values' (did you mean 'values'?)"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": 1},"
                         " \"layers\": [{\"type\": \"circle\", \"y\": \"xx\"}]}",
                         "/layers/0/y: unknown value 'xx' (did you mean 'x'?)"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": 1},"
                         " \"layers\": [{\"type\": \"circle\", \"opacty\": 1}]}",
                         "/layers/0/opacty: unknown key 'opacty' (did you mean 'opacity'?)"));
}
END_TEST

START_TEST(scene_pointer_escaping)
{
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"a/b~c\": 1}}",
                         "/values/a~1b~0c: invalid value name 'a/b~c': a name is a letter or "
                         "'_' followed by letters, digits and '_'"));
    rf_diag_init(diag, "t.json");
    ck_assert(fails_with(HEAD "\"timeline\": {\"duration\": 1}, \"~/\": 1}",
                         "/~0~1: unknown key '~/' (known: runeframe, canvas, timeline, values, "
                         "paths, layers, checks, fonts, reduced_motion, "
                         "motion_scheme, $schema, states, transitions, storyboard)"));
}
END_TEST

START_TEST(scene_error_cap)
{
    /* 25 errors: 20 kept, 5 counted */
    char json[8192];
    int o = snprintf(json, sizeof json, HEAD "\"timeline\": {\"duration\": 1}, \"values\": {");
    for (int i = 0; i < 25; i++)
        o += snprintf(json + o, sizeof json - (size_t)o, "%s\"v%d\": {\"decay\": {\"friction\": -%d}}",
                      i ? ", " : "", i, i + 1);
    snprintf(json + o, sizeof json - (size_t)o, "}}");
    ck_assert_ptr_null(rf_scene_load_buffer("t.json", json, strlen(json), diag));
    ck_assert_int_eq(diag->count, 20);
    ck_assert_int_eq(diag->dropped, 5);
    ck_assert_int_eq(diag->io_error, 0);
    ck_assert_str_eq(diag->msg[0], "runeframe: t.json: /values/v0/decay/friction: must be > 0, got -1");
    ck_assert_str_eq(diag->msg[19], "runeframe: t.json: /values/v19/decay/friction: must be > 0, got -20");
}
END_TEST

START_TEST(scene_types_and_ranges)
{
    static const struct { const char *json, *msg; } cases[] = {
        { "{\"runeframe\": 1, \"canvas\": {\"width\": 12.5, \"height\": 3}, \"timeline\": {\"duration\": 1}}",
          "/canvas/width: must be an integer, got 12.5" },
        { "{\"runeframe\": 1, \"canvas\": {\"width\": 64}, \"timeline\": {\"duration\": 1}}",
          "/canvas: missing required key 'height'" },
        { "{\"runeframe\": 1, \"canvas\": {\"width\": 16385, \"height\": 1}, \"timeline\": {\"duration\": 1}}",
          "/canvas/width: must be an integer in 1..16384, got 16385" },
        { "{\"runeframe\": 1, \"canvas\": {\"width\": 8192, \"height\": 8193}, \"timeline\": {\"duration\": 1}}",
          "/canvas: too many pixels: width * height must be at most 67108864, got 8192 * 8193 = 67117056" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"spring\": {\"to\": 1, \"stiffness\": -3}}}}",
          "/values/x/spring/stiffness: must be > 0, got -3" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"spring\": {\"to\": \"a\"}}}}",
          "/values/x/spring/to: must be a number, an array of 2 to 4 numbers or a color, got "
          "\"a\" (not a color: unknown color name)" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"spring\": {\"from\": 1}}}}",
          "/values/x/spring: missing required key 'to'" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"spring\": {\"to\": -1e999}}}}",
          "/values/x/spring/to: number out of range: every number must be finite" },
        { HEAD "\"timeline\": {\"duration\": 1e999}}",
          "/timeline/duration: number out of range: every number must be finite" },
        { HEAD "\"timeline\": {\"duration\": 0}}",
          "/timeline/duration: must be > 0, got 0" },
        { HEAD "\"timeline\": {\"duration\": 1, \"fps\": 1000.5}}",
          "/timeline/fps: must be in (0, 1000], got 1000.5" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"physics\": {\"friction\": -1}}}}",
          "/values/x/physics/friction: must be >= 0, got -1" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"physics\": {\"from\": 9, \"min\": 0, \"max\": 5}}}}",
          "/values/x/physics/from: must lie within [min, max] = [0, 5], got 9" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"expr\": 5}}}",
          "/values/x/expr: must be an expression string such as \"2*x + t\", got a number" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"sample_path\": {}}}}",
          "/values/x/sample_path: missing required key 'path'" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {}}}",
          "/values/x: missing the value kind: one of spring, bezier, repeat, tween, physics, decay, keyframes, snap, sequence, expr, sample_path" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"max\": 1}}",
          "/values/max: invalid value name 'max': it is a function name" },
        { "{\"runeframe\": \"1\", \"canvas\": {\"width\": 2, \"height\": 2}, \"timeline\": {\"duration\": 1}}",
          "/runeframe: must be 1 (the format version), got a string" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"timeline\": {}}",
          "/timeline: duplicate key 'timeline'" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": 1, \"y\": 2, \"x\": 3}}",
          "/values/x: duplicate key 'x'" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"paths\": {\"p\": \"M0 0\", \"p\": \"M1 1\"}}",
          "/paths/p: duplicate key 'p'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rf_diag_init(diag, "t.json");
        ck_assert_msg(fails_with(cases[i].json, cases[i].msg), "case %zu", i);
    }
    /* 1.0 is the version 1 */
    rf_scene_destroy(load("{\"runeframe\": 1.0, \"canvas\": {\"width\": 16384, \"height\": 4096},"
                          " \"timeline\": {\"duration\": 1}}"));
}
END_TEST

START_TEST(scene_syntax_errors_in_diag)
{
    const char *json = "{\"runeframe\": 1,\n  \"canvas\": {\"width\": 2,}\n}";
    ck_assert_ptr_null(rf_scene_load_buffer("s.json", json, strlen(json), diag));
    ck_assert_int_eq(diag->count, 1);
    ck_assert_str_eq(diag->msg[0], "runeframe: s.json:2:24: trailing comma before '}'\n"
                                   "      \"canvas\": {\"width\": 2,}\n"
                                   "                           ^");
    /* a byte order mark is accepted */
    const char *bom = "\xEF\xBB\xBF{\"runeframe\": 1, \"canvas\": {\"width\": 2, \"height\": 2},"
                      " \"timeline\": {\"duration\": 1}}";
    rf_scene_destroy(load(bom));
    /* the buffer need not be NUL-terminated: only len bytes are read */
    const char *two = HEAD "\"timeline\": {\"duration\": 1}}GARBAGE";
    rf_scene_t *sc = rf_scene_load_buffer("t.json", two, strlen(two) - 7, diag);
    ck_assert_ptr_nonnull(sc);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_limits)
{
    /* the file size is checked before anything is parsed */
    size_t big = (size_t)RF_MAX_FILE_BYTES + 1;
    char *buf = malloc(big);
    ck_assert_ptr_nonnull(buf);
    memset(buf, ' ', big);
    ck_assert_ptr_null(rf_scene_load_buffer("big.json", buf, big, diag));
    ck_assert_int_eq(diag->io_error, 0);
    ck_assert_str_eq(diag->msg[0], "runeframe: big.json: file too large: a scene is at most "
                     "67108864 bytes (64 MiB), this one has 67108865");
    free(buf);

    /* 100,000 items in all: 100,001 values are too many */
    size_t cap = 16u << 20;
    char *json = malloc(cap);
    ck_assert_ptr_nonnull(json);
    for (int n = RF_MAX_ITEMS; n <= RF_MAX_ITEMS + 1; n++) {
        size_t o = (size_t)snprintf(json, cap, HEAD "\"timeline\": {\"duration\": 1}, \"values\": {");
        for (int i = 0; i < n; i++)
            o += (size_t)snprintf(json + o, cap - o, "%s\"v%d\": %d", i ? "," : "", i, i);
        o += (size_t)snprintf(json + o, cap - o, "}}");
        rf_diag_init(diag, "t.json");
        rf_scene_t *sc = rf_scene_load_buffer("t.json", json, o, diag);
        if (n == RF_MAX_ITEMS) {
            ck_assert_ptr_nonnull(sc);
            ck_assert_uint_eq(sc->values.n, RF_MAX_ITEMS);
            const rf_value_t *v = rf_values_find(&sc->values, "v77777");
            ck_assert_ptr_nonnull(v);
            ck_assert(v->final == 77777);
            rf_scene_destroy(sc);
        } else {
            ck_assert_ptr_null(sc);
            ck_assert_int_eq(diag->count, 1);
            ck_assert_str_eq(diag->msg[0], "runeframe: t.json: /values/v100000: too many items: a "
                             "scene has at most 100000 values, layers, path segments and "
                             "sequence entries in all");
        }
    }
    free(json);
}
END_TEST

START_TEST(scene_load_file)
{
    char path[] = "/tmp/check_scene_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(HEAD "\"timeline\": {\"duration\": 0.5, \"fps\": 20}}\n", f);
    fclose(f);
    rf_scene_t *sc = rf_scene_load(path, diag);
    ck_assert_ptr_nonnull(sc);
    ck_assert_int_eq(sc->nframes, 11);
    ck_assert_str_eq(sc->file, path);
    rf_scene_destroy(sc);
    remove(path);

    rf_diag_init(diag, "x");
    ck_assert_ptr_null(rf_scene_load("/nonexistent/dir/scene.json", diag));
    ck_assert_int_eq(diag->io_error, 1);
    char want[200];
    snprintf(want, sizeof want, "runeframe: /nonexistent/dir/scene.json: cannot read: %s",
             strerror(ENOENT));
    ck_assert_str_eq(diag->msg[0], want);
    ck_assert_str_eq(diag->file, "/nonexistent/dir/scene.json");
}
END_TEST

/* ================================================================ derived values */

/* Evaluates every value of vs at t into a fresh array (free it). */
static double *eval_all(const rf_values_t *vs, double t)
{
    double *out = malloc((vs->nslots ? vs->nslots : 1) * sizeof *out);
    ck_assert_ptr_nonnull(out);
    for (uint32_t i = 0; i < vs->nslots; i++)
        out[i] = -12345.678;   /* nothing may be left unwritten */
    rf_values_eval(vs, t, out);
    return out;
}

/* Output comp (0: the value, or x; 1: y; 2: angle) of name at t. */
static double value_at(const rf_values_t *vs, const char *name, uint32_t comp, double t)
{
    const rf_value_t *v = rf_values_find(vs, name);
    ck_assert_msg(v != NULL, "no value '%s'", name);
    ck_assert_uint_lt(comp, v->nout);
    double *out = eval_all(vs, t);
    double x = out[v->slot + comp];
    free(out);
    return x;
}

/* Position of value index i in the evaluation order. */
static uint32_t order_pos(const rf_values_t *vs, uint32_t i)
{
    for (uint32_t k = 0; k < vs->n; k++)
        if (vs->order[k] == i)
            return k;
    ck_abort_msg("value %u is not in the order", (unsigned)i);
    return 0;
}

static uint32_t index_of(const rf_values_t *vs, const char *name)
{
    const rf_value_t *v = rf_values_find(vs, name);
    ck_assert_msg(v != NULL, "no value '%s'", name);
    return (uint32_t)(v - vs->values);
}

START_TEST(scene_expr_values)
{
    /* r is defined before x: the order puts x first all the same */
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {"
                          "\"r\": {\"expr\": \"2*x + t\"},"
                          " \"x\": {\"tween\": {\"from\": 0, \"to\": 100, \"duration\": 1}},"
                          " \"h\": {\"expr\": \"x/2\"},"
                          " \"c\": {\"expr\": \"r > 100 ? r - 100 : -1\"},"
                          " \"k\": {\"expr\": \"3*4 + 0.5\"}}}");
    const rf_values_t *vs = &sc->values;
    const rf_value_t *r = rf_values_find(vs, "r");
    ck_assert_int_eq(r->kind, RF_VALUE_EXPR);
    ck_assert_str_eq(rf_value_kind_name(r->kind), "expr");
    ck_assert_uint_eq(r->nout, 1);
    ck_assert_uint_eq(vs->nslots, 5);
    ck_assert_uint_lt(order_pos(vs, index_of(vs, "x")), order_pos(vs, index_of(vs, "r")));
    ck_assert_uint_lt(order_pos(vs, index_of(vs, "r")), order_pos(vs, index_of(vs, "c")));
    /* a linear tween 0..100 over 1 s is 25 at 0.25: 2*25 + 0.25 */
    ck_assert(value_at(vs, "r", 0, 0.25) == 50.25);
    ck_assert(value_at(vs, "h", 0, 0.25) == 12.5);
    ck_assert(value_at(vs, "c", 0, 0.25) == -1);
    /* at 0.75: r = 150.75, so c = 50.75 */
    ck_assert(value_at(vs, "c", 0, 0.75) == 50.75);
    ck_assert(value_at(vs, "r", 0, 7) == 207);
    ck_assert(value_at(vs, "k", 0, 0.3) == 12.5);
    /* ranges: x in [0, 100] gives x/2 in [0, 50]; 2x + t with t >= 0 */
    const rf_value_t *h = rf_values_find(vs, "h");
    ck_assert(h->lo == 0 && h->hi == 50);
    ck_assert(h->out[0].lo == 0 && h->out[0].hi == 50);
    /* t is taken in [0, 2^53] s: finite, so that sin(t * k) stays bounded */
    ck_assert(r->lo == 0 && r->hi >= 200 + 0x1p53 && r->hi <= 0x1p53 + 400);
    /* settle: h reads only x (settles at 1, on 100); r reads t */
    ck_assert(h->settle == 1 && h->final == 50);
    ck_assert(h->out[0].final == 50);
    ck_assert(isinf(r->settle) && isnan(r->final));
    ck_assert(isinf(rf_values_find(vs, "c")->settle));
    const rf_value_t *k = rf_values_find(vs, "k");
    ck_assert(k->settle == 0 && k->final == 12.5 && k->lo == 12.5 && k->hi == 12.5);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_expr_settle_and_ranges)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 2}, \"values\": {"
                          "\"x\": {\"tween\": {\"from\": 0, \"to\": 100, \"duration\": 1}},"
                          " \"y\": {\"spring\": {\"from\": 0, \"to\": 10, \"stiffness\": 20,"
                          " \"damping\": 2}},"
                          " \"w\": {\"repeat\": {\"from\": 0, \"to\": 1, \"duration\": 0.5}},"
                          " \"sum\": {\"expr\": \"x*2 + y\"},"
                          " \"loop\": {\"expr\": \"w + 1\"},"
                          " \"wave\": {\"expr\": \"sin(t*6.283) * 5\"},"
                          " \"cl\": {\"expr\": \"clamp(y, 2, 3) + min(x, 20)\"},"
                          " \"d\": {\"expr\": \"1 / (x - 50)\"},"
                          " \"chain\": {\"expr\": \"sum - 200\"}}}");
    const rf_values_t *vs = &sc->values;
    const rf_value_t *y = rf_values_find(vs, "y");
    const rf_value_t *sum = rf_values_find(vs, "sum");
    /* settles with its last input (the slow spring, after x's 1 s), on
     * 2*100 + 10 */
    ck_assert(isfinite(y->settle) && y->settle > 1);
    ck_assert(y->hi > 10);   /* it overshoots */
    ck_assert(sum->settle == y->settle);
    ck_assert(sum->final == 210);
    ck_assert(value_at(vs, "sum", 0, y->settle + 1) == 210);
    /* x*2 + y over x in [0,100] and the spring's exact range */
    ck_assert(sum->lo <= 2 * 0 + y->lo && sum->lo >= 2 * 0 + y->lo - 1e-9);
    ck_assert(sum->hi >= 200 + y->hi && sum->hi <= 200 + y->hi + 1e-9);
    /* chained: sum - 200 settles with sum, on 10 */
    const rf_value_t *chain = rf_values_find(vs, "chain");
    ck_assert(chain->settle == sum->settle && chain->final == 10);
    /* an input that never settles */
    const rf_value_t *loop = rf_values_find(vs, "loop");
    ck_assert(isinf(loop->settle) && isnan(loop->final));
    ck_assert(loop->lo == 1 && loop->hi == 2);
    /* sin bounded: [-5, 5] */
    const rf_value_t *wave = rf_values_find(vs, "wave");
    ck_assert(wave->lo == -5 && wave->hi == 5);
    ck_assert(isinf(wave->settle));
    /* clamp and min are exact on intervals */
    const rf_value_t *cl = rf_values_find(vs, "cl");
    ck_assert(cl->lo == 2 && cl->hi == 23);
    ck_assert(cl->final == 23);
    /* dividing by an interval holding 0: unbounded */
    const rf_value_t *d = rf_values_find(vs, "d");
    ck_assert(d->lo == -INFINITY && d->hi == INFINITY);
    ck_assert(d->final == 1.0 / 50);
    /* the duration "auto" rule sees only finite settle times */
    rf_scene_destroy(sc);

    sc = load(HEAD "\"values\": {"
              "\"x\": {\"tween\": {\"from\": 0, \"to\": 100, \"duration\": 1.5}},"
              " \"z\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 4}},"
              " \"y\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 0.5}},"
              " \"e\": {\"expr\": \"x + y\"}},"
              " \"layers\": [{\"type\": \"circle\", \"r\": \"e\"}]}");
    vs = &sc->values;
    /* the layer uses e, so e's inputs x and y are used too; z is not */
    ck_assert_int_eq(rf_values_find(vs, "e")->used, 1);
    ck_assert_int_eq(rf_values_find(vs, "x")->used, 1);
    ck_assert_int_eq(rf_values_find(vs, "y")->used, 1);
    ck_assert_int_eq(rf_values_find(vs, "z")->used, 0);
    ck_assert(sc->duration == 1.5);
    rf_scene_destroy(sc);

    /* an inline expression in a layer, transitively */
    sc = load(HEAD "\"values\": {"
              "\"x\": {\"tween\": {\"from\": 0, \"to\": 100, \"duration\": 2.5}},"
              " \"z\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 4}},"
              " \"e\": {\"expr\": \"x * 3\"}},"
              " \"layers\": [{\"type\": \"circle\", \"r\": {\"expr\": \"e + 1\"}}]}");
    vs = &sc->values;
    ck_assert_uint_eq(vs->n, 4);
    ck_assert_int_eq(vs->values[3].kind, RF_VALUE_EXPR);
    ck_assert_int_eq(vs->values[3].used, 1);
    ck_assert_int_eq(rf_values_find(vs, "x")->used, 1);
    ck_assert_int_eq(rf_values_find(vs, "z")->used, 0);
    ck_assert(sc->duration == 2.5);
    double *out = eval_all(vs, 1.25);
    ck_assert(out[vs->values[3].slot] == 151);
    free(out);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(scene_sample_path)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {"
                          "\"p\": {\"sample_path\": {\"path\": \"h\", \"progress\": \"g\"}},"
                          " \"g\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 1}},"
                          " \"q\": {\"sample_path\": {\"path\": \"v\", \"progress\": \"g\"}},"
                          " \"r\": {\"sample_path\": {\"path\": \"M 10 10 l 30 40\", \"progress\": 0.5}},"
                          " \"s\": {\"sample_path\": {\"path\": \"h\", \"progress\":"
                          " {\"tween\": {\"from\": 1, \"to\": 0, \"duration\": 2}}}},"
                          " \"u\": {\"sample_path\": {\"path\": \"h\", \"progress\": \"q.y\"}},"
                          " \"e\": {\"expr\": \"p.x + q.y + p.angle + q.angle\"}},"
                          " \"paths\": {\"h\": \"M 0 0 L 100 0\", \"v\": \"M 0 0 L 0 100\","
                          " \"c\": \"M 0 0 C 0 100 100 100 100 0\"}}");
    const rf_values_t *vs = &sc->values;
    ck_assert_uint_eq(sc->npaths, 3);
    ck_assert_str_eq(sc->paths[0].name, "h");
    ck_assert_str_eq(sc->paths[2].name, "c");
    ck_assert(fabs(rf_path_length(sc->paths[1].path) - 100) < 1e-12);
    const rf_value_t *p = rf_values_find(vs, "p");
    ck_assert_int_eq(p->kind, RF_VALUE_SAMPLE_PATH);
    ck_assert_str_eq(rf_value_kind_name(p->kind), "sample_path");
    ck_assert_uint_eq(p->nout, 3);
    /* slots: p 0-2, g 3, q 4-6, r 7-9, s 10-12, u 13-15, e 16, then the
     * inline progresses (r's 0.5 and s's tween) */
    ck_assert_uint_eq(p->slot, 0);
    ck_assert_uint_eq(rf_values_find(vs, "g")->slot, 3);
    ck_assert_uint_eq(rf_values_find(vs, "q")->slot, 4);
    ck_assert_uint_eq(vs->nslots, 19);
    ck_assert_uint_eq(vs->n, 9);
    ck_assert_uint_lt(order_pos(vs, index_of(vs, "g")), order_pos(vs, index_of(vs, "p")));
    ck_assert_uint_lt(order_pos(vs, index_of(vs, "q")), order_pos(vs, index_of(vs, "u")));
    /* halfway along "M 0 0 L 100 0": (50, 0), heading 0 degrees */
    ck_assert(value_at(vs, "p", 0, 0.5) == 50);
    ck_assert(value_at(vs, "p", 1, 0.5) == 0);
    ck_assert(value_at(vs, "p", 2, 0.5) == 0);
    /* "M 0 0 L 0 100" points down the canvas: 90 degrees */
    ck_assert(value_at(vs, "q", 0, 0.5) == 0);
    ck_assert(value_at(vs, "q", 1, 0.5) == 50);
    ck_assert(value_at(vs, "q", 2, 0.5) == 90);
    /* inline data and a number progress: halfway along a 3-4-5 line */
    ck_assert(fabs(value_at(vs, "r", 0, 0) - 25) < 1e-12);
    ck_assert(fabs(value_at(vs, "r", 1, 0) - 30) < 1e-12);
    ck_assert(fabs(value_at(vs, "r", 2, 0) - atan2(4, 3) * 180 / M_PI) < 1e-12);
    /* an inline progress: 1 -> 0 over 2 s, 0.75 at 0.5 s */
    ck_assert(fabs(value_at(vs, "s", 0, 0.5) - 75) < 1e-12);
    /* progress from another sample's y: q.y / 100 ... clamped: q.y = 25 at
     * 0.25 -> progress 25 clamps to 1 */
    ck_assert(value_at(vs, "u", 0, 0.25) == 100);
    ck_assert(value_at(vs, "u", 0, 0) == 0);
    /* an expression over components: 50 + 50 + 0 + 90 */
    ck_assert(value_at(vs, "e", 0, 0.5) == 190);
    /* ranges are the path's bounds; angles [-180, 180] */
    ck_assert(p->out[0].lo == 0 && p->out[0].hi == 100);
    ck_assert(p->out[1].lo == 0 && p->out[1].hi == 0);
    ck_assert(p->out[2].lo == -180 && p->out[2].hi == 180);
    ck_assert(p->lo == 0 && p->hi == 100);
    const rf_value_t *q = rf_values_find(vs, "q");
    ck_assert(q->out[0].lo == 0 && q->out[0].hi == 0);
    ck_assert(q->out[1].lo == 0 && q->out[1].hi == 100);
    const rf_value_t *e = rf_values_find(vs, "e");
    ck_assert(e->lo == -360 && e->hi == 560);
    /* settle with the progress (g settles at 1), on the end point */
    ck_assert(p->settle == 1);
    ck_assert(p->out[0].final == 100 && p->out[1].final == 0 && p->out[2].final == 0);
    ck_assert(q->out[1].final == 100 && q->out[2].final == 90);
    ck_assert(e->settle == 1 && e->final == 100 + 100 + 0 + 90);
    const rf_value_t *r = rf_values_find(vs, "r");
    ck_assert(r->settle == 0 && fabs(r->out[0].final - 25) < 1e-12);
    ck_assert(r->out[0].lo == 10 && r->out[0].hi == 40 && r->out[1].lo == 10 &&
              r->out[1].hi == 50);
    ck_assert(rf_values_find(vs, "s")->settle == 2);
    rf_scene_destroy(sc);

    /* follow marks the sample used, and its progress with it */
    sc = load(HEAD "\"values\": {"
              "\"g\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 0.8}},"
              " \"z\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 3}},"
              " \"p\": {\"sample_path\": {\"path\": \"c\", \"progress\": \"g\"}}},"
              " \"paths\": {\"c\": \"M 0 0 C 0 100 100 100 100 0\"},"
              " \"layers\": [{\"type\": \"circle\", \"r\": 3, \"follow\": \"p\", \"orient\": true}]}");
    vs = &sc->values;
    ck_assert_int_eq(rf_values_find(vs, "p")->used, 1);
    ck_assert_int_eq(rf_values_find(vs, "g")->used, 1);
    ck_assert_int_eq(rf_values_find(vs, "z")->used, 0);
    ck_assert(sc->duration == 0.8);
    /* the cubic's exact bounds: y peaks at 75 (t = 1/2), not the hull's 100 */
    p = rf_values_find(vs, "p");
    ck_assert(p->out[0].lo == 0 && p->out[0].hi == 100);
    ck_assert(p->out[1].lo == 0 && fabs(p->out[1].hi - 75) < 1e-12);
    rf_scene_destroy(sc);
}
END_TEST

static void *test_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

START_TEST(scene_sample_clamped_to_bounds)
{
    /* Near a curve's extremum, evaluation may round an ulp past the exact
     * bound found from the derivative's root (found by a dense search near
     * the peak of this cubic: y 10.975596452109031 against a bound of
     * 10.975596452109029). A sample publishes the bounds as its range, so
     * its outputs are clamped to them. */
    const char *d = "M 45.493480441323975 -30.925777331995988 C -57.243731193580743 "
                    "-63.685055165496486 -45.877632898696085 78.199598796389168 "
                    "51.711133400200602 -31.179538615847541";
    const double prog = 0.59714137425692049;
    char json[1024];
    snprintf(json, sizeof json, HEAD "\"timeline\": {\"duration\": 1}, \"values\": {"
             "\"p\": {\"sample_path\": {\"path\": \"%s\", \"progress\": %.17g}}}}", d, prog);
    rf_scene_t *sc = load(json);
    const rf_value_t *p = rf_values_find(&sc->values, "p");
    rf_path_t *raw = NULL;
    rf_path_error_t pe;
    ck_assert_int_eq(rf_path_parse(d, strlen(d), test_malloc, NULL, &raw, &pe), 0);
    double x, y, a, x0, y0, x1, y1;
    rf_path_sample(raw, prog, &x, &y, &a);
    rf_path_bounds(raw, &x0, &y0, &x1, &y1);
    ck_assert(p->out[1].lo == y0 && p->out[1].hi == y1);
    double got = value_at(&sc->values, "p", 1, 0.5);
    ck_assert(got >= y0 && got <= y1);
    /* what the clamp changes: nothing inside the bounds, else the bound */
    ck_assert(got == (y > y1 ? y1 : y));
    ck_assert(value_at(&sc->values, "p", 0, 0.5) == x);
    ck_assert(value_at(&sc->values, "p", 2, 0.5) == a);
    free(raw);
    rf_scene_destroy(sc);
}
END_TEST

/* The decay of scene-v1.md in long double: value and velocity at tau. */
static long double decay_ref(long double from, long double v0, long double friction,
                             long double tau, long double *vel)
{
    long double lambda = 4.2L * friction, e = expl(-lambda * tau);
    *vel = v0 * e;
    return from + v0 / lambda * (1 - e);
}

START_TEST(scene_from_sources)
{
    rf_scene_t *sc = load(HEAD "\"timeline\": {\"duration\": 2}, \"values\": {"
                          "\"y\": {\"spring\": {\"from\": \"d\", \"to\": 0, \"start\": 0.3}},"
                          " \"d\": {\"decay\": {\"from\": 0, \"velocity\": 1200, \"friction\": 1}},"
                          " \"y0\": {\"spring\": {\"from\": \"d\", \"to\": 0, \"velocity\": 0,"
                          " \"start\": 0.3}},"
                          " \"tw\": {\"tween\": {\"from\": \"d\", \"to\": 0, \"duration\": 1,"
                          " \"start\": 0.3}},"
                          " \"k\": 5,"
                          " \"fromk\": {\"bezier\": {\"from\": \"k\", \"to\": 9, \"duration\": 1,"
                          " \"curve\": \"linear\"}},"
                          " \"seq\": {\"sequence\": [{\"at\": 0.3, \"physics\": {\"from\": \"d\","
                          " \"friction\": 2}}, {\"at\": 1, \"spring\": {\"to\": 0}}]}}}");
    const rf_values_t *vs = &sc->values;
    ck_assert_uint_lt(order_pos(vs, index_of(vs, "d")), order_pos(vs, index_of(vs, "y")));
    /* the decay at 0.3 s, independently: its value and velocity there */
    long double dv;
    long double dx = decay_ref(0, 1200, 1, 0.3L, &dv);
    const rf_value_t *d = rf_values_find(vs, "d");
    double ex, ev;
    rf_track_eval_state(&d->track, 0.3, &ex, &ev);
    ck_assert(fabsl(ex - dx) < 1e-9L * fabsl(dx));
    ck_assert(fabsl(ev - dv) < 1e-9L * fabsl(dv));
    /* y holds the decay's value before its start, then springs from there
     * with the decay's velocity (stiffness 170, damping 26: under-damped) */
    ck_assert(fabsl(value_at(vs, "y", 0, 0) - dx) < 1e-9L * fabsl(dx));
    ck_assert(fabsl(value_at(vs, "y", 0, 0.3) - dx) < 1e-9L * fabsl(dx));
    static const double taus[] = { 0.01, 0.05, 0.1, 0.2, 0.4, 0.7 };
    for (size_t i = 0; i < sizeof taus / sizeof taus[0]; i++) {
        long double want = spring_ref(dx, 0, 170, 26, dv, taus[i], NULL);
        double got = value_at(vs, "y", 0, 0.3 + taus[i]);
        ck_assert_msg(fabsl(got - want) < 1e-9L * fabsl(dx), "tau %g: %.17g vs %.17Lg",
                      taus[i], got, want);
        /* an explicit velocity overrides the inherited one */
        want = spring_ref(dx, 0, 170, 26, 0, taus[i], NULL);
        got = value_at(vs, "y0", 0, 0.3 + taus[i]);
        ck_assert_msg(fabsl(got - want) < 1e-9L * fabsl(dx), "tau %g (y0)", taus[i]);
    }
    /* a tween inherits only the value: linear 1 s from dx to 0 */
    ck_assert(fabsl(value_at(vs, "tw", 0, 0.8) - dx * 0.5L) < 1e-9L * fabsl(dx));
    /* a static source: its number */
    ck_assert(value_at(vs, "fromk", 0, 0.5) == 7);
    ck_assert(rf_values_find(vs, "fromk")->lo == 5);
    /* a sequence's first entry: physics from the decay's state, friction 2:
     * x = x0 + v0 (1 - e^(-2 tau)) / 2 */
    long double tau = 0.4L;
    long double want = dx + dv * (1 - expl(-2 * tau)) / 2;
    ck_assert(fabsl(value_at(vs, "seq", 0, 0.7) - want) < 1e-9L * fabsl(want));
    /* `from` does not make the source used: it is read once, at load */
    rf_scene_destroy(sc);

    sc = load(HEAD "\"values\": {"
              "\"d\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 5}},"
              " \"y\": {\"tween\": {\"from\": \"d\", \"to\": 2, \"duration\": 1, \"start\": 0.5}}},"
              " \"layers\": [{\"type\": \"circle\", \"r\": \"y\"}]}");
    ck_assert_int_eq(rf_values_find(&sc->values, "d")->used, 0);
    ck_assert(sc->duration == 1.5);
    ck_assert(value_at(&sc->values, "y", 0, 0) == 0.1);
    rf_scene_destroy(sc);
}
END_TEST

/* Loads json, which must fail, and wants exactly these messages (each after
 * "runeframe: t.json: "), in order. */
static void fails_exactly(const char *json, const char *const *want, int n)
{
    rf_diag_init(diag, "t.json");
    rf_scene_t *sc = rf_scene_load_buffer("t.json", json, strlen(json), diag);
    ck_assert_ptr_null(sc);
    for (int i = 0; i < diag->count; i++)
        if (i >= n || strncmp(diag->msg[i], "runeframe: t.json: ", 19) != 0 ||
            strcmp(diag->msg[i] + 19, want[i]) != 0)
            fprintf(stderr, "message %d: got \"%s\"\n  wanted \"%s\"\n", i, diag->msg[i],
                    i < n ? want[i] : "(none)");
    ck_assert_int_eq(diag->count, n);
    for (int i = 0; i < n; i++)
        ck_assert_str_eq(diag->msg[i] + 19, want[i]);
}

START_TEST(scene_derived_errors)
{
    {
        const char *w[] = {
            "/values/r/expr: col 6: unexpected ')'\n"
            "    x + 1)\n"
            "         ^",
        };
        fails_exactly(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": 1,"
                      " \"r\": {\"expr\": \"x + 1)\"}}}", w, 1);
    }
    {
        const char *w[] = {
            "/values/r/expr: col 5: unknown value 'pp' (did you mean 'p'?)\n"
            "    1 + pp\n"
            "        ^",
            "/values/s/expr: col 1: 'x' is a static value of one number: it has no '.y' (path "
            "samples have .x, .y and .angle, vectors .x to .w, colors .r to .a)\n"
            "    x.y * 2\n"
            "    ^",
            "/values/u/expr: col 2: 'p' is a path sample: use p.x, p.y or p.angle\n"
            "    -p\n"
            "     ^",
        };
        fails_exactly(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": 1,"
                      " \"p\": {\"sample_path\": {\"path\": \"M 0 0 H 9\", \"progress\": 1}},"
                      " \"r\": {\"expr\": \"1 + pp\"}, \"s\": {\"expr\": \"x.y * 2\"},"
                      " \"u\": {\"expr\": \"-p\"}}}", w, 3);
    }
    {
        const char *w[] = {
            "/values/a/expr: cycle: a -> b -> a",
            "/values/c/expr: cycle: c -> d -> e -> c",
            "/values/f/expr: cycle: f -> f",
            "/values/nq/expr: cycle: nq -> o -> nq",
        };
        /* the search reaches the last cycle from m, through o: it is named
         * from nq all the same, its value that comes first in the file */
        fails_exactly(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {"
                      "\"a\": {\"expr\": \"b + 1\"}, \"b\": {\"expr\": \"2 * a\"},"
                      " \"c\": {\"expr\": \"d\"}, \"d\": {\"expr\": \"e\"},"
                      " \"e\": {\"expr\": \"c + a\"}, \"f\": {\"expr\": \"f + 1\"},"
                      " \"m\": {\"expr\": \"o\"}, \"nq\": {\"expr\": \"o * 2\"},"
                      " \"o\": {\"expr\": \"nq - 1\"}}}", w, 4);
    }
    {
        const char *w[] = {
            "/values/a/spring/from: cycle: a -> b -> a",
            "/values/s/sequence/0/tween/from: cycle: s -> s",
        };
        fails_exactly(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {"
                      "\"a\": {\"spring\": {\"from\": \"b\", \"to\": 1}},"
                      " \"b\": {\"decay\": {\"from\": \"a\", \"velocity\": 3}},"
                      " \"s\": {\"sequence\": [{\"at\": 0, \"tween\": {\"from\": \"s\", \"to\": 1,"
                      " \"duration\": 1}}]}}}", w, 2);
    }
    {
        /* the misplaced from is found while parsing; names once all are known */
        const char *w[] = {
            "/values/q/sequence/1/spring/from: only a sequence's first entry may start from "
            "another value: later entries inherit from the entry before",
            "/values/y/spring/from: 'r' is an expression: expressions and path samples are "
            "downstream only and cannot be the source of a spring",
            "/values/z/sequence/0/physics/from: 'p' is a path sample: expressions and path "
            "samples are downstream only and cannot be the source of a physics",
            "/values/w/tween/from: unknown value 'rr' (did you mean 'r'?)",
        };
        fails_exactly(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {"
                      "\"r\": {\"expr\": \"t\"},"
                      " \"p\": {\"sample_path\": {\"path\": \"M 0 0 H 9\", \"progress\": 1}},"
                      " \"y\": {\"spring\": {\"from\": \"r\", \"to\": 1}},"
                      " \"z\": {\"sequence\": [{\"at\": 0, \"physics\": {\"from\": \"p.x\"}}]},"
                      " \"w\": {\"tween\": {\"from\": \"rr\", \"to\": 1, \"duration\": 1}},"
                      " \"q\": {\"sequence\": [{\"at\": 0, \"spring\": {\"to\": 1}},"
                      " {\"at\": 1, \"spring\": {\"from\": \"r\", \"to\": 2}}]}}}", w, 4);
    }
    {
        const char *w[] = {
            "/paths/orbit: col 13: expected a number\n"
            "    M 40 300 C 1x0 40 520 40 600 300\n"
            "                ^",
            "/values/p/sample_path/path: unknown path 'orbt' (did you mean 'orbit'?)",
            "/layers/0/follow: 'g' is a tween value: 'follow' needs a sample_path value",
            "/layers/0/x: 'p' is a path sample: use p.x, p.y or p.angle",
            "/layers/0/y: unknown output '.z' of 'p': a path sample has .x, .y and .angle",
        };
        fails_exactly(HEAD "\"timeline\": {\"duration\": 1}, \"values\": {"
                      "\"g\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 1}},"
                      " \"p\": {\"sample_path\": {\"path\": \"orbt\", \"progress\": \"g\"}}},"
                      " \"paths\": {\"orbit\": \"M 40 300 C 1x0 40 520 40 600 300\"},"
                      " \"layers\": [{\"type\": \"circle\", \"r\": 1, \"follow\": \"g\", \"x\": \"p\","
                      " \"y\": \"p.z\"}]}", w, 5);
    }
    {
        /* an expression of 4,097 bytes */
        char *json = malloc(8192);
        ck_assert_ptr_nonnull(json);
        int o = snprintf(json, 8192, HEAD "\"timeline\": {\"duration\": 1}, \"values\": "
                         "{\"r\": {\"expr\": \"");
        for (int i = 0; i < 4097; i++)
            json[o++] = i % 2 ? '+' : '1';
        snprintf(json + o, (size_t)(8192 - o), "\"}}}");
        const char *w[] = { "/values/r/expr: expression is 4097 bytes; the limit is 4096" };
        fails_exactly(json, w, 1);
        /* and 4,096 bytes compile: 1+1+...+1 (2,048 ones, '+' between) */
        o = snprintf(json, 8192, HEAD "\"timeline\": {\"duration\": 1}, \"values\": "
                     "{\"r\": {\"expr\": \"");
        for (int i = 0; i < 4095; i++)
            json[o++] = i % 2 ? '+' : '1';
        json[o++] = ' ';
        snprintf(json + o, (size_t)(8192 - o), "\"}}}");
        rf_diag_init(diag, "t.json");
        rf_scene_t *sc = load(json);
        ck_assert(rf_values_find(&sc->values, "r")->final == 2048);
        rf_scene_destroy(sc);
        free(json);
    }
}
END_TEST

START_TEST(scene_long_chains)
{
    /* 99,999 expressions, each reading the one after it in the file: the
     * sort is iterative (a recursive one would need 99,999 frames) */
    const int n = 99999;
    size_t cap = 8u << 20;
    char *json = malloc(cap);
    ck_assert_ptr_nonnull(json);
    size_t o = (size_t)snprintf(json, cap, HEAD "\"timeline\": {\"duration\": 1}, \"values\": {");
    for (int i = 0; i < n - 1; i++)
        o += (size_t)snprintf(json + o, cap - o, "\"v%d\": {\"expr\": \"v%d + 1\"}, ", i, i + 1);
    o += (size_t)snprintf(json + o, cap - o, "\"v%d\": {\"tween\": {\"from\": 0, \"to\": 10,"
                          " \"duration\": 2}}}}", n - 1);
    rf_scene_t *sc = load(json);
    const rf_values_t *vs = &sc->values;
    ck_assert_uint_eq(vs->n, (unsigned)n);
    ck_assert_uint_eq(vs->order[0], (unsigned)n - 1);
    ck_assert_uint_eq(vs->order[n - 1], 0);
    /* v0 = tween + 99,998: 5 + 99998 at t = 1 */
    ck_assert(value_at(vs, "v0", 0, 1) == 100003);
    const rf_value_t *v0 = rf_values_find(vs, "v0");
    ck_assert(v0->settle == 2 && v0->final == 100008);
    ck_assert(v0->lo == 99998 && v0->hi == 100008);
    rf_scene_destroy(sc);

    /* the same as one cycle: its message is cut, keeping its closing name */
    o = (size_t)snprintf(json, cap, HEAD "\"timeline\": {\"duration\": 1}, \"values\": {");
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(json + o, cap - o, "%s\"v%d\": {\"expr\": \"v%d + 1\"}",
                              i ? ", " : "", i, (i + 1) % n);
    snprintf(json + o, cap - o, "}}");
    rf_diag_init(diag, "t.json");
    ck_assert_ptr_null(rf_scene_load_buffer("t.json", json, strlen(json), diag));
    ck_assert_int_eq(diag->count, 1);
    const char *m = diag->msg[0];
    const char *head = "runeframe: t.json: /values/v0/expr: cycle: v0 -> v1 -> v2 -> ";
    const char *tail = " -> ... -> v0 (a cycle of 99999 values)";
    ck_assert_msg(strncmp(m, head, strlen(head)) == 0, "%s", m);
    ck_assert(strlen(m) > strlen(tail));
    ck_assert_str_eq(m + strlen(m) - strlen(tail), tail);
    ck_assert_ptr_null(strchr(m, '\n'));
    free(json);
}
END_TEST

/* ---- interval soundness at the scene level ---- */

static uint64_t rng_state;

static double rng_unit(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * 0x1p-53;
}

/* Evaluates sc at ntimes random times (and at every settle time, and just
 * around it) and asserts that every output of every value lies in its
 * published range (NaN only under (-inf, +inf)). Returns the number of
 * expression outputs checked. */
static long check_sound(const rf_scene_t *sc, const char *what, int ntimes)
{
    const rf_values_t *vs = &sc->values;
    double *out = malloc((vs->nslots ? vs->nslots : 1) * sizeof *out);
    ck_assert_ptr_nonnull(out);
    long nexpr = 0;
    int nsettle = 0;
    for (uint32_t i = 0; i < vs->n; i++)
        if (isfinite(vs->values[i].settle))
            nsettle++;
    double span = sc->duration > 0 ? sc->duration : 1;
    for (int k = 0; k < ntimes + 3 * nsettle + 1; k++) {
        double t;
        if (k < ntimes / 2) {
            t = rng_unit() * 1.5 * span;           /* the timeline and past it */
        } else if (k < ntimes) {
            t = span * exp(rng_unit() * 12 - 6);   /* 0.0025 x .. 400 x the duration */
        } else if (k < ntimes + 3 * nsettle) {
            int j = (k - ntimes) / 3, c = 0;
            const rf_value_t *v = NULL;
            for (uint32_t i = 0; i < vs->n && v == NULL; i++)
                if (isfinite(vs->values[i].settle) && c++ == j)
                    v = &vs->values[i];
            t = v->settle + ((k - ntimes) % 3 - 1) * 1e-9;
            if (t < 0)
                t = 0;
        } else {
            t = 0;
        }
        rf_values_eval(vs, t, out);
        for (uint32_t i = 0; i < vs->n; i++) {
            const rf_value_t *v = &vs->values[i];
            for (uint32_t j = 0; j < v->nout; j++) {
                double x = out[v->slot + j], lo = v->out[j].lo, hi = v->out[j].hi;
                int ok = isnan(x) ? (lo == -INFINITY && hi == INFINITY) : (x >= lo && x <= hi);
                rf_check_msg(ok, "%s: value '%s' (%s) output %u at t = %.17g is %.17g, "
                              "outside [%.17g, %.17g]", what, v->name,
                              rf_value_kind_name(v->kind), (unsigned)j, t, x, lo, hi);
                if (v->kind == RF_VALUE_EXPR)
                    nexpr++;
            }
        }
    }
    free(out);
    return nexpr;
}

START_TEST(scene_range_soundness)
{
    rng_state = 0x9E3779B97F4A7C15ull;
    /* every scene shipped in scenes/ */
    const char *top = getenv("top_srcdir");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/scenes", top != NULL ? top : ".");
    static const char *const names[] = {
        "bezier", "decay", "keyframes", "physics", "sequence", "showcase", "spring", "tween",
    };
    long nexpr = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.json", dir, names[i]);
        rf_diag_init(diag, path);
        rf_scene_t *sc = rf_scene_load(path, diag);
        for (int k = 0; k < diag->count; k++)
            fprintf(stderr, "%s\n", diag->msg[k]);
        ck_assert_msg(sc != NULL, "cannot load %s (set top_srcdir)", path);
        nexpr += check_sound(sc, path, 4000);
        rf_scene_destroy(sc);
    }
    ck_assert_msg(nexpr > 0, "scenes/ has no expression to check");

    /* expressions over every kind of input, including overshooting springs,
     * bounded physics, ping-pong, keyframes and path samples */
    static const char *const exprs[] = {
        "x*2 + y", "x - y", "x * y", "x / 2 - y / 3", "sin(x) * y", "cos(t * 7) * x",
        "mix(40, 600, g) + 8*sin(t*6.283)", "clamp(x, 0, 50) + max(y, 3)", "abs(x - 50)",
        "floor(x / 7) + ceil(y) + round(w * 3)", "sqrt(abs(x)) + exp(-t)", "log(1 + g)",
        "pow(g, 3) + pow(2, g)", "x > 50 ? y : -y", "step(0.5, g) * x", "smoothstep(0, 100, x)",
        "x % 7", "atan2(p.y, p.x)", "p.x * 2 - p.y", "p.angle / 180", "tan(g)", "1 / (x - 40)",
        "min(k, x) * (k >= 5)", "-x*-y", "(x == y) + (x != y) + (x < y) + (x <= y)",
        "kf * 2 + ph / 3", "dc - w", "e1 * 2 + e2", "t", "t * t - 3 * t",
    };
    char json[8192];
    int o = snprintf(json, sizeof json, HEAD "\"timeline\": {\"duration\": 3}, \"values\": {"
                     "\"x\": {\"spring\": {\"from\": 0, \"to\": 100, \"stiffness\": 300, \"damping\": 8}},"
                     " \"y\": {\"physics\": {\"from\": 10, \"velocity\": -200, \"friction\": 2,"
                     " \"gravity\": 900, \"min\": -100, \"max\": 720}},"
                     " \"w\": {\"bezier\": {\"from\": -1, \"to\": 1, \"duration\": 0.7,"
                     " \"repeat\": \"ping-pong\"}},"
                     " \"g\": {\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 2,"
                     " \"easing\": \"ease-out-back\"}},"
                     " \"k\": 5,"
                     " \"kf\": {\"keyframes\": {\"duration\": 1.2, \"keys\": [[0, 0], [0.3, 80,"
                     " \"ease-out-elastic\"], [1, 100]]}},"
                     " \"ph\": {\"physics\": {\"from\": 0, \"velocity\": 300, \"friction\": 1.5}},"
                     " \"dc\": {\"decay\": {\"from\": \"x\", \"start\": 0.4}},"
                     " \"p\": {\"sample_path\": {\"path\": \"M 40 300 C 120 40 520 40 600 300 Q 700 500 300 400 Z\","
                     " \"progress\": \"g\"}},"
                     " \"e1\": {\"expr\": \"x * 3 - p.x\"}, \"e2\": {\"expr\": \"e1 / 4 + w\"}");
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++)
        o += snprintf(json + o, sizeof json - (size_t)o, ", \"q%zu\": {\"expr\": \"%s\"}", i,
                      exprs[i]);
    snprintf(json + o, sizeof json - (size_t)o, "}}");
    ck_assert_uint_lt((size_t)o + 4, sizeof json);
    rf_diag_init(diag, "t.json");
    rf_scene_t *sc = load(json);
    long n = check_sound(sc, "mixed inputs", 20000);
    ck_assert_int_ge(n, 20000L * (long)(sizeof exprs / sizeof exprs[0]));
    rf_scene_destroy(sc);
}
END_TEST

/* ---- layers: the tree the loader builds (layer.h) ---- */

/* The scene texts below use ' for " to stay readable: q2d swaps them. */
static char *q2d(const char *s)
{
    char *t = strdup(s);
    ck_assert_ptr_nonnull(t);
    for (char *p = t; *p != '\0'; p++)
        if (*p == '\'')
            *p = '"';
    return t;
}

static rf_scene_t *loadq(const char *s)
{
    char *t = q2d(s);
    rf_scene_t *sc = load(t);
    free(t);
    return sc;
}

/* As fails_with, the scene written with ' (the message is exact). */
static int fails_with_q(const char *s, const char *expect)
{
    char *t = q2d(s);
    int r = fails_with(t, expect);
    free(t);
    return r;
}

#define QHEAD "{'runeframe': 1, 'canvas': {'width': 64, 'height': 32}, " \
              "'timeline': {'duration': 1}, "

#define CK_K(p, v) do { ck_assert_uint_eq((p).slot, RF_PROP_CONST); \
                        ck_assert((p).k == (v)); } while (0)
#define CK_SLOT(p, s) ck_assert_uint_eq((p).slot, (s))

static void ck_color(rf_color_t c, double r, double g, double b, double a)
{
    ck_assert(c.r == r);
    ck_assert(c.g == g);
    ck_assert(c.b == b);
    ck_assert(c.a == a);
}

/* A constant color property (not a color value). */
static void ck_colork(rf_colorp_t c, double r, double g, double b, double a)
{
    ck_assert_uint_eq(c.slot, RF_PROP_CONST);
    ck_color(c.k, r, g, b, a);
}

START_TEST(layers_defaults)
{
    rf_scene_t *sc = loadq(QHEAD "'layers': [{'type': 'rect', 'width': 10, 'height': 20}]}");
    ck_assert_uint_eq(sc->nlayers, 1);
    ck_assert_ptr_nonnull(sc->layers);
    const rf_layer_t *l = &sc->layers[0];
    ck_assert_int_eq(l->type, RF_LAYER_RECT);
    ck_assert_int_eq(l->orient, 0);
    ck_assert_ptr_null(l->id);
    CK_K(l->x, 0);
    CK_K(l->y, 0);
    CK_K(l->rotate, 0);
    CK_K(l->scale_x, 1);
    CK_K(l->scale_y, 1);
    CK_K(l->anchor_x, 0.5);
    CK_K(l->anchor_y, 0.5);
    CK_K(l->opacity, 1);
    CK_K(l->stroke_width, 1);
    ck_assert_int_eq(l->fill.kind, RF_PAINT_NONE);
    ck_assert_int_eq(l->stroke.kind, RF_PAINT_NONE);
    ck_assert_uint_eq(l->follow_slot, RF_PROP_CONST);
    CK_K(l->u.rect.width, 10);
    CK_K(l->u.rect.height, 20);
    CK_K(l->u.rect.radius, 0);
    rf_scene_destroy(sc);

    /* the other types' defaults: trim [0, 1], an empty group */
    sc = loadq(QHEAD "'layers': [{'type': 'path', 'path': 'M 0 0 L 10 0'},"
               " {'type': 'group', 'children': []}, {'type': 'line', 'x1': 1, 'y1': 2,"
               " 'x2': 3, 'y2': 4, 'fill': 'none', 'stroke': 'none'}]}");
    ck_assert_uint_eq(sc->nlayers, 3);
    CK_K(sc->layers[0].u.path.trim0, 0);
    CK_K(sc->layers[0].u.path.trim1, 1);
    ck_assert_ptr_nonnull(sc->layers[0].u.path.src.path);
    ck_assert_uint_eq(sc->layers[1].u.group.nchildren, 0);
    ck_assert_int_eq(sc->layers[2].fill.kind, RF_PAINT_NONE);
    ck_assert_int_eq(sc->layers[2].stroke.kind, RF_PAINT_NONE);
    rf_scene_destroy(sc);

    /* no layers at all */
    sc = loadq(QHEAD "'values': {'a': 1}}");
    ck_assert_uint_eq(sc->nlayers, 0);
    rf_scene_destroy(sc);
}
END_TEST

/* Slots are numbered by output, in value order: a = 0, p = 1..3 (x, y,
 * angle), b = 4, then the inline values in the order the layers give
 * them: 5, 6, ... So b's slot (4) differs from its index (2). */
#define SLOT_VALUES "'values': {'a': {'tween': {'from': 0, 'to': 1, 'duration': 1}}," \
    " 'p': {'sample_path': {'path': 'M 0 0 L 10 0', 'progress': 'a'}}," \
    " 'b': {'spring': {'to': 5}}}, "

START_TEST(layers_props_and_slots)
{
    rf_scene_t *sc = loadq(QHEAD SLOT_VALUES
        "'layers': [{'type': 'circle', 'id': 'ball', 'r': 'b', 'x': 'a', 'y': 'p.y',"
        " 'rotate': 'p.angle', 'scale': ['b', 2], 'anchor': [0, 'p.x'],"
        " 'opacity': {'tween': {'from': 0, 'to': 1, 'duration': 0.5}},"
        " 'stroke_width': {'expr': 'b * 2'}},"
        " {'type': 'ellipse', 'rx': 3, 'ry': 'a', 'scale': 'p.x', 'x': -2.5}]}");
    const rf_values_t *vs = &sc->values;
    ck_assert_uint_eq(rf_values_find(vs, "a")->slot, 0);
    ck_assert_uint_eq(rf_values_find(vs, "p")->slot, 1);
    ck_assert_uint_eq(rf_values_find(vs, "b")->slot, 4);
    ck_assert_uint_eq(vs->n, 5);
    ck_assert_uint_eq(vs->nslots, 7);
    const rf_layer_t *c = &sc->layers[0];
    ck_assert_int_eq(c->type, RF_LAYER_CIRCLE);
    ck_assert_str_eq(c->id, "ball");
    CK_SLOT(c->u.circle.r, 4);
    CK_SLOT(c->x, 0);
    CK_SLOT(c->y, 2);
    CK_SLOT(c->rotate, 3);
    CK_SLOT(c->scale_x, 4);
    CK_K(c->scale_y, 2);
    CK_K(c->anchor_x, 0);
    CK_SLOT(c->anchor_y, 1);
    CK_SLOT(c->opacity, 5);
    CK_SLOT(c->stroke_width, 6);
    ck_assert_int_eq(vs->values[3].kind, RF_VALUE_TWEEN);
    ck_assert_int_eq(vs->values[4].kind, RF_VALUE_EXPR);
    const rf_layer_t *e = &sc->layers[1];
    ck_assert_int_eq(e->type, RF_LAYER_ELLIPSE);
    CK_K(e->u.ellipse.rx, 3);
    CK_SLOT(e->u.ellipse.ry, 0);
    /* one number for scale: both axes read it */
    CK_SLOT(e->scale_x, 1);
    CK_SLOT(e->scale_y, 1);
    CK_K(e->x, -2.5);
    /* the values read through the slots at t = 0.5: a = 0.5, the inline
     * tween at its end (1), and b * 2 */
    double out[7];
    rf_values_eval(vs, 0.5, out);
    ck_assert(out[c->x.slot] == 0.5);
    ck_assert(out[c->opacity.slot] == 1);
    ck_assert(out[c->stroke_width.slot] == 2 * out[c->u.circle.r.slot]);
    ck_assert(fabs(out[c->anchor_y.slot] - 5) < 1e-9);  /* p.x at progress 0.5 */
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(layers_types)
{
    rf_scene_t *sc = loadq(QHEAD SLOT_VALUES
        "'paths': {'wave': 'M 0 0 C 10 10 20 10 30 0', 'arc': 'M 0 0 Q 5 5 10 0'},"
        " 'layers': [{'type': 'line', 'x1': 1, 'y1': 'a', 'x2': -3, 'y2': 'p.x',"
        " 'stroke': '#fff'},"
        " {'type': 'path', 'path': 'arc', 'trim': [0.25, 'a']},"
        " {'type': 'path', 'path': 'wave'},"
        " {'type': 'path', 'path': 'M 1 2 L 4 6 Z', 'trim': [{'tween': {'from': 0, 'to': 1,"
        " 'duration': 1}}, 1]},"
        " {'type': 'rect', 'width': 'b', 'height': 4, 'radius': 1.5}]}");
    ck_assert_uint_eq(sc->nlayers, 5);
    const rf_layer_t *ln = &sc->layers[0];
    ck_assert_int_eq(ln->type, RF_LAYER_LINE);
    CK_K(ln->u.line.x1, 1);
    CK_SLOT(ln->u.line.y1, 0);
    CK_K(ln->u.line.x2, -3);
    CK_SLOT(ln->u.line.y2, 1);
    ck_assert_int_eq(ln->stroke.kind, RF_PAINT_SOLID);
    ck_color(ln->stroke.color, 1, 1, 1, 1);
    /* path layers naming `paths` share the scene's measured path */
    ck_assert_uint_eq(sc->npaths, 2);
    ck_assert_str_eq(sc->paths[1].name, "arc");
    ck_assert_ptr_eq(sc->layers[1].u.path.src.path, sc->paths[1].path);
    ck_assert_ptr_eq(sc->layers[2].u.path.src.path, sc->paths[0].path);
    CK_K(sc->layers[1].u.path.trim0, 0.25);
    CK_SLOT(sc->layers[1].u.path.trim1, 0);
    CK_K(sc->layers[2].u.path.trim0, 0);
    CK_K(sc->layers[2].u.path.trim1, 1);
    /* inline data: its own path, a line and the close; the trim's inline
     * tween is the first inline value (slot 5) */
    const rf_path_t *own = sc->layers[3].u.path.src.path;
    ck_assert_ptr_nonnull(own);
    ck_assert_ptr_ne(own, sc->paths[0].path);
    ck_assert_ptr_ne(own, sc->paths[1].path);
    ck_assert_uint_eq(rf_path_segment_count(own), 2);
    double x0, y0, x1, y1;
    rf_path_bounds(own, &x0, &y0, &x1, &y1);
    ck_assert(x0 == 1 && y0 == 2 && x1 == 4 && y1 == 6);
    /* a 3-4-5 line there and the close back: 5 + 5 */
    ck_assert(fabs(rf_path_length(own) - 10) < 1e-9);
    CK_SLOT(sc->layers[3].u.path.trim0, 5);
    CK_K(sc->layers[3].u.path.trim1, 1);
    const rf_layer_t *r = &sc->layers[4];
    CK_SLOT(r->u.rect.width, 4);
    CK_K(r->u.rect.height, 4);
    CK_K(r->u.rect.radius, 1.5);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(layers_groups)
{
    rf_scene_t *sc = loadq(QHEAD SLOT_VALUES
        "'layers': [{'type': 'group', 'x': 'b', 'opacity': 0.5, 'children': ["
        "  {'type': 'rect', 'width': 2, 'height': 2},"
        "  {'type': 'group', 'rotate': 'p.angle', 'children': ["
        "    {'type': 'circle', 'r': 1, 'x': 'b'},"
        "    {'type': 'group', 'children': [{'type': 'ellipse', 'rx': 1, 'ry':"
        "      {'tween': {'from': 0, 'to': 2, 'duration': 1}}}]},"
        "    {'type': 'circle', 'r': 'a'}]}]},"
        " {'type': 'circle', 'r': 3}]}");
    ck_assert_uint_eq(sc->nlayers, 2);
    const rf_layer_t *g = &sc->layers[0];
    ck_assert_int_eq(g->type, RF_LAYER_GROUP);
    CK_SLOT(g->x, 4);
    CK_K(g->opacity, 0.5);
    ck_assert_uint_eq(g->u.group.nchildren, 2);
    const rf_layer_t *k = g->u.group.children;
    ck_assert_int_eq(k[0].type, RF_LAYER_RECT);
    ck_assert_int_eq(k[1].type, RF_LAYER_GROUP);
    CK_SLOT(k[1].rotate, 3);
    ck_assert_uint_eq(k[1].u.group.nchildren, 3);
    const rf_layer_t *kk = k[1].u.group.children;
    ck_assert_int_eq(kk[0].type, RF_LAYER_CIRCLE);
    CK_SLOT(kk[0].x, 4);
    ck_assert_int_eq(kk[1].type, RF_LAYER_GROUP);
    ck_assert_uint_eq(kk[1].u.group.nchildren, 1);
    ck_assert_int_eq(kk[1].u.group.children[0].type, RF_LAYER_ELLIPSE);
    CK_SLOT(kk[1].u.group.children[0].u.ellipse.ry, 5);   /* the only inline value */
    CK_SLOT(kk[2].u.circle.r, 0);
    ck_assert_int_eq(sc->layers[1].type, RF_LAYER_CIRCLE);
    CK_K(sc->layers[1].u.circle.r, 3);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(layers_colors)
{
    rf_scene_t *sc = loadq(QHEAD "'layers': ["
        "{'type': 'circle', 'r': 1, 'fill': '#ff8000', 'stroke': '#f80'},"
        "{'type': 'circle', 'r': 1, 'fill': '#11223344', 'stroke': '#1234'},"
        "{'type': 'circle', 'r': 1, 'fill': '#A0b1C2', 'stroke': 'none'}]}");
    const rf_layer_t *l = sc->layers;
    ck_assert_int_eq(l[0].fill.kind, RF_PAINT_SOLID);
    ck_color(l[0].fill.color, 1, 128 / 255.0, 0, 1);
    ck_assert_int_eq(l[0].stroke.kind, RF_PAINT_SOLID);
    ck_color(l[0].stroke.color, 1, 136 / 255.0, 0, 1);
    ck_color(l[1].fill.color, 0x11 / 255.0, 0x22 / 255.0, 0x33 / 255.0, 0x44 / 255.0);
    ck_color(l[1].stroke.color, 0x11 / 255.0, 0x22 / 255.0, 0x33 / 255.0, 0x44 / 255.0);
    ck_color(l[2].fill.color, 0xa0 / 255.0, 0xb1 / 255.0, 0xc2 / 255.0, 1);
    ck_assert_int_eq(l[2].stroke.kind, RF_PAINT_NONE);
    rf_scene_destroy(sc);
}
END_TEST

/* CSS colors everywhere a color goes, and a mix's space. */
START_TEST(layers_css_colors)
{
    rf_scene_t *sc = loadq("{'runeframe': 1, 'canvas': {'width': 64, 'height': 32, "
        "'background': 'rebeccapurple'}, 'timeline': {'duration': 1}, 'layers': ["
        "{'type': 'circle', 'r': 1, 'fill': 'rgb(255 128 0 / 50%)', 'stroke': 'Orange'},"
        "{'type': 'circle', 'r': 1, 'fill': 'hsl(120deg 100% 25%)', 'stroke': 'transparent'},"
        "{'type': 'rect', 'width': 1, 'height': 1,"
        " 'fill': {'mix': ['oklch(0.6279554 0.2576833 29.2338851)', 'blue'], 'by': 0.5,"
        " 'space': 'oklab'},"
        " 'stroke': {'space': 'linear', 'mix': ['black', 'white'], 'by': 0.5}},"
        "{'type': 'rect', 'width': 1, 'height': 1,"
        " 'fill': {'mix': ['red', 'blue'], 'by': 0.5, 'space': 'srgb'},"
        " 'stroke': {'mix': ['red', 'blue'], 'by': 0.5}}]}");
    ck_assert_uint_eq(sc->background, 0x663399ffu);
    const rf_layer_t *l = sc->layers;
    ck_color(l[0].fill.color, 1, 128 / 255.0, 0, 128 / 255.0);
    ck_color(l[0].stroke.color, 1, 165 / 255.0, 0, 1);
    ck_color(l[1].fill.color, 0, 128 / 255.0, 0, 1);
    ck_color(l[1].stroke.color, 0, 0, 0, 0);
    ck_assert_int_eq(l[2].fill.kind, RF_PAINT_MIX);
    ck_assert_int_eq(l[2].fill.space, RF_SPACE_OKLAB);
    ck_colork(l[2].fill.ends[0], 1, 0, 0, 1);
    ck_assert_int_eq(l[2].stroke.space, RF_SPACE_LINEAR);
    ck_assert_int_eq(l[3].fill.space, RF_SPACE_SRGB);
    ck_assert_int_eq(l[3].stroke.space, RF_SPACE_SRGB);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(layers_mix_and_gradients)
{
    rf_scene_t *sc = loadq(QHEAD SLOT_VALUES "'layers': ["
        "{'type': 'rect', 'width': 1, 'height': 1,"
        " 'fill': {'mix': ['#ff0000', '#0000ff80'], 'by': 'b'},"
        " 'stroke': {'by': 0.25, 'mix': ['#000', '#fff']}},"
        "{'type': 'rect', 'width': 1, 'height': 1,"
        " 'fill': {'linear': {'from': [0, 'a'], 'to': ['p.x', 20],"
        "   'stops': [[0, '#f00'], [0.5, '#00ff00'], [0.5, '#00f'], [1, '#ffffff80']]}},"
        " 'stroke': {'radial': {'stops': [[0.75, '#123']], 'center': [5, 'p.y'],"
        "   'radius': {'tween': {'from': 1, 'to': 9, 'duration': 2}}}}}]}");
    const rf_layer_t *l = sc->layers;
    const rf_paint_t *m = &l[0].fill;
    ck_assert_int_eq(m->kind, RF_PAINT_MIX);
    ck_colork(m->ends[0], 1, 0, 0, 1);
    ck_colork(m->ends[1], 0, 0, 1, 128 / 255.0);
    CK_SLOT(m->by, 4);
    m = &l[0].stroke;
    ck_assert_int_eq(m->kind, RF_PAINT_MIX);
    ck_colork(m->ends[0], 0, 0, 0, 1);
    ck_colork(m->ends[1], 1, 1, 1, 1);
    CK_K(m->by, 0.25);

    const rf_paint_t *g = &l[1].fill;
    ck_assert_int_eq(g->kind, RF_PAINT_LINEAR);
    CK_K(g->p0[0], 0);
    CK_SLOT(g->p0[1], 0);
    CK_SLOT(g->p1[0], 1);
    CK_K(g->p1[1], 20);
    ck_assert_uint_eq(g->nstops, 4);
    ck_assert(g->stops[0].offset == 0 && g->stops[1].offset == 0.5);
    ck_assert(g->stops[2].offset == 0.5 && g->stops[3].offset == 1);
    ck_colork(g->stops[0].color, 1, 0, 0, 1);
    ck_colork(g->stops[1].color, 0, 1, 0, 1);
    ck_colork(g->stops[2].color, 0, 0, 1, 1);
    ck_colork(g->stops[3].color, 1, 1, 1, 128 / 255.0);

    g = &l[1].stroke;
    ck_assert_int_eq(g->kind, RF_PAINT_RADIAL);
    CK_K(g->p0[0], 5);
    CK_SLOT(g->p0[1], 2);
    CK_SLOT(g->radius, 5);
    ck_assert_uint_eq(g->nstops, 1);
    ck_assert(g->stops[0].offset == 0.75);
    ck_colork(g->stops[0].color, 0x11 / 255.0, 0x22 / 255.0, 0x33 / 255.0, 1);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(layers_follow_orient)
{
    rf_scene_t *sc = loadq(QHEAD SLOT_VALUES
        "'layers': [{'type': 'rect', 'width': 4, 'height': 2, 'follow': 'p', 'orient': true},"
        " {'type': 'rect', 'width': 4, 'height': 2, 'follow': 'p', 'orient': false},"
        " {'type': 'rect', 'width': 4, 'height': 2, 'follow': 'p'},"
        " {'type': 'rect', 'width': 4, 'height': 2, 'orient': false}]}");
    const rf_layer_t *l = sc->layers;
    ck_assert_uint_eq(l[0].follow_slot, 1);
    ck_assert_uint_eq(l[0].follow_slot, rf_values_find(&sc->values, "p")->slot);
    ck_assert_int_eq(l[0].orient, 1);
    ck_assert_uint_eq(l[1].follow_slot, 1);
    ck_assert_int_eq(l[1].orient, 0);
    ck_assert_uint_eq(l[2].follow_slot, 1);
    ck_assert_int_eq(l[2].orient, 0);
    ck_assert_uint_eq(l[3].follow_slot, RF_PROP_CONST);
    ck_assert_int_eq(l[3].orient, 0);
    /* follow makes the sample (and its progress) used */
    ck_assert_int_eq(rf_values_find(&sc->values, "p")->used, 1);
    ck_assert_int_eq(rf_values_find(&sc->values, "a")->used, 1);
    ck_assert_int_eq(rf_values_find(&sc->values, "b")->used, 0);
    rf_scene_destroy(sc);

    /* a value only a layer's follow uses decides "auto": a (1 s), not b */
    sc = loadq("{'runeframe': 1, 'canvas': {'width': 8, 'height': 8}, " SLOT_VALUES
               "'layers': [{'type': 'circle', 'r': 1, 'follow': 'p'}]}");
    ck_assert(sc->duration == 1);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(layers_errors)
{
    /* the rules the tree needs, each at its pointer */
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'elipse'}]}",
                           "/layers/0/type: unknown layer type 'elipse' (did you mean 'ellipse'?)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'rect', 'height': 1}]}",
                           "/layers/0: missing required key 'width' (a rect needs width and "
                           "height)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'line', 'x1': 1, 'y2': 2}]}",
                           "/layers/0: missing required keys 'y1' and 'x2' (a line needs x1, "
                           "y1, x2 and y2)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'ellipse'}]}",
                           "/layers/0: missing required keys 'rx' and 'ry' (an ellipse needs "
                           "its radii rx and ry)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'group', 'children': [{'type': 'path'}]}]}",
                           "/layers/0/children/0: missing required key 'path' (a path layer "
                           "needs path: a name in 'paths' or SVG path data)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'group'}]}",
                           "/layers/0: missing required key 'children' (a group needs children: "
                           "an array of layers)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': -1}]}",
                           "/layers/0/r: must be >= 0, got -1"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'stroke_width': -0.5}]}",
                           "/layers/0/stroke_width: must be >= 0, got -0.5"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': '#ff00zz'}]}",
                           "/layers/0/fill: invalid color \"#ff00zz\": '#' is followed by hex "
                           "digits only, got 'z'; expected " RF_COLOR_FORMS));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': 'organe'}]}",
                           "/layers/0/fill: invalid color \"organe\": unknown color name, did "
                           "you mean \"orange\"?; expected " RF_COLOR_FORMS));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'mix': ['red', "
                           "'blue'], 'by': 0.5, 'space': 'lab'}}]}",
                           "/layers/0/fill/space: unknown color space 'lab' (known: srgb, "
                           "linear, oklab)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'mix': ['red', "
                           "'blue'], 'by': 0.5, 'space': 1}}]}",
                           "/layers/0/fill/space: must be \"srgb\", \"linear\" or \"oklab\", got "
                           "a number"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'line', 'x1': 0, 'y1': 0, 'x2': 1, 'y2': 1,"
                           " 'fill': '#fff'}]}",
                           "/layers/0/fill: a line has no fill (use stroke)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'group', 'children': [], 'stroke': '#fff'}]}",
                           "/layers/0/stroke: 'stroke' does nothing on a group: a group draws "
                           "only its children (give it to them)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'orient': true}]}",
                           "/layers/0/orient: orient needs follow: a sample_path value to take "
                           "the angle from"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'mix': "
                           "['#fff', {'linear': {}}], 'by': 0.5}}]}",
                           "/layers/0/fill/mix/1: must be a color or a color value: a mix "
                           "takes one color, not a mix or a gradient"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'mix': "
                           "['#fff', 'none'], 'by': 0.5}}]}",
                           "/layers/0/fill/mix/1: must be a color: \"none\" stands only for a "
                           "whole fill or stroke"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'mix': "
                           "['#fff', '#000']}}]}",
                           "/layers/0/fill: missing required key 'by' (the mix amount: 0 is the "
                           "first color, 1 the second)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'linear': "
                           "{'from': [0, 0], 'to': [1, 0], 'stops': [[0.5, '#fff'], [0.25, '#000']]}}}]}",
                           "/layers/0/fill/linear/stops/1/0: stop offsets must not decrease: "
                           "0.25 after 0.5"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'radial': "
                           "{'center': [0, 0], 'radius': 1, 'stops': []}}}]}",
                           "/layers/0/fill/radial/stops: must have at least one stop "
                           "[offset, color]"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'radial': "
                           "{'center': [0, 0], 'radius': -2, 'stops': [[0, '#fff']]}}}]}",
                           "/layers/0/fill/radial/radius: must be >= 0, got -2"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'radial': "
                           "{'center': [0, 0], 'stops': [[0, '#fff', 1]]}}}]}",
                           "/layers/0/fill/radial/stops/0: a stop must be [offset, color], "
                           "got 3 elements"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'lineer': {}}}]}",
                           "/layers/0/fill/lineer: unknown color kind 'lineer' (did you mean "
                           "'linear'?)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'linear': {},"
                           " 'radial': {}}}]}",
                           "/layers/0/fill/radial: a color has exactly one kind, got 'linear' "
                           "and 'radial'"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'linear': "
                           "{'to': [1, 0], 'stops': [[0, '#fff']]}, 'from': [0, 0]}}]}",
                           "/layers/0/fill/from: 'from' belongs inside 'linear'"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'linear': "
                           "{'from': [0, 0], 'to': [1, 0], 'stops': [[0, '#fff']], 'center': [0, 0]}}}]}",
                           "/layers/0/fill/linear/center: unknown key 'center' (known: from, to, "
                           "stops)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'fill': {'mix': "
                           "['#fff', '#000'], 'by': 0, 'bye': 1}}]}",
                           "/layers/0/fill/bye: unknown key 'bye' (did you mean 'by'?)"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'path', 'path': 'M 0 0 H 1', 'trim': 0.5}]}",
                           "/layers/0/trim: must be an array [start, end], got a number"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'scale': [1, 2, 3]}]}",
                           "/layers/0/scale: must be an array [sx, sy], got 3 elements"));
    ck_assert(fails_with_q(QHEAD "'layers': [{'type': 'circle', 'r': 1, 'anchor': 0.5}]}",
                           "/layers/0/anchor: must be an array [ax, ay], got a number"));
}
END_TEST

/* ---- end to end: file -> loader -> renderer -> pixels ---- */

static rf_renderer_t *render_at(const rf_scene_t *sc, double t)
{
    char err[256] = "";
    rf_renderer_t *r = rf_renderer_create(sc, err, sizeof err);
    if (r == NULL)
        fprintf(stderr, "rf_renderer_create: %s\n", err);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(rf_renderer_draw(r, t), 0);
    return r;
}

/* ARGB32 (render.h): native-endian uint32 a<<24 | r<<16 | g<<8 | b. */
static uint32_t pixel(rf_renderer_t *r, int x, int y)
{
    int stride = 0;
    const unsigned char *px = rf_renderer_pixels(r, &stride);
    uint32_t v;
    memcpy(&v, px + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
    return v;
}

/* Every pixel of a w x h canvas: `in` inside [x0, x1) x [y0, y1), `out`
 * elsewhere; returns the number of pixels that differ. */
static int count_off(rf_renderer_t *r, int w, int h, int x0, int y0, int x1, int y1,
                     uint32_t in, uint32_t out)
{
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int inside = x >= x0 && x < x1 && y >= y0 && y < y1;
            uint32_t want = inside ? in : out;
            if (pixel(r, x, y) != want) {
                if (bad < 4)
                    fprintf(stderr, "pixel (%d, %d) = %08x, wanted %08x\n", x, y,
                            (unsigned)pixel(r, x, y), (unsigned)want);
                bad++;
            }
        }
    return bad;
}

START_TEST(render_rect_from_file)
{
    /* a 10x10 opaque rect, anchor at its top-left corner, at (7, 5) on
     * a transparent 32x24 canvas: exactly [7, 17) x [5, 15) */
    rf_scene_t *sc = loadq("{'runeframe': 1, 'canvas': {'width': 32, 'height': 24},"
                           " 'timeline': {'duration': 1},"
                           " 'layers': [{'type': 'rect', 'x': 7, 'y': 5, 'width': 10,"
                           " 'height': 10, 'anchor': [0, 0], 'fill': '#ff8000'}]}");
    rf_renderer_t *r = render_at(sc, 0);
    /* #ff8000 opaque: 255, 128, 0 (1.0 and 128/255 to 8 bits) */
    ck_assert_int_eq(count_off(r, 32, 24, 7, 5, 17, 15, 0xffff8000u, 0), 0);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);

    /* the default anchor [0.5, 0.5] centers it on (x, y) = (12, 10), on an
     * opaque background */
    sc = loadq("{'runeframe': 1, 'canvas': {'width': 32, 'height': 24, 'background': '#000080'},"
               " 'timeline': {'duration': 1},"
               " 'layers': [{'type': 'rect', 'x': 12, 'y': 10, 'width': 10,"
               " 'height': 10, 'fill': '#fff'}]}");
    r = render_at(sc, 0);
    ck_assert_int_eq(count_off(r, 32, 24, 7, 5, 17, 15, 0xffffffffu, 0xff000080u), 0);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(render_value_moves_rect)
{
    /* x = 10 + 8 * t (a linear tween over 1 s): at t = 0.25, x = 12, so
     * the rect covers [12, 22); at 0, [10, 20); settled at 1 s and after,
     * [18, 28). y comes from an inline value: 4 -> 8 over 2 s, 5 at 0.5. */
    rf_scene_t *sc = loadq("{'runeframe': 1, 'canvas': {'width': 32, 'height': 24},"
                           " 'timeline': {'duration': 2},"
                           " 'values': {'mx': {'tween': {'from': 10, 'to': 18, 'duration': 1,"
                           " 'easing': 'linear'}}},"
                           " 'layers': [{'type': 'rect', 'x': 'mx',"
                           " 'y': {'tween': {'from': 4, 'to': 8, 'duration': 2, 'easing': 'linear'}},"
                           " 'width': 10, 'height': 10, 'anchor': [0, 0], 'fill': '#00ff00'}]}");
    rf_renderer_t *r = render_at(sc, 0.25);
    ck_assert(rf_renderer_slots(r)[0] == 12);
    ck_assert(rf_renderer_slots(r)[1] == 4.5);
    /* y = 4.5: rows 4 and 14 are half covered, so check x over full rows */
    for (int y = 5; y < 14; y++)
        for (int x = 0; x < 32; x++)
            ck_assert_uint_eq(pixel(r, x, y), (x >= 12 && x < 22) ? 0xff00ff00u : 0u);
    /* rows 4 and 14 half covered: alpha about 255 / 2 */
    ck_assert(fabs((double)(pixel(r, 15, 4) >> 24) - 127.5) <= 1.5);
    ck_assert(fabs((double)(pixel(r, 15, 14) >> 24) - 127.5) <= 1.5);
    ck_assert_uint_eq(pixel(r, 15, 3), 0);
    ck_assert_uint_eq(pixel(r, 15, 15), 0);
    rf_renderer_destroy(r);

    r = render_at(sc, 0);
    ck_assert_int_eq(count_off(r, 32, 24, 10, 4, 20, 14, 0xff00ff00u, 0), 0);
    rf_renderer_destroy(r);
    r = render_at(sc, 2);
    ck_assert_int_eq(count_off(r, 32, 24, 18, 8, 28, 18, 0xff00ff00u, 0), 0);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(render_follow_orient_mix)
{
    /* a 6x4 rect following a sample half way down the vertical path
     * (16, 0) -> (16, 24): (16, 12), tangent 90 degrees; x = 'off' = 2
     * moves its center to (18, 12). With orient it turns 90 degrees: 4
     * wide, 6 tall, [16, 20) x [9, 15); without, [15, 21) x [10, 14). The
     * fill is a constant mix half way from black to red: 0.5 to 8 bits is
     * 128 (cairo: 0.5 * 65535 + 0.5 = 32768, top byte 0x80). */
    static const char *const fmt =
        "{'runeframe': 1, 'canvas': {'width': 32, 'height': 24},"
        " 'timeline': {'duration': 1},"
        " 'values': {'half': 0.5, 'off': 2,"
        "   'ride': {'sample_path': {'path': 'M 16 0 L 16 24', 'progress': 'half'}}},"
        " 'layers': [{'type': 'rect', 'width': 6, 'height': 4, 'follow': 'ride',"
        "   'orient': %s, 'x': 'off', 'fill': {'mix': ['#000000', '#ff0000'], 'by': 'half'}}]}";
    char json[1024];
    snprintf(json, sizeof json, fmt, "true");
    rf_scene_t *sc = loadq(json);
    ck_assert_uint_eq(sc->layers[0].follow_slot, 2);
    rf_renderer_t *r = render_at(sc, 0);
    const double *s = rf_renderer_slots(r);
    ck_assert(fabs(s[2] - 16) < 1e-12 && fabs(s[3] - 12) < 1e-12 && fabs(s[4] - 90) < 1e-9);
    ck_assert_int_eq(count_off(r, 32, 24, 16, 9, 20, 15, 0xff800000u, 0), 0);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);

    snprintf(json, sizeof json, fmt, "false");
    sc = loadq(json);
    r = render_at(sc, 0);
    ck_assert_int_eq(count_off(r, 32, 24, 15, 10, 21, 14, 0xff800000u, 0), 0);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}
END_TEST

START_TEST(render_group_children)
{
    /* two 4x4 rects (anchor [0, 0]) at x = 0 and x = 'six' = 6 keep their
     * coordinates; the group's (11, 10) moves them: the rects cover
     * [11, 15) and [17, 21) x [10, 14). Opacity 1 everywhere, so colors
     * are exact. */
    rf_scene_t *sc = loadq("{'runeframe': 1, 'canvas': {'width': 32, 'height': 24},"
                           " 'timeline': {'duration': 1}, 'values': {'six': 6},"
                           " 'layers': [{'type': 'group', 'x': 11, 'y': 10, 'children': ["
                           "   {'type': 'rect', 'width': 4, 'height': 4, 'anchor': [0, 0],"
                           "    'fill': '#0000ff'},"
                           "   {'type': 'rect', 'x': 'six', 'width': 4, 'height': 4,"
                           "    'anchor': [0, 0], 'fill': '#0000ff'}]}]}");
    rf_renderer_t *r = render_at(sc, 0);
    int bad = 0;
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 32; x++) {
            int in = y >= 10 && y < 14 && ((x >= 11 && x < 15) || (x >= 17 && x < 21));
            bad += pixel(r, x, y) != (in ? 0xff0000ffu : 0);
        }
    ck_assert_int_eq(bad, 0);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}
END_TEST

static Suite *scene_suite(void)
{
    Suite *s = suite_create("scene");
    TCase *tc;

    tc = tcase_create("arena");
    tcase_add_test(tc, arena_alloc_aligned_zeroed);
    tcase_add_test(tc, arena_calloc_overflow_and_strings);
    suite_add_tcase(s, tc);

    tc = tcase_create("diag");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, diag_edit_distance);
    tcase_add_test(tc, diag_did_you_mean);
    tcase_add_test(tc, diag_pointer_escaping);
    tcase_add_test(tc, diag_messages_and_cap);
    suite_add_tcase(s, tc);

    tc = tcase_create("numfmt");
    tcase_add_test(tc, numfmt_known_strings);
    tcase_add_test(tc, numfmt_round_trip);
    suite_add_tcase(s, tc);

    tc = tcase_create("jsonsyn");
    tcase_add_test(tc, jsonsyn_valid);
    tcase_add_test(tc, jsonsyn_positions);
    tcase_add_test(tc, jsonsyn_numbers);
    tcase_add_test(tc, jsonsyn_strings_utf8);
    tcase_add_test(tc, jsonsyn_depth_limit);
    tcase_add_test(tc, jsonsyn_position_fn);
    suite_add_tcase(s, tc);

    tc = tcase_create("scene");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, scene_defaults);
    tcase_add_test(tc, scene_background_colors);
    tcase_add_test(tc, scene_frame_count);
    tcase_add_test(tc, scene_frame_time);
    tcase_add_test(tc, scene_auto_duration);
    tcase_add_test(tc, scene_checks);
    tcase_add_test(tc, scene_static_values);
    tcase_add_test(tc, scene_find_by_name);
    tcase_add_test(tc, scene_inline_values);
    tcase_add_test(tc, scene_spring_and_damping_ratio);
    tcase_add_test(tc, scene_sequence);
    tcase_add_test(tc, scene_sequence_errors);
    tcase_add_test(tc, scene_kinds_and_keyframes);
    tcase_add_test(tc, scene_unknown_keys_did_you_mean);
    tcase_add_test(tc, scene_pointer_escaping);
    tcase_add_test(tc, scene_error_cap);
    tcase_add_test(tc, scene_types_and_ranges);
    tcase_add_test(tc, scene_syntax_errors_in_diag);
    tcase_add_test(tc, scene_limits);
    tcase_add_test(tc, scene_load_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("derived");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, scene_expr_values);
    tcase_add_test(tc, scene_expr_settle_and_ranges);
    tcase_add_test(tc, scene_sample_path);
    tcase_add_test(tc, scene_sample_clamped_to_bounds);
    tcase_add_test(tc, scene_from_sources);
    tcase_add_test(tc, scene_derived_errors);
    tcase_add_test(tc, scene_long_chains);
    tcase_add_test(tc, scene_range_soundness);
    suite_add_tcase(s, tc);

    tc = tcase_create("layers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, layers_defaults);
    tcase_add_test(tc, layers_props_and_slots);
    tcase_add_test(tc, layers_types);
    tcase_add_test(tc, layers_groups);
    tcase_add_test(tc, layers_colors);
    tcase_add_test(tc, layers_css_colors);
    tcase_add_test(tc, layers_mix_and_gradients);
    tcase_add_test(tc, layers_follow_orient);
    tcase_add_test(tc, layers_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("render");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, render_rect_from_file);
    tcase_add_test(tc, render_value_moves_rect);
    tcase_add_test(tc, render_follow_orient_mix);
    tcase_add_test(tc, render_group_children);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(scene_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
