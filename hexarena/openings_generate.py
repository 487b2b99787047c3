"""`hexarena openings generate`: a book of openings whose first-seat value lies in a band.

Candidates come from referee/game/book.py (`expand`: a few plies from the start, one per class
of positions equal under the hexagon's symmetries); each is judged by the engine
(hexarena/openings_play.py: its `genmove_analyze` winrate, or self-play games when it gives
none); the first `count` candidates in the band, in the candidates' seeded order, make the
book, each line checked again by the rules. Every judgement is appended to `WORK/judged.jsonl`
(self-play games go to the tournament folder `WORK/selfplay`, grown by the lines a later run
adds; `WORK/judge.json` says how the lines were judged), so a second run with the same
arguments judges only what is left, and one with other candidates judges only the new ones.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hexarena.results.record.journal import write_atomic
from hexarena.openings_play import Advisers, Board, NoWinrate, scores, selfplay, selfplay_config, winrates

JUDGED = "judged.jsonl"
JUDGE_FILE = "judge.json"           # what the judgements in WORK were made with


class WorkMismatch(Exception):
    """The work folder holds judgements made another way (another engine, board or judge)."""


class NoGames(Exception):
    """Self-play judged no line: every game was void (the engine did not start or failed)."""
JUDGES = ("auto", "winrate", "selfplay")


@dataclass(frozen=True)
class Plan:
    """What to generate (see `hexarena openings generate --help`)."""

    board: Board
    engine: str
    count: int
    band: tuple[float, float]
    plies: int
    candidates: int
    prefix: tuple[str, ...] = ()
    judge: str = "auto"
    games: int = 4                  # self-play games per candidate
    seed: int = 0
    concurrency: int = 1
    suffix: tuple[str, ...] = ()    # actions every candidate ends with (e.g. `komi=K keep` after a dual pie)


def candidates(plan: Plan) -> list[tuple[str, ...]]:
    """The candidate lines, seeded (referee/game/book.py `expand`), each followed by the suffix; a
    line the suffix cannot follow is dropped. OpeningError when none is left."""
    from hexarena.referee.game.book import expand
    from hexarena.referee.game.openings import OpeningError, replay
    start = plan.board.start()
    lines = expand(start, plan.plies, plan.candidates, plan.seed, plan.prefix)
    if not plan.suffix:
        return lines
    out = []
    for line in lines:
        try:
            out.append(replay(start, line + plan.suffix)[0])
        except OpeningError:
            continue
    if not out:
        raise OpeningError(f"--then {' '.join(plan.suffix)!r}: it can follow no candidate line of {plan.plies} "
                          f"plies")
    return out


def claim(plan: Plan, work: Path) -> None:
    """Record in `work` what its judgements are made with, or check that a resumed run makes them the
    same way; WorkMismatch naming the difference otherwise."""
    b = plan.board
    wanted = {"game": b.game, "size": b.size, "variant": b.variant, "komi": b.komi, "engine": plan.engine,
              "judge": plan.judge, "games": plan.games, "seed": plan.seed}
    path = work / JUDGE_FILE
    if path.exists():
        try:
            held = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            held = {}
        for key, value in wanted.items():
            if held.get(key) != value:
                raise WorkMismatch(f"{work} holds judgements made with {key} {held.get(key)!r}, not {value!r}: "
                                   f"give another --work, or delete it to judge again")
        return
    write_atomic(path, json.dumps(wanted) + "\n")


def read_judged(work: Path, say: Callable[[str], None] = lambda _s: None) -> dict[tuple[str, ...], float]:
    """The judgements a run into `work` kept: line -> the first seat's value; a line that cannot be
    read (a torn last line, bytes that are not UTF-8) is skipped, `say` naming its file and line."""
    out: dict[tuple[str, ...], float] = {}
    path = work / JUDGED
    if path.exists():
        for no, raw in enumerate(path.read_bytes().splitlines(), 1):
            try:
                entry = json.loads(raw.decode("utf-8"))
                out[tuple(entry["line"].split())] = float(entry["value"])
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                if raw.strip():
                    say(f"{path}:{no}: skipped, not a judgement ({exc.__class__.__name__})")
    return out


def judged_by(work: Path) -> str | None:
    """How the judgements in `work` were made (``winrate`` or ``selfplay``), as its judge.json records
    it; for a folder made before judge.json recorded it, the `by` of its judgements when they agree."""
    try:
        held = json.loads((work / JUDGE_FILE).read_text(encoding="utf-8"))
        if held.get("by") in ("winrate", "selfplay"):
            return held["by"]
    except (OSError, ValueError, AttributeError):
        pass
    bys = set()
    try:
        for raw in (work / JUDGED).read_bytes().splitlines():
            try:
                bys.add(json.loads(raw.decode("utf-8")).get("by"))
            except (ValueError, AttributeError):
                continue
    except OSError:
        return None
    return bys.pop() if len(bys) == 1 and bys <= {"winrate", "selfplay"} else None


def _record_by(work: Path, how: str) -> None:
    """Record in judge.json how the judgements in `work` are made (a resumed `auto` run goes on the same way)."""
    path = work / JUDGE_FILE
    try:
        held = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(held, dict) and held.get("by") != how:
        write_atomic(path, json.dumps(held | {"by": how}) + "\n")


def _played_lines(folder: Path) -> list[tuple[str, ...]]:
    """The lines of the self-play tournament saved in `folder` (none when there is none)."""
    try:
        games = json.loads((folder / "tournament.json").read_text(encoding="utf-8"))["games"]
        return [tuple(text.split()) for text in games[0].get("openings", [])]
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return []


def _open_for_append(path: Path):
    """`path` opened to append lines: after a torn last line (no newline) the next starts on a line of its own."""
    log = open(path, "a", encoding="utf-8")
    if log.tell() > 0:
        with open(path, "rb") as fh:
            fh.seek(-1, 2)
            if fh.read(1) != b"\n":
                log.write("\n")
    return log


def judge(plan: Plan, lines: list[tuple[str, ...]], work: Path, advisers: Advisers, tick: Callable[[float], None],
          say: Callable[[str], None]) -> tuple[dict[tuple[str, ...], float], str]:
    """Each line's first-seat value (the ones `work` holds already, and the others judged now, by
    winrates from `advisers` or by self-play) and how they were judged (``winrate`` or ``selfplay``)."""
    import trio
    known = read_judged(work, say)
    todo = [line for line in lines if line not in known]
    tick(len(lines) - len(todo))
    how = plan.judge if plan.judge != "auto" else judged_by(work) or "auto"
    with _open_for_append(work / JUDGED) as log:
        def done(line: tuple[str, ...], value: float, by: str, games: int = 0) -> None:
            known[line] = value
            log.write(json.dumps({"line": " ".join(line), "value": round(value, 4), "by": by, "games": games}) + "\n")
            log.flush()
        def judged_by_winrate(line: tuple[str, ...], value: float) -> None:
            done(line, value, "winrate")
            tick(1)
        if todo and how in ("auto", "winrate"):
            try:
                trio.run(winrates, advisers, plan.board, todo, plan.concurrency, judged_by_winrate)
                how = "winrate"
                _record_by(work, how)
            except NoWinrate as exc:
                if how == "winrate":
                    raise
                say(f"{exc}: judging by self-play, {plan.games} games a line")
                how = "selfplay"
        if todo and how != "winrate":
            _record_by(work, "selfplay")
            todo = [line for line in lines if line not in known]
            folder = work / "selfplay"
            played = _played_lines(folder)     # the saved tournament grows by the new lines: nothing replayed
            config = selfplay_config(plan.engine, plan.board, played + [t for t in todo if t not in played],
                                     plan.games, plan.seed)
            per_game = 1 / plan.games
            trio.run(selfplay, config, folder, plan.concurrency, lambda: tick(per_game))
            judged = 0
            for line, (games, points) in scores(folder).items():
                if line in todo and games:
                    done(line, points / games, "selfplay", games)
                    judged += 1
            if not judged:
                raise NoGames(f"no self-play game counted: every game was void (reasons in "
                              f"{folder / 'journal.jsonl'}, engine logs in {folder / 'logs'})")
            how = "selfplay"
    if how != "selfplay" and len(known) > 3 and len({round(v, 4) for v in known.values()}) == 1:
        say(f"every line was judged {next(iter(known.values())):.3f}: the engine's winrate does not tell these "
            f"lines apart here (e.g. a komi offer chosen by rule); try --judge selfplay")
    return known, how if how != "auto" else "winrate"


def choose(plan: Plan, lines: list[tuple[str, ...]], values: dict[tuple[str, ...], float]
           ) -> list[tuple[tuple[str, ...], float]]:
    """The first `count` lines (in candidate order) whose value lies in the band, each checked by the rules."""
    from hexarena.referee.game.openings import parse_line
    lo, hi = plan.band
    kept = []
    for line in lines:
        value = values.get(line)
        if value is not None and lo <= value <= hi:
            b = plan.board
            kept.append((parse_line(" ".join(line), b.game, b.size, b.variant, b.komi), value))
            if len(kept) == plan.count:
                break
    return kept


def write_book(out: Path, plan: Plan, kept: list[tuple[tuple[str, ...], float]], how: str) -> None:
    """The book file (referee/game/book.py's format), written whole or not at all."""
    from hexarena.referee.game.book import format_book
    from hexarena.referee.tournament.schedule import group_name
    b = plan.board
    judged = f"{plan.games} self-play games a line" if how == "selfplay" else "its genmove_analyze winrate"
    after = f" after {' '.join(plan.prefix)}" if plan.prefix else ""
    after += f" then {' '.join(plan.suffix)}" if plan.suffix else ""
    komi = f", komi {b.komi}" if b.komi is not None else ""
    header = (f"{group_name(*b.group)}{komi}: {len(kept)} openings of {plan.plies} plies{after}, distinct under "
              f"the hexagon's symmetries, from {plan.candidates} candidates, judged by {plan.engine} ({judged}), "
              f"first seat in {plan.band[0]:.2f}-{plan.band[1]:.2f}, seed {plan.seed}")
    write_atomic(out, format_book(header, kept))
