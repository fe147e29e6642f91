"""Each game's evaluation: bounds, zero sum, terminal returns, and what it rewards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE
from shogames.core.registry import make


@pytest.mark.parametrize(
    ("game_id", "settings"),
    [
        ("shobu", {}),
        ("shoo", {"max_turns": 300}),
        ("sho", {"players": 3}),
        ("sho", {"players": 4}),
        ("shogammon", {}),
    ],
)
def test_evaluations_stay_inside_the_utility_range(game_id: str, settings: dict[str, Any]) -> None:
    game = make(game_id, **settings)
    rng = random.Random(1)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            values = state.evaluate()
            assert len(values) == game.num_players
            assert all(game.min_utility < value < game.max_utility for value in values)
            assert sum(values) == pytest.approx(0.0, abs=1e-9)
            move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(state.legal_moves())
            state = state.play_unchecked(move)
        assert state.evaluate() == state.returns()


def test_shobu_values_the_last_stones_of_a_board_most() -> None:
    game = make("shobu")
    even = game.state_from_text("wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb b")
    one_down = game.state_from_text("wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb www1/4/4/bbbb b")
    three_down = game.state_from_text("w3/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb b")
    assert even.evaluate() == (0.0, 0.0)
    assert 0 < one_down.evaluate()[0] < three_down.evaluate()[0] < 0.95


def test_shoo_counts_the_race() -> None:
    game = make("shoo")
    start = game.start_position()
    assert start.evaluate() == (0.0, 0.0)
    south = start.to_move
    assert south is not None
    ahead = start.play_text("g3-f4")  # a South traveller one step nearer a7-c9
    assert ahead.evaluate()[south] > 0


def test_sho_rewards_progress_and_the_extra_throw() -> None:
    game = make("sho", players=2)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.to_move == CHANCE:
        state = state.play_unchecked(sample_chance(state, rng))
    seat = state.to_move
    assert seat is not None
    values = [state.play_unchecked(move).evaluate()[seat] for move in state.legal_moves()]
    assert max(values) > 0  # the opening entry puts the mover ahead


def test_sho_counts_the_steps_left_the_danger_and_the_stacks() -> None:
    game = make("sho", players=2)
    # The same coins at the same distances, but b's coin on 24 lands on a's coin on 30 with a 6 (5 in 36),
    # and b's coin on 18 needs a 12 (1 in 36); b throws next.
    threatened = game.state_from_text("1a1,24b1,30a1,44b1 7/7 0/0 2 throw - 0 - 9 20 entered=ab")
    safer = game.state_from_text("1a1,18b1,30a1,50b1 7/7 0/0 2 throw - 0 - 9 20 entered=ab")
    assert threatened.evaluate()[0] < safer.evaluate()[0] < 0
    # Two coins stacked travel as one: a stack of two on 30 beats single coins on 28 and 32.
    apart = game.state_from_text("28a1,32a1 7/9 0/0 2 throw - 0 - 9 20 entered=a")
    together = game.state_from_text("30a2 7/9 0/0 2 throw - 0 - 9 20 entered=a")
    assert 0 < apart.evaluate()[0] < together.evaluate()[0] < 0.95
    # A coin in hand costs more steps than a lone coin that has entered on 7.
    in_hand = game.state_from_text("30a2 7/9 0/0 2 throw - 0 - 9 20 entered=a")
    entered = game.state_from_text("7a1,30a2 6/9 0/0 2 throw - 0 - 9 20 entered=a")
    assert in_hand.evaluate()[0] < entered.evaluate()[0]


def test_shogammon_counts_material_and_the_threat_on_a_king() -> None:
    game = make("shogammon")
    assert game.state_from_text("4k4/9/9/9/9/9/9/9/4K4 b R 1 - 1").evaluate()[0] > 0.5  # a rook in hand
    # White to roll, its rook on Black's king's file: a 5 takes the king.
    attacking = game.state_from_text("4k4/9/9/9/4r4/9/9/9/4K4 w - 1 - 1").evaluate()[1]
    aside = game.state_from_text("4k4/9/9/9/5r3/9/9/9/4K4 w - 1 - 1").evaluate()[1]
    assert attacking == pytest.approx(0.95 * 11 / 36 + (1 - 11 / 36) * aside)
    assert attacking > aside + 0.1
