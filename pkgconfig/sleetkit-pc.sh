#!/bin/sh
# Writes a pkg-config file for SleetKit's C API (libSleetKitC.so and
# sleetkit.h; docs/c-api.md).
#
#   pkgconfig/sleetkit-pc.sh BUILD_DIR > BUILD_DIR/sleetkit.pc
#       the file for the library in that build folder (e.g. .build/release
#       after `swift build -c release --product SleetKitC`) and the header in
#       this checkout; then
#       PKG_CONFIG_PATH=BUILD_DIR cc app.c $(pkg-config --cflags --libs sleetkit)
#   pkgconfig/sleetkit-pc.sh --prefix PREFIX > PREFIX/lib/pkgconfig/sleetkit.pc
#       the file for an installation under PREFIX
#       (PREFIX/lib/libSleetKitC.so, PREFIX/include/sleetkit.h).
#
# The file goes to standard output.
#
# Libs carry -Wl,-rpath to the library's folder, so programs run without
# LD_LIBRARY_PATH; the library finds the Swift runtime through its own
# RUNPATH (the toolchain's lib/swift/linux).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$root/Sources/SleetMath/SleetVersion.swift")
[ -n "$version" ] || { echo "sleetkit-pc.sh: cannot read the version" >&2; exit 1; }

write() { # libdir includedir
  cat <<PC
libdir=$1
includedir=$2

Name: sleetkit
Description: SleetKit's C API: deterministic particles and view transitions
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lSleetKitC
PC
}

case "${1-}" in
  --prefix)
    [ $# -eq 2 ] || { echo "usage: $0 --prefix PREFIX" >&2; exit 2; }
    write "$2/lib" "$2/include"
    ;;
  "" | -*)
    echo "usage: $0 BUILD_DIR | --prefix PREFIX" >&2
    exit 2
    ;;
  *)
    [ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
    build=$(cd "$1" && pwd)
    [ -f "$build/libSleetKitC.so" ] || echo "sleetkit-pc.sh: warning: no libSleetKitC.so in $build yet" >&2
    write "$build" "$root/Sources/SleetKitCHeader/include"
    ;;
esac
