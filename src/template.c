/* template.c - template syntax and number formatting (template.h). */
#include "template.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *msg)
{
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s", msg);
    return -1;
}

int rf_template_next(const char *tpl, size_t *pos, rf_tpl_token_t *tok, char *err,
                     size_t errlen)
{
    size_t i = *pos;
    memset(tok, 0, sizeof *tok);
    tok->at = i;
    if (tpl[i] == '\0')
        return 0;
    if ((tpl[i] == '{' && tpl[i + 1] == '{') || (tpl[i] == '}' && tpl[i + 1] == '}')) {
        tok->s = tpl + i;
        tok->len = 1;
        *pos = i + 2;
        return 1;
    }
    if (tpl[i] == '}')
        return fail(err, errlen, "a '}' without its '{' (write '}}' for a literal brace)");
    if (tpl[i] != '{') {
        size_t j = i;
        while (tpl[j] != '\0' && tpl[j] != '{' && tpl[j] != '}')
            j++;
        tok->s = tpl + i;
        tok->len = j - i;
        *pos = j;
        return 1;
    }
    size_t j = i + 1;
    while (tpl[j] != '\0' && tpl[j] != '}' && tpl[j] != '{' && tpl[j] != ':')
        j++;
    size_t name_end = j;
    if (tpl[j] == ':') {
        tok->fmt = tpl + j + 1;
        while (tpl[j] != '\0' && tpl[j] != '}' && tpl[j] != '{')
            j++;
        tok->fmtlen = (size_t)(tpl + j - tok->fmt);
    }
    if (tpl[j] != '}')
        return fail(err, errlen, "a '{' without its '}' (write '{{' for a literal brace)");
    tok->is_value = 1;
    tok->s = tpl + i + 1;
    tok->len = name_end - i - 1;
    while (tok->len > 0 && tok->s[0] == ' ') {
        tok->s++;
        tok->len--;
    }
    while (tok->len > 0 && tok->s[tok->len - 1] == ' ')
        tok->len--;
    if (tok->len == 0)
        return fail(err, errlen, "an empty '{}': name a value inside the braces, as in {progress}");
    *pos = j + 1;
    return 1;
}

int rf_fmt_parse(const char *s, size_t len, rf_fmt_t *out, char *err, size_t errlen)
{
    static const char *const forms = "the formats are .Nf, ,.Nf, d, ,d, .N% and ,.N%, "
                                     "N decimals from 0 to 12";
    char msg[200];
    size_t i = 0;
    memset(out, 0, sizeof *out);
    if (i < len && s[i] == ',') {
        out->commas = 1;
        i++;
    }
    if (i < len && s[i] == 'd' && i + 1 == len) {
        out->kind = RF_FMT_INT;
        return 0;
    }
    if (i < len && s[i] == '.') {
        i++;
        unsigned n = 0;
        size_t d0 = i;
        while (i < len && s[i] >= '0' && s[i] <= '9' && n <= RF_FMT_MAX_DECIMALS)
            n = n * 10 + (unsigned)(s[i++] - '0');
        if (i > d0 && n <= RF_FMT_MAX_DECIMALS && i + 1 == len && (s[i] == 'f' || s[i] == '%')) {
            out->kind = RF_FMT_FIXED;
            out->decimals = (uint8_t)n;
            out->percent = s[i] == '%';
            return 0;
        }
        if (i > d0 && n > RF_FMT_MAX_DECIMALS) {
            snprintf(msg, sizeof msg, "format '%.*s': at most %d decimals", (int)(len > 40 ? 40 : len),
                     s, RF_FMT_MAX_DECIMALS);
            return fail(err, errlen, msg);
        }
    }
    snprintf(msg, sizeof msg, "unknown format '%.*s': %s", (int)(len > 40 ? 40 : len), s, forms);
    return fail(err, errlen, msg);
}

/* Inserts a comma every three digits of the integer part of out[0..n). */
static size_t add_commas(char *out, size_t n)
{
    size_t start = out[0] == '-' ? 1 : 0, end = start;
    while (end < n && out[end] >= '0' && out[end] <= '9')
        end++;
    size_t digits = end - start;
    if (digits <= 3)
        return n;
    size_t ncomma = (digits - 1) / 3;
    memmove(out + end + ncomma, out + end, n - end);
    /* copy the integer digits right to left, a comma after every third */
    size_t src = end, dst = end + ncomma, k = 0;
    while (src > start) {
        out[--dst] = out[--src];
        if (++k % 3 == 0 && src > start)
            out[--dst] = ',';
    }
    return n + ncomma;
}

size_t rf_fmt_number(const rf_fmt_t *f, double v, char *out)
{
    int n;
    if (isnan(v))
        return (size_t)snprintf(out, RF_FMT_MAX_BYTES, "NaN");
    if (f->percent)
        v *= 100;
    if (isinf(v))
        n = snprintf(out, RF_FMT_MAX_BYTES, "%s", v < 0 ? "-inf" : "inf");
    else if (fabs(v) >= 1e21)
        n = snprintf(out, RF_FMT_MAX_BYTES, "%g", v);
    else if (f->kind == RF_FMT_INT)
        n = snprintf(out, RF_FMT_MAX_BYTES, "%.0f", round(v) == 0 ? 0.0 : round(v));
    else if (f->kind == RF_FMT_FIXED)
        n = snprintf(out, RF_FMT_MAX_BYTES, "%.*f", (int)f->decimals, v);
    else {
        n = snprintf(out, RF_FMT_MAX_BYTES, "%.6f", v);
        while (n > 0 && out[n - 1] == '0')
            n--;
        if (n > 0 && out[n - 1] == '.')
            n--;
    }
    if (n < 0)
        n = 0;
    size_t len = (size_t)n;
    /* -0, -0.00: a zero prints without its sign */
    if (out[0] == '-') {
        size_t k = 1;
        while (k < len && (out[k] == '0' || out[k] == '.'))
            k++;
        if (k == len) {
            memmove(out, out + 1, len - 1);
            len--;
        }
    }
    if (f->commas && isfinite(v) && fabs(v) < 1e21)
        len = add_commas(out, len);
    if (f->percent && len + 1 < RF_FMT_MAX_BYTES)
        out[len++] = '%';
    out[len] = '\0';
    return len;
}
