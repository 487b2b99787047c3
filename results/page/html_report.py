"""`hexarena report`: one self-contained HTML page of a tournament folder.

The page needs no network: style, script and data are inline. Every string
that came from an engine (names, reasons, action tokens) reaches the page
either through the template's autoescaping or inside the JSON data island,
whose `<`, `>`, `&` and `'` are written as ``\\u`` escapes; the script only
ever assigns such strings with ``textContent``. Board drawings are our own
(:mod:`hexarena.results.page.board_svg`): one empty board per game and size, which
the viewer fills from compact per-ply data (:mod:`hexarena.results.page.replay_data`,
kept between reports by :mod:`hexarena.results.page.replay_cache`).
"""
from __future__ import annotations

import math
import os
import subprocess
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import jinja2
from markupsafe import Markup

from hexarena.results.page.analysis_data import analysis_data
from hexarena.results.page.board_svg import STYLE, board_template
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalError, journal_path, read_journal
from hexarena.results.page.replay_cache import ReplayCache
from hexarena.results.page.report_sections import identities, rating_groups, sprt_state, terminations

REPORT_NAME = "report.html"
#: Record fields the games list shows, with their short keys in the page's data.
GAME_FIELDS = {"id": "id", "game": "g", "size": "n", "variant": "v", "first": "f", "second": "s",
               "black": "b", "white": "w", "winner": "win", "result": "r", "termination": "t",
               "reason": "why", "plies": "k", "faulty": "fault", "started": "at", "seconds": "sec"}
#: The viewer's scripts (templates/), in their order in the page; `hexarena serve` loads the same.
VIEWER_SCRIPTS = ("analysis.js", "replay.js")


class ReportError(ValueError):
    """A folder that cannot be reported on (no journal, unreadable journal)."""


def write_report(directory: str | os.PathLike, output: str | os.PathLike | None = None,
                 cache: ReplayCache | None = None, warnings: list[str] | None = None) -> tuple[Path, int]:
    """Write the page of the tournament in `directory`; return its path and the number of games.

    What the page warns about (unreadable journal lines, as ``FILE:LINE: reason``) is also
    appended to `warnings` when it is a list, for the terminal. The file is written through a temporary file and a rename, so a browser
    reloading it never reads half a page. Raises ReportError.
    """
    folder = Path(directory)
    target = Path(output) if output is not None else folder / REPORT_NAME
    html, count = build_page(folder, cache or ReplayCache(folder), warnings)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, target)
    return target, count


def build_page(folder: Path, cache: ReplayCache, notices: list[str] | None = None) -> tuple[str, int]:
    """The HTML text of the page and the number of games in it; its warnings are appended to `notices`."""
    errors: list[JournalError] = []
    try:
        records = read_journal(journal_path(folder), errors)
    except OSError as exc:
        raise ReportError(f"{folder}: no readable journal ({exc})") from None
    warnings = [str(e) for e in errors]
    games: list[dict] = []
    boards: dict[str, tuple[str, int]] = {}
    recorded = [r for r in records if r.sgf]
    replays = dict(zip((r.id for r in recorded), cache.games([str(r.sgf) for r in recorded])))
    for record in records:
        entry = game_entry(record, replays.get(record.id))
        if record.id in replays:
            if str(entry.get("err", "")).startswith("sgf field"):      # never read: say so at the top
                warnings.append(f"{journal_path(folder)}: game {record.id}: {entry['err']}")
            if "bd" in entry:                 # the board the record itself names (XG, SZ)
                game, _, size = str(entry["bd"]).rpartition("-")
                boards.setdefault(str(entry["bd"]), (game, int(size)))
        games.append(entry)
    try:
        groups = rating_groups(records)
    except ValueError as exc:              # e.g. no maximum and no prior possible: say so, keep the rest
        groups, warnings = [], warnings + [f"ratings: {exc}"]
    if notices is not None:
        notices.extend(warnings)
    context = {
        "title": f"hexarena report: {folder.resolve().name}",
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "count": len(records), "void": sum(r.void for r in records),
        "groups": groups, "terminations": terminations(records),
        "identities": identities(records), "sprt": sprt_state(folder),
        "warnings": warnings,
        "data": {"games": games},
        "boards": {key: Markup(board_template(game, size)) for key, (game, size) in sorted(boards.items())},
        "style": Markup(_asset("report.css") + STYLE), "script": Markup("\n".join(map(_asset, VIEWER_SCRIPTS))),
    }
    return _environment().get_template("report.html.j2").render(context), len(records)


