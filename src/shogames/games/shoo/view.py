"""The browser's view of Shoo: what the field shows, and the clicks that make each move.

Position view (:func:`position_view`)
-------------------------------------
A JSON-ready dict with these fields (squares are names such as ``"e5"``; sides are ``"south"`` and
``"north"``; seats are 0 for Blue and 1 for White):

``game``, ``ruleset``
    ``"shoo"``, and ``"designers"`` or ``"towers"``.
``seat_names``
    The seats' names, ``["Blue", "White"]``.
``phase``
    ``"toss"`` (the coin toss, played by the server), ``"choice"`` (the toss winner chooses), ``"play"``
    or ``"over"``.
``chooser``
    During the choice, the seat that won the toss and chooses; else ``None``.
``south_seat``
    The seat that plays South once the opening is over; ``None`` during the toss and the choice, when
    the colours of the two sides are not decided yet.
``to_move``, ``side_to_move``
    The seat to move (``-1`` at the toss, ``None`` at the end) and its side (``None`` outside play).
``pieces``
    Everything on the field, each ``{"square", "type", ...}``: a traveller is ``{"type": "traveller",
    "side", "mounted"}``, a free horse ``{"type": "horse", "held"}``.
``held``
    ``{"square", "by"}``: the free horse held by side ``by`` (the side that moved last), which the side
    to move may not slide, mount, hold or retire this turn; or ``None``.
``shoo``
    The square of the side to move's traveller that must answer a declared shoo, or ``None``.
``shooed``
    Towers only: the side to move's travellers that stand shooed now (one of them must escape); else
    an empty list.
``hushable``
    ``{"move", "side", "from", "to"}``: the opponent's last move, which the side to move may HUSH
    (``from`` is ``None`` for a return from the stable); or ``None``.
``barred``
    Moves already hushed this turn (notation), which their side may not play again this turn.
``stables``, ``pastures``
    Per side, ``{"horses", "travellers"}`` waiting in its stable, and the horses retired to its pasture.
``traveller_stables``
    Whether travellers can be in a stable at all (not in towers).
``homes``, ``first_rows``
    Per side, the nine squares of its home area (its destination: South a7–c9, North g1–i3), and its
    first row, where its stabled travellers return (South rank 1, North rank 9).
``turns``, ``max_turns``
    Turns completed (moves that stand), and the length cap in turns.
``result``
    ``None`` while the game goes on, else ``{"winner": seat or None, "termination": text}``.
``settings``
    The game's settings, name to value.

Clicks (:func:`move_clicks`)
----------------------------
Board targets are ``"sq:<square>"`` (``"sq:e5"``). Off the field each side has three targets in its
panel: ``"stable:<side>:horse"``, ``"stable:<side>:traveller"`` and ``"pasture:<side>"``. A move is made
by clicking:

- a step, a ride, a towers drop-back: the traveller, then where it goes;
- a mount: the traveller, the horse, then where it rides to (the horse's square again to stay there);
  in towers a mount never rides on, so the horse is the last click;
- a dismount: the rider, then the square it steps off to. A rider that can both ride to and step off
  to an adjacent square is asked which, with the buttons ``opt:ride`` and ``opt:dismount``;
- a capture: the capturing traveller, the enemy rider, the empty square where the rider is put down,
  then where the capturer rides to (the captured horse's square again to stay there);
- a call-up (``H*e5``): the horse in the mover's stable, then the square; a return (``T*b9``): the
  traveller in the mover's stable, then the square;
- a horse slide: the free horse, then where it slides; a hold: the horse, then ``opt:hold``; a retire:
  the horse, then the mover's pasture;
- shooed off (``~a9``): the shooed traveller, then the traveller slot of the mover's stable;
- ``HUSH``: ``opt:HUSH``; a pass: ``opt:pass``; the opening choice: ``opt:move first`` or
  ``opt:take the odd horse``.

Where a move may also declare a shoo, one more click follows the move's own clicks: the enemy traveller
to shoo, or ``opt:no shoo`` for the move without a declaration.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, State
from shogames.games.shoo import (
    CALL,
    CAPTURE,
    CHOOSE,
    DISMOUNT,
    FIRST_ROWS,
    HOLD,
    HOME_MASKS,
    HUSH,
    MOUNT,
    NORTH,
    PASS,
    RETIRE,
    RETURN,
    RIDE,
    SHOOED_OFF,
    SIZE,
    SLIDE,
    SOUTH,
    STEP,
    TOSS,
    ShooMove,
    ShooPosition,
    ShooState,
    parse_square,
    square_name,
)

SIDES = ("south", "north")
"""The sides' names in views and target ids, by side number."""

