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


def _spelde(openings: str, size: int = 6, games_per_pair: int = 2) -> dict:
    return {"games_per_pair": games_per_pair, "engines": {"a": {"player": "random"}, "b": {"player": "random"}},
            "games": [{"game": "spelde", "size": size, "variant": "pie", "openings": openings}]}


def test_a_book_of_another_group_is_refused_by_its_header(tmp_path):
    with pytest.raises(ConfigError, match="book:spelde-5-pie is a book of spelde-5-pie, not of spelde-6-pie"):
        config_mod.from_dict(_spelde("book:spelde-5-pie"), "test")
    copy = tmp_path / "copy.txt"
    copy.write_text((BOOKS / "spelde-5-pie.txt").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ConfigError, match=f"{copy} is a book of spelde-5-pie, not of spelde-6-pie"):
        config_mod.from_dict(_spelde(str(copy)), "test")
    bare = tmp_path / "bare.txt"                        # no header: its lines are checked by replay alone
    bare.write_text("".join(t + "\n" for _, t in read_file(copy)), encoding="utf-8")
    assert len(config_mod.from_dict(_spelde(str(bare)), "test").games[0].openings) == len(read_file(copy))
    assert config_mod.from_dict(_spelde(str(copy), size=5), "test").games[0].openings


def test_the_komi_search_refuses_a_book_of_another_size():
    from hexarena.openings_komi import file_prefixes
    from hexarena.openings_play import Board
    from hexarena.referee.game.openings import OpeningError
    with pytest.raises(OpeningError, match="is a book of anda-prison-7-pie, not of anda-prison-9-pie"):
        file_prefixes(Board("anda-prison", 9, "pie"), "book:anda-prison-7-pie")


def test_too_many_openings_are_refused_by_their_count_before_any_is_replayed(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("zz99\n" * 100_001, encoding="utf-8")     # 200,002 games; no line is legal
    with pytest.raises(ConfigError, match=f"games\\[0\\].openings: the 100001 openings of {big} would make the "
                                          "schedule hold 200002 games, more than 200000"):
        config_mod.from_dict(_spelde(str(big), size=5), "test")
