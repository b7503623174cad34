#!/usr/bin/env bash
# Installs the Debian packages SleetKit builds, tests and runs its demo with.
#
# The one list of system packages: the README's setup command and .ci/run both
# call this script, and .ci/check-setup.sh fails CI when any other page or
# script installs a different list.
#
#   scripts/setup.sh           install (as root, or through sudo otherwise)
#   scripts/setup.sh --list    print the packages, one a line, and install nothing
#
# Needs Debian 12 or Ubuntu 22.04+ (apt-get). Swift 6.3 is not a Debian
# package: it must already be on PATH (https://www.swift.org/install/linux/).
set -euo pipefail

packages=(
  # Build: pkg-config finds the C libraries below.
  pkg-config
  libopenblas-dev                                # SleetBLAS (TransformBackend.blas)
  libpng-dev zlib1g-dev                          # SleetPreview: PNG, APNG
  libwebp-dev libgif-dev                         # SleetPreview: animated WebP, GIF
  libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri  # SleetGPU (EGL, OpenGL ES 3.1)
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev  # SleetVideo: MP4, WebM, MOV
  libsdl2-dev                                    # sleet play: the live player's window
  # Tests: the C API's ctypes test, the independent image decoders, the demo page in a browser.
  python3 python3-pil chromium
  ffmpeg xvfb                                    # the video tests' decoder (ffprobe); the player under X
)

if [ "${1-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
elif [ $# -gt 0 ]; then
  echo "scripts/setup.sh: unknown argument '$1' (use no argument, or --list)" >&2
  exit 2
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "scripts/setup.sh: apt-get not found: this script needs Debian 12 or Ubuntu 22.04+;" \
    "elsewhere install the equivalents of: ${packages[*]}" >&2
  exit 1
fi

# Root (a container, a CI image) runs apt-get itself; anyone else goes through sudo.
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "scripts/setup.sh: not root and no sudo: run it as root, or install sudo" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq

# Ubuntu ships Chromium as a snap, with no `chromium` package: install the
# rest, and say what the browser test then needs.
if command -v apt-cache >/dev/null 2>&1 && ! apt-cache show chromium >/dev/null 2>&1; then
  packages=("${packages[@]/chromium/}")
  echo "scripts/setup.sh: no 'chromium' package here (Ubuntu ships it as a snap): the browser" \
    "test DemoBrowserTests needs a Chromium at /usr/bin/chromium; everything else is installed" >&2
fi
"${as_root[@]}" apt-get install -y -qq ${packages[@]} >/dev/null

if ! command -v swift >/dev/null 2>&1; then
  echo "scripts/setup.sh: the packages are installed, but swift is not on PATH:" \
    "install Swift 6.3 (https://www.swift.org/install/linux/) and add its usr/bin to PATH" >&2
  exit 1
fi
