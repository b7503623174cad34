// libwebp's encoder and its animation encoder (WebPAnimEncoder, in
// libwebpmux) through Debian's libwebp-dev. Only SleetPreview's
// WebPAnimationStream.swift calls into this module.
#include <webp/encode.h>
#include <webp/mux.h>
