"""A real HGP engine whose `name`, `version` and moves are markup: the random player behind a proxy.

    python hostile_engine.py SEED

Every command goes to `python -m hexarena.players random --seed SEED`; the
answers to `name` and `version` are replaced by HTML, and the first
`genmove` (or `genmove_analyze`) is answered with an attribute-breaking string (a malformed move:
the referee forfeits the engine and quotes the answer in its reason).
"""
import subprocess
import sys

NAME = "<script>alert('name')</script>"
VERSION = '"><img src=x onerror=alert(1)>'
MOVE = '"><img src=x onerror=alert(2)><script>alert(3)</script>'

child = subprocess.Popen([sys.executable, "-P", "-m", "hexarena.players", "random", "--seed", sys.argv[1]],
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
    if words and words[0].isdigit():
        cid, words = words[0], words[1:]
    else:
        cid = ""
    command = words[0] if words else ""
    replacement = {"name": NAME, "version": VERSION, "genmove": MOVE, "genmove_analyze": MOVE}.get(command)
    if replacement is not None and answer and answer[0].startswith("="):
        answer = [f"={cid} {replacement}\n"]
    sys.stdout.write("".join(answer) + "\n")
    sys.stdout.flush()
    if command == "quit":
        break
child.wait()
