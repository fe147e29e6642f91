"""End-to-end in Chromium: what a new user found wrong in play (issue 17, section 4), each fixed.

Same server and browser as ``test_browser.py`` (Debian's Chromium, driven by Playwright); the fixes that
need no browser are in ``test_play_fixes.py`` and ``test_clocks.py``.
"""

# ruff: noqa: F811 (the fixtures server and browser come from test_browser)
from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

import shogames
from shogames.core.settings import parse_settings_text
from shogammon_positions import die_lost_position
from test_browser import NEAR_THE_END, browser, click_move, server, snapshot  # noqa: F401 (fixtures)

PHONE: ViewportSize = {"width": 390, "height": 844}
GAMES = [cls.id for cls in shogames.available_games()]
"""Every registered game (the toy games too: the browser's server has them installed)."""
PHONE_SETTINGS = {"sho": "players=2"}
"""Settings of the phone test where a game's defaults are not the ones to try (a game not named: none)."""


def hotseat(server: str, game: str, settings: str = "", position: str | None = None) -> dict[str, Any]:
    """A game on one screen with a person in every seat."""
    cls = shogames.game_class(game)
    seats = cls(None, **parse_settings_text(cls.setting_specs, settings)).num_players
    body: dict[str, Any] = {
        "game": game,
        "settings": settings,
        "mode": "hotseat",
        "seats": [
            {"kind": "person", "name": name} for name in ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:seats]
        ],
    }
    if position is not None:
        body["position"] = position
    created: dict[str, Any] = httpx.post(f"{server}/api/games", json=body).json()
    return created


def all_tokens(created: dict[str, Any]) -> str:
    return ",".join(seat["link"].split("#token=")[1] for seat in created["seats"])


def wait_for_ply(page: Page, ply: int) -> None:
    page.wait_for_function(
        "ply => Number(document.querySelector('#moves li:last-child button')?.dataset.ply ?? 0) >= ply",
        arg=ply,
    )


def board_box(page: Page) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        """() => {
          const r = document.querySelector('#board svg').getBoundingClientRect();
          return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                  width: document.documentElement.scrollWidth};
        }"""
    )
    return box


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_board_stays_in_view_after_each_of_ten_moves(
    server: str, browser: Browser, game: str
) -> None:
    created = hotseat(server, game, PHONE_SETTINGS.get(game, ""))
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    expect(page.locator("#status")).to_contain_text("to move")
    for _ in range(10):
        snap = snapshot(server, created["id"])
        if snap["status"] != "active":
            break
        click_move(page, snap["legal"][0]["clicks"])
        wait_for_ply(page, snap["ply"] + 1)
        expect(page.locator("#status")).not_to_contain_text("Throwing")
        box = board_box(page)
        assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], f"board out of view: {box}"
        assert box["width"] <= PHONE["width"], f"the page scrolls sideways: {box}"
    context.close()


def test_on_a_phone_the_home_page_fits_for_every_game(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server + "/")
    for name in GAMES:
        page.locator(f'.game-card:has(input[value="{name}"])').click()
        expect(page.locator(".seat-row").first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (
            f"{name}: the home page is {width} px wide on a {PHONE['width']} px phone"
        )
        panel = page.locator("section.new-game").bounding_box()
        assert panel is not None
        for control in ("#new-game .seat-row input >> nth=0", "#clock-kind", "#preset"):
            box = page.locator(control).bounding_box()
            assert box is not None, control
            assert box["x"] + box["width"] <= panel["x"] + panel["width"], f"{name}: {control} overflows"
    context.close()


@pytest.mark.parametrize("game", ["shoo", "sho"])
def test_movable_pieces_are_not_washed_out(server: str, browser: Browser, game: str) -> None:
    """The click targets lie over the pieces: a selectable one must not lay a translucent fill over them."""
    settings, position = NEAR_THE_END[game]
    created = hotseat(server, game, settings, position)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    expect(page.locator("#board [data-target].selectable").first).to_be_attached()
    fills = page.evaluate(
        """() => [...document.querySelectorAll('#board [data-target].selectable, #board [data-target].last')]
              .map(e => getComputedStyle(e).fill)"""
    )
    assert fills
    washed = [fill for fill in fills if fill not in ("none", "transparent", "rgba(0, 0, 0, 0)")]
    assert not washed, f"translucent layers over movable pieces: {sorted(set(washed))}"
    page.close()


def test_sho_for_three_says_who_moved_and_teams_colours_match_the_coins(
    server: str, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "sho", "settings": "players=3", "seats": [{"kind": "ai", "agent": "easy"}] * 3},
    ).json()
    page.goto(f"{server}/game/{created['id']}")
    page.wait_for_function(
        "() => document.querySelectorAll('#moves button:not(.chance)').length >= 4", timeout=30_000
    )
    labels = page.locator("#moves button:not(.chance) .who").all_text_contents()
    assert {"Player 1", "Player 2", "Player 3"} <= {label.split(" (")[0] for label in labels}, labels
    # Teams of four: each seat bar has its team's coin colour (blue for seats 1 and 3, red for 2 and 4).
    teams = httpx.post(
        f"{server}/api/games",
        json={"game": "sho", "settings": "players=4", "seats": [{"kind": "ai", "agent": "random"}] * 4},
    ).json()
    page.goto(f"{server}/game/{teams['id']}")
    expect(page.locator("#seats li")).to_have_count(4)
    bars = page.evaluate(
        "[...document.querySelectorAll('#seats li')].map(e => getComputedStyle(e).borderLeftColor)"
    )
    blue, red = "rgb(42, 98, 176)", "rgb(192, 57, 43)"
    assert bars == [blue, red, blue, red], bars
    page.close()


