/* check_color.c - the color module against independent references:
 *   - the named colors: CSS Color 4 section 6.1, as three.js publishes them
 *     (Color.NAMES, 0xRRGGBB in decimal), copied below as printed there;
 *   - hsl(): the examples of CSS Color 4 section 7 ("hsl(120deg 100% 25%)
 *     is dark green" etc., and its sample conversion code) and a grid
 *     computed with Python's colorsys.hls_to_rgb, an implementation of
 *     its own (rounded to the nearest byte; +-1 for ties);
 *   - oklch(): sRGB primaries as oklch.com and colorjs.io publish them, e.g.
 *     red = oklch(0.6279554 0.2576833 29.2338851), lime = oklch(0.8664396
 *     0.2948272 142.4953389), blue = oklch(0.4520137 0.3132214 264.0520200),
 *     and oklch(50% 0 0) = #636363;
 *   - the mix spaces against values worked out by hand below;
 *   - every syntax variant and the error messages. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "color.h"

static uint32_t parse_ok(const char *s)
{
    uint32_t c = 0xdeadbeefu;
    char err[256];
    int rc = rf_color_parse(s, &c, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: %s", s, err);
    return c;
}

#define ck_color(s, want) do { \
        uint32_t got_ = parse_ok(s); \
        ck_assert_msg(got_ == (uint32_t)(want), "%s: got %08x, want %08x", s, got_, \
                      (unsigned)(want)); \
    } while (0)

/* |each channel difference| <= tol */
static int near(uint32_t a, uint32_t b, int tol)
{
    for (int sh = 0; sh < 32; sh += 8) {
        int d = (int)(a >> sh & 0xffu) - (int)(b >> sh & 0xffu);
        if (d > tol || d < -tol)
            return 0;
    }
    return 1;
}

/* The error of s must contain want. */
static void parse_bad(const char *s, const char *want)
{
    uint32_t c = 0x12345678u;
    char err[256];
    int rc = rf_color_parse(s, &c, err, sizeof err);
    ck_assert_msg(rc == -1, "%s: accepted as %08x", s, c);
    ck_assert_msg(c == 0x12345678u, "%s: wrote the output on failure", s);
    ck_assert_msg(strstr(err, want) != NULL, "%s: error \"%s\" lacks \"%s\"", s, err, want);
    ck_assert_msg(strchr(err, '\n') == NULL, "%s: error of two lines", s);
}

