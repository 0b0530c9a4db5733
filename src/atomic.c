/* atomic.c - output files that appear complete or not at all (atomic.h).
 *
 * Publishing: an O_TMPFILE file is given its name with linkat(2) through
 * /proc/self/fd (no privilege needed); when the target already exists it is
 * linked to a temporary name and renamed over the target, because linkat
 * never replaces. The named fallback creates ".NAME.XXXXXX" with O_EXCL and
 * mode 0666 (not mkstemp, whose 0600 would leave frames unreadable to other
 * users), so the umask applies as it does for any new file.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* O_TMPFILE, linkat's AT_SYMLINK_FOLLOW */
#endif

#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define ATOMIC_BUFSIZE (64 * 1024)   /* stdio buffer: few write(2) calls per frame */
#define ATOMIC_TRIES 100             /* temporary names tried before giving up */

static _Atomic uint64_t atomic_seq;

static int atomic_fail(char *err, size_t errlen, const char *path,
                       const char *what, int e)
{
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s: %s: %s", path, what, strerror(e));
    errno = e;
    return -1;
}

/* Six characters of [0-9A-Za-z] for a temporary name. Uniqueness is only a
 * matter of few retries: O_EXCL (or linkat's EEXIST) guarantees safety. */
static void atomic_suffix(char *x)
{
    static const char alnum[] =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = atomic_fetch_add(&atomic_seq, 1) * 0x9e3779b97f4a7c15u;
    v ^= ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20);
    /* splitmix64 finalizer: every input bit moves every output bit */
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9u;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebu;
    v ^= v >> 31;
    for (int i = 0; i < 6; i++) {
        x[i] = alnum[v % 62];
        v /= 62;
    }
}

/* "DIR/.BASE.XXXXXX" for path "DIR/BASE" (or ".BASE.XXXXXX"); the X's are
 * filled by atomic_suffix. NULL when out of memory. */
static char *atomic_temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash != NULL ? (size_t)(slash - path) + 1 : 0;
    size_t len = strlen(path);
    char *tmp = malloc(len + 9);
    if (tmp == NULL)
        return NULL;
    memcpy(tmp, path, dirlen);
    tmp[dirlen] = '.';
    memcpy(tmp + dirlen + 1, path + dirlen, len - dirlen);
    memcpy(tmp + len + 1, ".XXXXXX", 8);
    return tmp;
}

/* The folder of path as a new string ("." when path has no slash). */
static char *atomic_dir_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (dir != NULL) {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return dir;
}

static int atomic_fsync_dir(const char *path)
{
    char *dir = atomic_dir_name(path);
    if (dir == NULL)
        return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int e = errno;
    free(dir);
    if (fd < 0) {
        errno = e;
        return -1;
    }
    int rc = fsync(fd);
    e = errno;
    close(fd);
    /* Some file systems cannot sync a folder; that is not a failure. */
    if (rc != 0 && (e == EINVAL || e == ENOTSUP || e == EROFS))
        rc = 0;
    errno = e;
    return rc;
}

static void atomic_release(rf_atomic_file_t *af)
{
    free(af->path);
    free(af->tmp);
    free(af->buf);   /* only after fclose: it is fp's buffer */
    af->path = af->tmp = af->buf = NULL;
    af->fp = NULL;
    af->kind = RF_ATOMIC_KIND_NONE;
}

/* Wraps fd in af->fp with a large buffer. Returns 0 or -1 (errno set, fd
 * closed). */
static int atomic_wrap(rf_atomic_file_t *af, int fd)
{
    af->buf = malloc(ATOMIC_BUFSIZE);
    af->fp = af->buf != NULL ? fdopen(fd, "wb") : NULL;
    if (af->fp == NULL) {
        int e = af->buf != NULL ? errno : ENOMEM;
        close(fd);
        free(af->buf);
        af->buf = NULL;
        errno = e;
        return -1;
    }
    /* glibc ignores the size unless given the buffer itself */
    setvbuf(af->fp, af->buf, _IOFBF, ATOMIC_BUFSIZE);
    return 0;
}

