#!/usr/bin/env bash
# Measure the strongest level against "today's best" kernel players (issue 28's matches, docs/strength.md):
# 200 games a game, each pair of games from a 4-ply random opening played once with each agent in each
# seat, seed 1, two processes. Today's best: Shobu kernel-alphabeta:nodes=1000000, Shoo and Shogammon
# kernel-alphabeta:nodes=50000, two-player Sho kernel-alphabeta:nodes=200000. Usage:
#   bash benchmarks/best.sh [--jobs N] [GAME...]     (default: every game of the table below)
# The strongest level is written out as its spec, so the games of a match stay one player's even if the
# level changes later: a folder whose games another spec played stops the script, which says so (move
# that folder aside, and a new match starts). A match whose results.json holds 200 games
# is skipped, and one stopped halfway goes on from its finished games (the arena's --resume; played.jsonl
# is committed, so a match can span sessions and checkouts). Results go to
# docs/strength/<game>/best/master-vs-<opponent>/ (results.md, results.json, ratings.png, played.jsonl).
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
[ ${#games[@]} -eq 0 ] && games=(shobu shoo shogammon sho)
for game in "${games[@]}"; do
    settings=""
    case "$game" in
        shobu) opponent=nodes=1000000 ;;
        shoo | shogammon) opponent=nodes=50000 ;;
        sho) opponent=nodes=200000; settings="players=2" ;;
        *) echo "best.sh: no today's best for $game (shobu, shoo, shogammon, sho)" >&2; exit 2 ;;
    esac
    master=$(.venv/bin/python -c "from shogames.agents.levels import level_spec; print(level_spec('master', '$game'))")
    out="docs/strength/$game/best/master-vs-${opponent/=/-}"
    [ -n "$settings" ] && out="$out-${settings/=/-}"
    # A folder holds one master's games: if the level changed since, say so rather than mix two players.
    played_by=""
    [ -f "$out/played.jsonl" ] && played_by=$(head -n 1 "$out/played.jsonl" | .venv/bin/python -c \
        'import json, sys; print(json.loads(sys.stdin.read())["run"]["agents"][0])')
    [ -z "$played_by" ] && [ -f "$out/results.json" ] && played_by=$(.venv/bin/python -c \
        'import json, sys; print(json.load(open(sys.argv[1]))["agents"][0])' "$out/results.json")
    if [ -n "$played_by" ] && [ "$played_by" != "$master" ]; then
        echo "best.sh: $out holds the games of $played_by, but $game's master is now $master;" \
            "move that folder aside (its figures stay in the docs) and run again" >&2
        exit 2
    fi
    # Done once its results hold 200 games (a run of fewer, such as the ladder's step that shares
    # Shogammon's games, goes on to 200).
    if [ -f "$out/results.json" ] && [ "$(.venv/bin/python -c \
        'import json, sys; print(json.load(open(sys.argv[1]))["games_per_pair"])' "$out/results.json")" -ge 200 ]; then
        continue
    fi
    resume=()
    [ -f "$out/played.jsonl" ] && resume=(--resume)
    .venv/bin/shogames arena "$game" --settings "$settings" --agents "$master" "kernel-alphabeta:$opponent" \
        --games 200 --opening 4 --jobs "$jobs" --seed 1 --out "$out" "${resume[@]}"
done
