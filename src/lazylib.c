/* lazylib.c - HarfBuzz, librsvg and libmicrohttpd loaded on first use
 * (lazylib.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* RTLD_NOLOAD */
#endif

#include "lazylib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <hb-ot.h>
#include <hb.h>
#include <librsvg/rsvg.h>
#include <microhttpd.h>

/* HarfBuzz's functions (font.c, text.c), one line each with hb.h's
 * prototype: HR(return type, name, (parameters), (arguments)), or
 * HV(name, (parameters), (arguments)) for a void one. A new call into
 * HarfBuzz needs its line here, or the link fails. */
#define HB_FUNCS(HR, HV) \
    HR(hb_blob_t *, hb_blob_create, (const char *data, unsigned int length, hb_memory_mode_t mode, void *user_data, hb_destroy_func_t destroy), (data, length, mode, user_data, destroy)) \
    HV(hb_blob_destroy, (hb_blob_t *blob), (blob)) \
    HR(hb_blob_t *, hb_blob_reference, (hb_blob_t *blob), (blob)) \
    HR(hb_blob_t *, hb_blob_get_empty, (void), ()) \
    HR(hb_blob_t *, hb_blob_create_sub_blob, (hb_blob_t *parent, unsigned int offset, unsigned int length), (parent, offset, length)) \
    HV(hb_buffer_add_utf8, (hb_buffer_t *buffer, const char *text, int text_length, unsigned int item_offset, int item_length), (buffer, text, text_length, item_offset, item_length)) \
    HR(hb_bool_t, hb_buffer_allocation_successful, (hb_buffer_t *buffer), (buffer)) \
    HV(hb_buffer_clear_contents, (hb_buffer_t *buffer), (buffer)) \
    HR(hb_buffer_t *, hb_buffer_create, (void), ()) \
    HV(hb_buffer_destroy, (hb_buffer_t *buffer), (buffer)) \
    HR(hb_direction_t, hb_buffer_get_direction, (const hb_buffer_t *buffer), (buffer)) \
    HR(hb_glyph_info_t *, hb_buffer_get_glyph_infos, (hb_buffer_t *buffer, unsigned int *length), (buffer, length)) \
    HR(hb_glyph_position_t *, hb_buffer_get_glyph_positions, (hb_buffer_t *buffer, unsigned int *length), (buffer, length)) \
    HV(hb_buffer_guess_segment_properties, (hb_buffer_t *buffer), (buffer)) \
    HV(hb_buffer_set_cluster_level, (hb_buffer_t *buffer, hb_buffer_cluster_level_t cluster_level), (buffer, cluster_level)) \
    HV(hb_buffer_set_replacement_codepoint, (hb_buffer_t *buffer, hb_codepoint_t replacement), (buffer, replacement)) \
    HR(hb_draw_funcs_t *, hb_draw_funcs_create, (void), ()) \
    HV(hb_draw_funcs_destroy, (hb_draw_funcs_t *dfuncs), (dfuncs)) \
    HV(hb_draw_funcs_make_immutable, (hb_draw_funcs_t *dfuncs), (dfuncs)) \
    HV(hb_draw_funcs_set_close_path_func, (hb_draw_funcs_t *dfuncs, hb_draw_close_path_func_t func, void *user_data, hb_destroy_func_t destroy), (dfuncs, func, user_data, destroy)) \
    HV(hb_draw_funcs_set_cubic_to_func, (hb_draw_funcs_t *dfuncs, hb_draw_cubic_to_func_t func, void *user_data, hb_destroy_func_t destroy), (dfuncs, func, user_data, destroy)) \
    HV(hb_draw_funcs_set_line_to_func, (hb_draw_funcs_t *dfuncs, hb_draw_line_to_func_t func, void *user_data, hb_destroy_func_t destroy), (dfuncs, func, user_data, destroy)) \
    HV(hb_draw_funcs_set_move_to_func, (hb_draw_funcs_t *dfuncs, hb_draw_move_to_func_t func, void *user_data, hb_destroy_func_t destroy), (dfuncs, func, user_data, destroy)) \
    HV(hb_draw_funcs_set_quadratic_to_func, (hb_draw_funcs_t *dfuncs, hb_draw_quadratic_to_func_t func, void *user_data, hb_destroy_func_t destroy), (dfuncs, func, user_data, destroy)) \
    HR(hb_face_t *, hb_face_create, (hb_blob_t *blob, unsigned int index), (blob, index)) \
    HV(hb_face_destroy, (hb_face_t *face), (face)) \
    HR(hb_face_t *, hb_face_reference, (hb_face_t *face), (face)) \
    HR(hb_face_t *, hb_face_get_empty, (void), ()) \
    HR(unsigned int, hb_face_get_glyph_count, (const hb_face_t *face), (face)) \
    HR(unsigned int, hb_face_get_upem, (const hb_face_t *face), (face)) \
    HV(hb_face_make_immutable, (hb_face_t *face), (face)) \
    HR(hb_font_t *, hb_font_create, (hb_face_t *face), (face)) \
    HV(hb_font_destroy, (hb_font_t *font), (font)) \
    HR(hb_font_t *, hb_font_get_empty, (void), ()) \
    HV(hb_font_get_glyph_shape, (hb_font_t *font, hb_codepoint_t glyph, hb_draw_funcs_t *dfuncs, void *draw_data), (font, glyph, dfuncs, draw_data)) \
    HR(hb_bool_t, hb_font_get_h_extents, (hb_font_t *font, hb_font_extents_t *extents), (font, extents)) \
    HV(hb_font_set_variations, (hb_font_t *font, const hb_variation_t *variations, unsigned int variations_length), (font, variations, variations_length)) \
    HR(unsigned int, hb_ot_var_get_axis_infos, (hb_face_t *face, unsigned int start_offset, unsigned int *axes_count, hb_ot_var_axis_info_t *axes_array), (face, start_offset, axes_count, axes_array)) \
    HV(hb_shape, (hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features, unsigned int num_features), (font, buffer, features, num_features))

