"""The ladder's state and its rounds: the store, the hub of connections, the pools; every
`interval` seconds each pool pairs its idle connections (:mod:`.pairing`) and starts their games,
each told to its bridges when it ends (however it ends). A pool held by a failure of the server's
own (:attr:`.Pool.held`) pairs nobody until it clears."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack, closing
from pathlib import Path

import trio

from hexarena.referee.tournament.folder_lock import hold_folder

from . import wire
from .accounts import Ledger, Store
from .config import LadderConfig
from .hub import Hub
from .pairing import pair_round
from .pool import Pool


class Ladder:
    """The server's state: its store, hub and pools."""

    def __init__(self, config: LadderConfig, data: Path, log: Callable[[str], None]):
        self.config, self.data, self.log = config, data, log
        self._held = ExitStack()        # closed in reverse: the pools, the store, DIR's lock
        try:                            # DIR's lock: one server a folder (a second would void the first's games)
            self._held.enter_context(hold_folder(data))
            self.store = self._held.enter_context(closing(Store(data)))
            self.ledger = self._held.enter_context(closing(Ledger(self.store.path)))
            self._void_removed()
            self.pools = {spec.name: self._held.enter_context(closing(Pool(spec, config, data, self.ledger, log)))
                          for spec in config.pools}
        except BaseException:
            self._held.close()
            raise
        self.hub = Hub(config, self.store, self.ledger, log)
        self.ws_url = ""                    # the bridges' address, once it listens

    def _void_removed(self) -> None:
        """Void in the ledger the games still marked playing in a pool the config no longer has
        (their folder is left as it is: nothing of them reached its journal)."""
        known = {spec.name for spec in self.config.pools}
        for game, pool, first, second in self.ledger.orphans():
            if pool not in known:
                self.ledger.ended(game, "void")
                self.log(f"{game} ({first} - {second}) was in flight at the last stop in pool {pool!r}, which the "
                         "config no longer has: void in the ledger (its folder is left as it is)")

    async def rounds(self, pool: Pool, nursery: trio.Nursery) -> None:
        """Pair the pool's idle connections every `interval` seconds and start their games."""
        waited: set[str] = set()          # idle at the previous round too
        while True:
            await trio.sleep(self.config.interval)
            if not await pool.ready():
                waited = set()
                continue
            idle = {link.account: link for link in self.hub.idle(pool.spec.name)}
            games = pair_round(list(idle), pool.spec.anchors, pool.rating(), pool.last, pool.balance, pool.rng,
                               patient=waited)
            waited = set(idle) - {name for game in games for name in game}
            for first, second in games:
                game_id = pool.next_id()
                if not await pool.begin(game_id, first, second):
                    break                           # nothing of it was told to anyone
                links = [idle[name] for name in (first, second) if name in idle]
                if not all(link in self.hub.links and link.idle_in(pool.spec.name) for link in links):
                    await pool.unplayed(game_id)    # a connection left or was paired elsewhere meanwhile
                    continue
                for link in links:
                    self.hub.claim(link, game_id, pool.spec.name)
                nursery.start_soon(self._game, pool, game_id, first, second)

    async def _game(self, pool: Pool, game_id: str, first: str, second: str) -> None:
        try:
            record = await pool.play(game_id, first, second, self.hub.remote)
            if record.void:              # before the connections are idle again: no round pairs them first
                await self.hub.void(game_id, pool.spec.name, record.void_cause, record.faulty, record.reason)
        finally:
            for name in (first, second):
                self.hub.finish(game_id, name)
        sgf = ""
        if record.sgf is not None:
            try:
                sgf = (pool.out / record.sgf).read_text(encoding="utf-8")
            except OSError:
                pass
        line = wire.dump("end", game=game_id, pool=pool.spec.name, first=first, second=second,
                         winner=record.winner, result=record.result, reason=record.reason, sgf=sgf)
        self.log(f"{game_id}: {first} - {second}: {record.result} ({record.reason})")
        await self.hub.ended(line, game_id, [first, second])
        await pool.catch_up()

    def close(self) -> None:
        """Close the pools and the store, and release the folders' locks."""
        self._held.close()
