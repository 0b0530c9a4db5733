/* replay.c - runs one fuzz harness on files, without libFuzzer.
 *
 *   replay-HARNESS [-v] PATH...
 *
 * Linked with one tests/fuzz/fuzz-*.c, it calls LLVMFuzzerTestOneInput()
 * once per file: each PATH is a file or a directory, whose regular files
 * (not those starting with '.', not README*) are run in name order. Each
 * input sits in a malloc'ed block of exactly its size, so a sanitizer build
 * catches a read past its end. This is how `make check` (tests/fuzz.test)
 * replays the seed corpora and the crash regressions under the normal and
 * the sanitizer build. A crash or a failed check aborts the process; -v
 * names each file first, so the log says which input it was.
 * Exit status: 0 when every input ran, 2 on a usage error or an unreadable
 * path.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int verbose;
static unsigned long nrun;

/* Reads the whole file into an exact-size block (1 byte for an empty file,
 * whose size stays 0). */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf != NULL) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (nb == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = buf == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    uint8_t *exact = malloc(n ? n : 1);
    if (exact == NULL) {
        free(buf);
        return NULL;
    }
    memcpy(exact, buf, n);
    free(buf);
    *len = n;
    return exact;
}

static int run_file(const char *path)
{
    size_t len = 0;
    uint8_t *data = read_file(path, &len);
    if (data == NULL) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno ? errno : EIO));
        return -1;
    }
    if (verbose) {
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
        fflush(stderr);
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    nrun++;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (nn == NULL) {
                rc = -1;
                break;
            }
            names = nn;
        }
        size_t need = strlen(dir) + strlen(e->d_name) + 2;
        if ((names[n] = malloc(need)) == NULL) {
            rc = -1;
            break;
        }
        snprintf(names[n], need, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (rc != 0)
        fprintf(stderr, "replay: %s: out of memory\n", dir);
    if (n > 0)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && run_file(names[i]) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int i = 1, rc = 0;
    if (i < argc && strcmp(argv[i], "-v") == 0) {
        verbose = 1;
        i++;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: %s [-v] FILE-OR-DIRECTORY...\n", argv[0]);
        return 2;
    }
    for (; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            rc = 2;
        } else if (S_ISDIR(st.st_mode) ? run_dir(argv[i]) != 0 : run_file(argv[i]) != 0) {
            rc = 2;
        }
    }
    printf("replay: %lu inputs\n", nrun);
    return rc;
}
