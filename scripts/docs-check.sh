#!/usr/bin/env bash
# The DocC catalogs (one beside each library module, Sources/MODULE/MODULE.docc), built from the
# debug build's symbol graphs with warnings as errors: a broken link or a missing symbol fails.
#
#   scripts/docs-check.sh            every catalog
#   scripts/docs-check.sh MODULE...  those modules' catalogs
#   scripts/docs-check.sh --graphs-made [MODULE...]
#                                    from the graphs the last dump left (scripts/public-api.sh's, run
#                                    just before on the same build: CI), without dumping again
#
# What `swift package generate-documentation` checks (README: BENCH_DOCC=1 adds its plugin), without
# its builds: the plugin builds each module's dependencies again for its symbol graph, module by
# module (four minutes on 2 cores), where swift package dump-symbol-graph reads the build there is.
# The graphs are public symbols, as the plugin's for a library, and as scripts/public-api.sh dumps
# them (one dump serves both).
set -euo pipefail
cd "$(dirname "$0")/.."

dump=1
if [ "${1:-}" = "--graphs-made" ]; then
    dump=0
    shift
fi
if [ $# -gt 0 ]; then
    modules=("$@")
else
    modules=()
    for catalog in Sources/*/*.docc; do modules+=("$(basename "$catalog" .docc)"); done
fi
for module in "${modules[@]}"; do
    if [ ! -d "Sources/$module/$module.docc" ]; then
        echo "docs-check.sh: $module has no catalog (Sources/$module/$module.docc)" >&2
        exit 2
    fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
graphs="$(swift build --show-bin-path 2>/dev/null)/../symbolgraph"
if [ "$dump" -eq 1 ]; then
    rm -rf "$graphs"
    # It extracts every module's graph, the test modules' too, which fail before the tests are
    # built: what counts is that each module checked has its own (made now: the directory was emptied).
    swift package dump-symbol-graph --minimum-access-level public >"$work/dump.log" 2>&1 || true
else
    echo "(no dump: the graphs of $graphs as the last dump left them)" >"$work/dump.log"
fi
for module in "${modules[@]}"; do
    if [ ! -s "$graphs/$module.symbols.json" ]; then
        cat "$work/dump.log"
        echo "docs-check.sh: no symbol graph for $module (swift package dump-symbol-graph above)" >&2
        exit 1
    fi
    # The module's own graph and those of its extensions to other modules (MODULE@OTHER), alone: a
    # directory with another module's graph would document that module too.
    mkdir "$work/$module"
    for graph in "$graphs/$module.symbols.json" "$graphs/$module@"*.symbols.json; do
        if [ -e "$graph" ]; then ln -s "$graph" "$work/$module/"; fi
    done
    if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$work/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
        --output-dir "$work/$module.doccarchive" --warnings-as-errors >"$work/$module.log" 2>&1; then
        cat "$work/$module.log"
        echo "docs-check.sh: $module's documentation has a warning or an error (above)" >&2
        exit 1
    fi
    echo "$module: no warning"
done
