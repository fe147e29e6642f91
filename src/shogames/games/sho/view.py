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

import dataclasses
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


def position_edits(state: State[Any], target: str) -> list[tuple[str, str]]:
    """What a click on ``target`` can change, for the analysis board's editor: (label, new position text).

    Coins are never made or lost: each side has its coins in hand, on the track or borne off.

    - ``shell:<n>``: on an empty position, a stack of one coin of a side from its hand; on a stack, one
      coin more or fewer (to and from its side's hand), the whole stack back to its hand, or the stack
      given to another side (coins swapped between the hands);
    - ``hand:<side>``: one coin of the hand borne off, or one borne-off coin back in hand;
    - ``goal``: the same for each side;
    - the whole position (``""``): each seat to throw (the turn starts afresh: no values, no pa ra).

    Positions are written from :attr:`ShoState.position` by the game (the winner judged again from the
    borne-off coins); one its reader refuses is not offered.

    Raises:
        AssertionError: ``state`` is not a Sho state.
    """
    assert isinstance(state, ShoState)
    game = state.game
    position = state.position
    names = game.player_names

    def side_name(side: int) -> str:
        return " and ".join(names[seat] for seat in range(game.players) if game.side_of(seat) == side)

    def written(**changes: Any) -> str:
        edited = dataclasses.replace(position, winner=None, placed=(), **changes)
        return game.state_from_position(edited).to_text()

    def with_counts(hand: list[int], off: list[int], owner: list[int], size: list[int], **more: Any) -> str:
        entered = tuple(
            position.entered[side] or off[side] > 0 or side in owner for side in range(game.num_sides)
        )
        return written(
            hand=tuple(hand), off=tuple(off), owner=tuple(owner), size=tuple(size), entered=entered, **more
        )

    hand, off = list(position.hand), list(position.off)
    owner, size = list(position.owner), list(position.size)
    edits: list[tuple[str, str]] = []
    if target == "":
        for seat in range(game.players):
            if seat == position.seat and position.phase == "throw":
                continue
            turn = {"values": (), "paras": 0, "first": None, "moved": -1, "bonus": False, "banked": 0}
            edits.append((f"{names[seat]} to throw", written(seat=seat, phase="throw", **turn)))
        return edits
    if target.startswith("shell:") and target[6:].isdigit() and 0 < int(target[6:]) < game.goal:
        spot = int(target[6:])
        shomo = position.shomo - {spot}
        side, count = owner[spot], size[spot]
        if side < 0:
            for giver in range(game.num_sides):
                if hand[giver] > 0:
                    new_hand = hand.copy()
                    new_hand[giver] -= 1
                    placed = with_counts(new_hand, off, _set(owner, spot, giver), _set(size, spot, 1))
                    edits.append((f"{side_name(giver)}: a coin here", placed))
            return edits
        if hand[side] > 0:
            new_hand = hand.copy()
            new_hand[side] -= 1
            edits.append(("one coin more", with_counts(new_hand, off, owner, _set(size, spot, count + 1))))
        new_hand = hand.copy()
        new_hand[side] += count
        cleared_owner, cleared_size = _set(owner, spot, -1), _set(size, spot, 0)
        if count > 1:
            one_back = hand.copy()
            one_back[side] += 1
            edits.append(("one coin fewer", with_counts(one_back, off, owner, _set(size, spot, count - 1))))
        edits.append(
            ("back to the hand", with_counts(new_hand, off, cleared_owner, cleared_size, shomo=shomo))
        )
        for other in range(game.num_sides):
            if other != side and hand[other] >= count:
                swapped = new_hand.copy()
                swapped[other] -= count
                edits.append(
                    (
                        f"make it {side_name(other)}'s",
                        with_counts(swapped, off, _set(owner, spot, other), size, shomo=shomo),
                    )
                )
        return edits
    if target.startswith("hand:") and target[5:].isdigit() and int(target[5:]) < game.num_sides:
        sides = [int(target[5:])]
    elif target == "goal":
        sides = list(range(game.num_sides))
    else:
        return []
    for side in sides:
        who = f"{side_name(side)}: " if target == "goal" else ""
        if hand[side] > 0:
            edits.append(
                (
                    f"{who}bear a coin off",
                    with_counts(
                        _set(hand, side, hand[side] - 1), _set(off, side, off[side] + 1), owner, size
                    ),
                )
            )
        if off[side] > 0:
            edits.append(
                (
                    f"{who}a borne-off coin back in hand",
                    with_counts(
                        _set(hand, side, hand[side] + 1), _set(off, side, off[side] - 1), owner, size
                    ),
                )
            )
    return edits


def _set(values: list[int], index: int, value: int) -> list[int]:
    """A copy of ``values`` with ``values[index]`` set to ``value``."""
    copy = values.copy()
    copy[index] = value
    return copy
