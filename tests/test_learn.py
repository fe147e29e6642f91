"""The rules pages and lessons (issue 17): every guide's diagrams and lessons checked against the engine,
the pages served, a lesson's verdicts, hints; and in Chromium one lesson of each game completed by clicking
after a wrong try that gets an explanation.

The games are the registered games that have a rules page (a ``rules.md`` beside their rules module):
every shipped game must (``test_every_shipped_game_has_a_rules_page_and_lessons``); a game without one is
offered no rules page or lessons (``test_a_game_without_a_guide_has_no_pages``).
"""

# ruff: noqa: F811 (the fixtures server and browser come from test_browser)
from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

import shogames
from shogames.games import BUILTIN_GAMES
from shogames.records import start_position_text, start_record, write_record
from shogames.server.app import create_app
from shogames.server.guides import Diagram, guide_folder, has_rules, render_guide
from shogames.server.lessons import lessons_of, rule_topics, try_move
from test_browser import browser, click_move, server  # noqa: F401 (fixtures)

GAMES = [cls.id for cls in shogames.available_games() if has_rules(cls.id)]
"""Every registered game with a rules page."""
WITHOUT_GUIDE = [cls.id for cls in shogames.available_games() if not has_rules(cls.id)]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as test_client:
        yield test_client


@pytest.mark.parametrize("game", GAMES)
def test_every_rules_diagram_is_a_real_position(game: str) -> None:
    folder = guide_folder(game)
    assert folder is not None
    blocks = render_guide(game, (folder / "rules.md").read_text(encoding="utf-8"))
    diagrams = [block for block in blocks if isinstance(block, Diagram)]
    assert len(diagrams) >= 2, "a rules page shows the game on boards"
    for diagram in diagrams:
        view = diagram.view()  # raises on a bad position or setting
        assert view["view"]


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_is_a_real_position_with_a_right_and_a_wrong_move(game: str) -> None:
    lessons = lessons_of(game)
    assert len(lessons) >= 6
    assert len({lesson.id for lesson in lessons}) == len(lessons)
    for lesson in lessons:
        state = lesson.start(game)
        assert not state.is_terminal() and state.to_move is not None and state.to_move >= 0, lesson.id
        moves = state.legal_moves()
        right = [move for move in moves if lesson.is_right(state, move)]
        wrong = [move for move in moves if not lesson.is_right(state, move)]
        assert right, f"{game} lesson {lesson.id}: no legal move does what it asks"
        assert wrong, f"{game} lesson {lesson.id}: every move is right, so nothing is learnt"
        if lesson.goal == "moves":
            legal = {state.move_to_text(move) for move in moves}
            assert set(lesson.moves) <= legal, f"{lesson.id}: {set(lesson.moves) - legal} are not legal"
        for text in lesson.tries:
            state.parse_move(text)  # an explained try is a legal move


@pytest.mark.parametrize("game", GAMES)
def test_the_lessons_together_cover_every_rule_of_the_default_ruleset(game: str) -> None:
    """Each game lists its rules as topics (``[topics]`` in its lessons.toml); each lesson names the ones
    it teaches; every topic is taught somewhere, and no lesson names a topic that is not listed."""
    topics = rule_topics(game)
    assert len(topics) >= 6, f"{game} lists too few rules: {sorted(topics)}"
    taught: set[str] = set()
    for lesson in lessons_of(game):
        assert lesson.topics, f"{game} lesson {lesson.id} names no rule it teaches"
        unknown = set(lesson.topics) - set(topics)
        assert not unknown, f"{game} lesson {lesson.id} names topics not in the game's list: {unknown}"
        taught.update(lesson.topics)
    assert set(topics) - taught == set(), f"{game}: no lesson teaches {sorted(set(topics) - taught)}"


def test_every_shipped_game_has_a_rules_page_and_lessons() -> None:
    assert set(BUILTIN_GAMES) <= set(GAMES)
    for game in BUILTIN_GAMES:
        assert lessons_of(game) and rule_topics(game), f"{game} has no lessons.toml"


@pytest.mark.parametrize("game", WITHOUT_GUIDE)
def test_a_game_without_a_guide_has_no_pages(client: TestClient, game: str) -> None:
    assert lessons_of(game) == () and rule_topics(game) == {}
    assert client.get(f"/rules/{game}").status_code == 404
    assert client.get(f"/api/lessons/{game}").status_code == 404
    assert game not in {entry["id"] for entry in client.get("/api/guides").json()["games"]}


