"""The core's C ABI (core/include/hexarena.h, through ctypes) against the Python rules, the
specification, for every game: seeded random games in every variant at several board sides
and the well-formed random positions of tests/support/positions_drawn.py, compared at every
position (the position string, the end and the winner, the set of legal actions, the legal
cells, refusals of a syntax error and of illegal actions, Anda's placements with the rules'
reasons). The counts are
printed at the end of the session. Skipped only when no C library is built (.ci/run builds
one: ``cargo build --release --features capi`` in core/).
"""
from __future__ import annotations

import importlib
import itertools
import random
import zlib

import pytest

from hexarena.engine import registry
from hexarena.engine.errors import IllegalMove, InvalidNotation
from hexarena.engine.game import GameInfo, GameState
from hexarena.engine.geometry import hexagon

from tests.support.capi import ILLEGAL, OK, SYNTAX, CGame, find_library
from tests.support.differential import COUNTS, load
from tests.support.positions_drawn import random_position

LIB = find_library()
pytestmark = pytest.mark.skipif(LIB is None, reason="no C library of the core (cargo build --features capi)")
GAMES = registry.playable()
SIZES = (2, 3, 5, 7)
LISTED = 3000
#: A token of a form no game but Vaxandis has, and one that Vaxandis lacks.
FOREIGN = {"vaxandis": "d4/d5", "default": "e8-e6"}


def python_rules(game: str) -> GameInfo:
    return importlib.import_module(f"hexarena.engine.games.{registry.GAME_MODULES[game]}.state").RULES


def variants(info: GameInfo) -> list[list[str]]:
    names = [name for name, _ in info.options]
    return [[balance, *(f"{k}={v}" for k, v in zip(names, values))]
            for balance in info.balances for values in itertools.product(*(v for _, v in info.options))]


def refusal(py: GameState, token: str) -> tuple[int, str]:
    """The kind of the Python rules' answer to `token` and its reason."""
    try:
        py.play(py.parse(token))
    except InvalidNotation as exc:
        return SYNTAX, str(exc)
    except IllegalMove as exc:
        return ILLEGAL, str(exc)
    return OK, ""


def compare(py: GameState, c: CGame, rng: random.Random, label: str) -> list[str]:
    """One position in both; the Python rules' legal actions (tokens) when listed."""
    text = py.position()
    assert c.position() == text
    outcome = py.outcome()
    over, winner = c.outcome()
    assert over == (outcome is not None), text
    if outcome is not None:
        assert winner == (-1 if outcome.winner is None else "bw".index(outcome.winner.value)), text
        COUNTS[label, "ends"] += 1
    cells = py.legal_cells()
    assert c.legal_cells() == sorted((b for b in py.board.sites if cells >> b & 1), key=py.board.order_key), text
    listed = py.listed_actions(LISTED)
    tokens = None if listed is None else [py.format(a) for a in listed]
    if tokens is not None:
        mine = c.legal_actions()
        assert mine is not None and len(mine) == len(set(mine)), text
        assert set(mine) == set(tokens), (text, set(mine) ^ set(tokens))
        COUNTS[label, "actions"] += len(tokens)
    sample = rng.sample(list(py.board.sites), min(6, len(py.board.sites)))
    for token in [py.board.name(s) for s in sample] + [FOREIGN.get(py.info.id, FOREIGN["default"]), "swap"]:
        code, reason = refusal(py, token)
        assert c.check(token) == code, (text, token)
        if code == ILLEGAL and py.info.id == "anda" and token[1:].isdigit():
            assert LIB.hx_last_error().decode() == f"illegal move: {reason}", (text, token)   # the same reason
        COUNTS[label, "refusals"] += 1
    COUNTS[label, "positions"] += 1
    return tokens or []


@pytest.mark.parametrize("game", GAMES)
def test_seeded_games_agree_through_the_c_abi(game: str) -> None:
    info = python_rules(game)
    label = f"{game} (C ABI)"
    for n, tokens in itertools.product(SIZES, variants(info)):
        seed = zlib.crc32(" ".join([game, str(n), *tokens]).encode())
        rng = random.Random(seed)
        komi = 2 if info.uses_komi and n > 2 else 0
        py = info.new_game(info.variant(n, tokens), komi)
        c = CGame.new(LIB, game, n, " ".join(tokens), komi)
        for _ in range(80 if game == "vaxandis" else 400):
            compare(py, c, rng, label)
            if py.outcome() is not None:
                break
            action = py.random_action(rng)
            token = py.format(action)
            assert c.play(token) == OK, (py.position(), token, LIB.hx_last_error())
            py = py.play(action)
        COUNTS[label, "games"] += 1


