"""Sho: the chance distribution, the rules R1–R17 of our rulings through the public API, and each option."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from shogames.conformance import check_game
from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.protocol import CHANCE
from shogames.games.sho import ShoGame, ShoState
from shogames.records import finish_record, parse_record, replay, start_record, write_record


def game(**settings: object) -> ShoGame:
    return ShoGame(None, **settings)


def at(text: str, **settings: object) -> ShoState:
    """A position from its text under the given settings."""
    return game(**settings).state_from_text(text)


def texts(state: ShoState) -> list[str]:
    return [state.move_to_text(move) for move in state.legal_moves()]


def throw(state: ShoState, *throws: str) -> ShoState:
    for text in throws:
        assert state.to_move == CHANCE, state.to_text()
        state = state.play_text(text)
    return state


START = "- 9/9/9 0/0/0 1 throw - 0 - 0 0"


# --- Chance --------------------------------------------------------------------------------------------


def test_the_throw_is_exactly_distributed_over_21_unordered_pairs() -> None:
    state = game().new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    assert sum(probability for _, probability in outcomes) == 1
    probability = {state.move_to_text(move): p for move, p in outcomes}
    assert probability["1-1"] == Fraction(1, 36) and probability["1-2"] == Fraction(2, 36)
    sums: Counter[int] = Counter()
    for move, p in outcomes:
        sums[move.low + move.high] += p  # type: ignore[assignment]
    assert sums[7] == Fraction(6, 36) and sums[2] == Fraction(1, 36) and sums[12] == Fraction(1, 36)
    assert state.parse_move("5-2") == state.parse_move("2-5")


# --- R1, R2: equipment, track and goal -----------------------------------------------------------------


def test_r1_r2_default_track_and_bearing_off_past_shell_64() -> None:
    state = at("60a1 8/9/9 0/0/0 1 move 4 0 - 0 0 entered=a")
    assert "60:4" in texts(state)
    after = state.play_text("60:4")
    assert after.borne_off == (1, 0, 0)
    assert after.stack_at(60) is None


def test_r2_goal_one_space_later() -> None:
    state = at("60a1 8/9/9 0/0/0 1 move 4 0 - 0 0 entered=a", goal="shells+1")
    after = state.play_text("60:4")
    assert after.stack_at(64) == (0, 1) and after.borne_off == (0, 0, 0)


def test_r1_shells_and_coins_settings() -> None:
    short = game(shells=20, coins=5)
    state = short.new_initial_state()
    assert state.hand == (5, 5, 5)
    assert short.goal == 20


# --- R3: seating and the first player ------------------------------------------------------------------


def test_r3_first_seat_throws_first_and_play_goes_round() -> None:
    state = throw(game().new_initial_state(), "3-4")
    assert state.to_move == 0 and texts(state) == ["h2:7"]
    state = state.play_text("h2:7")
    assert state.to_move == CHANCE and state.seat == 1


def test_r3_random_first_seat() -> None:
    state = game(first_player="random").new_initial_state()
    outcomes = state.chance_outcomes()
    assert [state.move_to_text(m) for m, _ in outcomes] == ["first:1", "first:2", "first:3"]
    assert all(p == Fraction(1, 3) for _, p in outcomes)
    assert state.play_text("first:3").seat == 2


# --- R5, R6, R7: opening entries -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "throws", "expected"),
    [
        ({}, ["3-4"], ["h2:7"]),
        ({}, ["1-2"], ["h3:3"]),
        ({"opening_12_bonus": "off"}, ["1-2"], ["h2:3"]),
        ({}, ["1-1", "2-3"], ["h3:2", "h3:5", "h3:2+5"]),
        ({"opening_para_size": 2}, ["1-1", "2-3"], ["h2:2", "h2:5", "h2:2+5"]),
        ({"opening_size": 3}, ["3-4"], ["h3:7"]),
    ],
)
def test_r5_opening_entry(settings: dict[str, object], throws: list[str], expected: list[str]) -> None:
    state = throw(game(**settings).new_initial_state(), *throws)
    assert texts(state) == expected


def test_r6_opening_onto_an_opponent_enters_n_plus_1_and_kills() -> None:
    state = at("7b3 9/6/9 0/0/0 1 throw - 0 - 1 1 entered=b")
    state = throw(state, "3-4")
    assert texts(state) == ["h4:7"]
    after = state.play_text("h4:7")
    assert after.stack_at(7) == (0, 4) and after.hand == (5, 9, 9)
    assert after.to_move == CHANCE and after.seat == 0  # a kill earns another step


def test_r6_plain_opening_kill_needs_a_big_enough_stack() -> None:
    state = at("7b3 9/6/9 0/0/0 1 throw - 0 - 1 1 entered=b", opening_kill="plain")
    after = throw(state, "3-4")
    assert after.seat == 1  # no legal move: the turn passed at once
    small = at("7b2 9/7/9 0/0/0 1 throw - 0 - 1 1 entered=b", opening_kill="plain")
    assert texts(throw(small, "3-4")) == ["h2:7"]


def test_r7_reopening_after_being_wiped_out_and_six_three() -> None:
    text = "20b1 9/8/9 0/0/0 1 throw - 0 - 5 9 entered=ab"
    assert texts(throw(at(text), "3-6")) == ["h2:9"]
    assert texts(throw(at(text, six_three="on"), "3-6")) == ["h2:9", "h9:9"]
    first_entry = "20b1 9/8/9 0/0/0 1 throw - 0 - 5 9 entered=b"
    assert texts(throw(at(first_entry, six_three="on"), "3-6")) == ["h2:9"]
    blocked = "9b1 9/8/9 0/0/0 1 throw - 0 - 5 9 entered=ab"
    assert "h9:9" not in texts(throw(at(blocked, six_three="on"), "3-6"))
    after = throw(at(text, six_three="on"), "3-6").play_text("h9:9")
    assert after.stack_at(9) == (0, 9) and after.seat == 1  # a place: no extra roll


def test_r7_reopen_when_board_empty() -> None:
    text = "- 5/9/9 4/0/0 1 throw - 0 - 5 9 entered=a"
    assert texts(throw(at(text), "3-4")) == ["h1:7"]
    assert texts(throw(at(text, reopen_when="board_empty"), "3-4")) == ["h2:7"]


# --- R8, R9: ordinary entries and landings -------------------------------------------------------------


def test_r8_r9_entry_and_moves_with_every_landing() -> None:
    state = at("3a2,7b1,9c2,12a1 6/8/7 0/0/0 1 move 4 0 - 3 9 entered=abc")
    moves = texts(state)
    assert "h1:4" in moves  # onto an empty space
    assert "3:4" in moves  # 3 -> 7 kills a single coin with two
    assert "12:4" in moves  # onto an empty space past the others
    assert state.play_text("3:4").hand == (6, 9, 7)
    blocked = at("3a1,7b2 8/7/9 0/0/0 1 move 4 0 - 3 9 entered=ab")
    assert "3:4" not in texts(blocked)
    with pytest.raises(IllegalMoveError, match="bigger stack"):
        blocked.parse_move("3:4")
    stack = at("3a1,7a1 7/9/9 0/0/0 1 move 4 0 - 3 9 entered=a").play_text("3:4")
    assert stack.stack_at(7) == (0, 2) and stack.seat == 0


def test_r9_entry_onto_a_single_coin_kills_and_onto_own_stack_stacks() -> None:
    state = at("4b1,6a1 8/8/9 0/0/0 1 move 4 0 - 3 9 entered=ab")
    after = state.play_text("h1:4")
    assert after.stack_at(4) == (0, 1) and after.hand == (7, 9, 9) and after.seat == 0


# --- R10: the chain of extra steps ---------------------------------------------------------------------


def test_r10_place_ends_the_turn_and_stack_or_kill_continues() -> None:
    state = at("3a1,10a1 7/9/9 0/0/0 1 move 7 0 - 3 9 entered=a")
    assert state.play_text("3:7").seat == 0
    assert state.play_text("10:7").seat == 1


def test_r10_last_kill_ends_turn() -> None:
    text = "3a1,7b1 8/8/9 0/0/0 1 move 4 0 - 3 9 entered=ab"
    assert at(text).play_text("3:4").seat == 0
    assert at(text, last_kill_ends_turn="on").play_text("3:4").seat == 1
    two = "3a1,7b1,20b1 8/7/9 0/0/0 1 move 4 0 - 3 9 entered=ab"
    assert at(two, last_kill_ends_turn="on").play_text("3:4").seat == 0


# --- R11: pa ra ----------------------------------------------------------------------------------------


def test_r11_wikipedia_example_with_carry_over() -> None:
    # 2 / 11 / 13; kill with 2; carry 11 + 7; stack with 11; carry 7 + 5; place 12; the turn ends.
    text = "5a1,7b1,18a1,20a1 6/8/9 0/0/0 1 throw - 0 - 3 9 entered=ab"
    state = throw(at(text), "1-1", "5-6")
    assert state.values == (2, 11)
    assert {"5:2", "5:11", "5:2+11"} <= set(texts(state))
    state = throw(state.play_text("5:2"), "3-4")
    assert state.values == (7, 11) and state.seat == 0
    assert {"7:7", "7:11", "7:7+11"} <= set(texts(state))
    state = throw(state.play_text("7:11"), "2-3")
    assert state.values == (5, 7) and state.stack_at(18) == (0, 2)
    assert "20:5+7" in texts(state)
    state = state.play_text("20:5+7")
    assert state.stack_at(32) == (0, 1) and state.seat == 1 and state.values == ()


def test_r11_chained_pa_ra_adds_more_twos() -> None:
    state = throw(at("10a1 8/9/9 0/0/0 1 throw - 0 - 3 9 entered=a"), "1-1", "1-1", "3-4")
    assert state.values == (2, 2, 7)
    assert {"10:2", "10:2+2", "10:2+7", "10:2+2+7", "10:7"} <= set(texts(state))


def test_r11_single_or_total() -> None:
    state = throw(
        at("10a1 8/9/9 0/0/0 1 throw - 0 - 3 9 entered=a", para_subsets="single_or_total"),
        "1-1",
        "1-1",
        "3-4",
    )
    assert {move.values for move in state.legal_moves()} == {(2,), (7,), (2, 2, 7)}


def test_r11_triple_pa_ra_wins() -> None:
    state = throw(
        at("10a1 8/9/9 0/0/0 1 throw - 0 - 3 9 entered=a", triple_para_win="on"), "1-1", "1-1", "1-1"
    )
    assert state.is_terminal() and state.returns() == (1.0, -0.5, -0.5)
    assert "winner=a" in state.to_text()
    plain = throw(at("10a1 8/9/9 0/0/0 1 throw - 0 - 3 9 entered=a"), "1-1", "1-1", "1-1")
    assert not plain.is_terminal() and plain.values == (2, 2, 2)


def test_r11_ios_pa_ra_two_now_or_rethrow_for_the_sum() -> None:
    state = throw(at("10a1 8/9/9 0/0/0 1 throw - 0 - 3 9 entered=a", para_mode="ios"), "1-1")
    assert texts(state) == ["h1:2", "10:2", "rethrow"]
    again = throw(state.play_text("rethrow"), "3-4")
    assert again.values == (9,) and set(texts(again)) == {"h1:9", "10:9"}
    stacked = at("10a1,12a1 7/9/9 0/0/0 1 move 2 1 1-1 3 9 entered=a", para_mode="ios").play_text("10:2")
    assert stacked.values == () and stacked.to_move == CHANCE  # a fresh throw, nothing carried


def test_r11_ios_chained_pa_ra_gives_two_four_six() -> None:
    # Under para_mode=ios each pa ra in a row raises the "now" value by 2: 2, then 4, then 6 (R11).
    state = throw(at("10a1 8/9/9 0/0/0 1 throw - 0 - 3 9 entered=a", para_mode="ios"), "1-1")
    assert state.values == (2,) and texts(state) == ["h1:2", "10:2", "rethrow"]
    second = throw(state.play_text("rethrow"), "1-1")
    assert second.values == (4,) and texts(second) == ["h1:4", "10:4", "rethrow"]
    third = throw(second.play_text("rethrow"), "1-1")
    assert third.values == (6,) and texts(third) == ["h1:6", "10:6", "rethrow"]
    summed = throw(third.play_text("rethrow"), "2-3")
    assert summed.values == (11,) and "rethrow" not in texts(summed)  # 6 + the new throw, once only
    assert third.to_text().split()[5:7] == ["6", "3"]


# --- R12: bearing off ----------------------------------------------------------------------------------


def test_r12_overshoot_bears_off_without_an_extra_roll() -> None:
    state = at("60a2 7/9/9 0/0/0 1 move 11 0 - 3 9 entered=a")
    after = state.play_text("60:11")
    assert after.borne_off == (2, 0, 0) and after.seat == 1


def test_r12_exact_bear_off() -> None:
    state = at("60a2,10a1 6/9/9 0/0/0 1 move 11 0 - 3 9 entered=a", exact_bear_off="on")
    assert "60:11" not in texts(state)
    exact = at("60a2,10a1 6/9/9 0/0/0 1 move 4 0 - 3 9 entered=a", exact_bear_off="on")
    assert "60:4" in texts(exact)


# --- R13: compulsory moves -----------------------------------------------------------------------------


def test_r13_no_voluntary_pass_and_no_move_passes_the_turn() -> None:
    state = at("3a1 8/9/9 0/0/0 1 move 4 0 - 3 9 entered=a")
    assert "pass" not in texts(state)
    with pytest.raises(IllegalMoveError, match="allow_pass"):
        state.parse_move("pass")
    assert "pass" in texts(at("3a1 8/9/9 0/0/0 1 move 4 0 - 3 9 entered=a", allow_pass="on"))
    # Every target holds a bigger stack: the throw ends the turn by itself.
    blocked = at("1a1,7b3,8b3 8/3/9 0/0/0 1 throw - 0 - 3 9 entered=ab")
    blocked = blocked.play_text("3-4")
    assert blocked.seat == 1 and blocked.to_move == CHANCE and blocked.turns == 4


# --- R14: winning --------------------------------------------------------------------------------------


def test_r14_bearing_off_the_last_coins_wins() -> None:
    state = at("60a2 0/9/9 7/0/0 1 move 5 0 - 30 90 entered=a")
    after = state.play_text("60:5")
    assert after.is_terminal() and after.termination() == "normal"
    assert after.returns() == (1.0, -0.5, -0.5)


# --- R15, R16: teams and player counts -----------------------------------------------------------------


def test_r15_teams_share_coins_and_results() -> None:
    teams = game(players=4)
    assert teams.num_sides == 2 and teams.side_of(2) == 0 and teams.side_of(3) == 1
    state = teams.state_from_text("60a2 0/9 7/0 3 move 5 0 - 30 90 entered=a")
    assert state.to_move == 2 and "60:5" in texts(state)
    after = state.play_text("60:5")
    assert after.returns() == (1.0, -1.0, 1.0, -1.0)


def test_r15_separate_team_coins_block_and_win_together() -> None:
    separate = game(players=4, team_coins="separate")
    state = separate.state_from_text("3a1,7c1 8/9/8/9 0/0/0/0 1 move 4 0 - 3 9 entered=ac")
    assert "3:4" not in texts(state)  # the partner's coin blocks
    nearly = "60a2 0/9/0/9 7/0/9/0 1 move 5 0 - 30 90 entered=ac"
    won = separate.state_from_text(nearly).play_text("60:5")
    assert won.returns() == (1.0, -1.0, 1.0, -1.0)
    first = game(players=4, team_coins="separate", team_win="first")
    alone = first.state_from_text("60a2 0/9/9/9 7/0/0/0 1 move 5 0 - 30 90 entered=a").play_text("60:5")
    assert alone.returns() == (1.0, -1.0, 1.0, -1.0)
    both = separate.state_from_text("60a2 0/9/9/9 7/0/0/0 1 move 5 0 - 30 90 entered=a").play_text("60:5")
    assert not both.is_terminal()


def test_r15_free_for_all_with_four() -> None:
    ffa = game(players=4, four_player_mode="free_for_all")
    assert ffa.num_sides == 4
    won = ffa.state_from_text("60d2 9/9/9/0 0/0/0/7 4 move 5 0 - 30 90 entered=d").play_text("60:5")
    assert won.returns() == pytest.approx((-1 / 3, -1 / 3, -1 / 3, 1.0))


@pytest.mark.parametrize(
    ("settings", "loser", "returns", "result"),
    [
        # Teams: the partner of the seat that gives up loses with it, as the game's own win returns say.
        ({"players": 4}, 0, (-1.0, 1.0, -1.0, 1.0), "0-1-0-1"),
        ({"players": 4}, 3, (1.0, -1.0, 1.0, -1.0), "1-0-1-0"),
        ({"players": 4, "team_coins": "separate"}, 1, (1.0, -1.0, 1.0, -1.0), "1-0-1-0"),
        # Alone: the others share the loser's loss.
        (
            {"players": 4, "four_player_mode": "free_for_all"},
            2,
            (1 / 9, 1 / 9, -1 / 3, 1 / 9),
            "1/3-1/3-0-1/3",
        ),
        ({"players": 3}, 1, (0.25, -0.5, 0.25), "1/2-0-1/2"),
        ({"players": 2}, 0, (-1.0, 1.0), "0-1"),
    ],
)
def test_r15_a_forfeit_is_scored_as_the_game_scores_a_win(
    settings: dict[str, object], loser: int, returns: tuple[float, ...], result: str
) -> None:
    state = game(**settings).new_initial_state()
    assert state.forfeit_returns(loser) == pytest.approx(returns)
    assert sum(state.forfeit_returns(loser)) == pytest.approx(0)
    for termination in ("resignation", "time forfeit"):
        record = start_record(state.game, [f"p{seat}" for seat in range(state.game.num_players)])
        finish_record(record, state, resigned=loser, termination=termination)
        assert record.result == result and record.termination == termination
        assert replay(parse_record(write_record(record))).final_state == state


def test_r15_a_forfeit_in_teams_names_the_team_that_wins() -> None:
    state = game(players=4).new_initial_state()
    record = start_record(state.game, ["a", "b", "c", "d"])
    finish_record(record, state, resigned=0)
    assert record.result == "0-1-0-1"  # not 0-1/3-1/3-1/3: Player 3 is Player 1's partner
    wrong = write_record(record).replace('[Result "0-1-0-1"]', '[Result "0-1/3-1/3-1/3"]')
    with pytest.raises(NotationError, match="Result"):
        replay(parse_record(wrong))


def test_r14_a_triple_pa_ra_under_placings_scores_its_side_first() -> None:
    settings = {"triple_para_win": "on", "play_to_placings": "on"}
    state = at("10a1,20b1 8/8/9 0/0/0 2 throw - 0 - 3 9 entered=ab", **settings)
    won = throw(state, "1-1", "1-1", "1-1")
    assert won.is_terminal() and won.winner_side == 1
    assert won.returns() == pytest.approx((-0.5, 1.0, -0.5))  # b first; a and c share 2nd and 3rd
    four = at(
        "30b1 0/8/9/9 9/0/0/0 2 throw - 0 - 30 90 entered=ab placed=a",
        players=4,
        four_player_mode="free_for_all",
        **settings,
    )
    late = throw(four, "1-1", "1-1", "1-1")
    assert late.returns() == pytest.approx((1.0, 1 / 3, -2 / 3, -2 / 3))  # a first, b second, c and d share


def test_r14_a_forfeit_with_placings_keeps_the_placings_already_won() -> None:
    placings = game(players=4, four_player_mode="free_for_all", play_to_placings="on")
    state = placings.state_from_text("5b1,6c1 0/8/8/9 9/0/0/0 2 throw - 0 - 40 120 entered=abc placed=a")
    # a finished first (+1); d gives up and is last (-1); b and c share the 2nd and 3rd places (1/3, -1/3).
    assert state.forfeit_returns(3) == pytest.approx((1.0, 0.0, 0.0, -1.0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r16_every_player_count_plays_to_a_result(players: int) -> None:
    rng = random.Random(players)
    state = game(players=players).new_initial_state()
    while not state.is_terminal():
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
    assert state.termination() == "normal" and sum(state.returns()) == pytest.approx(0)


# --- R17: variants -------------------------------------------------------------------------------------


def test_r17_no_niner() -> None:
    text = "3a8,7a1 0/9/9 0/0/0 1 move 4 0 - 3 9 entered=a"
    assert "3:4" in texts(at(text))
    assert "3:4" not in texts(at(text, no_niner="on"))
    opening = at("7b8 9/1/9 0/0/0 1 throw - 0 - 1 1 entered=b", no_niner="on")
    assert texts(throw(opening, "3-4")) == ["h8:7"]


def test_max_turns_caps_the_game() -> None:
    state = at("3a1 8/9/9 0/0/0 1 move 4 0 - 9 30 entered=a", max_turns=10)
    after = state.play_text("3:4")
    assert after.is_terminal() and after.is_truncated() and after.returns() == (0.0, 0.0, 0.0)


# --- Text, notation, errors ----------------------------------------------------------------------------


def test_start_text_and_round_trip() -> None:
    state = game().new_initial_state()
    assert state.to_text() == START
    after = throw(state, "1-1", "2-3")
    assert game().state_from_text(after.to_text()).key() == after.key()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- 9/9 0/0/0 1 throw - 0 - 0 0", "hands"),
        ("- 9/9/9 0/0/0 4 throw - 0 - 0 0", "seat"),
        ("- 9/9/9 0/0/0 1 roll - 0 - 0 0", "phase"),
        ("70a1 8/9/9 0/0/0 1 throw - 0 - 0 0", "positions run"),
        ("5a1 9/9/9 0/0/0 1 throw - 0 - 0 0", "10 coins"),
        ("- 9/9/9 0/0/0 1 move - 0 - 0 0", "values to spend"),
        ("- 9/9/9 0/0/0 1 throw - 0 - 0 0 colour=red", "unknown position field"),
        ("- 9/9/9", "10 fields"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        game().state_from_text(text)


@pytest.mark.parametrize("text", ["", "7", "h:", "3-9", "a:4", "23:0", "first:9"])
def test_bad_moves(text: str) -> None:
    state = at("3a1 8/9/9 0/0/0 1 move 4 0 - 3 9 entered=a")
    with pytest.raises((NotationError, IllegalMoveError)):
        state.parse_move(text)


DOCS = Path(__file__).resolve().parent.parent / "docs" / "games" / "sho.md"


def test_the_docs_triple_pa_ra_example_is_what_the_engine_writes() -> None:
    text = " ".join(DOCS.read_text().split())
    match = re.search(r"A triple pa ra win under `lhasa`: from `([^`]+)`, three `1-1` give `([^`]+)`", text)
    assert match is not None
    start = ShoGame("lhasa").state_from_text(match[1])
    assert throw(start, "1-1", "1-1", "1-1").to_text() == match[2]


@pytest.mark.parametrize(
    "text",
    [
        # A finished game has nothing left to spend: one position, one text.
        "20a2,30b1 7/8/9 0/0/0 1 throw 2,2 3 1-1 6 23 entered=ab winner=a",
        "20a2,30b1 7/8/9 0/0/0 1 move 4 0 - 6 23 entered=ab winner=a",
        "- 0/9/9 9/0/0 1 follow 3 0 - 6 23 entered=a",
        "- 0/9/9 9/0/0 1 throw - 0 - 6 23 entered=a banked=1",
    ],
)
def test_a_finished_game_has_one_text(text: str) -> None:
    with pytest.raises(NotationError, match="the game is over"):
        ShoGame("lhasa").state_from_text(text)


def test_a_win_by_the_last_move_of_a_split_leaves_nothing_to_spend() -> None:
    flexible = game(flexible_para="on", players=2)
    state = flexible.state_from_text("60a9 0/9 0/0 1 move 8 1 1-1 30 90 entered=ab")
    won = state.play_text("60:4")
    assert won.is_terminal()
    assert won.to_text() == "- 0/9 9/0 1 throw - 0 - 30 91 entered=ab"


_HUGE = "9" * 5000  # past Python's 4,300-digit limit on int("...")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{_HUGE}a1 8/9/9 0/0/0 1 throw - 0 - 0 0", "track position has 5000 digits"),
        (f"3a{_HUGE} 8/9/9 0/0/0 1 throw - 0 - 0 0", "size has 5000 digits"),
        (f"- {_HUGE}/9/9 0/0/0 1 throw - 0 - 0 0", "hands has 5000 digits"),
        (f"- 9/9/9 0/0/0 {_HUGE} throw - 0 - 0 0", "seat has 5000 digits"),
        (f"- 9/9/9 0/0/0 1 throw {_HUGE} 0 - 0 0", "value has 5000 digits"),
        (f"- 9/9/9 0/0/0 1 throw - 0 - 0 {_HUGE}", "ply has 5000 digits"),
        ("- 9/9/9 0/0/0 1 throw - 0 - 0 ²", "ply must be a whole number"),
        (f"3a1 8/9/9 0/0/0 1 throw - 0 - 3 9 entered=a banked={_HUGE}", "banked has 5000 digits"),
    ],
)
def test_huge_numbers_in_positions_are_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as info:
        game().state_from_text(text)
    assert len(str(info.value)) < 300  # the message quotes the text short


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"3:{_HUGE}", "value .* has 5000 digits"),
        (f"{_HUGE}:4", "position has 5000 digits"),
        (f"h{_HUGE}:4", "coins entering has 5000 digits"),
        (f"3:1+{_HUGE}", "value .* has 5000 digits"),
    ],
)
def test_huge_numbers_in_moves_are_notation_errors(text: str, message: str) -> None:
    state = at("3a1 8/9/9 0/0/0 1 move 4 0 - 3 9 entered=a")
    with pytest.raises(NotationError, match=message) as info:
        state.parse_move(text)
    assert len(str(info.value)) < 300


def test_illegal_move_messages() -> None:
    state = at("3a1 8/9/9 0/0/0 1 move 4 0 - 3 9 entered=a")
    with pytest.raises(IllegalMoveError, match="no stack of yours on position 5"):
        state.parse_move("5:4")
    with pytest.raises(IllegalMoveError, match="values to spend are 4"):
        state.parse_move("3:5")
    assert state.parse_move("h:4") == state.parse_move("h1:4")


def test_diagram_shows_the_track_hands_and_values() -> None:
    picture = at("3a1,12b2 8/7/9 0/0/0 1 move 2,11 1 1-1 3 9 entered=ab").diagram()
    assert "a1" in picture and "b2" in picture
    assert "values: 2, 11" in picture and "8 in hand" in picture


def test_lhasa_preset_and_bad_settings() -> None:
    lhasa = ShoGame("lhasa")
    assert lhasa.settings["six_three"] == "on" and lhasa.settings["triple_para_win"] == "on"
    with pytest.raises(SettingsError):
        game(players=5)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["classic", "lhasa"])
def test_seeded_random_games_conform_for_every_player_count(players: int, preset: str) -> None:
    check_game(ShoGame(preset, players=players), n_games=4, seed=players)


# --- R17: flexible pa ra and finishing overflow ---------------------------------------------------------


def test_r17_flexible_para_splits_between_two_stacks() -> None:
    text = "5a1,20a1 7/9/9 0/0/0 1 throw - 0 - 3 9 entered=a"
    state = throw(at(text, flexible_para="on"), "1-1", "5-6")
    assert state.values == (13,)
    parts = {move.values[0] for move in state.legal_moves() if move.source == 5}
    assert parts == set(range(1, 14))  # 1 is allowed, and 13 is one whole move
    state = state.play_text("5:4")
    assert state.stack_at(9) == (0, 1) and state.values == (9,) and state.seat == 0
    assert texts(state) == ["20:9"]  # a different stack: not the one on 9, not from the hand
    state = state.play_text("20:9")
    assert state.stack_at(29) == (0, 1) and state.seat == 1


@pytest.mark.parametrize(("bonus", "again"), [("either", True), ("second_only", False)])
def test_r17_flexible_bonus(bonus: str, again: bool) -> None:
    text = "5a1,9a1,30a1 6/9/9 0/0/0 1 throw - 0 - 3 9 entered=a"
    state = throw(at(text, flexible_para="on", flexible_bonus=bonus), "1-1", "5-6")
    state = state.play_text("5:4")  # stacks on 9
    assert ("bonus=1" in state.to_text()) == again
    state = state.play_text("30:9")  # places
    assert (state.seat == 0) == again


def test_r17_finishing_overflow_moves_a_second_stack() -> None:
    text = "59a2,10a1,18a1 5/9/9 0/0/0 1 move 13 0 - 3 9 entered=a"
    plain = at(text).play_text("59:13")
    assert plain.seat == 1
    state = at(text, finishing_overflow="on").play_text("59:13")
    assert state.borne_off == (2, 0, 0) and state.values == (8,) and state.seat == 0
    assert texts(state) == ["10:8", "18:8", "pass"]
    stacked = state.play_text("10:8")
    assert stacked.stack_at(18) == (0, 2) and stacked.to_move == CHANCE and stacked.seat == 0
    declined = state.play_text("pass")
    assert declined.seat == 1


def test_flexible_para_needs_the_wikipedia_pa_ra() -> None:
    with pytest.raises(SettingsError):
        game(flexible_para="on", para_mode="ios")


@pytest.mark.parametrize(
    "settings",
    [
        {"flexible_para": "on"},
        {"flexible_para": "on", "flexible_bonus": "second_only", "allow_pass": "on"},
        {"finishing_overflow": "on", "players": 2},
        {"para_mode": "ios", "players": 4, "team_coins": "separate", "team_win": "first"},
        {"no_niner": "on", "last_kill_ends_turn": "on", "para_subsets": "single_or_total"},
        {"exact_bear_off": "on", "goal": "shells+1", "first_player": "random", "opening_kill": "plain"},
        {"reopen_when": "board_empty", "six_three": "on", "opening_size": 3, "opening_12_bonus": "off"},
        {"players": 4, "four_player_mode": "free_for_all", "shells": 30, "coins": 5},
        {"para_mode": "pool", "triple_para_win": "on"},
        {"opening_kill": "topup3_on_shomo", "players": 2, "last_kill_ends_turn": "on"},
    ],
)
def test_seeded_random_games_conform_under_options(settings: dict[str, object]) -> None:
    check_game(game(**settings), n_games=3, seed=7)


# --- R11 pool and R6 top-up ---------------------------------------------------------------------------------


def test_r11_pool_spends_values_one_per_move_and_banks_bonus_throws() -> None:
    text = "5a1,9a1,30a1 6/9/9 0/0/0 1 throw - 0 - 3 9 entered=a"
    state = throw(at(text, para_mode="pool"), "1-1", "1-3")
    assert state.values == (2, 4)
    assert {move.values for move in state.legal_moves()} == {(2,), (4,)}  # never both at once
    state = state.play_text("5:4")  # stacks on 9: one throw banked
    assert state.values == (2,) and state.to_move == 0 and "banked=1" in state.to_text()
    state = state.play_text("30:2")  # places; the pool is spent, so the banked throw follows
    assert state.to_move == CHANCE and state.seat == 0 and "banked" not in state.to_text()
    state = throw(state, "2-3").play_text("9:5")  # a place with nothing banked ends the turn
    assert state.seat == 1


def test_r6_topup3_on_shomo() -> None:
    # b's opening stack (a Sho-mo) on 7 is killed by two coins of a, which are topped up to 3.
    text = "3a2,7b2 7/7/9 0/0/0 1 move 4 0 - 3 9 entered=ab"
    after = at(f"{text} shomo=7", opening_kill="topup3_on_shomo").play_text("3:4")
    assert after.stack_at(7) == (0, 3) and after.hand == (6, 9, 9)
    assert "shomo" not in after.to_text()
    no_bonus = at(text, opening_kill="topup3_on_shomo").play_text("3:4")
    assert no_bonus.stack_at(7) == (0, 2)  # the victim was not a Sho-mo: no top-up


def test_r6_topup3_marks_opening_stacks_and_kills_plainly() -> None:
    state = throw(game(opening_kill="topup3_on_shomo").new_initial_state(), "3-4").play_text("h2:7")
    assert "shomo=7" in state.to_text()
    moved = throw(state, "5-6")  # the next seat opens elsewhere; then the Sho-mo moves unchanged
    assert "shomo=7" in moved.to_text()
    big = at("7b3 9/6/9 0/0/0 1 throw - 0 - 1 1 entered=b", opening_kill="topup3_on_shomo")
    assert throw(big, "3-4").seat == 1  # no n+1: two coins cannot kill three


# --- R3 series start and R14 placings -------------------------------------------------------------------


def test_r3_previous_winner_starts_the_next_game() -> None:
    won = at("60a2 0/9/9 7/0/0 1 move 5 0 - 30 90 entered=a").play_text("60:5")
    assert won.finishing_seat == 0
    series = game(first_player="previous_winner", previous_winner=3).new_initial_state()
    assert series.seat == 2
    assert game(first_player="previous_winner").new_initial_state().seat == 0  # the first game
    with pytest.raises(SettingsError):
        game(players=2, previous_winner=3)


def test_r14_play_to_placings() -> None:
    text = "60a2,30b1 0/8/9 7/0/0 1 move 5 0 - 30 90 entered=ab"
    assert at(text).play_text("60:5").is_terminal()
    state = at(text, play_to_placings="on").play_text("60:5")
    assert not state.is_terminal() and "placed=a" in state.to_text()
    assert state.seat == 1
    state = throw(state, "3-4")
    state = state.play_text(state.move_to_text(state.legal_moves()[0]))
    assert state.seat in (1, 2)  # seat 1 (player 1) has finished and is skipped
    last = at("60b1 0/0/9 9/8/0 2 move 5 0 - 30 90 entered=abc placed=a", play_to_placings="on")
    done = last.play_text("60:5")
    assert done.is_terminal() and done.returns() == (1.0, 0.0, -1.0)
    with pytest.raises(SettingsError):
        game(players=4, play_to_placings="on")


# --- The position value -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"players": 4, "team_coins": "separate", "shells": 16, "coins": 3},
        {"flexible_para": "on", "finishing_overflow": "on", "shells": 16, "coins": 3},
        {"para_mode": "pool", "shells": 16, "coins": 3},
        {"opening_kill": "topup3_on_shomo", "play_to_placings": "on", "shells": 16, "coins": 3},
        {"first_player": "random", "shells": 16, "coins": 2},
    ],
)
def test_a_position_value_makes_the_same_state_and_text(settings: dict[str, object]) -> None:
    import pickle

    game = ShoGame(**settings)  # type: ignore[arg-type]
    rng = random.Random(3)
    state = game.new_initial_state()
    phases = set()
    while True:
        position = state.position
        phases.add(position.phase)
        again = game.state_from_position(position)
        assert again == state and again.to_text() == state.to_text() and again.position == position
        assert game.state_from_text(state.to_text()).position == position
        assert pickle.loads(pickle.dumps(state)) == state and state.history == ()
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
    assert {"throw", "move"} <= phases


def test_a_position_value_is_trusted_but_sho_has_no_history() -> None:
    game = ShoGame(players=2, shells=13, coins=1)
    state = game.state_from_text("12a1 0/1 0/0 1 move 5 0 2-3 3 9 entered=ab")
    position = state.position
    assert (position.owner[12], position.size[12], position.values, position.first) == (0, 1, (5,), (2, 3))
    with pytest.raises(ValueError, match="no repetition rule"):
        game.state_from_position(position, history=[position])
    with pytest.raises(ValueError, match="phase"):
        game.state_from_position(dataclasses.replace(position, phase="moving"))
    # A side with all its coins off has won, as every state judges it.
    won = dataclasses.replace(position, owner=(-1,) * 13, size=(0,) * 13, off=(1, 0))
    assert game.state_from_position(won).winner_side == 0
