"""The ``shogames`` command line: games, play, legal moves, perft, replay, bench, arena and analysis.

Every subcommand that takes a game takes its settings the same way: ``--preset NAME`` and any number of
``--settings "name=value ..."`` options (later values win). Bad input of any kind (an unknown game,
setting or agent, a position or record that cannot be read, an illegal move in a record) ends the
command with a one-line ``Error: ...`` on standard error and exit status 2, never a traceback.

>>> from click.testing import CliRunner
>>> print(CliRunner().invoke(main, ["legal", "shobu"]).output.splitlines()[0])
BDa1-a2 WLa1-a2
"""

from __future__ import annotations

import contextlib
import datetime
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

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
from shogames.ui.terminal import TerminalGame, mover_name

FuncT = TypeVar("FuncT", bound=Callable[..., Any])


class ShogamesUsageError(click.ClickException):
    """Bad input to a command: shown as one ``Error: ...`` line on standard error, exit status 2."""

    exit_code = 2


class _Group(click.Group):
    """A command group that turns every :class:`ShogamesError` into a :class:`ShogamesUsageError`."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand, reporting bad input as a one-line error instead of a traceback."""
        try:
            return super().invoke(ctx)
        except ShogamesError as error:
            raise ShogamesUsageError(str(error)) from error


def _game_options(function: FuncT) -> FuncT:
    """Add ``--settings`` and ``--preset`` to a command that takes a GAME argument."""
    function = click.option(
        "--preset",
        metavar="NAME",
        default=None,
        help="Start from the named preset of settings (see `shogames games`).",
    )(function)
    return click.option(
        "--settings",
        "settings_texts",
        metavar="'NAME=VALUE ...'",
        multiple=True,
        help="Settings as name=value pairs separated by spaces; may be given several times.",
    )(function)


def _position_option(starts_at: str) -> Callable[[FuncT], FuncT]:
    """Add ``--position TEXT`` to a command that otherwise starts at ``starts_at`` (said in its help)."""
    return click.option(
        "--position",
        metavar="TEXT",
        default=None,
        help=f"Start from this position (in the game's position text) instead of {starts_at}.",
    )


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


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="shogames")
def main() -> None:  # the console script's entry point: shogames = "shogames.ui.cli:main"
    """Shoo, Shobu, Sho and Shogammon: play, check and study them from the terminal."""
    # A kernel's first use on a machine compiles for seconds: say so (on standard error) when it does.
    announce_compiles(lambda text: click.echo(text, err=True))


@main.command("games")
def games_command() -> None:
    """List every game with its seats, settings and presets."""
    for index, cls in enumerate(available_games()):
        game = cls()
        if index:
            click.echo("")
        click.echo(f"{cls.id}: {cls.name} (version {cls.version})")
        click.echo(f"  seats: {', '.join(game.player_names)}")
        if cls.setting_specs:
            click.echo("  settings:")
            for spec in cls.setting_specs:
                click.echo(f"    {spec.name}={_value_text(spec.default)}  ({spec.describe_values()})")
                click.echo(f"        {spec.description}")
        else:
            click.echo("  settings: none")
        if cls.presets:
            click.echo("  presets:")
            for name, values in cls.presets.items():
                click.echo(f"    {name}: {format_settings(values) or '(the defaults)'}")
        else:
            click.echo("  presets: none")


@main.command("play")
@click.argument("game_id", metavar="GAME")
@_game_options
@click.option(
    "--seat",
    "seats",
    metavar="SEAT",
    multiple=True,
    help="A seat you play, by name or 1-based number; repeat for hot-seat; `none` to watch agents."
    " Default: the first seat.",
)
@click.option(
    "--vs",
    "agent_name",
    metavar="LEVEL",
    default="easy",
    show_default=True,
    help=f"Who plays the other seats: a level ({', '.join(level_names())}) or an agent spec"
    f" ({', '.join(agent_names())}, with parameters as in `alphabeta:depth=3`).",
)
@click.option("--seed", type=int, default=None, help="Seed of the chance outcomes and the agents.")
@_position_option(_INITIAL)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to save the record (default: ./shogames-<game>-<YYYYmmdd-HHMMSS>.sgr).",
)
def play_command(
    game_id: str,
    settings_texts: tuple[str, ...],
    preset: str | None,
    seats: tuple[str, ...],
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
        write=click.echo,
    )
    session.run()


@main.command("legal")
@click.argument("game_id", metavar="GAME")
@_position_option(_START)
@_game_options
def legal_command(
    game_id: str, position: str | None, settings_texts: tuple[str, ...], preset: str | None
) -> None:
    """Print the legal moves, one per line.

    The moves of the next decision in the game's notation: a player's moves, or the chance outcomes
    at a chance node; nothing once the game is over. Without --position, from the start position.
    """
    game = load_game(game_id, settings_texts, preset)
    state = load_position(game, position, board_start=True)
    if state.is_terminal():
        click.echo("the game is over: there are no legal moves", err=True)
    for move in state.legal_moves():
        click.echo(state.move_to_text(move))


