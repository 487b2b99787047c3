"""One game of `hexarena play`: a person in the browser against an engine process.

The referee plays it with its own machinery (referee/tournament/run.py's ``play_scheduled``):
the engine is a process like any other, the person an HGP engine inside the server
(:mod:`.person`); clocks, deadlines, validation, the SGF under ``games/`` and the record are
the referee's. The record is appended to ``journal.jsonl`` of the output folder, so
`hexarena ratings` rates people and engines together, and `hexarena report` shows the game.

:class:`PlayGame` is what the page reads: the board as the referee told it, whose turn it
is, the clocks (mirrored from the referee's limits: the person's from its own answers, the
engine's from the time between the person's answer and the engine's action), the engine's
latest analysis (read back from the game's live file, as `hexarena serve` reads it), the result.
"""
from __future__ import annotations

import math
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from hexarena.engine.actions import Action, Resign, Swap, holders_after
from hexarena.engine.building import Builder
from hexarena.engine.core import Colour
from hexarena.engine.errors import IllegalMove, InvalidNotation
from hexarena.engine.game import GameState
from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.game.clock import Clock
from hexarena.referee.tournament.config import EngineSpec, TournamentConfig
from hexarena.referee.tournament import live_files
from hexarena.referee.tournament.live_files import live_path
from hexarena.referee.tournament.run import play_scheduled, process_launcher
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.results.page.board_svg import action_sites
from hexarena.results.record.game import Ending, GameRecord
from hexarena.results.record.journal import JOURNAL_NAME, JournalWriter

from .live_game import LiveGame
from .person import PersonEngine
from .play_words import end_words, swap_news


#: Seconds left from which the page shows "no limit" (`hexarena play` gives a person without a
#: clock a week per action).
NO_LIMIT = 24 * 3600.0


class Refusal(Exception):
    """An action the page may not send now; the message says why (the rules' reason, or whose turn)."""


@dataclass(frozen=True)
class PlaySetup:
    """What `hexarena play` plays: the referee's config (the two entrants: the person, whose
    `cmd` is never run, and the engine), the scheduled game (seat 1 moves first), the folder."""

    config: TournamentConfig
    game: ScheduledGame
    person: str
    out: Path