def test_against_the_computer_shoo_has_no_clock_by_default(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server + "/")
    page.locator(".game-card", has_text="Shoo").click()
    expect(page.locator(".seat-row")).to_have_count(2)
    expect(page.locator("#clock-kind")).to_have_value("none")
    page.locator(".seat-row").nth(1).locator("select").select_option("invite")
    expect(page.locator("#clock-kind")).to_have_value("per_move")  # the designers' minute, between people
    page.close()


def test_after_a_loss_on_time_the_clocks_show_the_time_left(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "shobu",
            "mode": "hotseat",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
            "clock": {"kind": "per_move", "seconds": 2},
        },
    ).json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    for move, token in (("BDa1-a3 WLb1-b3", tokens[0]), ("WLa4-a3 WDc4-c3", tokens[1])):
        httpx.post(f"{server}/api/games/{created['id']}/moves", json={"move": move, "token": token})
    time.sleep(2.6)  # Black's clock ran out
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/game/{created['id']}")
    expect(page.locator("#status")).to_contain_text("time forfeit")
    expect(page.locator("#seats .clock")).to_have_text(["0:00", "0:02"])
    page.close()


def test_a_lost_die_is_said_on_the_page(server: str, browser: Browser) -> None:
    position, move = die_lost_position()
    created = hotseat(server, "shogammon", "", position)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    snap = snapshot(server, created["id"])
    (legal,) = [entry for entry in snap["legal"] if entry["text"] == move]
    click_move(page, legal["clicks"])
    expect(page.locator("#notice")).to_contain_text("has no play")
    expect(page.locator("#moves .note").first).to_contain_text("has no play")
    page.close()


def test_my_games_keeps_each_seats_link(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server + "/")
    page.locator(".game-card", has_text="Shobu").click()
    page.locator(".seat-row").nth(1).locator("select").select_option("ai:beginner")
    page.locator("#create").click()
    page.wait_for_url(re.compile(r"/game/\w+#token="))
    game_id = page.url.split("/game/")[1].split("#")[0]
    expect(page.locator("#status")).to_have_text("Your move.")
    page.close()  # the tab is closed: its sessionStorage is gone
    again = context.new_page()
    again.goto(server + "/")
    entry = again.locator(f'#my-games-list li[data-game="{game_id}"]')
    expect(entry).to_contain_text("Shobu")
    entry.locator("a.seat-link").first.click()
    expect(again.locator("#status")).to_have_text("Your move.")  # back in the seat, not a spectator
    context.close()


def test_takeback_in_a_hot_seat_game(server: str, browser: Browser) -> None:
    created = hotseat(server, "shobu")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    snap = snapshot(server, created["id"])
    click_move(page, next(m for m in snap["legal"] if m["text"] == "BDa1-a3 WLb1-b3")["clicks"])
    wait_for_ply(page, 1)
    page.locator("#takeback").click()
    expect(page.locator("#moves li")).to_have_count(0)
    assert snapshot(server, created["id"])["ply"] == 0
    page.close()


