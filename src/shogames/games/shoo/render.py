"""Shoo's board as SVG in Python: the drawing the browser makes of a position view.

It draws the description made by :func:`shogames.games.shoo.view.position_view`: the field on grass
inside a wooden frame, both home areas tinted in their owner's colour, the pieces (travellers on foot or
mounted, free horses, the held horse with its padlock), the shoo and hush markers, and above and below
the field the two sides' panels with each player's stable and pasture. Its click targets
(``data-target``) are the same as the browser's.

This module mirrors ``static/renderer.js`` line for line (same constants, same helpers, same order of
output), so the two can be read side by side; ``tests/test_render_shoo.py`` holds them to the same markup,
character for character, over random positions of every preset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from shogames.svg import esc, js_length, js_number, js_slice, js_string

S: Final = 60  # one square
FRAME: Final = 24  # wooden frame, with the coordinates on it
MARGIN: Final = 8
PANEL_H: Final = 92
GAP: Final = 8
FIELD: Final = 9 * S
WIDTH: Final = MARGIN * 2 + FRAME * 2 + FIELD
BOARD_Y: Final = MARGIN + PANEL_H + GAP
FX: Final = MARGIN + FRAME  # field origin
FY: Final = BOARD_Y + FRAME
HEIGHT: Final = BOARD_Y + FRAME * 2 + FIELD + GAP + PANEL_H + MARGIN
FILES: Final = "abcdefghi"

Colour = Mapping[str, str]

PALETTE: Final[Mapping[str, Colour]] = {
    "blue": {
        "fill": "#2d64c8",
        "stroke": "#112c63",
        "light": "#7ea5ea",
        "tint": "#9dbcf2",
        "text": "#ffffff",
        "name": "Blue",
    },
    "white": {
        "fill": "#f8f6ef",
        "stroke": "#34342f",
        "light": "#ffffff",
        "tint": "#f5f1e4",
        "text": "#2a2a2a",
        "name": "White",
    },
    "southUndecided": {
        "fill": "#e2c893",
        "stroke": "#5e4520",
        "light": "#f6e8c8",
        "tint": "#e6d3a0",
        "text": "#2a2a2a",
        "name": "",
    },
    "northUndecided": {
        "fill": "#7b8690",
        "stroke": "#262d33",
        "light": "#b3bcc4",
        "tint": "#e6d3a0",
        "text": "#ffffff",
        "name": "",
    },
}
HORSE: Final[Colour] = {"fill": "#a8672f", "stroke": "#45260d", "mane": "#3b1f0a", "light": "#c98a4f"}


def _parse_square(name: str) -> tuple[int, int]:
    """(file, rank) of a square name such as ``"e5"``, both from 0 (``parseSquare``)."""
    return FILES.index(name[0]), int(name[1:]) - 1


# ---- piece drawings (centred on 0,0, about 56 units across) ----------------------------------------


def _horse_head(
    x: float,
    y: float,
    scale: float,
    *,
    fill: str | None = None,
    stroke: str | None = None,
    opacity: float | None = None,
) -> str:
    fill = fill or HORSE["fill"]
    stroke = stroke or HORSE["stroke"]
    op = f' opacity="{js_number(opacity)}"' if opacity is not None else ""
    return (
        f'<g transform="translate({js_number(x)} {js_number(y)}) scale({js_number(scale)})"{op}>'
        '<path d="M 13 24 C 17 10 15 -6 7 -15 L 9 -26 L 1 -19 L -3 -26 L -6 -16 '
        'C -12 -11 -18 -3 -21 6 C -23 11 -20 15 -15 15 C -9 14 -5 11 -2 9 C -2 14 -4 20 -6 24 Z" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2.2" stroke-linejoin="round"/>'
        f'<path d="M 7 -15 C 15 -8 18 6 14 22 L 19 22 C 23 6 18 -9 9 -17 Z" fill="{HORSE["mane"]}" '
        f'stroke="{stroke}" stroke-width="1.2" stroke-linejoin="round"/>'
        f'<path d="M -21 6 C -22 10 -20 13 -16 13" fill="none" stroke="{stroke}" stroke-width="1.2" '
        'opacity="0.6"/>'
        '<circle cx="-7" cy="-5" r="2.1" fill="#1c0e04"/>'
        '<circle cx="-18" cy="9" r="1.2" fill="#1c0e04"/>'
        f'<path d="M -3 -12 C -8 -8 -12 -3 -14 2" fill="none" stroke="{HORSE["light"]}" stroke-width="1.6" '
        'opacity="0.55" stroke-linecap="round"/>'
        "</g>"
    )


def _traveller(x: float, y: float, scale: float, colour: Colour) -> str:
    return (
        f'<g transform="translate({js_number(x)} {js_number(y)}) scale({js_number(scale)})">'
        f'<ellipse cx="0" cy="20" rx="17" ry="5" fill="{colour["stroke"]}" opacity="0.85"/>'
        f'<path d="M -15 19 C -15 4 -9 -2 0 -2 C 9 -2 15 4 15 19 Z" fill="{colour["fill"]}" '
        f'stroke="{colour["stroke"]}" stroke-width="2.2" stroke-linejoin="round"/>'
        f'<path d="M -9 15 C -9 7 -6 3 -1 2" fill="none" stroke="{colour["light"]}" stroke-width="2" '
        'opacity="0.6" stroke-linecap="round"/>'
        f'<circle cx="0" cy="-11" r="8.5" fill="{colour["fill"]}" stroke="{colour["stroke"]}" '
        'stroke-width="2.2"/>'
        f'<ellipse cx="0" cy="-17" rx="13" ry="3.2" fill="{colour["stroke"]}"/>'
        f'<path d="M -7 -17 C -7 -26 7 -26 7 -17 Z" fill="{colour["stroke"]}"/>'
        "</g>"
    )


def _piece_at(
    cx: float,
    cy: float,
    piece: Mapping[str, Any],
    colours: Mapping[str, Colour],
    held: Mapping[str, Any] | None,
) -> str:
    n = js_number
    if piece["type"] == "horse":
        out = f'<ellipse cx="{n(cx)}" cy="{n(cy + 22)}" rx="18" ry="4.5" fill="#20380f" opacity="0.28"/>'
        out += _horse_head(cx + 1, cy, 0.95)
        if held:
            holder = colours[held["by"]]
            out += (
                f'<circle cx="{n(cx)}" cy="{n(cy)}" r="26.5" fill="none" stroke="#5a3a08" stroke-width="5.5" '
                'opacity="0.9"/>'
                f'<circle cx="{n(cx)}" cy="{n(cy)}" r="26.5" fill="none" stroke="#f2bf3a" stroke-width="3" '
                'stroke-dasharray="6 3"/>'
                f'<g transform="translate({n(cx + 19)} {n(cy - 20)})"><rect x="-7" y="-4" width="14" '
                f'height="11" rx="2" fill="{holder["fill"]}" stroke="{holder["stroke"]}" stroke-width="1.5"/>'
                '<path d="M -4 -4 L -4 -8 C -4 -13 4 -13 4 -8 L 4 -4" fill="none" '
                f'stroke="{holder["stroke"]}" stroke-width="1.8"/></g>'
            )
        return out
    colour = colours[piece["side"]]
    if piece["mounted"]:
        return (
            f'<ellipse cx="{n(cx)}" cy="{n(cy + 23)}" rx="22" ry="5" fill="#20380f" opacity="0.3"/>'
            f'<path d="M {n(cx - 20)} {n(cy + 12)} C {n(cx - 20)} {n(cy + 2)} {n(cx + 20)} {n(cy + 2)} '
            f"{n(cx + 20)} {n(cy + 12)} L {n(cx + 20)} {n(cy + 20)} C {n(cx + 20)} {n(cy + 26)} "
            f'{n(cx - 20)} {n(cy + 26)} {n(cx - 20)} {n(cy + 20)} Z" '
            f'fill="{HORSE["fill"]}" stroke="{HORSE["stroke"]}" stroke-width="2"/>'
            + _horse_head(cx - 10, cy - 2, 0.78)
            + f'<rect x="{n(cx - 3)}" y="{n(cy + 7)}" width="22" height="8" rx="3" fill="{colour["fill"]}" '
            f'stroke="{colour["stroke"]}" stroke-width="1.5"/>' + _traveller(cx + 9, cy - 2, 0.72, colour)
        )
    return _traveller(cx, cy + 1, 0.95, colour)


# ---- the panels ---------------------------------------------------------------------------------


def _count_badge(x: float, y: float, n: int) -> str:
    return (
        f'<g transform="translate({js_number(x)} {js_number(y)})"><circle r="10.5" fill="#fffaf0" '
        'stroke="#6b4a2b" stroke-width="1.5"/>'
        '<text y="4.2" text-anchor="middle" font-size="12.5" font-weight="700" '
        f'fill="#3d2a16">{js_number(n)}</text></g>'
    )


def _herd(x: float, y: float, n: int, draw: Callable[[float, float], str], step: float, most: int) -> str:
    # Up to `most` small icons side by side, then a count badge.
    out = ""
    shown = min(n, most)
    if shown == 0:
        out += f'<g opacity="0.22">{draw(x, y)}</g>'
    for i in range(shown):
        out += draw(x + i * step, y)
    return out


def _panel(
    side: str,
    y: float,
    view: Mapping[str, Any],
    colours: Mapping[str, Colour],
    seat_of_side: Mapping[str, int | None],
    names: Sequence[str | None],
    at_top: bool,
) -> str:
    n = js_number
    colour = colours[side]
    seat = seat_of_side[side]
    side_name = "South" if side == "south" else "North"
    to_move = view["side_to_move"] == side and view["phase"] == "play"
    x0 = MARGIN
    w = WIDTH - 2 * MARGIN
    out = '<g class="shoo-panel">'
    out += (
        f'<rect x="{n(x0)}" y="{n(y)}" width="{n(w)}" height="{n(PANEL_H)}" rx="10" fill="#f6eedb" '
        'stroke="#b89a6d" stroke-width="1.5"/>'
    )
    out += (
        f'<rect x="{n(x0)}" y="{n(y)}" width="10" height="{n(PANEL_H)}" rx="5" fill="{colour["fill"]}" '
        f'stroke="{colour["stroke"]}" stroke-width="1"/>'
    )
    if to_move:
        out += (
            f'<rect x="{n(x0 + 1.5)}" y="{n(y + 1.5)}" width="{n(w - 3)}" height="{n(PANEL_H - 3)}" rx="9" '
            'fill="none" stroke="#e0a526" stroke-width="3"/>'
        )
    # Player: a traveller in the side's colour, the name and the side.
    out += _traveller(x0 + 38, y + 44, 1.05, colour)
    title: str
    if seat is None:
        title = side_name
    else:
        given = names[seat] if seat < len(names) else None  # names[seat] past the end is undefined in JS
        title = given if given is not None and given != "" else view["seat_names"][seat]
    if js_length(title) > 16:
        title = f"{js_slice(title, 0, 15)}…"
    out += (
        f'<text x="{n(x0 + 66)}" y="{n(y + 30)}" font-size="17" font-weight="700" '
        f'fill="#2e2213">{esc(title)}</text>'
    )
    sub: str
    if seat is None:
        sub = "moves first" if side == "south" else "gets the odd horse"
    else:
        colour_name = view["seat_names"][seat]
        sub = side_name if title == colour_name else f"{colour_name} · {side_name}"
    out += f'<text x="{n(x0 + 66)}" y="{n(y + 48)}" font-size="12.5" fill="#6b5638">{esc(sub)}</text>'
    notes = _panel_notes(side, view)
    if to_move and len(notes) < 2:
        notes.insert(0, ("to move", "#a66d00"))
    ny = y + 67
    for text, note_colour in notes[:2]:
        out += (
            f'<text x="{n(x0 + 66)}" y="{n(ny)}" font-size="12" font-weight="700" '
            f'fill="{note_colour}">{esc(text)}</text>'
        )
        ny += 15

    # Stable and pasture boxes: the stable on the side's left, the pasture on its right (as seen by
    # the side's own player), so from the table's bottom they swap for the side at the top.
    slot_w = {"horse": 122, "traveller": 100}
    stable_w = 12 + slot_w["horse"] + (slot_w["traveller"] if view["traveller_stables"] else 0)
    pasture_w = 128
    right = x0 + w - 10
    stable_x: float
    pasture_x: float
    if at_top:
        stable_x = right - stable_w
        pasture_x = stable_x - 10 - pasture_w
    else:
        pasture_x = right - pasture_w
        stable_x = pasture_x - 10 - stable_w
    box_y = y + 8
    box_h = PANEL_H - 16
    icon_y = box_y + 48
    st = view["stables"][side]
    horses: int = st["horses"]
    out += (
        f'<rect x="{n(stable_x)}" y="{n(box_y)}" width="{n(stable_w)}" height="{n(box_h)}" rx="8" '
        'fill="#e9dcc0" stroke="#a78657" stroke-width="1.2"/>'
    )
    out += (
        f'<text x="{n(stable_x + 10)}" y="{n(box_y + 15)}" font-size="11" font-weight="700" '
        'letter-spacing="1.2" fill="#6b4a2b">STABLE</text>'
    )
    hx = stable_x + 6
    out += _herd(hx + 20, icon_y, horses, lambda x, yy: _horse_head(x, yy, 0.6), 14, 5)
    out += _count_badge(hx + 20 + max(0, min(horses, 5) - 1) * 14 + 28, icon_y + 10, horses)
    out += (
        f'<rect class="shoo-slot" data-target="stable:{side}:horse" x="{n(hx)}" y="{n(box_y + 20)}" '
        f'width="{n(slot_w["horse"])}" height="{n(box_h - 24)}" rx="6" fill="transparent" '
        f'pointer-events="all"><title>{esc(side_name)}\'s stable: {n(horses)} '
        f"horse{'' if horses == 1 else 's'}</title></rect>"
    )
    if view["traveller_stables"]:
        travellers: int = st["travellers"]
        tx = hx + slot_w["horse"]
        out += (
            f'<path d="M {n(tx)} {n(box_y + 24)} V {n(box_y + box_h - 8)}" stroke="#c2a77c" '
            'stroke-width="1"/>'
        )
        out += _herd(tx + 18, icon_y, travellers, lambda x, yy: _traveller(x, yy, 0.6, colour), 12, 5)
        out += _count_badge(tx + 18 + max(0, min(travellers, 5) - 1) * 12 + 24, icon_y + 10, travellers)
        out += (
            f'<rect class="shoo-slot" data-target="stable:{side}:traveller" x="{n(tx)}" y="{n(box_y + 20)}" '
            f'width="{n(slot_w["traveller"])}" height="{n(box_h - 24)}" rx="6" fill="transparent" '
            f'pointer-events="all"><title>{esc(side_name)}\'s stable: {n(travellers)} '
            f"traveller{'' if travellers == 1 else 's'}</title></rect>"
        )
    past: int = view["pastures"][side]
    out += (
        f'<rect x="{n(pasture_x)}" y="{n(box_y)}" width="{n(pasture_w)}" height="{n(box_h)}" rx="8" '
        'fill="#cfe0a8" stroke="#7f9a4f" stroke-width="1.2"/>'
    )
    out += (
        f'<text x="{n(pasture_x + 10)}" y="{n(box_y + 15)}" font-size="11" font-weight="700" '
        'letter-spacing="1.2" fill="#4b6224">PASTURE</text>'
    )
    out += _herd(pasture_x + 26, icon_y, past, lambda x, yy: _horse_head(x, yy, 0.6, opacity=0.85), 14, 5)
    out += _count_badge(pasture_x + 26 + max(0, min(past, 5) - 1) * 14 + 28, icon_y + 10, past)
    out += (
        f'<rect class="shoo-slot" data-target="pasture:{side}" x="{n(pasture_x + 4)}" y="{n(box_y + 4)}" '
        f'width="{n(pasture_w - 8)}" height="{n(box_h - 8)}" rx="6" fill="transparent" '
        f'pointer-events="all"><title>{esc(side_name)}\'s pasture: {n(past)} retired '
        f"horse{'' if past == 1 else 's'}</title></rect>"
    )
    out += "</g>"
    return out


def _panel_notes(side: str, view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The notes under a side's name, each (text, colour)."""
    notes: list[tuple[str, str]] = []

    def name(seat: int | None) -> str:
        return "" if seat is None else js_string(view["seat_names"][seat])

    if view["phase"] == "toss" and side == "south":
        notes.append(("Coin toss…", "#7a5b1c"))
    if view["phase"] == "choice" and side == "south":
        notes.append((f"{name(view['chooser'])} won the toss", "#a66d00"))
        notes.append(("and chooses", "#a66d00"))
    if view["phase"] == "over" and view["result"]:
        winner = view["result"]["winner"]
        winner_side = None if winner is None else "south" if winner == view["south_seat"] else "north"
        if winner_side == side:
            notes.append(("wins!", "#1d7a2a"))
        elif winner_side is None and side == "south":
            notes.append((f"drawn: {js_string(view['result']['termination'])}", "#6b5638"))
    if view["side_to_move"] == side and view["phase"] == "play":
        if view["shoo"]:
            notes.append((f"Shoo! {js_string(view['shoo'])} must move", "#c0271d"))
        elif view["shooed"]:
            shooed: list[str] = view["shooed"]
            shown = ", ".join(shooed[:3]) + (", …" if len(shooed) > 3 else "")
            notes.append((f"shooed: {shown}", "#c0271d"))
        if view["hushable"]:
            notes.append((f"may HUSH {js_string(view['hushable']['move'])}", "#6a3ea8"))
    if view["barred"] and view["phase"] == "play":
        barred_side = view["hushable"]["side"] if view["hushable"] else view["side_to_move"]
        if barred_side == side:
            barred: list[str] = view["barred"]
            shown = ", ".join(barred[:2]) + (", …" if len(barred) > 2 else "")
            notes.append((f"hushed: {shown}", "#6a3ea8"))
    return notes


