"""The referee's move against a bare Python loop: what hexarena's layers cost beyond the floor.

    python -m bench.bench_floor [--games N] [--rounds R] [--game GAME:SIZE] [--engine PATH|c-kit|random]

Two kept engines play N games (default 100) of GAME:SIZE (default spelde:6), in three ways:

* the bare loop: this process, in plain Python, speaks to the two engines over their pipes
  as the referee does over a pipe, with none of its layers: per game `clear_board`, per move
  one write of `play` (the opponent's last action), `time_left` and `genmove`, then
  ``poll(2)`` and ``read(2)`` until the three answers are in, the answer read and played by
  the rules (`read`, `play`, `outcome`: the core when it is built) and the mover's time
  taken off its clock. No trio, no deadlines, no fault handling, no files. Its figure is
  this process's CPU (user and system, `time.process_time`) over the games, per move.
* `hexarena tournament -j 1` of N games between two kept copies of the engine, and of N/5
  games: the runner's own CPU (from /proc, engines excluded; at `-j 1` the games are played
  in the runner's process) per move beyond the run's fixed cost is the difference of the two
  runs over the difference of their moves.
* `hexarena tournament -j 1` of N and N/5 games with `ply_cap = 2`: each game two moves
  long, so the difference is what a game costs beyond its moves (the engines' handshake, the
  game's files: its SGF, its live file, its logs, its journal line, the report's entry).

The table gives each figure, its ratio to the bare loop's CPU a move, and a game's cost spread
over the moves of a full game. `--engine c-kit` (default) is the C kit's example engine (a
random player in C, built here with cargo and cc: a few us a move), `random` the built-in
Python player (`python -m hexarena.players random`, also taken when cargo or cc is missing),
anything else the path of an HGP engine. `--rounds R` plays everything R times, one round
after the other, and prints each figure's median with its range.
"""
from __future__ import annotations

import argparse
import os
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_runner import run_hexarena
from hexarena.engine import registry

ROOT = Path(__file__).resolve().parent.parent


class BareEngine:
    """An engine process and its pipes, spoken to in plain Python."""

    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     bufsize=0)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.fd_in, self.fd_out = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self.fd_out, False)
        self.poller = select.poll()
        self.poller.register(self.fd_out, select.POLLIN)
        self.buffer, self.next_id = b"", 1

    def ask(self, *commands: str) -> list[str]:
        """Write `commands` at once; their answers' texts, in order (SystemExit on a `?`)."""
        lines = []
        for command in commands:
            lines.append(f"{self.next_id} {command}\n")
            self.next_id += 1
        os.write(self.fd_in, "".join(lines).encode())
        answers: list[str] = []
        while len(answers) < len(commands):
            while b"\n\n" not in self.buffer:
                try:
                    data = os.read(self.fd_out, 65536)
                except BlockingIOError:
                    self.poller.poll(10_000)
                    continue
                if not data:
                    raise SystemExit(f"the engine closed its stdout (after {commands})")
                self.buffer += data
            head, _, self.buffer = self.buffer.partition(b"\n\n")
            text = head.decode()
            if not text.startswith("="):
                raise SystemExit(f"the engine answered {text!r} to {commands}")
            answers.append(text.partition(" ")[2].strip())
        return answers

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        self.proc.wait()


def bare_loop(argv: list[str], game: str, size: int, games: int) -> tuple[float, int]:
    """The bare loop's CPU seconds over `games` games, and their moves (see the module doc)."""
    info = registry.get(game)
    variant = info.variant(size)
    engines = [BareEngine(argv), BareEngine(argv)]
    for engine in engines:
        engine.ask("protocol_version", f"game {info.describe(variant)}", f"boardsize {size}", "time_settings 0 10 1")
    moves = 0
    start = time.process_time()
    for g in range(games):
        for engine in engines:
            engine.ask("clear_board")
        state = info.new_game(variant, 0)
        left = [10.0, 10.0]
        told: str | None = None
        seat = g % 2
        while state.outcome() is None:
            colour = state.to_move.word
            asked = ([told] if told else []) + [f"time_left {colour} {left[seat]:.3f} 1", f"genmove {colour}"]
            t0 = time.perf_counter()
            token = engines[seat].ask(*asked)[-1]
            left[seat] = max(0.0, 10.0 - (time.perf_counter() - t0))
            action, canonical = state.read(token)
            state = state.play(action)
            told = f"play {colour} {canonical}"
            seat = 1 - seat
            moves += 1
        if told:
            engines[seat].ask(told)
    cpu = time.process_time() - start
    for engine in engines:
        engine.close()
    return cpu, moves


