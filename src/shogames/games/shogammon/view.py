"""Shogammon in the browser: the board with its points, both hands and the dice, and a die's move as clicks.

The view (:func:`position_view`) is a dict with these fields:

``board``
    Nine ranks from ``a`` (White's back rank, at the top for Black) to ``i``; each rank is nine cells from
    file 9 to file 1 (Black's left to right). A cell is a list of 0, 1 or 2 pieces, **bottom first**: two
    pieces make a point, and only the last (upper) one may move. A piece is
    ``{"owner": 0 or 1, "kind": "P" .. "K", "promoted": bool}``; ``kind`` is the unpromoted letter (a dragon
    is ``{"kind": "R", "promoted": true}``).
``files`` / ``ranks``
    ``"987654321"`` and ``"abcdefghi"``: the square of ``board[r][c]`` is ``files[c] + ranks[r]``
    (``"7g"``), and its click target is ``"sq:" + that``.
``hands``
    Per seat (0 Black, 1 White), the pieces in hand as ``[{"kind": "R", "count": 1}, ...]`` in the order
    R B G S N L P, kinds held only.
``players``
    The seats' names, ``["Black", "White"]``.
``side``
    The seat whose turn it is (also while it waits for its roll and once the game is over).
``to_move``
    The seat to move, ``-1`` while the dice are to be rolled (the server rolls them), ``None`` once over.
``dice`` / ``dice_used``
    The dice left to play, lower face first (``[]`` before the roll), and how many of this turn's two dice
    are already played (0 or 1; the state keeps no record of a played die's face).
``die_map``
    Six entries ``{"face": 1, "kinds": ["P"]}``: which kinds each face moves or drops (a promoted piece uses
    its kind's face); ``die_map_text`` is the same as ``"1:P 2:LN 3:S 4:G 5:BR 6:K"``, and ``face_of`` maps a
    kind letter to its face.
``turns`` / ``max_turns`` / ``ply``
    Turns completed, the turn cap (0 for none) and the plies so far.
``terminal`` / ``winner`` / ``termination``
    Whether the game is over, the seat that took the enemy king (``None`` if none), and why it ended
    (``"king taken"``, ``"repetition"``, ``"length cap"`` or ``None``).
``strict_dice``
    Whether backgammon's maximum rule is on.
``status``
    One line for people, such as ``"Black to play 3 and 5"``.

Click scheme (:func:`move_clicks`). Board targets are ``sq:<square>`` (``sq:7g``); pieces in hand are
``hand:<seat>:<letter>`` (``hand:0:P``). The die a move uses always follows from the piece (each kind has
one face), so it is never clicked:

- a board move: the piece's square, then its destination, then ``opt:promote`` or ``opt:no promotion``
  only where both are legal (``1:7g7f`` is ``sq:7g``, ``sq:7f``);
- a drop: the piece in hand, then the empty square (``1:P*5e`` is ``hand:0:P``, ``sq:5e``);
- a point capture: the first piece, the enemy point, the promotion choice of the first piece if it has
  one, then the second piece, and its promotion choice if it has one (``4:4f5e&3:6f5e`` is ``sq:4f``,
  ``sq:5e``, ``sq:6f``). The second piece may stand on the first one's square (it was underneath);
- giving up a die that has no play: the button ``opt:pass die <face>`` (``6:-`` is ``opt:pass die 6``).

A board move never ends on an enemy point and a point capture always does, so after the first two clicks
only one kind of move is left; each later click is asked only when the moves still matching differ there.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, State
from shogames.games.shogammon import (
    ACT,
    BISHOP,
    BLACK,
    FILE_NAMES,
    KING,
    KNIGHT,
    LANCE,
    LETTERS,
    LOSE,
    PAIR,
    PAWN,
    PROMOTED,
    RANK_NAMES,
    ROLL,
    ROOK,
    SILVER,
    WHITE,
    ShogammonMove,
    ShogammonState,
    parse_square,
    square_name,
)

HAND_ORDER = "RBGSNLP"
"""The order in which the pieces in hand are listed (the usual shogi order, biggest first)."""
PROMOTE = "opt:promote"
"""The button that promotes the moving piece, where promoting is optional."""
NO_PROMOTION = "opt:no promotion"
"""The button that leaves the moving piece unpromoted, where promoting is optional."""


def _shogammon(state: State[Any]) -> ShogammonState:
    if not isinstance(state, ShogammonState):
        raise TypeError(f"not a Shogammon state: {type(state).__name__}")
    return state


def _piece(piece: int) -> dict[str, Any]:
    kind = abs(piece)
    promoted = kind > KING
    return {
        "owner": BLACK if piece > 0 else WHITE,
        "kind": LETTERS[kind - PROMOTED if promoted else kind],
        "promoted": promoted,
    }


def _status(state: ShogammonState, names: tuple[str, ...], winner: int | None) -> str:
    if winner is not None:
        return f"{names[winner]} took the king and won"
    if state.is_truncated():
        return "Drawn: the turn cap was reached"
    if state.is_terminal():
        return "Drawn: the same position stood a fourth time"
    if state.is_opening_roll:
        return "Each side rolls one die: the higher starts"
    mover = names[state.side]
    if not state.dice:
        return f"{mover} to roll"
    return f"{mover} to play {' and '.join(map(str, state.dice))}"


def position_view(state: State[Any]) -> dict[str, Any]:
    """The position as JSON-ready data for ``static/renderer.js`` (fields in the module docstring).

    Args:
        state: a Shogammon state.

    Raises:
        TypeError: ``state`` is not a Shogammon state.
    """
    s = _shogammon(state)
    game = s.game
    board: list[list[list[dict[str, Any]]]] = []
    for row in range(9):
        rank: list[list[dict[str, Any]]] = []
        for col in range(9):
            lower, upper = s.piece_at(row * 9 + col)
            rank.append([_piece(piece) for piece in (lower, upper) if piece])
        board.append(rank)
    hands = [
        [
            {"kind": letter, "count": s.in_hand(seat, LETTERS.index(letter))}
            for letter in HAND_ORDER
            if s.in_hand(seat, LETTERS.index(letter))
        ]
        for seat in (BLACK, WHITE)
    ]
    kinds_of = {
        face: [LETTERS[kind] for kind in range(1, KING + 1) if game.faces[kind] == face]
        for face in range(1, 7)
    }
    winner = s.winner
    termination = None
    if winner is not None:
        termination = "king taken"
    elif s.is_terminal():
        termination = s.termination()  # "repetition" (repetition=fourfold) or "length cap"
    names = game.player_names
    to_move = s.to_move
    return {
        "board": board,
        "files": FILE_NAMES,
        "ranks": RANK_NAMES,
        "hands": hands,
        "players": list(names),
        "side": s.side,
        "to_move": to_move,
        "dice": list(s.dice),
        "dice_used": 2 - len(s.dice) if s.dice else 0,
        "die_map": [{"face": face, "kinds": kinds} for face, kinds in kinds_of.items()],
        "die_map_text": " ".join(f"{face}:{''.join(kinds)}" for face, kinds in kinds_of.items()),
        "face_of": {LETTERS[kind]: game.faces[kind] for kind in range(1, KING + 1)},
        "turns": s.turns,
        "max_turns": game.max_turns,
        "ply": s.ply,
        "terminal": s.is_terminal(),
        "winner": winner,
        "termination": termination,
        "strict_dice": game.strict,
        "status": _status(s, names, winner),
    }


def _square(square: int) -> str:
    return f"sq:{square_name(square)}"


def _choice(clicks: list[str], alike: list[ShogammonMove], field: str, value: int) -> list[ShogammonMove]:
    """Add the promotion button for ``field`` if the moves still matching differ there; keep the matches."""
    if len({getattr(other, field) for other in alike}) > 1:
        clicks.append(PROMOTE if value else NO_PROMOTION)
    return [other for other in alike if getattr(other, field) == value]


def move_clicks(state: State[Any], move: Any) -> tuple[str, ...]:
    """The targets clicked, in order, to make ``move`` (the scheme is in the module docstring).

    Args:
        state: a Shogammon state with a seat to move.
        move: one of ``state.legal_moves()``.

    Raises:
        TypeError: ``state`` is not a Shogammon state.
        ValueError: ``move`` is a roll (the server plays the dice) or not a legal move here.
    """
    s = _shogammon(state)
    if not isinstance(move, ShogammonMove) or move not in s.legal_moves() or s.to_move == CHANCE:
        raise ValueError(f"not a legal move of a seat here: {move!r}")
    if move.kind == LOSE:
        return (f"opt:pass die {move.die}",)
    legal = s.legal_moves()
    clicks: list[str] = []
    if move.kind == ACT:
        if move.drop:
            clicks.append(f"hand:{s.side}:{LETTERS[move.drop]}")
        else:
            clicks.append(_square(move.origin))
        clicks.append(_square(move.to))
        alike = [
            other
            for other in legal
            if other.kind == ACT and (other.origin, other.to, other.drop) == (move.origin, move.to, move.drop)
        ]
        if len({other.die for other in alike}) > 1:  # never with a die map that gives each kind one face
            clicks.append(f"opt:die {move.die}")
            alike = [other for other in alike if other.die == move.die]
        _choice(clicks, alike, "promote", move.promote)
        return tuple(clicks)
    if move.kind != PAIR:
        raise ValueError(f"not a move of a seat: {move!r}")
    clicks += [_square(move.origin), _square(move.to)]
    alike = [
        other for other in legal if other.kind == PAIR and (other.origin, other.to) == (move.origin, move.to)
    ]
    alike = _choice(clicks, alike, "promote", move.promote)
    clicks.append(_square(move.origin2))
    alike = [other for other in alike if other.origin2 == move.origin2]
    _choice(clicks, alike, "promote2", move.promote2)
    return tuple(clicks)


def move_note(before: State[Any], move: Any, after: State[Any]) -> str | None:
    """What a move did that the move list alone does not say: dice lost because they had no play.

    ``None`` for an ordinary move. The page shows the note in the move list and under the board.
    """
    state, then = _shogammon(before), _shogammon(after)
    if then.is_terminal() or not isinstance(move, ShogammonMove):
        return None
    who = state.game.player_names[state.side]
    if move.kind == ROLL and then.side != state.side:
        lost = "neither die has a play, so both are lost and the turn passes"
        return f"{who} rolled {move.die}-{move.die2}: {lost}"
    if move.kind == LOSE:
        return f"{who}'s {move.die} has no play: it is lost"
    if move.kind == ACT and len(state.dice) == 2 and then.side != state.side:
        dice = list(state.dice)
        dice.remove(move.die)
        return f"{who}'s other die, the {dice[0]}, has no play after that move: it is lost"
    return None


_KIND_NAMES = {
    1: "pawn",
    2: "lance",
    3: "knight",
    4: "silver",
    5: "gold",
    6: "bishop",
    7: "rook",
    8: "king",
    9: "tokin",
    10: "promoted lance",
    11: "promoted knight",
    12: "promoted silver",
    14: "horse",
    15: "dragon",
}
"""The editor's names of the kinds, promoted ones included (a dragon is a promoted rook)."""


