"""Draw offers in two-player games: offer, accept, decline, withdraw, lapse on a move, and the page.

An offer is an event (a new version, stored, seen by every process); an accepted offer ends the game drawn
(every seat the same return, Termination ``agreement``) and its record replays. The computer declines.
Games of three or four seats refuse offers.
"""

# ruff: noqa: F811 (the fixtures server and browser come from test_browser)
from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

from shogames.core.errors import NotationError
from shogames.records import parse_record, replay
from shogames.server.app import create_app
from shogames.server.db import migrate, open_database
from shogames.server.service import PERSON, GameService, SeatRequest, ServiceError
from test_browser import browser, server, snapshot  # noqa: F401 (fixtures)

SHOBU_FIRST = "BDa1-a3 WLb1-b3"
SHOBU_REPLY = "WDa4-a2 BLb4-b2"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """The app on a fresh SQLite file, then on a fresh PostgreSQL database (see ``conftest.py``)."""
    with TestClient(create_app(database_url)) as test_client:
        yield test_client


def online(client: TestClient, game: str = "shobu", **extra: Any) -> tuple[str, list[str]]:
    seats = extra.pop("seats", [{"kind": "person"}] * 2)
    response = client.post("/api/games", json={"game": game, "seats": seats, "mode": "online", **extra})
    assert response.status_code == 200, response.text
    created = response.json()
    tokens = [str(seat["link"].split("#token=")[1]) for seat in created["seats"] if seat["link"]]
    return created["id"], tokens


def draw(client: TestClient, game_id: str, token: str, accept: bool | None = None) -> Any:
    return client.post(f"/api/games/{game_id}/draw", json={"token": token, "accept": accept})


def test_an_accepted_offer_ends_the_game_drawn_and_its_record_replays(client: TestClient) -> None:
    game_id, tokens = online(client)
    start = client.get(f"/api/games/{game_id}").json()
    assert start["draw_offer"] is None
    offered = draw(client, game_id, tokens[0]).json()
    assert offered["draw_offer"] == 0 and offered["version"] == start["version"] + 1
    assert offered["status"] == "active"
    again = draw(client, game_id, tokens[0])
    assert again.status_code == 409 and "already offers" in again.json()["error"]
    own = draw(client, game_id, tokens[0], True)  # one cannot accept one's own offer
    assert own.status_code == 409 and "offers no draw" in own.json()["error"]
    over = draw(client, game_id, tokens[1], True).json()
    assert over["status"] == "finished" and over["result"] == "1/2-1/2"
    assert over["termination"] == "agreement" and over["result_text"] == "Draw (agreement)"
    assert over["draw_offer"] is None
    record = client.get(f"/api/games/{game_id}/record").text
    assert '[Termination "agreement"]' in record
    replay(parse_record(record))  # a drawn record checks out
    with pytest.raises(NotationError, match="drawn by agreement"):
        replay(parse_record(record.replace('[Result "1/2-1/2"]', '[Result "1-0"]')))
    late = draw(client, game_id, tokens[0])
    assert late.status_code == 409 and "over" in late.json()["error"]


def test_an_offer_is_declined_withdrawn_or_lapses_when_the_opponent_moves(client: TestClient) -> None:
    game_id, tokens = online(client)
    assert draw(client, game_id, tokens[1], False).status_code == 409  # nothing to decline
    draw(client, game_id, tokens[1])
    declined = draw(client, game_id, tokens[0], False).json()
    assert declined["draw_offer"] is None and declined["status"] == "active"
    draw(client, game_id, tokens[0])
    withdrawn = draw(client, game_id, tokens[0], False).json()
    assert withdrawn["draw_offer"] is None
    # Black offers, then moves: the offer stands. White moves: it lapses.
    draw(client, game_id, tokens[0])
    moved = client.post(f"/api/games/{game_id}/moves", json={"move": SHOBU_FIRST, "token": tokens[0]}).json()
    assert moved["draw_offer"] == 0
    reply = client.post(f"/api/games/{game_id}/moves", json={"move": SHOBU_REPLY, "token": tokens[1]})
    assert reply.status_code == 200, reply.text
    assert reply.json()["draw_offer"] is None
    assert draw(client, game_id, tokens[1], True).status_code == 409
    # Offering while the other seat offers accepts (as on lichess).
    draw(client, game_id, tokens[1])
    both = draw(client, game_id, tokens[0]).json()
    assert both["status"] == "finished" and both["termination"] == "agreement"


