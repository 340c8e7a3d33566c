#!/usr/bin/env bash
# What a big stored history costs each command (issue 44): a store grown to N runs
# (scripts/generate-store.py), and a table of what `bench run`, `bench report`, `bench history`,
# `bench compare` of two stored runs, the first writer's open (the summaries' backfill) and
# retention (`bench store prune`) cost on it — time and peak RSS (/usr/bin/time) — beside the
# goals of issue 44, on SQLite and, with --postgres, on PostgreSQL.
#
#   scripts/store-scale.sh [--bench PATH] [--seed STORE] [--runs N] [--grown STORE] [--postgres URL]
#                          [--keep-runs K] [--work DIR] [--postgres-only]
#
# --bench    the bench to measure (default: the checkout's release build, built when needed:
#            `swift build -c release --product bench`); figures from a debug build mean nothing.
# --seed     an SQLite store holding at least one complete release run to copy (default: one
#            default `bench run` made here first, its time shown).
# --runs     how many runs the grown store holds (default 1000).
# --grown    an SQLite store already grown (generate-store.py from the --seed store, which is
#            needed too), measured instead of one grown here: it is copied into --work
#            (cp --reflink=auto; never opened in place) and --runs is what it holds.
# --postgres a PostgreSQL store (postgres://user@host:port/database; its password in PGPASSWORD or
#            PGPASSFILE) to measure too: the seed is pushed there (`bench store push`) and the
#            history generated in the database (generate-store.py through psql: a push takes about
#            a second a run); runs of hosts gen-host-… already there are replaced. Needs psql.
# --keep-runs retention's newest runs kept per host (default 30).
# --postgres-only measures the PostgreSQL store alone (with --postgres).
# --work     where the stores and outputs go (default: a new directory under ${TMPDIR:-/tmp},
#            removed at the end; a --work directory is kept).
#
# Benchmarks, not tests: the goals are printed beside the figures (met / not met) and never decide
# the exit status. It exits 1 on an error only: a command that fails, a figure that is missing, or
# `bench history` / `bench report` printing something else after retention than before it (they
# read the runs' summaries, which retention keeps).
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
# The table of what was measured so far; fail prints it too, so that an error keeps its figures.
rows=()
print_table() {
    [ "${#rows[@]}" -gt 0 ] || return 0
    echo "What a store of $runs runs costs (issue 44's goals beside, as information; ${bench:-no bench})"
    printf '%-56s  %-22s  %12s  %8s  %-17s  %s\n' "command" "store" "seconds" "peak MB" "goal" "goal met"
    local line command store s m goal met
    for line in "${rows[@]}"; do
        IFS='|' read -r command store s m goal met <<<"$line"
        printf '%-56s  %-22s  %12s  %8s  %-17s  %s\n' "$command" "$store" "$s" "$m" "$goal" "$met"
    done
}
fail() {
    echo "store-scale.sh: $*" >&2
    print_table
    exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
bench=""
seed=""
runs=1000
postgres=""
keep_runs=30
work=""
grown=""
sqlite=1
while [ $# -gt 0 ]; do
    case "$1" in
        --bench) bench=${2:?--bench needs a path}; shift 2 ;;
        --seed) seed=${2:?--seed needs a store}; shift 2 ;;
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --postgres) postgres=${2:?--postgres needs a URL}; shift 2 ;;
        --keep-runs) keep_runs=${2:?--keep-runs needs a number}; shift 2 ;;
        --grown) grown=${2:?--grown needs a store}; shift 2 ;;
        --work) work=${2:?--work needs a directory}; shift 2 ;;
        --postgres-only) sqlite=0; shift ;;
        -h | --help) usage ;;
        *) echo "store-scale.sh: unknown argument $1" >&2; usage ;;
    esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || fail "--runs must be a positive number, not $runs"
[[ $keep_runs =~ ^[1-9][0-9]*$ ]] || fail "--keep-runs must be a positive number, not $keep_runs"
[ -x /usr/bin/time ] || fail "needs GNU time at /usr/bin/time (Debian: apt-get install time)"
if [ "$sqlite" -eq 0 ] && [ -z "$postgres" ]; then fail "--postgres-only needs --postgres URL"; fi
if [ -n "$postgres" ]; then command -v psql >/dev/null || fail "--postgres needs psql (postgresql-client)"; fi
if [ -n "$grown" ]; then
    [ -f "$grown" ] || fail "no grown store at $grown"
    [ -n "$seed" ] || fail "--grown needs --seed (the store it was grown from: the run against it is the baseline)"
    runs=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True).execute(
    "SELECT count(*) FROM runs WHERE host LIKE ?", ("gen-host-%",)).fetchone()[0])' "$grown") ||
        fail "cannot read the grown store $grown"
fi

if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/store-scale.XXXXXX")
    trap 'rm -rf "$work"' EXIT
else
    mkdir -p "$work"
fi
started=$SECONDS
log() { echo "store-scale.sh [$((SECONDS - started)) s]: $*" >&2; }

