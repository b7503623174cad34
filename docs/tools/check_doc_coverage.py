#!/usr/bin/env python3
"""Fails if a public symbol of SleetKit has no doc comment of its own.

Reads the symbol graphs docs/tools/build-docc.sh extracts (every module
SleetKit re-exports, merged into SleetKit.symbols.json) and lists each
offender as `Sources/FILE:LINE: kind Name.path`, exit status 1. docc itself
does not warn about undocumented symbols, hence this check.

Counted: every symbol declared in this package's sources (it has a source
location) without a doc comment. Not counted, because the documentation page
shows the protocol's own documentation for them: implementations of a
protocol requirement whose comment is inherited (`sourceOrigin` set, e.g.
`description`, `==`, `hash(into:)`, `encode(to:)`), and members synthesized
by the compiler or inherited from standard-library protocols (no location).

usage: check_doc_coverage.py SYMBOL_GRAPH_DIR REPO_ROOT
"""
import glob
import json
import os
import sys


def main() -> int:
    graph_dir, root = sys.argv[1], os.path.realpath(sys.argv[2])
    offenders, total = [], 0
    for path in sorted(glob.glob(os.path.join(graph_dir, "*.symbols.json"))):
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            location = symbol.get("location")
            if location is None or symbol.get("sourceOrigin"):
                continue
            total += 1
            doc = symbol.get("docComment")
            if doc and any(line.get("text", "").strip() for line in doc.get("lines", [])):
                continue
            uri = location["uri"].removeprefix("file://")
            file = os.path.relpath(os.path.realpath(uri), root)
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            offenders.append(f"{file}:{line}: {symbol['kind']['identifier']} {name}")
    for offender in sorted(set(offenders)):
        print(offender)
    if offenders:
        print(f"check_doc_coverage: {len(set(offenders))} of {total} public symbols have no doc comment",
              file=sys.stderr)
        return 1
    print(f"check_doc_coverage: all {total} public symbols are documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
