"""One pool of the ladder: an ordinary tournament folder DIR/<pool>/ and the games played in it.

The folder holds ``tournament.json`` (the pool as a tournament: its game, clock and anchors),
``journal.jsonl`` (one writer: this pool), ``games/ID.sgf``, ``logs/`` and ``live/``, so that
``hexarena ratings``, ``status``, ``report`` and ``serve`` read it unchanged. Game ids are
``<pool>-NNNNNN``, numbered at start past every id the ledger (SQLite), the journal and the
folder's files hold, so neither a restart nor a restore from a backup (whose ledger may be older
than its journal) reuses one.

Every game runs through the referee's :func:`play_scheduled` (the turn loop, clocks,
adjudication, SGF and live file of a local game); a remote seat's engine is a
:class:`~.remote.RemoteEngine` channel, its limits widened by the pool's network allowance
(``network`` seconds on its margin and on each command's deadline; its first command gets a
command's deadline, not a start's: the bridge's engine is already running).

A game still marked playing in the ledger when the server starts was in flight at a stop or a
crash: it is voided (a void record in the journal, cause ``referee``: never rated) unless its
record reached the journal, which counts.

The journal is the truth: once a game's line is written the game counts (standings, bridges
told), and the ledger is told after (a ledger that cannot be written then catches up at a later
round, or at the next start). A failure of the server's own holds the pool (:attr:`Pool.held`):
it starts no game, said once, until the condition clears (the ledger takes a game's start again;
the folder has room for the journal to grow).
"""
from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

import trio

from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.game.clock import Limits
from hexarena.referee.tournament import live_files
from hexarena.referee.tournament.config import EngineSpec, to_dict
from hexarena.referee.tournament.folder import CONFIG_NAME, TournamentError
from hexarena.referee.tournament.folder_lock import hold_folder
from hexarena.referee.tournament.run import play_scheduled, process_launcher
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.results.record.game import GameRecord, VoidCause
from hexarena.results.rating.row import game_row
from hexarena.results.record.journal import JOURNAL_NAME, JournalWriter, cut_torn_tail, iter_journal, write_atomic

from .accounts import Ledger, StoreError
from .config import LadderConfig, PoolSpec
from .standings import Standing, fit

#: Opens the remote engine of `account` for game `game_id` (the hub's side).
RemoteOpen = Callable[[str, str, str], AbstractAsyncContextManager[EngineChannel]]
REMOTE_CMD = ("remote",)
REFIT_GAP = 2.0         # seconds between two fits of a pool's standings
ROOM = 1 << 16          # bytes a held pool's journal must be able to grow past its size before games start again


@dataclass
class Summary:
    """What the pages keep of a finished game (the journal holds the rest)."""

    id: str
    first: str
    second: str
    winner: str | None
    result: str
    reason: str
    plies: int
    void: bool
    identities: list | None


def allowance(limits: Limits, network: float) -> Limits:
    """A remote seat's limits: `network` seconds more on the margin and each command; its first
    command has a command's deadline, not a start's (the bridge's engine is running already)."""
    return replace(limits, margin=limits.margin + network, start=limits.command + network,
                   command=limits.command + network)


