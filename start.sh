#!/usr/bin/env bash
# Install shogames into ./.venv (created on first use) and start the main job: until the web app
# exists, a game of Shobu in the terminal against the computer. Extra arguments go to `shogames play`.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/shogames play shobu --vs easy "$@"
