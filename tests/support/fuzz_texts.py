"""Hostile text for the fuzz suite: the parser's own words mixed with numbers of every kind
(ASCII, other scripts' digits, thousands of digits), punctuation, control characters and any text."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import strategies as st

#: The most CPU time one parser may spend on one input.
CPU_SECONDS = 1.0


@contextmanager
def one_second(what: str) -> Iterator[None]:
    """Fail when the block spends more than CPU_SECONDS of this process's CPU time, whether it
    returns or raises (CPU time, not wall time: the other processes of a shared machine do not count)."""
    start = time.process_time()
    try:
        yield
    finally:
        spent = time.process_time() - start
        if spent > CPU_SECONDS:
            raise AssertionError(f"{what} took {spent:.2f} s of CPU time, more than {CPU_SECONDS:g}")

#: Digits that str.isdigit accepts and that are not ASCII, and other numeric characters.
OTHER_DIGITS = ("\u00b2", "\u0663", "\uff15", "\u0967", "\U0001d7d7", "\u2079", "\u00bd", "\u216b", "\u3007")
#: Numbers past every bound: int()'s 4,300 digits, 2**64, a float's range.
HUGE = ("9" * 5000, "1" + "0" * 25, "9" * 21, "0" * 30, "1e999", "-" + "9" * 4400, "9" * 4300 + ".5")
PUNCTUATION = tuple(",/-:=.+ \t\n\r#[]();\\\"'{}_") + ("\x00", "\x7f", "\u00a0", "\u2028", "\ufeff")

numbers = st.one_of(st.integers(-10, 10 ** 25).map(str), st.sampled_from(HUGE), st.sampled_from(OTHER_DIGITS),
                    st.text("0123456789", min_size=1, max_size=40))


def fragments(words: tuple[str, ...] | list[str], max_pieces: int = 12) -> st.SearchStrategy[str]:
    """Text made of up to `max_pieces` pieces: `words`, numbers, punctuation and any text."""
    kinds = [numbers, st.sampled_from(PUNCTUATION), st.text(max_size=6)]
    piece = st.one_of(st.sampled_from(tuple(words)), *kinds) if words else st.one_of(*kinds)
    return st.lists(piece, max_size=max_pieces).map("".join)


def mutated(fields: list[str], words: tuple[str, ...] | list[str], sep: str = " ") -> st.SearchStrategy[str]:
    """`fields` joined by `sep`, some of them replaced by fragments, some dropped, some added."""
    @st.composite
    def build(draw) -> str:
        out = []
        for f in fields:
            kind = draw(st.integers(0, 9))
            if kind < 6:
                out.append(f)
            elif kind < 9:
                out.append(draw(fragments(words, 4)))
        out += draw(st.lists(fragments(words, 4), max_size=3))
        return sep.join(out)
    return build()
