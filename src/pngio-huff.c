/* pngio-huff.c - the fast deflate coder of PNG level 1: dynamic Huffman
 * blocks, their tables built from histograms of a sample of the image's
 * rows, and three kinds of token:
 *   - literals;
 *   - runs (LZ77 matches of a byte repeated, at distance 1, as zlib
 *     codes them: libdeflate inflates them as byte broadcasts, and
 *     zlib's byte loop is fastest at distance 1 on current CPUs;
 *     BENCHMARKS.md, "The reader's fast way");
 *   - on unfiltered rows only (the table given), matches where a pixel
 *     starts: with the pixel above, the pixel before, or else the last
 *     position whose 4 bytes hashed alike (one probe of a table of 4,096
 *     positions, no chains), taken when their code is shorter than their
 *     bytes' literal codes, extended back over the literals before them,
 *     stopped before 8 equal bytes (the run coder's).
 * Filtered rows turn flat regions into runs of zeros and the tables code
 * what is left in about its entropy; rows of repeated glyphs, strokes or
 * tiles code smaller unfiltered with matches (pngio-enc.c chooses from
 * the sample). A new block (new tables) starts at a band of rows when
 * the plan says it pays: the sample of each band coded by a table of
 * the band before it, against the current one.
 *
 * Owns: pngio_huff_t's functions (pngio-int.h). Integer arithmetic only
 * (one SSE2 compare where the compiler has SSE2, a loop where not: the
 * same bit mask): the bytes depend on the rows and nothing else.
 *
 * Written from RFC 1950/1951 and the design of fpnge (Luca Versari's fast
 * PNG encoder: per-image Huffman tables, run-length matches) as described
 * in its README; no code of it.
 */
#include "pngio-int.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define HUFF_MAX_BITS 14   /* two literal pairs (56 bits) fit between flushes */
#define CL_MAX_BITS 7
#define PLAN_DISTS 2       /* distance codes the plan prices a header with */
#define PLAN_MARGIN 8      /* a new block must save 8 times its header (by the estimates) */

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void store64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

/* Lengths 3..258: symbol 257.. and extra bits (RFC 1951 3.2.5). */
static const uint16_t len_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
};
static const uint8_t len_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
};

/* The symbol (0..28) of length m (3..258): v = m - 3 below 8 is its own
 * symbol; above, 4 symbols a power of two, v's two bits after its top
 * one telling which (RFC 1951 3.2.5's table in closed form: a search of
 * len_base gives the same symbol for every m). */
static inline int len_symbol(unsigned m)
{
    unsigned v = m - 3;
    if (v < 8)
        return (int)v;
    if (m == 258)
        return 28;
    unsigned l = 31u - (unsigned)__builtin_clz(v);
    return (int)(4 * (l - 1) + ((v >> (l - 2)) & 3u));
}

/* Distance d (1 .. 32768): its symbol (RFC 1951 3.2.5), and the
 * symbol's first distance and extra bits. */
static inline unsigned dist_symbol(uint32_t d)
{
    uint32_t v = d - 1;
    if (v < 4)
        return v;
    unsigned l = 31u - (unsigned)__builtin_clz(v);
    return 2 * l + ((v >> (l - 1)) & 1u);
}

static inline uint32_t dist_base(unsigned sym)
{
    return sym < 4 ? sym + 1 : ((2u + (sym & 1u)) << (sym / 2 - 1)) + 1;
}

static inline unsigned dist_extra(unsigned sym)
{
    return sym < 4 ? 0 : sym / 2 - 1;
}

/* ---- tokens: literals, runs and matches, the same for counting and
 * coding ---- */

#define PUT(bits, n)                                                       \
    do {                                                                      \
        bb |= (uint64_t)(bits) << bc;                                         \
        bc += (n);                                                            \
    } while (0)
#define FLUSH()                                                               \
    do {                                                                      \
        store64(out, bb);                                                     \
        out += bc >> 3;                                                       \
        bb >>= bc & 56;                                                       \
        bc &= 7;                                                              \
    } while (0)


/* The length of the run of bytes equal to p[i - 1] starting at i, known
 * to be at least 3, up to len - i. */
static inline size_t run_length(const uint8_t *p, size_t i, size_t len)
{
    uint8_t b = (p + i)[-1];   /* i may be 0: p[-1] is the previous row's byte */
    uint64_t bw = 0x0101010101010101ull * b;
    size_t r = 3;
    while (i + r + 8 <= len) {
        uint64_t x = load64(p + i + r) ^ bw;
        if (x != 0)
            return r + ((size_t)__builtin_ctzll(x) >> 3);
        r += 8;
    }
    while (i + r < len && p[i + r] == b)
        r++;
    return r;
}

