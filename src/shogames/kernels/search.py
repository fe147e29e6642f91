"""What every kernel's compiled searches do in Python around their compiled loops.

:class:`CompiledMCTS` checks the position, plays a move that wins at once without searching (decisive
moves), sets the default budget, makes the result buffers, lends the compiled loop the memory of the
kernel's last tree, calls it (:meth:`CompiledMCTS.run`) and builds the
:class:`~shogames.core.kernel.SearchResult`. :class:`CompiledAlphaBeta` does the same for an
alpha-beta (the root moves ordered by the seed, its default budget, the scores and depth), and
:class:`CompiledRollouts` for Monte Carlo rollouts (the seed of the dice, each move's mean and playouts).
A game's searcher subclasses one and gives only ``run`` (and, where it has a faster way, how it finds the root
moves and a winning move).
"""

from __future__ import annotations

import time
import weakref
from abc import abstractmethod
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from shogames.core.kernel import Kernel, Searcher, SearchResult
from shogames.core.protocol import MoveT, State
from shogames.kernels import common

KernelT = TypeVar("KernelT", bound=Kernel[Any, Any])

Tree = tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64], NDArray[Any]]
"""The room for an MCTS tree: (links, values, pool, positions), as ``common.new_tree`` makes it."""

KEEP_TREE_BYTES = 256 << 20
"""A tree's room up to this size is kept for the kernel's next search (larger ones are let go)."""

Outputs = tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]]
"""What a compiled MCTS fills: each root move's visits, each root move's mean value, (simulations, nodes)."""
Scores = tuple[NDArray[np.float64], NDArray[np.int64]]
"""What a compiled alpha-beta fills: each root move's score, (nodes, depth completed)."""
Limits = tuple[int, float]
"""An alpha-beta's budget: (nodes, seconds), 0 for no limit."""


class Budget(NamedTuple):
    """A search's budget and UCB1's constants, in the order the compiled loops take them."""

    simulations: int
    """The most simulations (0: no limit)."""
    seconds: float
    """The most seconds (0.0: no limit)."""
    c: float
    """UCB1's exploration constant."""
    seed: np.uint64
    """The seed of the compiled random stream."""
    low: float
    """The lowest return, which a mean value's scaling to 0..1 takes away first."""
    scale: float
    """1 / (highest return - lowest return)."""


_TREES: weakref.WeakKeyDictionary[Kernel[Any, Any], Tree] = weakref.WeakKeyDictionary()

DEFAULT_MCTS_SIMULATIONS = 10_000
"""Simulations of an MCTS search given neither a work nor a time budget."""
DEFAULT_ALPHABETA_NODES = 1_000_000
"""Positions of an alpha-beta search given neither a work nor a time budget."""


def first_winning_move(kernel: Kernel[Any, Any], state: State[Any], moves: list[Any]) -> int:
    """The index in ``moves`` of the first that wins at once for the seat to move at ``state``, or -1."""
    seat = state.to_move
    assert seat is not None
    best = state.game.max_utility
    for index, move in enumerate(moves):
        after = kernel.play(state, move)
        if after.is_terminal() and after.returns()[seat] >= best:
            return index
    return -1


def root_codes(kernel: Kernel[Any, Any], state: State[Any], chance_hint: str) -> NDArray[np.int64]:
    """The codes of the legal moves at ``state``, in the kernel's order, for a search from there.

    Raises:
        ValueError: the game is over, or chance (not a seat) is to move (``chance_hint`` says what to do).
    """
    seat = state.to_move
    if seat is None:
        raise ValueError("no legal moves: the game is over")
    if seat < 0:
        raise ValueError(f"the searcher chooses a seat's move; {chance_hint}")
    return np.array([kernel.encode_move(move) for move in kernel.legal_moves(state)], dtype=np.int64)


