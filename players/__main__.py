"""`python -m hexarena.players NAME [--seed N] [--log FILE]`: serve a built-in bot over stdin/stdout."""
from __future__ import annotations

import argparse
import sys

from . import BOTS
from .serve import DEFAULT_SEED, serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexarena.players", description=__doc__)
    parser.add_argument("name", help=f"the bot: {', '.join(BOTS)}")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (default %(default)s)")
    parser.add_argument("--log", default=None, help="append a timestamped transcript to FILE")
    args = parser.parse_args(argv)
    try:
        return serve(args.name, args.seed, args.log)
    except ValueError as exc:
        parser.error(str(exc))
    return 2


if __name__ == "__main__":
    sys.exit(main())
