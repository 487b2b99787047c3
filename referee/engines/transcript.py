"""HGP transcripts: every line sent to and received from an engine, with a timestamp.

`--log-protocol` (or ``log_protocol = true`` for one engine) wraps the two
pipes of each engine in :class:`TranscriptSend` / :class:`TranscriptReceive`;
both append to one text file, one line per protocol line::

    05:06:58.123 > 3 genmove black
    05:06:58.431 < =3 e4

``>`` is referee to engine, ``<`` engine to referee; the time is UTC with
milliseconds. A partial line received is held until its newline (or written
with ``<~`` when the engine closes its stdout). Without a file descriptor the
channel waits in trio for every answer, so transcripts cost some speed.
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import trio


class Transcript:
    """One engine's transcript file, opened for appending (line buffered), closed with the pipes."""

    def __init__(self, path: str | os.PathLike):
        self._fh = self._open(path)
        self._pending = b""
        self._users = 2

    @staticmethod
    def _open(path: str | os.PathLike):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return open(path, "a", encoding="utf-8", errors="replace", buffering=1)

    def switch(self, path: str | os.PathLike) -> None:
        """Continue in another file (a kept engine's next game); nothing if already closed."""
        if not self._fh.closed:
            self._fh.close()
            self._fh = self._open(path)

    def write(self, direction: str, data: bytes) -> None:
        if direction == "<":
            data, self._pending = self._pending + data, b""
            *lines, rest = data.split(b"\n")
            self._pending = rest
        else:
            lines = data.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()
        stamp = datetime.now(timezone.utc).strftime("%H:%M:%S.%f")[:-3]
        for line in lines:
            self._fh.write(f"{stamp} {direction} {line.decode('utf-8', 'replace').rstrip(chr(13))}\n")

    def release(self) -> None:
        """One of the two pipes is closed; the file closes with the second."""
        self._users -= 1
        if self._users == 0 and not self._fh.closed:
            if self._pending:
                self._fh.write(f"{datetime.now(timezone.utc):%H:%M:%S} <~ {self._pending.decode('utf-8', 'replace')}\n")
            self._fh.close()


class TranscriptSend(trio.abc.SendStream):
    def __init__(self, inner: trio.abc.SendStream, transcript: Transcript):
        self.inner, self.transcript = inner, transcript

    async def send_all(self, data) -> None:
        self.transcript.write(">", bytes(data))
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            self.transcript.release()


class TranscriptReceive(trio.abc.ReceiveStream):
    def __init__(self, inner: trio.abc.ReceiveStream, transcript: Transcript):
        self.inner, self.transcript = inner, transcript

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.inner.receive_some(max_bytes)
        self.transcript.write("<", bytes(data))
        return data

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            self.transcript.release()


def wrap(send: trio.abc.SendStream, receive: trio.abc.ReceiveStream, path: str | os.PathLike
         ) -> tuple[TranscriptSend, TranscriptReceive]:
    """The two pipes of one engine, both writing to the transcript at `path`."""
    t = Transcript(path)
    return TranscriptSend(send, t), TranscriptReceive(receive, t)
