"""The arena: round robins between agents, in parallel processes, with scores, Elo ratings and records.

Every pair of agents plays the same number of games. In game ``k`` of a pair, the first agent takes the
even seats when ``k`` is even and the odd seats when it is odd (two players: it moves first in every
other game; three players: A B A, then B A B), so both agents play every seat equally often over two
games. A game counts as a win for the agent whose seats' returns add up to more, and as a draw when they
are equal.

Every game has fixed seeds: the chance seed is ``seed + k`` and each seat's agent gets its own seed from
the pair, ``k`` and the seat, so a tournament gives the same games however many processes run it.

Ratings are the maximum-likelihood Elo ratings of the Bradley-Terry model (Bradley & Terry, Biometrika
39, 1952; Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of Statistics 32, 2004),
with draws as half a win and one virtual draw per pair so that a perfect score stays finite; the first
agent is rated 0. Each rating's 95% interval is its profile-likelihood interval (the ratings where twice the
log-likelihood, maximised over the other ratings, falls less than 3.84, the 95% point of chi-square with
one degree of freedom, below its maximum; Venzon & Moolgavkar, Applied Statistics 37, 1988), so a lopsided
or perfect score still gets an interval of real width: a bootstrap over games has nothing to resample there
and shrank to a point ("+382 to +382" for 4 wins in 4 games). A pair's score has the 95% Wilson score
interval, with draws as half a win.

With an ``out`` folder, :func:`run_arena` appends every game to ``out/played.jsonl`` (:data:`PLAYED`) as it
ends, so a run that is stopped (Ctrl-C, a kill, a reboot) can go on later with ``resume=True``: only the games
not yet finished are played, and the report is the same as an uninterrupted run's.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from shogames.agents import make_agent
from shogames.agents.levels import LevelAgent
from shogames.core.chance import random_plies
from shogames.core.errors import ShogamesError
from shogames.core.protocol import Game, State
from shogames.core.registry import make
from shogames.match import play_game
from shogames.records import write_record

_CHI_SQUARE_95 = 3.841458820694124
"""The 95% point of chi-square with one degree of freedom: the likelihood-ratio bound of an interval."""
_WIDEST = 4000.0
"""How far from its estimate, in Elo, an interval's end is looked for."""
_ELO = 400.0 / math.log(10.0)

PLAYED = "played.jsonl"
"""The file of ``out`` where :func:`run_arena` keeps every finished game (:func:`read_played` reads it).

Its first line describes the run (``{"format": ..., "run": {...}}``: the game, its settings text, the preset,
the agents, the games per pair, the seed, the opening and the budget); every other line is one
:class:`GameResult` as a JSON object, in the order the games ended, each flushed and synced to disk before the
next game is counted. A run killed while writing leaves at most its last line cut short, which the reader
drops (that game is played again).
"""
_PLAYED_FORMAT = "shogames arena played games 1"
"""The ``format`` of :data:`PLAYED`'s first line."""


class ResumeError(ShogamesError):
    """An arena that cannot be resumed: no :data:`PLAYED` file, one that cannot be read, or another run's.

    A :class:`ValueError` (through :class:`~shogames.core.errors.ShogamesError`), so the command line shows it
    as a one-line ``Error: ...``.
    """


@dataclass(frozen=True)
class GameTask:
    """One arena game to play: the game, the two agents of the pair and the game's number in the pair."""

    game_id: str
    preset: str | None
    settings: tuple[tuple[str, Any], ...]
    first: str
    second: str
    pair: tuple[int, int]
    number: int
    seed: int
    budget: tuple[tuple[str, str], ...] = ()
    opening: int = 0
    """Plies played at random before the agents take over (:func:`random_opening`); 0 starts at the
    initial position."""

    def seats(self, num_players: int) -> list[str]:
        """The agent spec of every seat: the first agent on the even seats in even-numbered games."""
        even, odd = (self.first, self.second) if self.number % 2 == 0 else (self.second, self.first)
        return [even if seat % 2 == 0 else odd for seat in range(num_players)]


@dataclass
class GameResult:
    """What one arena game gave: the first agent's score (1, 1/2 or 0), its length, time and record.

    ``returns`` holds every seat's return, seat by seat, whoever played it.
    """

    pair: tuple[int, int]
    number: int
    score: float
    plies: int
    termination: str
    seconds: float
    record: str
    returns: tuple[float, ...] = ()


