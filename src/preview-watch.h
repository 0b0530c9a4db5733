/* preview-watch.h - noticing that files changed: what `preview` uses to
 * follow a scene and its assets.
 *
 * Owns: rf_watch_t, a set of file paths and the signature of each as last
 * seen (exists, device, inode, size, modification and change times in
 * nanoseconds). A file counts as changed when its signature differs:
 * written in place, replaced by a rename (what editors do), deleted or
 * created. On Linux inotify watches the folders that hold the files (a
 * rename replaces the file, so the file itself cannot be watched) and only
 * wakes the waiter early; the signatures decide, and they are also compared
 * every RF_WATCH_POLL_MS, so a folder inotify cannot watch (a network file
 * system, a full watch table) is still followed: that is the poll
 * fallback, and the only mechanism where inotify is missing or
 * RUNEFRAME_PREVIEW_POLL=1 is set. A change is reported once the
 * signatures have stayed the same for RF_WATCH_SETTLE_MS, so a file being
 * written is not read half-way.
 *
 * Thread-safety: a watch belongs to one thread (the preview's watcher).
 */
#ifndef RF_PREVIEW_WATCH_H
#define RF_PREVIEW_WATCH_H

#include <stddef.h>

#define RF_WATCH_POLL_MS 250
#define RF_WATCH_SETTLE_MS 30
#define RF_WATCH_MAX 64             /* files in one set */

typedef struct rf_watch rf_watch_t;

/* A watch with no file; poll_only nonzero: no inotify. NULL when out of
 * memory. */
rf_watch_t *rf_watch_create(int poll_only);
void rf_watch_destroy(rf_watch_t *w);

/* Watches paths[0 .. n-1] (copied; at most RF_WATCH_MAX are kept) from
 * their current signatures. 0, or -1 when out of memory. */
int rf_watch_set(rf_watch_t *w, const char *const *paths, size_t n);

/* Waits at most timeout_ms: 1 as soon as a watched file changed (and
 * settled), 0 when none did. */
int rf_watch_wait(rf_watch_t *w, int timeout_ms);

/* 1 when inotify is in use, 0 when only polling. */
int rf_watch_inotify(const rf_watch_t *w);

#endif
