"""When the maximum does not exist: detection, the weak prior, marked rows."""
from __future__ import annotations

import math

import numpy as np
import pytest

from hexarena.results.rating.finite_maximum import find_obstacles, has_negative_cycle, strong_components
from hexarena.results.rating.counts import aggregate
from hexarena.results.rating.ratings import fit
from tests.support.frames import frame_of, simulate


def penalised_loglik(games, elo: dict[str, float], adv: dict[tuple[str, int], float]) -> float:
    """Written from the docs, game by game: log-likelihood plus two virtual draws per player
    against the pool mean and per pool between equal players."""
    logistic = lambda x: 1 / (1 + 10 ** (-x / 400))
    total = 0.0
    for first, second, winner, game, size in games:
        p = logistic(elo[first] - elo[second] + adv[game, size])
        score = 0.5 if winner is None else float(winner == first)
        total += score * math.log(p) + (1 - score) * math.log(1 - p)
    mean = sum(elo.values()) / len(elo)
    for x in [e - mean for e in elo.values()] + list(adv.values()):
        total += math.log(logistic(x)) + math.log(1 - logistic(x))
    return total


def assert_is_posterior_mode(games, result):
    elo = dict(zip(result.players, result.elo))
    adv = dict(zip(result.pools, result.advantage))
    best = penalised_loglik(games, elo, adv)
    rng = np.random.default_rng(0)
    for _ in range(20):
        e2 = {k: v + rng.normal(0, 2) for k, v in elo.items()}
        a2 = {k: v + rng.normal(0, 2) for k, v in adv.items()}
        assert penalised_loglik(games, e2, a2) < best
    h = 1e-3
    for name in elo:  # the gradient is zero in every rating direction
        up = penalised_loglik(games, {**elo, name: elo[name] + h}, adv)
        down = penalised_loglik(games, {**elo, name: elo[name] - h}, adv)
        assert (up - down) / (2 * h) == pytest.approx(0, abs=1e-7)


def with_pool(games, pool=("spelde", 5)):
    return [(*g, *pool) for g in games]


def test_a_player_who_lost_every_game_is_marked():
    games = with_pool([("A", "B", "A"), ("B", "A", "A"), ("A", "C", "C"), ("C", "A", "A"), ("B", "C", "B"),
                       ("C", "B", "C"), ("A", "B", "B"), ("D", "A", "A"), ("B", "D", "B"), ("D", "C", "C")])
    result = fit(aggregate(frame_of(games)))
    assert result.prior
    assert result.marked == {"D"}
    assert any("D lost every game" in r for r in result.reasons)
    assert result.elo[result.players.index("D")] == min(result.elo)
    assert np.isfinite(result.se).all()
    assert_is_posterior_mode(games, result)


def test_a_group_that_beat_everyone_outside_it():
    inside = [("A", "B", "A"), ("B", "A", "A"), ("A", "B", "B"), ("B", "A", "B")]
    outside = [("C", "D", "C"), ("D", "C", "C"), ("C", "D", "D"), ("D", "C", "D")]
    across = [("A", "C", "A"), ("D", "B", "B"), ("C", "B", "B")]
    games = with_pool(inside + outside + across)
    result = fit(aggregate(frame_of(games)))
    assert result.prior
    assert result.marked == {"A", "B", "C", "D"}      # two components of equal size: all marked
    assert any("A, B won every game against the other players" in r for r in result.reasons)
    top = {result.players[i] for i in np.argsort(-result.elo)[:2]}
    assert top == {"A", "B"}
    assert_is_posterior_mode(games, result)


def test_first_player_always_won_two_player_tournament():
    games = with_pool([("a", "b", "a"), ("b", "a", "b")])
    result = fit(aggregate(frame_of(games)))
    assert result.prior
    assert result.marked_pools == {("spelde", 5)}
    assert result.elo == pytest.approx([0.0, 0.0], abs=1e-9)
    assert result.advantage[0] > 0
    assert_is_posterior_mode(games, result)


def test_strongly_connected_but_advantage_diverges():
    # a cycle of first-player wins: strongly connected, yet a -> +infinity explains everything
    games = with_pool([("A", "B", "A"), ("B", "C", "B"), ("C", "A", "C")])
    counts = aggregate(frame_of(games))
    obstacles = find_obstacles(counts)
    assert not any("only won or only lost" in r for r in obstacles.reasons)
    assert any("favour the first player every time" in r for r in obstacles.reasons)
    assert_is_posterior_mode(games, fit(counts))


def test_mixed_seat_results_have_a_maximum():
    # A beat B as second and B beat A as second, A beat B as first too: a is bounded
    games = with_pool([("A", "B", "A"), ("B", "A", "A"), ("A", "B", "B"), ("B", "A", "B"), ("A", "B", "A")])
    result = fit(aggregate(frame_of(games)))
    assert not result.prior and not result.reasons


def test_single_game_and_unidentified_advantage():
    games = with_pool([("x", "y", None)])
    result = fit(aggregate(frame_of(games)))
    assert result.prior
    assert any("does not separate" in r for r in result.reasons)
    assert_is_posterior_mode(games, result)


def test_prior_can_be_forced_on_good_data(rng):
    frame = simulate(rng, {"a": 0.0, "b": 100.0, "c": -100.0}, {("anda", 5): 0.0}, games=300)
    plain, forced = fit(aggregate(frame)), fit(aggregate(frame), prior=True)
    assert not plain.prior and forced.prior and forced.reasons == ("the prior was requested",)
    assert not forced.marked
    # six virtual games per player barely move 300 real ones
    assert np.abs(forced.elo - plain.elo).max() < 15
    assert np.abs(forced.elo).max() < np.abs(plain.elo).max()


def test_strong_components():
    win, lose = np.array([0, 1, 2, 3]), np.array([1, 2, 0, 0])
    comps = sorted(strong_components(5, win, lose))
    assert comps == [[0, 1, 2], [3], [4]]


def test_negative_cycle():
    win, lose = np.array([0, 1, 2]), np.array([1, 2, 0])
    assert has_negative_cycle(3, win, lose, np.array([1, -1, -1]))
    assert not has_negative_cycle(3, win, lose, np.array([1, -1, 0]))


def test_newton_divergence_guard_catches_what_the_checks_miss(monkeypatch):
    import hexarena.results.rating.ratings as ratings
    from hexarena.results.rating.finite_maximum import Obstacles
    monkeypatch.setattr(ratings, "find_obstacles", lambda counts: Obstacles.none())
    games = with_pool([("a", "b", "a"), ("b", "a", "b"), ("a", "b", "a")])
    result = fit(aggregate(frame_of(games)))
    assert result.prior and "diverged" in result.reasons[0]
    assert result.marked == {"a", "b"}
    assert_is_posterior_mode(games, result)
    with pytest.raises(ratings.NoMaximum, match="diverged"):
        fit(aggregate(frame_of(games)), prior=False)


def test_a_pool_whose_players_part_says_once_that_no_side_has_a_finite_edge(tmp_path):
    from click.testing import CliRunner
    from hexarena.cli import main
    csv = tmp_path / "two.csv"
    csv.write_text("game,size,first,second,winner\nspelde,4,greedy,random,greedy\nspelde,4,random,greedy,greedy\n",
                   encoding="utf-8")
    result = CliRunner().invoke(main, ["ratings", str(csv)], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    assert "player every time" not in result.output
    assert result.output.count("no first-player advantage can be measured in spelde/4: its results fit any edge") == 1
