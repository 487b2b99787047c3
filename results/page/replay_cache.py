"""The viewer data of a folder's games: in memory and in DIR/report-cache.jsonl.

A game's viewer data is a function of its SGF text, so it is kept, keyed by
the record's path (relative to the tournament folder), size and modification
time. The referee writes each game's entry when it writes the game's SGF
(:func:`remember`: replayed by the core, else from the states it played), so a running
tournament's refreshes, its final page and a later `hexarena report` read
the file and replay only records it lacks (written by an older referee, or
changed since). Replaying every record through the rules is most of a
report's cost when the file is missing: the compiled core's replay
(:mod:`.record_data`) takes about a millisecond for a game of hundreds of plies,
the Python replay ten times as long. The file is derived data: deleting it costs one full replay
(`hexarena report --rebuild` replays every record and writes it anew); lines
that cannot be read (a torn last line, an older format) are ignored.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from hexarena.engine.actions import Action
from hexarena.engine.game import GameState

from .record_data import core_replays, record_data
from .replay import Replay
from .replay_data import game_data
from ..record.game import GameRecord
from ..record.files import NOFOLLOW, write_all
from ..record.journal import write_atomic
from ..record.sgf import SgfError, parse_sgf

CACHE_NAME = "report-cache.jsonl"
FORMAT = 2                   # bump when the viewer data change shape
PARALLEL_FROM = 64           # records to replay before worker processes pay off

SGF_FOLDER = "games"         # a record's `sgf` field names a file in here, relative to the folder
MAX_SGF_BYTES = 8 << 20      # the largest SGF record read (a record of thousands of plies is ~100 KiB)

Key = tuple[str, int, int]


class RecordFieldError(ValueError):
    """A record's `sgf` field that names no file the report may read."""


def record_file(folder: Path, relative: str, folders: dict[str, Path] | None = None) -> tuple[Path, os.stat_result]:
    """The file a record's `sgf` field names, with its status: a relative path inside FOLDER/games/
    (symlinks resolved first: FOLDER's own, not games/ itself, so a games/ that is a link to
    elsewhere holds no record's file), naming a regular file of at most MAX_SGF_BYTES. Anything else is a
    RecordFieldError saying why, and nothing is opened; OSError when the file is missing.
    `folders` keeps the folders resolved so far (for many records of one folder: each
    record then costs one `lstat` unless it is a symlink)."""
    if not relative or "\0" in relative or os.path.isabs(relative):
        raise RecordFieldError(f"sgf field {relative!r}: not a relative path")
    known = {} if folders is None else folders
    try:
        base = _resolved(folder, known) / SGF_FOLDER
        target, st = _resolved_file(folder, relative, known)
    except (OSError, RuntimeError) as exc:           # RuntimeError: a symlink loop
        raise RecordFieldError(f"sgf field {relative!r}: {exc}") from None
    if not target.is_relative_to(base) or target == base:
        raise RecordFieldError(f"sgf field {relative!r}: not a file inside {SGF_FOLDER}/")
    if st is None:
        st = target.stat()
    if not stat.S_ISREG(st.st_mode):
        raise RecordFieldError(f"sgf field {relative!r}: not a regular file")
    if st.st_size > MAX_SGF_BYTES:
        raise RecordFieldError(f"sgf field {relative!r}: {st.st_size} bytes, over {MAX_SGF_BYTES}")
    return target, st


def _resolved(path: Path, known: dict[str, Path]) -> Path:
    """`path.resolve()`, kept in `known` by the path's text."""
    key = str(path)
    if key not in known:
        known[key] = path.resolve()
    return known[key]


def _resolved_file(folder: Path, relative: str, known: dict[str, Path]) -> tuple[Path, os.stat_result | None]:
    """``(folder / relative).resolve()``, from its folder's resolution and one `lstat` of its last
    part (when that is a plain name and no symlink), with that part's status if it was read."""
    head, name = os.path.split(relative)
    if name in ("", ".", ".."):
        return (folder / relative).resolve(), None
    path = _resolved(folder / head, known) / name
    try:
        st = os.lstat(path)
    except OSError:                                  # resolved as far as it exists, as resolve() does
        return path, None
    if stat.S_ISLNK(st.st_mode):
        return path.resolve(), None
    return path, st


