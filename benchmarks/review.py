"""How soon a finished game's review starts drawing, and how long the whole review takes, through the server.

Starts the real server (``shogames serve`` on a fresh SQLite file, its engine workers warmed, as
``./start.sh`` runs it) and reviews finished Shobu games of exactly ``--plies`` plies (40 by default) as the
record viewer does: it opens the record (``POST /api/records/replay``), then asks for the review piece by
piece (``POST /api/review`` with ``piece`` 0, 1, ...), one after another. For each game it prints the time
from asking for the first piece to having it (**first piece**: the first points drawn), and to having the
last one (**whole review**), with the pieces, the flagged moves and the mean depth the searches reached.

The games: seeded games between two ``medium`` players after a 4-ply random opening, the first
``--games`` of seeds 0, 1, ... that end by the rules after exactly ``--plies`` plies, so every run reviews
the same games. Each game is reviewed once (the server keeps its answers, so a second review of a record
would be instant). The load average before and after is printed: the machine may be shared.

Targets (issue "Study in the browser", item 2): the review starts drawing within 5 s and is complete for a
40-ply Shobu game within 30 s on a 2-core machine.

Usage: python benchmarks/review.py [--games 5] [--plies 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import httpx
from server_run import running_server

import shogames
from shogames.agents import make_agent
from shogames.records import finish_record, start_record, write_record

FIRST_TARGET = 5.0
"""Seconds within which the review must start drawing."""
WHOLE_TARGET = 30.0
"""Seconds within which a 40-ply Shobu game's review must be complete."""
OPENING = 4
"""Random plies that open each game (so that the medium players do not play one game over and over)."""


def games_of(plies: int, count: int) -> list[tuple[int, str]]:
    """The first ``count`` seeded Shobu games that end by the rules after exactly ``plies`` plies.

    Game ``seed``: 4 random plies (``random.Random(seed)``), then two ``medium`` players (seeds ``seed``
    and ``seed + 1000``). Returns (seed, record text) pairs; every ply is a move of the record.
    """
    game = shogames.make("shobu")
    found: list[tuple[int, str]] = []
    for seed in range(5_000):
        rng = random.Random(seed)
        players = [make_agent("medium", seed + seat * 1000, game="shobu") for seat in range(2)]
        made = start_record(game, ["medium", "medium"])
        state = game.new_initial_state()
        while not state.is_terminal() and len(made.moves) < plies:
            if len(made.moves) < OPENING:
                move = rng.choice(list(state.legal_moves()))
            else:
                move = players[state.to_move].select_move(state)
            made.add_move(state.move_to_text(move))
            state = state.play(move)
        if state.is_terminal() and len(made.moves) == plies:
            finish_record(made, state)
            found.append((seed, write_record(made)))
            if len(found) == count:
                return found
    raise SystemExit(f"only {len(found)} games of {plies} plies in 5,000 seeds")


def post(http: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` and return the JSON answer (a failure stops the benchmark, saying why)."""
    response = http.post(path, json=body)
    if response.status_code != 200:
        raise SystemExit(f"{path} answered {response.status_code}: {response.text}")
    answer: dict[str, Any] = response.json()
    return answer


def review_once(http: httpx.Client, text: str) -> dict[str, Any]:
    """Open ``text`` and review it piece by piece, as the viewer does; the timings and what was found."""
    post(http, "/api/records/replay", {"record": text})
    started = time.perf_counter()
    first = post(http, "/api/review", {"record": text, "piece": 0})
    first_seconds = time.perf_counter() - started
    moves = list(first["moves"])
    for piece in range(1, first["pieces"]):
        moves += post(http, "/api/review", {"record": text, "piece": piece})["moves"]
    whole_seconds = time.perf_counter() - started
    return {
        "first": first_seconds,
        "whole": whole_seconds,
        "first_moves": len(first["moves"]),
        "pieces": first["pieces"],
        "positions": first["positions"],
        "moves": len(moves),
        "flagged": sum(1 for move in moves if move["verdict"]),
        "depth": statistics.mean(move["depth"] for move in moves),
        "budget": first["budget"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games reviewed (default 5)")
    parser.add_argument("--plies", type=int, default=40, help="their length in plies (default 40)")
    args = parser.parse_args()
    games = games_of(args.plies, args.games)
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    results = []
    with running_server() as (url, _process, _folder), httpx.Client(base_url=url, timeout=300) as http:
        for seed, text in games:
            results.append((seed, review_once(http, text)))
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")
    budget = results[0][1]["budget"]
    print(
        f"searcher: {budget['searcher']} ({'compiled kernel' if budget['kernel'] else 'reference'}), "
        f"at most {budget['seconds']} s a position"
    )
    print("| seed | plies | moves reviewed | pieces | first piece (moves) | first piece s | whole review s "
          "| flagged | mean depth |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for seed, result in results:
        print(
            f"| {seed} | {args.plies} | {result['moves']} | {result['pieces']} | {result['first_moves']} "
            f"| {result['first']:.2f} | {result['whole']:.1f} | {result['flagged']} | {result['depth']:.1f} |"
        )
    firsts = [result["first"] for _, result in results]
    wholes = [result["whole"] for _, result in results]
    print(
        f"first piece: median {statistics.median(firsts):.2f} s, max {max(firsts):.2f} s "
        f"(target {FIRST_TARGET:g} s); whole review: median {statistics.median(wholes):.1f} s, "
        f"max {max(wholes):.1f} s (target {WHOLE_TARGET:g} s)"
    )


if __name__ == "__main__":
    main()
