"""Puzzles: positions where one move wins or clearly gains and every other move does not, checked by search.

A puzzle is a position with a seat to move and one *solution*: the single move that a deep search values
well above every other move. The search is the game's compiled alpha-beta (:attr:`Game.kernel
<shogames.core.protocol.Game.kernel>`), to a fixed depth in decisions with no other budget, so a value is
the exact depth-limited value and the same on every machine; with dice (Sho, Shogammon) it is the
expectation over the throws (expectiminimax). Values are for the seat to move, from -1 (lost) to +1 (won);
a value above :data:`WIN` is a forced win within the depth (a win is worth ``1e-4`` less per ply; the
evaluation stays within 0.95). With ``best`` the solution's value and ``second`` the best of the others:

* **win**: ``best > WIN`` and ``second <= WIN``: the only move that wins by force within the depth;
* **defence**: ``second < -WIN`` and ``best >= second + margin``: every other move loses by force;
* **advantage**: ``best >= second + margin`` otherwise (and ``best > -WIN``): the only move that gains
  clearly, by at least the margin on the value scale.

The second value comes from one search over every root move but the solution (alpha-beta's root value
is exact whatever it cuts below it), and both searches start from cleared tables, so a puzzle is judged
the same way each time: ``tests/test_puzzles.py`` judges every shipped puzzle again (:func:`check`).

**Mining** (:func:`mine`) plays seeded games between kernel agents from random openings
(:func:`shogames.arena.random_opening`) and judges every decision position on the way; :func:`mine_records`
judges the positions of game records (the server's games, exported). A position is judged as its text
reads back (:meth:`Game.state_from_text <shogames.core.protocol.Game.state_from_text>`), without the
history of earlier positions that a repetition rule looks at, which is how the puzzle is played later.

**Themes**: the kind of the puzzle (:data:`KIND_THEMES`: ``win-in-1`` where the solution ends the game
won at once, else ``forced-win``, ``defence``, ``advantage``) and what the solution does in the game's own
terms (:meth:`State.move_themes <shogames.core.protocol.State.move_themes>`: a push-off, a shoo, a kill,
a pa ra, a point capture).

**Ratings**: each puzzle ships with a first rating from how plain its solution is (:func:`first_rating`)
and a deviation of 350; the web app moves it with every first try by Glicko-2 (:mod:`shogames.glicko`).

**Files**: each game's puzzles ship as ``puzzles.jsonl`` beside its rules module: a header line (the
format, the mining command and its parameters) and one JSON object a puzzle (:func:`read_puzzles`,
:func:`write_puzzles`). ``shogames puzzles GAME`` lists them; ``docs/puzzles.md`` gives the command
that mined each game's.

Nothing here names a game.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import math
import random
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from shogames.agents.base import Agent, make_agent
from shogames.core.chance import sample_chance
from shogames.core.errors import NotationError, SettingsError, ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import game_class, make
from shogames.core.settings import parse_settings_text

if TYPE_CHECKING:
    from shogames.core.kernel import Searcher
    from shogames.records import Record

FORMAT: Final = "shogames-puzzles"
"""The ``format`` of a puzzle file's header line."""
FORMAT_VERSION: Final = 1
"""The ``version`` of the puzzle file format this module writes and reads."""
FILE_NAME: Final = "puzzles.jsonl"
"""A game's shipped puzzles: this file beside its rules module."""
WIN: Final = 0.99
"""A value above this is a forced win within the depth (the kernels' own test of a forced result)."""
KIND_THEMES: Final[Mapping[str, str]] = {
    "win-in-1": "the solution wins the game at once",
    "forced-win": "the solution wins by force within the depth, and no other move does",
    "defence": "every other move loses by force within the depth",
    "advantage": "the solution gains clearly more than any other move",
}
"""The themes every game's puzzles may have, from the kind of the puzzle."""
KINDS: Final = ("win", "defence", "advantage")
"""The kinds of puzzle (see the module docstring)."""
DEFAULT_AGENT: Final = "kernel-alphabeta:nodes=3000"
"""The agent of every seat in the mined games, unless others are given."""
DEFAULT_DEPTH: Final = 2
"""The depth, in decisions, of the judging search, unless another is given."""
DEFAULT_MARGIN: Final = 0.3
"""How far above every other move the solution must be valued, unless another margin is given."""
DEFAULT_OPENING: Final = 4
"""Random plies that open each mined game (:func:`shogames.arena.random_opening`)."""
DEFAULT_PER_GAME: Final = 3
"""The most puzzles taken from one mined game (or record), so that they come from many games."""
FIRST_DEVIATION: Final = 350.0
"""A new puzzle's rating deviation (Glicko-2's default for a newcomer)."""
FIRST_VOLATILITY: Final = 0.06
"""A new puzzle's rating volatility."""
SLACK: Final = 0.01
"""How near to a puzzle a quick look (:meth:`Judge.may_be_puzzle`) lets a position pass to full judging."""
VALUE_TOLERANCE: Final = 1e-6
"""How far a judged value may be from the one a puzzle file holds (values are written to 6 places)."""


