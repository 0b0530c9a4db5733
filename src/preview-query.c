/* preview-query.c - the preview server's query rules (preview-query.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numfmt.h"
#include "preview-query.h"

/* s shown in a message: printable ASCII kept, anything else '?', at most
 * 32 bytes and "..." after. */
static const char *pvq_show(char buf[40], const char *s, size_t len)
{
    size_t k = 0;

    for (size_t i = 0; i < len && k < 32; i++)
        buf[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (len > 32) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return buf;
}

void rf_pvq_init(rf_pvq_t *q)
{
    memset(q, 0, sizeof *q);
}

/* A whole decimal integer of at most 18 digits: 0, or -1. */
static int pvq_integer(const char *s, long *out)
{
    long v = 0;
    size_t n = strlen(s);

    if (n == 0 || n > 18)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

int rf_pvq_arg(rf_pvq_t *q, const char *key, const char *value, char *err, size_t errlen)
{
    char b1[40], b2[40];
    size_t klen = strlen(key), vlen = value != NULL ? strlen(value) : 0;
    long n;

    if (klen > RF_PVQ_MAX_FIELD || vlen > RF_PVQ_MAX_FIELD) {
        snprintf(err, errlen, "a query key or value is longer than %d bytes", RF_PVQ_MAX_FIELD);
        return -1;
    }
    if (strcmp(key, "t") == 0 || strcmp(key, "frame") == 0 || strcmp(key, "g") == 0) {
        int *has = key[0] == 't' ? &q->has_t : key[0] == 'f' ? &q->has_frame : &q->has_g;
        if (*has) {
            snprintf(err, errlen, "'%s' is given twice", key);
            return -1;
        }
        if (value == NULL || value[0] == '\0') {
            snprintf(err, errlen, "'%s' needs a value", key);
            return -1;
        }
        *has = 1;
    } else {
        snprintf(err, errlen, "unknown query key '%s' (t, frame or g)", pvq_show(b1, key, klen));
        return -1;
    }
    if (key[0] == 't') {
        double t;
        if (rf_num_parse(value, &t) != 0 || !(t >= 0 && t <= RF_PVQ_MAX_T)) {
            snprintf(err, errlen, "t must be a number of seconds in [0, %s], got '%s'",
                     rf_num_short(b2, RF_PVQ_MAX_T), pvq_show(b1, value, vlen));
            return -1;
        }
        q->t = t;
    } else if (key[0] == 'f') {
        if (pvq_integer(value, &n) != 0) {
            snprintf(err, errlen, "frame must be a frame index (an integer >= 0), got '%s'",
                     pvq_show(b1, value, vlen));
            return -1;
        }
        q->frame = n;
    } else if (pvq_integer(value, &n) != 0) {
        snprintf(err, errlen, "g must be an integer >= 0, got '%s'", pvq_show(b1, value, vlen));
        return -1;
    }
    return 0;
}

int rf_pvq_finish(const rf_pvq_t *q, long nframes, char *err, size_t errlen)
{
    if (q->has_t && q->has_frame) {
        snprintf(err, errlen, "t and frame cannot be combined");
        return -1;
    }
    if (!q->has_t && !q->has_frame) {
        snprintf(err, errlen, "missing ?t=T (seconds) or ?frame=N");
        return -1;
    }
    if (q->has_frame && q->frame >= nframes) {
        snprintf(err, errlen, "frame %ld: N must be < %ld (the scene has %ld frames)",
                 q->frame, nframes, nframes);
        return -1;
    }
    return 0;
}

static int pvq_hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes s[0 .. len) into out (RF_PVQ_MAX_FIELD + 1 bytes): 0, or -1
 * with the message in err. */
static int pvq_decode(const char *s, size_t len, char *out, char *err, size_t errlen)
{
    size_t k = 0;

    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= len || pvq_hex(s[i + 1]) < 0 || pvq_hex(s[i + 2]) < 0) {
                snprintf(err, errlen, "a '%%' in the query is not followed by two hex digits");
                return -1;
            }
            c = pvq_hex(s[i + 1]) * 16 + pvq_hex(s[i + 2]);
            i += 2;
        } else if (c == '+') {
            c = ' ';
        }
        if (c == '\0') {
            snprintf(err, errlen, "the query holds a NUL byte");
            return -1;
        }
        if (k >= RF_PVQ_MAX_FIELD) {
            snprintf(err, errlen, "a query key or value is longer than %d bytes",
                     RF_PVQ_MAX_FIELD);
            return -1;
        }
        out[k++] = (char)c;
    }
    out[k] = '\0';
    return 0;
}

int rf_pvq_parse(const char *query, size_t len, rf_pvq_t *q, char *err, size_t errlen)
{
    char key[RF_PVQ_MAX_FIELD + 1], value[RF_PVQ_MAX_FIELD + 1];

    if (len > RF_PVQ_MAX_LEN) {
        snprintf(err, errlen, "the query is longer than %d bytes", RF_PVQ_MAX_LEN);
        return -1;
    }
    for (size_t start = 0; start < len;) {
        const char *part = query + start;
        const char *amp = memchr(part, '&', len - start);
        size_t plen = amp != NULL ? (size_t)(amp - part) : len - start;
        const char *eq = memchr(part, '=', plen);
        size_t klen = eq != NULL ? (size_t)(eq - part) : plen;

        start += plen + 1;
        if (plen == 0)          /* "a=1&&b=2", a trailing '&' */
            continue;
        if (pvq_decode(part, klen, key, err, errlen) != 0)
            return -1;
        if (eq != NULL && pvq_decode(eq + 1, plen - klen - 1, value, err, errlen) != 0)
            return -1;
        if (rf_pvq_arg(q, key, eq != NULL ? value : NULL, err, errlen) != 0)
            return -1;
    }
    return 0;
}