if [ -z "$bench" ]; then
    log "building the release bench (swift build -c release --product bench)"
    (cd "$root" && swift build -c release --product bench >&2) || fail "the release build failed"
    bench="$root/.build/release/bench"
fi
[ -x "$bench" ] || fail "no bench at $bench"
bench=$(cd "$(dirname "$bench")" && pwd)/$(basename "$bench")
cd "$root"  # bench run reads Data/ from here

# A row of the table: command, store, seconds, MB, goal, verdict.
row() { rows+=("$1|$2|$3|$4|$5|$6"); }

# measure NAME ALLOWED_STATUSES COMMAND...: runs COMMAND under /usr/bin/time, its output in
# $work/NAME.out and .err; sets $seconds and $megabytes. A status not in ALLOWED_STATUSES (a
# space-separated list) is an error.
measure() {
    local name=$1 allowed=$2
    shift 2
    local status=0
    /usr/bin/time -f '%e %M' -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
    if [[ " $allowed " != *" $status "* ]]; then
        tail -20 "$work/$name.err" >&2
        fail "$name: \`$*\` exited $status"
    fi
    local figures
    figures=$(grep -E '^[0-9.]+ [0-9]+$' "$work/$name.time" | tail -1 || true)
    [ -n "$figures" ] || fail "$name: no time or peak memory measured ($(cat "$work/$name.time"))"
    seconds=${figures% *}
    megabytes=$(awk -v kb="${figures#* }" 'BEGIN { printf "%.0f", kb / 1024 }')
}

# verdict CONDITION (an awk expression of s, m, s0, m0): "met" or "not met".
verdict() {
    awk -v s="$seconds" -v m="$megabytes" -v s0="${base_seconds:-0}" -v m0="${base_megabytes:-0}" \
        "BEGIN { print (($1) ? \"met\" : \"not met\") }"
}

# The size of a store in MB: the SQLite file with its -wal, or the PostgreSQL database.
store_megabytes() {
    if [[ $1 == postgres* ]]; then
        psql -X -A -t -d "$1" -c "SELECT pg_database_size(current_database())" |
            awk '{ printf "%.0f", $1 / 1e6 }'
    else
        local bytes=0 file
        for file in "$1" "$1-wal"; do
            if [ -f "$file" ]; then bytes=$((bytes + $(stat -c %s "$file"))); fi
        done
        awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1e6 }'
    fi
}

# Two stored runs of gen-host-1, the newest two, for compare.
two_runs() {
    local sql="SELECT run_id FROM runs WHERE host = 'gen-host-1' AND complete ORDER BY started_at DESC LIMIT 2"
    if [[ $1 == postgres* ]]; then
        psql -X -A -t -d "$1" -c "$sql"
    else
        python3 -c 'import sqlite3, sys
for (run,) in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(run)' "$1" "$sql"
    fi
}

# Issue 44's run. Parses that lost the CPU are counted, not retried (--count-preempted, as the
# end-to-end tests do): on a busy machine (CI) a run of nothing but lost parses would end with
# exit 1 and no figure; on a quiet one it changes nothing.
run_args=(run --scenario parse --parsers libxml2 --rounds 6 --quiet --count-preempted)

if [ -z "$seed" ]; then
    log "making a seed run (a default bench run)"
    measure seed-run "0" "$bench" run --quiet --count-preempted --store "$work/seed.sqlite" \
        --output-dir "$work/seed-out"
    seed=$work/seed.sqlite
    row "bench run (default: the seed)" "empty" "$seconds" "$megabytes" "-" "-"
fi
[ -f "$seed" ] || fail "no seed store at $seed"

# measure_base LABEL STORE: bench run against a store of the seed alone (before it grows), the
# figures the run against the grown store is held to.
measure_base() {
    log "$1: bench run against the seed's store"
    measure "$1-run-base" "0" "$bench" "${run_args[@]}" --store "$2" --output-dir "$work/out-base"
    base_seconds=$seconds
    base_megabytes=$megabytes
    row "bench run --scenario parse --parsers libxml2 --rounds 6" "$1: the seed's runs" "$seconds" "$megabytes" \
        "-" "-"
}

