"""The browser views of every game: JSON positions, and click sequences that always end at one move."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import shogames
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import available_games
from shogames.server.views import OPTION_PREFIX, last_move_targets, legal_move_views, views_for

OUR_GAMES = [cls for cls in available_games() if cls.__module__.startswith("shogames.games.")]
"""The four games (other tests register toy games in the same registry)."""
GAMES_AND_PRESETS = [(cls.id, preset) for cls in OUR_GAMES for preset in (None, *sorted(cls.presets))]


def random_states(game: Game[Any], seed: int, limit: int = 120) -> list[State[Any]]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state]
    while not state.is_terminal() and len(states) < limit:
        if state.to_move == CHANCE:
            state = state.play(sample_chance(state, rng))
        else:
            state = state.play(rng.choice(list(state.legal_moves())))
        states.append(state)
    return states


@pytest.mark.parametrize(("game_id", "preset"), GAMES_AND_PRESETS)
def test_clicks_are_distinct_and_prefix_free(game_id: str, preset: str | None) -> None:
    game = shogames.make(game_id, preset)
    for seed in range(3):
        for state in random_states(game, seed):
            view = views_for(game_id).position_view(state)
            json.dumps(view)
            moves = legal_move_views(state)
            if state.is_terminal() or state.to_move == CHANCE:
                assert moves == []
                continue
            sequences = [tuple(move["clicks"]) for move in moves]
            assert all(sequences), "every move takes at least one click"
            assert len(set(sequences)) == len(sequences), f"two moves share clicks in {state.to_text()!r}"
            prefixes = {sequence[:length] for sequence in sequences for length in range(1, len(sequence))}
            clash = [move["text"] for move in moves if tuple(move["clicks"]) in prefixes]
            assert not clash, f"{clash} end where other moves go on, in {state.to_text()!r}"
            for sequence in sequences:
                assert all(isinstance(target, str) and target for target in sequence)


@pytest.mark.parametrize("game_id", [cls.id for cls in OUR_GAMES])
def test_last_move_targets_are_the_board_clicks(game_id: str) -> None:
    game = shogames.make(game_id)
    states = random_states(game, 7, 40)
    for before, after in itertools.pairwise(states):
        if before.to_move == CHANCE:
            continue
        move = next(m for m in before.legal_moves() if before.play(m).key() == after.key())
        clicks = views_for(game_id).move_clicks(before, move)
        targets = last_move_targets(before, move)
        assert targets == [target for target in clicks if not target.startswith(OPTION_PREFIX)]
        if game_id != "shoo":  # Shoo's choice after the toss and HUSH are buttons only
            assert targets


def test_a_game_without_views_is_named() -> None:
    with pytest.raises(KeyError, match="no browser view"):
        views_for("chess")
