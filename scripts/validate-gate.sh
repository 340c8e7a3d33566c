#!/usr/bin/env bash
# Validates the regression gate: does it stay quiet on noise and catch a real 10% slowdown?
#
#   scripts/validate-gate.sh [wall|instructions|both] [COMPARISONS]     (defaults: both, 20)
#
# "wall" validates wall time and calibrated time (wall ÷ the calibration workload), on the same runs.
#
# With the release build of this checkout, runs COMPARISONS A/A comparisons (the same binary on
# both sides: any "slower" is a false alarm) and COMPARISONS A/B comparisons where B runs with the
# hidden option --inject-slowdown 10 (every parse also parses the feed's first 10%: 10% more parse
# work; any comparison that does not exit 2 is a missed detection), exactly as
# scripts/ci-regression.sh measures: instruction counts one run a side, wall time GATE_WALL_PAIRS
# runs a side turn about (A, A', B rotated, so A/A and A/B share their A runs). Prints each
# verdict and a summary; the runs stay under .build-ci/gate/WHAT/. Takes about 50 minutes for wall
# time and 35 for instructions on 2 cores. Exit status 0 when the goal is met (no false alarm,
# at least COMPARISONS − 1 detections), 2 otherwise.
set -euo pipefail
what=${1:-both}
comparisons=${2:-20}
case $what in wall | instructions | both) ;; *)
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 1
    ;;
esac
root=$(git rev-parse --show-toplevel)
cd "$root"
# shellcheck source=scripts/gate-common.sh
. "$root/scripts/gate-common.sh"
work="$root/.build-ci/gate/$what"
gate_build_into "$work"
bench="$work/bench"
feed="$root/Data/top300.rss.xml"
overall=0

validate() {
    local metric=$1 i status false_alarms=0 detections=0 cells_flagged=0 cells_total=0
    for ((i = 1; i <= comparisons; i++)); do
        # Calibrated time is judged on the same runs as wall time.
        local runs=$metric
        [ "$metric" = calibrated ] && runs=wall
        local dir="$work/$runs/$i"
        if [ "$metric" = instructions ]; then
            gate_count_run "$feed" "$dir/a" "$bench"
            gate_count_run "$feed" "$dir/a2" "$bench"
            gate_count_run "$feed" "$dir/b" "$bench" "--inject-slowdown 10"
        elif [ "$metric" = wall ] || [ ! -d "$dir/b" ]; then
            gate_wall_runs "$feed" "$dir/a" "$bench" "" "$dir/a2" "$bench" "" "$dir/b" "$bench" "--inject-slowdown 10"
        fi
        local level=95
        [ "$metric" != instructions ] && level=$GATE_WALL_CONFIDENCE
        status=0
        "$bench" compare "$dir/a" "$dir/a2" --metric "$metric" --confidence "$level" --format json >"$dir/aa-$metric.json" || status=$?
        [ $status -eq 1 ] && { gate_log "compare failed"; return 1; }
        [ $status -eq 2 ] && false_alarms=$((false_alarms + 1))
        local aa=$status
        status=0
        "$bench" compare "$dir/a" "$dir/b" --metric "$metric" --confidence "$level" --format json >"$dir/ab-$metric.json" || status=$?
        [ $status -eq 1 ] && { gate_log "compare failed"; return 1; }
        [ $status -eq 2 ] && detections=$((detections + 1))
        local flagged total
        flagged=$(grep -c '"verdict" : "slower"' "$dir/ab-$metric.json" || true)
        total=$(grep -c '"verdict" : "' "$dir/ab-$metric.json" || true)
        cells_flagged=$((cells_flagged + flagged))
        cells_total=$((cells_total + total))
        printf '%s %2d: A/A %s (ratios %s) · A/B %s (ratios %s)\n' "$metric" "$i" \
            "$([ $aa -eq 2 ] && echo FALSE-ALARM || echo quiet)" \
            "$(grep '"ratio" :' "$dir/aa-$metric.json" | sed 's/.*: //; s/,//' | xargs printf '%.3f ' | sed 's/ $//')" \
            "$([ $status -eq 2 ] && echo detected || echo MISSED)" \
            "$(grep '"ratio" :' "$dir/ab-$metric.json" | sed 's/.*: //; s/,//' | xargs printf '%.3f ' | sed 's/ $//')"
    done
    printf '%s: %d false alarm(s) in %d A/A comparisons; %d of %d A/B comparisons detected (%d of %d parser cells flagged slower)\n' \
        "$metric" "$false_alarms" "$comparisons" "$detections" "$comparisons" "$cells_flagged" "$cells_total" | tee -a "$work/summary.txt"
    if [ "$false_alarms" -gt 0 ] || [ "$detections" -lt $((comparisons - 1)) ]; then overall=2; fi
}

if [ "$what" != wall ]; then validate instructions; fi
if [ "$what" != instructions ]; then
    validate wall
    validate calibrated
fi
exit $overall
