"""Sho (the Tibetan dice race) drawn as SVG in Python: the board a player sees in the browser.

:func:`board_svg` draws a :func:`~shogames.games.sho.view.position_view` as the browser's renderer
(``static/renderer.js``) does, character for character: the shells on a spiral that coils inward around the
leather dice mat (the start at the outer end, the goal at the inner end), the stacks on the track, the dice,
pa ra and values on the mat, a card per side with its coins in hand and borne off, and the click targets
(``shell:<n>``, ``hand:<side>``, ``goal``). The code mirrors ``static/renderer.js`` line for line (the same
constants, helpers and order of output) so the two can be read side by side; ``tests/test_render_sho.py``
holds them to the same markup over random positions of every preset.

JavaScript's ``Math.cos``, ``Math.sin``, ``Math.atan2`` and ``Math.hypot`` are left to the engine: V8's
(fdlibm's, and a Kahan-summed hypot) differ from Python's :mod:`math` in the last bit of some results, but
every coordinate is rounded to hundredths before it is printed, and over every spiral the settings allow
(13 to 200 shells) the markup is the same; ``tests/test_render_sho.py`` draws them all to keep it so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from shogames.svg import esc, js_length, js_number, js_slice, js_string

__all__ = ["board_svg"]


class _Colour(NamedTuple):
    fill: str
    dark: str
    light: str
    name: str


# In the order of the page's seat colours (app.css --seat-0 ...): blue, red, green, purple.
SIDE_COLOURS: Final = (
    _Colour(fill="#2a62b0", dark="#163866", light="#79a6e6", name="blue"),
    _Colour(fill="#c0392b", dark="#7b1d14", light="#e8796c", name="red"),
    _Colour(fill="#2d8a55", dark="#155231", light="#74c795", name="green"),
    _Colour(fill="#7d3c98", dark="#4a1f5d", light="#bb8ad0", name="purple"),
)

SIZE: Final = 1000
CX: Final = 500
CY: Final = 500
R_OUT: Final = 410
R_IN: Final = 192
MAT_R: Final = 128


# JavaScript semantics the renderer relies on.


def _truthy(value: object) -> bool:
    """Whether JavaScript holds ``value`` true (``null``, ``false``, ``0``, ``NaN`` and ``""`` do not).

    Every list and object, even an empty one, is true.
    """
    if value is None or value is False:
        return False
    if isinstance(value, int | float):
        return value == value and value != 0  # NaN is false
    if isinstance(value, str):
        return value != ""
    return True


def _colour_at(index: object) -> _Colour | None:
    """``SIDE_COLOURS[index]``: ``undefined`` (``None``) for anything but an index in range."""
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(SIDE_COLOURS):
        return SIDE_COLOURS[index]
    return None


def _math_round(x: float) -> float:
    """``Math.round``: the nearest integer, halves rounded up (``-2.5`` to ``-2``), unlike :func:`round`."""
    if not math.isfinite(x):
        return x
    floor = math.floor(x)
    return float(floor + 1 if x - floor >= 0.5 else floor)


def _n2(x: float) -> float:
    """``n2``: ``x`` rounded to hundredths as JavaScript rounds (``Math.round(x * 100) / 100``)."""
    return _math_round(x * 100) / 100


def _clip(text: object, limit: int) -> str:
    """``clip``: the text cut to ``limit`` UTF-16 units with an ellipsis, as ``.length``/``.slice`` count."""
    s = js_string(text)
    return js_slice(s, 0, limit - 1) + "…" if js_length(s) > limit else s


# The spiral, measured by arc length: u is counted in "spaces" (one shell to the next).


class _Point(NamedTuple):
    x: float
    y: float
    th: float
    r: float
    s: float


class _Place(NamedTuple):
    x: float
    y: float
    tx: float
    ty: float
    nx: float
    ny: float


class _Spiral(NamedTuple):
    at: Callable[[float], _Place]
    d: float
    pitch: float
    path: str


def _make_spiral(goal: int) -> _Spiral:
    """``makeSpiral``: the coil from the start to the goal, measured in spaces along its length."""
    turns = min(4.5, max(1.6, (goal + 2) / 27))
    th0 = math.pi / 2  # start straight below the centre, then clockwise (increasing angle)
    th1 = th0 + 2 * math.pi * turns
    steps = 3000
    pts: list[_Point] = []
    s = 0.0
    prev: _Point | None = None
    for i in range(steps + 1):
        th = th0 + ((th1 - th0) * i) / steps
        r = R_OUT - ((R_OUT - R_IN) * (th - th0)) / (th1 - th0)
        x = CX + r * math.cos(th)
        y = CY + r * math.sin(th)
        if prev:
            s += math.hypot(x - prev.x, y - prev.y)
        prev = _Point(x, y, th, r, s)
        pts.append(prev)
    units = goal + 1.45  # start marker, shells 1..shells, positions, goal (with its margins)
    d = s / units
    pitch = (R_OUT - R_IN) / turns

    def at(u: float) -> _Place:
        want = max(0, min(s, (u + 0.45) * d))
        lo = 0
        hi = len(pts) - 1
        while hi - lo > 1:
            mid = (lo + hi) >> 1
            if pts[mid].s < want:
                lo = mid
            else:
                hi = mid
        a = pts[lo]
        b = pts[hi]
        f = (want - a.s) / (b.s - a.s) if b.s > a.s else 0
        x = a.x + (b.x - a.x) * f
        y = a.y + (b.y - a.y) * f
        hyp = math.hypot(b.x - a.x, b.y - a.y)
        length = hyp if _truthy(hyp) else 1
        tx = (b.x - a.x) / length
        ty = (b.y - a.y) / length
        th = a.th + (b.th - a.th) * f
        return _Place(x, y, tx, ty, math.cos(th), math.sin(th))

    path: list[str] = []
    for i in range(0, len(pts), 10):
        p = pts[i]
        if p.s > (units + 0.45) * d:
            break
        path.append(f"{'M' if i == 0 else 'L'}{js_number(_n2(p.x))},{js_number(_n2(p.y))}")
    return _Spiral(at, d, pitch, " ".join(path))


def _defs() -> str:
    """``defs``: the gradients and the shadow filter."""
    return """<defs>
  <radialGradient id="sho-cloth" cx="50%" cy="50%" r="70%">
    <stop offset="0%" stop-color="#f4e2bb"/><stop offset="70%" stop-color="#e6c893"/>
    <stop offset="100%" stop-color="#c99e62"/>
  </radialGradient>
  <radialGradient id="sho-mat" cx="42%" cy="38%" r="75%">
    <stop offset="0%" stop-color="#8a5431"/><stop offset="65%" stop-color="#5e3219"/>
    <stop offset="100%" stop-color="#3f1f0e"/>
  </radialGradient>
  <linearGradient id="sho-shell" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0%" stop-color="#fffdf6"/><stop offset="60%" stop-color="#efe2c6"/>
    <stop offset="100%" stop-color="#c9b28a"/>
  </linearGradient>
  <radialGradient id="sho-goal" cx="45%" cy="40%" r="70%">
    <stop offset="0%" stop-color="#fff3c4"/><stop offset="70%" stop-color="#e7b948"/>
    <stop offset="100%" stop-color="#a97912"/>
  </radialGradient>
  <linearGradient id="sho-card" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0%" stop-color="#fbf3e1"/><stop offset="100%" stop-color="#efdcb7"/>
  </linearGradient>
  <filter id="sho-shadow" x="-30%" y="-30%" width="160%" height="160%">
    <feDropShadow dx="0" dy="1.5" stdDeviation="1.6" flood-color="#2a1707" flood-opacity="0.45"/>
  </filter>