/* CSS Color 4, 6.1 Named Colors, as printed by three.js (Color.NAMES). */
static const struct { const char *name; long rgb; } css_named[] = {
    { "aliceblue", 15792383 }, { "antiquewhite", 16444375 }, { "aqua", 65535 },
    { "aquamarine", 8388564 }, { "azure", 15794175 }, { "beige", 16119260 },
    { "bisque", 16770244 }, { "black", 0 }, { "blanchedalmond", 16772045 }, { "blue", 255 },
    { "blueviolet", 9055202 }, { "brown", 10824234 }, { "burlywood", 14596231 },
    { "cadetblue", 6266528 }, { "chartreuse", 8388352 }, { "chocolate", 13789470 },
    { "coral", 16744272 }, { "cornflowerblue", 6591981 }, { "cornsilk", 16775388 },
    { "crimson", 14423100 }, { "cyan", 65535 }, { "darkblue", 139 }, { "darkcyan", 35723 },
    { "darkgoldenrod", 12092939 }, { "darkgray", 11119017 }, { "darkgreen", 25600 },
    { "darkgrey", 11119017 }, { "darkkhaki", 12433259 }, { "darkmagenta", 9109643 },
    { "darkolivegreen", 5597999 }, { "darkorange", 16747520 }, { "darkorchid", 10040012 },
    { "darkred", 9109504 }, { "darksalmon", 15308410 }, { "darkseagreen", 9419919 },
    { "darkslateblue", 4734347 }, { "darkslategray", 3100495 }, { "darkslategrey", 3100495 },
    { "darkturquoise", 52945 }, { "darkviolet", 9699539 }, { "deeppink", 16716947 },
    { "deepskyblue", 49151 }, { "dimgray", 6908265 }, { "dimgrey", 6908265 },
    { "dodgerblue", 2003199 }, { "firebrick", 11674146 }, { "floralwhite", 16775920 },
    { "forestgreen", 2263842 }, { "fuchsia", 16711935 }, { "gainsboro", 14474460 },
    { "ghostwhite", 16316671 }, { "gold", 16766720 }, { "goldenrod", 14329120 },
    { "gray", 8421504 }, { "green", 32768 }, { "greenyellow", 11403055 }, { "grey", 8421504 },
    { "honeydew", 15794160 }, { "hotpink", 16738740 }, { "indianred", 13458524 },
    { "indigo", 4915330 }, { "ivory", 16777200 }, { "khaki", 15787660 },
    { "lavender", 15132410 }, { "lavenderblush", 16773365 }, { "lawngreen", 8190976 },
    { "lemonchiffon", 16775885 }, { "lightblue", 11393254 }, { "lightcoral", 15761536 },
    { "lightcyan", 14745599 }, { "lightgoldenrodyellow", 16448210 }, { "lightgray", 13882323 },
    { "lightgreen", 9498256 }, { "lightgrey", 13882323 }, { "lightpink", 16758465 },
    { "lightsalmon", 16752762 }, { "lightseagreen", 2142890 }, { "lightskyblue", 8900346 },
    { "lightslategray", 7833753 }, { "lightslategrey", 7833753 },
    { "lightsteelblue", 11584734 }, { "lightyellow", 16777184 }, { "lime", 65280 },
    { "limegreen", 3329330 }, { "linen", 16445670 }, { "magenta", 16711935 },
    { "maroon", 8388608 }, { "mediumaquamarine", 6737322 }, { "mediumblue", 205 },
    { "mediumorchid", 12211667 }, { "mediumpurple", 9662683 }, { "mediumseagreen", 3978097 },
    { "mediumslateblue", 8087790 }, { "mediumspringgreen", 64154 },
    { "mediumturquoise", 4772300 }, { "mediumvioletred", 13047173 },
    { "midnightblue", 1644912 }, { "mintcream", 16121850 }, { "mistyrose", 16770273 },
    { "moccasin", 16770229 }, { "navajowhite", 16768685 }, { "navy", 128 },
    { "oldlace", 16643558 }, { "olive", 8421376 }, { "olivedrab", 7048739 },
    { "orange", 16753920 }, { "orangered", 16729344 }, { "orchid", 14315734 },
    { "palegoldenrod", 15657130 }, { "palegreen", 10025880 }, { "paleturquoise", 11529966 },
    { "palevioletred", 14381203 }, { "papayawhip", 16773077 }, { "peachpuff", 16767673 },
    { "peru", 13468991 }, { "pink", 16761035 }, { "plum", 14524637 },
    { "powderblue", 11591910 }, { "purple", 8388736 }, { "rebeccapurple", 6697881 },
    { "red", 16711680 }, { "rosybrown", 12357519 }, { "royalblue", 4286945 },
    { "saddlebrown", 9127187 }, { "salmon", 16416882 }, { "sandybrown", 16032864 },
    { "seagreen", 3050327 }, { "seashell", 16774638 }, { "sienna", 10506797 },
    { "silver", 12632256 }, { "skyblue", 8900331 }, { "slateblue", 6970061 },
    { "slategray", 7372944 }, { "slategrey", 7372944 }, { "snow", 16775930 },
    { "springgreen", 65407 }, { "steelblue", 4620980 }, { "tan", 13808780 }, { "teal", 32896 },
    { "thistle", 14204888 }, { "tomato", 16737095 }, { "turquoise", 4251856 },
    { "violet", 15631086 }, { "wheat", 16113331 }, { "white", 16777215 },
    { "whitesmoke", 16119285 }, { "yellow", 16776960 }, { "yellowgreen", 10145074 },
};

