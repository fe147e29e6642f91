"""Shoo: the scenarios of rulings §10, every setting's effect, the opening, hushing, draws and notation."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

from cli_runner import run_cli
from shogames import make
from shogames.agents import RandomAgent
from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.protocol import CHANCE, State
from shogames.core.settings import parse_settings_text
from shogames.games.shoo import (
    BLUE,
    CAPTURE,
    HUSH,
    MOUNT,
    RIDE,
    WHITE,
    HushContext,
    ShooGame,
    ShooState,
    parse_square,
    square_name,
)
from shogames.records import read_records, replay
from shogames.ui.terminal import TerminalGame


def position(
    south: str = "",
    north: str = "",
    horses: str = "",
    side: str = "s",
    stables: str = "0/0",
    stabled: str = "0/0",
    extra: str = "",
    **settings: object,
) -> ShooState:
    """A position from piece lists: ``d4`` on foot, ``e8+`` mounted, ``e5^`` a held horse."""
    cells = ["."] * 81
    for letter, names in (("s", south), ("n", north), ("h", horses)):
        for name in names.split():
            square = parse_square(name.rstrip("+^"))
            piece = letter.upper() if name.endswith(("+", "^")) else letter
            cells[square] = piece
    rows = []
    for rank in range(8, -1, -1):
        row, gap = "", 0
        for file in range(9):
            piece = cells[file + 9 * rank]
            if piece == ".":
                gap += 1
                continue
            row += (str(gap) if gap else "") + piece
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    game = ShooGame(None, **settings)
    return game.state_from_text(f"{'/'.join(rows)} {side} {stables} {stabled} 0/0 0 {extra}".strip())


def texts(state: ShooState) -> list[str]:
    """The legal moves in notation."""
    return [state.move_to_text(move) for move in state.legal_moves()]


def steps_of(state: ShooState, origin: str) -> set[str]:
    """Where the legal moves that start on ``origin`` end (any kind, shoo declarations ignored)."""
    square = parse_square(origin)
    return {square_name(move.to) for move in state.legal_moves() if move.origin == square}


# --- T1. Starting position and opening ---------------------------------------------------------------------

T1_MOVES = [
    *("g1-f1", "g1-f2", "g2-f1", "g2-f2", "g2-f3", "g3-f2", "g3-f3", "g3-f4", "g3-g4", "g3-h4"),
    *("h3-g4", "h3-h4", "h3-i4", "i3-h4", "i3-i4"),
    *("H*f1", "H*f2", "H*f3", "H*f4", "H*g4", "H*h4", "H*i4"),
]


def test_t1_start_has_exactly_the_22_moves() -> None:
    state = make("shoo").start_position()
    assert sorted(texts(state)) == sorted(T1_MOVES)
    assert state.stable_horses == (4, 5)
    assert state.piece_at(parse_square("e5")) == "."


def test_t1_five_steps_of_g3_as_in_photograph_1() -> None:
    state = make("shoo").start_position()
    assert steps_of(state, "g3") == {"f2", "f3", "f4", "g4", "h4"}


@pytest.mark.parametrize("settings", [{"stable_drop": "anywhere"}, {"ruleset": "towers"}])
def test_t1_stable_drop_anywhere_and_towers_give_78(settings: dict[str, str]) -> None:
    state = make("shoo", **settings).start_position()
    assert len(state.legal_moves()) == 15 + 63


def test_opening_toss_then_choice_of_first_move() -> None:
    game = make("shoo")
    state = game.new_initial_state()
    assert state.to_move == CHANCE
    assert state.piece_at(parse_square("e5")) == "h"
    outcomes = state.chance_outcomes()
    assert [state.move_to_text(move) for move, _ in outcomes] == ["toss:blue", "toss:white"]
    assert all(probability == 0.5 for _, probability in outcomes)
    state = state.play_text("toss:white")
    assert state.to_move == WHITE
    assert texts(state) == ["first", "odd-horse"]
    first = state.play_text("first")
    assert first.south == WHITE and first.to_move == WHITE
    assert first.stable_horses == (4, 5)
    assert first.piece_at(parse_square("e5")) == "."
    assert sorted(texts(first)) == sorted(T1_MOVES)
    horse = state.play_text("odd-horse")
    assert horse.south == BLUE and horse.to_move == BLUE
    assert horse.stable_horses == (4, 5)


@pytest.mark.parametrize(("first", "seat"), [("blue", BLUE), ("white", WHITE)])
def test_first_player_setting_skips_the_toss(first: str, seat: int) -> None:
    game = make("shoo", first_player=first)
    assert not game.has_chance
    state = game.new_initial_state()
    assert state.to_move == seat and state.south == seat
    assert len(state.legal_moves()) == 22


def test_seven_horses_give_three_and_four() -> None:
    game = make("shoo", preset="seven-horses")
    assert game.start_position().stable_horses == (3, 4)
    state = game.new_initial_state().play_text("toss:blue").play_text("odd-horse")
    assert state.stable_horses == (3, 4) and state.south == WHITE


# --- T2. Calling up from the stable, and holds -------------------------------------------------------------


def test_t2_call_up_next_to_a_traveller_is_held() -> None:
    state = position(south="d4", north="f6", stables="2/0")
    assert "H*h8" not in texts(state)
    with pytest.raises(IllegalMoveError, match="next to one of your travellers"):
        state.parse_move("H*h8")
    after = state.play_text("H*e5")
    assert after.held == parse_square("e5")
    assert after.piece_at(parse_square("e5")) == "H"
    # North may not mount, slide, retire or hold the held horse.
    e5 = parse_square("e5")
    assert not [m for m in after.legal_moves() if e5 in (m.origin, m.via, m.to) and m.kind != RIDE]
    for text in ("f6>e5", "He5-e4", "xe5", "!e5"):
        with pytest.raises(IllegalMoveError):
            after.parse_move(text)
    back = after.play_text("f6-g7")
    assert back.held == -1
    assert "d4>e5" in texts(back) and "d4>e5-e9" in texts(back)


def test_t2_hold_expires_after_one_turn() -> None:
    state = position(south="d4", north="f6 a2", stables="2/0").play_text("H*e5")
    state = state.play_text("a2-a3").play_text("d4-d3")
    assert "f6>e5" in texts(state)


def test_t2_towers_drops_anywhere_and_mounts_without_riding() -> None:
    state = position(south="d4", north="f6", stables="2/0", ruleset="towers")
    assert "H*h8" in texts(state)
    state = state.play_text("H*e5")
    assert "f6>e5" not in texts(state)
    state = state.play_text("f6-g7")
    assert "d4>e5" in texts(state)
    with pytest.raises(IllegalMoveError):
        state.parse_move("d4>e5-e9")


# --- T3. Calling up by sliding; no jumping -----------------------------------------------------------------


def test_t3_sliding_a_horse() -> None:
    state = position(south="c3", north="e4", horses="g7 g4")
    assert state.play_text("Hg7-d4").held == parse_square("d4")
    with pytest.raises(IllegalMoveError):
        state.parse_move("Hg4-d4")
    after = state.play_text("Hg4-f4")
    assert after.held == -1 and after.piece_at(parse_square("f4")) == "h"


# --- T4. Mount & ride, dismount, and hold -------------------------------------------------------------------


def test_t4a_mount_and_ride_is_one_move() -> None:
    state = position(south="d4", north="g7", horses="d5")
    mounts = [m for m in state.legal_moves() if m.kind == MOUNT]
    assert {"d4>d5", "d4>d5-d9", "d4>d5-d1"} <= set(texts(state))
    assert len({m.to for m in mounts}) == 31
    assert state.play_text("d4>d5-d1").piece_at(parse_square("d1")) == "S"


def test_ride_slides_one_square_or_more_and_stops_before_a_piece() -> None:
    # Rulings §4 action 5: a rider slides at least one square, like a queen, and never onto a piece.
    state = position(south="e5+", north="a9 i1")
    rides = {state.move_to_text(move) for move in state.legal_moves() if move.kind == RIDE}
    assert len(rides) == 30  # the 32 squares of e5's eight lines, less the two that North stands on
    assert {"e5-e9", "e5-a1", "e5-h8", "e5-b8"} <= rides and not {"e5-a9", "e5-i1", "e5-e5"} & rides


def test_t4b_dismount_leaves_a_free_unheld_horse() -> None:
    state = position(south="e5+", north="f6")
    after = state.play_text("e5/d4")
    assert after.held == -1 and after.piece_at(parse_square("e5")) == "h"
    assert "f6>e5" in texts(after)
    with pytest.raises(NotationError):
        state.parse_move("e5/d4 !e5")
    held = after.play_text("f6-f5").play_text("!e5")
    assert held.held == parse_square("e5")
    assert "f5>e5" not in texts(held)


# --- T5. Retiring and held horses ---------------------------------------------------------------------------


def test_t5_retiring_and_the_held_horse() -> None:
    state = position(south="d4 g6+", north="f6", horses="e5^ c3 h7 b8")
    moves = texts(state)
    assert "xc3" in moves and "xh7" in moves
    assert "xb8" not in moves
    for text in ("xe5", "!e5", "He5-e4", "d4>e5"):
        with pytest.raises(IllegalMoveError, match="held"):
            state.parse_move(text)
    after = state.play_text("xc3")
    assert after.pasture == (1, 0)


# --- T6. A shoo must be created; one target per move --------------------------------------------------------


def test_t6_one_declared_shoo_per_move() -> None:
    state = position(south="e4 e8+", north="d5 f5")
    moves = texts(state)
    assert {"e8-e6", "e8-e6 shoo d5", "e8-e6 shoo f5"} <= set(moves)
    with pytest.raises(NotationError):
        state.parse_move("e8-e6 shoo d5 shoo f5")
    shooed = state.play_text("e8-e6 shoo d5")
    assert shooed.pending_shoo == parse_square("d5")
    assert {m.origin for m in shooed.legal_moves()} == {parse_square("d5")}
    assert steps_of(shooed, "d5") == {"c4", "c5", "c6", "d4", "d6"}
    later = shooed.play_text("d5-c5")
    assert "e4-f4" in texts(later)
    with pytest.raises(IllegalMoveError, match="does not create a shoo"):
        later.parse_move("e4-f4 shoo f5")


def test_t6_towers_shoos_are_automatic_and_persist() -> None:
    state = position(south="e4 e8+", north="d5 f5", ruleset="towers")
    # e4 already stands shooed by d5 and f5: South must move it before anything else.
    assert {square_name(m.origin) for m in state.legal_moves()} == {"e4"}
    state = position(south="e4 e6+ a1", north="d5 f5", side="n", ruleset="towers")
    assert {square_name(m.origin) for m in state.legal_moves()} == {"d5", "f5"}
    state = state.play_text("d5-c5").play_text("a1-a2")
    assert {square_name(m.origin) for m in state.legal_moves()} == {"f5"}


# --- T7. Escaping by mounting; no capture; shooed off -------------------------------------------------------

T7 = {"south": "d4 f4 f7 g5 c6+", "north": "e5", "horses": "f6"}


def test_t7_escape_by_mounting_only() -> None:
    state = position(**T7)
    assert "c6-d6 shoo e5" in texts(state)
    shooed = state.play_text("c6-d6 shoo e5")
    expected = ["e5>f6"] + [
        f"e5>f6-{to}" for to in ["e5", "e6", "e7", "d8", "c9", "f5", "g6", "h6", "i6", "g7", "h8", "i9"]
    ]
    assert sorted(texts(shooed)) == sorted(expected)
    with pytest.raises(IllegalMoveError):
        shooed.parse_move("e5xd6@d5")


def test_t7_no_new_toucher_no_declaration() -> None:
    state = position(**T7)
    declaring = [text for text in texts(state) if text.endswith("shoo e5")]
    assert "g5-f5 shoo e5" in declaring  # g5 did not touch e5 before; f5 does
    # d4 and f4 already touch e5: moving them to other squares next to e5 creates nothing.
    assert not [text for text in declaring if text.startswith(("d4", "f4"))]
    assert "d4-d5" in texts(state)


@pytest.mark.parametrize(("horses", "settings"), [("", {}), ("f6", {"mount_escape": "off"})])
def test_t7_shooed_off_without_an_escape(horses: str, settings: dict[str, str]) -> None:
    state = position(south=T7["south"], north="e5", horses=horses, **settings)
    shooed = state.play_text("c6-d6 shoo e5")
    assert texts(shooed) == ["~e5"]
    off = shooed.play_text("~e5")
    assert off.stable_travellers == (0, 1)
    assert off.piece_at(parse_square("e5")) == "."


# --- T8. Shooed off in the corner -------------------------------------------------------------------------


def test_t8_corner_shooed_off_then_hushable_return() -> None:
    state = position(south="a8 c7+", north="a9")
    rides = {square_name(m.to) for m in state.legal_moves() if m.kind == RIDE}
    assert rides == {"a7", "b7", "b8", "c8", "c9"}
    shooed = state.play_text("c7-b8 shoo a9")
    assert texts(shooed) == ["~a9"]
    state = position(south="a8 c7+ e1", north="a9").play_text("c7-b8 shoo a9")
    state = state.play_text("~a9").play_text("e1-e2")
    returned = state.play_text("T*b9")
    assert returned.hushable_move is not None
    assert texts(returned)[0] == "HUSH"


def test_t8_escape_by_an_unheld_horse_on_b9() -> None:
    shooed = position(south="a8 c7+", north="a9", horses="b9").play_text("c7-b8 shoo a9")
    moves = texts(shooed)
    assert "a9>b9" in moves and "~a9" not in moves


# --- T9. Safety in the home area ---------------------------------------------------------------------------

T9 = {"south": "b7 d8", "north": "a5 a6 c6 d7 b9 f8"}


def test_t9_no_shoo_inside_home() -> None:
    state = position(**T9, side="n")
    moves = texts(state)
    assert "a5-b6" in moves
    assert "a5-b6 shoo b7" not in moves


def test_t9_a_traveller_in_its_home_cannot_leave() -> None:
    state = position(**T9)
    b7 = [text for text in texts(state) if text.startswith("b7")]
    assert sorted(b7) == sorted(
        ["b7-a7", "b7-a8", "b7-b8", "b7-c7", "b7-c8", "b7-c7 shoo d7", "b7-c8 shoo d7"]
    )
    with pytest.raises(IllegalMoveError, match="cannot leave"):
        state.parse_move("b7-b6")


@pytest.mark.parametrize(
    ("move", "hushable"), [("d8-c7", False), ("d8-c8", False), ("d8-e7", True), ("d8-e8", True)]
)
def test_t9_steps_into_home_are_never_hushable(move: str, hushable: bool) -> None:
    after = position(**T9).play_text(move)
    assert (after.hushable_move is not None) == hushable
    assert ("HUSH" in texts(after)) == hushable


def test_t9_shoo_from_inside_home() -> None:
    assert "d8-c7 shoo c6" in texts(position(**T9))


def test_leave_home_variant_lets_travellers_out() -> None:
    state = position(**T9, leave_home="yes")
    assert "b7-b6" in texts(state)
    assert "a5-b6 shoo b7" not in texts(position(**T9, side="n", leave_home="yes"))


# --- T10. Hushing, and declining to hush -------------------------------------------------------------------

T10 = {"south": "d4 f4 g6", "north": "e6", "side": "n"}


def test_t10_hushable_steps() -> None:
    state = position(**T10)
    for move in ("e6-e5", "e6-f5"):
        after = state.play_text(move)
        assert texts(after)[0] == "HUSH"
    assert "HUSH" not in texts(state.play_text("e6-e7"))


def test_t10_hush_takes_the_move_back_and_bars_it() -> None:
    state = position(**T10)
    hushed = state.play_text("e6-e5").play_text("HUSH")
    assert hushed.to_text().split()[0] == state.to_text().split()[0]
    assert hushed.to_move == state.to_move
    assert "e6-e5" not in texts(hushed)
    with pytest.raises(IllegalMoveError, match="hushed this turn"):
        hushed.parse_move("e6-e5")
    again = hushed.play_text("e6-f5").play_text("HUSH")
    assert {"e6-e5", "e6-f5"}.isdisjoint(texts(again))
    assert "barred=e6-e5,e6-f5" in again.to_text()
    done = again.play_text("e6-e7")
    assert done.to_move != again.to_move and "HUSH" not in texts(done)


def test_t10_declining_to_hush_then_shooing() -> None:
    after = position(**T10).play_text("e6-e5")
    assert "d4-d5" in texts(after) and "d4-d5 shoo e5" not in texts(after)
    shooed = after.play_text("g6-f5 shoo e5")
    assert steps_of(shooed, "e5") == {"d5", "d6", "e6", "f6"}


def test_hush_position_text_round_trips() -> None:
    game = make("shoo")
    after = position(**T10).play_text("e6-e5")
    copy = game.state_from_text(after.to_text())
    assert copy.key() == after.key()
    assert copy.play_text("HUSH").key() == after.play_text("HUSH").key()


# --- T11. Hushing takes precedence over the shoo ------------------------------------------------------------


def test_t11_hush_cancels_the_declared_shoo() -> None:
    state = position(south="e4 e7", north="d5 f5")
    assert "e7-e6 shoo d5" in texts(state)
    after = state.play_text("e7-e6 shoo d5")
    bases = {(m.kind, square_name(m.to)) for m in after.legal_moves() if m.kind != HUSH}
    assert texts(after)[0] == "HUSH"
    assert {to for _, to in bases} == {"c4", "c5", "c6", "d4", "d6"}
    assert {m.origin for m in after.legal_moves() if m.kind != HUSH} == {parse_square("d5")}
    hushed = after.play_text("HUSH")
    assert hushed.pending_shoo == -1 and hushed.to_move == state.to_move
    assert not [text for text in texts(hushed) if text.startswith("e7-e6")]


# --- T12. Capture with a choice of placement, a ride and a shoo --------------------------------------------


def test_t12_capture() -> None:
    state = position(south="d4 i8", north="e5+ h7")
    places = {square_name(m.place) for m in state.legal_moves() if m.kind == CAPTURE}
    assert places == {"d5", "d6", "e4", "e6", "f4", "f5", "f6"}
    assert "d4xe5@d5-g7 shoo h7" in texts(state)
    with pytest.raises(IllegalMoveError):
        state.parse_move("d4xe5@f6-g7")
    after = state.play_text("d4xe5@d5-g7 shoo h7")
    assert after.piece_at(parse_square("d5")) == "n"
    assert after.piece_at(parse_square("g7")) == "S"
    assert after.piece_at(parse_square("e5")) == "."
    assert {m.origin for m in after.legal_moves()} == {parse_square("h7")}
    assert steps_of(after, "h7") == {"g6", "g8", "h6", "i6", "i7"}


def test_t12_capture_needs_adjacency_at_the_start_of_the_turn() -> None:
    state = position(south="c3 i8", north="e5+ h7 a9")
    assert not [m for m in state.legal_moves() if m.kind == CAPTURE]
    state = state.play_text("c3-d4").play_text("a9-a8")
    assert "d4xe5@d5" in texts(state)


def test_capture_from_horseback_leaves_the_old_horse_free() -> None:
    after = position(south="d4+", north="e5+ a9").play_text("d4xe5@e6")
    assert after.piece_at(parse_square("d4")) == "h" and after.held == -1
    assert after.piece_at(parse_square("e5")) == "S"


# --- T16. Seed 001's worked example -------------------------------------------------------------------------


def test_t16_seed_001_example() -> None:
    state = position(south="a7 c8 b6 i7+", north="c7")
    assert "i7-d7 shoo c7" in texts(state)
    after = state.play_text("i7-d7 shoo c7")
    assert texts(after) == ["c7-d6"]


# --- Settings ---------------------------------------------------------------------------------------------


def test_hush_automatic_makes_hushable_moves_illegal() -> None:
    state = position(**T10, hush="automatic")
    assert "e6-e5" not in texts(state) and "e6-e7" in texts(state)


def test_hush_off_allows_the_move_and_offers_no_hush() -> None:
    after = position(**T10, hush="off").play_text("e6-e5")
    assert "HUSH" not in texts(after)


def test_hush_lose_move_ends_the_hushed_turn() -> None:
    state = position(**T10, hush="lose-move")
    hushed = state.play_text("e6-e5").play_text("HUSH")
    assert hushed.piece_at(parse_square("e6")) == "n"
    assert hushed.side == 0  # South moves next: North lost its turn
    assert hushed.turns == 1  # the hushed move and the hush are not turns


def test_hush_shoo_off_sends_the_traveller_to_its_stable() -> None:
    hushed = position(**T10, hush="shoo-off").play_text("e6-e5").play_text("HUSH")
    assert hushed.piece_at(parse_square("e6")) == "." and hushed.piece_at(parse_square("e5")) == "."
    assert hushed.stable_travellers == (0, 1)
    assert hushed.side == 0


def test_shoo_off_after_a_hushed_dismount_leaves_the_horse() -> None:
    hushed = (
        position(south="d4 f4", north="e6+", side="n", hush="shoo-off").play_text("e6/e5").play_text("HUSH")
    )
    assert hushed.piece_at(parse_square("e6")) == "h"
    assert hushed.stable_travellers == (0, 1)


CAPTURE_IN_HOME = {"south": "f2", "north": "g2+", "horses": ""}


@pytest.mark.parametrize(
    ("rule", "places"),
    [
        ("place-inside", {"g1", "g3", "h1", "h2", "h3"}),
        ("anywhere", {"f1", "f3", "g1", "g3", "h1", "h2", "h3"}),
        ("immune", set()),
    ],
)
def test_capture_in_home(rule: str, places: set[str]) -> None:
    state = position(**CAPTURE_IN_HOME, capture_in_home=rule)
    found = {square_name(m.place) for m in state.legal_moves() if m.kind == CAPTURE}
    assert found == places


def test_max_turns_caps_the_game() -> None:
    state = make("shoo", max_turns=2, first_player="blue").new_initial_state()
    state = state.play_text("g3-g4").play_text("c7-c6")
    assert state.is_terminal() and state.is_truncated() and state.turns == 2
    assert state.termination() == "length cap" and state.returns() == (0.0, 0.0)


def test_the_length_cap_old_name_max_plies_is_still_read() -> None:
    """Records written before the cap was named ``max_turns`` (as in every game) say ``max_plies``."""
    game = ShooGame(None, **parse_settings_text(ShooGame.setting_specs, "max_plies=7 hush=off"))
    assert game.settings["max_turns"] == 7 and "max_plies" not in game.settings
    assert "max_turns=7" in game.settings_text()
    assert make("shoo", max_plies=9).settings["max_turns"] == 9


@pytest.mark.parametrize("bad", [{"horses": 8}, {"hush": "sometimes"}, {"ruleset": "chess"}])
def test_bad_settings_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(SettingsError):
        ShooGame(None, **bad)


# --- Ends ------------------------------------------------------------------------------------------


def test_win_when_home_is_full_of_foot_travellers() -> None:
    state = position(south="a7 a8 a9 b7 b8 b9 c7 c9 d8", north="i9")
    after = state.play_text("d8-c8")
    assert after.is_terminal() and after.winner == BLUE
    assert after.returns() == (1.0, -1.0) and after.termination() == "normal"


def test_a_rider_does_not_complete_the_home() -> None:
    state = position(south="a7 a8 a9 b7 b8 b9 c7 c9 d8+", north="i9")
    after = state.play_text("d8-c8")
    assert not after.is_terminal()
    assert "c8-d8" not in texts(after.play_text("i9-h9"))  # a rider in its home cannot leave either


def test_a_capture_that_fills_the_victims_home_makes_the_victim_win() -> None:
    # Rulings §5 item 5: both sides are checked; the capturer chose to put the last traveller home.
    state = position(south="f4", north="g1 h1 i1 g2 h2 i2 h3 i3 g4+")
    after = state.play_text("f4xg4@g3")
    assert after.is_terminal() and after.winner == WHITE and after.returns() == (-1.0, 1.0)


def test_a13_mount_escape_off_leaves_only_being_shooed_off() -> None:
    # With mount_escape=off the T7 traveller cannot escape by mounting; it is shooed off (A13, A14), and
    # its stable takes it whatever it holds already (A28: no limit).
    state = position(**T7, mount_escape="off", stabled="0/7").play_text("c6-d6 shoo e5")
    assert texts(state) == ["~e5"]
    assert state.play_text("~e5").stable_travellers == (0, 8)


def test_a9_a24_horses_slide_into_home_areas_except_under_towers() -> None:
    designers = texts(position(south="d4", north="f6", horses="e5"))
    assert "He5-b8" in designers and "He5-h2" in designers  # into South's and North's home areas
    towers = texts(position(south="d4", north="f6", horses="e5", ruleset="towers"))
    assert "He5-b8" not in towers and "He5-h2" not in towers and "He5-d6" in towers


def test_pass_when_nothing_is_legal_and_two_passes_draw() -> None:
    state = position(south="a1", north="a2 b1 b2", extra="passes=1")
    assert texts(state) == ["pass"]
    after = state.play_text("pass")
    assert after.is_terminal() and after.termination() == "two passes"


def test_third_repetition_draws() -> None:
    state = position(south="e2", north="e8")
    moves = ["e2-e3", "e8-e7", "e3-e2", "e7-e8"] * 2
    for move in moves:
        assert not state.is_terminal()
        state = state.play_text(move)
    assert state.is_terminal() and state.termination() == "repetition"
    assert "end=repetition" in state.to_text()
    assert make("shoo").state_from_text(state.to_text()).is_terminal()


def test_position_and_history_rebuild_the_state() -> None:
    # Two rounds of the same four moves: the history holds the standing positions since the last change
    # of stables or pastures, oldest first, without the position's own key.
    state = position(south="e2", north="e8")
    moves = ["e2-e3", "e8-e7", "e3-e2", "e7-e8"] * 2
    for move in moves[:-1]:
        state = state.play_text(move)
    start = position(south="e2", north="e8").position.repetition_key()
    assert len(state.history) == 7 and state.history[0] == state.history[4] == start
    assert state.history.count(state.position.repetition_key()) == 1  # one more makes the third
    copy = state.game.state_from_position(state.position, state.history)
    assert copy == state and copy.to_text() == state.to_text() and copy.history == state.history
    assert copy.play_text(moves[-1]).termination() == "repetition"
    # Without the history the same position does not repeat.
    fresh = state.game.state_from_position(state.position)
    assert fresh.history == () and not fresh.play_text(moves[-1]).is_terminal()


def test_position_value_is_trusted_with_its_end_and_winner() -> None:
    won = position(south="a7 a8 a9 b7 b8 b9 c7 c8 c9", north="g1")
    assert won.position.end == "win" and won.position.winner == 0 and won.winner == BLUE
    # A kernel's judgement is kept as given: here, that the game goes on.
    going_on = won.game.state_from_position(dataclasses.replace(won.position, end=None, winner=None))
    assert not going_on.is_terminal() and going_on.winner is None
    # Every field is public and plain: text written from the position reads back to the same position.
    hush = make("shoo").state_from_text("9/9/9/9/2h1n4/3s1s3/9/9/9 s 0/0 0/0 0/0 2 hush=e6-e5 held-before=c5")
    context = hush.position.hush
    assert isinstance(context, HushContext) and context.held_before == parse_square("c5")
    assert hush.game.state_from_text(hush.to_text()).position == hush.position


def test_states_pickle_with_their_history() -> None:
    state = position(south="e2", north="e8")
    for move in ["e2-e3", "e8-e7", "e3-e2", "e7-e8", "e2-e3", "e8-e7", "e3-e2"]:
        state = state.play_text(move)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.history == state.history and copy.position == state.position
    assert copy.play_text("e7-e8").termination() == "repetition"


# --- Notation and position text --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "e4", "e4-e10", "z1-a2", "H*", "d4xe5", "e5/d4/c3", "shoo e5", "pass shoo e5", "HUSH!"],
)
def test_malformed_moves_raise_notation_errors(text: str) -> None:
    state = position(**T10)
    with pytest.raises(NotationError):
        state.parse_move(text)


def test_notation_is_lenient_about_case_and_spaces() -> None:
    state = position(south="e4 e8+", north="d5 f5")
    assert state.parse_move(" E8 - E6  SHOO  D5 ") == state.parse_move("e8-e6 shoo d5")


def test_illegal_move_messages_name_the_rule() -> None:
    state = position(**T7).play_text("c6-d6 shoo e5")
    with pytest.raises(IllegalMoveError, match="must answer the shoo on e5"):
        state.parse_move("g5-h5")
    with pytest.raises(IllegalMoveError, match="no traveller of yours on d5"):
        position(**T10).parse_move("d5-d6")


@pytest.mark.parametrize(
    ("state", "move", "message"),
    [
        # Retire and hold need a traveller of the mover next to the horse (rulings §4, actions 7 and 8).
        (position(south="d4", north="f6", horses="h2"), "xh2", "no traveller of yours stands next to it"),
        (position(south="d4", north="f6", horses="h2"), "!h2", "no traveller of yours stands next to it"),
        # A capture takes an enemy rider next to the capturer (action 10, A19).
        (position(south="d4", north="f6+"), "d4xf6@f7", "not next to the rider on f6"),
        (position(south="d4", north="e5"), "d4xe5@e6", "no enemy rider on e5"),
        (position(south="d4", north="e5+ e6"), "d4xe5@e6", "e6 is not empty"),
        # A shoo is answered by moving the shooed traveller on foot, never by a capture (A13).
        (position(**T7).play_text("c6-d6 shoo e5"), "e5xd6@d5", "a capture does not answer a shoo"),
    ],
)
def test_illegal_moves_name_the_rule_they_break(state: ShooState, move: str, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message) as info:
        state.parse_move(move)
    assert "no rule allows it" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9/9/9 s 0/0 0/0 0/0 0", "9 ranks"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss x 4/5 0/0 0/0 0", "side to move"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4 0/0 0/0 0", "stable horses"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 0/0 0/0 0 colour=red", "unknown position field"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 1/0 0/0 0", "at most 9"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 5/5 0/0 0/0 0", "horses"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6ssx s 4/5 0/0 0/0 0", "unknown piece"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 0/0 0/0 0 shoo=e5", "shoo=e5"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 0/0 0/0 0 hush=e6-e5", "hush=e6-e5"),
        ("9/9/9/4s4/4n4/3s1s3/9/9/9 s 0/0 0/0 0/0 1 hush=e6-e5", "cannot be taken back"),
        ("9/9/9/9/4n4/3s1s3/9/9/9 s 0/0 0/0 0/0 1 hush=e6/e5", "cannot be taken back"),
        # Pieces written past the ninth file are refused, not dropped.
        ("nnn6sss/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 0/0 0/0 0", "rank 9 .* more than 9 squares"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/9s s 4/5 0/0 0/0 0", "rank 1 .* more than 9 squares"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 0/0 0/0 ²", "whole number"),
        ("nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 0/0 0/0 " + "9" * 5000, "digits"),
    ],
)
def test_bad_positions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        make("shoo").state_from_text(text)


def test_diagram_shows_stables_holds_and_a_pending_shoo() -> None:
    state = position(south="e4 e8+", north="d5 f5", stables="2/1", stabled="1/0").play_text("e8-e6 shoo d5")
    picture = state.diagram()
    assert "stable: 2 horses, 1 travellers" in picture
    assert "Shoo! The traveller on d5" in picture
    held = position(south="d4", north="f6", stables="2/0").play_text("H*e5").diagram()
    assert "The horse on e5 is held by South" in held


def test_game_class_and_presets() -> None:
    game = make("shoo", preset="towers")
    assert isinstance(game, ShooGame) and game.towers
    assert set(ShooGame.presets) == {
        "designers",
        "towers",
        "seven-horses",
        "hush-lose-move",
        "hush-shoo-off",
        "leave-home",
    }


# --- Command line -------------------------------------------------------------------------------------


def test_cli_legal_prints_the_22_moves_of_t1_and_78_with_anywhere() -> None:
    result = run_cli(["legal", "shoo"])
    assert result.exit_code == 0
    assert sorted(result.output.split("\n")[:-1]) == sorted(T1_MOVES)
    result = run_cli(["legal", "shoo", "--settings", "stable_drop=anywhere"])
    assert len(result.output.splitlines()) == 78


def test_cli_perft_starts_after_the_opening() -> None:
    result = run_cli(["perft", "shoo", "--depth", "1"])
    assert result.stdout.strip() == "22"


def test_terminal_game_with_a_hush_and_a_shoo(tmp_path: Path) -> None:
    """A person at the terminal hushes a step, then declares a shoo; the saved record replays."""
    typed = iter(["moves", "HUSH", "f4-e4 shoo d5", "quit"])
    start = position(**T10)
    output: list[str] = []

    class Scripted(RandomAgent):
        """Steps into the shoo on e5 first, then to d5, then plays at random."""

        def select_move(self, state: State[Any]) -> Any:
            legal = [state.move_to_text(move) for move in state.legal_moves()]
            for text in ("e6-e5", "e6-d5"):
                if text in legal:
                    return state.parse_move(text)
            return super().select_move(state)

    session = TerminalGame(
        start.game,
        humans={BLUE},
        agents={WHITE: Scripted(seed=1)},
        start=start,
        read_line=lambda prompt: next(typed),
        write=output.append,
        record_path=tmp_path / "game.sgr",
    )
    outcome = session.run()
    assert session.moves[:4] == ["e6-e5", "HUSH", "e6-d5", "f4-e4 shoo d5"]
    assert session.moves[4].startswith("d5-")  # White had to answer the shoo
    shown = "\n".join(output)
    assert "South may HUSH e6-e5." in shown
    assert "Shoo! The traveller on d5" not in shown  # the shoo was against White, an agent
    record = read_records((tmp_path / "game.sgr").read_text())[0]
    assert replay(record).final_state.key() == outcome.state.key()


def test_the_rules_page_says_the_odd_horse_goes_to_norths_stable_whatever_the_choice() -> None:
    """The findings: the rules never said that the odd horse ends in North's stable whichever benefit the
    toss winner chooses (ruling A3: the first mover plays South with 4 horses, the other North with 5)."""
    from shogames.server.guides import guide_folder

    folder = guide_folder("shoo")
    assert folder is not None
    text = (folder / "rules.md").read_text()
    assert "Either way" in text and "North's stable gets the odd horse" in text
    game = make("shoo")
    for choice in ("first", "odd-horse"):
        state = game.new_initial_state()
        while state.ply < 2:  # the toss, then the winner's choice
            moves = {state.move_to_text(move): move for move in state.legal_moves()}
            state = state.play(moves.get(choice, next(iter(moves.values()))))
        assert state.position.stable_horses == (4, 5), choice  # (South, North)
