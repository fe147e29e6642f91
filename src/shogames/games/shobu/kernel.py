"""The Shobu kernel: the rules of :mod:`shogames.games.shobu` compiled with numba, and loops built on them.

The compiled functions are in :mod:`shogames.games.shobu._jit`; this module builds the rule tables
from the rules (not from the reference's tables, so that a mistake in one is not copied into the other),
converts states and moves, and offers the :class:`~shogames.core.kernel.Kernel` interface.

Kernel array of a state (uint64, 5 entries): ``[black, white, seat, turns, winner + 1]``, with the
bitboards of the reference (bit ``16 * board + 4 * rank + file``) and ``winner + 1`` 0 while no board is
cleared. Move code: ``passive_from | aggressive_from << 6 | direction << 12 | distance << 15``; the pass
(``no_turn=pass``) is 0.

Batch (:class:`ShobuBatch`, the batched environment's rows): one kernel array per row and each row's
result, stepped, observed and masked by compiled loops over rows (``prange``). Actions are the protocol's
ids (``shogames.games.shobu``, the mover's view); :func:`build_action_tables` builds the tables that
decode and encode them, from the rules as written, like the rule tables.

Settings: every setting of :class:`~shogames.games.shobu.ShobuGame` (``max_turns``, ``no_turn``) is an
argument of the compiled functions, so one compiled kernel serves them all.
"""

from __future__ import annotations

from typing import Any

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
    moves_by_code,
    playout_batch,
)
from shogames.core.perft import check_perft_depth
from shogames.core.protocol import Game, State
from shogames.games.shobu import (
    OBSERVATION_PLANES,
    PASS_MOVE,
    ShobuGame,
    ShobuMove,
    ShobuPosition,
    ShobuState,
)
from shogames.games.shobu import _jit as jit
from shogames.kernels.search import Budget, CompiledMCTS, Limits, Outputs, Scores, TableAlphaBeta

Rules = tuple[NDArray[np.int64], NDArray[np.uint64], NDArray[np.uint64]]
"""The rule tables the compiled functions take: (shifts, masks, plans); see :func:`build_rules`."""

# North, north-east, east, ... (DIRECTION_NAMES' order) as (file, rank) steps.
_VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_HOMEBOARDS = ((2, 3), (0, 1))  # Black owns BD and BL; White owns WD and WL
_LIGHT = (False, True, False, True)  # WD dark, WL light, BD dark, BL light


def build_rules() -> Rules:
    """The rule tables, from the rules as written (``docs/games/shobu.md``).

    ``shifts[d, k]`` is the bit offset of ``k + 1`` steps in direction ``d`` and ``masks[d, k]`` the
    squares (of every board) from which those steps stay on the board; ``plans[seat, h]`` is (the
    passive homeboard ``h``'s squares, the squares of both boards of the other colour).
    """
    shifts = np.zeros((8, 3), dtype=np.int64)
    masks = np.zeros((8, 3), dtype=np.uint64)
    for direction, (df, dr) in enumerate(_VECTORS):
        for k in range(3):
            steps = k + 1
            shifts[direction, k] = steps * (df + 4 * dr)
            mask = 0
            for square in range(64):
                file, rank = square & 3, (square >> 2) & 3
                if 0 <= file + steps * df < 4 and 0 <= rank + steps * dr < 4:
                    mask |= 1 << square
            masks[direction, k] = mask
    plans = np.zeros((2, 2, 2), dtype=np.uint64)
    for seat in range(2):
        for h, board in enumerate(_HOMEBOARDS[seat]):
            plans[seat, h, 0] = 0xFFFF << (16 * board)
            plans[seat, h, 1] = sum(0xFFFF << (16 * b) for b in range(4) if _LIGHT[b] != _LIGHT[board])
    return shifts, masks, plans


ActionTables = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]
"""(turn_table, square_index, offsets, sizes): the action numbering (:func:`build_action_tables`)."""


