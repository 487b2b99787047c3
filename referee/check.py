"""`hexarena check`: a scripted HGP compliance sequence against any engine.

The engine runs as a real process through :mod:`referee.process`, so every
step has the channel's deadline and every failure of the engine (a crash, a
timeout, garbage, a wrong id) is reported as a check that failed, never as
a hang or a crash of the checker. The engine's answers are judged against
the referee's own rules (:mod:`engine.registry`).

The sequence: GTP framing (`protocol_version`, `name`, `version`,
`known_command`, an unknown command, `list_commands`), `list_games`, then
for every listed game hexarena plays, at each size of a sample, `game`,
`boardsize`, `clear_board`, `position`, `legal_moves`, `legal_cells`,
`final_score`, `play` of a legal action, of an illegal one, with the wrong
colour and of a malformed token, `genmove`, `undo`, and `set_position` of
a mid-game position; finally `quit` and the process's exit. Once the
channel is broken (crash, timeout, protocol violation) the remaining checks
are reported as skipped.
"""
from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice

import trio

from hexarena.engine import registry
from hexarena.engine.errors import IllegalMove, InvalidNotation
from hexarena.engine.game import GameInfo, GameState
from hexarena.protocol.controller import CommandFailed, ControllerError

from .process import EngineChannel, EngineProcess, EngineStartFailed

__all__ = ["Verdict", "GTP_COMMANDS", "HGP_COMMANDS", "MOVE_LIMIT", "MALFORMED", "default_sizes",
           "run_checks", "check_engine"]

#: The standard GTP v2 commands every GTP engine (GNU Go too) implements.
GTP_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
                "boardsize", "clear_board", "komi", "play", "genmove", "undo")
#: The commands PROTOCOL.md adds; an HGP engine implements them all.
HGP_COMMANDS = ("list_games", "game", "showboard", "legal_moves", "legal_cells", "position",
                "set_position", "final_score", "time_settings", "time_left")
#: `legal_moves` answers `too many moves` above this many actions.
MOVE_LIMIT = 100_000
#: A token that is no action form of any game: `play` must answer `? syntax error`.
MALFORMED = "e5@"
#: The cap on one answer: a `legal_moves` of 100000 Spelde flip sets can exceed the referee's 1 MB.
ANSWER_CAP = 64_000_000
UNKNOWN_COMMAND = "hexarena-no-such-command"
_SHOW = 100


@dataclass(frozen=True)
class Verdict:
    """One line of the report: status PASS, FAIL or SKIP, the check's name, what was seen."""

    status: str
    name: str
    seen: str

    def line(self) -> str:
        seen = self.seen.replace("\n", " | ")
        if len(seen) > _SHOW:
            seen = seen[:_SHOW] + "..."
        return f"{self.status} {self.name}: {seen}"


Emit = Callable[[Verdict], None]


class _Broken(Exception):
    """The channel is unusable (crash, timeout, protocol violation): skip the rest."""


def default_sizes(info: GameInfo) -> list[int]:
    """The sizes checked when none are given: the smallest, the recommended ones and the largest."""
    return sorted({2, *info.sizes, 13})


class _Checker:
    def __init__(self, channel: EngineChannel, timeout: float, emit: Emit):
        self.channel = channel
        self.timeout = timeout
        self.emit = emit

    def verdict(self, ok: bool, name: str, seen: str) -> bool:
        self.emit(Verdict("PASS" if ok else "FAIL", name, seen))
        return ok

    async def ask(self, check: str, name: str, *args: str) -> tuple[bool, str]:
        """(True, text) on `=`, (False, message) on `?`; _Broken after a FAIL on any other error."""
        try:
            return True, await self.channel.command(name, *args, deadline=trio.current_time() + self.timeout)
        except CommandFailed as exc:
            return False, exc.message
        except ControllerError as exc:
            self.verdict(False, check, f"{type(exc).__name__}: {exc}")
            raise _Broken(f"{type(exc).__name__}: {exc}") from None

    async def ok(self, check: str, name: str, *args: str,
                 judge: Callable[[str], str | None] | None = None) -> str | None:
        """Expect `=`; `judge(text)` returns a problem or None. The text, or None on failure."""
        ok, text = await self.ask(check, name, *args)
        if not ok:
            self.verdict(False, check, f"refused: ? {text}")
            return None
        problem = judge(text) if judge else None
        self.verdict(problem is None, check, f"{problem}; seen {text!r}" if problem else f"= {text}")
        return text if problem is None else None

    async def refused(self, check: str, word: str, name: str, *args: str) -> bool:
        """Expect `? WORD...` (the failure word as a prefix, case-insensitive)."""
        ok, text = await self.ask(check, name, *args)
        if ok:
            return self.verdict(False, check, f"expected '? {word}', accepted: = {text}")
        good = text.lower().startswith(word)
        return self.verdict(good, check, f"? {text}" if good else f"expected '? {word}', seen ? {text}")


