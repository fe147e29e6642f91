"""A bounded load test of the web app on loopback: concurrent games of random moves over WebSockets.

It starts ``shogames serve`` on a fresh SQLite file (or uses ``--url`` of a running server), creates
``--games`` hot-seat games (the four games in turn), opens one WebSocket per game, and in every game plays
uniformly random legal moves, each sent as a ``move`` message with the mover's token and the version seen.
A move's latency is the time from sending it to receiving the snapshot that contains it; every move is
committed to the database before it is announced, so this is the full path a player waits for. Each game
plays at most ``--moves`` moves (dice and tosses thrown by the server are not counted) or until it ends.

Usage: python benchmarks/load.py [--games 50] [--moves 40] [--seed 1] [--url http://127.0.0.1:8000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

GAMES = [("shobu", ""), ("shoo", ""), ("sho", "players=2"), ("shogammon", "")]


async def play_one(base: str, index: int, moves: int, rng: random.Random, latencies: list[float]) -> int:
    game_id, settings = GAMES[index % len(GAMES)]
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        answer = await client.post(
            "/api/games",
            json={
                "game": game_id,
                "settings": settings,
                "mode": "hotseat",
                "seats": [{"kind": "person"}] * 2,
            },
        )
        answer.raise_for_status()
        created = answer.json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    uri = base.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
    errors = 0
    async with websockets.connect(uri, max_size=2**24) as socket:
        snap = json.loads(await socket.recv())
        for _ in range(moves):
            if snap["status"] != "active" or not snap["legal"]:
                break
            move = rng.choice(snap["legal"])["text"]
            sent_version = snap["version"]
            message = {
                "type": "move",
                "move": move,
                "token": tokens[snap["to_move"]],
                "version": sent_version,
            }
            started = time.perf_counter()
            await socket.send(json.dumps(message))
            while True:
                data = json.loads(await socket.recv())
                if data["type"] == "error":
                    errors += 1
                    break
                if data["version"] > sent_version:
                    latencies.append(time.perf_counter() - started)
                    snap = data
                    break
            # Dice and tosses follow at once: take the latest snapshot before choosing again.
            while snap["status"] == "active" and not snap["legal"]:
                snap = json.loads(await socket.recv())
    return errors


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def run(base: str, games: int, moves: int, seed: int) -> None:
    latencies: list[float] = []
    started = time.perf_counter()
    errors = await asyncio.gather(
        *(
            play_one(base, index, moves, random.Random(seed * 1000 + index), latencies)
            for index in range(games)
        )
    )
    elapsed = time.perf_counter() - started
    ms = [value * 1000 for value in latencies]
    print(f"| concurrent games | {games} |")
    print(f"| moves played | {len(ms)} |")
    print(f"| refused moves | {sum(errors)} |")
    print(f"| wall time (s) | {elapsed:.1f} |")
    print(f"| moves/s | {len(ms) / elapsed:.1f} |")
    for name, share in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
        print(f"| latency {name} (ms) | {percentile(ms, share):.1f} |")
    print(f"| latency max (ms) | {max(ms):.1f} |")
    print(f"| latency mean (ms) | {statistics.fmean(ms):.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a running server; by default one is started on a fresh SQLite file")
    args = parser.parse_args()
    if args.url:
        asyncio.run(run(args.url.rstrip("/"), args.games, args.moves, args.seed))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from server_process import free_port, start_server

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server: subprocess.Popen[bytes] = start_server(
            f"sqlite+aiosqlite:///{folder}/load.db", port, Path(folder), extra=["--no-quotas"]
        )
        try:
            asyncio.run(run(f"http://127.0.0.1:{port}", args.games, args.moves, args.seed))
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
