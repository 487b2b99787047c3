"""One game between two engines: handshake, opening, turn loop, clocks, verdict.

Over ~300 lines on purpose: every engine fault of one game is classified here (the
handshake's in referee/game/handshake.py), each ending the game as a value of faults.py,
so the table below reads against these two modules and no other. The one place the game
talks to an engine after the handshake (:func:`_ask`) turns the channel's controller errors
into values too; exceptions are left for the referee's own failures.

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
from functools import partial
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, field
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
from hexarena.results.record.moves import Move

from ..engines.eager import playing
from ..engines.groups import sole
from ..engines.process import EngineChannel, EngineStartFailed
from .adjudication import Adjudication, Judge
from .analysis import SeatAnalysis
from .clock import Charge, Clock, Limits
from .faults import End, Finished, Forfeited, Played, Voided, at_fault, fault_of, seats_at_start
from .handshake import Hello, handshakes

Connect = Callable[[], AbstractAsyncContextManager[EngineChannel]]

#: The referee's own seconds for one action chosen by an engine: the wall time since the previous
#: action (or the end of the handshake) minus the time spent inside both channels' commands
#: (waiting on the engines). `play_game(..., overhead=...)` reports it (bench/bench_soak.py).
Overhead = Callable[[float], None]

#: Called after each action an engine chose: the number of actions so far (the opening's
#: included) and the move just played. The live view and DIR/live/ files hear it.
OnPly = Callable[[int, Move], None]


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
class Refereed:
    """One game as the referee decided it: how it ended (`end`: also a referee error, as the
    void it makes), its `record` (its `sgf` and `processes` are the caller's to add), and the game
    as the referee played it when it ended in play or by a forfeit: every state, the initial one
    first, and the action that led to each next one (the report's viewer data; empty for a void
    game and a forfeit in the handshake)."""

    end: End
    record: GameRecord
    states: tuple[GameState, ...] = ()
    actions: tuple[Action, ...] = ()


async def play_game(setup: Setup, seats: tuple[Seat, Seat], limits: Limits | tuple[Limits, Limits],
                    on_ply: OnPly | None = None, *, game_id: str = "", pair: int | None = None,
                    overhead: Overhead | None = None) -> GameRecord:
    """The record of one game played to its end: :func:`referee`'s record."""
    refereed = await referee(setup, seats, limits, on_ply, game_id=game_id, pair=pair, overhead=overhead)
    return refereed.record


async def referee(setup: Setup, seats: tuple[Seat, Seat], limits: Limits | tuple[Limits, Limits],
                  on_ply: OnPly | None = None, *, game_id: str = "", pair: int | None = None,
                  overhead: Overhead | None = None) -> Refereed:
    """Play one game to its end and return the referee's verdict (:class:`Refereed`); never
    raises on engine misbehaviour (ValueError/UnknownGame only for a bad `setup`). `on_ply(plies,
    move)` is called after each action an engine chose (see :data:`OnPly`), `overhead` with the
    referee's own seconds for each action an engine chose. `limits` may be one pair of limits per
    seat (time odds); else a seat's own `limits`, then `limits`, time it. Each seat has its own
    clock, which follows it through a swap."""
    per_seat = limits if isinstance(limits, tuple) else (seats[0].limits or limits, seats[1].limits or limits)
    info = registry.get(setup.game)
    variant = info.variant(setup.size, setup.variant)
    names = (seats[0].name, seats[1].name)
    identity: dict[str, Any] = dict(id=game_id, game=info.id, size=variant.size,
                                    variant=info.describe(variant).partition(" ")[2], first=names[0], second=names[1])
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.monotonic()
    known: dict[str, Any] = dict(pair=pair, komi=setup.komi, started=started)
    try:
        try:
            with playing():
                async with AsyncExitStack() as stack:
                    ended = await _game(stack, setup, seats, (info, variant), per_seat, on_ply, overhead)
                    _settle(seats, ended.end if isinstance(ended, Played) else ended)
        except ExceptionGroup as group:     # a connect() that runs a nursery (trio >= 0.25) wraps errors
            raise sole(group) from None
    except Exception as exc:      # a referee bug: void, keep the tournament going
        traceback.print_exc()
        ended = Voided(VoidCause.REFEREE, f"referee error: {exc!r}", None)
    seconds = round(time.monotonic() - t0, 3)
    if isinstance(ended, Voided):
        return Refereed(ended, GameRecord.voided(**identity, cause=ended.cause, reason=ended.reason, seconds=seconds,
                                                 faulty=None if ended.seat is None else names[ended.seat], moves=(),
                                                 **known))
    return Refereed(ended.end, _record(identity, ended, seconds, **known), ended.states, ended.actions)


async def _game(stack: AsyncExitStack, setup: Setup, seats: tuple[Seat, Seat], game: tuple[GameInfo, Variant],
                limits: tuple[Limits, Limits], on_ply: OnPly | None, overhead: Overhead | None) -> Played | Voided:
    """Start both engines (their contexts on `stack`), shake hands, play the opening and the turns."""
    channels = []
    for i, seat in enumerate(seats):
        try:
            channels.append(await stack.enter_async_context(seat.connect()))
        except EngineStartFailed as exc:
            return Voided(VoidCause.START, f"did not start: {exc}", i)
    clock = Clock(limits)
    info, variant = game
    hellos = await handshakes(channels, (info, variant, setup.komi), limits, clock,
                              (seats[0].seed, seats[1].seed), (seats[0].commands, seats[1].commands))
    if isinstance(hellos, Voided):
        return hellos
    if isinstance(hellos, Forfeited):
        return Played(hellos)
    asks = _Asks(hellos, (seats[0].analysis, seats[1].analysis))
    return await _turns(channels, setup, game, limits, clock, asks, on_ply or (lambda n, m: None), overhead)


def _settle(seats: tuple[Seat, Seat], end: End) -> None:
    """Tell each seat whether its engine may serve another game: every seat when the game ended
    in play, else each seat but the one at fault (none when no seat is)."""
    fault = at_fault(end)
    for i, seat in enumerate(seats):
        if seat.settle is not None:
            seat.settle(isinstance(end, Finished) or (fault is not None and fault != i))


def _record(identity: dict[str, Any], played: Played, seconds: float, pair: int | None, komi: int | None,
            started: str) -> GameRecord:
    """The record of a game that ended in play: by the rules, the ply cap, a resignation, an adjudication
    or a forfeit."""
    names = (identity["first"], identity["second"])
    holder = {colour: names[seat] for colour, seat in played.holder.items()}
    outcome, end = played.outcome(), played.end
    forfeited = isinstance(end, Forfeited)
    faulty = names[end.seat] if isinstance(end, Forfeited) else None
    adjudication = end.adjudication if isinstance(end, Finished) else None
    return GameRecord(
        **identity, black=holder[Colour.BLACK], white=holder[Colour.WHITE],
        winner=None if outcome.winner is None else holder[outcome.winner], result=outcome.result(),
        termination=Ending(outcome.termination.value), plies=len(played.moves), reason=end.reason,
        faulty=faulty, started=started, seconds=seconds, opening=played.opening,
        komi=komi, pair=pair, forfeit=Forfeit(outcome.termination.value) if forfeited else None,
        identities=played.identities, adjudication=adjudication, moves=played.moves)


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


@dataclass
class _Trail:
    """What one turn loop has played so far, its own while it runs; :meth:`ended` is the
    game's :class:`Played` value."""

    identities: list[list[str | None]]
    states: list[GameState]
    moves: list[Move] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    holder: dict[Colour, int] = field(default_factory=seats_at_start)
    opening: int = 0

    def add(self, move: Move, action: Action, after: GameState) -> None:
        self.moves.append(move)
        self.actions.append(action)
        self.states.append(after)

    def ended(self, end: Finished | Forfeited) -> Played:
        return Played(end, tuple(self.moves), dict(self.holder), self.opening, self.identities,
                      tuple(self.states), tuple(self.actions))


async def _turns(channels: list[EngineChannel], setup: Setup, game: tuple[GameInfo, Variant],
                 limits: tuple[Limits, Limits], clock: Clock, asks: _Asks, on_ply: OnPly,
                 overhead: Overhead | None) -> Played | Voided:
    """Play the opening, then from there to the end: how the game ended and what was played."""
    info, variant = game
    state: GameState = info.new_game(variant, setup.komi or 0)
    cap = setup.ply_cap if setup.ply_cap is not None else info.ply_cap(variant.size)
    trail = _Trail([[h.name, h.version] for h in asks.hellos], [state])
    if overhead is not None:
        on_ply = _timed(on_ply, channels, overhead)
    opened = await _opening(channels, setup, state, limits, trail)
    if isinstance(opened, Voided):
        return opened
    judge = Judge(setup.adjudication) if setup.adjudication is not None else None
    return trail.ended(await _turn_loop(channels, opened, cap, clock, limits, asks, trail, on_ply, judge))


def _timed(on_ply: OnPly, channels: list[EngineChannel], report: Callable[[float], None]) -> OnPly:
    """`on_ply` that also reports each action's referee time to `report` (see :data:`Overhead`)."""
    def waited() -> float:
        return channels[0].wait_seconds + channels[1].wait_seconds

    mark = [trio.current_time(), waited()]

    def ply(plies: int, move: Move) -> None:
        now, w = trio.current_time(), waited()
        report(now - mark[0] - (w - mark[1]))
        mark[0], mark[1] = now, w
        on_ply(plies, move)
    return ply


async def _turn_loop(channels: list[EngineChannel], state: GameState, cap: int, clock: Clock,
                     limits: tuple[Limits, Limits], asks: _Asks, trail: _Trail,
                     on_ply: OnPly, judge: Judge | None) -> Finished | Forfeited:
    """The turns from `state` to the game's end: by the rules, the cap, a resignation, an
    adjudication or a forfeit.

    When the engine told an action is the next to move and the game goes on, and its channel
    writes ahead (a pipe), its `play` goes in one write with its `time_left` and `genmove`
    (:func:`_ask_move`): each answer is still checked in turn, by its own deadline, with the
    faults of one command at a time."""
    analysis = SeatAnalysis()
    names = (channels[0].name, channels[1].name)
    ahead: tuple[str, Charge] | Forfeited | None = None     # the mover's answer, asked with its play
    while True:
        plies = len(trail.moves)
        if ahead is None and (ended := _ended(state, plies, cap, judge, trail.holder, names)) is not None:
            return ended
        colour = state.to_move
        seat = trail.holder[colour]
        mover, other = channels[seat], channels[1 - seat]
        command = asks.genmove(seat)
        asked = ahead or await _genmove(mover, seat, colour, clock, limits[seat], command, asks.decimal(seat))
        ahead = None
        if isinstance(asked, Forfeited):
            return asked
        answer, charge = asked
        token, lines = split_answer(answer)
        try:
            action, canonical = state.read(token)
            if isinstance(action, Resign):
                return Finished(Outcome(colour.other, Termination.RESIGN), f"{mover.name} resigned")
            after = state.play(action)
        except InvalidNotation as exc:
            return Forfeited(seat, Termination.MALFORMED, f"{mover.name} answered {shown(token)}: {exc}")
        except IllegalMove as exc:
            return Forfeited(seat, Termination.ILLEGAL, f"{mover.name} played {shown(token)}: {exc}")
        kept: list[dict] | None = None
        if command == "genmove_analyze":
            kept, notes = await analysis.read(seat, lines, state, canonical)
            for note in notes:
                mover.note(f"ply {plies + 1}: {note}")
        trail.add(Move(canonical, colour.letter, round(charge.elapsed, 3),
                       None if charge.left is None else round(charge.left, 3), None if kept is None else tuple(kept)),
                  action, after)
        if judge is not None:
            judge.saw(seat, kept)
        on_ply(plies + 1, trail.moves[-1])
        holder = trail.holder if holder_after(colour, action) is colour else holders_after(trail.holder, action)
        play = ("play", colour.word, canonical)
        deadline = trio.current_time() + limits[1 - seat].command
        if (other.writes_ahead and holder[after.to_move] == 1 - seat
                and (ended := _ended(after, plies + 1, cap, judge, holder, names)) is None):
            nxt = 1 - seat
            told, ahead = await _ask_move(other, nxt, after.to_move, clock, limits[nxt], asks.genmove(nxt),
                                          asks.decimal(nxt), (play, deadline))
        else:
            told = await _ask(other, deadline, *play)
        if isinstance(told, CommandFailed):
            return Forfeited(1 - seat, Termination.CRASH,
                             f"{other.name} refused play {colour.word} {canonical}: {told.message}")
        if isinstance(told, ControllerError):
            return Forfeited(1 - seat, fault_of(told), f"play {canonical}: {told}")
        trail.holder = holder
        state = after


def _ended(state: GameState, plies: int, cap: int, judge: Judge | None, holder: dict[Colour, int],
           names: tuple[str, str]) -> Finished | None:
    """How the game ends at `state` after `plies` actions (by the rules, the cap, an adjudication;
    `holder`: the seat holding each colour), or None when it goes on."""
    outcome = state.outcome()
    if outcome is not None:
        return Finished(outcome, "ended by the rules")
    if plies >= cap:
        return Finished(state.adjudicate(), f"ply cap {cap}")
    if judge is not None and (verdict := judge.verdict(plies)) is not None:
        return Finished(verdict.outcome(holder), verdict.reason(names, judge.rules), verdict.as_dict())
    return None


async def _opening(channels: list[EngineChannel], setup: Setup, state: GameState, limits: tuple[Limits, Limits],
                   trail: _Trail) -> GameState | Voided:
    """Play the opening's actions on both engines with `play`: the state after it, or a void game
    (nobody forfeits in an opening) when an engine refuses or fails one."""
    for token in setup.opening:
        action = state.parse(token)
        colour = state.to_move
        for seat, ch in enumerate(channels):
            told = await _ask(ch, trio.current_time() + limits[seat].command, "play", colour.word, token)
            if isinstance(told, ControllerError):
                return Voided(VoidCause.OPENING, f"opening: {ch.name} failed play {colour.word} {token}: {told}", seat)
        trail.holder = holders_after(trail.holder, action)
        state = state.play(action)
        trail.add(Move(token, colour.letter), action, state)
    trail.opening = len(setup.opening)
    return state


async def _genmove(ch: EngineChannel, seat: int, colour: Colour, clock: Clock, limits: Limits,
                   command: str = "genmove", decimal: bool = False) -> tuple[str, Charge] | Forfeited:
    """The mover's answer to `command` (`genmove` or `genmove_analyze`), after `time_left`, and its
    charge to the mover's clock (told in decimal seconds when `decimal`), or the mover's forfeit."""
    asked = (await _ask_move(ch, seat, colour, clock, limits, command, decimal))[1]
    assert asked is not None            # None only after a play, which was not sent
    return asked


async def _ask_move(ch: EngineChannel, seat: int, colour: Colour, clock: Clock, limits: Limits, command: str,
                    decimal: bool, play: tuple[tuple[str, ...], float] | None = None
                    ) -> tuple[str | ControllerError | None, tuple[str, Charge] | Forfeited | None]:
    """`time_left` and `command` to the mover, after `play` (its words and deadline) when given:
    the answer to `play` (None without it) and the mover's answer with its charge, or its forfeit
    (None when `play` failed: the caller judges that). The commands go as one chain
    (:meth:`EngineChannel.command_chain`): the move's time runs from the writing of `command`,
    which over a pipe goes with the others, so an engine's own handling of `play` and
    `time_left` then counts as its thinking; a `?` to `play` ends the chain."""
    told = clock.told(seat, decimal)
    budget = clock.budget(seat)
    steps: list[tuple[tuple[str, ...], float, bool]] = [] if play is None else [(play[0], play[1], True)]
    steps.append((("time_left", colour.word, *told), trio.current_time() + limits.command, False))
    said, answer, t0 = await ch.command_chain(steps, (command, colour.word), partial(clock.deadline, seat))
    played = said[0] if play is not None else None
    if isinstance(played, ControllerError):
        return played, None
    if isinstance(said[-1], ControllerError) and not isinstance(said[-1], CommandFailed):
        return played, Forfeited(seat, fault_of(said[-1]), f"time_left: {said[-1]}")
    if isinstance(answer, CommandFailed):
        return played, Forfeited(seat, Termination.MALFORMED, f"{ch.name}: {command} failed: {answer.message}")
    if isinstance(answer, EngineTimeout):
        over = trio.current_time() - t0 - budget
        return played, Forfeited(seat, Termination.TIME, f"{ch.name}: no move within {budget:g} s "
                                 f"(no answer {over:.3f} s past it){answer.late}")
    if isinstance(answer, ControllerError):
        return played, Forfeited(seat, Termination.CRASH, f"{command}: {answer}")
    charge = clock.charge(seat, ch.answered_at - t0)       # its bytes' arrival, not our work after it
    if not charge:
        return played, Forfeited(seat, Termination.TIME, f"{ch.name}: no move within {budget:g} s "
                                 f"(answered {charge.overrun:.3f} s past it)")
    return played, (answer, charge)


async def _ask(ch: EngineChannel, deadline: float, *words: str) -> str | ControllerError:
    """The engine's answer to one command, or the controller error the command ended in: the one
    place the game talks to an engine after the handshake (its callers turn an error into the
    game's end)."""
    try:
        return await ch.command(*words, deadline=deadline)
    except ControllerError as exc:
        return exc
