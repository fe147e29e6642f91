"""Shogammon's Python renderer (``games/shogammon/render.py``) against the browser's (``static/renderer.js``).

Both draw the same views of random positions of every preset, with the options a page passes, in a headless
Chromium and in Python; the markup must agree character for character. ``shogames.drawing.board_svg`` and a
state's ``_repr_svg_`` draw with the Python renderer.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import shogames
from render_agreement import agreement_cases, assert_agreement
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, State
from shogames.drawing import board_svg


def _edge_cases(view: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Views no random game of the presets gives: no turn cap, and text counted in UTF-16 units."""
    uncapped = copy.deepcopy(view)
    uncapped["max_turns"] = 0
    wordy = copy.deepcopy(view)
    wordy["status"] = "Black \U0001d11e\U0001d11e\U0001d11e\U0001d11e\U0001d11e to play  3 and 5 " + "x" * 30
    wordy["die_map"][0]["kinds"] = ["P", "L", "N", "S"]  # a long list of names, clipped
    return [
        (uncapped, {"orientation": 1}),
        (wordy, {"orientation": 0, "names": ["\U0001f600 <&>", ""]}),
        (wordy, {"orientation": 1, "names": [], "over": True}),
    ]


def test_the_python_renderer_draws_what_the_browser_draws() -> None:
    cases = agreement_cases("shogammon")
    cases += _edge_cases(cases[1][0])
    assert_agreement("shogammon", cases)


def _finished_state() -> State[Any]:
    rng = random.Random(1)
    state: State[Any] = shogames.make("shogammon").new_initial_state()
    while not state.is_terminal():
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        state = state.play(move)
    return state


def test_board_svg_and_repr_svg_draw_with_the_python_renderer() -> None:
    initial = shogames.make("shogammon").new_initial_state()
    for state in (initial, _finished_state()):
        svg = board_svg(state)
        assert svg.startswith("<svg")
        assert svg.endswith("</svg>")
        assert state._repr_svg_() == svg
