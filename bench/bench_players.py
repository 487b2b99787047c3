"""The built-in players' CPU per move and per start, against the C kit's example engine.

    python -m bench.bench_players [--games N] [--rounds R] [--starts K] [--only GAME ...]
                                  [--players random,greedy] [--baseline-cmd CMD] [--no-c-kit]
                                  [--tournament N] [--profile GAME]

Each player runs as the process a tournament starts (`python -P -m hexarena.players NAME
--seed N`, referee/tournament/config.py)
and is fed what the referee sends a kept engine (referee/game/handshake.py, match.py
`_ask_move`): per game the handshake (`protocol_version`, `name`, `version`, `list_games`,
`game`, `boardsize`, `clear_board`, `list_commands`, then `kgs-time_settings` and
`hexarena-seed` when listed: one command a write to a new process, all in one write to a kept
one), then
per move of the player one write
of `play` (the opponent's action, but before the first move), `time_left` and
`genmove_analyze` (`genmove` to an engine that does not list it), chained, with ids.
The opponent is the bench itself: a random action drawn with the rules in its own
process, whose CPU is not counted. A game ends by the rules or at the game's ply cap.

Columns, per game (its default size) and player; the players take turns, round after
round (`--rounds`), and each figure is the median over the rounds:

* start ms        the process's CPU (user + system) from its start to its answer to
                  the first `protocol_version`: the median over every process started
                  for it (`--starts` a round), each killed (SIGKILL) once it answered,
                  so no exit is counted.
* us/move         the CPU of a whole run (`--games` games, killed after the last
                  answer) less the start, over the player's moves: each game's
                  handshake is spread over its moves, as in a tournament. `range`: the
                  lowest and highest round.
* start xC,       the row's figure over the C kit's example engine's
  move xC         (core/examples/hgp_engine.c, built as bench/bench_runner.py does), in
                  the same run.

CPU comes from the process's resource usage at its end (``os.wait4``: the kernel's
user + system time in microseconds, what /proc/PID/stat reports in clock ticks).
`--baseline-cmd` adds rows of another player program (e.g. another checkout's
`python -m hexarena.players random`), run in a folder of its own so that its
interpreter imports its own hexarena. Give that checkout its bytecode first (`PYTHON
tests/support/bytecode.py`, from a folder of its own): under PYTHONDONTWRITEBYTECODE a
checkout without it compiles its modules again at each start (~0.25 s of CPU).

`--tournament N` then plays, in each game and round, a `hexarena tournament -j 1` of N
games between two kept copies of each program (as bench/bench_runner.py does) and prints
the CPU of the processes it started over its moves: the engines with their starts (the
pre-flight's too) and the run's guardian process, the same in every row (the C engine's
row is that floor). `--profile GAME` then serves the first player what it was sent in
GAME, in the bench's process under cProfile with a CPU timer, and prints its functions
by own time (the profiler's own cost inflates the small ones).

Run it `nice`d on a quiet machine: the figures are CPU, but a loaded machine slows the
caches and the interpreter's start; compare within one run.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bench.bench_runner import own_cpu_at_exit, reaped_cpu
from bench.common import table
from hexarena.engine import registry
from hexarena.engine.actions import holder_after
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.results.record.journal import read_journal
from tests.support.bytecode import compile_package

#: The games played, each at its default size.
GAMES = ("spelde", "anda", "anda-prison", "vaxandis", "marbanta")
#: What `kgs-time_settings` and `time_left` tell: the tournament default (10 s byo-yomi).
TIME_SETTINGS = ("kgs-time_settings", "byoyomi", "0.000", "10.000", "1")


class EngineProcess:
    """One engine process over pipes: writes command lines, reads their answers."""

    def __init__(self, argv: list[str], cwd: Path):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.next_id = 1
        self.pending = b""
        self.sent: list[bytes] = []         # every write, in order

    def ask(self, *commands: str) -> list[str]:
        """Write `commands` (each one line, given ids) in one write; their answers' texts, in order.
        SystemExit on a `?` answer or the end of the engine's output."""
        lines, ids = [], []
        for command in commands:
            lines.append(f"{self.next_id} {command}\n")
            ids.append(self.next_id)
            self.next_id += 1
        assert self.proc.stdin is not None
        self.sent.append("".join(lines).encode())
        os.write(self.proc.stdin.fileno(), self.sent[-1])
        return [self._answer(cid, command) for cid, command in zip(ids, commands)]

    def _answer(self, cid: int, command: str) -> str:
        assert self.proc.stdout is not None
        while b"\n\n" not in self.pending:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise SystemExit(f"{self.proc.args}: output ended at `{command}`")
            self.pending += chunk
        raw, self.pending = self.pending.split(b"\n\n", 1)
        text = raw.decode()
        head, _, body = text.partition(" ")
        if head != f"={cid}":
            raise SystemExit(f"{self.proc.args}: `{command}` answered {text!r}")
        return body

    def kill(self) -> float:
        """Kill the process (SIGKILL: no exit work counted); its CPU seconds (user + system)."""
        self.proc.send_signal(signal.SIGKILL)
        _, _, usage = os.wait4(self.proc.pid, 0)
        self.proc.returncode = -9
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()
        return usage.ru_utime + usage.ru_stime


