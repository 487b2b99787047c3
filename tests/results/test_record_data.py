"""The core's replay of a whole record (hexarena_core.replay_record, core/src/replay/) against
the Python replay (results/page/replay.py, replay_data.py): the same viewer data, to the byte
of their JSON, for seeded random games of every game at each recommended size, balance, option
value and komi, for long games at the referee's ply cap, and for the records the core declines
(then replayed in Python) or refuses (its error names the ply; the Python reader's error is
the one shown). Under ``HEXARENA_CORE=0`` the Python side plays the Python rules."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from hexarena.engine import compiled, registry
from hexarena.engine.game import GameInfo, Variant
from hexarena.results.page import record_data as rd
from hexarena.results.page.replay import replay_record
from hexarena.results.page.replay_data import game_data
from hexarena.results.record.journal import read_journal
from hexarena.results.record.sgf import SgfError
from tests.support.folders import build_folder

CORE = compiled.installed()
needs_core = pytest.mark.skipif(getattr(CORE, "replay_record", None) is None,
                                reason="the compiled core with replay_record is not installed")
SECONDS = ("1.5", "0.25", "12", "x", "1e3", None)


def _variants(info: GameInfo, size: int) -> list[tuple[Variant, int]]:
    """Each balance with the default options, each option value, and a komi where the game has one."""
    out = [(info.variant(size, [b]), 0) for b in info.balances]
    out += [(info.variant(size, [f"{name}={value}"]), 0) for name, values in info.options for value in values[1:]]
    if info.uses_komi:
        out.append((info.variant(size, ["nopie"]), 3))
    return out


def _record(info: GameInfo, variant: Variant, komi: int, rng: random.Random, cap: int) -> str:
    """A seeded random game as the referee writes its SGF (think times, some info lines)."""
    state = info.new_game(variant, komi)
    nodes = [f"(;FF[4]CA[UTF-8]GM[{info.sgf_number}]AP[test]SZ[{variant.size}]XG[{info.id}]"
             f"XV[{info.describe(variant).partition(' ')[2]}]" + (f"XK[{komi}]" if komi else "")]
    while state.outcome() is None and state.ply < cap:
        action = state.random_action(rng)
        seconds = rng.choice(SECONDS)
        nodes.append(f";{state.to_move.letter}[{state.format(action)}]" + (f"XT[{seconds}]" if seconds else "")
                     + ("XA[winrate 0.5][visits 3]" if rng.random() < 0.1 else ""))
        state = state.play(action)
    return "\n".join(nodes) + ")\n"


def _core(text: str) -> dict | None:
    assert CORE is not None
    done = CORE.replay_record(text, rd._shown_keys() or {g: list(registry.get(g).shown_keys) for g in CORE.GAMES})
    return None if done is None else rd._from_core(*done)


def _same(text: str) -> None:
    ours, theirs = _core(text), game_data(replay_record(text))
    assert ours is not None
    assert json.dumps(ours) == json.dumps(theirs)


@needs_core
@pytest.mark.parametrize("game", [g for g in registry.playable() if CORE is not None and g in CORE.GAMES])
def test_the_core_gives_the_python_data_for_random_games(game):
    info = registry.get(game)
    rng = random.Random(f"record-data {game}")
    for size in info.sizes:
        for variant, komi in _variants(info, size):
            _same(_record(info, variant, komi, rng, 150))


@needs_core
def test_the_core_gives_the_python_data_for_long_games(tmp_path):
    build_folder(tmp_path, 15, long=True)          # every game at each recommended size, to the ply cap
    records = sorted((tmp_path / "games").glob("*.sgf"))
    assert len(records) == 15
    for path in records:
        _same(path.read_text(encoding="utf-8"))
    assert max(len(json.loads(json.dumps(_core(p.read_text())))["m"]) for p in records) >= 300


@needs_core
def test_records_the_core_declines_are_replayed_in_python():
    base = "(;FF[4]GM[1]SZ[5]XG[spelde]XV[nopie]"
    for text in (base + ";B[E5];W[a1])",                  # a token not in canonical lower case
                 base + ";B[e5]XA[a\\]b];W[a1])",         # an escape: the full SGF reader
                 base + ";B[ e5 ];W[a1])",
                 "(;FF[4]SZ[5]XG[spelde]XV[nopie\tflips=dense];B[e5])"):   # a tab between variant words
        assert CORE is not None and CORE.replay_record(text, {}) is None
        assert rd.record_data(text) == game_data(replay_record(text))


@needs_core
@pytest.mark.parametrize("game", [g for g in registry.playable() if CORE is not None and g in CORE.GAMES])
def test_a_komi_up_to_beyond_the_board_s_sites_gives_the_python_data(game):
    info = registry.get(game)
    sites = 3 * 5 * 4 + 1                          # a board of side 5
    for balance in info.balances:
        for komi in (0, 5, sites, sites + 1, 1000):
            text = f"(;FF[4]SZ[5]XG[{game}]XV[{balance}]XK[{komi}])"
            try:
                python: dict | str = game_data(replay_record(text))
            except SgfError as exc:
                python = str(exc)
            try:
                ours: dict | str = rd.record_data(text)
                named: dict | str = rd.record_data(text, game)      # the caller names the game
            except SgfError as exc:
                ours = named = str(exc)
            assert ours == python and named == python, (balance, komi)


@needs_core
def test_an_illegal_action_is_named_by_its_ply():
    text = "(;FF[4]GM[1]SZ[5]XG[spelde]XV[nopie];B[e5];W[a1];B[a1])"
    assert CORE is not None
    with pytest.raises(ValueError, match=r"^ply 3: 'a1': illegal move"):
        CORE.replay_record(text, {})
    with pytest.raises(SgfError) as python:
        replay_record(text)
    with pytest.raises(SgfError) as ours:
        rd.record_data(text)
    assert str(ours.value) == str(python.value) and str(ours.value).startswith("ply 3: 'a1'")


def test_record_data_is_the_python_replay_s_data():
    text = "(;FF[4]GM[1]SZ[5]XG[spelde]XV[nopie];B[e5]XT[2];W[a1])"
    assert rd.record_data(text) == game_data(replay_record(text))
    with pytest.raises(SgfError, match="XG"):
        rd.record_data("(;FF[4]SZ[5];B[e5])")




@pytest.mark.parametrize("threads", [True, False])
def test_many_records_replay_alike_in_threads_or_processes_or_one_by_one(tmp_path, monkeypatch, threads):
    """ReplayCache replays many new records in threads (the core's replay) or worker processes
    (Python's): the same data, in order, as one by one."""
    from hexarena.results.page import replay_cache
    build_folder(tmp_path, 12, seed=3, cap=40)
    paths = [str(r.sgf) for r in read_journal(tmp_path / "journal.jsonl")] + ["games/missing.sgf"]
    alone = replay_cache.ReplayCache(tmp_path, parallel=False, persist=False).games(paths)
    monkeypatch.setattr(replay_cache, "PARALLEL_FROM", 2)
    monkeypatch.setattr(replay_cache, "_usable_cpus", lambda: 2)
    monkeypatch.setattr(replay_cache, "core_replays", lambda: threads)
    assert replay_cache.ReplayCache(tmp_path, parallel=True, persist=False).games(paths) == alone
    assert "missing" in alone[-1]["err"] and all("m" in d for d in alone[:-1])


@needs_core
def test_a_record_whose_game_is_named_loads_no_other_game_s_rules():
    """A worker writes each game's cache entry: naming the game keeps the other games' modules out."""
    script = (
        "import sys\n"
        "from hexarena.results.page import record_data as rd\n"
        "data = rd.record_data('(;FF[4]GM[1]SZ[5]XG[spelde]XV[nopie];B[e5];W[a1])', 'spelde')\n"
        "assert data['m'][0] == 'e5', data\n"
        "print(sorted(m for m in sys.modules if m.startswith('hexarena.engine.games.')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = {m.split(".")[3] for m in eval(done.stdout)}
    assert loaded == {"spelde"}, loaded
