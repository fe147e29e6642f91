#!/usr/bin/env bash
# Measure the shipped learned evaluations of docs/strength.md ("Learned evaluations"): one-turn greedy with
# the learned evaluation against one-turn greedy with the hand-written one, 200 games a game, and, where
# the kernel runs the learned evaluation in its search, alpha-beta with it against alpha-beta with the
# hand-written one at the same budget and at about the same time. Each pair of games starts from a random
# opening (the plies the training's measures used: 4 in Shobu and Shoo) played once with each agent in
# each seat. Usage:
#   bash benchmarks/learned.sh [--jobs N] [GAME...]     (default: every game that ships a value.npz)
# A match whose results.json exists is skipped, and one stopped halfway goes on from its finished games
# (the arena's --resume; played.jsonl is committed, so a match can span sessions). Results go to
# docs/strength/<game>/learned/<match>/ (results.md, results.json, ratings.png, played.jsonl; games.txt is
# git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=2
games=()
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) jobs="$2"; shift 2 ;;
        *) games+=("$1"); shift ;;
    esac
done
if [ ${#games[@]} -eq 0 ]; then
    for file in src/shogames/games/*/value.npz; do games+=("$(basename "$(dirname "$file")")"); done
fi
match() {  # match GAME NAME SETTINGS OPENING AGENT...
    local game="$1" name="$2" settings="$3" opening="$4"
    shift 4
    local out="docs/strength/$game/learned/$name"
    local resume=()
    [ -f "$out/played.jsonl" ] && resume=(--resume)
    if [ ! -f "$out/results.json" ]; then
        .venv/bin/shogames arena "$game" --settings "$settings" --agents "$@" --games 200 --opening "$opening" \
            --jobs "$jobs" --seed 1 --out "$out" "${resume[@]}"
    fi
}
for game in "${games[@]}"; do
    # The settings the shipped weights were trained for (their header), and the opening: none with dice.
    settings=$(.venv/bin/python -c 'import sys; from shogames.core.registry import make; from shogames.learning.shipped import shipped_path; from shogames.learning.network import ValueNet; print(ValueNet.load(shipped_path(make(sys.argv[1])).read_bytes())[0].info["settings"])' "$game")
    # The opening is the one the training measured with (its header's options).
    opening=$(.venv/bin/python -c 'import sys; from shogames.core.registry import make; from shogames.learning.shipped import shipped_path; from shogames.learning.network import ValueNet; print(ValueNet.load(shipped_path(make(sys.argv[1])).read_bytes())[0].info["options"]["opening"])' "$game")
    match "$game" greedy "$settings" "$opening" greedy:value=learned greedy
    # Alpha-beta with the learned evaluation at the horizon, where the game's kernel runs it: at the same
    # budget, at about the same time (Shobu's material search looks 2.7 times as many positions a second
    # as its learned one on this machine, Shoo's race count 1.2-1.5 times: python
    # benchmarks/learned_speed.py --game GAME; the same budgets for both games, so Shoo's "equal time"
    # gives the race count more), and with 4 times the positions for the hand-written evaluation.
    if .venv/bin/python -c 'import sys; from shogames.core.registry import make; from shogames.learning.shipped import shipped_value; g = make(sys.argv[1]); sys.exit(g.kernel is None or g.kernel.learned_alphabeta(shipped_value(g)) is None)' "$game"; then
        match "$game" alphabeta-30000 "$settings" 4 kernel-alphabeta:nodes=30000,value=learned \
            kernel-alphabeta:nodes=30000
        match "$game" alphabeta-30000-vs-80000 "$settings" 4 kernel-alphabeta:nodes=30000,value=learned \
            kernel-alphabeta:nodes=80000
        match "$game" alphabeta-300000-vs-800000 "$settings" 4 kernel-alphabeta:nodes=300000,value=learned \
            kernel-alphabeta:nodes=800000
        match "$game" alphabeta-30000-vs-120000 "$settings" 4 kernel-alphabeta:nodes=30000,value=learned \
            kernel-alphabeta:nodes=120000
        match "$game" alphabeta-300000-vs-1200000 "$settings" 4 kernel-alphabeta:nodes=300000,value=learned \
            kernel-alphabeta:nodes=1200000
    fi
done