def build_action_tables() -> ActionTables:
    """The action ids' tables, from the numbering of ``docs/games/shobu.md`` in the mover's view.

    Group ``g = 2 * direction + distance - 1`` holds the ``sizes[g]`` squares of a board from which the
    move stays on the board (``square_index[g, s]`` numbers them, -1 elsewhere) and starts at id
    ``offsets[g]``; there a turn's id is ``offsets[g] + (h * n + i) * 2 * n + v * n + j`` (passive square
    ``i`` on homeboard ``h``, the view's board ``2 + h``; aggressive square ``j`` on the other column's
    board ``v``, the view's board ``3 - h - 2 * v``). ``turn_table[id]`` is (passive bit, aggressive bit,
    direction, distance) of Black's turn, which is the view's.
    """
    square_index = np.full((16, 16), -1, dtype=np.int64)
    offsets = np.zeros(16, dtype=np.int64)
    sizes = np.zeros(16, dtype=np.int64)
    turns: list[tuple[int, int, int, int]] = []
    for direction, (df, dr) in enumerate(_VECTORS):
        for distance in (1, 2):
            group = 2 * direction + distance - 1
            squares = [
                s for s in range(16) if 0 <= (s & 3) + distance * df < 4 and 0 <= (s >> 2) + distance * dr < 4
            ]
            square_index[group, squares] = np.arange(len(squares))
            offsets[group], sizes[group] = len(turns), len(squares)
            for home in range(2):
                for passive in squares:
                    for other in range(2):
                        board = 3 - home - 2 * other
                        turns.extend(
                            (16 * (2 + home) + passive, 16 * board + a, direction, distance) for a in squares
                        )
    return np.array(turns, dtype=np.int64), square_index, offsets, sizes


def _cleared_by(position: ShobuPosition) -> int | None:
    """The seat that won by clearing a board, as the kernel array keeps it (no-turn losses are derived)."""
    return None if position.no_turn else position.winner


def _returns(result: int) -> tuple[float, float]:
    if result == 0:
        return (1.0, -1.0)
    if result == 1:
        return (-1.0, 1.0)
    return (0.0, 0.0)


