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
#include "diag.h"
#include "jsonsyn.h"
#include "numfmt.h"
#include "scene.h"
#include "values.h"

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
            ck_assert_uint_eq(p[k], 0);
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
                         "paths, layers, checks)"));
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
          "/values/x/spring/to: must be a number, got a string" },
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
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"expr\": \"t\"}}}",
          "/values/x/expr: expression values are not implemented in this version" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {\"sample_path\": {}}}}",
          "/values/x/sample_path: sample_path values are not implemented in this version" },
        { HEAD "\"timeline\": {\"duration\": 1}, \"values\": {\"x\": {}}}",
          "/values/x: missing the value kind: one of spring, bezier, repeat, tween, physics, decay, keyframes, sequence, expr, sample_path" },
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
    ck_assert_str_eq(diag->msg[0], "runeframe: s.json:2:24: trailing comma before '}'");
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
