"""Shobu (Manolis Vranas & Jamie Sajdak): four 4×4 boards, a passive move and a matching aggressive push.

Rules source: the publisher's rule sheet (``shared/seeds/002_b0206e2a9dbc760f.txt``) as read by our rulings
(``shared/rules/shobu.md``); ``docs/games/shobu.md`` tells the rules in our words.

Boards and squares
------------------
The four boards are numbered in the order of the position text::

    +------+------+          board 0  WD  White's dark homeboard   (top left)
    |  WD  |  WL  |  White   board 1  WL  White's light homeboard  (top right)
    +------+------+          board 2  BD  Black's dark homeboard   (bottom left)
    |  BD  |  BL  |  Black   board 3  BL  Black's light homeboard  (bottom right)
    +------+------+

Every board has files a–d (Black's left to right) and ranks 1–4 (south to north); directions are shared
by all four boards. Square ``file + 4 * rank`` of board ``b`` (file and rank counted from 0) is bit
``16 * b + file + 4 * rank`` of a 64-bit int, so one int per colour holds the whole position::

    rank 4 | 12 13 14 15 |
    rank 3 |  8  9 10 11 |     (+16 for WL, +32 for BD, +48 for BL)
    rank 2 |  4  5  6  7 |
    rank 1 |  0  1  2  3 |
             a  b  c  d

Moves
-----
A move is a whole turn, a :class:`ShobuMove`: the passive stone's square, the aggressive stone's square
(both as bits 0–63, which name the board too), the direction (0–7, :data:`DIRECTION_NAMES`) and the
distance (1 or 2). Text: ``BDa1-a3 WLb1-b3``: the passive board and move, then the aggressive board and
move; the aggressive destination may be left out (``BDa1-a3 WLb1``) since it repeats the passive vector.
When the ``no_turn=pass`` setting applies, a side with no legal turn plays :data:`PASS_MOVE` (``pass``).

Actions and observations
------------------------
A turn is one action: its two halves are not two plies, because the passive move is legal only when an
aggressive move can repeat it, so half a turn is not a position either side can stand in (and a policy
over whole turns stays small). Action ids are counted in the **mover's view**: Black sees the table as
it is; White sees it turned half round, which maps bit ``b`` to ``63 - b`` and direction ``d`` to
``(d + 4) % 8``, so that every side plays up from its homeboards, the two bottom boards (the view's
boards 2 and 3). In that view a turn is (direction ``d``, distance ``k``, the passive stone's square on
homeboard ``h`` (0 left, 1 right), the aggressive stone's square on the other column's board ``v``
(0 the mover's own homeboard, 1 the opponent's)); only squares from which ``k`` steps in direction ``d``
stay on the board count, ``n(d, k)`` of them (12, 9, 8 or 4: orthogonal or diagonal, one or two steps).
With the groups ``g = 2 * d + k - 1`` in order::

    id = offset[g] + (h * n + i) * 2 * n + v * n + j     offset[g] = sum of 4 * n ** 2 over earlier groups

where ``i`` and ``j`` number the passive and aggressive squares among the group's squares (board squares
ascending). That makes :data:`TURN_ACTIONS` = 4 x 4 x (12² + 9² + 8² + 4²) = 4,880 ids, each the turn of
some position; under ``no_turn=pass`` the pass is id 4,880 (4,881 actions). The observation is
``(4, 8, 8)``: the table in the observer's view, rows from the observer's side, columns left to right
(the own stones, the opponent's, ones when the observer is to move, the turns played over ``max_turns``).

Speed: move generation works on whole bitboards, one shift per direction and distance for all four
boards at once (masks keep stones from leaving their board), and :meth:`ShobuState.count_legal_moves`
counts turns as sums of products of popcounts without building them.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import ClassVar, Final, NamedTuple

from shogames.core.errors import IllegalMoveError, NotationError
from shogames.core.notation import read_number
from shogames.core.protocol import Game, State
from shogames.core.settings import Setting, SettingValue

BLACK: Final = 0
"""Seat of Black, who moves first."""
WHITE: Final = 1
"""Seat of White."""

BOARD_NAMES: Final = ("WD", "WL", "BD", "BL")
"""The boards' names in board-number order: owner (White/Black) then colour (Dark/Light)."""
FILE_NAMES: Final = "abcd"
"""Files from Black's left to right."""
DIRECTION_NAMES: Final = (
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
)
"""The eight directions in direction-number order."""
_DIRECTION_VECTORS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

START_POSITION: Final = "wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb b"
"""The position text of the start: on every board Black on rank 1 and White on rank 4, Black to move."""

_FULL: Final = (1 << 64) - 1
_BOARD_MASKS: Final = tuple(0xFFFF << (16 * board) for board in range(4))
_HOMEBOARDS: Final = ((2, 3), (0, 1))  # per seat: Black owns BD, BL; White owns WD, WL
_BOARD_COLOUR: Final = (0, 1, 0, 1)  # 0 dark, 1 light
BOARD_WORTH: Final = (0, 6, 10, 13, 15)
"""The evaluation's worth of a board holding 0, 1, 2, 3 or 4 of a side's stones (the kernel uses it too)."""
VALUE_SCALE: Final = 0.95
"""The evaluation is ``VALUE_SCALE * tanh(d / MATERIAL_SPREAD)``, below a won game's 1 in size."""
MATERIAL_SPREAD: Final = 12
"""The material difference ``d`` (in :data:`BOARD_WORTH` units) at which the evaluation's tanh is 1."""