NO_SHOO = "opt:no shoo"
"""The click that makes a move without the shoo it could declare."""
RIDE_OPTION = "opt:ride"
"""The click that picks the ride when a rider could also step off to the same square."""
DISMOUNT_OPTION = "opt:dismount"
"""The click that picks stepping off when a rider could also ride to the same square."""
HOLD_OPTION = "opt:hold"
"""The click that holds the selected free horse."""
HUSH_OPTION = "opt:HUSH"
"""The click that hushes the opponent's last move."""
PASS_OPTION = "opt:pass"
"""The click that passes (only when nothing else is legal)."""
CHOICE_OPTIONS = ("opt:move first", "opt:take the odd horse")
"""The toss winner's two choices: the first move (South) or the odd horse (North)."""


def square_target(square: int) -> str:
    """The target id of a square of the field, such as ``"sq:e5"``."""
    return f"sq:{square_name(square)}"


def stable_target(side: int, what: str) -> str:
    """The target id of a side's stable slot: ``what`` is ``"horse"`` or ``"traveller"``."""
    return f"stable:{SIDES[side]}:{what}"


def pasture_target(side: int) -> str:
    """The target id of a side's pasture."""
    return f"pasture:{SIDES[side]}"


def _squares(mask: int) -> list[str]:
    return [square_name(square) for square in range(SIZE * SIZE) if mask >> square & 1]


def _phase(state: ShooState) -> str:
    phase = state.phase
    return "over" if phase == "play" and state.is_terminal() else phase


def position_view(state: State[Any]) -> dict[str, Any]:
    """The JSON-ready description of a Shoo position (fields in the module docstring)."""
    assert isinstance(state, ShooState)
    game = state.game
    phase = _phase(state)
    playing = phase in ("play", "over")
    pieces: list[dict[str, Any]] = []
    for square in range(SIZE * SIZE):
        piece = state.piece_at(square)
        if piece == ".":
            continue
        if piece in "hH":
            pieces.append({"square": square_name(square), "type": "horse", "held": piece == "H"})
        else:
            side = SOUTH if piece in "sS" else NORTH
            pieces.append(
                {
                    "square": square_name(square),
                    "type": "traveller",
                    "side": SIDES[side],
                    "mounted": piece.isupper(),
                }
            )
    held = None
    if state.held >= 0:
        held = {"square": square_name(state.held), "by": SIDES[state.side ^ 1]}
    hushable = None
    hushed = state.hushable_move
    if hushed is not None:
        hushable = {
            "move": state.move_to_text(hushed),
            "side": SIDES[state.side ^ 1],
            "from": square_name(hushed.origin) if hushed.origin >= 0 else None,
            "to": square_name(hushed.to),
        }
    to_move = state.to_move
    result = None
    if state.is_terminal():
        result = {"winner": state.winner, "termination": state.termination()}
    return {
        "game": game.id,
        "ruleset": "towers" if game.towers else "designers",
        "seat_names": list(game.player_names),
        "phase": phase,
        "chooser": to_move if phase == "choice" else None,
        "south_seat": state.south if playing else None,
        "to_move": to_move,
        "side_to_move": SIDES[state.side] if phase == "play" else None,
        "pieces": pieces,
        "held": held,
        "shoo": square_name(state.pending_shoo) if state.pending_shoo >= 0 else None,
        "shooed": [square_name(square) for square in state.shooed_travellers()],
        "hushable": hushable,
        "barred": sorted(state.move_to_text(move) for move in state.barred_moves),
        "stables": {
            SIDES[side]: {
                "horses": state.stable_horses[side],
                "travellers": state.stable_travellers[side],
            }
            for side in (SOUTH, NORTH)
        },
        "pastures": {SIDES[side]: state.pasture[side] for side in (SOUTH, NORTH)},
        "traveller_stables": not game.towers,
        "homes": {SIDES[side]: _squares(HOME_MASKS[side]) for side in (SOUTH, NORTH)},
        "first_rows": {SIDES[side]: _squares(FIRST_ROWS[side]) for side in (SOUTH, NORTH)},
        "turns": state.turns,
        "max_turns": game.max_turns,
        "result": result,
        "settings": dict(game.settings),
    }


class _Context:
    """Facts about one state's legal moves that the click sequences depend on."""

    def __init__(self, state: ShooState) -> None:
        moves = state.legal_moves()
        self.declaring = {move.base() for move in moves if move.shoo >= 0}
        rides = {(move.origin, move.to) for move in moves if move.kind == RIDE}
        dismounts = {(move.origin, move.to) for move in moves if move.kind == DISMOUNT}
        self.ride_or_dismount = rides & dismounts


