"""A seeded generator of hostile requests for every HTTP endpoint and WebSocket message of the server.

Used by ``tests/test_server_fuzz.py`` (in-process) and ``benchmarks/fuzz_server.py`` (a real server on
loopback). Each case is built from real ids, tokens, moves, positions and records mixed with junk:
malformed JSON, wrong types, huge numbers, unicode, deep nesting, unknown ids, bad tokens, moves, settings,
positions and agent specs.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

import shogames
from shogames.server.limits import MessageError, decode_message

GAMES = ("shobu", "shoo", "sho", "shogammon")

STRINGS = [
    "",
    " ",
    "é",
    "ß",
    "²",
    "٣",
    "🀄",
    "\u0000",
    "\u202e",
    "\ufeff",
    "\ud800",
    "\n",
    "../../etc/passwd",
    "%00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "null",
    "NaN",
    "-1",
    "--1",
    "9" * 5000,
    "x" * 300,
    "é" * 100,
    "a=b=c",
    "max_turns=",
    "players=99",
    "players=0",
    "max_turns=" + "9" * 5000,
    "max_turns=-1",
    "shells=1e9",
]

BAD_SPECS = [
    "greedy:noise=2",
    "greedy:noise=-1",
    "greedy:noise=nan",
    "alphabeta:depth=0",
    "alphabeta:depth=-5",
    "alphabeta:depth=x",
    "mcts:iterations=-1",
    "mcts:iterations=0",
    "mcts:seconds=-1",
    "mcts:seconds=0",
    "mcts:nothing=1",
    "random:seed=1",
    "grandmaster",
    "easy:depth=1",
    ":",
    "mcts:",
    "mcts:=",
    "mcts:iterations=" + "9" * 5000,
]
GOOD_SPECS = ["random"]  # cheap: the fuzz is about input, not about thinking

NUMBERS: list[Any] = [0, -1, 1, 2**31, 2**63, -(2**63), 10**30, 0.5, -0.0, 1e308, -1e308, True, False]
RAW_NUMBERS = ["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "9" * 5000, "1" + "0" * 400, "0x10", "01"]


@dataclass
class Target:
    """What the fuzz knows of the server: games with their tokens and legal moves, records to replay."""

    ids: list[str] = field(default_factory=list)
    tokens: dict[str, list[str]] = field(default_factory=dict)
    moves: dict[str, list[str]] = field(default_factory=dict)
    positions: list[str] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    lessons: dict[str, list[str]] = field(default_factory=dict)


def q(value: Any, safe: str = "") -> str:
    """``value`` quoted for a URL, lone surrogates as their (invalid) UTF-8 bytes."""
    return quote(str(value), safe=safe, errors="surrogatepass")


def start_positions() -> list[str]:
    """The start position of every game, as text."""
    return [shogames.make(game).new_initial_state().to_text() for game in GAMES]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: numbers at their edges, odd strings, lists and objects."""
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return rng.choice(NUMBERS)
    if kind == 1:
        return rng.choice(STRINGS)
    if kind == 2:
        return None
    if kind == 3:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 30)))
    if kind == 4:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 5:
        return {rng.choice(["type", "move", "token", "game", "seats", "x", "é"]): junk(rng, depth + 1)}
    return rng.choice([[], {}, [[[[[]]]]], {"": {"": {}}}])


def mutate(rng: random.Random, text: str) -> str:
    """``text`` with a random edit: a character changed, dropped, doubled, or junk inserted."""
    if not text:
        return rng.choice(STRINGS)
    at = rng.randrange(len(text))
    edit = rng.randrange(5)
    if edit == 0:
        return text[:at] + chr(rng.randrange(32, 127)) + text[at + 1 :]
    if edit == 1:
        return text[:at] + text[at + 1 :]
    if edit == 2:
        return text[:at] + text[at:] * 2
    if edit == 3:
        return text[:at] + rng.choice(STRINGS) + text[at:]
    return text.upper() if rng.random() < 0.5 else text[::-1]


