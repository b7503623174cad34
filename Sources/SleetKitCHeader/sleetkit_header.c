// The SleetKitCHeader target is the public header alone (include/sleetkit.h);
// SwiftPM needs a source file to build a C target. Compiling this one also
// compiles the header's layout checks (_Static_assert) with the package.
#include "sleetkit.h"
