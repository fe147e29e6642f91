"""End-to-end: the web app in a real headless Chromium, driven by Playwright, every move made by clicking.

Chromium is Debian's package (``/usr/bin/chromium``, or ``$CHROMIUM``); ``./test.sh`` installs it, and
without it these tests are skipped with the reason. Every registered game (the toy games too, installed in
the server through their entry points as in ``conftest.py``) is played from a position one move from a win
to the end, by clicking the targets the server lists for the winning move; one game is played online
between two browser contexts with invite links, and one against the computer, started from the home page's
form.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

import shogames
from server_process import free_port, start_server
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import game_class
from shogames.core.settings import parse_settings_text
from toy_games import DiceRaceGame, PlainDiceRaceGame, install_toy_games

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
NO_CHROMIUM = f"no Chromium at {CHROMIUM}: install Debian's chromium package (./test.sh does) or set CHROMIUM"


def require_chromium() -> None:
    """Skip the test that needs the browser, saying why, where Chromium is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.skip(NO_CHROMIUM)


NEAR_THE_END = {
    "shobu": ("", "4/2w1/4/wwwb 4/4/4/b1ww bwb1/4/b3/b3 b1ww/3b/4/b1b1 w 15"),
    "shoo": ("first_player=blue", "sss6/shs1h4/sSs6/3s5/1h6h/6n2/4h1n1n/6nnn/6nnn n 0/0 0/0 1/2 357 ply=453"),
    "sho": ("players=2", "14a1,45a1,61a1,62b2 0/0 6/7 2 move 3 0 1-2 107 255 entered=ab"),
    "shogammon": (
        "",
        "[ls]4g3/4k4/2[pn]K2[pn]p1/4[gp][pr]2[ps]/9/P2PPP2L/2[PN][G+B]2[PN]PP/7[RS]1/L3[GS]4"
        " b BL3Pp 37 6 104",
    ),
}


"""Positions one move from a win, with their settings, where a game's own is better than the default: the
four games' are chosen by hand (a board that shows the game's pieces and rules late in a game). A game not
named here gets the position of :func:`near_the_end`, found by random play, so a new game needs no entry."""


def _game(game_id: str, settings: str) -> Game[Any]:
    return shogames.make(game_id, None, **parse_settings_text(game_class(game_id).setting_specs, settings))


def _won_by_its_last_move(game: Game[Any], seed: int) -> State[Any] | None:
    """The position before the last move of a seeded random game, if that move won the game for its mover."""
    rng = random.Random(seed)
    state, before = game.new_initial_state(), None
    while not state.is_terminal():
        before = state
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        state = state.play(move)
    if before is None or before.to_move is None or before.to_move < 0:
        return None
    return before if state.returns()[before.to_move] > 0 else None


def near_the_end(game_id: str) -> tuple[str, str]:
    """(settings, position) of a position of ``game_id`` where the seat to move wins with one move.

    :data:`NEAR_THE_END`'s entry where there is one; else, under the default settings, the position before
    the last move of the first seeded random game that its last mover won.
    """
    if game_id in NEAR_THE_END:
        return NEAR_THE_END[game_id]
    game = _game(game_id, "")
    for seed in range(200):
        before = _won_by_its_last_move(game, seed)
        if before is not None:
            return "", before.to_text()
    raise AssertionError(f"no random game of {game_id} in 200 was won: give it a position in NEAR_THE_END")


def winning_move(game_id: str, settings: str, position: str) -> str:
    state = _game(game_id, settings).state_from_text(position)
    mover = state.to_move
    for move in state.legal_moves():
        after = state.play(move)
        if after.is_terminal() and after.returns()[mover] > 0:
            return str(state.move_to_text(move))
    raise AssertionError(f"no winning move in {position!r}")


