"""The words of a game record that results code decides on.

Standard library only; imported by the record format, the loaders and the
tables, so none of them imports another just for a constant.

* :data:`VOID_RESULT` / :data:`VOID_TERMINATION`: the `result` and
  `termination` of a game that does not count (infrastructure fault; it is
  replayed on resume).
* :data:`FORFEIT_KIND`: a journal termination -> the kind of forfeit it is
  counted as in tables (`malformed` answers count as `illegal`).
* :data:`FORFEIT_KINDS`: those kinds in table order.
"""
from __future__ import annotations

VOID_RESULT = "Void"
VOID_TERMINATION = "void"
FORFEIT_KIND = {"time": "time", "illegal": "illegal", "malformed": "illegal", "crash": "crash"}
FORFEIT_KINDS = ("time", "illegal", "crash")
