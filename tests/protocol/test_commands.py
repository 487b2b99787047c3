"""Every command of docs/protocol.md on the engine side, played on Spelde."""
from __future__ import annotations

import pytest

from hexarena.protocol.clock import ClockKind, TimeControl, TimeLeft

from hexarena.engine import registry
from hexarena.engine.actions import Resign

from tests.support.transcript import answer, engine, run, seeded


EMPTY5 = "...../....../......./......../........./......../......./....../....."
E5_NOPIE = "spelde 5 w ...../....../......./......../....b..../......../......./....../..... variant=nopie"
E5_PLAYED = E5_NOPIE + " ply=1"                # the same after `play b e5`
FULL2 = "spelde 2 b bb/bbw/ww variant=nopie"           # Black to move, no empty site: White has won
#: n=4, a single empty centre surrounded by one white group: flip sets beyond counting.
HUGE = "spelde 4 b wwww/wwwww/wwwwww/www.www/wwwwww/wwwww/wwww variant=nopie"
ALL2 = {"a1", "a2", "b1", "b2", "b3", "c2", "c3"}


def nopie5(*lines: str) -> list[str]:
    return ["game spelde nopie", "boardsize 5", *lines]


# -- identity, games ------------------------------------------------------------------

def test_protocol_version_name_version() -> None:
    assert run(["1 protocol_version", "2 name", "3 version"]) == "=1 2\n\n=2 testbot\n\n=3 9.9\n\n"


def test_list_games_lists_the_playable_games() -> None:
    assert run(["1 list_games"]) == "=1 " + "\n".join(registry.playable()) + "\n\n"


def test_default_game_is_spelde_at_its_default_size() -> None:
    size = registry.get("spelde").default_size
    empty = "/".join("." * (2 * size - 1 - abs(ri - (size - 1))) for ri in range(2 * size - 1))
    assert run(["1 game", "2 position"]) == f"=1 spelde pie\n\n=2 spelde {size} b {empty} phase=open\n\n"


def test_game_with_balance_and_options_in_any_order() -> None:
    assert run(["1 game spelde flips=dense nopie", "2 game"]) == "=1 \n\n=2 spelde nopie flips=dense\n\n"
    assert run(["1 game SPELDE Flips=Standard", "2 game"]) == "=1 \n\n=2 spelde pie flips=standard\n\n"


def test_game_resets_size_komi_and_board() -> None:
    eng = engine()
    run(["boardsize 3", "komi 2", "play b b2"], eng)
    assert answer(eng, "1 game spelde") == "=1 \n\n"
    assert eng.session.komi == 0
    size = registry.get("spelde").default_size
    assert answer(eng, "2 position").startswith(f"=2 spelde {size} b ")
    assert answer(eng, "3 undo") == "?3 cannot undo\n\n"


def test_unknown_game() -> None:
    out = run(["1 game chess"])
    assert out.startswith("?1 unknown game: ")


@pytest.mark.parametrize("args", ["spelde frob", "spelde flips=bogus", "spelde colour=red",
                                  "spelde pie nopie", "spelde flips=dense flips=dense"])
def test_unknown_variant(args: str) -> None:
    assert run([f"1 game {args}"]).startswith("?1 unknown variant: ")


def test_failed_game_command_keeps_the_board() -> None:
    eng = engine()
    run(nopie5("play b e5"), eng)
    before = answer(eng, "position")
    assert answer(eng, "1 game spelde frob").startswith("?1 unknown variant")
    assert answer(eng, "1 game nosuch").startswith("?1 unknown game")
    assert answer(eng, "position") == before


# -- boardsize, clear_board, komi -----------------------------------------------------

@pytest.mark.parametrize("size", [2, 5, 13])
def test_boardsize_accepted(size: int) -> None:
    eng = engine()
    assert answer(eng, f"1 boardsize {size}") == "=1 \n\n"
    assert answer(eng, "2 position").startswith(f"=2 spelde {size} b ")


@pytest.mark.parametrize("size", ["1", "0", "14", "-3", "99"])
def test_boardsize_unacceptable(size: str) -> None:
    assert run([f"1 boardsize {size}"]).startswith("?1 unacceptable size")


