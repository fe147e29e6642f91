"""``shogames.drawing`` and ``State._repr_svg_`` over the registry: every game that names a renderer draws
every preset's positions as SVG, a game without one shows text in a notebook, and bad options are refused.
Each game's own test (``tests/test_render_<game>.py``) holds its Python renderer to the browser's markup."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import Any

import pytest

import shogames
from game_cases import preset_cases
from shogames.core.registry import available_games
from shogames.drawing import board_svg, has_drawing
from shogames.games import BUILTIN_GAMES


def test_the_four_games_draw_themselves() -> None:
    for game_id in BUILTIN_GAMES:
        assert has_drawing(shogames.make(game_id)), game_id


@pytest.mark.parametrize(("game_id", "preset"), preset_cases())
def test_a_state_shows_its_board_in_a_notebook(game_id: str, preset: str | None) -> None:
    state: Any = shogames.make(game_id, preset).new_initial_state()
    shown = state._repr_svg_()
    if not has_drawing(state.game):
        assert shown is None  # Jupyter falls back to the text of repr
        with pytest.raises(ValueError, match="has no drawing"):
            board_svg(state)
        return
    assert shown == board_svg(state)
    root = ElementTree.fromstring(shown)  # well-formed markup
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    for seat in range(state.game.num_players):
        assert board_svg(state, orientation=seat).startswith("<svg")


def test_an_orientation_that_is_no_seat_is_refused() -> None:
    state = shogames.make("shobu").new_initial_state()
    with pytest.raises(ValueError, match="orientation is a seat, an int from 0 to 1, got 2"):
        board_svg(state, orientation=2)


def test_every_registered_game_is_covered() -> None:
    assert {case.values[0] for case in preset_cases()} == {cls.id for cls in available_games()}
