"""Games on worker processes (`--workers P`): the same games as in one process, and the run's
guarantees when a worker or the runner is killed, or on Ctrl-C. Real processes throughout:
`hexarena tournament` runs, its `python -m hexarena.worker` children, fake engines."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from functools import partial
from types import SimpleNamespace
from pathlib import Path

import pytest
import trio

from hexarena.referee.engines.groups import sole
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament import workers
from hexarena.referee.tournament.pool import StartCounter
from hexarena.referee.tournament.run import TournamentError, run
from hexarena.results.record.journal import read_journal
from tests.support.fakes import alive, pids_in
from tests.support.referee_run import PATIENCE, logs_with, start_referee, wait_for, write_config


def players(games_per_pair: int) -> C.TournamentConfig:
    engines = tuple(C.EngineSpec(n, C.player_cmd(n), restart="fault") for n in ("random", "greedy"))
    return C.TournamentConfig(engines, (C.GameSpec("spelde", (4,), ("pie",)),), games_per_pair=games_per_pair,
                              seed=5, limits=C.Limits(move=10, start=20))


def played(config: C.TournamentConfig, out: Path, **kw) -> list:
    trio.run(partial(run, config, out, **kw))
    return sorted(read_journal(out), key=lambda r: r.id)


def game_for_game(records: list) -> list[tuple]:
    return [(r.id, r.first, r.second, r.black, r.white, r.winner, r.result, r.termination, r.plies,
             tuple(r.tokens), r.pair) for r in records]


def test_two_worker_processes_play_the_games_one_process_plays(tmp_path):
    here = played(players(8), tmp_path / "here", concurrency=1)
    spread = played(players(8), tmp_path / "spread", concurrency=2, workers=2)
    assert game_for_game(spread) == game_for_game(here)
    assert len({tuple(r.tokens) for r in here}) > 1                 # not all one game
    numbers = {n for r in spread for n in r.processes}
    assert numbers == {1, 2, 3, 4}                                   # two slots, each keeping its two engines
    assert all(r.processes[0] != r.processes[1] for r in spread)
    for r in spread:                                                 # written by the workers, in the run's folder
        assert (tmp_path / "spread" / r.sgf).is_file()              # (their logs: tests/referee/test_engine_environ.py)
    assert not (tmp_path / "spread" / "engines.live").exists()


def test_the_run_maps_only_the_engine_numbers_its_slots_still_keep():
    """A worker's engine numbers map to the run's; those of processes a slot let go are forgotten
    (with a fresh process per game the map would otherwise grow by two entries a game)."""
    kept_engines = workers._Workers(None, [], StartCounter(), print, None)     # type: ignore[arg-type]
    worker = SimpleNamespace(serial=1)
    run_numbers = []
    for game in range(100):                 # restart = "game": two new processes a game, none kept
        local = [2 * game + 1, 2 * game + 2]
        run_numbers += [kept_engines._number(worker, n) for n in local]
        kept_engines._forget(worker, 0, local, ())
    assert run_numbers == list(range(1, 201)) and kept_engines.numbers == {}
    first = [kept_engines._number(worker, n) for n in (501, 502)]
    for _ in range(3):                      # restart = "fault": the slot keeps its two processes
        kept_engines._forget(worker, 0, [501, 502], (501, 502))
        assert [kept_engines._number(worker, n) for n in (501, 502)] == first
    kept_engines._forget(worker, 0, [501, 502], (502,))
    assert list(kept_engines.numbers) == [(1, 502)]


def test_a_grown_tournament_resumed_on_workers_plays_only_the_new_games(tmp_path):
    first = played(players(2), tmp_path, concurrency=2, workers=2)
    grown = played(players(4), tmp_path, concurrency=2, workers=2, resume=True)
    assert [r.id for r in grown] == [f"spelde-4-pie/{n:04}" for n in range(4)]     # each id once
    assert grown[:2] == first
    assert game_for_game(grown) == game_for_game(played(players(4), tmp_path / "whole", concurrency=1))


def test_a_worker_that_cannot_start_stops_the_run_with_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "ENTRY", "hexarena.no_such_module")       # what a broken install does
    with pytest.raises(BaseException) as info:
        trio.run(partial(run, players(2), tmp_path, concurrency=2, workers=2))
    error = sole(info.value)
    assert isinstance(error, TournamentError) and "a worker process (hexarena.no_such_module) did not start: " \
        "it exited with status 1" in str(error), info.value
    assert read_journal(tmp_path) == []
    assert not (tmp_path / "engines.live").exists()


def test_workers_started_early_play_the_run_and_those_left_over_end_with_the_block(tmp_path):
    async def main() -> tuple[list[int | None], list[int | None], list[int]]:
        with workers.started_early(3) as early:
            started = [proc.popen for proc in early.waiting]
            await run(players(2), tmp_path, concurrency=2, workers=2, early=early)
            left = [proc.popen.pid for proc in early.waiting]
        assert early.waiting == []
        ran = [r.processes for r in read_journal(tmp_path)]
        return ([p.returncode for p in started if p.pid not in left], [p.returncode for p in started if p.pid in left],
                [n for numbers in ran for n in numbers or ()])
    used, left, numbers = trio.run(main)
    assert used == [0, 0] and left == [-signal.SIGKILL]      # the third one was never given its setup
    assert len(numbers) == 4 and len(read_journal(tmp_path)) == 2


def test_a_run_not_given_the_early_workers_leaves_them_waiting_and_the_block_ends_them(tmp_path):
    async def main() -> list[int | None]:
        with workers.started_early(1) as early:
            waiting = [proc.popen for proc in early.waiting]
            await run(players(2), tmp_path, concurrency=2, workers=1)
            assert [proc.popen for proc in early.waiting] == waiting          # no other run took it
        return [p.returncode for p in waiting]
    assert trio.run(main) == [-signal.SIGKILL] and len(read_journal(tmp_path)) == 2


def test_the_workers_module_keeps_no_mutable_state_of_its_own():
    kept = {name: value for name, value in vars(workers).items() if not name.startswith("__")
            and isinstance(value, (list, dict, set, bytearray))}
    assert kept == {}
    classes = [v for v in vars(workers).values() if isinstance(v, type) and v.__module__ == workers.__name__]
    assert [(c.__name__, n) for c in classes for n, v in vars(c).items()
            if not n.startswith("_") and isinstance(v, (int, list, dict, set))] == []


def test_a_worker_process_given_no_setup_exits_quietly():
    done = subprocess.run([sys.executable, "-m", "hexarena.worker", str(os.getpid())], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=PATIENCE)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


FORK = r"""
import os, sys, time
from pathlib import Path
from hexarena.worker import ForkedWorker, can_fork
assert can_fork()
kept_read, kept_write = os.pipe()           # a file of the runner's: the worker must not hold it
child = ForkedWorker.start()
to_worker, from_worker = child.to_worker, child.from_worker
os.close(kept_write)
for _ in range(1000):                        # until the worker has named itself (or 10 s)
    comm = Path(f"/proc/{child.pid}/comm").read_text().strip()
    session = os.getsid(child.pid) == child.pid
    if comm == "hexarena.worker" and session:
        break
    time.sleep(0.01)
