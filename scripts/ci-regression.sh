#!/usr/bin/env bash
# Compares the parsers' speed and memory at two revisions and fails on a real regression.
#
#   scripts/ci-regression.sh BASE_REF [HEAD_REF]     (HEAD_REF defaults to HEAD)
#
# Builds both revisions in release mode, each in its own git worktree (under .build-ci/; a revision
# that is this checkout's, unchanged, is built here), then
# on the feed of HEAD_REF (the same bytes for both):
#   1. counts each parse's instructions under callgrind, one run a side (exact: threshold 1%),
#      when valgrind and binutils are installed (else says so and skips);
#   2. times the parse scenario, GATE_WALL_PAIRS (60) short runs a side taken turn about, so that
#      the machine's drift hits both sides alike, and compares them pair by pair (threshold 2.5%,
#      99% interval: a 5% slowdown is caught 20 times in 20, see scripts/validate-gate.sh);
#   3. counts each parse's allocations (malloc-family calls, exact: threshold 1%), one run a side,
#      when both builds count them;
#   4. compares the same runs' calibrated time (wall ÷ a fixed calibration workload timed just before
#      each parse: it does not move with the host's speed) when both builds measure it (as wall
#      time), and their peak memory (threshold 5%, 99% interval).
# Writes Results/compare.md (Markdown for a pull-request comment: each counted cell that moved
# explained by the functions whose cost moved most), the runs' files under Results/ci/ and the
# folded stacks of each explained cell under Results/ci/stacks/ (flamegraph.pl, difffolded.pl,
# speedscope), and exits with bench compare's status: 0 no regression, 2 regression, 1 error, 4
# nothing judged on any metric.
#
# Settings: GATE_WALL_PAIRS (60), GATE_WALL_ITERATIONS (5), GATE_WALL_CONFIDENCE (99),
# GATE_WALL_THRESHOLD (2.5, percent), GATE_COUNT_ITERATIONS (4);
# GATE_FEED=path to measure another feed; GATE_SKIP_INSTRUCTIONS=1 to skip the counts.
# From a repository of yours (its package runs BenchTool.main(parsers:)), run this script from your
# repository's root with GATE_PACKAGE_PATH (your bench package's directory), GATE_PRODUCT (its
# executable) and GATE_PARSERS (yours, libxml2, expat): Examples/workflows/parser-gate.yml.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
    exit 1
fi
base_ref=$1
head_ref=${2:-HEAD}
root=$(git rev-parse --show-toplevel)
cd "$root"
# shellcheck source=scripts/gate-common.sh
. "$(cd "$(dirname "$0")" && pwd)/gate-common.sh"

base_commit=$(git rev-parse --verify "$base_ref^{commit}") || { gate_log "unknown revision: $base_ref"; exit 1; }
head_commit=$(git rev-parse --verify "$head_ref^{commit}") || { gate_log "unknown revision: $head_ref"; exit 1; }
work="$root/.build-ci"
results="$root/Results"
out="$results/ci"
mkdir -p "$work" "$results"
rm -rf "$out"
mkdir -p "$out"

# 1. Worktrees and release builds. The two builds share one scratch directory, so that the
# dependencies are built once; each binary is copied out as soon as it is built.
# A side whose commit is this checkout's, with no change to its tracked files, is built here (the
# head of a pull request, usually: its build is the one already made, when there is one).
scratch="$work/scratch"
checkout() {
    local name=$1 commit=$2 tree="$work/$1"
    if [ "$commit" = "$(git rev-parse HEAD)" ] && [ -z "$(git status --porcelain --untracked-files=no)" ]; then
        tree=$root
    elif [ -d "$tree" ]; then
        git -C "$tree" checkout --quiet --detach --force "$commit"
    else
        git worktree add --quiet --detach "$tree" "$commit"
    fi
    eval "${name}_tree=\$tree"
    gate_log "== building $name ($commit) in $tree"
    swift build -c release --package-path "$tree/$GATE_PACKAGE_PATH" --scratch-path "$scratch" \
        --product "$GATE_PRODUCT" >&2 ||
        { gate_log "build of $name failed"; exit 1; }
    gate_copy_bench "$scratch/release" "$work/bin/$name"
}
checkout base "$base_commit"
checkout head "$head_commit"
base_bench="$work/bin/base/bench"
head_bench="$work/bin/head/bench"
# The committed feed of the head, or of this script's own checkout when the head has none (a
# repository of yours).
feed=${GATE_FEED:-$head_tree/Data/top300.rss.xml}
[ -f "$feed" ] || [ -n "${GATE_FEED:-}" ] || feed="$(cd "$(dirname "$0")/.." && pwd)/Data/top300.rss.xml"
[ -f "$feed" ] || { gate_log "no feed at $feed"; exit 1; }
feed=$(cd "$(dirname "$feed")" && pwd)/$(basename "$feed")

