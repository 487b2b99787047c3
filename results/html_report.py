"""`hexarena report`: one self-contained HTML page of a tournament folder.

The page needs no network: style, script and data are inline. Every string
that came from an engine (names, reasons, action tokens) reaches the page
either through the template's autoescaping or inside the JSON data island,
whose `<`, `>`, `&` and `'` are written as ``\\u`` escapes; the script only
ever assigns such strings with ``textContent``. Board drawings are our own
(:mod:`hexarena.results.board_svg`): one empty board per game and size, which
the viewer fills from compact per-ply data (:mod:`hexarena.results.replay_data`).
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from importlib.resources import files
from pathlib import Path

import jinja2
from markupsafe import Markup

from hexarena.results.board_svg import STYLE, board_template
from hexarena.results.records import JournalError, journal_path, read_journal
from hexarena.results.replay import replay_record
from hexarena.results.replay_data import game_data
from hexarena.results.report_sections import rating_groups, sprt_state, terminations
from hexarena.results.sgf_read import SgfError

REPORT_NAME = "report.html"
#: Record fields the games list shows, with their short keys in the page's data.
GAME_FIELDS = {"id": "id", "game": "g", "size": "n", "variant": "v", "first": "f", "second": "s",
               "black": "b", "white": "w", "winner": "win", "result": "r", "termination": "t",
               "reason": "why", "plies": "k", "faulty": "fault", "started": "at", "seconds": "sec"}


class ReportError(ValueError):
    """A folder that cannot be reported on (no journal, unreadable journal)."""


def replay_file(path: Path) -> dict:
    """The viewer data of one SGF record, or ``{"err": reason}`` (the page says why it cannot replay)."""
    try:
        return game_data(replay_record(path.read_text(encoding="utf-8")))
    except (OSError, SgfError, UnicodeDecodeError) as exc:
        return {"err": f"{path.name}: {exc}"}


class ReplayCache:
    """Replayed games by SGF path, size and mtime: a running tournament refreshes its page
    without replaying the games it already drew. Many new records are replayed in
    worker processes (the rules are pure Python: one core replays ~300 games a second)."""

    PARALLEL_FROM = 64

    def __init__(self, parallel: bool = True) -> None:
        self._data: dict[tuple[str, int, int], dict] = {}
        self.parallel = parallel

    def games(self, paths: list[Path]) -> list[dict]:
        """The viewer data of each record, in order."""
        keys = [self._key(p) for p in paths]
        missing = [(k, p) for k, p in zip(keys, paths) if k is not None and k not in self._data]
        workers = min(os.cpu_count() or 1, 8)
        if self.parallel and len(missing) >= self.PARALLEL_FROM and workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                done = pool.map(replay_file, [p for _, p in missing], chunksize=32)
                self._data.update(zip([k for k, _ in missing], done))
        else:
            self._data.update((k, replay_file(p)) for k, p in missing)
        return [self._data[k] if k is not None else {"err": f"{p.name}: the record is missing"}
                for k, p in zip(keys, paths)]

    @staticmethod
    def _key(path: Path) -> tuple[str, int, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return str(path), st.st_size, st.st_mtime_ns


def write_report(directory: str | os.PathLike, output: str | os.PathLike | None = None,
                 cache: ReplayCache | None = None) -> tuple[Path, int]:
    """Write the page of the tournament in `directory`; return its path and the number of games.

    The file is written through a temporary file and a rename, so a browser
    reloading it never reads half a page. Raises ReportError.
    """
    folder = Path(directory)
    target = Path(output) if output is not None else folder / REPORT_NAME
    html, count = build_page(folder, cache or ReplayCache())
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, target)
    return target, count


def build_page(folder: Path, cache: ReplayCache) -> tuple[str, int]:
    """The HTML text of the page and the number of games in it."""
    errors: list[JournalError] = []
    try:
        records = read_journal(journal_path(folder), errors)
    except OSError as exc:
        raise ReportError(f"{folder}: no readable journal ({exc})") from None
    warnings = [str(e) for e in errors]
    games, boards = [], {}
    recorded = [r for r in records if r.sgf]
    replays = dict(zip((r.id for r in recorded), cache.games([folder / str(r.sgf) for r in recorded])))
    for record in records:
        entry = {short: getattr(record, name) for name, short in GAME_FIELDS.items()}
        if record.id in replays:
            entry.update(replays[record.id])
            boards.setdefault(f"{record.game}-{record.size}", (record.game, record.size))
        games.append(entry)
    try:
        groups = rating_groups(records)
    except ValueError as exc:              # e.g. no maximum and no prior possible: say so, keep the rest
        groups, warnings = [], warnings + [f"ratings: {exc}"]
    context = {
        "title": f"hexarena report: {folder.resolve().name}",
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "count": len(records), "void": sum(r.void for r in records),
        "groups": groups, "terminations": terminations(records), "sprt": sprt_state(folder),
        "warnings": warnings,
        "data": {"games": games},
        "boards": {key: Markup(board_template(game, size)) for key, (game, size) in sorted(boards.items())},
        "style": Markup(_asset("report.css") + STYLE), "script": Markup(_asset("replay.js")),
    }
    return _environment().get_template("report.html.j2").render(context), len(records)


def _asset(name: str) -> str:
    return files("hexarena.results").joinpath("templates", name).read_text(encoding="utf-8")


_ENV: jinja2.Environment | None = None


def _environment() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        _ENV = jinja2.Environment(loader=jinja2.PackageLoader("hexarena.results", "templates"),
                                  autoescape=True, undefined=jinja2.StrictUndefined,
                                  trim_blocks=True, lstrip_blocks=True)
    return _ENV

