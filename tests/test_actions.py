"""Every registered game, under every preset, numbers its moves and shows its positions as tensors.

At every position of random games (the research surface's promises, ``docs/research.md``):

* the legal actions are ascending, distinct and inside the action space (:attr:`Game.num_distinct_actions`,
  or :attr:`Game.max_chance_outcomes` at a chance node), so a legal move outside the space fails here;
* move -> action -> move is the identity for every legal move, and the mask is exactly the legal actions;
* an action that is not legal here is refused with :class:`IllegalMoveError`;
* every seat's observation has the game's fixed shape, one name per plane, and finite values;
* the game ends within :attr:`Game.max_game_length` plies.
"""

from __future__ import annotations

import math
import random
from itertools import compress
from typing import Any

import pytest

from game_cases import preset_cases
from shogames.core.chance import sample_outcome
from shogames.core.errors import IllegalMoveError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import make

GAMES_PER_CASE = 3
"""Random games played per game and preset by the full check (``--run-slow``)."""
SUITE_GAMES_PER_CASE = 1
"""Random games played per game and preset in the suite: the first of the full check's, as the seed is the
same (Shoo's games run to a thousand plies, and checking 400 of them takes seconds)."""
PLIES_CHECKED = 400
"""Plies of each random game checked position by position; the rest of the game is played out unchecked."""


def check_position(state: State[Any], rng: random.Random) -> None:
    """Every promise of the action and observation encoding at one position."""
    game = state.game
    chance = state.to_move == CHANCE
    size = game.max_chance_outcomes if chance else game.num_distinct_actions
    moves = list(state.legal_moves())
    actions = state.legal_actions()
    assert actions == sorted(set(actions)), f"legal actions not ascending and distinct at {state.to_text()!r}"
    assert len(actions) == len(moves), f"two legal moves share an action id at {state.to_text()!r}"
    for move in moves:
        action = state.move_to_action(move)
        assert isinstance(action, int) and 0 <= action < size, (
            f"{state.move_to_text(move)} has action {action}, outside 0..{size - 1} at {state.to_text()!r}"
        )
        assert state.action_to_move(action) == move, (
            f"action {action} of {state.move_to_text(move)} reads back as another move at {state.to_text()!r}"
        )
    mask = state.legal_action_mask()
    assert len(mask) == size
    assert list(compress(range(size), mask)) == actions
    candidates = (-1, size, *rng.sample(range(size), min(size, 8)))
    illegal = [action for action in candidates if action not in actions]
    for action in illegal:
        with pytest.raises(IllegalMoveError):
            state.action_to_move(action)
    shape = game.observation_shape
    assert len(game.observation_planes) == shape[0]
    for seat in range(game.num_players):
        tensor = state.observation_tensor(seat)
        assert len(tensor) == math.prod(shape), f"seat {seat}'s observation has {len(tensor)} values"
        assert all(isinstance(value, float) and math.isfinite(value) for value in tensor)
        assert isinstance(state.observation_string(seat), str)


def play_random_game(game: Game[Any], rng: random.Random) -> int:
    """Play one random game, checking the first :data:`PLIES_CHECKED` positions; its length in plies."""
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        if plies < PLIES_CHECKED:
            check_position(state, rng)
        if state.to_move == CHANCE:
            move = sample_outcome(state.chance_outcomes(), rng)
        else:
            move = rng.choice(list(state.legal_moves()))
        if plies < PLIES_CHECKED:
            state = state.play_action(state.move_to_action(move))
        else:
            state = state.play_unchecked(move)
        plies += 1
        assert plies <= game.max_game_length, f"the game outlasted max_game_length = {game.max_game_length}"
    assert state.legal_actions() == []
    return plies


def check_random_games(game_id: str, preset: str | None, games: int) -> None:
    """The action space's sizes, then :func:`play_random_game` ``games`` times (seeded by the case)."""
    game = make(game_id, preset)
    assert game.num_distinct_actions > 0
    assert (game.max_chance_outcomes > 0) == game.has_chance
    rng = random.Random(f"{game_id}-{preset}")
    for _ in range(games):
        play_random_game(game, rng)


@pytest.mark.parametrize(("game_id", "preset"), preset_cases())
def test_actions_and_observations_hold_in_random_games(game_id: str, preset: str | None) -> None:
    check_random_games(game_id, preset, SUITE_GAMES_PER_CASE)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "preset"), preset_cases())
def test_actions_and_observations_hold_in_more_random_games(game_id: str, preset: str | None) -> None:
    # The same check over every random game of the full count; run with --run-slow.
    check_random_games(game_id, preset, GAMES_PER_CASE)
