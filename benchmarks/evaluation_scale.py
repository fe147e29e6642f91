"""Shogammon's evaluation at another material scale: the compiled alpha-beta with one against the other.

    python benchmarks/evaluation_scale.py --scale 60 --against 15 [--nodes 50000] [--games 200]
        [--jobs 2] [--seed 1] [--out FILE]

``ShogammonState.evaluate`` values a material difference ``d`` as ``0.95 * tanh(d / MATERIAL_SCALE)``
(docs/games/shogammon.md, "Evaluation"). Its scale sets how much a piece is worth beside a taken king
(a win, 1) and how the search's chance nodes average: the larger the scale, the closer to linear. Each
game is one search with ``--scale`` against one with ``--against`` (``SearchOptions.material_scale``,
the agent's ``scale=S``), each ``kernel-alphabeta`` with ``--nodes`` positions a move
(``ShogammonKernel.alphabeta``, the hand-written evaluation, no learned one); games ``2k`` and
``2k + 1`` start from the same 4-ply random opening (seed ``--seed`` plus ``k``, as the arena's) with
the scales in swapped seats, and their dice come from the game's number. Results go to ``--out`` (one
JSON line a game; a file already there is resumed from); prints the score of ``--scale`` with its 95%
interval (Wilson). The figures are in docs/strength.md, "How well the hand-written evaluations predict
the result".
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from shogames.arena import random_opening, wilson_interval
from shogames.core.chance import sample_chance
from shogames.core.kernel import SearchOptions
from shogames.core.protocol import CHANCE
from shogames.core.registry import make
from shogames.games.shogammon import MATERIAL_SCALE
from shogames.games.shogammon.kernel import ShogammonKernel


def play(number: int, scale: float, against: float, nodes: int, seed: int) -> dict[str, Any]:
    """Game ``number``: ``scale``'s score (1, 0.5 or 0), its plies and seconds."""
    kernel = ShogammonKernel(make("shogammon"))
    seat = number % 2  # the seat of ``scale``
    state = random_opening(kernel.game, 4, seed + number // 2)
    dice = random.Random(f"evaluation_scale {seed} {number}")
    searchers = {
        seat: kernel.alphabeta(seed=number, options=SearchOptions(material_scale=scale)),
        1 - seat: kernel.alphabeta(seed=number, options=SearchOptions(material_scale=against)),
    }
    start = time.perf_counter()
    plies = 0
    while not state.is_terminal():
        if state.to_move == CHANCE:
            state = state.play(sample_chance(state, dice))
        else:
            mover = state.to_move
            assert mover is not None
            state = state.play(searchers[mover].search(state, work=nodes).move)
        plies += 1
    score = (state.returns()[seat] + 1) / 2
    return {"number": number, "score": score, "plies": plies, "seconds": time.perf_counter() - start}


def main() -> None:
    """Play the games (resuming ``--out``) and print the score."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, required=True)
    parser.add_argument("--against", type=float, default=MATERIAL_SCALE)
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path(f"evaluation-scale-{args.scale:g}-vs-{args.against:g}-{args.nodes}.jsonl")
    done = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    left = sorted(set(range(args.games)) - {row["number"] for row in done})
    with ProcessPoolExecutor(args.jobs) as pool, out.open("a") as handle:
        futures = [
            pool.submit(play, number, args.scale, args.against, args.nodes, args.seed) for number in left
        ]
        for future in futures:
            row = future.result()
            handle.write(json.dumps(row) + "\n")
            handle.flush()
            done.append(row)
    games = len(done)
    score = sum(row["score"] for row in done) / games
    low, high = wilson_interval(score, games)
    won = sum(row["score"] == 1 for row in done)
    drawn = sum(row["score"] == 0.5 for row in done)
    print(
        f"scale {args.scale:g} against {args.against:g}, {args.nodes} positions a move: {games} games, "
        f"{won} won, {drawn} drawn, {games - won - drawn} lost: {100 * score:.1f}% "
        f"({100 * low:.1f}-{100 * high:.1f}%), {sum(row['plies'] for row in done) / games:.0f} plies a game"
    )


if __name__ == "__main__":
    main()
