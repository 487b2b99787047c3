"""How well a game's evaluation predicts the winners of played games, phase by phase.

Run: ``python -m lab.fit_evaluation JOURNAL_OR_FOLDER... [--search | --evaluation
MODULE:FUNCTION --scale S] [--phases 4]``, e.g. ``python -m lab.fit_evaluation
docs/strength/anda-7/mcts docs/strength/anda-7/base``.

Every game of the journals that the rules ended (draws at the ply cap count
1/2; forfeits and void games are left out) is replayed, and each position
before its end is valued by the game's ``evaluate`` (``--search``: its
``evaluate_search``, where it has one; players/games/), or by a candidate
evaluation of your own (``--evaluation``: importable, state -> Black's
advantage; ``--scale``: its SCALE). Per phase (the share
of the game played), the table gives the log loss of:

* ``const``: Black's score in that phase's games (the evaluation ignored);
* ``scale``: the evaluation squashed by the game's SCALE, as MCTS uses it;
* ``fitted``: a logistic fit of the evaluation (cross-validated: each fold
  of games is predicted by a fit to the others), with the scale it fits
  (``fit_scale``: the advantage worth 1/(1+e^-1); negative: the evaluation points the
  wrong way) and its accuracy.

Lower is better; ``fitted`` well below ``scale`` says the game's SCALE is
off in that phase, ``fitted`` near ``const`` that the evaluation tells little.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from types import ModuleType

import numpy as np

from bench.common import table
from hexarena.engine import registry
from hexarena.engine.errors import RulesError
from hexarena.engine.game import GameState
from hexarena.referee.game.openings import initial
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalError, read_journal


def positions(record: GameRecord, evaluate: Callable[[GameState], float]) -> list[tuple[float, float]]:
    """(share of the game played, Black's advantage) of each position of a game before its end."""
    state = initial(record.game, record.size, record.variant)
    out = []
    moves = record.moves or ()
    for ply, move in enumerate(moves):
        if state.outcome() is not None:
            break
        out.append((ply / len(moves), evaluate(state)))
        state = state.play(state.parse(move.action))
    return out


def game_module(game: str) -> ModuleType:
    """A game's knowledge module, players/games/<module>.py (its `evaluate`, `SCALE`, and
    `evaluate_search` / `SEARCH_SCALE` where MCTS has its own)."""
    return importlib.import_module(f"hexarena.players.games.{registry.GAME_MODULES[game]}")


def evaluation_of(module: ModuleType, search: bool) -> Callable[[GameState], float]:
    """A game module's `evaluate`, or its `evaluate_search` (where it has one) when `search`."""
    return getattr(module, "evaluate_search", module.evaluate) if search else module.evaluate


def black_score(record: GameRecord) -> float | None:
    """1 Black won, 0 White won, 1/2 a draw; None for a game the rules did not end."""
    if record.void or record.faulty is not None or not record.moves:
        return None
    if record.winner is None:
        return 0.5
    return 1.0 if record.winner == record.black else 0.0


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60, 60)))


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-6) -> tuple[float, float]:
    """(intercept, slope) of the logistic regression of y (scores in [0, 1]) on x (Newton)."""
    X = np.c_[np.ones(len(x)), x]
    w = np.zeros(2)
    for _ in range(40):
        p = sigmoid(X @ w)
        grad = X.T @ (p - y) + ridge * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1])


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def phase_rows(games: list[tuple[float, list[tuple[float, float]]]], scale: float, phases: int,
               folds: int) -> list[dict[str, object]]:
    """The table's rows: one per phase, from (Black's score, positions) of each game."""
    rows: list[dict[str, object]] = []
    for k in range(phases):
        lo, hi = k / phases, (k + 1) / phases
        fold, x, y = [], [], []
        for g, (score, pos) in enumerate(games):
            for share, value in pos:
                if lo <= share < hi:
                    fold.append(g % folds)
                    x.append(value)
                    y.append(score)
        if not x:
            continue
        f, xv, yv = np.array(fold), np.array(x), np.array(y)
        predicted = np.empty(len(xv))
        for i in range(folds):
            held = f == i
            a, b = fit(xv[~held], yv[~held]) if (~held).any() else (0.0, 0.0)
            predicted[held] = sigmoid(a + b * xv[held])
        _, slope = fit(xv, yv)
        decided = yv != 0.5
        rows.append({
            "phase": f"{lo:.2f}-{hi:.2f}", "positions": len(xv),
            "const": f"{log_loss(np.full(len(yv), yv.mean()), yv):.3f}",
            "scale": f"{log_loss(sigmoid(xv / scale), yv):.3f}",
            "fitted": f"{log_loss(predicted, yv):.3f}",
            "accuracy": f"{np.mean((predicted[decided] > 0.5) == (yv[decided] == 1.0)):.2f}" if decided.any() else "-",
            "fit_scale": f"{1.0 / slope:.2f}" if abs(slope) > 1e-9 else "inf",
        })
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("journals", nargs="+", help="journal files, or tournament folders holding journal.jsonl")
    parser.add_argument("--search", action="store_true", help="use the game's evaluate_search where it has one")
    parser.add_argument("--evaluation", metavar="MODULE:FUNCTION", help="a candidate evaluation to judge instead")
    parser.add_argument("--scale", type=float, help="the candidate's SCALE (default: the game's)")
    parser.add_argument("--phases", type=int, default=4)
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    candidate = None
    if args.evaluation:
        name, _, function = args.evaluation.partition(":")
        try:
            candidate = getattr(importlib.import_module(name), function or "evaluate")
        except (ImportError, AttributeError) as exc:
            parser.error(f"--evaluation {args.evaluation}: {exc}")
    by_game: dict[str, list[tuple[float, list[tuple[float, float]]]]] = {}
    for path in args.journals:
        errors: list[JournalError] = []
        try:
            records = read_journal(path, errors)
        except OSError as exc:
            parser.error(f"{path}: {exc.strerror or exc}")
        for err in errors:
            print(f"skipped: {err}", file=sys.stderr)
        for record in records:
            score = black_score(record)
            if score is None:
                continue
            evaluate = candidate or evaluation_of(game_module(record.game), args.search)
            try:
                by_game.setdefault(record.game, []).append((score, positions(record, evaluate)))
            except RulesError as exc:
                print(f"skipped: {path}: game {record.id}: {exc}", file=sys.stderr)
    if not by_game:
        raise SystemExit("no game the rules ended in those journals")
    for game, games in by_game.items():
        module = game_module(game)
        scale = args.scale or (getattr(module, "SEARCH_SCALE", module.SCALE) if args.search and not candidate
                               else module.SCALE)
        name = args.evaluation or evaluation_of(module, args.search).__name__
        print(f"{game}: {len(games)} games, {name}, SCALE {scale:g}")
        print(table(phase_rows(games, scale, args.phases, args.folds)))
        print()


if __name__ == "__main__":
    main()
