"""MCTS speed and strength: `python -m bench.bench_mcts [--games N] [--seconds X] [--speed S] [--skip-strength]`.

Speed, per game at its default size after 12 random plies: random playouts
a second (a leaf evaluation of MCTS by random playout), evaluations a second
of the game's evaluator now (players.games.evaluator_for), each counted over
`--speed` seconds (default 1), and MCTS iterations a second in a search of
half that (0.5 s). Strength: in-process games at the smallest recommended
size of `mcts:Xs` against `random`, `greedy` and `heuristic`, seats
alternating (a swap exchanges seats, as the referee does); draws count 1/2.
"""
from __future__ import annotations

import argparse
import random
import time

from bench.common import baseline_us, table
from hexarena.engine import registry
from hexarena.engine.actions import holders_after
from hexarena.engine.game import GameInfo, GameState, Variant
from hexarena.players import Budget, MctsBot, greedy_bot, heuristic_bot, random_bot
from hexarena.players.games import evaluator_for
from hexarena.players.base import Bot, Player
from tests.support.positions import walk


def playouts_per_second(state: GameState, seconds: float = 1.0) -> tuple[float, float]:
    """(playouts a second, mean plies a playout) of random playouts to the rules' end or the cap."""
    rng = random.Random(1)
    cap = state.info.ply_cap(state.variant.size)
    count = plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = state
        while s.outcome() is None and s.ply < cap:
            s = s.play(s.random_action(rng))
            plies += 1
        count += 1
    return count / (time.perf_counter() - t0), plies / count


def play(info: GameInfo, variant: Variant, bots: list[Bot], seed: int,
         opening: tuple[str, ...] = ()) -> int | None:
    """The index of the winning bot (bots[0] starts as Black), None for a draw; the
    `opening` tokens are played first (a swap among them exchanges seats, as the
    referee does). MCTS reuses its tree from move to move, as the served engine does."""
    players = [Player(bot) for bot in bots]
    state = info.new_game(variant, 0)
    holder = {state.to_move: 0, state.to_move.other: 1}
    for token in opening:
        action = state.parse(token)
        holder, state = holders_after(holder, action), state.play(action)
    rngs = [random.Random(seed * 2 + i) for i in range(2)]
    cap = info.ply_cap(variant.size)
    while state.outcome() is None and state.ply < cap:
        i = holder[state.to_move]
        action = players[i](state, rngs[i], Budget())
        holder = holders_after(holder, action)
        state = state.play(action)
    outcome = state.outcome() or state.adjudicate()
    return None if outcome.winner is None else holder[outcome.winner]


def score(info: GameInfo, variant: Variant, bot: Bot, opponent: Bot, games: int) -> float:
    points = 0.0
    for g in range(games):
        seat = g % 2
        winner = play(info, variant, [bot, opponent] if seat == 0 else [opponent, bot], g)
        points += 1.0 if winner == seat else 0.5 if winner is None else 0.0
    return points


def evaluations_per_second(state: GameState, evaluator, seconds: float = 1.0) -> float:
    """Leaf evaluations a second of `evaluator` on `state` (MCTS's cost per iteration, roughly)."""
    rng = random.Random(3)
    count = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        evaluator(state, rng)
        count += 1
    return count / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games per pairing (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=0.25,
                        help="mcts seconds a move in the strength games (default %(default)s)")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="seconds of each speed figure, the MCTS search half of it (default %(default)s)")
    parser.add_argument("--skip-strength", action="store_true")
    args = parser.parse_args()
    base = baseline_us()
    print(f"baseline {base:.0f} us\n")
    rows = []
    for gid in registry.playable():
        info = registry.get(gid)
        state = walk(info.new_game(info.variant(None), 0), 12)
        rate, length = playouts_per_second(state, args.speed)
        evaluator = evaluator_for(state)
        after = evaluations_per_second(state, evaluator, args.speed)
        search = MctsBot(seconds=args.speed / 2).search(state, random.Random(5))
        rows.append({"game": gid, "size": info.default_size, "random playouts/s (before)": f"{rate:.0f}",
                     "plies/playout": f"{length:.0f}", "evaluator": type(evaluator).__name__,
                     "evaluations/s (after)": f"{after:.0f}",
                     "mcts iterations/s": f"{search.iterations / (args.speed / 2):.0f}"})
    print("after 12 random plies from the start, default size:")
    print(table(rows))
    if args.skip_strength:
        return
    print()
    bot = MctsBot(seconds=args.seconds)
    rows = []
    for gid in registry.playable():
        info = registry.get(gid)
        variant = info.variant(min(info.sizes))
        t0 = time.perf_counter()
        row = {"game": info.describe(variant), "size": variant.size, "games": args.games}
        for name, opponent in (("random", random_bot), ("greedy", greedy_bot), ("heuristic", heuristic_bot)):
            row[f"vs {name}"] = f"{score(info, variant, bot, opponent, args.games):g}/{args.games}"
        row["wall s"] = f"{time.perf_counter() - t0:.0f}"
        rows.append(row)
    print(f"mcts:{args.seconds:g}s, in-process, seats alternating, smallest recommended size:")
    print(table(rows))


if __name__ == "__main__":
    main()
