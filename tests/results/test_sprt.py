"""The generalized SPRT: LLR against an independent numerical maximum likelihood, published
fastchess values, bounds, and pairs from a journal."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from hexarena.results.record.game import GameRecord
from hexarena.results.sprt import (NELO_PER_T, Pair, SprtSettings, elo_to_score, estimate, evaluate, llr,
                                   pairs, pentanomial)


def reference_llr(counts, elo0, elo1, model):
    """max log-likelihood under H1 minus under H0, found by SLSQP over log-probabilities u
    (p = exp u, sum p = 1) with the model's constraint (mean score for logistic, t-value for
    normalized); zero counts become 1e-3 (the regularization of fishtest and fastchess, part of
    the definition)."""
    n = np.array([c if c > 0 else 1e-3 for c in counts], float)
    k = len(n)
    a = np.arange(k) / (k - 1)

    def best(elo):
        if model == "logistic":
            s = elo_to_score(elo)

            def g(u):
                return np.exp(u) @ a - s
        else:
            t = elo / NELO_PER_T * (math.sqrt(2) if k == 5 else 1)

            def g(u):
                p = np.exp(u)
                mu = p @ a
                return (mu - 0.5) - t * math.sqrt(p @ (a - mu) ** 2)
        cons = [{"type": "eq", "fun": g}, {"type": "eq", "fun": lambda u: np.exp(u).sum() - 1}]
        found = minimize(lambda u: -(n @ u), np.log(np.ones(k) / k), jac=lambda u: -n, method="SLSQP",
                         bounds=[(-50, 0)] * k, constraints=cons, options={"ftol": 1e-14, "maxiter": 500})
        assert found.success, found.message
        return -found.fun
    return best(elo1) - best(elo0)


CASES = [
    ([3, 10, 20, 12, 5], 0, 10),
    ([1, 60, 500, 1200, 600], 0, 5),
    ([365, 16618, 36229, 16974, 390], 0, 2),
    ([10, 0, 25, 0, 14], -5, 5),              # drawless game: no LD or WD pairs
    ([0, 0, 0, 0, 104], 0, 5),                # one side won everything
    ([40, 3, 2, 1, 0], 0, 10),
    ([0, 0, 7, 0, 0], -10, 20),
    ([5, 12, 30], 0, 10),                     # trinomial [L, D, W]
    ([0, 0, 16700], 0, 5),
    ([12, 0, 15], -20, 20),                   # drawless trinomial
    ([13, 0, 0, 0, 0], -1000, 0),             # bounds far from the data (t approached in steps)
    ([3, 10, 20, 12, 5], 0, 300),
]


def test_all_draws_is_the_maximum_likelihood_ratio_not_where_fastchess_stops():
    # fastchess's Stats(0, 0, 16700) (wins, losses, draws): 16,700 draws, [L, D, W] = [0, 16700, 0];
    # fastchess publishes 2.97 (where its iteration stops); the maximum likelihood ratio, by
    # fishtest's algorithm and by an SLSQP constrained on (mu - 1/2) / sigma = t, is -3.4505
    assert llr([0, 16700, 0], 0, 5, "normalized") == pytest.approx(-3.4505, abs=1e-3)


@pytest.mark.parametrize("model", ["normalized", "logistic"])
@pytest.mark.parametrize("counts, elo0, elo1", CASES)
def test_llr_is_the_maximum_likelihood_ratio(counts, elo0, elo1, model):
    assert llr(counts, elo0, elo1, model) == pytest.approx(reference_llr(counts, elo0, elo1, model), abs=1e-3)


# fastchess app/tests/sprt_test.cpp (published to two decimals; alpha = beta = 0.05). Pentanomial
# Stats(LL, LD, WL, DD, WD, WW) gives [LL, LD, WL+DD, WD, WW]; trinomial Stats(W, L, D) gives [L, D, W].
FASTCHESS = [
    ([36027, 68692, 36433], 0, 2, "normalized", 0.92),
    ([10650, 20431, 10871], -1.75, 0.25, "normalized", 2.30),
    ([21184, 40708, 21404], 0.5, 2.5, "logistic", -1.57),
    ([57030, 106593, 57433], 0, 2, "logistic", -2.59),
    ([365, 16618, 36029 + 200, 16974, 390], 0, 2, "normalized", 2.25),
    ([127, 4883, 10311 + 401, 5150, 104], -1.75, 0.25, "normalized", 3.01),
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, "logistic", -3.07),
    ([871, 26175, 55003 + 980, 26678, 821], 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize("counts, elo0, elo1, model, published", FASTCHESS)
def test_llr_matches_the_values_fastchess_publishes(counts, elo0, elo1, model, published):
    assert llr(counts, elo0, elo1, model) == pytest.approx(published, abs=0.006)


@pytest.mark.parametrize("model", ["normalized", "logistic"])
@pytest.mark.parametrize("counts, elo0, elo1", [([4, 11, 23, 9, 6], 0, 10), ([13, 0, 0, 0, 0], 0, 1000)])
def test_seen_from_the_other_engine_the_llr_changes_sign(model, counts, elo0, elo1):
    assert llr(counts[::-1], -elo1, -elo0, model) == pytest.approx(-llr(counts, elo0, elo1, model), abs=1e-6)


def test_bounds_and_the_line():
    sprt = SprtSettings(0, 10)
    assert sprt.bounds == pytest.approx((-2.944439, 2.944439))
    assert sprt.line(2.96) == "LLR 2.96 (-2.94, 2.94) [0, 10]"
    assert sprt.verdict(2.96) == "H1" and sprt.verdict(-3) == "H0" and sprt.verdict(0.5) is None
    lower, upper = SprtSettings(-5, 5, alpha=0.01, beta=0.1).bounds
    assert lower == pytest.approx(math.log(0.1 / 0.99)) and upper == pytest.approx(math.log(0.9 / 0.01))


@pytest.mark.parametrize("kwargs", [
    {"elo0": 10, "elo1": 0}, {"elo0": 0, "elo1": 0}, {"elo0": 0, "elo1": 5, "alpha": 0},
    {"elo0": 0, "elo1": 5, "beta": 1}, {"elo0": 0, "elo1": 5, "alpha": 0.6, "beta": 0.5},
    {"elo0": 0, "elo1": 5, "model": "bayesian"}, {"elo0": 0, "elo1": 5, "max_games": 1},
    {"elo0": float("nan"), "elo1": 5},
])
def test_settings_refuse_nonsense(kwargs):
    with pytest.raises(ValueError):
        SprtSettings(**kwargs)


def test_evaluate_counts_every_finished_pair():
    wins = [Pair((f"g/{2 * i:04d}", f"g/{2 * i + 1:04d}"), 2.0) for i in range(40)]
    state = evaluate(SprtSettings(0, 50, model="logistic"), wins)
    assert state.counts == [0, 0, 0, 0, 40] and state.games == 80
    assert state.verdict == "H1" and state.llr == llr([0, 0, 0, 0, 40], 0, 50, "logistic") > state.settings.bounds[1]
    undecided = evaluate(SprtSettings(0, 10), [Pair(("a", "b"), 1.0)] * 3)
    assert undecided.verdict is None and undecided.counts == [0, 0, 3, 0, 0]
    assert evaluate(SprtSettings(0, 10), []).verdict is None


def test_the_elo_estimate_and_its_interval():
    est = estimate([20, 40, 80, 40, 20])
    assert est.elo == pytest.approx(0) and est.elo_low == pytest.approx(-est.elo_high) and est.elo_low < 0
    assert est.nelo == pytest.approx(0)
    counts = [1, 60, 500, 1200, 600]
    strong = estimate(counts)
    mu = (60 * .25 + 500 * .5 + 1200 * .75 + 600) / 2361
    assert strong.elo == pytest.approx(-400 * math.log10(1 / mu - 1))
    # with many pairs the likelihood-ratio interval is the normal one
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, (0, .25, .5, .75, 1))) / 2361
    half = 1.959964 * math.sqrt(var / 2361)
    assert strong.elo_low == pytest.approx(-400 * math.log10(1 / (mu - half) - 1), abs=0.3)
    assert strong.elo_high == pytest.approx(-400 * math.log10(1 / (mu + half) - 1), abs=0.3)
    assert estimate([0] * 5) is None


def test_a_one_sided_match_has_a_finite_bound_on_its_other_side():
    won = estimate([0, 0, 0, 0, 13])
    assert won.elo == math.inf and won.elo_high == math.inf and 100 < won.elo_low < 1000
    lost = estimate([13, 0, 0, 0, 0])
    assert lost.elo_high == pytest.approx(-won.elo_low) and lost.elo_low == -math.inf
    assert estimate([0, 0, 0, 0, 40]).elo_low > won.elo_low          # more evidence, a higher floor


def _record(gid, first, second, winner, result=None, pair=None, size=5):
    result = result or ("0" if winner is None else "B+")
    termination = "void" if result == "Void" else "ply-cap" if winner is None else "no-moves"
    return GameRecord(id=gid, game="spelde", size=size, variant="pie", first=first, second=second, black=first,
                      white=second, winner=winner, result=result, termination=termination, plies=10, pair=pair)


def test_pairs_from_a_journal_pair_the_games_of_one_pair_number_in_a_group():
    g = "spelde-5-pie/"
    records = [
        _record(g + "0000", "new", "old", "new", pair=0), _record(g + "0001", "old", "new", "new", pair=0),  # WW
        _record(g + "0002", "new", "old", None, pair=1), _record(g + "0003", "old", "new", "old", pair=1),   # DL
        _record(g + "0004", "new", "old", "old", pair=2),                                                    # alone
        _record(g + "0006", "new", "old", None, "Void", pair=3), _record(g + "0007", "old", "new", "new", pair=3),
        _record(g + "0006", "new", "old", "old", pair=3),                                                   # replayed
        _record(g + "0008", "new", "old", "old"),                                                 # no partner
        _record("spelde-6-pie/0000", "new", "old", "old", pair=0, size=6),
        _record("spelde-6-pie/0001", "old", "new", "new", pair=0, size=6),
    ]
    found = pairs(records, "new", "old")
    assert [(p.ids[0][-4:], p.points) for p in found] == [("0000", 2.0), ("0002", 0.5), ("0006", 1.0),
                                                          ("0000", 1.0)]
    assert pentanomial(found) == [0, 1, 2, 0, 1]
    assert pentanomial(pairs(records, "old", "new")) == [1, 0, 2, 1, 0]


def test_records_without_a_pair_number_take_it_from_the_schedule():
    # a journal of schema 1 and three engines: the games of new-old are 0000, 0003 (pair 0), 0006, 0009 (pair 2)
    g = "spelde-5-pie/"
    order = [g + "0000", g + "0003", g + "0006", g + "0009"]
    schedule_pairs = {gid: ("spelde", 5, "pie", n // 2 * 2) for n, gid in enumerate(order)}
    records = [_record(order[0], "new", "old", "new"), _record(order[1], "old", "new", None),
               _record(g + "0001", "new", "third", "new"), _record(order[2], "new", "old", "old")]
    assert pairs(records, "new", "old") == []
    found = pairs(records, "new", "old", schedule_pairs)
    assert [(p.ids, p.points) for p in found] == [((order[0], order[1]), 1.5)]