def test_shobus_rules_are_listed_once(server: str, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    page.locator(".game-card", has_text="Shobu").click()
    options = page.locator("#preset option").all_text_contents()
    assert len(options) == len(set(options)), options
    page.close()


def test_a_bad_game_address_is_a_page(server: str, browser: Browser) -> None:
    page = browser.new_page()
    answer = page.goto(server + "/game/no-such-game")
    assert answer is not None and answer.status == 404
    expect(page.locator("h1")).to_contain_text("There is no game at this address")
    expect(page.locator("main a[href='/']")).to_be_visible()
    page.close()


def test_typing_a_move_your_turn_in_the_title_and_a_low_clock(server: str, browser: Browser) -> None:
    """What players expect (issue 17, section 5): notation typed on the game page, the tab title, low time."""
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "shobu",
            "mode": "hotseat",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
            "clock": {"kind": "per_move", "seconds": 8},
        },
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    expect(page).to_have_title(re.compile("^▶ Your move"))
    page.locator("#typed-move-text").fill("BDa1-a9 WLb1-b9")
    page.locator("#typed-move button").click()
    expect(page.locator("#message")).to_contain_text("refused")
    page.locator("#typed-move-text").fill("BDa1-a3 WLb1-b3")
    page.locator("#typed-move button").click()
    expect(page.locator("#moves")).to_contain_text("BDa1-a3 WLb1-b3")
    page.locator("#typed-move-text").fill("WLa4-a3 WDc4-c3")
    page.locator("#typed-move button").click()
    expect(page.locator("#moves")).to_contain_text("WLa4-a3 WDc4-c3")
    expect(page.locator("#seats .clock.low")).to_have_count(1)  # Black's 8 s are running: under 10 s
    page.close()


def test_a_rematch_against_the_computer_changes_colours(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "shobu",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "ai", "agent": "random"}],
        },
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server + created["seats"][0]["link"])
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click()
    expect(page.locator("#status")).to_contain_text("Game over")
    page.locator("#rematch").click()
    page.wait_for_url(re.compile(r"/game/(?!" + created["id"] + r")\w+#token="))
    expect(page.locator("#seats li").nth(1)).to_contain_text("Ann")  # Ann plays White now
    expect(page.locator("#seats li").nth(1)).to_contain_text("you")
    expect(page.locator("#status")).to_have_text("Your move.")  # the computer, Black, has moved
    page.close()


@pytest.mark.parametrize("game", ["shoo", "sho", "shogammon"])
def test_after_a_loss_on_time_the_board_shows_nobody_to_move(
    server: str, browser: Browser, game: str
) -> None:
    """The findings: after a Shoo time forfeit the board still showed White to move."""
    settings = {"shoo": "first_player=blue", "sho": "players=2"}.get(game, "")
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": game,
            "settings": settings,
            "mode": "hotseat",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
            "clock": {"kind": "per_move", "seconds": 2},
        },
    ).json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    movers: set[int] = set()
    snap = snapshot(server, created["id"])
    while len(movers) < 2 or snap["to_move"] not in movers:  # both seats have moved: the clocks run
        movers.add(snap["to_move"])
        answer = httpx.post(
            f"{server}/api/games/{created['id']}/moves",
            json={"move": snap["legal"][0]["text"], "token": tokens[snap["to_move"]]},
        )
        snap = answer.json()
    time.sleep(2.6)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/game/{created['id']}")
    expect(page.locator("#status")).to_contain_text("time forfeit")
    board = page.locator("#board").inner_text()
    assert not re.search(r"to move|to roll|to play", board), board
    page.close()


def test_the_sound_switch_mutes_and_is_remembered(server: str, browser: Browser) -> None:
    created = hotseat(server, "shobu")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    switch = page.locator("#sound")
    expect(switch).to_be_checked()  # on by default
    snap = snapshot(server, created["id"])
    click_move(page, snap["legal"][0]["clicks"])
    wait_for_ply(page, 1)
    expect(switch).to_have_attribute("data-played", "1")  # a move sound, made by the Web Audio API
    switch.uncheck()
    page.reload()
    expect(page.locator("#status")).to_contain_text("to move")
    expect(page.locator("#sound")).not_to_be_checked()  # remembered (localStorage)
    assert page.evaluate("() => localStorage.getItem('shogames:sound')") == "off"
    snap = snapshot(server, created["id"])
    click_move(page, snap["legal"][0]["clicks"])
    wait_for_ply(page, 2)
    assert page.locator("#sound").get_attribute("data-played") is None, "muted: no sound"
    context.close()


