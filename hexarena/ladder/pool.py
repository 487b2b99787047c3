"""One pool of the ladder: an ordinary tournament folder DIR/<pool>/ and the games played in it.

The folder holds ``tournament.json`` (the pool as a tournament: its game, clock and anchors),
``journal.jsonl`` (one writer: this pool), ``games/ID.sgf``, ``logs/`` and ``live/``, so that
``hexarena ratings``, ``status``, ``report`` and ``serve`` read it unchanged. Game ids are
``<pool>-NNNNNN``, numbered from the ledger (SQLite) so a restart never reuses one.

Every game runs through the referee's :func:`play_scheduled` (the turn loop, clocks,
adjudication, SGF and live file of a local game); a remote seat's engine is a
:class:`~.remote.RemoteEngine` channel, its limits widened by the pool's network allowance
(``network`` seconds on its margin and on each command's deadline; its first command gets a
command's deadline, not a start's: the bridge's engine is already running).

A game still marked playing in the ledger when the server starts was in flight at a stop or a
crash: it is voided (a void record in the journal, cause ``referee``: never rated) unless its
record reached the journal, which counts.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

import trio

from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.game.clock import Limits
from hexarena.referee.tournament import live_files
from hexarena.referee.tournament.config import EngineSpec, to_dict
from hexarena.referee.tournament.folder import CONFIG_NAME
from hexarena.referee.tournament.folder_lock import hold_folder
from hexarena.referee.tournament.run import play_scheduled, process_launcher
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.results.record.game import GameRecord, VoidCause
from hexarena.results.rating.row import game_row
from hexarena.results.record.journal import JOURNAL_NAME, JournalWriter, cut_torn_tail, iter_journal, write_atomic

from .accounts import Ledger
from .config import LadderConfig, PoolSpec
from .standings import Standing, fit

#: Opens the remote engine of `account` for game `game_id` (the hub's side).
RemoteOpen = Callable[[str, str, str], AbstractAsyncContextManager[EngineChannel]]
REMOTE_CMD = ("remote",)
REFIT_GAP = 2.0         # seconds between two fits of a pool's standings


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
        self._numbered = 0

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
        for game, pool in self.ledger.orphans():
            if pool != self.spec.name:
                continue
            if game not in journaled:
                row = self.ledger.db.execute("SELECT first, second FROM games WHERE id = ?", (game,)).fetchone()
                record = GameRecord.voided(id=game, game=self.spec.game, size=self.spec.size, variant=self.spec.variant,
                                           first=row[0], second=row[1], cause=VoidCause.REFEREE,
                                           reason="the ladder server stopped during the game")
                self.writer.append(record)
                self._note(record)
            self.ledger.ended(game, "void" if game not in journaled else "done")

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
        """The id of the pool's next game (numbered from the ledger, so never reused)."""
        number = max(self.ledger.count(self.spec.name), self._numbered)
        self._numbered = number + 1
        return f"{self.spec.name}-{number:06d}"

    async def play(self, game_id: str, first: str, second: str, remote: RemoteOpen) -> GameRecord:
        """Play one game between two players (accounts or anchors) and journal it."""
        number = int(game_id.rpartition("-")[2])
        self.ledger.started(game_id, self.spec.name, first, second)
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
        finally:
            self.in_flight.pop(game_id, None)
        live_files.remove(self.out, game_id)
        self.ledger.ended(game_id, "void" if record.void else "done")
        self._note(record)
        self._save_config()
        self.stale.set()
        return record

    def close(self) -> None:
        self.writer.close()
        self._held.close()

