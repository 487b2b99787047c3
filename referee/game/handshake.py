"""The handshake of one game (docs/tournament.md, "Who is at fault"): both engines, before the opening.

`protocol_version` (its deadline is the start limit), `name` and `version`
(a refusal is fine: the identity is then unknown), `list_games`, `game`,
`boardsize`, `komi` when set, `clear_board`, `list_commands`, then the time
control (`kgs-time_settings` to an engine that lists it, in decimal seconds
to an engine that lists `hgp_version`), `hexarena-seed` when the seat has a
seed and the engine lists it, and last the seat's setup commands, once per
process (a kept process, which answered them in an earlier game, is not sent
them again); a refused setup command voids the game (`unsupported`). Each seat's :class:`Hello` says what its engine
listed and who it said it is. A fault ends the game: it is returned as a :class:`~.faults.Voided` or
:class:`~.faults.Forfeited` value.

To a kept process over a pipe (one that passed a handshake before) the commands up to `list_commands`,
then the time control and the seed as its last `list_commands` chose them, go in one write
(:meth:`~..engines.channel.EngineChannel.command_chain`), each answer still read and judged in turn by
its own deadline, as above. When this game's `list_commands` chooses otherwise (an engine whose list
changed), the commands it chooses are sent after the chain, as to a new process. A new process is asked
one command at a time: its `protocol_version` waits for its start-up.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import trio

from hexarena.engine.core import Termination
from hexarena.engine.game import GameInfo, Variant
from hexarena.protocol.commands import SEED_COMMAND
from hexarena.protocol.controller import CommandFailed, ControllerError
from hexarena.results.record.game import VoidCause

from ..engines.process import EngineChannel
from .clock import Clock, Limits
from .faults import Forfeited, Voided, fault_of


#: The longest identity kept from `name` / `version` (characters; the rest is cut).
IDENTITY_CHARS = 200


@dataclass(frozen=True)
class Hello:
    """What one engine told in its handshake: the commands it lists, its `name` and `version`
    (None: refused)."""

    listed: frozenset[str] = frozenset()
    name: str | None = None
    version: str | None = None

    @property
    def decimal(self) -> bool:
        """An HGP 1.2 engine (it lists `hgp_version`): told times in decimal seconds."""
        return "hgp_version" in self.listed


async def handshakes(channels: list[EngineChannel], game: tuple[GameInfo, Variant, int | None],
                     limits: tuple[Limits, Limits], clock: Clock, seeds: tuple[int | None, int | None],
                     setup: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
                     ) -> tuple[Hello, Hello] | Forfeited | Voided:
    """Both engines' handshakes (`game`: what is played and the komi, None: not sent; `setup`:
    each seat's setup command lines): both hellos, or how the game ended: a void of either
    voids it, two forfeits void it too, one forfeit is the game's end."""
    said = [await _handshake(ch, seat, game, limits[seat], clock, seeds[seat], setup[seat])
            for seat, ch in enumerate(channels)]
    voids = [s for s in said if isinstance(s, Voided)]
    forfeits = [s for s in said if isinstance(s, Forfeited)]
    if voids:
        return voids[0]
    if len(forfeits) == 2:
        return Voided(VoidCause.HANDSHAKE,
                      f"both engines failed the handshake: {forfeits[0].reason}; {forfeits[1].reason}", None)
    if forfeits:
        return forfeits[0]
    first, second = said
    assert isinstance(first, Hello) and isinstance(second, Hello)
    return first, second


