"""Did-you-mean for a mistyped name: the one place every error about an unknown name (games,
built-in players, command-line choices) finds its suggestion. Standard library only."""
from __future__ import annotations

import difflib
from collections.abc import Iterable

#: How alike a name must be to be suggested (difflib's ratio; `mcst` -> `mcts` is 0.75).
CUTOFF = 0.6


def close_names(word: str, choices: Iterable[str], n: int = 2) -> list[str]:
    """The choices most like `word` (case ignored), best first; at most `n`, empty when none is close."""
    options = {c.lower(): c for c in choices}
    return [options[m] for m in difflib.get_close_matches(word.lower(), list(options), n=n, cutoff=CUTOFF)]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`" (did you mean mcts?)"` for the closest choices to `word`, `""` when none is close; to append
    to a message that names `word`."""
    close = close_names(word, choices)
    return f" (did you mean {' or '.join(close)}?)" if close else ""