def position_edits(state: State[Any], target: str) -> list[tuple[str, str]]:
    """What a click on ``target`` can change, for the analysis board's editor: (label, new position text).

    - an empty square (``sq:5e``): any piece of either side put there, promoted or not;
    - a single piece: taken away, promoted or demoted, given to the other side, or made a point by a
      second piece of its side put on top;
    - a point: its top piece taken away, both taken away, or the two swapped;
    - a piece in hand (``hand:<seat>:<letter>``): one more or one fewer;
    - the whole position (``""``): the other side to roll, the dice to roll again, the board emptied but
      for the kings (to set up a position from scratch), and one more piece of any kind in either hand.

    Positions are written from :attr:`ShogammonState.position` by the game (the winner judged again from
    the kings); one its reader refuses (a piece that could never move, more pieces of a kind than a shogi
    set has, a missing or doubled king) is not offered.

    Raises:
        TypeError: ``state`` is not a Shogammon state.
    """
    s = _shogammon(state)
    game = s.game
    position = s.position
    names = game.player_names

    def written(**changes: Any) -> str:
        edited = dataclasses.replace(position, winner=None, end=None, **changes)
        return game.state_from_position(edited).to_text()

    def piece_name(piece: int) -> str:
        return f"{names[BLACK if piece > 0 else WHITE]} {_KIND_NAMES[abs(piece)]}"

    if target == "":
        edits = [
            (f"{names[1 - position.side]} to roll", written(side=1 - position.side, dice=())),
        ]
        if position.dice:
            edits.append(("dice to roll again", written(dice=())))
        kings = tuple(
            top if abs(top) == KING else bottom if abs(bottom) == KING else 0
            for bottom, top in zip(position.lower, position.upper, strict=True)
        )
        if (kings, (0,) * 81) != (position.lower, position.upper):
            edits.append(("empty the board but the kings", written(lower=kings, upper=(0,) * 81)))
        for seat in (BLACK, WHITE):
            for letter in HAND_ORDER:
                index = 8 * seat + LETTERS.index(letter)
                hands = list(position.hands)
                hands[index] += 1
                edits.append(
                    (
                        f"{names[seat]}'s hand: one more {_KIND_NAMES[LETTERS.index(letter)]}",
                        written(hands=tuple(hands)),
                    )
                )
        return edits
    if target.startswith("hand:"):
        parts = target.split(":")
        if len(parts) != 3 or parts[1] not in ("0", "1") or len(parts[2]) != 1 or parts[2] not in HAND_ORDER:
            return []
        index = 8 * int(parts[1]) + LETTERS.index(parts[2])
        edits = []
        for change, label in ((1, "one more"), (-1, "one fewer")):
            hands = list(position.hands)
            hands[index] += change
            if hands[index] >= 0:
                edits.append((label, written(hands=tuple(hands))))
        return edits
    if not target.startswith("sq:"):
        return []
    try:
        square = parse_square(target[3:])
    except ShogamesError:
        return []
    lower, upper = list(position.lower), list(position.upper)
    bottom, top = lower[square], upper[square]

    def board(new_lower: int, new_upper: int) -> str:
        return written(lower=_with(lower, square, new_lower), upper=_with(upper, square, new_upper))

    edits = []
    every = [sign * kind for sign in (1, -1) for kind in _KIND_NAMES]
    if not bottom:
        return [(piece_name(piece), board(piece, 0)) for piece in every]
    if top:
        return [
            ("take the top piece away", board(bottom, 0)),
            ("take both away", board(0, 0)),
            ("swap the two", board(top, bottom)),
        ]
    edits.append(("take it away", board(0, 0)))
    kind = abs(bottom)
    sign = 1 if bottom > 0 else -1
    if kind in (PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK):
        edits.append(("promote it", board(sign * (kind + PROMOTED), 0)))
    elif kind > KING:
        edits.append(("demote it", board(sign * (kind - PROMOTED), 0)))
    edits.append((f"give it to {names[WHITE if bottom > 0 else BLACK]}", board(-bottom, 0)))
    for piece in every:
        if (piece > 0) == (bottom > 0):
            edits.append((f"{piece_name(piece)} on top", board(bottom, piece)))
    return edits


def _with(values: list[int], index: int, value: int) -> tuple[int, ...]:
    """``values`` as a tuple with ``values[index]`` set to ``value``."""
    copy = values.copy()
    copy[index] = value
    return tuple(copy)