/* Bit j (0..15) set where p[j] == p[j - 1]. */
static inline uint32_t equal_prev16(const uint8_t *p)
{
#if defined(__SSE2__)
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p - 1));
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b));
#else
    uint32_t m = 0;
    for (int j = 0; j < 16; j++)
        m |= (uint32_t)(p[j] == p[j - 1]) << j;
    return m;
#endif
}

/* Does a run of at least 3 bytes equal to p[i - 1] start at i? (i + 3 <=
 * len; reads p[i - 1 .. i + 6].) */
static inline int run_starts(const uint8_t *p, size_t i)
{
    uint64_t w = load64(p + i - 1);
    return ((w ^ (w << 8)) & 0xffffff00u) == 0;
}

/* The length of the match of p + j with q (their first 4 bytes equal),
 * up to lim bytes, stopped before 8 equal bytes (a run's: the run coder
 * codes them in fewer bits). */
static inline size_t extend(const uint8_t *p, const uint8_t *q, size_t j, size_t lim)
{
    size_t m = 4;
    while (m + 8 <= lim) {
        uint64_t w = load64(p + j + m), x = w ^ load64(q + m);
        if (x != 0)
            return m + ((size_t)__builtin_ctzll(x) >> 3);
        if (w == 0x0101010101010101ull * (uint8_t)w)
            return m;
        m += 8;
    }
    while (m < lim && p[j + m] == q[m])
        m++;
    return m;
}

/* A match for the bytes at p + j (a pixel's start, j + 4 <= len) of 4
 * to 258 bytes within the row, its distance in *d; 0 when there is none.
 * Tried in order: the pixel above (distance len), the pixel before
 * (distance bpp), the longer of them (the first of equals); when
 * neither matches, the last position whose 4 bytes had the same hash
 * (the table, where j then goes). */
static inline __attribute__((always_inline)) size_t
find_match(pngio_huff_t *h, const uint8_t *p, size_t j, size_t len, uint32_t *d, const size_t bpp)
{
    uint32_t v = (uint32_t)load64(p + j);
    uint32_t a = h->pos + (uint32_t)j;
    size_t lim = len - j < 258 ? len - j : 258, best = 0, m;
    if (a - h->lo >= len && len <= PNGIO_HUFF_WINDOW && (uint32_t)load64(p + j - len) == v) {
        best = extend(p, p + j - len, j, lim);
        *d = (uint32_t)len;
    }
    if (best < lim && a - h->lo >= bpp && (uint32_t)load64(p + j - bpp) == v &&
        (m = extend(p, p + j - bpp, j, lim)) > best) {
        best = m;
        *d = (uint32_t)bpp;
    }
    if (best > 0)
        return best;
    uint32_t *slot = h->tab + ((v * 0x9e3779b1u) >> (32 - PNGIO_HUFF_HASH_BITS));
    uint32_t c = *slot;
    *slot = a;
    if (c >= h->lo && a - c <= PNGIO_HUFF_WINDOW && (uint32_t)load64(p + j - (a - c)) == v &&
        (m = extend(p, p + j - (a - c), j, lim)) > best) {
        best = m;
        *d = a - c;
    }
    return best;
}

/* Literals p[0 .. k-1]: counted, or coded two to a PUT (14 + 14 bits:
 * two pairs fit between flushes). */
static inline __attribute__((always_inline)) uint8_t *put_literals(pngio_huff_t *h, const uint8_t *q, size_t k, uint8_t *out,
                                    uint64_t *pbb, unsigned *pbc, const int coding)
{
    if (!coding) {
        for (size_t t = 0; t < k; t++)
            h->count[q[t]]++;
        return out;
    }
    const uint32_t *lit = h->lit;
    uint64_t bb = *pbb;
    unsigned bc = *pbc;
    while (k >= 4) {
        uint32_t a = lit[q[0]], b = lit[q[1]], c = lit[q[2]], d = lit[q[3]];
        unsigned na = a >> 16, nc = c >> 16;
        PUT((a & 0xffffu) | (b & 0xffffu) << na, na + (b >> 16));
        PUT((c & 0xffffu) | (d & 0xffffu) << nc, nc + (d >> 16));
        FLUSH();
        q += 4;
        k -= 4;
    }
    if (k >= 2) {
        uint32_t a = lit[q[0]], b = lit[q[1]];
        unsigned na = a >> 16;
        PUT((a & 0xffffu) | (b & 0xffffu) << na, na + (b >> 16));
        q += 2;
        k -= 2;
    }
    if (k > 0)
        PUT(lit[q[0]] & 0xffffu, lit[q[0]] >> 16);
    FLUSH();
    *pbb = bb;
    *pbc = bc;
    return out;
}

