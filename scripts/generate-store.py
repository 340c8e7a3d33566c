#!/usr/bin/env python3
"""Grows a stats store to many runs, for measuring what a big history costs each command.

    scripts/generate-store.py SEED OUT --runs N [--hosts H] [--commits C] [--seed S] [--batch B]

SEED is an SQLite store holding at least one real run (`bench run --store SEED`, release build:
debug runs are left out). OUT is an SQLite file, written anew (SEED's schema and runs, then the N
runs), or a PostgreSQL URL (postgres://user@host:port/database, its password in PGPASSWORD or
PGPASSFILE) whose store already holds SEED's runs (`bench store push --from SEED --to URL` makes the
schema and copies them); there the runs of hosts "gen-host-…" made by an earlier generation are
removed first, and nothing else is touched.

The N runs are made oldest first, one every 6 hours on each of H hosts ("gen-host-1", …; their CPU
model and core count are SEED's), over C commits (one commit per N/C consecutive runs), each run a
copy of a SEED run (taken in turn) with every time scaled by one factor of its own: the host's drift
(a random walk of ±1% a run, within ±10%), a noise of ±2%, and a step of +8% from the middle commit
on the first host (a change `bench history` should find). The samples of a run keep their seed
run's spread; counts (allocations, instructions, bytes) are kept as they are. Runs are written
complete, without summaries: the store's own summaries (a bench that keeps them backfills them on
its first writer's open) are left to the bench that opens OUT.

The copying is done by the database itself (INSERT … SELECT from the seed runs, B runs a
transaction), with the samples' indexes dropped meanwhile and made again at the end: 10,000 runs
(17.8 M samples) are written in minutes, in little memory, on either store. PostgreSQL is reached
through `psql` (Debian's postgresql-client).
"""

import argparse
import datetime
import os
import random
import sqlite3
import subprocess
import sys
import time

TIMES = ("wall_ns", "cpu_ns", "first_song_ns", "download_ns", "total_ns", "calibration_ns", "store_ns")
# The run columns a generated run sets itself; every other one is its seed run's.
OWN_RUN_COLUMNS = ("run_id", "started_at", "ended_at", "host", "git_commit", "content_digest")
GENERATED_HOSTS = "gen-host-%"


