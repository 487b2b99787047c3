"""A misbehaving engine for the ladder's tests (tests/ladder/): the built-in random player behind a relay that,
on its Nth `genmove` (argv[1] = N, 0: never), does what argv[2] says: `crash` (exit), `illegal`
(answers a cell off the board), or `slow` (every genmove waits argv[3] seconds first); with argv[2]
`nosize` it refuses every `boardsize`, with `mute` it answers its first `protocol_version` (the
bridge's check) and then nothing at all; `hang` never answers its Nth `genmove`, once: when the
file argv[3] does not exist yet (it makes it)."""
from __future__ import annotations

import os
import subprocess
import sys
import time

nth, mode = int(sys.argv[1]), sys.argv[2]
pause = float(sys.argv[3]) if len(sys.argv) > 3 and mode == "slow" else 0.0
inner = subprocess.Popen([sys.executable, "-m", "hexarena.players", "random"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
genmoves = versions = 0
for line in sys.stdin:
    words = line.split()
    if len(words) >= 2 and words[1] == "protocol_version":
        versions += 1
        if mode == "mute" and versions > 1:
            time.sleep(3600)
    if mode == "nosize" and len(words) >= 2 and words[1] == "boardsize":
        sys.stdout.write(f"?{words[0]} unacceptable size\n\n")
        sys.stdout.flush()
        continue
    if len(words) >= 2 and words[1].startswith("genmove"):
        genmoves += 1
        if mode == "slow":
            time.sleep(pause)
        elif genmoves == nth and mode == "hang" and not os.path.exists(sys.argv[3]):
            open(sys.argv[3], "w").close()
            time.sleep(3600)
        elif genmoves == nth and mode == "crash":
            sys.exit(3)
        elif genmoves == nth and mode == "illegal":
            sys.stdout.write(f"={words[0]} z99\n\n")
            sys.stdout.flush()
            continue
    inner.stdin.write(line)
    inner.stdin.flush()
    answer = []
    while True:
        out = inner.stdout.readline()
        if not out:
            sys.exit(0)
        answer.append(out)
        if out == "\n":
            break
    if len(words) >= 2 and words[1] == "name":
        answer = [f"={words[0]} fake-{mode}\n", "\n"]
    sys.stdout.write("".join(answer))
    sys.stdout.flush()
    if len(words) >= 2 and words[1] == "quit":
        break
