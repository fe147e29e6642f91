"""Shobu's Python renderer (``games/shobu/render.py``) against its browser renderer (``static/renderer.js``).

The browser's module runs in a headless Chromium (:mod:`render_agreement`); both draw the same views of
random positions of every preset with the options a page passes, and must give the same markup character
for character. The drawing entry points (:func:`shogames.drawing.board_svg` and ``State._repr_svg_``)
are checked on the start position and on a finished game.
"""

from __future__ import annotations

import random
from typing import Any

import shogames
from render_agreement import agreement_cases, js_board_svgs, python_board_svg, renderer_page
from shogames.drawing import board_svg

CONTEXT = 40
"""Characters shown on each side of the first difference."""


def _first_difference(ours: str, theirs: str) -> int:
    """The index of the first character where the two strings differ (or the shorter one's length)."""
    for index, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return index
    return min(len(ours), len(theirs))


def _mismatch(index: int, options: dict[str, Any], ours: str, theirs: str) -> str:
    """A short message for a case whose two drawings differ, with some context from each side."""
    at = _first_difference(ours, theirs)
    start = max(at - CONTEXT, 0)
    return (
        f"case {index} (options {options!r}): the markup differs at character {at} "
        f"(python {len(ours)} characters, browser {len(theirs)})\n"
        f"  python : {ours[start : at + CONTEXT]!r}\n"
        f"  browser: {theirs[start : at + CONTEXT]!r}"
    )


def test_the_python_renderer_draws_what_the_browser_draws() -> None:
    cases = agreement_cases("shobu")
    with renderer_page() as page:
        expected = js_board_svgs(page, "shobu", cases)
    assert len(expected) == len(cases)
    for index, ((view, options), theirs) in enumerate(zip(cases, expected, strict=True)):
        ours = python_board_svg("shobu", view, options)
        if ours != theirs:
            raise AssertionError(_mismatch(index, options, ours, theirs))


def test_the_drawing_entry_points_draw_the_start_and_a_finished_game() -> None:
    game = shogames.make("shobu")
    state = game.new_initial_state()
    rng = random.Random(5)
    finished = state
    while not finished.is_terminal():
        finished = finished.play(rng.choice(list(finished.legal_moves())))
    for each in (state, finished):
        svg = board_svg(each)
        assert svg.startswith("<svg")
        assert svg.endswith("</svg>")
        assert each._repr_svg_() == svg
    assert board_svg(state) != board_svg(finished)