def _equal(expected: str) -> Callable[[str], str | None]:
    return lambda text: None if text.strip() == expected else f"expected {expected!r}"


def _lists(required: Sequence[str]) -> Callable[[str], str | None]:
    def judge(text: str) -> str | None:
        missing = [c for c in required if c not in text.lower().split()]
        return None if not missing else "does not list " + ", ".join(f"`{c}`" for c in missing)
    return judge


def _tokens_match(expected: list[str], kind: str) -> Callable[[str], str | None]:
    def judge(text: str) -> str | None:
        got = text.lower().split()
        if len(got) != len(set(got)):
            return f"{kind} repeats a token"
        missing, extra = sorted(set(expected) - set(got)), sorted(set(got) - set(expected))
        if not missing and not extra:
            return None
        return f"{kind} differ from the rules: missing {missing[:5]} extra {extra[:5]}"
    return judge


async def _legal_moves(c: _Checker, check: str, state: GameState) -> None:
    ours = [state.format(a) for a in islice(state.legal_actions(), MOVE_LIMIT + 1)]
    if len(ours) > MOVE_LIMIT:
        await c.refused(check, "too many moves", "legal_moves")
    else:
        await c.ok(check, "legal_moves", judge=_tokens_match(ours, "legal moves"))


async def _genmove(c: _Checker, check: str, state: GameState) -> GameState | None:
    """Ask for a move; the state after it (the same state after `resign`), None on a FAIL."""
    result: list[GameState] = []

    def judge(text: str) -> str | None:
        token = text.strip()
        if token.lower() == "resign":
            result.append(state)
            return None
        try:
            action = state.parse(token)
            after = state.play(action)
        except InvalidNotation as exc:
            return f"malformed: {exc}"
        except IllegalMove as exc:
            return f"illegal per our rules: {exc}"
        if token != state.format(action):
            return f"not canonical, expected {state.format(action)!r}"
        result.append(after)
        return None

    text = await c.ok(check, "genmove", state.to_move.word, judge=judge)
    return result[0] if text is not None else None


def _illegal_site(state: GameState) -> str | None:
    """A well-formed placement the rules forbid now (an occupied site, a wrong phase)."""
    board = state.board
    for name in board.names(board.mask):
        try:
            if not state.is_legal(state.parse(name)):
                return name
        except InvalidNotation:
            return None
    return None


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


async def _check_size(c: _Checker, info: GameInfo, n: int, rng: random.Random) -> None:
    p = f"{info.id} {n}"
    if await c.ok(f"{p} game", "game", info.id) is None:
        return
    if await c.ok(f"{p} boardsize", "boardsize", str(n)) is None:
        return
    if await c.ok(f"{p} clear_board", "clear_board") is None:
        return
    state = info.new_game(info.variant(n), 0)
    await c.ok(f"{p} position (initial)", "position", judge=_equal(state.position()))
    await _legal_moves(c, f"{p} legal_moves", state)
    await c.ok(f"{p} legal_cells", "legal_cells",
               judge=_tokens_match(state.board.names(state.legal_cells()), "legal cells"))
    await c.refused(f"{p} final_score (game goes on)", "cannot score", "final_score")
    action = state.random_action(rng)
    if await c.ok(f"{p} play (legal)", "play", state.to_move.word, state.format(action)) is None:
        return
    state = state.play(action)
    if state.outcome() is None:
        site = _illegal_site(state)
        if site is not None:
            await c.refused(f"{p} play (illegal {site})", "illegal move", "play", state.to_move.word, site)
        token = state.format(state.random_action(rng))
        await c.refused(f"{p} play (wrong colour)", "illegal move", "play", state.to_move.other.word, token)
        await c.refused(f"{p} play (malformed {MALFORMED})", "syntax error", "play", state.to_move.word, MALFORMED)
        await c.ok(f"{p} position (after refusals)", "position", judge=_equal(state.position()))
        after = await _genmove(c, f"{p} genmove", state)
        if after is None:
            return
        await c.ok(f"{p} position (after genmove)", "position", judge=_equal(after.position()))
        if after is not state:
            await c.ok(f"{p} undo", "undo")
            await c.ok(f"{p} position (after undo)", "position", judge=_equal(state.position()))
    mid = _later(state, rng, 2 * n)
    text = mid.position()
    if await c.ok(f"{p} set_position", "set_position", *text.split(" ")) is None:
        return
    await c.ok(f"{p} position (round trip)", "position", judge=_equal(text))
    await _legal_moves(c, f"{p} legal_moves (set position)", mid)
    if mid.outcome() is None:
        await _genmove(c, f"{p} genmove (set position)", mid)


