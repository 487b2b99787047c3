"""The generalized SPRT of a two-engine match, from pentanomial game-pair counts. Standard library only.

Over ~300 lines: the pair bookkeeping and both likelihood models (each with its
maximisation) are one computation and are tested together against one reference.

Method (docs/sprt.md): games are counted in pairs (the same opening, seats
exchanged); a pair scores 0, 1/2, 1, 3/2 or 2 points for the engine under
test, so a match is five counts [LL, LD, WL+DD, WD, WW] (the pentanomial;
three counts [L, D, W] also work). The log-likelihood ratio is the
generalized one of fishtest (M. Van den Bergh's LLRcalc) and fastchess: the
likelihood of the counts under the multinomial of largest likelihood whose
per-game score is that of elo1, over the same for elo0. Zero counts are
replaced by 1e-3 first, as both do, so one-sided and drawless matches work.

* ``logistic``: elo0/elo1 are logistic Elo; the constraint is the mean
  score s = 1 / (1 + 10^(-elo/400)).
* ``normalized``: elo0/elo1 are normalized Elo; the constraint is the
  t-value (mean - 1/2) / sigma = nElo / (800 / ln 10), times sqrt 2 for pairs
  (sigma of a pair's mean score, not of a game's).

The test accepts H1 (elo >= elo1) when the LLR reaches log((1 - beta) / alpha)
and H0 (elo <= elo0) when it falls to log(beta / (1 - alpha)).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .record.game import GameRecord

MODELS = ("normalized", "logistic")
NELO_PER_T = 800 / math.log(10)          # normalized Elo per unit of t-value
REGULARIZE = 1e-3
Z95 = 1.959963984540054


@dataclass(frozen=True)
class SprtSettings:
    """An SPRT: H0 elo <= elo0 against H1 elo >= elo1; error rates alpha, beta;
    `max_games`: stop undecided after this many games (None: when the schedule ends).
    ValueError naming the field when out of range."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"
    max_games: int | None = None

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{name} must be a number of Elo, got {value!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
                raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
        if self.alpha + self.beta >= 1:
            raise ValueError("alpha + beta must be below 1")
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, got {self.model!r}")
        if self.max_games is not None and (isinstance(self.max_games, bool) or not isinstance(self.max_games, int)
                                           or self.max_games < 2):
            raise ValueError(f"max_games must be a whole number >= 2, got {self.max_games!r}")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        return llr(counts, self.elo0, self.elo1, self.model)

    def verdict(self, value: float) -> str | None:
        """"H1", "H0" or None (continue) for an LLR value."""
        lower, upper = self.bounds
        return "H1" if value >= upper else "H0" if value <= lower else None

    def line(self, value: float) -> str:
        """`LLR 2.96 (-2.94, 2.94) [0, 10]`."""
        lower, upper = self.bounds
        return f"LLR {value:.2f} ({lower:.2f}, {upper:.2f}) [{self.elo0:g}, {self.elo1:g}]"


# -- the likelihood ratio ---------------------------------------------------------------------

def llr(counts: Sequence[float], elo0: float, elo1: float, model: str = "normalized") -> float:
    """The generalized log-likelihood ratio of H1 over H0 for pentanomial (5) or trinomial (3) counts."""
    if len(counts) not in (3, 5) or any(c < 0 for c in counts):
        raise ValueError(f"expected 3 or 5 counts >= 0, got {list(counts)!r}")
    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    n = [c if c > 0 else REGULARIZE for c in counts]
    total = sum(n)
    values = [i / (len(n) - 1) for i in range(len(n))]
    probs = [c / total for c in n]
    if model == "logistic":
        p0, p1 = (_mle_mean(values, probs, elo_to_score(e)) for e in (elo0, elo1))
    else:
        scale = math.sqrt(2) if len(n) == 5 else 1.0
        p0, p1 = (_mle_t_value(values, probs, 0.5, scale * e / NELO_PER_T) for e in (elo0, elo1))
    return sum(c * (math.log(b) - math.log(a)) for c, a, b in zip(n, p0, p1))


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def score_to_elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0       # + 0.0: an even score is 0, not -0


class _NoRoot(ArithmeticError):
    """The secular equation has no root: its shifts do not take both signs."""


def _secular(shifts: Sequence[float], probs: Sequence[float]) -> float:
    """The root x of sum p_i a_i / (1 + x a_i) = 0 with every 1 + x a_i > 0 (a_i of both signs).

    The sum falls strictly as x rises, from +inf to -inf across the interval, so
    bisection finds it to the last bit. _NoRoot when the a_i do not take both signs."""
    if not min(shifts) < 0 < max(shifts):
        raise _NoRoot
    lo, hi = -1 / max(shifts), -1 / min(shifts)

    def f(x: float) -> float:
        return sum(p * a / (1 + x * a) for a, p in zip(shifts, probs))

    for _ in range(300):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _mle_mean(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on `values` of largest likelihood for the observed `probs` with mean `s`
    (Van den Bergh, "Comments on normalized Elo", Proposition 1.1: p_i = phat_i / (1 + x (a_i - s)))."""
    shifts = [a - s for a in values]
    x = _secular(shifts, probs)
    return [p / (1 + x * a) for a, p in zip(shifts, probs)]


def _mle_t_value(values: Sequence[float], probs: Sequence[float], ref: float, t: float) -> list[float]:
    """The same with (mean - ref) / sigma = t, by the fixed-point iteration of section 4.1 of
    the same paper, started from the uniform distribution. Far from the data (a t-value the
    uniform start cannot reach in one step) t is approached from 0 in steps, each iteration
    starting from the last solution; ValueError if even that fails."""
    for steps in (1, 8, 64):
        p = [1 / len(values)] * len(values)
        try:
            for k in range(1, steps + 1):
                p = _t_fixed_point(values, probs, ref, t * k / steps, p)
            return p
        except _NoRoot:
            continue
    raise ValueError(f"no maximum-likelihood distribution found for t-value {t:g}")


def _t_fixed_point(values: Sequence[float], probs: Sequence[float], ref: float, t: float,
                   p: list[float]) -> list[float]:
    for _ in range(500):
        mu, var = mean_var(values, p)
        sigma = math.sqrt(var)
        phi = [a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2 for a in values]
        x = _secular(phi, probs)
        new = [q / (1 + x * f) for f, q in zip(phi, probs)]
        done = max(abs(a - b) for a, b in zip(new, p)) < 1e-13
        p = new
        if done:
            break
    return p


def mean_var(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mu = sum(a * p for a, p in zip(values, probs))
    return mu, sum(p * (a - mu) ** 2 for a, p in zip(values, probs))


# -- Elo estimate -----------------------------------------------------------------------------

@dataclass(frozen=True)
class EloEstimate:
    """Logistic Elo with its 95% likelihood-ratio interval, and normalized Elo with a 95%
    normal-approximation interval (+-inf where the data put no bound)."""

    elo: float
    elo_low: float
    elo_high: float
    nelo: float
    nelo_low: float
    nelo_high: float


CHI2_95 = 3.841458820694124        # the 95% point of chi-square with one degree of freedom


def estimate(counts: Sequence[int]) -> EloEstimate | None:
    """From raw pentanomial (or trinomial) counts; None when there is nothing to estimate.

    The logistic interval holds the mean scores s whose profile likelihood (the
    largest likelihood of the regularized counts with mean s) is within CHI2_95 / 2
    of the maximum, so a one-sided match still gets a finite bound on its other side."""
    total = sum(counts)
    if total == 0:
        return None
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    mu, var = mean_var(values, [c / total for c in counts])
    low, high = _profile_interval(values, [c if c > 0 else REGULARIZE for c in counts])
    games_per_unit = 2 if len(counts) == 5 else 1
    sigma_game = math.sqrt(games_per_unit * var)
    if sigma_game > 0:
        nelo = (mu - 0.5) / sigma_game * NELO_PER_T
    else:
        nelo = 0.0 if mu == 0.5 else math.copysign(math.inf, mu - 0.5)
    nhalf = Z95 * NELO_PER_T / math.sqrt(games_per_unit * total)
    return EloEstimate(score_to_elo(mu), score_to_elo(low), score_to_elo(high), nelo, nelo - nhalf, nelo + nhalf)


def _profile_interval(values: Sequence[float], counts: Sequence[float]) -> tuple[float, float]:
    total = sum(counts)
    probs = [c / total for c in counts]
    best, _ = mean_var(values, probs)
    edge = 1e-9

    def loglik(s: float) -> float:
        return sum(c * math.log(p) for c, p in zip(counts, _mle_mean(values, probs, s)))

    top = loglik(best)

    def inside(s: float) -> bool:
        return 2 * (top - loglik(s)) <= CHI2_95

    bounds = []
    for far in (values[0] + edge, values[-1] - edge):
        if inside(far):
            bounds.append(values[0] if far < best else values[-1])
            continue
        near = best
        for _ in range(100):
            mid = (near + far) / 2
            near, far = (mid, far) if inside(mid) else (near, mid)
        bounds.append(near)
    return bounds[0], bounds[1]


# -- pairs from a journal ---------------------------------------------------------------------

@dataclass(frozen=True)
class Pair:
    """Two games of one pairing with the seats exchanged; `points` of the engine under test (0..2)."""

    ids: tuple[str, str]
    points: float


def game_points(record: GameRecord, engine: str) -> float:
    """1 for a win of `engine`, 1/2 for a draw (a ply-cap adjudication without a winner), 0 for a loss."""
    return 0.5 if record.winner is None else 1.0 if record.winner == engine else 0.0


def pairs(records: Iterable[GameRecord], engine: str, opponent: str,
          schedule_pairs: Mapping[str, tuple[str, int, str, int]] | None = None) -> list[Pair]:
    """The finished pairs of games between `engine` and `opponent`, by group and pair number.

    A record's pair is its `pair` field within its (game, size, variant) group; a record
    without one (a journal line of schema 1) takes it from `schedule_pairs` (game id ->
    (game, size, variant, pair number), from the tournament's schedule) when given, else has none. A pair
    with a void or unplayed game is left out; of a game played twice (void, then replayed)
    the last finished record counts.
    """
    done: dict[str, GameRecord] = {}
    for r in records:
        if not r.void and {r.first, r.second} == {engine, opponent}:
            done[r.id] = r
    members: dict[tuple, list[str]] = {}
    for gid, r in done.items():
        key = pair_key(r, schedule_pairs)
        if key is not None:
            members.setdefault(key, []).append(gid)
    out = []
    for key in sorted(members):
        ids = sorted(members[key])
        if len(ids) == 2:
            out.append(Pair((ids[0], ids[1]), sum(game_points(done[gid], engine) for gid in ids)))
    return out


def pair_key(record: GameRecord, schedule_pairs: Mapping[str, tuple[str, int, str, int]] | None = None
             ) -> tuple | None:
    """The pair of a record (see :func:`pairs`): its group and pair number, or None."""
    if record.pair is not None:
        return (*record.group, record.pair)
    if schedule_pairs is not None and record.id in schedule_pairs:
        return schedule_pairs[record.id]
    return None


def unpaired(records: Iterable[GameRecord]) -> int:
    """How many finished records carry no pair number (journal lines of schema 1)."""
    return sum(1 for r in records if not r.void and r.pair is None)


def pentanomial(pair_list: Iterable[Pair]) -> list[int]:
    """[LL, LD, WL+DD, WD, WW] counts from the engine under test's side."""
    counts = [0] * 5
    for p in pair_list:
        counts[round(p.points * 2)] += 1
    return counts


# -- the state of a test ----------------------------------------------------------------------

@dataclass(frozen=True)
class SprtState:
    settings: SprtSettings
    counts: list[int]
    llr: float
    verdict: str | None                  # "H0", "H1", or None while undecided

    @property
    def games(self) -> int:
        return 2 * sum(self.counts)

    def report(self, engine: str, opponent: str) -> str:
        """The LLR line, the pentanomial counts and the Elo estimate of `engine` against `opponent`."""
        lines = [self.settings.line(self.llr) + (f"  {self.verdict} accepted" if self.verdict else ""),
                 f"pentanomial [LL, LD, WL+DD, WD, WW] of {engine}: {self.counts} ({sum(self.counts)} pairs)"]
        est = estimate(self.counts)
        if est is not None:
            lines.append(f"Elo of {engine} vs {opponent}: {est.elo:+.1f} [{est.elo_low:+.1f}, {est.elo_high:+.1f}]"
                         f"  nElo {est.nelo:+.1f} [{est.nelo_low:+.1f}, {est.nelo_high:+.1f}] (95%)")
        return "\n".join(lines)


def evaluate(settings: SprtSettings, pair_list: Sequence[Pair]) -> SprtState:
    """The test on every finished pair (what a live run shows after its last pair)."""
    return evaluate_counts(settings, pentanomial(pair_list))


def evaluate_counts(settings: SprtSettings, counts: list[int]) -> SprtState:
    """The test on the pentanomial `counts` (kept, not copied)."""
    value = settings.llr(counts) if any(counts) else 0.0
    return SprtState(settings, counts, value, settings.verdict(value) if any(counts) else None)
