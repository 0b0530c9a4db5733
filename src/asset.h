/* asset.h - reading the files a scene names (fonts, images) under the
 * asset path rules of scene-v1.md "Assets and their paths".
 *
 * Owns: the rule that an asset path is relative, resolved against the
 * scene's folder (then the --assets folder), and read only when the file
 * it resolves to, symbolic links followed, lies inside one of the two
 * folders: an absolute path, a `..` that leaves the folder or a link that
 * points outside is refused. Stateless and thread-safe.
 */
#ifndef RF_ASSET_H
#define RF_ASSET_H

#include <stddef.h>

typedef enum rf_asset_status {
    RF_ASSET_OK = 0,
    RF_ASSET_REFUSED,   /* the path breaks the rules: msg says how */
    RF_ASSET_UNREADABLE,/* missing, not a regular file, a read error */
    RF_ASSET_TOO_LARGE, /* larger than max */
    RF_ASSET_NOMEM,
} rf_asset_status_t;

/* Reads rel whole into *buf (malloc'd; free() it) and its length into
 * *len. root is the scene's folder, assets the --assets folder (both
 * resolved by realpath; assets may be NULL); max the largest size allowed.
 * On failure *buf is NULL and msg holds one line naming rel. */
rf_asset_status_t rf_asset_read(const char *root, const char *assets, const char *rel,
                                size_t max, unsigned char **buf, size_t *len, char *msg,
                                size_t msglen);

#endif
