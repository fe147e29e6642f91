"""Shobu in the browser: the four boards as JSON, and a turn as three clicks.

The view (:func:`position_view`) is a dict with these fields:

``boards``
    The four boards in board-number order (``WD``, ``WL``, ``BD``, ``BL``, as in the position text),
    each a dict:

    - ``name``: ``"WD"``, ``"WL"``, ``"BD"`` or ``"BL"`` (the names of the move notation);
    - ``index``: 0–3, its place in that order;
    - ``colour``: ``"dark"`` or ``"light"``;
    - ``owner``: the seat whose homeboard it is (0 Black, 1 White);
    - ``row`` and ``col``: where it lies in the 2×2 layout seen from Black's side (row 0 is White's half,
      north of the rope; col 0 is the left, the dark boards);
    - ``stones``: occupied squares only, square name (``"a1"`` .. ``"d4"``) to ``"b"`` or ``"w"``;
    - ``count``: ``[Black's stones, White's stones]`` on the board (a side with 0 on any board has lost).

``files`` / ``ranks``
    ``"abcd"`` and ``"1234"``: files from Black's left to right, ranks from south (Black) to north.
``players``
    The seats' names, ``["Black", "White"]``; ``colours`` gives each seat's stone letter, ``["b", "w"]``.
``homeboards``
    Per seat, the names of its two homeboards: ``[["BD", "BL"], ["WD", "WL"]]``.
``to_move``
    The seat to move (0 or 1), or ``None`` when the game is over; ``side`` is the side (colour) whose turn
    it is or would be, also once the game is over (each seat plays its own side, with the same number);
    ``mover_colour`` is that side's stone letter.
``turns`` / ``max_turns``
    Turns played so far, and the length cap (the game is drawn as truncated when it is reached).
``terminal`` / ``winner`` / ``termination``
    Whether the game is over, the winning seat (``None`` while going on or when drawn), and why it ended
    (``"normal"``, ``"no legal turn"``, ``"length cap"``, or ``None``).
``no_turn``
    The setting: ``"lose"`` (a side without a legal turn loses) or ``"pass"`` (it passes).

Click scheme (:func:`move_clicks`), with board targets ``sq:<board name>:<square>`` such as
``sq:BD:a1``:

1. the passive stone, on one of the mover's homeboards;
2. the passive stone's destination (one or two squares away: this fixes direction and distance);
3. the aggressive stone, on a board of the other colour; its destination and any push follow from the
   passive move, so the turn is complete.

Every turn is three clicks, and the three name the turn exactly, so no sequence is a prefix of another.
Under ``no_turn=pass`` a side with no legal turn has one move, the button ``opt:pass``.
"""

from __future__ import annotations

from typing import Any

from shogames.core.protocol import State
from shogames.games.shobu import (
    BLACK,
    BOARD_NAMES,
    FILE_NAMES,
    WHITE,
    ShobuMove,
    ShobuPosition,
    ShobuState,
    square_name,
)

_COLOURS = ("dark", "light", "dark", "light")
"""Each board's colour in board-number order (the dark boards are the left ones)."""
_OWNERS = (WHITE, WHITE, BLACK, BLACK)
"""Each board's owner: White's homeboards north of the rope, Black's south."""
_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""(file step, rank step) of each direction, in the order of the game's ``DIRECTION_NAMES``."""


def square_target(bit: int) -> str:
    """The click target of a square given as its bit 0–63 (board ``bit // 16``), such as ``sq:BD:a1``."""
    return f"sq:{BOARD_NAMES[bit >> 4]}:{square_name(bit)}"


def _shobu(state: State[Any]) -> ShobuState:
    if not isinstance(state, ShobuState):
        raise TypeError(f"not a Shobu state: {type(state).__name__}")
    return state


def position_view(state: State[Any]) -> dict[str, Any]:
    """The JSON-ready description of a Shobu position (fields in the module docstring)."""
    shobu = _shobu(state)
    black, white = shobu.black, shobu.white
    boards: list[dict[str, Any]] = []
    for index, name in enumerate(BOARD_NAMES):
        stones: dict[str, str] = {}
        counts = [0, 0]
        for within in range(16):
            bit = 16 * index + within
            if black >> bit & 1:
                stones[square_name(bit)] = "b"
                counts[BLACK] += 1
            elif white >> bit & 1:
                stones[square_name(bit)] = "w"
                counts[WHITE] += 1
        boards.append(
            {
                "name": name,
                "index": index,
                "colour": _COLOURS[index],
                "owner": _OWNERS[index],
                "row": index // 2,
                "col": index % 2,
                "stones": stones,
                "count": counts,
            }
        )
    players = list(shobu.game.player_names)
    side = shobu.side
    return {
        "boards": boards,
        "files": FILE_NAMES,
        "ranks": "1234",
        "players": players,
        "colours": ["b", "w"],
        "homeboards": [
            [name for index, name in enumerate(BOARD_NAMES) if _OWNERS[index] == seat]
            for seat in (BLACK, WHITE)
        ],
        "to_move": shobu.to_move,
        "side": side,
        "mover_colour": "b" if side == BLACK else "w",
        "turns": shobu.turns,
        "max_turns": shobu.game.max_game_length,
        "terminal": shobu.is_terminal(),
        "winner": shobu.winner,
        "termination": shobu.termination(),
        "no_turn": str(shobu.game.settings["no_turn"]),
    }


