"""Difficulty levels: named agents per game, from random to the strongest, on the compiled kernels.

A level names, per game, the agent that plays it. Where the game has a compiled kernel (and numba is
installed and kernels are on), that is a kernel searcher (``kernel-alphabeta``) with a budget counted in
positions searched; where it has none, a pure-Python *reference* agent plays the level instead, and the
level's agent name says so (``hard (reference: alphabeta:depth=3,nodes=10000)``), since the reference
agents are far weaker at the same level. The defaults are here; a game gives its own specs where they
differ in :attr:`Game.agent_levels <shogames.core.protocol.Game.agent_levels>` (kernel) and
:attr:`Game.reference_levels <shogames.core.protocol.Game.reference_levels>` (reference), so that this
module names no game.

Budgets count work (positions or iterations), not seconds, so a level plays the same moves on any machine
and the ladder of ``docs/strength.md`` reproduces. In play, where a person waits for the move (the web
app, ``shogames play``), each level's search also stops at the level's time cap (:func:`play_budget`),
so a slow machine never waits longer than that; on the machine of ``docs/strength.md`` the work budget
ends the search first. The arena plays the work budgets only.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from shogames.agents.base import Agent, make_with_budget, parse_agent_spec, register_level
from shogames.core.errors import SettingsError
from shogames.core.kernel import Kernel, KernelUnavailableError, kernels_enabled
from shogames.core.protocol import Game, MoveT, State
from shogames.core.registry import game_class


@dataclass(frozen=True)
class Level:
    """One difficulty level's defaults.

    Attributes:
        name: the level's name (``"hard"``).
        kernel: the agent spec where the game has a kernel.
        reference: the agent spec where it has none (a pure-Python agent).
        seconds: the most time a move may take in play (:func:`play_budget`); 0 for no cap.
    """

    name: str
    kernel: str
    reference: str
    seconds: float


_LADDER: Final[tuple[Level, ...]] = (
    Level(
        "beginner",
        "kernel-alphabeta:depth=1,noise=0.5",
        "greedy:noise=0.5",
        1.0,
    ),
    Level("easy", "kernel-alphabeta:nodes=300", "greedy:noise=0.25", 1.0),
    Level("medium", "kernel-alphabeta:nodes=3000", "greedy", 1.0),
    Level(
        "hard",
        "kernel-alphabeta:nodes=30000",
        "alphabeta:depth=3,nodes=10000",
        2.0,
    ),
    Level(
        "expert",
        "kernel-alphabeta:nodes=300000",
        "alphabeta:depth=4,nodes=30000",
        3.0,
    ),
    Level(
        "master",
        "kernel-alphabeta:nodes=3000000",
        "alphabeta:depth=5,nodes=100000",
        3.0,
    ),
)

LEVELS: Final[Mapping[str, Level]] = {level.name: level for level in _LADDER}
"""Every level's defaults, weakest first."""

STRONGEST: Final[str] = _LADDER[-1].name
"""The strongest level: the one the hint, the browser's analysis and ``shogames analyse`` use."""


def has_kernel_levels(game: str | None) -> bool:
    """Whether the levels of the game ``game`` play on its compiled kernel (else on the reference agents).

    True where the game names a kernel module with an alpha-beta searcher, numba is importable and kernels
    are not switched off (``SHOGAMES_KERNELS=0``). An unknown or missing game id plays the reference agents.
    """
    if game is None or not kernels_enabled():
        return False
    try:
        cls = game_class(game)
    except SettingsError:
        return False
    if cls.kernel_module is None:
        return False
    try:
        import numba  # noqa: F401 (only whether it imports)
    except ImportError:
        return False
    return _kernel_searches(cls)


@functools.lru_cache(maxsize=64)
def _kernel_searches(cls: type[Game[Any]]) -> bool:
    """Whether the kernel of ``cls`` (at its default settings) has the alpha-beta the levels search with."""
    try:
        kernel = cls().kernel
    except (ImportError, SettingsError):
        return False
    return kernel is not None and type(kernel).alphabeta is not Kernel.alphabeta


def level_spec(level: str, game: str | None, *, kernel: bool | None = None) -> str:
    """The agent spec that plays ``level`` in the game ``game``.

    Args:
        level: a level's name.
        game: the game id; ``None`` (or an unknown id) gets the defaults.
        kernel: ``True`` for the kernel spec, ``False`` for the reference spec, ``None`` for whichever
            :func:`has_kernel_levels` says this installation plays.

    Raises:
        KeyError: no level has that name.
    """
    defaults = LEVELS[level]
    use_kernel = has_kernel_levels(game) if kernel is None else kernel
    own: str | None = None
    if game is not None:
        try:
            cls = game_class(game)
            own = (cls.agent_levels if use_kernel else cls.reference_levels).get(level)
        except SettingsError:
            own = None
    if own is not None:
        return own
    return defaults.kernel if use_kernel else defaults.reference


