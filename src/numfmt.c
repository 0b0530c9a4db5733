/* numfmt.c - shortest round-trip and exact number printing. */
#include "numfmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Non-finite values get the same spelling everywhere, whatever printf's
 * ("-nan", "inf") would be on this libc. */
static const char *num_nonfinite(char buf[RF_NUM_BUF], double x)
{
    if (isnan(x))
        snprintf(buf, RF_NUM_BUF, "nan");
    else
        snprintf(buf, RF_NUM_BUF, "%s", x < 0 ? "-inf" : "inf");
    return buf;
}

const char *rf_num_short(char buf[RF_NUM_BUF], double x)
{
    if (!isfinite(x))
        return num_nonfinite(buf, x);
    /* 17 significant digits always round-trip; fewer usually do and read
     * better ("0.1" instead of "0.10000000000000001"). */
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, RF_NUM_BUF, "%.*g", prec, x);
        if (prec == 17 || strtod(buf, NULL) == x)
            break;
    }
    return buf;
}

const char *rf_num_exact(char buf[RF_NUM_BUF], double x)
{
    if (!isfinite(x))
        return num_nonfinite(buf, x);
    snprintf(buf, RF_NUM_BUF, "%.17g", x);
    return buf;
}

const char *rf_num_json(char buf[RF_NUM_BUF], double x)
{
    if (!isfinite(x)) {
        snprintf(buf, RF_NUM_BUF, "null");
        return buf;
    }
    return rf_num_short(buf, x);
}

const char *rf_num_percent(char buf[RF_NUM_BUF], double share)
{
    double p = 100.0 * share, s;
    int d;

    if (!(p > 0)) {
        snprintf(buf, RF_NUM_BUF, p == 0 ? "0%%" : "%g%%", p);
        return buf;
    }
    for (d = 2, s = p * 100.0; d < 8 && s < 10.0; d++)
        s *= 10.0;
    snprintf(buf, RF_NUM_BUF, "%.*f%%", d, p);
    return buf;
}

int rf_num_parse(const char *s, double *out)
{
    char *end;
    double x;

    if (s == NULL || *s == '\0')
        return -1;
    /* strtod skips leading white space; an argument with any is a typo. */
    if (*s == ' ' || *s == '\t' || *s == '\n')
        return -1;
    errno = 0;
    x = strtod(s, &end);
    if (*end != '\0' || !isfinite(x))
        return -1;
    /* ERANGE on underflow still yields a usable (tiny or zero) number;
     * overflow already failed the isfinite test. */
    *out = x;
    return 0;
}
