"""Engine side of HGP, sans-I/O: one input line in, the full response text out.

:class:`EngineSide` owns a :class:`~hexarena.protocol.session.Session` and a command
table (a dict from name to handler, in `list_commands` order). Handlers
return the answer text or raise :class:`~hexarena.protocol.framing.CommandError`;
errors of the rules layer map to the failure words of docs/protocol.md; any other
exception becomes `? internal error: ...` and the engine stays usable.
Moves are chosen by an injected `choose(state, clock)` callable (clock: a
:class:`~hexarena.protocol.clock.MoveClock` with what the engine was told), so the
protocol knows nothing of players; it returns the action, or an
:class:`~hexarena.protocol.analysis.Analysed` (the action and its info lines,
which `genmove_analyze` prints and `genmove` leaves out).
"""
from __future__ import annotations

from collections.abc import Callable

from hexarena.engine import registry
from hexarena.engine.actions import Action, Resign
from hexarena.engine.core import Colour
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition, UnknownGame, UnknownVariant
from hexarena.engine.game import GameState
from hexarena.engine.numbers import integer, whole

from . import clock_commands
from .analysis import MAX_LINES, Analysed, Info, checked
from .clock import MoveClock, TimeControl, TimeLeft
from .commands import HGP_VERSION, MOVE_BYTES, MOVE_LIMIT, TOO_MANY_MOVES, bounded_legal_moves
from .diagram import diagram
from .framing import CommandError, failure, parse_command, success
from .session import Session

#: A bot: the state to move in and what it was told about its clock.
Chooser = Callable[[GameState, MoveClock], Action | Analysed]

_RULES_ERRORS: tuple[tuple[type[Exception], str], ...] = (
    (InvalidNotation, "syntax error"),
    (IllegalMove, "illegal move"),
    (InvalidPosition, "invalid position"),
    (UnknownGame, "unknown game"),
    (UnknownVariant, "unknown variant"),
)

Handler = Callable[["EngineSide", tuple[str, ...]], str]

#: The most `time_left` commands whose reading an EngineSide keeps.
TOLD_KEPT = 8


class EngineSide:
    """Feed it lines with :meth:`handle`; `finished` turns True after `quit`."""

    def __init__(self, choose: Chooser, name: str = "hexarena", version: str = "0.1.0",
                 extensions: dict[str, Handler] | None = None, note: Callable[[str], None] | None = None):
        """`extensions`: commands beyond HGP's (listed after them), e.g. players/serve.py's
        ``hexarena-seed``. `note`: told a sentence for each value of the bot's analysis that
        `genmove_analyze` leaves out (protocol/analysis.py, :func:`checked`); the SDK logs it
        on stderr."""
        self.choose = choose
        self.note = note
        self.name = name
        self.version = version
        self.commands = COMMANDS | (extensions or {})
        self.session = Session()
        #: The ids of the games this engine plays: what `list_games` lists and `game` accepts
        #: (every game of the registry unless the engine says fewer, as players/serve.py does).
        self.games: Callable[[], list[str]] = registry.playable
        self.finished = False
        self.time_control: TimeControl | None = None
        self.time_left: dict[Colour, TimeLeft] = {}
        self.told: dict[tuple[str, ...], tuple[Colour, TimeLeft]] = {}    # `time_left`'s words, read

    def handle(self, line: str) -> str | None:
        """The complete response to one input line (ending in an empty line), or None
        for a line that preprocessing leaves empty."""
        try:
            cmd = parse_command(line)
        except CommandError as exc:         # an id that is no number: answered without one
            return failure(None, str(exc))
        if cmd is None:
            return None
        cid, name, args = cmd
        handler = self.commands.get(name)
        if handler is None:
            return failure(cid, "unknown command" if name else "syntax error: no command after the id")
        try:
            return success(cid, handler(self, args))
        except CommandError as exc:
            return failure(cid, str(exc))
        except Exception as exc:  # noqa: BLE001 - a handler bug must not kill the engine
            for kind, word in _RULES_ERRORS:
                if isinstance(exc, kind):
                    detail = str(exc).replace("\n", " ")
                    return failure(cid, f"{word}: {detail}" if detail else word)
            return failure(cid, f"internal error: {type(exc).__name__}: {exc}".replace("\n", " "))


