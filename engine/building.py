"""One action built from a person's clicks (the browser's play page and analysis board).

A person makes an action by clicking sites, in the order the token names them, and words
as buttons: `e5`; Anda's first-turn pair (two sites, any order); Marbanta's pie (the black
stone, then the white); Spelde's site, then the stones it flips; a Vaxandis stack, then where
it lands; a Marbanta root, then its branched stones; `swap`, `keep`, `pass`, `release`,
`propose`, `accept`, `decline`, `resign` and `komi=K` as buttons. :class:`Builder` answers,
for one state and the sites clicked so far, which sites may come next, which words are legal,
and the action when the clicks make one. Everything it says is read from the rules
(``legal_actions``, ``legal_cells``, ``play`` and its reasons): it knows which clicks make which
token shape, and no rule of any game.

Spelde's flip sets are too many to list (millions on a 6-board), so a Spelde site's flips are
judged by ``play`` over the subsets of the stones of the enemy groups next to it: exactly
while at most :data:`EXACT_FLIPS` of them are still unpicked, else every such stone is offered
and the rules' reason is shown until the picked set is legal (``Step.exact`` is then False).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .actions import WORDS, Action, Grow, Komi, Move, Pair, PieStones, Place, Resign, Split
from .core import Colour
from .errors import IllegalMove
from .game import GameState, StoneState
from .geometry import iter_bits

#: Unpicked candidate stones up to which a Spelde site's flip choices are judged exactly.
EXACT_FLIPS = 12

#: The role of each click of a form, in click order (the last role repeats).
ROLES: dict[type, tuple[str, ...]] = {
    Place: ("place",), Pair: ("pair", "pair"), PieStones: ("black", "white"), Move: ("from", "to"),
    Grow: ("root", "branch"), Split: ("place", "flip"),
}

Shape = tuple[tuple[int, ...], frozenset[int], Action]     # ordered clicks, then a set of clicks, the action


class Refused(ValueError):
    """A click that no legal action of the side to move goes on with; the message says why."""


@dataclass(frozen=True)
class Step:
    """What the clicks so far make (``targets`` a bitboard of the sites that may come next)."""

    clicks: tuple[int, ...]
    roles: tuple[str, ...]           # per click: place, pair, black, white, from, to, root, branch, flip
    targets: int
    action: Action | None            # the legal action the clicks make, if they make one
    more: bool                       # more clicks may still make another legal action
    hint: str                        # what to click next, or why the clicks are no action yet
    exact: bool = True               # False: targets may include dead ends (Spelde, many flips)


def _shape(action: Action) -> Shape | None:
    match action:
        case Place(cell):
            return (cell,), frozenset(), action
        case Pair(a, b):
            return (), frozenset((a, b)), action
        case PieStones(black, white):
            return (black, white), frozenset(), action
        case Move(src, dst):
            return (src, dst), frozenset(), action
        case Grow(root, branches):
            return (root,), frozenset(branches), action
        case Split(cell, flips):
            return (cell,), frozenset(iter_bits(flips)), action
    return None


def _matches(clicks: Sequence[int], shape: Shape) -> bool:
    head, tail, _ = shape
    if len(clicks) <= len(head):
        return tuple(clicks) == head[:len(clicks)]
    rest = clicks[len(head):]
    return tuple(clicks[:len(head)]) == head and len(set(rest)) == len(rest) and tail.issuperset(rest)


def _complete(clicks: Sequence[int], shape: Shape) -> bool:
    head, tail, _ = shape
    return len(clicks) == len(head) + len(tail)


def _next(clicks: Sequence[int], shape: Shape) -> int:
    head, tail, _ = shape
    if len(clicks) < len(head):
        return 1 << head[len(clicks)]
    out = 0
    for s in tail.difference(clicks[len(head):]):
        out |= 1 << s
    return out


class Builder:
    """The clicks of one state (the side to move). Build once per state: it lists the state's
    actions on creation (except Spelde's flips, judged per site)."""

    def __init__(self, state: GameState):
        self.state = state
        self.board = state.board
        forms = state.info.forms
        self.by_rules = Split in forms            # Spelde: flip sets judged by play, never listed
        self.words: list[str] = []
        self.komi: list[int] = []
        self._index: dict[int, list[Shape]] = {}
        self.first = 0                            # bitboard: the sites a first click may name
        if state.outcome() is not None:
            return
        if self.by_rules:
            self.words = [w for w, cls in WORDS.items() if cls in forms and cls is not Resign and state.is_legal(cls())]
            self.first = state.legal_cells()
        else:
            for action in state.legal_actions():
                shape = _shape(action)
                if shape is None:
                    if isinstance(action, Komi):
                        self.komi.append(action.k)
                    else:
                        self.words.append(state.format(action))
                    continue
                head, tail, _ = shape
                for key in head[:1] or tail:
                    self._index.setdefault(key, []).append(shape)
                    self.first |= 1 << key
        self.words.append("resign")

    # -- the public steps -------------------------------------------------------------------------
    def step(self, clicks: Sequence[int]) -> Step:
        """What `clicks` make; Refused (with the rules' reason where they give one) when no legal
        action goes on with them."""
        clicks = tuple(clicks)
        if not clicks:
            return Step((), (), self.first, None, bool(self.first), self._hint_start())
        if self.by_rules:
            return self._spelde(clicks)
        shapes = [s for s in self._index.get(clicks[0], ()) if _matches(clicks, s)]
        if not shapes:
            raise Refused(self._reason(clicks))
        targets = 0
        action = None
        more = False
        for s in shapes:
            if _complete(clicks, s):
                action = s[2]
            else:
                more = True
                targets |= _next(clicks, s)
        form = type(shapes[0][2])
        return Step(clicks, _roles(form, len(clicks)), targets, action, more,
                    self._hint(form, clicks, shapes, action))

    def click(self, clicks: Sequence[int], site: int) -> Step:
        """The step after clicking `site`: a site already clicked is taken back (with the clicks
        after it when it was one of an ordered part); Refused when `site` cannot come next."""
        clicks = tuple(clicks)
        if site in clicks:
            i = clicks.index(site)
            fewer = clicks[:i] + clicks[i + 1:]
            try:
                return self.step(fewer)
            except Refused:
                return self.step(clicks[:i])
        if not self.board.is_site(site):
            raise Refused("off the board")
        return self.step(clicks + (site,))

    def word(self, token: str) -> Action:
        """The action of a button (`swap`, `komi=3`, `resign`, ...); Refused when it is not legal now."""
        try:
            action = self.state.parse(token)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        if isinstance(action, Resign):
            if self.state.outcome() is not None:
                raise Refused("the game is over")
            return action
        if _shape(action) is not None:
            raise Refused(f"{token} is not a button: click its sites")
        try:
            self.state.play(action)
        except IllegalMove as exc:
            raise Refused(str(exc)) from None
        return action

    # -- Spelde: flips judged by the rules ------------------------------------------------------------
    def _spelde(self, clicks: tuple[int, ...]) -> Step:
        state, board = self.state, self.board
        cell, picked = clicks[0], clicks[1:]
        if not self.first >> cell & 1:
            raise Refused(_why(state, Place(cell)) or f"{board.name(cell)} is not a legal placement")
        if len(clicks) == 1 and state.is_legal(Place(cell)):
            return Step(clicks, ("place",), 0, Place(cell), False, "")
        assert isinstance(state, StoneState)
        enemy = state.white if state.to_move is Colour.BLACK else state.black
        candidates = board.flood(board.neighbour_mask[cell] & enemy, enemy)
        flips = 0
        for s in picked:
            if not candidates >> s & 1:
                raise Refused(f"{board.name(s)} is not a stone of an enemy group next to {board.name(cell)}")
            flips |= 1 << s
        roles = _roles(Split, len(clicks))
        action = Split(cell, flips) if flips and state.is_legal(Split(cell, flips)) else None
        rest = candidates & ~flips
        if rest.bit_count() > EXACT_FLIPS:
            return Step(clicks, roles, rest, action, True, _flip_hint(state, cell, flips, action, True), exact=False)
        targets = 0
        more = False
        stones = list(iter_bits(rest))
        for mask in range(1, 1 << len(stones)):
            extra = sum(1 << stones[i] for i in range(len(stones)) if mask >> i & 1)
            if state.is_legal(Split(cell, flips | extra)):
                targets |= extra
                more = True
        if action is None and not more:
            raise Refused(_why(state, Split(cell, flips)) if flips else f"no flip set splits the groups next to {board.name(cell)}")
        return Step(clicks, roles, targets, action, more, _flip_hint(state, cell, flips, action, more))

    # -- words for people ---------------------------------------------------------------------------
    def _hint_start(self) -> str:
        if self.state.outcome() is not None:
            return "the game is over"
        buttons = [w for w in self.words if w != "resign"] + (["komi=K"] if self.komi else [])
        click = "click a site" if self.first else ""
        if buttons:
            return f"{click} or press {', '.join(buttons)}" if click else f"press {', '.join(buttons)}"
        return click

    def _hint(self, form: type, clicks: tuple[int, ...], shapes: list[Shape], action: Action | None) -> str:
        if action is not None and len(shapes) == 1:
            return ""
        if form is Pair:
            return "click the pair's second site"
        if form is PieStones:
            return "click the white stone's site"
        if form is Move:
            return "click where the stack lands"
        if form is Grow:
            left = len(shapes[0][1]) + 1 - len(clicks)
            return f"click {left} more branched stone{'s' * (left > 1)}"
        return ""

    def _reason(self, clicks: tuple[int, ...]) -> str:
        """Why no legal action goes on with `clicks`: the rules' reason for the action they name, or
        (one site of a longer form) the reason every completion shares."""
        board, state, forms = self.board, self.state, self.state.info.forms
        names = ",".join(board.name(c) for c in clicks)
        if len(clicks) == 1:
            c = clicks[0]
            if Place in forms:
                why = _why(state, Place(c))
                stack = Move in forms and why.endswith("is occupied")      # a stack that cannot move
                if why and not stack and not why.startswith("no single placement") and "first turn" not in why \
                        and not why.startswith("the pie") and "is not a" not in why:
                    return why
            seen = {_why(state, a) for a in _completions(state, c)} - {""}
            if len(seen) == 1:
                return seen.pop()
            return f"no legal action of yours starts at {names}"
        for action in _named(state, clicks):
            why = _why(state, action)
            if why:
                return why
        return f"{names}: no legal action goes on with these clicks"


def _roles(form: type, count: int) -> tuple[str, ...]:
    roles = ROLES.get(form, ("place",))
    return tuple(roles[min(i, len(roles) - 1)] for i in range(count))


def _flip_hint(state: GameState, cell: int, flips: int, action: Action | None, more: bool) -> str:
    """What to do next while a Spelde flip set is built: nothing to say once it is an action;
    before any flip, to click the stones to flip; a set that is no action yet but may grow, the
    rules' reason as a step on the way ("keep going"), not as a refusal."""
    if action is not None:
        return ""
    if not flips:
        return "click the stones to flip (in green)"
    why = _why(state, Split(cell, flips))
    if more:
        return f"not an action yet ({why}): click more stones to flip (in green)" if why else \
            "click more stones to flip (in green)"
    return why


def _why(state: GameState, action: Action) -> str:
    """The rules' reason for refusing `action` ("" when it is legal)."""
    try:
        state.play(action)
    except IllegalMove as exc:
        return str(exc)
    return ""


def _completions(state: GameState, site: int) -> Iterable[Action]:
    """Every two-site action of the game's forms that starts with `site` (for a reason they share)."""
    forms = state.info.forms
    for other in state.board.sites:
        if other == site:
            continue
        if Move in forms:
            yield Move(site, other)
        if Pair in forms:
            a, b = state.board.sorted_sites((site, other))
            yield Pair(a, b)
        if PieStones in forms:
            yield PieStones(site, other)


def _named(state: GameState, clicks: tuple[int, ...]) -> Iterable[Action]:
    """The actions of the game's forms that `clicks` (two or more) name, in the token's order."""
    forms = state.info.forms
    first, rest = clicks[0], clicks[1:]
    if len(clicks) == 2:
        if Pair in forms:
            a, b = state.board.sorted_sites(clicks)
            yield Pair(a, b)
        if PieStones in forms:
            yield PieStones(first, rest[0])
        if Move in forms:
            yield Move(first, rest[0])
    if Grow in forms and len(set(clicks)) == len(clicks):
        yield Grow(first, tuple(state.board.sorted_sites(rest)))
