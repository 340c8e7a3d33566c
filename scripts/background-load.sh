#!/usr/bin/env bash
# Ordinary background work, to see how the benchmark's figures hold up on a machine doing other things.
#
#   scripts/background-load.sh [PROCESSES] [SECONDS]      (defaults: 2 processes, 120 s)
#
# Starts PROCESSES bursty CPU-bound processes, as a laptop's other work would be: each is busy for a
# random 0.2–1.5 s, then idle for a random 0.2–1.5 s, over and over, until SECONDS have passed (or
# Ctrl-C). Then every one of them stops by itself. Run it in another terminal, or in the background:
#
#   scripts/background-load.sh 2 300 &  swift run -c release bench run --scenario parse
set -euo pipefail
processes=${1:-2}
seconds=${2:-120}
case $processes$seconds in *[!0-9]*)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 1
    ;;
esac

now_us() { local t=${EPOCHREALTIME/./}; printf '%s' "$t"; }

burst() {
    local seed=$1 stop=$2 until
    RANDOM=$seed
    while [ "$(now_us)" -lt "$stop" ]; do
        until=$(($(now_us) + (200 + RANDOM % 1301) * 1000))
        while [ "$(now_us)" -lt "$until" ]; do :; done          # busy: 0.2–1.5 s
        sleep "$(printf '0.%03d' $((200 + RANDOM % 800)))"      # idle: 0.2–1.0 s …
        [ $((RANDOM % 2)) -eq 0 ] && sleep "0.$((RANDOM % 5))"   # … up to 1.5 s
    done
}

stop=$(($(now_us) + seconds * 1000000))
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT INT TERM
for ((i = 0; i < processes; i++)); do
    burst $((RANDOM + i)) "$stop" &
    pids+=($!)
done
wait
