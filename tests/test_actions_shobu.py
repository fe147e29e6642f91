"""Shobu's action ids and observation tensors on known positions, the mover's-view symmetry, and the bound.

``tests/test_actions.py`` checks the shared promises in random games; here the numbering itself is pinned
(``docs/games/shobu.md``, "Actions and observations"): hand-computed ids, every one of the 4,880 ids the
turn of some position, no legal turn of any position outside the space under any setting, and White's
view the same as Black's on the table turned half round.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import shogames
from shogames import IllegalMoveError
from shogames.games.shobu import (
    BLACK,
    PASS_ACTION,
    PASS_MOVE,
    START_POSITION,
    TURN_ACTIONS,
    WHITE,
    ShobuGame,
    ShobuMove,
    ShobuPosition,
    ShobuState,
)

STANDARD = "wwww/4/4/bbbb"
VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def game(**settings: object) -> ShobuGame:
    made = shogames.make("shobu", None, **settings)
    assert isinstance(made, ShobuGame)
    return made


def state_of(text: str, **settings: object) -> ShobuState:
    return game(**settings).state_from_text(text)


def reversed_bits(bits: int) -> int:
    """Bit ``b`` to bit ``63 - b``: the table turned half round."""
    return int(f"{bits:064b}"[::-1], 2)


def mirrored(state: ShobuState) -> ShobuState:
    """The same position with the colours swapped and the table turned half round."""
    position = state.position
    return state.game.state_from_position(
        ShobuPosition(
            reversed_bits(position.white), reversed_bits(position.black), 1 - position.side, position.turns
        )
    )


def random_position(rng: random.Random, settings: dict[str, object]) -> ShobuState:
    """A position (not always reachable): 1-4 stones of each colour on every board, either side to move."""
    black = white = 0
    for board in range(4):
        squares = rng.sample(range(16), rng.randint(2, 8))
        split = rng.randint(1, len(squares) - 1)
        for square in squares[:split]:
            black |= 1 << (16 * board + square)
        for square in squares[split:]:
            white |= 1 << (16 * board + square)
    return game(**settings).state_from_position(ShobuPosition(black, white, rng.choice((BLACK, WHITE)), 0))


# --- The size of the space -----------------------------------------------------------------------------


def test_the_count_follows_from_the_rules_under_every_setting() -> None:
    # Per direction and distance, n squares of a board let a stone move that far and stay on the board;
    # the passive stone has 2 homeboards x n squares, the aggressive stone 2 boards x n squares.
    per_board = [
        sum(1 for square in range(16) if 0 <= (square & 3) + k * df < 4 and 0 <= (square >> 2) + k * dr < 4)
        for df, dr in VECTORS
        for k in (1, 2)
    ]
    assert sorted(set(per_board)) == [4, 8, 9, 12]
    assert TURN_ACTIONS == sum((2 * n) ** 2 for n in per_board) == 4880
    for max_turns in (1, 2, 300, 10**6):
        assert game(max_turns=max_turns).num_distinct_actions == 4880
        assert game(max_turns=max_turns, no_turn="pass").num_distinct_actions == 4881 == PASS_ACTION + 1
    assert game().max_chance_outcomes == 0


def documented_turn(seat: int, action: int) -> ShobuMove:
    """The turn of ``action`` for ``seat``, decoded from the formula of docs/games/shobu.md."""
    for direction in range(8):
        for distance in (1, 2):
            df, dr = VECTORS[direction]
            squares = [
                s for s in range(16) if 0 <= (s & 3) + distance * df < 4 and 0 <= (s >> 2) + distance * dr < 4
            ]
            n = len(squares)
            if action >= 4 * n * n:
                action -= 4 * n * n
                continue
            passive, aggressive = divmod(action, 2 * n)
            homeboard, i = divmod(passive, n)
            other, j = divmod(aggressive, n)
            passive_from = 16 * (2 + homeboard) + squares[i]
            aggressive_from = 16 * (3 - homeboard - 2 * other) + squares[j]
            if seat == WHITE:  # the table turned half round
                return ShobuMove(63 - passive_from, 63 - aggressive_from, (direction + 4) % 8, distance)
            return ShobuMove(passive_from, aggressive_from, direction, distance)
    raise AssertionError("past the last id")


def state_for_turn(shobu: ShobuGame, seat: int, move: ShobuMove) -> ShobuState:
    """A position where ``move`` is a legal turn of ``seat``: its two stones, and one stone of each colour
    on every board, off the turn's path."""
    df, dr = VECTORS[move.direction]
    delta = df + 4 * dr
    path = {move.passive_from + t * delta for t in range(1, move.distance + 1)}
    path |= {move.aggressive_from + t * delta for t in range(1, move.distance + 2)}
    own = (1 << move.passive_from) | (1 << move.aggressive_from)
    taken = {move.passive_from, move.aggressive_from} | path
    opp = 0
    for board in range(4):
        free = [16 * board + s for s in range(16) if 16 * board + s not in taken]
        if not own >> (16 * board) & 0xFFFF:
            own |= 1 << free.pop(0)
        opp |= 1 << free.pop(0)
    black, white = (own, opp) if seat == BLACK else (opp, own)
    return shobu.state_from_position(ShobuPosition(black, white, seat, 0))


