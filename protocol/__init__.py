"""HGP, the hexarena game protocol (PROTOCOL.md), sans-I/O.

``protocol.framing``: GTP v2 preprocessing, command parsing, response text.
``protocol.engine_side``: the command table that drives a bot over HGP.
``protocol.controller``: the referee's side, bytes in, responses out.
Imports ``engine`` only; never reads stdin or writes stdout.
"""