def tournament(argv: list[str], game: str, size: int, games: int, cap: int | None, work: Path) -> tuple[float, int]:
    """The runner's own CPU seconds in `hexarena tournament -j 1` of `games` games between two
    kept copies of `argv` (each game cut at `cap` plies when given), and the run's moves."""
    run = run_hexarena(game, size, games, 1, work, argv, ply_cap=cap)
    return run["own"], run["moves"]


def engine_argv(choice: str, work: Path) -> tuple[list[str], str]:
    """The engine's command line and its name in the table."""
    if choice == "c-kit":
        from bench.bench_runner import c_kit_engine
        built = c_kit_engine(work)
        if built is not None:
            return [str(built)], "the C kit's engine"
        choice = "random"
    if choice == "random":
        return [sys.executable, "-m", "hexarena.players", "random"], "the built-in Python random"
    return shlex.split(choice), choice


def one_round(argv: list[str], game: str, size: int, games: int, work: Path) -> dict[str, float]:
    small = max(1, games // 5)
    bare, bare_moves = bare_loop(argv, game, size, games)
    full, full_moves = tournament(argv, game, size, games, None, work)
    part, part_moves = tournament(argv, game, size, small, None, work)
    short, short_moves = tournament(argv, game, size, games, 2, work)
    few, few_moves = tournament(argv, game, size, small, 2, work)
    a_move = (full - part) / max(1, full_moves - part_moves)
    a_game = (short - few) / max(1, games - small) - a_move * (short_moves - few_moves) / max(1, games - small)
    return {"bare": bare / bare_moves, "move": a_move, "game": a_game, "moves a game": full_moves / games,
            "fixed": part - a_move * part_moves}


def table(rounds: list[dict[str, float]], engine: str, game: str, size: int, games: int) -> str:
    def fig(key: str) -> tuple[float, float, float]:
        values = [r[key] for r in rounds]
        return statistics.median(values), min(values), max(values)

    def cell(key: str, scale: float, unit: str) -> str:
        mid, low, high = fig(key)
        spread = f" ({low * scale:.1f}-{high * scale:.1f})" if len(rounds) > 1 else ""
        return f"{mid * scale:.1f} {unit}{spread}"

    bare = fig("bare")[0]
    per_game = fig("game")[0] / fig("moves a game")[0]
    move = fig("move")[0]
    rows = [("bare Python loop, a move", cell("bare", 1e6, "us")),
            ("hexarena -j 1, a move beyond the run's fixed cost",
             f"{cell('move', 1e6, 'us')}  = {move / bare:.1f}x the bare loop"),
            (f"  of which a game's own cost, spread over its {fig('moves a game')[0]:.0f} moves",
             f"{per_game * 1e6:.1f} us ({per_game / move * 100:.0f}%)"),
            ("  and the move itself", f"{(move - per_game) * 1e6:.1f} us  = {(move - per_game) / bare:.1f}x the bare loop"),
            ("hexarena, a game beyond its moves (ply_cap 2)", cell("game", 1e3, "ms")),
            ("hexarena, the run's fixed cost", cell("fixed", 1, "s"))]
    width = max(len(what) for what, _ in rows)
    lines = [f"{game} n={size}, {games} games a run, {engine}, {len(rounds)} round(s); CPU (user + system)"]
    lines += [f"  {what:<{width}}  {value}" for what, value in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_floor", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games a run (default 100)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds (default 1): medians and ranges")
    parser.add_argument("--game", default="spelde:6", help="GAME:SIZE (default spelde:6)")
    parser.add_argument("--engine", default="c-kit", help="c-kit (default), random, or an engine's command line")
    args = parser.parse_args(argv)
    game, _, size = args.game.partition(":")
    size_n = int(size) if size else registry.get(game).variant().size
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        engine, name = engine_argv(args.engine, work)
        rounds = [one_round(engine, game, size_n, args.games, work) for _ in range(args.rounds)]
    print(table(rounds, name, game, size_n, args.games))
    print(f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")


if __name__ == "__main__":
    main()