def move_clicks(state: State[Any], move: Any) -> tuple[str, ...]:
    """The clicks of a turn: passive stone, passive destination, aggressive stone (or ``opt:pass``).

    Raises:
        TypeError: ``state`` is not a Shobu state or ``move`` is not a :class:`ShobuMove`.
    """
    _shobu(state)
    if not isinstance(move, ShobuMove):
        raise TypeError(f"not a Shobu move: {move!r}")
    if move.is_pass:
        return ("opt:pass",)
    df, dr = _STEPS[move.direction]
    passive_to = move.passive_from + move.distance * (df + 4 * dr)
    return (square_target(move.passive_from), square_target(passive_to), square_target(move.aggressive_from))


def last_move_targets(state: State[Any], move: Any) -> tuple[str, ...]:
    """The squares that show a turn as the last move, more than its clicks.

    The passive stone's from and to, the aggressive stone's from and where it landed, and the square of
    any stone it pushed (where that stone stood, and where it now stands if it stayed on the board).

    Raises:
        TypeError: ``state`` is not a Shobu state or ``move`` is not a :class:`ShobuMove`.
    """
    before = _shobu(state)
    clicks = move_clicks(before, move)
    if move.is_pass:
        return ()
    df, dr = _STEPS[move.direction]
    landed = move.aggressive_from + move.distance * (df + 4 * dr)
    after = _shobu(before.play_unchecked(move))
    stones_before = before.white if before.side == BLACK else before.black
    stones_after = after.white if before.side == BLACK else after.black
    changed = stones_before ^ stones_after  # the pushed stone's old square, and its new one if on board
    pushed = [square_target(bit) for bit in range(64) if changed >> bit & 1]
    return (*clicks, square_target(landed), *pushed)


def _square_bit(target: str) -> int | None:
    """The bit of a square target ``sq:<board>:<square>`` (``sq:BD:a1``), or ``None`` for another target."""
    parts = target.split(":")
    if len(parts) != 3 or parts[0] != "sq" or parts[1] not in BOARD_NAMES or len(parts[2]) != 2:
        return None
    file, rank = parts[2][0], parts[2][1]
    if file not in FILE_NAMES or rank not in "1234":
        return None
    return 16 * BOARD_NAMES.index(parts[1]) + 4 * (int(rank) - 1) + FILE_NAMES.index(file)


def position_edits(state: State[Any], target: str) -> list[tuple[str, str]]:
    """What a click on ``target`` can change, for the analysis board's editor: (label, new position text).

    A square: a Black or a White stone put there, or the stone there taken away or turned into the other
    colour. The whole position (``target == ""``): the other side to move, and the turn count set back to
    0 when it is not. The positions are written from :attr:`ShobuState.position` by the game; a change that
    clears a board of the side that moved last is refused by the game's reader, so it is not offered.

    Raises:
        TypeError: ``state`` is not a Shobu state.
    """
    shobu = _shobu(state)
    game = shobu.game
    position = shobu.position
    names = game.player_names

    def written(black: int, white: int, side: int, turns: int) -> str:
        return game.state_from_position(ShobuPosition(black, white, side, turns)).to_text()

    if target == "":
        edits = [
            (
                f"{names[1 - position.side]} to move",
                written(position.black, position.white, 1 - position.side, position.turns),
            )
        ]
        if position.turns:
            edits.append(("turn count to 0", written(position.black, position.white, position.side, 0)))
        return edits
    bit = _square_bit(target)
    if bit is None:
        return []
    mask = 1 << bit
    black, white = position.black & ~mask, position.white & ~mask
    stones = {"b": (black | mask, white), "w": (black, white | mask), "": (black, white)}
    here = "b" if position.black & mask else "w" if position.white & mask else ""
    labels = {"b": f"{names[BLACK]} stone", "w": f"{names[WHITE]} stone", "": "remove the stone"}
    return [
        (labels[kind], written(*stones[kind], position.side, position.turns))
        for kind in ("b", "w", "")
        if kind != here
    ]