def _on_board_mask(df: int, dr: int, steps: int) -> int:
    """Bits p (on any board) such that p moved `steps` times by (df, dr) stays on its board."""
    mask = 0
    for board in range(4):
        for rank in range(4):
            for file in range(4):
                if 0 <= file + steps * df < 4 and 0 <= rank + steps * dr < 4:
                    mask |= 1 << (16 * board + 4 * rank + file)
    return mask


_DELTAS: Final = tuple(df + 4 * dr for df, dr in _DIRECTION_VECTORS)
# Per direction, for k = 1, 2, 3 steps: (shift, mask). Shifting a bitboard right by `shift` (left when
# negative) and masking gives the set of squares p whose square k steps away is in the bitboard.
_RAYS: Final = tuple(
    tuple((_DELTAS[direction] * steps, _on_board_mask(df, dr, steps)) for steps in (1, 2, 3))
    for direction, (df, dr) in enumerate(_DIRECTION_VECTORS)
)
# Per seat, per homeboard: (passive board mask, mask of the two boards of the other colour).
_PASSIVE_PLANS: Final = tuple(
    tuple(
        (
            _BOARD_MASKS[board],
            sum(_BOARD_MASKS[b] for b in range(4) if _BOARD_COLOUR[b] != _BOARD_COLOUR[board]),
        )
        for board in _HOMEBOARDS[seat]
    )
    for seat in (BLACK, WHITE)
)


def _towards(bits: int, shift: int, mask: int) -> int:
    """The squares p whose square `shift` bits away (on the same board) is in `bits`."""
    return ((bits >> shift) if shift > 0 else (bits << -shift)) & mask


def _sources(own: int, opp: int, direction: int) -> tuple[int, int, int, int]:
    """Where passive and aggressive moves can start, in one direction, for distances 1 and 2.

    Returns (passive 1, aggressive 1, passive 2, aggressive 2) as bitboards over all four boards; the
    caller restricts them to the boards the rules allow.
    """
    (s1, m1), (s2, m2), (s3, m3) = _RAYS[direction]
    occupied = own | opp
    empty = _FULL ^ occupied
    empty1 = _towards(empty, s1, m1)
    opp1 = _towards(opp, s1, m1)
    opp2 = _towards(opp, s2, m2)
    passive1 = own & empty1
    passive2 = passive1 & _towards(empty, s2, m2)
    # One step: onto an empty square, or onto an opponent whose next square is empty or off the board.
    aggressive1 = own & (empty1 | (opp1 & ~_towards(occupied, s2, m2)))
    # Two steps: no own stone on the path, at most one opponent, and a pushed stone needs room beyond.
    aggressive2 = (
        own
        & m2
        & ~(_towards(own, s1, m1) | _towards(own, s2, m2))
        & ~(opp1 & opp2)
        & (~(opp1 | opp2) | ~_towards(occupied, s3, m3))
    )
    return passive1, aggressive1, passive2, aggressive2


def _iter_bits(bits: int) -> list[int]:
    """The indices of the set bits, lowest first."""
    squares = []
    while bits:
        low = bits & -bits
        squares.append(low.bit_length() - 1)
        bits ^= low
    return squares


def count_turns(own: int, opp: int, seat: int) -> int:
    """How many legal turns `seat` has with stones `own` against `opp`, counted without generating them."""
    plans = _PASSIVE_PLANS[seat]
    total = 0
    for direction in range(8):
        passive1, aggressive1, passive2, aggressive2 = _sources(own, opp, direction)
        for passive_mask, aggressive_mask in plans:
            count = (passive1 & passive_mask).bit_count()
            if count:
                total += count * (aggressive1 & aggressive_mask).bit_count()
            count = (passive2 & passive_mask).bit_count()
            if count:
                total += count * (aggressive2 & aggressive_mask).bit_count()
    return total


def has_turn(own: int, opp: int, seat: int) -> bool:
    """Whether `seat` has a legal turn: :func:`count_turns` that stops at the first one found."""
    plans = _PASSIVE_PLANS[seat]
    for direction in range(8):
        passive1, aggressive1, passive2, aggressive2 = _sources(own, opp, direction)
        for passive_mask, aggressive_mask in plans:
            if passive1 & passive_mask and aggressive1 & aggressive_mask:
                return True
            if passive2 & passive_mask and aggressive2 & aggressive_mask:
                return True
    return False


class ShobuMove(NamedTuple):
    """One turn: a passive move and the aggressive move that repeats its direction and distance.

    Attributes:
        passive_from: the passive stone's square, a bit 0–63 (board ``passive_from // 16``).
        aggressive_from: the aggressive stone's square, a bit 0–63.
        direction: 0–7, an index of :data:`DIRECTION_NAMES`.
        distance: 1 or 2 squares (0 for :data:`PASS_MOVE`).
    """

    passive_from: int
    aggressive_from: int
    direction: int
    distance: int

    @property
    def is_pass(self) -> bool:
        """Whether this is the pass of a side with no legal turn (``no_turn=pass``)."""
        return self.distance == 0


