#!/usr/bin/env bash
# Fuzzes the adapters' push protocol with libFuzzer: scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds FeedParsers and its dependencies instrumented (-sanitize=fuzzer) into .build-fuzz/, links
# Fuzz/FeedParserFuzzer.swift against them, then runs each target for SECONDS (default 60): one per
# adapter that can take any input in process (libxml2, expat, c-libxml2, c-expat, libxml2-reader,
# libxml2-dom) and libxml2-vs-expat (the same songs whenever both accept); then the document
# workload's walks into the event sink: doc-libxml2, doc-expat, doc-libxml2-reader, doc-libxml2-dom,
# doc-bindings (each Swift adapter and its library's C reference: the same verdict and the same
# events) and doc-agree (every library the same events on documents without a DTD or a carriage
# return, whose differences are pinned in the tests; first shown to catch a real difference it is
# not told of, a carriage return in CDATA). Each input is a document
# plus the seed of random chunk boundaries; the seed corpus is Data/*.xml and, when present, the real
# feeds in ../shared/data. Foundation-based parsers are left out: Foundation's XMLParser crashes on
# known inputs (178 of the W3C not-well-formed tests), which fuzzing would only find again.
#
# Findings (crash-*, timeout-*, oom-* inputs) go to .build-fuzz/findings/TARGET/; exit status 1 if
# any target found something. libxml2 and expat themselves are the system's libraries, not
# instrumented: coverage guides the search through the adapters only.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(libxml2 expat c-libxml2 c-expat libxml2-reader libxml2-dom libxml2-vs-expat
        doc-libxml2 doc-expat doc-libxml2-reader doc-libxml2-dom doc-bindings doc-agree)
fi
case "$seconds" in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2; exit 2 ;; esac

root=.build-fuzz
build="$root/release"
# shellcheck source=scripts/fuzz-common.sh
. scripts/fuzz-common.sh
echo "== building the adapters instrumented for libFuzzer ($root)"
fuzz_build . "$root"
# The fuzzer uses the adapters, which are `package` (not the public API): it is compiled as a module of
# this package, under the package name SwiftPM gave FeedParsers (the checkout directory's name).
package_name=$(grep -m1 -F '"-module-name","FeedParsers"' "$root/release.yaml" | tr ',' '\n' |
    grep -A1 -xF '"-package-name"' | sed -n '2s/"//gp')
[ -n "$package_name" ] || { echo "fuzz.sh: no -package-name for FeedParsers in $root/release.yaml" >&2; exit 1; }
fuzz_link . "$build" "$build/feed-parser-fuzzer" -module-name FeedParserFuzzer -package-name "$package_name" \
    Fuzz/FeedParserFuzzer.swift

seeds="$root/seeds"
fuzz_seeds . "$seeds"

found=0
# doc-agree must catch a difference it is not told of: a carriage return in CDATA, which libxml2's
# push parser keeps and expat reads as a line feed (a known difference the target leaves out,
# kept here by FUZZ_KEEP_KNOWN=1). The first byte is the seed of the chunk boundaries.
if printf '%s\n' "${targets[@]}" | grep -qx doc-agree; then
    planted="$root/planted-difference.xml"
    printf '\001<a><![CDATA[x\r\ny]]></a>' >"$planted"
    status=0
    # (The braces keep the shell's own "Illegal instruction" line, the expected stop, out of the output.)
    { FUZZ_PARSER=doc-agree FUZZ_KEEP_KNOWN=1 "$build/feed-parser-fuzzer" "$planted" >"$root/planted.log" 2>&1; } 2>/dev/null ||
        status=$?
    if [ "$status" -ne 0 ] && grep -q "report different events" "$root/planted.log"; then
        echo "== doc-agree catches a planted difference: $(grep -o 'report different events.*' "$root/planted.log" | head -1)"
    else
        echo "   doc-agree: a planted difference (a carriage return in CDATA) was NOT caught (exit $status)"
        found=1
    fi
fi
for target in "${targets[@]}"; do
    FUZZ_PARSER="$target" fuzz_run "$build/feed-parser-fuzzer" "$target" "$seconds" "$root" "$seeds" || found=1
done
exit "$found"
