"""A tiny two-player game with chance, for testing records and conformance checks on chance nodes.

Dice race: both players start at 0. A turn is a throw of a three-sided die (a CHANCE move: 1 with
probability 1/2, 2 with 1/3, 3 with 1/6), then the player to move advances either by the throw or by 1
(when the throw is 1 the two are the same move). Whoever first reaches ``target`` wins (returns 1 / -1);
after ``max_plies`` plies without a winner the game is cut as a draw (returns 0 / 0).

Moves are ints: at a chance node the number thrown, written ``d1``..``d3``; for a player the steps
advanced, written ``+1``..``+3``. A move's action id (and a throw's outcome id) is its number less one. The
observation is four planes over the squares ``0 .. target + 2``: the observer's place, the other seat's
place, the throw to be played (its square set), and ones when the observer is to move.

Positions are written ``"<pos0>,<pos1> <turn> <throw or -> <ply>"``,
where ``turn`` is the seat whose turn it is (about to throw, or to move after the throw).

This package is also an outside package of games, as another distribution would ship them: the dice race
here (its browser view in ``view.py``, its renderer in ``static/``), the same race with no view of its own
(:class:`PlainDiceRaceGame`), and in ``tictactoe/`` a whole game with a compiled kernel, laid out as a game
of ``src/shogames/games/<id>/`` is. ``tests/conftest.py`` installs all three for the test run through the
entry points :data:`TOY_ENTRY_POINTS` (:func:`install_toy_games`), so every shared suite, parametrized by
the registry, tests them without naming them; the browser tests install them in the server the same way.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Self

from shogames.core import registry
from shogames.core.errors import IllegalMoveError, NotationError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import ENTRY_POINT_GROUP
from shogames.core.settings import Setting, SettingValue

DIE: tuple[tuple[int, Fraction], ...] = ((1, Fraction(1, 2)), (2, Fraction(1, 3)), (3, Fraction(1, 6)))


class DiceRaceGame(Game["DiceRaceState"]):
    """The dice race under fixed settings."""

    id: ClassVar[str] = "toy_dice_race"
    name: ClassVar[str] = "Dice race (test game)"
    version: ClassVar[int] = 1
    blurb: ClassVar[str] = "a race to the target square with a three-sided die (a test game)"
    view_module: ClassVar[str | None] = "toy_games.view"
    setting_specs: ClassVar[tuple[Setting, ...]] = (
        Setting("target", 10, "the square that wins", minimum=2, maximum=50),
        Setting("max_plies", 80, "plies before the game is cut as a draw", minimum=2),
    )
    presets: ClassVar[dict[str, dict[str, SettingValue]]] = {
        "sprint": {"target": 4, "max_plies": 12},
        "endless": {"target": 50, "max_plies": 30},
    }

    @property
    def target(self) -> int:
        value = self.settings["target"]
        assert isinstance(value, int)
        return value

    @property
    def player_names(self) -> tuple[str, ...]:
        return ("Red", "Blue")

    @property
    def max_game_length(self) -> int:
        value = self.settings["max_plies"]
        assert isinstance(value, int)
        return value

    @property
    def has_chance(self) -> bool:
        return True

    @property
    def num_distinct_actions(self) -> int:
        return 3

    @property
    def max_chance_outcomes(self) -> int:
        return 3

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (4, self.target + 3)

    @property
    def observation_planes(self) -> tuple[str, ...]:
        return ("own place", "opponent's place", "throw to play", "observer to move")

    def new_initial_state(self) -> DiceRaceState:
        return DiceRaceState(self, (0, 0), 0, None, 0)

    def state_from_text(self, text: str) -> DiceRaceState:
        fields = text.split(" ")
        if len(fields) != 4:
            raise NotationError(f"expected '<pos0>,<pos1> <turn> <throw or -> <ply>', got {text!r}")
        places, turn_text, throw_text, ply_text = fields
        place_texts = places.split(",")
        numbers = [*place_texts, turn_text, ply_text]
        if len(place_texts) != 2 or not all(part.isascii() and part.isdigit() for part in numbers):
            raise NotationError(f"expected two places, a turn and a ply as whole numbers, got {text!r}")
        pos = (int(place_texts[0]), int(place_texts[1]))
        turn, ply = int(turn_text), int(ply_text)
        if throw_text == "-":
            throw = None
        elif throw_text in ("1", "2", "3"):
            throw = int(throw_text)
        else:
            raise NotationError(f"expected a throw of 1, 2 or 3, or -, got {throw_text!r}")
        winners = [seat for seat in (0, 1) if pos[seat] >= self.target]
        if (
            turn not in (0, 1)
            or ply > self.max_game_length
            or max(pos) > self.target + 2
            or len(winners) > 1
            or (throw is not None and (winners or ply == self.max_game_length))
        ):
            raise NotationError(f"not a reachable dice race position: {text!r}")
        return DiceRaceState(self, pos, turn, throw, ply)


@dataclass(frozen=True, slots=True)
class DiceRaceState(State[int]):
    """One position of the dice race."""

    race: DiceRaceGame
    pos: tuple[int, int]
    turn: int
    throw: int | None
    count: int

    @property
    def game(self) -> Game[Any]:
        return self.race

    @property
    def ply(self) -> int:
        return self.count

    @property
    def winner(self) -> int | None:
        """The seat that reached the target, if any."""
        for seat in (0, 1):
            if self.pos[seat] >= self.race.target:
                return seat
        return None

    def is_terminal(self) -> bool:
        return self.winner is not None or self.count >= self.race.max_game_length

    def is_truncated(self) -> bool:
        return self.winner is None and self.count >= self.race.max_game_length

    @property
    def to_move(self) -> int | None:
        if self.is_terminal():
            return None
        return CHANCE if self.throw is None else self.turn

    def legal_moves(self) -> Sequence[int]:
        if self.is_terminal():
            return []
        if self.throw is None:
            return [face for face, _ in DIE]
        return sorted({1, self.throw})

    def chance_outcomes(self) -> Sequence[tuple[int, Fraction]]:
        if self.to_move != CHANCE:
            raise ValueError("chance_outcomes() asked of a state whose mover is not CHANCE")
        return list(DIE)

    def play_unchecked(self, move: int) -> Self:
        if self.throw is None:
            return type(self)(self.race, self.pos, self.turn, move, self.count + 1)
        places = list(self.pos)
        places[self.turn] += move
        return type(self)(self.race, (places[0], places[1]), 1 - self.turn, None, self.count + 1)

    def move_to_action(self, move: int) -> int:
        if self.is_terminal() or move not in (1, 2, 3):
            raise ValueError(f"not a move of this state: {move!r}")
        return move - 1

    def observation_tensor(self, seat: int) -> list[float]:
        self._check_seat(seat)
        width = self.race.target + 3
        planes = [[0.0] * width for _ in range(4)]
        planes[0][self.pos[seat]] = 1.0
        planes[1][self.pos[1 - seat]] = 1.0
        if self.throw is not None:
            planes[2][self.throw] = 1.0
        if self.to_move == seat:
            planes[3] = [1.0] * width
        return [value for plane in planes for value in plane]

    def returns(self) -> tuple[float, ...]:
        winner = self.winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def key(self) -> tuple[int, int, int, int, int]:
        return (*self.pos, self.turn, self.throw or 0, self.count)

    def to_text(self) -> str:
        throw = "-" if self.throw is None else str(self.throw)
        return f"{self.pos[0]},{self.pos[1]} {self.turn} {throw} {self.count}"

    def move_to_text(self, move: int) -> str:
        return f"d{move}" if self.throw is None else f"+{move}"

    def parse_move(self, text: str) -> int:
        prefix = "d" if self.throw is None else "+"
        digits = text.removeprefix(prefix)
        if digits == text or digits not in ("1", "2", "3"):
            what = "a throw d1, d2 or d3" if self.throw is None else "an advance +1, +2 or +3"
            raise NotationError(f"expected {what}, got {text!r}")
        move = int(digits)
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{text} is not legal in position {self.to_text()!r}")
        return move

    def __repr__(self) -> str:
        return f"<DiceRaceState {self.to_text()!r}>"


class PlainDiceRaceGame(DiceRaceGame):
    """The dice race with no view of its own: the browser shows it with the generic text view."""

    id: ClassVar[str] = "toy_plain_dice_race"
    name: ClassVar[str] = "Dice race, plain (test game)"
    blurb: ClassVar[str] = "the dice race, shown as text with a button per move (a test game)"
    view_module: ClassVar[str | None] = None


TOY_ENTRY_POINTS: dict[str, str] = {
    "toy_dice_race": "toy_games:DiceRaceGame",
    "toy_plain_dice_race": "toy_games:PlainDiceRaceGame",
    "toy_tictactoe": "toy_games.tictactoe:TicTacToeGame",
}
"""The toy games as this package declares them: entry point name (the game's id) to ``module:Class``."""

TOY_DISTRIBUTION = "shogames_toy_games"
"""The name of the distribution :func:`install_toy_games` writes."""


def register_toy_games() -> None:
    """Register the dice race with the game registry (idempotent; the test run has it installed anyway)."""
    registry.register(DiceRaceGame)


def registered_game_ids() -> list[str]:
    """The ids of every registered game, after :func:`register_toy_games`."""
    register_toy_games()
    return [cls.id for cls in registry.available_games()]


def install_toy_games(folder: Path) -> None:
    """Install the toy games into ``folder`` as a distribution with entry points (put it on ``sys.path``).

    The games' modules stay where they are (``tests/`` must be importable); ``folder`` gets only the
    distribution's metadata, as ``pip install`` of a package declaring :data:`TOY_ENTRY_POINTS` would write.
    """
    write_distribution(folder, TOY_ENTRY_POINTS, name=TOY_DISTRIBUTION)


def write_distribution(
    folder: Path,
    entry_points: dict[str, str],
    modules: dict[str, str] | None = None,
    *,
    name: str = "shogames_extra",
) -> None:
    """Write an installed distribution as :mod:`importlib.metadata` finds it on ``sys.path``.

    ``folder`` gets ``<name>-1.0.dist-info`` declaring ``entry_points`` (name to ``module:Class``) in the
    group the registry reads, and one ``<module>.py`` per entry of ``modules`` (module name to source).
    Distributions of different names do not hide each other's entry points.
    """
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 1.0\n")
    lines = "".join(f"{entry} = {value}\n" for entry, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}")
    for module, source in (modules or {}).items():
        (folder / f"{module}.py").write_text(textwrap.dedent(source))