/* Is the match of m bytes at p + j, distance d, worth taking? Coding:
 * when its code is shorter than its first bytes' literal codes (24 or
 * more bytes: always); counting (no tables yet): when it is longer than
 * 4 bytes plus a quarter of its distance's extra bits. */
static inline int worth(const pngio_huff_t *h, const uint8_t *p, size_t m, uint32_t d,
                        const int coding)
{
    unsigned ds = dist_symbol(d);
    if (!coding)
        return m > 4 + dist_extra(ds) / 4;
    if (m >= 24)
        return 1;
    unsigned mb = (h->len[m] >> 24) + (h->dist[ds] >> 16) + dist_extra(ds), lb = 0;
    for (size_t t = 0; t < m; t++)
        if ((lb += h->lit[p[t]] >> 16) > mb)
            return 1;
    return 0;
}

/* A match of m bytes (3 .. 258) at distance d: counted or coded. */
static inline uint8_t *put_match(pngio_huff_t *h, size_t m, uint32_t d, uint8_t *out,
                                 uint64_t *pbb, unsigned *pbc, const int coding)
{
    unsigned ds = dist_symbol(d);
    if (!coding) {
        int ls = len_symbol((unsigned)m);
        h->count[257 + ls]++;
        h->count[PNGIO_HUFF_SYMS + ds]++;
        h->xbits += len_extra[ls] + dist_extra(ds);
        return out;
    }
    uint64_t bb = *pbb;
    unsigned bc = *pbc;
    uint32_t lc = h->len[m], dc = h->dist[ds];
    PUT(lc & 0xffffffu, lc >> 24);
    PUT((dc & 0xffffu) | (d - dist_base(ds)) << (dc >> 16), (dc >> 16) + dist_extra(ds));
    FLUSH();
    *pbb = bb;
    *pbc = bc;
    return out;
}

/* Literals q[0 .. k-1] coded, q[k .. k+2] readable: four at a time,
 * then the last 0 to 3 in one go, the codes of lanes k and on masked to
 * no bits (no branch on k's remainder: a filtered row's literals come in
 * short stretches between runs, and branches on their lengths were
 * mispredicted on most of them). */
static inline __attribute__((always_inline)) uint8_t *
put_literals_m(const pngio_huff_t *h, const uint8_t *q, size_t k, uint8_t *out, uint64_t *pbb,
               unsigned *pbc)
{
    const uint32_t *lit = h->lit;
    uint64_t bb = *pbb;
    unsigned bc = *pbc;
    for (; k >= 4; k -= 4, q += 4) {
        uint32_t a = lit[q[0]], b = lit[q[1]], c = lit[q[2]], d = lit[q[3]];
        unsigned na = a >> 16, nc = c >> 16;
        PUT((a & 0xffffu) | (b & 0xffffu) << na, na + (b >> 16));
        PUT((c & 0xffffu) | (d & 0xffffu) << nc, nc + (d >> 16));
        FLUSH();
    }
    uint32_t a = lit[q[0]] & (0u - (uint32_t)(k > 0)), b = lit[q[1]] & (0u - (uint32_t)(k > 1)),
             c = lit[q[2]] & (0u - (uint32_t)(k > 2));
    unsigned na = a >> 16, nb = b >> 16;
    PUT((a & 0xffffu) | (b & 0xffffu) << na | (uint64_t)(c & 0xffffu) << (na + nb),
        na + nb + (c >> 16));
    FLUSH();
    *pbb = bb;
    *pbc = bc;
    return out;
}

/* A run of r (at least 3) bytes equal to b as matches of up to 258 at
 * distance 1 and 0..2 literals. (Distance 4 for the pieces after the
 * first, tried in the eighth session, decoded faster in libpng on that
 * machine's CPU, but 20-30% slower on the current one, and always
 * slower in libdeflate, which copies a distance of 1 as a byte
 * broadcast: BENCHMARKS.md, "The reader's fast way".) */
static inline __attribute__((always_inline)) uint8_t *
put_run_of(pngio_huff_t *h, uint8_t b, size_t r, uint8_t *out, uint64_t *pbb, unsigned *pbc,
           const int coding)
{
    if (!coding) {
        for (; r >= 3; r -= r < 258 ? r : 258)
            out = put_match(h, r < 258 ? r : 258, 1, out, pbb, pbc, coding);
    } else {
        uint64_t bb = *pbb;
        unsigned bc = *pbc;
        if (r < 258) {   /* nearly every run: one match, no literal */
            uint64_t m = h->run1[r];
            PUT(m & 0xffffffffffffull, (unsigned)(m >> 48));
            FLUSH();
            *pbb = bb;
            *pbc = bc;
            return out;
        }
        for (; r >= 3; r -= r < 258 ? r : 258) {
            uint64_t m = h->run1[r < 258 ? r : 258];
            PUT(m & 0xffffffffffffull, (unsigned)(m >> 48));
            FLUSH();
        }
        *pbb = bb;
        *pbc = bc;
    }
    if (r == 0)
        return out;
    uint8_t tail[2] = { b, b };
    return put_literals(h, tail, r, out, pbb, pbc, coding);
}

