"""Shogammon's action ids and observations: known ids, the mover's view, the bound, the planes."""

from __future__ import annotations

import random

import pytest

from shogames.core.errors import IllegalMoveError
from shogames.core.protocol import CHANCE
from shogames.games.shogammon import (
    ACT,
    FIRST_LOSE_ACTION,
    NUM_DISTINCT_ACTIONS,
    OBSERVATION_PLANES,
    PAIR,
    ROLL,
    START_SFEN,
    ShogammonGame,
    ShogammonMove,
    ShogammonPosition,
    ShogammonState,
)
from test_actions import check_position, play_random_game


def at(text: str, **settings: object) -> ShogammonState:
    return ShogammonGame(None, **settings).state_from_text(text)


def action_of(state: ShogammonState, text: str) -> int:
    return state.move_to_action(state.parse_move(text))


def plane(tensor: list[float], name: str) -> list[list[float]]:
    """One plane of an observation as 9 rows of 9 (row 0 the observer's far rank)."""
    index = OBSERVATION_PLANES.index(name)
    return [tensor[index * 81 + row * 9 : index * 81 + row * 9 + 9] for row in range(9)]


def mirrored(state: ShogammonState) -> ShogammonState:
    """The same position with the colours swapped and the board turned half round."""
    p = state.position
    return state.game.state_from_position(
        ShogammonPosition(
            lower=tuple(-p.lower[80 - square] for square in range(81)),
            upper=tuple(-p.upper[80 - square] for square in range(81)),
            hands=p.hands[8:] + p.hands[:8],
            side=1 - p.side,
            dice=p.dice,
            turns=p.turns,
            ply=p.ply,
            winner=None if p.winner is None else 1 - p.winner,
            end=p.end,
        )
    )


def turned(move: ShogammonMove) -> ShogammonMove:
    """A move of :func:`mirrored`'s position: the same with every square turned half round."""
    return move._replace(
        **{
            field: 80 - getattr(move, field)
            for field in ("origin", "to", "origin2", "to2")
            if getattr(move, field) >= 0
        }
    )


# --- Known ids ------------------------------------------------------------------------------------------


def test_the_size_is_the_same_for_every_setting() -> None:
    assert NUM_DISTINCT_ACTIONS == 427 * 81 + 6 == 34_593
    for settings in ({}, {"drop_stack": "on", "point_capture": "simultaneous"}, {"die_map": "generals"}):
        assert ShogammonGame(None, **settings).num_distinct_actions == 34_593
    assert ShogammonGame().max_chance_outcomes == 21
    assert ShogammonGame("backgammon").max_chance_outcomes == 30


def test_rolls_are_numbered_in_the_order_of_the_outcomes() -> None:
    state = ShogammonGame().new_initial_state()
    assert state.legal_actions() == list(range(21))
    assert [state.move_to_text(state.action_to_move(a)) for a in (0, 5, 6, 20)] == [
        "1-1",
        "1-6",
        "2-2",
        "6-6",
    ]
    opening = ShogammonGame("backgammon").new_initial_state()
    assert opening.legal_actions() == list(range(30))
    assert opening.move_to_text(opening.action_to_move(0)) == "B1-W2"
    assert opening.move_to_text(opening.action_to_move(29)) == "B6-W5"


def test_board_moves_drops_and_lost_dice_have_known_ids() -> None:
    start = at(f"{START_SFEN} 1-5 1")
    assert action_of(start, "1:7g7f") == 0 * 81 + 47  # forward, onto 7f (square 47)
    assert action_of(start, "5:2h3h") == 6 * 81 + 69  # the rook one square to the mover's left, onto 3h
    bishop = ShogammonGame().new_initial_state()
    for text in ("1-1", "1:7g7f", "1:2g2f", "1-1", "1:3c3d", "1:8c8d", "5-6"):
        bishop = bishop.play_text(text)
    assert action_of(bishop, "5:8h2b+") == (10 + 1) * 81 + 16  # forward-right, promoting, onto 2b
    assert action_of(bishop, "5:8h2b") == 1 * 81 + 16
    drop = at("4k4/9/9/9/9/9/9/9/4K4 b P 1 1-6 1")
    assert action_of(drop, "1:P*5e") == 20 * 81 + 40
    lost = at("8k/9/9/9/9/9/4[KG]4/9/9 b - 1 4-6 1")
    assert action_of(lost, "6:-") == FIRST_LOSE_ACTION + 5 == NUM_DISTINCT_ACTIONS - 1
    knight = at("4k4/9/9/9/9/9/9/2N6/4K4 b - 1 2-6 1")
    assert {knight.move_to_text(knight.action_to_move(a)) for a in knight.legal_actions()} >= {
        "2:7h8f",
        "2:7h6f",
    }
    assert action_of(knight, "2:7h8f") == 8 * 81 + 46 and action_of(knight, "2:7h6f") == 9 * 81 + 48


