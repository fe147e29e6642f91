"""Sho's Python renderer (``games/sho/render.py``) draws what the browser's ``static/renderer.js`` draws.

Both renderers draw the same position views, over random positions of every preset and with every kind
of options a page passes, and must give the same markup character for character. Edited views reach what
random play rarely does, and a view per goal draws every spiral the settings allow: its coordinates go
through ``Math.cos``/``sin``/``atan2``/``hypot``, whose last bits differ between V8 and Python's ``math``,
and only rounding to hundredths makes the markup agree.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import shogames
from render_agreement import agreement_cases, assert_agreement
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, State
from shogames.drawing import board_svg
from shogames.games.sho import ShoState

Case = tuple[dict[str, Any], dict[str, Any]]


def test_the_python_renderer_draws_what_the_browser_draws() -> None:
    assert_agreement("sho", agreement_cases("sho"))


def _rare_cases(cases: list[Case]) -> list[Case]:
    """Views edited from random ones: pa ra chains, banked and earned throws, the follow phase's moved
    stack, Sho-mo stacks, places past the 4th, many values, a won game, one drawn by the turn cap and one
    ended off the board, and odd options
    (orientations past either end, names counted in UTF-16 units)."""
    playing = next(view for view, _ in cases if view["phase"] == "move" and view["stacks"])
    throwing = next(view for view, _ in cases if view["phase"] == "throw" and view["players"] == 4)
    over = next(view for view, _ in cases if view["phase"] == "over")
    four = next(view for view, _ in cases if view["phase"] != "over" and view["players"] == 4)
    teams = next(view for view, _ in cases if view["teams"])
    first_stack = playing["stacks"][0]
    shomo = [{**stack, "shomo": True} for stack in playing["stacks"]]
    edits: list[dict[str, Any]] = [
        {"paras": 1, "dice": [1, 1]},
        {"paras": 3, "dice": [1, 1], "values": [2, 2, 2]},
        {"dice": None},
        {"dice": [4, 6], "values": [4, 6, 10]},
        {"dice": [2, 3], "values": [2, 3, 5, 2, 3, 5, 7, 9, 11, 12]},
        {"banked": 1},
        {"banked": 2, "bonus": True},
        {"phase": "follow", "moved": first_stack["pos"], "bonus": True},
        {"phase": "draw", "dice": None, "values": []},
        {"phase": "throw", "values": []},
        {"phase": "throw", "values": [3, 4]},
        {"stacks": shomo},
        {"stacks": [{**first_stack, "size": 15}, *playing["stacks"][1:]]},
        {"phase": "over", "winner_side": 1},
        {"phase": "over", "winner_side": None},
        {"phase": "over", "winner_side": None, "truncated": True},
    ]
    rare: list[Case] = [
        ({**copy.deepcopy(base), **edit}, {"orientation": number % 2, "names": []})
        for number, edit in enumerate(edits)
        for base in (playing, throwing)
    ]
    places = copy.deepcopy(four)
    for side, place in zip(places["sides"], (5, 3, 1, 2), strict=True):
        side["place"] = place
    rare.append((places, {"orientation": 2, "names": []}))
    won = copy.deepcopy(over)
    won["sides"][0]["place"] = 1
    rare.append((won, {"orientation": 0, "names": ["", "Second"]}))
    team_names = (["\U0001f3b2" * 9, "x" + "\U0001f3b2" * 8, "Ann", None], ["A" * 9, "B" * 10, "", "C"])
    rare += [
        (view, {"orientation": 1, "names": names})
        for view in (teams, {**copy.deepcopy(teams), "phase": "over", "winner_side": 1})
        for names in team_names
    ]
    long_names = ["\U0001f3b2" * 10, "y" * 21]
    rare += [
        (view, {"orientation": orientation, "names": long_names})
        for view in (playing, four)
        for orientation in (-1, 7)
    ]
    rare += [
        (view, {"orientation": 0, "names": ["x" + "\U0001f3b2" * 10], "over": True})
        for view in (playing, four)
    ]
    return rare


def test_the_renderers_agree_on_rare_positions() -> None:
    assert_agreement("sho", _rare_cases(agreement_cases("sho", per_preset=25)))


def _spiral_cases(spirals: list[tuple[int, int]]) -> list[Case]:
    """A view of each (shells, goal) spiral, with a Sho-mo stack on every position and the follow phase's
    ring around one."""
    cases: list[Case] = []
    template = agreement_cases("sho", per_preset=1)[0][0]
    for shells, goal in spirals:
        stacks = [
            {"pos": pos, "side": pos % 2, "size": 1 + pos % 13, "shomo": True} for pos in range(1, goal)
        ]
        view = {
            **copy.deepcopy(template),
            "shells": shells,
            "goal": goal,
            "stacks": stacks,
            "phase": "follow",
            "moved": shells // 2,
        }
        cases.append((view, {"orientation": 0, "names": []}))
    return cases


EVERY_SPIRAL = [(shells, goal) for shells in range(13, 201) for goal in (shells, shells + 1)]
"""Shells from 13 to 200, the goal just past the last shell or one later: every spiral the settings allow."""


def test_the_renderers_agree_on_a_spiral_of_every_number_of_shells_and_every_goal() -> None:
    """Half of :data:`EVERY_SPIRAL`: the goal just past the last shell for every number of shells, and the
    goal of 201 (one past 200 shells)."""
    spirals = [(shells, goal) for shells, goal in EVERY_SPIRAL if goal == shells or goal == 201]
    assert {shells for shells, _ in spirals} == set(range(13, 201))
    assert {goal for _, goal in spirals} == {goal for _, goal in EVERY_SPIRAL}
    assert_agreement("sho", _spiral_cases(spirals))


@pytest.mark.slow
def test_the_renderers_agree_on_every_spiral() -> None:
    """Every spiral the settings allow (:data:`EVERY_SPIRAL`); run with --run-slow."""
    assert_agreement("sho", _spiral_cases(EVERY_SPIRAL))


def _finished(state: State[Any]) -> State[Any]:
    rng = random.Random(1)
    while not state.is_terminal():
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        state = state.play(move)
    return state


def test_states_draw_themselves_as_svg() -> None:
    for preset in (None, "four-teams"):
        state = shogames.make("sho", preset).new_initial_state()
        for each in (state, _finished(state)):
            svg = board_svg(each)
            assert svg.startswith("<svg")
            assert each._repr_svg_() == svg


def test_a_game_ended_off_the_board_is_not_called_a_draw() -> None:
    """A resignation or a loss on time (``over`` on a position not over) was drawn as "Drawn, the turn cap
    was reached" with the "=" of a draw; it says the game is over, as Shoo's and Shogammon's boards do. A
    game drawn by the turn cap still says so."""
    game = shogames.make("sho", "two-players")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(40):
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        state = state.play(move)
    assert not state.is_terminal()
    ended = board_svg(state, over=True)
    assert "Game over" in ended
    assert "turn cap" not in ended and "Drawn" not in ended
    assert 'class="sho-mat-trophy">=<' not in ended
    capped = shogames.make("sho", "two-players", max_turns=2).new_initial_state()
    capped = _finished(capped)
    assert isinstance(capped, ShoState)
    assert capped.is_truncated() and capped.winner_side is None
    drawn = board_svg(capped)
    assert "Drawn" in drawn and "the turn cap was reached" in drawn
    assert 'class="sho-mat-trophy">=<' in drawn