START_TEST(test_named)
{
    size_t n = sizeof css_named / sizeof css_named[0];
    ck_assert_int_eq((int)n, 148);
    for (size_t i = 0; i < n; i++) {
        uint32_t want = (uint32_t)css_named[i].rgb << 8 | 0xffu;
        ck_color(css_named[i].name, want);
        /* ASCII case-insensitive: the first letter and the whole upper-cased */
        char up[32];
        size_t k = 0;
        for (; css_named[i].name[k] != '\0' && k < sizeof up - 1; k++)
            up[k] = (char)(css_named[i].name[k] - 'a' + 'A');
        up[k] = '\0';
        ck_color(up, want);
    }
    /* the module's table holds exactly these and transparent */
    ck_assert_int_eq(RF_COLOR_NNAMES, 149);
    for (size_t i = 0; i + 1 < RF_COLOR_NNAMES; i++)
        ck_assert(strcmp(rf_color_names[i], rf_color_names[i + 1]) < 0);
    ck_color("transparent", 0x00000000u);
    ck_color("Transparent", 0x00000000u);
    ck_color("rebeccapurple", 0x663399ffu);
    ck_color("grey", 0x808080ffu);
    ck_color("gray", 0x808080ffu);
    ck_color("lightslategrey", 0x778899ffu);
}
END_TEST

START_TEST(test_hex)
{
    ck_color("#f80", 0xff8800ffu);
    ck_color("#F808", 0xff880088u);
    ck_color("#12aBcD", 0x12abcdffu);
    ck_color("#12abcd80", 0x12abcd80u);
    parse_bad("#12", "3, 4, 6 or 8 hex digits, got 2");
    parse_bad("#1234567", "got 7");
    parse_bad("#ggg", "hex digits only, got 'g'");
    parse_bad("#", "got 0");
}
END_TEST

START_TEST(test_rgb)
{
    /* comma (legacy) syntax: numbers or percentages, alpha number or % */
    ck_color("rgb(255, 136, 0)", 0xff8800ffu);
    ck_color("rgb(255,136,0)", 0xff8800ffu);
    ck_color("rgb( 255 , 136 , 0 )", 0xff8800ffu);
    ck_color("rgb(100%, 50%, 0%)", 0xff8000ffu);       /* 127.5 -> 128 */
    ck_color("rgba(255, 136, 0, 0.5)", 0xff880080u);   /* 127.5 -> 128 */
    ck_color("rgb(255, 136, 0, 25%)", 0xff880040u);    /* 63.75 -> 64 */
    ck_color("rgba(255, 136, 0)", 0xff8800ffu);        /* rgba = rgb */
    /* space (modern) syntax, numbers and % may mix, / alpha, none */
    ck_color("rgb(255 136 0)", 0xff8800ffu);
    ck_color("rgb(100% 136 0 / 50%)", 0xff880080u);
    ck_color("rgba(255 136 0 / .25)", 0xff880040u);
    ck_color("rgb(none 136 none / none)", 0x00880000u);
    ck_color("RGB(1 2 3)", 0x010203ffu);
    ck_color("rgb(127.5 0.4 +1e2)", 0x800064ffu);
    /* clamped, as CSS does at computed-value time */
    ck_color("rgb(300 -5 255 / 2)", 0xff00ffffu);
    ck_color("rgb(150%, -10%, 0%, -1)", 0xff000000u);
    ck_color("rgb(1e3 0 0)", 0xff0000ffu);
}
END_TEST

