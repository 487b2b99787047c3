"""Per-opening statistics of journaled games (`hexarena openings stats`, the report's openings section).

An opening is the line of actions the schedule played before the engines chose
(:func:`opening_tokens`). Two groupings: ``played`` (the whole journaled line,
random plies included) and ``book`` (the line without its last ``random_openings``
plies, i.e. the line of the openings file). Per opening and group (game, size,
variant):

* ``games``: finished (non-void) games, ``draws`` among them; ``score``: the first seat's score (a win 1,
  a draw 1/2) over them, with a 95% Wilson interval;
* ``pairs``: finished game pairs (both games of a pair number, in one folder);
  ``penta``: their pentanomial counts [LL, LD, WL+DD, WD, WW] from the side of the
  engine that moved first in the pair's first game (the lower id);
* ``split``: the pairs the opening decided, the same seat winning both games
  (each engine won with that seat); ``chance``: the share of its pairs that would
  split if each game were an independent draw at its pairing's seat results over the
  whole group (:func:`pair_chance`; one half for equal engines at a balanced seat);
  ``flag``: ``low``/``high`` when the score lies below/above the band, upper case when
  the whole interval does.

Pure and streamed: records are read one at a time and only a small tuple per
game is kept; a game journaled twice (void, then replayed) counts once, its last
finished record.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hexarena.results.record.files import MAX_SAVED_BYTES, read_text
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import journal_path

Z95 = 1.959963984540054
GROUPINGS = ("played", "book")
DEFAULT_BAND = (0.40, 0.60)
CONFIG_NAME = "tournament.json"     # a tournament folder's saved config (referee/tournament/folder.py)


def opening_tokens(record: GameRecord) -> tuple[str, ...]:
    """The tokens of the record's opening (its first `opening` actions): the one reader of actions here."""
    if not record.opening or record.moves is None:
        return ()
    return tuple(m.action for m in record.moves[:record.opening])


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `score` over `n` trials ((0, 1) when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    centre = score + z * z / (2 * n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return max(0.0, (centre - half) / den), min(1.0, (centre + half) / den)


@dataclass
class OpeningStats:
    """The statistics of one opening in one (game, size, variant) group (see the module's docstring)."""

    group: tuple[str, int, str]
    line: tuple[str, ...]
    games: int = 0
    points: float = 0.0                     # the first seat's points
    draws: int = 0
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    split: int = 0
    chance_sum: float = 0.0                 # over its pairs: the chance each splits (pair_chance)

    @property
    def pairs(self) -> int:
        return sum(self.penta)

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    @property
    def split_share(self) -> float:
        return self.split / self.pairs if self.pairs else 0.0

    @property
    def chance(self) -> float | None:
        """The share of its pairs that would split by seat by chance alone (None without pairs)."""
        return self.chance_sum / self.pairs if self.pairs else None

    def flag(self, band: tuple[float, float] = DEFAULT_BAND) -> str:
        lo, hi = self.interval
        if self.score < band[0]:
            return "LOW" if hi < band[0] else "low"
        if self.score > band[1]:
            return "HIGH" if lo > band[1] else "high"
        return ""

    def row(self, band: tuple[float, float] = DEFAULT_BAND) -> dict:
        lo, hi = self.interval
        return {"game": self.group[0], "size": self.group[1], "variant": self.group[2],
                "opening": " ".join(self.line) or "(none)", "games": self.games, "draws": self.draws, "pairs": self.pairs,
                "score": round(self.score, 4), "low": round(lo, 4), "high": round(hi, 4),
                "penta": list(self.penta), "split": self.split, "split_share": round(self.split_share, 4),
                "chance": None if self.chance is None else round(self.chance, 4), "flag": self.flag(band)}


# (folder, id) -> (group, pair, first, second, winner, line)
_Game = tuple[tuple[str, int, str], "int | None", str, str, "str | None", tuple[str, ...]]


def collect(sources: Iterable[Iterable[GameRecord]]) -> dict[tuple[int, str], _Game]:
    """The finished games of each source (a folder's journal), the last record of each id; streamed."""
    games: dict[tuple[int, str], _Game] = {}
    for n, records in enumerate(sources):
        for r in records:
            if not r.void:
                games[n, r.id] = (r.group, r.pair, r.first, r.second, r.winner, opening_tokens(r))
    return games


def opening_stats(games: Mapping[tuple[int, str], _Game], grouping: str = "played",
                  random_plies: Mapping[tuple[int, tuple[str, int, str]], int] | None = None
                  ) -> list[OpeningStats]:
    """Statistics per opening of :func:`collect`'s games, in first-seen order.

    `grouping` is ``played`` or ``book``; for ``book``, `random_plies` gives the random
    plies of each (source number, group) (missing: 0), cut from the end of each line.
    """
    if grouping not in GROUPINGS:
        raise ValueError(f"grouping must be one of {', '.join(GROUPINGS)}, not {grouping!r}")
    plies = random_plies or {}
    rates = seat_rates(games)
    stats: dict[tuple, OpeningStats] = {}
    members: dict[tuple, list[str]] = {}
    for (n, gid), (group, pair, first, _second, winner, line) in games.items():
        line = _grouped(line, plies.get((n, group), 0) if grouping == "book" else 0)
        s = stats.get((group, line))
        if s is None:
            s = stats[group, line] = OpeningStats(group, line)
        s.games += 1
        s.draws += winner is None
        s.points += 0.5 if winner is None else 1.0 if winner == first else 0.0
        if pair is not None:
            members.setdefault((n, group, pair), []).append(gid)
    for (n, group, _pair), ids in members.items():
        if len(ids) != 2:
            continue
        a, b = sorted(ids)
        first_game, second_game = games[n, a], games[n, b]
        engine = first_game[2]
        points = sum(0.5 if g[4] is None else 1.0 if g[4] == engine else 0.0 for g in (first_game, second_game))
        s = stats[group, _grouped(first_game[5], plies.get((n, group), 0) if grouping == "book" else 0)]
        s.penta[round(points * 2)] += 1
        seat_winners = {_seat_won(g) for g in (first_game, second_game)}
        if len(seat_winners) == 1 and None not in seat_winners:
            s.split += 1
        s.chance_sum += pair_chance(rates, group, engine, first_game[3])
    return list(stats.values())


def _grouped(line: tuple[str, ...], cut: int) -> tuple[str, ...]:
    """The line without its last `cut` actions (the random plies after the book line)."""
    return line[:len(line) - cut] if cut else line


def _seat_won(game: _Game) -> int | None:
    """1 when the first seat won, 2 the second, None for a draw."""
    winner = game[4]
    return None if winner is None else 1 if winner == game[2] else 2


def saved_random_plies(folder: str | os.PathLike, n: int = 0) -> dict[tuple[int, tuple[str, int, str]], int]:
    """(n, group) -> the random plies after the book line, from the folder's saved config
    (``tournament.json`` in the folder, or beside a journal file: its games' ``sizes``, ``variants``,
    ``random_openings``); empty when there is none, or it cannot be read."""
    path = journal_path(folder).parent / CONFIG_NAME
    try:
        games = json.loads(read_text(path, MAX_SAVED_BYTES)).get("games", [])      # no FIFO opened, bounded
        return {(n, (g["game"], size, variant)): int(g["random_openings"])
                for g in games if g.get("random_openings") for size in g["sizes"] for variant in g["variants"]}
    except (OSError, ValueError, AttributeError, KeyError, TypeError, RecursionError):
        return {}


SORTS = ("imbalance", "games", "line")


def ordered(stats: Iterable[OpeningStats], sort: str = "imbalance") -> list[OpeningStats]:
    """By group, then most unbalanced first (`imbalance`: |score - 1/2|, then games), most games
    first (`games`), or by the line's text (`line`)."""
    keys = {"imbalance": lambda s: (-abs(s.score - 0.5), -s.games, s.line),
            "games": lambda s: (-s.games, s.line), "line": lambda s: (s.line,)}
    if sort not in keys:
        raise ValueError(f"sort must be one of {', '.join(SORTS)}, not {sort!r}")
    return sorted(stats, key=lambda s: (s.group, *keys[sort](s)))


@dataclass(frozen=True)
class Summary:
    """All openings of one group together: games, the first seat's score and its interval, pairs, split."""

    group: tuple[str, int, str]
    openings: int
    games: int
    draws: int
    score: float
    interval: tuple[float, float]
    pairs: int
    split: int
    flagged: int
    expected: float | None = None       # the openings' chance over their pairs (None without pairs)

    @property
    def chance(self) -> float:
        """The share of pairs split by seat if each game were an independent draw: `expected` (by
        the seat results of each pairing, :func:`pair_chance`) when there are pairs, else at the
        group's first-seat score s: s^2 + (1 - s)^2 (draws aside), what self-play of one engine gives."""
        if self.expected is not None:
            return self.expected
        return self.score ** 2 + (1 - self.score) ** 2


_Rates = dict[tuple[tuple[str, int, str], str, str], tuple[int, int, int]]


def seat_rates(games: Mapping[tuple[int, str], _Game]) -> _Rates:
    """(group, x, y) -> (games, wins of the first seat x, wins of the second seat y) over the games
    engine x played first against y."""
    rates: dict[tuple, list[int]] = {}
    for group, _pair, first, second, winner, _line in games.values():
        r = rates.setdefault((group, first, second), [0, 0, 0])
        r[0] += 1
        r[1] += winner == first
        r[2] += winner == second
    return {k: (g, w, l) for k, (g, w, l) in rates.items()}


def pair_chance(rates: _Rates, group: tuple[str, int, str], x: str, y: str) -> float:
    """The chance that a pair of x and y splits by seat if each game were an independent draw at
    its pairing's seat results: with w(x, y) and l(x, y) the first seat's win and loss rates in the
    games x played first against y, w(x, y) w(y, x) + l(x, y) l(y, x). In self-play (one engine, or
    two of one strength) that is s^2 + (1 - s)^2 at first-seat score s (one half at s = 1/2);
    between engines of different strength it is lower (a stronger x wins as first seat and as
    second), about 2 p (1 - p) when x scores p whatever its seat. 0 when a pairing has no game."""
    gxy, wxy, lxy = rates.get((group, x, y), (0, 0, 0))
    gyx, wyx, lyx = rates.get((group, y, x), (0, 0, 0))
    if not gxy or not gyx:
        return 0.0
    return (wxy / gxy) * (wyx / gyx) + (lxy / gxy) * (lyx / gyx)


def expected_split(games: Mapping[tuple[int, str], _Game]) -> dict[tuple[str, int, str], float]:
    """Per group, the mean of :func:`pair_chance` over its finished pairs: the share of its pairs
    that would split by seat by chance alone (the group's :attr:`Summary.chance`)."""
    sums: dict[tuple[str, int, str], list[float]] = {}
    for s in opening_stats(games):
        acc = sums.setdefault(s.group, [0.0, 0])
        acc[0] += s.chance_sum
        acc[1] += s.pairs
    return {group: total / count for group, (total, count) in sums.items() if count}


def summaries(stats: Iterable[OpeningStats], band: tuple[float, float] = DEFAULT_BAND) -> list[Summary]:
    """One :class:`Summary` per group, in group order; its split share by chance is the mean of
    the openings' (:attr:`OpeningStats.chance`) over its pairs."""
    by: dict[tuple, list[OpeningStats]] = {}
    for s in stats:
        by.setdefault(s.group, []).append(s)
    out = []
    for group in sorted(by):
        rows = by[group]
        games = sum(s.games for s in rows)
        points = sum(s.points for s in rows)
        score = points / games if games else 0.5
        pairs = sum(s.pairs for s in rows)
        out.append(Summary(group, len(rows), games, sum(s.draws for s in rows), score, wilson(score, games), pairs,
                           sum(s.split for s in rows), sum(1 for s in rows if s.flag(band)),
                           sum(s.chance_sum for s in rows) / pairs if pairs else None))
    return out


def parse_band(text: str) -> tuple[float, float]:
    """`LO-HI` in percent (``40-60``) or as fractions (``0.4-0.6``); ValueError naming the defect."""
    from hexarena.engine.numbers import decimal
    lo_text, sep, hi_text = text.partition("-")
    if not sep:
        raise ValueError(f"band {text!r}: expected LO-HI, e.g. 40-60")
    lo, hi = decimal(lo_text.strip(), "band LO"), decimal(hi_text.strip(), "band HI")
    if hi > 1 or lo > 1:
        lo, hi = lo / 100, hi / 100
    if not 0 <= lo < hi <= 1:
        raise ValueError(f"band {text!r}: expected 0 <= LO < HI <= 100")
    return lo, hi


CSV_COLUMNS = ("by", "game", "size", "variant", "opening", "games", "draws", "pairs", "score", "low", "high",
               "LL", "LD", "WL+DD", "WD", "WW", "split", "split_share", "split_chance", "flag")


def csv_rows(stats: Iterable[OpeningStats], by: str, band: tuple[float, float]) -> Iterable[list]:
    """The rows of the CSV (:data:`CSV_COLUMNS`)."""
    for s in stats:
        r = s.row(band)
        yield [by, r["game"], r["size"], r["variant"], r["opening"], r["games"], r["draws"], r["pairs"], r["score"],
               r["low"], r["high"], *r["penta"], r["split"], r["split_share"],
               "" if r["chance"] is None else r["chance"], r["flag"]]


def table_lines(stats: Iterable[OpeningStats], band: tuple[float, float], width: int = 40) -> list[str]:
    """A plain-text table, one line per opening, with a header."""
    head = (f"{'group':<16} {'opening':<{width}} {'games':>5} {'pairs':>5} {'1st seat':>8} {'95% interval':>13} "
            f"{'LL-LD-WL/DD-WD-WW':>19} {'split':>6} {'chance':>6}  flag")
    out = [head]
    for s in stats:
        lo, hi = s.interval
        line = " ".join(s.line) or "(none)"
        if len(line) > width:
            line = line[:width - 3] + "..."
        group = "-".join([s.group[0], str(s.group[1]), *s.group[2].split()])
        penta = "-".join(str(c) for c in s.penta)
        split = f"{100 * s.split_share:.0f}%" if s.pairs else "-"
        chance = "-" if s.chance is None else f"{100 * s.chance:.0f}%"
        out.append(f"{group:<16} {line:<{width}} {s.games:>5} {s.pairs:>5} {100 * s.score:>7.1f}% "
                   f"{100 * lo:>5.1f}-{100 * hi:>5.1f}% {penta:>19} {split:>6} {chance:>6}  {s.flag(band)}")
    return out
