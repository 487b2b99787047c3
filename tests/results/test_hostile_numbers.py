"""Records and result files with numbers of thousands of digits or digits that are not ASCII:
each is refused with the reader's own error (what and where), never a traceback, never read
as another number (`int("\u0663")` is 3)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.results.rating.load import LoadError, load_games
from hexarena.results.page.replay import replay_record
from hexarena.results.page.replay_cache import MAX_SGF_BYTES
from hexarena.results.record.sgf import SgfError

HUGE = "9" * 5000
ROOT = "(;FF[4]GM[1003]XG[spelde]XV[pie]"


@pytest.mark.parametrize("text, where", [
    (ROOT + "SZ[" + HUGE + "];B[e5])", "root node: SZ '9999"),
    (ROOT + "SZ[\u00b2];B[e5])", "root node: SZ '\u00b2' is not a whole number"),
    (ROOT + "SZ[\u0663];B[e5])", "root node: SZ '\u0663' is not a whole number"),
    (ROOT + "SZ[5]XK[" + HUGE + "];B[e5])", "root node: XK '9999"),
    (ROOT + "SZ[5]XK[\u0663];B[e5])", "root node: XK '\u0663' is not a whole number"),
    (ROOT + "SZ[5];B[a" + HUGE + "])", "ply 1: 'a9999"),
    (ROOT + "SZ[5];B[e5];W[swap];W[a" + HUGE + "])", "ply 3: 'a9999"),
    (ROOT + "SZ[5];B[e5];W[a1];B[i9];W[a" + HUGE + "])", "ply 4: 'a9999"),
])
def test_a_record_with_a_hostile_number_is_an_sgf_error(text: str, where: str) -> None:
    with pytest.raises(SgfError) as info:
        replay_record(text)
    assert str(info.value).startswith(where), info.value


def test_a_think_time_that_is_not_a_decimal_is_left_unread() -> None:
    rep = replay_record(ROOT + "SZ[5];B[e5]XT[1.5];W[a1]XT[" + HUGE + "];B[i9]XT[\u0663];W[a5]XT[inf])")
    assert rep.seconds == [1.5, None, None, None]


def test_show_reports_a_hostile_record_without_a_traceback(tmp_path) -> None:
    path = tmp_path / "g.sgf"
    path.write_text(ROOT + "SZ[5];B[a" + HUGE + "])", encoding="utf-8")
    res = CliRunner().invoke(main, ["show", str(path)])
    assert res.exit_code == 1 and "ply 1: 'a9999" in res.output and "more than 20 digits" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("size, reason", [
    ("\u0663", "size '\u0663' is not a whole number >= 0"),
    ("\u00b2", "size '\u00b2' is not a whole number >= 0"),
    ("99999999999999999999", "size '99999999999999999999' has more than 18 digits"),
    (HUGE, "size '9999"),
])
def test_a_results_csv_size_must_be_ascii_digits_that_fit(tmp_path, size: str, reason: str) -> None:
    path = tmp_path / "games.csv"
    path.write_text(f"game,size,first,second,winner\nanda,5,a,b,a\nanda,{size},a,b,a\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_games(path)
    assert f":3: {reason}" in str(info.value)




def test_show_reads_a_record_of_at_most_its_bound(tmp_path) -> None:
    path = tmp_path / "big.sgf"
    with open(path, "wb") as fh:
        fh.truncate(MAX_SGF_BYTES + 1)              # sparse: no 8 MiB written
    res = CliRunner().invoke(main, ["show", str(path)])
    assert res.exit_code == 1 and (res.exception is None or isinstance(res.exception, SystemExit))
    assert "is larger than 8 MiB" in res.output and "Traceback" not in res.output


def _hexarena(*args: str):
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    return subprocess.run([sys.executable, "-m", "hexarena", *args], capture_output=True, text=True, timeout=60,
                          preexec_fn=limit)


@pytest.mark.parametrize("kind", ["fifo", "zero", "directory"])
def test_a_path_that_is_no_regular_file_is_refused_saying_what_it_is(tmp_path, kind) -> None:
    import os
    path = tmp_path / "x.sgf"
    if kind == "fifo":
        os.mkfifo(path)                     # nobody writes to it: opening it would block
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    what = {"fifo": "a FIFO", "zero": "a character device", "directory": "a directory"}[kind]
    commands = [["show", str(path)]] + ([] if kind == "directory" else [["ratings", str(path)],
                                                                        ["openings", "stats", str(path)]])
    for args in commands:
        run = _hexarena(*args)
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
        assert f"{path}: is not a regular file ({what})" in run.stderr, run.stderr


def test_a_byte_that_is_not_utf8_in_a_csv_is_reported_on_its_line(tmp_path) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(b"game,size,first,second,winner\nanda,5,a,b,a\nanda,5,\xff,b,a\n")
    with pytest.raises(LoadError) as info:
        load_games(path)
    assert f"{path}:3: unreadable: not UTF-8 text: byte 0xff" in str(info.value)
    path.write_bytes(b"\xef\xbb\xbfgame,size,first,second,winner\n\xff,5,a,b,a\n")   # after a BOM too
    with pytest.raises(LoadError) as info:
        load_games(path)
    assert f"{path}:2: unreadable: not UTF-8 text: byte 0xff" in str(info.value)
