"""The tic-tac-toe kernel: the rules of :mod:`toy_games.tictactoe` compiled with numba, and loops on them.

The compiled functions are in :mod:`toy_games.tictactoe._jit`; this module builds the rule tables from the
rules (not from the reference's own table, so that a mistake in one is not copied into the other), converts
states and moves through the public position value, and offers the :class:`~shogames.core.kernel.Kernel`
interface.

Kernel array of a state (int64, 5 entries): ``[crosses, noughts, seat, over, winner + 1]``, the fields of
:class:`~toy_games.tictactoe.TicTacToePosition`. Move code: the square's index.

Settings: ``size`` and ``line`` only change the tables, so one compiled kernel serves them all. The batch
loops (:meth:`TicTacToeKernel.perft`, :meth:`TicTacToeKernel.random_playouts`) run on numba's threads
(``threads``, :func:`~shogames.core.kernel.compiled_threads`); their results never depend on how many.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from shogames.core.kernel import (
    BatchGames,
    Kernel,
    PlayoutBatch,
    compiled_threads,
    moves_by_code,
    playout_batch,
)
from shogames.core.perft import check_perft_depth
from shogames.core.protocol import Game, State
from toy_games.tictactoe import TicTacToeGame, TicTacToePosition, TicTacToeState
from toy_games.tictactoe import _jit as jit


def build_lines(size: int, line: int) -> NDArray[np.int64]:
    """Every winning run of ``line`` squares on a ``size`` x ``size`` board, as int64 bitboards.

    Built by sliding one run of each shape (a row, a column, two diagonals) over every offset where it fits.
    """
    shapes = (
        (sum(1 << k for k in range(line)), size - line + 1, size),  # across: slides over every row
        (sum(1 << (k * size) for k in range(line)), size, size - line + 1),  # up
        (sum(1 << (k * size + k) for k in range(line)), size - line + 1, size - line + 1),  # up and right
        (sum(1 << (k * size + line - 1 - k) for k in range(line)), size - line + 1, size - line + 1),
    )
    runs = [
        shape << (row * size + column)
        for shape, columns, rows in shapes
        for row in range(rows)
        for column in range(columns)
    ]
    return np.array(sorted(runs), dtype=np.int64)


class TicTacToeKernel(Kernel[TicTacToeState, int]):
    """The compiled tic-tac-toe rules for one game's settings.

    Args:
        game: a :class:`~toy_games.tictactoe.TicTacToeGame`.
        lines: the winning runs; :func:`build_lines` by default (a test passes a broken table to show that
            the differential checks catch it).
    """

    def __init__(self, game: Game[Any], lines: NDArray[np.int64] | None = None) -> None:
        super().__init__(game)
        if not isinstance(game, TicTacToeGame):
            raise TypeError(f"the tic-tac-toe kernel plays tic-tac-toe, not {game.name}")
        self.tictactoe = game
        self.lines = build_lines(game.size, game.line) if lines is None else lines
        self.full = np.int64(game.full)
        self.squares = game.size * game.size

    # --- Conversions ---------------------------------------------------------------------------------

    def encode(self, state: State[Any]) -> NDArray[np.int64]:
        """``[crosses, noughts, seat, over, winner + 1]``."""
        position = self._position(state)
        winner = -1 if position.winner is None else position.winner
        return np.array(
            [position.crosses, position.noughts, position.seat, int(position.over), winner + 1],
            dtype=np.int64,
        )

    def decode(self, array: NDArray[Any]) -> TicTacToeState:
        """The reference state of ``[crosses, noughts, seat, over, winner + 1]``."""
        crosses, noughts, seat, over, winner = (int(value) for value in array[:5])
        position = TicTacToePosition(crosses, noughts, seat, winner - 1 if winner else None, bool(over))
        return self.tictactoe.state_from_position(position)

    def encode_move(self, move: int) -> int:
        """The square's index."""
        return int(move)

    def decode_move(self, code: int) -> int:
        """The square's index."""
        return int(code)

    def _position(self, state: State[Any]) -> TicTacToePosition:
        if not isinstance(state, TicTacToeState):
            raise TypeError(f"the tic-tac-toe kernel takes tic-tac-toe states, got {type(state).__name__}")
        return state.position

    # --- The rules, one position at a time -----------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> list[int]:
        """The empty squares, lowest first, as the compiled generator lists them."""
        crosses, noughts, _, over, _ = (np.int64(value) for value in self.encode(state))
        moves = np.empty(self.squares, dtype=np.int64)
        count = jit.legal_moves(crosses, noughts, over, self.full, moves)
        return moves_by_code(self, moves[:count])

    def play(self, state: State[Any], move: int) -> TicTacToeState:
        """The state after a legal ``move``, computed by the kernel."""
        crosses, noughts, seat, _, _ = (np.int64(value) for value in self.encode(state))
        after = jit.play_move(crosses, noughts, seat, np.int64(move), self.lines, self.full)
        c, n, s, over, winner = (int(value) for value in after)
        return self.decode(np.array([c, n, s, over, winner + 1], dtype=np.int64))

    def outcome(self, state: State[Any]) -> tuple[float, ...] | None:
        """``None`` while the game goes on, else (X's, O's) returns as the kernel judges them."""
        crosses, noughts, _, _, _ = (np.int64(value) for value in self.encode(state))
        over, winner = jit.judge(crosses, noughts, self.lines, self.full)
        if not over:
            return None
        value = float(jit.evaluate(crosses, noughts, over, winner, self.lines))
        return (value, -value)

    def evaluate(self, state: State[Any]) -> tuple[float, ...]:
        """The reference's evaluation, compiled (its returns once the game is over)."""
        crosses, noughts, _, over, winner = (np.int64(value) for value in self.encode(state))
        value = float(jit.evaluate(crosses, noughts, over, winner - 1, self.lines))
        return (value, -value)

    # --- Whole loops ---------------------------------------------------------------------------------

    def perft(self, state: State[Any], depth: int, *, bulk: bool = True, threads: int | None = None) -> int:
        """Leaves at exactly ``depth`` moves, the root's moves spread over ``threads`` (None: every core)."""
        check_perft_depth(depth)
        crosses, noughts, seat, over, _ = (np.int64(value) for value in self.encode(state))
        with compiled_threads(threads):
            count = jit.perft(crosses, noughts, seat, over, np.int64(depth), bulk, self.lines, self.full)
        return int(count)

    def _playouts(
        self,
        games: int,
        seed: int,
        start: State[Any] | None,
        first_game: int,
        record_rows: int,
        threads: int | None,
    ) -> tuple[PlayoutBatch, NDArray[np.int64]]:
        first = self.encode(start if start is not None else self.tictactoe.new_initial_state())
        stream = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        record = np.zeros((record_rows, self.squares), dtype=np.int64)
        with compiled_threads(threads):
            batch = playout_batch(
                games,
                2,
                lambda returns, plies: jit.random_playouts(
                    first, np.int64(first_game), stream, self.lines, self.full, returns, plies, record
                ),
            )
        return batch, record

    def random_playouts(
        self, games: int, *, seed: int = 0, start: State[Any] | None = None, threads: int | None = None
    ) -> PlayoutBatch:
        """Play ``games`` random games in compiled code on ``threads`` (None: every core)."""
        return self._playouts(games, seed, start, 0, 0, threads)[0]

    def batch(self, size: int, *, seed: int = 0) -> TicTacToeBatch:
        """``size`` empty boards held and stepped together in compiled code."""
        return TicTacToeBatch(self, size, seed)

    def random_game(self, *, seed: int = 0, start: State[Any] | None = None, index: int = 0) -> list[int]:
        """The moves of game ``index`` of :meth:`random_playouts` with this seed and start (played alone)."""
        batch, record = self._playouts(1, seed, start, index, 1, 1)
        return moves_by_code(self, record[0, : int(batch.plies[0])])


