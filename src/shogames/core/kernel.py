"""Compiled kernels: the fast path a game may offer, behind one interface (``docs/kernels.md``).

A game's pure-Python engine is the reference of its rules. A *kernel* is a second implementation of the
same rules, compiled (numba), that runs whole loops (random playouts, perft, searches) without coming
back to Python. A game offers one by naming the module that builds it in :attr:`Game.kernel_module
<shogames.core.protocol.Game.kernel_module>`; :attr:`Game.kernel <shogames.core.protocol.Game.kernel>`
then gives the kernel for the game's settings, or ``None`` when the game has none. Nothing is imported
or compiled before a kernel is first asked for, so ``import shogames`` and the CLI stay quick; compiled
code is cached on disk (numba's ``cache=True``), and only the first run on a machine pays for compiling.

Callers never need per-game code: agents, the arena, ``shogames perft`` and ``shogames bench`` ask
``game.kernel`` and use the interface below.

>>> from shogames import make
>>> kernel = make("shobu").kernel
>>> kernel is None or kernel.perft(kernel.game.new_initial_state(), 2) == 50508
True

What a kernel gives (every method takes and returns reference states and moves; the array form is
there for batch and research use):

- :meth:`Kernel.encode` / :meth:`Kernel.decode`: a state to the kernel's array and back.
- :meth:`Kernel.legal_moves`, :meth:`Kernel.play`, :meth:`Kernel.outcome`, :meth:`Kernel.evaluate`: the
  rules one position at a time, as the kernel computes them (for the differential tests and for
  callers that want them).
- :meth:`Kernel.perft`: leaves to a depth, with or without bulk counting of the last level.
- :meth:`Kernel.random_playouts`: a batch of seeded random games run entirely in compiled code.
- :meth:`Kernel.alphabeta` and :meth:`Kernel.mcts`: searchers that take a position and a budget and return
  a move with statistics (:class:`SearchResult`).
"""

from __future__ import annotations

import importlib
import os
import random
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from shogames.core.errors import SettingsError
from shogames.core.protocol import CHANCE, Game, MoveT, State

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

StateT_co = TypeVar("StateT_co", bound=State[Any], covariant=True)

KERNELS_ENV: str = "SHOGAMES_KERNELS"
"""Environment variable: set it to ``0`` to turn every kernel off (``Game.kernel`` is then ``None``)."""


INT_LIMIT: int = 2**62
"""A game whose settings hold an integer this large or larger (``max_turns``) gets no kernel: the kernels
count in 64-bit integers, and a cap that large is never reached anyway, so the reference loses nothing."""


class KernelUnavailableError(SettingsError):
    """A kernel was asked for (a kernel agent, ``--kernel``) where the game has none here."""


@dataclass(frozen=True, slots=True)
class PlayoutBatch:
    """The results of a batch of random games played by a kernel.

    Attributes:
        returns: one row per game, one column per seat: the final returns (0 for a truncated game).
        plies: how many moves each game took.
        seconds: the wall-clock time the batch took, compiled loop only.
    """

    returns: NDArray[np.float64]
    plies: NDArray[np.int64]
    seconds: float

    @property
    def games(self) -> int:
        """How many games were played."""
        return int(self.plies.shape[0])

    @property
    def total_plies(self) -> int:
        """The moves of every game together."""
        return int(self.plies.sum())

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def plies_per_second(self) -> float:
        """Moves per second of wall-clock time."""
        return self.total_plies / self.seconds if self.seconds > 0 else float("inf")


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[MoveT]):
    """What a kernel search found, with its statistics.

    Attributes:
        move: the move chosen.
        value: its value for the seat to move, from -1 (lost) to 1 (won): the search's backed-up value
            (alpha-beta) or the chosen move's mean value (MCTS).
        nodes: positions searched (alpha-beta: calls of the search, leaves included) or simulations (MCTS).
        seconds: the wall-clock time of the search.
        depth: the deepest completed iteration (alpha-beta); 0 for MCTS.
        scores: each root move's value for the seat to move. Alpha-beta: in the deepest completed
            iteration, where a move cut off has only an upper bound; MCTS: the mean value of its visits.
        visits: MCTS only: the simulations through each root move.
    """

    move: MoveT
    value: float
    nodes: int
    seconds: float
    depth: int = 0
    scores: dict[MoveT, float] = field(default_factory=dict)
    visits: dict[MoveT, int] = field(default_factory=dict)

    @property
    def nodes_per_second(self) -> float:
        """Positions (or simulations) per second of wall-clock time."""
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


