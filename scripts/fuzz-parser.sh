#!/usr/bin/env bash
# Fuzzes a package's own parser with libFuzzer: the work of `swift package fuzz-parser` (the suite's
# FuzzParser plugin, which finds the suite's sources in the package graph and calls this with them).
#
#   scripts/fuzz-parser.sh --suite SUITE_DIR --package PACKAGE_DIR [--seconds N] [--name NAME] \
#       --fuzzer FUZZ_FILE... PARSER_FILE...
#
# Builds the suite's FeedParsers instrumented into PACKAGE_DIR/.build-fuzz/ (within the package's own
# graph, with its traits), links the fuzz target (FUZZ_FILE: `LLVMFuzzerTestOneInput` calling
# `fuzzSongFeedParser`) with the parser's own files, and runs it for N seconds (default 60) over the
# suite's Data/ as seeds. Findings go to PACKAGE_DIR/.build-fuzz/findings/NAME/; exit status 1 when
# there are any.
set -euo pipefail

suite='' package='' seconds=60 name=parser
fuzzers=() parsers=()
while [ $# -gt 0 ]; do
    case $1 in
    --suite) suite=$2; shift 2 ;;
    --package) package=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --fuzzer) fuzzers+=("$2"); shift 2 ;;
    -*) echo "fuzz-parser.sh: unknown option $1" >&2; exit 2 ;;
    *) parsers+=("$1"); shift ;;
    esac
done
usage="usage: scripts/fuzz-parser.sh --suite DIR --package DIR [--seconds N] [--name NAME] --fuzzer FILE... PARSER_FILE..."
case "$seconds" in '' | *[!0-9]*) echo "$usage (--seconds: a whole number)" >&2; exit 2 ;; esac
if [ -z "$suite" ] || [ -z "$package" ] || [ ${#fuzzers[@]} -eq 0 ]; then echo "$usage" >&2; exit 2; fi
# shellcheck source=scripts/fuzz-common.sh
. "$suite/scripts/fuzz-common.sh"

root="$package/.build-fuzz"
build="$root/release"
echo "== building the suite's FeedParsers instrumented for libFuzzer ($root)"
fuzz_build "$package" "$root"
echo "== linking the fuzz target: ${fuzzers[*]##*/} with ${#parsers[@]} file(s) of the parser"
fuzz_link "$suite" "$build" "$build/$name-fuzzer" -module-name ParserFuzzer "${fuzzers[@]}" "${parsers[@]}"
fuzz_seeds "$suite" "$root/seeds"
fuzz_run "$build/$name-fuzzer" "$name" "$seconds" "$root" "$root/seeds"
