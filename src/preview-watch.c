/* preview-watch.c - following files by inotify and by polling their
 * signatures (preview-watch.h). */
#define _GNU_SOURCE 1 /* st_mtim, strdup, inotify, nanosleep in C11 mode */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "preview-watch.h"

typedef struct watch_sig {
    int exists;
    dev_t dev;
    ino_t ino;
    off_t size;
    long long mtime_ns, ctime_ns;
} watch_sig_t;

struct rf_watch {
    int fd;                         /* inotify, or -1 */
    size_t n;
    char *paths[RF_WATCH_MAX];
    watch_sig_t sig[RF_WATCH_MAX];
};

static void watch_stat(const char *path, watch_sig_t *s)
{
    struct stat st;

    memset(s, 0, sizeof *s);
    if (stat(path, &st) != 0)
        return;
    s->exists = 1;
    s->dev = st.st_dev;
    s->ino = st.st_ino;
    s->size = st.st_size;
    s->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    s->ctime_ns = (long long)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
}

rf_watch_t *rf_watch_create(int poll_only)
{
    rf_watch_t *w = calloc(1, sizeof *w);

    if (w == NULL)
        return NULL;
    w->fd = -1;
#ifdef __linux__
    if (!poll_only)
        w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#else
    (void)poll_only;
#endif
    return w;
}

static void watch_clear(rf_watch_t *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->paths[i]);
    w->n = 0;
}

void rf_watch_destroy(rf_watch_t *w)
{
    if (w == NULL)
        return;
    watch_clear(w);
    if (w->fd >= 0)
        close(w->fd);
    free(w);
}

int rf_watch_inotify(const rf_watch_t *w)
{
    return w->fd >= 0;
}

/* The folder of path into buf ("." for a bare name). */
static void watch_dir(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t len = slash == NULL ? 0 : slash == path ? 1 : (size_t)(slash - path);

    if (slash == NULL || len >= cap) {
        strcpy(buf, ".");
        return;
    }
    memcpy(buf, path, len);
    buf[len] = '\0';
}

int rf_watch_set(rf_watch_t *w, const char *const *paths, size_t n)
{
    watch_clear(w);
#ifdef __linux__
    if (w->fd >= 0) {
        /* A fresh instance drops the old folders' watches. */
        int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        close(w->fd);
        w->fd = fd;
    }
#endif
    for (size_t i = 0; i < n && w->n < RF_WATCH_MAX; i++) {
        w->paths[w->n] = strdup(paths[i]);
        if (w->paths[w->n] == NULL)
            return -1;
        watch_stat(w->paths[w->n], &w->sig[w->n]);
#ifdef __linux__
        if (w->fd >= 0) {
            char dir[4096];
            watch_dir(paths[i], dir, sizeof dir);
            /* the same folder twice gives the same watch descriptor */
            (void)inotify_add_watch(w->fd, dir, IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB |
                                    IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE);
        }
#endif
        w->n++;
    }
    return 0;
}

static long long watch_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void watch_sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Reads the new signatures into sig; 1 when any differs from w's. */
static int watch_changed(const rf_watch_t *w, watch_sig_t *sig)
{
    int changed = 0;

    for (size_t i = 0; i < w->n; i++) {
        watch_stat(w->paths[i], &sig[i]);
        if (memcmp(&sig[i], &w->sig[i], sizeof sig[i]) != 0)
            changed = 1;
    }
    return changed;
}

static void watch_drain(rf_watch_t *w)
{
    char buf[4096];

    if (w->fd >= 0)
        while (read(w->fd, buf, sizeof buf) > 0)
            ;
}

int rf_watch_wait(rf_watch_t *w, int timeout_ms)
{
    long long end = watch_now_ms() + timeout_ms;
    watch_sig_t now[RF_WATCH_MAX], again[RF_WATCH_MAX];

    for (;;) {
        long long left = end - watch_now_ms();
        int step = left < RF_WATCH_POLL_MS ? (int)(left > 0 ? left : 0) : RF_WATCH_POLL_MS;

        if (w->fd >= 0) {
            struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
            if (poll(&pfd, 1, step) > 0)
                watch_drain(w);
        } else if (step > 0) {
            watch_sleep_ms(step);
        }
        if (watch_changed(w, now)) {
            /* settled: the same signatures twice, RF_WATCH_SETTLE_MS apart */
            for (int tries = 0; tries < 100; tries++) {
                watch_sleep_ms(RF_WATCH_SETTLE_MS);
                watch_drain(w);
                watch_changed(w, again);
                if (memcmp(now, again, w->n * sizeof now[0]) == 0)
                    break;
                memcpy(now, again, w->n * sizeof now[0]);
            }
            memcpy(w->sig, now, w->n * sizeof now[0]);
            return 1;
        }
        if (watch_now_ms() >= end)
            return 0;
    }
}
