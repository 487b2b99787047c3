"""A real HGP engine whose answers carry markup: a built-in player behind a proxy.

    python markup_engine.py hostile SEED      # the random player; `name`, `version` and its first move are HTML
    python markup_engine.py analysing SEED    # the greedy player; one more info line with markup

Every command goes to `python -m hexarena.players PLAYER --seed SEED`. `hostile`: the answers
to `name` and `version` are replaced by HTML, and every `genmove` (or `genmove_analyze`) is
answered with an attribute-breaking string (a malformed move: the referee forfeits the engine
and quotes the answer in its reason). `analysing`: each answer to `genmove_analyze` gets one
more info line after the player's own, whose unknown key `note` holds an element (valid HGP:
an unknown key's value is any printable ASCII word), so pages must show it as text.
"""
import subprocess
import sys

NAME = "<script>alert('name')</script>"
VERSION = '"><img src=x onerror=alert(1)>'
MOVE = '"><img src=x onerror=alert(2)><script>alert(3)</script>'
NOTE = "<img/src=x/onerror=alert(4)>"

mode, seed = sys.argv[1], sys.argv[2]
player = "random" if mode == "hostile" else "greedy"
child = subprocess.Popen([sys.executable, "-P", "-m", "hexarena.players", player, "--seed", seed],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    child.stdin.write(line)
    child.stdin.flush()
    answer = []
    while True:
        out = child.stdout.readline()
        if out in ("", "\n"):
            break
        answer.append(out)
    words = line.split()
    cid, words = (words[0], words[1:]) if words and words[0].isdigit() else ("", words)
    command = words[0] if words else ""
    ok = bool(answer) and answer[0].startswith("=")
    if mode == "hostile":
        replacement = {"name": NAME, "version": VERSION, "genmove": MOVE, "genmove_analyze": MOVE}.get(command)
        if replacement is not None and ok:
            answer = [f"={cid} {replacement}\n"]
    elif command == "genmove_analyze" and ok:
        answer.append(f"info visits 1 note {NOTE}\n")
    sys.stdout.write("".join(answer) + "\n")
    sys.stdout.flush()
    if command == "quit":
        break
child.wait()