/* Python: colorsys.hls_to_rgb(h / 360, l / 100, s / 100), bytes rounded. */
static const struct { double h, s, l; uint32_t rgba; } hsl_grid[] = {
    { 0, 100, 50, 0xff0000ffu },   { 0, 50, 50, 0xbf4040ffu },    { 0, 100, 25, 0x800000ffu },
    { 30, 100, 50, 0xff8000ffu },  { 60, 100, 90, 0xffffccffu },  { 90, 75, 40, 0x66b319ffu },
    { 120, 100, 25, 0x008000ffu }, { 120, 100, 75, 0x80ff80ffu }, { 120, 75, 85, 0xbcf5bcffu },
    { 150, 25, 60, 0x80b399ffu },  { 200, 60, 30, 0x1f5c7affu },  { 210, 100, 12.5, 0x002040ffu },
    { 270, 50, 50, 0x7f40bfffu },  { 330, 90, 70, 0xf76eb3ffu },  { 359, 100, 50, 0xff0004ffu },
    { 45, 0, 60, 0x999999ffu },
};

START_TEST(test_hsl)
{
    /* CSS Color 4, 7 HSL: "hsl(120deg 100% 50%) lime green, hsl(120deg
     * 100% 25%) dark green, hsl(120deg 100% 75%) light green, hsl(120deg
     * 75% 85%) pastel green" */
    ck_color("hsl(120deg 100% 50%)", 0x00ff00ffu);
    ck_color("hsl(120deg 100% 25%)", 0x008000ffu);
    ck_color("hsl(120deg 100% 75%)", 0x80ff80ffu);
    ck_color("hsl(120deg 75% 85%)", 0xbcf5bcffu);
    for (size_t i = 0; i < sizeof hsl_grid / sizeof hsl_grid[0]; i++) {
        char s[64];
        snprintf(s, sizeof s, "hsl(%g, %g%%, %g%%)", hsl_grid[i].h, hsl_grid[i].s, hsl_grid[i].l);
        uint32_t got = parse_ok(s);
        ck_assert_msg(near(got, hsl_grid[i].rgba, 1), "%s: got %08x, want %08x", s, got,
                      hsl_grid[i].rgba);
    }
    /* hue units: 180deg = 0.5turn = 200grad = pi rad; negative and > 360 */
    ck_color("hsl(180 100% 50%)", 0x00ffffffu);
    ck_color("hsl(0.5turn 100% 50%)", 0x00ffffffu);
    ck_color("hsl(200grad 100% 50%)", 0x00ffffffu);
    ck_color("hsl(3.14159265358979rad 100% 50%)", 0x00ffffffu);
    ck_color("hsl(-120 100% 50%)", 0x0000ffffu);
    ck_color("hsl(600 100% 50%)", 0x0000ffffu);
    ck_color("HSL(180DEG 100% 50%)", 0x00ffffffu);
    /* legacy with alpha, hsla alias, modern bare numbers, none */
    ck_color("hsla(240, 100%, 50%, 0.5)", 0x0000ff80u);
    ck_color("hsl(240, 100%, 50%, 50%)", 0x0000ff80u);
    ck_color("hsl(0 100 50)", 0xff0000ffu);
    ck_color("hsla(0 100% 50% / 0.25)", 0xff000040u);
    ck_color("hsl(none 100% 50%)", 0xff0000ffu);
    ck_color("hsl(0 none 50%)", 0x808080ffu);
    /* s and l clamped to 0..100% */
    ck_color("hsl(0 150% 50%)", 0xff0000ffu);
    ck_color("hsl(0 100% 150%)", 0xffffffffu);
    ck_color("hsl(0 -20% 50%)", 0x808080ffu);
}
END_TEST

