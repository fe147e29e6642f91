"""The ``shogames`` command line: games, play, legal moves, perft, replay, bench, arena and analysis.

Built on the standard library's :mod:`argparse`, so that it runs on a plain ``pip install shogames``
(numpy and numba only); the commands that need an extra (``serve``: ``shogames[web]``) import it when
they run, and say which extra to install when it is missing.

Every subcommand that takes a game takes its settings the same way: ``--preset NAME`` and any number of
``--settings "name=value ..."`` options (later values win). Bad input of any kind (an unknown game,
setting or agent, a position or record that cannot be read, an illegal move in a record) ends the
command with a one-line ``Error: ...`` on standard error and exit status 2, never a traceback; so does a
malformed command line, after the command's usage.

>>> main(["perft", "shobu", "--depth", "1", "--reference"])
232
0
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib.util
import inspect
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from shogames import __version__
from shogames.agents.base import Agent, agent_names, level_names, make_agent, parse_agent_spec
from shogames.analysis import BLUNDER, MISTAKE, analyse_record, kernel_analyser
from shogames.bench import run_bench
from shogames.core.errors import NotationError, SettingsError, ShogamesError
from shogames.core.kernel import announce_compiles, fast_perft, fast_perft_divide, unavailable_reason
from shogames.core.perft import perft, perft_divide
from shogames.core.protocol import Game, State
from shogames.core.registry import available_games, game_class
from shogames.core.settings import SettingValue, format_settings, parse_settings_text
from shogames.records import Record, game_from_record, read_records, replay
from shogames.ui.puzzles_command import build_puzzles, puzzles_command
from shogames.ui.terminal import TerminalGame, mover_name
from shogames.ui.train_command import build_train, train_command

PROG = "shogames"
"""The command's name, in its usage lines and messages."""

WEB_PACKAGES = frozenset(
    {
        "aiosqlite",
        "alembic",
        "anyio",
        "fastapi",
        "httptools",
        "jinja2",
        "pydantic",
        "sqlalchemy",
        "starlette",
        "uvicorn",
        "uvloop",
        "websockets",
    }
)
"""The top-level modules of the ``web`` extra's packages: one missing means ``shogames[web]`` is missing."""


class ShogamesUsageError(Exception):
    """Bad input to a command: shown as one ``Error: ...`` line on standard error, exit status 2."""

    exit_code = 2


class MissingExtraError(Exception):
    """A command needs an optional part of shogames that is not installed: ``Error: ...``, exit status 1.

    Args:
        command: the command that needs it, such as ``serve``.
        extra: the extra to install, such as ``web``.
        missing: the module that could not be imported.
    """

    exit_code = 1

    def __init__(self, command: str, extra: str, missing: str) -> None:
        super().__init__(
            f"`{PROG} {command}` needs the {extra} extra, which is not installed ({missing} is missing): "
            f"pip install 'shogames[{extra}]'"
        )


def echo(text: object = "", *, err: bool = False) -> None:
    """Print ``text`` and a newline to standard output (or standard error with ``err``), flushed at once.

    The streams are looked up at each call, so output redirected after import (as tests do) is caught.
    """
    stream = sys.stderr if err else sys.stdout
    print(text, file=stream, flush=True)


class _Progress:
    """A progress bar on standard output while the arena plays.

    At a terminal it is redrawn in place, with the time since it started; elsewhere (a pipe, a file) its label
    is printed once, then a line at each tenth of the work (done out of all, and the time so far). ``done``
    counts the work already done before it started (the games of a resumed arena).
    """

    _WIDTH = 36

    def __init__(self, length: int, label: str, done: int = 0) -> None:
        self.length = length
        self.label = label
        self.done = done
        self.started = time.monotonic()
        self.tenth = self._tenths()
        self.live = sys.stdout.isatty()
        if self.live:
            self._draw()
        else:
            echo(label)

    def _tenths(self) -> int:
        return 10 * self.done // max(1, self.length)

    def _elapsed(self) -> str:
        minutes, seconds = divmod(int(time.monotonic() - self.started), 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}"

    def _draw(self) -> None:
        filled = self._WIDTH * self.done // max(1, self.length)
        bar = "#" * filled + "-" * (self._WIDTH - filled)
        sys.stdout.write(f"\r{self.label}  [{bar}]  {self.done}/{self.length}  {self._elapsed()}")
        sys.stdout.flush()

    def update(self, steps: int) -> None:
        """Count ``steps`` more units of work done."""
        self.done += steps
        if self.live:
            self._draw()
        elif self._tenths() > self.tenth:
            self.tenth = self._tenths()
            echo(f"{self.done}/{self.length} games played, {self._elapsed()} elapsed")

    def close(self) -> None:
        """End the bar's line (at a terminal)."""
        if self.live:
            sys.stdout.write("\n")
            sys.stdout.flush()


