"""The regular hexagon of side n (2..13): sites, neighbours, rays, features.

A site is identified by its bit index in a padded row-major layout:
``bit = ri * W + ci`` with ``W = 2n`` (one padding column), so a set of sites
is a Python int and the neighbours of a whole set are six shifts and a mask.
Column index ci and row index ri follow docs/protocol.md ("Actions per game"): a site exists iff
``0 <= ci, ri <= 2n-2`` and ``|ci - ri| <= n-1``. Notation is column letter
``a..`` plus row number ``1..`` (``ri + 1``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .errors import IllegalMove, InvalidNotation
from .numbers import shown, whole

MIN_SIZE, MAX_SIZE = 2, 13

#: The six straight-line steps (dci, dri), in angular order: consecutive
#: entries (cyclically) are neighbours of each other around a site.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))

_CELL = re.compile(r"([a-z])([0-9]+)\Z")


def grid_bits(n: int) -> int:
    """The bits of the grid of the hexagon of side n: one past its highest site's bit (row
    2n-2, column 2n-2, rows 2n bits wide)."""
    return (2 * n - 2) * (2 * n + 1) + 1


def iter_bits(bb: int):
    """The bit indices of a bitboard, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def nth_bit(bb: int, k: int) -> int:
    """The index of the k-th (0-based, lowest first) set bit of bb; bb must have more than k."""
    if k < 8:                               # walk the low bits: cheaper than the search for small k
        for _ in range(k):
            bb &= bb - 1
        return (bb & -bb).bit_length() - 1
    lo, hi = 0, bb.bit_length()
    while hi - lo > 1:                      # invariant: the answer lies in [lo, hi)
        mid = (lo + hi) // 2
        if (bb & ((1 << mid) - 1)).bit_count() > k:
            hi = mid
        else:
            lo = mid
    return lo


def expand_unclipped(bb: int, w: int, v: int) -> int:
    """bb and its neighbours on a board of width w (v = w + 1), NOT clipped to the board:
    callers intersect the result with a set of sites (the hot paths of the Anda games)."""
    return bb | bb << 1 | bb >> 1 | bb << w | bb >> w | bb << v | bb >> v


def flood_unclipped(seed: int, within: int, w: int, v: int) -> int:
    """The connected components of `within` (a set of sites) that meet `seed`; as
    :meth:`Hexagon.flood` with the widths passed in (no board lookup)."""
    cur = seed & within
    while True:
        nxt = (cur | cur << 1 | cur >> 1 | cur << w | cur >> w | cur << v | cur >> v) & within
        if nxt == cur:
            return cur
        cur = nxt


