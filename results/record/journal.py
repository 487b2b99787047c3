"""The journal: one game record (a JSON object) per line, append-only.

Standard library only. The referee appends one :class:`GameRecord` per
finished (or void) game, flushed and fsynced; resume, ratings and reports
read them back. A line is either whole or the torn tail of a killed writer,
which :func:`cut_torn_tail` moves aside before the next append.

Readers that need no moves (ratings, status, the SPRT; the report, but for the
records whose moves it shows: ``keep_moves``) read *summaries*
(``summary=True``): a schema-3 line written by :meth:`GameRecord.to_json`
ends with its `moves`, so such a reader decodes only the text before them
(:func:`parse_summary`), a few hundred bytes of a line that may hold
megabytes of analysis, and checks the moves by a scan of their text; it
accepts exactly the lines the full reader accepts.
"""
from __future__ import annotations

import json
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from dataclasses import fields
from pathlib import Path

from .files import CLOEXEC, NOFOLLOW, open_regular, write_all
from .game import SCHEMA, SEAL, GameRecord, seal_of
from .moves import moves_text

JOURNAL_NAME = "journal.jsonl"


class JournalError(ValueError):
    """A journal line that cannot be read; says which file and line."""

    def __init__(self, path: str | os.PathLike, line: int, reason: str):
        super().__init__(f"{path}:{line}: {reason}")
        self.path, self.line, self.reason = str(path), line, reason


def journal_path(path: str | os.PathLike) -> Path:
    """A journal file, or the journal inside a tournament folder."""
    p = Path(path)
    return p / JOURNAL_NAME if p.is_dir() else p


#: Whether a reader of summaries needs one record whole after all: (its summary, its line) -> bool.
KeepMoves = Callable[[GameRecord, bytes], bool]


def read_journal(path: str | os.PathLike, errors: list[JournalError] | None = None, *,
                 summary: bool = False, keep_moves: KeepMoves | None = None) -> list[GameRecord]:
    """Every record of a journal, in file order (with `summary`, each without its moves:
    :meth:`GameRecord.summary`, read by :func:`parse_summary`; but a record for which
    `keep_moves(summary, line)` is true is read whole, moves and all).

    A malformed line raises JournalError, unless `errors` is a list: then it is
    appended there and skipped. A torn last line (no newline: the writer was
    killed mid-write) is always reported through `errors` or raised likewise.
    """
    p = journal_path(path)
    return list(_iter_records(p, errors, summary, keep_moves))


def iter_journal(path: str | os.PathLike, errors: list[JournalError] | None = None, *,
                 summary: bool = False) -> Iterator[GameRecord]:
    """The records of :func:`read_journal`, read one at a time (a reader that keeps less than every record)."""
    return _iter_records(journal_path(path), errors, summary)


