"""A game's own contract, checked on seeded random playthroughs: what every tool above the rules
relies on (the referee, the players, the records, the pages), for a built-in game or one that
``HEXARENA_GAMES`` adds. `hexarena check --rules GAME` runs :func:`check_game`; the suite's
game tests run :func:`playthrough` (tests/support/playthrough.py).

At every state of a playthrough:

* the end: ``legal_actions()`` is empty exactly when ``outcome()`` is set, and an outcome's
  termination is one of the rules' (not the referee's: resign, time, a forfeit, adjudicated);
* the listing: no action twice, every listed action accepted by ``play``, and (when there are at
  most :data:`ENUMERATION_CAP`) every single placement not listed refused; ``random_action``
  is a listed action;
* notation: ``parse(format(action))`` (and of the token in upper case) is the action;
* position: ``position()`` read back (``registry.from_position``) is an equal state, with the
  same hash and the same text;
* values: ``play`` leaves the state it is called on as it was.

The first disagreement is raised as :class:`Disagreement` (an AssertionError, so a test shows
it as a failed check): the position, the action, and what each side said. An exception other
than the rules' refusal (a ValueError from ``play`` or ``parse``) from any of the game's
methods is one too.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar

from . import registry
from .actions import Action, Place
from .core import Termination
from .game import GameInfo, GameState

#: The most actions listed and checked one by one at a state (Spelde's may be millions).
ENUMERATION_CAP = 5000
#: The most listed actions played at one state (a random sample of them beyond).
SAMPLE = 200
#: Terminations the referee gives, never a game's `outcome()`.
REFEREES = frozenset({Termination.RESIGN, Termination.TIME, Termination.ILLEGAL, Termination.MALFORMED,
                      Termination.CRASH, Termination.ADJUDICATED})

T = TypeVar("T")


class Disagreement(AssertionError):
    """Two parts of a game's contract disagree at `position` (about `action`, its token, when one
    is concerned): `said` tells what each side said. `where` is set by :func:`check_game` (the
    game, size, balance, playthrough and ply)."""

    def __init__(self, position: str, action: str | None, said: str, where: str = ""):
        super().__init__(position, action, said, where)
        self.position, self.action, self.said, self.where = position, action, said, where

    def __str__(self) -> str:
        head = f"{self.where}: " if self.where else ""
        about = f"action {self.action}: " if self.action is not None else ""
        return f"{head}{about}{self.said}\n  position: {self.position}"


def _ask(position: str, action: str | None, what: str, call: Callable[[], T]) -> T:
    """`call()`; any exception from it is a Disagreement naming `what` (where a refusal is an
    answer, the call catches it itself: :func:`_refusal`, :func:`_parsed`)."""
    try:
        return call()
    except Disagreement:
        raise
    except Exception as exc:  # noqa: BLE001 - any error of the game's code is the finding
        raise Disagreement(position, action, f"{what} raised {type(exc).__name__}: {exc}") from exc


def _refusal(state: GameState, action: Action) -> str | None:
    """Why `play` refuses `action` (its ValueError's text), or None when it accepts it."""
    try:
        state.play(action)
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def check_state(state: GameState, rng: random.Random) -> list[Action]:
    """Check one state; its legal actions (at most ENUMERATION_CAP + 1 of them). Disagreement
    at the first part of the contract that does not hold."""
    text = _ask("(position() failed)", None, "position()", state.position)
    outcome = _ask(text, None, "outcome()", state.outcome)
    actions = _ask(text, None, "legal_actions()", lambda: list(islice(state.legal_actions(), ENUMERATION_CAP + 1)))
    fmt = state.format
    if (not actions) != (outcome is not None):
        listed = f"lists {len(actions)} actions ({', '.join(fmt(a) for a in actions[:5])})" if actions else \
            "lists none"
        ended = "the game goes on" if outcome is None else \
            f"the game is over ({outcome.result()}, {outcome.termination.value})"
        raise Disagreement(text, None, f"legal_actions() {listed}, outcome() says {ended}")
    if outcome is not None and outcome.termination in REFEREES:
        raise Disagreement(text, None, f"outcome() ends the game by {outcome.termination.value!r}, a word the referee "
                                       "gives, not the rules")
    seen: set[Action] = set()
    for action in actions:
        if action in seen:
            raise Disagreement(text, fmt(action), "legal_actions() lists it twice")
        seen.add(action)
    again = _ask(text, None, "registry.from_position(position())", lambda: _read_back(text))
    if again.position() != text:
        raise Disagreement(text, None, f"position() writes it, the state read back from it writes {again.position()}")
    if again != state or hash(again) != hash(state):
        raise Disagreement(text, None, "the state read back from position() is not equal to the state (or hashes "
                                       "otherwise): a field position() does not write, or from_position does not read")
    complete = len(actions) <= ENUMERATION_CAP
    sample = actions if len(actions) <= SAMPLE else rng.sample(actions, SAMPLE)
    before = hash(state)
    for action in sample:
        token = fmt(action)
        for written in (token, token.upper()):
            read = _ask(text, token, f"parse({written!r})", lambda: _parsed(state, written))
            if read != action:
                raise Disagreement(text, token, f"format() writes {token!r}, parse({written!r}) reads "
                                                f"{read if isinstance(read, str) else repr(read)}")
        refused = _ask(text, token, f"play({token})", lambda: _refusal(state, action))
        if refused is not None:
            raise Disagreement(text, token, f"legal_actions() lists it, play() refuses it: {refused}")
    after = state.position()
    if after != text or hash(state) != before:
        raise Disagreement(text, None, f"play() changed the state it was called on: it then writes {after}")
    if complete:
        for bit in state.board.sites:          # single placements: listed iff accepted
            place = Place(bit)
            if place in seen:
                continue
            token = fmt(place)
            if _ask(text, token, f"play({token})", lambda: _refusal(state, place)) is None:
                raise Disagreement(text, token, "legal_actions() does not list it, play() accepts it")
    return actions


def _read_back(text: str) -> GameState:
    return registry.from_position(text)


def _parsed(state: GameState, token: str) -> Action | str:
    """The action `token` reads as, or the refusal's text."""
    try:
        return state.parse(token)
    except ValueError as exc:
        return f"nothing ({type(exc).__name__}: {exc})"


def playthrough(state: GameState, seed: int, max_plies: int = 10_000,
                extra: Callable[[GameState, GameState | None], None] | None = None) -> GameState:
    """Play random_action until the game ends or max_plies; check every state on the way
    (:func:`check_state`, then `extra(state, parent)` for a game's own invariants). The last
    state; Disagreement at the first part of the contract that does not hold."""
    rng = random.Random(seed)
    parent = None
    for _ in range(max_plies):
        if extra is not None:
            extra(state, parent)
        actions = check_state(state, rng)
        if not actions:
            break
        text = state.position()
        action = _ask(text, None, "random_action()", lambda: state.random_action(rng))
        if len(actions) <= ENUMERATION_CAP and action not in set(actions):
            raise Disagreement(text, state.format(action), "random_action() chose it, legal_actions() does not list it")
        parent, state = state, _ask(text, state.format(action), "play()", lambda: state.play(action))
    return state


@dataclass(frozen=True)
class Checked:
    """The playthroughs of one size and balance that passed: their number, the states checked
    and how the games ended (termination word -> count; at the ply cap, ``adjudicate()``'s)."""

    size: int
    balance: str
    games: int
    states: int
    ends: dict[str, int]

    def line(self, game_id: str) -> str:
        ends = ", ".join(f"{word} {n}" for word, n in sorted(self.ends.items()))
        return f"{game_id} {self.size} {self.balance}: {self.games} games, {self.states} positions checked; ends: {ends}"


def check_game(info: GameInfo, sizes: tuple[int, ...], games: int, seed: int) -> Iterator[Checked]:
    """`games` seeded playthroughs (seeds `seed`, `seed`+1, ...) of `info` at each of `sizes` and
    each of its balances, one :class:`Checked` each; Disagreement (its `where` set) at the first
    part of the contract that does not hold."""
    for size in sizes:
        for balance in info.balances:
            variant = info.variant(size, [balance])
            cap = info.ply_cap(size)
            states, ends = 0, Counter[str]()
            for n in range(games):
                where = f"{info.id} {size} {balance}, game {n + 1} (seed {seed + n})"
                counted = [0]

                def count(state: GameState, parent: GameState | None) -> None:
                    counted[0] += 1

                try:
                    start = _ask("(new_game failed)", None, "new_game()", lambda: info.new_game(variant, 0))
                    last = playthrough(start, seed + n, cap, count)
                except Disagreement as found:
                    found.where = f"{where}, ply {max(counted[0] - 1, 0)}"
                    raise
                states += counted[0]
                over = last.outcome()
                if over is None:            # stopped at the ply cap: the referee adjudicates
                    over = _ask(last.position(), None, "adjudicate()", last.adjudicate)
                ends[over.termination.value] += 1
            yield Checked(size, balance, games, states, dict(ends))