def plan(args, seeds):
    """The generated runs, oldest first: (run_id, started_at, ended_at, host, commit, factor, seed)."""
    random.seed(args.seed)
    start = datetime.datetime(2025, 11, 26, tzinfo=datetime.timezone.utc)
    per_commit = max(1, args.runs // args.commits)
    commits = [f"{random.getrandbits(160):040x}" for _ in range(args.commits + 1)]
    drift = {host: 1.0 for host in range(args.hosts)}
    for number in range(args.runs):
        host = number % args.hosts
        started = start + datetime.timedelta(hours=6 * (number // args.hosts), minutes=7 * host)
        commit_index = min(number // per_commit, args.commits)
        drift[host] = min(1.1, max(0.9, drift[host] * random.uniform(0.99, 1.01)))
        step = 1.08 if host == 0 and commit_index >= args.commits // 2 else 1.0
        factor = drift[host] * step * random.uniform(0.98, 1.02)
        yield (
            started.strftime("%Y%m%dT%H%M%SZ") + f"-{number % 65536:04x}",
            started.strftime("%Y-%m-%dT%H:%M:%SZ"),
            (started + datetime.timedelta(seconds=90)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            f"gen-host-{host + 1}",
            commits[commit_index],
            factor,
            seeds[number % len(seeds)],
        )


def copy_statements(run_columns, sample_columns, integer_type):
    """The two statements that copy the runs of table `gen` from their seed runs (their samples in
    `seed_samples`, a copy that stays small while the samples table grows)."""
    own = {"run_id": "g.run_id", "started_at": "g.started_at", "ended_at": "g.ended_at", "host": "g.host",
           "git_commit": "g.git_commit", "content_digest": "NULL"}
    runs = (f"INSERT INTO runs ({', '.join(run_columns)}) SELECT "
            + ", ".join(own.get(column, f"r.{column}") for column in run_columns)
            + " FROM gen g JOIN runs r ON r.run_id = g.seed ORDER BY g.number")
    selected = ", ".join(
        "g.run_id" if column == "run_id"
        else f"CAST(s.{column} * g.factor AS {integer_type})" if column in TIMES
        else f"s.{column}"
        for column in sample_columns)
    samples = (f"INSERT INTO samples ({', '.join(sample_columns)}) SELECT {selected} "
               "FROM gen g JOIN seed_samples s ON s.run_id = g.seed ORDER BY g.number, s.id")
    return runs, samples


def batches(rows, size):
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def progress(done, total, started):
    print(f"{done} of {total} runs ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)


def seed_runs(rows):
    seeds = [row[0] for row in rows]
    if not seeds:
        sys.exit("generate-store.py: the seed holds no complete release run")
    return seeds


SEEDS_SQL = "SELECT run_id FROM runs WHERE complete AND build_configuration = 'release' ORDER BY started_at"


def generate_sqlite(args):
    if os.path.exists(args.out):
        os.remove(args.out)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(args.out + suffix):
            os.remove(args.out + suffix)
    source = sqlite3.connect(f"file:{args.seed}?mode=ro", uri=True)
    db = sqlite3.connect(args.out)
    source.backup(db)
    source.close()
    # The file is written anew: a crash leaves a file to delete, never a store to trust.
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")
    seeds = seed_runs(db.execute(SEEDS_SQL).fetchall())
    run_columns = [row[1] for row in db.execute("PRAGMA table_info(runs)")]
    sample_columns = [row[1] for row in db.execute("PRAGMA table_info(samples)") if row[1] != "id"]
    indexes = db.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'samples' AND sql IS NOT NULL"
    ).fetchall()
    for name, _ in indexes:
        db.execute(f'DROP INDEX "{name}"')
    db.execute("CREATE TEMP TABLE seed_samples AS SELECT * FROM samples WHERE run_id IN "
               f"({', '.join('?' for _ in seeds)})", seeds)
    db.execute("CREATE INDEX temp.seed_samples_on_run ON seed_samples (run_id, id)")
    db.execute("CREATE TEMP TABLE gen (number INTEGER PRIMARY KEY, run_id TEXT, started_at TEXT, ended_at TEXT, "
               "host TEXT, git_commit TEXT, factor REAL, seed TEXT)")
    runs_sql, samples_sql = copy_statements(run_columns, sample_columns, "INTEGER")
    started = time.monotonic()
    done = 0
    for batch in batches(plan(args, seeds), args.batch):
        db.execute("DELETE FROM gen")
        db.executemany("INSERT INTO gen VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [(done + index,) + row for index, row in enumerate(batch)])
        db.execute(runs_sql)
        db.execute(samples_sql)
        db.commit()
        done += len(batch)
        progress(done, args.runs, started)
    print(f"indexing the samples ({len(indexes)} indexes)", file=sys.stderr, flush=True)
    for _, sql in indexes:
        db.execute(sql)
    db.commit()
    runs, samples = db.execute("SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM samples)").fetchone()
    db.execute("PRAGMA journal_mode = DELETE")
    db.close()
    size = os.path.getsize(args.out)
    print(f"{args.out}: {runs} runs, {samples} samples, {size / 1e6:.0f} MB "
          f"in {time.monotonic() - started:.0f} s")


class Psql:
    """One psql session: statements in, rows (tab-separated, unaligned) out."""

    def __init__(self, url):
        self.url = url

    def query(self, sql):
        result = subprocess.run(
            ["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", self.url, "-c", sql],
            capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"generate-store.py: psql failed: {result.stderr.strip()}")
        return [line.split("\t") for line in result.stdout.splitlines() if line]

    def script(self, lines):
        """Runs a script given as an iterable of lines, echoing what it \\echo-es (progress) to stderr."""
        process = subprocess.Popen(
            ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.url, "-f", "-"],
            stdin=subprocess.PIPE, stdout=sys.stderr, text=True)
        try:
            for line in lines:
                process.stdin.write(line + "\n")
            process.stdin.close()
        except BrokenPipeError:
            pass
        if process.wait() != 0:
            sys.exit("generate-store.py: psql failed (see above)")


def generate_postgres(args):
    psql = Psql(args.out)
    if not psql.query("SELECT to_regclass('samples')"):
        sys.exit(f"generate-store.py: {args.out} has no stats store: `bench store push --from {args.seed} "
                 f"--to {args.out}` first")
    source = sqlite3.connect(f"file:{args.seed}?mode=ro", uri=True)
    wanted = seed_runs(source.execute(SEEDS_SQL).fetchall())
    source.close()
    there = {row[0] for row in psql.query(
        "SELECT run_id FROM runs WHERE run_id IN (" + ", ".join(f"'{seed}'" for seed in wanted) + ")")}
    missing = [seed for seed in wanted if seed not in there]
    if missing:
        sys.exit(f"generate-store.py: {args.out} lacks the seed's runs {', '.join(missing)}: "
                 f"`bench store push --from {args.seed} --to {args.out}` first")
    columns = "SELECT column_name FROM information_schema.columns WHERE table_name = '{}' ORDER BY ordinal_position"
    run_columns = [row[0] for row in psql.query(columns.format("runs"))]
    sample_columns = [row[0] for row in psql.query(columns.format("samples")) if row[0] != "id"]
    indexes = psql.query("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'samples' "
                         "AND indexname NOT IN (SELECT conname FROM pg_constraint)")
    runs_sql, samples_sql = copy_statements(run_columns, sample_columns, "BIGINT")
    started = time.monotonic()

    def lines():
        yield "SET client_min_messages = warning;"
        yield f"DELETE FROM runs WHERE host LIKE '{GENERATED_HOSTS}';"
        for name, _ in indexes:
            yield f'DROP INDEX IF EXISTS "{name}";'
        yield ("CREATE TEMP TABLE seed_samples AS SELECT * FROM samples WHERE run_id IN ("
               + ", ".join(f"'{seed}'" for seed in wanted) + ");")
        yield "CREATE INDEX ON seed_samples (run_id, id);"
        yield ("CREATE TEMP TABLE gen (number BIGINT PRIMARY KEY, run_id TEXT, started_at TEXT, ended_at TEXT, "
               "host TEXT, git_commit TEXT, factor DOUBLE PRECISION, seed TEXT);")
        done = 0
        for batch in batches(plan(args, wanted), args.batch):
            yield "BEGIN;"
            yield "TRUNCATE gen;"
            yield "COPY gen FROM STDIN;"
            for index, row in enumerate(batch):
                yield "\t".join(str(value) for value in (done + index,) + row)
            yield "\\."
            yield runs_sql + ";"
            yield samples_sql + ";"
            yield "COMMIT;"
            done += len(batch)
            yield f"\\echo {done} of {args.runs} runs"
        yield f"\\echo indexing the samples ({len(indexes)} indexes)"
        for _, definition in indexes:
            yield definition + ";"
        yield "ANALYZE runs;"
        yield "ANALYZE samples;"

    psql.script(lines())
    runs, samples, size = psql.query(
        "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM samples), pg_database_size(current_database())")[0]
    print(f"{psql.url}: {runs} runs, {samples} samples, {int(size) / 1e6:.0f} MB (the database) "
          f"in {time.monotonic() - started:.0f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seed")
    parser.add_argument("out")
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--commits", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=250, help="runs a transaction (default 250)")
    args = parser.parse_args()
    if args.runs < 1 or args.hosts < 1 or args.commits < 1 or args.batch < 1:
        parser.error("--runs, --hosts, --commits and --batch must be at least 1")
    if not os.path.exists(args.seed):
        parser.error(f"no seed store at {args.seed}")
    if args.out.startswith(("postgres://", "postgresql://")):
        generate_postgres(args)
    else:
        if os.path.abspath(args.seed) == os.path.abspath(args.out):
            parser.error("OUT must not be SEED")
        generate_sqlite(args)


if __name__ == "__main__":
    main()