def test_a_move_that_arrives_fades_in_unless_motion_is_reduced(server: str, browser: Browser) -> None:
    for motion, expected in (("no-preference", "arrive"), ("reduce", "none")):
        created = hotseat(server, "shobu")
        context = browser.new_context(reduced_motion=motion)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
        expect(page.locator("#status")).to_contain_text("to move")
        # Every class the board has had, from the changes of its class attribute (old values included).
        page.evaluate(
            """() => {
              window.classes = [];
              new MutationObserver((records) => {
                for (const record of records) {
                  window.classes.push(record.oldValue ?? '', record.target.className);
                }
              }).observe(document.getElementById('board'), {attributes: true, attributeOldValue: true,
                                                            attributeFilter: ['class']});
            }"""
        )
        snap = snapshot(server, created["id"])
        click_move(page, snap["legal"][0]["clicks"])
        wait_for_ply(page, 1)
        classes = page.evaluate("() => window.classes")
        assert any("animate" in value.split() for value in classes), (
            f"the arriving move was not animated: {classes}"
        )
        # How the marks of the last move animate while the board is so marked (read in one go: no redraw).
        names = page.evaluate(
            """() => {
              const board = document.getElementById('board');
              board.classList.add('animate');
              const names = [...board.querySelectorAll('.last')].map(e => getComputedStyle(e).animationName);
              board.classList.remove('animate');
              return names;
            }"""
        )
        assert names and set(names) == {expected}, (motion, names)
        context.close()


@pytest.mark.parametrize("game", ["sho", "shogammon"])
def test_on_a_phone_every_possible_click_is_a_tap_target_of_44_px(
    server: str, browser: Browser, game: str
) -> None:
    """Sho's shells and Shogammon's squares are drawn about 22-26 px wide on a phone: a tap anywhere in the
    44 px square around a possible click's centre (where no other possible click is nearer) picks it."""
    # Sho: stacks on shells to move (the lesson "A bigger stack blocks you"); Shogammon: the opening.
    position = "4a1,10b3,12a3,18b2 5/4 0/0 1 move 6 0 2-4 2 5 entered=ab" if game == "sho" else None
    created = hotseat(server, game, "players=2" if game == "sho" else "", position)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    expect(page.locator("#status")).to_contain_text("to move")
    centres: dict[str, tuple[float, float]] = page.evaluate(
        """() => Object.fromEntries(
             [...document.querySelectorAll('#board [data-target].selectable')].map(e => {
             const r = e.getBoundingClientRect();
             return [e.getAttribute('data-target'), [r.left + r.width / 2, r.top + r.height / 2]];
           }))"""
    )
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('#board [data-target]')]"
        ".map(e => e.getBoundingClientRect().width)"
    )
    assert min(sizes) < 44, "the board draws its targets small here (else this test proves nothing)"
    assert centres, "something to tap"
    tapped = 0
    for target, (x, y) in list(centres.items())[:6]:
        for dx, dy in ((21, 0), (-21, 0), (0, 21), (0, -21), (20, 20), (-20, -20)):
            point = (x + dx, y + dy)
            nearest = min(
                centres,
                key=lambda other: (centres[other][0] - point[0]) ** 2 + (centres[other][1] - point[1]) ** 2,
            )
            if nearest != target or not (0 <= point[0] < PHONE["width"] and 0 <= point[1] < PHONE["height"]):
                continue
            page.touchscreen.tap(*point)
            selected = page.locator(f'#board [data-target="{target}"].selected')
            expect(selected.first).to_be_visible()
            page.keyboard.press("Escape")
            expect(page.locator("#board [data-target].selected")).to_have_count(0)
            tapped += 1
    assert tapped >= 4, f"only {tapped} taps were tried"
    context.close()


