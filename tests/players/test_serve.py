"""Serving bots over stdin/stdout: in process, as `python -m hexarena.players`."""
from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.players.serve import serve

ROOT = Path(__file__).resolve().parents[2]
SESSION = "1 protocol_version\n\n# a comment\n2 game spelde nopie\n3 boardsize 5\n4 genmove b\n5 genmove w\n6 quit\n7 name\n"



def serve_text(text: str, bot: str = "random", seed: int = 0, log: str | None = None) -> tuple[int, str]:
    out = io.StringIO()
    status = serve(bot, seed, log, stdin=io.StringIO(text), stdout=out)
    return status, out.getvalue()


def responses(text: str) -> list[str]:
    assert text.endswith("\n\n")
    return text[:-2].split("\n\n")


def test_serve_answers_until_quit() -> None:
    status, out = serve_text(SESSION)
    assert status == 0
    got = responses(out)
    assert got[:3] == ["=1 2", "=2 ", "=3 "]
    assert re.fullmatch(r"=4 [a-i][1-9]", got[3]) and re.fullmatch(r"=5 [a-i][1-9](/\S+)?", got[4])
    assert got[5] == "=6 " and len(got) == 6        # nothing after quit


@pytest.mark.parametrize("bot", ["random", "greedy", "heuristic", "mcts:30"])
def test_serve_is_reproducible_by_seed(bot: str) -> None:
    moves = "".join(f"{i} genmove {'bw'[i % 2]}\n" for i in range(20))
    text = "game spelde nopie\nboardsize 5\n" + moves
    assert serve_text(text, bot, 4)[1] == serve_text(text, bot, 4)[1]
    outs = {serve_text(text, bot, seed)[1] for seed in range(5)}
    assert len(outs) > 1


def test_serve_stops_at_end_of_input() -> None:
    assert serve_text("1 protocol_version\n") == (0, "=1 2\n\n")
    assert serve_text("") == (0, "")


def test_serve_unknown_bot() -> None:
    with pytest.raises(ValueError, match="players: random, greedy"):
        serve_text("1 name\n", bot="nosuch")


def test_serve_log_is_a_timestamped_transcript(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    serve_text("1 protocol_version\n2 frobnicate\n3 quit\n", log=str(log))
    lines = log.read_text(encoding="utf-8").splitlines()
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00"
    assert all(re.match(stamp + " [#<>] ", ln) for ln in lines), lines
    body = [ln.split(" ", 1)[1] for ln in lines]
    assert body[1:] == ["> 1 protocol_version", "< =1 2", "> 2 frobnicate", "< ?2 unknown command",
                        "> 3 quit", "< =3 "]


def _run_module(args: list[str], text: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hexarena.players", *args], input=text.encode(), capture_output=True,
                          timeout=60, cwd=ROOT)


def test_python_m_players_serves_a_session() -> None:
    proc = _run_module(["random", "--seed", "3"], SESSION.replace("\n", "\r\n"))
    assert proc.returncode == 0, proc.stderr
    got = responses(proc.stdout.decode())
    assert got[:3] == ["=1 2", "=2 ", "=3 "] and got[5] == "=6 " and len(got) == 6
    again = _run_module(["random", "--seed", "3"], SESSION)
    assert again.stdout == proc.stdout


def test_python_m_players_unknown_bot() -> None:
    proc = _run_module(["nosuch"], "")
    assert proc.returncode == 2
    assert b"random, greedy" in proc.stderr and proc.stdout == b""


@pytest.mark.parametrize("bot", ["mcts", "mcts:100000", "mcts:2s"])
def test_a_timed_search_answers_within_a_clock_almost_spent(bot: str) -> None:
    """The serving loop's budget caps the search: with no time left the search stops at once
    (an unbounded `mcts:100000` would take minutes) and answers a legal move."""
    text = ("1 game spelde nopie\n2 boardsize 5\n3 time_settings 10 0 0\n4 time_left b 0 0\n"
            "5 genmove b\n6 quit\n")
    status, out = serve_text(text, bot, 1)
    got = responses(out)
    assert status == 0 and got[3] == "=4 " and re.fullmatch(r"=5 [a-i][1-9]", got[4]), got


@pytest.mark.parametrize("bot", ["greedy", "heuristic"])
def test_one_ply_players_answer_legally_with_no_time_left(bot: str) -> None:
    text = ("1 game spelde nopie\n2 boardsize 5\n3 time_settings 10 0 0\n4 time_left b 0 0\n"
            "5 genmove b\n6 quit\n")
    got = responses(serve_text(text, bot, 1)[1])
    assert re.fullmatch(r"=5 [a-i][1-9]", got[4]), got


def test_hexarena_seed_makes_a_used_process_play_as_a_fresh_one() -> None:
    game = "1 game spelde nopie\n2 boardsize 5\n3 clear_board\n" + "".join(
        f"{4 + i} genmove {'bw'[i % 2]}\n" for i in range(6))
    _, fresh = serve_text(game + "20 quit\n", "mcts:20", seed=42)
    _, used = serve_text(game + "9 hexarena-seed 42\n" + game + "20 quit\n", "mcts:20", seed=7)
    assert responses(used)[-len(responses(fresh)):] == responses(fresh)
    assert responses(used)[:6] != responses(fresh)[:6]          # the first game was seed 7's


def test_hexarena_seed_is_listed_and_checks_its_argument() -> None:
    _, out = serve_text("1 list_commands\n2 known_command hexarena-seed\n3 hexarena-seed x\n4 hexarena-seed\n")
    listing, known, bad, missing = responses(out)
    assert listing.splitlines()[-1] == "hexarena-seed" and known == "=2 true"
    assert bad.startswith("?3 syntax error") and missing.startswith("?4 syntax error")