def test_point_captures_number_both_halves() -> None:
    state = at("8k/9/9/9/4[pg]4/3S1G3/9/9/K8 b - 1 3-4 1")
    # 4f goes forward-left (7) onto 5e (40), 6f forward-right (1); the first half comes first.
    assert action_of(state, "4:4f5e&3:6f5e") == (27 + 20 * 7 + 1) * 81 + 40
    assert action_of(state, "3:6f5e&4:4f5e") == (27 + 20 * 1 + 7) * 81 + 40
    pairs = [action for action in state.legal_actions() if action >= 27 * 81]
    assert pairs == [(27 + 20 + 7) * 81 + 40, (27 + 140 + 1) * 81 + 40]


def test_the_second_capturer_is_found_after_the_first_has_left() -> None:
    # Ruling 17: the rook behind the lance joins once the lance has moved; both go forward (plane 0).
    state = at("8k/9/4[pp]4/9/9/4L4/9/9/K3R4 b - 1 2-5 1")
    action = action_of(state, "2:5f5c&5:5i5c")
    assert action == 27 * 81 + 22
    assert state.action_to_move(action) == state.parse_move("2:5f5c&5:5i5c")
    # The piece under the first capturer may be the second: both from 5f, each may promote.
    point = at("8k/9/4[pp]4/9/9/4[LL]4/9/9/K8 b - 1 2-2 1")
    pairs = [move for move in point.legal_moves() if move.kind == PAIR]
    assert {point.move_to_action(move) for move in pairs} == {
        (27 + 20 * first + second) * 81 + 22 for first in (0, 10) for second in (0, 10)
    }
    assert all(move.origin == move.origin2 == 49 for move in pairs)
    # Simultaneous: the rook behind the lance cannot take part, and its id names no legal move.
    simultaneous = at("8k/9/4[pp]4/9/9/4L4/9/9/K3R4 b - 1 2-5 1", point_capture="simultaneous")
    with pytest.raises(IllegalMoveError):
        simultaneous.action_to_move(action)


# --- The mover's view -----------------------------------------------------------------------------------


def test_white_sees_its_moves_as_black_sees_the_mirror() -> None:
    black = at(f"{START_SFEN} 1-5 1")
    white = mirrored(black)
    assert white.side == 1 and white.legal_actions() == black.legal_actions()
    assert action_of(white, "1:3c3d") == action_of(black, "1:7g7f") == 47
    for seat in (0, 1):
        ours, theirs = black.observation_tensor(seat), white.observation_tensor(1 - seat)
        colour = OBSERVATION_PLANES.index("observer is Black")
        assert ours[: colour * 81] == theirs[: colour * 81]
        assert ours[(colour + 1) * 81 :] == theirs[(colour + 1) * 81 :]


def test_mirrored_positions_of_random_games_have_the_same_actions() -> None:
    game = ShogammonGame(None, drop_stack="on")
    rng = random.Random(5)
    state = game.new_initial_state()
    seen = 0
    while not state.is_terminal() and seen < 150:
        if state.to_move != CHANCE:
            seen += 1
            mirror = mirrored(state)
            assert mirror.legal_actions() == state.legal_actions()
            for action in state.legal_actions():
                assert mirror.action_to_move(action) == turned(state.action_to_move(action))
            move = rng.choice(list(state.legal_moves()))
        else:
            move = rng.choice(list(state.legal_moves()))
        state = state.play(move)


# --- The bound ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings",
    [
        {"drop_stack": "on", "point_capture": "simultaneous", "repetition": "fourfold", "max_turns": 300},
        {
            "die_map": "custom",
            "custom_map": "1:GR,2:LN,3:S,4:P,5:B,6:K",
            "strict_dice": "on",
            "max_turns": 300,
        },
        {"die_map": "minors-split", "opening_roll": "backgammon", "drop_stack": "on", "max_turns": 300},
    ],
)
def test_random_games_under_extreme_settings_stay_inside_the_space(settings: dict[str, object]) -> None:
    game = ShogammonGame(None, **settings)
    rng = random.Random(str(settings))
    for _ in range(2):
        assert play_random_game(game, rng) <= game.max_game_length


def test_a_crowded_point_numbers_every_capture_inside_the_space() -> None:
    # White's point on 5e with Black's pieces on every line and both knight squares around it, under a
    # map that moves G R (1) and L N (2): golds and dragons step in, rooks, lances and knights join.
    custom = {"die_map": "custom", "custom_map": "1:GR,2:LN,3:S,4:P,5:B,6:K"}
    for roll in ("1-2", "1-1", "2-2"):
        for capture in ("sequential", "simultaneous"):
            state = at(
                f"k8/9/9/4G+R3/2R1[ps]G3/3+LGG3/3N1N3/4L4/8K b - 1 {roll} 1",
                point_capture=capture,
                **custom,
            )
            check_position(state, random.Random(roll))
            pairs = [move for move in state.legal_moves() if move.kind == PAIR]
            assert len(pairs) >= 6
            actions = [state.move_to_action(move) for move in state.legal_moves()]
            assert len(set(actions)) == len(actions) and max(actions) < NUM_DISTINCT_ACTIONS