static int atomic_open_unnamed(rf_atomic_file_t *af)
{
    char *dir = atomic_dir_name(af->path);
    if (dir == NULL)
        return -1;
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    int e = errno;
    free(dir);
    if (fd < 0) {
        errno = e;
        return -1;
    }
    /* linkat needs the /proc/self/fd magic link; without /proc use names. */
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (access(proc, F_OK) != 0) {
        close(fd);
        errno = ENOTSUP;
        return -1;
    }
    if (atomic_wrap(af, fd) != 0)
        return -1;
    af->kind = RF_ATOMIC_KIND_UNNAMED;
    return 0;
}

/* A temporary name beside path on which make(tmp, ctx) succeeds (returns
 * 0), trying ATOMIC_TRIES names while it fails with EEXIST; NULL with
 * errno set when none does. */
static char *atomic_try_names(const char *path, int (*make)(const char *tmp, void *ctx),
                              void *ctx)
{
    char *tmp = atomic_temp_name(path);
    if (tmp == NULL)
        return NULL;
    char *x = tmp + strlen(tmp) - 6;
    for (int i = 0; i < ATOMIC_TRIES; i++) {
        atomic_suffix(x);
        if (make(tmp, ctx) == 0)
            return tmp;
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(tmp);
    errno = e;
    return NULL;
}

static int atomic_create(const char *tmp, void *ctx)
{
    int *fd = ctx;
    *fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    return *fd >= 0 ? 0 : -1;
}

static int atomic_open_named(rf_atomic_file_t *af)
{
    int fd = -1;
    char *tmp = atomic_try_names(af->path, atomic_create, &fd);
    if (tmp == NULL)
        return -1;
    if (atomic_wrap(af, fd) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    af->tmp = tmp;
    af->kind = RF_ATOMIC_KIND_NAMED;
    return 0;
}

int rf_atomic_file_open(rf_atomic_file_t *af, const char *path, int flags,
                        char *err, size_t errlen)
{
    memset(af, 0, sizeof *af);
    if (path == NULL || path[0] == '\0')
        return atomic_fail(err, errlen, "(empty file name)", "cannot create", ENOENT);
    if (path[strlen(path) - 1] == '/')
        return atomic_fail(err, errlen, path, "cannot create", EISDIR);

    struct stat st;
    int exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT)
        return atomic_fail(err, errlen, path, "cannot create", errno);
    if (exists && S_ISDIR(st.st_mode))
        return atomic_fail(err, errlen, path, "cannot create", EISDIR);
    if (exists && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
        return atomic_fail(err, errlen, path, "cannot replace (not a regular file)", EEXIST);

    af->flags = flags;
    af->path = strdup(path);
    if (af->path == NULL)
        return atomic_fail(err, errlen, path, "cannot create", ENOMEM);
    if (exists && !S_ISREG(st.st_mode)) {
        /* a device or FIFO: written in place */
        int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0 || atomic_wrap(af, fd) != 0) {
            int e = errno;
            atomic_release(af);
            return atomic_fail(err, errlen, path, "cannot open", e);
        }
        af->kind = RF_ATOMIC_KIND_DIRECT;
        return 0;
    }
    if ((flags & RF_ATOMIC_NAMED_TEMP) == 0 && atomic_open_unnamed(af) == 0)
        return 0;
    if (atomic_open_named(af) == 0)
        return 0;
    int e = errno;
    atomic_release(af);
    return atomic_fail(err, errlen, path, "cannot create a temporary file beside it", e);
}

void rf_atomic_file_abort(rf_atomic_file_t *af)
{
    int e = errno;
    if (af->fp != NULL)
        fclose(af->fp);   /* an O_TMPFILE file vanishes here */
    if (af->tmp != NULL)
        unlink(af->tmp);
    atomic_release(af);
    errno = e;
}

/* Gives the open O_TMPFILE file a name: the target itself when it does not
 * exist, else a fresh temporary (stored in af->tmp) to be renamed. */
static int atomic_link(const char *tmp, void *proc)
{
    return linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
}

static int atomic_link_unnamed(rf_atomic_file_t *af, int *published)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(af->fp));
    if (linkat(AT_FDCWD, proc, AT_FDCWD, af->path, AT_SYMLINK_FOLLOW) == 0) {
        *published = 1;
        return 0;
    }
    if (errno != EEXIST)
        return -1;
    char *tmp = atomic_try_names(af->path, atomic_link, proc);
    if (tmp == NULL)
        return -1;
    af->tmp = tmp;
    return 0;
}