/* The functions of each library: X(return type, name, (parameters)). */
#define RSVG_FUNCS(X)                                                                   \
    X(RsvgHandle *, rsvg_handle_new_from_data, (const guint8 *, gsize, GError **))      \
    X(gboolean, rsvg_handle_get_intrinsic_size_in_pixels, (RsvgHandle *, gdouble *,     \
                                                            gdouble *))                 \
    X(void, rsvg_handle_get_intrinsic_dimensions, (RsvgHandle *, gboolean *,            \
                                                    RsvgLength *, gboolean *,           \
                                                    RsvgLength *, gboolean *,           \
                                                    RsvgRectangle *))                   \
    X(gboolean, rsvg_handle_render_document, (RsvgHandle *, cairo_t *,                  \
                                              const RsvgRectangle *, GError **))        \
    X(void, g_object_unref, (gpointer))                                                 \
    X(void, g_error_free, (GError *))

#define MHD_FUNCS(X)                                                                    \
    X(struct MHD_Daemon *, MHD_start_daemon_va, (unsigned int, uint16_t,                \
                                                 MHD_AcceptPolicyCallback, void *,      \
                                                 MHD_AccessHandlerCallback, void *,     \
                                                 va_list))                              \
    X(void, MHD_stop_daemon, (struct MHD_Daemon *))                                     \
    X(int, MHD_get_connection_values, (struct MHD_Connection *, enum MHD_ValueKind,     \
                                       MHD_KeyValueIterator, void *))                   \
    X(const char *, MHD_lookup_connection_value, (struct MHD_Connection *,              \
                                                  enum MHD_ValueKind, const char *))    \
    X(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *, unsigned int,      \
                                            struct MHD_Response *))                     \
    X(struct MHD_Response *, MHD_create_response_from_callback,                         \
      (uint64_t, size_t, MHD_ContentReaderCallback, void *,                             \
       MHD_ContentReaderFreeCallback))                                                  \
    X(struct MHD_Response *, MHD_create_response_from_buffer, (size_t, void *,          \
                                                               enum MHD_ResponseMemoryMode)) \
    X(void, MHD_destroy_response, (struct MHD_Response *))                              \
    X(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *, const char *,   \
                                                 const char *))