# The rules issue 17 found untaught, each with the lesson that teaches it and a try the engine refuses.
UNTAUGHT_BEFORE = [
    ("shoo", "answer", "a9-b8", "must answer the shoo"),
    ("shoo", "hold", None, None),
    ("sho", "blocked", "4:6", "bigger stack"),
    ("shogammon", "drop-rules", "1:P*7d", "never a second own unpromoted pawn on a file"),
    ("shogammon", "drop-rules", "1:P*5a", "never where the piece could not move"),
    ("shogammon", "drop-rules", "1:P*6f", "drops go onto empty squares"),
]


@pytest.mark.parametrize(("game", "lesson_id", "refused", "reason"), UNTAUGHT_BEFORE)
def test_the_rules_once_untaught_have_lessons(
    game: str, lesson_id: str, refused: str | None, reason: str | None
) -> None:
    lesson = next(lesson for lesson in lessons_of(game) if lesson.id == lesson_id)
    state = lesson.start(game)
    right = [state.move_to_text(move) for move in state.legal_moves() if lesson.is_right(state, move)]
    assert right
    assert try_move(game, lesson, right[0])["right"]
    if refused is not None and reason is not None:
        answer = try_move(game, lesson, refused)
        assert not answer["legal"] and reason in answer["message"], answer


def test_a_lessons_verdicts_come_from_the_engine() -> None:
    lesson = next(lesson for lesson in lessons_of("shobu") if lesson.id == "homeboards")
    illegal = try_move("shobu", lesson, "WDd4-d3 BLd4-d3")
    assert not illegal["legal"] and "passive move must be on one of Black's homeboards" in illegal["message"]
    wrong = try_move("shobu", lesson, "BDa1-a3 WLb1-b3")
    assert wrong["legal"] and not wrong["right"] and wrong["message"] == lesson.wrong
    right = try_move("shobu", lesson, "BLa1-a3 WDb1-b3")
    assert right["right"] and right["message"] == lesson.success and right["view"]


def test_rules_and_lesson_pages_are_served_and_linked(client: TestClient) -> None:
    guides = client.get("/api/guides").json()["games"]
    assert {game["id"] for game in guides} >= set(GAMES)
    for game in GAMES:
        page = client.get(f"/rules/{game}")
        assert page.status_code == 200 and "data-diagram" in page.text
        assert "<h2>What you need to win</h2>" in page.text and "<strong>" in page.text, "HTML, not escaped"
        assert "<script>" not in page.text and " style=" not in page.text  # the Content-Security-Policy
        assert client.get(f"/learn/{game}").status_code == 200
        assert len(client.get(f"/api/lessons/{game}").json()["lessons"]) >= 6
    assert client.get("/rules/nosuchgame").status_code == 404
    assert client.post("/api/lessons/shobu/nosuchlesson/try", json={"move": "x"}).status_code == 404
    assert 'href="/rules"' in client.get("/").text


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_pages_settings_table_shows_each_settings_values(client: TestClient, game: str) -> None:
    """Study finding: every rules page printed `(<built-in method values of dict object at 0x…>)` in its
    settings table (the template's `s.values` read the dict's method, not the row's values)."""
    page = client.get(f"/rules/{game}").text
    assert "built-in method" not in page
    for spec in shogames.game_class(game).setting_specs:
        assert html.escape(f"({spec.describe_values()})", quote=False) in page, spec.name


def test_a_hint_is_a_legal_move_of_the_strongest_level(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        json={"game": "shobu", "seats": [{"kind": "person"}, {"kind": "ai", "agent": "random"}]},
    ).json()
    token = created["seats"][0]["link"].split("#token=")[1]
    hint = client.post(f"/api/games/{created['id']}/hint", json={"token": token})
    assert hint.status_code == 200, hint.json()
    snap = client.get(f"/api/games/{created['id']}").json()
    assert hint.json()["move"] in {move["text"] for move in snap["legal"]}
    assert client.post(f"/api/games/{created['id']}/hint", json={"token": "nope"}).status_code == 403
    online = client.post(
        "/api/games", json={"game": "shobu", "mode": "online", "seats": [{"kind": "person"}] * 2}
    ).json()
    other = online["seats"][0]["link"].split("#token=")[1]
    assert client.post(f"/api/games/{online['id']}/hint", json={"token": other}).status_code == 409


def _lesson_moves(server: str, game: str, lesson_id: str) -> dict[str, Any]:
    lessons = httpx.get(f"{server}/api/lessons/{game}").json()["lessons"]
    lesson: dict[str, Any] = next(entry for entry in lessons if entry["id"] == lesson_id)
    return lesson


