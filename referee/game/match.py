"""One game between two engines: handshake, opening, turn loop, clocks, verdict.

Over ~300 lines on purpose: every engine fault of one game is classified here
(the handshake's in referee/game/handshake.py, with the exceptions of faults.py),
so the table below reads against these modules.

The referee decides every result from its own copy of the rules; engines
are only asked for actions. Faults (docs/tournament.md, "Who is at fault"):

* VOID (infrastructure or compatibility; the game is replayed on resume):
  the engine cannot be spawned; it gives no valid answer to its first
  command `protocol_version` (exit, deadline, garbage: it did not start);
  `protocol_version` is not 2; `list_games` fails or lacks the game; `game`,
  `boardsize` or `komi` is refused with `?` (variant, size or komi not
  supported); both engines fail the handshake; an engine refuses or fails
  `play` of an action of the schedule's opening (nobody forfeits in an
  opening); an unexpected exception in the referee (a referee bug).
* FORFEIT during the handshake, once the engine answered `protocol_version`
  correctly: it crashes or breaks the protocol (`+F`), misses a deadline
  (`+T`), or refuses `clear_board` (`+F`). `list_commands`, `time_settings`
  and `kgs-time_settings` may be refused.
* FORFEIT in play, by the engine holding the side to move: `genmove` (or
  `genmove_analyze`, to an engine that lists it; a bad info line is dropped and
  noted in the engine's log, never a fault) past
  its deadline (`+T`); exit, broken pipe, garbage or a wrong id (`+F`,
  crash); a `?` answer or a token that is not an action of the game (`+F`,
  malformed); an action the rules forbid (`+F`, illegal). By the other
  engine: a crash, timeout or `?` on `play` of an action the referee has
  validated (`+F`/`+T`): its rules disagree with the referee's, whose are
  authoritative. `time_left` may be refused.
"""
from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import trio

from hexarena.engine import registry
from hexarena.engine.actions import Action, Resign, holder_after, holders_after
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.engine.errors import IllegalMove, InvalidNotation
from hexarena.engine.game import GameInfo, GameState, Variant
from hexarena.engine.numbers import shown
from hexarena.protocol.analysis import split_answer
from hexarena.protocol.controller import CommandFailed, ControllerError, EngineTimeout
from hexarena.results.record.game import Ending, Forfeit, GameRecord, VoidCause

from ..engines.groups import sole
from ..engines.process import EngineChannel, EngineStartFailed
from .adjudication import Adjudication, Judge
from .analysis import SeatAnalysis
from .clock import Charge, Clock, Limits
from .faults import ForfeitGame as _Forfeit, Moves as _Moves, SeatFault as _SeatFault
from .faults import VoidGame as _Void, fault_of as _fault
from .handshake import Hello, handshakes

Connect = Callable[[], AbstractAsyncContextManager[EngineChannel]]

#: Hears the game as the referee played it, when it ended in play (not void): every state, the
#: initial one first, and the action that led to each next one (`play_game(..., played=...)`).
Played = Callable[[list[GameState], list[Action]], None]

#: The referee's own seconds for one action chosen by an engine: the wall time since the previous
#: action (or the end of the handshake) minus the time spent inside both channels' commands
#: (waiting on the engines). `play_game(..., overhead=...)` reports it (bench/bench_soak.py).
Overhead = Callable[[float], None]

#: Called after each action an engine chose: the number of actions so far (the opening's
#: included) and the game's moves (:class:`~.faults.Moves`: the action, its times and its
#: analysis are the last items of their lists). The live view and DIR/live/ files hear it.
OnPly = Callable[[int, _Moves], None]


@dataclass(frozen=True)
class Seat:
    """A player of one game: its name, how to start its engine, its own time limits
    under time odds (None: the game's), and the seat's seed, sent with `hexarena-seed`
    to an engine that lists it (None: not sent); `analysis`: ask the engine `genmove_analyze`
    when it lists it (False: always `genmove`); `commands`: setup command lines, sent once to
    each process after its handshake.

    `settle(keep)`, when given, is called once the game is decided and before the seat's
    `connect` context exits: `keep` is True when the seat's engine may serve another game
    (it is not at fault and the game was not void because of it); it is not called when the
    game ends by a referee error or a cancellation (then nothing is kept)."""

    name: str
    connect: Connect
    limits: Limits | None = None
    seed: int | None = None
    settle: Callable[[bool], None] | None = None
    analysis: bool = True
    commands: tuple[str, ...] = ()


