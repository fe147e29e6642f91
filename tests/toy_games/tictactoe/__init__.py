"""Tic-tac-toe on a square board of 3 to 5, a test game with a compiled kernel: the example of a fifth game.

This package is laid out as a game of ``src/shogames/games/<id>/`` is, and holds every file of one
(``docs/adding-a-game.md`` lists them; ``tests/test_docs.py`` checks the list against this folder): the rules
and notation here, the compiled kernel in ``kernel.py`` and ``_jit.py``, the browser view in ``view.py`` and
its renderer in ``static/``, the rules page ``rules.md`` and the lessons ``lessons.toml``. Its own tests are
``tests/test_toy_tictactoe.py``, ``tests/test_kernel_toy_tictactoe.py`` and
``tests/test_view_toy_tictactoe.py``, and its perft counts are ``tests/data/perft/toy_tictactoe.perft``.
``tests/conftest.py`` installs it for the test run as an outside package would be installed: a
distribution with an entry point in the group ``shogames.games``. No shared test names it.

Rules: two seats, X (seat 0, first) and O, put their mark in turn on an empty square of a ``size`` x
``size`` board. A seat that makes ``line`` marks in a row (across, up or diagonally) wins; a full board
with no such line is a draw. Rulings for this toy: the game ends at the first line, and the last mark may
make two lines at once.

Board indexing: square ``row * size + column``, row 0 at the bottom, column 0 at the left, named like chess
squares (``a1`` bottom left, ``c3`` top right on the 3 x 3 board)::

    row 2   6 7 8        a3 b3 c3
    row 1   3 4 5        a2 b2 c2
    row 0   0 1 2        a1 b1 c1

A move is the square's index (an ``int``), written as its name; its action id is the same index, so there
are ``size * size`` actions. The observation is three planes of ``size`` x ``size`` (rows from the bottom):
the observing seat's marks, the other seat's marks, and a plane of ones when the observing seat is to move.

A position is written row by row from the top, ``x``/``o``/``.`` per square and ``/`` between rows, then
the mark to move: ``"x.o/.x./... o"``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self

from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.protocol import Game, State
from shogames.core.settings import Setting, SettingValue

CROSS: Final = 0
"""The seat of X, who moves first."""
NOUGHT: Final = 1
"""The seat of O."""
MARKS: Final = "xo"
"""Each seat's letter in position texts, by seat."""
FILES: Final = "abcde"
"""The files' letters, from the left; ranks are numbered from 1 at the bottom."""

OPEN_LINE_WEIGHT: Final = 0.125
"""The evaluation's one weight: each line still open to a seat counts its marks there squared, times this.

The kernel's compiled evaluation imports it (``_jit.py``), so the number is written once.
"""


@dataclass(frozen=True, slots=True)
class TicTacToePosition:
    """Every fact of a tic-tac-toe position: what the text, the kernel and the view share.

    Attributes:
        crosses: X's squares, a bitboard: bit ``row * size + column`` is set where X has a mark.
        noughts: O's squares, in the same encoding.
        seat: the seat whose turn it is (0 X, 1 O); once the game is over, the seat that would be next.
        winner: the seat that made a line, or ``None`` (the game goes on, or it is a draw).
        over: whether the game is over: a line was made or the board is full.
    """

    crosses: int
    noughts: int
    seat: int
    winner: int | None
    over: bool


def square_name(square: int, size: int) -> str:
    """The name of a square on a board of ``size``: ``a1`` at the bottom left."""
    return f"{FILES[square % size]}{square // size + 1}"


def lines_of(size: int, line: int) -> tuple[int, ...]:
    """Every run of ``line`` squares in a row on a ``size`` x ``size`` board, as bitboards.

    Found by walking from each square in four directions (across, up, and both diagonals) and keeping the
    walks that stay on the board.
    """
    runs: list[int] = []
    for start in range(size * size):
        row, column = divmod(start, size)
        for d_row, d_column in ((0, 1), (1, 0), (1, 1), (1, -1)):
            end_row, end_column = row + d_row * (line - 1), column + d_column * (line - 1)
            if 0 <= end_row < size and 0 <= end_column < size:
                runs.append(sum(1 << ((row + d_row * k) * size + column + d_column * k) for k in range(line)))
    return tuple(runs)


