"""lab.pick_agreement: positions from a journal's games between MCTS, picks per budget, bad input said."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from lab import pick_agreement as P
from hexarena.referee.game.openings import initial
from hexarena.results.record.game import GameRecord
from hexarena.results.record.moves import Move, moves_of_lists


def record(seed: int, black: str = "mcts-1s", white: str = "mcts-2s", game: str = "spelde",
           size: int = 5) -> GameRecord:
    rng = random.Random(seed)
    state = initial(game, size, "pie")
    actions = []
    while state.outcome() is None and len(actions) < 14:
        action = state.random_action(rng)
        actions.append(state.format(action))
        state = state.play(action)
    return GameRecord(id=f"g/{seed:04d}", game=game, size=size, variant="pie", first=black, second=white,
                      black=black, white=white, winner=None, result="0", termination="ply-cap",
                      plies=len(actions), moves=moves_of_lists(actions))


def journal(folder: Path, records: list[GameRecord], extra: str = "") -> Path:
    path = folder / "journal.jsonl"
    path.write_text("\n".join(r.to_json() for r in records) + "\n" + extra, encoding="utf-8")
    return path


def test_positions_come_from_games_between_the_named_players_at_the_asked_plies(tmp_path: Path) -> None:
    path = journal(tmp_path, [record(1), record(2, white="greedy"), record(3)])
    states = P.positions([str(tmp_path)], "mcts", {4, 8}, 10)
    assert [s.ply for s in states] == [4, 8, 4, 8]              # games 1 and 3; greedy's game left out
    expected = initial("spelde", 5, "pie")
    for token in record(3).tokens[:8]:
        expected = expected.play(expected.parse(token))
    assert states[3] == expected
    assert len(P.positions([str(path)], "mcts", {4, 8}, 3)) == 3


@pytest.mark.slow
def test_picks_per_budget_are_counted_and_reproducible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal(tmp_path, [record(seed) for seed in range(1, 4)])
    argv = [str(tmp_path), "--budgets", "60,300,300", "--plies-at", "4,8", "--positions", "5"]
    P.main(argv)
    first = capsys.readouterr().out
    assert "spelde n=5, the game's own leaves, 5 positions" in first
    assert "300 = 300" in first and "5/5" in first                # the same budget and seed: the same pick
    assert "mean iterations" in first and "   60" in first
    P.main(argv)
    assert capsys.readouterr().out == first
    P.main([str(tmp_path), "--budgets", "60,120", "--plies", "3", "--plies-at", "4"])
    assert "spelde n=5, 3 random plies, 3 positions" in capsys.readouterr().out


def test_bad_input_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = record(4)
    broken = replace(broken, moves=broken.moves[:2] + (Move("zz99", None),) + broken.moves[3:])
    journal(tmp_path, [broken, record(5)], extra="{not json\n")
    states = P.positions([str(tmp_path)], "mcts", {4}, 10)
    assert len(states) == 1                                      # the broken game skipped, with a word
    err = capsys.readouterr().err
    assert "game g/0004" in err and "journal.jsonl:3" in err
    with pytest.raises(SystemExit, match="no position found"):
        P.main([str(tmp_path), "--players", "nobody"])
    with pytest.raises(SystemExit, match="is not '1s'"):
        P.main([str(tmp_path), "--budgets", "1x,2s"])
    with pytest.raises(SystemExit, match="is not '1s'"):
        P.main([str(tmp_path), "--budgets", "0,100"])
    journal(tmp_path, [record(6, game="marbanta", size=5)])
    with pytest.raises(SystemExit, match="marbanta's leaves are not cut-off playouts"):
        P.main([str(tmp_path), "--budgets", "10,20", "--plies", "10", "--plies-at", "4"])
    with pytest.raises(SystemExit, match="nope"):
        P.main([str(tmp_path / "nope")])
