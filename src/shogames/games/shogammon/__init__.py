"""Shogammon (the Archimedeans' Puzzles and Games Ring): shogi played with two dice and stacked points.

Rules source: the everything2 write-up (``shared/seeds/004_5db2dfdf87846ffe.txt``), whose die-face table
is lost, as rebuilt and settled by our rulings (``shared/rules/shogammon.md``); ``docs/games/shogammon.md``
tells the rules in our words.

Board and pieces
----------------
Squares are numbered ``9 * row + column``: row 0 is rank a (White's back rank), column 0 is file 9, so
square 0 is 9a and square 80 is 1i; Black sits at the bottom and moves first. A piece is a signed int:
Black positive, White negative; the size is the kind (1 P, 2 L, 3 N, 4 S, 5 G, 6 B, 7 R, 8 K, and 8 more
for a promoted kind: 9 +P ... 15 +R). The board is two 81-tuples: ``lower`` (every piece standing alone,
or the bottom of a point) and ``upper`` (the top of a point, else 0). Hands hold counts of the seven
droppable kinds per side.

Moves
-----
A turn is a roll (a chance outcome over the 21 unordered pairs), then one move per die, one die at a time;
the state keeps the dice left. A :class:`ShogammonMove` is a die and a board move or drop (``1:7g7f``,
``5:8h2b+``, ``1:P*5e``), a point capture by two pieces with both dice in one move (``4:4f5e&3:6f5e``), or
losing a die that cannot be played when the other is played second (``6:-``). Rolls are ``1-6``; with
``opening_roll=backgammon`` the first move is the opening roll, one die each (``B6-W1``).

Actions and observations
------------------------
An action is one die's move, as a ply is (a turn is up to two actions), never the whole turn; a point
capture, which uses both dice at once, is one action. Ids are ``plane * 81 + destination`` with the
destination seen by the mover (White's squares turned half round, ``80 - square``), 34,593 in all for
every setting: planes 0-19 a board move's direction (:data:`ACTION_DIRECTIONS`: 8 lines, 2 knight jumps;
the piece is the first met walking back from the destination) plus 10 if it promotes, 20-26 a drop of
P L N S G B R, 27-426 a point capture (``27 + 20 * first half + second half``, each half a board move's
plane); then ``34,587 + face - 1`` a lost die. The die is the moving piece's face, so it needs no field.
A roll's id is its index in :data:`ROLLS` (21), an opening roll's in :data:`OPENING_ROLLS` (30). The
observation is 81 planes of 9 x 9 from the observer's view (:data:`OBSERVATION_PLANES`): pieces per kind,
side and level of a point, hands, unspent dice, the turn, repetitions and the cap's progress.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import ClassVar, Final, NamedTuple

from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.notation import read_number, shown
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.settings import Setting, SettingValue

BLACK: Final = 0
"""Seat of Black (sente), who moves first from the bottom."""
WHITE: Final = 1
"""Seat of White (gote)."""

PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK, KING = 1, 2, 3, 4, 5, 6, 7, 8
PROMOTED: Final = 8
"""Added to a kind when it promotes (P, L, N, S, B and R only)."""
LETTERS: Final = ".PLNSGBRK"
"""The SFEN letter of each unpromoted kind, by kind number."""
FILE_NAMES: Final = "987654321"
RANK_NAMES: Final = "abcdefghi"
DROPPABLE: Final = (PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK)

PIECE_WORTH: Final = (0, 1, 3, 3.5, 5, 5.5, 8, 10, 0, 5, 5, 5, 5.5, 0, 11, 13)
"""The evaluation's worth of each kind by kind number (promoted kinds at kind + 8); kings count 0."""
POINT_BONUS: Final = 1.2
"""The evaluation's factor on the worth of both pieces of a point (only a two-piece capture takes one)."""
HAND_BONUS: Final = 1.1
"""The evaluation's factor on the worth of a piece in hand."""
MATERIAL_SCALE: Final = 15.0
"""The evaluation's material difference d gives ``CONFIDENCE * tanh(d / MATERIAL_SCALE)``."""
NEXT_BEST_SHARE: Final = 3
"""The evaluation adds the best threatened capture's expected worth, and the next best's over this."""
CONFIDENCE: Final = 0.95
"""The evaluation's values stay within +-0.95, so that only the end of a game is worth +-1."""


def _signed_worth(piece: int) -> float:
    return PIECE_WORTH[piece] if piece > 0 else -PIECE_WORTH[-piece]


DIE_MAPS: Final = {
    "classic": {PAWN: 1, LANCE: 2, KNIGHT: 2, SILVER: 3, GOLD: 4, BISHOP: 5, ROOK: 5, KING: 6},
    "generals": {PAWN: 1, LANCE: 2, KNIGHT: 2, SILVER: 3, GOLD: 3, BISHOP: 4, ROOK: 5, KING: 6},
    "minors-split": {PAWN: 1, LANCE: 2, KNIGHT: 3, SILVER: 4, GOLD: 4, BISHOP: 5, ROOK: 5, KING: 6},
}
"""The named die maps: the face of each unpromoted kind (a promoted piece keeps its kind's face)."""

START_SFEN: Final = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
"""The shogi start in SFEN."""


class ShogammonMoveKind(IntEnum):
    """What a Shogammon move does (``ShogammonMove.kind``); also module constants (:data:`ROLL`, ...)."""

    ROLL = 0
    """A roll of the two dice (chance); ``die`` and ``die2`` are the faces."""
    ACT = 1
    """One die's board move or drop."""
    PAIR = 2
    """A point capture, two pieces onto one enemy point with both dice."""
    LOSE = 3
    """Give up a die that has no play, so that the other die is played alone."""
    OPEN = 4
    """The backgammon opening roll (chance): ``die`` is Black's die, ``die2`` White's; the higher starts
    and plays both."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


ROLL: Final = ShogammonMoveKind.ROLL
ACT: Final = ShogammonMoveKind.ACT
PAIR: Final = ShogammonMoveKind.PAIR
LOSE: Final = ShogammonMoveKind.LOSE
OPEN: Final = ShogammonMoveKind.OPEN


class DieMapWarning(UserWarning):
    """A custom die map that does not keep the king alone on face 6 (ruling 1: the seed's prose needs it)."""


class ShogammonMove(NamedTuple):
    """One Shogammon move; unused fields are -1 (or 0 for flags).

    Attributes:
        kind: :data:`ROLL`, :data:`ACT`, :data:`PAIR`, :data:`LOSE` or :data:`OPEN`.
        die: the die played (the lower face of a roll; Black's die of an opening roll).
        origin: the square moved from, or -1 for a drop.
        to: the square moved to.
        promote: 1 if the piece promotes.
        drop: the kind dropped (ACT drops), else 0.
        die2, origin2, to2, promote2: the second half of a PAIR (the higher face of a roll).
    """

    kind: ShogammonMoveKind
    die: int = 0
    origin: int = -1
    to: int = -1
    promote: int = 0
    drop: int = 0
    die2: int = 0
    origin2: int = -1
    to2: int = -1
    promote2: int = 0


ROLLS: Final = tuple(
    (ShogammonMove(ROLL, die=low, die2=high), Fraction(1 if low == high else 2, 36))
    for low in range(1, 7)
    for high in range(low, 7)
)
"""The 21 unordered rolls of two dice with their exact probabilities."""
OPENING_ROLLS: Final = tuple(
    (ShogammonMove(OPEN, die=black, die2=white), Fraction(1, 30))
    for black in range(1, 7)
    for white in range(1, 7)
    if black != white
)
"""The backgammon opening roll: each side throws one die, equal dice are thrown again (30 outcomes)."""


def square_name(square: int) -> str:
    """The USI name of a square, such as ``7g``."""
    return FILE_NAMES[square % 9] + RANK_NAMES[square // 9]


def parse_square(text: str) -> int:
    """The square named ``text`` (``9a`` .. ``1i``).

    Raises:
        NotationError: not a square.
    """
    if len(text) != 2 or text[0] not in FILE_NAMES or text[1] not in RANK_NAMES:
        raise NotationError(f"expected a square such as 7g (file 9-1, rank a-i), got {text!r}")
    return RANK_NAMES.index(text[1]) * 9 + FILE_NAMES.index(text[0])


# --- Geometry: steps and rays per kind, for Black (White mirrors the rows) ---------------------------------

_GOLD_STEPS: Final = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0))
_KING_STEPS: Final = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_DIAGONALS: Final = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_ORTHOGONALS: Final = ((-1, 0), (1, 0), (0, -1), (0, 1))
_STEPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    PAWN: ((-1, 0),),
    KNIGHT: ((-2, -1), (-2, 1)),
    SILVER: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)),
    GOLD: _GOLD_STEPS,
    KING: _KING_STEPS,
    PAWN + PROMOTED: _GOLD_STEPS,
    LANCE + PROMOTED: _GOLD_STEPS,
    KNIGHT + PROMOTED: _GOLD_STEPS,
    SILVER + PROMOTED: _GOLD_STEPS,
    BISHOP + PROMOTED: _ORTHOGONALS,
    ROOK + PROMOTED: _DIAGONALS,
}
_SLIDES: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    LANCE: ((-1, 0),),
    BISHOP: _DIAGONALS,
    ROOK: _ORTHOGONALS,
    BISHOP + PROMOTED: _DIAGONALS,
    ROOK + PROMOTED: _ORTHOGONALS,
}