def play_task(task: GameTask) -> GameResult:
    """Play one arena game (in a worker process) and return its result with the record's text."""
    game = make(task.game_id, task.preset, **dict(task.settings))
    specs = task.seats(game.num_players)
    agents = [
        make_agent(spec, seed=_agent_seed(task, seat), game=game.id, budget=dict(task.budget))
        for seat, spec in enumerate(specs)
    ]
    start = (
        random_opening(game, task.opening, task.seed * 1_000_003 + task.number // 2) if task.opening else None
    )
    started = time.perf_counter()
    final, record = play_game(game, agents, seed=task.seed + task.number, players=specs, start=start)
    seconds = time.perf_counter() - started
    returns = final.returns()
    first = sum(value for seat, value in enumerate(returns) if seat % 2 == task.number % 2)
    second = sum(returns) - first
    score = 1.0 if first > second + 1e-9 else 0.0 if first < second - 1e-9 else 0.5
    return GameResult(
        task.pair,
        task.number,
        score,
        final.ply,
        final.termination() or "",
        seconds,
        write_record(record),
        tuple(returns),
    )


def random_opening(game: Game[Any], plies: int, seed: int) -> State[Any]:
    """The position after ``plies`` random plies (seat moves and chance outcomes) from the initial position.

    Games ``2k`` and ``2k + 1`` of a pair get the same seed, so each opening is played twice, once with
    each agent in each seat: the deterministic searchers of Shobu and Shoo, which would otherwise play one
    game over and over, meet a different position each pair of games, and neither gains from the luck of
    the opening. An opening that ends the game is drawn again with the next seed.
    """
    for attempt in range(1000):
        rng = random.Random(seed + 7_777_777 * attempt)
        state = random_plies(game.new_initial_state(), plies, rng)
        if not state.is_terminal():
            return state
    raise ValueError(f"no {plies}-ply random opening of {game.id} leaves the game going")


def _agent_seed(task: GameTask, seat: int) -> int:
    return task.seed * 1_000_003 + 7919 * task.number + 101 * seat + 17 * task.pair[0] + 5 * task.pair[1]


def tasks_for(
    game_id: str,
    agents: Sequence[str],
    games: int,
    *,
    preset: str | None = None,
    settings: dict[str, Any] | None = None,
    seed: int = 0,
    budget: dict[str, str] | None = None,
    opening: int = 0,
) -> list[GameTask]:
    """Every game of a round robin: ``games`` per pair of ``agents``, pair by pair.

    With ``opening`` above 0 each game starts from a random opening of that many plies
    (:func:`random_opening`).

    Raises:
        ValueError: fewer than two agents, or fewer than one game per pair.
    """
    if len(agents) < 2:
        raise ValueError(f"an arena needs at least two agents, got {len(agents)}")
    if games < 1:
        raise ValueError(f"each pair needs at least one game, got {games}")
    frozen = tuple(sorted((settings or {}).items()))
    extra = tuple(sorted((budget or {}).items()))
    return [
        GameTask(game_id, preset, frozen, agents[i], agents[j], (i, j), number, seed, extra, opening)
        for i in range(len(agents))
        for j in range(i + 1, len(agents))
        for number in range(games)
    ]


def run_tasks(
    tasks: Sequence[GameTask], jobs: int, ray: str | None = None
) -> Generator[GameResult, None, None]:
    """Play the tasks, yielding results as they end.

    Args:
        tasks: the games to play.
        jobs: worker processes on this machine (1: in this process); ignored with ``ray``.
        ray: a Ray address (:mod:`shogames.ray_tasks`: ``"local"``, ``"auto"``, ``ray://...``) to spread the
            games over a Ray cluster instead.
    """
    if ray is not None:
        from shogames.ray_tasks import run_on_ray

        yield from run_on_ray(play_task, tasks, ray)
        return
    if jobs <= 1:
        yield from map(play_task, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_task, task) for task in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:  # stopped early (an error, Ctrl-C, the caller closing us): start no more games
            for future in futures:
                future.cancel()


@dataclass
class PairScore:
    """A pair's results from the first agent's side, with the 95% interval of its mean score."""

    first: str
    second: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    mean_plies: float
    seconds_per_game: float
    first_score: float = 0.0
    """The first agent's mean score in the games where it moved first (seat 0: Black, the first throw)."""
    first_low: float = 0.0
    first_high: float = 0.0
    second_score: float = 0.0
    """Its mean score in the games where the other agent moved first."""
    second_low: float = 0.0
    second_high: float = 0.0


@dataclass
class Rating:
    """An agent's Elo rating with its 95% profile-likelihood interval."""

    agent: str
    elo: float
    low: float
    high: float


@dataclass
class ArenaReport:
    """A finished tournament: the pairs' scores, the ratings and how it was run."""

    game: str
    settings: str
    agents: list[str]
    games_per_pair: int
    seed: int
    pairs: list[PairScore] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)
    levels: dict[str, str] = field(default_factory=dict)
    """The agent spec that played each level among the agents (``{"hard": "kernel-alphabeta:nodes=30000"}``):
    a level's spec may change between versions, its games stay that spec's."""

    def table(self) -> str:
        """The results as Markdown tables: pairs, then ratings."""
        lines = [
            "| agent | opponent | games | won | drawn | lost | score | 95% interval | moving first "
            "| moving second | plies/game | s/game |",
            "|---|---|---:|---:|---:|---:|---:|---|---|---|---:|---:|",
        ]
        lines.extend(
            f"| {pair.first} | {pair.second} | {pair.games} | {pair.wins} | {pair.draws} | {pair.losses} "
            f"| {100 * pair.score:.1f}% | {100 * pair.low:.1f}–{100 * pair.high:.1f}% "
            f"| {_percent(pair.first_score, pair.first_low, pair.first_high)} "
            f"| {_percent(pair.second_score, pair.second_low, pair.second_high)} "
            f"| {pair.mean_plies:.0f} | {pair.seconds_per_game:.2f} |"
            for pair in self.pairs
        )
        lines += ["", "| agent | Elo | 95% interval |", "|---|---:|---|"]
        for rating in sorted(self.ratings, key=lambda r: -r.elo):
            lines.append(f"| {rating.agent} | {rating.elo:+.0f} | {rating.low:+.0f} to {rating.high:+.0f} |")
        if self.levels:
            lines += ["", "| level | played by |", "|---|---|"]
            lines.extend(f"| {level} | `{spec}` |" for level, spec in self.levels.items())
        return "\n".join(lines)

    def to_json(self) -> str:
        """The report as JSON."""
        return json.dumps(asdict(self), indent=2)