/* The run at *i (at least 3 bytes equal to p[*i - 1]), *i moved past it. */
static inline __attribute__((always_inline)) uint8_t *
put_run(pngio_huff_t *h, const uint8_t *p, size_t *i, size_t len, uint8_t *out, uint64_t *pbb,
        unsigned *pbc, const int coding)
{
    size_t r = run_length(p, *i, len);
    uint8_t b = (p + *i)[-1];
    *i += r;
    return put_run_of(h, b, r, out, pbb, pbc, coding);
}

/* Bit k (0..63) set where p[i + k] == p[i + k - 1] and i + k < len (bits
 * at len and past it clear; i < len; reads p[i - 1 .. len - 1] only). */
static inline uint64_t equal_prev64(const uint8_t *p, size_t i, size_t len)
{
    size_t n = len - i, c = 0;
    uint64_t t = 0;
    for (; c < 64 && c + 16 <= n; c += 16)
        t |= (uint64_t)equal_prev16(p + i + c) << c;
    for (; c < 64 && c < n; c++)
        t |= (uint64_t)(p[i + c] == (p + i + c)[-1]) << c;   /* i + c may be 0 */
    return t;
}

/* The equalities of a row 64 positions a word (word w: positions 64w ..
 * 64w + 63, equal_prev64's bits), two words at hand: each word is
 * computed once as the position moves on. */
typedef struct eq_window {
    uint64_t cur, next;   /* words w and w + 1 */
    size_t w;
} eq_window_t;

static inline uint64_t eq_word(const uint8_t *p, size_t w, size_t len)
{
    return w << 6 < len ? equal_prev64(p, w << 6, len) : 0;
}

static inline void eq_window_init(eq_window_t *e, const uint8_t *p, size_t i, size_t len)
{
    e->w = i >> 6;
    e->cur = eq_word(p, e->w, len);
    e->next = eq_word(p, e->w + 1, len);
}

/* equal_prev64(p, i, len) from the window (i at or past its last). */
static inline __attribute__((always_inline)) uint64_t eq_at(eq_window_t *e, const uint8_t *p,
                                                           size_t i, size_t len)
{
    size_t w = i >> 6, s = i & 63;
    if (w != e->w) {
        e->cur = w == e->w + 1 ? e->next : eq_word(p, w, len);
        e->next = eq_word(p, w + 1, len);
        e->w = w;
    }
    return s != 0 ? e->cur >> s | e->next << (64 - s) : e->cur;
}

/* Filtered rows' tokens from i on (no matches): literals up to the first
 * position where 3 bytes equal to the one before them start (the
 * leftmost: what a byte at a time would find), then the run of all such
 * bytes, and again. The equalities are bit masks (four SSE2 compares
 * for 64 positions, each computed once), the next run's start and its
 * end each a count of trailing bits. */
static inline __attribute__((always_inline)) uint8_t *
runs_and_literals(pngio_huff_t *h, const uint8_t *p, size_t i, size_t len, uint8_t *out,
                  uint64_t *pbb, unsigned *pbc, const int coding)
{
    eq_window_t e;
    if (i < len)
        eq_window_init(&e, p, i, len);
    while (i < len) {
        uint64_t t = eq_at(&e, p, i, len);
        /* bit j: a run starts at i + j (bits 62 and 63 clear: the mask
         * does not show their third byte; the next one will) */
        uint64_t r3 = t & (t >> 1) & (t >> 2);
        if (r3 == 0) {
            size_t k = len - i < 62 ? len - i : 62;
            out = put_literals(h, p + i, k, out, pbb, pbc, coding);
            i += k;
            continue;
        }
        size_t j = (size_t)__builtin_ctzll(r3);
        if (coding)   /* a run of 3 or more follows: q[j .. j+2] readable */
            out = put_literals_m(h, p + i, j, out, pbb, pbc);
        else if (j > 0)
            out = put_literals(h, p + i, j, out, pbb, pbc, coding);
        i += j;
        uint8_t b = (p + i)[-1];   /* i may be 0: p[-1] is the previous row's byte */
        /* the run: the set bits from j on, and on while they are all set
         * (clear from len on: it stops there) */
        uint64_t u = ~(t >> j);   /* the top j bits set */
        size_t r = u != 0 ? (size_t)__builtin_ctzll(u) : 64;
        if (r == 64 - j) {
            for (;;) {
                uint64_t w = eq_at(&e, p, i + r, len);
                if (w != ~0ull) {
                    r += (size_t)__builtin_ctzll(~w);
                    break;
                }
                r += 64;
            }
        }
        out = put_run_of(h, b, r, out, pbb, pbc, coding);
        i += r;
    }
    return out;
}

