#define _GNU_SOURCE 1
/* font.c - opening font files with FreeType, faces for HarfBuzz, and where
 * the built-in fonts are (font.h). */
#include "font.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb-ot.h>
#include <hb.h>
#include <limits.h>
#include <sys/types.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RF_FONTDIR
#define RF_FONTDIR "/usr/local/share/runeframe/fonts"
#endif

/* One line per built-in: the name scenes use, its file in the font folder,
 * its weight on the file's wght axis (NaN: the default). To add one, add a
 * line and ship the file with its license in fonts/ (fonts/README.md). */
static const struct {
    const char *name, *file;
    double wght;
} builtins[] = {
    { "sans", "Inter-roman.var.ttf", NAN },
    { "sans-bold", "Inter-roman.var.ttf", 700 },
    { "mono", "JetBrainsMono-Regular.ttf", NAN },
};

const char *const rf_font_builtin_names[] = { "sans", "sans-bold", "mono", NULL };

int rf_font_builtin(const char *name, const char **file, double *wght)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(builtins[i].name, name) == 0) {
            *file = builtins[i].file;
            *wght = builtins[i].wght;
            return 1;
        }
    return 0;
}

static int dir_has_fonts(const char *dir)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/%s", dir, builtins[0].file) >= (int)sizeof p)
        return 0;
    return access(p, R_OK) == 0;
}

static int dir_try(char *buf, size_t cap, const char *dir)
{
    if (dir == NULL || !dir_has_fonts(dir) || strlen(dir) >= cap)
        return 0;
    memcpy(buf, dir, strlen(dir) + 1);
    return 1;
}

int rf_font_dir(char *buf, size_t cap)
{
    const char *env = getenv("RUNEFRAME_FONT_DIR");
    if (env != NULL && *env != '\0')
        return dir_try(buf, cap, env) ? 0 : -1;
    char exe[PATH_MAX], d[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            snprintf(d, sizeof d, "%s/fonts", exe);
            if (dir_try(buf, cap, d))
                return 0;
            snprintf(d, sizeof d, "%s/../fonts", exe);
            if (dir_try(buf, cap, d))
                return 0;
            /* an installed tree that moved (a DESTDIR, a copied prefix) */
            snprintf(d, sizeof d, "%s/../share/runeframe/fonts", exe);
            if (dir_try(buf, cap, d))
                return 0;
        }
    }
    return dir_try(buf, cap, RF_FONTDIR) ? 0 : -1;
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s", msg);
}

/* FreeType's error strings, from its own list (fterrors.h documents this
 * way of building the table). */
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) { v, s },
#define FT_ERROR_START_LIST {
#define FT_ERROR_END_LIST { 0, NULL } };
static const struct {
    int code;
    const char *msg;
} ft_errors[] =
#include FT_ERRORS_H

static const char *ft_error_string(FT_Error e)
{
    for (size_t i = 0; ft_errors[i].msg != NULL; i++)
        if (ft_errors[i].code == e)
            return ft_errors[i].msg;
    return NULL;
}

/* FreeType's verdict on the bytes: 0, or -1 with the reason in err. */
static int freetype_check(const unsigned char *bytes, size_t len, char *err, size_t errlen)
{
    FT_Library lib;
    FT_Face face;
    char msg[160];
    if (FT_Init_FreeType(&lib) != 0) {
        set_err(err, errlen, "FreeType could not start");
        return -1;
    }
    FT_Error e = FT_New_Memory_Face(lib, bytes, (FT_Long)len, 0, &face);
    if (e != 0) {
        const char *s = ft_error_string(e);
        if (s != NULL)
            snprintf(msg, sizeof msg, "not a font FreeType can open (%s)", s);
        else
            snprintf(msg, sizeof msg, "not a font FreeType can open (FreeType error 0x%02x)",
                     (unsigned)e);
        set_err(err, errlen, msg);
        FT_Done_FreeType(lib);
        return -1;
    }
    int ok = FT_IS_SCALABLE(face) && face->num_glyphs > 0;
    FT_Done_Face(face);
    FT_Done_FreeType(lib);
    if (!ok) {
        set_err(err, errlen, "a bitmap-only font: runeframe draws outlines (TrueType or "
                "OpenType)");
        return -1;
    }
    return 0;
}

