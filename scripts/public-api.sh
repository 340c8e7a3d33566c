#!/usr/bin/env bash
# The public API of the library products (BenchCLI, BenchWorker, BenchNetworkWorker, FeedParsers, SongFeed), held to
# docs/api/public-api.txt: what the outside builds on changes only on purpose.
#
#   scripts/public-api.sh            compare (exit 1 with the diff when they differ)
#   scripts/public-api.sh --update   write docs/api/public-api.txt from the code
#
# Needs a debug build's modules (it runs swift package dump-symbol-graph, which builds what is missing).
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(BenchCLI BenchWorker BenchNetworkWorker FeedParsers SongFeed)
expected=docs/api/public-api.txt

current=$(mktemp)
log=$(mktemp)
trap 'rm -f "$current" "$log"' EXIT
graphs="$(swift build --show-bin-path 2>/dev/null)/../symbolgraph"
rm -rf "$graphs"
# It extracts every module's graph, the test modules' too, which fail before the tests are built:
# what counts is that the products' modules have theirs (made now: the directory was emptied).
swift package dump-symbol-graph --minimum-access-level public >"$log" 2>&1 || true
for module in "${modules[@]}"; do
    if [ ! -s "$graphs/$module.symbols.json" ]; then
        cat "$log"
        echo "public-api.sh: no symbol graph for $module (swift package dump-symbol-graph above)"
        exit 1
    fi
done
python3 scripts/public-api.py "$graphs" "${modules[@]}" >"$current"

if [ "${1:-}" = "--update" ]; then
    mkdir -p "$(dirname "$expected")"
    cp "$current" "$expected"
    echo "wrote $expected ($(wc -l <"$expected") public declarations)"
    exit 0
fi
if ! diff -u "$expected" "$current"; then
    echo
    echo "The public API of ${modules[*]} differs from $expected (above: - as it was, + as it is)."
    echo "If the change is on purpose, run scripts/public-api.sh --update and commit the file with it."
    exit 1
fi
echo "public API unchanged: $(wc -l <"$current") declarations of ${modules[*]}"
