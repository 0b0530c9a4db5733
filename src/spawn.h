/* spawn.h - where a helper thread starts, and how many CPUs there are.
 *
 * Owns nothing (no state). A new thread starts on its creator's CPU and
 * shares it until the scheduler moves it: on the virtual machines
 * measured, milliseconds, which made a frame's second thread (the PNG
 * encoder's second half, the glyph masks' helper) slower than none. So a
 * helper is started on the process's CPUs but its creator's, and widens
 * its CPUs back to the process's once it runs (free to move again when
 * the machine is busy). Placement only: what the threads compute does
 * not depend on it.
 *
 * Use: rf_spawn_elsewhere on a thread's attributes before pthread_create,
 * then rf_spawn_widen first thing in the thread, with the same
 * rf_spawn_cpus_t (it must outlive the start). Include with _GNU_SOURCE
 * defined (cpu_set_t). Thread-safety: any thread, any time. */
#ifndef RF_SPAWN_H
#define RF_SPAWN_H

#include <pthread.h>
#include <sched.h>

typedef struct rf_spawn_cpus {
    cpu_set_t cpus;            /* the process's CPUs at the start */
    int narrowed;              /* 1: the attributes exclude the creator's CPU */
} rf_spawn_cpus_t;

/* Sets attr to start the thread on the process's CPUs but the caller's
 * one when there are others (sc->narrowed 1), else leaves attr as it is
 * (sc->narrowed 0). */
void rf_spawn_elsewhere(pthread_attr_t *attr, rf_spawn_cpus_t *sc);

/* In the started thread: its CPUs back to the process's when
 * rf_spawn_elsewhere narrowed them; else nothing. */
void rf_spawn_widen(const rf_spawn_cpus_t *sc);

/* The CPUs this process may run on (its affinity mask: taskset, a
 * container's cpuset), else the online ones, at least 1. */
int rf_spawn_cpus(void);

#endif