def test_every_id_is_the_documented_turn_and_the_turn_of_some_position() -> None:
    # The numbering is the docs' formula, and each of the 4,880 ids is a legal turn somewhere: the space
    # has no id that no position uses.
    shobu = game()
    for seat in (BLACK, WHITE):
        for action in range(TURN_ACTIONS):
            move = documented_turn(seat, action)
            state = state_for_turn(shobu, seat, move)
            assert state.action_to_move(action) == move
            assert state.move_to_action(move) == action
            assert action in state.legal_actions()


@pytest.mark.parametrize("settings", [{}, {"no_turn": "pass"}, {"max_turns": 1}], ids=str)
def test_no_legal_turn_of_any_position_falls_outside_the_space(settings: dict[str, object]) -> None:
    rng = random.Random(24)
    size = game(**settings).num_distinct_actions
    for _ in range(300):
        state = random_position(rng, settings)
        actions = []
        for move in state.legal_moves():
            action = state.move_to_action(move)
            assert 0 <= action < size, f"{state.move_to_text(move)} -> {action} at {state.to_text()!r}"
            assert state.action_to_move(action) == move
            actions.append(action)
        assert sorted(actions) == state.legal_actions()


# --- Known ids -----------------------------------------------------------------------------------------


def test_hand_computed_ids() -> None:
    start = state_of(START_POSITION)
    assert start.move_to_text(start.action_to_move(0)) == "BDa1-a2 BLa1-a2"
    # East, 2 steps: group 5, after north 1 and 2, north-east 1 and 2 and east 1, so its offset is
    # 4 x (12² + 8² + 9² + 4² + 12²) = 1796; its n = 8 squares are files a and b. Passive on BL (h = 1)
    # from b1 (i = 1), aggressive on WD, the opponent's board of the other colour (v = 1), from a3
    # (j = 4): 1796 + (8 + 1) x 16 + 8 + 4 = 1952.
    state = state_of(f"wwww/b3/4/bbbb {STANDARD} {STANDARD} wwww/4/4/bb2 b")
    move = state.parse_move("BLb1-d1 WDa3-c3")
    assert state.move_to_action(move) == 1952
    assert state.action_to_move(1952) == move
    # The same turn seen by White: the table turned half round (WL is White's left homeboard).
    white = mirrored(state)
    assert white.move_to_text(white.action_to_move(1952)) == "WDc4-a4 BLd2-b2"
    # The last id: north-west 2 steps, passive on the right homeboard's d2 (in the mover's view),
    # aggressive on the opponent's left board's d2.
    # (group 15: 4 squares c1, d1, c2, d2), pushing White's b4 off WD.
    last = state_of(f"wwww/4/3b/bbbb {STANDARD} {STANDARD} w3/4/3b/bbbb b")
    assert last.move_to_text(last.action_to_move(4879)) == "BLd2-b4 WDd2-b4"


def test_the_pass_is_the_last_id_under_no_turn_pass() -> None:
    boxed = "4/4/ww2/bw2"
    text = f"w3/4/4/b3 w3/4/4/b3 {boxed} {boxed} b"
    passing = state_of(text, no_turn="pass")
    assert passing.legal_moves() == (PASS_MOVE,)
    assert passing.legal_actions() == [4880] and passing.legal_action_mask()[4880]
    assert passing.action_to_move(4880) == PASS_MOVE and passing.move_to_action(PASS_MOVE) == 4880
    losing = state_of(text)
    assert losing.is_terminal() and losing.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        losing.action_to_move(4880)
    start = state_of(START_POSITION, no_turn="pass")
    with pytest.raises(IllegalMoveError):
        start.action_to_move(4880)
    with pytest.raises(ValueError, match="no_turn=pass"):
        state_of(START_POSITION).move_to_action(PASS_MOVE)


@pytest.mark.parametrize("action", [-1, 4880, 4881, 10**9, True, 1.0, "0", None])
def test_ids_that_are_not_legal_here_are_refused(action: object) -> None:
    state = state_of(START_POSITION)
    with pytest.raises(IllegalMoveError, match="not legal here"):
        state.action_to_move(action)  # type: ignore[arg-type]


def test_an_id_in_range_but_not_legal_here_is_refused() -> None:
    state = state_of(START_POSITION)
    legal = set(state.legal_actions())
    refused = [action for action in range(TURN_ACTIONS) if action not in legal]
    assert len(refused) == TURN_ACTIONS - 232
    for action in refused[::97]:
        with pytest.raises(IllegalMoveError, match="not legal here"):
            state.action_to_move(action)


