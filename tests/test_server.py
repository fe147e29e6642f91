"""The web app's server: creating games, moves, refusals that change nothing, races, clocks, restarts.

Every test that takes ``database_url`` runs on SQLite and on PostgreSQL (see ``conftest.py``).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from fake_clock import Clock
from server_process import free_port, start_server
from shogames.records import parse_record, replay
from shogames.server.app import create_app
from shogames.server.db import alembic_config, migrate, open_database
from shogames.server.service import (
    AI,
    FISCHER,
    PER_MOVE,
    PERSON,
    GameService,
    SeatRequest,
    ServiceError,
    TimeControl,
)

SHOBU_FIRST = "BDa1-a3 WLb1-b3"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(database_url)) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def token_of(created: dict[str, Any], seat: int) -> str:
    link = created["seats"][seat]["link"]
    assert link is not None
    return str(link.split("#token=")[1])


def hotseat(client: TestClient, game: str = "shobu", **extra: Any) -> tuple[str, list[str]]:
    created = create(client, game=game, seats=[{"kind": "person"}] * 2, mode="hotseat", **extra)
    return created["id"], [token_of(created, 0), token_of(created, 1)]


def wait_for(client: TestClient, game_id: str, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        snap: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if check(snap) or time.monotonic() > deadline:
            return snap
        time.sleep(0.05)


def test_home_page_lists_games_and_the_form(client: TestClient) -> None:
    game_id, _ = hotseat(client)
    page = client.get("/").text
    assert "Start a game" in page and f"/game/{game_id}" in page
    assert client.get(f"/game/{game_id}").status_code == 200
    assert client.get("/game/nosuchgame").status_code == 404


def test_a_move_is_played_recorded_and_announced_with_a_version(client: TestClient) -> None:
    game_id, tokens = hotseat(client)
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["ply"] == 0 and snap["to_move"] == 0 and len(snap["legal"]) == 232
    assert all(move["clicks"] for move in snap["legal"])
    after = client.post(
        f"/api/games/{game_id}/moves",
        json={"move": SHOBU_FIRST, "token": tokens[0], "version": snap["version"]},
    ).json()
    assert after["ply"] == 1 and after["to_move"] == 1 and after["version"] == snap["version"] + 1
    assert after["moves"] == [{"ply": 1, "text": SHOBU_FIRST, "seat": 0}]
    assert after["last"], "the last move's squares are highlighted"
    assert "token" not in str(after)


def refused(client: TestClient, game_id: str, body: dict[str, Any], status: int, words: str) -> None:
    before = client.get(f"/api/games/{game_id}").json()
    response = client.post(f"/api/games/{game_id}/moves", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]
    assert client.get(f"/api/games/{game_id}").json() == before


def test_bad_moves_and_tokens_are_refused_and_change_nothing(client: TestClient) -> None:
    game_id, tokens = hotseat(client)
    refused(client, game_id, {"move": "BDa1-a9 WLb1-b3", "token": tokens[0]}, 400, "refused")
    refused(client, game_id, {"move": "nonsense", "token": tokens[0]}, 400, "expected a turn like")
    refused(client, game_id, {"move": "BDa1-a2 WLb1-b4", "token": tokens[0]}, 400, "refused")
    refused(client, game_id, {"move": SHOBU_FIRST}, 403, "secret token")
    refused(client, game_id, {"move": SHOBU_FIRST, "token": "stolen"}, 403, "no seat")
    refused(client, game_id, {"move": SHOBU_FIRST, "token": tokens[1]}, 409, "not")
    refused(client, game_id, {"move": SHOBU_FIRST, "token": tokens[0], "version": 99}, 409, "version")
    refused(client, game_id, {"token": tokens[0]}, 400, "move")
    response = client.post(f"/api/games/{game_id}/moves", content=b"{not json")
    assert response.status_code == 400 and "malformed request" in response.json()["error"]


def test_new_games_with_bad_choices_are_refused_with_reasons(client: TestClient) -> None:
    def bad(body: dict[str, Any], words: str) -> None:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, response.text
        assert words in response.json()["error"]

    person, easy = {"kind": "person"}, {"kind": "ai", "agent": "easy"}
    bad({"game": "chess", "seats": [person, easy]}, "unknown game")
    bad({"game": "shobu", "seats": [person]}, "2 seats")
    bad({"game": "shobu", "seats": [person, {"kind": "ai", "agent": "grandmaster"}]}, "unknown agent")
    bad({"game": "shobu", "seats": [person, {"kind": "robot"}]}, "seat kind")
    bad({"game": "shobu", "settings": "max_turns=lots", "seats": [person, easy]}, "max_turns")
    bad({"game": "shobu", "preset": "nope", "seats": [person, easy]}, "preset")
    bad({"game": "shobu", "seats": [person, person], "mode": "computer"}, "AI seat")
    bad({"game": "shobu", "seats": [person, easy], "clock": {"kind": "fischer", "minutes": 0}}, "clock")
    bad({"game": "shobu", "seats": [person, easy], "position": "not a position"}, "position")
    sho = create(client, game="sho", settings="players=4", seats=[person, easy, easy, easy])
    assert len(sho["seats"]) == 4
    assert client.get("/api/seats", params={"game": "sho", "settings": "players=2"}).json() == {
        "seats": ["Player 1", "Player 2"]
    }


def test_the_computer_answers_and_dice_are_thrown_by_the_server(client: TestClient) -> None:
    created = create(client, game="shogammon", seats=[{"kind": "person"}, {"kind": "ai", "agent": "random"}])
    snap = client.get(f"/api/games/{created['id']}").json()
    assert snap["to_move"] == 0 and snap["moves"][0]["seat"] == -1, "the first roll is thrown at once"
    token = token_of(created, 0)
    while snap["to_move"] == 0:
        move = snap["legal"][0]["text"]
        snap = client.post(f"/api/games/{created['id']}/moves", json={"move": move, "token": token}).json()
    snap = wait_for(client, created["id"], lambda s: s["to_move"] == 0 or s["status"] != "active")
    seats = {move["seat"] for move in snap["moves"]}
    assert {-1, 0, 1} <= seats


def test_resign_and_takeback(client: TestClient) -> None:
    created = create(client, game="shobu", seats=[{"kind": "person"}, {"kind": "ai", "agent": "random"}])
    game_id, token = created["id"], token_of(created, 0)
    client.post(f"/api/games/{game_id}/moves", json={"move": SHOBU_FIRST, "token": token})
    snap = wait_for(client, game_id, lambda s: s["ply"] == 2)
    assert snap["ply"] == 2
    back = client.post(f"/api/games/{game_id}/takeback", json={"token": token}).json()
    assert back["ply"] == 0 and back["to_move"] == 0 and back["version"] > snap["version"]
    assert client.post(f"/api/games/{game_id}/takeback", json={"token": token}).status_code == 409
    over = client.post(f"/api/games/{game_id}/resign", json={"token": token}).json()
    assert over["status"] == "finished" and over["result"] == "0-1" and over["termination"] == "resignation"
    assert "White wins" in over["result_text"]
    assert client.post(f"/api/games/{game_id}/resign", json={"token": token}).status_code == 409
    assert (
        client.post(f"/api/games/{game_id}/moves", json={"move": SHOBU_FIRST, "token": token}).status_code
        == 409
    )
    finished = client.get("/api/games", params={"status": "finished"}).json()["games"]
    assert [entry["id"] for entry in finished] == [game_id]
    hot_id, tokens = hotseat(client)
    assert client.post(f"/api/games/{hot_id}/takeback", json={"token": tokens[0]}).status_code == 409


def test_the_record_downloads_and_replays(client: TestClient) -> None:
    game_id, tokens = hotseat(client)
    client.post(f"/api/games/{game_id}/moves", json={"move": SHOBU_FIRST, "token": tokens[0]})
    client.post(f"/api/games/{game_id}/resign", json={"token": tokens[1]})
    response = client.get(f"/api/games/{game_id}/record")
    assert "attachment" in response.headers["content-disposition"]
    played = replay(parse_record(response.text))
    assert [played.states[0].move_to_text(played.moves[0])] == [SHOBU_FIRST]
    assert parse_record(response.text).result == "1-0"
    viewed = client.post("/api/records/replay", json={"record": response.text}).json()
    assert len(viewed["steps"]) == 2 and viewed["moves"][0]["text"] == SHOBU_FIRST
    assert viewed["result_text"] == "Black wins (resignation)"
    broken = response.text.replace(SHOBU_FIRST, "BDa1-a9 WLb1-b3")
    answer = client.post("/api/records/replay", json={"record": broken})
    assert answer.status_code == 400 and "line" in answer.json()["error"]


def test_a_game_can_start_from_a_position(client: TestClient) -> None:
    position = "w3/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb b"
    game_id, _ = hotseat(client, position=position)
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["ply"] == 0 and snap["to_move"] == 0
    record = client.get(f"/api/games/{game_id}/record").text
    assert f'[Position "{position}"]' in record
    assert client.get(f"/api/games/{game_id}/positions/0").json()["position"] == snap["position"]
    assert client.get(f"/api/games/{game_id}/positions/5").status_code == 404


def test_websocket_sends_snapshots_and_catches_up_from_a_version(client: TestClient) -> None:
    game_id, tokens = hotseat(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        first = ws.receive_json()
        assert first["type"] == "game" and first["ply"] == 0
        ws.send_json({"type": "move", "move": SHOBU_FIRST, "token": tokens[0], "version": first["version"]})
        second = ws.receive_json()
        assert second["ply"] == 1 and second["version"] == first["version"] + 1
        ws.send_json({"type": "move", "move": SHOBU_FIRST, "token": tokens[0]})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 409
        ws.send_json({"type": "dance"})
        assert "unknown message type" in ws.receive_json()["message"]
    # A client reconnecting with the version it has gets nothing until the next event; an old one catches up.
    with client.websocket_connect(f"/ws/games/{game_id}?since={first['version']}") as ws:
        assert ws.receive_json()["version"] == second["version"]
    with client.websocket_connect(f"/ws/games/{game_id}?since={second['version']}") as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


# --- The service on its own: races and clocks, with time moved by hand. ---------------------------------


ENGINES: dict[int, AsyncEngine] = {}


async def new_service(url: str, now: Any = None) -> GameService:
    await asyncio.to_thread(migrate, url)
    engine, sessions = open_database(url)
    kwargs = {"now": now} if now is not None else {}
    service = GameService(sessions, rng=random.Random(1), **kwargs)
    ENGINES[id(service)] = engine
    return service


async def close_service(service: GameService) -> None:
    await service.close()
    await ENGINES.pop(id(service)).dispose()


def test_two_moves_racing_for_one_seat_give_one_move(database_url: str) -> None:
    async def scenario() -> None:
        service = await new_service(database_url)
        live = await service.create("shobu", seats=[SeatRequest(PERSON), SeatRequest(PERSON)])
        token = live.seats[0].token
        moves = ["BDa1-a3 WLb1-b3", "BDb1-b3 WLa1-a3", "BDa1-a2 WLb1-b2"]
        results = await asyncio.gather(
            *(service.play(live.id, move, token, version=live.version) for move in moves * 3),
            return_exceptions=True,
        )
        accepted = [result for result in results if not isinstance(result, Exception)]
        errors = [result for result in results if isinstance(result, ServiceError)]
        assert len(accepted) == 1 and len(errors) == 8 and all(error.status == 409 for error in errors)
        assert len(live.plies) == 1
        service.live.clear()  # read back what was committed
        stored = await service.get(live.id)
        assert [ply.text for ply in stored.plies] == [ply.text for ply in live.plies]
        assert stored.version == live.version
        await close_service(service)

    asyncio.run(scenario())


def test_a_chess_clock_counts_down_adds_the_increment_and_flags(database_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await new_service(database_url, clock)
        control = TimeControl(FISCHER, initial_ms=60_000, increment_ms=2_000)
        live = await service.create(
            "shobu", seats=[SeatRequest(PERSON), SeatRequest(PERSON)], time_control=control
        )
        black, white = (seat.token for seat in live.seats)
        # Each seat's clock starts with its first move (tests/test_clocks.py): those two are untimed.
        await service.play(live.id, SHOBU_FIRST, black)
        await service.play(live.id, "WLa4-a3 WDc4-c3", white)
        clock.advance(10)
        await service.play(live.id, live.state.move_to_text(live.state.legal_moves()[0]), black)
        assert live.clock_ms == [52_000, 60_000]
        view = service.snapshot(live)["clock"]
        assert view["running"] == 1 and view["remaining_ms"] == [52_000, 60_000]
        clock.advance(61)
        with pytest.raises(ServiceError, match="time ran out"):
            await service.play(live.id, live.state.move_to_text(live.state.legal_moves()[0]), white)
        assert live.status == "finished" and live.termination == "time forfeit" and live.result == "1-0"
        assert len(live.plies) == 3
        await close_service(service)

    asyncio.run(scenario())


def test_a_move_limit_loses_the_game_when_a_move_takes_too_long(database_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await new_service(database_url, clock)
        live = await service.create(
            "shoo",
            settings="first_player=blue",
            seats=[SeatRequest(PERSON), SeatRequest(PERSON)],
            time_control=TimeControl(PER_MOVE, limit_ms=60_000),
        )
        mover = live.state.to_move
        assert mover is not None
        for seat in (mover, 1 - mover):  # each seat's first move is untimed (tests/test_clocks.py)
            while live.state.to_move == seat:
                await service.play(
                    live.id, live.state.move_to_text(live.state.legal_moves()[0]), live.seats[seat].token
                )
        clock.advance(59)
        first = live.state.move_to_text(live.state.legal_moves()[0])
        await service.play(live.id, first, live.seats[mover].token)
        assert service.snapshot(live)["clock"]["move_left_ms"] == 60_000
        clock.advance(60.5)
        nxt = live.state.move_to_text(live.state.legal_moves()[0])
        with pytest.raises(ServiceError, match="time ran out"):
            await service.play(live.id, nxt, live.seats[1 - mover].token)
        assert live.termination == "time forfeit"
        assert service.record(live).headers["TimeControl"] == "1/60"
        await close_service(service)

    asyncio.run(scenario())


def test_the_clock_flags_a_player_who_never_moves_again(database_url: str) -> None:
    async def scenario() -> None:
        service = await new_service(database_url)
        live = await service.create(
            "shobu",
            seats=[SeatRequest(PERSON), SeatRequest(AI, agent="random")],
            time_control=TimeControl(PER_MOVE, limit_ms=1_000),
        )
        await service.play(live.id, SHOBU_FIRST, live.seats[0].token)  # Black's clock starts here
        for _ in range(100):  # the computer answers
            if len(live.plies) == 2:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.5)
        assert live.status == "finished" and live.termination == "time forfeit" and live.result == "0-1"
        await close_service(service)

    asyncio.run(scenario())


def test_the_schema_matches_the_migrations(database_url: str) -> None:
    from alembic import command
    from alembic.util.exc import AutogenerateDiffsDetected

    url = database_url
    migrate(url)
    try:
        command.check(alembic_config(url))
    except AutogenerateDiffsDetected as error:  # pragma: no cover - the failure message is the point
        pytest.fail(f"the tables and the migrations differ: {error}")


# --- A real server process, killed mid-game and started again. ------------------------------------------


def test_a_killed_server_loses_no_accepted_move(database_url: str, tmp_path: Path) -> None:
    # --no-warm: two people play, so no kernel or engine worker is used; what is killed and checked is the
    # database's state, and warming the kernels at both start-ups would be most of the test's time.
    url, port = database_url, free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(url, port, tmp_path, options=["--no-warm"])
    try:
        created = httpx.post(
            f"{base}/api/games",
            json={"game": "sho", "settings": "players=2", "seats": [{"kind": "person"}, {"kind": "person"}]},
        ).json()
        game_id = created["id"]
        tokens = [created["seats"][seat]["link"].split("#token=")[1] for seat in (0, 1)]
        for _ in range(6):
            snap = httpx.get(f"{base}/api/games/{game_id}").json()
            move = snap["legal"][0]["text"]
            answer = httpx.post(
                f"{base}/api/games/{game_id}/moves", json={"move": move, "token": tokens[snap["to_move"]]}
            )
            assert answer.status_code == 200, answer.text
        before = httpx.get(f"{base}/api/games/{game_id}").json()
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
    server = start_server(url, port, tmp_path, options=["--no-warm"])
    try:
        after = httpx.get(f"{base}/api/games/{game_id}").json()
        assert after["moves"] == before["moves"] and after["version"] == before["version"]
        assert after["position"] == before["position"]
        move = after["legal"][0]["text"]
        answer = httpx.post(
            f"{base}/api/games/{game_id}/moves", json={"move": move, "token": tokens[after["to_move"]]}
        )
        assert answer.status_code == 200, answer.text
    finally:
        server.terminate()
        server.wait(timeout=20)
