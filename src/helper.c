/* helper.c - a second thread that takes a share of the work (helper.h). */
#define _GNU_SOURCE 1 /* cpu_set_t (spawn.h) */
#include "helper.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "spawn.h"

/* How long the thread polls for the next job before it sleeps. */
#define SPIN_NS 150000L
/* Polls of the owner's wait before it yields between them. */
#define WAIT_SPINS 4096

struct rf_helper {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rf_helper_fn fn;           /* the job: set before posted is raised */
    void *arg;
    atomic_uint posted;        /* jobs given (release: fn, arg and the owner's bytes) */
    atomic_uint finished;      /* jobs done (release: the job's bytes) */
    int started;               /* 1: the thread runs; -1: it could not start */
    int sleeping, quit;        /* under mu */
    rf_spawn_cpus_t cpus;      /* where the thread started (spawn.h) */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static long elapsed_ns(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

static void *helper_main(void *arg)
{
    rf_helper_t *h = arg;
    unsigned seen = 0;
    rf_spawn_widen(&h->cpus);
    for (;;) {
        unsigned p = atomic_load_explicit(&h->posted, memory_order_acquire);
        if (p == seen) {
            struct timespec t0;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (int i = 1; p == seen; i++) {
                cpu_relax();
                if ((i & 255) == 0 && elapsed_ns(&t0) > SPIN_NS)
                    break;
                p = atomic_load_explicit(&h->posted, memory_order_acquire);
            }
        }
        if (p == seen) {
            pthread_mutex_lock(&h->mu);
            while ((p = atomic_load_explicit(&h->posted, memory_order_acquire)) == seen &&
                   !h->quit) {
                h->sleeping = 1;
                pthread_cond_wait(&h->cv, &h->mu);
            }
            h->sleeping = 0;
            int quit = p == seen;
            pthread_mutex_unlock(&h->mu);
            if (quit)
                return NULL;
        }
        seen = p;
        h->fn(h->arg);
        atomic_store_explicit(&h->finished, seen, memory_order_release);
    }
}

/* Starts the thread on the process's CPUs but its creator's (a new
 * thread on its creator's CPU shared it for milliseconds: spawn.h), or
 * anywhere when that start fails (a cpuset that changed). 0, or
 * pthread_create's error. */
static int start(rf_helper_t *h)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) == 0) {
        rf_spawn_elsewhere(&attr, &h->cpus);
        int rc = pthread_create(&h->thread, &attr, helper_main, h);
        pthread_attr_destroy(&attr);
        if (rc == 0 || !h->cpus.narrowed)
            return rc;
    }
    h->cpus.narrowed = 0;
    return pthread_create(&h->thread, NULL, helper_main, h);
}

rf_helper_t *rf_helper_create(void)
{
    rf_helper_t *h = calloc(1, sizeof *h);
    if (h == NULL)
        return NULL;
    atomic_init(&h->posted, 0);
    atomic_init(&h->finished, 0);
    if (pthread_mutex_init(&h->mu, NULL) != 0) {
        free(h);
        return NULL;
    }
    if (pthread_cond_init(&h->cv, NULL) != 0) {
        pthread_mutex_destroy(&h->mu);
        free(h);
        return NULL;
    }
    return h;
}

void rf_helper_destroy(rf_helper_t *h)
{
    if (h == NULL)
        return;
    if (h->started == 1) {
        pthread_mutex_lock(&h->mu);
        h->quit = 1;
        pthread_cond_signal(&h->cv);
        pthread_mutex_unlock(&h->mu);
        pthread_join(h->thread, NULL);
    }
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

int rf_helper_post(rf_helper_t *h, rf_helper_fn fn, void *arg)
{
    if (h == NULL || h->started < 0)
        return -1;
    if (h->started == 0) {
        if (start(h) != 0) {
            h->started = -1;
            return -1;
        }
        h->started = 1;
    }
    h->fn = fn;
    h->arg = arg;
    unsigned p = atomic_load_explicit(&h->posted, memory_order_relaxed) + 1;
    atomic_store_explicit(&h->posted, p, memory_order_release);
    pthread_mutex_lock(&h->mu);
    if (h->sleeping)
        pthread_cond_signal(&h->cv);
    pthread_mutex_unlock(&h->mu);
    return 0;
}

void rf_helper_wait(rf_helper_t *h)
{
    unsigned p = atomic_load_explicit(&h->posted, memory_order_relaxed);
    for (int i = 0; atomic_load_explicit(&h->finished, memory_order_acquire) != p; i++) {
        if (i < WAIT_SPINS)
            cpu_relax();
        else
            sched_yield();
    }
}

unsigned rf_helper_jobs(const rf_helper_t *h)
{
    return h != NULL ? atomic_load_explicit(&h->finished, memory_order_acquire) : 0;
}
