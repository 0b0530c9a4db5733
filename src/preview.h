/* preview.h - `runeframe preview`: a local web server that shows a scene's
 * frames at any time and follows the scene file.
 *
 * Owns: rf_preview_run(), the server (GNU libmicrohttpd) and its state: the
 * current scene (loaded, its draft at --scale, a pool of warm frame
 * producers), the errors of the last reload when it failed, a small cache
 * of recent frames, and the file watch (preview-watch.h) over the scene and
 * its assets. The page (src/preview-page.html, compiled in as a string)
 * is the only HTML; no request names a file.
 *
 * Routes (GET and HEAD; any other method is 405):
 *   /                the page
 *   /frame.png?t=T | ?frame=N [&g=G]
 *                    exactly the bytes `seek --time T` / `seek --frame N`
 *                    writes (with --scale S when the server has one): the
 *                    same producer (frames.h) with the same PNG options
 *                    (RF_PNG_OPTIONS_RENDER: zlib level 1 and no filter,
 *                    already the fast settings); G is the page's cache
 *                    buster, ignored
 *   /values.json?t=T | ?frame=N
 *                    {"t": T, "columns": [...], "values": [...]}: what
 *                    `sample --times T --format json` prints for that row
 *   /scene.json      {"generation", "width", "height", "fps", "duration",
 *                    "frames", "scale", "settles": [...], "errors"}
 *   /events          Server-Sent Events: "event: scene" with the reload
 *                    count as data after every reload (good or bad), a
 *                    comment every 10 s to keep the connection alive
 *   anything else    404. Query rules: preview-query.h (400 on a break).
 *
 * Safety and concurrency: the listening socket is bound to 127.0.0.1 only,
 * and a request whose Host header is not 127.0.0.1:PORT or localhost:PORT
 * gets 421 (a web page elsewhere cannot reach the server through DNS
 * rebinding). libmicrohttpd runs a thread per connection (at most
 * RF_PREVIEW_MAX_CONN, RF_PREVIEW_MAX_EVENTS of them event streams; each
 * idle for RF_PREVIEW_TIMEOUT_S is closed), so a slow or vanished client
 * blocks only its own thread: frames are rendered by a fixed pool of
 * producers and copied out before they are sent, so no producer waits on
 * a socket. At most RF_PREVIEW_MAX_WAIT frame requests wait for a producer;
 * more get 503 with Retry-After (the bound on expensive requests). Each
 * connection's memory for headers is bounded by libmicrohttpd (16 KiB:
 * larger requests are refused), the query by preview-query.h.
 *
 * Reloading: the watcher runs on the calling thread. A new scene is loaded
 * and its producers made before it replaces the old one; requests in
 * flight finish on the scene they started with (reference counts). A scene
 * that fails to load leaves the last good one serving and its errors (the
 * lines `validate` prints) on /scene.json; a broken scene is loaded again
 * every RF_PREVIEW_RETRY_MS as well (the asset it misses may appear in any
 * folder), with an event only when its lines change or it loads.
 */
#ifndef RF_PREVIEW_H
#define RF_PREVIEW_H

#include <signal.h>
#include <stdio.h>

#define RF_PREVIEW_DEFAULT_PORT 8080
#define RF_PREVIEW_PORT_TRIES 100       /* 8080 .. 8179 */
#define RF_PREVIEW_MAX_CONN 64
#define RF_PREVIEW_MAX_EVENTS 16
#define RF_PREVIEW_MAX_WAIT 16
#define RF_PREVIEW_TIMEOUT_S 30
#define RF_PREVIEW_CACHE 32             /* frames */
#define RF_PREVIEW_CACHE_BYTES (64u << 20)
#define RF_PREVIEW_MAX_WORKERS 4
#define RF_PREVIEW_RETRY_MS 1000        /* a broken scene is loaded again */

typedef struct rf_preview_opts {
    const char *scene;          /* the scene file */
    const char *assets;         /* --assets DIR, or NULL */
    int reduced_motion;         /* --reduced-motion: the scene's policy applied */
    double scale;               /* --scale S, 1 without */
    long port;                  /* -1: 8080 or the next free one; 0: any free port */
    int workers;                /* producers (1 .. RF_PREVIEW_MAX_WORKERS) */
    int poll_only;              /* nonzero: no inotify */
    FILE *out;                  /* the address line */
    volatile sig_atomic_t *stop;/* set by SIGINT / SIGTERM */
} rf_preview_opts_t;

/* Loads the scene, serves until *stop, then stops cleanly. Returns the
 * exit status: 0 after a stop, 2 when the first load fails (its errors
 * printed, as validate), 3 when no port could be bound. */
int rf_preview_run(const rf_preview_opts_t *o);

#endif
