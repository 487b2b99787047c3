"""Seeded random playthroughs that check the generic state contract at every ply.

Every game's tests call :func:`playthrough`; game-specific invariants go in
the `extra` callback. The checks are the package's (hexarena.engine.selfcheck,
which `hexarena check --rules GAME` runs for a game's author); a broken part of
the contract is a ``Disagreement``, an AssertionError.
"""
from __future__ import annotations

from hexarena.engine.selfcheck import ENUMERATION_CAP, Disagreement, check_state, playthrough

__all__ = ["ENUMERATION_CAP", "Disagreement", "check_state", "playthrough"]
