/* arena.c - bump allocation in a list of chunks (see arena.h). */
#include "arena.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Chunks grow geometrically up to this size; larger requests get a chunk of
 * their own, so a big keyframe array never wastes a half-empty chunk. */
#define RF_ARENA_FIRST (16u << 10)
#define RF_ARENA_MAXCHUNK (4u << 20)
#define RF_ARENA_ALIGN (alignof(max_align_t))

typedef struct rf_chunk {
    struct rf_chunk *next;
    size_t size;   /* usable bytes after the header */
    size_t used;
    /* the header is padded so that data starts aligned */
    alignas(max_align_t) unsigned char data[];
} rf_chunk_t;

struct rf_arena {
    rf_chunk_t *head;   /* current chunk, newest first */
    size_t next_size;   /* size of the next ordinary chunk */
};

rf_arena_t *rf_arena_create(void)
{
    rf_arena_t *a = calloc(1, sizeof *a);
    if (a != NULL)
        a->next_size = RF_ARENA_FIRST;
    return a;
}

void rf_arena_destroy(rf_arena_t *arena)
{
    if (arena == NULL)
        return;
    rf_chunk_t *c = arena->head;
    while (c != NULL) {
        rf_chunk_t *next = c->next;
        free(c);
        c = next;
    }
    free(arena);
}

static rf_chunk_t *chunk_new(size_t size)
{
    if (size > SIZE_MAX - sizeof(rf_chunk_t))
        return NULL;
    /* calloc: every allocation is zero-filled, chunks are never reused */
    rf_chunk_t *c = calloc(1, sizeof(rf_chunk_t) + size);
    if (c != NULL)
        c->size = size;
    return c;
}

void *rf_arena_alloc(rf_arena_t *arena, size_t size)
{
    if (arena == NULL)
        return NULL;
    if (size == 0)
        size = 1;
    if (size > SIZE_MAX - RF_ARENA_ALIGN)
        return NULL;
    size_t need = (size + RF_ARENA_ALIGN - 1) & ~(size_t)(RF_ARENA_ALIGN - 1);

    rf_chunk_t *c = arena->head;
    if (c != NULL && c->size - c->used >= need) {
        void *p = c->data + c->used;
        c->used += need;
        return p;
    }
    if (need > RF_ARENA_MAXCHUNK / 4) {
        /* A big block: its own chunk, linked behind the current one so the
         * current chunk's free space stays usable. */
        rf_chunk_t *big = chunk_new(need);
        if (big == NULL)
            return NULL;
        big->used = need;
        if (c != NULL) {
            big->next = c->next;
            c->next = big;
        } else {
            arena->head = big;
        }
        return big->data;
    }
    size_t csize = arena->next_size;
    while (csize < need)
        csize *= 2;
    rf_chunk_t *fresh = chunk_new(csize);
    if (fresh == NULL)
        return NULL;
    if (arena->next_size < RF_ARENA_MAXCHUNK)
        arena->next_size *= 2;
    fresh->next = c;
    arena->head = fresh;
    fresh->used = need;
    return fresh->data;
}

void *rf_arena_calloc(rf_arena_t *arena, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    return rf_arena_alloc(arena, count * size);
}

char *rf_arena_strndup(rf_arena_t *arena, const char *s, size_t len)
{
    if (s == NULL || len == SIZE_MAX)
        return NULL;
    char *p = rf_arena_alloc(arena, len + 1);
    if (p == NULL)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *rf_arena_strdup(rf_arena_t *arena, const char *s)
{
    if (s == NULL)
        return NULL;
    return rf_arena_strndup(arena, s, strlen(s));
}