def start_cpu(argv: list[str], cwd: Path) -> float:
    """CPU seconds from the start of `argv` to its answer to `protocol_version`."""
    engine = EngineProcess(argv, cwd)
    engine.ask("protocol_version")
    return engine.kill()


def _optional(listed: set[str], seed: int) -> list[str]:
    """The time control and the seed an engine listing `listed` is sent after `list_commands`."""
    return ([" ".join(TIME_SETTINGS)] if "kgs-time_settings" in listed else []) + \
        ([f"hexarena-seed {seed}"] if "hexarena-seed" in listed else [])


def handshake(engine: EngineProcess, state: GameState, seed: int, kept: set[str] | None) -> set[str]:
    """The referee's handshake for one game (referee/game/handshake.py): to a process `kept` from
    an earlier game (`kept`: what it listed then) the commands up to `list_commands`, the time
    control and the seed in one write; to a new one (None) one command a write. What it lists."""
    chain = ["protocol_version", "name", "version", "list_games",
             "game " + state.info.describe(state.variant), f"boardsize {state.variant.size}", "clear_board",
             "list_commands"]
    if kept is not None:
        return set(engine.ask(*chain, *_optional(kept, seed))[len(chain) - 1].split())
    listed = set([engine.ask(command)[0] for command in chain][-1].split())
    for command in _optional(listed, seed):
        engine.ask(command)
    return listed


def play_game(engine: EngineProcess, game: str, seat: int, rng: random.Random, seed: int,
              kept: set[str] | None) -> tuple[int, set[str]]:
    """One game of `engine` (first player when `seat` is 0, seeded `seed`, `kept`: what it listed
    in an earlier game, None for a new process) against random actions drawn here; the engine's
    moves, and what it listed."""
    info = registry.get(game)
    state = info.new_game(info.variant(), 0)
    listed = handshake(engine, state, seed, kept)
    genmove = "genmove_analyze" if "genmove_analyze" in listed else "genmove"
    cap = info.ply_cap(state.variant.size)
    mine = Colour.BLACK if seat == 0 else Colour.WHITE      # the colour the engine holds
    told: list[str] = []                                    # the opponent's actions since, to play
    moves = 0
    while state.outcome() is None and state.ply < cap:
        colour = state.to_move
        if colour is mine:
            chain = [*told, f"time_left {colour.word} 10.000 1", f"{genmove} {colour.word}"]
            token = engine.ask(*chain)[-1].split("\n", 1)[0]
            action = state.parse(token)
            moves += 1
            told = []
        else:
            action = state.random_action(rng)
            told.append(f"play {colour.word} {state.format(action)}")
        if holder_after(colour, action) is not colour:
            mine = mine.other
        state = state.play(action)
    return moves, listed