START_TEST(test_oklch)
{
    /* the sRGB primaries, exact published coordinates */
    ck_color("oklch(0.6279554 0.2576833 29.2338851)", 0xff0000ffu);
    ck_color("oklch(0.8664396 0.2948272 142.4953389)", 0x00ff00ffu);
    ck_color("oklch(0.4520137 0.3132214 264.0520200)", 0x0000ffffu);
    /* the same rounded as people write them: within a byte */
    ck_assert(near(parse_ok("oklch(0.628 0.2577 29.23)"), 0xff0000ffu, 1));
    ck_assert(near(parse_ok("oklch(62.8% 0.2577 29.23deg)"), 0xff0000ffu, 1));
    ck_assert(near(parse_ok("oklch(62.8% 64.425% 29.23)"), 0xff0000ffu, 1)); /* 100% = 0.4 */
    ck_assert(near(parse_ok("oklch(0.628 0.2577 0.0812turn)"), 0xff0000ffu, 1));
    ck_color("oklch(1 0 0)", 0xffffffffu);
    ck_color("oklch(0 0 0)", 0x000000ffu);
    ck_color("oklch(100% 0 none)", 0xffffffffu);
    /* L 0.5: lms' = 0.5, lms = 0.125, linear 0.125, sRGB 0.38857 -> 99 */
    ck_color("oklch(50% 0 0)", 0x636363ffu);
    ck_color("oklch(0.5 0 0 / 0.5)", 0x63636380u);
    ck_color("OKLCH(0.5 0 0)", 0x636363ffu);
    /* out of range: L clamped to [0, 1], C to >= 0, channels clipped */
    ck_color("oklch(1.5 0 0)", 0xffffffffu);
    ck_color("oklch(0.5 -1 0)", 0x636363ffu);
    uint32_t c = parse_ok("oklch(0.9 0.4 140)"); /* far out of sRGB: clipped */
    ck_assert_uint_eq(c & 0xffu, 0xffu);
    parse_bad("oklch(0.5, 0.1, 20)", "oklch() takes no commas");
}
END_TEST

