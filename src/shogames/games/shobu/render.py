"""Shobu's board drawn as SVG in Python: the markup the browser draws, character for character.

Four 4×4 wooden boards (two dark, two light) in a 2×2 layout, a rope between White's half and Black's
half, black and white river stones, coordinates engraved on each board's rim, a caption beside each board
(its name, its owner, and each side's stones left on it), and one click target per square. The drawing
reads the view of :func:`shogames.games.shobu.view.position_view`.

Every square is a click target ``<g data-target="sq:<board>:<square>">`` holding (bottom to top) a
highlight rect, a dot, a ring and a ghost stone of the mover's colour; the web app sets classes on these
groups and ``renderer.css`` styles them, so here they are drawn but stay hidden without that stylesheet.

This module mirrors the browser renderer ``static/renderer.js`` (same constants, same helpers, same order
of output) and prints numbers and text as JavaScript does (:mod:`shogames.svg`);
``tests/test_render_shobu.py`` holds the two to the same markup over random positions of every preset.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from shogames.svg import esc, js_fixed, js_number, js_string

__all__ = ["board_svg"]

SQ: Final = 56
"""Square size."""
RIM: Final = 18
"""The wooden rim round the 4×4 grid, where the coordinates are engraved."""
BOARD: Final = 4 * SQ + 2 * RIM
"""Outer size of one board."""
GAP_X: Final = 38
"""Between the left and the right board."""
ROPE_BAND: Final = 58
"""Between White's half and Black's half."""
MARGIN: Final = 22
"""Round the boards."""
CAPTION: Final = 34
"""Above the top boards and below the bottom ones."""
WIDTH: Final = 2 * MARGIN + 2 * BOARD + GAP_X
"""Width of the drawing."""
TOP: Final = 10 + CAPTION
"""Top edge of the top boards."""
HEIGHT: Final = TOP + 2 * BOARD + ROPE_BAND + CAPTION + 10
"""Height of the drawing."""
STONE_R: Final = SQ * 0.4
"""Radius of a stone."""

SEAT_NAMES: Final = ("Black", "White")
"""The seats' names where the view gives none."""


class _Undefined:
    """JavaScript's ``undefined``: what indexing past the end of an array or a string gives."""

    def __str__(self) -> str:
        return "undefined"


_UNDEFINED: Final = _Undefined()


def _at(items: Any, index: int) -> Any:
    """``items[index]`` in JavaScript: ``undefined`` (not an error) outside the array or the string."""
    if 0 <= index < len(items):
        return items[index]
    return _UNDEFINED


def _nullish(value: Any, default: Any) -> Any:
    """``value ?? default``: the default only for ``null`` and ``undefined`` (not for ``""`` or 0)."""
    return default if value is None or value is _UNDEFINED else value


def _template(value: Any) -> str:
    """``${value}`` in a template literal: numbers as JavaScript prints them, ``undefined``, ``null``."""
    return "undefined" if value is _UNDEFINED else js_string(value)


def _index_of(items: Any, item: Any) -> int:
    """``items.indexOf(item)``: the first place of ``item`` in a string or an array, or -1."""
    if isinstance(items, str):
        return items.find(item) if isinstance(item, str) else -1
    for index, candidate in enumerate(items):
        if type(candidate) is type(item) and candidate == item:
            return index
    return -1


