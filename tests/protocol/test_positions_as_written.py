"""HGP 1.1 (docs/protocol.md, "Well-formed positions"): positions are taken as written, the Spelde pie survives
a board without placements, and the phase words are the protocol's.

Transcripts fed to a fresh EngineSide, compared exactly.
"""
from __future__ import annotations

import pytest

from hexarena.engine import registry

from tests.support.transcript import run
from tests.support.transcript import PROTOCOL_PHASES

#: Anda-prison n=5, the game over by agreement: Black's wall a2..f2 owns a1..e1 (5 points),
#: eight black stones sit in the prison (8 points for White); no `last=`, so no half point.
AGREED = ("anda-prison 5 b ...../bbbbbb/......./......../....w..../......../..w..../....b./..... "
          "phase=agreed prison=8,0")


# -- 3. positions taken as written ----------------------------------------------------------

def test_an_absent_last_is_dash_and_earns_nobody_the_half_point() -> None:
    assert run([f"1 set_position {AGREED}", "2 final_score", "3 position"]) == \
        f"=1 \n\n=2 W+3\n\n=3 {AGREED}\n\n"


def test_last_as_written_decides_the_half_point() -> None:
    assert run([f"1 set_position {AGREED} last=b", "2 final_score",
                f"3 set_position {AGREED} last=w", "4 final_score"]) == \
        "=1 \n\n=2 W+2.5\n\n=3 \n\n=4 W+3.5\n\n"


def test_last_b_with_black_to_move_is_accepted() -> None:
    text = "anda-prison 2 b b./.w./.. last=b"
    assert run([f"1 set_position {text}", "2 position"]) == f"=1 \n\n=2 {text}\n\n"


def test_an_empty_marbanta_board_in_phase_play_is_over_black_wins() -> None:
    assert run(["1 set_position marbanta 2 b ../.../..", "2 legal_moves", "3 legal_cells",
                "4 final_score", "5 play b a1", "6 position"]) == \
        "=1 \n\n=2 \n\n=3 \n\n=4 B+\n\n?5 illegal move: the game is over\n\n=6 marbanta 2 b ../.../..\n\n"


def test_a_marbanta_board_with_only_black_stones_is_played_on() -> None:
    assert run(["1 set_position marbanta 2 b b./.../..", "2 legal_cells", "3 final_score",
                "4 set_position marbanta 2 w b./.../..", "5 legal_moves", "6 final_score"]) == \
        ("=1 \n\n=2 c3\n\n?3 cannot score: the game is not over\n\n"
         "=4 \n\n=5 \n\n=6 W+\n\n")


@pytest.mark.parametrize("text", [
    "spelde 2 w ../.../.. phase=open",              # phase=open with White to move
    "spelde 2 b bb/.../.. variant=nopie phase=swap",  # a pie phase outside the pie
    "vaxandis 2 b b3./.../.. phase=open",           # a stack where the board should be empty
    "anda 2 b ../.../.. phase=offer komi=7",        # an offer already made in the offer phase
    "anda-prison 2 w bw/.../.. phase=komi-swap first=bw annihilated=bw",
])
def test_unreachable_positions_are_accepted_and_echoed(text: str) -> None:
    assert run([f"1 set_position {text}", "2 position"]) == f"=1 \n\n=2 {text}\n\n"


@pytest.mark.parametrize("text, reason", [
    ("anda 2 b ../.../.. komi=8", "komi=8: expected 0..7"),
    ("anda-prison 2 b ../.../.. prison=1", "prison=1: expected B,W (two whole numbers)"),
    ("anda-prison 2 b ../.../.. last=bw", "last=bw: expected b, w or -"),
    ("spelde 2 b b2./.../..", "spelde stones have no height (a1)"),
    ("spelde 2 b ../.../.. komi=1", "spelde has no key 'komi'"),
])
def test_only_positions_that_are_not_well_formed_are_refused(text: str, reason: str) -> None:
    assert run([f"1 set_position {text}"]) == f"?1 invalid position: {reason}\n\n"


# -- 4. the Spelde pie survives a board without placements ------------------------------------

@pytest.mark.parametrize("game", ["spelde", "vaxandis"])
def test_swap_stays_legal_where_white_has_no_placement(game: str) -> None:
    assert run([f"0 game {game}", "0 boardsize 2", "1 play b b2", "2 legal_moves", "3 legal_cells",
                "4 final_score", "5 play w swap", "6 legal_moves", "7 final_score"]) == \
        ("=0 \n\n=0 \n\n=1 \n\n=2 swap\n\n=3 \n\n?4 cannot score: the game is not over\n\n"
         "=5 \n\n=6 \n\n=7 B+\n\n")


# -- 5. the standard phase names ---------------------------------------------------------------

@pytest.mark.parametrize("game, words", [
    ("anda", "offer, answer, play"),
    ("anda-prison", "pair, pair-swap, swap, komi, komi-swap, corners, play, proposed, declined, agreed"),
    ("spelde", "open, swap, play"),
    ("vaxandis", "open, swap, play"),
    ("marbanta", "pie, swap, play"),
])
def test_an_unknown_phase_word_is_refused_with_the_games_words(game: str, words: str) -> None:
    assert run([f"1 set_position {game} 2 b ../.../.. phase=opening"]) == \
        f"?1 invalid position: phase=opening: {game} phases are {words}\n\n"


@pytest.mark.parametrize("game", registry.playable())
def test_every_phase_word_of_the_protocol_loads(game: str) -> None:
    phases = {k.name: k for k in registry.get(game).keys}["phase"]
    for word in PROTOCOL_PHASES[game]:
        assert phases.read(word, 7) == word
        text = f"{game} 2 w ../.../.. phase={word}"
        expected = text if word != "play" else text.removesuffix(" phase=play")
        assert run([f"1 set_position {text}", "2 position"]) == f"=1 \n\n=2 {expected}\n\n"


