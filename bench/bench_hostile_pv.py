"""The referee's CPU to read one hostile `genmove_analyze` answer: 8 info lines of maximal pvs.

    python -m bench.bench_hostile_pv [--answers N]     (default 12 answers per game)

For each game at its largest size (Vaxandis 13, Anda 13, Spelde 13, Marbanta 13), positions
of a random game; at each, the action played and 8 info lines, each a pv of legal canonical
actions from the position (the first the action played, then a random line of its own) as long
as an info line may be (protocol.analysis.MAX_LINE_BYTES) or to the end of the game. Figures:
the CPU seconds of `referee.game.analysis.read_info` per answer (the median over the answers,
and the worst), the pv actions it walked through the rules per answer, the kept journal form's
size per answer, and the median's ratio to bench.common.baseline_us() measured in the same run.
Run once with the compiled core and once with HEXARENA_CORE=0 (the mode is printed).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench.common import baseline_us, table
from hexarena.engine import compiled, registry
from hexarena.protocol.analysis import MAX_LINE_BYTES, MAX_LINES
from hexarena.referee.game.analysis import read_info

GAMES = (("vaxandis", 13), ("anda", 13), ("spelde", 13), ("marbanta", 13))


def maximal_lines(state, action, rng: random.Random) -> list[str]:
    """MAX_LINES info lines, each with a pv as long as a line may be, from `state` after `action`."""
    out = []
    for k in range(MAX_LINES):
        head = f"info winrate 0.99 visits {k} pv"
        words, walk, size = [state.format(action)], state.play(action), len(head) + 1 + len(state.format(action))
        while walk.outcome() is None:
            move = walk.random_action(rng)
            token = walk.format(move)
            if size + 1 + len(token) > MAX_LINE_BYTES:
                break
            words.append(token)
            size += 1 + len(token)
            walk = walk.play(move)
        out.append(head + " " + " ".join(words))
    return out


def measure(game: str, size: int, answers: int, seed: int = 5) -> dict[str, object]:
    info = registry.get(game)
    rng = random.Random(seed)
    state = info.new_game(info.variant(size, []), 0)
    cpu, walked, stored = [], [], []
    while len(cpu) < answers and state.outcome() is None:
        action = state.random_action(rng)
        lines = maximal_lines(state, action, rng)
        t0 = time.process_time()
        kept, _notes = read_info(lines, state, state.format(action))
        cpu.append(time.process_time() - t0)
        walked.append(sum(len(k.get("pv", ())) for k in kept))
        stored.append(len(json.dumps(kept)))
        for _ in range(3):
            if state.outcome() is None:
                state = state.play(state.random_action(rng))
    median = statistics.median(cpu)
    return {"game": f"{game} {size}", "answers": len(cpu), "CPU/answer ms": f"{median * 1e3:.1f}",
            "worst ms": f"{max(cpu) * 1e3:.1f}", "pv actions walked": int(statistics.median(walked)),
            "kept bytes": int(statistics.median(stored)), "x baseline": f"{median * 1e6 / BASE[0]:.0f}"}


BASE = [1.0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_hostile_pv", description=__doc__.split("\n")[0])
    parser.add_argument("--answers", type=int, default=12, help="answers per game (default 12)")
    args = parser.parse_args(argv)
    if args.answers < 1:
        parser.error("--answers must be at least 1")
    BASE[0] = baseline_us()
    print(f"rules: {'compiled core' if compiled.active() is not None else 'Python (HEXARENA_CORE=0)'}; "
          f"baseline {BASE[0]:.0f} us")
    print(table([measure(game, size, args.answers) for game, size in GAMES]))


if __name__ == "__main__":
    main()