# -- argument helpers --------------------------------------------------------

def _arity(args: tuple[str, ...], n: int, usage: str) -> None:
    if len(args) != n:
        raise CommandError(f"syntax error: expected {usage}")


def _colour(text: str) -> Colour:
    try:
        return Colour.parse(text)
    except ValueError:
        raise CommandError(f"syntax error: {text!r} is not a colour (black, b, white, w)") from None


def _to_move(eng: EngineSide, colour: Colour) -> GameState:
    state = eng.session.current
    if state.outcome() is not None:
        raise IllegalMove("the game is over")
    if state.to_move is not colour:
        raise IllegalMove(f"{colour.word} is not to move")
    return state


# -- the commands --------------------------------------------------------------

def _protocol_version(eng: EngineSide, args: tuple[str, ...]) -> str:
    return "2"


def _name(eng: EngineSide, args: tuple[str, ...]) -> str:
    return eng.name


def _version(eng: EngineSide, args: tuple[str, ...]) -> str:
    return eng.version


def _known_command(eng: EngineSide, args: tuple[str, ...]) -> str:
    _arity(args, 1, "known_command NAME")
    return "true" if args[0].lower() in eng.commands else "false"


def _list_commands(eng: EngineSide, args: tuple[str, ...]) -> str:
    return "\n".join(eng.commands)


def _quit(eng: EngineSide, args: tuple[str, ...]) -> str:
    eng.finished = True
    return ""


def _list_games(eng: EngineSide, args: tuple[str, ...]) -> str:
    return "\n".join(eng.games())


def _game(eng: EngineSide, args: tuple[str, ...]) -> str:
    if not args:
        return eng.session.describe()
    if args[0] in registry.playable() and args[0] not in eng.games():
        raise CommandError(f"unknown game: {eng.name} does not play {args[0]!r}; games: {', '.join(eng.games())}")
    eng.session.select(args[0], args[1:])
    return ""


def _boardsize(eng: EngineSide, args: tuple[str, ...]) -> str:
    _arity(args, 1, "boardsize N")
    size = integer(args[0], "board size")       # InvalidNotation: `syntax error`
    try:
        eng.session.resize(size)
    except ValueError as exc:
        raise CommandError(f"unacceptable size: {exc}") from None
    return ""


def _clear_board(eng: EngineSide, args: tuple[str, ...]) -> str:
    eng.session.clear()
    return ""


def _komi(eng: EngineSide, args: tuple[str, ...]) -> str:
    _arity(args, 1, "komi K")
    eng.session.set_komi(whole(args[0], "komi"))
    return ""


def _play(eng: EngineSide, args: tuple[str, ...]) -> str:
    _arity(args, 2, "play COLOUR ACTION")
    colour = _colour(args[0])
    state = eng.session.current
    action = state.parse(args[1])
    if isinstance(action, Resign):
        raise IllegalMove("resign is an answer to genmove, not an action to play")
    _to_move(eng, colour)
    eng.session.play(action)
    return ""


def _answer(eng: EngineSide, args: tuple[str, ...], usage: str, analyse: bool) -> str:
    """`genmove` / `genmove_analyze`: ask the bot, play its action on the session, answer its
    token (and, when `analyse`, the bot's info lines after it)."""
    _arity(args, 1, usage)
    colour = _colour(args[0])
    state = _to_move(eng, colour)
    choice = eng.choose(state, MoveClock(eng.time_control, eng.time_left.get(colour)))
    action, info = (choice.action, choice.info) if isinstance(choice, Analysed) else (choice, ())
    if isinstance(action, Resign):
        token = "resign"
    else:
        token = state.format(action)
        try:
            eng.session.play(action)
        except IllegalMove as exc:  # our own bot chose badly: not the controller's fault
            raise RuntimeError(f"bot chose {token}, which is illegal: {exc}") from None
    if not analyse or not info:
        return token
    return "\n".join([token, *_info_lines(eng, state, token, info)])


