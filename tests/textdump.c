/* textdump.c - prints what text.c makes of a string, for tests/text.test
 * to hold against hb-shape and hand counts:
 *
 *   textdump FONT SIZE LETTER_SPACING WIDTH WGHT FEATURES TEXT
 *
 * WIDTH "none" for no wrapping, WGHT "-" for the font's default, FEATURES
 * a comma list ("tnum,-liga") or "-". Prints "box W H clusters N lines L"
 * and then one line per glyph: "gid x y" (its pen position, px). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"
#include "text.h"

static uint32_t tag4(const char *s, size_t n)
{
    char t[4] = { ' ', ' ', ' ', ' ' };
    memcpy(t, s, n < 4 ? n : 4);
    return (uint32_t)(unsigned char)t[0] << 24 | (uint32_t)(unsigned char)t[1] << 16 |
           (uint32_t)(unsigned char)t[2] << 8 | (uint32_t)(unsigned char)t[3];
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: textdump FONT SIZE LS WIDTH WGHT FEATURES TEXT\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 3;
    }
    size_t cap = 1 << 20, len = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap *= 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    char err[200];
    rf_font_t *font = buf ? rf_font_create("t", argv[1], buf, len, err, sizeof err) : NULL;
    if (font == NULL) {
        fprintf(stderr, "textdump: %s\n", buf ? err : "out of memory");
        return 2;
    }
    rf_text_feature_t feats[16];
    uint32_t nf = 0;
    if (strcmp(argv[6], "-") != 0)
        for (char *p = strtok(argv[6], ","); p != NULL && nf < 16; p = strtok(NULL, ",")) {
            uint32_t v = 1;
            if (*p == '-' || *p == '+')
                v = *p++ == '+';
            feats[nf].tag = tag4(p, strlen(p));
            feats[nf++].value = v;
        }
    rf_text_engine_t *e = rf_text_engine_create(font, feats, nf);
    uint32_t wt = tag4("wght", 4);
    double wv = strcmp(argv[5], "-") == 0 ? NAN : atof(argv[5]);
    if (e == NULL || rf_text_engine_vary(e, &wt, &wv, isnan(wv) ? 0 : 1) != 0) {
        fprintf(stderr, "textdump: out of memory\n");
        return 3;
    }
    rf_text_params_t p = { atof(argv[2]), atof(argv[3]), 1.25,
                           strcmp(argv[4], "none") == 0 ? INFINITY : atof(argv[4]), 0 };
    uint32_t ncl;
    double box[4];
    long n = rf_text_layout(e, argv[7], strlen(argv[7]), &p, &ncl, box);
    if (n < 0) {
        fprintf(stderr, "textdump: layout failed\n");
        return 3;
    }
    const rf_glyph_pos_t *g = rf_text_glyphs(e);
    double lh = p.line_height * p.size;
    printf("box %.17g %.17g clusters %u lines %.17g\n", box[2], box[3], ncl,
           lh > 0 ? box[3] / lh : 0);
    for (long i = 0; i < n; i++)
        printf("%u %.17g %.17g\n", g[i].gid, g[i].x, g[i].y);
    rf_text_engine_destroy(e);
    rf_font_destroy(font);
    return 0;
}
