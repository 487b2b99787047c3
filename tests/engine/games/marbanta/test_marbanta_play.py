"""Marbanta: brute-force turn counts, seeded playthroughs, the random player's distribution."""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from hexarena.engine.actions import Grow, Place
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.engine.geometry import hexagon
from hexarena.engine.games.marbanta.state import RULES, MarbantaState
from hexarena.engine.games.marbanta.moves import count_groups, free_sites, new_groups, tables
from hexarena.engine.games.marbanta import sample as marbanta_sample
from hexarena.engine.games.marbanta.sample import chain_group, sample_group
from tests.support.playthrough import playthrough
from tests.support.marbanta import board

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


# -- an independent oracle: coordinates, ray walks and plain subsets ------------------

def brute_turns(text: str) -> set[str]:
    """Every complete turn of a play-phase position string, from docs/rules/marbanta.md alone."""
    fields = text.split()
    n, me = int(fields[1]), fields[2]
    foe = "w" if me == "b" else "b"
    cells: dict[tuple[int, int], str] = {}
    for ri, row in enumerate(fields[3].split("/")):
        cols = [ci for ci in range(2 * n - 1) if abs(ci - ri) <= n - 1]
        assert len(cols) == len(row)
        cells.update({(ci, ri): ch for ci, ch in zip(cols, row)})

    def nbrs(c):
        return [(c[0] + dc, c[1] + dr) for dc, dr in STEPS if (c[0] + dc, c[1] + dr) in cells]

    label: dict[tuple[int, int], int] = {}
    for c in cells:                                   # label my groups by search
        if cells[c] == me and c not in label:
            todo, label[c] = [c], len(label)
            mark = label[c]
            while todo:
                x = todo.pop()
                for y in nbrs(x):
                    if cells[y] == me and y not in label:
                        label[y] = mark
                        todo.append(y)
    allowed = {c for c in cells if cells[c] == "." and all(cells[y] != me for y in nbrs(c))}

    def seen_groups(r):
        out = set()
        for dc, dr in STEPS:
            x = (r[0] + dc, r[1] + dr)
            while x in cells and cells[x] != foe:
                if cells[x] == me:
                    out.add(label[x])
                x = (x[0] + dc, x[1] + dr)
        return out

    def dist(a, b):
        dc, dr = b[0] - a[0], b[1] - a[1]
        return max(abs(dc), abs(dr)) if dc * dr >= 0 else abs(dc) + abs(dr)

    def connected(group):
        start = next(iter(group))
        reach, todo = {start}, [start]
        while todo:
            for y in nbrs(todo.pop()):
                if y in group and y not in reach:
                    reach.add(y)
                    todo.append(y)
        return reach == group

    def name(c):
        return f"{chr(97 + c[0])}{c[1] + 1}"

    def key(c):
        return c

    turns = set()
    for r in allowed:
        k = len(seen_groups(r))
        if k == 0:
            continue
        pool = sorted(c for c in allowed if c != r and dist(r, c) <= k - 1)
        for extra in combinations(pool, k - 1):
            if connected({r, *extra}):
                turns.add(name(r) + (":" + ",".join(name(c) for c in sorted(extra, key=key)) if extra else ""))
    return turns


def engine_turns(state: MarbantaState) -> set[str]:
    acts = list(state.legal_actions())
    assert len(acts) == len(set(acts)), "duplicate turns"
    return {state.format(a) for a in acts}


def test_oracle_agrees_with_the_rule_tests():
    assert brute_turns(board("B c3 g7 / W e1").position()) >= {"e5:d5", "e5:e4", "e5:e6", "e5:f5", "c5"}
    assert len(brute_turns(board("B e5 / W c3").position())) == 15


@pytest.mark.parametrize("n, seeds", [(3, range(12)), (4, range(6))])
def test_turns_match_brute_force_along_random_games(n, seeds):
    checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        s = RULES.new_game(RULES.variant(n, ["nopie" if seed % 2 else "pie"]), 0)
        while s.outcome() is None:
            if s.phase == "play":
                assert engine_turns(s) == brute_turns(s.position()), s.position()
                checked += 1
            s = s.play(s.random_action(rng))
        assert brute_turns(s.position()) == set()        # the end agrees too
    assert checked >= 4 * len(seeds)


@pytest.mark.parametrize("n, singletons, stones", [(4, False, 2), (5, True, 4)])
def test_turns_match_brute_force_on_scattered_positions(n, singletons, stones):
    """Unreachable but valid positions: more groups in sight, larger N (singletons: black
    stones never adjacent, so every black stone is a group of its own)."""
    rng = random.Random(7 + n)
    geo = hexagon(n)
    big = 0
    for _ in range(60):
        sites = list(geo.sites)
        rng.shuffle(sites)
        want = rng.randint(3, 10)
        blacks: list[int] = []
        rest: list[int] = []
        for b in sites:
            if len(blacks) < want and not (singletons and geo.adjacent(1 << b) & sum(1 << x for x in blacks)):
                blacks.append(b)
            else:
                rest.append(b)
        whites = rest[:rng.randint(1, 4)]
        spec = f"B {' '.join(map(geo.name, blacks))} / W {' '.join(map(geo.name, whites))}"
        s = board(spec, n=n, to_move=rng.choice("bw"))
        turns = engine_turns(s)
        assert turns == brute_turns(s.position()), s.position()
        big += any(t.count(",") + (":" in t) + 1 >= stones for t in turns)
    assert big >= 5                                       # enough roots saw `stones` groups