PASS_MOVE: Final = ShobuMove(-1, -1, 0, 0)
"""The move of a side with no legal turn when the ``no_turn`` setting is ``pass``."""


class ShobuPosition(NamedTuple):
    """Everything a Shobu position holds, as one plain value (what the text, the kernel and the views use).

    :attr:`ShobuState.position` gives it (with the end of the game judged) and
    :meth:`ShobuGame.state_from_position` builds a state from it.

    Attributes:
        black: Black's stones as a 64-bit bitboard: bit ``16 * board + 4 * rank + file`` (file and rank
            counted from 0, boards numbered as :data:`BOARD_NAMES`) is set where a Black stone stands.
        white: White's stones, the same way.
        side: the side (seat) to move, :data:`BLACK` or :data:`WHITE`; also once the game is over, the
            side whose turn it would be.
        turns: turns played so far (what the ``max_turns`` setting counts).
        winner: the seat that has won, or ``None`` while the game goes on (or once it is drawn by the
            length cap, which follows from ``turns`` and the settings).
        no_turn: ``True`` when ``winner`` won because the side to move had no legal turn (the setting
            ``no_turn=lose``); ``False`` when the winner cleared a board, or there is no winner.
    """

    black: int
    white: int
    side: int
    turns: int
    winner: int | None = None
    no_turn: bool = False


def square_name(bit: int) -> str:
    """The name of a bit's square on its board, such as ``a1``; the board is ``BOARD_NAMES[bit // 16]``."""
    within = bit & 15
    return f"{FILE_NAMES[within & 3]}{(within >> 2) + 1}"


def _board_text(black: int, white: int, board: int) -> str:
    ranks = []
    for rank in range(3, -1, -1):
        row = ""
        empty_run = 0
        for file in range(4):
            bit = 1 << (16 * board + 4 * rank + file)
            if black & bit or white & bit:
                if empty_run:
                    row += str(empty_run)
                    empty_run = 0
                row += "b" if black & bit else "w"
            else:
                empty_run += 1
        if empty_run:
            row += str(empty_run)
        ranks.append(row)
    return "/".join(ranks)


def _parse_board(text: str, board: int) -> tuple[int, int]:
    name = BOARD_NAMES[board]
    ranks = text.split("/")
    if len(ranks) != 4:
        raise NotationError(
            f"board {name} ({text!r}) has {len(ranks)} ranks; expected 4 ranks separated by '/'"
        )
    black = white = 0
    for index, row in enumerate(ranks):
        rank = 3 - index
        file = 0
        for char in row:
            if char in "1234":
                file += int(char)
            elif char in "bw":
                if file < 4:
                    bit = 1 << (16 * board + 4 * rank + file)
                    if char == "b":
                        black |= bit
                    else:
                        white |= bit
                file += 1
            else:
                raise NotationError(
                    f"board {name}, rank {rank + 1} ({row!r}): unexpected {char!r}; expected 'b' for "
                    "a Black stone, 'w' for a White stone or a digit 1-4 for empty squares"
                )
        if file != 4:
            raise NotationError(
                f"board {name}, rank {rank + 1} ({row!r}) covers {file} squares; expected exactly 4"
            )
    return black, white


_MOVE_PATTERN: Final = re.compile(
    r"""^\s*(?P<pboard>[wb][dl])\s*(?P<pfrom>[a-d][1-4])\s*-?\s*(?P<pto>[a-d][1-4])
        \s*[,;/]?\s*(?P<aboard>[wb][dl])\s*(?P<afrom>[a-d][1-4])\s*(?:-?\s*(?P<ato>[a-d][1-4]))?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_MOVE_FORMAT_HINT: Final = (
    "expected a turn like 'BDa1-a3 WLb1-b3': the passive homeboard and its move, then the aggressive "
    "board and its stone (its destination may be left out)"
)


def _square_bit(board: int, name: str) -> int:
    return 16 * board + FILE_NAMES.index(name[0].lower()) + 4 * (int(name[1]) - 1)


def _vector(from_bit: int, to_bit: int) -> tuple[int, int] | None:
    """(direction, distance) of a straight move of 1 or 2 squares on one board, else None."""
    df = (to_bit & 3) - (from_bit & 3)
    dr = ((to_bit & 15) >> 2) - ((from_bit & 15) >> 2)
    distance = max(abs(df), abs(dr))
    if distance not in (1, 2) or df not in (-distance, 0, distance) or dr not in (-distance, 0, distance):
        return None
    unit = (df // distance, dr // distance)
    return _DIRECTION_VECTORS.index(unit), distance


def _stays_on_board(square: int, direction: int, distance: int) -> bool:
    """Whether ``distance`` steps in ``direction`` from ``square`` (0-15 on a board) stay on the board."""
    df, dr = _DIRECTION_VECTORS[direction]
    file, rank = square & 3, square >> 2
    return 0 <= file + distance * df < 4 and 0 <= rank + distance * dr < 4


def view_bit(bit: int, seat: int) -> int:
    """A square (bit 0-63) in ``seat``'s view, or back: Black's is the table, White's it turned half round.

    Turning the four boards half round maps board ``b`` to ``3 - b`` and each board's square ``s`` to
    ``15 - s``, so bit ``16 * b + s`` goes to ``63 - (16 * b + s)``.
    """
    return bit if seat == BLACK else 63 - bit


def view_direction(direction: int, seat: int) -> int:
    """A direction (0-7) in ``seat``'s view, or back: White's view turns every direction half round."""
    return direction if seat == BLACK else (direction + 4) & 7


def _turns_in_view_order() -> tuple[ShobuMove, ...]:
    """Every turn shape in the mover's view (as Black's turns), in action-id order (module docstring)."""
    turns: list[ShobuMove] = []
    for direction in range(8):
        for distance in (1, 2):
            squares = [s for s in range(16) if _stays_on_board(s, direction, distance)]
            for homeboard in (0, 1):
                passive_board = 2 + homeboard
                for passive_square in squares:
                    for other in (0, 1):
                        aggressive_board = 3 - homeboard - 2 * other
                        turns.extend(
                            ShobuMove(
                                16 * passive_board + passive_square,
                                16 * aggressive_board + aggressive_square,
                                direction,
                                distance,
                            )
                            for aggressive_square in squares
                        )
    return tuple(turns)


def _in_seat_view(move: ShobuMove, seat: int) -> ShobuMove:
    """A turn turned into ``seat``'s view (or back: the map is its own inverse)."""
    return ShobuMove(
        view_bit(move.passive_from, seat),
        view_bit(move.aggressive_from, seat),
        view_direction(move.direction, seat),
        move.distance,
    )