_CONTEXTS: OrderedDict[int, tuple[ShooState, _Context]] = OrderedDict()
_CONTEXT_CACHE_SIZE = 16


def _context(state: ShooState) -> _Context:
    """The click context of ``state``, kept for the last few states (a view asks once per legal move)."""
    entry = _CONTEXTS.get(id(state))
    if entry is not None and entry[0] is state:
        _CONTEXTS.move_to_end(id(state))
        return entry[1]
    context = _Context(state)
    _CONTEXTS[id(state)] = (state, context)
    while len(_CONTEXTS) > _CONTEXT_CACHE_SIZE:
        _CONTEXTS.popitem(last=False)
    return context


def _base_clicks(state: ShooState, move: ShooMove, context: _Context) -> list[str]:
    """The clicks of a move without its shoo declaration."""
    kind, me = move.kind, state.side
    if kind in (STEP, RIDE, DISMOUNT):
        clicks = [square_target(move.origin), square_target(move.to)]
        if kind != STEP and (move.origin, move.to) in context.ride_or_dismount:
            clicks.append(RIDE_OPTION if kind == RIDE else DISMOUNT_OPTION)
        return clicks
    if kind == MOUNT:
        clicks = [square_target(move.origin), square_target(move.via)]
        if not state.game.towers:
            clicks.append(square_target(move.to))  # the horse's own square again to stay there
        return clicks
    if kind == CAPTURE:
        return [square_target(sq) for sq in (move.origin, move.via, move.place, move.to)]
    if kind == RETURN:
        return [stable_target(me, "traveller"), square_target(move.to)]
    if kind == CALL:
        return [stable_target(me, "horse"), square_target(move.to)]
    if kind == SLIDE:
        return [square_target(move.origin), square_target(move.to)]
    if kind == HOLD:
        return [square_target(move.to), HOLD_OPTION]
    if kind == RETIRE:
        return [square_target(move.to), pasture_target(me)]
    if kind == SHOOED_OFF:
        if move.to >= 0:  # towers: dropped back on a square
            return [square_target(move.origin), square_target(move.to)]
        return [square_target(move.origin), stable_target(me, "traveller")]
    if kind == HUSH:
        return [HUSH_OPTION]
    if kind == PASS:
        return [PASS_OPTION]
    if kind == CHOOSE:
        return [CHOICE_OPTIONS[move.to]]
    raise ValueError(f"no clicks for Shoo move kind {kind}")


def move_clicks(state: State[Any], move: Any) -> tuple[str, ...]:
    """The targets a person clicks, in order, to make the legal ``move`` (scheme in the module docstring).

    Raises:
        ValueError: the move is the coin toss (a chance outcome, played by the server).
    """
    assert isinstance(state, ShooState) and isinstance(move, ShooMove)
    if move.kind == TOSS or state.to_move == CHANCE:
        raise ValueError("the coin toss is played by the server, not clicked")
    context = _context(state)
    clicks = _base_clicks(state, move.base(), context)
    if move.shoo >= 0:
        clicks.append(square_target(move.shoo))
    elif move in context.declaring:
        clicks.append(NO_SHOO)
    return tuple(clicks)


