"""Positions a second of a kernel's alpha-beta with the hand-written evaluation and with the learned one.

    python benchmarks/learned_speed.py [--game shobu] [--positions 6] [--nodes 300000]
        [--options pvs=1,quiescence=2,table=64] [--weights FILE.npz]

Each of ``--positions`` positions (random openings of 6 plies, seeds 0, 1, ..., with the dice rolled
where chance is to move after them) is searched once by each searcher, from a fresh table, for
``--nodes`` positions on one thread, after a warm-up search; prints the positions a second of each, their
ratio, and the depths reached (docs/strength.md, "Learned evaluations"). ``--options`` are search options
as an agent spec names them (both searchers get them); ``--weights`` is a network written by
``shogames train`` to use instead of the shipped one.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from shogames.agents import make_agent
from shogames.agents.kernel_search import KernelAlphaBetaAgent
from shogames.arena import random_opening
from shogames.core.chance import sample_chance
from shogames.core.kernel import require_kernel
from shogames.core.protocol import Game, State
from shogames.core.registry import make
from shogames.learning.network import ValueNet
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
    parser.add_argument("--options", default="", help="search options, as in an agent spec: pvs=1,...")
    parser.add_argument("--weights", type=Path, default=None, help="a network file instead of the shipped")
    options = parser.parse_args()
    game = make(options.game)
    kernel = require_kernel(game)
    spec = "kernel-alphabeta" + (f":{options.options}" if options.options else "")
    agent = make_agent(spec)
    assert isinstance(agent, KernelAlphaBetaAgent)
    network = (
        shipped_value(game) if options.weights is None else ValueNet.load(options.weights.read_bytes())[0]
    )
    learned = kernel.learned_alphabeta(network, seed=0, options=agent.options)
    if learned is None:
        raise SystemExit(f"the {game.name} kernel cannot search with a learned evaluation")
    searchers = {"hand-written": kernel.alphabeta(seed=0, options=agent.options), "learned": learned}
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
