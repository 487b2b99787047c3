"""The built-in players' strength study: `python -m lab.strength [options]` -> docs/strength.md.

Real hexarena tournaments (engine processes, the referee, journals) of the
built-in players ``random``, ``greedy``, ``heuristic`` and ``mcts`` at two
time budgets a move, on every playable game at its smallest recommended size
and at its default size. Each game and size has its own folder
``OUT/<game>-<size>/`` with two tournaments:

* ``mcts/``: a gauntlet of the faster MCTS against each of the others
  (random, greedy, heuristic and the slower MCTS): every pairing the strength study's
  criteria need, and the costly part;
* ``base/``: a round robin of random, greedy and heuristic (cheap; it places
  them against each other in the same table);
* ``doubling/`` (only with ``--doubling-games N``): N more games of the faster
  MCTS against the slower one, on openings of their own (seed + 1), where the
  gauntlet's pairs leave the gain of doubling the time inside its interval.
  The page's doubling row counts the pairs of both tournaments.

Games are paired (same random opening, seats exchanged). Both tournaments
resume, so the strength study can be played in chunks (``--games spelde marbanta``
now, the others later); ``OUT/<game>-<size>/strength.json`` records every
chunk (command, commit, machine, date, load, minutes). The page holds, per
game and size, the criteria (scores of the faster MCTS, the slower one's
Elo over it from the game pairs, with a 95% interval) and the Elo table of
both tournaments rated together (``hexarena ratings``); ``--report-only``
writes it from the folders as they are.

The folders live in the repository (``docs/strength/`` by default; engine logs
and SGF records ignored, the journals hold every game): the strength study takes many sessions of a 2-core machine, and journals
left on a machine are lost with it. A section of the page whose folder is not
there is kept as it was, marked so, rather than dropped.

Playing a chunk while working on the code: the engines run the installed
package, so play from a worktree frozen at a commit (its own venv) into this
checkout's data folder, two chunks side by side on a 2-core machine::

    git worktree add ../wt-strength --detach HEAD
    (cd ../wt-strength && python3 -m venv .venv && . .venv/bin/activate && pip install -e .
     && python -m lab.strength --games vaxandis --sizes default -j 1 --out "$OLDPWD/docs/strength"
        --page /tmp/strength-vaxandis.md)

then ``python -m lab.strength --report-only`` here, and commit ``docs/``.
A chunk stopped at any point resumes where it stopped (games in flight are
played again). Stopped by Ctrl-C or SIGTERM, ``lab.strength`` stops its
tournament and logs the chunk (``"finished": false``) before it exits.

The full strength study (the defaults) is 40 games a pairing at the smallest size
and 20 at the default size, MCTS at 1 s and 2 s a move.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shlex
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from hexarena.commands_sprt import schedule_pairs
from hexarena.engine import registry
from hexarena.referee.tournament.run import load_saved
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import read_journal
from hexarena.results.sprt import Pair, estimate, game_points, pairs, pentanomial

ROOT = Path(__file__).resolve().parents[1]
STOP_GRACE = 60.0      # seconds a stopped tournament has to stop before it is killed
BASE = ("random", "greedy", "heuristic")
#: Actions every game of a game's strength study opens with, before its random ones. Anda's random
#: 2-action opening would be its pie (a komi drawn from 0 to the board's sites, then a random
#: swap or keep), and a komi far from fair decides the game whoever plays: `python -m
#: lab.mcts_duel anda 7 0.5s+narrow 0.25s+narrow --first 20` split 6 of 7 pairs 1-1 (each
#: side won with the same colour). After "komi=0 keep" the random actions are the first
#: turns: 3 of 8 pairs split, 3 won twice by the slower search, 2 by the faster
#: (0.5s+wide against 0.25s+wide, --prefix "komi=0 keep"). Seats are exchanged in each
#: pair, so komi 0 favours neither player.
PREFIX = {"anda": "komi=0 keep"}


def names(args: argparse.Namespace) -> tuple[str, str]:
    """(the faster MCTS's engine name, the slower one's)."""
    return f"mcts-{args.fast:g}s", f"mcts-{args.slow:g}s"


def engines(args: argparse.Namespace) -> dict[str, list[str]]:
    """Engine name -> argv (`{python}`/`{seed}` filled by the referee)."""
    def player(name: str) -> list[str]:
        return ["{python}", "-P", "-m", "hexarena.players", name, "--seed", "{seed}"]
    fast, slow = names(args)
    return {**{b: player(b) for b in BASE},
            fast: player(f"mcts:{args.fast:g}s"), slow: player(f"mcts:{args.slow:g}s")}


def config(args: argparse.Namespace, game: str, size: int, kind: str, games_per_pair: int) -> str:
    """The TOML of one tournament of `game` at `size`: `kind` "mcts" (the gauntlet), "base"
    or "doubling" (the two MCTS alone, on openings of their own)."""
    fast, slow = names(args)
    chosen = {"mcts": [*BASE, fast, slow], "base": list(BASE), "doubling": [fast, slow]}[kind]
    lines = [f"seed = {args.seed + (kind == 'doubling')}", f"games_per_pair = {games_per_pair}"]
    lines += ['pairing = "gauntlet"', f'challengers = ["{fast}"]'] if kind == "mcts" else ['pairing = "round-robin"']
    lines += ["", "[time]", f"main = {args.main}", f"increment = {args.increment}"]
    # a per-move cap under a clock is told to the engines as their time left (PROTOCOL.md,
    # "Clocks"), so a clock-aware player would budget on the cap: none unless asked for
    lines += [f"move = {args.move_limit}", ""] if args.move_limit else [""]
    for name, argv in engines(args).items():
        if name in chosen:
            lines += [f'[engines."{name}"]', "cmd = [" + ", ".join(f'"{a}"' for a in argv) + "]",
                      'restart = "fault"', ""]
    lines += ["[[games]]", f'game = "{game}"', f"size = {size}"]
    if game in PREFIX:
        lines.append(f'openings = ["{PREFIX[game]}"]')
    if args.openings:
        lines.append(f"random_openings = {args.openings}")
    if game == "anda-prison" and args.prison_cap:
        lines.append(f"ply_cap = {args.prison_cap * registry.get(game).variant(size).board.site_count}")
    return "\n".join(lines) + "\n"


def sizes(game: str) -> dict[str, int]:
    info = registry.get(game)
    return {"small": info.sizes[0], "default": info.default_size}


def hexarena(*argv: str) -> str:
    cmd = [sys.executable, "-m", "hexarena", *argv]
    print("$", shlex.join(cmd), flush=True)
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT) as proc:
        try:
            stdout, stderr = proc.communicate()
        except BaseException:                  # stopped (SIGTERM, Ctrl-C): the tournament stops too, as it would
            proc.send_signal(signal.SIGTERM)   # alone (its games in flight abandoned, its journal intact)
            try:
                proc.communicate(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
            raise
    if proc.returncode != 0:
        sys.exit(f"{shlex.join(cmd)} failed ({proc.returncode}):\n{stderr}")
    return stdout


def commit() -> str:
    out = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True, cwd=ROOT)
    return out.stdout.strip() or "unknown"


def play(args: argparse.Namespace, game: str, size: int, count: int, argv: list[str]) -> None:
    """Play (or resume) both tournaments of one game and size; log the chunk in strength.json."""
    folder = args.out / f"{game}-{size}"
    folder.mkdir(parents=True, exist_ok=True)
    started, load, code, date = time.monotonic(), os.getloadavg()[0], commit(), now()
    before = played(folder)
    finished = False
    try:
        for kind in KINDS:
            if kind == "doubling" and not args.doubling_games:
                continue
            toml = folder / f"{kind}.toml"
            toml.write_text(config(args, game, size, kind, args.doubling_games if kind == "doubling" else count))
            resume = ["--resume"] if (folder / kind / "journal.jsonl").exists() else []
            hexarena("tournament", str(toml), "--out", str(folder / kind), "-j", str(args.jobs), *resume)
        finished = True
    finally:                                  # an interrupted chunk is logged too
        meta = folder / "strength.json"
        runs = json.loads(meta.read_text())["runs"] if meta.exists() else []
        runs.append({"date": date, "commit": code, "command": "python -m lab.strength " + shlex.join(argv),
                     "machine": machine(), "load_at_start": round(load, 2),
                     "minutes": round((time.monotonic() - started) / 60, 1),
                     "games_before": before, "games_after": played(folder), "finished": finished})
        meta.write_text(json.dumps({"runs": runs}, indent=1) + "\n")


KINDS = ("mcts", "base", "doubling")


def journals(folder: Path) -> dict[str, list[GameRecord]]:
    """The records of each of the folder's tournaments that has a journal, read once."""
    return {k: paired(folder / k) for k in KINDS if (folder / k / "journal.jsonl").exists()}


