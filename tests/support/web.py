"""A real `hexarena serve` (or `hexarena tournament --serve`) process for tests and benches: its
address from its first stdout line, requests with and without the token, a clean stop."""
from __future__ import annotations

import http.client
import re
import select
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

URL = re.compile(r"^http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{20,})$")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str


@dataclass
class Server:
    """A running server process: `url` (the first line it printed), `port`, `token`."""

    process: subprocess.Popen
    url: str
    port: int
    token: str

    def request(self, path: str, method: str = "GET", headers: dict[str, str] | None = None,
                cookie: bool = True, body: bytes | None = None) -> Answer:
        """One request (no redirect followed); with the token cookie unless `cookie` is False."""
        sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if cookie:
            sent["Cookie"] = f"hexarena-{self.port}={self.token}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            return Answer(answer.status, {k.lower(): v for k, v in answer.getheaders()},
                          answer.read().decode("utf-8", "replace"))
        finally:
            connection.close()

    def stop(self, sig: int = signal.SIGINT, timeout: float = 30) -> tuple[int, str, str]:
        """Send `sig`; return the exit code and what the process wrote (stdout, stderr)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, err


def start_server(args: list[str], cwd: Path | None = None, timeout: float = 120, stderr=subprocess.PIPE,
                 env: dict[str, str] | None = None) -> Server:
    """Start `python -m hexarena ARGS` and wait for the address on its first stdout line
    (AssertionError with its output when none comes); `stderr`: where its stderr goes (an open
    file, for a server that may write more than a pipe holds while nobody reads it); `env`: its
    environment (None: this one's)."""
    process = subprocess.Popen([sys.executable, "-m", "hexarena", *args], stdout=subprocess.PIPE,
                               stderr=stderr, text=True, cwd=cwd, env=env)
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    line = process.stdout.readline().strip() if ready else ""
    match = URL.match(line)
    if match is None:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"no address on the first line: {line!r}\n{out}\n{err}")
    return Server(process, line, int(match.group(1)), match.group(2))


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def first_event(port: int, token: str, path: str, timeout: float = 60) -> bytes:
    """The first Server-Sent Event of the stream at `path` (through its blank line), as sent."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}", "Cookie": f"hexarena-{port}={token}"})
        answer = connection.getresponse()
        assert answer.status == 200, answer.status
        data = b""
        while b"\n\n" not in data:
            chunk = answer.read1(65536)
            if not chunk:
                break
            data += chunk
        return data[: data.find(b"\n\n") + 2]
    finally:
        connection.close()
