"""What faults cost: hang, crash with children, referee death, stderr flood.

    python -m bench.bench_faults

Figures (each the median of REPEAT runs, wall seconds):

* hang cost       a Spelde n=5 game where one engine hangs on its first
                  genmove (move deadline DEADLINE s), minus the same game
                  where it resigns there instead: the deadline plus what the
                  referee adds (kill of the group, reporting).
* fork-exit cost  the same, the engine exiting with a child still holding
                  its pipes: detected at the exit, not at the deadline.
* cleanup after referee death  `hexarena tournament` with an engine that
                  ignores stdin EOF, `quit` and SIGTERM, hung after forking
                  a child: seconds from `kill -9` of the referee until the
                  engine and its child are gone (goal: under 5 s).
* log cap         an engine writing FLOOD_MB of stderr then exiting, through
                  the capped log (cap 4 MiB; engine start and stop included)
                  vs straight into a file as before the cap (no referee):
                  MB/s of each; the ratio says what the cap costs a flood.

A baseline (bench.common.baseline_us) measured in the same run is printed.
"""
from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import baseline_us, table
from tests.support.fakes import alive, fake_argv, pids_in
from tests.support.referee_run import logs_with, start_referee, write_config
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.engines.process import EngineProcess, open_engine

DEADLINE = 1.0
REPEAT = 5
FLOOD_MB = 200


def game_seconds(tmp: Path, mode: str) -> float:
    good = Seat("good", partial(open_engine, fake_argv("good"), tmp / "good.log", "good"))
    bad = Seat(mode, partial(open_engine, fake_argv(mode, 1), tmp / f"{mode}.log", mode))
    t0 = time.perf_counter()
    trio.run(play_game, Setup("spelde", 5), (bad, good), Limits(move=DEADLINE, start=10, command=10))
    return time.perf_counter() - t0


def cleanup_after_referee_death(tmp: Path) -> float:
    tmp.mkdir(parents=True, exist_ok=True)
    out = tmp / "out"
    referee = start_referee(write_config(tmp / "t.toml", "deaf-hang"), out)
    while not logs_with(out, "hung"):
        time.sleep(0.01)
    pids = pids_in(logs_with(out, "hung")[0])
    referee.send_signal(signal.SIGKILL)
    t0 = time.perf_counter()
    referee.communicate()
    while any(alive(p) for p in pids):
        time.sleep(0.005)
    return time.perf_counter() - t0


FLOOD = f"import sys\nb = b'x' * 1048575 + b'\\n'\nfor _ in range({FLOOD_MB}): sys.stderr.buffer.write(b)\n"


def flood_capped(tmp: Path) -> float:
    (tmp / "flood.log").unlink(missing_ok=True)

    async def main() -> float:
        t0 = time.perf_counter()
        async with trio.open_nursery() as nursery:
            engine = await EngineProcess.start(nursery, [sys.executable, "-c", FLOOD], tmp / "flood.log", "flood")
            await engine.wait()
            await engine.aclose()
        return time.perf_counter() - t0
    return trio.run(main)


def flood_to_file(tmp: Path) -> float:
    """The flood straight into a file, as the referee did before the cap (no pipe, no referee)."""
    t0 = time.perf_counter()
    with open(tmp / "uncapped.log", "wb") as log:
        subprocess.run([sys.executable, "-c", FLOOD], stderr=log, check=True)
    (tmp / "uncapped.log").unlink()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=REPEAT, help=f"runs of each figure (default {REPEAT})")
    repeat = parser.parse_args(argv).repeat
    base = baseline_us()
    with TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        game_seconds(tmp, "resign")                     # warm-up (imports, disk cache)
        resign = statistics.median(game_seconds(tmp, "resign") for _ in range(repeat))
        hang = statistics.median(game_seconds(tmp, "hang") for _ in range(repeat))
        fork_exit = statistics.median(game_seconds(tmp, "fork-exit") for _ in range(repeat))
        deaths = [cleanup_after_referee_death(Path(tmp_name, f"death{k}")) for k in range(repeat)]
        capped = statistics.median(flood_capped(tmp) for _ in range(repeat))
        uncapped = statistics.median(flood_to_file(tmp) for _ in range(repeat))
        log_size = (tmp / "flood.log").stat().st_size
    rows = [
        {"figure": "game, engine resigns at once", "value": f"{resign:.3f} s", "note": "reference"},
        {"figure": "hang cost", "value": f"{hang - resign:.3f} s",
         "note": f"deadline {DEADLINE:g} s + {hang - resign - DEADLINE:.3f} s"},
        {"figure": "fork-exit cost", "value": f"{fork_exit - resign:.3f} s", "note": "crash at the exit"},
        {"figure": "cleanup after referee death", "value": f"{statistics.median(deaths):.3f} s",
         "note": f"max {max(deaths):.3f} s of {repeat}; goal < 5 s"},
        {"figure": "stderr flood, capped log", "value": f"{FLOOD_MB / capped:.0f} MB/s",
         "note": f"log {log_size / 2**20:.1f} MiB of {FLOOD_MB} MB"},
        {"figure": "stderr flood, straight to a file", "value": f"{FLOOD_MB / uncapped:.0f} MB/s",
         "note": f"capped / uncapped time {capped / uncapped:.2f}x"},
    ]
    print(f"faults: median of {repeat}; baseline {base:.0f} us")
    print(table(rows))


if __name__ == "__main__":
    main()
