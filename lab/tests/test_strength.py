"""lab.strength: its tournament configs are ones the referee accepts, and a tiny real strength study writes its page."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from lab import strength
from hexarena.engine import registry
from hexarena.referee.tournament import config as C
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalWriter, read_journal
from hexarena.results.sprt import estimate, pairs, pentanomial
from hexarena.results.record.game import VOID_RESULT
from tests.support.realcluster import processes_with, wait_until


def test_the_strength_configs_are_valid_tournaments() -> None:
    args = strength.parse(["--fast", "0.2", "--slow", "0.4", "--prison-cap", "2"])
    for game in registry.playable():
        for which, size in strength.sizes(game).items():
            gauntlet = C.from_dict(tomllib.loads(strength.config(args, game, size, "mcts", 2)))
            assert [e.name for e in gauntlet.engines] == ["random", "greedy", "heuristic", "mcts-0.2s", "mcts-0.4s"]
            assert "mcts:0.4s" in gauntlet.engine("mcts-0.4s").cmd
            assert gauntlet.pairing == "gauntlet" and gauntlet.challengers == ("mcts-0.2s",)
            base = C.from_dict(tomllib.loads(strength.config(args, game, size, "base", 2)))
            assert [e.name for e in base.engines] == ["random", "greedy", "heuristic"]
            doubling = C.from_dict(tomllib.loads(strength.config(args, game, size, "doubling", 2)))
            assert [e.name for e in doubling.engines] == ["mcts-0.2s", "mcts-0.4s"]
            assert doubling.pairing == "round-robin" and doubling.seed == gauntlet.seed + 1  # its own openings
            for cfg in (gauntlet, base, doubling):
                assert [(g.game, g.sizes) for g in cfg.games] == [(game, (size,))]
                # no per-move cap under the clock: engines would be told it as their time left
                assert cfg.limits.move is None and cfg.limits.main == 300 and cfg.limits.increment == 2
                # Anda's random actions come after a fixed pie (a random komi decides its games)
                spec = cfg.games[0]
                assert spec.random_openings == 2
                assert spec.openings == (("komi=0 keep",) if game == "anda" else ())
    assert strength.sizes("spelde") == {"small": 5, "default": 6}


@pytest.mark.slow
def test_a_small_real_strength_study_plays_resumes_and_writes_its_page(tmp_path: Path) -> None:
    out, page = tmp_path / "out", tmp_path / "strength.md"
    argv = ["--games", "spelde", "--sizes", "small", "--games-small", "2", "--fast", "0.02", "--slow", "0.04",
            "--main", "10", "--increment", "0.1", "--out", str(out), "--page", str(page)]
    assert strength.main(argv) == 0
    folder = out / "spelde-5"
    assert strength.played(folder) == 4 * 2 + 3 * 2           # the gauntlet's 4 pairings, the base's 3
    text = page.read_text()
    assert "## spelde-5" in text and "| mcts-0.02s vs heuristic | 2 |" in text
    assert "mcts-0.04s" in text.split("| mcts-0.02s vs mcts-0.04s | 2 |")[1].splitlines()[0]
    assert "spelde-6" in text.split("## Not played yet")[1]
    strength.main([*argv[:5], "4", *argv[6:]])                 # grown to 4 games a pairing: resumed
    assert strength.played(folder) == 4 * 4 + 3 * 4
    runs = json.loads((folder / "strength.json").read_text())["runs"]
    assert [(r["games_before"], r["games_after"]) for r in runs] == [(0, 14), (14, 28)]


def test_the_page_of_a_chunk_just_started(tmp_path: Path) -> None:
    """A folder whose journal has no finished game yet gets a line, not a failed rating."""
    (tmp_path / "anda-9" / "mcts").mkdir(parents=True)
    (tmp_path / "anda-9" / "mcts" / "journal.jsonl").write_text("")
    page = tmp_path / "strength.md"
    assert strength.main(["--report-only", "--out", str(tmp_path), "--page", str(page)]) == 0
    text = page.read_text()
    assert "## anda-9\n\nNo finished game yet." in text
    assert "anda-7" in text.split("## Not played yet")[1] and "anda-9" not in text.split("## Not played yet")[1]


def test_a_section_without_its_folder_is_kept_from_the_earlier_page(tmp_path: Path) -> None:
    """Journals lost with a machine must not take their measured section off the page."""
    (tmp_path / "anda-9" / "mcts").mkdir(parents=True)
    (tmp_path / "anda-9" / "mcts" / "journal.jsonl").write_text("")
    page = tmp_path / "strength.md"
    page.write_text("# old\n\n## spelde-5\n\n280 games.\n\n| mcts-1s vs random | 40 |\n\n"
                    "## anda-9\n\nold anda text\n\n## Not played yet\n\nanda-7, spelde-6\n")
    argv = ["--report-only", "--out", str(tmp_path), "--page", str(page)]
    assert strength.main(argv) == 0
    text = page.read_text()
    spelde = text.split("## spelde-5\n")[1].split("\n## ")[0]
    assert strength.KEPT in spelde and "280 games." in spelde and "| mcts-1s vs random | 40 |" in spelde
    assert "old anda text" not in text and "## anda-9\n\nNo finished game yet." in text  # its folder wins
    assert "spelde-5" not in text.split("## Not played yet")[1] and "anda-7" in text.split("## Not played yet")[1]
    assert strength.main(argv) == 0 and page.read_text().count(strength.KEPT) == 1    # marked once, not twice


def test_the_summary_reads_each_sections_criteria_against_the_issues_bars(tmp_path: Path) -> None:
    args = strength.parse(["--out", str(tmp_path)])
    body = ["## spelde-5", "", "| mcts-1s vs random | 40 | 38-2-0 | 95.0% | |",
            "| mcts-1s vs greedy | 40 | 29-11-0 | 72.5% | |",
            "| mcts-1s vs heuristic | 40 | 20-20-0 | 50.0% | |",
            "| mcts-1s vs mcts-2s | 40 | 16-24-0 | 40.0% | mcts-2s +70 [+15, +149] |",
            "| MCTS time losses | 160 | 1 | | |", "",
            "## anda-9", "", "| mcts-1s vs mcts-2s | 4 | 2-2-0 | 50.0% | mcts-2s +0 [-300, +300] |", "",
            "## vaxandis-4", "", "| mcts-1s vs mcts-2s | 1 | 0-1-0 | 0.0% | |", "",
            "Left to the strength study's counts: 136 games, about 2.5 hours at -j 1 (...).", ""]
    lines = strength.summary(args, body, ["vaxandis-5"])
    rows = [r for r in lines if r.startswith(("| spelde-5", "| anda-9", "| vaxandis-4"))]
    assert rows == [
        "| spelde-5 | 95% of 40: yes | 72% of 40: no | 50% of 40: no | +70 [+15, +149] of 40: yes | 1 of 160 |",
        "| anda-9 | not played | not played | not played | +0 [-300, +300] of 4: no so far | not played |",
        "| vaxandis-4 | not played | not played | not played | no pair yet, 1 games so far | not played |"]
    # spelde-5 has its counts; anda-9 and vaxandis-4 are short, vaxandis-5 not started
    assert lines[-4] == ("Still short of the strength study's counts (each command resumes its folder): "
                         "`python -m lab.strength --games vaxandis --sizes default -j 1`, "
                         "`python -m lab.strength --games anda --sizes default -j 1`, "
                         "`python -m lab.strength --games vaxandis --sizes small -j 1`.")
    # a kept section has its counts but no journal behind them: it is to be played again
    kept = strength.summary(args, body[:2] + [strength.KEPT] + body[2:], [])
    assert "`python -m lab.strength --games spelde --sizes small -j 1`" in kept[-4]
    assert lines[-2] == ("About 2.5 hours at -j 1 are still to play in the sections with journals "
                         "(not counting kept sections or those not begun: vaxandis-5).")


def test_a_section_whose_doubling_tournament_is_unfinished_is_short_with_its_count(tmp_path: Path) -> None:
    """Every pairing at its count, but the doubling tournament's games still to play: the
    command that resumes it must carry --doubling-games, or the run would not play them."""
    args = strength.parse(["--out", str(tmp_path)])
    (tmp_path / "anda-9").mkdir()
    (tmp_path / "anda-9" / "doubling.toml").write_text("seed = 2\ngames_per_pair = 40\n")
    rows = [f"| mcts-1s vs {p} | 20 | 20-0-0 | 100.0% | |" for p in ("random", "greedy", "heuristic")]
    body = ["## anda-9", "", *rows, "| mcts-1s vs mcts-2s | 44 | 15-29-0 | 34.1% | mcts-2s +115 [-7, +243] |",
            "| MCTS time losses | 104 | 0 | | |", "",
            "Left to the strength study's counts: 16 games, about 1.5 hours at -j 1 (...).", ""]
    lines = strength.summary(args, body, [])
    assert lines[-4] == ("Still short of the strength study's counts (each command resumes its folder): "
                         "`python -m lab.strength --games anda --sizes default --doubling-games 40 -j 1`.")
    done = strength.summary(args, [x for x in body if not x.startswith("Left")], [])
    assert not any(x.startswith("Still short") for x in done)


def test_what_is_left_costs_each_pairing_at_its_mean_game_time() -> None:
    args = strength.parse(["--games-small", "3"])

    def record(first: str, second: str, seconds: float, void: bool = False) -> GameRecord:
        return GameRecord(id="x", game="spelde", size=5, variant="", first=first, second=second,
                          black=first, white=second, winner=None if void else first,
                          result=VOID_RESULT if void else "B+", termination="void" if void else "no-moves",
                          plies=10, seconds=seconds)
    records = {"mcts": [record("mcts-1s", "random", 10), record("random", "mcts-1s", 20),
                        record("mcts-1s", "mcts-2s", 100), record("mcts-1s", "greedy", 999, void=True)]}
    games, seconds, uncosted = strength.left(args, "spelde-5", records)
    # gauntlet: random 1 left at 15 s, greedy 3 and heuristic 3 at the gauntlet's mean (130/3 s),
    # mcts-2s 2 at 100 s; the base round robin, not begun: 3 pairings x 3 games, not costed
    assert (games, uncosted) == (1 + 3 + 3 + 2 + 9, 9)
    assert abs(seconds - (15 + 6 * 130 / 3 + 200)) < 1e-9
    # 5 doubling games asked for, none played yet: each at the gauntlet's mcts-1s/mcts-2s game time
    games, seconds, uncosted = strength.left(args, "spelde-5", records, doubling=5)
    assert (games, uncosted) == (1 + 3 + 3 + 2 + 9 + 5, 9)
    assert abs(seconds - (15 + 6 * 130 / 3 + 200 + 500)) < 1e-9


def test_the_doubling_row_counts_the_pairs_of_the_gauntlet_and_the_doubling_tournament() -> None:
    def game(gid: str, black: str, white: str, winner: str, pair: int) -> GameRecord:
        return GameRecord(id=gid, game="spelde", size=5, variant="", first=black, second=white,
                          black=black, white=white, winner=winner, result="B+" if winner == black else "W+",
                          termination="no-moves", plies=10, seconds=1.0, pair=pair)
    f, s = "mcts-1s", "mcts-2s"
    # ids and pair numbers restart at 0 in each tournament
    gauntlet = [game("g/0006", f, s, s, 3), game("g/0007", s, f, s, 3), game("g/0000", f, "random", f, 0)]
    extra = [game("g/0000", f, s, f, 0), game("g/0001", s, f, s, 0), game("g/0002", f, s, s, 1),
             game("g/0003", s, f, s, 1)]
    rows = strength.criteria({"mcts": gauntlet, "doubling": extra}, f, s)
    row = next(r for r in rows if r.startswith(f"| {f} vs {s} |"))
    assert row.startswith(f"| {f} vs {s} | 6 | 1-5-0 | 16.7% | {s} +")
    est = estimate(pentanomial(pairs(gauntlet, s, f) + pairs(extra, s, f)))
    assert len(pairs(gauntlet, s, f) + pairs(extra, s, f)) == 3
    assert f"[{strength.signed(est.elo_low)}, {strength.signed(est.elo_high)}]" in row
    assert rows[-1] == "| MCTS time losses | 7 | 0 | | |"
    assert strength.criteria({"mcts": gauntlet}, f, s)[1].startswith(f"| {f} vs {s} | 2 | 0-2-0 |")


def test_the_doubling_per_game_pools_the_pairs_of_both_sizes(tmp_path: Path) -> None:
    """A doubling gain is judged "in every game": one row per game, both sizes' pairs."""
    f, s = "mcts-1s", "mcts-2s"

    def journal(folder: str, kind: str, winners: list[str]) -> None:
        size = int(folder.rsplit("-", 1)[1])
        (tmp_path / folder / kind).mkdir(parents=True)
        with JournalWriter(tmp_path / folder / kind / "journal.jsonl") as out:
            for i, winner in enumerate(winners):      # pair k: games 2k and 2k+1, seats exchanged
                black, white = (f, s) if i % 2 == 0 else (s, f)
                out.append(GameRecord(id=f"{folder}/{i:04d}", game="anda", size=size, variant="", first=black,
                                      second=white, black=black, white=white, winner=winner,
                                      result="0" if winner is None else "B+" if winner == black else "W+",
                                      termination="no-moves" if winner else "ply-cap",
                                      plies=10, seconds=1.0, pair=i // 2))

    journal("anda-7", "mcts", [s, s, f, s])          # pairs: won twice by mcts-2s, split
    journal("anda-7", "doubling", [s, s, s, None])   # won twice, won and drew
    journal("anda-9", "mcts", [f, f])                # lost twice
    args = strength.parse(["--out", str(tmp_path)])
    folders = [tmp_path / "anda-7", tmp_path / "anda-9", tmp_path / "spelde-5"]
    [row] = strength.doubling_per_game(args, {d: strength.journals(d) for d in folders})
    found = [pairs(read_journal(tmp_path / d / k), s, f) for d, k in
             (("anda-7", "mcts"), ("anda-7", "doubling"), ("anda-9", "mcts"))]
    est = estimate(pentanomial([p for ps in found for p in ps]))
    assert row.startswith("| anda | anda-7, anda-9 | 5 | 2-1-1-0-1 | ")
    assert f"{strength.signed(est.elo)} [{strength.signed(est.elo_low)}, {strength.signed(est.elo_high)}]" in row
    assert row.endswith(": gain, interval includes 0 |")
    assert strength.doubling_per_game(args, {tmp_path / "spelde-5": strength.journals(tmp_path / "spelde-5")}) == []


@pytest.mark.slow
def test_a_strength_study_stopped_by_sigterm_stops_its_tournament_and_logs_the_chunk(tmp_path: Path) -> None:
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "lab.strength", "--games", "spelde", "--sizes", "small", "--games-small", "40",
           "--fast", "0.2", "--slow", "0.4", "--main", "30", "--increment", "0.1", "-j", "1",
           "--out", str(out), "--page", str(tmp_path / "strength.md")]
    proc = subprocess.Popen(cmd, cwd=strength.ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: strength.played(out / "spelde-5") >= 1 or proc.poll() is not None, 120, "a first game")
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=90) == 128 + signal.SIGTERM
    runs = json.loads((out / "spelde-5" / "strength.json").read_text())["runs"]
    assert len(runs) == 1 and runs[0]["finished"] is False
    assert 1 <= runs[0]["games_after"] == strength.played(out / "spelde-5") < 4 * 40
    assert processes_with(str(out / "spelde-5" / "mcts")) == {}   # its tournament stopped too
