// The preview renderer: a software rasterizer for particle and shatter frames,
// and PNG/APNG image files. See docs/rendering.md.
