// libpng and zlib through Debian's libpng-dev and zlib1g-dev.
// Only SleetPreview's image I/O calls into this module.
#include <png.h>
#include <zlib.h>
