"""`hexarena check`: the compliance sequence against real engine processes (CliRunner)."""
from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena.engine import registry
from hexarena.engine.numbers import SHOWN
from hexarena.players import BOTS
from hexarena import cli
from hexarena.results.record.journal import read_journal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = [sys.executable, str(ROOT / "examples" / "random_engine.py")]
GTP_ONLY = r'''
import sys
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cid, name = words[0], words[1]
    known = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "boardsize", "clear_board", "komi", "play", "genmove", "undo")
    text = {"protocol_version": "2", "name": "gtp-only", "version": "1", "list_commands": "\n".join(known),
            "known_command": "true" if words[2:3] and words[2] in known else "false"}.get(name, "")
    sys.stdout.write(("=%s %s" % (cid, text) if name in known else "?%s unknown command" % cid) + "\n\n")
    sys.stdout.flush()
    if name == "quit":
        break
'''


PATCHED = r'''
import importlib.util, os, sys, time
spec = importlib.util.spec_from_file_location("example", sys.argv[1])
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)
def misbehave(state, rng):
    if sys.argv[2] == "hang":
        time.sleep(600)
    os._exit(3)
if sys.argv[2] == "lie":        # drops one legal move, scores a game that goes on
    legal_moves = example.HANDLERS["legal_moves"]
    example.HANDLERS["legal_moves"] = lambda eng, args: " ".join(legal_moves(eng, args).split()[:-1])
    example.HANDLERS["final_score"] = lambda eng, args: "B+"
elif sys.argv[2] == "wrongswap":    # after a swap, the other side is to move (the rules: the same side)
    spelde_play = example.Spelde.play
    def play(self, colour, token):
        after = spelde_play(self, colour, token)
        if token.lower() == "swap":
            after.to_move = example.other(after.to_move)
        return after
    example.Spelde.play = play
elif sys.argv[2] == "noplay":   # answers genmove without playing it on its own board
    choose = example.choose_move
    example.Engine.cmd_genmove = lambda eng, args: choose(eng.state, eng.rng)
    example.HANDLERS["genmove"] = example.Engine.cmd_genmove
elif sys.argv[2] == "huge":     # answers genmove with a site whose row has 5,000 digits
    example.HANDLERS["genmove"] = lambda eng, args: "a" + "9" * 5000
else:
    example.choose_move = misbehave
sys.exit(example.main([]))
'''


def misbehaving_example(mode: str) -> list[str]:
    """The example engine, except that its first `genmove` hangs (`hang`) or kills it (`crash`),
    or it answers `legal_moves` and `final_score` wrongly (`lie`), or `genmove` with a huge number (`huge`),
    or it keeps the wrong side to move after a `swap` (`wrongswap`)."""
    return [sys.executable, "-c", PATCHED, EXAMPLE[1], mode]


def check(*args: str):
    return CliRunner().invoke(cli.main, ["check", "--timeout", "20", *args], catch_exceptions=False)


def lines(output: str, status: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln.startswith(status + " ")]


#: The name a built-in is served under here: `mcts` thinks 1 s a move, and the check asks about a hundred
#: moves; the same search at 0.05 s a move (`mcts:Xs`, the budget capped by the clock as the bare name's).
SERVED = {"mcts": "mcts:0.05s"}


@pytest.mark.parametrize("bot", [pytest.param(b, marks=pytest.mark.slow) if b == "mcts" else b for b in sorted(BOTS)])
def test_check_passes_on_every_built_in_player_for_every_game(bot):
    result = check("--size", "3", "--size", "5", "--", sys.executable, "-m", "hexarena.players", SERVED.get(bot, bot))
    assert result.exit_code == 0, result.output
    assert lines(result.output, "FAIL") == [] and lines(result.output, "SKIP") == []
    checked = {m.group(1) for m in re.finditer(r"^PASS (\S+) 5 genmove", result.output, re.M)}
    assert checked == set(registry.playable())
    assert re.search(r"^\d+ passed, 0 failed, 0 skipped, 0 not implemented; play: passed; analysis: passed$",
                     result.output, re.M)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_check_passes_on_the_example_engine(seed):
    result = check("--seed", str(seed), "--", *EXAMPLE)
    assert result.exit_code == 0, result.output
    assert "PASS spelde 13 position (round trip)" in result.output
    assert "PASS exit after quit: exit status 0" in result.output


