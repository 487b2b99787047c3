"""Inside one worker process of a run: its slots play the games the runner sends.

The runner (:mod:`.workers`) starts ``python -m hexarena.worker`` and
talks to it in frames (:mod:`.wire`) over the worker's stdin and stdout.
In: one :class:`.wire.WorkerSetup`, then ``("play", slot, game)`` for each game,
``("abandon",)`` to stop at once; end of input ends the worker after the
games it holds (the runner sends it only when none is in flight). Out:
``("ready",)``; ``("record", id, record, overheads, slot, kept)`` once per game, its SGF
already written under the output folder (:func:`.run.play_scheduled`, exactly
as in the runner's own process), with the start numbers of the engines its slot
keeps for later games (the runner forgets the numbers of the others); ``("plies", {id: plies})`` for the games in
flight, at most every :data:`PLY_TICK` seconds; ``("live", pid, started)``
for every engine process group started and stopped, which the runner writes
to its ``engines.live`` (so that no engine outlives the run); ``("error", id,
text, stops)`` when playing a game raised: the run's own stop (TournamentError:
a file of the folder the disk refused; `stops` True, `text` its message) or a
referee bug (its traceback); either is fatal to the run as it would be in the
runner's process.

Each slot keeps its own engines (:class:`.pool.EnginePool`, numbered by this
process's :class:`.pool.StartCounter`; the runner maps the numbers to the run's).
"""
from __future__ import annotations

import math
import traceback
from collections.abc import Callable
from functools import partial
from typing import cast

import trio

from ..engines import leftovers
from .pool import EnginePool, StartCounter
from .folder import TournamentError
from .run import play_scheduled, slot_pool
from .schedule import ScheduledGame
from .wire import Frames, WorkerSetup, frame

__all__ = ["PLY_TICK", "serve"]

PLY_TICK = 0.1      # seconds between two reports of the games' plies (the live view redraws twice a second)


class _Relay:
    """This process's engine groups, told to the runner (its :class:`~..engines.leftovers.LiveEngines`)."""

    def __init__(self, say: Callable[[tuple], None]):
        self._say = say

    def add(self, pid: int) -> None:
        self._say(("live", pid, True))

    def remove(self, pid: int) -> None:
        self._say(("live", pid, False))


async def serve(inbox: trio.abc.ReceiveStream, outbox: trio.abc.SendStream) -> None:
    """Serve one runner until the end of its input, or until it says abandon."""
    frames = Frames(inbox)
    setup = await frames.next()
    if setup is None:
        return                  # started early (workers.started_early) and not used: the run did not start
    if not isinstance(setup, WorkerSetup):
        raise SystemExit(f"hexarena.worker: expected a WorkerSetup first, got {type(setup).__name__}")
    say, said = trio.open_memory_channel[tuple](math.inf)
    plies: dict[str, int] = {}
    queues: dict[int, trio.MemorySendChannel[ScheduledGame]] = {}
    counter = StartCounter()
    with leftovers.recording(_Relay(say.send_nowait)):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_send, said, outbox)
            async with trio.open_nursery() as ticking:
                ticking.start_soon(_tick, plies, say)
                async with trio.open_nursery() as slots:
                    for slot in setup.slots:
                        send, receive = trio.open_memory_channel[ScheduledGame](1)
                        queues[slot] = send
                        pool = slot_pool(setup.launcher, counter, setup.config, slot, setup.affinity)
                        slots.start_soon(_slot, slot, receive, pool, setup, plies, say.send_nowait)
                    say.send_nowait(("ready",))
                    while (message := await frames.next()) is not None:
                        if cast(tuple, message)[0] == "abandon":
                            nursery.cancel_scope.cancel()
                            break
                        _, slot, game = cast(tuple[str, int, ScheduledGame], message)
                        queues[slot].send_nowait(game)       # one game at a time per slot: never full
                    for send in queues.values():
                        send.close()
                ticking.cancel_scope.cancel()
            say.close()                 # the sender writes what is left, then ends


async def _slot(slot: int, games: trio.MemoryReceiveChannel[ScheduledGame], pool: EnginePool,
                setup: WorkerSetup, plies: dict[str, int], say: Callable[[tuple], None]) -> None:
    async with games, pool:
        async for game in games:
            overheads: list[float] = []
            try:
                record = await play_scheduled(game, setup.config, setup.out, pool, partial(plies.__setitem__, game.id),
                                              overheads.append if setup.overhead else None)
            except TournamentError as exc:      # the run's own stop (a full disk), said as it is
                say(("error", game.id, str(exc), True))
                continue
            except Exception:
                say(("error", game.id, traceback.format_exc(), False))
                continue
            plies.pop(game.id, None)
            say(("record", game.id, record, overheads, slot, pool.kept()))


async def _tick(plies: dict[str, int], say: trio.MemorySendChannel[tuple]) -> None:
    """Every PLY_TICK seconds, the plies of the games that moved since the last report."""
    while True:
        await trio.sleep(PLY_TICK)
        if plies:
            say.send_nowait(("plies", dict(plies)))
            plies.clear()


async def _send(said: trio.MemoryReceiveChannel[tuple], outbox: trio.abc.SendStream) -> None:
    """Write the messages in order, those waiting together in one write."""
    async with said:
        async for message in said:
            batch = [frame(message)]
            while True:
                try:
                    batch.append(frame(said.receive_nowait()))
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
            await outbox.send_all(b"".join(batch))