# --- argument types: each raises ArgumentTypeError, which argparse reports as a usage error ---------------


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _int_range(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` (to ``high``, both included)."""

    def convert(text: str) -> int:
        value = _whole(text)
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise argparse.ArgumentTypeError(f"{value} is not {bounds}")
        return value

    convert.__name__ = "whole number"
    return convert


def _real(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def _real_range(low: float, high: float, *, above_low: bool = False) -> Callable[[str], float]:
    """An argument type: a number from ``low`` (or above it, with ``above_low``) to ``high``."""

    def convert(text: str) -> float:
        value = _real(text)
        if not (value > low if above_low else value >= low) or not value <= high:
            bounds = f"above {low:g} and at most {high:g}" if above_low else f"from {low:g} to {high:g}"
            raise argparse.ArgumentTypeError(f"{text} is not {bounds}")
        return value

    convert.__name__ = "number"
    return convert


def _positive_real(text: str) -> float:
    value = _real(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not more than 0")
    return value


def _existing_file(text: str) -> Path:
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"file {text!r} does not exist")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    return path


def _file_path(text: str) -> Path:
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    return path


def _folder_path(text: str) -> Path:
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file, not a folder")
    return path


# --- reading the shared options -------------------------------------------------------------------------


_INITIAL = "the initial one"
_START = (
    "the start position, where the first seat makes its first move on the board (after any toss or choice)"
)


def load_game(game_id: str, settings_texts: Sequence[str] = (), preset: str | None = None) -> Game[Any]:
    """Build a game from the command line's game id, ``--settings`` texts and ``--preset``.

    Args:
        game_id: a registered game id.
        settings_texts: texts of space-separated ``name=value`` pairs; later values win.
        preset: the name of one of the game's presets, or ``None``.

    Returns:
        The game with its settings.

    Raises:
        SettingsError: an unknown game, preset or setting, or a value that is not allowed.
    """
    cls = game_class(game_id)
    values = parse_settings_text(cls.setting_specs, " ".join(settings_texts))
    return cls(preset, **values)


def load_position(game: Game[Any], position: str | None, *, board_start: bool = False) -> State[Any]:
    """Read ``--position``; without one, take the initial state, or with ``board_start`` the start position.

    The start position is :meth:`~shogames.core.protocol.Game.start_position`: after any toss or choice.

    Raises:
        NotationError: the text is not a position of the game.
    """
    state: State[Any]
    if position is None:
        state = game.start_position() if board_start else game.new_initial_state()
        return state
    try:
        state = game.state_from_text(position)
    except NotationError as error:
        raise NotationError(f"bad position for {game.id}: {error}") from error
    return state


def parse_seats(game: Game[Any], values: Sequence[str]) -> set[int]:
    """Read ``--seat`` values: seat names (any case), 1-based numbers, or ``none`` alone.

    >>> from shogames import make
    >>> sorted(parse_seats(make("shobu"), ["white", "1"]))
    [0, 1]
    >>> parse_seats(make("shobu"), ["none"])
    set()

    Args:
        game: the game whose seats are named.
        values: the ``--seat`` values; none given means the first seat.

    Returns:
        The seat numbers (from 0) the people take.

    Raises:
        SettingsError: a value names no seat, or ``none`` is given with seats.
    """
    if not values:
        return {0}
    names = [name.lower() for name in game.player_names]
    choices = ", ".join([*game.player_names, f"1-{game.num_players}", "none"])
    seats: set[int] = set()
    saw_none = False
    for value in values:
        word = value.strip().lower()
        if word == "none":
            saw_none = True
        elif word.isdigit() and 1 <= int(word) <= game.num_players:
            seats.add(int(word) - 1)
        elif word in names:
            seats.add(names.index(word))
        else:
            raise SettingsError(f"--seat {value!r} names no seat of {game.id}; seats: {choices}")
    if saw_none and seats:
        raise SettingsError("--seat none means no person plays; it cannot be given with seats")
    return seats


def _value_text(value: SettingValue) -> str:
    return format_settings({"_": value}).partition("=")[2]


def _read_line(prompt: str) -> str:
    return input(prompt)


# --- the commands ----------------------------------------------------------------------------------------


def games_command() -> None:
    """List every game with its seats, settings and presets."""
    for index, cls in enumerate(available_games()):
        game = cls()
        if index:
            echo("")
        echo(f"{cls.id}: {cls.name} (version {cls.version})")
        echo(f"  seats: {', '.join(game.player_names)}")
        if cls.setting_specs:
            echo("  settings:")
            for spec in cls.setting_specs:
                echo(f"    {spec.name}={_value_text(spec.default)}  ({spec.describe_values()})")
                echo(f"        {spec.description}")
        else:
            echo("  settings: none")
        if cls.presets:
            echo("  presets:")
            for name, values in cls.presets.items():
                echo(f"    {name}: {format_settings(values) or '(the defaults)'}")
        else:
            echo("  presets: none")


def play_command(
    game_id: str,
    settings_texts: Sequence[str],
    preset: str | None,
    seats: Sequence[str],
    agent_name: str,
    seed: int | None,
    position: str | None,
    record_path: Path | None,
) -> None:
    """Play GAME at the terminal.

    Play against an agent (--vs), with others at the same keyboard (--seat for every seat), or watch
    agents play (--seat none).

    At your turn type a move in the game's notation, or a command: moves (or ?), undo, resign,
    save [FILE], help, quit. The record is saved at the end, and on quit as abandoned.

    Agents get the seeds SEED+1, SEED+2, ... by seat, so a seeded game can be played again.
    """
    game = load_game(game_id, settings_texts, preset)
    start = load_position(game, position)
    humans = parse_seats(game, seats)
    if humans and sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 -- gives input() line editing and history at a terminal
    agents: dict[int, Agent] = {
        seat: make_agent(agent_name, None if seed is None else seed + seat + 1, game=game.id)
        for seat in range(game.num_players)
        if seat not in humans
    }
    session = TerminalGame(
        game,
        humans=humans,
        agents=agents,
        seed=seed,
        start=start,
        record_path=record_path,
        read_line=_read_line,
        write=echo,
    )
    session.run()


def legal_command(
    game_id: str, position: str | None, settings_texts: Sequence[str], preset: str | None
) -> None:
    """Print the legal moves, one per line.

    The moves of the next decision in the game's notation: a player's moves, or the chance outcomes
    at a chance node; nothing once the game is over. Without --position, from the start position.
    """
    game = load_game(game_id, settings_texts, preset)
    state = load_position(game, position, board_start=True)
    if state.is_terminal():
        echo("the game is over: there are no legal moves", err=True)
    for move in state.legal_moves():
        echo(state.move_to_text(move))


def perft_command(
    game_id: str,
    depth: int,
    position: str | None,
    settings_texts: Sequence[str],
    preset: str | None,
    divide: bool,
    reference: bool,
    no_bulk: bool,
) -> None:
    """Count the move sequences DEPTH moves long.

    The total is always the last line; with --divide, one `move: count` line per legal move comes
    first. Without --position, from the start position. Counts with the game's compiled kernel where
    it has one (the same counts, checked against the reference in the tests), else with the reference.
    """
    game = load_game(game_id, settings_texts, preset)
    state = load_position(game, position, board_start=True)
    use_kernel = not reference and game.kernel is not None
    if no_bulk and not use_kernel:
        why = "--reference was given" if reference else unavailable_reason(game)
        raise ShogamesUsageError(f"--no-bulk needs a compiled kernel ({why}); the reference bulk-counts")
    if divide:
        if depth < 1:
            raise ShogamesUsageError("perft --divide needs a depth of 1 or more")
        split = (
            fast_perft_divide(state, depth, bulk=not no_bulk) if use_kernel else perft_divide(state, depth)
        )
        for move_text, count in split:
            echo(f"{move_text}: {count}")
        echo(sum(count for _, count in split))
    else:
        echo(fast_perft(state, depth, bulk=not no_bulk) if use_kernel else perft(state, depth))


def _record_summary(record: Record, game: Game[Any], plies: int) -> str:
    players = " vs ".join(record.headers.get(name, "?") for name in game.player_names)
    termination = f" ({record.termination})" if record.termination else ""
    return f"{record.game_id}, {players}, {plies} moves, result {record.result}{termination}"


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ShogamesUsageError(f"cannot read {path}: {error}") from error


def replay_command(path: Path, quiet: bool) -> None:
    """Check and show the records in FILE.

    Plays every record's moves under the rules and prints the position after each move and the
    result; --quiet prints one line per record. A bad record ends with an error naming its line.
    """
    text = _read_text(path)
    try:
        records = read_records(text)
    except ShogamesError as error:
        raise ShogamesUsageError(f"{path}: {error}") from error
    if not records:
        raise ShogamesUsageError(f"{path}: no game records found")
    for number, record in enumerate(records, start=1):
        try:
            played = replay(record)
        except ShogamesError as error:
            raise ShogamesUsageError(f"{path}, record {number}: {error}") from error
        summary = f"{path} #{number}: {_record_summary(record, played.game, len(record.moves))}"
        if quiet:
            echo(summary)
            continue
        if number > 1:
            echo("")
        echo(summary)
        echo(played.states[0].diagram())
        for ply, move_text in enumerate(record.moves):
            echo("")
            echo(f"{ply + 1}. {mover_name(played.game, played.states[ply].to_move)}: {move_text}")
            echo(played.states[ply + 1].diagram())
        termination = f" ({record.termination})" if record.termination else ""
        echo(f"Result: {record.result}{termination}")


def bench_command(
    game_id: str,
    depth: int,
    seconds: float,
    games: int | None,
    seed: int,
    kernel: bool,
    settings_texts: Sequence[str],
    preset: str | None,
) -> None:
    """Measure perft and random-playout speed.

    Prints the machine, perft nodes/s at --depth from the start position, and random playouts'
    games/s and plies/s from the initial state, for the pure-Python reference; where the game has a
    compiled kernel, the same for the kernel (perft also with every leaf played) and the ratios.
    """
    game = load_game(game_id, settings_texts, preset)
    report = run_bench(game, depth=depth, seconds=seconds, games=games, seed=seed, kernel=kernel)
    for line in report.lines():
        echo(line)
    if kernel and report.kernel is None:
        echo(f"kernel: none ({unavailable_reason(game)})")


def arena_command(
    game_id: str,
    agents: Sequence[str],
    settings_texts: Sequence[str],
    preset: str | None,
    games: int,
    budget: str | None,
    jobs: int,
    seed: int,
    out: Path | None,
    ray: str | None,
    opening: int = 0,
    resume: bool = False,
) -> None:
    """Play a round robin between agents in GAME and rate them.

    Example: shogames arena shobu --agents random easy medium hard --games 100 --jobs 2

    Every pair plays --games games, swapping seats from game to game. Prints a table of scores with 95%
    intervals and Elo ratings with profile-likelihood intervals; saves every game's record (games.txt), the
    tables (results.md, results.json) and a plot of the ratings (ratings.png, when matplotlib is installed:
    pip install 'shogames[plot]') in the --out folder. With --ray the games are spread over a Ray cluster
    (--ray alone: a Ray on this machine; --ray ADDRESS: a cluster's; needs pip install 'shogames[ray]'),
    with the same results as without it for the same seed. With --opening N each pair of games starts from
    a random opening of N plies, played once with each agent in each seat (the searchers of the games
    without dice would otherwise play the same game again and again).

    Each game is also saved to played.jsonl in the --out folder as it ends, so a run that is stopped
    (Ctrl-C, a kill, a reboot) can go on: the same command with --out FOLDER --resume plays only the games
    not yet finished, and its results are those of a run never stopped. The same command with a larger
    --games and --resume goes on to more games: a run's first games are the same whatever its length.
    Without --resume, a new run there starts over.
    """
    from shogames.arena import PLAYED, can_plot, run_arena  # multiprocessing only loads for this command

    _require_ray("arena --ray", ray)
    if resume and out is None:
        raise ShogamesUsageError("--resume needs --out FOLDER: the folder of the run to go on with")
    game = load_game(game_id, settings_texts, preset)
    if len(agents) < 2:
        raise ShogamesUsageError(f"an arena needs at least two agents after --agents, got {len(agents)}")
    budget_params: dict[str, str] = {}
    if budget:
        budget_params = parse_agent_spec(f"budget:{budget}")[1]
    if out is None:
        out = Path(f"arena-{game.id}-{datetime.datetime.now():%Y%m%d-%H%M%S}")
    pairs = len(agents) * (len(agents) - 1) // 2
    bars: list[_Progress] = []

    def started(done: int, total: int) -> None:
        if resume:
            echo(f"Resuming the arena in {out}: {done} of {total} games already played")
        bars.append(_Progress(total, f"{game.id}: {pairs} pairs x {games} games", done))

    try:
        report = run_arena(
            game.id,
            list(agents),
            games,
            settings=dict(game.settings),
            seed=seed,
            jobs=jobs,
            out=out,
            budget=budget_params,
            progress=lambda _result: bars[0].update(1),
            ray=ray,
            opening=opening,
            resume=resume,
            started=started,
        )
    except KeyboardInterrupt:
        if bars:
            bars[0].close()
            bars.clear()
            echo(f"Stopped: the finished games are kept in {out / PLAYED}; go on with --out {out} --resume")
        raise
    finally:
        for bar in bars:
            bar.close()
    echo(report.table())
    if can_plot():
        echo(f"Records, tables and plot: {out}/")
    else:
        echo(f"Records and tables: {out}/")
        echo("No plot of the ratings: matplotlib is not installed (pip install 'shogames[plot]').", err=True)


def _require_ray(command: str, address: str | None) -> None:
    """Raise :class:`MissingExtraError` when ``address`` asks for Ray and Ray is not installed."""
    if address is not None and importlib.util.find_spec("ray") is None:
        raise MissingExtraError(command, "ray", "ray")


def explore_command(
    game_id: str,
    vary: Sequence[str],
    agents: Sequence[str],
    settings_texts: Sequence[str],
    preset: str | None,
    games: int,
    jobs: int,
    seed: int,
    out: Path | None,
    ray: str | None,
) -> None:
    """Compare variants of GAME: an arena for each combination of the settings varied.

    Example: shogames explore shoo --vary horses=9,7 --vary hush=optional,shoo-off --agents medium --games 100

    Every variant plays --games games between the same agents (one spec plays every seat; two take the seats
    in turn), with the same seeds. Prints, per variant, the first player's score with its 95% interval
    beside a fair game's, the game lengths and how the games ended; saves the table (results.md,
    results.json), every record (games.txt) and a plot (variants.png, with pip install 'shogames[plot]') in
    the --out folder. --ray spreads the games over a Ray cluster, as for the arena.
    """
    from shogames.explore import explore, parse_vary

    _require_ray("explore --ray", ray)
    game = load_game(game_id, settings_texts, preset)
    if not 1 <= len(agents) <= 2:
        raise ShogamesUsageError(f"a variant study plays one or two agents after --agents, got {len(agents)}")
    try:
        varied = parse_vary(vary)
    except ValueError as error:
        raise ShogamesUsageError(str(error)) from None
    fixed = parse_settings_text(game.setting_specs, " ".join(settings_texts))
    if out is None:
        out = Path(f"explore-{game.id}-{datetime.datetime.now():%Y%m%d-%H%M%S}")
    study = explore(
        game.id,
        varied,
        list(agents),
        games,
        preset=preset,
        settings=fixed,
        seed=seed,
        jobs=jobs,
        ray=ray,
        out=out,
    )
    echo(study.table())
    echo(f"Records, tables and plot: {out}/")


def analyse_command(
    path: Path, depth: int, nodes: int, game_number: int, mistake: float, blunder: float, reference: bool
) -> None:
    """Analyse every move of a game record with alpha-beta search.

    For each move: the mover's value of the move played and of the search's preferred move (from -1, lost,
    to +1, won), the preferred move, and a flag when the move played loses at least --mistake (?) or
    --blunder (??) of value. Where the game has a compiled kernel with an alpha-beta searcher, the kernel
    searches (the same values, much faster); --reference uses the pure-Python engine.
    """
    records = read_records(_read_text(path))
    if not 1 <= game_number <= len(records):
        raise ShogamesUsageError(
            f"{path} holds {len(records)} record(s); --game-number {game_number} is not one"
        )
    record = records[game_number - 1]
    engine = "reference"
    if not reference and kernel_analyser(game_from_record(record), depth) is not None:
        engine = "kernel"
    analysed = analyse_record(record, depth=depth, nodes=nodes, kernel=engine == "kernel")
    echo(
        f"{record.game_id}: {len(analysed)} moves analysed "
        f"({engine} alpha-beta, depth {depth}, {nodes} nodes)"
    )
    echo(f"{'ply':>5}  {'mover':<10} {'played':<22} {'value':>6}  {'best':<22} {'value':>6}")
    counts: dict[str, dict[str, int]] = {}
    for move in analysed:
        verdict = move.verdict(mistake, blunder)
        mark = {"blunder": "??", "mistake": "?"}.get(verdict, "")
        best = "" if move.best == move.played else move.best
        echo(
            f"{move.ply:>5}  {move.mover:<10} {move.played + mark:<22} {move.played_value:>+6.2f}  "
            f"{best:<22} {move.best_value:>+6.2f}"
        )
        if verdict:
            tally = counts.setdefault(move.mover, {"mistake": 0, "blunder": 0})
            tally[verdict] += 1
    for mover, tally in counts.items():
        echo(f"{mover}: {tally['mistake']} mistake(s), {tally['blunder']} blunder(s)")


def warm_command(batch: bool) -> None:
    """Compile every game's kernel into numba's cache now (or load it), so no later use waits for it.

    The first use of a kernel on a machine compiles it (seconds to tens of seconds a game); `serve` warms
    the kernels before it says where it runs. The games compile side by side, one process a core. One
    line a game, as each is ready: compiled, loaded from the cache, or why there is no kernel. --batch
    also compiles each kernel's batch of games, which the batched environment (shogames.envs) steps.
    """
    from shogames.kernels.warm import warm_kernels_in_processes

    warm_kernels_in_processes(report=lambda result: echo(result.line()), batch=batch)


def serve_command(
    host: str,
    port: int,
    database: str | None,
    workers: int,
    log_level: str,
    no_quotas: bool,
    no_warm: bool,
    forwarded_allow_ips: str | None,
    engine_address: str | None,
    engine_live: int | None,
    engine_study: int | None,
) -> None:
    """Run the web app: play every game in the browser, against the computer, hot-seat or online.

    Needs the web extra: pip install 'shogames[web]' (./start.sh installs it).
    """
    _require_ray("serve --engine-address", engine_address)
    try:
        from shogames.server.db import DEFAULT_DATABASE_URL
        from shogames.server.serving import Quotas, serve
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if missing not in WEB_PACKAGES:
            raise
        raise MissingExtraError("serve", "web", missing) from error

    try:
        serve(
            host,
            port,
            database or DEFAULT_DATABASE_URL,
            workers=workers,
            log_level=log_level,
            quotas=None if no_quotas else Quotas(),
            warm=not no_warm,
            forwarded_allow_ips=forwarded_allow_ips,
            engine_address=engine_address,
            engine_live=engine_live,
            engine_study=engine_study,
        )
    except ValueError as error:
        raise ShogamesUsageError(str(error)) from None


# --- the parser ------------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors end with ``Error: ...`` and a pointer to ``--help``."""

    def error(self, message: str) -> NoReturn:
        """Print the usage and the error on standard error; exit with status 2."""
        self.print_usage(sys.stderr)
        self.exit(2, f"Error: {message}\nTry '{self.prog} --help' for help.\n")


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the paragraphs of a command's description as written, in a terminal as wide as the text."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=32, width=min(110, _terminal_width()))


def _terminal_width() -> int:
    try:
        return os.get_terminal_size().columns - 2
    except OSError:
        return 100


def _default(text: str, value: object) -> str:
    """A help text with its default value, as ``text [default: value]`` (escaped for argparse)."""
    return f"{text} [default: {value}]".replace("%", "%%")


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--settings`` and ``--preset`` to a command that takes a GAME argument."""
    parser.add_argument(
        "--settings",
        dest="settings_texts",
        metavar="'NAME=VALUE ...'",
        action="append",
        default=[],
        help="Settings as name=value pairs separated by spaces; may be given several times.",
    )
    parser.add_argument(
        "--preset",
        metavar="NAME",
        default=None,
        help="Start from the named preset of settings (see `shogames games`).",
    )


def _add_position_option(parser: argparse.ArgumentParser, starts_at: str) -> None:
    """Add ``--position TEXT`` to a command that otherwise starts at ``starts_at`` (said in its help)."""
    parser.add_argument(
        "--position",
        metavar="TEXT",
        default=None,
        help=f"Start from this position (in the game's position text) instead of {starts_at}.",
    )


def _add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME", help="The game's id (see `shogames games`).")


def _add_command(
    commands: Any, run: Callable[..., None], name: str, build: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Add the subcommand ``name``: ``run``'s docstring is its help, ``build`` adds its arguments."""
    description = inspect.getdoc(run) or ""
    parser = commands.add_parser(
        name,
        help=description.splitlines()[0].replace("%", "%%"),
        description=description,
        formatter_class=_HelpFormatter,
        allow_abbrev=False,
    )
    build(parser)
    parser.set_defaults(run=run)


def _build_play(parser: argparse.ArgumentParser) -> None:
    _add_game_argument(parser)
    _add_game_options(parser)
    parser.add_argument(
        "--seat",
        dest="seats",
        metavar="SEAT",
        action="append",
        default=[],
        help="A seat you play, by name or 1-based number; repeat for hot-seat; `none` to watch agents."
        " Default: the first seat.",
    )
    parser.add_argument(
        "--vs",
        dest="agent_name",
        metavar="LEVEL",
        default="easy",
        help=_default(
            f"Who plays the other seats: a level ({', '.join(level_names())}) or an agent spec"
            f" ({', '.join(agent_names())}, with parameters as in `alphabeta:depth=3`).",
            "easy",
        ),
    )
    parser.add_argument(
        "--seed", type=_whole, default=None, help="Seed of the chance outcomes and the agents."
    )
    _add_position_option(parser, _INITIAL)
    parser.add_argument(
        "--record",
        dest="record_path",
        metavar="FILE",
        type=_file_path,
        default=None,
        help="Where to save the record (default: ./shogames-<game>-<YYYYmmdd-HHMMSS>.sgr).",
    )


def _build_legal(parser: argparse.ArgumentParser) -> None:
    _add_game_argument(parser)
    _add_position_option(parser, _START)
    _add_game_options(parser)


def _build_perft(parser: argparse.ArgumentParser) -> None:
    _add_game_argument(parser)
    parser.add_argument(
        "--depth",
        metavar="N",
        type=_int_range(0),
        required=True,
        help="How many moves deep to count (0 or more).",
    )
    _add_position_option(parser, _START)
    _add_game_options(parser)
    parser.add_argument("--divide", action="store_true", help="Also print the count below each first move.")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="Count with the pure-Python reference engine even where the game has a compiled kernel.",
    )
    parser.add_argument(
        "--no-bulk",
        action="store_true",
        help="Generate and play every leaf move instead of counting the last level (needs a kernel).",
    )


def _build_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="FILE", type=_existing_file, help="A file of game records.")
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="Print only a one-line summary per record."
    )


def _build_bench(parser: argparse.ArgumentParser) -> None:
    _add_game_argument(parser)
    parser.add_argument(
        "--depth", metavar="N", type=_int_range(0), default=3, help=_default("Perft depth.", 3)
    )
    parser.add_argument(
        "--seconds",
        metavar="S",
        type=_positive_real,
        default=3.0,
        help=_default(
            "How long to keep starting random games (the first of --seconds and --games ends them).", 3.0
        ),
    )
    parser.add_argument(
        "--games", metavar="N", type=_int_range(1), default=None, help="Stop after this many games."
    )
    parser.add_argument("--seed", type=_whole, default=0, help=_default("Seed of the random playouts.", 0))
    parser.add_argument(
        "--kernel",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=_default(
            "Also measure the game's compiled kernel, where it has one, in the same run.", "--kernel"
        ),
    )
    _add_game_options(parser)


def _build_arena(parser: argparse.ArgumentParser) -> None:
    _add_game_argument(parser)
    _add_game_options(parser)
    parser.add_argument(
        "--agents",
        metavar="AGENT",
        nargs="+",
        action="extend",
        required=True,
        help="The agents, after --agents and separated by spaces: levels or agent specs (at least two).",
    )
    parser.add_argument(
        "--games", metavar="N", type=_int_range(1), default=100, help=_default("Games per pair.", 100)
    )
    parser.add_argument(
        "--budget",
        metavar="KEY=VALUE,...",
        default=None,
        help="Parameters for every agent that takes them (and does not set them), e.g. seconds=1 or "
        "nodes=5000.",
    )
    parser.add_argument(
        "--opening",
        metavar="PLIES",
        type=_int_range(0),
        default=0,
        help=_default(
            "Random plies that open each pair of games, played once with each agent in each seat.", 0
        ),
    )
    _add_run_options(parser, "arena")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="Go on with the stopped run in --out FOLDER (its played.jsonl): play only the games not yet "
        "finished. The other options must be the run's, but --games may be larger: a run goes on to more "
        "games.",
    )


def _build_explore(parser: argparse.ArgumentParser) -> None:
    _add_game_argument(parser)
    _add_game_options(parser)
    parser.add_argument(
        "--vary",
        metavar="SETTING=A,B,...",
        action="append",
        required=True,
        help="A setting and the values it takes, comma-separated; repeat --vary for more settings.",
    )
    parser.add_argument(
        "--agents",
        metavar="AGENT",
        nargs="+",
        action="extend",
        required=True,
        help="One agent (it plays every seat) or two (they take the seats in turn): levels or agent specs.",
    )
    parser.add_argument(
        "--games", metavar="N", type=_int_range(1), default=100, help=_default("Games per variant.", 100)
    )
    _add_run_options(parser, "explore")


def _add_run_options(parser: argparse.ArgumentParser, command: str) -> None:
    """``--jobs``, ``--seed``, ``--out`` and ``--ray``: how a command's games are run and kept."""
    parser.add_argument(
        "--jobs", metavar="N", type=_int_range(1), default=1, help=_default("Worker processes.", 1)
    )
    parser.add_argument(
        "--seed", type=_whole, default=0, help=_default("Seed of the games and the agents.", 0)
    )
    parser.add_argument(
        "--out",
        metavar="FOLDER",
        type=_folder_path,
        default=None,
        help=f"Folder for the records, tables and plot (default: ./{command}-<game>-<YYYYmmdd-HHMMSS>).",
    )
    _add_ray_option(parser)


def _add_ray_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="local",
        default=None,
        help="Spread the games over a Ray cluster: alone, a Ray on this machine; or a cluster's address "
        "(auto, HOST:PORT, ray://HOST:10001).",
    )


def _build_analyse(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="RECORD", type=_existing_file, help="A file of game records.")
    parser.add_argument(
        "--depth", metavar="N", type=_int_range(1), default=3, help=_default("Search depth.", 3)
    )
    parser.add_argument(
        "--nodes",
        metavar="N",
        type=_int_range(0),
        default=100_000,
        help=_default("Nodes per position (0: no limit).", 100_000),
    )
    parser.add_argument(
        "--game-number",
        metavar="N",
        type=_int_range(1),
        default=1,
        help=_default("Which record of the file.", 1),
    )
    parser.add_argument(
        "--mistake",
        metavar="X",
        type=_real,
        default=MISTAKE,
        help=_default("Loss of value that is a mistake.", MISTAKE),
    )
    parser.add_argument(
        "--blunder",
        metavar="X",
        type=_real,
        default=BLUNDER,
        help=_default("Loss of value that is a blunder.", BLUNDER),
    )
    parser.add_argument(
        "--reference",
        action="store_true",
        help="Search with the pure-Python engine even where the game has a compiled kernel.",
    )


def _build_nothing(parser: argparse.ArgumentParser) -> None:
    """A command without arguments."""


def _build_warm(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--batch",
        action="store_true",
        help="Also compile each kernel's batch of games (the batched environment, shogames.envs).",
    )


def _build_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help=_default("Address to listen on (0.0.0.0: every one).", "127.0.0.1"),
    )
    parser.add_argument(
        "--port", type=_int_range(1, 65535), default=8000, help=_default("Port to listen on.", 8000)
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="SQLAlchemy async database URL [default: sqlite+aiosqlite:///shogames.db, a file here; "
        "PostgreSQL: postgresql+asyncpg://user:password@host/db].",
    )
    parser.add_argument(
        "--workers",
        metavar="N",
        type=_int_range(1, 64),
        default=1,
        help=_default(
            "Server processes sharing the port; more than one needs PostgreSQL (see docs/web.md).", 1
        ),
    )
    parser.add_argument(
        "--log-level",
        choices=["debug", "info", "warning", "error"],
        default="info",
        help=_default("Level of the server's log (debug also logs every refused request).", "info"),
    )
    parser.add_argument(
        "--no-quotas",
        action="store_true",
        help="No quotas per client on new games and WebSockets (load tests on loopback).",
    )
    parser.add_argument(
        "--no-warm",
        action="store_true",
        help="Start at once, without first compiling (or loading) the games' kernels; see `shogames warm`.",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default=None,
        help="Proxies whose X-Forwarded-For gives the client's address (quotas count by it): addresses or "
        "networks, comma-separated, * for any; default 127.0.0.1 (or $FORWARDED_ALLOW_IPS).",
    )
    parser.add_argument(
        "--engine-address",
        metavar="ADDRESS",
        default=None,
        help="Run the engine's work (computer moves, hints, analyses) on a Ray cluster's workers: its "
        "head's HOST:PORT, auto, or ray://HOST:10001 (pip install 'shogames[ray]'; docs/web.md).",
    )
    parser.add_argument(
        "--engine-live",
        metavar="N",
        type=_int_range(1, 1024),
        default=None,
        help="Computer moves of games with a person that may run at once [default: every core but one].",
    )
    parser.add_argument(
        "--engine-study",
        metavar="N",
        type=_int_range(1, 1024),
        default=None,
        help="Hints, analyses and replays that may run at once [default: a quarter of the cores].",
    )


COMMANDS: tuple[tuple[str, Callable[..., None], Callable[[argparse.ArgumentParser], None]], ...] = (
    ("games", games_command, _build_nothing),
    ("play", play_command, _build_play),
    ("legal", legal_command, _build_legal),
    ("perft", perft_command, _build_perft),
    ("replay", replay_command, _build_replay),
    ("bench", bench_command, _build_bench),
    ("arena", arena_command, _build_arena),
    ("explore", explore_command, _build_explore),
    ("analyse", analyse_command, _build_analyse),
    ("puzzles", puzzles_command, build_puzzles),
    ("train", train_command, build_train),
    ("warm", warm_command, _build_warm),
    ("serve", serve_command, _build_serve),
)
"""Every subcommand: its name, the function that runs it (whose docstring is its help) and its arguments."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of the whole command line, with a subparser per command of :data:`COMMANDS`."""
    parser = _Parser(
        prog=PROG,
        description="Shoo, Shobu, Sho and Shogammon: play, check and study them from the terminal.",
        epilog=f"Run '{PROG} COMMAND --help' for a command's options.",
        formatter_class=_HelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"{PROG}, version {__version__}")
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", dest="command", parser_class=_Parser
    )
    for name, run, build in COMMANDS:
        _add_command(commands, run, name, build)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: the process's arguments); return the exit status.

    0 when the command did its work; 2 for bad input (a usage error, or ``Error: ...`` on standard error);
    1 when a command needs an extra that is not installed, or on Ctrl-C. The console script
    ``shogames`` exits with what this returns.
    """
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:
        parser.print_help(sys.stdout)
        return 2
    try:
        options = vars(parser.parse_args(arguments))
    except SystemExit as stop:  # --help, --version and usage errors
        return stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    run: Callable[..., None] = options.pop("run")
    options.pop("command")
    # A kernel's first use on a machine compiles for seconds: say so (on standard error) when it does.
    announce_compiles(lambda text: echo(text, err=True))
    try:
        run(**options)
    except (ShogamesUsageError, MissingExtraError) as error:
        echo(f"Error: {error}", err=True)
        return error.exit_code
    except ShogamesError as error:
        echo(f"Error: {error}", err=True)
        return ShogamesUsageError.exit_code
    except KeyboardInterrupt:
        echo("Aborted!", err=True)
        return 1
    except BrokenPipeError:  # the reader of our output went away (`shogames legal shobu | head`)
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        announce_compiles(None)
    return 0


if __name__ == "__main__":  # python -m shogames.ui.cli, as the server tests start it
    sys.exit(main())
