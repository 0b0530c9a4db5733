/* template.h - text templates: "Uploaded {done:.0f} of {total:d} files".
 *
 * Owns: the syntax of a template (scene-v1.md "Text") and the formatting
 * of its pieces each frame. The loader splits a template into pieces
 * (rf_template_next) and resolves each {NAME} to a value's slot; the
 * renderer formats the pieces (rf_template_format) into a buffer it owns.
 * Formatting never allocates and gives the same bytes on every machine:
 * numbers go through snprintf's "%.*f" on the C locale's digits (runeframe
 * never calls setlocale), then thousands separators are inserted here.
 *
 * Formats (FMT in {NAME:FMT}):
 *   (none)  up to 6 decimals, trailing zeros removed: 0.5, 12, 0.333333
 *   .Nf     N decimals (0 <= N <= 12), rounded as printf rounds the double
 *   ,.Nf    the same with a comma every three integer digits: 12,345.6
 *   d       an integer, rounded half away from zero; ,d with separators
 *   .N%     100 times the value, N decimals, then '%' (.0% prints 0.42 as
 *           42%); ,.N% with separators
 * -0 prints as 0 (a counter passing zero does not flash a minus sign), NaN
 * as "NaN", infinities as "inf" and "-inf"; a magnitude of 1e21 or more is
 * printed in %g form (no 300-digit strings).
 */
#ifndef RF_TEMPLATE_H
#define RF_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

/* A parsed format. */
typedef struct rf_fmt {
    uint8_t kind;       /* rf_fmt_kind_t */
    uint8_t decimals;   /* RF_FMT_FIXED */
    uint8_t commas;     /* 1: thousands separators */
    uint8_t percent;    /* 1: times 100, '%' after */
} rf_fmt_t;

typedef enum rf_fmt_kind {
    RF_FMT_DEFAULT = 0,
    RF_FMT_FIXED,       /* .Nf, .N% */
    RF_FMT_INT,         /* d */
} rf_fmt_kind_t;

#define RF_FMT_MAX_DECIMALS 12
/* The most bytes one formatted number takes (sign, 21 digits, separators,
 * decimals, '%'). */
#define RF_FMT_MAX_BYTES 64

/* One token of a template. */
typedef struct rf_tpl_token {
    int is_value;       /* 0: literal text; 1: {NAME} or {NAME:FMT} */
    const char *s;      /* literal: its bytes; value: NAME */
    size_t len;
    const char *fmt;    /* value: FMT, NULL without */
    size_t fmtlen;
    size_t at;          /* byte offset of the token in the template */
} rf_tpl_token_t;

/* The next token of tpl at *pos, advancing *pos. Literal runs stop at a
 * brace; "{{" and "}}" are one literal brace each. Returns 1 with a token,
 * 0 at the end, -1 with a message in err for a syntax error (an unmatched
 * brace, an empty name). */
int rf_template_next(const char *tpl, size_t *pos, rf_tpl_token_t *tok, char *err,
                     size_t errlen);

/* Parses FMT (len bytes). 0, or -1 with a message in err. */
int rf_fmt_parse(const char *s, size_t len, rf_fmt_t *out, char *err, size_t errlen);

/* Formats v into out (RF_FMT_MAX_BYTES), returns the length. */
size_t rf_fmt_number(const rf_fmt_t *f, double v, char *out);

#endif
