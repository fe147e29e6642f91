"""Sho in the browser: what the renderer (``static/renderer.js``) is told, and the clicks of each move.

The view reads the state's public facts (``stack_at``, ``hand``, ``borne_off``, ``values``, ``seat``,
``side``, ``to_move``, ``phase``, ``paras``, ``first_throw``, ``moved_stack``, ``placings``, ...), never
the position text. It holds no rules.

View fields (``position_view``)
-------------------------------
``game``
    ``"sho"``.
``shells``, ``goal``
    Shells in the line and the goal position. Track positions run ``1 .. goal - 1``; position *k* is the
    space just after shell *k*; a move reaching ``goal`` bears the stack off.
``players``, ``seat_side``
    The number of seats, and the side whose coins each seat moves (seat 0 first).
``teams``
    ``None`` for players alone, else the two teams as lists of seats (``[[0, 2], [1, 3]]``).
``sides``
    One entry per side (a player, or a team sharing coins): ``side``, ``letter`` (``a`` .. ``d``),
    ``seats`` (the seats that move its coins), ``hand``, ``off`` (borne off), ``on_track`` (coins on the
    track), ``coins`` (its total), ``entered`` (whether it has ever entered a coin) and ``place`` (its
    finishing place from 1 under ``play_to_placings``, else ``None``).
``stacks``
    Every stack on the track from position 1 upward: ``pos``, ``side``, ``size`` and ``shomo`` (an opening
    stack under ``opening_kill=topup3_on_shomo``).
``seat``, ``side``
    The seat whose turn it is (also while the dice are thrown for it) and the side it moves.
``to_move``
    The seat to move, ``-1`` while the dice are thrown (the server throws them), ``None`` once over.
``phase``
    ``"throw"`` (dice to be thrown), ``"move"``, ``"follow"`` (the second part of a flexible pa ra, or a
    finishing overflow), ``"draw"`` (the draw of the first seat) or ``"over"``.
``values``
    The values left to spend in this step (phase move or follow), or carried into the next throw.
``paras``
    The pa ra (1,1) thrown in this step so far.
``first_throw``
    The step's first throw as ``[low, high]``, or ``None``. With ``paras == 0`` it is the last throw.
``dice``
    The dice to show: ``first_throw`` (the pa ra faces ``[1, 1]`` when ``paras > 0``), or ``None``.
``moved``
    In the follow phase of a flexible pa ra: the position of the stack that may not move again, or ``None``.
``bonus``
    In that follow phase: whether the first part already earned another throw.
``banked``
    Under ``para_mode=pool``: bonus throws banked in this step.
``para_mode``, ``turns``, ``max_turns``, ``ply``
    The pa ra rule in force; seat turns completed and the turn cap; plies so far.
``terminal``, ``truncated``, ``winner_side``, ``winner_seats``, ``returns``
    The end of the game: whether it is over, whether it was cut by the turn cap (a draw), the winning
    side and its seats (``None`` and ``[]`` while going on or when drawn), each seat's return (``None``
    while going on).
``text``
    The position text.

Clicks (``move_clicks``)
------------------------
Targets drawn on the board: ``shell:<n>`` (track position *n*, the space after shell *n*), ``hand:<side>``
(the coins in hand of a side; with four players in teams sharing coins, side 0 is seats 1 and 3, side 1
seats 2 and 4, otherwise the side is the seat), and ``goal``.

- A stack moves with ``shell:<from>``, then its destination: ``shell:<to>``, or ``goal`` when it bears off.
- An entry starts with ``hand:<side>`` instead, then its destination.
- Where several moves share the same source and destination (different values with the same sum, such as
  ``23:2+11`` and ``23:13``; several values that all bear off; the six-three ``h2:9`` and ``h9:9``), a
  choice button follows: ``opt:use 2+11`` / ``opt:use 13``, or ``opt:2 coins`` / ``opt:9 coins``.
- ``pass`` is the button ``opt:pass``; ``rethrow`` (``para_mode=ios``) is ``opt:throw again``.
- Chance moves (throws, the first-seat draw) have no clicks: the server plays them.
"""

from __future__ import annotations

from typing import Any

from shogames.core.protocol import CHANCE, State
from shogames.games.sho import ENTER, MOVE, PASS, RETHROW, SIDE_LETTERS, THROW, ShoMove, ShoState