def _targets(kind: int, colour: int) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], ...]:
    """Per square: the step targets and the rays of a piece of ``kind`` and ``colour``."""
    sign = 1 if colour == BLACK else -1
    table = []
    for square in range(81):
        row, col = divmod(square, 9)
        steps = tuple(
            (row + sign * dr) * 9 + col + dc
            for dr, dc in _STEPS.get(kind, ())
            if 0 <= row + sign * dr < 9 and 0 <= col + dc < 9
        )
        rays = []
        for dr, dc in _SLIDES.get(kind, ()):
            ray = []
            r, c = row + sign * dr, col + dc
            while 0 <= r < 9 and 0 <= c < 9:
                ray.append(r * 9 + c)
                r, c = r + sign * dr, c + dc
            if ray:
                rays.append(tuple(ray))
        table.append((steps, tuple(rays)))
    return tuple(table)


_KINDS: Final = (*range(1, 9), 9, 10, 11, 12, 14, 15)
_GEOMETRY: Final = {(kind, colour): _targets(kind, colour) for kind in _KINDS for colour in (BLACK, WHITE)}


def _king_winner(lower: tuple[int, ...], upper: tuple[int, ...]) -> int | None:
    """The side whose king alone is on the board (it took the other), or ``None``."""
    # Black's pieces are positive, White's negative; `in` on the board tuples scans at C speed.
    black_king = KING in lower or KING in upper
    white_king = -KING in lower or -KING in upper
    return None if black_king == white_king else (BLACK if black_king else WHITE)


def _base(kind: int) -> int:
    return kind - PROMOTED if kind > KING else kind


def _zone(square: int, colour: int) -> bool:
    return square // 9 <= 2 if colour == BLACK else square // 9 >= 6


def _dead(kind: int, square: int, colour: int) -> bool:
    """Whether an unpromoted ``kind`` on ``square`` could never move again.

    This is the forced promotion and dead-drop rule: P or L on the last rank, N on the last two.
    """
    rank = square // 9 if colour == BLACK else 8 - square // 9
    return (kind in (PAWN, LANCE) and rank == 0) or (kind == KNIGHT and rank <= 1)


# --- Actions and observations (docs/games/shogammon.md, "Actions and observations") ----------------------

ACTION_DIRECTIONS: Final = (
    (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-2, -1), (-2, 1),
)  # fmt: skip
"""The ten ways a board move travels, as (row, column) steps in the mover's view (row -1 is forward,
column +1 to the mover's right): the eight lines, then the knight's two jumps. A move's piece is the first
one met walking back from its destination against its direction, so the direction names it."""
HALF_PLANES: Final = 2 * len(ACTION_DIRECTIONS)
"""A board move's planes: its direction, plus 10 when it promotes (also each half of a point capture)."""
FIRST_DROP_PLANE: Final = HALF_PLANES
"""Planes 20 .. 26: drops of P, L, N, S, G, B, R."""
FIRST_PAIR_PLANE: Final = FIRST_DROP_PLANE + len(DROPPABLE)
"""Planes 27 .. 426: point captures, ``27 + 20 * first half + second half``."""
ACTION_PLANES: Final = FIRST_PAIR_PLANE + HALF_PLANES * HALF_PLANES
"""Every plane of 81 destinations: 20 board moves, 7 drops, 400 point captures."""
FIRST_LOSE_ACTION: Final = ACTION_PLANES * 81
"""Actions 34,587 .. 34,592: losing a die of face 1 .. 6 (``6:-``)."""
NUM_DISTINCT_ACTIONS: Final = FIRST_LOSE_ACTION + 6
"""34,593: every action id of a seat, whatever the settings."""

HAND_SIZES: Final = (0, 18, 4, 4, 4, 4, 2, 2)
"""How many pieces of each droppable kind a shogi set holds (the scale of the hand planes)."""
OBSERVATION_KINDS: Final = (*range(1, 13), 14, 15)
"""The 14 kinds a piece on the board can be, in plane order: P L N S G B R K +P +L +N +S +B +R."""
_KIND_PLANE: Final = {kind: index for index, kind in enumerate(OBSERVATION_KINDS)}
_KIND_NAMES: Final = tuple(("+" if kind > KING else "") + LETTERS[_base(kind)] for kind in OBSERVATION_KINDS)
OBSERVATION_PLANES: Final = (
    *(f"own {name} alone or below" for name in _KIND_NAMES),
    *(f"own {name} on top" for name in _KIND_NAMES),
    *(f"opponent's {name} alone or below" for name in _KIND_NAMES),
    *(f"opponent's {name} on top" for name in _KIND_NAMES),
    *(f"own {LETTERS[kind]} in hand" for kind in DROPPABLE),
    *(f"opponent's {LETTERS[kind]} in hand" for kind in DROPPABLE),
    *(f"unspent dice showing {face}" for face in range(1, 7)),
    "one die played",
    "observer to move",
    "observer is Black",
    "repetitions",
    "turn cap progress",
)
"""The 81 planes of the observation, each 9 x 9 in the observer's view (docs/games/shogammon.md)."""
_OWN_HAND_PLANE: Final = 4 * len(OBSERVATION_KINDS)
_DICE_PLANE: Final = _OWN_HAND_PLANE + 2 * len(DROPPABLE)


def _view(square: int, colour: int) -> int:
    """The square as ``colour`` sees it: the board turned half round for White, so that each plays up."""
    return square if colour == BLACK else 80 - square


