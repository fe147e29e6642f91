"""Shoo (David Andrew, Justin Kalef & Chris Kidd, 1999): a 9×9 travelling game with neutral horses.

Rules source: the designers' narrative (``shared/seeds/000_18fe475ffc847542.txt``) and the Games of Towers
reading (``shared/seeds/001_106b84cdc380ee3f.txt``), as settled by our rulings (``shared/rules/shoo.md``).
``docs/games/shoo.md`` tells the rules in our words, with every decision the documents leave open.

Seats, sides and squares
------------------------
The seats are the colours, **Blue** (seat 0) and **White** (seat 1). The opening (a coin toss, then the
winner's choice between the first move and the odd horse) decides which colour plays **South**, who moves
first, and which plays **North**; rules code works with sides (0 South, 1 North) and maps them to seats.

Files a–i run left to right and ranks 1–9 upward from South. Square ``file + 9 * rank`` (both from 0) is
bit ``file + 9 * rank`` of an 81-bit int, so a set of squares is an int::

    rank 9 | 72 .. 80 |      South's home area (its destination) a7–c9; North's is g1–i3
    ...
    rank 1 |  0 ..  8 |
             a  ..  i

A position is four such bitboards (South's travellers, North's travellers, mounted travellers of either
side, free horses) plus the held horse, the stables, the pastures, the pending shoo and what a hush needs.
Neighbour masks and rays are precomputed per square, and touching is a popcount.

Moves
-----
A move is a :class:`ShooMove`: its kind, up to four squares and an optional shoo declaration. Notation
(rulings §3): ``d4-d5`` step or ride, ``H*e5`` call up a stable horse, ``Hg7-d4`` slide a free horse,
``d4>d5`` mount (``d4>d5-d9`` and ride on), ``e5/d4`` dismount, ``!e5`` hold, ``xe5`` retire, ``T*a1`` return
from the stable, ``d4xe5@d5-g7`` capture (place the rider on d5, ride to g7), ``~a9`` shooed off (towers:
``~a9@d6``, dropped on d6), `` shoo c7`` appended to declare a shoo, ``HUSH`` and ``pass``. The opening is
``toss:blue`` or ``toss:white`` (chance), then ``first`` or ``odd-horse`` (the toss winner's choice).

Actions and observations
------------------------
Every move has an action id below :data:`NUM_ACTIONS` (60,458), seen from the mover's side (North's board
turned half a turn, square ``s`` seen as ``80 - s``). A move that brings a traveller or a slid horse to a
square (step, dismount, ride, mount, capture, slide) is an *arrival*: ``(pair * 12 + variant) * 9 + shoo``,
where ``pair`` is the end square and the direction the moving piece enters it (:data:`ARRIVAL_PAIRS`);
the piece is the first occupied square behind the end, nothing jumps. The variant says who arrives and
how (ride or dismount, which walker mounts, who captures and where the rider is put: at most 3 x 4), and
the shoo code the declared target (none, one of 7 neighbours of the end, or the placed rider). Returns,
call-ups, holds, retirements and towers drops have a block each by square, then ``~T``, HUSH, pass and
the two opening choices; the toss's outcomes are chance ids 0 and 1. The observation is 26 planes of 9 x 9
(:data:`OBSERVATION_PLANES`) from the observer's side. ``docs/games/shoo.md`` ("Actions and
observations") gives the tables and the arguments for the sizes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import ClassVar, Final, NamedTuple

from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.notation import is_number, read_number, shown
from shogames.core.protocol import CHANCE, Game, State, SuggestedClock
from shogames.core.settings import Setting, SettingValue

BLUE: Final = 0
"""Seat of Blue."""
WHITE: Final = 1
"""Seat of White."""
SOUTH: Final = 0
"""Side of South, who moves first and starts on g1–i3."""
NORTH: Final = 1
"""Side of North, who starts on a7–c9 with the odd horse in its stable."""

SEAT_NAMES: Final = ("Blue", "White")
"""The seats' names in seat order."""
SIDE_NAMES: Final = ("South", "North")
"""The sides' names in side order."""
FILES: Final = "abcdefghi"
"""Files from South's left to right."""
SIZE: Final = 9
"""The field is SIZE × SIZE squares."""


