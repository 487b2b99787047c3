"""The generic game interface every game implements, and the conventions they share.

A game is a package ``engine/games/<game>/`` whose ``__init__`` exports a
:class:`GameInfo` named ``RULES``, and a state class deriving from
:class:`StoneState`. Everything above the rules (protocol, players, referee)
works through these two only. The conventions (docs/architecture.md):

* **Constructors.** Each game's state module defines ``new_game(variant, komi)``,
  ``from_position(variant, pos, keys)`` and ``ply_cap(n)`` under those names and
  hands them to its GameInfo. ``from_position`` takes a well-formed position as
  written (``keys`` are the values :meth:`GameInfo.read_keys` read) and judges
  nothing beyond form.
* **Position keys.** ``GameInfo.keys`` declares the game's keys beyond
  ``variant`` and the options, in print order, with defaults and readers
  (engine.position.Key); there is no central list.
* **Phases.** A per-game ``Phase(StrEnum)`` whose values are the protocol's
  ``phase=`` words; states compare phases by identity (``is Phase.PLAY``).
* **Derived data.** A state caches what it derives in one private dict field,
  ``_memo`` (``compare=False, hash=False, repr=False``), keyed by short string
  names its class docstring lists. Entries never change what the state means;
  a parent may seed a child's ``_memo`` with data it already computed (the
  board analysis after a placement). Nothing outside the state's own module
  reads or writes ``_memo``.
* **Geometry.** Bitboard primitives (iter_bits, nth_bit, expand, flood, rays)
  come from engine.geometry; games do not re-implement them.
"""
from __future__ import annotations

import abc
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, ClassVar

from .actions import Action, Swap
from .core import Colour, Outcome, Termination
from .errors import UnknownVariant
from .geometry import MAX_SIZE, MIN_SIZE, Hexagon, hexagon, iter_bits
from .notation import format_action, parse_action, read_action
from .position import Key, Position, format_position, read_keys


#: How drawings show a board (``GameInfo.drawing``): hexagonal cells, or the points of a triangular grid.
DRAWINGS = ("cells", "points")


@dataclass(frozen=True, slots=True)
class Variant:
    """Game, board side, balance and every option (defaults filled in, in the game's order)."""

    game: str
    size: int
    balance: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def board(self) -> Hexagon:
        return hexagon(self.size)

    def option(self, name: str) -> str:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)


