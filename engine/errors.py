"""The errors of the rules layer, each naming who is at fault."""
import os
import sys
import traceback


class RulesError(ValueError):
    """Base class of everything the rules layer raises on bad input."""


class InvalidNotation(RulesError):
    """A token is not one of the forms the current game defines (`syntax error`)."""


class IllegalMove(RulesError):
    """A well-formed action that the rules forbid now (`illegal move`)."""


class InvalidPosition(RulesError):
    """A position string that cannot be read or describes no legal state."""


class UnknownGame(RulesError):
    """A game id that is not one of the five, or not playable yet."""


class UnknownVariant(RulesError):
    """A balance, option or value the game does not define."""


def raised(exc: BaseException) -> str:
    """`ZeroDivisionError: division by zero (mygame/rules.py:130)`: an exception that code
    outside this package's contract raised (a game's rules, a game module's import), with the
    place it was raised: the innermost frame below the catching one that is neither the
    standard library's nor the import machinery's, its file named from the `sys.path` entry
    that holds it. No place when there is none (e.g. a module that is not found)."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    where = _place(exc)
    return f"{text} ({where})" if where else text


def _place(exc: BaseException) -> str | None:
    import sysconfig                  # only here: a fault is rare, every process imports this module
    library = tuple(os.path.join(p, "") for p in {sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib")} if p)
    frames = [f for f in traceback.extract_tb(exc.__traceback__)[1:]
              if not f.filename.startswith(("<", *library))]
    if not frames:
        return None
    file = frames[-1].filename
    roots = sorted({os.path.join(os.path.abspath(p or os.curdir), "") for p in sys.path}, key=len, reverse=True)
    for root in roots:
        if file.startswith(root):
            file = file[len(root):]
            break
    return f"{file}:{frames[-1].lineno}"
