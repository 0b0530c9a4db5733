/* atomic.h - output files that appear complete or not at all.
 *
 * Owns: rf_atomic_file_t, one output file being written. The contents go to
 * a file that has no name in the target's folder (Linux O_TMPFILE) or, where
 * that is unsupported, to a temporary ".NAME.XXXXXX" beside the target; only
 * the final link or rename(2) publishes it, so a reader (or a run killed with
 * SIGKILL) only ever sees the old file or the complete new one, never a
 * half-written one. With O_TMPFILE a killed run leaves nothing at all
 * behind; with the named fallback it can leave a hidden temporary (never the
 * target). On every failure the temporary is removed, errno is preserved for
 * the caller, and a one-line message "PATH: what failed: strerror" is stored.
 *
 * Targets that already exist and are character devices or FIFOs (/dev/null,
 * /dev/stdout, a pipe) are written in place: renaming over them would be
 * wrong and they cannot be half-written files. A directory is an error.
 * A symbolic link that names a regular file is replaced by the new file.
 *
 * Also rf_atomic_dir_create(), mkdir -p with messages naming the folder.
 * Every function is thread-safe (distinct files may be written from
 * distinct threads at once). Final files get mode 0666 minus the umask.
 */
#ifndef RF_ATOMIC_H
#define RF_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

/* Flags for rf_atomic_file_open() and rf_atomic_file_write(). */
enum {
    /* fsync the data before publishing and the folder after: a crash of the
     * machine keeps the file too (goldens). Frames written in bulk skip it. */
    RF_ATOMIC_FSYNC = 1 << 0,
    /* Never use O_TMPFILE, always a named temporary (tests the fallback). */
    RF_ATOMIC_NAMED_TEMP = 1 << 1,
};

/* How an rf_atomic_file_t writes; private to atomic.c, visible for tests. */
typedef enum rf_atomic_kind {
    RF_ATOMIC_KIND_NONE = 0,    /* not open */
    RF_ATOMIC_KIND_UNNAMED,     /* O_TMPFILE, published by linkat(2) */
    RF_ATOMIC_KIND_NAMED,       /* ".NAME.XXXXXX", published by rename(2) */
    RF_ATOMIC_KIND_DIRECT,      /* an existing device or FIFO, in place */
} rf_atomic_kind_t;

typedef struct rf_atomic_file {
    FILE *fp;           /* write the contents here (binary, fully buffered) */
    /* private */
    int kind;           /* rf_atomic_kind_t */
    int flags;          /* RF_ATOMIC_* */
    char *path;         /* the target, a copy */
    char *tmp;          /* the temporary's path while it has a name, or NULL */
    char *buf;          /* fp's buffer */
} rf_atomic_file_t;

/* Starts writing path. Returns 0 with af->fp ready, or -1 with errno set,
 * nothing created, and a message in err (err may be NULL, errlen 0). */
int rf_atomic_file_open(rf_atomic_file_t *af, const char *path, int flags,
                        char *err, size_t errlen);

/* Flushes, fsyncs when RF_ATOMIC_FSYNC, closes and publishes the file.
 * Returns 0, or -1 with errno set, the temporary removed, the target as it
 * was before (or absent) and a message in err. af is closed either way.
 * One exception: with RF_ATOMIC_FSYNC, when only the folder's fsync fails
 * after the rename, -1 is returned with the complete new file in place. */
int rf_atomic_file_commit(rf_atomic_file_t *af, char *err, size_t errlen);

/* Discards the file: closes and removes the temporary; the target is left
 * as it was. errno is preserved. Safe on a closed or zeroed af. */
void rf_atomic_file_abort(rf_atomic_file_t *af);

/* The whole file at once: open, write len bytes of data, commit. Returns 0,
 * or -1 with errno set and a message in err. */
int rf_atomic_file_write(const char *path, const void *data, size_t len,
                         int flags, char *err, size_t errlen);

/* mkdir -p: creates path and every missing parent (mode 0777 minus the
 * umask). An existing directory is success; an existing non-directory
 * component is ENOTDIR. Returns 0, or -1 with errno set and a message naming
 * the component that failed. */
int rf_atomic_dir_create(const char *path, char *err, size_t errlen);

#endif
