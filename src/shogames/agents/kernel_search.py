"""Agents that search with a game's compiled kernel: alpha-beta, MCTS and Monte Carlo rollouts.

They play any game that offers a kernel (:attr:`Game.kernel <shogames.core.protocol.Game.kernel>`), through
the :class:`~shogames.core.kernel.Searcher` interface only, so there is no per-game code here. A game
without a kernel, or whose kernel has no searcher of the kind asked for, is refused with a clear error
(:class:`~shogames.core.kernel.KernelUnavailableError`) before the first move in the arena, and at the
first move elsewhere.

- ``kernel-alphabeta:depth=D,nodes=N,seconds=S,noise=P,value=V`` (and the search options below): the
  kernel's negamax alpha-beta with iterative deepening, a transposition table and move ordering (the
  same search as ``alphabeta``, compiled). With neither ``nodes`` nor ``seconds`` it searches 1,000,000
  nodes a move; ``depth`` caps the iterations; ``noise`` plays that share of moves at random instead (the
  weakest levels); ``value=learned`` values the horizon with the game's shipped learned evaluation where
  its kernel can (Shobu's). ``pvs=1``, ``killers=1``, ``quiescence=Q``, ``reductions=1``,
  ``aspiration=1``, ``extend=K``, ``table=MB``, ``nullmove=R``, ``turns=1``, ``star=1``, ``maxn=1`` and
  ``filter=K`` turn on what strong engines add to the plain search, and ``scale=S`` values material at
  another scale
  (:class:`~shogames.core.kernel.SearchOptions`), where the kernel has them; all are off by default, so a
  spec names the same player it did before they existed.
- ``kernel-mcts:iterations=N,seconds=S,c=C``: the kernel's UCT with the evaluation at the leaves (as
  ``mcts:rollout=0``, compiled). With neither budget, 10,000 simulations a move.
- ``kernel-rollout:playouts=N,seconds=S``: each move valued by the kernel's playouts to the end of the
  game, every seat playing one move ahead on the evaluation, the same dice after every move, the
  playouts shared by sequential halving (where the kernel has them: Sho's). With neither budget, 4,000
  playouts a move.

A node or iteration budget gives the same move on any machine for a given seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from shogames.agents.base import Agent, register_agent
from shogames.core.kernel import (
    Kernel,
    KernelUnavailableError,
    Searcher,
    SearchOptions,
    SearchResult,
    require_kernel,
)
from shogames.core.protocol import Game, MoveT, State


class _KernelAgent(Agent):
    """The shared part: one searcher per game (with its settings), made on first use."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._searchers: dict[int, tuple[Game[Any], Searcher[Any]]] = {}
        self.last_result: SearchResult[Any] | None = None
        """What the last search found: the move, its value, nodes, depth, and each root move's score."""

    def check_game(self, game: Game[Any]) -> None:
        """Refuse a game without a kernel here, or whose kernel has no searcher of this kind.

        Raises:
            KernelUnavailableError: the game has no kernel (or numba is missing, or kernels are off), or
                its kernel has no such searcher.
        """
        self._searcher(game)

    def _make_searcher(self, kernel: Kernel[Any, Any]) -> Searcher[Any] | None:
        raise NotImplementedError

    def _searcher(self, game: Game[Any]) -> Searcher[Any]:
        held = self._searchers.get(id(game))
        if held is None or held[0] is not game:
            kernel = require_kernel(game)
            searcher = self._make_searcher(kernel)
            if searcher is None:
                kind = self.name.partition(":")[0]
                raise KernelUnavailableError(f"the {game.name} kernel has no {kind} searcher")
            held = self._searchers[id(game)] = (game, searcher)
        return held[1]

    noise: float = 0.0
    """The share of moves played uniformly at random instead of searched (a weaker player)."""

    def _search(self, state: State[MoveT], work: int, seconds: float) -> MoveT:
        if self.noise and self.rng.random() < self.noise:
            self.last_result = None
            return self._random_move(state)
        result = self._searcher(state.game).search(state, work=work, seconds=seconds)
        self.last_result = result
        move: MoveT = result.move
        return move

    def _random_move(self, state: State[MoveT]) -> MoveT:
        """A random legal move, but a move that wins at once where there is one (as ``greedy`` plays)."""
        moves = state.legal_moves()
        seat = state.to_move
        assert seat is not None and seat >= 0, "agents are asked only where a seat is to move"
        top = state.game.max_utility
        for move in moves:
            after = state.play_unchecked(move)
            if after.is_terminal() and after.returns()[seat] >= top:
                return move
        return moves[self.rng.randrange(len(moves))]

    def reset(self) -> None:
        """Clear the searchers' tables before a new game."""
        for _, searcher in self._searchers.values():
            searcher.reset()


