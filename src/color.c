/* color.c - CSS color strings and the color spaces of a mix (color.h).
 * The parser reads the whole string once, left to right: a '#' form, a
 * name, or a function whose components are tokenised into a small fixed
 * array and then checked against the function's grammar. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "suggest.h"

/* CSS Color 4, section 6.1 "Named Colors", and "transparent" (0 alpha),
 * sorted by name; the values are 0xRRGGBBAA. */
const char *const rf_color_names[RF_COLOR_NNAMES] = {
    "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black",
    "blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse",
    "chocolate", "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue",
    "darkcyan", "darkgoldenrod", "darkgray", "darkgreen", "darkgrey", "darkkhaki",
    "darkmagenta", "darkolivegreen", "darkorange", "darkorchid", "darkred", "darksalmon",
    "darkseagreen", "darkslateblue", "darkslategray", "darkslategrey", "darkturquoise",
    "darkviolet", "deeppink", "deepskyblue", "dimgray", "dimgrey", "dodgerblue",
    "firebrick", "floralwhite", "forestgreen", "fuchsia", "gainsboro", "ghostwhite", "gold",
    "goldenrod", "gray", "green", "greenyellow", "grey", "honeydew", "hotpink", "indianred",
    "indigo", "ivory", "khaki", "lavender", "lavenderblush", "lawngreen", "lemonchiffon",
    "lightblue", "lightcoral", "lightcyan", "lightgoldenrodyellow", "lightgray",
    "lightgreen", "lightgrey", "lightpink", "lightsalmon", "lightseagreen", "lightskyblue",
    "lightslategray", "lightslategrey", "lightsteelblue", "lightyellow", "lime",
    "limegreen", "linen", "magenta", "maroon", "mediumaquamarine", "mediumblue",
    "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue",
    "mediumspringgreen", "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream",
    "mistyrose", "moccasin", "navajowhite", "navy", "oldlace", "olive", "olivedrab",
    "orange", "orangered", "orchid", "palegoldenrod", "palegreen", "paleturquoise",
    "palevioletred", "papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue",
    "purple", "rebeccapurple", "red", "rosybrown", "royalblue", "saddlebrown", "salmon",
    "sandybrown", "seagreen", "seashell", "sienna", "silver", "skyblue", "slateblue",
    "slategray", "slategrey", "snow", "springgreen", "steelblue", "tan", "teal", "thistle",
    "tomato", "transparent", "turquoise", "violet", "wheat", "white", "whitesmoke",
    "yellow", "yellowgreen",
};

