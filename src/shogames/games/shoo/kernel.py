"""The Shoo kernel: the rules of :mod:`shogames.games.shoo` compiled with numba.

A second implementation of the reference's rules (``docs/games/shoo.md``), checked against it move for
move (``tests/test_kernel_shoo.py``). A state is one int64 array: the board as bitboards (each side's
travellers, the mounted travellers and the free horses, two words each), then the counters, the hush
context, the position's Zobrist hash and the moves hushed this turn, followed by the history of standing
positions since the stables or pastures last changed, which the third-repetition draw needs; a move is
one int64 code. Layouts are in :mod:`shogames.games.shoo._jit` (and ``docs/kernels.md``); the names a
caller or test needs are public here (:data:`STATE_SIZE`, :data:`KEY_WORDS`, the field indices, the
settings' indices in :attr:`ShooKernel.cfg`).

Settings covered: every value of every setting (``ruleset``, ``horses``, ``stable_drop``, ``hush``,
``capture_in_home``, ``mount_escape``, ``leave_home``, ``first_player``, ``max_turns``), so every preset.
The toss is a chance node (each seat 1/2) and the toss winner's choice a decision, as in the reference.

:meth:`ShooKernel.batch` holds many games in these arrays for the batched environment (:class:`ShooBatch`,
compiled in :mod:`shogames.games.shoo._batch_jit`): action ids, masks and observations as the reference's.
"""

from __future__ import annotations

import time
from typing import Any, Final

import numba
import numpy as np
from numpy.typing import NDArray

from shogames.core.errors import IllegalMoveError
from shogames.core.kernel import (
    PLAIN_SEARCH,
    BatchGames,
    Kernel,
    PlayoutBatch,
    SearchOptions,
    compiled_threads,
)
from shogames.core.perft import check_perft_depth
from shogames.core.protocol import Game, State
from shogames.games.shoo import (
    EVALUATION_WEIGHTS,
    HOME_MASKS,
    OBSERVATION_PLANES,
    HushContext,
    ShooGame,
    ShooMove,
    ShooMoveKind,
    ShooPosition,
    ShooRepetitionKey,
    ShooState,
)
from shogames.games.shoo import _batch_jit as batch_jit
from shogames.games.shoo import _jit as jit
from shogames.kernels import common
from shogames.kernels.search import Budget, CompiledMCTS, Limits, Outputs, Scores, TableAlphaBeta

STATE_SIZE: Final = jit.SIZE
"""The length of a state array before its history rows."""
KEY_WORDS: Final = jit.KEY_WORDS
"""The words of a history row (a standing position's repetition key)."""
LEARNED_CAP: Final = jit.LEARNED_CAP
"""The search's learned values are this times the network's (:meth:`ShooKernel.learned_value`)."""
HIST_WORDS: Final = jit.HIST_WORDS
"""The words of a history column in the compiled loops (a row, then its hash)."""
TRAV: Final = jit.TRAV
"""State array: South's travellers at ``TRAV``, ``TRAV + 1`` (squares 0-62, 63-80), North's at ``+ 2``."""
MOUNTED: Final = jit.MOUNTED
"""State array: the mounted travellers (two words)."""
HORSES: Final = jit.HORSES
"""State array: the free horses (two words)."""
END: Final = jit.END
"""State array: how the game ended (:data:`END_REPETITION` ...; 0 going on)."""
END_REPETITION: Final = jit.END_REPETITION
"""The :data:`END` of a game drawn by the third repetition."""
NHIST: Final = jit.NHIST
"""State array: the history's rows (columns in the compiled loops)."""
HBASE: Final = jit.HBASE
"""State array: the first history row of the current epoch."""
HASH: Final = jit.HASH
"""State array: the Zobrist hash of the position's repetition key."""
NBARRED: Final = jit.NBARRED
"""State array: how many moves were hushed this turn."""
BARRED: Final = jit.BARRED
"""State array: the codes of the moves hushed this turn, from here."""
C_HUSH: Final = jit.C_HUSH
"""Settings array (:attr:`ShooKernel.cfg`): the hush mode (a test sets it to break a rule on purpose)."""
C_SAFETY: Final = jit.C_SAFETY
"""Settings array: whether a traveller in its home area must stay there."""
HUSH_AUTOMATIC: Final = jit.HUSH_AUTOMATIC
"""The :data:`C_HUSH` value of ``hush=automatic``."""
DEFAULT_ALPHABETA_NODES = 1_000_000
"""The alpha-beta budget when a search is given neither nodes nor seconds."""

_HUSH_MODES = {"optional": 0, "automatic": 1, "lose-move": 2, "shoo-off": 3, "off": 4}
_CAPTURE_IN_HOME = {"place-inside": 0, "anywhere": 1, "immune": 2}
_ENDS: tuple[str | None, ...] = (None, "win", "passes", "cap", "repetition")
_PHASES = ("play", "toss", "choice")
_LOW = (1 << 63) - 1
_NO_RETURNS = np.zeros((0, 2), dtype=np.float64)  # the arguments of the batch a call does not run
_NO_PLIES = np.zeros(0, dtype=np.int64)
_NO_RECORD = np.zeros((0, 0), dtype=np.int64)