@pytest.mark.parametrize("line", ["1 boardsize abc", "1 boardsize 5.5", "1 boardsize", "1 boardsize 5 6"])
def test_boardsize_syntax_error(line: str) -> None:
    assert run([line]).startswith("?1 syntax error")


def test_boardsize_clears_the_board() -> None:
    out = run(nopie5("play b e5", "boardsize 5", "1 position"))
    assert out.endswith(f"=1 spelde 5 b {EMPTY5} variant=nopie\n\n")


def test_clear_board_keeps_game_variant_size() -> None:
    out = run(["game spelde nopie flips=dense", "boardsize 5", "play b e5", "1 clear_board", "2 position", "3 undo"])
    assert out.endswith(f"=1 \n\n=2 spelde 5 b {EMPTY5} variant=nopie flips=dense\n\n?3 cannot undo\n\n")


def test_komi_is_a_setting_that_survives_clear_board() -> None:
    eng = engine()
    assert answer(eng, "1 komi 3") == "=1 \n\n"
    run(["clear_board", "boardsize 4"], eng)
    assert eng.session.komi == 3
    run(["game spelde"], eng)
    assert eng.session.komi == 0


@pytest.mark.parametrize("game", ["anda", "anda-prison"])
def test_komi_above_the_sites_counts_as_the_sites_and_its_position_loads(game: str) -> None:
    """`komi K` takes any K >= 0 (PROTOCOL.md); the rules clamp it to the sites (19 at n=3), as the
    kits' with_komi do, so `position` prints a `komi=` that `set_position` reads back."""
    eng = engine()
    run([f"game {game} nopie", "boardsize 3"], eng)
    out = run(["1 komi 99999", "2 position"], eng)
    assert out.startswith("=1 \n\n=2 ") and " komi=19 " in out
    position = out.removeprefix("=1 \n\n=2 ").removesuffix("\n\n")
    assert run([f"3 set_position {position}", "4 position"], eng) == f"=3 \n\n=4 {position}\n\n"
    assert eng.session.komi == 99999            # the setting as told: a larger board clamps it less
    assert " komi=37 " in run(["boardsize 4", "5 position"], eng)


@pytest.mark.parametrize("value", ["-1", "6.5", "abc", ""])
def test_komi_syntax_error(value: str) -> None:
    assert run([f"1 komi {value}"]).startswith("?1 syntax error")


# -- play, genmove, undo ----------------------------------------------------------------

def test_play_then_position() -> None:
    assert run(nopie5("1 play b e5", "2 position")).endswith(f"=1 \n\n=2 {E5_PLAYED}\n\n")


def test_play_input_is_case_insensitive() -> None:
    assert run(nopie5("1 play BLACK E5", "2 position")).endswith(f"=2 {E5_PLAYED}\n\n")


@pytest.mark.parametrize("line,prefix", [
    ("play w e5", "illegal move: white is not to move"),
    ("play b z9", "illegal move"),
    ("play b e8-e6", "syntax error"),
    ("play b e5,e6", "syntax error"),
    ("play b komi=3", "syntax error"),
    ("play b hello", "syntax error"),
    ("play x e5", "syntax error"),
    ("play b", "syntax error"),
    ("play", "syntax error"),
    ("play b e5 e6", "syntax error"),
    ("play b resign", "illegal move"),
    ("play b swap", "illegal move"),
])
def test_play_refused(line: str, prefix: str) -> None:
    eng = engine()
    run(nopie5(), eng)
    out = answer(eng, "7 " + line)
    assert out.startswith("?7 " + prefix), out
    assert answer(eng, "position") == f"= spelde 5 b {EMPTY5} variant=nopie\n\n"


def test_play_on_an_occupied_site() -> None:
    out = run(nopie5("play b e5", "1 play w e5"))
    assert out.endswith("?1 illegal move: e5 is occupied\n\n")


def test_play_when_the_game_is_over() -> None:
    out = run([f"set_position {FULL2}", "1 play b a1", "2 play w a1"])
    assert out.endswith("?1 illegal move: the game is over\n\n?2 illegal move: the game is over\n\n")


