/* jsonsyn.h - a JSON syntax pre-check with precise positions.
 *
 * Owns nothing. cJSON says only where it stopped; this scanner walks the
 * text once, without recursion, and reports the first syntax error with its
 * 1-based line and column and a reason ("expected ',' or '}' after an object
 * member", "unterminated string", ...). It also enforces the nesting limit
 * before cJSON (which recurses) ever sees the text, and rejects invalid
 * UTF-8 and raw control characters in strings.
 */
#ifndef RF_JSONSYN_H
#define RF_JSONSYN_H

#include <stddef.h>

typedef struct rf_json_error {
    int line;        /* 1-based */
    int col;         /* 1-based, in bytes */
    char reason[160];
} rf_json_error_t;

/* Returns 0 when text[0..len) is one valid JSON value (surrounded by
 * whitespace only) nested at most max_depth deep; else -1 and *err. */
int rf_json_check(const char *text, size_t len, int max_depth, rf_json_error_t *err);

/* 1-based line and column of byte offset off in text. */
void rf_json_position(const char *text, size_t off, int *line, int *col);

#endif
