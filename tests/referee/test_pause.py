"""An engine's process group is stopped while it is not its turn (referee/engines/pause.py).

Real processes: an engine that forks a child spinning on a core after each of its
moves (the fakes' `burn-between`) gets no CPU while its opponent thinks, so its
opponent keeps its time; the group is continued for every command, and however a
run ends (a game's end, a kill, Ctrl-C, SIGTERM, a `kill -9` of the runner) no
engine nor child of one is left stopped or alive.
"""
from __future__ import annotations

import re
import signal
from functools import partial
from pathlib import Path

import pytest
import trio

from hexarena.engine.core import Termination
from hexarena.referee.engines.process import open_engine
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from tests.support.fakes import alive, fake_argv, pids_in
from tests.support.referee_run import start_referee, wait_for

SLOW_MOVE = Limits(move=60.0, start=10.0, command=10.0)


def state(pid: int) -> str:
    """The process's state letter from /proc (`T`: stopped); "" when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return ""


def burned(log: Path) -> list[float]:
    return [float(x) for x in re.findall(r"^burned (\S+)$", log.read_text(), re.M)]


@pytest.mark.parametrize("pause", [True, False])
def test_an_engine_and_its_children_are_stopped_while_the_other_thinks_and_continued_for_the_next_command(
        tmp_path, pause):
    log, other_log = tmp_path / "e.log", tmp_path / "other.log"

    async def main() -> list[tuple[str, ...]]:
        seen = []
        async with open_engine(fake_argv("child"), log, "e", pause=pause) as channel, \
                open_engine(fake_argv("slow-think"), other_log, "other", pause=pause) as other:
            deadline = trio.current_time() + 30
            for words in (("protocol_version",), ("game", "spelde"), ("boardsize", "5"), ("clear_board",)):
                await channel.command(*words, deadline=deadline)
                await other.command(*words, deadline=deadline)
            move = await channel.command("genmove", "black", deadline=deadline)
            await other.command("play", "black", move, deadline=deadline)

            async def look() -> None:                   # while the other thinks (0.2 s)
                await trio.sleep(0.1)
                seen.append(tuple(state(p) for p in pids_in(log)))
            async with trio.open_nursery() as nursery:
                nursery.start_soon(look)
                await other.command("genmove", "white", deadline=deadline)
            await channel.command("name", deadline=deadline)
            seen.append(tuple(state(p) for p in pids_in(log)))        # a command: it runs again
            await channel.command("genmove", "black", deadline=deadline)
        return seen

    after_move, after_command = trio.run(main)
    assert len(after_move) == 2                     # the engine and the child it forked
    assert (after_move == ("T", "T")) == pause, after_move
    assert "T" not in after_command, after_command
    wait_for(lambda: not any(alive(p) for p in pids_in(log)), "the engine and its child to end")


def test_an_engine_burning_cores_while_its_opponent_thinks_gets_no_cpu_then(tmp_path):
    """The outside probe's burner at a small size: the burner's child would spin on a core for
    each of the opponent's 0.2 s moves; stopped with its group (at most 5 ms into each), it gets
    (next to) none."""
    logs = [tmp_path / "slow.log", tmp_path / "burner.log"]
    slow = Seat("slow", partial(open_engine, fake_argv("slow-think"), logs[0], "slow", pause=True))
    burner = Seat("burner", partial(open_engine, fake_argv("burn-between"), logs[1], "burner", pause=True))
    report = trio.run(play_game, Setup("spelde", 4), (slow, burner), SLOW_MOVE)
    assert not report.void and report.termination == Termination.NO_MOVES.value, report.reason
    spent = burned(logs[1])
    thinking = 0.2 * len(spent)                     # the opponent's thinking while each child lived
    assert len(spent) >= 4
    assert sum(spent) < 0.1 * thinking, (spent, thinking)      # unstopped: 0.97 s of 3.2 on a loaded machine
    assert not any(alive(p) for log in logs for p in pids_in(log))


def write_burner_config(path: Path, restart: str = "game") -> Path:
    """A tournament: the burner against an engine that hangs on its second genmove (so the burner
    is stopped, its spinning child with it, until the run ends)."""
    def words(argv: list[str]) -> str:
        return "[" + ", ".join("'''" + w + "'''" for w in argv) + "]"
    path.write_text(f'''
games_per_pair = 2
[time]
move = 600
[engines.burner]
cmd = {words(fake_argv("burn-between"))}
restart = "{restart}"
[engines.hang]
cmd = {words(fake_argv("hang", 2))}
restart = "{restart}"
[[games]]
game = "spelde"
size = 5
''', encoding="utf-8")
    return path


def stopped_burner(out: Path) -> list[int]:
    """The burner's pids once it has moved and its child is stopped (the other engine thinks)."""
    found: list[int] = []

    def ready() -> bool:
        for log in (out / "logs").rglob("*-burner.log") if (out / "logs").is_dir() else ():
            pids = pids_in(log)
            if len(pids) >= 2 and state(pids[0]) == state(pids[-1]) == "T":   # the engine, its last child
                found[:] = pids
                return True
        return False
    wait_for(ready, "the burner to be stopped while the other engine thinks")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("how", ["sigkill", "sigterm", "ctrl-c twice"])
def test_no_engine_is_left_stopped_or_alive_however_the_runner_ends(tmp_path, how):
    out = tmp_path / "out"
    referee = start_referee(write_burner_config(tmp_path / "t.toml"), out)
    try:
        pids = stopped_burner(out)
        if how == "sigkill":
            referee.kill()
        elif how == "sigterm":
            referee.send_signal(signal.SIGTERM)
        else:
            referee.send_signal(signal.SIGINT)
            wait_for(lambda: "the games in flight finish" in (referee.stderr.readline() or "the end"),
                     "the first Ctrl-C to be heard")
            referee.send_signal(signal.SIGINT)
        referee.wait()
        hung = [p for log in (out / "logs").rglob("*-hang.log") for p in pids_in(log)]
        wait_for(lambda: not any(alive(p) for p in pids + hung), "every engine and child to end")
    finally:
        referee.kill()
        referee.communicate()