/* One row's tokens, counted (coding 0) or coded: without matches by
 * runs_and_literals; with them 8 bytes at a time: t
 * marks the bytes equal to the byte before them, r3 the positions 0..5
 * where 3 such bytes start (a run); before it, where a pixel starts
 * (j = 1 mod bpp: the filter type byte is 0), the table may know a
 * match, taken when worth it, extended back over the literals before
 * it; the rest are literals. */
static inline __attribute__((always_inline)) uint8_t *
tokens(pngio_huff_t *h, const uint8_t *p, size_t len, int first, uint8_t *out, const int coding,
       const size_t bpp, const int matching)
{
    uint64_t bb = h->bb;
    unsigned bc = h->bc;
    size_t i = 0, nj = 1;   /* nj: the next pixel start */
    if (first) {
        h->lo = h->pos;
        if (len > 0) {
            out = put_literals(h, p, 1, out, &bb, &bc, coding);
            i = 1;
        }
    }
    if (!matching) {
        out = runs_and_literals(h, p, i, len, out, &bb, &bc, coding);
        i = len;
    }
    while (i + 8 <= len) {
        uint64_t x = load64(p + i) ^ load64(p + i - 1);
        uint64_t t = ~(((x & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | x |
                       0x7f7f7f7f7f7f7f7full);
        uint64_t r3 = t & (t >> 8) & (t >> 16);
        size_t k = r3 != 0 ? (size_t)__builtin_ctzll(r3) >> 3 : 6;
        size_t m = 0;
        uint32_t d = 0;
        if (matching) {
            if (nj < i)
                nj = i + (bpp - (i - 1) % bpp) % bpp;
            for (; nj < i + k && nj + 4 <= len; nj += bpp) {
                if ((m = find_match(h, p, nj, len, &d, bpp)) != 0)
                    break;
            }
        }
        if (matching && m != 0 && worth(h, p + nj, m, d, coding)) {
            size_t j = nj;
            while (j > i && m < 258 && h->pos + j - 1 - d >= h->lo && p[j - 1] == *(p + j - 1 - d)) {
                j--;
                m++;
            }
            out = put_literals(h, p + i, j - i, out, &bb, &bc, coding);
            out = put_match(h, m, d, out, &bb, &bc, coding);
            i = j + m;
            continue;
        }
        out = put_literals(h, p + i, k, out, &bb, &bc, coding);
        i += k;
        if (r3 != 0)
            out = put_run(h, p, &i, len, out, &bb, &bc, coding);
    }
    while (i < len) {
        if (i + 3 <= len && run_starts(p, i)) {
            out = put_run(h, p, &i, len, out, &bb, &bc, coding);
            continue;
        }
        out = put_literals(h, p + i, 1, out, &bb, &bc, coding);
        i++;
    }
    h->pos += (uint32_t)len;
    h->bb = bb;
    h->bc = bc;
    return out;
}

void pngio_huff_count(pngio_huff_t *h, const uint8_t *p, size_t len, int first)
{
    /* the pixel size a constant (no division), no match code for runs only */
    if (h->tab == NULL)
        (void)tokens(h, p, len, first, NULL, 0, 1, 0);
    else if (h->bpp == 3)
        (void)tokens(h, p, len, first, NULL, 0, 3, 1);
    else
        (void)tokens(h, p, len, first, NULL, 0, 4, 1);
}

uint8_t *pngio_huff_row(pngio_huff_t *h, const uint8_t *p, size_t len, int first, uint8_t *out)
{
    if (h->tab == NULL)
        return tokens(h, p, len, first, out, 1, 1, 0);
    return h->bpp == 3 ? tokens(h, p, len, first, out, 1, 3, 1) : tokens(h, p, len, first, out, 1, 4, 1);
}

/* ---- Huffman code lengths ---- */

/* Code lengths of n symbols with counts cnt (zero: no code) into len,
 * at most maxbits: Huffman's construction by two queues over the symbols
 * sorted by count (ties by symbol, so the result is fully determined),
 * and when the longest code is too long, counts halved (kept >= 1) and
 * built again. At least two symbols get codes (a complete code). */
static void build_lengths(const uint32_t *cnt_in, int n, int maxbits, uint8_t *len)
{
    uint32_t cnt[320];
    int sym[320];
    uint64_t w[640];
    int parent[640];
    memcpy(cnt, cnt_in, (size_t)n * sizeof *cnt);
    int used = 0;
    for (int s = 0; s < n; s++)
        used += cnt[s] != 0;
    for (int s = 0; used < 2 && s < n; s++)
        if (cnt[s] == 0) {
            cnt[s] = 1;
            used++;
        }
    for (;;) {
        int m = 0;
        for (int s = 0; s < n; s++)
            if (cnt[s] != 0)
                sym[m++] = s;
        /* insertion sort by (count, symbol): n <= 320 */
        for (int a = 1; a < m; a++) {
            int v = sym[a], b = a;
            while (b > 0 && cnt[sym[b - 1]] > cnt[v]) {
                sym[b] = sym[b - 1];
                b--;
            }
            sym[b] = v;
        }
        for (int k = 0; k < m; k++)
            w[k] = cnt[sym[k]];
        /* leaves 0..m-1, internal nodes m..2m-2 made in order */
        int leaf = 0, node = m, made = m;
        for (int k = 0; k < m - 1; k++) {
            int pick[2];
            for (int t = 0; t < 2; t++) {
                if (leaf < m && (node >= made || w[leaf] <= w[node]))
                    pick[t] = leaf++;
                else
                    pick[t] = node++;
            }
            w[made] = w[pick[0]] + w[pick[1]];
            parent[pick[0]] = parent[pick[1]] = made;
            made++;
        }
        int depth[640];
        int maxd = 0;
        depth[made - 1] = 0;
        for (int k = made - 2; k >= 0; k--) {
            depth[k] = depth[parent[k]] + 1;
            if (k < m && depth[k] > maxd)
                maxd = depth[k];
        }
        if (maxd <= maxbits) {
            memset(len, 0, (size_t)n);
            for (int k = 0; k < m; k++)
                len[sym[k]] = (uint8_t)depth[k];
            return;
        }
        for (int s = 0; s < n; s++)
            if (cnt[s] != 0)
                cnt[s] = (cnt[s] + 1) / 2;
    }
}

/* Canonical codes (RFC 1951 3.2.2), bit-reversed for LSB-first output. */
static void canonical(const uint8_t *len, int n, uint16_t *code)
{
    uint16_t bl_count[16] = { 0 }, next[16];
    for (int s = 0; s < n; s++)
        bl_count[len[s]]++;
    bl_count[0] = 0;
    uint16_t c = 0;
    for (int b = 1; b < 16; b++) {
        c = (uint16_t)((c + bl_count[b - 1]) << 1);
        next[b] = c;
    }
    for (int s = 0; s < n; s++) {
        if (len[s] == 0) {
            code[s] = 0;
            continue;
        }
        uint16_t v = next[len[s]]++, r = 0;
        for (int b = 0; b < len[s]; b++)
            r = (uint16_t)(r << 1 | ((v >> b) & 1u));
        code[s] = r;
    }
}

void pngio_huff_init(pngio_huff_t *h, uint32_t *tab, unsigned bpp)
{
    memset(h->count, 0, sizeof h->count);
    h->xbits = 0;
    if (tab != NULL)
        memset(tab, 0, PNGIO_HUFF_HASH * sizeof *tab);
    h->bb = 0;
    h->bc = 0;
    h->tab = tab;
    h->pos = 1;   /* 0: an empty slot */
    h->lo = 1;
    h->bpp = bpp;
}

/* The code lengths of a table for counts cnt_in (286 literal/length
 * symbols, then 30 distances): every literal and length gets a code (+1
 * each), and every distance when matches may have any (else distances 1
 * and 4, 1 bit each: a complete code, though runs use only distance 1;
 * strict decoders refuse an incomplete one). */
static void table_lengths(const uint32_t *cnt_in, int matches, uint8_t *len)
{
    uint32_t cnt[PNGIO_HUFF_COUNTS];
    for (int s = 0; s < PNGIO_HUFF_COUNTS; s++)
        cnt[s] = s < PNGIO_HUFF_SYMS || matches || s == PNGIO_HUFF_SYMS || s == PNGIO_HUFF_SYMS + 3
                     ? cnt_in[s] + 1 : 0;
    build_lengths(cnt, PNGIO_HUFF_SYMS, HUFF_MAX_BITS, len);
    build_lengths(cnt + PNGIO_HUFF_SYMS, PNGIO_HUFF_DISTS, HUFF_MAX_BITS, len + PNGIO_HUFF_SYMS);
}

/* The code-length code of the n lengths (sent as code-length symbols
 * 0..15, no repeat codes): its lengths cll, codes clcode, HCLEN; returns
 * the block header's size in bits. */
static const uint8_t cl_order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };

static unsigned cl_code(const uint8_t *len, int n_len, uint8_t *cll, uint16_t *clcode,
                        int *hclen)
{
    uint32_t clc[19] = { 0 };
    for (int s = 0; s < n_len; s++)
        clc[len[s]]++;
    build_lengths(clc, 19, CL_MAX_BITS, cll);
    if (clcode != NULL)
        canonical(cll, 19, clcode);
    int n = 19;
    while (n > 4 && cll[cl_order[n - 1]] == 0)
        n--;
    *hclen = n;
    unsigned bits = 3 + 14 + 3u * (unsigned)n;
    for (int v = 0; v < 16; v++)
        bits += clc[v] * cll[v];
    return bits;
}

/* The plan's estimate of table_lengths: -log2 of each symbol's share,
 * rounded up (no Huffman construction: it runs twice per band). A
 * header is priced with two distance lengths of 1 after the 286 (what
 * PLAN_MARGIN was tuned on; the distance codes are alike in every block,
 * and pricing the 0 lengths of codes 1, 2 moved a 720p gradient's split
 * past the margin: 1% larger). */
static void plan_lengths(const uint32_t *cnt, uint8_t *len)
{
    uint64_t total = 0;
    for (int s = 0; s < PNGIO_HUFF_SYMS; s++)
        total += cnt[s] + 1u;
    for (int s = 0; s < PNGIO_HUFF_SYMS; s++) {
        uint64_t q = total / (cnt[s] + 1u);
        unsigned l = 64u - (unsigned)__builtin_clzll(q);
        len[s] = (uint8_t)(l < HUFF_MAX_BITS ? l : HUFF_MAX_BITS);
    }
    len[PNGIO_HUFF_SYMS] = len[PNGIO_HUFF_SYMS + 1] = 1;
}

/* log2(x) in 1/256 bits, x >= 1: the integer part from the top bit,
 * the fraction from the next 8 bits, f + 0.34 f (1 - f) (within 0.01
 * bits; integer arithmetic only). */
static uint32_t log2_fix(uint64_t x)
{
    unsigned e = 63u - (unsigned)__builtin_clzll(x);
    uint64_t m = e >= 8 ? x >> (e - 8) : x << (8 - e);   /* 256 .. 511 */
    /* log2(1 + f) ~ f * (1 + (1 - f) * 0.34), f = (m - 256) / 256 */
    uint32_t f = (uint32_t)(m - 256);
    uint32_t corr = f * (256 - f) * 87 / (256 * 256);
    return e * 256 + f + corr;
}

/* Σ c log2(total / c) over n counts, in 1/256 bits. */
static uint64_t entropy_fix(const uint32_t *counts, int n)
{
    uint64_t bits = 0, total = 0;
    for (int s = 0; s < n; s++)
        total += counts[s];
    uint32_t lt = log2_fix(total + 1);
    for (int s = 0; s < n; s++)
        if (counts[s] != 0)
            bits += (uint64_t)counts[s] * (lt - log2_fix(counts[s]));
    return bits;
}

uint64_t pngio_huff_cost(const uint32_t *counts, uint64_t xbits)
{
    return (xbits * 256 + entropy_fix(counts, PNGIO_HUFF_SYMS) +
            entropy_fix(counts + PNGIO_HUFF_SYMS, PNGIO_HUFF_DISTS)) / 256;
}

int pngio_huff_plan(const uint32_t *bands, uint32_t nb, uint32_t scale, uint8_t *starts)
{
    uint32_t cur[PNGIO_HUFF_SYMS];
    uint8_t curlen[PNGIO_HUFF_SYMS + PLAN_DISTS], newlen[PNGIO_HUFF_SYMS + PLAN_DISTS], cll[19];
    int blocks = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const uint32_t *c = bands + (size_t)b * PNGIO_HUFF_COUNTS;
        int start = b == 0;
        if (!start && b + 1 < nb) {
            /* a block from here when a table of this band's sample codes
             * the next band's sample (held out: a table always fits its
             * own sample best), scaled to the band, in fewer bits than
             * the current table by more than the new header costs */
            const uint32_t *next = c + PNGIO_HUFF_COUNTS;
            plan_lengths(c, newlen);
            int64_t gain = 0;
            for (int s = 0; s < PNGIO_HUFF_SYMS; s++)
                gain += (int64_t)next[s] * ((int)curlen[s] - (int)newlen[s]);
            int hclen;
            unsigned header = cl_code(newlen, PNGIO_HUFF_SYMS + PLAN_DISTS, cll, NULL, &hclen);
            start = gain * (int64_t)scale > PLAN_MARGIN * (int64_t)header;
        }
        if (start) {
            memcpy(cur, c, sizeof cur);
            blocks++;
        } else {
            for (int s = 0; s < PNGIO_HUFF_SYMS; s++)
                cur[s] += c[s];
        }
        starts[b] = (uint8_t)start;
        plan_lengths(cur, curlen);
    }
    return blocks;
}

