"""`hexarena check`: a scripted HGP compliance sequence against any engine, graded by tier.

The engine runs as a real process through :mod:`hexarena.referee.engines.process`,
so every step has the channel's deadline and every failure of the engine (a
crash, a timeout, garbage, a wrong id) is reported as a check that failed,
never as a hang or a crash of the checker. The engine's answers are judged
against the referee's own rules (:mod:`hexarena.engine.registry`); the
grading by tier (play / analysis) is :mod:`hexarena.referee.check.grading`,
the optional refusals of an illegal `play` :mod:`hexarena.referee.check.refusals`.

The sequence: GTP framing (`protocol_version`, `name`, `version`,
`known_command`, an unknown command, `list_commands`), `hgp_version` and
decimal seconds when listed (:mod:`hexarena.referee.check.hgp12`), `list_games`, the
clock commands, then for every listed game hexarena plays, at each size of a
sample, `game`, `boardsize`, `clear_board`, `play` of a legal action,
`genmove`, a continuation played with `play`, and a reply to the engine's own
`genmove`; with the analysis commands
the engine lists, `position` after each step, `legal_moves`, `legal_cells`,
`final_score`, the refusal of an illegal `play` (optional), `undo`,
`genmove_analyze`, and `set_position` of a mid-game position; then every pie decision (`swap` and
`keep`) of the game played, at one size, with `position`, `legal_moves` and
`genmove` after each (:mod:`hexarena.referee.check.pie`); finally `quit` and
the process's exit. Once the channel is broken (crash, timeout, protocol violation) the
remaining checks are reported as skipped.
"""
from __future__ import annotations

import os
import random
import sys
import traceback
from collections.abc import Sequence

import trio

from hexarena.engine import registry
from hexarena.engine.errors import raised
from hexarena.engine.game import GameInfo, GameState
from hexarena.protocol.commands import PLAY_COMMANDS

from .grading import Broken, Checker, Emit, Verdict, equal, lists, tokens_match
from .hgp12 import genmove_analyze, hgp_version
from .pie import check_decisions, pie_size
from .refusals import play, refusals
from .steps import genmove as _genmove, legal_moves as _legal_moves, position as _position
from ..engines.process import EngineChannel, EngineProcess, EngineStartFailed

__all__ = ["Verdict", "default_sizes", "run_checks", "check_engine"]

UNKNOWN_COMMAND = "hexarena-no-such-command"


def default_sizes(info: GameInfo) -> list[int]:
    """The sizes checked when none are given: the smallest, the recommended ones and the largest."""
    return sorted({2, *info.sizes, 13})


async def _check_size(c: Checker, info: GameInfo, n: int, rng: random.Random) -> None:
    p = f"{info.id} {n}"
    for check, name, args in ((f"{p} game", "game", (info.id,)), (f"{p} boardsize", "boardsize", (str(n),)),
                              (f"{p} clear_board", "clear_board", ())):
        if await c.ok(check, name, *args) is None:
            return
    state = info.new_game(info.variant(n), 0)
    await _position(c, f"{p} position (initial)", state)
    await _legal_moves(c, f"{p} legal_moves", state)
    if c.has("legal_cells"):
        await c.ok(f"{p} legal_cells", "legal_cells",
                   judge=tokens_match(state.board.names(state.legal_cells()), "legal cells"))
    if c.has("final_score"):
        await c.refused(f"{p} final_score (game goes on)", "cannot score", "final_score")
    action = state.random_action(rng)
    if not await play(c, f"{p} play (legal)", state, action):
        return
    played = [action]
    state = state.play(action)
    if state.outcome() is None:
        intact = await refusals(c, p, info, n, state, played, rng)
        if intact is None:
            return
        state = intact
        after = await _genmove(c, f"{p} genmove", state)
        if after is None:
            return
        await _position(c, f"{p} position (after genmove)", after)
        if after is not state and c.has("undo"):
            await c.ok(f"{p} undo", "undo")
            await _position(c, f"{p} position (after undo)", state)
        else:
            state = after
    if state.outcome() is None and c.has("genmove_analyze"):
        after = await genmove_analyze(c, f"{p} genmove_analyze", state)
        if after is None and not c.has("set_position"):
            return                  # the engine's board is unknown now; set_position would set it again
        if after is not None:
            await _position(c, f"{p} position (after genmove_analyze)", after)
            state = after
    if c.has("set_position"):
        await _set_position(c, p, state, n, rng)
    else:
        await _continue(c, p, state, n, rng)


