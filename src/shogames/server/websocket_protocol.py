"""uvicorn's WebSocket protocol, with an answer to an opening handshake that websockets cannot parse.

uvicorn (0.30 to at least 0.54) hands an upgrade request to the ``websockets`` library's sans-I/O server,
which refuses a request line over 8,192 bytes (or headers over its limits) by queueing a 414 (or 431)
response; uvicorn never sends that queued response nor closes the connection, so the client waits for
good (a 10,000-character ``/ws/games/...`` path hung). :class:`WebSocketProtocol` sends a JSON refusal in
the app's error shape and closes the connection instead. ``shogames serve`` runs uvicorn with it.
"""

from __future__ import annotations

import json

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidMessage, SecurityError


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol that answers an unparsable opening handshake."""

    def data_received(self, data: bytes) -> None:
        """Feed the bytes to the protocol; refuse a handshake the ``websockets`` library failed to parse."""
        super().data_received(data)
        failure = self.conn.handshake_exc
        if failure is None or self.handshake_initiated or self.transport.is_closing():
            return
        if type(failure).__name__ == "RequestLineTooLong":  # websockets 15 and later
            status, reason, message = 414, "URI Too Long", "the request line is too long"
        elif isinstance(failure, SecurityError):
            status, reason, message = 431, "Request Header Fields Too Large", "the headers are too large"
        elif isinstance(failure, InvalidMessage):
            status, reason, message = 400, "Bad Request", "the WebSocket handshake is not a valid request"
        else:
            status, reason, message = 400, "Bad Request", f"the WebSocket handshake failed: {failure}"
        body = json.dumps({"error": message}).encode()
        head = (
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        self.handshake_initiated = True
        self.close_sent = True
        self.transport.write(head.encode() + body)
        self.transport.close()
