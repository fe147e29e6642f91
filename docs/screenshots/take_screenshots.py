"""Take the screenshots in docs/web.md: each game's page in mid-game, a piece selected, and the home page.

Starts ``shogames serve`` on a fresh SQLite file, plays seeded random moves through the API to reach a
middle game (dice thrown by the server), opens the page as the player to move, clicks the first target
of a legal move so that its destinations light up, and saves the page to ``docs/screenshots/<game>.png``.

Usage: python docs/screenshots/take_screenshots.py   (needs Chromium: /usr/bin/chromium or $CHROMIUM)
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))
from server_process import free_port, start_server  # noqa: E402
from shogames.games import BUILTIN_GAMES  # noqa: E402

GAMES = {game_id: ("", 40) for game_id in BUILTIN_GAMES} | {
    "shoo": ("", 70),
    "shobu": ("", 12),
    "sho": ("players=3", 60),
}
"""Each shipped game's settings and the plies of random play before the screenshot."""
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def middle_game(base: str, game: str, settings: str, plies: int, seed: int) -> tuple[str, list[str]]:
    """Create a hot-seat game and play seeded random moves to ``plies``; its id and the seats' tokens."""
    names = ["Ann", "Bo", "Cy", "Di"]
    seats = httpx.get(f"{base}/api/seats", params={"game": game, "settings": settings}).json()["seats"]
    created = httpx.post(
        f"{base}/api/games",
        json={
            "game": game,
            "settings": settings,
            "mode": "hotseat",
            "seats": [{"kind": "person", "name": names[i]} for i in range(len(seats))],
        },
    ).json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    rng = random.Random(seed)
    snap = httpx.get(f"{base}/api/games/{created['id']}").json()
    while snap["ply"] < plies and snap["status"] == "active":
        move = rng.choice(snap["legal"])["text"]
        answer = httpx.post(
            f"{base}/api/games/{created['id']}/moves", json={"move": move, "token": tokens[snap["to_move"]]}
        )
        answer.raise_for_status()
        snap = answer.json()
    return created["id"], tokens


def main() -> None:
    """Take every screenshot."""
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        port = free_port()
        server = start_server(f"sqlite+aiosqlite:///{folder}/shots.db", port, Path(folder))
        base = f"http://127.0.0.1:{port}"
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            for game, (settings, plies) in GAMES.items():
                game_id, tokens = middle_game(base, game, settings, plies, seed=3)
                snap = httpx.get(f"{base}/api/games/{game_id}").json()
                token = tokens[snap["to_move"]]
                page = browser.new_page(viewport={"width": 1360, "height": 940}, device_scale_factor=1)
                page.goto(f"{base}/game/{game_id}#token={token}")
                page.locator("#board svg").wait_for()
                first = next(
                    move["clicks"][0] for move in snap["legal"] if not move["clicks"][0].startswith("opt:")
                )
                page.locator(f'#board [data-target="{first}"]').first.click()
                page.wait_for_timeout(300)
                page.screenshot(path=str(HERE / f"{game}.png"))
                page.close()
            page = browser.new_page(viewport={"width": 1360, "height": 940})
            page.goto(base + "/")
            page.screenshot(path=str(HERE / "home.png"))
        finally:
            browser.close()
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
