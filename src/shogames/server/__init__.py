"""The web app: an ASGI server (FastAPI) with WebSockets, a database of games, and the browser client.

The server holds no rules: it plays moves through the game protocol, stores every game as its record, and
describes positions to the browser through :mod:`shogames.server.views`.
"""
