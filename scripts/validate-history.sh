#!/usr/bin/env bash
# Validates `bench history` on real runs of this machine: is a 5% slowdown from run 20 found at
# run 20, and is nothing found in a history without one?
#
#   scripts/validate-history.sh [REPEATS] [LOAD]        (defaults: 1, 0)
#
# With the release build of this checkout, makes REPEATS pairs of stored histories of 30 short
# parse runs each (libxml2 and expat, 6 rounds of 3 parses): in one, runs 20–30 carry the hidden
# option --inject-slowdown 5 (every parse also parses the feed's first 5%); the other has none.
# The two are made turn about, run by run, so that both see the same host. With LOAD > 0,
# scripts/background-load.sh runs LOAD bursty processes meanwhile. Then `bench history` reads
# each store, with calibrated time (its default) and with wall time, and this prints, per store
# and parser, where it found changes. The stores stay under .build-ci/history/. About 1 minute a
# pair on a quiet 2-core machine. Exit status 0 when, with calibrated time, every slowed history
# has its change at run 20 ± 1 and nothing else, and no unchanged history has any; 2 otherwise.
set -euo pipefail
repeats=${1:-1}
load=${2:-0}
case $repeats$load in *[!0-9]*)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 1
    ;;
esac
root=$(git rev-parse --show-toplevel)
cd "$root"
# shellcheck source=scripts/gate-common.sh
. "$root/scripts/gate-common.sh"
work="$root/.build-ci/history"
gate_build_into "$work"
bench="$work/bench"
if [ "$load" -gt 0 ]; then
    scripts/background-load.sh "$load" 7200 >/dev/null 2>&1 &
    loader=$!
    trap 'kill "$loader" 2>/dev/null || true' EXIT
fi

one_run() {
    "$bench" run --scenario parse --parsers libxml2,expat --rounds 6 --iterations 3 --no-allocation-counts \
        --quiet --format json --output-dir "$work/out" --store "$1" --inject-slowdown "$2" >/dev/null 2>>"$work/runs.log"
}

# changes STORE METRIC: one line per parser, "parser: run,run,…" (the runs where a change starts).
changes() {
    "$bench" history --store "$1" --metric "$2" --include-gate-tests --format json | python3 -c '
import json, sys
for series in json.load(sys.stdin)["series"]:
    if series["parser"] != "null":
        print(series["parser"] + ": " + ",".join(str(s["index"] + 1) for s in series["shifts"]))'
}

status=0
for repeat in $(seq 1 "$repeats"); do
    slowed="$work/slowed-$repeat.sqlite"
    steady="$work/steady-$repeat.sqlite"
    for run in $(seq 1 30); do
        injected=0
        [ "$run" -ge 20 ] && injected=5
        one_run "$slowed" "$injected"
        one_run "$steady" 0
    done
    for metric in calibrated wall; do
        while read -r line; do
            found=${line#*:}
            echo "pair $repeat, $metric, slowed from run 20: $line"
            [ "$metric" = calibrated ] || continue
            case ${found// /} in 19 | 20 | 21) ;; *) status=2 ;; esac
        done < <(changes "$slowed" "$metric")
        while read -r line; do
            found=${line#*:}
            echo "pair $repeat, $metric, unchanged: $line"
            if [ "$metric" = calibrated ] && [ -n "${found// /}" ]; then status=2; fi
        done < <(changes "$steady" "$metric")
    done
done
echo "$([ $status -eq 0 ] && echo met || echo NOT MET): calibrated time, $repeats pair(s), load $load"
exit $status
