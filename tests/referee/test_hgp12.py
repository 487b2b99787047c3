"""HGP 1.2 between the referee and real engine processes: analysis, decimal clocks."""
from __future__ import annotations

import json
import re
import sys
from functools import partial
from importlib import metadata
from pathlib import Path

import pytest
import trio
from sgfmill import sgf

from hexarena.engine import registry
from hexarena.referee.engines.process import open_engine
from hexarena.referee.game.clock import Clock, Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.results.record.game import GameRecord
from hexarena.results.record.sgf import parse_sgf, sgf_text
from tests.support.fakes12 import fake12_argv

LIMITS = Limits(move=5.0, start=10.0, command=5.0)


def _seat(tmp_path: Path, name: str, flags: str, analysis: bool = True) -> Seat:
    return Seat(name, partial(open_engine, fake12_argv(flags), tmp_path / f"{name}.log", name), analysis=analysis)


def _got(tmp_path: Path, name: str) -> list[str]:
    """The commands the fake received, without their ids (a blank line, which GTP ignores, is skipped)."""
    text = (tmp_path / f"{name}.log").read_text()
    return [ln.split(" ", 2)[2] for ln in text.splitlines() if ln.startswith("got: ") and ln.count(" ") >= 2]


def _play(tmp_path: Path, a: Seat, b: Seat, limits: Limits = LIMITS, game: str = "spelde") -> GameRecord:
    return trio.run(play_game, Setup(game, 4, ("nopie",)), (a, b), limits)


def test_analysis_is_asked_of_the_engines_that_list_it_and_kept_per_action(tmp_path: Path) -> None:
    record = _play(tmp_path, _seat(tmp_path, "deep", "v12,info"), _seat(tmp_path, "plain", ""))
    assert record.termination == "no-moves", record.reason
    assert record.moves is not None and len(record.moves) == record.plies
    deep, plain = _got(tmp_path, "deep"), _got(tmp_path, "plain")
    assert any(c.startswith("genmove_analyze ") for c in deep) and not any(c.startswith("genmove ") for c in deep)
    assert any(c.startswith("genmove ") for c in plain) and not any("genmove_analyze" in c for c in plain)
    for move in record.moves:
        token = move.action
        if move.colour == "W":
            assert move.analysis is None                # `plain` was asked `genmove`
            continue
        assert move.analysis == (                               # the good lines, verbatim and read; the bad dropped
            {"line": f"info winrate 0.62 visits 4500 depth 9 pv {token}", "winrate": 0.62, "visits": 4500,
             "depth": 9, "pv": [token]},
            {"line": "info score -1.5 nodes 77", "score": -1.5, "other": {"nodes": "77"}},
        )
    log = (tmp_path / "deep.log").read_text()
    assert re.search(r"\[hexarena: ply 1: info line 2 dropped: winrate '1.7' is outside 0..1", log), log
    assert "ply 1: info line 3 dropped: pv starts with 'zz99', not with the action played" in log
    assert "ply 1: info line 5 dropped: an info line starts with 'info'" in log
    assert "[hexarena:" not in (tmp_path / "plain.log").read_text()


def test_the_record_s_analysis_goes_verbatim_into_xa_and_round_trips_the_journal(tmp_path: Path) -> None:
    record = _play(tmp_path, _seat(tmp_path, "deep", "v12,info"), _seat(tmp_path, "other", "v12,info"))
    again = GameRecord.from_dict(json.loads(record.to_json()))
    assert again == record and any(m.analysis for m in again.moves or ())
    text = sgf_text(record, registry.get("spelde").sgf_number)
    nodes = parse_sgf(text)[1:]
    assert len(nodes) == record.plies
    for node, move in zip(nodes, record.moves or ()):
        assert node.props["XA"] == [info["line"] for info in move.analysis or ()]
    game = sgf.Sgf_game.from_bytes(text.encode())
    assert game.get_main_sequence()[1].get_raw_list("XA")[0].startswith(b"info winrate 0.62")


def test_analysis_off_sends_genmove_and_records_nothing(tmp_path: Path) -> None:
    record = _play(tmp_path, _seat(tmp_path, "deep", "v12,info", analysis=False), _seat(tmp_path, "plain", ""))
    assert all(m.analysis is None for m in record.moves or ()) and record.plies > 0
    assert not any("genmove_analyze" in c for c in _got(tmp_path, "deep"))
    text = sgf_text(record, registry.get("spelde").sgf_number)
    assert "XA[" not in text


def test_more_than_8_info_lines_are_cut_to_8_and_noted(tmp_path: Path) -> None:
    record = _play(tmp_path, _seat(tmp_path, "loud", "v12,flood"), _seat(tmp_path, "plain", ""))
    first = record.moves[0].analysis if record.moves else None
    assert first is not None and [d["visits"] for d in first] == list(range(8))
    assert "ply 1: 3 info line(s) after the first 8 dropped" in (tmp_path / "loud.log").read_text()


