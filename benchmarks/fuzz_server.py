"""Fuzz a real ``shogames serve`` on loopback: every HTTP endpoint and WebSocket message, in bounded time.

It starts ``shogames serve --no-quotas`` on a fresh SQLite file (or uses ``--url`` of a running server) and
sends cases from the seeded generator of ``tests/fuzz_cases.py`` (malformed JSON, wrong types, huge numbers,
unicode, deep nesting, unknown ids, bad tokens, moves, settings, positions and agent specs) through real
sockets, one at a time, until ``--cases`` cases or ``--seconds`` seconds. A case is one HTTP request, one
WebSocket's opening, or one message on it. It reports the answers by status, every 5xx and every WebSocket
dropped without a close code and reason, and exits with 1 if there was any.

    python benchmarks/fuzz_server.py --cases 50000 --seconds 600
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_cases import SocketCase, Target, expected_pongs, http_case, prepare, socket_case

SOCKET_SHARE = 0.02


async def run_socket(base: str, case: SocketCase, tally: Counter[str], failures: list[str]) -> None:
    url = base.replace("http://", "ws://", 1) + case.path
    try:
        async with connect(url, max_size=2**22, open_timeout=30, close_timeout=5) as ws:
            for message in case.messages:
                await ws.send(message)
            await ws.send('{"type": "ping"}')
            pongs = expected_pongs(case.messages) + 1
            while pongs:
                answer = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if answer["type"] == "error":
                    tally[f"socket error {answer['status']}"] += 1
                    if not 400 <= answer["status"] < 500 or not answer.get("message"):
                        failures.append(f"{case.path[:80]}: {answer}")
                pongs -= answer["type"] == "pong"
            tally["socket answered"] += 1
    except InvalidStatus as refused:
        tally[f"socket refused {refused.response.status_code}"] += 1
        if refused.response.status_code >= 500 or refused.response.status_code == 403:
            failures.append(f"{case.path[:80]}: handshake refused with {refused.response.status_code}")
    except ConnectionClosed as closed:
        frame = closed.rcvd
        if frame is None or not frame.reason or frame.code in (1006, 1011):
            tally["socket dropped"] += 1
            failures.append(f"{case.path[:80]}: closed without a reason ({frame})")
        else:
            tally[f"socket closed {frame.code}"] += 1
    except TimeoutError:
        tally["socket timed out"] += 1
        failures.append(f"{case.path[:80]}: no answer within 30 s")


async def fuzz(base: str, cases: int, seconds: float, seed: int) -> int:
    import random

    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    failures: list[str] = []
    done = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        target: Target = await prepare(http)
        start = time.perf_counter()
        while done < cases and time.perf_counter() - start < seconds:
            if rng.random() < SOCKET_SHARE:
                socket = socket_case(rng, target)
                await run_socket(base, socket, tally, failures)
                done += 1 + len(socket.messages)
                continue
            case = http_case(rng, target)
            headers = {"Content-Type": "application/json"} if case.body is not None else {}
            try:
                response = await http.request(case.method, case.path, content=case.body, headers=headers)
            except httpx.HTTPError as error:
                tally["http no answer"] += 1
                failures.append(f"{case.method} {case.path[:80]}: {error!r}")
                done += 1
                continue
            tally[f"http {response.status_code}"] += 1
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.path[:80]} {case.body!r:.100}: {response.text[:200]}")
            elif response.status_code >= 400 and response.headers.get("content-type", "").startswith(
                "text/html"
            ):
                if case.path.startswith("/api/") or response.status_code != 404:
                    failures.append(f"{case.method} {case.path[:80]}: an HTML {response.status_code}")
            elif response.status_code >= 400:
                try:
                    body = response.json()
                    shaped = isinstance(body, dict) and list(body) == ["error"] and bool(body["error"])
                except ValueError:
                    shaped = False
                if not shaped:
                    failures.append(
                        f"{case.method} {case.path[:80]}: not {{'error': ...}}: {response.text[:200]}"
                    )
            done += 1
        elapsed = time.perf_counter() - start
    print(f"{done} cases in {elapsed:.1f} s ({done / elapsed:.0f} a second), seed {seed}")
    for key, count in sorted(tally.items()):
        print(f"  {key}: {count}")
    print(f"failures: {len(failures)}")
    for failure in failures[:30]:
        print("  " + failure)
    return 1 if failures else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=30_000)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (serve --workers)")
    parser.add_argument("--database", help="database URL for the server; a fresh SQLite file by default")
    parser.add_argument(
        "--url", help="a running server (started with --no-quotas); by default one is started"
    )
    args = parser.parse_args()
    if args.url:
        sys.exit(asyncio.run(fuzz(args.url.rstrip("/"), args.cases, args.seconds, args.seed)))
    from server_process import free_port, kill_server, start_server

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server: subprocess.Popen[bytes] = start_server(
            args.database or f"sqlite+aiosqlite:///{folder}/fuzz.db",
            port,
            Path(folder),
            workers=args.workers,
            options=["--no-quotas", "--log-level", "warning"],
        )
        try:
            code = asyncio.run(fuzz(f"http://127.0.0.1:{port}", args.cases, args.seconds, args.seed))
        finally:
            kill_server(server)
        log = (Path(folder) / f"server-{port}.log").read_text(errors="replace")
        tracebacks = log.count("Traceback")
        print(f"tracebacks in the server's log: {tracebacks}")
        if tracebacks:
            print(log[-3000:])
    sys.exit(code or (1 if tracebacks else 0))


if __name__ == "__main__":
    main()
