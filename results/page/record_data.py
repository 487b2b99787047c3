"""The viewer data of one SGF record's text (:mod:`.replay_data` says the data), in one call
of the compiled core where it can.

The core's ``replay_record`` reads the record, plays it through its rules and returns per ply
what the viewer draws; it declines (None) any record it does not read exactly as
:func:`.replay.replay_record` does (another SGF form, a game it lacks, a token not in
canonical lower case), and those are replayed in Python. A record whose action the rules
refuse is replayed in Python too, so its error is the Python reader's, word for word. With
the core off (``HEXARENA_CORE=0``) or absent, every record is replayed in Python; both
paths give the same data (tests/results/test_record_data.py).
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

from hexarena.engine import compiled, registry

from .replay import replay_record
from .replay_data import game_data, other_mover, status_of


def record_data(text: str, game: str | None = None) -> dict:
    """The viewer data of the SGF record `text`; SgfError as :func:`.replay.replay_record` raises it.
    `game`: the record's game id when the caller knows it (only that game's rules are then loaded)."""
    core = compiled.active()
    replay = getattr(core, "replay_record", None)        # a core built before it has none
    if replay is not None:
        try:
            done = replay(text, _shown_keys() if game is None else _shown_keys_of(game))
        except ValueError:                # an action the rules refuse: the Python reader says it
            done = None
        if done is not None:
            return _from_core(*done)
    return game_data(replay_record(text))


def core_replays() -> bool:
    """Whether records are replayed by the core (which lets other threads run meanwhile)."""
    return getattr(compiled.active(), "replay_record", None) is not None


@functools.cache
def _shown_keys() -> dict[str, list[str]]:
    core = compiled.active()
    return {} if core is None else {game: _shown_keys_of(game)[game] for game in core.GAMES}


@functools.cache
def _shown_keys_of(game: str) -> dict[str, list[str]]:
    """:func:`_shown_keys` for one game (a record of another game shows no keys: the caller named
    the record's game)."""
    core = compiled.active()
    return {game: list(registry.get(game).shown_keys)} if core is not None and game in core.GAMES else {}


def _from_core(game: str, size: int, tokens: list[str], seconds: list[float | None], first: str,
               changes: list[str], marks: list[str],
               statuses: Sequence[tuple[int, Sequence[str], Sequence[str] | None]]) -> dict:
    """game_data's dict from the core's answer (same keys, same order)."""
    info = registry.get(game)
    texts: dict[tuple[str, ...], str] = {}

    def text(key: Sequence[str]) -> str:
        found = texts.get(tuple(key))
        if found is None:
            found = texts[tuple(key)] = status_of(info, key)
        return found

    shown: dict[str, str] = {}
    for ply, key, before in statuses:
        if before is None or text(key) != other_mover(text(before)):
            shown[str(ply)] = text(key)
    data: dict[str, object] = {"bd": f"{info.id}-{size}", "m": tokens, "d": changes, "h": marks, "p": shown,
                               "i0": first}
    if any(s is not None for s in seconds):
        data["x"] = seconds
    return data