def replay_file(path: Path) -> dict:
    """The viewer data of one SGF record (a file `record_file` accepted), or ``{"err": reason}``
    (the page says why it cannot replay). At most MAX_SGF_BYTES are read."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_SGF_BYTES + 1)
        if len(data) > MAX_SGF_BYTES:
            raise SgfError(f"over {MAX_SGF_BYTES} bytes")
        return record_data(data.decode("utf-8"))
    except (OSError, SgfError, UnicodeDecodeError) as exc:
        return {"err": f"{path.name}: {exc}"}


def remember(folder: Path, record: GameRecord, text: str, states: list[GameState], actions: list[Action]) -> None:
    """Append the viewer data of `record`, whose SGF `text` was just written to FOLDER/record.sgf,
    to the folder's cache file: replayed from `text` by the compiled core when it replays
    (a few us a ply), else built from the game as its referee played it, its `states` (the
    initial one first) and the `actions` between them, with no replay in Python. The entry is
    what a replay of the file gives; a game whose states do not cover its record, or a folder
    that cannot be written, only goes without it."""
    relative, moves = record.sgf, record.moves
    if relative is None or moves is None or len(states) != len(moves) + 1 or len(actions) != len(moves):
        return
    try:
        st = (folder / relative).stat()
    except OSError:
        return
    if core_replays():              # the core replays the text in a few us a ply, less than reading the states
        try:
            data = record_data(text, record.game)
        except SgfError:
            return
    else:
        seconds = [None if m.think is None else float(f"{m.think:g}") for m in moves]     # as the SGF's XT[] reads
        data = game_data(Replay(parse_sgf(text)[0], states, [m.action for m in moves], actions, seconds))
    _append(folder / CACHE_NAME, [_line((relative, st.st_size, st.st_mtime_ns), data)])


def _line(key: Key, data: dict) -> str:
    return json.dumps({"v": FORMAT, "k": list(key), "d": data}, separators=(",", ":"))


def _append(file: Path, lines: list[str]) -> None:
    """Whole lines at the end of `file`, in one write (O_APPEND: writers in several tasks,
    threads or processes never interleave inside a line); an OSError only loses them."""
    data = ("\n".join(lines) + "\n").encode("utf-8")
    try:
        fd = os.open(file, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o666)     # never through a link
    except OSError:
        return
    try:
        write_all(fd, data)
    except OSError:
        pass
    finally:
        os.close(fd)


def _usable_cpus() -> int:
    """The processors this process may run on (`taskset`, a container's cpuset), not the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):              # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


class ReplayCache:
    """The viewer data of a folder's records. `parallel`: replay many new records in
    threads when the core replays them, else in worker processes (off when called from a
    thread beside trio: no fork there);
    `fresh`: ignore the cache file, replay every record and write the file anew."""

    def __init__(self, folder: Path, parallel: bool = True, persist: bool = True, fresh: bool = False):
        self.folder, self.parallel = folder, parallel
        self.file = folder / CACHE_NAME if persist else None
        self._data: dict[Key, dict] = {}
        self._fresh = fresh             # ignore the file; the first save writes it anew
        if self.file is not None and self.file.is_file() and not fresh:
            self._load(self.file)

    def games(self, sgf_paths: list[str]) -> list[dict]:
        """The viewer data of each record (its `sgf` field: a path relative to the folder), in order;
        a field `record_file` refuses gives ``{"err": reason}`` and is never read."""
        found: list[tuple[Key, Path] | str] = []
        folders: dict[str, Path] = {}
        for relative in sgf_paths:
            try:
                path, st = record_file(self.folder, relative, folders)
            except RecordFieldError as exc:
                found.append(str(exc))
            except OSError:
                found.append(f"{Path(relative).name}: the record is missing")
            else:
                found.append(((relative, st.st_size, st.st_mtime_ns), path))
        missing = list(dict(f for f in found if isinstance(f, tuple) and f[0] not in self._data).items())
        paths = [p for _, p in missing]
        workers = min(_usable_cpus(), 8)
        if self.parallel and len(missing) >= PARALLEL_FROM and workers > 1:
            if core_replays():             # the core replays without the GIL: threads, no process to start
                from concurrent.futures import ThreadPoolExecutor
                with ThreadPoolExecutor(workers) as threads:
                    done = list(threads.map(replay_file, paths))
            else:
                from concurrent.futures import ProcessPoolExecutor   # only here: ~10 ms to import
                with ProcessPoolExecutor(workers) as pool:
                    done = list(pool.map(replay_file, paths, chunksize=32))
        else:
            done = [replay_file(p) for p in paths]
        new = dict(zip((k for k, _ in missing), done))
        self._data.update(new)
        self._save(new)
        return [self._data[f[0]] if isinstance(f, tuple) else {"err": f} for f in found]

    def _load(self, path: Path) -> None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return
        for line in lines:
            try:
                entry = json.loads(line)
                if entry["v"] == FORMAT:
                    rel, size, mtime = entry["k"]
                    self._data[(rel, size, mtime)] = entry["d"]
            except (ValueError, KeyError, TypeError):
                continue

    def _save(self, new: dict[Key, dict]) -> None:
        """Append the new replays (not the failed ones: the record may be fixed); a folder
        that cannot be written only loses the cache."""
        lines = [_line(k, d) for k, d in new.items() if "err" not in d]
        if self.file is None:
            return
        if self._fresh:
            self._fresh = False
            try:
                write_atomic(self.file, "".join(line + "\n" for line in lines))
            except OSError:
                pass
        elif lines:
            _append(self.file, lines)
