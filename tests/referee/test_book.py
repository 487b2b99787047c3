"""Candidate lines of a book (referee/game/book.py): one per class of symmetric positions, none ending
the game, the prefix kept; the book file's header."""
from __future__ import annotations

from hexarena.engine.symmetry import map_token, site_maps
from hexarena.referee.game.book import HEADER, canonical_key, expand, format_book, header_of
from hexarena.referee.game.openings import initial, replay


def test_a_line_and_its_images_share_a_key_and_other_lines_do_not():
    start = initial("spelde", 5, "pie")
    line = ("a1", "c4")
    key = canonical_key(start, line)
    for table in site_maps(5):
        assert canonical_key(start, [map_token(t, table) for t in line]) == key
    assert canonical_key(start, ("e5", "a1")) != key          # the first stone in the centre, not a corner


def test_expand_keeps_one_line_per_class_and_the_prefix():
    start = initial("anda", 5, "pie")
    lines = expand(start, 1, 40, seed=3, prefix=("komi=2", "keep"))
    assert lines and all(line[:2] == ("komi=2", "keep") and len(line) == 3 for line in lines)
    keys = [canonical_key(start, line) for line in lines]
    assert len(set(keys)) == len(keys)
    for line in lines:
        assert replay(start, line)[1].outcome() is None
    assert expand(start, 1, 40, seed=3, prefix=("komi=2", "keep")) == lines       # seeded


def test_the_first_ply_of_spelde_has_one_line_per_orbit_of_the_sites():
    start = initial("spelde", 5, "pie")
    lines = expand(start, 1, 1000, seed=0)
    orbits = {min(m[s] for m in site_maps(5)) for s in site_maps(5)[0]}
    assert len(lines) == len(orbits)


def test_book_text_and_header():
    text = format_book("spelde-5-pie: made so", [(("a1", "c4"), 0.5123)])
    assert text == f"{HEADER} spelde-5-pie: made so\na1 c4  # first seat 0.512\n"
    assert header_of(text) == "spelde-5-pie: made so" and header_of("a1 c4\n") == ""
