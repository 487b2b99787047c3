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

import os
import re
from datetime import datetime, timezone
from pathlib import Path

import jinja2
from markupsafe import Markup

from hexarena.engine import registry
from hexarena.engine.errors import UnknownGame
from hexarena.results.page.analysis_data import analysis_data
from hexarena.results.page.board_svg import STYLE, board_template
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalError, journal_path, read_journal
from hexarena.results.page.replay_cache import ReplayCache
from hexarena.results.page.report_sections import (faults, identities, opening_sections, rating_groups,
                                                   sprt_state, terminations)

REPORT_NAME = "report.html"
TEMPLATE = "report.html.j2"
#: Record fields the games list shows, with their short keys in the page's data.
GAME_FIELDS = {"id": "id", "game": "g", "size": "n", "variant": "v", "first": "f", "second": "s",
               "black": "b", "white": "w", "winner": "win", "result": "r", "termination": "t",
               "reason": "why", "plies": "k", "faulty": "fault", "started": "at", "seconds": "sec"}
#: The viewer's scripts (templates/), in their order in the page; `hexarena serve` loads the same.
VIEWER_SCRIPTS = ("analysis.js", "replay.js")


#: A journal as the page reads it (``read_journal(path, errors, summary=True, keep_moves=needs_moves)``,
#: or whole): its records and its unreadable lines.
Journal = tuple[list[GameRecord], list[JournalError]]


class ReportError(ValueError):
    """A folder that cannot be reported on (no journal, unreadable journal)."""


def write_report(directory: str | os.PathLike, output: str | os.PathLike | None = None,
                 cache: ReplayCache | None = None, warnings: list[str] | None = None,
                 journal: Journal | None = None) -> tuple[Path, int]:
    """Write the page of the tournament in `directory`; return its path and the number of games.

    What the page warns about (unreadable journal lines, as ``FILE:LINE: reason``) is also
    appended to `warnings` when it is a list, for the terminal. `journal`: the folder's journal as
    the caller read it already (:data:`Journal`), else it is read here. The file is written through
    a temporary file and a rename, so a browser reloading it never reads half a page. Raises ReportError
    (no readable journal; a game of its records that this process does not know).
    """
    folder = Path(directory)
    target = Path(output) if output is not None else folder / REPORT_NAME
    html, count = build_page(folder, cache or ReplayCache(folder), warnings, journal)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, target)
    return target, count


def build_page(folder: Path, cache: ReplayCache, notices: list[str] | None = None,
               journal: Journal | None = None) -> tuple[str, int]:
    """The HTML text of the page and the number of games in it; its warnings are appended to `notices`.
    `journal`: the folder's journal read already (:data:`Journal`), else it is read here."""
    errors: list[JournalError] = []
    if journal is not None:
        records, errors = journal
    else:
        try:
            records = read_journal(journal_path(folder), errors, summary=True, keep_moves=needs_moves)
        except OSError as exc:
            raise ReportError(f"{folder}: no readable journal ({exc})") from None
    _known_games(folder, records)
    warnings = [str(e) for e in errors]
    games: list[dict] = []
    boards: dict[str, tuple[str, int]] = {}
    recorded = [r for r in records if r.sgf]
    replays = dict(zip((r.id for r in recorded), cache.games([str(r.sgf) for r in recorded])))
    for record in records:
        entry = game_entry(record, replays.get(record.id))
        if record.id in replays:
            if "err" in entry:                # never read, or not replayed: say so at the top
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
        "groups": groups, "terminations": terminations(records), "faults": faults(records),
        "identities": identities(records), "sprt": sprt_state(folder),
        "openings": opening_sections(records, folder),
        "warnings": warnings,
        "data": {"games": games},
        "boards": {key: Markup(board_template(game, size)) for key, (game, size) in sorted(boards.items())},
        "style": Markup(_asset("report.css") + STYLE), "script": Markup("\n".join(map(_asset, VIEWER_SCRIPTS))),
    }
    return _environment().get_template(TEMPLATE).render(context), len(records)


def _known_games(folder: Path, records: list[GameRecord]) -> None:
    """ReportError naming the first game of the records that this process does not know (a game
    added by HEXARENA_GAMES, the setting unset or other here): its records can be neither
    replayed nor drawn."""
    for game in dict.fromkeys(r.game for r in records):
        try:
            registry.get(game)
        except UnknownGame as exc:
            raise ReportError(f"{folder}: its games of {game!r} cannot be replayed or drawn: "
                              f"the game is not known here: {exc}") from None


#: The engines' analysis in a journal line: a move's `i` holding an info line (schema 3; an engine
#: asked with `genmove_analyze` that gave none has `"i": []`, which shows nothing), or the
#: `analysis` list of schema 1 and 2. Outside a key no text of a line matches: a quote inside a
#: string is escaped.
_ANALYSIS_KEY = re.compile(rb'"i"\s*:\s*\[\s*\{|"analysis"\s*:')


def needs_moves(record: GameRecord, line: bytes) -> bool:
    """Whether the page reads a record's moves: the tokens of its opening (the openings' tables)
    or the engines' analysis of its actions (the viewer). The viewer's positions come from the
    SGF records, not from the journal."""
    return bool(record.opening) or _ANALYSIS_KEY.search(line) is not None


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
    """The page's jinja2 environment; its compiled templates are kept by jinja2's bytecode cache
    (a folder of this user's in the temporary directory), so a process compiles them once per change."""
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


def load_template() -> None:
    """Load the page's template now (a run does it while its games play, for its final page)."""
    _environment().get_template(TEMPLATE)
