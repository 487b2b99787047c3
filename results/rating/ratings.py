"""Bradley-Terry ratings with a first-player advantage per (game, size) pool.

The model: in pool p, the first player i scores against the second player j
with probability ``1 / (1 + 10 ** (-(r_i - r_j + a_p) / 400))``; a draw counts
as half a win for each side. All games are fitted at once (maximum
likelihood, Newton's method on counts per (first, second, pool)), so the
ratings do not depend on the order of the games.

When the maximum does not exist (see :mod:`hexarena.results.rating.finite_maximum`) the fit falls
back to a weak prior, BayesElo style: every player gets two virtual draws
against the pool (an opponent at the pool's mean rating) and every pool two
virtual draws between equal players; rows whose estimate rests on that prior
are marked. numpy only (scipy is not a dependency).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from hexarena.results.rating.counts import Counts
from hexarena.results.rating.finite_maximum import Obstacles, find_obstacles

LAMBDA = math.log(10) / 400       # natural log-odds per Elo
Z95 = 1.959963984540054           # two-sided 95% normal quantile
MAX_ITERATIONS = 100
STEP_TOLERANCE = 1e-11            # natural units; about 2e-9 Elo
DIVERGED = 40.0                   # natural units (about 7000 Elo): no finite maximum


class NoMaximum(ArithmeticError):
    """The likelihood has no finite maximum and the prior was refused (prior=False)."""


@dataclass(frozen=True)
class Fit:
    """Ratings in Elo, anchored; `cov` is their covariance (Elo squared) under that anchoring.

    `prior` says whether the weak prior was used; `reasons` why; `marked` the
    players and `marked_pools` the pools whose estimates rest on it.
    """

    players: tuple[str, ...]
    pools: tuple[tuple[str, int], ...]
    elo: np.ndarray
    cov: np.ndarray
    advantage: np.ndarray
    advantage_se: np.ndarray
    anchor: tuple[str, float] | None
    prior: bool
    reasons: tuple[str, ...]
    marked: frozenset[str]
    marked_pools: frozenset[tuple[str, int]]
    loglik: float

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    def los(self, i: int, j: int) -> float:
        """Likelihood of superiority: the probability that player i is stronger than j."""
        var = self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j]
        diff = self.elo[i] - self.elo[j]
        if var <= 0:
            return 0.5 if diff == 0 else float(diff > 0)
        return 0.5 * math.erfc(-diff / math.sqrt(2 * var))

    def los_matrix(self) -> np.ndarray:
        """LOS of every row player over every column player (0.5 on the diagonal)."""
        n = len(self.players)
        return np.array([[self.los(i, j) for j in range(n)] for i in range(n)])


def fit(counts: Counts, anchor: Mapping[str, float] | None = None, prior: bool | None = None) -> Fit:
    """The joint fit of all games in `counts`.

    `anchor` maps player names to Elo; the first one that plays here is pinned
    (its rating gets standard error 0), otherwise the mean rating is 0.
    `prior` None uses the weak prior only when the maximum does not exist;
    True always; False never (raises NoMaximum when it does not exist).
    Raises ValueError when there are no games.
    """
    if len(counts.first) == 0:
        raise ValueError("no games to rate")
    obstacles = find_obstacles(counts)
    if obstacles.reasons and prior is False:
        raise NoMaximum("; ".join(obstacles.reasons))
    use_prior = bool(obstacles.reasons) if prior is None else prior
    theta, info, converged, loglik = _newton(counts, use_prior)
    if not use_prior and not converged:
        if prior is False:
            raise NoMaximum("the likelihood grows without bound (Newton's method diverged)")
        obstacles = Obstacles(("the likelihood grows without bound (Newton's method diverged)",),
                              frozenset(range(len(counts.players))), frozenset(range(len(counts.pools))))
        use_prior = True
        theta, info, converged, loglik = _newton(counts, True)
    if use_prior and not obstacles.reasons:
        obstacles = Obstacles(("the prior was requested",), frozenset(), frozenset())
    return _result(counts, anchor, theta, info, loglik, obstacles if use_prior else Obstacles.none())


def _result(counts: Counts, anchor: Mapping[str, float] | None, theta: np.ndarray, info: np.ndarray,
            loglik: float, obstacles: Obstacles) -> Fit:
    n, m = len(counts.players), len(theta)
    cov = np.zeros((m, m))
    cov[1:, 1:] = np.linalg.inv(info[1:, 1:])          # player 0 is held at 0 during the fit
    pinned = next(((name, float(elo)) for name, elo in (anchor or {}).items() if name in counts.players), None)
    if pinned is None:
        shift = np.eye(n) - np.full((n, n), 1.0 / n)
        offset = 0.0
    else:
        k = counts.players.index(pinned[0])
        shift = np.eye(n)
        shift[:, k] -= 1.0
        offset = pinned[1]
    elo = shift @ theta[:n] / LAMBDA + offset
    elo_cov = shift @ cov[:n, :n] @ shift.T / LAMBDA ** 2
    return Fit(counts.players, counts.pools, elo, elo_cov, theta[n:] / LAMBDA,
               np.sqrt(np.diag(cov)[n:]) / LAMBDA, pinned, bool(obstacles.reasons), obstacles.reasons,
               frozenset(counts.players[i] for i in obstacles.players),
               frozenset(counts.pools[p] for p in obstacles.pools), loglik)


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.exp(_log_sigmoid(x))


class _Model:
    """Log-likelihood, gradient and information (negative Hessian) of theta = (r, a), natural units."""

    def __init__(self, c: Counts, use_prior: bool):
        self.n, self.p = len(c.players), len(c.pools)
        self.m = self.n + self.p
        self.i, self.j, self.k = c.first, c.second, self.n + c.pool
        self.games, self.score = c.games.astype(float), c.score.astype(float)
        self.use_prior = use_prior
        m = self.m
        i, j, k = self.i, self.j, self.k
        self.flat = np.concatenate([i * m + i, j * m + j, k * m + k, i * m + j, j * m + i,
                                    i * m + k, k * m + i, j * m + k, k * m + j])
        self.sign = np.array([1, 1, 1, -1, -1, 1, 1, -1, -1], dtype=float)

    def eta(self, theta: np.ndarray) -> np.ndarray:
        return theta[self.i] - theta[self.j] + theta[self.k]

    def loglik(self, theta: np.ndarray) -> float:
        eta = self.eta(theta)
        value = float(np.sum(self.score * _log_sigmoid(eta) + (self.games - self.score) * _log_sigmoid(-eta)))
        if self.use_prior:
            x = self._prior_args(theta)
            value += float(np.sum(_log_sigmoid(x) + _log_sigmoid(-x)))
        return value

    def _prior_args(self, theta: np.ndarray) -> np.ndarray:
        r = theta[: self.n]
        return np.concatenate([r - r.mean(), theta[self.n:]])

    def derivatives(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        eta = self.eta(theta)
        prob = _sigmoid(eta)
        resid = self.score - self.games * prob
        m = self.m
        grad: np.ndarray = (np.bincount(self.i, resid, m) - np.bincount(self.j, resid, m) + np.bincount(self.k, resid, m))
        w = self.games * prob * (1.0 - prob)
        info: np.ndarray = np.bincount(self.flat, (self.sign[:, None] * w).ravel(), m * m).reshape(m, m)
        if self.use_prior:
            # two virtual draws: d/dx [log s(x) + log s(-x)] = 1 - 2 s(x); information 2 s(x) s(-x)
            x = self._prior_args(theta)
            s = _sigmoid(x)
            centre = np.eye(m)
            centre[: self.n, : self.n] -= 1.0 / self.n
            grad += centre.T @ (1.0 - 2.0 * s)
            info += centre.T @ np.diag(2.0 * s * (1.0 - s)) @ centre
        return grad, info


def _newton(c: Counts, use_prior: bool) -> tuple[np.ndarray, np.ndarray, int, float]:
    """theta (player 0 held at 0), the information at it, whether it converged, the log-likelihood.

    Not converged means the iterations ran out or theta left every plausible
    range: the likelihood then has no finite maximum.
    """
    model = _Model(c, use_prior)
    theta = np.zeros(model.m)
    value = model.loglik(theta)
    for _ in range(MAX_ITERATIONS):
        grad, info = model.derivatives(theta)
        try:
            step = np.linalg.solve(info[1:, 1:], grad[1:])
        except np.linalg.LinAlgError:      # the information vanished: theta is running off to infinity
            break
        t = 1.0
        while True:
            candidate = theta.copy()
            candidate[1:] += t * step
            new_value = model.loglik(candidate)
            if new_value >= value - 1e-12 * abs(value) or t < 1e-8:
                break
            t /= 2
        theta, value = candidate, new_value
        if np.abs(theta).max() > DIVERGED:
            break
        if np.abs(t * step).max() < STEP_TOLERANCE:
            _, info = model.derivatives(theta)
            return theta, info, True, value
    _, info = model.derivatives(theta)
    return theta, info, False, value