#define FIELD(ret, name, params) ret (*name) params;
#define HB_FIELD_R(ret, name, params, args) ret (*name) params;
#define HB_FIELD_V(name, params, args) void (*name) params;
static struct { RSVG_FUNCS(FIELD) } rsvg;
static struct { MHD_FUNCS(FIELD) } mhd;
static struct { HB_FUNCS(HB_FIELD_R, HB_FIELD_V) } hb;
#undef FIELD
#undef HB_FIELD_R
#undef HB_FIELD_V

static pthread_once_t rsvg_once = PTHREAD_ONCE_INIT, mhd_once = PTHREAD_ONCE_INIT,
                      hb_once = PTHREAD_ONCE_INIT;

static void fail(const char *soname, const char *why)
{
    fprintf(stderr, "runeframe: cannot load %s: %s\n", soname, why ? why : "unknown error");
    exit(3);   /* an I/O failure (diag.h RF_EXIT_IO), not the scene's */
}

/* The library, with RTLD_NOW: a missing symbol fails here, not mid-frame
 * (bind: RTLD_NOW), or with its dependencies bound as they are called, as
 * a library linked at start is (RTLD_LAZY: the functions we call are
 * looked up here either way). */
static void *open_lib(const char *soname, int bind)
{
    void *h = dlopen(soname, bind | RTLD_LOCAL);
    if (h == NULL)
        fail(soname, dlerror());
    return h;
}

static void *sym(void *h, const char *soname, const char *name)
{
    void *p = dlsym(h, name);
    if (p == NULL)
        fail(soname, dlerror());
    return p;
}

/* Function pointers from void *: POSIX guarantees the conversion (dlsym). */
#define LOAD(ret, name, params)                                                         \
    *(void **)(void *)&lib->name = sym(h, soname, #name);

static void rsvg_load(void)
{
    const char *soname = RF_LAZYLIB_RSVG;
    void *h = open_lib(soname, RTLD_NOW);
    __typeof__(rsvg) *lib = &rsvg;
    RSVG_FUNCS(LOAD)
}

static void mhd_load(void)
{
    const char *soname = RF_LAZYLIB_MHD;
    void *h = open_lib(soname, RTLD_NOW);
    __typeof__(mhd) *lib = &mhd;
    MHD_FUNCS(LOAD)
}

#define HB_LOAD_R(ret, name, params, args) LOAD(ret, name, params)
#define HB_LOAD_V(name, params, args) LOAD(void, name, params)
static void hb_load(void)
{
    const char *soname = RF_LAZYLIB_HB;
    void *h = open_lib(soname, RTLD_LAZY);   /* binding all of GLib at once: about 1 ms */
    __typeof__(hb) *lib = &hb;
    HB_FUNCS(HB_LOAD_R, HB_LOAD_V)
}
#undef HB_LOAD_R
#undef HB_LOAD_V
#undef LOAD

int rf_lazylib_loaded(const char *soname)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (h == NULL)
        return 0;
    dlclose(h);   /* the reference RTLD_NOLOAD took */
    return 1;
}

/* Every definition below is hidden: a library linked at start may name
 * one of these functions too (HarfBuzz links GLib, which has
 * g_error_free), and an exported definition here would take its calls and
 * the loaded libraries' own (loading librsvg for them, or deadlocking
 * inside the load); hidden, those bind to the libraries and only
 * runeframe's calls come here. */
#define HIDDEN __attribute__((visibility("hidden")))

/* ---- HarfBuzz ---- */