def journal_lines(p: Path) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of a journal as bytes, with their line numbers (lines end at b"\\n" only).
    FileLimitError (an OSError) when `p` is no regular file: a FIFO is never opened, /dev/zero never read."""
    with open_regular(p) as fh:
        for no, line in enumerate(fh, 1):
            if not line.isspace():      # a line begins with `{`: no copy of a long line to test it
                yield no, line


def parse_line(line: bytes) -> GameRecord:
    """One journal line as a record; ValueError (a bad byte, bad JSON, NaN or Infinity, a bad
    record) or TypeError."""
    try:
        return GameRecord.from_dict(json.loads(line.decode("utf-8"), parse_constant=_no_constant))
    except RecursionError:                  # nesting too deep
        raise ValueError("JSON nested too deeply") from None


def _no_constant(name: str) -> float:
    """JSON has no NaN nor Infinity (Python's reader accepts them): a line holding one is bad."""
    raise ValueError(f"{name} is not a JSON number")


class Counted:
    """The game ids that have a counted record so far, and the line of each.

    A game has one counted record: its first record that is not void (a void game is replayed
    under its id, so voids before it are history). A later record of a counted id is refused by
    :meth:`check` and read as a bad line by every reader (status, ratings, the report, `serve`,
    `--resume`, `hexarena repair`), so each gives the same answer."""

    def __init__(self) -> None:
        self.lines: dict[str, int] = {}

    def check(self, record: GameRecord, line: int) -> GameRecord:
        """`record`, read at `line`; ValueError when its game already has a counted record."""
        if not record.void:
            first = self.lines.setdefault(record.id, line)
            if first != line:
                raise ValueError(f"game id {record.id!r} already has a record (line {first}): "
                                 "this later one is not counted")
        return record


#: How a schema-3 line written by GameRecord.to_json goes on after its last field but the moves.
_MOVES_KEY = b', "moves": '
_HEAD = frozenset(f.name for f in fields(GameRecord)) - {"moves"}


def parse_summary(line: bytes) -> GameRecord:
    """One journal line as a record without its moves (:meth:`GameRecord.summary`): the record
    :func:`parse_line` gives, summarised, and its errors; a line one refuses the other refuses.

    A schema-3 line as :meth:`GameRecord.to_json` writes it (its fields in order, `moves` the last)
    is read without decoding its moves: the text before them is decoded, and the text after them
    is the text its ``seal`` was made of (a CRC-32: what to_json wrote), or else is matched against
    the exact form to_json writes (:func:`~.moves.moves_text`, a scan without building any object:
    ~5 ns a byte, where the CRC costs well under one). Outside a JSON string ``, "moves": `` can only be a key (a quote inside a
    string is escaped), and its first place is the top-level key when the text before it decodes
    as an object; when that object holds every field of the record but the moves (to_json writes
    them all, null or not) and the rest matches, the line is JSON whose moves the full reader
    accepts. Any other line (an older writer's, a changed one) is decoded whole by parse_line."""
    cut = line.find(_MOVES_KEY)
    if cut > 0:
        try:
            head = json.loads(line[:cut].decode("utf-8") + "}", parse_constant=_no_constant)
        except (ValueError, RecursionError):
            head = None
        if (isinstance(head, dict) and head.get("schema") == SCHEMA and head.keys() - {SEAL} == _HEAD
                and (_sealed(line, cut, head.get(SEAL))
                     or moves_text().fullmatch(line, cut + len(_MOVES_KEY)) and _utf8(line, cut))):
            try:
                return GameRecord.from_dict(head)
            except RecursionError:
                raise ValueError("JSON nested too deeply") from None
    return parse_line(line).summary()


def _sealed(line: bytes, cut: int, seal: object) -> bool:
    """Whether `line`'s moves, from `cut` to the line's closing brace, are the text its seal was
    made of (:func:`~.game.seal_of`): what GameRecord.to_json wrote, moves the full reader accepts."""
    if not isinstance(seal, str):
        return False
    end = len(line.rstrip(b"\r\n"))
    return line[end - 1:end] == b"}" and seal_of(line[cut + len(_MOVES_KEY):end - 1]) == seal


def _utf8(line: bytes, cut: int) -> bool:
    """Whether the bytes of `line` from `cut` on are UTF-8 (moves_text() does not check it)."""
    if line.isascii():
        return True
    try:
        line[cut:].decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _iter_records(p: Path, errors: list[JournalError] | None, summary: bool = False,
                  keep_moves: KeepMoves | None = None) -> Iterator[GameRecord]:
    parse = parse_summary if summary else parse_line
    counted = Counted()
    for no, line in journal_lines(p):
        try:
            record = parse(line)
            if summary and keep_moves is not None and keep_moves(record, line):
                record = parse_line(line)
            yield counted.check(record, no)
        except (ValueError, TypeError) as exc:      # UnicodeDecodeError is a ValueError
            torn = "" if line.endswith(b"\n") else " (torn last line)"
            err = JournalError(p, no, f"{exc}{torn}")
            if errors is None:
                raise err from None
            errors.append(err)


TORN_SUFFIX = ".torn"


def cut_torn_tail(path: str | os.PathLike) -> str | None:
    """Cut a torn last line (no newline: the writer was killed mid-write) off the journal.

    The fragment is appended, with a note, to the side file ``JOURNAL.torn``;
    the game it was recording is not in the journal, so a resume replays it.
    Returns a sentence saying what was done, or None when the file was whole.
    """
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            if size == 0:
                return None
            fh.seek(max(0, size - 1))
            if fh.read(1) == b"\n":
                return None
            fh.seek(0)
            data = fh.read()
    except FileNotFoundError:
        return None
    keep = data.rfind(b"\n") + 1
    fragment = data[keep:]
    side = p.with_name(p.name + TORN_SUFFIX)
    note = f"# torn last line cut from {p.name} (byte {keep}, {len(fragment)} bytes); its game is replayed\n"
    append_whole(side, note.encode() + fragment + b"\n")
    fd = os.open(p, os.O_RDWR | NOFOLLOW)
    try:
        os.ftruncate(fd, keep)
        os.fsync(fd)
    finally:
        os.close(fd)
    return f"{p}: cut a torn last line of {len(fragment)} bytes (kept in {side})"


def append_whole(path: Path, data: bytes) -> None:
    """`data` at the end of `path` (made when missing; never through a symbolic link), fsynced."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW | CLOEXEC, 0o666)
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


class JournalWriter:
    """Appends records, one line each, written and fsynced before `append` returns.

    A line the disk refuses (full, gone) is cut off again, so the journal stays whole lines:
    OSError naming the journal. The caller owns the writer and must close it; only one writer
    may hold a journal at a time.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        cut_torn_tail(self.path)           # the next record starts on a line of its own
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW | CLOEXEC, 0o666)

    def append(self, record: GameRecord) -> None:
        size = os.fstat(self._fd).st_size
        try:
            write_all(self._fd, (record.to_json() + "\n").encode("utf-8"))
            os.fsync(self._fd)
        except OSError as exc:
            try:
                os.ftruncate(self._fd, size)           # no torn line: the record was not written
            except OSError:
                pass
            raise OSError(exc.errno, exc.strerror, str(self.path)) from None

    def close(self) -> None:
        os.close(self._fd)

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename. The file
    gets the mode a plain open() gives: an existing file's, else 0666 less the umask."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = new_file_beside(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def new_file_beside(target: Path) -> tuple[int, str]:
    """A new temporary file beside `target`, open for writing, with the mode `target` has (or, when
    it has none, the one the umask leaves of 0666, as open() makes it; mkstemp's is 0600)."""
    while True:
        tmp = str(target.parent / f"{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | CLOEXEC, 0o666)
        except FileExistsError:
            continue
        try:
            os.chmod(fd, stat.S_IMODE(os.stat(target).st_mode))
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(fd)
            os.unlink(tmp)
            raise
        return fd, tmp
