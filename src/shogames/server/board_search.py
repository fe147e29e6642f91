"""The analysis board's engine: one position searched by the strongest level's searcher, within a budget.

:func:`search_position` runs in an engine worker (:mod:`shogames.server.engine`); the analysis board's
routes (:mod:`shogames.server.analysis_board`) call it with the position and a node budget, and the page
calls again with a larger budget while the position stays on the board. Nothing here names a game.

What it answers, by the position:

* **A seat to move**: the best lines. The searcher deepens within the budget (:data:`SEARCH_SECONDS` at
  most); its best root moves by their root scores (:data:`LINES` of them) are then each valued alone at the
  root to the depth that search completed (``Searcher.value_of``), so their values are exact at one depth
  and comparable, and each is extended into a line by searching the positions after it with a small
  budget (:data:`LINE_SECONDS` for all lines), up to :data:`LINE_PLIES` moves or the next dice.
* **Dice to throw** (a chance node): every outcome with its probability, the best play after it (the
  best move and the rest of that seat's turn, searched the same way with the budget shared by the
  outcomes) and its value, and the expectation over the outcomes (each value weighted by its exact
  probability). Where an outcome leaves the dice to throw again, its value is the expectation one throw
  further; beyond that, and where another seat than the valued one moves next in a game of more than two
  seats, the static evaluation (``State.evaluate``) stands in, and the outcome says so (``estimate``).
* **The game over**: the returns.

Values run from -1 (lost) to +1 (won). In a two-player zero-sum game every value is for one fixed seat,
the first (seat 0), whoever moves: the evaluation bar does not flip as the moves alternate. With more
seats the searcher's values are for the seat it searches for (the paranoid reduction: every other seat
plays against it), so a value is for the seat to move, and at dice for the seat that then plays most
outcomes; the answer's ``perspective`` names the seat and says whether it is fixed.

The searcher is the game's compiled alpha-beta (:func:`shogames.analysis.kernel_analyser`), with the
budget of :func:`shogames.agents.levels.analysis_spec` (the strongest level's, where it plays by
alpha-beta); where the game has none, or the
kernel's integers do not hold the position, the pure-Python alpha-beta agent searches (with
:data:`REFERENCE_NODES` at most), valuing every root move exactly.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from shogames.agents.alphabeta import AlphaBetaAgent
from shogames.agents.base import parse_agent_spec
from shogames.agents.levels import analysis_spec
from shogames.analysis import kernel_analyser
from shogames.core.errors import ShogamesError
from shogames.core.kernel import Searcher
from shogames.core.protocol import CHANCE, Game, State

SEARCH_SECONDS: Final = 0.3
"""The most time one request's search takes (all the outcomes' searches together at dice)."""
LINE_SECONDS: Final = 0.1
"""The most time one request spends extending the best moves into lines (or the rolls' plays)."""
MAX_NODES: Final = 4_000_000
"""The most nodes one request may ask for (less where the strongest level searches fewer)."""
FIRST_NODES: Final = 2_000
"""The budget the page asks for first; it asks again with four times as many until the answer is
``complete``."""
MIN_NODES: Final = 200
"""The least budget one search gets (an outcome's share at dice)."""
REFERENCE_NODES: Final = 20_000
"""The most nodes the pure-Python searcher gets in one request (it is about a hundred times slower)."""
LINES: Final = 3
"""The best lines shown at a seat's decision."""
LINE_PLIES: Final = 10
"""The most moves of a line."""
TURN_PLIES: Final = 4
"""The most moves of one roll's play (the rest of that seat's turn after the dice)."""
CACHED_SEARCHERS: Final = 8
"""Compiled searchers kept per worker (one per game and settings; each holds its transposition table)."""

_searchers: collections.OrderedDict[Game[Any], Searcher[Any]] = collections.OrderedDict()


def two_sided(game: Game[Any]) -> bool:
    """Whether values can be given for one fixed seat: two seats and zero-sum returns."""
    return game.num_players == 2 and game.is_zero_sum


def node_cap(game: Game[Any]) -> int:
    """The most nodes one request may search: :data:`MAX_NODES`, or the analysing spec's budget if less."""
    try:
        _, params = parse_agent_spec(analysis_spec(game.id))
        nodes = int(params.get("nodes", MAX_NODES))
    except (ShogamesError, KeyError, ValueError):
        nodes = MAX_NODES
    return max(MIN_NODES, min(MAX_NODES, nodes))


@dataclass
class Found:
    """What one search found: root moves best first with their values for the seat to move, and statistics."""

    moves: list[Any]
    values: dict[Any, float]
    depth: int
    nodes: int
    exhausted: bool
    """Whether the search stopped before it used its nodes (time, a forced result, the deepest depth):
    more nodes would not take it further within one request."""
    searcher: str

    @property
    def best_move(self) -> Any:
        """The best move (the first)."""
        return self.moves[0]


class _Search:
    """The searcher of one game: compiled alpha-beta where the kernel holds the position, else pure Python."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.compiled: Searcher[Any] | None = _compiled(game)

    def _kernel_for(self, state: State[Any]) -> Searcher[Any] | None:
        kernel = self.game.kernel
        if self.compiled is None or kernel is None or not kernel.holds(state):
            return None
        return self.compiled

    def run(self, state: State[Any], nodes: int, seconds: float, want: int) -> Found:
        """Search ``state`` (a seat to move): its ``want`` best moves with values exact at one depth."""
        searcher = self._kernel_for(state)
        if searcher is None:
            return _reference(state, min(nodes, REFERENCE_NODES), seconds, want)
        result = searcher.search(state, work=nodes, seconds=seconds)
        depth = max(result.depth, 1)
        ranked = sorted(result.scores, key=lambda move: -result.scores[move])
        ranked.remove(result.move)
        candidates = [result.move, *ranked[: max(0, want - 1)]]
        values: dict[Any, float] = {}
        for move in candidates:
            value = searcher.value_of(state, move, depth=depth)
            values[move] = result.scores.get(move, result.value) if value is None else value
        ordered = sorted(candidates, key=lambda move: -values[move])  # stable: the search's choice on ties
        return Found(ordered, values, depth, result.nodes, result.nodes < nodes, "compiled alpha-beta")

    def move(self, state: State[Any], nodes: int, seconds: float) -> Any:
        """The best move at ``state`` (a seat to move) within a small budget, to extend a line."""
        searcher = self._kernel_for(state)
        if searcher is None:
            budget = max(1, min(nodes, REFERENCE_NODES))
            return AlphaBetaAgent(seed=0, depth=64, nodes=budget, seconds=seconds).search(state)
        return searcher.search(state, work=nodes, seconds=seconds).move


def _compiled(game: Game[Any]) -> Searcher[Any] | None:
    """The game's compiled alpha-beta searcher, kept per game and settings in this worker (or ``None``)."""
    searcher = _searchers.get(game)
    if searcher is not None:
        _searchers.move_to_end(game)
        return searcher
    name, _ = parse_agent_spec(analysis_spec(game.id))
    made = kernel_analyser(game, 64) if name.startswith("kernel") else None
    if made is not None:
        _searchers[game] = made
        while len(_searchers) > CACHED_SEARCHERS:
            _searchers.popitem(last=False)
    return made


def _reference(state: State[Any], nodes: int, seconds: float, want: int) -> Found:
    """The pure-Python alpha-beta's search, every root move valued exactly (``exact_root``)."""
    agent = AlphaBetaAgent(seed=0, depth=64, nodes=max(1, nodes), seconds=seconds)
    agent.exact_root = True
    best = agent.search(state)
    scores = dict(agent.last_scores) or {best: agent.last_value}
    ordered = sorted(scores, key=lambda move: -scores[move])
    ordered.remove(best)
    moves = [best, *ordered[: max(0, want - 1)]]
    used = agent.budget.used
    return Found(moves, scores, max(agent.last_depth, 1), used, used < nodes, "alpha-beta (pure Python)")


# --- Values on one seat's scale ------------------------------------------------------------------------


@dataclass(frozen=True)
class Perspective:
    """Whose values are shown: a seat, and whether it is the same at every position (two-sided games)."""

    seat: int
    fixed: bool

    def convert(self, state: State[Any], mover: int, value: float) -> tuple[float, bool]:
        """A value for ``mover`` at ``state`` as one for this seat, and whether it is an estimate."""
        if mover == self.seat:
            return value, False
        if self.fixed:
            return -value, False
        return float(state.evaluate()[self.seat]), True

    def as_dict(self, game: Game[Any]) -> dict[str, Any]:
        """The perspective for the page: the seat, its name, whether fixed."""
        return {"seat": self.seat, "name": game.player_names[self.seat], "fixed": self.fixed}


def _decision_perspective(state: State[Any]) -> Perspective:
    if two_sided(state.game):
        return Perspective(0, True)
    assert state.to_move is not None and state.to_move >= 0
    return Perspective(state.to_move, False)


def _chance_perspective(state: State[Any]) -> Perspective:
    """Seat 0 in a two-sided game; else the seat that moves after most outcomes (the thrower)."""
    if two_sided(state.game):
        return Perspective(0, True)
    movers: collections.Counter[int] = collections.Counter()
    for outcome, _ in state.chance_outcomes():
        mover = state.play(outcome).to_move
        if mover is not None and mover >= 0:
            movers[mover] += 1
    if not movers:
        return Perspective(0, False)
    top = max(movers.values())
    return Perspective(min(seat for seat, count in movers.items() if count == top), False)


# --- The answers -------------------------------------------------------------------------------------------


@dataclass
class _Clock:
    """A deadline shared by several pieces of work."""

    seconds: float
    started: float = field(default_factory=time.perf_counter)

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.started)