# ---- the whole drawing --------------------------------------------------------------------------


def board_svg(
    view: Mapping[str, Any],
    *,
    orientation: int = 0,
    names: Sequence[str | None] = (),
    over: bool = False,
) -> str:
    """The position ``view`` (from :func:`~shogames.games.shoo.view.position_view`) as an ``<svg>`` element.

    The same markup as ``render(view, {orientation, names, over})`` of ``static/renderer.js``.

    Args:
        view: the position view, as the browser receives it.
        orientation: the seat whose side is drawn at the bottom.
        names: names shown for the seats in place of their colours, by seat; ``None`` or ``""`` (or a
            seat past the end) keeps the seat's colour.
        over: draw the game as finished even where the view is still in play (a resignation, a loss on
            time): nobody is to move.
    """
    n = js_number
    # A game ended off the board (resignation, time) has nobody to move.
    if over and view["phase"] == "play":
        view = {**view, "phase": "over"}
    decided = view["south_seat"] is not None
    south_seat: int = view["south_seat"] if decided else 0
    seat_of_side: Mapping[str, int | None] = (
        {"south": south_seat, "north": 1 - south_seat} if decided else {"south": None, "north": None}
    )
    colours: Mapping[str, Colour] = (
        {
            "south": PALETTE["blue"] if south_seat == 0 else PALETTE["white"],
            "north": PALETTE["white"] if south_seat == 0 else PALETTE["blue"],
        }
        if decided
        else {"south": PALETTE["southUndecided"], "north": PALETTE["northUndecided"]}
    )
    flipped = orientation != south_seat  # North at the bottom: turn the table round
    top_side = "south" if flipped else "north"
    bottom_side = "north" if flipped else "south"

    def col(file: int) -> int:
        return 8 - file if flipped else file

    def row(rank: int) -> int:
        return rank if flipped else 8 - rank

    def sq_x(name: str) -> int:
        return FX + col(_parse_square(name)[0]) * S

    def sq_y(name: str) -> int:
        return FY + row(_parse_square(name)[1]) * S

    out = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n(WIDTH)} {n(HEIGHT)}" class="shoo-svg" '
        "font-family=\"Georgia, 'Palatino Linotype', 'Book Antiqua', serif\" role=\"img\" "
        'aria-label="Shoo board">'
    )
    out += (
        "<defs>"
        '<linearGradient id="shoo-wood" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#a87440"/><stop offset="0.5" stop-color="#8a5a2c"/>'
        '<stop offset="1" stop-color="#6d4420"/></linearGradient>'
        '<radialGradient id="shoo-grass" cx="0.5" cy="0.45" r="0.75">'
        '<stop offset="0" stop-color="#8fbd61"/><stop offset="1" stop-color="#6f9e48"/></radialGradient>'
        "</defs>"
    )
    out += f'<rect x="0" y="0" width="{n(WIDTH)}" height="{n(HEIGHT)}" rx="14" fill="#efe5cf"/>'

    out += _panel(top_side, MARGIN, view, colours, seat_of_side, names, True)
    out += _panel(bottom_side, BOARD_Y + FRAME * 2 + FIELD + GAP, view, colours, seat_of_side, names, False)

    # Frame and grass.
    out += (
        f'<rect x="{n(MARGIN)}" y="{n(BOARD_Y)}" width="{n(FIELD + 2 * FRAME)}" '
        f'height="{n(FIELD + 2 * FRAME)}" rx="8" fill="url(#shoo-wood)" stroke="#4e2f13" stroke-width="2"/>'
    )
    out += (
        f'<rect x="{n(FX - 2)}" y="{n(FY - 2)}" width="{n(FIELD + 4)}" height="{n(FIELD + 4)}" '
        'fill="#3f5f22"/>'
    )
    out += f'<rect x="{n(FX)}" y="{n(FY)}" width="{n(FIELD)}" height="{n(FIELD)}" fill="url(#shoo-grass)"/>'
    for r in range(9):
        for f in range(9):
            if (r + f) % 2 == 0:
                out += (
                    f'<rect x="{n(FX + f * S)}" y="{n(FY + r * S)}" width="{n(S)}" height="{n(S)}" '
                    'fill="#ffffff" opacity="0.055"/>'
                )
    # Home areas, tinted in their owner's colour.
    for side in ("south", "north"):
        squares: list[str] = view["homes"][side]
        x = min(sq_x(square) for square in squares)
        y = min(sq_y(square) for square in squares)
        c = colours[side]
        out += (
            f'<rect x="{n(x)}" y="{n(y)}" width="{n(3 * S)}" height="{n(3 * S)}" fill="{c["tint"]}" '
            'opacity="0.6"/>'
        )
        out += (
            f'<rect x="{n(x + 2.5)}" y="{n(y + 2.5)}" width="{n(3 * S - 5)}" height="{n(3 * S - 5)}" '
            f'fill="none" stroke="{c["fill"]}" stroke-width="5" opacity="0.9"/>'
        )
        out += (
            f'<rect x="{n(x + 0.5)}" y="{n(y + 0.5)}" width="{n(3 * S - 1)}" height="{n(3 * S - 1)}" '
            f'fill="none" stroke="{c["stroke"]}" stroke-width="1" opacity="0.7"/>'
        )
    # Grid lines.
    grid = ""
    for i in range(1, 9):
        grid += f"M {n(FX + i * S)} {n(FY)} V {n(FY + FIELD)} M {n(FX)} {n(FY + i * S)} H {n(FX + FIELD)} "
    out += f'<path d="{grid}" stroke="#35561b" stroke-width="1" opacity="0.45" fill="none"/>'
    # Coordinates on the frame.
    for f in range(9):
        cx = FX + col(f) * S + S / 2
        out += (
            f'<text x="{n(cx)}" y="{n(FY + FIELD + FRAME / 2 + 5)}" text-anchor="middle" font-size="14" '
            f'font-weight="700" fill="#f3e2c2">{FILES[f]}</text>'
        )
        out += (
            f'<text x="{n(cx)}" y="{n(FY - FRAME / 2 + 5)}" text-anchor="middle" font-size="11" '
            f'fill="#e6cfa5" opacity="0.7">{FILES[f]}</text>'
        )
    for r in range(9):
        cy = FY + row(r) * S + S / 2 + 5
        out += (
            f'<text x="{n(FX - FRAME / 2)}" y="{n(cy)}" text-anchor="middle" font-size="14" '
            f'font-weight="700" fill="#f3e2c2">{r + 1}</text>'
        )
        out += (
            f'<text x="{n(FX + FIELD + FRAME / 2)}" y="{n(cy)}" text-anchor="middle" font-size="11" '
            f'fill="#e6cfa5" opacity="0.7">{r + 1}</text>'
        )

    # The hushable move: a faint trail from where the traveller came.
    hushable = view["hushable"]
    if hushable and hushable["from"]:
        x1 = sq_x(hushable["from"]) + S / 2
        y1 = sq_y(hushable["from"]) + S / 2
        x2 = sq_x(hushable["to"]) + S / 2
        y2 = sq_y(hushable["to"]) + S / 2
        out += (
            f'<line x1="{n(x1)}" y1="{n(y1)}" x2="{n(x2)}" y2="{n(y2)}" stroke="#6a3ea8" stroke-width="4" '
            'stroke-dasharray="2 6" stroke-linecap="round" opacity="0.8"/>'
        )
        out += (
            f'<circle cx="{n(x1)}" cy="{n(y1)}" r="7" fill="none" stroke="#6a3ea8" stroke-width="2" '
            'stroke-dasharray="3 3" opacity="0.8"/>'
        )

    # Pieces.
    held = view["held"]
    for piece in view["pieces"]:
        cx = sq_x(piece["square"]) + S / 2
        cy = sq_y(piece["square"]) + S / 2
        is_held = held if piece["type"] == "horse" and held and held["square"] == piece["square"] else None
        out += (
            f'<g class="shoo-piece shoo-{js_string(piece["type"])}">'
            f"{_piece_at(cx, cy, piece, colours, is_held)}</g>"
        )

    # Markers: the pending shoo (or towers' standing shoos) and the hushable move.
    shooed: list[str] = [view["shoo"]] if view["shoo"] else view["shooed"] or []
    for square in shooed:
        cx = sq_x(square) + S / 2
        cy = sq_y(square) + S / 2
        out += (
            '<g class="shoo-mark">'
            f'<circle cx="{n(cx)}" cy="{n(cy)}" r="27" fill="none" stroke="#d7261b" stroke-width="3.2" '
            'stroke-dasharray="9 4"/>'
            f'<rect x="{n(cx - 20)}" y="{n(cy - 33)}" width="40" height="14" rx="7" fill="#d7261b" '
            'stroke="#7a0f09" stroke-width="1"/>'
            f'<text x="{n(cx)}" y="{n(cy - 22.5)}" text-anchor="middle" font-size="10" font-weight="700" '
            'fill="#fff" letter-spacing="0.5">SHOO!</text>'
            "</g>"
        )
    if hushable:
        cx = sq_x(hushable["to"]) + S / 2
        cy = sq_y(hushable["to"]) + S / 2
        out += (
            '<g class="shoo-hush-mark">'
            f'<path d="M {n(cx - 29)} {n(cy + 16)} h 30 a 6 6 0 0 1 6 6 v 4 a 6 6 0 0 1 -6 6 h -22 l -6 5 '
            'v -5 h -2 a 6 6 0 0 1 -6 -6 v -4 a 6 6 0 0 1 6 -6 z" fill="#efe3ff" stroke="#6a3ea8" '
            'stroke-width="1.4"/>'
            f'<text x="{n(cx - 14)}" y="{n(cy + 28)}" text-anchor="middle" font-size="10" font-weight="700" '
            'fill="#6a3ea8">shh?</text>'
            "</g>"
        )

    # Click targets over every square, on top of everything on the field.
    for r in range(9):
        for f in range(9):
            name = FILES[f] + str(r + 1)
            out += (
                f'<rect class="shoo-square" data-target="sq:{name}" x="{n(FX + col(f) * S)}" '
                f'y="{n(FY + row(r) * S)}" width="{n(S)}" height="{n(S)}" fill="transparent" '
                'pointer-events="all"/>'
            )
    out += "</svg>"
    return out
