/* spawn.c - where a helper thread starts (spawn.h). */
#define _GNU_SOURCE 1 /* sched_getcpu, CPU_COUNT, pthread_attr_setaffinity_np */
#include "spawn.h"

#include <unistd.h>

void rf_spawn_elsewhere(pthread_attr_t *attr, rf_spawn_cpus_t *sc)
{
    int me = sched_getcpu();
    sc->narrowed = 0;
    if (me < 0 || me >= CPU_SETSIZE || sched_getaffinity(0, sizeof sc->cpus, &sc->cpus) != 0 ||
        !CPU_ISSET(me, &sc->cpus) || CPU_COUNT(&sc->cpus) < 2)
        return;
    cpu_set_t others = sc->cpus;
    CPU_CLR(me, &others);
    sc->narrowed = pthread_attr_setaffinity_np(attr, sizeof others, &others) == 0;
}

void rf_spawn_widen(const rf_spawn_cpus_t *sc)
{
    if (sc->narrowed)
        pthread_setaffinity_np(pthread_self(), sizeof sc->cpus, &sc->cpus);
}

int rf_spawn_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1 << 20 ? 1 << 20 : (int)n;
}
