/* lazylib.h - HarfBuzz, librsvg and libmicrohttpd loaded on first use.
 *
 * Owns: the definitions of the HarfBuzz functions runeframe calls (font.c,
 * text.c) and of the few librsvg (and GLib) and libmicrohttpd ones
 * (image-svg.c, layer-image.c, preview.c), under their own names and with
 * the prototypes of the libraries' own headers. The executable is not
 * linked against these libraries: each of these functions loads its
 * library (dlopen by soname, once per process, pthread_once) on the first
 * call and then calls the library's own function (dlsym on that library,
 * so its dependencies' symbols resolve too). Why: loading librsvg's ~30
 * dependencies (GIO, Pango, ICU, libxml2, ...) and libmicrohttpd's
 * (GnuTLS, ...) at start took ~17 ms of every process, most of a cold
 * one-frame `seek` (BENCHMARKS.md, "one frame"), and HarfBuzz's (GLib,
 * PCRE2, Graphite2) about 1.4 ms more; now only a scene with text (fonts
 * are opened at load), an SVG image, or `preview` pays for its own.
 *
 * A library that cannot be loaded (not installed: the Debian packages
 * libharfbuzz0b, librsvg2-2 and libmicrohttpd12 are dependencies) ends
 * the process with the one line "runeframe: cannot load SONAME: REASON"
 * and exit status 3. Nothing to call: the callers use the libraries'
 * usual names. Thread-safety: any thread may call any of them at any
 * time. */
#ifndef RF_LAZYLIB_H
#define RF_LAZYLIB_H

#define RF_LAZYLIB_HB "libharfbuzz.so.0"      /* HarfBuzz >= 4.0 (configure.ac) */
#define RF_LAZYLIB_RSVG "librsvg-2.so.2"        /* librsvg 2.x (>= 2.52, configure.ac) */
#define RF_LAZYLIB_MHD "libmicrohttpd.so.12"    /* libmicrohttpd >= 0.9.71 */

/* 1 when the library of that soname is loaded in this process (tests: a
 * process that draws no SVG never loads librsvg). */
int rf_lazylib_loaded(const char *soname);

#endif