class CompiledAlphaBeta(Searcher[MoveT], Generic[KernelT, MoveT]):
    """A kernel's compiled alpha-beta: iterative deepening to a work or time budget, as ``alphabeta``.

    The search of the ``alphabeta`` agent (``shogames.agents.alphabeta``: values for the seat to move,
    the returns at the end with a win worth ``1e-4`` less per ply, the evaluation at the horizon, the
    previous iteration's best move kept when the budget runs out, an early stop on a forced result),
    compiled. This class orders the root moves (by ``seed``), sets the default budget and builds the
    :class:`~shogames.core.kernel.SearchResult`; a game's subclass gives :meth:`run`.

    Args:
        kernel: the game's kernel.
        seed: orders the root moves before the first iteration (ties); ``None`` keeps the legal order.
        depth: the deepest iteration.
    """

    chance_hint: str = "play the chance move first"
    """What the error says to do when chance, not a seat, is to move at the root."""

    def __init__(self, kernel: KernelT, *, seed: int | None = None, depth: int = 64) -> None:
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.kernel = kernel
        self.depth = depth
        self.rng = np.random.default_rng(seed) if seed is not None else None

    def root_codes(self, state: State[Any]) -> NDArray[np.int64]:
        """The legal move codes at ``state`` (a copy the search may reorder)."""
        return root_codes(self.kernel, state, self.chance_hint)

    @abstractmethod
    def run(
        self, state: State[Any], codes: NDArray[np.int64], depth: int, budget: Limits, out: Scores
    ) -> tuple[int, float]:
        """Run the compiled search over the root moves ``codes``; returns (the best's index, its value).

        Args:
            state: the root (a seat to move, not over).
            codes: the root moves' codes, in the order that breaks ties.
            depth: the deepest iteration.
            budget: (nodes, seconds); 0 for no limit.
            out: filled with each root move's score (in the deepest completed iteration) and with
                (nodes, depth completed).
        """

    def search(self, state: State[Any], *, work: int = 0, seconds: float = 0.0) -> SearchResult[MoveT]:
        """Deepen until ``depth``, ``work`` nodes or ``seconds`` (with neither: 1,000,000 nodes).

        Raises:
            ValueError: the game is over, or chance (not a seat) is to move.
        """
        codes = self.root_codes(state)
        if self.rng is not None:
            self.rng.shuffle(codes)
        if work <= 0 and seconds <= 0:
            work = DEFAULT_ALPHABETA_NODES
        scores = np.zeros(codes.shape[0], dtype=np.float64)
        stats = np.zeros(2, dtype=np.int64)
        started = time.perf_counter()
        index, value = self.run(state, codes, self.depth, (work, float(seconds)), (scores, stats))
        elapsed = time.perf_counter() - started
        moves: list[MoveT] = [self.kernel.decode_move(int(code)) for code in codes]
        return SearchResult(
            move=moves[index],
            value=value,
            nodes=int(stats[0]),
            seconds=elapsed,
            depth=int(stats[1]),
            scores={move: float(score) for move, score in zip(moves, scores, strict=True)},
        )

    def value_of(self, state: State[Any], move: MoveT, *, depth: int) -> float:
        """``move``'s value at ``state``, ``depth`` decisions deep, with ``move`` alone at the root.

        With one root move nothing is cut at the root, and no budget stops the deepening, so the value is
        exact at that depth (the analysis compares the best move and the move played by it).

        Raises:
            ValueError: ``depth`` < 1, the game is over, chance is to move, or ``move`` is not legal.
        """
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        codes = self.root_codes(state)
        code = self.kernel.encode_move(move)
        if move not in self.kernel.legal_moves(state) or code not in codes:
            raise ValueError(f"{state.move_to_text(move)} is not a legal move here")
        scores = np.zeros(1, dtype=np.float64)
        stats = np.zeros(2, dtype=np.int64)
        _, value = self.run(state, np.array([code], dtype=np.int64), depth, (0, 0.0), (scores, stats))
        return value


