#!/usr/bin/env python3
"""Grows a SQLite stats store to many runs, for measuring what a big history costs each command.

    scripts/generate-store.py SEED OUT --runs N [--hosts H] [--commits C] [--seed S]

SEED is a store holding at least one real run (`bench run --store SEED`, release build: debug runs
are left out). OUT is written anew: SEED's schema and runs, then N runs made from them, oldest
first, one every 6 hours on each of H hosts ("gen-host-1", …; their CPU model and core count are
SEED's), over C commits (one commit per N/C consecutive runs), each run a copy of a SEED run (taken
in turn) with every time scaled by one factor of its own: the host's drift (a random walk of ±1% a
run, within ±10%), a noise of ±2%, and a step of +8% from the middle commit on the first host (a
change `bench history` should find). The samples of a run keep their seed run's spread; counts
(allocations, instructions, bytes) are kept as they are.

To measure a PostgreSQL store of the same history: `bench store push --from OUT --to postgres://…`.
"""

import argparse
import datetime
import os
import random
import sqlite3
import sys

TIMES = ("wall_ns", "cpu_ns", "first_song_ns", "download_ns", "total_ns", "calibration_ns", "store_ns")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seed")
    parser.add_argument("out")
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--commits", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.runs < 1 or args.hosts < 1 or args.commits < 1:
        parser.error("--runs, --hosts and --commits must be at least 1")
    if os.path.abspath(args.seed) == os.path.abspath(args.out):
        parser.error("OUT must not be SEED")
    random.seed(args.seed)

    if os.path.exists(args.out):
        os.remove(args.out)
    source = sqlite3.connect(f"file:{args.seed}?mode=ro", uri=True)
    target = sqlite3.connect(args.out)
    source.backup(target)
    source.close()

    db = target
    seeds = [row[0] for row in db.execute(
        "SELECT run_id FROM runs WHERE complete = 1 AND build_configuration = 'release' ORDER BY started_at")]
    if not seeds:
        sys.exit(f"generate-store.py: {args.seed} holds no complete release run")
    run_columns = [row[1] for row in db.execute("PRAGMA table_info(runs)")]
    sample_columns = [row[1] for row in db.execute("PRAGMA table_info(samples)") if row[1] != "id"]
    selected = ", ".join(
        "?" if column == "run_id"
        else f"CAST({column} * ? AS INTEGER)" if column in TIMES
        else column
        for column in sample_columns)
    insert_samples = (
        f"INSERT INTO samples ({', '.join(sample_columns)}) SELECT {selected} FROM samples WHERE run_id = ?")
    time_count = sum(1 for column in sample_columns if column in TIMES)

    start = datetime.datetime(2025, 11, 26, tzinfo=datetime.timezone.utc)
    per_commit = max(1, args.runs // args.commits)
    commits = [f"{random.getrandbits(160):040x}" for _ in range(args.commits + 1)]
    drift = {host: 1.0 for host in range(args.hosts)}
    for number in range(args.runs):
        host = number % args.hosts
        seed_run = seeds[number % len(seeds)]
        started = start + datetime.timedelta(hours=6 * (number // args.hosts), minutes=7 * host)
        commit_index = min(number // per_commit, args.commits)
        drift[host] = min(1.1, max(0.9, drift[host] * random.uniform(0.99, 1.01)))
        factor = drift[host] * (1.08 if host == 0 and commit_index >= args.commits // 2 else 1.0)
        run_id = started.strftime("%Y%m%dT%H%M%SZ") + f"-{random.getrandbits(16):04x}"
        row = dict(zip(run_columns, db.execute("SELECT * FROM runs WHERE run_id = ?", (seed_run,)).fetchone()))
        row.update({
            "run_id": run_id,
            "started_at": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "ended_at": (started + datetime.timedelta(seconds=90)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "host": f"gen-host-{host + 1}",
            "git_commit": commits[commit_index],
            "content_digest": None,
        })
        db.execute(
            f"INSERT INTO runs ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})", tuple(row.values()))
        db.execute(insert_samples, (run_id,) + (factor * random.uniform(0.98, 1.02),) * time_count + (seed_run,))
        if (number + 1) % 500 == 0:
            db.commit()
            print(f"{number + 1} of {args.runs} runs", file=sys.stderr)
    db.commit()
    runs, samples = db.execute("SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM samples)").fetchone()
    db.close()
    size = os.path.getsize(args.out)
    print(f"{args.out}: {runs} runs, {samples} samples, {size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
