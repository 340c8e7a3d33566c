#!/usr/bin/env bash
# Validates the regression gate: does it stay quiet on noise and catch a real 5% slowdown?
#
#   scripts/validate-gate.sh [wall|instructions|both] [COMPARISONS]     (defaults: both, 20)
#
# "wall" validates wall time and calibrated time (wall ÷ the calibration workload), on the same runs.
#
# With the release build of this checkout, runs COMPARISONS A/A comparisons (the same binary on
# both sides: any "slower" is a false alarm) and COMPARISONS A/B comparisons where B runs with the
# hidden option --inject-slowdown GATE_SLOWDOWN (5: every parse also parses the feed's first 5%:
# 5% more parse work; any comparison that does not exit 2 is a missed detection), exactly as
# scripts/ci-regression.sh measures and judges: instruction counts one run a side, wall time
# GATE_WALL_PAIRS runs a side turn about (A, A', B rotated, so A/A and A/B share their A runs),
# GATE_WALL_THRESHOLD and GATE_WALL_CONFIDENCE as the gate's. Prints each verdict with its ratios,
# the smallest change each comparison could detect, and the seconds of measuring one verdict
# took (its two sides' runs); then a summary. The runs stay under .build-ci/gate/WHAT/. Takes
# about 50 minutes for wall time and 35 for instructions on 2 cores. Exit status 0 when the goal
# is met (at most one false alarm in 20, at least COMPARISONS − 1 detections), 2 otherwise.
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

slowdown=${GATE_SLOWDOWN:-5}
# values FILE KEY: the values of KEY in a compare JSON, three decimals, space-separated.
values() { grep "\"$2\" :" "$1" | sed 's/.*: //; s/,//' | xargs -r printf '%.3f ' | sed 's/ $//'; }

validate() {
    local metric=$1 i status false_alarms=0 detections=0 cells_flagged=0 cells_total=0 seconds=0 measured=0
    for ((i = 1; i <= comparisons; i++)); do
        # Calibrated time is judged on the same runs as wall time.
        local runs=$metric
        [ "$metric" = calibrated ] && runs=wall
        local dir="$work/$runs/$i" started
        started=$(date +%s)
        if [ "$metric" = instructions ]; then
            gate_count_run "$feed" "$dir/a" "$bench"
            gate_count_run "$feed" "$dir/a2" "$bench"
            gate_count_run "$feed" "$dir/b" "$bench" "--inject-slowdown $slowdown"
        elif [ "$metric" = wall ] || [ ! -d "$dir/b" ]; then
            gate_wall_runs "$feed" "$dir/a" "$bench" "" "$dir/a2" "$bench" "" "$dir/b" "$bench" "--inject-slowdown $slowdown"
            # One verdict measures two of the three sides.
            echo $((($(date +%s) - started) * 2 / 3)) >"$dir/seconds"
        fi
        [ -f "$dir/seconds" ] && { seconds=$((seconds + $(cat "$dir/seconds"))); measured=$((measured + 1)); }
        local -a judge=(--confidence 95)
        [ "$metric" != instructions ] && judge=(--confidence "$GATE_WALL_CONFIDENCE" --threshold "$GATE_WALL_THRESHOLD")
        status=0
        "$bench" compare "$dir/a" "$dir/a2" --metric "$metric" "${judge[@]}" --format json >"$dir/aa-$metric.json" || status=$?
        [ $status -eq 1 ] && { gate_log "compare failed"; return 1; }
        [ $status -eq 2 ] && false_alarms=$((false_alarms + 1))
        local aa=$status
        status=0
        "$bench" compare "$dir/a" "$dir/b" --metric "$metric" "${judge[@]}" --format json >"$dir/ab-$metric.json" || status=$?
        [ $status -eq 1 ] && { gate_log "compare failed"; return 1; }
        [ $status -eq 2 ] && detections=$((detections + 1))
        local flagged total
        flagged=$(grep -c '"verdict" : "slower"' "$dir/ab-$metric.json" || true)
        total=$(grep -c '"verdict" : "' "$dir/ab-$metric.json" || true)
        cells_flagged=$((cells_flagged + flagged))
        cells_total=$((cells_total + total))
        printf '%s %2d: A/A %s (ratios %s; detects %s) · A/B %s (ratios %s)%s\n' "$metric" "$i" \
            "$([ $aa -eq 2 ] && echo FALSE-ALARM || echo quiet)" "$(values "$dir/aa-$metric.json" ratio)" \
            "$(values "$dir/aa-$metric.json" detectable)" \
            "$([ $status -eq 2 ] && echo detected || echo MISSED)" "$(values "$dir/ab-$metric.json" ratio)" \
            "$([ -f "$dir/seconds" ] && echo " · $(cat "$dir/seconds") s of measuring a verdict")"
    done
    local allowed=$((comparisons / 20)) per_verdict=""
    [ $measured -gt 0 ] && per_verdict="; $((seconds / measured)) s of measuring a verdict on average"
    printf '%s: %d false alarm(s) in %d A/A comparisons; %d of %d A/B comparisons (%d%% slowdown injected) detected (%d of %d parser cells flagged slower)%s\n' \
        "$metric" "$false_alarms" "$comparisons" "$detections" "$comparisons" "$slowdown" "$cells_flagged" "$cells_total" "$per_verdict" | tee -a "$work/summary.txt"
    if [ "$false_alarms" -gt "$allowed" ] || [ "$detections" -lt $((comparisons - 1)) ]; then overall=2; fi
}

if [ "$what" != wall ]; then validate instructions; fi
if [ "$what" != instructions ]; then
    validate wall
    validate calibrated
fi
exit $overall
