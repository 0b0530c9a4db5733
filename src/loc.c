/* loc.c - source locations, character columns and the caret display. */
#include "loc.h"

#include <limits.h>
#include <string.h>

#define CARET_INDENT "    "

size_t rf_utf8_len(const unsigned char *s, size_t i, size_t len)
{
    unsigned c = s[i];
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (len - i < n)
        return 0;
    if (s[i + 1] < lo || s[i + 1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (s[i + k] < 0x80 || s[i + k] > 0xBF)
            return 0;
    return n;
}

/* Bytes of the character at s[i]: a valid sequence, or one byte. */
static size_t char_len(const char *s, size_t len, size_t i)
{
    size_t n = rf_utf8_len((const unsigned char *)s, i, len);
    return n > 0 ? n : 1;
}

int rf_loc_column(const char *s, size_t len, size_t off)
{
    size_t n = 0, i = 0;
    while (i < off && i < len) {
        i += char_len(s, len, i);
        n++;
    }
    if (off > len)
        n += off - len;
    return n >= (size_t)INT_MAX ? INT_MAX : (int)(n + 1);
}

/* Bytes of a UTF-8 byte order mark at the start of text: 3 or 0. */
static size_t bom_len(const char *text, size_t len)
{
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

rf_loc_t rf_loc_at(const char *text, size_t len, size_t off)
{
    rf_loc_t loc = {off, 1, 1};
    size_t bol = off >= bom_len(text, len) ? bom_len(text, len) : 0;
    size_t end = off < len ? off : len;
    for (size_t i = 0; i < end; i++)
        if (text[i] == '\n') {
            if (loc.line < INT_MAX)
                loc.line++;
            bol = i + 1;
        }
    loc.col = rf_loc_column(text + bol, len - bol, off - bol);
    return loc;
}

/* The display being written: snprintf-like, it counts what does not fit. */
typedef struct out {
    char *buf;
    size_t cap, len;
} out_t;

static void out_bytes(out_t *o, const char *p, size_t n)
{
    for (size_t k = 0; k < n; k++, o->len++)
        if (o->len + 1 < o->cap) {
            o->buf[o->len] = p[k];
            o->buf[o->len + 1] = '\0';
        }
}

static void out_spaces(out_t *o, size_t n)
{
    while (n-- > 0)
        out_bytes(o, " ", 1);
}

size_t rf_loc_caret(const char *src, size_t len, int col, char *buf, size_t cap)
{
    out_t o = {buf, cap, 0};
    size_t ncols = 0;
    if (cap > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < len; i += char_len(src, len, i))
        ncols++;
    size_t at = col < 1 ? 0 : (size_t)col - 1;     /* 0-based caret column */
    if (at > ncols)
        at = ncols;
    size_t first = 0, last = ncols;                /* shown columns [first, last) */
    if (ncols > RF_LOC_WIDTH) {
        first = at > RF_LOC_WIDTH / 2 ? at - RF_LOC_WIDTH / 2 : 0;
        last = first + RF_LOC_WIDTH;
        if (last > ncols) {
            last = ncols;
            first = ncols - RF_LOC_WIDTH;
        }
    }
    out_bytes(&o, CARET_INDENT "...", first > 0 ? 7 : 4);
    size_t colno = 0;
    for (size_t i = 0; i < len && colno < last; colno++) {
        size_t v = rf_utf8_len((const unsigned char *)src, i, len);
        size_t n = v > 0 ? v : 1;
        if (colno >= first) {
            unsigned char ch = (unsigned char)src[i];
            if (ch < 0x20 || ch == 0x7f)
                out_bytes(&o, " ", 1);
            else if (v == 0)
                out_bytes(&o, "?", 1);
            else
                out_bytes(&o, src + i, n);
        }
        i += n;
    }
    if (last < ncols)
        out_bytes(&o, "...", 3);
    out_bytes(&o, "\n" CARET_INDENT, 5);
    out_spaces(&o, (first > 0 ? 3 : 0) + at - first);
    out_bytes(&o, "^", 1);
    return o.len;
}

int rf_loc_attach_col(char *msg, size_t cap, const char *src, size_t len, int col)
{
    size_t used = strlen(msg);
    if (used + 1 >= cap)
        return 0;
    size_t room = cap - used - 1;
    size_t need = rf_loc_caret(src, len, col, msg + used + 1, room);
    if (need >= room) {
        msg[used] = '\0';          /* did not fit whole: one line, as it was */
        return 0;
    }
    msg[used] = '\n';
    return 1;
}

int rf_loc_attach(char *msg, size_t cap, const char *text, size_t len, const rf_loc_t *loc)
{
    size_t off = loc->off < len ? loc->off : len;
    size_t bol = off, eol = off;
    while (bol > 0 && text[bol - 1] != '\n')
        bol--;
    if (bol == 0 && off >= bom_len(text, len))
        bol = bom_len(text, len);
    while (eol < len && text[eol] != '\n')
        eol++;
    if (eol > bol && text[eol - 1] == '\r')
        eol--;
    if (eol == bol)
        return 0;                  /* an empty line: nothing to point at */
    return rf_loc_attach_col(msg, cap, text + bol, eol - bol, loc->col);
}