class KernelAlphaBetaAgent(_KernelAgent):
    """The game kernel's alpha-beta searcher as an agent.

    Args:
        seed: orders equal root moves.
        depth: the deepest iteration.
        nodes: the most positions searched per move (0: no limit).
        seconds: the most seconds per move (0: no limit); with neither limit, 1,000,000 nodes.
        noise: the probability of playing a uniformly random legal move instead of searching (0 to 1);
            a move that wins at once is still played.
        value: ``rules`` (the game's hand-written evaluation at the horizon) or ``learned`` (its shipped
            learned evaluation, :mod:`shogames.learning`, where the kernel can run it).
        pvs: 1 for principal variation search (null windows after each node's first move), 0 not.
        killers: 1 to try each ply's last two cutting quiet moves first, 0 not.
        quiescence: plies of captures searched past the horizon (0: none).
        table: the transposition table's size in MiB (0: the kernel's default).
        reductions: 1 to search late quiet moves a ply shallower first (late move reductions), 0 not.
        aspiration: 1 to search each iteration's root in a narrow window around the last value first, 0 not.
        extend: how many times ``nodes`` a move may take while its best move is still changing (1: never
            more than ``nodes``).
        turns: 1 to count ``depth`` in whole turns, so the horizon never falls inside a turn, 0 not.
        star: 1 to search the outcomes of a chance node in Star1's windows (the same values in fewer
            positions), 0 not.
        maxn: 1 for max-n with three or more players (each seat plays for itself), 0 for paranoid.
        scale: the hand-written evaluation's material scale (0: the game's own; Shogammon's ``S`` of
            ``0.95 * tanh(d / S)``, :attr:`SearchOptions.material_scale
            <shogames.core.kernel.SearchOptions.material_scale>`).
        nullmove: null move pruning with this reduction in plies (0: none; :attr:`SearchOptions.null_move
            <shogames.core.kernel.SearchOptions.null_move>`).
        filter: at each decision at least two moves above the horizon, search only this many moves,
            those the hand-written evaluation values best (0: every move; :attr:`SearchOptions.move_filter
            <shogames.core.kernel.SearchOptions.move_filter>`).
    """

    name = "kernel-alphabeta"
    parameters: ClassVar[Mapping[str, type]] = {
        "depth": int, "nodes": int, "seconds": float, "noise": float, "value": str, "pvs": int,
        "killers": int, "quiescence": int, "table": int, "reductions": int, "aspiration": int,
        "extend": int, "turns": int, "star": int, "maxn": int, "scale": float, "filter": int,
        "nullmove": int,
    }  # fmt: skip

    def __init__(
        self,
        seed: int | None = None,
        *,
        depth: int = 64,
        nodes: int = 0,
        seconds: float = 0.0,
        noise: float = 0.0,
        value: str = "rules",
        pvs: int = 0,
        killers: int = 0,
        quiescence: int = 0,
        table: int = 0,
        reductions: int = 0,
        aspiration: int = 0,
        extend: int = 1,
        turns: int = 0,
        star: int = 0,
        maxn: int = 0,
        scale: float = 0.0,
        filter: int = 0,
        nullmove: int = 0,
    ) -> None:
        super().__init__(seed)
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        flags = (
            ("pvs", pvs), ("killers", killers), ("reductions", reductions), ("aspiration", aspiration),
            ("turns", turns), ("star", star), ("maxn", maxn),
        )  # fmt: skip
        for flag, given in flags:
            if given not in (0, 1):
                raise ValueError(f"{flag} is 1 (on) or 0 (off), got {given}")
        if star and maxn:
            raise ValueError("star=1 prunes a search's chance nodes and max-n prunes nothing: not both")
        if not 0 <= quiescence <= 16:
            raise ValueError(f"quiescence is a number of plies from 0 to 16, got {quiescence}")
        if not 1 <= extend <= 16:
            raise ValueError(f"extend is a multiple of the node budget from 1 to 16, got {extend}")
        if not 0 <= table <= 4096:
            raise ValueError(f"table is a size in MiB from 1 to 4096 (0: the default), got {table}")
        if not (scale == 0.0 or 1.0 <= scale <= 10_000.0):
            raise ValueError(f"scale is a material scale from 1 to 10000 (0: the evaluation's), got {scale}")
        if not 0 <= filter <= 4096:
            raise ValueError(f"filter is a number of moves from 1 to 4096 (0: every move), got {filter}")
        if not 0 <= nullmove <= 8:
            raise ValueError(f"nullmove is a reduction in plies from 1 to 8 (0: none), got {nullmove}")
        if nullmove and not pvs:
            raise ValueError("nullmove=R prunes only in the null windows of pvs=1: name pvs=1 as well")
        self.options = SearchOptions(
            pvs=pvs == 1,
            killers=killers == 1,
            quiescence=quiescence,
            table_mb=table,
            reductions=reductions == 1,
            aspiration=aspiration == 1,
            extend=extend,
            turns=turns == 1,
            star=star == 1,
            maxn=maxn == 1,
            material_scale=scale,
            move_filter=filter,
            null_move=nullmove,
        )
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a probability from 0 to 1, got {noise}")
        if value not in ("rules", "learned"):
            raise ValueError(f"value is one of rules, learned, got {value!r}")
        self.noise = noise
        self.depth = depth
        self.nodes = nodes
        self.seconds = seconds
        self.learned = value == "learned"

    def _make_searcher(self, kernel: Kernel[Any, Any]) -> Searcher[Any] | None:
        if not self.learned:
            return kernel.alphabeta(seed=self.rng.randrange(2**32), depth=self.depth, options=self.options)
        from shogames.learning.shipped import shipped_value

        network = shipped_value(kernel.game)
        searcher = kernel.learned_alphabeta(
            network, seed=self.rng.randrange(2**32), depth=self.depth, options=self.options
        )
        if searcher is None:
            raise KernelUnavailableError(
                f"the {kernel.game.name} kernel cannot search with a learned evaluation"
            )
        return searcher

    def select_move(self, state: State[MoveT]) -> MoveT:
        """Search ``state`` with the kernel's alpha-beta and return the best move."""
        return self._search(state, self.nodes, self.seconds)