os.close(to_worker)                          # no setup: the worker ends
print(comm, session, os.read(kept_read, 1) == b"", os.read(from_worker, 1) == b"", child.wait())
"""


def test_a_forked_worker_is_named_holds_none_of_the_runners_files_and_given_no_setup_exits_quietly():
    done = subprocess.run([sys.executable, "-c", FORK], capture_output=True, text=True, timeout=PATIENCE)
    assert (done.stdout, done.stderr) == ("hexarena.worker True True True 0\n", "")


def test_a_run_on_forked_workers_plays_the_games_one_process_plays(tmp_path):
    """The CLI forks its worker processes before its loop starts (hexarena/worker.py, ForkedWorker)."""
    config = tmp_path / "t.toml"
    config.write_text('games_per_pair = 4\nseed = 5\n[engines.random]\nplayer = "random"\nrestart = "fault"\n'
                      '[engines.greedy]\nplayer = "greedy"\nrestart = "fault"\n[[games]]\ngame = "spelde"\nsize = 4\n',
                      encoding="utf-8")
    spread, here = tmp_path / "spread", tmp_path / "here"
    for out, jobs in ((spread, "2"), (here, "1")):
        referee = start_referee(config, out, "-j", jobs)
        _, err = referee.communicate(timeout=PATIENCE)
        assert referee.returncode == 0, err
    assert game_for_game(sorted(read_journal(spread), key=lambda r: r.id)) == \
        game_for_game(sorted(read_journal(here), key=lambda r: r.id))
    assert not (spread / "engines.live").exists()


def test_a_launcher_that_cannot_be_pickled_is_refused_with_workers(tmp_path):
    with pytest.raises(TournamentError, match="cannot go to a worker process"):
        trio.run(partial(run, players(1), tmp_path, concurrency=1, workers=1, launcher=lambda *a: None))
    assert not (tmp_path / "journal.jsonl").exists()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def is_worker(pid: int) -> bool:
    """`python -m hexarena.worker`, or a worker forked by the runner (named so: its comm)."""
    try:
        return Path(f"/proc/{pid}/comm").read_bytes().strip() == b"hexarena.worker" \
            or b"hexarena.worker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def workers_of(referee) -> list[int]:
    return [pid for pid in children(referee.pid) if is_worker(pid)]


def every_pid_in_logs(out: Path) -> list[int]:
    return [p for log in (out / "logs").rglob("*.log") for p in pids_in(log)]


def resume(out: Path, *extra: str) -> None:
    done = subprocess.run([sys.executable, "-m", "hexarena", "tournament", "--resume", "--out", str(out),
                           "--no-preflight", *extra], capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_a_worker_killed_mid_game_loses_that_game_only_and_it_is_played_again(tmp_path):
    out = tmp_path / "out"      # `bad` hangs (ignoring EOF, quit, SIGTERM) after forking a child
    referee = start_referee(write_config(tmp_path / "t.toml", "deaf-hang", move=3.0), out, "--workers", "1")
    try:
        wait_for(lambda: logs_with(out, "hung"), "the engine to hang")
        [worker] = workers_of(referee)
        lost = every_pid_in_logs(out)
        assert len(lost) == 3 and all(alive(p) for p in lost)       # both engines and the child of one
        os.kill(worker, signal.SIGKILL)
        wait_for(lambda: not any(alive(p) for p in lost), "the lost game's engines and child to die")
        assert read_journal(out) == []              # ended by the runner while the game is played again
        _, err = referee.communicate(timeout=PATIENCE)
    finally:
        referee.kill()
    assert referee.returncode == 0, err
    assert "its worker process ended (killed by signal 9 (SIGKILL)); playing it again" in err
    [record] = read_journal(out)                   # once, played again to its end: bad hangs again, on time
    assert record.termination == "time" and record.faulty == "bad"
    assert not any(alive(p) for p in lost)
    assert not any(alive(p) for p in every_pid_in_logs(out))
    assert not any(alive(p) for p in children(referee.pid))
    resume(out, "--workers", "1")
    assert read_journal(out) == [record]


@pytest.mark.slow
def test_a_runner_killed_with_sigkill_takes_its_workers_and_their_engines_and_a_resume_plays_on(tmp_path):
    out = tmp_path / "out"
    referee = start_referee(write_config(tmp_path / "t.toml", "deaf-hang", move=3.0), out, "--workers", "1")
    try:
        wait_for(lambda: logs_with(out, "hung"), "the engine to hang")
        processes = workers_of(referee)
        engines = every_pid_in_logs(out)
        assert len(processes) == 1 and len(engines) == 3
        referee.kill()
        referee.wait()
        wait_for(lambda: not any(alive(p) for p in processes + engines), "the worker, its engines and a child to die")
    finally:
        referee.kill()
        referee.communicate()
    assert read_journal(out) == []
    resume(out, "--workers", "1")
    [record] = read_journal(out)
    assert record.termination == "time" and record.faulty == "bad"
    assert not any(alive(p) for p in every_pid_in_logs(out))


def in_flight(out: Path) -> set[str]:
    return {f"{p.parent.name}/{p.name.split('.')[0]}" for p in (out / "logs").rglob("*.log")} \
        if (out / "logs").is_dir() else set()


@pytest.mark.slow
@pytest.mark.parametrize("times", [1, 2])
def test_ctrl_c_on_worker_processes(tmp_path, times):
    """Once: the games on the workers finish and are journaled, no new one starts. Twice: they
    are abandoned. Either way no worker or engine is left and the exit is 130 with the hint."""
    out = tmp_path / "out"
    config = write_config(tmp_path / "t.toml", "slow", games_per_pair=4, good_mode="slow")
    referee = start_referee(config, out, "-j", "2", "--workers", "2")
    try:
        wait_for(lambda: len(in_flight(out)) == 2, "two games in flight")
        processes = workers_of(referee)
        assert len(processes) == 2
        started = in_flight(out)
        referee.send_signal(signal.SIGINT)
        if times == 2:
            seen = ""
            while "the games in flight finish" not in seen:
                line = referee.stderr.readline()
                assert line, "the referee ended before saying it was stopping"
                seen += line
            referee.send_signal(signal.SIGINT)
        _, err = referee.communicate(timeout=PATIENCE)
    finally:
        referee.kill()
    assert referee.returncode == 130, err
    assert "Traceback" not in err, err
    assert f"hexarena tournament --resume --out {out}" in err
    records = read_journal(out)
    if times == 1:
        assert {r.id for r in records} == started and all(r.termination == "no-moves" for r in records)
        assert in_flight(out) == started
    else:
        assert records == []
    assert not any(alive(p) for p in processes + every_pid_in_logs(out))
