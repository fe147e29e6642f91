#!/usr/bin/env bash
# Install shogames with its test tools into ./.venv (created on first use), then run every check:
# ruff (lint and format), mypy (strict) and the whole pytest suite, doctests and browser tests included.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# The browser tests drive Debian's Chromium (Playwright cannot download browsers here).
if ! command -v chromium >/dev/null 2>&1; then
    echo "== installing Debian's chromium for the browser tests"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/pytest -n auto "$@"
