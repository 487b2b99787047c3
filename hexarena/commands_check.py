"""`hexarena check`: the HGP compliance sequence against any engine, graded by tier (referee/check/);
with ``--rules GAME``, a game's own contract instead (hexarena/commands_rules_check.py)."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from hexarena.terminal import echo
from hexarena.engine import registry


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("cmd", nargs=-1, metavar="-- CMD [ARGS]...")
@click.option("--rules", "rules", metavar="GAME", default=None,
              help="Check the rules of GAME instead of an engine: seeded random playthroughs of its "
                   "contract (actions listed iff accepted, the end, notation and position round trips).")
@click.option("--games", "playthroughs", type=click.IntRange(min=1), default=None,
              help="With --rules: playthroughs per size and balance [default: 3].")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds allowed for each answer.")
@click.option("--size", "sizes", type=click.IntRange(2, 13), multiple=True,
              help="Board side to check (repeatable; default: 2, the game's recommended sizes, 13; "
                   "with --rules, 13 only when given).")
@click.option("--game", "games", multiple=True, help="Check only this game (repeatable; default: every listed).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the actions played.")
@click.option("--log", type=click.Path(dir_okay=False), default=None, help="Append the engine's stderr to FILE.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the checks that did not pass, and the summary.")
@click.option("--strict", is_flag=True, help="Demand every analysis command too (default: only those listed).")
def check(cmd: tuple[str, ...], rules: str | None, playthroughs: int | None, timeout: float, sizes: tuple[int, ...],
          games: tuple[str, ...], seed: int, log: str | None, quiet: bool, strict: bool) -> None:
    """Run the HGP compliance sequence against an engine; exit status 0 only if no check fails.

    Play commands must pass; an analysis command the engine does not list is
    reported as not implemented (a failure only with --strict).

    With --rules GAME (and no engine), check a game's rules instead: the first disagreement
    is printed with its position, the action and what each side said.

    Example: hexarena check -- python examples/random_engine.py (or a built-in player's name:
    hexarena check random); hexarena check --rules GAME --size 4
    """
    if rules is not None or playthroughs is not None:
        if cmd or rules is None:
            raise click.UsageError("--rules GAME checks a game's rules, not an engine: give it without CMD"
                                   if cmd else "--games needs --rules GAME")
        from hexarena.commands_rules_check import DEFAULT_GAMES, check_rules
        sys.exit(check_rules(rules, sizes, playthroughs or DEFAULT_GAMES, seed, quiet))
    if not cmd:
        raise click.UsageError("Missing argument '-- CMD [ARGS]...' (or --rules GAME).")
    import trio

    from hexarena.referee.check.tool import Verdict, check_engine
    from hexarena.referee.check.grading import summary as check_summary
    from hexarena.flag_errors import player_named, split_command
    argv = split_command(cmd[0], "CMD") if len(cmd) == 1 else list(cmd)
    if (player := player_named(argv)) is not None:
        from hexarena.referee.tournament.config import player_cmd
        from hexarena.referee.tournament.run import expand
        argv = expand(player_cmd(player), seed)
    for gid in games:
        if gid not in registry.playable():
            raise click.BadParameter(registry.unknown(gid), param_hint="--game")
    verdicts: list[Verdict] = []

    def emit(v: "Verdict") -> None:
        verdicts.append(v)
        if not quiet or v.status != "PASS":
            echo(v.line())

    with tempfile.TemporaryDirectory() as tmp:
        log_path = log or os.path.join(tmp, "engine.log")
        trio.run(lambda: check_engine(argv, emit, log_path, timeout, sizes, games, seed, strict))
        line, code = check_summary(verdicts)
        if code:                        # what the engine said of its failure, as the pre-flight quotes it
            from hexarena.referee.tournament.preflight import stderr_tail
            said = stderr_tail(Path(log_path))
            echo(f"the engine's {said}" if said.startswith("stderr") else "the engine wrote nothing to stderr")
    echo(line)
    sys.exit(code)