class KernelMCTSAgent(_KernelAgent):
    """The game kernel's MCTS (evaluation at the leaves) as an agent.

    Args:
        seed: the seed of the search's random choices.
        iterations: simulations per move (0: no limit).
        seconds: the most seconds per move (0: no limit); with neither limit, 10,000 simulations.
        c: the exploration constant of UCB1.
    """

    name = "kernel-mcts"
    parameters: ClassVar[Mapping[str, type]] = {"iterations": int, "seconds": float, "c": float}

    def __init__(
        self, seed: int | None = None, *, iterations: int = 0, seconds: float = 0.0, c: float = 1.0
    ) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c

    def _make_searcher(self, kernel: Kernel[Any, Any]) -> Searcher[Any] | None:
        return kernel.mcts(seed=self.rng.randrange(2**32), c=self.c)

    def select_move(self, state: State[MoveT]) -> MoveT:
        """Search ``state`` with the kernel's MCTS and return the most visited move."""
        return self._search(state, self.iterations, self.seconds)


class KernelRolloutAgent(_KernelAgent):
    """The game kernel's Monte Carlo rollouts (greedy playouts to the end) as an agent.

    Args:
        seed: the seed of the dice the playouts throw.
        playouts: playouts per move in all, shared among the moves by sequential halving (0: no limit).
        seconds: the most seconds per move (0: no limit); with neither limit, 4,000 playouts.
    """

    name = "kernel-rollout"
    parameters: ClassVar[Mapping[str, type]] = {"playouts": int, "seconds": float}

    def __init__(self, seed: int | None = None, *, playouts: int = 0, seconds: float = 0.0) -> None:
        super().__init__(seed)
        if playouts < 0:
            raise ValueError(f"playouts is a number of playouts (0: no limit), got {playouts}")
        if seconds < 0:
            raise ValueError(f"seconds is a time per move (0: no limit), got {seconds}")
        self.playouts = playouts
        self.seconds = seconds

    def _make_searcher(self, kernel: Kernel[Any, Any]) -> Searcher[Any] | None:
        return kernel.rollouts(seed=self.rng.randrange(2**32))

    def select_move(self, state: State[MoveT]) -> MoveT:
        """Value each move by the kernel's greedy playouts and return the best."""
        return self._search(state, self.playouts, self.seconds)


register_agent(KernelAlphaBetaAgent.name, KernelAlphaBetaAgent)
register_agent(KernelMCTSAgent.name, KernelMCTSAgent)
register_agent(KernelRolloutAgent.name, KernelRolloutAgent)