def _extend(
    search: _Search,
    state: State[Any],
    first: Hashable,
    nodes: int,
    clock: _Clock,
    plies: int,
    *,
    same_seat: bool,
) -> tuple[list[str], str | None]:
    """``first`` and the moves the searcher then prefers: the line's texts and how it ends.

    The end is ``None``, ``"chance"`` (the dice come next) or ``"over"``. With ``same_seat`` only the
    mover's own moves follow (the rest of a turn).
    """
    mover = state.to_move
    texts = [state.move_to_text(first)]
    position = state.play(first)
    while len(texts) < plies:
        if position.is_terminal():
            return texts, "over"
        if position.to_move == CHANCE:
            return texts, "chance"
        if (same_seat and position.to_move != mover) or clock.left() <= 0.002:
            return texts, None
        move = search.move(position, nodes, max(0.002, min(clock.left(), clock.seconds / 2)))
        texts.append(position.move_to_text(move))
        position = position.play(move)
    if position.is_terminal():
        return texts, "over"
    return texts, "chance" if position.to_move == CHANCE else None


def _round(value: float) -> float:
    return round(value, 4)


def search_position(state: State[Any], nodes: int, *, lines: int = LINES) -> dict[str, Any]:
    """Search ``state`` within ``nodes`` (capped by :func:`node_cap`) and :data:`SEARCH_SECONDS`.

    Returns a JSON-ready dict: ``kind`` (``"decision"``, ``"chance"`` or ``"over"``), ``perspective``
    (``seat``, ``name``, ``fixed``), ``value`` (the position's value for that seat), ``depth``, ``nodes``,
    ``budget`` (the nodes asked, the cap and the seconds) and ``complete`` (a larger budget would not go
    further in one request); at a decision ``lines`` (``moves``, ``value``, ``end``); at dice ``rolls``
    (``outcome``, ``probability`` as a fraction, ``p``, ``play``, ``value``, ``depth``, ``estimate``,
    ``note``) with ``value`` their expectation. The module docstring says what each is.
    """
    game = state.game
    cap = node_cap(game)
    asked = max(MIN_NODES, min(nodes, cap))
    budget = {"nodes": asked, "max_nodes": cap, "seconds": SEARCH_SECONDS}
    if state.is_terminal():
        returns = state.returns()
        perspective = Perspective(0, two_sided(game))
        return {
            "kind": "over",
            "perspective": perspective.as_dict(game),
            "value": _round(returns[0]),
            "returns": [_round(value) for value in returns],
            "depth": 0,
            "nodes": 0,
            "budget": budget,
            "complete": True,
        }
    search = _Search(game)
    if state.to_move == CHANCE:
        return _chance_answer(search, state, asked, cap, budget)
    return _decision_answer(search, state, asked, cap, budget, lines)


