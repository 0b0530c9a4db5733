/* trace.c - value traces: writing, reading and comparing them (trace.h).
 *
 * A trace comes from a pull request, so reading one trusts nothing: every
 * line is split by hand within its length (the text need not end in a NUL),
 * every field must be a whole number as %.17g prints one, column names must
 * be value names (they end up in check's output), and every size is bounded
 * before it is allocated. Lookups go through sorted arrays (columns by name,
 * rows by t), so a header of 100k columns or a trace of 100k rows costs
 * O(n log n), never O(n^2).
 */
#define _POSIX_C_SOURCE 200809L   /* open's O_CLOEXEC, fstat */

#include "trace.h"

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

#include "numfmt.h"

/* Output suffixes of a three-output value, as `sample` names its columns. */
static const char *const trace_suffix3[3] = { "x", "y", "angle" };

/* Longest field that can be a number this format writes ("-2.2250738585072014e-308"
 * is 24 bytes); longer ones are rejected before strtod sees them. */
#define TRACE_NUM_MAX 63
/* Bytes of a hostile field quoted in a message. */
#define TRACE_QUOTE_MAX 40
#define TRACE_QUOTE_BUF (TRACE_QUOTE_MAX + 4)

typedef struct trace_col {
    const char *name;
    size_t index;          /* field index in the header (0 is t) */
} trace_col_t;

typedef struct trace_trow {
    double t;
    size_t row;
} trace_trow_t;

struct rf_trace {
    size_t ncols;          /* fields per line, t included */
    size_t nrows;
    char *names;           /* the header's names, each NUL-terminated */
    const char **cols;     /* ncols names in file order; cols[0] is "t" */
    trace_col_t *sorted;   /* the columns sorted by name (strcmp), then index */
    double *table;         /* nrows * ncols numbers, row after row */
    trace_trow_t *by_t;    /* rows sorted by t (NaN last), then by row */
    size_t nfinite_t;      /* entries of by_t whose t is not NaN */
};

/* ---- writing ---- */

/* One growing output buffer; a failed allocation sticks. */
typedef struct trace_buf {
    char *p;
    size_t len, cap;
    int failed;
} trace_buf_t;