# --- Puzzles and their files -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position, its one solution, how it was judged, its themes and first rating.

    Attributes:
        id: a short id, stable for the position (hex of a hash of the settings and the position).
        game: the game id.
        settings: the game's settings as ``name=value`` text.
        position: the position as the game's text (:meth:`State.to_text`).
        solution: the solution in the game's notation.
        kind: ``win``, ``defence`` or ``advantage`` (:data:`KINDS`).
        value: the solution's value for the seat to move, at ``depth``.
        second: the best value of any other move, at ``depth``.
        depth: the judging search's depth, in decisions.
        margin: the margin it was judged with.
        themes: the kind's theme (:data:`KIND_THEMES`) and the solution's game themes.
        rating: the first rating (:func:`first_rating`).
        moves: how many legal moves the position has.
        line: how play goes on after the solution (best moves while a seat is to move, up to the depth).
        source: where it was found (``seed 1, game 17, ply 31``).
    """

    id: str
    game: str
    settings: str
    position: str
    solution: str
    kind: str
    value: float
    second: float
    depth: int
    margin: float
    themes: tuple[str, ...]
    rating: int
    moves: int
    line: tuple[str, ...] = ()
    source: str = ""

    def make_game(self) -> Game[Any]:
        """The puzzle's game under its settings.

        Raises:
            ShogamesError: an unknown game or a bad setting.
        """
        return game_from_settings(self.game, self.settings)

    def start(self) -> State[Any]:
        """The puzzle's position.

        Raises:
            ShogamesError: the position or a setting cannot be read.
        """
        state: State[Any] = self.make_game().state_from_text(self.position)
        return state

    def to_json(self) -> dict[str, Any]:
        """The puzzle as a JSON object (one line of a puzzle file), without the game id of its file."""
        return {
            "id": self.id,
            "position": self.position,
            "solution": self.solution,
            "kind": self.kind,
            "value": round(self.value, 6),
            "second": round(self.second, 6),
            "depth": self.depth,
            "margin": self.margin,
            "themes": list(self.themes),
            "rating": self.rating,
            "moves": self.moves,
            "line": list(self.line),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], game: str, settings: str) -> Puzzle:
        """A puzzle from its JSON object in a file of ``game`` under ``settings``.

        Raises:
            NotationError: a field is missing or of the wrong type.
        """
        try:
            return cls(
                id=_typed(data, "id", str),
                game=game,
                settings=settings,
                position=_typed(data, "position", str),
                solution=_typed(data, "solution", str),
                kind=_typed(data, "kind", str),
                value=float(_typed(data, "value", (int, float))),
                second=float(_typed(data, "second", (int, float))),
                depth=_typed(data, "depth", int),
                margin=float(_typed(data, "margin", (int, float))),
                themes=tuple(_typed(data, "themes", list)),
                rating=_typed(data, "rating", int),
                moves=_typed(data, "moves", int),
                line=tuple(data.get("line", ())),
                source=str(data.get("source", "")),
            )
        except TypeError as error:
            raise NotationError(f"a puzzle's fields are wrong: {error}") from None


def _typed(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in data:
        raise NotationError(f"a puzzle has no {name!r}")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise NotationError(f"a puzzle's {name!r} is {value!r}, not of the right type")
    return value


@dataclass(frozen=True)
class PuzzleSet:
    """A game's puzzles with how they were mined: what a puzzle file holds.

    Attributes:
        game: the game id.
        settings: the settings of every puzzle, as ``name=value`` text.
        command: the command that mined them.
        parameters: the mining's parameters (depth, margin, agents, seed, ...), and its time in seconds.
        puzzles: the puzzles, easiest first (by first rating).
    """

    game: str
    settings: str
    command: str
    parameters: Mapping[str, Any] = field(default_factory=dict)
    puzzles: tuple[Puzzle, ...] = ()

    def by_id(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle with this id, or ``None``."""
        return self._index().get(puzzle_id)

    def after(self, puzzle_id: str | None) -> Puzzle:
        """The puzzle that comes after ``puzzle_id`` (the first after the last, or for an unknown id).

        Raises:
            ValueError: the set holds no puzzle.
        """
        if not self.puzzles:
            raise ValueError(f"{self.game} has no puzzles")
        place = {puzzle.id: index for index, puzzle in enumerate(self.puzzles)}
        index = place.get(puzzle_id, -1) if puzzle_id is not None else -1
        return self.puzzles[(index + 1) % len(self.puzzles)]

    def _index(self) -> dict[str, Puzzle]:
        return {puzzle.id: puzzle for puzzle in self.puzzles}