#define HB_CALL(name) (pthread_once(&hb_once, hb_load), hb.name)
#define HB_DEF_R(ret, name, params, args) HIDDEN ret name params { return HB_CALL(name) args; }
#define HB_DEF_V(name, params, args) HIDDEN void name params { HB_CALL(name) args; }
HB_FUNCS(HB_DEF_R, HB_DEF_V)
#undef HB_DEF_R
#undef HB_DEF_V

/* ---- librsvg and GLib ---- */

#define RSVG_CALL(name) (pthread_once(&rsvg_once, rsvg_load), rsvg.name)

HIDDEN RsvgHandle *rsvg_handle_new_from_data(const guint8 *data, gsize len, GError **error)
{
    return RSVG_CALL(rsvg_handle_new_from_data)(data, len, error);
}

HIDDEN gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *h, gdouble *w, gdouble *hh)
{
    return RSVG_CALL(rsvg_handle_get_intrinsic_size_in_pixels)(h, w, hh);
}

HIDDEN void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *h, gboolean *hw, RsvgLength *w,
                                          gboolean *hh, RsvgLength *ht, gboolean *hv,
                                          RsvgRectangle *vb)
{
    RSVG_CALL(rsvg_handle_get_intrinsic_dimensions)(h, hw, w, hh, ht, hv, vb);
}

HIDDEN gboolean rsvg_handle_render_document(RsvgHandle *h, cairo_t *cr, const RsvgRectangle *vp,
                                     GError **error)
{
    return RSVG_CALL(rsvg_handle_render_document)(h, cr, vp, error);
}

/* Only librsvg's objects and errors reach these: librsvg is loaded. */
HIDDEN void g_object_unref(gpointer object)
{
    RSVG_CALL(g_object_unref)(object);
}

HIDDEN void g_error_free(GError *error)
{
    RSVG_CALL(g_error_free)(error);
}

/* ---- libmicrohttpd ---- */

#define MHD_CALL(name) (pthread_once(&mhd_once, mhd_load), mhd.name)

HIDDEN struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port,
                                    MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
    va_list ap;
    va_start(ap, dh_cls);
    struct MHD_Daemon *d = MHD_CALL(MHD_start_daemon_va)(flags, port, apc, apc_cls, dh,
                                                         dh_cls, ap);
    va_end(ap);
    return d;
}

HIDDEN void MHD_stop_daemon(struct MHD_Daemon *daemon)
{
    MHD_CALL(MHD_stop_daemon)(daemon);
}

HIDDEN int MHD_get_connection_values(struct MHD_Connection *c, enum MHD_ValueKind kind,
                              MHD_KeyValueIterator it, void *it_cls)
{
    return MHD_CALL(MHD_get_connection_values)(c, kind, it, it_cls);
}

HIDDEN const char *MHD_lookup_connection_value(struct MHD_Connection *c, enum MHD_ValueKind kind,
                                        const char *key)
{
    return MHD_CALL(MHD_lookup_connection_value)(c, kind, key);
}

HIDDEN enum MHD_Result MHD_queue_response(struct MHD_Connection *c, unsigned int status,
                                   struct MHD_Response *r)
{
    return MHD_CALL(MHD_queue_response)(c, status, r);
}

HIDDEN struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block,
                                                       MHD_ContentReaderCallback crc,
                                                       void *crc_cls,
                                                       MHD_ContentReaderFreeCallback crfc)
{
    return MHD_CALL(MHD_create_response_from_callback)(size, block, crc, crc_cls, crfc);
}

HIDDEN struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
                                                     enum MHD_ResponseMemoryMode mode)
{
    return MHD_CALL(MHD_create_response_from_buffer)(size, buffer, mode);
}

HIDDEN void MHD_destroy_response(struct MHD_Response *r)
{
    MHD_CALL(MHD_destroy_response)(r);
}

HIDDEN enum MHD_Result MHD_add_response_header(struct MHD_Response *r, const char *header,
                                        const char *content)
{
    return MHD_CALL(MHD_add_response_header)(r, header, content);
}