_VIEW_TURNS: Final = _turns_in_view_order()
TURN_ACTIONS: Final = len(_VIEW_TURNS)
"""How many action ids turns have: 4,880 (the module docstring derives it); the pass is id 4,880."""
PASS_ACTION: Final = TURN_ACTIONS
"""The action id of :data:`PASS_MOVE`, an action only under ``no_turn=pass``."""
# Per seat: the turn of each action id (in absolute squares), and each turn's id.
_ACTION_TURNS: Final = tuple(
    tuple(_in_seat_view(turn, seat) for turn in _VIEW_TURNS) for seat in (BLACK, WHITE)
)
_TURN_IDS: Final = tuple({turn: action for action, turn in enumerate(turns)} for turns in _ACTION_TURNS)

OBSERVATION_PLANES: Final = (
    "own stones",
    "opponent's stones",
    "observer to move",
    "turns played / max_turns",
)
"""The planes of :meth:`ShobuState.observation_tensor`, each 8 x 8 in the observer's view."""


def _view_cell(bit: int) -> int:
    """The flat cell ``8 * row + column`` of a view's bit on the 8 x 8 table, rows from the mover's side."""
    board, square = bit >> 4, bit & 15
    row = (square >> 2) + (4 if board < 2 else 0)
    column = (square & 3) + 4 * (board & 1)
    return 8 * row + column


# Per seat, per absolute bit: its cell on the table in that seat's view.
_VIEW_CELLS: Final = tuple(
    tuple(_view_cell(view_bit(bit, seat)) for bit in range(64)) for seat in (BLACK, WHITE)
)


