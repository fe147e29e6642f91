"""A bounded load test of the web app on loopback: concurrent games of random moves over WebSockets.

For each number of games in ``--games`` (50 and 200 by default) it starts ``shogames serve`` afresh, with
``--workers N`` when ``--workers`` is more than 1, on a new SQLite file or on ``--database`` (a PostgreSQL
URL, say; its games are left there), or uses ``--url`` of a server already running. It creates that many
hot-seat games (the four games in turn), opens one WebSocket per game, and in every game plays uniformly
random legal moves, each sent as a ``move`` message with the mover's token and the version seen. A move's
latency is the time from sending it to receiving the snapshot that contains it; every move is committed to
the database before it is announced, so this is the full path a player waits for. Each game plays at most
``--moves`` moves (dice and tosses thrown by the server are not counted) or until it ends.

It prints one Markdown table row per run: moves refused, WebSockets the server dropped, moves/s, latency
p50/p90/p99/max, and the server's CPU time per move (every process of the server, read from Linux's /proc;
not with ``--url``). ``--log FILE`` keeps the server's log.

Usage: python benchmarks/load.py [--games 50 200] [--moves 40] [--workers 1]
       [--database postgresql+asyncpg://...] [--seed 1] [--url http://127.0.0.1:8000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import time
from pathlib import Path

import httpx
import websockets
from server_run import cpu_seconds, percentile, running_server, serve_has_workers

GAMES = [("shobu", ""), ("shoo", ""), ("sho", "players=2"), ("shogammon", "")]
DROPPED: list[str] = []
"""The WebSockets the server closed on a game before its moves were played (with the close reason)."""


async def play_one(base: str, index: int, moves: int, rng: random.Random, latencies: list[float]) -> int:
    game_id, settings = GAMES[index % len(GAMES)]
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
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
    try:
        errors = await play_over(uri, tokens, moves, rng, latencies)
    except websockets.ConnectionClosedError as closed:
        DROPPED.append(f"{created['id']}: {closed}")
    return errors


async def play_over(
    uri: str, tokens: list[str], moves: int, rng: random.Random, latencies: list[float]
) -> int:
    """Play one game's moves over its WebSocket; returns the number of moves refused."""
    errors = 0
    async with websockets.connect(uri, max_size=2**24, open_timeout=120) as socket:
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


async def run(base: str, games: int, moves: int, seed: int) -> tuple[list[float], int, float]:
    """Play the games; returns the latencies (s), the refused moves and the wall time."""
    latencies: list[float] = []
    DROPPED.clear()
    started = time.perf_counter()
    errors = await asyncio.gather(
        *(
            play_one(base, index, moves, random.Random(seed * 1000 + index), latencies)
            for index in range(games)
        )
    )
    return latencies, sum(errors), time.perf_counter() - started


HEADER = (
    "| workers | database | games | moves | refused | dropped | moves/s | p50 (ms) | p90 (ms) | p99 (ms) "
    "| max (ms) | server CPU per move (ms) |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def row(workers: int, database: str, games: int, result: tuple[list[float], int, float], cpu: float) -> str:
    latencies, refused, elapsed = result
    ms = [value * 1000 for value in latencies]
    figures = [percentile(ms, share) for share in (0.5, 0.9, 0.99)] + [max(ms)]
    per_move = "-" if math.isnan(cpu) else f"{cpu * 1000 / len(ms):.1f}"
    return (
        f"| {workers} | {database} | {games} | {len(ms)} | {refused} | {len(DROPPED)} "
        f"| {len(ms) / elapsed:.1f} | " + " | ".join(f"{value:.1f}" for value in figures) + f" | {per_move} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (serve --workers)")
    parser.add_argument("--database", help="database URL for the server; a fresh SQLite file by default")
    parser.add_argument("--url", help="a running server to load instead of starting one")
    parser.add_argument("--log", type=Path, help="keep the server's log here (appended)")
    args = parser.parse_args()
    kind = "postgresql" if args.database and args.database.startswith("postgresql") else "sqlite"
    if args.workers != 1 and not args.url and not serve_has_workers():
        raise SystemExit(
            f"this `shogames serve` has no --workers option: run with --workers 1, not {args.workers}"
        )
    print(HEADER, flush=True)
    for games in args.games:
        if args.url:
            result = asyncio.run(run(args.url.rstrip("/"), games, args.moves, args.seed))
            print(row(args.workers, "given server", games, result, float("nan")), flush=True)
            continue
        with running_server(args.database, args.workers, keep_log=args.log) as (base, process, _folder):
            before = cpu_seconds(process.pid)
            result = asyncio.run(run(base, games, args.moves, args.seed))
            cpu = cpu_seconds(process.pid) - before
        print(row(args.workers, kind, games, result, cpu), flush=True)
        for dropped in DROPPED[:5]:
            print(f"  dropped: {dropped}", flush=True)


if __name__ == "__main__":
    main()
