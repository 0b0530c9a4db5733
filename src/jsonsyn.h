/* jsonsyn.h - a JSON syntax pre-check with precise positions.
 *
 * Owns nothing. cJSON says only where it stopped; this scanner walks the
 * text once, without recursion, and reports the first syntax error with its
 * 1-based line and column and a reason ("expected ',' or '}' after an object
 * member", "unterminated string", ...). It also enforces the nesting limit
 * before cJSON (which recurses) ever sees the text, and rejects invalid
 * UTF-8 and raw control characters in strings. Columns count characters
 * (loc.h).
 * Thread-safety: pure functions over the caller's text; reentrant.
 */
#ifndef RF_JSONSYN_H
#define RF_JSONSYN_H

#include <stddef.h>

#include "loc.h"

/* The first syntax error: where (loc.h: the byte offset, the 1-based line,
 * and the 1-based column in characters, UTF-8 code points, as every column
 * runeframe reports) and why. line and col name the same fields as
 * loc.line and loc.col. */
typedef struct rf_json_error {
    union {
        rf_loc_t loc;
        struct {
            size_t off;
            int line;
            int col;
        };
    };
    char reason[160];
} rf_json_error_t;

/* Returns 0 when text[0..len) is one valid JSON value (surrounded by
 * whitespace only) nested at most max_depth deep; else -1 and *err. */
int rf_json_check(const char *text, size_t len, int max_depth, rf_json_error_t *err);

/* 1-based line and column (in characters) of byte offset off in text; the
 * same as rf_loc_at(text, off, off). */
void rf_json_position(const char *text, size_t off, int *line, int *col);

#endif