def paired(tournament: Path) -> list[GameRecord]:
    """A tournament's records; lines of journal schema 1 get their pair numbers from its schedule."""
    records = read_journal(tournament)
    if all(r.pair is not None or r.void for r in records) or not (tournament / "tournament.json").exists():
        return records
    numbers = schedule_pairs(load_saved(tournament))
    return [replace(r, pair=numbers[r.id][3]) if r.pair is None and r.id in numbers else r for r in records]


def started(folder: Path) -> bool:
    return any((folder / k / "journal.jsonl").exists() for k in KINDS)


def finished(records: dict[str, list[GameRecord]]) -> int:
    """The finished games among journals' records (void ones, replayed on resume, are not games)."""
    return sum(1 for rs in records.values() for r in rs if not r.void)


def played(folder: Path) -> int:
    return finished(journals(folder))


def signed(elo: float) -> str:
    """An Elo difference to the unit with its sign (+0, not -0; +inf and -inf as such)."""
    return f"{elo:+}" if math.isinf(elo) else f"{round(elo) + 0:+d}"


def criteria(tournaments: dict[str, list[GameRecord]], fast: str, slow: str) -> list[str]:
    """The strength study's measures, as Markdown rows: the faster MCTS's score against each other
    player (the gauntlet's games; against the slower MCTS the doubling tournament's too),
    and the slower one's Elo over it from the game pairs of both (95% interval)."""
    mcts = [k for k in ("mcts", "doubling") if tournaments.get(k)]
    if not mcts:
        return []
    done = {k: [r for r in tournaments[k] if not r.void] for k in mcts}
    records = [r for k in mcts for r in done[k]]
    rows = []
    for opponent in (*BASE, slow):
        games = [r for r in records if {r.first, r.second} == {fast, opponent}]
        if not games:
            continue
        points = [game_points(r, fast) for r in games]
        wins, draws = points.count(1.0), points.count(0.5)
        score = 100 * sum(points) / len(points)
        row = f"| {fast} vs {opponent} | {len(games)} | {wins}-{len(games) - wins - draws}-{draws} | {score:.1f}% |"
        # pairs within each tournament: their numbers restart at 0 in each
        both = [p for k in mcts for p in pairs(done[k], slow, fast)]
        est = estimate(pentanomial(both)) if opponent == slow else None
        row += f" {slow} {signed(est.elo)} [{signed(est.elo_low)}, {signed(est.elo_high)}] |" if est else " |"
        rows.append(row)
    forfeits = sum(1 for r in records if r.faulty in (fast, slow) and r.termination == "time")
    rows.append(f"| MCTS time losses | {len(records)} | {forfeits} | | |")
    return rows


