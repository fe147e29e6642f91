"""Shoo's Python renderer (``games/shoo/render.py``) draws what the browser's ``static/renderer.js`` draws.

Both renderers draw the same position views, over random positions of every preset and with every kind
of options a page passes, and must give the same markup character for character.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import shogames
from render_agreement import agreement_cases, assert_agreement
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE
from shogames.drawing import board_svg


def test_the_python_renderer_draws_what_the_browser_draws() -> None:
    assert_agreement("shoo", agreement_cases("shoo"))


def _rare_cases(
    cases: list[tuple[dict[str, Any], dict[str, Any]]],
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Views edited from the random ones to reach what random play rarely does.

    A side winning, towers' standing shoos, hushed moves, a hushable return from the stable, herds too big
    to show whole, a choice won by White, and names counted in UTF-16 units (a character beyond the BMP
    counts twice, so ten of them are clipped where Python's ``len`` would not clip).
    """
    playing = next(view for view, _ in cases if view["phase"] == "play" and view["held"])
    over = next(view for view, _ in cases if view["phase"] == "over")
    choice = next(view for view, _ in cases if view["phase"] == "choice")
    hushable = {"move": "T*b9", "side": "north", "from": None, "to": "b9"}
    edits: list[dict[str, Any]] = [
        {"phase": "over", "side_to_move": None, "result": {"winner": 0, "termination": "normal"}},
        {"phase": "over", "side_to_move": None, "result": {"winner": 1, "termination": "normal"}},
        {"shoo": None, "shooed": ["a1", "e5"]},
        {"shoo": None, "shooed": ["a1", "b2", "c3", "d4", "e5"]},
        {"barred": ["d4-d5"], "hushable": None},
        {"barred": ["d4-d5", "e5/d4", "T*a1"], "hushable": hushable},
        {"hushable": hushable, "shoo": "e5"},
        {
            "stables": {"south": {"horses": 7, "travellers": 9}, "north": {"horses": 1, "travellers": 1}},
            "pastures": {"south": 6, "north": 1},
        },
        {"stables": {"south": {"horses": 5, "travellers": 0}, "north": {"horses": 0, "travellers": 5}}},
    ]
    rare: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for number, edit in enumerate(edits):
        for base in (playing, over):
            view = {**copy.deepcopy(base), **edit}
            rare.append((view, {"orientation": number % 2, "names": []}))
    rare.append(({**choice, "chooser": 1}, {"orientation": 1, "names": []}))
    for names in (
        ["x" + "\U0001f40e" * 9, "\U0001f434" * 8],
        ["Blue", "White"],
        ["", "Blue"],
        ["A" * 16, None],
    ):
        for orientation in (0, 1):
            rare.append((playing, {"orientation": orientation, "names": names}))
            rare.append((playing, {"orientation": orientation, "names": names, "over": True}))
    return rare


def test_the_renderers_agree_on_rare_positions() -> None:
    assert_agreement("shoo", _rare_cases(agreement_cases("shoo", per_preset=25)))


def test_states_draw_themselves_as_svg() -> None:
    game = shogames.make("shoo")
    state = game.new_initial_state()
    rng = random.Random(1)
    finished = state
    while not finished.is_terminal():
        if finished.to_move == CHANCE:
            move = sample_chance(finished, rng)
        else:
            move = rng.choice(list(finished.legal_moves()))
        finished = finished.play(move)
    for each in (state, finished):
        svg = board_svg(each)
        assert svg.startswith("<svg")
        assert each._repr_svg_() == svg