START_TEST(test_syntax_errors)
{
    parse_bad("", "empty string");
    parse_bad("organe", "did you mean \"orange\"?");
    parse_bad("Organe", "did you mean \"orange\"?");
    parse_bad("gren", "did you mean \"green\"?");
    parse_bad("rebeccapurpel", "did you mean \"rebeccapurple\"?");
    parse_bad("blurple", "unknown color name");
    parse_bad("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "too long");
    parse_bad("rgb(", "missing ')'");
    parse_bad("rgb(1, 2, 3", "missing ')'");
    parse_bad("rgb(1 2 3) x", "after the closing ')'");
    parse_bad("rgb(1,2,3,4,5)", "takes 3 components and an optional alpha, got 5");
    parse_bad("rgb(1 2)", "got 2");
    parse_bad("rgb(1, 2 3)", "mixes commas and spaces");
    parse_bad("rgb(1 2, 3)", "mixes commas and spaces");
    parse_bad("rgb(1, 2, 3 / 4)", "mixes commas and '/'");
    parse_bad("rgb(1,,2,3)", "a comma without a component");
    parse_bad("rgb(1, 2, 3,)", "a comma without a component after it");
    parse_bad("rgb(1 2 3 4)", "the alpha follows a '/'");
    parse_bad("rgb(1 2 / 3 4)", "'/' comes after 3 components");
    parse_bad("rgb(1 2 3 / 4 / 5)", "more than one '/'");
    parse_bad("rgb(1 2 3 /)", "'/' is followed by one alpha, got 0");
    parse_bad("rgb(1, 50%, 3)", "all numbers or all percentages");
    parse_bad("rgb(none, 2, 3)", "none is allowed only without commas");
    parse_bad("rgb(1deg 2 3)", "not angles");
    parse_bad("rgb(1 2 3 / 1deg)", "not an angle");
    parse_bad("rgb(1px 2 3)", "unknown unit 'px'");
    parse_bad("rgb(nan 2 3)", "unknown keyword 'nan'");
    parse_bad("rgb(NaN, 2, 3)", "unknown keyword 'NaN'");
    parse_bad("rgb(infinity 2 3)", "unknown keyword 'infinity'");
    parse_bad("rgb(1e309 2 3)", "number 1e309 is out of range");
    parse_bad("hsl(1e309, 10%, 10%)", "out of range");
    parse_bad("hsl(1e308turn 10% 10%)", "angle out of range");
    parse_bad("rgb(. 2 3)", "expected a number");
    parse_bad("rgb(- 2 3)", "expected a number");
    parse_bad("rgb(1 2 3 ; 4)", "expected a number");
    parse_bad("rgb (1, 2, 3)", "no space may come between");
    parse_bad("hsl(120, 100, 50)", "with commas the saturation is a percentage");
    parse_bad("hsl(120 100% 50deg)", "not an angle");
    parse_bad("hsl(50% 100% 50%)", "not a percentage");
    parse_bad("rgbb(1 2 3)", "did you mean rgb()?");
    parse_bad("lab(50 20 30)", "lab() is not supported");
    parse_bad("foo(1 2 3)", "unknown color function foo()");
    parse_bad("rgb(1 2 3 4 5 6 7 8 9 10 11 12 13)", "too many components");
    parse_bad("12", "not a color");
    parse_bad(" red", "not a color");
    /* a number far too long, and a 10,000-character string */
    char big[10010];
    memcpy(big, "rgb(", 4);
    memset(big + 4, '1', 10000);
    strcpy(big + 10004, " 2 3)");
    parse_bad(big, "too long");
    memset(big, 'a', 10000);
    big[10000] = '\0';
    parse_bad(big, "too long");
    /* no room for a message is fine */
    uint32_t c;
    ck_assert_int_eq(rf_color_parse("rgb(", &c, NULL, 0), -1);
    ck_assert_int_eq(rf_color_parse("red", &c, NULL, 0), 0);
    ck_assert_uint_eq(c, 0xff0000ffu);
}
END_TEST

/* b is within tol of want */
#define ck_near(got, want, tol) \
    ck_assert_msg(fabs((got) - (want)) <= (tol), "%s = %.9g, want %.9g", #got, (got), (want))

START_TEST(test_transfer_and_oklab)
{
    ck_near(rf_srgb_to_linear(0.5), 0.214041140, 1e-9);  /* ((0.5 + 0.055) / 1.055)^2.4 */
    ck_near(rf_linear_to_srgb(0.5), 0.735356983, 1e-9);  /* 1.055 * 0.5^(1/2.4) - 0.055 */
    ck_near(rf_srgb_to_linear(0.04), 0.04 / 12.92, 1e-15);
    ck_near(rf_linear_to_srgb(0.002), 0.002 * 12.92, 1e-15);
    for (int i = 0; i <= 255; i++) {
        double v = i / 255.0;
        ck_near(rf_linear_to_srgb(rf_srgb_to_linear(v)), v, 1e-12);
    }
    /* Ottosson's published table: linear sRGB white -> L 1, a 0, b 0;
     * red (1, 0, 0) -> (0.627955, 0.224863, 0.125846) */
    double w[3] = { 1, 1, 1 }, red[3] = { 1, 0, 0 }, lab[3], back[3];
    rf_linear_to_oklab(w, lab);
    ck_near(lab[0], 1.0, 1e-6);
    ck_near(lab[1], 0.0, 1e-6);
    ck_near(lab[2], 0.0, 1e-6);
    rf_linear_to_oklab(red, lab);
    ck_near(lab[0], 0.627955, 1e-5);
    ck_near(lab[1], 0.224863, 1e-5);
    ck_near(lab[2], 0.125846, 1e-5);
    rf_oklab_to_linear(lab, back);
    for (int i = 0; i < 3; i++)
        ck_near(back[i], red[i], 1e-6);
}
END_TEST

START_TEST(test_mix_spaces)
{
    const double black[4] = { 0, 0, 0, 1 }, white[4] = { 1, 1, 1, 1 };
    const double red[4] = { 1, 0, 0, 1 }, blue[4] = { 0, 0, 1, 0 };
    double m[4];
    /* srgb: the bytes of old, a + (b - a) k */
    rf_color_mix(RF_SPACE_SRGB, black, white, 0.5, m);
    ck_assert(m[0] == 0.5 && m[1] == 0.5 && m[2] == 0.5 && m[3] == 1);
    rf_color_mix(RF_SPACE_SRGB, red, blue, 0.25, m);
    ck_assert(m[0] == 0.75 && m[1] == 0 && m[2] == 0.25 && m[3] == 0.75);
    /* linear: black-white at 0.5 is 0.5 linear light = sRGB 1.055 *
     * 0.5^(1/2.4) - 0.055 = 0.7353570, byte 187.52 -> 188 */
    rf_color_mix(RF_SPACE_LINEAR, black, white, 0.5, m);
    for (int i = 0; i < 3; i++)
        ck_near(m[i], 0.735356983, 1e-9);
    ck_assert_int_eq((int)floor(m[0] * 255 + 0.5), 188);
    /* linear red-blue at 0.5: (0.7354, 0, 0.7354), alpha 0.5 (straight) */
    rf_color_mix(RF_SPACE_LINEAR, red, blue, 0.5, m);
    ck_near(m[0], 0.735356983, 1e-9);
    ck_near(m[1], 0.0, 1e-12);
    ck_near(m[2], 0.735356983, 1e-9);
    ck_near(m[3], 0.5, 1e-12);
    /* oklab: black is L 0, white L 1 (a = b = 0), so the mid-point is L 0.5:
     * l' = m' = s' = 0.5, l = m = s = 0.125, and as M2's rows sum to 1,
     * linear r = g = b = 0.125, sRGB 1.055 * 0.125^(1/2.4) - 0.055 =
     * 0.3885716, byte 99.09 -> 99 */
    rf_color_mix(RF_SPACE_OKLAB, black, white, 0.5, m);
    for (int i = 0; i < 3; i++)
        ck_near(m[i], 0.388571, 2e-6);
    ck_assert_int_eq((int)floor(m[0] * 255 + 0.5), 99);
    /* at 0.25: L 0.25, linear 0.25^3 = 0.015625, sRGB 0.13287 */
    rf_color_mix(RF_SPACE_OKLAB, black, white, 0.25, m);
    ck_near(m[1], 1.055 * pow(0.015625, 1 / 2.4) - 0.055, 2e-6);
    /* the ends give the colors back */
    rf_color_mix(RF_SPACE_OKLAB, red, blue, 0, m);
    ck_near(m[0], 1.0, 1e-6);
    ck_near(m[2], 0.0, 1e-6);
    rf_color_mix(RF_SPACE_OKLAB, red, blue, 1, m);
    ck_near(m[0], 0.0, 1e-6);
    ck_near(m[2], 1.0, 1e-6);
    ck_near(m[3], 0.0, 1e-12);
    /* oklab red-blue at 0.5 stays in gamut: every channel in [0, 1] */
    rf_color_mix(RF_SPACE_OKLAB, red, blue, 0.5, m);
    for (int i = 0; i < 4; i++)
        ck_assert(m[i] >= 0 && m[i] <= 1);
    /* the names */
    ck_assert_int_eq(rf_color_space_find("srgb"), RF_SPACE_SRGB);
    ck_assert_int_eq(rf_color_space_find("linear"), RF_SPACE_LINEAR);
    ck_assert_int_eq(rf_color_space_find("oklab"), RF_SPACE_OKLAB);
    ck_assert_int_eq(rf_color_space_find("OKLab"), -1);
    ck_assert_int_eq(rf_color_space_find("lab"), -1);
}
END_TEST

static Suite *color_suite(void)
{
    Suite *s = suite_create("color");
    TCase *tc = tcase_create("color");
    tcase_add_test(tc, test_named);
    tcase_add_test(tc, test_hex);
    tcase_add_test(tc, test_rgb);
    tcase_add_test(tc, test_hsl);
    tcase_add_test(tc, test_oklch);
    tcase_add_test(tc, test_syntax_errors);
    tcase_add_test(tc, test_transfer_and_oklab);
    tcase_add_test(tc, test_mix_spaces);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(color_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
