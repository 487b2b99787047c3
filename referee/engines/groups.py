"""Exception groups, unwrapped one way everywhere in the referee and the CLI.

trio >= 0.25 wraps every error that leaves a nursery in an ExceptionGroup
(KeyboardInterrupt and Cancelled too, in a BaseExceptionGroup). Callers that
want the error itself use :func:`sole`; callers that only ask whether a kind
of error is inside (Ctrl-C) use :func:`contains`.
"""
from __future__ import annotations

__all__ = ["contains", "sole"]


def sole(exc: BaseException) -> BaseException:
    """The one exception inside nested single-member groups; `exc` itself otherwise
    (a plain exception, or a group of several)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def contains(exc: BaseException, kind: type[BaseException]) -> bool:
    """True when `exc` is a `kind`, or a (nested) group holding one."""
    if isinstance(exc, kind):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup(kind) is not None
    return False