@pytest.mark.parametrize("game_id", [cls.id for cls in shogames.available_games()])
def test_every_game_has_a_position_one_move_from_a_win(game_id: str) -> None:
    """What ``test_a_short_game_of_each_game_by_clicking`` plays, checked without the browser."""
    settings, position = near_the_end(game_id)
    state = _game(game_id, settings).state_from_text(position)
    assert state.to_move is not None and state.to_move >= 0
    assert state.parse_move(winning_move(game_id, settings, position)) in state.legal_moves()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_chromium()  # every test of this server drives the browser
    folder = tmp_path_factory.mktemp("server")
    # The toy games are installed as an outside package would be: a distribution with entry points.
    install_toy_games(folder)
    port = free_port()
    tests = str(Path(__file__).parent)
    process = start_server(
        f"sqlite+aiosqlite:///{folder / 'games.db'}", port, folder, env={"PYTHONPATH": tests}
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    require_chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield launched
        launched.close()


def snapshot(server: str, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{server}/api/games/{game_id}").json()
    return answer


def click_move(page: Page, clicks: list[str]) -> None:
    """Click a move's targets in order: board targets in the SVG, ``opt:`` choices as buttons."""
    for target in clicks:
        if target.startswith("opt:"):
            page.locator(f'#choices button[data-target="{target}"]').click()
        else:
            page.locator(f'#board [data-target="{target}"]').first.click()


def play_by_clicking(page: Page, server: str, game_id: str, text: str) -> dict[str, Any]:
    """Make the move ``text`` by clicking, and wait until the server has it."""
    before = snapshot(server, game_id)
    (move,) = [move for move in before["legal"] if move["text"] == text]
    expect(page.locator("#board svg")).to_be_visible()
    click_move(page, move["clicks"])
    page.wait_for_function(
        "ply => Number(document.querySelector('#moves li:last-child button')?.dataset.ply ?? 0) > ply",
        arg=before["ply"],
    )
    after = snapshot(server, game_id)
    assert after["moves"][before["ply"]]["text"] == text
    return after


@pytest.mark.parametrize("game_id", [cls.id for cls in shogames.available_games()])
def test_a_short_game_of_each_game_by_clicking(server: str, browser: Browser, game_id: str) -> None:
    settings, position = near_the_end(game_id)
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": game_id,
            "settings": settings,
            "position": position,
            "mode": "hotseat",
            "seats": [
                {"kind": "person", "name": name} for name in names[: _game(game_id, settings).num_players]
            ],
        },
    ).json()
    tokens = ",".join(seat["link"].split("#token=")[1] for seat in created["seats"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/game/{created['id']}#token={tokens}")
    expect(page.locator("#status")).to_contain_text("to move")
    text = winning_move(game_id, settings, position)
    clicks = next(move["clicks"] for move in snapshot(server, created["id"])["legal"] if move["text"] == text)
    if not clicks[0].startswith("opt:"):  # a game shown with buttons only (the generic view) has no pieces
        # The pieces that can move are highlighted; a wrong click selects nothing.
        assert page.locator("#board [data-target].selectable").count() > 0
    after = play_by_clicking(page, server, created["id"], text)
    assert after["status"] == "finished" and after["termination"] == "normal"
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#resign")).to_be_hidden()
    # Step back through the move list to the start, and forward again.
    page.locator("#first").click()
    expect(page.locator("#status")).to_contain_text("after move 0")
    page.locator("#latest").click()
    expect(page.locator("#status")).to_contain_text("Game over")
    assert errors == []
    page.close()


def test_online_by_invite_links_between_two_browsers(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "shobu",
            "mode": "online",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
        },
    ).json()
    game_id = created["id"]
    black_context, white_context, watcher_context = (browser.new_context() for _ in range(3))
    black, white, watcher = (
        context.new_page() for context in (black_context, white_context, watcher_context)
    )
    black.goto(server + created["seats"][0]["link"])
    white.goto(server + created["seats"][1]["link"])
    watcher.goto(f"{server}/game/{game_id}")
    expect(black.locator("#status")).to_have_text("Your move.")
    expect(white.locator("#status")).to_contain_text("Waiting for Ann")
    expect(watcher.locator("#status")).to_contain_text("Waiting for Ann")
    assert white.locator("#board [data-target].selectable").count() == 0, "White cannot move for Black"
    play_by_clicking(black, server, game_id, "BDa1-a3 WLb1-b3")
    expect(white.locator("#status")).to_have_text("Your move.")  # announced over the WebSocket
    expect(watcher.locator("#moves")).to_contain_text("BDa1-a3 WLb1-b3")
    play_by_clicking(white, server, game_id, "WLa4-a3 WDc4-c3")
    expect(black.locator("#moves")).to_contain_text("WLa4-a3 WDc4-c3")
    white.on("dialog", lambda dialog: dialog.accept())
    white.locator("#resign").click()
    for page in (black, white, watcher):
        expect(page.locator("#status")).to_contain_text("Black wins (resignation)")
    record = httpx.get(f"{server}/api/games/{game_id}/record").text
    assert "1. BDa1-a3 WLb1-b3" in record and '[Result "1-0"]' in record
    for context in (black_context, white_context, watcher_context):
        context.close()


def test_against_the_computer_from_the_home_page(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server + "/")
    page.locator(".game-card", has_text="Shobu").click()
    computer = page.locator(".seat-row").nth(1)
    computer.locator("select").select_option("ai:master")  # each level says what it is
    expect(computer.locator(".level-line")).to_contain_text("searches 10,000,000 positions a move")
    expect(computer.locator(".seat-player")).to_be_hidden()
    computer.locator("select").select_option("ai:beginner")
    expect(computer.locator(".level-line")).to_contain_text("plays 50% of its moves at random")
    page.locator("#create").click()
    page.wait_for_url(re.compile(r"/game/\w+#token="))
    game_id = page.url.split("/game/")[1].split("#")[0]
    expect(page.locator("#status")).to_have_text("Your move.")
    play_by_clicking(page, server, game_id, "BDa1-a3 WLb1-b3")
    expect(page.locator("#status")).to_have_text("Your move.")  # the computer has answered
    assert snapshot(server, game_id)["ply"] == 2
    page.locator("#takeback").click()
    expect(page.locator("#moves li")).to_have_count(0)
    play_by_clicking(page, server, game_id, "BDb1-b2 WLb1-b2")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click()
    expect(page.locator("#status")).to_contain_text("White wins (resignation)")
    page.goto(server + "/")
    expect(page.locator("#finished-games")).to_contain_text("Shobu")
    page.close()


def test_a_record_opens_in_the_viewer(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "shobu", "mode": "hotseat", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    token = created["seats"][0]["link"].split("#token=")[1]
    httpx.post(f"{server}/api/games/{created['id']}/moves", json={"move": "BDa1-a3 WLb1-b3", "token": token})
    record = httpx.get(f"{server}/api/games/{created['id']}/record").text
    page = browser.new_page()
    page.goto(server + "/viewer")
    page.locator("#record-text").fill(record.replace("BDa1-a3", "BDa1-a9"))
    page.locator("#open").click()
    expect(page.locator("#message")).to_contain_text("line")
    page.locator("#record-text").fill(record)
    page.locator("#open").click()
    expect(page.locator("#status")).to_contain_text("After the last move (1)")
    expect(page.locator("#board svg")).to_be_visible()
    page.locator("#prev").click()
    expect(page.locator("#status")).to_contain_text("After move 0 of 1")
    page.close()


def test_a_game_from_an_outside_package_is_offered_and_played_by_clicking(
    server: str, browser: Browser
) -> None:
    """The toy dice race, installed through an entry point with its view and renderer, from the home page."""
    catalog = httpx.get(f"{server}/api/catalog").json()
    assert DiceRaceGame.id in [game["id"] for game in catalog["games"]]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.locator(".game-card", has_text=DiceRaceGame.name).click()
    expect(page.locator(".game-card", has_text=DiceRaceGame.name)).to_contain_text(DiceRaceGame.blurb)
    page.locator("#preset").select_option("sprint")
    expect(page.locator(".seat-row")).to_have_count(2)
    page.locator(".seat-row").nth(1).locator("select").select_option("me")
    page.locator("#create").click()
    page.wait_for_url(re.compile(r"/game/\w+#token="))
    game_id = page.url.split("/game/")[1].split("#")[0]
    snap = snapshot(server, game_id)
    while snap["status"] == "active":
        expect(page.locator("#status")).to_contain_text("to move")
        snap = play_by_clicking(page, server, game_id, snap["legal"][-1]["text"])
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#board .race-token")).to_have_count(2)
    assert errors == []


def long_record() -> tuple[str, int]:
    """A whole Shoo game of random moves (about a thousand plies), as a record."""
    import random

    from shogames.core import sample_chance
    from shogames.records import finish_record, start_record, write_record

    game = shogames.make("shoo")
    rng = random.Random(1)
    state = game.new_initial_state()
    record = start_record(game, list(game.player_names))
    plies = 0
    while not state.is_terminal():
        move = sample_chance(state, rng) if state.to_move == -1 else rng.choice(state.legal_moves())
        record.add_move(state.move_to_text(move))
        state = state.play(move)
        plies += 1
    finish_record(record, state)
    return write_record(record), plies


def test_a_long_record_steps_through_windows_of_positions(server: str, browser: Browser) -> None:
    record, plies = long_record()
    assert plies > 400, "longer than one window of positions"
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.goto(server + "/viewer")
    page.locator("#record-text").fill(record)
    page.locator("#open").click()
    expect(page.locator("#status")).to_contain_text(f"After the last move ({plies})")
    page.locator("#first").click()
    expect(page.locator("#status")).to_contain_text(f"After move 0 of {plies}")
    expect(page.locator("#board svg")).to_be_visible()
    page.locator("#next").click()
    expect(page.locator("#status")).to_contain_text(f"After move 1 of {plies}")
    page.locator(f'#moves button[data-ply="{plies // 2}"]').click()
    expect(page.locator("#status")).to_contain_text(f"After move {plies // 2} of {plies}")
    assert problems == []
    page.close()


def test_the_pages_keep_to_their_content_security_policy(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "sho",
            "settings": "players=2",
            "seats": [{"kind": "person"}, {"kind": "ai", "agent": "easy"}],
        },
    ).json()
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    for path in ("/", created["seats"][0]["link"], "/viewer"):
        response = page.goto(server + path)
        assert (
            response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
        )
        page.wait_for_load_state("networkidle")
    expect(page.locator("#open")).to_be_visible()
    page.goto(server + created["seats"][0]["link"])
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#status")).not_to_be_empty()
    assert problems == [], problems
    page.close()


def test_a_game_without_a_view_is_played_with_the_generic_view(server: str, browser: Browser) -> None:
    """A registered game with no view module is shown as text, every move a button."""
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": PlainDiceRaceGame.id,
            "preset": "sprint",
            "mode": "hotseat",
            "seats": [{"kind": "person"}, {"kind": "person"}],
        },
    ).json()
    tokens = ",".join(seat["link"].split("#token=")[1] for seat in created["seats"])
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/game/{created['id']}#token={tokens}")
    snap = snapshot(server, created["id"])
    expect(page.locator("#board svg.generic-svg")).to_contain_text(snap["position"]["diagram"][0])
    while snap["status"] == "active":
        expect(page.locator("#status")).to_contain_text("to move")
        snap = play_by_clicking(page, server, created["id"], snap["legal"][0]["text"])
    expect(page.locator("#status")).to_contain_text("Game over")
    assert errors == []
    page.close()
