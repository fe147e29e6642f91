"""How many positions Shogammon's transposition table saves, and how much depth that buys at a budget.

    python benchmarks/table_positions.py [--budget NODES]

It keeps every so many decisions' positions of games between two medium players (the positions of
``star1_positions.py``) and searches each with the plain alpha-beta and with ``table=64``
(``SearchOptions.table_mb``): first three moves deep with no other budget (the positions each needs, the
seconds, and a check that both find the same value and move), under the default rules and under
``repetition=fourfold`` (whose key holds the history), then at ``--budget`` positions (1,000,000: the
master's) with the mean depth each finishes and how many positions reach four moves, also with Star1
(``star=1``) and with both. One searcher of each kind searches a game's positions in turn, as the agent
does. The figures are in docs/strength.md, "A transposition table (Shogammon)".
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from star1_positions import positions

import shogames
from shogames.core.kernel import SearchOptions, require_kernel

TABLE_MB = 64
DEPTH = 3  # the fixed depth, in moves (four moves from these positions take minutes each)


def searchers(game: shogames.Game[Any], depth: int = 64) -> tuple[Any, Any]:
    """The plain alpha-beta of ``game``'s kernel and the one with a table."""
    kernel = require_kernel(game)
    return (
        kernel.alphabeta(seed=1, depth=depth),
        kernel.alphabeta(seed=1, depth=depth, options=SearchOptions(table_mb=TABLE_MB)),
    )


def main() -> None:
    """Print the two tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=1_000_000, help="positions a search (1,000,000)")
    budget = parser.parse_args().budget
    medium = "kernel-alphabeta:nodes=3000"
    print("| rules | positions | plain | table | share | seconds, plain | seconds, table |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for rules in ("default", "repetition=fourfold"):
        game = shogames.make("shogammon", repetition="fourfold" if rules != "default" else "none")
        states = positions(game, medium, 3, 1, 16, 8, 12)
        nodes = [0, 0]
        seconds = [0.0, 0.0]
        results = []
        for which, searcher in enumerate(searchers(game, DEPTH)):
            found = []
            for state in states:
                started = time.perf_counter()
                found.append(searcher.search(state, work=10**11))
                seconds[which] += time.perf_counter() - started
                nodes[which] += found[-1].nodes
            results.append(found)
        for plain, tabled in zip(*results, strict=True):
            assert abs(plain.value - tabled.value) < 1e-12 and plain.move == tabled.move
        share = nodes[1] / nodes[0]
        print(
            f"| {rules} | {len(states)} | {nodes[0]:,} | {nodes[1]:,} | {share:.0%} "
            f"| {seconds[0]:.1f} | {seconds[1]:.1f} |"
        )
    print()
    print(f"Mean depth finished at {budget:,} positions, and the positions that finish four moves:")
    print()
    print("| positions | plain | `table=64` | `star=1` | `star=1,table=64` |")
    print("|---:|---:|---:|---:|---:|")
    game = shogames.make("shogammon")
    states = positions(game, medium, 5, 4, 10, 5, 10**9)
    kernel = require_kernel(game)
    cells = []
    for star, table_mb in ((False, 0), (False, TABLE_MB), (True, 0), (True, TABLE_MB)):
        searcher = kernel.alphabeta(seed=1, options=SearchOptions(star=star, table_mb=table_mb))
        assert searcher is not None
        depths = [searcher.search(state, work=budget).depth for state in states]
        cells.append(f"{sum(depths) / len(depths):.2f} ({sum(depth >= 4 for depth in depths)})")
    print(f"| {len(states)} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
