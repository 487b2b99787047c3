#!/usr/bin/env python3
"""A complete HGP engine in one file: uniformly random legal Spelde moves.

One file on purpose (it is the example engine authors copy), hence its length.

Copy it, change `choose_move`, and you have an engine that hexarena can
referee. Standard library only; Python 3.8 or later. Run it as
`python random_engine.py [--seed N]`; it reads commands on stdin and writes
responses on stdout (see docs/protocol.md for the protocol,
docs/rules/spelde.md for the game).

Rules implemented (Spelde, `flips=literal`, with or without the pie):
a stone goes on an empty site; for every enemy group adjacent to it, the
mover flips a non-empty set of that group's stones to its own colour so
that the rest of the group falls into at least two connected parts. The
player to move with no legal placement loses. Under the pie, White may
answer Black's first stone with `swap` and then moves again.

Sites are (column, row) pairs counted from 0: `a1` is (0, 0). On a hexagon
of side n a site exists when both are in 0..2n-2 and |column - row| <= n-1;
its neighbours are (c+-1, r), (c, r+-1), (c+1, r+1) and (c-1, r-1).
"""
import itertools
import random
import re
import sys

NAME, VERSION = "example-random", "1.0"
MOVE_LIMIT = 100000          # legal_moves answers `too many moves` above this many actions
MOVE_BYTES = 1000000         # ... or above this many bytes of answer text
SITE = re.compile(r"([a-z])([0-9]{1,2})\Z")
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


class Failure(Exception):
    """A `?` answer; the message starts with one of the protocol's failure words."""


# -- the board and the rules -----------------------------------------------------------

def site_name(site):
    return "%s%d" % (chr(97 + site[0]), site[1] + 1)


def canonical(sites):
    """Sites sorted by column letter, then row number (the protocol's order)."""
    return sorted(sites)