rf_font_t *rf_font_create(const char *name, const char *file, unsigned char *bytes, size_t len,
                          char *err, size_t errlen)
{
    if (len > RF_FONT_MAX_BYTES) {
        char msg[96];
        snprintf(msg, sizeof msg, "the font file is larger than %u MiB", RF_FONT_MAX_BYTES >> 20);
        set_err(err, errlen, msg);
        free(bytes);
        return NULL;
    }
    if (freetype_check(bytes, len, err, errlen) != 0) {
        free(bytes);
        return NULL;
    }
    rf_font_t *f = calloc(1, sizeof *f);
    if (f == NULL) {
        free(bytes);
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    f->bytes = bytes;
    f->len = len;
    f->name = strdup(name);
    f->file = strdup(file);
    f->def_wght = NAN;
    /* f->blob owns the bytes (HarfBuzz frees them, at once when it has no
     * memory for it) and every font sharing the file (rf_font_share) holds
     * a reference to it. The face reads them through a sub-blob of its
     * own: HarfBuzz may let go of its view of them (a copy made while it
     * checks a collection's offsets) while f->bytes must stay valid */
    f->blob = hb_blob_create((const char *)bytes, (unsigned)len, HB_MEMORY_MODE_READONLY, bytes,
                             free);
    if (f->blob == hb_blob_get_empty()) {
        f->blob = NULL;
        f->bytes = NULL; /* freed by HarfBuzz */
        set_err(err, errlen, "out of memory");
        rf_font_destroy(f);
        return NULL;
    }
    hb_blob_t *view = hb_blob_create_sub_blob(f->blob, 0, (unsigned)len);
    f->face = view != hb_blob_get_empty() ? hb_face_create(view, 0) : NULL;
    hb_blob_destroy(view);
    if (f->name == NULL || f->file == NULL || f->face == NULL ||
        f->face == hb_face_get_empty()) {
        set_err(err, errlen, "out of memory");
        rf_font_destroy(f);
        return NULL;
    }
    hb_face_make_immutable(f->face);
    f->upem = hb_face_get_upem(f->face);
    f->nglyphs = hb_face_get_glyph_count(f->face);
    if (f->upem == 0)
        f->upem = 1000;
    hb_font_t *font = hb_font_create(f->face);
    hb_font_extents_t ext;
    if (hb_font_get_h_extents(font, &ext) && ext.ascender > ext.descender) {
        f->ascender = ext.ascender;
        f->descender = ext.descender;
    } else {
        f->ascender = 0.8 * f->upem;
        f->descender = -0.2 * f->upem;
    }
    hb_font_destroy(font);
    hb_ot_var_axis_info_t ax[RF_FONT_MAX_AXES];
    unsigned n = RF_FONT_MAX_AXES;
    hb_ot_var_get_axis_infos(f->face, 0, &n, ax);
    for (unsigned i = 0; i < n; i++) {
        f->axes[i].tag = ax[i].tag;
        f->axes[i].min = ax[i].min_value;
        f->axes[i].def = ax[i].default_value;
        f->axes[i].max = ax[i].max_value;
    }
    f->naxes = n;
    return f;
}

rf_font_t *rf_font_share(const rf_font_t *of, const char *name)
{
    rf_font_t *f = malloc(sizeof *f);
    if (f == NULL)
        return NULL;
    *f = *of;
    f->name = strdup(name);
    f->file = strdup(of->file);
    if (f->name == NULL || f->file == NULL) {
        free(f->name);
        free(f->file);
        free(f);
        return NULL;
    }
    hb_face_reference(f->face);
    hb_blob_reference(f->blob);
    return f;
}

void rf_font_destroy(rf_font_t *f)
{
    if (f == NULL)
        return;
    if (f->face != NULL)
        hb_face_destroy(f->face);
    if (f->blob != NULL)
        hb_blob_destroy(f->blob); /* and the bytes with the last font's */
    free(f->name);
    free(f->file);
    free(f);
}

static pthread_mutex_t font_digest_mu = PTHREAD_MUTEX_INITIALIZER;

void rf_font_sha256_hex(const rf_font_t *f, char hex[RF_SHA256_HEX])
{
    /* the digest is a cache; every font is calloc'd, never const */
    rf_font_t *m = (rf_font_t *)(uintptr_t)f;
    pthread_mutex_lock(&font_digest_mu);
    if (!m->hashed) {
        rf_sha256(m->bytes, m->len, m->sha256);
        m->hashed = 1;
    }
    rf_sha256_hex(m->sha256, hex);
    pthread_mutex_unlock(&font_digest_mu);
}

const rf_font_axis_t *rf_font_axis(const rf_font_t *f, uint32_t tag)
{
    for (uint32_t i = 0; i < f->naxes; i++)
        if (f->axes[i].tag == tag)
            return &f->axes[i];
    return NULL;
}
