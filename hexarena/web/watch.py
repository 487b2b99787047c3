"""What a server knows of one tournament folder, kept current by polling its files, and the
events it pushes to the browsers that watch it.

:class:`FolderWatch` reads the journal's new whole lines (records: the finished games) and
every live file (:mod:`.live_game`: the games in flight), and refits the standings
(results/rating, through the report's sections) in a worker thread whenever games finished.
A page that connects gets the standings, the games in flight and the newest PAGE finished
games; older ones are read back from the journal by page (:meth:`FolderWatch.page`): per
finished game the watch keeps its rating row and its line's place, never its record.
Nothing here writes to the folder: the journal, SGF and live files belong to the referee,
which may run in another process. :class:`Hub` fans each change out to the connected pages
as Server-Sent Events, encoded once; a page too slow to keep up is dropped (its browser
reconnects and starts from a fresh snapshot). A game in flight whose folder no process holds
(its run was killed: nothing will journal it) is shown as stopped (:meth:`FolderWatch.stopped_note`).
"""
from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from hexarena.referee.tournament.folder import CONFIG_NAME
from hexarena.referee.tournament.folder_lock import holder
from hexarena.referee.tournament.live_files import LIVE_DIR
from hexarena.results.page.report_sections import rating_groups_of_rows
from hexarena.results.rating.row import game_row
from hexarena.results.record.files import FileLimitError, open_regular
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JOURNAL_NAME, parse_summary

from .live_game import LiveGame

#: Seconds between two looks at a folder's files (the latency of an update is about half this).
POLL = 0.05
#: After a fit of the standings, the seconds before the next: at least FIT_PAUSE, and FIT_SHARE
#: times the fit's own time (a fast tournament's games wait for the next fit, not one fit each).
FIT_PAUSE, FIT_SHARE = 1.0, 4.0
#: A journal grown by more bytes than this is read in a worker thread (a few records' worth).
THREAD_BYTES = 64 << 10
#: The most bytes of journal lines one read takes (a long journal is read over several polls,
#: holding one read's summaries at a time).
READ_BYTES = 4 << 20
#: Seconds between two looks, while games are in flight, at whether a process holds the folder.
HOLDER_EVERY = 1.0
#: Events a page may have waiting before it is dropped.
BACKLOG = 512
#: Finished games in a folder page's first message and in each page of ``/t/KEY/finished``.
PAGE = 50


def sse(kind: str, data: object) -> bytes:
    """One Server-Sent Event: `event: KIND` and its data as one line of JSON."""
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


@dataclass(eq=False)
class Subscriber:
    """A connected page: the events of the whole folder, or of one game only (`game`)."""

    send: trio.MemorySendChannel[bytes]
    game: str | None = None


class Hub:
    """The pages watching one folder."""

    def __init__(self) -> None:
        self.subscribers: set[Subscriber] = set()

    def subscribe(self, game: str | None = None) -> tuple[Subscriber, trio.MemoryReceiveChannel[bytes]]:
        send, receive = trio.open_memory_channel[bytes](BACKLOG)
        subscriber = Subscriber(send, game)
        self.subscribers.add(subscriber)
        return subscriber, receive

    def leave(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)
        subscriber.send.close()

    def wants(self, game: str) -> bool:
        return any(s.game == game for s in self.subscribers)

    def publish(self, kind: str, data: object, game: str | None = None) -> None:
        """Send to every page of the folder (`game` None), or to the pages of `game` only."""
        if not self.subscribers:
            return
        message = sse(kind, data)
        for subscriber in list(self.subscribers):
            if subscriber.game != game:
                continue
            try:
                subscriber.send.send_nowait(message)
            except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
                self.leave(subscriber)


def record_row(record: GameRecord) -> dict[str, Any]:
    """A finished game as the games list shows it."""
    return {"id": record.id, "game": record.game, "size": record.size, "variant": record.variant,
            "first": record.first, "second": record.second, "black": record.black, "white": record.white,
            "result": record.result, "termination": str(record.termination), "plies": record.plies,
            "reason": record.reason, "void": record.void, "replay": bool(record.sgf)}