status=0
judged=0
# report_compare METRIC KIND [ARGS…]: compares the runs of $out/KIND/base and $out/KIND/head on METRIC, appends
# the Markdown to the report, and keeps the worst status. A metric with nothing judged (bench compare's
# 4: too few runs for its interval, say) says so in the report and does not decide the gate; a gate
# where no metric judged anything exits 4.
report_compare() {
    local metric=$1 kind=$2 s=0
    shift 2
    gate_compare "$head_bench" "$out/$kind/base" "$out/$kind/head" "$metric" "$@" --format markdown >>"$report" || s=$?
    if [ $s -eq 4 ]; then
        gate_log "nothing judged on $metric"
        return 0
    fi
    judged=1
    [ $s -gt $status ] && status=$s
    return 0
}
report="$results/compare.md"
{
    echo "## Benchmark: \`$(git rev-parse --short "$head_commit")\` against \`$(git rev-parse --short "$base_commit")\`"
    echo
    echo "Feed: \`$(basename "$feed")\` ($(wc -c <"$feed") bytes). Release builds on $(uname -m), $(nproc) cores."
    echo
} >"$report"

# 2. Instruction counts.
if [ "${GATE_SKIP_INSTRUCTIONS:-0}" = 1 ]; then
    echo "_Instruction counts skipped (GATE_SKIP_INSTRUCTIONS=1)._" >>"$report"
elif ! command -v valgrind >/dev/null; then
    echo "_Instruction counts skipped: valgrind is not installed (apt-get install valgrind binutils)._" >>"$report"
elif ! "$base_bench" run --help 2>/dev/null | grep -- '--counter' >/dev/null; then
    echo "_Instruction counts skipped: the baseline's bench cannot count instructions (it predates --counter)._" >>"$report"
else
    gate_log "== counting instructions (callgrind)"
    gate_count_run "$feed" "$out/instructions/base" "$base_bench"
    gate_count_run "$feed" "$out/instructions/head" "$head_bench"
    # A cell that moved is explained function by function in the report (from the runs' profiles),
    # and its folded stacks (each side's and the differential one) go to $out/stacks.
    report_compare instructions instructions --stacks "$out/stacks"
fi
echo >>"$report"

# 3. Allocation counts (exact), one run a side, when both builds count them.
if gate_counts_allocations "$base_bench" && gate_counts_allocations "$head_bench"; then
    gate_log "== counting allocations"
    gate_allocation_run "$feed" "$out/allocations/base" "$base_bench"
    gate_allocation_run "$feed" "$out/allocations/head" "$head_bench"
    report_compare allocations allocations
else
    echo "_Allocation counts skipped: the baseline's bench does not count allocations (it predates them)._" >>"$report"
fi
echo >>"$report"

# 4. Wall time and peak memory, turn about.
gate_log "== timing, $GATE_WALL_PAIRS runs a side, turn about"
gate_wall_runs "$feed" "$out/wall/base" "$base_bench" "" "$out/wall/head" "$head_bench" ""
# Calibrated time (wall ÷ the calibration workload timed just before each parse) does not move with
# the host's speed; a base that predates it has no such figures, and is compared on wall time only.
metrics="wall peak-memory"
if grep -q calibrationNs "$out"/wall/base/*.json 2>/dev/null; then metrics="wall calibrated peak-memory"; fi
for metric in $metrics; do
    threshold=()
    [ "$metric" != peak-memory ] && threshold=(--threshold "$GATE_WALL_THRESHOLD")
    report_compare "$metric" wall --confidence "$GATE_WALL_CONFIDENCE" "${threshold[@]}"
    echo >>"$report"
done

if [ $judged -eq 0 ] && [ $status -eq 0 ]; then
    status=4
    echo "**Nothing judged: no metric had runs enough to judge a cell.**" >>"$report"
fi
cat "$report"
case $status in
0) gate_log "no regression (report: $report)" ;;
2) gate_log "REGRESSION (report: $report)" ;;
4) gate_log "nothing judged (report: $report)" ;;
*) gate_log "bench compare failed with status $status" ;;
esac
exit "$status"
