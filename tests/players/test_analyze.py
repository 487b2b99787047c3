"""`genmove_analyze` from the served bots and HGP 1.2 from the example engine, as real processes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.engine import registry
from hexarena.protocol.analysis import parse_info, split_answer

ROOT = Path(__file__).resolve().parents[2]


def _session(argv: list[str], lines: list[str]) -> list[str]:
    """The answers (without their empty lines) of a real process to `lines`, then quit."""
    text = "".join(f"{line}\n" for line in lines) + "quit\n"
    proc = subprocess.run(argv, input=text.encode(), capture_output=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert out.endswith("\n\n")
    *answers, bye = out[:-2].split("\n\n")
    assert bye.rstrip() == "="
    return answers


@pytest.mark.parametrize("bot, game", [("mcts:300", "spelde"), ("mcts:300", "anda"), ("mcts:300", "vaxandis"),
                                       ("heuristic", "vaxandis"),
                                       ("greedy", "spelde"), ("heuristic", "anda-prison")])
def test_a_served_bot_tells_what_it_thinks_of_each_move(bot: str, game: str) -> None:
    info = registry.get(game)
    state = info.new_game(info.variant(4, ("nopie",)), 0)
    lines = [f"game {game} nopie", "boardsize 4", "list_commands", "hgp_version"]
    lines += [f"genmove_analyze {c}" for c in "bwbwbw"]
    answers = _session([sys.executable, "-m", "hexarena.players", bot, "--seed", "2"], lines)
    listed = answers[2][2:].split("\n")
    assert "hgp_version" in listed and "genmove_analyze" in listed
    assert answers[3] == "= 1.2"
    for text in answers[4:]:
        assert text.startswith("= ")
        action, infos = split_answer(text[2:])
        assert len(infos) == 1, text
        got = parse_info(infos[0])
        assert got.winrate is not None and 0.0 <= got.winrate <= 1.0
        assert got.pv[0] == action and got.depth is not None and got.depth >= 1
        walk = state
        for token in got.pv:                              # a legal line of canonical tokens
            act = walk.parse(token)
            assert walk.format(act) == token
            walk = walk.play(act)
            if walk.outcome() is not None:
                break
        if bot.startswith("mcts"):
            assert got.visits == 300 and len(got.pv) >= 2
        state = state.play(state.parse(action))
        if state.outcome() is not None:
            break


def test_random_tells_nothing_but_the_action() -> None:
    answers = _session([sys.executable, "-m", "hexarena.players", "random"],
                       ["game spelde nopie", "boardsize 4", "genmove_analyze b"])
    assert split_answer(answers[2][2:])[1] == []


def test_the_example_engine_speaks_1_2() -> None:
    answers = _session([sys.executable, str(ROOT / "examples" / "random_engine.py")],
                       ["1 list_commands", "2 hgp_version", "3 kgs-time_settings fischer 1.000 0.100",
                        "4 time_left b 0.950 0", "5 time_settings 1 0 0", "6 known_command genmove_analyze",
                        "7 game spelde nopie", "8 boardsize 4", "9 genmove_analyze b"])
    assert {"hgp_version", "genmove_analyze"} <= set(answers[0].split("\n"))
    assert answers[1:7] == ["=2 1.2", "=3 ", "=4 ", "=5 ", "=6 true", "=7 "]
    action, infos = split_answer(answers[8][2:])
    assert infos == [f"info depth 1 pv {action}"]
    assert parse_info(infos[0]).pv == (action,)


def test_the_example_engine_refuses_huge_and_foreign_numbers_and_lives_on() -> None:
    huge = "9" * 5000
    answers = _session([sys.executable, str(ROOT / "examples" / "random_engine.py")],
                       [f"boardsize {huge}", "boardsize \u0663", f"komi {huge}",
                        f"set_position spelde 4 b {'/'.join(['.' * 4] * 7)} ply={huge}", "boardsize 4", "genmove b"])
    assert [a[:2] for a in answers[:4]] == ["? "] * 4
    assert all("internal error" not in a and len(a) < 200 for a in answers)
    assert answers[4] == "= " and answers[5].startswith("= ")
