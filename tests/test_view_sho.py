"""The browser view of Sho: the position description and the clicks of each move."""

from __future__ import annotations

import json
import random

import pytest

import shogames
from shogames.core.protocol import CHANCE
from shogames.games.sho import ShoGame, ShoState, view

# The seeded position from docs/games/sho.md: Player 3 (side c) moves with the value 5.
DOCS_POSITION = "5b1,10c2,17a2,21c1,39c1,40c1,51a2,55b2 0/5/4 5/1/0 3 move 5 0 2-3 74 185 entered=abc"


def _game(settings: dict[str, object]) -> ShoGame:
    options = dict(settings)
    preset = options.pop("preset", None)
    game = shogames.make("sho", preset if isinstance(preset, str) else None, **options)
    assert isinstance(game, ShoGame)
    return game


def _state(text: str, **settings: object) -> ShoState:
    state = _game(settings).state_from_text(text)
    assert isinstance(state, ShoState)
    return state


def _clicks(state: ShoState) -> dict[str, tuple[str, ...]]:
    return {state.move_to_text(move): view.move_clicks(state, move) for move in state.legal_moves()}


def test_view_of_the_docs_position() -> None:
    v = view.position_view(_state(DOCS_POSITION))
    json.dumps(v)
    assert (v["shells"], v["goal"], v["players"]) == (64, 64, 3)
    assert v["seat_side"] == [0, 1, 2] and v["teams"] is None
    assert v["stacks"][:2] == [
        {"pos": 5, "side": 1, "size": 1, "shomo": False},
        {"pos": 10, "side": 2, "size": 2, "shomo": False},
    ]
    assert len(v["stacks"]) == 8
    assert [(s["letter"], s["hand"], s["off"], s["on_track"]) for s in v["sides"]] == [
        ("a", 0, 5, 4),
        ("b", 5, 1, 3),
        ("c", 4, 0, 5),
    ]
    assert all(s["entered"] and s["place"] is None and s["coins"] == 9 for s in v["sides"])
    assert (v["seat"], v["side"], v["to_move"], v["phase"]) == (2, 2, 2, "move")
    assert v["values"] == [5] and v["paras"] == 0
    assert v["first_throw"] == [2, 3] and v["dice"] == [2, 3]
    assert (v["turns"], v["ply"], v["max_turns"]) == (74, 185, 2000)
    assert not v["terminal"] and v["winner_side"] is None and v["returns"] is None
    assert v["text"] == DOCS_POSITION


def test_clicks_of_the_docs_position() -> None:
    assert _clicks(_state(DOCS_POSITION)) == {
        "h1:5": ("hand:2", "shell:5"),
        "10:5": ("shell:10", "shell:15"),
        "21:5": ("shell:21", "shell:26"),
        "39:5": ("shell:39", "shell:44"),
        "40:5": ("shell:40", "shell:45"),
    }


def test_pa_ra_view_shows_the_pa_ra_dice_and_values() -> None:
    v = view.position_view(_state("5a1,10a2,12b2,16a1 5/7/9 0/0/0 1 move 2,11 1 1-1 3 11 entered=ab"))
    assert v["paras"] == 1 and v["first_throw"] == [1, 1] and v["dice"] == [1, 1]
    assert v["values"] == [2, 11]


def test_throw_phase_shows_carried_values() -> None:
    v = view.position_view(_state("5a1,12a2,16a1 5/9/9 0/0/0 1 throw 11 0 - 3 12 entered=ab"))
    assert (v["phase"], v["to_move"], v["values"], v["dice"]) == ("throw", CHANCE, [11], None)


def test_same_source_and_destination_get_a_choice_of_values() -> None:
    clicks = _clicks(_state("10a1,60a2,30b1 6/8/9 0/0/0 1 move 2,5,7 0 2-5 3 11 entered=ab"))
    # 2+5 and 7 both reach 17 from 10, and both enter on 7.
    assert clicks["10:7"] == ("shell:10", "shell:17", "opt:use 7")
    assert clicks["10:2+5"] == ("shell:10", "shell:17", "opt:use 2+5")
    assert clicks["h1:7"] == ("hand:0", "shell:7", "opt:use 7")
    assert clicks["h1:2+5"] == ("hand:0", "shell:7", "opt:use 2+5")
    assert clicks["10:5+7"] == ("shell:10", "shell:22")
    # From 60, everything but 2 bears off: one choice button per set of values.
    assert clicks["60:2"] == ("shell:60", "shell:62")
    assert clicks["60:5"] == ("shell:60", "goal", "opt:use 5")
    assert clicks["60:2+5+7"] == ("shell:60", "goal", "opt:use 2+5+7")
    assert len([c for c in clicks.values() if c[:2] == ("shell:60", "goal")]) == 6