# measure_store LABEL STORE: the table's rows for one store of $runs runs (already grown).
measure_store() {
    local label=$1 store=$2
    log "$label: the first writer's open ($runs generated runs without summaries: the backfill)"
    # A command that opens the store as a writer (bench store push does not summarise) and then
    # does next to nothing: a plan that names no run.
    measure "$label-open" "0" "$bench" store prune --keep-runs 1000000000 --dry-run --store "$store"
    row "first writer's open (migrations, backfill)" "$label: $runs runs" "$seconds" "$megabytes" "timed" "-"

    log "$label: bench run against $runs runs"
    measure "$label-run" "0" "$bench" "${run_args[@]}" --store "$store" --output-dir "$work/out-big"
    row "bench run --scenario parse --parsers libxml2 --rounds 6" "$label: $runs runs" "$seconds" "$megabytes" \
        "<= +1 s, +50 MB" "$(verdict 's <= s0 + 1 && m <= m0 + 50')"

    log "$label: bench report"
    measure "$label-report" "0" "$bench" report --store "$store"
    row "bench report" "$label: $runs runs" "$seconds" "$megabytes" "<= 5 s, 300 MB" \
        "$(verdict 's <= 5 && m <= 300')"
    cp "$work/$label-report.out" "$work/$label-report-before.out"

    log "$label: bench history"
    measure "$label-history" "0" "$bench" history --store "$store"
    row "bench history" "$label: $runs runs" "$seconds" "$megabytes" "<= 10 s, 300 MB" \
        "$(verdict 's <= 10 && m <= 300')"
    cp "$work/$label-history.out" "$work/$label-history-before.out"

    local pair
    mapfile -t pair < <(two_runs "$store")
    [ "${#pair[@]}" -eq 2 ] || fail "$label: two stored runs of gen-host-1 not found for compare"
    log "$label: bench compare ${pair[1]} ${pair[0]}"
    # 0 no regression, 2 regression, 3 a failed cell, 4 nothing judged: all answers, not errors.
    measure "$label-compare" "0 2 3 4" "$bench" compare "${pair[1]}" "${pair[0]}" --store "$store"
    row "bench compare (two stored runs)" "$label: $runs runs" "$seconds" "$megabytes" "<= 2 s" \
        "$(verdict 's <= 2')"

    local before
    before=$(store_megabytes "$store")
    log "$label: bench store prune --keep-runs $keep_runs --dry-run"
    measure "$label-prune-dry" "0" "$bench" store prune --keep-runs "$keep_runs" --dry-run --store "$store"
    row "bench store prune --keep-runs $keep_runs --dry-run" "$label: $runs runs" "$seconds" "$megabytes" "-" "-"
    log "$label: bench store prune --keep-runs $keep_runs --vacuum"
    measure "$label-prune" "0" "$bench" store prune --keep-runs "$keep_runs" --vacuum --store "$store"
    row "bench store prune --keep-runs $keep_runs --vacuum" "$label: $runs runs" "$seconds" "$megabytes" "-" "-"
    local after
    after=$(store_megabytes "$store")
    row "store size before -> after retention (MB)" "$label: $runs runs" "$before -> $after" "" "smaller" \
        "$(awk -v a="$after" -v b="$before" 'BEGIN { print (a < b ? "met" : "not met") }')"

    log "$label: bench history and bench report after retention"
    measure "$label-history-after" "0" "$bench" history --store "$store"
    row "bench history after retention" "$label: $runs runs" "$seconds" "$megabytes" "unchanged" "met"
    cmp -s "$work/$label-history-before.out" "$work/$label-history-after.out" || {
        diff "$work/$label-history-before.out" "$work/$label-history-after.out" | head -20 >&2
        fail "$label: bench history printed something else after retention"
    }
    measure "$label-report-after" "0" "$bench" report --store "$store"
    row "bench report after retention" "$label: $runs runs" "$seconds" "$megabytes" "unchanged" "met"
    cmp -s "$work/$label-report-before.out" "$work/$label-report-after.out" || {
        diff "$work/$label-report-before.out" "$work/$label-report-after.out" | head -20 >&2
        fail "$label: bench report printed something else after retention"
    }
}

# SQLite
if [ "$sqlite" -eq 1 ]; then
    cp "$seed" "$work/base.sqlite"
    measure_base sqlite "$work/base.sqlite"
    if [ -n "$grown" ]; then
        log "sqlite: copying the grown store $grown ($runs runs)"
        cp --reflink=auto "$grown" "$work/big.sqlite" || fail "cannot copy $grown"
    else
        log "sqlite: growing a store to $runs runs"
        generated=$SECONDS
        python3 "$root/scripts/generate-store.py" "$seed" "$work/big.sqlite" --runs "$runs" >"$work/generate.out" \
            2>"$work/generate.err" || { tail -5 "$work/generate.err" >&2; fail "generate-store.py failed"; }
        row "generate-store.py (SQLite)" "sqlite: $runs runs" "$((SECONDS - generated))" "" "-" "-"
    fi
    measure_store sqlite "$work/big.sqlite"
fi

# PostgreSQL
if [ -n "$postgres" ]; then
    log "postgres: pushing the seed, then generating $runs runs in the database"
    measure pg-push "0" "$bench" store push --from "$seed" --to "$postgres" --quiet
    row "bench store push (the seed)" "postgres" "$seconds" "$megabytes" "-" "-"
    measure_base postgres "$postgres"
    generated=$SECONDS
    python3 "$root/scripts/generate-store.py" "$seed" "$postgres" --runs "$runs" >"$work/generate-pg.out" \
        2>"$work/generate-pg.err" || { tail -5 "$work/generate-pg.err" >&2; fail "generate-store.py failed"; }
    row "generate-store.py (PostgreSQL, psql)" "postgres: $runs runs" "$((SECONDS - generated))" "" "-" "-"
    measure_store postgres "$postgres"
fi

print_table
echo "Total: $((SECONDS - started)) s; the stores and each command's output in $work$(trap -p EXIT | grep -q rm &&
    echo " (removed now: pass --work DIR to keep them)")."
