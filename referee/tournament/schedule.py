"""The schedule: a pure function from a tournament config to the games to play.

Games are grouped by (game, size, variant). Inside a group, each pairing of
the group's entrants plays ``games_per_pair`` games per opening (one
"opening" with no actions when the game has none), in game pairs: two games
next to each other with the same opening and the seats exchanged (the
pairing's first engine, in config order, moves first in the pair's first
game). With ``random_openings = N`` each game pair gets N fresh random
plies after its opening, the same for every pairing of the group.

Order: game pair round by round (round r = games 2r and 2r+1 of every
pairing), then opening, then pairing. Each game has a stable id
``GROUP/NNNN`` (e.g. ``GAME-6-pie/0007``, the variant's words joined with
``-``) and two seeds, one per seat, derived from the config seed and the id,
so a replayed game gets the same seeds. The two games of a game pair share
a ``pair`` number, unique in the group; the last game of an odd
``games_per_pair`` has no partner (``pair`` None).

A grown tournament (:func:`grown_schedule`) keeps the ids of the games of
its earlier configs; games new in a later config get the next free numbers
of their group.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from ..game import openings as op
from .config import GameSpec, TournamentConfig, group_name as group_name


@dataclass(frozen=True, slots=True)
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
    opening: tuple[str, ...] = ()   # canonical tokens played before the engines choose
    slot: tuple = ()                # (group, pairing, opening number, game number): identity across growth
    pair: int | None = None         # the game pair's number in the group (None: no partner)

    @property
    def group(self) -> str:
        return self.slot[0]

    @property
    def opens_pair(self) -> bool:
        """Whether this is the first game of its pair (or a game without a partner)."""
        return self.slot[3] % 2 == 0


def pairings(config: TournamentConfig, spec: GameSpec | None = None) -> list[tuple[str, str]]:
    """Every pair of engines that meets (in one game's entrants when `spec` is given), in config order."""
    names = [e.name for e in config.engines]
    if spec is not None:
        names = spec.entrants(names)
    if config.pairing == "round-robin":
        return list(combinations(names, 2))
    return [(c, n) for c in config.challengers if c in names for n in names if n not in config.challengers]


def game_seed(config_seed: int, game_id: str, seat: int) -> int:
    """A 31-bit seed for one seat of one game, independent of the schedule's order."""
    digest = hashlib.sha256(f"{config_seed}:{game_id}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def schedule(config: TournamentConfig) -> list[ScheduledGame]:
    """Every game of the tournament, in playing order; ids are unique."""
    out: list[ScheduledGame] = []
    for spec in config.games:
        pairs = pairings(config, spec)
        for size in spec.sizes:
            for variant in spec.variants:
                group = group_name(spec.game, size, variant)
                fixed = [op.parse_line(t, spec.game, size, variant, spec.komi) for t in spec.openings] or [()]
                index = pair = 0
                for r in range((config.games_per_pair + 1) // 2):
                    for o, opening in enumerate(fixed):
                        if spec.random_openings:
                            opening = _with_random(config.seed, group, o, r, opening, spec, size, variant)
                        for a, b in pairs:
                            paired = 2 * r + 1 < config.games_per_pair
                            for k in (2 * r, 2 * r + 1):
                                if k >= config.games_per_pair:
                                    continue
                                first, second = (a, b) if k % 2 == 0 else (b, a)
                                gid = f"{group}/{index:04d}"
                                out.append(ScheduledGame(gid, spec.game, size, variant, first, second,
                                                         _seeds(config.seed, gid), spec.komi, spec.ply_cap,
                                                         opening, (group, (a, b), o, k), pair if paired else None))
                                index += 1
                            pair += paired
    return out


def grown_schedule(configs: Sequence[TournamentConfig]) -> list[ScheduledGame]:
    """The schedule of the last config, with the ids earlier configs gave their games.

    `configs` are the tournament's configs in the order they were used; a game
    of an earlier config keeps its id (and so its seeds), a game first seen in
    a later config gets the next number of its group. ValueError when a later
    config lacks a game of an earlier one or changes it (the message names the game).
    """
    ids: dict[tuple, str] = {}
    used: dict[str, int] = {}
    pair_ids: dict[tuple, int] = {}
    pairs_used: dict[str, int] = {}
    earlier: dict[tuple, ScheduledGame] = {}
    games: list[ScheduledGame] = []
    for n, config in enumerate(configs):
        games = []
        for g in schedule(config):
            if g.slot not in ids:
                number = used.get(g.slot[0], 0)
                used[g.slot[0]] = number + 1
                ids[g.slot] = f"{g.slot[0]}/{number:04d}"
            gid = ids[g.slot]
            pair = None
            if g.pair is not None:          # a game pair keeps its number too; new pairs take the next
                key = (*g.slot[:3], g.slot[3] // 2)
                if key not in pair_ids:
                    pair_ids[key] = pairs_used.get(g.slot[0], 0)
                    pairs_used[g.slot[0]] = pair_ids[key] + 1
                pair = pair_ids[key]
            same = gid == g.id and pair == g.pair           # its seeds too: they follow from the id
            games.append(g if same else replace(g, id=gid, seeds=_seeds(config.seed, gid), pair=pair))
        now = {g.slot: g for g in games}
        for slot, old in earlier.items():
            new = now.get(slot)
            if new is None:
                raise ValueError(f"game {old.id} ({old.first} vs {old.second}) is no longer scheduled")
            if replace(new, pair=old.pair) != old:       # a game without a partner may gain one
                raise ValueError(f"game {old.id} would change: {_field_difference(old, new)}")
        earlier.update(now)
    return games


def _field_difference(a: ScheduledGame, b: ScheduledGame) -> str:
    for name in ScheduledGame.__dataclass_fields__:
        if getattr(a, name) != getattr(b, name):
            return f"{name} was {getattr(a, name)!r}, now {getattr(b, name)!r}"
    return "no difference"


def _seeds(config_seed: int, gid: str) -> tuple[int, int]:
    return game_seed(config_seed, gid, 1), game_seed(config_seed, gid, 2)


def _with_random(seed: int, group: str, o: int, r: int, opening: tuple[str, ...], spec: GameSpec,
                 size: int, variant: str) -> tuple[str, ...]:
    """`opening` followed by the random plies of game pair round `r` (the same for every pairing)."""
    tail_seed = op.opening_seed(seed, group, o * 1_000_003 + r)
    state = op.replay(op.initial(spec.game, size, variant, spec.komi), opening)[1]
    return opening + op.random_tail(state, spec.random_openings, tail_seed)
