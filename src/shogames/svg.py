"""Helpers shared by the games' Python board renderers (``games/<game>/render.py``).

Each renderer gives the same markup as the game's browser renderer (``static/renderer.js``) character for
character, so these helpers write text and numbers as JavaScript does: :func:`esc` as ``svg.js``'s
``esc``, :func:`js_number` as a template literal prints a number, :func:`js_fixed` as ``toFixed``, and
:func:`js_length`/:func:`js_slice` count as a JavaScript string does (in UTF-16 code units).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def esc(text: object) -> str:
    """``text`` made safe inside SVG markup, in element content or an attribute (``svg.js``'s ``esc``)."""
    return js_string(text).translate(_ESCAPES)


def js_string(value: object) -> str:
    """``String(value)`` in JavaScript for the values a view holds: text, numbers, booleans and null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    return str(value)


def js_number(value: float) -> str:
    """A number as JavaScript prints it: ``3`` not ``3.0``, ``0.1`` and ``1e+21`` as JavaScript writes them.

    Both languages print the shortest text that reads back as the same double; they differ in where they
    switch to exponents and in how they write them.
    """
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number here")
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" not in text and "E" not in text:
        return text
    mantissa, exponent_text = text.split("e")
    exponent = int(exponent_text)
    if -7 < exponent < 21:
        return format(Decimal(text), "f")
    return f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"


def js_fixed(value: float, digits: int) -> str:
    """``value.toFixed(digits)``: the exact binary value rounded half away from zero, for |value| < 1e21.

    A negative value keeps its sign even when it rounds to zero, as in JavaScript.
    """
    if digits < 0:
        raise ValueError("digits is 0 or more")
    exact = Decimal(value)  # the double's exact value, as toFixed reads it
    quantum = Decimal(1).scaleb(-digits)
    rounded = exact.copy_abs().quantize(quantum, rounding=ROUND_HALF_UP)
    text = format(rounded, "f")
    return f"-{text}" if exact < 0 else text  # JavaScript keeps the sign: (-0.001).toFixed(2) is "-0.00"


def js_length(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units, so a character beyond the BMP counts twice."""
    return len(text.encode("utf-16-le")) // 2


def js_slice(text: str, start: int, end: int | None = None) -> str:
    """``text.slice(start, end)`` in JavaScript, counting UTF-16 code units (negative counts from the end)."""
    units = text.encode("utf-16-le")
    length = len(units) // 2
    begin = max(length + start, 0) if start < 0 else min(start, length)
    stop = length if end is None else (max(length + end, 0) if end < 0 else min(end, length))
    if stop <= begin:
        return ""
    return units[2 * begin : 2 * stop].decode("utf-16-le", errors="surrogatepass")