def test_six_three_offers_a_choice_of_coins() -> None:
    state = _state("20b2 9/7/9 0/0/0 1 move 9 0 3-6 10 40 entered=ab", preset="lhasa")
    assert _clicks(state) == {
        "h2:9": ("hand:0", "shell:9", "opt:2 coins"),
        "h9:9": ("hand:0", "shell:9", "opt:9 coins"),
    }


def test_rethrow_and_pass_are_buttons() -> None:
    state = shogames.make("sho", para_mode="ios", allow_pass="on").new_initial_state()
    for text in ("1-2", "h3:3", "1-1"):
        state = state.play_text(text)
    assert _clicks(state) == {
        "h3:2": ("hand:1", "shell:2"),
        "rethrow": ("opt:throw again",),
        "pass": ("opt:pass",),
    }


def test_teams_click_their_shared_hand() -> None:
    state = shogames.make("sho", players=4).new_initial_state()
    for text in ("2-3", "h2:5", "2-4", "h2:6", "3-4"):
        state = state.play_text(text)
    # Seat 3 (Player 3) moves team A's coins: side 0.
    assert _clicks(state) == {"h1:7": ("hand:0", "shell:7"), "5:7": ("shell:5", "shell:12")}
    v = view.position_view(state)
    assert v["teams"] == [[0, 2], [1, 3]] and v["seat_side"] == [0, 1, 0, 1]
    assert [s["seats"] for s in v["sides"]] == [[0, 2], [1, 3]]
    assert (v["seat"], v["side"]) == (2, 0)


def test_follow_phase_of_a_flexible_pa_ra() -> None:
    state = _state(
        "5a1,20a2,30b1 6/8/9 0/0/0 1 follow 4 1 1-1 3 11 entered=ab moved=20 bonus=1", flexible_para="on"
    )
    v = view.position_view(state)
    assert (v["phase"], v["moved"], v["bonus"]) == ("follow", 20, True)
    assert _clicks(state) == {"5:4": ("shell:5", "shell:9")}


def test_a_finished_game() -> None:
    state = _state("30b1 0/8/9 9/0/0 2 throw - 0 - 40 120 entered=ab")
    v = view.position_view(state)
    json.dumps(v)
    assert v["terminal"] and v["phase"] == "over" and v["to_move"] is None
    assert (v["winner_side"], v["winner_seats"], v["returns"]) == (0, [0], [1.0, -0.5, -0.5])


def test_chance_moves_have_no_clicks() -> None:
    state = shogames.make("sho").new_initial_state()
    assert view.move_clicks(state, state.legal_moves()[0]) == ()


@pytest.mark.parametrize(
    "settings",
    [
        {"preset": "classic"},
        {"preset": "lhasa"},
        {"players": 4},
        {"players": 4, "team_coins": "separate"},
        {"para_mode": "pool"},
        {"flexible_para": "on", "finishing_overflow": "on", "allow_pass": "on"},
        {"opening_kill": "topup3_on_shomo", "play_to_placings": "on", "players": 2},
    ],
)
def test_clicks_are_distinct_and_prefix_free_in_random_games(settings: dict[str, object]) -> None:
    rng = random.Random(7)
    for _ in range(2):
        state = _game(settings).new_initial_state()
        for _ in range(600):
            if state.is_terminal():
                break
            json.dumps(view.position_view(state))
            if state.to_move != CHANCE:
                sequences = [view.move_clicks(state, move) for move in state.legal_moves()]
                assert len(set(sequences)) == len(sequences)
                for sequence in sequences:
                    assert sequence
                    assert all(sequence[:k] not in sequences for k in range(1, len(sequence)))
            state = state.play(rng.choice(state.legal_moves()))
