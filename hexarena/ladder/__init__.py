"""The ladder: a rating server for engines over the network (docs/ladder.md) and its bridge.

The server (``hexarena ladder serve``) is a referee whose engines are remote: each HGP line
travels over a WebSocket to a bridge (``hexarena connect``) that runs the engine on its author's
machine. Its pools are ordinary tournament folders, its accounts live in SQLite. Nothing but the
CLI imports it.
"""
