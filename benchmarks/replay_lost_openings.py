"""Play again, with another player in the loser's seat, the openings an arena's agent lost on one side.

    python benchmarks/replay_lost_openings.py --records OUT/games.txt --agent SPEC --seat white \
        --instead SPEC2 [--openings N]

Reads the records of an arena run (``OUT`` is its ``--out`` folder, whose ``games.txt`` is written by
``shogames arena``), takes the games that ``--agent`` lost in ``--seat`` (``black``/``white``: seat 0 or
1), and plays each of the first ``--openings`` of them again from its start position, with ``--instead``
in that seat and the record's opponent (the same spec) in the other; prints each game's result and the
score of ``--instead``. docs/strength.md ("Why master loses as White") used it with Shobu's master match
against ``kernel-alphabeta:nodes=1000000`` and ``--instead`` ten times master's positions.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from shogames.agents import make_agent
from shogames.match import play_game
from shogames.records import read_records, replay


def main() -> None:
    """Replay the lost openings and print the results."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=Path, required=True, help="an arena's games.txt")
    parser.add_argument("--agent", required=True, help="the agent spec whose lost games are replayed")
    parser.add_argument("--seat", choices=("black", "white"), default="white")
    parser.add_argument("--instead", required=True, help="the agent spec that plays those games again")
    parser.add_argument("--openings", type=int, default=12)
    options = parser.parse_args()
    header, seat = ("Black", 0) if options.seat == "black" else ("White", 1)
    other = "White" if seat == 0 else "Black"
    records = read_records(options.records.read_text(encoding="utf-8"))
    lost = [
        record
        for record in records
        if record.headers.get(header) == options.agent and record.result == ("0-1" if seat == 0 else "1-0")
    ]
    if not lost:
        parser.error(f"{options.agent} lost no game as {header} in {options.records}")
    score = 0.0
    for number, record in enumerate(lost[: options.openings], 1):
        start = replay(record).states[0]
        game_seed = int(record.headers.get("Seed", "0"))
        specs = {seat: options.instead, 1 - seat: record.headers[other]}
        agents = [make_agent(specs[s], seed=game_seed, game=start.game.id) for s in (0, 1)]
        began = time.perf_counter()
        final, _ = play_game(start.game, agents, seed=game_seed, start=start)
        mine = final.returns()[seat]
        theirs = final.returns()[1 - seat]
        result = "won" if mine > theirs else "lost" if mine < theirs else "drew"
        score += 1.0 if result == "won" else 0.5 if result == "drew" else 0.0
        print(
            f"opening {number} (seed {game_seed}): {result} in {final.ply - start.ply} plies "
            f"({time.perf_counter() - began:.0f} s); {score:g} of {number}",
            flush=True,
        )


if __name__ == "__main__":
    main()