def gain(elo: float, low: float) -> str:
    """The verdict on a doubling: "yes" when its 95% interval is above 0."""
    return "yes" if low > 0 else ("gain, interval includes 0" if elo > 0 else "no")


def doubling_per_game(args: argparse.Namespace, played: dict[Path, dict[str, list[GameRecord]]]) -> list[str]:
    """The doubling per game: the slower MCTS's Elo over the faster one from the game pairs of
    every size of the game played so far (gauntlets and doubling tournaments together), as
    Markdown rows; the bar is a gain "in every game". `played`: each folder's journals."""
    fast, slow = names(args)
    by_game: dict[str, list[tuple[str, list[Pair]]]] = {}
    for folder, records in played.items():
        found = [p for k in ("mcts", "doubling") if k in records for p in pairs(records[k], slow, fast)]
        if found:
            by_game.setdefault(which(folder.name)[0], []).append((folder.name, found))
    rows = []
    for game, parts in by_game.items():
        both = [p for _, found in parts for p in found]
        counts = pentanomial(both)
        est = estimate(counts)
        assert est is not None                  # `both` is not empty
        rows.append(f"| {game} | {', '.join(name for name, _ in parts)} | {len(both)} | "
                    f"{'-'.join(str(c) for c in reversed(counts))} | {signed(est.elo)} [{signed(est.elo_low)}, "
                    f"{signed(est.elo_high)}]: {gain(est.elo, est.elo_low)} |")
    return rows


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores "
            f"({model or 'unknown CPU'}), Python {platform.python_version()}")


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def which(folder_name: str) -> tuple[str, str]:
    """(game, "small" or "default") of a `<game>-<size>` folder."""
    game, size = folder_name.rsplit("-", 1)
    return game, "small" if int(size) == sizes(game)["small"] else "default"


