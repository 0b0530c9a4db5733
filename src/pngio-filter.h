/* pngio-filter.h - PNG row filters and the per-row filter choice, as a
 * template that pngio-enc.c includes three times: as written for the
 * baseline and again for AVX2 (the loops are shaped for the
 * auto-vectorizer: fixed-size blocks, no dependence between bytes of a
 * block), and once with vectorization turned off (the scalar path
 * RF_PNG_SCALAR=1 selects); tests hold the three byte-identical.
 *
 * Owns: nothing of its own; defines static functions named PF(name).
 * Included only by pngio-enc.c, which defines PF before each inclusion
 * (no include guard on purpose). Integer arithmetic only: whichever path
 * runs, the chosen filter and the filtered bytes are the same.
 *
 * Rows are given with bpp zero bytes before their first byte (cur[-bpp ..
 * -1] and prev[-bpp .. -1] are 0), so the left neighbour needs no special
 * case; the first row's prev is a row of zeros.
 */

/* One loop over j = 0 .. n-1 as blocks of PF_BLOCK (constant trip count:
 * what gcc -O2's very-cheap cost model vectorizes) and a scalar tail. */
#ifndef PF_BLOCK
#define PF_BLOCK 32
#define PF_LOOP(n, ...)                                                     \
    do {                                                                    \
        size_t i_ = 0;                                                      \
        PF_NOVEC                                                            \
        for (; i_ + PF_BLOCK <= (n); i_ += PF_BLOCK)                        \
            PF_NOVEC                                                        \
            for (size_t k_ = 0; k_ < PF_BLOCK; k_++) {                      \
                size_t j = i_ + k_;                                         \
                __VA_ARGS__ \
            }                                                               \
        PF_NOVEC                                                            \
        for (; i_ < (n); i_++) {                                            \
            size_t j = i_;                                                  \
            __VA_ARGS__ \
        }                                                                   \
    } while (0)
#endif

#ifndef PF_PAETH_PRED
#define PF_PAETH_PRED
/* PNG's predictor (ISO/IEC 15948 9.4) written without branches:
 * p = a + b - c, pa = |p - a| = |b - c|, pb = |a - c|, pc = |p - c|;
 * a when pa <= pb and pa <= pc, else b when pb <= pc, else c. */
static inline uint8_t pf_paeth_pred(int16_t a, int16_t b, int16_t c)
{
    int16_t pa = (int16_t)(b - c), pb = (int16_t)(a - c);
    int16_t pc = (int16_t)(pa + pb);
    pa = pa < 0 ? (int16_t)-pa : pa;
    pb = pb < 0 ? (int16_t)-pb : pb;
    pc = pc < 0 ? (int16_t)-pc : pc;
    int16_t bc = pb <= pc ? b : c;
    return (uint8_t)((pa <= pb && pa <= pc) ? a : bc);
}
#endif

/* The cost of a filtered row: the sum of its bytes as signed magnitudes,
 * |(int8_t)v| = min(v, 256 - v) (libpng's and the PNG book's heuristic). */
static uint32_t PF(cost)(const uint8_t *restrict f, size_t n)
{
    uint32_t sum = 0;
    PF_LOOP(n, {
        uint8_t v = f[j];
        uint8_t w = (uint8_t)-v;
        sum += v < w ? v : w;
    });
    return sum;
}

static void PF(sub)(uint8_t *restrict out, const uint8_t *restrict cur, size_t n, size_t bpp)
{
    const uint8_t *left = cur - bpp;   /* cur[j - bpp], j - bpp < 0 too */
    PF_LOOP(n, { out[j] = (uint8_t)(cur[j] - left[j]); });
}

static void PF(up)(uint8_t *restrict out, const uint8_t *restrict cur,
                   const uint8_t *restrict prev, size_t n)
{
    PF_LOOP(n, { out[j] = (uint8_t)(cur[j] - prev[j]); });
}

