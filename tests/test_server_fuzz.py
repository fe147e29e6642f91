"""A fuzz of every HTTP endpoint and WebSocket message in-process: no 500, no socket dropped without a reason.

The cases come from a seeded generator (``tests/fuzz_cases.py``): malformed JSON, wrong types, huge numbers,
unicode, deep nesting, unknown ids, bad tokens, moves, settings, positions and agent specs, mixed with real
ids, tokens and moves so that requests also reach the rules. ``benchmarks/fuzz_server.py`` runs more of
them against a real ``shogames serve``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from fuzz_cases import SocketCase, Target, expected_pongs, http_case, prepare, socket_case
from shogames.server.app import create_app

CASES = int(os.environ.get("SHOGAMES_FUZZ_CASES", "10000"))
SEED = 13
SOCKET_SHARE = 0.02


class Socket:
    """An in-process WebSocket client of an ASGI app: the app runs as a task; messages pass through queues."""

    def __init__(self, app: Any, path: str) -> None:
        raw_path, _, query = path.partition("?")
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outgoing: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "scheme": "ws",
            "path": unquote(raw_path),
            "raw_path": raw_path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
            "subprotocols": [],
        }
        self.incoming.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.create_task(app(scope, self.incoming.get, self.outgoing.put))

    def send(self, message: str | bytes) -> None:
        key = "bytes" if isinstance(message, bytes) else "text"
        self.incoming.put_nowait({"type": "websocket.receive", key: message})

    async def receive(self) -> dict[str, Any]:
        return await asyncio.wait_for(self.outgoing.get(), 30)

    async def close(self) -> None:
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(self.task, 30)


async def run_socket(app: Any, case: SocketCase, tally: Counter[str]) -> None:
    """Open the socket, send the case's messages and a ping, and read every answer up to the last pong."""
    socket = Socket(app, case.path)
    first = await socket.receive()
    if first["type"] == "websocket.close":
        tally["socket dropped"] += 1
        raise AssertionError(f"{case.path[:80]}: refused before it was accepted: {first}")
    assert first["type"] == "websocket.accept", first
    for message in case.messages:
        socket.send(message)
    socket.send('{"type": "ping"}')
    pongs = expected_pongs(case.messages) + 1
    while pongs:
        received = await socket.receive()
        if received["type"] == "websocket.close":
            if not received.get("reason") or received.get("code") in (None, 1006, 1011):
                tally["socket dropped"] += 1
                raise AssertionError(f"{case.path[:80]}: closed without a reason: {received}")
            tally[f"socket closed {received['code']}"] += 1
            await asyncio.wait_for(socket.task, 30)
            return
        answer = json.loads(received.get("text") or received.get("bytes") or b"")
        assert answer["type"] in ("game", "error", "pong"), answer
        if answer["type"] == "error":
            assert 400 <= answer["status"] < 500 and answer["message"], answer
            tally[f"socket error {answer['status']}"] += 1
        pongs -= answer["type"] == "pong"
    await socket.close()
    tally["socket answered"] += 1


async def check_http(
    http: httpx.AsyncClient, rng: random.Random, target: Target, tally: Counter[str]
) -> None:
    case = http_case(rng, target)
    headers = {"Content-Type": "application/json"} if case.body is not None else {}
    response = await http.request(case.method, case.path, content=case.body, headers=headers)
    tally[f"http {response.status_code}"] += 1
    assert response.status_code < 500, (
        f"{case.method} {case.path[:100]} {case.body!r:.200}: {response.text[:300]}"
    )
    if response.status_code >= 400 and response.headers.get("content-type", "").startswith("text/html"):
        # A page (the rules and lessons) answers a person with a page that says what is missing.
        assert not case.path.startswith("/api/"), f"{case.method} {case.path[:100]}: an HTML refusal"
        assert response.status_code == 404, f"{case.method} {case.path[:100]}: {response.status_code}"
    elif response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and list(body) == ["error"] and body["error"], response.text[:300]


async def fuzz(app: Any, cases: int, seed: int, tally: Counter[str]) -> int:
    """Run at least ``cases`` cases (a request, a socket's opening, or a message) on the app; how many ran."""
    rng = random.Random(seed)
    done = 0
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            target = await prepare(http)
            while done < cases:
                if rng.random() < SOCKET_SHARE:
                    case = socket_case(rng, target)
                    await run_socket(app, case, tally)
                    done += 1 + len(case.messages)  # the opening (path and since) and every message
                else:
                    await check_http(http, rng, target, tally)
                    done += 1
    return done


def test_fuzz_every_endpoint_and_message(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    tally: Counter[str] = Counter()
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'fuzz.db'}", quotas=None, workers=1)
    start = time.perf_counter()
    with caplog.at_level(logging.ERROR, logger="shogames"):
        cases = asyncio.run(fuzz(app, CASES, SEED, tally))
    seconds = time.perf_counter() - start
    print(
        f"\n{cases} cases in {seconds:.1f} s: "
        + ", ".join(f"{key} {count}" for key, count in sorted(tally.items()))
    )
    unexpected = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert unexpected == [], unexpected
    assert tally["socket dropped"] == 0 and not any(key.startswith("http 5") for key in tally)
    assert sum(count for key, count in tally.items() if key.startswith("http 2")) > CASES // 100, (
        "some got through"
    )
