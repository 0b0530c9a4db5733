/* check_report.c - Check suite for report.c (JUnit XML, JSON, HTML reports).
 *
 * The run is built by hand: a frame of every status, an updated golden,
 * hostile text (quotes, <>&, control characters, invalid UTF-8 of every
 * kind, U+2028, U+FFFE, a C1 control, a 10 KB trace, a message cut inside a
 * UTF-8 sequence) in the scene path, the golden folder, messages and trace
 * lines. Expectations are independent of report.c:
 *   - XML is validated by xmllint against tests/junit.xsd, and its values
 *     are read back by xmllint's own parser (XPath), compared with strings
 *     sanitized by hand here (U+FFFD per WHATWG maximal subpart);
 *   - JSON is parsed by cJSON and compared field by field with the run;
 *   - HTML images are decoded by a base64 decoder written here and compared
 *     byte for byte with the files and buffers they came from;
 *   - counts are derived by hand from the statuses listed below;
 *   - atomicity is checked from outside: listings, RLIMIT_FSIZE, /dev/full,
 *     a read-only folder (as an unprivileged user when run as root).
 * xmllint is required (Debian: libxml2-utils); RF_SKIP_XMLLINT=1 skips only
 * the schema and XPath checks.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "report.h"
#include "testutil.h"

#define R "\xEF\xBF\xBD"   /* U+FFFD in UTF-8 */

/* ------------------------------------------------------------ hostile text */

#define SCENE "scenes/we\"ird <&> 'x'\x01\xc3\x28.json"
/* the scene path as each format carries it, decoded by a parser */
#define SCENE_XML "scenes/we\"ird <&> 'x'" R R "(.json"
#define SCENE_JSON "scenes/we\"ird <&> 'x'\x01" R "(.json"
#define SCENE_HTML "scenes/we&quot;ird &lt;&amp;&gt; &#39;x&#39;" R R "(.json"
#define CLASSNAME "runeframe.we\"ird <&> 'x'" R R "("

/* invalid: \xff, \xfe (1 each), \xe2\x82 (one truncated sequence), a
 * surrogate \xed\xa0\x80 (3: \xed cannot start it), overlong \xc0\xaf (2);
 * valid: U+1F600, U+2028, U+FFFE (not an XML character), U+0085 (C1) */
#define MSG1                                                                          \
    "150 different pixels (4.88%) \"q\" 'a' <b> & c\x01\x1f\x7f|\t|\r|\n|bad\xff\xfe|"   \
    "\xe2\x82|\xf0\x9f\x98\x80|\xed\xa0\x80|\xc0\xaf|\xe2\x80\xa8|\xef\xbf\xbe|\xc2\x85|end"
#define MSG1_XML                                                                      \
    "150 different pixels (4.88%) \"q\" 'a' <b> & c" R R "\x7f|\t|\r|\n|bad" R R "|" R   \
    "|\xf0\x9f\x98\x80|" R R R "|" R R "|\xe2\x80\xa8|" R "|\xc2\x85|end"
#define MSG1_JSON                                                                     \
    "150 different pixels (4.88%) \"q\" 'a' <b> & c\x01\x1f\x7f|\t|\r|\n|bad" R R "|" R  \
    "|\xf0\x9f\x98\x80|" R R R "|" R R "|\xe2\x80\xa8|\xef\xbf\xbe|\xc2\x85|end"
#define MSG1_HTML                                                                     \
    "150 different pixels (4.88%) &quot;q&quot; &#39;a&#39; &lt;b&gt; &amp; c" R R R \
    "|\t|\r|\n|bad" R R "|" R "|\xf0\x9f\x98\x80|" R R R "|" R R "|\xe2\x80\xa8|" R "|" R \
    "|end"
/* the raw attribute text in the XML file */
#define MSG1_XML_RAW "&quot;q&quot; &apos;a&apos; &lt;b&gt; &amp; c" R R "\x7f|&#9;|&#13;|&#10;|bad"

#define TRACE1 "card.x at t=0.5333: 212.4 -> 215.0\n<script>alert(1)</script> & \"y\"\n"
#define TRACE1_L0 "card.x at t=0.5333: 212.4 -> 215.0"
#define TRACE1_L1 "<script>alert(1)</script> & \"y\""
#define TRACE1_HTML                                                                   \
    "card.x at t=0.5333: 212.4 -&gt; 215.0\n&lt;script&gt;alert(1)&lt;/script&gt; "    \
    "&amp; &quot;y&quot;\n"

#define GOLD_DIR_NAME "gold &<\"'>"
#define GOLD_DIR_HTML "gold &amp;&lt;&quot;&#39;&gt;"

#define NFRAMES 10
#define BIG_LINES 200
#define BIG_TAIL " by 1.5 px in layer 'card'"

/* ------------------------------------------------------------ helpers */

static char tmpdir[512];

static void setup(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/check_report.XXXXXX", t != NULL && t[0] ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    chmod(tmpdir, 0755);   /* an unprivileged child must reach it */
}

static void teardown(void)
{
    rf_test_rm_rf(tmpdir);
}

static void path_in(char *out, size_t n, const char *name)
{
    int w = snprintf(out, n, "%s/%s", tmpdir, name);
    ck_assert(w > 0 && (size_t)w < n);
}

static void spit(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_msg(fp != NULL, "%s: %s", path, strerror(errno));
    ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
    ck_assert_int_eq(fclose(fp), 0);
}

/* The whole file, NUL-terminated (the NUL not counted in *len). */
static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0)
            break;
    }
    ck_assert(!ferror(fp));
    fclose(fp);
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (hidden ones too), sorted, each followed by '|'. */
static void list_dir(const char *dir, char *out, size_t n)
{
    char *names[256];
    size_t k = 0;
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        ck_assert_uint_lt(k, 256);
        names[k++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, k, sizeof names[0], cmp_names);
    out[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        strncat(out, names[i], n - strlen(out) - 1);
        strncat(out, "|", n - strlen(out) - 1);
        free(names[i]);
    }
}

static size_t count_str(const char *hay, const char *needle)
{
    size_t c = 0, n = strlen(needle);
    for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + n, needle))
        c++;
    return c;
}

/* Strict UTF-8 check (RFC 3629), written independently of report.c's. */
static int utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t k;
        uint32_t v, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            k = 1, v = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            k = 2, v = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            k = 3, v = c & 0x07, min = 0x10000;
        } else {
            return 0;
        }
        for (size_t j = 1; j <= k; j++) {
            if (i + j >= n || (s[i + j] & 0xC0) != 0x80)
                return 0;
            v = (v << 6) | (s[i + j] & 0x3F);
        }
        if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
            return 0;
        i += k + 1;
    }
    return 1;
}

/* 1 when no byte is a C0 control other than tab, LF, CR. */
static int no_raw_controls(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return 0;
    return 1;
}

/* RFC 4648 base64 (with padding) -> bytes; -1 on any malformed input. */
static long b64_decode(const char *s, size_t n, uint8_t *out, size_t cap)
{
    if (n % 4 != 0)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i += 4) {
        uint32_t v = 0;
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            char c = s[i + j];
            int d;
            if (c >= 'A' && c <= 'Z')
                d = c - 'A';
            else if (c >= 'a' && c <= 'z')
                d = c - 'a' + 26;
            else if (c >= '0' && c <= '9')
                d = c - '0' + 52;
            else if (c == '+')
                d = 62;
            else if (c == '/')
                d = 63;
            else if (c == '=' && i + 4 == n && j >= 2)
                d = 0, pad++;
            else
                return -1;
            if (pad > 0 && c != '=')
                return -1;
            v = (v << 6) | (uint32_t)d;
        }
        uint8_t b[3] = { (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
        for (int j = 0; j < 3 - pad; j++) {
            if (k >= cap)
                return -1;
            out[k++] = b[j];
        }
    }
    return (long)k;
}

static int in_child(int (*fn)(void *), void *arg)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(fn(arg));
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ------------------------------------------------------------ xmllint */

/* The path of xmllint on PATH, or NULL. */
static const char *xmllint_find(void)
{
    static char found[1024];
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/usr/bin:/bin";
    while (*path != '\0') {
        const char *colon = strchr(path, ':');
        size_t n = colon != NULL ? (size_t)(colon - path) : strlen(path);
        snprintf(found, sizeof found, "%.*s/xmllint", (int)(n > 0 ? n : 1),
                 n > 0 ? path : ".");
        if (access(found, X_OK) == 0)
            return found;
        path += n + (colon != NULL);
    }
    return NULL;
}