async def _set_position(c: Checker, p: str, state: GameState, n: int, rng: random.Random) -> None:
    mid = _later(state, rng, 2 * n)
    text = mid.position()
    if await c.ok(f"{p} set_position", "set_position", *text.split(" ")) is None:
        return
    await _position(c, f"{p} position (round trip)", mid)
    await _legal_moves(c, f"{p} legal_moves (set position)", mid)
    if mid.outcome() is None:
        await _reply(c, p, mid, await _genmove(c, f"{p} genmove (set position)", mid), rng)


async def _continue(c: Checker, p: str, state: GameState, n: int, rng: random.Random) -> None:
    """Without `set_position`: play on with `play` for up to 2n actions, then one `genmove`."""
    mid = state
    for _ in range(2 * n):
        if mid.outcome() is not None:
            break
        action = mid.random_action(rng)
        if mid.play(action).outcome() is not None:
            break
        if not await play(c, f"{p} play (continuation)", mid, action):
            return
        mid = mid.play(action)
    if mid.outcome() is None:
        await _reply(c, p, mid, await _genmove(c, f"{p} genmove (continuation)", mid), rng)


async def _reply(c: Checker, p: str, before: GameState, after: GameState | None, rng: random.Random) -> None:
    """The other side's reply to the engine's own `genmove` (from `before` to `after`; the same
    state after a resignation), with `play` (play tier): an engine that did not play its genmove
    on its own board refuses it, the wrong side to move, as it would refuse its opponent's first
    reply in a game."""
    if after is not None and after is not before and after.outcome() is None:
        await play(c, f"{p} play (a reply to its own genmove)", after, after.random_action(rng))


def _later(state: GameState, rng: random.Random, plies: int) -> GameState:
    """A state up to `plies` random actions later that is not over."""
    for _ in range(plies):
        if state.outcome() is not None:
            break
        after = state.play(state.random_action(rng))
        if after.outcome() is not None:
            break
        state = after
    return state


async def _handshake(c: Checker) -> None:
    await c.ok("protocol_version", "protocol_version", judge=equal("2"))
    await c.ok("name", "name", judge=lambda t: None if t.strip() else "empty name")
    await c.ok("version", "version")
    await c.ok("known_command (known)", "known_command", "protocol_version", judge=equal("true"))
    await c.ok("known_command (unknown)", "known_command", UNKNOWN_COMMAND, judge=equal("false"))
    await c.refused("unknown command", "unknown command", UNKNOWN_COMMAND)
    text = await c.ok("list_commands (play)", "list_commands", judge=lists(PLAY_COMMANDS))
    c.listed = set(text.lower().split()) if text is not None else set()
    if text is None:        # ask again for what it does list, the play commands missing or not
        ok, listed = await c.ask("list_commands", "list_commands")
        c.listed = set(listed.lower().split()) if ok else set()
    await hgp_version(c)
    await c.ok("time_settings", "time_settings", "300", "0", "0")
    await c.ok("time_left", "time_left", "black", "300", "0")
    if c.has("kgs-time_settings"):
        await c.ok("kgs-time_settings", "kgs-time_settings", "fischer", "300", "5")


