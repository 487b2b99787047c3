"""The fits of a set of games, grouped: all games pooled, or per (game, size) pool (numpy only).

:func:`fit_groups` is what ``hexarena ratings`` (through :func:`.report.build_reports`, which
adds the pandas tables) and the HTML report (which reads :mod:`.columns`) both fit.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hexarena.results.rating.counts import Counts
from hexarena.results.rating.ratings import Fit, fit
from hexarena.results.record.game import GROUP_KEYS, GameRecord


@dataclass(frozen=True)
class Group:
    """The fit of one group of games; `key` is {} for all games pooled."""

    key: Mapping[str, object]
    counts: Counts
    fit: Fit

    @property
    def title(self) -> str:
        if not self.key:
            return "all games"
        return "/".join(str(self.key[k]) for k in GROUP_KEYS if k in self.key)

    @property
    def slug(self) -> str:
        return "all" if not self.key else "-".join(str(self.key[k]) for k in GROUP_KEYS if k in self.key)

    @property
    def games(self) -> int:
        return int(self.counts.games.sum())


def fit_groups(counts: Counts, by: Sequence[str] | None = None,
               anchor: Mapping[str, float] | None = None) -> list[tuple[Mapping[str, object], Counts, Fit]]:
    """(key, counts, fit) of each group of `counts`: `by` None, all games pooled, followed by
    one group per (game, size) pool when there are several; `by` ``()``: pooled only;
    otherwise one group per value of those keys (checked by the caller: a subset of GROUP_KEYS).
    Every fit has one advantage per (game, size) pool."""
    keys: list[tuple[str, ...]] = [()] if by is None or not by else []
    if by is None and len(counts.pools) > 1:
        keys.append(GROUP_KEYS)
    elif by:
        keys.append(tuple(k for k in GROUP_KEYS if k in by))
    out: list[tuple[Mapping[str, object], Counts, Fit]] = []
    for key in keys:
        groups: dict[tuple, list[int]] = {}
        for p, pool in enumerate(counts.pools):
            value = tuple(pool[GROUP_KEYS.index(k)] for k in key)
            groups.setdefault(value, []).append(p)
        for value, pools in groups.items():
            part = counts if len(pools) == len(counts.pools) else counts.select(pools)
            out.append((dict(zip(key, value)), part, fit(part, anchor)))
    return out


def adjudicated_kinds(records: Iterable[GameRecord]) -> Counter[str]:
    """Adjudicated games by how they were decided (:attr:`GameRecord.adjudicated_by`)."""
    return Counter(r.adjudicated_by for r in records if r.adjudicated_by is not None)
