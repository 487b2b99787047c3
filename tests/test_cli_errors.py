"""A user's slips get a message naming what and where, never a traceback: a command line no
shell could split, a mistyped player, an output file in a folder that is not there, a URL
that is not the ladder's, Ctrl-C before a command has begun to handle it."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena.cli import main

SGF = Path(__file__).parent / "fixtures" / "journal-schema-1" / "v1" / "games" / "spelde-4-pie" / "0005.sgf"


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


@pytest.mark.parametrize("args, where", [
    (["match", "{python} -m hexarena.players random", "'unclosed"], "CMD_B \"'unclosed\""),
    (["check", "--", "'oops"], "CMD \"'oops\""),
    (["play", "--engine", "'mcts"], "--engine \"'mcts\""),
    (["openings", "komi", "--game", "anda", "--size", "3", "--engine", "'x", "--rounds", "1", "--batch", "2"],
     "--engine \"'x\""),
])
def test_a_command_line_no_shell_could_split_is_a_usage_error(args, where, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert f"{where}: no closing quotation (the command is split as a shell splits it)" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("engine, said", [("'x", "no closing quotation"), ("mtcs", "did you mean mcts?")])
def test_openings_generate_checks_its_engine_before_it_makes_a_folder(engine, said, tmp_path):
    book = tmp_path / "b.txt"
    result = invoke("openings", "generate", "--game", "spelde", "--size", "4", "--engine", engine, "--count", "1",
                    "--out", str(book))
    assert result.exit_code == 2 and said in result.output, result.output
    assert not isinstance(result.exception, BaseExceptionGroup)
    assert list(tmp_path.iterdir()) == []                   # no b.txt.work left behind


def test_an_output_file_in_a_folder_that_is_not_there_is_named(tmp_path):
    (tmp_path / "afile").write_text("x")
    for args, named in ((["show", str(SGF), "--svg", str(tmp_path / "nd" / "x.svg")], "nd/x.svg"),
                        (["show", str(SGF), "--svg", str(tmp_path / "afile" / "x.svg")], "afile/x.svg")):
        result = invoke(*args)
        assert result.exit_code == 1, result.output
        assert named in result.output and ("No such file or directory" in result.output
                                           or "Not a directory" in result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("url, said", [
    ("http://example", "expected the server's ws://HOST:PORT/ladder/ws address"),
    ("ws://[bad", "Invalid IPv6 URL"),
    ("ws://host:99999/ladder/ws", "Port out of range"),
])
def test_connect_names_a_url_that_is_not_a_ladders(url, said):
    result = invoke("connect", url, "--account", "me", "--", "random", env={"HEXARENA_LADDER_TOKEN": "x"})
    assert result.exit_code == 2 and said in result.output, result.output


def test_ctrl_c_before_a_command_handles_it_exits_130(tmp_path, monkeypatch):
    import hexarena.results.record.repair as repair

    def interrupted(path):
        raise KeyboardInterrupt
    monkeypatch.setattr(repair, "repair_journal", interrupted)
    result = invoke("repair", str(tmp_path))
    assert result.exit_code == 130 and "interrupted" in result.output
    assert "Aborted!" not in result.output


def test_a_run_interrupted_before_its_first_game_says_there_is_nothing_to_resume(tmp_path, capsys):
    from hexarena.supervise import _interrupted
    for made, said in ((False, "interrupted before the first game: nothing was played; run the same command again"),
                       (True, f"continue with:\n  hexarena tournament --resume --out {tmp_path}")):
        if made:
            (tmp_path / "tournament.json").write_text("{}")
        with pytest.raises(SystemExit) as stop, _interrupted(tmp_path, None):
            raise KeyboardInterrupt
        assert stop.value.code == 130 and said in capsys.readouterr().err

