"""The browser views of every game: JSON positions, and click sequences that always end at one move."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import shogames
from shogames.core.chance import sample_chance
from shogames.core.errors import SettingsError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import available_games
from shogames.server.views import (
    GENERIC_VIEW,
    OPTION_PREFIX,
    assets_folder,
    last_move_targets,
    legal_move_views,
    view_module_name,
    views_for,
)
from toy_games import PlainDiceRaceGame

GAMES = available_games()
"""Every registered game: the four, and the toy games installed for the tests (``conftest.py``): the dice
race with its own view, the same race with the generic view, and tic-tac-toe."""
GAMES_AND_PRESETS = [(cls.id, preset) for cls in GAMES for preset in (None, *sorted(cls.presets))]


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


@pytest.mark.parametrize("game_id", [cls.id for cls in GAMES])
def test_last_move_targets_are_the_board_clicks(game_id: str) -> None:
    game = shogames.make(game_id)
    states = random_states(game, 7, 40)
    for before, after in itertools.pairwise(states):
        if before.to_move == CHANCE:
            continue
        move = next(m for m in before.legal_moves() if before.play(m).key() == after.key())
        clicks = views_for(game_id).move_clicks(before, move)
        targets = last_move_targets(before, move)
        board = [target for target in clicks if not target.startswith(OPTION_PREFIX)]
        # The clicks first; a view may add more (Shobu: where the aggressive stone landed, a pushed stone).
        assert targets[: len(board)] == board
        if not hasattr(views_for(game_id), "last_move_targets"):
            assert targets == board
        if game_id not in ("shoo", PlainDiceRaceGame.id):  # buttons only: Shoo's opening choice and HUSH
            assert targets


@pytest.mark.parametrize("cls", GAMES, ids=[cls.id for cls in GAMES])
def test_every_game_has_a_view_and_a_renderer(cls: type[Game[Any]]) -> None:
    module = views_for(cls.id)
    assert callable(module.position_view) and callable(module.move_clicks)
    folder = assets_folder(cls.id)
    assert (folder / "renderer.js").is_file() and (folder / "renderer.css").is_file()
    assert "export function render(" in (folder / "renderer.js").read_text()


def test_a_game_without_a_view_module_gets_the_generic_view() -> None:
    assert view_module_name(PlainDiceRaceGame.id) == GENERIC_VIEW
    state = PlainDiceRaceGame().new_initial_state().play(2)
    view = views_for(PlainDiceRaceGame.id).position_view(state)
    assert view["text"] == state.to_text() and view["diagram"] == state.diagram().splitlines()
    assert legal_move_views(state) == [
        {"text": "+1", "clicks": ["opt:+1"]},
        {"text": "+2", "clicks": ["opt:+2"]},
    ]


def test_an_unknown_game_has_no_view() -> None:
    with pytest.raises(SettingsError, match="unknown game 'chess'"):
        views_for("chess")


@pytest.mark.parametrize("game_id", [cls.id for cls in GAMES if cls.view_module is not None])
def test_views_read_the_state_not_its_position_text(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A view gives the same description when the position text is garbage: it never parses it."""
    game = shogames.make(game_id)
    states = random_states(game, 3, 80)
    module = views_for(game_id)
    before = [module.position_view(state) for state in states]
    monkeypatch.setattr(type(states[0]), "to_text", lambda self: "not a position")
    after = [module.position_view(state) for state in states]
    for old, new in zip(before, after, strict=True):
        assert {**old, "text": None} == {**new, "text": None}
