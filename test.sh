#!/usr/bin/env bash
# Install shogames with its test tools and the extras the tests use (web, postgres and plot through the test
# extra; docs and ray) into ./.venv (created on first use), then run every check: ruff (lint and format),
# mypy (strict) and the whole pytest suite, doctests and browser tests included.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,docs,ray,openspiel,pettingzoo,gymnasium]'
# The browser tests drive Debian's Chromium (Playwright cannot download browsers here); the server tests
# run on Debian's PostgreSQL as well as on SQLite. Install whichever is missing.
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -n "${SHOGAMES_TEST_POSTGRES_URL:-}" ] || [ -n "$(pg_bin)" ] || missing+=(postgresql)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "== installing Debian's ${missing[*]} for the browser and server tests"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The server tests run on SQLite and on PostgreSQL: a throwaway PostgreSQL server (Debian's package) for this
# run only, in a temporary folder, listening on 127.0.0.1 at a free port, stopped and removed on exit. Set
# SHOGAMES_TEST_POSTGRES_URL yourself to use a server of your own instead.
if [ -z "${SHOGAMES_TEST_POSTGRES_URL:-}" ]; then
    PG_BIN="$(pg_bin)"
    PG_DIR="$(mktemp -d)"
    as_pg=()
    if [ "$(id -u)" -eq 0 ]; then
        # PostgreSQL refuses to run as root: the postgres user (made by Debian's package) owns the folder.
        chown postgres: "$PG_DIR"
        as_pg=(runuser -u postgres --)
    fi
    PG_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    stop_postgres() {
        "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$PG_DIR"
    }
    trap stop_postgres EXIT
    echo "== starting a throwaway PostgreSQL ($("$PG_BIN/postgres" --version)) on 127.0.0.1:$PG_PORT"
    "${as_pg[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U shogames -A trust -E UTF8 --no-locale --no-sync >/dev/null
    # fsync off: the tests kill the web server, never PostgreSQL, and the cluster is thrown away after the run.
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -s start \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off -c full_page_writes=off -c max_connections=300"
    "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U shogames shogames
    export SHOGAMES_TEST_POSTGRES_URL="postgresql+asyncpg://shogames@127.0.0.1:$PG_PORT/shogames"
fi
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
# Compile the games' kernels into numba's cache once, side by side (on a fresh clone about a minute), so
# that no test waits for a compile: every server a test starts warms its kernels from the cache.
echo "== the games' compiled kernels"
.venv/bin/shogames warm --batch
echo "== pytest"
.venv/bin/pytest -n auto --durations=25 "$@"
