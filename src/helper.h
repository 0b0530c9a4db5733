/* helper.h - a second thread that takes a share of the work at hand.
 *
 * Owns: one thread, started by the first post on the process's CPUs but
 * its creator's (spawn.h), that runs the jobs posted to it one at a
 * time. After a job it polls for the next for 150 us (the next share of
 * a frame often comes within that: the next layer's glyph masks or
 * gradient rows; waking a sleeping thread costs about 50 us on the
 * virtual machines measured), then sleeps until one comes.
 *
 * Users: a renderer that may use two cores (rf_renderer_set_threads 2
 * or more: `seek`; a `render` of fewer frames than --jobs, each worker
 * its share) makes one and lends it to its glyph masks (glyphmask.c: a
 * batch's masks, shared out by certificate slot) and its large gradient
 * fills (gradfill.h: every other block of a box's rows), one job at a
 * time. The workers of a render of many frames fill the cores already
 * and make none, nor do the preview server's. A glyph mask cache used
 * alone starts its own.
 *
 * Use:
 *     rf_helper_t *h = rf_helper_create();
 *     if (rf_helper_post(h, fn, arg) == 0) {    // fn(arg) runs there now
 *         ... the caller's own share ...
 *         rf_helper_wait(h);
 *     } else {
 *         ... fn's share too (no thread: out of memory, a cpuset) ...
 *     }
 *     rf_helper_destroy(h);                     // joins the thread
 *
 * Thread-safety: one thread, the owner, posts, waits and destroys. fn(arg)
 * runs on the helper's thread between a post and the return of the wait,
 * and must write nothing the owner reads or writes meanwhile. What the
 * owner wrote before the post is visible to fn, what fn wrote is visible
 * to the owner once the wait returns (release, acquire). Placement only:
 * what the threads compute never depends on it.
 */
#ifndef RF_HELPER_H
#define RF_HELPER_H

typedef struct rf_helper rf_helper_t;
typedef void (*rf_helper_fn)(void *arg);

/* A helper with no thread yet; NULL when out of memory. */
rf_helper_t *rf_helper_create(void);

/* Stops and joins the thread (if it started), frees h; NULL: nothing.
 * Not while a job is posted and not waited for. */
void rf_helper_destroy(rf_helper_t *h);

/* Gives fn(arg) to the helper's thread, started now if it has not been:
 * 0, or -1 when there is no thread (it could not start; every later post
 * says -1 too) and fn was not called. After 0, rf_helper_wait before the
 * next post. h NULL: -1. */
int rf_helper_post(rf_helper_t *h, rf_helper_fn fn, void *arg);

/* Returns when the posted job has finished: polls for a while, then
 * yields the CPU between looks. */
void rf_helper_wait(rf_helper_t *h);

/* The jobs h's thread has finished (tests: a share was taken); 0 for
 * NULL. The owner's thread, after a wait. */
unsigned rf_helper_jobs(const rf_helper_t *h);

#endif
