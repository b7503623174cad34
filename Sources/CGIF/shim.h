// giflib through Debian's libgif-dev (which ships no pkg-config file, hence
// the plain `link "gif"` in module.modulemap). Only SleetPreview's
// GIFStream.swift calls into this module.
#include <gif_lib.h>