</defs>"""


def _coin(x: float, y: float, r: float, colour: _Colour) -> str:
    """One coin seen from above, centred on (x, y)."""
    return (
        f'<circle cx="{js_number(_n2(x))}" cy="{js_number(_n2(y + r * 0.16))}" r="{js_number(_n2(r))}" '
        f'fill="{colour.dark}"/>'
        f'<circle cx="{js_number(_n2(x))}" cy="{js_number(_n2(y))}" r="{js_number(_n2(r))}" '
        f'fill="{colour.fill}" stroke="{colour.dark}" stroke-width="{js_number(_n2(r * 0.09))}"/>'
    )


def _stack(x: float, y: float, r: float, size: int, colour: _Colour, *, label: bool = True) -> str:
    """A stack of ``size`` coins with its height label on the top coin."""
    lift = min(3.4, r * 0.16)
    shown = min(size, 12)
    base = y + ((shown - 1) * lift) / 2
    out = '<g class="sho-stack" filter="url(#sho-shadow)">'
    for i in range(shown):
        out += _coin(x, base - i * lift, r, colour)
    ty = base - (shown - 1) * lift
    out += (
        f'<circle cx="{js_number(_n2(x))}" cy="{js_number(_n2(ty))}" r="{js_number(_n2(r * 0.68))}" '
        f'fill="none" stroke="{colour.light}" stroke-width="{js_number(_n2(r * 0.08))}" opacity="0.85"/>'
        "</g>"
    )
    if label:
        fs = r * (0.9 if size >= 10 else 1.05)
        out += (
            f'<text x="{js_number(_n2(x))}" y="{js_number(_n2(ty + fs * 0.36))}" class="sho-count" '
            f'font-size="{js_number(_n2(fs))}" text-anchor="middle">{js_number(size)}</text>'
        )
    return out


def _shell(p: _Place, d: float, number: str) -> str:
    """``shell``: a cowrie shell across the coil at ``p``, then its number's markup."""
    angle = (math.atan2(p.ty, p.tx) * 180) / math.pi
    rx = min(d * 0.13, 13)
    ry = min(d * 0.25, 22)
    h = ry * 0.62
    zig = f"M0,{js_number(_n2(-h))}"
    teeth = 6
    for i in range(1, teeth + 1):
        yy = -h + (2 * h * i) / teeth
        zig += f" L{js_number(_n2(rx * 0.16) if i % 2 else _n2(-rx * 0.16))},{js_number(_n2(yy))}"
    return (
        f'<g transform="translate({js_number(_n2(p.x))},{js_number(_n2(p.y))}) '
        f'rotate({js_number(_n2(angle))})">'
        f'<ellipse rx="{js_number(_n2(rx))}" ry="{js_number(_n2(ry))}" fill="url(#sho-shell)" '
        'stroke="#8b6b41" stroke-width="1.1"/>'
        f'<path d="{zig}" fill="none" stroke="#5b3e22" stroke-width="1.3" stroke-linecap="round"/>'
        "</g>" + number
    )


