// SDL2 through Debian's libsdl2-dev: only `sleet play`'s window
// (Sources/SleetCLI/Play/) calls into this module.
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
