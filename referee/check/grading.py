"""Grading for `hexarena check`: one verdict per check, by tier, and the summary line.

HGP 1.1 has two tiers (:mod:`hexarena.protocol.commands`). A check of a
*play* command must pass for the engine to be ready for a tournament. A check
of an *analysis* command runs only when the engine lists that command in
`list_commands`, and then must pass; an analysis command that is not listed
is reported once as NOTIMPL (not a failure), except under `strict`, where it
is a FAIL. Refusing an illegal `play` is optional too (an engine need not
validate `play`): accepting one is NOTIMPL, refusing it with the wrong word
is a FAIL of the analysis tier.

Statuses: PASS, FAIL, SKIP (not run: the channel broke), NOTIMPL.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import trio

from hexarena.protocol.commands import ANALYSIS_COMMANDS
from hexarena.protocol.controller import CommandFailed, ControllerError

from ..engines.process import EngineChannel

__all__ = ["PLAY", "ANALYSIS", "Verdict", "Emit", "Broken", "Checker", "summary", "equal", "lists",
           "tokens_match"]

PLAY = "play"
ANALYSIS = "analysis"
_SHOW = 100

Judge = Callable[[str], str | None]


@dataclass(frozen=True)
class Verdict:
    """One line of the report: status (PASS, FAIL, SKIP, NOTIMPL), the check's name, what was seen, its tier."""

    status: str
    name: str
    seen: str
    tier: str = PLAY

    def line(self) -> str:
        """One line: a PASS's answer cut at _SHOW characters, a failure's reason at three times
        that (what went wrong is what its author reads)."""
        seen = self.seen.replace("\n", " | ")
        show = _SHOW if self.status == "PASS" else 3 * _SHOW
        if len(seen) > show:
            seen = seen[:show] + "..."
        return f"{self.status} {self.name}: {seen}"


Emit = Callable[[Verdict], None]


class Broken(Exception):
    """The channel is unusable (crash, timeout, protocol violation): skip the rest."""


def tier_of(command: str) -> str:
    return ANALYSIS if command in ANALYSIS_COMMANDS else PLAY


class Checker:
    """Sends commands with a deadline and emits verdicts; knows which analysis commands the engine lists."""

    def __init__(self, channel: EngineChannel, timeout: float, emit: Emit, strict: bool = False):
        self.channel = channel
        self.timeout = timeout
        self.emit = emit
        self.strict = strict
        self.listed: set[str] | None = None       # from list_commands; None: not known (all assumed)
        self._reported: set[str] = set()

    def verdict(self, ok: bool, name: str, seen: str, tier: str = PLAY) -> bool:
        self.emit(Verdict("PASS" if ok else "FAIL", name, seen, tier))
        return ok

    def has(self, command: str) -> bool:
        """Whether to check `command`: a play command always; an analysis command only when listed.

        The first time an unlisted analysis command is met it is reported: NOTIMPL, or FAIL when strict.
        """
        if tier_of(command) == PLAY or self.listed is None or command in self.listed:
            return True
        if command not in self._reported:
            self._reported.add(command)
            if self.strict:
                self.verdict(False, command, "not in list_commands (--strict demands every command)", ANALYSIS)
            else:
                self.emit(Verdict("NOTIMPL", command, "not in list_commands (analysis, optional)", ANALYSIS))
        return False

    async def ask(self, check: str, name: str, *args: str, tier: str | None = None) -> tuple[bool, str]:
        """(True, text) on `=`, (False, message) on `?`; Broken after a FAIL on any other error."""
        try:
            return True, await self.channel.command(name, *args, deadline=trio.current_time() + self.timeout)
        except CommandFailed as exc:
            return False, exc.message
        except ControllerError as exc:
            self.verdict(False, check, f"{type(exc).__name__}: {exc}", tier or tier_of(name))
            raise Broken(f"{type(exc).__name__}: {exc}") from None

    async def ok(self, check: str, name: str, *args: str, judge: Judge | None = None,
                 tier: str | None = None) -> str | None:
        """Expect `=`; `judge(text)` returns a problem or None. The text, or None on failure.
        `tier`: the check's tier when it is not the command's (decimal seconds: analysis)."""
        tier = tier or tier_of(name)
        ok, text = await self.ask(check, name, *args, tier=tier)
        if not ok:
            self.verdict(False, check, f"refused: ? {text}", tier)
            return None
        problem = judge(text) if judge else None
        self.verdict(problem is None, check, f"{problem}; seen {text!r}" if problem else f"= {text}", tier)
        return text if problem is None else None

    async def refused(self, check: str, word: str, name: str, *args: str) -> bool:
        """Expect `? WORD...` (the failure word as a prefix, case-insensitive)."""
        ok, text = await self.ask(check, name, *args)
        if ok:
            return self.verdict(False, check, f"expected '? {word}', accepted: = {text}", tier_of(name))
        good = text.lower().startswith(word)
        return self.verdict(good, check, f"? {text}" if good else f"expected '? {word}', seen ? {text}",
                            tier_of(name))

    async def validates(self, check: str, word: str, name: str, *args: str) -> bool:
        """A `play` the rules forbid: `? WORD` passes; acceptance is NOTIMPL (FAIL when strict).

        Returns False when the engine accepted it (its board has moved on and must be rebuilt).
        """
        ok, text = await self.ask(check, name, *args, tier=ANALYSIS)
        if ok:
            if self.strict:
                self.verdict(False, check, f"expected '? {word}', accepted (--strict)", ANALYSIS)
            else:
                self.emit(Verdict("NOTIMPL", check, "accepted: the engine does not validate `play` (optional)",
                                  ANALYSIS))
            return False
        good = text.lower().startswith(word)
        self.verdict(good, check, f"? {text}" if good else f"expected '? {word}', seen ? {text}", ANALYSIS)
        return True