def game_entry(record: GameRecord, replayed: dict | None) -> dict:
    """One game of the viewer's data: the games-list fields (GAME_FIELDS) and, when the game
    was replayed, its per-ply data (:mod:`.replay_data`). `hexarena serve`'s game pages use it too."""
    entry = {short: getattr(record, name) for name, short in GAME_FIELDS.items()}
    analysed = analysis_data(record)
    if analysed is not None:
        entry["a"] = analysed
    if replayed is not None:
        entry.update(replayed)
    return entry


def _asset(name: str) -> str:
    """A file of templates/ as it is (style, scripts), read by the templates' own loader."""
    env = _environment()
    assert env.loader is not None
    return env.loader.get_source(env, name)[0]


_ENV: jinja2.Environment | None = None


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """The page's templates compiled once and kept between runs (jinja's own cache: a folder of
    the user's alone in the system's temporary folder, each entry checked against its template's
    text and the Python version). A cache that cannot be written only goes without the entry."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _environment() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        try:
            compiled: jinja2.BytecodeCache | None = _CompiledTemplates()
        except (OSError, RuntimeError):             # no private temporary folder: compile each time
            compiled = None
        _ENV = jinja2.Environment(loader=jinja2.PackageLoader("hexarena.results.page", "templates"),
                                  autoescape=True, undefined=jinja2.StrictUndefined,
                                  trim_blocks=True, lstrip_blocks=True, bytecode_cache=compiled)
    return _ENV


class ReportRefresher:
    """Keeps DIR/report.html current while a tournament runs, off the path of the games.

    `on_record` (the runner's per-record callback) counts finished games; every
    `every` games, once `interval` seconds have passed since the last refresh
    started and none is running, it starts `command` (the caller's: `hexarena
    report DIR`) as a child process, which reads the viewer data the referee
    wrote beside the journal (DIR/report-cache.jsonl) and replays nothing. The
    referee neither waits for it nor shares an interpreter with it. `finish`
    stops a refresh still running and writes the final page in this process.
    A failure to write the page is a warning, never the tournament's end.
    """

    def __init__(self, out: Path, warn: Callable[[str], None], command: list[str], every: int = 10,
                 interval: float = 5.0):
        self.out, self.warn, self.command = out, warn, command
        self.every, self.interval = every, interval
        self.count = 0
        self.child: subprocess.Popen | None = None
        self._started = -math.inf           # time.monotonic() of the last refresh started
        self._warned = False

    def on_record(self, record: object) -> None:
        self.count += 1
        if self.count % self.every or not self._idle() or time.monotonic() - self._started < self.interval:
            return
        self._started = time.monotonic()
        try:
            self.child = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
        except OSError as exc:
            self._warn_once(f"report.html not refreshed: cannot start {self.command[0]!r}: {exc}")

    def _idle(self) -> bool:
        """No refresh running (the last one's failure, if any, is warned about once)."""
        if self.child is None or self.child.poll() is None:
            return self.child is None
        if self.child.returncode != 0:
            self._warn_once(f"report.html not refreshed: {' '.join(self.command[1:])} exited "
                            f"with status {self.child.returncode}")
        self.child = None
        return True

    def _warn_once(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            self.warn(message)

    def write(self) -> Path | None:
        try:
            return write_report(self.out)[0]
        except Exception as exc:          # the page is a convenience: say why and go on
            self.warn(f"report.html not written: {exc}")
            return None

    def finish(self) -> Path | None:
        """The final page, written here (a refresh still running is stopped first)."""
        if self.child is not None and self.child.poll() is None:
            self.child.terminate()
            self.child.wait()
            self.child = None
        self._idle()
        return self.write()
