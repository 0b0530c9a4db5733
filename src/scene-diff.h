/* scene-diff.h - what changed between two versions of a scene file, by
 * JSON pointer.
 *
 * Owns: rf_scene_diff_t, the edits that turn one scene text into another,
 * as plain C data (cJSON stays in the loader): check compares the scene it
 * checks with the copy `check --update` recorded (DIR/scene.json) and names
 * the edits that feed the values that moved (check.h).
 *
 * An edit is the smallest JSON value that differs: two objects are compared
 * key by key (the order of keys does not matter; a key only on one side is
 * added or removed), two arrays index by index (the extra entries of the
 * longer one are added or removed), two numbers by value, anything else by
 * type and content. Edits come in the order of the old text, then the
 * additions in the order of the new one. Pointers are RFC 6901 as the
 * loader's messages spell them (diag.h: "~0", "~1", control characters
 * escaped, long keys cut); the texts are compact JSON, cut to
 * RF_SCENE_EDIT_TEXT bytes with "...".
 *
 * Both texts are untrusted (the recorded copy comes from a golden folder,
 * that is from a pull request): each must pass the loader's syntax check
 * (jsonsyn.h: nesting at most RF_MAX_DEPTH, valid UTF-8) and size limit
 * (RF_MAX_FILE_BYTES); at most RF_SCENE_DIFF_MAX edits are kept (the rest
 * counted), and objects are matched through sorted keys, so no input costs
 * more than O(n log n).
 *
 * Thread-safety: no global state; a diff is read-only once made.
 */
#ifndef RF_SCENE_DIFF_H
#define RF_SCENE_DIFF_H

#include <stddef.h>

#define RF_SCENE_DIFF_MAX 1000     /* edits kept per diff */
#define RF_SCENE_EDIT_TEXT 72      /* bytes of a value's text shown, "..." included */

typedef enum rf_scene_edit_kind {
    RF_EDIT_CHANGED = 0,           /* was -> now */
    RF_EDIT_ADDED,                 /* now only */
    RF_EDIT_REMOVED,               /* was only */
} rf_scene_edit_kind_t;

typedef struct rf_scene_edit {
    rf_scene_edit_kind_t kind;
    char *ptr;                     /* "/values/card_x/spring/stiffness"; "" the root */
    char *was;                     /* compact JSON, or NULL (added) */
    char *now;                     /* compact JSON, or NULL (removed) */
} rf_scene_edit_t;

typedef struct rf_scene_diff {
    size_t n;                      /* edits kept, in edits */
    size_t total;                  /* edits found (>= n) */
    rf_scene_edit_t *edits;
} rf_scene_diff_t;

/* Compares the scene text was[0 .. wlen) with now[0 .. nlen). Returns 0
 * with *d filled (d->total == 0: the two are the same JSON), or -1 with
 * one line in err saying why, naming was_name or now_name (not JSON,
 * too deep, too large, out of memory); *d is then empty. Free it with
 * rf_scene_diff_free either way. */
int rf_scene_diff(const char *was, size_t wlen, const char *was_name, const char *now,
                  size_t nlen, const char *now_name, rf_scene_diff_t *d, char *err,
                  size_t errlen);

void rf_scene_diff_free(rf_scene_diff_t *d);

/* One line, no newline: "/values/x/spring/to 300 -> 280",
 * "/layers/3/rotate added: 45", "/values/y removed (was 3)". */
int rf_scene_edit_format(char *buf, size_t cap, const rf_scene_edit_t *e);

#endif