@dataclass(frozen=True)
class GameInfo:
    """What the layers above need to know about a game, and its two constructors."""

    id: str
    title: str
    sgf_number: int
    sizes: tuple[int, ...]                      # recommended sizes
    default_size: int
    balances: tuple[str, ...]                   # the first is the default
    options: tuple[tuple[str, tuple[str, ...]], ...]  # name -> values, the first is the default
    forms: frozenset[type]                      # the action classes of the game (notation)
    new_game: Callable[[Variant, int], "GameState"]   # (variant, komi setting) -> initial state
    from_position: Callable[[Variant, Position, dict[str, Any]], "GameState"]  # (variant, position, read_keys)
    ply_cap: Callable[[int], int]               # board side -> the referee's default cap
    keys: tuple[Key, ...] = ()                  # position keys beyond variant and options, in print order
    no_move_wins: bool = False                  # Marbanta: the player unable to move wins
    uses_komi: bool = False                     # the `komi` command means something
    stacks: bool = False                        # sites hold stacks with heights (Vaxandis)
    drawing: str = "cells"                      # drawings show each site as a hexagonal "cells" or as
                                                # one of the "points" of a triangular grid
    shown_keys: tuple[str, ...] = ()            # position keys every drawing shows beside the phase
    komi_words: str = ""                        # what a komi offer means, told to a person who makes one
    first_run_size: int | None = None           # the side of `hexarena tournament` with no config, when its
                                                # quick players' games would not end by the rules at min(sizes)
    rules_page: Path | None = None              # a Markdown file of the rules, shown by `hexarena play` (a game
                                                # HEXARENA_GAMES adds; the built-in ones' are docs/rules/<id>.md)

    def __post_init__(self) -> None:
        if self.drawing not in DRAWINGS:
            raise ValueError(f"game {self.id!r}: drawing {self.drawing!r} is not one of {', '.join(DRAWINGS)}")
        known = {k.name for k in self.keys}
        unknown = [name for name in self.shown_keys if name not in known]
        if unknown:
            raise ValueError(f"game {self.id!r}: shown key {unknown[0]!r} is not one of its keys")

    def variant(self, size: int | None = None, tokens: list[str] | tuple[str, ...] = ()) -> Variant:
        """Build a variant from `game` arguments (balance and OPTION=VALUE, any order) at board
        side `size` (None: the game's default).

        Raises UnknownVariant naming the offending token, or a side outside the boards' range.
        """
        if size is not None and (isinstance(size, bool) or not isinstance(size, int)
                                 or not MIN_SIZE <= size <= MAX_SIZE):
            raise UnknownVariant(f"board side {size!r} outside {MIN_SIZE}..{MAX_SIZE}")
        balance = None
        chosen: dict[str, str] = {}
        allowed = dict(self.options)
        for tok in tokens:
            t = tok.lower()
            if "=" in t:
                key, _, value = t.partition("=")
                if key not in allowed:
                    raise UnknownVariant(f"{self.id} has no option {key!r}")
                if value not in allowed[key]:
                    raise UnknownVariant(f"{key}={value}: expected one of {', '.join(allowed[key])}")
                if key in chosen:
                    raise UnknownVariant(f"option {key!r} given twice")
                chosen[key] = value
            elif t in self.balances:
                if balance is not None:
                    raise UnknownVariant("balance given twice")
                balance = t
            else:
                raise UnknownVariant(f"{tok!r} is neither a balance ({', '.join(self.balances)}) nor an option")
        opts = tuple((name, chosen.get(name, values[0])) for name, values in self.options)
        return Variant(self.id, self.default_size if size is None else size, balance or self.balances[0], opts)

    def describe(self, variant: Variant) -> str:
        """`ID BALANCE [OPTION=VALUE ...]` with only the options off their default."""
        defaults = dict((name, values[0]) for name, values in self.options)
        extra = [f"{k}={v}" for k, v in variant.options if v != defaults[k]]
        return " ".join([self.id, variant.balance, *extra])

    def position_defaults(self) -> dict[str, str]:
        """Every key of this game's position string -> its default, in print order
        (docs/protocol.md: `variant`, the options, then the game's own keys)."""
        return {"variant": self.balances[0], **{name: values[0] for name, values in self.options},
                **{k.name: k.default for k in self.keys}}

    def key_text(self, pos: Position, name: str) -> str:
        """The value of key `name` in `pos` as text: as written, else this game's default."""
        return pos.keys.get(name, self.position_defaults().get(name, ""))

    def shown(self, keys: Mapping[str, str]) -> list[str]:
        """The `shown_keys` as a drawing prints them, from a position's keys as text (a missing
        key at its default): ``prison: 2 black, 0 white`` for a per-colour pair, else ``NAME: VALUE``."""
        defaults = self.position_defaults()
        out = []
        for name in self.shown_keys:
            value = keys.get(name, defaults[name])
            black, comma, white = value.partition(",")
            out.append(f"{name}: {black} black, {white} white" if comma else f"{name}: {value}")
        return out

    def read_keys(self, pos: Position) -> dict[str, Any]:
        """The typed values of the game's own keys (defaults filled in); InvalidPosition
        for a key the game does not have or a value that is not well formed."""
        return read_keys(pos, self.keys, also=("variant", *(name for name, _ in self.options)))

    def parse_action(self, token: str, board: Hexagon) -> Action:
        return parse_action(token, board, self.forms)


#: The largest ply a playout's cap may name (the core counts plies in 32 bits).
MAX_CAP = 2 ** 32 - 1


def checked_cap(cap: int) -> int:
    """`cap` when it is a ply a playout may stop at, 0..MAX_CAP; ValueError naming it otherwise
    (asked before the core is called, which would overflow)."""
    if not 0 <= cap <= MAX_CAP:
        raise ValueError(f"playout cap {cap}: expected a ply from 0 to {MAX_CAP}")
    return cap


