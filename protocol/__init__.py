"""HGP 1.1, the hexarena game protocol (docs/protocol.md), sans-I/O.

``protocol.commands``: the protocol's facts (the play and analysis tiers, the bound on `legal_moves`).
``protocol.framing``: GTP v2 preprocessing, command parsing, response text.
``protocol.engine_side``: the command table that drives a bot over HGP.
``protocol.clock`` / ``protocol.clock_commands``: what an engine is told about its clock, and parsing it.
``protocol.controller``: the referee's side, bytes in, responses out.
Imports ``engine`` only; never reads stdin or writes stdout.
"""
