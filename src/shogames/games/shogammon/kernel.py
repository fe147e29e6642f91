"""The Shogammon kernel: the rules of :mod:`shogames.games.shogammon` compiled with numba.

A second implementation of the reference's rules (``docs/games/shogammon.md``), checked against it move
for move (``tests/test_kernel_shogammon.py``). The state is one int64 array and a move one int64 code
(layouts in :mod:`shogames.games.shogammon._jit`); the geometry (each kind's steps and rays per square
and colour) is built here from the rules and given to the compiled functions as arguments, which is what
lets a test build a kernel with a broken rule.

Settings covered: all of them. Every die map (the presets and ``custom``), ``strict_dice``,
``opening_roll`` (``black`` and ``backgammon``), ``point_capture`` (``sequential`` and
``simultaneous``), ``drop_stack``, ``max_turns`` and ``repetition`` (``none``, and ``fourfold``: a
draw the fourth time a position stands at the start of a turn, judged on a history of 64-bit hashes of
those positions); all five presets.
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from shogames.core.kernel import (
    PLAIN_SEARCH,
    BatchGames,
    Kernel,
    PlayoutBatch,
    SearchOptions,
    compiled_threads,
    moves_by_code,
    playout_batch,
)
from shogames.core.perft import check_perft_depth
from shogames.core.protocol import Game, State
from shogames.games.shogammon import (
    ACTION_DIRECTIONS,
    BLACK,
    MATERIAL_SCALE,
    OBSERVATION_PLANES,
    PIECE_WORTH,
    WHITE,
    RepetitionKey,
    ShogammonGame,
    ShogammonMove,
    ShogammonMoveKind,
    ShogammonPosition,
    ShogammonState,
)
from shogames.games.shogammon import _jit as jit
from shogames.games.shogammon._jit import (
    C_BACKGAMMON,
    C_DROP_STACK,
    C_FACE,
    C_FOURFOLD,
    C_HISTORY_ROOM,
    C_MAX_TURNS,
    C_SIMULTANEOUS,
    C_STRICT,
    HISTORY,
    LAST_HASH,
    SIZE,
    W_HISTORY,
    WORK_SIZE,
    restore_history,
)
from shogames.kernels.search import Budget, CompiledAlphaBeta, CompiledMCTS, Limits, Outputs, Scores

# Re-exported from the compiled module: the index of each setting in the kernel's ``cfg`` (see
# :func:`config`), for tests that change one to break a rule on purpose; and the state and work arrays'
# layout (``SIZE``, ``HISTORY``, ``LAST_HASH``, ``WORK_SIZE``, ``W_HISTORY``) with ``restore_history``, the
# MCTS's history keeping, for its test.
__all__ = [
    "C_BACKGAMMON",
    "C_DROP_STACK",
    "C_FACE",
    "C_FOURFOLD",
    "C_HISTORY_ROOM",
    "C_MAX_TURNS",
    "C_SIMULTANEOUS",
    "C_STRICT",
    "HISTORY",
    "KNOWN_POSITIONS",
    "LAST_HASH",
    "SERIAL_ROWS",
    "SIZE",
    "SLIDES",
    "STEPS",
    "WORK_SIZE",
    "W_HISTORY",
    "Geometry",
    "ShogammonAlphaBeta",
    "ShogammonBatch",
    "ShogammonKernel",
    "ShogammonMCTS",
    "action_directions",
    "build_geometry",
    "config",
    "covers",
    "history_room",
    "make_kernel",
    "restore_history",
    "standing_of",
]

_GOLD = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0))
_KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_ORTHOGONALS = ((-1, 0), (1, 0), (0, -1), (0, 1))
STEPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((-1, 0),),
    3: ((-2, -1), (-2, 1)),
    4: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)),
    5: _GOLD,
    8: _KING,
    9: _GOLD,
    10: _GOLD,
    11: _GOLD,
    12: _GOLD,
    14: _ORTHOGONALS,
    15: _DIAGONALS,
}
"""Each kind's single steps for Black as (rank, file) offsets, rank -1 towards White (the reference's
order of directions, which is the order of the legal moves)."""
SLIDES: dict[int, tuple[tuple[int, int], ...]] = {
    2: ((-1, 0),),
    6: _DIAGONALS,
    7: _ORTHOGONALS,
    14: _DIAGONALS,
    15: _ORTHOGONALS,
}
"""Each kind's sliding directions for Black."""

