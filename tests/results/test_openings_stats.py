"""`hexarena openings stats`: its counts equal those computed here from the journal's JSON lines."""
from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict

from click.testing import CliRunner

from hexarena.cli import main
from hexarena.results import openings as op
from hexarena.results.record.journal import iter_journal
from tests.support.opening_journal import build_journal


def _expected(path, cut: int = 0) -> dict:
    """Per (group, line): [games, first-seat points, pentanomial, split, the split pairs' sum of
    chances], from the raw JSON lines; a pair of x and y splits by chance with probability
    w(x, y) w(y, x) + l(x, y) l(y, x), the seat rates over all the group's games."""
    last: dict[str, dict] = {}
    for line in path.read_text().splitlines():
        d = json.loads(line)
        if d["termination"] != "void":
            last[d["id"]] = d
    out: dict = defaultdict(lambda: [0, 0.0, [0] * 5, 0, 0.0])
    by_pair = defaultdict(list)
    seats: dict = defaultdict(lambda: [0, 0, 0])         # (group, first, second): games, first won, second won

    def key(d):
        line = tuple(m["a"] for m in d["moves"][:d["opening"]])
        return (d["game"], d["size"], d["variant"]), line[:len(line) - cut]

    for d in last.values():
        r = seats[d["game"], d["size"], d["variant"], d["first"], d["second"]]
        r[0] += 1
        r[1] += d["winner"] == d["first"]
        r[2] += d["winner"] == d["second"]
    for d in last.values():
        e = out[key(d)]
        e[0] += 1
        e[1] += {None: 0.5, d["first"]: 1.0}.get(d["winner"], 0.0)
        if d["pair"] is not None:
            by_pair[d["pair"]].append(d)
    for members in by_pair.values():
        if len(members) != 2:
            continue
        g1, g2 = sorted(members, key=lambda d: d["id"])
        hero = g1["first"]
        points = sum({None: 0.5, hero: 1.0}.get(g["winner"], 0.0) for g in (g1, g2))
        e = out[key(g1)]
        e[2][int(points * 2)] += 1
        won = {None if g["winner"] is None else g["winner"] == g["first"] for g in (g1, g2)}
        e[3] += won in ({True}, {False})
        (n1, w1, l1), (n2, w2, l2) = (seats[g["game"], g["size"], g["variant"], g["first"], g["second"]]
                                      for g in (g1, g2))
        e[4] += (w1 / n1) * (w2 / n2) + (l1 / n1) * (l2 / n2)
    return dict(out)


def _draws(path) -> dict:
    """Per (group, line): the drawn games, from the raw JSON lines (the last record of each id)."""
    last = {}
    for line in path.read_text().splitlines():
        d = json.loads(line)
        if d["termination"] != "void":
            last[d["id"]] = d
    out: dict = defaultdict(int)
    for d in last.values():
        out[(d["game"], d["size"], d["variant"]), tuple(m["a"] for m in d["moves"][:d["opening"]])] += d["winner"] is None
    return out


def _check(stats, expected):
    assert {(s.group, s.line) for s in stats} == set(expected)
    for s in stats:
        games, points, penta, split, chance = expected[s.group, s.line]
        assert (s.games, s.points, s.penta, s.split) == (games, points, penta, split)
        assert (s.chance is None) if not s.pairs else math.isclose(s.chance, chance / s.pairs)
        lo, hi = s.interval
        assert lo <= s.score <= hi


def test_counts_by_played_line_and_by_book_line(tmp_path):
    path = tmp_path / "journal.jsonl"
    build_journal(path, book=3, book_plies=1, random_plies=1, rounds=3)
    games = op.collect([iter_journal(path)])
    played = op.opening_stats(games, "played")
    _check(played, _expected(path))
    book = op.opening_stats(games, "book", {(0, s.group): 1 for s in played})
    _check(book, _expected(path, cut=1))
    assert len(book) == 3 < len(played)                       # a fresh tail per round and book line
    assert sum(s.games for s in book) == sum(s.games for s in played)
    assert sum(s.pairs for s in book) == 3 * 3 * 3            # rounds x lines x pairings


