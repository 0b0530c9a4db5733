/* diag.c - fixed-capacity error lists, JSON pointers. */
#include "diag.h"

#include <stdarg.h>
#include <string.h>

/* Longest JSON pointer segment shown in a message (bytes, before "..."). */
#define RF_POINTER_SEGMENT 120

void rf_diag_init(rf_diag_t *d, const char *file)
{
    d->file = file != NULL ? file : "-";
    d->count = 0;
    d->dropped = 0;
    d->io_error = 0;
    d->msg[0][0] = '\0';
}

/* Claims the next message slot, or counts the message as dropped. */
static char *diag_slot(rf_diag_t *d)
{
    if (d->count >= RF_DIAG_MAX) {
        d->dropped++;
        return NULL;
    }
    return d->msg[d->count++];
}

/* Appends a formatted tail after the prefix already in line[0..used). */
static void diag_vtail(char *line, int used, const char *fmt, va_list ap)
{
    if (used < 0)
        used = 0;
    if (used >= RF_DIAG_LINE - 1) {
        line[RF_DIAG_LINE - 1] = '\0';
        return;
    }
    vsnprintf(line + used, (size_t)(RF_DIAG_LINE - used), fmt, ap);
    /* one line each: a message never carries a line break, nor (from a
     * user's string that no one escaped) a terminal control character */
    for (char *p = line; *p != '\0'; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
        else if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

void rf_diag_syntax(rf_diag_t *d, int line, int col, const char *fmt, ...)
{
    char *s = diag_slot(d);
    if (s == NULL)
        return;
    int n = snprintf(s, RF_DIAG_LINE, "runeframe: %s:%d:%d: ", d->file, line, col);
    va_list ap;
    va_start(ap, fmt);
    diag_vtail(s, n, fmt, ap);
    va_end(ap);
}

void rf_diag_syntax_at(rf_diag_t *d, const char *text, size_t len, const rf_loc_t *loc,
                       const char *fmt, ...)
{
    char *s = diag_slot(d);
    if (s == NULL)
        return;
    int n = snprintf(s, RF_DIAG_LINE, "runeframe: %s:%d:%d: ", d->file, loc->line, loc->col);
    va_list ap;
    va_start(ap, fmt);
    diag_vtail(s, n, fmt, ap);
    va_end(ap);
    rf_loc_attach(s, RF_DIAG_LINE, text, len, loc);
}

void rf_diag_at(rf_diag_t *d, const char *pointer, const char *fmt, ...)
{
    char *s = diag_slot(d);
    if (s == NULL)
        return;
    int n;
    /* The root pointer is the empty string: a whole-file message then. */
    if (pointer == NULL || pointer[0] == '\0')
        n = snprintf(s, RF_DIAG_LINE, "runeframe: %s: ", d->file);
    else
        n = snprintf(s, RF_DIAG_LINE, "runeframe: %s: %s: ", d->file, pointer);
    va_list ap;
    va_start(ap, fmt);
    diag_vtail(s, n, fmt, ap);
    va_end(ap);
}

void rf_diag_file(rf_diag_t *d, const char *fmt, ...)
{
    char *s = diag_slot(d);
    if (s == NULL)
        return;
    int n = snprintf(s, RF_DIAG_LINE, "runeframe: %s: ", d->file);
    va_list ap;
    va_start(ap, fmt);
    diag_vtail(s, n, fmt, ap);
    va_end(ap);
}

int rf_diag_full(const rf_diag_t *d)
{
    return d->count >= RF_DIAG_MAX;
}

void rf_diag_print(const rf_diag_t *d, FILE *out)
{
    for (int i = 0; i < d->count; i++)
        fprintf(out, "%s\n", d->msg[i]);
    if (d->dropped == 1)
        fprintf(out, "runeframe: %s: 1 more error not shown\n", d->file);
    else if (d->dropped > 1)
        fprintf(out, "runeframe: %s: %d more errors not shown\n", d->file, d->dropped);
}

size_t rf_pointer_push(char *ptr, size_t cap, const char *segment)
{
    if (cap == 0)
        return 0;
    const char *nul = memchr(ptr, '\0', cap);
    size_t len = nul != NULL ? (size_t)(nul - ptr) : cap;
    size_t prev = len;
    if (len >= cap) {           /* not terminated: repair, push nothing */
        ptr[cap - 1] = '\0';
        return cap - 1;
    }
    if (len + 1 < cap)
        ptr[len++] = '/';
    /* A huge key (a 1 MB name) would fill the message and push the
     * message text itself out: a segment shows at most RF_POINTER_SEGMENT
     * bytes, then "...", cut before a UTF-8 lead byte. */
    size_t seg0 = len;
    for (const char *s = segment; *s != '\0'; s++) {
        const char *esc = NULL;
        char ctl[8];
        if (*s == '~')
            esc = "~0";
        else if (*s == '/')
            esc = "~1";
        else if ((unsigned char)*s < 0x20 || *s == 0x7f) {
            /* a key "\u001b[2J" must not reach a terminal raw */
            snprintf(ctl, sizeof ctl, "\\u%04X", (unsigned)(unsigned char)*s);
            esc = ctl;
        }
        size_t need = esc != NULL ? strlen(esc) : 1;
        if (len - seg0 + need > RF_POINTER_SEGMENT && ((unsigned char)*s & 0xC0) != 0x80) {
            if (len + 3 < cap) {
                memcpy(ptr + len, "...", 3);
                len += 3;
            }
            break;
        }
        if (len + need >= cap)   /* keep room for the NUL; never split ~0 */
            break;
        if (esc != NULL) {
            memcpy(ptr + len, esc, need);
            len += need;
        } else {
            ptr[len++] = *s;
        }
    }
    ptr[len] = '\0';
    return prev;
}

size_t rf_pointer_push_index(char *ptr, size_t cap, size_t index)
{
    char buf[32], *p = buf + sizeof buf; /* the digits by hand: snprintf was 3% of a load */
    *--p = '\0';
    do
        *--p = (char)('0' + index % 10);
    while ((index /= 10) != 0);
    return rf_pointer_push(ptr, cap, p);
}
