"""The analysis board (``/analysis/<game>``): its API on every registered game, the position editors of the
four games, and in Chromium a position set up, a variation played and the engine panel followed in each.

The API: positions and moves read by the games (bad ones refused with a 4xx that says why), dice played as
moves, searches at a seat's decision (the best lines, values for seat 0 in two-sided games) and at dice
(each roll's best play and the expectation), the budget cap and the quota. The editors: every change
offered reads back as a position of the game. The browser: for each of the four games, the position is
changed with the graphical editor, a move (or a roll) is played, then two different continuations from
the same position, the second one a variation in the move tree; the engine panel shows the lines and the
value of each position in turn, and they differ.
"""

# ruff: noqa: F811 (the fixtures server and browser come from test_browser)
from __future__ import annotations

import re
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect

import shogames
from shogames.core.protocol import CHANCE, State
from shogames.games import BUILTIN_GAMES
from shogames.server.analysis_board import MAX_MOVES, SEARCH_BURST
from shogames.server.app import create_app
from shogames.server.board_search import MAX_NODES, node_cap, search_position
from shogames.server.guides import make_game
from shogames.server.views import has_position_editor, position_edits
from test_browser import NEAR_THE_END, browser, click_move, server  # noqa: F401 (fixtures)

GAMES = [cls.id for cls in shogames.available_games()]
"""Every registered game (the toy games too): the board needs nothing of a game beyond the protocol."""
SHIPPED = sorted(BUILTIN_GAMES)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("analysis-board")
    app = create_app(f"sqlite+aiosqlite:///{folder / 'games.db'}", workers=1, study_workers=1)
    with TestClient(app) as test_client:
        yield test_client