def test_genmove_plays_on_its_own_board() -> None:
    eng = engine()
    run(nopie5(), eng)
    out = answer(eng, "1 genmove b")
    assert out == "=1 a1\n\n"                                 # the first listed action
    assert answer(eng, "2 position") == \
        "=2 spelde 5 w b..../....../......./......../........./......../......./....../..... variant=nopie ply=1\n\n"
    assert answer(eng, "3 genmove w").startswith("=3 ")
    assert answer(eng, "4 genmove w").startswith("?4 illegal move: white is not to move")


def test_genmove_output_is_lower_case_and_parses() -> None:
    eng = engine(seeded(5))
    run(nopie5(), eng)
    for colour in "bwbwbw":
        state = eng.session.current
        token = answer(eng, f"genmove {colour}")[2:-2]
        assert token == token.lower()
        assert state.is_legal(state.parse(token))


def test_genmove_resign_leaves_the_board() -> None:
    eng = engine(lambda state, seconds: Resign())
    run(nopie5(), eng)
    assert answer(eng, "1 genmove b") == "=1 resign\n\n"
    assert answer(eng, "2 undo") == "?2 cannot undo\n\n"


def test_genmove_when_the_game_is_over() -> None:
    assert run([f"set_position {FULL2}", "1 genmove b"]).endswith("?1 illegal move: the game is over\n\n")


def test_genmove_passes_time_left_to_the_bot() -> None:
    seen = []

    def spy(state, clock):
        seen.append((clock.control, clock.left))
        return next(iter(state.legal_actions()))

    eng = engine(spy)
    run(["game spelde nopie", "genmove b", "time_settings 60 10 5", "time_left w 30 0", "genmove w",
         "time_left b 12 3", "genmove b"], eng)
    canadian = TimeControl(ClockKind.CANADIAN, main=60, period=10, stones=5)
    assert seen == [(None, None), (canadian, TimeLeft(30.0, 0)), (canadian, TimeLeft(12.0, 3))]


def test_undo_reverts_exactly_one_action() -> None:
    out = run(nopie5("play b e5", "play w a1", "1 undo", "2 position", "3 undo", "4 undo"))
    assert out.endswith(f"=1 \n\n=2 {E5_PLAYED}\n\n=3 \n\n?4 cannot undo\n\n")


def test_undo_reverts_a_swap() -> None:
    eng = engine()
    run(["game spelde", "boardsize 5", "play b e5"], eng)
    after_pie = answer(eng, "position")
    assert "phase=swap" in after_pie
    assert answer(eng, "1 play w swap") == "=1 \n\n"
    assert answer(eng, "2 undo") == "=2 \n\n"
    assert answer(eng, "position") == after_pie


# -- showboard, legal_moves, legal_cells ------------------------------------------------------

def test_showboard_shows_the_stones() -> None:
    out = run(nopie5("play b e5", "play w a1", "1 showboard"))
    board = out[out.index("=1 "):]
    assert board.count("b") >= 1 and "w to move" not in board
    lines = board[3:-2].split("\n")
    assert len(lines) == 1 + 9                                 # header and 9 rows
    assert "black to move" in lines[0]
    assert lines[1].lstrip().startswith("9") and lines[-1].lstrip().startswith("1")
    assert lines[5].split()[1:10] == list("....b....")          # row 5: e5 is black
    assert lines[-1].split()[1] == "w"                          # row 1: a1 is white


def test_legal_moves_on_the_smallest_board() -> None:
    out = run(["game spelde nopie", "boardsize 2", "1 legal_moves"])
    assert out.startswith("=") and out.endswith("\n\n")
    assert set(out.split("=1 ")[1].split()) == ALL2


def test_legal_moves_lists_swap_in_the_pie_phase() -> None:
    out = run(["game spelde", "boardsize 2", "play b a1", "1 legal_moves"])
    tokens = out.split("=1 ")[1].split()
    assert "swap" in tokens and len(tokens) == len(set(tokens))


def test_legal_moves_lists_flip_sets() -> None:
    # RULES S-T5: a white line a5..e5, Black f5 has exactly 16 flip sets.
    pos = "spelde 5 b ...../....../......./......../wwwww..../......../......./....../..... variant=nopie"
    eng = engine()
    run([f"set_position {pos}"], eng)
    tokens = answer(eng, "1 legal_moves")[3:-2].split()
    assert sum(1 for t in tokens if t.startswith("f5/")) == 16
    assert "f5/c5" in tokens and "f5/b5,d5" in tokens and "f5/e5" not in tokens


