"""Perft data files: tests/data/perft/GAME.perft, every entry checked at every depth it lists."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

import shogames
from shogames import perft, perft_divide

DATA = Path(__file__).parent / "data" / "perft"


@dataclass
class PerftEntry:
    game_id: str
    name: str
    position: str = ""
    counts: list[tuple[int, int]] = field(default_factory=list)


def load_entries(path: Path) -> list[PerftEntry]:
    entries: list[PerftEntry] = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            entries.append(PerftEntry(path.stem, rest))
        elif word == "epd":
            entries[-1].position = rest
        elif word == "perft":
            depth, leaves = rest.split()
            entries[-1].counts.append((int(depth), int(leaves)))
        else:
            raise ValueError(f"{path.name}: unexpected line {line!r}")
    return entries


ENTRIES = [entry for path in sorted(DATA.glob("*.perft")) for entry in load_entries(path)]


def test_every_data_file_has_entries() -> None:
    assert ENTRIES, "no perft data found"
    assert {entry.game_id for entry in ENTRIES} >= {"shobu"}


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{e.game_id}-{e.name}" for e in ENTRIES])
def test_perft_counts(entry: PerftEntry) -> None:
    game = shogames.make(entry.game_id)
    state = game.state_from_text(entry.position)
    for depth, expected in entry.counts:
        got = perft(state, depth)
        if got != expected:
            split = "\n".join(f"{move}: {n}" for move, n in perft_divide(state, depth))
            pytest.fail(f"perft {depth} of {entry.name}: {got} != {expected}; divide:\n{split}")


def test_divide_sums_to_total() -> None:
    state = shogames.make("shobu").new_initial_state()
    split = perft_divide(state, 2)
    assert len(split) == 232
    assert sum(n for _, n in split) == 50508
