"""The game record: one played (or void) game, as the journal and every table see it.

Standard library only. Its closed vocabularies are enums whose values are the
journal's words, so a record read back compares equal to the words:

* :class:`Ending` (`termination`): how the game ended: a rule of the game
  (`no-moves`, `eliminated`, `agreement`), the referee's ply cap (`ply-cap`),
  the referee's adjudication on the engines' winrates (`adjudicated`), a resignation, a forfeit (`time`, `illegal`, `malformed`, `crash`), or `void`.
* :class:`Forfeit` (`forfeit`): the kind of a forfeit, set on the loser's
  fault; tables count `malformed` answers as `illegal` (:attr:`Forfeit.kind`).
* :class:`VoidCause` (`void_cause`): why a game does not count (it is
  replayed on resume): an infrastructure or compatibility fault, never an
  engine's misbehaviour in play.
"""
from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, fields, replace
from enum import StrEnum

#: The journal line's format: 1 lacks `komi`, `pair`, `void_cause`, `forfeit`, `colours`, `left`.
SCHEMA = 2
VOID_RESULT = "Void"


class Ending(StrEnum):
    NO_MOVES = "no-moves"          # the player to move has no legal action
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
    actions: list[str] | None = None   # canonical tokens, first action first (None: not recorded)
    opening: int = 0                   # the first `opening` actions were the schedule's opening
    think: list[float | None] | None = None   # seconds each action took the engine (None: an opening action)
    processes: list[int | None] | None = None  # start numbers of seat 1's and seat 2's engine processes
    komi: int | None = None            # sent with `komi` (None: not sent)
    pair: int | None = None
    void_cause: VoidCause | None = None
    forfeit: Forfeit | None = None
    colours: str | None = None         # the colour of each action's mover, `B` or `W`
    left: list[float | None] | None = None    # seconds left on the mover's clock after each action
    # each action's info lines from `genmove_analyze`, each {"line": verbatim text, "winrate": ...,
    # "score": ..., "visits": ..., "depth": ..., "pv": [...], "other": {key: text}} with the keys
    # given; None for an action whose engine was not asked (and for the record when none was)
    analysis: list[list[dict] | None] | None = None
    identities: list[list[str | None]] | None = None   # [name, version] by seat as answered (None: refused)
    # how an adjudicated game was decided (None for any other): {"rule": "resign" or "draw", "by": "both",
    # "claim" or "concession", "ply": the ply it was decided at, "winrates": [seat 1's, seat 2's]: each
    # engine's winrates on its last moves, oldest first, null for a move without one}
    adjudication: dict | None = None

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
        """The record without its per-action lists (`actions`, `think`, `left`, `colours`,
        `analysis`): what the tables, the live view and the SPRT need, kept in memory by a long run
        (the journal keeps the whole record). `identities` stay."""
        if (self.actions is None and self.think is None and self.left is None and self.colours is None
                and self.analysis is None):
            return self
        return replace(self, actions=None, think=None, left=None, colours=None, analysis=None)

    @property
    def group(self) -> tuple[str, int, str]:
        """The (game, size, variant) the game belongs to: ratings pool it, pairs live in it."""
        return self.game, self.size, self.variant

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=False)

    @classmethod
    def voided(cls, id: str, game: str, size: int, variant: str, first: str, second: str,
               cause: VoidCause, reason: str, **known) -> GameRecord:
        """The record of a void game (`known`: any other field the caller has, e.g. `faulty`, `pair`)."""
        return cls(id=id, game=game, size=size, variant=variant, first=first, second=second,
                   black=first, white=second, winner=None, result=VOID_RESULT, termination=Ending.VOID,
                   plies=0, reason=reason, void_cause=cause, **known)

    @classmethod
    def from_dict(cls, data: dict) -> GameRecord:
        """Build from a decoded JSON object (schema 1 or 2); ValueError naming the first bad field."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        known = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}")
        required = [n for n, f in known.items() if f.default is MISSING]
        missing = [n for n in required if n not in data]
        if missing:
            raise ValueError(f"missing field(s) {', '.join(missing)}")
        for name in ("id", "game", "variant", "first", "second", "black", "white", "result", "termination"):
            if not isinstance(data[name], str):
                raise ValueError(f"field {name!r} must be a string")
        for name in ("size", "plies"):
            if not _is_int(data[name]):
                raise ValueError(f"field {name!r} must be an integer of at most {INT_DIGITS} digits")
        for name in ("komi", "pair"):
            if data.get(name) is not None and not _is_int(data[name]):
                raise ValueError(f"field {name!r} must be an integer of at most {INT_DIGITS} digits, or null")
        if data["winner"] is not None and data["winner"] not in (data["first"], data["second"]):
            raise ValueError(f"winner {data['winner']!r} is neither player")
        words = dict(data, termination=_word(Ending, data, "termination"),
                     void_cause=_word(VoidCause, data, "void_cause"), forfeit=_word(Forfeit, data, "forfeit"))
        if data.get("schema", 1) == 1 and words["forfeit"] is None:
            words["forfeit"] = _schema1_forfeit(words)
        _check_analysis(data.get("analysis"))
        _check_adjudication(data.get("adjudication"))
        _check_kinds(data)
        identities = data.get("identities")
        if identities is not None and not (
                isinstance(identities, list) and len(identities) == 2
                and all(isinstance(i, list) and len(i) == 2 and all(w is None or isinstance(w, str) for w in i)
                        for i in identities)):
            raise ValueError("field 'identities' must be null or two [name, version] pairs of strings or nulls")
        colours = data.get("colours")
        if colours is not None and (not isinstance(colours, str) or set(colours) - {"B", "W"}):
            raise ValueError("field 'colours' must be a string of B and W")
        return cls(**words)


#: The most digits of a record's integer fields: each fits a 64-bit integer (the ratings' tables).
INT_DIGITS = 18


def _check_analysis(value: object) -> None:
    """`analysis`: null, or a list with, per action, null or a list of objects each holding its `line`."""
    if value is None:
        return
    if not isinstance(value, list):
        raise ValueError("field 'analysis' must be a list or null")
    for i, lines in enumerate(value):
        if lines is None:
            continue
        if not isinstance(lines, list) or not all(isinstance(d, dict) and isinstance(d.get("line"), str)
                                                  for d in lines):
            raise ValueError(f"field 'analysis': action {i + 1} must be null or a list of objects with a 'line'")


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


#: Fields beyond the required ones, and what each must hold: (strings or null, numbers or null,
#: whole numbers or null), each as one value or as a list of them.
_TEXT = ("reason", "started")
_MAYBE_TEXT = ("faulty", "sgf")
_LISTS = {"actions": (str,), "think": (int, float, type(None)), "left": (int, float, type(None)),
          "processes": (int, type(None))}


def _check_kinds(data: dict) -> None:
    """ValueError naming the first field of `data` whose value is not of its kind (the per-action
    lists, the texts, `seconds`, `opening`, `schema`), so that every reader meets only records it
    can use."""
    for name in _TEXT:
        if name in data and not isinstance(data[name], str):
            raise ValueError(f"field {name!r} must be a string")
    for name in _MAYBE_TEXT:
        if data.get(name) is not None and not isinstance(data[name], str):
            raise ValueError(f"field {name!r} must be a string or null")
    if "seconds" in data and not (_is_number(data["seconds"]) and 0 <= data["seconds"] < 10 ** INT_DIGITS):
        raise ValueError("field 'seconds' must be a number >= 0")
    for name in ("opening", "schema"):
        if name in data and not (_is_int(data[name]) and data[name] >= 0):
            raise ValueError(f"field {name!r} must be an integer >= 0")
    for name, kinds in _LISTS.items():
        value = data.get(name)
        if value is not None and not (isinstance(value, list) and all(
                isinstance(v, kinds) and not isinstance(v, bool) for v in value)):
            what = {"actions": "strings", "processes": "integers or nulls"}.get(name, "numbers or nulls")
            raise ValueError(f"field {name!r} must be a list of {what}, or null")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10 ** INT_DIGITS


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
