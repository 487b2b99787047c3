"""The shipped books: each a header saying how it was made, lines legal on its own board and variant,
distinct under the symmetries; `openings = "book:NAME"` selects one, an unknown name is refused."""
from __future__ import annotations

import pytest

from hexarena.engine import registry
from hexarena.referee.game.book import canonical_key, header_of
from hexarena.referee.game.openings import BOOKS, book_names, initial, parse_line, read_file
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.config import ConfigError
from hexarena.referee.tournament.schedule import schedule


def _board(name: str) -> tuple[str, int, str]:
    words = name.split("-")
    at = next(i for i, w in enumerate(words) if w.isdigit())
    return "-".join(words[:at]), int(words[at]), " ".join(words[at + 1:])


def test_the_games_with_books():
    games = {_board(n)[0] for n in book_names()}
    assert {"spelde", "anda", "vaxandis", "marbanta"} <= games <= set(registry.playable())


@pytest.mark.parametrize("name", book_names())
def test_a_book_is_legal_distinct_and_says_how_it_was_made(name):
    game, size, variant = _board(name)
    assert size in registry.get(game).sizes
    text = (BOOKS / f"{name}.txt").read_text(encoding="utf-8")
    header = header_of(text)
    assert header.startswith(name) and "judged by" in header
    lines = [parse_line(t, game, size, variant) for _, t in read_file(BOOKS / f"{name}.txt")]
    assert len(lines) >= 5
    start = initial(game, size, variant)
    assert len({canonical_key(start, line) for line in lines}) == len(lines)


def test_book_name_in_a_config_selects_the_book_and_an_unknown_one_is_refused():
    name = book_names()[0]
    game, size, variant = _board(name)
    data = {"games_per_pair": 2, "engines": {"a": {"player": "random"}, "b": {"player": "random"}},
            "games": [{"game": game, "size": size, "variant": variant, "openings": f"book:{name}"}]}
    config = config_mod.from_dict(data, "test")
    expected = [" ".join(parse_line(t, game, size, variant)) for _, t in read_file(BOOKS / f"{name}.txt")]
    assert [" ".join(g.opening) for g in schedule(config)][::2] == expected
    data["games"][0]["openings"] = "book:nonesuch"
    with pytest.raises(ConfigError, match="no shipped book 'nonesuch'.*books: "):
        config_mod.from_dict(data, "test")