def test_check_accepts_one_quoted_command_line():
    result = check("-q", "--size", "4", shlex.join(EXAMPLE))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [result.output.splitlines()[-1]]     # -q: only the summary


def test_an_engine_without_the_dialect_fails_cleanly_and_skips_the_game_checks():
    result = check("--", sys.executable, "-c", GTP_ONLY)
    assert result.exit_code == 1
    assert lines(result.output, "PASS")[:6] == [
        "PASS protocol_version: = 2", "PASS name: = gtp-only", "PASS version: = 1",
        "PASS known_command (known): = true", "PASS known_command (unknown): = false",
        "PASS unknown command: ? unknown command"]
    [play] = [ln for ln in lines(result.output, "FAIL") if ln.startswith("FAIL list_commands (play)")]
    assert "does not list `list_games`, `game`, `time_settings`, `time_left`" in play
    assert "FAIL list_games: refused: ? unknown command" in result.output
    assert lines(result.output, "SKIP") == [
        "SKIP games: the HGP game checks need a game list from `list_games`"]
    assert "PASS exit after quit: exit status 0" in result.output


@pytest.mark.slow
def test_a_hanging_engine_times_out_and_the_rest_is_skipped():
    result = CliRunner().invoke(cli.main, ["check", "--timeout", "2", "--game", "spelde", "--size", "3", "--",
                                           *misbehaving_example("hang")], catch_exceptions=False)
    assert result.exit_code == 1
    [fail] = [ln for ln in lines(result.output, "FAIL") if "genmove" in ln]
    assert "EngineTimeout: engine: no answer to 'genmove' in time" in fail
    assert lines(result.output, "SKIP") == [
        "SKIP spelde: the channel is broken (EngineTimeout: engine: no answer to 'genmove' in time)"]


def test_a_crashing_engine_is_one_failure():
    result = check("--game", "spelde", "--size", "3", "--", *misbehaving_example("crash"))
    assert result.exit_code == 1
    assert re.search(r"^FAIL spelde 3 genmove: EngineCrashed: engine: closed its stdout", result.output, re.M)
    assert re.search(r"^SKIP spelde: the channel is broken", result.output, re.M)


def test_a_program_that_does_not_exist():
    result = check("--", "/nonexistent/engine")
    assert result.exit_code == 1
    assert "FAIL start: engine: cannot start '/nonexistent/engine'" in result.output
    assert result.output.endswith("0 passed, 1 failed, 0 skipped, 0 not implemented; "
                                  "play: FAILED (1 failed); analysis: not checked\n")


def test_wrong_answers_are_reported_against_our_rules():
    result = check("--size", "3", "--", *misbehaving_example("lie"))
    assert result.exit_code == 1
    fails = lines(result.output, "FAIL")
    assert fails[0].startswith("FAIL spelde 3 legal_moves: legal moves differ from the rules: missing ['e5'] extra []")
    assert fails[1] == "FAIL spelde 3 final_score (game goes on): expected '? cannot score', accepted: = B+"
    assert all("legal_moves" in f for f in fails[2:]), fails
    assert "PASS spelde 3 genmove (set position)" in result.output


def test_a_genmove_answer_with_a_number_of_thousands_of_digits_is_malformed():
    result = check("--game", "spelde", "--size", "3", "--", *misbehaving_example("huge"))
    assert result.exit_code == 1
    fails = lines(result.output, "FAIL")
    message = f"malformed: row of site a {'9' * SHOWN!r}... (5000 cha"    # the line is cut
    assert fails and fails[0].startswith(f"FAIL spelde 3 genmove: {message}"), fails
    assert all(re.match(r"FAIL spelde 3 (genmove|pie \S+ swap: genmove white): " + re.escape(message), f)
               for f in fails), fails
    assert all(len(f) < 400 for f in fails)