def pick(rng: random.Random, good: list[Any], bad_share: float = 0.4) -> Any:
    """A good value, a mutated one, or junk."""
    roll = rng.random()
    if good and roll > bad_share:
        return rng.choice(good)
    if good and roll > bad_share / 2 and isinstance(good[0], str):
        return mutate(rng, rng.choice(good))
    return junk(rng)


def drop_or_keep(rng: random.Random, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with a field or two dropped now and then."""
    for key in list(body):
        if rng.random() < 0.08:
            del body[key]
    return body


def raw_json(rng: random.Random, value: Any) -> str:
    """JSON text of ``value``, sometimes with a raw number such as ``1e999`` or ``NaN`` put in."""
    text = json.dumps(value)
    if rng.random() < 0.15 and "0" in text:
        text = text.replace("0", rng.choice(RAW_NUMBERS), 1)
    return text


def malformed(rng: random.Random) -> bytes:
    """A body that is no JSON object at all."""
    kind = rng.randrange(8)
    if kind == 0:
        depth = rng.choice([100, 1000, 50_000])
        return (b"[" * depth) + (b"]" * depth)
    if kind == 1:
        return b'{"token": "' + bytes([rng.randrange(128, 256) for _ in range(6)]) + b'"}'
    if kind == 2:
        return b'{"move": '
    if kind == 3:
        return json.dumps(junk(rng)).encode()
    if kind == 4:
        return b""
    if kind == 5:
        return b'{"a": 1, "a": 2}'
    if kind == 6:
        return ('{"x": "' + "x" * rng.choice([10, 100_000]) + '"}').encode()
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))


def new_game_body(rng: random.Random, target: Target) -> dict[str, Any]:
    """A request to create a game, each field good, bad or missing."""
    game = pick(rng, list(GAMES), 0.25)
    seat_count = rng.choice([2, 2, 2, 3, 4, 0, 1, 5])
    seats: list[Any] = []
    for _ in range(seat_count):
        if rng.random() < 0.5:
            seat: Any = {"kind": "person", "name": pick(rng, ["Ann", "Bo"], 0.3)}
        else:
            spec = rng.choice(GOOD_SPECS) if rng.random() < 0.3 else rng.choice(BAD_SPECS)
            seat = {"kind": pick(rng, ["ai"], 0.1), "agent": spec}
        if rng.random() < 0.05:
            seat = junk(rng)
        seats.append(seat)
    clock_kind = rng.choice(["fischer", "per_move", "none", "", "sundial"])
    clock: Any = {
        "kind": clock_kind,
        "minutes": pick(rng, [1, 5, 0.01], 0.5),
        "increment": pick(rng, [0, 2], 0.5),
        "seconds": pick(rng, [5, 30, 3600], 0.5),
    }
    body: dict[str, Any] = {
        "game": game,
        "seats": seats if rng.random() > 0.05 else junk(rng),
        "mode": pick(rng, ["hotseat", "online", "computer", None], 0.3),
        "clock": clock if rng.random() < 0.4 else None,
    }
    if rng.random() < 0.3:
        body["preset"] = pick(rng, ["standard", "classic", "designers", "towers", "lhasa"], 0.4)
    if rng.random() < 0.4:
        body["settings"] = pick(
            rng, ["players=2", "players=3", "max_turns=10", "max_plies=5", "no_turn=lose"]
        )
    if rng.random() < 0.3:
        body["position"] = pick(rng, target.positions, 0.6)
        if rng.random() < 0.1 and isinstance(body["position"], str):
            body["position"] += " " + "9" * rng.choice([19, 4400])
    return drop_or_keep(rng, body)


def game_id(rng: random.Random, target: Target) -> str:
    """A game id: a real one, an unknown one, or junk, quoted for a path."""
    roll = rng.random()
    if roll < 0.75 and target.ids:
        return rng.choice(target.ids)
    value = rng.choice(["nosuchgame", "x" * 5000, "é", "..", "%2e%2e", "0", "🀄", "a b", "\u0000"])
    return q(value)


def action_body(rng: random.Random, target: Target, game: str) -> dict[str, Any]:
    """A move, resignation, takeback or draw request with good, bad or missing fields."""
    tokens = target.tokens.get(game, [])
    body: dict[str, Any] = {
        "token": pick(rng, tokens, 0.35),
        "move": pick(rng, target.moves.get(game, []) or ["BDa1-a3 WLb1-b3"], 0.4),
        "version": pick(rng, list(range(0, 6)), 0.3),
        "accept": pick(rng, [None, True, False], 0.3),
    }
    return drop_or_keep(rng, body)


@dataclass
class HttpCase:
    """One HTTP request."""

    method: str
    path: str
    body: bytes | None = None


def http_case(rng: random.Random, target: Target) -> HttpCase:
    """A random hostile HTTP request to one of the server's routes."""
    game = game_id(rng, target)
    kind = rng.randrange(19)
    if kind == 0:
        pages = ["/viewer", f"/game/{game}", "/api/catalog", "/static/board.js"]
        return HttpCase("GET", rng.choice(pages if rng.random() < 0.9 else ["/"]))
    if kind == 1:
        params = "&".join(
            f"{name}={q(pick(rng, values, 0.4))}"
            for name, values in (
                ("game", list(GAMES)),
                ("preset", ["classic", "standard"]),
                ("settings", ["players=3"]),
            )
            if rng.random() < 0.8
        )
        return HttpCase("GET", f"/api/seats?{params}")
    if kind == 2 and rng.random() < 0.2:  # the lists are slow to build: a few are enough
        return HttpCase("GET", f"/api/games?status={q(pick(rng, ['active', 'finished'], 0.4))}")
    if kind == 2:
        return HttpCase("GET", f"/api/games?status={q(junk(rng))}")
    if kind == 3:
        return HttpCase("GET", f"/api/games/{game}")
    if kind == 4:
        ply = pick(rng, ["0", "1", "2", "-1", "9" * 30, "1.5", "x", "%F0"], 0.2)
        return HttpCase("GET", f"/api/games/{game}/positions/{q(ply, '%')}")
    if kind == 5:
        return HttpCase("GET", f"/api/games/{game}/record")
    if kind in (6, 7):
        return HttpCase("POST", "/api/games", raw_json(rng, new_game_body(rng, target)).encode())
    if kind in (8, 9, 10):
        action = rng.choice(["moves", "moves", "resign", "takeback", "draw", "draw", "seat"])
        body = raw_json(rng, action_body(rng, target, game)).encode()
        return HttpCase("POST", f"/api/games/{game}/{action}", body)
    if kind == 11:
        record: Any = {"record": pick(rng, target.records, 0.5)}
        if rng.random() < 0.3:
            record["around"] = pick(rng, [0, 1, 5], 0.5)
        if rng.random() < 0.2:
            record["count"] = pick(rng, [1, 2, 200], 0.5)
        return HttpCase("POST", "/api/records/replay", raw_json(rng, record).encode())
    if kind == 12:
        path = rng.choice(
            ["/api/games", f"/api/games/{game}/moves", "/api/records/replay", f"/api/games/{game}/seat"]
        )
        return HttpCase("POST", path, malformed(rng))
    if kind == 13:
        method = rng.choice(["PUT", "DELETE", "PATCH", "POST", "OPTIONS"])
        return HttpCase(method, rng.choice(["/api/catalog", f"/api/games/{game}", "/", "/api/games"]), b"{}")
    if kind == 14:
        return HttpCase(
            "GET",
            rng.choice(["/nothing", "/api/nothing", "/static/../app.py", "/static/%00", "/" + "a" * 3000]),
        )
    if kind == 15:
        return HttpCase("GET", f"/api/games/{game}/{rng.choice(['moves', 'x', 'positions', 'record/extra'])}")
    name = q(pick(rng, list(GAMES), 0.3))
    if kind == 16:
        pages = [
            "/rules",
            f"/rules/{name}",
            "/learn",
            f"/learn/{name}",
            "/api/guides",
            f"/api/lessons/{name}",
        ]
        return HttpCase("GET", rng.choice(pages))
    if kind == 17:
        lesson = q(pick(rng, target.lessons.get(name, []), 0.3))
        moves = [move for known in target.moves.values() for move in known]
        text = raw_json(rng, drop_or_keep(rng, {"move": pick(rng, moves, 0.4)}))
        return HttpCase("POST", f"/api/lessons/{name}/{lesson}/try", text.encode())
    if rng.random() < 0.5:  # a hint: a real token asks the strongest player to think, so few are real
        text = raw_json(rng, drop_or_keep(rng, {"token": pick(rng, target.tokens.get(game, []), 0.95)}))
        return HttpCase("POST", f"/api/games/{game}/hint", text.encode())
    text = raw_json(rng, drop_or_keep(rng, {"record": pick(rng, target.records, 0.8)}))
    return HttpCase("POST", "/api/analysis", text.encode())


@dataclass
class SocketCase:
    """One WebSocket: the path with its query, and the messages sent on it."""

    path: str
    messages: list[str | bytes]


def socket_message(rng: random.Random, target: Target, game: str) -> str | bytes:
    """A random hostile WebSocket message."""
    kind = rng.randrange(8)
    if kind <= 2:
        body = action_body(rng, target, game)
        body["type"] = pick(rng, ["move", "move", "resign", "takeback", "draw", "ping"], 0.2)
        return raw_json(rng, body)
    if kind == 3:
        return json.dumps({"type": "ping"})
    if kind == 4:
        return malformed(rng)
    if kind == 5:
        depth = rng.choice([20, 1000, 100_000])
        return '{"type": ' * depth + '"ping"' + "}" * depth
    if kind == 6:
        return json.dumps(junk(rng))
    return json.dumps({"type": "ping", "pad": "x" * rng.choice([10, 20_000])})


def socket_case(rng: random.Random, target: Target) -> SocketCase:
    """A WebSocket to a real or unknown game, with a good or bad ``since``, and a few messages."""
    game = game_id(rng, target)
    since = "" if rng.random() < 0.4 else "?since=" + q(pick(rng, ["0", "1", "3"], 0.5))
    messages = [socket_message(rng, target, game) for _ in range(rng.randrange(1, 30))]
    return SocketCase(f"/ws/games/{game}{since}", messages)


async def prepare(http: httpx.AsyncClient) -> Target:
    """Games of all four kinds to aim at, with their tokens and moves, and records to replay."""
    target = Target(positions=start_positions())
    for game, settings in (
        ("shobu", ""),
        ("shoo", ""),
        ("sho", "players=2"),
        ("shogammon", ""),
        ("sho", "players=3"),
    ):
        seats = [{"kind": "person"}] * (3 if settings == "players=3" else 2)
        body = {"game": game, "settings": settings, "seats": seats, "mode": "hotseat"}
        created = await http.post("/api/games", json=body)
        assert created.status_code == 200, created.text
        answer = created.json()
        target.ids.append(answer["id"])
        target.tokens[answer["id"]] = [seat["link"].split("#token=")[1] for seat in answer["seats"]]
        snap = (await http.get(f"/api/games/{answer['id']}")).json()
        target.moves[answer["id"]] = [move["text"] for move in snap["legal"][:20]]
    finished = target.ids[0]
    tokens = target.tokens[finished]
    await http.post(
        f"/api/games/{finished}/moves", json={"move": target.moves[finished][0], "token": tokens[0]}
    )
    record = (await http.get(f"/api/games/{finished}/record")).text
    for game in GAMES:
        lessons = await http.get(f"/api/lessons/{game}")
        if lessons.status_code == 200:
            target.lessons[game] = [lesson["id"] for lesson in lessons.json()["lessons"]]
    target.records = [record, record.replace("\n\n", "\n\n1. BDa1-a9 WLb1-b3\n", 1), '[Game "shoo"]\n']
    return target


def expected_pongs(messages: list[str | bytes]) -> int:
    count = 0
    for message in messages:
        raw = (
            {"type": "websocket.receive", "text": message} if isinstance(message, str) else {"bytes": message}
        )
        with contextlib.suppress(MessageError):
            count += decode_message(raw).get("type") == "ping"
    return count
