#!/usr/bin/env python3
"""The public API of the suite's library products, one declaration a line, sorted.

Reads the symbol graphs that `swift package dump-symbol-graph --minimum-access-level public` wrote
(DIRECTORY) for the modules the products expose, and prints each public symbol as
"Module  kind  path: declaration". `.ci/run` compares the output with docs/api/public-api.txt, the
API as last changed on purpose: any difference fails CI, with the diff, until that file is updated in
the same commit (scripts/public-api.sh --update).

Usage: public-api.py DIRECTORY MODULE...
"""
import json
import os
import sys


def declaration(symbol):
    fragments = symbol.get("declarationFragments") or []
    text = "".join(fragment.get("spelling", "") for fragment in fragments)
    return " ".join(text.split())


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    directory, modules = sys.argv[1], sys.argv[2:]
    lines = set()
    for module in modules:
        path = os.path.join(directory, module + ".symbols.json")
        try:
            with open(path, encoding="utf-8") as handle:
                graph = json.load(handle)
        except OSError as error:
            sys.exit(f"public-api.py: cannot read the symbol graph of {module}: {error}")
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            kind = symbol.get("kind", {}).get("identifier", "?").removeprefix("swift.")
            path_components = ".".join(symbol.get("pathComponents", []))
            lines.add(f"{module}  {kind}  {path_components}: {declaration(symbol)}")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
