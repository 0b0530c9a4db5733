/* loc.h - source locations and the caret display under an error, in the
 * manner of jq's locfile.
 *
 * Owns: rf_loc_t, a position in a text (byte offset, 1-based line, 1-based
 * column), and the one renderer of "message + source line + caret" that
 * every positional error uses: JSON syntax errors (jsonsyn via diag),
 * expression errors (expr) and SVG path data errors (path).
 * A leaf: it includes nothing of runeframe's.
 * Thread-safety: pure functions over caller-owned buffers; reentrant.
 *
 * Columns count characters, everywhere: a character is one UTF-8 encoded
 * code point, or one byte that does not start a valid UTF-8 sequence (such
 * a byte shows as '?'). So "é" is one column, and a column never splits a
 * character. A tab or any other control character is one column and shows
 * as one space, so the caret stays aligned. A UTF-8 byte order mark at the
 * start of a text is not a character (column 1 is after it).
 *
 * The display is two lines, each indented by four spaces: the source line,
 * then a caret under the column:
 *
 *     runeframe: scene.json:3:12: expected ':' after an object key
 *         "canvas" {}
 *                  ^
 *
 * Long lines: a line wider than RF_LOC_WIDTH (72) characters shows a window
 * of 72 characters around the column (the column at its middle, or the
 * window pushed against the line's start or end), with "..." where the line
 * is cut, so a line in a minified 60 MB file prints at most 78 characters.
 */
#ifndef RF_LOC_H
#define RF_LOC_H

#include <stddef.h>

/* Characters of the source line a caret display shows at most. */
#define RF_LOC_WIDTH 72

typedef struct rf_loc {
    size_t off;     /* byte offset in the text */
    int line;       /* 1-based */
    int col;        /* 1-based, in characters (see above) */
} rf_loc_t;

/* Bytes of the valid UTF-8 sequence at s[i] (1 to 4), or 0 when the bytes
 * there are not one (overlong forms, surrogates and code points past
 * U+10FFFF are invalid). i < len. */
size_t rf_utf8_len(const unsigned char *s, size_t i, size_t len);

/* The location of byte offset off in text[0 .. len): lines end at '\n'.
 * An offset past len counts one column per byte beyond the end. */
rf_loc_t rf_loc_at(const char *text, size_t len, size_t off);

/* The 1-based column of byte offset off in s[0 .. len) taken as one line
 * (a newline is one more character), e.g. of an expression or path data
 * inside a JSON string; past len, one column per byte. Saturates at INT_MAX. */
int rf_loc_column(const char *s, size_t len, size_t off);

/* The two lines of the display for column col of src[0 .. len), shown as
 * one line: "    SOURCE\n    ^" under col (clamped to just after the
 * end). No trailing newline. snprintf-like: returns the length it needed,
 * writes at most cap bytes, NUL-terminated when cap > 0. */
size_t rf_loc_caret(const char *src, size_t len, int col, char *buf, size_t cap);

/* The renderer of "message + source line + caret": appends "\n" and the
 * display of loc's line of text[0 .. len) (the line without its '\n' or
 * "\r\n") to the NUL-terminated message in msg[0 .. cap), when all of it
 * fits; otherwise, or when that line is empty, msg stays one line.
 * Returns 1 when it appended the display, else 0. */
int rf_loc_attach(char *msg, size_t cap, const char *text, size_t len, const rf_loc_t *loc);

/* The same for an error at column col of a one-line source src[0 .. len)
 * (an expression, path data): appends "\n" and rf_loc_caret()'s display
 * when it fits. Returns 1 when it appended it, else 0. */
int rf_loc_attach_col(char *msg, size_t cap, const char *src, size_t len, int col);

#endif
