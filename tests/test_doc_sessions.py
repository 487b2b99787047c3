"""The sample sessions of docs/protocol.md are real: each command block sent to the player it
names, the answers compared with the page's, line by line (a page's answer may drop the trailing
space of an empty one, and `...` stands for lines it leaves out)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
SESSIONS = {
    "random": ("A real exchange with `python -m hexarena.players random --seed 1`", ["random", "--seed", "1"]),
    "mcts": ("A real 1.2 exchange with `python -m hexarena.players mcts:200 --seed 1`", ["mcts:200", "--seed", "1"]),
}


def _session(title: str) -> list[tuple[str, list[str]]]:
    """The page's (command, answer lines) pairs of the session under `title`."""
    text = PAGE.read_text(encoding="utf-8")
    block = text[text.index(title):].split("```\n", 1)[1].split("```", 1)[0]
    pairs: list[tuple[str, list[str]]] = []
    for chunk in block.strip("\n").split("\n\n"):
        lines = chunk.split("\n")
        assert lines[0].startswith("> "), chunk
        pairs.append((lines[0][2:], lines[1:]))
    return pairs


@pytest.mark.parametrize("which", sorted(SESSIONS))
def test_a_sample_session_of_the_protocol_page_is_what_the_player_answers(which):
    if which == "mcts" and os.environ.get("HEXARENA_CORE") == "0":
        pytest.skip("the page shows the compiled core's search")
    title, argv = SESSIONS[which]
    pairs = _session(title)
    run = subprocess.run([sys.executable, "-m", "hexarena.players", *argv], capture_output=True, text=True,
                         input="".join(command + "\n" for command, _ in pairs), timeout=120)
    answers = [block.split("\n") for block in run.stdout.split("\n\n") if block]
    assert len(answers) == len(pairs), run.stdout
    for (command, shown), got in zip(pairs, answers):
        got[0] = got[0].rstrip()
        if "..." in shown:                          # the page shortens a long answer
            cut = shown.index("...")
            assert got[:cut] == shown[:cut] and got[len(got) - len(shown) + cut + 1:] == shown[cut + 1:], command
        else:
            assert got == shown, (command, got, shown)
