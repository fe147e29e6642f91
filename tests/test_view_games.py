"""The browser views of Shobu, Sho and Shogammon on known positions (Shoo's are in test_view_shoo.py)."""

from __future__ import annotations

import json
from typing import Any

import shogames
from shogames.core.protocol import State
from shogames.server.views import legal_move_views, views_for


def clicks_of(state: State[Any], text: str) -> list[str]:
    moves = {move["text"]: list(move["clicks"]) for move in legal_move_views(state)}
    return moves[text]


def test_shobu_turn_is_passive_stone_destination_then_aggressive_stone() -> None:
    state = shogames.make("shobu").new_initial_state()
    assert clicks_of(state, "BDa1-a3 WLb1-b3") == ["sq:BD:a1", "sq:BD:a3", "sq:WL:b1"]
    view = views_for("shobu").position_view(state)
    json.dumps(view)
    assert [board["name"] for board in view["boards"]] == ["WD", "WL", "BD", "BL"]
    assert all(board["count"] == [4, 4] for board in view["boards"])
    assert view["to_move"] == 0 and view["homeboards"][0] == ["BD", "BL"]
    after = state.play_text("BDa1-a3 WLb1-b3")
    boards = {board["name"]: board for board in views_for("shobu").position_view(after)["boards"]}
    assert boards["BD"]["stones"]["a3"] == "b" and "a1" not in boards["BD"]["stones"]


def test_sho_moves_are_source_then_destination_and_entries_start_from_the_hand() -> None:
    game = shogames.make("sho")
    state = game.state_from_text(
        "5b1,10c2,17a2,21c1,39c1,40c1,51a2,55b2 0/5/4 5/1/0 3 move 5 0 2-3 74 185 entered=abc"
    )
    assert clicks_of(state, "10:5") == ["shell:10", "shell:15"]
    assert clicks_of(state, "h1:5")[0] == "hand:2" and clicks_of(state, "h1:5")[-1] == "shell:5"
    view = views_for("sho").position_view(state)
    json.dumps(view)
    assert len(view["stacks"]) == 8 and view["values"] == [5]
    assert [side["hand"] for side in view["sides"]] == [0, 5, 4]
    assert [side["off"] for side in view["sides"]] == [5, 1, 0]


def test_shogammon_board_moves_drops_and_the_dice() -> None:
    game = shogames.make("shogammon")
    state = game.state_from_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 1-1 1")
    assert clicks_of(state, "1:7g7f") == ["sq:7g", "sq:7f"]
    view = views_for("shogammon").position_view(state)
    json.dumps(view)
    assert view["dice"] == [1, 1] and view["to_move"] == 0
    dropping = game.state_from_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b P 1 1-2 1")
    assert clicks_of(dropping, "1:P*5e") == ["hand:0:P", "sq:5e"]
