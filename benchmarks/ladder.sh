#!/usr/bin/env bash
# Measure the level ladder of docs/strength.md: each level against the level below it (beginner against
# random), 100 games a step, each pair of games from a 4-ply random opening played once with each level
# in each seat. Usage:
#   bash benchmarks/ladder.sh [--jobs N] [--up-to LEVEL] [GAME...]     (default: every shipped game, every step)
# A step whose results.json exists is skipped (unless another spec played one of its levels: see below),
# and a step stopped halfway goes on from its finished games
# (the arena's --resume), so an interrupted run resumes. Results go to
# docs/strength/<game>/ladder/<stronger>-vs-<weaker>/ (results.md, results.json, ratings.png and played.jsonl,
# the finished games, committed so that a step can go on in another checkout; games.txt is git-ignored);
# python benchmarks/strength_table.py prints the tables from them.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=2
top=master
games=()
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) jobs="$2"; shift 2 ;;
        --up-to) top="$2"; shift 2 ;;
        *) games+=("$1"); shift ;;
    esac
done
[ ${#games[@]} -eq 0 ] && read -r -a games < <(.venv/bin/python -c 'from shogames.games import BUILTIN_GAMES; print(*BUILTIN_GAMES)')
read -r -a levels < <(.venv/bin/python -c 'from shogames.agents.levels import LEVELS; print(*LEVELS)')
# A step's report names the spec that played each level (since 2026-12-06): a step played by a spec the
# level no longer has stops the script, which says so, rather than let it stand for today's level.
played_by_today() {
    .venv/bin/python - "$1" "$2" <<'EOF'
import json, sys
from shogames.agents.levels import changed_levels
report, game = json.load(open(sys.argv[1])), sys.argv[2]
for level, (then, now) in changed_levels(report.get("levels", {}), game).items():
    sys.exit(f"ladder.sh: {sys.argv[1]} was played by {level} = {then}, but {level} is now {now}; "
             "move that folder aside (its figures stay in the docs) and run again")
EOF
}
for game in "${games[@]}"; do
    weaker=random
    for level in "${levels[@]}"; do
        out="docs/strength/$game/ladder/$level-vs-$weaker"
        [ -f "$out/results.json" ] && played_by_today "$out/results.json" "$game"
        if [ ! -f "$out/results.json" ]; then
            resume=()
            [ -f "$out/played.jsonl" ] && resume=(--resume)
            .venv/bin/shogames arena "$game" --agents "$level" "$weaker" --games 100 --opening 4 \
                --jobs "$jobs" --seed 1 --out "$out" "${resume[@]}"
        fi
        [ "$level" = "$top" ] && break
        weaker="$level"
    done
done
