"""The browser view of Shogammon: the position as JSON and the clicks of every kind of move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import shogames
from shogames.core.protocol import CHANCE, State
from shogames.games.shogammon import ShogammonState
from shogames.games.shogammon.view import move_clicks, position_view
from shogames.server.views import legal_move_views

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"


def state_of(text: str, **settings: object) -> ShogammonState:
    state = shogames.make("shogammon", None, **settings).state_from_text(text)
    assert isinstance(state, ShogammonState)
    return state


def clicks_by_text(state: State[Any]) -> dict[str, list[str]]:
    return {move["text"]: move["clicks"] for move in legal_move_views(state)}


def assert_prefix_free(state: State[Any]) -> None:
    sequences = [tuple(clicks) for clicks in clicks_by_text(state).values()]
    assert len(set(sequences)) == len(sequences)
    every = set(sequences)
    for sequence in sequences:
        assert sequence
        assert not any(sequence[:cut] in every for cut in range(1, len(sequence)))


def test_start_position_view() -> None:
    view = position_view(shogames.make("shogammon").new_initial_state())
    assert json.loads(json.dumps(view)) == view
    assert view["files"] == "987654321" and view["ranks"] == "abcdefghi"
    assert view["board"][0][4] == [{"owner": 1, "kind": "K", "promoted": False}]
    assert view["board"][7][1] == [{"owner": 0, "kind": "B", "promoted": False}]
    assert view["board"][7][7] == [{"owner": 0, "kind": "R", "promoted": False}]
    assert view["board"][4] == [[]] * 9
    assert view["hands"] == [[], []]
    assert view["dice"] == [] and view["dice_used"] == 0
    assert view["to_move"] == CHANCE and view["side"] == 0
    assert view["status"] == "Black to roll"
    assert view["die_map_text"] == "1:P 2:LN 3:S 4:G 5:BR 6:K"
    assert view["die_map"][1] == {"face": 2, "kinds": ["L", "N"]}
    assert view["face_of"] == {"P": 1, "L": 2, "N": 2, "S": 3, "G": 4, "B": 5, "R": 5, "K": 6}
    assert (view["turns"], view["max_turns"], view["ply"]) == (0, 1000, 0)
    assert (view["terminal"], view["winner"], view["termination"]) == (False, None, None)
    assert view["players"] == ["Black", "White"] and view["strict_dice"] is False


def test_points_hands_promoted_pieces_and_one_die_left() -> None:
    board = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPP2PPP/1[BS]5R1/LN1GKGSNL"
    state = state_of(f"{board} b 2Pb 1 1 2")
    view = position_view(state)
    assert view["board"][7][1] == [
        {"owner": 0, "kind": "B", "promoted": False},
        {"owner": 0, "kind": "S", "promoted": False},
    ]
    assert view["hands"] == [[{"kind": "P", "count": 2}], [{"kind": "B", "count": 1}]]
    assert view["dice"] == [1] and view["dice_used"] == 1 and view["to_move"] == 0
    assert view["status"] == "Black to play 1"
    dragon = position_view(state_of("4k4/9/9/9/9/9/9/4[P+R]4/4K4 w - 5 2-5 20"))
    assert dragon["board"][7][4][1] == {"owner": 0, "kind": "R", "promoted": True}
    assert dragon["side"] == 1 and dragon["to_move"] == 1 and dragon["turns"] == 4


def test_other_die_maps() -> None:
    view = position_view(state_of(f"{START} b - 1 - 0", die_map="generals"))
    assert view["die_map_text"] == "1:P 2:LN 3:SG 4:B 5:R 6:K"


def test_finished_game() -> None:
    state = state_of("4G4/9/9/9/9/9/9/9/4K4 b - 7 - 30")
    view = position_view(state)
    assert view["terminal"] and view["winner"] == 0 and view["termination"] == "king taken"
    assert view["to_move"] is None and view["status"] == "Black took the king and won"
    capped = position_view(state_of("4k4/9/9/9/9/9/9/9/4K4 w - 11 - 30", max_turns=10))
    assert capped["terminal"] and capped["winner"] is None and capped["termination"] == "length cap"
    assert capped["status"] == "Drawn: the turn cap was reached"


def test_board_moves_are_piece_then_destination() -> None:
    state = state_of(f"{START} b - 1 1-1 1")
    clicks = clicks_by_text(state)
    assert clicks["1:7g7f"] == ["sq:7g", "sq:7f"]
    assert len(clicks) == 9
    assert_prefix_free(state)


def test_promotion_is_asked_only_when_optional() -> None:
    state = shogames.make("shogammon").new_initial_state()
    for text in ("1-1", "1:7g7f", "1:2g2f", "1-1", "1:3c3d", "1:8c8d", "5-6"):
        state = state.play_text(text)
    clicks = clicks_by_text(state)
    assert clicks["5:8h2b+"] == ["sq:8h", "sq:2b", "opt:promote"]
    assert clicks["5:8h2b"] == ["sq:8h", "sq:2b", "opt:no promotion"]
    assert clicks["5:8h4d"] == ["sq:8h", "sq:4d"]
    assert_prefix_free(state)
    forced = state_of("4k4/P8/9/9/9/9/9/9/4K4 b - 1 1-6 1")
    assert clicks_by_text(forced)["1:9b9a+"] == ["sq:9b", "sq:9a"]


def test_drop_is_hand_piece_then_square() -> None:
    state = state_of("4k4/9/9/9/9/9/9/9/4K4 b P 1 1-6 1")
    clicks = clicks_by_text(state)
    assert clicks["1:P*5e"] == ["hand:0:P", "sq:5e"]
    assert clicks["6:5i4h"] == ["sq:5i", "sq:4h"]
    white = state_of("4k4/9/9/9/9/9/9/9/4K4 w g 1 3-4 1")
    assert clicks_by_text(white)["4:G*5e"] == ["hand:1:G", "sq:5e"]


def test_point_capture_is_first_piece_point_second_piece() -> None:
    state = state_of("8k/9/9/9/4[pg]4/3S1G3/9/9/K8 b - 1 3-4 1")
    clicks = clicks_by_text(state)
    assert clicks["4:4f5e&3:6f5e"] == ["sq:4f", "sq:5e", "sq:6f"]
    assert clicks["3:6f5e&4:4f5e"] == ["sq:6f", "sq:5e", "sq:4f"]
    assert_prefix_free(state)
    # The piece underneath the first mover may be the second.
    stacked = state_of("8k/9/9/9/4[pg]4/4[GS]4/9/9/K8 b - 1 3-4 1")
    assert clicks_by_text(stacked)["3:5f5e&4:5f5e"] == ["sq:5f", "sq:5e", "sq:5f"]
    assert_prefix_free(stacked)


def test_point_capture_asks_each_promotion_after_its_piece() -> None:
    state = state_of("8k/9/4[pp]4/9/9/4L4/9/9/K3R4 b - 1 2-5 1")
    clicks = clicks_by_text(state)
    assert clicks["2:5f5c+&5:5i5c"] == ["sq:5f", "sq:5c", "opt:promote", "sq:5i", "opt:no promotion"]
    assert clicks["2:5f5c&5:5i5c+"] == ["sq:5f", "sq:5c", "opt:no promotion", "sq:5i", "opt:promote"]
    assert_prefix_free(state)


def test_losing_a_die_is_a_button() -> None:
    state = state_of("8k/9/9/9/9/9/4[KG]4/9/9 b - 1 4-6 1")
    clicks = clicks_by_text(state)
    assert clicks["6:-"] == ["opt:pass die 6"]
    assert clicks["4:5g5f"] == ["sq:5g", "sq:5f"]
    assert_prefix_free(state)


def test_rolls_and_foreign_states_are_refused() -> None:
    before = shogames.make("shogammon").new_initial_state()
    with pytest.raises(ValueError, match="not a legal move"):
        move_clicks(before, before.legal_moves()[0])
    with pytest.raises(TypeError):
        position_view(shogames.make("shobu").new_initial_state())


@pytest.mark.parametrize("preset", ["classic", "generals", "minors-split", "strict"])
def test_random_games_give_prefix_free_clicks(preset: str) -> None:
    rng = random.Random(preset)
    state: State[Any] = shogames.make("shogammon", preset=preset).new_initial_state()
    while not state.is_terminal() and state.ply < 150:
        json.dumps(position_view(state))
        if state.to_move != CHANCE:
            assert_prefix_free(state)
        state = state.play(rng.choice(state.legal_moves()))
    json.dumps(position_view(state))


def test_a_fourfold_repetition_is_shown_as_a_draw() -> None:
    game = shogames.make("shogammon", repetition="fourfold")
    state = game.state_from_text("8k/9/9/9/9/9/9/9/K8 b - 1 - 0")
    for _ in range(3):
        for text in ("6-6", "6:9i9h", "6:9h9i", "6-6", "6:1a1b", "6:1b1a"):
            state = state.play_text(text)
    view = position_view(state)
    assert view["terminal"] and view["winner"] is None and view["termination"] == "repetition"
    assert view["status"] == "Drawn: the same position stood a fourth time"


def test_the_backgammon_opening_roll_is_announced() -> None:
    state = shogames.make("shogammon", "backgammon").new_initial_state()
    assert state.is_opening_roll and position_view(state)["status"].startswith("Each side rolls one die")
    after = state.play(state.legal_moves()[0])
    assert not after.is_opening_roll and "to play" in position_view(after)["status"]