async def run_checks(channel: EngineChannel, timeout: float, emit: Emit, sizes: Sequence[int] = (),
                     games: Sequence[str] = (), seed: int = 0) -> None:
    """Run the whole sequence on `channel`, ending with `quit`; every result goes to `emit`.

    `sizes` / `games` restrict the sample (empty: :func:`default_sizes`, every listed game).
    Never raises for anything the engine does.
    """
    c = _Checker(channel, timeout, emit)
    rng = random.Random(seed)
    todo: list[str] = ["the game checks"]
    try:
        await c.ok("protocol_version", "protocol_version", judge=_equal("2"))
        await c.ok("name", "name", judge=lambda t: None if t.strip() else "empty name")
        await c.ok("version", "version")
        await c.ok("known_command (known)", "known_command", "protocol_version", judge=_equal("true"))
        await c.ok("known_command (unknown)", "known_command", UNKNOWN_COMMAND, judge=_equal("false"))
        await c.refused("unknown command", "unknown command", UNKNOWN_COMMAND)
        await c.ok("list_commands (GTP)", "list_commands", judge=_lists(GTP_COMMANDS))
        await c.ok("list_commands (HGP)", "list_commands", judge=_lists(HGP_COMMANDS))
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
                await _check_game(c, info, list(sizes) or default_sizes(info), rng)
                todo.remove(gid)
        todo = ["quit"]
        await c.ok("quit", "quit")
    except _Broken as exc:
        if todo:
            emit(Verdict("SKIP", ", ".join(todo), f"the channel is broken ({exc})"))


def _known_games(text: str) -> str | None:
    ids = text.lower().split()
    if not ids:
        return "lists no game"
    strange = [g for g in ids if g not in registry.GAME_MODULES]
    if strange:
        return f"lists games HGP does not define: {', '.join(strange)}"
    if not any(g in registry.playable() for g in ids):
        return "lists no game hexarena plays"
    return None


async def _check_game(c: _Checker, info: GameInfo, sizes: list[int], rng: random.Random) -> None:
    if await c.ok(f"{info.id} game", "game", info.id) is None:
        c.emit(Verdict("SKIP", f"{info.id} sizes", "the engine refused the game"))
        return
    await c.ok(f"{info.id} game (no arguments)", "game", judge=_equal(info.describe(info.variant())))
    for bad in (1, 14):
        await c.refused(f"{info.id} boardsize {bad} (outside 2..13)", "unacceptable size", "boardsize", str(bad))
    for n in sizes:
        await _check_size(c, info, n, rng)


async def check_engine(argv: Sequence[str], emit: Emit, log_path: str | os.PathLike, timeout: float = 10.0,
                       sizes: Sequence[int] = (), games: Sequence[str] = (), seed: int = 0) -> None:
    """Start `argv` (engine stderr appended to `log_path`), run the checks, then check that it exits.

    A program that cannot be started is one FAIL. The process never outlives the call.
    """
    async with trio.open_nursery() as nursery:
        try:
            engine = await EngineProcess.start(nursery, argv, log_path, "engine", max_bytes=ANSWER_CAP)
        except EngineStartFailed as exc:
            emit(Verdict("FAIL", "start", str(exc)))
            return
        try:
            await run_checks(engine.channel, timeout, emit, sizes, games, seed)
            if engine.channel.healthy:
                with trio.move_on_after(timeout):
                    await engine.process.wait()
                code = engine.process.returncode
                emit(Verdict("PASS" if code is not None else "FAIL", "exit after quit",
                             f"exit status {code}" if code is not None else f"still running {timeout:g} s after quit"))
        finally:
            await engine.aclose()