def resume_command(args: argparse.Namespace, folder_name: str) -> str:
    """The command that plays a section on to its counts: with its doubling tournament's
    count where it has one (without it a run leaves that tournament where it is)."""
    game, size_word = which(folder_name)
    count = doubling_count(args.out / folder_name)
    doubling = f" --doubling-games {count}" if count else ""
    return f"python -m lab.strength --games {game} --sizes {size_word}{doubling} -j 1"


def doubling_count(folder: Path) -> int:
    """The games a section's doubling tournament is to play (0: the section has none)."""
    toml = folder / "doubling.toml"
    return tomllib.loads(toml.read_text())["games_per_pair"] if toml.exists() else 0


def per_pair(args: argparse.Namespace, size_word: str) -> int:
    """The strength study's games a pairing at the "small" or "default" size."""
    return args.games_small if size_word == "small" else args.games_default


def target(args: argparse.Namespace, folder_name: str) -> int:
    """The strength study's games a pairing for a `<game>-<size>` folder."""
    return per_pair(args, which(folder_name)[1])


def left(args: argparse.Namespace, folder_name: str,
         records: dict[str, list[GameRecord]], doubling: int = 0) -> tuple[int, float, int]:
    """(games, seconds at -j 1, games not costed) still to play to the strength study's counts (and
    to `doubling` games in the doubling tournament): each pairing's games at its mean game
    time so far (the doubling games': the gauntlet's two MCTS's), else at its tournament's;
    the games of a tournament not begun are not costed (its players' game times can differ
    by 100x)."""
    fast, slow = names(args)
    pairings = {"mcts": [{fast, o} for o in (*BASE, slow)],
                "base": [{a, b} for i, a in enumerate(BASE) for b in BASE[i + 1:]],
                "doubling": [{fast, slow}]}
    games, seconds, uncosted = 0, 0.0, 0
    for kind, wanted in pairings.items():
        ours = [r for r in records.get(kind, []) if not r.void]
        wanted_each = doubling if kind == "doubling" else target(args, folder_name)
        for pair in wanted:
            times = [r.seconds for r in ours if {r.first, r.second} == pair]
            missing = max(0, wanted_each - len(times))
            # the doubling tournament's games cost what the gauntlet's games of the same pair did
            if not times and kind == "doubling":
                times = [r.seconds for r in records.get("mcts", []) if not r.void and {r.first, r.second} == pair]
            times = times or [r.seconds for r in ours]
            games += missing
            if times:
                seconds += missing * sum(times) / len(times)
            else:
                uncosted += missing
    return games, seconds, uncosted


