"""DIR/report.html kept current while a tournament runs (:class:`ReportRefresher`), without
importing the page's machinery (jinja2, numpy) until the final page is written."""
from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hexarena.results.page.html_report import Journal


class ReportRefresher:
    """Keeps DIR/report.html current while a tournament runs, off the path of the games.

    `on_record` (the runner's per-record callback) counts finished games; every
    `every` games, once `interval` seconds have passed since the last refresh
    started (the first: since the refresher was made, as the run starts; a run
    shorter than that has its final page alone) and none is running, it starts `command` (the caller's: `hexarena
    report DIR`) as a child process, which reads the viewer data the referee
    wrote beside the journal (DIR/report-cache.jsonl) and replays nothing. The
    referee neither waits for it nor shares an interpreter with it. `finish`
    stops a refresh still running and writes the final page in this process.
    A failure to write the page is a warning, never the tournament's end.
    """

    def __init__(self, out: Path, warn: Callable[[str], None], command: list[str], every: int = 10,
                 interval: float = 5.0):
        self.out, self.warn, self.command = out, warn, command
        self.every, self.interval = every, interval
        self.count = 0
        self.child: subprocess.Popen | None = None
        self._started = time.monotonic()    # of the last refresh started; none in the first `interval` s
        self._warned = False

    def on_record(self, record: object) -> None:
        self.count += 1
        if self.count % self.every or not self._idle() or time.monotonic() - self._started < self.interval:
            return
        self._started = time.monotonic()
        try:
            self.child = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
        except OSError as exc:
            self._warn_once(f"report.html not refreshed: cannot start {self.command[0]!r}: {exc}")

    def _idle(self) -> bool:
        """No refresh running (the last one's failure, if any, is warned about once)."""
        if self.child is None or self.child.poll() is None:
            return self.child is None
        if self.child.returncode != 0:
            self._warn_once(f"report.html not refreshed: {' '.join(self.command[1:])} exited "
                            f"with status {self.child.returncode}")
        self.child = None
        return True

    def _warn_once(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            self.warn(message)

    def write(self, journal: Journal | None = None) -> Path | None:
        from hexarena.results.page.html_report import write_report
        try:
            return write_report(self.out, journal=journal)[0]
        except Exception as exc:          # the page is a convenience: say why and go on
            self.warn(f"report.html not written: {exc}")
            return None

    def finish(self, journal: Journal | None = None) -> Path | None:
        """The final page, written here (a refresh still running is stopped first); `journal`: the
        folder's journal as the caller read it already (:data:`~.html_report.Journal`), else the
        page reads it."""
        if self.child is not None and self.child.poll() is None:
            self.child.terminate()
            self.child.wait()
            self.child = None
        self._idle()
        return self.write(journal)