@main.command("perft")
@click.argument("game_id", metavar="GAME")
@click.option("--depth", type=click.IntRange(min=0), required=True, help="How many moves deep to count.")
@_position_option(_START)
@_game_options
@click.option("--divide", is_flag=True, help="Also print the count below each first move.")
@click.option(
    "--reference",
    is_flag=True,
    help="Count with the pure-Python reference engine even where the game has a compiled kernel.",
)
@click.option(
    "--no-bulk",
    is_flag=True,
    help="Generate and play every leaf move instead of counting the last level (needs a kernel).",
)
def perft_command(
    game_id: str,
    depth: int,
    position: str | None,
    settings_texts: tuple[str, ...],
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
            click.echo(f"{move_text}: {count}")
        click.echo(sum(count for _, count in split))
    else:
        click.echo(fast_perft(state, depth, bulk=not no_bulk) if use_kernel else perft(state, depth))


def _record_summary(record: Record, game: Game[Any], plies: int) -> str:
    players = " vs ".join(record.headers.get(name, "?") for name in game.player_names)
    termination = f" ({record.termination})" if record.termination else ""
    return f"{record.game_id}, {players}, {plies} moves, result {record.result}{termination}"


@main.command("replay")
@click.argument("path", metavar="FILE", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Print only a one-line summary per record.")
def replay_command(path: Path, quiet: bool) -> None:
    """Check and show the records in FILE.

    Plays every record's moves under the rules and prints the position after each move and the
    result; --quiet prints one line per record. A bad record ends with an error naming its line.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ShogamesUsageError(f"cannot read {path}: {error}") from error
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
            click.echo(summary)
            continue
        if number > 1:
            click.echo("")
        click.echo(summary)
        click.echo(played.states[0].diagram())
        for ply, move_text in enumerate(record.moves):
            click.echo("")
            click.echo(f"{ply + 1}. {mover_name(played.game, played.states[ply].to_move)}: {move_text}")
            click.echo(played.states[ply + 1].diagram())
        termination = f" ({record.termination})" if record.termination else ""
        click.echo(f"Result: {record.result}{termination}")


@main.command("bench")
@click.argument("game_id", metavar="GAME")
@click.option("--depth", type=click.IntRange(min=0), default=3, show_default=True, help="Perft depth.")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=3.0,
    show_default=True,
    help="How long to keep starting random games (the first of --seconds and --games ends them).",
)
@click.option("--games", type=click.IntRange(min=1), default=None, help="Stop after this many games.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random playouts.")
@click.option(
    "--kernel/--no-kernel",
    default=True,
    show_default=True,
    help="Also measure the game's compiled kernel, where it has one, in the same run.",
)
@_game_options
def bench_command(
    game_id: str,
    depth: int,
    seconds: float,
    games: int | None,
    seed: int,
    kernel: bool,
    settings_texts: tuple[str, ...],
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
        click.echo(line)
    if kernel and report.kernel is None:
        click.echo(f"kernel: none ({unavailable_reason(game)})")


@main.command("arena")
@click.argument("game_id", metavar="GAME")
@click.argument("more_agents", nargs=-1, metavar="[AGENT]...")
@_game_options
@click.option(
    "--agents",
    "first_agent",
    metavar="AGENT",
    required=True,
    help="The agents, after --agents and separated by spaces: levels or agent specs (at least two).",
)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games per pair.")
@click.option(
    "--budget",
    metavar="KEY=VALUE,...",
    default=None,
    help="Parameters for every agent that takes them (and does not set them), e.g. seconds=1 or nodes=5000.",
)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the games and the agents.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the records, tables and plot (default: ./arena-<game>-<YYYYmmdd-HHMMSS>).",
)
def arena_command(
    game_id: str,
    more_agents: tuple[str, ...],
    settings_texts: tuple[str, ...],
    preset: str | None,
    first_agent: str,
    games: int,
    budget: str | None,
    jobs: int,
    seed: int,
    out: Path | None,
) -> None:
    """Play a round robin between agents in GAME and rate them.

    Example: shogames arena shobu --agents random easy medium hard --games 100 --jobs 2

    Every pair plays --games games, swapping seats from game to game. Prints a table of scores with 95%
    intervals and Elo ratings with profile-likelihood intervals; saves every game's record (games.txt), the
    tables (results.md, results.json) and a plot of the ratings (ratings.png) in the --out folder.
    """
    from shogames.arena import run_arena  # matplotlib and multiprocessing only load for this command

    game = load_game(game_id, settings_texts, preset)
    agents = [first_agent, *more_agents]
    budget_params: dict[str, str] = {}
    if budget:
        budget_params = parse_agent_spec(f"budget:{budget}")[1]
    if out is None:
        out = Path(f"arena-{game.id}-{datetime.datetime.now():%Y%m%d-%H%M%S}")
    pairs = len(agents) * (len(agents) - 1) // 2
    with click.progressbar(length=pairs * games, label=f"{game.id}: {pairs} pairs x {games} games") as bar:
        report = run_arena(
            game.id,
            agents,
            games,
            settings=dict(game.settings),
            seed=seed,
            jobs=jobs,
            out=out,
            budget=budget_params,
            progress=lambda _result: bar.update(1),
        )
    click.echo(report.table())
    click.echo(f"Records, tables and plot: {out}/")


@main.command("analyse")
@click.argument("path", metavar="RECORD", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--depth", type=click.IntRange(min=1), default=3, show_default=True, help="Search depth.")
@click.option(
    "--nodes",
    type=click.IntRange(min=0),
    default=100_000,
    show_default=True,
    help="Nodes per position (0: no limit).",
)
@click.option(
    "--game-number",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Which record of the file.",
)
@click.option(
    "--mistake", type=float, default=MISTAKE, show_default=True, help="Loss of value that is a mistake."
)
@click.option(
    "--blunder", type=float, default=BLUNDER, show_default=True, help="Loss of value that is a blunder."
)
@click.option(
    "--reference",
    is_flag=True,
    help="Search with the pure-Python engine even where the game has a compiled kernel.",
)
def analyse_command(
    path: Path, depth: int, nodes: int, game_number: int, mistake: float, blunder: float, reference: bool
) -> None:
    """Analyse every move of a game record with alpha-beta search.

    For each move: the mover's value of the move played and of the search's preferred move (from -1, lost,
    to +1, won), the preferred move, and a flag when the move played loses at least --mistake (?) or
    --blunder (??) of value. Where the game has a compiled kernel with an alpha-beta searcher, the kernel
    searches (the same values, much faster); --reference uses the pure-Python engine.
    """
    records = read_records(path.read_text(encoding="utf-8"))
    if not 1 <= game_number <= len(records):
        raise ShogamesUsageError(
            f"{path} holds {len(records)} record(s); --game-number {game_number} is not one"
        )
    record = records[game_number - 1]
    engine = "reference"
    if not reference and kernel_analyser(game_from_record(record), depth) is not None:
        engine = "kernel"
    analysed = analyse_record(record, depth=depth, nodes=nodes, kernel=engine == "kernel")
    click.echo(
        f"{record.game_id}: {len(analysed)} moves analysed "
        f"({engine} alpha-beta, depth {depth}, {nodes} nodes)"
    )
    click.echo(f"{'ply':>5}  {'mover':<10} {'played':<22} {'value':>6}  {'best':<22} {'value':>6}")
    counts: dict[str, dict[str, int]] = {}
    for move in analysed:
        verdict = move.verdict(mistake, blunder)
        mark = {"blunder": "??", "mistake": "?"}.get(verdict, "")
        best = "" if move.best == move.played else move.best
        click.echo(
            f"{move.ply:>5}  {move.mover:<10} {move.played + mark:<22} {move.played_value:>+6.2f}  "
            f"{best:<22} {move.best_value:>+6.2f}"
        )
        if verdict:
            tally = counts.setdefault(move.mover, {"mistake": 0, "blunder": 0})
            tally[verdict] += 1
    for mover, tally in counts.items():
        click.echo(f"{mover}: {tally['mistake']} mistake(s), {tally['blunder']} blunder(s)")


@main.command("warm")
def warm_command() -> None:
    """Compile every game's kernel into numba's cache now (or load it), so no later use waits for it.

    The first use of a kernel on a machine compiles it (seconds to tens of seconds a game); `serve` warms
    the kernels before it says where it runs. The games compile side by side, one process a core. One
    line a game, as each is ready: compiled, loaded from the cache, or why there is no kernel.
    """
    from shogames.kernels.warm import warm_kernels_in_processes

    warm_kernels_in_processes(report=lambda result: click.echo(result.line()))


@main.command("serve")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every one)."
)
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on."
)
@click.option(
    "--database",
    default=None,
    help="SQLAlchemy async database URL [default: sqlite+aiosqlite:///shogames.db, a file here; "
    "PostgreSQL: postgresql+asyncpg://user:password@host/db].",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes sharing the port; more than one needs PostgreSQL (see docs/web.md).",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
    help="Level of the server's log (debug also logs every refused request).",
)
@click.option(
    "--no-quotas",
    is_flag=True,
    help="No quotas per client on new games and WebSockets (load tests on loopback).",
)
@click.option(
    "--no-warm",
    is_flag=True,
    help="Start at once, without first compiling (or loading) the games' kernels; see `shogames warm`.",
)
@click.option(
    "--forwarded-allow-ips",
    metavar="IPS",
    default=None,
    help="Proxies whose X-Forwarded-For gives the client's address (quotas count by it): addresses or "
    "networks, comma-separated, * for any; default 127.0.0.1 (or $FORWARDED_ALLOW_IPS).",
)
def serve_command(
    host: str,
    port: int,
    database: str | None,
    workers: int,
    log_level: str,
    no_quotas: bool,
    no_warm: bool,
    forwarded_allow_ips: str | None,
) -> None:
    """Run the web app: play every game in the browser, against the computer, hot-seat or online."""
    from shogames.server.app import Quotas, serve
    from shogames.server.db import DEFAULT_DATABASE_URL

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
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from None


if __name__ == "__main__":  # python -m shogames.ui.cli, as the server tests start it
    main()
