"""The shipped books (referee/game/books/) and their measured balance (docs/openings.md).

    python -m lab.books make [NAME ...] [-j J]        # generate the books (all, or those named)
    python -m lab.books table                         # the table of shipped books (docs/openings.md)
    python -m lab.books measure OUT [-j J] [--games N] [--engine mcts:100] [--against E] [--names NAME ...]
                                [--book-only] [--adjudicate]

`make` runs `hexarena openings generate` for each book of BOOKS_MADE with the arguments listed there
(the judgements in /tmp; the book's header line says how it was made). `measure` plays, for each
of MEASURED (or --names), N games of the engine against itself (or against
--against) from the shipped book and N from `random_openings = 2` (two tournaments in OUT/NAME-book
and OUT/NAME-random; --book-only: the first), then prints the table of docs/openings.md from
`hexarena openings stats`' numbers: the first seat's score with its 95% interval, engine a's score
(the --engine's), the pairs split by seat, and beside it the share a split would have if the two
games of a pair were independent draws at the pairing's seat results (results/openings.py,
`expected_split`: s^2 + (1 - s)^2 in self-play at first-seat score s).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hexarena.referee.game.openings import BOOKS
from hexarena.results import openings as op
from hexarena.results.record.journal import iter_journal

JUDGE = "mcts:400"


def selfplay_prison(komi: int) -> tuple[str, ...]:
    """The Anda-prison books' arguments: the dual pie then `komi=K keep`, four self-play games a line."""
    return ("--then", f"komi={komi} keep", "--judge", "selfplay", "--games", "4", "--engine", "mcts:50",
            "--band", "25-75")


#: name -> (game, size, variant, plies, count, --after, candidates, extra arguments); the fair komi
#: of the Anda books (`komi=K keep` after the start) and the Anda-prison books (`komi=K keep` after
#: its dual pie, by --then) comes from `hexarena openings komi` (docs/openings.md, "A fair komi").
#: In Anda-prison mcts:400 judges nearly every line after the komi pie at 0.5 (its winrate tells
#: only the decided lines apart), so those books are judged by self-play (selfplay_prison: four games
#: a line, the lines that went 4-0 to one seat dropped). At Anda n=9 mcts:400 values every line
#: after the first turns at about 62% for the first seat (self-play at komi 0 scored 54.7%,
#: 42.6-66.3%): the band is set about the judge's own centre, dropping its outliers. Anda n=11 is
#: judged by mcts:100, within the 2-core machine's budget. Spelde n=5 is judged by self-play of the
#: engine its balance is measured with (mcts:100, 64 games a line; mcts:400's winrate kept lines that
#: mcts:100's self-play scored 19% to 85% for the first seat), in 45-55%: 64 games judge a line to
#: about +-12%, and most candidates lean to the first seat, so a 40-60 band let through lines the
#: measurement put at 66-74%.
BOOKS_MADE: dict[str, tuple[str, int, str, int, int, str, int, tuple[str, ...]]] = {
    "spelde-5-pie": ("spelde", 5, "pie", 3, 24, "", 160,
                     ("--judge", "selfplay", "--games", "64", "--engine", "mcts:100", "--band", "45-55")),
    "spelde-6-pie": ("spelde", 6, "pie", 3, 24, "", 600, ()),
    "spelde-7-pie": ("spelde", 7, "pie", 3, 24, "", 600, ()),
    "vaxandis-4-pie": ("vaxandis", 4, "pie", 2, 12, "", 48, ()),
    "vaxandis-5-pie": ("vaxandis", 5, "pie", 2, 12, "", 48, ()),
    "vaxandis-6-pie": ("vaxandis", 6, "pie", 2, 12, "", 48, ()),
    "marbanta-7-pie": ("marbanta", 7, "pie", 3, 12, "", 96, ()),
    "marbanta-9-pie": ("marbanta", 9, "pie", 3, 12, "", 96, ()),
    "marbanta-11-pie": ("marbanta", 11, "pie", 3, 12, "", 96, ()),
    "anda-7-pie": ("anda", 7, "pie", 2, 24, "komi=0 keep", 96, ()),
    "anda-9-pie": ("anda", 9, "pie", 2, 12, "komi=0 keep", 48, ("--band", "57-67")),
    "anda-11-pie": ("anda", 11, "pie", 2, 12, "komi=1 keep", 36, ("--engine", "mcts:100")),
    "anda-prison-7-pie": ("anda-prison", 7, "pie", 3, 24, "", 96, selfplay_prison(0)),
    "anda-prison-9-pie": ("anda-prison", 9, "pie", 3, 12, "", 48, selfplay_prison(0)),
    "anda-prison-11-pie": ("anda-prison", 11, "pie", 3, 12, "", 48, selfplay_prison(0)),
}
MEASURED = ("spelde-5-pie", "anda-7-pie")


def make(names: list[str], concurrency: int) -> None:
    for name in names or list(BOOKS_MADE):
        game, size, variant, plies, count, after, candidates, extra = BOOKS_MADE[name]
        work = Path(tempfile.mkdtemp(prefix=f"book-{name}-"))
        args = [sys.executable, "-m", "hexarena", "openings", "generate", "--game", game, "--size", str(size),
                "--variant", variant, "--engine", JUDGE, "--count", str(count), "--plies", str(plies),
                "--candidates", str(candidates), "--band", "40-60", "--out", str(BOOKS / f"{name}.txt"),
                "--work", str(work), "-j", str(concurrency)]
        if after:
            args += ["--after", after]
        args += extra                       # later options win
        t0 = time.monotonic()
        subprocess.run(args, check=True)
        print(f"{name}: {time.monotonic() - t0:.0f} s", flush=True)


