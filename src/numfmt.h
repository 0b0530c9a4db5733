/* numfmt.h - printing doubles for people and for round trips, and reading
 * one strictly from a command-line argument.
 *
 * Owns nothing; pure functions writing into caller buffers (>= RF_NUM_BUF).
 * Thread-safety: no state; any thread may call them (the C locale is assumed:
 * nothing here calls setlocale).
 */
#ifndef RF_NUMFMT_H
#define RF_NUMFMT_H

#define RF_NUM_BUF 32

/* Shortest "%.{15,16,17}g" form that reads back as exactly x; "inf", "-inf",
 * "nan" for non-finite values. Used in messages and in `info`. */
const char *rf_num_short(char buf[RF_NUM_BUF], double x);
/* "%.17g": what `sample` prints, so every value round-trips. */
const char *rf_num_exact(char buf[RF_NUM_BUF], double x);
/* As rf_num_short, but JSON: non-finite values are "null". */
const char *rf_num_json(char buf[RF_NUM_BUF], double x);

/* A share (0..1) as a percentage with at least two significant digits and
 * 2 to 8 decimals: 0.25 -> "25.00%", 4.8e-7 -> "0.000048%", 0 -> "0%".
 * Used for differing-pixel shares. */
const char *rf_num_percent(char buf[RF_NUM_BUF], double share);

/* A finite double from a whole argument (no blanks around it, nothing
 * after it): 0, or -1. */
int rf_num_parse(const char *s, double *out);

#endif
