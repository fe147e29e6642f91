"""Take the screenshots of learning and of the phone layout in docs/web.md.

Starts ``shogames serve`` on a fresh SQLite file and photographs, in Chromium: a rules page
(``rules-<game>.png``), a lesson after a wrong try (``lesson-<game>.png``), a game on a phone
(390×844) after a few moves (``phone-<game>.png``), the review of a Shobu game between the computer's
easy and hard levels in the record viewer (``analysis.png``), Shogammon's analysis board
(``analysis-board.png``), a Shobu puzzle (``puzzle.png``), and a draw offer as the other player sees it
(``draw-offer.png``).

Usage: python docs/screenshots/take_learn_screenshots.py [game ...]   (needs Chromium: /usr/bin/chromium)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import Page, sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))
from server_process import free_port, start_server  # noqa: E402
from shogames.server.learn import lessons_of  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SETTINGS = {"sho": "players=2"}
RULES_SHOWN = ("shobu",)
"""The games whose rules page docs/web.md shows."""
LESSON_SHOWN = ("shoo",)
"""The games whose first lesson docs/web.md shows."""


def click(page: Page, clicks: list[str]) -> None:
    """Click a move's targets: board targets in the SVG, ``opt:`` choices as buttons."""
    for target in clicks:
        if target.startswith("opt:"):
            page.locator(f'#choices button[data-target="{target}"]').click()
        else:
            page.locator(f'#board [data-target="{target}"]').first.click()


def rules_page(page: Page, base: str, game: str) -> None:
    """The top of the rules page, with its first diagrams."""
    page.set_viewport_size({"width": 1100, "height": 1400})
    page.goto(f"{base}/rules/{game}")
    page.locator("[data-diagram] svg").first.wait_for()
    page.screenshot(path=str(HERE / f"rules-{game}.png"))


def lesson(page: Page, base: str, game: str) -> None:
    """The first lesson after a wrong try: the explanation and the position it led to."""
    first = lessons_of(game)[0]
    state = first.start(game)
    wrong = next(state.move_to_text(move) for move in state.legal_moves() if not first.is_right(state, move))
    data = httpx.get(f"{base}/api/lessons/{game}").json()["lessons"][0]
    clicks = next(move["clicks"] for move in data["legal"] if move["text"] == wrong)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{base}/learn/{game}")
    page.locator("#board svg").wait_for()
    click(page, clicks)
    page.locator("#verdict.wrong").wait_for()
    page.screenshot(path=str(HERE / f"lesson-{game}.png"), full_page=True)


def phone(base: str, browser: object, game: str) -> None:
    """A hot-seat game on a phone after six moves by clicking: the board where the player looks."""
    created = httpx.post(
        f"{base}/api/games",
        json={
            "game": game,
            "settings": SETTINGS.get(game, ""),
            "mode": "hotseat",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
        },
    ).json()
    tokens = ",".join(seat["link"].split("#token=")[1] for seat in created["seats"])
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(f"{base}/game/{created['id']}#token={tokens}")
    page.locator("#board svg").wait_for()
    for _ in range(6):
        snap = httpx.get(f"{base}/api/games/{created['id']}").json()
        if snap["status"] != "active" or not snap["legal"]:
            break
        click(page, snap["legal"][len(snap["legal"]) // 2]["clicks"])
        page.wait_for_function(
            "ply => Number(document.querySelector('#moves li:last-child button')?.dataset.ply ?? 0) > ply",
            arg=snap["ply"],
        )
    page.screenshot(path=str(HERE / f"phone-{game}.png"))
    context.close()


def analysis(page: Page, base: str) -> None:
    """A Shobu game between two computer levels, reviewed in the record viewer, with a better move shown.

    The graph and the flags, and the position before the first flagged move with its better move marked.
    """
    created = httpx.post(
        f"{base}/api/games",
        json={"game": "shobu", "seats": [{"kind": "ai", "agent": "easy"}, {"kind": "ai", "agent": "hard"}]},
    ).json()
    for _ in range(600):
        snap = httpx.get(f"{base}/api/games/{created['id']}").json()
        if snap["status"] != "active":
            break
        time.sleep(0.5)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{base}/viewer?game={created['id']}")
    page.locator("#analysis-status").filter(has_text="moves analysed").wait_for(timeout=120_000)
    page.locator("#mistakes button").first.click()  # the position before it, its better move marked
    page.screenshot(path=str(HERE / "analysis.png"), full_page=True)


def analysis_board(page: Page, base: str) -> None:
    """Shogammon's analysis board at the start, the engine panel showing each roll's best play."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{base}/analysis/shogammon")
    page.locator("#engine-rolls-body tr").first.wait_for(timeout=60_000)  # the dice are to be thrown
    time.sleep(3)  # a few deepening rounds
    page.screenshot(path=str(HERE / "analysis-board.png"), full_page=True)


def puzzle(page: Page, base: str) -> None:
    """The first Shobu puzzle, as a newcomer meets it."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base}/puzzles/shobu")
    page.locator("#puzzle-task").filter(has_text=" ").wait_for(timeout=30_000)
    page.screenshot(path=str(HERE / "puzzle.png"), full_page=True)


def draw_offer(base: str, browser: object) -> None:
    """An online Shobu game after one turn each, as White sees Black's draw offer."""
    created = httpx.post(
        f"{base}/api/games",
        json={
            "game": "shobu",
            "mode": "online",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
        },
    ).json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    for text, token in (("BDa1-a3 WLb1-b3", tokens[0]), ("WLa4-a3 WDc4-c3", tokens[1])):
        httpx.post(f"{base}/api/games/{created['id']}/moves", json={"move": text, "token": token})
    httpx.post(f"{base}/api/games/{created['id']}/draw", json={"token": tokens[0]})
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(base + created["seats"][1]["link"])
    page.locator("#draw-accept").wait_for()
    page.screenshot(path=str(HERE / "draw-offer.png"))
    context.close()


def main(games: list[str]) -> None:
    """Take every screenshot of the games named (all four by default)."""
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        port = free_port()
        server = start_server(f"sqlite+aiosqlite:///{folder}/shots.db", port, Path(folder))
        base = f"http://127.0.0.1:{port}"
        arguments = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=arguments)
        try:
            page = browser.new_page()
            for game in games:
                if game in RULES_SHOWN:
                    rules_page(page, base, game)
                if game in LESSON_SHOWN:
                    lesson(page, base, game)
                phone(base, browser, game)
            analysis(page, base)
            analysis_board(page, base)
            puzzle(page, base)
            draw_offer(base, browser)
        finally:
            browser.close()
            server.terminate()
            server.wait(timeout=20)


if __name__ == "__main__":
    main(sys.argv[1:] or ["shobu", "shoo", "sho", "shogammon"])
