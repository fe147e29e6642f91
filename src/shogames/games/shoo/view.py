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

from collections import OrderedDict
from typing import Any

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
    ShooState,
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
