"""Shobu rules through the public API and the notation (shared/rules/shobu.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shobu_reference
import shogames
from shogames import IllegalMoveError, NotationError, SettingsError
from shogames.games.shobu import (
    BLACK,
    PASS_MOVE,
    START_POSITION,
    WHITE,
    ShobuGame,
    ShobuPosition,
    ShobuState,
)

STANDARD = "wwww/4/4/bbbb"


def position(
    wd: str = STANDARD, wl: str = STANDARD, bd: str = STANDARD, bl: str = STANDARD, side: str = "b"
) -> str:
    return f"{wd} {wl} {bd} {bl} {side}"


def without_turns(state: ShobuState) -> str:
    """The position text without its sixth field (turns played), as the reference writes it."""
    return " ".join(state.to_text().split()[:5])


def state_of(text: str, **settings: object) -> ShobuState:
    state = shogames.make("shobu", None, **settings).state_from_text(text)
    assert isinstance(state, ShobuState)
    return state


def test_start_position_and_counts() -> None:
    state = state_of(START_POSITION)
    assert state.to_text() == START_POSITION
    assert shogames.make("shobu").new_initial_state().to_text() == START_POSITION
    assert state.to_move == BLACK
    moves = state.legal_moves()
    assert len(moves) == 232 == state.count_legal_moves()
    # Rulings §4: all 36 passive moves at the start have a follow-up; 232 = 4 board pairs x 58.
    passives = {text.split()[0] for text in map(state.move_to_text, moves)}
    assert len(passives) == 36
    pairs = {(m.passive_from >> 4, m.aggressive_from >> 4) for m in moves}
    assert len(pairs) == 4
    assert all(
        sum(1 for m in moves if (m.passive_from >> 4, m.aggressive_from >> 4) == p) == 58 for p in pairs
    )


def test_legal_move_order_is_pinned() -> None:
    # Seeded agents depend on this order: passive board, direction, distance, passive stone, aggressive stone.
    texts = [state_of(START_POSITION).move_to_text(m) for m in state_of(START_POSITION).legal_moves()]
    assert texts[:3] == ["BDa1-a2 WLa1-a2", "BDa1-a2 WLb1-b2", "BDa1-a2 WLc1-c2"]
    assert texts[-1] == "BLd1-b3 BDd1-b3"


def test_aggressive_push_off_the_board_removes_the_stone() -> None:
    state = state_of(position(wl="wwww/b3/4/1bbb"))
    after = state.play_text("BDa1-a2 WLa3-a4")
    assert after.to_text() == position(wl="bwww/4/4/1bbb", bd="wwww/4/b3/1bbb", side="w") + " 1"
    assert bin(after.white).count("1") == 15


def test_two_square_move_pushes_the_first_stone_two_squares() -> None:
    state = state_of(position(wl="w1ww/4/1w2/bbbb"))
    after = state.play_text("BDb1-b3 WLb1-b3")
    assert after.to_text().split()[1] == "wwww/1b2/4/b1bb"


def test_two_square_move_pushes_the_second_stone_one_square() -> None:
    state = state_of(position(wl="w1ww/1w2/4/bbbb"))
    after = state.play_text("BDb1-b3 WLb1-b3")
    assert after.to_text().split()[1] == "wwww/1b2/4/b1bb"


@pytest.mark.parametrize(
    ("wl", "why"),
    [
        ("w1ww/1w2/1w2/bbbb", "two stones"),  # b2 and b3 both White
        ("wwww/4/1w2/bbbb", "onto another stone"),  # pushed b2 stone would land on b4
        ("w1ww/4/1b2/bbbb", "its own colour"),  # own stone on the path
    ],
)
def test_blocked_aggressive_moves_are_illegal(wl: str, why: str) -> None:
    state = state_of(position(wl=wl))
    with pytest.raises(IllegalMoveError, match="aggressive move is blocked"):
        state.parse_move("BDb1-b3 WLb1-b3")
    assert why  # the parameter documents the case


def test_pushing_is_never_mandatory_and_a_push_off_wins() -> None:
    state = state_of(position(wl="w3/b3/4/1bbb"))
    quiet = state.play_text("BDb1-b2 WLb1-b2")
    assert not quiet.is_terminal()
    won = state.play_text("BDa1-a2 WLa3-a4")
    assert won.is_terminal() and won.to_move is None
    assert won.returns() == (1.0, -1.0)
    assert won.winner == BLACK
    assert won.termination() == "normal"
    assert won.legal_moves() == () and won.count_legal_moves() == 0


def test_passive_move_rules() -> None:
    state = state_of(START_POSITION)
    with pytest.raises(IllegalMoveError, match="homeboards"):
        state.parse_move("WDa1-a2 BLa1-a2")
    with pytest.raises(
        IllegalMoveError, match="BD, a dark board, so the aggressive move must be on a light board"
    ):
        state.parse_move("BDa1-a2 WDa1-a2")
    with pytest.raises(IllegalMoveError, match="no Black stone"):
        state.parse_move("BDa2-a3 WLa1-a2")
    blocked = state_of(position(bd="wwww/4/b3/1bbb"))
    with pytest.raises(IllegalMoveError, match="passive move is blocked"):
        blocked.parse_move("BDa2-a4 WLa1-a3")  # would push a4: passive moves never push


def test_passive_move_needs_a_follow_up() -> None:
    # On both light boards Black's only stone stands on the east edge, so no passive move on BD with an
    # eastward step has an aggressive follow-up, although the passive move itself is unblocked.
    text = position(wl="wwww/4/4/3b", bl="wwww/4/4/3b")
    state = state_of(text)
    texts = [state.move_to_text(m) for m in state.legal_moves()]
    assert not any(t.startswith(("BDa1-b2", "BDa1-b1")) for t in texts)
    assert any(t.startswith("BDa1-a2") for t in texts)
    with pytest.raises(IllegalMoveError, match="aggressive move is blocked"):
        state.parse_move("BDa1-b2 BLd1")
    assert shobu_reference.turns(text).keys() == {state.move_to_text(m) for m in state.legal_moves()}


def no_turn_position() -> str:
    boxed = "4/4/ww2/bw2"  # Black's a1 stone is surrounded
    return position(wd="w3/4/4/b3", wl="w3/4/4/b3", bd=boxed, bl=boxed)


def test_no_legal_turn_loses_by_default() -> None:
    state = state_of(no_turn_position())
    assert state.is_terminal()
    assert state.returns() == (-1.0, 1.0)
    assert state.winner == WHITE
    assert state.termination() == "no legal turn"


def test_no_legal_turn_passes_with_setting() -> None:
    state = state_of(no_turn_position(), no_turn="pass")
    assert not state.is_terminal()
    assert state.legal_moves() == (PASS_MOVE,)
    assert state.move_to_text(PASS_MOVE) == "pass"
    after = state.play_text("pass")
    assert after.to_move == WHITE and after.to_text().split()[:4] == state.to_text().split()[:4]
    with pytest.raises(IllegalMoveError, match="no_turn=pass"):
        state_of(START_POSITION, no_turn="pass").parse_move("pass")


# --- The position value --------------------------------------------------------------------------------


def test_the_position_value_holds_the_state() -> None:
    state = state_of(START_POSITION).play_text("BDa1-a3 WLb1-b3")
    position = state.position
    assert position == ShobuPosition(state.black, state.white, WHITE, 1, None, False)
    again = state.game.state_from_position(position)
    assert again == state and again.to_text() == state.to_text() and again.position == position


def test_the_position_value_carries_the_end_of_the_game() -> None:
    lost = state_of(no_turn_position()).position
    assert (lost.winner, lost.no_turn) == (WHITE, True)
    # WL has no White stone: Black, who moved last, cleared it.
    cleared = state_of(position(wl="4/4/4/bbbb", side="w")).position
    assert (cleared.winner, cleared.no_turn) == (BLACK, False)
    # A position that says who won is trusted: the state is over with that result and cause.
    game = shogames.make("shobu")
    assert isinstance(game, ShobuGame)
    start = game.new_initial_state().position
    over = game.state_from_position(ShobuPosition(start.black, start.white, BLACK, 0, WHITE, True))
    assert over.is_terminal() and over.winner == WHITE and over.termination() == "no legal turn"
    assert over.position.no_turn and not game.state_from_position(start).is_terminal()


def test_length_cap_draws_and_marks_truncation() -> None:
    state = shogames.make("shobu", max_turns=2).new_initial_state()
    state = state.play(state.legal_moves()[0])
    assert not state.is_terminal()
    state = state.play(state.legal_moves()[0])
    assert state.is_terminal() and state.is_truncated()
    assert state.returns() == (0.0, 0.0)
    assert state.termination() == "length cap"


def test_play_leaves_the_input_unchanged_and_rejects_illegal_moves() -> None:
    state = state_of(START_POSITION)
    before = (state.to_text(), state.key())
    move = state.legal_moves()[5]
    after = state.play(move)
    assert (state.to_text(), state.key()) == before
    assert after.to_move == WHITE
    with pytest.raises(IllegalMoveError):
        after.play(move)


@pytest.mark.parametrize(
    "text",
    ["BDa1-a3 WLb1-b3", "bda1a3 wlb1b3", "BD a1-a3, WL b1", "  bd a1 a3  wl b1-b3 ", "BDa1-a3/WLb1"],
)
def test_move_text_forms(text: str) -> None:
    state = state_of(START_POSITION)
    move = state.parse_move(text)
    assert state.move_to_text(move) == "BDa1-a3 WLb1-b3"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e4", "expected a turn like 'BDa1-a3 WLb1-b3'"),
        ("BDa1-a3", "expected a turn like"),
        ("XXa1-a3 WLb1", "expected a turn like"),
        ("BDa1-b3 WLb1-c3", "not 1 or 2 squares in a straight line"),
        ("BDa1-a4 WLb1", "not 1 or 2 squares in a straight line"),
        ("BDa1-a3 WLb1-b2", "must repeat the passive move"),
    ],
)
def test_malformed_moves(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        state_of(START_POSITION).parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "has 5 fields"),
        ("wwww/4/4/bbbb b", "has 5 fields"),
        (position(side="x"), "side to move must be 'b' or 'w'"),
        (position(wd="wwww/4/bbbb"), "board WD .* has 3 ranks"),
        (position(wl="wwwx/4/4/bbbb"), "board WL, rank 4 .*unexpected 'x'"),
        (position(bd="wwww/5/4/bbbb"), "unexpected '5'"),
        (position(bl="wwww/3/4/bbbb"), "covers 3 squares"),
        (position(bl="wwwww/4/4/bbbb"), "covers 5 squares"),
        (position(wd="wwww/4/4/4", side="w"), "Black has no stones on WD although Black moved last"),
        (position() + " x", "turns played must be a whole number"),
    ],
)
def test_malformed_positions(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        shogames.make("shobu").state_from_text(text)


def test_position_with_a_cleared_board_is_a_finished_game() -> None:
    state = state_of(position(wd="4/4/4/bbbb", side="w"))
    assert state.is_terminal() and state.winner == BLACK and state.returns() == (1.0, -1.0)


def test_position_text_carries_turns_played() -> None:
    state = state_of(position() + " 299")
    assert state.ply == 299 and state.to_text() == position() + " 299"
    assert not state.is_terminal()
    assert state.play(state.legal_moves()[0]).is_truncated()


def test_settings_are_validated() -> None:
    with pytest.raises(SettingsError, match="no_turn"):
        shogames.make("shobu", no_turn="draw")
    with pytest.raises(SettingsError, match="at least 1"):
        shogames.make("shobu", max_turns=0)
    with pytest.raises(SettingsError, match="unknown setting 'turns'"):
        shogames.make("shobu", turns=3)
    assert shogames.make("shobu", preset="standard").settings == {"max_turns": 300, "no_turn": "lose"}


def test_diagram_shows_boards_and_side() -> None:
    picture = state_of(START_POSITION).diagram()
    assert "WD dark" in picture and "BL light" in picture
    assert picture.count("4 w w w w     4 w w w w") == 2 and picture.endswith("Black to move (turn 1)")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=80))
def test_engine_agrees_with_naive_reference(choices: list[int]) -> None:
    state = shogames.make("shobu").new_initial_state()
    for choice in choices:
        if state.is_terminal():
            break
        moves = state.legal_moves()
        expected = shobu_reference.turns(state.to_text())
        assert {state.move_to_text(m): without_turns(state.play(m)) for m in moves} == expected
        assert state.count_legal_moves() == len(moves)
        after = state.play(moves[choice % len(moves)])
        assert after.is_terminal() == (
            shobu_reference.has_won(without_turns(after)) or after.count_legal_moves() == 0
        )
        state = after


def test_the_terminal_test_does_not_count_every_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding (fast engines): ``is_terminal`` counted every legal turn each ply, then play generated them."""
    import shogames.games.shobu as shobu_module

    def refuse(*_: object) -> int:
        raise AssertionError("is_terminal counted the turns")

    monkeypatch.setattr(shobu_module, "count_turns", refuse)
    rng = random.Random(5)
    state = shogames.make("shobu").new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
    assert state.turns > 0


