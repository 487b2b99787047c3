"""The 12 symmetries of the hexagon of side n (6 rotations, 6 reflections) acting on site names
and action tokens. Every game here is played on the whole hexagon with rules that name no
direction or side in particular (docs/rules/), so a position and its image under any of these
have the same value for the player to move.

With x = ci - (n-1), y = ri - (n-1) (geometry.py's column and row indices about the centre), the
rotation by 60 degrees is (x, y) -> (x - y, x) (it turns each of geometry.DIRECTIONS into the next)
and the reflection is (x, y) -> (y, x); the symmetries are R^k and R^k S, k = 0..5 (the first is
the identity).
"""
from __future__ import annotations

import re
from functools import lru_cache

_SITE = re.compile(r"[a-z][0-9]+")


def _name(x: int, y: int, n: int) -> str:
    return f"{chr(ord('a') + x + n - 1)}{y + n}"


@lru_cache(maxsize=32)
def site_maps(n: int) -> tuple[dict[str, str], ...]:
    """The 12 symmetries of the hexagon of side n, each a map from every site name to its image;
    the first is the identity."""
    sites = [(x, y) for x in range(1 - n, n) for y in range(1 - n, n) if abs(x - y) <= n - 1]
    maps = []
    for reflect in (False, True):
        for k in range(6):
            table = {}
            for x, y in sites:
                u, v = (y, x) if reflect else (x, y)
                for _ in range(k):
                    u, v = u - v, u
                table[_name(x, y, n)] = _name(u, v, n)
            maps.append(table)
    return tuple(maps)


def map_token(token: str, table: dict[str, str]) -> str:
    """The action token with every site name replaced by its image under `table` (words such as
    `swap` or `komi=3` unchanged). The result may list a set's sites out of canonical order:
    parse and format it again with the game's rules."""
    return _SITE.sub(lambda m: table.get(m.group(0), m.group(0)), token)