# Move kinds, in the order legal_moves lists them.
class ShooMoveKind(IntEnum):
    """What a Shoo move does (``ShooMove.kind``); also module constants (:data:`STEP`, ...)."""

    STEP = 0
    """A foot traveller steps to an adjacent empty square (also a step that answers a shoo)."""
    MOUNT = 1
    """A foot traveller mounts an adjacent free horse and may ride on (towers: mount only)."""
    RIDE = 2
    """A mounted traveller slides like a queen."""
    DISMOUNT = 3
    """A mounted traveller steps off to an adjacent empty square; the horse stays, free."""
    CAPTURE = 4
    """A traveller takes an adjacent enemy rider's horse, placing the rider, and may ride on."""
    RETURN = 5
    """A stabled traveller comes back on foot to an empty square of its first row."""
    CALL = 6
    """A horse is called up from the stable (towers: dropped)."""
    SLIDE = 7
    """A free horse slides like a queen."""
    HOLD = 8
    """A free horse next to one of the mover's travellers is held for the opponent's next turn."""
    RETIRE = 9
    """A free horse next to one of the mover's travellers goes to the mover's pasture for good."""
    SHOOED_OFF = 10
    """A shooed traveller with no answer leaves the field (towers: and is dropped near its start area)."""
    HUSH = 11
    """The opponent's last move is taken back: "Hush, you can't do that!"."""
    PASS = 12
    """No legal action: the turn passes."""
    TOSS = 13
    """The coin toss (a chance outcome): ``to`` is the winner's seat."""
    CHOOSE = 14
    """The toss winner's choice: ``to`` is 0 for the first move, 1 for the odd horse."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


STEP: Final = ShooMoveKind.STEP
MOUNT: Final = ShooMoveKind.MOUNT
RIDE: Final = ShooMoveKind.RIDE
DISMOUNT: Final = ShooMoveKind.DISMOUNT
CAPTURE: Final = ShooMoveKind.CAPTURE
RETURN: Final = ShooMoveKind.RETURN
CALL: Final = ShooMoveKind.CALL
SLIDE: Final = ShooMoveKind.SLIDE
HOLD: Final = ShooMoveKind.HOLD
RETIRE: Final = ShooMoveKind.RETIRE
SHOOED_OFF: Final = ShooMoveKind.SHOOED_OFF
HUSH: Final = ShooMoveKind.HUSH
PASS: Final = ShooMoveKind.PASS
TOSS: Final = ShooMoveKind.TOSS
CHOOSE: Final = ShooMoveKind.CHOOSE

_PLAY, _TOSS, _CHOICE = 0, 1, 2
_PHASE_NAMES: Final = ("play", "toss", "choice")


class ShooMove(NamedTuple):
    """One Shoo move; unused squares are -1.

    Attributes:
        kind: what the move does (:data:`STEP` ... :data:`CHOOSE`).
        origin: the square the moving traveller or horse starts on.
        via: a mount's horse square, or a capture's square of the enemy rider.
        place: where a capture puts the displaced rider.
        to: where the move ends (for TOSS the winner's seat, for CHOOSE 0 first move / 1 odd horse).
        shoo: the square of the enemy traveller shooed by this move, or -1.
    """

    kind: ShooMoveKind
    origin: int = -1
    via: int = -1
    place: int = -1
    to: int = -1
    shoo: int = -1

    def base(self) -> ShooMove:
        """The move without its shoo declaration: what a HUSH bars for the rest of the turn."""
        return self._replace(shoo=-1) if self.shoo >= 0 else self


HUSH_MOVE: Final = ShooMove(HUSH)
"""The move that hushes the opponent's last move."""
PASS_MOVE: Final = ShooMove(PASS)
"""The pass, legal only when nothing else is."""


def square_name(square: int) -> str:
    """The name of square ``square`` (0–80), such as ``e5``."""
    return FILES[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int:
    """The square named ``text`` (``a1`` .. ``i9``, any case).

    Raises:
        NotationError: the text names no square of the field.
    """
    name = text.strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "123456789":
        raise NotationError(f"expected a square from a1 to i9, got {text!r}")
    return FILES.index(name[0]) + SIZE * (int(name[1]) - 1)


# --- Geometry, precomputed ------------------------------------------------------------------------------

_VECTORS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def _block(files: range, ranks: range) -> int:
    return sum(1 << (f + SIZE * r) for f in files for r in ranks)


def _neighbours(square: int) -> tuple[int, ...]:
    f, r = square % SIZE, square // SIZE
    return tuple(
        sorted((f + df) + SIZE * (r + dr) for df, dr in _VECTORS if 0 <= f + df < SIZE and 0 <= r + dr < SIZE)
    )


def _rays(square: int) -> tuple[tuple[int, ...], ...]:
    f, r = square % SIZE, square // SIZE
    rays = []
    for df, dr in _VECTORS:
        ray = []
        k = 1
        while 0 <= f + k * df < SIZE and 0 <= r + k * dr < SIZE:
            ray.append((f + k * df) + SIZE * (r + k * dr))
            k += 1
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


NEIGHBOURS: Final = tuple(_neighbours(square) for square in range(SIZE * SIZE))
"""Per square, the squares a king's step away."""
NEIGHBOUR_MASKS: Final = tuple(sum(1 << n for n in ns) for ns in NEIGHBOURS)
"""Per square, the bitboard of its neighbours."""
RAYS: Final = tuple(_rays(square) for square in range(SIZE * SIZE))
"""Per square, the queen lines leaving it (nearest square first), only those with at least one square."""
HOME_MASKS: Final = (_block(range(0, 3), range(6, 9)), _block(range(6, 9), range(0, 3)))
"""Per side, its home area, the destination: a7–c9 for South, g1–i3 for North."""
START_MASKS: Final = (HOME_MASKS[NORTH], HOME_MASKS[SOUTH])
"""Per side, where its travellers start (the other side's home area)."""
FIRST_ROWS: Final = (_block(range(SIZE), range(0, 1)), _block(range(SIZE), range(8, 9)))
"""Per side, its first row, next to its stable, where stabled travellers return: rank 1 and rank 9."""
FIELD: Final = (1 << (SIZE * SIZE)) - 1
"""Every square."""
ODD_HORSE_SQUARE: Final = 4 + SIZE * 4
"""e5, where the odd horse stands until the opening choice."""
_HOME_AREAS: Final = HOME_MASKS[0] | HOME_MASKS[1]


def _ring_distance(square: int, area: int) -> int:
    f, r = square % SIZE, square // SIZE
    return min(max(abs(f - s % SIZE), abs(r - s // SIZE)) for s in range(SIZE * SIZE) if area >> s & 1)


# Per side, the squares around its start area grouped by distance (ring 1, 2, ...): where towers drops a
# shooed traveller that cannot escape.
_DROP_RINGS: Final = tuple(
    tuple(
        sum(1 << s for s in range(SIZE * SIZE) if _ring_distance(s, START_MASKS[side]) == k)
        for k in range(1, SIZE)
    )
    for side in (SOUTH, NORTH)
)


_HOME_DISTANCE: Final = tuple(
    tuple(_ring_distance(square, HOME_MASKS[side]) for square in range(SIZE * SIZE))
    for side in (SOUTH, NORTH)
)
"""Per side and square, the king-step distance to the side's home area (0 inside): the evaluation's race."""


class ShooEvaluationWeights(NamedTuple):
    """The numbers of the race evaluation (:meth:`ShooState.evaluate`; ``docs/games/shoo.md``, "Evaluation").

    They live here only: the kernel hands these to its compiled evaluation.

    Attributes:
        stabled: the cost of a traveller in its stable.
        blocker: per enemy traveller in a side's home area, the cost per traveller of the side home on foot.
        rider: a rider outside its home area costs this plus its distance home divided by
            :attr:`rider_slide`, rounded up (it slides like a queen, then must step off).
        rider_slide: see :attr:`rider`.
        rider_at_home: the cost of a rider inside its home area, where it blocks the win until it steps off.
        stuck: the extra cost of a side whose home area is full of its travellers with a rider among them:
            no traveller may leave a home area, so that rider can never step off and the side can never win.
        cap: the value's bound: a side leads by ``cap * tanh(d / scale)``, ``d`` the opponent's cost minus
            its own.
        scale: see :attr:`cap`.
    """

    stabled: float = 9.0
    blocker: float = 0.5
    rider: float = 2.0
    rider_slide: float = 3.0
    rider_at_home: float = 4.0
    stuck: float = 40.0
    cap: float = 0.95
    scale: float = 12.0


EVALUATION_WEIGHTS: Final = ShooEvaluationWeights()
"""The weights :meth:`ShooState.evaluate` uses."""


def _bits(mask: int) -> Iterator[int]:
    """The set squares of a bitboard, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_START_BOARD: Final = "nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss"
START_POSITION: Final = f"{_START_BOARD} s 4/5 0/0 0/0 0"
"""The position after the opening with nine horses: South (Blue) to make the first move (rulings T1)."""

# --- Settings --------------------------------------------------------------------------------------------

_SETTINGS: Final = (
    Setting(
        "ruleset", "designers", "the designers' rules, or seed 001 read literally", ("designers", "towers")
    ),
    Setting("horses", 9, "horses in play: 9, or 7 (variant V1: 3 per stable plus the odd horse)", None, 7, 9),
    Setting(
        "stable_drop",
        "adjacent",
        "a stable horse is called up next to one of your travellers, or anywhere (held only if next)",
        ("adjacent", "anywhere"),
    ),
    Setting(
        "hush",
        "optional",
        "hushing: the opponent's option, hushable moves illegal, the two penalty variants, or none",
        ("optional", "automatic", "lose-move", "shoo-off", "off"),
    ),
    Setting(
        "capture_in_home",
        "place-inside",
        "a rider in its own home area is captured with placement inside it, anywhere, or not at all",
        ("place-inside", "anywhere", "immune"),
    ),
    Setting("mount_escape", "on", "a shooed traveller may escape by mounting a horse", ("on", "off")),
    Setting("leave_home", "no", "travellers may leave their home area again (variant V3)", ("no", "yes")),
    Setting(
        "first_player",
        "toss",
        "who moves first: decided by the toss and choice, or fixed",
        ("toss", "blue", "white"),
    ),
    Setting(
        "max_turns",
        1000,
        "turns (standing moves) before the game is cut and drawn (length cap)",
        minimum=1,
        old_names=("max_plies",),
    ),
)

# The most hushes one turn can see (hush=optional). A HUSH restores the position and bars the hushed move,
# so a turn hushes each of the mover's hushable moves at most once. A hushable move is a step or a
# dismount (at most 8 per traveller on the field) or a return (one per empty square of the first row, 9,
# and only with a traveller in the stable, so with at most 8 on the field): at most 8 * 8 + 9 = 73.
_MAX_HUSHES_PER_TURN: Final = 8 * 8 + 9


class ShooGame(Game["ShooState"]):
    """Shoo under fixed settings; see ``docs/games/shoo.md`` for each setting's effect.

    Settings:
        ruleset: ``designers`` (seed 000 with our rulings) or ``towers`` (seed 001 taken literally).
        horses: 9, or 7 (variant V1).
        stable_drop: where a stable horse may be called up: ``adjacent`` or ``anywhere``.
        hush: ``optional``, ``automatic``, ``lose-move``, ``shoo-off`` or ``off``.
        capture_in_home: ``place-inside``, ``anywhere`` or ``immune``.
        mount_escape: ``on`` or ``off``.
        leave_home: ``no`` or ``yes`` (variant V3).
        first_player: ``toss``, ``blue`` or ``white``.
        max_turns: the length cap in turns: standing moves (hushed moves and hushes do not count); its
            name was ``max_plies``, still read.

    The towers ruleset has no hushing and no traveller stables, drops horses anywhere outside the home
    areas and settles home captures by itself, so it ignores ``stable_drop``, ``hush`` and
    ``capture_in_home``.
    """

    id = "shoo"
    name = "Shoo"
    version = 1
    blurb = "a 9×9 travelling game with neutral horses, shooing and hushing"
    display_order = 1
    suggested_clock = SuggestedClock("per_move", seconds=60)  # the designers' limit of one minute a move
    agent_levels: ClassVar[Mapping[str, str]] = {"master": "kernel-alphabeta:nodes=2000000"}
    reference_levels: ClassVar[Mapping[str, str]] = {"hard": "alphabeta:depth=2"}
    move_theme_names: ClassVar[Mapping[str, str]] = {
        "shoo": "the move shoos an enemy traveller (declares it shooed)",
        "capture": "a traveller takes an enemy rider's horse",
        "hush": "the opponent's last move is taken back",
        "hold": "a free horse is held for the opponent's next turn",
        "retire": "a free horse goes to the pasture for good",
        "return": "a stabled traveller comes back onto the field",
    }
    view_module = "shogames.games.shoo.view"
    render_module = "shogames.games.shoo.render"
    kernel_module = "shogames.games.shoo.kernel"
    setting_specs = _SETTINGS
    presets: ClassVar[Mapping[str, Mapping[str, SettingValue]]] = {
        "designers": {"ruleset": "designers"},
        "towers": {"ruleset": "towers"},
        "seven-horses": {"horses": 7},
        "hush-lose-move": {"hush": "lose-move"},
        "hush-shoo-off": {"hush": "shoo-off"},
        "leave-home": {"leave_home": "yes"},
    }

    def __init__(self, preset: str | None = None, **settings: object) -> None:
        super().__init__(preset, **settings)
        if self.settings["horses"] not in (7, 9):
            raise SettingsError(f"setting 'horses' expects 9 or 7, got {self.settings['horses']}")
        self.towers = self.settings["ruleset"] == "towers"
        self.hush_mode = "off" if self.towers else str(self.settings["hush"])
        self.drop_anywhere = self.settings["stable_drop"] == "anywhere"
        self.capture_in_home = "anywhere" if self.towers else str(self.settings["capture_in_home"])
        self.mount_escape = self.settings["mount_escape"] == "on"
        self.safety = self.settings["leave_home"] == "no"
        self.max_turns = int(self.settings["max_turns"])
        self.horses_per_stable = (int(self.settings["horses"]) - 1) // 2

    @property
    def player_names(self) -> tuple[str, ...]:
        """Blue, then White; the opening decides which one plays South and moves first."""
        return SEAT_NAMES

    @property
    def max_game_length(self) -> int:
        """The most plies a game can last: the opening's, then per turn its standing move and its hushes.

        The opening is 2 plies (toss and choice) under ``first_player=toss``, else none. A turn ends with
        one standing move; the cap ends the game after ``max_turns`` of them. Under ``hush=optional``
        each of the mover's hushable moves can be played and hushed once in a turn (2 plies each, then
        barred), and a turn has at most 73 of them (see ``_MAX_HUSHES_PER_TURN``): at most
        ``1 + 2 * 73`` plies. Under ``lose-move`` and ``shoo-off`` a HUSH ends the hushed side's turn: at
        most 2 plies. Without hushing (``automatic``, ``off``, towers) every ply is a turn.
        """
        opening = 2 if self.has_chance else 0
        if self.hush_mode == "optional":
            per_turn = 1 + 2 * _MAX_HUSHES_PER_TURN
        elif self.hush_mode in ("lose-move", "shoo-off"):
            per_turn = 2
        else:
            per_turn = 1
        return opening + self.max_turns * per_turn

    @property
    def num_distinct_actions(self) -> int:
        """60,458 ids for every setting; ``docs/games/shoo.md`` derives the number from the rules.

        544 arrivals (end square and direction, in the mover's view) x 12 variants x 9 shoo codes, then
        returns (81 x 9), call-ups, holds and retirements (81 each), towers drops (81 x 9), the shooed-off
        move, HUSH, pass and the two opening choices.
        """
        return NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        """The toss's two outcomes under ``first_player=toss`` (0 Blue wins it, 1 White); else none."""
        return 2 if self.has_chance else 0

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """26 planes of 9 x 9 squares (:data:`OBSERVATION_PLANES`)."""
        return (len(OBSERVATION_PLANES), SIZE, SIZE)

    @property
    def observation_planes(self) -> tuple[str, ...]:
        """One name per plane, in order (:data:`OBSERVATION_PLANES`)."""
        return OBSERVATION_PLANES

    @property
    def has_chance(self) -> bool:
        """The coin toss is a chance outcome when ``first_player=toss``."""
        return self.settings["first_player"] == "toss"

    def new_initial_state(self) -> ShooState:
        """The set-up before the opening: nine travellers a side, the odd horse on e5, the toss to come.

        With ``first_player`` fixed there is no toss and no choice: the state is the start position with
        that seat as South.
        """
        stable = self.horses_per_stable
        first = self.settings["first_player"]
        if first == "toss":
            return self.state_from_text(
                f"nnn6/nnn6/nnn6/9/4h4/9/6sss/6sss/6sss toss {stable}/{stable} 0/0 0/0 0"
            )
        return self.start_position()

    def start_position(self) -> ShooState:
        """The position after the opening, South to make the first move (rulings T1).

        ``legal`` and ``perft`` start here. South is Blue unless ``first_player=white``.
        """
        stable = self.horses_per_stable
        south = " south=white" if self.settings["first_player"] == "white" else ""
        return self.state_from_text(f"{_START_BOARD} s {stable}/{stable + 1} 0/0 0/0 0{south}")

    def state_from_text(self, text: str) -> ShooState:
        """Read a position written by :meth:`ShooState.to_text` (format in ``docs/games/shoo.md``).

        Raises:
            NotationError: the text is not a Shoo position; the message names the faulty field.
        """
        return self.state_from_position(_read_position(self, text))

    def state_from_position(
        self, position: ShooPosition, history: Iterable[ShooRepetitionKey] = ()
    ) -> ShooState:
        """The state of a position value, with the earlier positions the repetition draw looks at.

        The position is taken as it is, its end and winner included (no rule is checked): it comes from
        :attr:`ShooState.position`, the position text or a kernel.

        Args:
            position: the position (:class:`ShooPosition`).
            history: the repetition keys of the earlier standing positions since the stable horses or
                pastures last changed, oldest first (:attr:`ShooState.history`).
        """
        parent: _History | None = None
        for key in history:
            parent = _History(key, key.epoch, parent)
        return ShooState(
            self,
            travellers=position.travellers,
            mounted=position.mounted,
            horses=position.horses,
            held=position.held,
            stable_horses=position.stable_horses,
            stable_travellers=position.stable_travellers,
            pasture=position.pasture,
            side=position.side,
            phase=_PHASE_NAMES.index(position.phase),
            chooser=position.chooser,
            south=position.south,
            shoo=position.shoo,
            hush=position.hush,
            barred=position.barred,
            moves=position.turns,
            ply=position.ply,
            passes=position.passes,
            end=position.end,
            winner=position.winner,
            judge=False,
            parent=parent,
        )


class HushContext(NamedTuple):
    """What a HUSH needs (:attr:`ShooPosition.hush`): the hushable move just played, what a HUSH puts back.

    Attributes:
        move: the opponent's last move, which the side to move may HUSH: a step, a dismount or a return
            that left a traveller of the opponent on foot where it could be shooed; without its shoo
            declaration.
        held_before: the square of the horse the side to move held before that move, or -1: a HUSH
            under ``hush=optional`` puts that hold back.
        passes_before: the passes in a row before that move (0 or 1), put back by the same HUSH.
        barred: the opponent's moves already hushed this turn (each without its shoo declaration); a
            HUSH adds :attr:`move` to them.
    """

    move: ShooMove
    held_before: int
    passes_before: int
    barred: frozenset[ShooMove]


class ShooRepetitionKey(NamedTuple):
    """What the third-repetition draw compares: a standing position, without its counters and hush context.

    Attributes:
        travellers: per side (South, North), the bitboard of its travellers on the field, on foot or
            mounted (bit ``file + 9 * rank``, as in the module docstring).
        mounted: the bitboard of the mounted travellers of either side.
        horses: the bitboard of the free horses (riders' horses are not in it).
        held: the square of the held horse, or -1.
        stable_horses: per side, the horses in its stable.
        stable_travellers: per side, the travellers in its stable.
        pasture: per side, the horses retired to its pasture.
        shoo: the square of the side to move's traveller that must answer a shoo, or -1.
        side: the side to move.
    """

    travellers: tuple[int, int]
    mounted: int
    horses: int
    held: int
    stable_horses: tuple[int, int]
    stable_travellers: tuple[int, int]
    pasture: tuple[int, int]
    shoo: int
    side: int

    @property
    def epoch(self) -> tuple[int, int, int, int]:
        """The stable horses and pastures: they never come back once changed, so neither does the key."""
        return (*self.stable_horses, *self.pasture)


@dataclass(frozen=True, slots=True)
class ShooPosition:
    """A Shoo position as one value: every field of a :class:`ShooState` but its game and its history.

    :attr:`ShooState.position` gives it, :meth:`ShooGame.state_from_position` makes a state of it, and the
    position text (:meth:`ShooState.to_text`), the kernel's arrays and the views are written from it.
    Squares are numbered ``file + 9 * rank`` (0 is a1, 80 is i9); a set of squares is a bitboard, an int
    whose bit ``square`` is set; sides are :data:`SOUTH` (0) and :data:`NORTH` (1); seats :data:`BLUE` (0)
    and :data:`WHITE` (1).

    Attributes:
        travellers: per side (South, North), the bitboard of its travellers on the field, on foot or
            mounted.
        mounted: the bitboard of the mounted travellers of either side (a subset of the travellers).
        horses: the bitboard of the free horses (a rider's horse is not in it).
        held: the square of the free horse held by the side that moved last, which the side to move may
            not use this turn, or -1.
        stable_horses: per side, the horses in its stable, not yet called up.
        stable_travellers: per side, the travellers in its stable (shooed off), not yet returned.
        pasture: per side, the horses it retired to its pasture, gone for good.
        side: the side to move (or that moves once the opening is over).
        phase: ``"toss"`` (the coin toss to come), ``"choice"`` (the toss winner chooses the first move
            or the odd horse) or ``"play"`` (also once the game is over).
        chooser: the seat that won the toss, during the choice; :data:`BLUE` otherwise.
        south: the seat that plays South (:data:`BLUE` until the opening decides).
        shoo: the square of the side to move's traveller that must answer a declared shoo, or -1.
        hush: what a HUSH of the opponent's last move needs, or ``None`` when the side to move may not
            HUSH.
        barred: the side to move's moves already hushed this turn, each without its shoo declaration
            (empty while a HUSH is open: those are :attr:`HushContext.barred`).
        turns: turns completed: moves that stand (no toss, choice, hushed move or hush); the length cap
            counts them.
        ply: moves played, the toss, the choice, hushed moves and hushes included.
        passes: passes in a row (0, 1, or 2 once the game is drawn by them).
        end: ``None`` while the game goes on, else why it ended: ``"win"``, ``"passes"`` (two passes),
            ``"cap"`` (the length cap) or ``"repetition"`` (the third repetition).
        winner: the side that won, or ``None`` (going on, or drawn).
    """

    travellers: tuple[int, int]
    mounted: int
    horses: int
    held: int
    stable_horses: tuple[int, int]
    stable_travellers: tuple[int, int]
    pasture: tuple[int, int]
    side: int
    phase: str
    chooser: int
    south: int
    shoo: int
    hush: HushContext | None
    barred: frozenset[ShooMove]
    turns: int
    ply: int
    passes: int
    end: str | None
    winner: int | None

    def repetition_key(self) -> ShooRepetitionKey:
        """The position's key for the third-repetition draw."""
        return ShooRepetitionKey(
            self.travellers,
            self.mounted,
            self.horses,
            self.held,
            self.stable_horses,
            self.stable_travellers,
            self.pasture,
            self.shoo,
            self.side,
        )

    def piece_at(self, square: int) -> str:
        """What stands on ``square``, as in the position text.

        ``.`` empty, ``s``/``n`` a foot traveller, ``S``/``N`` mounted, ``h`` a free horse, ``H`` held.
        """
        return _piece_letter(self.travellers, self.mounted, self.horses, self.held, square)


def _piece_letter(travellers: tuple[int, int], mounted: int, horses: int, held: int, square: int) -> str:
    """The letter of what stands on ``square`` in the position text (``.`` when empty)."""
    bit = 1 << square
    for side, letter in ((SOUTH, "s"), (NORTH, "n")):
        if travellers[side] & bit:
            return letter.upper() if mounted & bit else letter
    if horses & bit:
        return "H" if square == held else "h"
    return "."


class _History(NamedTuple):
    """A standing position in the chain of earlier ones, for the repetition draw."""

    key: ShooRepetitionKey
    epoch: tuple[int, int, int, int]  # stable horses and pastures: once changed, no earlier position recurs
    parent: _History | None


def _end_of(
    travellers: tuple[int, int], mounted: int, side: int, passes: int, turns: int, max_turns: int
) -> tuple[str | None, int | None]:
    """How a position in play ends by itself (a win, the mover checked first; two passes; the cap)."""
    for winner in (side ^ 1, side):
        home = HOME_MASKS[winner]
        if travellers[winner] & ~mounted & home == home:
            return "win", winner
    if passes >= 2:
        return "passes", None
    if turns >= max_turns:
        return "cap", None
    return None, None


# --- Action ids and observations (docs/games/shoo.md, "Actions and observations") -----------------------
#
# Squares and directions are taken from the mover's view: South's board as it is, North's turned half a
# turn (square s seen as 80 - s), so every mover travels from g1-i3 towards a7-c9. A direction is an index
# into _VECTORS in that view.

_OPPOSITE: Final = tuple((k + 4) % 8 for k in range(8))
_VECTOR_INDEX: Final = {vector: index for index, vector in enumerate(_VECTORS)}


def _view_steps(side: int) -> tuple[tuple[int, ...], ...]:
    """Per square, the square one step away in each view direction of ``side`` (-1 off the field)."""
    sign = 1 if side == SOUTH else -1
    table = []
    for square in range(SIZE * SIZE):
        f, r = square % SIZE, square // SIZE
        row = []
        for df, dr in _VECTORS:
            g, s = f + sign * df, r + sign * dr
            row.append(g + SIZE * s if 0 <= g < SIZE and 0 <= s < SIZE else -1)
        table.append(tuple(row))
    return tuple(table)


_VIEW_STEPS: Final = (_view_steps(SOUTH), _view_steps(NORTH))
"""Per side and square, the neighbour in each of that side's view directions, or -1."""


def _view(square: int, side: int) -> int:
    """``square`` as ``side`` sees it (North's board turned half a turn); its own inverse."""
    return square if side == SOUTH else SIZE * SIZE - 1 - square


def _view_direction(start: int, end: int, side: int) -> int:
    """The view direction of ``side`` from ``start`` to ``end`` on one queen line, or -1."""
    df, dr = end % SIZE - start % SIZE, end // SIZE - start // SIZE
    if (df == 0 and dr == 0) or (df and dr and abs(df) != abs(dr)):
        return -1
    sign = 1 if side == SOUTH else -1
    return _VECTOR_INDEX[(sign * ((df > 0) - (df < 0)), sign * ((dr > 0) - (dr < 0)))]


def _arrival_pairs() -> tuple[tuple[int, int], ...]:
    """The (view square, direction) pairs whose square one step back against the direction is on the field."""
    pairs = []
    for square in range(SIZE * SIZE):
        f, r = square % SIZE, square // SIZE
        for direction, (df, dr) in enumerate(_VECTORS):
            if 0 <= f - df < SIZE and 0 <= r - dr < SIZE:
                pairs.append((square, direction))
    return tuple(pairs)


ARRIVAL_PAIRS: Final = _arrival_pairs()
"""The 544 arrivals (view square, view direction) an action can name, in id order."""
_ARRIVAL_INDEX: Final = {pair: index for index, pair in enumerate(ARRIVAL_PAIRS)}
ARRIVAL_VARIANTS: Final = 12
"""Variant codes per arrival: who arrives, how (at most 3 capturers x 4 places for a capture)."""
SHOO_CODES: Final = 9
"""Shoo codes per move: none, one of the 7 neighbours of the end square other than the one behind, or
the rider a capture placed (when it is not next to the end square)."""
_PLACED_SHOO: Final = SHOO_CODES - 1
RETURN_BASE: Final = len(ARRIVAL_PAIRS) * ARRIVAL_VARIANTS * SHOO_CODES
"""First id of the returns: ``RETURN_BASE + 9 * square + shoo`` (shoo 0 none, 1 + direction)."""
CALL_BASE: Final = RETURN_BASE + SIZE * SIZE * SHOO_CODES
"""First id of the call-ups (drops in towers): ``CALL_BASE + square``."""
HOLD_BASE: Final = CALL_BASE + SIZE * SIZE
"""First id of the holds: ``HOLD_BASE + square``."""
RETIRE_BASE: Final = HOLD_BASE + SIZE * SIZE
"""First id of the retirements: ``RETIRE_BASE + square``."""
DROP_BASE: Final = RETIRE_BASE + SIZE * SIZE
"""First id of the towers drops of a shooed traveller: ``DROP_BASE + 9 * square + traveller``."""
SHOOED_OFF_ACTION: Final = DROP_BASE + SIZE * SIZE * 9
"""The id of ``~T``, a shooed traveller sent to its stable (designers; T is the pending shoo's)."""
HUSH_ACTION: Final = SHOOED_OFF_ACTION + 1
"""The id of ``HUSH``."""
PASS_ACTION: Final = HUSH_ACTION + 1
"""The id of ``pass``."""
FIRST_ACTION: Final = PASS_ACTION + 1
"""The id of the toss winner's ``first``; ``odd-horse`` is the next one."""
NUM_ACTIONS: Final = FIRST_ACTION + 2
"""How many action ids there are (60,458), for every setting."""

_ARRIVAL_KINDS: Final = frozenset({STEP, MOUNT, RIDE, DISMOUNT, CAPTURE, SLIDE})


class _Board(NamedTuple):
    """The bitboards the action code reads, from the side to move's side of the table."""

    side: int
    mine: int
    mine_foot: int
    theirs: int
    their_riders: int
    horses: int
    occupied: int
    steps: tuple[tuple[int, ...], ...]


def _neighbours_in(board: _Board, square: int, mask: int, skip: int = -1) -> list[int]:
    """The neighbours of ``square`` in ``mask`` in view direction order, without ``skip``."""
    return [n for n in board.steps[square] if n >= 0 and n != skip and mask >> n & 1]


def _encode_arrival(board: _Board, move: ShooMove) -> tuple[int, int, int]:
    """A move that brings a traveller (or a slid horse) to ``move.to``: its view direction and variant.

    Returns ``(end, direction, variant)``; raises ``ValueError`` when the move has no such shape.
    """
    kind, origin, via, to = move.kind, move.origin, move.via, move.to
    side = board.side
    empty = ~board.occupied
    if kind in (STEP, DISMOUNT, RIDE, SLIDE):
        return to, _view_direction(origin, to, side), 1 if kind == DISMOUNT else 0
    if kind == MOUNT:
        if to == via:  # mount without riding: the traveller steps onto the horse
            return to, _view_direction(origin, to, side), 0
        direction = _view_direction(via, to, side)
        if to == origin:  # ridden back onto the square the traveller left
            return to, direction, 0
        if direction >= 0 and board.steps[via][direction] == origin:  # the traveller stood in the way
            return to, direction, 1
        riders = _neighbours_in(board, via, board.mine_foot)
        return to, direction, 1 + riders.index(origin)
    # CAPTURE
    place = move.place
    if to in (via, origin):  # no ride, or ridden back onto the capturer's square
        direction = _view_direction(origin, to, side) if to == via else _view_direction(via, to, side)
        return to, direction, _neighbours_in(board, via, empty).index(place)
    direction = _view_direction(via, to, side)
    ahead = board.steps[via][direction] if direction >= 0 else -1
    if ahead == origin:  # the capturer stood in the way of the ride
        return to, direction, 1 + _neighbours_in(board, via, empty).index(place)
    capturers = _neighbours_in(board, via, board.mine, ahead)
    places = _neighbours_in(board, via, empty, ahead)
    return to, direction, capturers.index(origin) * len(places) + places.index(place)


def _shoo_code(board: _Board, move: ShooMove, end: int, back: int) -> int:
    """The shoo code of ``move`` ending on ``end``; ``back`` is the direction to the square behind (or -1)."""
    target = move.shoo
    if target < 0:
        return 0
    side = board.side
    if move.kind == CAPTURE and target == move.place and not NEIGHBOUR_MASKS[end] >> target & 1:
        return _PLACED_SHOO
    direction = _view_direction(end, target, side)
    if direction < 0 or board.steps[end][direction] != target or direction == back:
        raise ValueError(f"the shoo target {square_name(target)} is not next to {square_name(end)}")
    return 1 + (direction if back < 0 or direction < back else direction - 1)


def _decode_arrival(board: _Board, end: int, direction: int, variant: int) -> ShooMove | None:
    """The move an arrival id names, from the position alone (its legality is checked by the caller)."""
    steps = board.steps
    back_direction = _OPPOSITE[direction]
    back = steps[end][back_direction]
    empty = ~board.occupied
    bit = 1 << end
    if board.horses & bit:  # a traveller steps onto the horse on `end` (mount without riding)
        return ShooMove(MOUNT, back, end, to=end) if variant == 0 else None
    if board.their_riders & bit:  # a capture without a ride
        places = _neighbours_in(board, end, empty)
        return ShooMove(CAPTURE, back, end, places[variant], end) if variant < len(places) else None
    if board.mine_foot & bit:  # ridden back onto the square the traveller left: the horse is behind
        if board.horses >> back & 1:
            return ShooMove(MOUNT, end, back, to=end) if variant == 0 else None
        if board.their_riders >> back & 1:
            places = _neighbours_in(board, back, empty)
            return ShooMove(CAPTURE, end, back, places[variant], end) if variant < len(places) else None
        return None
    if board.occupied & bit:
        return None
    source = back  # the first occupied square behind `end`
    while source >= 0 and not board.occupied >> source & 1:
        source = steps[source][back_direction]
    if source < 0:
        return None
    source_bit = 1 << source
    if board.mine_foot & source_bit:
        if variant == 0:
            return ShooMove(STEP, source, to=end) if source == back else None
        behind = steps[source][back_direction]  # a horse ridden over the traveller's own square
        if behind < 0:
            return None
        if board.horses >> behind & 1:
            return ShooMove(MOUNT, source, behind, to=end) if variant == 1 else None
        if board.their_riders >> behind & 1:
            places = _neighbours_in(board, behind, empty)
            if variant - 1 < len(places):
                return ShooMove(CAPTURE, source, behind, places[variant - 1], end)
        return None
    if board.mine & source_bit:  # a rider
        if variant == 0:
            return ShooMove(RIDE, source, to=end)
        return ShooMove(DISMOUNT, source, to=end) if variant == 1 and source == back else None
    ahead = steps[source][direction]
    if board.horses & source_bit:
        if variant == 0:
            return ShooMove(SLIDE, source, to=end)
        riders = _neighbours_in(board, source, board.mine_foot)
        return ShooMove(MOUNT, riders[variant - 1], source, to=end) if variant - 1 < len(riders) else None
    if board.their_riders & source_bit:
        capturers = _neighbours_in(board, source, board.mine, ahead)
        places = _neighbours_in(board, source, empty, ahead)
        if places and variant < len(capturers) * len(places):
            capturer, place = divmod(variant, len(places))
            return ShooMove(CAPTURE, capturers[capturer], source, places[place], end)
    return None


OBSERVATION_PLANES: Final = (
    "own travellers on foot",
    "own riders",
    "opponent travellers on foot",
    "opponent riders",
    "free horses",
    "horse held by the observer",
    "horse held by the opponent",
    "own home area",
    "opponent home area",
    "own stable horses / 9",
    "own stabled travellers / 9",
    "own pasture / 9",
    "opponent stable horses / 9",
    "opponent stabled travellers / 9",
    "opponent pasture / 9",
    "pending shoo",
    "hushable move: traveller",
    "hushable move: square left",
    "moves hushed this turn: destinations",
    "moves hushed this turn: squares left",
    "repetitions of this position / 2",
    "passes in a row / 2",
    "observer to move",
    "observer plays South",
    "opening (toss or choice)",
    "turns / max_turns",
)
"""The planes of :meth:`ShooState.observation_tensor`, each 9 x 9 squares seen from the observer's side."""


class ShooState(State[ShooMove]):
    """A Shoo position with everything needed to go on: see the module docstring for the encoding."""

    __slots__ = (
        "_barred",
        "_chooser",
        "_end",
        "_game",
        "_held",
        "_history",
        "_horses",
        "_hush",
        "_legal",
        "_legal_set",
        "_mounted",
        "_moves",
        "_passes",
        "_pasture",
        "_phase",
        "_ply",
        "_shoo",
        "_side",
        "_south",
        "_stable_horses",
        "_stable_travellers",
        "_travellers",
        "_winner",
    )

    def __init__(
        self,
        game: ShooGame,
        *,
        travellers: tuple[int, int],
        mounted: int,
        horses: int,
        held: int,
        stable_horses: tuple[int, int],
        stable_travellers: tuple[int, int],
        pasture: tuple[int, int],
        side: int,
        phase: int = _PLAY,
        chooser: int = BLUE,
        south: int = BLUE,
        shoo: int = -1,
        hush: HushContext | None = None,
        barred: frozenset[ShooMove] = frozenset(),
        moves: int = 0,
        ply: int = 0,
        passes: int = 0,
        end: str | None = None,
        winner: int | None = None,
        judge: bool = True,
        node: _History | None = None,
        parent: _History | None = None,
    ) -> None:
        self._game = game
        self._travellers = travellers
        self._mounted = mounted
        self._horses = horses
        self._held = held
        self._stable_horses = stable_horses
        self._stable_travellers = stable_travellers
        self._pasture = pasture
        self._side = side
        self._phase = phase
        self._chooser = chooser
        self._south = south
        self._shoo = shoo
        self._hush = hush
        self._barred = barred
        self._moves = moves
        self._ply = ply
        self._passes = passes
        self._legal: tuple[ShooMove, ...] | None = None
        self._legal_set: frozenset[ShooMove] | None = None
        self._winner = winner
        self._end = end
        if judge and phase == _PLAY and end is None:
            self._end, self._winner = _end_of(travellers, mounted, side, passes, moves, game.max_turns)
        # A position restored by a HUSH keeps its own node; any other adds itself after `parent`, and
        # (judging) ends the game at its third occurrence.
        self._history = node if node is not None else self._record_history(parent, judge)

    def __getstate__(self) -> dict[str, object]:
        """The fields for :mod:`pickle`, with the chain of earlier positions as a flat list.

        Pickling the chain as linked nodes would recurse once per ply and fail in a long game.
        """
        skipped = ("_history", "_legal", "_legal_set")
        fields = {name: getattr(self, name) for name in self.__slots__ if name not in skipped}
        chain = []
        node: _History | None = self._history
        while node is not None:
            chain.append((node.key, node.epoch))
            node = node.parent
        fields["_history"] = chain
        return fields

    def __setstate__(self, fields: dict[str, object]) -> None:
        chain = fields.pop("_history")
        node: _History | None = None
        for key, epoch in reversed(chain):  # type: ignore[call-overload]
            node = _History(key, epoch, node)
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        self._history = node  # type: ignore[assignment]
        self._legal = None
        self._legal_set = None

    # --- Facts about the position ------------------------------------------------------------------------

    @property
    def game(self) -> ShooGame:
        """The game and its settings."""
        return self._game

    @property
    def position(self) -> ShooPosition:
        """The position as one value; :meth:`ShooGame.state_from_position` makes a state of it again."""
        return ShooPosition(
            travellers=self._travellers,
            mounted=self._mounted,
            horses=self._horses,
            held=self._held,
            stable_horses=self._stable_horses,
            stable_travellers=self._stable_travellers,
            pasture=self._pasture,
            side=self._side,
            phase=_PHASE_NAMES[self._phase],
            chooser=self._chooser,
            south=self._south,
            shoo=self._shoo,
            hush=self._hush,
            barred=self._barred,
            turns=self._moves,
            ply=self._ply,
            passes=self._passes,
            end=self._end,
            winner=self._winner,
        )

    @property
    def history(self) -> tuple[ShooRepetitionKey, ...]:
        """The earlier standing positions the third-repetition draw still looks at, oldest first.

        Their repetition keys, since the stable horses or pastures last changed (no position before that
        can come back); the position's own key is not among them. A position counts as repeated a third
        time when its key is twice among these. :meth:`ShooGame.state_from_position` takes them back.
        """
        epoch = self._epoch()
        keys = []
        node = self._history.parent
        while node is not None and node.epoch == epoch:
            keys.append(node.key)
            node = node.parent
        keys.reverse()
        return tuple(keys)

    @property
    def ply(self) -> int:
        """Moves played, the toss, the choice, hushed moves and hushes included."""
        return self._ply

    @property
    def turns(self) -> int:
        """Turns completed: standing moves (no toss, choice, hushed move or hush); the cap counts them."""
        return self._moves

    @property
    def side(self) -> int:
        """The side to move (or that would move): :data:`SOUTH` or :data:`NORTH`."""
        return self._side

    @property
    def phase(self) -> str:
        """Where the game stands: ``"toss"``, ``"choice"`` or ``"play"``.

        ``toss``: the coin toss (a chance move); ``choice``: the toss winner chooses the first move or the
        odd horse; ``play``: moves on the field, also once the game is over.
        """
        return _PHASE_NAMES[self._phase]

    @property
    def south(self) -> int:
        """The seat that plays South."""
        return self._south

    def seat_of(self, side: int) -> int:
        """The seat that plays ``side``."""
        return self._south if side == SOUTH else 1 - self._south

    @property
    def to_move(self) -> int | None:
        """The seat to move, CHANCE at the toss, ``None`` once the game is over."""
        if self._phase == _TOSS:
            return CHANCE
        if self._phase == _CHOICE:
            return self._chooser
        if self._end is not None:
            return None
        return self.seat_of(self._side)

    def piece_at(self, square: int) -> str:
        """What stands on ``square``, as in the position text.

        ``.`` empty, ``s``/``n`` a foot traveller, ``S``/``N`` mounted, ``h`` a free horse, ``H`` held.
        """
        return _piece_letter(self._travellers, self._mounted, self._horses, self._held, square)

    @property
    def held(self) -> int:
        """The square of the horse held by the side that moved last, or -1."""
        return self._held

    @property
    def pending_shoo(self) -> int:
        """The square of the side to move's traveller that must answer a shoo, or -1."""
        return self._shoo

    @property
    def stable_horses(self) -> tuple[int, int]:
        """Horses in each side's stable (South, North)."""
        return self._stable_horses

    @property
    def stable_travellers(self) -> tuple[int, int]:
        """Travellers in each side's stable (South, North)."""
        return self._stable_travellers

    @property
    def pasture(self) -> tuple[int, int]:
        """Horses retired to each side's pasture (South, North)."""
        return self._pasture

    @property
    def hushable_move(self) -> ShooMove | None:
        """The opponent's last move when the side to move may HUSH it, else ``None``."""
        return self._hush.move if self._hush is not None else None

    @property
    def barred_moves(self) -> frozenset[ShooMove]:
        """Moves already hushed this turn.

        They belong to the side to move, or, while a HUSH is open, to the side that just moved.
        """
        return self._hush.barred if self._hush is not None else self._barred

    def _repetition_key(self) -> ShooRepetitionKey:
        return ShooRepetitionKey(
            self._travellers,
            self._mounted,
            self._horses,
            self._held,
            self._stable_horses,
            self._stable_travellers,
            self._pasture,
            self._shoo,
            self._side,
        )

    def _epoch(self) -> tuple[int, int, int, int]:
        return (*self._stable_horses, *self._pasture)

    def _record_history(self, parent: _History | None, judge: bool) -> _History:
        """Add this standing position to the chain; judging, end the game at its third occurrence."""
        key = self._repetition_key()
        epoch = self._epoch()
        node = _History(key, epoch, parent)
        if judge and self._end is None and self._phase == _PLAY:
            seen = 0
            earlier = parent
            while earlier is not None and earlier.epoch == epoch:
                if earlier.key == key:
                    seen += 1
                    if seen == 2:
                        self._end = "repetition"
                        break
                earlier = earlier.parent
        return node

    def is_terminal(self) -> bool:
        """Over at a win, two passes in a row, the third repetition, or the length cap."""
        return self._end is not None

    def is_truncated(self) -> bool:
        """Whether the game reached ``max_turns`` turns (standing moves) without a result."""
        return self._end == "cap"

    def termination(self) -> str | None:
        """``normal`` (a win), ``repetition``, ``two passes``, ``length cap``, or ``None`` while going on."""
        return {
            None: None,
            "win": "normal",
            "repetition": "repetition",
            "passes": "two passes",
            "cap": "length cap",
        }[self._end]

    @property
    def winner(self) -> int | None:
        """The winning seat, or ``None`` (going on, or drawn)."""
        return None if self._winner is None else self.seat_of(self._winner)

    def returns(self) -> tuple[float, ...]:
        """+1 to the winner and -1 to the loser; 0 each while going on or after a draw."""
        if self._winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.seat_of(self._winner) == BLUE else (-1.0, 1.0)

    def evaluate(self) -> tuple[float, ...]:
        """The race: how far each side's travellers still have to go (docs/games/shoo.md, "Evaluation").

        A traveller on foot costs its king-step distance to its home area (0 inside). A rider costs 2
        more than a third of that outside (it slides like a queen, then must step off) and 4 inside, where
        it blocks the win until it steps off (more than just outside: a rider that fills the last square
        of a home area can never step off there, and such a side costs 40 more). A stabled traveller
        costs 9. An enemy traveller in a side's home area must be shooed out before that side can win:
        each such blocker costs the side half a point per traveller it has home on foot (a blocker under
        a pending shoo counts as gone).
        The side with less to go leads: ``d`` = the opponent's cost minus one's own gives
        ``0.95 * tanh(d / 12)``. Terminal states give their returns.
        """
        if self._end is not None or self._phase != _PLAY:
            return self.returns()
        weights = EVALUATION_WEIGHTS
        mounted = self._mounted
        pending = 1 << self._shoo if self._shoo >= 0 else 0  # a shooed traveller is as good as gone
        cost = [0.0, 0.0]
        for side in (SOUTH, NORTH):
            distance = _HOME_DISTANCE[side]
            travellers = self._travellers[side]
            total = weights.stabled * self._stable_travellers[side]
            home = HOME_MASKS[side]
            blockers = (self._travellers[side ^ 1] & home & ~pending).bit_count()
            if blockers:
                total += weights.blocker * blockers * (travellers & ~mounted & home).bit_count()
            for square in _bits(travellers & mounted):
                away = distance[square]
                if away:
                    total += weights.rider + math.ceil(away / weights.rider_slide)
                else:
                    total += weights.rider_at_home
            if travellers & home == home and travellers & mounted & home:
                total += weights.stuck  # a full home area with a rider in it can never be won
            for square in _bits(travellers & ~mounted):
                total += distance[square]
            cost[side] = total
        value = weights.cap * math.tanh((cost[NORTH] - cost[SOUTH]) / weights.scale)
        return (value, -value) if self._south == BLUE else (-value, value)

    def key(self) -> Hashable:
        """Everything that decides the legal moves and the result; not the move counters or history."""
        return (
            self._repetition_key(),
            self._phase,
            self._chooser,
            self._south,
            self._hush,
            self._barred,
            self._passes,
            self._end,
        )

    # --- Move generation ----------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[ShooMove, ...]:
        """Every legal move: HUSH first when open, then by kind (see the kind constants), then squares."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    # --- Action ids and observations ----------------------------------------------------------------------

    def _board(self) -> _Board:
        """The bitboards the action code reads, for the side to move."""
        me = self._side
        mine, theirs = self._travellers[me], self._travellers[me ^ 1]
        return _Board(
            side=me,
            mine=mine,
            mine_foot=mine & ~self._mounted,
            theirs=theirs,
            their_riders=theirs & self._mounted,
            horses=self._horses,
            occupied=mine | theirs | self._horses,
            steps=_VIEW_STEPS[me],
        )

    def move_to_action(self, move: ShooMove) -> int:
        """The action id of ``move`` (layout in ``docs/games/shoo.md``, "Actions and observations").

        A move that brings a traveller or a slid horse to a square is named by that square and the
        direction it arrives from, seen from the mover's side (North's board turned half a turn), a
        variant code (who arrives and how) and a shoo code; the other kinds have a block each. The
        toss's outcomes are 0 (Blue wins it) and 1 (White).

        Raises:
            ValueError: the game is over, or ``move`` has no id here (it is not a Shoo move of this
                position's shape).
        """
        if self._end is not None:
            raise ValueError("the game is over: no move has an action id")
        if not isinstance(move, ShooMove):
            raise ValueError(f"not a Shoo move: {move!r}")
        kind = move.kind
        if self._phase != _PLAY:
            wanted = TOSS if self._phase == _TOSS else CHOOSE
            if kind != wanted or move.to not in (0, 1):
                raise ValueError(f"{move!r} is not a move of the opening's {_PHASE_NAMES[self._phase]}")
            return move.to if kind == TOSS else FIRST_ACTION + move.to
        return self._action_of(move, self._board())

    def legal_actions(self) -> list[int]:
        """The ids of :meth:`legal_moves`, ascending (the position's bitboards read once)."""
        if self._end is not None:
            return []
        if self._phase != _PLAY:
            return sorted(self.move_to_action(move) for move in self.legal_moves())
        board = self._board()
        return sorted(self._action_of(move, board) for move in self.legal_moves())

    def _action_of(self, move: ShooMove, board: _Board) -> int:
        """The id of ``move`` in play, ``board`` being this position's (:meth:`move_to_action`)."""
        kind = move.kind
        side = self._side
        try:
            if kind in _ARRIVAL_KINDS:
                end, direction, variant = _encode_arrival(board, move)
                if direction < 0 or not 0 <= variant < ARRIVAL_VARIANTS:
                    raise ValueError
                pair = _ARRIVAL_INDEX[(_view(end, side), direction)]
                shoo = _shoo_code(board, move, end, _OPPOSITE[direction])
                return (pair * ARRIVAL_VARIANTS + variant) * SHOO_CODES + shoo
            if kind == RETURN:
                return RETURN_BASE + SHOO_CODES * _view(move.to, side) + _shoo_code(board, move, move.to, -1)
            if kind in (CALL, HOLD, RETIRE):
                base = CALL_BASE if kind == CALL else HOLD_BASE if kind == HOLD else RETIRE_BASE
                return base + _view(move.to, side)
            if kind == SHOOED_OFF:
                if move.to < 0:
                    return SHOOED_OFF_ACTION
                walkers = sorted(_view(s, side) for s in _bits(self._travellers[side] & ~self._mounted))
                return DROP_BASE + 9 * _view(move.to, side) + walkers.index(_view(move.origin, side))
            if kind == HUSH:
                return HUSH_ACTION
            if kind == PASS:
                return PASS_ACTION
        except (ValueError, KeyError, IndexError):
            pass
        raise ValueError(f"{move!r} has no action id in this position")

    def action_to_move(self, action: int) -> ShooMove:
        """The legal move with id ``action``, decoded from the id and the position (no search).

        Raises:
            IllegalMoveError: no legal move here has this id.
        """
        move = (
            self._decode_action(action) if isinstance(action, int) and not isinstance(action, bool) else None
        )
        if move is not None:
            if self._legal_set is None:
                self._legal_set = frozenset(self.legal_moves())
            if move in self._legal_set and self.move_to_action(move) == action:
                return move
        raise self._illegal_action(action)

    def _decode_action(self, action: int) -> ShooMove | None:
        """The move the id names in this position, legal or not, or ``None``."""
        if self._end is not None or action < 0:
            return None
        if self._phase == _TOSS:
            return ShooMove(TOSS, to=action) if action < 2 else None
        if self._phase == _CHOICE:
            return ShooMove(CHOOSE, to=action - FIRST_ACTION) if 0 <= action - FIRST_ACTION < 2 else None
        side = self._side
        if action < RETURN_BASE:
            rest, shoo = divmod(action, SHOO_CODES)
            pair, variant = divmod(rest, ARRIVAL_VARIANTS)
            view_end, direction = ARRIVAL_PAIRS[pair]
            end = _view(view_end, side)
            board = self._board()
            move = _decode_arrival(board, end, direction, variant)
            if move is None or shoo == 0:
                return move
            if shoo == _PLACED_SHOO:
                return move._replace(shoo=move.place) if move.kind == CAPTURE else None
            back = _OPPOSITE[direction]
            turn = shoo - 1 if shoo - 1 < back else shoo
            target = board.steps[end][turn]
            return move._replace(shoo=target) if target >= 0 else None
        if action < CALL_BASE:
            view_end, shoo = divmod(action - RETURN_BASE, SHOO_CODES)
            end = _view(view_end, side)
            target = _VIEW_STEPS[side][end][shoo - 1] if shoo else -1
            return ShooMove(RETURN, to=end, shoo=target) if shoo == 0 or target >= 0 else None
        if action < DROP_BASE:
            kind = (CALL, HOLD, RETIRE)[(action - CALL_BASE) // (SIZE * SIZE)]
            return ShooMove(kind, to=_view((action - CALL_BASE) % (SIZE * SIZE), side))
        if action < SHOOED_OFF_ACTION:
            view_end, index = divmod(action - DROP_BASE, 9)
            walkers = sorted(_view(s, side) for s in _bits(self._travellers[side] & ~self._mounted))
            if index >= len(walkers):
                return None
            return ShooMove(SHOOED_OFF, _view(walkers[index], side), to=_view(view_end, side))
        if action == SHOOED_OFF_ACTION:
            return ShooMove(SHOOED_OFF, self._shoo) if self._shoo >= 0 else None
        if action == HUSH_ACTION:
            return HUSH_MOVE
        if action == PASS_ACTION:
            return PASS_MOVE
        return None

    def observation_tensor(self, seat: int) -> list[float]:
        """What ``seat`` sees: the 26 planes of :data:`OBSERVATION_PLANES`, 9 x 9 each, from its side.

        The board is seen from the observer's side (North's turned half a turn, so that both travel from
        the lower right to the upper left); ``own`` is the observer's side. Before the opening ends the
        observer is taken to play the side it would play if Blue were South.

        Raises:
            ValueError: ``seat`` is not 0 or 1.
        """
        self._check_seat(seat)
        cells = SIZE * SIZE
        own = SOUTH if seat == self._south else NORTH
        other = own ^ 1
        flip = own == NORTH
        planes = [[0.0] * cells for _ in OBSERVATION_PLANES]

        def mark(plane: int, mask: int) -> None:
            for square in _bits(mask):
                planes[plane][cells - 1 - square if flip else square] = 1.0

        def fill(plane: int, value: float) -> None:
            if value:
                planes[plane] = [value] * cells

        def squares(moves: Iterable[ShooMove], origins: bool) -> int:
            mask = 0
            for move in moves:
                square = move.origin if origins else move.to
                mask |= 1 << square if square >= 0 else 0
            return mask

        mounted = self._mounted
        mark(0, self._travellers[own] & ~mounted)
        mark(1, self._travellers[own] & mounted)
        mark(2, self._travellers[other] & ~mounted)
        mark(3, self._travellers[other] & mounted)
        held = self._held
        mark(4, self._horses & ~(1 << held) if held >= 0 else self._horses)
        if held >= 0:  # held by the side that moved last
            mark(5 if self._side == other else 6, 1 << held)
        mark(7, HOME_MASKS[own])
        mark(8, HOME_MASKS[other])
        for offset, side in ((9, own), (12, other)):
            fill(offset, self._stable_horses[side] / 9)
            fill(offset + 1, self._stable_travellers[side] / 9)
            fill(offset + 2, self._pasture[side] / 9)
        if self._shoo >= 0:
            mark(15, 1 << self._shoo)
        if self._hush is not None:
            mark(16, squares([self._hush.move], origins=False))
            mark(17, squares([self._hush.move], origins=True))
        barred = self.barred_moves
        mark(18, squares(barred, origins=False))
        mark(19, squares(barred, origins=True))
        if self._phase == _PLAY:
            fill(20, self.history.count(self._repetition_key()) / 2)
        fill(21, self._passes / 2)
        fill(22, float(self.to_move == seat))
        fill(23, float(own == SOUTH))
        fill(24, float(self._phase != _PLAY))
        fill(25, self._moves / self._game.max_turns)
        return [value for plane in planes for value in plane]

    def count_legal_moves(self) -> int:
        """How many legal moves there are."""
        return len(self.legal_moves())

    def chance_outcomes(self) -> tuple[tuple[ShooMove, Fraction], ...]:
        """At the toss, each seat wins with probability 1/2.

        Raises:
            ValueError: the state is not the toss.
        """
        if self._phase != _TOSS:
            raise ValueError("chance_outcomes() asked of a Shoo state that is not the toss")
        half = Fraction(1, 2)
        return ((ShooMove(TOSS, to=BLUE), half), (ShooMove(TOSS, to=WHITE), half))

    def _generate(self) -> tuple[ShooMove, ...]:
        if self._phase == _TOSS:
            return (ShooMove(TOSS, to=BLUE), ShooMove(TOSS, to=WHITE))
        if self._phase == _CHOICE:
            return (ShooMove(CHOOSE, to=0), ShooMove(CHOOSE, to=1))
        if self._end is not None:
            return ()
        moves: list[ShooMove] = []
        if self._hush is not None:
            moves.append(HUSH_MOVE)
        generator = _TowersGenerator(self) if self._game.towers else _DesignersGenerator(self)
        turn = generator.generate()
        if self._barred:
            turn = [move for move in turn if move.base() not in self._barred]
        moves.extend(turn if turn else [PASS_MOVE])
        return tuple(moves)

    # --- Playing moves ------------------------------------------------------------------------------------

    def play_unchecked(self, move: ShooMove) -> ShooState:
        """The state after ``move`` (taken from :meth:`legal_moves`)."""
        kind = move.kind
        if kind == TOSS:
            return self._replace(phase=_CHOICE, chooser=move.to, ply=self._ply + 1)
        if kind == CHOOSE:
            south = self._chooser if move.to == 0 else 1 - self._chooser
            horses = self._horses & ~(1 << ODD_HORSE_SQUARE)
            stables = (self._stable_horses[SOUTH], self._stable_horses[NORTH] + 1)
            return self._replace(
                phase=_PLAY,
                chooser=BLUE,
                south=south,
                horses=horses,
                stable_horses=stables,
                ply=self._ply + 1,
            )
        if kind == HUSH:
            return self._play_hush()
        return self._play_action(move)

    def _replace(self, **changes: object) -> ShooState:
        """A copy with some fields changed (for the opening, where no history is kept)."""
        fields: dict[str, object] = {
            "travellers": self._travellers,
            "mounted": self._mounted,
            "horses": self._horses,
            "held": self._held,
            "stable_horses": self._stable_horses,
            "stable_travellers": self._stable_travellers,
            "pasture": self._pasture,
            "side": self._side,
            "phase": self._phase,
            "chooser": self._chooser,
            "south": self._south,
            "moves": self._moves,
            "ply": self._ply,
        }
        fields.update(changes)
        return ShooState(self._game, **fields)  # type: ignore[arg-type]

    def _play_action(self, move: ShooMove) -> ShooState:
        game = self._game
        me, you = self._side, self._side ^ 1
        travellers = list(self._travellers)
        mounted = self._mounted
        horses = self._horses
        stable_horses = list(self._stable_horses)
        stable_travellers = list(self._stable_travellers)
        pasture = list(self._pasture)
        held = -1
        kind, origin, to = move.kind, move.origin, move.to
        if kind == STEP:
            travellers[me] = travellers[me] & ~(1 << origin) | (1 << to)
        elif kind == MOUNT:
            travellers[me] = travellers[me] & ~(1 << origin) | (1 << to)
            horses &= ~(1 << move.via)
            mounted |= 1 << to
        elif kind == RIDE:
            travellers[me] = travellers[me] & ~(1 << origin) | (1 << to)
            mounted ^= (1 << origin) | (1 << to)
        elif kind == DISMOUNT:
            travellers[me] = travellers[me] & ~(1 << origin) | (1 << to)
            mounted &= ~(1 << origin)
            horses |= 1 << origin
        elif kind == CAPTURE:
            via = 1 << move.via
            travellers[you] ^= via | (1 << move.place)
            if mounted >> origin & 1:
                horses |= 1 << origin
            mounted &= ~((1 << origin) | via)
            travellers[me] = travellers[me] & ~(1 << origin) | (1 << to)
            mounted |= 1 << to
        elif kind == RETURN:
            travellers[me] |= 1 << to
            stable_travellers[me] -= 1
        elif kind == CALL:
            horses |= 1 << to
            stable_horses[me] -= 1
            if game.towers or not game.drop_anywhere or NEIGHBOUR_MASKS[to] & travellers[me]:
                held = to
        elif kind == SLIDE:
            horses ^= (1 << origin) | (1 << to)
            if not game.towers and NEIGHBOUR_MASKS[to] & travellers[me]:
                held = to
        elif kind == HOLD:
            held = to
        elif kind == RETIRE:
            horses &= ~(1 << to)
            pasture[me] += 1
        elif kind == SHOOED_OFF:
            travellers[me] &= ~(1 << origin)
            if to >= 0:
                travellers[me] |= 1 << to
            else:
                stable_travellers[me] += 1
        hush: HushContext | None = None
        if (
            kind in (STEP, DISMOUNT, RETURN)
            and game.hush_mode not in ("off", "automatic")
            and _shooable(to, me, travellers[you])
        ):
            hush = HushContext(move.base(), self._held, self._passes, self._barred)
        return ShooState(
            game,
            travellers=(travellers[0], travellers[1]),
            mounted=mounted,
            horses=horses,
            held=held,
            stable_horses=(stable_horses[0], stable_horses[1]),
            stable_travellers=(stable_travellers[0], stable_travellers[1]),
            pasture=(pasture[0], pasture[1]),
            side=you,
            south=self._south,
            shoo=move.shoo,
            hush=hush,
            moves=self._moves + 1,
            ply=self._ply + 1,
            passes=self._passes + 1 if kind == PASS else 0,
            parent=self._history,
        )

    def _play_hush(self) -> ShooState:
        """Take back the last move; under the penalty variants the hushed side's turn ends too."""
        assert self._hush is not None
        context = self._hush
        hushed = context.move
        me = self._side  # the side that hushes
        mover = me ^ 1
        travellers = list(self._travellers)
        mounted = self._mounted
        horses = self._horses
        stable_travellers = list(self._stable_travellers)
        origin, to = hushed.origin, hushed.to
        if hushed.kind == STEP:
            travellers[mover] ^= (1 << origin) | (1 << to)
        elif hushed.kind == DISMOUNT:
            travellers[mover] ^= (1 << origin) | (1 << to)
            mounted |= 1 << origin
            horses &= ~(1 << origin)
        else:  # RETURN
            travellers[mover] &= ~(1 << to)
            stable_travellers[mover] += 1
        parent = self._history.parent
        common: dict[str, object] = {
            "mounted": mounted,
            "horses": horses,
            "stable_horses": self._stable_horses,
            "pasture": self._pasture,
            "south": self._south,
            "ply": self._ply + 1,
        }
        if self._game.hush_mode == "optional":
            return ShooState(
                self._game,
                travellers=(travellers[0], travellers[1]),
                stable_travellers=(stable_travellers[0], stable_travellers[1]),
                held=context.held_before,
                side=mover,
                barred=context.barred | {hushed},
                moves=self._moves - 1,
                passes=context.passes_before,
                node=parent,
                **common,  # type: ignore[arg-type]
            )
        if self._game.hush_mode == "shoo-off" and hushed.kind != RETURN:
            # The hushed traveller, back on its square, goes to its owner's stable; a horse it rode stays.
            travellers[mover] &= ~(1 << origin)
            if hushed.kind == DISMOUNT:
                common["mounted"] = mounted & ~(1 << origin)
                common["horses"] = horses | (1 << origin)
            stable_travellers[mover] += 1
        return ShooState(
            self._game,
            travellers=(travellers[0], travellers[1]),
            stable_travellers=(stable_travellers[0], stable_travellers[1]),
            held=-1,
            side=me,
            moves=self._moves,
            passes=0,
            parent=parent,
            **common,  # type: ignore[arg-type]
        )

    # --- Text ------------------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text (format in ``docs/games/shoo.md``), written from :attr:`position`.

        Board, side, stable horses, stabled travellers, pastures and standing moves, then ``name=value``
        fields for whatever is not at its usual value.
        """
        return _position_text(self._game, self.position)

    def move_to_text(self, move: ShooMove) -> str:
        """The move in the notation of the module docstring, such as ``d4xe5@d5-g7 shoo h7``."""
        if move.kind == TOSS:
            return f"toss:{SEAT_NAMES[move.to].lower()}"
        if move.kind == CHOOSE:
            return ("first", "odd-horse")[move.to]
        text = _base_text(move)
        return f"{text} shoo {square_name(move.shoo)}" if move.shoo >= 0 else text

    def parse_move(self, text: str) -> ShooMove:
        """Read a move in notation (letters in any case, spaces around the parts allowed).

        Raises:
            NotationError: the text is not a Shoo move; the message shows the forms.
            IllegalMoveError: the move is not legal here; the message says which rule forbids it.
        """
        move = self._read_move(text)
        if move in self.legal_moves():
            return move
        raise IllegalMoveError(f"{text.strip()!r}: {self._why_illegal(move)}")

    def _read_move(self, text: str) -> ShooMove:
        match = _MOVE_RE.match(text)
        if match is None:
            raise NotationError(
                f"{text!r} is not a Shoo move; expected a form such as d4-d5, H*e5, Hg7-d4, d4>d5-d9, e5/d4, "
                "!e5, xe5, T*a1, d4xe5@d5-g7 or ~a9, each optionally followed by 'shoo c7'; or HUSH, pass, "
                "toss:blue, first, odd-horse"
            )
        groups = {name: value for name, value in match.groupdict().items() if value is not None}
        squares = {
            name: parse_square(re.sub(r"\s", "", value)) for name, value in groups.items() if name != "word"
        }
        shoo = squares.get("shoo", -1)
        if "word" in groups:
            word = groups["word"].lower()
            if word == "hush":
                move = HUSH_MOVE
            elif word == "pass":
                move = PASS_MOVE
            elif word.startswith("toss"):
                move = ShooMove(TOSS, to=BLUE if word.endswith("blue") else WHITE)
            else:
                move = ShooMove(CHOOSE, to=0 if word == "first" else 1)
            if shoo >= 0:
                raise NotationError(f"{text!r}: {word} cannot carry a shoo declaration")
            return move
        if "call" in squares:
            return ShooMove(CALL, to=squares["call"], shoo=shoo)
        if "slide_from" in squares:
            return ShooMove(SLIDE, squares["slide_from"], to=squares["slide_to"], shoo=shoo)
        if "ret" in squares:
            return ShooMove(RETURN, to=squares["ret"], shoo=shoo)
        if "hold" in squares:
            return ShooMove(HOLD, to=squares["hold"], shoo=shoo)
        if "retire" in squares:
            return ShooMove(RETIRE, to=squares["retire"], shoo=shoo)
        if "off" in squares:
            return ShooMove(SHOOED_OFF, squares["off"], to=squares.get("drop", -1), shoo=shoo)
        if "mount_from" in squares:
            via = squares["mount_via"]
            return ShooMove(MOUNT, squares["mount_from"], via, to=squares.get("mount_to", via), shoo=shoo)
        if "cap_from" in squares:
            via = squares["cap_via"]
            return ShooMove(
                CAPTURE, squares["cap_from"], via, squares["cap_place"], squares.get("cap_to", via), shoo
            )
        if "off_from" in squares:
            return ShooMove(DISMOUNT, squares["off_from"], to=squares["off_to"], shoo=shoo)
        origin = squares["from"]
        kind = RIDE if self._mounted >> origin & 1 and self._travellers[self._side] >> origin & 1 else STEP
        return ShooMove(kind, origin, to=squares["to"], shoo=shoo)

    def _why_illegal(self, move: ShooMove) -> str:
        """A sentence that says which rule the (well-formed) move breaks here."""
        kind = move.kind
        if self._end is not None:
            return f"the game is over ({self.termination()})"
        if self._phase == _TOSS:
            return "the game starts with the coin toss: toss:blue or toss:white"
        if self._phase == _CHOICE:
            return (
                f"{SEAT_NAMES[self._chooser]} won the toss and chooses: first (the first move) or odd-horse"
            )
        if kind in (TOSS, CHOOSE):
            return "the opening is over"
        me = SIDE_NAMES[self._side]
        if kind == HUSH:
            if self._game.hush_mode in ("off", "automatic"):
                return f"there is no hushing under hush={self._game.hush_mode}"
            return "HUSH takes back the opponent's last move, and that move did not step into a shoo"
        if move.base() in self.barred_moves:
            return f"{_base_text(move.base())} was hushed this turn; choose another move"
        towers_shooed = _TowersGenerator(self).shooed() if self._game.towers else []
        if self._shoo >= 0 and move.origin != self._shoo:
            return (
                f"{me} must answer the shoo on {square_name(self._shoo)}: move that traveller to a square "
                "where it is not shooed or mount a horse next to it; with no answer, play "
                f"~{square_name(self._shoo)}"
            )
        if self._shoo >= 0 and kind == CAPTURE:
            return (
                f"a capture does not answer a shoo (A13): move the traveller on {square_name(self._shoo)} on "
                "foot to a square where it is not shooed"
                + (", or mount a horse next to it" if self._game.mount_escape else "")
            )
        if self._shoo >= 0 and kind == MOUNT and not self._game.mount_escape:
            return "with mount_escape=off a shoo is answered only on foot: mounting does not answer it"
        if towers_shooed and move.origin not in towers_shooed:
            names = ", ".join(square_name(square) for square in towers_shooed)
            return f"{me} must first remove a shoo by moving one of the shooed travellers: {names}"
        if move.shoo >= 0 and move.base() in self.legal_moves():
            return (
                f"{_base_text(move)} does not create a shoo on {square_name(move.shoo)}: that must be an "
                "enemy traveller on foot, outside its home area, touched by two of yours after the move, at "
                "least one of them newly"
            )
        if kind == PASS:
            return "a pass is allowed only when no other move is"
        problem = self._piece_problem(move)
        if problem is not None:
            return problem
        return f"no rule allows it in this position ({me} to move; try 'moves' to list the legal ones)"

    def _piece_problem(self, move: ShooMove) -> str | None:
        kind, origin = move.kind, move.origin
        mine = self._travellers[self._side]
        if kind in (STEP, MOUNT, RIDE, DISMOUNT, CAPTURE, SHOOED_OFF):
            piece = self.piece_at(origin)
            if not mine >> origin & 1:
                return f"there is no traveller of yours on {square_name(origin)} (it holds {piece!r})"
            is_mounted = bool(self._mounted >> origin & 1)
            if kind in (STEP, MOUNT) and is_mounted:
                return (
                    f"the traveller on {square_name(origin)} is mounted: it rides ({square_name(origin)}-...)"
                )
            if kind == DISMOUNT and not is_mounted:
                return f"the traveller on {square_name(origin)} is on foot and has no horse to dismount"
            if (
                self._game.safety
                and HOME_MASKS[self._side] >> origin & 1
                and move.to >= 0
                and not HOME_MASKS[self._side] >> move.to & 1
            ):
                return f"{square_name(origin)} is in your home area, and a traveller there cannot leave it"
        if kind in (MOUNT, SLIDE, HOLD, RETIRE):
            horse = move.via if kind == MOUNT else (origin if kind == SLIDE else move.to)
            if not self._horses >> horse & 1:
                return f"there is no free horse on {square_name(horse)}"
            if horse == self._held:
                return f"the horse on {square_name(horse)} is held by the opponent for this turn"
            if kind in (HOLD, RETIRE) and not NEIGHBOUR_MASKS[horse] & mine:
                verb = "held" if kind == HOLD else "retired"
                return (
                    f"a horse is {verb} only when one of your travellers stands next to it; no traveller of "
                    f"yours stands next to it on {square_name(horse)}"
                )
        if kind == CAPTURE:
            problem = self._capture_problem(move)
            if problem is not None:
                return problem
        if kind == CALL and not self._stable_horses[self._side]:
            return "there is no horse left in your stable"
        if kind == CALL and not self._game.towers and not self._game.drop_anywhere:
            return "a stable horse is called up onto an empty square next to one of your travellers"
        if kind == RETURN and not self._stable_travellers[self._side]:
            return "there is no traveller in your stable"
        return None

    def _capture_problem(self, move: ShooMove) -> str | None:
        """Which capture rule (action 10, A19–A21) a capture by a traveller of the mover breaks."""
        origin, rider, place = move.origin, move.via, move.place
        theirs = self._travellers[self._side ^ 1]
        if not (theirs & self._mounted) >> rider & 1:
            return (
                f"there is no enemy rider on {square_name(rider)} (it holds {self.piece_at(rider)!r}): a "
                "capture takes a mounted enemy traveller"
            )
        if not NEIGHBOUR_MASKS[origin] >> rider & 1:
            return (
                f"the traveller on {square_name(origin)} is not next to the rider on {square_name(rider)}: a "
                "capture takes a rider next to the capturer at the start of the move"
            )
        occupied = self._travellers[0] | self._travellers[1] | self._horses
        if not NEIGHBOUR_MASKS[rider] >> place & 1:
            return (
                f"the captured traveller is put on an empty square next to its horse on "
                f"{square_name(rider)}; {square_name(place)} is not next to it"
            )
        if occupied >> place & 1:
            return (
                "the captured traveller is put on an empty square next to its horse; "
                f"{square_name(place)} is not empty"
            )
        home = HOME_MASKS[self._side ^ 1]
        if home >> rider & 1:
            if self._game.capture_in_home == "immune":
                return "with capture_in_home=immune a rider in its home area cannot be captured"
            if self._game.capture_in_home == "place-inside" and not home >> place & 1:
                return (
                    "with capture_in_home=place-inside a rider captured in its home area is put on a square "
                    f"inside it; {square_name(place)} is outside"
                )
        return None

    def shooed_travellers(self) -> tuple[int, ...]:
        """Under the towers ruleset, the squares of the mover's travellers that stand shooed now.

        One of them must escape this turn (on foot, outside its home area, touched by two enemies).
        Empty under the designers' rules, where a shoo is declared (:attr:`ShooMove.shoo`), and outside play.
        """
        if not self._game.towers or self._phase != _PLAY or self._end is not None:
            return ()
        return tuple(_TowersGenerator(self).shooed())

    def move_themes(self, move: ShooMove) -> tuple[str, ...]:
        """``shoo`` for a move that shoos, and the move's kind where it is a theme.

        The kinds that are themes: ``capture``, ``hush``, ``hold``, ``retire`` and ``return``.
        """
        themes = ["shoo"] if move.shoo >= 0 else []
        kinds = {CAPTURE: "capture", HUSH: "hush", HOLD: "hold", RETIRE: "retire", RETURN: "return"}
        if move.kind in kinds:
            themes.append(kinds[move.kind])
        return tuple(themes)

    def diagram(self) -> str:
        """The field with both stables and pastures, the held horse, a pending shoo and what may be hushed."""
        game = self._game
        lines = []

        def off_field(side: int) -> str:
            name = SIDE_NAMES[side]
            if self._phase == _PLAY:
                name += f" ({SEAT_NAMES[self.seat_of(side)]})"
            stable = f"stable: {self._stable_horses[side]} horses"
            if not game.towers:
                stable += f", {self._stable_travellers[side]} travellers"
            return f"    {name:<16} {stable}   pasture: {self._pasture[side]}"

        lines.append(off_field(NORTH))
        lines.append("    +-------------------+")
        for rank in range(SIZE - 1, -1, -1):
            row = " ".join(self.piece_at(file + SIZE * rank) for file in range(SIZE))
            lines.append(f"  {rank + 1} | {row} |")
        lines.append("    +-------------------+")
        lines.append("      a b c d e f g h i")
        lines.append(off_field(SOUTH))
        lines.append("  s n on foot, S N mounted, h free horse, H held; homes: South a7-c9, North g1-i3")
        if self._phase == _TOSS:
            lines.append("  The coin toss decides who chooses between the first move and the odd horse (e5).")
        elif self._phase == _CHOICE:
            lines.append(f"  {SEAT_NAMES[self._chooser]} won the toss: 'first' (move first) or 'odd-horse'.")
        if self._held >= 0:
            holder = SIDE_NAMES[self._side ^ 1]
            lines.append(f"  The horse on {square_name(self._held)} is held by {holder} this turn.")
        if self._shoo >= 0:
            lines.append(f"  Shoo! The traveller on {square_name(self._shoo)} must move out of it.")
        shooed = self.shooed_travellers()
        if shooed:
            lines.append("  Shooed (one must escape): " + ", ".join(square_name(s) for s in shooed))
        if self._hush is not None:
            lines.append(f"  {SIDE_NAMES[self._side]} may HUSH {_base_text(self._hush.move)}.")
        if self.barred_moves and self._hush is None:
            barred = ", ".join(sorted(_base_text(m) for m in self.barred_moves))
            lines.append(f"  Hushed this turn (barred): {barred}")
        if self._end is not None:
            if self._winner is not None:
                lines.append(f"  {SIDE_NAMES[self._winner]} ({SEAT_NAMES[self.winner or 0]}) has won.")
            else:
                lines.append(f"  Drawn: {self.termination()}.")
        elif self._phase == _PLAY:
            lines.append(f"  {SIDE_NAMES[self._side]} ({SEAT_NAMES[self.seat_of(self._side)]}) to move.")
        return "\n".join(lines)


_SQ = r"[a-iA-I]\s*[1-9]"
_MOVE_RE: Final = re.compile(
    rf"""^\s*(?:
        (?P<word>hush|pass|toss\s*[:-]?\s*(?:blue|white)|first|odd-horse|horse)
      | H\s*\*\s*(?P<call>{_SQ})
      | H\s*(?P<slide_from>{_SQ})\s*-\s*(?P<slide_to>{_SQ})
      | T\s*\*\s*(?P<ret>{_SQ})
      | !\s*(?P<hold>{_SQ})
      | x\s*(?P<retire>{_SQ})
      | ~\s*(?P<off>{_SQ})(?:\s*@\s*(?P<drop>{_SQ}))?
      | (?P<mount_from>{_SQ})\s*>\s*(?P<mount_via>{_SQ})(?:\s*-\s*(?P<mount_to>{_SQ}))?
      | (?P<cap_from>{_SQ})\s*x\s*(?P<cap_via>{_SQ})\s*@\s*(?P<cap_place>{_SQ})(?:\s*-\s*(?P<cap_to>{_SQ}))?
      | (?P<off_from>{_SQ})\s*/\s*(?P<off_to>{_SQ})
      | (?P<from>{_SQ})\s*-\s*(?P<to>{_SQ})
    )(?:\s+shoo\s+(?P<shoo>{_SQ}))?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


def _base_text(move: ShooMove) -> str:
    """A move's notation without its shoo declaration."""
    kind, origin, to = move.kind, move.origin, move.to
    if kind in (STEP, RIDE):
        return f"{square_name(origin)}-{square_name(to)}"
    if kind == MOUNT:
        ride = f"-{square_name(to)}" if to != move.via else ""
        return f"{square_name(origin)}>{square_name(move.via)}{ride}"
    if kind == DISMOUNT:
        return f"{square_name(origin)}/{square_name(to)}"
    if kind == CAPTURE:
        ride = f"-{square_name(to)}" if to != move.via else ""
        return f"{square_name(origin)}x{square_name(move.via)}@{square_name(move.place)}{ride}"
    if kind == RETURN:
        return f"T*{square_name(to)}"
    if kind == CALL:
        return f"H*{square_name(to)}"
    if kind == SLIDE:
        return f"H{square_name(origin)}-{square_name(to)}"
    if kind == HOLD:
        return f"!{square_name(to)}"
    if kind == RETIRE:
        return f"x{square_name(to)}"
    if kind == SHOOED_OFF:
        return f"~{square_name(origin)}" + (f"@{square_name(to)}" if to >= 0 else "")
    if kind == HUSH:
        return "HUSH"
    if kind == PASS:
        return "pass"
    raise ValueError(f"no base text for move kind {kind}")


def _shooable(square: int, side: int, enemies: int) -> bool:
    """Whether a foot traveller of ``side`` on ``square`` could be shooed.

    That is: outside its home area and touched by at least two of ``enemies``.
    """
    return not HOME_MASKS[side] >> square & 1 and (NEIGHBOUR_MASKS[square] & enemies).bit_count() >= 2


def _default_ply(game: ShooGame, phase: int, moves: int) -> int:
    """The ply of a position with no hushes so far: the opening's plies plus the standing moves."""
    if phase == _TOSS:
        return 0
    if phase == _CHOICE:
        return 1
    return moves + (2 if game.has_chance else 0)


def _position_text(game: ShooGame, position: ShooPosition) -> str:
    """The position text of ``position`` (see :meth:`ShooState.to_text`)."""
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        row = ""
        gap = 0
        for file in range(SIZE):
            piece = position.piece_at(file + SIZE * rank)
            if piece == ".":
                gap += 1
                continue
            if gap:
                row += str(gap)
                gap = 0
            row += piece
        ranks.append(row + (str(gap) if gap else ""))
    if position.phase == "toss":
        side = "toss"
    elif position.phase == "choice":
        side = f"choice-{SEAT_NAMES[position.chooser].lower()}"
    else:
        side = "sn"[position.side]
    fields = [
        "/".join(ranks),
        side,
        "{}/{}".format(*position.stable_horses),
        "{}/{}".format(*position.stable_travellers),
        "{}/{}".format(*position.pasture),
        str(position.turns),
    ]
    if position.south != BLUE:
        fields.append("south=white")
    if position.shoo >= 0:
        fields.append(f"shoo={square_name(position.shoo)}")
    barred = position.barred
    hush = position.hush
    if hush is not None:
        fields.append(f"hush={_base_text(hush.move)}")
        if hush.held_before >= 0:
            fields.append(f"held-before={square_name(hush.held_before)}")
        if hush.passes_before:
            fields.append(f"passes-before={hush.passes_before}")
        barred = hush.barred
    if barred:
        fields.append("barred=" + ",".join(sorted(_base_text(move) for move in barred)))
    if position.passes:
        fields.append(f"passes={position.passes}")
    if position.end == "repetition":
        fields.append("end=repetition")
    if position.ply != _default_ply(game, _PHASE_NAMES.index(position.phase), position.turns):
        fields.append(f"ply={position.ply}")
    return " ".join(fields)


class _DesignersGenerator:
    """The legal moves of the side to move under the designers' ruleset (rulings §4), before barring."""

    def __init__(self, state: ShooState) -> None:
        game = state.game
        self.game = game
        self.state = state
        self.me = me = state.side
        self.mine = state._travellers[me]
        self.theirs = state._travellers[me ^ 1]
        self.mounted = state._mounted
        self.their_foot = self.theirs & ~self.mounted
        self.horses = state._horses
        self.occupied = self.mine | self.theirs | self.horses
        self.usable = self.horses & ~(1 << state._held) if state._held >= 0 else self.horses
        self.home = HOME_MASKS[me]
        self.their_home = HOME_MASKS[me ^ 1]
        self.their_away = FIELD & ~self.their_home  # where an enemy traveller can be shooed
        self.no_horse = _HOME_AREAS if game.towers else 0  # where horses (and so riders) may not go
        self.skip_hushable = game.hush_mode == "automatic"
        self.declares = not game.towers
        self.moves: list[ShooMove] = []

    # Helpers

    def allowed_from(self, origin: int) -> int:
        """Where a traveller starting on ``origin`` may end.

        The safety rule (A18) keeps a traveller that starts in its home area inside it, unless
        ``leave_home=yes``.
        """
        return self.home if self.game.safety and self.home >> origin & 1 else FIELD

    def slide(self, start: int, empty: int) -> list[int]:
        """The squares a queen-like slide from ``start`` reaches through ``empty`` squares."""
        reached = []
        blocked = ~empty | self.no_horse
        for ray in RAYS[start]:
            for square in ray:
                if blocked >> square & 1:
                    break
                reached.append(square)
        return reached

    def add(
        self, move: ShooMove, origin: int, to: int, mine_after: int, their_foot_after: int, placed: int
    ) -> None:
        """Add a move that puts a traveller of the mover on ``to``, with each shoo it can declare (A11).

        A target is an enemy foot traveller outside its home area, touched by two of the mover's
        travellers, one of them new (it arrived on ``to`` and did not touch from ``origin``), or the
        rider the move placed.
        """
        self.moves.append(move)
        if not self.declares:
            return
        targets = NEIGHBOUR_MASKS[to] & their_foot_after & self.their_away
        if origin >= 0:
            targets &= ~NEIGHBOUR_MASKS[origin]
        if placed >= 0:
            targets |= (1 << placed) & self.their_away
        while targets:
            low = targets & -targets
            targets ^= low
            target = low.bit_length() - 1
            if (NEIGHBOUR_MASKS[target] & mine_after).bit_count() >= 2:
                self.moves.append(move._replace(shoo=target))

    def hushable(self, to: int) -> bool:
        """Whether a traveller of the mover arriving on foot on ``to`` could be shooed there."""
        return _shooable(to, self.me, self.theirs)

    # Actions

    def steps(self, origins: int) -> None:
        mine, their_foot = self.mine, self.their_foot
        for origin in _bits(origins):
            targets = NEIGHBOUR_MASKS[origin] & ~self.occupied & self.allowed_from(origin)
            for to in _bits(targets):
                if self.skip_hushable and self.hushable(to):
                    continue
                move = ShooMove(STEP, origin, to=to)
                self.add(move, origin, to, mine ^ (1 << origin) ^ (1 << to), their_foot, -1)

    def mounts(self, origins: int) -> None:
        for origin in _bits(origins):
            allowed = self.allowed_from(origin)
            for horse in _bits(NEIGHBOUR_MASKS[origin] & self.usable):
                # Mount & ride in one move; the square just left counts as empty during the ride.
                targets = [horse]
                if not self.game.towers:
                    targets += self.slide(horse, ~(self.occupied & ~(1 << origin)))
                for to in targets:
                    if allowed >> to & 1:
                        mine_after = self.mine ^ (1 << origin) | (1 << to)
                        move = ShooMove(MOUNT, origin, horse, to=to)
                        self.add(move, origin, to, mine_after, self.their_foot, -1)

    def rides(self) -> None:
        for origin in _bits(self.mine & self.mounted):
            allowed = self.allowed_from(origin)
            for to in self.slide(origin, ~self.occupied):
                if allowed >> to & 1:
                    mine_after = self.mine ^ (1 << origin) | (1 << to)
                    self.add(ShooMove(RIDE, origin, to=to), origin, to, mine_after, self.their_foot, -1)

    def dismounts(self) -> None:
        for origin in _bits(self.mine & self.mounted):
            for to in _bits(NEIGHBOUR_MASKS[origin] & ~self.occupied & self.allowed_from(origin)):
                if (self.skip_hushable or self.game.towers) and self.hushable(to):
                    continue  # automatic hushing; towers: "a dismounted traveler cannot move into a shoo"
                mine_after = self.mine ^ (1 << origin) | (1 << to)
                self.add(ShooMove(DISMOUNT, origin, to=to), origin, to, mine_after, self.their_foot, -1)

    def captures(self, capturers: int) -> None:
        their_riders = self.theirs & self.mounted
        if not their_riders:
            return
        for origin in _bits(capturers):
            victims = NEIGHBOUR_MASKS[origin] & their_riders
            if not victims:
                continue
            was_mounted = self.mounted >> origin & 1
            allowed = self.allowed_from(origin)
            for via in _bits(victims):
                places = FIELD
                if self.their_home >> via & 1:
                    if self.game.capture_in_home == "immune":
                        continue
                    if self.game.capture_in_home == "place-inside":
                        places = self.their_home
                for place in _bits(NEIGHBOUR_MASKS[via] & ~self.occupied & places):
                    occupied_after = (self.occupied | (1 << place)) & ~(1 << via)
                    if not was_mounted:
                        occupied_after &= ~(1 << origin)
                    their_foot_after = self.their_foot | (1 << place)
                    for to in [via, *self.slide(via, ~occupied_after)]:
                        if allowed >> to & 1:
                            mine_after = self.mine ^ (1 << origin) | (1 << to)
                            move = ShooMove(CAPTURE, origin, via, place, to)
                            self.add(move, origin, to, mine_after, their_foot_after, place)

    def returns(self) -> None:
        if not self.state._stable_travellers[self.me]:
            return
        for to in _bits(FIRST_ROWS[self.me] & ~self.occupied):
            if self.skip_hushable and self.hushable(to):
                continue
            self.add(ShooMove(RETURN, to=to), -1, to, self.mine | (1 << to), self.their_foot, -1)

    def calls(self) -> None:
        if not self.state._stable_horses[self.me]:
            return
        if self.game.towers:
            targets = FIELD & ~self.occupied & ~_HOME_AREAS
        elif self.game.drop_anywhere:
            targets = FIELD & ~self.occupied
        else:
            targets = 0
            for traveller in _bits(self.mine):
                targets |= NEIGHBOUR_MASKS[traveller]
            targets &= ~self.occupied
        self.moves.extend(ShooMove(CALL, to=to) for to in _bits(targets))

    def slides(self) -> None:
        for origin in _bits(self.usable):
            self.moves.extend(ShooMove(SLIDE, origin, to=to) for to in self.slide(origin, ~self.occupied))

    def horses_next_to_mine(self) -> list[int]:
        return [horse for horse in _bits(self.usable) if NEIGHBOUR_MASKS[horse] & self.mine]

    def generate(self) -> list[ShooMove]:
        """Every move of the turn (rulings §4, §5); an empty list means the side must pass."""
        shooed = self.state._shoo
        if shooed >= 0:
            return self.answers(shooed)
        foot = self.mine & ~self.mounted
        self.steps(foot)
        self.mounts(foot)
        self.rides()
        self.dismounts()
        self.captures(self.mine)
        self.returns()
        self.calls()
        self.slides()
        near = self.horses_next_to_mine()
        self.moves.extend(ShooMove(HOLD, to=horse) for horse in near)
        self.moves.extend(ShooMove(RETIRE, to=horse) for horse in near)
        return self.moves

    def answers(self, shooed: int) -> list[ShooMove]:
        """Answers to the shoo on ``shooed`` (action 11), or being shooed off (action 12)."""
        for to in NEIGHBOURS[shooed]:
            if not self.occupied >> to & 1 and not self.hushable(to):
                self.add(
                    ShooMove(STEP, shooed, to=to),
                    shooed,
                    to,
                    self.mine ^ (1 << shooed) ^ (1 << to),
                    self.their_foot,
                    -1,
                )
        if self.game.mount_escape:
            self.mounts(1 << shooed)
        if not self.moves:
            self.moves.append(ShooMove(SHOOED_OFF, shooed))
        return self.moves


class _TowersGenerator(_DesignersGenerator):
    """The legal moves under the towers ruleset (seed 001 taken literally, rulings §8)."""

    def shooed(self) -> list[int]:
        """The mover's travellers that stand shooed now: on foot, outside home, touched by two enemies."""
        return [t for t in _bits(self.mine & ~self.mounted & ~self.home) if self.hushable(t)]

    def generate(self) -> list[ShooMove]:
        """A side with shooed travellers must remove one shoo; otherwise any action of §8."""
        shooed = self.shooed()
        if shooed:
            for traveller in shooed:
                before = len(self.moves)
                for to in NEIGHBOURS[traveller]:
                    if not self.occupied >> to & 1 and not self.hushable(to):
                        self.moves.append(ShooMove(STEP, traveller, to=to))
                if self.game.mount_escape:
                    self.mounts(1 << traveller)
                self.captures(1 << traveller)
                if len(self.moves) == before:
                    self.drops(traveller)
            return self.moves
        foot = self.mine & ~self.mounted
        self.steps(foot)
        self.mounts(foot)
        self.rides()
        self.dismounts()
        self.captures(self.mine)
        self.calls()
        self.slides()
        self.moves.extend(ShooMove(RETIRE, to=horse) for horse in self.horses_next_to_mine())
        return self.moves

    def drops(self, traveller: int) -> None:
        """Drop a shooed traveller that cannot escape next to its start area, where it is not shooed.

        Ring by ring outwards; if no ring has such a square, on the nearest empty square.
        """
        empty = FIELD & ~self.occupied  # never its own square: a drop must move it
        fallback: list[int] = []
        for ring in _DROP_RINGS[self.me]:
            squares = list(_bits(ring & empty))
            safe = [square for square in squares if not self.hushable(square)]
            if safe:
                self.moves.extend(ShooMove(SHOOED_OFF, traveller, to=to) for to in safe)
                return
            if squares and not fallback:
                fallback = squares
        self.moves.extend(ShooMove(SHOOED_OFF, traveller, to=to) for to in fallback)


_OPTIONAL_FIELDS: Final = (
    "south",
    "shoo",
    "hush",
    "held-before",
    "passes-before",
    "barred",
    "passes",
    "end",
    "ply",
)


def _read_counts(text: str, what: str) -> tuple[int, int]:
    parts = text.split("/")
    if len(parts) != 2 or not all(is_number(part) for part in parts):
        raise NotationError(f"{what} must be two whole numbers 'South/North', got {shown(text)}")
    return read_number(parts[0], what), read_number(parts[1], what)


def _read_board(text: str) -> tuple[list[int], int, int, int]:
    """Read the board field: (travellers per side, mounted, free horses, held horse or -1)."""
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise NotationError(
            f"the board must have 9 ranks separated by '/', from rank 9 down, got {len(ranks)}"
        )
    travellers = [0, 0]
    mounted = horses = 0
    held = -1
    for index, row in enumerate(ranks):
        rank = SIZE - 1 - index
        file = 0
        for char in row:
            if char in "123456789":
                file += int(char)
                continue
            if file >= SIZE:
                raise NotationError(
                    f"rank {rank + 1} ({shown(row)}) has more than 9 squares: {char!r} stands past file i"
                )
            bit = 1 << (file + SIZE * rank)
            if char in "sSnN":
                travellers[0 if char in "sS" else 1] |= bit
                if char.isupper():
                    mounted |= bit
            elif char in "hH":
                horses |= bit
                if char == "H":
                    if held >= 0:
                        raise NotationError("the board has two held horses 'H'; at most one horse is held")
                    held = file + SIZE * rank
            else:
                raise NotationError(
                    f"unknown piece {char!r} on rank {rank + 1}; expected s n (on foot), S N (mounted), "
                    "h (free horse), H (held horse) or a digit for empty squares"
                )
            file += 1
        if file != SIZE:
            raise NotationError(f"rank {rank + 1} ({shown(row)}) has {file} squares, not 9")
    return travellers, mounted, horses, held


def _read_base_move(text: str, what: str) -> ShooMove:
    """Read a hushable move (a step, a dismount or a return) written in a position's hush fields."""
    match = re.fullmatch(r"([a-i][1-9])([-/])([a-i][1-9])|T\*([a-i][1-9])", text)
    if match is None:
        raise NotationError(
            f"{what} must be a step (d4-d5), a dismount (e5/d4) or a return (T*a1), got {text!r}"
        )
    if match.group(4):
        return ShooMove(RETURN, to=parse_square(match.group(4)))
    kind = STEP if match.group(2) == "-" else DISMOUNT
    return ShooMove(kind, parse_square(match.group(1)), to=parse_square(match.group(3)))


def _read_position(game: ShooGame, text: str) -> ShooPosition:
    """Read position text (format in ``docs/games/shoo.md``) into a position, its end judged.

    See :meth:`ShooGame.state_from_text`.
    """
    fields = text.split()
    if len(fields) < 6:
        raise NotationError(
            "a Shoo position has at least 6 fields "
            "'board side stable-horses stable-travellers pastures moves' "
            f"(then optional name=value fields), got {len(fields)} in {text!r}"
        )
    travellers, mounted, horses, held = _read_board(fields[0])
    side_field = fields[1].lower()
    phase, chooser, side = _PLAY, BLUE, SOUTH
    if side_field == "toss":
        phase = _TOSS
    elif side_field in ("choice-blue", "choice-white"):
        phase, chooser = _CHOICE, BLUE if side_field == "choice-blue" else WHITE
    elif side_field in ("s", "n"):
        side = SOUTH if side_field == "s" else NORTH
    else:
        raise NotationError(
            f"side to move must be s, n, toss, choice-blue or choice-white, got {fields[1]!r}"
        )
    stable_horses = _read_counts(fields[2], "stable horses")
    stable_travellers = _read_counts(fields[3], "stabled travellers")
    pasture = _read_counts(fields[4], "pastures")
    moves = read_number(fields[5], "the number of standing moves")
    extra: dict[str, str] = {}
    for pair in fields[6:]:
        name, sep, value = pair.partition("=")
        if not sep or name not in _OPTIONAL_FIELDS:
            raise NotationError(
                f"unknown position field {pair!r}; optional fields are name=value with names "
                f"{', '.join(_OPTIONAL_FIELDS)}"
            )
        if name in extra:
            raise NotationError(f"position field {name!r} is given twice")
        extra[name] = value
    # Counts: travellers and horses cannot exceed what the game has.
    for index, name in enumerate(SIDE_NAMES):
        count = travellers[index].bit_count() + stable_travellers[index]
        if count > 9:
            raise NotationError(f"{name} has {count} travellers on the field and in its stable; at most 9")
    total_horses = horses.bit_count() + mounted.bit_count() + sum(stable_horses) + sum(pasture)
    if total_horses > int(game.settings["horses"]):
        raise NotationError(
            f"the position has {total_horses} horses; this game has {game.settings['horses']}"
        )
    if game.towers:
        if any(stable_travellers):
            raise NotationError("the towers ruleset has no stable for travellers")
        if (horses | mounted) & _HOME_AREAS:
            raise NotationError("the towers ruleset allows no horse in a home area")
    if held >= 0 and phase != _PLAY:
        raise NotationError("no horse can be held before the opening is over")
    south = BLUE
    if "south" in extra:
        if extra["south"] not in ("blue", "white"):
            raise NotationError(f"south must be blue or white, got {extra['south']!r}")
        south = BLUE if extra["south"] == "blue" else WHITE
    shoo = -1
    if "shoo" in extra:
        shoo = parse_square(extra["shoo"])
        if game.towers:
            raise NotationError("the towers ruleset has no declared shoo (its shoos follow from the board)")
        if not (travellers[side] & ~mounted) >> shoo & 1 or HOME_MASKS[side] >> shoo & 1:
            raise NotationError(
                f"shoo={extra['shoo']} must name a traveller on foot of the side to move, "
                "outside its home area"
            )
    hush: HushContext | None = None
    barred: frozenset[ShooMove] = frozenset()
    if "barred" in extra:
        barred = frozenset(_read_base_move(part, "each barred move") for part in extra["barred"].split(","))
    if "hush" in extra:
        if game.hush_mode in ("off", "automatic"):
            raise NotationError(f"there is no hush to offer under hush={game.hush_mode}")
        hushed = _read_base_move(extra["hush"], "hush")
        mover = side ^ 1
        if not (travellers[mover] & ~mounted) >> hushed.to & 1 or not _shooable(
            hushed.to, mover, travellers[side]
        ):
            raise NotationError(
                f"hush={extra['hush']}: the move must have put a traveller of {SIDE_NAMES[mover]} on foot on "
                f"{square_name(hushed.to)} where it could be shooed"
            )
        origin = hushed.origin
        if hushed.kind == RETURN:
            undoable = bool(FIRST_ROWS[mover] >> hushed.to & 1)
        else:
            left = horses if hushed.kind == DISMOUNT else ~(travellers[0] | travellers[1] | horses)
            undoable = bool(NEIGHBOUR_MASKS[hushed.to] >> origin & 1 and left >> origin & 1)
        if not undoable:
            raise NotationError(
                f"hush={extra['hush']} cannot be taken back here: a step leaves its first square empty, a "
                "dismount leaves a free horse there, and a return lands on the mover's first row"
            )
        if held >= 0:
            raise NotationError(
                "after a hushable move no horse is held (a step, dismount or return holds none)"
            )
        held_before = parse_square(extra["held-before"]) if "held-before" in extra else -1
        passes_before = {"0": 0, "1": 1}.get(extra.get("passes-before", "0"), -1)
        if passes_before not in (0, 1):
            raise NotationError(f"passes-before must be 0 or 1, got {extra.get('passes-before')!r}")
        hush = HushContext(hushed, held_before, passes_before, barred)
        barred = frozenset()
    elif "held-before" in extra or "passes-before" in extra:
        raise NotationError("held-before and passes-before belong only with hush=")
    passes = 0
    if "passes" in extra:
        if extra["passes"] not in ("1", "2"):
            raise NotationError(f"passes must be 1 or 2, got {extra['passes']!r}")
        passes = int(extra["passes"])
    end = None
    if "end" in extra:
        if extra["end"] != "repetition":
            raise NotationError(
                f"end must be 'repetition' (other ends follow from the position), got {extra['end']!r}"
            )
        end = "repetition"
    ply = _default_ply(game, phase, moves)
    if "ply" in extra:
        ply = read_number(extra["ply"], "ply")
    winner = None
    if end is None and phase == _PLAY:
        end, winner = _end_of((travellers[0], travellers[1]), mounted, side, passes, moves, game.max_turns)
    return ShooPosition(
        travellers=(travellers[0], travellers[1]),
        mounted=mounted,
        horses=horses,
        held=held,
        stable_horses=stable_horses,
        stable_travellers=stable_travellers,
        pasture=pasture,
        side=side,
        phase=_PHASE_NAMES[phase],
        chooser=chooser,
        south=south,
        shoo=shoo,
        hush=hush,
        barred=barred,
        turns=moves,
        ply=ply,
        passes=passes,
        end=end,
        winner=winner,
    )
