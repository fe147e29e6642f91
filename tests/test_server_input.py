"""The server's edge under bad input and abuse: clear 4xx refusals in one shape, never a 500, limits, quotas.

Each test here reproduces a defect of the server found by attacking it (findings: "The server under faults,
abuse and load") and failed before its fix.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from server_process import free_port, kill_server, start_server
from shogames.server.app import Quotas, create_app
from shogames.server.engine import JOBS_PER_CLIENT
from shogames.server.limits import MAX_BODY, MAX_WS_MESSAGE
from shogames.server.record_view import MAX_RECORD_BYTES, MAX_RECORD_PLIES
from shogames.server.workers import WorkerPool, WorkerTimeoutError

SHOBU_FIRST = "BDa1-a3 WLb1-b3"
PERSON = {"kind": "person"}


def db_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path))) as test_client:
        yield test_client


def hotseat(client: TestClient, game: str = "shobu") -> tuple[str, list[str]]:
    response = client.post("/api/games", json={"game": game, "seats": [PERSON, PERSON], "mode": "hotseat"})
    assert response.status_code == 200, response.text
    created = response.json()
    return created["id"], [seat["link"].split("#token=")[1] for seat in created["seats"]]


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error"] and isinstance(body["error"], str) and body["error"], body
    return str(body["error"])


# --- Findings 2 to 7, 10 and 12 ----------------------------------------------------------------------------


def test_a_non_ascii_token_is_refused_not_a_crash(client: TestClient) -> None:
    """Finding 2: ``compare_digest`` raised TypeError on a non-ASCII token: a 500 and a dropped socket."""
    game_id, tokens = hotseat(client)
    for token in ("é", "\u0000", "🀄" * 10):
        body = json.dumps({"token": token, "move": SHOBU_FIRST})
        for path in ("seat", "moves", "resign", "takeback"):
            response = client.post(
                f"/api/games/{game_id}/{path}", content=body, headers={"Content-Type": "application/json"}
            )
            assert "no seat" in error_of(response, 403)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.receive_json()
        for token in ("é", "\ud800"):
            ws.send_text(json.dumps({"type": "move", "move": SHOBU_FIRST, "token": token}))
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["status"] == 403
        ws.send_json({"type": "move", "move": SHOBU_FIRST, "token": tokens[0]})
        assert ws.receive_json()["ply"] == 1, "the socket stays open after a refusal"


@pytest.mark.parametrize("value", ["Infinity", "-Infinity", "NaN", "1e308", "-1e308", "1e20"])
def test_clock_values_out_of_range_are_refused(client: TestClient, value: str) -> None:
    """Finding 3: ``round()`` ran before the range check, so Infinity, NaN and 1e308 were 500s."""
    for clock in (
        f'{{"kind": "fischer", "minutes": {value}, "increment": 0}}',
        f'{{"kind": "fischer", "minutes": 5, "increment": {value}}}',
        f'{{"kind": "per_move", "seconds": {value}}}',
    ):
        body = f'{{"game": "shobu", "seats": [{{"kind": "person"}}, {{"kind": "person"}}], "clock": {clock}}}'
        response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
        assert "clock" in error_of(response, 400) or "time" in error_of(response, 400)


@pytest.mark.parametrize(
    "spec", ["greedy:noise=2", "alphabeta:depth=0", "mcts:iterations=-1", "mcts:seconds=-1"]
)
def test_out_of_range_agent_parameters_are_refused(client: TestClient, spec: str) -> None:
    """Finding 4: ``make_agent`` raised ValueError, which the server did not catch: a 500."""
    response = client.post(
        "/api/games", json={"game": "shobu", "seats": [PERSON, {"kind": "ai", "agent": spec}]}
    )
    message = error_of(response, 400)
    assert spec.split(":")[1].split("=")[0] in message


@pytest.mark.parametrize("since", ["--1", "²", "1" * 5000, "٣", "-", " 1", "1e3", "0x10", "%00"])
def test_websocket_since_values_that_are_no_version_send_the_snapshot(client: TestClient, since: str) -> None:
    """Finding 5: ``isdigit()`` passed ``²`` and ``--1``, then ``int()`` failed and the socket dropped."""
    game_id, _ = hotseat(client)
    with client.websocket_connect(f"/ws/games/{game_id}", params={"since": since}) as ws:
        snapshot = ws.receive_json()
        assert snapshot["type"] == "game" and snapshot["ply"] == 0
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_deeply_nested_websocket_json_is_refused_and_the_socket_stays_open(client: TestClient) -> None:
    """Finding 6: 100,000 levels of nesting raised RecursionError and killed the socket silently."""
    game_id, _ = hotseat(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.receive_json()
        for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 5000 + "1" + "}" * 5000, "[" * 900 + "]" * 900):
            ws.send_text(text)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["status"] in (400, 413), answer
            assert answer["message"]
        ws.send_bytes(b"\xff\xfe not utf-8")
        assert ws.receive_json()["status"] == 400
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}


def test_a_websocket_message_over_the_limit_is_refused_and_the_socket_stays_open(client: TestClient) -> None:
    game_id, _ = hotseat(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * MAX_WS_MESSAGE}))
        answer = ws.receive_json()
        assert (
            answer["type"] == "error" and answer["status"] == 413 and str(MAX_WS_MESSAGE) in answer["message"]
        )
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_a_websocket_to_an_unknown_game_is_closed_with_4404_and_its_reason(client: TestClient) -> None:
    """Finding 12: closing before accepting reached the client as HTTP 403, losing the code and reason."""
    with client.websocket_connect("/ws/games/nosuchgame") as ws:
        message = ws.receive()
        assert message["type"] == "websocket.close" and message["code"] == 4404
        assert "nosuchgame" in message["reason"]


def test_a_body_over_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    """Finding 10: a 30 MB body was read and parsed whole before its 400."""
    big = b'{"record": "' + b"x" * (MAX_BODY + 10) + b'"}'
    response = client.post("/api/records/replay", content=big, headers={"Content-Type": "application/json"})
    assert str(MAX_BODY) in error_of(response, 413)


def test_a_body_sent_in_chunks_is_refused_once_it_passes_the_limit(tmp_path: Path) -> None:
    """A body without a Content-Length is counted as it arrives and refused without being read whole."""
    app = create_app(db_url(tmp_path))
    chunks_read = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal chunks_read
        chunks_read += 1
        body = b'{"record": "' if chunks_read == 1 else b"x" * 10_000
        return {"type": "http.request", "body": body, "more_body": chunks_read < 3000}  # 30 MB in all

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/records/replay",
        "raw_path": b"/api/records/replay",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"transfer-encoding", b"chunked")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
    assert str(MAX_BODY) in json.loads(sent[1]["body"])["error"]
    assert chunks_read <= MAX_BODY // 10_000 + 2


# --- One error shape --------------------------------------------------------------------------------------


def test_every_refusal_has_the_one_error_shape(client: TestClient) -> None:
    error_of(client.get("/api/nothing-here"), 404)
    error_of(client.get("/nothing-here"), 404)
    error_of(client.delete("/api/games"), 405)
    error_of(client.put("/api/catalog"), 405)
    error_of(client.get("/api/games/x/positions/notanumber"), 400)
    error_of(client.get("/api/games/x/positions/" + "9" * 5000), 400)
    error_of(client.post("/api/games", content=b"[]", headers={"Content-Type": "application/json"}), 400)
    error_of(
        client.post("/api/games", content=b"\xff\xfe", headers={"Content-Type": "application/json"}), 400
    )
    error_of(client.post("/api/games", json={"game": "shobu", "seats": "two"}), 400)
    error_of(client.get("/api/seats"), 400)
    error_of(client.get("/static/nothing.js"), 404)


def test_an_unexpected_error_is_logged_and_answers_internal_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(db_url(tmp_path))

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("the test's own failure")

    with TestClient(app, raise_server_exceptions=False) as test_client, caplog.at_level(logging.ERROR):
        response = test_client.get("/api/boom")
    assert error_of(response, 500) == "internal error"
    assert any("the test's own failure" in (record.exc_text or "") for record in caplog.records)
    assert all(record.name.startswith("shogames.server") for record in caplog.records if record.exc_text)


# --- Quotas and headers -----------------------------------------------------------------------------------


def test_creating_games_and_opening_websockets_have_quotas_per_client(tmp_path: Path) -> None:
    quotas = Quotas(games_burst=3, games_per_minute=6, sockets_burst=2, sockets_per_minute=6)
    with TestClient(create_app(db_url(tmp_path), quotas=quotas)) as test_client:
        for _ in range(3):
            game_id, _ = hotseat(test_client)
        response = test_client.post("/api/games", json={"game": "shobu", "seats": [PERSON, PERSON]})
        assert "games" in error_of(response, 429)
        assert 1 <= int(response.headers["Retry-After"]) <= 10
        for _ in range(2):
            with test_client.websocket_connect(f"/ws/games/{game_id}") as ws:
                ws.receive_json()
        # Server II finding 6: refused before the handshake is answered (it used to accept, then close
        # with 4429, which cost a whole handshake each and stalled everyone under a thousand of them).
        refused = denial(test_client, f"/ws/games/{game_id}")
        assert "WebSockets" in error_of(refused, 429)
        assert 1 <= int(refused.headers["Retry-After"]) <= 10
        assert test_client.get(f"/api/games/{game_id}").status_code == 200, "reading is not limited"


def denial(client: TestClient, path: str, headers: dict[str, str] | None = None) -> WebSocketDenialResponse:
    """The HTTP answer refusing a WebSocket handshake (it fails the test if the socket is accepted)."""
    connection = client.websocket_connect(path, headers=headers or {})
    with pytest.raises(WebSocketDenialResponse) as refused, connection:
        pass
    return refused.value


def test_a_client_may_hold_only_so_many_websockets_open_at_once(tmp_path: Path) -> None:
    """Server II finding 6: no cap on the WebSockets one address holds open."""
    quotas = Quotas(sockets_burst=100, sockets_per_minute=100, sockets_open=3)
    with TestClient(create_app(db_url(tmp_path), quotas=quotas)) as test_client:
        game_id, _ = hotseat(test_client)
        with contextlib.ExitStack() as held:
            for _ in range(3):
                held.enter_context(test_client.websocket_connect(f"/ws/games/{game_id}")).receive_json()
            refused = denial(test_client, f"/ws/games/{game_id}")
            assert "at most 3 WebSockets open" in error_of(refused, 429)
        with test_client.websocket_connect(f"/ws/games/{game_id}") as ws:  # closed ones count no more
            assert ws.receive_json()["type"] == "game"


def test_websockets_from_another_sites_pages_are_refused(client: TestClient) -> None:
    """Server II finding 6: WebSockets were accepted from any Origin."""
    game_id, _ = hotseat(client)
    refused = denial(client, f"/ws/games/{game_id}", {"origin": "https://elsewhere.example"})
    assert "elsewhere.example" in error_of(refused, 403)
    for headers in ({"origin": "http://testserver"}, {}):  # this site's pages, and clients with no Origin
        with client.websocket_connect(f"/ws/games/{game_id}", headers=headers) as ws:
            assert ws.receive_json()["type"] == "game"


def test_a_client_that_leaves_during_the_handshake_is_no_error(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Server II finding 7: a client gone before its handshake was answered was logged as an unexpected
    error with a traceback (uvicorn's ClientDisconnected, turned into WebSocketDisconnect by Starlette)."""
    from uvicorn.protocols.utils import ClientDisconnected

    game_id, _ = hotseat(client)

    async def leave(path: str) -> None:
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
            "scheme": "ws",
            "root_path": "",
            "subprotocols": [],
        }

        async def receive() -> dict[str, Any]:
            return {"type": "websocket.connect"}

        async def send(message: dict[str, Any]) -> None:
            raise ClientDisconnected

        await client.app(scope, receive, send)  # type: ignore[arg-type]

    with caplog.at_level(logging.DEBUG, logger="shogames.server"):
        for path in (f"/ws/games/{game_id}", "/ws/games/nosuchgame"):
            client.portal.call(leave, path)  # type: ignore[union-attr]
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    game_id, _ = hotseat(client)
    for path in ("/", f"/game/{game_id}", "/viewer", "/api/catalog", "/static/board.js", "/nothing"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "'unsafe-inline'" not in policy and "object-src 'none'" in policy
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


# --- The record viewer ------------------------------------------------------------------------------------


def shobu_record(client: TestClient) -> str:
    game_id, tokens = hotseat(client)
    client.post(f"/api/games/{game_id}/moves", json={"move": SHOBU_FIRST, "token": tokens[0]})
    client.post(f"/api/games/{game_id}/resign", json={"token": tokens[1]})
    return str(client.get(f"/api/games/{game_id}/record").text)


def test_a_record_over_the_limits_is_refused_with_the_limit(client: TestClient) -> None:
    record = shobu_record(client)
    too_long = record.replace("\n1-0", "") + "\n" + "x\n" * (MAX_RECORD_PLIES + 1)
    assert str(MAX_RECORD_PLIES) in error_of(
        client.post("/api/records/replay", json={"record": too_long}), 400
    )
    too_big = record + " " * MAX_RECORD_BYTES
    assert str(MAX_RECORD_BYTES) in error_of(
        client.post("/api/records/replay", json={"record": too_big}), 413
    )


def test_a_replayed_record_answers_a_window_of_positions(client: TestClient) -> None:
    record = shobu_record(client)
    whole = client.post("/api/records/replay", json={"record": record}).json()
    assert whole["plies"] == 1 and whole["first_step"] == 0 and len(whole["steps"]) == 2
    one = client.post("/api/records/replay", json={"record": record, "around": 0, "count": 1}).json()
    assert one["first_step"] == 0 and one["steps"] == whole["steps"][:1]
    error_of(client.post("/api/records/replay", json={"record": record, "around": -1}), 400)
    error_of(client.post("/api/records/replay", json={"record": record, "count": 10**6}), 400)


def test_a_long_replay_does_not_stall_other_requests(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 8: a record replayed in the event loop held every other request for 31 to 48 seconds."""
    record = shobu_record(client)
    sent: list[str] = []
    run = WorkerPool.run

    async def spied(pool: WorkerPool, fn: Any, *args: Any, timeout: float) -> Any:
        sent.append(fn.__name__)
        return await run(pool, fn, *args, timeout=timeout)

    monkeypatch.setattr(WorkerPool, "run", spied)

    async def scenario() -> tuple[float, float]:
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            replays = [  # as many as one client may have running (JOBS_PER_CLIENT)
                asyncio.create_task(http.post("/api/records/replay", json={"record": record}))
                for _ in range(JOBS_PER_CLIENT)
            ]
            await asyncio.sleep(0)
            start = time.perf_counter()
            catalog = await http.get("/api/catalog")
            quick = time.perf_counter() - start
            assert catalog.status_code == 200
            answers = await asyncio.gather(*replays)
            assert all(answer.status_code == 200 for answer in answers)
            return quick, time.perf_counter() - start

    quick, _ = asyncio.run(scenario())
    assert quick < 5.0
    assert sent == ["replay_view"] * JOBS_PER_CLIENT, "every replay ran in a worker process"


def test_engine_jobs_beyond_a_clients_share_are_refused(client: TestClient) -> None:
    """Server II: a client may have at most JOBS_PER_CLIENT engine jobs running or waiting (then 429)."""
    record = shobu_record(client)

    async def scenario() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            asked = [
                asyncio.create_task(http.post("/api/records/replay", json={"record": record}))
                for _ in range(JOBS_PER_CLIENT + 1)
            ]
            return list(await asyncio.gather(*asked))

    answers = asyncio.run(scenario())
    assert sorted(answer.status_code for answer in answers) == [200] * JOBS_PER_CLIENT + [429]
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert "engine jobs" in error_of(refused, 429) and refused.headers["Retry-After"] == "5"


def slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_the_worker_pool_runs_in_other_processes_and_replaces_a_stuck_worker() -> None:
    async def scenario() -> None:
        pool = WorkerPool(1)
        try:
            assert await pool.run(os.getpid, timeout=60) != os.getpid()
            with pytest.raises(WorkerTimeoutError, match=r"0\.5"):
                await pool.run(slow, 30.0, timeout=0.5)
            start = time.monotonic()
            assert await pool.run(slow, 0.0, timeout=60) == 0.0
            assert time.monotonic() - start < 30, "the stuck worker was replaced, not waited for"
        finally:
            pool.close()

    asyncio.run(scenario())


# --- A real server process: the edge that uvicorn owns -----------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # --no-warm: these tests are of the HTTP and WebSocket edge, which answers before any kernel or engine
    # worker is asked for anything; warming them would be most of the start-up.
    tmp_path = tmp_path_factory.mktemp("server")
    port = free_port()
    process: subprocess.Popen[bytes] = start_server(db_url(tmp_path), port, tmp_path, options=["--no-warm"])
    try:
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)


def raw_upgrade(address: str, path: str) -> bytes:
    host, port = address.split(":")
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def test_a_websocket_upgrade_to_a_huge_path_is_answered(server: str) -> None:
    """Finding 7: a 10,000-character upgrade path got no answer at all (uvicorn dropped websockets' 414)."""
    answer = raw_upgrade(server, "/ws/games/" + "a" * 10_000)
    assert answer.startswith(b"HTTP/1.1 414"), answer[:200]


def test_a_real_server_closes_a_websocket_to_an_unknown_game_with_4404(server: str) -> None:
    """Finding 12 over a real socket: the client saw HTTP 403 instead of the close code and its reason."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(f"ws://{server}/ws/games/nosuchgame") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        assert "nosuchgame" in closed.value.rcvd.reason


def test_a_real_server_refuses_a_30_mb_body_early(server: str) -> None:
    """Finding 10: a 30 MB body took 9 s and 1.4 GB; now it is refused from its Content-Length."""
    start = time.perf_counter()
    try:
        response = httpx.post(
            f"http://{server}/api/records/replay",
            content=b"x" * 30_000_000,
            headers={"Content-Type": "application/json"},
            timeout=30,
        )
    except httpx.HTTPError as error:  # the server may close before the client sends it all
        pytest.fail(f"no answer: {error!r}")
    assert str(MAX_BODY) in error_of(response, 413)
    assert time.perf_counter() - start < 9


def read_response(sock: socket.socket) -> bytes:
    """One HTTP response's head and JSON body (by its Content-Length) from a raw socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"content-length: (\d+)", head, re.IGNORECASE).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_client_still_sending_a_large_body_reads_the_413_and_keeps_its_connection(server: str) -> None:
    """Server II finding 3: the 413 went out with `connection: close` before the body was read, so a client
    still sending got a reset (a broken pipe here) instead of the answer, and lost its keep-alive
    connection."""
    host, port = server.split(":")
    size = 2_000_000
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            f"POST /api/records/replay HTTP/1.1\r\nHost: {server}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n".encode()
        )
        for start in range(0, size, 65536):  # as a client on a slower link sends it, a piece at a time
            sock.sendall(b"x" * min(65536, size - start))
            time.sleep(0.002)
        answer = read_response(sock)
        assert answer.startswith(b"HTTP/1.1 413") and str(MAX_BODY).encode() in answer, answer[:300]
        assert b"connection: close" not in answer.lower()
        sock.sendall(f"GET /api/catalog HTTP/1.1\r\nHost: {server}\r\n\r\n".encode())
        assert read_response(sock).startswith(b"HTTP/1.1 200")


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children, ...), from /proc."""
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == parent and int(entry.name) not in found:
                found.add(int(entry.name))
                frontier.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_kill_9_of_the_server_leaves_no_worker_behind(tmp_path: Path) -> None:
    """Server II finding 4: after `kill -9` of the server, the forkserver, its worker and multiprocessing's
    resource tracker lived on (reparented to PID 1)."""
    port = free_port()
    process = start_server(db_url(tmp_path), port, tmp_path)
    try:
        with TestClient(create_app(db_url(tmp_path))) as local:
            record = shobu_record(local)
        answer = httpx.post(
            f"http://127.0.0.1:{port}/api/records/replay", json={"record": record}, timeout=60
        )
        assert answer.status_code == 200, answer.text  # replayed in a worker process
        left = descendants(process.pid)
        assert left, "the replay started no worker process"
    finally:
        process.kill()  # the server's PID only, as `kill -9 PID` does: no clean-up runs
        process.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(alive(pid) for pid in left):
        time.sleep(0.2)
    still = [pid for pid in left if alive(pid)]
    for pid in still:
        os.kill(pid, 9)
    assert not still, f"{len(still)} process(es) of the killed server still ran 15 s later"


def test_connections_that_never_finish_their_request_head_are_closed(server: str) -> None:
    """Server II finding 5: with no time limit on request heads, 1,000 half-open connections were held for
    good (slowloris); now a head has HEAD_TIMEOUT seconds, then the answer is 408 and the connection
    closes."""
    from shogames.server.http_protocol import HEAD_TIMEOUT

    host, port = server.split(":")
    sockets = [socket.create_connection((host, int(port)), timeout=HEAD_TIMEOUT + 20) for _ in range(50)]
    try:
        for index, sock in enumerate(sockets):  # half the heads begun, half not even that
            if index % 2:
                sock.sendall(f"GET /api/catalog HTTP/1.1\r\nHost: {server}\r\nX-Slow: ".encode())
        started = time.monotonic()
        answers = [read_response(sock) for sock in sockets]  # b"" once the server closes
        waited = time.monotonic() - started
        assert all(sock.recv(1) == b"" for sock in sockets)  # closed by the server
    finally:
        for sock in sockets:
            sock.close()
    assert all(answer.startswith(b"HTTP/1.1 408") for answer in answers), {a[:40] for a in answers}
    assert HEAD_TIMEOUT - 1 <= waited <= HEAD_TIMEOUT + 10
    assert httpx.get(f"http://{server}/api/catalog", timeout=10).status_code == 200


@pytest.mark.parametrize("trusted", [True, False])
def test_quotas_count_by_the_address_a_trusted_proxy_forwards(tmp_path: Path, trusted: bool) -> None:
    """Server II: `serve` had no option for proxy headers; --forwarded-allow-ips names the trusted proxies."""
    port = free_port()
    options = ["--no-warm", "--forwarded-allow-ips", "127.0.0.1" if trusted else "10.9.9.9"]
    process = start_server(db_url(tmp_path), port, tmp_path, options=options)
    base = f"http://127.0.0.1:{port}"

    def create(client: str) -> int:
        body = {"game": "shobu", "seats": [PERSON, PERSON], "mode": "hotseat"}
        headers = {"X-Forwarded-For": client}
        return httpx.post(f"{base}/api/games", json=body, headers=headers, timeout=30).status_code

    try:
        burst = Quotas().games_burst
        assert [create("203.0.113.7") for _ in range(burst)] == [200] * burst
        assert create("203.0.113.7") == 429
        # Another client behind the same proxy has its own quota, if the proxy is trusted.
        assert create("198.51.100.4") == (200 if trusted else 429)
    finally:
        kill_server(process)


def test_any_json_value_in_a_seat_request_is_a_clear_refusal(client: TestClient) -> None:
    game_id, _ = hotseat(client)
    values: list[Any] = [None, 1, 1.5, True, [], {}, "x" * 65, "é", "\ud800"]
    for value in values:
        response = client.post(
            f"/api/games/{game_id}/seat",
            content=json.dumps({"token": value}),
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code in (400, 403), response.text
        error_of(response, response.status_code)


def test_refusals_are_logged_at_debug_and_the_level_is_an_option(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    from cli_runner import run_cli

    with caplog.at_level(logging.DEBUG, logger="shogames.server"):
        client.get("/api/games/nosuchgame")
    assert any(
        record.levelno == logging.DEBUG
        and "404" in record.getMessage()
        and "nosuchgame" in record.getMessage()
        for record in caplog.records
    )
    assert "--log-level" in run_cli(["serve", "--help"]).output


@pytest.mark.parametrize("game", ["shobu", "shoo", "sho", "shogammon"])
def test_a_position_with_a_number_of_thousands_of_digits_is_refused(client: TestClient, game: str) -> None:
    """Issue 13: a number of over 4,300 digits in a position made its reader raise ValueError: a 500."""
    import shogames

    position = shogames.make(game).new_initial_state().to_text() + " " + "9" * 4400
    body = {"game": game, "seats": [PERSON, PERSON], "position": position}
    assert "digits" in error_of(client.post("/api/games", json=body), 400)