class Spelde:
    """One position: board {site: 'b' or 'w'}, side to move, phase (open, swap, play), ply."""

    def __init__(self, size, pie=True):
        self.size, self.pie = size, pie
        n = size
        self.sites = [(c, r) for c in range(2 * n - 1) for r in range(2 * n - 1) if abs(c - r) <= n - 1]
        on_board = set(self.sites)
        self.neighbours = {s: [(s[0] + dc, s[1] + dr) for dc, dr in STEPS if (s[0] + dc, s[1] + dr) in on_board]
                           for s in self.sites}
        self.stones, self.to_move, self.ply = {}, "b", 0
        self.phase = "open" if pie else "play"

    def copy(self):
        other = Spelde.__new__(Spelde)
        other.__dict__.update(self.__dict__)
        other.stones = dict(self.stones)
        return other

    def group(self, start):
        """The connected stones of start's colour containing start."""
        colour, seen, todo = self.stones[start], {start}, [start]
        while todo:
            for nb in self.neighbours[todo.pop()]:
                if nb not in seen and self.stones.get(nb) == colour:
                    seen.add(nb)
                    todo.append(nb)
        return frozenset(seen)

    def enemy_groups(self, site):
        """The distinct enemy groups touching a site."""
        enemy, groups = other(self.to_move), []
        for nb in self.neighbours[site]:
            if self.stones.get(nb) == enemy and not any(nb in g for g in groups):
                groups.append(self.group(nb))
        return groups

    def parts(self, stones):
        """How many connected parts a set of sites falls into."""
        left, count = set(stones), 0
        while left:
            count += 1
            todo = [left.pop()]
            while todo:
                for nb in self.neighbours[todo.pop()]:
                    if nb in left:
                        left.remove(nb)
                        todo.append(nb)
        return count

    def splits(self, group, flips):
        return bool(flips) and flips <= group and self.parts(group - flips) >= 2

    def can_split(self, group):
        """A group can be split iff it holds two non-adjacent stones."""
        return any(b not in self.neighbours[a] for a, b in itertools.combinations(group, 2))

    def legal_cells(self):
        return [s for s in self.sites if s not in self.stones
                and all(self.can_split(g) for g in self.enemy_groups(s))]

    def over(self):
        return self.phase != "swap" and not self.legal_cells()

    def flip_sets(self, group):
        """Every valid flip set of a group, lazily: by remainder size, small remainders first."""
        stones = canonical(group)
        for keep in range(2, len(stones)):
            for rest in itertools.combinations(stones, keep):
                if self.parts(rest) >= 2:
                    yield group - frozenset(rest)

    def random_flips(self, group, rng):
        """A uniformly random valid flip set, by rejection. At least 2**(k-7) - 1 of the 2**k
        subsets of a k-stone group are valid (flip all neighbours of one stone u and any
        subset of the stones apart from u), so few draws are needed."""
        stones = canonical(group)
        while True:
            flips = frozenset(s for s in stones if rng.random() < 0.5)
            if self.splits(group, flips):
                return flips

    def play(self, colour, token):
        """The position after `colour` plays `token`; Failure (syntax error / illegal move) otherwise."""
        site, flips = parse_action(token, self.size)
        if colour != self.to_move:
            raise Failure("illegal move: %s is not to move" % ("black" if colour == "b" else "white"))
        if self.over():
            raise Failure("illegal move: the game is over")
        after = self.copy()
        after.ply += 1
        if site == "swap":
            if self.phase != "swap":
                raise Failure("illegal move: swap is only White's answer to the pie stone")
            after.phase = "play"
            return after
        if site not in self.neighbours:
            raise Failure("illegal move: %s is off the board" % site_name(site))
        if site in self.stones:
            raise Failure("illegal move: %s is occupied" % site_name(site))
        named = frozenset(flips)
        if len(named) != len(flips):
            raise Failure("illegal move: a flipped site is repeated")
        covered = set()
        for group in self.enemy_groups(site):
            part = named & group
            if not self.splits(group, part):
                raise Failure("illegal move: the enemy group at %s is not split" % site_name(min(group)))
            covered |= part
        if named - covered:
            raise Failure("illegal move: %s is not in an adjacent enemy group" % site_name(min(named - covered)))
        for s in named | {site}:
            after.stones[s] = colour
        after.to_move = other(colour)
        after.phase = "swap" if self.phase == "open" else "play"
        return after

    def legal_tokens(self, limit, max_bytes):
        """Every legal action's token, or None past `limit` tokens or `max_bytes` bytes joined by spaces."""
        tokens = ["swap"] if self.phase == "swap" else []
        size = len(tokens) * 5 - 1
        for site in self.legal_cells():
            choices = [list(itertools.islice(self.flip_sets(g), limit + 1)) for g in self.enemy_groups(site)]
            count = 1
            for c in choices:
                count *= len(c)
            if len(tokens) + count > limit:
                return None
            for combo in itertools.product(*choices):
                token = format_action(site, frozenset().union(*combo))
                size += len(token) + 1
                if size > max_bytes:
                    return None
                tokens.append(token)
        return tokens

    def position(self):
        n, rows = self.size, []
        for r in range(2 * n - 1):
            rows.append("".join(self.stones.get((c, r), ".") for c in range(2 * n - 1) if abs(c - r) <= n - 1))
        words = ["spelde", str(n), self.to_move, "/".join(rows)]
        if not self.pie:
            words.append("variant=nopie")
        if self.phase != "play":
            words.append("phase=" + self.phase)
        if self.ply:
            words.append("ply=%d" % self.ply)
        return " ".join(words)


def count(text, digits=9):
    """`text` as a whole number >= 0 when it is 1..`digits` ASCII digits, else None (so a number of
    thousands of digits or another script's digits is refused, never handed to int())."""
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def other(colour):
    return "w" if colour == "b" else "b"


def parse_site(text, size):
    m = SITE.match(text)
    if not m:
        raise Failure("syntax error: %r is not a site" % text)
    return ord(m.group(1)) - 97, int(m.group(2)) - 1


def parse_action(token, size):
    """`swap`, `e5` or `d4/d5,f5` as (site or 'swap', [flipped sites])."""
    token = token.lower()
    if token == "swap":
        return "swap", []
    head, slash, tail = token.partition("/")
    if slash and not tail:
        raise Failure("syntax error: %r names no flipped stone" % token)
    try:
        return parse_site(head, size), [parse_site(t, size) for t in tail.split(",")] if slash else []
    except Failure:
        raise Failure("syntax error: %r is not a Spelde action" % token) from None


def format_action(site, flips):
    if not flips:
        return site_name(site)
    return site_name(site) + "/" + ",".join(site_name(s) for s in canonical(flips))


