/* trace-read.c - reading a trace back (trace.h): the hostile-input parser.
 *
 * A trace comes from a pull request, so reading one trusts nothing: every
 * line is split by hand within its length (the text need not end in a NUL),
 * every field must be a whole number as %.17g prints one, column names must
 * be value names (they end up in check's output), and every size is bounded
 * before it is allocated. The columns are sorted by name and the rows by t
 * here, once, so that trace.c's lookups are binary searches.
 */
#define _POSIX_C_SOURCE 200809L   /* open's O_CLOEXEC, fstat */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-int.h"

/* Longest field that can be a number this format writes ("-2.2250738585072014e-308"
 * is 24 bytes); longer ones are rejected before strtod sees them. */
#define TRACE_NUM_MAX 63
/* Bytes of a hostile field quoted in a message. */
#define TRACE_QUOTE_MAX 40
#define TRACE_QUOTE_BUF (TRACE_QUOTE_MAX + 4)

/* ---- reading ---- */

static void trace_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void trace_error(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* A field for a message: at most TRACE_QUOTE_MAX bytes, anything but
 * printable ASCII as '?' (no terminal escapes from a hostile file). */
static const char *trace_quote(char out[TRACE_QUOTE_BUF], const char *s, size_t n)
{
    size_t k = n < TRACE_QUOTE_MAX ? n : TRACE_QUOTE_MAX;

    for (size_t i = 0; i < k; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (k < n) {
        memcpy(out + k, "...", 4);
    } else {
        out[k] = '\0';
    }
    return out;
}

/* One field as a number: exactly what rf_num_exact prints ("inf", "-inf",
 * "nan", or a decimal strtod reads in full). Hex floats, "infinity", space
 * and overflowing exponents are not what the format writes: rejected. */
static int trace_parse_number(const char *s, size_t n, double *out)
{
    char buf[TRACE_NUM_MAX + 1];
    char *end;
    double x;

    if (n == 3 && memcmp(s, "inf", 3) == 0) {
        *out = INFINITY;
        return 0;
    }
    if (n == 4 && memcmp(s, "-inf", 4) == 0) {
        *out = -INFINITY;
        return 0;
    }
    if (n == 3 && memcmp(s, "nan", 3) == 0) {
        *out = NAN;
        return 0;
    }
    if (n == 0 || n > TRACE_NUM_MAX)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (strchr("0123456789+-.eE", s[i]) == NULL || s[i] == '\0')
            return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    x = strtod(buf, &end);
    if (end != buf + n)
        return -1;
    /* ERANGE on underflow still gives the right (subnormal or zero) double;
     * on overflow it is a number no double prints as. */
    if (errno == ERANGE && isinf(x))
        return -1;
    *out = x;
    return 0;
}

static int trace_is_ident_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int trace_is_ident_char(char c)
{
    return trace_is_ident_start(c) || (c >= '0' && c <= '9');
}

/* A column name: a value name or an inline value's pointer name (segments
 * of letters, digits and '_' joined by '/', the first not starting with a
 * digit), optionally ".SUFFIX" (an identifier). */
static int trace_is_column_name(const char *s, size_t n)
{
    size_t i = 0;

    if (n == 0 || !trace_is_ident_start(s[0]))
        return 0;
    for (;;) {
        size_t seg = i;
        while (i < n && trace_is_ident_char(s[i]))
            i++;
        if (i == seg)
            return 0;
        if (i == n)
            return 1;
        if (s[i] == '/') {
            i++;
            continue;
        }
        if (s[i] != '.')
            return 0;
        i++;
        if (i >= n || !trace_is_ident_start(s[i]))
            return 0;
        for (i++; i < n && trace_is_ident_char(s[i]); i++)
            ;
        return i == n;
    }
}

static int trace_col_cmp(const void *pa, const void *pb)
{
    const trace_col_t *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);

    if (c != 0)
        return c;
    return (a->index > b->index) - (a->index < b->index);
}

/* Total order: numbers by value (-0 ties 0), NaN after all of them, then
 * file order, so the first row at a time is the first entry equal to it. */
static int trace_trow_cmp(const void *pa, const void *pb)
{
    const trace_trow_t *a = pa, *b = pb;
    int an = isnan(a->t), bn = isnan(b->t);

    if (an != bn)
        return an - bn;
    if (!an) {
        if (a->t < b->t)
            return -1;
        if (a->t > b->t)
            return 1;
    }
    return (a->row > b->row) - (a->row < b->row);
}

/* Fields of [p, e): one more than its commas. */
static size_t trace_count_fields(const char *p, const char *e)
{
    size_t n = 1;

    for (const char *c; (c = memchr(p, ',', (size_t)(e - p))) != NULL; p = c + 1)
        n++;
    return n;
}

/* Where the line starting at p ends (before "\n" or "\r\n", or at end of
 * text), and where the next one starts. */
static const char *trace_line_end(const char *p, const char *end, const char **next)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl != NULL ? nl : end;

    *next = nl != NULL ? nl + 1 : end;
    if (e > p && e[-1] == '\r')
        e--;
    return e;
}