def test_legal_moves_empty_when_over() -> None:
    assert run([f"set_position {FULL2}", "1 legal_moves", "2 legal_cells"]) == "= \n\n=1 \n\n=2 \n\n"


def test_too_many_moves() -> None:
    eng = engine()
    run([f"set_position {HUGE}"], eng)
    assert answer(eng, "1 legal_moves") == "?1 too many moves: more than 100000 actions or 1000000 bytes\n\n"
    assert answer(eng, "2 legal_cells") == "=2 d4\n\n"


def test_legal_cells() -> None:
    assert run(["1 boardsize 2", "2 legal_cells"]).startswith("=1 \n\n=2 ")
    assert set(run(["boardsize 2", "1 legal_cells"])[len("= \n\n=1 "):-2].split()) == ALL2
    # RULES S-T3: a white singleton on e5 blocks its neighbours for Black.
    pos = "spelde 5 b ...../....../......./......../....w..../......../......./....../..... variant=nopie"
    cells = run([f"set_position {pos}", "1 legal_cells"]).split("=1 ")[1].split()
    assert {"d4", "d5", "e4", "e6", "f5", "f6", "e5"}.isdisjoint(cells)
    assert "a1" in cells and len(cells) == 61 - 7


# -- position, set_position, final_score, time ---------------------------------------------------

def test_set_position_round_trip_and_clears_history() -> None:
    eng = engine()
    assert answer(eng, f"1 set_position {E5_NOPIE}") == "=1 \n\n"
    assert answer(eng, "2 position") == f"=2 {E5_NOPIE}\n\n"
    assert answer(eng, "3 undo") == "?3 cannot undo\n\n"
    assert answer(eng, "4 game") == "=4 spelde nopie\n\n"


def test_set_position_is_case_insensitive() -> None:
    assert run([f"set_position {E5_NOPIE.upper()}", "1 position"]).endswith(f"=1 {E5_NOPIE}\n\n")


@pytest.mark.parametrize("text", [
    "", "spelde 5 x", "spelde 14 b " + EMPTY5, "spelde 5 b ./././.", "nosuch 5 b " + EMPTY5,
    "spelde 5 b " + EMPTY5 + " phase=dancing", "spelde 5 b " + EMPTY5 + " prison=1,1",
])
def test_set_position_invalid(text: str) -> None:
    eng = engine()
    before = answer(eng, "position")
    out = answer(eng, f"1 set_position {text}")
    if text:
        assert out.startswith("?1 invalid position: "), out
    else:
        assert out.startswith("?1 syntax error")
    assert answer(eng, "position") == before


def test_final_score() -> None:
    assert run(["1 final_score"]) == "?1 cannot score: the game is not over\n\n"
    assert run([f"set_position {FULL2}", "1 final_score"]).endswith("=1 W+\n\n")
    won_by_black = "spelde 2 w bb/bbw/ww variant=nopie"
    assert run([f"set_position {won_by_black}", "1 final_score"]).endswith("=1 B+\n\n")


def test_time_commands_accepted() -> None:
    assert run(["1 time_settings 300 10 1", "2 time_left b 120 0", "3 time_left WHITE 5 1"]) == \
        "=1 \n\n=2 \n\n=3 \n\n"


@pytest.mark.parametrize("line", ["time_settings 300", "time_settings a b c", "time_left x 1 0",
                                  "time_left b 1", "time_left b -1 0"])
def test_time_commands_syntax(line: str) -> None:
    assert run(["1 " + line]).startswith("?1 syntax error")


def test_a_whole_game_of_genmoves_ends_in_a_score() -> None:
    eng = engine(seeded(11))
    run(nopie5(), eng)
    colour = "b"
    for _ in range(200):
        out = answer(eng, f"genmove {colour}")
        if out.startswith("?"):
            break
        colour = "w" if colour == "b" else "b"
    assert answer(eng, "1 genmove b").startswith("?1 illegal move: the game is over")
    score = answer(eng, "2 final_score")
    assert score in ("=2 B+\n\n", "=2 W+\n\n")
    assert answer(eng, "3 legal_moves") == "=3 \n\n"
