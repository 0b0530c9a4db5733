/* arena.h - bump allocation for everything a loaded scene owns.
 *
 * Owns: rf_arena_t, a list of chunks. Everything allocated from an arena lives
 * until rf_arena_destroy() frees it all at once, so a scene is freed with one
 * call and load errors never leak half-built structures. Not thread-safe:
 * arenas are filled at load time only. Every allocation is checked: a NULL
 * return means out of memory (or a size that would overflow).
 */
#ifndef RF_ARENA_H
#define RF_ARENA_H

#include <stddef.h>

typedef struct rf_arena rf_arena_t;

/* Creates an empty arena; NULL when out of memory. */
rf_arena_t *rf_arena_create(void);
/* Frees every allocation of the arena and the arena itself. NULL is a no-op. */
void rf_arena_destroy(rf_arena_t *arena);

/* size bytes aligned for any type, zero-filled; NULL on failure. */
void *rf_arena_alloc(rf_arena_t *arena, size_t size);
/* count * size bytes, zero-filled; NULL on overflow or failure. */
void *rf_arena_calloc(rf_arena_t *arena, size_t count, size_t size);
/* A NUL-terminated copy of the first len bytes of s; NULL on failure. */
char *rf_arena_strndup(rf_arena_t *arena, const char *s, size_t len);
char *rf_arena_strdup(rf_arena_t *arena, const char *s);

#endif
