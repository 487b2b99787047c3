"""`hexarena openings stats` on a journal of N games: seconds, against reading the journal alone.

    python -m bench.bench_openings [GAMES]

Builds a journal of GAMES games (default 10,000) in game pairs from a book of
openings with random plies (tests/support/opening_journal.py: Spelde n=4 played
out at random by the rules, a void game replayed now and then), then times:

* read only     every journal line parsed into a record (the baseline: the least
                any reader of the journal does)
* stats         the records streamed into per-opening statistics, both groupings
                (played line, book line) and the table's lines
* command       `python -m hexarena openings stats FILE` as a user runs it (a new
                process: interpreter, imports, output)

Goal: stats of a 10,000-game journal under 2 s.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import table
from hexarena.results import openings as op
from hexarena.results.record.journal import iter_journal
from tests.support.opening_journal import build_journal


def main(games: int = 10_000) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.jsonl"
        pairings, per_round = 3, 20
        rounds = max(1, games // (2 * pairings * per_round))
        written = build_journal(path, game="spelde", size=4, book=per_round, book_plies=2, random_plies=1,
                                rounds=rounds, cap=40)
        t0 = time.perf_counter()
        n = sum(1 for _ in iter_journal(path))
        read = time.perf_counter() - t0
        t0 = time.perf_counter()
        collected = op.collect([iter_journal(path)])
        played = op.ordered(op.opening_stats(collected, "played"))
        book = op.ordered(op.opening_stats(collected, "book", {(0, s.group): 1 for s in played}))
        lines = op.table_lines(played, op.DEFAULT_BAND) + op.table_lines(book, op.DEFAULT_BAND)
        stats = time.perf_counter() - t0
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "hexarena", "openings", "stats", str(path)], check=True,
                       stdout=subprocess.DEVNULL)
        command = time.perf_counter() - t0
    print(f"journal: {written} lines ({n} read), {len(played)} played lines, {len(book)} book lines, "
          f"{len(lines)} table lines")
    print(table([{"step": "read only (baseline)", "seconds": f"{read:.2f}", "ratio": "1.00"},
                 {"step": "stats", "seconds": f"{stats:.2f}", "ratio": f"{stats / read:.2f}"},
                 {"step": "command (new process)", "seconds": f"{command:.2f}", "ratio": f"{command / read:.2f}"}]))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
