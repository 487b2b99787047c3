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
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .replay import replay_record
from .replay_data import game_data
from ..record.sgf import SgfError

CACHE_NAME = "report-cache.jsonl"
FORMAT = 2                   # bump when the viewer data change shape
PARALLEL_FROM = 64           # records to replay before worker processes pay off

Key = tuple[str, int, int]


def replay_file(path: Path) -> dict:
    """The viewer data of one SGF record, or ``{"err": reason}`` (the page says why it cannot replay)."""
    try:
        return game_data(replay_record(path.read_text(encoding="utf-8")))
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
        """The viewer data of each record (paths relative to the folder), in order."""
        keys = [self._key(p) for p in sgf_paths]
        missing = list({k: p for k, p in zip(keys, sgf_paths) if k is not None and k not in self._data}.items())
        paths = [self.folder / p for _, p in missing]
        workers = min(os.cpu_count() or 1, 8)
        if self.parallel and len(missing) >= PARALLEL_FROM and workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                done = list(pool.map(replay_file, paths, chunksize=32))
        else:
            done = [replay_file(p) for p in paths]
        new = dict(zip((k for k, _ in missing), done))
        self._data.update(new)
        self._save(new)
        return [self._data[k] if k is not None else {"err": f"{Path(p).name}: the record is missing"}
                for k, p in zip(keys, sgf_paths)]

    def _key(self, relative: str) -> Key | None:
        try:
            st = (self.folder / relative).stat()
        except OSError:
            return None
        return relative, st.st_size, st.st_mtime_ns

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
