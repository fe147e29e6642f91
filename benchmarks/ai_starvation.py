"""Can expensive computer players starve the rest of the server? A ``random`` opponent's answer time and GET
latency while other clients play the most expensive computer players.

For each ``--agent`` spec (``hard`` by default; pass the largest spec the server's limits accept as well) it
starts ``shogames serve`` afresh (a fresh SQLite file, or ``--database``; ``--workers`` as in load.py) and
runs, for ``--seconds``:

- ``--clients`` clients (7), each playing a game against that computer player (the four games in turn, the
  person in seat 0 playing uniformly random legal moves at once, a new game when one ends);
- one more client playing Shobu against ``random``, thinking ``--pause`` (0.2 s) before each move: its
  **answer time** is from the snapshot that shows
  the client's own move to the snapshot that shows the computer's reply (target: under 1 s);
- a prober sending ``GET /api/games/ID`` (the random game's snapshot) one after another, ``--interval``
  apart: its **GET latency** (target: p99 under 100 ms).

A baseline run with no expensive clients comes first (``--no-baseline`` skips it), so the figures can be read
as ratios measured on the same machine in the same run.

Usage: python benchmarks/ai_starvation.py [--agent hard] [--agent SPEC ...] [--clients 7] [--seconds 30]
       [--interval 0.05] [--pause 0.2] [--database URL] [--workers 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from typing import Any

import httpx
import websockets
from server_run import percentile, running_server

GAMES = [("shobu", ""), ("shoo", ""), ("sho", "players=2"), ("shogammon", "")]


class RefusedError(Exception):
    """The server refused to create a game (an agent spec beyond its limits, say)."""


class Bench:
    """One run: the clients, the prober and what they measured."""

    def __init__(
        self, base: str, agent: str | None, clients: int, seconds: float, interval: float, pause: float
    ) -> None:
        self.base = base
        self.pause = pause
        self.agent = agent
        self.clients = clients
        self.seconds = seconds
        self.interval = interval
        self.stop = False
        self.answers: list[float] = []
        self.gets: list[float] = []
        self.heavy_replies = 0
        self.random_game: str | None = None
        self.failures: list[str] = []

    async def create(self, client: httpx.AsyncClient, game: str, settings: str, agent: str) -> dict[str, Any]:
        body = {
            "game": game,
            "settings": settings,
            "mode": "computer",
            "seats": [{"kind": "person"}, {"kind": "ai", "agent": agent}],
        }
        answer = await client.post("/api/games", json=body)
        if answer.status_code != 200:
            raise RefusedError(f"{game} against {agent!r}: {answer.status_code} {answer.text[:300]}")
        created: dict[str, Any] = answer.json()
        return created

    async def play(self, index: int, agent: str, rng: random.Random, measure: bool) -> None:
        """Play games against ``agent`` until the run stops; time the computer's replies if ``measure``."""
        game, settings = ("shobu", "") if measure else GAMES[index % len(GAMES)]
        async with httpx.AsyncClient(base_url=self.base, timeout=120) as client:
            while not self.stop:
                created = await self.create(client, game, settings, agent)
                if measure:
                    self.random_game = created["id"]
                token = created["seats"][0]["link"].split("#token=")[1]
                uri = self.base.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
                async with websockets.connect(uri, max_size=2**24, open_timeout=120) as socket:
                    snap = json.loads(await socket.recv())
                    while not self.stop and snap["status"] == "active":
                        if snap["to_move"] != 0 or not snap["legal"]:
                            snap = await self.next_snapshot(socket, snap["version"])
                            if snap["to_move"] == 0:
                                self.heavy_replies += not measure
                            continue
                        if measure:
                            await asyncio.sleep(self.pause)  # a person thinks a little
                        move = rng.choice(snap["legal"])["text"]
                        message = {"type": "move", "move": move, "token": token, "version": snap["version"]}
                        await socket.send(json.dumps(message))
                        snap = await self.next_snapshot(socket, snap["version"])
                        if not measure or snap["status"] != "active" or snap["to_move"] == 0:
                            continue
                        shown = time.perf_counter()
                        while not self.stop and snap["status"] == "active" and snap["to_move"] != 0:
                            snap = await self.next_snapshot(socket, snap["version"])
                        if not self.stop:
                            self.answers.append(time.perf_counter() - shown)

    async def next_snapshot(self, socket: Any, version: int) -> dict[str, Any]:
        while True:
            try:
                data: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), timeout=1))
            except TimeoutError:
                if self.stop:
                    return {"status": "stopped", "to_move": None, "version": version}
                continue
            if data["type"] == "error":
                self.failures.append(str(data))
            elif data["version"] > version:
                return data

    async def probe(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=120) as client:
            while not self.stop:
                if self.random_game is not None:
                    started = time.perf_counter()
                    answer = await client.get(f"/api/games/{self.random_game}")
                    self.gets.append(time.perf_counter() - started)
                    if answer.status_code != 200:
                        self.failures.append(f"GET: {answer.status_code}")
                await asyncio.sleep(self.interval)

    async def run(self, seed: int) -> None:
        heavy = self.agent
        tasks = []
        if heavy is not None:
            tasks = [
                asyncio.create_task(self.play(index, heavy, random.Random(seed * 100 + index), False))
                for index in range(self.clients)
            ]
        await asyncio.sleep(1.0 if tasks else 0.0)  # the expensive players are thinking by now
        tasks.append(asyncio.create_task(self.play(99, "random", random.Random(seed), True)))
        tasks.append(asyncio.create_task(self.probe()))
        done, _ = await asyncio.wait(tasks, timeout=self.seconds, return_when=asyncio.FIRST_EXCEPTION)
        self.stop = True
        for task in done:
            if task.exception() is not None:
                for other in tasks:
                    other.cancel()
                raise task.exception()  # type: ignore[misc]
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            task.cancel()


