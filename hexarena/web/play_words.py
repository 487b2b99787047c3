"""What `hexarena play` tells the person in words addressed to them: a swap ("mcts swapped:
you now play White") and the end ("you have no legal move: mcts wins", "you reached the game's
goal: you win"), from the game's record
and the colours each seat holds. Pure: names and values in, sentences out."""
from __future__ import annotations

from hexarena.engine.core import Colour
from hexarena.results.record.game import GameRecord

WORD = {Colour.BLACK: "Black", Colour.WHITE: "White"}


def swap_news(swapper_is_you: bool, engine: str, you: Colour) -> str:
    """The sentence after a `swap`: who swapped and the colour the person plays from now on."""
    who = "You swapped" if swapper_is_you else f"{engine} swapped"
    return f"{who}: you now play {WORD[you]}"


def end_words(record: GameRecord, person: str, engine: str, last_to_move_is_you: bool) -> str:
    """The end of the game said to the person: why it ended (`last_to_move_is_you`: the person
    was the side to move when it ended, for an ending by no legal move), then who won."""
    you = record.winner == person
    outcome = "you win" if you else f"{engine} wins" if record.winner == engine else "a draw"
    loser_is_you = record.winner is not None and not you
    subject = ("you", "have") if loser_is_you else (engine, "has")
    kind = record.termination.value
    if kind == "no-moves":
        mover = ("you", "have") if last_to_move_is_you else (engine, "has")
        why = f"{mover[0]} {mover[1]} no legal move"
    elif kind == "goal":
        why = "you reached the game's goal" if you else (f"{engine} reached the game's goal" if record.winner
                                                          else "the game ended at its goal")
    elif kind == "resign":
        why = "you resigned" if loser_is_you else f"{engine} resigned"
    elif kind == "time":
        why = f"{subject[0]} ran out of time"
    elif kind in ("illegal", "malformed", "crash"):
        why = f"{engine}: {record.reason}" if record.reason else f"{engine} forfeits ({kind})"
    elif kind == "eliminated":
        why = f"{subject[0]} {subject[1]} no stones left"
    elif kind == "ply-cap":
        why = f"the game reached its cap of {record.plies} actions"
    elif kind == "agreement":
        why = f"the proposal was accepted, scored {record.result}"
    elif kind == "adjudicated":
        why = "adjudicated on the engine's winrate"
    else:
        why = record.reason or kind
    if not why.startswith(engine):                 # an engine's name is written as it is
        why = why[0].upper() + why[1:]
    return f"{why}: {outcome} ({record.result})"