@pytest.mark.parametrize("game", ["shoo", "sho", "shogammon"])
def test_the_analysis_page_of_a_resigned_game_shows_nobody_to_move(
    server: str, browser: Browser, game: str
) -> None:
    """The findings: a resigned game's last position still said "Black to play 3 and 5", "Black · to move"."""
    created = hotseat(server, game, {"shoo": "first_player=blue", "sho": "players=2"}.get(game, ""))
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    snap = snapshot(server, created["id"])
    for _ in range(3):
        if snap["to_move"] is None or snap["to_move"] < 0:
            break
        snap = httpx.post(
            f"{server}/api/games/{created['id']}/moves",
            json={"move": snap["legal"][0]["text"], "token": tokens[snap["to_move"]]},
        ).json()
    resigned = httpx.post(f"{server}/api/games/{created['id']}/resign", json={"token": tokens[0]})
    assert resigned.status_code == 200, resigned.text
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/viewer?game={created['id']}")
    expect(page.locator("#status")).to_contain_text("resignation")
    mover = re.compile("to move|to roll|to play|throws the dice|moves another stack")
    board = page.locator("#board").inner_text()
    assert not mover.search(board), board
    page.locator("#prev").click()  # before the end, the mover is shown again
    expect(page.locator("#status")).to_contain_text("After move")
    expect(page.locator("#board")).to_contain_text(mover)
    page.close()


# What a newcomer found in the browser (the issue "Study in the browser", section 4), each fixed.