def position_view(state: State[Any]) -> dict[str, Any]:
    """A JSON-ready description of a Sho position for ``static/renderer.js`` (fields in the module doc).

    Args:
        state: a :class:`~shogames.games.sho.ShoState`.

    Returns:
        The track, the sides' hands and borne-off coins, the step's dice and values, and the result.
    """
    assert isinstance(state, ShoState)
    game = state.game
    goal = game.goal
    stacks: list[dict[str, Any]] = []
    on_track = [0] * game.num_sides
    shomo = state.shomo
    for position in range(1, goal):
        stack = state.stack_at(position)
        if stack is not None:
            side, size = stack
            on_track[side] += size
            stacks.append({"pos": position, "side": side, "size": size, "shomo": position in shomo})
    seat_side = [game.side_of(seat) for seat in range(game.players)]
    placings = state.placings
    sides = [
        {
            "side": side,
            "letter": SIDE_LETTERS[side],
            "seats": [seat for seat in range(game.players) if seat_side[seat] == side],
            "hand": state.hand[side],
            "off": state.borne_off[side],
            "on_track": on_track[side],
            "coins": game.coins,
            "entered": state.entered[side],
            "place": placings.index(side) + 1 if side in placings else None,
        }
        for side in range(game.num_sides)
    ]
    teams = [[0, 2], [1, 3]] if game.teams else None
    terminal = state.is_terminal()
    first = None if state.first_throw is None else list(state.first_throw)
    paras = state.paras
    dice = [1, 1] if paras and first is not None else first
    winner = state.winner_side
    return {
        "game": "sho",
        "shells": int(game.settings["shells"]),
        "goal": goal,
        "players": game.players,
        "seat_side": seat_side,
        "teams": teams,
        "sides": sides,
        "stacks": stacks,
        "seat": state.seat,
        "side": state.side,
        "to_move": state.to_move,
        "phase": "over" if terminal else state.phase,
        "values": list(state.values),
        "paras": paras,
        "first_throw": first,
        "dice": dice,
        "moved": state.moved_stack,
        "bonus": state.has_bonus_throw,
        "banked": state.banked_throws,
        "para_mode": str(game.settings["para_mode"]),
        "turns": state.turns,
        "max_turns": int(game.settings["max_turns"]),
        "ply": state.ply,
        "terminal": terminal,
        "truncated": state.is_truncated(),
        "winner_side": winner,
        "winner_seats": list(state.winner_seats),
        "returns": list(state.returns()) if terminal else None,
        "text": state.to_text(),
    }


def _source(state: ShoState, move: ShoMove) -> str:
    """The first click of a move: the stack's shell, or the side's hand."""
    return f"hand:{state.side}" if move.kind == ENTER else f"shell:{move.source}"


def _destination(state: ShoState, move: ShoMove) -> str:
    """The second click of a move: the shell where it lands, or the goal when it bears off."""
    target = sum(move.values) + (move.source if move.kind == MOVE else 0)
    return "goal" if target >= state.game.goal else f"shell:{target}"


def _choice_label(move: ShoMove, group: list[ShoMove]) -> str:
    """The button that tells ``move`` apart from the other moves with its source and destination."""
    used = "use " + "+".join(map(str, move.values))
    if all(other.coins == move.coins for other in group):
        return used
    coins = f"{move.coins} coin" + ("" if move.coins == 1 else "s")
    if all(other.values == move.values for other in group):
        return coins
    return f"{coins}, {used}"


def move_clicks(state: State[Any], move: Any) -> tuple[str, ...]:
    """The targets a person clicks to make ``move`` (scheme in the module doc).

    Args:
        state: a :class:`~shogames.games.sho.ShoState` where a seat is to move.
        move: one of its legal moves.

    Returns:
        ``(source, destination)``, followed by an ``opt:`` choice when other legal moves share both;
        ``("opt:pass",)`` or ``("opt:throw again",)``; ``()`` for a chance move.
    """
    assert isinstance(state, ShoState) and isinstance(move, ShoMove)
    if state.to_move == CHANCE or move.kind not in (MOVE, ENTER, PASS, RETHROW):
        return ()
    if move.kind == PASS:
        return ("opt:pass",)
    if move.kind == RETHROW:
        return ("opt:throw again",)
    source, destination = _source(state, move), _destination(state, move)
    group = [
        other
        for other in state.legal_moves()
        if other.kind in (MOVE, ENTER)
        and _source(state, other) == source
        and _destination(state, other) == destination
    ]
    if len(group) <= 1:
        return (source, destination)
    return (source, destination, "opt:" + _choice_label(move, group))


def move_note(before: State[Any], move: Any, after: State[Any]) -> str | None:
    """What a throw did that the move list alone does not say: a throw with no legal move to make.

    The engine ends such a turn at once, inside the throw's ply (the rules' R13); the page says so. ``None``
    for an ordinary move.
    """
    assert isinstance(before, ShoState) and isinstance(after, ShoState)
    if after.is_terminal() or not isinstance(move, ShoMove) or move.kind != THROW:
        return None
    if before.phase != "throw" or after.to_move == before.seat:
        return None
    names = before.game.player_names
    who = names[before.seat]
    if after.seat != before.seat:
        passes = f"the turn passes to {names[after.seat]}"
        return f"{who} threw {move.low}-{move.high} and has no legal move: {passes}"
    if after.paras == 0:
        return f"{who} threw {move.low}-{move.high} and has no legal move with it: the values are lost"
    return None
