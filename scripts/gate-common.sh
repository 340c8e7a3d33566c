# shellcheck shell=bash
# Functions shared by scripts/ci-regression.sh and scripts/validate-gate.sh (sourced, not run).
#
# The wall-time side of the gate depends on how the runs are laid out in time: on a shared 2-core
# machine one worker process's median moves by about 20% against the next one's (the host's CPU
# runs faster or slower for seconds at a time, whatever is pinned where), so the two sides are
# measured turn about, many short runs each, compared pair by pair, and judged with a 99%
# interval: the noise is large and not quite independent from one run to the next. Instruction
# counts do not move; one run a side is enough.

# Settings (environment variables override them).
GATE_WALL_PAIRS=${GATE_WALL_PAIRS:-60}           # interleaved wall-time runs per side (>= 8 to pair them at 99%)
GATE_WALL_ITERATIONS=${GATE_WALL_ITERATIONS:-5}  # timed parses per worker (the noise is between workers)
GATE_WALL_WARMUP=${GATE_WALL_WARMUP:-1}
GATE_WALL_CONFIDENCE=${GATE_WALL_CONFIDENCE:-99} # the interval's level for wall time and peak memory
# The change in wall or calibrated time that counts, in percent: a cell is slower when its ratio is
# above 1 + this *and* its whole 99% interval above 1. Half the 5% the gate must catch: a true 5%
# slowdown's estimate falls below 5% half the time, so a 5% threshold would catch it one time in two;
# at 2.5% the estimate clears it nearly always, and the interval (±1.5–2.5% here) keeps noise out.
GATE_WALL_THRESHOLD=${GATE_WALL_THRESHOLD:-2.5}
GATE_COUNT_ITERATIONS=${GATE_COUNT_ITERATIONS:-4} # counted parses per worker under callgrind (>= 4 for a 95% interval)
GATE_COUNT_WARMUP=${GATE_COUNT_WARMUP:-1}
# The parsers the gate measures: the classic three, which every revision knows (bench run's default
# set grew with the C references and the floor, which only change with their own C code).
GATE_PARSERS=${GATE_PARSERS:-libxml2,expat,foundation}
# The package to build at each revision, and its executable: this suite's own `bench` by default; a
# package of yours that runs BenchTool.main(parsers:) (see Examples/AppFeedParser) with
# GATE_PACKAGE_PATH (its directory in your repository, "." for the root) and GATE_PRODUCT (its
# executable), and your parser in GATE_PARSERS.
GATE_PACKAGE_PATH=${GATE_PACKAGE_PATH:-.}
GATE_PRODUCT=${GATE_PRODUCT:-bench}
# The worker executables the product starts, built beside it, copied with it when a revision has
# them (a revision from before the workers had their own executables has none): this suite's
# bench-worker and bench-network-worker; a package of yours, its own (app-bench-worker in
# Examples/AppFeedParser), by default GATE_PRODUCT-worker and GATE_PRODUCT-network-worker.
GATE_WORKERS=${GATE_WORKERS:-$GATE_PRODUCT-worker $GATE_PRODUCT-network-worker}

gate_log() { printf '%s\n' "$*" >&2; }

