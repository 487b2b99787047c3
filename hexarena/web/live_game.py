"""One game in flight, followed through its live file (DIR/live/<id>.jsonl, written by the
referee: referee/tournament/live_files.py) and replayed through the rules.

:meth:`LiveGame.read` takes the whole lines added since the last read (a line still being
written waits for the next read); each action is parsed and played by the game's rules, so
the board shown is the rules' position, never a copy of what a file says. A line that breaks
the rules, or is not JSON, stops the game's following with :attr:`LiveGame.error` (the file
is outside data); a file replaced by a new one (the game replayed) starts over.
"""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from hexarena.engine import registry
from hexarena.engine.actions import Action, holders_after
from hexarena.engine.core import Colour
from hexarena.engine.errors import RulesError
from hexarena.engine.game import GameState
from hexarena.results.page.analysis_data import actions_analysis, analysis_row
from hexarena.results.page.board_svg import action_sites
from hexarena.results.page.html_report import GAME_FIELDS
from hexarena.results.page.replay import Replay
from hexarena.results.page.replay_data import game_data, site_text, status_text
from hexarena.results.record.files import open_regular
from hexarena.results.record.sgf import SgfNode

#: The most of a live file one read takes: a line is an action with its analysis, far shorter.
READ_BYTES = 4 << 20

