"""`hexarena tournament` as a real process for the referee's tests: a config of a good and a
misbehaving fake engine (tests.support.fakes), the run started, its engine logs searched."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.support.fakes import fake_argv

PATIENCE = 60.0      # seconds: a bound on waiting, not a measurement


def write_config(path: Path, bad_mode: str, games_per_pair: int = 1, move: float = 600.0,
                 good_mode: str = "good", restart: str = "game", bad_at: int = 1) -> Path:
    def toml_list(words: list[str]) -> str:
        return "[" + ", ".join(repr(w).replace("'", '"') if "'" not in w and "\\" not in w and '"' not in w
                               else "'''" + w + "'''" for w in words) + "]"
    path.write_text(f'''
games_per_pair = {games_per_pair}
[time]
move = {move}
[engines.good]
cmd = {toml_list(fake_argv(good_mode))}
restart = "{restart}"
[engines.bad]
cmd = {toml_list(fake_argv(bad_mode, bad_at))}
restart = "{restart}"
[[games]]
game = "spelde"
size = 5
''', encoding="utf-8")
    return path


def start_referee(config: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out),
                             "--no-preflight", "-j", "1", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(predicate, what: str) -> None:
    end = time.monotonic() + PATIENCE
    while not predicate():
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.05)


def logs_with(out: Path, text: str) -> list[Path]:
    folder = out / "logs"
    if not folder.is_dir():
        return []
    return [p for p in folder.rglob("*.log") if text in p.read_text(errors="replace")]
