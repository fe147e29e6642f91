"""The Sho kernel: the rules of :mod:`shogames.games.sho` compiled with numba, for every setting.

The compiled functions are in :mod:`shogames.games.sho._jit`, which gives the layout of the state array
and of the move codes. Covered: every setting and both presets (``classic``, ``lhasa``): 2, 3 or 4
players (alone, or four in two teams sharing their coins or with separate coins), every pa ra mode
(``wikipedia``, ``ios``, ``pool``) with any or single-or-total subsets, the flexible pa ra, the finishing
overflow, play to placings, every opening setting (the Sho-mo top-up included), the (6,3) re-opening,
three pa ra winning, exact bearing off, passing, the last-kill rule, no niner, the shells, coins, goal,
first player and turn cap.

Dice are chance moves as in the reference: at a throw, :meth:`ShoKernel.legal_moves` lists the 21
throws in the reference's order; the compiled playouts throw two independent dice. The kernel's
searchers: a compiled alpha-beta (expectimax over the throws, paranoid for three or four players) and
a compiled MCTS (max^n over the seats, sampled throws).
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
    playout_batch,
)
from shogames.core.perft import check_perft_depth
from shogames.core.protocol import Game, State
from shogames.games.sho import REACH, ShoGame, ShoMove, ShoMoveKind, ShoPosition, ShoState
from shogames.games.sho import _jit as jit
from shogames.games.sho._jit import (
    C_ALLOW_PASS,
    C_ANY_SUBSET,
    C_BONUS12,
    C_CAP,
    C_COINS,
    C_EXACT,
    C_FLEX_EITHER,
    C_FLEXIBLE,
    C_GOAL,
    C_IOS,
    C_LAST_KILL,
    C_MAX_TURNS,
    C_N_PLUS_1,
    C_OPENING_SIZE,
    C_OVERFLOW,
    C_PARA_SIZE,
    C_PARTNERS,
    C_PLACINGS,
    C_PLAYERS,
    C_POOL,
    C_REOPEN_EMPTY,
    C_SHARED,
    C_SIDES,
    C_SIX_THREE,
    C_TEAM_FIRST,
    C_TOPUP,
    C_TRIPLE,
)
from shogames.kernels.common import game_stream
from shogames.kernels.search import (
    Budget,
    CompiledAlphaBeta,
    CompiledMCTS,
    CompiledRollouts,
    Limits,
    Outputs,
    RolloutOutputs,
    Scores,
)

# Re-exported from the compiled module: the index of each setting in the kernel's ``cfg`` (see
# :func:`config`), for tests that change one to break a rule on purpose.
__all__ = [
    "C_ALLOW_PASS",
    "C_ANY_SUBSET",
    "C_BONUS12",
    "C_CAP",
    "C_COINS",
    "C_EXACT",
    "C_FLEXIBLE",
    "C_FLEX_EITHER",
    "C_GOAL",
    "C_IOS",
    "C_LAST_KILL",
    "C_MAX_TURNS",
    "C_N_PLUS_1",
    "C_OPENING_SIZE",
    "C_OVERFLOW",
    "C_PARA_SIZE",
    "C_PARTNERS",
    "C_PLACINGS",
    "C_PLAYERS",
    "C_POOL",
    "C_REOPEN_EMPTY",
    "C_SHARED",
    "C_SIDES",
    "C_SIX_THREE",
    "C_TEAM_FIRST",
    "C_TOPUP",
    "C_TRIPLE",
    "DEFAULT_ALPHABETA_NODES",
    "PHASE_CODES",
    "PHASE_NAMES",
    "ShoAlphaBeta",
    "ShoBatch",
    "ShoKernel",
    "ShoMCTS",
    "Work",
    "config",
    "make_kernel",
    "new_work",
]

PHASE_CODES: dict[str, int] = {
    "throw": jit.THROW_PHASE,
    "move": jit.MOVE_PHASE,
    "draw": jit.FIRST_PHASE,
    "follow": jit.MOVE_PHASE,  # with S_FOLLOWING set
}
"""The state array's phase for each of :attr:`ShoPosition.phase`'s names."""
PHASE_NAMES: dict[int, str] = {jit.THROW_PHASE: "throw", jit.MOVE_PHASE: "move", jit.FIRST_PHASE: "draw"}
"""A state array's phase's name, where S_FOLLOWING is not set."""

Work = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]
"""Scratch arrays of the compiled move generation: subsets, their lengths, counting space, moves."""


def new_work() -> Work:
    """Scratch arrays for the compiled ``legal_moves`` (so that generating moves allocates nothing)."""
    return (
        np.zeros((jit.SUBSETS_ROOM, jit.MAX_VALUES), dtype=np.int64),
        np.zeros(jit.SUBSETS_ROOM, dtype=np.int64),
        np.zeros((3, jit.MAX_VALUES), dtype=np.int64),
        np.zeros(jit.MAX_MOVES, dtype=np.int64),
    )


def config(game: ShoGame) -> NDArray[np.int64]:
    """The settings as the compiled functions take them (``cfg``)."""
    s = game.settings
    cfg = np.zeros(jit.CFG_SIZE, dtype=np.int64)
    cfg[jit.C_GOAL] = game.goal
    cfg[jit.C_COINS] = game.coins
    cfg[jit.C_CAP] = game.cap
    cfg[jit.C_SIDES] = game.num_sides
    cfg[jit.C_PLAYERS] = game.players
    cfg[jit.C_MAX_TURNS] = int(s["max_turns"])
    cfg[jit.C_ANY_SUBSET] = s["para_subsets"] == "all"
    cfg[jit.C_EXACT] = s["exact_bear_off"] == "on"
    cfg[jit.C_OPENING_SIZE] = int(s["opening_size"])
    cfg[jit.C_BONUS12] = s["opening_12_bonus"] == "on"
    cfg[jit.C_PARA_SIZE] = int(s["opening_para_size"])
    cfg[jit.C_N_PLUS_1] = s["opening_kill"] == "n_plus_1"
    cfg[jit.C_REOPEN_EMPTY] = s["reopen_when"] == "board_empty"
    cfg[jit.C_SIX_THREE] = game.six_three
    cfg[jit.C_TRIPLE] = s["triple_para_win"] == "on"
    cfg[jit.C_LAST_KILL] = s["last_kill_ends_turn"] == "on"
    cfg[jit.C_ALLOW_PASS] = s["allow_pass"] == "on"
    cfg[jit.C_SHARED] = game.shared
    cfg[jit.C_IOS] = game.ios
    cfg[jit.C_POOL] = game.pool
    cfg[jit.C_FLEXIBLE] = game.flexible
    cfg[jit.C_FLEX_EITHER] = s["flexible_bonus"] == "either"
    cfg[jit.C_OVERFLOW] = game.overflow
    cfg[jit.C_PLACINGS] = game.placings
    cfg[jit.C_TOPUP] = game.topup
    cfg[jit.C_PARTNERS] = game.teams and not game.shared
    cfg[jit.C_TEAM_FIRST] = s["team_win"] == "first"
    return cfg


class ShoKernel(Kernel[ShoState, ShoMove]):
    """The compiled Sho rules for one game's settings (random playouts, perft, the rules by position).

    Args:
        game: a :class:`~shogames.games.sho.ShoGame`.
    """

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        if not isinstance(game, ShoGame):
            raise ValueError(f"the Sho kernel needs a Sho game, got {type(game).__name__}")
        self.sho = game
        self.cfg = config(game)
        self.reach = np.array(REACH, dtype=np.float64)  # the evaluation's table, the reference's own
        self.size = int(jit.state_size(game.goal, game.topup))
        self._moves = np.empty(jit.MAX_MOVES, dtype=np.int64)
        self._work = new_work()

    # --- Conversions ---------------------------------------------------------------------------------

    def _check(self, state: State[Any]) -> ShoState:
        if not isinstance(state, ShoState):
            raise TypeError(f"the Sho kernel takes Sho states, got {type(state).__name__}")
        if state.game != self.sho:
            raise ValueError("the state belongs to a Sho game with other settings than the kernel's")
        return state

    def encode(self, state: State[Any]) -> NDArray[np.int64]:
        """The state array (layout in :mod:`shogames.games.sho._jit`), from the state's position value."""
        p = self._check(state).position
        goal = self.sho.goal
        st = np.zeros(self.size, dtype=np.int64)
        st[jit.S_SEAT] = p.seat
        st[jit.S_PHASE] = PHASE_CODES[p.phase]
        st[jit.S_FOLLOWING] = p.phase == "follow"
        st[jit.S_MOVED] = p.moved
        st[jit.S_BONUS] = p.bonus
        st[jit.S_BANKED] = p.banked
        st[jit.S_NPLACED] = len(p.placed)
        st[jit.PLACED : jit.PLACED + len(p.placed)] = p.placed
        st[jit.S_PARAS] = p.paras
        if p.first is not None:
            st[jit.S_FIRST_LOW], st[jit.S_FIRST_HIGH] = p.first
        st[jit.S_TURNS] = p.turns
        st[jit.S_PLY] = p.ply
        st[jit.S_WINNER] = -1 if p.winner is None else p.winner
        if len(p.values) > jit.MAX_VALUES:
            raise ValueError(f"the Sho kernel holds at most {jit.MAX_VALUES} values, got {len(p.values)}")
        st[jit.S_NVALUES] = len(p.values)
        st[jit.S_VALUES : jit.S_VALUES + len(p.values)] = p.values
        sides = self.sho.num_sides
        st[jit.HAND : jit.HAND + sides] = p.hand
        st[jit.OFF : jit.OFF + sides] = p.off
        st[jit.ENTERED : jit.ENTERED + sides] = p.entered
        st[jit.OWNER : jit.OWNER + goal] = p.owner
        st[jit.OWNER + goal : jit.OWNER + 2 * goal] = p.size
        for place in p.shomo:
            st[jit.OWNER + 2 * goal + place] = 1
        return st

    def decode(self, array: NDArray[Any]) -> ShoState:
        """The reference state of a state array, made by :meth:`ShoGame.state_from_position`."""
        st = [int(v) for v in array]
        goal, sides = self.sho.goal, self.sho.num_sides
        low, high = st[jit.S_FIRST_LOW], st[jit.S_FIRST_HIGH]
        n = st[jit.S_NVALUES]
        winner = st[jit.S_WINNER]
        position = ShoPosition(
            owner=tuple(st[jit.OWNER : jit.OWNER + goal]),
            size=tuple(st[jit.OWNER + goal : jit.OWNER + 2 * goal]),
            hand=tuple(st[jit.HAND : jit.HAND + sides]),
            off=tuple(st[jit.OFF : jit.OFF + sides]),
            entered=tuple(bool(v) for v in st[jit.ENTERED : jit.ENTERED + sides]),
            seat=st[jit.S_SEAT],
            phase="follow" if st[jit.S_FOLLOWING] else PHASE_NAMES[st[jit.S_PHASE]],
            values=tuple(st[jit.S_VALUES : jit.S_VALUES + n]),
            paras=st[jit.S_PARAS],
            first=(low, high) if low else None,
            turns=st[jit.S_TURNS],
            ply=st[jit.S_PLY],
            winner=None if winner < 0 else winner,
            moved=st[jit.S_MOVED],
            bonus=bool(st[jit.S_BONUS]),
            banked=st[jit.S_BANKED],
            shomo=frozenset(p for p in range(goal) if self.sho.topup and st[jit.OWNER + 2 * goal + p]),
            placed=tuple(st[jit.PLACED : jit.PLACED + st[jit.S_NPLACED]]),
        )
        return self.sho.state_from_position(position)

    def encode_move(self, move: ShoMove) -> int:
        """The move's code (layout in :mod:`shogames.games.sho._jit`)."""
        single = len(move.values) == 1
        if (
            len(move.values) > 9
            or not all(0 <= value < (1 << 16 if single else 16) for value in move.values)
            or not 0 <= move.source < 256
            or not 0 <= move.coins < 32
        ):
            raise ValueError(f"the Sho kernel has no code for {move!r}")
        code = move.kind | move.source << 3 | move.coins << 11 | move.low << 16 | move.high << 19
        code |= len(move.values) << 22
        for k, value in enumerate(move.values):
            code |= value << (26 + 4 * k)
        return code

    def decode_move(self, code: int) -> ShoMove:
        """The :class:`~shogames.games.sho.ShoMove` of a move code."""
        length = (code >> 22) & 15
        if length == 1:
            values: tuple[int, ...] = ((code >> 26) & 0xFFFF,)
        else:
            values = tuple((code >> (26 + 4 * k)) & 15 for k in range(length))
        return ShoMove(
            ShoMoveKind(code & 7),
            (code >> 3) & 255,
            values,
            (code >> 11) & 31,
            (code >> 16) & 7,
            (code >> 19) & 7,
        )

    # --- The rules, one position at a time -----------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> list[ShoMove]:
        """The legal moves (throws at a throw) in the reference's order."""
        count = jit.legal_moves(self.encode(state), self.cfg, self._moves, self._work, False)
        return [self.decode_move(int(code)) for code in self._moves[:count]]

    def play(self, state: State[Any], move: ShoMove) -> ShoState:
        """The state after a legal ``move`` (a throw included)."""
        st = self.encode(state)
        jit.play(st, self.encode_move(move), self.cfg, self._work)
        return self.decode(st)

    def outcome(self, state: State[Any]) -> tuple[float, ...] | None:
        """``None`` while the game goes on, else every seat's return."""
        st = self.encode(state)
        if not jit.ended(st, self.cfg):
            return None
        out = np.zeros(4, dtype=np.float64)
        jit.returns(st, self.cfg, out)
        return tuple(float(v) for v in out[: self.sho.players])

    def evaluate(self, state: State[Any]) -> tuple[float, ...]:
        """The reference's evaluation, computed by the kernel."""
        out = np.zeros(4, dtype=np.float64)
        jit.evaluate(self.encode(state), self.cfg, self.reach, out)
        return tuple(float(v) for v in out[: self.sho.players])

    search_options = frozenset({"maxn", "star"})
    """Sho's search can be max-n instead of paranoid, and search its throws in Star1's windows
    (:class:`~shogames.core.kernel.SearchOptions`)."""

    def alphabeta(
        self, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> ShoAlphaBeta:
        """The compiled searcher (:class:`ShoAlphaBeta`): expectimax over the throws, paranoid or max-n."""
        self.check_search_options(options)
        return ShoAlphaBeta(self, seed=seed, depth=depth, maxn=options.maxn, star=options.star)

    def rollouts(self, *, seed: int | None = None) -> ShoRollouts:
        """The compiled Monte Carlo rollout searcher (:class:`ShoRollouts`)."""
        return ShoRollouts(self, seed=seed)

    def mcts(self, *, seed: int | None = None, c: float = 1.0) -> ShoMCTS:
        """The compiled MCTS searcher (:class:`ShoMCTS`)."""
        return ShoMCTS(self, seed=seed, c=c)

    def greedy_game(
        self, state: State[Any], *, seed: int, index: int = 0
    ) -> tuple[list[ShoMove], list[float]]:
        """Playout ``index`` of the rollouts from ``state``, replayed; see :meth:`Kernel.greedy_game`."""
        if index < 0:
            raise ValueError(f"greedy_game needs a playout index of 0 or more, got {index}")
        st = self.encode(state)
        record = np.zeros(self.sho.max_game_length + 1, dtype=np.int64)
        out = np.zeros(4, dtype=np.float64)
        stream = np.uint64(game_stream(np.uint64(seed & 0xFFFFFFFFFFFFFFFF), index))
        scratch = (np.empty(jit.MAX_MOVES, dtype=np.int64), np.empty_like(st))
        plies = int(jit.greedy_playout(st, stream, self.cfg, self.reach, self._work, *scratch, out, record))
        if plies > record.shape[0]:
            raise AssertionError(f"a playout of {plies} plies outgrew the record of {record.shape[0]}")
        played = [self.decode_move(int(code)) for code in record[:plies]]
        return played, [float(value) for value in out[: self.sho.players]]

    # --- Whole loops ---------------------------------------------------------------------------------

    def perft(self, state: State[Any], depth: int, *, bulk: bool = True, threads: int | None = None) -> int:
        """Leaves at exactly ``depth`` plies, throws included; see :meth:`Kernel.perft`.

        The root's moves are shared among ``threads`` threads (``None``: every core); the count is the same.
        """
        check_perft_depth(depth)
        if depth == 0:
            return 1
        root = self.encode(state)
        roots = self._moves[: jit.legal_moves(root, self.cfg, self._moves, self._work, False)].copy()
        if depth == 1 and bulk:
            return len(roots)
        with compiled_threads(threads):
            return int(jit.parallel_perft(root, roots, depth, bulk, self.cfg))

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
        begin = self.encode(start if start is not None else self.sho.new_initial_state())
        stream = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        with compiled_threads(threads) as blocks:
            return playout_batch(
                games,
                self.sho.players,
                lambda returns, plies: jit.random_playouts(
                    begin, first, games, blocks, stream, self.cfg, returns, plies, record
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

    def batch(self, size: int, *, seed: int = 0) -> ShoBatch:
        """``size`` games stepped together in compiled code (:class:`ShoBatch`)."""
        return ShoBatch(self, size, seed)

    def random_game(self, *, seed: int = 0, start: State[Any] | None = None, index: int = 0) -> list[ShoMove]:
        """The moves (throws included) of game ``index`` of :meth:`random_playouts`; only it is played."""
        if index < 0:
            raise ValueError(f"random_game needs a game index of 0 or more, got {index}")
        record = np.zeros((1, self.sho.max_game_length + 1), dtype=np.int64)
        batch = self._playouts(index, 1, seed, start, record, 1)
        return [self.decode_move(int(code)) for code in record[0, : int(batch.plies[0])]]


ROWS_PER_THREAD = 256
"""A batch uses one more thread per this many rows: below it, waking a thread costs more than it saves."""


class ShoBatch(BatchGames[ShoState]):
    """Sho games in the rows of one int64 array, stepped by compiled code (:class:`BatchGames`).

    Row ``i`` draws its dice from its own stream (:func:`~shogames.kernels.common.game_stream` of the
    seed and ``i``, as the random playouts), kept across the row's games (:meth:`reset` goes on with
    it). :meth:`step` finds each row's
    move by generating its legal moves and taking the one with the action id (``ShoState.move_to_action``
    compiled), plays it and throws the dice up to the next decision; :meth:`observe` and
    :meth:`legal_mask` are written by compiled code and equal the reference's ``observation_tensor`` (of
    the seat to move) and ``legal_action_mask``. Rows are shared among numba's threads in blocks, one
    thread per :data:`ROWS_PER_THREAD` rows.

    Args:
        kernel: the Sho kernel.
        size: how many games, 1 or more.
        seed: the seed of every row's dice.
    """

    def __init__(self, kernel: ShoKernel, size: int, seed: int) -> None:
        super().__init__(kernel, size, seed)
        import numba

        self.sho = kernel.sho
        self.cfg = kernel.cfg
        self.codes = self.sho.spend_codes
        self.states = np.zeros((size, kernel.size), dtype=np.int64)
        self.streams = jit.batch_streams(np.uint64(seed & 0xFFFFFFFFFFFFFFFF), size)
        self._start = kernel.encode(self.sho.new_initial_state())
        threads = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]  # the most blocks
        self._subsets = np.zeros((threads, jit.SUBSETS_ROOM, jit.MAX_VALUES), dtype=np.int64)
        self._lengths = np.zeros((threads, jit.SUBSETS_ROOM), dtype=np.int64)
        self._counting = np.zeros((threads, 3, jit.MAX_VALUES), dtype=np.int64)
        self._moves = np.zeros((threads, jit.MAX_MOVES), dtype=np.int64)
        self._found = np.zeros(size, dtype=np.int64)
        self._ends = np.zeros(size, dtype=np.int64)
        self._returns = np.zeros((size, self.sho.players), dtype=np.float64)
        self.reset(np.ones(size, dtype=np.bool_))

    def _scratch(
        self, threads: int
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """Scratch space for ``threads`` blocks of rows."""
        return (
            self._subsets[:threads],
            self._lengths[:threads],
            self._counting[:threads],
            self._moves[:threads],
        )

    def _threads(self) -> int:
        """The threads to share the rows: one per :data:`ROWS_PER_THREAD` rows, at most numba's."""
        import numba

        return max(1, min(int(numba.get_num_threads()), len(self._moves), self.size // ROWS_PER_THREAD))

    def _rows(self, values: NDArray[Any], dtype: type, what: str) -> NDArray[Any]:
        array: NDArray[Any] = np.ascontiguousarray(values, dtype=dtype)
        if array.shape != (self.size,):
            raise ValueError(f"{what} has one entry per row: shape ({self.size},), got {array.shape}")
        return array

    def reset(self, rows: NDArray[np.bool_]) -> None:
        """Start a new game in the rows where ``rows`` is true; the dice are thrown up to a decision."""
        chosen = self._rows(rows, np.bool_, "rows")
        with compiled_threads(self._threads()) as threads:
            jit.batch_reset(self.states, chosen, self._start, self.streams, self.cfg, *self._scratch(threads))

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Play each row's action id, then the dice up to the next decision; see :meth:`BatchGames.step`.

        Raises:
            IllegalMoveError: a row's action is not legal there (no row is played then).
        """
        chosen = self._rows(actions, np.int64, "actions")
        with compiled_threads(self._threads()) as threads:
            scratch = self._scratch(threads)
            jit.batch_decode(self.states, chosen, self.cfg, self.codes, *scratch, self._found)
            bad = np.flatnonzero(self._found == -1)
            if not bad.size:
                jit.batch_play(
                    self.states, self._found, self.streams, self.cfg, *scratch, self._returns, self._ends
                )
        if bad.size:
            row = int(bad[0])
            raise IllegalMoveError(
                f"row {row}: action {int(chosen[row])} is not legal there; its legal actions are "
                f"{np.flatnonzero(self.legal_mask()[row]).tolist()}"
            )
        return self._returns.astype(np.float32), self._ends == 1, self._ends == 2

    def observe(self) -> NDArray[np.float32]:
        """Each row's observation from its seat to move (seat 0 once over), ``(size, planes, goal + 1)``."""
        out = np.empty((self.size, *self.sho.observation_shape), dtype=np.float32)
        with compiled_threads(self._threads()):
            jit.batch_observe(self.states, self.cfg, out)
        return out

    def legal_mask(self) -> NDArray[np.bool_]:
        """Each row's legal action ids, ``(size, num_distinct_actions)``; all false once over.

        Raises:
            ValueError: a row's legal move lies beyond the numbering (more pa ra in a turn than it counts).
        """
        mask = np.empty((self.size, self.sho.num_distinct_actions), dtype=np.bool_)
        beyond = np.empty(self.size, dtype=np.bool_)
        with compiled_threads(self._threads()) as threads:
            jit.batch_legal_mask(self.states, self.cfg, self.codes, *self._scratch(threads), mask, beyond)
        if beyond.any():
            row = int(np.flatnonzero(beyond)[0])
            raise ValueError(f"row {row}: a legal move lies beyond the action numbering ({self.state(row)})")
        return mask

    def to_move(self) -> NDArray[np.int64]:
        """Each row's seat to move, or -1 once its game is over."""
        over = (self.states[:, jit.S_WINNER] >= 0) | (self.states[:, jit.S_TURNS] >= self.cfg[C_MAX_TURNS])
        seats: NDArray[np.int64] = np.where(over, -1, self.states[:, jit.S_SEAT])
        return seats

    def state(self, row: int) -> ShoState:
        """The reference state of one row."""
        if not 0 <= row < self.size:
            raise IndexError(f"row {row} is not in a batch of {self.size}")
        assert isinstance(self.kernel, ShoKernel)
        return self.kernel.decode(self.states[row])


DEFAULT_ALPHABETA_NODES = 1_000_000
"""The alpha-beta's budget when a search is given neither nodes nor seconds."""


class ShoAlphaBeta(CompiledAlphaBeta[ShoKernel, ShoMove]):
    """Compiled alpha-beta for Sho: expectimax over the throws, paranoid for three or four players.

    The search of the ``alphabeta`` agent (:class:`~shogames.agents.alphabeta.AlphaBetaAgent`),
    compiled: values are the searching seat's return (the returns at the end, a win worth ``1e-4`` less
    per ply; the evaluation at the horizon); a throw is the probability-weighted mean of its 21 outcomes
    (expectiminimax, Michie 1966) and does not use up depth unless it follows another throw; the seat to
    move at the root maximises and every other seat minimises its value, a coalition against it (the
    paranoid reduction, Sturtevant & Korf 2000; with teams the partner is in the coalition too, as in the
    agent). Iterative deepening with the previous iteration's values ordering the root; below it the
    table's move (a 64-bit hash of the whole position) and the history heuristic order moves. The table
    only orders moves, it never cuts, so the value at each depth is the exact depth-limited value; it and
    the history are kept between searches (cleared by :meth:`reset`).

    With ``maxn`` the seats do not gang up: each picks what is best for itself (max-n, Luckhardt & Irani
    1986, :func:`~shogames.games.sho._jit.maxn_value`), with nothing pruned; with two players it is the same
    search as the paranoid one.

    Args:
        kernel: the Sho kernel.
        seed: orders the root moves before the first iteration (ties); ``None`` keeps the legal order.
        depth: the deepest iteration, in decisions.
        table_bits: the table has ``2 ** table_bits`` entries (16 bytes each).
        maxn: search max-n rather than paranoid.
        star: search each throw's outcomes in Star1's windows (the same values in fewer positions).
    """

    chance_hint = "throw the dice first"

    def __init__(
        self,
        kernel: ShoKernel,
        *,
        seed: int | None = None,
        depth: int = 64,
        table_bits: int = 18,
        maxn: bool = False,
        star: bool = False,
    ):
        super().__init__(kernel, seed=seed, depth=depth)
        self.maxn = maxn
        """Whether each seat maximises its own value (max-n) instead of all against the searcher."""
        self.star = star
        """Whether the throws' outcomes are searched in Star1's windows."""
        self._tt_keys = np.zeros(1 << table_bits, dtype=np.uint64)
        self._tt_moves = np.full(1 << table_bits, -1, dtype=np.int64)
        self._history = np.zeros(1 << jit.HISTORY_BITS, dtype=np.int64)

    def reset(self) -> None:
        """Clear the table and the history."""
        self._tt_keys[:] = 0
        self._tt_moves[:] = -1
        self._history[:] = 0

    def run(
        self, state: State[Any], codes: NDArray[np.int64], depth: int, budget: Limits, out: Scores
    ) -> tuple[int, float]:
        """The compiled search (:func:`shogames.games.sho._jit.alphabeta`)."""
        kernel = self.kernel
        index, value = jit.alphabeta(
            kernel.encode(state), codes, depth, *budget, kernel.cfg, kernel.reach, kernel._work,
            self._tt_keys, self._tt_moves, self._history, *out, self.maxn, self.star,
        )  # fmt: skip
        return int(index), float(value)


class ShoMCTS(CompiledMCTS[ShoKernel, ShoMove]):
    """Compiled UCT for Sho (:class:`~shogames.kernels.search.CompiledMCTS`).

    Max^n over two to four seats (each selects by its own mean); a throw, or the draw of the first
    seat, is sampled with its exact chance.
    """

    chance_hint = "throw the dice first"

    def run(self, state: State[Any], codes: NDArray[np.int64], budget: Budget, out: Outputs) -> int:
        """The compiled loop (:func:`shogames.games.sho._jit.mcts`)."""
        kernel = self.kernel
        root = kernel.encode(state)
        rules = (kernel.cfg, kernel.reach, kernel._work)
        return self.call_loop(jit.mcts, (root, codes), budget, rules, root, out)


class ShoRollouts(CompiledRollouts[ShoKernel, ShoMove]):
    """Compiled Monte Carlo rollouts for Sho (:class:`~shogames.kernels.search.CompiledRollouts`).

    Every seat of a playout plays the move whose position Sho's evaluation values best for it, so with
    three or four players each seat plays for itself (as max-n does); a throw is two independent dice.
    """

    chance_hint = "throw the dice first"

    def run(
        self, state: State[Any], codes: NDArray[np.int64], playouts: int, seconds: float, seed: np.uint64,
        out: RolloutOutputs,
    ) -> int:  # fmt: skip
        """The compiled rollouts (:func:`shogames.games.sho._jit.rollouts`)."""
        kernel = self.kernel
        root = kernel.encode(state)
        rules = (kernel.cfg, kernel.reach, kernel._work)
        return int(jit.rollouts(root, codes, playouts, seconds, seed, *rules, *out))


def make_kernel(game: Game[Any]) -> ShoKernel | None:
    """The Sho kernel for ``game``'s settings (``None`` only for a game that is not Sho)."""
    if not isinstance(game, ShoGame):
        return None
    return ShoKernel(game)
