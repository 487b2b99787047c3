"""`hexarena check --rules GAME`: a game's own contract on seeded random playthroughs
(hexarena.engine.selfcheck), for the author of a game added by ``HEXARENA_GAMES`` (or of a
built-in one): what the rules list, accept, end and write must agree before any engine plays."""
from __future__ import annotations

import click

from hexarena.engine import registry
from hexarena.engine.errors import UnknownGame
from hexarena.terminal import echo

#: Playthroughs per size and balance unless `--games` says.
DEFAULT_GAMES = 3


def check_rules(game_id: str, sizes: tuple[int, ...], games: int, seed: int, quiet: bool) -> int:
    """Check game `game_id` at `sizes` (none: 2 and its recommended sizes), `games` playthroughs
    of each size and balance from seed `seed` on; print a line per size and balance, or the first
    disagreement: 0 when the contract holds, 1 otherwise."""
    from hexarena.engine.selfcheck import Disagreement, check_game
    try:
        info = registry.get(game_id)
    except UnknownGame as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    chosen = sizes or tuple(sorted({2, *info.sizes}))
    try:
        for checked in check_game(info, chosen, games, seed):
            if not quiet:
                echo(checked.line(info.id))
    except Disagreement as found:
        echo(f"DISAGREE {found}")
        echo(f"{info.id}: the contract does not hold (seed {seed}; the checks: docs/architecture.md, "
             "\"A sixth game\")")
        return 1
    echo(f"{info.id}: the contract holds in {games * len(info.balances) * len(chosen)} playthroughs "
         f"(sizes {', '.join(map(str, chosen))}; balances {', '.join(info.balances)})")
    return 0
