"""Coverage of the 95% intervals: simulated round-robins with known true ratings.

Each round-robin: `players` players with ratings drawn from N(0, 150^2), one
(game, size) pool with a first-player advantage of 40 Elo; every ordered pair
plays `games` games (so each pair meets in both seats). The fit is anchored
at mean 0, so the target of each interval is the true rating minus the true
mean. Draws, when simulated, keep each game's expected score on the model
(draw probability 2 * rate * min(p, 1 - p)). Reported: how often the 95% interval covers it (goal 93-97%), the
same for the advantage, the mean LOS of a truly stronger neighbour, how many
fits needed the prior, and the time per fit.

    python -m bench.bench_rating_coverage [--runs 1000]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from bench.common import baseline_us, table
from hexarena.results.rating.counts import Counts
from hexarena.results.rating.ratings import Z95, fit

ADVANTAGE = 40.0


def round_robin(rng: np.random.Generator, players: int, games: int, draw: float) -> tuple[Counts, np.ndarray]:
    """Counts of one simulated round-robin and the true ratings (mean 0)."""
    truth = rng.normal(0, 150, players)
    truth -= truth.mean()
    first, second = (a.ravel() for a in np.meshgrid(np.arange(players), np.arange(players), indexing="ij"))
    keep = first != second
    first, second = first[keep], second[keep]
    p = 1 / (1 + 10 ** (-(truth[first] - truth[second] + ADVANTAGE) / 400))
    # draws keep the expected score at p (draws count as half a win): P(draw) = 2 * draw * min(p, 1 - p)
    p_draw = 2 * draw * np.minimum(p, 1 - p)
    outcome = np.array([rng.multinomial(games, [q - d / 2, d, 1 - q - d / 2]) for q, d in zip(p, p_draw)])
    wins, draws, losses = outcome.T
    counts = Counts(tuple(f"p{k}" for k in range(players)), (("spelde", 7),), first, second,
                    np.zeros(len(first), dtype=np.int64), wins.astype(float), losses.astype(float),
                    draws.astype(float), np.zeros((1, players, 3)))
    return counts, truth


def coverage(rng: np.random.Generator, runs: int, players: int, games: int, draw: float) -> dict[str, object]:
    covered = total = adv_covered = fits = prior = 0
    los_true = []
    t0 = time.perf_counter()
    for _ in range(runs):
        counts, truth = round_robin(rng, players, games, draw)
        result = fit(counts)
        fits += 1
        if result.prior:
            prior += 1
            continue
        half = Z95 * result.se
        covered += int(np.sum(np.abs(result.elo - truth) <= half))
        total += players
        adv_covered += int(abs(result.advantage[0] - ADVANTAGE) <= Z95 * result.advantage_se[0])
        order = np.argsort(-result.elo)
        los_true += [result.los(a, b) for a, b in zip(order[:-1], order[1:]) if truth[a] > truth[b]]
    seconds = (time.perf_counter() - t0) / fits
    rated = fits - prior
    return {
        "players": players, "games/pair/seat": games, "draws": f"{draw:.0%}", "runs": runs,
        "needed prior": prior,
        "rating coverage %": f"{100 * covered / max(total, 1):.1f}",
        "advantage coverage %": f"{100 * adv_covered / max(rated, 1):.1f}",
        "mean LOS (true order)": f"{np.mean(los_true):.3f}" if los_true else "",
        "ms/fit": f"{seconds * 1e3:.2f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    base = baseline_us()
    rows = [coverage(rng, args.runs, players, games, draw)
            for players, games, draw in ((8, 2, 0.0), (8, 10, 0.0), (16, 4, 0.0), (8, 10, 0.3))]
    print(f"95% interval coverage over {args.runs} simulated round-robins each; baseline {base:.0f} us")
    print("(with draws, a game's score varies less than a win/loss coin, so the intervals are conservative)")
    print(table(rows))


if __name__ == "__main__":
    main()