def _decision_answer(
    search: _Search, state: State[Any], nodes: int, cap: int, budget: dict[str, Any], lines: int
) -> dict[str, Any]:
    game = state.game
    mover = state.to_move
    assert mover is not None and mover >= 0
    perspective = _decision_perspective(state)
    found = search.run(state, nodes, SEARCH_SECONDS, max(1, lines))
    clock = _Clock(LINE_SECONDS)
    shown = []
    share = max(MIN_NODES, nodes // 16)
    for index, move in enumerate(found.moves):
        line_clock = _Clock(max(0.0, clock.left()) / (len(found.moves) - index))
        texts, end = _extend(search, state, move, share, line_clock, LINE_PLIES, same_seat=False)
        value, _ = perspective.convert(state, mover, found.values[move])
        shown.append({"moves": texts, "value": _round(value), "end": end})
    best, _ = perspective.convert(state, mover, found.values[found.best_move])
    return {
        "kind": "decision",
        "perspective": perspective.as_dict(game),
        "value": _round(best),
        "lines": shown,
        "depth": found.depth,
        "nodes": found.nodes,
        "searcher": found.searcher,
        "budget": budget,
        "complete": found.exhausted or nodes >= cap,
    }


def _chance_answer(
    search: _Search, state: State[Any], nodes: int, cap: int, budget: dict[str, Any]
) -> dict[str, Any]:
    from shogames.server.views import move_note  # the views' notes (dice lost, a turn passed)

    game = state.game
    perspective = _chance_perspective(state)
    rolls, expectation, stats = _expectation(search, state, perspective, nodes, SEARCH_SECONDS, nested=True)
    for roll, (outcome, _) in zip(rolls, state.chance_outcomes(), strict=True):
        roll["note"] = move_note(state, outcome, state.play(outcome))
    return {
        "kind": "chance",
        "perspective": perspective.as_dict(game),
        "value": _round(expectation),
        "rolls": rolls,
        "depth": stats["depth"],
        "nodes": stats["nodes"],
        "searcher": stats["searcher"],
        "budget": budget,
        "complete": stats["exhausted"] or nodes >= cap,
    }


def _expectation(
    search: _Search, state: State[Any], perspective: Perspective, nodes: int, seconds: float, *, nested: bool
) -> tuple[list[dict[str, Any]], float, dict[str, Any]]:
    """Each outcome's best play and value for ``perspective``, and their expectation, within the budget."""
    outcomes: Sequence[tuple[Any, Any]] = state.chance_outcomes()
    count = max(1, len(outcomes))
    share, seconds_each = max(MIN_NODES, nodes // count), seconds / count
    clock = _Clock(LINE_SECONDS)
    rolls: list[dict[str, Any]] = []
    expectation = 0.0
    depths: list[int] = []
    used, exhausted, searcher = 0, True, ""
    for index, (outcome, probability) in enumerate(outcomes):
        after = state.play(outcome)
        play: list[str] = []
        depth: int | None = None
        estimate = False
        if after.is_terminal():
            value = float(after.returns()[perspective.seat])
        elif after.to_move == CHANCE:
            if nested:
                _, value, inner = _expectation(search, after, perspective, share, seconds_each, nested=False)
                used += inner["nodes"]
                estimate = bool(inner["estimate"])
            else:
                value, estimate = float(after.evaluate()[perspective.seat]), True
        else:
            found = search.run(after, share, seconds_each, 1)
            mover = after.to_move
            assert mover is not None
            value, estimate = perspective.convert(after, mover, found.values[found.best_move])
            roll_clock = _Clock(max(0.0, clock.left()) / (count - index))
            nodes_each = max(MIN_NODES, share // 4)
            play, _ = _extend(
                search, after, found.best_move, nodes_each, roll_clock, TURN_PLIES, same_seat=True
            )
            depth, used, searcher = found.depth, used + found.nodes, found.searcher
            depths.append(found.depth)
            exhausted = exhausted and found.exhausted
        expectation += float(probability) * value
        rolls.append(
            {
                "outcome": state.move_to_text(outcome),
                "probability": str(probability),
                "p": _round(float(probability)),
                "play": play,
                "value": _round(value),
                "depth": depth,
                "estimate": estimate,
            }
        )
    stats = {
        "depth": min(depths) if depths else 0,
        "nodes": used,
        "exhausted": exhausted,
        "searcher": searcher or "none needed",
        "estimate": any(roll["estimate"] for roll in rolls),
    }
    return rolls, expectation, stats


__all__ = [
    "FIRST_NODES",
    "LINES",
    "LINE_SECONDS",
    "MAX_NODES",
    "SEARCH_SECONDS",
    "Found",
    "Perspective",
    "node_cap",
    "search_position",
    "two_sided",
]