class ShobuGame(Game["ShobuState"]):
    """Shobu under fixed settings.

    Settings:
        max_turns: turns (one passive and aggressive pair each) before the game is drawn as truncated.
        no_turn: what happens to a side with no legal turn: ``lose`` (our ruling) or ``pass``.
    """

    id = "shobu"
    name = "Shobu"
    version = 1
    blurb = "four 4×4 boards: a passive move, then the same move pushing on a board of the other colour"
    display_order = 2
    agent_levels: ClassVar[Mapping[str, str]] = {
        "master": "kernel-alphabeta:nodes=10000000,pvs=1,quiescence=2,table=64"
    }
    move_theme_names: ClassVar[Mapping[str, str]] = {
        "push-off": "the aggressive stone pushes an enemy stone off its board",
        "push": "the aggressive stone pushes an enemy stone along its board",
    }
    view_module = "shogames.games.shobu.view"
    render_module = "shogames.games.shobu.render"
    setting_specs = (
        Setting("max_turns", 300, "turns before the game is cut and drawn (length cap)", minimum=1),
        Setting(
            "no_turn",
            "lose",
            "a side with no legal turn loses, or passes",
            choices=("lose", "pass"),
        ),
    )
    presets: ClassVar[Mapping[str, Mapping[str, SettingValue]]] = {
        "standard": {"max_turns": 300, "no_turn": "lose"},
    }
    kernel_module = "shogames.games.shobu.kernel"

    @property
    def player_names(self) -> tuple[str, ...]:
        """Black moves first, then White."""
        return ("Black", "White")

    @property
    def max_game_length(self) -> int:
        """``max_turns`` plies: every move, the pass included, is one whole turn.

        A game stops when ``max_turns`` turns are played, and each ply plays one turn (a passive and
        aggressive pair, or the pass under ``no_turn=pass``), so no game is longer. The bound is reached
        for every ``max_turns``: the sides can shuffle a stone back and forth on each homeboard (``BDa1-a2
        BLa1-a2``, then back) without ever clearing a board, so the cap ends such a game after exactly
        ``max_turns`` plies.
        """
        return int(self.settings["max_turns"])

    @property
    def num_distinct_actions(self) -> int:
        """:data:`TURN_ACTIONS` (4,880) turn shapes, plus the pass under ``no_turn=pass`` (4,881).

        The module docstring numbers them; ``docs/games/shobu.md`` derives the count.
        """
        return TURN_ACTIONS + (1 if self.settings["no_turn"] == "pass" else 0)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Four planes of the 8 x 8 table (:data:`OBSERVATION_PLANES`), seen from the observer's side."""
        return (len(OBSERVATION_PLANES), 8, 8)

    @property
    def observation_planes(self) -> tuple[str, ...]:
        """:data:`OBSERVATION_PLANES`: own stones, the opponent's, the observer to move, the cap."""
        return OBSERVATION_PLANES

    def new_initial_state(self) -> ShobuState:
        """The start: four stones of each colour on every board, Black to move."""
        return self.state_from_text(START_POSITION)

    def state_from_text(self, text: str) -> ShobuState:
        """Read ``WD WL BD BL side`` (rulings §3), optionally followed by the number of turns played.

        Raises:
            NotationError: the text is not a Shobu position; the message names the faulty field.
        """
        fields = text.split()
        if len(fields) not in (5, 6):
            raise NotationError(
                f"a Shobu position has 5 fields 'WD WL BD BL side' (and optionally the turns played), "
                f"got {len(fields)} in {text!r}"
            )
        black = white = 0
        for board in range(4):
            board_black, board_white = _parse_board(fields[board], board)
            black |= board_black
            white |= board_white
        if fields[4] not in ("b", "w"):
            raise NotationError(f"side to move must be 'b' or 'w', got {fields[4]!r}")
        seat = BLACK if fields[4] == "b" else WHITE
        turns = 0
        if len(fields) == 6:
            turns = read_number(fields[5], "turns played")
        winner: int | None = None
        empty_boards = [
            (stones_seat, BOARD_NAMES[board])
            for board in range(4)
            for stones_seat, stones in ((BLACK, black), (WHITE, white))
            if not stones & _BOARD_MASKS[board]
        ]
        for stones_seat, board_name in empty_boards:
            if stones_seat != seat:
                raise NotationError(
                    f"{self.player_names[stones_seat]} has no stones on {board_name} although "
                    f"{self.player_names[stones_seat]} moved last; such a position cannot arise"
                )
            winner = 1 - seat
        return self.state_from_position(ShobuPosition(black, white, seat, turns, winner))

    def state_from_position(self, position: ShobuPosition, *, history: Sequence[Hashable] = ()) -> ShobuState:
        """The state of ``position``, trusted as it is (no rule is checked).

        A ``winner`` in the position ends the game; without one, the end (no legal turn, the length cap)
        is judged by the rules when asked, as for any state. ``history`` is the shared signature's list of
        earlier positions for repetition rules; Shobu has none, so it is not used.
        """
        return ShobuState(
            self, position.black, position.white, position.side, position.turns, position.winner,
            position.no_turn,
        )  # fmt: skip


