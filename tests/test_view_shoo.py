"""The browser view of Shoo: the position description and the clicks that make each move."""

from __future__ import annotations

import json
import random

import pytest

from shogames import make
from shogames.core.protocol import CHANCE
from shogames.games.shoo import ShooState, view


def clicks_by_text(state: ShooState) -> dict[str, tuple[str, ...]]:
    """Every legal move's notation mapped to its clicks."""
    return {state.move_to_text(move): view.move_clicks(state, move) for move in state.legal_moves()}


def assert_prefix_free(state: ShooState) -> None:
    sequences = [view.move_clicks(state, move) for move in state.legal_moves()]
    assert len(set(sequences)) == len(sequences)
    seen = set(sequences)
    for sequence in sequences:
        for k in range(1, len(sequence)):
            assert sequence[:k] not in seen, sequence


# A South traveller on d5 and c4, a rider on e4 and g4 on foot; free horses on c6 and g5, North's held
# horse on h2; North on e6; one traveller in South's stable.
MIXED = "9/9/9/2h1n4/3s2h2/2s1S1s2/9/7H1/9 s 1/2 1/0 1/0 20"


def test_start_position_steps_and_call_ups() -> None:
    state = make("shoo").start_position()
    clicks = clicks_by_text(state)
    assert len(clicks) == 22
    assert clicks["g3-f4"] == ("sq:g3", "sq:f4")
    assert clicks["H*f4"] == ("stable:south:horse", "sq:f4")
    assert_prefix_free(state)


def test_opening_choice_is_two_buttons_and_the_toss_is_not_clicked() -> None:
    toss = make("shoo").new_initial_state()
    assert toss.to_move == CHANCE
    with pytest.raises(ValueError):
        view.move_clicks(toss, toss.legal_moves()[0])
    choice = toss.play_text("toss:white")
    assert clicks_by_text(choice) == {
        "first": ("opt:move first",),
        "odd-horse": ("opt:take the odd horse",),
    }


def test_mount_stays_by_clicking_the_horse_again_or_rides_on() -> None:
    state = make("shoo").state_from_text(MIXED)
    clicks = clicks_by_text(state)
    assert clicks["d5>c6"] == ("sq:d5", "sq:c6", "sq:c6")
    assert clicks["d5>c6-c8"] == ("sq:d5", "sq:c6", "sq:c8")
    assert clicks["d5>c6-d5"] == ("sq:d5", "sq:c6", "sq:d5")  # riding back to the square just left
    assert clicks["g4>g5-f5 shoo e6"] == ("sq:g4", "sq:g5", "sq:f5", "sq:e6")
    assert clicks["g4>g5-f5"] == ("sq:g4", "sq:g5", "sq:f5", "opt:no shoo")
    assert_prefix_free(state)


def test_ride_or_dismount_to_the_same_square_is_asked() -> None:
    state = make("shoo").state_from_text(MIXED)
    clicks = clicks_by_text(state)
    assert clicks["e4-d4"] == ("sq:e4", "sq:d4", "opt:ride")
    assert clicks["e4/d4"] == ("sq:e4", "sq:d4", "opt:dismount")
    assert clicks["e4-e2"] == ("sq:e4", "sq:e2")  # only a ride reaches e2
    assert clicks["e4-e5 shoo e6"] == ("sq:e4", "sq:e5", "opt:ride", "sq:e6")
    assert clicks["e4/e5"] == ("sq:e4", "sq:e5", "opt:dismount", "opt:no shoo")


def test_stable_returns_horse_slides_holds_and_retires() -> None:
    state = make("shoo").state_from_text(MIXED)
    clicks = clicks_by_text(state)
    assert clicks["T*b1"] == ("stable:south:traveller", "sq:b1")
    assert clicks["H*d6"] == ("stable:south:horse", "sq:d6")
    assert clicks["Hc6-a8"] == ("sq:c6", "sq:a8")
    assert clicks["!c6"] == ("sq:c6", "opt:hold")
    assert clicks["xc6"] == ("sq:c6", "pasture:south")
    assert not any(text.startswith("Hh2") for text in clicks)  # North holds h2


def test_capture_puts_the_rider_down_then_rides() -> None:
    state = make("shoo").state_from_text("9/9/9/9/2nNn4/3s5/9/9/9 s 0/0 1/0 0/0 5")
    clicks = clicks_by_text(state)
    assert clicks["d4xd5@c4"] == ("sq:d4", "sq:d5", "sq:c4", "sq:d5")
    assert clicks["d4xd5@e6-d4"] == ("sq:d4", "sq:d5", "sq:e6", "sq:d4")
    assert_prefix_free(state)


def test_hush_and_declared_shoo_after_a_hushable_step() -> None:
    # Rulings T10: North steps e6-e5 into a shoo; South may hush it or shoo it.
    state = make("shoo").state_from_text("9/9/9/4n1s2/9/3s1s3/9/9/9 n 0/0 0/0 0/0 0").play_text("e6-e5")
    clicks = clicks_by_text(state)
    assert clicks["HUSH"] == ("opt:HUSH",)
    assert clicks["g6-f5 shoo e5"] == ("sq:g6", "sq:f5", "sq:e5")
    assert clicks["g6-f5"] == ("sq:g6", "sq:f5", "opt:no shoo")
    assert_prefix_free(state)
    shown = view.position_view(state)
    assert shown["hushable"] == {"move": "e6-e5", "side": "north", "from": "e6", "to": "e5"}
    hushed = state.play_text("HUSH")
    assert view.position_view(hushed)["barred"] == ["e6-e5"]