def standings_of(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Each rating pool's table (pooled first): Elo with its 95% interval, games, W/L/D, score."""
    return standings_of_rows([game_row(r) for r in records if not r.void])


def standings_of_rows(rows: Sequence[tuple]) -> list[dict[str, Any]]:
    """:func:`standings_of` from the non-void records' rating rows (:func:`game_row`)."""
    try:
        groups = rating_groups_of_rows(rows)
    except ValueError as exc:                   # no maximum and no prior: say so
        return [{"title": "ratings", "games": len(rows), "ratings": [], "error": str(exc)}]
    return [{"title": g["title"], "games": g["games"], "ratings": [_finite(r) for r in g["ratings"]]}
            for g in groups]


def _finite(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}


@dataclass
class JournalNews:
    """What a read of the journal found: its inode, the offset read up to, whether it was read
    from the start (a new or repaired journal), the records with their lines' (offset, length)."""

    inode: int
    offset: int
    restart: bool
    records: list[tuple[GameRecord, int, int]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    size: int = 0               # the journal's size as read (past `offset`: a line not ended yet)
    more: bool = False          # stopped after READ_BYTES: whole lines past `offset` remain


class FolderWatch:
    """One tournament folder: finished games, games in flight, standings (see the module docstring)."""

    def __init__(self, path: Path, fit: Callable[[Sequence[tuple]], list[dict]] = standings_of_rows):
        """`fit`: the standings from the counted records' rating rows (:func:`game_row`)."""
        self.path = path
        self.fit = fit
        self.hub = Hub()
        # per finished game, no record: its rating row (counted, non-void records), the place of its
        # last journal line, and its slot in `order` (journal order of the games' last lines; the
        # slot of a line replaced by a later one of its game is None): what pages are read from
        self.rows: list[tuple] = []
        self.lines: dict[str, tuple[int, int]] = {}  # game id -> (offset, length) of its last journal line
        self.order: list[str | None] = []
        self._slot: dict[str, int] = {}
        self.warnings: list[str] = []
        self.live: dict[Path, LiveGame] = {}
        self.stopped: str | None = None              # why the games in flight stand still (no process holds the folder)
        self._looked = -math.inf                     # time.monotonic() of the last look at the folder's holder
        self.standings: list[dict[str, Any]] = []
        self.fitted = 0                              # records the standings were fitted on
        self._journal: tuple[int | None, int] = (None, 0)     # (inode, offset read up to)
        self._counted: set[str] = set()              # ids with a counted record (journal.Counted)
        self._tail: tuple[int, int] | None = None    # (inode, size) of a journal read up to an unended line

    # -- the files ---------------------------------------------------------------------------

    def poll(self) -> bool:
        """Read what changed since the last poll (the whole journal's news, READ_BYTES at a
        time) and publish it; True when games finished."""
        if self._unchanged():
            return self._publish([])
        finished = False
        while True:
            news = self._journal_news(self._journal)
            finished = self._publish(self._apply(news)) or finished
            if news is None or not news.more:
                return finished

    def _unchanged(self) -> bool:
        """The journal is as the last read left it with a line not ended (a torn tail, or a line
        being written): nothing to read again until it changes."""
        try:
            st = os.stat(self.path / JOURNAL_NAME)
        except OSError:
            return False
        return self._tail == (st.st_ino, st.st_size)

    async def poll_in_loop(self) -> bool:
        """:meth:`poll` of at most READ_BYTES of news (the next call reads on), with a journal
        grown by more than THREAD_BYTES read and parsed in a worker thread: a long journal
        never holds up the trio loop (beside the referee, `tournament --serve`, that loop
        times the engines)."""
        if self._unchanged():
            return self._publish([])
        try:
            grown = os.stat(self.path / JOURNAL_NAME).st_size - self._journal[1]
        except OSError:
            grown = 0
        if abs(grown) > THREAD_BYTES:
            news = await trio.to_thread.run_sync(self._journal_news, self._journal)
        else:
            news = self._journal_news(self._journal)
        return self._publish(self._apply(news))

    def _publish(self, finished: list[GameRecord]) -> bool:
        for record in finished:
            self.hub.publish("finished", {**record_row(record), "count": len(self.lines)})
            self.hub.publish("finished", record_row(record), game=record.id)
        self._read_live({r.id for r in finished})
        return bool(finished)

    def _journal_news(self, read: tuple[int | None, int]) -> JournalNews | None:
        """The journal's whole lines past `read` (inode, offset), parsed, up to about READ_BYTES
        (then `more`); touches nothing of the watch (it runs in a worker thread). None when
        there is no journal."""
        journal = self.path / JOURNAL_NAME
        try:
            handle = open_regular(journal)
        except FileNotFoundError:
            return None
        with handle:
            stat = os.fstat(handle.fileno())
            known, offset = read
            restart = stat.st_ino != known or stat.st_size < offset     # a new or repaired journal
            if restart:
                offset = 0
            handle.seek(offset)
            news = JournalNews(stat.st_ino, offset, restart)
            position, torn = offset, 0
            for line in handle:                     # lines end at b"\n"; the last may not (torn)
                if not line.endswith(b"\n"):
                    torn = len(line)
                    break
                if line.strip():
                    try:
                        news.records.append((parse_summary(line), position, len(line)))
                    except (ValueError, TypeError) as exc:
                        news.warnings.append(f"{journal}: byte {position}: {exc}")
                position += len(line)
                if position - offset >= READ_BYTES:
                    news.more = position < stat.st_size
                    break
        news.offset, news.size = position, position + torn
        return news

    def _apply(self, news: JournalNews | None) -> list[GameRecord]:
        if news is None:
            return []
        if news.restart:
            self.rows, self.lines, self.order, self._slot, self.warnings, self.fitted = [], {}, [], {}, [], -1
            self._counted = set()
        self._journal = (news.inode, news.offset)
        self._tail = (news.inode, news.size) if news.size > news.offset else None
        self.warnings += news.warnings
        found = []
        for record, position, length in news.records:
            if not record.void:
                if record.id in self._counted:      # as every journal reader: the first counts
                    self.warnings.append(f"{self.path / JOURNAL_NAME}: byte {position}: game id {record.id!r} "
                                         "already has a record: this later one is not counted")
                    continue
                self._counted.add(record.id)
                self.rows.append(game_row(record))
            elif record.id in self._counted:        # a void line after the counted one: not its line
                continue
            self.lines[record.id] = (position, length)
            slot = self._slot.get(record.id)
            if slot is not None:
                self.order[slot] = None
            self._slot[record.id] = len(self.order)
            self.order.append(record.id)
            found.append(record)
        return found

    def _read_live(self, journaled: set[str]) -> None:
        paths = {Path(root) / name for root, _, names in os.walk(self.path / LIVE_DIR)   # errors: none found
                 for name in names if name.endswith(".jsonl")}
        for path in [p for p in self.live if p not in paths]:
            self._gone(self.live.pop(path))
        for path in sorted(paths):
            game = self.live.get(path)
            if game is None:
                game = LiveGame(path)
                game.stopped = self.stopped
            try:
                changed = game.read(lazy=not self.hub.subscribers)
            except FileLimitError as exc:         # a FIFO, a device: skipped, never opened nor followed
                self.warn(f"live file skipped: {exc}")
                self.live.pop(path, None)
                continue
            except OSError:                       # removed between the listing and the read
                if path in self.live:
                    self._gone(self.live.pop(path))
                continue
            self.live[path] = game
            if changed and game.header is not None and game.id not in journaled and self.hub.subscribers:
                view = game.view()
                self.hub.publish("live", view)
                if self.hub.wants(game.id):
                    self.hub.publish("live", view, game=game.id)
                    self.hub.publish("entry", game.entry(), game=game.id)
        self._look_at_holder()

    def _look_at_holder(self) -> None:
        """While games are in flight, every HOLDER_EVERY seconds: whether a process holds the
        folder (folder_lock.holder); each game's `stopped` note follows, republished when it changes."""
        now = time.monotonic()
        if not self.live or now - self._looked < HOLDER_EVERY:
            return
        self._looked = now
        self.stopped = None if holder(self.path) is not None else self.stopped_note()
        for game in self.in_flight():
            if game.stopped == self.stopped:
                continue
            game.stopped = self.stopped
            if self.hub.subscribers:
                view = game.view()
                self.hub.publish("live", view)
                if self.hub.wants(game.id):
                    self.hub.publish("live", view, game=game.id)

    def stopped_note(self) -> str:
        """What a game in flight says when no process holds its folder: nothing plays it any more."""
        note = "stopped: the run that played it ended (no process holds the folder)"
        if (self.path / CONFIG_NAME).exists():
            note += f"; `hexarena tournament --out {self.path} --resume` replays it"
        return note

    def _gone(self, game: LiveGame) -> None:
        if game.header is not None:
            self.hub.publish("gone", {"id": game.id})
            self.hub.publish("gone", {"id": game.id}, game=game.id)

    def warn(self, message: str) -> None:
        if message not in self.warnings[-20:]:
            self.warnings.append(message)

    def in_flight(self) -> list[LiveGame]:
        return sorted((g for g in self.live.values() if g.header is not None), key=lambda g: g.id)

    def game(self, game_id: str) -> LiveGame | None:
        return next((g for g in self.live.values() if g.id == game_id and g.header is not None), None)

    def record_line(self, game_id: str) -> bytes | None:
        """The game's last journal line (the whole record), or None."""
        where = self.lines.get(game_id)
        if where is None:
            return None
        with open(self.path / JOURNAL_NAME, "rb") as handle:
            handle.seek(where[0])
            return handle.read(where[1])

    def summary(self, game_id: str) -> GameRecord | None:
        """The game's last journal line as a summary (:meth:`GameRecord.summary`), or None
        (no such finished game, or its line unreadable)."""
        line = self.record_line(game_id)
        try:
            return None if line is None else parse_summary(line)
        except (ValueError, TypeError):
            return None

    def page(self, before: int | None = None, size: int = PAGE) -> dict[str, Any]:
        """The finished games whose slots in journal order come before `before` (None: all),
        newest first, at most `size`: ``{"finished": rows, "before": the slot to ask from
        next (None: no older game), "count": finished games}``. Each row is read from its
        journal line; a line unreadable since (the journal changed under the watch) is left out."""
        end = len(self.order) if before is None else max(0, min(before, len(self.order)))
        ids: list[str] = []
        while end > 0 and len(ids) < size:
            end -= 1
            if self.order[end] is not None:
                ids.append(self.order[end])             # type: ignore[arg-type]
        rows = []
        if ids:
            try:
                with open(self.path / JOURNAL_NAME, "rb") as handle:
                    for game_id in ids:
                        where = self.lines.get(game_id)       # None: the journal was read anew meanwhile
                        if where is None:
                            continue
                        handle.seek(where[0])
                        try:
                            rows.append(record_row(parse_summary(handle.read(where[1]))))
                        except (ValueError, TypeError):
                            continue
            except OSError:
                pass
        while end > 0 and self.order[end - 1] is None:     # replaced lines: no game older there
            end -= 1
        older = end > 0
        return {"finished": rows, "before": end if older else None, "count": len(self.lines)}

    def snapshot(self) -> dict[str, Any]:
        """What a folder page shows when it connects: the standings, the games in flight and the
        newest PAGE finished games (:meth:`page`; older ones are asked for by page)."""
        page = self.page()
        return {"name": self.path.resolve().name, "standings": self.standings, "warnings": self.warnings[-20:],
                "live": [g.view() for g in self.in_flight()], "finished": page["finished"],
                "before": page["before"], "finished_count": page["count"]}

    # -- the task ----------------------------------------------------------------------------

    async def run(self, interval: float = POLL) -> None:
        """Poll every `interval` seconds until cancelled; refit the standings in a thread after
        games finished (one fit at a time, paced by FIT_PAUSE and FIT_SHARE; games finished
        meanwhile wait for the next)."""
        async with trio.open_nursery() as nursery:
            fitting = False

            async def refit() -> None:
                nonlocal fitting
                while self.fitted != len(self.rows):
                    rows = list(self.rows)
                    t0 = trio.current_time()
                    self.standings = await trio.to_thread.run_sync(self.fit, rows)
                    self.fitted = len(rows)
                    self.hub.publish("standings", self.standings)
                    await trio.sleep(max(FIT_PAUSE, FIT_SHARE * (trio.current_time() - t0)))
                fitting = False

            while True:
                try:
                    await self.poll_in_loop()
                except Exception as exc:            # the folder is outside data: say so, keep serving
                    self.warn(f"{self.path}: {exc!r}")
                if self.fitted != len(self.rows) and not fitting:
                    fitting = True
                    nursery.start_soon(refit)
                await trio.sleep(interval)