def parse_position(words):
    """A Spelde from the words of a position string; Failure (invalid position) on any defect."""
    def bad(reason):
        return Failure("invalid position: " + reason)
    if len(words) < 4:
        raise bad("expected GAME SIZE TO_MOVE BOARD [KEY=VALUE ...]")
    game, size, to_move, board = words[0].lower(), words[1], words[2].lower(), words[3].lower()
    if game != "spelde":
        raise bad("this engine plays only spelde")
    if count(size, 2) is None or not 2 <= int(size) <= 13:
        raise bad("size %s outside 2..13" % size[:20])
    keys = {}
    for word in words[4:]:
        key, eq, value = word.lower().partition("=")
        if not eq or key not in ("variant", "flips", "phase", "ply") or key in keys:
            raise bad("unexpected key %r" % word)
        keys[key] = value
    if keys.get("variant", "pie") not in ("pie", "nopie") or keys.get("flips", "literal") != "literal":
        raise bad("this engine plays spelde with variant=pie or nopie and flips=literal")
    state = Spelde(int(size), keys.get("variant", "pie") == "pie")
    state.phase = keys.get("phase", "play")
    if state.phase not in ("open", "swap", "play") or state.phase != "play" and not state.pie:
        raise bad("phase=%s does not fit variant=%s" % (state.phase, keys.get("variant", "pie")))
    if to_move not in ("b", "w") or (state.phase, to_move) in (("open", "w"), ("swap", "b")):
        raise bad("to move: %r" % to_move)
    state.to_move = to_move
    if count(keys.get("ply", "0")) is None:
        raise bad("ply=%s is not a count" % keys["ply"][:20])
    state.ply = int(keys.get("ply", "0"))
    rows, n = board.split("/"), state.size
    if len(rows) != 2 * n - 1:
        raise bad("%d rows, expected %d" % (len(rows), 2 * n - 1))
    for r, row in enumerate(rows):
        columns = [c for c in range(2 * n - 1) if abs(c - r) <= n - 1]
        if len(row) != len(columns) or set(row) - set(".bw"):
            raise bad("row %d is %r" % (r + 1, row))
        state.stones.update({(c, r): ch for c, ch in zip(columns, row) if ch != "."})
    return state


# -- the engine: command handlers ---------------------------------------------------------

def choose_move(state, rng):
    """Uniform over the legal placements (and `swap`), then a uniform valid flip set per group."""
    cells = state.legal_cells()
    if not cells:
        return "resign"
    choices = cells + (["swap"] if state.phase == "swap" else [])
    site = rng.choice(choices)
    if site == "swap":
        return "swap"
    flips = frozenset().union(*(state.random_flips(g, rng) for g in state.enemy_groups(site)))
    return format_action(site, flips)