Geometry = tuple[NDArray[np.int64], NDArray[np.int64]]
KNOWN_POSITIONS = 100_000
"""repetition=fourfold: the positions whose hashes a kernel remembers before it starts afresh."""


def standing_of(position: ShogammonPosition) -> RepetitionKey:
    """What a fourfold repetition compares of a position (the reference's history entries)."""
    return RepetitionKey(position.lower, position.upper, position.hands, position.side)


def build_geometry(
    steps: dict[int, tuple[tuple[int, int], ...]] | None = None,
    slides: dict[int, tuple[tuple[int, int], ...]] | None = None,
) -> Geometry:
    """The step and ray tables of the compiled functions (White's mirror Black's ranks)."""
    steps = STEPS if steps is None else steps
    slides = SLIDES if slides is None else slides
    step_table = np.zeros((2, 16, 81, 9), dtype=np.int64)
    ray_table = np.zeros((2, 16, 81, 4, 9), dtype=np.int64)
    for colour in (BLACK, WHITE):
        sign = 1 if colour == BLACK else -1
        for kind in range(1, 16):
            for square in range(81):
                row, col = divmod(square, 9)
                count = 0
                for dr, dc in steps.get(kind, ()):
                    r, c = row + sign * dr, col + dc
                    if 0 <= r < 9 and 0 <= c < 9:
                        count += 1
                        step_table[colour, kind, square, count] = r * 9 + c
                step_table[colour, kind, square, 0] = count
                ray = 0
                for dr, dc in slides.get(kind, ()):
                    r, c = row + sign * dr, col + dc
                    length = 0
                    while 0 <= r < 9 and 0 <= c < 9:
                        length += 1
                        ray_table[colour, kind, square, ray, length] = r * 9 + c
                        r, c = r + sign * dr, c + dc
                    if length:
                        ray_table[colour, kind, square, ray, 0] = length
                        ray += 1
    return step_table, ray_table


