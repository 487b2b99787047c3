"""The coordinator's check of a record that a cluster worker sends back (docs/cluster.md, "Security").

A worker is not trusted with a result: whoever controls a worker (or reaches
an open scheduler) can return any record. :func:`refusal` replays the
record's actions through the rules (hexarena.engine) from the initial
position of the scheduled game, with its opening, and checks that the
identity, colours, result, winner and termination follow, as the referee
(referee/game/match.py) would have set them. What the replay cannot see is
checked for consistency only: a forfeit's cause (a timeout, a crash, the
illegal answer itself) is not in the record, so the check confirms that the
player at fault could be at fault at that point, and that the result is
that player's loss. An adjudicated record is judged again from its own
analysis under the config's `[adjudication]` (referee/game/adjudication.py):
the verdict must fall at its last ply, not before, and be the record's. A void record is accepted (it does not count and is
replayed on resume). :func:`with_sgf` writes the SGF file of a checked record and its
entry in the report's cache from the check's replay.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.actions import Action, Resign, holders_after
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.engine.errors import RulesError
from hexarena.engine.game import GameState
from hexarena.referee.game.adjudication import Adjudication, Verdict, first_verdict
from hexarena.referee.game.clock import sgf_time
from hexarena.referee.tournament.config import TournamentConfig
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.results.page.replay_cache import remember
from hexarena.results.record.game import VOID_RESULT, Ending, Forfeit, GameRecord
from hexarena.results.record.journal import write_atomic
from hexarena.results.record.sgf import sgf_text

RULE_ENDINGS = (Ending.NO_MOVES, Ending.GOAL, Ending.ELIMINATED, Ending.AGREEMENT)
#: The forfeits an engine can incur outside its own `genmove` (handshake, or `play` of the other's action).
NOT_ITS_TURN = (Ending.TIME, Ending.CRASH)

Holders = dict[Colour, str]
#: A replay's states (the initial one first) and the actions between them.
Trail = tuple[list[GameState], list[Action]]


class _Refused(Exception):
    pass


def refusal(record: GameRecord, game: ScheduledGame, adjudication: Adjudication | None = None,
            trail: Trail | None = None) -> str | None:
    """None when `record` follows from the rules (and the tournament's `adjudication`) for the
    scheduled `game`; else the reason it does not. The replay's states (the initial one first)
    and actions go to `trail` when given."""
    try:
        _check(record, game, adjudication, trail if trail is not None else ([], []))
    except _Refused as exc:
        return str(exc)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:     # fields of the wrong type
        return f"unreadable: {type(exc).__name__}: {exc}"[:300]
    return None


def verified(data: dict, game: ScheduledGame, adjudication: Adjudication | None = None,
             ) -> tuple[GameRecord | None, str | None, Trail]:
    """The record a worker sent for `game`, None, and the replay's states and actions; or
    (None or the record, why the rules refuse it, what was replayed)."""
    trail: Trail = ([], [])
    try:
        record = GameRecord.from_dict(data)
    except (ValueError, TypeError) as exc:
        return None, f"unreadable: {exc}"[:300], trail
    return record, refusal(record, game, adjudication, trail), trail


def with_sgf(record: GameRecord, config: TournamentConfig, out: Path, trail: Trail | None = None) -> GameRecord:
    """A verified record with its SGF file under `out`, written here from the record as a local run
    writes it (a worker's own SGF text is never used), and its entry in the report's cache from
    the check's replay `trail` (states, actions), so that no report replays it again."""
    if record.void:
        return replace(record, sgf=None)
    limits = (config.limits_of(record.first), config.limits_of(record.second))
    record = replace(record, sgf=f"games/{record.id}.sgf")
    text = sgf_text(record, registry.get(record.game).sgf_number, sgf_time(limits))
    write_atomic(out / str(record.sgf), text)
    if trail is not None:
        remember(out, record, text, *trail)
    return record


def _check(record: GameRecord, game: ScheduledGame, adjudication: Adjudication | None, trail: Trail) -> None:
    info = registry.get(game.game)
    variant = info.variant(game.size, tuple(game.variant.split()))
    expected = dict(id=game.id, game=info.id, size=variant.size, variant=info.describe(variant).partition(" ")[2],
                    first=game.first, second=game.second, pair=game.pair, komi=game.komi)
    for name, value in expected.items():
        if getattr(record, name) != value:
            raise _Refused(f"{name} is {getattr(record, name)!r}, the schedule says {value!r}")
    if record.void:
        if record.winner is not None or record.result != VOID_RESULT:
            raise _Refused(f"a void game with winner {record.winner!r} and result {record.result!r}")
        return
    moves = record.moves
    if moves is None or any(m.colour is None for m in moves) or record.plies != len(moves):
        raise _Refused("its moves, their colours and its plies do not match")
    opening = len(game.opening)
    if moves and (record.opening != opening or tuple(m.action for m in moves[:opening]) != game.opening):
        raise _Refused(f"it does not start with the schedule's opening {' '.join(game.opening) or '(none)'}")

    state = info.new_game(variant, game.komi or 0)
    states, played = trail
    states.append(state)
    cap = game.ply_cap if game.ply_cap is not None else info.ply_cap(variant.size)
    holder: Holders = {Colour.BLACK: game.first, Colour.WHITE: game.second}
    before_last = holder
    movers: list[int] = []                      # the seat of each action's mover
    for ply, move in enumerate(moves, 1):
        token = move.action
        if state.outcome() is not None or ply > cap:
            raise _Refused(f"action {ply} ({token}) comes after the end of the game")
        if move.colour != state.to_move.letter:
            raise _Refused(f"action {ply} ({token}) is marked {move.colour!r}, {state.to_move.letter} was to move")
        try:
            action = state.parse(token)
            if isinstance(action, Resign):
                raise _Refused(f"action {ply} is a resignation")
            if ply > opening and state.format(action) != token:
                raise _Refused(f"action {ply} ({token}) is not written as the referee writes it")
            after = state.play(action)
        except RulesError as exc:
            raise _Refused(f"action {ply} ({token}) is not legal: {exc}") from None
        movers.append(0 if holder[state.to_move] == game.first else 1)
        before_last, holder = holder, holders_after(holder, action)
        state = after
        states.append(state)
        played.append(action)

    ending = record.termination
    over, capped = state.outcome(), len(moves) >= cap
    if ending in RULE_ENDINGS or ending is Ending.PLY_CAP:
        if ending is Ending.PLY_CAP:
            if over is not None or not capped:
                raise _Refused(f"ended by the ply cap after {len(moves)} of {cap} plies")
            over = state.adjudicate()
        elif over is None or over.termination.value != ending:
            raise _Refused(f"ended by {ending} where the rules say "
                           f"{'the game goes on' if over is None else over.termination.value}")
        _same(record, _verdict(holder, over, None))
    elif ending is Ending.RESIGN:
        if over is not None or capped:
            raise _Refused("a resignation after the end of the game")
        _same(record, _verdict(holder, Outcome(state.to_move.other, Termination.RESIGN), None))
    elif ending is Ending.ADJUDICATED:
        if over is not None or capped:
            raise _Refused("an adjudication after the end of the game")
        verdict = _judged(record, movers, opening, adjudication)
        if verdict.as_dict() != record.adjudication:
            raise _Refused(f"adjudication is {record.adjudication!r} where the winrates give {verdict.as_dict()!r}")
        seats = {colour: 0 if name == game.first else 1 for colour, name in holder.items()}
        _same(record, _verdict(holder, verdict.outcome(seats), None))
    else:
        _check_forfeit(record, state.to_move if over is None and not capped else None, holder, before_last)


def _judged(record: GameRecord, movers: list[int], opening: int, rules: Adjudication | None) -> Verdict:
    """The adjudication the record's own analysis gives at its last ply (referee/game/adjudication.py);
    _Refused when there is none then, or one came earlier."""
    if rules is None:
        raise _Refused("adjudicated in a tournament without [adjudication]")
    analysis = [None if m.analysis is None else list(m.analysis) for m in record.moves or ()]
    verdict = first_verdict(rules, movers, analysis, opening)
    if verdict is None:
        raise _Refused("the winrates do not decide the game")
    if verdict.ply != len(movers):
        raise _Refused(f"the winrates decide the game at ply {verdict.ply}, before its end at ply {len(movers)}")
    return verdict


def _check_forfeit(record: GameRecord, to_move: Colour | None, holder: Holders, before_last: Holders) -> None:
    """A forfeit: the faulty player loses, and could be at fault where the game stopped: the player
    to move (any forfeit), the other player refusing or missing `play` of the last action, or either
    player in the handshake (no action yet)."""
    ending = record.termination
    if record.forfeit is None or Forfeit(record.forfeit).value != ending.value:
        raise _Refused(f"a forfeit by {ending} with forfeit {record.forfeit!r}")
    term = Termination(ending.value)
    candidates: list[tuple[Holders, Colour]] = []
    if to_move is not None:
        candidates.append((holder, to_move))
    if record.moves and record.plies > record.opening and ending in NOT_ITS_TURN:
        candidates.append((before_last, Colour.parse(str(record.moves[-1].colour)).other))
    if not record.moves and ending in NOT_ITS_TURN:
        candidates += [(holder, Colour.BLACK), (holder, Colour.WHITE)]
    for holders, loser in candidates:
        if holders[loser] == record.faulty:
            _same(record, _verdict(holders, Outcome(loser.other, term), record.faulty))
            return
    raise _Refused(f"{record.faulty!r} cannot have forfeited by {ending} where the game stopped")


def _verdict(holder: Holders, outcome: Outcome, faulty: str | None) -> dict[str, object]:
    return dict(black=holder[Colour.BLACK], white=holder[Colour.WHITE],
                winner=None if outcome.winner is None else holder[outcome.winner],
                result=outcome.result(), faulty=faulty)


def _same(record: GameRecord, verdict: dict[str, object]) -> None:
    for name, value in verdict.items():
        if getattr(record, name) != value:
            raise _Refused(f"{name} is {getattr(record, name)!r} where the moves give {value!r}")
    if verdict["faulty"] is None and record.forfeit is not None:
        raise _Refused(f"forfeit {record.forfeit!r} in a game without a fault")