@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_an_engine_that_keeps_the_wrong_side_to_move_after_a_swap_fails_check(strict):
    result = check(*strict, "--game", "spelde", "--size", "3", "--size", "5", "--", *misbehaving_example("wrongswap"))
    assert result.exit_code == 1, result.output
    fails = lines(result.output, "FAIL")
    assert any(re.match(r"FAIL spelde 3 pie \S+ swap: position: expected 'spelde 3 w ", f) for f in fails), fails
    assert any(re.match(r"FAIL spelde 3 pie \S+ swap: genmove white: refused: \? illegal move: white is not to move",
                        f) for f in fails), fails
    assert "play: FAILED" in result.output.splitlines()[-1]


@pytest.mark.parametrize("analysis", [True, False])
def test_an_engine_that_does_not_play_its_own_genmove_fails_the_play_tier(analysis, tmp_path):
    argv = misbehaving_example("noplay")
    if not analysis:                # no set_position nor undo: the continuation path
        argv = [sys.executable, "-c", PATCHED.replace("sys.exit(example.main([]))", "gone = ('set_position', "
                "'undo', 'genmove_analyze', 'position', 'legal_moves', 'legal_cells', 'final_score')\n"
                "example.COMMANDS = tuple(c for c in example.COMMANDS if c not in gone)\n"
                "sys.exit(example.main([]))"), EXAMPLE[1], "noplay"]
    result = check("--game", "spelde", "--size", "5", "--", *argv)
    assert result.exit_code == 1, result.output
    reply = "a reply to its own genmove" if analysis else "continuation"       # the first play after its genmove
    assert any(re.match(rf"FAIL spelde 5 play \({reply}\): refused: \? illegal move: \w+ is not to move", f)
               for f in lines(result.output, "FAIL")), result.output
    assert "play: FAILED" in result.output.splitlines()[-1]


def test_every_pie_decision_is_played_through_with_position_legal_moves_and_genmove_after_it():
    result = check("--size", "3", "--", sys.executable, "-m", "hexarena.players", "random")
    assert result.exit_code == 0, result.output
    passed = "\n".join(lines(result.output, "PASS"))
    for game, words in (("anda", ("swap", "keep")), ("anda-prison", ("swap", "keep")), ("spelde", ("swap",)),
                        ("vaxandis", ("swap",)), ("marbanta", ("swap", "keep"))):
        for word in words:
            for step in ("play white " + word if game != "anda-prison" else "play", "position", "legal_moves",
                         "genmove"):
                assert re.search(rf"^PASS {game} 3 pie (\S+ )*{word}: {step}", passed, re.M), (game, word, step)
    assert re.search(r"^PASS anda-prison 3 pie \S+ swap \S+ swap komi=\d+ keep: genmove", passed, re.M)


def test_unknown_game_option_is_a_usage_error():
    result = CliRunner().invoke(cli.main, ["check", "--game", "chess", "--", *EXAMPLE])
    assert result.exit_code == 2 and "no game 'chess'" in result.output


