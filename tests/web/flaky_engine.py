"""The built-in `random` engine over stdin/stdout that exits at its first `genmove` when the
file named by its first argument does not exist (it creates it first), and otherwise waits the
seconds of its second argument before each `genmove` answer."""
import os
import sys
import time

from hexarena.players.serve import make_engine

marker, pause = sys.argv[1], float(sys.argv[2])
engine = make_engine("random", 1)
for line in sys.stdin:
    if "genmove" in line:
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(3)
        time.sleep(pause)
    answer = engine.handle(line)
    if answer is not None:
        sys.stdout.write(answer)
        sys.stdout.flush()
    if engine.finished:
        break
