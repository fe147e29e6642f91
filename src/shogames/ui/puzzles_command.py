"""``shogames puzzles GAME``: list a game's shipped puzzles, check them, or mine them again.

The command is registered in :data:`shogames.ui.cli.COMMANDS`; the puzzles themselves are
:mod:`shogames.puzzles` (``docs/puzzles.md``).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from shogames.core.errors import SettingsError
from shogames.core.registry import make
from shogames.puzzles import (
    DEFAULT_AGENT,
    DEFAULT_DEPTH,
    DEFAULT_MARGIN,
    DEFAULT_OPENING,
    DEFAULT_PER_GAME,
    KIND_THEMES,
    MiningOptions,
    Puzzle,
    PuzzleSet,
    check,
    mine,
    mine_records,
    mined_set,
    mining_seconds,
    puzzle_file,
    read_puzzles,
    shipped_puzzles,
    write_puzzles,
)


def _say(text: str, *, err: bool = False) -> None:
    print(text, file=sys.stderr if err else sys.stdout, flush=True)


def puzzle_line(puzzle: Puzzle) -> str:
    """One puzzle as one line: id, rating, themes, the side to move's solution, the position."""
    themes = ",".join(puzzle.themes)
    return f"{puzzle.id}  {puzzle.rating:>4}  {themes:<30}  {puzzle.solution:<22}  {puzzle.position}"


def puzzles_command(
    game_id: str,
    theme: str | None,
    puzzles_path: Path | None,
    check_them: bool,
    mine_them: bool,
    count: int,
    seed: int,
    depth: int,
    margin: float,
    agents: Sequence[str],
    opening: int,
    per_game: int,
    records: Path | None,
    out: Path | None,
) -> None:
    """List GAME's puzzles, one a line: id, rating, themes, the solution and the position.

    A puzzle is a position where one move wins or clearly gains and every other move does not, as the
    game's compiled alpha-beta judges it to a depth (docs/puzzles.md). --theme lists only those with a
    theme; --check judges every puzzle again and says which, if any, no longer has its solution.

    --mine mines --count puzzles from seeded games between kernel agents (or from the game records of
    --records) and writes them to --out (the game's shipped file by default), with this command line in
    the file's header:

      shogames puzzles shobu --mine --count 240 --seed 1 --depth 5 --margin 0.3
    """
    game = make(game_id)
    if mine_them:
        _mine(game_id, count, seed, depth, margin, agents, opening, per_game, records, out)
        return
    puzzle_set = _load(game_id, puzzles_path)
    known = set(KIND_THEMES) | set(game.move_theme_names)
    if theme is not None and theme not in known:
        raise SettingsError(
            f"{game_id} puzzles have no theme {theme!r}; the themes: {', '.join(sorted(known))}"
        )
    chosen = [puzzle for puzzle in puzzle_set.puzzles if theme is None or theme in puzzle.themes]
    if check_them:
        failed = 0
        for puzzle in chosen:
            problem = check(puzzle)
            if problem is not None:
                failed += 1
                _say(f"{puzzle.id}: {problem}")
        _say(f"{len(chosen) - failed} of {len(chosen)} puzzles keep their one solution")
        if failed:
            raise SettingsError(f"{failed} puzzle(s) of {game_id} no longer have their one solution")
        return
    for puzzle in chosen:
        _say(puzzle_line(puzzle))


def _load(game_id: str, path: Path | None) -> PuzzleSet:
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise SettingsError(f"cannot read {path}: {error}") from error
        return read_puzzles(text, game_id)
    puzzle_set = shipped_puzzles(game_id)
    if puzzle_set is None:
        raise SettingsError(f"{game_id} ships no puzzles; mine some with: shogames puzzles {game_id} --mine")
    return puzzle_set