const uint32_t rf_color_values[RF_COLOR_NNAMES] = {
    0xf0f8ffffu, 0xfaebd7ffu, 0x00ffffffu, 0x7fffd4ffu, 0xf0ffffffu, 0xf5f5dcffu,
    0xffe4c4ffu, 0x000000ffu, 0xffebcdffu, 0x0000ffffu, 0x8a2be2ffu, 0xa52a2affu,
    0xdeb887ffu, 0x5f9ea0ffu, 0x7fff00ffu, 0xd2691effu, 0xff7f50ffu, 0x6495edffu,
    0xfff8dcffu, 0xdc143cffu, 0x00ffffffu, 0x00008bffu, 0x008b8bffu, 0xb8860bffu,
    0xa9a9a9ffu, 0x006400ffu, 0xa9a9a9ffu, 0xbdb76bffu, 0x8b008bffu, 0x556b2fffu,
    0xff8c00ffu, 0x9932ccffu, 0x8b0000ffu, 0xe9967affu, 0x8fbc8fffu, 0x483d8bffu,
    0x2f4f4fffu, 0x2f4f4fffu, 0x00ced1ffu, 0x9400d3ffu, 0xff1493ffu, 0x00bfffffu,
    0x696969ffu, 0x696969ffu, 0x1e90ffffu, 0xb22222ffu, 0xfffaf0ffu, 0x228b22ffu,
    0xff00ffffu, 0xdcdcdcffu, 0xf8f8ffffu, 0xffd700ffu, 0xdaa520ffu, 0x808080ffu,
    0x008000ffu, 0xadff2fffu, 0x808080ffu, 0xf0fff0ffu, 0xff69b4ffu, 0xcd5c5cffu,
    0x4b0082ffu, 0xfffff0ffu, 0xf0e68cffu, 0xe6e6faffu, 0xfff0f5ffu, 0x7cfc00ffu,
    0xfffacdffu, 0xadd8e6ffu, 0xf08080ffu, 0xe0ffffffu, 0xfafad2ffu, 0xd3d3d3ffu,
    0x90ee90ffu, 0xd3d3d3ffu, 0xffb6c1ffu, 0xffa07affu, 0x20b2aaffu, 0x87cefaffu,
    0x778899ffu, 0x778899ffu, 0xb0c4deffu, 0xffffe0ffu, 0x00ff00ffu, 0x32cd32ffu,
    0xfaf0e6ffu, 0xff00ffffu, 0x800000ffu, 0x66cdaaffu, 0x0000cdffu, 0xba55d3ffu,
    0x9370dbffu, 0x3cb371ffu, 0x7b68eeffu, 0x00fa9affu, 0x48d1ccffu, 0xc71585ffu,
    0x191970ffu, 0xf5fffaffu, 0xffe4e1ffu, 0xffe4b5ffu, 0xffdeadffu, 0x000080ffu,
    0xfdf5e6ffu, 0x808000ffu, 0x6b8e23ffu, 0xffa500ffu, 0xff4500ffu, 0xda70d6ffu,
    0xeee8aaffu, 0x98fb98ffu, 0xafeeeeffu, 0xdb7093ffu, 0xffefd5ffu, 0xffdab9ffu,
    0xcd853fffu, 0xffc0cbffu, 0xdda0ddffu, 0xb0e0e6ffu, 0x800080ffu, 0x663399ffu,
    0xff0000ffu, 0xbc8f8fffu, 0x4169e1ffu, 0x8b4513ffu, 0xfa8072ffu, 0xf4a460ffu,
    0x2e8b57ffu, 0xfff5eeffu, 0xa0522dffu, 0xc0c0c0ffu, 0x87ceebffu, 0x6a5acdffu,
    0x708090ffu, 0x708090ffu, 0xfffafaffu, 0x00ff7fffu, 0x4682b4ffu, 0xd2b48cffu,
    0x008080ffu, 0xd8bfd8ffu, 0xff6347ffu, 0x00000000u, 0x40e0d0ffu, 0xee82eeffu,
    0xf5deb3ffu, 0xffffffffu, 0xf5f5f5ffu, 0xffff00ffu, 0x9acd32ffu,
};

const char *const rf_color_space_names[RF_COLOR_NSPACES] = { "srgb", "linear", "oklab" };

static const char *const func_names[] = { "rgb", "rgba", "hsl", "hsla", "oklch" };
enum { F_RGB, F_RGBA, F_HSL, F_HSLA, F_OKLCH, F_COUNT };

