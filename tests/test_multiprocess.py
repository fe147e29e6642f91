"""Two server processes on one PostgreSQL database: racing moves, coherent copies, spectators everywhere.

Both processes are real ``shogames serve`` processes on one database. A hot-seat Shobu game is created on
one; then, round after round, two different legal moves for the seat to move are sent at once, one to each
process (with the version the player saw, or without one). Exactly one may be accepted, the other refused
with 409, never a 500; and afterwards both processes show the game as the database holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from server_process import free_port, kill_server, start_server

ROUNDS = 12


@pytest.fixture
def two_servers(postgres_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two server processes on one fresh PostgreSQL database; yields their base URLs."""
    processes = []
    bases = []
    try:
        for _ in range(2):  # one after the other: the first one migrates the empty database
            port = free_port()
            processes.append(start_server(postgres_url, port, tmp_path))
            bases.append(f"http://127.0.0.1:{port}")
        yield bases[0], bases[1]
    finally:
        for process in processes:
            kill_server(process)


def hotseat_shobu(base: str) -> tuple[str, list[str]]:
    body = {"game": "shobu", "mode": "hotseat", "seats": [{"kind": "person"}] * 2}
    created = httpx.post(f"{base}/api/games", json=body).json()
    return created["id"], [seat["link"].split("#token=")[1] for seat in created["seats"]]


async def race(bases: tuple[str, ...], game_id: str, token: str, bodies: list[dict[str, Any]]) -> list[int]:
    async with httpx.AsyncClient(timeout=30) as client:
        answers = await asyncio.gather(
            *(
                client.post(f"{base}/api/games/{game_id}/moves", json={**body, "token": token})
                for base, body in zip(bases, bodies, strict=True)
            )
        )
    return [answer.status_code for answer in answers]


def test_two_processes_never_both_accept_racing_moves_for_one_seat(two_servers: tuple[str, str]) -> None:
    first, second = two_servers
    rng = random.Random(7)
    game_id, tokens = hotseat_shobu(first)
    assert httpx.get(f"{second}/api/games/{game_id}").status_code == 200  # the second has its copy now
    for round_number in range(ROUNDS):
        order = (first, second) if round_number % 2 == 0 else (second, first)
        snap = httpx.get(f"{order[0]}/api/games/{game_id}").json()
        assert snap["status"] == "active"
        moves = rng.sample([move["text"] for move in snap["legal"]], 2)
        versioned = round_number % 3 != 2  # now and then a client that sends no version
        bodies = [{"move": move, **({"version": snap["version"]} if versioned else {})} for move in moves]
        statuses = asyncio.run(race(order, game_id, tokens[snap["to_move"]], bodies))
        assert 500 not in statuses, f"round {round_number}: {statuses}"
        assert sorted(statuses) == [200, 409], f"round {round_number}: exactly one accepted, got {statuses}"
        views = [httpx.get(f"{base}/api/games/{game_id}").json() for base in (first, second)]
        assert views[0]["version"] == views[1]["version"], f"round {round_number}: the copies differ"
        assert views[0]["moves"] == views[1]["moves"] and len(views[0]["moves"]) == round_number + 1


def test_a_spectator_on_one_process_sees_a_move_played_on_the_other(two_servers: tuple[str, str]) -> None:
    first, second = two_servers
    game_id, tokens = hotseat_shobu(first)
    with connect(second.replace("http", "ws", 1) + f"/ws/games/{game_id}", open_timeout=10) as socket:
        opening = json.loads(socket.recv(timeout=10))
        snap = httpx.get(f"{first}/api/games/{game_id}").json()
        move = snap["legal"][0]["text"]
        answer = httpx.post(f"{first}/api/games/{game_id}/moves", json={"move": move, "token": tokens[0]})
        assert answer.status_code == 200, answer.text
        seen = json.loads(socket.recv(timeout=5))
        assert seen["version"] > opening["version"] and seen["moves"][-1]["text"] == move


@pytest.mark.parametrize("workers", [2, 4])
def test_serve_with_workers_accepts_one_racing_move_and_every_spectator_sees_every_move(
    postgres_url: str, tmp_path: Path, workers: int
) -> None:
    """``shogames serve --workers N``: the workers share one port, so connections land on any of them."""
    port = free_port()
    server = start_server(postgres_url, port, tmp_path, workers=workers)
    base = f"http://127.0.0.1:{port}"
    try:
        game_id, tokens = hotseat_shobu(base)
        with contextlib.ExitStack() as stack:
            sockets = [
                stack.enter_context(
                    connect(base.replace("http", "ws", 1) + f"/ws/games/{game_id}", open_timeout=10)
                )
                for _ in range(3 * workers)
            ]
            for socket in sockets:
                json.loads(socket.recv(timeout=10))
            rng = random.Random(workers)
            for round_number in range(4):
                snap = httpx.get(f"{base}/api/games/{game_id}").json()
                moves = rng.sample([move["text"] for move in snap["legal"]], workers)
                bodies = [{"move": move} for move in moves]
                statuses = asyncio.run(race((base,) * workers, game_id, tokens[snap["to_move"]], bodies))
                assert sorted(statuses) == [200] + [409] * (workers - 1), statuses
                played = httpx.get(f"{base}/api/games/{game_id}").json()["moves"][-1]["text"]
                for socket in sockets:  # every spectator, on whichever worker, sees the move
                    seen = json.loads(socket.recv(timeout=10))
                    while seen["ply"] < round_number + 1:
                        seen = json.loads(socket.recv(timeout=10))
                    assert seen["moves"][-1]["text"] == played
    finally:
        kill_server(server)


def test_the_processes_of_one_server_share_each_clients_quota(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The findings: quotas were per process, so `--workers N` gave a client N times its quota. Two worker
    apps, built as `serve --workers 2` builds them, now spend from one bucket per client."""
    from fastapi.testclient import TestClient

    from shogames.server.db import migrate
    from shogames.server.limits import Quotas
    from shogames.server.serving import DATABASE_VARIABLE, app_from_environment

    migrate(postgres_url)
    monkeypatch.setenv(DATABASE_VARIABLE, postgres_url)
    burst = Quotas().games_burst
    body = {"game": "shobu", "mode": "hotseat", "seats": [{"kind": "person"}, {"kind": "person"}]}
    with TestClient(app_from_environment()) as one, TestClient(app_from_environment()) as two:
        answers = [(one, two)[number % 2].post("/api/games", json=body) for number in range(2 * burst + 10)]
    accepted = sum(answer.status_code == 200 for answer in answers)
    refused = [answer for answer in answers if answer.status_code == 429]
    assert burst <= accepted <= burst + 1, accepted  # one token may come back while the test runs
    assert len(refused) == len(answers) - accepted
    assert "try again in" in refused[0].json()["error"] and refused[0].headers["Retry-After"].isdigit()
