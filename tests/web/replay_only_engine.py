"""A built-in `random` engine over stdin/stdout that does not list `set_position` (nor answer it):
the analysis board must put positions on its board by replaying actions with `play`.
Every command line it receives is appended to the file named by its first argument."""
import sys

from hexarena.players.serve import make_engine

engine = make_engine("random", 1)
del engine.commands["set_position"]
with open(sys.argv[1], "a", encoding="utf-8") as seen:
    for line in sys.stdin:
        seen.write(line)
        seen.flush()
        answer = engine.handle(line)
        if answer is not None:
            sys.stdout.write(answer)
            sys.stdout.flush()
        if engine.finished:
            break
