"""bench.ladder's tournament config is one the referee accepts, with every game at both sizes."""
from __future__ import annotations

import argparse
import tomllib

from bench import ladder
from hexarena.engine import registry
from hexarena.referee import config as C


def test_the_ladder_config_is_a_valid_tournament() -> None:
    args = argparse.Namespace(seed=3, move_limit=10, main=60, increment=0.5, fast=0.2, slow=0.4,
                              games=registry.playable(), prison_cap=2)
    for size in ("small", "default"):
        cfg = C.from_dict(tomllib.loads(ladder.config(args, 2, size)))
        names = [e.name for e in cfg.engines]
        assert names == ["random", "greedy", "heuristic", "mcts-0.2s", "mcts-0.4s"]
        assert "mcts:0.4s" in cfg.engine("mcts-0.4s").cmd
        sizes = {g.game: g.sizes for g in cfg.games}
        for game in registry.playable():
            info = registry.get(game)
            assert sizes[game] == ((info.sizes[0],) if size == "small" else (info.default_size,))
