"""Pinned cores (docs/tournament.md, "Pinned cores"): each worker slot of a run gets its own CPUs.

A CPU list is written as Linux writes one (``Cpus_allowed_list``, ``taskset -c``):
``0-3,6``. :func:`slot_cpus` splits a list among the slots, each slot an equal
share of consecutive CPUs; a slot's share is plain data (a tuple of CPU
numbers), applied where an engine is spawned: :func:`pinned` wraps a slot's
launcher so that every engine it starts carries the share in its
``ResourceLimits.cpus``, and the child sets it with ``os.sched_setaffinity``
before exec (:mod:`hexarena.referee.engines.spawn`), so whatever the engine
starts inherits it. Both engines of a game share their slot's CPUs: HGP
engines think in turn, never at once.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

__all__ = ["AffinityError", "cpu_count", "parse_cpus", "format_cpus", "usable_cpus", "slot_cpus", "read_option", "plan",
           "pinned"]

#: The highest CPU number a list may name (Linux's CONFIG_NR_CPUS is at most 8192).
MAX_CPU = 8191
_RANGE = re.compile(r"([0-9]{1,6})(?:-([0-9]{1,6}))?\Z", re.ASCII)


class AffinityError(ValueError):
    """A CPU list that cannot be read or used; the message says what and why."""


def parse_cpus(text: str) -> tuple[int, ...]:
    """`0-3,6` as (0, 1, 2, 3, 6), sorted; AffinityError naming the part that is wrong."""
    cpus: set[int] = set()
    for part in text.split(","):
        m = _RANGE.match(part.strip())
        if not m:
            raise AffinityError(f"{text!r} is not a list of CPUs such as 0-3,6 (at {part.strip()[:20]!r})")
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if last < first or last > MAX_CPU:
            raise AffinityError(f"{text!r}: {part.strip()} is not a range of CPUs in 0..{MAX_CPU}")
        cpus.update(range(first, last + 1))
    return tuple(sorted(cpus))


def format_cpus(cpus: tuple[int, ...]) -> str:
    """parse_cpus' inverse: (0, 1, 2, 3, 6) as `0-3,6`."""
    runs: list[list[int]] = []
    for cpu in sorted(cpus):
        if runs and cpu == runs[-1][1] + 1:
            runs[-1][1] = cpu
        else:
            runs.append([cpu, cpu])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def cpu_count() -> int:
    """How many processors this process may run on (`taskset`, a container's cpuset), not the
    machine's count; the machine's where the system cannot say (no ``sched_getaffinity``)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def usable_cpus() -> tuple[int, ...]:
    """The CPUs this process may run on (``os.sched_getaffinity(0)``), sorted."""
    return tuple(sorted(os.sched_getaffinity(0)))


def slot_cpus(cpus: tuple[int, ...], slots: int) -> tuple[tuple[int, ...], ...]:
    """`cpus` split among `slots`: each slot len(cpus) // slots consecutive CPUs (those left over
    pin nothing); AffinityError when there are fewer CPUs than slots."""
    if slots < 1:
        raise AffinityError(f"expected at least one slot, got {slots}")
    share = len(cpus) // slots
    if share == 0:
        raise AffinityError(f"-j {slots} needs at least {slots} CPUs, one per slot, but CPUs "
                            f"{format_cpus(cpus)} are {len(cpus)}: give -j {len(cpus)} or fewer, or more CPUs")
    return tuple(cpus[i * share:(i + 1) * share] for i in range(slots))


def read_option(text: str) -> bool | tuple[int, ...]:
    """`--affinity`'s value: `all` (the option alone) is True, anything else a CPU list."""
    if text == "all":
        return True
    try:
        return parse_cpus(text)
    except AffinityError as exc:
        if re.fullmatch(r"[0-9, -]*", text):
            raise
        raise AffinityError(f"{exc} (a config file goes before --affinity, or write --affinity=all)") from None


def plan(wanted: bool | tuple[int, ...], slots: int | None, usable: tuple[int, ...] | None = None
         ) -> tuple[tuple[int, ...], ...]:
    """The CPUs of each slot for `--affinity` / `affinity =`: `wanted` True for every usable CPU,
    else those CPUs; `slots` None: one slot per CPU. AffinityError when `wanted` names a CPU this
    process may not use, or holds fewer CPUs than slots."""
    usable = usable_cpus() if usable is None else usable
    cpus = usable if wanted is True else tuple(wanted or ())
    foreign = [c for c in cpus if c not in usable]
    if foreign:
        raise AffinityError(f"CPUs {format_cpus(tuple(foreign))} are not among those the referee may "
                            f"use ({format_cpus(usable)})")
    return slot_cpus(cpus, len(cpus) if slots is None else slots)


Start = TypeVar("Start", bound=Callable[..., Any])


def pinned(launcher: Start, cpus: tuple[int, ...]) -> Start:
    """A pool's launcher (`(spec, seed, log) -> channel context`, pool.Launcher) whose engines are
    pinned to `cpus`: each spec is passed on with `cpus` in its resource limits. Picklable when
    `launcher` is. (Typed loosely: this module imports nothing of the tournament, whose config
    reads CPU lists here.)"""
    return partial(_start_pinned, launcher, cpus)  # type: ignore[return-value]


def _start_pinned(launcher: Callable[..., Any], cpus: tuple[int, ...], spec: Any, *args: Any) -> Any:
    return launcher(replace(spec, resources=replace(spec.resources, cpus=cpus)), *args)
