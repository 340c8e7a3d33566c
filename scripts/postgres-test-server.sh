#!/usr/bin/env bash
# A throw-away PostgreSQL server for the tests of the shared stats store (and for trying
# `--store postgres://…` by hand): Debian's `postgresql` package (installed when missing), a cluster
# in a scratch directory on a local port, a role and a database of its own, a ~/.pgpass-style file
# for the password, and a role of no rights of its own (bench_test_reader) that a test grants reading.
# Nothing of the machine's own clusters is touched.
#
#   eval "$(scripts/postgres-test-server.sh start)"   # prints the export lines, then: swift test
#   scripts/postgres-test-server.sh stop
#
# BENCH_PG_DIR (default /tmp/bench-postgres) and BENCH_PG_PORT (default 55432) choose where.
set -euo pipefail

dir=${BENCH_PG_DIR:-/tmp/bench-postgres}
port=${BENCH_PG_PORT:-55432}
role=bench_test
# A role that may only read what the tests grant it (the stores of `bench report` and the like).
reader=bench_test_reader
database=bench_test

log() { echo "postgres-test-server: $*" >&2; }

bindir() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [ -z "$found" ] && command -v pg_ctl >/dev/null 2>&1; then found=$(dirname "$(command -v pg_ctl)"); fi
    echo "$found"
}

# Runs a server command as the cluster's owner: `postgres` when we are root (the server refuses root).
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install_server() {
    if [ -n "$(bindir)" ] && [ -x "$(bindir)/initdb" ] && command -v psql >/dev/null 2>&1; then return; fi
    log "installing Debian's postgresql"
    local sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq >&2
    "${sudo_cmd[@]}" apt-get install -y -qq postgresql postgresql-client >&2
    # Debian starts a cluster of its own on 5432; the tests use theirs, on $port.
}

print_env() {
    echo "export BENCH_TEST_POSTGRES_URL=postgres://$role@127.0.0.1:$port/$database"
    echo "export PGPASSFILE=$dir/pgpass"
}

start() {
    install_server
    local bin
    bin=$(bindir)
    if [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        log "already running on port $port ($dir)"
        print_env
        return
    fi
    rm -rf "$dir"
    mkdir -p "$dir/data" "$dir/socket"
    if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 \
        --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir/socket -c listen_addresses=127.0.0.1 -c max_connections=100 -c fsync=off" start >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
    as_owner psql -h "$dir/socket" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q >&2 <<SQL
CREATE ROLE $role LOGIN CREATEDB PASSWORD '$role';
CREATE ROLE $reader LOGIN PASSWORD '$reader';
CREATE DATABASE $database OWNER $role;
SQL
    umask 077
    printf '%s\n' "127.0.0.1:$port:*:$role:$role" "127.0.0.1:$port:*:$reader:$reader" >"$dir/pgpass"
    chmod 600 "$dir/pgpass"
    log "running on 127.0.0.1:$port (role $role, database $database, data in $dir)"
    print_env
}

stop() {
    local bin
    bin=$(bindir)
    if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >&2 || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    env) print_env ;;
    *) echo "usage: $0 start|stop|env" >&2; exit 2 ;;
esac