@dataclass
class Row:
    """One player's figures in one game, over the rounds."""

    game: str
    player: str
    moves: int = 0                                            # the player's moves in one round
    starts: list[float] = field(default_factory=list)         # CPU seconds to the first answer, each process
    per_moves: list[float] = field(default_factory=list)      # CPU seconds a move, each round

    def start(self) -> float:
        return statistics.median(self.starts)

    def per_move(self) -> float:
        return statistics.median(self.per_moves)


def measure(row: Row, argv: list[str], cwd: Path, games: int, starts: int) -> bytes:
    """One round: `starts` start-ups of `argv`, then `games` games in `row.game` (alternating first
    and second), added to `row`; what the engine was sent in the games."""
    row.starts += [start_cpu(argv, cwd) for _ in range(starts)]
    engine = EngineProcess(argv, cwd)
    rng = random.Random(f"{row.game}/{games}")
    listed: set[str] | None = None
    row.moves = 0
    for g in range(games):
        moves, listed = play_game(engine, row.game, g % 2, rng, g, listed)
        row.moves += moves
    run = engine.kill()
    row.per_moves.append(max(run - statistics.median(row.starts), 0.0) / max(row.moves, 1))
    return b"".join(engine.sent)


def profile(player: str, stream: bytes, top: int = 25) -> str:
    """The built-in `player` served `stream` in this process (players/serve.py) under cProfile with
    a CPU timer: its functions by own CPU time, the `top` first."""
    import cProfile
    import io
    import pstats
    import time
    from hexarena.players.serve import serve
    stdin, stdout = io.TextIOWrapper(io.BytesIO(stream), encoding="utf-8"), io.StringIO()
    profiler = cProfile.Profile(time.process_time)
    profiler.runcall(serve, player, 0, None, stdin, stdout)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def tournament_cpu(argv: list[str], work: Path, game: str, games: int) -> tuple[float, int]:
    """CPU seconds of the processes a `hexarena tournament -j 1` of `games` games of `game` between
    two kept copies of `argv` starts (its engines, the pre-flight's included, and its guardian,
    referee/engines/leftovers.py), and its moves: the CPU of all it reaped less its own."""
    out = Path(tempfile.mkdtemp(dir=work))
    side = f'cmd = {json.dumps(argv)}\nrestart = "fault"\n'
    (out / "t.toml").write_text(f"games_per_pair = {games}\n[engines.a]\n{side}[engines.b]\n{side}"
                                f'[[games]]\ngame = "{game}"\n', encoding="utf-8")
    before = reaped_cpu()
    proc = subprocess.Popen([sys.executable, "-m", "hexarena", "tournament", str(out / "t.toml"), "--out",
                              str(out / "run"), "-j", "1", "-q"], cwd=work, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    own = own_cpu_at_exit(proc)             # then reaped: its CPU and its reaped descendants' join ours
    total = reaped_cpu() - before
    if proc.returncode != 0:
        raise SystemExit(f"{argv}: the tournament exited {proc.returncode} (in {out}):\n{err[-3000:]}")
    return total - own, sum(r.plies for r in read_journal(out / "run"))


def c_kit_engine(folder: Path) -> Path | None:
    """The C kit's example engine built into `folder` (tests/support/kits.py), or None (said on
    stderr) when cargo or cc is missing."""
    from tests.support import kits
    if (missing := kits.tools_missing()) is not None:
        print(f"(no C kit engine: {missing})", file=sys.stderr)
        return None
    return kits.c_engine(folder)


def rows(results: list[Row]) -> list[dict[str, str]]:
    """The table: each row with its ratios to the C kit's engine in the same game."""
    c = {r.game: r for r in results if r.player == "c-kit"}
    out = []
    for r in results:
        ref = c.get(r.game)
        low, high = min(r.per_moves), max(r.per_moves)
        out.append({
            "game": f"{r.game} n={registry.get(r.game).variant().size}", "player": r.player, "moves": str(r.moves),
            "start ms": f"{r.start() * 1e3:.1f}",
            "start xC": f"{r.start() / ref.start():.0f}" if ref and ref.start() > 0 else "",
            "us/move": f"{r.per_move() * 1e6:.1f}", "range": f"{low * 1e6:.1f}-{high * 1e6:.1f}",
            "move xC": f"{r.per_move() / ref.per_move():.1f}" if ref and ref.per_move() > 0 else ""})
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_players", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games of each player in each game (default 20)")
    parser.add_argument("--only", nargs="+", choices=GAMES, help="these games only (default: every game)")
    parser.add_argument("--players", default="random", help="built-in players, comma-separated (default random)")
    parser.add_argument("--baseline-cmd", help="another player program to measure beside them (a shell-quoted "
                        "command, run from a folder of its own)")
    parser.add_argument("--starts", type=int, default=3, help="processes timed for the start-up in each round "
                        "(default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds: each figure is the median over them "
                        "(default 3)")
    parser.add_argument("--profile", choices=GAMES, help="then profile the first player in this game (played)")
    parser.add_argument("--tournament", type=int, default=0, metavar="N", help="then, in each game, a `hexarena "
                        "tournament -j 1` of N games between two kept copies of each program, round after round: "
                        "all its engines' CPU a move (default 0: none)")
    parser.add_argument("--no-c-kit", action="store_true", help="leave out the C kit's example engine")
    args = parser.parse_args(argv)
    if min(args.games, args.starts, args.rounds) < 1:
        parser.error("--games, --starts and --rounds must be at least 1")
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        programs = [(name, [sys.executable, "-P", "-m", "hexarena.players", name, "--seed", "0"], work)
                    for name in args.players.split(",")]        # as a tournament starts it (PLAYER_CMD)
        if args.baseline_cmd:
            programs.append(("baseline", shlex.split(args.baseline_cmd), work))
        if not args.no_c_kit and (engine := c_kit_engine(work)) is not None:
            programs.append(("c-kit", [str(engine)], work))
        results, streams = [], {}
        for game in args.only or GAMES:
            rows_of_game = [Row(game, name) for name, _, _ in programs]
            for _ in range(args.rounds):            # the players in turn, round after round
                for row, (name, cmd, cwd) in zip(rows_of_game, programs):
                    streams[(game, name)] = measure(row, cmd, cwd, args.games, args.starts)
            results += rows_of_game
        runs: dict[tuple[str, str], list[tuple[float, int]]] = {}
        for game in (args.only or GAMES) if args.tournament else ():
            for _ in range(args.rounds):
                for name, cmd, cwd in programs:
                    runs.setdefault((game, name), []).append(tournament_cpu(cmd, cwd, game, args.tournament))
    load = os.getloadavg()
    print(f"players bench: {args.games} games of each a round, {args.rounds} rounds, start-up the median of "
          f"{args.starts * args.rounds} processes, {os.cpu_count()} cores, "
          f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the end")
    print(table(rows(results)))
    if runs:
        print(f"\nhexarena tournament -j 1, {args.tournament} games between two kept copies, each round: the CPU "
              "of the processes it started (engines, the pre-flight's included, and the run's guardian, the "
              "same for every row) over the moves")
        print(table([{"game": game, "player": name, "moves": str(got[0][1]),
                      "us/move": " ".join(f"{cpu / moves * 1e6:.0f}" for cpu, moves in got)}
                     for (game, name), got in runs.items()]))
    if args.profile:
        player = programs[0][0]
        print(f"\n{player} in {args.profile}, the same commands served in this process under cProfile (CPU time):")
        print(profile(player, streams[(args.profile, player)]))


if __name__ == "__main__":
    main()