@dataclass(frozen=True)
class Setup:
    """What is played: game id, board side, variant tokens, komi (None: not sent), ply cap,
    the opening (tokens played with `play` from the initial position before any genmove), and
    the adjudication on the engines' winrates (None: none; referee/game/adjudication.py)."""

    game: str
    size: int
    variant: tuple[str, ...] = ()
    komi: int | None = None
    ply_cap: int | None = None       # None: the game's default for this size
    opening: tuple[str, ...] = ()
    adjudication: Adjudication | None = None


@dataclass(frozen=True)
class _Played:
    """What the turn loop returns: the game ended by the rules, the ply cap, a resignation or
    an adjudication (with its journal form)."""

    outcome: Outcome
    reason: str
    moves: _Moves
    adjudication: dict | None = None


async def play_game(setup: Setup, seats: tuple[Seat, Seat], limits: Limits | tuple[Limits, Limits],
                    on_ply: OnPly | None = None, *, game_id: str = "", pair: int | None = None,
                    overhead: Overhead | None = None, played: Played | None = None) -> GameRecord:
    """Play one game to its end and return the referee's verdict as the game's record (its
    `sgf` and `processes` are the caller's to add); never raises on engine misbehaviour
    (ValueError/UnknownGame only for a bad `setup`). `on_ply(plies, moves)` is called after each
    action an engine chose (see :data:`OnPly`), `overhead` with the referee's own seconds for each
    action an engine chose, `played` with the game's states and actions once it ended in play (by
    the rules, the cap, a resignation or a forfeit). `limits` may be one pair of limits per seat
    (time odds); else a seat's own `limits`, then `limits`, time it. Each seat has its own clock, which follows it through
    a swap."""
    per_seat = limits if isinstance(limits, tuple) else (seats[0].limits or limits, seats[1].limits or limits)
    info = registry.get(setup.game)
    variant = info.variant(setup.size, setup.variant)
    names = (seats[0].name, seats[1].name)
    identity: dict[str, Any] = dict(id=game_id, game=info.id, size=variant.size,
                                    variant=info.describe(variant).partition(" ")[2], first=names[0], second=names[1])
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.monotonic()
    try:
        try:
            async with AsyncExitStack() as stack:
                channels = []
                try:
                    for i, seat in enumerate(seats):
                        try:
                            channels.append(await stack.enter_async_context(seat.connect()))
                        except EngineStartFailed as exc:
                            raise _Void(VoidCause.START, f"did not start: {exc}", i) from None
                    clock = Clock(per_seat)
                    hellos = await handshakes(channels, (info, variant, setup.komi), per_seat, clock,
                                              (seats[0].seed, seats[1].seed), (seats[0].commands, seats[1].commands))
                    asks = _Asks(hellos, (seats[0].analysis, seats[1].analysis))
                    ended = await _turns(channels, setup, info, variant, per_seat, clock, asks,
                                          on_ply or (lambda n, m: None), overhead)
                except _SeatFault as fault:
                    _settle(seats, fault.seat)
                    raise
                _settle(seats, None, everyone=True)
        except ExceptionGroup as group:     # a connect() that runs a nursery (trio >= 0.25) wraps errors
            raise sole(group) from None
    except _Void as v:
        return GameRecord.voided(**identity, cause=v.cause, reason=v.reason,
                                 faulty=None if v.seat is None else names[v.seat], pair=pair, komi=setup.komi,
                                 started=started, seconds=round(time.monotonic() - t0, 3),
                                 actions=[], think=[], colours="", left=[])
    except _Forfeit as f:
        moves = f.moves
        loser = next(c for c, s in moves.holder.items() if s == f.seat)
        if played is not None:
            played(moves.states, moves.played)
        return _record(identity, Outcome(loser.other, f.termination), f.reason, moves, names[f.seat],
                       pair, setup.komi, started, t0)
    except Exception as exc:      # a referee bug: void, keep the tournament going
        traceback.print_exc()
        return GameRecord.voided(**identity, cause=VoidCause.REFEREE, reason=f"referee error: {exc!r}",
                                 pair=pair, komi=setup.komi, started=started,
                                 seconds=round(time.monotonic() - t0, 3), actions=[], think=[], colours="", left=[])
    if played is not None:
        played(ended.moves.states, ended.moves.played)
    return _record(identity, ended.outcome, ended.reason, ended.moves, None, pair, setup.komi, started, t0,
                   ended.adjudication)


def _settle(seats: tuple[Seat, Seat], at_fault: int | None, everyone: bool = False) -> None:
    """Tell each seat whether its engine may serve another game: every seat when the game ended
    in play (`everyone`), else each seat but the one at fault (none when no seat is)."""
    for i, seat in enumerate(seats):
        if seat.settle is not None:
            seat.settle(everyone or (at_fault is not None and at_fault != i))


