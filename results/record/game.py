"""The game record: one played (or void) game, as the journal and every table see it.

Standard library only. Its closed vocabularies are enums whose values are the
journal's words, so a record read back compares equal to the words:

* :class:`Ending` (`termination`): how the game ended: a rule of the game
  (`no-moves`, `goal`, `eliminated`, `agreement`), the referee's ply cap (`ply-cap`),
  the referee's adjudication on the engines' winrates (`adjudicated`), a resignation, a forfeit (`time`, `illegal`, `malformed`, `crash`), or `void`.
* :class:`Forfeit` (`forfeit`): the kind of a forfeit, set on the loser's
  fault; tables count `malformed` answers as `illegal` (:attr:`Forfeit.kind`).
* :class:`VoidCause` (`void_cause`): why a game does not count (it is
  replayed on resume): an infrastructure or compatibility fault, never an
  engine's misbehaviour in play.

The game's actions are one list of :class:`~.moves.Move` values (`moves`): each with its
token, its mover's colour, its think time, the clock left and its analysis. Journal lines
of schema 3 write them so (results/record/moves.py gives their keys); lines of schemas 1
and 2, which kept the same facts in parallel lists, read into the same values.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import MISSING, dataclass, fields, replace
from enum import StrEnum

from .moves import Move, moves_from_json, moves_of_lists

#: A schema-3 line's field before its moves: the CRC-32 of the moves' JSON text (UTF-8), 8
#: lowercase hex digits. A reader of summaries that finds it matching skips the moves' check
#: (results/record/journal.py, :func:`~.journal.parse_summary`); every reader checks its form and
#: no reader refuses a line for its value (a line edited by hand reads as any unsealed line).
SEAL = "seal"
_HEX = frozenset("0123456789abcdef")


def seal_of(moves_text: bytes) -> str:
    """The seal of a line whose moves are `moves_text` (their JSON, UTF-8)."""
    return f"{zlib.crc32(moves_text):08x}"

#: The journal line's format: 3 keeps the actions as one list of `moves`; 2 kept them in parallel
#: lists (`actions`, `think`, `colours`, `left`, `analysis`); 1 also lacks `komi`, `pair`,
#: `void_cause`, `forfeit`, `colours`, `left`.
SCHEMA = 3
#: The parallel lists of schemas 1 and 2, read into `moves`.
PARALLEL_LISTS = ("actions", "think", "colours", "left", "analysis")
VOID_RESULT = "Void"


class Ending(StrEnum):
    NO_MOVES = "no-moves"          # the player to move has no legal action
    GOAL = "goal"                  # a colour reached the goal the game's rules define
    ELIMINATED = "eliminated"      # a colour has no stones left
    AGREEMENT = "agreement"        # an accepted proposal, scored
    PLY_CAP = "ply-cap"            # the referee's cap, adjudicated
    ADJUDICATED = "adjudicated"    # the engines' winrates decided it ([adjudication], docs/tournament.md)
    RESIGN = "resign"
    TIME = "time"                  # forfeits: an engine past its deadline
    ILLEGAL = "illegal"            # an action the rules forbid
    MALFORMED = "malformed"        # an answer that is not an action of the game
    CRASH = "crash"                # the engine died or broke the protocol
    VOID = "void"                  # the game does not count


class Forfeit(StrEnum):
    TIME = "time"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    CRASH = "crash"

    @property
    def kind(self) -> str:
        """The column it is counted in by the tables (:data:`FORFEIT_KINDS`)."""
        return "illegal" if self is Forfeit.MALFORMED else self.value


#: The record fields ratings may be grouped by (`hexarena ratings --by`), in table order.
GROUP_KEYS = ("game", "size")

#: The tables' forfeit columns, in order.
FORFEIT_KINDS = ("time", "illegal", "crash")


class VoidCause(StrEnum):
    START = "start"                # an engine could not be spawned or gave no valid first answer
    UNSUPPORTED = "unsupported"    # protocol version, game, variant, size or komi refused
    HANDSHAKE = "handshake"        # both engines failed the handshake
    OPENING = "opening"            # an engine refused an action of the schedule's opening
    REFEREE = "referee"            # an unexpected exception in the referee (a bug: see stderr)
    CLUSTER = "cluster"            # the game's task was lost on the cluster, resubmissions included
    REJECTED = "rejected"          # a cluster worker's record that the rules do not confirm (hexarena/cluster_check.py)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One played game. Player fields are engine names as given in the schedule.

    `first` made the first action of the game (seat 1), `second` is seat 2;
    `black`/`white` hold the colours at the end (after any swap). `winner`
    is a player name, or None for a draw or a void game. `result` is the SGF
    RE value (`B+`, `W+R`, `B+T`, `B+F`, `B+2.5`, `0`, `Void`). `pair` numbers
    the game pair (two games with the same opening, seats exchanged) within
    the game's (game, size, variant) group; None for a game without a partner.
    """

    id: str
    game: str
    size: int
    variant: str
    first: str
    second: str
    black: str
    white: str
    winner: str | None
    result: str
    termination: Ending
    plies: int
    reason: str = ""
    faulty: str | None = None      # the player at fault for a forfeit, or the one that failed to start
    sgf: str | None = None         # path of the SGF record, relative to the journal's folder
    started: str = ""              # ISO 8601 UTC
    seconds: float = 0.0
    schema: int = SCHEMA
    opening: int = 0                   # the first `opening` moves were the schedule's opening
    processes: list[int | None] | None = None  # start numbers of seat 1's and seat 2's engine processes
    komi: int | None = None            # sent with `komi` (None: not sent)
    pair: int | None = None
    void_cause: VoidCause | None = None
    forfeit: Forfeit | None = None
    identities: list[list[str | None]] | None = None   # [name, version] by seat as answered (None: refused)
    # how an adjudicated game was decided (None for any other): {"rule": "resign" or "draw", "by": "both",
    # "claim" or "concession", "ply": the ply it was decided at, "winrates": [seat 1's, seat 2's]: each
    # engine's winrates on its last moves, oldest first, null for a move without one}
    adjudication: dict | None = None
    moves: tuple[Move, ...] | None = None    # every action, first first (None: not recorded, or a summary)

    def __post_init__(self) -> None:
        """The closed vocabularies as enums, also when built from their words."""
        object.__setattr__(self, "termination", Ending(self.termination))
        if self.void_cause is not None:
            object.__setattr__(self, "void_cause", VoidCause(self.void_cause))
        if self.forfeit is not None:
            object.__setattr__(self, "forfeit", Forfeit(self.forfeit))

    @property
    def void(self) -> bool:
        return self.termination is Ending.VOID

    @property
    def adjudicated_by(self) -> str | None:
        """How an adjudicated game was decided, for counts: `resign` (both engines agreed), `resign-claim`,
        `resign-concession` (one engine's word), `draw`; None for a game not adjudicated."""
        if self.adjudication is None:
            return None
        rule, by = self.adjudication["rule"], self.adjudication["by"]
        return rule if by == "both" else f"{rule}-{by}"

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.second if self.winner == self.first else self.first

    def summary(self) -> GameRecord:
        """The record without its moves: what the tables, the live view and the SPRT need, kept in
        memory by a long run (the journal keeps the whole record). `identities` stay."""
        return self if self.moves is None else replace(self, moves=None)

    @property
    def tokens(self) -> list[str] | None:
        """The moves' action tokens, first first (None: the moves are not recorded)."""
        return None if self.moves is None else [m.action for m in self.moves]

    @property
    def group(self) -> tuple[str, int, str]:
        """The (game, size, variant) the game belongs to: ratings pool it, pairs live in it."""
        return self.game, self.size, self.variant

    def to_dict(self) -> dict:
        """The journal's JSON object (schema 3) of this record, which :meth:`from_dict` reads."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["schema"] = SCHEMA
        if self.moves is not None:
            data["moves"] = [m.to_json() for m in self.moves]
        return data

    def to_json(self) -> str:
        """The journal line (schema 3) of this record, without its newline: :meth:`to_dict`'s
        fields in order, then ``seal`` (:func:`seal_of` the moves' text) and ``moves`` last."""
        data = self.to_dict()
        moves = json.dumps(data.pop("moves", None), ensure_ascii=False)
        head = json.dumps(data, ensure_ascii=False)
        return f'{head[:-1]}, "{SEAL}": "{seal_of(moves.encode())}", "moves": {moves}}}'

    @classmethod
    def voided(cls, id: str, game: str, size: int, variant: str, first: str, second: str,
               cause: VoidCause, reason: str, **known) -> GameRecord:
        """The record of a void game (`known`: any other field the caller has, e.g. `faulty`, `pair`)."""
        return cls(id=id, game=game, size=size, variant=variant, first=first, second=second,
                   black=first, white=second, winner=None, result=VOID_RESULT, termination=Ending.VOID,
                   plies=0, reason=reason, void_cause=cause, **known)

    @classmethod
    def from_dict(cls, data: dict) -> GameRecord:
        """Build from a decoded JSON object (schema 1, 2 or 3); ValueError naming the first bad field."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        schema = data.get("schema", 1)
        if not _is_int(schema) or not 1 <= schema <= SCHEMA:
            raise ValueError(f"field 'schema': {schema!r} is not a schema this release reads (1 to {SCHEMA})")
        unknown = data.keys() - (_FIELDS if schema == SCHEMA else _OLD_FIELDS) - {SEAL}
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}")
        seal = data.get(SEAL)
        if SEAL in data and not (isinstance(seal, str) and len(seal) == 8 and all(c in _HEX for c in seal)):
            raise ValueError(f"field {SEAL!r} must be 8 lowercase hexadecimal digits, got {_shown(seal)}")
        missing = [n for n in _REQUIRED if n not in data]
        if missing:
            raise ValueError(f"missing field(s) {', '.join(missing)}")
        for name, (_, text) in _TYPES.items():
            if name in data and not _of(data[name], name):
                raise ValueError(f"field {name!r} must be {text}, got {_shown(data[name])}")
        for name in ("size", "plies", "opening", "komi", "pair"):
            if data.get(name) is not None and not _is_int(data[name]):
                raise ValueError(f"field {name!r} must be an integer of at most {INT_DIGITS} digits")
        _check_sense(data)
        moves = (moves_of_lists(*(data.get(name) for name in PARALLEL_LISTS)) if schema < 3
                 else moves_from_json(data.get("moves")))
        words = {k: v for k, v in data.items() if k not in PARALLEL_LISTS and k != SEAL}
        words.update(termination=_word(Ending, data, "termination"), moves=moves,
                     void_cause=_word(VoidCause, data, "void_cause"), forfeit=_word(Forfeit, data, "forfeit"))
        if schema == 1 and words["forfeit"] is None:
            words["forfeit"] = _schema1_forfeit(words)
        _check_adjudication(data.get("adjudication"))
        _check_kinds(data)
        identities = data.get("identities")
        if identities is not None and not (
                isinstance(identities, list) and len(identities) == 2
                and all(isinstance(i, list) and len(i) == 2 and all(w is None or isinstance(w, str) for w in i)
                        for i in identities)):
            raise ValueError("field 'identities' must be null or two [name, version] pairs of strings or nulls")
        processes = data.get("processes")
        if processes is not None and not (isinstance(processes, list)
                                          and all(p is None or _is_int(p) for p in processes)):
            raise ValueError("field 'processes' must be null or a list of integers or nulls")
        return cls(**words)


#: The fields of a schema-3 line, of a schema-1 or -2 line, and those every line has (and any
#: line may have a seal).
_FIELDS = frozenset(f.name for f in fields(GameRecord))
_OLD_FIELDS = (_FIELDS - {"moves"}) | set(PARALLEL_LISTS)
_REQUIRED = tuple(f.name for f in fields(GameRecord) if f.default is MISSING)


#: The JSON types of a journal line's scalar fields: (types, what the error says); None allows null.
_TYPES: dict[str, tuple[tuple, str]] = {
    **{name: ((str,), "a string") for name in ("id", "game", "variant", "first", "second", "black", "white",
                                               "result", "termination", "reason", "started")},
    **{name: ((str, None), "a string or null") for name in ("winner", "faulty", "sgf", "void_cause",
                                                               "forfeit")},
    **{name: ((int,), "an integer") for name in ("size", "plies", "opening")},
    **{name: ((int, None), "an integer or null") for name in ("komi", "pair")},
    "seconds": ((int, float), "a number"),
}


#: _TYPES as (the Python types, whether null is allowed) by field: what every line's check reads.
_KINDS = {name: (tuple(k for k in kinds if k is not None), None in kinds) for name, (kinds, _) in _TYPES.items()}


def _of(value: object, name: str) -> bool:
    types, nullable = _KINDS[name]
    if value is None:
        return nullable
    return isinstance(value, types) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """A JSON value in an error message, cut to a line."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 60 else text[:57] + "..."


#: The most digits of a record's integer fields: each fits a 64-bit integer (the ratings' tables).
INT_DIGITS = 18
_INT_BOUND = 10 ** INT_DIGITS


#: The words of an `adjudication` field: its rules and who decided.
ADJUDICATION_RULES = ("resign", "draw")
ADJUDICATION_BY = ("both", "claim", "concession")


def _check_adjudication(value: object) -> None:
    """`adjudication`: null, or {rule, by, ply, winrates: two lists of numbers in 0..1 or nulls}."""
    if value is None:
        return
    if not isinstance(value, dict) or set(value) != {"rule", "by", "ply", "winrates"}:
        raise ValueError("field 'adjudication' must be null or an object with rule, by, ply and winrates")
    if value["rule"] not in ADJUDICATION_RULES or value["by"] not in ADJUDICATION_BY:
        raise ValueError(f"field 'adjudication': rule {value['rule']!r} by {value['by']!r} is not one of "
                         f"{', '.join(ADJUDICATION_RULES)} by {', '.join(ADJUDICATION_BY)}")
    if not _is_int(value["ply"]) or value["ply"] < 0:
        raise ValueError("field 'adjudication': ply must be an integer >= 0")
    winrates = value["winrates"]
    if not (isinstance(winrates, list) and len(winrates) == 2 and all(
            isinstance(side, list) and all(w is None or (_is_number(w) and 0 <= w <= 1) for w in side)
            for side in winrates)):
        raise ValueError("field 'adjudication': winrates must be two lists of numbers in 0..1 or nulls")


def _check_sense(data: dict) -> None:
    """ValueError for a record whose fields contradict each other (their types are checked
    already): the colours are not the two players', the winner is neither, or the result (`0`, `Void`,
    `B+...`, `W+...`) names another winner than `winner` or disagrees with a void termination."""
    first, second, black, white, winner, result = (data[n] for n in ("first", "second", "black", "white",
                                                                        "winner", "result"))
    if sorted((black, white)) != sorted((first, second)):
        raise ValueError(f"black {black!r} and white {white!r} are not the players {first!r} and {second!r}")
    if winner is not None and winner not in (first, second):
        raise ValueError(f"winner {winner!r} is neither player")
    void = data["termination"] == Ending.VOID.value
    if result == VOID_RESULT or void:
        if not (result == VOID_RESULT and void and winner is None):
            raise ValueError(f"result {result!r}, termination {data['termination']!r} and winner {winner!r}: "
                             f"a void game has result {VOID_RESULT!r}, termination 'void' and no winner")
        return
    if result == "0":
        expected = None
    elif result.startswith(("B+", "W+")):
        expected = black if result[0] == "B" else white
    else:
        raise ValueError(f"result {_shown(result)} is not 0, {VOID_RESULT}, B+... or W+...")
    if winner != expected:
        raise ValueError(f"result {_shown(result)} against winner {winner!r} (black {black!r}, white {white!r})")


def _check_kinds(data: dict) -> None:
    """ValueError for a `seconds` below 0 or past the integers' digits, or an `opening` below 0
    (their types are checked already), so that every reader meets only records it can use."""
    if "seconds" in data and not 0 <= data["seconds"] < _INT_BOUND:
        raise ValueError("field 'seconds' must be a number >= 0")
    if data.get("opening", 0) < 0:
        raise ValueError("field 'opening' must be an integer >= 0")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < _INT_BOUND


def _word(enum: type[StrEnum], data: dict, name: str):
    value = data.get(name)
    if value is None:
        return None
    try:
        return enum(value)
    except ValueError:
        raise ValueError(f"field {name!r}: {value!r} is not one of {', '.join(m.value for m in enum)}") from None


def _schema1_forfeit(words: dict) -> Forfeit | None:
    """A schema-1 line's forfeit, from its structured fields: a game with a winner whose loser is
    at fault, ended by a forfeit's termination."""
    if words.get("faulty") is None or words["winner"] is None:
        return None
    try:
        return Forfeit(words["termination"].value)
    except ValueError:
        return None