def section(args: argparse.Namespace, folder: Path, records: dict[str, list[GameRecord]]) -> list[str]:
    """The page's part for one game and size folder, from its journals' `records` (empty if
    nothing was played there)."""
    rated = [str(folder / k) for k, rs in records.items() if any(not r.void for r in rs)]
    if not rated:
        return [f"## {folder.name}", "", "No finished game yet.", ""] if records else []
    fast, slow = names(args)
    runs = json.loads((folder / "strength.json").read_text())["runs"] if (folder / "strength.json").exists() else []
    table = hexarena("ratings", *rated).rstrip()
    games = finished(records)
    voids = sum(map(len, records.values())) - games
    out = [f"## {folder.name}", "", f"{games} games" + (f" ({voids} void, replayed)." if voids else "."), "",
           "| pairing | games | W-L-D | score | doubling the time (Elo, 95%) |", "|---|---|---|---|---|",
           *criteria(records, fast, slow), ""]
    todo, seconds, uncosted = left(args, folder.name, records, doubling_count(folder))
    if todo:
        out += [f"Left to the strength study's counts: {todo} games, about {seconds / 3600:.1f} hours at -j 1 "
                "(each pairing at its mean game time so far"
                + (f"; {uncosted} games of a tournament not begun not costed)." if uncosted else ")."), ""]
    out += ["```", table, "```", "", "Played in:", ""]
    out += [f"* {r['date']}, commit {r['commit']}, {r['minutes']} min, load {r['load_at_start'] if r['load_at_start'] is not None else '(not recorded)'} at start, "
            f"{r['games_before']} -> {r['games_after']} games"
            f"{'' if r.get('finished', True) else ' (interrupted)'}: `{r['command']}`" for r in runs]
    return out + [""]


KEPT = "*Kept from an earlier page: this section's journals are not in the data folder.*"


