/* color.h - CSS colors: the strings a scene may write for a color, and the
 * color spaces a mix may interpolate in (scene-v1.md "Colors, complete").
 *
 * Owns nothing: pure functions over NUL-terminated strings and doubles, and
 * two constant tables (the CSS Color 4 named colors; the accepted forms for
 * messages). No cJSON, no loader: the loader calls rf_color_parse and wraps
 * its reason in its own message at the value's JSON pointer; the renderer
 * calls rf_color_mix while drawing a frame.
 *
 * The forms, as CSS Color 4 writes them (names and function names are ASCII
 * case-insensitive):
 *   #rgb #rgba #rrggbb #rrggbbaa
 *   the 148 named colors (grey and gray spellings both) and transparent
 *   rgb(R, G, B[, A])   rgb(R G B[ / A])   and rgba() the same: R, G, B are
 *       numbers 0..255 or percentages (all one kind with commas), A a number
 *       0..1 or a percentage; out of range values are clamped
 *   hsl(H, S%, L%[, A]) hsl(H S L[ / A])   and hsla() the same: H a number
 *       (degrees) or an angle (deg, rad, grad, turn); S and L percentages,
 *       or bare numbers (meaning percentages) without commas; S and L clamped
 *       to 0..100%
 *   oklch(L C H[ / A])  L a number 0..1 or a percentage, C a number or a
 *       percentage (100% = 0.4), H as for hsl; the OKLab color is converted
 *       to linear sRGB with Ottosson's matrices and each channel clipped to
 *       [0, 1] (no gamut mapping: an out-of-gamut color is clipped)
 *   Without commas a component may be `none` (0). Every number must be
 *   finite; components that are not numbers, percentages, angles or none,
 *   extra components and a missing ')' are errors.
 *
 * Thread-safety: every function is reentrant and allocates nothing.
 */
#ifndef RF_COLOR_H
#define RF_COLOR_H

#include <stddef.h>
#include <stdint.h>

/* What an error message appends: the forms a color may take. */
#define RF_COLOR_FORMS "\"#rgb\", \"#rgba\", \"#rrggbb\", \"#rrggbbaa\", a CSS color name, " \
    "rgb(), rgba(), hsl(), hsla() or oklch()"

/* Parses a color: 0 and *out = 0xRRGGBBAA (straight alpha, each channel
 * rounded to the nearest byte), or -1 and a one-line reason in err (it does
 * not repeat the string; for a misspelt name it ends in did you mean
 * "NAME"?). err may be NULL when errlen is 0. */
int rf_color_parse(const char *s, uint32_t *out, char *err, size_t errlen);

/* The color spaces of a mix (scene-v1.md: "space"). */
typedef enum rf_color_space {
    RF_SPACE_SRGB = 0,   /* the sRGB bytes, channel-wise (the default) */
    RF_SPACE_LINEAR,     /* linear-light sRGB */
    RF_SPACE_OKLAB,      /* Ottosson's OKLab */
} rf_color_space_t;

/* The space named s ("srgb", "linear", "oklab"), or -1. */
int rf_color_space_find(const char *s);
/* The names, in rf_color_space_t order (RF_COLOR_NSPACES of them). */
#define RF_COLOR_NSPACES 3
extern const char *const rf_color_space_names[RF_COLOR_NSPACES];
/* The color functions rf_color_parse reads ("rgb", ..., *n of them). */
const char *const *rf_color_functions(size_t *n);

/* sRGB transfer function, both ways (IEC 61966-2-1; odd extension below 0). */
double rf_srgb_to_linear(double v);
double rf_linear_to_srgb(double v);
/* Linear-light sRGB <-> OKLab (Ottosson, "A perceptual color space for
 * image processing", 2020: the published M1 and M2 matrices). */
void rf_linear_to_oklab(const double rgb[3], double lab[3]);
void rf_oklab_to_linear(const double lab[3], double rgb[3]);

/* Straight rgba a and b (channels 0..1) mixed by k (0: a, 1: b) in space:
 * the colors are converted, interpolated channel-wise (alpha linearly,
 * not premultiplied), converted back and clipped to [0, 1]. RF_SPACE_SRGB
 * is a + (b - a) * k without clipping, as it always was. */
void rf_color_mix(int space, const double a[4], const double b[4], double k, double out[4]);

/* The named-color table, sorted by name (for the tests and the manual):
 * name i is rf_color_names[i], its color rf_color_values[i] (0xRRGGBBAA). */
#define RF_COLOR_NNAMES 149   /* the 148 CSS Color 4 names and transparent */
extern const char *const rf_color_names[RF_COLOR_NNAMES];
extern const uint32_t rf_color_values[RF_COLOR_NNAMES];

#endif