def changed_step(
    agents: Sequence[str], played: Mapping[str, str], game: str, step: Sequence[str]
) -> dict[str, tuple[str, str]]:
    """The levels of a ladder step that an arena played with another spec than the level's today.

    ``step`` names the step's levels (the stronger first; ``random``, not a level, stands for itself) and
    ``agents`` the arena's agents in the same order: each a level's name, whose spec then ``played`` keeps
    (:attr:`shogames.arena.ArenaReport.levels`), or a spec written out. Each level whose spec then differs
    from today's is returned with both. A level played by name before the arena kept its spec (before
    2026-12-06) cannot be told and counts as today's.

    >>> changed_step(["kernel-alphabeta:depth=1", "random"], {}, "no_such_game", ["medium", "random"])
    {'medium': ('kernel-alphabeta:depth=1', 'greedy')}
    >>> changed_step(["greedy", "random"], {}, "no_such_game", ["medium", "random"])
    {}
    >>> changed_step(["easy", "random"], {"easy": "random"}, "no_such_game", ["easy", "random"])
    {'easy': ('random', 'greedy:noise=0.25')}
    """
    changed = {}
    for level, agent in zip(step, agents, strict=True):
        if agent == level and level in LEVELS and agent not in played:
            continue
        then = played.get(agent, agent)
        now = level_spec(level, game) if level in LEVELS else level
        if then != now:
            changed[level] = (then, now)
    return changed


ANALYSING_AGENTS: Final[frozenset[str]] = frozenset({"kernel-alphabeta", "alphabeta"})
"""The agents whose search values every root move at one depth, as an analysis needs."""


def analysis_spec(game: str | None, *, kernel: bool | None = None) -> str:
    """The agent spec whose alpha-beta analyses ``game``'s positions (the review, the analysis board).

    The strongest level's own spec where it plays by alpha-beta; where it plays otherwise (Sho's master,
    by rollouts, whose values of the moves it drops early are rough), the default ladder's strongest
    alpha-beta (:data:`LEVELS`), whose values at one depth compare the moves exactly. ``kernel`` is
    :func:`level_spec`'s. The hint plays the strongest level itself.
    """
    spec = level_spec(STRONGEST, game, kernel=kernel)
    if parse_agent_spec(spec)[0] in ANALYSING_AGENTS:
        return spec
    use_kernel = has_kernel_levels(game) if kernel is None else kernel
    defaults = LEVELS[STRONGEST]
    return defaults.kernel if use_kernel else defaults.reference


def play_budget(level: str) -> dict[str, str]:
    """The time cap of ``level`` in play, as an agent budget (``{"seconds": "3"}``); empty for no cap.

    Raises:
        KeyError: no level has that name.
    """
    seconds = LEVELS[level].seconds
    return {"seconds": f"{seconds:g}"} if seconds > 0 else {}


def describe_spec(spec: str) -> str:
    """An agent spec in words (``kernel-alphabeta:nodes=3000``: "searches 3,000 positions a move").

    >>> describe_spec("kernel-rollout:playouts=4000")
    'plays 4,000 games out to the end a move, each side looking one move ahead, and keeps the best move'
    >>> describe_spec("kernel-alphabeta:nodes=50000,filter=6")
    'searches 50,000 positions a move, pruning all but the 6 moves it values best below its first move'
    >>> describe_spec("kernel-alphabeta:nodes=1000000,value=learned")
    'searches 1,000,000 positions a move, with its learned evaluation'
    """
    name, params = parse_agent_spec(spec)
    parts: list[str] = []
    if name == "random":
        return "plays a random legal move"
    if "nodes" in params:
        parts.append(f"searches {int(params['nodes']):,} positions a move")
    elif "playouts" in params:
        parts.append(
            f"plays {int(params['playouts']):,} games out to the end a move, each side looking one move "
            "ahead, and keeps the best move"
        )
    elif "iterations" in params:
        parts.append(f"runs {int(params['iterations']):,} simulations a move")
    elif params.get("depth") == "1" or name == "greedy":
        parts.append("looks one move ahead")
    elif "depth" in params:
        parts.append(f"looks {params['depth']} moves ahead")
    else:
        parts.append(f"plays {name}")
    if int(params.get("quiescence", 0)):
        parts[-1] += f", then follows captures up to {params['quiescence']} moves further"
    if int(params.get("filter", 0)):
        parts[-1] += f", pruning all but the {params['filter']} moves it values best below its first move"
    if params.get("value") == "learned":
        parts[-1] += ", with its learned evaluation"
    noise = float(params.get("noise", 0))
    if noise:
        parts.append(f"plays {100 * noise:.0f}% of its moves at random")
    return ", and ".join(parts)


def describe_level(level: str, game: str | None) -> str:
    """What ``level`` is in ``game``, in words, saying so where a reference agent plays it (no kernel)."""
    spec = level_spec(level, game)
    if has_kernel_levels(game):
        return describe_spec(spec)
    try:
        cls = game_class(str(game))
        why = "the game has no compiled kernel" if cls.kernel_module is None else ""
        if not why and kernels_enabled() and not _kernel_searches(cls):
            why = "its compiled kernel has no alpha-beta"
    except SettingsError:
        why = "an unknown game"
    why = why or "its compiled kernel is off or missing here"
    return f"{describe_spec(spec)} (the pure-Python {spec}: {why})"


