// OpenGL ES 3.1 through Debian's libgles-dev (pkg-config `glesv2`); Mesa's
// libgl1-mesa-dri provides the drivers (llvmpipe without a GPU). Only
// SleetGPU calls into this module.
#include <GLES3/gl31.h>
