"""Positions the tests of the web app start from, found by playing random games."""

from __future__ import annotations

import random
from typing import Any

import shogames
from shogames.core.protocol import CHANCE, State


def roll(state: State[Any], rng: random.Random) -> Any:
    """A chance outcome drawn with its probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([outcome for outcome, _ in outcomes], [weight for _, weight in outcomes])[0]


def die_lost_position() -> tuple[str, str]:
    """A Shogammon position (dice rolled) and a move after which the other die has no play."""
    game = shogames.make("shogammon")
    rng = random.Random(11)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.to_move == CHANCE:
                state = state.play(roll(state, rng))
                continue
            for move in state.legal_moves():
                after = state.play(move)
                if (
                    len(state.dice) == 2
                    and "&" not in state.move_to_text(move)
                    and not after.is_terminal()
                    and after.to_move == CHANCE
                    and ":-" not in state.move_to_text(move)
                ):
                    return state.to_text(), state.move_to_text(move)
            state = state.play(rng.choice(state.legal_moves()))
