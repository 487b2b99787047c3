"""The fair komi: where the first seat's expected score crosses one half, from games at several komi
values (`hexarena openings komi`, docs/openings.md). Pure, standard library only.

Model: the first seat's score at komi k is ``1 / (1 + exp(-(a + b k)))`` (a logistic curve, as a
dose-response curve of bioassay; a draw counts as half a win, quasi-binomial). The fit is the
maximum-likelihood (a, b) by Newton's method with a faint ridge on b (so results that separate
perfectly give a steep but finite curve); the fair komi is ``-a / b`` and its 95% interval is
Fieller's, the ratio's exact interval under the normal approximation of (a, b) (None when b is
not clearly below zero: the games do not yet tell which way the komi moves the score).

The search (:func:`next_komi`) brackets the crossing by steps that double, then plays at the
integer nearest the fitted crossing, alternating with its neighbour, so that games pile up where
they tell the most.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

Z95 = 1.959963984540054
RIDGE = 1e-4


@dataclass(frozen=True)
class KomiFit:
    """The fitted curve, the fair komi and its 95% interval (None: no clear slope yet)."""

    a: float
    b: float
    cov: tuple[float, float, float]         # var(a), cov(a, b), var(b)
    games: int

    @property
    def fair(self) -> float | None:
        return -self.a / self.b if self.b < 0 else None

    def score(self, komi: float) -> float:
        """The fitted first-seat score at `komi`."""
        return 1 / (1 + math.exp(-(self.a + self.b * komi)))

    @property
    def interval(self) -> tuple[float, float] | None:
        """Fieller's 95% interval of -a/b; None when the slope is not significantly negative."""
        va, cab, vb = self.cov
        z2 = Z95 * Z95
        if self.b >= 0 or self.b * self.b <= z2 * vb:
            return None
        # the k with (a + b k)^2 <= z^2 (va + 2 k cab + k^2 vb): a quadratic in k
        qa = self.b * self.b - z2 * vb
        qb = 2 * (self.a * self.b - z2 * cab)
        qc = self.a * self.a - z2 * va
        disc = qb * qb - 4 * qa * qc
        if disc < 0:
            return None
        root = math.sqrt(disc)
        return (-qb - root) / (2 * qa), (-qb + root) / (2 * qa)


def komi_text(komi: float) -> str:
    """A fitted komi with two decimals, never ``-0.00``."""
    return f"{komi if round(komi, 2) else 0.0:.2f}"


def fit(results: Mapping[int, tuple[int, float]]) -> KomiFit | None:
    """The logistic fit of `results` (komi -> (games, the first seat's points)); None with fewer
    than two komi values played."""
    data = [(k, n, p) for k, (n, p) in results.items() if n > 0]
    if len({k for k, _, _ in data}) < 2:
        return None
    centre = sum(k * n for k, n, _ in data) / sum(n for _, n, _ in data)     # better conditioned
    a = b = 0.0
    info = (1.0, 0.0, 1.0)
    for _ in range(100):
        ga = gb = 0.0
        haa = hab = hbb = 0.0
        for k, n, p in data:
            x = k - centre
            mu = 1 / (1 + math.exp(-(a + b * x)))
            w = n * mu * (1 - mu)
            ga += p - n * mu
            gb += (p - n * mu) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        gb -= RIDGE * b
        hbb += RIDGE
        det = haa * hbb - hab * hab
        if det <= 0:
            return None
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        info = (haa, hab, hbb)
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    haa, hab, hbb = info
    det = haa * hbb - hab * hab
    va, cab, vb = hbb / det, -hab / det, haa / det
    # back from the centred komi x = k - centre: a' = a - b centre
    a0 = a - b * centre
    va0 = va + centre * centre * vb - 2 * centre * cab
    cab0 = cab - centre * vb
    return KomiFit(a0, b, (va0, cab0, vb), sum(n for _, n, _ in data))


def next_komi(results: Mapping[int, tuple[int, float]], start: int, step: int, top: int) -> int:
    """The komi to play next, in 0..top: `start` first; while every komi played leaves the first
    seat above (below) one half, the largest (smallest) played plus `step` doubled for each komi
    beyond the first; once bracketed, the integer nearest the fitted crossing or its neighbour on
    the other side, whichever has fewer games."""
    played = {k: v for k, v in results.items() if v[0] > 0}
    if not played:
        return max(0, min(top, start))
    above = [k for k, (n, p) in played.items() if p / n > 0.5]
    below = [k for k, (n, p) in played.items() if p / n < 0.5]
    reach = step * 2 ** (len(played) - 1)
    if not below:
        return min(top, max(played) + reach)
    if not above:
        return max(0, min(played) - reach)
    f = fit(played)
    if f is None or f.fair is None:
        return max(0, min(top, round(sum(k for k in played) / len(played))))
    fair = max(min(above) - step, min(f.fair, max(below) + step))
    low, high = math.floor(fair), math.ceil(fair)
    if low == high:
        high = low + 1 if fair >= low + 0.0 else low - 1
    options = [k for k in (round(fair), low, high) if 0 <= k <= top]
    if not options:
        return max(0, min(top, round(fair)))
    return min(options, key=lambda k: (played.get(k, (0, 0.0))[0], abs(k - fair)))
