#!/usr/bin/env bash
# Ranks SleetKit's Swift modules by their unsafe code, for docs/architecture.md
# ("Where unsafe code lives"). Counts, per module (Sources/<Module>), every
# occurrence of the unsafe vocabulary on a line that is not a `//` comment:
#   Unsafe…/unsafe… (pointer and buffer types, withUnsafe…, unsafeBitCast,
#   unsafelyUnwrapped), assumingMemoryBound, bindMemory, baseAddress,
#   OpaquePointer, Unmanaged. A second column counts the files that use them.
# C targets are not counted: C is pointer code throughout.
#
# usage: docs/tools/count_unsafe.sh        (from anywhere in the repository)
set -euo pipefail
cd "$(dirname "$0")/../.."
words='Unsafe|unsafe|assumingMemoryBound|bindMemory|baseAddress|OpaquePointer|Unmanaged'
for dir in Sources/*/; do
  module="$(basename "$dir")"
  uses="$( (grep -rhE --include='*.swift' "$words" "$dir" || true) | (grep -vE '^\s*//' || true) \
    | (grep -oE "$words" || true) | wc -l)"
  files="$( (grep -rlE --include='*.swift' "$words" "$dir" || true) | wc -l)"
  if [ "$uses" -gt 0 ]; then echo "$uses $files $module"; fi
done | sort -rn | awk '{ printf "| `%s` | %d | %d |\n", $3, $1, $2 }'