def kept_sections(text: str) -> dict[str, list[str]]:
    """The `## <game>-<size>` sections of an earlier page, each marked as kept (once)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [line, "", KEPT]) if line != "## Not played yet" else None
        elif current is not None and line != KEPT and (line or current[-1]):
            current.append(line)
    return {name: lines + [""] for name, lines in sections.items() if len(lines) > 3}


ROW = re.compile(r"^\| (\S+) vs (\S+) \| (\d+) \| (\d+)-(\d+)-(\d+) \| ([\d.]+)% \|(?: \S+ ([+-]\S+) \[(\S+), (\S+)\])?")
LEFT = re.compile(r"^Left to the strength study's counts: (\d+) games, about ([\d.]+) hours")
LOSSES = re.compile(r"^\| MCTS time losses \| (\d+) \| (\d+) \|")
#: The bar for the faster MCTS's score against each base player: (percent, reached
#: at the bar itself?) (">= 95%" against random, ">= 75%" against greedy, "beats" heuristic).
BARS = {"random": (95.0, True), "greedy": (75.0, True), "heuristic": (50.0, False)}


def summary(args: argparse.Namespace, body: list[str], missing: list[str]) -> list[str]:
    """Where the strength study's criteria stand, one row per section of `body` (fresh or kept),
    read back from the sections' own criteria rows; then the commands that play what is
    still short of the strength study's counts (`missing`: the folders not started)."""
    fast, slow = names(args)
    out = ["## Where the criteria stand", "",
           f"Per game and size: `{fast}`'s score against each player (the bar: >= 95% against random, "
           f">= 75% against greedy, > 50% against heuristic), `{slow}`'s Elo over `{fast}` at that size "
           "(\"yes\" when its 95% interval is above 0; the bar is a gain in every game, which the "
           "table after this one judges with every size's pairs together) and MCTS's time losses. "
           "\"so far\": fewer games than the strength study's count for that size.", "",
           "| game-size | vs random | vs greedy | vs heuristic | doubling the time | time losses |",
           "|---|---|---|---|---|---|"]
    name, cells, short, hours, kept, left = "", {}, list(missing), 0.0, False, 0
    for line in [*body, "## end"]:
        if line.startswith("## "):
            if cells and (kept or left or len(cells) < len(BASE) + 2 or any("so far" in c for c in cells.values())):
                short.append(name)                # a kept section has no journal to check: play it again
            if cells:
                out.append(f"| {name} | " + " | ".join(cells.get(k, "not played") for k in (*BASE, slow, "time")) + " |")
            name, cells, kept, left = line[3:].strip(), {}, False, 0
            continue
        kept = kept or line == KEPT
        if (m := ROW.match(line)) and m[1] == fast:
            n, score = int(m[3]), float(m[7])
            if m[2] in BARS:
                bar, at_bar = BARS[m[2]]
                verdict = "yes" if score > bar or (score == bar and at_bar) else "no"
                cell = f"{score:.0f}% of {n}: {verdict}"
            elif m[8] is None:                    # games, but no finished pair of them yet
                cell = f"no pair yet, {n} games"
            else:
                elo, low = float(m[8]), float(m[9])
                cell = f"{m[8]} [{m[9]}, {m[10]}] of {n}: {gain(elo, low)}"
            cells[m[2]] = cell + (" so far" if n < target(args, name) else "")
        elif m := LOSSES.match(line):
            cells["time"] = f"{m[2]} of {m[1]}"
        elif m := LEFT.match(line):             # a doubling tournament may be all that is left
            left, hours = int(m[1]), hours + float(m[2])
    out.append("")
    if short:
        out += ["Still short of the strength study's counts (each command resumes its folder): "
                + ", ".join(f"`{resume_command(args, f)}`" for f in short)
                + ".", ""]
        out += [f"About {hours:.1f} hours at -j 1 are still to play in the sections with journals "
                "(not counting kept sections" + (f" or those not begun: {', '.join(missing)})." if missing else ")."), ""]
    return out