def test_numpy_integers_are_ids() -> None:
    state = state_of(START_POSITION)
    assert state.action_to_move(np.int64(0)) == state.action_to_move(0)  # type: ignore[arg-type]


def test_move_to_action_refuses_moves_that_are_not_turns_of_the_mover() -> None:
    state = state_of(START_POSITION)
    white_turn = ShobuMove(12, 28, 4, 1)  # WDa4-a3 WLa4-a3: White's, not Black's
    same_colour = ShobuMove(32, 0, 0, 1)  # BDa1-a2 WDa1-a2: both boards dark
    off_the_board = ShobuMove(44, 60, 0, 1)  # BDa4-a5
    too_far = ShobuMove(32, 48, 0, 3)
    for move in (white_turn, same_colour, off_the_board, too_far, (1, 2), "BDa1-a2 BLa1-a2"):
        with pytest.raises(ValueError, match="not a turn of Black"):
            state.move_to_action(move)  # type: ignore[arg-type]


# --- The mover's view ----------------------------------------------------------------------------------


@pytest.mark.parametrize("settings", [{}, {"no_turn": "pass"}], ids=str)
def test_white_sees_what_black_sees_on_the_table_turned_half_round(settings: dict[str, object]) -> None:
    rng = random.Random(7)
    for _ in range(200):
        state = random_position(rng, settings)
        other = mirrored(state)
        assert state.legal_actions() == other.legal_actions()
        for action in state.legal_actions()[:20]:
            assert state.play_action(action).key() == mirrored(other.play_action(action)).key()
        for seat in (BLACK, WHITE):
            assert state.observation_tensor(seat) == other.observation_tensor(1 - seat)


# --- Observations --------------------------------------------------------------------------------------


def test_observation_planes_on_a_known_position() -> None:
    shobu = game(max_turns=40)
    assert shobu.observation_shape == (4, 8, 8)
    assert shobu.observation_planes == (
        "own stones",
        "opponent's stones",
        "observer to move",
        "turns played / max_turns",
    )
    # Black stones on WD c2 (bit 6) and on each other board's a1; White stones on every board's d4.
    d4 = (15, 31, 47, 63)
    black = (1 << 6) | (1 << 16) | (1 << 32) | (1 << 48)
    white = sum(1 << bit for bit in d4)
    state = shobu.state_from_position(ShobuPosition(black, white, WHITE, 10))
    as_black = np.array(state.observation_tensor(BLACK)).reshape(4, 8, 8)
    as_white = np.array(state.observation_tensor(WHITE)).reshape(4, 8, 8)
    # Black's view: rows from Black's side; WD c2 is row 4 + 1, column 2; BD a1 row 0, column 0.
    assert {tuple(cell) for cell in np.argwhere(as_black[0])} == {(5, 2), (4, 4), (0, 0), (0, 4)}
    assert {tuple(cell) for cell in np.argwhere(as_black[1])} == {(7, 3), (7, 7), (3, 3), (3, 7)}
    # White's view: the table turned half round; every d4 is White's a1, and WD c2 is b3 of WD as White
    # sees it (its right homeboard).
    assert {tuple(cell) for cell in np.argwhere(as_white[0])} == {(0, 4), (0, 0), (4, 4), (4, 0)}
    assert {tuple(cell) for cell in np.argwhere(as_white[1])} == {(2, 5), (3, 3), (7, 7), (7, 3)}
    assert not as_black[2].any() and as_white[2].all()
    assert (as_black[3] == 0.25).all() and (as_white[3] == 0.25).all()


def test_observation_once_over_and_past_the_cap() -> None:
    state = state_of(f"{STANDARD} {STANDARD} {STANDARD} {STANDARD} b 500", max_turns=300)
    assert state.is_truncated()
    for seat in (BLACK, WHITE):
        planes = np.array(state.observation_tensor(seat)).reshape(4, 8, 8)
        assert not planes[2].any() and (planes[3] == 1.0).all()
    with pytest.raises(ValueError, match="seat"):
        state.observation_tensor(2)


# --- The length cap ------------------------------------------------------------------------------------


@pytest.mark.parametrize("max_turns", [1, 2, 7])
def test_a_game_can_last_exactly_max_game_length_plies(max_turns: int) -> None:
    state = game(max_turns=max_turns).new_initial_state()
    assert state.game.max_game_length == max_turns
    shuffles = ("BDa1-a2 BLa1-a2", "WDa4-a3 WLa4-a3", "BDa2-a1 BLa2-a1", "WDa3-a4 WLa3-a4")
    plies = 0
    while not state.is_terminal():
        state = state.play_text(shuffles[plies % 4])
        plies += 1
    assert plies == max_turns and state.is_truncated()
