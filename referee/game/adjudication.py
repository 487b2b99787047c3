"""Adjudication on the engines' winrates (docs/tournament.md, "Adjudication"): a pure judge.

The turn loop (match.py) tells the :class:`Judge` each engine's analysis of
each of its moves (:meth:`Judge.saw`) and asks it, before every `genmove`,
whether the game is decided (:meth:`Judge.verdict`). An engine speaks for
itself: a `winrate` is the mover's chance to win (docs/protocol.md,
"Analysis"), so winrates are kept by seat, and a swap of colours changes
nothing. A move's winrate is the one of its first info line that has one;
a move without one (no analysis, no `winrate` key) breaks that engine's run.

* resign: with `two_sided`, a seat wins when, on each of its last
  `resign_moves` moves, it reported a winrate >= `resign_winrate` (a claim)
  and, on each of its opponent's last `resign_moves` moves, the opponent
  reported one <= 1 - `resign_winrate` (a concession). One-sided (`two_sided
  = false`), a concession is enough (an engine's word against itself), and
  so is a claim that the opponent's own analysis does not contradict: on
  each of its last `resign_moves` moves the opponent reported a winrate of
  at most 1 - `resign_winrate` + :data:`CLAIM_SLACK` (it thinks it is
  losing, if less surely than a concession). So a claim alone wins nothing:
  an engine that claims every game is stopped by an opponent that thinks
  otherwise, and one that reports no winrates is never adjudicated against
  on one-sided evidence. When both seats qualify (two claims, or two
  concessions) nothing is decided.
* draw: from ply `draw_after` on (plies of the game, opening included, as
  the ply cap counts them), when each engine's winrates on its last
  `draw_moves` moves are all within `draw_margin` of 0.5. Both engines must
  report them.

`resign_moves = 0` turns the resign rule off, `draw_moves = 0` the draw rule.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from hexarena.engine.core import Colour, Outcome, Termination

#: Winrates are compared with this slack, so that thresholds are inclusive as written: 0.45 is within
#: 0.05 of 0.5 and 0.05 is at most 1 - 0.95 (binary fractions miss both by about 1e-17).
EPSILON = 1e-9
#: How far the opponent's own winrates may be above a concession's bound (1 - `resign_winrate`)
#: for a one-sided claim to win: with 0.95, a claim wins only while the opponent reports <= 0.30.
CLAIM_SLACK = 0.25
#: The most moves a run may be asked to last.
MAX_MOVES = 10_000


@dataclass(frozen=True)
class Adjudication:
    """The `[adjudication]` table; ValueError naming the field for a value out of range."""

    resign_winrate: float = 0.95
    resign_moves: int = 4
    two_sided: bool = True
    draw_after: int = 200
    draw_margin: float = 0.05
    draw_moves: int = 8

    def __post_init__(self) -> None:
        if not 0.5 < self.resign_winrate <= 1.0:
            raise ValueError(f"resign_winrate: expected a number above 0.5 and at most 1, got {self.resign_winrate!r}")
        if not 0.0 <= self.draw_margin < 0.5:
            raise ValueError(f"draw_margin: expected a number from 0 to below 0.5, got {self.draw_margin!r}")
        for name in ("resign_moves", "draw_moves"):
            if not 0 <= getattr(self, name) <= MAX_MOVES:
                raise ValueError(f"{name}: expected an integer in 0..{MAX_MOVES}, got {getattr(self, name)!r}")
        if self.draw_after < 0:
            raise ValueError(f"draw_after: expected an integer >= 0, got {self.draw_after!r}")
        if not self.resign_moves and not self.draw_moves:
            raise ValueError("resign_moves and draw_moves are both 0: no rule is left (remove the table)")


#: The table's keys, in order.
KEYS = tuple(f.name for f in fields(Adjudication))


@dataclass(frozen=True)
class Verdict:
    """A decided game: `winner` a seat (0 or 1) or None for a draw; `rule` `resign` or `draw`;
    `by` `both`, `claim` or `concession`; `ply` the plies played; `winrates` each seat's last
    winrates, oldest first, as the rule read them."""

    winner: int | None
    rule: str
    by: str
    ply: int
    winrates: tuple[tuple[float | None, ...], tuple[float | None, ...]]

    def outcome(self, holder: dict[Colour, int]) -> Outcome:
        """The game's outcome, `holder` saying which seat holds each colour now."""
        winner = None if self.winner is None else next(c for c, s in holder.items() if s == self.winner)
        return Outcome(winner, Termination.ADJUDICATED)

    def as_dict(self) -> dict:
        """The journal's `adjudication` field."""
        return {"rule": self.rule, "by": self.by, "ply": self.ply, "winrates": [list(w) for w in self.winrates]}

    def reason(self, names: tuple[str, str], rules: Adjudication) -> str:
        """The record's `reason`: who decided what, with the thresholds."""
        if self.winner is None:
            return (f"a draw: both winrates within {rules.draw_margin:g} of 0.5 on {rules.draw_moves} moves each, "
                    f"from ply {rules.draw_after} on")
        winner, loser = names[self.winner], names[1 - self.winner]
        high, low, n = f"{rules.resign_winrate:g}", f"{1 - rules.resign_winrate:.6g}", rules.resign_moves
        if self.by == "both":
            return f"{winner} and {loser} agree that {winner} wins " \
                   f"({winner}'s winrate >= {high}, {loser}'s <= {low}, on {n} moves each)"
        if self.by == "claim":
            return f"{winner} claims the win (its winrate >= {high} on {n} moves; " \
                   f"{loser}'s <= {1 - rules.resign_winrate + CLAIM_SLACK:.6g})"
        return f"{loser} concedes (its winrate <= {low} on {n} moves)"


