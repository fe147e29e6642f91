"""docs/rulings.md: every shipped game has a section, every ruling of every game has a row, and every test a
row names exists.

The rulings live outside the repository (``shared/rules/<game>.md``), so their ids are copied here
(:data:`RULINGS`) for the games that have them; a game not named there needs only its section, each row of
which must name a test or say why none is needed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shogames.core.registry import game_class
from shogames.games import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parent.parent
TABLE = (ROOT / "docs" / "rulings.md").read_text()

# The rulings of shared/rules/<game>.md, by the ids the table uses, by the game's name (its section).
RULINGS = {
    "Shoo": [
        "§1",
        "§4 safety",
        "§4 holds",
        *(f"§4.{n}" for n in range(1, 16)),
        "§5 win",
        "§5 draws",
        "§5 time",
        "§6",
        *(f"A{n}" for n in range(1, 30)),
        "§8",
        "V1",
        "V2",
        "V3",
        *(f"T{n}" for n in (*range(1, 13), 16)),
    ],
    "Shobu": ["§1", "§2.1", "§2.2", "§2.3", "§2.4", "§2.5", "§2.6", "§3", "§4"],
    "Sho": [*(f"R{n}" for n in range(1, 18)), "decisions"],
    "Shogammon": [*(str(n) for n in range(1, 31)), *(f"({letter})" for letter in "abcdefgh")],
}


def _sections() -> dict[str, dict[str, str]]:
    """Each game's rows: ruling id -> the 'pinned by' cell."""
    sections: dict[str, dict[str, str]] = {}
    current = ""
    for line in TABLE.splitlines():
        heading = re.match(r"## (\S+)", line)
        if heading:
            current = heading[1]
            sections[current] = {}
        elif line.startswith("| ") and current and not line.startswith(("| ruling", "|---")):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            sections[current][cells[0]] = cells[-1]
    return sections


SECTIONS = _sections()


@pytest.mark.parametrize("game_id", sorted(BUILTIN_GAMES))
def test_every_shipped_game_has_a_section(game_id: str) -> None:
    name = game_class(game_id).name
    assert SECTIONS.get(name), f"docs/rulings.md has no section '## {name}' with the rulings of {game_id}"


@pytest.mark.parametrize("game", sorted(RULINGS))
def test_every_ruling_has_a_row(game: str) -> None:
    missing = [ruling for ruling in RULINGS[game] if ruling not in SECTIONS.get(game, {})]
    assert not missing, f"docs/rulings.md has no row for {game} rulings {missing}"


def test_every_named_test_exists() -> None:
    named = re.findall(r"`(test_\w+\.py)::(test_\w+)`", TABLE)
    assert len(named) > 150
    for file, function in named:
        source = (ROOT / "tests" / file).read_text()
        assert re.search(rf"^def {function}\(", source, re.MULTILINE), (
            f"docs/rulings.md names {file}::{function}"
        )


def test_every_row_names_a_test_or_says_why_not() -> None:
    for game, rows in SECTIONS.items():
        for ruling, cell in rows.items():
            assert "::" in cell or cell.startswith("nothing to pin:"), f"{game} {ruling}: {cell!r}"
