"""The referee's reading of info lines (referee/game/analysis.py): lines that share a beginning
are walked through the rules once, and judged exactly as each would be alone."""
from __future__ import annotations

import random

from hexarena.engine import registry
from hexarena.protocol.analysis import InfoError, check_pv
from hexarena.referee.game.analysis import read_info


def _line(state, rng: random.Random, length: int) -> list[str]:
    tokens, walk = [], state
    for _ in range(length):
        if walk.outcome() is not None:
            break
        action = walk.random_action(rng)
        tokens.append(walk.format(action))
        walk = walk.play(action)
    return tokens


def _alone(pv: tuple[str, ...], state, played: str) -> str | None:
    try:
        check_pv(pv, state, played)
    except InfoError as exc:
        return str(exc)
    return None


def test_lines_sharing_a_beginning_are_judged_as_each_alone() -> None:
    info = registry.get("spelde")
    rng = random.Random(3)
    for _ in range(40):
        state = info.new_game(info.variant(5, ["nopie"]), 0)
        for _ in range(rng.randrange(6)):
            state = state.play(state.random_action(rng))
        trunk = _line(state, rng, 6)
        if not trunk:
            continue
        lines = []
        for _ in range(8):
            cut = rng.randrange(1, len(trunk) + 1)
            after = state
            for token in trunk[:cut]:
                after = after.play(after.parse(token))
            tail = _line(after, rng, 4) if after.outcome() is None else []
            if rng.random() < 0.3:
                tail = tail + ["zz99"]                     # an illegal last action: the line is dropped
            lines.append(tuple(trunk[:cut] + tail))
        texts = ["info visits 1 pv " + " ".join(pv) for pv in lines]
        kept, notes = read_info(texts, state, trunk[0])
        expected = [(_alone(pv, state, trunk[0]), text) for pv, text in zip(lines, texts)]
        assert [k["line"] for k in kept] == [text for why, text in expected if why is None]
        assert [n.split(": ", 1)[1] for n in notes] == [f"{why}: {text[:80]!r}" for why, text in expected
                                                         if why is not None]


def test_a_long_pv_is_walked_and_kept_to_its_first_max_pv_actions() -> None:
    from hexarena.referee.game.analysis import MAX_PV
    info = registry.get("spelde")
    state = info.new_game(info.variant(13, ["nopie"]), 0)
    pv = _line(state, random.Random(1), MAX_PV + 30) + ["zz99"]     # illegal past the cut: never walked
    text = "info winrate 0.5 foo bar  pv " + "  ".join(pv)
    kept, notes = read_info([text], state, pv[0])
    [line] = kept
    assert line["pv"] == pv[:MAX_PV] and line["line"] == "info winrate 0.5 foo bar pv " + " ".join(pv[:MAX_PV])
    assert line["winrate"] == 0.5 and line["other"] == {"foo": "bar"}
    assert notes == [f"info line 1: pv cut to its first {MAX_PV} of {len(pv)} actions"]


def test_each_seat_keeps_analysis_up_to_its_budget_then_none() -> None:
    from hexarena.referee.game.analysis import SeatAnalysis
    import trio
    info = registry.get("spelde")
    state = info.new_game(info.variant(5, ["nopie"]), 0)
    played = state.format(state.random_action(random.Random(2)))
    lines = [f"info visits {k} note {'x' * 90}" for k in range(8)]        # ~100 characters each
    size = sum(len(line) for line in lines)

    async def main():
        seats = SeatAnalysis(budget=2 * size + 10)
        out = [await seats.read(0, lines, state, played) for _ in range(4)]
        return out, await seats.read(1, lines, state, played)
    out, other = trio.run(main)
    assert [k is not None for k, _ in out] == [True, True, False, False]
    assert out[2][1] == [f"analysis not kept from this move on: its lines would pass {2 * size + 10} "
                         "characters kept in this game"] and out[3][1] == []
    assert other[0] is not None and len(other[0]) == 8          # the other seat keeps its own
