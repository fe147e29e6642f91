"""Does the server's memory stay flat in a long run? Its RSS after 5,000 and after 50,000 moves.

It starts ``shogames serve`` (a fresh SQLite file, or ``--database``; ``--workers`` as in load.py) and keeps
``--concurrent`` hot-seat games going over WebSockets, the four games in turn: every move is a uniformly
random legal move, and a game that ends, or reaches ``--game-moves`` moves and is resigned, is replaced by
a new one, so many games are started and finished. Dice and tosses thrown by the server are not counted as
moves. The server's resident memory (every process of the server, from Linux's /proc) is read every
``--every`` moves; the target is an RSS after the last checkpoint within 20% of the RSS after the first.

Usage: python benchmarks/memory.py [--checkpoints 5000 50000] [--concurrent 20] [--game-moves 150]
       [--every 5000] [--database URL] [--workers 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time

import httpx
import websockets
from server_run import rss_bytes, running_server

GAMES = [("shobu", ""), ("shoo", ""), ("sho", "players=2"), ("shogammon", "")]
MIB = 1024 * 1024


class Load:
    """The moves played so far, the games started and finished, and the RSS readings."""

    def __init__(self, base: str, session: int, marks: list[int], game_moves: int) -> None:
        self.base = base
        self.session = session
        self.marks = sorted(marks)
        self.last = self.marks[-1]
        self.game_moves = game_moves
        self.moves = 0
        self.started = 0
        self.finished = 0
        self.readings: list[tuple[int, int, int, int, float]] = []
        self.clock = time.perf_counter()

    def count_move(self) -> None:
        self.moves += 1
        if self.marks and self.moves >= self.marks[0]:
            self.marks.pop(0)
            elapsed, rss = time.perf_counter() - self.clock, rss_bytes(self.session)
            self.readings.append((self.moves, self.started, self.finished, rss, elapsed))
            print(f"{self.moves} moves: RSS {rss / MIB:.1f} MiB ({elapsed:.0f} s)", flush=True)

    async def one_game(self, client: httpx.AsyncClient, index: int, rng: random.Random) -> None:
        game_id, settings = GAMES[index % len(GAMES)]
        body = {"game": game_id, "settings": settings, "mode": "hotseat", "seats": [{"kind": "person"}] * 2}
        answer = await client.post("/api/games", json=body)
        answer.raise_for_status()
        created = answer.json()
        self.started += 1
        tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
        uri = self.base.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
        async with websockets.connect(uri, max_size=2**24, open_timeout=60) as socket:
            snap = json.loads(await socket.recv())
            played = 0
            while snap["status"] == "active" and self.moves < self.last:
                if not snap["legal"]:  # the dice: the server throws them at once
                    snap = json.loads(await socket.recv())
                    continue
                token = tokens[snap["to_move"]]
                resigning = played >= self.game_moves
                if resigning:
                    await socket.send(json.dumps({"type": "resign", "token": token}))
                else:
                    move = rng.choice(snap["legal"])["text"]
                    message = {"type": "move", "move": move, "token": token, "version": snap["version"]}
                    await socket.send(json.dumps(message))
                version = snap["version"]
                while True:
                    data = json.loads(await socket.recv())
                    if data["type"] == "error":
                        raise RuntimeError(f"refused: {data}")
                    if data["version"] > version:
                        snap = data
                        break
                if not resigning:
                    played += 1
                    self.count_move()
            if snap["status"] != "active":
                self.finished += 1

    async def player(self, slot: int, seed: int) -> None:
        rng = random.Random(seed * 1000 + slot)
        index = slot
        async with httpx.AsyncClient(base_url=self.base, timeout=60) as client:
            while self.moves < self.last:
                await self.one_game(client, index, rng)
                index += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, nargs=2, default=[5000, 50000])
    parser.add_argument("--every", type=int, default=5000, help="read the RSS every this many moves too")
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--game-moves", type=int, default=150, help="resign a game after this many moves")
    parser.add_argument("--database", help="database URL for the server; a fresh SQLite file by default")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    first, last = args.checkpoints
    marks = sorted({*range(args.every, last + 1, args.every), first, last})
    with running_server(args.database, args.workers) as (base, process, _folder):
        at_start = rss_bytes(process.pid)
        load = Load(base, process.pid, marks, args.game_moves)

        async def everyone() -> None:
            await asyncio.gather(*(load.player(slot, args.seed) for slot in range(args.concurrent)))

        asyncio.run(everyone())
    readings = {reading[0]: reading for reading in load.readings}
    print(f"\nRSS at start-up: {at_start / MIB:.1f} MiB\n")
    print("| moves | games started | games finished | RSS (MiB) | time (s) |\n|---:|---:|---:|---:|---:|")
    for moves, started, finished, rss, elapsed in load.readings:
        print(f"| {moves:,} | {started} | {finished} | {rss / MIB:.1f} | {elapsed:.0f} |")
    ratio = readings[last][3] / readings[first][3]
    verdict = "within" if abs(ratio - 1) <= 0.2 else "NOT within"
    print(f"\nRSS after {last:,} moves / RSS after {first:,} moves = {ratio:.2f} ({verdict} 20%)")


if __name__ == "__main__":
    main()