def _object_entries(mapping: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """``Object.entries(mapping)``: keys that are array indices first, ascending, then the rest in order."""

    def is_index(key: str) -> bool:
        return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1

    entries = list(mapping.items())
    indexed = sorted((entry for entry in entries if is_index(entry[0])), key=lambda entry: int(entry[0]))
    return indexed + [entry for entry in entries if not is_index(entry[0])]


def _at_most_one(n: Any) -> bool:
    """``n <= 1`` in JavaScript for a count: ``null`` reads as 0, ``undefined`` compares false."""
    if n is None:
        return True
    if isinstance(n, int | float) and not isinstance(n, bool):
        return n <= 1
    return False


def fmt(n: float) -> str:
    """A number as the JS ``fmt``: an integer as it is, anything else with two decimals (``toFixed(2)``)."""
    if not math.isfinite(n):
        return js_number(n)  # NaN.toFixed(2) is "NaN", as String(NaN)
    return js_number(n) if float(n).is_integer() else js_fixed(n, 2)


DEFS: Final = """
<defs>
  <radialGradient id="shobu-stone-b" cx="0.36" cy="0.3" r="0.75">
    <stop offset="0" stop-color="#8a8a8a"/>
    <stop offset="0.18" stop-color="#3a3a3a"/>
    <stop offset="0.6" stop-color="#141414"/>
    <stop offset="1" stop-color="#000"/>
  </radialGradient>
  <radialGradient id="shobu-stone-w" cx="0.36" cy="0.3" r="0.78">
    <stop offset="0" stop-color="#ffffff"/>
    <stop offset="0.35" stop-color="#f4f1ea"/>
    <stop offset="0.8" stop-color="#d6d1c4"/>
    <stop offset="1" stop-color="#b3ad9e"/>
  </radialGradient>
  <radialGradient id="shobu-gloss" cx="0.5" cy="0.5" r="0.5">
    <stop offset="0" stop-color="#fff" stop-opacity="0.75"/>
    <stop offset="1" stop-color="#fff" stop-opacity="0"/>
  </radialGradient>
  <linearGradient id="shobu-wood-dark" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#7a4a2a"/>
    <stop offset="0.5" stop-color="#683d21"/>
    <stop offset="1" stop-color="#4f2c16"/>
  </linearGradient>
  <linearGradient id="shobu-wood-light" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#ecd3a2"/>
    <stop offset="0.5" stop-color="#e0c08a"/>
    <stop offset="1" stop-color="#cfa86e"/>
  </linearGradient>
  <linearGradient id="shobu-table" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#efe8da"/>
    <stop offset="1" stop-color="#e2d8c4"/>
  </linearGradient>
  <filter id="shobu-grain-dark" x="0" y="0" width="100%" height="100%">
    <feTurbulence type="fractalNoise" baseFrequency="0.006 0.16" numOctaves="3" seed="7" result="noise"/>
    <feColorMatrix in="noise" type="matrix"
      values="0 0 0 0 0.16  0 0 0 0 0.08  0 0 0 0 0.03  1.7 0 0 0 -0.72"/>
    <feComposite in2="SourceGraphic" operator="in"/>
  </filter>
  <filter id="shobu-grain-light" x="0" y="0" width="100%" height="100%">
    <feTurbulence type="fractalNoise" baseFrequency="0.006 0.16" numOctaves="3" seed="23" result="noise"/>
    <feColorMatrix in="noise" type="matrix"
      values="0 0 0 0 0.55  0 0 0 0 0.35  0 0 0 0 0.15  1.6 0 0 0 -0.7"/>
    <feComposite in2="SourceGraphic" operator="in"/>
  </filter>
  <filter id="shobu-shadow" x="-20%" y="-20%" width="140%" height="140%">
    <feGaussianBlur stdDeviation="5"/>
  </filter>
  <filter id="shobu-stone-shadow" x="-50%" y="-50%" width="200%" height="200%">
    <feGaussianBlur stdDeviation="1.8"/>
  </filter>
</defs>"""
"""Gradients and filters for the stones, the wood, the table and the shadows."""


def _stone_svg(cx: float, cy: float, colour: str, extra_class: str) -> str:
    """A stone of ``colour`` (``"b"`` or ``"w"``) centred at (cx, cy), with its shadow and its gloss."""
    edge = "#000" if colour == "b" else "#8f897a"
    extra = " " + extra_class if extra_class else ""
    return (
        f'<g class="shobu-stone stone-{colour}{extra}">'
        f'<circle cx="{fmt(cx + 1.8)}" cy="{fmt(cy + 3)}" r="{fmt(STONE_R)}" fill="#000" opacity="0.4" '
        f'filter="url(#shobu-stone-shadow)"/>'
        f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(STONE_R)}" fill="url(#shobu-stone-{colour})" '
        f'stroke="{edge}" stroke-width="0.8"/>'
        f'<ellipse cx="{fmt(cx - STONE_R * 0.3)}" cy="{fmt(cy - STONE_R * 0.38)}" '
        f'rx="{fmt(STONE_R * 0.42)}" '
        f'ry="{fmt(STONE_R * 0.24)}" fill="url(#shobu-gloss)" '
        f'opacity="{js_number(0.55 if colour == "b" else 0.9)}" '
        f'transform="rotate(-25 {fmt(cx - STONE_R * 0.3)} '
        f'{fmt(cy - STONE_R * 0.38)})"/>'
        f"</g>"
    )


def _rope_svg(y: float) -> str:
    """The rope across the table at height ``y``, between White's half and Black's half."""
    x0 = 6
    x1 = WIDTH - 6
    d = (
        f"M {x0} {js_number(y + 2)} C {fmt(WIDTH * 0.3)} {js_number(y - 7)}, "
        f"{fmt(WIDTH * 0.7)} {js_number(y + 9)}, {x1} {js_number(y - 1)}"
    )
    return (
        f'<g class="shobu-rope">'
        f'<path d="{d}" fill="none" stroke="#000" stroke-opacity="0.18" stroke-width="13" '
        f'transform="translate(1.5 3)" filter="url(#shobu-stone-shadow)"/>'
        f'<path d="{d}" fill="none" stroke="#a89572" stroke-width="12" stroke-linecap="round"/>'
        f'<path d="{d}" fill="none" stroke="#efe4c9" stroke-width="9.5" stroke-linecap="round"/>'
        f'<path d="{d}" fill="none" stroke="#c7b58f" stroke-width="9.5" stroke-dasharray="2.2 4.6"/>'
        f'<path d="{d}" fill="none" stroke="#fff8e6" stroke-opacity="0.6" stroke-width="2" '
        f'transform="translate(0 -2)" stroke-dasharray="3.2 3.6"/>'
        f"</g>"
    )


def board_svg(
    view: Mapping[str, Any],
    *,
    orientation: int = 0,
    names: Sequence[str | None] = (),
    over: bool = False,
) -> str:
    """The SVG of a Shobu position: ``render(view, {orientation, names, over})`` of ``static/renderer.js``.

    Args:
        view: the position view (:func:`shogames.games.shobu.view.position_view`, or its JSON).
        orientation: the seat shown at the bottom (0 Black, 1 White).
        names: accepted for the common renderer signature; like the browser's renderer, the captions name
            the boards' owners from the view's ``players``, so these names are not drawn.
        over: accepted for the common renderer signature; nothing in the drawing depends on it.

    Returns:
        An ``<svg>`` element, the same string as the browser renderer gives for the same view.
    """
    del names, over  # the browser's renderer reads neither option
    flip = not isinstance(orientation, bool) and _nullish(orientation, 0) == 1
    files = _nullish(view.get("files"), "abcd")
    ranks = _nullish(view.get("ranks"), "1234")
    players = _nullish(view.get("players"), SEAT_NAMES)
    mover = _nullish(view.get("mover_colour"), "b")
    parts: list[str] = []
    parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="shobu-svg" '
        f'role="img" aria-label="Shobu position" font-family="Georgia, \'Times New Roman\', serif">'
    )
    parts.append(DEFS)
    parts.append(f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="10" fill="url(#shobu-table)"/>')

    rope_y = TOP + BOARD + ROPE_BAND / 2
    board_layers: list[str] = []
    captions: list[str] = []

    for board in view["boards"]:
        drow = 1 - board["row"] if flip else board["row"]
        dcol = 1 - board["col"] if flip else board["col"]
        bx = MARGIN + dcol * (BOARD + GAP_X)
        by = TOP + drow * (BOARD + ROPE_BAND)
        dark = board["colour"] == "dark"
        gx = bx + RIM
        gy = by + RIM
        g: list[str] = []
        g.append(f'<g class="shobu-board board-{esc(board["colour"])}" data-board="{esc(board["name"])}">')
        # shadow, wood, grain, bevel
        g.append(
            f'<rect x="{js_number(bx + 3)}" y="{js_number(by + 6)}" width="{BOARD}" height="{BOARD}" rx="7" '
            f'fill="#3b2414" opacity="0.45" filter="url(#shobu-shadow)"/>'
        )
        g.append(
            f'<rect x="{js_number(bx)}" y="{js_number(by)}" width="{BOARD}" height="{BOARD}" rx="7" '
            f'fill="url(#shobu-wood-{"dark" if dark else "light"})"/>'
        )
        g.append(
            f'<rect x="{js_number(bx)}" y="{js_number(by)}" width="{BOARD}" height="{BOARD}" rx="7" '
            f'fill="#000" filter="url(#shobu-grain-{"dark" if dark else "light"})" '
            f'opacity="{js_number(0.9 if dark else 0.75)}"/>'
        )
        g.append(
            f'<rect x="{js_number(bx + 0.75)}" y="{js_number(by + 0.75)}" width="{js_number(BOARD - 1.5)}" '
            f'height="{js_number(BOARD - 1.5)}" rx="6.5" '
            f'fill="none" stroke="{"#a0714c" if dark else "#f7e6c2"}" stroke-opacity="0.7" '
            f'stroke-width="1.5"/>'
        )
        g.append(
            f'<rect x="{js_number(bx)}" y="{js_number(by)}" width="{BOARD}" height="{BOARD}" rx="7" '
            f'fill="none" stroke="{"#2e180a" if dark else "#8d6a3c"}" stroke-width="1"/>'
        )
        # engraved grid: a dark groove with a light lip below/right of it
        groove = "#26130a" if dark else "#7a5429"
        lip = "#9a6c46" if dark else "#f8e9c8"
        lines: list[str] = []
        for i in range(5):
            x = gx + i * SQ
            y = gy + i * SQ
            lines.append(f"M {js_number(x)} {js_number(gy)} V {js_number(gy + 4 * SQ)}")
            lines.append(f"M {js_number(gx)} {js_number(y)} H {js_number(gx + 4 * SQ)}")
        path = " ".join(lines)
        g.append(
            f'<path d="{path}" stroke="{lip}" stroke-opacity="0.55" stroke-width="1.6" fill="none" '
            f'transform="translate(0.9 0.9)"/>'
        )
        g.append(f'<path d="{path}" stroke="{groove}" stroke-opacity="0.8" stroke-width="1.6" fill="none"/>')
        # coordinates on the rim: files along the bottom, ranks along the left
        ink = "#e9cfa9" if dark else "#6b4620"
        for f in range(4):
            col = 3 - f if flip else f
            g.append(
                f'<text x="{js_number(gx + col * SQ + SQ / 2)}" y="{js_number(by + BOARD - 5)}" '
                f'text-anchor="middle" font-size="11" '
                f'fill="{ink}" fill-opacity="0.85" class="shobu-coord">{esc(_at(files, f))}</text>'
            )
        for r in range(4):
            row = r if flip else 3 - r
            g.append(
                f'<text x="{js_number(bx + RIM / 2)}" y="{js_number(gy + row * SQ + SQ / 2 + 4)}" '
                f'text-anchor="middle" font-size="11" '
                f'fill="{ink}" fill-opacity="0.85" class="shobu-coord">{esc(_at(ranks, r))}</text>'
            )
        # stones
        for square, colour in _object_entries(board["stones"]):
            f = _index_of(files, _at(square, 0))
            r = _index_of(ranks, _at(square, 1))
            col = 3 - f if flip else f
            row = r if flip else 3 - r
            g.append(
                _stone_svg(gx + col * SQ + SQ / 2, gy + row * SQ + SQ / 2, "w" if colour == "w" else "b", "")
            )
        # click targets, one per square, on top of everything
        for r in range(4):
            for f in range(4):
                square = js_string(_at(files, f)) + js_string(_at(ranks, r))
                col = 3 - f if flip else f
                row = r if flip else 3 - r
                x = gx + col * SQ
                y = gy + row * SQ
                cx = x + SQ / 2
                cy = y + SQ / 2
                occupied = square in board["stones"]
                g.append(
                    f'<g class="shobu-sq {"occupied" if occupied else "empty"}" '
                    f'data-target="sq:{esc(board["name"])}:{esc(square)}" pointer-events="all">'
                    f"<title>{esc(board['name'])} {esc(square)}</title>"
                    f'<rect class="hl" x="{js_number(x)}" y="{js_number(y)}" width="{SQ}" height="{SQ}" '
                    f'fill="transparent"/>'
                    f'<circle class="dot" cx="{js_number(cx)}" cy="{js_number(cy)}" r="{fmt(SQ * 0.14)}"/>'
                    f'<circle class="ring" cx="{js_number(cx)}" cy="{js_number(cy)}" '
                    f'r="{fmt(STONE_R + 3.5)}" fill="none"/>'
                    + _stone_svg(cx, cy, "w" if mover == "w" else "b", "ghost")
                    + "</g>"
                )
        g.append("</g>")
        board_layers.append("".join(g))

        # caption on the outer side: board name and owner, and each side's stones left on it
        top = drow == 0
        cy = by - 11 if top else by + BOARD + 23
        owner = _nullish(_at(players, board["owner"]), _at(SEAT_NAMES, board["owner"]))
        colour_word = "dark" if dark else "light"
        captions.append(
            f'<text x="{js_number(bx + 2)}" y="{js_number(cy)}" font-size="14" fill="#4a3420" '
            f'class="shobu-caption">'
            f'<tspan font-weight="bold">{esc(board["name"])}</tspan>'
            f'<tspan fill="#7a6249" font-size="12.5" dx="7">{esc(owner)}’s {colour_word} homeboard</tspan>'
            f"</text>"
        )
        # stone counts, right-aligned: a small stone and the number for each side
        counts = _nullish(board.get("count"), [0, 0])
        rx = bx + BOARD - 2
        order = (1, 0)  # drawn right to left: White's count at the far right, Black's before it
        for seat in order:
            n = _at(counts, seat)
            danger = " danger" if _at_most_one(n) else ""
            captions.append(
                f'<text x="{js_number(rx)}" y="{js_number(cy)}" text-anchor="end" font-size="13" '
                f'fill="{"#a3261b" if _at_most_one(n) else "#4a3420"}" '
                f'class="shobu-count{danger}">{_template(n)}</text>'
            )
            icon_x = rx - 16
            colour = "b" if seat == 0 else "w"
            captions.append(
                f'<circle cx="{js_number(icon_x)}" cy="{js_number(cy - 4.5)}" r="5.5" '
                f'fill="url(#shobu-stone-{colour})" '
                f'stroke="{"#000" if colour == "b" else "#8f897a"}" stroke-width="0.7"/>'
            )
            rx = icon_x - 14

    parts.append(_rope_svg(rope_y))
    parts.extend(board_layers)
    parts.extend(captions)

    parts.append("</svg>")
    return "".join(parts)