def restore_history(
    positions: NDArray[np.int64], path: NDArray[np.int64], depth: int, hist: NDArray[np.int64]
) -> None:
    """The MCTS's history restore (:func:`shogames.games.shoo._jit.restore_history`), for tests.

    ``positions`` rows are a state array then a history column; ``hist`` has a column per position.
    """
    jit.restore_history(positions, path, depth, hist)


def history_column(state_array: NDArray[np.int64]) -> NDArray[np.int64]:
    """The history column (:data:`HIST_WORDS` words: its row, then its hash) of a state array's position."""
    column = np.zeros((HIST_WORDS, 1), dtype=np.int64)
    jit.key_column(np.asarray(state_array[: jit.SIZE], dtype=np.int64), column, 0)
    return column[:, 0].copy()


def push_history(state_array: NDArray[np.int64], hist: NDArray[np.int64], check: bool) -> None:
    """Push the state's position on the history columns ``hist`` as a move does (for tests).

    With ``check``, a third occurrence in the epoch ends the game by repetition (``END``).
    """
    jit.record(state_array, hist, check)


def config(game: ShooGame) -> NDArray[np.int64]:
    """The settings as the compiled functions take them (``cfg``)."""
    cfg = np.zeros(jit.CFG_SIZE, dtype=np.int64)
    cfg[jit.C_TOWERS] = game.towers
    cfg[jit.C_HUSH] = _HUSH_MODES[game.hush_mode]
    cfg[jit.C_DROP_ANYWHERE] = game.drop_anywhere
    cfg[jit.C_CAPTURE_HOME] = _CAPTURE_IN_HOME[game.capture_in_home]
    cfg[jit.C_MOUNT_ESCAPE] = game.mount_escape
    cfg[jit.C_SAFETY] = game.safety
    cfg[jit.C_MAX_TURNS] = game.max_turns
    return cfg


def _words(bits: int) -> tuple[int, int]:
    """A bitboard's two words: squares 0-62, then 63-80."""
    return bits & _LOW, bits >> 63


def _row_of_key(key: ShooRepetitionKey) -> list[int]:
    """A history row (``_jit``'s layout) of the reference's repetition key."""
    words: list[int] = []
    for bits in (key.travellers[0], key.travellers[1], key.mounted, key.horses):
        words += _words(bits)
    words.append(
        (key.held + 1)
        | (key.shoo + 1) << 8
        | key.side << 16
        | key.stable_travellers[0] << 20
        | key.stable_travellers[1] << 24
    )
    horses, pasture = key.stable_horses, key.pasture
    words.append(horses[0] | horses[1] << 4 | pasture[0] << 8 | pasture[1] << 12)
    return words


def _key_of_row(row: NDArray[np.int64]) -> ShooRepetitionKey:
    """The reference's repetition key of a history row (or column)."""
    w = [int(v) for v in row[:KEY_WORDS]]
    packed, epoch = w[8], w[9]
    return ShooRepetitionKey(
        travellers=(w[0] | w[1] << 63, w[2] | w[3] << 63),
        mounted=w[4] | w[5] << 63,
        horses=w[6] | w[7] << 63,
        held=(packed & 255) - 1,
        stable_horses=(epoch & 15, (epoch >> 4) & 15),
        stable_travellers=((packed >> 20) & 15, (packed >> 24) & 15),
        pasture=((epoch >> 8) & 15, (epoch >> 12) & 15),
        shoo=((packed >> 8) & 255) - 1,
        side=(packed >> 16) & 15,
    )