def test_shooed_off_goes_to_the_stable_and_pass_is_a_button() -> None:
    game = make("shoo")
    boxed = game.state_from_text("9/9/9/9/1nnn5/1nsn5/1nnn5/9/9 s 0/0 0/0 0/0 5 shoo=c4")
    assert clicks_by_text(boxed) == {"~c4": ("sq:c4", "stable:south:traveller")}
    alone = game.state_from_text("9/9/9/9/9/9/9/9/n8 s 0/0 0/0 0/0 0")
    assert clicks_by_text(alone) == {"pass": ("opt:pass",)}


def test_towers_mount_without_ride_and_drop_back() -> None:
    game = make("shoo", preset="towers")
    mount = game.state_from_text("9/9/9/9/9/3h5/3s5/9/9 s 0/0 0/0 0/0 5")
    assert clicks_by_text(mount)["d3>d4"] == ("sq:d3", "sq:d4")
    assert_prefix_free(mount)
    boxed = game.state_from_text("9/9/9/9/3nnn3/3nsn3/3nnn3/9/9 s 0/0 0/0 0/0 5")
    assert clicks_by_text(boxed)["~e4@f1"] == ("sq:e4", "sq:f1")
    shown = view.position_view(boxed)
    assert shown["shooed"] == ["e4"]
    assert shown["traveller_stables"] is False


def test_position_view_of_a_known_position() -> None:
    state = make("shoo").state_from_text(MIXED)
    shown = view.position_view(state)
    json.dumps(shown)
    assert shown["phase"] == "play"
    assert shown["ruleset"] == "designers"
    assert shown["south_seat"] == 0
    assert shown["to_move"] == 0
    assert shown["side_to_move"] == "south"
    assert shown["held"] == {"square": "h2", "by": "north"}
    assert shown["shoo"] is None
    assert shown["hushable"] is None
    assert shown["stables"] == {
        "south": {"horses": 1, "travellers": 1},
        "north": {"horses": 2, "travellers": 0},
    }
    assert shown["pastures"] == {"south": 1, "north": 0}
    pieces = {piece["square"]: piece for piece in shown["pieces"]}
    assert pieces["e4"] == {"square": "e4", "type": "traveller", "side": "south", "mounted": True}
    assert pieces["e6"] == {"square": "e6", "type": "traveller", "side": "north", "mounted": False}
    assert pieces["h2"] == {"square": "h2", "type": "horse", "held": True}
    assert pieces["c6"] == {"square": "c6", "type": "horse", "held": False}
    assert len(pieces) == 8
    assert shown["homes"]["south"][0] == "a7" and shown["homes"]["north"][-1] == "i3"
    assert shown["result"] is None


def test_position_view_through_the_opening_and_with_a_pending_shoo() -> None:
    toss = make("shoo").new_initial_state()
    shown = view.position_view(toss)
    assert (shown["phase"], shown["to_move"], shown["south_seat"]) == ("toss", CHANCE, None)
    assert {"square": "e5", "type": "horse", "held": False} in shown["pieces"]
    choice = toss.play_text("toss:white")
    assert (view.position_view(choice)["phase"], view.position_view(choice)["chooser"]) == ("choice", 1)
    started = choice.play_text("odd-horse")
    shown = view.position_view(started)
    assert (shown["phase"], shown["south_seat"], shown["to_move"]) == ("play", 0, 0)
    assert shown["stables"]["north"]["horses"] == 5
    pending = make("shoo").state_from_text("nnn6/nn7/9/2ns5/2nsn1N2/3s5/9/6ss1/6ss1 s 1/2 1/0 1/0 30 shoo=d5")
    assert view.position_view(pending)["shoo"] == "d5"


def test_position_view_at_the_end() -> None:
    won = make("shoo").state_from_text("sss6/sss6/sss6/9/9/9/9/9/n8 n 0/0 0/0 0/0 40")
    shown = view.position_view(won)
    assert shown["phase"] == "over"
    assert shown["result"] == {"winner": 0, "termination": "normal"}
    assert shown["to_move"] is None


@pytest.mark.parametrize(
    "settings",
    [
        {"preset": "designers"},
        {"preset": "towers"},
        {"preset": "seven-horses"},
        {"preset": "hush-lose-move"},
        {"preset": "hush-shoo-off"},
        {"preset": "leave-home"},
        {"stable_drop": "anywhere", "capture_in_home": "anywhere"},
        {"hush": "automatic", "mount_escape": "off"},
    ],
)
def test_random_games_have_prefix_free_clicks_and_json_views(settings: dict[str, str]) -> None:
    rng = random.Random(2024)
    game = make("shoo", **settings)
    state = game.new_initial_state()
    for _ in range(120):
        json.dumps(view.position_view(state))
        if state.is_terminal():
            break
        if state.to_move != CHANCE:
            assert_prefix_free(state)
        state = state.play(rng.choice(state.legal_moves()))