/* Records a failure of commit: the message, the cleanup, errno. */
static int atomic_commit_fail(rf_atomic_file_t *af, const char *what, int e,
                              char *err, size_t errlen)
{
    if (e == 0)
        e = EIO;
    atomic_fail(err, errlen, af->path, what, e);
    rf_atomic_file_abort(af);
    errno = e;
    return -1;
}

int rf_atomic_file_commit(rf_atomic_file_t *af, char *err, size_t errlen)
{
    if (af->kind == RF_ATOMIC_KIND_NONE || af->fp == NULL) {
        errno = EBADF;
        return -1;
    }
    errno = 0;
    if (fflush(af->fp) != 0 || ferror(af->fp))
        return atomic_commit_fail(af, "write failed", errno, err, errlen);

    if (af->kind == RF_ATOMIC_KIND_DIRECT) {
        /* fsync does not apply to devices and pipes */
        int rc = fclose(af->fp);
        int e = errno;
        af->fp = NULL;
        if (rc != 0)
            return atomic_commit_fail(af, "write failed", e, err, errlen);
        atomic_release(af);
        return 0;
    }
    if ((af->flags & RF_ATOMIC_FSYNC) != 0 && fsync(fileno(af->fp)) != 0)
        return atomic_commit_fail(af, "fsync failed", errno, err, errlen);

    int published = 0;
    if (af->kind == RF_ATOMIC_KIND_UNNAMED && atomic_link_unnamed(af, &published) != 0)
        return atomic_commit_fail(af, "cannot create", errno, err, errlen);
    int rc = fclose(af->fp);
    int e = errno;
    af->fp = NULL;
    if (rc != 0) {
        if (published)
            unlink(af->path);   /* linked just now: withdraw it */
        return atomic_commit_fail(af, "close failed", e, err, errlen);
    }
    if (af->tmp != NULL) {
        if (rename(af->tmp, af->path) != 0)
            return atomic_commit_fail(af, "cannot rename the temporary over it",
                                      errno, err, errlen);
        free(af->tmp);
        af->tmp = NULL;
    }
    if ((af->flags & RF_ATOMIC_FSYNC) != 0 && atomic_fsync_dir(af->path) != 0) {
        /* The file is complete and in place; only its durability is unsure. */
        return atomic_commit_fail(af, "fsync of the folder failed", errno, err, errlen);
    }
    atomic_release(af);
    return 0;
}

int rf_atomic_file_write(const char *path, const void *data, size_t len,
                         int flags, char *err, size_t errlen)
{
    rf_atomic_file_t af;
    if (rf_atomic_file_open(&af, path, flags, err, errlen) != 0)
        return -1;
    errno = 0;
    if (len > 0 && fwrite(data, 1, len, af.fp) != len) {
        int e = errno != 0 ? errno : EIO;
        rf_atomic_file_abort(&af);
        return atomic_fail(err, errlen, path, "write failed", e);
    }
    return rf_atomic_file_commit(&af, err, errlen);
}

int rf_atomic_dir_create(const char *path, char *err, size_t errlen)
{
    if (path == NULL || path[0] == '\0')
        return atomic_fail(err, errlen, "(empty folder name)", "cannot create folder", ENOENT);
    char *buf = strdup(path);
    if (buf == NULL)
        return atomic_fail(err, errlen, path, "cannot create folder", ENOMEM);
    size_t len = strlen(buf);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        if (buf[i - 1] == '/')   /* "a//b" or a trailing slash */
            continue;
        char saved = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0) {
            int e = errno;
            struct stat st;
            if (e == EEXIST && stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) {
                buf[i] = saved;
                continue;
            }
            if (e == EEXIST)
                e = ENOTDIR;
            atomic_fail(err, errlen, buf, "cannot create folder", e);
            free(buf);
            errno = e;
            return -1;
        }
        buf[i] = saved;
    }
    free(buf);
    return 0;
}
