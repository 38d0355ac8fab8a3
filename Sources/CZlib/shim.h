#include <zlib.h>

// deflateInit2 and inflateInit2 are macros (they pass zlib's version and the stream's size),
// which Swift cannot import; raw deflate (no zlib header) is what a zip entry holds.
static inline int studykit_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

static inline int studykit_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
