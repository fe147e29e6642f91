"""The server killed (``kill -9``) at random moments while games of all four games are played, many times.

A real server process (``shogames serve``) runs on SQLite and on PostgreSQL. Eight hot-seat games are played
at once over HTTP, two of each game, most of them with dice or Shoo's toss: every player picks a random legal
move from the snapshot's ``legal`` list (a seeded generator per game), and now and then a game is resigned
and a new one started (so Shoo's toss at creation is in flight too). At random moments the server is killed
with SIGKILL and started again; after every restart:

- **0 lost**: every move the server acknowledged (a 200 answer whose snapshot lists it) is still stored, at
  its ply, and every acknowledged game and resignation is still there;
- **0 stuck**: within a few seconds every active game (those the players know and those the server lists)
  has a seat to move with a legal move, never the dice or the toss forever;
- no answer is a 500.

The run stops at the first restart after which something was lost or stuck (the test has failed by then).

The moments of the kills come from a seeded generator; what is in flight at each one depends on timing, so
the run differs a little each time. It is bounded: a fixed number of kills, each after at most a couple of
seconds of play, and a deadline for the whole run.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx

from server_process import free_port, kill_server, start_server

SLOTS = [
    ("shobu", ""),
    ("shoo", ""),
    ("sho", "players=2"),
    ("shogammon", ""),
    ("sho", "players=3"),
    ("shoo", ""),
    ("shogammon", ""),
    ("sho", "players=4"),
]
"""The games played at once: (game, settings). Sho and Shogammon throw dice; Shoo tosses for first move."""

KILLS = 8
"""Kills per database."""

PLAY_SECONDS = (0.3, 1.5)
"""How long the games are played between a restart and the next kill (uniformly random)."""

STUCK_SECONDS = 5.0
"""How long an active game may wait, after a restart, before a seat is to move."""

DEADLINE_SECONDS = 120.0
"""No more kills after this long (the checks after the last restart still run)."""

SEED = 20261124


@dataclasses.dataclass
class Known:
    """What the server acknowledged about one game."""

    game: str
    settings: str
    tokens: list[str]
    moves: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    finished: bool = False


@dataclasses.dataclass
class Tally:
    """What the run saw."""

    acknowledged_moves: int = 0
    games: int = 0
    kills: int = 0
    lost: list[str] = dataclasses.field(default_factory=list)
    stuck: dict[str, str] = dataclasses.field(default_factory=dict)
    errors: list[str] = dataclasses.field(default_factory=list)


def moves_of(snap: dict[str, Any]) -> list[tuple[int, str]]:
    return [(int(move["ply"]), str(move["text"])) for move in snap["moves"]]


def can_go_on(snap: dict[str, Any]) -> bool:
    """A finished game, or an active one with a seat (not chance) to move and a legal move for it."""
    if snap["status"] != "active":
        return True
    return snap["to_move"] is not None and snap["to_move"] >= 0 and bool(snap["legal"])


class Run:
    """One database's run: the server process, the players and the checks after each restart."""

    def __init__(self, url: str, folder: Path) -> None:
        self.url = url
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.rng = random.Random(SEED)
        self.known: dict[str, Known] = {}
        self.tally = Tally()
        self.up = asyncio.Event()
        self.done = False
        self.server: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        # --no-warm: what is killed and checked here is the database's state; warming the kernels and the
        # engine's workers at each of the 16 restarts would spend the test's time budget on start-ups.
        self.server = await asyncio.to_thread(
            start_server, self.url, self.port, self.folder, options=["--no-warm"]
        )

    async def kill(self) -> None:
        self.up.clear()
        assert self.server is not None
        await asyncio.to_thread(kill_server, self.server)
        self.server = None
        self.tally.kills += 1

    def unexpected(self, response: httpx.Response, what: str) -> None:
        if response.status_code >= 500:
            self.tally.errors.append(f"{what}: {response.status_code} {response.text[:200]}")

    async def create(self, client: httpx.AsyncClient, game: str, settings: str) -> str | None:
        players = int(settings.split("=")[1]) if settings.startswith("players=") else 2
        seats = [{"kind": "person"}] * players
        body = {"game": game, "settings": settings, "mode": "hotseat", "seats": seats}
        response = await client.post("/api/games", json=body)
        if response.status_code != 200:
            self.unexpected(response, f"creating {game}")
            return None
        created = response.json()
        tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
        self.known[created["id"]] = Known(game, settings, tokens)
        self.tally.games += 1
        return str(created["id"])

    def acknowledge(self, game_id: str, snap: dict[str, Any]) -> None:
        known = self.known[game_id]
        moves = moves_of(snap)
        if len(moves) > len(known.moves):
            self.tally.acknowledged_moves += len(moves) - len(known.moves)
            known.moves = moves
        if snap["status"] != "active":
            known.finished = True

    async def player(self, slot: int, client: httpx.AsyncClient) -> None:
        """Play one slot's games: random legal moves, a resignation now and then, a new game after each."""
        game, settings = SLOTS[slot]
        rng = random.Random(SEED * 100 + slot)
        game_id: str | None = None
        moves_left = 0
        while not self.done:
            await self.up.wait()
            try:
                if game_id is None or self.known[game_id].finished or game_id in self.tally.stuck:
                    game_id = await self.create(client, game, settings)
                    moves_left = rng.randint(15, 60)
                    continue
                known = self.known[game_id]
                response = await client.get(f"/api/games/{game_id}")
                if response.status_code != 200:
                    self.unexpected(response, f"reading {game_id}")
                    await asyncio.sleep(0.05)
                    continue
                snap = response.json()
                self.acknowledge(game_id, snap)
                if snap["status"] != "active":
                    continue
                if not can_go_on(snap):
                    await asyncio.sleep(0.05)  # the dice are being thrown (or are stuck: the checks see it)
                    continue
                token = known.tokens[snap["to_move"]]
                if moves_left <= 0:
                    response = await client.post(f"/api/games/{game_id}/resign", json={"token": token})
                else:
                    move = rng.choice(snap["legal"])["text"]
                    body = {"move": move, "token": token, "version": snap["version"]}
                    response = await client.post(f"/api/games/{game_id}/moves", json=body)
                if response.status_code == 200:
                    self.acknowledge(game_id, response.json())
                    moves_left -= 1
                else:
                    self.unexpected(response, f"playing in {game_id}")
            except httpx.TransportError:
                await asyncio.sleep(0.05)  # the server is down: wait for it to come back

    async def check(self, client: httpx.AsyncClient) -> None:
        """After a restart: nothing acknowledged is lost, and every active game goes on within a while."""
        waiting: set[str] = set()
        for game_id, known in list(self.known.items()):
            response = await client.get(f"/api/games/{game_id}")
            if response.status_code != 200:
                self.tally.lost.append(f"game {game_id} ({known.game}): {response.status_code}")
                continue
            snap = response.json()
            stored = moves_of(snap)
            if stored[: len(known.moves)] != known.moves:
                missing = [move for move in known.moves if move not in stored]
                self.tally.lost.append(f"{known.game} {game_id}: acknowledged moves missing {missing[:5]}")
            if known.finished and snap["status"] == "active":
                self.tally.lost.append(f"{known.game} {game_id}: its acknowledged end was lost")
            if game_id not in self.tally.stuck and not can_go_on(snap):
                waiting.add(game_id)
        listed = await client.get("/api/games", params={"status": "active"})
        self.unexpected(listed, "listing games")
        if listed.status_code == 200:
            waiting |= {entry["id"] for entry in listed.json()["games"]} - set(self.tally.stuck)
        deadline = time.monotonic() + STUCK_SECONDS
        last: dict[str, dict[str, Any]] = {}
        while waiting:
            for game_id in list(waiting):
                response = await client.get(f"/api/games/{game_id}")
                self.unexpected(response, f"reading {game_id}")
                if response.status_code == 200:
                    last[game_id] = response.json()
                    if can_go_on(last[game_id]):
                        waiting.discard(game_id)
            if not waiting or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        for game_id in waiting:
            snap = last.get(game_id, {})
            name, lately = snap.get("game", {}).get("id"), [m["text"] for m in snap.get("moves", [])[-2:]]
            self.tally.stuck[game_id] = (
                f"{name} {game_id} after kill {self.tally.kills}: to_move {snap.get('to_move')}, "
                f"ply {snap.get('ply')}, last moves {lately}"
            )

    async def main(self) -> None:
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as client:
            await self.start()
            self.up.set()
            players = [asyncio.create_task(self.player(slot, client)) for slot in range(len(SLOTS))]
            try:
                for _ in range(KILLS):
                    if time.monotonic() - started > DEADLINE_SECONDS:
                        break
                    await asyncio.sleep(self.rng.uniform(*PLAY_SECONDS))
                    await self.kill()
                    await self.start()  # the players wait (self.up is clear) while the checks run
                    await self.check(client)
                    if self.tally.lost or self.tally.stuck:
                        break  # the test fails: no need to spend CI time on more kills
                    self.up.set()
            finally:
                self.done = True
                self.up.set()
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
                if self.server is not None:
                    await asyncio.to_thread(kill_server, self.server)


