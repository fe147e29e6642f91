#!/usr/bin/env bash
# Measure the level ladder of every game (docs/strength.md): each level against the level below it, and
# the strongest against random. Usage: bash benchmarks/strength.sh [GAME...] (default: every shipped game).
# Results go to docs/strength/<game>/<pair>/ (results.md, results.json, ratings.png; games.txt is
# git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
games=("$@")
[ ${#games[@]} -eq 0 ] && read -r -a games < <(.venv/bin/python -c 'from shogames.games import BUILTIN_GAMES; print(*BUILTIN_GAMES)')
for game in "${games[@]}"; do
    n=200
    [ "$game" = sho ] && n=500  # dice decide much of Sho: more games to see a small edge
    for pair in "easy random" "medium easy" "hard medium" "hard random"; do
        set -- $pair
        .venv/bin/shogames arena "$game" --agents "$1" "$2" --games "$n" --jobs 2 --seed 1 \
            --out "docs/strength/$game/$1-vs-$2"
    done
done