def figures(values: list[float]) -> str:
    if not values:
        return "- | - | - | 0"
    ms = [value * 1000 for value in values]
    return f"{percentile(ms, 0.5):.0f} | {percentile(ms, 0.99):.0f} | {max(ms):.0f} | {len(ms)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", action="append", help="the expensive computer player (repeatable)")
    parser.add_argument("--clients", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=0.05, help="pause between the prober's GETs")
    parser.add_argument("--pause", type=float, default=0.2, help="the random game's player thinks this long")
    parser.add_argument("--no-baseline", action="store_true", help="skip the run with no expensive clients")
    parser.add_argument("--database", help="database URL for the server; a fresh SQLite file by default")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    agents: list[str | None] = [None] if not args.no_baseline else []
    agents += args.agent or ["hard"]
    print(
        "| expensive clients | against | random's answer p50 / p99 / max (ms) | answers "
        "| GET p50 / p99 / max (ms) | GETs | expensive replies |\n|---|---|---|---:|---|---:|---:|",
        flush=True,
    )
    for agent in agents:
        with running_server(args.database, args.workers) as (base, _process, _folder):
            bench = Bench(base, agent, args.clients, args.seconds, args.interval, args.pause)
            try:
                asyncio.run(bench.run(args.seed))
            except RefusedError as refusal:
                print(f"| {args.clients} | {agent} | refused: {refusal} | | | | |", flush=True)
                continue
        answer, get = figures(bench.answers).rsplit(" | ", 1), figures(bench.gets).rsplit(" | ", 1)
        print(
            f"| {args.clients if agent else 0} | {agent or '(none)'} | {answer[0].replace(' | ', ' / ')} "
            f"| {answer[1]} | {get[0].replace(' | ', ' / ')} | {get[1]} | {bench.heavy_replies} |",
            flush=True,
        )
        if bench.failures:
            print(f"  errors: {bench.failures[:5]}", flush=True)


if __name__ == "__main__":
    main()