class PlayGame:
    """The game in progress, as the page sees it; `version` grows at every change."""

    def __init__(self, setup: PlaySetup):
        self.setup = setup
        self.person = PersonEngine(setup.person, self._changed)
        self.seat = 0 if setup.game.first == setup.person else 1
        limits = (setup.config.limits_of(setup.game.first), setup.config.limits_of(setup.game.second))
        self.clock = Clock(limits)
        self.version = 0
        self.record: GameRecord | None = None
        self.error = ""
        self._event = trio.Event()
        self._seen = 0                      # actions of the person's session already booked
        self._turn_start = 0.0              # trio time the side to move started thinking
        self._builder: tuple[GameState, Builder] | None = None
        self.holder = {Colour.BLACK: 0, Colour.WHITE: 1}
        self.tokens: list[str] = []
        self.last: Action | None = None
        self.last_seat = 0                  # the seat that made the last action
        self.analysis: dict[str, Any] | None = None     # the engine's latest info lines (HGP 1.2)
        self.shown = trio.Event()           # a page has been sent the game's final state
        self._live = LiveGame(live_path(setup.out, setup.game.id))

    # -- the game -------------------------------------------------------------------------------
    async def run(self) -> None:
        """Play the game to its end and journal it (the app's background task)."""
        setup = self.setup
        for folder in ("logs", "games"):
            (setup.out / folder / setup.game.id).parent.mkdir(parents=True, exist_ok=True)
        self._turn_start = trio.current_time()
        try:
            record = await play_scheduled(setup.game, setup.config, setup.out, engines=self._launch,
                                          on_ply=self._on_ply, live_every=0)      # _on_ply reads the line
        except Exception as exc:        # a referee error: shown on the page, the server stays up
            self.error = f"the game stopped: {exc}"
            self._changed()
            raise
        with JournalWriter(setup.out / JOURNAL_NAME) as writer:
            writer.append(record)
        live_files.remove(setup.out, record.id)         # journaled: no longer in flight (as a run's writer does)
        self.record = record
        self._changed()

    def _on_ply(self, plies: int) -> None:
        """After each action: the engine's latest analysis, from the game's live file (the info
        lines the referee read from its answers, referee/tournament/live_files.py)."""
        try:
            if self._live.read():
                self.analysis = self._live.latest_info()
        except OSError:
            return
        self._changed()

    async def until_shown(self, grace: float) -> None:
        """Return once the game is over and a page has been sent its final state, or `grace`
        seconds after the game's end when no page was."""
        while self.record is None:
            await self.wait_change(self.version)
        with trio.move_on_after(grace):
            await self.shown.wait()

    def _launch(self, spec: EngineSpec, seed: int, log: Path) -> AbstractAsyncContextManager[EngineChannel]:
        if spec.name == self.setup.person:
            return self.person.connect()
        return process_launcher(spec, seed, log)

    def _changed(self) -> None:
        """Book the actions the person's session saw since the last change, then wake the page."""
        actions = self.person.actions
        now = trio.current_time()
        if len(actions) < self._seen:                 # a new game on the session (clear_board)
            self._seen, self.tokens, self.last = 0, [], None
            self.holder = {Colour.BLACK: 0, Colour.WHITE: 1}
        for before, action in actions[self._seen:]:
            self.clock.charge(self.holder[before.to_move], max(0.0, now - self._turn_start))
            self.last_seat = self.holder[before.to_move]
            self._turn_start = now
            self.tokens.append(before.format(action))
            self.last = action
            self.holder = holders_after(self.holder, action)
        self._seen = len(actions)
        if not actions:                               # the board was set up: the clocks start now
            self._turn_start = now
        if self.person.waiting is not None and self.person.asked_at > self._turn_start:
            self._turn_start = self.person.asked_at
        self.version += 1
        self._event.set()
        self._event = trio.Event()

    async def wait_change(self, version: int) -> None:
        """Return once `version` is not the current one."""
        while self.version == version:
            await self._event.wait()

    # -- the person's requests ----------------------------------------------------------------------
    def builder(self) -> Builder:
        state = self.person.state
        if self._builder is None or self._builder[0] is not state:
            self._builder = (state, Builder(state))
        return self._builder[1]

    @property
    def engine_name(self) -> str:
        game = self.setup.game
        return game.second if game.first == self.setup.person else game.first

    def your_turn(self) -> bool:
        return self.person.waiting is not None and self.record is None

    def act(self, token: str) -> str:
        """Send the person's action to the referee once the rules accept it; its canonical token.
        Refusal (nothing changes) when it is not the person's turn or the rules refuse it."""
        if self.record is not None:
            raise Refusal("the game is over")
        if self.person.waiting is None:
            raise Refusal("it is not your turn: the engine is thinking")
        state = self.person.state
        try:
            action = state.parse(token)
            if not isinstance(action, Resign):
                state.play(action)
        except (IllegalMove, InvalidNotation) as exc:
            raise Refusal(f"{token}: {exc}") from None
        canonical = "resign" if isinstance(action, Resign) else state.format(action)
        self.person.submit(canonical)
        return canonical

    # -- what the page shows -----------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        state = self.person.state
        board = state.board
        game = self.setup.game
        names = {c: (game.first, game.second)[seat] for c, seat in self.holder.items()}
        stones = {board.name(bit): colour.value + (str(h) if h > 1 else "")
                  for bit, (colour, h) in state.to_position().stacks.items()}
        mover = state.to_move
        you = next((c for c, seat in self.holder.items() if seat == self.seat), Colour.BLACK)
        running = None if self.record is not None or state.outcome() is not None else mover.value
        out: dict[str, Any] = {
            "version": self.version, "game": game.game, "size": game.size, "variant": game.variant,
            "names": {c.value: n for c, n in names.items()}, "you": you.value, "to_move": mover.value,
            "phase": state.info.key_text(state.to_position(), "phase"), "ply": len(self.tokens),
            "shown": "; ".join(state.info.shown(state.position_keys())),
            "komi_words": state.info.komi_words,
            "stones": stones, "last": board.names(sum(1 << s for s in action_sites(self.last))),
            "tokens": self.tokens, "your_turn": self.your_turn(), "clocks": self._clocks(),
            "running": running, "result": None, "error": self.error,
            "analysis": self.analysis,
        }
        if isinstance(self.last, Swap):
            out["news"] = swap_news(self.last_seat == self.seat, self.engine_name, you)
        if self.record is not None:
            r = self.record
            out["result"] = {"text": end_words(r, self.setup.person, self.engine_name, mover is you),
                             "detail": f"{r.result} ({r.termination.value}{': ' + r.reason if r.reason else ''})",
                             "winner": r.winner, "sgf": r.sgf or "", "folder": str(self.setup.out)}
        if self.your_turn():
            b = self.builder()
            first = b.step(())
            out["build"] = {"targets": board.names(first.targets), "words": b.words, "komi": b.komi,
                            "hint": first.hint}
        return out

    def _clocks(self) -> dict[str, float | None]:
        """Seconds left per colour now (None: no limit), the mover's running since its turn began;
        once the game is over, as the record charged them (a loss on time: none left)."""
        state = self.person.state
        now = trio.current_time()
        seats = (self.setup.game.first, self.setup.game.second)
        out: dict[str, float | None] = {}
        for colour, seat in self.holder.items():
            left = self.clock.budget(seat)
            if math.isinf(left) or left >= NO_LIMIT:
                out[colour.value] = None
                continue
            if self.record is None:
                if colour is state.to_move:
                    left -= now - self._turn_start
            elif self.record.termination is Ending.TIME and self.record.faulty == seats[seat]:
                left = 0.0
            out[colour.value] = round(max(0.0, left), 1)
        return out
