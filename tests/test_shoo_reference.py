"""Shoo's engine against the naive reference generator in shoo_reference.py (designers' ruleset)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shogames
from shogames.games.shoo import ShooMove, ShooState
from shoo_reference import reference_moves


def _is_rare(text: str) -> bool:
    """Shoo declarations, hushes and captures: paths a uniform random walk seldom takes."""
    return " shoo " in text or text == "HUSH" or ("x" in text and "@" in text)


def _state(text: str) -> ShooState:
    state = shogames.make("shoo").state_from_text(text)
    assert isinstance(state, ShooState)
    return state


def assert_agrees(state: ShooState) -> None:
    engine = {state.move_to_text(move) for move in state.legal_moves()}
    reference = reference_moves(state)
    assert engine == reference, (
        f"{state.to_text()}\n  engine only: {sorted(engine - reference)}\n"
        f"  reference only: {sorted(reference - engine)}"
    )


def play_and_compare(seed: int, plies: int, rare: float = 0.3) -> int:
    """Play one random game from the start, comparing at every non-terminal state; the states checked."""
    rng = random.Random(seed)
    state = shogames.make("shoo", first_player="blue").new_initial_state()
    assert isinstance(state, ShooState)
    checked = 0
    for _ in range(plies):
        if state.is_terminal():
            break
        assert_agrees(state)
        checked += 1
        moves = state.legal_moves()
        special: list[ShooMove] = [move for move in moves if _is_rare(state.move_to_text(move))]
        move = rng.choice(special) if special and rng.random() < rare else rng.choice(moves)
        state = state.play_unchecked(move)
    return checked


def test_random_games_agree_with_reference() -> None:
    assert sum(play_and_compare(seed, 250) for seed in range(6)) > 0


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_random_games_agree_with_reference_over_seeds(seed: int) -> None:
    play_and_compare(seed, 80, rare=0.5)


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        # Rulings T8 after `c7-b8 shoo a9`: no answer, so shooed off.
        ("n8/ss7/2S6/9/9/9/9/9/9 n 0/0 0/0 0/0 1 shoo=a9", {"~a9"}),
        # Rulings T11 after `e7-e6 shoo d5`: HUSH or an escape of d5.
        (
            "9/9/9/4s4/3n1n3/4s4/9/9/9 n 0/0 0/0 0/0 1 shoo=d5 hush=e7-e6",
            {"HUSH", "d5-c4", "d5-c5", "d5-c6", "d5-d4", "d5-d6"},
        ),
        # Blocked, but may hush: HUSH, or decline it and pass (§5 items 1 and 3).
        ("9/9/9/9/9/9/nn7/sn7/sn7 s 0/0 0/0 0/0 1 hush=c2-b1", {"HUSH", "pass"}),
        # Hushed with no alternative move left: pass (A26).
        ("9/9/9/9/9/9/sss6/sns6/s1s6 n 0/0 0/0 0/0 0 barred=b2-b1 ply=4", {"pass"}),
        # Nothing to do at all: pass.
        ("9/9/9/9/9/9/9/nn7/sn7 s 0/0 0/0 0/0 0", {"pass"}),
        # A rider in its own home area is placed inside it when captured (A21).
        ("9/9/9/9/9/9/6ss1/5SsNs/6sss s 0/0 0/0 0/0 0", None),
    ],
)
def test_constructed_positions_agree_with_reference(text: str, moves: set[str] | None) -> None:
    state = _state(text)
    assert_agrees(state)
    if moves is not None:
        assert reference_moves(state) == moves
