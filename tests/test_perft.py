"""Perft data files: tests/data/perft/GAME.perft, every entry checked at every depth it lists.

The format is python-chess's (``id``, ``epd``, ``perft DEPTH LEAVES``) with an optional ``settings`` line
(``name=value`` pairs) for entries under other settings than the defaults. Counts of more leaves than a
game's budget below are marked slow (run them with ``--run-slow``).

Every registered game has its file, named by its id (``test_every_registered_game_has_a_perft_data_file``):
a new game adds ``tests/data/perft/<id>.perft`` and nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import shogames
from shogames import perft, perft_divide
from shogames.core.kernel import unavailable_reason
from shogames.core.protocol import Game
from shogames.core.settings import parse_settings_text

DATA = Path(__file__).parent / "data" / "perft"


@dataclass
class PerftEntry:
    game_id: str
    name: str
    position: str = ""
    settings: str = ""
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
        elif word == "settings":
            entries[-1].settings = rest
        elif word == "perft":
            depth, leaves = rest.split()
            entries[-1].counts.append((int(depth), int(leaves)))
        else:
            raise ValueError(f"{path.name}: unexpected line {line!r}")
    return entries


ENTRIES = [entry for path in sorted(DATA.glob("*.perft")) for entry in load_entries(path)]

FAST_LEAVES = {"shobu": 10_000_000, "shoo": 400_000, "sho": 300_000, "shogammon": 30_000}
"""The most leaves a count may have to run in the suite, where a game's perft is much faster or slower than
:data:`DEFAULT_FAST_LEAVES` allows for; a game not named here gets the default."""
DEFAULT_FAST_LEAVES = 100_000
"""The budget of a game not in :data:`FAST_LEAVES`: a second or so of the reference's perft."""


def fast_leaves(game_id: str) -> int:
    """The most leaves a count of ``game_id`` may have to run in the suite."""
    return FAST_LEAVES.get(game_id, DEFAULT_FAST_LEAVES)


def _game(entry: PerftEntry) -> Game[Any]:
    cls = shogames.game_class(entry.game_id)
    return shogames.make(entry.game_id, None, **parse_settings_text(cls.setting_specs, entry.settings))


@pytest.mark.parametrize("game_id", [cls.id for cls in shogames.available_games()])
def test_every_registered_game_has_a_perft_data_file(game_id: str) -> None:
    path = DATA / f"{game_id}.perft"
    assert path.is_file(), f"{game_id} has no perft data: write {path.relative_to(DATA.parent.parent.parent)}"
    assert load_entries(path), f"{path.name} has no entries"


def test_every_data_file_has_entries() -> None:
    assert ENTRIES, "no perft data found"
    registered = {cls.id for cls in shogames.available_games()}
    for path in sorted(DATA.glob("*.perft")):
        assert path.stem in registered, f"{path.name} is the data of no registered game"
        assert load_entries(path), f"{path.name} has no entries"
    for entry in ENTRIES:
        state = _game(entry).state_from_text(entry.position)
        assert state.to_text() == entry.position  # each position is written as the engine writes it
        assert state.to_move is not None and state.to_move >= 0  # a seat to move: the dice are thrown
        assert [depth for depth, _ in entry.counts] == list(range(1, len(entry.counts) + 1))


CASES = [
    pytest.param(
        entry,
        depth,
        expected,
        id=f"{entry.game_id}-{entry.name}-{depth}",
        marks=[pytest.mark.slow] if expected > fast_leaves(entry.game_id) else [],
    )
    for entry in ENTRIES
    for depth, expected in entry.counts
]


@pytest.mark.parametrize(("entry", "depth", "expected"), CASES)
def test_perft_counts(entry: PerftEntry, depth: int, expected: int) -> None:
    state = _game(entry).state_from_text(entry.position)
    got = perft(state, depth)
    if got != expected:
        split = "\n".join(f"{move}: {n}" for move, n in perft_divide(state, depth))
        pytest.fail(f"perft {depth} of {entry.game_id} {entry.name}: {got} != {expected}; divide:\n{split}")


KERNEL_SPEED_UP = 20
"""A kernel's perft counts this many times the reference's budget of leaves in the suite."""

KERNEL_CASES = [
    pytest.param(
        entry,
        depth,
        expected,
        id=f"{entry.game_id}-{entry.name}-{depth}",
        marks=[pytest.mark.slow] if expected > KERNEL_SPEED_UP * fast_leaves(entry.game_id) else [],
    )
    for entry in ENTRIES
    if entry.game_id in {cls.id for cls in shogames.available_games() if cls.kernel_module is not None}
    for depth, expected in entry.counts
]


@pytest.mark.parametrize(("entry", "depth", "expected"), KERNEL_CASES)
def test_kernel_perft_counts(entry: PerftEntry, depth: int, expected: int) -> None:
    """The game's compiled kernel counts the same leaves, with bulk counting and every leaf played."""
    game = _game(entry)
    kernel = game.kernel
    if kernel is None:
        pytest.skip(unavailable_reason(game))
    state = game.state_from_text(entry.position)
    for bulk in (True, False):
        got = kernel.perft(state, depth, bulk=bulk)
        assert got == expected, f"kernel perft {depth} (bulk={bulk}) of {entry.game_id} {entry.name}"


def test_known_first_counts_are_in_the_data() -> None:
    # Counts the rulings and docs give: Shoo's 22 first moves (T1), Shogammon's 9 pawn moves for 1-1.
    first = {(entry.game_id, entry.name): entry.counts[0][1] for entry in ENTRIES}
    assert first[("shoo", "start")] == 22
    assert first[("shogammon", "start-1-1")] == 9
    assert first[("shobu", "start")] == 232


def test_divide_sums_to_total() -> None:
    state = shogames.make("shobu").new_initial_state()
    split = perft_divide(state, 2)
    assert len(split) == 232
    assert sum(n for _, n in split) == 50508
