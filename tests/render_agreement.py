"""Drawing the same views with a game's browser renderer (``static/renderer.js``) and its Python renderer.

:func:`js_board_svgs` runs the browser's module in a headless Chromium with no server: Playwright answers
the page's requests for ``/static/...`` from the package folders the web app serves them from.
:func:`agreement_cases` gives views of random positions of every preset of a game, each with the options a
page passes (orientation, seats' names, a game over off the board), so that each game's test
(``tests/test_render_<game>.py``) checks the two renderers give the same markup character for character.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route, sync_playwright

import shogames
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import game_class
from shogames.server.views import assets_folder, views_for
from test_browser import CHROMIUM, require_chromium

SERVER_STATIC = Path(shogames.__file__).parent / "server" / "static"
ORIGIN = "http://render.test"


def _answer(route: Route) -> None:
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/":
        route.fulfill(body="<!doctype html><title>render</title>", content_type="text/html")
        return
    if path.startswith("/static/games/"):
        game_id, name = path.removeprefix("/static/games/").split("/", 1)
        file = assets_folder(game_id) / name
    else:
        file = SERVER_STATIC / path.removeprefix("/static/")
    if not file.is_file():
        route.fulfill(status=404, body="missing")
        return
    kind = "text/javascript" if file.suffix == ".js" else "text/css"
    route.fulfill(body=file.read_text(encoding="utf-8"), content_type=kind)


@contextmanager
def renderer_page() -> Iterator[Page]:
    """A Chromium page at an empty document whose ``/static/...`` requests read the package folders."""
    require_chromium()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page()
            page.route(f"{ORIGIN}/**", _answer)
            page.goto(f"{ORIGIN}/")
            yield page
        finally:
            browser.close()


def js_board_svgs(
    page: Page, game_id: str, cases: Sequence[tuple[dict[str, Any], dict[str, Any]]]
) -> list[str]:
    """``render(view, options)`` of the game's ``renderer.js`` for each (view, options) case, in order."""
    payload = json.dumps([[view, options] for view, options in cases])
    result = page.evaluate(
        """async ([gameId, payload]) => {
            const module = await import(`/static/games/${gameId}/renderer.js`);
            return JSON.parse(payload).map(([view, options]) => module.render(view, options));
        }""",
        [game_id, payload],
    )
    return [str(markup) for markup in result]


def python_board_svg(game_id: str, view: dict[str, Any], options: dict[str, Any]) -> str:
    """The game's Python renderer on the same case, with the options a page passes."""
    import importlib

    module = importlib.import_module(str(game_class(game_id).render_module))
    return str(
        module.board_svg(
            view,
            orientation=options.get("orientation", 0),
            names=tuple(options.get("names", ())),
            over=bool(options.get("over", False)),
        )
    )


def _random_states(game_id: str, preset: str | None, seed: int, count: int) -> list[State[Any]]:
    rng = random.Random(seed)
    game = shogames.make(game_id, preset)
    states: list[State[Any]] = []
    state = game.new_initial_state()
    states.append(state)
    while len(states) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        state = state.play(move)
        if state.is_terminal() or rng.random() < 0.3:
            states.append(state)
    # The end of one whole game, so a finished position is always drawn.
    while not state.is_terminal():
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        state = state.play(move)
    states.append(state)
    return states


def agreement_cases(
    game_id: str, *, per_preset: int = 40, seed: int = 0
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(view, options) cases over random positions of the defaults and every preset of ``game_id``.

    Options cycle through every orientation, no names, the seats' names (one with markup characters and
    one long enough to be clipped), names with a gap, and ``over`` on a game that is still going.
    """
    cls = game_class(game_id)
    views = views_for(game_id)
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for index, preset in enumerate([None, *cls.presets]):
        states = _random_states(game_id, preset, seed + index, per_preset)
        players = states[0].game.num_players
        for number, state in enumerate(states):
            view = json.loads(json.dumps(views.position_view(state)))  # as the browser receives it
            names: list[str | None] = []
            if number % 3 == 1:
                names = [f"Player <{seat}> & 'co'" for seat in range(players)]
            elif number % 3 == 2:
                names = ["A rather long name for a seat, to be clipped", None, *[""] * (players - 2)][
                    :players
                ]
            options: dict[str, Any] = {"orientation": number % players, "names": names}
            if number % 5 == 4 and not state.is_terminal():
                options["over"] = True
            cases.append((view, options))
    return cases


CONTEXT = 40
"""Characters shown on each side of the first difference in a failure."""


def mismatch(index: int, options: dict[str, Any], ours: str, theirs: str) -> str:
    """A short message for a case whose two drawings differ: where, and some context from each side."""
    at = next(
        (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs))
    )
    start = max(at - CONTEXT, 0)
    return (
        f"case {index} (options {options!r}): the markup differs at character {at} "
        f"(python {len(ours)} characters, browser {len(theirs)})\n"
        f"  python : {ours[start : at + CONTEXT]!r}\n"
        f"  browser: {theirs[start : at + CONTEXT]!r}"
    )


def assert_agreement(game_id: str, cases: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """Both renderers of ``game_id`` draw every case alike, or fail at the first case that differs."""
    with renderer_page() as page:
        expected = js_board_svgs(page, game_id, cases)
    assert len(expected) == len(cases)
    for index, ((view, options), theirs) in enumerate(zip(cases, expected, strict=True)):
        ours = python_board_svg(game_id, view, options)
        if ours != theirs:
            raise AssertionError(mismatch(index, options, ours, theirs))
