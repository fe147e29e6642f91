"""The game pages in docs/games say what the program does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shogames.ui.cli import build_parser

PAGES = sorted((Path(__file__).resolve().parent.parent / "docs" / "games").glob("*.md"))


def _default_opponent() -> str:
    return str(build_parser().parse_args(["play", "shobu"]).agent_name)


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_play_examples_name_the_default_opponent(page: Path) -> None:
    default = _default_opponent()
    assert default == "easy"
    for line in page.read_text().splitlines():
        command, _, comment = line.partition("#")
        if not command.strip().startswith("shogames play") or "--vs" in command or "--seat none" in command:
            continue
        assert "random" not in comment, (
            f"{page.name}: {line.strip()!r}: `shogames play` plays the {default} level"
        )


# --- docs/adding-a-game.md lists exactly the files a game needs ---------------------------------------

ROOT = Path(__file__).resolve().parent.parent
ADDING = (ROOT / "docs" / "adding-a-game.md").read_text()
TOY = ROOT / "tests" / "toy_games" / "tictactoe"
"""The toy game with a kernel, laid out as a shipped game (``tests/toy_games/tictactoe``)."""
TOY_ID = "toy_tictactoe"
EXAMPLE_ID = "go"
"""The id the doc's tables use for a fifth game."""


def _package_layout() -> set[str]:
    """The files of the doc's ``src/shogames/games/<id>/`` block, relative to the package."""
    block = ADDING.split("```text\nsrc/shogames/games/<id>/\n", 1)[1].split("```", 1)[0]
    return {line.split()[0] for line in block.splitlines() if line.strip()}


def _listed_files() -> list[str]:
    """The first column of every table of the section "Every file a fifth game needs"."""
    section = ADDING.split("## Every file a fifth game needs", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE)


def _as_toy(path: str) -> str:
    """A listed path of the example game, as the toy game's (``tests/test_go.py``: the toy's rules test)."""
    return re.sub(rf"(?<=[/_]){EXAMPLE_ID}(?=[._/])", TOY_ID, path)


def _toy_files() -> set[str]:
    return {
        path.relative_to(TOY).as_posix()
        for path in TOY.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_packages_files_are_the_toy_games_files() -> None:
    assert _package_layout() == _toy_files()
    package = f"src/shogames/games/{EXAMPLE_ID}/"
    listed = {path.removeprefix(package) for path in _listed_files() if path.startswith(package)}
    assert listed == _package_layout()


def test_the_tests_listed_are_the_toy_games_own_tests_and_no_shared_one() -> None:
    listed = [path for path in _listed_files() if path.startswith("tests/")]
    toy_tests = {
        path.relative_to(ROOT).as_posix()
        for path in [
            *(ROOT / "tests").glob(f"test_*{TOY_ID}.py"),
            ROOT / "tests" / "data" / "perft" / f"{TOY_ID}.perft",
        ]
    }
    assert {_as_toy(path) for path in listed} == toy_tests
    for path in listed:
        assert _as_toy(path) != path, f"{path} is not a file of the game: no shared test needs an edit"