@pytest.mark.parametrize("game", GAMES)
def test_a_lesson_of_each_game_completed_by_clicking(server: str, browser: Browser, game: str) -> None:
    """The first lesson: a wrong try (explained), then the right move; progress is kept."""
    first = lessons_of(game)[0]
    state = first.start(game)
    moves = state.legal_moves()
    wrong = next(state.move_to_text(move) for move in moves if not first.is_right(state, move))
    right = next(state.move_to_text(move) for move in moves if first.is_right(state, move))
    lesson = _lesson_moves(server, game, first.id)
    clicks = {move["text"]: move["clicks"] for move in lesson["legal"]}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/learn/{game}")
    expect(page.locator("#lesson-title")).to_have_text(first.title)
    click_move(page, clicks[wrong])
    expect(page.locator("#verdict")).to_have_class(re.compile("wrong"))
    expect(page.locator("#verdict")).to_contain_text(first.tries.get(wrong, first.wrong)[:40])
    page.locator("#again").click()
    click_move(page, clicks[right])
    expect(page.locator("#verdict")).to_have_class(re.compile("right"))
    expect(page.locator("#verdict")).to_contain_text(first.success[:40])
    expect(page.locator(f'#lesson-list a[data-lesson="{first.id}"]')).to_have_class(re.compile("done"))
    page.reload()
    expect(page.locator(f'#lesson-list a[data-lesson="{first.id}"]')).to_have_class(re.compile("done"))
    assert errors == []
    context.close()


def test_the_hints_text_is_in_view_beside_its_button(server: str, browser: Browser) -> None:
    """The findings: the hint's text appeared below the fold (y 828-847 in an 800 px window)."""
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "shobu", "seats": [{"kind": "person"}, {"kind": "ai", "agent": "random"}]},
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server + created["seats"][0]["link"])
    expect(page.locator("#status")).to_have_text("Your move.")
    page.locator("#hint").click()
    hint = page.get_by_text(re.compile(r"Hint \(\w+\): B[DL]"))
    expect(hint).to_be_visible()
    box = hint.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, box
    page.close()


def test_a_lessons_verdict_stays_in_view_when_the_move_is_made_below_the_fold(
    server: str, browser: Browser
) -> None:
    """The findings: at 1280x800 the verdict scrolled out of view (1% of it on screen in Shobu's lesson)."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/learn/shobu")
    expect(page.locator("#lesson-title")).not_to_be_empty()
    page.locator("#try-typed").scroll_into_view_if_needed()
    page.locator("#typed").fill("not a move")
    page.locator("#try-typed").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_have_class(re.compile("wrong"))
    box = verdict.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, box
    page.close()


def test_hint_and_legal_moves_on_the_game_page(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "shobu", "seats": [{"kind": "person"}, {"kind": "ai", "agent": "random"}]},
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server + created["seats"][0]["link"])
    expect(page.locator("#status")).to_have_text("Your move.")
    page.locator("#hint").click()
    expect(page.locator("#hint-text")).to_contain_text(re.compile(r"Hint \(\w+\): B[DL]"))
    assert page.locator("#board [data-target].selected").count() == 1, "the hint's piece is selected"
    page.locator("#show-legal").check()
    expect(page.locator("#legal-list button")).to_have_count(232)
    page.locator("#legal-list button", has_text="BDa1-a3 WLb1-b3").click()
    expect(page.locator("#moves")).to_contain_text("BDa1-a3 WLb1-b3")
    expect(page.locator("a.rules-link")).to_have_attribute("href", "/rules/shobu")
    page.close()


def test_a_finished_game_is_analysed_in_the_browser(server: str, browser: Browser) -> None:
    """The game page links a finished game to the viewer, which draws each move's value and flags mistakes."""
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "shobu", "mode": "hotseat", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    for move, seat in (("BDa1-a3 WLb1-b3", 0), ("WLa4-a3 WDc4-c3", 1), ("BDb1-b2 BLb1-b2", 0)):
        answer = httpx.post(
            f"{server}/api/games/{created['id']}/moves", json={"move": move, "token": tokens[seat]}
        )
        assert answer.status_code == 200, answer.json()
    httpx.post(f"{server}/api/games/{created['id']}/resign", json={"token": tokens[1]})
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/game/{created['id']}")
    page.locator("#analyse-link").click()
    expect(page.locator("#status")).to_contain_text("After the last move (3)")
    page.locator("#analyse").click()
    expect(page.locator("#analysis-status")).to_contain_text("3 moves analysed", timeout=60_000)
    expect(page.locator("#graph circle.point")).to_have_count(3)
    page.locator('#graph circle[data-ply="1"]').click()
    expect(page.locator("#status")).to_contain_text("After move 1 of 3")
    assert errors == []
    page.close()