def test_bad_draw_requests_are_refused_with_reasons(client: TestClient) -> None:
    game_id, tokens = online(client)
    assert draw(client, "nosuchgame", tokens[0]).status_code == 404
    assert draw(client, game_id, "not-a-token").status_code == 403
    assert client.post(f"/api/games/{game_id}/draw", json={"accept": None}).status_code == 403
    odd = client.post(f"/api/games/{game_id}/draw", json={"token": tokens[0], "accept": "maybe"})
    assert odd.status_code in (400, 422) and "error" in odd.json()
    sho_id, sho_tokens = online(client, "sho", settings="players=3", seats=[{"kind": "person"}] * 3)
    refused = draw(client, sho_id, sho_tokens[0])
    assert refused.status_code == 409 and "two-player" in refused.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["draw_offer"] is None


def test_the_computer_declines_and_the_game_goes_on(client: TestClient) -> None:
    response = client.post(
        "/api/games", json={"game": "shobu", "seats": [{"kind": "person"}, {"kind": "ai", "agent": "random"}]}
    )
    created = response.json()
    game_id, token = created["id"], created["seats"][0]["link"].split("#token=")[1]
    answer = draw(client, game_id, token).json()
    assert answer["status"] == "active" and answer["draw_offer"] is None
    assert "declines" in answer["notice"]


def test_draw_messages_over_the_websocket(client: TestClient) -> None:
    game_id, tokens = online(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.receive_json()
        ws.send_json({"type": "draw", "token": tokens[0]})
        assert ws.receive_json()["draw_offer"] == 0
        ws.send_json({"type": "draw", "token": tokens[1], "accept": "yes"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 400 and "accept" in error["message"]
        ws.send_json({"type": "draw", "token": tokens[1], "accept": True})
        assert ws.receive_json()["termination"] == "agreement"


def test_an_offer_is_stored_and_seen_by_another_process(database_url: str) -> None:
    url = database_url
    migrate(url)

    async def scenario() -> None:
        _, sessions = open_database(url)
        one = GameService(sessions, rng=random.Random(1), shared=True, sweep_seconds=0)
        two = GameService(sessions, rng=random.Random(2), shared=True, sweep_seconds=0)
        await one.start()
        await two.start()
        try:
            live = await one.create("shobu", seats=[SeatRequest(PERSON), SeatRequest(PERSON)], mode="online")
            tokens = [seat.token for seat in live.seats]
            await one.draw(live.id, tokens[0])
            seen = await two.fresh(live.id)
            assert seen.draw_offer == 0 and two.snapshot(seen)["draw_offer"] == 0
            with pytest.raises(ServiceError) as refusal:
                await two.draw(live.id, tokens[0])
            assert refusal.value.status == 409
            await two.draw(live.id, tokens[1], True)
            again = await one.fresh(live.id)
            assert again.status == "finished" and again.termination == "agreement"
        finally:
            await one.close()
            await two.close()

    asyncio.run(scenario())


# --- In the browser. ---------------------------------------------------------------------------------------


def test_a_draw_offered_and_accepted_between_two_browsers(server: str, browser: Browser) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "shobu",
            "mode": "online",
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
        },
    ).json()
    black_context, white_context = browser.new_context(), browser.new_context()
    black, white = black_context.new_page(), white_context.new_page()
    black.goto(server + created["seats"][0]["link"])
    white.goto(server + created["seats"][1]["link"])
    expect(black.locator("#status")).to_have_text("Your move.")
    expect(white.locator("#draw-offer")).to_be_hidden()
    black.locator("#offer-draw").click()
    expect(black.locator("#draw-offer-text")).to_have_text("You offer a draw.")
    expect(black.locator("#offer-draw")).to_be_hidden()
    expect(white.locator("#draw-offer-text")).to_contain_text("Black (Ann) offers a draw")  # over the socket
    white.locator("#draw-decline").click()
    expect(black.locator("#draw-offer")).to_be_hidden()
    black.locator("#offer-draw").click()
    white.locator("#draw-accept").click()
    for page in (black, white):
        expect(page.locator("#status")).to_contain_text("Draw (agreement)")
        expect(page.locator("#offer-draw")).to_be_hidden()
    assert snapshot(server, created["id"])["result"] == "1/2-1/2"
    black_context.close()
    white_context.close()
