/* preview-query.h - the query string of `runeframe preview`'s frame and
 * value requests, as a pure function.
 *
 * Owns: rf_pvq_t, what a request for one time asks (?t=T, ?frame=N, and
 * ?g=G, the page's cache-busting generation, which the server ignores), and
 * the rules it must follow: exactly one of t and frame; t a finite number
 * in [0, RF_PVQ_MAX_T]; frame an integer in [0, nframes); no key twice, no
 * other key; at most RF_PVQ_MAX_LEN bytes of query, RF_PVQ_MAX_FIELD bytes
 * per key or value. A request that breaks one gets a 400 with the one-line
 * message these functions write (input echoed with every byte outside
 * printable ASCII as '?', truncated). No request names a file: there is no
 * key that could.
 *
 * The server hands libmicrohttpd's decoded pairs to rf_pvq_arg();
 * rf_pvq_parse() splits and decodes a raw "a=1&b=2" string the same way
 * (the unit tests and the fuzz harness). Stateless and thread-safe; nothing
 * allocates.
 */
#ifndef RF_PREVIEW_QUERY_H
#define RF_PREVIEW_QUERY_H

#include <stddef.h>

#define RF_PVQ_MAX_LEN 256          /* bytes of a whole raw query */
#define RF_PVQ_MAX_FIELD 64         /* bytes of one key or one value */
#define RF_PVQ_MAX_T 1e6            /* seconds: larger t is a typo, not a frame */

typedef struct rf_pvq {
    int has_t, has_frame, has_g;
    double t;                       /* has_t */
    long frame;                     /* has_frame */
} rf_pvq_t;

/* Empties q. */
void rf_pvq_init(rf_pvq_t *q);

/* One key and its decoded value (NULL: the key had no '='). 0, or -1 with
 * the message in err. */
int rf_pvq_arg(rf_pvq_t *q, const char *key, const char *value, char *err, size_t errlen);

/* After every pair: exactly one of t and frame, and frame < nframes. 0, or
 * -1 with the message in err. */
int rf_pvq_finish(const rf_pvq_t *q, long nframes, char *err, size_t errlen);

/* A raw query of len bytes (no '?'; any bytes, NULs included): split on
 * '&', each part KEY[=VALUE] with '+' as a space and %XX decoded, each
 * given to rf_pvq_arg(). Does not call rf_pvq_finish(). 0, or -1 with the
 * message in err. */
int rf_pvq_parse(const char *query, size_t len, rf_pvq_t *q, char *err, size_t errlen);

#endif