def action_directions() -> NDArray[np.int64]:
    """Per colour and ``origin * 81 + to``: the index in ``ACTION_DIRECTIONS`` of that move, or -1.

    Directions are the mover's: White's board is turned half round, so its forward is towards rank i.
    """
    table = np.full((2, 81 * 81), -1, dtype=np.int64)
    for colour in (BLACK, WHITE):
        for origin in range(81):
            for to in range(81):
                (row, col), (to_row, to_col) = divmod(origin, 9), divmod(to, 9)
                dr, dc = to_row - row, to_col - col
                if colour == WHITE:
                    dr, dc = -dr, -dc
                if (dr, dc) in ACTION_DIRECTIONS[8:]:
                    table[colour, origin * 81 + to] = ACTION_DIRECTIONS.index((dr, dc))
                elif (dr or dc) and (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                    unit = ((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))
                    table[colour, origin * 81 + to] = ACTION_DIRECTIONS.index(unit)
    return table


def covers(game: ShogammonGame) -> bool:
    """Whether the kernel plays ``game``'s settings: every setting is covered."""
    return isinstance(game, ShogammonGame)


def history_room(game: ShogammonGame) -> int:
    """How many positions the kernel's history holds (``repetition=fourfold``; 0 without it).

    One per turn and one more with a turn cap; a million without one (a random game can run longer
    than that: the kernel then says its history is full).
    """
    if not game.fourfold:
        return 0
    return game.max_turns + 2 if game.max_turns > 0 else 1 << 20


def config(game: ShogammonGame) -> NDArray[np.int64]:
    """The settings as the compiled functions take them (``cfg``)."""
    cfg = np.zeros(jit.CFG_SIZE, dtype=np.int64)
    for kind in range(1, 16):
        cfg[jit.C_FACE + kind] = game.face(kind)
    cfg[jit.C_STRICT] = game.strict
    cfg[jit.C_BACKGAMMON] = game.backgammon_opening
    cfg[jit.C_SIMULTANEOUS] = game.simultaneous
    cfg[jit.C_DROP_STACK] = game.drop_stack
    cfg[jit.C_MAX_TURNS] = game.max_turns
    cfg[jit.C_FOURFOLD] = game.fourfold
    cfg[jit.C_HISTORY_ROOM] = history_room(game)
    return cfg


class ShogammonKernel(Kernel[ShogammonState, ShogammonMove]):
    """The compiled Shogammon rules for one game's settings (random playouts, perft, the rules).

    Args:
        game: a :class:`~shogames.games.shogammon.ShogammonGame` whose settings :func:`covers` accepts.
        geometry: the step and ray tables (:func:`build_geometry`); the rules' by default.
    """

    def __init__(self, game: Game[Any], *, geometry: Geometry | None = None) -> None:
        super().__init__(game)
        if not isinstance(game, ShogammonGame) or not covers(game):
            raise ValueError("the Shogammon kernel needs a Shogammon game with settings it covers")
        self.shogammon = game
        self.cfg = config(game)
        self.steps, self.rays = build_geometry() if geometry is None else geometry
        self.rules = (self.cfg, self.steps, self.rays)
        """What the compiled rules take: the settings and the geometry (one tuple of the same arrays)."""
        self.worth = np.array(PIECE_WORTH, dtype=np.float64)
        self._moves = np.empty(jit.MAX_MOVES, dtype=np.int64)
        self._work = np.zeros(jit.WORK_SIZE + history_room(game), dtype=np.int64)
        # repetition=fourfold: the hash of each position met in a history, and back.
        self._hashes: dict[RepetitionKey, int] = {}
        self._standings: dict[int, RepetitionKey] = {}

    # --- Conversions ---------------------------------------------------------------------------------

    def _check(self, state: State[Any]) -> ShogammonState:
        if not isinstance(state, ShogammonState):
            raise TypeError(f"the Shogammon kernel takes Shogammon states, got {type(state).__name__}")
        return state

    def encode(self, state: State[Any]) -> NDArray[np.int64]:
        """The state array (layout in :mod:`shogames.games.shogammon._jit`), from the state's position value.

        With ``repetition=fourfold`` the state's history (:attr:`ShogammonState.history`, and the position
        itself where it stands at the start of a turn) goes into the kernel's work array, where the next
        compiled call finds it.
        """
        s = self._check(state)
        p = s.position
        st = np.zeros(jit.SIZE, dtype=np.int64)
        st[jit.LOWER : jit.LOWER + 81] = p.lower
        st[jit.UPPER : jit.UPPER + 81] = p.upper
        st[jit.HANDS : jit.HANDS + 16] = p.hands
        st[jit.SIDE] = p.side
        st[jit.NDICE] = len(p.dice)
        for k, die in enumerate(p.dice):
            st[jit.DIE0 + k] = die
        st[jit.TURNS] = p.turns
        st[jit.PLY] = p.ply
        st[jit.WINNER] = -1 if p.winner is None else p.winner
        st[jit.END] = p.end == "repetition"
        if self.shogammon.fourfold:
            if len(self._hashes) > KNOWN_POSITIONS:
                self._hashes.clear()  # what decode needs next is hashed again just below
                self._standings.clear()
            history = list(s.history)
            if not p.dice and p.winner is None and p.end is None:
                history.append(standing_of(p))  # the position stands at the start of a turn
            if len(history) > self.cfg[jit.C_HISTORY_ROOM]:
                raise ValueError(
                    f"the Shogammon kernel holds {self.cfg[jit.C_HISTORY_ROOM]} positions of history"
                )
            hashes = [self._hash(standing) for standing in history]
            self._work[jit.W_HISTORY : jit.W_HISTORY + len(hashes)] = hashes
            st[jit.HISTORY] = len(hashes)
            st[jit.LAST_HASH] = hashes[-1] if hashes else 0
        return st

    def _hash(self, standing: RepetitionKey) -> int:
        """The kernel's hash of a position of a history (``_jit.standing_hash``)."""
        known = self._hashes.get(standing)
        if known is None:
            row = np.zeros(jit.SIZE, dtype=np.int64)
            row[jit.LOWER : jit.LOWER + 81] = standing.lower
            row[jit.UPPER : jit.UPPER + 81] = standing.upper
            row[jit.HANDS : jit.HANDS + 16] = standing.hands
            row[jit.SIDE] = standing.side
            known = self._hashes[standing] = int(jit.standing_hash(row))
            self._standings[known] = standing
        return known

    def decode(self, array: NDArray[Any]) -> ShogammonState:
        """The reference state of a state array, made by :meth:`ShogammonGame.state_from_position`.

        The winner and the end are the kernel's. With ``repetition=fourfold`` the history is read from the
        kernel's work array, so decode an array before the next call of the kernel (as :meth:`play` does).

        Raises:
            ValueError: the history holds a position the kernel has not seen (an array of an earlier call).
        """
        st = [int(v) for v in array]
        n = st[jit.NDICE]
        winner = st[jit.WINNER]
        position = ShogammonPosition(
            lower=tuple(st[jit.LOWER : jit.LOWER + 81]),
            upper=tuple(st[jit.UPPER : jit.UPPER + 81]),
            hands=tuple(st[jit.HANDS : jit.HANDS + 16]),
            side=st[jit.SIDE],
            dice=tuple(st[jit.DIE0 : jit.DIE0 + n]),
            turns=st[jit.TURNS],
            ply=st[jit.PLY],
            winner=None if winner < 0 else winner,
            end="repetition" if st[jit.END] else None,
        )
        history: list[RepetitionKey] = []
        if self.shogammon.fourfold:
            current = standing_of(position)
            self._hash(current)  # the position itself may be the history's newest
            try:
                history = [
                    self._standings[int(h)]
                    for h in self._work[jit.W_HISTORY : jit.W_HISTORY + st[jit.HISTORY]]
                ]
            except KeyError:
                raise ValueError("the array's history of positions is not the kernel's last one") from None
            if not position.dice and history and history[-1] == current:
                history.pop()  # the position stood at the start of its turn: not an earlier one
        return self.shogammon.state_from_position(position, history=history)

    def encode_move(self, move: ShogammonMove) -> int:
        """The move's code (layout in :mod:`shogames.games.shogammon._jit`)."""
        return (
            int(move.kind)
            | move.die << 3
            | (move.origin + 1) << 6
            | (move.to + 1) << 13
            | move.promote << 20
            | move.drop << 21
            | move.die2 << 24
            | (move.origin2 + 1) << 27
            | (move.to2 + 1) << 34
            | move.promote2 << 41
        )

    def decode_move(self, code: int) -> ShogammonMove:
        """The :class:`~shogames.games.shogammon.ShogammonMove` of a move code."""
        return ShogammonMove(
            ShogammonMoveKind(code & 7),
            (code >> 3) & 7,
            ((code >> 6) & 127) - 1,
            ((code >> 13) & 127) - 1,
            (code >> 20) & 1,
            (code >> 21) & 7,
            (code >> 24) & 7,
            ((code >> 27) & 127) - 1,
            ((code >> 34) & 127) - 1,
            (code >> 41) & 1,
        )

    # --- The rules, one position at a time -----------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> list[ShogammonMove]:
        """The legal moves (rolls before a roll) in the reference's order."""
        count = jit.legal_moves(self.encode(state), self.rules, self._moves, self._work)
        return [self.decode_move(int(code)) for code in self._moves[:count]]

    def play(self, state: State[Any], move: ShogammonMove) -> ShogammonState:
        """The state after a legal ``move`` (a roll included)."""
        st = self.encode(state)
        jit.play(st, self.encode_move(move), self.rules, self._work)
        return self.decode(st)

    def outcome(self, state: State[Any]) -> tuple[float, ...] | None:
        """``None`` while the game goes on, else both returns."""
        st = self.encode(state)
        if not jit.ended(st, self.cfg):
            return None
        black = float(jit.black_return(st))
        return (black, -black if black else 0.0)

    def evaluate(self, state: State[Any]) -> tuple[float, ...]:
        """The reference's evaluation, computed by the kernel."""
        value = float(jit.evaluate(self.encode(state), self.rules, self.worth))
        return (value, -value)

    def batch(self, size: int, *, seed: int = 0) -> ShogammonBatch | None:
        """``size`` games stepped together in compiled code (:class:`ShogammonBatch`).

        ``None`` under ``repetition=fourfold``, whose history of positions would have to be kept per row
        (the batched environment then steps the reference's states).
        """
        return None if self.shogammon.fourfold else ShogammonBatch(self, size, seed)

    search_options = frozenset({"turns", "star", "table_mb", "material_scale", "move_filter"})
    """Shogammon's expectiminimax can count its depth in turns (``SearchOptions.turns``), search its
    rolls in Star1's windows (``SearchOptions.star``), keep a transposition table of that many MiB
    (``SearchOptions.table_mb``; 0, its default, keeps none), value material at another scale than
    the evaluation's :data:`~shogames.games.shogammon.MATERIAL_SCALE` (``SearchOptions.material_scale``)
    and search only the moves the hand-written evaluation values best below the root
    (``SearchOptions.move_filter``)."""

    def alphabeta(
        self, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> ShogammonAlphaBeta:
        """The compiled expectiminimax searcher (:class:`ShogammonAlphaBeta`)."""
        return self._searcher(seed, depth, options, None)

    def learned_alphabeta(
        self, network: Any, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> ShogammonAlphaBeta:
        """The compiled expectiminimax with ``network`` (a ``ValueNet``) at the horizon, for its side."""
        network.check_game(self.game)
        return self._searcher(seed, depth, options, network)

    def _searcher(
        self, seed: int | None, depth: int, options: SearchOptions, network: Any
    ) -> ShogammonAlphaBeta:
        self.check_search_options(options)
        return ShogammonAlphaBeta(
            self,
            seed=seed,
            depth=depth,
            turns=options.turns,
            star=options.star,
            table_mb=options.table_mb,
            material_scale=options.material_scale,
            move_filter=options.move_filter,
            network=network,
        )

    def learned_score(self, network: Any, state: State[Any], seat: int) -> float:
        """The compiled learned evaluation of ``state`` (not over) for ``seat``, before the search's clip.

        The network's output before its ``tanh`` (``ValueNet.linear_values``) for the observation
        ``seat`` sees, in float64: with the hand-written evaluation as an input, ``c`` times it plus the
        network's correction, on its scale (:func:`shogames.games.shogammon._jit.learned_score`).

        Raises:
            ValueError: the game is over at ``state``, or ``seat`` is not 0 or 1.
            WeightsError: ``network`` does not read this game's observation.
        """
        network.check_game(self.game)
        if state.is_terminal():
            raise ValueError("the learned evaluation values positions going on; this game is over")
        if seat not in (0, 1):
            raise ValueError(f"seat is 0 or 1, got {seat}")
        st = self.encode(state)
        return float(
            jit.learned_score(st, self.rules, self.worth, self._work, compiled_network(network), seat)
        )

    def mcts(self, *, seed: int | None = None, c: float = 1.0) -> ShogammonMCTS:
        """The compiled MCTS searcher (:class:`ShogammonMCTS`)."""
        return ShogammonMCTS(self, seed=seed, c=c)

    # --- Whole loops ---------------------------------------------------------------------------------

    def perft(self, state: State[Any], depth: int, *, bulk: bool = True, threads: int | None = None) -> int:
        """Leaves at exactly ``depth`` plies, rolls included; see :meth:`Kernel.perft`.

        The root's moves are shared among ``threads`` threads (``None``: every core); the count is the same.
        """
        check_perft_depth(depth)
        if depth == 0:
            return 1
        root = self.encode(state)
        roots = self._moves[: jit.legal_moves(root, self.rules, self._moves, self._work)].copy()
        if depth == 1 and bulk:
            return len(roots)
        with compiled_threads(threads):
            return int(jit.parallel_perft(root, roots, depth, bulk, self.rules, self._work))

    def _playouts(
        self,
        first: int,
        games: int,
        seed: int,
        start: State[Any] | None,
        record: NDArray[np.int64],
        threads: int | None,
    ) -> PlayoutBatch:
        """Games ``first`` .. ``first + games - 1`` of a batch, their moves into ``record``'s rows."""
        begin = self.encode(start if start is not None else self.shogammon.new_initial_state())
        stream = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        rules, work = self.rules, self._work
        with compiled_threads(threads) as blocks:
            return playout_batch(
                games,
                2,
                lambda returns, plies: jit.random_playouts(
                    begin, first, games, blocks, stream, rules, returns, plies, record, work
                ),
            )

    def random_playouts(
        self, games: int, *, seed: int = 0, start: State[Any] | None = None, threads: int | None = None
    ) -> PlayoutBatch:
        """Play ``games`` random games (exact dice) in compiled code; see :meth:`Kernel.random_playouts`.

        The games are shared among ``threads`` threads (``None``: every core); game ``i`` is the same
        whatever their number.
        """
        return self._playouts(0, games, seed, start, np.zeros((0, 0), dtype=np.int64), threads)

    def random_game(
        self, *, seed: int = 0, start: State[Any] | None = None, index: int = 0
    ) -> list[ShogammonMove]:
        """The moves (rolls included) of game ``index`` of :meth:`random_playouts`; only it is played."""
        if index < 0:
            raise ValueError(f"random_game needs a game index of 0 or more, got {index}")
        record = np.zeros((1, self.shogammon.max_game_length + 1), dtype=np.int64)
        batch = self._playouts(index, 1, seed, start, record, 1)
        return moves_by_code(self, record[0, : int(batch.plies[0])])


SERIAL_ROWS = 16
"""A compiled batch of fewer rows than this steps them on one thread."""


class ShogammonBatch(BatchGames[ShogammonState]):
    """Many Shogammon games in one int64 array, a row each in the kernel's layout, stepped by compiled code.

    Row ``i`` rolls its dice from its own SplitMix64 stream, seeded by ``game_stream(seed, i)`` as the
    playouts are, and kept from one game to the next, so a row's games depend only on the seed and the
    row. After :meth:`reset` and :meth:`step` each row is at a side's move (the dice rolled) or at the end
    of its game. Actions are the protocol's ids (``docs/games/shogammon.md``), decoded in compiled code by
    numbering the row's legal moves; :meth:`observe` and :meth:`legal_mask` equal the reference's
    ``observation_tensor`` and ``legal_action_mask`` of the row's state. The rows are shared among numba's
    threads; a batch of fewer than :data:`SERIAL_ROWS` rows runs on one, since waking the others costs
    more than its work. Not offered under ``repetition=fourfold`` (:meth:`ShogammonKernel.batch`).

    :meth:`observe` and :meth:`legal_mask` give the same array again until the next step or reset (never
    written afterwards), since the batched environment asks for the mask before and after each step.

    Args:
        kernel: the game's kernel (without ``repetition=fourfold``).
        size: how many games, 1 or more.
        seed: the seed of every row's dice.
    """

    def __init__(self, kernel: ShogammonKernel, size: int, seed: int) -> None:
        super().__init__(kernel, size, seed)
        if kernel.shogammon.fourfold:
            raise ValueError("the compiled Shogammon batch does not keep repetition=fourfold's history")
        self.shogammon_kernel = kernel
        self.directions = action_directions()
        self.states = np.empty((size, jit.SIZE), dtype=np.int64)
        self.streams = jit.batch_streams(np.uint64(seed & 0xFFFFFFFFFFFFFFFF), size)
        self._start = kernel.encode(kernel.shogammon.new_initial_state())
        self._status = np.zeros(size, dtype=np.int64)
        self._no_actions = np.zeros(size, dtype=np.int64)
        self._observation: NDArray[np.float32] | None = None
        self._mask: NDArray[np.bool_] | None = None
        self._threads = 1 if size < SERIAL_ROWS else None
        self.reset(np.ones(size, dtype=np.bool_))

    def _play(self, stepping: bool, actions: NDArray[np.int64], rows: NDArray[np.bool_]) -> None:
        self._observation = self._mask = None
        with compiled_threads(self._threads) as blocks:
            jit.batch_play(
                self.states, self.streams, actions, stepping, rows, self._start, blocks,
                self.shogammon_kernel.rules, self.directions, self._status,
            )  # fmt: skip

    def reset(self, rows: NDArray[np.bool_]) -> None:
        """Start a new game in every row where ``rows`` is true, its dice rolled up to a decision."""
        chosen = np.asarray(rows, dtype=np.bool_)
        if chosen.shape != (self.size,):
            raise ValueError(f"reset takes one bool per game, shape ({self.size},); got {chosen.shape}")
        self._play(False, self._no_actions, chosen)

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Play each going row's action id, then its dice up to the next decision (see the class).

        Raises:
            ValueError: ``actions`` is not one id per row, or an id is not legal in its row (that row is
                left as it was; the others are stepped).
        """
        chosen = np.asarray(actions, dtype=np.int64)
        if chosen.shape != (self.size,):
            raise ValueError(f"step takes one action id per game, shape ({self.size},); got {chosen.shape}")
        self._play(True, chosen, np.zeros(self.size, dtype=np.bool_))
        status = self._status
        failed = np.flatnonzero(status < 0)
        if failed.size:
            raise ValueError(
                f"the actions of rows {failed[:8].tolist()} are not legal there (those rows were not stepped)"
            )
        won = (status == 1)[:, None] & (self.states[:, jit.WINNER, None] >= 0)
        winner = self.states[:, jit.WINNER, None] == np.arange(2)
        returns = np.where(won, np.where(winner, 1.0, -1.0), 0.0).astype(np.float32)
        return returns, status == 1, status == 2

    def observe(self) -> NDArray[np.float32]:
        """Each row's observation from its seat to move (Black once over), ``(size, 81, 9, 9)``."""
        if self._observation is None:
            out = np.empty((self.size, jit.OBSERVATION_SIZE), dtype=np.float32)
            with compiled_threads(self._threads):
                jit.batch_observe(self.states, self.shogammon_kernel.cfg, out)
            self._observation = out.reshape((self.size, *self.kernel.game.observation_shape))
        return self._observation

    def legal_mask(self) -> NDArray[np.bool_]:
        """Each row's legal action ids, ``(size, num_distinct_actions)``; all false once over."""
        if self._mask is None:
            out = np.empty((self.size, self.kernel.game.num_distinct_actions), dtype=np.bool_)
            with compiled_threads(self._threads) as blocks:
                jit.batch_mask(self.states, blocks, self.shogammon_kernel.rules, self.directions, out)
            self._mask = out
        return self._mask

    def to_move(self) -> NDArray[np.int64]:
        """Each row's side to move, or -1 once its game is over."""
        states = self.states
        cap = int(self.shogammon_kernel.cfg[jit.C_MAX_TURNS])
        over = (states[:, jit.WINNER] >= 0) | (states[:, jit.END] != 0)
        if cap > 0:
            over |= states[:, jit.TURNS] >= cap
        return np.where(over, -1, states[:, jit.SIDE]).astype(np.int64)

    def state(self, row: int) -> ShogammonState:
        """The reference state of one row."""
        return self.shogammon_kernel.decode(self.states[row])


class ShogammonAlphaBeta(CompiledAlphaBeta[ShogammonKernel, ShogammonMove]):
    """Compiled expectiminimax for Shogammon (:class:`~shogames.kernels.search.CompiledAlphaBeta`).

    The ``alphabeta`` agent's search of a game with dice (Michie 1966; Ballard 1983): at a roll, the
    probability-weighted mean of the 21 rolls (or the 30 opening rolls), each searched with a full
    window (or, with ``star``, in Star1's window, the node cut off once the mean cannot reach inside its
    own); alpha-beta at the moves, the sign flipping only where the side changes (a turn is one or
    two moves); depth counts moves, not rolls (a roll with no play that brings another roll counts one).
    Moves are ordered by the history heuristic (lazily sorted), kept between searches (cleared by
    :meth:`reset`). With ``table_mb``, a transposition table of the positions before a roll, where a
    turn's two moves played in either order meet: it keeps their exact values for their depth, so the
    search returns the same values in fewer positions (``_jit.TABLE_DEPTH``). With ``move_filter``, a
    decision two or more moves above the horizon searches only its moves whose positions the
    hand-written evaluation values best (that many, and those valued as the last of them), best first.

    Args:
        kernel: the Shogammon kernel.
        seed: orders the root moves before the first iteration (ties); ``None`` keeps the legal order.
        depth: the deepest iteration.
        turns: whether depth counts whole turns.
        star: whether the rolls are searched in Star1's windows.
        table_mb: the transposition table's size in MiB (24 bytes an entry, rounded down to a power of
            two entries); 0 for none.
        material_scale: the evaluation's material scale, the ``S`` of ``0.95 * tanh(d / S)``
            (:data:`~shogames.games.shogammon.MATERIAL_SCALE` where 0).
        move_filter: how many moves a decision two or more moves above the horizon searches (0: all).
        network: a learned evaluation (a ``ValueNet`` over Shogammon's observation) to value the horizon
            with, for the searching side (:func:`shogames.games.shogammon._jit.learned_score`, clipped to
            +-:data:`LEARNED_CAP`), instead of the hand-written evaluation; ``None`` for that.
    """

    chance_hint = "roll the dice first"

    def __init__(
        self,
        kernel: ShogammonKernel,
        *,
        seed: int | None = None,
        depth: int = 64,
        turns: bool = False,
        star: bool = False,
        table_mb: int = 0,
        material_scale: float = 0.0,
        move_filter: int = 0,
        network: Any = None,
    ) -> None:
        super().__init__(kernel, seed=seed, depth=depth)
        if material_scale < 0.0 or not math.isfinite(material_scale):
            raise ValueError(f"the material scale is positive (0: the evaluation's), got {material_scale}")
        self.worth = kernel.worth * (MATERIAL_SCALE / material_scale) if material_scale else kernel.worth
        """The piece worths the search's evaluation counts: the kernel's, times ``MATERIAL_SCALE`` over
        ``material_scale`` where one is given (each part of the count is linear in them, so this values
        every position as that scale would)."""
        self.net = compiled_network(network)
        """The network as the compiled search reads it (empty arrays: the hand-written evaluation)."""
        self.turns = turns
        """Whether depth counts whole turns (the horizon only between turns) rather than moves."""
        self.star = star
        """Whether the rolls are searched in Star1's windows (the same values in fewer positions)."""
        if move_filter < 0:
            raise ValueError(f"the move filter is a number of moves (0: every move), got {move_filter}")
        self.move_filter = move_filter
        """How many moves a decision at least two moves above the horizon searches (0: all of them)."""
        self._history = np.zeros(jit.HISTORY_MASK + 1, dtype=np.int64)
        fits = (table_mb << 20) // TABLE_ENTRY_BYTES
        entries = 1 << (fits.bit_length() - 1) if table_mb > 0 else 0
        self._table = (
            np.zeros(entries, dtype=np.int64),
            np.zeros(entries, dtype=np.float64),
            np.zeros(entries, dtype=np.int64),
        )

    @property
    def table_entries(self) -> int:
        """How many positions the transposition table holds (0: none)."""
        return int(self._table[0].shape[0])

    def reset(self) -> None:
        """Clear the history heuristic and the transposition table."""
        self._history[:] = 0
        self._table[0][:] = 0

    def run(
        self, state: State[Any], codes: NDArray[np.int64], depth: int, budget: Limits, out: Scores
    ) -> tuple[int, float]:
        """The compiled search (:func:`shogames.games.shogammon._jit.alphabeta`)."""
        kernel = self.kernel
        index, value = jit.alphabeta(
            kernel.encode(state), codes, depth, *budget, kernel.rules, self.worth, kernel._work,
            self._history, *out, int(self.turns), int(self.star), self.net,
            self._table, self.move_filter,
        )  # fmt: skip
        return int(index), float(value)


TABLE_ENTRY_BYTES: Final = 24
"""The bytes of one transposition table entry: its key, value and depth."""

FILTER_SCALE: Final = jit.FILTER_SCALE
"""The move filter compares its evaluations as integers, ``int(value * FILTER_SCALE)`` (truncated)."""

LEARNED_CAP: Final = jit.LEARNED_CAP
"""The learned search's horizon values are clipped to +-this (below the search's forced result, 0.99)."""


def compiled_network(network: Any, *, lazy: bool = True) -> tuple[NDArray[np.float64], ...]:
    """``network``'s arrays laid out for the compiled search (``_jit.learned_score``).

    The first layer by plane, cell and hidden unit (the observation's order), each plane's rows summed
    (for the planes that hold one number everywhere), ``b1``, ``u1``, ``w2``, then ``b2``, ``c``, 1
    where the hand-written evaluation is an input and the most the hidden layer can add to the output
    (the sum of ``|w2|``, a hair over for rounding), and room for the hidden layer; all float64, the
    search's sums. ``None`` gives arrays of length 0 (the hand-written evaluation). ``lazy=False`` puts
    no bound on the hidden layer's part, so the search runs it at every horizon
    (``_jit.horizon_value``; the same values and moves, more slowly: a check of the lazy evaluation).
    """
    planes = len(OBSERVATION_PLANES)
    if network is None:
        empty = np.zeros(0)
        return (np.zeros((planes, 81, 0)), np.zeros((planes, 0)), empty, empty, empty, np.zeros(4), empty)
    a = {name: array.astype(np.float64) for name, array in network.arrays.items()}
    hidden = a["w1"].shape[1]
    rows = np.ascontiguousarray(a["w1"].reshape(planes, 81, hidden))
    reach = float(np.abs(a["w2"]).sum()) * (1.0 + 1e-9) + 1e-12 if lazy else np.inf
    head = np.array([a["b2"][0], a["c"][0], 1.0 if network.prior else 0.0, reach])
    return (rows, rows.sum(axis=1), a["b1"], a["u1"], a["w2"], head, np.zeros(hidden))


class ShogammonMCTS(CompiledMCTS[ShogammonKernel, ShogammonMove]):
    """Compiled UCT for Shogammon (:class:`~shogames.kernels.search.CompiledMCTS`).

    A roll (or the backgammon opening roll) is sampled with its exact chance; taking the king is the
    win played at once.
    """

    chance_hint = "roll the dice first"

    def run(self, state: State[Any], codes: NDArray[np.int64], budget: Budget, out: Outputs) -> int:
        """The compiled loop (:func:`shogames.games.shogammon._jit.mcts`)."""
        kernel = self.kernel
        root = kernel.encode(state)
        rules = (kernel.rules, kernel.worth, kernel._work)
        return self.call_loop(jit.mcts, (root, codes), budget, rules, root, out)


def make_kernel(game: Game[Any]) -> ShogammonKernel | None:
    """The Shogammon kernel for ``game``'s settings, or ``None`` where it does not cover them."""
    if not isinstance(game, ShogammonGame) or not covers(game):
        return None
    return ShogammonKernel(game)