def _direction_table(colour: int) -> tuple[int, ...]:
    """Per ``origin * 81 + to``: the index in :data:`ACTION_DIRECTIONS` of a move from origin to to, or -1."""
    table = []
    for origin in range(81):
        for to in range(81):
            row, col = divmod(_view(origin, colour), 9)
            to_row, to_col = divmod(_view(to, colour), 9)
            dr, dc = to_row - row, to_col - col
            if (dr, dc) in ACTION_DIRECTIONS[8:]:
                table.append(ACTION_DIRECTIONS.index((dr, dc)))
            elif (dr or dc) and (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                table.append(ACTION_DIRECTIONS.index(((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))))
            else:
                table.append(-1)
    return tuple(table)


def _source_table(colour: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per destination and direction: the squares a move's piece may come from, nearest first.

    A line's squares walking back from the destination (the piece is the first occupied one), or the one
    square of a knight's jump.
    """
    table = []
    for to in range(81):
        row, col = divmod(_view(to, colour), 9)
        per_direction = []
        for index, (dr, dc) in enumerate(ACTION_DIRECTIONS):
            squares = []
            r, c = row - dr, col - dc
            while 0 <= r < 9 and 0 <= c < 9:
                squares.append(_view(r * 9 + c, colour))
                if index >= 8:
                    break  # a jump has one square
                r, c = r - dr, c - dc
            per_direction.append(tuple(squares))
        table.append(tuple(per_direction))
    return tuple(table)


_DIRECTION_OF: Final = (_direction_table(BLACK), _direction_table(WHITE))
_SOURCES: Final = (_source_table(BLACK), _source_table(WHITE))
_ROLL_IDS: Final = {move: index for index, (move, _) in enumerate(ROLLS)}
_OPENING_IDS: Final = {move: index for index, (move, _) in enumerate(OPENING_ROLLS)}


# --- Settings ---------------------------------------------------------------------------------------------

_OFF_ON: Final = ("off", "on")

_SETTINGS: Final = (
    Setting(
        "die_map",
        "classic",
        "which die face moves which kinds (the original table is lost)",
        ("classic", "generals", "minors-split", "custom"),
    ),
    Setting(
        "custom_map",
        "1:P,2:LN,3:S,4:G,5:BR,6:K",
        "with die_map=custom: FACE:KINDS pairs separated by commas, every kind once, every face used",
    ),
    Setting(
        "strict_dice",
        "off",
        "backgammon's rule: only turns that use the most dice are legal",
        ("off", "on"),
    ),
    Setting(
        "opening_roll",
        "black",
        "who starts: Black rolls both dice, or each side throws one die and the higher plays both (ruling 2)",
        ("black", "backgammon"),
    ),
    Setting(
        "point_capture",
        "sequential",
        "the second capturer of a point is judged after the first has left its square, or in the position "
        "as it stands (ruling 17)",
        ("sequential", "simultaneous"),
    ),
    Setting(
        "drop_stack", "off", "a drop may land on an own single piece to make a point (ruling 20)", _OFF_ON
    ),
    Setting(
        "repetition",
        "none",
        "no repetition rule, or a draw when a position stands at the start of a turn for the fourth time "
        "(ruling 27)",
        ("none", "fourfold"),
    ),
    Setting("max_turns", 1000, "turns (rolls) before the game is cut and drawn; 0 for no cap", minimum=0),
)


def _read_custom_map(text: str) -> dict[int, int]:
    faces: dict[int, int] = {}
    for part in text.split(","):
        match = re.fullmatch(r"([1-6]):([PLNSGBRK]+)", part.strip())
        if match is None:
            raise SettingsError(f"custom_map parts are FACE:KINDS such as 5:BR, got {part!r}")
        for letter in match.group(2):
            kind = LETTERS.index(letter)
            if kind in faces:
                raise SettingsError(f"custom_map gives {letter} two faces")
            faces[kind] = int(match.group(1))
    if set(faces) != set(range(1, 9)) or set(faces.values()) != set(range(1, 7)):
        raise SettingsError("custom_map must give each of P L N S G B R K one face and use every face 1-6")
    return faces


class ShogammonGame(Game["ShogammonState"]):
    """Shogammon under fixed settings; see ``docs/games/shogammon.md``."""

    id = "shogammon"
    name = "Shogammon"
    version = 1
    blurb = "shogi played with two dice and stacked points"
    display_order = 4
    agent_levels: ClassVar[Mapping[str, str]] = {
        "easy": "kernel-alphabeta:depth=1,noise=0.25",
        "medium": "kernel-alphabeta:depth=1,noise=0.1",
        "hard": "kernel-alphabeta:nodes=300",
        "expert": "kernel-alphabeta:nodes=50000",
        "master": "kernel-alphabeta:nodes=1000000,value=learned,filter=6",
    }
    reference_levels: ClassVar[Mapping[str, str]] = {
        "medium": "greedy:noise=0.1",
        "hard": "greedy",
        "expert": "greedy",
        "master": "greedy",
    }
    move_theme_names: ClassVar[Mapping[str, str]] = {
        "point-capture": "two pieces take an enemy point together, with both dice",
        "capture": "a piece takes an enemy piece standing alone",
        "king-capture": "the enemy king is taken",
        "promotion": "a piece promotes",
        "drop": "a piece in hand is dropped onto the board",
        "point": "a piece stacks on one of its own, making a point",
    }
    view_module = "shogames.games.shogammon.view"
    render_module = "shogames.games.shogammon.render"
    kernel_module = "shogames.games.shogammon.kernel"
    setting_specs = _SETTINGS
    presets: ClassVar[Mapping[str, Mapping[str, SettingValue]]] = {
        "classic": {"die_map": "classic"},
        "generals": {"die_map": "generals"},
        "minors-split": {"die_map": "minors-split"},
        "strict": {"strict_dice": "on"},
        "backgammon": {"opening_roll": "backgammon", "strict_dice": "on"},
    }

    def __init__(self, preset: str | None = None, **settings: object) -> None:
        super().__init__(preset, **settings)
        name = str(self.settings["die_map"])
        self.faces = (
            _read_custom_map(str(self.settings["custom_map"])) if name == "custom" else DIE_MAPS[name]
        )
        self.strict = self.settings["strict_dice"] == "on"
        self.max_turns = int(self.settings["max_turns"])
        self.backgammon_opening = self.settings["opening_roll"] == "backgammon"
        self.simultaneous = self.settings["point_capture"] == "simultaneous"
        self.drop_stack = self.settings["drop_stack"] == "on"
        self.fourfold = self.settings["repetition"] == "fourfold"
        self.die_map_warning: str | None = None
        """Why the die map goes against the seed's prose (ruling 1), or ``None``; also given as a warning."""
        if name == "custom" and [kind for kind, face in self.faces.items() if face == 6] != [KING]:
            on_six = "".join(LETTERS[kind] for kind in range(1, 9) if self.faces[kind] == 6)
            self.die_map_warning = (
                f"custom_map gives face 6 to {on_six} and the king face {self.faces[KING]}: the seed says a "
                "6 forces the king to move, which needs the king alone on 6 (ruling 1)"
            )
            warnings.warn(self.die_map_warning, DieMapWarning, stacklevel=2)

    def face(self, kind: int) -> int:
        """The die face that moves or drops a piece of ``kind`` (promoted pieces keep their kind's face)."""
        return self.faces[_base(kind)]

    @property
    def player_names(self) -> tuple[str, ...]:
        """Black (sente) rolls first, then White."""
        return ("Black", "White")

    @property
    def max_game_length(self) -> int:
        """Three plies per turn of the cap: ``3 * max_turns``, a bound that games reach.

        A turn is a roll (the opening roll on turn 1 with ``opening_roll=backgammon``) and at most two
        moves: one per die, or one point capture for both, or a lost die and the other's move; a turn
        whose dice have no play ends with its roll. The game stops when ``max_turns`` turns are done, so
        it lasts at most ``3 * max_turns`` plies, and a game of 6-6 rolls whose kings step off and back
        lasts exactly that. ``max_turns=0`` has no cap and no bound (a game may never end): then 3
        million, the bound of a cap of a million turns, for the loops that need a number.
        """
        return 3 * (self.max_turns or 1_000_000)

    @property
    def num_distinct_actions(self) -> int:
        """34,593 for every setting: 81 destinations x 427 planes, then 6 lost dice.

        A board move is its destination, its direction (8 lines and 2 knight jumps: the piece is the first
        one met walking back against it) and its promotion: 20 planes. A drop is its destination and kind:
        7 planes. A point capture is its point and both halves (direction and promotion each): 400 planes.
        Losing a die is its face. All from the mover's view (``docs/games/shogammon.md``).
        """
        return NUM_DISTINCT_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        """The 21 rolls; 30 with ``opening_roll=backgammon`` (the opening roll's outcomes)."""
        return len(OPENING_ROLLS) if self.backgammon_opening else len(ROLLS)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """81 planes of the 9 x 9 board (:data:`OBSERVATION_PLANES`)."""
        return (len(OBSERVATION_PLANES), 9, 9)

    @property
    def observation_planes(self) -> tuple[str, ...]:
        """Pieces per kind, side and level, hands, dice, the turn, the repetitions and the cap's progress."""
        return OBSERVATION_PLANES

    @property
    def has_chance(self) -> bool:
        """The dice are chance outcomes."""
        return True

    def new_initial_state(self) -> ShogammonState:
        """The shogi start, Black to roll."""
        return self.state_from_text(f"{START_SFEN} - 0")

    def state_from_text(self, text: str) -> ShogammonState:
        """Read SFEN with points ``[XY]``, then the dice left and the ply (``docs/games/shogammon.md``).

        Raises:
            NotationError: the text is not a Shogammon position; the message names the faulty field.
        """
        return _read_position(self, text)

    def state_from_position(
        self, position: ShogammonPosition, *, history: Sequence[RepetitionKey] = ()
    ) -> ShogammonState:
        """The state of a position value (:attr:`ShogammonState.position`), trusted as it is.

        Nothing is checked, and the winner and the end are the position's: under ``repetition=fourfold``
        the position, when it stands at the start of a turn with the game going on, joins ``history``, and
        a fourth standing ends the game, as in play.

        Args:
            position: the position, of a game with these settings.
            history: under ``repetition=fourfold``, the earlier positions that stood at the start of a turn,
                oldest first (:attr:`ShogammonState.history`); none otherwise.
        """
        return ShogammonState(
            self,
            lower=position.lower,
            upper=position.upper,
            hands=position.hands,
            side=position.side,
            dice=position.dice,
            turns=position.turns,
            ply=position.ply,
            winner=position.winner,
            history=tuple(RepetitionKey(*key) for key in history),
            end=position.end,
        )


_Board = tuple[int, ...]


class RepetitionKey(NamedTuple):
    """What ``repetition=fourfold`` compares: a position standing at the start of a turn (ruling 27).

    Attributes:
        lower: the board's lower pieces, as :attr:`ShogammonPosition.lower`.
        upper: the board's upper pieces (tops of points), as :attr:`ShogammonPosition.upper`.
        hands: the pieces in hand, as :attr:`ShogammonPosition.hands`.
        side: the side to roll.
    """

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    hands: tuple[int, ...]
    side: int


@dataclass(frozen=True, slots=True)
class ShogammonPosition:
    """Every field of a Shogammon position, as plain values (:attr:`ShogammonState.position`).

    What :meth:`ShogammonState.to_text` writes, the reader reads, and the kernel's arrays hold;
    :meth:`ShogammonGame.state_from_position` makes the state again (with the history of earlier
    positions that ``repetition=fourfold`` needs, :attr:`ShogammonState.history`).

    Attributes:
        lower: per square (``9 * row + column``, see the module docstring), the single piece or the bottom
            of a point: a signed kind, Black positive and White negative, 0 for an empty square.
        upper: per square, the top of a point (signed kind), else 0.
        hands: 16 counts of pieces in hand, ``hands[8 * colour + kind]`` for the droppable kinds.
        side: the side to move or to roll, :data:`BLACK` or :data:`WHITE`.
        dice: the dice still to play, increasing: two faces, one, or none before the roll.
        turns: turns completed (a roll and its moves): what ``max_turns`` counts.
        ply: plies so far, rolls included.
        winner: the side that took the enemy king (the one whose king is on the board), or ``None``.
        end: ``"repetition"`` when a fourfold repetition ended the game, else ``None``. The game is also
            over with a winner, or once ``turns`` reaches ``max_turns`` (a draw).
    """

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    hands: tuple[int, ...]
    side: int
    dice: tuple[int, ...]
    turns: int
    ply: int
    winner: int | None = None
    end: str | None = None


class ShogammonState(State[ShogammonMove]):
    """A Shogammon position: the board with its points, both hands, the side to move and the dice left."""

    __slots__ = (
        "_dice",
        "_end",
        "_game",
        "_hands",
        "_history",
        "_legal",
        "_legal_set",
        "_lower",
        "_ply",
        "_side",
        "_stands",
        "_turns",
        "_upper",
        "_winner",
    )

    def __init__(
        self,
        game: ShogammonGame,
        *,
        lower: _Board,
        upper: _Board,
        hands: tuple[int, ...],
        side: int,
        dice: tuple[int, ...],
        turns: int,
        ply: int,
        winner: int | None,
        history: tuple[RepetitionKey, ...] = (),
        end: str | None = None,
    ) -> None:
        self._game = game
        self._lower = lower
        self._upper = upper
        self._hands = hands  # 16 counts: hands[8 * colour + kind]
        self._side = side
        self._dice = dice  # () before the roll; two faces before the first move; one face after it
        self._turns = turns
        self._ply = ply
        self._legal: tuple[ShogammonMove, ...] | None = None
        self._legal_set: frozenset[ShogammonMove] | None = None
        self._winner = winner
        # repetition=fourfold: the positions that stood at the start of each turn so far (ruling 27), this
        # one included when it stands at the start of a turn (``_stands``).
        self._history = history
        self._end = end
        self._stands = game.fourfold and not dice and winner is None and end is None
        if self._stands:
            standing = RepetitionKey(lower, upper, hands, side)
            self._history = (*history, standing)
            if self._history.count(standing) >= 4:
                self._end = "repetition"

    # --- Facts ------------------------------------------------------------------------------------------

    @property
    def game(self) -> ShogammonGame:
        """The game and its settings."""
        return self._game

    @property
    def position(self) -> ShogammonPosition:
        """Every field of the position as one value (:meth:`ShogammonGame.state_from_position` reads it)."""
        return ShogammonPosition(
            lower=self._lower,
            upper=self._upper,
            hands=self._hands,
            side=self._side,
            dice=self._dice,
            turns=self._turns,
            ply=self._ply,
            winner=self._winner,
            end=self._end,
        )

    @property
    def history(self) -> tuple[RepetitionKey, ...]:
        """Under ``repetition=fourfold``: the earlier positions that stood at a turn's start, oldest first.

        Every turn's start so far but this position's own (which counts as well when it stands at the
        start of a turn): what the fourfold repetition rule counts. Empty without the rule.
        """
        return self._history[:-1] if self._stands else self._history

    @property
    def ply(self) -> int:
        """Plies so far: rolls and moves."""
        return self._ply

    @property
    def side(self) -> int:
        """The side (colour) whose turn it is: :data:`BLACK` or :data:`WHITE`.

        Each seat plays its own side, with the same number: Black is seat 0, White seat 1.
        """
        return self._side

    @property
    def is_opening_roll(self) -> bool:
        """Whether the next move is the backgammon opening roll, each side throwing one die (ruling 2)."""
        return self._opening()

    @property
    def winner(self) -> int | None:
        """The seat that took the enemy king, or ``None`` (going on, or drawn by the turn cap)."""
        return self._winner

    @property
    def turns(self) -> int:
        """Turns completed (a turn is a roll and its moves): what ``max_turns`` counts."""
        return self._turns

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice still to play: two faces, one, or none before the roll."""
        return self._dice

    def piece_at(self, square: int) -> tuple[int, int]:
        """The (lower, upper) pieces on ``square``; 0 for none."""
        return self._lower[square], self._upper[square]

    def in_hand(self, colour: int, kind: int) -> int:
        """How many pieces of ``kind`` ``colour`` holds in hand."""
        return self._hands[8 * colour + kind]

    @property
    def to_move(self) -> int | None:
        """The side to move, CHANCE before a roll, ``None`` once a king is taken or the cap is reached."""
        if self.is_terminal():
            return None
        return self._side if self._dice else CHANCE

    def is_terminal(self) -> bool:
        """Over when a king is taken, at the turn cap, or (``repetition=fourfold``) at a fourth repetition."""
        return self._winner is not None or self._end is not None or self.is_truncated()

    def is_truncated(self) -> bool:
        """Whether ``max_turns`` turns were played without a king being taken."""
        return self._winner is None and self._end is None and 0 < self._game.max_turns <= self._turns

    def termination(self) -> str | None:
        """``normal`` (a king taken), ``repetition`` (``repetition=fourfold``), ``length cap`` or ``None``."""
        if self._end is not None:
            return self._end
        return super().termination()

    def _opening(self) -> bool:
        """Whether the next move is the backgammon opening roll (``opening_roll=backgammon``, ruling 2)."""
        return self._game.backgammon_opening and self._turns == 0 and not self._dice

    def returns(self) -> tuple[float, ...]:
        """+1 to the side that took the king, -1 to the other; 0 each otherwise."""
        if self._winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self._winner == BLACK else (-1.0, 1.0)

    def evaluate(self) -> tuple[float, ...]:
        """Material, with points and pieces in hand (docs/games/shogammon.md, "Evaluation").

        Each piece is worth :data:`PIECE_WORTH` of its kind (a pawn 1, a rook 10, a dragon 13), a piece
        in hand 10% more, and a piece sitting in a point (which only a two-piece capture can take) 20%
        more. The kings count nothing: taking one ends the game. The side to move's threats count too:
        each enemy piece standing alone that one of its pieces attacks may be taken if that piece's face
        shows (chance ``1 - ((6 - faces) / 6)²`` before the roll; 1 or 0 with the dice left known), and
        the best such capture adds its expected worth (plus a third of the next best). The difference
        ``d`` (Black minus White) gives ``m = 0.95 * tanh(d / 15)``; if the side to move attacks the enemy
        king with chance ``p``, its value is ``0.95 * p + (1 - p) * m``. Black gets the value, White its
        negative. Terminal states give their returns.
        """
        if self.is_terminal():
            return self.returns()
        worth = PIECE_WORTH
        score = 0.0
        for lower, upper in zip(self._lower, self._upper, strict=True):
            if lower:
                if upper:
                    score += POINT_BONUS * (_signed_worth(lower) + _signed_worth(upper))
                else:
                    score += _signed_worth(lower)
        hands = self._hands
        for kind in DROPPABLE:
            score += HAND_BONUS * worth[kind] * (hands[kind] - hands[8 + kind])
        king_threat, gain = self._threats(self._side)  # the side to move's captures may come at once
        score += gain if self._side == BLACK else -gain
        value = CONFIDENCE * math.tanh(score / MATERIAL_SCALE)
        if king_threat:
            mover = value if self._side == BLACK else -value
            mover = CONFIDENCE * king_threat + (1.0 - king_threat) * mover
            value = mover if self._side == BLACK else -mover
        return (value, -value)

    def _threats(self, colour: int) -> tuple[float, float]:
        """What ``colour`` may take with its dice: the chance to take the king, and an expected worth.

        The worth is that of its best capture of a lone piece, plus a third of the next best.
        """
        lower, upper, game = self._lower, self._upper, self._game
        sign = 1 if colour == BLACK else -1
        faces: dict[int, set[int]] = {}
        for origin in range(81):
            piece = upper[origin] or lower[origin]
            if piece * sign <= 0:
                continue
            kind = piece * sign
            face = game.face(kind)
            steps, rays = _GEOMETRY[(kind, colour)][origin]
            for to in steps:
                if lower[to] * sign < 0 and not upper[to]:
                    faces.setdefault(to, set()).add(face)
            for ray in rays:
                for to in ray:
                    if lower[to]:
                        if lower[to] * sign < 0 and not upper[to]:
                            faces.setdefault(to, set()).add(face)
                        break
        king = 0.0
        gains = [0.0, 0.0]
        dice = self._dice
        for square, able in faces.items():
            # Before the roll: the chance that one of the faces shows on one of the two dice.
            chance = float(bool(able.intersection(dice))) if dice else 1.0 - ((6 - len(able)) / 6) ** 2
            target = -sign * lower[square]
            if target == KING:
                king = chance
            else:
                gains.append(chance * PIECE_WORTH[target])
        gains.sort(reverse=True)
        return king, gains[0] + gains[1] / NEXT_BEST_SHARE

    def key(self) -> Hashable:
        """Board, hands, side and dice left, whether the opening roll is next and a repetition draw.

        Not the counters, and not the history of earlier positions (``repetition=fourfold``).
        """
        return (self._lower, self._upper, self._hands, self._side, self._dice, self._opening(), self._end)

    def chance_outcomes(self) -> tuple[tuple[ShogammonMove, Fraction], ...]:
        """The 21 rolls with their exact probabilities.

        Raises:
            ValueError: the state is not waiting for a roll.
        """
        if self.to_move != CHANCE:
            raise ValueError("chance_outcomes() asked of a Shogammon state that is not waiting for a roll")
        return OPENING_ROLLS if self._opening() else ROLLS

    # --- Move generation -------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[ShogammonMove, ...]:
        """Rolls before a roll; else the moves for the dice left (see ``docs/games/shogammon.md``)."""
        if self._legal is None:
            if self.is_terminal():
                self._legal = ()
            elif not self._dice:
                self._legal = tuple(move for move, _ in self.chance_outcomes())
            else:
                # A position read from text may hold dice with no play: losing them is then the only move.
                self._legal = tuple(self._turn_moves()) or (ShogammonMove(LOSE, die=self._dice[0]),)
        return self._legal

    def _turn_moves(self) -> list[ShogammonMove]:
        lower, upper, hands, side = self._lower, self._upper, self._hands, self._side
        game = self._game
        if len(self._dice) == 1:
            return _actions(game, lower, upper, hands, side, self._dice[0])[0]
        low, high = self._dice
        orders = [(low, high)] if low == high else [(low, high), (high, low)]
        moves: list[ShogammonMove] = []
        for first, second in orders:
            acts, halves = _actions(game, lower, upper, hands, side, first)
            pairs = _pairs(game, lower, upper, hands, side, halves, second)
            if acts or pairs:
                moves.extend(acts)
                moves.extend(pairs)
            else:
                moves.append(ShogammonMove(LOSE, die=first))
        if all(move.kind == LOSE for move in moves):
            return []  # neither die has a play: both are lost
        if low == high:
            moves = [move for move in moves if move.kind != LOSE] or moves
        if game.strict:
            uses = [self._dice_used(move) for move in moves]
            most = max(uses)
            moves = [move for move, used in zip(moves, uses, strict=True) if used == most]
        return moves

    def _dice_used(self, move: ShogammonMove) -> int:
        """How many dice a first move lets the turn use (strict_dice): a pair or a king capture uses both."""
        if move.kind == PAIR:
            return 2
        other = self._other_die(move.die)
        if move.kind == LOSE:
            after = self
            used = 0
        else:
            after = self._apply(move)
            if after._winner is not None:
                return 2
            used = 1
        return used + bool(
            _actions(self._game, after._lower, after._upper, after._hands, self._side, other)[0]
        )

    # --- Playing ---------------------------------------------------------------------------------------

    def _replace(self, **changes: object) -> ShogammonState:
        fields: dict[str, object] = {
            "lower": self._lower,
            "upper": self._upper,
            "hands": self._hands,
            "side": self._side,
            "dice": self._dice,
            "turns": self._turns,
            "ply": self._ply + 1,
            "winner": self._winner,
            "history": self._history,
        }
        fields.update(changes)
        if "lower" in changes:  # the board changed: a king may have been taken
            fields["winner"] = _king_winner(fields["lower"], fields["upper"])  # type: ignore[arg-type]
        return ShogammonState(self._game, **fields)  # type: ignore[arg-type]

    def _apply(self, move: ShogammonMove) -> ShogammonState:
        """The board after a move's pieces move (dice unchanged, ply + 1)."""
        lower, upper, hands = list(self._lower), list(self._upper), list(self._hands)
        colour = self._side
        if move.kind == ACT:
            _move_piece(lower, upper, hands, colour, move.origin, move.to, move.promote, move.drop)
        elif move.kind == PAIR:
            target = move.to
            first = _lift(lower, upper, move.origin, colour, move.promote)
            second = _lift(lower, upper, move.origin2, colour, move.promote2)
            for captured in (lower[target], upper[target]):
                if abs(captured) != KING:
                    hands[8 * colour + _base(abs(captured))] += 1
            lower[target], upper[target] = first, second
        return self._replace(lower=tuple(lower), upper=tuple(upper), hands=tuple(hands))

    def play_unchecked(self, move: ShogammonMove) -> ShogammonState:
        """The state after ``move`` (taken from :meth:`legal_moves`)."""
        if move.kind == ROLL:
            return self._settle(self._replace(dice=(move.die, move.die2)))
        if move.kind == OPEN:  # the higher die starts and plays both (its turn is turn 1)
            side = BLACK if move.die > move.die2 else WHITE
            dice = (min(move.die, move.die2), max(move.die, move.die2))
            return self._settle(self._replace(side=side, dice=dice))
        after = self._apply(move)
        if after._winner is not None or move.kind == PAIR or len(self._dice) == 1:
            return after._end_turn()
        return self._settle(after._replace(dice=(self._other_die(move.die),), ply=after._ply))

    def _other_die(self, die: int) -> int:
        """The die left when ``die`` of the two is played first."""
        return self._dice[1] if die == self._dice[0] else self._dice[0]

    def _end_turn(self) -> ShogammonState:
        if self._winner is not None:
            return self._replace(dice=(), ply=self._ply)
        return self._replace(side=1 - self._side, dice=(), turns=self._turns + 1, ply=self._ply)

    def _settle(self, state: ShogammonState) -> ShogammonState:
        """A turn whose dice have no play ends at once (the dice are lost)."""
        if not state.is_terminal() and state._dice and not state._turn_moves():
            return state._end_turn()
        return state

    # --- Actions and observations --------------------------------------------------------------------

    def move_to_action(self, move: ShogammonMove) -> int:
        """The action id of ``move`` from the mover's view (``docs/games/shogammon.md``).

        A roll's id is its index in :data:`ROLLS` (an opening roll's in :data:`OPENING_ROLLS`). A seat's
        move is ``plane * 81 + destination`` (the destination seen by the mover), where the plane is the
        direction plus 10 for a promotion (board moves), 19 plus the kind (drops), or 27 plus 20 times the
        first half plus the second (point captures, each half as a board move's plane); a lost die is
        :data:`FIRST_LOSE_ACTION` plus its face less one.

        Raises:
            ValueError: the game is over, or ``move`` cannot be a move here (a roll at a decision, a die
                that is not left, a board move that is not along a line or a knight's jump).
        """
        if self.is_terminal():
            raise ValueError("the game is over: no move has an action id")
        if not isinstance(move, ShogammonMove):
            raise ValueError(f"a Shogammon move is a ShogammonMove, got {move!r}")
        if not self._dice:
            action = (_OPENING_IDS if self._opening() else _ROLL_IDS).get(move)
            if action is None:
                raise ValueError(f"{move!r} is not a roll of this state, which waits for the dice")
            return action
        kind = move.kind
        if kind in (ROLL, OPEN):
            raise ValueError(f"{move!r} is a roll, but the dice are rolled")
        if move.die not in self._dice:
            raise ValueError(f"{move!r} plays a die that is not left (the dice left: {self._dice})")
        if kind == LOSE:
            return FIRST_LOSE_ACTION + move.die - 1
        to = move.to
        if not 0 <= to < 81:
            raise ValueError(f"{move!r} has no destination square")
        colour = self._side
        destination = to if colour == BLACK else 80 - to
        if kind == ACT:
            if move.drop:
                if move.drop not in DROPPABLE or move.origin != -1 or move.promote:
                    raise ValueError(f"{move!r} is not a drop")
                return (FIRST_DROP_PLANE - 1 + move.drop) * 81 + destination
            return _half_plane(move, move.origin, to, move.promote, colour) * 81 + destination
        if kind == PAIR:
            if move.to2 != to or move.drop:
                raise ValueError(f"{move!r} is not a point capture: both pieces go to one point")
            first = _half_plane(move, move.origin, to, move.promote, colour)
            second = _half_plane(move, move.origin2, to, move.promote2, colour)
            return (FIRST_PAIR_PLANE + HALF_PLANES * first + second) * 81 + destination
        raise ValueError(f"{move!r} is not a Shogammon move kind")

    def action_to_move(self, action: int) -> ShogammonMove:
        """The legal move with id ``action``, decoded directly (the inverse of :meth:`move_to_action`).

        A board move's piece is the first one met walking back from the destination against the
        direction; the second half of a point capture is found so after the first has left its square
        (or as the board stands, with ``point_capture=simultaneous``).

        Raises:
            IllegalMoveError: no legal move here has this id (the message lists the legal ones).
        """
        move = self._decode_action(action)
        if move is None:
            raise self._illegal_action(action)
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_moves())
        if move not in self._legal_set:
            raise self._illegal_action(action)
        return move

    def _decode_action(self, action: object) -> ShogammonMove | None:
        """The move ``action`` names here if it names one (legal or not), else ``None``."""
        if not isinstance(action, int) or isinstance(action, bool) or action < 0 or self.is_terminal():
            return None
        if not self._dice:
            rolls = OPENING_ROLLS if self._opening() else ROLLS
            return rolls[action][0] if action < len(rolls) else None
        if action >= FIRST_LOSE_ACTION:
            face = action - FIRST_LOSE_ACTION + 1
            return ShogammonMove(LOSE, die=face) if face <= 6 else None
        plane, destination = divmod(action, 81)
        colour = self._side
        to = destination if colour == BLACK else 80 - destination
        lower, upper, faces = self._lower, self._upper, self._game.faces
        sign = 1 if colour == BLACK else -1
        if FIRST_DROP_PLANE <= plane < FIRST_PAIR_PLANE:
            kind = plane - FIRST_DROP_PLANE + 1
            return ShogammonMove(ACT, faces[kind], -1, to, 0, kind)
        half = plane if plane < FIRST_DROP_PLANE else (plane - FIRST_PAIR_PLANE) // HALF_PLANES
        origin = _first_occupied(_SOURCES[colour][to][half % 10], lower, -1)
        piece = (upper[origin] or lower[origin]) if origin >= 0 else 0
        if piece * sign <= 0:
            return None
        die = faces[_base(piece * sign)]
        if plane < FIRST_DROP_PLANE:
            return ShogammonMove(ACT, die, origin, to, half // 10)
        if len(self._dice) != 2:
            return None
        second = (plane - FIRST_PAIR_PLANE) % HALF_PLANES
        # Sequential: the second piece is found after the first has left its square (emptied unless the
        # first was a point's top). Simultaneous: as the board stands.
        lifted = -1 if self._game.simultaneous or upper[origin] else origin
        origin2 = _first_occupied(_SOURCES[colour][to][second % 10], lower, lifted)
        if origin2 < 0:
            return None
        return ShogammonMove(
            PAIR, die, origin, to, half // 10, 0, self._other_die(die), origin2, to, second // 10
        )

    def observation_tensor(self, seat: int) -> list[float]:
        """The 81 planes of 9 x 9 that ``seat`` sees, its pieces first, the board turned to its view.

        White sees the board turned half round (square ``s`` at ``80 - s``), so each seat plays up. The
        planes are :data:`OBSERVATION_PLANES`: for each side (the observer's first) and level (a piece
        alone or under a point, then a point's top), 14 planes of kinds with 1 where one stands; each
        hand's count per kind over a shogi set's (18 pawns, 4 of L N S G, 2 of B R); the unspent dice per
        face (1 or 2, over 2); 1 after the turn's first die is played; 1 where the observer is to move
        or to roll; 1 where it plays Black; how often the position (board, hands, side to roll) has
        stood at a turn's start, this time included, over 4 (``repetition=fourfold``, else 0); and the
        turns played over ``max_turns`` (0 without a cap). Constant planes are filled.

        Raises:
            ValueError: ``seat`` is not 0 or 1.
        """
        self._check_seat(seat)
        tensor = [0.0] * (len(OBSERVATION_PLANES) * 81)
        sign = 1 if seat == BLACK else -1
        opponent = 2 * len(OBSERVATION_KINDS)
        top = len(OBSERVATION_KINDS)
        for square, below in enumerate(self._lower):
            if not below:
                continue
            cell = square if seat == BLACK else 80 - square
            side = 0 if below * sign > 0 else opponent
            tensor[(side + _KIND_PLANE[abs(below)]) * 81 + cell] = 1.0
            above = self._upper[square]
            if above:
                tensor[(side + top + _KIND_PLANE[abs(above)]) * 81 + cell] = 1.0
        constants: list[tuple[int, float]] = []
        for index, kind in enumerate(DROPPABLE):
            for colour, first in ((seat, _OWN_HAND_PLANE), (1 - seat, _OWN_HAND_PLANE + len(DROPPABLE))):
                count = self._hands[8 * colour + kind]
                if count:
                    constants.append((first + index, count / HAND_SIZES[kind]))
        constants.extend((_DICE_PLANE + face - 1, self._dice.count(face) / 2) for face in set(self._dice))
        flags = _DICE_PLANE + 6
        if len(self._dice) == 1:
            constants.append((flags, 1.0))
        if not self.is_terminal() and self._side == seat:
            constants.append((flags + 1, 1.0))
        if seat == BLACK:
            constants.append((flags + 2, 1.0))
        if self._history:
            standing = RepetitionKey(self._lower, self._upper, self._hands, self._side)
            constants.append((flags + 3, self._history.count(standing) / 4))
        if self._game.max_turns:
            constants.append((flags + 4, self._turns / self._game.max_turns))
        for plane, value in constants:
            tensor[plane * 81 : plane * 81 + 81] = [value] * 81
        return tensor

    # --- Text ------------------------------------------------------------------------------------------

    def to_text(self) -> str:
        """SFEN with points as ``[XY]`` (bottom X, top Y), then the dice left and the ply.

        The dice are ``-`` before the roll, ``1-6`` before the first move and ``6`` after it. Written from
        :attr:`position`.
        """
        return _position_text(self.position)

    def move_to_text(self, move: ShogammonMove) -> str:
        """The move in notation.

        ``1-6`` a roll, ``1:7g7f`` / ``5:8h2b+`` / ``1:P*5e`` a die's move, ``4:4f5e&3:6f5e`` a point capture,
        ``6:-`` a lost die.
        """
        if move.kind == ROLL:
            return f"{move.die}-{move.die2}"
        if move.kind == OPEN:
            return f"B{move.die}-W{move.die2}"
        if move.kind == LOSE:
            return f"{move.die}:-"
        first = _action_text(move.die, move.origin, move.to, move.promote, move.drop)
        if move.kind == PAIR:
            return first + "&" + _action_text(move.die2, move.origin2, move.to2, move.promote2, 0)
        return first

    def parse_move(self, text: str) -> ShogammonMove:
        """Read a move (USI-style squares; see :meth:`move_to_text`).

        Raises:
            NotationError: the text is not a Shogammon move.
            IllegalMoveError: the move is not legal here; the message says why.
        """
        move = _read_move(text)
        if move in self.legal_moves():
            return move
        raise IllegalMoveError(f"{text.strip()!r}: {self._why_illegal(move)}")

    def _why_illegal(self, move: ShogammonMove) -> str:
        if self.is_terminal():
            return "the game is over"
        if move.kind == OPEN and not self._game.backgammon_opening:
            return "the opening roll (B6-W1) is played only with opening_roll=backgammon"
        if move.kind == OPEN and not self._opening():
            return "the opening roll (B6-W1) is only the game's first move"
        if move.kind == OPEN and move.die == move.die2:
            return "equal dice in the opening roll are thrown again"
        if self._opening():
            return (
                "the game opens with one die each (opening_roll=backgammon): B6-W1 is Black's 6 and White's "
                "1, and the higher die starts and plays both"
            )
        if not self._dice:
            return "the dice are to be rolled: a roll such as 1-6 comes next"
        if move.kind in (ROLL, OPEN):
            return f"the dice are rolled; {'bw'[self._side]} plays {'-'.join(map(str, self._dice))}"
        if move.die not in self._dice:
            return f"the dice left are {', '.join(map(str, self._dice))}; there is no {move.die}"
        if move.kind == LOSE:
            return f"a die may be given up only when it has no play; the {move.die} has one"
        if move.kind == ACT and move.drop:
            if not self._hands[8 * self._side + move.drop]:
                return f"there is no {LETTERS[move.drop]} in hand"
            if self._game.face(move.drop) != move.die:
                return f"a {LETTERS[move.drop]} moves with a {self._game.face(move.drop)}, not a {move.die}"
            onto = "empty squares or own single pieces" if self._game.drop_stack else "empty squares"
            return (
                f"drops go onto {onto}, never a second own unpromoted pawn on a file, never where the piece "
                "could not move"
            )
        if move.kind == ACT:
            piece = self._upper[move.origin] or self._lower[move.origin]
            if not piece or (piece > 0) != (self._side == BLACK):
                return f"there is no piece of yours on {square_name(move.origin)} free to move"
            if self._game.face(abs(piece)) != move.die:
                return f"that piece moves with a {self._game.face(abs(piece))}, not a {move.die}"
            if self._upper[move.to] and self._lower[move.to] * piece > 0:
                return f"{square_name(move.to)} is already a point: no third piece"
        return (
            "no rule allows it here (an enemy point needs two of your pieces with both dice; a die that can "
            "be played must be)"
        )

    def move_themes(self, move: ShogammonMove) -> tuple[str, ...]:
        """What the move takes or makes, as themes.

        ``point-capture``, ``capture`` or ``king-capture``, ``promotion``, ``drop`` and ``point`` (a piece
        stacked on its own).
        """
        if move.kind == PAIR:
            themes = ["point-capture"]
            if abs(self._lower[move.to]) == KING or abs(self._upper[move.to]) == KING:
                themes.append("king-capture")
            if move.promote or move.promote2:
                themes.append("promotion")
            return tuple(themes)
        if move.kind != ACT:
            return ()
        if move.drop:
            return ("drop", "point") if self._lower[move.to] else ("drop",)
        sign = 1 if self._side == BLACK else -1
        themes = []
        target = self._lower[move.to]
        if target * sign < 0:
            themes.append("king-capture" if abs(target) == KING else "capture")
        elif target:
            themes.append("point")
        if move.promote:
            themes.append("promotion")
        return tuple(themes)

    def diagram(self) -> str:
        """The board (points as [XY], bottom first), both hands and the dice left."""
        lines = ["    " + "".join(f"{name:^6}" for name in FILE_NAMES)]
        for row in range(9):
            cells = []
            for col in range(9):
                square = row * 9 + col
                token = _token(self._lower[square]) if self._lower[square] else "."
                if self._upper[square]:
                    token = f"[{token}{_token(self._upper[square])}]"
                cells.append(f"{token:^6}")
            lines.append(f"  {RANK_NAMES[row]} " + "".join(cells))
        for colour, name in ((BLACK, "Black (uppercase)"), (WHITE, "White (lowercase)")):
            held = [
                f"{LETTERS[kind]}x{self._hands[8 * colour + kind]}"
                for kind in DROPPABLE
                if self._hands[8 * colour + kind]
            ]
            lines.append(f"  {name} hand: {' '.join(held) or '-'}")
        faces = " ".join(
            f"{face}:{''.join(LETTERS[kind] for kind in range(1, 9) if self._game.faces[kind] == face)}"
            for face in range(1, 7)
        )
        lines.append(f"  die map: {faces}")
        if self._winner is not None:
            lines.append(f"  {('Black', 'White')[self._winner]} has taken the king and won.")
        elif self.is_truncated():
            lines.append("  Drawn: the turn cap was reached.")
        elif self._dice:
            lines.append(
                f"  {('Black', 'White')[self._side]} to move; dice left: {' '.join(map(str, self._dice))}"
            )
        else:
            lines.append(f"  {('Black', 'White')[self._side]} to roll.")
        return "\n".join(lines)


# --- Generation helpers ---------------------------------------------------------------------------------


def _token(piece: int) -> str:
    kind = abs(piece)
    letter = ("+" if kind > KING else "") + LETTERS[_base(kind)]
    return letter if piece > 0 else letter.lower()


def _action_text(die: int, origin: int, to: int, promote: int, drop: int) -> str:
    if drop:
        return f"{die}:{LETTERS[drop]}*{square_name(to)}"
    return f"{die}:{square_name(origin)}{square_name(to)}{'+' if promote else ''}"


def _promotions(kind: int, origin: int, to: int, colour: int) -> tuple[int, ...]:
    """The promote flags allowed for ``kind`` moving from ``origin`` to ``to``: (0,), (1,) or (0, 1)."""
    if kind in (GOLD, KING) or kind > KING or not (_zone(origin, colour) or _zone(to, colour)):
        return (0,)
    return (1,) if _dead(kind, to, colour) else (0, 1)


def _actions(
    game: ShogammonGame, lower: _Board, upper: _Board, hands: tuple[int, ...], colour: int, die: int
) -> tuple[list[ShogammonMove], list[ShogammonMove]]:
    """The single moves and drops for ``die``, and separately the half moves onto enemy points."""
    acts: list[ShogammonMove] = []
    halves: list[ShogammonMove] = []
    sign = 1 if colour == BLACK else -1
    for origin in range(81):
        piece = upper[origin] or lower[origin]
        if piece * sign <= 0 or game.face(abs(piece)) != die:
            continue
        kind = abs(piece)
        steps, rays = _GEOMETRY[(kind, colour)][origin]
        targets = list(steps)
        for ray in rays:
            for square in ray:
                targets.append(square)
                if lower[square]:
                    break
        for to in targets:
            below, above = lower[to], upper[to]
            if above:
                if below * sign < 0:  # an enemy point: half of a point capture
                    halves.extend(
                        ShogammonMove(PAIR, die, origin, to, flag)
                        for flag in _promotions(kind, origin, to, colour)
                    )
                continue
            acts.extend(
                ShogammonMove(ACT, die, origin, to, flag) for flag in _promotions(kind, origin, to, colour)
            )
    for kind in DROPPABLE:
        if not hands[8 * colour + kind] or game.face(kind) != die:
            continue
        for to in range(81):
            if lower[to] and not (game.drop_stack and lower[to] * sign > 0 and not upper[to]):
                continue  # drops go onto empty squares (drop_stack=on: or onto an own single piece)
            if _dead(kind, to, colour):
                continue
            if kind == PAWN and _pawn_on_file(lower, upper, to % 9, sign):
                continue
            acts.append(ShogammonMove(ACT, die, -1, to, 0, kind))
    return acts, halves


def _half_plane(move: ShogammonMove, origin: int, to: int, promote: int, colour: int) -> int:
    """The plane of one piece's move from ``origin`` to ``to``: its direction, plus 10 if it promotes.

    Raises:
        ValueError: the squares are not on one line or a knight's jump apart.
    """
    direction = _DIRECTION_OF[colour][origin * 81 + to] if 0 <= origin < 81 and promote in (0, 1) else -1
    if direction < 0:
        raise ValueError(f"{move!r} is not a move of a piece along a line or a knight's jump")
    return direction + len(ACTION_DIRECTIONS) * promote


def _first_occupied(squares: tuple[int, ...], lower: _Board, lifted: int) -> int:
    """The first of ``squares`` with a piece (``lifted`` counts as empty), or -1."""
    for square in squares:
        if lower[square] and square != lifted:
            return square
    return -1


def _pawn_on_file(lower: _Board, upper: _Board, col: int, sign: int) -> bool:
    """Whether the side of ``sign`` has an unpromoted pawn on file ``col``, alone, on top or underneath."""
    return any(lower[row * 9 + col] == sign * PAWN or upper[row * 9 + col] == sign * PAWN for row in range(9))


def _pairs(
    game: ShogammonGame,
    lower: _Board,
    upper: _Board,
    hands: tuple[int, ...],
    colour: int,
    halves: list[ShogammonMove],
    second: int,
) -> list[ShogammonMove]:
    """Point captures: each half for the first die, completed by another piece with the second die.

    The second piece moves after the first is lifted off its square (rulings §3, ruling 17); with
    ``point_capture=simultaneous`` both are judged in the position as it stands, so the second is another
    piece that reaches the point already.
    """
    pairs: list[ShogammonMove] = []
    standing = _actions(game, lower, upper, hands, colour, second)[1] if game.simultaneous else []
    for half in halves:
        if game.simultaneous:
            seconds = [other for other in standing if other.origin != half.origin]
        else:
            lifted_lower, lifted_upper = list(lower), list(upper)
            _lift(lifted_lower, lifted_upper, half.origin, colour, 0)
            _, seconds = _actions(game, tuple(lifted_lower), tuple(lifted_upper), hands, colour, second)
        pairs.extend(
            half._replace(die2=second, origin2=other.origin, to2=other.to, promote2=other.promote)
            for other in seconds
            if other.to == half.to
        )
    return pairs


def _lift(lower: list[int], upper: list[int], origin: int, colour: int, promote: int) -> int:
    """Take the mobile piece off ``origin`` (the top of a point, else the single piece) and return it."""
    if upper[origin]:
        piece, upper[origin] = upper[origin], 0
    else:
        piece, lower[origin] = lower[origin], 0
    if promote:
        piece += PROMOTED if piece > 0 else -PROMOTED
    return piece


def _move_piece(
    lower: list[int],
    upper: list[int],
    hands: list[int],
    colour: int,
    origin: int,
    to: int,
    promote: int,
    drop: int,
) -> None:
    """Play one board move or drop on the lists: place, stack on an own single, or capture an enemy single."""
    sign = 1 if colour == BLACK else -1
    if drop:
        if lower[to]:  # drop_stack=on: onto an own single piece, making a point
            upper[to] = sign * drop
        else:
            lower[to] = sign * drop
        hands[8 * colour + drop] -= 1
        return
    piece = _lift(lower, upper, origin, colour, promote)
    if not lower[to]:
        lower[to] = piece
    elif lower[to] * sign > 0:
        upper[to] = piece
    else:
        captured = abs(lower[to])
        if captured != KING:
            hands[8 * colour + _base(captured)] += 1
        lower[to] = piece


_ACTION_RE: Final = r"([1-6])\s*:\s*(?:([PLNSGBR])\s*\*\s*([1-9][a-i])|([1-9][a-i])\s*([1-9][a-i])\s*(\+?))"
_MOVE_RE: Final = re.compile(
    rf"^\s*(?:(?P<open>b\s*[1-6]\s*-\s*w\s*[1-6])|(?P<roll>[1-6]\s*-\s*[1-6])|(?P<lose>[1-6])\s*:\s*-|(?P<first>{_ACTION_RE})(?:\s*&\s*(?P<second>{_ACTION_RE}))?)\s*$",
    re.IGNORECASE,
)


def _read_action(text: str) -> tuple[int, int, int, int, int]:
    match = re.fullmatch(r"\s*" + _ACTION_RE + r"\s*", text, re.IGNORECASE)
    assert match is not None
    die = int(match.group(1))
    if match.group(2):
        return die, -1, parse_square(match.group(3).lower()), 0, LETTERS.index(match.group(2).upper())
    return (
        die,
        parse_square(match.group(4).lower()),
        parse_square(match.group(5).lower()),
        int(bool(match.group(6))),
        0,
    )


def _read_move(text: str) -> ShogammonMove:
    match = _MOVE_RE.match(text)
    if match is None:
        raise NotationError(
            f"{text!r} is not a Shogammon move; expected a roll such as 1-6, a die and a move such as "
            "1:7g7f, 5:8h2b+ or 1:P*5e, a point capture such as 4:4f5e&3:6f5e, or a lost die such as 6:-"
        )
    if match.group("open"):
        black, white = (int(face) for face in re.findall(r"[1-6]", match.group("open")))
        return ShogammonMove(OPEN, die=black, die2=white)
    if match.group("roll"):
        low, high = sorted(int(face) for face in re.findall(r"[1-6]", match.group("roll")))
        return ShogammonMove(ROLL, die=low, die2=high)
    if match.group("lose"):
        return ShogammonMove(LOSE, die=int(match.group("lose")))
    die, origin, to, promote, drop = _read_action(match.group("first"))
    if match.group("second") is None:
        return ShogammonMove(ACT, die, origin, to, promote, drop)
    die2, origin2, to2, promote2, drop2 = _read_action(match.group("second"))
    if drop or drop2:
        raise NotationError(
            f"{text!r}: a point capture is two board moves; a drop cannot take part (ruling 19)"
        )
    return ShogammonMove(PAIR, die, origin, to, promote, 0, die2, origin2, to2, promote2)


def _position_text(position: ShogammonPosition) -> str:
    """The text of a position value; see :meth:`ShogammonState.to_text`."""
    p = position
    rows = []
    for row in range(9):
        text, gap = "", 0
        for col in range(9):
            square = row * 9 + col
            if not p.lower[square]:
                gap += 1
                continue
            token = _token(p.lower[square])
            if p.upper[square]:
                token = f"[{token}{_token(p.upper[square])}]"
            text += (str(gap) if gap else "") + token
            gap = 0
        rows.append(text + (str(gap) if gap else ""))
    hand = ""
    for colour in (BLACK, WHITE):
        for kind in (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN):
            count = p.hands[8 * colour + kind]
            if count:
                letter = LETTERS[kind] if colour == BLACK else LETTERS[kind].lower()
                hand += (str(count) if count > 1 else "") + letter
    dice = "-" if not p.dice else "-".join(map(str, p.dice))
    end = " end=repetition" if p.end == "repetition" else ""
    return f"{'/'.join(rows)} {'bw'[p.side]} {hand or '-'} {p.turns + 1} {dice} {p.ply}{end}"


def _read_position(game: ShogammonGame, text: str) -> ShogammonState:
    """Read position text; see :meth:`ShogammonGame.state_from_text`."""
    fields = text.split()
    end = None
    if len(fields) == 7 and fields[6] == "end=repetition":
        if not game.fourfold:
            raise NotationError("end=repetition needs repetition=fourfold: there is no repetition rule here")
        end = "repetition"
        if fields[4] != "-":
            raise NotationError("a repetition ends the game at the start of a turn: the dice are -")
    elif len(fields) != 6:
        raise NotationError(
            f"a Shogammon position has 6 fields 'board side hand turn dice ply' (then end=repetition when a "
            f"four-fold repetition ended it), got {len(fields)} in {shown(text)}"
        )
    rows = fields[0].split("/")
    if len(rows) != 9:
        raise NotationError(f"the board has 9 ranks separated by '/', got {len(rows)}")
    lower, upper = [0] * 81, [0] * 81
    token_re = re.compile(
        r"\[(\+?[PLNSGBRKplnsgbrk])(\+?[PLNSGBRKplnsgbrk])\]|(\+?[PLNSGBRKplnsgbrk])|([1-9])"
    )
    for row, row_text in enumerate(rows):
        col = 0
        position = 0
        while position < len(row_text):
            match = token_re.match(row_text, position)
            if match is None:
                raise NotationError(
                    f"rank {RANK_NAMES[row]} ({row_text!r}): cannot read {row_text[position:]!r}"
                )
            position = match.end()
            if match.group(4):
                col += int(match.group(4))
                continue
            if col >= 9:
                raise NotationError(f"rank {RANK_NAMES[row]} ({row_text!r}) has more than 9 squares")
            if match.group(3):
                lower[row * 9 + col] = _read_piece(match.group(3))
            else:
                bottom, top = _read_piece(match.group(1)), _read_piece(match.group(2))
                if (bottom > 0) != (top > 0):
                    raise NotationError(
                        f"the point {match.group(0)} mixes colours; a point is two pieces of one side"
                    )
                lower[row * 9 + col], upper[row * 9 + col] = bottom, top
            col += 1
        if col != 9:
            raise NotationError(f"rank {RANK_NAMES[row]} ({row_text!r}) has {col} squares, not 9")
    for square in range(81):
        for piece in (lower[square], upper[square]):
            if piece and abs(piece) <= KING and _dead(abs(piece), square, BLACK if piece > 0 else WHITE):
                raise NotationError(
                    f"an unpromoted {_token(piece)} on {square_name(square)} could never move"
                )
    kings = [piece for piece in (*lower, *upper) if abs(piece) == KING]
    if len(kings) > 2 or not kings or len(set(kings)) != len(kings):
        raise NotationError("a position has one king per side (one may be missing once it has been taken)")
    if fields[1] not in ("b", "w"):
        raise NotationError(f"the side to move is b or w, got {fields[1]!r}")
    hands = [0] * 16
    if fields[2] != "-":
        if not re.fullmatch(r"([0-9]*[PLNSGBRplnsgbr])+", fields[2]):
            raise NotationError(f"the hand is SFEN pieces such as 2P1l, or -, got {shown(fields[2])}")
        for count, letter in re.findall(r"([0-9]*)([PLNSGBRplnsgbr])", fields[2]):
            colour = BLACK if letter.isupper() else WHITE
            number = read_number(count, "a hand count") if count else 1
            if number < 1:
                raise NotationError(f"a hand count is 1 or more, got {count}{letter}")
            hands[8 * colour + LETTERS.index(letter.upper())] += number
    counts = dict.fromkeys(range(1, 9), 0)
    for piece in (*lower, *upper):
        if piece:
            counts[_base(abs(piece))] += 1
    for kind in DROPPABLE:
        counts[kind] += hands[8 * BLACK + kind] + hands[8 * WHITE + kind]
    for kind, most in ((PAWN, 18), (LANCE, 4), (KNIGHT, 4), (SILVER, 4), (GOLD, 4), (BISHOP, 2), (ROOK, 2)):
        if counts[kind] > most:
            raise NotationError(f"the position has {counts[kind]} {LETTERS[kind]}; a shogi set has {most}")
    if read_number(fields[3], "the turn number") < 1:
        raise NotationError(f"the turn number is a whole number from 1, got {fields[3]!r}")
    dice: tuple[int, ...] = ()
    if fields[4] != "-":
        if not re.fullmatch(r"[1-6](-[1-6])?", fields[4]):
            raise NotationError(f"the dice left are -, a roll such as 1-6, or one face, got {fields[4]!r}")
        dice = tuple(sorted(int(face) for face in fields[4].split("-")))
    ply = read_number(fields[5], "the ply")
    parsed = ShogammonPosition(
        lower=tuple(lower),
        upper=tuple(upper),
        hands=tuple(hands),
        side=BLACK if fields[1] == "b" else WHITE,
        dice=dice,
        turns=read_number(fields[3], "the turn number") - 1,
        ply=ply,
        winner=_king_winner(tuple(lower), tuple(upper)),
        end=end,
    )
    return game.state_from_position(parsed)


def _read_piece(token: str) -> int:
    promoted = token.startswith("+")
    letter = token[-1]
    kind = LETTERS.index(letter.upper())
    if promoted:
        if kind in (GOLD, KING):
            raise NotationError(f"{token!r}: gold and king never promote")
        kind += PROMOTED
    return kind if letter.isupper() else -kind
