"""The built-in players' ladder: `python -m bench.ladder [options]` -> docs/ladder.md.

A real hexarena tournament (engine processes, the referee, a journal): it
writes a TOML config (docs/tournament.md) for a round robin of ``random``,
``greedy``, ``heuristic`` and ``mcts`` at two time budgets a move, on every
playable game at its smallest recommended size and at its default size,
runs ``hexarena tournament`` on it, and writes the Elo table of each game
and size (``hexarena ratings --by game,size``) into the output Markdown with
the command, the machine and the date.

The full ladder is ``--games-small 40 --games-default 20``; the defaults are
smaller, for a shared machine (the page says which parameters it ran with).
"""
from __future__ import annotations

import argparse
import os
import platform
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from hexarena.engine import registry

ROOT = Path(__file__).resolve().parents[1]


def engines(fast: float, slow: float) -> dict[str, list[str]]:
    """Engine name -> argv (`{python}`/`{seed}` filled by the referee)."""
    def player(name: str) -> list[str]:
        return ["{python}", "-P", "-m", "hexarena.players", name, "--seed", "{seed}"]
    return {"random": player("random"), "greedy": player("greedy"),
            "heuristic": player("heuristic"),
            f"mcts-{fast:g}s": player(f"mcts:{fast:g}s"), f"mcts-{slow:g}s": player(f"mcts:{slow:g}s")}


def config(args: argparse.Namespace, games_per_pair: int, size: str) -> str:
    """The TOML of one tournament: every game at its smallest (`size="small"`) or default size."""
    lines = [f"seed = {args.seed}", 'pairing = "round-robin"', f"games_per_pair = {games_per_pair}", "",
             "[time]", f"move = {args.move_limit}", f"main = {args.main}", f"increment = {args.increment}", ""]
    for name, argv in engines(args.fast, args.slow).items():
        lines += [f'[engines."{name}"]', "cmd = [" + ", ".join(f'"{a}"' for a in argv) + "]", ""]
    for game in args.games:
        info = registry.get(game)
        n = info.sizes[0] if size == "small" else info.default_size
        lines += ["[[games]]", f'game = "{game}"', f"size = {n}"]
        if game == "anda-prison" and args.prison_cap:
            lines.append(f"ply_cap = {args.prison_cap * info.variant(n).board.site_count}")
        lines.append("")
    return "\n".join(lines)


def run(cmd: list[str]) -> str:
    print("$", shlex.join(cmd), flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        sys.exit(f"{shlex.join(cmd)} failed ({out.returncode}):\n{out.stderr}")
    return out.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games-small", type=int, default=4, help="games per pairing at the smallest size")
    parser.add_argument("--games-default", type=int, default=2, help="games per pairing at the default size")
    parser.add_argument("--fast", type=float, default=0.25, help="seconds a move of the faster mcts")
    parser.add_argument("--slow", type=float, default=0.5, help="seconds a move of the slower mcts")
    parser.add_argument("--main", type=float, default=120, help="Fischer main time per engine per game")
    parser.add_argument("--increment", type=float, default=1, help="Fischer increment")
    parser.add_argument("--move-limit", type=float, default=10, help="longest genmove")
    parser.add_argument("--prison-cap", type=int, default=0,
                        help="anda-prison's ply cap as this many times the sites (0: the game's default)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--games", nargs="+", default=registry.playable())
    parser.add_argument("--out", type=Path, default=ROOT / "hexarena-out" / "ladder")
    parser.add_argument("--page", type=Path, default=ROOT / "docs" / "ladder.md")
    parser.add_argument("--report-only", action="store_true",
                        help="play nothing: rate the journals already in --out and write the page")
    args = parser.parse_args(argv)

    hexarena = [sys.executable, "-m", "hexarena"]
    started = time.monotonic()
    sections = []
    for size, count in (("small", args.games_small), ("default", args.games_default)):
        folder = args.out / size
        folder.mkdir(parents=True, exist_ok=True)
        toml = folder.parent / f"ladder-{size}.toml"
        if not args.report_only:
            toml.write_text(config(args, count, size))
        resume = ["--resume"] if (folder / "journal.jsonl").exists() else []
        if not args.report_only:
            run([*hexarena, "tournament", str(toml), "--out", str(folder), "-j", str(args.jobs), *resume])
        elif not resume:
            continue
        sections.append((size, count, run([*hexarena, "ratings", str(folder), "--by", "game,size"])))
    minutes = None if args.report_only else (time.monotonic() - started) / 60
    args.page.write_text(page(args, sections, minutes, argv if argv is not None else sys.argv[1:]))
    print(f"wrote {args.page}")
    return 0


def machine() -> str:
    cpus = os.cpu_count()
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.system()} {platform.machine()}, {cpus} cores ({model or 'unknown CPU'}), Python {platform.python_version()}"


def page(args: argparse.Namespace, sections: list[tuple[str, int, str]], minutes: float | None,
         argv: list[str]) -> str:
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = [
        "# The built-in players' ladder",
        "",
        "Elo ratings (mean 0 per table, 95% intervals) of the built-in players in a real",
        "`hexarena tournament` (engine processes, referee, journal), one round robin per game",
        "and size, seats alternating. Written by `python -m bench.ladder` (bench/ladder.py).",
        "",
        f"* Command: `python -m bench.ladder {shlex.join(argv)}`".rstrip() + "",
        f"* Machine: {machine()}",
        f"* Date: {date}" + ("" if minutes is None else f"; wall time {minutes:.0f} min"),
        f"* Players: `random`, `greedy`, `heuristic`, `mcts:{args.fast:g}s`, `mcts:{args.slow:g}s`",
        f"* Clock: Fischer {args.main:g} s + {args.increment:g} s a move, {args.move_limit:g} s per move at most",
        f"* Games per pairing: {args.games_small} at the smallest recommended size, "
        f"{args.games_default} at the default size",
        *([f"* Anda-prison's ply cap: {args.prison_cap} x sites (scored at the cap by the agreement score)"]
          if args.prison_cap else []),
        "",
    ]
    body = []
    for size, count, text in sections:
        title = "smallest recommended size" if size == "small" else "default size"
        body += [f"## {title} ({count} games per pairing)", "", "```", text.rstrip(), "```", ""]
        if args.report_only:
            played = sum(1 for _ in open(args.out / size / "journal.jsonl", encoding="utf-8"))
            body[-4:-4] = [f"{played} games in the journal when the page was written.", ""]
    return "\n".join(head + body)


if __name__ == "__main__":
    sys.exit(main())
