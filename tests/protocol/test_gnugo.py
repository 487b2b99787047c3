"""Interop with a real foreign GTP engine: GNU Go (Debian package `gnugo`, in /usr/games)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner

from hexarena.protocol.controller import CommandFailed
from hexarena import cli
from hexarena.referee.engines.process import open_engine



def _gnugo() -> str | None:
    found = shutil.which("gnugo")
    if found:
        return found
    return "/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None


GNUGO = _gnugo()
pytestmark = pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")


def test_check_against_gnugo_passes_framing_and_fails_the_dialect_cleanly():
    result = CliRunner().invoke(cli.main, ["check", "--timeout", "20", "--", GNUGO, "--mode", "gtp"],
                                catch_exceptions=False)
    out = result.output
    assert result.exit_code == 1, out
    for name in ("protocol_version: = 2", "name: = GNU Go", "known_command (known): = true",
                 "known_command (unknown): = false", "unknown command: ? unknown command",
                 "time_settings: = ", "time_left: = ", "quit: = ", "exit after quit: exit status 0"):
        assert re.search(r"^PASS " + re.escape(name), out, re.M), (name, out)
    fails = [ln for ln in out.splitlines() if ln.startswith("FAIL ")]
    assert len(fails) == 2, out
    assert fails[0].startswith("FAIL list_commands (play): does not list `list_games`, `game`;")
    assert fails[1] == "FAIL list_games: refused: ? unknown command"
    assert "SKIP games: the HGP game checks need a game list from `list_games`" in out
    assert "NOTIMPL hgp_version: not in list_commands (analysis, optional)" in out     # a GTP engine: HGP 1.1 at most
    assert out.splitlines()[-1].endswith("passed, 2 failed, 1 skipped, 2 not implemented; "
                                         "play: FAILED (2 failed, 1 skipped); analysis: not implemented")


def test_our_controller_drives_gnugo_through_the_standard_commands(tmp_path):
    async def session() -> list[str]:
        answers = []
        async with open_engine([GNUGO, "--mode", "gtp"], tmp_path / "gnugo.log", "gnugo") as channel:
            async def ask(*words: str) -> str:
                return await channel.command(*words, deadline=trio.current_time() + 30)
            for words in (["protocol_version"], ["name"], ["boardsize", "9"], ["clear_board"],
                          ["play", "black", "E5"], ["genmove", "white"]):
                answers.append(await ask(*words))
            with pytest.raises(CommandFailed, match="illegal move"):
                await ask("play", "black", "E5")      # occupied
            answers.append(await ask("quit"))
            assert channel.healthy
        return answers

    answers = trio.run(session)
    assert answers[:5] == ["2", "GNU Go", "", "", ""]
    assert re.fullmatch(r"[A-HJ][1-9]|PASS|resign", answers[5], re.I), answers[5]
    assert answers[5].upper() != "E5"
    assert answers[6] == ""


