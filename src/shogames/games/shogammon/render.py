"""Shogammon drawn as SVG in Python: the board with its points, both hand stands, the dice and the die map.

This mirrors the browser's renderer, ``static/renderer.js``, line for line: the same constants, the same
helper functions and the same order of output, so the two read side by side. :func:`board_svg` takes the
view of :func:`shogames.games.shogammon.view.position_view` (as JSON-ready data) and gives the markup that
``render(view, {orientation, names, over})`` gives in the browser, character for character;
``tests/test_render_shogammon.py`` holds the two to the same markup over random positions of every preset.

Numbers and text are printed as JavaScript prints them (:mod:`shogames.svg`): JavaScript has only doubles,
so divisions here are float divisions and every number in the markup goes through :func:`js_number`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from shogames.svg import esc, js_length, js_number, js_slice, js_string

SQ_W: Final = 60
SQ_H: Final = 66
BOARD_MARGIN: Final = 30
BOARD_W: Final = 9 * SQ_W + 2 * BOARD_MARGIN
BOARD_H: Final = 9 * SQ_H + 2 * BOARD_MARGIN
PAD: Final = 14
COL_W: Final = 156
GAP: Final = 18
BOARD_X: Final = PAD + COL_W + GAP
BOARD_Y: Final = PAD + 18
GRID_X: Final = BOARD_X + BOARD_MARGIN
GRID_Y: Final = BOARD_Y + BOARD_MARGIN
RIGHT_X: Final = BOARD_X + BOARD_W + GAP
WIDTH: Final = RIGHT_X + COL_W + PAD
HEIGHT: Final = BOARD_Y + BOARD_H + PAD

PIECE_W: Final = 50
PIECE_H: Final = 56
SIZE: Final[Mapping[str, float]] = {
    "K": 1.0,
    "R": 0.97,
    "B": 0.97,
    "G": 0.93,
    "S": 0.93,
    "N": 0.9,
    "L": 0.88,
    "P": 0.84,
}
NAMES: Final[Mapping[str, str]] = {
    "P": "pawn",
    "L": "lance",
    "N": "knight",
    "S": "silver",
    "G": "gold",
    "B": "bishop",
    "R": "rook",
    "K": "king",
}
PROMOTED_NAMES: Final[Mapping[str, str]] = {
    "P": "tokin",
    "L": "promoted lance",
    "N": "promoted knight",
    "S": "promoted silver",
    "B": "horse",
    "R": "dragon",
}
SERIF: Final = "'DejaVu Serif', Georgia, 'Times New Roman', serif"
SANS: Final = "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif"

_SPOTS: Final[Mapping[int, tuple[tuple[int, int], ...]]] = {
    1: ((2, 2),),
    2: ((1, 1), (3, 3)),
    3: ((1, 1), (2, 2), (3, 3)),
    4: ((1, 1), (3, 1), (1, 3), (3, 3)),
    5: ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3)),
    6: ((1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)),
}
"""The pips of each face on a 4 x 4 grid of quarters (``pips``'s table in the JS)."""


def _n(x: float) -> str:
    """``${x}``: a number as a template literal prints it."""
    return js_number(x)


def _math_round(x: float) -> int:
    """``Math.round``: the nearest integer, halves rounded up (towards +infinity), unlike Python's round."""
    low = math.floor(x)
    return low + 1 if x - low >= 0.5 else low


def num(x: float) -> float:
    """A coordinate rounded to two decimals, as the JS ``num`` does (``Math.round(x * 100) / 100``)."""
    return _math_round(x * 100) / 100


def pentagon(scale: float) -> str:
    """The points of a piece's pentagon pointing up, centred on (0, 0), for a size factor."""
    w = PIECE_W * scale
    h = PIECE_H * scale
    pts = [
        (0, -h / 2),
        (w * 0.37, -h * 0.3),
        (w / 2, h / 2),
        (-w / 2, h / 2),
        (-w * 0.37, -h * 0.3),
    ]
    return " ".join(f"{_n(num(x))},{_n(num(y))}" for x, y in pts)


def piece_shape(piece: Mapping[str, Any], scale: float, *, text_shift: float = 0, text_x: float = 0) -> str:
    """One piece centred on (0, 0) pointing up (the caller rotates White's), with its letter.

    ``text_shift`` and ``text_x`` are the JS ``opts.textShift`` and ``opts.textX``.
    """
    kind = piece["kind"]
    s = SIZE[kind] * scale
    h = PIECE_H * s
    title = (PROMOTED_NAMES.get(kind) or kind) if piece.get("promoted") else (NAMES.get(kind) or kind)
    ink = "#b3191b" if piece.get("promoted") else "#1d140c"
    font_size = num(27 * s)
    text_y = num(h * 0.19 + (text_shift or 0))
    text_xn = num(text_x or 0)
    label = esc(kind)
    if piece.get("promoted"):
        label = (
            f'<tspan font-size="{_n(num(15 * s))}" dy="{_n(num(-8 * s))}">+</tspan>'
            f'<tspan dy="{_n(num(8 * s))}">{label}</tspan>'
        )
    return (
        f'<g class="piece"><title>{esc(title)}</title>'
        f'<polygon points="{pentagon(s)}" transform="translate(1.6,2.2)" fill="rgba(40,20,0,0.32)"/>'
        f'<polygon points="{pentagon(s)}" fill="url(#sg-piece)" stroke="#6b4a22" stroke-width="1.2" '
        f'stroke-linejoin="round"/>'
        f'<polygon points="{pentagon(s * 0.86)}" transform="translate(0,{_n(num(h * 0.05))})" fill="none" '
        f'stroke="rgba(120,80,30,0.25)" stroke-width="0.8"/>'
        f'<text x="{_n(text_xn)}" y="{_n(text_y)}" text-anchor="middle" font-family="{SERIF}" '
        f'font-weight="bold" font-size="{_n(font_size)}" fill="{ink}">{label}</text>'
        f"</g>"
    )


def square_contents(cell: Sequence[Mapping[str, Any]] | None, cx: float, cy: float, orientation: int) -> str:
    """A square's contents: one piece, or a point (lower piece behind, upper piece in front)."""
    if not cell:
        return ""

    def rot(p: Mapping[str, Any]) -> int:
        return 0 if p["owner"] == orientation else 180

    if len(cell) == 1:
        return (
            f'<g transform="translate({_n(num(cx))},{_n(num(cy))}) rotate({rot(cell[0])})">'
            f"{piece_shape(cell[0], 1)}</g>"
        )
    lower, upper = cell[0], cell[1]
    # Both pieces belong to one side; offsets are in the piece's own frame, so they turn with it.
    return (
        f'<g class="point" transform="translate({_n(num(cx))},{_n(num(cy))}) rotate({rot(upper)})">'
        f'<g transform="translate(-9,-11)">{piece_shape(lower, 0.76, text_shift=-5, text_x=-2)}</g>'
        f'<g transform="translate(7,8)">{piece_shape(upper, 0.84)}</g>'
        f"</g>"
    )


def screen(r: int, c: int, orientation: int) -> tuple[int, int]:
    """The board square (screen column, screen row) of view coordinates (rank row r, file column c)."""
    return (8 - c, 8 - r) if orientation == 1 else (c, r)


def pips(face: int, x: float, y: float, size: float, colour: str) -> str:
    """The pips of a die's ``face`` in the square of side ``size`` at (x, y); none for another face."""
    q = size / 4
    spots = _SPOTS.get(face, ())
    r = num(size * 0.09)
    return "".join(
        f'<circle cx="{_n(num(x + i * q))}" cy="{_n(num(y + j * q))}" r="{_n(r)}" fill="{colour}"/>'
        for i, j in spots
    )


def die(face: int, x: float, y: float, size: float, state: str) -> str:
    """One die: ``state`` is "live", "used" (a played die, face unknown) or "idle" (before the roll)."""
    rx = num(size * 0.18)
    if state == "live":
        return (
            f'<g class="die live">'
            f'<rect x="{_n(num(x + 2))}" y="{_n(num(y + 3))}" width="{_n(size)}" height="{_n(size)}" '
            f'rx="{_n(rx)}" fill="rgba(0,0,0,0.25)"/>'
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" rx="{_n(rx)}" '
            f'fill="url(#sg-die)" stroke="#5b4630" stroke-width="1.4"/>'
            + pips(face, x, y, size, "#b3191b" if face == 1 else "#22180f")
            + "</g>"
        )
    label = "used" if state == "used" else ""
    dash = "0" if state == "used" else "4 3"
    return (
        f'<g class="die {state}" opacity="0.45">'
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" rx="{_n(rx)}" fill="#e8dcc6" '
        f'stroke="#8a7658" stroke-width="1.2" stroke-dasharray="{dash}"/>'
        + (
            f'<text x="{_n(num(x + size / 2))}" y="{_n(num(y + size / 2 + 5))}" text-anchor="middle" '
            f'font-family="{SANS}" font-size="14" fill="#5b4630">{label}</text>'
            if label
            else ""
        )
        + "</g>"
    )


def seat_icon(seat: int, x: float, y: float, active: bool) -> str:
    """The small pentagon of a seat's colour on its name plate, edged in red while it is to move."""
    fill = "#1d140c" if seat == 0 else "#fbf6ea"
    pts = "0,-9 6,-5 7.5,9 -7.5,9 -6,-5"
    stroke = "#b3191b" if active else "#3a2a18"
    return (
        f'<polygon points="{pts}" transform="translate({_n(x)},{_n(y)})" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="1.4"/>'
    )


def _seat_name(names: Sequence[str | None], seat: int, players: Sequence[Any]) -> Any:
    """``names[seat] != null && names[seat] !== "" ? names[seat] : view.players[seat]``.

    A seat past the end of ``names`` reads as ``undefined`` in JavaScript, so it falls back as ``None``.
    """
    given = names[seat] if 0 <= seat < len(names) else None
    return given if given is not None and given != "" else players[seat]


def hand_stand(
    view: Mapping[str, Any], seat: int, x: float, y: float, orientation: int, names: Sequence[str | None]
) -> tuple[str, float]:
    """A hand stand (komadai) with its name plate above the tray: its markup and its height."""
    w = COL_W
    rows = 4
    slot_w = w / 2
    slot_h = 64
    plate_h = 34
    tray_h = rows * slot_h + 12
    tray_y = y + plate_h + 6
    active = not view.get("terminal") and view.get("side") == seat
    name = _seat_name(names, seat, view["players"])
    seat_name = view["players"][seat]
    won = view.get("winner") == seat
    if won:
        suffix = " · won"
    elif active:
        suffix = " · to roll" if view.get("to_move") == -1 else " · to move"
    else:
        suffix = ""
    out = f'<g class="hand-stand seat-{seat}{" to-move" if active else ""}">'
    out += (
        f'<rect class="name-plate" x="{_n(x)}" y="{_n(y)}" width="{w}" height="{plate_h}" rx="6" '
        f'fill="{"#fff4d6" if active or won else "#f4ead6"}" '
        f'stroke="{"#c8961e" if won else "#b3191b" if active else "#a08a66"}" '
        f'stroke-width="{2 if active or won else 1}"/>'
        + seat_icon(seat, x + 16, y + plate_h / 2, active)
        + f'<text x="{_n(x + 30)}" y="{_n(y + 15)}" font-family="{SANS}" font-size="13" font-weight="bold" '
        f'fill="#2a1d10">{esc(name)}</text>'
        f'<text x="{_n(x + 30)}" y="{_n(y + 28)}" font-family="{SANS}" font-size="10.5" '
        f'fill="#6b5638">{esc(seat_name)}{suffix}</text>'
    )
    out += (
        f'<rect x="{_n(x + 2)}" y="{_n(tray_y + 3)}" width="{w}" height="{tray_h}" rx="5" '
        f'fill="rgba(40,20,0,0.25)"/>'
        f'<rect x="{_n(x)}" y="{_n(tray_y)}" width="{w}" height="{tray_h}" rx="5" fill="url(#sg-stand)" '
        f'stroke="#6b4a22" stroke-width="1.2"/>'
        f'<rect x="{_n(x + 6)}" y="{_n(tray_y + 6)}" width="{w - 12}" height="{tray_h - 12}" rx="3" '
        f'fill="none" stroke="rgba(90,55,20,0.35)"/>'
    )
    held: Sequence[Mapping[str, Any]] = view["hands"][seat] or []
    if len(held) == 0:
        out += (
            f'<text x="{_n(x + w / 2)}" y="{_n(tray_y + tray_h / 2 + 4)}" text-anchor="middle" '
            f'font-family="{SANS}" font-size="12" fill="rgba(60,35,10,0.55)">no pieces in hand</text>'
        )
    upright = seat == orientation
    for i, entry in enumerate(held):
        # Fill the tray from the owner's side: bottom rows first for the bottom player, top rows for the top.
        col = i % 2
        row = i // 2
        sx = x + col * slot_w
        sy = tray_y + 6 + (rows - 1 - row) * slot_h if upright else tray_y + 6 + row * slot_h
        cx = sx + slot_w / 2
        cy = sy + slot_h / 2
        piece = {"owner": seat, "kind": entry["kind"], "promoted": False}
        out += (
            f'<g transform="translate({_n(num(cx - 6))},{_n(num(cy))}) rotate({0 if upright else 180})">'
            f"{piece_shape(piece, 0.86)}</g>"
        )
        if entry["count"] > 1:
            out += (
                f'<circle cx="{_n(num(cx + 22))}" cy="{_n(num(cy + 18))}" r="10" fill="#2a1d10" '
                f'stroke="#f4ead6" stroke-width="1.2"/>'
                f'<text x="{_n(num(cx + 22))}" y="{_n(num(cy + 22))}" text-anchor="middle" '
                f'font-family="{SANS}" font-size="12" font-weight="bold" '
                f'fill="#fff">{js_string(entry["count"])}</text>'
            )
        out += (
            f'<rect class="target hand" data-target="hand:{seat}:{esc(entry["kind"])}" '
            f'x="{_n(num(sx + 3))}" y="{_n(num(sy + 1))}" width="{_n(num(slot_w - 6))}" '
            f'height="{slot_h - 2}" rx="6" fill="transparent" pointer-events="all">'
            f"<title>{esc(seat_name)}'s {esc(NAMES.get(entry['kind']) or entry['kind'])} in hand: "
            f"{js_string(entry['count'])}</title></rect>"
        )
    out += "</g>"
    return out, plate_h + 6 + tray_h


def dice_panel(view: Mapping[str, Any], x: float, y: float) -> tuple[str, float]:
    """The dice box: the dice left (or idle dice), each with the kinds it moves, and the status line."""
    w = COL_W
    size = 56
    h = 176
    out = '<g class="dice-panel">'
    out += f'<rect x="{_n(x)}" y="{_n(y)}" width="{w}" height="{h}" rx="8" fill="#f4ead6" stroke="#a08a66"/>'
    out += (
        f'<text x="{_n(x + w / 2)}" y="{_n(y + 20)}" text-anchor="middle" font-family="{SANS}" '
        f'font-size="12" font-weight="bold" letter-spacing="1" fill="#6b5638">DICE</text>'
    )
    dx = [x + w / 2 - size - 7, x + w / 2 + 7]
    dy = y + 34
    kinds_of: dict[Any, Any] = {}
    for entry in view["die_map"]:
        kinds_of[entry["face"]] = entry["kinds"]
    dice: Sequence[Any] = view["dice"]
    if view.get("terminal"):
        out += die(0, dx[0], dy, size, "idle") + die(0, dx[1], dy, size, "idle")
    elif len(dice) == 0:
        out += die(0, dx[0], dy, size, "idle") + die(0, dx[1], dy, size, "idle")
        out += (
            f'<text x="{_n(x + w / 2)}" y="{_n(dy + size / 2 + 5)}" text-anchor="middle" '
            f'font-family="{SANS}" font-size="13" fill="#5b4630">rolling…</text>'
        )
    else:
        faces: Sequence[Any] = dice if len(dice) == 2 else [None, dice[0]]
        for i, face in enumerate(faces):
            if face is None:
                out += die(0, dx[i], dy, size, "used")
                continue
            out += die(face, dx[i], dy, size, "live")
            kinds = " ".join(js_string(kind) for kind in kinds_of.get(face) or [])
            out += (
                f'<text x="{_n(num(dx[i] + size / 2))}" y="{_n(dy + size + 20)}" text-anchor="middle" '
                f'font-family="{SERIF}" font-weight="bold" font-size="17" fill="#2a1d10">{esc(kinds)}</text>'
            )
        if len(dice) == 2 and dice[0] == dice[1]:
            out += (
                f'<text x="{_n(x + w / 2)}" y="{_n(dy + size + 38)}" text-anchor="middle" '
                f'font-family="{SANS}" font-size="10.5" fill="#6b5638">doubles: two moves</text>'
            )
    # The status line, wrapped onto two lines when it is long.
    lines: list[str] = []
    for word in js_string(view.get("status") or "").split(" "):
        last = len(lines) - 1
        if last >= 0 and js_length(lines[last] + " " + word) <= 22:
            lines[last] += " " + word
        else:
            lines.append(word)
    shown = lines[-2:]
    fill = "#b3191b" if view.get("terminal") else "#2a1d10"
    weight = "bold" if view.get("terminal") else "normal"
    for i, line in enumerate(shown):
        ly = y + h - 14 - (len(shown) - 1 - i) * 15
        out += (
            f'<text x="{_n(x + w / 2)}" y="{_n(ly)}" text-anchor="middle" font-family="{SANS}" '
            f'font-size="11.5" fill="{fill}" font-weight="{weight}">{esc(line)}</text>'
        )
    out += "</g>"
    return out, h


def die_map_legend(view: Mapping[str, Any], x: float, y: float) -> tuple[str, float]:
    """The die map: for each face its pips, its kinds' letters and names, the live faces highlighted."""
    w = COL_W
    row_h = 24
    h = 30 + 6 * row_h + 22
    live = list(view.get("dice") or [])
    out = '<g class="die-map">'
    out += f'<rect x="{_n(x)}" y="{_n(y)}" width="{w}" height="{h}" rx="8" fill="#f4ead6" stroke="#a08a66"/>'
    out += (
        f'<text x="{_n(x + w / 2)}" y="{_n(y + 20)}" text-anchor="middle" font-family="{SANS}" '
        f'font-size="12" font-weight="bold" letter-spacing="1" fill="#6b5638">DIE MAP</text>'
    )
    for i, entry in enumerate(view["die_map"]):
        ry = y + 30 + i * row_h
        on = entry["face"] in live and not view.get("terminal")
        if on:
            out += (
                f'<rect x="{_n(x + 6)}" y="{_n(ry - 1)}" width="{w - 12}" height="{row_h - 2}" rx="4" '
                f'fill="#f3cf83" opacity="0.8"/>'
            )
        out += (
            f'<rect x="{_n(x + 14)}" y="{_n(ry + 2)}" width="18" height="18" rx="3.5" fill="#fffdf7" '
            f'stroke="#5b4630" stroke-width="1"/>'
        )
        out += pips(entry["face"], x + 14, ry + 2, 18, "#b3191b" if entry["face"] == 1 else "#22180f")
        text = ", ".join(js_string(NAMES.get(k) or k) for k in entry["kinds"])
        letters = " ".join(js_string(k) for k in entry["kinds"])
        out += (
            f'<text x="{_n(x + 40)}" y="{_n(ry + 16)}" font-family="{SERIF}" font-weight="bold" '
            f'font-size="14" fill="#2a1d10">{esc(letters)}</text>'
        )
        short = js_slice(text, 0, 14) + "…" if js_length(text) > 15 else text
        out += (
            f'<text x="{_n(x + 76)}" y="{_n(ry + 15)}" font-family="{SANS}" font-size="9.5" '
            f'fill="#6b5638">{esc(short)}</text>'
        )
    foot = "strict dice · promoted keep face" if view.get("strict_dice") else "promoted pieces keep the face"
    out += (
        f'<text x="{_n(x + w / 2)}" y="{_n(y + h - 9)}" text-anchor="middle" font-family="{SANS}" '
        f'font-size="9" fill="#6b5638">{esc(foot)}</text>'
    )
    out += "</g>"
    return out, h


def defs() -> str:
    """The gradients and the wood grain pattern the board, pieces, stands and dice are filled with."""
    return (
        "<defs>"
        '<linearGradient id="sg-board" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#ecc57c"/><stop offset="0.5" stop-color="#e0b05e"/>'
        '<stop offset="1" stop-color="#d19d4a"/>'
        "</linearGradient>"
        '<pattern id="sg-grain" width="240" height="14" patternUnits="userSpaceOnUse">'
        '<path d="M0 4 C60 1 120 7 240 3" stroke="rgba(150,95,30,0.16)" fill="none" stroke-width="1.3"/>'
        '<path d="M0 10 C80 12 160 8 240 11" stroke="rgba(150,95,30,0.1)" fill="none" stroke-width="1"/>'
        "</pattern>"
        '<linearGradient id="sg-piece" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#fbe7bd"/><stop offset="1" stop-color="#e9c47f"/>'
        "</linearGradient>"
        '<linearGradient id="sg-stand" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#c98f4b"/><stop offset="1" stop-color="#a86d32"/>'
        "</linearGradient>"
        '<linearGradient id="sg-die" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#ece4d4"/>'
        "</linearGradient>"
        "</defs>"
    )


def _nm(p: Mapping[str, Any]) -> str:
    """A piece's name for a point's title (``nm`` inside the JS ``render``): "dragon", "gold", ..."""
    named = PROMOTED_NAMES.get(p["kind"]) if p.get("promoted") else NAMES.get(p["kind"])
    return js_string(named or p["kind"])


def board_svg(
    view: Mapping[str, Any],
    *,
    orientation: int = 0,
    names: Sequence[str | None] = (),
    over: bool = False,
) -> str:
    """Draw a Shogammon position: ``render(view, {orientation, names, over})`` of ``static/renderer.js``.

    Args:
        view: the JSON-ready dict of :func:`shogames.games.shogammon.view.position_view`.
        orientation: the seat shown at the bottom (1 for White; anything else shows Black at the bottom).
        names: names to show for the seats, by seat; ``None``, ``""`` or a missing entry keeps the seat's
            colour.
        over: draw the game as finished though the position is not (a resignation, a loss on time).

    Returns:
        An ``<svg>`` element as markup.
    """
    # A game ended off the board (resignation, time) has nobody to move.
    if over and not view.get("terminal"):
        view = {**view, "terminal": True, "winner": None, "status": "Game over", "dice": []}
    orientation = 1 if orientation == 1 and not isinstance(orientation, bool) else 0
    # JS `options.names || view.players`: any array is truthy, so the names given are used as they are;
    # a seat they leave out (or give as null or "") falls back to view.players in hand_stand either way.
    files: str = view.get("files") or "987654321"
    ranks: str = view.get("ranks") or "abcdefghi"
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="shogammon-svg" '
        'role="img" aria-label="Shogammon board">'
    )
    svg += defs()

    # The board: a wooden block with a shadow, grid, star points and coordinates.
    svg += (
        f'<rect x="{BOARD_X + 4}" y="{BOARD_Y + 6}" width="{BOARD_W}" height="{BOARD_H}" rx="6" '
        f'fill="rgba(40,20,0,0.3)"/>'
    )
    svg += (
        f'<rect x="{BOARD_X}" y="{BOARD_Y}" width="{BOARD_W}" height="{BOARD_H}" rx="6" '
        f'fill="url(#sg-board)" stroke="#8a5a25" stroke-width="1.5"/>'
    )
    svg += (
        f'<rect x="{BOARD_X}" y="{BOARD_Y}" width="{BOARD_W}" height="{BOARD_H}" rx="6" '
        f'fill="url(#sg-grain)"/>'
    )
    grid = ""
    for i in range(10):
        w = 2 if i in (0, 9) else 1
        grid += (
            f'<line x1="{GRID_X + i * SQ_W}" y1="{GRID_Y}" x2="{GRID_X + i * SQ_W}" y2="{GRID_Y + 9 * SQ_H}" '
            f'stroke="#3b2410" stroke-width="{w}"/>'
        )
        grid += (
            f'<line x1="{GRID_X}" y1="{GRID_Y + i * SQ_H}" x2="{GRID_X + 9 * SQ_W}" y2="{GRID_Y + i * SQ_H}" '
            f'stroke="#3b2410" stroke-width="{w}"/>'
        )
    for i in (3, 6):
        for j in (3, 6):
            grid += f'<circle cx="{GRID_X + i * SQ_W}" cy="{GRID_Y + j * SQ_H}" r="4" fill="#3b2410"/>'
    svg += grid
    for k in range(9):
        file = files[8 - k] if orientation == 1 else files[k]
        rank = ranks[8 - k] if orientation == 1 else ranks[k]
        svg += (
            f'<text x="{_n(GRID_X + k * SQ_W + SQ_W / 2)}" y="{BOARD_Y + 21}" text-anchor="middle" '
            f'font-family="{SANS}" font-size="15" fill="#4a2e12">{esc(file)}</text>'
        )
        svg += (
            f'<text x="{_n(GRID_X + 9 * SQ_W + BOARD_MARGIN / 2)}" '
            f'y="{_n(GRID_Y + k * SQ_H + SQ_H / 2 + 5)}" text-anchor="middle" font-family="{SANS}" '
            f'font-size="15" fill="#4a2e12">{esc(rank)}</text>'
        )

    # Pieces, then the click overlays on top of them.
    pieces = ""
    targets = ""
    for r, rank_cells in enumerate(view["board"]):
        for c, cell in enumerate(rank_cells):
            sc, sr = screen(r, c, orientation)
            x = GRID_X + sc * SQ_W
            y = GRID_Y + sr * SQ_H
            pieces += square_contents(cell, x + SQ_W / 2, y + SQ_H / 2 + 1, orientation)
            name = f"{files[c]}{ranks[r]}"
            title = name
            if len(cell) == 2:
                who = view["players"][cell[1]["owner"]]
                title += f": {js_string(who)} point, {_nm(cell[1])} on {_nm(cell[0])}"
            targets += (
                f'<rect class="target sq" data-target="sq:{esc(name)}" x="{x + 1}" y="{y + 1}" '
                f'width="{SQ_W - 2}" height="{SQ_H - 2}" fill="transparent" pointer-events="all">'
                f"<title>{esc(title)}</title></rect>"
            )
    svg += f'<g class="pieces">{pieces}</g><g class="targets">{targets}</g>'

    # Side columns: top player's stand and the die map on the left; dice and the bottom player's stand right.
    top = 1 - orientation
    top_stand, _ = hand_stand(view, top, PAD, BOARD_Y, orientation, names)
    svg += top_stand
    legend, _ = die_map_legend(view, PAD, BOARD_Y + BOARD_H - (30 + 6 * 24 + 22))
    svg += legend
    dice, _ = dice_panel(view, RIGHT_X, BOARD_Y)
    svg += dice
    bottom_stand_h = 34 + 6 + 4 * 64 + 12
    svg += hand_stand(view, orientation, RIGHT_X, BOARD_Y + BOARD_H - bottom_stand_h, orientation, names)[0]

    # Turn line above the board.
    # The turn being played (never past the cap: the game ends there).
    max_turns = view.get("max_turns")
    turn = min(view["turns"] + 1, max_turns) if max_turns else view["turns"] + 1
    info = f"Turn {js_string(turn)}{f' of {js_string(max_turns)}' if max_turns else ''}"
    svg += (
        f'<text x="{_n(BOARD_X + BOARD_W / 2)}" y="{BOARD_Y - 5}" text-anchor="middle" font-family="{SANS}" '
        f'font-size="11" fill="#6b5638">{esc(info)}</text>'
    )
    svg += "</svg>"
    return svg