def game_from_settings(game_id: str, settings: str) -> Game[Any]:
    """The game ``game_id`` under settings given as ``name=value`` text.

    Raises:
        ShogamesError: an unknown game or a bad setting.
    """
    cls = game_class(game_id)
    values = parse_settings_text(cls.setting_specs, settings) if settings.strip() else {}
    return make(game_id, None, **values)


def read_puzzles(text: str, game_id: str) -> PuzzleSet:
    """Read a puzzle file's text (its header line, then a puzzle a line) for the game ``game_id``.

    Raises:
        NotationError: the text is not a puzzle file of this game and format (the message says where).
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise NotationError("an empty puzzle file: it needs its header line")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as error:
        raise NotationError(f"the puzzle file's header is not JSON: {error}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise NotationError(f'not a puzzle file: its first line has no "format": "{FORMAT}"')
    if header.get("version") != FORMAT_VERSION:
        raise NotationError(
            f"puzzle file version {header.get('version')!r}; this shogames reads {FORMAT_VERSION}"
        )
    if header.get("game") != game_id:
        raise NotationError(f"the puzzle file is for {header.get('game')!r}, not {game_id!r}")
    settings = str(header.get("settings", ""))
    puzzles = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise NotationError(f"line {number} of the puzzle file is not JSON: {error}") from None
        if not isinstance(data, dict):
            raise NotationError(f"line {number} of the puzzle file is not a JSON object")
        try:
            puzzles.append(Puzzle.from_json(data, game_id, settings))
        except NotationError as error:
            raise NotationError(f"line {number} of the puzzle file: {error}") from None
    return PuzzleSet(
        game=game_id,
        settings=settings,
        command=str(header.get("command", "")),
        parameters=dict(header.get("parameters", {})),
        puzzles=tuple(puzzles),
    )


def puzzles_text(puzzle_set: PuzzleSet) -> str:
    """A puzzle file's text: the header line, then one puzzle a line (keys in a fixed order)."""
    header = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": puzzle_set.game,
        "settings": puzzle_set.settings,
        "count": len(puzzle_set.puzzles),
        "command": puzzle_set.command,
        "parameters": dict(puzzle_set.parameters),
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps(puzzle.to_json(), ensure_ascii=False) for puzzle in puzzle_set.puzzles]
    return "\n".join(lines) + "\n"


def write_puzzles(path: Path, puzzle_set: PuzzleSet) -> None:
    """Write a puzzle file (:func:`puzzles_text`)."""
    path.write_text(puzzles_text(puzzle_set), encoding="utf-8")


def puzzle_file(game_id: str) -> Path:
    """Where a registered game's shipped puzzles are: :data:`FILE_NAME` beside its rules module.

    Raises:
        SettingsError: no game has that id.
    """
    module = importlib.import_module(game_class(game_id).__module__)
    if module.__file__ is None:
        raise SettingsError(f"the game {game_id!r} has no folder for puzzles")
    return Path(module.__file__).parent / FILE_NAME


@functools.cache
def _read_file(path: Path, mtime: float, game_id: str) -> PuzzleSet:
    return read_puzzles(path.read_text(encoding="utf-8"), game_id)


