/* fuzz.h - what the six fuzz harnesses share: the entry point's prototype,
 * a check that aborts (so libFuzzer and the replayer both see a crash), and
 * a deterministic stream of choices drawn from the input itself.
 *
 * A harness is built two ways: with clang -fsanitize=fuzzer (tests/fuzz/
 * build.sh; libFuzzer supplies main) and with the project's compiler and
 * tests/fuzz/replay.c (make check replays the corpora). Nothing here may
 * depend on which. Everything is static: each harness is one program.
 */
#ifndef RF_FUZZ_H
#define RF_FUZZ_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A violated invariant is a bug: say which and abort, so the input is kept
 * as a crash (libFuzzer) or the replay fails (make check). */
#define FUZZ_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__,        \
                    __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* Choices: bytes of a parameter block first (the fuzzer mutates them), then,
 * once those run out, a splitmix64 stream seeded by a hash of the whole
 * input, so every input always makes the same choices. */
typedef struct fuzz_rng {
    const uint8_t *p;
    size_t n;
    uint64_t state;
} fuzz_rng_t;

static inline uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603u;        /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211u;
    return h;
}

static inline void fuzz_rng_init(fuzz_rng_t *r, const uint8_t *params, size_t n, uint64_t seed)
{
    r->p = params;
    r->n = n;
    r->state = seed;
}

static inline uint8_t fuzz_byte(fuzz_rng_t *r)
{
    if (r->n > 0) {
        r->n--;
        return *r->p++;
    }
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (uint8_t)((z ^ (z >> 31)) >> 56);
}

static inline double fuzz_unit(fuzz_rng_t *r)    /* [0, 1] in 1/65535 steps */
{
    unsigned u = (unsigned)fuzz_byte(r) << 8;
    u |= fuzz_byte(r);
    return u / 65535.0;
}

/* Doubles that break arithmetic: signed zeros, subnormals, the edges of
 * the finite range, infinities, NaN, and ordinary numbers between. */
static const double fuzz_special[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0, -10.0, 100.0, 1e-7,
    3.141592653589793, 6.283185307179586, 1e15, 9007199254740992.0, 1e300,
    -1e300, 1.7976931348623157e308, -1.7976931348623157e308, 2.2250738585072014e-308,
    4.9406564584124654e-324, -4.9406564584124654e-324, INFINITY, -INFINITY, NAN,
    0.999999999999999889, 1e-300, 720.0, -180.0, 180.0, 1e150,
};
#define FUZZ_NSPECIAL (sizeof fuzz_special / sizeof fuzz_special[0])

static inline double fuzz_special_pick(fuzz_rng_t *r)
{
    return fuzz_special[fuzz_byte(r) % FUZZ_NSPECIAL];
}

/* Same value: equal (so +0 == -0) or both NaN. */
static inline int fuzz_same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* Same bits, except that any two NaNs match. */
static inline int fuzz_identical(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

#endif