#: --adjudicate: two-sided resign adjudication on the engines' winrates (docs/tournament.md,
#: "Adjudication"), for games that otherwise run to the ply cap (Vaxandis).
ADJUDICATION = "[adjudication]\nresign_winrate = 0.9\nresign_moves = 4\ndraw_moves = 0\n"


def _config(name: str, book: bool, games: int, engine: str, against: str, adjudicate: bool = False) -> str:
    game, size, variant, *_ = BOOKS_MADE[name]
    lines = sum(1 for _ in op_lines(name))
    per = max(2, 2 * round(games / lines / 2)) if book else games
    opening = f'openings = "book:{name}"' if book else "random_openings = 2"
    return (f'seed = 1\ngames_per_pair = {per}\n[engines.a]\nplayer = "{engine}"\n[engines.b]\nplayer = "{against}"\n'
            f'{ADJUDICATION if adjudicate else ""}'
            f'[[games]]\ngame = "{game}"\nsize = {size}\nvariant = "{variant}"\n{opening}\n')


def op_lines(name: str) -> list[str]:
    from hexarena.referee.game.openings import read_file
    return [text for _, text in read_file(BOOKS / f"{name}.txt")]


def measure(out: Path, concurrency: int, games: int, engine: str, against: str, names: list[str], random: bool,
            adjudicate: bool = False) -> None:
    rows = []
    for name in names or MEASURED:
        for book in (True, False) if random else (True,):
            folder = out / f"{name}-{'book' if book else 'random'}"
            config = out / f"{folder.name}.toml"
            out.mkdir(parents=True, exist_ok=True)
            config.write_text(_config(name, book, games, engine, against, adjudicate), encoding="utf-8")
            resume = ["--resume"] if (folder / "tournament.json").exists() else []
            t0 = time.monotonic()
            subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(folder),
                            "-j", str(concurrency), "-q", *resume], check=True, stdout=subprocess.DEVNULL)
            seconds = time.monotonic() - t0
            played = op.collect([iter_journal(folder / "journal.jsonl")])
            stats = op.opening_stats(played, "played")
            (s,) = op.summaries(stats)
            expected = s.chance
            a_points = sum(0.5 if w is None else float(w == "a") for _g, _p, _f, _s, w, _l in played.values())
            rows.append(f"| {name} | {'book' if book else 'random_openings = 2'} | {len(stats)} | {s.games} "
                        f"({s.draws} drawn) | "
                        f"{100 * s.score:.1f}% ({100 * s.interval[0]:.1f}-{100 * s.interval[1]:.1f}) | "
                        f"{100 * a_points / max(1, s.games):.1f}% | "
                        f"{s.pairs} | {100 * s.split / max(1, s.pairs):.1f}% | {100 * expected:.1f}% | "
                        f"{seconds:.0f} s |")
            print(rows[-1], flush=True)
    print(f"| book | openings from | distinct openings | games | first seat (95%) | {engine} (a) | pairs "
          "| split by seat | split if independent | wall |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


def table() -> None:
    """The table of shipped books for docs/openings.md: openings, plies, judge, judged values."""
    from hexarena.referee.game.book import header_of
    from hexarena.referee.game.openings import book_names
    print("| book | openings | plies | judged by | judged first-seat values: mean (range) |")
    print("|---|---|---|---|---|")
    for name in book_names():
        text = (BOOKS / f"{name}.txt").read_text(encoding="utf-8")
        header = header_of(text)
        values = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()[1:] if "# first seat" in line]
        judge = header.split("judged by ", 1)[1].split(", first seat")[0]
        plies = header.split(" openings of ", 1)[1].split(" plies")[0]
        after = header.split(" plies after ", 1)[1].split(",")[0] if " plies after " in header else ""
        after = after.split(" then ")[0]
        then = header.split(" then ", 1)[1].split(",")[0] if " then " in header else ""
        plies += f" after `{after}`" if after else ""
        plies += f" then `{then}`" if then else ""
        print(f"| `book:{name}` | {len(values)} | {plies} | {judge} | {100 * sum(values) / len(values):.1f}% "
              f"({100 * min(values):.1f}-{100 * max(values):.1f}%) |")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m lab.books")
    sub = parser.add_subparsers(dest="what", required=True)
    m = sub.add_parser("make")
    m.add_argument("names", nargs="*")
    m.add_argument("-j", type=int, default=2)
    s = sub.add_parser("measure")
    s.add_argument("out", type=Path)
    s.add_argument("-j", type=int, default=2)
    s.add_argument("--games", type=int, default=200)
    s.add_argument("--engine", default="mcts:100")
    s.add_argument("--against", default=None, help="the second engine (default: the same as --engine)")
    s.add_argument("--names", nargs="*", default=[], help="books to measure (default: MEASURED)")
    s.add_argument("--book-only", action="store_true", help="no random_openings run beside each book")
    s.add_argument("--adjudicate", action="store_true", help="resign adjudication on both engines' winrates "
                                                             "(ADJUDICATION)")
    sub.add_parser("table")
    args = parser.parse_args()
    if args.what == "table":
        table()
    elif args.what == "make":
        make(args.names, args.j)
    else:
        measure(args.out, args.j, args.games, args.engine, args.against or args.engine, args.names, not args.book_only,
                args.adjudicate)


if __name__ == "__main__":
    main()
