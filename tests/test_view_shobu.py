"""The browser view of Shobu: the position description and the three clicks of a turn."""

from __future__ import annotations

import json
import random

import pytest

from shogames import make
from shogames.games.shobu import PASS_MOVE, ShobuState, view

# Mid-game after 23 random turns, White to move (the stones are listed in the position view test).
MIDGAME = "1w2/3b/b1w1/1wbw 4/b2w/1w1b/b1w1 1wwb/1b2/bb2/4 1wwb/1wb1/b1bw/4 w 23"
# Black has one stone on each board, walled in on both homeboards: no passive move at all.
NO_TURN = "w3/4/4/b3 w3/4/4/b3 w3/4/ww2/bw2 w3/4/ww2/bw2 b"


def clicks_by_text(state: ShobuState) -> dict[str, tuple[str, ...]]:
    """Every legal move's notation mapped to its clicks."""
    return {state.move_to_text(move): view.move_clicks(state, move) for move in state.legal_moves()}


def assert_prefix_free(state: ShobuState) -> None:
    """The click sequences of the legal moves are all different and none is a prefix of another."""
    sequences = [view.move_clicks(state, move) for move in state.legal_moves()]
    assert len(set(sequences)) == len(sequences)
    seen = set(sequences)
    for sequence in sequences:
        for k in range(1, len(sequence)):
            assert sequence[:k] not in seen, sequence


def test_start_clicks_are_passive_stone_destination_and_aggressive_stone() -> None:
    state = make("shobu").new_initial_state()
    clicks = clicks_by_text(state)
    assert len(clicks) == 232
    assert clicks["BDa1-a3 WLb1-b3"] == ("sq:BD:a1", "sq:BD:a3", "sq:WL:b1")
    assert clicks["BLd1-c2 BDb1-a2"] == ("sq:BL:d1", "sq:BL:c2", "sq:BD:b1")
    assert clicks["BDc1-c2 WLa1-a2"] == ("sq:BD:c1", "sq:BD:c2", "sq:WL:a1")
    # Black's first click is always on one of Black's homeboards, the third on a board of the other colour.
    for first, second, third in clicks.values():
        assert first.split(":")[1] in ("BD", "BL")
        assert second.split(":")[1] == first.split(":")[1]
        assert (third.split(":")[1] in ("WL", "BL")) == (first.split(":")[1] == "BD")
    assert_prefix_free(state)


def test_one_passive_move_leaves_a_choice_of_aggressive_stones() -> None:
    state = make("shobu").new_initial_state()
    after_two = {
        clicks[2] for clicks in clicks_by_text(state).values() if clicks[:2] == ("sq:BD:a1", "sq:BD:a3")
    }
    # Two squares north: every Black stone on the two light boards can follow (nothing to push yet).
    assert after_two == {f"sq:{board}:{file}1" for board in ("WL", "BL") for file in "abcd"}


def test_midgame_clicks_of_a_pushing_turn() -> None:
    state = make("shobu").state_from_text(MIDGAME)
    assert state.to_move == 1
    clicks = clicks_by_text(state)
    assert clicks["WDc2-b2 BLb3-a3"] == ("sq:WD:c2", "sq:WD:b2", "sq:BL:b3")
    # Two squares north; on BL White's d2 stone pushes Black's d4 stone off the board (not clicked).
    assert clicks["WDc2-c4 BLd2-d4"] == ("sq:WD:c2", "sq:WD:c4", "sq:BL:d2")
    after = {
        board["name"]: board for board in view.position_view(state.play_text("WDc2-c4 BLd2-d4"))["boards"]
    }
    assert after["BL"]["count"] == [3, 4] and after["BL"]["stones"]["d4"] == "w"
    assert after["WD"]["stones"]["c4"] == "w" and "c2" not in after["WD"]["stones"]
    # White's passive moves start on White's homeboards only.
    assert {first.split(":")[1] for first, _, _ in clicks.values()} == {"WD", "WL"}
    assert_prefix_free(state)


