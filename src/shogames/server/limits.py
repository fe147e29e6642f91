"""The server's limits at its edge: body size, WebSocket messages, quotas per client, security headers.

* :class:`BodyLimit`: ASGI middleware that refuses a request body over :data:`MAX_BODY` bytes with 413 and
  ``{"error": ...}``: at once from its ``Content-Length``, or, for a body sent in chunks, as soon as the
  bytes read pass the limit, so a large body is never held whole. The connection stays open (the rest
  of the body is read and thrown away) up to :data:`DRAIN_LIMIT` bytes.
* :data:`MAX_WS_MESSAGE` and :data:`MAX_WS_DEPTH`: what one WebSocket message may be; a message beyond
  them is refused with a reason and the socket stays open (:func:`decode_message`).
* :class:`Quotas` and :class:`TokenBucket`: how many games a client (an IP address) may create and how
  many WebSockets it may open, as token buckets: a burst, then a steady rate.
* :class:`SecurityHeaders`: ASGI middleware that adds a Content-Security-Policy fitting the pages, and
  X-Frame-Options, X-Content-Type-Options and Referrer-Policy, to every HTTP response.
"""

from __future__ import annotations

import json
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import text as sql_text
from sqlalchemy.ext.asyncio import async_sessionmaker
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY: Final = 512 * 1024
"""The largest request body, in bytes: room for a record of the viewer's largest size
(:data:`shogames.server.record_view.MAX_RECORD_BYTES`) written with JSON escapes."""

DRAIN_LIMIT: Final = 64 * 1024 * 1024
"""The largest refused body the server still reads (and throws away) after its 413, so that a client
that is still sending sees the answer and keeps its connection; a larger declared body gets the 413 and
the connection is closed."""

MAX_WS_MESSAGE: Final = 16 * 1024
"""The largest WebSocket message the server reads, in bytes: a move, a token and a version take a few
hundred. Larger ones are refused with a reason; the socket stays open."""

MAX_WS_FRAME: Final = 1024 * 1024
"""The largest WebSocket message uvicorn accepts at all; a larger one closes the socket with code 1009."""

MAX_WS_DEPTH: Final = 16
"""How deeply a WebSocket message's JSON may nest (the protocol's messages are flat objects)."""


def client_of(connection: HTTPConnection) -> str:
    """The client's address, which quotas and engine jobs count by.

    Behind a proxy, uvicorn takes it from the proxy's headers (``docs/web.md``).
    """
    return connection.client.host if connection.client else "unknown"


class BodyTooLarge(HTTPException):
    """A request body over :data:`MAX_BODY` bytes (413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"a request body may have at most {limit} bytes")


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes before reading them whole.

    Args:
        app: the application it wraps.
        limit: the most bytes a body may have.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one connection (ASGI)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and (
                not value.isdigit() or len(value) > 18 or int(value) > self.limit
            ):
                # The client is still sending: closing now would reset the connection under it, and it
                # would never read the 413. Up to DRAIN_LIMIT bytes, uvicorn reads the rest and throws it
                # away while the connection stays open for the next request; past that, it is closed.
                drain = value.isdigit() and len(value) <= 18 and int(value) <= DRAIN_LIMIT
                close = [] if drain else [(b"connection", b"close")]
                await _send_error(send, 413, BodyTooLarge(self.limit).detail, close)
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, counted, send)


async def _send_error(send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] = []) -> None:  # noqa: B006
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class MessageError(Exception):
    """A WebSocket message the server does not read, with a status (400 or 413) and the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _depth(text: str) -> int:
    """How deeply JSON text nests (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def decode_message(message: Message) -> dict[str, Any]:
    """The JSON object of a ``websocket.receive`` message.

    Raises:
        MessageError: the message is over :data:`MAX_WS_MESSAGE` bytes (413), is not UTF-8 JSON, nests
            deeper than :data:`MAX_WS_DEPTH`, or is not an object (400).
    """
    data: str | bytes | None = message.get("text")
    if data is None:
        data = message.get("bytes") or b""
    if len(data) > MAX_WS_MESSAGE or (
        isinstance(data, str) and len(data.encode("utf-8", "replace")) > MAX_WS_MESSAGE
    ):
        raise MessageError(413, f"a message may have at most {MAX_WS_MESSAGE} bytes")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise MessageError(400, "messages must be JSON objects in UTF-8") from None
    if _depth(data) > MAX_WS_DEPTH:
        raise MessageError(400, f"a message may nest at most {MAX_WS_DEPTH} levels deep")
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        raise MessageError(400, 'messages must be JSON objects, such as {"type": "ping"}') from None
    if not isinstance(value, dict):
        raise MessageError(400, 'messages must be JSON objects, such as {"type": "ping"}')
    return value


@dataclass(frozen=True)
class Quotas:
    """How much one client (one IP address) may do: a burst, then a steady rate per minute.

    Attributes:
        games_burst: games a client may create at once.
        games_per_minute: games a client may create a minute after its burst is spent.
        sockets_burst: WebSockets a client may open at once (each game page holds one).
        sockets_per_minute: WebSockets a client may open a minute after its burst is spent.
        sockets_open: WebSockets a client may hold open at once.
    """

    games_burst: int = 30
    games_per_minute: float = 10.0
    sockets_burst: int = 60
    sockets_per_minute: float = 60.0
    sockets_open: int = 32


class QuotaExceededError(Exception):
    """A client has used up a quota; it may try again after ``retry_after`` seconds (429)."""

    def __init__(self, what: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        self.message = f"too many {what} from this address; try again in {self.retry_after} seconds"
        super().__init__(self.message)


def _checked_rate(burst: int, per_minute: float) -> tuple[int, float]:
    """A quota's burst and its rate in tokens a second.

    Raises:
        ValueError: a burst below 1, or a rate that is not positive.
    """
    if burst < 1 or not per_minute > 0:
        raise ValueError(
            f"a quota needs a burst of at least 1 and a positive rate, got {burst}, {per_minute}"
        )
    return burst, per_minute / 60.0


class TokenBucket:
    """A token bucket per client: ``burst`` tokens, refilled at ``per_minute`` a minute.

    Buckets that are full again are forgotten, and at most ``max_clients`` are kept (the least recently
    used go first), so the memory it takes stays bounded.

    Args:
        what: what is counted, for the message (``games``).
        burst: the bucket's size.
        per_minute: tokens added a minute.
        clock: seconds, monotonic (tests move it by hand).
        max_clients: the most clients remembered at once.
    """

    def __init__(
        self,
        what: str,
        burst: int,
        per_minute: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 100_000,
    ) -> None:
        self.what = what
        self.burst, self.rate = _checked_rate(burst, per_minute)
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str) -> None:
        """Spend one of ``client``'s tokens.

        Raises:
            QuotaExceededError: none is left; with the seconds until one is.
        """
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            raise QuotaExceededError(self.what, (1.0 - tokens) / self.rate)
        self._buckets[client] = (tokens - 1.0, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)

    async def spend(self, client: str) -> None:
        """:meth:`take`, in the form every quota has (a shared one asks the database).

        Raises:
            QuotaExceededError: none is left; with the seconds until one is.
        """
        self.take(client)

    def __len__(self) -> int:
        return len(self._buckets)


PAGE_POLICY: Final = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The Content-Security-Policy of every response: only the server's own scripts, styles, images and
sockets; no inline script or style, no plug-ins, no framing."""

