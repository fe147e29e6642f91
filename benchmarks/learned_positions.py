"""Where a game's learned evaluation differs from the hand-written one, and why (docs/strength.md).

    python benchmarks/learned_positions.py [--game shobu] [--games 40] [--show 3]

1. Plays ``--games`` games of greedy (hand-written) against itself from 4-ply random openings and, at
   each position, asks both evaluations for their move (one-turn greedy). Prints the ``--show``
   positions where the two moves differ most in the learned value, with both moves and both values, and
   how often the two choose differently. Any game that ships a learned evaluation.
2. In Shobu, whose observation is stones on four boards, measures what the network pays for a stone's
   square: over the same positions, each stone of the side to move on a board's edge is moved (in the
   observation) to an empty central square of its board, and the change of the network's value is
   averaged, apart for the mover's home boards and the opponent's. The material is unchanged by such a
   move, so the prior (the hand-written evaluation) is too: the change is what the network learned
   beyond it.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from shogames.agents.base import build_agent
from shogames.arena import random_opening
from shogames.core.registry import make
from shogames.learning.shipped import shipped_value
from shogames.match import play_game

CENTRE = {(1, 1), (1, 2), (2, 1), (2, 2)}


def main() -> None:
    """Print the positions and the square values."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="shobu")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--show", type=int, default=3)
    options = parser.parse_args()
    game = make(options.game)
    net = shipped_value(game)
    positions = []
    for number in range(options.games):
        start = random_opening(game, 4, number)
        agents = [build_agent("greedy", seed=number), build_agent("greedy", seed=number + 1000)]
        _, record = play_game(game, agents, seed=number, start=start)
        state = start
        for text in record.moves:
            if state.is_terminal():
                break
            positions.append(state)
            state = state.play_text(text)
    differing = []
    for state in positions:
        seat = state.to_move
        assert seat is not None and seat >= 0, "the positions kept are ones with a seat to move"
        moves = state.legal_moves()
        children = [state.play(move) for move in moves]
        if any(child.is_terminal() for child in children):
            continue
        learned = net.value_of(children, seat)
        written = [child.evaluate()[seat] for child in children]
        a, b = int(np.argmax(learned)), int(np.argmax(written))
        if a != b:
            differing.append((learned[a] - learned[b], state, moves[a], moves[b], learned, written, a, b))
    differing.sort(key=lambda row: -row[0])
    print(f"{len(positions)} positions; the two evaluations choose different moves in {len(differing)}\n")
    for gap, state, ours, theirs, learned, written, a, b in differing[: options.show]:
        print(state.to_text())
        print(state.diagram())
        print(
            f"learned plays {state.move_to_text(ours)} (learned {learned[a]:+.3f},"
            f" hand-written {written[a]:+.3f});"
            f" hand-written plays {state.move_to_text(theirs)} (learned {learned[b]:+.3f},"
            f" hand-written {written[b]:+.3f}); gap {gap:.3f}\n"
        )
    if options.game != "shobu":
        return
    changes: dict[str, list[float]] = {"own home boards": [], "opponent's home boards": []}
    for state in positions:
        seat = state.to_move
        assert seat is not None and seat >= 0, "the positions kept are ones with a seat to move"
        x, p = net.encode([state], seat)
        base = float(net.values(x, p)[0])
        planes = x.reshape(4, 8, 8)
        for row in range(8):
            for column in range(8):
                if planes[0, row, column] != 1.0:
                    continue
                r, c = row % 4, column % 4
                if (r, c) in CENTRE:
                    continue
                top, left = row - r, column - c
                for cr, cc in sorted(CENTRE):
                    target = (top + cr, left + cc)
                    if planes[0][target] == 0 and planes[1][target] == 0:
                        moved = planes.copy()
                        moved[0, row, column] = 0.0
                        moved[0][target] = 1.0
                        value = float(net.values(moved.reshape(1, -1), p)[0])
                        key = "own home boards" if row >= 4 else "opponent's home boards"
                        changes[key].append(value - base)
                        break
    print("A stone moved from a board's edge to an empty central square of its board (material unchanged):")
    for key, values in changes.items():
        print(f"  {key}: mean change {statistics.fmean(values):+.4f} over {len(values)} stones")


if __name__ == "__main__":
    main()