# -- playthroughs -------------------------------------------------------------------

def marbanta_invariants(state: GameState, parent: GameState | None) -> None:
    assert isinstance(state, MarbantaState)
    geo = state.board
    assert state.black & state.white == 0 and (state.black | state.white) & ~geo.mask == 0
    assert state.ply <= geo.site_count + 2
    for colour_bb in (state.black, state.white):        # the owner cache is the components
        for comp in geo.components(colour_bb):
            assert all(state.owner[b] == comp for b in geo.sorted_sites(_bits(comp)))
    out = state.outcome()
    if out is not None:
        assert out.winner is state.to_move
    roots = {a.cell if isinstance(a, Place) else a.root for a in state.legal_actions()} \
        if state.phase == "play" and len(geo.sites) <= 127 else None
    if roots is not None:
        assert sum(1 << r for r in roots) == state.legal_cells()
    if parent is None or parent.phase != "play":
        return
    assert isinstance(parent, MarbantaState)
    mover = parent.to_move
    old_f, old_e = (parent.black, parent.white) if mover is Colour.BLACK else (parent.white, parent.black)
    new_f, new_e = (state.black, state.white) if mover is Colour.BLACK else (state.white, state.black)
    added = new_f & ~old_f
    assert new_e == old_e and old_f & ~new_f == 0 and added
    assert geo.is_connected(added) and geo.adjacent(added) & old_f == 0
    assert len(geo.components(new_f)) == len(geo.components(old_f)) + 1   # groups never merge
    assert state.to_move is mover.other


def _bits(bb: int):
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


@pytest.mark.parametrize("n, seed, balance", [(7, 1, "pie"), (7, 2, "nopie"), pytest.param(9, 3, "pie", marks=pytest.mark.slow),
                                              pytest.param(11, 4, "nopie", marks=pytest.mark.slow)])
def test_seeded_playthroughs(n, seed, balance):
    start = RULES.new_game(RULES.variant(n, [balance]), 0)
    end = playthrough(start, seed, extra=marbanta_invariants)
    out = end.outcome()
    assert out is not None and out.winner is end.to_move
    assert end.ply <= RULES.ply_cap(n)


def test_playout_is_deterministic_for_a_seed():
    def run(seed):
        rng = random.Random(seed)
        s = RULES.new_game(RULES.variant(7), 0)
        while s.outcome() is None:
            s = s.play(s.random_action(rng))
        return s.position()
    assert run(5) == run(5)


# -- the random player's distribution -----------------------------------------------

def chi_square(counts: Counter, categories: list, total: int) -> float:
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def test_random_root_is_uniform_over_legal_roots():
    s = board("B c3 g7 / W e1")
    roots = [r for r in s.board.sites if s.legal_cells() >> r & 1]
    rng = random.Random(11)
    draws = 4000
    got = Counter()
    for _ in range(draws):
        a = s.random_action(rng)
        got[a.cell if isinstance(a, Place) else a.root] += 1
    assert set(got) == set(roots)
    # 16 degrees of freedom: the 0.999 quantile is about 39.3
    assert chi_square(got, roots, draws) < 39.3


def test_random_group_is_uniform_for_its_root():
    s = board("B a5 e1 i9 a1 / W c7", n=5)               # e5 sees four groups: N=4
    root = s.board.parse("e5")
    t = tables(5)
    free = free_sites(t, s.black, s.white)
    groups = list(new_groups(t, free, root, 4))
    assert len(groups) == len(set(groups)) == count_groups(t, free, root, 4) > 50
    rng = random.Random(3)
    draws = 60 * len(groups)
    got = Counter(sample_group(t, free, root, 4, rng) for _ in range(draws))
    assert set(got) <= set(groups)
    df = len(groups) - 1                                  # 0.999 quantile ~ df + 3.1*sqrt(2 df)
    assert chi_square(got, groups, draws) < df + 3.1 * (2 * df) ** 0.5


def test_chain_fallback_gives_valid_and_spread_groups():
    t = tables(5)
    free = hexagon(5).mask
    root = hexagon(5).parse("e5")
    groups = set(new_groups(t, free, root, 3))
    rng = random.Random(2)
    draws = 40 * len(groups)
    got = Counter(chain_group(t, free, root, 3, rng, steps_per_stone=10) for _ in range(draws))
    assert set(got) == groups
    df = len(groups) - 1
    assert chi_square(got, list(groups), draws) < df + 3.1 * (2 * df) ** 0.5


def test_sampler_falls_back_when_the_count_is_huge(monkeypatch):
    # n=9: the centre sees 12 black singletons on its six rays; the free region is large.
    geo = hexagon(9)
    centre = geo.parse("i9")
    stones = []
    for ray in geo.rays[centre]:
        stones += [ray[5], ray[7]]
    s = board("B " + " ".join(geo.name(b) for b in stones) + " / W b1", n=9)
    assert s.legal_cells() >> centre & 1
    rng = random.Random(1)
    t = tables(9)
    free = free_sites(t, s.black, s.white)
    calls = []

    def recording_chain(*args, **kwargs):
        calls.append(args[3])
        return chain_group(*args, **kwargs)

    monkeypatch.setattr(marbanta_sample, "chain_group", recording_chain)
    group = sample_group(t, free, centre, 12, rng, budget=2000)
    assert calls == [12]
    assert group.bit_count() == 12 and group & ~free == 0 and geo.is_connected(group)
    action = Grow(centre, tuple(geo.sorted_sites(_bits(group & ~(1 << centre)))))
    s.play(action)                                        # legal