DOCS_POLICY: Final = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' https://cdn.jsdelivr.net",
        "img-src 'self' data: https://fastapi.tiangolo.com",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)
"""The policy of the API's interactive documentation (``/api/docs``), whose page loads Swagger UI from its
CDN and starts it with an inline script."""


class SecurityHeaders:
    """ASGI middleware: the usual security headers on every HTTP response.

    Args:
        app: the application it wraps.
        docs_path: the path of the interactive API documentation, which gets :data:`DOCS_POLICY`.
    """

    def __init__(self, app: ASGIApp, docs_path: str = "/api/docs") -> None:
        self.app = app
        self.docs_path = docs_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one connection (ASGI)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope["path"] == self.docs_path else PAGE_POLICY
        extra = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
        ]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


class SharedTokenBucket:
    """A token bucket per client kept in the database, so that every server process spends from one.

    With ``serve --workers N`` each process used to keep buckets of its own, so a client had N times its
    quota. Here a spend is one short transaction on the ``quota_buckets`` table (PostgreSQL: the row is
    locked while it is read and written, and the database's clock is the only clock). Buckets full again
    are deleted now and then, so the table stays small.

    Args:
        what: what is counted, for the message (``games``).
        burst: the bucket's size.
        per_minute: tokens added a minute.
        sessions: the database's sessions, asked for at each spend (the app opens the database when it
            starts, after its routes are made).
    """

    def __init__(
        self, what: str, burst: int, per_minute: float, sessions: Callable[[], async_sessionmaker[Any]]
    ) -> None:
        self.what = what
        self.burst, self.rate = _checked_rate(burst, per_minute)
        self.sessions = sessions
        self._spends = 0

    async def spend(self, client: str) -> None:
        """Spend one of ``client``'s tokens, for every process at once.

        Raises:
            QuotaExceededError: none is left; with the seconds until one is.
        """
        key = {"name": self.what[:16], "client": client[:64]}
        async with self.sessions()() as session, session.begin():
            await session.execute(
                sql_text(
                    "INSERT INTO quota_buckets (name, client, tokens, updated_at) "
                    "VALUES (:name, :client, :burst, now()) ON CONFLICT (name, client) DO NOTHING"
                ),
                {**key, "burst": float(self.burst)},
            )
            row = (
                await session.execute(
                    sql_text(
                        "SELECT tokens, EXTRACT(EPOCH FROM now() - updated_at) FROM quota_buckets "
                        "WHERE name = :name AND client = :client FOR UPDATE"
                    ),
                    key,
                )
            ).one()
            tokens = min(float(self.burst), float(row[0]) + max(0.0, float(row[1])) * self.rate)
            spent = tokens >= 1.0
            await session.execute(
                sql_text(
                    "UPDATE quota_buckets SET tokens = :tokens, updated_at = now() "
                    "WHERE name = :name AND client = :client"
                ),
                {**key, "tokens": tokens - 1.0 if spent else tokens},
            )
            self._spends += 1
            if self._spends % 100 == 0:  # forget the buckets that are full again
                await session.execute(
                    sql_text(
                        "DELETE FROM quota_buckets WHERE name = :name "
                        "AND updated_at < now() - make_interval(secs => :refill)"
                    ),
                    {"name": key["name"], "refill": self.burst / self.rate},
                )
        if not spent:
            raise QuotaExceededError(self.what, (1.0 - tokens) / self.rate)


Quota = TokenBucket | SharedTokenBucket
"""A quota per client: in this process's memory, or shared by every process through the database."""
