/* image-svg.c - SVG through librsvg, after a scan of our own (image.h). */
#include <librsvg/rsvg.h>
#include <stdio.h>
#include <string.h>

#include "image.h"
#include "pngio.h"

/* The first n bytes at p are s. */
static int at(const unsigned char *p, const unsigned char *end, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

/* Just past the first s at or after p, or end. */
static const unsigned char *past(const unsigned char *p, const unsigned char *end,
                                 const char *s)
{
    for (; p < end; p++)
        if (at(p, end, s))
            return p + strlen(s);
    return end;
}

/* Counts elements and nesting the way an XML parser would meet them
 * (comments, CDATA, processing instructions and quoted attribute values
 * skipped); refuses entity declarations outright. 0, or -1 with err. */
static int scan(const unsigned char *p, size_t len, char *err, size_t errlen)
{
    const unsigned char *end = p + len;
    long depth = 0, elements = 0;
    while (p < end) {
        const unsigned char *lt = memchr(p, '<', (size_t)(end - p));
        if (lt == NULL)
            break;
        p = lt;
        if (at(p, end, "<!--")) {
            p = past(p + 4, end, "-->");
        } else if (at(p, end, "<![CDATA[")) {
            p = past(p + 9, end, "]]>");
        } else if (at(p, end, "<?")) {
            p = past(p + 2, end, "?>");
        } else if (at(p, end, "<!ENTITY")) {
            snprintf(err, errlen, "SVG: entity declarations are not allowed (<!ENTITY)");
            return -1;
        } else if (at(p, end, "<!")) {
            p += 2; /* DOCTYPE: its internal subset is scanned as markup */
        } else if (at(p, end, "</")) {
            depth--;
            p = past(p + 2, end, ">");
        } else {
            if (++elements > RF_IMAGE_SVG_MAX_ELEMENTS) {
                snprintf(err, errlen, "SVG: more than %d elements", RF_IMAGE_SVG_MAX_ELEMENTS);
                return -1;
            }
            if (++depth > RF_IMAGE_SVG_MAX_DEPTH) {
                snprintf(err, errlen, "SVG: elements nested deeper than %d",
                         RF_IMAGE_SVG_MAX_DEPTH);
                return -1;
            }
            unsigned char q = 0, last = 0;
            for (p++; p < end; p++) {
                if (q != 0) {
                    if (*p == q)
                        q = 0;
                } else if (*p == '"' || *p == '\'') {
                    q = *p;
                } else if (*p == '>') {
                    break;
                } else if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
                    last = *p;
                }
            }
            if (last == '/')
                depth--; /* <x/> */
            p += p < end;
        }
    }
    return 0;
}

RsvgHandle *rf_image_svg_open(const rf_image_t *img)
{
    if (img->kind != RF_IMAGE_SVG || img->bytes == NULL)
        return NULL;
    /* no base file: librsvg then loads no other file or URL */
    return rsvg_handle_new_from_data(img->bytes, img->len, NULL);
}

int rf_image_check_svg(rf_image_t *img, const unsigned char *data, size_t len, char *err,
                       size_t errlen)
{
    if (scan(data, len, err, errlen) != 0)
        return -1;
    GError *ge = NULL;
    RsvgHandle *h = rsvg_handle_new_from_data(data, len, &ge);
    if (h == NULL) {
        char m[160];
        snprintf(m, sizeof m, "%s", ge != NULL ? ge->message : "not an SVG file");
        for (char *c = m; *c != '\0'; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        size_t n = strlen(m);
        while (n > 0 && m[n - 1] == ' ')
            m[--n] = '\0';
        snprintf(err, errlen, "SVG: %s", m);
        if (ge != NULL)
            g_error_free(ge);
        return -1;
    }
    double w = 0, hh = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hh)) {
        gboolean hw, hhh, hv;
        RsvgLength lw, lh;
        RsvgRectangle vb;
        rsvg_handle_get_intrinsic_dimensions(h, &hw, &lw, &hhh, &lh, &hv, &vb);
        if (hv) {
            w = vb.width;
            hh = vb.height;
        } else {
            w = hh = 0;
        }
    }
    g_object_unref(h);
    if (!(w > 0 && hh > 0)) {
        snprintf(err, errlen, "SVG: no size (give the <svg> a width and height or a viewBox)");
        return -1;
    }
    if (!(w <= RF_PNG_MAX_DIMENSION && hh <= RF_PNG_MAX_DIMENSION)) {
        snprintf(err, errlen, "SVG: %.6g x %.6g px is larger than the limit (%u px a side)", w,
                 hh, RF_PNG_MAX_DIMENSION);
        return -1;
    }
    img->width = w;
    img->height = hh;
    return 0;
}
