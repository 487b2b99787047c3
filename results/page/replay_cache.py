"""Replayed games kept between reports: in memory and in DIR/report-cache.jsonl.

Replaying every record through the rules is most of a report's cost (the
rules are pure Python: one core replays a few hundred games a second). A
game's viewer data is a function of its SGF text, so it is kept, keyed by the
record's path (relative to the tournament folder), size and modification
time, and a running tournament's refreshes, its final page and a later
`hexarena report` each replay only the records they have not seen. The
cache file is derived data: deleting it costs one full replay; lines that
cannot be read (a torn last line, an older format) are ignored.
"""
from __future__ import annotations

import json
import os
import stat
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .replay import replay_record
from .replay_data import game_data
from ..record.sgf import SgfError

CACHE_NAME = "report-cache.jsonl"
FORMAT = 2                   # bump when the viewer data change shape
PARALLEL_FROM = 64           # records to replay before worker processes pay off

SGF_FOLDER = "games"         # a record's `sgf` field names a file in here, relative to the folder
MAX_SGF_BYTES = 8 << 20      # the largest SGF record read (a record of thousands of plies is ~100 KiB)

Key = tuple[str, int, int]


class RecordFieldError(ValueError):
    """A record's `sgf` field that names no file the report may read."""


def record_file(folder: Path, relative: str) -> tuple[Path, os.stat_result]:
    """The file a record's `sgf` field names, with its status: a relative path inside FOLDER/games/
    (symlinks resolved first), naming a regular file of at most MAX_SGF_BYTES. Anything else is a
    RecordFieldError saying why, and nothing is opened; OSError when the file is missing."""
    if not relative or "\0" in relative or os.path.isabs(relative):
        raise RecordFieldError(f"sgf field {relative!r}: not a relative path")
    try:
        base = (folder / SGF_FOLDER).resolve()
        target = (folder / relative).resolve()
    except (OSError, RuntimeError) as exc:           # RuntimeError: a symlink loop
        raise RecordFieldError(f"sgf field {relative!r}: {exc}") from None
    if not target.is_relative_to(base) or target == base:
        raise RecordFieldError(f"sgf field {relative!r}: not a file inside {SGF_FOLDER}/")
    st = target.stat()
    if not stat.S_ISREG(st.st_mode):
        raise RecordFieldError(f"sgf field {relative!r}: not a regular file")
    if st.st_size > MAX_SGF_BYTES:
        raise RecordFieldError(f"sgf field {relative!r}: {st.st_size} bytes, over {MAX_SGF_BYTES}")
    return target, st


def replay_file(path: Path) -> dict:
    """The viewer data of one SGF record (a file `record_file` accepted), or ``{"err": reason}``
    (the page says why it cannot replay). At most MAX_SGF_BYTES are read."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_SGF_BYTES + 1)
        if len(data) > MAX_SGF_BYTES:
            raise SgfError(f"over {MAX_SGF_BYTES} bytes")
        return game_data(replay_record(data.decode("utf-8")))
    except (OSError, SgfError, UnicodeDecodeError) as exc:
        return {"err": f"{path.name}: {exc}"}


class ReplayCache:
    """The viewer data of a folder's records. `parallel`: replay many new records in
    worker processes (off when called from a thread beside trio: no fork there)."""

    def __init__(self, folder: Path, parallel: bool = True, persist: bool = True):
        self.folder, self.parallel = folder, parallel
        self.file = folder / CACHE_NAME if persist else None
        self._data: dict[Key, dict] = {}
        if self.file is not None and self.file.is_file():
            self._load(self.file)

    def games(self, sgf_paths: list[str]) -> list[dict]:
        """The viewer data of each record (its `sgf` field: a path relative to the folder), in order;
        a field `record_file` refuses gives ``{"err": reason}`` and is never read."""
        found: list[tuple[Key, Path] | str] = []
        for relative in sgf_paths:
            try:
                path, st = record_file(self.folder, relative)
            except RecordFieldError as exc:
                found.append(str(exc))
            except OSError:
                found.append(f"{Path(relative).name}: the record is missing")
            else:
                found.append(((relative, st.st_size, st.st_mtime_ns), path))
        missing = list(dict(f for f in found if isinstance(f, tuple) and f[0] not in self._data).items())
        paths = [p for _, p in missing]
        workers = min(os.cpu_count() or 1, 8)
        if self.parallel and len(missing) >= PARALLEL_FROM and workers > 1:
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
        lines = [json.dumps({"v": FORMAT, "k": list(k), "d": d}, separators=(",", ":"))
                 for k, d in new.items() if "err" not in d]
        if self.file is None or not lines:
            return
        try:
            with open(self.file, "a", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n")
        except OSError:
            pass