static void PF(avg)(uint8_t *restrict out, const uint8_t *restrict cur,
                    const uint8_t *restrict prev, size_t n, size_t bpp)
{
    const uint8_t *left = cur - bpp;
    PF_LOOP(n, { out[j] = (uint8_t)(cur[j] - ((left[j] + prev[j]) >> 1)); });
}

static void PF(paeth)(uint8_t *restrict out, const uint8_t *restrict cur,
                      const uint8_t *restrict prev, size_t n, size_t bpp)
{
    const uint8_t *left = cur - bpp, *upleft = prev - bpp;
    PF_LOOP(n, {
        int16_t a = left[j], b = prev[j], c = upleft[j];
        out[j] = (uint8_t)(cur[j] - pf_paeth_pred(a, b, c));
    });
}

/* The quick choice of level 1: the same costs, fused with the filters
 * (nothing stored) and taken on a sample of the row: the first
 * PF_BLOCK bytes of every PF_QUICK_STEP (the whole row when shorter
 * than 4 steps). Returns the cost of filter type t, or, as soon as the
 * sum passes limit, that sum (more than limit: the type cannot win). */
#ifndef PF_QUICK_STEP
#define PF_QUICK_STEP 128
#endif
static uint32_t PF(quick_cost)(int t, const uint8_t *restrict cur, const uint8_t *restrict prev,
                               size_t n, size_t bpp, uint32_t limit)
{
    size_t step = n >= 4 * PF_QUICK_STEP ? PF_QUICK_STEP : PF_BLOCK;
    size_t end = n >= 4 * PF_QUICK_STEP ? n - PF_BLOCK + 1 : n / PF_BLOCK * PF_BLOCK;
    uint32_t sum = 0;
    PF_NOVEC
    for (size_t i = 0; i < end; i += step) {
        uint16_t s = 0;
        const uint8_t *c = cur + i, *p = prev + i;
        switch (t) {
        case 0:
            PF_NOVEC
            for (size_t k = 0; k < PF_BLOCK; k++) {
                uint8_t v = c[k], w = (uint8_t)-v;
                s = (uint16_t)(s + (v < w ? v : w));
            }
            break;
        case 1:
            PF_NOVEC
            for (size_t k = 0; k < PF_BLOCK; k++) {
                uint8_t v = (uint8_t)(c[k] - c[(ptrdiff_t)k - (ptrdiff_t)bpp]), w = (uint8_t)-v;
                s = (uint16_t)(s + (v < w ? v : w));
            }
            break;
        case 2:
            PF_NOVEC
            for (size_t k = 0; k < PF_BLOCK; k++) {
                uint8_t v = (uint8_t)(c[k] - p[k]), w = (uint8_t)-v;
                s = (uint16_t)(s + (v < w ? v : w));
            }
            break;
        case 3:
            PF_NOVEC
            for (size_t k = 0; k < PF_BLOCK; k++) {
                uint8_t v = (uint8_t)(c[k] - ((c[(ptrdiff_t)k - (ptrdiff_t)bpp] + p[k]) >> 1));
                uint8_t w = (uint8_t)-v;
                s = (uint16_t)(s + (v < w ? v : w));
            }
            break;
        default:
            PF_NOVEC
            for (size_t k = 0; k < PF_BLOCK; k++) {
                uint8_t v = (uint8_t)(c[k] - pf_paeth_pred(c[(ptrdiff_t)k - (ptrdiff_t)bpp], p[k],
                                                           p[(ptrdiff_t)k - (ptrdiff_t)bpp]));
                uint8_t w = (uint8_t)-v;
                s = (uint16_t)(s + (v < w ? v : w));
            }
            break;
        }
        sum += s;
        if (sum > limit)
            return sum;
    }
    const uint8_t *left = cur - bpp, *upleft = prev - bpp;
    PF_NOVEC
    for (size_t j = end < n && step == PF_BLOCK ? end : n; j < n; j++) {
        uint8_t v;
        switch (t) {
        case 0: v = cur[j]; break;
        case 1: v = (uint8_t)(cur[j] - left[j]); break;
        case 2: v = (uint8_t)(cur[j] - prev[j]); break;
        case 3: v = (uint8_t)(cur[j] - ((left[j] + prev[j]) >> 1)); break;
        default: v = (uint8_t)(cur[j] - pf_paeth_pred(left[j], prev[j], upleft[j])); break;
        }
        uint8_t w = (uint8_t)-v;
        sum += v < w ? v : w;
    }
    return sum;
}