void rf_trace_destroy(rf_trace_t *trace)
{
    if (trace == NULL)
        return;
    free(trace->names);
    free(trace->cols);
    free(trace->sorted);
    free(trace->table);
    free(trace->by_t);
    for (size_t i = 0; i < trace->nassets; i++)
        free(trace->assets[i]);
    free(trace->assets);
    free(trace);
}

/* An asset line [p, e) ("#asset,HEX,FILE") kept in trace; 0, or -1 when
 * out of memory. Malformed ones and those past the limit are skipped. */
static int trace_keep_asset(rf_trace_t *trace, const char *p, const char *e)
{
    static const char tag[] = "#asset,";
    size_t n = (size_t)(e - p), tl = sizeof tag - 1;
    if (n < tl + 65 + 1 || memcmp(p, tag, tl) != 0 || p[tl + 64] != ',' ||
        trace->nassets >= RF_TRACE_MAX_ASSETS)
        return 0;
    for (size_t i = 0; i < 64; i++)
        if (!strchr("0123456789abcdef", p[tl + i]) || p[tl + i] == '\0')
            return 0;
    if (trace->assets == NULL &&
        (trace->assets = calloc(RF_TRACE_MAX_ASSETS, sizeof *trace->assets)) == NULL)
        return -1;
    size_t fl = n - tl - 65;
    char *a = malloc(65 + fl + 1);
    if (a == NULL)
        return -1;
    memcpy(a, p + tl, 64);
    a[64] = '\0';
    memcpy(a + 65, p + tl + 65, fl);
    a[65 + fl] = '\0';
    trace->assets[trace->nassets++] = a;
    return 0;
}

const char *rf_trace_asset(const rf_trace_t *trace, const char *file)
{
    for (size_t i = 0; trace != NULL && i < trace->nassets; i++)
        if (strcmp(trace->assets[i] + 65, file) == 0)
            return trace->assets[i];
    return NULL;
}

int rf_trace_append_asset(char **text, size_t *len, const char *file, const char *sha256)
{
    size_t fl = strlen(file), add = 7 + 64 + 1 + fl + 1;
    if (strchr(file, '\n') != NULL || strchr(file, '\r') != NULL || strlen(sha256) != 64)
        return -1;
    char *t = realloc(*text, *len + add + 1);
    if (t == NULL)
        return -1;
    snprintf(t + *len, add + 1, "#asset,%s,%s\n", sha256, file);
    *text = t;
    *len += add;
    return 0;
}

/* Parses the header line [p, e) into trace's names, cols and sorted.
 * Returns 0, or -1 with the message in err. */
