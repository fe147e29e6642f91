#!/usr/bin/env bash
# Install shogames with its test tools into ./.venv (created on first use), then run every check:
# ruff (lint and format), mypy (strict) and the whole pytest suite, doctests included.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/pytest -n auto "$@"