def _record(identity: dict[str, Any], outcome: Outcome, reason: str, moves: _Moves, faulty: str | None,
            pair: int | None, komi: int | None, started: str, t0: float,
            adjudication: dict | None = None) -> GameRecord:
    """The record of a game that ended in play: by the rules, the ply cap, a resignation, an adjudication
    or a forfeit."""
    names = (identity["first"], identity["second"])
    holder = {colour: names[seat] for colour, seat in moves.holder.items()}
    forfeit = Forfeit(outcome.termination.value) if faulty is not None else None
    return GameRecord(
        **identity, black=holder[Colour.BLACK], white=holder[Colour.WHITE],
        winner=None if outcome.winner is None else holder[outcome.winner], result=outcome.result(),
        termination=Ending(outcome.termination.value), plies=len(moves.actions), reason=reason,
        faulty=faulty, started=started, seconds=round(time.monotonic() - t0, 3),
        actions=[token for _, token in moves.actions], opening=moves.opening,
        think=[None if t is None else t[0] for t in moves.times], komi=komi, pair=pair, forfeit=forfeit,
        colours="".join(colour.letter for colour, _ in moves.actions),
        left=[None if t is None else t[1] for t in moves.times],
        analysis=moves.analysis if any(a is not None for a in moves.analysis) else None,
        identities=moves.identities, adjudication=adjudication)


@dataclass(frozen=True)
class _Asks:
    """How each seat is asked for its moves and told its time, from its handshake."""

    hellos: tuple[Hello, Hello]
    analysis: tuple[bool, bool]          # the seats' `analysis` setting

    def genmove(self, seat: int) -> str:
        """`genmove_analyze` to an engine that lists it, unless its seat turned analysis off."""
        listed = "genmove_analyze" in self.hellos[seat].listed
        return "genmove_analyze" if listed and self.analysis[seat] else "genmove"

    def decimal(self, seat: int) -> bool:
        return self.hellos[seat].decimal


async def _turns(channels: list[EngineChannel], setup: Setup, info: GameInfo, variant: Variant,
                 limits: tuple[Limits, Limits], clock: Clock, asks: _Asks, on_ply: OnPly,
                 overhead: Overhead | None) -> _Played:
    """Play the opening, then from there to the end; a forfeit raises _Forfeit carrying the moves so far."""
    state: GameState = info.new_game(variant, setup.komi or 0)
    cap = setup.ply_cap if setup.ply_cap is not None else info.ply_cap(variant.size)
    moves = _Moves(identities=[[h.name, h.version] for h in asks.hellos], states=[state])
    if overhead is not None:
        on_ply = _timed(on_ply, channels, overhead)
    try:
        state = await _opening(channels, setup, state, limits, moves)
        judge = Judge(setup.adjudication) if setup.adjudication is not None else None
        return await _turn_loop(channels, state, cap, clock, limits, asks, moves, on_ply, judge)
    except _Forfeit as f:
        f.moves = moves
        raise


def _timed(on_ply: OnPly, channels: list[EngineChannel], report: Callable[[float], None]) -> OnPly:
    """`on_ply` that also reports each action's referee time to `report` (see :data:`Overhead`)."""
    def waited() -> float:
        return channels[0].wait_seconds + channels[1].wait_seconds

    mark = [trio.current_time(), waited()]

    def ply(plies: int, moves: _Moves) -> None:
        now, w = trio.current_time(), waited()
        report(now - mark[0] - (w - mark[1]))
        mark[0], mark[1] = now, w
        on_ply(plies, moves)
    return ply