class ShooKernel(Kernel[ShooState, ShooMove]):
    """The compiled Shoo rules for one game's settings (random playouts, perft, the rules, searches).

    Args:
        game: a :class:`~shogames.games.shoo.ShooGame`.

    Attributes:
        cfg: the settings as the compiled functions read them (indices :data:`C_HUSH` ...).
        weights: the evaluation's weights (:data:`shogames.games.shoo.EVALUATION_WEIGHTS`, in order).
    """

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        if not isinstance(game, ShooGame):
            raise ValueError("the Shoo kernel needs a Shoo game")
        self.shoo = game
        self.cfg = config(game)
        self.weights = np.array(EVALUATION_WEIGHTS, dtype=np.float64)
        self._moves = np.empty(jit.MAX_MOVES, dtype=np.int64)
        self._units = np.empty((jit.MAX_UNITS, jit.UNIT_WORDS), dtype=np.int64)
        self._last: tuple[ShooState, NDArray[np.int64], NDArray[np.int64]] | None = None

    # --- Conversions ---------------------------------------------------------------------------------

    def _check(self, state: State[Any]) -> ShooState:
        if not isinstance(state, ShooState):
            raise TypeError(f"the Shoo kernel takes Shoo states, got {type(state).__name__}")
        return state

    def _encoded(self, state: State[Any]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The state's array and its history columns (with hashes), kept for the last state asked.

        The checks ask about one state many times.
        """
        s = self._check(state)
        if self._last is not None and self._last[0] is s:
            return self._last[1], self._last[2]
        position = s.position
        st = np.zeros(jit.SIZE, dtype=np.int64)
        for index, bits in enumerate(
            (position.travellers[0], position.travellers[1], position.mounted, position.horses)
        ):
            st[2 * index], st[2 * index + 1] = _words(bits)
        st[jit.SIDE] = position.side
        st[jit.PHASE] = _PHASES.index(position.phase)
        st[jit.CHOOSER] = position.chooser
        st[jit.SOUTH] = position.south
        st[jit.HELD] = position.held
        st[jit.SHOO] = position.shoo
        st[jit.SH0], st[jit.SH1] = position.stable_horses
        st[jit.ST0], st[jit.ST1] = position.stable_travellers
        st[jit.PA0], st[jit.PA1] = position.pasture
        st[jit.MOVES] = position.turns
        st[jit.PLY] = position.ply
        st[jit.PASSES] = position.passes
        st[jit.END] = _ENDS.index(position.end)
        st[jit.WINNER] = -1 if position.winner is None else position.winner
        barred = position.barred
        st[jit.HELD_BEFORE] = -1
        if position.hush is not None:
            st[jit.HUSH] = self.encode_move(position.hush.move)
            st[jit.HELD_BEFORE] = position.hush.held_before
            st[jit.PASSES_BEFORE] = position.hush.passes_before
            barred = position.hush.barred
        codes = sorted(self.encode_move(move) for move in barred)
        st[jit.NBARRED] = len(codes)
        st[jit.BARRED : jit.BARRED + len(codes)] = codes
        rows = np.array(
            [_row_of_key(key) for key in (*s.history, position.repetition_key())], dtype=np.int64
        ).reshape(-1, KEY_WORDS)
        st[jit.NHIST] = rows.shape[0]
        st[jit.HBASE] = 0
        jit.rehash(st)
        hist = np.empty((HIST_WORDS, rows.shape[0]), dtype=np.int64)
        jit.load_history(rows, hist)
        array = np.concatenate([st, rows.reshape(-1)])
        self._last = (s, array, hist)
        return array, hist

    def encode(self, state: State[Any]) -> NDArray[np.int64]:
        """The state array, then the current epoch's history rows (layout in :mod:`._jit`)."""
        return self._encoded(state)[0].copy()

    def decode(self, array: NDArray[Any]) -> ShooState:
        """The reference state of a state array (its history rebuilt from the rows)."""
        st = np.asarray(array, dtype=np.int64)
        rows = st[jit.SIZE :].reshape(-1, KEY_WORDS)[: int(st[jit.NHIST])]
        return self._decode(st[: jit.SIZE], [_key_of_row(row) for row in rows[int(st[jit.HBASE]) :]])

    def _decode(self, st: NDArray[np.int64], keys: list[ShooRepetitionKey]) -> ShooState:
        """The reference state of ``st`` whose history rows (of the current epoch) have the ``keys``.

        The last key is the position's own; the kernel's judgement of the end is kept.
        """
        v = [int(x) for x in st]
        bits = [v[2 * index] | v[2 * index + 1] << 63 for index in range(4)]
        barred = frozenset(self.decode_move(code) for code in v[jit.BARRED : jit.BARRED + v[jit.NBARRED]])
        hush = None
        if v[jit.HUSH]:
            hushed = self.decode_move(v[jit.HUSH])
            hush = HushContext(hushed, v[jit.HELD_BEFORE], v[jit.PASSES_BEFORE], barred)
            barred = frozenset()
        position = ShooPosition(
            travellers=(bits[0], bits[1]),
            mounted=bits[2],
            horses=bits[3],
            held=v[jit.HELD],
            stable_horses=(v[jit.SH0], v[jit.SH1]),
            stable_travellers=(v[jit.ST0], v[jit.ST1]),
            pasture=(v[jit.PA0], v[jit.PA1]),
            side=v[jit.SIDE],
            phase=_PHASES[v[jit.PHASE]],
            chooser=v[jit.CHOOSER],
            south=v[jit.SOUTH],
            shoo=v[jit.SHOO],
            hush=hush,
            barred=barred,
            turns=v[jit.MOVES],
            ply=v[jit.PLY],
            passes=v[jit.PASSES],
            end=_ENDS[v[jit.END]],
            winner=None if v[jit.WINNER] < 0 else v[jit.WINNER],
        )
        return self.shoo.state_from_position(position, keys[:-1])

    def encode_move(self, move: ShooMove) -> int:
        """The move's code (layout in :mod:`shogames.games.shoo._jit`)."""
        return (
            int(move.kind)
            | (move.origin + 1) << 4
            | (move.via + 1) << 11
            | (move.place + 1) << 18
            | (move.to + 1) << 25
            | (move.shoo + 1) << 32
        )

    def decode_move(self, code: int) -> ShooMove:
        """The :class:`~shogames.games.shoo.ShooMove` of a move code."""
        return ShooMove(
            ShooMoveKind(code & 15),
            ((code >> 4) & 127) - 1,
            ((code >> 11) & 127) - 1,
            ((code >> 18) & 127) - 1,
            ((code >> 25) & 127) - 1,
            ((code >> 32) & 127) - 1,
        )

    # --- The rules, one position at a time -----------------------------------------------------------

    def _state_and_history(self, state: State[Any], room: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """A copy of the state's array (no rows) and of its history columns, with room for more."""
        array, columns = self._encoded(state)
        hist = np.empty((HIST_WORDS, columns.shape[1] + room), dtype=np.int64)
        hist[:, : columns.shape[1]] = columns
        return array[: jit.SIZE].copy(), hist

    def _state(self, state: State[Any]) -> NDArray[np.int64]:
        return self._encoded(state)[0][: jit.SIZE]

    def legal_moves(self, state: State[Any]) -> list[ShooMove]:
        """The legal moves (the toss's outcomes at the toss) in the reference's order."""
        count = jit.generate(self._state(state), self.cfg, self._moves, self._units, jit.GEN, 0)
        return [self.decode_move(int(code)) for code in self._moves[:count]]

    def count_legal_moves(self, state: State[Any]) -> int:
        """How many legal moves there are, counted without writing a move (as perft's last level)."""
        return int(jit.generate(self._state(state), self.cfg, self._moves, self._units, jit.COUNT, 0))

    def legal_move_at(self, state: State[Any], index: int) -> ShooMove:
        """Legal move number ``index``, found as the random playouts find the move they draw.

        Only the moves of one unit (one traveller's steps, one horse's slides ...) are written.

        Raises:
            IndexError: there are not that many legal moves.
        """
        count = self.count_legal_moves(state)
        if not 0 <= index < count:
            raise IndexError(f"legal move {index} of {count}")
        high = -((-index << 32) // count)  # the least 32 random bits that draw this index
        code = jit.generate(
            self._state(state), self.cfg, self._moves, self._units, jit.PICK, np.uint64(high << 32)
        )
        return self.decode_move(int(code))

    def play_array(self, array: NDArray[Any], move: ShooMove) -> NDArray[np.int64]:
        """The state array (with its history rows) after a legal ``move``, played by the compiled code.

        The rows are those of the current epoch, as :meth:`encode` gives them. Its hash (:data:`HASH`)
        is the one the move kept up to date, not computed afresh as :meth:`encode` does: the two are
        the same.
        """
        st = np.array(array[: jit.SIZE], dtype=np.int64)
        rows = np.asarray(array[jit.SIZE :], dtype=np.int64).reshape(-1, KEY_WORDS)[: int(st[jit.NHIST])]
        hist = np.empty((HIST_WORDS, rows.shape[0] + 2), dtype=np.int64)
        jit.load_history(rows, hist)
        jit.play(st, self.encode_move(move), self.cfg, hist)
        first, used = int(st[jit.HBASE]), int(st[jit.NHIST])  # the rows of the epoch, as encode gives
        st[jit.NHIST], st[jit.HBASE] = used - first, 0
        return np.concatenate([st, hist[:KEY_WORDS, first:used].T.reshape(-1)])

    def play(self, state: State[Any], move: ShooMove) -> ShooState:
        """The state after a legal ``move``; its history is the given state's, changed as the kernel did."""
        s = self._check(state)
        st, hist = self._state_and_history(s, 2)
        before = int(st[jit.NHIST])
        jit.play(st, self.encode_move(move), self.cfg, hist)
        after = int(st[jit.NHIST])
        # The rows the move left alone are the given state's history and own key: a move pushes a row,
        # an optional HUSH pops one, a HUSH that ends the hushed side's turn pops one and pushes one.
        kept = before if after > before else (after if after < before else before - 1)
        keys = [*s.history, s.position.repetition_key()][:kept]
        keys += [_key_of_row(hist[:, column]) for column in range(kept, after)]
        return self._decode(st, keys[int(st[jit.HBASE]) :])

    def outcome(self, state: State[Any]) -> tuple[float, ...] | None:
        """``None`` while the game goes on, else both returns."""
        st = self._state(state)
        if st[jit.END] == jit.END_NONE:
            return None
        seat = int(jit.winner_seat(st))
        if seat < 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if seat == 0 else (-1.0, 1.0)

    def evaluate(self, state: State[Any]) -> tuple[float, ...]:
        """The reference's evaluation, computed by the kernel."""
        value = float(jit.evaluate(self._state(state), self.weights))
        return (value, -value)

    def alphabeta(
        self, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> ShooAlphaBeta:
        """The compiled alpha-beta searcher (:class:`ShooAlphaBeta`)."""
        self.check_search_options(options)
        return ShooAlphaBeta(self, seed=seed, depth=depth)

    def learned_alphabeta(
        self, network: Any, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> ShooAlphaBeta:
        """The compiled alpha-beta with ``network`` (a ``ValueNet``) at the horizon, not the race count."""
        network.check_game(self.game)
        self.check_search_options(options)
        return ShooAlphaBeta(self, seed=seed, depth=depth, network=network)

    def learned_value(self, network: Any, state: State[Any], seat: int) -> float:
        """The compiled learned evaluation of ``state`` (not over) for ``seat``, as the search's horizon.

        :data:`LEARNED_CAP` times ``network.value_of([state], seat)``, in float64.

        Raises:
            ValueError: the game is over at ``state``, or ``seat`` is not 0 or 1.
        """
        network.check_game(self.game)
        if state.is_terminal():
            raise ValueError("the learned evaluation values positions going on; this game is over")
        if seat not in (0, 1):
            raise ValueError(f"seat is 0 or 1, got {seat}")
        start, columns = self._encoded(state)
        hist = jit.new_history(columns, 1)
        return float(
            jit.learned_value(
                start[: jit.SIZE].copy(), hist, self.cfg, self.weights, compiled_network(network), seat
            )
        )

    def mcts(self, *, seed: int | None = None, c: float = 1.0) -> ShooMCTS:
        """The compiled MCTS searcher (:class:`ShooMCTS`)."""
        return ShooMCTS(self, seed=seed, c=c)

    # --- Whole loops ---------------------------------------------------------------------------------

    def perft(self, state: State[Any], depth: int, *, bulk: bool = True, threads: int | None = None) -> int:
        """Leaves at exactly ``depth`` plies, the toss and choice included; see :meth:`Kernel.perft`.

        The work is spread over ``threads`` threads (``None``: every core) by pairs of moves (each root
        move with each reply); the count never depends on the threads.
        """
        check_perft_depth(depth)
        st = self._state(state)
        columns = self._encoded(state)[1]
        if depth == 0:
            return 1
        if st[jit.END] != jit.END_NONE:
            return 0
        count = int(jit.generate(st, self.cfg, self._moves, self._units, jit.GEN, 0))
        if depth == 1:
            return count
        pairs = []  # each root move with each move after it: the batch's tasks
        for first in self._moves[:count].copy():
            child = st.copy()
            hist = np.empty((HIST_WORDS, columns.shape[1] + 2), dtype=np.int64)
            hist[:, : columns.shape[1]] = columns
            jit.play(child, first, self.cfg, hist)
            if child[jit.END] == jit.END_NONE:
                replies = int(jit.generate(child, self.cfg, self._moves, self._units, jit.GEN, 0))
                pairs += [(int(first), int(second)) for second in self._moves[:replies]]
        if not pairs:
            return 0
        roots = np.array(pairs, dtype=np.int64).reshape(-1)  # first, second, first, second ...
        leaves = np.zeros(min(len(pairs), 64), dtype=np.int64)  # per block
        with compiled_threads(threads), numba.parallel_chunksize(1):  # a block at a time: they differ
            jit.run_batch(
                jit.PERFT, st, columns, len(pairs), np.uint64(0), self.cfg, _NO_RETURNS, _NO_PLIES,
                _NO_RECORD, 0, roots, depth - 2, bulk, leaves,
            )  # fmt: skip
        return int(leaves.sum())

    def _playouts(
        self,
        games: int,
        seed: int,
        start: State[Any] | None,
        record: NDArray[np.int64],
        record_from: int = 0,
        threads: int | None = None,
    ) -> PlayoutBatch:
        if games < 1:
            raise ValueError(f"random_playouts needs 1 game or more, got {games}")
        first = start if start is not None else self.shoo.new_initial_state()
        st = self._state(first)
        columns = self._encoded(first)[1]
        returns = np.zeros((games, 2), dtype=np.float64)
        plies = np.zeros(games, dtype=np.int64)
        with compiled_threads(threads), numba.parallel_chunksize(1):  # a block of games at a time
            started = time.perf_counter()
            jit.run_batch(
                jit.PLAYOUTS, st, columns, games, np.uint64(seed & 0xFFFFFFFFFFFFFFFF), self.cfg, returns,
                plies, record, record_from, _NO_PLIES, 0, False, _NO_PLIES,
            )  # fmt: skip
            seconds = time.perf_counter() - started
        return PlayoutBatch(returns, plies, seconds)

    def random_playouts(
        self, games: int, *, seed: int = 0, start: State[Any] | None = None, threads: int | None = None
    ) -> PlayoutBatch:
        """Play ``games`` random games in compiled code (the toss: 1/2 each); see the interface.

        The games are spread over ``threads`` threads (``None``: every core); game ``i`` depends only on
        ``seed`` and ``i``, never on the threads.
        """
        return self._playouts(games, seed, start, np.zeros((0, 0), dtype=np.int64), threads=threads)

    def batch(self, size: int, *, seed: int = 0) -> ShooBatch:
        """``size`` games stepped together in compiled code (:class:`ShooBatch`)."""
        return ShooBatch(self, size, seed)

    def random_game(
        self, *, seed: int = 0, start: State[Any] | None = None, index: int = 0
    ) -> list[ShooMove]:
        """The moves (the toss included) of game ``index`` of :meth:`random_playouts`, recording only it."""
        first = start if start is not None else self.shoo.new_initial_state()
        record = np.zeros((1, self.shoo.max_game_length + 1), dtype=np.int64)
        batch = self._playouts(index + 1, seed, first, record, index)
        return [self.decode_move(int(code)) for code in record[0, : int(batch.plies[index])]]


ROWS_PER_THREAD: Final = 128
"""A batch call spreads its rows over numba's threads with at least this many rows a thread."""


class ShooBatch(BatchGames[ShooState]):
    """Shoo games in the rows of the kernel's arrays, stepped by compiled code (:class:`BatchGames`).

    Row ``i`` tosses its coin from its own stream (:func:`~shogames.kernels.common.game_stream` of the
    seed and ``i``, as the random playouts), kept across the row's games. :meth:`step` finds each row's
    move by generating its legal moves and taking the one with the action id (``ShooState.move_to_action``
    compiled, :mod:`shogames.games.shoo._batch_jit`), plays it and tosses the coin if a new game needs it;
    :meth:`observe` and :meth:`legal_mask` are written by compiled code and equal the reference's
    ``observation_tensor`` (of the seat to move) and ``legal_action_mask``. Each row keeps the history of
    its current epoch only (the standing positions since its stables or pastures last changed), in a
    table that grows when a row needs more room.

    Args:
        kernel: the Shoo kernel.
        size: how many games, 1 or more.
        seed: the seed of every row's toss.
    """

    def __init__(self, kernel: ShooKernel, size: int, seed: int) -> None:
        super().__init__(kernel, size, seed)
        self.shoo = kernel.shoo
        self.cfg = kernel.cfg
        array, columns = kernel._encoded(self.shoo.new_initial_state())
        self._start = array[: jit.SIZE].copy()
        self._start_hist = np.ascontiguousarray(columns)
        self.states = np.zeros((size, jit.SIZE), dtype=np.int64)
        self.hists = np.zeros((size, HIST_WORDS, 32), dtype=np.int64)
        stream = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        self.streams = np.array([common.game_stream(stream, row) for row in range(size)], dtype=np.uint64)
        blocks = max(1, min(int(numba.config.NUMBA_NUM_THREADS), size))  # type: ignore[attr-defined]
        self._moves = np.zeros((blocks, jit.MAX_MOVES), dtype=np.int64)
        self._units = np.zeros((blocks, jit.MAX_UNITS, jit.UNIT_WORDS), dtype=np.int64)
        self._boards = np.zeros((blocks, 81), dtype=np.int64)
        self._found = np.zeros(size, dtype=np.int64)
        self._ends = np.zeros(size, dtype=np.int64)
        self._returns = np.zeros((size, 2), dtype=np.float64)
        self.reset(np.ones(size, dtype=np.bool_))

    def _threads(self) -> int:
        """The threads a call uses: numba's, but one per :data:`ROWS_PER_THREAD` rows at most.

        A parallel loop waits for its slowest thread; on a busy machine a thread that is not scheduled
        costs a time slice, far more than a few rows' work, so small batches run on one thread.
        """
        return max(1, min(int(numba.get_num_threads()), len(self._moves), self.size // ROWS_PER_THREAD))

    def _scratch(self, threads: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """Scratch for ``threads`` blocks."""
        return self._moves[:threads], self._units[:threads], self._boards[:threads]

    def _rows(self, values: NDArray[Any], dtype: type, what: str) -> NDArray[Any]:
        array: NDArray[Any] = np.ascontiguousarray(values, dtype=dtype)
        if array.shape != (self.size,):
            raise ValueError(f"{what} has one entry per row: shape ({self.size},), got {array.shape}")
        return array

    def _room(self, columns: int) -> None:
        """Make the history tables at least ``columns`` columns wide (doubling)."""
        width = self.hists.shape[2]
        if columns <= width:
            return
        while width < columns:
            width *= 2
        wider = np.zeros((self.size, HIST_WORDS, width), dtype=np.int64)
        wider[:, :, : self.hists.shape[2]] = self.hists
        self.hists = wider

    def reset(self, rows: NDArray[np.bool_]) -> None:
        """Start a new game in the rows where ``rows`` is true; the toss is played from the row's stream."""
        chosen = self._rows(rows, np.bool_, "rows")
        self._room(self._start_hist.shape[1] + 4)
        with compiled_threads(self._threads()):
            batch_jit.batch_reset(
                self.states, self.hists, chosen, self._start, self._start_hist, self.streams, self.cfg
            )

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Play each row's action id, then the toss if a game needs one; see :meth:`BatchGames.step`.

        Raises:
            IllegalMoveError: a row's action is not legal there (no row is played then).
        """
        chosen = self._rows(actions, np.int64, "actions")
        threads = self._threads()
        with compiled_threads(threads):
            batch_jit.batch_decode(self.states, chosen, self.cfg, *self._scratch(threads), self._found)
        bad = np.flatnonzero(self._found == -1)
        if bad.size:
            row = int(bad[0])
            raise IllegalMoveError(
                f"row {row}: action {int(chosen[row])} is not legal there; its legal actions are "
                f"{np.flatnonzero(self.legal_mask()[row]).tolist()[:20]}"
            )
        self._room(int(self.states[:, jit.NHIST].max()) + 4)
        with compiled_threads(threads):
            batch_jit.batch_play(
                self.states, self.hists, self._found, self.streams, self.cfg, self._returns, self._ends
            )
        return self._returns.astype(np.float32), self._ends == 1, self._ends == 2

    def observe(self) -> NDArray[np.float32]:
        """Each row's observation from its seat to move (seat 0 once over), ``(size, 26, 9, 9)``."""
        out = np.empty((self.size, batch_jit.PLANES * 81), dtype=np.float32)
        with compiled_threads(self._threads()):
            batch_jit.batch_observe(self.states, self.hists, self.cfg, out)
        return out.reshape(self.size, *self.shoo.observation_shape)

    def legal_mask(self) -> NDArray[np.bool_]:
        """Each row's legal action ids, ``(size, num_distinct_actions)``; all false once over."""
        mask = np.empty((self.size, self.shoo.num_distinct_actions), dtype=np.bool_)
        threads = self._threads()
        with compiled_threads(threads):
            batch_jit.batch_legal_mask(self.states, self.cfg, *self._scratch(threads), mask)
        return mask

    def to_move(self) -> NDArray[np.int64]:
        """Each row's seat to move, or -1 once its game is over."""
        st = self.states
        seats = np.where(st[:, jit.SIDE] == 0, st[:, jit.SOUTH], 1 - st[:, jit.SOUTH])
        seats = np.where(st[:, jit.PHASE] == jit.CHOICE_PHASE, st[:, jit.CHOOSER], seats)
        result: NDArray[np.int64] = np.where(st[:, jit.END] != jit.END_NONE, -1, seats).astype(np.int64)
        return result

    def state(self, row: int) -> ShooState:
        """The reference state of one row (its history: the row's current epoch)."""
        if not 0 <= row < self.size:
            raise IndexError(f"row {row} is not in a batch of {self.size}")
        st = self.states[row]
        used = int(st[jit.NHIST])
        keys = [_key_of_row(self.hists[row, :, column]) for column in range(int(st[jit.HBASE]), used)]
        assert isinstance(self.kernel, ShooKernel)
        return self.kernel._decode(st, keys)


class ShooAlphaBeta(TableAlphaBeta[ShooKernel, ShooMove]):
    """Compiled negamax alpha-beta with iterative deepening, a transposition table and move ordering.

    The same search as :class:`~shogames.agents.alphabeta.AlphaBetaAgent` (values for the searching
    seat, a win discounted by the plies it takes, the evaluation at the horizon, the sign flipped only
    where the seat to move changes, root handling), compiled. The table is always-replace, keyed by the
    whole position (the moves barred this turn by a 64-bit hash of the set); entries of an earlier
    search only order moves. Moves are ordered by the table's move, then the history heuristic (lazily
    sorted). The history of positions travels down the search, so the third-repetition draw is seen.
    The table and the history are kept between searches (cleared by :meth:`reset`).

    Args:
        kernel: the Shoo kernel.
        seed: orders the root moves before the first iteration (ties); ``None`` keeps the legal order.
        depth: the deepest iteration (at most 62).
        table_bits: the table has ``2 ** table_bits`` entries (about 120 bytes each).
        network: a learned evaluation (a ``ValueNet`` over Shoo's observation) to value the horizon with,
            for the side to move there (:func:`shogames.games.shoo._jit.learned_value`), instead of the
            race count; ``None`` for the race count.
    """

    chance_hint = "play the toss first"

    def __init__(
        self,
        kernel: ShooKernel,
        *,
        seed: int | None = None,
        depth: int = 64,
        table_bits: int = 18,
        network: Any = None,
    ) -> None:
        super().__init__(
            kernel, seed=seed, depth=depth, table_bits=table_bits, key_words=jit.TT_WORDS, key_dtype=np.int64,
            history_size=1 << 16, with_move=True,
        )  # fmt: skip
        self.depth = min(depth, jit.MAX_PLY - 2)
        self.net = compiled_network(network)
        """The network as the compiled search reads it (empty arrays: the race count)."""

    def run(
        self, state: State[Any], codes: NDArray[np.int64], depth: int, budget: Limits, out: Scores
    ) -> tuple[int, float]:
        """The compiled search (:func:`shogames.games.shoo._jit.alphabeta`)."""
        kernel = self.kernel
        start, columns = kernel._encoded(state)
        keys, info, values, history, generation = self.tables()
        index, value = jit.alphabeta(
            start[: jit.SIZE].copy(), columns, codes, min(depth, jit.MAX_PLY - 2), *budget, kernel.cfg,
            kernel.weights, keys, info, self._tt_move, values, history, generation, *out, self.net,
        )  # fmt: skip
        return int(index), float(value)


HOME_SQUARES: Final = tuple(
    tuple(square for square in range(jit.NONE) if mask >> square & 1) for mask in HOME_MASKS
)
"""Each side's home area (South's, then North's) as squares, for :func:`compiled_network`."""


def compiled_network(network: Any) -> tuple[NDArray[np.float64], ...]:
    """``network``'s arrays laid out for the compiled search (:func:`shogames.games.shoo._jit.learned_value`).

    The first layer by plane, cell and hidden unit (the observation's order), each plane's rows summed
    (for the planes that hold one number everywhere), for the observer playing South and North ``b1``
    with the rows of the planes that fixes (the home areas seen from that side, "observer plays
    South"), ``u1``, ``w2``, then ``b2``, ``c`` and 1 where the hand-written evaluation is an input, and
    room for the hidden layer; all float64, the search's sums. ``None`` gives arrays of length 0 (the
    race count).
    """
    planes, cells = len(OBSERVATION_PLANES), jit.NONE
    if network is None:
        empty = np.zeros(0)
        return (
            np.zeros((planes, cells, 0)), np.zeros((planes, 0)), np.zeros((2, 0)), empty, empty, np.zeros(3),
            empty,
        )  # fmt: skip
    a = {name: array.astype(np.float64) for name, array in network.arrays.items()}
    hidden = a["w1"].shape[1]
    rows = np.ascontiguousarray(a["w1"].reshape(planes, cells, hidden))
    home_plane = {name: OBSERVATION_PLANES.index(name) for name in ("own home area", "opponent home area")}
    south_plane = OBSERVATION_PLANES.index("observer plays South")
    base = np.zeros((2, hidden))
    for own in (0, 1):  # 0: the observer plays South (side 0), whose view is not turned
        base[own] = a["b1"] + (rows[south_plane].sum(axis=0) if own == 0 else 0.0)
        for plane, side in ((home_plane["own home area"], own), (home_plane["opponent home area"], 1 - own)):
            for square in HOME_SQUARES[side]:
                base[own] += rows[plane, cells - 1 - square if own == 1 else square]
    head = np.array([a["b2"][0], a["c"][0], 1.0 if network.prior else 0.0])
    return (rows, rows.sum(axis=1), base, a["u1"], a["w2"], head, np.zeros(hidden))


class ShooMCTS(CompiledMCTS[ShooKernel, ShooMove]):
    """Compiled UCT for Shoo (:class:`~shogames.kernels.search.CompiledMCTS`).

    No chance node: the toss, Shoo's only chance, comes before any root a seat searches from; the
    toss winner's choice is an ordinary decision. Each node keeps the history row it ends with, so
    every line is searched with its own history and the third-repetition draw is judged as in the
    game. A move that wins at once is played unsearched.
    """

    chance_hint = "play the toss first"
    width = 64

    def run(self, state: State[Any], codes: NDArray[np.int64], budget: Budget, out: Outputs) -> int:
        """The compiled loop (:func:`shogames.games.shoo._jit.mcts`)."""
        kernel = self.kernel
        start, columns = kernel._encoded(state)
        path_length = min(kernel.shoo.max_game_length + 2, common.PATH_LENGTH)
        rules = (path_length, kernel.cfg, kernel.weights)
        position = np.zeros(jit.SIZE + jit.HIST_WORDS, dtype=np.int64)
        return self.call_loop(
            jit.mcts, (start[: jit.SIZE].copy(), columns, codes), budget, rules, position, out
        )


def make_kernel(game: Game[Any]) -> ShooKernel | None:
    """The Shoo kernel for ``game``'s settings (it covers them all), or ``None`` for another game."""
    if not isinstance(game, ShooGame):
        return None
    return ShooKernel(game)
