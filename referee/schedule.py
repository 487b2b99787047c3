"""The schedule: a pure function from a tournament config to the games to play.

Games are grouped by (game, size, variant); inside a group, round k of
``games_per_pair`` plays every pairing once, and the seats alternate with k
(even rounds: the pairing's first engine moves first). Each game has a
stable id ``GROUP/NNNN`` (e.g. ``spelde-6-pie/0007``, the variant's words
joined with ``-``) and two seeds, one per seat, derived from the config
seed and the id, so a replayed game gets the same seeds.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from itertools import combinations

from .config import TournamentConfig


@dataclass(frozen=True)
class ScheduledGame:
    id: str
    game: str
    size: int
    variant: str                    # canonical variant words, e.g. "nopie flips=dense"
    first: str                      # seat 1 (makes the first action)
    second: str
    seeds: tuple[int, int]          # per seat, for `{seed}` in engine commands
    komi: int | None = None
    ply_cap: int | None = None

    @property
    def group(self) -> str:
        return self.id.rpartition("/")[0]


def pairings(config: TournamentConfig) -> list[tuple[str, str]]:
    """Every pair of engines that meets, in config order."""
    names = [e.name for e in config.engines]
    if config.pairing == "round-robin":
        return list(combinations(names, 2))
    return [(c, n) for c in config.challengers for n in names if n not in config.challengers]


def game_seed(config_seed: int, game_id: str, seat: int) -> int:
    """A 31-bit seed for one seat of one game, independent of the schedule's order."""
    digest = hashlib.sha256(f"{config_seed}:{game_id}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def group_name(game: str, size: int, variant: str) -> str:
    return "-".join([game, str(size), *variant.split()])


def schedule(config: TournamentConfig) -> list[ScheduledGame]:
    """Every game of the tournament, in playing order; ids are unique."""
    out: list[ScheduledGame] = []
    pairs = pairings(config)
    for spec in config.games:
        for size in spec.sizes:
            for variant in spec.variants:
                group = group_name(spec.game, size, variant)
                index = 0
                for k in range(config.games_per_pair):
                    for a, b in pairs:
                        first, second = (a, b) if k % 2 == 0 else (b, a)
                        gid = f"{group}/{index:04d}"
                        seeds = (game_seed(config.seed, gid, 1), game_seed(config.seed, gid, 2))
                        out.append(ScheduledGame(gid, spec.game, size, variant, first, second, seeds,
                                                 spec.komi, spec.ply_cap))
                        index += 1
    return out