async def run_checks(channel: EngineChannel, timeout: float, emit: Emit, sizes: Sequence[int] = (),
                     games: Sequence[str] = (), seed: int = 0, strict: bool = False) -> None:
    """Run the whole sequence on `channel`, ending with `quit`; every result goes to `emit`.

    `sizes` / `games` restrict the sample (empty: :func:`default_sizes`, every listed game);
    `strict` demands every analysis command. Never raises for anything the engine does.
    """
    c = Checker(channel, timeout, emit, strict)
    rng = random.Random(seed)
    todo: list[str] = ["the game checks"]
    try:
        await _handshake(c)
        listed = await c.ok("list_games", "list_games", judge=_known_games)
        if listed is None:
            c.emit(Verdict("SKIP", "games", "the HGP game checks need a game list from `list_games`"))
            todo = []
        else:
            ids = listed.lower().split()
            for gid in games:
                if gid not in ids:
                    c.verdict(False, f"{gid} listed", f"does not list `{gid}` in: {listed}")
            chosen = [g for g in ids if g in registry.playable() and (not games or g in games)]
            todo = list(chosen)
            for gid in chosen:
                info = registry.get(gid)
                try:
                    await _check_game(c, info, list(sizes) or default_sizes(info), rng)
                except Broken:
                    raise
                except Exception as exc:     # our side raised: the game's code (or the checker's), not the engine
                    c.emit(Verdict("FAIL", f"{gid} rules", _our_fault(info, exc)))
                todo.remove(gid)
        todo = ["quit"]
        await c.ok("quit", "quit")
    except Broken as exc:
        if todo:
            emit(Verdict("SKIP", ", ".join(todo), f"the channel is broken ({exc})"))


def _our_fault(info: GameInfo, exc: Exception) -> str:
    """What a FAIL says of an exception raised on the checker's side while checking a game: by
    the game's rules (raised in the folder of the module that defines its `new_game`) or by the
    checker itself; either way the engine is not at fault and the game's other checks are skipped."""
    frames = traceback.extract_tb(exc.__traceback__)
    module = sys.modules.get(getattr(info.new_game, "__module__", ""))
    folder = os.path.dirname(getattr(module, "__file__", None) or "")
    who = f"the rules of {info.id}" if folder and frames and frames[-1].filename.startswith(
        os.path.join(folder, "")) else "the checker"
    return f"{who} raised {raised(exc)}: the engine is not at fault; the other checks of {info.id} are skipped"


def _known_games(text: str) -> str | None:
    ids = text.lower().split()
    if not ids:
        return "lists no game"
    strange = [g for g in ids if g not in registry.playable()]
    if strange:
        return f"lists games neither HGP defines nor HEXARENA_GAMES adds: {', '.join(strange)}"
    if not any(g in registry.playable() for g in ids):
        return "lists no game hexarena plays"
    return None


async def _check_game(c: Checker, info: GameInfo, sizes: list[int], rng: random.Random) -> None:
    if await c.ok(f"{info.id} game", "game", info.id) is None:
        c.emit(Verdict("SKIP", f"{info.id} sizes", "the engine refused the game"))
        return
    await c.ok(f"{info.id} game (no arguments)", "game", judge=equal(info.describe(info.variant())))
    for bad in (1, 14):
        await c.refused(f"{info.id} boardsize {bad} (outside 2..13)", "unacceptable size", "boardsize", str(bad))
    for n in sizes:
        await _check_size(c, info, n, rng)
    if await c.ok(f"{info.id} boardsize {pie_size(sizes)} (pie)", "boardsize", str(pie_size(sizes))) is not None:
        await check_decisions(c, info, pie_size(sizes), rng)


async def check_engine(argv: Sequence[str], emit: Emit, log_path: str | os.PathLike, timeout: float = 10.0,
                       sizes: Sequence[int] = (), games: Sequence[str] = (), seed: int = 0,
                       strict: bool = False) -> None:
    """Start `argv` (engine stderr appended to `log_path`), run the checks, then check that it exits.

    A program that cannot be started is one FAIL. The process never outlives the call. The
    referee's own answer cap applies: a bounded `legal_moves` always fits it.
    """
    async with trio.open_nursery() as nursery:
        try:
            engine = await EngineProcess.start(nursery, argv, log_path, "engine")
        except EngineStartFailed as exc:
            emit(Verdict("FAIL", "start", str(exc)))
            return
        try:
            await run_checks(engine.channel, timeout, emit, sizes, games, seed, strict)
            if engine.channel.healthy:
                with trio.move_on_after(timeout):
                    await engine.process.wait()
                code = engine.process.returncode
                emit(Verdict("PASS" if code is not None else "FAIL", "exit after quit",
                             f"exit status {code}" if code is not None else f"still running {timeout:g} s after quit"))
        finally:
            await engine.aclose()