@dataclass(frozen=True)
class SearchOptions:
    """What a compiled alpha-beta does beyond the plain search (each measured in ``docs/strength.md``).

    The plain search (every option off) is the search the ladder's older levels and "today's best"
    were measured with; a kernel lists the options its alpha-beta honours in
    :attr:`Kernel.search_options`, and refuses others (:meth:`Kernel.check_search_options`).
    """

    pvs: bool = False
    """Principal variation search: every move after a node's first is searched with a null window, and
    again with the full window only where it beats the best so far."""
    killers: bool = False
    """Killer moves: the last two quiet moves that cut off at a ply are tried first of its quiet moves."""
    quiescence: int = 0
    """Plies of captures searched past the horizon (0: none), each side free to stand on the evaluation."""
    table_mb: int = 0
    """The transposition table's size in MiB (0: the searcher's default)."""
    reductions: bool = False
    """Late move reductions: a node's late quiet moves are searched a ply shallower first, and in full only
    where that beats the best so far."""
    aspiration: bool = False
    """Aspiration windows: each iteration after the first searches the root in a narrow window around the
    last iteration's value, opening it only on the side where the value falls outside."""
    extend: int = 1
    """How many times its node budget a search may spend while its best move is still changing (1: never
    past the budget): past the budget it finishes the iteration, and starts another only where that
    iteration changed the best move."""
    turns: bool = False
    """Depth counts whole turns, not moves, in a game whose turn may take several moves (Shogammon's two
    dice): the horizon falls only where a turn has ended, so every leaf is valued at the same point of a
    turn, as backgammon programs count their plies."""
    star: bool = False
    """Star1 pruning at the chance nodes of a game with dice (Ballard 1983): each outcome is searched in the
    window its value must fall in for the outcomes' mean to fall inside the node's, given the bounds of
    every value, and the node is cut off as soon as the mean cannot; the values are those of the plain
    search, found in fewer positions."""
    maxn: bool = False
    """With three or more players, each seat picks what is best for itself (max-n, Luckhardt & Irani 1986)
    rather than every other seat playing against the searcher (the paranoid reduction); nothing is
    pruned then."""
    material_scale: float = 0.0
    """The hand-written evaluation's material scale (0: the game's own): in Shogammon the ``S`` of
    ``0.95 * tanh(d / S)`` for a material difference ``d``. A larger scale values material closer to
    linearly and makes a piece worth less beside a taken king, so that the chance nodes average values
    nearer to the results they promise."""
    move_filter: int = 0
    """At each decision with at least two moves of depth left, search only this many of its moves: those
    whose positions the hand-written evaluation values best for the side to move (0: every move), as
    backgammon programs filter their candidate moves before searching deeper (gnubg's move filters).
    Each position so valued counts as one of the search's positions. The root's moves are all searched."""

    null_move: int = 0
    """Null move pruning with this reduction in plies (0: none): at a node off the principal variation
    whose evaluation already reaches the bound that would cut it off, the side to move first passes,
    and where a search of the opponent's reply this many plies shallower still cannot bring the value
    below that bound, the node is cut off unsearched (as chess engines do; Shobu has no passing, so the
    pass is the search's device, never a move it plays). The nodes off the principal variation are
    those searched with a null window, so it prunes only with :attr:`pvs`."""

    def asked(self) -> list[str]:
        """The names of the options that differ from the plain search."""
        return [name for name, value in vars(self).items() if value != getattr(PLAIN_SEARCH, name)]


PLAIN_SEARCH = SearchOptions()
"""Every option off: the plain alpha-beta."""