static void trace_buf_put(trace_buf_t *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (n >= b->cap - b->len || b->p == NULL) {
        size_t need, cap = b->cap > 0 ? b->cap : 256;
        char *q;

        if (n > SIZE_MAX - b->len - 1) {
            b->failed = 1;
            return;
        }
        need = b->len + n + 1;
        while (cap < need) {
            if (cap > SIZE_MAX / 2) {
                cap = need;
                break;
            }
            cap *= 2;
        }
        q = realloc(b->p, cap);
        if (q == NULL) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void trace_buf_puts(trace_buf_t *b, const char *s)
{
    trace_buf_put(b, s, strlen(s));
}

int rf_trace_format(const rf_values_t *vs, const double *times, const double *slots,
                    size_t n, char **text, size_t *len)
{
    trace_buf_t b = { 0 };
    char num[RF_NUM_BUF];

    *text = NULL;
    *len = 0;
    trace_buf_puts(&b, "t");
    for (uint32_t i = 0; i < vs->nnamed; i++) {
        const rf_value_t *v = &vs->values[i];

        for (uint32_t j = 0; j < v->nout; j++) {
            trace_buf_puts(&b, ",");
            trace_buf_puts(&b, v->name);
            if (v->nout == 3) {
                trace_buf_puts(&b, ".");
                trace_buf_puts(&b, trace_suffix3[j]);
            }
        }
    }
    trace_buf_puts(&b, "\n");
    for (size_t r = 0; r < n; r++) {
        const double *row = slots + r * vs->nslots;

        trace_buf_puts(&b, rf_num_exact(num, times[r]));
        for (uint32_t i = 0; i < vs->nnamed; i++) {
            const rf_value_t *v = &vs->values[i];

            for (uint32_t j = 0; j < v->nout; j++) {
                trace_buf_puts(&b, ",");
                trace_buf_puts(&b, rf_num_exact(num, row[v->slot + j]));
            }
        }
        trace_buf_puts(&b, "\n");
    }
    if (b.failed) {
        free(b.p);
        return -1;
    }
    *text = b.p;
    *len = b.len;
    return 0;
}

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

/* A column name: a value name, optionally ".SUFFIX" (an identifier too). */
static int trace_is_column_name(const char *s, size_t n)
{
    size_t i = 0;

    for (int part = 0; part < 2; part++) {
        if (i >= n || !trace_is_ident_start(s[i]))
            return 0;
        for (i++; i < n && trace_is_ident_char(s[i]); i++)
            ;
        if (i == n)
            return 1;
        if (s[i] != '.' || part == 1)
            return 0;
        i++;
    }
    return 0;
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
    free(trace);
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

/* ---- comparing ---- */

/* strcmp(col, name + "." + suffix) (or name alone when suffix is NULL)
 * without building the joined string. */
static int trace_cmp_joined(const char *col, const char *name, const char *suffix)
{
    const unsigned char *a = (const unsigned char *)col;
    const unsigned char *b = (const unsigned char *)name;

    while (*b != '\0' && *a == *b) {
        a++;
        b++;
    }
    if (*b != '\0')
        return (int)*a - (int)*b;
    if (suffix == NULL)
        return *a != '\0';
    if (*a != '.')
        return (int)*a - '.';
    a++;
    b = (const unsigned char *)suffix;
    while (*b != '\0' && *a == *b) {
        a++;
        b++;
    }
    return (int)*a - (int)*b;
}

/* The field index of column name[.suffix], or 0 (t, never a value) when
 * the trace has none. */
static size_t trace_find_col(const rf_trace_t *trace, const char *name, const char *suffix)
{
    size_t lo = 0, hi = trace->ncols;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = trace_cmp_joined(trace->sorted[mid].name, name, suffix);

        if (c == 0)
            return trace->sorted[mid].index;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* The first row whose t is t (==, so -0 finds 0), or NULL. */
static const double *trace_find_row(const rf_trace_t *trace, double t)
{
    size_t lo = 0, hi = trace->nfinite_t;

    if (isnan(t))
        return NULL;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (trace->by_t[mid].t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < trace->nfinite_t && trace->by_t[lo].t == t)
        return trace->table + trace->by_t[lo].row * trace->ncols;
    return NULL;
}

/* Whether the scene has an output that `sample` would name col. */
static int trace_scene_has(const rf_values_t *vs, const char *col)
{
    const char *dot = strchr(col, '.');
    const rf_value_t *v;

    if (dot == NULL) {
        v = rf_values_find(vs, col);
        return v != NULL && v->nout != 3;
    }
    v = rf_values_findn(vs, col, (size_t)(dot - col));
    if (v == NULL || v->nout != 3)
        return 0;
    for (int j = 0; j < 3; j++)
        if (strcmp(dot + 1, trace_suffix3[j]) == 0)
            return 1;
    return 0;
}

void rf_trace_compare(const rf_trace_t *trace, const rf_values_t *vs, double t,
                      const double *slots, rf_trace_move_t *moves, size_t cap,
                      rf_trace_diff_t *d)
{
    const double *row;

    memset(d, 0, sizeof *d);
    if (trace == NULL || vs == NULL)
        return;
    row = trace_find_row(trace, t);
    if (row == NULL)
        return;
    d->has_row = 1;
    for (uint32_t i = 0; i < vs->nnamed; i++) {
        const rf_value_t *v = &vs->values[i];

        for (uint32_t j = 0; j < v->nout; j++) {
            const char *suffix = v->nout == 3 ? trace_suffix3[j] : NULL;
            size_t c = trace_find_col(trace, v->name, suffix);
            double was, now;

            if (c == 0) {
                if (d->added++ == 0)
                    d->first_added = v->name;
                continue;
            }
            was = row[c];
            now = slots[v->slot + j];
            if (was == now || (isnan(was) && isnan(now)))
                continue;
            d->moved++;
            if (d->nmoves < cap) {
                moves[d->nmoves].value = v->name;
                moves[d->nmoves].suffix = suffix;
                moves[d->nmoves].was = was;
                moves[d->nmoves].now = now;
                d->nmoves++;
            }
        }
    }
    for (size_t c = 1; c < trace->ncols; c++) {
        if (trace_scene_has(vs, trace->cols[c]))
            continue;
        if (d->gone++ == 0)
            d->first_gone = trace->cols[c];
    }
}

/* %.{prec}g, with the one spelling of non-finite values. */
static const char *trace_num_prec(char buf[RF_NUM_BUF], double x, int prec)
{
    if (!isfinite(x))
        return rf_num_exact(buf, x);
    snprintf(buf, RF_NUM_BUF, "%.*g", prec, x);
    return buf;
}

int rf_trace_move_format(char *buf, size_t cap, const rf_trace_move_t *m, double t)
{
    char was[RF_NUM_BUF], now[RF_NUM_BUF], tb[RF_NUM_BUF], delta[RF_NUM_BUF + 4];
    int prec;

    /* Distinct doubles always differ at 17 digits, except 0 and -0, which
     * differ at every precision; values that print the same at every
     * precision (two NaNs) get the shortest form. */
    for (prec = 4; prec <= 17; prec++) {
        trace_num_prec(was, m->was, prec);
        trace_num_prec(now, m->now, prec);
        if (strcmp(was, now) != 0)
            break;
    }
    if (prec > 17) {
        trace_num_prec(was, m->was, 4);
        trace_num_prec(now, m->now, 4);
    }
    trace_num_prec(tb, t, 6);
    /* A change to or from a non-finite value has no meaningful size: the
     * two ends say it all. Between finite values the difference can still
     * overflow; then it is "(+inf)" / "(-inf)". */
    delta[0] = '\0';
    if (isfinite(m->was) && isfinite(m->now)) {
        double dv = m->now - m->was;

        if (isfinite(dv))
            snprintf(delta, sizeof delta, " (%+.3g)", dv);
        else
            snprintf(delta, sizeof delta, " (%s)", dv < 0 ? "-inf" : "+inf");
    }
    return snprintf(buf, cap, "%s%s%s at t=%s: %s -> %s%s", m->value != NULL ? m->value : "",
                    m->suffix != NULL ? "." : "", m->suffix != NULL ? m->suffix : "", tb, was,
                    now, delta);
}