class TicTacToeGame(Game["TicTacToeState"]):
    """Tic-tac-toe under fixed settings: the board's size and the length of a winning line."""

    id: ClassVar[str] = "toy_tictactoe"
    name: ClassVar[str] = "Tic-tac-toe (test game)"
    version: ClassVar[int] = 1
    blurb: ClassVar[str] = "three in a row on a small board (a test game with a compiled kernel)"
    view_module: ClassVar[str | None] = "toy_games.tictactoe.view"
    kernel_module: ClassVar[str | None] = "toy_games.tictactoe.kernel"
    setting_specs: ClassVar[tuple[Setting, ...]] = (
        Setting("size", 3, "the board's width and height", minimum=3, maximum=5),
        Setting("line", 3, "the marks in a row that win (at most the size)", minimum=3, maximum=5),
    )
    presets: ClassVar[dict[str, dict[str, SettingValue]]] = {
        "four": {"size": 4, "line": 3},
        "five": {"size": 5, "line": 4},
    }

    def __init__(self, preset: str | None = None, **settings: object) -> None:
        super().__init__(preset, **settings)
        size, line = self.settings["size"], self.settings["line"]
        assert isinstance(size, int) and isinstance(line, int)
        if line > size:
            raise SettingsError(f"a line of {line} does not fit on a board of size {size}")
        self.size = size
        """The board's width and height."""
        self.line = line
        """The marks in a row that win."""
        self.lines = lines_of(size, line)
        """Every winning run of squares, as bitboards."""
        self.full = (1 << (size * size)) - 1
        """The bitboard of every square."""

    @property
    def player_names(self) -> tuple[str, ...]:
        """X and O."""
        return ("X", "O")

    @property
    def max_game_length(self) -> int:
        """One ply per square."""
        return self.size * self.size

    @property
    def num_distinct_actions(self) -> int:
        """One action per square."""
        return self.size * self.size

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Three planes of the board."""
        return (3, self.size, self.size)

    @property
    def observation_planes(self) -> tuple[str, ...]:
        """The observer's marks, the other's, and whether the observer is to move."""
        return ("own marks", "opponent's marks", "observer to move")

    def new_initial_state(self) -> TicTacToeState:
        """The empty board, X to move."""
        return TicTacToeState(self, TicTacToePosition(0, 0, CROSS, None, False))

    def state_from_position(
        self, position: TicTacToePosition, *, history: Sequence[Hashable] = ()
    ) -> TicTacToeState:
        """The state of a position value, trusted as it is (the reader checks texts).

        Raises:
            ValueError: ``history`` is not empty: no rule here looks at earlier positions.
        """
        if history:
            raise ValueError("tic-tac-toe has no repetition rule: a state keeps no history")
        return TicTacToeState(self, position)

    def judge(self, crosses: int, noughts: int) -> tuple[int | None, bool]:
        """(the seat with a line or ``None``, whether the game is over) for these marks."""
        for seat, marks in ((CROSS, crosses), (NOUGHT, noughts)):
            if any(marks & run == run for run in self.lines):
                return seat, True
        return None, (crosses | noughts) == self.full

    def state_from_text(self, text: str) -> TicTacToeState:
        """Read ``"<rows from the top, / between> <x or o>"``.

        Raises:
            NotationError: not a position of this board, or one that play cannot reach.
        """
        board, _, mover = text.partition(" ")
        rows = board.split("/")
        if mover not in MARKS or len(rows) != self.size or any(len(row) != self.size for row in rows):
            raise NotationError(
                f"expected {self.size} rows of {self.size} squares (x, o or .), then x or o, got {text!r}"
            )
        crosses = noughts = 0
        for index, row_text in enumerate(rows):
            row = self.size - 1 - index
            for column, char in enumerate(row_text):
                bit = 1 << (row * self.size + column)
                if char == "x":
                    crosses |= bit
                elif char == "o":
                    noughts |= bit
                elif char != ".":
                    raise NotationError(f"a square is x, o or ., got {char!r} in {text!r}")
        seat = MARKS.index(mover)
        lead = crosses.bit_count() - noughts.bit_count()
        if lead != seat:
            raise NotationError(
                f"X has {lead} mark(s) more than O; with {mover.upper()} to move it has {seat}: {text!r}"
            )
        winner, over = self.judge(crosses, noughts)
        if winner is not None:
            last = 1 - seat
            if winner != last or not self._lines_meet(crosses if winner == CROSS else noughts):
                raise NotationError(f"no game ends with these lines: {text!r}")
        return self.state_from_position(TicTacToePosition(crosses, noughts, seat, winner, over))

    def _lines_meet(self, marks: int) -> bool:
        """Whether every line in ``marks`` passes through one square (the mark that ended the game)."""
        common = self.full
        for run in self.lines:
            if marks & run == run:
                common &= run
        return common != 0


@dataclass(frozen=True, slots=True, eq=False)  # equal states: State compares games and keys
class TicTacToeState(State[int]):
    """One tic-tac-toe position.

    Attributes:
        tictactoe: the game and its settings.
        position: every fact of the position (:class:`TicTacToePosition`).
    """

    tictactoe: TicTacToeGame
    position: TicTacToePosition

    @property
    def game(self) -> Game[Any]:
        """The game and its settings."""
        return self.tictactoe

    @property
    def ply(self) -> int:
        """The marks on the board."""
        return (self.position.crosses | self.position.noughts).bit_count()

    @property
    def to_move(self) -> int | None:
        """The seat to move, ``None`` once the game is over."""
        return None if self.position.over else self.position.seat

    @property
    def winner(self) -> int | None:
        """The seat that made a line, if any."""
        return self.position.winner

    def mark_at(self, square: int) -> str:
        """``"x"``, ``"o"`` or ``""`` (empty) at a square."""
        bit = 1 << square
        if self.position.crosses & bit:
            return "x"
        return "o" if self.position.noughts & bit else ""

    def is_terminal(self) -> bool:
        """Whether a line was made or the board is full."""
        return self.position.over

    def legal_moves(self) -> Sequence[int]:
        """The empty squares, lowest first; none once the game is over."""
        if self.position.over:
            return []
        taken = self.position.crosses | self.position.noughts
        return [square for square in range(self.tictactoe.size**2) if not taken >> square & 1]

    def play_unchecked(self, move: int) -> Self:
        """The state after a mark on the empty square ``move``."""
        position = self.position
        crosses, noughts = position.crosses, position.noughts
        if position.seat == CROSS:
            crosses |= 1 << move
        else:
            noughts |= 1 << move
        winner, over = self.tictactoe.judge(crosses, noughts)
        return type(self)(
            self.tictactoe, TicTacToePosition(crosses, noughts, 1 - position.seat, winner, over)
        )

    def returns(self) -> tuple[float, ...]:
        """1 to the seat with a line and -1 to the other; 0 each for a draw or a game going on."""
        winner = self.position.winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == CROSS else (-1.0, 1.0)

    def evaluate(self) -> tuple[float, ...]:
        """Lines still open to each seat, each counting its marks there squared, squashed below 1.

        ``v = OPEN_LINE_WEIGHT * (X's sum - O's sum)``, and X's value ``v / (1 + |v|)``; O's is its opposite.
        """
        if self.position.over:
            return self.returns()
        score = 0.0
        for run in self.tictactoe.lines:
            crosses = (self.position.crosses & run).bit_count()
            noughts = (self.position.noughts & run).bit_count()
            if noughts == 0:
                score += crosses * crosses
            elif crosses == 0:
                score -= noughts * noughts
        value = score * OPEN_LINE_WEIGHT
        value = value / (1.0 + abs(value))
        return (value, -value)

    def move_to_action(self, move: int) -> int:
        """The square is the action id.

        Raises:
            ValueError: the game is over, or ``move`` is not a square of this board.
        """
        if self.position.over:
            raise ValueError("the game is over: no move has an action id")
        if not (isinstance(move, int) and 0 <= move < self.tictactoe.size**2):
            raise ValueError(f"a move is a square from 0 to {self.tictactoe.size**2 - 1}, got {move!r}")
        return move

    def action_to_move(self, action: int) -> int:
        """The square ``action`` when it is empty.

        Raises:
            IllegalMoveError: the square is taken or off the board, or the game is over.
        """
        taken = self.position.crosses | self.position.noughts
        if (
            self.position.over
            or not isinstance(action, int)
            or not 0 <= action < self.tictactoe.size**2
            or taken >> action & 1
        ):
            raise self._illegal_action(action)
        return action

    def observation_tensor(self, seat: int) -> list[float]:
        """The observer's marks, the other seat's, and a plane of ones when the observer is to move."""
        self._check_seat(seat)
        position = self.position
        own, other = (
            (position.crosses, position.noughts) if seat == CROSS else (position.noughts, position.crosses)
        )
        cells = self.tictactoe.size**2
        to_move = 1.0 if not position.over and position.seat == seat else 0.0
        return (
            [float(own >> square & 1) for square in range(cells)]
            + [float(other >> square & 1) for square in range(cells)]
            + [to_move] * cells
        )

    def key(self) -> tuple[int, int, int]:
        """The marks and the seat to move."""
        return (self.position.crosses, self.position.noughts, self.position.seat)

    def to_text(self) -> str:
        """Rows from the top, ``/`` between them, then the mark to move."""
        size = self.tictactoe.size
        rows = [
            "".join(self.mark_at(row * size + column) or "." for column in range(size))
            for row in range(size - 1, -1, -1)
        ]
        return f"{'/'.join(rows)} {MARKS[self.position.seat]}"

    def diagram(self) -> str:
        """The board with rank numbers and file letters."""
        size = self.tictactoe.size
        lines = [
            f"{row + 1} " + " ".join(self.mark_at(row * size + column) or "." for column in range(size))
            for row in range(size - 1, -1, -1)
        ]
        return "\n".join([*lines, "  " + " ".join(FILES[:size])])

    def move_to_text(self, move: int) -> str:
        """The square's name."""
        return square_name(move, self.tictactoe.size)

    def parse_move(self, text: str) -> int:
        """A square's name, such as ``b2``.

        Raises:
            NotationError: not a square of this board.
            IllegalMoveError: the square is taken, or the game is over.
        """
        size = self.tictactoe.size
        names = {square_name(square, size): square for square in range(size * size)}
        if text not in names:
            raise NotationError(
                f"expected a square from a1 to {square_name(size * size - 1, size)}, got {text!r}"
            )
        move = names[text]
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{text} is not empty, or the game is over, in {self.to_text()!r}")
        return move


__all__ = [
    "CROSS",
    "FILES",
    "MARKS",
    "NOUGHT",
    "OPEN_LINE_WEIGHT",
    "TicTacToeGame",
    "TicTacToePosition",
    "TicTacToeState",
    "lines_of",
    "square_name",
]