def post(client: TestClient, game: str, what: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/analysis/{game}/{what}", json=body)
    assert response.status_code == 200, response.json()
    answer: dict[str, Any] = response.json()
    return answer


def refused(client: TestClient, game: str, what: str, body: Any, status: int = 400) -> str:
    response = client.post(f"/api/analysis/{game}/{what}", json=body)
    assert response.status_code == status, response.json()
    message: str = response.json()["error"]
    return message


def decision_after_dice(state: State[Any]) -> State[Any]:
    """``state``, or the position after its first dice outcome(s) where a seat moves."""
    while state.to_move == CHANCE:
        state = state.play(state.chance_outcomes()[-1][0])
    return state


def chance_after_moves(state: State[Any]) -> tuple[State[Any], list[str]]:
    """The first position with the dice to throw from ``state`` (each seat's first move played), and the
    moves that lead there."""
    texts: list[str] = []
    for _ in range(20):
        if state.to_move == CHANCE:
            return state, texts
        move = state.legal_moves()[0]
        texts.append(state.move_to_text(move))
        state = state.play(move)
    raise AssertionError("no dice within 20 moves")


# --- Positions and moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_each_games_start_is_on_the_board(client: TestClient, game: str) -> None:
    answer = post(client, game, "position", {})
    start = shogames.make(game).start_position()
    assert answer["text"] == answer["start"] == start.to_text()
    assert answer["moves"] == [] and answer["game"]["settings"] == ""
    assert answer["to_move"] == start.to_move
    if start.to_move == CHANCE:
        assert answer["legal"] == [] and answer["chance"]
        assert sum(Fraction(outcome["probability"]) for outcome in answer["chance"]) == 1
    else:
        assert len(answer["legal"]) == len(start.legal_moves()) and answer["chance"] == []
    assert answer["editor"] == has_position_editor(game)
    assert client.get(f"/analysis/{game}").status_code == 200


def test_moves_are_read_by_the_game_and_written_as_it_writes_them(client: TestClient) -> None:
    """A Shobu turn typed without its aggressive destination comes back whole, with its clicks' squares."""
    answer = post(client, "shobu", "position", {"moves": ["BDa1-a3 WLb1", "WLa4-a3 WDc4-c3"]})
    assert [move["text"] for move in answer["moves"]] == ["BDa1-a3 WLb1-b3", "WLa4-a3 WDc4-c3"]
    assert [move["seat"] for move in answer["moves"]] == [0, 1]
    assert answer["to_move"] == 0 and answer["last"]
    state = (
        shogames.make("shobu").new_initial_state().play_text("BDa1-a3 WLb1-b3").play_text("WLa4-a3 WDc4-c3")
    )
    assert answer["text"] == state.to_text()


@pytest.mark.parametrize("game", ["sho", "shogammon"])
def test_dice_are_chosen_like_moves(client: TestClient, game: str) -> None:
    start = post(client, game, "position", {})
    outcome = start["chance"][len(start["chance"]) // 2]["text"]
    after = post(client, game, "position", {"moves": [outcome]})
    assert [(move["text"], move["seat"]) for move in after["moves"]] == [(outcome, CHANCE)]
    assert after["to_move"] != CHANCE and after["legal"]


def test_settings_presets_and_a_position_of_ones_own(client: TestClient) -> None:
    answer = post(client, "sho", "position", {"settings": "players=2"})
    assert answer["game"]["players"] == ["Player 1", "Player 2"]
    assert answer["game"]["settings"] == "players=2"
    answer = post(client, "sho", "position", {"preset": "lhasa"})
    assert answer["game"]["settings"] == "six_three=on triple_para_win=on", "the address needs no preset"
    settings, position = NEAR_THE_END["shoo"]
    answer = post(client, "shoo", "position", {"settings": settings, "position": position})
    assert (
        answer["start"] == answer["text"] == make_game("shoo", settings).state_from_text(position).to_text()
    )


def test_a_finished_game_says_its_result(client: TestClient) -> None:
    settings, position = NEAR_THE_END["shobu"]
    state = make_game("shobu", settings).state_from_text(position)
    winning = next(move for move in state.legal_moves() if state.play(move).is_terminal())
    answer = post(client, "shobu", "position", {"position": position, "moves": [state.move_to_text(winning)]})
    assert answer["terminal"] and answer["to_move"] is None and answer["legal"] == []
    assert "White wins" in answer["result"] and answer["returns"] == [-1.0, 1.0]
    message = refused(
        client, "shobu", "position", {"position": position, "moves": [state.move_to_text(winning), "x"]}
    )
    assert "move 2 ('x') comes after the end of the game" in message


@pytest.mark.parametrize(
    ("game", "body", "status", "expected"),
    [
        ("nogame", {}, 404, "no game called 'nogame'; the games are"),
        ("sho", {"settings": "players=9"}, 400, "settings refused: setting 'players'"),
        ("sho", {"settings": "colour=red"}, 400, "settings refused:"),
        ("sho", {"preset": "nopreset"}, 400, "settings refused:"),
        ("shobu", {"position": "not a position"}, 400, "position refused: a Shobu position has 5 fields"),
        ("shobu", {"position": "4/4/4/4 4/4/4/4 4/4/4/4 4/4/4/4 b " + "9" * 30}, 400, "at most 18 digits"),
        ("shobu", {"moves": ["BDa1-a4 WLb1-b4"]}, 400, "move 1 ('BDa1-a4 WLb1-b4') refused:"),
        ("shobu", {"moves": ["BDa1-a3 WLb1-b3", "nonsense"]}, 400, "move 2 ('nonsense') refused:"),
        ("sho", {"moves": ["7-7"]}, 400, "move 1 ('7-7') refused:"),
        ("shobu", {"moves": ["x"] * (MAX_MOVES + 1)}, 400, f"at most {MAX_MOVES} items"),
        ("shobu", {"moves": "BDa1-a3"}, 400, "malformed request: moves:"),
        ("shobu", {"position": "x" * 5001}, 400, "malformed request: position:"),
    ],
)
def test_bad_input_is_refused_with_what_was_wrong(
    client: TestClient, game: str, body: dict[str, Any], status: int, expected: str
) -> None:
    for what in ("position", "search", "edits"):
        assert expected in refused(client, game, what, body, status)


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.post(
        "/api/analysis/shobu/position", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400 and "malformed request" in response.json()["error"]
    assert "nodes" in refused(client, "shobu", "search", {"nodes": 0})
    assert "nodes" in refused(client, "shobu", "search", {"nodes": "many"})


def test_the_pages(client: TestClient) -> None:
    index = client.get("/analysis")
    assert index.status_code == 200
    for game in GAMES:
        assert f'href="/analysis/{game}"' in index.text
    page = client.get("/analysis/shobu")
    assert '<script type="module" src="/static/analysis.js">' in page.text
    assert 'data-game="shobu"' in page.text
    missing = client.get("/analysis/nogame")
    assert missing.status_code == 404 and "no game called" in missing.text
    assert client.get("/static/analysis.js").status_code == 200
    assert 'href="/analysis"' in client.get("/").text, "the home page links the analysis board"


# --- Searches --------------------------------------------------------------------------------------------


def check_line(state: State[Any], moves: list[str]) -> None:
    """Every move of a line is legal where it is played."""
    for text in moves:
        assert state.to_move != CHANCE and not state.is_terminal()
        state = state.play(state.parse_move(text))


@pytest.mark.parametrize("game", GAMES)
def test_a_search_at_a_decision_gives_the_best_lines_with_their_values(client: TestClient, game: str) -> None:
    start = shogames.make(game).start_position()
    state = decision_after_dice(start)
    moves: list[str] = []  # the outcomes decision_after_dice played, as texts
    probe = start
    while probe.to_move == CHANCE:
        outcome = probe.chance_outcomes()[-1][0]
        moves.append(probe.move_to_text(outcome))
        probe = probe.play(outcome)
    answer = post(client, game, "search", {"moves": moves, "nodes": 3000})
    assert answer["kind"] == "decision" and answer["text"] == state.to_text()
    assert 1 <= len(answer["lines"]) <= min(3, len(state.legal_moves()))
    values = [line["value"] for line in answer["lines"]]
    assert all(-1 <= value <= 1 for value in values)
    two_sided = state.game.num_players == 2
    perspective = answer["perspective"]
    assert perspective == {
        "seat": 0 if two_sided else state.to_move,
        "name": state.game.player_names[perspective["seat"]],
        "fixed": two_sided,
    }
    mover_values = [value if perspective["seat"] == state.to_move else -value for value in values]
    assert mover_values == sorted(mover_values, reverse=True), "best line first, for the seat to move"
    assert answer["value"] == values[0] and answer["depth"] >= 1 and answer["nodes"] >= 1
    for line in answer["lines"]:
        check_line(state, line["moves"])
    assert answer["budget"]["nodes"] == 3000 and answer["budget"]["max_nodes"] == node_cap(state.game)


@pytest.mark.parametrize("game", [game for game in GAMES if shogames.make(game).has_chance])
def test_a_search_at_the_dice_gives_each_rolls_play_and_the_expectation(
    client: TestClient, game: str
) -> None:
    start = shogames.make(game).new_initial_state()  # Shoo's dice: the toss, before the start position
    state, moves = chance_after_moves(start)
    answer = post(client, game, "search", {"position": start.to_text(), "moves": moves, "nodes": 4000})
    assert answer["kind"] == "chance" and answer["text"] == state.to_text()
    outcomes = state.chance_outcomes()
    assert [roll["outcome"] for roll in answer["rolls"]] == [state.move_to_text(o) for o, _ in outcomes]
    assert [Fraction(roll["probability"]) for roll in answer["rolls"]] == [p for _, p in outcomes]
    expectation = sum(roll["p"] * roll["value"] for roll in answer["rolls"])
    assert answer["value"] == pytest.approx(expectation, abs=1e-3)
    for roll, (outcome, _) in zip(answer["rolls"], outcomes, strict=True):
        after = state.play(outcome)
        if roll["play"]:
            check_line(after, roll["play"])
            assert after.play(after.parse_move(roll["play"][0])).to_move is not None
        assert -1 <= roll["value"] <= 1


def test_the_dice_of_the_first_throw_of_sho_with_three_players(client: TestClient) -> None:
    """Three seats: values for the seat that throws (the paranoid search's), not a fixed seat."""
    answer = post(client, "sho", "search", {"nodes": 2000})
    assert answer["kind"] == "chance"
    assert answer["perspective"] == {"seat": 0, "name": "Player 1", "fixed": False}
    assert len(answer["rolls"]) == 21


def test_values_are_for_seat_zero_whoever_moves(client: TestClient) -> None:
    """Shobu one move from White's win: the value is Black's, near -1; after the win, the returns."""
    settings, position = NEAR_THE_END["shobu"]
    answer = post(client, "shobu", "search", {"settings": settings, "position": position, "nodes": 2000})
    assert answer["perspective"]["seat"] == 0 and answer["perspective"]["name"] == "Black"
    assert answer["value"] < -0.99 and answer["lines"][0]["end"] == "over"
    state = make_game("shobu", settings).state_from_text(position)
    assert state.play(state.parse_move(answer["lines"][0]["moves"][0])).is_terminal()
    over = post(client, "shobu", "search", {"position": position, "moves": answer["lines"][0]["moves"][:1]})
    assert over["kind"] == "over" and over["value"] == -1.0 and over["complete"]


def test_the_budget_is_capped(client: TestClient) -> None:
    started = time.perf_counter()
    answer = post(client, "shobu", "search", {"nodes": 10**12})
    took = time.perf_counter() - started
    assert answer["budget"]["nodes"] == node_cap(shogames.make("shobu")) <= MAX_NODES
    assert answer["complete"], "no request searches more than the cap: the page stops asking"
    assert took < 5, f"a capped search took {took:.1f} s"
    small = post(client, "shobu", "search", {"nodes": 2000})
    assert small["nodes"] <= 2000 and not small["complete"]


def test_searches_have_a_quota_per_client(tmp_path: Path) -> None:
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", workers=1, study_workers=1)
    settings, position = NEAR_THE_END["shobu"]
    state = make_game("shobu", settings).state_from_text(position)
    winning = next(move for move in state.legal_moves() if state.play(move).is_terminal())
    body = {"position": position, "moves": [state.move_to_text(winning)]}  # over: nothing to search
    with TestClient(app) as fresh:
        answers = [fresh.post("/api/analysis/shobu/search", json=body) for _ in range(SEARCH_BURST)]
        assert [answer.status_code for answer in answers] == [200] * SEARCH_BURST
        for _ in range(200):  # the bucket refills a few tokens a second: a quick client soon runs dry
            over = fresh.post("/api/analysis/shobu/search", json=body)
            if over.status_code != 200:
                break
        assert over.status_code == 429 and "too many board searches" in over.json()["error"]
        assert int(over.headers["Retry-After"]) >= 1
        assert fresh.post("/api/analysis/shobu/position", json=body).status_code == 200, "positions are free"


def test_a_position_the_kernel_cannot_hold_is_searched_by_the_reference() -> None:
    state = shogames.make("shobu").state_from_text(
        "wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb b"
    )
    answer = search_position(state, 500)
    assert answer["searcher"] == "compiled alpha-beta"
    big = shogames.make("shobu", max_turns=2**62).new_initial_state()  # past the kernels' integers
    answer = search_position(big, 500)
    assert answer["searcher"] == "alpha-beta (pure Python)" and answer["lines"]


# --- The position editors ---------------------------------------------------------------------------------


EDIT_TARGETS = {
    "shobu": ["", "sq:BD:a1", "sq:WL:b2", "sq:nowhere"],
    "shoo": ["", "sq:e5", "sq:g1", "stable:south:horse", "stable:north:traveller", "pasture:north", "x"],
    "sho": ["", "shell:5", "hand:0", "goal", "shell:99"],
    "shogammon": ["", "sq:5e", "sq:7g", "sq:5i", "hand:0:P", "sq:zz"],
}


@pytest.mark.parametrize("game", SHIPPED)
def test_every_change_an_editor_offers_is_a_position_of_the_game(game: str) -> None:
    """Over the start and a few later positions: each change reads back, and changes the position."""
    state = shogames.make(game).start_position()
    seen = 0
    for _ in range(4):
        for target in EDIT_TARGETS[game]:
            edits = position_edits(state, target)
            assert edits is not None
            for label, text in edits:
                edited = state.game.state_from_text(text)
                assert edited.to_text() == text and text != state.to_text(), (target, label)
                seen += 1
        state = decision_after_dice(state)
        for _ in range(3):
            if state.is_terminal():
                break
            state = decision_after_dice(state.play(state.legal_moves()[-1]))
    assert seen > 10


def test_the_editors_build_a_position_from_scratch() -> None:
    """Emptied boards, then pieces put back one click at a time, each a change the editor offers."""

    def apply(state: State[Any], target: str, label: str) -> State[Any]:
        edits = dict(position_edits(state, target) or [])
        assert label in edits, (target, sorted(edits))
        edited: State[Any] = state.game.state_from_text(edits[label])
        return edited

    shoo = apply(shogames.make("shoo").start_position(), "", "empty the field")
    shoo = apply(apply(shoo, "sq:e5", "Blue rider"), "sq:a9", "White traveller")
    assert shoo.to_text().startswith("n8/9/9/9/4S4/9/9/9/9 s 3/5")
    gammon = apply(shogames.make("shogammon").new_initial_state(), "", "empty the board but the kings")
    gammon = apply(apply(gammon, "sq:5e", "White dragon"), "", "Black's hand: one more pawn")
    assert gammon.to_text() == "4k4/9/9/9/4+r4/9/9/9/4K4 b P 1 - 0"
    sho = apply(shogames.make("sho", players=2).new_initial_state(), "shell:7", "Player 2: a coin here")
    sho = apply(apply(sho, "shell:7", "one coin more"), "", "Player 2 to throw")
    assert sho.to_text().startswith("7b2 9/7 0/0 2 throw")
    shobu = apply(shogames.make("shobu").new_initial_state(), "sq:WD:a4", "remove the stone")
    assert apply(shobu, "", "White to move").to_text().startswith("1www/4/4/bbbb")


def test_the_edits_route(client: TestClient) -> None:
    answer = post(client, "shobu", "edits", {"target": "sq:BD:b2"})
    assert [edit["label"] for edit in answer["edits"]] == ["Black stone", "White stone"]
    assert post(client, "shobu", "edits", {"target": "nowhere"})["edits"] == []
    without = [game for game in GAMES if not has_position_editor(game)]
    for game in without:
        assert "no position editor" in refused(client, game, "edits", {}, 404)


# --- In Chromium -------------------------------------------------------------------------------------------


BROWSER_SETUP = {
    # game: (settings, the editor's target and change that set up the position)
    "shobu": ("", "sq:WD:a4", "remove the stone"),
    "shoo": ("", "sq:e5", "free horse"),
    "sho": ("players=2", "shell:5", "Player 1: a coin here"),
    "shogammon": ("", "sq:7g", "promote it"),
}


def api(server: str, game: str, what: str, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{server}/api/analysis/{game}/{what}", json=body, timeout=30)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def children(state: State[Any]) -> list[Any]:
    if state.to_move == CHANCE:
        return [outcome for outcome, _ in state.chance_outcomes()]
    return list(state.legal_moves())


def decides(state: State[Any]) -> bool:
    return not state.is_terminal() and state.to_move != CHANCE


def branching_point(start: State[Any]) -> tuple[list[str], str, str]:
    """A path of one or two plies from ``start`` to a position and two moves (or rolls) there after which a
    seat moves, the first valued well above the second for seat 0 (as the board's engine values them)."""
    paths: list[list[Any]] = [[first] for first in children(start)[:6]]
    paths += [[first, second] for first in children(start)[:3] for second in children(start.play(first))[:3]]
    for path in paths:
        state = start
        for move in path:
            state = state.play(move)
        if state.is_terminal():
            continue
        valued = []
        for move in children(state)[:40]:
            after = state.play(move)
            if decides(after) and after.legal_moves():
                valued.append((search_position(after, 2000, lines=1)["value"], state.move_to_text(move)))
        if len(valued) >= 2:
            valued.sort()
            (low, worse), (high, better) = valued[0], valued[-1]
            if high - low >= 0.2:
                texts, probe = [], start
                for move in path:
                    texts.append(probe.move_to_text(move))
                    probe = probe.play(move)
                return texts, better, worse
    raise AssertionError("no position with two clearly different continuations near the start")


def play_on_page(
    page: Page, server: str, game: str, base: dict[str, Any], moves: list[str], move: str
) -> str:
    """Play ``move`` after ``moves`` by clicking it (a roll: its button); returns the position's text."""
    before = api(server, game, "position", {**base, "moves": moves})
    if before["chance"]:
        page.locator(f'#dice-list button[data-outcome="{move}"]').click()
    else:
        (clicks,) = [legal["clicks"] for legal in before["legal"] if legal["text"] == move]
        expect(page.locator("#board svg")).to_be_visible()
        click_move(page, clicks)
    after = api(server, game, "position", {**base, "moves": [*moves, move]})
    expect(page.locator("#position-text")).to_have_value(after["text"])
    return str(after["text"])


def engine_shows(page: Page, text: str) -> tuple[str, float]:
    """The engine panel's lines and value once it shows the position ``text`` (its first result or later)."""
    panel = page.locator("#engine")
    expect(panel).to_have_attribute("data-position", text, timeout=20_000)
    expect(page.locator("#engine-lines li").first).to_be_visible()
    lines = page.locator("#engine-lines").inner_text()
    value = float(page.locator("#eval-text").get_attribute("data-value") or "nan")
    return lines, value


@pytest.mark.parametrize("game", SHIPPED)
def test_a_position_set_up_and_a_variation_followed_by_the_engine(
    server: str, browser: Browser, game: str
) -> None:
    settings, target, label = BROWSER_SETUP[game]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(
        f"{server}/analysis/{game}?{urlencode({'settings': settings})}"
        if settings
        else f"{server}/analysis/{game}"
    )
    start = api(server, game, "position", {"settings": settings})
    expect(page.locator("#position-text")).to_have_value(start["text"])
    # Set up: the editor's change of one board target.
    page.locator("#edit-switch").check()
    expect(page.locator("#edit-choices button").first).to_be_visible()
    page.locator(f'#board [data-target="{target}"]').first.click()
    edits = api(server, game, "edits", {"settings": settings, "target": target})["edits"]
    (position,) = [edit["position"] for edit in edits if edit["label"] == label]
    page.locator("#edit-choices button", has_text=label).first.click()
    expect(page.locator("#position-text")).to_have_value(position)
    page.locator("#edit-switch").uncheck()
    base = {"settings": settings, "position": position}
    # A move (or roll), then two continuations from the same position: the second a variation.
    state = make_game(game, settings).state_from_text(position)
    path, better, worse = branching_point(state)
    for index, move in enumerate(path):
        play_on_page(page, server, game, base, path[:index], move)
    first = play_on_page(page, server, game, base, path, better)
    first_lines, first_value = engine_shows(page, first)
    page.locator("#prev").click()
    expect(page.locator("#position-text")).to_have_value(
        api(server, game, "position", {**base, "moves": path})["text"]
    )
    second = play_on_page(page, server, game, base, path, worse)
    second_lines, second_value = engine_shows(page, second)
    assert second_lines != first_lines
    assert second_value != first_value
    expect(page.locator("#tree .variation")).to_have_count(1)
    expect(page.locator("#tree button.current")).to_contain_text(worse)
    # The address holds the board: opened again, it shows the same position.
    assert "moves=" in page.url and "position=" in page.url
    page.reload()
    expect(page.locator("#position-text")).to_have_value(second)
    assert errors == []
    context.close()


def test_the_position_text_the_stop_button_and_the_links_in(server: str, browser: Browser) -> None:
    _, position = NEAR_THE_END["shobu"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/?game=shobu")
    # The home page points the link at the chosen game once it has the list of games (before that it
    # leads to the analysis board's list of games).
    expect(page.locator("#analysis-link")).to_have_attribute("href", "/analysis/shobu")
    page.locator("#analysis-link").click()
    expect(page).to_have_url(f"{server}/analysis/shobu")
    page.locator("#setup summary").click()
    page.locator("#position-text").fill("not a position")
    page.locator("#apply-position").click()
    expect(page.locator("#message")).to_contain_text("position refused: a Shobu position has 5 fields")
    page.locator("#position-text").fill(position)
    page.locator("#apply-position").click()
    expect(page.locator("#status")).to_have_text("White to move.")
    lines, value = engine_shows(page, position)
    assert value < -0.99 and "and the game is over" in lines
    page.locator("#engine-toggle").click()
    expect(page.locator("#engine-status")).to_have_text("Stopped.")
    page.locator("#engine-lines button.line-move").first.click()  # the winning line's move, played
    expect(page.locator("#status")).to_contain_text("Game over: White wins")
    expect(page.locator("#engine-status")).to_have_text("Stopped.")
    # A lesson links its position here.
    page.goto(f"{server}/learn/shobu")
    link = page.locator("#analysis-board-link")
    expect(link).to_have_attribute("href", re.compile(r"^/analysis/shobu\?settings=&position="))
    assert errors == []
    page.close()


def test_a_game_and_its_record_link_the_position_shown_to_the_board(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "shobu", "mode": "hotseat", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    token = created["seats"][0]["link"].split("#token=")[1]
    answer = httpx.post(
        f"{server}/api/games/{created['id']}/moves", json={"move": "BDa1-a3 WLb1-b3", "token": token}
    )
    assert answer.status_code == 200, answer.text
    after = answer.json()["position_text"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + created["seats"][0]["link"])
    link = page.locator("#analysis-board-link")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", re.compile(re.escape(urlencode({"position": after}))))
    page.locator("#first").click()  # the position shown: the start
    start = shogames.make("shobu").new_initial_state().to_text()
    expect(link).to_have_attribute("href", re.compile(re.escape(urlencode({"position": start}))))
    page.locator("#latest").click()
    link.click()
    expect(page.locator("#position-text")).to_have_value(after)
    expect(page.locator("#status")).to_have_text("White to move.")
    page.goto(f"{server}/viewer?game={created['id']}")
    expect(page.locator("#analysis-board-link")).to_have_attribute(
        "href", re.compile(re.escape(urlencode({"position": after})))
    )
    online = httpx.post(
        f"{server}/api/games",
        json={"game": "shobu", "mode": "online", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    page.goto(server + online["seats"][0]["link"])
    expect(page.locator("#status")).to_have_text("Your move.")
    expect(page.locator("#analysis-board-link")).to_be_hidden()  # no help for one side of an online game
    assert errors == []
    page.close()
