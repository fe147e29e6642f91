"""The browser view of the test game tic-tac-toe on known positions: its fields, and one click per move."""

from __future__ import annotations

import json

import shogames
from shogames.server.views import assets_folder, legal_move_views, views_for


def test_the_view_lists_every_square_from_the_bottom_left() -> None:
    state = shogames.make("toy_tictactoe").state_from_text("x.o/.x./... o")
    view = views_for("toy_tictactoe").position_view(state)
    json.dumps(view)
    assert view == {
        "size": 3,
        "line": 3,
        "files": "abc",
        "marks": ["", "", "", "", "x", "", "x", "", "o"],
        "players": ["X", "O"],
        "to_move": 1,
        "terminal": False,
        "winner": None,
    }


def test_a_won_game_names_its_winner() -> None:
    state = shogames.make("toy_tictactoe").state_from_text(".ox/.xo/x.. o")
    view = views_for("toy_tictactoe").position_view(state)
    assert view["terminal"] and view["winner"] == 0 and view["to_move"] is None
    assert legal_move_views(state) == []


def test_a_move_is_one_click_on_its_square() -> None:
    game = shogames.make("toy_tictactoe", "five")
    moves = legal_move_views(game.new_initial_state().play_text("e5"))
    assert len(moves) == 24 and moves[0] == {"text": "a1", "clicks": ["sq:a1"]}
    assert {"text": "d5", "clicks": ["sq:d5"]} in moves and {"text": "e5", "clicks": ["sq:e5"]} not in moves


def test_the_renderer_draws_a_target_per_square() -> None:
    script = (assets_folder("toy_tictactoe") / "renderer.js").read_text()
    assert 'data-target="sq:${name}"' in script and "export function render(" in script
