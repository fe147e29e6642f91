"""Shobu's Python renderer (``games/shobu/render.py``) against its browser renderer (``static/renderer.js``).

The browser's module runs in a headless Chromium (:mod:`render_agreement`); both draw the same views of
random positions of every preset with the options a page passes, and must give the same markup character
for character. The drawing entry points (:func:`shogames.drawing.board_svg` and ``State._repr_svg_``)
are checked on the start position and on a finished game.
"""

from __future__ import annotations

import random

import shogames
from render_agreement import agreement_cases, assert_agreement
from shogames.drawing import board_svg


def test_the_python_renderer_draws_what_the_browser_draws() -> None:
    assert_agreement("shobu", agreement_cases("shobu"))


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