def _mine(
    game_id: str, count: int, seed: int, depth: int, margin: float, agents: Sequence[str], opening: int,
    per_game: int, records: Path | None, out: Path | None,
) -> None:  # fmt: skip
    game = make(game_id)
    chosen_agents = tuple(agents) or (DEFAULT_AGENT,)
    options = MiningOptions(
        count=count,
        seed=seed,
        depth=depth,
        margin=margin,
        agents=chosen_agents,
        opening=opening,
        per_game=per_game,
    )
    options.check()
    command = [f"shogames puzzles {game_id} --mine --count {count}"]
    if records is not None:
        command.append(f"--records {records}")
    else:
        command.append(f"--seed {seed}")
    command.append(f"--depth {depth} --margin {margin:g}")
    if records is None:
        command += [f"--agent {agent}" for agent in chosen_agents]
        command.append(f"--opening {opening}")
    command.append(f"--per-game {per_game}")
    target = out if out is not None else puzzle_file(game_id)
    started = time.perf_counter()
    if records is not None:
        from shogames.records import read_records

        try:
            text = records.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise SettingsError(f"cannot read {records}: {error}") from error
        puzzles = mine_records(game, read_records(text), options)
    else:

        def report(found: int, games: int) -> None:
            if games % 10 == 0:
                _say(f"{found} puzzles from {games} games ({time.perf_counter() - started:.0f} s)", err=True)

        puzzles = mine(game, options, progress=report)
    seconds = mining_seconds(started)
    parameters = {**options.parameters(), "seconds": seconds}
    if records is not None:
        parameters["records"] = str(records)
    write_puzzles(target, mined_set(game, puzzles, " ".join(command), parameters))
    kinds = collections.Counter(puzzle.kind for puzzle in puzzles)
    themes = collections.Counter(theme for puzzle in puzzles for theme in puzzle.themes)
    _say(f"{len(puzzles)} puzzles of {game_id} in {seconds:g} s, written to {target}")
    _say("kinds: " + ", ".join(f"{kind} {number}" for kind, number in sorted(kinds.items())))
    _say("themes: " + ", ".join(f"{theme} {number}" for theme, number in themes.most_common()))


def _path(text: str) -> Path:
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    return path


def build_puzzles(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``shogames puzzles``."""
    from shogames.ui.cli import _int_range, _real_range  # the CLI's own argument types

    parser.add_argument("game_id", metavar="GAME", help="The game's id (see `shogames games`).")
    parser.add_argument("--theme", metavar="THEME", default=None, help="Only the puzzles with this theme.")
    parser.add_argument(
        "--file", dest="puzzles_path", metavar="PATH", type=_path, default=None,
        help="Read the puzzles from this file instead of the game's shipped ones.",
    )  # fmt: skip
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--check", dest="check_them", action="store_true",
        help="Judge every puzzle again (with the game's kernel) instead of listing them.",
    )  # fmt: skip
    what.add_argument("--mine", dest="mine_them", action="store_true", help="Mine puzzles and write them.")
    mining = parser.add_argument_group("mining (with --mine)")
    mining.add_argument(
        "--count", metavar="N", type=_int_range(1), default=200, help="Puzzles to find [default: 200]."
    )
    mining.add_argument("--seed", metavar="N", type=_int_range(0), default=0, help="The seed [default: 0].")
    mining.add_argument(
        "--depth", metavar="D", type=_int_range(1), default=DEFAULT_DEPTH,
        help=f"The judging search's depth in decisions [default: {DEFAULT_DEPTH}].",
    )  # fmt: skip
    mining.add_argument(
        "--margin", metavar="X", type=_real_range(0.0, 2.0, above_low=True), default=DEFAULT_MARGIN,
        help=f"How far above every other move the solution is valued [default: {DEFAULT_MARGIN}].",
    )  # fmt: skip
    mining.add_argument(
        "--agent", dest="agents", metavar="SPEC", action="append", default=[],
        help=f"The next seat's agent in the mined games; repeat for each seat [default: {DEFAULT_AGENT}].",
    )  # fmt: skip
    mining.add_argument(
        "--opening", metavar="N", type=_int_range(0), default=DEFAULT_OPENING,
        help=f"Random plies that open each game [default: {DEFAULT_OPENING}].",
    )  # fmt: skip
    mining.add_argument(
        "--per-game", metavar="N", type=_int_range(1), default=DEFAULT_PER_GAME,
        help=f"The most puzzles from one game [default: {DEFAULT_PER_GAME}].",
    )  # fmt: skip
    mining.add_argument(
        "--records", metavar="FILE", type=_path, default=None,
        help="Mine the positions of these game records (the server's games) instead of playing games.",
    )  # fmt: skip
    mining.add_argument(
        "--out", metavar="PATH", type=_path, default=None,
        help="Where to write them [default: the game's shipped puzzles.jsonl].",
    )  # fmt: skip


__all__ = ["build_puzzles", "puzzle_line", "puzzles_command"]
