#!/usr/bin/env bash
# Proves that SleetMath and SleetParticles do not need OpenBLAS (README,
# "Products"; docs/architecture.md): builds .ci/fixtures/openblas-free, a
# downstream package that depends on this one by path, and checks with ldd
# that the program using only SleetMath and SleetParticles does not link
# libopenblas, while the control program using SleetBLAS does (so the check
# can fail). Both programs are run. Debug build, ~1-2 min from scratch on 2
# vCPUs; the scratch folder (.build-fixture) makes reruns incremental.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
fixture="$repo/.ci/fixtures/openblas-free"
scratch="$repo/.build-fixture"

swift build --package-path "$fixture" --scratch-path "$scratch"
bin="$(swift build --package-path "$fixture" --scratch-path "$scratch" --show-bin-path)"

fail=0
if ldd "$bin/particles-only" | grep -i openblas; then
  echo "check-openblas-free: particles-only links OpenBLAS (SleetMath/SleetParticles must not)" >&2
  fail=1
fi
# Not `grep -q`: it exits at the first match, ldd may then die of SIGPIPE, and
# with pipefail the pipeline fails although OpenBLAS is linked.
if ! ldd "$bin/with-blas" | grep -i openblas > /dev/null; then
  echo "check-openblas-free: the control with-blas does not link OpenBLAS: the ldd check proves nothing" >&2
  fail=1
fi
"$bin/particles-only"
"$bin/with-blas"
if [ "$fail" -ne 0 ]; then exit 1; fi
echo "check-openblas-free: SleetMath + SleetParticles link without libopenblas"
