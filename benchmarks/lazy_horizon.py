"""What the lazy learned horizon saves in Shogammon's alpha-beta: the same search, in less time.

    python benchmarks/lazy_horizon.py [--positions 10] [--nodes 1000000] [--rounds 2]

The master's search (``kernel-alphabeta:value=learned``, the shipped network) runs the network's hidden
layer only where its bounded correction could bring a horizon's value into the window
(``_jit.horizon_value``); ``compiled_network(network, lazy=False)`` runs it at every horizon. Each of
``--positions`` positions (those of ``level_times.py``: every fifth ply of seeded games between medium
players) is searched for ``--nodes`` positions by the hand-written search, the lazy learned one and the
whole-network one, each from a fresh searcher, on one thread, after a warm-up, the three in turn so that
the machine's load falls on all of them alike, ``--rounds`` times. Checks that the lazy and the whole
searches visit the same positions and find the same move and value; prints each search's positions a
second and the ratios (docs/training.md, "Using it"; docs/strength.md, "Learned evaluations").
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from level_times import sample_positions

from shogames.core.kernel import require_kernel
from shogames.core.registry import make
from shogames.games.shogammon.kernel import ShogammonAlphaBeta, compiled_network
from shogames.learning.shipped import shipped_value


def main() -> None:
    """Search the positions with the three searchers and print their speeds."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    game = make("shogammon")
    kernel = require_kernel(game)
    network = shipped_value(game)

    def searchers() -> dict[str, Any]:
        whole = kernel.learned_alphabeta(network, seed=1)
        assert isinstance(whole, ShogammonAlphaBeta)
        whole.net = compiled_network(network, lazy=False)
        return {
            "hand-written": kernel.alphabeta(seed=1),
            "learned, lazy": kernel.learned_alphabeta(network, seed=1),
            "learned, whole": whole,
        }

    positions = sample_positions("shogammon", args.positions, 1)
    for searcher in searchers().values():
        searcher.search(positions[0], work=20_000)
    totals = {name: [0, 0.0] for name in searchers()}
    for _ in range(args.rounds):
        for state in positions:
            found = {}
            for name, searcher in searchers().items():
                start = time.perf_counter()
                result = searcher.search(state, work=args.nodes)
                totals[name][1] += time.perf_counter() - start
                totals[name][0] += result.nodes
                found[name] = (result.move, result.value, result.nodes)
            if found["learned, lazy"] != found["learned, whole"]:
                raise SystemExit(f"the lazy and the whole searches differ at {state.to_text()}")
    speed = {name: nodes / seconds for name, (nodes, seconds) in totals.items()}
    for name, value in speed.items():
        print(f"{name:>15}: {value / 1e6:.3f} million positions/s")
    print(f"lazy / whole: {speed['learned, lazy'] / speed['learned, whole']:.2f}")
    print(f"lazy / hand-written: {speed['learned, lazy'] / speed['hand-written']:.2f}")


if __name__ == "__main__":
    main()