@dataclass(frozen=True, eq=False)
class Hexagon:
    """The board of side n. Obtain it with :func:`hexagon` (cached, one per size)."""

    n: int
    width: int = field(init=False)
    mask: int = field(init=False)
    sites: tuple[int, ...] = field(init=False)          # bits in notation order (column, then row)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False)  # indexed by bit
    neighbour_mask: tuple[int, ...] = field(init=False, repr=False)           # indexed by bit
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False)  # [bit][dir]
    corners: tuple[int, ...] = field(init=False)        # K0..K5 as bits
    sides: tuple[int, ...] = field(init=False)          # S0..S5 as bitboards
    perimeter: int = field(init=False)
    shifts: tuple[int, ...] = field(init=False)         # bit offset of each direction
    rank: tuple[int, ...] = field(init=False, repr=False)  # bit -> position in notation order
    site_names: tuple[str, ...] = field(init=False, repr=False)   # bit -> its name (every bit of the grid)
    named: dict[str, int] = field(init=False, repr=False, compare=False)  # a site's name -> its bit

    def __post_init__(self) -> None:
        n = self.n
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise ValueError(f"hexagon side {n} outside {MIN_SIZE}..{MAX_SIZE}")
        w = 2 * n
        last = 2 * n - 2
        coords = [(ci, ri) for ci in range(last + 1) for ri in range(last + 1) if abs(ci - ri) <= n - 1]
        bits = tuple(ri * w + ci for ci, ri in coords)
        mask = 0
        for b in bits:
            mask |= 1 << b
        size = grid_bits(n)
        nbrs: list[tuple[int, ...]] = [()] * size
        nmask = [0] * size
        rays: list[tuple[tuple[int, ...], ...]] = [()] * size
        for ci, ri in coords:
            b = ri * w + ci
            ray_list = []
            for dc, dr in DIRECTIONS:
                ray = []
                c, r = ci + dc, ri + dr
                while 0 <= c <= last and 0 <= r <= last and abs(c - r) <= n - 1:
                    ray.append(r * w + c)
                    c, r = c + dc, r + dr
                ray_list.append(tuple(ray))
            rays[b] = tuple(ray_list)
            nbrs[b] = tuple(ray[0] for ray in ray_list if ray)
            m = 0
            for x in nbrs[b]:
                m |= 1 << x
            nmask[b] = m
        k = [(last, n - 1), (last, last), (n - 1, last), (0, n - 1), (0, 0), (n - 1, 0)]
        corners = tuple(r * w + c for c, r in k)
        sides = []
        for i in range(6):
            (c0, r0), (c1, r1) = k[i], k[(i + 1) % 6]
            dc, dr = (c1 - c0) // (n - 1), (r1 - r0) // (n - 1)
            s = 0
            for j in range(1, n - 1):
                s |= 1 << ((r0 + j * dr) * w + c0 + j * dc)
            sides.append(s)
        perimeter = 0
        for b in bits:
            if len(nbrs[b]) < 6:
                perimeter |= 1 << b
        put = object.__setattr__
        put(self, "width", w)
        put(self, "mask", mask)
        put(self, "sites", bits)
        put(self, "neighbours", tuple(nbrs))
        put(self, "neighbour_mask", tuple(nmask))
        put(self, "rays", tuple(rays))
        put(self, "corners", corners)
        put(self, "sides", tuple(sides))
        put(self, "perimeter", perimeter)
        put(self, "site_names", tuple(f"{chr(97 + b % w)}{b // w + 1}" for b in range(size)))
        put(self, "named", {self.site_names[b]: b for b in bits})
        put(self, "shifts", tuple(dc + dr * w for dc, dr in DIRECTIONS))
        rank = [0] * size
        for i, b in enumerate(bits):
            rank[b] = i
        put(self, "rank", tuple(rank))

    # -- counts and coordinates -------------------------------------------------
    @property
    def site_count(self) -> int:
        return len(self.sites)

    def coords(self, bit: int) -> tuple[int, int]:
        """(ci, ri) of a site."""
        return bit % self.width, bit // self.width

    def bit(self, ci: int, ri: int) -> int | None:
        """The bit of (ci, ri), or None when that is off the board."""
        last = 2 * self.n - 2
        if 0 <= ci <= last and 0 <= ri <= last and abs(ci - ri) <= self.n - 1:
            return ri * self.width + ci
        return None

    def is_site(self, bit: int) -> bool:
        return bit >= 0 and (self.mask >> bit) & 1 == 1

    def order_key(self, bit: int) -> tuple[int, int]:
        """Canonical order inside tokens: column letter, then row number."""
        return bit % self.width, bit // self.width

    def sorted_sites(self, bits) -> list[int]:
        """Sites in notation order (column, then row)."""
        return sorted(bits, key=self.rank.__getitem__)

    # -- notation -------------------------------------------------------------
    def name(self, bit: int) -> str:
        """The name of a bit of the grid (a site's, or the off-board name of a padding bit);
        IllegalMove for a bit past the grid (negative or too large), which has no name."""
        if 0 <= bit < len(self.site_names):
            return self.site_names[bit]
        raise IllegalMove(f"site {bit} is off the board")

    def parse(self, text: str) -> int:
        """A site from its name (any case).

        Raises InvalidNotation when the text is not a letter and a row number,
        IllegalMove when it is well formed but off this board.
        """
        bit = self.named.get(text)           # a site's own name: the common case
        if bit is not None:
            return bit
        m = _CELL.match(text.lower())
        if not m or m.group(2).startswith("0"):
            raise InvalidNotation(f"not a site: {shown(text)}")
        b = self.bit(ord(m.group(1)) - 97, whole(m.group(2), f"row of site {m.group(1)}") - 1)
        if b is None:
            raise IllegalMove(f"{text.lower()} is off the board")
        return b

    def names(self, bb: int) -> list[str]:
        """The names of a bitboard's sites in canonical order; IllegalMove for a bitboard with a
        bit past the grid (or a negative one, whose bits never end)."""
        names = self.site_names
        if bb < 0 or bb >> len(names):
            raise IllegalMove("a set of sites names a site off the board")
        return [names[b] for b in self.sorted_sites(iter_bits(bb))]

    # -- bitboard operations ----------------------------------------------------
    def expand(self, bb: int) -> int:
        """bb together with every site adjacent to it."""
        w = self.width
        return (bb | bb << 1 | bb >> 1 | bb << w | bb >> w | bb << (w + 1) | bb >> (w + 1)) & self.mask

    def adjacent(self, bb: int) -> int:
        """The sites adjacent to bb and not in it."""
        return self.expand(bb) & ~bb

    def shift(self, bb: int, direction: int) -> int:
        """Every site of bb moved one step in DIRECTIONS[direction], clipped to the board."""
        s = self.shifts[direction]
        return (bb << s if s > 0 else bb >> -s) & self.mask

    def flood(self, seed: int, within: int) -> int:
        """The union of the connected components of `within` that meet `seed`."""
        w = self.width
        v = w + 1
        cur = seed & within
        while True:   # expand inlined: no mask needed, `within` lies on the board
            nxt = (cur | cur << 1 | cur >> 1 | cur << w | cur >> w | cur << v | cur >> v) & within
            if nxt == cur:
                return cur
            cur = nxt

    def components(self, bb: int) -> list[int]:
        """The connected components of bb, each as a bitboard."""
        out = []
        while bb:
            comp = self.flood(bb & -bb, bb)
            out.append(comp)
            bb ^= comp
        return out

    def is_connected(self, bb: int) -> bool:
        return bb != 0 and self.flood(bb & -bb, bb) == bb

    # -- perimeter features -----------------------------------------------------
    def feature(self, bit: int) -> int | None:
        """Index 0..11 of the perimeter feature holding a site (K0, S0, K1, S1, ...), or None."""
        for i, k in enumerate(self.corners):
            if k == bit:
                return 2 * i
        for i, s in enumerate(self.sides):
            if (s >> bit) & 1:
                return 2 * i + 1
        return None

    @staticmethod
    def features_adjacent(f: int, g: int) -> bool:
        """Two distinct features are adjacent when they are 1 or 2 apart around the perimeter."""
        d = abs(f - g) % 12
        return min(d, 12 - d) in (1, 2)


@lru_cache(maxsize=None)
def hexagon(n: int) -> Hexagon:
    """The shared board of side n; ValueError outside 2..13."""
    return Hexagon(n)


@lru_cache(maxsize=None)
def split_rays(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(up, down) for the hexagon of side n: per bit, the rays from that site as bitboards,
    split by whether the bit index grows (up) or shrinks (down) along the ray; rays that
    leave the board at once are left out. Line-of-sight scans (Vaxandis moves, Marbanta
    sight) stop at the lowest (up) or highest (down) blocker of each ray."""
    board = hexagon(n)
    up: list[tuple[int, ...]] = [()] * len(board.rays)
    down: list[tuple[int, ...]] = [()] * len(board.rays)
    for bit in board.sites:
        ups: list[int] = []
        downs: list[int] = []
        for d, ray in enumerate(board.rays[bit]):
            if not ray:
                continue
            bb = 0
            for x in ray:
                bb |= 1 << x
            (ups if board.shifts[d] > 0 else downs).append(bb)
        up[bit], down[bit] = tuple(ups), tuple(downs)
    return tuple(up), tuple(down)
