"""Does anyone's engine work hold back another player's computer opponent? (Server II's measure.)

Starts ``shogames serve`` (a fresh SQLite file, or ``--database``) and runs, for ``--seconds``, seven noisy
clients, each with an address of its own (``X-Forwarded-For``, which the server trusts from loopback),
doing the most expensive engine work the server's limits allow, in turn by client number:

- **analyses**: ``POST /api/analysis`` of long records (300-ply Shoo games between random players), back to
  back, two at a time (a client's share of engine jobs);
- **hints**: a hot-seat game of each game in turn, ``POST /api/games/ID/hint`` two at a time, back to back;
- **replays** of long records (``POST /api/records/replay``), two at a time;
- **computer games**: games between two computer players at the largest budget the limits allow
  (``--heavy``), a new one when one ends, several at once.

An eighth client (its own address) plays against ``easy`` and then ``hard`` (``--victim``, repeatable), one
game after another, moving at random after a short pause: its **answer time** is from the snapshot that
shows its own move to the one that shows the computer's reply (target: p99 under 1 s), and every reply
that came with a notice (a random move played for a computer that failed or ran out of time) is counted
(target: none). A prober sends ``GET /api/games/ID`` one after another: its **GET latency** (target: p99
under 100 ms). A baseline run with no noisy clients comes first (``--no-baseline`` skips it).

Usage: python benchmarks/engine_fairness.py [--seconds 60] [--victim easy --victim hard]
       [--heavy SPEC] [--clients 7] [--database URL]
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

import shogames
from shogames.agents import make_agent
from shogames.match import play_game
from shogames.records import write_record

GAMES = [("shobu", ""), ("shoo", ""), ("sho", "players=2"), ("shogammon", "")]
ROLES = ["analyses", "hints", "computer games", "replays"]


def long_record(seed: int, plies: int = 300) -> str:
    """A record of a Shoo game between random players, cut to at most ``plies`` plies by its length cap."""
    game = shogames.make("shoo", max_turns=plies)
    _, record = play_game(
        game, [make_agent("random", seed=seed), make_agent("random", seed=seed + 1)], seed=seed
    )
    return write_record(record)


class Fairness:
    """One run: the noisy clients, the victim, the prober and what they measured."""

    def __init__(self, base: str, args: argparse.Namespace, noisy: int) -> None:
        self.base = base
        self.args = args
        self.noisy = noisy
        self.stop = False
        self.answers: dict[str, list[float]] = {victim: [] for victim in args.victim}
        self.notices = 0
        self.gets: list[float] = []
        self.work: dict[str, int] = dict.fromkeys(ROLES, 0)
        self.refused: dict[int, int] = {}
        self.reasons: dict[int, str] = {}  # the last refusal of each status, to say why
        self.victim_game: str | None = None
        self.records = [long_record(seed) for seed in range(3)] if noisy else []

    def client(self, number: int) -> httpx.AsyncClient:
        headers = {"X-Forwarded-For": f"198.51.100.{number + 1}"}
        return httpx.AsyncClient(base_url=self.base, timeout=300, headers=headers)

    async def create(
        self, http: httpx.AsyncClient, game: str, settings: str, seats: list[Any]
    ) -> dict[str, Any]:
        mode = "computer" if any(seat["kind"] == "ai" for seat in seats) else "hotseat"
        answer = await http.post(
            "/api/games", json={"game": game, "settings": settings, "mode": mode, "seats": seats}
        )
        answer.raise_for_status()
        created: dict[str, Any] = answer.json()
        return created

    async def noisy_client(self, number: int) -> None:
        role = ROLES[number % len(ROLES)]
        async with self.client(number) as http:
            if role == "computer games":
                await asyncio.gather(*(self.computer_games(http, number * 10 + k) for k in range(4)))
            else:
                await asyncio.gather(*(self.loop(http, role, number, lane) for lane in range(2)))

    async def loop(self, http: httpx.AsyncClient, role: str, number: int, lane: int) -> None:
        rng = random.Random(number * 100 + lane)
        while not self.stop:
            if role == "analyses":
                answer = await http.post("/api/analysis", json={"record": rng.choice(self.records)})
            elif role == "replays":
                answer = await http.post("/api/records/replay", json={"record": rng.choice(self.records)})
            else:
                game, settings = GAMES[rng.randrange(len(GAMES))]
                created = await self.create(http, game, settings, [{"kind": "person"}, {"kind": "person"}])
                snap = (await http.get(f"/api/games/{created['id']}")).json()
                while snap["status"] == "active" and snap["to_move"] not in (0, 1):  # the dice come first
                    await asyncio.sleep(0.05)
                    snap = (await http.get(f"/api/games/{created['id']}")).json()
                token = created["seats"][snap["to_move"]]["link"].split("#token=")[1]
                answer = await http.post(f"/api/games/{created['id']}/hint", json={"token": token})
            if answer.status_code == 200:
                self.work[role] += 1
            else:
                self.refused[answer.status_code] = self.refused.get(answer.status_code, 0) + 1
                self.reasons[answer.status_code] = f"{role}: {answer.text[:160]}"
                await asyncio.sleep(1.0)

    async def computer_games(self, http: httpx.AsyncClient, index: int) -> None:
        while not self.stop:
            game, settings = GAMES[index % len(GAMES)]
            index += 1
            seat = {"kind": "ai", "agent": self.args.heavy}
            created = await self.create(http, game, settings, [seat, dict(seat)])
            while not self.stop:
                snap = (await http.get(f"/api/games/{created['id']}")).json()
                if snap["status"] != "active":
                    self.work["computer games"] += 1
                    break
                await asyncio.sleep(1.0)

    async def victim(self) -> None:
        rng = random.Random(7)
        async with self.client(200) as http:
            for level in self.args.victim:
                until = time.monotonic() + self.args.seconds / len(self.args.victim)
                while not self.stop and time.monotonic() < until:
                    await self.victim_game_against(http, level, rng, until)

    async def victim_game_against(
        self, http: httpx.AsyncClient, level: str, rng: random.Random, until: float
    ) -> None:
        game, settings = ("shobu", "")
        created = await self.create(
            http, game, settings, [{"kind": "person"}, {"kind": "ai", "agent": level}]
        )
        self.victim_game = created["id"]
        token = created["seats"][0]["link"].split("#token=")[1]
        uri = self.base.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
        headers = {"X-Forwarded-For": "198.51.100.201"}
        async with websockets.connect(
            uri, max_size=2**24, open_timeout=120, additional_headers=headers
        ) as socket:
            snap = json.loads(await socket.recv())
            while not self.stop and time.monotonic() < until and snap["status"] == "active":
                if snap["to_move"] != 0 or not snap["legal"]:
                    snap = await self.next_snapshot(socket, snap["version"])
                    continue
                await asyncio.sleep(0.2)  # a person thinks a little
                move = rng.choice(snap["legal"])["text"]
                await socket.send(
                    json.dumps({"type": "move", "move": move, "token": token, "version": snap["version"]})
                )
                snap = await self.next_snapshot(socket, snap["version"])
                shown = time.perf_counter()
                while not self.stop and snap["status"] == "active" and snap["to_move"] != 0:
                    snap = await self.next_snapshot(socket, snap["version"])
                if not self.stop and snap.get("ply", 0) > 1:
                    self.answers[level].append(time.perf_counter() - shown)
                    self.notices += bool(snap.get("notice"))

    async def next_snapshot(self, socket: Any, version: int) -> dict[str, Any]:
        while True:
            try:
                data: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), timeout=1))
            except TimeoutError:
                if self.stop:
                    return {"status": "stopped", "to_move": None, "version": version}
                continue
            if data.get("type") == "game" and data["version"] > version:
                return data

    async def probe(self) -> None:
        async with self.client(250) as http:
            while not self.stop:
                if self.victim_game is not None:
                    started = time.perf_counter()
                    await http.get(f"/api/games/{self.victim_game}")
                    self.gets.append(time.perf_counter() - started)
                await asyncio.sleep(0.05)

    async def run(self) -> None:
        tasks = [asyncio.create_task(self.noisy_client(number)) for number in range(self.noisy)]
        await asyncio.sleep(2.0 if tasks else 0.0)  # the noisy clients are busy by now
        tasks += [asyncio.create_task(self.victim()), asyncio.create_task(self.probe())]
        done, _ = await asyncio.wait(tasks, timeout=self.args.seconds, return_when=asyncio.FIRST_EXCEPTION)
        self.stop = True
        for task in done:
            if task.exception() is not None:
                for other in tasks:
                    other.cancel()
                raise task.exception()  # type: ignore[misc]
        await asyncio.wait(tasks, timeout=60)
        for task in tasks:
            task.cancel()


def figures(values: list[float]) -> str:
    if not values:
        return "- / - / - | 0"
    ms = [value * 1000 for value in values]
    return f"{percentile(ms, 0.5):.0f} / {percentile(ms, 0.99):.0f} / {max(ms):.0f} | {len(ms)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--victim", action="append", help="the eighth client's opponents (repeatable)")
    parser.add_argument("--heavy", default="alphabeta:depth=8,seconds=5", help="the computer games' players")
    parser.add_argument("--clients", type=int, default=7)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--database", help="database URL for the server; a fresh SQLite file by default")
    args = parser.parse_args()
    args.victim = args.victim or ["easy", "hard"]
    print(
        "| noisy clients | against | answer p50 / p99 / max (ms) | answers | random moves "
        "| GET p50 / p99 / max (ms) | GETs | noisy work done | refused |\n"
        "|---|---|---|---:|---:|---|---:|---|---|",
        flush=True,
    )
    for noisy in ([0] if not args.no_baseline else []) + [args.clients]:
        with running_server(args.database, 1) as (base, _process, _folder):
            fairness = Fairness(base, args, noisy)
            asyncio.run(fairness.run())
        work = ", ".join(f"{count} {role}" for role, count in fairness.work.items() if count)
        refused = ", ".join(f"{count}x {status}" for status, count in sorted(fairness.refused.items()))
        for status, reason in sorted(fairness.reasons.items()):
            print(f"  last {status}: {reason}", flush=True)
        get = figures(fairness.gets).split(" | ")
        for level, answers in fairness.answers.items():
            answer = figures(answers).split(" | ")
            print(
                f"| {noisy} | {level} | {answer[0]} | {answer[1]} | {fairness.notices} | {get[0]} | {get[1]} "
                f"| {work or '-'} | {refused or '-'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