def test_every_direction_and_promotion_reads_back() -> None:
    state = at("4k4/9/9/4+R4/9/9/9/2N6/4K4 b - 1 2-5 1")
    moves = [move for move in state.legal_moves() if move.kind == ACT]
    planes = {state.move_to_action(move) // 81 for move in moves}
    assert set(range(8)) <= planes  # the dragon travels every line
    assert {8, 9} <= planes  # the knight's two jumps


def test_ids_that_are_not_legal_are_refused() -> None:
    state = at(f"{START_SFEN} 1-5 1")
    for action in (-1, NUM_DISTINCT_ACTIONS, 0, 20 * 81 + 40, FIRST_LOSE_ACTION, True, 47.0, "47"):
        with pytest.raises(IllegalMoveError):
            state.action_to_move(action)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="roll"):
        state.move_to_action(ShogammonMove(ROLL, die=1, die2=5))
    with pytest.raises(ValueError, match="line"):
        state.move_to_action(ShogammonMove(ACT, 1, 60, 31))
    with pytest.raises(ValueError, match="die"):
        state.move_to_action(ShogammonMove(ACT, 3, 60, 51))
    over = at("4k4/9/9/9/9/9/9/9/9 b - 3 - 9")
    with pytest.raises(ValueError, match="over"):
        over.move_to_action(ShogammonMove(ACT, 1, 60, 51))
    with pytest.raises(IllegalMoveError, match="over"):
        over.action_to_move(0)


# --- The length cap ------------------------------------------------------------------------------------


def test_a_game_of_double_sixes_lasts_exactly_max_game_length() -> None:
    game = ShogammonGame(None, max_turns=6)
    assert game.max_game_length == 18
    state = game.new_initial_state()
    for turn in range(6):
        king, off = ("5i", "5h") if turn % 2 == 0 else ("5a", "5b")
        for text in ("6-6", f"6:{king}{off}", f"6:{off}{king}"):
            state = state.play_text(text)
    assert state.is_terminal() and state.is_truncated() and state.ply == game.max_game_length


# --- Observations ---------------------------------------------------------------------------------------


def test_the_planes_of_the_start() -> None:
    game = ShogammonGame(None, max_turns=10)
    state = game.state_from_text(f"{START_SFEN} 1-1 1")
    assert game.observation_shape == (81, 9, 9) and len(game.observation_planes) == 81
    for seat in (0, 1):
        tensor = state.observation_tensor(seat)
        assert plane(tensor, "own P alone or below")[6] == [1.0] * 9
        assert plane(tensor, "opponent's P alone or below")[2] == [1.0] * 9
        assert plane(tensor, "own R alone or below")[7][7] == 1.0  # each seat's rook on its right
        assert plane(tensor, "opponent's R alone or below")[1][1] == 1.0
        assert plane(tensor, "unspent dice showing 1")[4] == [1.0] * 9
        assert plane(tensor, "observer to move")[0][0] == (1.0 if seat == 0 else 0.0)
        assert plane(tensor, "observer is Black")[8][8] == (1.0 if seat == 0 else 0.0)
        assert sum(tensor) == 40 + 81 * (1 + (seat == 0) * 2)


def test_points_hands_dice_and_counters() -> None:
    game = ShogammonGame(None, max_turns=8, repetition="fourfold")
    state = game.state_from_text("k8/9/9/9/4[pg]4/3S1G3/9/9/K8 w 2P1Gb 5 3 12")
    white = state.observation_tensor(1)
    assert plane(white, "own P alone or below")[4][4] == 1.0 and plane(white, "own G on top")[4][4] == 1.0
    assert plane(white, "opponent's S alone or below")[3][5] == 1.0
    assert plane(white, "own B in hand")[0][0] == 0.5 and plane(white, "opponent's P in hand")[0][0] == 2 / 18
    assert plane(white, "opponent's G in hand")[3][3] == 0.25
    assert plane(white, "unspent dice showing 3")[0][0] == 0.5 and plane(white, "one die played")[0][0] == 1.0
    assert plane(white, "turn cap progress")[0][0] == 4 / 8
    assert plane(white, "repetitions")[0][0] == 0.0  # a turn's middle stands for no repetition here
    rolled = game.state_from_text("k8/9/9/9/4[pg]4/3S1G3/9/9/K8 w 2P1Gb 5 - 12")
    assert plane(rolled.observation_tensor(0), "repetitions")[0][0] == 0.25
