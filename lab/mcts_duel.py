"""Two MCTS settings (or MCTS and a built-in player) against each other, in-process,
on paired random openings.

    python -m lab.mcts_duel GAME SIZE A B [--pairs N] [--first P] [--opening K] [--prefix ACTIONS]

A and B are MCTS budgets, ``0.5s`` (seconds a move) or ``4000`` (iterations a
move), with modes after ``+`` (they combine: ``1s+narrow+plies=40``):
``narrow`` or ``wide`` force MCTS's narrow inner nodes on or off
(players/mcts.py; default: the game's own choice); ``plies=N`` plays N random
plies before the evaluation in games whose leaves are valued by it (cut-off
playouts or the evaluation alone). Or A or B names a built-in player as the
CLI takes it (``greedy``, ``heuristic``, ``random``, ``mcts:1s``). MCTS here
keeps the subtree of the actions played from move to move, as the served
engine does. Each pair plays one random opening of K actions (default 2,
drawn from the pair's number; after the --prefix actions, if any) twice, the
players exchanging seats; a swap exchanges seats as the referee does. Prints
each game and then A's score and the decisive pairs: a pair won by the same
side twice says something about strength, a pair split 1-1 only about the
opening (in Anda-prison most pairs are split: the pies decide them). For what
these figures decided, see docs/players.md.
"""
from __future__ import annotations

import argparse
import time
from dataclasses import replace

from bench.bench_mcts import play
from hexarena import players
from hexarena.engine import registry
from hexarena.engine.game import GameState
from hexarena.players import Bot, MctsBot
from hexarena.players.evaluators import CutoffPlayout, Evaluator
from hexarena.players.games import evaluator_for
from hexarena.referee.game.openings import random_tail, replay


def bot(spec: str, start: GameState) -> Bot:
    """The player a command-line A or B names for the game and size of `start` (see the
    module docstring)."""
    if spec and not spec[0].isdigit() and spec[0] != ".":
        try:
            return players.get(spec)
        except ValueError as exc:
            raise SystemExit(str(exc)) from None
    budget, *modes = spec.split("+")
    narrow: bool | None = None
    evaluator: Evaluator | None = None
    for mode in modes:
        if mode in ("narrow", "wide"):
            narrow = mode == "narrow"
        elif mode.startswith("plies=") and mode[6:].isdigit():
            evaluator = cutoff(start, int(mode[6:]), spec)
        else:
            raise SystemExit(f"{spec!r}: a mode after '+' is narrow, wide or plies=N")
    bounds = parse_budget(budget)
    if bounds is None:
        raise SystemExit(f"{spec!r}: a budget is seconds ('0.5s') or iterations ('4000'), "
                         "or name a built-in player ('greedy')")
    seconds, iterations = bounds
    return MctsBot(seconds=seconds, iterations=iterations, narrow=narrow, evaluator=evaluator)


def parse_budget(text: str) -> tuple[float | None, int | None] | None:
    """MctsBot's (seconds, iterations) for ``0.5s`` (seconds a move) or ``4000`` (iterations a
    move); None for anything else (a bound of 0 among it)."""
    try:
        if text.endswith("s") and float(text[:-1]) > 0:
            return float(text[:-1]), None
        if text.isdigit() and int(text) > 0:
            return None, int(text)
    except ValueError:
        pass
    return None


def cutoff(start: GameState, plies: int, spec: str) -> Evaluator:
    """MCTS's evaluator for `start` with `plies` random plies before its evaluation (a
    static evaluation is a cut-off at depth 0)."""
    evaluator = evaluator_for(start)
    if not isinstance(evaluator, CutoffPlayout):
        raise SystemExit(f"{spec!r}: {start.info.id}'s leaves are not cut-off playouts; plies=N does not apply")
    return replace(evaluator, depth=plies)


def opening(state: GameState, prefix: str, plies: int, seed: int) -> tuple[str, ...]:
    """The `prefix` tokens, then `plies` random actions drawn from `seed` (the referee's
    random openings)."""
    tokens, after = replay(state, prefix.split())
    return tokens + random_tail(after, plies, seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("size", type=int)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--first", type=int, default=0, help="number of the first pair (its opening)")
    parser.add_argument("--opening", type=int, default=2, help="random actions before the settings play")
    parser.add_argument("--prefix", default="", help="actions played before the random ones (e.g. 'komi=0 keep')")
    args = parser.parse_args(argv)
    info = registry.get(args.game)
    variant = info.variant(args.size)
    start = info.new_game(variant, 0)
    a, b = bot(args.a, start), bot(args.b, start)
    score, decisive = 0.0, {"a": 0, "b": 0}
    for pair in range(args.first, args.first + args.pairs):
        actions = opening(info.new_game(variant, 0), args.prefix, args.opening, 1000 + pair)
        points = 0.0
        for seat in (0, 1):                          # A's index; index 0 holds Black at the start
            start = time.perf_counter()
            won = play(info, variant, [a, b] if seat == 0 else [b, a], pair * 2 + seat, actions)
            point = 0.5 if won is None else float(won == seat)
            points += point
            print(f"pair {pair} game {seat + 1}: A {point:g} ({time.perf_counter() - start:.0f} s)", flush=True)
        score += points
        if points != 1.0:
            decisive["a" if points > 1 else "b"] += 1
    print(f"{args.game} n={args.size}: A ({args.a}) against B ({args.b}): {score:g}/{2 * args.pairs}; "
          f"pairs won twice: A {decisive['a']}, B {decisive['b']}")


if __name__ == "__main__":
    main()
