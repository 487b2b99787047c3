"""A real HGP 1.2 engine whose info lines carry markup: the greedy player behind a proxy.

    python analysing_engine.py SEED

Every command goes to `python -m hexarena.players greedy --seed SEED`; each answer to
`genmove_analyze` gets one more info line after the player's own, whose unknown key `note`
holds an element (valid HGP: an unknown key's value is any printable ASCII word), so the
report must show it as text.
"""
import subprocess
import sys

NOTE = "<img/src=x/onerror=alert(4)>"

child = subprocess.Popen([sys.executable, "-P", "-m", "hexarena.players", "greedy", "--seed", sys.argv[1]],
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
        words = words[1:]
    command = words[0] if words else ""
    if command == "genmove_analyze" and answer and answer[0].startswith("="):
        answer.append(f"info visits 1 note {NOTE}\n")
    sys.stdout.write("".join(answer) + "\n")
    sys.stdout.flush()
    if command == "quit":
        break
child.wait()