@given(st.integers(min_value=0, max_value=2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_any_turn_agrees_with_the_count(seed: int) -> None:
    """The early-stopping test for a legal turn agrees with the full count on random positions."""
    import shogames.games.shobu as shobu_module

    rng = random.Random(seed)

    def sparse() -> int:  # 1/2 to 1/16 of the squares
        bits = rng.getrandbits(64)
        for _ in range(rng.randrange(4)):
            bits &= rng.getrandbits(64)
        return bits

    black = sparse()
    white = sparse() & ~black
    for seat in (0, 1):
        own, opp = (black, white) if seat == 0 else (white, black)
        assert shobu_module.has_turn(own, opp, seat) == (shobu_module.count_turns(own, opp, seat) > 0)


def test_the_homeboards_lessons_example_is_refused_for_the_homeboard_rule() -> None:
    """The findings: lesson 2 suggested `WDa4-a3 BLa1-a2` to show that a passive move off your homeboards is
    illegal, but the rules' reply was about the aggressive move's direction."""
    import re

    from shogames.server.lessons import lessons_of

    lesson = next(entry for entry in lessons_of("shobu") if entry.id == "homeboards")
    example = re.search(r"such as `([^`]+)`", lesson.text)
    assert example is not None, lesson.text
    state = lesson.start("shobu")
    with pytest.raises(IllegalMoveError, match="passive move must be on one of Black's homeboards"):
        state.parse_move(example[1])