PHONE_3X: dict[str, Any] = {"viewport": PHONE, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
"""A phone as a newcomer holds it: 390 x 844 CSS px at three device pixels to the CSS pixel, by touch."""
READABLE_PX = 9.5
"""The smallest text, in CSS px, that a board may draw on a phone: about a phone's own small print."""
PA_RA = "18b1,27b1,35a1,45b2,48b1,54b1 0/3 8/0 2 move 2,5 1 1-1 83 193 entered=ab"
"""Sho for two, Player 2 to move after pa ra then 2-3: the values 2 and 5, one or both (as in the rules)."""

# The font size each shown text of the board is drawn at, in CSS px: its computed size times the scale of
# the SVG it is drawn in (HTML text is not scaled). A text not drawn (display: none) has an empty box.
TEXT_SIZES_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.textContent.trim() && e.getBoundingClientRect().width > 0)
  .map((e) => {
    const matrix = e instanceof SVGGraphicsElement ? e.getScreenCTM() : null;
    const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 1;
    return [e.textContent.trim(), parseFloat(getComputedStyle(e).fontSize) * scale];
  })"""


def text_sizes(page: Page, selector: str) -> list[tuple[str, float]]:
    """Each shown text element matching ``selector`` with the size it is drawn at, in CSS px."""
    return [(text, size) for text, size in page.evaluate(TEXT_SIZES_JS, selector)]


def test_sho_says_after_pa_ra_that_the_shell_clicked_picks_the_value(server: str, browser: Browser) -> None:
    """The findings: after pa ra the value moved is chosen only by the shell clicked, and nothing said so."""
    created = hotseat(server, "sho", "players=2", PA_RA)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    status = page.locator("#status")
    expect(status).to_contain_text("Bo (Player 2) to move.")
    expect(status).to_contain_text(re.compile(r"Pa ra: .*click .*shell .*value", re.IGNORECASE))
    expect(status).to_contain_text("2 or 5")
    expect(page.locator("#board .sho-mat-what")).to_have_text("to move: choose a value")
    # What it says is what happens: the stack on 27, then the shell 2, 5 or 7 further on picks the value.
    ply = snapshot(server, created["id"])["ply"]
    page.locator('#board [data-target="shell:27"]').click()
    selectable = page.locator("#board [data-target].selectable")
    expect(selectable).to_have_count(3)
    targets = {selectable.nth(i).get_attribute("data-target") for i in range(3)}
    assert targets == {"shell:29", "shell:32", "shell:34"}, targets
    page.locator('#board [data-target="shell:32"]').click()
    wait_for_ply(page, ply + 1)
    assert snapshot(server, created["id"])["moves"][ply]["text"] == "27:5"
    # The lessons say it too: the first one (the opening) begins after pa ra.
    page.goto(f"{server}/learn/sho#opening")
    expect(page.locator("#board-prompt")).to_contain_text(re.compile(r"Pa ra: .*lit shell of the value"))
    page.close()


def test_on_a_phone_sho_shell_numbers_are_readable(server: str, browser: Browser) -> None:
    """The findings: the shells' numbers were drawn 5.2 px (6.3 px every fifth) on a 390 px wide phone."""
    created = hotseat(server, "sho", "players=2", PA_RA)
    context = browser.new_context(**PHONE_3X)
    page = context.new_page()
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    expect(page.locator("#status")).to_contain_text("to move")
    sizes = text_sizes(page, "#board .sho-num")
    assert len(sizes) == 64, f"every shell is numbered on a phone: {len(sizes)} numbers shown"
    small = sorted({round(size, 1) for _, size in sizes if size < READABLE_PX})
    assert not small, f"shell numbers drawn at {small} px on a phone (at least {READABLE_PX} px wanted)"
    # Bigger, and still one number to a shell: no two numbers overlap.
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#board .sho-num')].map((e) => {
             const r = e.getBoundingClientRect();
             return [e.textContent, r.left, r.top, r.right, r.bottom];
           })"""
    )
    for index, (name, left, top, right, bottom) in enumerate(boxes):
        for other, o_left, o_top, o_right, o_bottom in boxes[index + 1 :]:
            overlap = min(right, o_right) - max(left, o_left), min(bottom, o_bottom) - max(top, o_top)
            assert min(overlap) <= 1, f"the numbers {name} and {other} overlap on a phone"
    context.close()


def test_on_a_phone_shogammons_die_map_is_readable(server: str, browser: Browser) -> None:
    """The findings: the die map's labels were drawn 3.4 to 5.3 px on a phone (a 976-unit drawing at 0.38)."""
    created = hotseat(server, "shogammon")
    context = browser.new_context(**PHONE_3X)
    page = context.new_page()
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    expect(page.locator("#status")).to_contain_text("to move")
    sizes = text_sizes(page, "#board .die-map text, #board .die-map-list *")
    shown = " ".join(text for text, _ in sizes)
    for name in ("pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "king"):
        assert name in shown, f"the die map on a phone does not show the {name}: {shown!r}"
    small = sorted({(text, round(size, 1)) for text, size in sizes if size < READABLE_PX})
    assert not small, f"die map labels drawn under {READABLE_PX} px on a phone: {small}"
    # The faces of the dice rolled are marked in it, as they are on the board.
    box = board_box(page)
    assert box["bottom"] <= PHONE["height"] and box["width"] <= PHONE["width"], box
    context.close()


def _pixel(page: Page, x: float, y: float) -> tuple[int, int, int]:
    """The colour of the page's pixel at (x, y) in CSS px (a page of one device pixel to the CSS pixel)."""
    png = page.screenshot(clip={"x": int(x), "y": int(y), "width": 1, "height": 1})
    return _one_pixel_png(png)


def _one_pixel_png(png: bytes) -> tuple[int, int, int]:
    """The RGB of a 1 x 1 PNG of 8-bit RGB or RGBA (one pixel: every PNG filter leaves it as it is)."""
    import struct
    import zlib

    at, data, colour_type = 8, b"", 2
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            assert (width, height, depth) == (1, 1, 8) and colour_type in (2, 6), body
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    raw = zlib.decompress(data)
    return raw[1], raw[2], raw[3]


def test_shobu_shows_the_last_move_without_tinting_its_stones(server: str, browser: Browser) -> None:
    """The findings: the last move's stones were tinted amber, like a third kind of stone. Each moved stone
    must look as an unmoved stone of its colour does, while its square is still marked."""
    created = hotseat(server, "shobu")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    page.goto(f"{server}/game/{created['id']}#token={all_tokens(created)}")
    expect(page.locator("#status")).to_contain_text("to move")

    def centre(target: str) -> tuple[float, float]:
        box = page.locator(f'#board [data-target="{target}"] rect.hl').bounding_box()
        assert box is not None, target
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    # Black's stones moved to a3 (dark board BD) and b3 (light board WL); White's to a3 (WL) and c3 (WD).
    for ply, move, moved, unmoved in (
        (1, "BDa1-a3 WLb1-b3", ("sq:BD:a3", "sq:WL:b3"), ("sq:BD:b1", "sq:WL:c1")),
        (2, "WLa4-a3 WDc4-c3", ("sq:WL:a3", "sq:WD:c3"), ("sq:WL:b4", "sq:WD:b4")),
    ):
        snap = snapshot(server, created["id"])
        click_move(page, next(entry["clicks"] for entry in snap["legal"] if entry["text"] == move))
        wait_for_ply(page, ply)
        page.mouse.move(0, 0)
        for stone, plain in zip(moved, unmoved, strict=True):
            expect(page.locator(f'#board [data-target="{stone}"]')).to_have_class(re.compile(r"\blast\b"))
            got, want = _pixel(page, *centre(stone)), _pixel(page, *centre(plain))
            assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 16, (
                f"after {move}, the moved stone on {stone} is drawn {got}, an unmoved one on {plain} {want}"
            )
    page.close()