@pytest.mark.parametrize("game", ["anda", "anda-prison"])
def test_a_komi_setting_above_the_sites_is_clamped_alike(game: str) -> None:
    """`komi K` above the sites: the Python rules and the kit's with_komi both take the sites."""
    info = python_rules(game)
    for n in (2, 3, 7):
        sites = hexagon(n).site_count
        for komi in (sites - 1, sites, sites + 1, 99999):
            for balance in ("nopie", "corners") if game == "anda-prison" else ("nopie",):
                py = info.new_game(info.variant(n, [balance]), komi)
                assert CGame.new(LIB, game, n, balance, komi).position() == py.position(), (n, komi)
                assert py.komi == min(komi, sites)


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_positions_agree_through_the_c_abi(game: str) -> None:
    info = python_rules(game)
    label = f"{game} (C ABI)"
    rng = random.Random(7)
    for _ in range(150):
        text = random_position(game, rng)
        py = load(info, text)
        compare(py, CGame.from_position(LIB, text), rng, label)
        COUNTS[label, "fuzzed positions"] += 1


#: Tokens whose reading is easy to get wrong (docs/rules.md, "Board and notation", "Tokens"): case,
#: white space, leading zeros, signs, numbers past 32 and 64 bits, a shape the game lacks naming a
#: site twice, the order in which a token's sites are read, `resign`.
ODD_TOKENS = ("e5", "E5", " e5\t", "e5\x1f", "\u212a5", "e05", "e0", "a0", "e+5", "e\u0665", "z1", "aa1", "e99999",
              "e18446744073709551621", "e1000000000000000000000", "e5,e5", "e5,e7", "e05,z9", "z9,e05", "a1,a1,c1",
              "e5,", "e5/d5,d5", "e5/e05", "e5/z9,e05", "z9/e5,", "e5/d5/f5", "e5-e5", "e5-e05", "e5-e6-e7", "e5:e5",
              "e5:e6,e6", "e5:z9,e05", "komi=3", "komi=03", "komi=+3", "komi=-0", "komi=4294967296",
              "komi=99999999999999999999", "komi=999999999999999999999", "resign", "RESIGN", "swap", "keep", "pass",
              "release", "propose", "")
#: Positions of every game in which those tokens are read: openings under the pie and without it,
#: and Anda's komi offer and answer.
TOKEN_POSITIONS = {
    "anda": ("anda 5 b {b} variant=pie phase=offer first=bw", "anda 5 w {b} phase=answer komi=3 first=bw",
             "anda 5 b {b} variant=nopie first=bw"),
    "anda-prison": ("anda-prison 5 b {b} phase=komi first=bw", "anda-prison 5 b {b} variant=nopie first=bw"),
    "spelde": ("spelde 5 b {b} phase=open", "spelde 5 b {b} variant=nopie"),
    "vaxandis": ("vaxandis 5 b {b} phase=open", "vaxandis 5 b {b} variant=nopie"),
    "marbanta": ("marbanta 5 b {b} phase=pie", "marbanta 5 b {b} variant=nopie"),
}
EMPTY5 = "/".join("." * (5 + min(r, 8 - r)) for r in range(9))


def token_kind(state: GameState, token: str) -> int:
    """How the rules answer `token` as the referee reads an answer (``read``, then play)."""
    try:
        state.play(state.read(token)[0])
    except InvalidNotation:
        return SYNTAX
    except IllegalMove:
        return ILLEGAL
    return OK


@pytest.mark.parametrize("game", GAMES)
def test_tokens_are_read_as_the_python_rules_read_them(game: str) -> None:
    """The C ABI (``hx_check``) and the rules the referee uses (the core's ``read`` when it is
    built) give every token the Python rules' answer: ok, `syntax error` or `illegal move`."""
    info = python_rules(game)
    for template in TOKEN_POSITIONS[game]:
        text = template.format(b=EMPTY5)
        py = load(info, text)
        referee = registry.from_position(text)
        c = CGame.from_position(LIB, text)
        for token in ODD_TOKENS:
            expected = refusal(py, token)[0]
            assert token_kind(py, token) == expected, (text, token)
            assert token_kind(referee, token) == expected, (text, token, "the referee's rules")
            assert c.check(token) == expected, (text, token, LIB.hx_last_error())


def test_the_listing_refuses_past_a_megabyte_as_the_protocol_does() -> None:
    """95,716 Spelde flip sets, fewer than 100000 actions but over 1,000,000 bytes: `hx_legal_actions`
    answers HX_ERR_TOO_MANY (HGP `too many moves`) where the Python engines do; a listing under
    both bounds is the Python rules' text."""
    from hexarena.protocol.commands import bounded_legal_moves

    big = "spelde 3 b www/wwww/wwww./ww.w/w.. variant=nopie"
    py = load(python_rules("spelde"), big)
    assert len(list(py.legal_actions())) < 100_000 and bounded_legal_moves(py) is None
    assert CGame.from_position(LIB, big).legal_actions() is None
    small = "spelde 3 b www/wwww/www../ww.w/w.. variant=nopie"
    assert CGame.from_position(LIB, small).legal_actions() == bounded_legal_moves(load(python_rules("spelde"), small)).split()


def test_colour_sets_are_read_in_either_order() -> None:
    """`first=wb` is `first=bw`, in the Python rules and through the C ABI."""
    text = "anda 3 b .../..../...../..../... variant=nopie first=wb"
    assert CGame.from_position(LIB, text).position() == load(python_rules("anda"), text).position()