LADDER_FILE: Final[str] = "ladder.json"
"""The measured ladder beside this module: per game, per level, its score against the level below it
(written by ``python benchmarks/strength_table.py --package`` from the arenas of ``benchmarks/ladder.sh``)."""


@functools.cache
def measured_ladder() -> Mapping[str, Mapping[str, Mapping[str, Any]]]:
    """The measured ladder (:data:`LADDER_FILE`), empty where nothing is measured.

    Game id, then level, then ``below`` (the level it played), ``games``, ``score``, ``low`` and ``high``
    (the 95% Wilson interval).
    """
    try:
        text = resources.files("shogames.agents").joinpath(LADDER_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data: dict[str, dict[str, dict[str, Any]]] = json.loads(text)
    return data


def level_line(level: str, game: str) -> str:
    """One line on ``level`` in ``game`` for people choosing an opponent: what it is, and how it measured.

    >>> level_line("medium", "no_such_game")
    'looks one move ahead (the pure-Python greedy: an unknown game)'
    """
    line = describe_level(level, game)
    step = measured_ladder().get(game, {}).get(level)
    if step is None or not has_kernel_levels(game):
        return line
    return (
        f"{line}; scored {100 * step['score']:.0f}% ({100 * step['low']:.0f}–{100 * step['high']:.0f}%) "
        f"against {step['below']} over {step['games']} games"
    )


class LevelAgent(Agent):
    """The agent of a level: the level's kernel searcher, or its reference agent where there is no kernel.

    The choice is made at the first move of each game: a game whose kernel is missing or does not cover
    its settings gets the reference agent.

    Args:
        level: the level's name.
        game: the game id the level was asked for (``None``: the defaults).
        seed: the seed given to whichever agent plays.
        budget: parameters (``{"seconds": "3"}``) given to that agent where it takes them and its spec sets
            none (:func:`shogames.agents.make_agent`'s ``budget``).
    """

    def __init__(
        self, level: str, game: str | None, seed: int | None = None, budget: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(seed)
        self.level = level
        self.kernel_spec = level_spec(level, game, kernel=True)
        self.reference_spec = level_spec(level, game, kernel=False)
        self.budget = dict(budget or {})
        self.on_kernel = has_kernel_levels(game)
        self._agents: dict[bool, Agent] = {}
        self._chosen: tuple[Game[Any], Agent] | None = None
        self.name = self._name()

    @property
    def spec(self) -> str:
        """The spec of the agent that plays (the kernel's where the game has one, as far as known)."""
        return self.kernel_spec if self.on_kernel else self.reference_spec

    def _name(self) -> str:
        if self.on_kernel:
            return self.level
        return f"{self.level} (reference: {self.reference_spec})"

    def _agent(self, use_kernel: bool) -> Agent:
        agent = self._agents.get(use_kernel)
        if agent is None:
            spec = self.kernel_spec if use_kernel else self.reference_spec
            agent = self._agents[use_kernel] = make_with_budget(spec, self.seed, self.budget)
        return agent

    def _for(self, game: Game[Any]) -> Agent:
        """The agent that plays ``game``: chosen once per game object (its settings fix the choice)."""
        chosen = self._chosen
        if chosen is not None and chosen[0] is game:
            return chosen[1]
        agent = self._choose(game)
        self._chosen = (game, agent)
        return agent

    def _choose(self, game: Game[Any]) -> Agent:
        use_kernel = self.on_kernel and has_kernel_levels(game.id) and game.kernel is not None
        if use_kernel:
            try:  # a kernel may lack the level's searcher (a game's kernel of playouts only)
                self._agent(True).check_game(game)
            except KernelUnavailableError:
                use_kernel = False
        if self.on_kernel and not use_kernel:
            self.on_kernel = False
            self.name = self._name()
        return self._agent(use_kernel)

    def check_game(self, game: Game[Any]) -> None:
        """Check the agent that will play ``game`` (the reference agent where its kernel falls short)."""
        self._for(game).check_game(game)

    def select_move(self, state: State[MoveT]) -> MoveT:
        """The move of the level's agent for this game."""
        return self._for(state.game).select_move(state)

    def reset(self) -> None:
        """Reset whichever agents have played."""
        for agent in self._agents.values():
            agent.reset()

    @property
    def last_result(self) -> Any:
        """The kernel searcher's last :class:`~shogames.core.kernel.SearchResult`, where it searched."""
        agent = self._agents.get(True)
        return getattr(agent, "last_result", None)


def _level_factory(level: str) -> object:
    def make(game: str | None, seed: int | None, budget: Mapping[str, str]) -> Agent:
        return LevelAgent(level, game, seed, budget)

    make.__doc__ = f"Make the agent of level {level!r} for a game."
    return make


for _level in LEVELS:
    register_level(_level, _level_factory(_level))  # type: ignore[arg-type]
