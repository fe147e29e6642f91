#!/usr/bin/env bash
# Measure the level ladder of docs/strength.md: each level against the level below it (beginner against
# random), 100 games a step (--games N: N), each pair of games from a 4-ply random opening played once with
# each level in each seat. Usage:
#   bash benchmarks/ladder.sh [--jobs N] [--games N] [--up-to LEVEL] [GAME...]   (default: every game, every step)
# A step whose results.json holds N games or more is skipped (unless another spec played one of its levels:
# see below), and a step stopped halfway, or played to fewer games, goes on from its finished games
# (the arena's --resume: a run's first games are the same whatever its length), so an interrupted run
# resumes and a step can be lengthened where 100 games do not tell its levels apart. Results go to
# docs/strength/<game>/ladder/<stronger>-vs-<weaker>/ (results.md, results.json, ratings.png and played.jsonl,
# the finished games, committed so that a step can go on in another checkout; games.txt is git-ignored);
# python benchmarks/strength_table.py prints the tables from them.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=2
count=100
top=master
games=()
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) jobs="$2"; shift 2 ;;
        --games) count="$2"; shift 2 ;;
        --up-to) top="$2"; shift 2 ;;
        *) games+=("$1"); shift ;;
    esac
done
[ ${#games[@]} -eq 0 ] && read -r -a games < <(.venv/bin/python -c 'from shogames.games import BUILTIN_GAMES; print(*BUILTIN_GAMES)')
read -r -a levels < <(.venv/bin/python -c 'from shogames.agents.levels import LEVELS; print(*LEVELS)')
# A step's report names the spec that played each level (since 2026-12-06; or its agents are the specs
# written out, a step first played as a candidate for the levels): a step played by a spec the level no
# longer has stops the script, which says so, rather than let it stand for today's level.
played_by_today() {
    .venv/bin/python - "$1" "$2" "$3" "$4" <<'EOF'
import json, sys
from shogames.agents.levels import changed_step
game = sys.argv[2]
with open(sys.argv[1]) as file:  # results.json, or played.jsonl, whose first line describes the run
    report = json.loads(file.readline()).get("run") if sys.argv[1].endswith(".jsonl") else json.load(file)
changed = changed_step(report["agents"], report.get("levels", {}), game, sys.argv[3:5])
for level, (then, now) in changed.items():
    sys.exit(f"ladder.sh: {sys.argv[1]} was played by {level} = {then}, but {level} is now {now}; "
             "move that folder aside (its figures stay in the docs) and run again")
EOF
}
for game in "${games[@]}"; do
    weaker=random
    for level in "${levels[@]}"; do
        out="docs/strength/$game/ladder/$level-vs-$weaker"
        played=0
        [ -f "$out/played.jsonl" ] && played_by_today "$out/played.jsonl" "$game" "$level" "$weaker"
        if [ -f "$out/results.json" ]; then
            played_by_today "$out/results.json" "$game" "$level" "$weaker"
            played=$(.venv/bin/python -c 'import json, sys; print(json.load(open(sys.argv[1]))["games_per_pair"])' \
                "$out/results.json")
        fi
        if [ "$played" -lt "$count" ]; then
            # A step first played by the specs written out goes on with them (the same games).
            agents=("$level" "$weaker")
            resume=()
            target="$count"
            if [ -f "$out/played.jsonl" ]; then
                resume=(--resume)
                read -r -a agents < <(head -n 1 "$out/played.jsonl" | .venv/bin/python -c \
                    'import json, sys; print(*json.loads(sys.stdin.read())["run"]["agents"])')
                # A run begun for more games (Shogammon's master step is its 200-game match against
                # today's best: the same games) goes on to its own count.
                target=$(head -n 1 "$out/played.jsonl" | .venv/bin/python -c \
                    'import json, sys; print(max(int(sys.argv[1]), json.loads(sys.stdin.read())["run"]["games_per_pair"]))' \
                    "$count")
            fi
            .venv/bin/shogames arena "$game" --agents "${agents[@]}" --games "$target" --opening 4 \
                --jobs "$jobs" --seed 1 --out "$out" "${resume[@]}"
        fi
        [ "$level" = "$top" ] && break
        weaker="$level"
    done
done