def test_the_analysis_flags_a_blunder(client: TestClient) -> None:
    """Black can win at once on move 1 of this position, and does not: a blunder, as shogames analyse says."""
    game = shogames.make("shobu")
    start = game.state_from_text("wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb 1w2/1b2/4/b1bb b")
    made = start_record(game, ["a", "b"], position=start_position_text(start))
    made.add_move("BDa1-a2 WLa1-a2")
    record = write_record(made)
    answer = client.post("/api/analysis", json={"record": record})
    assert answer.status_code == 200, answer.json()
    (move,) = answer.json()["moves"]
    assert move["verdict"] == "blunder" and move["best_value"] > 0.99 and move["best"].endswith("BLb3-b4")
    assert client.post("/api/analysis", json={"record": "nonsense"}).status_code == 400


def test_the_analysis_searches_with_the_kernel_where_there_is_one(client: TestClient) -> None:
    """Issue 14: the browser's analysis uses a game's kernel, deeper in the same time; else the reference.

    Since the game review (issue "Study in the browser", item 2) it is the review's searcher: the strongest
    level's alpha-beta where it plays by alpha-beta, else the default master's (``analysis_spec``: Sho's
    master plays by rollouts), with the review's time a position, not a depth of its own.
    """
    from shogames.agents.levels import STRONGEST, analysis_spec, level_spec
    from shogames.analysis import kernel_analyser

    for game_id in ("shobu", "sho"):
        game = shogames.make(game_id)
        made = start_record(game, ["a", "b", "c"][: len(game.player_names)])
        state = game.new_initial_state()
        for _ in range(12):
            if state.is_terminal():
                break
            move = state.legal_moves()[0]
            made.add_move(state.move_to_text(move))
            state = state.play(move)
        answer = client.post("/api/analysis", json={"record": write_record(made)})
        assert answer.status_code == 200, answer.json()
        budget = answer.json()["budget"]
        assert budget["kernel"] == (kernel_analyser(game, 1) is not None)
        assert budget["searcher"] == analysis_spec(game_id, kernel=budget["kernel"])
        strongest = level_spec(STRONGEST, game_id, kernel=budget["kernel"])
        assert budget["level"] == (STRONGEST if budget["searcher"] == strongest else None)
        assert all(move["kernel"] == budget["kernel"] for move in answer.json()["moves"])


def test_the_analysis_of_a_game_too_long_for_the_kernel(client: TestClient) -> None:
    """The server fuzz test's case: a record whose max_turns has 121 digits was a 500 (kernel overflow)."""
    game = shogames.make("shobu", max_turns=31 * 10**119)
    made = start_record(game, ["a", "b"])
    made.add_move(game.new_initial_state().move_to_text(game.new_initial_state().legal_moves()[0]))
    answer = client.post("/api/analysis", json={"record": write_record(made)})
    assert answer.status_code == 200, answer.json()
    assert answer.json()["budget"]["kernel"] is False and len(answer.json()["moves"]) == 1


def test_the_shoo_lesson_says_what_to_click_and_its_clicks_shoo(server: str, browser: Browser) -> None:
    """The findings (issue "Study in the browser", 4): the shoo lesson's only candidates were riders, so a
    click first asked "ride or dismount", then lit a square beside a "no shoo" button, and nothing said that
    clicking the enemy traveller declares the shoo. Its text must say what to click, and those clicks shoo."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/learn/shoo#shoo")
    expect(page.locator("#lesson-title")).to_have_text("Declaring a shoo")
    said = " ".join(page.locator("#lesson-text, #lesson-task").all_inner_texts())
    said = re.sub(r"\s+", " ", said)
    # The lesson's instructions, in its words: the traveller, the square it steps to, then the enemy.
    steps = re.search(r"click your traveller on (\w\d), then (\w\d)\b", said, re.IGNORECASE)
    shoo = re.search(r"click North's traveller on (\w\d) to declare the shoo", said, re.IGNORECASE)
    assert steps and shoo, f"the lesson does not say what to click: {said!r}"
    assert "no shoo" in said, "the lesson names the button the page shows beside the traveller to shoo"
    mover, square, enemy = steps[1], steps[2], shoo[1]
    page.locator(f'#board [data-target="sq:{mover}"]').click()
    page.locator(f'#board [data-target="sq:{square}"]').click()
    # No other question comes first (ride or dismount): the traveller to shoo is lit, beside "no shoo".
    expect(page.locator(f'#board [data-target="sq:{enemy}"].selectable')).to_have_count(1)
    expect(page.locator("#choices button.choice")).to_have_text(["no shoo"])
    page.locator(f'#board [data-target="sq:{enemy}"]').click()
    expect(page.locator("#verdict")).to_have_class(re.compile("right"))
    expect(page.locator("#verdict")).to_contain_text(f"shoo {enemy}")
    page.close()
