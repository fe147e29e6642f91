"""Positions a second of a kernel's alpha-beta with the hand-written evaluation and with the learned one.

    python benchmarks/learned_speed.py [--game shobu] [--positions 6] [--nodes 300000]

Each of ``--positions`` positions (random openings of 6 plies, seeds 0, 1, ..., with the dice rolled
where chance is to move after them) is searched once by each searcher, from a fresh table, for
``--nodes`` positions on one thread, after a warm-up search; prints the positions a second of each, their
ratio, and the depths reached (docs/strength.md, "Learned evaluations").
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from shogames.arena import random_opening
from shogames.core.chance import sample_chance
from shogames.core.kernel import require_kernel
from shogames.core.protocol import Game, State
from shogames.core.registry import make
from shogames.learning.shipped import shipped_value


def position(game: Game[Any], seed: int) -> State[Any]:
    """A random opening of 6 plies, then chance's outcomes (drawn with ``seed``) until a seat is to move."""
    state = random_opening(game, 6, seed)
    rng = random.Random(seed)
    while state.to_move is not None and state.to_move < 0:
        state = state.play(sample_chance(state, rng))
    return state


def main() -> None:
    """Measure and print the two searchers' speeds."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="shobu")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--nodes", type=int, default=300_000)
    options = parser.parse_args()
    game = make(options.game)
    kernel = require_kernel(game)
    learned = kernel.learned_alphabeta(shipped_value(game), seed=0)
    if learned is None:
        raise SystemExit(f"the {game.name} kernel cannot search with a learned evaluation")
    searchers = {"hand-written": kernel.alphabeta(seed=0), "learned": learned}
    speeds = {}
    for label, searcher in searchers.items():
        assert searcher is not None
        searcher.search(position(game, 999), work=10_000)  # compiles, if the cache is cold
        nodes, seconds, depths = 0, 0.0, []
        for index in range(options.positions):
            searcher.reset()
            result = searcher.search(position(game, index), work=options.nodes)
            nodes += result.nodes
            seconds += result.seconds
            depths.append(result.depth)
        speeds[label] = nodes / seconds
        print(f"{label:>12}: {speeds[label] / 1e6:.2f} million positions/s, depths {depths}")
    print(f"ratio: {speeds['hand-written'] / speeds['learned']:.1f}")


if __name__ == "__main__":
    main()
