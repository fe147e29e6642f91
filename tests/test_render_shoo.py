"""Shoo's Python renderer (``games/shoo/render.py``) draws what the browser's ``static/renderer.js`` draws.

Both renderers draw the same position views, over random positions of every preset and with every kind
of options a page passes, and must give the same markup character for character.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import shogames
from render_agreement import agreement_cases, js_board_svgs, python_board_svg, renderer_page
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE
from shogames.drawing import board_svg


def _first_difference(one: str, other: str) -> int:
    for index, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            return index
    return min(len(one), len(other))


def _mismatch(index: int, options: dict[str, Any], got: str, expected: str) -> str:
    at = _first_difference(got, expected)
    start = max(0, at - 40)
    return (
        f"case {index} (options {options!r}) differs at character {at}:\n"
        f"  python:  {got[start : at + 40]!r}\n"
        f"  browser: {expected[start : at + 40]!r}"
    )


def test_the_python_renderer_draws_what_the_browser_draws() -> None:
    cases = agreement_cases("shoo")
    with renderer_page() as page:
        expected = js_board_svgs(page, "shoo", cases)
    assert len(expected) == len(cases)
    for index, ((view, options), markup) in enumerate(zip(cases, expected, strict=True)):
        got = python_board_svg("shoo", view, options)
        if got != markup:
            raise AssertionError(_mismatch(index, options, got, markup))


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
    rare = _rare_cases(agreement_cases("shoo", per_preset=25))
    with renderer_page() as page:
        expected = js_board_svgs(page, "shoo", rare)
    for index, ((view, options), markup) in enumerate(zip(rare, expected, strict=True)):
        got = python_board_svg("shoo", view, options)
        if got != markup:
            raise AssertionError(_mismatch(index, options, got, markup))


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
