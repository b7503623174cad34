// EGL through Debian's libegl-dev (pkg-config `egl`); Mesa's libegl-mesa0
// provides the surfaceless platform. Only SleetGPU calls into this module.
#include <EGL/egl.h>
#include <EGL/eglext.h>