def test_position_view_fields_of_a_midgame_position() -> None:
    state = make("shobu").state_from_text(MIDGAME)
    data = view.position_view(state)
    assert json.loads(json.dumps(data)) == data
    boards = {board["name"]: board for board in data["boards"]}
    assert [board["name"] for board in data["boards"]] == ["WD", "WL", "BD", "BL"]
    assert boards["WD"] == {
        "name": "WD",
        "index": 0,
        "colour": "dark",
        "owner": 1,
        "row": 0,
        "col": 0,
        "stones": {"b4": "w", "d3": "b", "a2": "b", "c2": "w", "b1": "w", "c1": "b", "d1": "w"},
        "count": [3, 4],
    }
    assert (boards["WL"]["colour"], boards["WL"]["owner"], boards["WL"]["count"]) == ("light", 1, [3, 3])
    assert (boards["BD"]["row"], boards["BD"]["col"], boards["BD"]["count"]) == (1, 0, [4, 2])
    assert (boards["BL"]["colour"], boards["BL"]["owner"], boards["BL"]["count"]) == ("light", 0, [4, 4])
    assert data["homeboards"] == [["BD", "BL"], ["WD", "WL"]]
    assert data["players"] == ["Black", "White"] and data["colours"] == ["b", "w"]
    assert (data["to_move"], data["side"], data["mover_colour"]) == (1, 1, "w")
    assert (data["turns"], data["max_turns"]) == (23, 300)
    assert (data["terminal"], data["winner"], data["termination"]) == (False, None, None)
    assert (data["files"], data["ranks"], data["no_turn"]) == ("abcd", "1234", "lose")


def test_a_won_game_shows_the_winner_and_the_empty_board() -> None:
    # Black pushes White's last stone off BL: BDa1-a2 (north), then BL a3-a4 pushes the White stone off.
    state = make("shobu").state_from_text("wwww/4/4/bbbb wwww/4/4/bbbb 3w/4/4/bbbb w3/b3/4/1bbb b")
    after = state.play_text("BDa1-a2 BLa3-a4")
    data = view.position_view(after)
    boards = {board["name"]: board for board in data["boards"]}
    assert boards["BL"]["count"] == [4, 0] and boards["BL"]["stones"]["a4"] == "b"
    assert (data["terminal"], data["winner"], data["termination"], data["to_move"]) == (
        True,
        0,
        "normal",
        None,
    )
    assert data["side"] == 1 and data["turns"] == 1
    json.dumps(data)


def test_no_legal_turn_is_a_pass_button_under_no_turn_pass() -> None:
    state = make("shobu", no_turn="pass").state_from_text(NO_TURN)
    assert [view.move_clicks(state, move) for move in state.legal_moves()] == [("opt:pass",)]
    assert view.move_clicks(state, PASS_MOVE) == ("opt:pass",)
    assert view.position_view(state)["no_turn"] == "pass"
    lost = make("shobu").state_from_text(NO_TURN)
    data = view.position_view(lost)
    assert (data["terminal"], data["winner"], data["termination"]) == (True, 1, "no legal turn")


def test_move_clicks_refuses_what_is_not_shobu() -> None:
    state = make("shobu").new_initial_state()
    with pytest.raises(TypeError):
        view.move_clicks(state, ("a1", "a2"))
    with pytest.raises(TypeError):
        view.position_view(make("shoo").start_position())


@pytest.mark.parametrize("settings", [{"preset": "standard"}, {"no_turn": "pass", "max_turns": 60}])
def test_random_games_have_prefix_free_clicks_on_drawn_squares(settings: dict[str, object]) -> None:
    game = make("shobu", **settings)  # type: ignore[arg-type]
    squares = {
        f"sq:{board}:{file}{rank}" for board in ("WD", "WL", "BD", "BL") for file in "abcd" for rank in "1234"
    }
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            assert_prefix_free(state)
            for move in state.legal_moves():
                for target in view.move_clicks(state, move):
                    assert target in squares or target == "opt:pass"
            json.dumps(view.position_view(state))
            state = state.play(rng.choice(state.legal_moves()))
        json.dumps(view.position_view(state))