async def _handshake(ch: EngineChannel, seat: int, game: tuple[GameInfo, Variant, int | None],
                     limits: Limits, clock: Clock, seed: int | None, setup: tuple[str, ...]
                     ) -> Hello | Forfeited | Voided:
    info, variant, komi = game
    ahead = await _asked_ahead(ch, info.describe(variant).split(), variant.size, komi, limits,
                               _optional_commands(ch.listed or frozenset(), seat, clock, seed))

    async def ask(name: str, *args: str, limit: float = limits.command) -> str:
        words = (name, *args)
        if ahead and ahead[0][0] == words:
            answer = ahead.popleft()[1]
            if isinstance(answer, ControllerError):
                raise answer
            return answer
        ahead.clear()
        return await ch.command(name, *args, deadline=trio.current_time() + limit)

    try:
        version = await ask("protocol_version", limit=limits.start)
    except ControllerError as exc:
        return Voided(VoidCause.START, f"did not start: {exc}", seat)
    if version.strip() != "2":
        return Voided(VoidCause.UNSUPPORTED, f"{ch.name}: protocol_version {version!r}, expected 2", seat)
    try:
        identity = [await _optional(ask, "name"), await _optional(ask, "version")]
        try:
            games = (await ask("list_games")).split()
            if info.id not in games:
                return Voided(VoidCause.UNSUPPORTED, f"{ch.name}: does not list {info.id!r} in list_games", seat)
            await ask("game", *info.describe(variant).split())
            await ask("boardsize", str(variant.size))
            if komi is not None:
                await ask("komi", str(komi))
        except CommandFailed as exc:
            return Voided(VoidCause.UNSUPPORTED,
                          f"{ch.name}: cannot play {info.describe(variant)} n={variant.size}: {exc.message}", seat)
        try:
            await ask("clear_board")
        except CommandFailed as exc:
            return Forfeited(seat, Termination.CRASH, f"{ch.name}: refused clear_board: {exc.message}")
        listed = await _optional(ask, "list_commands")
        hello = Hello(frozenset(listed.split()) if listed else frozenset(), *identity)
        ch.listed = hello.listed
        for command in _optional_commands(hello.listed, seat, clock, seed):
            try:
                await ask(*command)
            except CommandFailed:
                pass
        if not ch.configured:
            for line in setup:
                try:
                    await ask(*line.split(" "))
                except CommandFailed as exc:
                    return Voided(VoidCause.UNSUPPORTED,
                                  f"{ch.name}: refused setup command `{line}`: {exc.message}", seat)
            ch.configured = True
    except ControllerError as exc:
        return Forfeited(seat, fault_of(exc), f"handshake: {exc}")
    return hello


def _optional_commands(listed: frozenset[str], seat: int, clock: Clock, seed: int | None) -> list[tuple[str, ...]]:
    """The commands after `list_commands` an engine that lists `listed` is sent, whose refusal
    is fine: the time control, then the seed when the seat has one and the engine lists it."""
    optional = [clock.settings(seat, "kgs-time_settings" in listed, "hgp_version" in listed)]
    if seed is not None and SEED_COMMAND in listed:
        optional.append((SEED_COMMAND, str(seed)))
    return optional


async def _asked_ahead(ch: EngineChannel, game: list[str], size: int, komi: int | None, limits: Limits,
                       optional: list[tuple[str, ...]]) -> deque[tuple[tuple[str, ...], str | ControllerError]]:
    """The handshake's commands up to `list_commands`, then `optional` (the time control and the seed
    as the process's last `list_commands` chose them), written at once to a kept process over a
    pipe, each with its answer (text or error) in order; nothing to any other channel."""
    if not (ch.configured and ch.writes_ahead):
        return deque()
    words: list[tuple[str, ...]] = [("protocol_version",), ("name",), ("version",), ("list_games",), ("game", *game),
                                    ("boardsize", str(size))]
    if komi is not None:
        words.append(("komi", str(komi)))
    words += [("clear_board",), ("list_commands",), *optional[:-1]]
    now = trio.current_time()
    steps = [(w, now + (limits.start if i == 0 else limits.command), False) for i, w in enumerate(words)]
    said, last, _ = await ch.command_chain(steps, optional[-1], lambda start: start + limits.command)
    return deque(zip([*words, optional[-1]], [*said, last]))


async def _optional(ask: Callable[..., Awaitable[str]], command: str) -> str | None:
    """The answer to a command the engine may refuse (None then), on one line, at most
    IDENTITY_CHARS characters for `name` and `version`."""
    try:
        text = await ask(command)
    except CommandFailed:
        return None
    if command == "list_commands":
        return text
    return " ".join(text.split())[:IDENTITY_CHARS]
