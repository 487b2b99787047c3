"""Real ladder servers and bridges for the tests: processes over 127.0.0.1."""
from __future__ import annotations

import base64
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from functools import partial
from pathlib import Path

HEXARENA = [sys.executable, "-m", "hexarena"]
FAKE = str(Path(__file__).with_name("ladder_engine.py"))
WAIT = 120.0          # the most seconds any wait of a test takes before it fails


def pool_toml(name: str = "p", move: float = 0.5, interval: float = 0.3, anchors: tuple[str, ...] = ("random",),
              extra: str = "", network: float = 0.5, size: int = 4) -> str:
    anchors_text = ", ".join(f'"{a}"' for a in anchors)
    return (f"interval = {interval}\nprovisional = 3\n{extra}\n[[pools]]\nname = \"{name}\"\ngame = \"spelde\"\n"
            f"size = {size}\nnetwork = {network}\nanchors = [{anchors_text}]\n[pools.time]\nmove = {move}\n")


def add_account(data: Path, name: str) -> str:
    proc = subprocess.run([*HEXARENA, "ladder", "account", "add", name, "--data", str(data)],
                          capture_output=True, text=True, timeout=60, check=True)
    return proc.stdout.splitlines()[0]


def _limit_files(n: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


class Server:
    """`hexarena ladder serve` in its own process; `url` the pages, `ws` the bridges' address;
    `prefix` runs it through a command (``prlimit --fsize=N --``)."""

    def __init__(self, tmp: Path, config: str, data: Path, port: int = 0, ws_port: int = 0,
                 prefix: tuple[str, ...] = (), files: int | None = None):
        """`files`: the server's limit of open files (soft and hard RLIMIT_NOFILE), when given."""
        self.path = tmp / "ladder.toml"
        self.path.write_text(config)
        self.data = data
        self.err = open(tmp / f"server-{time.monotonic_ns()}.err", "w+")
        self.proc = subprocess.Popen([*prefix, *HEXARENA, "ladder", "serve", str(self.path), "--data", str(data),
                                      "--port", str(port), "--ws-port", str(ws_port)], stdout=subprocess.PIPE, stderr=self.err, text=True,
                                     preexec_fn=None if files is None else partial(_limit_files, files))
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("http://127.0.0.1:"), (line, self.stderr())
        self.url, self.ws = line.split()
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
        self.ws_port = int(self.ws.rsplit(":", 1)[1].split("/")[0])

    def stderr(self) -> str:
        self.err.flush()
        self.err.seek(0)
        return self.err.read()

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as answer:
            return answer.read()

    def standings(self, pool: str = "p") -> dict:
        return json.loads(self.get(f"pool/{pool}/standings.json"))

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(30)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait(30)


class Bridge:
    """`hexarena connect` in its own process, its output in a file."""

    def __init__(self, tmp: Path, ws: str, account: str, token: str, engine: list[str], *extra: str, tag: str = ""):
        self.out = tmp / f"bridge-{account}{tag}"
        self.log = open(tmp / f"bridge-{account}{tag}-{time.monotonic_ns()}.txt", "w+")
        env = {**os.environ, "HEXARENA_LADDER_TOKEN": token}
        self.proc = subprocess.Popen([*HEXARENA, "connect", ws, "--account", account, "--out", str(self.out),
                                      *extra, "--", *engine], stdout=self.log, stderr=subprocess.STDOUT, env=env,
                                     text=True)

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def wait(self, timeout: float = WAIT) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the bridge did not end in {timeout:g} s:\n{self.output()}") from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)


def until(check, what: str, timeout: float = WAIT, every: float = 0.1):
    """Poll `check()` until it returns something true; AssertionError naming `what` after `timeout`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"waited {timeout:g} s for {what}")


def journal(folder: Path) -> list[dict]:
    path = folder / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def upgrade(port: int, path: str, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection from `source` that has sent a WebSocket upgrade request for `path`, its
    answer unread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock


def upgraded(port: int, path: str, source: str = "127.0.0.1") -> socket.socket:
    """A connection to `path` whose opening handshake is done (the server's 101 read)."""
    sock = upgrade(port, path, source)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, answer
        answer += chunk
    assert b" 101 " in answer.split(b"\r\n")[0], answer
    return sock