const char *const *rf_color_functions(size_t *n)
{
    *n = F_COUNT;
    return func_names;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int is_alpha(int c)
{
    c = lower(c);
    return c >= 'a' && c <= 'z';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static unsigned byte_of(double v)
{
    /* v in [0, 1] (NaN counts as 0); the nearest byte, halves up */
    if (!(v > 0))
        return 0;
    if (v >= 1)
        return 255;
    return (unsigned)floor(v * 255 + 0.5);
}

static uint32_t pack(double r, double g, double b, double a)
{
    return (uint32_t)byte_of(r) << 24 | (uint32_t)byte_of(g) << 16 | (uint32_t)byte_of(b) << 8 |
           (uint32_t)byte_of(a);
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The ASCII word at p lowercased into word (cap bytes, NUL-terminated):
 * its length, or cap when it has more than cap - 1 letters (word then
 * holds the first cap - 1). */
static size_t read_word(const char *p, char *word, size_t cap)
{
    size_t n = 0;
    while (is_alpha((unsigned char)p[n]) && n < cap - 1) {
        word[n] = (char)lower((unsigned char)p[n]);
        n++;
    }
    word[n] = '\0';
    return is_alpha((unsigned char)p[n]) ? cap : n;
}

/* How much of the word at p a message shows: its letters, at most 12. */
static int shown(const char *p)
{
    int n = 0;
    while (n < 12 && is_alpha((unsigned char)p[n]))
        n++;
    return n;
}

/* ---- "#..." ---- */

static int hex_digit(int c)
{
    if (is_digit(c))
        return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int parse_hex(const char *s, uint32_t *out, char *err, size_t errlen)
{
    size_t n = strlen(s);
    int v[8];
    for (size_t i = 0; i < n && i < 8; i++) {
        v[i] = hex_digit((unsigned char)s[i]);
        if (v[i] < 0)
            return fail(err, errlen, "'#' is followed by hex digits only, got '%c'",
                        (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?');
    }
    if (n != 3 && n != 4 && n != 6 && n != 8)
        return fail(err, errlen, "'#' takes 3, 4, 6 or 8 hex digits, got %zu", n);
    unsigned r, g, b, a = 255;
    if (n <= 4) {
        r = (unsigned)v[0] * 17; g = (unsigned)v[1] * 17; b = (unsigned)v[2] * 17;
        if (n == 4)
            a = (unsigned)v[3] * 17;
    } else {
        r = (unsigned)(v[0] * 16 + v[1]); g = (unsigned)(v[2] * 16 + v[3]);
        b = (unsigned)(v[4] * 16 + v[5]);
        if (n == 8)
            a = (unsigned)(v[6] * 16 + v[7]);
    }
    *out = (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8 | (uint32_t)a;
    return 0;
}

/* ---- names ---- */

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

static int parse_name(const char *s, uint32_t *out, char *err, size_t errlen)
{
    char low[32];
    if (read_word(s, low, sizeof low) == sizeof low)
        return fail(err, errlen, "not a color name (too long)");
    const char *const *hit = bsearch(low, rf_color_names, RF_COLOR_NNAMES, sizeof rf_color_names[0],
                                     cmp_name);
    if (hit != NULL) {
        *out = rf_color_values[hit - rf_color_names];
        return 0;
    }
    const char *dym = rf_did_you_mean(low, rf_color_names, RF_COLOR_NNAMES);
    if (dym != NULL)
        return fail(err, errlen, "unknown color name, did you mean \"%s\"?", dym);
    dym = rf_did_you_mean(low, func_names, F_COUNT);
    if (dym != NULL)
        return fail(err, errlen, "unknown color name (for %s() write %s(...))", dym, dym);
    return fail(err, errlen, "unknown color name");
}

/* ---- functions: tokens ---- */

enum { T_NUM, T_PCT, T_ANGLE, T_NONE, T_COMMA, T_SLASH };
#define MAX_TOKENS 12

typedef struct token {
    int kind;
    double v;       /* T_NUM, T_PCT (the number before '%'), T_ANGLE (degrees) */
} token_t;

/* A CSS number at *p: [+-] digits [. digits] [e [+-] digits]. */
static int scan_number(const char **p, double *v, char *err, size_t errlen)
{
    const char *s = *p, *q = s;
    char buf[64];
    if (*q == '+' || *q == '-')
        q++;
    int digits = 0;
    while (is_digit((unsigned char)*q))
        q++, digits++;
    if (*q == '.' && is_digit((unsigned char)q[1])) {
        q++;
        while (is_digit((unsigned char)*q))
            q++, digits++;
    }
    if (digits == 0)
        return fail(err, errlen, "expected a number at '%.12s'", s);
    if ((*q == 'e' || *q == 'E') &&
        (is_digit((unsigned char)q[1]) ||
         ((q[1] == '+' || q[1] == '-') && is_digit((unsigned char)q[2])))) {
        q += 2;
        while (is_digit((unsigned char)*q))
            q++;
    }
    size_t n = (size_t)(q - s);
    if (n >= sizeof buf)
        return fail(err, errlen, "a number of %zu characters is too long", n);
    memcpy(buf, s, n);
    buf[n] = '\0';
    *v = strtod(buf, NULL);
    if (!isfinite(*v))
        return fail(err, errlen, "number %s is out of range: every number must be finite", buf);
    *p = q;
    return 0;
}

/* One component after its number: a unit (%, deg, rad, grad, turn). */
static int scan_unit(const char **p, token_t *t, char *err, size_t errlen)
{
    const char *q = *p;
    if (*q == '%') {
        t->kind = T_PCT;
        *p = q + 1;
        return 0;
    }
    if (!is_alpha((unsigned char)*q)) {
        t->kind = T_NUM;
        return 0;
    }
    char unit[8];
    size_t n = read_word(q, unit, sizeof unit);
    static const char *const units[] = { "deg", "rad", "grad", "turn" };
    static const double to_deg[] = { 1, 180 / 3.14159265358979323846, 0.9, 360 };
    for (size_t i = 0; n < sizeof unit && i < 4; i++) {
        if (strcmp(unit, units[i]) == 0) {
            t->kind = T_ANGLE;
            t->v *= to_deg[i];
            if (!isfinite(t->v))
                return fail(err, errlen, "angle out of range: every number must be finite");
            *p = q + n;
            return 0;
        }
    }
    return fail(err, errlen, "unknown unit '%.*s' (a component is a number, a percentage, "
                "an angle in deg, rad, grad or turn, or none)", shown(q), q);
}

/* The components of a function, after its '(' at *p, up to its ')': 0 and
 * the tokens, or -1. */
static int tokenize(const char *p, token_t *t, int *nt, char *err, size_t errlen)
{
    int n = 0;
    for (;;) {
        while (is_space((unsigned char)*p))
            p++;
        if (*p == '\0')
            return fail(err, errlen, "missing ')'");
        if (*p == ')')
            break;
        if (n == MAX_TOKENS)
            return fail(err, errlen, "too many components");
        token_t *k = &t[n++];
        if (*p == ',') {
            k->kind = T_COMMA;
            p++;
        } else if (*p == '/') {
            k->kind = T_SLASH;
            p++;
        } else if (is_alpha((unsigned char)*p)) {
            char word[8];
            if (read_word(p, word, sizeof word) != 4 || strcmp(word, "none") != 0)
                return fail(err, errlen, "unknown keyword '%.*s' (a component is a number, a "
                            "percentage, an angle or none)", shown(p), p);
            k->kind = T_NONE;
            k->v = 0;
            p += 4;
        } else {
            if (scan_number(&p, &k->v, err, errlen) != 0 || scan_unit(&p, k, err, errlen) != 0)
                return -1;
        }
    }
    p++;
    while (is_space((unsigned char)*p))
        p++;
    if (*p != '\0')
        return fail(err, errlen, "text after the closing ')'");
    *nt = n;
    return 0;
}

/* The components c[0..*nc) and alpha of the token list, comma or space
 * syntax; *legacy tells which. */
static int shape(const char *fn, const token_t *t, int nt, token_t *c, int *nc, int *legacy,
                 char *err, size_t errlen)
{
    int commas = 0, slashes = 0, n = 0;
    for (int i = 0; i < nt; i++) {
        commas += t[i].kind == T_COMMA;
        slashes += t[i].kind == T_SLASH;
    }
    *legacy = commas > 0;
    if (commas > 0) {
        if (slashes > 0)
            return fail(err, errlen, "mixes commas and '/': write %s(a, b, c, alpha) or "
                        "%s(a b c / alpha)", fn, fn);
        for (int i = 0; i < nt; i++) {
            int want_comma = i % 2 == 1;
            if ((t[i].kind == T_COMMA) != want_comma)
                return fail(err, errlen, want_comma
                            ? "mixes commas and spaces: separate every component with a comma, "
                              "or none"
                            : "a comma without a component before it");
            if (t[i].kind == T_NONE)
                return fail(err, errlen, "none is allowed only without commas");
            if (!want_comma)
                c[n++] = t[i];
        }
        if (nt % 2 == 0)
            return fail(err, errlen, "a comma without a component after it");
    } else {
        int slash_at = -1;
        for (int i = 0; i < nt; i++) {
            if (t[i].kind == T_SLASH) {
                if (slash_at >= 0)
                    return fail(err, errlen, "more than one '/'");
                slash_at = n;
            } else {
                c[n++] = t[i];
            }
        }
        if (slash_at >= 0 && slash_at != 3)
            return fail(err, errlen, "'/' comes after 3 components, before the alpha; got %d "
                        "before it", slash_at);
        if (slash_at == 3 && n != 4)
            return fail(err, errlen, "'/' is followed by one alpha, got %d components", n - 3);
        if (slash_at < 0 && n == 4)
            return fail(err, errlen, "the alpha follows a '/': %s(a b c / alpha)", fn);
    }
    if (n < 3 || n > 4)
        return fail(err, errlen, "%s() takes 3 components and an optional alpha, got %d", fn, n);
    *nc = n;
    return 0;
}

/* The alpha component, or 1 when absent. */
static int alpha_of(const token_t *c, int nc, double *a, char *err, size_t errlen)
{
    *a = 1;
    if (nc < 4)
        return 0;
    if (c[3].kind == T_ANGLE)
        return fail(err, errlen, "the alpha is a number 0..1 or a percentage, not an angle");
    *a = clamp(c[3].kind == T_PCT ? c[3].v / 100 : c[3].v, 0, 1);
    return 0;
}

static int parse_rgb(const token_t *c, int nc, int legacy, uint32_t *out, char *err,
                     size_t errlen)
{
    double v[3], a;
    for (int i = 0; i < 3; i++) {
        if (c[i].kind == T_ANGLE)
            return fail(err, errlen, "rgb() channels are numbers 0..255 or percentages, not "
                        "angles");
        if (legacy && (c[i].kind == T_PCT) != (c[0].kind == T_PCT))
            return fail(err, errlen, "with commas the channels are all numbers or all "
                        "percentages");
        v[i] = c[i].kind == T_PCT ? c[i].v / 100 : c[i].v / 255;
    }
    if (alpha_of(c, nc, &a, err, errlen) != 0)
        return -1;
    *out = pack(v[0], v[1], v[2], a);
    return 0;
}

/* Hue in degrees from a number or an angle. */
static int hue_of(const token_t *h, double *deg, char *err, size_t errlen)
{
    if (h->kind == T_PCT)
        return fail(err, errlen, "a hue is a number (degrees) or an angle, not a percentage");
    *deg = fmod(h->v, 360);
    if (*deg < 0)
        *deg += 360;
    return 0;
}

/* CSS Color 4, 7.1 "Converting HSL Colors to sRGB" (the specification's
 * sample code): h in degrees, s and l in [0, 1]. */
static void hsl_to_rgb(double h, double s, double l, double rgb[3])
{
    static const double ns[3] = { 0, 8, 4 };
    for (int i = 0; i < 3; i++) {
        double k = fmod(ns[i] + h / 30, 12);
        double a = s * (l < 1 - l ? l : 1 - l);
        double m = k - 3 < 9 - k ? k - 3 : 9 - k;
        m = m < 1 ? m : 1;
        m = m > -1 ? m : -1;
        rgb[i] = l - a * m;
    }
}

static int parse_hsl(const token_t *c, int nc, int legacy, uint32_t *out, char *err,
                     size_t errlen)
{
    double h = 0, sl[2], a, rgb[3];
    if (hue_of(&c[0], &h, err, errlen) != 0)
        return -1;
    for (int i = 1; i < 3; i++) {
        const char *what = i == 1 ? "saturation" : "lightness";
        if (c[i].kind == T_ANGLE)
            return fail(err, errlen, "the %s is a percentage, not an angle", what);
        if (legacy && c[i].kind != T_PCT)
            return fail(err, errlen, "with commas the %s is a percentage", what);
        sl[i - 1] = clamp(c[i].v, 0, 100) / 100;
    }
    if (alpha_of(c, nc, &a, err, errlen) != 0)
        return -1;
    hsl_to_rgb(h, sl[0], sl[1], rgb);
    *out = pack(rgb[0], rgb[1], rgb[2], a);
    return 0;
}

static int parse_oklch(const token_t *c, int nc, int legacy, uint32_t *out, char *err,
                       size_t errlen)
{
    if (legacy)
        return fail(err, errlen, "oklch() takes no commas: oklch(L C H) or oklch(L C H / alpha)");
    if (c[0].kind == T_ANGLE || c[1].kind == T_ANGLE)
        return fail(err, errlen, "oklch() lightness and chroma are numbers or percentages, not "
                    "angles");
    double L = c[0].kind == T_PCT ? c[0].v / 100 : c[0].v;
    double C = c[1].kind == T_PCT ? c[1].v / 100 * 0.4 : c[1].v;
    double h = 0, a;
    if (hue_of(&c[2], &h, err, errlen) != 0 || alpha_of(c, nc, &a, err, errlen) != 0)
        return -1;
    L = clamp(L, 0, 1);
    C = C < 0 ? 0 : C;
    double rad = h * (3.14159265358979323846 / 180);
    double lab[3] = { L, C * cos(rad), C * sin(rad) }, lin[3];
    rf_oklab_to_linear(lab, lin);
    /* clip in linear light, then encode (no gamut mapping) */
    *out = pack(rf_linear_to_srgb(clamp(lin[0], 0, 1)), rf_linear_to_srgb(clamp(lin[1], 0, 1)),
                rf_linear_to_srgb(clamp(lin[2], 0, 1)), a);
    return 0;
}

static int parse_func(const char *s, size_t name_len, uint32_t *out, char *err, size_t errlen)
{
    char fn[24];
    int f = -1;
    size_t n = read_word(s, fn, sizeof fn);
    for (int i = 0; n < sizeof fn && i < F_COUNT; i++)
        if (strcmp(fn, func_names[i]) == 0)
            f = i;
    if (f < 0) {
        const char *word = fn;
        static const char *const other_css[] = { "hwb", "lab", "lch", "oklab", "color" };
        for (size_t i = 0; i < sizeof other_css / sizeof other_css[0]; i++)
            if (strcmp(word, other_css[i]) == 0)
                return fail(err, errlen, "%s() is not supported (oklch() and rgb() are)", word);
        const char *dym = rf_did_you_mean(word, func_names, F_COUNT);
        if (dym != NULL)
            return fail(err, errlen, "unknown color function %s(), did you mean %s()?", word, dym);
        return fail(err, errlen, "unknown color function %s%s()", word,
                    n < sizeof fn ? "" : "...");
    }
    /* c as long as t: shape copies every component before it counts them
     * (rgb(1,2,3,4,5) is refused after the fifth is read) */
    token_t t[MAX_TOKENS], c[MAX_TOKENS];
    int nt = 0, nc = 0, legacy = 0;
    if (tokenize(s + name_len + 1, t, &nt, err, errlen) != 0 ||
        shape(fn, t, nt, c, &nc, &legacy, err, errlen) != 0)
        return -1;
    switch (f) {
    case F_RGB:
    case F_RGBA:
        return parse_rgb(c, nc, legacy, out, err, errlen);
    case F_HSL:
    case F_HSLA:
        return parse_hsl(c, nc, legacy, out, err, errlen);
    default:
        return parse_oklch(c, nc, legacy, out, err, errlen);
    }
}

int rf_color_parse(const char *s, uint32_t *out, char *err, size_t errlen)
{
    if (errlen > 0)
        err[0] = '\0';
    if (s[0] == '\0')
        return fail(err, errlen, "empty string");
    if (s[0] == '#')
        return parse_hex(s + 1, out, err, errlen);
    size_t n = 0;
    while (is_alpha((unsigned char)s[n]))
        n++;
    if (n > 0 && s[n] == '(')
        return parse_func(s, n, out, err, errlen);
    if (n > 0 && s[n] == '\0')
        return parse_name(s, out, err, errlen);
    if (n > 0 && is_space((unsigned char)s[n])) {
        size_t m = n;
        while (is_space((unsigned char)s[m]))
            m++;
        if (s[m] == '(')
            return fail(err, errlen, "no space may come between a function's name and '('");
    }
    return fail(err, errlen, "not a color");
}

/* ---- spaces ---- */

int rf_color_space_find(const char *s)
{
    for (int i = 0; i < RF_COLOR_NSPACES; i++)
        if (strcmp(s, rf_color_space_names[i]) == 0)
            return i;
    return -1;
}

double rf_srgb_to_linear(double v)
{
    double a = fabs(v);
    double r = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4);
    return v < 0 ? -r : r;
}

double rf_linear_to_srgb(double v)
{
    double a = fabs(v);
    double r = a <= 0.0031308 ? a * 12.92 : 1.055 * pow(a, 1 / 2.4) - 0.055;
    return v < 0 ? -r : r;
}

void rf_linear_to_oklab(const double c[3], double lab[3])
{
    double l = 0.4122214708 * c[0] + 0.5363325363 * c[1] + 0.0514459929 * c[2];
    double m = 0.2119034982 * c[0] + 0.6806995451 * c[1] + 0.1073969566 * c[2];
    double s = 0.0883024619 * c[0] + 0.2817188376 * c[1] + 0.6299787005 * c[2];
    l = cbrt(l);
    m = cbrt(m);
    s = cbrt(s);
    lab[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
    lab[1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
    lab[2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
}

void rf_oklab_to_linear(const double lab[3], double c[3])
{
    double l = lab[0] + 0.3963377774 * lab[1] + 0.2158037573 * lab[2];
    double m = lab[0] - 0.1055613458 * lab[1] - 0.0638541728 * lab[2];
    double s = lab[0] - 0.0894841775 * lab[1] - 1.2914855480 * lab[2];
    l = l * l * l;
    m = m * m * m;
    s = s * s * s;
    c[0] = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
    c[1] = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
    c[2] = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
}

void rf_color_mix(int space, const double a[4], const double b[4], double k, double out[4])
{
    out[3] = a[3] + (b[3] - a[3]) * k;
    if (space == RF_SPACE_SRGB) {
        for (int i = 0; i < 3; i++)
            out[i] = a[i] + (b[i] - a[i]) * k;
        return;
    }
    double la[3], lb[3], m[3];
    for (int i = 0; i < 3; i++) {
        la[i] = rf_srgb_to_linear(a[i]);
        lb[i] = rf_srgb_to_linear(b[i]);
    }
    if (space == RF_SPACE_OKLAB) {
        double oa[3], ob[3];
        rf_linear_to_oklab(la, oa);
        rf_linear_to_oklab(lb, ob);
        for (int i = 0; i < 3; i++)
            oa[i] += (ob[i] - oa[i]) * k;
        rf_oklab_to_linear(oa, m);
    } else {
        for (int i = 0; i < 3; i++)
            m[i] = la[i] + (lb[i] - la[i]) * k;
    }
    for (int i = 0; i < 3; i++)
        out[i] = rf_linear_to_srgb(clamp(m[i], 0, 1));
}