/* Level 1's choice: the filter type of lowest quick_cost (the lowest type
 * on a tie; UP at once when its sample is all zeros). A type's sum stops
 * once it cannot win (more than the best so far, or as much when its
 * type is higher): the same choice, for less work where one type is far
 * ahead (a 1080p showcase frame: 24.5M -> 14.5M instructions). */
static rf_png_filter_t PF(quick_choice)(const uint8_t *restrict cur, const uint8_t *restrict prev,
                                        size_t n, size_t bpp)
{
    uint32_t best = PF(quick_cost)(2, cur, prev, n, bpp, UINT32_MAX);
    int type = 2;
    if (best == 0)
        return RF_PNG_FILTER_UP;
    /* the others by how often they win (Paeth, Sub, Average, None): a low
     * best early stops more sums; the order changes no choice */
    static const int order[4] = { 4, 1, 3, 0 };
    for (int i = 0; i < 4; i++) {
        int t = order[i];
        if (t > type && best == 0)
            continue;
        uint32_t c = PF(quick_cost)(t, cur, prev, n, bpp, t < type ? best : best - 1);
        if (c < best || (c == best && t < type)) {
            best = c;
            type = t;
        }
    }
    return (rf_png_filter_t)type;
}

/* Filters one row of n bytes (bpp 3 or 4) into out[0] (the filter type)
 * and out[1 .. n]. mode is one filter, or RF_PNG_FILTER_ALL: the type
 * whose bytes have the lowest cost, the lowest type on a tie. scratch
 * holds 4 * n bytes. */
static void PF(filter_row)(uint8_t *restrict out, const uint8_t *restrict cur,
                           const uint8_t *restrict prev, size_t n, size_t bpp,
                           rf_png_filter_t mode, uint8_t *restrict scratch)
{
    uint8_t *data = out + 1;
    switch (mode) {
    case RF_PNG_FILTER_NONE:
        out[0] = 0;
        memcpy(data, cur, n);
        return;
    case RF_PNG_FILTER_SUB:
        out[0] = 1;
        PF(sub)(data, cur, n, bpp);
        return;
    case RF_PNG_FILTER_UP:
        out[0] = 2;
        PF(up)(data, cur, prev, n);
        return;
    case RF_PNG_FILTER_AVG:
        out[0] = 3;
        PF(avg)(data, cur, prev, n, bpp);
        return;
    case RF_PNG_FILTER_PAETH:
        out[0] = 4;
        PF(paeth)(data, cur, prev, n, bpp);
        return;
    case RF_PNG_FILTER_ALL:
    default:
        break;
    }
    uint8_t *cand[5] = { NULL, scratch, scratch + n, scratch + 2 * n, scratch + 3 * n };
    uint32_t best = PF(cost)(cur, n);
    int type = 0;
    PF(up)(cand[2], cur, prev, n);
    uint32_t c = PF(cost)(cand[2], n);
    if (c < best) {
        best = c;
        type = 2;
    }
    if (best != 0) {   /* a row equal to the one above: UP is all zeros */
        PF(sub)(cand[1], cur, n, bpp);
        c = PF(cost)(cand[1], n);
        if (c < best || (c == best && type > 1)) {
            best = c;
            type = 1;
        }
        PF(avg)(cand[3], cur, prev, n, bpp);
        c = PF(cost)(cand[3], n);
        if (c < best) {
            best = c;
            type = 3;
        }
        PF(paeth)(cand[4], cur, prev, n, bpp);
        c = PF(cost)(cand[4], n);
        if (c < best) {
            best = c;
            type = 4;
        }
    }
    out[0] = (uint8_t)type;
    memcpy(data, type == 0 ? cur : cand[type], n);
}