class ShobuState(State[ShobuMove]):
    """A Shobu position: both colours' stones as 64-bit ints, the side to move, and the turns played."""

    __slots__ = ("_black", "_count", "_game", "_moves", "_no_turn", "_seat", "_turns", "_white", "_winner")

    def __init__(
        self,
        game: ShobuGame,
        black: int,
        white: int,
        seat: int,
        turns: int,
        winner: int | None,
        no_turn: bool = False,
    ) -> None:
        self._game = game
        self._black = black
        self._white = white
        self._seat = seat
        self._turns = turns
        self._winner = winner
        self._moves: tuple[ShobuMove, ...] | None = None
        self._count: int | None = None
        self._no_turn = no_turn  # whether the side to move lost for want of a legal turn (set when judged)

    # The protocol -----------------------------------------------------------------------------------

    @property
    def game(self) -> ShobuGame:
        """The game and its settings."""
        return self._game

    @property
    def ply(self) -> int:
        """Turns played so far (one turn is one move)."""
        return self._turns

    @property
    def to_move(self) -> int | None:
        """:data:`BLACK`, :data:`WHITE`, or ``None`` when the game is over."""
        return None if self.is_terminal() else self._seat

    @property
    def black(self) -> int:
        """Black's stones as a bitboard (see the module docstring for the bit layout)."""
        return self._black

    @property
    def white(self) -> int:
        """White's stones as a bitboard."""
        return self._white

    @property
    def turns(self) -> int:
        """Turns completed (one turn is one move, so this is also the ply): what ``max_turns`` counts."""
        return self._turns

    @property
    def side(self) -> int:
        """The side (colour) whose turn it is or would be, also once the game is over.

        Each seat plays its own side, with the same number: :data:`BLACK` is seat 0, :data:`WHITE` seat 1.
        """
        return self._seat

    @property
    def winner(self) -> int | None:
        """The seat that won, or ``None`` (game going on, or drawn by the length cap)."""
        self.is_terminal()
        return self._winner

    @property
    def position(self) -> ShobuPosition:
        """The position as one value (:class:`ShobuPosition`), with the end of the game judged."""
        self.is_terminal()
        return ShobuPosition(self._black, self._white, self._seat, self._turns, self._winner, self._no_turn)

    def _own_opp(self) -> tuple[int, int]:
        return (self._black, self._white) if self._seat == BLACK else (self._white, self._black)

    def _raw_count(self) -> int:
        if self._count is None:
            own, opp = self._own_opp()
            self._count = count_turns(own, opp, self._seat)
        return self._count

    def _any_turn(self) -> bool:
        if self._moves is not None:
            return bool(self._moves)
        if self._count is not None:
            return self._count > 0
        own, opp = self._own_opp()
        return has_turn(own, opp, self._seat)

    def is_terminal(self) -> bool:
        """Over when a side has won, the length cap is reached, or (``no_turn=lose``) no turn is left."""
        if self._winner is not None:
            return True
        if self._turns >= self._game.max_game_length:
            return True
        if self._game.settings["no_turn"] == "lose" and not self._any_turn():
            self._winner = 1 - self._seat
            self._no_turn = True
            return True
        return False

    def is_truncated(self) -> bool:
        """Whether the game was cut by ``max_turns`` before anyone won."""
        return self.is_terminal() and self._winner is None

    def termination(self) -> str | None:
        """``normal`` (a board cleared), ``no legal turn``, ``length cap``, or ``None`` while going on."""
        if not self.is_terminal():
            return None
        if self._winner is None:
            return "length cap"
        return "no legal turn" if self._no_turn else "normal"

    def returns(self) -> tuple[float, ...]:
        """+1 for the winner and -1 for the loser; 0 each while going on or when drawn by the cap."""
        if not self.is_terminal() or self._winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self._winner == BLACK else (-1.0, 1.0)

    def evaluate(self) -> tuple[float, ...]:
        """Material per board, weighted so that a board's last stones count most (docs/games/shobu.md).

        A side loses when one of its four boards is empty, so each board adds :data:`BOARD_WORTH` of the
        side's stones there, a concave table: the fourth stone of a board is worth 2, the last one 6. The
        difference of the two sides' sums ``d`` gives ``0.95 * tanh(d / 12)`` to Black and its negative
        to White.
        """
        if self.is_terminal():
            return self.returns()
        score = 0
        for board in range(4):
            shift = 16 * board
            score += BOARD_WORTH[(self._black >> shift & 0xFFFF).bit_count()]
            score -= BOARD_WORTH[(self._white >> shift & 0xFFFF).bit_count()]
        value = VALUE_SCALE * math.tanh(score / MATERIAL_SPREAD)
        return (value, -value)

    def key(self) -> Hashable:
        """``(black, white, side)``: equal for equal positions whatever the turns played."""
        return (self._black, self._white, self._seat)

    def count_legal_moves(self) -> int:
        """The number of legal turns, counted from popcounts without generating them."""
        if self.is_terminal():
            return 0
        return self._raw_count() or 1  # no turn under no_turn=pass: the pass is the one move

    def legal_moves(self) -> tuple[ShobuMove, ...]:
        """Every legal turn, ordered by passive board, direction, distance, then the two stones."""
        if self._moves is None:
            self._moves = self._generate() if not self.is_terminal() else ()
        return self._moves

    def _generate(self) -> tuple[ShobuMove, ...]:
        own, opp = self._own_opp()
        sources = [_sources(own, opp, direction) for direction in range(8)]
        moves: list[ShobuMove] = []
        append = moves.append
        for passive_mask, aggressive_mask in _PASSIVE_PLANS[self._seat]:
            for direction, (passive1, aggressive1, passive2, aggressive2) in enumerate(sources):
                for distance, passive, aggressive in ((1, passive1, aggressive1), (2, passive2, aggressive2)):
                    passive &= passive_mask
                    aggressive &= aggressive_mask
                    if not passive or not aggressive:
                        continue
                    aggressive_squares = _iter_bits(aggressive)
                    for passive_square in _iter_bits(passive):
                        for aggressive_square in aggressive_squares:
                            append(ShobuMove(passive_square, aggressive_square, direction, distance))
        if not moves and self._game.settings["no_turn"] == "pass":
            moves.append(PASS_MOVE)
        return tuple(moves)

    def play_unchecked(self, move: ShobuMove) -> ShobuState:
        """Play a legal turn: move the passive stone, then the aggressive stone with any push."""
        seat = self._seat
        own, opp = self._own_opp()
        if move.distance:
            direction, distance = move.direction, move.distance
            delta = _DELTAS[direction]
            passive_from, aggressive_from = move.passive_from, move.aggressive_from
            own ^= (1 << passive_from) | (1 << (passive_from + distance * delta))
            own ^= (1 << aggressive_from) | (1 << (aggressive_from + distance * delta))
            path = 1 << (aggressive_from + delta)
            if distance == 2:
                path |= 1 << (aggressive_from + 2 * delta)
            hit = opp & path
            if hit:
                opp ^= hit
                if (1 << aggressive_from) & _RAYS[direction][distance][1]:
                    opp |= 1 << (aggressive_from + (distance + 1) * delta)
        winner = None
        if move.distance and not all(opp & board_mask for board_mask in _BOARD_MASKS):
            winner = seat
        black, white = (own, opp) if seat == BLACK else (opp, own)
        return ShobuState(self._game, black, white, 1 - seat, self._turns + 1, winner)

    # Actions and observations -------------------------------------------------------------------------

    def move_to_action(self, move: ShobuMove) -> int:
        """The action id of a turn of the side to move (the module docstring gives the numbering).

        Raises:
            ValueError: the game is over, or ``move`` is not a turn shape of the side to move (a passive
                stone off its homeboards, an aggressive stone on a board of the passive board's colour,
                a move that leaves its board), or the pass where ``no_turn`` is ``lose``.
        """
        if self.is_terminal():
            raise ValueError(f"the game is over: no move has an action id, got {move!r}")
        if move == PASS_MOVE:
            if self._game.settings["no_turn"] != "pass":
                raise ValueError("the pass is a move only under the setting no_turn=pass")
            return PASS_ACTION
        try:
            action = _TURN_IDS[self._seat].get(move)
        except TypeError:  # not hashable
            action = None
        if action is None:
            raise ValueError(
                f"{move!r} is not a turn of {self._game.player_names[self._seat]}: a ShobuMove whose "
                "passive stone is on the mover's homeboard, whose aggressive stone is on a board of the "
                "other colour, and whose direction and distance (1 or 2) keep both stones on their boards"
            )
        return action

    def action_to_move(self, action: int) -> ShobuMove:
        """The legal turn with id ``action``, decoded directly (no search of the legal moves).

        Raises:
            IllegalMoveError: ``action`` is not an int, is out of range, or is not legal here.
        """
        if isinstance(action, bool) or not isinstance(action, numbers.Integral) or self.is_terminal():
            raise self._illegal_action(action)
        action = int(action)
        if action == PASS_ACTION and self._game.settings["no_turn"] == "pass":
            own, opp = self._own_opp()
            if self._moves != (PASS_MOVE,) and (self._moves or has_turn(own, opp, self._seat)):
                raise self._illegal_action(action)
            return PASS_MOVE
        if not 0 <= action < TURN_ACTIONS:
            raise self._illegal_action(action)
        move = _ACTION_TURNS[self._seat][action]
        own, opp = self._own_opp()
        passive1, aggressive1, passive2, aggressive2 = _sources(own, opp, move.direction)
        passive, aggressive = (passive1, aggressive1) if move.distance == 1 else (passive2, aggressive2)
        if not (passive >> move.passive_from & 1 and aggressive >> move.aggressive_from & 1):
            raise self._illegal_action(action)
        return move

    def legal_actions(self) -> list[int]:
        """The ids of :meth:`legal_moves`, ascending (the pass alone is :data:`PASS_ACTION`)."""
        moves = self.legal_moves()
        if moves == (PASS_MOVE,):
            return [PASS_ACTION]
        ids = _TURN_IDS[self._seat]
        return sorted([ids[move] for move in moves])

    def observation_tensor(self, seat: int) -> list[float]:
        """What ``seat`` sees: four 8 x 8 planes of the table turned to its view, flat in C order.

        Cell ``8 * row + column`` of a plane is the table seen from ``seat``'s side: rows 0-3 its own
        homeboards (rank 1 of its view first), rows 4-7 the opponent's, columns left to right; for White
        the table is turned half round (:func:`view_bit`). The planes (:data:`OBSERVATION_PLANES`): the
        seat's stones, the opponent's, ones when ``seat`` is to move, and the turns played over
        ``max_turns`` (at most 1).

        Raises:
            ValueError: ``seat`` is not 0 or 1.
        """
        self._check_seat(seat)
        own, opp = (self._black, self._white) if seat == BLACK else (self._white, self._black)
        cells = _VIEW_CELLS[seat]
        tensor = [0.0] * 256
        for bit in _iter_bits(own):
            tensor[cells[bit]] = 1.0
        for bit in _iter_bits(opp):
            tensor[64 + cells[bit]] = 1.0
        if self.to_move == seat:
            tensor[128:192] = [1.0] * 64
        max_turns = int(self._game.settings["max_turns"])
        tensor[192:] = [min(self._turns, max_turns) / max_turns] * 64
        return tensor

    # Text ---------------------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of rulings §3, ``WD WL BD BL side``, then the turns played when not 0.

        The sixth field keeps the length cap exact across a round trip; the start position is written
        with the rulings' five fields.
        """
        position = self.position
        boards = " ".join(_board_text(position.black, position.white, board) for board in range(4))
        turns = f" {position.turns}" if position.turns else ""
        return f"{boards} {'b' if position.side == BLACK else 'w'}{turns}"

    def move_to_text(self, move: ShobuMove) -> str:
        """A turn as ``BDa1-a3 WLb1-b3`` (or ``pass``)."""
        if move.is_pass:
            return "pass"
        step = _DELTAS[move.direction] * move.distance
        passive_board = BOARD_NAMES[move.passive_from >> 4]
        aggressive_board = BOARD_NAMES[move.aggressive_from >> 4]
        return (
            f"{passive_board}{square_name(move.passive_from)}-{square_name(move.passive_from + step)} "
            f"{aggressive_board}{square_name(move.aggressive_from)}-"
            f"{square_name(move.aggressive_from + step)}"
        )

    def parse_move(self, text: str) -> ShobuMove:
        """Read a turn such as ``BDa1-a3 WLb1-b3`` or ``bd a1a3 wl b1`` and check it is legal here.

        Raises:
            NotationError: the text is not a Shobu turn.
            IllegalMoveError: the turn breaks a rule here; the message says which.
        """
        stripped = text.strip()
        if stripped.lower() == "pass":
            if PASS_MOVE in self.legal_moves():
                return PASS_MOVE
            raise IllegalMoveError(
                "'pass' is only legal for a side with no legal turn under the setting no_turn=pass"
            )
        match = _MOVE_PATTERN.match(stripped)
        if match is None:
            raise NotationError(f"cannot read {text!r} as a Shobu turn; {_MOVE_FORMAT_HINT}")
        passive_board = BOARD_NAMES.index(match["pboard"].upper())
        aggressive_board = BOARD_NAMES.index(match["aboard"].upper())
        passive_from = _square_bit(passive_board, match["pfrom"])
        passive_to = _square_bit(passive_board, match["pto"])
        vector = _vector(passive_from, passive_to)
        if vector is None:
            raise NotationError(
                f"passive move {match['pfrom']}-{match['pto']} is not 1 or 2 squares in a straight line "
                "(along a rank, a file or a diagonal)"
            )
        direction, distance = vector
        aggressive_from = _square_bit(aggressive_board, match["afrom"])
        if match["ato"] is not None:
            aggressive_to = _square_bit(aggressive_board, match["ato"])
            if _vector(aggressive_from, aggressive_to) != vector:
                raise NotationError(
                    f"the aggressive move must repeat the passive move ({distance} square"
                    f"{'s' if distance == 2 else ''} {DIRECTION_NAMES[direction]}); "
                    f"{match['afrom']}-{match['ato']} does not"
                )
        move = ShobuMove(passive_from, aggressive_from, direction, distance)
        if not self.is_legal(move):
            raise IllegalMoveError(f"{stripped!r} is not legal: {self._why_illegal(move)}")
        return move

    def _why_illegal(self, move: ShobuMove) -> str:
        """Explain in words which rule a well-formed turn breaks."""
        if self.is_terminal():
            return "the game is over"
        seat = self._seat
        own, opp = self._own_opp()
        side_name = self._game.player_names[seat]
        passive_board, aggressive_board = move.passive_from >> 4, move.aggressive_from >> 4
        if passive_board not in _HOMEBOARDS[seat]:
            homes = " or ".join(BOARD_NAMES[b] for b in _HOMEBOARDS[seat])
            return f"the passive move must be on one of {side_name}'s homeboards ({homes})"
        if _BOARD_COLOUR[aggressive_board] == _BOARD_COLOUR[passive_board]:
            colour = "dark" if _BOARD_COLOUR[passive_board] == 0 else "light"
            other = "light" if colour == "dark" else "dark"
            return (
                f"the passive move was on {BOARD_NAMES[passive_board]}, a {colour} board, so the "
                f"aggressive move must be on a {other} board"
            )
        passive1, aggressive1, passive2, aggressive2 = _sources(own, opp, move.direction)
        passive, aggressive = (passive1, aggressive1) if move.distance == 1 else (passive2, aggressive2)
        passive_name = f"{BOARD_NAMES[passive_board]}{square_name(move.passive_from)}"
        aggressive_name = f"{BOARD_NAMES[aggressive_board]}{square_name(move.aggressive_from)}"
        if not own & (1 << move.passive_from):
            return f"there is no {side_name} stone on {passive_name}"
        if not own & (1 << move.aggressive_from):
            return f"there is no {side_name} stone on {aggressive_name}"
        if not passive & (1 << move.passive_from):
            return "the passive move is blocked: every square it crosses or lands on must be empty"
        if not aggressive & (1 << move.aggressive_from):
            return (
                "the aggressive move is blocked: it leaves the board, meets its own colour or two "
                "stones, or pushes a stone onto another stone"
            )
        return "the turn is not among the legal moves"

    def move_themes(self, move: ShobuMove) -> tuple[str, ...]:
        """``push-off`` where the turn pushes an enemy stone off its board, ``push`` where one stays on it."""
        if move.is_pass:
            return ()
        after = self.play_unchecked(move)
        before_opp, after_opp = (self.white, after.white) if self.side == BLACK else (self.black, after.black)
        if after_opp.bit_count() < before_opp.bit_count():
            return ("push-off",)
        return ("push",) if after_opp != before_opp else ()

    def diagram(self) -> str:
        """The four boards as text, White's homeboards on top, ``b``/``w`` stones, and who moves."""

        def row(board: int, rank: int) -> str:
            cells = []
            for file in range(4):
                bit = 1 << (16 * board + 4 * rank + file)
                cells.append("b" if self._black & bit else "w" if self._white & bit else ".")
            return f"{rank + 1} {' '.join(cells)}"

        lines = []
        for left, right, label in ((0, 1, "White's homeboards"), (2, 3, "Black's homeboards")):
            lines.append(f"  {BOARD_NAMES[left]} dark      {BOARD_NAMES[right]} light    {label}")
            lines.extend(f"{row(left, rank)}     {row(right, rank)}" for rank in range(3, -1, -1))
            lines.append("  a b c d       a b c d")
            if left == 0:
                lines.append("~" * 28 + " rope")
        if self.is_terminal():
            result = self.returns()
            if self._winner is None:
                lines.append("Game over: drawn by the length cap")
            else:
                lines.append(f"Game over: {self._game.player_names[0 if result[0] > 0 else 1]} wins")
        else:
            lines.append(f"{self._game.player_names[self._seat]} to move (turn {self._turns + 1})")
        return "\n".join(lines)
