"""MCTS speed and strength: `python -m bench.bench_mcts [--games N] [--moves N] [--plies N]`.

Speed, per game at its default size and variant: random playouts a second
from the start position, and the wall time of the default `mcts` move (ply
budget) over the first few moves of a seeded game. Strength: in-process games
at small sizes of `mcts` against `greedy` and `random`, seats alternating
(a swap exchanges seats, as the referee does); draws count 1/2.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.common import baseline_us, table
from hexarena.engine import registry
from hexarena.engine.actions import holders_after
from hexarena.engine.game import GameInfo, GameState, Variant
from hexarena.players import Budget, MctsBot, greedy_bot, random_bot
from hexarena.players.base import Bot


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


def move_times(state: GameState, bot: Bot, moves: int) -> list[float]:
    """Wall seconds of each of the bot's first `moves` moves of a self-play game."""
    rng = random.Random(2)
    times = []
    for _ in range(moves):
        if state.outcome() is not None:
            break
        t0 = time.perf_counter()
        action = bot(state, rng, Budget())
        times.append(time.perf_counter() - t0)
        state = state.play(action)
    return times


def play(info: GameInfo, variant: Variant, bots: list[Bot], seed: int) -> int | None:
    """The index of the winning bot (bots[0] starts as Black), None for a draw."""
    state = info.new_game(variant, 0)
    holder = {state.to_move: 0, state.to_move.other: 1}
    rngs = [random.Random(seed * 2 + i) for i in range(2)]
    cap = info.ply_cap(variant.size)
    while state.outcome() is None and state.ply < cap:
        i = holder[state.to_move]
        action = bots[i](state, rngs[i], Budget())
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games per pairing (default %(default)s)")
    parser.add_argument("--moves", type=int, default=4, help="timed moves per game (default %(default)s)")
    parser.add_argument("--plies", type=int, default=4000,
                        help="ply budget of mcts in the strength games (default %(default)s)")
    args = parser.parse_args()
    base = baseline_us()
    bot = MctsBot()
    print(f"baseline {base:.0f} us; default mcts budget: {bot.plies} simulated plies a move\n")
    rows = []
    for gid in registry.playable():
        info = registry.get(gid)
        state = info.new_game(info.variant(None), 0)
        rate, length = playouts_per_second(state)
        times = move_times(state, bot, args.moves)
        rows.append({"game": gid, "size": info.default_size, "playouts/s": f"{rate:.0f}",
                     "plies/playout": f"{length:.0f}", "move s (median)": f"{statistics.median(times):.2f}",
                     "move s (max)": f"{max(times):.2f}",
                     "move / baseline": f"{statistics.median(times) * 1e6 / base:.0f}"})
    print(table(rows))
    print()
    small = MctsBot(plies=args.plies)
    rows = []
    for gid in registry.playable():
        info = registry.get(gid)
        size = min(info.sizes) - 1 if gid != "vaxandis" else min(info.sizes)
        variant = info.variant(size)
        t0 = time.perf_counter()
        vs_greedy = score(info, variant, small, greedy_bot, args.games)
        vs_random = score(info, variant, small, random_bot, args.games)
        rows.append({"game": info.describe(variant), "size": size, "games": args.games,
                     "vs greedy": f"{vs_greedy:g}/{args.games}", "vs random": f"{vs_random:g}/{args.games}",
                     "wall s": f"{time.perf_counter() - t0:.0f}"})
    print(f"mcts with {args.plies} plies a move, in-process, seats alternating:")
    print(table(rows))


if __name__ == "__main__":
    main()
