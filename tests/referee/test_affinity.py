"""Pinned cores: each slot's engines run on its own CPUs (real processes read their Cpus_allowed_list)."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from hexarena.referee.engines.process import open_engine
from hexarena.referee.engines.spawn import ResourceLimits
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.affinity import AffinityError, format_cpus, parse_cpus, pinned, plan, slot_cpus
from hexarena.referee.tournament.run import process_launcher
from hexarena.results.record.journal import read_journal
from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)
from tests.support.fakes12 import fake12_argv

USABLE = tuple(sorted(os.sched_getaffinity(0)))
two_cpus = pytest.mark.skipif(len(USABLE) < 2, reason="needs two CPUs the tests may use")


@pytest.mark.parametrize("text, cpus", [("0", (0,)), ("0-3,6", (0, 1, 2, 3, 6)), ("6, 0-1,1", (0, 1, 6)),
                                        ("8191", (8191,))])
def test_cpu_lists_read_and_write_as_linux_writes_them(text: str, cpus: tuple[int, ...]) -> None:
    assert parse_cpus(text) == cpus
    assert parse_cpus(format_cpus(cpus)) == cpus
    assert format_cpus((0, 1, 2, 3, 6, 8, 9)) == "0-3,6,8-9"


@pytest.mark.parametrize("text, why", [("", "is not a list of CPUs"), ("0-", "at '0-'"), ("a", "at 'a'"),
                                       ("3-1", "3-1 is not a range of CPUs in 0..8191"),
                                       ("8192", "8192 is not a range"), ("-1", "at '-1'")])
def test_a_bad_cpu_list_is_refused_naming_the_part(text: str, why: str) -> None:
    with pytest.raises(AffinityError, match=why):
        parse_cpus(text)


def test_the_cpus_are_split_evenly_in_consecutive_shares_and_too_many_slots_are_refused() -> None:
    assert slot_cpus((0, 1), 2) == ((0,), (1,))
    assert slot_cpus((0, 1, 2, 3, 4, 5, 6), 3) == ((0, 1), (2, 3), (4, 5))      # 6 is left to the referee
    assert plan(True, None, (0, 1, 2)) == ((0,), (1,), (2,))                       # -j: one slot per CPU
    assert plan((2, 3), 1, (0, 1, 2, 3)) == ((2, 3),)
    with pytest.raises(AffinityError, match="-j 3 needs at least 3 CPUs, one per slot, but CPUs 0-1 are 2"):
        plan(True, 3, (0, 1))
    with pytest.raises(AffinityError, match=r"CPUs 5,7 are not among those the referee may use \(0-3\)"):
        plan((0, 5, 7), 1, (0, 1, 2, 3))


@two_cpus                       # with one CPU, pinned or not, an engine reports the same
def test_a_slot_s_cpus_and_its_pinned_launcher_are_plain_data_a_worker_process_can_receive(
        tmp_path: Path) -> None:
    shares = slot_cpus(USABLE, 1)
    assert pickle.loads(pickle.dumps(shares)) == shares
    launcher = pickle.loads(pickle.dumps(pinned(process_launcher, USABLE[:1])))
    spec = C.EngineSpec("e", tuple(fake12_argv("cpus")), resources=ResourceLimits(memory_mb=4096))

    async def main() -> None:
        async with launcher(spec, 0, tmp_path / "e.log") as channel:
            assert await channel.command("protocol_version", deadline=trio.current_time() + 10) == "2"
    trio.run(main)
    assert f"cpus: {USABLE[0]}\n" in (tmp_path / "e.log").read_text()
    assert spec.resources.cpus is None                   # the engine's own spec is untouched


@two_cpus                       # with one CPU, pinned or not, an engine reports the same
def test_a_spawned_engine_runs_on_the_cpus_of_its_limits(tmp_path: Path) -> None:
    async def main() -> None:
        async with open_engine(fake12_argv("cpus"), tmp_path / "e.log", "e",
                               resources=ResourceLimits(cpus=USABLE[-1:])) as channel:
            assert await channel.command("protocol_version", deadline=trio.current_time() + 10) == "2"
    trio.run(main)
    assert f"cpus: {USABLE[-1]}\n" in (tmp_path / "e.log").read_text()


def _config(tmp_path: Path, extra: str = "", games: int = 2) -> Path:
    conf = tmp_path / "t.toml"
    engines = "".join(f'[engines.{n}]\ncmd = {json.dumps(fake12_argv("cpus"))}\n' for n in ("a", "b"))
    conf.write_text(f"{extra}games_per_pair = {games}\n{engines}[[games]]\ngame = \"spelde\"\nsize = 3\n")
    return conf


def _cpus_of_each_game(out: Path) -> dict[str, set[str]]:
    """Per game, the Cpus_allowed_list its engines reported."""
    found: dict[str, set[str]] = {}
    for record in read_journal(out / "journal.jsonl"):
        assert not record.void, record.reason
        for seat, name in ((1, record.first), (2, record.second)):
            log = (out / "logs" / f"{record.id}.{seat}-{name}.log").read_text()
            found.setdefault(record.id, set()).update(
                ln.split(" ", 1)[1] for ln in log.splitlines() if ln.startswith("cpus: "))
    return found


@two_cpus
def test_with_affinity_each_slot_s_engines_run_on_its_own_cpus(tmp_path: Path) -> None:
    out = tmp_path / "o"
    result = invoke("tournament", str(_config(tmp_path)), "--affinity", "-j", "2", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output + result.stderr
    shares = slot_cpus(USABLE, 2)
    assert f"pinned cores: slot 1 on CPU {format_cpus(shares[0])}, slot 2 on CPU {format_cpus(shares[1])}" \
        in result.stderr
    per_game = _cpus_of_each_game(out)
    assert len(per_game) == 2
    # both engines of a game on one share; the two games, played at once, on the two shares
    assert sorted(next(iter(cpus)) for cpus in per_game.values() if len(cpus) == 1) == \
        sorted(format_cpus(s) for s in shares)


def test_a_j_larger_than_the_cpus_allow_is_refused_before_anything_runs(tmp_path: Path) -> None:
    out = tmp_path / "o"
    too_many = len(USABLE) + 1
    result = invoke("tournament", str(_config(tmp_path)), "--affinity", "-j", str(too_many), "--out", str(out))
    assert result.exit_code == 2
    assert (f"--affinity: -j {too_many} needs at least {too_many} CPUs, one per slot, but CPUs "
            f"{format_cpus(USABLE)} are {len(USABLE)}") in result.output
    assert not out.exists()
    result = invoke("tournament", str(_config(tmp_path)), "--affinity", "99999", "--out", str(out))
    assert result.exit_code == 2 and "--affinity: '99999': 99999 is not a range of CPUs" in result.output
    result = invoke("tournament", "--affinity", str(_config(tmp_path)), "--out", str(out))
    assert result.exit_code == 2 and "a config file goes before --affinity" in result.output
    result = invoke("tournament", str(_config(tmp_path)), "--affinity", "--cluster", "local:1", "--out", str(out))
    assert result.exit_code == 2 and "with --cluster the games run on the cluster's workers" in result.output
    assert not out.exists()


def test_the_config_s_affinity_pins_the_slots_and_the_option_overrides_it(tmp_path: Path) -> None:
    last = USABLE[-1]
    out = tmp_path / "o"
    result = invoke("tournament", str(_config(tmp_path, f'affinity = "{last}"\n', games=1)), "--out", str(out), "-q")
    assert result.exit_code == 0, result.output + result.stderr
    assert list(_cpus_of_each_game(out).values()) == [{str(last)}]
    saved = json.loads((out / "tournament.json").read_text())
    assert saved["affinity"] == str(last)
    too_many = len(USABLE) + 1
    result = invoke("tournament", str(_config(tmp_path, "affinity = true\n")), "-j", str(too_many),
                    "--out", str(tmp_path / "p"))
    assert result.exit_code == 2 and "affinity (in the config): -j" in result.output


def test_the_config_s_affinity_is_read_checked_and_saved_and_changes_no_game(tmp_path: Path) -> None:
    assert C.load(_config(tmp_path)).affinity is False
    assert C.load(_config(tmp_path, "affinity = true\n")).affinity is True
    config = C.load(_config(tmp_path, 'affinity = "0-3,6"\n'))
    assert config.affinity == (0, 1, 2, 3, 6)
    assert C.to_dict(config)["affinity"] == "0-3,6"
    assert C.from_dict(json.loads(json.dumps(C.to_dict(config)))) == config
    for value, why in (('"x"', "'x' is not a list of CPUs"), ("3", "expected true, false or a list of CPUs")):
        with pytest.raises(C.ConfigError, match=f"t.toml:1: affinity: .*{why}"):
            C.load(_config(tmp_path, f"affinity = {value}\n"))
    from hexarena.referee.tournament.growth import same_play
    assert same_play(C.to_dict(C.load(_config(tmp_path))), C.to_dict(config))


def test_the_default_counts_the_cpus_this_process_may_use_not_the_machine_s():
    code = ("from hexarena.referee.tournament.affinity import cpu_count; "
            "from hexarena.supervise import default_workers; print(cpu_count(), default_workers(8))")
    pinned = subprocess.run(["taskset", "-c", "0", sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert pinned.stdout.split() == ["1", "1"]
    free = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert free.stdout.split() == [str(len(os.sched_getaffinity(0))), str(min(8, len(os.sched_getaffinity(0))))]