def _percent(score: float, low: float, high: float) -> str:
    """A score and its interval as the table writes them: ``62.0% (55.1–68.4)``."""
    return f"{100 * score:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def _mean_with_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its Wilson interval; zeros for no values."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = sum(values) / len(values)
    return (mean, *wilson_interval(mean, len(values)))


def pair_scores(agents: Sequence[str], results: Sequence[GameResult]) -> list[PairScore]:
    """Each pair's wins, draws, losses and mean score with its 95% interval, from the first agent's side.

    The scores are also split by who moved first: the first agent takes seat 0 in the pair's
    even-numbered games (:meth:`GameTask.seats`).
    """
    by_pair: dict[tuple[int, int], list[GameResult]] = {}
    for result in results:
        by_pair.setdefault(result.pair, []).append(result)
    scores = []
    for (i, j), games in sorted(by_pair.items()):
        values = [game.score for game in games]
        n = len(values)
        mean = sum(values) / n
        low, high = wilson_interval(mean, n)
        scores.append(
            PairScore(
                agents[i],
                agents[j],
                n,
                values.count(1.0),
                values.count(0.5),
                values.count(0.0),
                mean,
                low,
                high,
                sum(game.plies for game in games) / n,
                sum(game.seconds for game in games) / n,
                *_mean_with_interval([game.score for game in games if game.number % 2 == 0]),
                *_mean_with_interval([game.score for game in games if game.number % 2 == 1]),
            )
        )
    return scores


