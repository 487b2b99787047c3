"""`python -m hexarena.players NAME [--seed N] [--log FILE]`: serve a built-in bot over stdin/stdout."""
from __future__ import annotations

import gc
import sys

from . import BOTS, problem
from .serve import DEFAULT_SEED, serve

#: The options and their values' types.
_OPTIONS = {"--seed": int, "--log": str}


def _plain(argv: list[str]) -> tuple[str, int, str | None] | None:
    """(name, seed, log) of a command line written in full (`NAME`, `--seed N` or `--seed=N`,
    `--log FILE` or `--log=FILE`, each option at most once), else None: argparse reads the
    rest (abbreviations, `-h`, mistakes) and says what is wrong. Building a parser costs a
    served player's start several milliseconds (argparse imports gettext, locale and shutil)."""
    name: str | None = None
    values: dict[str, object] = {}
    words = iter(argv)
    for word in words:
        option, eq, value = word.partition("=")
        if option in _OPTIONS and option not in values:
            if not eq:
                value = next(words, "")
            if not value or value.startswith("-") and option == "--log":
                return None
            try:
                values[option] = _OPTIONS[option](value)
            except ValueError:
                return None
        elif word.startswith("-") or name is not None:
            return None
        else:
            name = word
    if name is None:
        return None
    seed = values.get("--seed", DEFAULT_SEED)
    log = values.get("--log")
    assert isinstance(seed, int) and (log is None or isinstance(log, str))
    return name, seed, log


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    plain = _plain(words)
    if plain is not None and problem(plain[0]) is None:
        gc.freeze()
        return serve(*plain)
    import argparse       # argparse says what is wrong, with the usage line
    parser = argparse.ArgumentParser(prog="python -m hexarena.players", description=__doc__)
    parser.add_argument("name", help=f"the bot: {', '.join(BOTS)}")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (default %(default)s)")
    parser.add_argument("--log", default=None, help="append a timestamped transcript to FILE")
    args = parser.parse_args(words)
    try:
        return serve(args.name, args.seed, args.log)
    except ValueError as exc:
        parser.error(str(exc))
    return 2


if __name__ == "__main__":
    sys.exit(main())
