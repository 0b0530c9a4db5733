/* suggest.c - capped edit distance and did-you-mean. */
#include "suggest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The rows of the distance table live on the stack for short words, which
 * is every key and name in practice; longer strings take heap rows. */
#define RF_EDIT_STACK 256

int rf_edit_distance(const char *a, const char *b, int cap)
{
    if (cap < 0)
        cap = 0;
    size_t la = strlen(a), lb = strlen(b);
    if (la < lb) {                 /* rows over the shorter string */
        const char *t = a; a = b; b = t;
        size_t tl = la; la = lb; lb = tl;
    }
    if (la - lb > (size_t)cap)
        return cap + 1;
    if (lb == 0)
        return (int)la;

    int stack[2][RF_EDIT_STACK + 1];
    int *prev = stack[0], *cur = stack[1], *heap = NULL;
    if (lb > RF_EDIT_STACK) {
        if (lb >= (size_t)INT32_MAX / 2 ||
            (heap = malloc(2 * (lb + 1) * sizeof *heap)) == NULL)
            return cap + 1;        /* too long to be a typo of anything */
        prev = heap;
        cur = heap + lb + 1;
    }
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    int result = -1;
    for (size_t i = 1; i <= la && result < 0; i++) {
        cur[0] = (int)i;
        int rowmin = cur[0];
        for (size_t j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1;
            int ins = cur[j - 1] + 1;
            int m = sub < del ? sub : del;
            cur[j] = m < ins ? m : ins;
            if (cur[j] < rowmin)
                rowmin = cur[j];
        }
        /* every later row is >= this row's minimum */
        if (rowmin > cap)
            result = cap + 1;
        int *t = prev; prev = cur; cur = t;
    }
    if (result < 0)
        result = prev[lb] > cap ? cap + 1 : prev[lb];
    free(heap);
    return result;
}

const char *rf_did_you_mean(const char *word, const char *const *candidates, size_t n)
{
    size_t wl = strlen(word);
    const char *best = NULL;
    int bestd = 3;
    for (size_t i = 0; i < n; i++) {
        if (candidates[i] == NULL || candidates[i][0] == '\0')
            continue;
        int dist = rf_edit_distance(word, candidates[i], 2);
        if (dist < bestd && (size_t)dist < wl) {
            best = candidates[i];
            bestd = dist;
        }
    }
    if (best != NULL)
        return best;
    /* another form of the same word ("rotation" for "rotate", "scaling"
     * for "scale"): a common start of at least 4 characters that is all
     * but the last character of one and all but at most 3 of the other */
    size_t bestp = 3;
    for (size_t i = 0; i < n; i++) {
        const char *c = candidates[i];
        if (c == NULL)
            continue;
        size_t p = 0, cl = strlen(c);
        while (word[p] != '\0' && word[p] == c[p])
            p++;
        if (p > bestp && ((p + 1 >= cl && p + 3 >= wl) || (p + 1 >= wl && p + 3 >= cl))) {
            best = c;
            bestp = p;
        }
    }
    return best;
}