def equal(expected: str) -> Judge:
    return lambda text: None if text.strip() == expected else f"expected {expected!r}"


def lists(required: Sequence[str]) -> Judge:
    def judge(text: str) -> str | None:
        missing = [c for c in required if c not in text.lower().split()]
        return None if not missing else "does not list " + ", ".join(f"`{c}`" for c in missing)
    return judge


def tokens_match(expected: list[str], kind: str) -> Judge:
    def judge(text: str) -> str | None:
        got = text.lower().split()
        if len(got) != len(set(got)):
            return f"{kind} repeats a token"
        missing, extra = sorted(set(expected) - set(got)), sorted(set(got) - set(expected))
        if not missing and not extra:
            return None
        return f"{kind} differ from the rules: missing {missing[:5]} extra {extra[:5]}"
    return judge


def summary(verdicts: Sequence[Verdict]) -> tuple[str, int]:
    """The summary line and the exit status: 0 only when no check failed or was skipped.

    The line counts each status and says which tier failed, e.g.
    `37 passed, 0 failed, 0 skipped, 8 not implemented; play: passed; analysis: not implemented`;
    a tier fails by failed or skipped checks, counted apart (`play: FAILED (1 failed, 2 skipped)`).
    """
    count = {s: sum(v.status == s for v in verdicts) for s in ("PASS", "FAIL", "SKIP", "NOTIMPL")}
    tiers = []
    for tier in (PLAY, ANALYSIS):
        mine = [v for v in verdicts if v.tier == tier]
        failed = sum(v.status == "FAIL" for v in mine)
        skipped = sum(v.status == "SKIP" for v in mine)
        if failed or skipped:     # a skipped check (the engine stopped answering) fails the tier too
            counted = [f"{failed} failed"] * bool(failed) + [f"{skipped} skipped"] * bool(skipped)
            tiers.append(f"{tier}: FAILED ({', '.join(counted)})")
        elif any(v.status == "PASS" for v in mine):
            tiers.append(f"{tier}: passed" + (" in part" if any(v.status == "NOTIMPL" for v in mine) else ""))
        else:
            tiers.append(f"{tier}: not implemented" if mine else f"{tier}: not checked")
    line = (f"{count['PASS']} passed, {count['FAIL']} failed, {count['SKIP']} skipped, "
            f"{count['NOTIMPL']} not implemented; " + "; ".join(tiers))
    code = 0 if verdicts and count["FAIL"] == 0 and count["SKIP"] == 0 else 1
    return line, code