/* Whether the XML checks can run: xmllint's path; NULL when
 * RF_SKIP_XMLLINT=1 says to skip them. Without xmllint the test fails. */
static const char *xmllint_required(void)
{
    const char *x = xmllint_find();
    const char *skip = getenv("RF_SKIP_XMLLINT");
    if (x == NULL && skip != NULL && strcmp(skip, "1") == 0)
        return NULL;
    ck_assert_msg(x != NULL, "xmllint not found: install libxml2-utils (apt-get install "
                             "libxml2-utils), or set RF_SKIP_XMLLINT=1 to skip XML validation");
    return x;
}

/* Runs argv with stdout captured into out (NUL-terminated); returns the
 * exit status. stderr is captured into errout when it is not NULL. */
static int run_capture(char *const argv[], char *out, size_t n, char *errout, size_t errn)
{
    int po[2], pe[2];
    ck_assert_int_eq(pipe(po), 0);
    ck_assert_int_eq(pipe(pe), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        close(po[1]);
        close(pe[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    size_t k = 0, ke = 0;
    char sink[4096];
    int open_o = 1, open_e = 1;
    /* read both pipes to the end (stderr is small: read it after stdout) */
    while (open_o) {
        ssize_t r = read(po[0], k + 1 < n ? out + k : sink,
                         k + 1 < n ? n - 1 - k : sizeof sink);
        if (r <= 0) {
            open_o = 0;
            break;
        }
        if (k + 1 < n)
            k += (size_t)r;
    }
    while (open_e) {
        ssize_t r = read(pe[0], errout != NULL && ke + 1 < errn ? errout + ke : sink,
                         errout != NULL && ke + 1 < errn ? errn - 1 - ke : sizeof sink);
        if (r <= 0)
            break;
        if (errout != NULL && ke + 1 < errn)
            ke += (size_t)r;
    }
    close(po[0]);
    close(pe[0]);
    out[k] = '\0';
    if (errout != NULL)
        errout[ke] = '\0';
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static const char *schema_path(void)
{
    static char p[2048];
    const char *top = getenv("top_srcdir");
    snprintf(p, sizeof p, "%s/tests/junit.xsd", top != NULL && top[0] ? top : ".");
    ck_assert_msg(access(p, R_OK) == 0, "%s: %s (set top_srcdir)", p, strerror(errno));
    return p;
}

static void xml_validate(const char *xmllint, const char *file)
{
    char out[4096], errs[8192];
    char *argv[] = { (char *)xmllint, "--noout", "--schema", (char *)schema_path(),
                     (char *)file, NULL };
    int rc = run_capture(argv, out, sizeof out, errs, sizeof errs);
    ck_assert_msg(rc == 0, "xmllint --schema failed (%d): %s", rc, errs);
}

/* The value of an XPath expression on file, as xmllint prints it, without
 * trailing newlines (newer xmllint versions add one): expected values here
 * never end with one. */
static char *xpath(const char *xmllint, const char *file, const char *expr)
{
    static char out[1 << 16];
    char errs[4096];
    char *argv[] = { (char *)xmllint, "--xpath", (char *)expr, (char *)file, NULL };
    int rc = run_capture(argv, out, sizeof out, errs, sizeof errs);
    ck_assert_msg(rc == 0, "xmllint --xpath '%s' failed (%d): %s", expr, rc, errs);
    size_t n = strlen(out);
    while (n > 0 && out[n - 1] == '\n')
        out[--n] = '\0';
    return out;
}

#define XPATH_EQ(x, file, expr, want)                                                  \
    do {                                                                               \
        const char *got_ = xpath((x), (file), (expr));                                 \
        ck_assert_msg(strcmp(got_, (want)) == 0, "%s: got [%s], want [%s]", (expr),    \
                      got_, (want));                                                   \
    } while (0)

/* Raw value of attribute attr in the nth (0-based) start tag <tag ...>. */
static int raw_attr(const char *doc, const char *tag, int nth, const char *attr, char *out,
                    size_t n)
{
    char open[64], key[64];
    snprintf(open, sizeof open, "<%s ", tag);
    snprintf(key, sizeof key, " %s=\"", attr);
    const char *p = doc;
    for (int i = 0; i <= nth; i++) {
        p = strstr(p, open);
        if (p == NULL)
            return -1;
        if (i < nth)
            p++;
    }
    const char *end = strchr(p, '>');
    const char *a = strstr(p, key);
    if (a == NULL || end == NULL || a > end)
        return -1;
    a += strlen(key);
    const char *q = strchr(a, '"');
    if (q == NULL || (size_t)(q - a) >= n)
        return -1;
    memcpy(out, a, (size_t)(q - a));
    out[q - a] = '\0';
    return 0;
}

#define RAW_ATTR_EQ(doc, tag, nth, attr, want)                                          \
    do {                                                                                \
        char v_[4096];                                                                  \
        ck_assert_msg(raw_attr((doc), (tag), (nth), (attr), v_, sizeof v_) == 0,        \
                      "no %s in <%s> #%d", (attr), (tag), (nth));                       \
        ck_assert_msg(strcmp(v_, (want)) == 0, "<%s> #%d %s: got [%s], want [%s]",      \
                      (tag), (nth), (attr), v_, (want));                                \
    } while (0)

/* ------------------------------------------------------------ the run */

typedef struct fixture {
    rf_check_run_t run;
    rf_check_frame_t frames[NFRAMES];
    char golden_dir[1024];
    char big_trace[BIG_LINES * 64];
    char big_line[BIG_LINES][64];   /* the expected JSON value of each line */
    uint8_t golden32[1008], actual32[1001], diff32[1003];
    uint8_t golden41[18], golden9999[13], golden50[28], actual40[50];
} fixture_t;

static fixture_t fx;

/* Deterministic bytes covering every value. */
static void fill_bytes(uint8_t *p, size_t n, uint32_t seed, int png)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    uint32_t s = seed;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        p[i] = (uint8_t)(s >> 16) ^ (uint8_t)i;
    }
    if (png)
        memcpy(p, sig, 8);
}

static void set_frame(rf_check_frame_t *f, long index, rf_check_status_t st, double secs)
{
    memset(f, 0, sizeof *f);
    f->index = index;
    f->t = (double)index / 60.0;
    snprintf(f->name, sizeof f->name, "frame-%05ld", index);
    f->status = st;
    f->seconds = secs;
}

static void golden_path_of(rf_check_frame_t *f, const char *file)
{
    snprintf(f->golden_path, sizeof f->golden_path, "%s/%s", fx.golden_dir, file);
}

static void buf_of(rf_png_buffer_t *b, uint8_t *data, size_t len)
{
    b->data = data;
    b->len = len;
    b->cap = len;
}

/* frames:  0 pass | 1 different (images kept, hostile message, trace) |
 *          2 missing | 3 size | 4 unreadable | 5 no-frame | 6 error |
 *          7 different, updated | 8 different (10 KB trace) | 9 pass
 * JUnit:   failures 1 2 3 5 8 = 5, errors 4 6 = 2, passes 0 7 9
 * summary: passed (status pass) 2, failed 7, updated 1 */
static void fixture_build(void)
{
    memset(&fx, 0, sizeof fx);
    snprintf(fx.golden_dir, sizeof fx.golden_dir, "%s/%s", tmpdir, GOLD_DIR_NAME);
    ck_assert_int_eq(mkdir(fx.golden_dir, 0755), 0);
    fill_bytes(fx.golden32, sizeof fx.golden32, 1, 1);
    fill_bytes(fx.actual32, sizeof fx.actual32, 2, 0);
    fill_bytes(fx.diff32, sizeof fx.diff32, 3, 0);
    fill_bytes(fx.golden41, sizeof fx.golden41, 4, 1);
    fill_bytes(fx.golden9999, sizeof fx.golden9999, 5, 1);
    fill_bytes(fx.golden50, sizeof fx.golden50, 6, 1);
    fill_bytes(fx.actual40, sizeof fx.actual40, 7, 0);

    rf_check_frame_t *f = fx.frames;
    set_frame(&f[0], 0, RF_CHECK_PASS, 0.0123);
    f[0].diff.pixels = 64 * 48;
    golden_path_of(&f[0], "frame-00000.png");

    set_frame(&f[1], 32, RF_CHECK_DIFFERENT, 1.23456);
    f[1].diff = (rf_diff_result_t){ 150, 7, 3072, 3, 4, 20, 30 };
    snprintf(f[1].message, sizeof f[1].message, "%s", MSG1);
    f[1].trace = (char *)TRACE1;
    golden_path_of(&f[1], "frame-00032.png");
    snprintf(f[1].diff_path, sizeof f[1].diff_path, "%s/diffs/frame-00032.diff.png", tmpdir);
    buf_of(&f[1].actual_png, fx.actual32, sizeof fx.actual32);
    buf_of(&f[1].diff_png, fx.diff32, sizeof fx.diff32);

    set_frame(&f[2], 40, RF_CHECK_MISSING, 0.5);
    snprintf(f[2].message, sizeof f[2].message, "no golden %s/frame-00040.png", GOLD_DIR_NAME);
    golden_path_of(&f[2], "frame-00040.png");
    buf_of(&f[2].actual_png, fx.actual40, sizeof fx.actual40);

    set_frame(&f[3], 41, RF_CHECK_SIZE, 0.5);
    f[3].golden_width = 32;
    f[3].golden_height = 24;
    snprintf(f[3].message, sizeof f[3].message, "golden is 32x24, the scene is 64x48");
    golden_path_of(&f[3], "frame-00041.png");

    set_frame(&f[4], 42, RF_CHECK_UNREADABLE, 0.5);
    snprintf(f[4].message, sizeof f[4].message, "frame-00042.png: not a PNG file");
    golden_path_of(&f[4], "frame-00042.png");

    set_frame(&f[5], 9999, RF_CHECK_NO_FRAME, -1.0);
    snprintf(f[5].message, sizeof f[5].message, "a golden for frame 9999, beyond the scene");
    golden_path_of(&f[5], "frame-09999.png");

    set_frame(&f[6], 43, RF_CHECK_ERROR, 0.5);
    snprintf(f[6].message, sizeof f[6].message, "render failed: Cannot allocate memory");

    set_frame(&f[7], 50, RF_CHECK_DIFFERENT, 0.5);
    f[7].updated = 1;
    f[7].diff = (rf_diff_result_t){ 2, 0, 3072, 5, 5, 6, 5 };
    snprintf(f[7].message, sizeof f[7].message, "2 different pixels (0.065%%)");
    golden_path_of(&f[7], "frame-00050.png");
    buf_of(&f[7].actual_png, fx.golden50, sizeof fx.golden50);

    set_frame(&f[8], 51, RF_CHECK_DIFFERENT, 0.5);
    f[8].diff = (rf_diff_result_t){ 3072, 0, 3072, 0, 0, 63, 47 };
    /* 509 bytes and a UTF-8 sequence cut at the end of the field */
    memset(f[8].message, 'm', 509);
    memcpy(f[8].message + 509, "\xe2\x82", 3);
    golden_path_of(&f[8], "frame-00051.png");   /* does not exist */
    size_t k = 0;
    for (int i = 0; i < BIG_LINES; i++) {
        k += (size_t)snprintf(fx.big_trace + k, sizeof fx.big_trace - k,
                              "value_%03d moved <&> \"%d\" \x02" BIG_TAIL "\n", i, i * 7);
        snprintf(fx.big_line[i], sizeof fx.big_line[i], "value_%03d moved <&> \"%d\" \x02" BIG_TAIL,
                 i, i * 7);
    }
    ck_assert_uint_ge(k, 10000);   /* the 10 KB text */
    f[8].trace = fx.big_trace;

    set_frame(&f[9], 60, RF_CHECK_PASS, NAN);
    f[9].diff.pixels = 64 * 48;
    golden_path_of(&f[9], "frame-00060.png");

    rf_check_run_t *run = &fx.run;
    run->scene_path = SCENE;
    run->golden_dir = fx.golden_dir;
    run->width = 64;
    run->height = 48;
    run->diff = (rf_diff_options_t)RF_DIFF_OPTIONS_DEFAULT;
    run->diff.include_aa = 0;   /* --aa */
    run->diff.threshold = 0.25;
    run->max_diff_pixels = 5;
    run->max_diff_ratio = 0.001;
    run->update = 0;
    run->nframes = NFRAMES;
    run->frames = fx.frames;
    run->passed = 2;
    run->failed = 7;
    run->updated = 1;
    run->io_errors = 2;
    run->seconds = 12.3456;
    snprintf(run->timestamp, sizeof run->timestamp, "2024-05-06T07:08:09Z");

    char p[2048];
    snprintf(p, sizeof p, "%s/frame-00032.png", fx.golden_dir);
    spit(p, fx.golden32, sizeof fx.golden32);
    snprintf(p, sizeof p, "%s/frame-00041.png", fx.golden_dir);
    spit(p, fx.golden41, sizeof fx.golden41);
    snprintf(p, sizeof p, "%s/frame-00042.png", fx.golden_dir);
    spit(p, "not a png", 9);
    snprintf(p, sizeof p, "%s/frame-09999.png", fx.golden_dir);
    spit(p, fx.golden9999, sizeof fx.golden9999);
    snprintf(p, sizeof p, "%s/frame-00050.png", fx.golden_dir);
    spit(p, fx.golden50, sizeof fx.golden50);
}

static void write_ok(const rf_check_run_t *run, const char *path)
{
    char err[1024] = "";
    int rc = rf_report_write(run, path, err, sizeof err);
    ck_assert_msg(rc == 0, "rf_report_write(%s): %s", path, err);
}

/* ------------------------------------------------------------ kinds */

START_TEST(kind_by_extension)
{
    static const struct {
        const char *path;
        int kind;
    } cases[] = {
        { "r.xml", RF_REPORT_JUNIT },       { "out/REPORT.XML", RF_REPORT_JUNIT },
        { "a.b.Xml", RF_REPORT_JUNIT },     { "r.json", RF_REPORT_JSON },
        { "/x/y.JSON", RF_REPORT_JSON },    { "r.html", RF_REPORT_HTML },
        { "r.HTM", RF_REPORT_HTML },        { "d.xml/r.HtMl", RF_REPORT_HTML },
        { "r.txt", -1 },                    { "r.xml.bak", -1 },
        { "xml", -1 },                      { "r.", -1 },
        { "r", -1 },                        { "", -1 },
        { "dir.xml/", -1 },                 { "r.xm", -1 },
        { "r.jsonl", -1 },                  { "r.xhtml", -1 },
        { ".xml", -1 },                     { "d/.json", -1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(rf_report_kind_of(cases[i].path) == cases[i].kind, "%s: %d, want %d",
                      cases[i].path, rf_report_kind_of(cases[i].path), cases[i].kind);
    ck_assert_int_eq(rf_report_kind_of(NULL), -1);
}
END_TEST

START_TEST(unknown_extension_writes_nothing)
{
    fixture_build();
    char p[1024], err[1024] = "", names[4096];
    path_in(p, sizeof p, "report.txt");
    errno = 0;
    ck_assert_int_eq(rf_report_write(&fx.run, p, err, sizeof err), -1);
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_ptr_nonnull(strstr(err, p));
    ck_assert_ptr_null(strchr(err, '\n'));
    list_dir(tmpdir, names, sizeof names);
    ck_assert_str_eq(names, GOLD_DIR_NAME "|");
}
END_TEST

/* ------------------------------------------------------------ JUnit XML */

START_TEST(junit_validates_and_counts)
{
    fixture_build();
    char p[1024];
    path_in(p, sizeof p, "report.xml");
    write_ok(&fx.run, p);
    size_t len;
    char *doc = slurp(p, &len);

    /* well-formed text: the declaration first, UTF-8, no forbidden bytes */
    ck_assert(strncmp(doc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39) == 0);
    ck_assert(utf8_valid((const unsigned char *)doc, len));
    ck_assert(no_raw_controls((const unsigned char *)doc, len));
    ck_assert_ptr_null(strstr(doc, "\xef\xbf\xbe"));   /* U+FFFE is not XML */

    /* counts by string search (hand-derived: see fixture_build) */
    RAW_ATTR_EQ(doc, "testsuites", 0, "name", "runeframe check");
    RAW_ATTR_EQ(doc, "testsuites", 0, "tests", "10");
    RAW_ATTR_EQ(doc, "testsuites", 0, "failures", "5");
    RAW_ATTR_EQ(doc, "testsuites", 0, "errors", "2");
    RAW_ATTR_EQ(doc, "testsuites", 0, "time", "12.346");
    RAW_ATTR_EQ(doc, "testsuite", 0, "tests", "10");
    RAW_ATTR_EQ(doc, "testsuite", 0, "failures", "5");
    RAW_ATTR_EQ(doc, "testsuite", 0, "errors", "2");
    RAW_ATTR_EQ(doc, "testsuite", 0, "skipped", "0");
    RAW_ATTR_EQ(doc, "testsuite", 0, "time", "12.346");
    RAW_ATTR_EQ(doc, "testsuite", 0, "timestamp", "2024-05-06T07:08:09Z");
    ck_assert_uint_eq(count_str(doc, "<testsuite "), 1);
    ck_assert_uint_eq(count_str(doc, "<testcase "), 10);
    ck_assert_uint_eq(count_str(doc, "<failure "), 5);
    ck_assert_uint_eq(count_str(doc, "<error "), 2);
    ck_assert_uint_eq(count_str(doc, "<system-out>"), 1);
    ck_assert_uint_eq(count_str(doc, "<properties>"), 1);
    RAW_ATTR_EQ(doc, "testcase", 0, "time", "0.012");
    RAW_ATTR_EQ(doc, "testcase", 1, "time", "1.235");
    RAW_ATTR_EQ(doc, "testcase", 5, "time", "0.000");   /* negative */
    RAW_ATTR_EQ(doc, "testcase", 9, "time", "0.000");   /* NaN */
    ck_assert_ptr_nonnull(strstr(doc, MSG1_XML_RAW));
    /* the 10 KB trace: every line, escaped */
    ck_assert_uint_eq(count_str(doc, "moved &lt;&amp;&gt; &quot;"), BIG_LINES);

    const char *x = xmllint_required();
    if (x != NULL) {
        xml_validate(x, p);
        /* values as a real XML parser reads them */
        static const char *const names[NFRAMES] = {
            "frame-00000 t=0",        "frame-00032 t=0.533333", "frame-00040 t=0.666667",
            "frame-00041 t=0.683333", "frame-00042 t=0.7",      "frame-09999 t=166.65",
            "frame-00043 t=0.716667", "frame-00050 t=0.833333", "frame-00051 t=0.85",
            "frame-00060 t=1",
        };
        /* "" pass, else the element and its type */
        static const char *const kinds[NFRAMES][2] = {
            { "", "" },                  { "failure", "different" }, { "failure", "missing" },
            { "failure", "size" },       { "error", "unreadable" },  { "failure", "no-frame" },
            { "error", "error" },        { "", "" },                 { "failure", "different" },
            { "", "" },
        };
        char expr[256];
        for (int i = 0; i < NFRAMES; i++) {
            snprintf(expr, sizeof expr, "string(/testsuites/testsuite/testcase[%d]/@name)", i + 1);
            XPATH_EQ(x, p, expr, names[i]);
            snprintf(expr, sizeof expr, "string(/testsuites/testsuite/testcase[%d]/@classname)",
                     i + 1);
            XPATH_EQ(x, p, expr, CLASSNAME);
            snprintf(expr, sizeof expr, "count(/testsuites/testsuite/testcase[%d]/*)", i + 1);
            XPATH_EQ(x, p, expr, kinds[i][0][0] != '\0' || i == 7 ? "1" : "0");
            if (kinds[i][0][0] != '\0') {
                snprintf(expr, sizeof expr, "string(/testsuites/testsuite/testcase[%d]/%s/@type)",
                         i + 1, kinds[i][0]);
                XPATH_EQ(x, p, expr, kinds[i][1]);
            }
        }
        XPATH_EQ(x, p, "string(/testsuites/testsuite/@name)", SCENE_XML);
        XPATH_EQ(x, p, "string(/testsuites/testsuite/testcase[2]/failure/@message)", MSG1_XML);
        /* the text: the message, then the trace lines, then the diff image */
        char want[4096];
        snprintf(want, sizeof want, "%s\n%s\n%s\ndiff image: %s/diffs/frame-00032.diff.png",
                 MSG1_XML, TRACE1_L0, TRACE1_L1, tmpdir);
        XPATH_EQ(x, p, "string(/testsuites/testsuite/testcase[2]/failure)", want);
        XPATH_EQ(x, p, "string(/testsuites/testsuite/testcase[4]/failure/@message)",
                 "golden is 32x24, the scene is 64x48");
        XPATH_EQ(x, p, "string(/testsuites/testsuite/testcase[7]/error/@message)",
                 "render failed: Cannot allocate memory");
        /* the message cut in a UTF-8 sequence */
        char cut[600];
        memset(cut, 'm', 509);
        memcpy(cut + 509, R, 4);
        XPATH_EQ(x, p, "string(/testsuites/testsuite/testcase[9]/failure/@message)", cut);
        /* the updated frame: a pass with a note */
        char *out = xpath(x, p, "string(/testsuites/testsuite/testcase[8]/system-out)");
        char gp[2048];
        snprintf(gp, sizeof gp, "golden updated: wrote %s/frame-00050.png\n", fx.golden_dir);
        ck_assert_msg(strncmp(out, gp, strlen(gp)) == 0, "system-out: %s", out);
        ck_assert_ptr_nonnull(strstr(out, "2 different pixels (0.065%)"));
        XPATH_EQ(x, p, "count(/testsuites/testsuite/testcase[8]/system-out)", "1");
        /* properties */
        XPATH_EQ(x, p, "string(//property[@name='golden']/@value)", fx.golden_dir);
        XPATH_EQ(x, p, "string(//property[@name='threshold']/@value)", "0.25");
        XPATH_EQ(x, p, "string(//property[@name='aa']/@value)", "true");
        XPATH_EQ(x, p, "string(//property[@name='max-diff-pixels']/@value)", "5");
        XPATH_EQ(x, p, "string(//property[@name='max-diff-ratio']/@value)", "0.001");
        XPATH_EQ(x, p, "string(//property[@name='update']/@value)", "false");
        XPATH_EQ(x, p, "count(//property)", "6");
        char host[256] = "";
        if (gethostname(host, sizeof host) == 0 && host[0] != '\0')
            XPATH_EQ(x, p, "string(/testsuites/testsuite/@hostname)", host);
        /* the big trace through the parser: line 0 and the last line */
        out = xpath(x, p, "string(/testsuites/testsuite/testcase[9]/failure)");
        ck_assert_ptr_nonnull(strstr(out, "value_000 moved <&> \"0\" " R BIG_TAIL "\n"));
        ck_assert_ptr_nonnull(strstr(out, "value_199 moved <&> \"1393\" " R BIG_TAIL));
    }
    free(doc);
}
END_TEST

START_TEST(junit_schema_rejects_what_it_must)
{
    /* The schema is a real test: documents that break the dialect fail. */
    const char *x = xmllint_required();
    if (x == NULL)
        return;
    static const char *const bad[] = {
        /* time without 3 decimals */
        "<testsuites name=\"a\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"1.5\">"
        "<testsuite name=\"s\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" "
        "time=\"0.000\"/></testsuites>",
        /* two results in one testcase */
        "<testsuites name=\"a\" tests=\"1\" failures=\"1\" errors=\"1\" time=\"1.000\">"
        "<testsuite name=\"s\" tests=\"1\" failures=\"1\" errors=\"1\" skipped=\"0\" "
        "time=\"0.000\"><testcase classname=\"c\" name=\"n\" time=\"0.000\">"
        "<failure message=\"m\" type=\"t\"/><error message=\"m\" type=\"t\"/>"
        "</testcase></testsuite></testsuites>",
        /* a testcase directly in testsuites */
        "<testsuites name=\"a\" tests=\"1\" failures=\"0\" errors=\"0\" time=\"1.000\">"
        "<testcase classname=\"c\" name=\"n\" time=\"0.000\"/></testsuites>",
        /* failure without type */
        "<testsuites name=\"a\" tests=\"1\" failures=\"1\" errors=\"0\" time=\"1.000\">"
        "<testsuite name=\"s\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" "
        "time=\"0.000\"><testcase classname=\"c\" name=\"n\" time=\"0.000\">"
        "<failure message=\"m\"/></testcase></testsuite></testsuites>",
        /* a bad timestamp */
        "<testsuites name=\"a\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"1.000\">"
        "<testsuite name=\"s\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" "
        "time=\"0.000\" timestamp=\"yesterday\"/></testsuites>",
        /* a testsuite as the document element */
        "<testsuite name=\"s\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" "
        "time=\"0.000\"/>",
    };
    static const char good[] =
        "<testsuites name=\"a\" tests=\"1\" failures=\"1\" errors=\"0\" time=\"1.000\">"
        "<testsuite name=\"s\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" "
        "time=\"0.000\" timestamp=\"2024-01-02T03:04:05Z\"><properties><property name=\"k\" "
        "value=\"\"/></properties><testcase classname=\"c\" name=\"n\" time=\"0.000\">"
        "<failure message=\"m\" type=\"t\">text</failure><system-out>o</system-out>"
        "</testcase></testsuite></testsuites>";
    char p[1024], out[256], errs[8192];
    path_in(p, sizeof p, "doc.xml");
    char *argv[] = { (char *)x, "--noout", "--schema", (char *)schema_path(), p, NULL };
    spit(p, good, strlen(good));
    ck_assert_int_eq(run_capture(argv, out, sizeof out, errs, sizeof errs), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        spit(p, bad[i], strlen(bad[i]));
        ck_assert_msg(run_capture(argv, out, sizeof out, errs, sizeof errs) != 0,
                      "bad document %zu validated", i);
    }
}
END_TEST

START_TEST(junit_empty_run_and_plain_scene)
{
    rf_check_run_t run;
    memset(&run, 0, sizeof run);
    run.scene_path = "scenes/card.v2.json";
    run.golden_dir = "golden";
    run.diff = (rf_diff_options_t)RF_DIFF_OPTIONS_DEFAULT;
    snprintf(run.timestamp, sizeof run.timestamp, "not a time");
    char p[1024];
    path_in(p, sizeof p, "empty.xml");
    write_ok(&run, p);
    char *doc = slurp(p, NULL);
    RAW_ATTR_EQ(doc, "testsuites", 0, "tests", "0");
    RAW_ATTR_EQ(doc, "testsuite", 0, "name", "scenes/card.v2.json");
    ck_assert_ptr_null(strstr(doc, "timestamp="));   /* not an xs:dateTime: left out */
    ck_assert_uint_eq(count_str(doc, "<testcase"), 0);

    /* one frame: the classname drops ".json" and turns the other dot into _ */
    rf_check_frame_t f;
    set_frame(&f, 3, RF_CHECK_PASS, 0.0005);
    run.nframes = 1;
    run.frames = &f;
    run.passed = 1;
    run.diff.include_aa = 1;
    write_ok(&run, p);
    free(doc);
    doc = slurp(p, NULL);
    RAW_ATTR_EQ(doc, "testcase", 0, "classname", "runeframe.card_v2");
    RAW_ATTR_EQ(doc, "testcase", 0, "name", "frame-00003 t=0.05");
    RAW_ATTR_EQ(doc, "property", 2, "value", "false");   /* aa: include_aa is 1 */
    const char *x = xmllint_required();
    if (x != NULL)
        xml_validate(x, p);
    free(doc);
}
END_TEST

/* ------------------------------------------------------------ JSON */

static const cJSON *jget(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(v != NULL, "no key %s", key);
    return v;
}

static void jstr_eq(const cJSON *o, const char *key, const char *want)
{
    const cJSON *v = jget(o, key);
    ck_assert_msg(cJSON_IsString(v), "%s is not a string", key);
    ck_assert_msg(strcmp(v->valuestring, want) == 0, "%s: got [%s], want [%s]", key,
                  v->valuestring, want);
}

static void jnum_eq(const cJSON *o, const char *key, double want)
{
    const cJSON *v = jget(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "%s is not a number", key);
    ck_assert_msg(v->valuedouble == want, "%s: got %.17g, want %.17g", key, v->valuedouble,
                  want);
}

static void jbool_eq(const cJSON *o, const char *key, int want)
{
    const cJSON *v = jget(o, key);
    ck_assert_msg(cJSON_IsBool(v), "%s is not a bool", key);
    ck_assert_int_eq(cJSON_IsTrue(v) ? 1 : 0, want);
}

static void jnull(const cJSON *o, const char *key)
{
    ck_assert_msg(cJSON_IsNull(jget(o, key)), "%s is not null", key);
}

static void jints_eq(const cJSON *o, const char *key, const double *want, int n)
{
    const cJSON *v = jget(o, key);
    ck_assert_msg(cJSON_IsArray(v), "%s is not an array", key);
    ck_assert_int_eq(cJSON_GetArraySize(v), n);
    for (int i = 0; i < n; i++)
        ck_assert(cJSON_GetArrayItem(v, i)->valuedouble == want[i]);
}

START_TEST(json_fields_and_values)
{
    fixture_build();
    char p[1024];
    path_in(p, sizeof p, "report.json");
    write_ok(&fx.run, p);
    size_t len;
    char *doc = slurp(p, &len);
    ck_assert(utf8_valid((const unsigned char *)doc, len));
    /* only newlines between tokens; every control inside a string escaped */
    for (size_t i = 0; i < len; i++)
        ck_assert_msg((unsigned char)doc[i] >= 0x20 || doc[i] == '\n', "raw control at %zu", i);
    ck_assert_ptr_nonnull(strstr(doc, "\\u2028"));
    ck_assert_ptr_nonnull(strstr(doc, "\\u0001\\u001f\\u007f|\\t|\\r|\\n|bad\\ufffd\\ufffd|"));

    cJSON *j = cJSON_ParseWithLength(doc, len);
    ck_assert_msg(j != NULL, "JSON does not parse near: %.40s", cJSON_GetErrorPtr());
    ck_assert(cJSON_IsObject(j));
    jstr_eq(j, "scene", SCENE_JSON);
    jstr_eq(j, "golden", fx.golden_dir);
    jnum_eq(j, "width", 64);
    jnum_eq(j, "height", 48);
    const cJSON *opt = jget(j, "options");
    jnum_eq(opt, "threshold", 0.25);
    jbool_eq(opt, "aa", 1);
    jnum_eq(opt, "alpha", 0.1);
    jnum_eq(opt, "max_diff_pixels", 5);
    jnum_eq(opt, "max_diff_ratio", 0.001);
    jbool_eq(opt, "update", 0);
    jnum_eq(j, "passed", 2);
    jnum_eq(j, "failed", 7);
    jnum_eq(j, "updated", 1);
    jnum_eq(j, "seconds", 12.3456);
    jstr_eq(j, "timestamp", "2024-05-06T07:08:09Z");

    const cJSON *frames = jget(j, "frames");
    ck_assert(cJSON_IsArray(frames));
    ck_assert_int_eq(cJSON_GetArraySize(frames), NFRAMES);
    static const char *const status[NFRAMES] = {
        "pass", "different", "missing", "size", "unreadable",
        "no-frame", "error", "different", "different", "pass",
    };
    static const long index[NFRAMES] = { 0, 32, 40, 41, 42, 9999, 43, 50, 51, 60 };
    for (int i = 0; i < NFRAMES; i++) {
        const cJSON *f = cJSON_GetArrayItem(frames, i);
        char name[32];
        snprintf(name, sizeof name, "frame-%05ld", index[i]);
        jnum_eq(f, "frame", (double)index[i]);
        jnum_eq(f, "time", (double)index[i] / 60.0);   /* %.17g: the same double */
        jstr_eq(f, "name", name);
        jstr_eq(f, "status", status[i]);
        jbool_eq(f, "updated", i == 7);
        const char *gp = fx.frames[i].golden_path;
        if (gp[0] != '\0')
            jstr_eq(f, "golden", gp);
        else
            jnull(f, "golden");
        if (i != 1)
            jnull(f, "diff");
        if (i != 3)
            jnull(f, "golden_size");
        if (i != 1 && i != 8)
            ck_assert_int_eq(cJSON_GetArraySize(jget(f, "trace")), 0);
        /* compared frames have counts, the others null */
        int compared = i == 0 || i == 1 || i == 7 || i == 8 || i == 9;
        if (!compared) {
            jnull(f, "different_pixels");
            jnull(f, "pixels");
            jnull(f, "ratio");
            jnull(f, "bbox");
        }
    }
    const cJSON *f0 = cJSON_GetArrayItem(frames, 0);
    jnum_eq(f0, "different_pixels", 0);
    jnum_eq(f0, "pixels", 3072);
    jnum_eq(f0, "ratio", 0);
    jnull(f0, "bbox");
    jstr_eq(f0, "message", "");
    jnum_eq(f0, "seconds", 0.0123);

    const cJSON *f1 = cJSON_GetArrayItem(frames, 1);
    jnum_eq(f1, "different_pixels", 150);
    jnum_eq(f1, "pixels", 3072);
    jnum_eq(f1, "ratio", 150.0 / 3072.0);
    const double bbox[4] = { 3, 4, 20, 30 };
    jints_eq(f1, "bbox", bbox, 4);
    jstr_eq(f1, "message", MSG1_JSON);
    const cJSON *tr = jget(f1, "trace");
    ck_assert_int_eq(cJSON_GetArraySize(tr), 2);
    ck_assert_str_eq(cJSON_GetArrayItem(tr, 0)->valuestring, TRACE1_L0);
    ck_assert_str_eq(cJSON_GetArrayItem(tr, 1)->valuestring, TRACE1_L1);
    char dp[2048];
    snprintf(dp, sizeof dp, "%s/diffs/frame-00032.diff.png", tmpdir);
    jstr_eq(f1, "diff", dp);

    const cJSON *f3 = cJSON_GetArrayItem(frames, 3);
    const double gsize[2] = { 32, 24 };
    jints_eq(f3, "golden_size", gsize, 2);
    jstr_eq(f3, "message", "golden is 32x24, the scene is 64x48");

    jnull(cJSON_GetArrayItem(frames, 6), "golden");   /* "" -> null */
    jnull(cJSON_GetArrayItem(frames, 5), "different_pixels");

    const cJSON *f8 = cJSON_GetArrayItem(frames, 8);
    char cut[600];
    memset(cut, 'm', 509);
    memcpy(cut + 509, R, 4);
    jstr_eq(f8, "message", cut);
    const double bbox8[4] = { 0, 0, 63, 47 };
    jints_eq(f8, "bbox", bbox8, 4);
    jnum_eq(f8, "ratio", 1);
    tr = jget(f8, "trace");
    ck_assert_int_eq(cJSON_GetArraySize(tr), BIG_LINES);
    for (int i = 0; i < BIG_LINES; i++)
        ck_assert_str_eq(cJSON_GetArrayItem(tr, i)->valuestring, fx.big_line[i]);

    jnull(cJSON_GetArrayItem(frames, 9), "seconds");   /* NaN */
    cJSON_Delete(j);
    free(doc);
}
END_TEST

START_TEST(json_non_finite_and_empty)
{
    rf_check_run_t run;
    memset(&run, 0, sizeof run);
    run.diff = (rf_diff_options_t)RF_DIFF_OPTIONS_DEFAULT;
    run.diff.threshold = NAN;
    run.max_diff_ratio = INFINITY;
    run.seconds = -INFINITY;
    run.update = 1;
    run.max_diff_pixels = UINT64_C(18446744073709551615);
    rf_check_frame_t f;
    set_frame(&f, 7, RF_CHECK_MISSING, 0.5);
    f.t = INFINITY;
    run.frames = &f;
    char p[1024];
    path_in(p, sizeof p, "e.json");
    write_ok(&run, p);   /* nframes 0, scene NULL */
    char *doc = slurp(p, NULL);
    cJSON *j = cJSON_Parse(doc);
    ck_assert_ptr_nonnull(j);
    jnull(j, "scene");
    jnull(j, "golden");
    jnull(j, "seconds");
    jnull(jget(j, "options"), "threshold");
    jnull(jget(j, "options"), "max_diff_ratio");
    jbool_eq(jget(j, "options"), "update", 1);
    jbool_eq(jget(j, "options"), "aa", 0);
    ck_assert_ptr_nonnull(strstr(doc, "\"max_diff_pixels\": 18446744073709551615"));
    ck_assert_int_eq(cJSON_GetArraySize(jget(j, "frames")), 0);
    cJSON_Delete(j);
    free(doc);

    run.nframes = 1;
    write_ok(&run, p);
    doc = slurp(p, NULL);
    j = cJSON_Parse(doc);
    ck_assert_ptr_nonnull(j);
    jnull(cJSON_GetArrayItem(jget(j, "frames"), 0), "time");
    cJSON_Delete(j);
    free(doc);
}
END_TEST

/* ------------------------------------------------------------ HTML */

/* The section of the page for frame position pos, as a new string. */
static char *html_section(const char *doc, int pos)
{
    char open[64];
    snprintf(open, sizeof open, "<section class=\"frame\" id=\"f%d\">", pos);
    const char *a = strstr(doc, open);
    if (a == NULL)
        return NULL;
    const char *b = strstr(a, "</section>");
    ck_assert_ptr_nonnull(b);
    return strndup(a, (size_t)(b - a));
}

/* Decodes the nth data: image of s; returns its length (-1: none). */
static long html_image(const char *s, int nth, uint8_t *out, size_t cap)
{
    static const char pre[] = "src=\"data:image/png;base64,";
    const char *p = s;
    for (int i = 0; i <= nth; i++) {
        p = strstr(p, pre);
        if (p == NULL)
            return -1;
        p += strlen(pre);
    }
    const char *q = strchr(p, '"');
    ck_assert_ptr_nonnull(q);
    long n = b64_decode(p, (size_t)(q - p), out, cap);
    ck_assert_msg(n >= 0, "malformed base64");
    return n;
}

static void image_eq(const char *sec, int nth, const uint8_t *want, size_t len)
{
    static uint8_t got[1 << 16];
    long n = html_image(sec, nth, got, sizeof got);
    ck_assert_msg(n == (long)len, "image %d: %ld bytes, want %zu", nth, n, len);
    ck_assert(memcmp(got, want, len) == 0);
}

START_TEST(html_page_images_and_escaping)
{
    fixture_build();
    char p[1024];
    path_in(p, sizeof p, "report.html");
    write_ok(&fx.run, p);
    size_t len;
    char *doc = slurp(p, &len);
    ck_assert(utf8_valid((const unsigned char *)doc, len));
    ck_assert(no_raw_controls((const unsigned char *)doc, len));

    ck_assert(strncmp(doc, "<!DOCTYPE html>", 15) == 0);
    ck_assert_ptr_nonnull(strstr(doc, "<meta charset=\"utf-8\">"));
    ck_assert_ptr_nonnull(strstr(doc, "<title>runeframe check: " SCENE_HTML "</title>"));
    ck_assert_ptr_nonnull(strstr(doc, ">2 passed, 7 failed, 1 updated</p>"));
    ck_assert_ptr_nonnull(strstr(doc, "image-rendering:pixelated"));
    ck_assert_ptr_nonnull(strstr(doc, "max-width:100%"));
    ck_assert_ptr_nonnull(strstr(doc, GOLD_DIR_HTML));
    /* self-contained: no scripts, no external resources, every src a data: URI */
    ck_assert_ptr_null(strstr(doc, "<script"));
    ck_assert_ptr_null(strstr(doc, "<link"));
    ck_assert_ptr_null(strstr(doc, "http:"));
    ck_assert_ptr_null(strstr(doc, "https:"));
    ck_assert_ptr_null(strstr(doc, "url("));
    ck_assert_uint_eq(count_str(doc, "src="), count_str(doc, "src=\"data:image/png;base64,"));
    /* nothing from the run became markup */
    ck_assert_ptr_null(strstr(doc, "<b>"));
    ck_assert_ptr_null(strstr(doc, "<&>"));
    ck_assert_ptr_nonnull(strstr(doc, MSG1_HTML));
    ck_assert_ptr_nonnull(strstr(doc, "<pre class=\"trace\">" TRACE1_HTML "</pre>"));

    /* frame 1: all three images, the exact bytes */
    char *sec = html_section(doc, 1);
    ck_assert_ptr_nonnull(sec);
    ck_assert_uint_eq(count_str(sec, "data:image/png;base64,"), 3);
    image_eq(sec, 0, fx.golden32, sizeof fx.golden32);   /* expected */
    image_eq(sec, 1, fx.actual32, sizeof fx.actual32);   /* actual */
    image_eq(sec, 2, fx.diff32, sizeof fx.diff32);       /* diff */
    ck_assert_ptr_nonnull(strstr(sec, "frame-00032"));
    ck_assert_ptr_nonnull(strstr(sec, "t=0.533333"));
    ck_assert_ptr_nonnull(strstr(sec, "different"));
    ck_assert_ptr_nonnull(strstr(sec, "alt=\"expected"));
    ck_assert_ptr_nonnull(strstr(sec, "alt=\"actual"));
    ck_assert_ptr_nonnull(strstr(sec, "alt=\"diff"));
    ck_assert_ptr_nonnull(strstr(sec, "width=\"64\" height=\"48\""));
    /* the order: expected, actual, diff */
    ck_assert(strstr(sec, "alt=\"expected") < strstr(sec, "alt=\"actual"));
    ck_assert(strstr(sec, "alt=\"actual") < strstr(sec, "alt=\"diff"));
    free(sec);

    /* frame 2, missing: no golden, the render, no diff */
    sec = html_section(doc, 2);
    ck_assert_ptr_nonnull(sec);
    ck_assert_uint_eq(count_str(sec, "data:image/png;base64,"), 1);
    image_eq(sec, 0, fx.actual40, sizeof fx.actual40);
    ck_assert_ptr_nonnull(strstr(sec, "<div class=\"noimg\">no golden"));
    ck_assert_ptr_nonnull(strstr(sec, "<div class=\"noimg\">no diff"));
    ck_assert_ptr_nonnull(strstr(sec, "missing"));
    free(sec);

    /* frame 3, size: the golden, images not kept */
    sec = html_section(doc, 3);
    ck_assert_ptr_nonnull(sec);
    ck_assert_uint_eq(count_str(sec, "data:image/png;base64,"), 1);
    image_eq(sec, 0, fx.golden41, sizeof fx.golden41);
    ck_assert_ptr_nonnull(strstr(sec, "width=\"32\" height=\"24\""));
    ck_assert_ptr_nonnull(strstr(sec, "<div class=\"noimg\">not kept"));
    ck_assert_ptr_nonnull(strstr(sec, "<div class=\"noimg\">no diff: the sizes differ"));
    free(sec);

    /* frame 4, unreadable: a golden that is no PNG is not embedded */
    sec = html_section(doc, 4);
    ck_assert_ptr_nonnull(sec);
    ck_assert_uint_eq(count_str(sec, "data:image"), 0);
    ck_assert_ptr_nonnull(strstr(sec, "<div class=\"noimg\">the golden is not a PNG file"));
    free(sec);

    sec = html_section(doc, 5);   /* no-frame: its golden */
    ck_assert_ptr_nonnull(sec);
    ck_assert_uint_eq(count_str(sec, "data:image"), 1);
    image_eq(sec, 0, fx.golden9999, sizeof fx.golden9999);
    free(sec);

    sec = html_section(doc, 6);   /* error */
    ck_assert_ptr_nonnull(sec);
    ck_assert_uint_eq(count_str(sec, "data:image"), 0);
    ck_assert_ptr_nonnull(strstr(sec, "<div class=\"noimg\">no golden"));
    ck_assert_ptr_nonnull(strstr(sec, "<div class=\"noimg\">no render"));
    free(sec);

    sec = html_section(doc, 7);   /* updated */
    ck_assert_ptr_nonnull(sec);
    ck_assert_ptr_nonnull(strstr(sec, "updated"));
    ck_assert_uint_eq(count_str(sec, "data:image"), 2);
    image_eq(sec, 0, fx.golden50, sizeof fx.golden50);
    image_eq(sec, 1, fx.golden50, sizeof fx.golden50);
    free(sec);

    sec = html_section(doc, 8);   /* the 10 KB trace, escaped */
    ck_assert_ptr_nonnull(sec);
    ck_assert_uint_eq(count_str(sec, "moved &lt;&amp;&gt; &quot;"), BIG_LINES);
    ck_assert_uint_eq(count_str(sec, "data:image"), 0);
    free(sec);

    /* passing frames: no section, a table row each */
    ck_assert_ptr_null(html_section(doc, 0));
    ck_assert_ptr_null(html_section(doc, 9));
    const char *tab = strstr(doc, "Passing frames (2)");
    ck_assert_ptr_nonnull(tab);
    ck_assert_ptr_nonnull(strstr(tab, "<td>frame-00000</td>"));
    ck_assert_ptr_nonnull(strstr(tab, "<td>frame-00060</td>"));
    ck_assert_ptr_null(strstr(tab, "frame-00032"));
    ck_assert_uint_eq(count_str(doc, "data:image/png;base64,"), 8);
    ck_assert_ptr_null(strstr(doc, "image limit"));
    free(doc);
}
END_TEST

START_TEST(html_embed_limit_lists_paths)
{
    fixture_build();
    char p[1024], err[1024];
    path_in(p, sizeof p, "limit.html");
    /* exactly the golden and the render of frame 1 fit */
    size_t max = sizeof fx.golden32 + sizeof fx.actual32;
    ck_assert_int_eq(rf_report_write_embed(&fx.run, p, max, err, sizeof err), 0);
    char *doc = slurp(p, NULL);
    ck_assert_uint_eq(count_str(doc, "data:image/png;base64,"), 2);
    char *sec = html_section(doc, 1);
    image_eq(sec, 0, fx.golden32, sizeof fx.golden32);
    image_eq(sec, 1, fx.actual32, sizeof fx.actual32);
    char dp[2048];
    snprintf(dp, sizeof dp, "<code>%s/diffs/frame-00032.diff.png</code>", tmpdir);
    ck_assert_ptr_nonnull(strstr(sec, dp));   /* the diff by its path */
    ck_assert_ptr_nonnull(strstr(sec, "image limit"));
    free(sec);
    /* later frames: paths, even for images that would fit */
    sec = html_section(doc, 7);
    ck_assert_uint_eq(count_str(sec, "data:image"), 0);
    ck_assert_ptr_nonnull(strstr(sec, "frame-00050.png</code>"));
    ck_assert_ptr_nonnull(strstr(sec, "image limit"));
    free(sec);
    ck_assert_ptr_nonnull(strstr(doc, "class=\"notice\""));
    free(doc);

    /* one byte less: only the golden */
    ck_assert_int_eq(rf_report_write_embed(&fx.run, p, max - 1, err, sizeof err), 0);
    doc = slurp(p, NULL);
    ck_assert_uint_eq(count_str(doc, "data:image/png;base64,"), 1);
    sec = html_section(doc, 1);
    image_eq(sec, 0, fx.golden32, sizeof fx.golden32);
    free(sec);
    free(doc);

    /* zero: none */
    ck_assert_int_eq(rf_report_write_embed(&fx.run, p, 0, err, sizeof err), 0);
    doc = slurp(p, NULL);
    ck_assert_uint_eq(count_str(doc, "data:image"), 0);
    free(doc);
}
END_TEST

START_TEST(html_goldens_that_are_not_embedded)
{
    fixture_build();
    /* frame 1's golden replaced by: a folder, a FIFO, a sparse file over
     * 64 MiB, an empty file */
    char g[2048], p[1024];
    snprintf(g, sizeof g, "%s/frame-00032.png", fx.golden_dir);
    path_in(p, sizeof p, "g.html");
    static const struct {
        int kind;
        const char *why;
    } cases[] = {
        { 0, "not a regular file" },
        { 1, "not a regular file" },
        { 2, "larger than 64 MiB" },
        { 3, "empty" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rf_test_rm_rf(g);
        if (cases[i].kind == 0) {
            ck_assert_int_eq(mkdir(g, 0755), 0);
        } else if (cases[i].kind == 1) {
            ck_assert_int_eq(mkfifo(g, 0644), 0);   /* must not hang */
        } else if (cases[i].kind == 2) {
            spit(g, fx.golden32, 8);
            ck_assert_int_eq(truncate(g, (off_t)(64u << 20) + 1), 0);
        } else {
            spit(g, "", 0);
        }
        write_ok(&fx.run, p);
        char *doc = slurp(p, NULL);
        char *sec = html_section(doc, 1);
        ck_assert_ptr_nonnull(sec);
        ck_assert_msg(strstr(sec, cases[i].why) != NULL, "case %zu: no [%s]", i, cases[i].why);
        ck_assert_uint_eq(count_str(sec, "data:image"), 2);   /* actual and diff */
        image_eq(sec, 0, fx.actual32, sizeof fx.actual32);
        free(sec);
        free(doc);
    }
}
END_TEST

/* ------------------------------------------------------------ atomicity */

START_TEST(existing_report_is_replaced_entirely)
{
    fixture_build();
    static const char *const ext[] = { "xml", "json", "html" };
    rf_check_run_t small;
    memset(&small, 0, sizeof small);
    small.scene_path = "s.json";
    small.golden_dir = "g";
    small.diff = (rf_diff_options_t)RF_DIFF_OPTIONS_DEFAULT;
    rf_check_frame_t f;
    set_frame(&f, 1, RF_CHECK_PASS, 0.001);
    small.frames = &f;
    small.nframes = 1;
    small.passed = 1;
    for (int i = 0; i < 3; i++) {
        char a[1024], b[1024], name[32], names[4096], want[256];
        snprintf(name, sizeof name, "r.%s", ext[i]);
        path_in(a, sizeof a, name);
        snprintf(name, sizeof name, "fresh.%s", ext[i]);
        path_in(b, sizeof b, name);
        write_ok(&fx.run, a);   /* the big report first */
        size_t la, lb;
        free(slurp(a, &la));
        write_ok(&small, a);
        write_ok(&small, b);
        char *ca = slurp(a, &la), *cb = slurp(b, &lb);
        ck_assert_uint_eq(la, lb);
        ck_assert(memcmp(ca, cb, la) == 0);
        free(ca);
        free(cb);
        list_dir(tmpdir, names, sizeof names);
        snprintf(want, sizeof want, "fresh.%s|" GOLD_DIR_NAME "|r.%s|", ext[i], ext[i]);
        ck_assert_str_eq(names, want);
        unlink(a);
        unlink(b);
    }
}
END_TEST

typedef struct child_case {
    char path[1024];
    int drop;          /* 1: write as nobody */
    long fsize;        /* > 0: RLIMIT_FSIZE */
} child_case_t;

static int drop_privileges(void)
{
    if (geteuid() != 0)
        return 0;
    if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
        return -1;
    return 0;
}

/* In the child: write the fixture's report; exit with errno, 0 on success,
 * 201 when the message is not exactly "PATH: strerror(errno)". */
static int child_write(void *arg)
{
    child_case_t *c = arg;
    if (c->drop && drop_privileges() != 0)
        return 200;
    if (c->fsize > 0) {
        struct rlimit rl = { (rlim_t)c->fsize, (rlim_t)c->fsize };
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            return 200;
    }
    char err[2048], want[2048];
    if (rf_report_write(&fx.run, c->path, err, sizeof err) == 0)
        return 0;
    int e = errno;
    snprintf(want, sizeof want, "%s: %s", c->path, strerror(e));
    if (strcmp(err, want) != 0) {
        fprintf(stderr, "err [%s], want [%s]\n", err, want);
        return 201;
    }
    return e;
}

/* Makes every report of the fixture larger than the atomic file's 64 KB
 * stdio buffer, so write errors happen in the middle of the report and not
 * only when it is flushed at the end. */
static void fixture_enlarge(void)
{
    static uint8_t big_png[300000];
    static char big_trace[300000];
    fill_bytes(big_png, sizeof big_png, 9, 0);
    buf_of(&fx.frames[1].actual_png, big_png, sizeof big_png);
    size_t k = 0;
    while (k + 100 < sizeof big_trace)
        k += (size_t)snprintf(big_trace + k, sizeof big_trace - k, "v%zu moved <&>\n", k);
    fx.frames[8].trace = big_trace;
}

START_TEST(write_error_midway_keeps_the_old_report)
{
    fixture_build();
    if (_i == 1)
        fixture_enlarge();
    static const char *const ext[] = { "xml", "json", "html" };
    for (int i = 0; i < 3; i++) {
        child_case_t c = { .fsize = 4096 };   /* every report is > 10 KB */
        char name[32], names[4096], want[256];
        snprintf(name, sizeof name, "r.%s", ext[i]);
        path_in(c.path, sizeof c.path, name);
        spit(c.path, "old report", 10);
        ck_assert_int_eq(in_child(child_write, &c), EFBIG);
        size_t n;
        char *old = slurp(c.path, &n);
        ck_assert_uint_eq(n, 10);
        ck_assert(memcmp(old, "old report", 10) == 0);
        free(old);
        list_dir(tmpdir, names, sizeof names);
        snprintf(want, sizeof want, GOLD_DIR_NAME "|r.%s|", ext[i]);
        ck_assert_str_eq(names, want);
        /* without an old report: nothing at all */
        unlink(c.path);
        ck_assert_int_eq(in_child(child_write, &c), EFBIG);
        list_dir(tmpdir, names, sizeof names);
        ck_assert_str_eq(names, GOLD_DIR_NAME "|");
    }
}
END_TEST

START_TEST(read_only_folder_fails_cleanly)
{
    fixture_build();
    char dir[900], names[4096];
    path_in(dir, sizeof dir, "ro");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    char old[1100];
    snprintf(old, sizeof old, "%s/r.json", dir);
    spit(old, "{}", 2);
    ck_assert_int_eq(chmod(dir, 0555), 0);
    static const char *const name[] = { "r.xml", "r.json", "r.html" };
    for (int i = 0; i < 3; i++) {
        child_case_t c = { .drop = 1 };
        snprintf(c.path, sizeof c.path, "%s/%s", dir, name[i]);
        int rc = in_child(child_write, &c);
        ck_assert_msg(rc == EACCES, "%s: child exit %d (want EACCES %d)", name[i], rc, EACCES);
        list_dir(dir, names, sizeof names);
        ck_assert_str_eq(names, "r.json|");
    }
    size_t n;
    char *s = slurp(old, &n);
    ck_assert_str_eq(s, "{}");
    free(s);
}
END_TEST

START_TEST(missing_folder_and_folder_target)
{
    fixture_build();
    char p[1024], err[2048], want[2048], names[4096];
    path_in(p, sizeof p, "nope/deeper/r.xml");
    ck_assert_int_eq(rf_report_write(&fx.run, p, err, sizeof err), -1);
    ck_assert_int_eq(errno, ENOENT);
    snprintf(want, sizeof want, "%s: %s", p, strerror(ENOENT));
    ck_assert_str_eq(err, want);

    path_in(p, sizeof p, "dir.html");
    ck_assert_int_eq(mkdir(p, 0755), 0);
    ck_assert_int_eq(rf_report_write(&fx.run, p, err, sizeof err), -1);
    ck_assert_int_eq(errno, EISDIR);
    snprintf(want, sizeof want, "%s: %s", p, strerror(EISDIR));
    ck_assert_str_eq(err, want);
    list_dir(tmpdir, names, sizeof names);
    ck_assert_str_eq(names, "dir.html|" GOLD_DIR_NAME "|");
    list_dir(p, names, sizeof names);
    ck_assert_str_eq(names, "");

    /* a short err buffer is truncated, never overrun */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    ck_assert_int_eq(rf_report_write(&fx.run, p, tiny, 5), -1);
    ck_assert_int_eq(tiny[4], '\0');
    ck_assert_int_eq(tiny[5], 'x');
}
END_TEST

START_TEST(full_device_is_enospc)
{
    fixture_build();
    if (_i == 1)
        fixture_enlarge();
    if (access("/dev/full", W_OK) != 0)
        return;   /* no /dev/full in this sandbox: nothing to test */
    static const char *const name[] = { "full.xml", "full.json", "full.html" };
    for (int i = 0; i < 3; i++) {
        char p[1024], err[2048], want[2048], names[4096];
        path_in(p, sizeof p, name[i]);
        ck_assert_int_eq(symlink("/dev/full", p), 0);
        ck_assert_int_eq(rf_report_write(&fx.run, p, err, sizeof err), -1);
        ck_assert_int_eq(errno, ENOSPC);
        snprintf(want, sizeof want, "%s: %s", p, strerror(ENOSPC));
        ck_assert_str_eq(err, want);
        char link[64];
        ssize_t n = readlink(p, link, sizeof link - 1);
        ck_assert_int_eq(n, 9);   /* still the link */
        list_dir(tmpdir, names, sizeof names);
        char w[256];
        snprintf(w, sizeof w, "%s|" GOLD_DIR_NAME "|", name[i]);
        ck_assert_str_eq(names, w);
        unlink(p);
    }
}
END_TEST

/* ------------------------------------------------------------ main */

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *k = tcase_create("kinds");
    tcase_add_checked_fixture(k, setup, teardown);
    tcase_add_test(k, kind_by_extension);
    tcase_add_test(k, unknown_extension_writes_nothing);
    suite_add_tcase(s, k);

    TCase *x = tcase_create("junit");
    tcase_add_checked_fixture(x, setup, teardown);
    tcase_set_timeout(x, 60);
    tcase_add_test(x, junit_validates_and_counts);
    tcase_add_test(x, junit_schema_rejects_what_it_must);
    tcase_add_test(x, junit_empty_run_and_plain_scene);
    suite_add_tcase(s, x);

    TCase *j = tcase_create("json");
    tcase_add_checked_fixture(j, setup, teardown);
    tcase_add_test(j, json_fields_and_values);
    tcase_add_test(j, json_non_finite_and_empty);
    suite_add_tcase(s, j);

    TCase *h = tcase_create("html");
    tcase_add_checked_fixture(h, setup, teardown);
    tcase_add_test(h, html_page_images_and_escaping);
    tcase_add_test(h, html_embed_limit_lists_paths);
    tcase_add_test(h, html_goldens_that_are_not_embedded);
    suite_add_tcase(s, h);

    TCase *a = tcase_create("atomic");
    tcase_add_checked_fixture(a, setup, teardown);
    tcase_add_test(a, existing_report_is_replaced_entirely);
    tcase_add_loop_test(a, write_error_midway_keeps_the_old_report, 0, 2);   /* small, large */
    tcase_add_test(a, read_only_folder_fails_cleanly);
    tcase_add_test(a, missing_folder_and_folder_target);
    tcase_add_loop_test(a, full_device_is_enospc, 0, 2);
    suite_add_tcase(s, a);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(report_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
