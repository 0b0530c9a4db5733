/* scene-image.c - an image layer's `src` (scene-v1.md "Images", "Assets
 * and their paths"): the file read under the asset path rules and decoded
 * once (image.h), shared by every layer that names the same path. A file
 * that cannot be read is an I/O error (exit 3), one that is refused or
 * not a good image a scene error (exit 2). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "scene-int.h"

/* Images a scene may name (distinct files). */
#define MAX_IMAGES 256

void scene_images_destroy(rf_scene_t *sc)
{
    for (uint32_t i = 0; i < sc->nimages; i++)
        rf_image_destroy(sc->images[i]);
    free(sc->images);
    sc->images = NULL;
    sc->nimages = 0;
}

void scene_walk_image(loader_t *L, const cJSON *c, const rf_image_t **out)
{
    rf_scene_t *sc = L->sc;
    qbuf_t a;
    if (!cJSON_IsString(c)) {
        scene_err_key(L, c->string, "must be an image file name, \"media/screen.png\", got %s",
                      scene_json_type(c));
        return;
    }
    for (uint32_t i = 0; i < sc->nimages; i++)
        if (strcmp(sc->images[i]->file, c->valuestring) == 0) {
            *out = sc->images[i];
            return;
        }
    if (sc->nimages >= MAX_IMAGES) {
        scene_err_key(L, c->string, "at most %d image files", MAX_IMAGES);
        return;
    }
    size_t len;
    unsigned char *bytes = scene_read_asset(L, c->string, c->valuestring, RF_IMAGE_MAX_BYTES,
                                            &len, 1);
    if (bytes == NULL)
        return;
    char msg[200];
    rf_image_t *img = rf_image_create(c->valuestring, bytes, len, msg, sizeof msg);
    if (img == NULL) {
        scene_err_key(L, c->string, "'%s': %s", scene_q(&a, c->valuestring), msg);
        return;
    }
    if (sc->images == NULL && (sc->images = calloc(MAX_IMAGES, sizeof *sc->images)) == NULL) {
        rf_image_destroy(img);
        scene_err_oom(L);
        return;
    }
    sc->images[sc->nimages++] = img;
    *out = img;
}
