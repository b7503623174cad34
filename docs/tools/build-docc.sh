#!/usr/bin/env bash
# Builds SleetKit's DocC documentation as a static site, and fails if a public
# symbol has no doc comment or docc warns (an unresolved ``symbol`` link, a
# broken article reference). No SwiftPM docc plugin is needed:
#   1. `swift build --target SleetKit` (debug; a no-op after `swift test`);
#   2. `swift symbolgraph-extract` reads the built modules into one symbol
#      graph for SleetKit, re-exported modules included;
#   3. docs/tools/check_doc_coverage.py lists every undocumented public symbol
#      (file:line) and fails if there is one;
#   4. `docc convert --warnings-as-errors` renders Sources/SleetKit/SleetKit.docc
#      with the symbol graph into a static site.
#
# usage: docs/tools/build-docc.sh [OUTPUT_DIR]      (default .build/docs/SleetKit)
# View:  python3 -m http.server -d .build/docs/SleetKit 8000
#        then open http://localhost:8000/documentation/sleetkit/
# To host under a sub-path (e.g. GitHub Pages' /REPO/), set DOCC_HOSTING_BASE_PATH=REPO.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
output="${1:-$repo/.build/docs/SleetKit}"
graphs="$repo/.build/docs/symbol-graphs"
# Every public module SleetKit re-exports (Sources/SleetKit/SleetKit.swift).
modules=SleetMath,SleetBLAS,SleetParticles,SleetShatter,SleetTransitions,SleetPreview,SleetImport

swift build --target SleetKit
bin="$(swift build --show-bin-path)"
triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"

rm -rf "$graphs"
mkdir -p "$graphs"
# The C shims' module maps (every Sources/C*/module.modulemap) are found
# through -I, as in the build.
shims=()
for map in Sources/C*/module.modulemap; do shims+=(-I "$(dirname "$map")"); done
swift symbolgraph-extract -module-name SleetKit -target "$triple" \
  -I "$bin/Modules" "${shims[@]}" \
  -minimum-access-level public -skip-synthesized-members \
  -experimental-allowed-reexported-modules="$modules" \
  -output-dir "$graphs"

python3 docs/tools/check_doc_coverage.py "$graphs" "$repo"

# SleetGPU is not in the umbrella (docs/gpu.md) and so not in the site, but
# its public symbols are held to the same rule.
swift build --target SleetGPU
gpu_graphs="$graphs-gpu"
rm -rf "$gpu_graphs"
mkdir -p "$gpu_graphs"
swift symbolgraph-extract -module-name SleetGPU -target "$triple" \
  -I "$bin/Modules" "${shims[@]}" \
  -minimum-access-level public -skip-synthesized-members \
  -output-dir "$gpu_graphs"
python3 docs/tools/check_doc_coverage.py "$gpu_graphs" "$repo"

# SleetVideo is not in the umbrella either (docs/rendering.md, "Video"): the
# same rule for its public symbols.
swift build --target SleetVideo
video_graphs="$graphs-video"
rm -rf "$video_graphs"
mkdir -p "$video_graphs"
swift symbolgraph-extract -module-name SleetVideo -target "$triple" \
  -I "$bin/Modules" "${shims[@]}" \
  -minimum-access-level public -skip-synthesized-members \
  -output-dir "$video_graphs"
python3 docs/tools/check_doc_coverage.py "$video_graphs" "$repo"

rm -rf "$output"
hosting=()
if [ -n "${DOCC_HOSTING_BASE_PATH:-}" ]; then hosting=(--hosting-base-path "$DOCC_HOSTING_BASE_PATH"); fi
docc convert Sources/SleetKit/SleetKit.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name SleetKit --fallback-bundle-identifier org.sleetkit.SleetKit \
  --transform-for-static-hosting "${hosting[@]}" \
  --warnings-as-errors \
  --output-path "$output"
echo "build-docc: $output (python3 -m http.server -d $output 8000; open /documentation/sleetkit/)"