def shipped_puzzles(game_id: str) -> PuzzleSet | None:
    """A registered game's shipped puzzles, or ``None`` where it ships none.

    Raises:
        SettingsError: no game has that id.
        NotationError: its puzzle file cannot be read.
    """
    path = puzzle_file(game_id)
    if not path.is_file():
        return None
    return _read_file(path, path.stat().st_mtime, game_id)


# --- Judging a position --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """A judged position: its best move, that move's value, the best value of the others, the kind.

    ``kind`` is ``None`` where the position is no puzzle (:func:`puzzle_kind`).
    """

    move: Hashable
    value: float
    second: float
    kind: str | None


def puzzle_kind(value: float, second: float, margin: float) -> str | None:
    """The kind of puzzle a best move's ``value`` and the others' best ``second`` make, or ``None``."""
    if value > WIN and second <= WIN:
        return "win"
    if value <= -WIN or value - second < margin:
        return None
    return "defence" if second < -WIN else "advantage"


class Judge:
    """A game's compiled alpha-beta, valuing a position's moves to a depth the same way every time.

    Every search starts from cleared tables (:meth:`Searcher.reset`), so a value depends on the position,
    the moves searched and the depth alone.

    Args:
        game: the game (its kernel searches).
        depth: the default depth, in decisions.

    Raises:
        SettingsError: the game has no kernel here, or its kernel no alpha-beta that values single moves.
    """

    def __init__(self, game: Game[Any], depth: int) -> None:
        from shogames.analysis import kernel_analyser
        from shogames.core.kernel import unavailable_reason

        if depth < 1:
            raise SettingsError(f"a puzzle's depth is 1 or more, got {depth}")
        searcher = kernel_analyser(game, depth) if game.kernel is not None else None
        if searcher is None:
            reason = unavailable_reason(game) if game.kernel is None else "its kernel has no such search"
            raise SettingsError(
                f"puzzles of {game.id} need its compiled alpha-beta, which values single moves: {reason}"
            )
        self.game = game
        self.depth = depth
        self.searcher: Searcher[Any] = searcher
        self.fresh = True
        """Whether every search starts from cleared tables (:meth:`may_be_puzzle` looks without)."""

    def holds(self, state: State[Any]) -> bool:
        """Whether the kernel can search ``state`` (its counts fit the kernel's integers)."""
        kernel = self.game.kernel
        return kernel is not None and kernel.holds(state)

    def best(self, state: State[Any], depth: int | None = None) -> tuple[Any, float]:
        """The best legal move at ``state`` (a seat to move) and its value, at ``depth`` (the default's)."""
        moves = list(state.legal_moves())
        index, value = self._search(state, moves, depth or self.depth)
        return moves[index], value

    def best_other(self, state: State[Any], move: Any, depth: int | None = None) -> float:
        """The best value of the legal moves other than ``move`` (``-inf`` where there is none)."""
        others = [other for other in state.legal_moves() if other != move]
        if not others:
            return -math.inf
        return self._search(state, others, depth or self.depth)[1]

    def value(self, state: State[Any], move: Any, depth: int | None = None) -> float:
        """``move``'s value at ``state`` for the seat to move, at ``depth`` (:meth:`Searcher.value_of`)."""
        return self._search(state, [move], depth or self.depth)[1]

    def verdict(self, state: State[Any], margin: float, depth: int | None = None) -> Verdict:
        """The best move, its value, the others' best and the kind of puzzle (or ``None``) at ``state``."""
        move, value = self.best(state, depth)
        second = self.best_other(state, move, depth)
        return Verdict(move, value, second, puzzle_kind(value, second, margin))

    def may_be_puzzle(self, state: State[Any], margin: float) -> bool:
        """A quick look before :meth:`verdict`: ``False`` where the position is surely no puzzle.

        The same two searches without clearing the tables first (an earlier search's entries only order
        moves, so the values can differ only in the last digits); a position within :data:`SLACK` of being
        a puzzle passes.
        """
        self.fresh = False
        try:
            verdict = self.verdict(state, margin - SLACK)
        finally:
            self.fresh = True
        near_win = verdict.value > WIN - SLACK and verdict.second <= WIN + SLACK
        return verdict.kind is not None or near_win

    def _search(self, state: State[Any], moves: Sequence[Any], depth: int) -> tuple[int, float]:
        """(The index of the best of ``moves``, its value): one search with ``moves`` alone at the root."""
        import numpy as np

        from shogames.kernels.search import CompiledAlphaBeta

        searcher = self.searcher
        if not isinstance(searcher, CompiledAlphaBeta):  # any other searcher: each move alone
            values = []
            for move in moves:
                if self.fresh:
                    searcher.reset()
                value = searcher.value_of(state, move, depth=depth)
                if value is None:
                    raise SettingsError(f"the {self.game.id} searcher stopped valuing single moves")
                values.append(value)
            best = max(range(len(values)), key=values.__getitem__)
            return best, values[best]
        kernel = searcher.kernel
        codes = np.array([kernel.encode_move(move) for move in moves], dtype=np.int64)
        scores = np.zeros(codes.shape[0], dtype=np.float64)
        stats = np.zeros(2, dtype=np.int64)
        if self.fresh:
            searcher.reset()
        index, value = searcher.run(state, codes, depth, (0, 0.0), (scores, stats))
        return index, value


@functools.cache
def _judge(game: Game[Any], depth: int) -> Judge:
    """One judge per game and depth in a process (a searcher's tables are large)."""
    return Judge(game, depth)


def check(puzzle: Puzzle) -> str | None:
    """Judge a puzzle again: ``None`` where its solution is still the one, else what differs.

    The position is judged at the puzzle's depth with its margin: the best move must be the solution,
    of the same kind, with the same values (to :data:`VALUE_TOLERANCE`), and its themes must be the
    ones its solution has.

    Raises:
        SettingsError: the game has no kernel here.
    """
    try:
        state = puzzle.start()
        solution = state.parse_move(puzzle.solution)
    except ShogamesError as error:
        return f"the position or the solution does not read: {error}"
    if state.to_move is None or state.to_move == CHANCE:
        return "no seat is to move in the position"
    judge = _judge(state.game, puzzle.depth)
    if not judge.holds(state):
        return "the kernel cannot search the position"
    value = judge.value(state, solution)
    second = judge.best_other(state, solution)
    kind = puzzle_kind(value, second, puzzle.margin)
    if kind != puzzle.kind:
        return f"judged {kind or 'no puzzle'} (values {value:.6f} and {second:.6f}), not {puzzle.kind}"
    if abs(value - puzzle.value) > VALUE_TOLERANCE or abs(second - puzzle.second) > VALUE_TOLERANCE:
        return f"values {value:.6f} and {second:.6f}, not {puzzle.value:.6f} and {puzzle.second:.6f}"
    themes = puzzle_themes(state, solution, kind)
    if themes != puzzle.themes:
        return f"themes {themes}, not {puzzle.themes}"
    if len(state.legal_moves()) != puzzle.moves:
        return f"{len(state.legal_moves())} legal moves, not {puzzle.moves}"
    return None


def puzzle_themes(state: State[Any], move: Any, kind: str) -> tuple[str, ...]:
    """The themes of a puzzle of ``kind`` solved by ``move``: the kind's, then the move's game themes."""
    if kind == "win":
        after = state.play(move)
        mover = state.to_move
        at_once = (
            after.is_terminal() and mover is not None and after.returns()[mover] >= state.game.max_utility
        )
        first = "win-in-1" if at_once else "forced-win"
    else:
        first = kind
    return (first, *state.move_themes(move))


def first_rating(judge: Judge, state: State[Any], verdict: Verdict, margin: float) -> int:
    """A new puzzle's rating, before anyone has tried it: how plain its solution is.

    1500, less 300 where a one-decision search already sees the solution as clearly best (a push-off in
    plain sight), less 100 where it prefers it by less than the margin, more 200 where it prefers another
    move (the solution needs the deeper look); more 100 for each doubling of the legal moves above 16 (less
    below), within 300; and less 200 for a win at once. Kept within 600 to 2600. A puzzle judged at depth
    1 itself counts as one whose solution is best by less than the margin (less 100).
    """
    rating = 1500.0
    if judge.depth > 1:
        shallow = judge.verdict(state, margin, depth=1)
        if shallow.move != verdict.move:
            rating += 200
        elif shallow.value - shallow.second >= margin:
            rating -= 300
        else:
            rating -= 100
    else:
        rating -= 100
    moves = max(2, len(state.legal_moves()))
    rating += max(-300.0, min(300.0, 100.0 * math.log2(moves / 16)))
    if verdict.kind == "win":
        after = state.play(verdict.move)
        if after.is_terminal():
            rating -= 200
    return round(max(600.0, min(2600.0, rating)))


def _line_after(judge: Judge, state: State[Any], depth: int) -> tuple[str, ...]:
    """Best play from ``state`` while a seat is to move, up to ``depth`` decisions (the puzzle's line)."""
    line = []
    for left in range(depth, 0, -1):
        if state.is_terminal() or state.to_move == CHANCE or not judge.holds(state):
            break
        move, _ = judge.best(state, left)
        line.append(state.move_to_text(move))
        state = state.play(move)
    return tuple(line)


def puzzle_id(settings: str, position: str) -> str:
    """A puzzle's id: 10 hex digits of the SHA-256 of its settings and position."""
    return hashlib.sha256(f"{settings}\n{position}".encode()).hexdigest()[:10]


def judge_position(judge: Judge, state: State[Any], margin: float, source: str) -> Puzzle | None:
    """The puzzle at ``state`` (read back from its text), or ``None`` where it is none.

    ``None`` also where no seat is to move, there is a single legal move, or the kernel cannot search it.
    """
    game = judge.game
    position = game.state_from_text(state.to_text())
    mover = position.to_move
    if mover is None or mover == CHANCE or not judge.holds(position):
        return None
    moves = position.legal_moves()
    if len(moves) < 2 or not judge.may_be_puzzle(position, margin):
        return None
    verdict = judge.verdict(position, margin)
    if verdict.kind is None:
        return None
    value = judge.value(position, verdict.move)  # as check() values it: the solution alone at the root
    verdict = Verdict(verdict.move, value, verdict.second, puzzle_kind(value, verdict.second, margin))
    if verdict.kind is None:
        return None
    text = position.to_text()
    settings = game.settings_text()
    return Puzzle(
        id=puzzle_id(settings, text),
        game=game.id,
        settings=settings,
        position=text,
        solution=position.move_to_text(verdict.move),
        kind=verdict.kind,
        value=round(verdict.value, 6),
        second=round(verdict.second, 6),
        depth=judge.depth,
        margin=margin,
        themes=puzzle_themes(position, verdict.move, verdict.kind),
        rating=first_rating(judge, position, verdict, margin),
        moves=len(moves),
        line=_line_after(judge, position.play(verdict.move), judge.depth - 1),
        source=source,
    )


# --- Mining ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MiningOptions:
    """How puzzles are mined (the defaults are the module's ``DEFAULT_*``).

    Attributes:
        count: how many puzzles to find.
        seed: the seed of the openings, the agents and the dice.
        depth: the judging search's depth, in decisions.
        margin: how far above every other move the solution must be valued.
        agents: the agent spec of each seat in turn (repeated over the seats).
        opening: random plies before the agents play.
        per_game: the most puzzles taken from one game.
        max_games: the most games played before giving up.
    """

    count: int = 200
    seed: int = 0
    depth: int = DEFAULT_DEPTH
    margin: float = DEFAULT_MARGIN
    agents: tuple[str, ...] = (DEFAULT_AGENT,)
    opening: int = DEFAULT_OPENING
    per_game: int = DEFAULT_PER_GAME
    max_games: int = 100_000

    def check(self) -> None:
        """Raise a :class:`SettingsError` for an option out of range."""
        if self.count < 1:
            raise SettingsError(f"mine 1 or more puzzles, not {self.count}")
        if self.depth < 1:
            raise SettingsError(f"the depth is 1 or more, not {self.depth}")
        if not 0 < self.margin <= 2:
            raise SettingsError(
                f"the margin is above 0 and at most 2 (the whole value scale), not {self.margin}"
            )
        if not self.agents:
            raise SettingsError("mining needs at least one agent")
        if self.opening < 0 or self.per_game < 1 or self.max_games < 1:
            raise SettingsError("the opening is 0 or more plies, and per-game and max-games 1 or more")

    def parameters(self) -> dict[str, Any]:
        """The options as a puzzle file's header records them."""
        return {
            "seed": self.seed,
            "depth": self.depth,
            "margin": self.margin,
            "agents": list(self.agents),
            "opening": self.opening,
            "per_game": self.per_game,
        }


def _play_and_judge(
    judge: Judge, players: Sequence[Agent], start: State[Any], rng: random.Random, options: MiningOptions,
    source: str, seen: set[Hashable],
) -> Iterator[Puzzle]:  # fmt: skip
    """Play one game from ``start``, judging each decision position; the puzzles found, at most per_game."""
    state = start
    found = 0
    while not state.is_terminal() and found < options.per_game:
        mover = state.to_move
        if mover == CHANCE:
            state = state.play(sample_chance(state, rng))
            continue
        assert mover is not None
        key = state.game.state_from_text(state.to_text()).key()
        if key not in seen:
            seen.add(key)
            puzzle = judge_position(judge, state, options.margin, f"{source}, ply {state.ply}")
            if puzzle is not None:
                found += 1
                yield puzzle
        state = state.play(players[mover].select_move(state))


def mine(
    game: Game[Any], options: MiningOptions, progress: Callable[[int, int], None] | None = None
) -> list[Puzzle]:
    """Mine ``options.count`` puzzles from seeded games between agents, easiest first.

    Game ``n`` opens with ``options.opening`` random plies (:func:`shogames.arena.random_opening` with seed
    ``seed * 1,000,003 + n``), then each seat plays its agent of ``options.agents`` (seeded); every decision
    position met is judged (:func:`judge_position`), each position once.

    Args:
        game: the game and settings.
        options: what to mine and how.
        progress: called with (puzzles found, games played) after each game.

    Raises:
        SettingsError: a bad option or agent, or the game has no kernel here.
        ShogamesError: fewer puzzles than asked for in ``options.max_games`` games.
    """
    from shogames.arena import random_opening

    options.check()
    judge = Judge(game, options.depth)
    found: list[Puzzle] = []
    seen: set[Hashable] = set()
    for number in range(options.max_games):
        if len(found) >= options.count:
            break
        game_seed = options.seed * 1_000_003 + number
        players = [
            make_agent(options.agents[seat % len(options.agents)], seed=game_seed * 7 + seat, game=game.id)
            for seat in range(game.num_players)
        ]
        for player in players:
            player.check_game(game)
        start = random_opening(game, options.opening, game_seed)
        rng = random.Random(game_seed)
        source = f"seed {options.seed}, game {number}"
        found += _play_and_judge(judge, players, start, rng, options, source, seen)
        if progress is not None:
            progress(min(len(found), options.count), number + 1)
    if len(found) < options.count:
        raise ShogamesError(f"only {len(found)} puzzles in {options.max_games} games; play more games")
    return sorted(found[: options.count], key=lambda puzzle: (puzzle.rating, puzzle.id))


def mine_records(game: Game[Any], records: Sequence[Record], options: MiningOptions) -> list[Puzzle]:
    """The puzzles among the positions of game records of ``game`` (records of other settings are skipped).

    Each record's decision positions are judged in order, at most ``options.per_game`` puzzles a record,
    and at most ``options.count`` in all; easiest first.

    Raises:
        SettingsError: a bad option, or the game has no kernel here.
        NotationError: a record does not replay.
    """
    from shogames.records import replay

    options.check()
    judge = Judge(game, options.depth)
    found: list[Puzzle] = []
    seen: set[Hashable] = set()
    for number, record in enumerate(records, start=1):
        if len(found) >= options.count:
            break
        replayed = replay(record)
        if replayed.game != game:
            continue
        taken = 0
        for state in replayed.states:
            if taken >= options.per_game or len(found) >= options.count:
                break
            if state.is_terminal() or state.to_move == CHANCE:
                continue
            key = game.state_from_text(state.to_text()).key()
            if key in seen:
                continue
            seen.add(key)
            puzzle = judge_position(judge, state, options.margin, f"record {number}, ply {state.ply}")
            if puzzle is not None:
                taken += 1
                found.append(puzzle)
    return sorted(found, key=lambda puzzle: (puzzle.rating, puzzle.id))


def mined_set(
    game: Game[Any], puzzles: Sequence[Puzzle], command: str, parameters: Mapping[str, Any]
) -> PuzzleSet:
    """A puzzle file's content for ``puzzles`` mined from ``game`` by ``command``."""
    return PuzzleSet(
        game=game.id,
        settings=game.settings_text(),
        command=command,
        parameters=dict(parameters),
        puzzles=tuple(puzzles),
    )


# --- Trying a puzzle ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refutation:
    """Why a move other than the solution fails: its value and how play goes on after it.

    Attributes:
        move: the move tried, in notation.
        value: its value at the puzzle's depth, for the seat that tried it.
        line: ``(mover, move text)`` from the position after it: chance outcomes (the throw worst for the
            solver) and best moves, up to and including the first move of another seat.
        text: all that in a sentence or two.
    """

    move: str
    value: float
    line: tuple[tuple[int, str], ...]
    text: str


def value_words(value: float) -> str:
    """A value for people: ``a forced win``, ``a forced loss``, or the number with its sign."""
    if value > WIN:
        return "a forced win"
    if value < -WIN:
        return "a forced loss"
    return f"{value:+.2f}"


def value_phrase(value: float) -> str:
    """What a move does, for people: ``wins by force``, ``loses by force`` or ``is worth +0.31``."""
    if value > WIN:
        return "wins by force"
    if value < -WIN:
        return "loses by force"
    return f"is worth {value:+.2f}"


def line_words(names: Sequence[str], line: Sequence[tuple[int, str]]) -> str:
    """A line as words: ``the dice give 3-4, White plays 1:7g7f``."""
    parts = []
    for mover, text in line:
        parts.append(f"the dice give {text}" if mover == CHANCE else f"{names[mover]} plays {text}")
    return ", ".join(parts)


def refute(puzzle: Puzzle, move_text: str) -> Refutation:
    """Why ``move_text`` (a legal move of the puzzle's position, not its solution) fails.

    Its value comes from a search at the puzzle's depth; the line from there: at a throw of the dice the
    outcome worst for the solver (each outcome searched one decision less deep), at a seat the best move
    (searched one decision less deep), until another seat than the solver has moved or the game ends.

    Raises:
        ShogamesError: the move does not read or is not legal; SettingsError: no kernel here.
    """
    state = puzzle.start()
    move = state.parse_move(move_text)
    game = state.game
    judge = _judge(game, puzzle.depth)
    solver = state.to_move
    assert solver is not None
    value = judge.value(state, move)
    shallow = max(1, puzzle.depth - 1)
    line: list[tuple[int, str]] = []
    after = state.play(move)
    for _ in range(4 * puzzle.depth + 4):
        if after.is_terminal() or not judge.holds(after):
            break
        mover = after.to_move
        assert mover is not None
        if mover == CHANCE:
            step = _worst_outcome(judge, after, solver, shallow)
        else:
            step, _ = judge.best(after, shallow)
        line.append((mover, after.move_to_text(step)))
        after = after.play(step)
        if mover not in (CHANCE, solver):
            break
    played = state.move_to_text(move)
    names = game.player_names
    depth = puzzle.depth
    sentences = [
        f"Searched {depth} moves deep, {played} {value_phrase(value)}; "
        f"the solution, {puzzle.solution}, {value_phrase(puzzle.value)}."
    ]
    if line:
        sentences.append(f"After it, {line_words(names, line)}.")
    if after.is_terminal():
        returns = after.returns()
        outcome = "you lose" if returns[solver] < 0 else "you win" if returns[solver] > 0 else "a draw"
        sentences.append(f"The game ends: {outcome}.")
    return Refutation(played, value, tuple(line), " ".join(sentences))


def _worst_outcome(judge: Judge, state: State[Any], solver: int, depth: int) -> Any:
    """The chance outcome at ``state`` after which the solver stands worst (searched ``depth`` deep)."""
    worst, worst_value = None, math.inf
    for outcome in state.legal_moves():
        child = state.play(outcome)
        if child.is_terminal():
            value = child.returns()[solver]
        elif child.to_move == CHANCE or not judge.holds(child):
            value = child.evaluate()[solver]
        else:
            _, best = judge.best(child, depth)
            value = best if child.to_move == solver else -best
        if value < worst_value:
            worst, worst_value = outcome, value
    return worst


def mining_seconds(started: float) -> float:
    """Seconds since ``started`` (``time.perf_counter``), to one decimal: a header's record of the mining."""
    return round(time.perf_counter() - started, 1)


__all__ = [
    "FILE_NAME",
    "KINDS",
    "KIND_THEMES",
    "WIN",
    "Judge",
    "MiningOptions",
    "Puzzle",
    "PuzzleSet",
    "Refutation",
    "check",
    "mine",
    "mine_records",
    "read_puzzles",
    "refute",
    "shipped_puzzles",
    "write_puzzles",
]
