#!/usr/bin/env bash
# What scripts/fuzz.sh (the suite's own adapters) and scripts/fuzz-parser.sh (a package's own parser,
# the `swift package fuzz-parser` plugin) share: the instrumented build of FeedParsers, the link of a
# libFuzzer target against it, the seed corpus and a bounded run. Sourced, not run.

# fuzz_build PACKAGE_DIR SCRATCH: FeedParsers (the suite's, in PACKAGE_DIR's graph) and its
# dependencies, built in release and instrumented for libFuzzer into SCRATCH/release.
fuzz_build() {
    swift build -c release --package-path "$1" --scratch-path "$2" --target FeedParsers \
        -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link
}

# fuzz_link SUITE_DIR BUILD_DIR OUTPUT SWIFTC_ARGUMENT...: links a libFuzzer target (its Swift files
# and module options among the arguments) against every object of BUILD_DIR (the build above): the
# C modules' maps from the suite's sources, the system libraries they wrap.
fuzz_link() {
    local suite=$1 build=$2 output=$3
    shift 3
    local objects
    mapfile -t objects < <(find "$build/" -name '*.o' -not -path '*Fuzzer*')
    swiftc -O -sanitize=fuzzer -parse-as-library -I "$build/Modules" \
        -Xcc -fmodule-map-file="$suite/Sources/CLibXML2/module.modulemap" \
        -Xcc -fmodule-map-file="$suite/Sources/CExpat/module.modulemap" \
        -Xcc -fmodule-map-file="$suite/Sources/CLibCrypto/module.modulemap" \
        -Xcc -fmodule-map-file="$build/CReferenceParsers.build/module.modulemap" -Xcc -I/usr/include/libxml2 \
        -Xcc -I"$suite/Sources/CReferenceParsers/include" \
        "$@" "${objects[@]}" -lxml2 -lexpat -lcrypto -lFoundationXML -o "$output"
}

# fuzz_seeds SUITE_DIR SEEDS_DIR: the seed corpus, made anew: the suite's Data/*.xml and, when
# present beside the suite, the real feeds and documents of ../shared/data, no larger than the runs'
# -max_len (a feed cut to it is not well-formed), and the W3C's standalone valid tests.
fuzz_seeds() {
    local suite=$1 seeds=$2 feed test
    rm -rf "$seeds"
    mkdir -p "$seeds"
    cp "$suite"/Data/*.xml "$seeds/"
    for feed in "$suite"/../shared/data/itunes/*.xml "$suite"/../shared/data/feeds/* \
        "$suite"/../shared/data/documents/*.xml; do
        [ -f "$feed" ] && [ "$(stat -c %s "$feed")" -le 262144 ] && cp "$feed" "$seeds/" || true
    done
    # Prefixed: their names repeat.
    for test in "$suite"/../shared/data/xmlconf/xmltest/valid/sa/*.xml; do
        [ -f "$test" ] && cp "$test" "$seeds/xmltest-$(basename "$test")" || true
    done
}

# fuzz_run BINARY NAME SECONDS ROOT SEEDS: runs BINARY (FUZZ_PARSER as the caller set it) for
# SECONDS, its corpus in ROOT/corpus/NAME, its findings (crash-*, timeout-*, oom-* inputs) in
# ROOT/findings/NAME, its log ROOT/fuzz-NAME.log; prints one line of what it did. Status 1 when it
# found something.
fuzz_run() {
    local binary=$1 name=$2 seconds=$3 root=$4 seeds=$5
    local corpus="$root/corpus/$name" findings="$root/findings/$name" log="$root/fuzz-$name.log" status=0 runs
    mkdir -p "$corpus" "$findings"
    echo "== fuzzing $name for $seconds s"
    # The Swift runtime's own backtracer off: with it, a trap ends the process before libFuzzer's
    # handler writes the input that caused it (crash-*) and prints its stack.
    SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=262144 -print_final_stats=1 \
        -artifact_prefix="$findings/" "$corpus" "$seeds" >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    if [ "$status" -ne 0 ] || ls "$findings"/* >/dev/null 2>&1; then
        echo "   $name: FOUND something after $runs executions (exit $status): $(ls "$findings" | head -5 | tr '\n' ' ')"
        grep -E "ERROR|Fatal error|SUMMARY" "$log" | head -5 || true
        return 1
    fi
    echo "   $name: $runs executions, nothing found (corpus $corpus, log $log)"
}