def test_a_1_2_engine_is_told_decimal_seconds_and_a_1_1_engine_whole_seconds(tmp_path: Path) -> None:
    fischer = Limits(control="fischer", main=1.0, increment=0.1, start=10.0, command=5.0)
    record = _play(tmp_path, _seat(tmp_path, "new", "v12,kgs,slow"), _seat(tmp_path, "old", "kgs,slow"), fischer)
    assert record.plies >= 4, record.reason
    new, old = _got(tmp_path, "new"), _got(tmp_path, "old")
    assert "kgs-time_settings fischer 1.000 0.100" in new
    assert "kgs-time_settings fischer 1 0" in old
    new_left = [c.split()[2] for c in new if c.startswith("time_left ")]
    old_left = [c.split()[2] for c in old if c.startswith("time_left ")]
    assert new_left[0] == "1.000" and all(re.fullmatch(r"\d+\.\d{3}", t) for t in new_left)
    assert any(0 < float(t) < 1 for t in new_left), new_left          # 1 s - 0.15 s + 0.1 s
    assert old_left[0] == "1" and all(re.fullmatch(r"\d+", t) for t in old_left)
    assert "0" in old_left[1:], old_left


def test_time_settings_in_decimal_seconds() -> None:
    assert Clock(Limits(main=0.5, increment=0.25)).settings(0, kgs=False, decimal=True) == \
        ("time_settings", "0.500", "0.000", "0")
    assert Clock(Limits(main=0.5, increment=0.25)).settings(0, kgs=False) == ("time_settings", "1", "0", "0")
    byo = Limits(control="byoyomi", main=0, period=0.5, periods=3)
    assert Clock(byo).settings(0, kgs=True, decimal=True) == ("kgs-time_settings", "byoyomi", "0.000", "0.500", "3")
    assert Clock(Limits(move=2.5)).settings(0, kgs=True, decimal=True) == \
        ("kgs-time_settings", "byoyomi", "0.000", "2.500", "1")
    clock = Clock(Limits(main=10.0, increment=0.1))
    clock.charge(0, 0.4567)
    assert clock.told(0, decimal=True) == ("9.643", "0") and clock.told(0) == ("9", "0")


# -- identity ------------------------------------------------------------------------------

def test_name_and_version_are_asked_and_kept_per_seat_and_a_refusal_is_fine(tmp_path: Path) -> None:
    record = trio.run(play_game, Setup("spelde", 4), (_seat(tmp_path, "known", "v12"), _seat(tmp_path, "anon", "anon")),
                      LIMITS)
    assert record.termination == "no-moves", record.reason
    assert record.identities == [["fake twelve", "1.2.3"], [None, None]]
    assert ["name", "version"] == [c for c in _got(tmp_path, "known") if c in ("name", "version")]
    text = sgf_text(record, registry.get("spelde").sgf_number)
    root = parse_sgf(text)[0]
    known = "XPB" if record.black == "known" else "XPW"
    assert root.props[known] == ["fake twelve 1.2.3"] and len([p for p in root.props if p.startswith("XP")]) == 1
    again = GameRecord.from_dict(json.loads(record.to_json()))
    assert again.identities == record.identities


def test_the_identity_of_a_built_in_player_is_its_name_and_package_version(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "hexarena.players", "random"]
    seats = tuple(Seat(n, partial(open_engine, argv, tmp_path / f"{n}.log", n)) for n in ("a", "b"))
    record = trio.run(play_game, Setup("spelde", 4), seats, LIMITS)
    version = metadata.version("hexarena")
    assert record.identities == [["hexarena-random", version]] * 2
    root = parse_sgf(sgf_text(record, registry.get("spelde").sgf_number))[0]
    assert root.props["XPB"] == root.props["XPW"] == [f"hexarena-random {version}"]


def test_journal_lines_with_bad_analysis_or_identities_are_refused_and_old_lines_read() -> None:
    base = {"id": "g/1", "game": "spelde", "size": 4, "variant": "pie", "first": "a", "second": "b", "black": "a",
            "white": "b", "winner": "a", "result": "B+", "termination": "no-moves", "plies": 1, "schema": 2}
    assert GameRecord.from_dict(base).moves is None and GameRecord.from_dict(base).identities is None
    for field, value, why in [("analysis", {"x": 1}, "must be a list"),
                              ("analysis", [[{"winrate": 0.5}]], "action 1 must be null or a list of objects"),
                              ("identities", [["a", "1"]], "two \\[name, version\\] pairs"),
                              ("identities", [["a", 1], [None, None]], "two \\[name, version\\] pairs")]:
        with pytest.raises(ValueError, match=why):
            GameRecord.from_dict({**base, field: value})