class Engine:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.state, self.history = Spelde(6), []

    def reset(self, state):
        self.state, self.history = state, []

    def colour(self, args):
        if len(args) < 1 or args[0].lower() not in ("b", "black", "w", "white"):
            raise Failure("syntax error: expected a colour")
        return args[0][0].lower()

    def cmd_game(self, args):
        if not args:
            return "spelde " + ("pie" if self.state.pie else "nopie")
        if args[0].lower() != "spelde":
            raise Failure("unknown game: this engine plays only spelde")
        balance = "pie"
        for word in (a.lower() for a in args[1:]):
            if word in ("pie", "nopie"):
                balance = word
            elif word != "flips=literal":
                raise Failure("unknown variant: %s" % word)
        self.reset(Spelde(6, balance == "pie"))
        return ""

    def cmd_boardsize(self, args):
        if len(args) != 1 or count(args[0]) is None:
            raise Failure("syntax error: expected a whole number")
        if not 2 <= int(args[0]) <= 13:
            raise Failure("unacceptable size: side %s outside 2..13" % args[0])
        self.reset(Spelde(int(args[0]), self.state.pie))
        return ""

    def cmd_clear_board(self, args):
        self.reset(Spelde(self.state.size, self.state.pie))
        return ""

    def cmd_komi(self, args):
        if len(args) != 1 or count(args[0]) is None:
            raise Failure("syntax error: komi is a whole number >= 0")
        return ""          # Spelde has no komi: accepted and ignored

    def cmd_play(self, args):
        colour = self.colour(args)
        if len(args) != 2:
            raise Failure("syntax error: expected COLOUR ACTION")
        after = self.state.play(colour, args[1])
        self.history.append(self.state)
        self.state = after
        return ""

    def cmd_genmove(self, args):
        colour = self.colour(args)
        if colour != self.state.to_move:
            raise Failure("illegal move: %s is not to move" % args[0].lower())
        token = choose_move(self.state, self.rng)
        if token != "resign":
            self.cmd_play([colour, token])
        return token

    def cmd_genmove_analyze(self, args):
        """`genmove` and what this engine thinks of its move (HGP 1.2): a random player searched
        one ply, and its line is the move itself. A search would add `winrate`, `visits`, a longer `pv`."""
        token = self.cmd_genmove(args)
        return token if token == "resign" else "%s\ninfo depth 1 pv %s" % (token, token)

    def cmd_undo(self, args):
        if not self.history:
            raise Failure("cannot undo")
        self.state = self.history.pop()
        return ""

    def cmd_legal_moves(self, args):
        if self.state.over():
            return ""
        tokens = self.state.legal_tokens(MOVE_LIMIT, MOVE_BYTES)
        if tokens is None:
            raise Failure("too many moves: more than %d actions or %d bytes" % (MOVE_LIMIT, MOVE_BYTES))
        return " ".join(tokens)

    def cmd_legal_cells(self, args):
        return " ".join(site_name(s) for s in self.state.legal_cells())

    def cmd_set_position(self, args):
        self.reset(parse_position(args))
        return ""

    def cmd_final_score(self, args):
        if not self.state.over():
            raise Failure("cannot score: the game is not over")
        return "B+" if self.state.to_move == "w" else "W+"

    def cmd_showboard(self, args):
        n, s = self.state.size, self.state
        lines = ["spelde %d, ply %d, %s to move" % (n, s.ply, "black" if s.to_move == "b" else "white")]
        for r in reversed(range(2 * n - 1)):
            row = " ".join(s.stones.get((c, r), ".") for c in range(2 * n - 1) if abs(c - r) <= n - 1)
            lines.append("%2d %s%s" % (r + 1, " " * abs(r - (n - 1)), row))
        return "\n".join(lines)

    def handle(self, name, args):
        """The text of the `=` answer; Failure for a `?` answer."""
        fixed = {"protocol_version": "2", "name": NAME, "version": VERSION, "list_games": "spelde",
                 "list_commands": "\n".join(COMMANDS), "quit": "", "time_settings": "", "time_left": "",
                 "kgs-time_settings": "", "hgp_version": "1.2"}
        # time commands are accepted and ignored, so whole and decimal seconds (HGP 1.2) alike
        if name in fixed:
            return fixed[name]
        if name == "known_command":
            return "true" if args and args[0].lower() in COMMANDS else "false"
        if name == "position":
            return self.state.position()
        handler = HANDLERS.get(name)
        if handler is None:
            raise Failure("unknown command")
        return handler(self, args)


HANDLERS = {"game": Engine.cmd_game, "boardsize": Engine.cmd_boardsize, "clear_board": Engine.cmd_clear_board,
            "komi": Engine.cmd_komi, "play": Engine.cmd_play, "genmove": Engine.cmd_genmove,
            "genmove_analyze": Engine.cmd_genmove_analyze, "undo": Engine.cmd_undo, "showboard": Engine.cmd_showboard, "legal_moves": Engine.cmd_legal_moves,
            "legal_cells": Engine.cmd_legal_cells, "set_position": Engine.cmd_set_position,
            "final_score": Engine.cmd_final_score}
COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit", "list_games",
            "game", "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard", "legal_moves",
            "legal_cells", "position", "set_position", "final_score", "time_settings", "time_left",
            "kgs-time_settings", "hgp_version", "genmove_analyze")


# -- framing ---------------------------------------------------------------------------------

def preprocess(line):
    """Drop control characters but HT and LF, HT to space, cut at '#'; None for a blank line."""
    line = "".join(" " if ch == "\t" else ch for ch in line if ch in "\t\n" or ch >= " " and ch != "\x7f")
    line = line.split("#", 1)[0].strip()
    return line or None


def main(argv):
    seed = count(argv[argv.index("--seed") + 1], 20) if "--seed" in argv[:-1] else 0
    if seed is None:
        sys.exit("random_engine.py: --seed expects a whole number of at most 20 digits")
    engine = Engine(seed)
    stdin = open(sys.stdin.fileno(), "r", encoding="utf-8", errors="replace", newline="\n", closefd=False)
    for raw in stdin:
        line = preprocess(raw)
        if line is None:
            continue
        words = line.split()
        cid = words.pop(0) if words[0].isascii() and words[0].isdigit() else ""
        name = words[0].lower() if words else ""
        if not words:
            answer = "? syntax error: no command"
        else:
            try:
                answer = "= " + engine.handle(name, words[1:])
            except Failure as exc:
                answer = "? " + str(exc)
            except Exception as exc:                     # one bad command must not kill the engine
                answer = "? internal error: %s" % exc
        sys.stdout.write(answer[0] + cid + answer[1:] + "\n\n")
        sys.stdout.flush()
        if name == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