def position_edits(state: State[Any], target: str) -> list[tuple[str, str]]:
    """What a click on ``target`` can change, for the analysis board's editor: (label, new position text).

    - a square (``sq:e5``): a traveller on foot or a rider of either colour, or a free horse, put there
      in place of what stands there; or what stands there taken away;
    - a stable slot (``stable:<side>:horse`` or ``:traveller``) or a pasture (``pasture:<side>``): one
      more or one fewer there;
    - the whole position (``""``): the other side to move, or the field emptied (to set up a position
      from scratch: the pieces on it leave the game); before the opening is over, the opening skipped
      (South to move).

    An edited position starts a fresh turn: no shoo declared, no hush to offer, no move barred, no pass
    before it, and the held horse only where it still stands free. Positions are written from
    :attr:`ShooState.position` by the game; one its reader refuses (more pieces than the game has, a
    horse in a towers home area) is not offered.

    Raises:
        AssertionError: ``state`` is not a Shoo state.
    """
    assert isinstance(state, ShooState)
    game = state.game
    position = state.position
    names = game.player_names

    def colour(side: int) -> str:
        return names[position.south if side == SOUTH else 1 - position.south]

    def reads(text: str) -> bool:
        try:
            game.state_from_text(text)
        except (ShogamesError, ValueError):
            return False
        return True

    def written(**changes: Any) -> str:
        edited = dataclasses.replace(
            position, shoo=-1, hush=None, barred=frozenset(), passes=0, end=None, winner=None, **changes
        )
        if edited.held >= 0 and not edited.horses >> edited.held & 1:
            edited = dataclasses.replace(edited, held=-1)
        return game.state_from_position(edited).to_text()

    if position.phase != "play":
        if target != "":
            return []
        return [("skip the opening: South to move", written(phase="play", side=SOUTH, held=-1))]
    if target == "":
        edits = [
            (
                f"{SIDES[position.side ^ 1].title()} ({colour(position.side ^ 1)}) to move",
                written(side=position.side ^ 1),
            )
        ]
        if position.travellers != (0, 0) or position.horses:
            edits.append(("empty the field", written(travellers=(0, 0), mounted=0, horses=0, held=-1)))
        return edits
    parts = target.split(":")
    if parts[0] == "sq" and len(parts) == 2:
        return _square_edits(position, parts[1], colour, written, reads)
    if parts[0] in ("stable", "pasture") and len(parts) >= 2 and parts[1] in SIDES:
        side = SIDES.index(parts[1])
        field = "pasture" if parts[0] == "pasture" else f"stable_{parts[2] if len(parts) == 3 else ''}s"
        if field not in ("pasture", "stable_horses", "stable_travellers"):
            return []
        counts: tuple[int, int] = getattr(position, field)
        what = "retired horse" if field == "pasture" else field.removeprefix("stable_").removesuffix("s")
        edits = []
        for change, label in ((1, f"one more {what}"), (-1, f"one {what} fewer")):
            if counts[side] + change >= 0:
                new = list(counts)
                new[side] += change
                edits.append((label, written(**{field: tuple(new)})))
        return edits
    return []


def _square_edits(
    position: ShooPosition,
    name: str,
    colour: Callable[[int], str],
    written: Callable[..., str],
    reads: Callable[[str], bool],
) -> list[tuple[str, str]]:
    """The editor's changes of one square of the field (see :func:`position_edits`).

    A piece put there when its side already has every traveller, or the game every horse, comes from a
    stable: the side's own for a traveller, the side to move's (else the other's) for a horse.
    """
    try:
        square = parse_square(name)
    except ShogamesError:
        return []
    bit = 1 << square
    travellers = [position.travellers[SOUTH] & ~bit, position.travellers[NORTH] & ~bit]
    mounted, horses = position.mounted & ~bit, position.horses & ~bit
    here: tuple[int | None, str] | None = None
    for stander in (SOUTH, NORTH):
        if position.travellers[stander] & bit:
            here = (stander, "rider" if position.mounted & bit else "traveller")
    if position.horses & bit:
        here = (None, "horse")
    edits = []
    pieces: list[tuple[int | None, str]] = [
        (SOUTH, "traveller"),
        (SOUTH, "rider"),
        (NORTH, "traveller"),
        (NORTH, "rider"),
        (None, "horse"),
    ]
    for side, piece in pieces:
        if here == (side, piece):
            continue
        placed = list(travellers)
        if side is not None:
            placed[side] |= bit
        board = {
            "travellers": (placed[SOUTH], placed[NORTH]),
            "mounted": mounted | (bit if piece == "rider" else 0),
            "horses": horses | (bit if piece == "horse" else 0),
        }
        for stables in _stables_to_borrow(position, side, piece != "traveller"):
            text = written(**board, **stables)
            if reads(text):
                label = "free horse" if side is None else f"{colour(side)} {piece}"
                edits.append((label, text))
                break
    if here is not None:
        edits.append(
            (
                "take it away",
                written(travellers=(travellers[SOUTH], travellers[NORTH]), mounted=mounted, horses=horses),
            )
        )
    return edits


def _stables_to_borrow(position: ShooPosition, side: int | None, horse: bool) -> list[dict[str, Any]]:
    """The stables as they are, then with the piece put on the field taken from a stable, in that order."""
    choices: list[dict[str, Any]] = [{}]
    travellers_from: list[dict[str, Any]] = [{}]
    if side is not None and position.stable_travellers[side] > 0:
        stable = list(position.stable_travellers)
        stable[side] -= 1
        travellers_from.append({"stable_travellers": (stable[SOUTH], stable[NORTH])})
    horses_from: list[dict[str, Any]] = [{}]
    if horse:
        for giver in (position.side, position.side ^ 1):
            if position.stable_horses[giver] > 0:
                stable = list(position.stable_horses)
                stable[giver] -= 1
                horses_from.append({"stable_horses": (stable[SOUTH], stable[NORTH])})
    choices = [{**traveller, **horse_from} for horse_from in horses_from for traveller in travellers_from]
    return choices