def _info_lines(eng: EngineSide, state: GameState, token: str, info: tuple[Info, ...]) -> list[str]:
    """The info lines of the bot's analysis of `token` in `state`: what the grammar allows of the
    first MAX_LINES (:func:`checked`), each value left out told to `eng.note`."""
    lines, problems = [], []
    for number, item in enumerate(info[:MAX_LINES], 1):
        kept, dropped = checked(item, state, token)
        problems += [f"info line {number}: {problem}" for problem in dropped]
        if kept is not None:
            lines.append(kept.line())
    if len(info) > MAX_LINES:
        problems.append(f"{len(info) - MAX_LINES} info line(s) after the first {MAX_LINES}")
    if eng.note is not None:
        for problem in problems:
            eng.note(f"genmove_analyze {token}: left out: {problem}")
    return lines


def _genmove(eng: EngineSide, args: tuple[str, ...]) -> str:
    return _answer(eng, args, "genmove COLOUR", analyse=False)


def _genmove_analyze(eng: EngineSide, args: tuple[str, ...]) -> str:
    return _answer(eng, args, "genmove_analyze COLOUR", analyse=True)


def _hgp_version(eng: EngineSide, args: tuple[str, ...]) -> str:
    return HGP_VERSION


def _undo(eng: EngineSide, args: tuple[str, ...]) -> str:
    if not eng.session.undo():
        raise CommandError("cannot undo")
    return ""


def _showboard(eng: EngineSide, args: tuple[str, ...]) -> str:
    return diagram(eng.session.current)


def _legal_moves(eng: EngineSide, args: tuple[str, ...]) -> str:
    text = bounded_legal_moves(eng.session.current)
    if text is None:
        raise CommandError(f"{TOO_MANY_MOVES}: more than {MOVE_LIMIT} actions or {MOVE_BYTES} bytes")
    return text


def _legal_cells(eng: EngineSide, args: tuple[str, ...]) -> str:
    state = eng.session.current
    return " ".join(state.board.names(state.legal_cells()))


def _position(eng: EngineSide, args: tuple[str, ...]) -> str:
    return eng.session.current.position()


def _set_position(eng: EngineSide, args: tuple[str, ...]) -> str:
    if not args:
        raise CommandError("syntax error: expected set_position POSITION")
    eng.session.load(" ".join(args))
    return ""


def _final_score(eng: EngineSide, args: tuple[str, ...]) -> str:
    outcome = eng.session.current.outcome()
    if outcome is None:
        raise CommandError("cannot score: the game is not over")
    return outcome.result()


def _time_settings(eng: EngineSide, args: tuple[str, ...]) -> str:
    eng.time_control = clock_commands.time_settings(args)
    return ""


def _kgs_time_settings(eng: EngineSide, args: tuple[str, ...]) -> str:
    eng.time_control = clock_commands.kgs_time_settings(args)
    return ""


def _time_left(eng: EngineSide, args: tuple[str, ...]) -> str:
    told = eng.told.get(args)
    if told is None:                # each different `time_left` read once (a clock often repeats one)
        if len(eng.told) >= TOLD_KEPT:
            eng.told.clear()
        told = eng.told[args] = clock_commands.time_left(args)
    eng.time_left[told[0]] = told[1]
    return ""


#: The command table, in `list_commands` order.
COMMANDS: dict[str, Handler] = {
    "protocol_version": _protocol_version,
    "name": _name,
    "version": _version,
    "known_command": _known_command,
    "list_commands": _list_commands,
    "quit": _quit,
    "list_games": _list_games,
    "game": _game,
    "boardsize": _boardsize,
    "clear_board": _clear_board,
    "komi": _komi,
    "play": _play,
    "genmove": _genmove,
    "undo": _undo,
    "showboard": _showboard,
    "legal_moves": _legal_moves,
    "legal_cells": _legal_cells,
    "position": _position,
    "set_position": _set_position,
    "final_score": _final_score,
    "time_settings": _time_settings,
    "time_left": _time_left,
    "kgs-time_settings": _kgs_time_settings,
    "hgp_version": _hgp_version,
    "genmove_analyze": _genmove_analyze,
}
