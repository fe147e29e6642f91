"""uvicorn's HTTP protocol with a time limit on a request's head (against slowloris).

uvicorn times out a keep-alive connection that sits idle between requests, but not one that has begun a
request and sends its head slowly, or never finishes it: a thousand such connections held a thousand file
descriptors for good, and at a common limit of 1,024 nobody else could connect. :class:`HttpProtocol`
gives every request head :data:`HEAD_TIMEOUT` seconds from the connection (or, on a kept-alive connection,
from the request's first byte) to arrive whole; past that, it answers 408 in the app's error shape and
closes the connection, as nginx's ``client_header_timeout`` does. ``shogames serve`` runs uvicorn with it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_TIMEOUT: Final = 10.0
"""Seconds a request's line and headers may take to arrive (nginx's default is 60; ours are short)."""


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing connections whose request head is not complete in time."""

    head_timeout: float = HEAD_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the connection and the clock of its first request's head."""
        super().connection_made(transport)
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock with the connection."""
        self._stop_head_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        """A request's first byte: on a kept-alive connection its head's clock starts here."""
        super().on_message_begin()
        if self._head_timer is None:
            self._start_head_timer()

    def on_headers_complete(self) -> None:
        """The head arrived in time: stop its clock."""
        self._stop_head_timer()
        super().on_headers_complete()

    def _start_head_timer(self) -> None:
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        body = json.dumps({"error": f"the request's head did not arrive within {self.head_timeout:g} s"})
        self.transport.write(
            (
                "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                f"content-length: {len(body)}\r\nconnection: close\r\n\r\n{body}"
            ).encode()
        )
        self.transport.close()
