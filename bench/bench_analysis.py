"""The referee's CPU per action with and without analysis (`genmove_analyze` and its info lines).

    python -m bench.bench_analysis [--games N] [--lines L] [--pv K] [-j J] [--rounds R]
                                   (default 30 games, 8 lines, pv of 12 actions, J = 2, 2 rounds)

Plays N games of Spelde n=6 between two copies of one instant engine (random legal actions;
a Python child process, :data:`ENGINE`) through a real ``hexarena.referee.tournament.run`` into
a temporary folder (journal, SGFs, logs), engines kept (`restart = "fault"`), in three modes:

* `off`        the engines list `genmove_analyze` but `analysis = false`: the referee asks `genmove`
* `lines`      analysis on, each answer with L info lines of winrate, score, visits, depth and an
               unknown key, no pv
* `lines+pv`   the same lines, each ending with a pv of K legal actions (the first the action
               played), which the referee checks through the rules from the position

The modes alternate for R rounds (off, lines, lines+pv, off, ...) so that load on a shared
machine falls on each alike. Figures per mode: the referee's own CPU per action (user + system
of this process from resource.getrusage(RUSAGE_SELF) over the run, engine processes excluded:
everything the referee does, journal and SGF writing included), the median over the rounds,
and its ratio to `off`. Then the cost of reading one answer's info lines alone
(`referee.game.analysis.read_info`, CPU time, best of 5), per answer. Ratios are to
bench.common.baseline_us() measured in the same run. Goal: info parsing is not a visible cost.
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import baseline_us, table
from hexarena.engine import registry
from hexarena.referee.game.analysis import read_info
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.run import run

MODES = ("off", "lines", "lines+pv")

#: The engine: argv LINES PV; random legal actions, `genmove_analyze` answered with LINES info lines.
ENGINE = r'''
import random, sys
from hexarena.engine import registry
lines_wanted, pv_wanted = int(sys.argv[1]), int(sys.argv[2])
info = state = None
size, tokens, rng = None, [], random.Random(1)
listed = ["protocol_version", "name", "version", "known_command", "list_commands", "quit", "list_games",
          "game", "boardsize", "clear_board", "play", "genmove", "time_settings", "time_left",
          "hgp_version", "genmove_analyze"]

def answer(cid, text=""):
    sys.stdout.write("=" + cid + (" " + text if text else "") + "\n\n")
    sys.stdout.flush()

def info_lines(state, action):
    out = []
    for k in range(lines_wanted):
        words = "info winrate 0.%03d score %d.5 visits %d depth %d nodes %d" % (
            rng.randrange(1000), rng.randrange(-20, 20), rng.randrange(10 ** 6), pv_wanted, k)
        if pv_wanted:
            walk, pv, first = state, [], action
            while len(pv) < pv_wanted and walk.outcome() is None:
                move = first if first is not None else walk.random_action(rng)
                first = None
                pv.append(walk.format(move))
                walk = walk.play(move)
            words += " pv " + " ".join(pv)
        out.append(words)
    return out

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cid, name, args = words[0], words[1], words[2:]
    if name == "quit":
        answer(cid)
        break
    if name == "protocol_version":
        answer(cid, "2")
    elif name == "name":
        answer(cid, "bench-analysis")
    elif name == "version":
        answer(cid, "1")
    elif name == "hgp_version":
        answer(cid, "1.2")
    elif name == "list_commands":
        answer(cid, "\n".join(listed))
    elif name == "list_games":
        answer(cid, "\n".join(registry.playable()))
    elif name == "game":
        info, tokens = registry.get(args[0]), args[1:]
        answer(cid)
    elif name == "boardsize":
        size = int(args[0])
        answer(cid)
    elif name == "clear_board":
        state = info.new_game(info.variant(size, tokens), 0)
        answer(cid)
    elif name == "play":
        state = state.play(state.parse(args[1]))
        answer(cid)
    elif name in ("genmove", "genmove_analyze"):
        action = state.random_action(rng)
        text = [state.format(action)]
        if name == "genmove_analyze":
            text += info_lines(state, action)
        state = state.play(action)
        answer(cid, "\n".join(text))
    else:
        answer(cid)
'''


def bench_config(games: int, mode: str, lines: int, pv: int) -> config_mod.TournamentConfig:
    cmd = [sys.executable, "-c", ENGINE, str(lines), str(pv if mode == "lines+pv" else 0)]
    spec = {"cmd": cmd, "restart": "fault", "analysis": mode != "off"}
    return config_mod.from_dict({"engines": {"a": spec, "b": dict(spec)},
                                 "games": [{"game": "spelde", "sizes": [6]}], "games_per_pair": games})


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def one_run(games: int, mode: str, lines: int, pv: int, jobs: int) -> tuple[float, int, int]:
    """(the referee's CPU seconds, actions played, actions with info lines kept) of one run."""
    with TemporaryDirectory() as tmp:
        out = Path(tmp) / mode.replace("+", "-")
        config = bench_config(games, mode, lines, pv)
        before = cpu_seconds()
        trio.run(lambda: run(config, out, concurrency=jobs))
        cpu = cpu_seconds() - before
        from hexarena.results.record.journal import read_journal
        records = read_journal(out / "journal.jsonl")
    actions = sum(r.plies for r in records)
    analysed = sum(1 for r in records for m in r.moves or () if m.analysis)
    return cpu, actions, analysed


def parse_cost(lines: int, pv: int, samples: int = 200) -> float:
    """CPU seconds of `read_info` per answer of `lines` lines with a pv of `pv` actions (0: none), over
    positions of random Spelde n=6 games; the best of 5 passes."""
    rng = random.Random(7)
    info = registry.get("spelde")
    cases = []
    while len(cases) < samples:
        state = info.new_game(info.variant(6, ["pie"]), 0)
        while state.outcome() is None and len(cases) < samples:
            action = state.random_action(rng)
            walk, tokens, first = state, [], action
            while len(tokens) < pv and walk.outcome() is None:
                move = first if first is not None else walk.random_action(rng)
                first = None
                tokens.append(walk.format(move))
                walk = walk.play(move)
            text = [f"info winrate 0.{rng.randrange(1000):03d} score 1.5 visits 12345 depth {pv} nodes {k}"
                    + (" pv " + " ".join(tokens) if tokens else "") for k in range(lines)]
            cases.append((text, state, state.format(action)))
            state = state.play(action)

    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for text, state, played in cases:
            kept, notes = read_info(text, state, played)
            assert len(kept) == lines and not notes, notes
        best = min(best, time.process_time() - t0)
    return best / len(cases)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_analysis", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games per run (default 30)")
    parser.add_argument("--lines", type=int, default=8, help="info lines per answer (default 8, the most kept)")
    parser.add_argument("--pv", type=int, default=12, help="pv length in lines+pv mode (default 12)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="workers (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each mode, alternating (default 2)")
    args = parser.parse_args(argv)
    if min(args.games, args.lines, args.pv, args.jobs, args.rounds) < 1:
        parser.error("every number must be at least 1")
    base = baseline_us()
    per_action: dict[str, list[float]] = {m: [] for m in MODES}
    counts: dict[str, tuple[int, int]] = {}
    for _ in range(args.rounds):
        for mode in MODES:
            cpu, actions, analysed = one_run(args.games, mode, args.lines, args.pv, args.jobs)
            per_action[mode].append(cpu / actions)
            counts[mode] = (actions, analysed)
            print(f"  {mode}: {actions} actions ({analysed} with info), referee CPU {cpu:.2f} s", flush=True)
    off = statistics.median(per_action["off"])
    rows = []
    for mode in MODES:
        value = statistics.median(per_action[mode])
        rows.append({"mode": mode, "ref CPU/action ms": f"{value * 1e3:.3f}",
                     "runs ms": " ".join(f"{v * 1e3:.3f}" for v in per_action[mode]),
                     "x off": f"{value / off:.2f}", "x baseline": f"{value * 1e6 / base:.2f}",
                     "actions (with info)": "%d (%d)" % counts[mode]})
    bare, with_pv = parse_cost(args.lines, 0), parse_cost(args.lines, args.pv)
    print(f"analysis: {args.games} games of Spelde n=6 per run, instant engines, -j {args.jobs}, "
          f"{args.lines} info lines per answer, pv {args.pv}, {args.rounds} rounds; baseline {base:.0f} us")
    print(table(rows))
    print(table([{"read_info per answer": f"{args.lines} lines", "us": f"{bare * 1e6:.1f}",
                  "x baseline": f"{bare * 1e6 / base:.2f}"},
                 {"read_info per answer": f"{args.lines} lines, pv {args.pv}", "us": f"{with_pv * 1e6:.1f}",
                  "x baseline": f"{with_pv * 1e6 / base:.2f}"}]))


if __name__ == "__main__":
    main()