def page(args: argparse.Namespace, folders: list[Path], earlier: str = "") -> str:
    fast, slow = names(args)
    head = [
        "# The built-in players' strength study",
        "",
        "Elo ratings (mean 0 per table, 95% intervals) of the built-in players in real",
        "`hexarena tournament`s (engine processes, referee, journals), per game and size.",
        "Written by `python -m lab.strength` (lab/strength.py): per game and size a gauntlet of",
        f"`{fast}` against `random`, `greedy`, `heuristic` and `{slow}`, and a round robin of the",
        "first three, rated together. Games are paired: a random opening of "
        f"{args.openings} actions (Anda's after `komi=0 keep`: random komi would decide its games), "
        "played twice with the seats exchanged. Where a section has a `doubling` tournament (the two",
        "MCTS alone, on openings of their own), its games count in the doubling row too.",
        "The journals behind each section are in `docs/strength/<game>-<size>/` (`hexarena report DIR`",
        "draws them, every game replayable; the SGF records a run writes stay out of the repository).",
        "",
        f"* Machine: {machine()}",
        f"* Page written: {now()}",
        f"* Players: `random`, `greedy`, `heuristic`, `mcts:{args.fast:g}s`, `mcts:{args.slow:g}s`",
        f"* Clock: Fischer {args.main:g} s + {args.increment:g} s a move"
        + (f", {args.move_limit:g} s per move at most" if args.move_limit else ", no other per-move cap"),
        f"* Games per pairing: {args.games_small} at the smallest recommended size, "
        f"{args.games_default} at the default size (fewer where a chunk is still to come: see each section)",
        *([f"* Anda-prison's ply cap: {args.prison_cap} x sites (scored at the cap by the agreement score)"]
          if args.prison_cap else []),
        "",
        "W-L-D are the faster MCTS's wins, losses and draws; \"doubling the time\" is the slower",
        "MCTS's Elo over the faster one from their game pairs (pentanomial, 95% likelihood interval).",
        "",
    ]
    kept = kept_sections(earlier)
    played = {folder: journals(folder) for folder in folders if started(folder)}
    body = [line for folder in folders
            for line in (section(args, folder, played[folder]) if folder in played else kept.get(folder.name, []))]
    missing = [f.name for f in folders if not started(f) and f.name not in kept]
    if missing:
        body += ["## Not played yet", "", ", ".join(missing), ""]
    per_game = doubling_per_game(args, played)
    if per_game:
        per_game = [f"Doubling the time per game (the criterion: a gain in every game, \"yes\" when the 95% "
                    f"interval is above 0), the pairs of every size played so far together "
                    f"(`{slow}`'s Elo over `{fast}`; its pairs by the points it scored in them, "
                    f"2-1½-1-½-0: won twice, won and drew, split or drew twice, lost and drew, lost twice):", "",
                    "| game | sections | pairs | by points 2-1½-1-½-0 | doubling the time |", "|---|---|---|---|---|",
                    *per_game, ""]
    return "\n".join(head + summary(args, body, missing) + per_game + body)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m lab.strength", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games-small", type=int, default=40, help="games per pairing at the smallest size")
    parser.add_argument("--games-default", type=int, default=20, help="games per pairing at the default size")
    parser.add_argument("--sizes", nargs="+", choices=("small", "default"), default=["small", "default"])
    parser.add_argument("--fast", type=float, default=1.0, help="seconds a move of the faster mcts")
    parser.add_argument("--slow", type=float, default=2.0, help="seconds a move of the slower mcts")
    parser.add_argument("--main", type=float, default=300, help="Fischer main time per engine per game")
    parser.add_argument("--increment", type=float, default=2, help="Fischer increment")
    parser.add_argument("--move-limit", type=float, default=0,
                        help="a per-move cap on top of the clock (0: none; engines are told the smaller)")
    parser.add_argument("--openings", type=int, default=2, help="random opening actions of each game pair")
    parser.add_argument("--prison-cap", type=int, default=0,
                        help="anda-prison's ply cap as this many times the sites (0: the game's default)")
    parser.add_argument("--doubling-games", type=int, default=0,
                        help="also play this many games of the faster MCTS against the slower (doubling/)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--games", nargs="+", default=registry.playable(), choices=registry.playable())
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "strength",
                        help="the strength study's folders (default: docs/strength, kept in the repository)")
    parser.add_argument("--page", type=Path, default=ROOT / "docs" / "strength.md")
    parser.add_argument("--report-only", action="store_true",
                        help="play nothing: rate what the folders in --out hold and write the page")
    return parser.parse_args(argv)


def stopped(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    argv = argv if argv is not None else sys.argv[1:]
    if not args.report_only:
        # SIGTERM ends the run as Ctrl-C does: the tournament stops, the chunk is logged in strength.json
        previous = signal.signal(signal.SIGTERM, stopped)
        try:
            for game in args.games:
                for word in args.sizes:
                    play(args, game, sizes(game)[word], per_pair(args, word), argv)
        finally:
            signal.signal(signal.SIGTERM, previous)
    folders = [args.out / f"{g}-{n}" for g in registry.playable() for n in dict.fromkeys(sizes(g).values())]
    earlier = args.page.read_text() if args.page.exists() else ""
    args.page.write_text(page(args, folders, earlier))
    print(f"wrote {args.page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
