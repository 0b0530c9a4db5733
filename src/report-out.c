/* report-out.c - the report writers' output and escaping (report-int.h).
 *
 * Every write goes through report_bytes, which remembers the first failure
 * with its errno and writes nothing after it. All text from the run (scene
 * path, messages, trace lines, file names) is untrusted: it is decoded as
 * UTF-8 with invalid sequences replaced by U+FFFD (one per maximal invalid
 * subpart, as WHATWG decoders do) and escaped for the format; characters a
 * format cannot carry (XML 1.0's forbidden controls, HTML's controls) become
 * U+FFFD too, so the document always parses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report-int.h"

#define RPT_BAD_CP UINT32_MAX        /* an invalid UTF-8 sequence */

void report_bytes(report_t *o, const char *s, size_t n)
{
    if (o->err != 0 || n == 0)
        return;
    errno = 0;
    if (fwrite(s, 1, n, o->fp) != n)
        o->err = errno != 0 ? errno : EIO;
}

void report_str(report_t *o, const char *s)
{
    report_bytes(o, s, strlen(s));
}

void report_fmt(report_t *o, const char *fmt, ...)
{
    if (o->err != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    int rc = vfprintf(o->fp, fmt, ap);
    va_end(ap);
    if (rc < 0)
        o->err = errno != 0 ? errno : EIO;
}

/* ------------------------------------------------------------ text */

/* Decodes one UTF-8 sequence at s (n > 0 bytes). Returns the bytes it
 * covers and the code point in *cp, or RPT_BAD_CP for an invalid sequence
 * (then the count is its maximal subpart: a bad lead byte alone, or a lead
 * and the valid continuation bytes before the first wrong one). Overlong
 * forms, surrogates and values above U+10FFFF are invalid. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t need;
    unsigned lo = 0x80, hi = 0xBF;
    uint32_t v;
    if (c < 0xC2) {
        *cp = RPT_BAD_CP;
        return 1;
    } else if (c < 0xE0) {
        need = 1;
        v = c & 0x1F;
    } else if (c < 0xF0) {
        need = 2;
        v = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;   /* overlong */
        else if (c == 0xED)
            hi = 0x9F;   /* surrogates */
    } else if (c < 0xF5) {
        need = 3;
        v = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;   /* overlong */
        else if (c == 0xF4)
            hi = 0x8F;   /* above U+10FFFF */
    } else {
        *cp = RPT_BAD_CP;
        return 1;
    }
    for (size_t i = 1; i <= need; i++) {
        unsigned b = i < n ? s[i] : 0;
        if (i >= n || b < lo || b > hi) {
            *cp = RPT_BAD_CP;
            return i;
        }
        v = (v << 6) | (b & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    *cp = v;
    return need + 1;
}

static const char REPLACEMENT[] = "\xEF\xBF\xBD";   /* U+FFFD */

/* XML 1.0's Char production. */
static int xml_char_ok(uint32_t cp)
{
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
           (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

/* What replaces cp in mode, or NULL when its bytes are copied as they are. */
static const char *esc_replacement(uint32_t cp, esc_mode_t mode, char buf[8])
{
    if (mode == ESC_JSON) {
        switch (cp) {
        case RPT_BAD_CP: return "\\ufffd";
        case '"': return "\\\"";
        case '\\': return "\\\\";
        case '\n': return "\\n";
        case '\t': return "\\t";
        case '\r': return "\\r";
        case '\b': return "\\b";
        case '\f': return "\\f";
        case 0x2028: return "\\u2028";   /* legal JSON, but not JavaScript */
        case 0x2029: return "\\u2029";
        default: break;
        }
        if (cp < 0x20 || cp == 0x7F) {
            snprintf(buf, 8, "\\u00%02x", (unsigned)(cp & 0xFF));
            return buf;
        }
        return NULL;
    }
    if (cp == RPT_BAD_CP)
        return REPLACEMENT;
    switch (cp) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return mode == ESC_HTML ? "&#39;" : "&apos;";
    default: break;
    }
    if (mode == ESC_HTML) {
        if (cp == '\t' || cp == '\n' || cp == '\r')
            return NULL;
        /* controls (C0, DEL, C1) and noncharacters are HTML parse errors */
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0xFDD0 && cp <= 0xFDEF) ||
            (cp & 0xFFFE) == 0xFFFE)
            return REPLACEMENT;
        return NULL;
    }
    if (!xml_char_ok(cp))
        return REPLACEMENT;
    /* A parser normalizes CR to LF, and tab/LF/CR in attributes to spaces:
     * character references keep them. */
    if (cp == '\r')
        return "&#13;";
    if (mode == ESC_XML_ATTR && cp == '\n')
        return "&#10;";
    if (mode == ESC_XML_ATTR && cp == '\t')
        return "&#9;";
    return NULL;
}

/* Writes n bytes of s escaped for mode; runs of bytes that need nothing
 * are copied in one write. */
void report_esc_n(report_t *o, const char *s, size_t n, esc_mode_t mode)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t run = 0, i = 0;
    while (i < n) {
        uint32_t cp;
        size_t len = utf8_decode(p + i, n - i, &cp);
        char buf[8];
        const char *rep = esc_replacement(cp, mode, buf);
        if (rep != NULL) {
            report_bytes(o, s + run, i - run);
            report_str(o, rep);
            run = i + len;
        }
        i += len;
    }
    report_bytes(o, s + run, n - run);
}

void report_esc(report_t *o, const char *s, esc_mode_t mode)
{
    if (s != NULL)
        report_esc_n(o, s, strlen(s), mode);
}