def winrate_of(infos: list[dict] | None) -> float | None:
    """A move's winrate: that of its first info line (journal form) with one; None without."""
    for info in infos or ():
        value = info.get("winrate")
        if value is not None:
            return float(value)
    return None


class Judge:
    """The winrates each seat reported on its moves, and the verdict they give under `rules`."""

    def __init__(self, rules: Adjudication):
        self.rules = rules
        self.seen: tuple[list[float | None], list[float | None]] = ([], [])

    def saw(self, seat: int, infos: list[dict] | None) -> None:
        """Seat `seat` moved, with these info lines (journal form; None: not asked)."""
        self.seen[seat].append(winrate_of(infos))

    def verdict(self, ply: int) -> Verdict | None:
        """The game's adjudication after `ply` plies, or None while it goes on."""
        return self._resign(ply) or self._draw(ply)

    def _last(self, seat: int, n: int) -> tuple[float, ...] | None:
        """Seat's last `n` winrates, or None when it made fewer moves or one lacked a winrate."""
        tail = [w for w in self.seen[seat][-n:] if w is not None]
        return tuple(tail) if len(tail) == n else None

    def _resign(self, ply: int) -> Verdict | None:
        n, high = self.rules.resign_moves, self.rules.resign_winrate
        if not n:
            return None
        tails = (self._last(0, n), self._last(1, n))
        claims = [t is not None and all(w >= high - EPSILON for w in t) for t in tails]
        concedes = [t is not None and all(w <= 1 - high + EPSILON for w in t) for t in tails]
        found: list[tuple[int, str]] = []
        for seat in (0, 1):
            other = 1 - seat
            tail = tails[other]
            if claims[seat] and concedes[other]:
                found.append((seat, "both"))
            elif not self.rules.two_sided and claims[seat] and tail is not None and all(
                    w <= 1 - high + CLAIM_SLACK + EPSILON for w in tail):
                found.append((seat, "claim"))
            elif not self.rules.two_sided and concedes[other]:
                found.append((seat, "concession"))
        if len(found) != 1:
            return None
        seat, by = found[0]
        return Verdict(seat, "resign", by, ply, (tuple(self.seen[0][-n:]), tuple(self.seen[1][-n:])))

    def _draw(self, ply: int) -> Verdict | None:
        n, margin = self.rules.draw_moves, self.rules.draw_margin
        if not n or ply < self.rules.draw_after:
            return None
        first, second = self._last(0, n), self._last(1, n)
        if first is None or second is None:
            return None
        if any(abs(w - 0.5) > margin + EPSILON for w in first + second):
            return None
        return Verdict(None, "draw", "both", ply, (first, second))


def first_verdict(rules: Adjudication, movers: Sequence[int], analysis: Sequence[list[dict] | None],
                  opening: int = 0) -> Verdict | None:
    """The verdict the turn loop reaches over a game's actions, or None: action i was chosen by seat
    `movers[i]` with the info lines `analysis[i]`; the loop asks before each `genmove` after the
    `opening` (and after the last action). A game that ended by the rules or the ply cap at its
    last action was not adjudicated there: that is the caller's to know."""
    judge = Judge(rules)
    for ply in range(opening, len(movers) + 1):
        verdict = judge.verdict(ply)
        if verdict is not None:
            return verdict
        if ply < len(movers):
            judge.saw(movers[ply], analysis[ply])
    return None
