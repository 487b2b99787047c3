"""hexarena.sdk: an engine written on it, served in a real process, answers HGP with what its
`choose` returns: the clock's budget reaches it, its analysis becomes info lines, the seed
decides its choices, its diagnostics go to stderr and never to stdout."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ENGINE = '''
from hexarena.sdk import Engine, analysed, run

class Probe(Engine):
    name = "probe"

    def choose(self, state, budget, rng):
        self.log("budget", budget.seconds, budget.move_seconds)
        action = rng.choice(list(state.legal_actions()))
        return analysed(action, winrate=0.25, visits=7, pv=[state.format(action)])

run(Probe())
'''


def session(tmp_path: Path, lines: list[str], *args: str) -> subprocess.CompletedProcess:
    script = tmp_path / "probe.py"
    script.write_text(ENGINE)
    return subprocess.run([sys.executable, str(script), *args], input="\n".join(lines) + "\nquit\n",
                          capture_output=True, text=True, timeout=60)


def answers(out: str) -> list[str]:
    return [block for block in out.split("\n\n") if block]


def test_an_sdk_engine_gets_its_budget_and_prints_its_analysis(tmp_path: Path) -> None:
    run = session(tmp_path, ["1 name", "2 game spelde nopie", "3 boardsize 4", "4 kgs-time_settings fischer 30 1",
                             "5 time_left b 20 0", "6 genmove_analyze b", "7 list_commands"])
    got = answers(run.stdout)
    assert got[0] == "=1 probe"
    first, info = got[5].split("\n")
    assert first.startswith("=6 ")
    assert info == f"info winrate 0.25 visits 7 pv {first[3:]}"
    assert "genmove_analyze" in got[6] and "set_position" in got[6] and "hexarena-seed" in got[6]
    budget = [line for line in run.stderr.splitlines() if "budget" in line]
    assert budget and budget[0].startswith("[probe] budget 20.0 "), run.stderr
    assert 0 < float(budget[0].split()[-1]) < 20


def test_the_seed_decides_the_choices(tmp_path: Path) -> None:
    moves = ["game spelde nopie", "boardsize 5"] + ["genmove b", "genmove w"] * 3
    same = [answers(session(tmp_path, moves, "--seed", "3").stdout) for _ in range(2)]
    other = answers(session(tmp_path, moves, "--seed", "4").stdout)
    assert same[0] == same[1]
    assert same[0] != other
    reseeded = answers(session(tmp_path, ["hexarena-seed 3"] + moves, "--seed", "4").stdout)
    assert reseeded[1:] == same[0]


def test_a_print_in_choose_goes_to_stderr_not_into_the_answers(tmp_path: Path) -> None:
    script = tmp_path / "chatty.py"
    script.write_text(ENGINE.replace('self.log("budget", budget.seconds, budget.move_seconds)',
                                     'print("thinking about the move...")'))
    run = subprocess.run([sys.executable, str(script)], input="1 boardsize 4\n2 genmove b\n3 name\nquit\n",
                         capture_output=True, text=True, timeout=60)
    got = answers(run.stdout)
    assert got[0].strip() == "=1" and got[1].startswith("=2 ") and got[2] == "=3 probe", run.stdout
    assert "thinking about the move..." not in run.stdout and "thinking about the move..." in run.stderr


BAD_ANALYSIS = '''
from hexarena.sdk import Engine, analysed, run

class Sloppy(Engine):
    name = "sloppy"

    def choose(self, state, budget, rng):
        token = min(state.format(a) for a in state.legal_actions())
        action = state.parse(token)
        bad = {"winrate": [float("nan"), 1.7], "visits": [-3, 10 ** 30], "pv": [[token + "\\n\\n=6 bogus"], ["resign"]]}
        turn = state.ply % 2
        return analysed(action, winrate=bad["winrate"][turn], score=1.5, visits=bad["visits"][turn], depth=4,
                        pv=bad["pv"][turn])

run(Sloppy())
'''


def test_analysis_values_the_grammar_refuses_are_left_out_and_told_on_stderr(tmp_path: Path) -> None:
    """A `winrate` nan or 1.7, `visits` -3 or 10**30, a pv token with end-of-lines or not the action
    played: left out of the info line (whose frame stays whole), each named on stderr; the rest is kept."""
    script = tmp_path / "sloppy.py"
    script.write_text(BAD_ANALYSIS)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                         input="1 game spelde nopie\n2 boardsize 3\n3 genmove_analyze b\n4 genmove_analyze w\n"
                               "5 name\nquit\n")
    got = answers(run.stdout)
    assert [a.split("\n")[1:] for a in got[2:4]] == [["info score 1.5 depth 4"]] * 2, run.stdout
    assert got[2].startswith("=3 a1\n") and got[3].startswith("=4 ") and got[4] == "=5 sloppy" and len(got) == 6
    second = got[3].split("\n")[0][3:]
    told = [line for line in run.stderr.splitlines() if "left out" in line]
    assert told == [
        "[sloppy] genmove_analyze a1: left out: info line 1: winrate nan is not a finite number",
        "[sloppy] genmove_analyze a1: left out: info line 1: visits -3 is not a whole number >= 0 of at most 18 digits",
        "[sloppy] genmove_analyze a1: left out: info line 1: pv: 'a1\\n\\n=6 bogus' is not an action token "
        "(printable ASCII, no space)",
        f"[sloppy] genmove_analyze {second}: left out: info line 1: winrate 1.7 is outside 0..1",
        f"[sloppy] genmove_analyze {second}: left out: info line 1: visits 1000000000000000000000000000000 is not a "
        "whole number >= 0 of at most 18 digits",
        f"[sloppy] genmove_analyze {second}: left out: info line 1: pv starts with 'resign', not with the action "
        f"played, '{second}'",
    ], run.stderr
