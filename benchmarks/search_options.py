"""What each alpha-beta option costs and saves: positions to finish a depth, CPU-seconds, positions a second.

    python benchmarks/search_options.py [--game shobu] [--positions 8] [--depth 6] [--only NAME ...]

Each of ``--positions`` positions (random openings of 6 and 16 plies, seeds 0, 1, ...) is searched to
exactly ``--depth`` plies (no node budget) from a fresh table by each set of options on one thread, after
a warm-up search; prints, per set, the mean positions searched and CPU-seconds a position, and positions
a CPU-second. The options that keep the value (``pvs``, ``killers``, ``table``, ``aspiration``) finish
the depth in fewer positions where they pay; ``quiescence`` searches more positions to the same depth, for
a better value (docs/strength.md, "Search options (Shobu)", gives the matches that measure that), and
``nullmove`` (null move pruning) and ``reductions`` fewer, for a value that may differ. ``--only``
measures just the sets of those names.
"""

from __future__ import annotations

import argparse
import time

from shogames.arena import random_opening
from shogames.core.kernel import SearchOptions, require_kernel
from shogames.core.registry import make

OPTION_SETS: dict[str, SearchOptions] = {
    "plain": SearchOptions(),
    "pvs": SearchOptions(pvs=True),
    "killers": SearchOptions(killers=True),
    "quiescence=2": SearchOptions(quiescence=2),
    "quiescence=2, pvs": SearchOptions(quiescence=2, pvs=True),
    "quiescence=2, pvs, killers": SearchOptions(quiescence=2, pvs=True, killers=True),
    "quiescence=2, pvs, table=64": SearchOptions(quiescence=2, pvs=True, table_mb=64),
    "quiescence=2, pvs, table=64, reductions": SearchOptions(
        quiescence=2, pvs=True, table_mb=64, reductions=True
    ),
    "quiescence=2, pvs, table=64, nullmove=2": SearchOptions(
        quiescence=2, pvs=True, table_mb=64, null_move=2
    ),
    "quiescence=2, pvs, table=64, nullmove=3": SearchOptions(
        quiescence=2, pvs=True, table_mb=64, null_move=3
    ),
    "aspiration": SearchOptions(aspiration=True),
    "quiescence=2, pvs, table=64, aspiration": SearchOptions(
        quiescence=2, pvs=True, table_mb=64, aspiration=True
    ),
}
"""The sets of options measured, by the name the table prints."""


def main() -> None:
    """Measure and print each set of options' positions and time to the depth."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="shobu")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--only", nargs="+", choices=OPTION_SETS, help="measure only these sets")
    options = parser.parse_args()
    game = make(options.game)
    kernel = require_kernel(game)
    positions = [
        random_opening(game, 6 if index % 2 == 0 else 16, index // 2) for index in range(options.positions)
    ]
    warm = kernel.alphabeta(seed=1, depth=2)
    if warm is None:
        parser.error(f"the {game.name} kernel has no alpha-beta")
    warm.search(positions[0])  # compile or load before timing
    print(f"{game.name}: {len(positions)} positions searched to depth {options.depth}, one thread")
    print("| options | positions a move | CPU-s a move | positions/CPU-s |")
    print("|---|---:|---:|---:|")
    for name, search_options in OPTION_SETS.items():
        if options.only and name not in options.only:
            continue
        nodes = 0
        started = time.process_time()
        for state in positions:
            searcher = kernel.alphabeta(seed=1, depth=options.depth, options=search_options)
            assert searcher is not None
            nodes += searcher.search(state, work=10**15).nodes
        seconds = time.process_time() - started
        count = len(positions)
        print(f"| {name} | {nodes / count:,.0f} | {seconds / count:.2f} | {nodes / seconds / 1e6:.2f} M |")


if __name__ == "__main__":
    main()