def test_killed_servers_lose_no_acknowledged_move_and_leave_no_game_stuck(
    database_url: str, tmp_path: Path
) -> None:
    run = Run(database_url, tmp_path)
    asyncio.run(run.main())
    tally = run.tally
    summary = (
        f"{tally.kills} kills, {tally.games} games, {tally.acknowledged_moves} acknowledged moves; "
        f"{len(tally.lost)} lost, {len(tally.stuck)} stuck, {len(tally.errors)} server errors"
    )
    print(summary)
    assert not tally.lost, f"{summary}\nlost: {tally.lost}"
    assert not tally.errors, f"{summary}\nserver errors: {tally.errors[:10]}"
    assert not tally.stuck, f"{summary}\nstuck games:\n" + "\n".join(tally.stuck.values())
    assert tally.kills == KILLS, summary
    assert tally.acknowledged_moves > 100, f"too little was played to tell: {summary}"


def test_the_check_tells_a_stuck_game() -> None:
    """The stuck check itself: chance to move is stuck, a seat with a move is not, a finished game is not."""
    assert not can_go_on({"status": "active", "to_move": -1, "legal": []})
    assert not can_go_on({"status": "active", "to_move": 0, "legal": []})
    assert can_go_on({"status": "active", "to_move": 1, "legal": [{"text": "x"}]})
    assert can_go_on({"status": "finished", "to_move": None, "legal": []})
