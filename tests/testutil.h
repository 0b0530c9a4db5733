/* testutil.h - what more than one Check suite needs: removing a test's
 * temporary folder (read-only ones too: tests chmod folders to provoke
 * EACCES), and an assertion for tight loops. Header-only; every function
 * static inline. */
#ifndef RF_TESTUTIL_H
#define RF_TESTUTIL_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* rf_check(expr) and rf_check_msg(expr, fmt, ...): ck_assert and
 * ck_assert_msg for loops of many checks. A passing ck_assert records
 * its file and line through Check's pipe to the parent (a write(2) each):
 * a million of them cost seconds, minutes under the sanitizers. These
 * do nothing while expr holds and fail the same way when it does not
 * (expr is evaluated once more then, so it must have no side effects).
 * The including file includes <check.h>. */
#define rf_check(expr) \
    do { \
        if (!(expr)) \
            ck_assert(expr); \
    } while (0)
#define rf_check_msg(expr, ...) \
    do { \
        if (!(expr)) \
            ck_assert_msg(expr, __VA_ARGS__); \
    } while (0)

/* rm -rf path, making folders writable first; errors are ignored. */
static inline void rf_test_rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0755);
        DIR *d = opendir(path);
        if (d != NULL) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char sub[4096];
                /* a name that does not fit is skipped, never truncated */
                if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < sizeof sub)
                    rf_test_rm_rf(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

#endif
