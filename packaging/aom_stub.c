/* libaom (the AV1 codec) as a stub: every routine libavif calls, none doing any coding.
 *
 * opencv-python-headless links libavif for AVIF images, and libavif links libaom (8 MB). The station reads and
 * writes JPEG and PNG only; with this stub an AVIF file fails to decode with an error, as a damaged file would.
 * Routines returning an aom_codec_err_t answer AOM_CODEC_INCAPABLE (4); codec interfaces are NULL (no AV1 here).
 * shims.stub_av1 checks at build time that libavif needs nothing this file lacks.
 */
#include <stddef.h>

#define INCAPABLE 4

static const char *const LEFT_OUT = "AV1 (libaom) is left out of this station build: AVIF images are not read";

const void *aom_codec_av1_cx(void) { return NULL; }
const void *aom_codec_av1_dx(void) { return NULL; }
int aom_codec_control(void *ctx, int id, ...) { (void)ctx; (void)id; return INCAPABLE; }
int aom_codec_dec_init_ver(void *ctx, const void *iface, const void *cfg, long flags, int ver) {
    (void)ctx; (void)iface; (void)cfg; (void)flags; (void)ver; return INCAPABLE;
}
int aom_codec_decode(void *ctx, const unsigned char *data, size_t size, void *user) {
    (void)ctx; (void)data; (void)size; (void)user; return INCAPABLE;
}
int aom_codec_destroy(void *ctx) { (void)ctx; return INCAPABLE; }
int aom_codec_enc_config_default(const void *iface, void *cfg, unsigned int usage) {
    (void)iface; (void)cfg; (void)usage; return INCAPABLE;
}
int aom_codec_enc_config_set(void *ctx, const void *cfg) { (void)ctx; (void)cfg; return INCAPABLE; }
int aom_codec_enc_init_ver(void *ctx, const void *iface, const void *cfg, long flags, int ver) {
    (void)ctx; (void)iface; (void)cfg; (void)flags; (void)ver; return INCAPABLE;
}
int aom_codec_encode(void *ctx, const void *img, long long pts, unsigned long duration, long flags) {
    (void)ctx; (void)img; (void)pts; (void)duration; (void)flags; return INCAPABLE;
}
const char *aom_codec_err_to_string(int err) { (void)err; return LEFT_OUT; }
const char *aom_codec_error(const void *ctx) { (void)ctx; return LEFT_OUT; }
const char *aom_codec_error_detail(const void *ctx) { (void)ctx; return LEFT_OUT; }
const void *aom_codec_get_cx_data(void *ctx, const void **iter) { (void)ctx; (void)iter; return NULL; }
void *aom_codec_get_frame(void *ctx, const void **iter) { (void)ctx; (void)iter; return NULL; }
int aom_codec_set_option(void *ctx, const char *name, const char *value) {
    (void)ctx; (void)name; (void)value; return INCAPABLE;
}
int aom_codec_version(void) { return 0; }
const char *aom_codec_version_str(void) { return "stub"; }
void *aom_img_alloc(void *img, int fmt, unsigned int w, unsigned int h, unsigned int align) {
    (void)img; (void)fmt; (void)w; (void)h; (void)align; return NULL;
}
void aom_img_free(void *img) { (void)img; }