def test_two_folders_keep_their_pairs_apart(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    build_journal(a, seed=1)
    build_journal(b, seed=1)                                  # the same ids and pair numbers
    one = op.opening_stats(op.collect([iter_journal(a)]), "played")
    both = op.opening_stats(op.collect([iter_journal(a), iter_journal(b)]), "played")
    assert {(s.group, s.line): (2 * s.games, [2 * c for c in s.penta]) for s in one} == \
        {(s.group, s.line): (s.games, s.penta) for s in both}


def test_wilson_interval_contains_the_score_and_narrows():
    assert op.wilson(0.5, 0) == (0.0, 1.0)
    lo10, hi10 = op.wilson(0.5, 10)
    lo1000, hi1000 = op.wilson(0.5, 1000)
    assert lo10 < lo1000 < 0.5 < hi1000 < hi10
    assert math.isclose(hi1000 - lo1000, 2 * 1.96 * math.sqrt(0.25 / 1000), rel_tol=0.01)
    assert op.wilson(1.0, 5)[1] == 1.0 and op.wilson(0.0, 5)[0] == 0.0


def test_flags_against_the_band():
    s = op.OpeningStats(("spelde", 5, "pie"), ("e5",), games=100, points=80)
    assert s.flag((0.4, 0.6)) == "HIGH"
    s.games, s.points = 4, 3
    assert s.flag((0.4, 0.6)) == "high"                       # 75%, but the interval reaches the band
    s.points = 2
    assert s.flag((0.4, 0.6)) == ""


def test_band_words():
    assert op.parse_band("40-60") == (0.4, 0.6)
    assert op.parse_band("0.45-0.55") == (0.45, 0.55)
    for bad in ("60-40", "40", "x-60"):
        try:
            op.parse_band(bad)
        except ValueError as exc:
            assert "band" in str(exc)
        else:
            raise AssertionError(bad)


def test_cli_table_and_csv(tmp_path):
    path = tmp_path / "journal.jsonl"
    build_journal(path, book=2, random_plies=0, rounds=2)
    expected = _expected(path)
    draws = _draws(path)
    result = CliRunner().invoke(main, ["openings", "stats", str(path)])
    assert result.exit_code == 0, result.output
    assert "openings by the played line" in result.output and "book line" not in result.output
    header = result.output.splitlines()[1].split()
    assert header[header.index("split") + 1] == "chance"
    pairs = sum(sum(v[2]) for v in expected.values())
    share = sum(v[3] for v in expected.values()) / pairs
    baseline = sum(v[4] for v in expected.values()) / pairs
    assert (f"split by seat ({100 * share:.1f}%; independent games at these seat results would split "
            f"{100 * baseline:.0f}%)") in result.output
    result = CliRunner().invoke(main, ["openings", "stats", str(path), "--csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert len(rows) == len(expected)
    for row in rows:
        games, points, penta, split, chance = expected[(row["game"], int(row["size"]), row["variant"]),
                                                       tuple(row["opening"].split())]
        assert int(row["games"]) == games and int(row["split"]) == split
        assert row["split_chance"] == "" if not sum(penta) else \
            math.isclose(float(row["split_chance"]), chance / sum(penta), abs_tol=1e-4)
        assert int(row["draws"]) == draws[(row["game"], int(row["size"]), row["variant"]), tuple(row["opening"].split())]
        assert [int(row[k]) for k in ("LL", "LD", "WL+DD", "WD", "WW")] == penta
        assert math.isclose(float(row["score"]), points / games, abs_tol=1e-4)
    result = CliRunner().invoke(main, ["openings", "stats", str(path), "--band", "70-30"])
    assert result.exit_code == 2 and "band" in result.output


def test_the_report_has_the_openings_section_with_both_groupings(tmp_path):
    from hexarena.results.page.html_report import write_report
    from tests.support.page_check import static_markup_problems
    build_journal(tmp_path / "journal.jsonl", book=2, random_plies=1, rounds=2)
    (tmp_path / "tournament.json").write_text(json.dumps({"games": [
        {"game": "spelde", "sizes": [4], "variants": ["pie"], "random_openings": 1}]}), encoding="utf-8")
    html = write_report(tmp_path, tmp_path / "r.html")[0].read_text(encoding="utf-8")
    assert 'id="openings"' in html and "by the book line alone" in html
    section = html[html.index('id="openings"'):html.index('id="games"')]
    assert "<th>split</th><th>by chance</th>" in section
    for (group, line), (games, _points, penta, split, chance) in _expected(tmp_path / "journal.jsonl", cut=1).items():
        row = f"<td>{' '.join(line)}</td><td>{games}</td><td>{sum(penta)}</td>"
        assert row in section
        cells = f"<td>{100 * split / sum(penta):.0f}%</td><td>{100 * chance / sum(penta):.0f}%</td>"
        assert cells in section[section.index(row):].split("</tr>")[0]
    assert static_markup_problems(html) == []


def test_the_report_has_no_openings_section_without_openings(tmp_path):
    from hexarena.results.page.html_report import write_report
    build_journal(tmp_path / "journal.jsonl", book=1, book_plies=0, random_plies=0, rounds=1)
    html = write_report(tmp_path, tmp_path / "r.html")[0].read_text(encoding="utf-8")
    assert 'id="openings"' not in html


def _games(results: list[tuple[str, str, str | None]]) -> dict:
    """collect()'s shape for pairs of games (first, second, winner), one opening, pair numbers in order."""
    group = ("spelde", 5, "pie")
    return {(0, f"g{n:03d}"): (group, n // 2, first, second, winner, ("e5",))
            for n, (first, second, winner) in enumerate(results)}


def test_expected_split_follows_each_pairings_seat_results():
    group = ("spelde", 5, "pie")
    # x wins every game, first or second: no pair can split by chance
    strong = _games([("x", "y", "x"), ("y", "x", "x")] * 4)
    assert op.expected_split(strong) == {group: 0.0}
    # x first wins 3 of 4, y first wins 1 of 4: w(x,y) w(y,x) + l(x,y) l(y,x) = .75*.25 + .25*.75
    mixed = _games([("x", "y", "x"), ("y", "x", "x"), ("x", "y", "x"), ("y", "x", "y"),
                    ("x", "y", "x"), ("y", "x", "x"), ("x", "y", "y"), ("y", "x", "x")])
    assert math.isclose(op.expected_split(mixed)[group], 0.375)
    # first seat 3/4 both ways (s^2 + (1 - s)^2 without the draw); a draw is neither seat's win
    even = _games([("x", "y", "x"), ("y", "x", "y"), ("x", "y", "x"), ("y", "x", "y"),
                   ("x", "y", "x"), ("y", "x", "y"), ("x", "y", "y"), ("y", "x", None)])
    assert math.isclose(op.expected_split(even)[group], 0.75 * 0.75 + 0.25 * 0.0)    # y first: 3 wins, 1 draw
    (s,) = op.summaries(op.opening_stats(mixed))
    assert math.isclose(s.chance, 0.375) and s.split == 2
    (row,) = op.opening_stats(mixed)
    assert math.isclose(row.chance, 0.375) and row.row()["chance"] == 0.375


def test_equal_engines_at_a_balanced_seat_split_half_their_pairs_by_chance():
    # each seat wins half its games, whoever sits in it: w = l = 1/2 both ways, 1/4 + 1/4
    balanced = _games([("x", "y", "x"), ("y", "x", "x"), ("x", "y", "y"), ("y", "x", "y")] * 3)
    (s,) = op.summaries(op.opening_stats(balanced))
    assert math.isclose(s.chance, 0.5) and s.split == 0       # every pair went to one engine
    # no pair: no chance per opening; the group falls back to s^2 + (1 - s)^2
    (lone,) = op.opening_stats({(0, "g"): (("spelde", 5, "pie"), None, "x", "y", "x", ("e5",))})
    assert lone.chance is None and lone.row()["chance"] is None
    (plain,) = op.summaries([lone])
    assert plain.chance == 1.0


def test_a_torn_last_line_is_refused_as_ratings_refuses_it_and_skipped_on_request(tmp_path):
    folder = tmp_path / "T"
    folder.mkdir()
    path = folder / "journal.jsonl"
    build_journal(path, book=2, random_plies=0, rounds=2)
    whole = CliRunner().invoke(main, ["openings", "stats", str(folder), "--csv"])
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"id": "spelde-4-pie/9999", "ga')                   # a killed writer's torn tail
    refused = CliRunner().invoke(main, ["openings", "stats", str(folder)])
    assert refused.exit_code == 1
    assert "use --skip-bad to skip them" in refused.output and f"`hexarena repair {folder}`" in refused.output
    assert "torn last line" in refused.output
    skipped = CliRunner().invoke(main, ["openings", "stats", str(folder), "--csv", "--skip-bad"])
    assert skipped.exit_code == 0 and "warning: skipped" in skipped.stderr
    assert skipped.stdout == whole.stdout


def test_a_journal_file_finds_its_random_plies_beside_it_and_a_folder_named_twice_counts_once(tmp_path):
    folder = tmp_path / "T"
    folder.mkdir()
    path = folder / "journal.jsonl"
    build_journal(path, book=3, book_plies=1, random_plies=1, rounds=2)
    (folder / "tournament.json").write_text(json.dumps({"games": [
        {"game": "spelde", "sizes": [4], "variants": ["pie"], "random_openings": 1}]}), encoding="utf-8")
    by_book = CliRunner().invoke(main, ["openings", "stats", str(path), "--by", "book", "--csv"])
    assert by_book.exit_code == 0, by_book.output
    assert len(list(csv.DictReader(io.StringIO(by_book.stdout)))) == 3     # the book's lines, random plies cut
    once = CliRunner().invoke(main, ["openings", "stats", str(folder), "--csv"])
    twice = CliRunner().invoke(main, ["openings", "stats", str(folder), str(folder), str(path), "--csv"])
    assert twice.exit_code == 0 and twice.stdout == once.stdout
    assert f"warning: {folder}: named twice, read once" in twice.stderr
