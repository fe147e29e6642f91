"""The rules of the test game tic-tac-toe (tests/toy_games/tictactoe) on known positions.

The game is the example of a fifth game: this is its rules test, as ``tests/test_<id>.py`` is for every game.
"""

from __future__ import annotations

import pytest

import shogames
from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from toy_games.tictactoe import OPEN_LINE_WEIGHT, TicTacToeGame, TicTacToePosition, TicTacToeState, lines_of


def state(text: str, preset: str | None = None) -> TicTacToeState:
    found = shogames.make("toy_tictactoe", preset).state_from_text(text)
    assert isinstance(found, TicTacToeState)
    return found


def test_the_game_is_installed_through_its_entry_point() -> None:
    assert shogames.game_class("toy_tictactoe") is TicTacToeGame


@pytest.mark.parametrize(
    ("before", "move", "winner"),
    [
        ("..o/o../xx. x", "c1", 0),  # a row
        ("..o/x../xo. x", "a3", 0),  # a column
        ("o../.x./xo. x", "c3", 0),  # a diagonal
        ("x.o/xo./..x o", "a1", 1),  # the other diagonal, for O
    ],
)
def test_three_in_a_line_wins_at_once(before: str, move: str, winner: int) -> None:
    after = state(before).play_text(move)
    assert after.is_terminal() and after.winner == winner and after.to_move is None
    assert after.returns() == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    assert after.legal_moves() == []


def test_a_full_board_without_a_line_is_a_draw() -> None:
    after = state("xox/xoo/ox. x").play_text("c1")
    assert after.is_terminal() and after.winner is None and after.returns() == (0.0, 0.0)
    assert after.termination() == "normal" and not after.is_truncated()


def test_x_moves_first_and_marks_go_on_empty_squares() -> None:
    start = shogames.make("toy_tictactoe").new_initial_state()
    assert start.to_move == 0 and start.to_text() == ".../.../... x" and len(start.legal_moves()) == 9
    after = start.play_text("b2")
    assert after.to_move == 1 and after.to_text() == ".../.x./... o"
    with pytest.raises(IllegalMoveError, match="not empty"):
        after.parse_move("b2")
    with pytest.raises(NotationError, match="a1 to c3"):
        after.parse_move("d4")


@pytest.mark.parametrize(
    "text",
    [
        ".../.../... y",  # no such mark to move
        "..../.../... x",  # a row too long
        "xx./.../... x",  # two rows only
        "x../.../... x",  # X one mark ahead with X to move
        "xxx/ooo/... o",  # two lines
        "xxx/.../.oo x",  # X's line, but X to move
        "xxx/x../x.. o",  # two lines that share no square: no last mark made both
        "x?./.../... o",
    ],
)
def test_the_reader_refuses_what_play_cannot_reach(text: str) -> None:
    with pytest.raises(NotationError):
        state(text)


def test_the_last_mark_may_make_two_lines() -> None:
    both = state("xxx/oxo/oox o")  # a3 finished the top row and a diagonal together
    assert both.is_terminal() and both.winner == 0


def test_settings_bigger_boards_and_a_line_too_long_refused() -> None:
    five = TicTacToeGame("five")
    assert (five.size, five.line, five.max_game_length) == (5, 4, 25)
    assert len(five.lines) == len(lines_of(5, 4)) == 2 * 5 * 2 + 2 * 2 * 2
    with pytest.raises(SettingsError, match="does not fit"):
        shogames.make("toy_tictactoe", None, size=3, line=4)
    four = state("o.../o.../..../.xx. x", "four").play_text("d1")
    assert four.winner == 0  # three in a row win on the 4 x 4 board


def test_the_position_value_round_trips() -> None:
    game = shogames.make("toy_tictactoe")
    assert isinstance(game, TicTacToeGame)
    middle = state("x.o/.x./... o")
    position = middle.position
    assert position == TicTacToePosition(
        crosses=0b001_010_000, noughts=0b100_000_000, seat=1, winner=None, over=False
    )
    assert game.state_from_position(position) == middle
    with pytest.raises(ValueError, match="no repetition rule"):
        game.state_from_position(position, history=[(0, 0, 0)])


def test_the_evaluation_counts_open_lines_and_stays_below_a_win() -> None:
    start = shogames.make("toy_tictactoe").new_initial_state()
    assert start.evaluate() == (0.0, -0.0)
    centre = start.play_text("b2")
    # X's mark lies on 4 open lines, each counting 1 squared.
    expected = 4 * OPEN_LINE_WEIGHT / (1 + 4 * OPEN_LINE_WEIGHT)
    assert centre.evaluate() == pytest.approx((expected, -expected))
    threat = state("..o/o../xx. x")
    assert 0 < threat.evaluate()[0] < 1


def test_the_diagram_names_files_and_ranks() -> None:
    assert state("x.o/.x./... o").diagram() == "3 x . o\n2 . x .\n1 . . .\n  a b c"