_PIPS: Final[Mapping[int, tuple[tuple[int, int], ...]]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _die(x: float, y: float, size: int, face: Any) -> str:
    """``die``: a die centred on (x, y) showing ``face``, or a question mark before the throw."""
    out = (
        f'<rect x="{js_number(_n2(x - size / 2))}" y="{js_number(_n2(y - size / 2))}" width="{size}" '
        f'height="{size}" rx="{js_number(_n2(size * 0.18))}" '
        'fill="#fbf6ea" stroke="#b9a27a" stroke-width="1.5" filter="url(#sho-shadow)"/>'
    )
    if not _truthy(face):
        out += (
            f'<text x="{js_number(_n2(x))}" y="{js_number(_n2(y + size * 0.16))}" text-anchor="middle" '
            f'class="sho-die-blank" font-size="{js_number(_n2(size * 0.45))}">?</text>'
        )
        return out
    red = face in (1, 4)
    pr = size * 0.13 if face == 1 else size * 0.085
    for dx, dy in _PIPS[face]:
        out += (
            f'<circle cx="{js_number(_n2(x + dx * size * 0.26))}" '
            f'cy="{js_number(_n2(y + dy * size * 0.26))}" r="{js_number(_n2(pr))}" '
            f'fill="{"#b3261e" if red else "#2b1d12"}"/>'
        )
    return out


def _seat_name(names: Sequence[str | None], seat: int) -> str:
    """``seatName``: the seat's given name, else ``Player <n>``."""
    given = names[seat] if 0 <= seat < len(names) else None  # names[seat] past the end is undefined
    return js_string(given) if _truthy(given) else f"Player {seat + 1}"


def _side_name(view: Mapping[str, Any], names: Sequence[str | None], side: int) -> str:
    """``sideName``: the names of the side's seats, joined by an ampersand."""
    return " & ".join(_seat_name(names, s) for s in view["sides"][side]["seats"])


def _mat(view: Mapping[str, Any], names: Sequence[str | None]) -> str:
    """The dice mat in the centre: whose turn, the dice, pa ra, the values."""
    out = (
        f'<circle cx="{CX}" cy="{CY}" r="{MAT_R}" fill="url(#sho-mat)" stroke="#2c1407" stroke-width="3" '
        'filter="url(#sho-shadow)"/>'
        f'<circle cx="{CX}" cy="{CY}" r="{MAT_R - 9}" fill="none" stroke="#e9cf9a" stroke-width="1.6" '
        'stroke-dasharray="5 4" opacity="0.75"/>'
        f'<circle cx="{CX}" cy="{CY}" r="{MAT_R - 16}" fill="none" stroke="#2c1407" stroke-width="1" '
        'opacity="0.6"/>'
    )
    colour = _colour_at(view.get("side")) or SIDE_COLOURS[0]
    winner_side = view.get("winner_side")
    decided = winner_side is not None
    truncated = _truthy(view.get("truncated"))
    values: Any = view.get("values")
    if not _truthy(values):
        values = []
    who = esc(_clip(_seat_name(names, view["seat"]), 20))
    what = ""
    if view["phase"] == "over":
        if winner_side is not None:  # decided (written out, so that the type checker narrows it)
            who = esc(_clip(_side_name(view, names, winner_side), 22))
            what = "win!" if len(view["sides"][winner_side]["seats"]) > 1 else "wins!"
        elif truncated:
            who = "Drawn"
            what = "the turn cap was reached"
        else:
            # Ended off the board (a resignation, a loss on time): over, with no result the board can tell.
            who = "Game over"
    elif view["phase"] == "draw":
        who = "Drawing lots"
        what = "for the first throw"
    elif view["phase"] == "throw":
        what = "throws the dice"
    elif view["phase"] == "follow":
        what = "moves another stack"
    elif len(values) > 1:
        what = "to move: choose a value"  # the shell clicked picks it (see prompt in renderer.js)
    else:
        what = "to move"
    dot_colour: _Colour | None
    if view["phase"] == "over":
        dot_colour = _colour_at(winner_side) if decided else None
    elif view["phase"] == "draw":
        dot_colour = None
    else:
        dot_colour = colour
    dot = (
        f'<circle cx="{CX}" cy="{CY - 88}" r="8" fill="{dot_colour.fill}" stroke="#f6e7c6" '
        'stroke-width="1.5"/>'
        if dot_colour
        else ""
    )
    out += (
        dot
        + f'<text x="{CX}" y="{CY - 60}" text-anchor="middle" class="sho-mat-who">{who}</text>'
        + f'<text x="{CX}" y="{CY - 40}" text-anchor="middle" class="sho-mat-what">{esc(what)}</text>'
    )
    # The dice: the step's first throw (pa ra faces when the step began with one).
    dice: Any = view.get("dice")
    if view["phase"] == "over":
        if decided or truncated:
            out += (
                f'<circle cx="{CX}" cy="{CY + 4}" r="28" fill="url(#sho-goal)" stroke="#7d5608" '
                'stroke-width="2"/>'
                f'<text x="{CX}" y="{CY + 16}" text-anchor="middle" class="sho-mat-trophy">'
                f"{'★' if decided else '='}</text>"
            )
    else:
        out += _die(CX - 27, CY - 4, 42, dice[0] if _truthy(dice) else 0) + _die(
            CX + 27, CY - 4, 42, dice[1] if _truthy(dice) else 0
        )
    paras = view.get("paras")
    if paras is not None and paras > 0:
        out += (
            f'<g class="sho-para"><rect x="{CX - 40}" y="{CY + 22}" width="80" height="19" rx="9.5" '
            'fill="#b3261e" stroke="#f3d27a" stroke-width="1.2"/>'
            f'<text x="{CX}" y="{CY + 36}" text-anchor="middle" class="sho-para-text">'
            f"pa ra{' ×' + js_string(paras) if paras > 1 else ''}</text></g>"
        )
    if view["phase"] not in ("over", "draw"):
        label = ("carried" if len(values) else "") if view["phase"] == "throw" else "values"
        if label:
            chip_w = 30
            gap = 5
            total = len(values) * chip_w + (len(values) - 1) * gap
            scale = 170 / total if total > 170 else 1
            y = CY + 78
            out += f'<text x="{CX}" y="{y - 17}" text-anchor="middle" class="sho-mat-label">{label}</text>'
            x = CX - (total * scale) / 2
            for v in values:
                w = chip_w * scale
                out += (
                    f'<rect x="{js_number(_n2(x))}" y="{y - 12}" width="{js_number(_n2(w))}" height="24" '
                    'rx="7" fill="#f3d27a" stroke="#8a6414" stroke-width="1.2"/>'
                    f'<text x="{js_number(_n2(x + w / 2))}" y="{y + 6}" text-anchor="middle" '
                    f'class="sho-chip">{esc(v)}</text>'
                )
                x += (chip_w + gap) * scale
    extras = [f"turn {js_number(view['turns'] + 1)}"]
    banked: Any = view.get("banked")
    if _truthy(banked):
        extras.append(f"{js_string(banked)} throw{'s' if banked > 1 else ''} banked")
    if _truthy(view.get("bonus")):
        extras.append("throw earned")
    out += (
        f'<text x="{CX}" y="{CY + 112}" text-anchor="middle" class="sho-mat-small">'
        f"{esc(' · '.join(extras))}</text>"
    )
    return out


CARD_W: Final = 236
CARD_H: Final = 138
CORNERS: Final[Mapping[str, tuple[int, int]]] = {
    "BL": (12, SIZE - CARD_H - 12),
    "TL": (12, 12),
    "TR": (SIZE - CARD_W - 12, 12),
    "BR": (SIZE - CARD_W - 12, SIZE - CARD_H - 12),
}


def _card_corners(count: int) -> list[str]:
    """``cardCorners``: the corners of the sides' cards, clockwise from bottom left."""
    if count <= 2:
        return ["BL", "TR"]
    if count == 3:
        return ["BL", "TL", "TR"]
    return ["BL", "TL", "TR", "BR"]


_PLACES: Final = ("", "1st", "2nd", "3rd", "4th")


def _card(
    view: Mapping[str, Any], names: Sequence[str | None], side: int, corner: str, targets: list[str]
) -> str:
    """A side's card: its seats' names, coins in hand (the hand target), coins borne off."""
    info = view["sides"][side]
    colour = SIDE_COLOURS[side]
    x, y = CORNERS[corner]
    moving = view["phase"] != "over" and view.get("side") == side
    won = view["phase"] == "over" and view.get("winner_side") is not None and view.get("winner_side") == side
    out = f'<g class="sho-card{" sho-card-active" if moving else ""}" transform="translate({x},{y})">'
    out += (
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="12" fill="url(#sho-card)" '
        f'stroke="{"#d19a17" if moving else "#9c7a4a"}" '
        f'stroke-width="{4 if moving else 1.6}" filter="url(#sho-shadow)"/>'
        f'<rect width="{CARD_W}" height="8" rx="4" fill="{colour.fill}"/>'
    )
    # Header: a coin of the side's colour, the seats' names (the moving seat marked), then a sub-line.
    out += _coin(24, 33, 12, colour)
    seats = info["seats"]
    team_label = f"Team {'A' if side == 0 else 'B'}" if _truthy(view.get("teams")) else None
    place = info.get("place")
    if won:
        right = "★ won"
    elif _truthy(place):
        ordinal = _PLACES[place] if 0 <= place < len(_PLACES) else ""  # past the end is undefined
        right = ordinal or f"{js_string(place)}th"
    else:
        right = ""
    name_max = 12 if right else 16
    if len(seats) == 1:
        seat = seats[0]
        mark = "▸ " if moving and view["seat"] == seat else ""
        name = esc(mark + _clip(_seat_name(names, seat), name_max))
        out += f'<text x="44" y="38" class="sho-card-name">{name}</text>'
    else:
        out += '<text x="44" y="38" class="sho-card-names">'
        for i, seat in enumerate(seats):
            active = moving and view["seat"] == seat
            if i:
                out += "<tspan> &amp; </tspan>"
            bold = ' class="sho-bold"' if active else ""
            out += f"<tspan{bold}>{esc(('▸ ' if active else '') + _clip(_seat_name(names, seat), 9))}</tspan>"
        out += "</text>"
    right_y = 38 if len(seats) == 1 else 55
    if right:
        out += (
            f'<text x="{CARD_W - 12}" y="{right_y}" text-anchor="end" class="sho-card-won">'
            f"{esc(right)}</text>"
        )
    sub: list[str] = []
    if team_label:
        sub.append(team_label)
    sub.append(f"{js_string(info['on_track'])} on the track")
    out += f'<text x="44" y="55" class="sho-card-team">{esc(" · ".join(sub))}</text>'
    # Two boxes: in hand (the hand target) and borne off.
    box_y = 64
    box_h = 64
    boxes = (
        (10, "in hand", info["hand"]),
        (CARD_W / 2 + 4, "borne off", info["off"]),
    )
    for b_x, b_label, b_count in boxes:
        w = CARD_W / 2 - 14
        out += (
            f'<rect x="{js_number(b_x)}" y="{box_y}" width="{js_number(w)}" height="{box_h}" rx="8" '
            'fill="#f7ecd3" stroke="#c7a774" stroke-width="1"/>'
            f'<text x="{js_number(b_x + 9)}" y="{js_number(box_y + box_h / 2 + 4)}" '
            f'class="sho-card-label">{b_label}</text>'
        )
        px = b_x + w - 24
        if b_count > 0:
            out += _stack(px, box_y + box_h / 2, 15, b_count, colour)
        else:
            out += (
                f'<text x="{js_number(px)}" y="{js_number(box_y + box_h / 2 + 7)}" text-anchor="middle" '
                'class="sho-card-none">–</text>'
            )
    out += "</g>"
    targets.append(
        f'<rect class="sho-target sho-hand-target" data-target="hand:{side}" x="{x + 10}" y="{y + box_y}" '
        f'width="{js_number(CARD_W / 2 - 14)}" height="{box_h}" rx="8" fill="transparent" '
        'pointer-events="all"/>'
    )
    return out


def board_svg(
    view: Mapping[str, Any],
    *,
    orientation: int = 0,
    names: Sequence[str | None] = (),
    over: bool = False,
) -> str:
    """The Sho board of ``view`` as ``<svg>`` markup, exactly as ``static/renderer.js``'s ``render`` draws it.

    Args:
        view: a :func:`~shogames.games.sho.view.position_view`, as JSON gives it to the browser.
        orientation: the seat whose side's card lies bottom left (the others follow clockwise); anything
            but an integer counts as 0.
        names: the seats' names, by seat; a missing, ``None`` or empty name shows as ``Player <n>``.
        over: draw the game as finished (nobody to move, "Game over" on the mat) even where the position
            is not, as for a game ended off the board (resignation, time): not as a draw by the turn cap.

    Returns:
        The markup, character for character the string the browser's renderer returns for the same view
        and options.
    """
    # A game ended off the board (resignation, time) has nobody to move.
    if over and view["phase"] != "over":
        view = {**view, "phase": "over", "winner_side": None}
    names = names if _truthy(names) else []
    orientation = _js_integer(orientation)
    goal: int = view["goal"]
    shells: int = view["shells"]
    sp = _make_spiral(goal)
    d = sp.d
    coin_r = min(d * 0.34, sp.pitch * 0.27, 30)
    target_r = min(d * 0.5, sp.pitch * 0.42)
    targets: list[str] = []
    # A coil too tight for every shell's number at the size a small board draws them (renderer.css): there
    # only every fifth number, and the first and last, are shown.
    crowded = d < 60 or sp.pitch < 55
    out = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
        f'class="sho-svg{" sho-crowded" if crowded else ""}" '
        'role="img" aria-label="Sho board" font-family="Georgia, \'Times New Roman\', serif">' + _defs()
    )
    # The cloth and its border.
    out += (
        f'<rect x="0" y="0" width="{SIZE}" height="{SIZE}" rx="22" fill="#6e1c16"/>'
        f'<rect x="7" y="7" width="{SIZE - 14}" height="{SIZE - 14}" rx="17" fill="url(#sho-cloth)" '
        'stroke="#d9ae4f" stroke-width="2.5"/>'
        f'<rect x="16" y="16" width="{SIZE - 32}" height="{SIZE - 32}" rx="12" fill="none" stroke="#a8773a" '
        'stroke-width="1" stroke-dasharray="2 5" opacity="0.7"/>'
    )
    # The coil: a soft band and a cord along which the shells lie.
    out += (
        f'<path d="{sp.path}" fill="none" stroke="#a87a45" stroke-opacity="0.16" '
        f'stroke-width="{js_number(_n2(min(d * 0.8, sp.pitch * 0.75)))}" stroke-linecap="round" '
        'stroke-linejoin="round"/>'
        f'<path d="{sp.path}" fill="none" stroke="#7c5630" stroke-opacity="0.55" stroke-width="1.4"/>'
    )
    # The start (the hand, position 0) at the outer end.
    start = sp.at(0)
    out += (
        f'<g class="sho-start"><circle cx="{js_number(_n2(start.x))}" cy="{js_number(_n2(start.y))}" '
        f'r="{js_number(_n2(min(d * 0.2, 12)))}" fill="#7c5630"/>'
        f'<text x="{js_number(_n2(start.x + start.nx * min(d * 0.55, 34)))}" '
        f'y="{js_number(_n2(start.y + start.ny * min(d * 0.55, 34) + 5))}" text-anchor="middle" '
        'class="sho-start-label">start</text></g>'
    )
    # The shells, each numbered on the outer side of the coil: the number is centred on its place, whatever
    # the size it is drawn at (a small board draws it bigger: renderer.css).
    for k in range(1, shells + 1):
        p = sp.at(k)
        off = min(d * 0.47, sp.pitch * 0.36)
        major = k % 5 == 0 or k in (1, shells)
        fs = min(d * (0.24 if major else 0.2), 17 if major else 14)
        num = (
            f'<text x="{js_number(_n2(p.x + p.nx * off))}" '
            f'y="{js_number(_n2(p.y + p.ny * off))}" text-anchor="middle" dominant-baseline="central" '
            f'class="sho-num{" sho-num-major" if major else ""}" '
            f'font-size="{js_number(_n2(fs))}">{k}</text>'
        )
        out += _shell(p, d, num)
    # The goal at the inner end.
    g = sp.at(goal + 0.5)
    goal_r = min(d * 0.52, 36)
    out += (
        f'<g class="sho-goal"><circle cx="{js_number(_n2(g.x))}" cy="{js_number(_n2(g.y))}" '
        f'r="{js_number(_n2(goal_r))}" fill="url(#sho-goal)" stroke="#7d5608" stroke-width="2" '
        'filter="url(#sho-shadow)"/>'
        f'<circle cx="{js_number(_n2(g.x))}" cy="{js_number(_n2(g.y))}" r="{js_number(_n2(goal_r * 0.74))}" '
        'fill="none" stroke="#7d5608" stroke-width="1" stroke-dasharray="3 3"/>'
        f'<text x="{js_number(_n2(g.x))}" y="{js_number(_n2(g.y + 5))}" text-anchor="middle" '
        'class="sho-goal-label">goal</text></g>'
    )
    targets.append(
        f'<circle class="sho-target" data-target="goal" cx="{js_number(_n2(g.x))}" '
        f'cy="{js_number(_n2(g.y))}" r="{js_number(_n2(goal_r + 3))}" fill="transparent" '
        'pointer-events="all"/>'
    )
    # The dice mat.
    out += _mat(view, names)
    # The stacks, drawn from the far end of the coil so that nearer ones overlap correctly.
    stacks = sorted(view["stacks"], key=lambda stack: stack["pos"])
    for s in stacks:
        p = sp.at(s["pos"] + 0.5)
        colour = _colour_at(s["side"]) or SIDE_COLOURS[0]
        if view.get("moved") == s["pos"]:
            out += (
                f'<circle cx="{js_number(_n2(p.x))}" cy="{js_number(_n2(p.y))}" '
                f'r="{js_number(_n2(coin_r + 6))}" fill="none" stroke="#5b3e22" stroke-width="2" '
                'stroke-dasharray="4 3"/>'
            )
        out += _stack(p.x, p.y, coin_r, s["size"], colour)
        if _truthy(s.get("shomo")):
            out += (
                f'<text x="{js_number(_n2(p.x + coin_r * 0.9))}" y="{js_number(_n2(p.y - coin_r * 0.8))}" '
                'class="sho-shomo" text-anchor="middle">mo</text>'
            )
    # The sides' cards, the orientation seat's side bottom left and the others clockwise.
    sides = len(view["sides"])
    seat_side: Any = view.get("seat_side")
    # seat_side[orientation] past either end is undefined.
    here: Any = seat_side[orientation] if _truthy(seat_side) and 0 <= orientation < len(seat_side) else None
    first: int = here if _truthy(here) else 0
    corners = _card_corners(sides)
    for i in range(sides):
        side = (first + i) % sides
        out += _card(view, names, side, corners[i], targets)
    # A title in a free corner.
    free = next((c for c in ("BR", "TL", "BL", "TR") if c not in corners[:sides]), None)
    if free:
        fx, fy = CORNERS[free]
        out += (
            f'<g class="sho-title-block"><text x="{js_number(fx + CARD_W / 2)}" y="{fy + 78}" '
            'text-anchor="middle" class="sho-title">SHO</text>'
            f'<text x="{js_number(fx + CARD_W / 2)}" y="{fy + 100}" text-anchor="middle" '
            'class="sho-subtitle">the Tibetan dice race</text></g>'
        )
    # The click targets, one per track position, on top of everything.
    for pos in range(1, goal):
        p = sp.at(pos + 0.5)
        targets.append(
            f'<circle class="sho-target" data-target="shell:{pos}" cx="{js_number(_n2(p.x))}" '
            f'cy="{js_number(_n2(p.y))}" r="{js_number(_n2(target_r))}" fill="transparent" '
            f'pointer-events="all"><title>{pos}</title></circle>'
        )
    out += f'<g class="sho-targets">{"".join(targets)}</g>'
    out += "</svg>"
    return out


def _js_integer(value: object) -> int:
    """``Number.isInteger(value) ? value : 0``: an integral number (``2.0`` too, not ``true``), else 0."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return 0
