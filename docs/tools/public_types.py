#!/usr/bin/env python3
"""Lists each module's public types, read from its Swift sources.

Prints one Markdown line per module: the public structs, enums, classes,
actors, protocols and type aliases declared in `Sources/<Module>`, nested
types as `Outer.Inner`, sorted. docs/architecture.md ("Public types") is this
script's output; rerun it when a module's public surface changes:

    python3 docs/tools/public_types.py [MODULE ...]
    python3 docs/tools/public_types.py --check docs/architecture.md

`--check FILE` prints nothing and exits 0 when every module's line appears
in FILE as generated, and otherwise lists the lines FILE lacks (exit 1):
`.ci/run` runs it, so the page cannot fall behind the sources.

Nesting is read from indentation (swift-format indents by two spaces): a type
declared inside a type or an `extension` is named after it. `package`,
`internal` and `private` declarations are skipped, and so is a public type
nested in a non-public one.
"""
import os
import re
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_MODULES = [
    "SleetMath", "SleetBLAS", "SleetParticles", "SleetShatter", "SleetTransitions",
    "SleetPreview", "SleetGPU", "SleetVideo", "SleetImport", "SleetKitC", "SleetCLI",
]
KIND = r"(?:struct|enum|class|actor|protocol|typealias)"
MODIFIERS = r"(?:(?:public|package|internal|fileprivate|private|open|final|indirect|nonisolated)\s+)*"
TYPE_DECL = re.compile(r"^(\s*)(?:@[\w.]+(?:\([^)]*\))?\s+)*(" + MODIFIERS + r")" + KIND + r"\s+(\w+)")
EXTENSION = re.compile(r"^(\s*)(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+)?extension\s+([\w.]+)")


def public_types(module: str) -> list[str]:
    names = set()
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources", module)):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            # (indent, qualified name, visible from outside the module)
            stack: list[tuple[int, str, bool]] = []
            with open(os.path.join(folder, file), encoding="utf-8") as f:
                for line in f:
                    stripped = line.strip()
                    if not stripped or stripped.startswith("//") or stripped.startswith("*"):
                        continue
                    indent = len(line) - len(line.lstrip(" "))
                    while stack and stack[-1][0] >= indent:
                        stack.pop()
                    outer, visible = (stack[-1][1], stack[-1][2]) if stack else ("", True)
                    if m := EXTENSION.match(line):
                        stack.append((indent, m.group(2), True))
                        continue
                    if m := TYPE_DECL.match(line):
                        modifiers, name = m.group(2).split(), m.group(3)
                        qualified = f"{outer}.{name}" if outer else name
                        public = ("public" in modifiers or "open" in modifiers) and visible
                        if public:
                            names.add(qualified)
                        stack.append((indent, qualified, public))
    return sorted(names, key=str.lower)


def row(module: str) -> str:
    types = public_types(module)
    listed = ", ".join(f"`{t}`" for t in types) if types else "none"
    return f"| `{module}` | {len(types)} | {listed} |"


def main() -> int:
    if sys.argv[1:2] == ["--check"]:
        with open(sys.argv[2], encoding="utf-8") as f:
            lines = set(f.read().splitlines())
        stale = [row(m) for m in DEFAULT_MODULES if row(m) not in lines]
        for line in stale:
            print(f"{sys.argv[2]} lacks: {line}")
        if stale:
            print("public_types: rerun `python3 docs/tools/public_types.py` and update the table",
                  file=sys.stderr)
        return 1 if stale else 0
    for module in sys.argv[1:] or DEFAULT_MODULES:
        print(row(module))
    return 0


if __name__ == "__main__":
    sys.exit(main())
