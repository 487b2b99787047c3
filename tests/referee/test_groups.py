"""The one helper for exception groups (referee/groups.py)."""
from __future__ import annotations

from hexarena.referee.engines.groups import contains, sole


def test_sole_unwraps_nested_single_member_groups_only():
    err = ValueError("x")
    assert sole(err) is err
    assert sole(ExceptionGroup("a", [ExceptionGroup("b", [err])])) is err
    several = ExceptionGroup("a", [err, KeyError("k")])
    assert sole(several) is several
    ki = KeyboardInterrupt()
    assert sole(BaseExceptionGroup("a", [ki])) is ki


def test_contains_finds_a_kind_at_any_depth():
    nested = BaseExceptionGroup("a", [ValueError(), BaseExceptionGroup("b", [KeyboardInterrupt()])])
    assert contains(nested, KeyboardInterrupt) and contains(KeyboardInterrupt(), KeyboardInterrupt)
    assert not contains(ExceptionGroup("a", [ValueError()]), KeyboardInterrupt)
    assert not contains(ValueError(), KeyboardInterrupt)
