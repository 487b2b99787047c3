"""How MCTS's pick changes with its budget: a cheap probe of whether more time buys better moves.

    python -m lab.pick_agreement JOURNAL... [--budgets 1s,2s,8s] [--positions 40]
                                   [--plies-at 20,35,50,65,80] [--plies N] [--players mcts]

Takes positions from the games of the journals (tournament folders or journal files)
whose two players' names both start with --players (by default games between two
MCTS), at the plies --plies-at, in journal order, up to --positions. On each it
searches afresh once per budget (``1s`` seconds or ``4000`` iterations a move; the
game's own evaluator, or N random plies before the evaluation with --plies N where
the leaves are cut-off playouts) and prints, for each pair of budgets, in how many
positions the two picked the same action. The largest budget's pick stands in for a
better move: if twice the time does not bring the pick measurably closer to it, a
doubling of the time will not show in games either (docs/players.md, Anda).

Each search runs as the served engine's does (players/serve.py): the cyclic collector
paused, and the previous search's tree freed before it starts, so that no budget pays
for another's garbage. Searches are seeded by the position's number: the same command
gives the same figures for iteration budgets, and near ones for time budgets on an
idle core.
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
from itertools import combinations

from bench.common import table
from lab.mcts_duel import cutoff, parse_budget
from hexarena.engine.errors import RulesError
from hexarena.engine.game import GameState
from hexarena.players import MctsBot
from hexarena.players.base import Budget
from hexarena.referee.game.openings import initial
from hexarena.results.record.journal import JournalError, read_journal


def positions(journals: list[str], players: str, plies_at: set[int], limit: int) -> list[GameState]:
    """Up to `limit` positions, at the plies `plies_at` of the journals' games between two
    players named `players`..., replayed through the rules."""
    found: list[GameState] = []
    for path in journals:
        errors: list[JournalError] = []
        try:
            records = read_journal(path, errors)
        except OSError as exc:
            raise SystemExit(f"{path}: {exc.strerror or exc}") from None
        for err in errors:
            print(f"skipped: {err}", file=sys.stderr)
        for record in records:
            if not (record.moves and record.black.startswith(players) and record.white.startswith(players)):
                continue
            state = initial(record.game, record.size, record.variant)
            try:
                for ply, move in enumerate(record.moves):
                    if state.outcome() is not None:
                        break
                    if ply in plies_at:
                        found.append(state)
                        if len(found) == limit:
                            return found
                    state = state.play(state.parse(move.action))
            except RulesError as exc:
                print(f"skipped: {path}: game {record.id}: {exc}", file=sys.stderr)
    return found


def picks(state: GameState, bots: list[MctsBot], seed: int) -> list[tuple[str, int]]:
    """(action, iterations) of each bot's search of `state`, each afresh and seeded by `seed`."""
    out = []
    for bot in bots:
        gc.collect()
        enabled = gc.isenabled()
        gc.disable()
        try:
            result = bot.search(state, random.Random(seed), Budget())
            out.append((state.format(result.action), result.iterations))
            del result                  # freed here, before the next search starts
        finally:
            if enabled:
                gc.enable()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("journals", nargs="+", help="journal files, or tournament folders holding journal.jsonl")
    parser.add_argument("--budgets", default="1s,2s,8s", help="comma-separated, smallest first (default %(default)s)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--plies-at", default="20,35,50,65,80", help="plies of each game to take (default %(default)s)")
    parser.add_argument("--plies", type=int, help="random plies before the evaluation (cut-off playouts only)")
    parser.add_argument("--players", default="mcts", help="take games whose two players' names start with this")
    args = parser.parse_args(argv)
    specs = [s for s in args.budgets.split(",") if s]
    if len(specs) < 2:
        parser.error("--budgets: give two budgets or more")
    bounds = []
    for spec in specs:
        bound = parse_budget(spec)
        if bound is None:
            raise SystemExit(f"--budgets: {spec!r} is not '1s' (seconds) or '4000' (iterations)")
        bounds.append(bound)
    try:
        plies_at = {int(p) for p in args.plies_at.split(",")}
    except ValueError:
        parser.error(f"--plies-at: {args.plies_at!r} is not a comma-separated list of whole numbers")
    states = positions(args.journals, args.players, plies_at, args.positions)
    if not states:
        raise SystemExit(f"no position found: no game between two players named {args.players}... "
                         f"reaches the plies {args.plies_at}")
    evaluator = None if args.plies is None else cutoff(states[0], args.plies, f"--plies {args.plies}")
    bots = [MctsBot(seconds=seconds, iterations=iterations, evaluator=evaluator)
            for seconds, iterations in bounds]
    same = {pair: 0 for pair in combinations(range(len(specs)), 2)}
    iterations = [0] * len(specs)
    for number, state in enumerate(states):
        chosen = picks(state, bots, number)
        print(f"{number:3d} ply {state.ply:3d}: " + ", ".join(f"{a} ({n})" for a, n in chosen), flush=True)
        for i, (_, n) in enumerate(chosen):
            iterations[i] += n
        for i, j in same:
            same[i, j] += chosen[i][0] == chosen[j][0]
    game = states[0].info.id
    leaves = f"{args.plies} random plies" if args.plies is not None else "the game's own leaves"
    print(f"\n{game} n={states[0].variant.size}, {leaves}, {len(states)} positions")
    print(table([{"budget": spec, "mean iterations": round(iterations[i] / len(states))}
                 for i, spec in enumerate(specs)]))
    print(table([{"pair": f"{specs[i]} = {specs[j]}", "same pick": f"{c}/{len(states)}"}
                 for (i, j), c in same.items()]))


if __name__ == "__main__":
    main()