class TableAlphaBeta(CompiledAlphaBeta[KernelT, MoveT]):
    """A :class:`CompiledAlphaBeta` with a transposition table and a history heuristic kept between searches.

    The table is ``2 ** table_bits`` entries, or with ``table_mb`` > 0 the most (a power of two, at
    least 1,024) that fit in that many MiB: keys (``key_words`` of ``key_dtype`` each), an info word
    (the game's packing of bound, depth and generation), the best move where the game keeps it apart
    (``with_move``), and the value; the history heuristic is ``history_size`` counters. Each search
    takes a new generation (:meth:`tables`), so the entries of an earlier search only order moves.
    """

    def __init__(
        self, kernel: KernelT, *, seed: int | None, depth: int, table_bits: int, key_words: int,
        key_dtype: type[np.integer[Any]], history_size: int, with_move: bool = False, table_mb: int = 0,
    ) -> None:  # fmt: skip
        super().__init__(kernel, seed=seed, depth=depth)
        if table_mb > 0:
            entry_bytes = key_words * np.dtype(key_dtype).itemsize + 8 * (2 + with_move)
            table_bits = max(10, ((table_mb << 20) // entry_bytes).bit_length() - 1)
        size = 1 << table_bits
        self._tt_keys = np.zeros((size, key_words), dtype=key_dtype)
        self._tt_info = np.zeros(size, dtype=np.int64)
        self._tt_move = np.zeros(size if with_move else 0, dtype=np.int64)
        self._tt_value = np.zeros(size, dtype=np.float64)
        self._history = np.zeros(history_size, dtype=np.int64)
        self._generation = 0

    def reset(self) -> None:
        """Clear the table and the history."""
        self._tt_keys[:] = 0
        self._tt_info[:] = 0
        self._history[:] = 0
        self._generation = 0

    def tables(self) -> tuple[NDArray[Any], NDArray[np.int64], NDArray[np.float64], NDArray[np.int64], int]:
        """For the next search: (keys, info, values, history, its new generation); moves: ``_tt_move``."""
        self._generation = (self._generation + 1) & 0xFFFFFF
        return (self._tt_keys, self._tt_info, self._tt_value, self._history, self._generation)


class CompiledMCTS(Searcher[MoveT], Generic[KernelT, MoveT]):
    """A kernel's compiled UCT with the evaluation at the leaves, as ``mcts:rollout=0``.

    The search of ``shogames.agents.mcts`` with ``rollout=0`` (Kocsis & Szepesvári 2006; the
    evaluation in place of rollouts, Lorentz 2016): every node sums each seat's values and the seat to
    move selects by its own mean scaled to 0..1 (max^n for more than two seats, Sturtevant 2008), a
    chance node's outcome is drawn with its exact probability (sampled chance nodes), each node's moves
    are tried in a shuffled order, one new node per simulation, and a move that wins at once is played
    without searching. The tree is built afresh for each search (its memory is used again).

    Args:
        kernel: the game's kernel.
        seed: the seed of the move orders and the chance outcomes drawn; ``None`` draws one.
        c: the exploration constant of UCB1 (values scaled to 0..1).
    """

    chance_hint: str = "play the chance move first"
    """What the error says to do when chance, not a seat, is to move at the root."""
    width: int = 32
    """Room in the tree's pool per node at the start (about the moves of a position)."""
    capacity: int = 1 << 14
    """Room for nodes at the start of a search with no simulation budget (a time budget alone)."""

    def __init__(self, kernel: KernelT, *, seed: int | None = None, c: float = 1.0) -> None:
        self.kernel = kernel
        self.c = c
        self.rng = np.random.default_rng(seed)

    def root_moves(self, state: State[Any]) -> tuple[list[MoveT], NDArray[np.int64]]:
        """The legal moves at ``state`` and their codes, in the kernel's order.

        Raises:
            ValueError: the game is over, or chance (not a seat) is to move.
        """
        codes = root_codes(self.kernel, state, self.chance_hint)
        return [self.kernel.decode_move(int(code)) for code in codes], codes

    def winning_move(self, state: State[Any], moves: list[MoveT], codes: NDArray[np.int64]) -> int:
        """The index of the first move that wins at once for the seat to move, or -1."""
        return first_winning_move(self.kernel, state, moves)

    def tree(self, simulations: int, position: NDArray[Any]) -> Tree:
        """Room for the tree of a search: the kernel's last one where it fits, else new.

        The tree's arrays are used again from one search to the next (not what they hold: each
        search builds its tree afresh), because writing to new memory costs a page fault per page.
        """
        seats = self.kernel.game.num_players
        capacity = simulations + 2 if simulations > 0 else self.capacity
        held = _TREES.pop(self.kernel, None)
        if held is not None and held[0].shape[0] >= capacity and held[3].shape[1] == position.shape[0]:
            return held
        return common.new_tree(capacity, seats, self.width, position)  # type: ignore[no-any-return]

    def call_loop(
        self, loop: Callable[..., tuple[Any, Tree]], root: tuple[Any, ...], budget: Budget,
        rules: tuple[Any, ...], position: NDArray[Any], out: Outputs,
    ) -> int:  # fmt: skip
        """Call a game's compiled loop as ``loop(*root, *budget, *rules, tree, *out)``; its chosen index.

        The tree is :meth:`tree`'s room for a position like ``position``, kept afterwards (:meth:`keep`).
        """
        index, tree = loop(*root, *budget, *rules, self.tree(budget.simulations, position), *out)
        self.keep(tree)
        return int(index)

    def keep(self, tree: Tree) -> None:
        """Keep a search's tree for the kernel's next search (unless over :data:`KEEP_TREE_BYTES`)."""
        if sum(array.nbytes for array in tree) <= KEEP_TREE_BYTES:
            _TREES[self.kernel] = tree

    @abstractmethod
    def run(self, state: State[Any], codes: NDArray[np.int64], budget: Budget, out: Outputs) -> int:
        """Run the compiled search (with :meth:`tree` and :meth:`keep`); returns the chosen move's index.

        Args:
            state: the root (a seat to move, not over).
            codes: the root moves' codes, in the order of the results.
            budget: the simulations, seconds and seed, and UCB1's constants.
            out: filled with each root move's simulations and mean value for the seat to move, and
                (simulations, nodes).
        """

    def search(self, state: State[Any], *, work: int = 0, seconds: float = 0.0) -> SearchResult[MoveT]:
        """Run ``work`` simulations or for ``seconds`` (with neither: 10,000 simulations).

        Raises:
            ValueError: the game is over, or chance (not a seat) is to move.
        """
        moves, codes = self.root_moves(state)
        started = time.perf_counter()
        winning = self.winning_move(state, moves, codes)
        if winning >= 0:
            return SearchResult(moves[winning], 1.0, 0, time.perf_counter() - started)
        if work <= 0 and seconds <= 0:
            work = DEFAULT_MCTS_SIMULATIONS
        visits = np.zeros(len(moves), dtype=np.int64)
        values = np.zeros(len(moves), dtype=np.float64)
        stats = np.zeros(2, dtype=np.int64)
        game = self.kernel.game
        budget = Budget(
            work,
            float(seconds),
            self.c,
            np.uint64(self.rng.integers(0, 2**63)),
            game.min_utility,
            1.0 / (game.max_utility - game.min_utility),
        )
        index = self.run(state, codes, budget, (visits, values, stats))
        elapsed = time.perf_counter() - started
        return SearchResult(
            move=moves[index],
            value=float(values[index]),
            nodes=int(stats[0]),
            seconds=elapsed,
            scores={move: float(value) for move, value, n in zip(moves, values, visits, strict=True) if n},
            visits={move: int(n) for move, n in zip(moves, visits, strict=True) if n},
        )


DEFAULT_ROLLOUTS = 4_000
"""Playouts of a rollout search given neither a work nor a time budget."""

RolloutOutputs = tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]
"""What a compiled rollout search fills: each root move's mean return, its playouts, (playouts, plies)."""


class CompiledRollouts(Searcher[MoveT], Generic[KernelT, MoveT]):
    """A kernel's compiled Monte Carlo rollouts: each root move valued by greedy playouts to the end.

    Each root move's value is the mean return, for the seat to move, of playouts to the end of the game
    in which every seat plays one move ahead on the evaluation (Tesauro & Galperin 1996: rollouts of a
    base policy improve on it); every move's playouts throw the same dice (common random numbers), and
    the budget is shared by sequential halving (Karnin, Koren & Somekh 2013), so that the moves close
    to the best get most of it. A move that wins at once is played without playouts, and a position with
    one legal move is not searched. The game's kernel gives the compiled loop (:meth:`run`).

    Args:
        kernel: the game's kernel.
        seed: the seed of each search's dice; ``None`` draws one.
    """

    chance_hint: str = "play the chance move first"
    """What the error says to do when chance, not a seat, is to move at the root."""

    def __init__(self, kernel: KernelT, *, seed: int | None = None) -> None:
        self.kernel = kernel
        self.rng = np.random.default_rng(seed)
        self.last_seed: int | None = None
        """The seed of the last search's dice: its playout ``k`` after a root move is the kernel's
        ``greedy_game(after, seed=last_seed, index=k)`` (:meth:`Kernel.greedy_game
        <shogames.core.kernel.Kernel.greedy_game>`); ``None`` before a search that played out."""

    @abstractmethod
    def run(
        self, state: State[Any], codes: NDArray[np.int64], playouts: int, seconds: float, seed: np.uint64,
        out: RolloutOutputs,
    ) -> int:  # fmt: skip
        """Run the compiled rollouts; returns the chosen move's index.

        Args:
            state: the root (a seat to move, not over).
            codes: the root moves' codes, in the order of the results.
            playouts: the playouts of the whole decision (0: until ``seconds``).
            seconds: the most seconds (0.0: no limit).
            seed: the seed of the dice.
            out: filled with each root move's mean return and playouts, and (playouts, plies).
        """

    def search(self, state: State[Any], *, work: int = 0, seconds: float = 0.0) -> SearchResult[MoveT]:
        """Play ``work`` playouts in all, or for ``seconds`` (with neither: 4,000 playouts).

        Raises:
            ValueError: the game is over, or chance (not a seat) is to move.
        """
        codes = root_codes(self.kernel, state, self.chance_hint)
        moves: list[MoveT] = [self.kernel.decode_move(int(code)) for code in codes]
        started = time.perf_counter()
        seed = np.uint64(self.rng.integers(0, 2**63))
        self.last_seed = None
        winning = first_winning_move(self.kernel, state, moves)
        if winning >= 0:
            return SearchResult(moves[winning], 1.0, 0, time.perf_counter() - started)
        if len(moves) == 1:
            return SearchResult(moves[0], 0.0, 0, time.perf_counter() - started)
        if work <= 0 and seconds <= 0:
            work = DEFAULT_ROLLOUTS
        means = np.zeros(len(moves), dtype=np.float64)
        counts = np.zeros(len(moves), dtype=np.int64)
        stats = np.zeros(2, dtype=np.int64)
        index = self.run(state, codes, work, float(seconds), seed, (means, counts, stats))
        self.last_seed = int(seed)
        return SearchResult(
            move=moves[index],
            value=float(means[index]),
            nodes=int(stats[0]),
            seconds=time.perf_counter() - started,
            scores={move: float(mean) for move, mean, n in zip(moves, means, counts, strict=True) if n},
            visits={move: int(n) for move, n in zip(moves, counts, strict=True) if n},
        )
