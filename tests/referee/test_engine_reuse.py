"""Engine reuse (`restart = "fault"`): real engine processes kept across a worker slot's games."""
from __future__ import annotations

import re
from dataclasses import replace
from functools import partial

import pytest
import trio

from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.run import load_saved, prepare, run
from hexarena.results.record.journal import read_journal
from tests.support.fakes import fake_argv, pids_in


def players(restart: str, games_per_pair: int = 4, size: int = 4) -> C.TournamentConfig:
    engines = tuple(C.EngineSpec(n, C.player_cmd(n), restart=restart) for n in ("random", "greedy"))
    return C.TournamentConfig(engines, (C.GameSpec("spelde", (size,), ("pie",)),), games_per_pair=games_per_pair,
                              seed=11, limits=C.Limits(move=10, start=20))


def play(config: C.TournamentConfig, out, concurrency: int = 1, **kw) -> list:
    trio.run(partial(run, config, out, concurrency=concurrency, **kw))
    return sorted(read_journal(out), key=lambda r: r.id)      # whole records: the run returns summaries


@pytest.mark.slow
def test_kept_built_in_players_play_the_very_games_fresh_processes_play(tmp_path):
    kept = play(players("fault", 6), tmp_path / "kept")
    fresh = play(players("game", 6), tmp_path / "fresh")
    assert [r.tokens for r in kept] == [r.tokens for r in fresh]       # reseeded per game
    assert len({tuple(r.tokens) for r in kept}) > 1                       # ...and not all one game
    assert {n for r in kept for n in r.processes} == {1, 2}                # one process per engine
    assert sorted(n for r in fresh for n in r.processes) == list(range(1, 2 * len(fresh) + 1))
    # the built-in players write nothing to stderr: no game has a log (a kept engine's log moving from
    # game to game: test_a_kept_process_whose_list_changed_is_sent_what_its_new_list_chooses)
    assert not list((tmp_path / "kept" / "logs").rglob("*.log"))


def test_each_slot_keeps_its_own_processes(tmp_path):
    records = play(players("fault", 8), tmp_path, concurrency=2)
    numbers = {n for r in records for n in r.processes}
    assert len(numbers) == 4                    # two slots, two engines each
    for r in records:
        assert r.processes[0] != r.processes[1]


@pytest.mark.slow
def test_a_faulty_engine_is_restarted_and_its_opponent_kept(tmp_path):
    engines = (C.EngineSpec("crasher", tuple(fake_argv("crash", 20)), restart="fault"),
               C.EngineSpec("random", C.player_cmd("random"), restart="fault"))
    config = replace(players("fault", 8), engines=engines)
    records = play(config, tmp_path)
    crashes = [r for r in records if r.faulty == "crasher"]
    assert crashes and all(r.termination == "crash" for r in crashes)
    assert len(records) > len(crashes)                  # some games end before the 20th genmove
    seat = {r.id: (0 if r.first == "crasher" else 1) for r in records}
    crasher = [r.processes[seat[r.id]] for r in records]
    random = [r.processes[1 - seat[r.id]] for r in records]
    assert len(set(random)) == 1                         # never at fault: one process throughout
    for before, after, number in zip(records, records[1:], crasher[1:]):
        previous = before.processes[seat[before.id]]
        assert (number != previous) == (before.faulty == "crasher")
    logs = [tmp_path / f"logs/{r.id}.{seat[r.id] + 1}-crasher.log" for r in records]
    started = [log.exists() and bool(pids_in(log)) for log in logs]      # the fake writes its pid when it starts
    assert started == [True] + [b.faulty == "crasher" for b in records[:-1]]


def test_a_kept_engine_s_cpu_limit_is_per_game(tmp_path):
    """0.05 s of CPU a move, at most ~1 s a game: under `cpu_seconds = 2` a kept process plays game
    after game (a limit per process would kill it with SIGXCPU in its third or fourth game)."""
    engines = (C.EngineSpec("worker", tuple(fake_argv("cpu-work")), restart="fault",
                            resources=C.ResourceLimits(cpu_seconds=2)),
               C.EngineSpec("random", C.player_cmd("random"), restart="fault"))
    records = play(replace(players("fault", 4), engines=engines), tmp_path)
    assert [r.faulty for r in records] == [None] * 4, [r.reason for r in records]
    assert len({r.processes[0 if r.first == "worker" else 1] for r in records}) == 1    # one process throughout


@pytest.mark.slow
def test_an_engine_that_lost_on_time_is_not_kept_and_its_late_answer_reaches_no_game(tmp_path):
    engines = (C.EngineSpec("sleepy", tuple(fake_argv("hang", 3)), restart="fault"),
               C.EngineSpec("random", C.player_cmd("random"), restart="fault"))
    config = replace(players("fault", 4), engines=engines, limits=C.Limits(move=0.5, start=20))
    records = play(config, tmp_path)
    assert [r.termination for r in records if r.faulty] == ["time"] * len([r for r in records if r.faulty])
    timed_out = [r for r in records if r.faulty == "sleepy"]
    assert timed_out
    others = [r for r in records if not r.faulty]
    assert all(r.termination == "no-moves" for r in others)
    seat = {r.id: (0 if r.first == "sleepy" else 1) for r in records}
    numbers = [r.processes[seat[r.id]] for r in records]
    assert len(set(numbers)) == len(timed_out) + (0 if records[-1].faulty == "sleepy" else 1)