class LiveGame:
    """A game in flight: its header (the live file's first line), every state since the start,
    the actions with their lines (think time `t`, clock left `l`, analysis `i`, wall time `at`)."""

    def __init__(self, path: Path):
        self.path = path
        self.inode: int | None = None
        self._catching = threading.Lock()      # a request's worker thread may catch up too (web/offload.py)
        self.stopped: str | None = None          # set by the watch: no process plays the game any more, why
        self._reset()

    def _reset(self) -> None:
        self.offset = 0
        self.waiting: list[bytes] = []           # lines read, not yet taken (a lazy read)
        self.count = 0                           # lines taken
        self.header: dict[str, Any] | None = None
        self.states: list[GameState] = []
        self.tokens: list[str] = []
        self.actions: list[Action] = []
        self.lines: list[dict[str, Any] | None] = []     # None: an action of the opening
        self.holder: dict[Colour, int] = {Colour.BLACK: 0, Colour.WHITE: 1}
        self.holders: list[dict[Colour, int]] = [self.holder]     # before each action, and after the last
        self.seat_left: list[float | None] = [None, None]
        self.error: str | None = None

    @property
    def id(self) -> str:
        return str((self.header or {}).get("id", ""))

    def read(self, lazy: bool = False) -> bool:
        """Take the whole lines added since the last read; True when the game changed. OSError
        when the file cannot be read (it went: the game was journaled). `lazy`: keep the
        actions' lines for later (:meth:`catch_up`, which :meth:`view` and :meth:`entry`
        call): a server nobody watches only follows the files. At most READ_BYTES are read at a time
        (a line longer than that stops the game's following with an error); FileLimitError (an
        OSError) when the path is no regular file."""
        with open_regular(self.path) as handle:     # FileLimitError: a FIFO is never opened, a device never read
            stat = os.fstat(handle.fileno())
            if stat.st_ino != self.inode or stat.st_size < self.offset:
                self._reset()                       # a new file: start over
                self.inode = stat.st_ino
            handle.seek(self.offset)
            data = handle.read(READ_BYTES)          # the rest at the next read
        whole = data[: data.rfind(b"\n") + 1]
        self.offset += len(whole)
        if not whole and len(data) == READ_BYTES and self.error is None:
            self.error = f"{self.path}: line {self.count + 1}: longer than {READ_BYTES >> 20} MiB"
        if not whole or self.error is not None:
            return False
        self.waiting += [line for line in whole.splitlines() if line.strip()]
        if self.header is None and self.waiting:
            self._take(self.waiting.pop(0))
        if not lazy:
            self.catch_up()
        return True

    def catch_up(self) -> None:
        """Replay the lines kept by a lazy :meth:`read` (one thread at a time)."""
        with self._catching:
            waiting, self.waiting = self.waiting, []
            for line in waiting:
                if self.error is not None:
                    break
                self._take(line)

    def _take(self, raw: bytes) -> None:
        self.count += 1
        try:
            line = json.loads(raw.decode("utf-8"))
            if not isinstance(line, dict):
                raise ValueError("not a JSON object")
            if self.header is None:
                self._start(line)
            else:
                self._ply(line)
        except (ValueError, KeyError, TypeError, RulesError) as exc:
            self.error = f"{self.path}: line {self.count}: {exc}"

    @property
    def opening(self) -> list[str]:
        return list((self.header or {}).get("opening") or [])

    def _start(self, header: dict[str, Any]) -> None:
        if header.get("live") != 1:
            raise ValueError(f"not a live file of format 1: {header.get('live')!r}")
        info = registry.get(str(header["game"]))
        variant = info.variant(int(header["size"]), str(header.get("variant") or "").split())
        self.header = header
        self.states = [info.new_game(variant, int(header.get("komi") or 0))]
        for token in self.opening:
            self._play(str(token), None)

    def _ply(self, line: dict[str, Any]) -> None:
        ply, state = line["ply"], self.states[-1]
        if ply != len(self.tokens) + 1:
            raise ValueError(f"ply {ply} after {len(self.tokens)} actions")
        if line["c"] != state.to_move.letter:
            raise ValueError(f"ply {ply}: {line['c']} moves but {state.to_move.word} is to move")
        self.seat_left[self.holder[state.to_move]] = line.get("l")
        self._play(str(line["a"]), line)

    def _play(self, token: str, line: dict[str, Any] | None) -> None:
        state = self.states[-1]
        action = state.parse(token)
        self.states.append(state.play(action))
        self.tokens.append(state.format(action))
        self.actions.append(action)
        self.lines.append(line)
        self.holder = holders_after(self.holder, action)
        self.holders.append(self.holder)

    # -- what the pages show ----------------------------------------------------------------

    def names(self) -> tuple[str, str]:
        header = self.header or {}
        return str(header.get("first", "")), str(header.get("second", ""))

    def board(self) -> dict[str, Any]:
        """The position now: board key, stones (``e5b g7w3``), the last action's sites, status."""
        self.catch_up()
        state = self.states[-1]
        pos, board = state.to_position(), state.board
        stacks = state.info.stacks
        stones = " ".join(board.name(bit) + site_text(colour.value, height, stacks)
                          for bit, (colour, height) in sorted(pos.stacks.items()))
        last = board.sorted_sites(action_sites(self.actions[-1])) if self.actions else []
        return {"bd": f"{state.info.id}-{board.n}", "stones": stones,
                "last": " ".join(board.name(bit) for bit in last), "status": status_text(pos)}

    def view(self) -> dict[str, Any]:
        """What the folder page shows of the game (a JSON object; names and tokens are text);
        `stopped`: why no process plays it any more (its clocks stand still), else None."""
        self.catch_up()
        header = self.header or {}
        names = self.names()
        clocks = header.get("clocks") or [{}, {}]
        lines = [line for line in self.lines if line is not None]
        return {
            "id": self.id, "game": header.get("game"), "size": header.get("size"),
            "variant": header.get("variant", ""), "ply": len(self.tokens), **self.board(),
            "to_move": self.states[-1].to_move.letter.lower() if self.states else "b",
            "last_token": self.tokens[-1] if self.tokens else "",
            "players": {c.letter.lower(): names[seat] for c, seat in self.holder.items()},
            "clocks": {c.letter.lower(): {**clocks[seat], "left": self.seat_left[seat]}
                       for c, seat in self.holder.items()},
            "since": lines[-1]["at"] if lines else header.get("at"),
            "info": self.latest_info(),
            "error": self.error, "stopped": self.stopped, "now": round(time.time(), 3),
        }

    def latest_info(self) -> dict[str, Any] | None:
        """The analysis of the latest action that has some, as every page shows it
        (``hexarenaAnalysis.describe``): its ply, its mover's name and the report's row
        (results/page/analysis_data.py: the winrate for the colour the mover then holds, visits,
        depth, pv); None when no action has any."""
        self.catch_up()
        for i in range(len(self.lines) - 1, -1, -1):
            line = self.lines[i]
            if line is None or not line.get("i"):
                continue
            seat = self.holders[i][self.states[i].to_move]
            holds = next(colour for colour, holder in self.holders[i + 1].items() if holder == seat)
            row = analysis_row([d for d in line["i"] if isinstance(d, dict)], holds.letter)
            if row is not None:
                return {"ply": line["ply"], "name": self.names()[seat], "row": row}
        return None

    def analysis(self) -> dict[str, Any] | None:
        """The report's analysis data of the actions so far (the chart that grows as they come)."""
        self.catch_up()
        colours = [state.to_move.letter for state in self.states[:-1]]
        infos = [None if line is None else [d for d in line.get("i") or [] if isinstance(d, dict)] or None
                 for line in self.lines]
        return actions_analysis(self.tokens, colours, infos)

    def entry(self) -> dict[str, Any]:
        """The game as the report's viewer reads it (html_report.game_entry's keys): the games-list
        fields so far, and the per-ply data of the replay."""
        self.catch_up()
        header = self.header or {}
        names = self.names()
        holder = {c: names[seat] for c, seat in self.holder.items()}
        fields = {"id": self.id, "game": header.get("game"), "size": header.get("size"),
                  "variant": header.get("variant", ""), "first": names[0], "second": names[1],
                  "black": holder[Colour.BLACK], "white": holder[Colour.WHITE], "winner": None, "result": "*",
                  "termination": "in play", "reason": "", "plies": len(self.tokens), "faulty": None,
                  "started": "", "seconds": None}
        entry: dict[str, Any] = {short: fields[name] for name, short in GAME_FIELDS.items()}
        seconds = [None if line is None else line.get("t") for line in self.lines]
        entry.update(game_data(Replay(SgfNode({}), self.states, self.tokens, self.actions, seconds)))
        if (analysis := self.analysis()) is not None:
            entry["a"] = analysis
        return entry
