/* asset.c - asset files under the path rules (asset.h). */
#define _GNU_SOURCE 1 /* realpath, O_CLOEXEC */

#include "asset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 when real (a resolved path) is dir or inside it. */
static int inside(const char *real, const char *dir)
{
    size_t n = dir != NULL ? strlen(dir) : 0;
    if (n == 0)
        return 0;
    if (strcmp(dir, "/") == 0)
        return 1;
    return strncmp(real, dir, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

/* rel shortened for messages. */
static const char *shown(const char *rel, char *b, size_t cap)
{
    size_t n = strlen(rel);
    if (n + 1 <= cap)
        return rel;
    snprintf(b, cap, "%.*s...", (int)(cap - 4), rel);
    return b;
}

rf_asset_status_t rf_asset_read(const char *root, const char *assets, const char *rel,
                                size_t max, unsigned char **buf, size_t *plen, char *msg,
                                size_t msglen)
{
    char sb[120];
    const char *q = shown(rel, sb, sizeof sb);
    *buf = NULL;
    *plen = 0;
    if (rel[0] == '\0') {
        snprintf(msg, msglen, "must be a file name, got \"\"");
        return RF_ASSET_REFUSED;
    }
    if (rel[0] == '/') {
        snprintf(msg, msglen, "'%s' is an absolute path: asset paths are relative to the "
                 "scene's folder", q);
        return RF_ASSET_REFUSED;
    }
    /* ".." that climbs above the folder is refused as written, before the
     * file system is asked (the file it names may not even exist) */
    long depth = 0;
    for (const char *p = rel; *p != '\0';) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            depth--;
        else if (n > 0 && !(n == 1 && p[0] == '.'))
            depth++;
        if (depth < 0) {
            snprintf(msg, msglen, "'%s' leaves the scene's folder: asset paths stay inside it",
                     q);
            return RF_ASSET_REFUSED;
        }
        p += n + (p[n] == '/');
    }
    const char *roots[2] = { root, assets };
    char *real = NULL;
    int found = 0, outside = 0, err = ENOENT;
    for (int i = 0; i < 2 && !found; i++) {
        if (roots[i] == NULL)
            continue;
        size_t n = strlen(roots[i]) + strlen(rel) + 2;
        char *full = malloc(n);
        if (full == NULL) {
            free(real);
            return RF_ASSET_NOMEM;
        }
        snprintf(full, n, "%s/%s", roots[i], rel);
        free(real);
        real = realpath(full, NULL);
        free(full);
        if (real == NULL) {
            if (i == 0 || errno != ENOENT)
                err = errno;
            continue;
        }
        if (inside(real, root) || inside(real, assets))
            found = 1;
        else
            outside = 1;
    }
    if (!found) {
        free(real);
        if (outside)
            snprintf(msg, msglen, "'%s' leaves the scene's folder: assets come from the "
                     "scene's folder%s", q, assets != NULL ? " and the --assets folder"
                                                            : " (or add --assets DIR)");
        else
            snprintf(msg, msglen, "cannot read '%s': %s", q, strerror(err));
        return outside ? RF_ASSET_REFUSED : RF_ASSET_UNREADABLE;
    }
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    free(real);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? errno : 0;
        if (fd >= 0)
            close(fd);
        snprintf(msg, msglen, "cannot read '%s': %s", q, e ? strerror(e) : "not a regular file");
        return RF_ASSET_UNREADABLE;
    }
    if ((unsigned long long)st.st_size > max) {
        close(fd);
        snprintf(msg, msglen, "'%s' is larger than %zu MiB", q, max >> 20);
        return RF_ASSET_TOO_LARGE;
    }
    size_t len = (size_t)st.st_size, got = 0;
    unsigned char *b = malloc(len ? len : 1);
    if (b == NULL) {
        close(fd);
        return RF_ASSET_NOMEM;
    }
    while (got < len) {
        ssize_t r = read(fd, b + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            snprintf(msg, msglen, "cannot read '%s': %s", q,
                     r < 0 ? strerror(errno) : "the file shrank while it was read");
            close(fd);
            free(b);
            return RF_ASSET_UNREADABLE;
        }
        got += (size_t)r;
    }
    close(fd);
    *buf = b;
    *plen = len;
    return RF_ASSET_OK;
}