async def _turn_loop(channels: list[EngineChannel], state: GameState, cap: int, clock: Clock,
                     limits: tuple[Limits, Limits], asks: _Asks, moves: _Moves,
                     on_ply: OnPly, judge: Judge | None) -> _Played:
    analysis = SeatAnalysis()
    while True:
        outcome = state.outcome()
        if outcome is not None:
            return _Played(outcome, "ended by the rules", moves)
        if len(moves.actions) >= cap:
            return _Played(state.adjudicate(), f"ply cap {cap}", moves)
        if judge is not None and (verdict := judge.verdict(len(moves.actions))) is not None:
            return _Played(verdict.outcome(moves.holder), verdict.reason((channels[0].name, channels[1].name),
                                                                       judge.rules), moves, verdict.as_dict())
        colour = state.to_move
        seat = moves.holder[colour]
        mover, other = channels[seat], channels[1 - seat]
        command = asks.genmove(seat)
        answer, charge = await _genmove(mover, seat, colour, clock, limits[seat], command, asks.decimal(seat))
        token, lines = split_answer(answer)
        try:
            action, canonical = state.read(token)
            if isinstance(action, Resign):
                return _Played(Outcome(colour.other, Termination.RESIGN), f"{mover.name} resigned", moves)
            after = state.play(action)
        except InvalidNotation as exc:
            raise _Forfeit(seat, Termination.MALFORMED, f"{mover.name} answered {shown(token)}: {exc}") from None
        except IllegalMove as exc:
            raise _Forfeit(seat, Termination.ILLEGAL, f"{mover.name} played {shown(token)}: {exc}") from None
        kept: list[dict] | None = None
        if command == "genmove_analyze":
            kept, notes = await analysis.read(seat, lines, state, canonical)
            for note in notes:
                mover.note(f"ply {len(moves.actions) + 1}: {note}")
        moves.actions.append((colour, canonical))
        moves.times.append((round(charge.elapsed, 3), None if charge.left is None else round(charge.left, 3)))
        moves.analysis.append(kept)
        if judge is not None:
            judge.saw(seat, kept)
        moves.states.append(after)
        moves.played.append(action)
        on_ply(len(moves.actions), moves)
        try:
            await other.command("play", colour.word, canonical,
                                deadline=trio.current_time() + limits[1 - seat].command)
        except CommandFailed as exc:
            raise _Forfeit(1 - seat, Termination.CRASH,
                           f"{other.name} refused play {colour.word} {canonical}: {exc.message}") from None
        except ControllerError as exc:
            raise _Forfeit(1 - seat, _fault(exc), f"play {canonical}: {exc}") from None
        if holder_after(colour, action) is not colour:
            moves.holder = holders_after(moves.holder, action)
        state = after


async def _opening(channels: list[EngineChannel], setup: Setup, state: GameState, limits: tuple[Limits, Limits],
                   moves: _Moves) -> GameState:
    """Play the opening's actions on both engines with `play`; the game is VOID (nobody forfeits in an
    opening) if an engine refuses or fails one. Returns the state after the opening."""
    for token in setup.opening:
        action = state.parse(token)
        colour = state.to_move
        for seat, ch in enumerate(channels):
            try:
                await ch.command("play", colour.word, token, deadline=trio.current_time() + limits[seat].command)
            except ControllerError as exc:
                raise _Void(VoidCause.OPENING, f"opening: {ch.name} failed play {colour.word} {token}: {exc}", seat) from None
        moves.actions.append((colour, token))
        moves.times.append(None)
        moves.analysis.append(None)
        moves.holder = holders_after(moves.holder, action)
        state = state.play(action)
        moves.states.append(state)
        moves.played.append(action)
    moves.opening = len(setup.opening)
    return state


async def _genmove(ch: EngineChannel, seat: int, colour: Colour, clock: Clock, limits: Limits,
                   command: str = "genmove", decimal: bool = False) -> tuple[str, Charge]:
    """The mover's answer to `command` (`genmove` or `genmove_analyze`) and its charge to the
    mover's clock (told in decimal seconds when `decimal`); _Forfeit on any failure."""
    told = clock.told(seat, decimal)
    if told is not None:
        try:
            await ch.command("time_left", colour.word, *told, deadline=trio.current_time() + limits.command)
        except CommandFailed:
            pass
        except ControllerError as exc:
            raise _Forfeit(seat, _fault(exc), f"time_left: {exc}") from None
    budget = clock.budget(seat)
    t0 = trio.current_time()
    try:
        answer = await ch.command(command, colour.word, deadline=clock.deadline(seat, t0))
    except CommandFailed as exc:
        raise _Forfeit(seat, Termination.MALFORMED, f"{ch.name}: {command} failed: {exc.message}") from None
    except EngineTimeout:
        over = trio.current_time() - t0 - budget
        raise _Forfeit(seat, Termination.TIME, f"{ch.name}: no move within {budget:g} s "
                       f"(no answer {over:.3f} s past it)") from None
    except ControllerError as exc:
        raise _Forfeit(seat, Termination.CRASH, f"{command}: {exc}") from None
    charge = clock.charge(seat, ch.answered_at - t0)       # its bytes' arrival, not our work after it
    if not charge:
        raise _Forfeit(seat, Termination.TIME, f"{ch.name}: no move within {budget:g} s "
                       f"(answered {charge.overrun:.3f} s past it)")
    return answer, charge
