/* fuzz-query.c - the preview's query rules (preview-query.h).
 *
 * The input is a raw query string, byte for byte (NULs included).
 * Invariants:
 *   - parse then finish either succeed or write a one-line message: not
 *     empty, no newline, only printable ASCII (input is echoed sanitized);
 *   - on success exactly one of t and frame is set, t finite in
 *     [0, RF_PVQ_MAX_T], frame in [0, nframes);
 *   - a longer query than RF_PVQ_MAX_LEN always fails;
 *   - the result does not depend on the input's copy: parsing the same
 *     bytes twice gives the same answer.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "preview-query.h"

#include "fuzz.h"

static int run(const uint8_t *data, size_t size, rf_pvq_t *q, char *err, size_t errlen)
{
    rf_pvq_init(q);
    err[0] = '\0';
    if (rf_pvq_parse((const char *)data, size, q, err, errlen) != 0)
        return -1;
    return rf_pvq_finish(q, 61, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rf_pvq_t q, q2;
    char err[256], err2[256];
    int rc = run(data, size, &q, err, sizeof err);
    int rc2 = run(data, size, &q2, err2, sizeof err2);

    FUZZ_CHECK(rc == rc2 && strcmp(err, err2) == 0, "two parses disagree");
    if (rc != 0) {
        size_t n = strlen(err);
        FUZZ_CHECK(n > 0, "a failure without a message");
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(err[i] >= 0x20 && err[i] < 0x7f, "byte %d in the message", err[i]);
        return 0;
    }
    FUZZ_CHECK(size <= RF_PVQ_MAX_LEN, "a query of %zu bytes passed", size);
    FUZZ_CHECK(q.has_t + q.has_frame == 1, "t %d frame %d", q.has_t, q.has_frame);
    if (q.has_t)
        FUZZ_CHECK(isfinite(q.t) && q.t >= 0 && q.t <= RF_PVQ_MAX_T, "t = %g", q.t);
    else
        FUZZ_CHECK(q.frame >= 0 && q.frame < 61, "frame = %ld", q.frame);
    FUZZ_CHECK(q.t == q2.t && q.frame == q2.frame, "two parses disagree");
    return 0;
}
