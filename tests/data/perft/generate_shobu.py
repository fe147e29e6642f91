"""Regenerate the midgame entries of shobu.perft: seeded random positions, counted by two implementations.

Run from the repository root: ``python tests/data/perft/generate_shobu.py > /tmp/mid.perft``. Depths 1-2
are checked against the naive reference generator in tests/shobu_reference.py before being written; depth 3
comes from the engine alone (the reference would take minutes).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import shobu_reference
import shogames
from shogames import perft


def main() -> None:
    game = shogames.make("shobu")
    rng = random.Random(2026)
    for index, target_ply in enumerate((7, 12, 19, 24, 33, 40)):
        state = game.new_initial_state()
        while state.ply < target_ply and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        text = state.to_text()
        print(f"id mid-{index + 1}")
        print(f"epd {text}")
        for depth in (1, 2, 3):
            count = perft(state, depth)
            if depth < 3:
                assert count == shobu_reference.perft(text, depth), (text, depth)
            print(f"perft {depth} {count}")
        print()


if __name__ == "__main__":
    main()