static int trace_parse_header(rf_trace_t *trace, const char *p, const char *e,
                              const char *name, char *err, size_t errlen)
{
    size_t n = trace_count_fields(p, e), hl = (size_t)(e - p);
    const char *f = p;
    char q[TRACE_QUOTE_BUF];
    size_t dup_first = 0, dup_second = 0;

    if (hl == 0) {
        trace_error(err, errlen, "%s:1: the first line is empty, expected the header 't,...'",
                    name);
        return -1;
    }
    {
        const char *c = memchr(p, ',', hl);
        size_t fl = c != NULL ? (size_t)(c - p) : hl;
        double x;

        if (fl != 1 || p[0] != 't') {
            if (trace_parse_number(p, fl, &x) == 0)
                trace_error(err, errlen, "%s:1: no header: the first line must be 't,NAME,...', "
                            "got '%s'", name, trace_quote(q, p, hl));
            else
                trace_error(err, errlen, "%s:1: the header's first column must be 't', got '%s'",
                            name, trace_quote(q, p, fl));
            return -1;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const char *c = memchr(f, ',', (size_t)(e - f));
        const char *fe = c != NULL ? c : e;
        size_t fl = (size_t)(fe - f);

        if (i > 0 && fl == 0) {
            trace_error(err, errlen, "%s:1: header field %zu is empty", name, i + 1);
            return -1;
        }
        if (i > 0 && !trace_is_column_name(f, fl)) {
            trace_error(err, errlen, "%s:1: header field %zu ('%s') is not a value name", name,
                        i + 1, trace_quote(q, f, fl));
            return -1;
        }
        f = fe + 1;
    }

    trace->ncols = n;
    trace->names = malloc(hl + 1);
    trace->cols = malloc(n * sizeof *trace->cols);
    trace->sorted = malloc(n * sizeof *trace->sorted);
    if (trace->names == NULL || trace->cols == NULL || trace->sorted == NULL) {
        trace_error(err, errlen, "%s: out of memory", name);
        return -1;
    }
    memcpy(trace->names, p, hl);
    trace->names[hl] = '\0';
    {
        char *s = trace->names;

        for (size_t i = 0; i < n; i++) {
            char *c = strchr(s, ',');

            if (c != NULL)
                *c = '\0';
            trace->cols[i] = s;
            trace->sorted[i].name = s;
            trace->sorted[i].index = i;
            s = c != NULL ? c + 1 : s + strlen(s);
        }
    }
    qsort(trace->sorted, n, sizeof *trace->sorted, trace_col_cmp);
    /* Of all repeated names, report the repetition that comes first in the
     * file: the group whose second occurrence has the smallest index. */
    for (size_t i = 0; i + 1 < n; i++) {
        if (strcmp(trace->sorted[i].name, trace->sorted[i + 1].name) != 0)
            continue;
        if (dup_second == 0 || trace->sorted[i + 1].index < dup_second) {
            dup_first = trace->sorted[i].index;
            dup_second = trace->sorted[i + 1].index;
        }
        while (i + 1 < n && strcmp(trace->sorted[i].name, trace->sorted[i + 1].name) == 0)
            i++;
    }
    if (dup_second != 0) {
        const char *dn = trace->cols[dup_first];

        trace_error(err, errlen, "%s:1: column '%s' is named twice (fields %zu and %zu)", name,
                    trace_quote(q, dn, strlen(dn)), dup_first + 1, dup_second + 1);
        return -1;
    }
    return 0;
}

rf_trace_t *rf_trace_parse(const char *text, size_t len, const char *name, char *err,
                           size_t errlen)
{
    rf_trace_t *trace;
    const char *p = text, *end = text + len, *e, *next, *nul;
    size_t maxrows, lines, line, r = 0;
    char q[TRACE_QUOTE_BUF], cq[TRACE_QUOTE_BUF];

    if (name == NULL)
        name = "trace";
    if (len > RF_TRACE_MAX_BYTES) {
        trace_error(err, errlen, "%s: larger than 64 MiB (%zu bytes), not a trace", name, len);
        return NULL;
    }
    if (len > 0 && text == NULL) {
        trace_error(err, errlen, "%s: no text", name);
        return NULL;
    }
    if (len == 0) {
        trace_error(err, errlen, "%s:1: empty file, expected the header 't,...'", name);
        return NULL;
    }
    nul = memchr(text, '\0', len);
    if (nul != NULL) {
        size_t l = 1;

        for (const char *c = text; (c = memchr(c, '\n', (size_t)(nul - c))) != NULL; c++)
            l++;
        trace_error(err, errlen, "%s:%zu: a NUL byte: a binary file, not a trace", name, l);
        return NULL;
    }
    /* An editor's UTF-8 byte order mark is not part of the header. */
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    if (p == end) {
        trace_error(err, errlen, "%s:1: empty file, expected the header 't,...'", name);
        return NULL;
    }

    trace = calloc(1, sizeof *trace);
    if (trace == NULL) {
        trace_error(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    e = trace_line_end(p, end, &next);
    if (trace_parse_header(trace, p, e, name, err, errlen) != 0)
        goto fail;
    p = next;

    /* Rows: at most one per remaining line, and a valid row of k fields
     * takes at least 2k bytes with its newline (2k - 1 for the last), so
     * neither a wide header over blank lines nor many lines under a short
     * header can make the table larger than the text warrants. */
    lines = 0;
    for (const char *c = p; c < end; lines++) {
        const char *nl = memchr(c, '\n', (size_t)(end - c));
        c = nl != NULL ? nl + 1 : end;
    }
    maxrows = ((size_t)(end - p) + 1) / (2 * trace->ncols);
    if (lines < maxrows)
        maxrows = lines;
    trace->table = malloc((maxrows > 0 ? maxrows * trace->ncols : 1) * sizeof *trace->table);
    trace->by_t = malloc((maxrows > 0 ? maxrows : 1) * sizeof *trace->by_t);
    if (trace->table == NULL || trace->by_t == NULL) {
        trace_error(err, errlen, "%s: out of memory", name);
        goto fail;
    }

    for (line = 2; p < end; line++, p = next) {
        size_t nf;
        double *row;
        const char *f;

        e = trace_line_end(p, end, &next);
        if (e > p && *p == '#') {
            if (trace_keep_asset(trace, p, e) != 0) {
                trace_error(err, errlen, "%s: out of memory", name);
                goto fail;
            }
            continue;
        }
        if (e == p) {
            trace_error(err, errlen, "%s:%zu: an empty line, expected %zu fields", name, line,
                        trace->ncols);
            goto fail;
        }
        nf = trace_count_fields(p, e);
        if (nf != trace->ncols) {
            trace_error(err, errlen, "%s:%zu: %zu field%s, expected %zu", name, line, nf,
                        nf == 1 ? "" : "s", trace->ncols);
            goto fail;
        }
        if (r >= maxrows) {
            /* Cannot happen by the bound above; never write past the table. */
            trace_error(err, errlen, "%s:%zu: more rows than the file can hold", name, line);
            goto fail;
        }
        row = trace->table + r * trace->ncols;
        f = p;
        for (size_t i = 0; i < nf; i++) {
            const char *c = memchr(f, ',', (size_t)(e - f));
            const char *fe = c != NULL ? c : e;
            size_t fl = (size_t)(fe - f);

            if (trace_parse_number(f, fl, &row[i]) != 0) {
                if (fl == 0)
                    trace_error(err, errlen, "%s:%zu: field %zu (column '%s') is empty", name,
                                line, i + 1, trace_quote(cq, trace->cols[i], strlen(trace->cols[i])));
                else
                    trace_error(err, errlen, "%s:%zu: field %zu (column '%s'): '%s' is not a number",
                                name, line, i + 1,
                                trace_quote(cq, trace->cols[i], strlen(trace->cols[i])),
                                trace_quote(q, f, fl));
                goto fail;
            }
            f = fe + 1;
        }
        trace->by_t[r].t = row[0];
        trace->by_t[r].row = r;
        r++;
    }
    trace->nrows = r;
    qsort(trace->by_t, r, sizeof *trace->by_t, trace_trow_cmp);
    trace->nfinite_t = r;
    while (trace->nfinite_t > 0 && isnan(trace->by_t[trace->nfinite_t - 1].t))
        trace->nfinite_t--;
    return trace;
fail:
    rf_trace_destroy(trace);
    return NULL;
}

rf_trace_t *rf_trace_load(const char *path, int *missing, char *err, size_t errlen)
{
    struct stat st;
    int fd = -1, dummy;
    char *buf = NULL;
    size_t len = 0, cap;
    rf_trace_t *trace;

    if (missing == NULL)
        missing = &dummy;
    *missing = 0;
    /* stat first so that a trace.csv symlinked to a device is never even
     * opened (opening some devices does things); fstat below settles the
     * race with a file replaced in between. */
    if (stat(path, &st) != 0) {
        int e = errno;

        *missing = e == ENOENT;
        trace_error(err, errlen, "%s: cannot open: %s", path, strerror(e));
        return NULL;
    }
    for (int pass = 0; pass < 2; pass++) {
        if (S_ISDIR(st.st_mode)) {
            trace_error(err, errlen, "%s: is a directory, not a trace file", path);
            goto fail_fd;
        }
        if (!S_ISREG(st.st_mode)) {
            trace_error(err, errlen, "%s: not a regular file (a device, FIFO or socket), "
                        "not a trace file", path);
            goto fail_fd;
        }
        if (st.st_size > (off_t)RF_TRACE_MAX_BYTES) {
            trace_error(err, errlen, "%s: larger than 64 MiB (%lld bytes), not a trace", path,
                        (long long)st.st_size);
            goto fail_fd;
        }
        if (pass == 1)
            break;
        /* O_NONBLOCK: a FIFO swapped in after stat must not block open. */
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            int e = errno;

            *missing = e == ENOENT;
            trace_error(err, errlen, "%s: cannot open: %s", path, strerror(e));
            return NULL;
        }
        if (fstat(fd, &st) != 0) {
            trace_error(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
            goto fail_fd;
        }
    }

    /* The size is a hint: the file may change while it is read. */
    cap = (size_t)st.st_size + 1;
    buf = malloc(cap);
    if (buf == NULL) {
        trace_error(err, errlen, "%s: out of memory", path);
        goto fail_fd;
    }
    for (;;) {
        ssize_t got;

        if (len == cap) {
            size_t ncap = cap > RF_TRACE_MAX_BYTES / 2 ? (size_t)RF_TRACE_MAX_BYTES + 1 : cap * 2;
            char *nb;

            if (cap > RF_TRACE_MAX_BYTES) {
                trace_error(err, errlen, "%s: larger than 64 MiB, not a trace", path);
                goto fail_buf;
            }
            nb = realloc(buf, ncap);
            if (nb == NULL) {
                trace_error(err, errlen, "%s: out of memory", path);
                goto fail_buf;
            }
            buf = nb;
            cap = ncap;
        }
        got = read(fd, buf + len, cap - len);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            trace_error(err, errlen, "%s: cannot read: %s", path, strerror(errno));
            goto fail_buf;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    trace = rf_trace_parse(buf, len, path, err, errlen);
    free(buf);
    return trace;
fail_buf:
    free(buf);
fail_fd:
    if (fd >= 0)
        close(fd);
    return NULL;
}

size_t rf_trace_rows(const rf_trace_t *trace)
{
    return trace != NULL ? trace->nrows : 0;
}