def wilson_interval(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (Wilson, JASA 22, 1927) of a mean score over ``games`` games.

    Draws count as half a win; unlike the normal approximation, the interval stays honest near 0% and
    100% (it is never empty around a perfect score).

    Examples:
        >>> [round(x, 3) for x in wilson_interval(1.0, 100)]
        [0.963, 1.0]
    """
    denominator = 1 + z * z / games
    centre = (score + z * z / (2 * games)) / denominator
    margin = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


def _virtual_points(
    count: int, points: dict[tuple[int, int], tuple[float, int]]
) -> tuple[list[float], dict[tuple[int, int], tuple[float, float]]]:
    """Each agent's points and each pair's (first agent's points, games), with one virtual draw per pair."""
    wins = [0.5 * sum(1 for pair in points if k in pair) for k in range(count)]
    games: dict[tuple[int, int], tuple[float, float]] = {}
    for (i, j), (score, played) in points.items():
        wins[i] += score
        wins[j] += played - score
        games[(i, j)] = (score + 0.5, played + 1.0)
    return wins, games


def _fit(
    count: int,
    wins: list[float],
    games: dict[tuple[int, int], tuple[float, float]],
    fixed: int | None = None,
    fixed_strength: float = 1.0,
) -> list[float]:
    """The Bradley-Terry strengths that maximise the likelihood, agent 0 at 1 (MM iterations).

    With ``fixed``, that agent's strength is held at ``fixed_strength`` (relative to agent 0's) while the
    others are fitted: the profile likelihood's inner maximisation.
    """
    strength = [1.0] * count
    if fixed is not None:
        strength[fixed] = fixed_strength
    for _ in range(2000):
        previous = strength[:]
        for k in range(count):
            if k == fixed:
                continue
            denominator = sum(
                played / (strength[i] + strength[j]) for (i, j), (_, played) in games.items() if k in (i, j)
            )
            if denominator > 0:
                strength[k] = wins[k] / denominator
        anchor = strength[0]
        strength = [value / anchor for value in strength]
        if fixed is not None:
            strength[fixed] = fixed_strength
        if max(abs(a - b) / max(b, 1e-300) for a, b in zip(strength, previous, strict=True)) < 1e-10:
            break
    return strength


def _log_likelihood(strength: list[float], games: dict[tuple[int, int], tuple[float, float]]) -> float:
    """The log-likelihood of the pairs' points (virtual draws included) under the strengths."""

    def log(value: float) -> float:
        return math.log(value) if value > 0 else -math.inf

    total = 0.0
    for (i, j), (score, played) in games.items():
        # In logs of the strengths, so that a share of 1 - 1e-20 is not rounded to 1 (far out at an end);
        # the virtual draw makes both weights positive, so no 0 * -inf arises.
        both = log(strength[i] + strength[j])
        total += score * (log(strength[i]) - both) + (played - score) * (log(strength[j]) - both)
    return total


def elo_ratings(count: int, points: dict[tuple[int, int], tuple[float, int]]) -> list[float]:
    """Maximum-likelihood Bradley-Terry ratings in Elo, the first agent at 0.

    Args:
        count: the number of agents.
        points: per pair ``(i, j)``, the first agent's points and the games played.
    """
    wins, games = _virtual_points(count, points)
    strength = _fit(count, wins, games)
    return [_ELO * math.log(value) if value > 0 else -math.inf for value in strength]


def profile_interval(
    count: int, points: dict[tuple[int, int], tuple[float, int]], agent: int
) -> tuple[float, float]:
    """The 95% profile-likelihood interval of one agent's Elo rating (the first agent's is ``(0, 0)``).

    Each end is the rating, found by bisection, where twice the drop of the profile log-likelihood reaches
    :data:`_CHI_SQUARE_95`, at most :data:`_WIDEST` Elo from the estimate.
    """
    if agent == 0:
        return (0.0, 0.0)
    wins, games = _virtual_points(count, points)
    best = _fit(count, wins, games)
    top = _log_likelihood(best, games)
    estimate = _ELO * math.log(best[agent])

    def beyond(elo: float) -> bool:
        strength = _fit(count, wins, games, agent, math.exp(elo / _ELO))
        return 2.0 * (top - _log_likelihood(strength, games)) > _CHI_SQUARE_95

    ends = []
    for direction in (-1.0, 1.0):
        inside, outside = estimate, estimate + direction * _WIDEST
        if not beyond(outside):
            ends.append(outside)
            continue
        for _ in range(40):
            middle = (inside + outside) / 2
            if beyond(middle):
                outside = middle
            else:
                inside = middle
        ends.append(inside)
    return ends[0], ends[1]


def rate(agents: Sequence[str], results: Sequence[GameResult]) -> list[Rating]:
    """The agents' Elo ratings with their 95% profile-likelihood intervals."""
    points: dict[tuple[int, int], tuple[float, int]] = {}
    for result in results:
        score, played = points.get(result.pair, (0.0, 0))
        points[result.pair] = (score + result.score, played + 1)
    best = elo_ratings(len(agents), points)
    ratings = []
    for k, agent in enumerate(agents):
        low, high = profile_interval(len(agents), points, k)
        ratings.append(Rating(agent, best[k], low, high))
    return ratings


def can_plot() -> bool:
    """Whether matplotlib, which draws ``ratings.png``, is installed (the extra ``shogames[plot]``)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def plot_ratings(report: ArenaReport, path: Path) -> None:
    """Draw the ratings with their intervals as a PNG (needs matplotlib: see :func:`can_plot`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = sorted(report.ratings, key=lambda r: r.elo)
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(ratings) + 1.6))
    positions = range(len(ratings))
    axes.errorbar(
        [r.elo for r in ratings],
        positions,
        xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
        fmt="o",
        capsize=4,
        color="#2a5d8f",
    )
    axes.set_yticks(list(positions), [r.agent for r in ratings])
    axes.set_xlabel("Elo (first agent = 0), with 95% profile-likelihood interval")
    axes.set_title(f"{report.game}: {report.games_per_pair} games per pair")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def run_description(
    game: Game[Any],
    agents: Sequence[str],
    games: int,
    *,
    preset: str | None = None,
    seed: int = 0,
    opening: int = 0,
    budget: dict[str, str] | None = None,
    levels: dict[str, str] | None = None,
) -> dict[str, Any]:
    """What makes an arena's games what they are, as :data:`PLAYED`'s first line keeps it.

    Two runs with the same description play the same games (the jobs and the Ray address do not count), so a
    run may resume from a :data:`PLAYED` file only when the descriptions are equal. Every value is JSON's:
    lists, not tuples. ``levels`` (:attr:`ArenaReport.levels`), where an agent is a level, is kept under
    ``"levels"``, so that a run never goes on with a level whose spec has changed since its first games.
    """
    description = {
        "game": game.id,
        "settings": game.settings_text(),
        "preset": preset,
        "agents": list(agents),
        "games_per_pair": games,
        "seed": seed,
        "opening": opening,
        "budget": dict(sorted((budget or {}).items())),
    }
    if levels:
        description["levels"] = dict(levels)
    return description


def read_played(path: Path) -> tuple[dict[str, Any], list[GameResult]]:
    """The run description and the finished games that a :data:`PLAYED` file holds, in the order they ended.

    A last line that is not JSON (a run killed while writing it) is dropped: that game is played again.

    Raises:
        ResumeError: the file is missing or cannot be read, does not start with a run's description, or
            holds a line that is not a finished game before its last line.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResumeError(
            f"cannot resume: there is no {path} (an arena run with an out folder writes its games there "
            "as they end)"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ResumeError(f"cannot resume: cannot read {path} ({error})") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the file's last newline
    rows: list[Any] = []
    for number, line in enumerate(lines, 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines) and number > 1:
                break  # cut short by a kill while it was written
            raise ResumeError(
                f"cannot resume: {path}, line {number} is not JSON (only the last line of a game may be cut "
                "short)"
            ) from None
    header = rows[0] if rows else None
    if (
        not isinstance(header, dict)
        or header.get("format") != _PLAYED_FORMAT
        or not isinstance(header.get("run"), dict)
    ):
        raise ResumeError(
            f"cannot resume: {path} does not start with an arena run's description (expected the {PLAYED} "
            "that an arena run with an out folder writes)"
        )
    results = []
    for number, row in enumerate(rows[1:], 2):
        try:
            results.append(_result_from_json(row))
        except (KeyError, TypeError, ValueError) as error:
            raise ResumeError(
                f"cannot resume: {path}, line {number} is not a finished game ({error})"
            ) from None
    return header["run"], results


def _result_from_json(row: Any) -> GameResult:
    """A :class:`GameResult` back from its JSON object (lists for tuples), its fields checked.

    Raises:
        TypeError: not an object, or a field of the wrong kind.
        KeyError: a field is missing.
    """
    if not isinstance(row, dict):
        raise TypeError(f"expected an object, got {type(row).__name__}")

    def number(key: str, kinds: tuple[type, ...] = (int, float)) -> Any:
        value = row[key]
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise TypeError(f"{key} is {value!r}")
        return value

    pair, returns = row["pair"], row["returns"]
    if not (isinstance(pair, list) and len(pair) == 2 and all(type(k) is int for k in pair)):
        raise TypeError(f"pair is {pair!r}")
    if not (isinstance(returns, list) and all(type(v) in (int, float) for v in returns)):
        raise TypeError(f"returns is {returns!r}")
    if not isinstance(row["termination"], str) or not isinstance(row["record"], str):
        raise TypeError("termination and record must be text")
    return GameResult(
        (pair[0], pair[1]),
        number("number", (int,)),
        number("score"),
        number("plies", (int,)),
        row["termination"],
        number("seconds"),
        row["record"],
        tuple(returns),
    )


def _more_games(key: str, found: Any, asked: Any) -> bool:
    """Whether a run of ``found`` games per pair may go on as one of ``asked``: its games are their first.

    Each game's seeds are its own (its number's, not the count's: :class:`GameTask`), so the first games of
    a longer run are the games of a shorter one with the same description.
    """
    return key == "games_per_pair" and isinstance(found, int) and isinstance(asked, int) and found <= asked


def _resumed(path: Path, description: dict[str, Any], tasks: Sequence[GameTask]) -> list[GameResult]:
    """The games already played of the run ``description`` describes, read from ``path``.

    A run of fewer games per pair, the same in all else, is the start of this one: its games are kept and
    the file is rewritten with this run's description.

    Raises:
        ResumeError: :func:`read_played`'s errors, a file of another run (each field that differs is named
            with both values), or a game that is not one of ``tasks`` or is there twice.
    """
    found, results = read_played(path)
    differences = [
        f"{key} {json.dumps(found.get(key))} there, {json.dumps(value)} asked for"
        for key, value in description.items()
        if found.get(key) != value and not _more_games(key, found.get(key), value)
    ]
    if differences:
        raise ResumeError(
            f"cannot resume: {path} holds another run ({'; '.join(differences)}); without resume, a new run "
            "replaces it"
        )
    wanted = {(task.pair, task.number) for task in tasks}
    seen: set[tuple[tuple[int, int], int]] = set()
    for result in results:
        key = (result.pair, result.number)
        if key not in wanted or key in seen:
            why = "twice" if key in seen else "but is not a game of this run"
            raise ResumeError(f"cannot resume: {path} holds game {result.number} of pair {result.pair} {why}")
        seen.add(key)
    return results


class _PlayedFile:
    """:data:`PLAYED`, open for appending: each game one line, on disk before the next is counted.

    It is first written whole (the description and ``results``) to a temporary file that then replaces it, so
    a kill leaves either the old file or the new one; after that each :meth:`append` is one write of one
    line, flushed and synced, so a kill leaves at most the last line cut short.
    """

    def __init__(self, path: Path, description: dict[str, Any], results: Sequence[GameResult]) -> None:
        lines = [json.dumps({"format": _PLAYED_FORMAT, "run": description})]
        lines.extend(json.dumps(asdict(result)) for result in results)
        temporary = path.with_name(path.name + ".tmp")
        with temporary.open("wb") as file:
            file.write(("\n".join(lines) + "\n").encode("utf-8"))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
        _sync_folder(path.parent)
        self._file = path.open("ab", buffering=0)

    def append(self, result: GameResult) -> None:
        """Add one game's line, and return once it is on disk."""
        data = (json.dumps(asdict(result)) + "\n").encode("utf-8")
        while data:
            written = self._file.write(data)
            data = data[written or 0 :]
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def _sync_folder(folder: Path) -> None:
    """Sync a folder's entries to disk (a file renamed into it), where the system allows it."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def run_arena(
    game_id: str,
    agents: Sequence[str],
    games: int,
    *,
    preset: str | None = None,
    settings: dict[str, Any] | None = None,
    seed: int = 0,
    jobs: int = 1,
    out: Path | None = None,
    budget: dict[str, str] | None = None,
    progress: Callable[[GameResult], None] | None = None,
    ray: str | None = None,
    opening: int = 0,
    resume: bool = False,
    started: Callable[[int, int], None] | None = None,
) -> ArenaReport:
    """Play a round robin and report it; with ``out``, save every record, the report and the plot there.

    With ``opening`` above 0, each pair of games starts from a random opening of that many plies, played
    once with each agent in each seat (:func:`random_opening`).

    With ``ray`` (a Ray address, :mod:`shogames.ray_tasks`), the games are spread over a Ray cluster; the
    report is the same as a local run's for the same seeds.

    Files written to ``out``: ``played.jsonl`` (:data:`PLAYED`: every game as it ends, after a line that
    describes the run; it replaces the file of an earlier run there), then, once every game is played,
    ``games.txt`` (every game's record, pair by pair), ``results.md`` (the tables), ``results.json`` and,
    where matplotlib is installed (:func:`can_plot`), ``ratings.png``.

    With ``resume``, the games that ``out``'s :data:`PLAYED` holds are kept and only the others are played
    (and appended to it); the report covers them all and is the same as an uninterrupted run's with the same
    arguments (each game's seeds are its own: :class:`GameTask`). A run, finished or not, may so go on to
    more games per pair than it was started with: its games are the first games of the longer run.

    ``progress`` is called with each game's result as it ends (once it is saved), never with a resumed one;
    ``started`` is called once before the first game is played, with the games already played (those resumed,
    0 without ``resume``) and the games in all.

    Raises:
        ResumeError: ``resume`` without ``out``, or ``out``'s :data:`PLAYED` is missing, unreadable or of
            another run (the message names each field that differs, with both values).
        ValueError: fewer than two agents or games, or a bad agent spec.
    """
    game = make(game_id, preset, **(settings or {}))
    levels: dict[str, str] = {}
    for spec in agents:  # fail early on a bad spec, in this process
        agent = make_agent(spec, 0, game=game.id, budget=budget)
        agent.check_game(game)
        if isinstance(agent, LevelAgent):
            levels[spec] = agent.spec
    tasks = tasks_for(
        game.id, agents, games, preset=preset, settings=settings, seed=seed, budget=budget, opening=opening
    )
    description = run_description(
        game, agents, games, preset=preset, seed=seed, opening=opening, budget=budget, levels=levels
    )
    results: list[GameResult] = []
    if resume:
        if out is None:
            raise ResumeError("cannot resume without the out folder of the run to go on with")
        results = _resumed(out / PLAYED, description, tasks)
    played: _PlayedFile | None = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        played = _PlayedFile(out / PLAYED, description, results)
    finished = {(result.pair, result.number) for result in results}
    remaining = [task for task in tasks if (task.pair, task.number) not in finished]
    if started is not None:
        started(len(results), len(tasks))
    try:
        if remaining:
            with contextlib.closing(run_tasks(remaining, jobs, ray)) as stream:
                for result in stream:
                    results.append(result)
                    if played is not None:
                        played.append(result)
                    if progress is not None:
                        progress(result)
    finally:
        if played is not None:
            played.close()
    results.sort(key=lambda r: (r.pair, r.number))
    report = ArenaReport(game.id, game.settings_text(), list(agents), games, seed, levels=levels)
    report.pairs = pair_scores(agents, results)
    report.ratings = rate(agents, results)
    if out is not None:
        (out / "games.txt").write_text("\n".join(result.record for result in results), encoding="utf-8")
        (out / "results.md").write_text(report.table() + "\n", encoding="utf-8")
        (out / "results.json").write_text(report.to_json() + "\n", encoding="utf-8")
        if can_plot():
            plot_ratings(report, out / "ratings.png")
    return report


__all__ = [
    "PLAYED",
    "ArenaReport",
    "GameResult",
    "GameTask",
    "PairScore",
    "Rating",
    "ResumeError",
    "can_plot",
    "elo_ratings",
    "pair_scores",
    "play_task",
    "profile_interval",
    "random_opening",
    "rate",
    "read_played",
    "run_arena",
    "run_description",
    "tasks_for",
    "wilson_interval",
]