class Searcher(ABC, Generic[MoveT]):
    """A kernel's search of one kind, keeping what it learns (tables) between calls of one game."""

    @abstractmethod
    def search(self, state: State[MoveT], *, work: int = 0, seconds: float = 0.0) -> SearchResult[MoveT]:
        """Search ``state`` (not over, a seat to move) within a budget and return the best move.

        Args:
            state: the position, a reference state of the kernel's game and settings.
            work: the most nodes (alpha-beta) or simulations (MCTS); 0 for no limit.
            seconds: the most wall-clock seconds; 0 for no limit. With neither, each searcher has its
                documented default.

        Raises:
            ValueError: the game is over at ``state``.
        """

    def value_of(self, state: State[MoveT], move: MoveT, *, depth: int) -> float | None:
        """The value of playing ``move`` at ``state``, searched ``depth`` decisions deep with no other budget.

        The value is exact to that depth (the root holds ``move`` alone, so nothing is cut there), for
        the seat to move at ``state``, on :attr:`SearchResult.value`'s scale: what an analysis compares
        the move played with the best move by. ``None`` where this searcher cannot search one root move
        alone (MCTS); the alpha-beta searchers can.

        Raises:
            ValueError: the game is over at ``state``, ``move`` is not legal there, or ``depth`` < 1.
        """
        return None

    def reset(self) -> None:
        """Forget what was learnt (tables, history) before a new game."""


class BatchGames(ABC, Generic[StateT_co]):
    """Many games of one game and settings, held in a kernel's arrays and stepped together by compiled code.

    The batched environment (:class:`shogames.envs.BatchEnv`) is built on it. Row ``i`` is game ``i``.
    Chance is sampled inside, from a stream of random numbers per row that depends only on the seed and
    the row, so a row plays the same game whatever the batch's size or the threads: after :meth:`reset` and
    after every :meth:`step` each row is at a decision of a seat or at the end of its game. Actions are the
    protocol's action ids (:meth:`shogames.core.protocol.State.move_to_action`), and the observations and
    masks equal the reference's :meth:`~shogames.core.protocol.State.observation_tensor` and
    :meth:`~shogames.core.protocol.State.legal_action_mask` (``tests/test_batch.py`` checks it).

    Args:
        kernel: the game's kernel.
        size: how many games, 1 or more.
        seed: the seed of every row's chance.
    """

    def __init__(self, kernel: Kernel[StateT_co, Any], size: int, seed: int) -> None:
        if size < 1:
            raise ValueError(f"a batch holds 1 or more games, got {size}")
        self.kernel = kernel
        self.size = size
        self.seed = seed

    @abstractmethod
    def reset(self, rows: NDArray[np.bool_]) -> None:
        """Start a new game in every row where ``rows`` is true (then sample chance up to a decision)."""

    @abstractmethod
    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Play each row's action, a legal action id of its seat to move, then chance up to a decision.

        Rows whose game is over are left as they are (their action is ignored).

        Returns:
            ``(returns, terminated, truncated)``: every seat's return in the rows whose game ended in
            this step (shape ``(size, players)``, zeros elsewhere), whether it ended by the rules, and
            whether the length cap cut it.
        """

    @abstractmethod
    def observe(self) -> NDArray[np.float32]:
        """Each row's observation from the view of its seat to move (seat 0 once over).

        The shape is ``(size, *observation_shape)``.
        """

    @abstractmethod
    def legal_mask(self) -> NDArray[np.bool_]:
        """Each row's legal actions, shape ``(size, num_distinct_actions)``; all false once over."""

    @abstractmethod
    def to_move(self) -> NDArray[np.int64]:
        """Each row's seat to move, or -1 once its game is over."""

    @abstractmethod
    def state(self, row: int) -> StateT_co:
        """The reference state of one row, for checks, records and pictures."""


