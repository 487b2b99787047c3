"""Tournaments for the referee's tests: a Spelde n=5 config and a launcher of in-process engines."""
from __future__ import annotations

from hexarena.referee.tournament import config as C
from tests.support.memfake import MemEngine, mem_connect


def spelde_config(games_per_pair=2, **engines) -> C.TournamentConfig:
    specs = tuple(C.EngineSpec(n, tuple(cmd)) for n, cmd in engines.items()) or (
        C.EngineSpec("random", C.player_cmd("random")), C.EngineSpec("greedy", C.player_cmd("greedy")))
    return C.TournamentConfig(specs, (C.GameSpec("spelde", (5,), ("pie",)),), games_per_pair=games_per_pair,
                              limits=C.Limits(move=10, start=20))


def mem_launcher(engine, seed, log, *, plan):
    """In-process engines; `plan` maps an engine name to MemEngine keyword arguments."""
    return mem_connect(MemEngine(engine.name, seed=seed, **plan.get(engine.name, {})))