class ShobuKernel(Kernel[ShobuState, ShobuMove]):
    """The compiled Shobu rules for one game's settings.

    Args:
        game: a :class:`~shogames.games.shobu.ShobuGame`.
        rules: the rule tables; :func:`build_rules` by default (tests pass altered tables to show that
            the differential checks catch a broken rule).
    """

    def __init__(self, game: Game[Any], rules: Rules | None = None) -> None:
        super().__init__(game)
        if not isinstance(game, ShobuGame):
            raise TypeError(f"the Shobu kernel plays Shobu, not {game.name}")
        self.shobu = game
        self.rules = rules if rules is not None else build_rules()
        self.max_turns = int(game.settings["max_turns"])
        self.no_turn_pass = game.settings["no_turn"] == "pass"
        self._moves = np.empty(jit.MAX_MOVES, dtype=np.int64)

    # --- Conversions ---------------------------------------------------------------------------------

    def encode(self, state: State[Any]) -> NDArray[np.uint64]:
        """``[black, white, seat, turns, winner + 1]`` as uint64."""
        position = self._check(state).position
        winner = _cleared_by(position)
        return np.array(
            [
                position.black,
                position.white,
                position.side,
                position.turns,
                0 if winner is None else winner + 1,
            ],
            dtype=np.uint64,
        )

    def decode(self, array: NDArray[Any]) -> ShobuState:
        """The reference state of ``[black, white, seat, turns, winner + 1]``."""
        black, white, seat, turns, winner = (int(value) for value in array[:5])
        return self._state(black, white, seat, turns, winner - 1 if winner else None)

    def _state(self, black: int, white: int, seat: int, turns: int, cleared_by: int | None) -> ShobuState:
        """The reference state of a kernel position (a no-turn loss is left to the reference to judge)."""
        return self.shobu.state_from_position(ShobuPosition(black, white, seat, turns, cleared_by))

    def encode_move(self, move: ShobuMove) -> int:
        """``passive_from | aggressive_from << 6 | direction << 12 | distance << 15``; 0 for the pass."""
        if move.is_pass:
            return jit.PASS_CODE
        return move.passive_from | move.aggressive_from << 6 | move.direction << 12 | move.distance << 15

    def decode_move(self, code: int) -> ShobuMove:
        """The :class:`~shogames.games.shobu.ShobuMove` of a move code."""
        if code == jit.PASS_CODE:
            return PASS_MOVE
        return ShobuMove(code & 63, (code >> 6) & 63, (code >> 12) & 7, (code >> 15) & 3)

    def _check(self, state: State[Any]) -> ShobuState:
        if not isinstance(state, ShobuState):
            raise TypeError(f"the Shobu kernel takes Shobu states, got {type(state).__name__}")
        return state

    def _scalars(self, state: State[Any]) -> tuple[np.uint64, np.uint64, int, int, int]:
        position = self._check(state).position
        winner = _cleared_by(position)
        return (
            np.uint64(position.black),
            np.uint64(position.white),
            position.side,
            position.turns,
            -1 if winner is None else winner,
        )

    def _facts(self, state: State[Any]) -> tuple[int, int, float]:
        black, white, seat, turns, winner = self._scalars(state)
        result, count, value = jit.position_facts(
            black, white, seat, turns, winner, self.max_turns, self.no_turn_pass, self.rules, self._moves
        )
        return int(result), int(count), float(value)

    # --- The rules, one position at a time -----------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> list[ShobuMove]:
        """The legal turns in the reference's order (the pass alone when there is none and it is allowed)."""
        _, count, _ = self._facts(state)
        return [self.decode_move(int(code)) for code in self._moves[:count]]

    def play(self, state: State[Any], move: ShobuMove) -> ShobuState:
        """The state after a legal ``move``."""
        black, white, seat, turns, winner = self._scalars(state)
        b, w, s, t, x = jit.play_state(black, white, seat, turns, winner, self.encode_move(move), self.rules)
        return self._state(int(b), int(w), int(s), int(t), None if x < 0 else int(x))

    def outcome(self, state: State[Any]) -> tuple[float, ...] | None:
        """``None`` while the game goes on, else (Black's, White's) returns."""
        result, _, _ = self._facts(state)
        return None if result < 0 else _returns(result)

    def evaluate(self, state: State[Any]) -> tuple[float, ...]:
        """The reference's evaluation (its returns once the game is over)."""
        _, _, value = self._facts(state)
        return (value, -value)

    # --- Whole loops ---------------------------------------------------------------------------------

    def perft(self, state: State[Any], depth: int, *, bulk: bool = True, threads: int | None = None) -> int:
        """Leaves at exactly ``depth`` turns; see :meth:`Kernel.perft`.

        From depth 2 on, the root's turns are spread over ``threads`` threads (``None``: every core; see
        :func:`~shogames.core.kernel.compiled_threads`); the count does not depend on how many.
        """
        check_perft_depth(depth)
        black, white, seat, turns, winner = self._scalars(state)
        with compiled_threads(threads):
            count = jit.perft(
                black, white, seat, turns, winner, depth, bulk, self.max_turns, self.no_turn_pass, self.rules
            )
        return int(count)

    def leaf_checksum(self, state: State[Any]) -> tuple[int, int]:
        """(the legal turns, a checksum of the positions after them) as perft's last level builds them.

        Perft without bulk counting builds every leaf in one fused loop and folds its stones and
        board-clearing flag into a checksum, so that the compiler cannot skip building them; this runs
        that loop on ``state``'s turns. The checksum is the XOR over the turns of ``(own * 0x9E3779B97F4A7C15
        mod 2**64) ^ opp ^ cleared`` (``own``: the mover's stones after the turn, ``opp``: the other
        side's, ``cleared``: 1 where the turn cleared a board), shifted right by one bit.
        """
        black, white, seat, _, _ = self._scalars(state)
        own, opp = (black, white) if seat == 0 else (white, black)
        count, checksum = jit.leaf_checksum(own, opp, seat, self.rules)
        return int(count), int(checksum)

    def _playouts(
        self, games: int, seed: int, start: State[Any] | None, threads: int | None, record_rows: int = 0
    ) -> tuple[PlayoutBatch, NDArray[np.int64]]:
        first = self.encode(start if start is not None else self.shobu.new_initial_state())
        stream = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        record = np.zeros((record_rows, self.max_turns + 1 if record_rows else 0), dtype=np.int64)
        with compiled_threads(threads):
            batch = playout_batch(
                games,
                2,
                lambda returns, plies: jit.random_playouts(
                    first,
                    games,
                    stream,
                    self.max_turns,
                    self.no_turn_pass,
                    self.rules,
                    returns,
                    plies,
                    record,
                ),
            )
        return batch, record

    def random_playouts(
        self, games: int, *, seed: int = 0, start: State[Any] | None = None, threads: int | None = None
    ) -> PlayoutBatch:
        """Play ``games`` uniformly random games in compiled code; see :meth:`Kernel.random_playouts`.

        The games are spread over ``threads`` threads (``None``: every core; see
        :func:`~shogames.core.kernel.compiled_threads`); game ``i`` depends only on ``seed`` and ``i``.
        """
        return self._playouts(games, seed, start, threads)[0]

    def random_game(
        self, *, seed: int = 0, start: State[Any] | None = None, index: int = 0
    ) -> list[ShobuMove]:
        """The turns of game ``index`` of :meth:`random_playouts` with this seed and start."""
        batch, record = self._playouts(index + 1, seed, start, 1, index + 1)
        return moves_by_code(self, record[index, : int(batch.plies[index])])

    def batch(self, size: int, *, seed: int = 0) -> ShobuBatch:
        """``size`` games at the start, stepped together in compiled code (:class:`ShobuBatch`)."""
        return ShobuBatch(self, size, seed)

    # --- Searches ------------------------------------------------------------------------------------

    search_options = frozenset(
        {"pvs", "killers", "quiescence", "table_mb", "reductions", "aspiration", "extend", "null_move"}
    )
    """Shobu's alpha-beta has every :class:`~shogames.core.kernel.SearchOptions`."""

    def alphabeta(
        self, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> ShobuAlphaBeta:
        """The compiled alpha-beta searcher (:class:`ShobuAlphaBeta`)."""
        self.check_search_options(options)
        return ShobuAlphaBeta(self, seed=seed, depth=depth, options=options)

    def learned_alphabeta(
        self, network: Any, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> ShobuAlphaBeta:
        """The compiled alpha-beta with ``network`` (a ``ValueNet``) at the horizon, not the material."""
        network.check_game(self.game)
        self.check_search_options(options)
        return ShobuAlphaBeta(self, seed=seed, depth=depth, network=network, options=options)

    def mcts(self, *, seed: int | None = None, c: float = 1.0) -> ShobuMCTS:
        """The compiled MCTS searcher with the evaluation at the leaves (:class:`ShobuMCTS`)."""
        return ShobuMCTS(self, seed=seed, c=c)

    def root_codes(self, state: State[Any]) -> NDArray[np.int64]:
        """The legal move codes at ``state`` (a copy), for the searchers.

        Raises:
            ValueError: the game is over at ``state``.
        """
        result, count, _ = self._facts(state)
        if result >= 0:
            raise ValueError("no legal moves: the game is over")
        return self._moves[:count].copy()


class ShobuAlphaBeta(TableAlphaBeta[ShobuKernel, ShobuMove]):
    """Compiled negamax alpha-beta (:class:`~shogames.kernels.search.TableAlphaBeta`) for Shobu.

    A transposition table, always-replace with the full position as its key (no false hits); moves
    ordered by the table's move, then the history heuristic (lazily sorted). The table and the history
    are kept between searches (cleared by :meth:`reset`); entries of an earlier search only order
    moves, they never cut.

    Args:
        kernel: the Shobu kernel.
        seed: orders the root moves before the first iteration (ties); ``None`` keeps the legal order.
        depth: the deepest iteration.
        table_bits: the table has ``2 ** table_bits`` entries (32 bytes each, and the generic table's 16).
        network: a learned evaluation (a ``ValueNet`` over Shobu's observation) to value the horizon
            with instead of the material; ``None`` for the material.
        options: principal variation search, killer moves, plies of quiescence, late move reductions,
            aspiration windows, the budget's extension, null moves and the table's size
            (:class:`~shogames.core.kernel.SearchOptions`; a table of ``table_mb`` MiB replaces
            ``table_bits``, see :class:`~shogames.kernels.search.TableAlphaBeta`).
    """

    def __init__(
        self,
        kernel: ShobuKernel,
        *,
        seed: int | None = None,
        depth: int = 64,
        table_bits: int = 18,
        network: Any = None,
        options: SearchOptions = PLAIN_SEARCH,
    ):
        super().__init__(
            kernel, seed=seed, depth=depth, table_bits=table_bits, key_words=4, key_dtype=np.uint64,
            history_size=1 << 17, table_mb=options.table_mb,
        )  # fmt: skip
        self.net = bitboard_network(network)
        self.switches = np.array(
            [
                options.pvs,
                options.killers,
                options.quiescence,
                options.reductions,
                options.aspiration,
                options.extend,
                options.null_move,
            ],
            dtype=np.int64,
        )
        """The options as the compiled search reads them (``_jit.alphabeta``'s ``options``)."""

    def root_codes(self, state: State[Any]) -> NDArray[np.int64]:
        """The legal turns' codes, from the compiled generator."""
        return self.kernel.root_codes(state)

    def run(
        self, state: State[Any], codes: NDArray[np.int64], depth: int, budget: Limits, out: Scores
    ) -> tuple[int, float]:
        """The compiled search (:func:`shogames.games.shobu._jit.alphabeta`)."""
        kernel = self.kernel
        table, _, _, history, generation = self.tables()
        index, value = jit.alphabeta(
            *kernel._scalars(state), codes, depth, *budget, kernel.max_turns, kernel.no_turn_pass,
            kernel.rules, table, history, generation, *out, self.net, self.switches,
        )  # fmt: skip
        return int(index), float(value)


def bitboard_network(network: Any) -> tuple[NDArray[Any], ...]:
    """``network``'s arrays laid out for the compiled search (``_jit.learned_score``).

    The observation is planes of 8 x 8 cells (own stones, the opponent's, ones when the observer is to
    move, the turns' progress): a stone's first-layer weights are taken, for each seat and bit, from the
    cell :func:`~shogames.games.shobu._jit.view_cell` gives it; the two constant planes are summed. All
    in float64, the search's sums (no conversions in its inner loops). ``None`` gives arrays of length 0
    (the material evaluation).
    """
    if network is None:
        empty = np.zeros(0)
        return (np.zeros((2, 2, 64, 0)), empty, empty, empty, empty, np.zeros(3), np.zeros((3, 0)))
    a = {name: array.astype(np.float64) for name, array in network.arrays.items()}
    w1 = a["w1"]
    hidden = w1.shape[1]
    rows = np.zeros((2, 2, 64, hidden))
    for seat in range(2):
        for bit in range(64):
            cell = int(jit.view_cell(bit, seat))
            for plane in range(2):
                rows[seat, plane, bit] = w1[64 * plane + cell]
    base = a["b1"] + w1[128:192].sum(axis=0)
    progress = w1[192:256].sum(axis=0)
    head = np.array([a["b2"][0], a["c"][0], 1.0 if network.prior else 0.0])
    scratch = np.zeros((jit.QUIESCENCE_ROWS + 2 * jit.MAX_PLY, hidden))
    return (rows, base, progress, a["u1"], a["w2"], head, scratch)


class ShobuMCTS(CompiledMCTS[ShobuKernel, ShobuMove]):
    """Compiled UCT for Shobu (:class:`~shogames.kernels.search.CompiledMCTS`).

    No chance; a turn that clears a board of the opponent's is the win played at once, found in
    compiled code.
    """

    width = 64
    capacity = 1 << 16

    def root_moves(self, state: State[Any]) -> tuple[list[ShobuMove], NDArray[np.int64]]:
        """The legal turns and their codes, from the compiled generator.

        Raises:
            ValueError: the game is over.
        """
        codes = self.kernel.root_codes(state)
        return [self.kernel.decode_move(int(code)) for code in codes], codes

    def winning_move(self, state: State[Any], moves: list[ShobuMove], codes: NDArray[np.int64]) -> int:
        """The first turn that clears a board of the opponent's, found in compiled code, or -1."""
        black, white, seat, _, _ = self.kernel._scalars(state)
        return int(jit.decisive(black, white, seat, self.kernel.rules, codes, codes.shape[0]))

    def run(self, state: State[Any], codes: NDArray[np.int64], budget: Budget, out: Outputs) -> int:
        """The compiled loop (:func:`shogames.games.shobu._jit.mcts`)."""
        kernel = self.kernel
        rules = (kernel.max_turns, kernel.no_turn_pass, kernel.rules)
        position = np.zeros(5, dtype=np.uint64)
        return self.call_loop(jit.mcts, (*kernel._scalars(state), codes), budget, rules, position, out)


PARALLEL_ROWS = 256
"""The fewest rows of a :class:`ShobuBatch` whose compiled loops spread the rows over threads."""


class ShobuBatch(BatchGames[ShobuState]):
    """Shobu games in the kernel's arrays, one row each, stepped by compiled loops over the rows.

    Row ``i`` is ``rows[i] = [black, white, seat, turns, winner + 1]`` (the kernel array) and
    ``results[i]`` is -1 while its game goes on, else the winner (0, 1) or 2 for the length cap. Shobu has
    no chance, so ``seed`` decides nothing: every row plays exactly the actions it is given.

    Batches of :data:`PARALLEL_ROWS` rows or more spread their rows over numba's threads (``prange``);
    smaller ones run on one thread, where waking the threads would cost more than the rows' work.

    Args:
        kernel: the Shobu kernel (its settings are the games').
        size: how many games, 1 or more.
        seed: kept for the interface; no chance to sample.
        parallel_from: the fewest rows spread over threads (tests set 1 to run the threaded loops).
    """

    def __init__(
        self, kernel: ShobuKernel, size: int, seed: int, *, parallel_from: int = PARALLEL_ROWS
    ) -> None:
        super().__init__(kernel, size, seed)
        self.shobu_kernel = kernel
        parallel = size >= parallel_from
        self._reset = jit.batch_reset_parallel if parallel else jit.batch_reset
        self._step = jit.batch_step_parallel if parallel else jit.batch_step
        self._observe = jit.batch_observe_parallel if parallel else jit.batch_observe
        self._legal_mask = jit.batch_legal_mask_parallel if parallel else jit.batch_legal_mask
        self.actions = kernel.shobu.num_distinct_actions
        self.turn_table, self.square_index, self.offsets, self.sizes = build_action_tables()
        self.rows = np.zeros((size, 5), dtype=np.uint64)
        self.results = np.full(size, -1, dtype=np.int64)
        self._start = kernel.encode(kernel.shobu.new_initial_state())
        self.reset(np.ones(size, dtype=np.bool_))

    def reset(self, rows: NDArray[np.bool_]) -> None:
        """Put the start position in every row where ``rows`` is true."""
        chosen = np.asarray(rows, dtype=np.bool_)
        if chosen.shape != (self.size,):
            raise ValueError(f"reset takes one bool per row, shape ({self.size},), got {chosen.shape}")
        kernel = self.shobu_kernel
        self._reset(
            self.rows, self.results, chosen, self._start, kernel.max_turns, kernel.no_turn_pass, kernel.rules
        )

    def load(self, row: int, state: State[Any]) -> None:
        """Put a reference state in row ``row`` (to step from a chosen position), and judge it.

        Raises:
            IndexError: no such row.
        """
        if not 0 <= row < self.size:
            raise IndexError(f"the batch has rows 0 to {self.size - 1}, got {row}")
        kernel = self.shobu_kernel
        chosen = np.zeros(self.size, dtype=np.bool_)
        chosen[row] = True
        self._reset(
            self.rows, self.results, chosen, kernel.encode(state), kernel.max_turns, kernel.no_turn_pass,
            kernel.rules,
        )  # fmt: skip

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Play each going row's action id (rows whose game is over ignore theirs).

        Raises:
            ValueError: ``actions`` is not one integer per row.
            IllegalMoveError: an action is not legal in its row; no row is played then.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (self.size,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(
                f"step takes one integer action per row, shape ({self.size},), got {chosen.shape}"
            )
        chosen = chosen.astype(np.int64, copy=False)
        returns = np.zeros((self.size, 2), dtype=np.float32)
        terminated = np.zeros(self.size, dtype=np.bool_)
        truncated = np.zeros(self.size, dtype=np.bool_)
        kernel = self.shobu_kernel
        bad = self._step(
            self.rows, self.results, chosen, kernel.max_turns, kernel.no_turn_pass, kernel.rules,
            self.turn_table, returns, terminated, truncated,
        )  # fmt: skip
        if bad >= 0:
            raise IllegalMoveError(
                f"row {bad}: action {int(chosen[bad])} is not legal in {self.state(int(bad)).to_text()!r}; "
                "no row was played"
            )
        return returns, terminated, truncated

    def observe(self) -> NDArray[np.float32]:
        """Each row's ``(4, 8, 8)`` observation from its seat to move (seat 0 once over)."""
        out = np.empty((self.size, len(OBSERVATION_PLANES), 8, 8), dtype=np.float32)
        self._observe(self.rows, self.results, self.shobu_kernel.max_turns, out)
        return out

    def legal_mask(self) -> NDArray[np.bool_]:
        """Each row's legal action ids, ``(size, num_distinct_actions)``; all false once over."""
        out = np.empty((self.size, self.actions), dtype=np.bool_)
        kernel = self.shobu_kernel
        self._legal_mask(
            self.rows, self.results, kernel.no_turn_pass, kernel.rules, self.square_index, self.offsets,
            self.sizes, out,
        )  # fmt: skip
        return out

    def to_move(self) -> NDArray[np.int64]:
        """Each row's seat to move, or -1 once its game is over."""
        return np.where(self.results < 0, self.rows[:, 2].astype(np.int64), -1)

    def state(self, row: int) -> ShobuState:
        """The reference state of row ``row``."""
        return self.shobu_kernel.decode(self.rows[row])


def make_kernel(game: Game[Any]) -> ShobuKernel:
    """The Shobu kernel for ``game``'s settings (every setting is covered)."""
    return ShobuKernel(game)
