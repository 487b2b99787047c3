"""The joint Bradley-Terry fit: against a statsmodels GLM, by hand, order independence."""
from __future__ import annotations

import math

import numpy as np
import pytest
import statsmodels.api as sm

from hexarena.results.rating.counts import aggregate
from hexarena.results.rating.ratings import LAMBDA, NoMaximum, fit
from tests.support.frames import frame_of, simulate, three_player_games

ELO = 400 / math.log(10)


def glm_oracle(counts):
    """Ratings (mean 0), their standard errors and the advantages from a logistic GLM.

    Design: one column per player but the first (+1 first, -1 second), one per
    pool; response the first player's score share, variance weights the games.
    """
    n, p = len(counts.players), len(counts.pools)
    rows = np.arange(len(counts.first))
    x = np.zeros((len(rows), n + p))
    x[rows, counts.first] += 1
    x[rows, counts.second] -= 1
    x[rows, n + counts.pool] = 1
    x = x[:, 1:]
    games = counts.games.astype(float)
    model = sm.GLM(counts.score / games, x, family=sm.families.Binomial(), var_weights=games)
    result = model.fit(tol=1e-14, maxiter=200)
    r = np.concatenate([[0.0], result.params[: n - 1]])
    cov = np.zeros((n, n))
    cov[1:, 1:] = result.cov_params()[: n - 1, : n - 1]
    centre = np.eye(n) - 1.0 / n
    elo = centre @ r * ELO
    se = np.sqrt(np.diag(centre @ cov @ centre.T)) * ELO
    adv = result.params[n - 1:] * ELO
    adv_se = result.bse[n - 1:] * ELO
    return elo, se, adv, adv_se


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pools", [
    {("spelde", 5): 0.0},
    {("spelde", 5): 60.0},
    {("spelde", 5): 80.0, ("spelde", 7): -30.0, ("anda", 6): 0.0},
])
def test_fit_matches_glm_oracle(seed, pools):
    rng = np.random.default_rng(seed)
    ratings = {f"p{i}": float(r) for i, r in enumerate(rng.normal(0, 200, 7))}
    counts = aggregate(simulate(rng, ratings, pools, games=900))
    result = fit(counts, prior=False)
    elo, se, adv, adv_se = glm_oracle(counts)
    assert not result.prior
    np.testing.assert_allclose(result.elo, elo, atol=1e-6, rtol=0)
    np.testing.assert_allclose(result.advantage, adv, atol=1e-6, rtol=0)
    np.testing.assert_allclose(result.se, se, rtol=1e-6)
    np.testing.assert_allclose(result.advantage_se, adv_se, rtol=1e-6)
    assert abs(result.elo.mean()) < 1e-9


def test_three_players_by_hand():
    result = fit(aggregate(frame_of(three_player_games())))
    step = 400 * math.log10(2)   # 120.412 Elo per factor 2
    assert result.players == ("A", "B", "C")
    np.testing.assert_allclose(result.elo, [step, 0.0, -step], atol=1e-8)
    np.testing.assert_allclose(result.advantage, [step], atol=1e-8)


def test_two_players_standard_error_by_hand():
    # A first: 3-1, B first: 1-3. p = 3/4 both ways -> a = 0, r_A - r_B = ln 3.
    # Information of (d, a): [[w1+w2, w1-w2], [w1-w2, w1+w2]], w = 4 * 3/16 = 3/4 each,
    # so var(d) = (w1+w2) / (4 w1 w2) = 2/3 and r_A = d/2 has se sqrt(2/3)/2 natural units.
    games = [("A", "B", "A")] * 3 + [("A", "B", "B")] + [("B", "A", "A")] * 3 + [("B", "A", "B")]
    result = fit(aggregate(frame_of(games)))
    assert result.elo[0] - result.elo[1] == pytest.approx(400 * math.log10(3), abs=1e-8)
    assert result.advantage[0] == pytest.approx(0.0, abs=1e-8)
    assert result.se[0] == pytest.approx(math.sqrt(2 / 3) / 2 * ELO, rel=1e-9)
    assert result.los(0, 1) == pytest.approx(0.5 * math.erfc(-math.log(3) / math.sqrt(2 * 2 / 3)), rel=1e-9)


def test_order_of_games_does_not_matter(rng):
    ratings = {"x": 100.0, "y": 0.0, "z": -50.0, "w": 30.0}
    frame = simulate(rng, ratings, {("anda", 5): 40.0, ("anda", 7): 0.0}, games=300)
    base = fit(aggregate(frame))
    for _ in range(3):
        shuffled = frame.sample(frac=1.0, random_state=int(rng.integers(1 << 30))).reset_index(drop=True)
        swapped = shuffled.copy()
        other = fit(aggregate(swapped))
        assert other.players == base.players and other.pools == base.pools
        np.testing.assert_allclose(other.elo, base.elo, atol=1e-9)
        np.testing.assert_allclose(other.cov, base.cov, atol=1e-9)


def test_anchor_pins_a_player_and_keeps_differences(rng):
    frame = simulate(rng, {"a": 0.0, "b": 100.0, "c": 200.0}, {("anda", 5): 0.0}, games=300)
    free = fit(aggregate(frame))
    pinned = fit(aggregate(frame), anchor={"nobody": 5.0, "b": 1500.0})
    assert pinned.anchor == ("b", 1500.0)
    assert pinned.elo[1] == pytest.approx(1500.0)
    assert pinned.se[1] == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(pinned.elo - pinned.elo[1], free.elo - free.elo[1], atol=1e-9)
    # the standard error of a difference does not depend on the anchor
    var_free = free.cov[0, 0] + free.cov[2, 2] - 2 * free.cov[0, 2]
    assert pinned.cov[0, 0] + pinned.cov[2, 2] - 2 * pinned.cov[0, 2] == pytest.approx(var_free)
    assert pinned.los(2, 0) == pytest.approx(free.los(2, 0))


def test_los_matrix_is_complementary(rng):
    frame = simulate(rng, {"a": 0.0, "b": 30.0, "c": 60.0, "d": -20.0}, {("anda", 5): 0.0}, games=200)
    los = fit(aggregate(frame)).los_matrix()
    np.testing.assert_allclose(los + los.T, 1.0, atol=1e-12)
    assert np.all(np.diag(los) == 0.5)


def test_natural_scale():
    assert LAMBDA == pytest.approx(math.log(10) / 400)


def test_no_games_is_an_error():
    with pytest.raises(ValueError, match="no games"):
        fit(aggregate(frame_of([])))


def test_prior_false_refuses_when_no_maximum():
    with pytest.raises(NoMaximum, match="won every game"):
        fit(aggregate(frame_of([("A", "B", "A"), ("B", "A", "A"), ("A", "C", "C"), ("C", "B", "C")])),
            prior=False)