# gate_copy_bench BUILD_DIR DEST_DIR: copies the bench executable (GATE_PRODUCT, as DEST_DIR/bench),
# its worker executables (GATE_WORKERS, under their own names: bench starts them from beside
# itself) and, beside them, the libraries built for it: the ones its counting workers preload (the allocation
# interposer, the frozen clock: bench links neither, but the gate counts), from the resource
# directory SwiftPM copies them into (`<package>_BenchWorkerLibraries.resources/`) or, for a revision
# from before it, from beside the executable, with any it loads itself (rpath $ORIGIN: a revision
# from before, which linked both), so that the copy counts on its own.
gate_copy_bench() {
    mkdir -p "$2"
    cp "$1/$GATE_PRODUCT" "$2/bench"
    local worker
    for worker in $GATE_WORKERS; do
        [ -e "$1/$worker" ] && cp "$1/$worker" "$2/"
    done
    for library in "$1"/lib*.so "$1"/*_BenchWorkerLibraries.resources/lib*.so; do
        [ -e "$library" ] && cp "$library" "$2/"
    done
    return 0
}

# gate_build_into WORK_DIR: builds this checkout's bench in release and copies it into WORK_DIR
# (emptied first), so that a rebuild while a validation runs cannot change the binary under test.
gate_build_into() {
    swift build -c release --product "$GATE_PRODUCT" >&2
    rm -rf "$1"
    mkdir -p "$1"
    gate_copy_bench "$(git rev-parse --show-toplevel)/.build/release" "$1"
}

# gate_wall_runs FEED OUT_A BIN_A "EXTRA_A" OUT_B BIN_B "EXTRA_B" [OUT_C BIN_C "EXTRA_C"]
# Runs GATE_WALL_PAIRS parse-scenario runs of each bench binary (with its extra run options),
# turn about, the order of each turn rotated (A B C, then B C A, …), each run's JSON going to its
# OUT directory.
gate_wall_runs() {
    local feed=$1
    shift
    local -a outs=() commands=() extras=()
    while [ $# -ge 3 ]; do
        outs+=("$1")
        commands+=("$2")
        extras+=("$3")
        shift 3
    done
    local count=${#outs[@]} turn index k
    for directory in "${outs[@]}"; do mkdir -p "$directory"; done
    # Allocation counts are exact: gate_allocation_run takes them once; the timed runs skip them.
    for ((k = 0; k < count; k++)); do
        if gate_counts_allocations "${commands[$k]}"; then extras[k]="${extras[$k]} --no-allocation-counts"; fi
    done
    for ((turn = 0; turn < GATE_WALL_PAIRS; turn++)); do
        for ((k = 0; k < count; k++)); do
            index=$(((turn + k) % count))
            # shellcheck disable=SC2086 # the extra options are words
            "${commands[$index]}" run ${extras[$index]} --parsers "$GATE_PARSERS" --scenario parse --feed "$feed" --rounds 1 --iterations "$GATE_WALL_ITERATIONS" \
                --warmup "$GATE_WALL_WARMUP" --no-store --quiet --format csv --output-dir "${outs[$index]}" >/dev/null ||
                { gate_log "bench run failed: ${commands[$index]}"; return 1; }
        done
    done
}

# gate_count_run FEED OUT BIN ["EXTRA"]: one instruction-count run.
gate_count_run() {
    local feed=$1 out=$2 command=$3 extra=${4:-}
    mkdir -p "$out"
    # shellcheck disable=SC2086
    "$command" run $extra --parsers "$GATE_PARSERS" --counter instructions --feed "$feed" --rounds 1 --iterations "$GATE_COUNT_ITERATIONS" \
        --warmup "$GATE_COUNT_WARMUP" --no-store --quiet --format csv --output-dir "$out" >/dev/null ||
        { gate_log "bench run --counter instructions failed: $command"; return 1; }
}

# gate_counts_allocations BIN: whether that bench counts allocations (it knows --no-allocation-counts).
# grep reads the whole help (no -q): with -q it stops at the match, bench's write then fails with
# SIGPIPE, and pipefail took that for "no" (the counts were skipped, saying the baseline predates them).
gate_counts_allocations() {
    "$1" run --help 2>/dev/null | grep -- '--no-allocation-counts' >/dev/null
}

# gate_allocation_run FEED OUT BIN ["EXTRA"]: one run whose allocation workers count each parse's
# malloc-family calls (exact: one run a side is enough).
gate_allocation_run() {
    local feed=$1 out=$2 command=$3 extra=${4:-}
    mkdir -p "$out"
    # shellcheck disable=SC2086
    "$command" run $extra --parsers "$GATE_PARSERS" --scenario parse --feed "$feed" --rounds 1 --iterations 1 --warmup 1 --no-store --quiet \
        --format csv --output-dir "$out" >/dev/null ||
        { gate_log "bench run (allocation counts) failed: $command"; return 1; }
}

# gate_compare BENCH BASE_DIR CURRENT_DIR METRIC [ARGS…]: runs bench compare; prints its status.
gate_compare() {
    local bench=$1 base=$2 current=$3 metric=$4
    shift 4
    local status=0
    "$bench" compare "$base" "$current" --metric "$metric" "$@" || status=$?
    return $status
}
