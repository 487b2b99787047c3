"""The serving loop's input and output (players/sdk.py): each answer flushed once complete, also
when several commands came in one read; lines across reads; the served player's start (its imports,
its command line)."""
from __future__ import annotations

import importlib.metadata
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.players import installed, sdk
from hexarena.players.__main__ import _plain
from hexarena.players.serve import serve
from hexarena.protocol.framing import MAX_COMMAND_BYTES, OVERLONG

ROOT = Path(__file__).resolve().parents[2]
GAME = "1 game spelde nopie\n2 boardsize 5\n3 clear_board\n"
MOVE = "4 play b c3\n5 time_left w 10 0\n6 genmove w\n"


class Chunks(io.RawIOBase):
    """A byte stream whose reads return the given chunks, one a read (as a pipe returns what was
    written)."""

    def __init__(self, chunks: list[bytes]):
        self.chunks = list(chunks)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:          # type: ignore[no-untyped-def]
        if not self.chunks:
            return 0
        chunk = self.chunks.pop(0)
        assert len(chunk) <= len(buffer)
        buffer[:len(chunk)] = chunk
        return len(chunk)


class Writes(io.StringIO):
    """A stdout that keeps what each flush sent."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []
        self.mark = 0

    def flush(self) -> None:
        text = self.getvalue()[self.mark:]
        if text:
            self.sent.append(text)
            self.mark += len(text)


def served(chunks: list[bytes], bot: str = "random") -> list[str]:
    """What `bot` sent, flush by flush, for input arriving as `chunks`."""
    out = Writes()
    stdin = io.TextIOWrapper(io.BufferedReader(Chunks(chunks)), encoding="utf-8")
    assert serve(bot, 0, None, stdin=stdin, stdout=out) == 0
    return out.sent


@pytest.mark.parametrize("bot", ["random", "mcts:20"])
def test_each_answer_is_flushed_once_complete_also_from_one_read(bot: str) -> None:
    sent = served([GAME.encode(), MOVE.encode()], bot)        # PROTOCOL.md: "flushes after each response"
    assert sent[:5] == ["=1 \n\n", "=2 \n\n", "=3 \n\n", "=4 \n\n", "=5 \n\n"]
    assert len(sent) == 6 and re.fullmatch(r"=6 [a-i][1-9]\S*\n\n", sent[5])


def test_lines_are_joined_across_reads_and_the_last_needs_no_end_of_line() -> None:
    chunks = [b"1 proto", b"col_version\n2 na", b"me\n3 name\xff", b"\n4 protocol_version"]
    sent = served(chunks)
    assert "".join(sent) == "=1 2\n\n=2 hexarena-random\n\n?3 unknown command\n\n=4 2\n\n"
    assert sent[0] == "=1 2\n\n" and sent[1] == "=2 hexarena-random\n\n"     # each answered once its line was whole


def test_quit_ends_the_batch_it_came_in() -> None:
    assert served([b"1 name\n2 quit\n3 name\n"]) == ["=1 hexarena-random\n\n", "=2 \n\n"]


LONG = MAX_COMMAND_BYTES + 1                        # the shortest over-long line, in bytes


@pytest.mark.parametrize("chunks", [
    [b"0 name\n1 name # " + b"x" * (LONG - 9) + b"\n2 name\n"],                  # whole in one read
    [b"1 name # " + b"x" * 40_000] + [b"x" * 10_000] * 3 + [b"x\n2 name\n"],    # over many reads
    [b"1 name # " + b"x" * (LONG - 20), b"x" * 11 + b"\n2 name\n"],            # pending + the read
    [b"1 name # " + b"x" * (LONG - 9), b"\n2 name\n"],                          # the end of line alone
], ids=["one-read", "many-reads", "pending-and-read", "end-of-line-alone"])
def test_an_over_long_line_is_answered_once_and_skipped(chunks: list[bytes], monkeypatch) -> None:
    monkeypatch.setattr(sdk, "READ_BYTES", 1 << 20)         # reads larger than a line's bound
    sent = served(chunks)
    assert sent[-2:] == [OVERLONG, "=2 hexarena-random\n\n"] and sent[:-2] in ([], ["=0 hexarena-random\n\n"])


def test_a_line_of_the_bound_is_read_and_an_over_long_last_line_is_answered() -> None:
    bound = b"1 name # " + b"x" * (MAX_COMMAND_BYTES - 9) + b"\n"
    last = b"2 name # " + b"y" * LONG
    assert served([bound[:30_000], bound[30_000:], last[:60_000], last[60_000:]]) == [
        "=1 hexarena-random\n\n", OVERLONG]


def test_a_text_stream_bounds_its_lines_too() -> None:
    out = Writes()
    lines = io.StringIO("1 name # " + "x" * LONG + "\n2 name\n3 name # " + "z" * (MAX_COMMAND_BYTES - 9) + "\n")
    assert serve("random", 0, None, stdin=lines, stdout=out) == 0
    assert out.sent == [OVERLONG, "=2 hexarena-random\n\n", "=3 hexarena-random\n\n"]


def test_a_served_player_keeps_no_more_of_a_40_mb_line_than_the_bound() -> None:
    """A real process: the 40 MB comment line is answered with one `?` (no id is read from it) and
    the next command as usual; the process's peak memory stays far below the line's size."""
    feeder = ("import resource, subprocess, sys\n"         # writes the line in pieces: it holds 1 MB, not 40
              "p = subprocess.Popen([sys.executable, '-m', 'hexarena.players', 'random'], "
              "stdin=subprocess.PIPE, stdout=subprocess.PIPE)\n"
              "p.stdin.write(b'007 name # ')\n"
              "for _ in range(40): p.stdin.write(b'x' * 1_000_000)\n"
              "p.stdin.write(b'\\n8 name\\n'); p.stdin.close(); out = p.stdout.read(); p.wait()\n"
              "sys.stdout.write(out.decode() + str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))")
    proc = subprocess.run([sys.executable, "-c", feeder], cwd=ROOT, capture_output=True, text=True, timeout=120)
    *out, peak_kb = proc.stdout.split("\n\n")
    assert out == [OVERLONG[:-2], "=8 hexarena-random"], proc.stderr
    assert int(peak_kb) < 40_000, peak_kb              # the whole line alone would be 40,000 KB


def test_the_bots_are_the_functions_whatever_was_imported_first() -> None:
    code = ("import hexarena.players.random_bot, hexarena.players.greedy, hexarena.players.mcts; "
            "from hexarena.players import random_bot, greedy_bot, heuristic_bot, MctsBot, BOTS; "
            "print(random_bot.__name__, greedy_bot.__name__, heuristic_bot.__name__, MctsBot.__name__, "
            "BOTS['random'] is random_bot, BOTS['greedy'] is greedy_bot, type(BOTS['mcts']).__name__)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["random_bot", "greedy_bot", "heuristic_bot", "MctsBot", "True", "True", "MctsBot"], \
        proc.stderr


def test_the_version_is_the_installed_distributions() -> None:
    assert installed.version() == importlib.metadata.version("hexarena")


@pytest.mark.parametrize(("argv", "plain"), [
    (["random"], ("random", 0, None)),
    (["random", "--seed", "7"], ("random", 7, None)),
    (["--seed=-3", "mcts:20", "--log", "x.log"], ("mcts:20", -3, "x.log")),
    (["random", "--log=y"], ("random", 0, "y")),
    (["random", "--se", "7"], None),                    # argparse's abbreviation
    (["random", "--seed", "x"], None),
    (["random", "--seed", "1", "--seed", "2"], None),
    (["random", "--log"], None),
    (["random", "--log", "-v"], None),
    (["random", "greedy"], None),
    (["-h"], None),
    ([], None),
])
def test_a_command_line_in_full_needs_no_parser(argv: list[str], plain: tuple | None) -> None:
    assert _plain(argv) == plain


#: Runs `python -m hexarena.players random` and, at its exit, writes the modules it imported on stderr.
SERVE_AND_LIST = ("import atexit, runpy, sys; atexit.register(lambda: print(*sys.modules, file=sys.stderr)); "
                  "sys.argv = ['hexarena.players', 'random']; runpy.run_module('hexarena.players', run_name='__main__')")


@pytest.mark.parametrize(("game", "other"), [("spelde nopie", "anda"), ("anda", "spelde")])
def test_a_served_random_player_imports_its_game_only_and_no_search_trio_or_metadata(game: str, other: str) -> None:
    session = f"1 protocol_version\n2 version\n3 list_games\n4 game {game}\n5 genmove_analyze b\n6 quit\n"
    proc = subprocess.run([sys.executable, "-c", SERVE_AND_LIST], cwd=ROOT, input=session, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.count("\n\n") == 6 and "?" not in proc.stdout, proc.stdout
    imported = set(proc.stderr.split())
    assert {"hexarena.players.random_bot", f"hexarena.engine.games.{game.split()[0]}"} <= imported
    for module in ("trio", "numpy", "importlib.metadata", "argparse", "hexarena.players.mcts",
                   "hexarena.players.greedy", "hexarena.players.insight", "hexarena.referee",
                   f"hexarena.engine.games.{other}"):
        assert module not in imported, module