class Kernel(ABC, Generic[StateT_co, MoveT]):
    """A game's compiled implementation of its rules and of the loops built on them.

    A kernel is made for one game with fixed settings (:attr:`game`) and plays exactly the reference's
    rules under those settings: the same legal moves in the same order, the same results, the same
    evaluation. ``tests/test_kernels.py`` checks that, position by position.

    Args:
        game: the game and settings the kernel plays.
    """

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    # --- Conversions ---------------------------------------------------------------------------------

    @abstractmethod
    def encode(self, state: State[MoveT]) -> NDArray[Any]:
        """The state as the kernel's flat array (``docs/kernels.md`` gives each game's layout)."""

    @abstractmethod
    def decode(self, array: NDArray[Any]) -> StateT_co:
        """The reference state of a kernel array made by :meth:`encode` or by the kernel's loops."""

    @abstractmethod
    def encode_move(self, move: MoveT) -> int:
        """A move as the kernel's integer code."""

    @abstractmethod
    def decode_move(self, code: int) -> MoveT:
        """The reference move of a kernel move code."""

    # --- The rules, one position at a time -----------------------------------------------------------

    @abstractmethod
    def legal_moves(self, state: State[MoveT]) -> list[MoveT]:
        """The legal moves as the kernel generates them, in its order (the reference's order)."""

    @abstractmethod
    def play(self, state: State[MoveT], move: MoveT) -> StateT_co:
        """The state after a legal ``move``, computed by the kernel."""

    @abstractmethod
    def outcome(self, state: State[MoveT]) -> tuple[float, ...] | None:
        """``None`` while the game goes on, else the returns, as the kernel judges them."""

    @abstractmethod
    def evaluate(self, state: State[MoveT]) -> tuple[float, ...]:
        """The kernel's evaluation: equal to the reference's :meth:`State.evaluate`."""

    # --- Whole loops ---------------------------------------------------------------------------------

    @abstractmethod
    def perft(self, state: State[MoveT], depth: int, *, bulk: bool = True, threads: int | None = None) -> int:
        """Leaves at exactly ``depth`` moves, as :func:`shogames.core.perft` counts them.

        Args:
            state: the position to count from.
            depth: 0 or more.
            bulk: count the last level's moves without making them (as the reference does); with
                ``False`` every leaf move is generated and played.
            threads: how many threads share the work (:func:`compiled_threads`: ``None`` every core,
                1 one thread); the count does not depend on it.

        Raises:
            ValueError: a negative depth.
        """

    @abstractmethod
    def random_playouts(
        self, games: int, *, seed: int = 0, start: State[MoveT] | None = None, threads: int | None = None
    ) -> PlayoutBatch:
        """Play ``games`` uniformly random games to the end inside compiled code.

        Game ``i`` of a batch depends only on ``seed`` and ``i``, so the first games of a larger batch
        are the games of a smaller one, and no game depends on how many threads played the batch.

        Args:
            games: how many games, 1 or more.
            seed: the seed of every choice.
            start: the position every game starts from; the initial state by default.
            threads: how many threads share the games (:func:`compiled_threads`: ``None`` every core,
                1 one thread).
        """

    @abstractmethod
    def random_game(self, *, seed: int = 0, start: State[MoveT] | None = None, index: int = 0) -> list[MoveT]:
        """The moves of game ``index`` of :meth:`random_playouts` with this seed and start, for replays."""

    # --- Searches ------------------------------------------------------------------------------------

    search_options: frozenset[str] = frozenset()
    """The :class:`SearchOptions` (by field name) this kernel's alpha-beta honours."""

    def switched_search_options(self) -> list[SearchOptions]:
        """For each on/off option of :attr:`search_options`, the plain search with that option on.

        :meth:`warm_up` searches with each, so that an option that runs compiled code of its own (Sho's
        max-n) is compiled before a player asks for it.
        """
        return [
            replace(PLAIN_SEARCH, **{name: True})
            for name in sorted(self.search_options)
            if isinstance(getattr(PLAIN_SEARCH, name), bool)
        ]

    def check_search_options(self, options: SearchOptions) -> None:
        """Refuse options this kernel's alpha-beta does not have.

        Raises:
            KernelUnavailableError: an option is set that is not in :attr:`search_options`; the message
                names it and what the kernel has.
        """
        missing = [name for name in options.asked() if name not in self.search_options]
        if missing:
            has = ", ".join(sorted(self.search_options)) or "none"
            raise KernelUnavailableError(
                f"the {self.game.name} kernel's alpha-beta has no {', '.join(missing)} (its options: {has})"
            )

    def alphabeta(
        self, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> Searcher[MoveT] | None:
        """A compiled alpha-beta searcher (``None`` when the kernel has none).

        Args:
            seed: orders equal root moves; ``None`` keeps the legal-move order.
            depth: the deepest iteration of iterative deepening.
            options: what it does beyond the plain search (see :attr:`search_options`).

        Raises:
            KernelUnavailableError: an option the kernel's alpha-beta does not have.
        """
        self.check_search_options(options)
        return None

    def learned_alphabeta(
        self, network: Any, *, seed: int | None = None, depth: int = 64, options: SearchOptions = PLAIN_SEARCH
    ) -> Searcher[MoveT] | None:
        """A compiled alpha-beta that values the horizon with a learned evaluation (``None``: it has none).

        ``None`` means the kernel cannot run a learned evaluation in its search.

        Args:
            network: a :class:`~shogames.learning.network.ValueNet` that reads this game's observation.
            seed: orders equal root moves; ``None`` keeps the legal-move order.
            depth: the deepest iteration of iterative deepening.
            options: what it does beyond the plain search (see :attr:`search_options`).
        """
        self.check_search_options(options)
        return None

    def mcts(self, *, seed: int | None = None, c: float = 1.0) -> Searcher[MoveT] | None:
        """A compiled MCTS searcher with the evaluation at the leaves (``None`` when the kernel has none).

        Args:
            seed: the seed of the move orders; ``None`` draws one.
            c: the exploration constant of UCB1.
        """
        return None

    def rollouts(self, *, seed: int | None = None) -> Searcher[MoveT] | None:
        """A compiled Monte Carlo rollout searcher (``None`` when the kernel has none).

        It values each root move by the mean return of playouts to the end in which every seat plays
        one move ahead on the evaluation; its work budget counts playouts.

        Args:
            seed: the seed of the dice its playouts throw; ``None`` draws one.
        """
        return None

    def greedy_game(
        self, state: State[MoveT], *, seed: int, index: int = 0
    ) -> tuple[list[MoveT], list[float]] | None:
        """Playout ``index`` of :meth:`rollouts` from ``state``: its moves (throws included) and returns.

        Every seat plays one move ahead on the evaluation, and the dice come from the stream of ``seed``
        and ``index``, as the rollouts' playout ``index`` after a root move does when the search's dice
        seed is ``seed`` (the searcher's ``last_seed``), so a search can be replayed playout by playout.
        ``None`` when the kernel has no rollouts.
        """
        return None

    def _warm_batch(self) -> None:
        """Step small and large batches twice (games split over threads from a few hundred rows)."""
        import numpy

        for size in (2, 1024):
            games = self.batch(size, seed=0)
            if games is None:
                return
            games.reset(numpy.ones(size, dtype=numpy.bool_))
            for _ in range(2):
                mask = games.legal_mask()
                games.observe()
                games.to_move()
                games.step(mask.argmax(axis=1).astype(numpy.int64))

    def batch(self, size: int, *, seed: int = 0) -> BatchGames[StateT_co] | None:
        """``size`` games held and stepped together in compiled code (``None`` when the kernel has none).

        Each starts at the initial state, chance sampled up to the first decision.
        """
        return None

    def holds(self, state: State[MoveT]) -> bool:
        """Whether the kernel's 64-bit integers can hold ``state``.

        Position texts may carry counts of up to 30 digits (a ply, a turn number), and the reference
        holds them as Python integers; the kernel's arrays hold numbers below ``2**63``. Callers that take
        positions from users ask first, and use the reference where this is ``False``.
        """
        try:
            self.encode(state)
        except OverflowError:
            return False
        return True

    def warm_up(self, *, batch: bool = False) -> float:
        """Compile (or load from the cache) every compiled function now; returns the seconds it took.

        Args:
            batch: also the compiled batch of games (:meth:`batch`), on one thread and on several; the
                server never uses it, so only ``shogames warm --batch`` asks for it.
        """
        started = time.perf_counter()
        if batch:
            self._warm_batch()
        state = self.game.new_initial_state()
        self.perft(state, 2)
        self.perft(state, 2, bulk=False)
        self.random_playouts(1)
        self.legal_moves(state)
        self.play(state, state.legal_moves()[0])
        self.evaluate(state)
        self.outcome(state)
        decision, rng = state, random.Random(0)
        for _ in range(1000):  # past the dice (chosen at random: a first outcome may repeat forever)
            if decision.is_terminal() or (decision.to_move is not None and decision.to_move >= 0):
                break
            decision = decision.play_unchecked(rng.choice(decision.legal_moves()))
        searchers = [self.alphabeta(seed=0, depth=1), self.mcts(seed=0), self.rollouts(seed=0)]
        searchers += [self.alphabeta(seed=0, depth=1, options=on) for on in self.switched_search_options()]
        for searcher in searchers:
            if searcher is not None and not decision.is_terminal() and decision.to_move != CHANCE:
                # With seconds, the search reads the clock, whose object-mode block numba compiles on its
                # first run in each process (it is never cached): now, not in a player's first timed move.
                searcher.search(decision, work=10, seconds=60.0)
        return time.perf_counter() - started


class KernelFactory(Protocol):
    """What a kernel module's ``make_kernel`` is: a game in, its kernel (or ``None``) out."""

    def __call__(self, game: Game[Any]) -> Kernel[Any, Any] | None:
        """Build the kernel for ``game``'s settings, or ``None`` where it does not cover them."""


_UNAVAILABLE: dict[str, str] = {}
_ANNOUNCER: list[Callable[[str], None]] = []  # at most one: where to say that a kernel compiles
_ANNOUNCED: set[str] = set()  # kernel modules whose first use this process has watched


_COMPILES: list[int] = []  # compiles counted since the listener was registered (empty: not yet)


def _count_compiles() -> None:
    """Register, once, a numba listener that counts the functions this process compiles."""
    if _COMPILES:
        return
    from numba.core import event

    class CompileCounter(event.Listener):
        """Counts numba's compile events: each is a function compiled, not loaded from the cache."""

        def on_start(self, event: object) -> None:
            _COMPILES[0] += 1

        def on_end(self, event: object) -> None:
            pass

    _COMPILES.append(0)
    event.register("numba:compile", CompileCounter())  # type: ignore[no-untyped-call]


def compiled_so_far() -> int:
    """How many numba functions this process has compiled since its first kernel was loaded.

    A function loaded from numba's on-disk cache does not count: only a real compile does (numba's
    ``numba:compile`` event), so a difference of two readings says whether something compiled between.
    """
    return _COMPILES[0] if _COMPILES else 0


def announce_compiles(report: Callable[[str], None] | None) -> None:
    """Say through ``report`` when a kernel's first use in this process compiles, and when it is done.

    The command line sets this (to standard error): a kernel's first use on a machine compiles for
    seconds to tens of seconds, and a person should know why nothing happens. Nothing is said when the
    compiled code loads from numba's cache. ``None`` stops the announcements.
    """
    _ANNOUNCER.clear()
    if report is not None:
        _ANNOUNCER.append(report)


def _watch_first_use(kernel: Kernel[Any, Any], module_name: str) -> None:
    """Warm ``kernel`` now, saying so through the announcer if that compiles anything."""
    report = _ANNOUNCER[0]
    _ANNOUNCED.add(module_name)
    name = kernel.game.name
    before = compiled_so_far()
    done = threading.Event()
    said: list[bool] = []

    def watch() -> None:
        while not done.wait(0.25):
            if compiled_so_far() > before:
                report(f"compiling the {name} kernel: its first use on this machine (numba caches it)...")
                said.append(True)
                return

    watcher = threading.Thread(target=watch, daemon=True)
    started = time.perf_counter()
    watcher.start()
    try:
        kernel.warm_up()
    finally:
        done.set()
        watcher.join()
    if said:
        report(f"the {name} kernel compiled in {time.perf_counter() - started:.0f} s")


def kernels_enabled() -> bool:
    """Whether kernels are on (the environment variable :data:`KERNELS_ENV` is not ``0``)."""
    return os.environ.get(KERNELS_ENV, "1").strip().lower() not in {"0", "false", "no", "off"}


def load_kernel(game: Game[Any]) -> Kernel[Any, Any] | None:
    """Build ``game``'s kernel: import its :attr:`~Game.kernel_module` and call its ``make_kernel``.

    Returns ``None`` when the game names no kernel module, when kernels are turned off, or when the
    module cannot be imported (numba missing): :func:`unavailable_reason` then says why.
    """
    module_name = type(game).kernel_module
    if module_name is None:
        _UNAVAILABLE[game.id] = f"{game.name} has no compiled kernel"
        return None
    if not kernels_enabled():
        _UNAVAILABLE[game.id] = f"kernels are turned off ({KERNELS_ENV}=0)"
        return None
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        _UNAVAILABLE[game.id] = f"the {game.name} kernel cannot be loaded: {error}"
        return None
    too_large = [
        name for name, value in game.settings.items() if isinstance(value, int) and abs(value) >= INT_LIMIT
    ]
    if too_large:
        _UNAVAILABLE[game.id] = (
            f"the {game.name} kernel holds numbers below 2**62; the setting {too_large[0]} is larger"
        )
        return None
    _count_compiles()
    factory: KernelFactory = module.make_kernel
    kernel = factory(game)
    if kernel is not None and _ANNOUNCER and module_name not in _ANNOUNCED:
        _watch_first_use(kernel, module_name)
    if kernel is None:
        _UNAVAILABLE[game.id] = f"the {game.name} kernel does not cover the settings {game.settings_text()}"
    return kernel


def unavailable_reason(game: Game[Any]) -> str:
    """Why ``game.kernel`` is ``None``, in words (empty when it is not)."""
    if game.kernel is not None:
        return ""
    return _UNAVAILABLE.get(game.id, f"{game.name} has no compiled kernel")


def require_kernel(game: Game[Any]) -> Kernel[Any, Any]:
    """``game.kernel``, or a clear error when there is none.

    Raises:
        KernelUnavailableError: the game has no kernel here; the message says why.
    """
    kernel = game.kernel
    if kernel is None:
        raise KernelUnavailableError(unavailable_reason(game))
    return kernel


def fast_perft(state: State[Any], depth: int, *, bulk: bool = True) -> int:
    """Perft with the game's kernel where it has one, else the reference :func:`~shogames.core.perft`.

    Without a kernel, ``bulk=False`` is not available (the reference always bulk-counts).
    """
    kernel = state.game.kernel
    if kernel is not None and kernel.holds(state):
        return kernel.perft(state, depth, bulk=bulk)
    from shogames.core.perft import perft

    return perft(state, depth)


def fast_perft_divide(state: State[Any], depth: int, *, bulk: bool = True) -> list[tuple[str, int]]:
    """:func:`~shogames.core.perft_divide` counted with the game's kernel where it has one."""
    kernel = state.game.kernel
    if kernel is None or not kernel.holds(state):
        from shogames.core.perft import perft_divide

        return perft_divide(state, depth)
    if depth < 1:
        raise ValueError(f"perft --divide needs a depth of 1 or more, got {depth}")
    return [
        (state.move_to_text(move), kernel.perft(state.play_unchecked(move), depth - 1, bulk=bulk))
        for move in state.legal_moves()
    ]


def playout_batch(
    games: int, seats: int, run: Callable[[NDArray[np.float64], NDArray[np.int64]], object]
) -> PlayoutBatch:
    """Time a kernel's compiled playout loop: ``run(returns, plies)`` fills a batch of ``games``.

    The arrays are made here (``returns``: games x ``seats`` float64, ``plies``: int64 per game); only
    the call of ``run`` is timed.

    Raises:
        ValueError: fewer than one game.
    """
    import numpy as np

    if games < 1:
        raise ValueError(f"random_playouts needs 1 game or more, got {games}")
    returns = np.zeros((games, seats), dtype=np.float64)
    plies = np.zeros(games, dtype=np.int64)
    started = time.perf_counter()
    run(returns, plies)
    return PlayoutBatch(returns, plies, time.perf_counter() - started)


@contextmanager
def compiled_threads(threads: int | None) -> Iterator[int]:
    """Run the compiled parallel loops inside the block on at most ``threads`` threads.

    A kernel's batch loops (random playouts, perft) spread their work over numba's threads; their results
    never depend on how many there are. ``None`` takes every thread numba may use (``NUMBA_NUM_THREADS``,
    by default one per core); more than that is capped to it. Yields the number of threads used.

    Raises:
        ValueError: ``threads`` is less than 1.
    """
    import numba

    if threads is not None and threads < 1:
        raise ValueError(f"threads must be 1 or more (or None for every core), got {threads}")
    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    used = most if threads is None else min(threads, most)
    before = numba.get_num_threads()
    numba.set_num_threads(used)
    try:
        yield used
    finally:
        numba.set_num_threads(before)


def moves_by_code(kernel: Kernel[Any, MoveT], codes: Sequence[int] | NDArray[np.int64]) -> list[MoveT]:
    """The reference moves of a sequence of kernel move codes."""
    return [kernel.decode_move(int(code)) for code in codes]