class Pool:
    """The folder, journal, history and standings of one pool (its games are played by
    :meth:`play`; the rounds are the server's)."""

    def __init__(self, spec: PoolSpec, config: LadderConfig, data: Path, ledger: Ledger, say: Callable[[str], None]):
        self.spec, self.config, self.ledger, self.say = spec, config, ledger, say
        self.out = data / spec.name
        self._held = ExitStack()            # the folder's lock, as a run's: no run nor repair writes there meanwhile
        self._held.enter_context(hold_folder(self.out))
        self.tournament = spec.tournament(config.adjudication)
        torn = cut_torn_tail(self.out / JOURNAL_NAME) if (self.out / JOURNAL_NAME).exists() else None
        if torn:
            say(f"{spec.name}: {torn}")
        self.finished: list[Summary] = []
        self.rows: list[tuple] = []             # a rating row per rated game (standings.fit)
        self.games_of: dict[str, list[int]] = {}  # player -> its games' places in `finished`
        self.identities_of: dict[str, dict[str, int]] = {}  # player -> its engines' identities -> games
        self.by_id: dict[str, Summary] = {}
        self.last: dict[str, str] = {}          # player -> its last opponent
        self.balance: dict[str, int] = {}       # player -> firsts minus seconds
        if (self.out / JOURNAL_NAME).exists():
            for r in iter_journal(self.out / JOURNAL_NAME, summary=True):     # no moves: a pool grows without end
                self._note(r)
        self._saved: set[str] = set()
        self._save_config()
        live_files.clear(self.out)
        self.writer = JournalWriter(self.out / JOURNAL_NAME)
        self._void_orphans()
        self.standings: list[Standing] = []
        self.in_flight: dict[str, tuple[str, str]] = {}
        self.rng = random.Random()
        self.stale = trio.Event()                 # games ended since the last fit
        self._numbered = self._first_free()
        self.held: str | None = None              # why the pool starts no game (a failure of the server's own)
        self.behind: dict[str, str] = {}          # game -> the state the ledger has yet to record

    def _save_config(self) -> None:
        """tournament.json: the pool as a tournament whose engines are its anchors and every account
        that has played in it (a remote engine's command is ``remote``), rewritten as players join."""
        players = set(self.spec.anchors) | {name for g in self.finished for name in (g.first, g.second)}
        if players == self._saved or len(players) < 2:
            return
        remote = sorted(players - set(self.spec.anchors))
        engines = self.tournament.engines + tuple(EngineSpec(n, REMOTE_CMD) for n in remote)
        write_atomic(self.out / CONFIG_NAME, json.dumps(to_dict(replace(self.tournament, engines=engines)),
                                                        indent=2) + "\n")
        self._saved = players

    @property
    def anchor(self) -> str | None:
        return self.spec.anchors[0] if self.spec.anchors else None

    def _note(self, r: GameRecord) -> None:
        summary = Summary(r.id, r.first, r.second, r.winner, r.result, r.reason, r.plies, r.void, r.identities)
        for seat, name in enumerate((r.first, r.second)):
            self.games_of.setdefault(name, []).append(len(self.finished))
            said = r.identities[seat] if r.identities else None
            if said:
                key = " ".join(str(w) for w in said if w)
                counts = self.identities_of.setdefault(name, {})
                counts[key] = counts.get(key, 0) + 1
        self.finished.append(summary)
        self.by_id[r.id] = summary
        if not r.void:
            self.rows.append(game_row(r))
            self.last[r.first], self.last[r.second] = r.second, r.first
            self.balance[r.first] = self.balance.get(r.first, 0) + 1
            self.balance[r.second] = self.balance.get(r.second, 0) - 1

    def _void_orphans(self) -> None:
        """Void the games the ledger shows playing with no record in the journal."""
        journaled = {s.id for s in self.finished}
        for game, pool, first, second in self.ledger.orphans():
            if pool != self.spec.name:
                continue
            if game not in journaled:
                record = GameRecord.voided(id=game, game=self.spec.game, size=self.spec.size, variant=self.spec.variant,
                                           first=first, second=second, cause=VoidCause.REFEREE,
                                           reason="the ladder server stopped during the game")
                self.writer.append(record)
                self._note(record)
            self.ledger.ended(game, "void" if game not in journaled else "done")

    def _first_free(self) -> int:
        """The number past every game id of the pool in the ledger, the journal, games/ and logs/."""
        number = re.compile(re.escape(self.spec.name) + r"-(\d+)")
        names = self.ledger.ids(self.spec.name) + list(self.by_id)
        for folder in ("games", "logs"):
            if (self.out / folder).is_dir():
                names += [p.name for p in (self.out / folder).iterdir()]
        return max((int(m.group(1)) for n in names if (m := number.match(n))), default=-1) + 1

    async def refit(self) -> None:
        self.standings = await trio.to_thread.run_sync(fit, self.rows[:], self.anchor, self.config.provisional)

    async def refits(self) -> None:
        """Refit the standings after games end, at most once every :data:`REFIT_GAP` seconds."""
        while True:
            await self.stale.wait()
            self.stale = trio.Event()
            await self.refit()
            await trio.sleep(REFIT_GAP)

    def rating(self) -> dict[str, float]:
        return {s.name: s.elo for s in self.standings}

    def next_id(self) -> str:
        """The id of the pool's next game (numbered past every id the pool has used: never reused)."""
        number, self._numbered = self._numbered, self._numbered + 1
        return f"{self.spec.name}-{number:06d}"

    def _hold(self, why: str) -> None:
        if self.held is None:
            self.say(f"pool {self.spec.name}: no game starts until this clears: {why}")
        self.held = why

    def _room(self) -> None:
        """OSError unless the journal could grow by ROOM bytes (a full disk, a file-size limit)."""
        probe = self.out / ".room"
        size = (self.out / JOURNAL_NAME).stat().st_size + ROOM
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            if hasattr(os, "posix_fallocate"):
                os.posix_fallocate(fd, 0, size)
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)

    async def ready(self) -> bool:
        """Whether this round may start games: the ledger has caught up, and a held pool's folder
        has room again (:meth:`begin` then tries the ledger)."""
        if not await self.catch_up():
            return False
        if self.held is not None:
            try:
                await trio.to_thread.run_sync(self._room)
            except OSError as exc:
                self._hold(f"{self.out} has no room: {exc}")
                return False
        return True

    async def catch_up(self) -> bool:
        """Tell the ledger how the games it has yet to hear of ended (journaled, or never begun);
        False (the pool held, said once) when it cannot be written."""
        for game, state in list(self.behind.items()):
            try:
                await self.ledger.call(self.ledger.ended, game, state)
            except StoreError as exc:
                self._hold(f"the ledger cannot record that {game} ended (journaled, so it counts; the "
                           f"ledger records it when it can, at the latest at the next start): {exc}")
                return False
            self.behind.pop(game, None)
        return True

    async def begin(self, game_id: str, first: str, second: str) -> bool:
        """Record the game's start in the ledger; False (the pool held, said once) when the ledger
        cannot take it: the game is then not played and nothing of it is recorded."""
        try:
            await self.ledger.call(self.ledger.started, game_id, self.spec.name, first, second)
        except StoreError as exc:
            self._hold(f"{game_id} was not started (nothing of it is recorded): {exc}")
            return False
        if self.held is not None:
            self.say(f"pool {self.spec.name}: games start again (what held it has cleared)")
            self.held = None
        return True

    async def unplayed(self, game_id: str) -> None:
        """A game begun in the ledger whose players were gone before it was told to anyone: void
        in the ledger (not journaled: it never began)."""
        self.behind[game_id] = "void"
        await self.catch_up()

    async def play(self, game_id: str, first: str, second: str, remote: RemoteOpen) -> GameRecord:
        """Play one game begun by :meth:`begin` and journal it; the record returned is what its
        bridges are told. A failure of the server's own (its folder cannot be written) holds the
        pool and makes the game void: journaled as void if the journal takes it, else left playing
        in the ledger and journaled as void at the next start."""
        number = int(game_id.rpartition("-")[2])
        self.in_flight[game_id] = (first, second)
        anchors = set(self.spec.anchors)
        engines = []
        for name in (first, second):
            if name in anchors:
                engines.append(EngineSpec(name, self.tournament.engine(name).cmd))
            else:
                engines.append(EngineSpec(name, REMOTE_CMD, time=allowance(self.spec.limits, self.spec.network)))
        config = replace(self.tournament, engines=tuple(engines))
        game = ScheduledGame(game_id, self.spec.game, self.spec.size, self.spec.variant, first, second,
                             (self.rng.randrange(1 << 31), self.rng.randrange(1 << 31)), self.spec.komi,
                             slot=(self.spec.name, 0, 0, number))

        def launcher(spec: EngineSpec, seed: int, log: Path) -> AbstractAsyncContextManager[EngineChannel]:
            if spec.cmd == REMOTE_CMD:
                return remote(spec.name, game_id, self.spec.name)
            return process_launcher(spec, seed, log)

        try:
            record = await play_scheduled(game, config, self.out, launcher)
            await trio.to_thread.run_sync(self.writer.append, record)
        except Exception as exc:          # the server's own failure (a full disk): this game only
            return await self._failed(game_id, first, second, exc)
        finally:
            self.in_flight.pop(game_id, None)
        try:
            live_files.remove(self.out, game_id)
        except OSError:
            pass
        self._counted(record)
        return record

    async def _failed(self, game_id: str, first: str, second: str, exc: Exception) -> GameRecord:
        """The void record of a game the server failed to play or journal (`exc`), journaled if it can be."""
        cause = exc.__cause__ if isinstance(exc, TournamentError) else None
        if isinstance(cause, OSError):      # a file of the pool's folder: the tournament's advice is not a ladder's
            why = f"the server failed: cannot write {cause.filename or self.out}: {cause.strerror or cause}"
        else:
            why = f"the server failed: {type(exc).__name__}: {exc}"
        self._hold(f"{game_id}: {why}")
        record = GameRecord.voided(id=game_id, game=self.spec.game, size=self.spec.size, variant=self.spec.variant,
                                   first=first, second=second, cause=VoidCause.REFEREE, reason=why)
        try:
            await trio.to_thread.run_sync(self.writer.append, record)
        except OSError as again:
            self.say(f"{game_id}: void ({why}); its void record could not be journaled either ({again}): "
                     "the ledger keeps it playing, and the next start journals it as void")
            return record
        self.say(f"{game_id}: void, journaled so ({why})")
        self._counted(record)
        return record

    def _counted(self, record: GameRecord) -> None:
        """A game whose line is in the journal counts: noted, the standings refitted; the ledger
        hears of it at :meth:`catch_up` (after the bridges, or at a later round, or the next start)."""
        self._note(record)
        self.stale.set()
        try:
            self._save_config()
        except OSError as exc:
            self.say(f"{self.spec.name}: cannot rewrite {CONFIG_NAME} ({exc}): it is at a later game")
        self.behind[record.id] = "void" if record.void else "done"

    def close(self) -> None:
        self.writer.close()
        self._held.close()