class GameState(abc.ABC):
    """An immutable game position. Subclasses are frozen dataclasses, or a class of the compiled
    core's (``CoreAndaState``, ``CorePrisonState``, ``CoreMarbantaState``, ``CoreSpeldeState``,
    ``CoreVaxandisState``: each a virtual subclass of its game's dataclass).

    Contract: ``play`` never mutates and raises IllegalMove (with a reason) for
    anything not in ``legal_actions``; ``legal_actions`` is complete, canonical
    and duplicate-free, and empty exactly when ``outcome()`` is not None.
    """

    __slots__ = ()
    info: ClassVar[GameInfo]  # class attribute of each game's state
    variant: Variant
    to_move: Colour
    ply: int

    @property
    def board(self) -> Hexagon:
        return hexagon(self.variant.size)

    @abc.abstractmethod
    def legal_actions(self) -> Iterator[Action]:
        """Every legal action of the side to move (lazily: Spelde's may be millions)."""

    @abc.abstractmethod
    def legal_cells(self) -> int:
        """Bitboard of the sites where the side to move can place a single stone now."""

    @abc.abstractmethod
    def play(self, action: Action) -> GameState:
        """The state after `action`; IllegalMove if the rules forbid it now."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game goes on."""

    @abc.abstractmethod
    def random_action(self, rng: random.Random) -> Action:
        """A random legal action, the built-in random player's distribution.

        Uniform over the turn's choices, where all actions that place on the
        same site (Spelde's flip sets, Marbanta's groups of one root) count as
        one choice, then uniform over that choice's completions. Every other
        action (a word, a pair, a move) is a choice of its own. Need not
        enumerate every action. ValueError when the game is over."""

    @abc.abstractmethod
    def to_position(self) -> Position:
        """This state as a Position (every key this game uses, defaults included)."""

    def position_keys(self) -> dict[str, str]:
        """The keys of ``to_position()`` alone, without reading the stones (a replay asks for
        them at every ply)."""
        return self.to_position().keys

    def changes(self, before: GameState | None) -> dict[int, tuple[Colour, int] | None]:
        """The sites whose stone or stack differs from `before`'s (every occupied site when
        `before` is None), each with its (colour, height), None where it was emptied: what
        ``to_position().stacks`` of the two states say, read cheaper where a game can (a
        replay asks at every ply)."""
        current = self.to_position().stacks
        previous = {} if before is None else before.to_position().stacks
        return {bit: current.get(bit) for bit, _ in current.items() ^ previous.items()}

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        """Random actions (``random_action``) until the rules end the game or the ply reaches
        `cap`: the last state and the number of ``swap``s played (each exchanges the players).
        The compiled core plays the whole playout in one call, from the same distribution.
        ValueError for a `cap` outside 0..MAX_CAP (:func:`checked_cap`), in both."""
        checked_cap(cap)
        state: GameState = self
        swaps = 0
        while state.outcome() is None and state.ply < cap:
            action = state.random_action(rng)
            swaps += type(action) is Swap
            state = state.play(action)
        return state, swaps

    def listed_actions(self, cap: int) -> list[Action] | None:
        """The legal actions in ``legal_actions``' order when there are at most `cap`, else None
        (a core state may tell without building them)."""
        actions = list(islice(self.legal_actions(), cap + 1))
        return actions if len(actions) <= cap else None

    def traced_playout(self, rng: random.Random, cap: int) -> tuple[GameState, int, list[tuple[Colour, Action]]]:
        """:meth:`playout` with the actions played, each with its mover, in order (the same
        draws from `rng` as ``playout``: a core state may answer it in the core)."""
        checked_cap(cap)
        state: GameState = self
        swaps = 0
        trace: list[tuple[Colour, Action]] = []
        while state.outcome() is None and state.ply < cap:
            action = state.random_action(rng)
            trace.append((state.to_move, action))
            swaps += type(action) is Swap
            state = state.play(action)
        return state, swaps, trace

    def adjudicate(self) -> Outcome:
        """The referee's verdict at its ply cap: a draw unless the game scores (Anda-prison)."""
        return Outcome(None, Termination.PLY_CAP)

    def is_legal(self, action: Action) -> bool:
        try:
            self.play(action)
        except ValueError:
            return False
        return True

    def position(self) -> str:
        """The canonical position string."""
        return format_position(self.to_position(), self.info.position_defaults(),
                               heights=self.info.stacks)

    def format(self, action: Action) -> str:
        return format_action(action, self.board)

    def parse(self, token: str) -> Action:
        """Decode a token for this game and board: InvalidNotation or IllegalMove on bad input."""
        return self.info.parse_action(token, self.board)

    def read(self, token: str) -> tuple[Action, str]:
        """:meth:`parse` and the canonical token of the action (:meth:`format`), in one call."""
        return read_action(token, self.board, self.info.forms)


@dataclass(frozen=True, slots=True)
class StoneState(GameState):
    """The fields every game's state begins with; games add theirs after these.

    `black` and `white` are bitboards of the sites each colour occupies
    (Vaxandis keeps its heights in a field of its own).
    """

    variant: Variant
    to_move: Colour
    ply: int
    black: int
    white: int

    def changes(self, before: GameState | None) -> dict[int, tuple[Colour, int] | None]:
        if self.info.stacks or not isinstance(before, (StoneState, type(None))):
            return GameState.changes(self, before)
        black, white = (0, 0) if before is None else (before.black, before.white)
        b, w = self.black, self.white
        out: dict[int, tuple[Colour, int] | None] = {}
        for bit in iter_bits((b ^ black) | (w ^ white)):
            now = _stone(b, w, bit)                 # as to_position: White's stones written last
            if now != _stone(black, white, bit):
                out[bit] = now
        return out


def _stone(black: int, white: int, bit: int) -> tuple[Colour, int] | None:
    return (Colour.WHITE, 1) if white >> bit & 1 else (Colour.BLACK, 1) if black >> bit & 1 else None
