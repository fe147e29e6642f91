#!/usr/bin/env bash
# Install shogames with its web extra into ./.venv (created on first use) and start the main job: the web
# app, on an embedded SQLite database (./shogames.db), at the address it prints. Extra arguments go to
# `shogames serve` (for example --port 8080, or --database URL for PostgreSQL, which also needs
# `.venv/bin/pip install -e '.[postgres]'`).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[web]'
exec .venv/bin/shogames serve "$@"