class TicTacToeBatch(BatchGames[TicTacToeState]):
    """Many tic-tac-toe games in one int64 array, a row each in the kernel's layout, stepped by compiled code.

    Tic-tac-toe has no chance, so the seed changes nothing.
    """

    def __init__(self, kernel: TicTacToeKernel, size: int, seed: int) -> None:
        super().__init__(kernel, size, seed)
        self.tictactoe_kernel = kernel
        self.states = np.zeros((size, 5), dtype=np.int64)
        self._returns = np.zeros((size, 2), dtype=np.float32)
        self._terminated = np.zeros(size, dtype=np.bool_)

    def reset(self, rows: NDArray[np.bool_]) -> None:
        """Empty the boards of the rows where ``rows`` is true."""
        jit.batch_reset(self.states, np.asarray(rows, dtype=np.bool_))

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Mark each going row's square; the returns of the rows that ended, and which ended."""
        kernel = self.tictactoe_kernel
        jit.batch_step(
            self.states,
            np.asarray(actions, dtype=np.int64),
            kernel.lines,
            kernel.full,
            self._returns,
            self._terminated,
        )
        return self._returns.copy(), self._terminated.copy(), np.zeros(self.size, dtype=np.bool_)

    def observe(self) -> NDArray[np.float32]:
        """Each row's planes from its seat to move's view."""
        squares = self.tictactoe_kernel.squares
        out = np.empty((self.size, 3 * squares), dtype=np.float32)
        jit.batch_observe(self.states, squares, out)
        return out.reshape((self.size, *self.kernel.game.observation_shape))

    def legal_mask(self) -> NDArray[np.bool_]:
        """Each row's empty squares."""
        squares = self.tictactoe_kernel.squares
        out = np.empty((self.size, squares), dtype=np.bool_)
        jit.batch_mask(self.states, squares, out)
        return out

    def to_move(self) -> NDArray[np.int64]:
        """Each row's seat to move, -1 once over."""
        return np.where(self.states[:, 3] != 0, -1, self.states[:, 2])

    def state(self, row: int) -> TicTacToeState:
        """The reference state of one row."""
        return self.kernel.decode(self.states[row])


def make_kernel(game: Game[Any]) -> TicTacToeKernel:
    """The tic-tac-toe kernel for ``game``'s settings (every setting is covered)."""
    return TicTacToeKernel(game)
