/* suggest.h - did-you-mean: the closest known word to a misspelt one.
 *
 * Owns nothing: two pure functions over NUL-terminated strings, used by
 * every module that names what it did not recognise (easing names,
 * expression functions and components, scene keys, command names).
 * A leaf: it includes nothing of runeframe's.
 *
 * Thread-safety: both functions are reentrant and allocate only for words
 * longer than 256 bytes (then from malloc, freed before returning).
 */
#ifndef RF_SUGGEST_H
#define RF_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance, capped: returns cap+1 as soon as it exceeds cap. */
int rf_edit_distance(const char *a, const char *b, int cap);

/* The candidate closest to word when it is close enough to be a likely typo
 * (distance <= 2, and less than the word's length), else one that is
 * another form of the word (a common start of at least 4 characters that
 * is all but the last character of one and all but at most 3 of the
 * other: "rotation" -> "rotate", "scaling" -> "scale"); NULL otherwise. */
const char *rf_did_you_mean(const char *word, const char *const *candidates, size_t n);

#endif