@pytest.mark.slow
def test_example_engine_plays_a_match_against_the_random_player(tmp_path):
    out = tmp_path / "m"
    result = CliRunner().invoke(cli.main, [
        "match", shlex.join(EXAMPLE), f"{shlex.quote(sys.executable)} -m hexarena.players random --seed {{seed}}",
        "--game", "spelde", "--size", "5", "--games", "4", "--out", str(out), "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    records = read_journal(out)
    assert len(records) == 4
    assert all(not r.void and r.faulty is None for r in records), [(r.result, r.reason) for r in records]
    assert all(r.termination == "no-moves" for r in records), [r.termination for r in records]


# -- HGP 1.1 tiers: an engine with only the play commands, in another language --------------------

NODE = shutil.which("node")
PLAY_ONLY = str(ROOT / "tests" / "fixtures" / "play_only_engine.js")
needs_node = pytest.mark.skipif(NODE is None, reason="node (Node.js) is not installed: the play-only "
                                                     "fixture engine is JavaScript")
ANALYSIS_MISSING = ["kgs-time_settings", "position", "legal_moves", "legal_cells", "final_score", "set_position",
                    "undo"]


@needs_node
def test_an_engine_with_only_the_play_commands_is_ready_for_a_tournament():
    result = check("--size", "3", "--size", "5", "--", NODE, PLAY_ONLY)
    assert result.exit_code == 0, result.output
    assert lines(result.output, "FAIL") == [] and lines(result.output, "SKIP") == []
    notimpl = lines(result.output, "NOTIMPL")
    for command in ANALYSIS_MISSING:
        assert f"NOTIMPL {command}: not in list_commands (analysis, optional)" in notimpl, notimpl
    assert "NOTIMPL spelde 5 play (wrong colour): accepted: the engine does not validate `play` (optional)" \
        in notimpl
    assert "PASS spelde 5 genmove (continuation)" in "\n".join(lines(result.output, "PASS"))
    assert re.search(r"^\d+ passed, 0 failed, 0 skipped, \d+ not implemented; play: passed; "
                     r"analysis: not implemented$", result.output, re.M), result.output


@needs_node
def test_strict_demands_every_analysis_command():
    result = check("--strict", "--size", "3", "--", NODE, PLAY_ONLY)
    assert result.exit_code == 1
    fails = lines(result.output, "FAIL")
    for command in ANALYSIS_MISSING:
        assert f"FAIL {command}: not in list_commands (--strict demands every command)" in fails, fails
    assert "FAIL spelde 3 play (wrong colour): expected '? illegal move', accepted (--strict)" in fails
    assert lines(result.output, "NOTIMPL") == []
    assert re.search(r"; play: passed; analysis: FAILED \(\d+ failed\)$", result.output, re.M), result.output


@needs_node
def test_a_listed_analysis_command_answered_wrongly_fails():
    result = check("--size", "3", "--", NODE, PLAY_ONLY, "--lie")
    assert result.exit_code == 1
    [fail] = lines(result.output, "FAIL")
    assert fail.startswith("FAIL spelde 3 legal_cells: legal cells differ from the rules: missing ['a2', ")
    assert "NOTIMPL legal_cells" not in result.output
    assert re.search(r"; play: passed; analysis: FAILED \(1 failed\)$", result.output, re.M), result.output


def test_a_wrong_play_answer_fails_the_play_tier():
    result = check("--size", "3", "--", *misbehaving_example("lie"))
    assert re.search(r"; play: passed; analysis: FAILED \(\d+ failed\)$", result.output, re.M), result.output
    result = check("--game", "spelde", "--size", "3", "--", *misbehaving_example("crash"))
    assert re.search(r"; play: FAILED \(1 failed, 1 skipped\); analysis: passed$", result.output, re.M), result.output


def test_check_takes_a_built_in_players_name_and_quotes_a_failing_engines_stderr(tmp_path):
    result = check("-q", "--size", "4", "--game", "spelde", "greedy")
    assert result.exit_code == 0, result.output
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nprint('boom: no weights file', file=sys.stderr)\nsys.exit(3)\n")
    failed = check("-q", "--", sys.executable, str(crash))
    assert failed.exit_code == 1
    assert "the engine's stderr: 'boom: no weights file'" in failed.output


@pytest.mark.parametrize("write, said", [
    ("out.write('=%s 2\\n' % cid); out.flush()",            # the answer, without its empty line
     "no answer to 'protocol_version' in time: it wrote '=1 2\\n' and no empty line after it"),
    ("out.write('=%s 2\\n\\n' % cid)",                       # never flushed: held in the engine's buffer
     "no answer to 'protocol_version' in time (nothing came on its stdout: does it flush each answer?)"),
    ("out.write('\\n\\n\\n'); out.flush()",                  # empty lines, no answer
     "no answer to 'protocol_version' in time: it wrote 3 bytes of empty lines and no answer"),
    ("while True: out.write('\\n' * 65536); out.flush()",    # `yes ''`: empty lines for ever
     "bytes of empty lines and carriage returns and no response (over 1000000; "
     "a response ends with one empty line)"),
])
def test_a_timeout_says_what_the_engine_wrote(write, said, tmp_path):
    engine = tmp_path / "engine.py"
    engine.write_text("import sys\nout = open(1, 'w', buffering=65536, closefd=False)\n"
                      f"for line in sys.stdin:\n    cid = line.split()[0]\n    {write}\n")
    result = CliRunner().invoke(cli.main, ["check", "--timeout", "1", "--", sys.executable, str(engine)])
    assert result.exit_code == 1
    assert said in result.output, result.output