uint8_t *pngio_huff_begin(pngio_huff_t *h, uint8_t *out, int first, int final)
{
    uint8_t len[PNGIO_HUFF_COUNTS];
    uint16_t code[PNGIO_HUFF_COUNTS];
    table_lengths(h->count, h->tab != NULL, len);
    canonical(len, PNGIO_HUFF_SYMS, code);
    canonical(len + PNGIO_HUFF_SYMS, PNGIO_HUFF_DISTS, code + PNGIO_HUFF_SYMS);
    for (int s = 0; s < 256; s++)
        h->lit[s] = code[s] | (uint32_t)len[s] << 16;
    h->eob = code[256] | (uint32_t)len[256] << 16;
    for (unsigned m = 3; m <= 258; m++) {   /* a length's code, then its extra bits */
        int ls = len_symbol(m);
        unsigned n = len[257 + ls];
        h->len[m] = (code[257 + ls] | (uint32_t)(m - len_base[ls]) << n) |
                    (n + len_extra[ls]) << 24;
    }
    h->len[0] = h->len[1] = h->len[2] = 0;
    for (int d = 0; d < PNGIO_HUFF_DISTS; d++)
        h->dist[d] = code[PNGIO_HUFF_SYMS + d] | (uint32_t)len[PNGIO_HUFF_SYMS + d] << 16;
    for (unsigned m = 0; m <= 258; m++) {   /* runs: the length, then distance 1 */
        uint64_t lc = h->len[m] & 0xffffffu, n = h->len[m] >> 24;
        h->run1[m] = lc | (uint64_t)(h->dist[0] & 0xffffu) << n |
                     (n + (h->dist[0] >> 16)) << 48;
    }

    uint8_t cll[19];
    uint16_t clcode[19];
    int hclen;
    int ndist = PNGIO_HUFF_DISTS;
    while (ndist > 1 && len[PNGIO_HUFF_SYMS + ndist - 1] == 0)
        ndist--;
    cl_code(len, PNGIO_HUFF_SYMS + ndist, cll, clcode, &hclen);

    uint64_t bb = h->bb;
    unsigned bc = h->bc;
    if (first) {
        out[0] = 0x78;   /* zlib: deflate, 32 KiB window */
        out[1] = 0x01;   /* FLEVEL 0 (fastest), FCHECK: 0x7801 % 31 == 0 */
        out += 2;
        bb = 0;
        bc = 0;
    }
    PUT(final ? 1u : 0u, 1);                     /* BFINAL */
    PUT(2u, 2);                                  /* BTYPE 10: dynamic */
    PUT(PNGIO_HUFF_SYMS - 257u, 5);              /* HLIT */
    PUT((unsigned)ndist - 1u, 5);                /* HDIST */
    PUT((unsigned)hclen - 4u, 4);                /* HCLEN */
    FLUSH();
    for (int k = 0; k < hclen; k++) {
        PUT(cll[cl_order[k]], 3);
        FLUSH();
    }
    for (int s = 0; s < PNGIO_HUFF_SYMS + ndist; s++) {
        PUT(clcode[len[s]], cll[len[s]]);
        FLUSH();
    }
    h->bb = bb;
    h->bc = bc;
    return out;
}