@pytest.mark.slow
def test_resume_after_an_abandoned_run_is_exact_with_kept_engines(tmp_path):
    reference = play(players("game", 6), tmp_path / "reference")
    seen = []

    async def abandon_after_three():
        with trio.CancelScope() as scope:
            def on_record(record):
                seen.append(record)
                if len(seen) == 3:
                    scope.cancel()            # games in flight are dropped, as after kill -9
            await run(players("fault", 6), tmp_path / "kept", concurrency=2, on_record=on_record)
    trio.run(abandon_after_three)
    journaled = read_journal(tmp_path / "kept")
    assert 3 <= len(journaled) < len(reference)
    pending, _ = prepare(players("fault", 6), tmp_path / "kept", resume=True)
    assert len(pending) == len(reference) - len(journaled)
    resumed = play(players("fault", 6), tmp_path / "kept", concurrency=2, resume=True)
    assert [(r.id, r.tokens, r.result) for r in resumed] == [(r.id, r.tokens, r.result) for r in reference]
    first = max(n for r in journaled for n in r.processes)
    later = [n for r in resumed if r not in journaled for n in r.processes]
    assert later and min(later) > first                 # numbers name one process within the folder


def test_resuming_with_another_restart_setting_is_no_growth(tmp_path):
    play(players("game", 2), tmp_path)
    warnings: list[str] = []
    pending, records = prepare(players("fault", 2), tmp_path, resume=True, warn=warnings.append)
    assert pending == [] and len(records) == 2 and warnings == []
    assert not (tmp_path / "history.json").exists()
    assert {e.restart for e in load_saved(tmp_path).engines} == {"fault"}


def test_a_kept_engine_s_transcript_is_per_game(tmp_path):
    engines = tuple(C.EngineSpec(n, C.player_cmd(n), restart="fault", log_protocol=True) for n in ("random", "greedy"))
    records = play(replace(players("fault", 4), engines=engines), tmp_path)
    assert {n for r in records for n in r.processes} == {1, 2}
    for r in records:
        lines = (tmp_path / f"logs/{r.id}.1-{r.first}.hgp").read_text().splitlines()
        sent = [line.split(" ", 2)[2] for line in lines if line.split(" ")[1] == ">"]
        assert sent[0].endswith("protocol_version")                   # starts with this game's handshake
        asked = sum(" genmove " in f" {s} " or " genmove_analyze " in f" {s} " for s in sent)
        assert asked + sum(" play " in f" {s} " for s in sent) == r.plies


@pytest.mark.slow
def test_a_slot_keeps_one_idle_process_per_engine_across_pairings(tmp_path):
    engines = tuple(C.EngineSpec(n, C.player_cmd(p), restart="fault")
                    for n, p in (("r1", "random"), ("r2", "random"), ("g", "greedy")))
    records = play(replace(players("fault", 4), engines=engines), tmp_path)     # pairings alternate
    assert len(records) == 12 and len({n for r in records for n in r.processes}) == 3


#: An engine that tells on stderr how many command lines had come behind each `protocol_version`
#: it read (in the same read or earlier), then passes its input to the engine its arguments start.
_PEEK = r'''
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE)
rest = b""
while data := os.read(0, 65536):
    *lines, rest = (rest + data).split(b"\n")
    for i, line in enumerate(lines):
        if line.split()[1:2] == [b"protocol_version"]:
            print("behind protocol_version:", len(lines) - 1 - i, file=sys.stderr, flush=True)
    child.stdin.write(b"".join(line + b"\n" for line in lines))
    child.stdin.flush()
child.stdin.close()
sys.exit(child.wait())
'''


def test_a_kept_process_is_asked_its_whole_handshake_in_one_write(tmp_path):
    """A new process is asked one command at a time (its `protocol_version` waits for its start-up);
    a kept one gets `protocol_version` ... `list_commands`, the time control and the seed at once,
    and plays the games a new process plays."""
    import sys
    peek = C.EngineSpec("random", (sys.executable, "-c", _PEEK, *C.player_cmd("random")), restart="fault")
    config = replace(players("fault", 4), engines=(peek, players("fault").engines[1]))
    records = play(config, tmp_path / "kept")
    logs = "".join(p.read_text() for p in (tmp_path / "kept" / "logs").rglob("*.log"))
    behind = [int(n) for n in re.findall(r"behind protocol_version: (\d+)", logs)]
    # pv, name, version, list_games, game, boardsize, clear_board (Spelde: no komi), list_commands,
    # then time_settings and hexarena-seed (the random player lists it)
    assert sorted(behind) == [0] + [9] * (len(records) - 1)
    fresh = play(players("game", 4), tmp_path / "fresh")
    assert [r.tokens for r in records] == [r.tokens for r in fresh]


def test_a_kept_process_whose_list_changed_is_sent_what_its_new_list_chooses(tmp_path):
    """The one write holds the time control its last `list_commands` chose; when this game's list
    chooses another, that one follows the write."""
    relist = C.EngineSpec("relist", tuple(fake_argv("relist")), restart="fault")
    config = replace(players("fault", 3), engines=(relist, players("fault").engines[1]))
    records = play(config, tmp_path / "out")
    told = []
    for r in records:
        seat = 1 if r.first == "relist" else 2
        log = (tmp_path / "out" / f"logs/{r.id}.{seat}-relist.log").read_text()
        told.append(re.findall(r"^told (\S+)$", log, re.M))
    assert all(not r.void for r in records)
    assert told == [["kgs-time_settings"], ["kgs-time_settings", "time_settings"], ["time_settings"]]