uint8_t *pngio_huff_block_end(pngio_huff_t *h, uint8_t *out)
{
    uint64_t bb = h->bb;
    unsigned bc = h->bc;
    PUT(h->eob & 0xffffu, h->eob >> 16);
    FLUSH();
    h->bb = bb;
    h->bc = bc;
    return out;
}

uint8_t *pngio_huff_sync(pngio_huff_t *h, uint8_t *out)
{
    uint64_t bb = h->bb;
    unsigned bc = h->bc;
    PUT(h->eob & 0xffffu, h->eob >> 16);
    FLUSH();
    PUT(0u, 3);            /* BFINAL 0, BTYPE 00: stored */
    FLUSH();
    if (bc > 0) {          /* to a byte boundary */
        PUT(0u, 8 - bc);
        FLUSH();
    }
    out[0] = 0x00;         /* LEN 0 */
    out[1] = 0x00;
    out[2] = 0xff;         /* NLEN */
    out[3] = 0xff;
    h->bb = 0;
    h->bc = 0;
    return out + 4;
}

uint8_t *pngio_huff_end(pngio_huff_t *h, uint8_t *out, uint32_t adler)
{
    uint64_t bb = h->bb;
    unsigned bc = h->bc;
    PUT(h->eob & 0xffffu, h->eob >> 16);
    FLUSH();
    if (bc > 0) {          /* to a byte boundary */
        PUT(0u, 8 - bc);
        FLUSH();
    }
    out[0] = (uint8_t)(adler >> 24);
    out[1] = (uint8_t)(adler >> 16);
    out[2] = (uint8_t)(adler >> 8);
    out[3] = (uint8_t)adler;
    h->bb = 0;
    h->bc = 0;
    return out + 4;
}
